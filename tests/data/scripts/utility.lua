-- Test utility: the two helpers these tests need.
function GetID()
	return self_table, self_code
end
Auxiliary = {}
aux = Auxiliary
function Auxiliary.GetValueType(v)
	local t = type(v)
	if t == "userdata" then
		local mt = getmetatable(v)
		if mt == Group then return "Group"
		elseif mt == Effect then return "Effect"
		else return "Card" end
	else return t end
end
function Group.CountPlusOne(g) return #g + 1 end
