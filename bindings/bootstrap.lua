-- duelhost: host-side Lua glue (privileged).
--
-- Run once by bindings/runtime.py while the full standard library is still
-- open.  It keeps what it needs (debug, os.clock, coroutine) as upvalues of
-- the closures below and returns them in a table that only Python holds;
-- `seal` then takes every unsafe name out of the global table.  Nothing this
-- chunk defines is reachable from a card script.
--
-- Conventions shared with Python (bindings/runtime.py):
--   * a binding's Python entry returns its results, or (ERR, message, level)
--     when it fails, or YIELD_MARK when the script must suspend;
--   * every call Python makes into Lua goes through a dispatcher here that
--     runs the script under xpcall, so a script error never reaches lupa;
--     the first argument `fresh` starts a new time budget;
--   * values crossing back to Python go through the handle map H, so an
--     engine object arrives in Python as itself (cards) or as a weak
--     reference to itself (effects, groups).

local cfg = ...

local debug, os, coroutine, string, table, math = debug, os, coroutine, string, table, math
local type, select, error, xpcall, pcall, rawget, rawset, rawequal, next, tostring, load =
      type, select, error, xpcall, pcall, rawget, rawset, rawequal, next, tostring, load
local setmetatable, getmetatable = setmetatable, getmetatable
local dsetmt, dgetmt = debug.setmetatable, debug.getmetatable
local sethook, getinfo, traceback = debug.sethook, debug.getinfo, debug.traceback
local clock = os.clock
local co_create, co_resume, co_yield, co_status = coroutine.create, coroutine.resume,
      coroutine.yield, coroutine.status
local tpack, tunpack = table.pack, table.unpack
local sformat, ssub = string.format, string.sub
local huge = math.huge
local collect = collectgarbage

local G = _G
local BOOT = getinfo(1, "S").source

local ERR, YIELD_MARK = cfg.err, cfg.yield_mark
local budget = cfg.budget
local interval = cfg.interval

local M = {}

---------------------------------------------------------------------------
-- time budget: a count hook on every thread that runs script code
---------------------------------------------------------------------------

local deadline = huge

local function hook()
  if clock() > deadline then
    local info = getinfo(2, "Sl")
    if info == nil or info.source == BOOT then
      return   -- never interrupt the host's own glue; the script is caught on its next step
    end
    error(sformat("script timeout: ran longer than the time budget of %g s (endless loop?) in %s",
                  budget, info.short_src), 2)
  end
end

local function arm(fresh)
  if fresh then deadline = clock() + budget end
end

function M.set_budget(seconds) budget = seconds end

---------------------------------------------------------------------------
-- handles: engine objects as userdata
---------------------------------------------------------------------------

-- handle userdata -> what Python gets for it (the card itself, or a weak
-- reference to the effect/group).  Weak keys: an entry lives exactly as long
-- as its handle.
local H = setmetatable({}, {__mode = "k"})

-- lupa's metatable for wrapped Python objects, learned from the first anchor.
local PYOBJ_MT = nil

-- A handle starts life as a lupa userdata wrapping a throw-away Python
-- "anchor".  Its metatable is replaced by a private one; when Lua collects
-- the handle, this finalizer gives it back to lupa so that lupa drops its
-- reference to the anchor.
local function finalize(u)
  local mt = PYOBJ_MT
  if mt ~= nil then
    dsetmt(u, mt)
    local gc = rawget(mt, "__gc")
    if gc ~= nil then gc(u) end
  end
end

-- The private metatable of a handle: indexing and getmetatable() see the
-- library table (Card class, Effect, Group); the finalizer stays hidden.
local function private_mt(lib)
  return {__index = lib, __metatable = lib, __gc = finalize}
end

local function copy_metamethods(pm, lib)
  for k, v in next, lib do
    if type(k) == "string" and k ~= "__index" and ssub(k, 1, 2) == "__" then
      rawset(pm, k, v)
    end
  end
end

local Card, Effect, Group, Duel, Debug
local PM_EFFECT, PM_GROUP
local PM_CLASS = setmetatable({}, {__mode = "k"})   -- card class table -> private metatable

function M.new_libs()
  -- The reference's layout: Card, Effect and Group index themselves; Duel
  -- and Debug are plain tables.
  Card = {}; Card.__index = Card
  Effect = {}; Effect.__index = Effect
  Group = {}; Group.__index = Group
  Duel = {}
  Debug = {}
  G.Card, G.Effect, G.Group, G.Duel, G.Debug = Card, Effect, Group, Duel, Debug
  PM_EFFECT = private_mt(Effect)
  PM_GROUP = private_mt(Group)
  return Card, Effect, Group, Duel, Debug
end

-- After the bindings are installed: metamethods defined in the library
-- tables (Group.__len, Group.__add, ...) must be in the handles' real
-- metatables for Lua to find them.
function M.finish_install()
  copy_metamethods(PM_EFFECT, Effect)
  copy_metamethods(PM_GROUP, Group)
end

local function take_anchor(anchor)
  if PYOBJ_MT == nil then PYOBJ_MT = dgetmt(anchor) end
end

function M.make_card(anchor, proxy, cls)
  take_anchor(anchor)
  local pm = PM_CLASS[cls]
  if pm == nil then
    pm = private_mt(cls)
    PM_CLASS[cls] = pm
  end
  dsetmt(anchor, pm)
  H[anchor] = proxy
  return anchor
end

function M.make_effect(anchor, proxy)
  take_anchor(anchor)
  dsetmt(anchor, PM_EFFECT)
  H[anchor] = proxy
  return anchor
end

function M.make_group(anchor, proxy)
  take_anchor(anchor)
  dsetmt(anchor, PM_GROUP)
  H[anchor] = proxy
  return anchor
end

-- The class table c<code>, created the way the reference creates it.
function M.card_class(code, create)
  local name = "c" .. code
  local cls = G[name]
  if cls == nil and create then
    cls = {}
    G[name] = cls
    cls = G[name]
    setmetatable(cls, G.Card)
    rawset(cls, "__index", cls)
  end
  return cls
end

function M.count_handles()
  local n = 0
  for _ in next, H do n = n + 1 end
  return n
end

---------------------------------------------------------------------------
-- mapping values that go back to Python
---------------------------------------------------------------------------

local function map(...)
  local n = select("#", ...)
  if n == 0 then return end
  if n == 1 then
    local a = ...
    return H[a] or a
  end
  if n == 2 then
    local a, b = ...
    return H[a] or a, H[b] or b
  end
  local t = tpack(...)
  for i = 1, n do
    local v = t[i]
    t[i] = H[v] or v
  end
  return tunpack(t, 1, n)
end

---------------------------------------------------------------------------
-- library wrappers: Lua function -> Python entry
---------------------------------------------------------------------------

-- The wrapper tail-calls `post`, which tail-calls `fail`: level 2 in `fail`
-- is the script function that called the library function, the position
-- luaL_error reports.  Level 0 is for messages the reference reports
-- without a position (Lua's own yield errors).
local function fail(msg, level)
  if level == 0 then error(msg, 0) end
  error(msg, 2)
end
-- (`r, ...` would turn a binding's zero results into one nil: no value stays no value)
local function post(...)
  local r = ...
  if r == ERR then return fail(select(2, ...)) end
  return ...
end

local function post_yield(...)
  local r = ...
  if r == YIELD_MARK then return co_yield(YIELD_MARK) end
  if r == ERR then return fail(select(2, ...)) end
  return ...
end

local function make_wrapper(impl, after)
  return function(...)
    local n = select("#", ...)
    if n == 1 then
      local a = ...
      return after(impl(H[a] or a))
    elseif n == 2 then
      local a, b = ...
      return after(impl(H[a] or a, H[b] or b))
    elseif n == 3 then
      local a, b, c = ...
      return after(impl(H[a] or a, H[b] or b, H[c] or c))
    elseif n == 0 then
      return after(impl())
    elseif n == 4 then
      local a, b, c, d = ...
      return after(impl(H[a] or a, H[b] or b, H[c] or c, H[d] or d))
    end
    local t = tpack(...)
    for i = 1, n do
      local v = t[i]
      t[i] = H[v] or v
    end
    return after(impl(tunpack(t, 1, n)))
  end
end

function M.wrap(impl, may_yield)
  return make_wrapper(impl, may_yield and post_yield or post)
end

function M.stub(name)
  local msg = "not implemented: " .. name
  return function() error(msg, 2) end
end

-- Reading a name the reference library does not have is an error (typos,
-- functions of other cores).  Writing new names stays allowed: utility.lua
-- adds Group.CheckSubGroup and friends, some cards wrap Duel functions.
function M.strict(lib, libname)
  setmetatable(lib, {__index = function(_, k)
    error(sformat("%s.%s is not a function of the reference core", libname, tostring(k)), 2)
  end})
end

---------------------------------------------------------------------------
-- dispatchers: every call from Python into script code
---------------------------------------------------------------------------

local last_tb = nil

local function describe(e)
  local t = type(e)
  if t == "string" then return e, t end
  if t == "number" then return tostring(e), t end
  return nil, t
end

local function handler(e)
  local msg, t = describe(e)
  last_tb = traceback(msg or sformat("(error object is a %s value)", t), 2)
  return e
end

local function failure(e)
  local msg, t = describe(e)
  local tb = last_tb
  last_tb = nil
  return false, msg, t, tb
end

local function finish(ok, ...)
  if ok then return true, map(...) end
  return failure(...)
end

-- Plain call: (true, results...) or (false, message|nil, error type, traceback|nil).
function M.call(fresh, fn, ...)
  if type(fn) ~= "function" then
    return false, "attempt to call a " .. type(fn) .. " value", "notfunction", nil
  end
  arm(fresh)
  last_tb = nil
  return finish(xpcall(fn, handler, ...))
end

-- Call a function found in a table (a card handle or a class table) by name.
local function call_field(fresh, obj, name, ...)
  local ok, fn = pcall(function() return obj[name] end)
  if not ok or type(fn) ~= "function" then
    return false, nil, "missing", nil
  end
  arm(fresh)
  last_tb = nil
  return finish(xpcall(fn, handler, ...))
end
M.call_field = call_field

-- Run a text chunk.  With a class table, self_table/self_code are set while
-- it runs (that is how GetID() finds them) and cleared afterwards.
function M.run(fresh, src, chunkname, cls, code)
  local f, err = load(src, chunkname, "t")
  if f == nil then
    return false, err, "string", nil
  end
  arm(fresh)
  last_tb = nil
  if cls ~= nil then
    G.self_table = cls
    G.self_code = code
  end
  local ok, e = xpcall(f, handler)
  if cls ~= nil then
    G.self_table = nil
    G.self_code = nil
  end
  if ok then return true end
  return failure(e)
end

-- A value of the global `tostring` (Debug.Message uses it), protected.
function M.tostring(fresh, v)
  arm(fresh)
  last_tb = nil
  local ok, s = xpcall(G.tostring, handler, v)
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

---------------------------------------------------------------------------
-- tasks: script callbacks that may suspend (cost, target, operation)
---------------------------------------------------------------------------
--
-- A task runs on a pooled coroutine whose body is a trampoline: it runs one
-- job under xpcall, reports DONE, and waits for the next job.  Threads are
-- never collected (lupa may hold objects that point at a thread's state), so
-- a pool keeps their number at the deepest nesting of suspended tasks.

---------------------------------------------------------------------------
-- line coverage (off unless the host asks): while it is on, every thread
-- that runs script code has a line hook beside the count hook, and the
-- lines of script chunks that ran are counted in HITS (source -> line ->
-- count).  Scripts never see any of it.
---------------------------------------------------------------------------

local HITS = {}
local thread_hook, thread_mask = hook, ""   -- what new threads get (get_thread)

-- function -> its chunk's source (getinfo "S" formats a short name each time:
-- asking for the function and caching its source is twice as fast)
local SRC_OF = setmetatable({}, {__mode = "k"})

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
    return
  end
  -- a count event: the time budget, as a tail call so that it sees the
  -- interrupted function at level 2 exactly as when it is the hook itself
  return hook(event, line)
end

local DONE = {}
local POOL, pool_n = {}, 0
local RUNNING = {}     -- task id -> thread
local next_id = 0
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
  sethook(T, thread_hook, thread_mask, interval)
  return T
end

local function done(id, ok, ...)
  if ok then return 2, map(...) end
  local _, msg, t, tb = failure(...)
  return 3, msg, t, tb
end

local function after_resume(id, T, ok, tag, ...)
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
  return done(id, ...)
end

-- Start fn(...) as a task.  Returns id, status, ... where status is
-- 1 (suspended), 2 (finished: results follow) or 3 (failed: message,
-- error type, traceback follow).
function M.task_start(fresh, fn, ...)
  local T = get_thread()
  next_id = next_id + 1
  local id = next_id
  RUNNING[id] = T
  arm(fresh)
  last_tb = nil
  return id, after_resume(id, T, co_resume(T, fn, ...))
end

function M.task_resume(fresh, id, ...)
  local T = RUNNING[id]
  if T == nil then
    return 3, "cannot resume a finished task", "string", nil
  end
  arm(fresh)
  last_tb = nil
  return after_resume(id, T, co_resume(T, ...))
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

-- Switch line coverage on or off: the main thread and every pooled or
-- suspended task thread get the new hook; new threads get it in get_thread.
function M.coverage(on)
  if on then
    thread_hook, thread_mask = cov_hook, "l"
  else
    thread_hook, thread_mask = hook, ""
  end
  sethook(thread_hook, thread_mask, interval)
  for i = 1, pool_n do sethook(POOL[i], thread_hook, thread_mask, interval) end
  for _, T in next, RUNNING do
    if co_status(T) ~= "dead" then sethook(T, thread_hook, thread_mask, interval) end
  end
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
-- the sandbox
---------------------------------------------------------------------------

-- Take away everything the reference does not give scripts.  The reference
-- opens base, string, utf8, table and math, then removes collectgarbage,
-- dofile and loadfile; chunks are loaded as text only.
function M.seal()
  local real_load = load
  local real_setmetatable = setmetatable
  G.load = function(chunk, chunkname, mode, ...)
    -- mode is ignored: text only, like luaL_loadbufferx(..., "t")
    if select("#", ...) > 0 then
      return real_load(chunk, chunkname, "t", (...))
    end
    return real_load(chunk, chunkname, "t")
  end
  -- _G never gets a metatable: lupa reads globals outside protected calls,
  -- so a global-table metamethod could take the whole process down.
  G.setmetatable = function(t, ...)
    if rawequal(t, G) then
      error("cannot change the metatable of the global table", 2)
    end
    return real_setmetatable(t, ...)
  end
  for _, name in next, {"io", "os", "debug", "package", "require", "coroutine", "python",
                        "collectgarbage", "dofile", "loadfile"} do
    G[name] = nil
  end
  sethook(hook, "", interval)
end

return M
