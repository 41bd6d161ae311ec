--hostile: an endless loop (only a duel deadline stops it when the time budget is huge)
local s,id=GetID()
function s.initial_effect(c)
	while true do end
end
