--Runelight Familiar
--Counters guide, "Common Pitfalls": a Pendulum monster that keeps the default permit
--range. EnableCounterPermit(0x1) without a location means the Monster Zone only, so its
--counter effect, although live in the Pendulum Zone, places nothing there.
local s,id=GetID()

function s.initial_effect(c)
	c:EnableCounterPermit(0x1)
	--activate in the Pendulum Zone
	local e0=Effect.CreateEffect(c)
	e0:SetDescription(1160)
	e0:SetType(EFFECT_TYPE_ACTIVATE)
	e0:SetCode(EVENT_FREE_CHAIN)
	e0:SetRange(LOCATION_HAND)
	c:RegisterEffect(e0)
	--a Spell Counter each time another Spell Card's activation resolves
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_CONTINUOUS+EFFECT_TYPE_FIELD)
	e1:SetCode(EVENT_CHAIN_SOLVED)
	e1:SetRange(LOCATION_PZONE+LOCATION_MZONE)
	e1:SetOperation(s.ctop)
	c:RegisterEffect(e1)
end
function s.ctop(e,tp,eg,ep,ev,re,r,rp)
	if re:IsHasType(EFFECT_TYPE_ACTIVATE) and re:IsActiveType(TYPE_SPELL)
		and re:GetHandler()~=e:GetHandler() then
		e:GetHandler():AddCounter(0x1,1)
	end
end
