-- Test card without effects.
local s,id=GetID()
function s.initial_effect(c)
end
