"""The Duel library's actions (bindings/lib_duel_actions.py) run from Lua in a real duel.

Each test places cards by hand, runs a Lua snippet as the operation of the
test operator card (tests/data/lib_duel_a/c991001.lua) with the strict Lua
host, answers the prompts like a host, and checks where cards went, the
messages and events, LP, and the values (and their Lua types) the script got.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from duelhost.bindings.errors import ScriptFailure
from duelhost.engine.constants import *  # noqa: F401,F403
from duelhost.engine.core_constants import *  # noqa: F401,F403
from duelhost.engine.messages import (MsgConfirmCards, MsgConfirmDecktop, MsgLpUpdate, MsgSelectCard,
                                      MsgSelectCounter, MsgSelectPosition, MsgShuffleSetCard)
from duelhost.engine.wire import pack_i32


def _load_harness():
    name = "lib_duel_a_harness"
    if name in sys.modules:
        return sys.modules[name]
    path = Path(__file__).resolve().parent / "data" / "lib_duel_a" / "harness.py"
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod


H = _load_harness()
Table, names = H.Table, H.names
A, B, TOKEN, EFFECT_MON = H.MONSTER_A, H.MONSTER_B, H.TOKEN, H.EFFECT_MON


def counter_answer(*counts: int) -> bytes:
    """A SELECT_COUNTER answer: how many counters from each offered card (16-bit each)."""
    return b"".join(c.to_bytes(2, "little") for c in counts)


# ===== moving cards =======================================================================

def test_destroy_card_and_group_return_integer_counts_and_raise_events():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0, player=1)
    b = t.card(B, LOCATION_MZONE, 1, player=1)
    c = t.card(A, LOCATION_MZONE, 2, player=1)
    msgs, _ = t.run("""
        local e, tp = ...
        local n1 = Duel.Destroy(Duel.GetFieldCard(1, LOCATION_MZONE, 0), REASON_EFFECT)
        local g = Group.FromCards(Duel.GetFieldCard(1, LOCATION_MZONE, 1), Duel.GetFieldCard(1, LOCATION_MZONE, 2))
        local n2 = Duel.Destroy(g, REASON_EFFECT, LOCATION_REMOVED)
        assert(math.type(n1) == "integer" and math.type(n2) == "integer")
        return n1, n2
    """)
    assert t.results() == (1, 2)
    assert a.current.location == LOCATION_GRAVE
    assert b.current.location == LOCATION_REMOVED and c.current.location == LOCATION_REMOVED
    assert a.current.reason == REASON_EFFECT | REASON_DESTROY and a.current.reason_player == 0
    assert t.times(w, EVENT_DESTROYED) == 2
    assert names(msgs).count("MOVE") == 3


def test_destroy_reason_player_argument():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0, player=1)
    t.run("Duel.Destroy(Duel.GetFieldCard(1, LOCATION_MZONE, 0), REASON_EFFECT, LOCATION_GRAVE, 1)")
    assert a.current.location == LOCATION_GRAVE and a.current.reason_player == 1


def test_destroy_argument_errors_use_the_reference_wording():
    t = Table()
    t.run("""
        local ok1, err1 = pcall(Duel.Destroy, 5, REASON_EFFECT)
        local ok2, err2 = pcall(Duel.Destroy, nil)
        return ok1, err1, ok2, err2
    """)
    ok1, err1, ok2, err2 = t.results()
    assert ok1 is False and 'Parameter 1 should be "Card" or "Group".' in err1
    assert ok2 is False and "2 Parameters are needed." in err2


def test_actions_are_refused_in_a_plain_call():
    t = Table()
    t.card(A, LOCATION_MZONE, 0, player=1)
    with pytest.raises(ScriptFailure, match="Action is not allowed here."):
        t.plain("Duel.Destroy(Duel.GetFieldCard(1, LOCATION_MZONE, 0), REASON_EFFECT)")
    with pytest.raises(ScriptFailure, match="Action is not allowed here."):
        t.plain("Duel.CreateToken(0, ...)", TOKEN)


def test_remove_face_down_and_sendto_grave():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0, player=1)
    b = t.card(B, LOCATION_HAND, player=0)
    t.run("""
        local e, tp = ...
        local n1 = Duel.Remove(Duel.GetFieldCard(1, LOCATION_MZONE, 0), POS_FACEDOWN, REASON_EFFECT)
        return n1
    """)
    assert t.results() == (1,)
    assert a.current.location == LOCATION_REMOVED and a.current.position == POS_FACEDOWN
    assert t.times(w, EVENT_REMOVE) == 1
    t.run("return Duel.SendtoGrave(Duel.GetFieldCard(0, LOCATION_HAND, 0), REASON_EFFECT + REASON_DISCARD)")
    assert t.results() == (1,)
    assert b.current.location == LOCATION_GRAVE
    assert b.current.reason == REASON_EFFECT | REASON_DISCARD
    assert t.times(w, EVENT_TO_GRAVE) == 1


def test_sendto_hand_nil_player_goes_to_the_owner_and_operated_group_has_it():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0, player=1, owner=0)
    t.run("""
        local c = Duel.GetFieldCard(1, LOCATION_MZONE, 0)
        local n = Duel.SendtoHand(c, nil, REASON_EFFECT)
        local g = Duel.GetOperatedGroup()
        return n, g:GetCount(), g:IsContains(c)
    """)
    assert t.results() == (1, 1, True)
    assert a.current.location == LOCATION_HAND and a.current.controler == 0


def test_sendto_deck_top_and_bottom():
    t = Table()
    for _ in range(3):
        t.card(B, LOCATION_DECK)
    a = t.card(A, LOCATION_GRAVE)
    c = t.card(A, LOCATION_GRAVE)
    t.run("""
        local g1 = Duel.GetFieldCard(0, LOCATION_GRAVE, 0)
        local g2 = Duel.GetFieldCard(0, LOCATION_GRAVE, 1)
        local n1 = Duel.SendtoDeck(g1, nil, SEQ_DECKTOP, REASON_EFFECT)
        local n2 = Duel.SendtoDeck(g2, 0, SEQ_DECKBOTTOM, REASON_EFFECT)
        return n1, n2
    """)
    assert t.results() == (1, 1)
    deck = t.duel.player[0].list_main
    assert deck[-1] is a and deck[0] is c


def test_release_tributes_to_the_graveyard():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0)
    t.run("return Duel.Release(Duel.GetFieldCard(0, LOCATION_MZONE, 0), REASON_COST)")
    assert t.results() == (1,)
    assert a.current.location == LOCATION_GRAVE and a.current.reason == REASON_COST | REASON_RELEASE
    assert t.times(w, EVENT_RELEASE) == 1


def test_change_position_card_returns_count():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0, player=1)
    t.run("return Duel.ChangePosition(Duel.GetFieldCard(1, LOCATION_MZONE, 0), POS_FACEUP_DEFENSE)")
    assert t.results() == (1,)
    assert a.current.position == POS_FACEUP_DEFENSE
    assert t.times(w, EVENT_CHANGE_POS) == 1


def test_move_to_field_returns_boolean_and_places_the_card():
    t = Table()
    t.card(H.NORMAL_SPELL, LOCATION_HAND)
    msgs, _ = t.run("""
        local e, tp = ...
        local c = Duel.GetFieldCard(0, LOCATION_HAND, 0)
        return Duel.MoveToField(c, tp, tp, LOCATION_SZONE, POS_FACEUP, true)
    """)
    assert t.results() == (True,)
    c = t.duel.player[0].list_szone[0]
    assert c is not None and c.data.code == H.NORMAL_SPELL and c.current.position == POS_FACEUP
    assert "MOVE" in names(msgs)


def test_move_to_field_field_zone():
    t = Table()
    t.card(H.FIELD_SPELL, LOCATION_HAND)
    t.run("return Duel.MoveToField(Duel.GetFieldCard(0, LOCATION_HAND, 0), 0, 0, LOCATION_FZONE, POS_FACEUP, true)")
    assert t.results() == (True,)
    assert t.duel.player[0].list_szone[5] is not None


def test_return_to_field_only_for_temporarily_banished_cards():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 2)
    t.run("""
        local c = Duel.GetFieldCard(0, LOCATION_MZONE, 2)
        local n0 = Duel.ReturnToField(c)
        Duel.Remove(c, POS_FACEUP, REASON_EFFECT + REASON_TEMPORARY)
        local gone = c:GetLocation()
        local back = Duel.ReturnToField(c)
        return n0, gone, back
    """)
    assert t.results() == (None, LOCATION_REMOVED, True)
    assert a.current.location == LOCATION_MZONE and a.current.position == POS_FACEUP_ATTACK


def test_move_sequence_and_swap_sequence_raise_move_events():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 1)
    t.run("Duel.MoveSequence(Duel.GetFieldCard(0, LOCATION_MZONE, 0), 3)")
    assert t.count() == 0
    assert a.current.sequence == 3 and t.duel.player[0].list_mzone[3] is a
    assert t.times(w, EVENT_MOVE) == 1
    t.run("Duel.SwapSequence(Duel.GetFieldCard(0, LOCATION_MZONE, 3), Duel.GetFieldCard(0, LOCATION_MZONE, 1))")
    assert a.current.sequence == 1 and b.current.sequence == 3
    assert t.times(w, EVENT_MOVE) == 2
    assert set(t.seen(w, EVENT_MOVE).label_object.container) == {a, b}


# ===== summons ===============================================================================

def test_create_token_has_no_location_and_the_database_identity():
    t = Table()
    t.run("""
        local e, tp = ...
        local tk = Duel.CreateToken(tp, %d)
        return tk, tk:GetCode(), tk:GetAttack(), tk:GetLevel(), tk:GetLocation(), tk:GetControler(),
            tk:GetOwner(), Duel.CreateToken(5, %d)
    """ % (TOKEN, TOKEN))
    tk, code, atk, lv, loc, ctrl, owner, bad = t.results()
    assert (code, atk, lv, loc, ctrl, owner) == (TOKEN, 0, 1, 0, 0, 0)
    assert tk.current.location == 0 and tk.data.type & TYPE_TOKEN
    assert bad is False


def test_create_token_unknown_code_makes_a_blank_card_with_a_warning():
    t = Table()
    t.run("""
        local ok, tk = pcall(Duel.CreateToken, 0, %d)
        return ok, tk:GetCode()
    """ % H.UNKNOWN)
    assert t.results() == (True, H.UNKNOWN)
    assert str(H.UNKNOWN) in t.duel.warnings[-1]


def test_special_summon_faceup_lets_the_player_choose_attack_or_defense():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_GRAVE)
    msgs, prompts = t.run("""
        local e, tp = ...
        return Duel.SpecialSummon(Duel.GetFieldCard(0, LOCATION_GRAVE, 0), 0, tp, tp, false, false, POS_FACEUP)
    """, answers=[bytes([0, LOCATION_MZONE, 2]), pack_i32(POS_FACEUP_DEFENSE)])
    pos_prompts = [p for p in prompts if isinstance(p, MsgSelectPosition)]
    assert len(pos_prompts) == 1 and pos_prompts[0].positions == POS_FACEUP_ATTACK | POS_FACEUP_DEFENSE
    assert t.results() == (1,)
    assert a.current.location == LOCATION_MZONE and a.current.sequence == 2
    assert a.current.position == POS_FACEUP_DEFENSE
    assert a.summon_info & SUMMON_TYPE_SPECIAL
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 1
    assert names(msgs) == ["HINT", "SELECT_PLACE", "SELECT_POSITION", "MOVE", "SPSUMMONING", "SPSUMMONED"]


def test_special_summon_single_position_asks_nothing():
    t = Table()
    t.card(A, LOCATION_HAND)
    _, prompts = t.run("""
        local e, tp = ...
        return Duel.SpecialSummon(Duel.GetFieldCard(0, LOCATION_HAND, 0), 0, tp, tp, false, false, POS_FACEUP_ATTACK)
    """)
    assert not any(isinstance(p, MsgSelectPosition) for p in prompts)
    assert t.results() == (1,)


def test_special_summon_step_returns_booleans_and_complete_raises_events_once():
    t = Table()
    w = t.watcher()
    t.card(A, LOCATION_GRAVE)
    t.card(B, LOCATION_GRAVE)
    busy = t.card(A, LOCATION_MZONE, 4)
    msgs, _ = t.run("""
        local e, tp = ...
        local c1 = Duel.GetFieldCard(0, LOCATION_GRAVE, 0)
        local c2 = Duel.GetFieldCard(0, LOCATION_GRAVE, 1)
        local s1 = Duel.SpecialSummonStep(c1, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local s2 = Duel.SpecialSummonStep(c2, 0, tp, tp, false, false, POS_FACEUP_ATTACK)
        local s3 = Duel.SpecialSummonStep(Duel.GetFieldCard(0, LOCATION_MZONE, 4), 0, tp, tp, false, false,
            POS_FACEUP_ATTACK)
        local n = Duel.SpecialSummonComplete()
        return s1, s2, s3, n
    """)
    assert t.results() == (True, True, False, 2)
    assert names(msgs).count("SPSUMMONING") == 2 and names(msgs).count("SPSUMMONED") == 1
    assert t.times(w, EVENT_SPSUMMON_SUCCESS) == 1
    eg = t.seen(w, EVENT_SPSUMMON_SUCCESS).label_object
    assert len(eg.container) == 2 and busy not in eg.container


def test_summon_from_hand_outside_a_chain():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_HAND)
    t.run("""
        local e, tp = ...
        Duel.Summon(tp, Duel.GetFieldCard(0, LOCATION_HAND, 0), true, nil)
    """)
    assert a.current.location == LOCATION_MZONE and a.summon_info & SUMMON_TYPE_NORMAL
    assert t.times(w, EVENT_SUMMON_SUCCESS) == 1


def test_summon_invalid_player_returns_nothing_and_checks_the_card_first():
    t = Table()
    t.card(A, LOCATION_HAND)
    t.run("""
        Duel.Summon(7, Duel.GetFieldCard(0, LOCATION_HAND, 0), true, nil)
        local ok, err = pcall(Duel.Summon, 7, 5, true, nil)
        return ok, err
    """)
    ok, err = t.results()
    assert ok is False and 'Parameter 2 should be "Card".' in err
    assert t.duel.player[0].list_hand[0].current.location == LOCATION_HAND


def test_sset_sets_a_spell_face_down():
    t = Table()
    w = t.watcher()
    s = t.card(H.NORMAL_SPELL, LOCATION_HAND)
    t.run("""
        local e, tp = ...
        return Duel.SSet(tp, Duel.GetFieldCard(0, LOCATION_HAND, 0))
    """)
    assert t.results() == (1,)
    assert s.current.location == LOCATION_SZONE and s.current.position == POS_FACEDOWN
    assert t.times(w, EVENT_SSET) == 1


# ===== counters ================================================================================

def test_remove_counter_always_asks_with_the_counter_selection():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0)
    a.counters[0x3] = 2
    _, prompts = t.run("""
        local e, tp = ...
        return Duel.RemoveCounter(tp, 1, 0, 0x3, 1, REASON_COST)
    """, answers=[counter_answer(1)])
    sel = [p for p in prompts if isinstance(p, MsgSelectCounter)]
    assert len(sel) == 1 and sel[0].counter_type == 0x3 and sel[0].count == 1
    assert t.results() == (True,)
    assert a.get_counter(0x3) == 1
    assert t.times(w, EVENT_REMOVE_COUNTER + 0x3) == 1


def test_remove_counter_from_both_fields_and_impossible_case():
    t = Table()
    a = t.card(A, LOCATION_MZONE, 0)
    b = t.card(B, LOCATION_MZONE, 0, player=1)
    a.counters[0x3] = 1
    b.counters[0x3] = 2
    t.run("return Duel.RemoveCounter(0, 1, 1, 0x3, 3, REASON_EFFECT)", answers=[counter_answer(1, 2)])
    assert t.results() == (True,)
    assert a.get_counter(0x3) == 0 and b.get_counter(0x3) == 0
    _, prompts = t.run("return Duel.RemoveCounter(0, 1, 1, 0x3, 1, REASON_EFFECT)")
    assert t.results() == (False,) and prompts == []


# ===== LP, drawing ==============================================================================

def test_set_lp_writes_lpupdate_and_clamps_negative():
    t = Table()
    msgs, _ = t.run("Duel.SetLP(1, 1234) ; Duel.SetLP(0, -50) ; return Duel.GetLP(1), Duel.GetLP(0)")
    assert t.results() == (1234, 0)
    ups = [m for m in msgs if isinstance(m, MsgLpUpdate)]
    assert [(m.player, m.lp) for m in ups] == [(1, 1234), (0, 0)]


def test_damage_and_recover_return_amounts_and_truncate_numbers():
    t = Table()
    w = t.watcher()
    t.run("""
        local d = Duel.Damage(1, 500.9, REASON_EFFECT)
        local r = Duel.Recover(0, 300, REASON_EFFECT)
        local z = Duel.Damage(1, -20, REASON_EFFECT)
        assert(math.type(d) == "integer")
        return d, r, z
    """)
    assert t.results() == (500, 300, 0)
    assert t.duel.player[1].lp == 7500 and t.duel.player[0].lp == 8300
    assert t.times(w, EVENT_DAMAGE) == 1 and t.times(w, EVENT_RECOVER) == 1


def test_damage_step_waits_for_rd_complete():
    t = Table()
    t.run("""
        Duel.Damage(1, 100, REASON_EFFECT, true)
        Duel.Recover(0, 200, REASON_EFFECT, true)
        local before1, before0 = Duel.GetLP(1), Duel.GetLP(0)
        Duel.RDComplete()
        return before1, before0, Duel.GetLP(1), Duel.GetLP(0)
    """)
    assert t.results() == (8000, 8000, 7900, 8200)


def test_pay_lp_cost():
    t = Table()
    w = t.watcher()
    t.run("Duel.PayLPCost(0, 1000) ; return Duel.GetLP(0)")
    assert t.results() == (7000,)
    assert t.times(w, EVENT_PAY_LPCOST) == 1


def test_draw_returns_the_number_drawn():
    t = Table()
    w = t.watcher()
    for _ in range(3):
        t.card(B, LOCATION_DECK)
    t.run("return Duel.Draw(0, 2, REASON_EFFECT), Duel.Draw(1, 1, REASON_EFFECT)")
    assert t.results() == (2, 0)
    assert len(t.duel.player[0].list_hand) == 2
    assert t.times(w, EVENT_DRAW) == 1


def test_win_records_the_first_winner_only():
    t = Table()
    t.run("Duel.Win(1, 0x20) ; Duel.Win(0, 0x21)")
    assert (t.duel.core.win_player, t.duel.core.win_reason) == (1, 0x20)


# ===== flag effects ===============================================================================

def test_player_flag_effects_register_count_labels_and_reset():
    t = Table()
    t.run("""
        local e, tp = ...
        local fe = Duel.RegisterFlagEffect(tp, 12345, RESET_PHASE + PHASE_END, 0, 1, 77)
        Duel.RegisterFlagEffect(tp, 12345, RESET_PHASE + PHASE_END, 0, 1)
        local ct = Duel.GetFlagEffect(tp, 12345)
        local l1, l2 = Duel.GetFlagEffectLabel(tp, 12345)
        local none = Duel.GetFlagEffectLabel(1 - tp, 12345)
        local set = Duel.SetFlagEffectLabel(tp, 12345, 5)
        local unset = Duel.SetFlagEffectLabel(1 - tp, 12345, 5)
        local l3 = Duel.GetFlagEffectLabel(tp, 12345)
        Duel.ResetFlagEffect(tp, 12345)
        return fe, ct, l1, l2, none, set, unset, l3, Duel.GetFlagEffect(tp, 12345)
    """)
    fe, ct, l1, l2, none, set_, unset, l3, after = t.results()
    assert (ct, l1, l2, none, set_, unset, l3, after) == (2, 77, 0, None, True, False, 5, 0)
    assert fe.code == (12345 | EFFECT_FLAG_EFFECT)
    assert fe.reset_flag == RESET_PHASE | PHASE_END | RESET_SELF_TURN | RESET_OPPO_TURN
    assert fe.is_flag(EFFECT_FLAG_PLAYER_TARGET) and fe.is_flag(EFFECT_FLAG_CANNOT_DISABLE)


def test_register_effect_to_a_player_and_skip_phase():
    t = Table()
    t.run("""
        local e, tp = ...
        local pe = Effect.CreateEffect(e:GetHandler())
        pe:SetType(EFFECT_TYPE_FIELD)
        pe:SetCode(EFFECT_CANNOT_DRAW)
        pe:SetProperty(EFFECT_FLAG_PLAYER_TARGET)
        pe:SetTargetRange(0, 1)
        Duel.RegisterEffect(pe, tp)
        Duel.SkipPhase(1, PHASE_BATTLE, RESET_PHASE + PHASE_END, 1)
    """)
    d = t.duel
    assert not d.is_player_can_draw(1) and d.is_player_can_draw(0)
    skips = d.filter_player_effect(1, EFFECT_SKIP_BP)
    assert len(skips) == 1 and skips[0].reset_flag == PHASE_END | RESET_PHASE | RESET_SELF_TURN


# ===== showing, sorting, shuffling ====================================================================

def test_confirm_cards_and_decktop_messages():
    t = Table()
    deck = [t.card(code, LOCATION_DECK) for code in (A, B, A)]
    h = t.card(B, LOCATION_HAND)
    msgs, _ = t.run("""
        local e, tp = ...
        Duel.ConfirmCards(1 - tp, Duel.GetFieldCard(0, LOCATION_HAND, 0))
        Duel.ConfirmDecktop(tp, 2)
        Duel.ConfirmDecktop(tp, 10)
        Duel.ConfirmCards(1 - tp, Group.CreateGroup())
    """)
    cc = [m for m in msgs if isinstance(m, MsgConfirmCards)]
    assert len(cc) == 1 and cc[0].player == 1 and [c.code for c in cc[0].cards] == [B]
    assert cc[0].cards[0].location == LOCATION_HAND
    dt = [m for m in msgs if isinstance(m, MsgConfirmDecktop)]
    assert [[c.sequence for c in m.cards] for m in dt] == [[2, 1], [2, 1, 0]]
    assert [c.code for c in dt[0].cards] == [deck[2].data.code, deck[1].data.code]
    assert h.current.location == LOCATION_HAND


def test_shuffle_set_card_moves_face_down_cards_among_their_zones():
    t = Table()
    cards = [t.card(A, LOCATION_MZONE, s, pos=POS_FACEDOWN_DEFENSE) for s in (0, 1, 2)]
    msgs, _ = t.run("""
        local g = Group.FromCards(Duel.GetFieldCard(0, LOCATION_MZONE, 0), Duel.GetFieldCard(0, LOCATION_MZONE, 1),
            Duel.GetFieldCard(0, LOCATION_MZONE, 2))
        Duel.ShuffleSetCard(g)
    """)
    ms = [m for m in msgs if isinstance(m, MsgShuffleSetCard)]
    assert len(ms) == 1 and ms[0].location == LOCATION_MZONE and len(ms[0].previous) == 3
    assert sorted(c.current.sequence for c in cards) == [0, 1, 2]
    for c in cards:
        assert t.duel.player[0].list_mzone[c.current.sequence] is c


def test_shuffle_set_card_ignores_face_up_cards():
    t = Table()
    t.card(A, LOCATION_MZONE, 0, pos=POS_FACEDOWN_DEFENSE)
    t.card(A, LOCATION_MZONE, 1, pos=POS_FACEUP_ATTACK)
    msgs, _ = t.run("""
        Duel.ShuffleSetCard(Group.FromCards(Duel.GetFieldCard(0, LOCATION_MZONE, 0),
            Duel.GetFieldCard(0, LOCATION_MZONE, 1)))
    """)
    assert not any(isinstance(m, MsgShuffleSetCard) for m in msgs)


def test_discard_hand_selects_matching_cards_and_returns_count():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_HAND)
    b = t.card(B, LOCATION_HAND)
    _, prompts = t.run("""
        local e, tp = ...
        local function f(c, code) return c:IsCode(code) end
        local none = Duel.DiscardHand(tp, f, 1, 1, REASON_EFFECT + REASON_DISCARD, nil, 12345)
        local n = Duel.DiscardHand(tp, f, 1, 1, REASON_EFFECT + REASON_DISCARD, nil, %d)
        return none, n
    """ % B, answers=[bytes([1, 0])])
    assert t.results() == (0, 1)
    sel = [p for p in prompts if isinstance(p, MsgSelectCard)]
    assert len(sel) == 1 and [c.code for c in sel[0].cards] == [B]
    assert b.current.location == LOCATION_GRAVE and a.current.location == LOCATION_HAND
    assert b.current.reason & REASON_DISCARD
    assert t.times(w, EVENT_DISCARD) == 1


def test_discard_deck_sends_the_top_cards():
    t = Table()
    deck = [t.card(B, LOCATION_DECK) for _ in range(4)]
    t.run("return Duel.DiscardDeck(0, 2, REASON_EFFECT)")
    assert t.results() == (2,)
    assert [c.current.location for c in deck] == [LOCATION_DECK, LOCATION_DECK, LOCATION_GRAVE, LOCATION_GRAVE]


def test_shuffle_check_flags():
    t = Table()
    t.plain("Duel.DisableShuffleCheck() ; Duel.DisableSelfDestroyCheck(false) ; Duel.RevealSelectDeckSequence(1)")
    core = t.duel.core
    assert core.shuffle_check_disabled is True and core.selfdes_disabled is False
    assert core.select_deck_sequence_revealed is True


# ===== events ===================================================================================

def test_raise_event_reaches_continuous_effects_with_its_values():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0)
    t.run("""
        local e, tp = ...
        Duel.RaiseEvent(Duel.GetFieldCard(0, LOCATION_MZONE, 0), EVENT_CUSTOM + 991030, e, REASON_EFFECT, tp, 1, 42)
    """)
    seen = t.seen(w, EVENT_CUSTOM + 991030)
    assert seen.label == [1, 42, 1, REASON_EFFECT, 0]
    assert list(seen.label_object.container) == [a]


def test_break_effect_raises_its_event():
    t = Table()
    w = t.watcher()
    t.run("Duel.BreakEffect()")
    assert t.times(w, EVENT_BREAK_EFFECT) == 1


# ===== equips and control ======================================================================

def test_equip_and_equip_complete():
    t = Table()
    w = t.watcher()
    m = t.card(A, LOCATION_MZONE, 0)
    t.card(H.EQUIP_SPELL, LOCATION_HAND)
    t.run("""
        local e, tp = ...
        local eq = Duel.GetFieldCard(0, LOCATION_HAND, 0)
        local ok = Duel.Equip(tp, eq, Duel.GetFieldCard(0, LOCATION_MZONE, 0), true, true)
        Duel.EquipComplete()
        return ok
    """)
    assert t.results() == (True,)
    eq = next(c for c in t.duel.player[0].list_szone if c is not None and c.data.code == H.EQUIP_SPELL)
    assert eq.equiping_target is m
    assert t.times(w, EVENT_EQUIP) == 1


def test_get_control_moves_the_monster():
    t = Table()
    w = t.watcher()
    a = t.card(A, LOCATION_MZONE, 0, player=1)
    t.run("""
        local e, tp = ...
        return Duel.GetControl(Duel.GetFieldCard(1, LOCATION_MZONE, 0), tp)
    """)
    assert t.results() == (1,)
    assert a.current.controler == 0 and a.current.location == LOCATION_MZONE
    assert t.times(w, EVENT_CONTROL_CHANGED) == 1


def test_swap_control_argument_error():
    t = Table()
    t.card(A, LOCATION_MZONE, 0)
    t.run("""
        local ok, err = pcall(Duel.SwapControl, Duel.GetFieldCard(0, LOCATION_MZONE, 0), Group.CreateGroup())
        return ok, err
    """)
    ok, err = t.results()
    assert ok is False and 'Parameter 1 should be "Card" or "Group".' in err


# ===== summon counts ===============================================================================

def test_increase_summoned_count_uses_the_normal_summon():
    t = Table()
    t.run("""
        local before = Duel.CheckSummonedCount()
        Duel.IncreaseSummonedCount()
        return before, Duel.CheckSummonedCount()
    """)
    assert t.results() == (True, False)
    assert t.duel.core.summon_count == [1, 0]


# ===== "no values" ==============================================================================

def test_functions_that_return_nothing_give_zero_values():
    t = Table()
    t.card(A, LOCATION_HAND)
    t.card(A, LOCATION_MZONE, 0)
    t.run("""
        local e, tp = ...
        return select("#", Duel.ReturnToField(Duel.GetFieldCard(0, LOCATION_MZONE, 0))),
            select("#", Duel.Summon(7, Duel.GetFieldCard(0, LOCATION_HAND, 0), true, nil)),
            select("#", Duel.ConfirmCards(1 - tp, Group.CreateGroup())),
            select("#", Duel.ShuffleHand(tp)),
            select("#", Duel.SetLP(5, 100))
    """)
    assert t.results() == (0, 0, 0, 0, 0)


def test_summon_during_a_chain_waits_for_the_link_to_resolve():
    t = Table()
    a = t.card(A, LOCATION_HAND)
    msgs, _ = t.run_chain("""
        local e, tp = ...
        local c = Duel.GetFieldCard(0, LOCATION_HAND, 0)
        Duel.Summon(tp, c, true, nil)
        return c:GetLocation()
    """)
    assert t.results() == (LOCATION_HAND,)       # still in the hand when the script resumes
    assert a.current.location == LOCATION_MZONE  # summoned once the chain link was done
    n = names(msgs)
    assert n.index("CHAIN_SOLVED") < n.index("SUMMONING")


def test_negate_attack_without_an_attack_is_false():
    t = Table()
    t.run("return Duel.NegateAttack()")
    assert t.results() == (False,)


def test_change_battle_damage_only_replaces_existing_damage_unless_told():
    t = Table()
    core = t.duel.core
    t.plain("Duel.ChangeBattleDamage(1, 700)")
    assert core.battle_damage == [0, 0]
    t.plain("Duel.ChangeBattleDamage(1, 700, false)")
    assert core.battle_damage == [0, 700]
    t.plain("Duel.ChangeBattleDamage(1, 0)")
    assert core.battle_damage == [0, 0]
