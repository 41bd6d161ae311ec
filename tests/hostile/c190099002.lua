--hostile: a pattern that backtracks exponentially inside one C call
local s,id=GetID()
function s.initial_effect(c)
	local found=string.find(("a"):rep(200),("a*"):rep(30).."b")
	s.after=found
end
