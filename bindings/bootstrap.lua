-- duelhost: host-side Lua glue (privileged).
--
-- Run once by bindings/runtime.py while the full standard library (and lupa's
-- `python` module) is still open.  It keeps what it needs (debug, os.clock,
-- coroutine, python.as_function) as upvalues of the closures below and
-- returns them in a table that only Python holds; `seal` then takes every
-- unsafe name out of the global table.  Nothing defined here is reachable
-- from a card script.
--
-- Conventions shared with Python (runtime.py, handles.py, registry.py):
--   * a library function is a C closure around its Python entry
--     (python.as_function), so a script's `return Duel.X(...)` keeps the
--     script's frame, as with the reference's C functions; the 79 yielding
--     ones get a small Lua wrapper that suspends when the entry returns
--     YIELD_MARK; fifteen Card queries called as methods are answered in Lua
--     for a card's printed values ("printed stats answered in Lua");
--   * a binding error is a Python exception whose text already carries the
--     script position (Python asks `where` for it); the message handler
--     turns it back into that text;
--   * every call Python makes into script code goes through a dispatcher
--     here that runs it under xpcall, so no Lua error reaches lupa; the first
--     argument `fresh` starts a new time budget (true, or the deadline on
--     time.monotonic's clock);
--   * an engine object is a lupa userdata of a Python "anchor"; CLASS maps it
--     to its class table (c<code>, Effect, Group) and lupa's metatable for
--     Python objects is changed to read through CLASS.

local cfg = ...

local debug, os, coroutine, string, table, math = debug, os, coroutine, string, table, math
local type, select, error, xpcall, pcall, rawget, rawset, rawequal, next, tostring, load =
      type, select, error, xpcall, pcall, rawget, rawset, rawequal, next, tostring, load
local setmetatable, getmetatable, rawlen = setmetatable, getmetatable, rawlen
local dgetmt = debug.getmetatable
local sethook, getinfo, traceback = debug.sethook, debug.getinfo, debug.traceback
local co_create, co_resume, co_yield, co_status, co_running = coroutine.create,
      coroutine.resume, coroutine.yield, coroutine.status, coroutine.running
local tpack, tunpack = table.pack, table.unpack
local sformat, ssub, supper, sbyte = string.format, string.sub, string.upper, string.byte
local find, match, gmatch, gsub = string.find, string.match, string.gmatch, string.gsub
local tsort, tmove, tinsert, tremove = table.sort, table.move, table.insert, table.remove
local srep, tointeger = string.rep, math.tointeger
local sdump = string.dump
local huge = math.huge
local collect = collectgarbage
local as_function = python.as_function
-- wall-clock seconds (Python's time.monotonic): a budget in real time, so a
-- runaway script is stopped after the same delay however busy the machine is
local clock = as_function(cfg.clock)

local G = _G
local BOOT = getinfo(1, "S").source

local YIELD_MARK = cfg.yield_mark
local budget = cfg.budget
local interval = cfg.interval
-- bounds of the C library functions that no hook interrupts (see seal)
local pattern_limit = cfg.pattern_limit
local max_elements = cfg.max_elements
local max_chunk = cfg.max_chunk

local M = {}

---------------------------------------------------------------------------
-- positions
---------------------------------------------------------------------------

-- error(msg, level), with `level` counted from the caller of glue_error and
-- moved past the host's own frames, so the position is the script's.
local function glue_error(msg, level)
  level = level + 1
  while true do
    local info = getinfo(level, "S")
    if info == nil or info.source ~= BOOT then break end
    level = level + 1
  end
  error(msg, level)
end

---------------------------------------------------------------------------
-- time budget: a count hook on every thread that runs script code
---------------------------------------------------------------------------

local deadline = huge
local hook
-- Set (with deadline = -huge) when the host stops the running call for another
-- reason than time (an error repeating through host functions): the hook and
-- pcall/xpcall then raise this text instead of the timeout's.
local stop_reason = nil

-- Threads whose hook was switched to every instruction after a timeout: a
-- script that catches the timeout with pcall is stopped at its very next
-- instruction outside the pcall, so it cannot keep running.
local escalated = {}
local n_escalated = 0

-- Heap size (KB) past which the hook collects in full inside a running call
-- (M.set_gc_limit; huge until the host sets it).  Between calls the host
-- collects (runtime.py, ensure_headroom); a single long call -- a group search
-- running for seconds -- would otherwise grow the heap up to the memory cap.
local gc_limit = huge
local gc_min_kb = 0

local function collect_in_call()
  collect("collect")
  collect("collect")
  local kb = collect("count")
  gc_limit = 2 * kb > gc_min_kb and 2 * kb or gc_min_kb
end

function M.set_gc_limit(limit_bytes, min_bytes)
  gc_limit = limit_bytes / 1024
  gc_min_kb = min_bytes / 1024
end

hook = function()
  if collect("count") > gc_limit then
    collect_in_call()     -- in full, never incrementally: see M.stop_auto_gc
  end
  if clock() > deadline then
    local info = getinfo(2, "Sl")
    if info == nil or info.source == BOOT then
      return   -- never interrupt the host's own glue; the script is caught on its next step
    end
    local T = co_running()
    if escalated[T] == nil then
      escalated[T] = true
      n_escalated = n_escalated + 1
      sethook(hook, "", 1)
    end
    error(stop_reason or sformat(
      "script timeout: ran longer than the time budget of %g s (endless loop?) in function <%s:%d>",
      budget, info.short_src, info.linedefined), 2)
  end
end

---------------------------------------------------------------------------
-- line coverage (off unless the host asks): while it is on, every thread
-- that runs script code has a line hook beside the count hook, and the
-- lines of script chunks that ran are counted in HITS (source -> line ->
-- count).  Scripts never see any of it.
---------------------------------------------------------------------------

local HITS = {}
local thread_hook, thread_mask = hook, ""   -- what threads get (get_thread, disarm)
-- the count of that hook: `interval`, or 0 (hook registered, not armed) while
-- the host arms it from outside (M.set_lazy); coverage always counts
local lazy_count = interval
local thread_count = interval
local register_thread = nil   -- the host's callable told each new thread's address
local rehook_threads

-- function -> its chunk's source: getinfo "S" formats a short name on every
-- call; asking for the function and caching its source is twice as fast
local SRC_OF = setmetatable({}, {__mode = "k"})

-- Lines since the time budget was last checked.  A count hook is not enough
-- beside a Lua line hook: the count runs down during the line hook's own
-- instructions too, and a count event due while a hook runs is dropped, so
-- in a tight loop (`while true do x = x + 1 end`) count events may never come.
-- Every loop iteration makes a line event, so the budget is also checked
-- every `interval` lines.
local lines_since_check = 0

local function cov_hook(event, line)
  if event == "line" then
    local fn = getinfo(2, "f").func
    local src = SRC_OF[fn]
    if src == nil then
      src = getinfo(fn, "S").source
      SRC_OF[fn] = src
    end
    if src ~= BOOT then
      local t = HITS[src]
      if t == nil then
        t = {}
        HITS[src] = t
      end
      t[line] = (t[line] or 0) + 1
    end
    lines_since_check = lines_since_check + 1
    if lines_since_check < interval then return end
  end
  lines_since_check = 0
  -- the time budget, as a tail call so that it sees the interrupted function
  -- at level 2 exactly as when it is the hook itself
  return hook(event, line)
end

-- `fresh` is the outermost call's deadline, on the same clock, when the host
-- computed it (saves a call to Python per outermost call), or true.
local function arm(fresh)
  if fresh == true then
    deadline = clock() + budget
  elseif fresh then
    deadline = fresh
  end
end

-- The outermost call returns: no budget runs between calls, and threads
-- switched to every-instruction hooks go back to their normal hook.
local function disarm(fresh)
  if fresh then
    deadline = huge
    stop_reason = nil
    if n_escalated > 0 then
      for T in next, escalated do
        if co_status(T) ~= "dead" then sethook(T, thread_hook, thread_mask, thread_count) end
      end
      escalated = {}
      n_escalated = 0
    end
  end
end

function M.set_budget(seconds) budget = seconds end

-- The host stops the running call: from now until the outermost call returns,
-- every hook event raises `reason` and pcall/xpcall refuse to start.
function M.stop(reason)
  stop_reason = reason
  deadline = -huge
end

---------------------------------------------------------------------------
-- handles: engine objects as userdata
---------------------------------------------------------------------------

-- handle userdata -> its class table (c<code>, Effect or Group).  Weak keys:
-- an entry lives exactly as long as its handle.
local CLASS = setmetatable({}, {__mode = "k"})
-- handle id -> handle: keeps a handle (and so its identity) while the
-- engine object lives; Python releases ids when the object is gone.
local REFS = {}

local PYMT, py_index, py_tostring = nil, nil, nil

-- Python: handle anchor -> its class table (nil for other Python objects).
-- Consulted only when CLASS has no entry for a userdata: lupa can, rarely,
-- make a second userdata for an anchor that already has one (its cache of
-- wrappers is weak and its clean-up runs later, in the collector's
-- finalizers); that second userdata must behave as a handle too.
local RESOLVE = nil
local resolved = 0

local function class_of(u)
  local cls = CLASS[u]
  if cls == nil and RESOLVE ~= nil and type(u) == "userdata" and dgetmt(u) == PYMT then
    cls = RESOLVE(u)
    if cls ~= nil then
      CLASS[u] = cls
      resolved = resolved + 1
    end
  end
  return cls
end

function M.set_resolver(fn) RESOLVE = as_function(fn) end
-- `duelhost check`: record reads of undefined ALL_CAPS globals (a misspelt
-- constant silently reads as nil).  The index function never raises: lupa
-- reads globals outside protected calls.
local UNDEF = {}
local function record_undefined(_, k)
  if type(k) == "string" and ssub(k, 1, 1) ~= "_" and k == supper(k) and find(k, "^[A-Z][A-Z0-9_]*$") then
    local info = getinfo(2, "Sl")
    UNDEF[#UNDEF + 1] = {k, info and info.short_src or "?", info and info.currentline or 0}
  end
  return nil
end
function M.record_undefined_globals(on)
  setmetatable(G, on and {__index = record_undefined} or nil)
end
function M.take_undefined_globals()
  local flat, n = {}, 0
  for _, e in next, UNDEF do
    flat[n + 1], flat[n + 2], flat[n + 3] = e[1], e[2], e[3]
    n = n + 3
  end
  UNDEF = {}
  return tunpack(flat, 1, n)
end

-- for tests: make a handle look like lupa's second wrapper (no CLASS entry)
function M.forget_class(u) CLASS[u] = nil end
function M.resolved_count() return resolved end

local function binop(name)
  return function(a, b)
    local cls = class_of(a)
    local f = cls ~= nil and rawget(cls, name) or nil
    if f == nil then
      cls = class_of(b)
      f = cls ~= nil and rawget(cls, name) or nil
    end
    if f == nil then
      glue_error("attempt to perform arithmetic on a userdata value", 2)
    end
    return f(a, b)
  end
end

-- Make lupa's metatable for Python objects serve handles: indexing reads the
-- class table, '#' and the group operators use the class's metamethods,
-- calling a handle is an error (as for any userdata), tostring prints
-- "userdata: 0x...".  Other Python objects (none reach scripts) keep
-- lupa's attribute access, which refuses every attribute.
function M.setup_handles(probe)
  PYMT = dgetmt(probe)
  py_index = rawget(PYMT, "__index")
  py_tostring = rawget(PYMT, "__tostring")
  rawset(PYMT, "__index", function(u, k)
    local cls = CLASS[u]            -- (class_of's common case without its call: every c:Method())
    if cls == nil then cls = class_of(u) end
    if cls ~= nil then return cls[k] end
    return py_index(u, k)
  end)
  rawset(PYMT, "__newindex", function(u, k, v)
    glue_error("attempt to index a userdata value", 2)
  end)
  rawset(PYMT, "__len", function(u)
    local cls = class_of(u)
    local f = cls ~= nil and rawget(cls, "__len") or nil
    if f == nil then glue_error("attempt to get length of a userdata value", 2) end
    return f(u)
  end)
  for _, name in next, {"__add", "__bor", "__sub", "__band", "__bxor"} do
    rawset(PYMT, name, binop(name))
  end
  rawset(PYMT, "__tostring", function(u)
    if class_of(u) ~= nil then return sformat("userdata: %p", u) end
    return py_tostring(u)
  end)
  rawset(PYMT, "__call", nil)
  rawset(PYMT, "__name", nil)
  rawset(PYMT, "__metatable", false)
end

function M.adopt(u, cls, id)
  CLASS[u] = cls
  REFS[id] = u
end

function M.release(...)
  for i = 1, select("#", ...) do
    REFS[(select(i, ...))] = nil
  end
end

function M.count_handles()
  local n = 0
  for _ in next, CLASS do n = n + 1 end
  return n
end

local Card, Effect, Group, Duel, Debug

-- What the metatable of a library table (Card, Effect, Group, Duel, Debug) is
-- protected with: a script's setmetatable on one fails ("cannot change a
-- protected metatable") and its getmetatable gives nil, as for the
-- reference's plain tables (seal maps HIDDEN back to nil).
local HIDDEN = {}

-- The metatable of every class table c<code>.  The reference sets Card itself,
-- but Card is a table scripts can write: a `__gc` put in it (rawset) would mark
-- every class created afterwards for finalization, and Lua runs finalizers with
-- hooks off; a `__mode` would make every class weak.  CLASS_MT is the host's
-- own and unreachable from scripts: it reads through Card as the reference's
-- lookup does, and getmetatable(c<code>) still gives Card.
local CLASS_MT

function M.new_libs()
  -- The reference's layout: Card, Effect and Group index themselves; Duel
  -- and Debug are plain tables.
  Card = {}; Card.__index = Card
  Effect = {}; Effect.__index = Effect
  Group = {}; Group.__index = Group
  Duel = {}
  Debug = {}
  setmetatable(Card, {__metatable = HIDDEN})
  CLASS_MT = {__index = Card, __metatable = Card}
  G.Card, G.Effect, G.Group, G.Duel, G.Debug = Card, Effect, Group, Duel, Debug
  G.print = M.print
  return Card, Effect, Group, Duel, Debug
end

-- A script's print goes to the duel's log, never to the host's stdout: its
-- arguments as Lua's print writes them (tostring, tab-separated) reach the
-- host's message handler the way Debug.Message does (type 2).
local debug_message   -- Debug.Message's C closure (set by M.set_function)
function M.print(...)
  local parts = {}
  for i = 1, select("#", ...) do parts[i] = tostring((select(i, ...))) end
  if debug_message ~= nil then debug_message(table.concat(parts, "\t")) end
end

-- The class table c<code>, created the way the reference creates it (but with
-- CLASS_MT as its metatable, see above).
function M.card_class(code, create)
  local name = "c" .. code
  local cls = G[name]
  if cls == nil and create then
    cls = {}
    G[name] = cls
    cls = G[name]
    setmetatable(cls, CLASS_MT)
    rawset(cls, "__index", cls)
  end
  return cls
end

---------------------------------------------------------------------------
-- library functions
---------------------------------------------------------------------------

-- (`...` rather than `r, ...`: a binding's zero results stay zero results)
local function post_yield(...)
  if (...) == YIELD_MARK then return co_yield(YIELD_MARK) end
  return ...
end

-- Install lib[name]; returns a Lua function that calls it (its "twin":
-- lupa hands a C closure to Python as the Python object inside it, so Python
-- keeps and passes back the twin instead).
function M.set_function(lib, name, entry, may_yield)
  local cf = as_function(entry)
  if rawequal(lib, Debug) and name == "Message" then debug_message = cf end
  if may_yield then
    local f = function(...) return post_yield(cf(...)) end
    rawset(lib, name, f)
    return f
  end
  rawset(lib, name, cf)
  return function(...) return cf(...) end
end

---------------------------------------------------------------------------
-- printed stats answered in Lua
---------------------------------------------------------------------------
-- The queries of a card's names and archetypes (c:GetCode(), IsCode,
-- IsSetCard, GetFusionCode, IsFusionCode), its type (GetType, IsType), its
-- Level (GetLevel, IsLevel, IsLevelBelow, IsLevelAbove), its Type (GetRace,
-- IsRace) and its Attribute (GetAttribute, IsAttribute), called as methods,
-- answer here without crossing into Python while the card's value is its
-- printed one (no effect of that kind reaches the card, none is assumed for
-- it: card_stats.py, printed_stats).  The host gives each card's printed
-- values once; any other card or value, and any call with arguments other
-- than a card and integers (or nil codes), goes to the binding, which
-- converts, refuses or answers as always.  The host empties the table
-- whenever one of those values may have changed (printed_reset).
--
-- The answers sit between the card class tables and Card (CLASS_MT's
-- __index), so `Card.IsCode` itself stays the binding: passed as a value
-- (g:Filter(Card.IsCode, nil, code)) the host still knows it and calls it
-- from Python (host.py, _direct_query).  A script that replaces one of those
-- functions of Card gets its own function for the method call too.

local math_type = math.type
local weak_keys = {__mode = "k"}
-- handle -> {type, Level, Type, Attribute, name, second name or 0, archetype
-- codes..., n = count} (-1: not the printed value; a name of -1: no names), or
-- false for no card
local PRINTED = setmetatable({}, weak_keys)
local printed_stats = nil     -- Python: a handle's printed values, or nothing

function M.printed_reset() PRINTED = setmetatable({}, weak_keys) end

local function printed(c)
  local f = PRINTED[c]
  if f == nil then
    if type(c) ~= "userdata" or class_of(c) == nil then return false end
    f = tpack(printed_stats(c))
    if f[1] == nil then f = false end
    PRINTED[c] = f
  end
  return f
end

-- the queries' answers from a card's values f, for one integer argument v

local function has_name(f, v)
  v = v & 0xFFFFFFFF
  return v == f[5] or (f[6] ~= 0 and v == f[6])
end

-- CardData.is_setcode: same low 12 bits, and every sub-archetype bit asked for
local function in_archetype(f, v)
  local settype, subtype = v & 0xFFF, v & 0xF000
  for i = 7, f.n do
    local sc = f[i]
    if sc & 0xFFF == settype and sc & subtype == subtype then return true end
  end
  return false
end

local function has_level(f, v) return v & 0xFFFFFFFF == f[2] end

-- test(f, v) over the n values of a call, nils skipped: true at the first
-- match, false for none; nil (ask the binding) when there is no value at all
-- ("2 Parameters are needed") or one is neither an integer nor nil.
local function any_value(test, f, n, ...)
  if n == 0 then return nil end
  for i = 1, n do
    local v = select(i, ...)
    if v ~= nil and math_type(v) ~= "integer" then return nil end
  end
  for i = 1, n do
    local v = select(i, ...)
    if v ~= nil and test(f, v) then return true end
  end
  return false
end

local function results(...) return ... end

-- Each query: (name; slow, the binding; k, the index of the value it reads in
-- f; test, its answer).  Whatever it does not answer goes to Card[name] -- the
-- binding, unless a script replaced it -- with the call's own arguments, and
-- called, not tail-called: the binding's error positions need this frame.

-- c:IsCode(code, ...), c:IsSetCard(setcode, ...), c:IsLevel(lv, ...): any of the values
local CARD = nil    -- the Card library (answer_printed)

local function any_of(name, slow, k, test)
  return function(...)
    local c = ...
    local f = PRINTED[c]
    if f == nil then f = printed(c) end
    if f and f[k] >= 0 and CARD[name] == slow then
      local n = select("#", ...) - 1
      if n == 1 then
        local _, v = ...
        if math_type(v) == "integer" then return test(f, v) end
      else
        local r = any_value(test, f, n, select(2, ...))
        if r ~= nil then return r end
      end
    end
    return results(CARD[name](...))
  end
end

-- c:IsType(t), c:IsLevelBelow(lv), c:IsRace(r)...: the first value only
local function first_of(name, slow, k, test)
  return function(...)
    local c, v = ...
    local f = PRINTED[c]
    if f == nil then f = printed(c) end
    if f and f[k] >= 0 and math_type(v) == "integer" and CARD[name] == slow then return test(f[k], v) end
    return results(CARD[name](...))
  end
end

-- c:GetType(), c:GetLevel()...: the value; c:GetCode(), c:GetFusionCode(): the names
local function value_of(name, slow, k)
  return function(...)
    local c = ...
    local f = PRINTED[c]
    if f == nil then f = printed(c) end
    if f and f[k] >= 0 and CARD[name] == slow then return f[k] end
    return results(CARD[name](...))
  end
end

local function names_of(name, slow)
  return function(...)
    local c = ...
    local f = PRINTED[c]
    if f == nil then f = printed(c) end
    if f and f[5] >= 0 and CARD[name] == slow then
      if f[6] ~= 0 then return f[5], f[6] end
      return f[5]
    end
    return results(CARD[name](...))
  end
end

local function shares_bit(t, v) return t & v & 0xFFFFFFFF ~= 0 end
-- (a Level is never 0 here for a card the bounds match: a card without one never does)
local function at_most(lv, v) return lv ~= 0 and lv <= v & 0xFFFFFFFF end
local function at_least(lv, v) return lv ~= 0 and lv >= v & 0xFFFFFFFF end

local PRINTED_QUERIES = {
  {"GetCode", names_of}, {"IsCode", any_of, 5, has_name}, {"IsSetCard", any_of, 5, in_archetype},
  {"GetFusionCode", names_of}, {"IsFusionCode", any_of, 5, has_name},
  {"GetType", value_of, 1}, {"IsType", first_of, 1, shares_bit},
  {"GetLevel", value_of, 2}, {"IsLevel", any_of, 2, has_level},
  {"IsLevelBelow", first_of, 2, at_most}, {"IsLevelAbove", first_of, 2, at_least},
  {"GetRace", value_of, 3}, {"IsRace", first_of, 3, shares_bit},
  {"GetAttribute", value_of, 4}, {"IsAttribute", first_of, 4, shares_bit},
}

-- Put the answers between the card class tables and Card; returns the table
-- of answers (by name).
function M.answer_printed(card_lib, fetch)
  printed_stats = as_function(fetch)
  CARD = card_lib
  local answers = setmetatable({}, {__index = card_lib})
  for i = 1, #PRINTED_QUERIES do
    local q = PRINTED_QUERIES[i]
    local name = q[1]
    rawset(answers, name, q[2](name, rawget(card_lib, name), q[3], q[4]))
  end
  CLASS_MT.__index = answers
  return answers
end

-- set_function for many functions of one library in one call:
-- (lib, name1, entry1, may_yield1, name2, ...) -> twin1, twin2, ...
function M.set_functions(lib, ...)
  local a = tpack(...)        -- (select(i, ...) in the loop would copy the rest each time)
  local twins, k = {}, 0
  for i = 1, a.n, 3 do
    k = k + 1
    twins[k] = M.set_function(lib, a[i], a[i + 1], a[i + 2])
  end
  return tunpack(twins, 1, k)
end

-- Reading a name the reference library does not have gives nil, as there
-- (scripts test `if Duel.LoadScript then`); the name is remembered so that
-- calling that nil says "Duel.X is not a function of the reference core"
-- (absent_call, in the error handler).  Writing new names stays allowed:
-- utility.lua adds Group.CheckSubGroup and friends, some cards wrap Duel functions.
local ABSENT = {}      -- name -> "Lib.name", for each absent name a script read
function M.strict(lib, libname)
  setmetatable(lib, {__metatable = HIDDEN, __index = function(_, k)
    if type(k) == "string" then ABSENT[k] = libname .. "." .. k end
    return nil
  end})
end

-- "attempt to call a nil value (field 'X')" with the library name read as nil.
local function absent_call(msg)
  local name = match(msg, "attempt to call a nil value %(field '([^']+)'%)")
            or match(msg, "attempt to call a nil value %(method '([^']+)'%)")
  local full = name ~= nil and ABSENT[name] or nil
  if full == nil then return msg end
  return msg .. ": " .. full .. " is not a function of the reference core"
end

-- "file:line: " of the script line that called the running library function
-- (luaL_where(L, 1)); thread: the task's thread, nil for the main thread.
-- "" when that caller is C code, or when the script tail-called a yielding
-- function's Lua wrapper (its line is gone).
local RUNNING = {}     -- task id -> thread (below)

function M.where(id)
  local T = id ~= nil and RUNNING[id] or nil
  -- main thread: 0 getinfo, 1 where, 2 the library function, 3 its caller
  local level = T ~= nil and 1 or 3
  while true do
    local info
    if T ~= nil then info = getinfo(T, level, "Slt") else info = getinfo(level, "Slt") end
    if info == nil then return "" end
    if info.source ~= BOOT then
      if info.currentline > 0 then
        return sformat("%s:%d: ", info.short_src, info.currentline)
      end
      return ""
    end
    if info.istailcall then return "" end
    level = level + 1
  end
end

---------------------------------------------------------------------------
-- dispatchers: every call from Python into script code
---------------------------------------------------------------------------

local last_tb = nil

-- The text of an error value: strings and numbers as Lua prints them; the
-- Python exception a binding raised, as its text.
local function describe(e)
  local t = type(e)
  if t == "string" then return e, t end
  if t == "number" then return tostring(e), t end
  if t == "userdata" and CLASS[e] == nil and PYMT ~= nil and dgetmt(e) == PYMT then
    local ok, s = pcall(py_tostring, e)
    if ok and type(s) == "string" then return s, "string" end
  end
  return nil, t
end

local function handler(e)
  if type(e) == "string" then e = absent_call(e) end
  local msg, t = describe(e)
  last_tb = traceback(msg or sformat("(error object is a %s value)", t), 2)
  if msg ~= nil and type(e) == "userdata" then return msg end
  return e
end

local function failure(e)
  local msg, t = describe(e)
  local tb = last_tb
  last_tb = nil
  return false, msg, t, tb
end

local function finish(fresh, ok, ...)
  disarm(fresh)
  if ok then return true, ... end
  return failure(...)
end

-- Plain call: (true, results...) or (false, message|nil, error type, traceback|nil).
function M.call(fresh, fn, ...)
  if type(fn) ~= "function" then
    return false, "attempt to call a " .. type(fn) .. " value", "notfunction", nil
  end
  arm(fresh)
  last_tb = nil
  return finish(fresh, xpcall(fn, handler, ...))
end

-- M.call with the first argument given as its handle's id (REFS keeps the
-- handle of every live engine object by id): the engine's calls into scripts
-- almost always start with an object -- a condition's effect, a filter's card
-- --, and an integer crosses from Python far more cheaply than a userdata.
function M.call_ref(fresh, fn, id, ...)
  if type(fn) ~= "function" then
    return false, "attempt to call a " .. type(fn) .. " value", "notfunction", nil
  end
  arm(fresh)
  last_tb = nil
  return finish(fresh, xpcall(fn, handler, REFS[id], ...))
end

-- Filter cards in one crossing (the engine's loops: Duel.GetMatchingGroup,
-- Group.Filter...): fn(c, ...) for the card of each of the first n arguments
-- in turn (handle ids: REFS keeps every card's handle for the whole duel, and
-- integers cross from Python far more cheaply than userdata), the rest being
-- every call's extra arguments -- the calls a plain call per card
-- would make, in the same order -- stopping after `limit` matches (0: none) or
-- at the first error.  Only for nested calls (no budget is armed here).
-- (true, k, i1, i2...): k cards were called, those indexes matched;
-- (false, k, msg, type, tb, i1...): the k-th call failed; nil: fn is no function.
function M.filter_cards(fn, n, limit, ...)
  if type(fn) ~= "function" then return nil end
  local a = tpack(...)
  local total = a.n
  local hits, h = {}, 0
  for i = 1, n do
    last_tb = nil
    local ok, v = xpcall(fn, handler, REFS[a[i]], tunpack(a, n + 1, total))
    if not ok then
      local _, msg, t, tb = failure(v)
      return false, i, msg, t, tb, tunpack(hits, 1, h)
    end
    if v ~= nil and v ~= false then
      h = h + 1
      hits[h] = i
      if h == limit then return true, i, tunpack(hits, 1, h) end
    end
  end
  return true, n, tunpack(hits, 1, h)
end

-- Call a function found in a card handle or a class table by name.
-- The lookup may run script code (an `__index` on the class table), so it runs
-- under the budget too; a lookup the budget stopped is that failure, any other
-- failed lookup a missing function.
local function index(obj, name) return obj[name] end

function M.call_field(fresh, obj, name, ...)
  arm(fresh)
  last_tb = nil
  local ok, fn = xpcall(index, handler, obj, name)
  if not ok and clock() > deadline then
    return finish(fresh, false, fn)
  end
  last_tb = nil
  if not ok or type(fn) ~= "function" then
    disarm(fresh)
    return false, nil, "missing", nil
  end
  return finish(fresh, xpcall(fn, handler, ...))
end

-- Run a text chunk.  With a class table, self_table/self_code are set while
-- it runs (that is how GetID() finds them) and cleared afterwards.
-- Compile a text chunk to the host's own bytecode (debug information kept, so
-- positions and tracebacks read as from the text): the dump, or nil and the
-- syntax error.  Scripts themselves can never load bytecode (load is "t" only).
function M.compile(src, chunkname)
  local f, err = load(src, chunkname, "t")
  if f == nil then return nil, err end
  return sdump(f)
end

local run_function

local function load_and_run(fresh, chunk, chunkname, mode, cls, code)
  local f, err = load(chunk, chunkname, mode)
  if f == nil then
    return false, err, "string", nil
  end
  return run_function(fresh, f, cls, code)
end

function M.run(fresh, src, chunkname, cls, code)
  return load_and_run(fresh, src, chunkname, "t", cls, code)
end

-- Run a chunk M.compile made (never anything a script or a file supplied).
function M.run_compiled(fresh, dump, chunkname, cls, code)
  return load_and_run(fresh, dump, chunkname, "b", cls, code)
end

run_function = function(fresh, f, cls, code)
  arm(fresh)
  last_tb = nil
  if cls ~= nil then
    G.self_table = cls
    G.self_code = code
  end
  local ok, e = xpcall(f, handler)
  disarm(fresh)
  if cls ~= nil then
    G.self_table = nil
    G.self_code = nil
  end
  if ok then return true end
  return failure(e)
end

-- The script's global `tostring` of a value (Debug.Message uses it), protected.
function M.tostring(fresh, v)
  arm(fresh)
  last_tb = nil
  local ok, s = xpcall(G.tostring, handler, v)
  disarm(fresh)
  if ok then
    if type(s) == "string" then return true, s end
    return true, nil
  end
  return failure(s)
end

-- A new table: the first n values form the sequence, the rest are key, value pairs.
function M.new_table(n, ...)
  local v = tpack(...)
  local t = {}
  for i = 1, n do t[i] = v[i] end
  for i = n + 1, v.n, 2 do
    local k = v[i]
    if k ~= nil then t[k] = v[i + 1] end
  end
  return t
end

-- Identity: Python uses it to get a second reference to a Lua value.
function M.identity(...)
  return ...
end

function M.full_gc()
  collect("collect")
  collect("collect")
end

-- Lua's own collector is stopped (M.stop_auto_gc): the host collects in full, between
-- script calls, when the heap has grown (runtime.py, ensure_headroom).  Why: lupa keeps
-- the userdata of a Python object in a weak-valued reference table and frees the table
-- slot in the userdata's finalizer.  An incremental cycle clears the weak slot first and
-- runs the finalizer some steps later; a handle pushed in between can be given that slot,
-- and the late finalizer then frees the slot of the *new* handle, so that lupa later hands
-- out another object's userdata for it (a Group where an Effect was passed).  A full
-- collection clears and finalizes with no script code in between.
function M.stop_auto_gc()
  collect("stop")
end
function M.auto_gc_running() return collect("isrunning") end

---------------------------------------------------------------------------
-- tasks: script callbacks that may suspend (cost, target, operation)
---------------------------------------------------------------------------
--
-- A task runs on a pooled coroutine whose body is a trampoline: it runs one
-- job under xpcall, reports DONE, and waits for the next job.  Threads are
-- never collected (lupa may hold objects that point at a thread's state), so
-- a pool keeps their number at the deepest nesting of suspended tasks.

local DONE = {}
local POOL, pool_n = {}, 0
local KEEP = {}        -- threads that died outside xpcall or were abandoned

local function trampoline(fn, ...)
  return trampoline(co_yield(DONE, xpcall(fn, handler, ...)))
end

local function get_thread()
  if pool_n > 0 then
    local T = POOL[pool_n]
    POOL[pool_n] = nil
    pool_n = pool_n - 1
    return T
  end
  local T = co_create(trampoline)
  sethook(T, thread_hook, thread_mask, thread_count)
  if register_thread ~= nil then register_thread(tostring(T)) end
  return T
end

local function done(ok, ...)
  if ok then return 2, ... end
  local _, msg, t, tb = failure(...)
  return 3, msg, t, tb
end

local function after_resume(fresh, id, T, ok, tag, ...)
  disarm(fresh)
  if not ok then
    -- the trampoline itself failed (no memory): this thread is finished
    RUNNING[id] = nil
    KEEP[#KEEP + 1] = T
    local msg, t = describe(tag)
    return 3, msg, t, nil
  end
  if tag == YIELD_MARK then
    return 1
  end
  RUNNING[id] = nil
  pool_n = pool_n + 1
  POOL[pool_n] = T
  return done(...)
end

-- Start fn(...) as task `id` (ids come from Python).  Returns status, ...
-- where status is 1 (suspended), 2 (finished: results follow) or 3 (failed:
-- message, error type, traceback follow).
function M.task_start(fresh, id, fn, ...)
  local T = get_thread()
  RUNNING[id] = T
  arm(fresh)
  last_tb = nil
  return after_resume(fresh, id, T, co_resume(T, fn, ...))
end

function M.task_resume(fresh, id, ...)
  local T = RUNNING[id]
  if T == nil then
    return 3, "cannot resume a finished task", "string", nil
  end
  arm(fresh)
  last_tb = nil
  return after_resume(fresh, id, T, co_resume(T, ...))
end

-- A suspended task the engine gave up on: its thread is never reused.
function M.task_drop(id)
  local T = RUNNING[id]
  if T ~= nil then
    RUNNING[id] = nil
    KEEP[#KEEP + 1] = T
  end
end

function M.task_stats()
  local running = 0
  for _ in next, RUNNING do running = running + 1 end
  return pool_n, running, #KEEP
end

-- Give the main thread and every pooled or suspended task thread the threads' hook.
rehook_threads = function()
  sethook(thread_hook, thread_mask, thread_count)
  for i = 1, pool_n do sethook(POOL[i], thread_hook, thread_mask, thread_count) end
  for _, T in next, RUNNING do
    if co_status(T) ~= "dead" then sethook(T, thread_hook, thread_mask, thread_count) end
  end
end

-- The host arms the budget hook from outside (runtime.py, LuaSandbox.enable_lazy_hooks):
-- every thread keeps the hook registered but not armed, so a call that ends
-- within a fraction of a second runs without Lua's per-instruction hook check,
-- and the host's watching thread arms the count hook of every thread (lua_sethook,
-- which may be called while the state runs) once a call has run for a while.
-- `fn` is told the address of each thread made from now on; this returns the
-- addresses of the threads that exist, the main thread first.
function M.set_lazy(fn)
  register_thread = as_function(fn)
  lazy_count = 0
  if thread_mask == "" then thread_count = 0 end
  rehook_threads()
  local out, k = {tostring((co_running()))}, 1
  for i = 1, pool_n do k = k + 1; out[k] = tostring(POOL[i]) end
  for _, T in next, RUNNING do k = k + 1; out[k] = tostring(T) end
  for i = 1, #KEEP do k = k + 1; out[k] = tostring(KEEP[i]) end
  return tunpack(out, 1, k)
end

function M.main_thread() return tostring((co_running())) end

-- Switch line coverage on or off: the main thread and every pooled or
-- suspended task thread get the new hook; new threads get it in get_thread.
function M.coverage(on)
  if on then
    thread_hook, thread_mask, thread_count = cov_hook, "l", interval
  else
    thread_hook, thread_mask, thread_count = hook, "", lazy_count
  end
  rehook_threads()
end

-- The lines counted so far, as text (one chunk a line: source, a tab, then
-- line:count pairs separated by spaces), and start counting afresh.
function M.coverage_take()
  local out, n = {}, 0
  for src, t in next, HITS do
    local parts, k = {}, 0
    for line, count in next, t do
      k = k + 1
      parts[k] = line .. ":" .. count
    end
    n = n + 1
    out[n] = src .. "\t" .. table.concat(parts, " ")
  end
  HITS = {}
  return table.concat(out, "\n")
end

---------------------------------------------------------------------------
-- C library functions no hook interrupts: bounded before they start
---------------------------------------------------------------------------
--
-- A count hook only runs between VM instructions, so one long C call cannot
-- be stopped by the time budget.  Most library functions are linear in their
-- input, and inputs are bounded by the memory limit.  These are not, and
-- are checked before the C function runs (an error at the script's line):
--   * pattern matching (string.find, match, gmatch, gsub): Lua's matcher
--     backtracks; each `*`, `+`, `-`, `%b` or back-reference can multiply
--     the work by the subject's length, each `?` by 2, and an unanchored
--     search repeats it from every position.  That product is an upper bound
--     of the matching steps; above `pattern_limit` the call is refused.
--     Plain searches (no special characters, or find's `plain`) cost
--     length x pattern length byte comparisons, refused above 64 x the limit.
--   * table.sort of more than `max_elements` entries, or of a table whose
--     metatable has __len or __index (its length or entries could change
--     between this check and the sort);
--   * table.move of more than `max_elements` entries;
--   * table.insert and table.remove on a table whose metatable has __len (they
--     shift every entry up to its length, whatever it says);
--   * string.rep of an empty string (and separator) loops n times for nothing:
--     it is asked for once, which gives the same empty string;
--   * load of a string chunk longer than `max_chunk` bytes (compiling is one C call).

-- The real function runs under pcall, so an error it raises itself carries no
-- position (luaL_where of its caller, pcall) and no function name: it gets the
-- script's line and `name`, as the script's direct call would give.  Errors of
-- script code it called (a gsub replacement, a sort comparator) already start
-- with a position and pass unchanged.
local function pass(name, ok, ...)
  if ok then return ... end
  local e = ...
  -- (a failed allocation stays the bare "not enough memory" the host recognises)
  if type(e) == "string" and e ~= "not enough memory" and find(e, "^[^:]+:%d+: ") == nil then
    glue_error((gsub(e, "^bad argument (#%d+) to '%?'", "bad argument %1 to '" .. name .. "'", 1)), 1)
  end
  error(e, 0)
end

-- index just past the single character class that starts at p[i] (lstrlib's classEnd)
local function class_end(p, i, m)
  local c = sbyte(p, i)
  if c == 37 then return i + 2 end                     -- %x
  if c ~= 91 then return i + 1 end                     -- a plain character or '.'
  i = i + 1                                            -- [set]
  if sbyte(p, i) == 94 then i = i + 1 end
  repeat
    if i > m then return m + 1 end                     -- malformed: the matcher says so
    local d = sbyte(p, i)
    i = i + 1
    if d == 37 then i = i + 1 end
  until sbyte(p, i) == 93
  return i + 1
end

-- An upper bound of the matching steps of pattern p on a subject of n bytes
-- (see above); stops counting once above the limit.
local function pattern_cost(n, p, anchorable)
  local m = #p
  local i, cost = 1, 1.0
  if anchorable and sbyte(p, 1) == 94 then i = 2 else cost = n + 1.0 end
  while i <= m and cost <= pattern_limit do
    local c = sbyte(p, i)
    if c == 40 or c == 41 then                         -- ( )
      i = i + 1
    elseif c == 36 and i == m then                     -- $ at the end
      i = i + 1
    elseif c == 37 and sbyte(p, i + 1) == 98 then      -- %bxy: scans the subject
      cost = cost * (n + 1.0)
      i = i + 4
    elseif c == 37 and sbyte(p, i + 1) == 102 then     -- %f[set]
      i = class_end(p, i + 2, m)
    elseif c == 37 and (sbyte(p, i + 1) or 0) >= 48 and (sbyte(p, i + 1) or 0) <= 57 then
      cost = cost * (n + 1.0)                          -- %1: compares a capture
      i = i + 2
    else
      i = class_end(p, i, m)
      local q = sbyte(p, i)
      if q == 42 or q == 43 or q == 45 then            -- * + -
        cost = cost * (n + 1.0)
        i = i + 1
      elseif q == 63 then                              -- ?
        cost = cost * 2.0
        i = i + 1
      end
    end
  end
  return cost
end

local function as_text(v)
  local t = type(v)
  if t == "string" then return v end
  if t == "number" then return tostring(v) end
  return nil
end

local function has_specials(p)
  return find(p, "[%^%$%*%+%?%.%(%[%%%-]") ~= nil
end

-- Refuse a match whose bound is above the limit; other argument errors are
-- left to the real function.
local function check_pattern(name, s, p, anchorable, plain)
  s, p = as_text(s), as_text(p)
  if s == nil or p == nil then return end
  local n, cost = #s, nil
  if plain or not has_specials(p) then
    cost = (n + 1.0) * #p / 64
  else
    cost = pattern_cost(n, p, anchorable)
  end
  if cost > pattern_limit then
    glue_error(sformat("string.%s: pattern too complex for a subject of %d bytes (it could take "
                       .. "more than the limit of %.0f matching steps): %q", name, n, pattern_limit,
                       ssub(p, 1, 40)), 2)
  end
end

local function bounded_find(s, p, init, plain)
  check_pattern("find", s, p, true, plain)
  return pass("find", pcall(find, s, p, init, plain))
end

local function bounded_match(s, p, init)
  check_pattern("match", s, p, true, false)
  return pass("match", pcall(match, s, p, init))
end

local function bounded_gmatch(s, p, ...)
  check_pattern("gmatch", s, p, false, false)
  return pass("gmatch", pcall(gmatch, s, p, ...))
end

local function bounded_gsub(s, p, repl, n)
  check_pattern("gsub", s, p, true, false)
  return pass("gsub", pcall(gsub, s, p, repl, n))
end

local function bounded_sort(t, comp)
  if type(t) == "table" then
    local mt = dgetmt(t)
    if mt ~= nil and (rawget(mt, "__len") ~= nil or rawget(mt, "__index") ~= nil) then
      glue_error("table.sort: a table with __len or __index metamethods cannot be sorted in card scripts", 2)
    end
    if rawlen(t) > max_elements then
      glue_error(sformat("table.sort: %d entries, more than the limit of %d", rawlen(t), max_elements), 2)
    end
  end
  return pass("sort", pcall(tsort, t, comp))
end

local function no_len(name, t)
  local mt = type(t) == "table" and dgetmt(t) or nil
  if mt ~= nil and rawget(mt, "__len") ~= nil then
    glue_error(sformat("table.%s: a table with a __len metamethod cannot be changed by it in card scripts",
                       name), 3)
  end
end

local function bounded_insert(t, ...)
  no_len("insert", t)
  return pass("insert", pcall(tinsert, t, ...))
end

local function bounded_remove(t, ...)
  no_len("remove", t)
  return pass("remove", pcall(tremove, t, ...))
end

local function bounded_rep(s, n, sep)
  local k = tointeger(n)
  if k ~= nil and k > 1 and as_text(s) == "" and (sep == nil or as_text(sep) == "") then
    n = 1
  end
  return pass("rep", pcall(srep, s, n, sep))
end

local function bounded_move(a1, f, e, t, a2)
  if type(f) == "number" and type(e) == "number" and e - f >= max_elements then
    glue_error(sformat("table.move: %.0f entries, more than the limit of %d", e - f + 1, max_elements), 2)
  end
  return pass("move", pcall(tmove, a1, f, e, t, a2))
end

---------------------------------------------------------------------------
-- the sandbox
---------------------------------------------------------------------------

-- Take away everything the reference does not give scripts.  The reference
-- opens base, string, utf8, table and math, then removes collectgarbage,
-- dofile and loadfile; chunks are loaded as text only.
function M.seal()
  local real_load = load
  local real_setmetatable = setmetatable
  local real_getmetatable = getmetatable
  G.load = function(chunk, chunkname, mode, ...)
    -- mode is ignored: text only, like luaL_loadbufferx(..., "t")
    if type(chunk) == "string" and #chunk > max_chunk then
      return nil, sformat("chunk of %d bytes: more than the limit of %d", #chunk, max_chunk)
    end
    if select("#", ...) > 0 then
      return real_load(chunk, chunkname, "t", (...))
    end
    return real_load(chunk, chunkname, "t")
  end
  -- getmetatable of a handle is its class table, as in the reference
  G.getmetatable = function(...)
    local cls = class_of((...))
    if cls ~= nil then return cls end
    local mt = real_getmetatable(...)
    if mt == HIDDEN then return nil end
    return mt
  end
  G.setmetatable = function(t, ...)
    -- _G never gets a metatable: lupa reads globals outside protected
    -- calls, so a global-table metamethod could take the process down.
    if rawequal(t, G) then
      error("cannot change the metatable of the global table", 2)
    end
    -- Lua runs __gc finalizers with hooks off: a looping finalizer could never
    -- be stopped.  Lua only honours a __gc present when setmetatable is called,
    -- so refusing it here is enough.  No reference script uses metamethods.
    local mt = ...
    if type(mt) == "table" and rawget(mt, "__gc") ~= nil then
      error("__gc metamethods are not allowed in card scripts", 2)
    end
    -- the library tables and class tables (HIDDEN, CLASS_MT): said at the script's line
    local old = type(t) == "table" and dgetmt(t) or nil
    if old ~= nil and rawget(old, "__metatable") ~= nil then
      error("cannot change a protected metatable", 2)
    end
    return real_setmetatable(t, ...)
  end
  -- After a timeout, protected calls refuse to start: at the C-stack limit the
  -- hook itself cannot run, and a script recursing through pcall would catch
  -- every "stack overflow" forever.  An error raised by the hook calls
  -- xpcall's message handler while hooks are still off, so after a timeout a
  -- script's handler is skipped.  No reference script uses pcall or xpcall.
  -- A library function's error reaches Lua as a Python exception object;
  -- scripts get its text, the string the reference's luaL_error makes.
  local real_pcall, real_xpcall = pcall, xpcall
  local function timed_out()
    return stop_reason or sformat(
      "script timeout: ran longer than the time budget of %g s (no protected call after it)", budget)
  end
  local function text_of(e)
    if type(e) == "userdata" and CLASS[e] == nil and dgetmt(e) == PYMT then
      local ok, s = real_pcall(py_tostring, e)
      if ok and type(s) == "string" then return s end
    end
    return e
  end
  local function pcall_result(ok, ...)
    if ok then return true, ... end
    return false, text_of((...))
  end
  G.pcall = function(...)
    if clock() > deadline then error(timed_out(), 2) end
    return pcall_result(real_pcall(...))
  end
  G.xpcall = function(f, msgh, ...)
    if clock() > deadline then error(timed_out(), 2) end
    if type(msgh) ~= "function" then
      return real_xpcall(f, msgh, ...)
    end
    return real_xpcall(f, function(e)
      if clock() > deadline then return e end
      return msgh(text_of(e))
    end, ...)
  end
  string.find, string.match, string.gmatch, string.gsub =
    bounded_find, bounded_match, bounded_gmatch, bounded_gsub
  string.rep = bounded_rep
  table.sort, table.move, table.insert, table.remove =
    bounded_sort, bounded_move, bounded_insert, bounded_remove
  for _, name in next, {"io", "os", "debug", "package", "require", "coroutine", "python",
                        "collectgarbage", "dofile", "loadfile"} do
    G[name] = nil
  end
  sethook(hook, "", interval)
end

return M
