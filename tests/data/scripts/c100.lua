--Test card 100: GetID, fields, initial_effect
local s,id=GetID()
s.loaded_id=id
s.marker="c100"
function s.initial_effect(c)
	s.initial_calls=(s.initial_calls or 0)+1
	s.last_card=c
	s.self_table_after=self_table
end
function s.cond(e,tp)
	return tp==0
end
function s.loop()
	while true do end
end
function s.bad(x)
	local t=nil
	return t.field
end
