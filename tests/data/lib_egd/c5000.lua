-- Test card 5000: registers two effects when created.
local s,id=GetID()
function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_SINGLE)
	e1:SetCode(EFFECT_UPDATE_ATTACK)
	e1:SetProperty(EFFECT_FLAG_SINGLE_RANGE)
	e1:SetRange(LOCATION_MZONE)
	e1:SetValue(s.atkval)
	c:RegisterEffect(e1)
	s.e1=e1
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_IGNITION)
	e2:SetRange(LOCATION_MZONE)
	e2:SetCountLimit(1,id)
	e2:SetOperation(s.op)
	c:RegisterEffect(e2)
	s.e2=e2
	s.owner_player_at_creation=e1:GetOwnerPlayer()
end
function s.atkval(e,c)
	return 100
end
function s.op(e,tp,eg,ep,ev,re,r,rp)
end
