--Shuttered Lanterns
--Disables the two leftmost Main Monster Zones of its controller's opponent.
local s,id=GetID()

function s.initial_effect(c)
	local e1=Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_ACTIVATE)
	e1:SetCode(EVENT_FREE_CHAIN)
	c:RegisterEffect(e1)
	local e2=Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_FIELD)
	e2:SetCode(EFFECT_DISABLE_FIELD)
	e2:SetRange(LOCATION_SZONE)
	e2:SetValue(s.zones)
	c:RegisterEffect(e2)
end
function s.zones(e)
	-- zones are numbered for player 0 in the low half and player 1 in the high half
	if e:GetHandlerPlayer()==0 then return 0x3<<16 end
	return 0x3
end
