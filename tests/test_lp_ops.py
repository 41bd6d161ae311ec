"""Life-point operations (engine/operations/lp.py): damage, recovery, LP costs.

Units are run through the processor driver; player effects are supplied by
replacing filter_player_effect, so each test states exactly which effects
apply.  Expected behaviour is read from the reference (operations.cpp
damage / recover / pay_lp_cost, processor.cpp's PROCESSOR_DAMAGE dispatch).
"""

from __future__ import annotations

from typing import Any, Callable

import pytest
from engine_run import run_units as run
from test_card_support import FakeScript

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.messages import (MsgDamage, MsgMatchKill, MsgPayLpCost, MsgRecover,
                                      MsgSelectEffectYn)

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB = {100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000)}


def make_duel() -> Duel:
    d = Duel(DB.get, seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], script=FakeScript())
    return d


def player_effects(d: Duel, table: dict[tuple[int, int], list[Effect]]) -> None:
    """filter_player_effect answers from ``table`` keyed by (player, code)."""
    def fake(playerid: int, code: int, sort: Any = True, eset: list | None = None) -> list:
        out = eset if eset is not None else []
        out.extend(table.get((playerid, code), []))
        return out
    d.filter_player_effect = fake  # type: ignore[method-assign]


def value_effect(d: Duel, code: int, value: Callable | int) -> Effect:
    e = d.new_effect()
    e.code = code
    e.type = EFFECT_TYPE_FIELD
    if callable(value):
        e.flag[0] |= EFFECT_FLAG_FUNC_VALUE
    e.value = value
    return e


def nothing() -> Any:
    """A unit that does nothing (to let the driver run what is already queued)."""
    return
    yield


def messages(d: Duel, cls: type) -> list:
    return [m for m in d.messages if isinstance(m, cls)]


# ----- damage ---------------------------------------------------------------------------

def test_damage_lowers_lp_and_reports_it() -> None:
    d = make_duel()
    d.damage(None, REASON_EFFECT, 0, None, 1, 1200)
    run(d, d.core.subunits.pop())
    assert d.player[1].lp == 8000 - 1200
    assert messages(d, MsgDamage) == [MsgDamage(player=1, amount=1200)]
    assert d.returns.ivalue[0] == 1200
    assert d.core.hint_timing[1] & TIMING_DAMAGE


def test_damage_of_zero_or_less_does_nothing() -> None:
    d = make_duel()
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 0))
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, -5))
    assert d.player[1].lp == 8000
    assert not messages(d, MsgDamage)
    assert d.returns.ivalue[0] == -5


def test_battle_damage_keeps_the_card_and_drops_the_effect() -> None:
    d = make_duel()
    attacker = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    eff = d.new_effect()
    d.damage(eff, REASON_BATTLE, 0, attacker, 1, 1500)
    proc = d.core.subunits.pop()
    assert proc.gi_frame.f_locals["reason_effect"] is None
    assert proc.gi_frame.f_locals["reason_card"] is attacker
    d.damage(eff, REASON_EFFECT, 0, attacker, 1, 1500)
    proc = d.core.subunits.pop()
    assert proc.gi_frame.f_locals["reason_effect"] is eff
    assert proc.gi_frame.f_locals["reason_card"] is None


def test_direct_battle_damage_with_match_kill(monkeypatch: pytest.MonkeyPatch) -> None:
    d = make_duel()
    attacker = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.player[1].lp = 1000
    original = Card.is_affected_by_effect

    def affected(self: Card, code: int, *a: Any) -> Any:
        if self is attacker and code == EFFECT_MATCH_KILL:
            return object()
        return original(self, code, *a)
    monkeypatch.setattr(Card, "is_affected_by_effect", affected)
    run(d, d.proc_damage(None, REASON_BATTLE, 0, attacker, 1, 1500))
    kinds = [type(m) for m in d.messages if isinstance(m, (MsgDamage, MsgMatchKill))]
    assert kinds == [MsgDamage, MsgMatchKill]
    assert d.player[1].lp == -500


def test_reflected_damage_hits_the_other_player_and_returns_zero() -> None:
    d = make_duel()
    reflect = value_effect(d, EFFECT_REFLECT_DAMAGE, lambda e, re, val, r, rp, rc: True)
    player_effects(d, {(1, EFFECT_REFLECT_DAMAGE): [reflect]})
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 700))
    assert d.player[0].lp == 7300
    assert d.player[1].lp == 8000
    assert messages(d, MsgDamage) == [MsgDamage(player=0, amount=700)]
    assert d.returns.ivalue[0] == 0


def test_changed_damage_uses_the_changed_amount_and_zero_stops_it() -> None:
    d = make_duel()
    seen = []

    def half(e, re, val, r, rp, rc):
        seen.append(val)
        return val // 2
    player_effects(d, {(1, EFFECT_CHANGE_DAMAGE): [value_effect(d, EFFECT_CHANGE_DAMAGE, half)]})
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 1000))
    assert seen == [1000]
    assert d.player[1].lp == 7500
    assert d.returns.ivalue[0] == 500
    d.messages.clear()
    player_effects(d, {(1, EFFECT_REPLACE_DAMAGE): [value_effect(d, EFFECT_REPLACE_DAMAGE, 0)]})
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 1000))
    assert not messages(d, MsgDamage)
    assert d.returns.ivalue[0] == 0


def test_reversed_damage_becomes_recovery() -> None:
    d = make_duel()
    rev = value_effect(d, EFFECT_REVERSE_DAMAGE, lambda e, re, r, rp, rc: True)
    player_effects(d, {(1, EFFECT_REVERSE_DAMAGE): [rev]})
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 600))
    assert d.player[1].lp == 8600
    assert messages(d, MsgRecover) == [MsgRecover(player=1, amount=600)]
    assert not messages(d, MsgDamage)
    assert d.returns.ivalue[0] == 0


def test_simultaneous_damage_waits_for_rd_complete() -> None:
    d = make_duel()
    run(d, d.proc_damage(None, REASON_EFFECT, 0, None, 1, 400, True))
    run(d, d.proc_recover(None, REASON_EFFECT, 0, 0, 300, True))
    assert d.player[1].lp == 8000 and d.player[0].lp == 8000
    assert not messages(d, MsgDamage) and not messages(d, MsgRecover)
    assert len(d.core.recover_damage_reserve) == 2
    # Duel.RDComplete: the parked units go back on the queue, in order
    d.core.subunits.extend(d.core.recover_damage_reserve)
    d.core.recover_damage_reserve.clear()
    run(d, nothing())
    assert d.player[1].lp == 7600 and d.player[0].lp == 8300
    assert [type(m) for m in d.messages] == [MsgDamage, MsgRecover]


# ----- recover --------------------------------------------------------------------------

def test_recover_stops_at_int32_max_and_not_at_zero_lp() -> None:
    d = make_duel()
    d.player[0].lp = 0x7FFFFFFF - 10
    run(d, d.proc_recover(None, REASON_EFFECT, 0, 0, 500))
    assert d.player[0].lp == 0x7FFFFFFF
    assert messages(d, MsgRecover) == [MsgRecover(player=0, amount=10)]
    assert d.returns.ivalue[0] == 500
    d.messages.clear()
    d.player[1].lp = 0
    run(d, d.proc_recover(None, REASON_EFFECT, 1, 1, 500))
    assert d.player[1].lp == 0
    assert messages(d, MsgRecover) == [MsgRecover(player=1, amount=0)]


def test_reversed_recovery_becomes_damage() -> None:
    d = make_duel()
    rev = value_effect(d, EFFECT_REVERSE_RECOVER, lambda e, re, r, rp: True)
    player_effects(d, {(0, EFFECT_REVERSE_RECOVER): [rev]})
    run(d, d.proc_recover(None, REASON_EFFECT, 1, 0, 800))
    assert d.player[0].lp == 7200
    assert messages(d, MsgDamage) == [MsgDamage(player=0, amount=800)]
    assert d.returns.ivalue[0] == 0


# ----- LP costs -------------------------------------------------------------------------

def test_pay_lp_cost() -> None:
    d = make_duel()
    run(d, d.proc_pay_lp_cost(0, 1000, False))
    assert d.player[0].lp == 7000
    assert messages(d, MsgPayLpCost) == [MsgPayLpCost(player=0, amount=1000)]


def test_pay_lp_cost_changed_by_effect() -> None:
    d = make_duel()
    seen = []

    def double(e, re, p, val):
        seen.append((p, val))
        return val * 2
    player_effects(d, {(0, EFFECT_LPCOST_CHANGE): [value_effect(d, EFFECT_LPCOST_CHANGE, double)]})
    run(d, d.proc_pay_lp_cost(0, 500, False))
    assert seen == [(0, 500)]
    assert d.player[0].lp == 7000


def test_cannot_pay_more_than_lp() -> None:
    d = make_duel()
    d.player[0].lp = 300
    run(d, d.proc_pay_lp_cost(0, 1000, True))
    run(d, d.proc_pay_lp_cost(0, 1000, False))
    assert d.player[0].lp == 300
    assert not messages(d, MsgPayLpCost)


def test_lp_cost_replacement_is_offered_as_yes_no(monkeypatch: pytest.MonkeyPatch) -> None:
    d = make_duel()
    holder = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    rep = d.new_effect()
    rep.code = EFFECT_LPCOST_REPLACE
    rep.handler = holder
    rep.description = 1234
    monkeypatch.setattr(Effect, "is_activateable", lambda self, p, e, *a: self is rep)
    d.effects.continuous_effect.add(EFFECT_LPCOST_REPLACE, rep)
    solved = []
    d.solve_continuous = lambda p, eff, e: solved.append((p, eff, e.event_value))  # type: ignore[method-assign]
    prompts = run(d, d.proc_pay_lp_cost(0, 1000, False), [b"\x00\x00\x00\x00"])
    assert isinstance(prompts[0], MsgSelectEffectYn) and prompts[0].description == 218
    assert d.player[0].lp == 7000
    d.messages.clear()
    run(d, d.proc_pay_lp_cost(0, 1000, False), [b"\x01\x00\x00\x00"])
    assert solved == [(0, rep, 1000)]
    assert d.player[0].lp == 7000
    assert not messages(d, MsgPayLpCost)
