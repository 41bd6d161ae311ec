--Test card 103: does not compile
local s,id=GetID()
function s.initial_effect(c)
	if then
end
