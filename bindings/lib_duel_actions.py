"""The Duel library, first half, the functions that change the duel (reference: libduel.cpp, lines 1-2540).

Moving cards (Destroy, Remove, SendtoGrave/Hand/Deck/ExtraP, Release,
MoveToField, ReturnToField, MoveSequence, SwapSequence), summons (Summon,
SpecialSummonRule, SynchroSummon, XyzSummon, LinkSummon, MSet, SSet,
CreateToken, SpecialSummon, SpecialSummonStep, SpecialSummonComplete),
counters, positions, LP, equips and control, events, chains, the battle,
shuffles, phases and adjusting.  The queries of the same part of libduel.cpp
are in lib_duel_state.py.

Every function is a mechanical translation of the reference's: the same
argument handling (which arguments are checked and in which order, optional
arguments and their defaults, ``lua_gettop`` branches), the same call into the
engine with the same reason/reason player defaults (``core.reason_effect``,
``core.reason_player``), the same return values (booleans stay booleans) and,
for the yielding ones, the same values once the engine has run.  Rule logic
the reference keeps inside the library function is a Duel method in the
engine file of its area (engine/duel.py lists them: a summon negation in
operations/summon.py, zone counts in field/zones.py, attacker changes in
processor/battle.py, ...).

Conventions (as in lib_card.py): ``_u32(args.int(i))`` is the reference's
``(uint32_t)lua_tointeger(L, i)`` (``args.uint32``), ``_i32`` its ``(int32_t)``
(``args.int32``); ``_u8``/``_u16`` are the truncations done when a value is
passed to a ``uint8_t``/``uint16_t`` parameter.  ``NO_VALUES`` is a C function
returning 0 values; ``None`` is one nil.  A "Card or Group" argument is passed
to the engine as the card or the group itself (the engine's adders work on a
group's own card set, like the reference's ``pgroup->container``).
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.constants import (
    EVENT_BREAK_EFFECT, LOCATION_DECK, LOCATION_EXTRA, LOCATION_FZONE, LOCATION_GRAVE,
    LOCATION_HAND, LOCATION_PZONE, LOCATION_REMOVED, LOCATION_SZONE, NO_FLIP_EFFECT, PLAYER_NONE,
    POS_FACEUP, REASON_TEMPORARY, SUMMON_TYPE_LINK, SUMMON_TYPE_SYNCHRO, SUMMON_TYPE_XYZ,
)
from ..engine.core_constants import RETURN_TEMP_REMOVE_TO_FIELD, SUMMON_IN_CHAIN, SUMMON_IN_IDLE
from ..engine.group import GTYPE_READ_ONLY, CardSet
from .args import Args
from .errors import LuaArgError
from .registry import LuaContext, NoValue, Yield, lua_function
from ..engine.wire import i32 as _i32, u32 as _u32

NO_VALUES = NoValue


def _u16(v: int) -> int:
    return v & 0xFFFF


def _u8(v: int) -> int:
    return v & 0xFF


def _number_i32(args: Args, i: int) -> int:
    """``(int32_t)lua_tonumber(L, i)``: an integer wraps; a float is truncated toward
    zero, and NaN or a float out of the int32 range gives INT32_MIN (x86's conversion,
    as the host reads script values)."""
    v = args.number(i)
    if type(v) is float:
        if not math.isfinite(v) or not (-2147483649.0 < v < 2147483648.0):
            return -2147483648
        return int(v)
    return _i32(v)


def _opt_reason_player(args: Args, i: int, duel: Any) -> int:
    """``reason_player`` argument ``i`` when given (``lua_gettop(L) >= i``), else the
    current reason player (both as the reference's uint32_t)."""
    if args.count >= i:
        return args.uint32(i)
    return _u32(duel.core.reason_player)


def _target_player(args: Args, i: int) -> int:
    """The "to whose hand/Deck" argument: nil or not 0/1 means PLAYER_NONE (the owner's)."""
    playerid = args.int32(i)
    if args.is_nil(i) or (playerid != 0 and playerid != 1):
        return PLAYER_NONE
    return playerid


def _read_only_copy(duel: Any, group: Any) -> Any:
    """``pduel->new_group(pgroup->container)`` marked read-only (a material limit)."""
    mg = duel.new_group(group.container)
    mg.is_readonly = GTYPE_READ_ONLY
    return mg


# =========================================================================================
# global flags, LP, effects registered to players
# =========================================================================================

@lua_function("Duel.EnableGlobalFlag")
def duel_enable_global_flag(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    ctx.duel.core.global_flag |= args.uint32(1)
    return NO_VALUES


@lua_function("Duel.SetLP")
def duel_set_lp(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    p = args.int32(1)
    lp = _number_i32(args, 2)
    if p != 0 and p != 1:
        return NO_VALUES
    ctx.duel.set_lp(p, lp)
    return NO_VALUES


@lua_function("Duel.RegisterEffect")
def duel_register_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    peffect.duel.add_effect(peffect, playerid)
    return NO_VALUES


@lua_function("Duel.RegisterFlagEffect")
def duel_register_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    code = args.int(2)
    reset = args.int32(3)
    flag = args.int(4) & 0xFFFFFFFFFFFFFFFF
    count = args.int32(5)
    lab = args.int(6) if args.count >= 6 else 0
    return ctx.duel.register_flag_effect(playerid, code, reset, flag, count, lab)


@lua_function("Duel.ResetFlagEffect")
def duel_reset_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    ctx.duel.reset_player_flag_effect(playerid, args.int(2))
    return NO_VALUES


@lua_function("Duel.SetFlagEffectLabel")
def duel_set_flag_effect_label(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    code = args.int(2)
    lab = args.int(3)
    eset = ctx.duel.get_player_flag_effects(playerid, code)
    if not eset:
        return False
    eset[0].label.clear()
    eset[0].label.append(lab)
    return True


# =========================================================================================
# moving cards
# =========================================================================================

@lua_function("Duel.Destroy", yields=True)
def duel_destroy(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    targets = args.card_or_group(1)
    duel = targets.duel
    reason = args.uint32(2)
    dest = args.uint32(3) if args.count >= 3 else LOCATION_GRAVE
    reason_player = _opt_reason_player(args, 4, duel)
    duel.destroy(targets, duel.core.reason_effect, reason, reason_player, PLAYER_NONE, dest, 0)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.Remove", yields=True)
def duel_remove(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    targets = args.card_or_group(1)
    duel = targets.duel
    pos = args.uint32(2)
    reason = args.uint32(3)
    reason_player = _opt_reason_player(args, 4, duel)
    duel.send_to(targets, duel.core.reason_effect, reason, reason_player, PLAYER_NONE,
                 LOCATION_REMOVED, 0, pos)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SendtoGrave", yields=True)
def duel_sendto_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    targets = args.card_or_group(1)
    duel = targets.duel
    reason = args.uint32(2)
    reason_player = _opt_reason_player(args, 3, duel)
    duel.send_to(targets, duel.core.reason_effect, reason, reason_player, PLAYER_NONE,
                 LOCATION_GRAVE, 0, POS_FACEUP)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SendtoHand", yields=True)
def duel_sendto_hand(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    targets = args.card_or_group(1)
    duel = targets.duel
    playerid = _target_player(args, 2)
    reason = args.uint32(3)
    reason_player = _opt_reason_player(args, 4, duel)
    duel.send_to(targets, duel.core.reason_effect, reason, reason_player, playerid,
                 LOCATION_HAND, 0, POS_FACEUP)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SendtoDeck", yields=True)
def duel_sendto_deck(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    targets = args.card_or_group(1)
    duel = targets.duel
    playerid = _target_player(args, 2)
    sequence = args.uint32(3)
    reason = args.uint32(4)
    reason_player = _opt_reason_player(args, 5, duel)
    send_activating = 1 if (args.count >= 6 and args.bool(6)) else 0
    duel.send_to(targets, duel.core.reason_effect, reason, reason_player, playerid,
                 LOCATION_DECK, sequence, POS_FACEUP, send_activating)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SendtoExtraP", yields=True)
def duel_sendto_extra(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    targets = args.card_or_group(1)
    duel = targets.duel
    playerid = _target_player(args, 2)
    reason = args.uint32(3)
    duel.send_to(targets, duel.core.reason_effect, reason, duel.core.reason_player, playerid,
                 LOCATION_EXTRA, 0, POS_FACEUP)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.Release", yields=True)
def duel_release(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    targets = args.card_or_group(1)
    duel = targets.duel
    reason = args.uint32(2)
    reason_player = _opt_reason_player(args, 3, duel)
    duel.release(targets, duel.core.reason_effect, reason, reason_player)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.MoveToField", yields=True)
def duel_move_to_field(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    pcard = args.card(1)
    move_player = args.uint32(2)
    playerid = args.int32(3)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    destination = args.uint32(4)
    positions = args.uint32(5)
    enable = args.bool(6)
    zone = args.uint32(7) if args.count > 6 else 0xFF
    if destination == LOCATION_FZONE:
        destination = LOCATION_SZONE
        zone = 0x1 << 5
    pzone = False
    if destination == LOCATION_PZONE:
        destination = LOCATION_SZONE
        pzone = True
    duel = pcard.duel
    pcard.enable_field_effect(False)
    duel.adjust_instant()
    duel.move_to_field(pcard, move_player, playerid, destination, positions, enable, 0, pzone, zone)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.ReturnToField", yields=True)
def duel_return_to_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pcard = args.card(1)
    if not (pcard.current.reason & REASON_TEMPORARY):
        return NO_VALUES
    pos = pcard.previous.position
    if args.count >= 2:
        pos = args.int32(2)
    zone = args.uint32(3) if args.count >= 3 else 0xFF
    duel = pcard.duel
    pcard.enable_field_effect(False)
    duel.adjust_instant()
    duel.refresh_location_info_instant()
    prev = pcard.previous
    duel.move_to_field(pcard, prev.controler, prev.controler, prev.location, _u32(pos), True,
                       RETURN_TEMP_REMOVE_TO_FIELD, prev.pzone, zone)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.MoveSequence")
def duel_move_sequence(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard = args.card(1)
    seq = args.int32(2)
    pcard.duel.move_sequence(pcard, seq)
    return NO_VALUES


@lua_function("Duel.SwapSequence")
def duel_swap_sequence(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard1 = args.card(1)
    pcard2 = args.card(2)
    pcard1.duel.swap_sequence(pcard1, pcard2)
    return NO_VALUES


# =========================================================================================
# summons
# =========================================================================================

def _queue_summon_rule(duel: Any, queue: Any) -> None:
    """The reference's "summon now, or after the current chain link" pattern: the engine's
    unit parks itself in core.summon_reserved when started with SUMMON_IN_CHAIN."""
    core = duel.core
    core.summon_cancelable = False
    if core.current_chain:
        queue(SUMMON_IN_CHAIN)
    else:
        queue(SUMMON_IN_IDLE)


@lua_function("Duel.Summon", yields=True)
def duel_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    if duel.core.effect_damage_step:
        return NO_VALUES
    ignore_count = 1 if args.bool(3) else 0
    peffect = None if args.is_nil(4) else args.effect(4)
    min_tribute = args.uint32(5) if args.count >= 5 else 0
    zone = args.uint32(6) if args.count >= 6 else 0x1F
    _queue_summon_rule(duel, lambda action: duel.summon(playerid, pcard, peffect, ignore_count,
                                                        min_tribute, zone, action))
    return Yield()


@lua_function("Duel.MSet", yields=True)
def duel_mset(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    if duel.core.effect_damage_step:
        return NO_VALUES
    ignore_count = 1 if args.bool(3) else 0
    peffect = None if args.is_nil(4) else args.effect(4)
    min_tribute = args.uint32(5) if args.count >= 5 else 0
    zone = args.uint32(6) if args.count >= 6 else 0x1F
    _queue_summon_rule(duel, lambda action: duel.mset(playerid, pcard, peffect, ignore_count,
                                                      min_tribute, zone, action))
    return Yield()


@lua_function("Duel.SpecialSummonRule", yields=True)
def duel_special_summon_rule(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    if duel.core.effect_damage_step:
        return NO_VALUES
    sumtype = args.uint32(3) if args.count >= 3 else 0
    _queue_summon_rule(duel, lambda action: duel.special_summon_rule(playerid, pcard, sumtype, action))
    return Yield()


@lua_function("Duel.SynchroSummon", yields=True)
def duel_synchro_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    core = duel.core
    if core.effect_damage_step:
        return NO_VALUES
    tuner = None if args.is_nil(3) else args.card(3)
    mg = None
    if args.count >= 4 and not args.is_nil(4):
        mg = _read_only_copy(duel, args.group(4))
    minc = args.int32(5) if args.count >= 5 else 0
    maxc = args.int32(6) if args.count >= 6 else 0
    core.limit_tuner = tuner
    core.limit_syn = mg
    core.limit_syn_minc = minc
    core.limit_syn_maxc = maxc
    _queue_summon_rule(duel, lambda action: duel.special_summon_rule(playerid, pcard, SUMMON_TYPE_SYNCHRO,
                                                                     action))
    return Yield()


@lua_function("Duel.XyzSummon", yields=True)
def duel_xyz_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    core = duel.core
    if core.effect_damage_step:
        return NO_VALUES
    materials = None if args.is_nil(3) else _read_only_copy(duel, args.group(3))
    minc = args.int32(4) if args.count >= 4 else 0
    maxc = args.int32(5) if args.count >= 5 else 0
    core.limit_xyz = materials
    core.limit_xyz_minc = minc
    core.limit_xyz_maxc = maxc
    _queue_summon_rule(duel, lambda action: duel.special_summon_rule(playerid, pcard, SUMMON_TYPE_XYZ,
                                                                     action))
    return Yield()


@lua_function("Duel.LinkSummon", yields=True)
def duel_link_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    args.card(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = args.card(2)
    duel = pcard.duel
    core = duel.core
    if core.effect_damage_step:
        return NO_VALUES
    materials = None if args.is_nil(3) else _read_only_copy(duel, args.group(3))
    lcard = None
    if args.count >= 4 and not args.is_nil(4):
        lcard = args.card(4)
    minc = args.int32(5) if args.count >= 5 else 0
    maxc = args.int32(6) if args.count >= 6 else 0
    core.limit_link = materials
    core.limit_link_card = lcard
    core.limit_link_minc = minc
    core.limit_link_maxc = maxc
    _queue_summon_rule(duel, lambda action: duel.special_summon_rule(playerid, pcard, SUMMON_TYPE_LINK,
                                                                     action))
    return Yield()


@lua_function("Duel.SSet", yields=True)
def duel_sset(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    toplayer = args.uint32(3) if args.count > 2 else playerid
    if toplayer != 0 and toplayer != 1:
        toplayer = playerid
    confirm = args.bool(4) if args.count > 3 else True
    target = args.card_or_group(2)
    duel = target.duel
    if args.is_card(2):
        pgroup = duel.new_group(target)
    else:
        pgroup = target
    duel.add_process(duel.proc_sset_g(playerid, toplayer, pgroup, 1 if confirm else 0,
                                      duel.core.reason_effect))
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.CreateToken")
def duel_create_token(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    code = args.int32(2)
    if playerid != 0 and playerid != 1:
        return False
    return ctx.duel.create_token(playerid, _u32(code))


@lua_function("Duel.SpecialSummon", yields=True)
def duel_special_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    targets = args.card_or_group(1)
    duel = targets.duel
    sumtype = args.uint32(2)
    sumplayer = args.uint32(3)
    playerid = args.int32(4)
    nocheck = 1 if args.bool(5) else 0
    nolimit = 1 if args.bool(6) else 0
    positions = args.uint32(7)
    zone = args.uint32(8) if args.count >= 8 else 0xFF
    duel.special_summon(targets, sumtype, sumplayer, playerid, nocheck, nolimit, positions, zone)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SpecialSummonStep", yields=True)
def duel_special_summon_step(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    pcard = args.card(1)
    duel = pcard.duel
    sumtype = args.uint32(2)
    sumplayer = args.uint32(3)
    playerid = args.int32(4)
    nocheck = 1 if args.bool(5) else 0
    nolimit = 1 if args.bool(6) else 0
    positions = args.uint32(7)
    zone = args.uint32(8) if args.count >= 8 else 0xFF
    duel.special_summon_step(pcard, sumtype, sumplayer, playerid, nocheck, nolimit, positions, zone)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.SpecialSummonComplete", yields=True)
def duel_special_summon_complete(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    duel.special_summon_complete(duel.core.reason_effect, duel.core.reason_player)
    return Yield(lambda: duel.returns.ivalue[0])


# =========================================================================================
# counters, positions
# =========================================================================================

@lua_function("Duel.RemoveCounter", yields=True)
def duel_remove_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    countertype = args.uint32(4)
    count = args.uint32(5)
    reason = args.uint32(6)
    duel = ctx.duel
    duel.remove_counter(reason, None, rplayer, s, o, countertype, count)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.ChangePosition", yields=True)
def duel_change_position(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    targets = args.card_or_group(1)
    duel = targets.duel
    au = args.uint32(2)
    ad = du = dd = au
    flag = 0
    top = args.count
    if top > 2:
        ad = args.uint32(3)
    if top > 3:
        du = args.uint32(4)
    if top > 4:
        dd = args.uint32(5)
    if top > 5 and args.bool(6):
        flag |= NO_FLIP_EFFECT
    cards = CardSet((targets,)) if args.is_card(1) else targets
    core = duel.core
    duel.change_position(cards, core.reason_effect, core.reason_player, au, ad, du, dd, flag, True)
    return Yield(lambda: duel.returns.ivalue[0])


# =========================================================================================
# activating, chain limits
# =========================================================================================

@lua_function("Duel.Activate")
def duel_activate(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    peffect = args.effect(1)
    duel = peffect.duel
    duel.add_process(duel.proc_activate_effect(peffect))
    return NO_VALUES


@lua_function("Duel.SetChainLimit")
def duel_set_chain_limit(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    f = args.function(1)
    core = ctx.duel.core
    core.chain_limit.append((f, core.reason_player))
    return NO_VALUES


@lua_function("Duel.SetChainLimitTillChainEnd")
def duel_set_chain_limit_p(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    f = args.function(1)
    core = ctx.duel.core
    core.chain_limit_p.append((f, core.reason_player))
    return NO_VALUES


# =========================================================================================
# showing and sorting cards
# =========================================================================================

@lua_function("Duel.ConfirmDecktop", yields=True)
def duel_confirm_decktop(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    ctx.duel.confirm_decktop(playerid, args.uint32(2))
    return Yield()


@lua_function("Duel.ConfirmExtratop", yields=True)
def duel_confirm_extratop(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    ctx.duel.confirm_extratop(playerid, args.uint32(2))
    return Yield()


@lua_function("Duel.ConfirmCards", yields=True)
def duel_confirm_cards(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    target = args.card_or_group(2)
    if not args.is_card(2) and len(target.container) == 0:
        return NO_VALUES
    skip_panel = args.bool(3) if args.count >= 3 else False
    cards = target if args.is_card(2) else target.container
    target.duel.confirm_cards(playerid, cards, skip_panel)
    return Yield()


@lua_function("Duel.SortDecktop", yields=True)
def duel_sort_decktop(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    sort_player = args.int32(1)
    target_player = args.int32(2)
    count = args.int32(3)
    if sort_player not in (0, 1) or target_player not in (0, 1):
        return NO_VALUES
    if count < 1:
        return NO_VALUES
    duel = ctx.duel
    duel.add_process(duel.proc_sort_deck(sort_player, target_player, count))
    return Yield()


# =========================================================================================
# events
# =========================================================================================

@lua_function("Duel.RaiseEvent", yields=True)
def duel_raise_event(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    target = args.card_or_group(1)
    duel = target.duel
    code = args.uint32(2)
    peffect = None if args.is_nil(3) else args.effect(3)
    r = args.uint32(4)
    rp = args.uint32(5)
    ep = args.uint32(6)
    ev = args.uint32(7)
    cards = target if args.is_card(1) else target.container
    duel.raise_event(cards, code, peffect, r, rp, ep, ev)
    duel.process_instant_event()
    return Yield()


@lua_function("Duel.RaiseSingleEvent", yields=True)
def duel_raise_single_event(ctx: LuaContext, args: Args) -> Any:
    args.need(7)
    pcard = args.card(1)
    code = args.uint32(2)
    peffect = None if args.is_nil(3) else args.effect(3)
    r = args.uint32(4)
    rp = args.uint32(5)
    ep = args.uint32(6)
    ev = args.uint32(7)
    duel = pcard.duel
    duel.raise_single_event(pcard, None, code, peffect, r, rp, ep, ev)
    duel.process_single_event()
    return Yield()


# =========================================================================================
# winning, drawing, LP
# =========================================================================================

@lua_function("Duel.Win")
def duel_win(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    reason = args.uint32(2)
    if playerid not in (0, 1, 2):
        return NO_VALUES
    ctx.duel.set_win(playerid, reason)
    return NO_VALUES


@lua_function("Duel.Draw", yields=True)
def duel_draw(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    count = args.int32(2)
    if count < 0:
        count = 0
    reason = args.uint32(3)
    duel = ctx.duel
    core = duel.core
    duel.draw(core.reason_effect, reason, core.reason_player, playerid, count)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.Damage", yields=True)
def duel_damage(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    amount = _number_i32(args, 2)
    if amount < 0:
        amount = 0
    reason = args.uint32(3)
    is_step = args.bool(4) if args.count >= 4 else False
    duel = ctx.duel
    core = duel.core
    duel.damage(core.reason_effect, reason, core.reason_player, None, playerid, amount, is_step)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.Recover", yields=True)
def duel_recover(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    amount = _number_i32(args, 2)
    if amount < 0:
        amount = 0
    reason = args.uint32(3)
    is_step = args.bool(4) if args.count >= 4 else False
    duel = ctx.duel
    core = duel.core
    duel.recover(core.reason_effect, reason, core.reason_player, playerid, amount, is_step)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.RDComplete", yields=True)
def duel_rd_complete(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.rd_complete()
    return Yield()


@lua_function("Duel.PayLPCost", yields=True)
def duel_pay_lp_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    cost = args.uint32(2)
    must_pay = args.bool(3) if args.count > 2 else False
    duel = ctx.duel
    duel.add_process(duel.proc_pay_lp_cost(playerid, cost, must_pay))
    return Yield()


# =========================================================================================
# equips and control
# =========================================================================================

@lua_function("Duel.Equip", yields=True)
def duel_equip(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    args.card(2)
    args.card(3)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    equip_card = args.card(2)
    target = args.card(3)
    up = args.bool(4) if args.count > 3 else True
    step = args.bool(5) if args.count > 4 else False
    duel = target.duel
    duel.equip(playerid, equip_card, target, up, step)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.EquipComplete", yields=True)
def duel_equip_complete(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.equip_complete()
    return Yield()


@lua_function("Duel.GetControl", yields=True)
def duel_get_control(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    targets = args.card_or_group(1)
    duel = targets.duel
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    reset_phase = 0
    reset_count = 0
    if args.count >= 3:
        reset_phase = args.int(3) & 0x3FF
        reset_count = args.int(4) & 0xFF
    zone = args.uint32(5) if args.count >= 5 else 0xFF
    core = duel.core
    duel.get_control(targets, core.reason_effect, core.reason_player, playerid, reset_phase,
                     reset_count, zone)
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.SwapControl", yields=True)
def duel_swap_control(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    if args.is_card(1) and args.is_card(2):
        targets1: Any = args.card(1)
        targets2: Any = args.card(2)
    elif args.is_group(1) and args.is_group(2):
        targets1 = args.group(1)
        targets2 = args.group(2)
    else:
        raise LuaArgError('Parameter 1 should be "Card" or "Group".')
    duel = targets1.duel
    reset_phase = 0
    reset_count = 0
    if args.count > 2:
        reset_phase = args.int(3) & 0x3FF
        reset_count = args.int(4) & 0xFF
    core = duel.core
    duel.swap_control(core.reason_effect, core.reason_player, targets1, targets2, reset_phase, reset_count)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


# =========================================================================================
# Deck and hand
# =========================================================================================

@lua_function("Duel.DiscardDeck", yields=True)
def duel_discard_deck(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    count = args.uint32(2)
    reason = args.uint32(3)
    duel = ctx.duel
    # PROCESSOR_DISCARD_DECK packs player and count into one word and unpacks them
    arg1 = _u32(playerid + (count << 16))
    duel.add_process(duel.proc_discard_deck(arg1 & 0xFF, arg1 >> 16, reason))
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.DiscardHand", yields=True)
def duel_discard_hand(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    if not args.is_nil(2):
        args.function(2)
    pexception = None
    pexgroup = None
    extra: tuple = ()
    if args.count >= 6:
        if args.is_card(6):
            pexception = args.card(6)
        elif args.is_group(6):
            pexgroup = args.group(6)
        extra = args.rest(7)
    duel = ctx.duel
    playerid = args.int32(1)
    min_ = args.uint32(3)
    max_ = args.uint32(4)
    reason = args.uint32(5)
    fn = None if args.is_nil(2) else args.function(2)
    pgroup = duel.new_group()
    duel.filter_matching_card(fn, extra, playerid, LOCATION_HAND, 0, pgroup, pexception, pexgroup)
    core = duel.core
    core.select_cards = list(pgroup.container)
    if not core.select_cards:
        return 0
    # PROCESSOR_DISCARD_HAND's selection reads min and max back from min + (max << 16)
    packed = _u32(min_ + (max_ << 16))
    duel.add_process(duel.proc_discard_hand(playerid, packed & 0xFF, (packed >> 16) & 0xFF, reason))
    return Yield(lambda: duel.returns.ivalue[0])


@lua_function("Duel.DisableShuffleCheck")
def duel_disable_shuffle_check(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.core.shuffle_check_disabled = args.bool(1) if args.count > 0 else True
    return NO_VALUES


@lua_function("Duel.DisableSelfDestroyCheck")
def duel_disable_self_destroy_check(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.core.selfdes_disabled = args.bool(1) if args.count > 0 else True
    return NO_VALUES


@lua_function("Duel.RevealSelectDeckSequence")
def duel_reveal_select_deck_sequence(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.core.select_deck_sequence_revealed = args.bool(1) if args.count > 0 else True
    return NO_VALUES


def _shuffle(ctx: LuaContext, args: Args, location: int) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    ctx.duel.shuffle(playerid, location)
    return NO_VALUES


@lua_function("Duel.ShuffleDeck")
def duel_shuffle_deck(ctx: LuaContext, args: Args) -> Any:
    return _shuffle(ctx, args, LOCATION_DECK)


@lua_function("Duel.ShuffleExtra")
def duel_shuffle_extra(ctx: LuaContext, args: Args) -> Any:
    return _shuffle(ctx, args, LOCATION_EXTRA)


@lua_function("Duel.ShuffleHand")
def duel_shuffle_hand(ctx: LuaContext, args: Args) -> Any:
    return _shuffle(ctx, args, LOCATION_HAND)


@lua_function("Duel.ShuffleSetCard")
def duel_shuffle_setcard(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    pgroup.duel.shuffle_setcard(pgroup.container)
    return NO_VALUES


# =========================================================================================
# the battle
# =========================================================================================

@lua_function("Duel.ChangeAttacker")
def duel_change_attacker(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    attacker = args.card(1)
    ignore_count = args.bool(2) if args.count >= 2 else False
    attacker.duel.change_attacker(attacker, ignore_count)
    return NO_VALUES


@lua_function("Duel.ChangeAttackTarget")
def duel_change_attack_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    if args.is_nil(1):
        target = None
        duel = ctx.duel
    else:
        target = args.card(1)
        duel = target.duel
    return duel.change_attack_target(target)


@lua_function("Duel.CalculateDamage", yields=True)
def duel_calculate_damage(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    attacker = args.card(1)
    attack_target = None if args.is_nil(2) else args.card(2)
    new_attack = args.bool(3) if args.count >= 3 else False
    if attacker is attack_target:
        return NO_VALUES
    duel = attacker.duel
    duel.add_process(duel.proc_damage_step(attacker, attack_target, new_attack))
    return Yield()


@lua_function("Duel.ChangeBattleDamage")
def duel_change_battle_damage(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    dam = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    check = args.bool(3) if args.count >= 3 else True
    core = ctx.duel.core
    if check and core.battle_damage[playerid] == 0:
        return NO_VALUES
    core.battle_damage[playerid] = dam
    return NO_VALUES


@lua_function("Duel.NegateAttack", yields=True)
def duel_negate_attack(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    duel.add_process(duel.proc_attack_disable())
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.ChainAttack")
def duel_chain_attack(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    if not duel.start_chain_attack():
        return NO_VALUES
    if args.count > 0:
        duel.core.chain_attack_target = args.card(1)
    return NO_VALUES


# =========================================================================================
# chains
# =========================================================================================

@lua_function("Duel.ChangeTargetCard")
def duel_change_target_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pgroup = args.group(2)
    count = args.uint32(1)
    ctx.duel.change_target(_u8(count), pgroup)
    return NO_VALUES


@lua_function("Duel.ChangeTargetPlayer")
def duel_change_target_player(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    count = args.uint32(1)
    playerid = args.int32(2)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    ctx.duel.change_target_player(_u8(count), playerid)
    return NO_VALUES


@lua_function("Duel.ChangeTargetParam")
def duel_change_target_param(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    count = args.uint32(1)
    param = args.uint32(2)
    ctx.duel.change_target_param(_u8(count), _i32(param))
    return NO_VALUES


@lua_function("Duel.BreakEffect", yields=True)
def duel_break_effect(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    duel.break_effect()
    duel.raise_event(None, EVENT_BREAK_EFFECT, None, 0, PLAYER_NONE, PLAYER_NONE, 0)
    duel.process_instant_event()
    return Yield()


@lua_function("Duel.ChangeChainOperation")
def duel_change_chain_operation(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    f = args.function(2)
    count = args.uint32(1)
    ctx.duel.change_chain_effect(_u8(count), f)
    return NO_VALUES


@lua_function("Duel.NegateActivation")
def duel_negate_activation(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.uint32(1)
    return bool(ctx.duel.negate_chain(_u8(c)))


@lua_function("Duel.NegateEffect")
def duel_negate_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.uint32(1)
    forced = args.bool(2) if args.count > 1 else False
    return bool(ctx.duel.disable_chain(_u8(c), forced))


@lua_function("Duel.NegateRelatedChain")
def duel_negate_related_chain(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard = args.card(1)
    reset_flag = args.uint32(2)
    pcard.duel.negate_related_chain(pcard, reset_flag)
    return NO_VALUES


@lua_function("Duel.NegateSummon")
def duel_negate_summon(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    target = args.card_or_group(1)
    target.duel.negate_summon(target)
    return NO_VALUES


@lua_function("Duel.IncreaseSummonedCount")
def duel_increase_summoned_count(ctx: LuaContext, args: Args) -> Any:
    pcard = args.card(1) if args.count > 0 else None
    ctx.duel.increase_summon_count(pcard)
    return NO_VALUES


# =========================================================================================
# phases, adjusting
# =========================================================================================

@lua_function("Duel.SkipPhase")
def duel_skip_phase(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    phase = args.uint32(2)
    reset = args.uint32(3)
    count = args.int32(4)
    value = args.int32(5)
    ctx.duel.skip_phase(playerid, phase, reset, count, value)
    return NO_VALUES


@lua_function("Duel.Readjust", yields=True)
def duel_readjust(ctx: LuaContext, args: Args) -> Any:
    if ctx.duel.readjust():
        return Yield()
    return NO_VALUES


@lua_function("Duel.AdjustInstantly")
def duel_adjust_instantly(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    if args.count > 0:
        args.card(1).filter_disable_related_cards()
    duel.adjust_instant()
    return NO_VALUES


@lua_function("Duel.AdjustAll", yields=True)
def duel_adjust_all(ctx: LuaContext, args: Args) -> Any:
    ctx.duel.adjust_all()
    return Yield()
