"""A few real card scripts (YGOPRO_SCRIPTS) loaded with the real database: what their
initial_effect does through the Card library ends up on the card as in the reference."""

from __future__ import annotations

from pathlib import Path

from duelhost.bindings.host import LuaScriptHost
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.constants import (EFFECT_COUNTER_LIMIT, EFFECT_COUNTER_PERMIT, EFFECT_FLAG_INITIAL,
                                       EFFECT_FLAG_SINGLE_RANGE, EFFECT_FLAG_UNCOPYABLE, EFFECT_REVIVE_LIMIT,
                                       EFFECT_UNIQUE_CHECK, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_PZONE)
from duelhost.engine.duel import Duel, card_reader_from_db


def _duel(real_scripts: Path, corpus_db: Path) -> tuple[Duel, LuaScriptHost]:
    host = LuaScriptHost([real_scripts], strict=True)
    duel = Duel(card_reader_from_db(CardDatabase.open(corpus_db)), seed=1, script=host)
    return duel, host


def test_real_set_up_calls_of_initial_effect(real_scripts, corpus_db):
    duel, host = _duel(real_scripts, corpus_db)
    # Magical Abductor: counters in the Pendulum and Monster Zones
    abductor = duel.new_card(10239627)
    (permit,) = abductor.single_effect.equal_range(EFFECT_COUNTER_PERMIT + 0x1)
    assert permit.range == LOCATION_PZONE + LOCATION_MZONE and permit.is_flag(EFFECT_FLAG_SINGLE_RANGE)
    assert permit.is_flag(EFFECT_FLAG_INITIAL)
    # c11163040: counter 0x37, at most 5
    c = duel.new_card(11163040)
    (limit,) = c.single_effect.equal_range(EFFECT_COUNTER_LIMIT + 0x37)
    assert limit.value == 5 and c.single_effect.equal_range(EFFECT_COUNTER_PERMIT + 0x37)
    # c40678060: only one face-up on its controller's field
    u = duel.new_card(40678060)
    assert (u.unique_pos, u.unique_code, u.unique_location) == ([1, 0], 40678060, LOCATION_ONFIELD)
    assert u.single_effect.equal_range(EFFECT_UNIQUE_CHECK) == [u.unique_effect]
    # c2463794: once per turn Special Summon, revive limit
    s = duel.new_card(2463794)
    assert s.spsummon_code == 2463794
    (revive,) = s.single_effect.equal_range(EFFECT_REVIVE_LIMIT)
    assert revive.is_flag(EFFECT_FLAG_UNCOPYABLE)
    assert host.errors == []
