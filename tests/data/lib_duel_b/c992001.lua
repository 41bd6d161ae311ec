-- Test operator for tests/test_lib_duel_select.py and test_lib_duel_query.py.
--   s.define(src)      compile a snippet; it gets (e, tp, eg, ep, ev, re, r, rp) as `...`
--   the ignition effect's operation runs the snippet as a coroutine (yielding calls work)
--   s.results()        what the snippet returned last time; s.count() how many values
--   s.plain(src, ...)  run a snippet as a plain call (actions are not allowed there)
local s = c992001
local last = { n = 0 }

function s.initial_effect(c)
	local e1 = Effect.CreateEffect(c)
	e1:SetType(EFFECT_TYPE_IGNITION)
	e1:SetRange(LOCATION_REMOVED)
	e1:SetOperation(s.operation)
	c:RegisterEffect(e1)
	-- a continuous effect running the same snippets (a continuous effect's pseudo chain link)
	local e2 = Effect.CreateEffect(c)
	e2:SetType(EFFECT_TYPE_FIELD + EFFECT_TYPE_CONTINUOUS)
	e2:SetCode(EVENT_CUSTOM + 992001)
	e2:SetRange(LOCATION_REMOVED)
	e2:SetOperation(s.operation)
	c:RegisterEffect(e2)
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

-- number of results, then the results
function s.plain_count(src, ...)
	local t = table.pack(assert(load(src, "=plain"))(...))
	return t.n, table.unpack(t, 1, t.n)
end

-- the cards of a group, in the group's order, as separate values (groups made by the core
-- do not outlive the call, cards do)
function Cards(g)
	local t = {}
	local tc = g:GetFirst()
	while tc do
		t[#t + 1] = tc
		tc = g:GetNext()
	end
	return table.unpack(t)
end

-- "Group" for a group handle, "Card", "Effect", else Lua's type name
function Kind(v)
	local mt = getmetatable(v)
	if mt == Group then return "Group" end
	if mt == Effect then return "Effect" end
	if type(v) == "userdata" then return "Card" end
	return type(v)
end
