--Runelight Citadel
--Counters guide, "Removal Replacement": EFFECT_RCOUNTER_REPLACE+0x1. When its owner
--would remove Spell Counters as the cost of an activated effect, the counters can come
--off this card instead. The replacement reads the removal from the event arguments:
--re (the effect removing), r (the reason), ep (the removing player), ev (how many).
local s,id=GetID()

function s.initial_effect(c)
	c:EnableCounterPermit(0x1)
	--activate
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
	--a Spell Counter each time another Spell Card's activation resolves
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_CONTINUOUS+EFFECT_TYPE_FIELD)
	e2:SetCode(EVENT_CHAIN_SOLVED)
	e2:SetRange(LOCATION_FZONE)
	e2:SetOperation(s.ctop)
	c:RegisterEffect(e2)
	--remove the counters from this card instead
	local e3=Effect.CreateEffect(c)
	e3:SetDescription(aux.Stringid(id,0))
	e3:SetType(EFFECT_TYPE_CONTINUOUS+EFFECT_TYPE_FIELD)
	e3:SetCode(EFFECT_RCOUNTER_REPLACE+0x1)
	e3:SetRange(LOCATION_FZONE)
	e3:SetCountLimit(1)
	e3:SetCondition(s.rcon)
	e3:SetOperation(s.rop)
	c:RegisterEffect(e3)
end
function s.ctop(e,tp,eg,ep,ev,re,r,rp)
	if re:IsHasType(EFFECT_TYPE_ACTIVATE) and re:IsActiveType(TYPE_SPELL)
		and re:GetHandler()~=e:GetHandler() then
		e:GetHandler():AddCounter(0x1,1)
	end
end
function s.rcon(e,tp,eg,ep,ev,re,r,rp)
	return re~=nil and re:IsActivated() and (r&REASON_COST)~=0
		and ep==e:GetOwnerPlayer() and e:GetHandler():GetCounter(0x1)>=ev
end
function s.rop(e,tp,eg,ep,ev,re,r,rp)
	e:GetHandler():RemoveCounter(ep,0x1,ev,REASON_EFFECT)
end
