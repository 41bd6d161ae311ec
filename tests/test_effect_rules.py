"""Rules of one effect (engine/effect_rules.py, reference effect.cpp), exercised by hand."""

from __future__ import annotations

import pytest

from duelhost.engine.constants import (
    EFFECT_CANNOT_ACTIVATE, EFFECT_COUNT_CODE_CHAIN, EFFECT_COUNT_CODE_DUEL,
    EFFECT_COUNT_CODE_SINGLE, EFFECT_FLAG2_COF, EFFECT_FLAG_ABSOLUTE_TARGET,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_FUNC_VALUE,
    EFFECT_FLAG_INITIAL, EFFECT_FLAG_NO_TURN_RESET, EFFECT_FLAG_OWNER_RELATE,
    EFFECT_FLAG_PLAYER_TARGET, EFFECT_FLAG_SET_AVAILABLE, EFFECT_FLAG_SINGLE_RANGE,
    EFFECT_IMMUNE_EFFECT, EFFECT_TRAP_ACT_IN_HAND, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_ACTIONS, EFFECT_TYPE_EQUIP, EFFECT_TYPE_FIELD, EFFECT_TYPE_IGNITION, EFFECT_TYPE_QUICK_O,
    EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_XMATERIAL, EFFECT_UPDATE_ATTACK,
    EVENT_ADJUST, EVENT_CHAINING, EVENT_CUSTOM, EVENT_FREE_CHAIN, EVENT_PHASE, EVENT_PHASE_START,
    EVENT_ADD_COUNTER, EVENT_TURN_END, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    LOCATION_SZONE, PHASE_END, PHASE_STANDBY, POS_FACEDOWN_DEFENSE, RESET_CARD, RESET_CODE,
    RESET_COPY, RESET_DISABLE, RESET_EVENT, RESET_OPPO_TURN, RESET_PHASE, RESET_SELF_TURN,
    RESET_TOGRAVE, STATUS_DISABLED, STATUS_FORBIDDEN, TYPE_PENDULUM, TYPE_SPELL,
    TYPE_TRAP, TYPE_TRAPMONSTER, STATUS_SET_TURN,
)
from duelhost.engine.core_constants import CODE_COUNTER, CODE_CUSTOM, CODE_PHASE, CODE_VALUE
from duelhost.engine.effect_rules import effect_sort_key, is_continuous_event
from duelhost.engine.event import Chain, Event
from duelhost.engine.group import Group

from test_effect_support import card_stubs, make_duel, new_effect, place


# ----- module-level helpers ------------------------------------------------------------------

def test_is_continuous_event():
    assert is_continuous_event(EVENT_ADJUST)
    assert is_continuous_event(EVENT_TURN_END)
    assert is_continuous_event(EVENT_PHASE_START + PHASE_END)
    assert not is_continuous_event(EVENT_PHASE + PHASE_END)
    assert not is_continuous_event(EVENT_CUSTOM + EVENT_ADJUST)
    assert not is_continuous_event(EVENT_ADD_COUNTER + 0x1041)
    assert not is_continuous_event(EVENT_CHAINING)


def test_effect_sort_key_puts_initial_single_first_then_id():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    a = new_effect(duel, c, type=EFFECT_TYPE_FIELD, id=5)
    b = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, id=9,
                   flag=EFFECT_FLAG_SINGLE_RANGE | EFFECT_FLAG_INITIAL)
    d = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, id=3, flag=EFFECT_FLAG_SINGLE_RANGE)
    assert sorted([a, b, d], key=effect_sort_key) == [b, d, a]


def test_code_type():
    duel, _ = make_duel()
    e = new_effect(duel, None)
    for code, kind in ((EVENT_CUSTOM + 5, CODE_CUSTOM), (EVENT_ADD_COUNTER + 3, CODE_COUNTER),
                       (EVENT_PHASE + PHASE_END, CODE_PHASE), (EVENT_FREE_CHAIN, CODE_VALUE)):
        e.code = code
        assert e.get_code_type() == kind


def test_speed():
    duel, _ = make_duel()
    spell = place(duel, 2000, 0, LOCATION_HAND)
    qp = place(duel, 2001, 0, LOCATION_HAND)
    trap = place(duel, 3000, 0, LOCATION_HAND)
    counter = place(duel, 3001, 0, LOCATION_HAND)
    mon = place(duel, 1000, 0, LOCATION_HAND)
    assert new_effect(duel, spell, type=EFFECT_TYPE_ACTIVATE).get_speed() == 1
    assert new_effect(duel, qp, type=EFFECT_TYPE_ACTIVATE).get_speed() == 2
    assert new_effect(duel, trap, type=EFFECT_TYPE_ACTIVATE).get_speed() == 2
    assert new_effect(duel, counter, type=EFFECT_TYPE_ACTIVATE).get_speed() == 3
    assert new_effect(duel, mon, type=EFFECT_TYPE_ACTIVATE).get_speed() == 0
    assert new_effect(duel, mon, type=EFFECT_TYPE_IGNITION).get_speed() == 1
    assert new_effect(duel, mon, type=EFFECT_TYPE_QUICK_O).get_speed() == 2
    assert new_effect(duel, mon, type=EFFECT_TYPE_FIELD).get_speed() == 0


# ----- owner / handler ------------------------------------------------------------------------

def test_xmaterial_owner_and_handler_follow_the_holder():
    duel, _ = make_duel()
    xyz = place(duel, 1000, 1, LOCATION_MZONE)
    mat = place(duel, 1000, 0, LOCATION_GRAVE)
    e = new_effect(duel, mat, type=EFFECT_TYPE_XMATERIAL | EFFECT_TYPE_FIELD)
    assert e.get_handler() is mat and not e.in_range(mat)
    mat.overlay_target = xyz
    assert e.get_handler() is xyz and e.get_owner() is xyz
    assert e.get_handler_player() == 1
    assert e.in_range(mat)
    mat.overlay_target = None
    e.last_handler = xyz
    assert e.get_owner() is xyz
    e.active_handler = mat
    assert e.get_handler() is mat


def test_in_range_card_and_chain():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, range=LOCATION_MZONE)
    assert e.in_range(c)
    ch = Chain()
    ch.triggering_location = LOCATION_GRAVE
    assert not e.in_range(ch)
    ch.triggering_location = LOCATION_MZONE
    assert e.in_range(ch)


def test_owner_player_prefers_effect_owner():
    duel, _ = make_duel()
    c = place(duel, 1000, 1, LOCATION_MZONE)
    e = new_effect(duel, c)
    assert e.get_owner_player() == 1
    e.effect_owner = 0
    assert e.get_owner_player() == 0


def test_active_type(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    trap = place(duel, 3000, 0, LOCATION_SZONE)
    e = new_effect(duel, trap, type=EFFECT_TYPE_QUICK_O)
    monkeypatch.setattr(type(trap), "get_type", lambda self: TYPE_TRAP | TYPE_TRAPMONSTER | 0x1)
    e.set_active_type()
    assert e.active_type == TYPE_TRAPMONSTER | 0x1
    assert e.get_active_type() == TYPE_TRAPMONSTER | 0x1
    assert e.get_active_type(False) == TYPE_TRAP | TYPE_TRAPMONSTER | 0x1
    trap.data.type = TYPE_SPELL | TYPE_PENDULUM
    act = new_effect(duel, trap, type=EFFECT_TYPE_ACTIVATE)
    assert act.get_active_type() == TYPE_PENDULUM + TYPE_SPELL


# ----- availability ---------------------------------------------------------------------------

def test_field_effect_availability(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, range=LOCATION_MZONE, code=EFFECT_UPDATE_ATTACK)
    assert e.is_available()
    c.current.position = POS_FACEDOWN_DEFENSE
    assert not e.is_available()
    c.current.position = 1
    c.set_status(STATUS_DISABLED, True)
    assert not e.is_available()
    assert e.is_available(neglect_disabled=True)
    assert e.limit_counter_is_available()
    e.flag[0] |= EFFECT_FLAG_CANNOT_DISABLE
    assert e.is_available()
    c.set_status(STATUS_FORBIDDEN, True)
    # CANNOT_DISABLE without CANNOT_NEGATE: cannot be forbidden either
    assert e.is_available()
    e.flag[0] &= ~EFFECT_FLAG_CANNOT_DISABLE
    assert not e.is_available(True)


def test_owner_relate_follows_the_owner(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    owner = place(duel, 1000, 0, LOCATION_MZONE, 0)
    holder = place(duel, 1000, 0, LOCATION_MZONE, 1)
    e = new_effect(duel, owner, handler=holder, type=EFFECT_TYPE_SINGLE)
    owner.set_status(STATUS_DISABLED, True)
    assert e.is_available()
    e.flag[0] |= EFFECT_FLAG_OWNER_RELATE
    assert not e.is_available()


def test_single_range_needs_range_and_face_up(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, flag=EFFECT_FLAG_SINGLE_RANGE,
                   range=LOCATION_MZONE)
    assert e.is_available() and e.is_single_ready()
    e.range = LOCATION_GRAVE
    assert not e.is_available() and not e.is_single_ready()
    e.range = LOCATION_MZONE
    c.current.position = POS_FACEDOWN_DEFENSE
    assert not e.is_available()


def test_equip_effect_needs_face_up_enabled_unless_set_available(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    eq = place(duel, 2000, 0, LOCATION_SZONE, position=POS_FACEDOWN_DEFENSE)
    e = new_effect(duel, eq, type=EFFECT_TYPE_EQUIP)
    assert not e.is_available()
    e.flag[0] |= EFFECT_FLAG_SET_AVAILABLE
    assert e.is_available()


def test_condition_gives_new_id_when_it_becomes_true(monkeypatch):
    card_stubs(monkeypatch)
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    state = {"ok": False}
    cond = lambda e: state["ok"]
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, range=LOCATION_MZONE, condition=cond, id=1)
    assert not e.is_available()
    assert e.id == 1
    state["ok"] = True
    fid = duel.infos.field_id
    assert e.is_available()
    assert e.id == fid and duel.infos.field_id == fid + 1
    assert e.is_available()
    assert e.id == fid  # stays while it stays true
    assert script.calls[-1] == (cond, (e,))
    assert new_effect(duel, c, type=EFFECT_TYPE_IGNITION).is_available() is False


# ----- targets --------------------------------------------------------------------------------

def test_is_target_ranges_and_target_function(monkeypatch):
    card_stubs(monkeypatch)
    duel, script = make_duel()
    src = place(duel, 1000, 0, LOCATION_MZONE, 0)
    mine = place(duel, 1000, 0, LOCATION_MZONE, 1)
    theirs = place(duel, 1000, 1, LOCATION_MZONE, 0)
    down = place(duel, 1000, 1, LOCATION_MZONE, 1, position=POS_FACEDOWN_DEFENSE)
    grave = place(duel, 1000, 1, LOCATION_GRAVE)
    tgt = lambda e, c: c is not mine
    e = new_effect(duel, src, type=EFFECT_TYPE_FIELD, s_range=LOCATION_MZONE,
                   o_range=LOCATION_MZONE | LOCATION_GRAVE, target=tgt)
    assert e.is_target(src)
    assert not e.is_target(mine)
    assert e.is_target(theirs)
    assert not e.is_target(down)
    assert e.is_target(grave)
    assert script.calls[-1] == (tgt, (e, grave))
    e.flag[0] |= EFFECT_FLAG_ABSOLUTE_TARGET
    e.s_range, e.o_range = 0, LOCATION_MZONE
    src.current.controler = 1  # the handler's side no longer matters
    assert e.is_target(theirs) and not e.is_target(src) is False
    single = new_effect(duel, src, type=EFFECT_TYPE_SINGLE)
    assert single.is_target(theirs)
    assert not new_effect(duel, src, type=EFFECT_TYPE_IGNITION).is_target(src)


def test_is_target_player():
    duel, _ = make_duel()
    c = place(duel, 1000, 1, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, s_range=1, o_range=0)
    assert not e.is_target_player(1)
    e.flag[0] |= EFFECT_FLAG_PLAYER_TARGET
    assert e.is_target_player(1) and not e.is_target_player(0)
    e.s_range, e.o_range = 0, 1
    assert e.is_target_player(0) and not e.is_target_player(1)
    e.flag[0] |= EFFECT_FLAG_ABSOLUTE_TARGET
    assert e.is_target_player(1) and not e.is_target_player(0)


def test_is_immuned_asks_the_immunity_value(monkeypatch):
    card_stubs(monkeypatch)
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    other = place(duel, 1000, 1, LOCATION_MZONE)
    val = lambda ie, te, card: te.owner is not card
    imm = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_IMMUNE_EFFECT,
                     flag=EFFECT_FLAG_FUNC_VALUE, value=val)
    c.immune_effect.append(imm)
    hostile = new_effect(duel, other, type=EFFECT_TYPE_FIELD)
    own = new_effect(duel, c, type=EFFECT_TYPE_FIELD)
    assert hostile.is_immuned(c)
    assert script.calls[-1] == (val, (imm, hostile, c))
    assert not own.is_immuned(c)


# ----- values -----------------------------------------------------------------------------------

def test_get_value_argument_order_and_integer_values():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    seen = []
    fn = lambda *args: seen.append(args) or 7
    e = new_effect(duel, c, flag=EFFECT_FLAG_FUNC_VALUE, value=fn)
    other = new_effect(duel, c)
    assert e.get_value() == 7 and seen[-1] == (e,)
    assert e.get_value(c) == 7 and seen[-1] == (e, c)
    assert e.get_value(other) == 7 and seen[-1] == (e, other)
    assert e.get_value(c, 1, 2) == 7 and seen[-1] == (e, c, 1, 2)
    assert e.get_value(None, 3, 4) == 7 and seen[-1] == (e, 3, 4)
    with pytest.raises(TypeError):
        e.get_value(3)
    multi = new_effect(duel, c, flag=EFFECT_FLAG_FUNC_VALUE, value=lambda *a: (1, 2, 3))
    assert multi.get_values(c, 0) == [1, 2, 3]
    plain = new_effect(duel, c, value=-5)
    assert plain.get_value(c, 1) == -5 and plain.get_values() == [-5]
    assert plain.get_integer_value() == -5 and e.get_integer_value() == 0
    assert plain.check_value_condition(c) == -5
    yes = new_effect(duel, c, flag=EFFECT_FLAG_FUNC_VALUE, value=lambda e, x: x > 1)
    assert yes.check_value_condition(2) and not yes.check_value_condition(1)
    nofn = new_effect(duel, c, flag=EFFECT_FLAG_FUNC_VALUE, value=None)
    assert nofn.get_value(c) == 0 and nofn.get_values() == [] and nofn.check_value_condition()


# ----- reset ------------------------------------------------------------------------------------

def test_reset_event_and_disable_only_on_owner():
    duel, _ = make_duel()
    a = place(duel, 1000, 0, LOCATION_MZONE, 0)
    b = place(duel, 1000, 0, LOCATION_MZONE, 1)
    e = new_effect(duel, a, reset_flag=RESET_EVENT | RESET_DISABLE | RESET_TOGRAVE)
    assert e.reset(RESET_DISABLE, RESET_EVENT)
    assert e.reset(RESET_TOGRAVE, RESET_EVENT)
    e.handler = b
    assert not e.reset(RESET_DISABLE, RESET_EVENT)
    assert e.reset(RESET_TOGRAVE | RESET_DISABLE, RESET_EVENT)
    no_event = new_effect(duel, a, reset_flag=RESET_TOGRAVE)
    assert not no_event.reset(RESET_TOGRAVE, RESET_EVENT)


def test_reset_phase_counts_matching_turns():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, reset_flag=RESET_PHASE | PHASE_END | RESET_SELF_TURN, reset_count=2)
    duel.infos.turn_player = 1
    assert not e.reset(PHASE_END, RESET_PHASE) and e.reset_count == 2
    duel.infos.turn_player = 0
    assert not e.reset(PHASE_STANDBY, RESET_PHASE)
    assert not e.reset(PHASE_END, RESET_PHASE) and e.reset_count == 1
    assert e.reset(PHASE_END, RESET_PHASE)
    o = new_effect(duel, c, reset_flag=RESET_PHASE | PHASE_END | RESET_OPPO_TURN, reset_count=1)
    assert not o.reset(PHASE_END, RESET_PHASE)
    duel.infos.turn_player = 1
    assert o.reset(PHASE_END, RESET_PHASE)


def test_reset_card_code_copy():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_SINGLE, code=EFFECT_UPDATE_ATTACK, copy_id=4)
    assert e.reset(1000, RESET_CARD) and not e.reset(2000, RESET_CARD)
    assert e.reset(EFFECT_UPDATE_ATTACK, RESET_CODE)
    e.type = EFFECT_TYPE_SINGLE | EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_ACTIONS
    assert not e.reset(EFFECT_UPDATE_ATTACK, RESET_CODE)
    assert e.reset(4, RESET_COPY) and not e.reset(5, RESET_COPY)
    assert not e.reset(0, 0x123)


# ----- count limits -----------------------------------------------------------------------------

def test_count_limit_own_and_shared_codes():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    own = new_effect(duel, c, flag=EFFECT_FLAG_COUNT_LIMIT, count_limit=1, count_limit_max=1)
    assert own.check_count_limit(0)
    own.dec_count(0)
    assert own.count_limit == 0 and not own.check_count_limit(0)
    own.recharge()
    assert own.check_count_limit(0)
    shared = new_effect(duel, c, flag=EFFECT_FLAG_COUNT_LIMIT, count_limit=1, count_limit_max=1,
                        count_code=1000 | EFFECT_COUNT_CODE_DUEL)
    shared.dec_count(0)
    assert shared.count_limit == 1  # only the shared code counts
    assert not shared.check_count_limit(0) and shared.check_count_limit(1)
    assert duel.core.effect_count_code_duel[0] == {1000 | EFFECT_COUNT_CODE_DUEL: 1}
    shared.flag[0] |= EFFECT_FLAG_NO_TURN_RESET
    shared.dec_count(1)
    assert shared.count_limit == 0
    single = new_effect(duel, c, flag=EFFECT_FLAG_COUNT_LIMIT, count_limit=2, count_limit_max=2,
                        count_code=EFFECT_COUNT_CODE_SINGLE | EFFECT_COUNT_CODE_CHAIN)
    c.activate_count_id = 77
    single.dec_count(0)
    assert duel.core.effect_count_code_chain[2] == {EFFECT_COUNT_CODE_CHAIN | 77: 1}
    assert single.check_count_limit(1)
    single.dec_count(1)
    assert not single.check_count_limit(0)


# ----- activation checks ------------------------------------------------------------------------

def _event(duel, **kw):
    return Event(event_code=kw.get("code", EVENT_FREE_CHAIN), event_cards=kw.get("eg"),
                 reason_effect=kw.get("re"), reason=kw.get("r", 0), reason_player=kw.get("rp", 2),
                 event_player=kw.get("ep", 2), event_value=kw.get("ev", 0))


def test_activate_ready_passes_arguments_in_order_and_sets_cost_checked():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    seen = {}
    e = new_effect(duel, c, type=EFFECT_TYPE_IGNITION)
    e.condition = lambda *a: seen.setdefault("con", a) is not None
    e.cost = lambda *a: seen.setdefault("cost", (a, a[0].cost_checked)) is not None
    e.target = lambda *a: seen.setdefault("tg", (a, a[0].cost_checked)) is not None
    g = Group(duel, [c])
    re = new_effect(duel, c)
    ev = _event(duel, eg=g, ep=1, ev=9, re=re, r=64, rp=1)
    assert e.is_activate_ready(0, ev)
    assert seen["con"] == (e, 0, g, 1, 9, re, 64, 1)
    assert seen["cost"] == ((e, 0, g, 1, 9, re, 64, 1, 0), True)
    assert seen["tg"] == ((e, 0, g, 1, 9, re, 64, 1, 0), True)
    assert e.cost_checked is False
    other = new_effect(duel, c)
    seen.clear()
    assert e.is_activate_ready(other, 1, ev) and seen["con"][0] is other
    seen.clear()
    assert e.is_activate_ready_reason(other, 1, ev, False, True) and "cost" not in seen
    assert seen["tg"][1] is False  # neglected cost: cost_checked stays false
    e.target = lambda *a: False
    assert not e.is_activate_ready(0, ev)
    assert e.cost_checked is False


def test_continuous_effect_has_no_cost_check():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    e = new_effect(duel, c, type=EFFECT_TYPE_CONTINUOUS | EFFECT_TYPE_FIELD,
                   cost=lambda *a: False)
    assert e.is_activate_ready(0, _event(duel))


def test_condition_check_restores_reason():
    duel, _ = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    inside = {}
    e = new_effect(duel, c, type=EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_SINGLE)
    e.condition = lambda *a: inside.update(re=duel.core.reason_effect, rp=duel.core.reason_player) or True
    duel.core.reason_player = 1
    assert e.is_condition_check(0, _event(duel))
    assert inside == {"re": e, "rp": 0}
    assert duel.core.reason_effect is None and duel.core.reason_player == 1
    c.current.position = POS_FACEDOWN_DEFENSE
    assert not e.is_condition_check(0, _event(duel))


def test_action_check_uses_player_effects():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    ig = new_effect(duel, c, type=EFFECT_TYPE_IGNITION)
    val = lambda e, re, tp: re is ig
    ban = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_CANNOT_ACTIVATE,
                     flag=EFFECT_FLAG_PLAYER_TARGET | EFFECT_FLAG_FUNC_VALUE, s_range=1, value=val,
                     handler=None)
    duel.add_effect(ban, 1)  # registered to player 1, affects player 1 only
    assert ig.is_action_check(0)
    assert not ig.is_action_check(1)
    assert script.calls[-1] == (val, (ban, ig, 1))


def test_required_handorset_effects(monkeypatch):
    duel, script = make_duel()
    trap = place(duel, 3000, 0, LOCATION_HAND)
    act = new_effect(duel, trap, type=EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    perm_cost = lambda *a: True
    perm = new_effect(duel, trap, type=EFFECT_TYPE_SINGLE, code=EFFECT_TRAP_ACT_IN_HAND,
                      cost=perm_cost)
    card_stubs(monkeypatch, filter_effect=lambda self, code, eset=None, sort=True:
               [perm] if code == EFFECT_TRAP_ACT_IN_HAND else [])
    ev = _event(duel)
    out = ["stale"]
    assert act.get_required_handorset_effects(out, 0, ev) == 2
    assert out == [perm]
    assert script.calls[-1] == (perm_cost, (perm, 0, None, 2, 0, None, 0, 2, 0, act))
    assert act.get_required_handorset_effects(out, 0, ev, True) == 1 and out == []
    perm.cost = lambda *a: False
    assert act.get_required_handorset_effects(None, 0, ev) == 0
    spell = place(duel, 2000, 0, LOCATION_HAND)
    sact = new_effect(duel, spell, type=EFFECT_TYPE_ACTIVATE)
    duel.infos.turn_player = 1
    assert sact.get_required_handorset_effects(None, 0, ev) == 0
    duel.infos.turn_player = 0
    assert sact.get_required_handorset_effects(None, 0, ev) == 1
    set_trap = place(duel, 3000, 0, LOCATION_SZONE, position=POS_FACEDOWN_DEFENSE)
    set_trap.set_status(STATUS_SET_TURN, True)
    tact = new_effect(duel, set_trap, type=EFFECT_TYPE_ACTIVATE)
    assert tact.get_required_handorset_effects(None, 0, ev) == 0
    assert new_effect(duel, trap, type=EFFECT_TYPE_IGNITION).get_required_handorset_effects(None, 0, ev) == 1


def test_chainable_speed_and_chain_limits():
    duel, script = make_duel()
    mon = place(duel, 1000, 0, LOCATION_MZONE)
    spell = place(duel, 2000, 0, LOCATION_SZONE)
    counter = place(duel, 3001, 1, LOCATION_SZONE)
    quick = new_effect(duel, mon, type=EFFECT_TYPE_QUICK_O)
    assert quick.is_chainable(0)
    assert not new_effect(duel, spell, type=EFFECT_TYPE_ACTIVATE).is_chainable(0)
    assert new_effect(duel, spell, type=EFFECT_TYPE_ACTIVATE, flag2=EFFECT_FLAG2_COF).is_chainable(0)
    link = Chain()
    link.triggering_effect = new_effect(duel, counter, type=EFFECT_TYPE_ACTIVATE)
    duel.core.current_chain.append(link)
    assert not quick.is_chainable(0)
    duel.core.current_chain[-1].triggering_effect = new_effect(duel, mon, type=EFFECT_TYPE_QUICK_O)
    assert quick.is_chainable(0)
    hand = place(duel, 1000, 0, LOCATION_HAND)
    assert new_effect(duel, hand, type=EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_SINGLE).is_chainable(0)
    limit = lambda e, rp, tp: tp == 1
    duel.core.chain_limit.append((limit, 1))
    assert not quick.is_chainable(0) and quick.is_chainable(1)
    assert script.calls[-1] == (limit, (quick, 1, 1))


# ----- clone ------------------------------------------------------------------------------------

def test_clone_copies_fields_and_clones_function_refs():
    duel, script = make_duel()
    c = place(duel, 1000, 0, LOCATION_MZONE)
    cond, val = (lambda e: True), (lambda e, c: 1)
    e = new_effect(duel, c, type=EFFECT_TYPE_FIELD, code=EFFECT_UPDATE_ATTACK, id=42,
                   condition=cond, value=val, flag=EFFECT_FLAG_FUNC_VALUE, label=[1, 2],
                   description=1234)
    ce = e.clone()
    assert ce is not e and ce.serial != e.serial
    assert ce.handler is None and ce.owner is c
    assert (ce.code, ce.id, ce.type, ce.description) == (EFFECT_UPDATE_ATTACK, 42, EFFECT_TYPE_FIELD, 1234)
    assert ce.label == [1, 2] and ce.label is not e.label
    assert ce.flag == e.flag and ce.flag is not e.flag
    assert script.cloned == [cond, val]
    plain = new_effect(duel, c, value=5)
    plain.clone()
    assert script.cloned == [cond, val]


# ----- is_activateable ---------------------------------------------------------------------------

def test_activateable_card_effects(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    mon = place(duel, 1000, 0, LOCATION_MZONE)
    ig = new_effect(duel, mon, type=EFFECT_TYPE_IGNITION, range=LOCATION_MZONE)
    ev = _event(duel)
    assert ig.is_activateable(0, ev)
    # a field-type effect of a card the player does not control
    assert not ig.is_activateable(1, ev)
    mon.current.position = POS_FACEDOWN_DEFENSE
    assert not ig.is_activateable(0, ev)
    assert ig.is_activateable(0, ev, neglect_faceup=True)
    mon.current.position = 1
    mon.set_status(STATUS_FORBIDDEN, True)
    assert not ig.is_activateable(0, ev)
    mon.set_status(STATUS_FORBIDDEN, False)
    ig.flag[0] |= EFFECT_FLAG_COUNT_LIMIT
    ig.count_limit = 0
    assert not ig.is_activateable(0, ev)
    ig.count_limit = 1
    monkeypatch.setattr(type(mon), "is_affected_by_effect",
                        lambda self, code, target=None: object() if code == 7 else None)
    assert not ig.is_activateable(0, ev)  # EFFECT_CANNOT_TRIGGER


def test_activateable_sets_reason_while_checking(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    mon = place(duel, 1000, 0, LOCATION_MZONE)
    seen = {}
    ig = new_effect(duel, mon, type=EFFECT_TYPE_IGNITION, range=LOCATION_MZONE,
                    target=lambda *a: seen.update(re=duel.core.reason_effect,
                                                  rp=duel.core.reason_player) or True)
    assert ig.is_activateable(0, _event(duel))
    assert seen == {"re": ig, "rp": 0}
    assert duel.core.reason_effect is None
    seen.clear()
    assert ig.is_activate_check(0, _event(duel)) and seen == {"re": ig, "rp": 0}


def test_activateable_card_activation(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    from duelhost.engine.duel import Duel
    monkeypatch.setattr(Duel, "get_useable_count", lambda self, *a: 1, raising=False)
    trap = place(duel, 3000, 0, LOCATION_SZONE, 1, position=POS_FACEDOWN_DEFENSE)
    act = new_effect(duel, trap, type=EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    ev = _event(duel)
    assert act.is_activateable(0, ev)
    assert not act.is_activateable(1, ev)
    trap.current.position = 1
    assert not act.is_activateable(0, ev)  # already face-up
    spell = place(duel, 2000, 0, LOCATION_HAND)
    sact = new_effect(duel, spell, type=EFFECT_TYPE_ACTIVATE, code=EVENT_FREE_CHAIN)
    assert sact.is_activateable(0, ev)
    monkeypatch.setattr(Duel, "get_useable_count", lambda self, *a: 0, raising=False)
    assert not sact.is_activateable(0, ev)
    mon = place(duel, 1000, 0, LOCATION_HAND)
    assert not new_effect(duel, mon, type=EFFECT_TYPE_ACTIVATE).is_activateable(0, ev)


def test_activateable_continuous_and_field_only(monkeypatch):
    card_stubs(monkeypatch)
    duel, _ = make_duel()
    mon = place(duel, 1000, 0, LOCATION_MZONE)
    cont = new_effect(duel, mon, type=EFFECT_TYPE_CONTINUOUS | EFFECT_TYPE_FIELD,
                      range=LOCATION_MZONE, cost=lambda *a: False)
    ev = _event(duel)
    assert cont.is_activateable(0, ev)
    assert cont.is_activateable(1, ev)  # continuous effects are not restricted by player
    mon.set_status(STATUS_DISABLED, True)
    assert not cont.is_activateable(0, ev)
    g = new_effect(duel, duel.temp_card, type=EFFECT_TYPE_CONTINUOUS | EFFECT_TYPE_FIELD,
                   handler=None, code=EVENT_ADJUST)
    duel.add_effect(g, 1)
    assert g.is_activateable(1, ev) and not g.is_activateable(0, ev)
