"""The binding registry and Args: how library functions are declared, installed and read their arguments."""

from __future__ import annotations

from pathlib import Path

import pytest

from duelhost.bindings import registry
from duelhost.bindings.args import Args, lua_tointeger, lua_tonumber
from duelhost.bindings.errors import BindingRegistrationError, LuaArgError
from duelhost.bindings.handles import CardAnchor, NoValue, RefAnchor
from duelhost.bindings.host import LuaScriptHost
from duelhost.bindings.registry import ACTION_CHECKED, lua_function
from duelhost.engine.card import CardData
from duelhost.engine.duel import Duel

SCRIPTS = Path(__file__).parent / "data" / "scripts"
NAMES: list[str] = []


def _binding(name, **kw):
    NAMES.append(name)
    return lua_function(name, extension=True, **kw)


@_binding("Debug.TestRegCount")
def _count(ctx, args):
    return args.count


@_binding("Debug.TestRegInts")
def _ints(ctx, args):
    return tuple(args.int(i) for i in range(1, args.count + 1))


@_binding("Debug.TestRegOpt")
def _opt(ctx, args):
    return args.opt_int(2, 77), args.opt_bool(3, True)


@_binding("Debug.TestRegNothing")
def _nothing(ctx, args):
    return NoValue


@_binding("Debug.TestRegNil")
def _nil(ctx, args):
    return None


@_binding("Debug.TestRegMany")
def _many(ctx, args):
    return 1, "two", None, 4.5, args.card(1)


@_binding("Debug.TestRegTable")
def _table(ctx, args):
    return ctx.table(1, 2, args.card(1), name="x")


@_binding("Debug.TestRegFilterFirst")
def _filter_first(ctx, args):
    f = args.function(1)
    return ctx.check_filter(f, args.card(2), *args.rest(3))


@_binding("Debug.TestRegKeep")
def _keep(ctx, args):
    KEPT.append(args.function(1))
    return NoValue


@_binding("Debug.TestRegGive")
def _give(ctx, args):
    return KEPT[-1]


@_binding("Debug.TestRegStr")
def _str(ctx, args):
    return args.str(1)


@_binding("Debug.TestRegTypes")
def _types(ctx, args):
    return tuple(args.type_name(i) for i in range(1, args.count + 2))


KEPT: list = []


@pytest.fixture(scope="module", autouse=True)
def _cleanup():
    yield
    for n in NAMES:
        registry.unregister(n)


@pytest.fixture
def env():
    host = LuaScriptHost(SCRIPTS, load_libraries=False)
    duel = Duel(lambda code: CardData(code=code, type=0x21), seed=1, script=host)
    card = duel.new_card(100)
    return host, duel, card


def run(host, body, *args):
    return host.call_function(host.sandbox.lua.eval("function(...) " + body + " end"), *args)


# ----- the reference's data -------------------------------------------------------------------


def test_reference_api_data():
    ref = registry.reference_api()
    assert len(ref) == 611
    assert sum(ref.values()) == 79
    assert {n.split(".")[0] for n in ref} == set(registry.LIBRARIES)
    assert ref["Duel.Destroy"] is True and ref["Card.GetCode"] is False
    assert ACTION_CHECKED <= set(ref)
    assert len(ACTION_CHECKED) == 60
    assert sum(ref[n] for n in ACTION_CHECKED) == 53


def test_registered_and_missing_partition_the_reference():
    ref = set(registry.reference_api())
    reg = set(registry.registered())
    miss = set(registry.missing())
    assert not (reg & miss)
    assert (reg & ref) | miss == ref
    assert reg - ref == {n for n in reg if registry.spec(n).extension}


# ----- declaring ------------------------------------------------------------------------------


def test_declarations_are_checked():
    with pytest.raises(BindingRegistrationError, match="not a function of the reference core"):
        lua_function("Duel.LoadScript")
    with pytest.raises(BindingRegistrationError, match="expected"):
        lua_function("GetID")
    with pytest.raises(BindingRegistrationError, match="does yield"):
        lua_function("Duel.Destroy", yields=False)
    with pytest.raises(BindingRegistrationError, match="does not yield"):
        lua_function("Card.GetCode", yields=True)

    @lua_function("Debug.TestRegTwice", extension=True)
    def first(ctx, args):
        return 1

    try:
        with pytest.raises(BindingRegistrationError, match="registered twice"):
            @lua_function("Debug.TestRegTwice", extension=True)
            def second(ctx, args):
                return 2
    finally:
        registry.unregister("Debug.TestRegTwice")


def test_yields_and_action_checks_default_to_the_reference():
    deco = lua_function("Duel.Destroy")
    existing = registry.spec("Duel.Destroy")

    def fake(ctx, args):
        return None
    if existing is None:
        deco(fake)
        try:
            s = registry.spec("Duel.Destroy")
            assert s.yields and s.checks_action
        finally:
            registry.unregister("Duel.Destroy")
    else:
        assert existing.yields and existing.checks_action


# ----- installing -------------------------------------------------------------------------------


def test_library_functions_are_functions(env):
    host, duel, c = env
    assert run(host, "return type(Card.GetCode), type(Duel.Destroy), type(Debug.TestRegCount)") \
        == ("function", "function", "function")


def test_unimplemented_names_raise_with_the_script_position(env):
    host, duel, c = env
    missing = registry.missing()
    if not missing:
        pytest.skip("every reference function is implemented")
    name = missing[0]
    run(host, f"local x = 1\nreturn {name}()")
    err = host.errors[-1]
    assert err.message.endswith(f"not implemented: {name}")
    assert ":2: not implemented" in err.message


def test_names_the_reference_lacks(env):
    host, duel, c = env
    for lib in ("Duel", "Debug", "Effect", "Group"):
        # reading gives nil, as in the reference (scripts test `if Duel.X then`) ...
        assert run(host, f"return {lib}.NoSuchThing, type({lib}.NoSuchThing)") == (None, "nil")
        # ... and calling that nil names the function
        before = len(host.errors)
        run(host, f"local x = 1\nreturn {lib}.NoSuchThing(x)")
        assert len(host.errors) == before + 1
        message = host.errors[-1].message
        assert message.endswith(f"{lib}.NoSuchThing is not a function of the reference core"), message
        assert ":2:" in message and "attempt to call a nil value" in message
    assert run(host, "if Duel.SelectCounter then return 1 end return 2") == (2,)
    # Card reads give nil: card classes inherit from Card and scripts read absent fields
    assert run(host, "return Card.NoSuchThing") == (None,)
    # new names can be written (utility.lua adds Group.CountPlusOne in the test scripts)
    assert run(host, "Duel.TestRegAdded = function() return 5 end; return Duel.TestRegAdded()") == (5,)
    assert run(host, "return type(Group.CountPlusOne)") == ("function",)


# ----- arguments -----------------------------------------------------------------------------------


def test_count_is_lua_gettop(env):
    host, duel, c = env
    assert run(host, "return Debug.TestRegCount()") == (0,)
    assert run(host, "return Debug.TestRegCount(nil)") == (1,)
    assert run(host, "return Debug.TestRegCount(1, nil, nil)") == (3,)
    assert run(host, "local t = {} return Debug.TestRegCount(table.unpack(t, 1, 4))") == (4,)


def test_int_is_lua_tointeger(env):
    host, duel, c = env
    out = run(host, 'return Debug.TestRegInts(nil, true, false, 3.0, 3.5, "12", "0x10", " 7 ", "1e2", "x", {}, -2^63, 2^63)')
    assert out == (0, 0, 0, 3, 0, 12, 16, 7, 100, 0, 0, -(2**63), 0)


def test_optional_arguments_count_explicit_nils(env):
    host, duel, c = env
    assert run(host, "return Debug.TestRegOpt(1)") == (77, True)
    assert run(host, "return Debug.TestRegOpt(1, nil, nil)") == (0, False)
    assert run(host, "return Debug.TestRegOpt(1, 5, 0)") == (5, True)


def test_zero_results_one_nil_and_several(env):
    host, duel, c = env
    assert run(host, "return select('#', Debug.TestRegNothing())") == (0,)
    assert run(host, "return select('#', Debug.TestRegNil())") == (1,)
    out = run(host, "local c = ...; local a, b, n, d, e = Debug.TestRegMany(c); return a, b, n, d, rawequal(e, c)", c)
    assert out == (1, "two", None, 4.5, True)


def test_tables_for_lua(env):
    host, duel, c = env
    assert run(host, "local c = ...; local t = Debug.TestRegTable(c); return #t, t[1], t[2], rawequal(t[3], c), t.name", c) \
        == (3, 1, 2, True, "x")


def test_strings(env):
    host, duel, c = env
    assert run(host, "return Debug.TestRegStr('abc'), Debug.TestRegStr(12), Debug.TestRegStr(1.5), Debug.TestRegStr(2^53)") \
        == ("abc", "12", "1.5", "9.007199254741e+15")
    run(host, "return Debug.TestRegStr({})")
    assert host.errors[-1].message.endswith('Parameter 1 should be "String".')


def test_type_names(env):
    host, duel, c = env
    assert run(host, "local c = ...; return Debug.TestRegTypes(nil, 1, 's', true, {}, print, c, Card.GetCode)", c) \
        == ("nil", "number", "string", "boolean", "table", "function", "userdata", "function", "no value")


def test_library_functions_pass_through_python_as_functions(env):
    """g:Filter(Card.IsCode, ...)-style: a library function given to a binding comes back callable."""
    host, duel, c = env
    f = "function(c, x) return x == 3 end"
    assert run(host, f"local c = ...; return Debug.TestRegFilterFirst({f}, c, 3)", c) == (True,)
    assert run(host, "local c = ...; return Debug.TestRegFilterFirst(Debug.TestRegCount, c, 1, 2)", c) == (True,)
    # kept by Python and given back: still a Lua function that works
    assert run(host, "Debug.TestRegKeep(Debug.TestRegCount); local g = Debug.TestRegGive(); return type(g), g(1, 2)") \
        == ("function", 2)


def test_argument_errors_have_the_reference_wording():
    a = Args(())
    with pytest.raises(LuaArgError, match="^2 Parameters are needed.$"):
        a.need(2)
    a = Args((1, None, "x"))
    for reader, text in ((a.card, '"Card"'), (a.group, '"Group"'), (a.effect, '"Effect"'),
                         (a.function, '"Function"'), (a.card_or_group, '"Card" or "Group"')):
        with pytest.raises(LuaArgError) as info:
            reader(1)
        assert info.value.message == f"Parameter 1 should be {text}."
    assert a.opt_card(2) is None and a.opt_card(9) is None
    assert a.is_nil(2) and not a.is_nil(4) and a.is_none_or_nil(4)
    assert a.bool(1) and not a.bool(2) and a.bool(3)
    assert a.rest(2) == (None, "x")


def test_args_dereference_handles(env):
    host, duel, c = env
    g = duel.new_group([c])
    e = duel.new_effect()
    a = Args((host.handles.push(c), host.handles.push(g), host.handles.push(e)))
    assert type(a._a[0]) is CardAnchor and type(a._a[1]) is RefAnchor
    assert a.card(1) is c and a.group(2) is g and a.effect(3) is e
    assert a.card_or_group(1) is c and a.card_or_group(2) is g
    assert a.rest(1) == (c, g, e)
    with pytest.raises(LuaArgError, match='Parameter 2 should be "Card"'):
        a.card(2)


def test_lua_number_conversions():
    assert lua_tointeger("  0x7fffffffffffffff ") == 2**63 - 1
    assert lua_tointeger("0xffffffffffffffff") == -1          # hex integers wrap around
    assert lua_tointeger("1e400") == 0
    assert lua_tonumber("2.5") == 2.5 and lua_tonumber("nan") == 0 and lua_tonumber(None) == 0
