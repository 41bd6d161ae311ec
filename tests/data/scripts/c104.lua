--Test card 104: defines no initial_effect
local s,id=GetID()
s.loaded=true
