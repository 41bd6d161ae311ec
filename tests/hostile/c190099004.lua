--hostile: the same recursion, every error caught by pcall, in an endless loop
local s,id=GetID()
function s.initial_effect(c)
	while true do pcall(Duel.IsExistingMatchingCard,s.filter,0,0xff,0xff,1,nil) end
end
function s.filter(c)
	return pcall(Duel.IsExistingMatchingCard,s.filter,0,0xff,0xff,1,nil)
end
