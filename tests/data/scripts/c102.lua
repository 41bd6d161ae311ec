--Test card 102: a Normal Pendulum monster still runs its script
local s,id=GetID()
function s.initial_effect(c)
	s.initialized=true
end
