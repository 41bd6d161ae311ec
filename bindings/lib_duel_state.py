"""The Duel library, first half, the queries (reference: libduel.cpp, lines 1-2540).

LP, turn and phase, flag effects of players, counters, events and timings,
the environment (Field Spells), LP costs, battle damage and the monsters in
battle, summon counts, free zones (GetLocationCount, GetMZoneCount,
GetSZoneCount, GetLocationCountFromEx, GetUsableMZoneCount), linked zones,
field cards and the current chain (GetChainInfo, GetChainEvent,
GetFirstTarget, ...).  Nothing here changes the duel, except what the
reference's own queries change (none of these yields).  The actions of the
same part of libduel.cpp are in lib_duel_actions.py, with the conventions
shared by both files.
"""

from __future__ import annotations

from typing import Any

from ..engine.constants import (
    EFFECT_CANNOT_PLACE_COUNTER, EFFECT_CHAIN_MATERIAL, LOCATION_ONFIELD, LOCATION_REASON_TOFIELD,
    PHASE_BATTLE, PHASE_BATTLE_START, PHASE_MAIN1, PHASE_MAIN2, PLAYER_ALL, PLAYER_NONE,
    STATUS_SPSUMMON_STEP, STATUS_SUMMONING,
)
from .args import Args
from .registry import LuaContext, NoValue, lua_function
from ..engine.wire import u32 as _u32

NO_VALUES = NoValue


def _u16(v: int) -> int:
    return v & 0xFFFF


def _u8(v: int) -> int:
    return v & 0xFF


# =========================================================================================
# LP, turn, phases
# =========================================================================================

@lua_function("Duel.GetLP")
def duel_get_lp(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    p = args.int32(1)
    if p != 0 and p != 1:
        return NO_VALUES
    return ctx.duel.player[p].lp


@lua_function("Duel.IsTurnPlayer")
def duel_is_turn_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    return ctx.duel.infos.turn_player == playerid


@lua_function("Duel.GetTurnPlayer")
def duel_get_turn_player(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.infos.turn_player


@lua_function("Duel.GetTurnCount")
def duel_get_turn_count(ctx: LuaContext, args: Args) -> Any:
    infos = ctx.duel.infos
    if args.count > 0:
        playerid = args.int32(1)
        if playerid != 0 and playerid != 1:
            return NO_VALUES
        return infos.turn_id_by_player[playerid]
    return infos.turn_id


@lua_function("Duel.GetDrawCount")
def duel_get_draw_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    return ctx.duel.get_draw_count(playerid)


@lua_function("Duel.IsPhase")
def duel_is_phase(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return ctx.duel.infos.phase == args.uint32(1)


@lua_function("Duel.IsMainPhase")
def duel_is_main_phase(ctx: LuaContext, args: Args) -> Any:
    phase = ctx.duel.infos.phase & 0xFFFF
    return phase == PHASE_MAIN1 or phase == PHASE_MAIN2


@lua_function("Duel.IsBattlePhase")
def duel_is_battle_phase(ctx: LuaContext, args: Args) -> Any:
    phase = ctx.duel.infos.phase & 0xFFFF
    return PHASE_BATTLE_START <= phase <= PHASE_BATTLE


@lua_function("Duel.GetCurrentPhase")
def duel_get_current_phase(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.infos.phase


@lua_function("Duel.IsDamageCalculated")
def duel_is_damage_calculated(ctx: LuaContext, args: Args) -> Any:
    return bool(ctx.duel.core.damage_calculated)


# =========================================================================================
# flag effects of players
# =========================================================================================

@lua_function("Duel.GetFlagEffect")
def duel_get_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    return len(ctx.duel.get_player_flag_effects(playerid, args.int(2)))


@lua_function("Duel.GetFlagEffectLabel")
def duel_get_flag_effect_label(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    eset = ctx.duel.get_player_flag_effects(playerid, args.int(2))
    if not eset:
        return None
    return tuple(peffect.label[0] if peffect.label else 0 for peffect in eset)


# =========================================================================================
# operated cards, counters
# =========================================================================================

@lua_function("Duel.GetOperatedGroup")
def duel_get_operated_group(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    return duel.new_group(duel.core.operated_set)


@lua_function("Duel.IsCanAddCounter")
def duel_is_can_add_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return False
    duel = ctx.duel
    if args.count == 1:
        return bool(duel.is_player_can_action(playerid, EFFECT_CANNOT_PLACE_COUNTER))
    args.need(4)
    countertype = args.int32(2)
    count = args.int32(3)
    pcard = args.card(4)
    return bool(duel.is_player_can_place_counter(playerid, pcard, _u16(countertype), _u16(count)))


@lua_function("Duel.IsCanRemoveCounter")
def duel_is_can_remove_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    countertype = args.uint32(4)
    count = args.uint32(5)
    reason = args.uint32(6)
    return bool(ctx.duel.is_player_can_remove_counter(rplayer, None, _u8(s), _u8(o), _u16(countertype),
                                                      _u16(count), reason))


@lua_function("Duel.GetCounter")
def duel_get_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    countertype = args.uint32(4)
    return _u32(ctx.duel.get_field_counter(playerid, _u8(s), _u8(o), _u16(countertype)))


# =========================================================================================
# events, timings, environment
# =========================================================================================

@lua_function("Duel.GetChainMaterial")
def duel_get_chain_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    eset = ctx.duel.filter_player_effect(playerid, EFFECT_CHAIN_MATERIAL)
    if not eset:
        return NO_VALUES
    return eset[0]


@lua_function("Duel.CheckEvent")
def duel_check_event(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    ev = args.int32(1)
    get_info = args.bool(2)
    pe = ctx.duel.check_event(_u32(ev))
    if not get_info:
        return pe is not None
    if pe is None:
        return False
    return (True, pe.event_cards, pe.event_player, _u32(pe.event_value), pe.reason_effect,
            _u32(pe.reason), pe.reason_player)


@lua_function("Duel.CheckTiming")
def duel_check_timing(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    tm = args.int32(1)
    ht = ctx.duel.core.hint_timing
    return bool((ht[0] & tm) or (ht[1] & tm))


@lua_function("Duel.IsEnvironment")
def duel_is_environment(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    code = args.uint32(1)
    playerid = args.int32(2) if args.count >= 2 else PLAYER_ALL
    loc = args.uint32(3) if args.count >= 3 else LOCATION_ONFIELD
    if playerid != 0 and playerid != 1 and playerid != PLAYER_ALL:
        return NO_VALUES
    return ctx.duel.is_environment(code, playerid, loc)


@lua_function("Duel.CheckLPCost")
def duel_check_lp_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    cost = args.int32(2)
    if cost <= 0:
        return False
    must_pay = args.bool(3) if args.count > 2 else False
    return bool(ctx.duel.check_lp_cost(playerid, cost, must_pay))


# =========================================================================================
# the battle
# =========================================================================================

@lua_function("Duel.GetBattleDamage")
def duel_get_battle_damage(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    return ctx.duel.core.battle_damage[playerid]


@lua_function("Duel.GetAttacker")
def duel_get_attacker(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.core.attacker


@lua_function("Duel.GetAttackTarget")
def duel_get_attack_target(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.core.attack_target


@lua_function("Duel.GetBattleMonster")
def duel_get_battle_monster(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    # check_param(PARAM_TYPE_INT) accepts anything in the reference
    return ctx.duel.get_battle_monsters(args.int32(1))


@lua_function("Duel.CheckSummonedCount")
def duel_check_summoned_count(ctx: LuaContext, args: Args) -> Any:
    pcard = args.card(1) if args.count > 0 else None
    return ctx.duel.check_summon_count(pcard)


# =========================================================================================
# zones
# =========================================================================================

@lua_function("Duel.GetLocationCount")
def duel_get_location_count(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    playerid = args.int32(1)
    location = args.uint32(2)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    duel = ctx.duel
    uplayer = _u32(duel.core.reason_player)
    reason = LOCATION_REASON_TOFIELD
    if args.count >= 3 and not args.is_nil(3):
        uplayer = args.uint32(3)
    if args.count >= 4:
        reason = args.uint32(4)
    zone = args.uint32(5) if args.count >= 5 else 0xFF
    flag = [0]
    count = duel.get_useable_count(None, playerid, _u8(location), _u8(uplayer), reason, zone, flag)
    return count, _u32(flag[0])


def _leaving_cards(args: Args, i: int) -> tuple[Any, Any, bool]:
    """The optional "as if this card / these cards had left" argument ``i``:
    (card, group, given).  Given but neither a card nor a group is an error."""
    if args.count >= i and not args.is_nil(i):
        target = args.card_or_group(i)
        if args.is_card(i):
            return target, None, True
        return None, target, True
    return None, None, False


def _uplayer_reason_zone(args: Args, duel: Any) -> tuple[int, int, int]:
    """Arguments 3-5 of GetMZoneCount / GetSZoneCount (given means used, even nil)."""
    uplayer = _u32(duel.core.reason_player)
    reason = LOCATION_REASON_TOFIELD
    zone = 0xFF
    if args.count >= 3:
        uplayer = args.uint32(3)
    if args.count >= 4:
        reason = args.uint32(4)
    if args.count >= 5:
        zone = args.uint32(5)
    return uplayer, reason, zone


@lua_function("Duel.GetMZoneCount")
def duel_get_mzone_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    duel = ctx.duel
    mcard, mgroup, hide = _leaving_cards(args, 2)
    uplayer, reason, zone = _uplayer_reason_zone(args, duel)
    flag = [0]
    count = duel.get_mzone_count(playerid, mcard, mgroup, _u8(uplayer), reason, zone, hide, flag)
    return count, _u32(flag[0])


@lua_function("Duel.GetSZoneCount")
def duel_get_szone_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    duel = ctx.duel
    mcard, mgroup, hide = _leaving_cards(args, 2)
    uplayer, reason, zone = _uplayer_reason_zone(args, duel)
    flag = [0]
    count = duel.get_szone_count(playerid, mcard, mgroup, _u8(uplayer), reason, zone, hide, flag)
    return count, _u32(flag[0])


@lua_function("Duel.GetLocationCountFromEx")
def duel_get_location_count_fromex(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    duel = ctx.duel
    uplayer = _u32(duel.core.reason_player)
    if args.count >= 2 and not args.is_nil(2):
        uplayer = args.uint32(2)
    mcard, mgroup, hide = _leaving_cards(args, 3)
    scard = None
    stype = None
    if args.count >= 4 and not args.is_nil(4):
        if args.is_card(4):
            scard = args.card(4)
        else:
            stype = args.uint32(4)
    zone = args.uint32(5) if args.count >= 5 else 0xFF
    flag = [0]
    count = duel.get_location_count_fromex(playerid, _u8(uplayer), mcard, mgroup, hide, scard, stype,
                                           zone, flag)
    return count, _u32(flag[0])


@lua_function("Duel.GetUsableMZoneCount")
def duel_get_usable_mzone_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    duel = ctx.duel
    uplayer = args.uint32(2) if args.count >= 2 else _u32(duel.core.reason_player)
    return duel.get_usable_mzone_count(playerid, uplayer)


@lua_function("Duel.GetLinkedGroup")
def duel_get_linked_group(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    duel = ctx.duel
    return duel.new_group(duel.get_linked_cards(rplayer, _u8(s), _u8(o)))


@lua_function("Duel.GetLinkedGroupCount")
def duel_get_linked_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    rplayer = args.uint32(1)
    if rplayer != 0 and rplayer != 1:
        return NO_VALUES
    s = args.uint32(2)
    o = args.uint32(3)
    return len(ctx.duel.get_linked_cards(rplayer, _u8(s), _u8(o)))


@lua_function("Duel.GetLinkedZone")
def duel_get_linked_zone(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    playerid = args.int32(1)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    return _u32(ctx.duel.get_linked_zone(playerid))


@lua_function("Duel.GetFieldCard")
def duel_get_field_card(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    location = args.uint32(2)
    sequence = args.uint32(3)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    pcard = ctx.duel.get_field_card(playerid, location, _u8(sequence))
    if pcard is None or pcard.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP):
        return NO_VALUES
    return pcard


@lua_function("Duel.CheckLocation")
def duel_check_location(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    playerid = args.int32(1)
    location = args.uint32(2)
    sequence = args.uint32(3)
    if playerid != 0 and playerid != 1:
        return NO_VALUES
    return bool(ctx.duel.is_location_useable(playerid, location, _u8(sequence)))


# =========================================================================================
# the chain
# =========================================================================================

@lua_function("Duel.GetCurrentChain")
def duel_get_current_chain(ctx: LuaContext, args: Args) -> Any:
    return len(ctx.duel.core.current_chain)


@lua_function("Duel.GetReadyChain")
def duel_get_ready_chain(ctx: LuaContext, args: Args) -> Any:
    core = ctx.duel.core
    size = len(core.current_chain)
    if size and not core.is_target_ready:
        size -= 1
    return size


@lua_function("Duel.GetChainInfo")
def duel_get_chain_info(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.uint32(1)
    nflags = args.count - 1
    duel = ctx.duel
    ch = duel.get_chain(c)
    if ch is None:
        return NO_VALUES
    return tuple(duel.chain_info(ch, args.uint32(2 + i)) for i in range(nflags))


@lua_function("Duel.GetChainEvent")
def duel_get_chain_event(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    count = args.uint32(1)
    ch = ctx.duel.get_chain(count)
    if ch is None:
        return NO_VALUES
    e = ch.evt
    return (e.event_cards, e.event_player, _u32(e.event_value), e.reason_effect, _u32(e.reason),
            e.reason_player)


@lua_function("Duel.GetFirstTarget")
def duel_get_first_target(ctx: LuaContext, args: Args) -> Any:
    ch = ctx.duel.get_chain(0)
    if ch is None or ch.target_cards is None or len(ch.target_cards.container) == 0:
        return NO_VALUES
    return tuple(ch.target_cards.container)


@lua_function("Duel.GetTargetsRelateToChain")
def duel_get_targets_relate_to_chain(ctx: LuaContext, args: Args) -> Any:
    return ctx.duel.get_targets_relate_to_chain()
