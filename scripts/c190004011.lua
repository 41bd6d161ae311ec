--Sprouting Xyz
--An Xyz Monster for the testing guide's scenarios (materials placed by the builder).
--It has no summoning procedure of its own: tests put it on the field directly.
local s,id=GetID()

function s.initial_effect(c)
	c:EnableReviveLimit()
end
