"""The Duel library, second half: hints, prompts, announcements, coins and dice, player and chain
checks, activity counters (reference: libduel.cpp, duel_hint ... duel_majestic_copy).

Hint, GetLastSelectHint, HintSelection; the prompts SelectEffectYesNo,
SelectYesNo, SelectOption, SelectSequence, SelectPosition, SelectDisableField,
SelectField; AnnounceRace/Attribute/Level/Card/Type/Number/Coin; TossCoin,
TossDice, RockPaperScissors and the coin/dice results; IsPlayerAffectedByEffect
and every IsPlayerCan*; IsChainSolving/Negatable/Disablable/Disabled,
CheckChainTarget, CheckChainUniqueness; GetActivityCount, CheckPhaseActivity,
the custom activity counters, GetBattledCount; IsAbleToEnterBP,
SwapDeckAndGrave, MajesticCopy.  Groups, selections of cards, targets,
materials and operation info are in lib_duel_select.py, whose conventions
this file shares.

A prompt is queued as the reference's unit with its arguments packed and
narrowed exactly as the reference's ``add_process`` arguments are read back
(e.g. SelectPosition's player is the low byte of ``player + (positions << 16)``).
The functions the reference guards with ``check_action_permission`` but
registry.ACTION_CHECKED does not list are registered with ``checks_action=True``.
"""

from __future__ import annotations

from typing import Any

from ..engine.constants import (
    EFFECT_CANNOT_FLIP_SUMMON, EFFECT_CANNOT_MSET, EFFECT_CANNOT_RELEASE, EFFECT_CANNOT_REMOVE,
    EFFECT_CANNOT_SSET, EFFECT_CANNOT_SUMMON, EFFECT_CANNOT_TO_DECK, EFFECT_CANNOT_TO_GRAVE,
    EFFECT_CANNOT_TO_HAND, HINT_SELECTMSG, PLAYER_NONE, POS_FACEUP, REASON_COST, REASON_EFFECT,
)
from ..engine.core_constants import MAX_COIN_COUNT
from ..engine.messages import MsgHint
from ..engine.card_stats import setcode_list
from .args import Args
from .errors import LuaArgError
from .registry import LuaContext, NoValue, Yield, lua_function
from ..engine.wire import i32 as _i32

NO_VALUES = NoValue


def _u8(v: int) -> int:
    return v & 0xFF


def _player_ok(p: int) -> bool:
    return p == 0 or p == 1


def _ivalue(ctx: LuaContext) -> Any:
    """The continuation that gives the unit's answer, returns.ivalue[0], as an integer."""
    duel = ctx.duel
    return lambda: duel.returns.ivalue[0]


# =========================================================================================
# hints
# =========================================================================================

@lua_function("Duel.Hint")
def duel_hint(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    htype = args.int32(1)
    playerid = args.int32(2)
    if not _player_ok(playerid):
        return NO_VALUES
    desc = args.int32(3)
    ctx.duel.hint(htype, playerid, desc)
    return NO_VALUES


@lua_function("Duel.GetLastSelectHint")
def duel_get_last_select_hint(ctx: LuaContext, args: Args) -> Any:
    playerid = _u8(ctx.reason_player)
    if args.count >= 1:
        playerid = _u8(args.int(1))
    if not _player_ok(playerid):
        return NO_VALUES
    return ctx.duel.core.last_select_hint[playerid]


@lua_function("Duel.HintSelection")
def duel_hint_selection(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pgroup = args.group(1)
    ctx.duel.hint_selection(pgroup.container)
    return NO_VALUES


# =========================================================================================
# yes/no, options, positions, zones
# =========================================================================================

@lua_function("Duel.SelectEffectYesNo", checks_action=True)
def duel_select_effect_yesno(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard = args.card(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    desc = args.int32(3) if args.count >= 3 else 95
    duel = ctx.duel
    duel.add_process(duel.proc_select_effect_yes_no(playerid, desc & 0xFFFFFFFF, pcard))
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Duel.SelectYesNo", checks_action=True)
def duel_select_yesno(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    desc = args.int32(2)
    duel = ctx.duel
    duel.add_process(duel.proc_select_yes_no(playerid, desc & 0xFFFFFFFF))
    return Yield(lambda: bool(duel.returns.ivalue[0]))


def _option_prompt(ctx: LuaContext, playerid: int, options: list[int]) -> Yield:
    """Queue PROCESSOR_SELECT_OPTION over ``options``; the script gets the chosen index after
    the HINT_OPSELECTED naming the option."""
    duel = ctx.duel
    duel.core.select_options[:] = options
    duel.add_process(duel.proc_select_option(_u8(playerid)))
    return Yield(lambda: duel.hint_option_selected(playerid))


@lua_function("Duel.SelectOption", checks_action=True)
def duel_select_option(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    return _option_prompt(ctx, playerid, [args.uint32(i + 2) for i in range(args.count - 1)])


@lua_function("Duel.SelectSequence", checks_action=True)
def duel_select_sequence(ctx: LuaContext, args: Args) -> Any:
    # the reference does nothing else
    return NO_VALUES


@lua_function("Duel.SelectPosition", checks_action=True)
def duel_select_position(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    pcard = args.card(2)
    playerid = args.int32(1)
    positions = args.uint32(3)
    duel = ctx.duel
    # PROCESSOR_SELECT_POSITION reads player and positions back from player + (positions << 16)
    arg1 = (playerid + (positions << 16)) & 0xFFFFFFFF
    duel.add_process(duel.proc_select_position(arg1 & 0xFF, pcard.data.code, (arg1 >> 16) & 0xFF))
    return Yield(_ivalue(ctx))


@lua_function("Duel.SelectDisableField", checks_action=True)
def duel_select_disable_field(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    count = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    filter_ = args.uint32(5)
    duel = ctx.duel
    flag, ct = duel.get_disable_field_flag(playerid, count, location1, location2, filter_)
    if ct == 0:
        return NO_VALUES
    duel.add_process(duel.proc_select_disfield(playerid, flag, _u8(ct)))
    # the reference reads the answers for the count the script asked for, not the capped one
    return Yield(lambda: duel.get_selected_field_flag(playerid, count))


@lua_function("Duel.SelectField", checks_action=True)
def duel_select_field(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    count = args.uint32(2)
    location1 = args.uint32(3)
    location2 = args.uint32(4)
    filter_ = args.uint32(5)
    duel = ctx.duel
    place = False
    if args.count >= 6:
        place = True
        duel.emit(MsgHint(type=HINT_SELECTMSG, player=playerid, data=args.uint32(6)))
    flag = duel.get_select_field_flag(location1, location2, filter_)
    if place:
        duel.add_process(duel.proc_select_place(playerid, flag, _u8(count)))
    else:
        duel.add_process(duel.proc_select_disfield(playerid, flag, _u8(count)))
    return Yield(lambda: duel.get_selected_field_flag(playerid, count))


# =========================================================================================
# announcements
# =========================================================================================

def _announce_race_like(ctx: LuaContext, args: Args, unit_name: str) -> Any:
    args.need(3)
    playerid = args.int32(1)
    count = args.int32(2)
    available = args.int32(3)
    duel = ctx.duel
    # the unit reads player and count back from player + (count << 16)
    arg1 = (playerid + (count << 16)) & 0xFFFFFFFF
    duel.add_process(getattr(duel, unit_name)(arg1 & 0xFF, arg1 >> 16, available))
    return Yield(_ivalue(ctx))


@lua_function("Duel.AnnounceRace", checks_action=True)
def duel_announce_race(ctx: LuaContext, args: Args) -> Any:
    return _announce_race_like(ctx, args, "proc_announce_race")


@lua_function("Duel.AnnounceAttribute", checks_action=True)
def duel_announce_attribute(ctx: LuaContext, args: Args) -> Any:
    return _announce_race_like(ctx, args, "proc_announce_attribute")


def _number_result(ctx: LuaContext) -> Any:
    """What AnnounceLevel/AnnounceNumber give back: (the chosen value, its index)."""
    duel = ctx.duel

    def result() -> tuple[int, int]:
        idx = duel.returns.ivalue[0]
        return (duel.core.select_options[idx] & 0xFFFFFFFF, idx)
    return result


@lua_function("Duel.AnnounceLevel", checks_action=True)
def duel_announce_level(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    min_ = 1
    max_ = 12
    if args.count >= 2 and not args.is_nil(2):
        min_ = args.int32(2)
    if args.count >= 3 and not args.is_nil(3):
        max_ = args.int32(3)
    excluded = None
    if args.count > 3:
        excluded = [args.int(j) for j in range(4, args.count + 1) if not args.is_nil(j)]
    duel = ctx.duel
    if duel.set_announce_level_options(min_, max_, excluded) == 0:
        return NO_VALUES
    # PROCESSOR_ANNOUNCE_NUMBER with arg1 = player + 0x10000, read back as a byte
    duel.add_process(duel.proc_announce_number(_u8(playerid + 0x10000)))
    return Yield(_number_result(ctx))


@lua_function("Duel.AnnounceCard", checks_action=True)
def duel_announce_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    duel = ctx.duel
    opts = duel.core.select_options
    opts.clear()
    if args.count == 1:
        opts.append(1)
    else:
        opts.extend(args.uint32(i) for i in range(2, args.count + 1))
    if not duel.check_announce_card_options():
        raise LuaArgError("Parameters are invalid.")
    duel.add_process(duel.proc_announce_card(_u8(playerid)))
    return Yield(_ivalue(ctx))


@lua_function("Duel.AnnounceType", checks_action=True)
def duel_announce_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    return _option_prompt(ctx, playerid, [70, 71, 72])


@lua_function("Duel.AnnounceNumber", checks_action=True)
def duel_announce_number(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    duel = ctx.duel
    duel.core.select_options[:] = [args.uint32(i) for i in range(2, args.count + 1)]
    duel.add_process(duel.proc_announce_number(_u8(playerid)))
    return Yield(_number_result(ctx))


@lua_function("Duel.AnnounceCoin", checks_action=True)
def duel_announce_coin(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    return _option_prompt(ctx, playerid, [60, 61])


# =========================================================================================
# coins, dice, rock-paper-scissors
# =========================================================================================

@lua_function("Duel.TossCoin", checks_action=True)
def duel_toss_coin(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.int32(2)
    if not _player_ok(playerid) or count == 0 or count < -1:
        return NO_VALUES
    if count > MAX_COIN_COUNT:
        count = MAX_COIN_COUNT
    duel = ctx.duel
    core = duel.core
    duel.add_process(duel.proc_toss_coin(core.reason_effect, _u8(core.reason_player), playerid, count))
    return Yield(lambda: tuple(core.coin_result[:core.coin_count]))


@lua_function("Duel.TossDice", checks_action=True)
def duel_toss_dice(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count1 = args.int32(2)
    count2 = args.int32(3) if args.count > 2 else 0
    if not _player_ok(playerid) or count1 <= 0 or count2 < 0:
        return NO_VALUES
    asked = count1 + count2
    if count1 > 5:
        count1 = 5
    if count2 > 5 - count1:
        count2 = 5 - count1
    duel = ctx.duel
    core = duel.core
    duel.add_process(duel.proc_toss_dice(core.reason_effect, _u8(core.reason_player), playerid,
                                         count1, count2))

    def result() -> tuple:
        # the reference pushes as many results as the script asked for (the uncapped counts),
        # reading past dice_result[5] into the coin results that follow it in memory
        mem = list(core.dice_result[:5]) + list(core.coin_result[:MAX_COIN_COUNT])
        return tuple(mem[i] if i < len(mem) else 0 for i in range(asked))
    return Yield(result)


@lua_function("Duel.RockPaperScissors")
def duel_rock_paper_scissors(ctx: LuaContext, args: Args) -> Any:
    repeat = args.bool(1) if args.count > 0 else True
    duel = ctx.duel
    duel.add_process(duel.proc_rock_paper_scissors(repeat))
    return Yield(_ivalue(ctx))


@lua_function("Duel.GetCoinResult")
def duel_get_coin_result(ctx: LuaContext, args: Args) -> Any:
    core = ctx.duel.core
    return tuple(core.coin_result[:max(core.coin_count, 0)])


@lua_function("Duel.GetDiceResult")
def duel_get_dice_result(ctx: LuaContext, args: Args) -> Any:
    return tuple(ctx.duel.core.dice_result[:5])


@lua_function("Duel.SetCoinResult")
def duel_set_coin_result(ctx: LuaContext, args: Args) -> Any:
    core = ctx.duel.core
    for i in range(MAX_COIN_COUNT):
        res = args.int32(i + 1)
        if res != 0 and res != 1:
            res = 0
        core.coin_result[i] = res
    return NO_VALUES


@lua_function("Duel.SetDiceResult")
def duel_set_dice_result(ctx: LuaContext, args: Args) -> Any:
    core = ctx.duel.core
    for i in range(5):
        res = args.int32(i + 1)
        if res < 1 or res > 255:
            res = 1
        core.dice_result[i] = res
    return NO_VALUES


# =========================================================================================
# player checks
# =========================================================================================

@lua_function("Duel.IsPlayerAffectedByEffect")
def duel_is_player_affected_by_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return None
    code = args.int32(2)
    effects = tuple(e for e in ctx.duel.filter_player_effect(playerid, code & 0xFFFFFFFF)
                    if e.check_count_limit(playerid))
    return effects if effects else None


@lua_function("Duel.IsPlayerCanDraw")
def duel_is_player_can_draw(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return False
    count = args.uint32(2) if args.count > 1 else 0
    duel = ctx.duel
    if count == 0:
        return bool(duel.is_player_can_draw(playerid))
    return bool(duel.is_player_can_draw(playerid) and len(duel.player[playerid].list_main) >= count)


@lua_function("Duel.IsPlayerCanDiscardDeck")
def duel_is_player_can_discard_deck(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.int32(2)
    if not _player_ok(playerid):
        return False
    return bool(ctx.duel.is_player_can_discard_deck(playerid, count))


@lua_function("Duel.IsPlayerCanDiscardDeckAsCost")
def duel_is_player_can_discard_deck_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.int32(2)
    if not _player_ok(playerid):
        return False
    return bool(ctx.duel.is_player_can_discard_deck_as_cost(playerid, count))


def _player_arg(args: Args) -> int | None:
    """The checked player of an IsPlayerCan* function (None: answer false)."""
    args.need(1)
    playerid = args.int32(1)
    return playerid if _player_ok(playerid) else None


@lua_function("Duel.IsPlayerCanSummon")
def duel_is_player_can_summon(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_SUMMON))
    args.need(3)
    pcard = args.card(3)
    sumtype = args.int32(2)
    return bool(duel.is_player_can_summon(sumtype & 0xFFFFFFFF, playerid, pcard, playerid))


@lua_function("Duel.IsPlayerCanMSet")
def duel_is_player_can_mset(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_MSET))
    args.need(3)
    pcard = args.card(3)
    sumtype = args.int32(2)
    return bool(duel.is_player_can_mset(sumtype & 0xFFFFFFFF, playerid, pcard, playerid))


@lua_function("Duel.IsPlayerCanSSet")
def duel_is_player_can_sset(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_SSET))
    args.need(2)
    return bool(duel.is_player_can_sset(playerid, args.card(2)))


@lua_function("Duel.IsPlayerCanSpecialSummon")
def duel_is_player_can_spsummon(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_spsummon(playerid))
    args.need(5)
    pcard = args.card(5)
    sumtype = args.int32(2)
    sumpos = args.int32(3)
    toplayer = args.int32(4)
    return bool(duel.is_player_can_spsummon_card(ctx.reason_effect, sumtype & 0xFFFFFFFF, _u8(sumpos),
                                                 playerid, _u8(toplayer), pcard))


@lua_function("Duel.IsPlayerCanFlipSummon")
def duel_is_player_can_flipsummon(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_FLIP_SUMMON))
    args.need(2)
    return bool(duel.is_player_can_flipsummon(playerid, args.card(2)))


@lua_function("Duel.IsPlayerCanSpecialSummonMonster")
def duel_is_player_can_spsummon_monster(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return False
    code = args.int32(2) & 0xFFFFFFFF
    duel = ctx.duel
    dat = duel.prospective_card_data(code)
    n = args.count
    if n >= 3 and not args.is_nil(3):
        dat.setcode = setcode_list(args.int(3))
    if n >= 4 and not args.is_nil(4):
        dat.type = args.uint32(4)
    if n >= 5 and not args.is_nil(5):
        dat.attack = args.int32(5)
    if n >= 6 and not args.is_nil(6):
        dat.defense = args.int32(6)
    if n >= 7 and not args.is_nil(7):
        dat.level = args.uint32(7)
    if n >= 8 and not args.is_nil(8):
        dat.race = args.uint32(8)
    if n >= 9 and not args.is_nil(9):
        dat.attribute = args.uint32(9)
    pos = args.int32(10) if n >= 10 else POS_FACEUP
    toplayer = args.int32(11) if n >= 11 else playerid
    sumtype = args.uint32(12) if n >= 12 else 0
    return bool(duel.is_player_can_spsummon_monster(playerid, _u8(toplayer), _u8(pos), sumtype, dat))


@lua_function("Duel.IsPlayerCanSpecialSummonCount")
def duel_is_player_can_spsummon_count(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    count = args.int32(2)
    if not _player_ok(playerid):
        return False
    return bool(ctx.duel.is_player_can_spsummon_count(playerid, count & 0xFFFFFFFF))


@lua_function("Duel.IsPlayerCanRelease")
def duel_is_player_can_release(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_RELEASE))
    args.need(2)
    pcard = args.card(2)
    reason = args.uint32(3) if args.count >= 3 else REASON_COST
    return bool(duel.is_player_can_release(playerid, pcard, reason))


@lua_function("Duel.IsPlayerCanRemove")
def duel_is_player_can_remove(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_REMOVE))
    args.need(2)
    pcard = args.card(2)
    reason = args.uint32(3) if args.count >= 3 else REASON_EFFECT
    return bool(duel.is_player_can_remove(playerid, pcard, reason))


@lua_function("Duel.IsPlayerCanSendtoHand")
def duel_is_player_can_send_to_hand(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_TO_HAND))
    args.need(2)
    return bool(duel.is_player_can_send_to_hand(playerid, args.card(2)))


@lua_function("Duel.IsPlayerCanSendtoGrave")
def duel_is_player_can_send_to_grave(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_TO_GRAVE))
    args.need(2)
    return bool(duel.is_player_can_send_to_grave(playerid, args.card(2)))


@lua_function("Duel.IsPlayerCanSendtoDeck")
def duel_is_player_can_send_to_deck(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_TO_DECK))
    args.need(2)
    return bool(duel.is_player_can_send_to_deck(playerid, args.card(2)))


@lua_function("Duel.IsPlayerCanAdditionalSummon")
def duel_is_player_can_additional_summon(ctx: LuaContext, args: Args) -> Any:
    playerid = _player_arg(args)
    if playerid is None:
        return False
    return ctx.duel.core.extra_summon[playerid] == 0


# =========================================================================================
# chain checks
# =========================================================================================

@lua_function("Duel.IsChainSolving")
def duel_is_chain_solving(ctx: LuaContext, args: Args) -> Any:
    return bool(ctx.duel.core.chain_solving)


@lua_function("Duel.IsChainNegatable")
def duel_is_chain_negatable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return True


@lua_function("Duel.IsChainDisablable")
def duel_is_chain_disablable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    chaincount = args.int32(1)
    duel = ctx.duel
    if duel.core.chain_solving:
        return bool(duel.is_chain_disablable(_u8(chaincount)))
    return True


@lua_function("Duel.IsChainDisabled")
def duel_is_chain_disabled(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    chaincount = args.int32(1)
    duel = ctx.duel
    if duel.core.chain_solving:
        return bool(duel.is_chain_disabled(_u8(chaincount)))
    return False


@lua_function("Duel.CheckChainTarget")
def duel_check_chain_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard = args.card(2)
    chaincount = args.int32(1)
    return bool(ctx.duel.check_chain_target(_u8(chaincount), pcard))


@lua_function("Duel.CheckChainUniqueness")
def duel_check_chain_uniqueness(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.check_chain_uniqueness()


# =========================================================================================
# activity counters
# =========================================================================================

@lua_function("Duel.GetActivityCount")
def duel_get_activity_count(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    duel = ctx.duel
    return tuple(duel.get_activity_count(playerid, args.int32(i)) for i in range(2, args.count + 1))


@lua_function("Duel.CheckPhaseActivity")
def duel_check_phase_activity(ctx: LuaContext, args: Args) -> Any:
    return bool(ctx.duel.core.phase_action)


@lua_function("Duel.AddCustomActivityCounter")
def duel_add_custom_activity_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    counter_filter = args.function(3)
    counter_id = args.int32(1)
    activity_type = args.int32(2)
    ctx.duel.add_custom_activity_counter(counter_id, activity_type, counter_filter)
    return NO_VALUES


@lua_function("Duel.GetCustomActivityCount")
def duel_get_custom_activity_count(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    counter_id = args.int32(1)
    playerid = args.int32(2)
    activity_type = args.int32(3)
    return ctx.duel.get_custom_activity_count(counter_id, playerid, activity_type)


@lua_function("Duel.GetBattledCount")
def duel_get_battled_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    return ctx.duel.core.battled_count[playerid] & 0xFF


# =========================================================================================
# misc
# =========================================================================================

@lua_function("Duel.IsAbleToEnterBP")
def duel_is_able_to_enter_bp(ctx: LuaContext, args: Args) -> Any:
    return bool(ctx.duel.is_able_to_enter_bp())


@lua_function("Duel.SwapDeckAndGrave")
def duel_swap_deck_and_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if not _player_ok(playerid):
        return NO_VALUES
    ctx.duel.swap_deck_and_grave(playerid)
    return NO_VALUES


@lua_function("Duel.MajesticCopy")
def duel_majestic_copy(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    pcard = args.card(1)
    copy_target = args.card(2)
    ctx.duel.majestic_copy(pcard, copy_target)
    return NO_VALUES
