"""The sandbox: what card scripts can and cannot reach, and how runaway scripts are stopped."""

from __future__ import annotations

import gc
import os
import threading
import time
from pathlib import Path

import pytest

from duelhost.bindings.host import LuaScriptHost
from duelhost.bindings.runtime import LuaSandbox, SandboxOptions
from duelhost.engine.card import CardData
from duelhost.engine.duel import Duel

SCRIPTS = Path(__file__).parent / "data" / "scripts"
TYPES = {100: 0x21, 101: 0x21}


def make_host(**options):
    host = LuaScriptHost(SCRIPTS, load_libraries=False, **options)
    duel = Duel(lambda code: CardData(code=code, type=TYPES.get(code, 0x21)), seed=1, script=host)
    return host, duel


def run(sb: LuaSandbox, src: str, *args):
    """Compile ``src`` as a function body and call it; the dispatcher's result tuple."""
    fn = sb.lua.eval("function(...) " + src + " end")
    return sb.call(True, fn, *args)


@pytest.fixture
def sb() -> LuaSandbox:
    return LuaSandbox(SandboxOptions(time_budget=0.3, max_memory=32 << 20))


# ----- what scripts see ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["io", "os", "debug", "package", "require", "coroutine", "python",
                                  "collectgarbage", "dofile", "loadfile"])
def test_unsafe_globals_are_gone(sb, name):
    assert run(sb, f"return {name} == nil") == (True, True)


@pytest.mark.parametrize("name", ["string", "table", "math", "utf8", "print", "pairs", "ipairs",
                                  "load", "pcall", "error", "setmetatable", "getmetatable", "tostring",
                                  "select", "rawequal", "next", "type"])
def test_reference_libraries_are_there(sb, name):
    assert run(sb, f"return {name} ~= nil") == (True, True)


def test_no_file_access(sb):
    for src in ('return io.open("/etc/passwd")', 'return dofile("/etc/passwd")',
                'return loadfile("/etc/passwd")', 'return require("os")',
                'return os.execute("true")', 'return package.loadlib("libc.so.6", "system")'):
        ok, msg, *_ = run(sb, src)
        assert ok is False, src
        assert "attempt to" in msg, (src, msg)


def test_load_refuses_bytecode(sb):
    ok, f, err = run(sb, "local f, e = load(string.dump(function() return 1 end)); return f, e")
    assert ok is True and f is None
    assert "binary chunk" in err
    ok, f, err = run(sb, 'local f, e = load(string.dump(function() return 1 end), "x", "b"); return f, e')
    assert f is None and "binary chunk" in err
    # text still loads, with or without an environment
    assert run(sb, 'return load("return 1 + 1")()') == (True, 2)
    assert run(sb, 'return load("return x", "t", "t", {x = 5})()') == (True, 5)


def test_no_path_to_python(sb):
    # lupa's python module is gone; the privileged table is not in _G
    assert run(sb, "return python") == (True, None)
    for k in ("eval", "builtins", "none", "as_attrgetter"):
        ok, msg, *_ = run(sb, f"return python.{k}")
        assert ok is False
    found = run(sb, """
        local n = 0
        for k, v in pairs(_G) do
          if type(v) == "userdata" then n = n + 1 end
        end
        return n""")
    assert found == (True, 0)


def test_python_objects_expose_no_attributes():
    """If a Python object ever reached a script, none of its attributes would be readable."""
    sb = LuaSandbox()

    class Secret:
        password = "hunter2"

        def method(self):
            return "called"

    fn = sb.lua.eval("function(o, k) return o[k] end")
    for attr in ("password", "__class__", "__dict__", "method", "__init__"):
        ok, msg, *_ = sb.call(True, fn, Secret(), attr)
        assert ok is False
        assert "hunter2" not in str(msg)


def test_global_table_metatable_is_protected(sb):
    ok, msg, *_ = run(sb, "setmetatable(_G, {__index = function() error('x') end})")
    assert ok is False and "global table" in msg
    # ordinary tables are unaffected
    assert run(sb, "local t = setmetatable({}, {__index = function() return 7 end}); return t.x") == (True, 7)


def test_strings_of_any_bytes_round_trip(sb):
    ok, s, n = run(sb, 'local s = "\\xff\\xfe" .. "é"; return s, #s')
    assert ok and n == 4
    assert run(sb, "local s = ...; return #s, s:byte(1)", s) == (True, 4, 255)


# ----- runaway scripts ----------------------------------------------------------------------------


def test_endless_loop_is_stopped_within_the_budget_naming_the_card():
    host, duel = make_host()          # default budget: 1 s
    duel.new_card(100)
    loop = host.sandbox.lua.eval("c100.loop")
    t0 = time.perf_counter()
    assert host.call_function(loop) == ()
    elapsed = time.perf_counter() - t0
    assert 0.9 <= elapsed < 2.0
    err = host.errors[-1]
    assert err.kind == "timeout"
    assert err.card_code == 100
    assert "c100.lua" in err.message and err.script == "c100.lua" and err.line == 14
    # the runtime is still usable
    assert host.check_condition(host.sandbox.lua.eval("c100.cond"), None, 0) is True


def _sample_armed(host, stop, out):
    """Record (seconds since start, threads with an armed hook) every 10 ms."""
    t0 = time.perf_counter()
    while not stop.is_set():
        out.append((time.perf_counter() - t0, host.sandbox.armed_threads()))
        time.sleep(0.01)


def test_the_budget_hook_is_armed_only_near_the_deadline_and_disarmed_after():
    """A host runs its calls with no Lua hook armed (Lua then checks no hook on each
    instruction); its watching thread arms the count hook ARM_BEFORE the deadline,
    the loop is stopped on time, and the return leaves every hook disarmed."""
    from duelhost.bindings.overrun import ARM_BEFORE, PERIOD
    host, duel = make_host(time_budget=1.5)
    duel.new_card(100)
    assert host.sandbox.armed_threads() == 0
    assert host.check_condition(host.sandbox.lua.eval("c100.cond"), None, 0) is True
    assert host.sandbox.armed_threads() == 0
    samples: list[tuple[float, int]] = []
    stop = threading.Event()
    sampler = threading.Thread(target=_sample_armed, args=(host, stop, samples))
    sampler.start()
    t0 = time.perf_counter()
    try:
        assert host.call_function(host.sandbox.lua.eval("c100.loop")) == ()
    finally:
        took = time.perf_counter() - t0
        stop.set()
        sampler.join()
    assert host.errors[-1].kind == "timeout" and 1.5 <= took < 2.5
    early = [n for t, n in samples if t < 1.5 - ARM_BEFORE - PERIOD]
    assert early and set(early) == {0}, samples     # the loop ran unhooked
    assert any(n >= 1 for t, n in samples), samples     # then armed, and stopped on time
    assert host.sandbox.armed_threads() == 0


def test_a_long_call_of_a_host_making_garbage_is_collected_while_it_runs():
    """The watching thread also arms the hook when the heap of a running call passes
    the collection limit, so the hook's collections still bound a long call's garbage."""
    host, duel = make_host(time_budget=30.0)
    churn = host.sandbox.lua.eval("""function(n)
        local keep = {}
        for i = 1, n do
          local t = {string.rep("z", 200) .. i}
          if i % 1000 == 0 then keep[#keep + 1] = t end
        end
        return #keep end""")
    assert host.call_function(churn, 400_000) == (400,)
    assert host.sandbox.memory_used() < 48 << 20, host.sandbox.memory_used()
    assert host.sandbox.armed_threads() == 0


@pytest.mark.skipif(not hasattr(os, "fork"), reason="needs os.fork")
def test_an_endless_loop_is_stopped_in_a_forked_child():
    """The watching thread does not survive os.fork; the child gets a new one that
    looks at the hosts it inherited, so their budgets still hold there."""
    host, duel = make_host(time_budget=0.3)
    duel.new_card(100)
    loop = host.sandbox.lua.eval("c100.loop")
    pid = os.fork()
    if pid == 0:                                       # the child
        code = 1
        try:
            t0 = time.perf_counter()
            host.call_function(loop)
            code = 0 if host.errors and host.errors[-1].kind == "timeout" and time.perf_counter() - t0 < 3 else 2
        finally:
            os._exit(code)
    deadline = time.monotonic() + 20
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            pytest.fail("the forked child's endless loop was never stopped")
        time.sleep(0.05)
    assert os.waitstatus_to_exitcode(status) == 0


def test_endless_loop_inside_a_coroutine_task_is_stopped():
    host, duel = make_host(time_budget=0.2)
    duel.new_card(100)
    task = host.start(host.sandbox.lua.eval("c100.loop"))
    t0 = time.perf_counter()
    assert task.resume() == (False, None)
    assert time.perf_counter() - t0 < 1.0
    err = host.errors[-1]
    assert err.kind == "timeout" and err.card_code == 100 and "c100.lua" in err.message
    # the pooled thread is reused for the next task
    ok_task = host.start(host.sandbox.lua.eval("function() return 5 end"))
    assert ok_task.resume() == (False, (5,))


def test_pcall_cannot_swallow_a_timeout(sb):
    t0 = time.perf_counter()
    for src in ('for i = 1, 100 do pcall(function() while true do end end) end return "escaped"',
                "while true do pcall(function() while true do end end) end",
                "local function f() while true do pcall(f) end end f()",
                "local function f() while true do xpcall(f, function(e) return e end) end end f()",
                "while true do xpcall(function() while true do end end, function() while true do end end) end",
                "local x <close> = setmetatable({}, {__close = function() while true do end end}) while true do end"):
        ok, msg, *_ = run(sb, src)
        assert ok is False and "script timeout" in msg, src
    assert time.perf_counter() - t0 < 4.0
    # afterwards calls run at full speed again (the every-instruction hook is undone)
    t0 = time.perf_counter()
    assert run(sb, "local x = 0 for i = 1, 1e6 do x = x + i end return x")[0] is True
    assert time.perf_counter() - t0 < 0.25


def test_finalizers_cannot_be_installed(sb):
    """Lua runs __gc with hooks off, so a looping finalizer could never be stopped."""
    ok, msg, *_ = run(sb, "setmetatable({}, {__gc = function() while true do end end})")
    assert ok is False and "__gc metamethods are not allowed" in msg
    # adding __gc after setmetatable does not mark the object (Lua 5.4): harmless
    assert run(sb, """local mt = {} setmetatable({}, mt)
        mt.__gc = function() while true do end end
        for i = 1, 1e5 do local t = {} end return 1""") == (True, 1)
    sb.full_gc()


def test_each_outermost_call_gets_a_fresh_budget(sb):
    busy = sb.lua.eval("function() local x = 0 for i = 1, 2e6 do x = x + i end return x end")
    for _ in range(5):      # each well under 0.3 s, together possibly more
        assert sb.call(True, busy)[0] is True


def test_runaway_allocation_is_stopped_and_the_runtime_goes_on(sb):
    ok, msg, *_ = run(sb, "local t = {} for i = 1, 1e9 do t[i] = i end")
    assert ok is False and msg == "not enough memory"
    ok, msg, *_ = run(sb, 'return string.rep("x", 1 << 30)')
    assert ok is False and msg == "not enough memory"
    sb.full_gc()
    assert sb.memory_used() < 8 << 20
    assert run(sb, "local t = {} for i = 1, 1000 do t[i] = i end return #t") == (True, 1000)


def test_a_long_call_making_garbage_is_collected_while_it_runs():
    """Lua's own collector is stopped; the count hook collects in full inside a call
    once the heap passes the limit, so one long call cannot hoard its garbage up to
    the memory cap (the host's peak memory in a long group search)."""
    sb = LuaSandbox(SandboxOptions(time_budget=30.0))    # the default 256 MiB cap
    churn = sb.lua.eval("""function(n)
        local keep = {}
        for i = 1, n do
          local t = {string.rep("z", 200) .. i}      -- about 300 bytes of garbage each
          if i % 1000 == 0 then keep[#keep + 1] = t end
        end
        return #keep end""")
    assert sb.call(True, churn, 400_000) == (True, 400)   # ~120 MB made, ~120 KB kept
    # right after the call (no collection between calls yet): only what the last
    # collections left; without the hook's collections the ~120 MB would still be there
    assert sb.memory_used() < 48 << 20, sb.memory_used()
    assert not sb.auto_gc_running()


def test_runaway_allocation_in_a_card_callback_is_reported():
    host, duel = make_host(max_memory=32 << 20)
    hog = host.sandbox.lua.eval('function(e) local t = {} while true do t[#t + 1] = string.rep("x", 1000) end end')
    task = host.start(hog)
    assert task.resume() == (False, None)
    err = host.errors[-1]
    assert err.kind == "memory" and "not enough memory" in err.message
    assert host.call_function(host.sandbox.lua.eval("function() return 1 end")) == (1,)


def test_memory_kept_by_a_script_refuses_new_calls_cleanly():
    """Above max_memory (but within the reserve) between calls: calls are refused, not crashed."""
    host, duel = make_host(max_memory=16 << 20)
    lua = host.sandbox.lua
    fill = lua.eval('function(n) HOARD = {} for i = 1, n do HOARD[i] = string.rep("y", 1000) .. i end end')
    host.call_function(fill, 17500)                    # ~17.5 MB stays reachable
    assert host.errors == []
    assert host.check_condition(lua.eval("function() return true end")) is False
    err = host.errors[-1]
    assert err.kind == "memory" and "memory exhausted" in err.message
    lua.execute("HOARD = nil")                         # the host's owner frees it
    host.sandbox.full_gc()
    assert host.check_condition(lua.eval("function() return true end")) is True
    gc.collect()


def test_hook_never_fires_inside_host_glue():
    sb = LuaSandbox(SandboxOptions(time_budget=0.05))
    slow = sb.lua.eval("function() local x = 0 for i = 1, 5e7 do x = x + 1 end return x end")
    ok, msg, *_ = sb.call(True, slow)
    assert ok is False and "script timeout" in msg
    # right after a timeout, the glue still returns normal results
    assert sb.call(True, sb.lua.eval("function() return 1 end")) == (True, 1)
