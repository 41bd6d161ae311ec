-- Test card: a plain Effect Monster whose class table offers the snippet runners.
local s,id=GetID()
function s.initial_effect(c)
end
function s.run(src, ...)
	return RunSnippet(src, ...)
end
-- number of results, then the results
function s.count(src, ...)
	local t = table.pack(RunSnippet(src, ...))
	return t.n, table.unpack(t, 1, t.n)
end
