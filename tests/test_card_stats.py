"""Card stats (card_stats.py): names, archetypes, types, ATK/DEF ordering, levels, links, columns, query bytes."""

from __future__ import annotations

import struct

from duelhost.engine.card_effects import card_operation_key
from duelhost.engine.constants import (
    ASSUME_ATTACK, ASSUME_CODE, EFFECT_ADD_CODE, EFFECT_ADD_SETCODE, EFFECT_ADD_TYPE, EFFECT_CHANGE_CODE,
    EFFECT_CHANGE_LEVEL, EFFECT_CHANGE_LSCALE, EFFECT_CHANGE_RANK, EFFECT_CHANGE_TYPE, EFFECT_FLAG2_OPTION,
    EFFECT_FLAG2_REPEAT_UPDATE, EFFECT_FLAG2_WICKED, EFFECT_FLAG_INITIAL, EFFECT_FLAG_SINGLE_RANGE,
    EFFECT_REMOVE_TYPE, EFFECT_REVERSE_UPDATE, EFFECT_SET_ATTACK, EFFECT_SET_ATTACK_FINAL, EFFECT_SET_BASE_ATTACK,
    EFFECT_SET_BASE_DEFENSE, EFFECT_SET_BATTLE_ATTACK, EFFECT_SWAP_AD, EFFECT_SWAP_BASE_AD, EFFECT_TYPE_FIELD,
    EFFECT_TYPE_SINGLE, EFFECT_UPDATE_ATTACK, EFFECT_UPDATE_DEFENSE, EFFECT_UPDATE_LEVEL, EFFECT_UPDATE_LSCALE,
    EFFECT_UPDATE_RANK, EFFECT_XYZ_LEVEL, EFFECT_XYZ_MIN_COUNT, LINK_MARKER_BOTTOM, LINK_MARKER_LEFT,
    LINK_MARKER_RIGHT, LINK_MARKER_TOP, LINK_MARKER_TOP_RIGHT, LOCATION_DECK, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, LOCATION_SZONE, POS_FACEDOWN_DEFENSE, POS_FACEUP_ATTACK, STATUS_NO_LEVEL, STATUS_SUMMONING,
    TYPE_EFFECT, TYPE_MONSTER, TYPE_PENDULUM, TYPE_SPELL, TYPE_TOKEN, TYPE_TUNER,
)
from duelhost.engine.core_constants import (
    QUERY_ATTACK, QUERY_CODE, QUERY_COUNTERS, QUERY_LEVEL, QUERY_LINK, QUERY_OWNER, QUERY_POSITION,
    QUERY_STATUS, QUERY_TARGET_CARD,
)

from test_card_support import make_duel, new_effect, place


def single(duel, card, code, value, **kw):
    e = new_effect(duel, card, type=EFFECT_TYPE_SINGLE, code=code, value=value, **kw)
    card.add_effect(e)
    return e


def aura(duel, source, code, value, s_range=LOCATION_MZONE, o_range=0, **kw):
    """A field effect of ``source`` that reaches its controller's monsters."""
    e = new_effect(duel, source, type=EFFECT_TYPE_FIELD, code=code, value=value, range=LOCATION_MZONE,
                   s_range=s_range, o_range=o_range, **kw)
    source.add_effect(e)
    return e


# ----- names and archetypes ---------------------------------------------------------------

def test_change_code_last_effect_wins_and_value_sees_printed_code_while_computing():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    seen = []
    single(duel, c, EFFECT_CHANGE_CODE, 1001)
    single(duel, c, EFFECT_CHANGE_CODE, lambda e, card: seen.append(card.get_code()) or 1002)
    assert c.get_code() == 1002
    assert seen == [1000]  # the recursion guard gives the value so far
    assert c.temp.code == 0xFFFFFFFF
    c.assume_type, c.assume_value = ASSUME_CODE, 77
    assert c.get_code() == 77


def test_names_and_is_code_follow_name_effects_assumed_codes_and_the_recursion_guard():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    other = place(duel, 2000, 0, LOCATION_MZONE, 1)
    # no name effect anywhere: the printed names (the look-ups are skipped)
    assert c.names() == (c.get_code(), c.get_another_code()) == (1000, 0)
    assert c.is_code([None, 1000]) and not c.is_code([1001])
    # an assumed code (Duel.AssumeProperty) counts although no effect exists
    c.assume_type, c.assume_value = ASSUME_CODE, 77
    assert c.names() == (77, 0) and c.is_code([77]) and not c.is_code([1000])
    c.assume_type = 0
    # a name effect on another card does not rename this one, but is seen on its own
    single(duel, other, EFFECT_CHANGE_CODE, 2001)
    assert c.names() == (1000, 0) and other.names() == (2001, 0)
    single(duel, c, EFFECT_ADD_CODE, 1002)
    assert c.names() == (1000, 1002) and c.is_code([1002]) and c.is_fusion_code([1002])
    # while its own name is being computed, a value function sees the name so far
    seen = []
    single(duel, c, EFFECT_CHANGE_CODE, lambda e, card: seen.append(card.names()) or 1003)
    assert c.get_code() == 1003 and seen == [(1000, 0)]
    assert c.is_code([1003]) and not c.is_code([1000])


def test_double_name_card_and_add_code():
    duel, _ = make_duel()
    dolphin = place(duel, 78734254, 0, LOCATION_MZONE)
    assert dolphin.get_original_code_rule() == (78734254, 17955766)
    assert dolphin.get_another_code() == 17955766
    # its second name's archetype counts
    assert dolphin.is_set_card(0x10)
    c = place(duel, 1000, 0, LOCATION_MZONE, 1)
    assert c.get_another_code() == 0
    single(duel, c, EFFECT_ADD_CODE, 1000)
    assert c.get_another_code() == 0  # equal to the first name
    single(duel, c, EFFECT_ADD_CODE, 1002)
    assert c.get_another_code() == 1002
    # a changed name keeps a second name only for a double-name card
    single(duel, c, EFFECT_CHANGE_CODE, 1001)
    assert c.get_another_code() == 0


def test_set_card_by_printed_changed_added_setcode():
    duel, _ = make_duel()
    c = place(duel, 1001, 0, LOCATION_MZONE)
    assert c.is_set_card(0x45)          # 0x1045 carries the sub-archetype bit
    assert c.is_set_card(0x1045)
    assert not c.is_set_card(0x2045)
    n = place(duel, 1002, 0, LOCATION_MZONE, 1)
    assert n.is_set_card(0x45) and not n.is_set_card(0x1045)
    single(duel, n, EFFECT_ADD_SETCODE, 0x99)
    assert n.is_set_card(0x99)
    m = place(duel, 1000, 0, LOCATION_MZONE, 2)
    single(duel, m, EFFECT_CHANGE_CODE, 1002)
    assert m.is_set_card(0x45)          # read from the new name's row
    assert not m.is_origin_set_card(0x45)


# ----- types ------------------------------------------------------------------------------

def test_type_effects_apply_in_effect_order_and_pzone_is_pendulum_spell():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, c, EFFECT_ADD_TYPE, TYPE_TUNER)
    single(duel, c, EFFECT_REMOVE_TYPE, TYPE_EFFECT)
    assert c.get_type() == TYPE_MONSTER | TYPE_TUNER
    single(duel, c, EFFECT_CHANGE_TYPE, TYPE_SPELL)
    assert c.get_type() == TYPE_SPELL
    deck = place(duel, 1000, 0, LOCATION_DECK)
    single(duel, deck, EFFECT_ADD_TYPE, TYPE_TUNER)
    assert deck.get_type() == deck.data.type   # effects do not apply in the Deck
    p = place(duel, 6000, 0, LOCATION_SZONE, 0)
    p.current.pzone = True
    assert p.get_type() == TYPE_PENDULUM + TYPE_SPELL
    t = place(duel, 7000, 0, LOCATION_MZONE, 3)
    single(duel, t, EFFECT_CHANGE_TYPE, TYPE_MONSTER)
    assert t.get_type() == TYPE_MONSTER | TYPE_TOKEN


# ----- ATK / DEF --------------------------------------------------------------------------

def test_atk_outside_monster_zone_and_while_summoning_is_printed():
    duel, _ = make_duel()
    h = place(duel, 1000, 0, LOCATION_HAND)
    single(duel, h, EFFECT_UPDATE_ATTACK, 500)
    assert h.get_atk_def() == (1800, 1000)
    m = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, m, EFFECT_UPDATE_ATTACK, 500)
    m.set_status(STATUS_SUMMONING, True)
    assert m.get_attack() == 1800
    s = place(duel, 2000, 0, LOCATION_SZONE)
    assert s.get_atk_def() == (0, 0)
    lk = place(duel, 5000, 1, LOCATION_MZONE)
    assert lk.get_atk_def() == (1600, 0)


def test_own_set_attack_then_updates_then_field_final():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    src = place(duel, 1001, 0, LOCATION_MZONE, 1)
    single(duel, c, EFFECT_UPDATE_ATTACK, 500)
    aura(duel, src, EFFECT_UPDATE_ATTACK, 200)
    single(duel, c, EFFECT_SET_ATTACK, 1000)
    # own single SET_ATTACK first (1000), then +500 and +200
    assert c.get_attack() == 1700
    # src's aura reaches src too
    assert src.get_attack() == 2700
    aura(duel, src, EFFECT_SET_ATTACK_FINAL, 0)
    assert c.get_attack() == 0


def test_set_attack_final_single_cancels_updates_and_replaces_earlier_sets():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    up = single(duel, c, EFFECT_UPDATE_ATTACK, 500)
    single(duel, c, EFFECT_SET_ATTACK_FINAL, 100)
    # adding a non-range single SET_ATTACK_FINAL removed the single update
    assert up not in c.indexer
    single(duel, c, EFFECT_UPDATE_ATTACK, 300)
    assert c.get_attack() == 400


def test_reverse_update_repeat_update_swap_wicked_option_order():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    src = place(duel, 1001, 0, LOCATION_MZONE, 1)
    single(duel, c, EFFECT_UPDATE_ATTACK, 300)
    single(duel, c, EFFECT_REVERSE_UPDATE, 0)
    assert c.get_attack() == 1500
    single(duel, c, EFFECT_UPDATE_ATTACK, 100, flag2=EFFECT_FLAG2_REPEAT_UPDATE)
    assert c.get_attack() == 1600     # repeat updates are not reversed
    single(duel, c, EFFECT_SWAP_AD, 0)
    assert c.get_atk_def() == (1000, 1600)
    aura(duel, src, EFFECT_SET_ATTACK_FINAL, 9, flag2=EFFECT_FLAG2_OPTION)
    aura(duel, src, EFFECT_SET_ATTACK_FINAL, 7, flag2=EFFECT_FLAG2_WICKED)
    # option comes after wicked whatever the effect order
    assert c.get_attack() == 9


def test_update_value_sees_partial_attack():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, c, EFFECT_UPDATE_ATTACK, lambda e, card: card.get_attack())
    assert c.get_attack() == 3600
    assert (c.temp.attack, c.temp.defense) == (-1, -1)


def test_base_attack_single_first_then_swap():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, c, EFFECT_SWAP_BASE_AD, 0)
    single(duel, c, EFFECT_SET_BASE_ATTACK, 500)
    single(duel, c, EFFECT_SET_BASE_DEFENSE, -20)
    # single sets first (500 / 0), then the swap
    assert c.get_base_atk_def() == (0, 500)
    single(duel, c, EFFECT_UPDATE_DEFENSE, 100)
    assert c.get_atk_def() == (0, 600)


def test_battle_attack_and_assumed_attack():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    assert c.get_battle_attack() == 1800
    single(duel, c, EFFECT_SET_BATTLE_ATTACK, -5)
    assert c.get_battle_attack() == 0
    c.assume_type, c.assume_value = ASSUME_ATTACK, 123
    assert c.get_atk_def() == (123, 0)


# ----- levels -----------------------------------------------------------------------------

def test_level_change_drops_earlier_updates_and_is_at_least_one():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, c, EFFECT_UPDATE_LEVEL, 2)
    single(duel, c, EFFECT_CHANGE_LEVEL, 8)
    single(duel, c, EFFECT_UPDATE_LEVEL, -1)
    assert c.get_level() == 7
    single(duel, c, EFFECT_UPDATE_LEVEL, -20)
    assert c.get_level() == 1
    c.set_status(STATUS_NO_LEVEL, True)
    assert c.get_level() == 0


def test_rank_in_and_out_of_monster_zone():
    duel, _ = make_duel()
    x = place(duel, 4000, 0, LOCATION_MZONE)
    assert x.get_level() == 0 and x.get_rank() == 4
    single(duel, x, EFFECT_UPDATE_RANK, 1)
    assert x.get_rank() == 5
    single(duel, x, EFFECT_CHANGE_RANK, 2)
    assert x.get_rank() == 2
    g = place(duel, 4000, 0, LOCATION_GRAVE)
    single(duel, g, EFFECT_UPDATE_RANK, 1)
    assert g.get_rank() == 4


def test_check_xyz_level_two_levels_and_min_count():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    xyz = place(duel, 4000, 0, LOCATION_MZONE, 1)
    assert c.check_xyz_level(xyz, 4) == 4
    assert c.check_xyz_level(xyz, 5) == 0
    # value: level 5 (count 2) or level 6
    single(duel, c, EFFECT_XYZ_LEVEL, lambda e, card, xc: 5 | (2 << 12) | (6 << 16))
    single(duel, c, EFFECT_XYZ_MIN_COUNT, lambda e, card, xc: 3)
    assert c.check_xyz_level(xyz, 5) == 5 | (3 << 12)
    assert c.check_xyz_level(xyz, 6) == 6 | (3 << 12)
    assert c.check_xyz_level(xyz, 4) == 0
    fn, args = script.calls[-1]
    assert args[1:] == (c, xyz)


# ----- scales -----------------------------------------------------------------------------

def test_scale_only_changes_in_pendulum_zone_and_not_below_zero():
    duel, _ = make_duel()
    p = place(duel, 6000, 0, LOCATION_SZONE, 0)
    p.current.pzone = True
    single(duel, p, EFFECT_UPDATE_LSCALE, -5)
    assert p.get_lscale() == 0
    single(duel, p, EFFECT_CHANGE_LSCALE, 7)
    assert p.get_lscale() == 7
    assert p.get_rscale() == 3
    h = place(duel, 6000, 0, LOCATION_HAND)
    single(duel, h, EFFECT_UPDATE_LSCALE, 2)
    assert h.get_lscale() == 3


# ----- links and columns ------------------------------------------------------------------

def test_linked_zone_main_and_extra_zones():
    duel, _ = make_duel()
    lk = place(duel, 5000, 0, LOCATION_MZONE, 2)
    lk.data.link_marker = LINK_MARKER_LEFT | LINK_MARKER_RIGHT | LINK_MARKER_TOP | LINK_MARKER_TOP_RIGHT
    assert lk.get_linked_zone() == (1 << 1) | (1 << 3) | (1 << 6) | (1 << 21)
    ex = place(duel, 5000, 1, LOCATION_MZONE, 5)
    ex.data = ex.data.copy()
    ex.data.link_marker = LINK_MARKER_BOTTOM | LINK_MARKER_TOP
    assert ex.get_linked_zone() == (1 << 1) | (1 << 19)
    normal = place(duel, 1000, 0, LOCATION_MZONE, 1)
    assert normal.get_linked_zone() == 0
    assert normal in lk.get_linked_cards()
    assert normal.is_link_state()
    lk.set_status(STATUS_SUMMONING, True)
    assert lk.get_linked_zone() == 0


def test_mutual_link_and_column():
    duel, _ = make_duel()
    a = place(duel, 5000, 0, LOCATION_MZONE, 1)
    b = place(duel, 5000, 0, LOCATION_MZONE, 2)
    a.data = a.data.copy()
    b.data = b.data.copy()
    a.data.link_marker = LINK_MARKER_RIGHT
    b.data.link_marker = LINK_MARKER_LEFT
    assert a.get_mutual_linked_zone() == 1 << 2
    assert list(b.get_mutual_linked_cards()) == [a]
    assert a.get_column_zone(LOCATION_MZONE) == (1 << 19) | (1 << 5) | (1 << 22)
    assert a.get_column_zone(LOCATION_SZONE) == (1 << 9) | (1 << 27)
    s = place(duel, 2000, 0, LOCATION_SZONE, 1)
    o = place(duel, 1000, 1, LOCATION_MZONE, 3)
    assert set(a.get_column_cards()) == {s, o}
    assert not a.is_all_column()


# ----- query bytes ------------------------------------------------------------------------

def test_get_infos_layout_and_cache():
    duel, _ = make_duel()
    c = place(duel, 1000, 1, LOCATION_MZONE, 2)
    t = place(duel, 1001, 0, LOCATION_MZONE, 0)
    c.effect_target_cards.add(t)
    c.counters[0x1005] = 3
    flags = QUERY_CODE | QUERY_POSITION | QUERY_LEVEL | QUERY_ATTACK | QUERY_TARGET_CARD | QUERY_COUNTERS \
        | QUERY_OWNER | QUERY_STATUS | QUERY_LINK
    raw = c.get_infos(flags, False)
    loc = 1 | (LOCATION_MZONE << 8) | (2 << 16) | (POS_FACEUP_ATTACK << 24)
    tloc = 0 | (LOCATION_MZONE << 8) | (0 << 16) | (POS_FACEUP_ATTACK << 24)
    body = struct.pack("<IIIiiIiIiIII", 1000, loc, 4, 1800, 1, tloc, 1, 0x1005 | (3 << 16), 1, 0, 0, 0)
    assert raw == struct.pack("<iI", 8 + len(body), flags) + body
    # cached: unchanged level/attack/status/link are left out and their flags cleared
    raw2 = c.get_infos(flags, True)
    left = flags & ~(QUERY_LEVEL | QUERY_ATTACK | QUERY_STATUS | QUERY_LINK)
    body2 = struct.pack("<IIiIiII", 1000, loc, 1, tloc, 1, 0x1005 | (3 << 16), 1)
    assert raw2 == struct.pack("<iI", 8 + len(body2), left) + body2
    # a new position invalidates the cache
    c.current.position = POS_FACEDOWN_DEFENSE
    raw3 = c.get_infos(QUERY_POSITION | QUERY_LEVEL, True)
    assert struct.unpack_from("<iIII", raw3) == (16, QUERY_POSITION | QUERY_LEVEL,
                                                 (loc & 0xFFFFFF) | (POS_FACEDOWN_DEFENSE << 24), 4)


# ----- ordering for operations ------------------------------------------------------------

def test_card_operation_order():
    duel, _ = make_duel()
    g0a = place(duel, 1000, 0, LOCATION_GRAVE)
    g0b = place(duel, 1000, 0, LOCATION_GRAVE)
    m0 = place(duel, 1000, 0, LOCATION_MZONE, 3)
    m0b = place(duel, 1000, 0, LOCATION_MZONE, 1)
    h1 = place(duel, 1000, 1, LOCATION_HAND)
    cards = [g0a, h1, m0, g0b, m0b]
    duel.infos.turn_player = 0
    assert sorted(cards, key=card_operation_key) == [m0b, m0, g0b, g0a, h1]
    duel.infos.turn_player = 1
    assert sorted(cards, key=card_operation_key) == [h1, m0b, m0, g0b, g0a]


def test_initial_single_range_effects_sort_first():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    single(duel, c, EFFECT_CHANGE_LEVEL, 3)
    single(duel, c, EFFECT_CHANGE_LEVEL, 5, flag=EFFECT_FLAG_SINGLE_RANGE | EFFECT_FLAG_INITIAL,
           range=LOCATION_MZONE)
    # the initial one (added later) applies first, so the other one wins
    assert c.get_level() == 3
