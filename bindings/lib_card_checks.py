"""The Card library, part 3: rule checks -- summoning, sending, banishing, Tributing,
attacking, control, materials, targeting, immunity (reference: libcard.cpp).

Most checks ask on behalf of the duel's current reason player
(``core.reason_player``), like the reference.  See lib_card.py for the conventions.
"""

from __future__ import annotations

from typing import Any

from ..engine.card_checks import MaterialInfo
from ..engine.constants import (
    EFFECT_CANNOT_USE_AS_COST, LOCATION_SZONE, PLAYER_NONE, POS_FACEUP, REASON_COST, REASON_EFFECT,
    SUMMON_TYPE_FUSION, SUMMON_TYPE_LINK, SUMMON_TYPE_SYNCHRO, SUMMON_TYPE_XYZ, TYPE_LINK,
    TYPE_SYNCHRO, TYPE_XYZ,
)
from .args import Args
from .lib_card import _i32, _u8, _u32
from .registry import LuaContext, lua_function


def _reason_player(c: Any) -> int:
    return c.duel.core.reason_player


# ----- summoning --------------------------------------------------------------------------------

@lua_function("Card.IsSummonableCard")
def card_is_summonable_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_summonable_card())


@lua_function("Card.IsSpecialSummonableCard")
def card_is_special_summonable_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_spsummonable_card())


@lua_function("Card.IsFusionSummonableCard")
def card_is_fusion_summonable_card(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    summon_type = 0
    if args.count > 1:
        summon_type = _u32(args.int(2))
    return bool(c.is_fusion_summonable_card(summon_type))


@lua_function("Card.IsSpecialSummonable")
def card_is_special_summonable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    sumtype = 0
    if args.count >= 2:
        sumtype = _u32(args.int(2))
    return bool(c.is_special_summonable(_u8(_reason_player(c)), sumtype))


def _min_max(args: Args, first: int) -> tuple[int, int]:
    """Optional (int32) min and max material counts at ``first`` and ``first + 1``."""
    minc = _i32(args.int(first)) if args.count >= first else 0
    maxc = _i32(args.int(first + 1)) if args.count >= first + 1 else 0
    return minc, maxc


@lua_function("Card.IsSynchroSummonable")
def card_is_synchro_summonable(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not (c.data.type & TYPE_SYNCHRO) or c.duel.core.effect_damage_step:
        return False
    tuner = None
    mg = None
    if not args.is_nil(2):
        tuner = args.card(2)
    if args.count >= 3 and not args.is_nil(3):
        mg = args.group(3)
    minc, maxc = _min_max(args, 4)
    info = MaterialInfo(limit_tuner=tuner, limit_syn=mg, limit_syn_minc=minc, limit_syn_maxc=maxc)
    return bool(c.is_special_summonable(_u8(_reason_player(c)), SUMMON_TYPE_SYNCHRO, info))


@lua_function("Card.IsXyzSummonable")
def card_is_xyz_summonable(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not (c.data.type & TYPE_XYZ) or c.duel.core.effect_damage_step:
        return False
    materials = None
    if not args.is_nil(2):
        materials = args.group(2)
    minc, maxc = _min_max(args, 3)
    info = MaterialInfo(limit_xyz=materials, limit_xyz_minc=minc, limit_xyz_maxc=maxc)
    return bool(c.is_special_summonable(_u8(_reason_player(c)), SUMMON_TYPE_XYZ, info))


@lua_function("Card.IsLinkSummonable")
def card_is_link_summonable(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not (c.data.type & TYPE_LINK) or c.duel.core.effect_damage_step:
        return False
    materials = None
    lcard = None
    if not args.is_nil(2):
        materials = args.group(2)
    if args.count >= 3 and not args.is_nil(3):
        lcard = args.card(3)
    minc, maxc = _min_max(args, 4)
    info = MaterialInfo(limit_link=materials, limit_link_card=lcard, limit_link_minc=minc,
                        limit_link_maxc=maxc)
    return bool(c.is_special_summonable(_u8(_reason_player(c)), SUMMON_TYPE_LINK, info))


def _summon_or_set_args(args: Args) -> tuple[int, Any, int, int]:
    """IsSummonable / IsMSetable: (ignore count, procedure effect or None, min tributes, zone)."""
    ign = int(args.bool(2))
    peffect = None
    if not args.is_nil(3):
        peffect = args.effect(3)
    minc = _u32(args.int(4)) if args.count >= 4 else 0
    zone = _u32(args.int(5)) if args.count >= 5 else 0x1F
    return ign, peffect, minc, zone


@lua_function("Card.IsSummonable")
def card_is_summonable(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    if c.duel.core.effect_damage_step:
        return False
    ign, peffect, minc, zone = _summon_or_set_args(args)
    return bool(c.is_can_be_summoned(_u8(_reason_player(c)), ign, peffect, _u8(minc), zone))


@lua_function("Card.IsMSetable")
def card_is_msetable(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    if c.duel.core.effect_damage_step:
        return False
    ign, peffect, minc, zone = _summon_or_set_args(args)
    return bool(c.is_setable_mzone(_u8(_reason_player(c)), ign, peffect, _u8(minc), zone))


@lua_function("Card.IsSSetable")
def card_is_ssetable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    ign = False
    if args.count >= 2:
        ign = args.bool(2)
    return bool(c.is_setable_szone(_u8(_reason_player(c)), int(ign)))


@lua_function("Card.IsCanBeSpecialSummoned")
def card_is_can_be_special_summoned(ctx: LuaContext, args: Args) -> Any:
    args.need(6)
    c = args.card(1)
    peffect = args.effect(2)
    sumtype = _u32(args.int(3))
    sumplayer = _u32(args.int(4))
    nocheck = int(args.bool(5))
    nolimit = int(args.bool(6))
    sumpos = POS_FACEUP
    toplayer = sumplayer
    zone = 0xFF
    if args.count >= 7:
        sumpos = _u32(args.int(7))
    if args.count >= 8:
        toplayer = _u32(args.int(8))
    if args.count >= 9:
        zone = _u32(args.int(9))
    return bool(c.is_can_be_special_summoned(peffect, sumtype, _u8(sumpos), _u8(sumplayer), _u8(toplayer),
                                             nocheck, nolimit, zone))


@lua_function("Card.IsCanBePlacedOnField")
def card_is_can_be_placed_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    toplayer = _reason_player(c)
    if args.count >= 2:
        toplayer = _u32(args.int(2))
    if toplayer not in (0, 1):
        return False
    tolocation = LOCATION_SZONE
    if args.count >= 3:
        tolocation = _u32(args.int(3))
    return c.is_can_be_placed_on_field(toplayer, tolocation)


@lua_function("Card.GetTributeRequirement")
def card_get_tribute_requirement(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    rcount = _i32(args.card(1).get_summon_tribute_count())
    return rcount & 0xFFFF, (rcount >> 16) & 0xFFFF


# ----- sending cards places --------------------------------------------------------------------

@lua_function("Card.IsAbleToHand")
def card_is_able_to_hand(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    p = _reason_player(c)
    if args.count >= 2:
        p = _u32(args.int(2))
    return bool(c.is_capable_send_to_hand(_u8(p)))


@lua_function("Card.IsAbleToDeck")
def card_is_able_to_deck(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_send_to_deck(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToExtra")
def card_is_able_to_extra(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_send_to_extra(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToGrave")
def card_is_able_to_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_send_to_grave(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToRemove")
def card_is_able_to_remove(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    p = _reason_player(c)
    if args.count >= 2:
        p = _u32(args.int(2))
    pos = POS_FACEUP
    if args.count >= 3:
        pos = _u8(args.int(3))
    reason = REASON_EFFECT
    if args.count >= 4:
        reason = _u32(args.int(4))
    return bool(c.is_removeable(_u8(p), pos, reason))


@lua_function("Card.IsAbleToHandAsCost")
def card_is_able_to_hand_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_cost_to_hand(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToDeckAsCost")
def card_is_able_to_deck_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_cost_to_deck(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToExtraAsCost")
def card_is_able_to_extra_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_cost_to_extra(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToDeckOrExtraAsCost")
def card_is_able_to_deck_or_extra_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    p = _u8(_reason_player(c))
    if c.is_extra_deck_monster():
        return bool(c.is_capable_cost_to_extra(p))
    return bool(c.is_capable_cost_to_deck(p))


@lua_function("Card.IsAbleToGraveAsCost")
def card_is_able_to_grave_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_cost_to_grave(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToRemoveAsCost")
def card_is_able_to_remove_as_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    pos = POS_FACEUP
    if args.count >= 2:
        pos = _u8(args.int(2))
    return bool(c.is_removeable_as_cost(_u8(_reason_player(c)), pos))


@lua_function("Card.IsReleasable")
def card_is_releasable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    reason = REASON_COST
    if args.count >= 2:
        reason = _u32(args.int(2))
    return bool(c.is_releasable_by_nonsummon(_u8(_reason_player(c)), reason))


@lua_function("Card.IsReleasableByEffect")
def card_is_releasable_by_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    p = _u8(_reason_player(c))
    re = c.duel.core.reason_effect
    return bool(c.is_releasable_by_nonsummon(p, REASON_EFFECT) and c.is_releasable_by_effect(p, re))


@lua_function("Card.IsDiscardable")
def card_is_discardable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    core = c.duel.core
    reason = REASON_COST
    if args.count > 1:
        reason = _u32(args.int(2))
    if reason == REASON_COST and c.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
        return False
    return bool(c.duel.is_player_can_discard_hand(_u8(core.reason_player), c, core.reason_effect, reason))


@lua_function("Card.IsDestructable")
def card_is_destructable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    peffect = None
    if args.count > 1:
        peffect = args.effect(2)
    if peffect is not None:
        return bool(c.is_destructable_by_effect(peffect, _u8(_reason_player(c))))
    return bool(c.is_destructable())


# ----- attacking --------------------------------------------------------------------------------

@lua_function("Card.IsAttackable")
def card_is_attackable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_capable_attack())


@lua_function("Card.IsChainAttackable")
def card_is_chain_attackable(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    ac = 2
    monsteronly = False
    if args.count > 1:
        ac = _i32(args.int(2))
    if args.count > 2:
        monsteronly = args.bool(3)
    return c.is_chain_attackable(ac, monsteronly)


@lua_function("Card.IsCanBeBattleTarget")
def card_is_can_be_battle_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    bcard = args.card(2)
    return bool(c.is_capable_be_battle_target(bcard))


# ----- positions and control ---------------------------------------------------------------------

@lua_function("Card.IsCanChangePosition")
def card_is_can_change_position(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_change_position_by_effect(_u8(_reason_player(c))))


@lua_function("Card.IsCanTurnSet")
def card_is_can_turn_set(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return bool(c.is_capable_turn_set(_u8(_reason_player(c))))


@lua_function("Card.IsAbleToChangeControler")
def card_is_able_to_change_controler(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.card(1).is_capable_change_control())


@lua_function("Card.IsControlerCanBeChanged")
def card_is_controler_can_be_changed(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    ign = False
    if args.count >= 2:
        ign = args.bool(2)
    zone = 0xFF
    if args.count >= 3:
        zone = _u32(args.int(3))
    return bool(c.is_control_can_be_changed(int(ign), zone))


# ----- materials --------------------------------------------------------------------------------

@lua_function("Card.IsCanOverlay")
def card_is_can_overlay(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    playerid = _u8(_reason_player(c))
    if args.count > 1 and not args.is_nil(2):
        playerid = _u8(args.int(2))
    return bool(c.is_capable_overlay(playerid))


@lua_function("Card.IsCanBeFusionMaterial")
def card_is_can_be_fusion_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    fcard = None
    if args.count >= 2 and not args.is_nil(2):
        fcard = args.card(2)
    summon_type = SUMMON_TYPE_FUSION
    if args.count >= 3:
        summon_type = _u32(args.int(3))
    return bool(c.is_can_be_fusion_material(fcard, summon_type))


@lua_function("Card.IsCanBeSynchroMaterial")
def card_is_can_be_synchro_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    scard = None
    tuner = None
    if args.count >= 2:
        scard = args.card(2)
    if args.count >= 3:
        tuner = args.card(3)
    return bool(c.is_can_be_synchro_material(scard, tuner))


def _optional_card(args: Args, i: int) -> Any:
    if args.count >= i and not args.is_nil(i):
        return args.card(i)
    return None


@lua_function("Card.IsCanBeRitualMaterial")
def card_is_can_be_ritual_material(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_can_be_ritual_material(_optional_card(args, 2)))


@lua_function("Card.IsCanBeXyzMaterial")
def card_is_can_be_xyz_material(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_can_be_xyz_material(_optional_card(args, 2)))


@lua_function("Card.IsCanBeLinkMaterial")
def card_is_can_be_link_material(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_can_be_link_material(_optional_card(args, 2)))


@lua_function("Card.CheckFusionMaterial")
def card_check_fusion_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    chkf = PLAYER_NONE
    pgroup = None
    if args.count > 1 and not args.is_nil(2):
        pgroup = args.group(2)
    cg = None
    if args.count > 2 and not args.is_nil(3):
        cg = args.card(3)
    if args.count > 3:
        chkf = _u32(args.int(4))
    not_material = False
    if args.count > 4:
        not_material = args.bool(5)
    return bool(c.fusion_check(pgroup, cg, chkf, int(not_material)))


@lua_function("Card.CheckFusionSubstitute")
def card_check_fusion_substitute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    fcard = args.card(2)
    return bool(c.check_fusion_substitute(fcard))


@lua_function("Card.IsNotTuner")
def card_is_not_tuner(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    scard = args.card(2)
    return bool(c.is_not_tuner(scard))


@lua_function("Card.IsTuner")
def card_is_tuner(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    scard = args.card(2)
    return bool(c.is_tuner(scard))


# ----- effects reaching the card ----------------------------------------------------------------

@lua_function("Card.IsImmuneToEffect")
def card_is_immune_to_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    peffect = args.effect(2)
    return not c.is_affect_by_effect(peffect)


@lua_function("Card.IsCanBeDisabledByEffect")
def card_is_can_be_disabled_by_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    peffect = args.effect(2)
    is_monster_effect = True
    if args.count > 2:
        is_monster_effect = args.bool(3)
    return bool(c.is_can_be_disabled_by_effect(peffect, is_monster_effect))


@lua_function("Card.IsCanBeEffectTarget")
def card_is_can_be_effect_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    core = c.duel.core
    peffect = core.reason_effect
    if args.count > 1:
        peffect = args.effect(2)
    return bool(c.is_capable_be_effect_target(peffect, _u8(core.reason_player)))

