"""LuaScriptHost: script loading, plain and coroutine calls, yields, and error records."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from duelhost.bindings import registry
from duelhost.bindings.errors import LuaArgError, ScriptFailure
from duelhost.bindings.host import LuaScriptHost
from duelhost.bindings.registry import NoValue, Yield, lua_function
from duelhost.engine.card import CardData
from duelhost.engine.constants import STATUS_INITIALIZING
from duelhost.engine.duel import Duel
from duelhost.engine.event import Event

SCRIPTS = Path(__file__).parent / "data" / "scripts"
DB = {
    100: CardData(code=100, type=0x21),
    101: CardData(code=101, type=0x21),
    102: CardData(code=102, type=0x1000011),      # Normal Pendulum
    103: CardData(code=103, type=0x21),
    104: CardData(code=104, type=0x21),
    105: CardData(code=105, type=0x21),
    200: CardData(code=200, type=0x11),           # Normal Monster
    999: CardData(code=999, type=0x21),           # no script file
}

# ----- test-only bindings ------------------------------------------------------------------------

TEST_NAMES = []


def _binding(name, **kw):
    TEST_NAMES.append(name)
    return lua_function(name, extension=True, **kw)


@_binding("Duel.TestHostYield", yields=True)
def _yield(ctx, args):
    n = args.int(1)
    card = args.opt_card(2)
    return Yield(lambda: (n * 2, card))


@_binding("Duel.TestHostYieldNothing", yields=True)
def _yield_nothing(ctx, args):
    return Yield()


@_binding("Duel.TestHostChecked", checks_action=True)
def _checked(ctx, args):
    return 1


@_binding("Debug.TestHostProbe")
def _probe(ctx, args):
    return args.card(1).is_status(STATUS_INITIALIZING)


@_binding("Debug.TestHostFilter")
def _filter(ctx, args):
    return ctx.check_filter(args.function(1), args.card(2), *args.rest(3))


@_binding("Debug.TestHostBoom")
def _boom(ctx, args):
    raise ValueError("boom inside a binding")


@_binding("Debug.TestHostBadReturn")
def _bad_return(ctx, args):
    return object()


@_binding("Debug.TestHostArgErr")
def _arg_err(ctx, args):
    args.need(1)
    return args.card(1)


@_binding("Duel.TestHostYieldBad", yields=True)
def _yield_bad(ctx, args):
    raise LuaArgError("bad yielding call")


@_binding("Debug.TestHostCustomErr")
def _custom_err(ctx, args):
    raise LuaArgError("bare message", level=0)


@pytest.fixture(scope="module", autouse=True)
def _cleanup():
    yield
    for name in TEST_NAMES:
        registry.unregister(name)


def make(strict=False, **kw):
    host = LuaScriptHost(SCRIPTS, load_libraries=False, strict=strict, **kw)
    duel = Duel(DB.get, seed=1, script=host)
    return host, duel


def lua(host, src):
    return host.sandbox.lua.eval(src)


def fn(host, body):
    return lua(host, "function(...) " + body + " end")


def drive(task, on_yield=None):
    """Run a task the way the engine's _run_callback does; (yields seen, final result)."""
    seen = []
    value = None
    while True:
        suspended, out = task.resume(value)
        if not suspended:
            return seen, out
        seen.append(out)
        if on_yield:
            on_yield(out)
        value = out.result()


# ----- loading -------------------------------------------------------------------------------------


def test_library_files_are_loaded_in_order_and_missing_ones_recorded():
    host, duel = make()
    assert host.scripts_read[:3] == ["./script/constant.lua", "./script/utility.lua",
                                     "./script/procedure.lua"]
    assert host.scripts_missing == ["./script/procedure.lua"]
    assert host.call_function(fn(host, "return CONSTANT_LOADED, TYPE_EFFECT")) == (True, 0x20)
    assert host.errors == []
    # the temp card loads nothing
    assert "./script/c0.lua" not in host.scripts_read


def test_get_id_and_initial_effect():
    host, duel = make(strict=True)
    c = duel.new_card(100)
    assert host.call_function(fn(host, "return c100.loaded_id, c100.initial_calls, self_table, self_code")) \
        == (100, 1, None, None)
    assert host.call_function(fn(host, "return rawequal(c100.last_card, ...)"), c) == (True,)
    duel.new_card(100)                    # the script runs once; initial_effect once per card
    assert host.call_function(fn(host, "return c100.initial_calls")) == (2,)
    assert host.scripts_read.count("./script/c100.lua") == 1


def test_initial_effect_runs_with_status_initializing():
    host, duel = make(strict=True)
    c = duel.new_card(105)
    assert host.call_function(fn(host, "return c105.init_status, c105.init_calls")) == (True, 1)
    assert not c.is_status(STATUS_INITIALIZING)


def test_normal_monsters_run_no_script_but_normal_pendulums_do():
    host, duel = make(strict=True)
    duel.new_card(200)
    duel.new_card(102)
    assert "./script/c200.lua" not in host.scripts_read
    assert host.call_function(fn(host, "return LOADED_200, c102.initialized")) == (None, True)
    # the Normal Monster still has a class table and a handle
    assert host.call_function(fn(host, "return type(c200)")) == ("table",)


def test_missing_script_is_logged_once_and_reported_like_the_reference(caplog):
    host, duel = make()
    with caplog.at_level(logging.WARNING, logger="duelhost.scripts"):
        duel.new_card(999)
        duel.new_card(999)
    assert sum("no script c999.lua" in r.getMessage() for r in caplog.records) == 1
    assert host.scripts_missing[-1] == "./script/c999.lua"
    assert host.missing_card_scripts == {999}
    calls = [e for e in host.errors if e.kind == "call"]
    assert len(calls) == 2
    assert calls[0].log_line == '"CallCardFunction"(c999.initial_effect): attempt to call an error function'
    assert calls[0].card_code == 999 and calls[0].callback == "initial_effect"
    assert host.log[-1] == (1, calls[0].log_line)


def test_script_that_does_not_compile():
    host, duel = make()
    duel.new_card(103)
    load_err, call_err = host.errors
    assert load_err.kind == "load" and load_err.script == "c103.lua" and load_err.line == 4
    assert load_err.card_code == 103 and load_err.callback == "script"
    assert load_err.log_line.startswith('[string "./script/c103.lua"]:4:')
    assert call_err.kind == "call" and "c103.initial_effect" in call_err.message


def test_script_without_initial_effect():
    host, duel = make()
    duel.new_card(104)
    assert [e.message for e in host.errors] == [
        '"CallCardFunction"(c104.initial_effect): attempt to call an error function']
    assert host.call_function(fn(host, "return c104.loaded")) == (True,)


# ----- plain calls ---------------------------------------------------------------------------------


def test_condition_values_and_nil_functions():
    host, duel = make(strict=True)
    assert host.check_condition(None) is True
    assert host.get_function_value(None) == 0
    assert host.get_function_values(None) == []
    assert host.check_filter(None, duel.temp_card) is True
    assert host.get_operation_value(None, duel.temp_card) == 0
    assert host.check_condition(fn(host, "return 0")) is True          # lua_toboolean(0)
    assert host.check_condition(fn(host, "return nil")) is False
    assert host.check_condition(fn(host, "")) is False


@pytest.mark.parametrize("ret, value", [
    ("true", 1), ("false", 0), ("7", 7), ("-7", -7), ("2^40", -2147483648), ("(1 << 40) + 5", 5),
    ("0xFFFFFFFF", -1), ("3.7", 3), ("-3.7", -3), ('"12"', 12), ("nil", 0), ("{}", 0),
])
def test_get_function_value_converts_like_the_reference(ret, value):
    host, duel = make(strict=True)
    assert host.get_function_value(fn(host, "return " + ret)) == value


def test_get_function_values_and_operation_values():
    host, duel = make(strict=True)
    assert host.get_function_values(fn(host, "return 1, true, 1 << 40, 2.5, false")) == [1, 1, 1 << 40, 2, 0]
    c = duel.new_card(100)
    assert host.get_operation_value(fn(host, "return true"), c) == 0       # lua_tonumber(true)
    assert host.get_operation_value(fn(host, "local c, a, b = ...; return a + b"), c, 2, 3) == 5
    assert host.get_operation_value(fn(host, "return 2.9"), c) == 2


def test_filter_gets_the_card_then_the_extra_arguments():
    host, duel = make(strict=True)
    c = duel.new_card(100)
    f = fn(host, 'local c, a, b = ...; return aux.GetValueType(c) == "Card" and a == 1 and b == "x"')
    assert host.check_filter(f, c, 1, "x") is True
    assert host.check_filter(f, c, 2, "x") is False


def test_call_card_and_code_functions():
    host, duel = make(strict=True)
    c = duel.new_card(100)
    assert host.call_card_function(c, "cond", None, 0) == (True,)
    assert host.call_code_function(100, "cond", None, 1) == (False,)
    # the code's class is created (and its script run) on demand
    assert host.call_code_function(102, "initial_effect", c) == ()
    host.strict = False
    assert host.call_card_function(c, "no_such_function") == ()
    assert host.errors[-1].log_line == '"CallCardFunction"(c100.no_such_function): attempt to call an error function'
    assert host.call_code_function(100, "no_such_function") == ()
    assert host.errors[-1].log_line == '"CallCodeFunction": attempt to call an error function'
    assert host.call_function(None) == ()
    assert host.errors[-1].log_line == '"CallFunction": attempt to call a null function.'


# ----- script errors -----------------------------------------------------------------------------


def effect_of(duel, card, **fns):
    e = duel.new_effect()
    e.owner = e.handler = card
    for k, v in fns.items():
        setattr(e, k, v)
    return e


def test_errors_name_card_file_line_callback_and_chk():
    host, duel = make()
    c = duel.new_card(101)
    e = effect_of(duel, c, condition=lua(host, "c101.condition"), cost=lua(host, "c101.cost"),
                  target=lua(host, "c101.target"), operation=lua(host, "c101.operation"),
                  value=lua(host, "c101.value"))
    ev = (None, 0, 0, None, 0, 0)                          # eg, ep, ev, re, r, rp
    assert host.check_condition(e.condition, e, 0) is False
    err = host.errors[-1]
    assert (err.kind, err.card_code, err.script, err.line, err.callback) == ("error", 101, "c101.lua", 6, "condition")
    assert "missing_table" in err.message
    assert err.log_line == ('[string "./script/c101.lua"]:6: attempt to index a nil value '
                            "(field 'missing_table')")
    assert "./script/c101.lua:6: in function" in err.traceback
    assert "bootstrap" not in err.traceback

    assert host.check_condition(e.cost, e, 0, *ev, 0) is True            # chk==0 passes
    assert host.check_condition(e.target, e, 0, *ev, 0) is False
    err = host.errors[-1]
    assert (err.callback, err.chk, err.line) == ("target", 0, 15)

    assert drive(host.start(e.cost, e, 0, *ev, 1)) == ([], None)
    err = host.errors[-1]
    assert (err.callback, err.chk, err.line) == ("cost", 1, 10)
    assert err.message.endswith("cost failed on purpose")

    assert drive(host.start(e.operation, e, 0, *ev)) == ([], None)
    err = host.errors[-1]
    assert (err.callback, err.chk, err.line) == ("operation", None, 20)

    assert host.get_function_value(e.value, e, c) == 0                 # a table is 0, no error
    assert host.check_filter(lua(host, "c101.filter"), c) is False
    assert host.errors[-1].callback == "filter" and host.errors[-1].line == 26

    host.call_function(lua(host, "c101.error_table"))
    err = host.errors[-1]
    assert err.message == "(error object is a table value)" and err.log_line == "(null)"
    assert str(err).startswith("error at c101.lua:29")


def test_strict_mode_raises():
    host, duel = make(strict=True)
    c = duel.new_card(101)
    with pytest.raises(ScriptFailure) as info:
        host.check_filter(lua(host, "c101.filter"), c)
    assert info.value.error.callback == "filter" and info.value.error.card_code == 101


def test_binding_argument_errors_point_at_the_calling_line():
    host, duel = make()
    duel.new_card(105)
    host.call_function(lua(host, "c105.bad_call"))
    err = host.errors[-1]
    assert err.message == './script/c105.lua:9: Parameter 1 should be "Card".'
    assert (err.script, err.line, err.card_code) == ("c105.lua", 9, 105)
    host.call_function(fn(host, "return Debug.TestHostArgErr()"))
    assert host.errors[-1].message.endswith("1 Parameters are needed.")
    host.call_function(fn(host, "return Debug.TestHostCustomErr()"))
    assert host.errors[-1].message == "bare message"


def test_error_positions_in_tasks_and_yielding_functions():
    host, duel = make()
    # a library function called from a task: the task's own line
    drive(host.start(fn(host, "local e = ...\nlocal x = Debug.TestHostArgErr()\nreturn x")))
    assert host.errors[-1].message.endswith(':2: 1 Parameters are needed.')
    # a yielding function's Lua wrapper: the caller's line when called normally ...
    drive(host.start(fn(host, "local e = ...\nlocal x = Duel.TestHostYieldBad()\nreturn x")))
    assert host.errors[-1].message.endswith(":2: bad yielding call")
    # ... and no position when the script tail-called it (that line is gone)
    drive(host.start(fn(host, "local e = ...\nreturn Duel.TestHostYieldBad()")))
    assert host.errors[-1].message == "bad yielding call"
    # a C library function keeps the script's frame even in a tail call
    drive(host.start(fn(host, "local e = ...\nreturn Debug.TestHostArgErr()")))
    assert host.errors[-1].message.endswith(':2: 1 Parameters are needed.')


def test_python_exceptions_in_bindings_are_internal_errors():
    host, duel = make()
    host.call_function(fn(host, "return Debug.TestHostBoom()"))
    err = host.errors[-1]
    assert err.kind == "internal"
    assert "internal error in Debug.TestHostBoom: ValueError: boom inside a binding" in err.message
    assert "ValueError" in err.python_traceback
    host.call_function(fn(host, "return Debug.TestHostBadReturn()"))
    assert "scripts cannot receive" in host.errors[-1].message
    strict_host, _ = make(strict=True)
    with pytest.raises(ScriptFailure) as info:
        strict_host.call_function(fn(strict_host, "return Debug.TestHostBoom()"))
    assert isinstance(info.value.__cause__, ValueError)


def test_nested_strict_failure_surfaces_the_inner_error():
    host, duel = make(strict=True)
    c = duel.new_card(101)
    outer = fn(host, "local c = ...; return Debug.TestHostFilter(c101.filter, c)")
    with pytest.raises(ScriptFailure) as info:
        host.call_function(outer, c)
    assert info.value.error.callback == "filter"


# ----- coroutines and yields ------------------------------------------------------------------------


def test_task_suspends_on_yielding_bindings_and_resumes_with_their_results():
    host, duel = make(strict=True)
    c = duel.new_card(100)
    op = fn(host, """
        local e, c = ...
        local a, b = Duel.TestHostYield(21, c)
        local n = select('#', Duel.TestHostYieldNothing())
        return a, rawequal(b, c), n, c""")
    seen, out = drive(host.start(op, None, c))
    assert len(seen) == 2 and all(isinstance(y, Yield) for y in seen)
    assert out == (42, True, 0, c)
    assert host.call_depth == 0 and host.no_action == 0


def test_engine_run_callback_drives_a_task():
    """The engine's own coroutine driver (processor/chain.py) runs our tasks."""
    host, duel = make(strict=True)
    c = duel.new_card(100)
    e = effect_of(duel, c, operation=fn(host, "local e = ...; local v = Duel.TestHostYield(3); return v + 1"))
    duel.core.solving_event = [Event()]
    steps = list(duel.proc_execute_operation(e, 0))
    assert len(steps) == 1
    assert duel.returns.ivalue[0] == 7


def test_yielding_in_a_plain_call_is_refused():
    host, duel = make()
    assert host.check_condition(fn(host, "return Duel.TestHostYield(1)")) is False
    assert host.errors[-1].message == "attempt to yield from outside a coroutine"
    assert host.check_condition(fn(host, "return Duel.TestHostChecked()")) is False
    assert host.errors[-1].message.endswith("Action is not allowed here.")
    # inside a task, but in a filter called from it: a C-call boundary
    c = duel.new_card(100)
    f = fn(host, "return Duel.TestHostYield(1)")
    op = fn(host, "local f, c = ...; return Debug.TestHostFilter(f, c)")
    assert drive(host.start(op, f, c)) == ([], (False,))
    assert host.errors[-1].message == "attempt to yield across a C-call boundary"
    assert host.errors[-1].callback == "filter"
    # the action is allowed in the task itself
    assert drive(host.start(fn(host, "return Duel.TestHostChecked()"))) == ([], (1,))


def test_recursive_start_of_a_suspended_function_fails_both():
    host, duel = make()
    op = fn(host, "local v = Duel.TestHostYield(1); return v")
    first = host.start(op)
    suspended, y = first.resume()
    assert suspended
    second = host.start(op)
    assert second.resume() == (False, None)
    assert host.errors[-1].kind == "recursion"
    assert host.errors[-1].log_line == "recursive event trigger detected"
    assert first.resume(y.result()) == (False, None)
    assert host.call_depth == 0
    # a clone is a different reference: no recursion
    clone = host.clone_function_ref(op)
    assert clone is not op
    t1, t2 = host.start(op), host.start(clone)
    assert t1.resume()[0] and t2.resume()[0]
    assert t2.resume(NoValue)[0] is False and t1.resume(NoValue)[0] is False


def test_task_threads_are_pooled():
    host, duel = make(strict=True)
    op = fn(host, "return Duel.TestHostYield(2)")
    results = [drive(host.start(op))[1] for _ in range(50)]
    assert results == [(4, None)] * 50
    idle, running, kept = host.sandbox.task_stats()
    assert running == 0 and kept == 0 and idle <= 2


def test_dropped_suspended_task_is_cleaned_up():
    host, duel = make()
    op = fn(host, "return Duel.TestHostYield(2)")
    t = host.start(op)
    assert t.resume()[0]
    assert host.call_depth == 1
    del t
    import gc
    gc.collect()
    host.call_function(fn(host, "return 1"))          # the next call does the bookkeeping
    assert host.call_depth == 0
    assert host.sandbox.task_stats()[2] == 1          # its thread is kept, never reused


def test_reads_of_undefined_caps_globals_are_recorded_when_asked():
    host, duel = make(record_undefined_globals=True)
    host.call_function(fn(host, "local a = TYPE_MONSTR\nlocal b = lowercase_nil\nreturn EFFECT_TYPE_SINGEL"))
    found = host.take_undefined_globals()
    assert [(name, line) for name, _chunk, line in found] == [("TYPE_MONSTR", 1), ("EFFECT_TYPE_SINGEL", 3)]
    assert host.take_undefined_globals() == []          # taken
    # defined constants and lower-case names are not reported; reading still gives nil
    assert host.call_function(fn(host, "return TYPE_MONSTER, NOT_DEFINED_X")) == (1, None)
    assert [n for n, _c, _l in host.take_undefined_globals()] == ["NOT_DEFINED_X"]


def test_undefined_globals_are_not_recorded_by_default():
    host, duel = make()
    host.call_function(fn(host, "return TYPE_MONSTR"))
    assert host.take_undefined_globals() == []
