"""The Card library, part 2: effects, flag effects, relations, statuses, counters,
materials, equips, Xyz materials, battle records, lasting targets (reference: libcard.cpp).

See lib_card.py for the conventions.
"""

from __future__ import annotations

from typing import Any

from ..engine.constants import (
    EFFECT_DUAL_STATUS, EVENT_FREE_CHAIN, LOCATION_ONFIELD, PLAYER_NONE, RESET_CODE,
    STATUS_DISABLED, STATUS_FORBIDDEN, STATUS_PROC_COMPLETE,
)
from ..engine.card_effects import flag_effect_code
from .args import Args
from .lib_card import NO_VALUES, _i32, _u8, _u16, _u32
from .registry import LuaContext, Yield, lua_function


# ----- registering and finding effects -------------------------------------------------------

@lua_function("Card.RegisterEffect")
def card_register_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    peffect = args.effect(2)
    forced = args.bool(3)
    result = c.register_effect(peffect, forced)
    return NO_VALUES if result is None else _i32(result)


@lua_function("Card.IsHasEffect")
def card_is_has_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    code = _u32(args.int(2))
    check_player = PLAYER_NONE
    if args.count >= 3:
        check_player = _i32(args.int(3))
        if check_player > PLAYER_NONE:
            check_player = PLAYER_NONE
    eset = c.get_has_effects(code, check_player)
    if not eset:
        return None
    return tuple(eset)


@lua_function("Card.ResetEffect")
def card_reset_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    code = _u32(args.int(2))
    reset_type = _u32(args.int(3))
    c.reset(code, reset_type)
    return NO_VALUES


@lua_function("Card.GetEffectCount")
def card_get_effect_count(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return len(c.filter_effect(_u32(args.int(2))))


@lua_function("Card.GetActivateEffect")
def card_get_activate_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return tuple(args.card(1).get_activate_effects())


@lua_function("Card.CheckActivateEffect")
def card_check_activate_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    c = args.card(1)
    neglect_con = args.bool(2)
    neglect_cost = args.bool(3)
    copy_info = args.bool(4)
    found = c.check_activate_effect(neglect_con, neglect_cost, copy_info)
    if found is None:
        return NO_VALUES
    peffect, ev = found
    if not copy_info or peffect.code == EVENT_FREE_CHAIN:
        return peffect
    return (peffect, ev.event_cards, _u8(ev.event_player), _u32(ev.event_value), ev.reason_effect,
            _u32(ev.reason), _u8(ev.reason_player))


@lua_function("Card.GetTunerLimit")
def card_get_tuner_limit(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    found = args.card(1).get_tuner_limit()
    return NO_VALUES if found is None else found


@lua_function("Card.GetHandSynchro")
def card_get_hand_synchro(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    found = args.card(1).get_hand_synchro()
    return NO_VALUES if found is None else found


@lua_function("Card.IsOriginalEffectProperty")
def card_is_original_effect_property(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    f = args.function(2)
    return bool(c.is_original_effect_property(f))


@lua_function("Card.IsEffectProperty")
def card_is_effect_property(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    f = args.function(2)
    return bool(c.is_effect_property(f))


@lua_function("Card.CopyEffect")
def card_copy_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    code = _u32(args.int(2))
    reset = _u32(args.int(3))
    count = _i32(args.int(4))
    return _i32(c.copy_effect_by_script(code, reset, count, replace=False))


@lua_function("Card.ReplaceEffect")
def card_replace_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    code = _u32(args.int(2))
    reset = _u32(args.int(3))
    count = _i32(args.int(4))
    return _i32(c.copy_effect_by_script(code, reset, count, replace=True))


@lua_function("Card.ResetNegateEffect")
def card_reset_negate_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    c.reset_negate_effect([_u32(args.int(i)) for i in range(2, args.count + 1)])
    return NO_VALUES


# ----- flag effects ---------------------------------------------------------------------------

@lua_function("Card.RegisterFlagEffect")
def card_register_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    c = args.card(1)
    code = flag_effect_code(args.int(2))
    reset = _i32(args.int(3))
    flag = args.int(4) & 0xFFFFFFFFFFFFFFFF
    count = _i32(args.int(5))
    label = 0
    desc = 0
    if args.count >= 6:
        label = args.int(6)
    if args.count >= 7:
        desc = _i32(args.int(7))
    return c.register_flag_effect(code, reset, flag, count, label, desc)


@lua_function("Card.GetFlagEffect")
def card_get_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.get_flag_effect(flag_effect_code(args.int(2)))


@lua_function("Card.ResetFlagEffect")
def card_reset_flag_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.reset(_u32(flag_effect_code(args.int(2))), RESET_CODE)
    return NO_VALUES


@lua_function("Card.SetFlagEffectLabel")
def card_set_flag_effect_label(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    code = flag_effect_code(args.int(2))
    return c.set_flag_effect_label(code, args.int(3))


@lua_function("Card.GetFlagEffectLabel")
def card_get_flag_effect_label(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    labels = c.get_flag_effect_labels(flag_effect_code(args.int(2)))
    if not labels:
        return None
    return tuple(labels)


# ----- relations ------------------------------------------------------------------------------

@lua_function("Card.CreateRelation")
def card_create_relation(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    rcard = args.card(2)
    c.create_relation(rcard, _u32(args.int(3)))
    return NO_VALUES


@lua_function("Card.ReleaseRelation")
def card_release_relation(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.release_relation(args.card(2))
    return NO_VALUES


@lua_function("Card.CreateEffectRelation")
def card_create_effect_relation(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.create_relation(args.effect(2))
    return NO_VALUES


@lua_function("Card.ReleaseEffectRelation")
def card_release_effect_relation(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.release_relation(args.effect(2))
    return NO_VALUES


@lua_function("Card.ClearEffectRelation")
def card_clear_effect_relation(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    args.card(1).clear_relate_effect()
    return NO_VALUES


@lua_function("Card.IsRelateToEffect")
def card_is_relate_to_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_has_relation(args.effect(2)))


@lua_function("Card.IsRelateToChain")
def card_is_relate_to_chain(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    chain_count = 0
    if args.count >= 2:
        chain_count = _u32(args.int(2))
    return c.is_relate_to_chain(chain_count)


@lua_function("Card.IsRelateToCard")
def card_is_relate_to_card(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_has_relation(args.card(2)))


@lua_function("Card.IsRelateToBattle")
def card_is_relate_to_battle(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_relate_to_battle()


# ----- statuses and procedures -------------------------------------------------------------------

def _is_status(c: Any, n: int) -> bool:
    """Card.IsStatus: has the card one of the status bits ``(uint32_t)n``?"""
    return bool(c.status & _u32(n))


@lua_function("Card.IsStatus", of_card_int=_is_status)
def card_is_status(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    return _is_status(args.card(1), args.int(2))


@lua_function("Card.SetStatus")
def card_set_status(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    c.set_status_by_script(_u32(args.int(2)), args.bool(3))
    return NO_VALUES


@lua_function("Card.IsDualState")
def card_is_dual_state(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_affected_by_effect(EFFECT_DUAL_STATUS) is not None


@lua_function("Card.EnableDualState")
def card_enable_dual_state(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    args.card(1).enable_dual_state()
    return NO_VALUES


@lua_function("Card.EnableReviveLimit")
def card_enable_revive_limit(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    args.card(1).enable_revive_limit()
    return NO_VALUES


@lua_function("Card.CompleteProcedure")
def card_complete_procedure(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    args.card(1).set_status(STATUS_PROC_COMPLETE, True)
    return NO_VALUES


@lua_function("Card.IsDisabled")
def card_is_disabled(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_status(STATUS_DISABLED)


@lua_function("Card.IsForbidden")
def card_is_forbidden(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_status(STATUS_FORBIDDEN)


@lua_function("Card.SetUniqueOnField")
def card_set_unique_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    c = args.card(1)
    s = _u8(args.int(2))
    o = _u8(args.int(3))
    unique_function = args.function(4) if args.is_function(4) else None
    unique_code = 0 if unique_function is not None else _u32(args.int(4))
    location = LOCATION_ONFIELD
    if args.count > 4:
        location = args.int(5) & LOCATION_ONFIELD
    c.set_unique_onfield(s, o, unique_code, unique_function, location)
    return NO_VALUES


@lua_function("Card.CheckUniqueOnField")
def card_check_unique_on_field(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    check_player = _u32(args.int(2))
    check_location = LOCATION_ONFIELD
    if args.count > 2:
        check_location = args.int(3) & LOCATION_ONFIELD
    icard = None
    if args.count > 3 and args.is_card(4):
        icard = args.card(4)
    return c.duel.check_unique_onfield(c, _u8(check_player), _u8(check_location), icard) is None


@lua_function("Card.SetSPSummonOnce")
def card_set_spsummon_once(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.set_spsummon_once(_u32(args.int(2)))
    return NO_VALUES


@lua_function("Card.AssumeProperty")
def card_assume_property(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    c.assume_property(_u8(args.int(2)), _u32(args.int(3)))
    return NO_VALUES


@lua_function("Card.AddMonsterAttribute")
def card_add_monster_attribute(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    type_ = _i32(args.int(2))
    attribute = _i32(args.int(3))
    race = _i32(args.int(4))
    level = _i32(args.int(5))
    atk = _i32(args.int(6))
    dfn = _i32(args.int(7))
    c.add_monster_attribute(type_, attribute, race, level, atk, dfn)
    return NO_VALUES


@lua_function("Card.CancelToGrave")
def card_cancel_to_grave(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    cancel = True
    if args.count > 1:
        cancel = args.bool(2)
    c.cancel_to_grave(cancel)
    return NO_VALUES


@lua_function("Card.SetHint")
def card_set_hint(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    c.set_hint(_u32(args.int(2)), _u32(args.int(3)))
    return NO_VALUES


@lua_function("Card.ReverseInDeck")
def card_reverse_in_deck(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    args.card(1).reverse_in_deck()
    return NO_VALUES


# ----- counters -------------------------------------------------------------------------------

@lua_function("Card.EnableCounterPermit")
def card_enable_counter_permit(ctx: LuaContext, args: Args) -> Any:
    # the reference does not check the card argument; a non-card is an error here
    args.need(2)
    c = args.card(1)
    countertype = _i32(args.int(2))
    prange = None
    if args.count > 2:
        prange = _u32(args.int(3))
    condition = None
    if args.count > 3 and args.is_function(4):
        condition = args.function(4)
    c.enable_counter_permit(countertype, prange, condition)
    return NO_VALUES


@lua_function("Card.SetCounterLimit")
def card_set_counter_limit(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    c.set_counter_limit(_i32(args.int(2)), _i32(args.int(3)))
    return NO_VALUES


@lua_function("Card.AddCounter")
def card_add_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    countertype = _u32(args.int(2))
    count = _u32(args.int(3))
    singly = False
    if args.count > 3:
        singly = args.bool(4)
    core = c.duel.core
    if c.is_affect_by_effect(core.reason_effect):
        return bool(c.add_counter(_u8(core.reason_player), _u16(countertype), _u16(count), singly))
    return False


@lua_function("Card.RemoveCounter")
def card_remove_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    c = args.card(1)
    rplayer = _u32(args.int(2))
    countertype = _u32(args.int(3))
    count = _u32(args.int(4))
    reason = _u32(args.int(5))
    if countertype == 0:
        # Every counter type at once, no processing (used by c38834303).  Deliberately
        # different from the reference at db4fd16, which returns a boolean here: as the
        # counters guide says, this form returns no Lua value (docs/counters.md).
        c.remove_all_counters()
        return NO_VALUES
    duel = c.duel
    duel.remove_counter(reason, c, rplayer, 0, 0, countertype, count)
    return Yield(lambda: bool(duel.returns.ivalue[0]))


@lua_function("Card.GetCounter")
def card_get_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return c.get_counter_count(_u32(args.int(2)))


@lua_function("Card.IsCanAddCounter")
def card_is_can_add_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    c = args.card(1)
    countertype = _u32(args.int(2))
    count = _u32(args.int(3))
    singly = False
    if args.count > 3:
        singly = args.bool(4)
    loc = 0
    if args.count > 4:
        loc = _u32(args.int(5))
    return bool(c.is_can_add_counter(_u8(c.duel.core.reason_player), _u16(countertype), _u16(count),
                                     singly, loc))


@lua_function("Card.IsCanRemoveCounter")
def card_is_can_remove_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    c = args.card(1)
    playerid = _i32(args.int(2))
    if playerid not in (0, 1):
        return NO_VALUES
    countertype = _u32(args.int(3))
    count = _u32(args.int(4))
    reason = _u32(args.int(5))
    return bool(c.duel.is_player_can_remove_counter(playerid, c, 0, 0, _u16(countertype), _u16(count),
                                                    reason))


@lua_function("Card.IsCanHaveCounter")
def card_is_can_have_counter(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return bool(c.is_can_have_counter(_u16(_u32(args.int(2)))))


# ----- materials ------------------------------------------------------------------------------

@lua_function("Card.SetMaterial")
def card_set_material(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    if not args.is_nil(2):
        c.set_material(args.group(2).container)
    else:
        c.set_material(None)
    return NO_VALUES


@lua_function("Card.GetMaterial")
def card_get_material(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.material_cards)


@lua_function("Card.GetMaterialCount")
def card_get_material_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).material_cards)


# ----- equips ---------------------------------------------------------------------------------

@lua_function("Card.GetEquipGroup")
def card_get_equip_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.equiping_cards)


@lua_function("Card.GetEquipCount")
def card_get_equip_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).equiping_cards)


@lua_function("Card.GetEquipTarget")
def card_get_equip_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).equiping_target


@lua_function("Card.GetPreviousEquipTarget")
def card_get_previous_equip_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).pre_equip_target


@lua_function("Card.CheckEquipTarget")
def card_check_equip_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    target = args.card(2)
    return c.check_equip_target(target)


@lua_function("Card.CheckUnionTarget")
def card_check_union_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    target = args.card(2)
    return c.check_union_target(target)


@lua_function("Card.GetUnionCount")
def card_get_union_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.get_union_count(), c.get_old_union_count()


# ----- Xyz materials --------------------------------------------------------------------------

@lua_function("Card.GetOverlayGroup")
def card_get_overlay_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.xyz_materials)


@lua_function("Card.GetOverlayCount")
def card_get_overlay_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).xyz_materials)


@lua_function("Card.GetOverlayTarget")
def card_get_overlay_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).overlay_target


@lua_function("Card.CheckRemoveOverlayCard")
def card_check_remove_overlay_card(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    c = args.card(1)
    playerid = _i32(args.int(2))
    if playerid not in (0, 1):
        return NO_VALUES
    count = _i32(args.int(3))
    reason = _i32(args.int(4))
    return bool(c.duel.is_player_can_remove_overlay_card(playerid, c, 0, 0, _u16(count), _u32(reason)))


@lua_function("Card.RemoveOverlayCard")
def card_remove_overlay_card(ctx: LuaContext, args: Args) -> Any:
    args.need(5)
    c = args.card(1)
    playerid = _i32(args.int(2))
    if playerid not in (0, 1):
        return NO_VALUES
    min_ = _i32(args.int(3))
    max_ = _i32(args.int(4))
    reason = _i32(args.int(5))
    duel = c.duel
    duel.remove_overlay_card(_u32(reason), c, playerid, 0, 0, min_, max_)
    return Yield(lambda: duel.returns.ivalue[0])


# ----- battle records ---------------------------------------------------------------------------

@lua_function("Card.GetAttackedGroup")
def card_get_attacked_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.get_attacked_cards())


@lua_function("Card.GetAttackedGroupCount")
def card_get_attacked_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).attacked_cards)


@lua_function("Card.GetAttackedCount")
def card_get_attacked_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).attacked_count


@lua_function("Card.GetBattledGroup")
def card_get_battled_group(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.get_battled_cards())


@lua_function("Card.GetBattledGroupCount")
def card_get_battled_group_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).battled_cards)


@lua_function("Card.GetAttackAnnouncedCount")
def card_get_attack_announced_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).attack_announce_count


@lua_function("Card.IsDirectAttacked")
def card_is_direct_attacked(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).is_direct_attacked()


@lua_function("Card.GetBattleTarget")
def card_get_battle_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.card(1).get_battle_target()


@lua_function("Card.GetAttackableTarget")
def card_get_attackable_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    targets, direct = c.get_attackable_targets()
    return c.duel.new_group(targets), direct


# ----- lasting targets ------------------------------------------------------------------------

@lua_function("Card.SetCardTarget")
def card_set_card_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.add_card_target(args.card(2))
    return NO_VALUES


@lua_function("Card.GetCardTarget")
def card_get_card_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.effect_target_cards)


@lua_function("Card.GetFirstCardTarget")
def card_get_first_card_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    if c.effect_target_cards:
        return c.effect_target_cards.first()
    return None


@lua_function("Card.GetCardTargetCount")
def card_get_card_target_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).effect_target_cards)


@lua_function("Card.IsHasCardTarget")
def card_is_has_card_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    return args.card(2) in c.effect_target_cards


@lua_function("Card.CancelCardTarget")
def card_cancel_card_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    c = args.card(1)
    c.cancel_card_target(args.card(2))
    return NO_VALUES


@lua_function("Card.GetOwnerTarget")
def card_get_owner_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    c = args.card(1)
    return c.duel.new_group(c.effect_target_owner)


@lua_function("Card.GetOwnerTargetCount")
def card_get_owner_target_count(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return len(args.card(1).effect_target_owner)
