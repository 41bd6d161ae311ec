--hostile: a looping __index where the host looks up initial_effect
local s,id=GetID()
rawset(Card,"__index",function() while true do end end)
s.refused=not pcall(setmetatable,s,{__index=function() while true do end end})
s.card_mt_refused=not pcall(setmetatable,Card,{__index=function() while true do end end})
function s.initial_effect(c)
end
