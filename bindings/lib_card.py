"""The Card library, part 1: names, archetypes, types, stats, places (reference: libcard.cpp).

Every function is a mechanical translation of the reference's: the same
argument handling (which arguments are checked, which are optional and what
they default to, branches on the real argument count), the same call into the
engine, the same return values (booleans stay booleans, integers keep the
reference's signedness).  Rule logic that the reference keeps in the library
function itself is a Card method in the engine file of its area
(engine/card_stats.py, card_checks.py, card_effects.py, card.py).

Conventions of this file and its siblings (lib_card_effects, lib_card_checks):

* ``_u32(args.int(i))`` is the reference's ``(uint32_t)lua_tointeger(L, i)``,
  ``_i32`` its ``(int32_t)``; ``_u8``/``_u16`` are the truncations done when the
  value is passed to a ``uint8_t``/``uint16_t`` parameter of the core.
* Functions without a return value return ``()`` (no Lua values); ``None`` is
  one nil.
"""

from __future__ import annotations

from operator import methodcaller
from typing import Any

from ..engine.constants import (
    ATTRIBUTE_ALL, POS_ATTACK, POS_DEFENSE, POS_FACEDOWN, POS_FACEUP, REASON_EFFECT,
    STATUS_NO_LEVEL, TYPE_LINK, TYPE_XYZ,
)
from ..engine.core_constants import DEFAULT_SUMMON_TYPE
from .args import Args
from .registry import LuaContext, lua_function
from ..engine.wire import i32 as _i32, u32 as _u32

NO_VALUES: tuple = ()


def _u16(v: int) -> int:
    return v & 0xFFFF


def _u8(v: int) -> int:
    return v & 0xFF


def _player_or_reason(args: Args, i: int, pcard: Any) -> int:
    """An optional player argument: given and not nil, else the reason player."""
    if args.count >= i and not args.is_nil(i):
        return _i32(args.int(i))
    return pcard.duel.core.reason_player


def _swap_sides(zone: int, cp: int, pcard: Any) -> int:
    """A two-sided zone mask seen from player ``cp``: from the opponent's side the
    halves swap."""
    if cp == 1 - pcard.current.controler:
        return (((zone & 0xFFFF) << 16) | (zone >> 16)) & 0xFFFFFFFF
    return zone


# ----- names and archetypes ---------------------------------------------------------------

@lua_function("Card.GetCode")
def card_get_code(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    code = c.get_code()
    otcode = c.get_another_code()
    if otcode:
        return code, otcode
    return code


@lua_function("Card.GetOriginalCode")
def card_get_original_code(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_original_code()


@lua_function("Card.GetOriginalCodeRule")
def card_get_original_code_rule(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    code1, code2 = args.card(1).get_original_code_rule()
    if code2:
        return code1, code2
    return code1


@lua_function("Card.GetFusionCode")
def card_get_fusion_code(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return tuple(args.card(1).get_fusion_codes())


@lua_function("Card.GetLinkCode")
def card_get_link_code(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return tuple(args.card(1).get_link_codes())


@lua_function("Card.IsFusionCode")
def card_is_fusion_code(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.is_fusion_code(args.codes(2))


@lua_function("Card.IsLinkCode")
def card_is_link_code(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.is_link_code(args.codes(2))


def _setcode_test(method: str) -> Any:
    """Card.IsSetCard & co. with one archetype code, as a function of the card and that
    integer (the registry's ``of_card_int``): ``method`` of ``(uint32_t)n``."""
    def test(c: Any, n: int) -> bool:
        return bool(getattr(c, method)(n & 0xFFFFFFFF))
    return test


def _is_code_one(c: Any, n: int) -> bool:
    """Card.IsCode with one code (the registry's ``of_card_int``)."""
    return c.is_code([n & 0xFFFFFFFF])


def _any_setcode(args: Args, check: Any) -> bool:
    """The reference's loop over set codes: the first non-nil one that matches."""
    for set_code in args.codes(2):
        if set_code is not None and check(set_code):
            return True
    return False


@lua_function("Card.IsSetCard", of_card_int=_setcode_test("is_set_card"))
def card_is_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_set_card)


@lua_function("Card.IsOriginalSetCard", of_card_int=_setcode_test("is_origin_set_card"))
def card_is_original_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_origin_set_card)


@lua_function("Card.IsPreviousSetCard", of_card_int=_setcode_test("is_pre_set_card"))
def card_is_previous_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_pre_set_card)


@lua_function("Card.IsFusionSetCard", of_card_int=_setcode_test("is_fusion_set_card"))
def card_is_fusion_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_fusion_set_card)


@lua_function("Card.IsLinkSetCard", of_card_int=_setcode_test("is_link_set_card"))
def card_is_link_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_link_set_card)


@lua_function("Card.IsSpecialSummonSetCard", of_card_int=_setcode_test("is_special_summon_set_card"))
def card_is_special_summon_set_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _any_setcode(args, args.card(1).is_special_summon_set_card)


@lua_function("Card.IsOriginalCodeRule")
def card_is_original_code_rule(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.is_original_code_rule(args.codes(2))


@lua_function("Card.IsCode", of_card_int=_is_code_one)
def card_is_code(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.is_code(args.codes(2))


# ----- card types -----------------------------------------------------------------------

@lua_function("Card.GetType")
def card_get_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_type()


@lua_function("Card.GetOriginalType")
def card_get_original_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).data.type


@lua_function("Card.GetFusionType")
def card_get_fusion_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_fusion_type()


@lua_function("Card.GetSynchroType")
def card_get_synchro_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_synchro_type()


@lua_function("Card.GetXyzType")
def card_get_xyz_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_xyz_type()


@lua_function("Card.GetLinkType")
def card_get_link_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_link_type()


def _type_test(getter: str) -> Any:
    """Card.IsType & co. as a function of the card and the integer argument (the
    registry's ``of_card_int``): does the card's value of ``getter`` share a bit
    with ``(uint32_t)n``?"""
    value = methodcaller(getter)

    def test(c: Any, n: int) -> bool:
        return bool(value(c) & _u32(n))
    return test


_is_type = _type_test("get_type")
_is_fusion_type = _type_test("get_fusion_type")
_is_synchro_type = _type_test("get_synchro_type")
_is_xyz_type = _type_test("get_xyz_type")
_is_link_type = _type_test("get_link_type")
_is_race = _type_test("get_race")
_is_attribute = _type_test("get_attribute")


@lua_function("Card.IsType", of_card_int=_is_type)
def card_is_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_type(args.card(1), args.int(2))


@lua_function("Card.IsAllTypes")
def card_is_all_types(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    ttype = _u32(args.int(2))
    return (c.get_type() & ttype) == ttype


@lua_function("Card.IsFusionType", of_card_int=_is_fusion_type)
def card_is_fusion_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_fusion_type(args.card(1), args.int(2))


@lua_function("Card.IsSynchroType", of_card_int=_is_synchro_type)
def card_is_synchro_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_synchro_type(args.card(1), args.int(2))


@lua_function("Card.IsXyzType", of_card_int=_is_xyz_type)
def card_is_xyz_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_xyz_type(args.card(1), args.int(2))


@lua_function("Card.IsLinkType", of_card_int=_is_link_type)
def card_is_link_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_link_type(args.card(1), args.int(2))


@lua_function("Card.IsExtraDeckMonster")
def card_is_extra_deck_monster(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_extra_deck_monster()


# ----- Level, Rank, Link, scales ----------------------------------------------------------

def _level(c: Any) -> int:
    return _u32(c.get_level())


def _rank(c: Any) -> int:
    return _u32(c.get_rank())


def _link(c: Any) -> int:
    return _u32(c.get_link())


@lua_function("Card.GetLevel", of_card=_level)
def card_get_level(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _level(args.card(1))


@lua_function("Card.GetRank", of_card=_rank)
def card_get_rank(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _rank(args.card(1))


@lua_function("Card.GetLink", of_card=_link)
def card_get_link(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _link(args.card(1))


@lua_function("Card.GetSynchroLevel")
def card_get_synchro_level(ctx: LuaContext, args: Args) -> Any:
    # the reference checks only the Synchro Monster argument
    args.need(2)
    scard = args.card(2)
    return _u32(args.card(1).get_synchro_level(scard))


@lua_function("Card.GetRitualLevel")
def card_get_ritual_level(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    scard = args.card(2)
    return _u32(args.card(1).get_ritual_level(scard))


@lua_function("Card.GetOriginalLevel")
def card_get_original_level(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    if (c.data.type & (TYPE_XYZ | TYPE_LINK)) or (c.status & STATUS_NO_LEVEL):
        return 0
    return c.data.level


@lua_function("Card.GetOriginalRank")
def card_get_original_rank(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    if not (c.data.type & TYPE_XYZ):
        return 0
    return c.data.level


@lua_function("Card.IsXyzLevel")
def card_is_xyz_level(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    xyzcard = args.card(2)
    lv = _u32(args.int(3))
    return bool(c.check_xyz_level(xyzcard, lv))


def _level_in(args: Args, value: int) -> bool:
    value = _u32(value)
    for t in args.codes(2):
        if t is not None and value == t:
            return True
    return False


def _value_is(getter: str) -> Any:
    """Card.IsLevel & co. with one value, as a function of the card and that integer (the
    registry's ``of_card_int``): is the card's value of ``getter`` ``(uint32_t)n``?"""
    value = methodcaller(getter)

    def test(c: Any, n: int) -> bool:
        return _u32(value(c)) == n & 0xFFFFFFFF
    return test


_is_level = _value_is("get_level")
_is_rank = _value_is("get_rank")
_is_link = _value_is("get_link")


@lua_function("Card.IsLevel", of_card_int=_is_level)
def card_is_level(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _level_in(args, args.card(1).get_level())


@lua_function("Card.IsRank", of_card_int=_is_rank)
def card_is_rank(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _level_in(args, args.card(1).get_rank())


@lua_function("Card.IsLink", of_card_int=_is_link)
def card_is_link(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _level_in(args, args.card(1).get_link())


def _bound_test(getter: str, above: bool) -> Any:
    """IsLevelBelow & co. as a function of the card and the bound (also the registry's
    ``of_card_int``): unsigned comparisons; a card without one (0) never matches."""
    value = methodcaller(getter)

    def test(c: Any, n: int) -> bool:
        v = _u32(value(c))
        if v == 0:
            return False
        return v >= _u32(n) if above else v <= _u32(n)
    return test


_level_below = _bound_test("get_level", False)
_level_above = _bound_test("get_level", True)
_rank_below = _bound_test("get_rank", False)
_rank_above = _bound_test("get_rank", True)
_link_below = _bound_test("get_link", False)
_link_above = _bound_test("get_link", True)


@lua_function("Card.IsLevelBelow", of_card_int=_level_below)
def card_is_level_below(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _level_below(args.card(1), args.int(2))


@lua_function("Card.IsLevelAbove", of_card_int=_level_above)
def card_is_level_above(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _level_above(args.card(1), args.int(2))


@lua_function("Card.IsRankBelow", of_card_int=_rank_below)
def card_is_rank_below(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _rank_below(args.card(1), args.int(2))


@lua_function("Card.IsRankAbove", of_card_int=_rank_above)
def card_is_rank_above(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _rank_above(args.card(1), args.int(2))


@lua_function("Card.IsLinkBelow", of_card_int=_link_below)
def card_is_link_below(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _link_below(args.card(1), args.int(2))


@lua_function("Card.IsLinkAbove", of_card_int=_link_above)
def card_is_link_above(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _link_above(args.card(1), args.int(2))


@lua_function("Card.IsHasLevel")
def card_is_has_level(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    if (c.data.type & (TYPE_XYZ | TYPE_LINK)) or (c.status & STATUS_NO_LEVEL):
        return False
    return c.is_monster_for_stats()


@lua_function("Card.GetLeftScale")
def card_get_left_scale(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).get_lscale())


@lua_function("Card.GetOriginalLeftScale")
def card_get_original_left_scale(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).data.lscale


@lua_function("Card.GetRightScale")
def card_get_right_scale(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).get_rscale())


@lua_function("Card.GetOriginalRightScale")
def card_get_original_right_scale(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).data.rscale


@lua_function("Card.GetCurrentScale")
def card_get_current_scale(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).get_current_scale())


# ----- Link Arrows, linked zones, columns -------------------------------------------------

@lua_function("Card.IsLinkMarker")
def card_is_link_marker(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    direction = _u32(args.int(2))
    return bool(c.is_link_marker(direction))


@lua_function("Card.GetLinkedGroup")
def card_get_linked_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.get_linked_cards())


@lua_function("Card.GetLinkedGroupCount")
def card_get_linked_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).get_linked_cards())


@lua_function("Card.GetLinkedZone")
def card_get_linked_zone(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    zone = c.get_linked_zone()
    cp = _i32(args.int(2)) if args.count >= 2 and not args.is_nil(2) else c.current.controler
    return _swap_sides(zone, cp, c)


@lua_function("Card.GetMutualLinkedGroup")
def card_get_mutual_linked_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.get_mutual_linked_cards())


@lua_function("Card.GetMutualLinkedGroupCount")
def card_get_mutual_linked_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).get_mutual_linked_cards())


@lua_function("Card.GetMutualLinkedZone")
def card_get_mutual_linked_zone(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    zone = c.get_mutual_linked_zone()
    cp = _i32(args.int(2)) if args.count >= 2 and not args.is_nil(2) else c.current.controler
    return _swap_sides(zone, cp, c)


@lua_function("Card.IsLinkState")
def card_is_link_state(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_link_state())


@lua_function("Card.IsExtraLinkState")
def card_is_extra_link_state(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_extra_link_state())


@lua_function("Card.GetColumnGroup")
def card_get_column_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.get_column_cards())


@lua_function("Card.GetColumnGroupCount")
def card_get_column_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).get_column_cards())


@lua_function("Card.GetColumnZone")
def card_get_column_zone(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    loc = _i32(args.int(2))
    cp = c.current.controler
    if args.count >= 3 and not args.is_nil(3):
        cp = _i32(args.int(3))
    zone = c.get_column_zone(loc)
    return _swap_sides(zone, cp, c)


@lua_function("Card.IsAllColumn")
def card_is_all_column(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_all_column())


# ----- Attribute and Type (race) ------------------------------------------------------------

@lua_function("Card.GetAttribute")
def card_get_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_attribute()


@lua_function("Card.GetOriginalAttribute")
def card_get_original_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return 0 if c.status & STATUS_NO_LEVEL else c.data.attribute


@lua_function("Card.GetFusionAttribute")
def card_get_fusion_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_fusion_attribute(_u8(_player_or_reason(args, 2, c)))


@lua_function("Card.GetLinkAttribute")
def card_get_link_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_link_attribute(_u8(_player_or_reason(args, 2, c)))


@lua_function("Card.GetAttributeInGrave")
def card_get_attribute_in_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_grave_attribute(_u8(_player_or_reason(args, 2, c)))


@lua_function("Card.GetRace")
def card_get_race(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_race()


@lua_function("Card.GetOriginalRace")
def card_get_original_race(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return 0 if c.status & STATUS_NO_LEVEL else c.data.race


@lua_function("Card.GetLinkRace")
def card_get_link_race(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_link_race(_u8(_player_or_reason(args, 2, c)))


@lua_function("Card.GetRaceInGrave")
def card_get_race_in_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_grave_race(_u8(_player_or_reason(args, 2, c)))


@lua_function("Card.IsRace", of_card_int=_is_race)
def card_is_race(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_race(args.card(1), args.int(2))


@lua_function("Card.IsLinkRace")
def card_is_link_race(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    trace = _u32(args.int(2))
    return bool(c.get_link_race(_u8(_player_or_reason(args, 3, c))) & trace)


@lua_function("Card.IsAttribute", of_card_int=_is_attribute)
def card_is_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_attribute(args.card(1), args.int(2))


@lua_function("Card.IsFusionAttribute")
def card_is_fusion_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    tattrib = _u32(args.int(2))
    return bool(c.get_fusion_attribute(_u8(_player_or_reason(args, 3, c))) & tattrib)


@lua_function("Card.IsLinkAttribute")
def card_is_link_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    tattrib = _u32(args.int(2))
    return bool(c.get_link_attribute(_u8(_player_or_reason(args, 3, c))) & tattrib)


@lua_function("Card.IsNonAttribute")
def card_is_non_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    tattrib = _u32(args.int(2))
    return bool(c.get_attribute() & (ATTRIBUTE_ALL & ~tattrib))


# ----- ATK / DEF ----------------------------------------------------------------------------

def _attack(c: Any) -> int:
    return max(_i32(c.get_attack()), 0)


def _defense(c: Any) -> int:
    return max(_i32(c.get_defense()), 0)


@lua_function("Card.GetAttack", of_card=_attack)
def card_get_attack(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _attack(args.card(1))


@lua_function("Card.GetBaseAttack")
def card_get_base_attack(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return max(_i32(args.card(1).get_base_attack()), 0)


@lua_function("Card.GetTextAttack")
def card_get_text_attack(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return 0 if c.status & STATUS_NO_LEVEL else c.data.attack


@lua_function("Card.GetDefense", of_card=_defense)
def card_get_defense(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _defense(args.card(1))


@lua_function("Card.GetBaseDefense")
def card_get_base_defense(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return max(_i32(args.card(1).get_base_defense()), 0)


@lua_function("Card.GetTextDefense")
def card_get_text_defense(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return 0 if c.status & STATUS_NO_LEVEL else c.data.defense


def _is_attack(c: Any, n: int) -> bool:
    return c.is_monster_for_stats() and _u32(c.get_attack()) == n & 0xFFFFFFFF


def _is_defense(c: Any, n: int) -> bool:
    return c.has_defense_for_stats() and _u32(c.get_defense()) == n & 0xFFFFFFFF


def _attack_below(c: Any, n: int) -> bool:
    return c.is_monster_for_stats() and 0 <= _i32(c.get_attack()) <= _i32(n)


def _attack_above(c: Any, n: int) -> bool:
    return c.is_monster_for_stats() and _i32(c.get_attack()) >= _i32(n)


def _defense_below(c: Any, n: int) -> bool:
    return c.has_defense_for_stats() and 0 <= _i32(c.get_defense()) <= _i32(n)


def _defense_above(c: Any, n: int) -> bool:
    return c.has_defense_for_stats() and _i32(c.get_defense()) >= _i32(n)


# (each also the registry's ``of_card_int``: the query of the card and one value)
@lua_function("Card.IsAttack", of_card_int=_is_attack)
def card_is_attack(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not c.is_monster_for_stats():
        return False
    return _level_in(args, c.get_attack())


@lua_function("Card.IsDefense", of_card_int=_is_defense)
def card_is_defense(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not c.has_defense_for_stats():
        return False
    return _level_in(args, c.get_defense())


@lua_function("Card.IsAttackBelow", of_card_int=_attack_below)
def card_is_attack_below(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _attack_below(args.card(1), args.int(2))


@lua_function("Card.IsAttackAbove", of_card_int=_attack_above)
def card_is_attack_above(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _attack_above(args.card(1), args.int(2))


@lua_function("Card.IsDefenseBelow", of_card_int=_defense_below)
def card_is_defense_below(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _defense_below(args.card(1), args.int(2))


@lua_function("Card.IsDefenseAbove", of_card_int=_defense_above)
def card_is_defense_above(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _defense_above(args.card(1), args.int(2))


@lua_function("Card.IsHasDefense")
def card_is_has_defense(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).has_defense_for_stats()


# ----- the card as it was before its last move ------------------------------------------------

@lua_function("Card.GetPreviousCodeOnField")
def card_get_previous_code_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    prev = args.card(1).previous
    if prev.code2:
        return _u32(prev.code), _u32(prev.code2)
    return _u32(prev.code)


@lua_function("Card.GetPreviousTypeOnField")
def card_get_previous_type_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).previous.type)


@lua_function("Card.GetPreviousLevelOnField")
def card_get_previous_level_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).previous.level)


@lua_function("Card.GetPreviousRankOnField")
def card_get_previous_rank_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).previous.rank)


@lua_function("Card.GetPreviousAttributeOnField")
def card_get_previous_attribute_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).previous.attribute)


@lua_function("Card.GetPreviousRaceOnField")
def card_get_previous_race_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).previous.race)


@lua_function("Card.GetPreviousAttackOnField")
def card_get_previous_attack_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _i32(args.card(1).previous.attack)


@lua_function("Card.GetPreviousDefenseOnField")
def card_get_previous_defense_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _i32(args.card(1).previous.defense)


@lua_function("Card.GetPreviousOverlayCountOnField")
def card_get_previous_overlay_count_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).xyz_materials_previous_count_onfield


@lua_function("Card.GetPreviousPosition")
def card_get_previous_position(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).previous.position)


@lua_function("Card.GetPreviousLocation")
def card_get_previous_location(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).previous.location)


@lua_function("Card.GetPreviousSequence")
def card_get_previous_sequence(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).previous.sequence)


@lua_function("Card.GetPreviousControler")
def card_get_previous_controler(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).previous.controler)


@lua_function("Card.IsPreviousPosition")
def card_is_previous_position(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    pos = _u32(args.int(2))
    return bool(c.previous.position & pos)


@lua_function("Card.IsPreviousControler")
def card_is_previous_controler(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    con = _u32(args.int(2))
    return _u8(c.previous.controler) == con


@lua_function("Card.IsPreviousLocation")
def card_is_previous_location(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    loc = _u32(args.int(2))
    return c.previous.is_location(loc)


# ----- owner, controller, reason ------------------------------------------------------------

@lua_function("Card.GetOwner")
def card_get_owner(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).owner


def _controler(c: Any) -> int:
    return _u8(c.current.controler)


@lua_function("Card.GetControler", of_card=_controler)
def card_get_controler(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _controler(args.card(1))


def _is_controler(c: Any, n: int) -> bool:
    """Card.IsControler: is ``(uint32_t)n`` the card's controller?"""
    return _u8(c.current.controler) == _u32(n)


@lua_function("Card.IsControler", of_card_int=_is_controler)
def card_is_controler(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_controler(args.card(1), args.int(2))


@lua_function("Card.SetReason")
def card_set_reason(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.current.reason = _u32(args.int(2))
    return NO_VALUES


@lua_function("Card.GetReason")
def card_get_reason(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u32(args.card(1).current.reason)


@lua_function("Card.IsReason")
def card_is_reason(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    treason = _u32(args.int(2))
    return bool(c.current.reason & treason)


@lua_function("Card.IsAllReasons")
def card_is_all_reasons(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    treason = _u32(args.int(2))
    return (c.current.reason & treason) == treason


@lua_function("Card.GetReasonCard")
def card_get_reason_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).current.reason_card


@lua_function("Card.GetReasonPlayer")
def card_get_reason_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).current.reason_player)


@lua_function("Card.GetReasonEffect")
def card_get_reason_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).current.reason_effect


# ----- position, location, sequence ------------------------------------------------------------

def _position(c: Any) -> int:
    return _u8(c.current.position)


@lua_function("Card.GetPosition", of_card=_position)
def card_get_position(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _position(args.card(1))


@lua_function("Card.GetBattlePosition")
def card_get_battle_position(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).temp.position)


def _location(c: Any) -> int:
    return _u8(c.get_script_location())


@lua_function("Card.GetLocation", of_card=_location)
def card_get_location(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _location(args.card(1))


def _sequence(c: Any) -> int:
    return _u8(c.current.sequence)


@lua_function("Card.GetSequence", of_card=_sequence)
def card_get_sequence(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _sequence(args.card(1))


def _is_faceup(c: Any) -> bool:
    return c.is_position(POS_FACEUP)


@lua_function("Card.IsFaceup", of_card=_is_faceup)
def card_is_faceup(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _is_faceup(args.card(1))


@lua_function("Card.IsFaceupEx")
def card_is_faceup_ex(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_faceup_ex()


@lua_function("Card.IsAttackPos")
def card_is_attack_pos(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_position(POS_ATTACK)


def _is_facedown(c: Any) -> bool:
    return c.is_position(POS_FACEDOWN)


@lua_function("Card.IsFacedown", of_card=_is_facedown)
def card_is_facedown(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _is_facedown(args.card(1))


@lua_function("Card.IsDefensePos")
def card_is_defense_pos(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_position(POS_DEFENSE)


def _is_position(c: Any, n: int) -> bool:
    """Card.IsPosition: is the card in one of the positions ``(uint32_t)n``?"""
    return c.is_position(_u32(n))


@lua_function("Card.IsPosition", of_card_int=_is_position)
def card_is_position(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_position(args.card(1), args.int(2))


@lua_function("Card.IsPublic", of_card=_is_faceup)
def card_is_public(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _is_faceup(args.card(1))


def _is_on_field(c: Any) -> bool:
    return c.is_script_onfield()


@lua_function("Card.IsOnField", of_card=_is_on_field)
def card_is_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _is_on_field(args.card(1))


def _is_location(c: Any, n: int) -> bool:
    """Card.IsLocation: is the card in one of the locations ``(uint32_t)n`` (as scripts see them)?"""
    return c.is_script_location(_u32(n))


@lua_function("Card.IsLocation", of_card_int=_is_location)
def card_is_location(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_location(args.card(1), args.int(2))


# ----- summons -----------------------------------------------------------------------------

@lua_function("Card.GetSummonType")
def card_get_summon_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).summon_info & DEFAULT_SUMMON_TYPE


@lua_function("Card.GetSummonLocation")
def card_get_summon_location(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return (args.card(1).summon_info >> 16) & 0xFF


@lua_function("Card.GetSummonPlayer")
def card_get_summon_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).summon_player)


@lua_function("Card.IsSummonType")
def card_is_summon_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    ttype = _u32(args.int(2))
    return ((c.summon_info & DEFAULT_SUMMON_TYPE) & ttype) == ttype


@lua_function("Card.IsSummonLocation")
def card_is_summon_location(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    tloc = _u32(args.int(2))
    return bool(((c.summon_info >> 16) & 0xFF) & tloc)


@lua_function("Card.IsSummonPlayer")
def card_is_summon_player(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    con = _u32(args.int(2))
    return _u8(c.summon_player) == con


@lua_function("Card.GetSpecialSummonInfo")
def card_get_special_summon_info(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return tuple(c.get_special_summon_info(_u32(args.int(i))) for i in range(2, args.count + 1))


# ----- where it goes, ids, turn counter ----------------------------------------------------------

@lua_function("Card.GetDestination")
def card_get_destination(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u8(args.card(1).sendto_param.location)


@lua_function("Card.GetLeaveFieldDest")
def card_get_leave_field_dest(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _i32(args.card(1).leave_field_redirect(REASON_EFFECT))


@lua_function("Card.GetTurnID")
def card_get_turn_id(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).turnid


@lua_function("Card.GetFieldID")
def card_get_field_id(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).fieldid


@lua_function("Card.GetRealFieldID")
def card_get_real_field_id(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).fieldid_r


@lua_function("Card.SetTurnCounter")
def card_set_turn_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.count_turn(_u16(args.int(2)))
    return NO_VALUES


@lua_function("Card.GetTurnCounter")
def card_get_turn_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _u16(args.card(1).turn_counter)
