--hostile: engine work with no Lua in it (an exponential sum check over every card)
local s,id=GetID()
function s.initial_effect(c)
	local g=Duel.GetFieldGroup(0,0xff,0xff)
	if g:GetCount()>=25 then
		s.result=g:CheckWithSumEqual(Card.GetLevel,1000000,1,99)
	end
end
