"""The Effect library (bindings/lib_effect.py) run from Lua in a real duel.

``Env`` (also used by test_lib_group.py and test_lib_debug.py) makes a Duel
with the LuaScriptHost over tests/data/lib_egd (our own tiny scripts: a
utility.lua with snippet runners, test cards 5000 and 5300) and the project's
constant.lua, and runs Lua snippets as plain calls (``run``), as plain calls
that report their value count (``count``), or as coroutines the engine drives
through its processor, answering prompts (``task``).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.core_constants import *  # noqa: F401,F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect

REPO = Path(__file__).resolve().parent.parent
TEST_SCRIPTS = REPO / "tests" / "data" / "lib_egd"
CONSTANTS = REPO / "scripts"

EFFECT_MONSTER = TYPE_MONSTER | TYPE_EFFECT
NORMAL_MONSTER = TYPE_MONSTER | TYPE_NORMAL

DB: dict[int, CardData] = {
    5000: CardData(code=5000, type=EFFECT_MONSTER, level=4, attack=1800, defense=1000),
    5101: CardData(code=5101, type=NORMAL_MONSTER, level=3, attack=1200, defense=800),
    5102: CardData(code=5102, type=NORMAL_MONSTER, level=4, attack=1500, defense=1200),
    5103: CardData(code=5103, type=NORMAL_MONSTER, level=4, attack=1900, defense=400),
    5104: CardData(code=5104, type=NORMAL_MONSTER, level=6, attack=2400, defense=2000),
    5200: CardData(code=5200, type=NORMAL_MONSTER | TYPE_XYZ, level=4, attack=2500, defense=2000),
    5300: CardData(code=5300, type=TYPE_SPELL | TYPE_EQUIP),
}


class Env:
    """A duel with the Lua host over the test scripts; snippets run from Python."""

    def __init__(self, strict: bool = True, seed: int = 7) -> None:
        self.host = LuaScriptHost([TEST_SCRIPTS, CONSTANTS], strict=strict)
        self.duel = Duel(DB.get, seed=seed, script=self.host)
        g = self.host.sandbox.lua.globals()
        self._run = g.RunSnippet
        self._count = g.CountSnippet
        self._compile = g.CompileSnippet
        self.duel.core.reason_player = 0

    def place(self, code: int, p: int = 0, location: int = LOCATION_MZONE, seq: int = 0,
              position: int = POS_FACEUP_ATTACK) -> Card:
        """A new card put into a zone with the engine's add_card (no messages)."""
        c = self.duel.new_card(code)
        c.owner = p
        self.duel.add_card(p, c, location, seq)
        c.current.position = position
        if position & POS_FACEUP or not (location & LOCATION_ONFIELD):
            c.enable_field_effect(True)
        return c

    def run(self, src: str, *args: Any) -> tuple:
        """Run a snippet as a plain call (actions refused, like a condition); its results."""
        return self.host.call_function(self._run, src, *args)

    def one(self, src: str, *args: Any) -> Any:
        out = self.run(src, *args)
        assert len(out) == 1, out
        return out[0]

    def count(self, src: str, *args: Any) -> tuple[int, tuple]:
        """(number of values, values) of a snippet."""
        out = self.host.call_function(self._count, src, *args)
        return out[0], tuple(out[1:])

    def error(self, body: str, *args: Any) -> str:
        """The error message a snippet body raises (it must raise)."""
        ok, msg = self.run("return pcall(function(...) " + body + " end, ...)", *args)
        assert ok is False, "the snippet did not raise"
        return msg

    def compile(self, src: str) -> Any:
        return self.host.call_function(self._compile, src)[0]

    def task(self, src: str, *args: Any, answers: tuple[bytes, ...] = ()) -> tuple[tuple, list]:
        """Run a snippet as a coroutine driven by the engine's processor.

        Yielding functions work; each prompt the processor raises is answered
        with the next of ``answers`` (raw response bytes).  Returns (results,
        prompts seen).
        """
        task = self.host.start(self._run, src, *args)
        results: list[Any] = []

        def unit():
            value: Any = None
            while True:
                suspended, out = task.resume(value)
                if not suspended:
                    results.append(out)
                    return
                yield
                value = out.result()

        duel = self.duel
        duel.add_process(unit())
        duel.finished = False
        gen = duel.run_processor()
        pending = list(answers)
        prompts: list[Any] = []
        try:
            prompt = next(gen)
            while True:
                prompts.append(prompt)
                assert pending, f"no answer left for {prompt!r}"
                prompt = gen.send(pending.pop(0))
        except StopIteration:
            pass
        assert not pending, "answers left over"
        assert results and results[0] is not None, "the snippet failed"
        return tuple(results[0]), prompts


@pytest.fixture
def env() -> Env:
    return Env()


# ===== creation, ownership, identity =========================================================

def test_create_effect_owner_and_owner_player(env: Env):
    c = env.place(5101, p=1)
    env.duel.core.reason_player = 1
    e, owner, same, op = env.run(
        "local c=... local e=Effect.CreateEffect(c) return e, e:GetOwner(), rawequal(e:GetOwner(), c), e:GetOwnerPlayer()", c)
    assert isinstance(e, Effect)
    assert e.owner is c and owner is c and same is True
    assert e.effect_owner == 1 and op == 1
    assert e.handler is None


def test_create_effect_needs_a_card(env: Env):
    assert env.error("Effect.CreateEffect()").endswith("1 Parameters are needed.")
    assert env.error("Effect.CreateEffect(1)").endswith('Parameter 1 should be "Card".')


def test_global_effect_is_owned_by_the_temp_card(env: Env):
    e = env.one("return Effect.GlobalEffect()")
    assert e.owner is env.duel.temp_card
    assert e.effect_owner == 0


def test_effect_handle_identity(env: Env):
    c = env.place(5101)
    same, e = env.run("local e=Effect.CreateEffect(...) local t={} t[e]=1 "
                      "local e2=e return rawequal(e, e2) and t[e2]==1, e", c)
    assert same is True
    # the same engine object comes back as the same Lua value
    assert env.one("local e1, e2=... return rawequal(e1, e2)", e, e) is True


def test_initial_effect_creates_and_registers(env: Env):
    env.duel.core.reason_player = 1
    c = env.place(5000)
    e1 = env.one("return c5000.e1")
    e2 = env.one("return c5000.e2")
    assert e1.handler is c and e2.handler is c
    assert e1.id > 0 and env.one("return c5000.e1:GetFieldID()") == e1.id
    assert env.one("return c5000.e1:GetHandler()") is c
    assert env.one("return c5000.e1:GetHandlerPlayer()") == 0
    # the owner player is the reason player at creation, not the controller
    assert e1.effect_owner == 1 and env.one("return c5000.owner_player_at_creation") == 1
    assert c.get_attack() == 1900


# ===== plain fields ==========================================================================

def test_integer_fields_keep_the_reference_widths(env: Env):
    c = env.place(5101)
    desc, code, rng = env.run(
        "local e=Effect.CreateEffect(...) e:SetDescription(-1) e:SetCode(0x100000005) e:SetRange(0x1ff08) "
        "return e:GetDescription(), e:GetCode(), e:GetRange()", c)
    assert (desc, code, rng) == (0xFFFFFFFF, 5, 0xFF08)


def test_setters_need_their_arguments(env: Env):
    c = env.place(5101)
    assert env.error("local e=Effect.CreateEffect(...) e:SetCode()", c).endswith("2 Parameters are needed.")
    assert env.error("local e=Effect.CreateEffect(...) e:SetLabel()", c).endswith("2 Parameters are needed.")
    assert env.error("local e=Effect.CreateEffect(...) e:SetTargetRange(1)", c).endswith("3 Parameters are needed.")
    assert env.error("Effect.SetCode(...)", c, 5).endswith('Parameter 1 should be "Effect".')


def test_target_range_and_absolute_range(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetAbsoluteRange(1, LOCATION_MZONE, LOCATION_HAND) return e", c)
    assert (e.s_range, e.o_range) == (LOCATION_HAND, LOCATION_MZONE)
    assert e.is_flag(EFFECT_FLAG_ABSOLUTE_TARGET)
    env.run("local e=... e:SetTargetRange(LOCATION_GRAVE, 0x10004)", e)
    assert (e.s_range, e.o_range) == (LOCATION_GRAVE, 4)
    assert not e.is_flag(EFFECT_FLAG_ABSOLUTE_TARGET)
    env.run("local e=... e:SetAbsoluteRange(0, 1, 2)", e)
    assert (e.s_range, e.o_range) == (1, 2)


def test_set_type_normalises(env: Env):
    c = env.place(5101)
    t, rng = env.run("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_ACTIVATE) return e:GetType(), e:GetRange()", c)
    assert t == EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE | EFFECT_TYPE_ACTIONS
    assert rng == LOCATION_SZONE | LOCATION_FZONE | LOCATION_HAND
    e = env.one("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_FLIP+EFFECT_TYPE_TRIGGER_O) return e", c)
    assert e.type == EFFECT_TYPE_SINGLE | EFFECT_TYPE_FLIP | EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_ACTIONS
    assert e.code == EVENT_FLIP and e.is_flag(EFFECT_FLAG_DELAY)
    e = env.one("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_FLIP) return e", c)
    assert e.type == EFFECT_TYPE_SINGLE | EFFECT_TYPE_FLIP | EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_ACTIONS
    assert not e.is_flag(EFFECT_FLAG_DELAY)
    e = env.one("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_QUICK_O) return e", c)
    assert e.type == EFFECT_TYPE_QUICK_O | EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIONS
    e = env.one("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_SINGLE+EFFECT_TYPE_ACTIONS) return e", c)
    assert e.type == EFFECT_TYPE_SINGLE


def test_property_keeps_core_flags_and_has_two_words(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetValue(aux_fn or function() end) return e", c)
    assert e.is_flag(EFFECT_FLAG_FUNC_VALUE)
    f1, f2 = env.run("local e=... e:SetProperty(EFFECT_FLAG_CARD_TARGET+EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG2_COF) "
                     "return e:GetProperty()", e)
    # the script cannot set EFFECT_FLAG_COUNT_LIMIT, and cannot clear FUNC_VALUE
    assert f1 == EFFECT_FLAG_CARD_TARGET | EFFECT_FLAG_FUNC_VALUE
    assert f2 == EFFECT_FLAG2_COF
    n, vals = env.count("local e=... return e:IsHasProperty(EFFECT_FLAG_CARD_TARGET), e:IsHasProperty(0, EFFECT_FLAG2_COF),"
                        " e:IsHasProperty(EFFECT_FLAG_DELAY), e:IsHasProperty(EFFECT_FLAG_CARD_TARGET, 0x4)", e)
    assert vals == (True, True, False, False)
    env.run("local e=... e:SetProperty(EFFECT_FLAG_DELAY)", e)
    assert e.flag == [EFFECT_FLAG_DELAY | EFFECT_FLAG_FUNC_VALUE, 0]


def test_category_is_64_bit_and_tests_are_booleans(env: Env):
    c = env.place(5101)
    cat, has, hasnt, htype, hrange = env.run(
        "local e=Effect.CreateEffect(...) e:SetCategory(CATEGORY_DESTROY+CATEGORY_TOHAND) "
        "e:SetType(EFFECT_TYPE_IGNITION) e:SetRange(LOCATION_MZONE) "
        "return e:GetCategory(), e:IsHasCategory(CATEGORY_TOHAND), e:IsHasCategory(CATEGORY_REMOVE), "
        "e:IsHasType(EFFECT_TYPE_FIELD), e:IsHasRange(LOCATION_ONFIELD)", c)
    assert cat == CATEGORY_DESTROY | CATEGORY_TOHAND
    assert (has, hasnt, htype, hrange) == (True, False, True, True)
    big = env.one("local e=Effect.CreateEffect(...) e:SetCategory(-1) return e:GetCategory()", c)
    assert big == -1


def test_labels(env: Env):
    c = env.place(5101)
    n, vals = env.count("local e=Effect.CreateEffect(...) return e:GetLabel()", c)
    assert (n, vals) == (1, (0,))
    n, vals = env.count("local e=Effect.CreateEffect(...) e:SetLabel(3, -4, 2^62|0, '7', 1.5) return e:GetLabel()", c)
    assert (n, vals) == (5, (3, -4, 2**62, 7, 0))
    n, vals = env.count("local e=Effect.CreateEffect(...) e:SetLabel(1, 2) e:SetLabel(9) return e:GetLabel()", c)
    assert (n, vals) == (1, (9,))


def test_label_object_keeps_cards_effects_groups(env: Env):
    c = env.place(5101)
    d = env.place(5102, seq=1)
    same_c, same_g, same_e, none = env.run(
        "local c, d=... local e=Effect.CreateEffect(c) local g=Group.FromCards(c, d) local e2=Effect.CreateEffect(d) "
        "e:SetLabelObject(c) local r1=rawequal(e:GetLabelObject(), c) "
        "e:SetLabelObject(g) local r2=rawequal(e:GetLabelObject(), g) "
        "e:SetLabelObject(e2) local r3=rawequal(e:GetLabelObject(), e2) "
        "e:SetLabelObject(nil) return r1, r2, r3, e:GetLabelObject()", c, d)
    assert (same_c, same_g, same_e, none) == (True, True, True, None)
    e = env.one("local e=Effect.CreateEffect(...) e:SetLabelObject(Effect.CreateEffect(...)) return e", c)
    assert e.object_type == PARAM_TYPE_EFFECT and isinstance(e.get_label_object(), Effect)
    msg = env.error("local e=Effect.CreateEffect(...) e:SetLabelObject({})", c)
    assert msg.endswith('Parameter 2 should be "Card" or "Effect" or "Group".')
    assert env.error("local e=Effect.CreateEffect(...) e:SetLabelObject(5)", c).endswith(
        'Parameter 2 should be "Card" or "Effect" or "Group".')


def test_clone_copies_fields_but_not_the_handler(env: Env):
    c = env.place(5000)
    e1 = env.one("return c5000.e1")
    ce, distinct, val = env.run("local ce=c5000.e1:Clone() ce:SetLabel(5) "
                                "return ce, not rawequal(ce, c5000.e1), ce:GetValue()(ce, nil)")
    assert isinstance(ce, Effect) and ce is not e1
    assert distinct is True and val == 100
    assert ce.handler is None and ce.owner is c and ce.code == e1.code
    assert ce.label == [5] and e1.label == []


def test_reset_removes_a_registered_effect(env: Env):
    c = env.place(5000)
    assert c.get_attack() == 1900
    env.run("c5000.e1:Reset()")
    assert c.get_attack() == 1800
    # an effect never registered: nothing happens
    env.run("Effect.CreateEffect(...):Reset()", c)


# ===== functions and values ==================================================================

def test_callbacks_are_kept_and_given_back(env: Env):
    c = env.place(5101)
    ok = env.one(
        "local e=Effect.CreateEffect(...) local f1, f2, f3, f4=function() end, function() end, function() end, function() end "
        "e:SetCondition(f1) e:SetCost(f2) e:SetTarget(f3) e:SetOperation(f4) "
        "return rawequal(e:GetCondition(), f1) and rawequal(e:GetCost(), f2) and rawequal(e:GetTarget(), f3) "
        "and rawequal(e:GetOperation(), f4)", c)
    assert ok is True
    n, vals = env.count("local e=Effect.CreateEffect(...) e:SetOperation(function() end) e:SetOperation(nil) "
                        "return e:GetOperation(), e:GetCondition()", c)
    assert (n, vals) == (2, (None, None))
    assert env.error("local e=Effect.CreateEffect(...) e:SetCondition(nil)", c).endswith(
        'Parameter 2 should be "Function".')
    assert env.error("local e=Effect.CreateEffect(...) e:SetOperation(5)", c).endswith(
        'Parameter 2 should be "Function".')


def test_value_function_or_number(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetValue(function(e, c) return 7 end) return e", c)
    assert e.is_flag(EFFECT_FLAG_FUNC_VALUE) and e.get_value(c) == 7
    for lua, expected in (("true", 1), ("false", 0), ("2^32|5", 5), ("-1", -1), ("3.7", 3), ("-3.7", -3),
                          ("'12'", 12), ("nil", 0), ("{}", 0), ("0x7fffffff+1", -2147483648)):
        v, t = env.run(f"local e=... e:SetValue({lua}) return e:GetValue(), math.type(e:GetValue())", e)
        assert (v, t) == (expected, "integer"), lua
        assert not e.is_flag(EFFECT_FLAG_FUNC_VALUE) and e.value == expected


def test_hint_timing_and_reset(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetHintTiming(TIMING_END_PHASE) return e", c)
    assert e.hint_timing == [TIMING_END_PHASE, TIMING_END_PHASE]
    env.run("local e=... e:SetHintTiming(0, TIMING_EQUIP)", e)
    assert e.hint_timing == [0, TIMING_EQUIP]
    env.run("local e=... e:SetReset(RESET_PHASE+PHASE_END)", e)
    assert e.reset_flag == RESET_PHASE | PHASE_END | RESET_SELF_TURN | RESET_OPPO_TURN
    assert e.reset_count == 1
    env.run("local e=... e:SetReset(RESET_EVENT+RESET_PHASE+PHASE_END+RESET_SELF_TURN, 2)", e)
    assert e.reset_flag == RESET_EVENT | RESET_PHASE | PHASE_END | RESET_SELF_TURN
    assert e.reset_count == 2


def test_owner_player(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetOwnerPlayer(1) return e", c)
    assert e.effect_owner == 1
    env.run("local e=... e:SetOwnerPlayer(2)", e)
    assert e.effect_owner == 1
    env.run("local e=... e:SetOwnerPlayer()", e)
    assert e.effect_owner == 0


# ===== count limits ==========================================================================

def test_count_limit_fields(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetCountLimit(0) return e", c)
    assert e.is_flag(EFFECT_FLAG_COUNT_LIMIT)
    assert (e.count_limit, e.count_limit_max, e.count_code) == (1, 1, 0)
    env.run("local e=... e:SetCountLimit(2, EFFECT_COUNT_CODE_CHAIN)", e)
    assert (e.count_limit, e.count_code) == (2, EFFECT_COUNT_CODE_CHAIN | EFFECT_COUNT_CODE_SINGLE)
    env.run("local e=... e:SetCountLimit(1, 5000+EFFECT_COUNT_CODE_OATH)", e)
    assert e.count_code == 5000 | EFFECT_COUNT_CODE_OATH


def test_check_and_use_count_limit(env: Env):
    env.place(5000)
    assert env.one("return c5000.e2:CheckCountLimit(0)") is True
    # oath_only with a code that is not an oath: nothing used
    env.run("c5000.e2:UseCountLimit(0, 1, true)")
    assert env.one("return c5000.e2:CheckCountLimit(0)") is True
    env.run("c5000.e2:UseCountLimit(0)")
    assert env.run("return c5000.e2:CheckCountLimit(0), c5000.e2:CheckCountLimit(1)") == (False, True)
    assert env.duel.get_effect_code(5000, 0) == 1


def test_use_count_limit_counts_the_own_limit(env: Env):
    c = env.place(5101)
    e = env.one("local e=Effect.CreateEffect(...) e:SetType(EFFECT_TYPE_IGNITION) e:SetCountLimit(3) "
                "c=... c:RegisterEffect(e) return e", c)
    env.run("local e=... e:UseCountLimit(0, 2)", e)
    assert e.count_limit == 1
    assert env.one("return (...):CheckCountLimit(0)", e) is True
    env.run("local e=... e:UseCountLimit(0)", e)
    assert env.one("return (...):CheckCountLimit(0)", e) is False


# ===== activation state ======================================================================

def test_activated_cost_check_active_type(env: Env):
    env.place(5000)
    vals = env.run("return c5000.e2:IsActivated(), c5000.e1:IsActivated(), c5000.e2:IsCostChecked(), "
                   "c5000.e2:GetActiveType(), c5000.e2:IsActiveType(TYPE_MONSTER), c5000.e2:IsActiveType(TYPE_SPELL)")
    assert vals == (True, False, False, EFFECT_MONSTER, True, False)
    env.run("c5000.e2:SetCostCheck(1)")
    assert env.one("return c5000.e2:IsCostChecked()") is True
    env.run("c5000.e2:SetCostCheck(false)")
    assert env.one("return c5000.e2:IsCostChecked()") is False
    e2 = env.one("return c5000.e2")
    e2.active_location, e2.active_sequence = LOCATION_MZONE, 3
    assert env.run("return c5000.e2:GetActivateLocation(), c5000.e2:GetActivateSequence()") == (LOCATION_MZONE, 3)


def test_is_activatable(env: Env):
    c = env.place(5000)
    # an ignition effect of a face-up monster in its range, uses left
    assert env.one("return c5000.e2:IsActivatable(0)") is True
    # not an action (EFFECT_TYPE_SINGLE value effect)
    assert env.one("return c5000.e1:IsActivatable(0)") is False
    env.run("c5000.e2:UseCountLimit(0)")
    assert env.one("return c5000.e2:IsActivatable(0, true, true)") is False
    assert c.current.location == LOCATION_MZONE


def test_getters_are_plain_calls(env: Env):
    """Effect functions never yield: they work in conditions and filters."""
    env.place(5000)
    cond = env.compile("return c5000.e1:GetCode()==EFFECT_UPDATE_ATTACK")
    assert env.host.check_condition(cond) is True
