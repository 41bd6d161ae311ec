-- Helpers of the Effect/Group/Debug library tests (tests/test_lib_effect.py,
-- test_lib_group.py, test_lib_debug.py).  Our own code, not the reference's utility.lua.

function GetID()
	return self_table, self_code
end

-- Run a Lua snippet with arguments; its results.
function RunSnippet(src, ...)
	local f = assert(load(src, "=snippet"))
	return f(...)
end

local function counted(...)
	return select("#", ...), ...
end

-- Run a snippet; the number of its results first, then the results
-- (tells "no value" apart from nil).
function CountSnippet(src, ...)
	local f = assert(load(src, "=snippet"))
	return counted(f(...))
end

-- Compile a snippet into a function (to use as an effect's callback).
function CompileSnippet(src)
	return assert(load(src, "=snippet"))
end

-- The cards of a group as several values, in the group's order (so that a test
-- sees the contents of a group the script call made and then let go).
function Cards(g)
	local t = {}
	local c = g:GetFirst()
	while c do
		t[#t + 1] = c
		c = g:GetNext()
	end
	return table.unpack(t)
end
