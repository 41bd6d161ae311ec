-- Test operator (duelhost tests/test_lib_duel_*.py): runs Lua snippets given by a test.
--   s.define(src)   compile a snippet; it gets (e, tp, eg, ep, ev, re, r, rp) as `...`
--   the ignition effect's operation runs the snippet as a coroutine (yielding calls work)
--   s.results()     the values the snippet returned last time; s.count() how many
--   s.plain(src, ...) run a snippet as a plain call (actions are not allowed there)
local s = c991001
local last = { n = 0 }

function s.initial_effect(c)
	local e1 = Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_IGNITION)
	e1:SetRange(LOCATION_REMOVED)
	e1:SetOperation(s.operation)
	c:RegisterEffect(e1)
end

function s.define(src)
	s.snippet = assert(load(src, "=snippet"))
end

function s.operation(e, tp, eg, ep, ev, re, r, rp)
	last = table.pack(s.snippet(e, tp, eg, ep, ev, re, r, rp))
end

function s.results()
	return table.unpack(last, 1, last.n)
end

function s.count()
	return last.n
end

function s.plain(src, ...)
	return assert(load(src, "=plain"))(...)
end
