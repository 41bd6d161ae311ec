--Test card 101: callbacks that fail in different ways
local s,id=GetID()
function s.initial_effect(c)
end
function s.condition(e,tp)
	return s.missing_table.value
end
function s.cost(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then return true end
	error("cost failed on purpose")
end
function s.target(e,tp,eg,ep,ev,re,r,rp,chk)
	if chk==0 then
		local x=nil
		return x+1
	end
end
function s.operation(e,tp)
	local t={}
	return t.a.b
end
function s.value(e,c)
	return {}
end
function s.filter(c,x)
	return c.no_such_field.y
end
function s.error_table()
	error({code=1})
end
