--hostile: a filter that calls a library function with itself (C stack overflow, over and over)
local s,id=GetID()
function s.initial_effect(c)
	s.result=Duel.IsExistingMatchingCard(s.filter,0,0xff,0xff,1,nil)
end
function s.filter(c)
	return Duel.IsExistingMatchingCard(s.filter,0,0xff,0xff,1,nil)
end
