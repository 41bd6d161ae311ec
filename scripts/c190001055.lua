--Level Ladder
--A field Level update (EFFECT_UPDATE_LEVEL) for face-up monsters its controller controls.
local s,id=GetID()

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_FIELD)
	e2:SetCode(EFFECT_UPDATE_LEVEL)
	e2:SetRange(LOCATION_SZONE)
	e2:SetTargetRange(LOCATION_MZONE,0)
	e2:SetTarget(s.lvtg)
	e2:SetValue(1)
	c:RegisterEffect(e2)
end
function s.lvtg(e,c)
	return c:IsFaceup()
end
