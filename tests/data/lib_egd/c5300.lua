-- Test card 5300: an Equip Spell with no effects of its own.
local s,id=GetID()
function s.initial_effect(c)
end
