"""Rule checks on a card (card_checks.py)."""

from __future__ import annotations

from duelhost.engine.card_checks import MaterialInfo
from duelhost.engine.constants import (
    EFFECT_CANNOT_BE_EFFECT_TARGET, EFFECT_CANNOT_BE_FUSION_MATERIAL, EFFECT_CANNOT_DISABLE_SUMMON,
    EFFECT_DECREASE_TRIBUTE, EFFECT_DEFENSE_ATTACK, EFFECT_FLAG_IGNORE_IMMUNE, EFFECT_FLAG_INITIAL,
    EFFECT_FLAG_SINGLE_RANGE, EFFECT_IMMUNE_EFFECT, EFFECT_INDESTRUCTABLE, EFFECT_INDESTRUCTABLE_COUNT,
    EFFECT_LEAVE_FIELD_REDIRECT, EFFECT_REVIVE_LIMIT, EFFECT_SPSUMMON_CONDITION, EFFECT_TYPE_FIELD,
    EFFECT_TYPE_SINGLE, EFFECT_UPDATE_ATTACK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    LOCATION_REMOVED, LOCATION_SZONE, POS_FACEDOWN, POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_ATTACK,
    POS_FACEUP_DEFENSE, REASON_EFFECT, STATUS_SUMMONING, SUMMON_TYPE_FUSION, SUMMON_TYPE_SPECIAL,
)

from test_card_support import make_duel, new_effect, place


def single(duel, card, code, value=0, **kw):
    e = new_effect(duel, card, type=EFFECT_TYPE_SINGLE, code=code, value=value, **kw)
    card.add_effect(e)
    return e


def test_summonable_card_types():
    duel, _ = make_duel()
    assert duel.new_card(1000).is_summonable_card()
    assert not duel.new_card(2000).is_summonable_card()     # a Spell
    assert not duel.new_card(4000).is_summonable_card()     # Extra Deck
    assert not duel.new_card(7000).is_summonable_card()     # Token


def test_tribute_count_and_decrease_effects_counted_once_per_code():
    duel, _ = make_duel()
    c = place(duel, 1001, 0, LOCATION_HAND)   # Level 7
    assert c.get_summon_tribute_count() == 2 | (2 << 16)
    single(duel, c, EFFECT_DECREASE_TRIBUTE, lambda e, card: (0x10001, 555))
    single(duel, c, EFFECT_DECREASE_TRIBUTE, lambda e, card: (0x10001, 555))
    assert c.get_summon_tribute_count() == 1 | (1 << 16)
    low = place(duel, 1000, 0, LOCATION_HAND)
    assert low.get_summon_tribute_count() == 0


def test_affect_by_effect_while_summoning_and_immunity():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    other = place(duel, 1001, 1, LOCATION_MZONE)
    e = new_effect(duel, other, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK)
    assert c.is_affect_by_effect(None)
    assert c.is_affect_by_effect(e)
    imm = single(duel, c, EFFECT_IMMUNE_EFFECT, lambda eff, re, card: re.owner is not eff.owner)
    c.filter_immune_effect()
    assert c.immune_effect == [imm]
    assert not c.is_affect_by_effect(e)
    e.flag[0] |= EFFECT_FLAG_IGNORE_IMMUNE
    assert c.is_affect_by_effect(e)
    c.set_status(STATUS_SUMMONING, True)
    assert not c.is_affect_by_effect(None)
    assert not c.is_affect_by_effect(e)
    e.code = EFFECT_CANNOT_DISABLE_SUMMON
    assert c.is_affect_by_effect(e)


def test_destructable_by_effect_passes_arguments_and_counts():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    src = place(duel, 1001, 1, LOCATION_MZONE)
    re = new_effect(duel, src, type=EFFECT_TYPE_SINGLE)
    assert c.is_destructable_by_effect(re, 1)
    cnt = single(duel, c, EFFECT_INDESTRUCTABLE_COUNT, lambda e, r, reason, p: 1)
    assert not c.is_destructable_by_effect(None, 1)
    fn, args = script.calls[-1]
    assert args == (cnt, None, REASON_EFFECT, 1)    # a missing reason effect is passed as nil
    assert c.indestructable_effects == {cnt.id: 0}
    c.indestructable_effects[cnt.id] = 1             # used up this turn
    assert c.is_destructable_by_effect(re, 1)
    single(duel, c, EFFECT_INDESTRUCTABLE, lambda e, r, reason, p: p == 1)
    assert not c.is_destructable_by_effect(re, 1)
    assert c.is_destructable_by_effect(re, 0)
    g = place(duel, 1000, 0, LOCATION_GRAVE)
    assert not g.is_destructable()


def test_send_to_hand_and_cost_to_grave_rules():
    duel, _ = make_duel()
    ex = place(duel, 8000, 0, LOCATION_EXTRA)
    assert not ex.is_capable_send_to_hand(0)
    m = place(duel, 1000, 0, LOCATION_MZONE)
    assert m.is_capable_send_to_hand(0)
    assert m.is_capable_cost_to_grave(0)
    single(duel, m, EFFECT_LEAVE_FIELD_REDIRECT, LOCATION_REMOVED)
    assert not m.is_capable_cost_to_grave(0)          # it would be banished instead
    assert m.sendto_param.location == 0               # restored after the check
    g = place(duel, 1000, 0, LOCATION_GRAVE)
    assert not g.is_capable_cost_to_grave(0)
    pend = place(duel, 6000, 0, LOCATION_MZONE, 1)
    assert not pend.is_capable_cost_to_grave(0)       # a Pendulum card on the field goes to the Extra Deck


def test_removeable_as_cost_face_down_with_redirect():
    duel, _ = make_duel()
    m = place(duel, 1000, 0, LOCATION_MZONE)
    assert m.is_removeable_as_cost(0, POS_FACEDOWN)
    single(duel, m, EFFECT_LEAVE_FIELD_REDIRECT, LOCATION_REMOVED)
    assert m.is_removeable_as_cost(0, POS_FACEUP)
    assert not m.is_removeable_as_cost(0, POS_FACEDOWN)
    t = place(duel, 7000, 0, LOCATION_MZONE, 1)
    assert not t.is_removeable(0, POS_FACEDOWN, REASON_EFFECT)


def test_attack_capability_by_position():
    duel, _ = make_duel()
    a = place(duel, 1000, 0, LOCATION_MZONE, 0, position=POS_FACEUP_ATTACK)
    d = place(duel, 1000, 0, LOCATION_MZONE, 1, position=POS_FACEUP_DEFENSE)
    assert a.is_capable_attack() and not d.is_capable_attack()
    single(duel, d, EFFECT_DEFENSE_ATTACK)
    assert d.is_capable_attack()
    assert not place(duel, 5000, 0, LOCATION_MZONE, 2).is_capable_change_position(0)


def test_effect_target_capability_and_arguments():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    src = place(duel, 1001, 1, LOCATION_MZONE)
    re = new_effect(duel, src, type=EFFECT_TYPE_SINGLE)
    assert c.is_capable_be_effect_target(re, 1)
    assert not place(duel, 1000, 0, LOCATION_HAND).is_capable_be_effect_target(re, 1)
    shield = single(duel, c, EFFECT_CANNOT_BE_EFFECT_TARGET, lambda e, r, p: p != e.handler.current.controler)
    assert not c.is_capable_be_effect_target(re, 1)
    assert script.calls[-1][1] == (shield, re, 1)
    assert c.is_capable_be_effect_target(re, 0)


def test_fusion_material_value_gets_nil_card():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = single(duel, c, EFFECT_CANNOT_BE_FUSION_MATERIAL, lambda eff, fc, st: fc is None)
    assert not c.is_can_be_fusion_material(None, SUMMON_TYPE_FUSION)
    assert script.calls[-1][1] == (e, None, SUMMON_TYPE_FUSION)
    f = place(duel, 8000, 0, LOCATION_EXTRA)
    assert c.is_can_be_fusion_material(f, SUMMON_TYPE_FUSION)


def test_spsummon_procedure_condition_arguments_and_reason_restored():
    duel, script = make_duel()
    c = place(duel, 8000, 0, LOCATION_EXTRA)
    tuner = place(duel, 1000, 0, LOCATION_MZONE)
    seen = []

    def cond(e, card, *rest):
        seen.append((duel.core.reason_effect is e, duel.core.reason_player, rest))
        return True

    proc = new_effect(duel, c, type=EFFECT_TYPE_FIELD, condition=cond)
    assert c.is_spsummonable(proc)
    assert c.is_spsummonable(proc, MaterialInfo(limit_tuner=tuner, limit_syn_minc=1, limit_syn_maxc=2))
    assert c.is_spsummonable(proc, MaterialInfo(limit_xyz=duel.new_group()))
    assert seen[0] == (True, 0, ())
    assert seen[1][2] == (tuner, None, 1, 2)
    assert len(seen[2][2]) == 1
    assert duel.core.reason_effect is None


def test_is_summonable_sets_extra_summon_limits_during_condition():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_HAND)
    seen = []

    def cond(e, card, min_tribute, zone, releasable):
        seen.append((min_tribute, zone, releasable, duel.core.limit_extra_summon_zone))
        return True

    proc = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, condition=cond)
    assert c.is_summonable(proc, 1, 0x3, 0xFF00FE)
    assert seen == [(1, 0x3, 0xFF00FE, 0x3)]
    assert duel.core.limit_extra_summon_zone == 0


def test_special_summon_revive_limit_and_conditions():
    duel, script = make_duel()
    g = place(duel, 1001, 0, LOCATION_GRAVE)
    re = new_effect(duel, g, type=EFFECT_TYPE_SINGLE)
    single(duel, g, EFFECT_REVIVE_LIMIT, flag=EFFECT_FLAG_SINGLE_RANGE, range=LOCATION_GRAVE)
    assert not g.is_can_be_special_summoned(re, 0, POS_FACEUP, 0, 0, False, False, 0xFF)
    assert g.is_can_be_special_summoned(re, 0, POS_FACEUP, 0, 0, False, True, 0xFF)
    assert re.status & 0x4       # EFFECT_STATUS_SPSELF: the card's own effect
    cond = single(duel, g, EFFECT_SPSUMMON_CONDITION, lambda e, r, p, st, pos, tp: st != SUMMON_TYPE_SPECIAL)
    assert not g.is_can_be_special_summoned(re, 0, POS_FACEUP, 0, 1, False, True, 0xFF)
    assert script.calls[-1][1] == (cond, re, 0, SUMMON_TYPE_SPECIAL, POS_FACEUP, 1)
    assert g.is_can_be_special_summoned(re, 0, POS_FACEUP, 0, 1, True, True, 0xFF)   # nocheck


def test_spsummonable_position_excludes_face_down_tokens():
    duel, _ = make_duel()
    t = duel.new_card(7000)
    assert t.get_spsummonable_position(None, 0, POS_FACEUP_ATTACK | POS_FACEDOWN_DEFENSE, 0, 0) == POS_FACEUP_ATTACK
    m = duel.new_card(1000)
    assert m.get_spsummonable_position(None, 0, POS_FACEDOWN_DEFENSE, 0, 0) == POS_FACEDOWN_DEFENSE


def test_effect_property_filters_by_zone():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    c.set_status(0x400000, True)   # STATUS_INITIALIZING: effects become initial ones
    mon = single(duel, c, EFFECT_UPDATE_ATTACK, 1, range=LOCATION_MZONE)
    spell = single(duel, c, EFFECT_UPDATE_ATTACK, 2, range=LOCATION_SZONE)
    c.set_status(0x400000, False)
    assert mon.is_flag(EFFECT_FLAG_INITIAL)
    assert c.is_original_effect_property(lambda e: e is spell)
    assert not c.is_effect_property(lambda e: e is spell)     # not a monster effect
    assert c.is_effect_property(lambda e: e is mon)
    assert not place(duel, 1000, 0, LOCATION_MZONE, 1, position=POS_FACEDOWN_DEFENSE).is_effect_property(
        lambda e: True)
