"""Tributes and materials (engine/field/materials.py).

Sums are checked on bare objects with a ``sum_param``; the rest on a duel
built with new_card_at, with effects registered on real cards and script
functions played by Python callables.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.duel import Duel
from duelhost.engine.field.materials import MaterialsMixin, _xmat_insert
from duelhost.engine.group import CardSet, Group

from fake_script_host import FakeScript

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB: dict[int, CardData] = {
    100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000),
    101: CardData(code=101, type=NORMAL | TYPE_TUNER, level=3, attack=1200, defense=800),
    102: CardData(code=102, type=NORMAL, level=2, attack=500, defense=500),
    103: CardData(code=103, type=NORMAL, level=7, attack=2500, defense=500),
    200: CardData(code=200, type=TYPE_MONSTER | TYPE_SYNCHRO, level=7, attack=2500, defense=2000),
    201: CardData(code=201, type=TYPE_MONSTER | TYPE_XYZ, level=4, attack=2500, defense=2000),
    202: CardData(code=202, type=TYPE_MONSTER | TYPE_FUSION, level=6, attack=2000, defense=2000),
    500: CardData(code=500, type=TYPE_SPELL),
}


@pytest.fixture
def duel() -> Duel:
    d = Duel(DB.get, seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], script=FakeScript())  # type: ignore[arg-type]
    d.core.duel_rule = 5
    return d


def monster(d: Duel, code: int = 100, p: int = 0, seq: int = 0, pos: int = POS_FACEUP_ATTACK) -> Card:
    return d.new_card_at(code, p, p, LOCATION_MZONE, seq, pos)


def single_effect(d: Duel, card: Card, code: int, value: Any = 0) -> Any:
    e = d.new_effect()
    e.type = EFFECT_TYPE_SINGLE
    e.code = code
    e.value = value
    e.owner = card
    card.add_effect(e)
    return e


def player_effect(d: Duel, code: int, *, on: Card, s: int = 1, o: int = 0) -> Any:
    e = d.new_effect()
    e.type = EFFECT_TYPE_FIELD
    e.code = code
    e.flag[0] = EFFECT_FLAG_PLAYER_TARGET
    e.s_range, e.o_range = s, o
    e.range = LOCATION_MZONE
    e.owner = on
    on.add_effect(e)
    return e


# ----- sums --------------------------------------------------------------------------------

def mats(*params: int) -> list[Any]:
    return [SimpleNamespace(sum_param=p) for p in params]


def test_sum_params_one_or_two_values() -> None:
    assert MaterialsMixin.get_sum_params(4) == (4, 0)
    assert MaterialsMixin.get_sum_params(4 | (3 << 16)) == (4, 3)
    assert MaterialsMixin.get_sum_params(0x80000000 | 70000) == (70000, 0)


def test_sum_equal_with_required_cards() -> None:
    m = mats(3, 4, 2, 2)                              # a Level 3 tuner first (must use it)
    eq = MaterialsMixin.check_with_sum_limit_m
    assert eq(m, 7, 0, 1, 1, 0xFFFF, 1)               # 3 + 4
    assert eq(m, 7, 0, 2, 2, 0xFFFF, 1)               # 3 + 2 + 2
    assert not eq(m, 9, 0, 1, 1, 0xFFFF, 1)           # 9 needs two more cards
    assert eq(m, 9, 0, 1, 2, 0xFFFF, 1)
    assert not eq(m, 12, 0, 1, 99, 0xFFFF, 1)
    assert eq(mats(4 | (6 << 16), 3), 9, 0, 1, 1, 0xFFFF, 1)   # the second value counts


def test_sum_equal_refuses_a_card_worth_nothing() -> None:
    eq = MaterialsMixin.check_with_sum_limit_m
    assert eq(mats(0, 4), 4, 0, 1, 1, 0xFFFF, 0)
    assert not eq(mats(0, 4), 4, 0, 2, 2, 0xFFFF, 0)


def test_sum_greater_without_superfluous_cards() -> None:
    ge = MaterialsMixin.check_with_sum_greater_limit_m
    assert ge(mats(3, 3, 3), 5, 0, 0xFFFF, 0)
    assert not ge(mats(5, 1), 5, 0, 0xFFFF, 2)        # the 1 would be superfluous
    assert ge(mats(4, 2), 5, 0, 0xFFFF, 2)
    assert not ge(mats(1, 1), 5, 0, 0xFFFF, 0)


def test_xmaterial_list_keeps_multimap_order() -> None:
    lst: list = []
    for key, name in ((1, "a"), (2, "b"), (1, "c"), (0, "d"), (2, "e")):
        _xmat_insert(lst, key, name)
    assert lst == [(2, "b"), (2, "e"), (1, "a"), (1, "c"), (0, "d")]


# ----- tributes ----------------------------------------------------------------------------

def test_release_list_own_monsters_hand_and_exclusions(duel: Duel) -> None:
    a, b = monster(duel, seq=0), monster(duel, 102, seq=1)
    h = duel.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    rl = CardSet()
    assert duel.get_release_list(0, rl, None, None, False, False, None, (), None, None, REASON_COST) == 2
    assert set(rl) == {a, b} and a.release_param == 1
    assert duel.get_release_list(0, None, None, None, False, True, None, (), a, None, REASON_COST) == 2
    assert duel.get_release_list(0, None, None, None, False, True, None, (), None,
                                 Group(duel, [a, h]), REASON_COST) == 1
    seen: list[tuple] = []

    def level_at_least(card: Card, lv: int) -> bool:
        seen.append((card, lv))
        return card.get_level() >= lv

    assert duel.get_release_list(0, None, None, None, True, False, level_at_least, (3,), None, None,
                                 REASON_COST) == 1
    assert seen == [(a, 3), (b, 3)]


def test_release_list_opponents_extra_releases(duel: Duel) -> None:
    mine = monster(duel)
    ex = monster(duel, p=1, seq=0)
    single_effect(duel, ex, EFFECT_EXTRA_RELEASE, 1)
    oneof1, oneof2 = monster(duel, p=1, seq=1), monster(duel, p=1, seq=2)
    single_effect(duel, oneof1, EFFECT_EXTRA_RELEASE_NONSUM, 1)
    single_effect(duel, oneof2, EFFECT_EXTRA_RELEASE_NONSUM, 1)
    monster(duel, p=1, seq=3)                          # no effect: not releasable by player 0
    rl, exl, one = CardSet(), CardSet(), CardSet()
    n = duel.get_release_list(0, rl, exl, one, False, False, None, (), None, None, REASON_COST)
    assert n == 3                                      # mine + ex + one of the two
    assert set(rl) == {mine} and set(exl) == {ex} and set(one) == {oneof1, oneof2}
    assert duel.check_release_list(0, 3, False, False, None, (), None, None, REASON_COST)
    assert not duel.check_release_list(0, 4, False, False, None, (), None, None, REASON_COST)
    # as in the reference, required cards are taken out before counting the rest
    duel.core.must_select_cards = [oneof1]
    assert duel.check_release_list(0, 2, False, False, None, (), None, None, REASON_COST)
    assert not duel.check_release_list(0, 3, False, False, None, (), None, None, REASON_COST)
    duel.core.must_select_cards = [mine]
    assert duel.check_release_list(0, 2, False, False, None, (), None, None, REASON_COST)
    duel.core.must_select_cards = [oneof1, oneof2]    # only one "one of" may be required
    assert not duel.check_release_list(0, 1, False, False, None, (), None, None, REASON_COST)


def test_release_list_face_down_opponent_only_without_condition(duel: Duel) -> None:
    ex = monster(duel, p=1, seq=0, pos=POS_FACEDOWN_DEFENSE)
    single_effect(duel, ex, EFFECT_EXTRA_RELEASE, 1)
    assert duel.get_release_list(0, None, None, None, False, False, None, (), None, None, REASON_COST) == 1
    assert duel.get_release_list(0, None, None, None, True, False, None, (), None, None, REASON_COST) == 0


def test_summon_release_list_counts_double_tributes(duel: Duel) -> None:
    target = duel.new_card_at(103, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    a, b = monster(duel, seq=0), monster(duel, seq=1)
    single_effect(duel, a, EFFECT_DOUBLE_TRIBUTE, 1)
    rl = CardSet()
    assert duel.get_summon_release_list(target, rl, None, None) == 3
    assert (a.release_param, b.release_param) == (2, 1)
    assert duel.get_summon_release_list(target, None, None, None, Group(duel, [b])) == 1
    assert duel.get_summon_release_list(target, None, None, None, None, 0, 0xFF0000 | (1 << 1)) == 1
    opp = monster(duel, p=1, seq=0)
    assert duel.get_summon_release_list(target, None, None, None, None, 1) == 4   # ex: opponent's too


def test_check_tribute_counts_zones_and_limits(duel: Duel) -> None:
    target = duel.new_card_at(103, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    assert not duel.check_tribute(target, 1, 1, None, 0)        # nothing to tribute
    for seq in range(5):
        monster(duel, seq=seq)
    assert duel.check_tribute(target, 2, 2, None, 0)
    assert not duel.check_tribute(target, 6, 6, None, 0)
    assert not duel.check_tribute(target, 1, 1, None, 0, zone=0)   # no zone allowed at all
    e = player_effect(duel, EFFECT_MAX_MZONE, on=duel.player[0].list_mzone[0])
    e.value = 3                                                   # 5 monsters, room for 3
    assert not duel.check_tribute(target, 1, 2, None, 0)
    assert duel.check_tribute(target, 1, 3, None, 0)


# ----- Ritual and Fusion ------------------------------------------------------------------

def test_ritual_material_sources(duel: Duel) -> None:
    ritual_effect = duel.new_effect()
    ritual_effect.owner = duel.temp_card
    a = monster(duel)
    h = duel.new_card_at(102, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    spell = duel.new_card_at(500, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    g = duel.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    opp = monster(duel, p=1)
    mat = duel.get_ritual_material(0, ritual_effect, CardSet())
    assert set(mat) == {a, h}
    single_effect(duel, g, EFFECT_EXTRA_RITUAL_MATERIAL, 1)
    single_effect(duel, opp, EFFECT_EXTRA_RELEASE, 1)
    mat = duel.get_ritual_material(0, ritual_effect, CardSet())
    assert set(mat) == {a, h, g, opp} and spell not in mat


def test_ritual_release_sorts_materials_by_where_they_are(duel: Duel, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[tuple] = []
    monkeypatch.setattr(duel, "send_to", lambda cards, *a: calls.append(("send_to", set(cards)) + a),
                        raising=False)
    monkeypatch.setattr(duel, "release", lambda cards, *a: calls.append(("release", set(cards)) + a),
                        raising=False)
    a = monster(duel)
    g = duel.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    x = duel.new_card_at(202, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    duel.core.reason_player = 0
    duel.ritual_release(CardSet([a, g, x]))
    reason = REASON_RITUAL | REASON_EFFECT | REASON_MATERIAL
    assert calls == [
        ("send_to", {x}, None, reason, 0, PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP),
        ("release", {a}, None, reason, 0),
        ("send_to", {g}, None, reason, 0, PLAYER_NONE, LOCATION_REMOVED, 0, POS_FACEUP),
    ]


def test_fusion_material_locations(duel: Duel) -> None:
    a = monster(duel)
    h = duel.new_card_at(102, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    duel.new_card_at(500, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    g = duel.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    base, all_ = CardSet(), CardSet()
    duel.get_fusion_material(0, all_, base, LOCATION_MZONE | LOCATION_HAND)
    assert set(base) == {a, h} and set(all_) == {a, h}
    single_effect(duel, g, EFFECT_EXTRA_FUSION_MATERIAL, 1)
    base, all_ = CardSet(), CardSet()
    duel.get_fusion_material(0, all_, base, LOCATION_HAND)
    assert set(base) == {h} and set(all_) == {h, g}


def test_must_material(duel: Duel) -> None:
    a, b = monster(duel, seq=0), monster(duel, seq=1)
    assert duel.check_must_material(None, 0, EFFECT_MUST_BE_SMATERIAL)
    player_effect(duel, EFFECT_MUST_BE_SMATERIAL, on=a)
    must = CardSet()
    assert duel.get_must_material_list(0, EFFECT_MUST_BE_SMATERIAL, must) == 1 and list(must) == [a]
    assert not duel.check_must_material(None, 0, EFFECT_MUST_BE_SMATERIAL)
    assert not duel.check_must_material(Group(duel, [b]), 0, EFFECT_MUST_BE_SMATERIAL)
    assert duel.check_must_material(Group(duel, [a, b]), 0, EFFECT_MUST_BE_SMATERIAL)
    assert duel.check_must_material(None, 1, EFFECT_MUST_BE_SMATERIAL)


# ----- Synchro ------------------------------------------------------------------------------

@pytest.fixture
def synchro_field(duel: Duel) -> SimpleNamespace:
    return SimpleNamespace(
        tuner=monster(duel, 101, seq=0), four=monster(duel, 100, seq=1), two=monster(duel, 102, seq=2),
        synchro=duel.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE))


def test_synchro_levels_must_add_up(duel: Duel, synchro_field: SimpleNamespace) -> None:
    f = synchro_field
    assert duel.check_synchro_material(f.synchro, None, None, 1, 99, None, None)    # 3 + 4
    f.synchro.data.level = 9
    assert duel.check_synchro_material(f.synchro, None, None, 1, 99, None, None)    # 3 + 4 + 2
    assert not duel.check_synchro_material(f.synchro, None, None, 1, 1, None, None)
    f.synchro.data.level = 10
    assert not duel.check_synchro_material(f.synchro, None, None, 1, 99, None, None)


def test_synchro_filters_and_required_material(duel: Duel, synchro_field: SimpleNamespace) -> None:
    f = synchro_field
    seen: list[tuple] = []

    def not_four(card: Card, sc: Card) -> bool:
        seen.append((card, sc))
        return card is not f.four

    assert not duel.check_synchro_material(f.synchro, None, not_four, 1, 99, None, None)
    assert (f.two, f.synchro) in seen                 # filter2 gets (card, Synchro Monster)
    assert not duel.check_synchro_material(f.synchro, lambda c: False, None, 1, 99, None, None)
    assert duel.check_synchro_material(f.synchro, None, None, 1, 99, f.four, None)
    assert not duel.check_synchro_material(f.synchro, None, None, 1, 99, f.two, None)
    assert not duel.check_tuner_material(f.synchro, f.four, None, None, 1, 99, None, None)


def test_synchro_from_a_group(duel: Duel, synchro_field: SimpleNamespace) -> None:
    f = synchro_field
    assert duel.check_synchro_material(f.synchro, None, None, 1, 99, None, Group(duel, [f.tuner, f.four]))
    assert not duel.check_synchro_material(f.synchro, None, None, 1, 99, None, Group(duel, [f.tuner, f.two]))


def test_face_down_tuner_cannot_be_used(duel: Duel) -> None:
    tuner = monster(duel, 101, seq=0, pos=POS_FACEDOWN_DEFENSE)
    monster(duel, 100, seq=1)
    synchro = duel.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    assert not duel.check_tuner_material(synchro, tuner, None, None, 1, 99, None, None)


def test_synchro_on_a_full_field_needs_a_material_to_leave_a_usable_zone(duel: Duel) -> None:
    tuner = monster(duel, 101, seq=0)
    four = monster(duel, 100, seq=1)
    for seq in (2, 3, 4):
        monster(duel, 103, seq=seq)
    monster(duel, 100, p=1, seq=5)                    # block player 0's EMZ 6
    monster(duel, 100, p=1, seq=6)                    # and EMZ 5
    synchro = duel.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    assert duel.get_spsummonable_count(synchro, 0) == 0
    assert duel.check_tuner_material(synchro, tuner, None, None, 1, 99, None, None)
    # the materials' zones are not usable by the Synchro Monster: no way
    must_use = duel.new_effect()
    must_use.type = EFFECT_TYPE_SINGLE
    must_use.code = EFFECT_MUST_USE_MZONE
    must_use.value = 0x1F & ~0b11                     # only zones 2-4
    must_use.owner = synchro
    synchro.add_effect(must_use)
    assert not duel.check_tuner_material(synchro, tuner, None, None, 1, 99, None, None)
    assert four.current.location == LOCATION_MZONE


# ----- Xyz ----------------------------------------------------------------------------------

@pytest.fixture
def xyz_field(duel: Duel) -> SimpleNamespace:
    return SimpleNamespace(
        a=monster(duel, 100, seq=0), b=monster(duel, 100, seq=1), c=monster(duel, 102, seq=2),
        xyz=duel.new_card_at(201, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE))


def test_xyz_material_list_and_counts(duel: Duel, xyz_field: SimpleNamespace) -> None:
    f = xyz_field
    assert duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)
    assert [c for _, c in duel.core.xmaterial_lst] == [f.a, f.b]
    assert not duel.check_xyz_material(f.xyz, None, 4, 3, 3, None)
    assert not duel.check_xyz_material(f.xyz, None, 3, 2, 2, None)
    assert not duel.check_xyz_material(f.xyz, lambda c: c is f.a, 4, 2, 2, None)
    assert duel.check_xyz_material(f.xyz, None, 4, 2, 2, Group(duel, [f.a, f.b, f.c]))
    assert not duel.check_xyz_material(f.xyz, None, 4, 2, 2, Group(duel, [f.a, f.c]))


def test_xyz_face_down_and_opponents_monsters(duel: Duel, xyz_field: SimpleNamespace) -> None:
    f = xyz_field
    f.b.current.position = POS_FACEDOWN_DEFENSE
    assert not duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)
    opp = monster(duel, 100, p=1, seq=0)
    assert not duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)
    single_effect(duel, opp, EFFECT_XYZ_MATERIAL, 1)
    assert duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)


def test_xyz_required_material_must_be_a_candidate(duel: Duel, xyz_field: SimpleNamespace) -> None:
    f = xyz_field
    player_effect(duel, EFFECT_MUST_BE_XMATERIAL, on=f.c)        # a Level 2 is required
    assert not duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)
    f.c.current.position = POS_FACEUP_ATTACK
    duel.core.global_flag |= GLOBALFLAG_TUNE_MAGICIAN
    assert not duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)


def test_xyz_with_tune_magician_flag_and_no_magicians(duel: Duel, xyz_field: SimpleNamespace) -> None:
    f = xyz_field
    duel.core.global_flag |= GLOBALFLAG_TUNE_MAGICIAN
    assert duel.check_xyz_material(f.xyz, None, 4, 2, 2, None)
    assert f.a.sum_param == 1 and f.b.sum_param == 1
    assert not duel.check_xyz_material(f.xyz, None, 4, 3, 3, None)
