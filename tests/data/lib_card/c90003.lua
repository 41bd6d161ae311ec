-- Test card: a Continuous Spell that holds counters where it is (the default range of a Spell).
local s,id=GetID()
function s.initial_effect(c)
	c:EnableCounterPermit(0x2)
end
