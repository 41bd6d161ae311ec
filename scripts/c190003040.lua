--Lantern Curfew
--A player restriction whose target function looks at the monster about to be
--Special Summoned (for Duel.IsPlayerCanSpecialSummonMonster: the prospective one).
local s,id=GetID()

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_FIELD)
	e2:SetCode(EFFECT_CANNOT_SPECIAL_SUMMON)
	e2:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
	e2:SetRange(LOCATION_SZONE)
	e2:SetTargetRange(0,1)
	e2:SetTarget(s.sumlimit)
	c:RegisterEffect(e2)
end
function s.sumlimit(e,c,sump,sumtype,sumpos,targetp,se)
	return c:IsType(TYPE_TOKEN) and c:IsAttribute(ATTRIBUTE_DARK)
end
