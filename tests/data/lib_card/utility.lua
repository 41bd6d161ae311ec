-- Minimal utility for the Card library tests (not the reference's utility.lua).
function GetID()
	return self_table, self_code
end
-- Run a chunk of Lua text with the given arguments; returns its results.
function RunSnippet(src, ...)
	local f = assert(load(src, "=snippet"))
	return f(...)
end
-- A snippet's results packed with their count, so tests can see "no value" apart from nil.
function RunSnippetPacked(src, ...)
	return table.pack(RunSnippet(src, ...))
end
