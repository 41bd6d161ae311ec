-- Test card: what a typical initial_effect does while the card is loaded.
local s,id=GetID()
function s.initial_effect(c)
	s.loaded=(s.loaded or 0)+1
	s.code=c:GetCode()
	s.original=c:GetOriginalCode()
	s.is_self=c:IsCode(id)
	s.is_set=c:IsSetCard(0x99,0x45)
	s.level=c:GetLevel()
	s.attack=c:GetAttack()
	s.monster=c:IsType(TYPE_MONSTER)
	s.initializing=c:IsStatus(STATUS_INITIALIZING)
	c:EnableReviveLimit()
	c:EnableCounterPermit(0x1)
	c:SetCounterLimit(0x1,3)
	c:SetUniqueOnField(1,0,id)
	c:SetSPSummonOnce(id)
end
