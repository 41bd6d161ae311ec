--hostile: a finalizer put in Card, so that the host's next class table gets it
local s,id=GetID()
function s.initial_effect(c)
	rawset(Card,"__gc",function() Debug.Message("finalizer ran") while true do end end)
	rawset(Card,"__mode","kv")
	pcall(setmetatable,Duel,{__gc=function() Debug.Message("finalizer ran") end})
	pcall(setmetatable,{},{__gc=function() Debug.Message("finalizer ran") end})
end
