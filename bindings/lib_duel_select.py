"""The Duel library, second half: groups, selections, targets, materials, operation info, Xyz materials
(reference: libduel.cpp, duel_get_field_group ... duel_remove_overlay_card).

GetFieldGroup(Count), GetDecktopGroup, GetExtraTopGroup, GetMatchingGroup(Count),
GetFirstMatchingCard, IsExistingMatchingCard, SelectMatchingCard; the release
groups (GetReleaseGroup(Count), Check/SelectReleaseGroup(Ex)); tributes
(GetTributeGroup, GetTributeCount, CheckTribute, SelectTribute); targets
(GetTargetCount, IsExistingTarget, SelectTarget, SetTargetCard,
ClearTargetCard, SetTargetPlayer, SetTargetParam); materials (Get/CheckMust
Material, Fusion, Synchro, Tuner, Ritual and Xyz materials);
IsSummonCancelable; SetSelectedCard / GrabSelectedCard; operation info; Overlay
and the Xyz-material queries.  Hints, prompts, announcements, coins and dice,
player and chain checks and activity counters are in lib_duel_query.py.

Each function is a mechanical translation of the reference's: the same
argument checks in the same order, optional arguments and their defaults,
``lua_gettop`` branches, the same engine call, the same return values
(booleans stay booleans; ``NO_VALUES`` where the reference returns 0 values,
``None`` for one nil) and, for the yielding ones, the same values once the
engine has run.  The ``ex`` argument of the matching functions is a Card, a
Group or anything else (nil): checked without raising, as the reference's
``check_param(..., TRUE)``.  Rule logic the reference keeps in these
functions is a Duel method in the engine file of its area (material
selections in engine/operations/special_summon.py, zone flags in
engine/field/zones.py, hints and announce options in engine/processor/prompts.py).

Integer conventions: ``args.uint32(i)`` / ``args.int32(i)`` are the
reference's ``(uint32_t)`` / ``(int32_t)lua_tointeger(L, i)``; ``_u8`` and
``_u16`` are the truncations made when a value reaches a ``uint8_t`` /
``uint16_t`` parameter of the engine.
"""

from __future__ import annotations

from typing import Any

from ..engine.constants import LOCATION_HAND, LOCATION_MZONE, PLAYER_NONE, REASON_COST
from ..engine.group import GTYPE_READ_ONLY, CardSet, Group
from .args import Args
from .registry import LuaContext, NoValue, Yield, lua_function
from ..engine.wire import i32 as _i32

NO_VALUES = NoValue


def _u16(v: int) -> int:
    return v & 0xFFFF


def _u8(v: int) -> int:
    return v & 0xFF


def _filter(args: Args, i: int) -> Any:
    """A filter argument: nil (no filter) or a function ('Parameter i should be "Function".')."""
    if args.is_nil(i):
        return None
    return args.function(i)


def _exception(args: Args, i: int) -> tuple[Any, Group | None]:
    """The ``ex`` argument: (card, None), (None, group) or (None, None) for anything else."""
    if args.is_card(i):
        return args.card(i), None
    if args.is_group(i):
        return None, args.group(i)
    return None, None


def _player_ok(p: int) -> bool:
    return p == 0 or p == 1


def _selected_group(ctx: LuaContext) -> Group:
    """The cards a selection chose: core.select_cards at the answer's indexes, as a new group."""
    duel = ctx.duel
    b = duel.returns.bvalue
    sel = duel.core.select_cards
    return duel.new_group([sel[b[i + 1]] for i in range(b[0])])


# =========================================================================================
# field groups and matching cards
# =========================================================================================

@lua_function("Duel.GetFieldGroup")
def duel_get_field_group(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    location1 = args.uint32(2)
    location2 = args.uint32(3)
    pgroup = ctx.duel.new_group()
    ctx.duel.filter_field_card(_u8(playerid), location1, location2, pgroup)
    return pgroup


@lua_function("Duel.GetFieldGroupCount")
def duel_get_field_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    location1 = args.uint32(2)
    location2 = args.uint32(3)
    return len(ctx.duel.filter_field_card(_u8(playerid), location1, location2))


@lua_function("Duel.GetDecktopGroup")
def duel_get_decktop_group(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.uint32(2)
    # the reference indexes player[playerid] unchecked; other players have no Deck here
    cards = ctx.duel.get_decktop_group(playerid, count) if _player_ok(playerid) else ()
    return ctx.duel.new_group(cards)


@lua_function("Duel.GetExtraTopGroup")
def duel_get_extratop_group(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.uint32(2)
    cards = ctx.duel.get_extratop_group(playerid, count) if _player_ok(playerid) else ()
    return ctx.duel.new_group(cards)


def _matching_args(args: Args, findex: int, exindex: int) -> tuple[Any, Any, Group | None, tuple]:
    """The filter, exception card/group and extra arguments of a matching function (in the
    reference's order of checks: count, filter, exception)."""
    args.need(exindex)
    filter_fn = _filter(args, findex)
    pexception, pexgroup = _exception(args, exindex)
    return filter_fn, pexception, pexgroup, args.rest(exindex + 1)


@lua_function("Duel.GetMatchingGroup")
def duel_get_matching_group(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 5)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    pgroup = ctx.duel.new_group()
    ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, pgroup,
                                  pexception, pexgroup)
    return pgroup


@lua_function("Duel.GetMatchingGroupCount")
def duel_get_matching_count(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 5)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    pgroup = ctx.duel.new_group()
    ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, pgroup,
                                  pexception, pexgroup)
    return len(pgroup)


@lua_function("Duel.GetFirstMatchingCard")
def duel_get_first_matching_card(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 5)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    pret: list = []
    ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, None,
                                  pexception, pexgroup, pret)
    return pret[0] if pret else None


@lua_function("Duel.IsExistingMatchingCard")
def duel_is_existing_matching_card(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 6)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    fcount = args.uint32(5)
    return bool(ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2,
                                              None, pexception, pexgroup, None, _i32(fcount)))


@lua_function("Duel.SelectMatchingCard")
def duel_select_matching_cards(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 2, 8)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    self_player = args.uint32(3)
    location1 = args.uint32(4)
    location2 = args.uint32(5)
    min_ = args.uint32(6)
    max_ = args.uint32(7)
    duel = ctx.duel
    pgroup = duel.new_group()
    duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, pgroup,
                              pexception, pexgroup)
    duel.core.select_cards = list(pgroup.container)
    duel._select_card(playerid, 0, min_, max_)
    return Yield(lambda: _selected_group(ctx))


# =========================================================================================
# release groups
# =========================================================================================

def _release_reason_args(args: Args) -> tuple[bool, int]:
    """GetReleaseGroup(Count)'s optional (use_hand, reason)."""
    hand = args.bool(2) if args.count > 1 else False
    reason = args.uint32(3) if args.count >= 3 else REASON_COST
    return hand, reason


@lua_function("Duel.GetReleaseGroup")
def duel_get_release_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    hand, reason = _release_reason_args(args)
    pgroup = ctx.duel.new_group()
    cs = pgroup.container
    ctx.duel.get_release_list(playerid, cs, cs, cs, False, hand, None, (), None, None, reason)
    return pgroup


@lua_function("Duel.GetReleaseGroupCount")
def duel_get_release_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    hand, reason = _release_reason_args(args)
    return ctx.duel.get_release_list(playerid, None, None, None, False, hand, None, (), None, None, reason)


def _release_filter(args: Args) -> tuple[bool, Any]:
    """(use_con, filter) of the release-group functions: a non-nil argument 2 must be a function."""
    if args.is_nil(2):
        return False, None
    return True, args.function(2)


@lua_function("Duel.CheckReleaseGroup")
def duel_check_release_group(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    use_con, filter_fn = _release_filter(args)
    fcount = args.uint32(3)
    pexception, pexgroup = _exception(args, 4)
    extra = args.rest(5)
    duel = ctx.duel
    result = duel.check_release_list(playerid, _i32(fcount), use_con, False, filter_fn, extra,
                                     pexception, pexgroup, REASON_COST)
    duel.core.must_select_cards.clear()
    return bool(result)


def _select_release(ctx: LuaContext, playerid: int, use_con: bool, use_hand: bool, filter_fn: Any,
                    extra: tuple, pexception: Any, pexgroup: Group | None, reason: int,
                    min_: int, max_: int) -> Any:
    duel = ctx.duel
    core = duel.core
    core.release_cards.clear()
    core.release_cards_ex.clear()
    core.release_cards_ex_oneof.clear()
    duel.get_release_list(playerid, core.release_cards, core.release_cards_ex, core.release_cards_ex_oneof,
                          use_con, use_hand, filter_fn, extra, pexception, pexgroup, reason)
    duel.add_process(duel.proc_select_release_cards(playerid, 0, min_, max_))
    return Yield(lambda: _selected_group(ctx))


@lua_function("Duel.SelectReleaseGroup")
def duel_select_release_group(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    use_con, filter_fn = _release_filter(args)
    min_ = args.uint32(3)
    max_ = args.uint32(4)
    pexception, pexgroup = _exception(args, 5)
    extra = args.rest(6)
    return _select_release(ctx, playerid, use_con, False, filter_fn, extra, pexception, pexgroup,
                           REASON_COST, min_, max_)


@lua_function("Duel.CheckReleaseGroupEx")
def duel_check_release_group_ex(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    use_con, filter_fn = _release_filter(args)
    fcount = args.uint32(3)
    reason = args.uint32(4)
    use_hand = args.bool(5)
    pexception, pexgroup = _exception(args, 6)
    extra = args.rest(7)
    duel = ctx.duel
    result = duel.check_release_list(playerid, _i32(fcount), use_con, use_hand, filter_fn, extra,
                                     pexception, pexgroup, reason)
    duel.core.must_select_cards.clear()
    return bool(result)


@lua_function("Duel.SelectReleaseGroupEx")
def duel_select_release_group_ex(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    use_con, filter_fn = _release_filter(args)
    min_ = args.uint32(3)
    max_ = args.uint32(4)
    reason = args.uint32(5)
    use_hand = args.bool(6)
    pexception, pexgroup = _exception(args, 7)
    extra = args.rest(8)
    return _select_release(ctx, playerid, use_con, use_hand, filter_fn, extra, pexception, pexgroup,
                           reason, min_, max_)


# =========================================================================================
# tributes
# =========================================================================================

def _summon_zone_limits(ctx: LuaContext) -> tuple[int, int]:
    """(zone, releasable) for a Tribute Summon: the limits an extra summon set, else all."""
    core = ctx.duel.core
    zone = core.limit_extra_summon_zone or 0x1F
    releasable = core.limit_extra_summon_releasable or 0xFF00FF
    return zone, releasable


@lua_function("Duel.GetTributeGroup")
def duel_get_tribute_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    target = args.card(1)
    pgroup = ctx.duel.new_group()
    ctx.duel.get_summon_release_list(target, pgroup.container, pgroup.container, None)
    return pgroup


@lua_function("Duel.GetTributeCount")
def duel_get_tribute_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    target = args.card(1)
    mg = args.group(2) if args.count >= 2 and not args.is_nil(2) else None
    ex = args.bool(3) if args.count >= 3 else False
    return ctx.duel.get_summon_release_list(target, None, None, None, mg, ex)


@lua_function("Duel.CheckTribute")
def duel_check_tribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    target = args.card(1)
    min_ = args.uint32(2)
    max_ = min_
    if args.count >= 3 and not args.is_nil(3):
        max_ = args.uint32(3)
    mg = args.group(4) if args.count >= 4 and not args.is_nil(4) else None
    toplayer = target.current.controler
    if args.count >= 5 and not args.is_nil(5):
        toplayer = _u8(args.int(5))
    zone, releasable = _summon_zone_limits(ctx)
    if args.count >= 6 and not args.is_nil(6):
        zone = args.uint32(6)
    return bool(ctx.duel.check_tribute(target, _i32(min_), _i32(max_), mg, toplayer, zone, releasable))


@lua_function("Duel.SelectTribute")
def duel_select_tribute(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    target = args.card(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    min_ = args.uint32(3)
    max_ = args.uint32(4)
    mg = args.group(5) if args.count >= 5 and not args.is_nil(5) else None
    toplayer = playerid
    if args.count >= 6:
        toplayer = _u8(args.int(6))
    if not _player_ok(toplayer):
        return NO_VALUES
    ex = toplayer != playerid
    zone, releasable = _summon_zone_limits(ctx)
    duel = ctx.duel
    core = duel.core
    core.release_cards.clear()
    core.release_cards_ex.clear()
    core.release_cards_ex_oneof.clear()
    duel.get_summon_release_list(target, core.release_cards, core.release_cards_ex,
                                 core.release_cards_ex_oneof, mg, ex, releasable)
    duel.select_tribute_cards(None, playerid, 0, _i32(min_), _i32(max_), toplayer, zone)
    return Yield(lambda: _selected_group(ctx))


# =========================================================================================
# targets
# =========================================================================================

@lua_function("Duel.GetTargetCount")
def duel_get_target_count(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 5)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    pgroup = ctx.duel.new_group()
    ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, pgroup,
                                  pexception, pexgroup, None, 0, True)
    return len(pgroup)


@lua_function("Duel.IsExistingTarget")
def duel_is_existing_target(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 1, 6)
    self_player = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    count = args.uint32(5)
    return bool(ctx.duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2,
                                              None, pexception, pexgroup, None, _i32(count), True))


@lua_function("Duel.SelectTarget")
def duel_select_target(ctx: LuaContext, args: Args) -> Any:
    filter_fn, pexception, pexgroup, extra = _matching_args(args, 2, 8)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    self_player = args.uint32(3)
    location1 = args.uint32(4)
    location2 = args.uint32(5)
    min_ = args.uint32(6)
    max_ = args.uint32(7)
    duel = ctx.duel
    if not duel.core.current_chain:
        return NO_VALUES
    pgroup = duel.new_group()
    duel.filter_matching_card(filter_fn, extra, _u8(self_player), location1, location2, pgroup,
                              pexception, pexgroup, None, 0, True)
    duel.core.select_cards = list(pgroup.container)
    duel._select_card(playerid, 0, min_, max_)

    def result() -> Any:
        targets = duel.take_selected_targets()
        return NO_VALUES if targets is None else targets
    return Yield(result)


@lua_function("Duel.SetTargetCard")
def duel_set_target_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    targets = args.card_or_group(1)
    ctx.duel.set_target_card(targets)
    return NO_VALUES


@lua_function("Duel.ClearTargetCard")
def duel_clear_target_card(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.clear_target_card()
    return NO_VALUES


@lua_function("Duel.SetTargetPlayer")
def duel_set_target_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    ch = ctx.duel.get_chain(0)
    if ch is not None:
        ch.target_player = _u8(playerid)
    return NO_VALUES


@lua_function("Duel.SetTargetParam")
def duel_set_target_param(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    param = args.uint32(1)
    ch = ctx.duel.get_chain(0)
    if ch is not None:
        ch.target_param = param
    return NO_VALUES


# =========================================================================================
# operation info
# =========================================================================================

@lua_function("Duel.SetOperationInfo")
def duel_set_operation_info(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    ct = args.uint32(1)
    cate = args.uint32(2)
    count = args.uint32(4)
    playerid = args.int32(5)
    param = args.uint32(6)
    targets = args.card(3) if args.is_card(3) else args.group(3) if args.is_group(3) else None
    ctx.duel.set_operation_info(ct, cate, targets, count, playerid, param)
    return NO_VALUES


@lua_function("Duel.GetOperationInfo")
def duel_get_operation_info(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    ct = args.uint32(1)
    cate = args.uint32(2)
    ch = ctx.duel.get_chain(ct)
    if ch is None:
        return NO_VALUES
    opt = ch.opinfos.get(cate)
    if opt is None:
        return False
    return (True, opt.op_cards, opt.op_count, opt.op_player, opt.op_param)


@lua_function("Duel.GetOperationCount")
def duel_get_operation_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    ct = args.uint32(1)
    ch = ctx.duel.get_chain(ct)
    if ch is None:
        return NO_VALUES
    return len(ch.opinfos)


# the reference checks the action permission here (registry.ACTION_CHECKED lacks this name)
@lua_function("Duel.ClearOperationInfo", checks_action=True)
def duel_clear_operation_info(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    ct = args.uint32(1)
    ctx.duel.clear_operation_info(ct)
    return NO_VALUES


# =========================================================================================
# "must be material", Fusion, Synchro, Ritual
# =========================================================================================

@lua_function("Duel.GetMustMaterial")
def duel_get_must_material(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    limit = args.uint32(2)
    pgroup = ctx.duel.new_group()
    ctx.duel.get_must_material_list(playerid, limit, pgroup.container)
    return pgroup


@lua_function("Duel.CheckMustMaterial")
def duel_check_must_material(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    duel = ctx.duel
    pgroup: Group | None = None
    if args.is_card(2):
        pgroup = duel.new_group(args.card(2))
        pgroup.is_readonly = GTYPE_READ_ONLY
    elif args.is_group(2):
        pgroup = duel.new_group(args.group(2).container)
        pgroup.is_readonly = GTYPE_READ_ONLY
    limit = args.uint32(3)
    return bool(duel.check_must_material(pgroup, playerid, limit))


@lua_function("Duel.SelectFusionMaterial")
def duel_select_fusion_material(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    pcard = args.card(2)
    pgroup = args.group(3)
    cg = None
    chkf = PLAYER_NONE
    not_material = False
    if args.count > 3 and not args.is_nil(4):
        cg = args.card(4)
    if args.count > 4:
        chkf = args.uint32(5)
    if args.count > 5:
        not_material = args.bool(6)
    pcard.fusion_select(playerid, pgroup, cg, chkf, not_material)
    duel = ctx.duel
    return Yield(lambda: duel.get_selected_fusion_materials(cg))


@lua_function("Duel.SetFusionMaterial")
def duel_set_fusion_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    mats = ctx.duel.core.fusion_materials
    mats.clear()
    mats.update(pgroup.container)
    return NO_VALUES


@lua_function("Duel.SetSynchroMaterial")
def duel_set_synchro_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    mats = ctx.duel.core.synchro_materials
    mats.clear()
    mats.update(pgroup.container)
    return NO_VALUES


@lua_function("Duel.GetSynchroMaterial")
def duel_get_synchro_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    facedown = args.bool(2) if args.count >= 2 else False
    return ctx.duel.new_group(ctx.duel.get_synchro_material_group(playerid, facedown))


def _two_filters(args: Args, i: int) -> tuple[Any, Any]:
    return _filter(args, i), _filter(args, i + 1)


@lua_function("Duel.SelectSynchroMaterial")
def duel_select_synchro_material(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    pcard = args.card(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    filter1, filter2 = _two_filters(args, 3)
    min_ = args.int32(5)
    max_ = args.int32(6)
    smat = args.card(7) if args.count >= 7 and not args.is_nil(7) else None
    mg = args.group(8) if args.count >= 8 and not args.is_nil(8) else None
    out: list = []
    ctx.duel.select_synchro_material(playerid, pcard, filter1, filter2, min_, max_, smat, mg, out)
    # the unit hands the chosen group (nil when canceled) to the script; nothing without a Tuner
    return Yield(lambda: tuple(out))


@lua_function("Duel.CheckSynchroMaterial")
def duel_check_synchro_material(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    pcard = args.card(1)
    filter1, filter2 = _two_filters(args, 2)
    min_ = args.int32(4)
    max_ = args.int32(5)
    smat = args.card(6) if args.count >= 6 and not args.is_nil(6) else None
    mg = args.group(7) if args.count >= 7 and not args.is_nil(7) else None
    return bool(ctx.duel.check_synchro_material(pcard, filter1, filter2, min_, max_, smat, mg))


@lua_function("Duel.SelectTunerMaterial")
def duel_select_tuner_material(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    pcard = args.card(2)
    tuner = args.card(3)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    filter1, filter2 = _two_filters(args, 4)
    min_ = args.int32(6)
    max_ = args.int32(7)
    mg = args.group(8) if args.count >= 8 and not args.is_nil(8) else None
    out: list = []
    if not ctx.duel.select_tuner_material(playerid, pcard, tuner, filter1, filter2, min_, max_, mg, out):
        return NO_VALUES
    return Yield(lambda: tuple(out))


@lua_function("Duel.CheckTunerMaterial")
def duel_check_tuner_material(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    pcard = args.card(1)
    tuner = args.card(2)
    filter1, filter2 = _two_filters(args, 3)
    min_ = args.int32(5)
    max_ = args.int32(6)
    mg = args.group(7) if args.count >= 7 and not args.is_nil(7) else None
    return bool(ctx.duel.check_tuner_material(pcard, tuner, filter1, filter2, min_, max_, None, mg))


@lua_function("Duel.GetRitualMaterial")
def duel_get_ritual_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    pgroup = ctx.duel.new_group()
    ctx.duel.get_ritual_material(playerid, ctx.reason_effect, pgroup.container)
    return pgroup


@lua_function("Duel.GetRitualMaterialEx")
def duel_get_ritual_material_ex(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    pgroup = ctx.duel.new_group()
    ctx.duel.get_ritual_material(playerid, ctx.reason_effect, pgroup.container, True)
    return pgroup


@lua_function("Duel.ReleaseRitualMaterial")
def duel_release_ritual_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    ctx.duel.ritual_release(pgroup.container)
    return Yield()


@lua_function("Duel.GetFusionMaterial")
def duel_get_fusion_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    location = args.uint32(2) if args.count >= 2 else LOCATION_HAND + LOCATION_MZONE
    duel = ctx.duel
    pgroupall = duel.new_group()
    pgroupbase = duel.new_group()
    duel.get_fusion_material(playerid, pgroupall.container, pgroupbase.container, location)
    return (pgroupall, pgroupbase)


@lua_function("Duel.IsSummonCancelable")
def duel_is_summon_cancelable(ctx: LuaContext, args: Args) -> Any:
    return bool(ctx.duel.core.summon_cancelable)


@lua_function("Duel.SetSelectedCard")
def duel_set_must_select_cards(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    target = args.card_or_group(1)
    core = ctx.duel.core
    if isinstance(target, Group):
        core.must_select_cards = list(target.container)
    else:
        core.must_select_cards = [target]
    return NO_VALUES


@lua_function("Duel.GrabSelectedCard")
def duel_grab_must_select_cards(ctx: LuaContext, args: Args) -> Any:
    core = ctx.duel.core
    pgroup = ctx.duel.new_group(core.must_select_cards)
    core.must_select_cards = []
    return pgroup


# =========================================================================================
# Xyz materials
# =========================================================================================

@lua_function("Duel.CheckXyzMaterial")
def duel_check_xyz_material(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    scard = args.card(1)
    filter_fn = _filter(args, 2)
    lv = args.uint32(3)
    minc = args.uint32(4)
    maxc = args.uint32(5)
    mg = None if args.is_nil(6) else args.group(6)
    return bool(ctx.duel.check_xyz_material(scard, filter_fn, _i32(lv), _i32(minc), _i32(maxc), mg))


@lua_function("Duel.SelectXyzMaterial")
def duel_select_xyz_material(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    scard = args.card(2)
    filter_fn = _filter(args, 3)
    playerid = args.int32(1)
    lv = args.uint32(4)
    minc = args.uint32(5)
    maxc = args.uint32(6)
    mg = args.group(7) if args.count >= 7 and not args.is_nil(7) else None
    out: list = []
    if not ctx.duel.select_xyz_material(playerid, scard, filter_fn, lv, minc, maxc, mg, out):
        return NO_VALUES
    return Yield(lambda: tuple(out))


@lua_function("Duel.Overlay")
def duel_overlay(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    target = args.card(1)
    materials = args.card_or_group(2)
    if isinstance(materials, Group):
        target.xyz_overlay(materials.container)
    else:
        target.xyz_overlay(CardSet((materials,)))
    adjust = args.bool(3) if args.count > 2 else True
    if adjust:
        ctx.duel.adjust_all()
    return Yield()


@lua_function("Duel.GetOverlayGroup")
def duel_get_overlay_group(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    pgroup = ctx.duel.new_group()
    ctx.duel.get_overlay_group(rplayer, _u8(s), _u8(o), pgroup.container)
    return pgroup


@lua_function("Duel.GetOverlayCount")
def duel_get_overlay_count(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    return ctx.duel.get_overlay_count(rplayer, _u8(s), _u8(o))


@lua_function("Duel.CheckRemoveOverlayCard")
def duel_check_remove_overlay_card(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    count = args.int32(4)
    reason = args.int32(5)
    return bool(ctx.duel.is_player_can_remove_overlay_card(playerid, None, _u8(s), _u8(o), _u16(count),
                                                           reason & 0xFFFFFFFF))


@lua_function("Duel.RemoveOverlayCard")
def duel_remove_overlay_card(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    min_ = args.int32(4)
    max_ = args.int32(5)
    reason = args.int32(6)
    duel = ctx.duel
    # the unit reads player, s and o back from one word: (rplayer << 16) + (s << 8) + o
    packed = ((playerid << 16) + (s << 8) + o) & 0xFFFFFFFF
    duel.remove_overlay_card(reason & 0xFFFFFFFF, None, packed >> 16, (packed >> 8) & 0xFF, packed & 0xFF,
                             _u16(min_), _u16(max_))
    return Yield(lambda: duel.returns.ivalue[0])
