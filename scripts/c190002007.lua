--Hexbound Totem
--Counters guide, "Counter Types" and "Counter Events": a limit on the flag-bit type
--0x10f1 (Hex Counters need no permit), and its own EVENT_ADD_COUNTER+0x10f1, which
--Card.AddCounter raises on the card that received the counters. It also holds Spell
--Counters through a permit: a disable reset takes those and leaves the Hex Counters.
local s,id=GetID()
local COUNTER_HEX=0x10f1

function s.initial_effect(c)
	c:EnableCounterPermit(0x1)
	c:SetCounterLimit(0x1,2)
	c:SetCounterLimit(COUNTER_HEX,3)
	--LP for each Hex Counter placed on this card
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_CONTINUOUS)
	e1:SetCode(EVENT_ADD_COUNTER+COUNTER_HEX)
	e1:SetOperation(s.lpop)
	c:RegisterEffect(e1)
	--a Spell Counter
	local e2=Effect.CreateEffect(c)
	e2:SetDescription(aux.Stringid(id,0))
	e2:SetCategory(CATEGORY_COUNTER)
	e2:SetType(EFFECT_TYPE_IGNITION)
	e2:SetRange(LOCATION_MZONE)
	e2:SetCountLimit(1)
	e2:SetTarget(s.cttg)
	e2:SetOperation(s.ctop)
	c:RegisterEffect(e2)
end
function s.lpop(e,tp,eg,ep,ev,re,r,rp)
	Duel.Recover(e:GetHandlerPlayer(),ev*300,REASON_EFFECT)
end
function s.cttg(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return e:GetHandler():IsCanAddCounter(0x1,1) end
	Duel.SetOperationInfo(0,CATEGORY_COUNTER,nil,1,0,0x1)
end
function s.ctop(e,tp,eg,ep,ev,re,r,rp)
	local c=e:GetHandler()
	if c:IsRelateToEffect(e) and c:IsFaceup() then
		c:AddCounter(0x1,1)
	end
end
