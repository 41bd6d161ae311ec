--Narrow Lanes
--A restriction that depends on the field: every Token placed by an earlier step of a
--batch takes a zone, so a later step of the same batch can be refused. (A stepped
--Token is not yet "on the field" for Duel.IsExistingMatchingCard and the like until
--the batch completes, but it does occupy its zone.)
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
	e2:SetTargetRange(1,1)
	e2:SetTarget(s.sumlimit)
	c:RegisterEffect(e2)
end
function s.sumlimit(e,c,sump,sumtype,sumpos,targetp,se)
	return c:IsType(TYPE_TOKEN) and Duel.GetLocationCount(targetp,LOCATION_MZONE)<=3
end
