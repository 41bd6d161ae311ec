--Test card 105: initial_effect sees STATUS_INITIALIZING; a bad library call
local s,id=GetID()
function s.initial_effect(c)
	s.init_status=Debug.TestHostProbe(c)
	s.init_calls=(s.init_calls or 0)+1
end
function s.bad_call()
	local x=1
	return Debug.TestHostArgErr(x)
end
