"""Effects on a card (card_effects.py): registering, removing, resets, counters, relations,
equips, targets, Xyz materials, filters and lookups, redirects."""

from __future__ import annotations

from duelhost.engine.card_effects import NO_TARGET
from duelhost.engine.constants import (
    CHINT_TURN, COUNTER_WITHOUT_PERMIT, EFFECT_CANNOT_DISABLE, EFFECT_COUNTER_LIMIT, EFFECT_COUNTER_PERMIT,
    EFFECT_DISABLE, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COUNT_LIMIT,
    EFFECT_FLAG_INITIAL, EFFECT_FLAG_OWNER_RELATE, EFFECT_FLAG_SINGLE_RANGE, EFFECT_FORBIDDEN,
    EFFECT_INDESTRUCTABLE_BATTLE, EFFECT_LEAVE_FIELD_REDIRECT, EFFECT_SET_ATTACK, EFFECT_SET_CONTROL,
    EFFECT_SPSUMMON_PROC, EFFECT_TO_GRAVE_REDIRECT, EFFECT_TYPE_EQUIP, EFFECT_TYPE_FIELD,
    EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_XMATERIAL, EFFECT_UPDATE_ATTACK, EVENT_PHASE,
    LOCATION_DECK, LOCATION_DECKBOT, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_OVERLAY,
    LOCATION_REMOVED, LOCATION_SZONE, PHASE_END, PLAYER_NONE, RESET_DISABLE, RESET_EVENT, RESET_PHASE,
    RESET_TOGRAVE, RESET_TOFIELD, STATUS_DISABLED, STATUS_FORBIDDEN, STATUS_INITIALIZING,
    TYPE_EFFECT, EFFECT_ADD_TYPE,
)
from duelhost.engine.core_constants import CHINT_DESC_ADD, CHINT_DESC_REMOVE
from duelhost.engine.event import Chain
from duelhost.engine.messages import (MsgAddCounter, MsgCancelTarget, MsgCardHint, MsgCardTarget, MsgEquip,
                                      MsgRemoveCounter)

from test_card_support import Recorder, make_duel, new_effect, place


def msgs(duel, cls):
    return [m for m in duel.messages if isinstance(m, cls)]


# ----- add_effect / remove_effect ---------------------------------------------------------

def test_add_effect_sets_id_handler_type_and_initial_flag():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    other = place(duel, 1001, 0, LOCATION_MZONE, 1)
    e = new_effect(duel, other, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1)
    first_id = duel.infos.field_id
    assert c.add_effect(e) == first_id
    assert e.handler is c and e.card_type == c.data.type and c.indexer[e] is c.single_effect
    assert c.add_effect(e) == 0            # already attached
    c.set_status(STATUS_INITIALIZING, True)
    f = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1)
    c.add_effect(f)
    assert f.is_flag(EFFECT_FLAG_INITIAL) and f in c.initial_effect
    assert c.add_effect(None) == 0


def test_add_effect_refusals_and_defaults():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    c.set_status(STATUS_DISABLED, True)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1, reset_flag=RESET_DISABLE)
    assert c.add_effect(e) == 0
    trig = new_effect(duel, c, type=EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_FIELD, code=EVENT_PHASE + PHASE_END,
                      range=LOCATION_MZONE)
    assert c.add_effect(trig)
    assert trig.is_flag(EFFECT_FLAG_COUNT_LIMIT) and trig.count_limit == trig.count_limit_max == 1
    assert trig in duel.effects.rechargeable
    ph = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1, reset_flag=RESET_PHASE)
    c.add_effect(ph)
    assert ph in duel.effects.pheff and ph.reset_count == 1
    c.remove_effect(ph)
    assert ph not in duel.effects.pheff and ph not in c.indexer
    assert ph in duel.core.reseted_effects


def test_new_set_attack_replaces_old_one_but_not_range_ones():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    old = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_SET_ATTACK, value=1)
    rng = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_SET_ATTACK, value=2,
                     flag=EFFECT_FLAG_SINGLE_RANGE, range=LOCATION_MZONE)
    c.add_effect(old)
    c.add_effect(rng)
    new = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_SET_ATTACK, value=3)
    c.add_effect(new)
    assert old not in c.indexer and rng in c.indexer and new in c.indexer
    assert c.single_effect.equal_range(EFFECT_SET_ATTACK) == [rng, new]


def test_client_hint_messages_on_add_and_remove():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE, 3)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=0,
                   flag=EFFECT_FLAG_CLIENT_HINT, description=0x4785EF53)
    c.add_effect(e)
    c.remove_effect(e)
    hints = msgs(duel, MsgCardHint)
    assert [(h.type, h.value) for h in hints] == [(CHINT_DESC_ADD, 0x4785EF53), (CHINT_DESC_REMOVE, 0x4785EF53)]
    assert hints[0].loc.raw == c.get_info_location()


def test_field_effect_registered_with_duel_when_in_range():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, value=1, range=LOCATION_MZONE,
                   s_range=LOCATION_MZONE)
    c.add_effect(e)
    assert e in duel.effects.aura_effect.equal_range(EFFECT_UPDATE_ATTACK)
    c.remove_effect(e)
    assert e not in duel.effects.aura_effect.equal_range(EFFECT_UPDATE_ATTACK)
    h = place(duel, 1000, 0, LOCATION_HAND)
    f = new_effect(duel, h, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, value=1, range=LOCATION_MZONE)
    h.add_effect(f)
    assert f not in duel.effects.aura_effect.equal_range(EFFECT_UPDATE_ATTACK)


# ----- resets -----------------------------------------------------------------------------

def test_reset_event_clears_bookkeeping_and_matching_effects():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    other = place(duel, 1001, 0, LOCATION_MZONE, 1)
    keep_rel = place(duel, 1002, 0, LOCATION_MZONE, 2)
    c.create_relation(other, RESET_EVENT + RESET_TOGRAVE)
    c.create_relation(keep_rel, RESET_EVENT + RESET_TOFIELD)
    c.counters[0x5] = 2
    c.attacked_count = 3
    gone = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1,
                      reset_flag=RESET_EVENT + RESET_TOGRAVE)
    stays = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1,
                       reset_flag=RESET_EVENT + RESET_TOFIELD)
    c.add_effect(gone)
    c.add_effect(stays)
    c.reset(RESET_TOGRAVE, RESET_EVENT)
    assert other not in c.relations and keep_rel in c.relations
    assert c.counters == {} and c.attacked_count == 0
    assert gone not in c.indexer and stays in c.indexer


def test_reset_disable_removes_permitted_counters_with_messages():
    duel, _ = make_duel()
    c = place(duel, 1000, 1, LOCATION_MZONE, 4)
    c.counters[0x3] = 2
    c.counters[0x1 | COUNTER_WITHOUT_PERMIT] = 5
    c.counters[0x1] = 1
    c.reset(RESET_DISABLE, RESET_EVENT)
    removed = msgs(duel, MsgRemoveCounter)
    assert [(m.counter_type, m.count, m.controller, m.location, m.sequence) for m in removed] == [
        (0x1, 1, 1, LOCATION_MZONE, 4), (0x3, 2, 1, LOCATION_MZONE, 4)]
    assert c.counters == {0x1 | COUNTER_WITHOUT_PERMIT: 5}


def test_refresh_disable_status():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    src = place(duel, 1001, 1, LOCATION_MZONE)
    e = new_effect(duel, src, type=EFFECT_TYPE_FIELD, code=EFFECT_DISABLE, range=LOCATION_MZONE,
                   s_range=0, o_range=LOCATION_MZONE)
    src.add_effect(e)
    c.refresh_disable_status()
    assert c.is_status(STATUS_DISABLED) and not c.is_status(STATUS_FORBIDDEN)
    cd = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_CANNOT_DISABLE)
    c.add_effect(cd)
    c.refresh_disable_status()
    assert c.is_status(STATUS_DISABLED)     # negated itself, so its own effect is off too
    cd2 = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_CANNOT_DISABLE, flag=EFFECT_FLAG_CANNOT_DISABLE)
    c.add_effect(cd2)
    c.refresh_disable_status()
    assert not c.is_status(STATUS_DISABLED)
    fb = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_FORBIDDEN)
    c.add_effect(fb)
    c.refresh_disable_status()
    assert c.is_status(STATUS_FORBIDDEN)


def test_refresh_control_status_takes_newest_set_control():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    assert c.refresh_control_status() == (0, None)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_SET_CONTROL, value=1)
    c.add_effect(e)
    assert c.refresh_control_status() == (1, e)


def test_count_turn_hint():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    c.count_turn(2)
    (h,) = msgs(duel, MsgCardHint)
    assert (h.type, h.value, c.turn_counter) == (CHINT_TURN, 2, 2)


# ----- counters ---------------------------------------------------------------------------

def test_counters_need_permit_unless_without_permit_type():
    duel, _ = make_duel()
    rec = Recorder(duel, "raise_single_event", "process_single_event")
    c = place(duel, 1000, 0, LOCATION_MZONE, 1)
    assert not c.is_can_add_counter(0, 0x5, 1, False, 0)
    assert c.is_can_add_counter(0, 0x5 | COUNTER_WITHOUT_PERMIT, 1, False, 0)
    permit = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_COUNTER_PERMIT + 0x5,
                        flag=EFFECT_FLAG_SINGLE_RANGE, range=LOCATION_MZONE)
    c.add_effect(permit)
    assert c.is_can_have_counter(0x5)
    assert c.add_counter(0, 0x5, 3, False)
    assert c.get_counter(0x5) == 3
    (m,) = msgs(duel, MsgAddCounter)
    assert (m.counter_type, m.controller, m.location, m.sequence, m.count) == (0x5, 0, LOCATION_MZONE, 1, 3)
    assert rec.names() == ["raise_single_event", "process_single_event"]
    assert rec.calls[0][1][2] == 0x10000 + 0x5 and rec.calls[0][1][7] == 3
    # removing the permit takes the counters off
    c.remove_effect(permit)
    assert c.get_counter(0x5) == 0 and msgs(duel, MsgRemoveCounter)[-1].count == 3
    # face-down cards cannot get counters
    d = place(duel, 1000, 0, LOCATION_MZONE, 2, position=0x8)
    assert not d.is_can_add_counter(0, 0x5 | COUNTER_WITHOUT_PERMIT, 1, False, 0)
    assert d.is_can_add_counter(0, 0x5 | COUNTER_WITHOUT_PERMIT, 1, False, LOCATION_MZONE)


def test_counter_limit_refuses_or_caps_when_singly():
    duel, _ = make_duel()
    Recorder(duel, "raise_single_event", "process_single_event")
    c = place(duel, 1000, 0, LOCATION_MZONE)
    ct = 0x7 | COUNTER_WITHOUT_PERMIT
    c.add_effect(new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_COUNTER_LIMIT + ct, value=2))
    assert not c.add_counter(0, ct, 3, False)
    assert c.add_counter(0, ct, 1, False)
    assert c.add_counter(0, ct, 3, True)     # placed one at a time: only one more fits
    assert c.get_counter(ct) == 2
    assert [m.count for m in msgs(duel, MsgAddCounter)] == [1, 1]
    assert c.remove_counter(ct, 5)
    assert msgs(duel, MsgRemoveCounter)[-1].count == 2 and c.get_counter(ct) == 0
    assert not c.remove_counter(ct, 1)


# ----- relations --------------------------------------------------------------------------

def test_relations_with_cards_chains_and_effects():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    o = place(duel, 1001, 0, LOCATION_MZONE, 1)
    e = new_effect(duel, o, type=EFFECT_TYPE_SINGLE)
    ch = Chain()
    ch.triggering_effect = e
    ch.chain_id = 7
    c.create_relation(o, RESET_EVENT)
    assert c.is_has_relation(o)
    c.release_relation(o)
    assert not c.is_has_relation(o)
    # an effect on the chain relates through its chain link
    duel.core.current_chain.append(ch)
    c.create_relation(e)
    assert c.is_has_relation(ch) and c.is_has_relation(e)
    c.release_relation(e)
    assert not c.is_has_relation(ch)
    duel.core.current_chain.clear()
    c.create_relation(e)
    assert (e, 0) in c.relate_effect
    c.clear_relate_effect()
    assert not c.is_has_relation(e)


# ----- equips, targets, materials ---------------------------------------------------------

def test_equip_unequip_and_equip_effects_apply():
    duel, _ = make_duel()
    m = place(duel, 1000, 0, LOCATION_MZONE, 0)
    eq = place(duel, 2000, 0, LOCATION_SZONE, 1)
    e = new_effect(duel, eq, type=EFFECT_TYPE_EQUIP, code=EFFECT_UPDATE_ATTACK, value=700)
    eq.add_effect(e)
    eq.equip(m)
    (msg,) = msgs(duel, MsgEquip)
    assert msg.card.raw == eq.get_info_location() and msg.target.raw == m.get_info_location()
    assert m.get_attack() == 2500
    eq.unequip()
    assert m.get_attack() == 1800 and eq.pre_equip_target is m and eq not in m.equiping_cards


def test_card_targets_and_owner_related_effects():
    duel, _ = make_duel()
    src = place(duel, 3000, 0, LOCATION_SZONE, 0)
    t = place(duel, 1000, 1, LOCATION_MZONE, 0)
    src.add_card_target(t)
    assert t in src.effect_target_cards and src in t.effect_target_owner
    assert isinstance(duel.messages[-1], MsgCardTarget)
    rel = new_effect(duel, src, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1,
                     flag=EFFECT_FLAG_OWNER_RELATE)
    t.add_effect(rel)
    src.delete_card_target(True)
    assert rel not in t.indexer and isinstance(duel.messages[-1], MsgCancelTarget)
    src.add_card_target(t)
    t.clear_card_target()
    assert not src.effect_target_cards and not t.effect_target_owner


def test_xyz_add_remove_and_material_effects():
    duel, _ = make_duel()
    x = place(duel, 4000, 0, LOCATION_MZONE)
    mats = [duel.new_card(1000), duel.new_card(1001), duel.new_card(1002)]
    e = new_effect(duel, mats[1], type=EFFECT_TYPE_XMATERIAL, code=EFFECT_UPDATE_ATTACK, value=300)
    mats[1].add_effect(e)
    for m in mats:
        x.xyz_add(m)
    assert [m.current.sequence for m in mats] == [0, 1, 2]
    assert all(m.current.location == LOCATION_OVERLAY and m.overlay_target is x for m in mats)
    assert x.get_attack() == 2300
    x.xyz_remove(mats[0])
    assert [m.current.sequence for m in mats[1:]] == [0, 1]
    assert mats[0].current.location == 0 and mats[0].previous.location == LOCATION_OVERLAY


def test_set_material_marks_reason_card():
    duel, _ = make_duel()
    f = place(duel, 8000, 0, LOCATION_MZONE)
    a = place(duel, 1000, 0, LOCATION_GRAVE)
    f.set_material([a])
    assert a.current.reason_card is f and list(f.material_cards) == [a]
    f.set_material(None)
    assert not f.material_cards


# ----- lookups ----------------------------------------------------------------------------

def test_is_affected_by_effect_one_and_two_argument_forms():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    a = place(duel, 1001, 1, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_INDESTRUCTABLE_BATTLE,
                   value=lambda eff, target=None: target is not None and target.data.code == 1001)
    c.add_effect(e)
    assert c.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE) is e
    assert c.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE, a) is e
    assert c.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE, None) is None   # checked against "no card"
    assert c.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE, NO_TARGET) is e
    assert not c.is_destructable_by_battle(a)


def test_leave_field_redirect_priorities_and_destination_redirect():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    c.add_effect(new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_LEAVE_FIELD_REDIRECT,
                            value=LOCATION_DECKBOT))
    assert c.leave_field_redirect(0) == LOCATION_DECKBOT
    c.add_effect(new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_LEAVE_FIELD_REDIRECT,
                            value=LOCATION_REMOVED))
    assert c.leave_field_redirect(0) == LOCATION_REMOVED
    c.add_effect(new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_TO_GRAVE_REDIRECT,
                            value=LOCATION_HAND))
    assert c.destination_redirect(LOCATION_GRAVE, 0) == LOCATION_HAND
    assert c.destination_redirect(LOCATION_DECK, 0) == 0
    t = place(duel, 7000, 0, LOCATION_MZONE, 1)
    t.add_effect(new_effect(duel, t, type=EFFECT_TYPE_SINGLE, code=EFFECT_LEAVE_FIELD_REDIRECT,
                            value=LOCATION_REMOVED))
    assert t.leave_field_redirect(0) == 0


def test_filter_spsummon_procedure_checks_condition_and_type():
    duel, script = make_duel()
    c = place(duel, 8000, 0, LOCATION_HAND)
    proc = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_SPSUMMON_PROC, range=LOCATION_HAND,
                      value=0x18, condition=lambda e, card=None: True)
    c.add_effect(proc)
    assert c.filter_spsummon_procedure(0) == [proc]
    assert c.filter_spsummon_procedure(0, None, 0x18) == [proc]
    assert c.filter_spsummon_procedure(0, [], 0x20) == []
    proc.condition = lambda e, card=None: card is None
    assert c.filter_spsummon_procedure(0) == []
    assert duel.core.reason_effect is None and duel.core.reason_player == PLAYER_NONE


def test_copy_effect_adds_effect_type_to_normal_monster():
    duel, script = make_duel()
    n = place(duel, 1002, 0, LOCATION_MZONE)
    seen = []
    script.on_code_call = lambda code, name, card: seen.append(card.get_status(0x8000))
    cid = n.copy_effect(1000, 0, 1)
    assert script.code_calls == [(1000, "initial_effect", (n,))] and seen == [0x8000]
    assert cid == duel.infos.copy_id - 1 and not n.get_status(0x8000)
    (added,) = n.single_effect.equal_range(EFFECT_ADD_TYPE)
    assert added.value == TYPE_EFFECT and n.get_type() & TYPE_EFFECT
    assert n.copy_effect(1002, 0, 1) == -1   # a Normal card has nothing to copy


def test_xyz_overlay_moves_materials_and_raises_leave_events():
    from duelhost.engine.constants import (EVENT_LEAVE_DECK, EVENT_LEAVE_GRAVE, GLOBALFLAG_DECK_REVERSE_CHECK,
                                           POS_FACEUP_DEFENSE, REASON_MATERIAL, REASON_XYZ)
    from duelhost.engine.messages import MsgDeckTop, MsgMove
    duel, _ = make_duel()
    rec = Recorder(duel, "raise_single_event", "raise_event", "process_single_event", "process_instant_event",
                   "destroy", "adjust_instant")
    x = place(duel, 4000, 0, LOCATION_MZONE, 2)
    bottom = place(duel, 1000, 0, LOCATION_DECK)
    shown = place(duel, 1001, 0, LOCATION_DECK, position=POS_FACEUP_DEFENSE)
    top = place(duel, 1002, 0, LOCATION_DECK)
    g = place(duel, 1000, 0, LOCATION_GRAVE)
    duel.core.global_flag |= GLOBALFLAG_DECK_REVERSE_CHECK
    x.xyz_overlay([g, top])
    (dt,) = msgs(duel, MsgDeckTop)
    assert (dt.player, dt.sequence, dt.code) == (0, 1, 1001 | 0x80000000)
    moves = msgs(duel, MsgMove)
    # the top Deck card is handled before the GY card (Deck before GY in location order)
    assert [m.code for m in moves] == [1002, 1000]
    assert moves[0].previous.location == LOCATION_DECK and moves[0].current.location == LOCATION_MZONE | 0x80
    assert moves[1].current.position == 1 and moves[1].reason == REASON_XYZ + REASON_MATERIAL
    assert x.xyz_materials == [top, g] and duel.player[0].list_main == [bottom, shown]
    assert [(n, a[2] if n == "raise_single_event" else a[1]) for n, a in rec.calls if n.startswith("raise")] == [
        ("raise_single_event", EVENT_LEAVE_DECK), ("raise_single_event", EVENT_LEAVE_GRAVE),
        ("raise_event", EVENT_LEAVE_GRAVE), ("raise_event", EVENT_LEAVE_DECK)]
    assert rec.names()[-3:] == ["process_single_event", "process_instant_event", "adjust_instant"]


def test_copy_drops_uncopyable_and_replace_reloads_own_effects_on_reset():
    from duelhost.engine.constants import EFFECT_FLAG_UNCOPYABLE, RESET_COPY, STATUS_EFFECT_REPLACED
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    own = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=1)
    c.set_status(STATUS_INITIALIZING, True)
    c.add_effect(own)
    c.set_status(STATUS_INITIALIZING, False)
    added = []

    def initial_effect(code, name, card):
        e = new_effect(duel, card, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=2)
        u = new_effect(duel, card, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, value=3,
                       flag=EFFECT_FLAG_UNCOPYABLE)
        added.append((card.add_effect(e), card.add_effect(u), e))

    script.on_code_call = initial_effect
    cid = c.copy_effect(1001, 0, 1)
    assert added[0][0] and added[0][1] == 0 and duel.uncopy == {}
    assert added[0][2].copy_id == cid and c.get_attack() == 1800 + 1 + 2
    # replacing drops the card's own effects; the copies come in as initial ones
    cid2 = c.replace_effect(1001, 0, 1)
    assert own not in c.indexer and c.is_status(STATUS_EFFECT_REPLACED)
    replacing = added[1][2]
    assert replacing.is_flag(EFFECT_FLAG_INITIAL) and replacing.copy_id == cid2
    c.reset(cid2, RESET_COPY)
    assert replacing not in c.indexer and not c.is_status(STATUS_EFFECT_REPLACED)
    assert script.card_calls == [(c, "initial_effect", (c,))]


def test_a_reset_removes_client_hints_newest_first(tmp_path):
    """card.reset walks the card's effects newest first (the reference's unordered
    effect index, in practice): two client-hint effects lose their hints in that order."""
    from duelhost.engine.constants import RESET_EVENT, RESET_TOGRAVE
    from duelhost.engine.messages import MsgCardHint
    from duelhost.testing.scenario import Scenario
    code = 190000201
    (tmp_path / f"c{code}.lua").write_text("""
local s,id=GetID()
function s.initial_effect(c) end
function s.hints(c)
  for i = 1, 2 do
    local e = Effect.CreateEffect(c)
    e:SetDescription(aux.Stringid(id, i))
    e:SetType(EFFECT_TYPE_SINGLE)
    e:SetProperty(EFFECT_FLAG_CLIENT_HINT)
    e:SetReset(RESET_EVENT + RESETS_STANDARD)
    c:RegisterEffect(e)
  end
end
""", encoding="utf-8")
    s = Scenario(scripts=tmp_path)
    ref = s.add(code, to="mzone")
    s.start()
    card = ref.engine
    s.script_host.call_code_function(code, "hints", card)
    duel = card.duel
    mark = len(duel.messages)
    card.reset(RESET_TOGRAVE, RESET_EVENT)
    removed = [m.value for m in duel.messages[mark:] if isinstance(m, MsgCardHint)]
    assert removed == [code * 16 + 2, code * 16 + 1]
