"""Issue 3, item 4: effects and chains, played with our rules cards (cards/rules.toml).

Spell/Trap activation (from the hand, Set then activated, Quick-Play, Counter Trap
speeds), ignition/quick/trigger effects (single and field, mandatory and optional,
"when ... you can" missing its timing vs "if ... you can"), SEGOC, chains of
several links, cost/target/operation with chk==0, targets, operation info,
negation of activation and of effect, count limits (shared codes, oath), resets,
labels and label objects, flag effects, global effects and custom events.
"""

from __future__ import annotations

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgBecomeTarget, MsgChainEnd, MsgChained, MsgChaining,
                                      MsgChainNegated, MsgChainDisabled, MsgChainSolved, MsgChainSolving,
                                      MsgDamage, MsgMissedEffect, MsgMove, MsgSelectCard, MsgSelectChain,
                                      MsgSelectEffectYn)
from duelhost.engine.responses import YesNoResponse

from rules_board import (ARCHIVIST, BAILIFF, BRIEF_SURGE, CLERK, ECHO_CHAMBER, FLARE_WATCHER,
                         GRAVE_CENSUS, HERALD, HUSH, STEADFAST_VERDICT, LASTING_SURGE, LEDGER,
                         MARK_OF_THE_HUNTED, OATH, QUICK_MEND, REBUKE, REVIVAL_RITE, SAPLING,
                         SCRIBE, SECOND_WIND, SEEDLING, SENTINEL, SIGNAL_FLARE, SNARE_PIT,
                         SPARK_BOLT, TALLY, TITHE_COLLECTOR, TOLL_GATE, WATCHMAN, Board, pick)

LOC_HAND, LOC_GRAVE, LOC_SZONE, LOC_MZONE = C.LOCATION_HAND, C.LOCATION_GRAVE, C.LOCATION_SZONE, C.LOCATION_MZONE


def activatable(b: Board) -> list[int]:
    return [o.card_code for o in b.idle().activatable]


# ===== Spell/Trap activation ==============================================================

def test_normal_spell_from_the_hand_resolves_as_a_one_link_chain():
    b = Board()
    bolt = b.hand(SPARK_BOLT)
    b.start()
    assert SPARK_BOLT in activatable(b)
    start = b.mark()
    b.activate(SPARK_BOLT)
    assert b.lp(1) == 7700 and b.lp(0) == 8000
    names = [m.NAME for m in b.messages((MsgChaining, MsgChained, MsgChainSolving, MsgDamage,
                                          MsgChainSolved, MsgChainEnd), start)]
    assert names == ["CHAINING", "CHAINED", "CHAIN_SOLVING", "DAMAGE", "CHAIN_SOLVED", "CHAIN_END"]
    chaining = b.messages(MsgChaining, start)[0]
    assert chaining.code == SPARK_BOLT and chaining.chain_count == 1
    assert bolt.current.location == LOC_GRAVE
    # the opponent was offered a response (and had nothing to chain)
    assert b.asked(MsgSelectChain, 1) == [] or all(not p.chains for p in b.asked(MsgSelectChain, 1))


def test_set_normal_spell_can_be_activated_the_same_turn_but_a_set_trap_cannot():
    b = Board()
    b.hand(SPARK_BOLT)
    b.hand(ECHO_CHAMBER)
    b.start()
    b.set_spell(SPARK_BOLT)
    b.set_spell(ECHO_CHAMBER)
    assert b.codes(0, LOC_SZONE) == [SPARK_BOLT, ECHO_CHAMBER]
    assert SPARK_BOLT in activatable(b)
    assert ECHO_CHAMBER not in activatable(b)
    b.activate(SPARK_BOLT)
    assert b.lp(1) == 7700
    b.end_turn()                 # player 1's turn: the Trap Set last turn can be activated now
    b.chain(0, ECHO_CHAMBER)
    b.end_turn()                 # player 0 responds when player 1 leaves the Main Phase...
    assert ECHO_CHAMBER in b.codes(0, LOC_GRAVE)
    assert len(b.codes(0, LOC_HAND)) == 1
    # ... and after a chain there, player 1 is back in its Main Phase 1
    assert (b.duel.turn, b.duel.turn_player, b.duel.phase) == (2, 1, C.PHASE_MAIN1)
    b.end_turn()
    assert (b.duel.turn, b.duel.turn_player) == (3, 0) and len(b.codes(0, LOC_HAND)) == 2


def test_quick_play_spell_from_the_hand_only_in_your_own_turn_and_not_the_turn_it_is_set():
    b = Board()
    b.hand(QUICK_MEND, 1)
    b.hand(QUICK_MEND, 0)
    b.spell(SPARK_BOLT, 0, set_=True)
    b.start()
    b.set_spell(QUICK_MEND)
    assert QUICK_MEND not in activatable(b)       # a Quick-Play Spell Set this turn
    b.activate(SPARK_BOLT)
    # player 1 may not activate a Quick-Play Spell from the hand during player 0's turn
    assert all(QUICK_MEND not in offer for offer in b.chain_offers(1))
    b.end_turn()
    assert b.duel.turn_player == 1 and QUICK_MEND in activatable(b)    # its own turn: yes
    b.activate(QUICK_MEND)
    assert b.lp(1) == 8200
    b.chain(0, QUICK_MEND)                        # the Set one, in the opponent's turn
    b.end_turn()
    assert b.lp(0) == 8500


def test_counter_trap_speed_only_counter_traps_can_respond_to_it():
    b = Board()
    b.hand(SPARK_BOLT, 0)
    b.spell(QUICK_MEND, 0, set_=True)
    b.spell(REBUKE, 0, 1, set_=True)
    b.spell(REBUKE, 1, set_=True)
    b.spell(ECHO_CHAMBER, 1, 1, set_=True)
    b.start()
    b.chain(1, REBUKE)
    n = b.pmark()
    b.activate(SPARK_BOLT)
    offers0 = b.chain_offers(0, n)
    # player 1 could answer Spark Bolt (spell speed 1) with a Trap or a Counter Trap
    assert sorted(b.chain_offers(1, n)[0]) == sorted([REBUKE, ECHO_CHAMBER])
    # after the Counter Trap (spell speed 3) player 0 is offered its Counter Trap only
    assert offers0 and offers0[0] == [REBUKE]
    # Spark Bolt's activation was negated and it was destroyed; no damage
    assert b.lp(1) == 8000
    assert SPARK_BOLT in b.codes(0, LOC_GRAVE)
    negated = b.messages(MsgChainNegated)
    assert [m.chain_count for m in negated] == [1]


def test_negating_a_counter_trap_with_a_counter_trap_lets_the_first_link_resolve():
    b = Board()
    b.hand(SPARK_BOLT, 0)
    b.spell(REBUKE, 0, 1, set_=True)
    b.spell(REBUKE, 1, set_=True)
    b.start()
    b.chain(1, REBUKE).chain(0, REBUKE)
    start = b.mark()
    b.activate(SPARK_BOLT)
    chains = [(m.code, m.chain_count) for m in b.messages(MsgChaining, start)]
    assert chains == [(SPARK_BOLT, 1), (REBUKE, 2), (REBUKE, 3)]
    solving = [m.chain_count for m in b.messages(MsgChainSolving, start)]
    assert solving == [3, 2, 1]                   # last in, first out
    assert [m.chain_count for m in b.messages(MsgChainNegated, start)] == [2]
    assert b.lp(1) == 7700                        # Spark Bolt resolved
    assert REBUKE in b.codes(1, LOC_GRAVE)


# ===== ignition, quick and trigger effects ==========================================

def test_ignition_effect_with_a_cost_and_chk0_and_once_per_turn():
    b = Board()
    b.monster(SCRIBE)
    b.hand(CLERK)
    b.start()
    assert SCRIBE in activatable(b)
    b.expect(MsgSelectCard, pick(CLERK))         # the discard (cost)
    b.activate(SCRIBE)
    assert b.codes(0, LOC_GRAVE) == [CLERK]
    assert len(b.codes(0, LOC_HAND)) == 1         # drew 1
    assert SCRIBE not in activatable(b)           # SetCountLimit(1)


def test_ignition_cost_check_chk0_hides_the_effect_when_the_cost_cannot_be_paid():
    b = Board()
    b.monster(SCRIBE)
    b.start()
    assert SCRIBE not in activatable(b)           # no card to discard


def test_quick_effect_in_the_opponents_turn_with_a_target_and_end_of_turn_reset():
    b = Board()
    b.monster(SENTINEL, 1)
    b.monster(BAILIFF, 0)
    b.hand(SPARK_BOLT, 0)
    b.start()
    b.chain(1, SENTINEL)
    b.expect(MsgSelectCard, pick(BAILIFF))
    b.activate(SPARK_BOLT)
    bailiff = b.field(0)[0]
    assert bailiff.get_attack() == 1000
    assert [m.code for m in b.messages(MsgChaining)] == [SPARK_BOLT, SENTINEL]
    b.end_turn()
    assert bailiff.get_attack() == 1500           # RESET_PHASE+PHASE_END


def test_single_mandatory_trigger_on_normal_summon():
    b = Board()
    b.hand(HERALD)
    b.start()
    start = b.mark()
    b.summon(HERALD)
    assert b.lp(0) == 8500
    chaining = b.messages(MsgChaining, start)
    assert [m.code for m in chaining] == [HERALD]
    assert b.asked(MsgSelectEffectYn) == []       # mandatory: not asked


def test_field_optional_trigger_asks_its_controller():
    b = Board()
    b.monster(WATCHMAN, 1)
    b.hand(BAILIFF, 0)
    b.start()
    n = b.pmark()
    b.summon(BAILIFF)                             # the default policy says yes
    assert b.lp(0) == 7700
    asked = b.asked(MsgSelectEffectYn, None, n)
    assert [(p.player, p.code) for p in asked] == [(1, WATCHMAN)]


def test_field_optional_trigger_may_be_declined():
    b = Board()
    b.monster(WATCHMAN, 1)
    b.hand(BAILIFF, 0)
    b.start()
    b.expect(MsgSelectEffectYn, YesNoResponse(yes=False), player=1)
    b.summon(BAILIFF)
    assert b.lp(0) == 8000
    assert not b.pending
    assert not b.messages(MsgChaining)


def test_segoc_turn_players_mandatory_then_opponents_optional():
    """A Normal Summon with three triggers: player 0's two mandatory ones (Herald's own,
    Toll Gate's field trigger), ordered by player 0, then player 1's optional one."""
    b = Board()
    b.hand(HERALD, 0)
    b.spell(TOLL_GATE, 0)
    b.monster(WATCHMAN, 1)
    b.start()
    # player 0 chooses which of its two forced triggers goes first: Toll Gate
    b.chain(0, TOLL_GATE)
    b.chain(1, WATCHMAN)         # offered in SELECT_CHAIN (not "use it?") when a chain is being built
    start, n = b.mark(), b.pmark()
    b.summon(HERALD)
    order = [(m.code, m.chain_count) for m in b.messages(MsgChaining, start)]
    assert order == [(TOLL_GATE, 1), (HERALD, 2), (WATCHMAN, 3)]
    assert [m.chain_count for m in b.messages(MsgChainSolving, start)] == [3, 2, 1]
    assert b.lp(0) == 8000 - 300 + 500 + 200
    first = [p for p in b.asked(MsgSelectChain, 0, n) if p.chains][0]
    assert sorted(o.code for o in first.chains) == sorted([HERALD, TOLL_GATE])
    assert all(o.forced for o in first.chains)


def test_when_you_can_misses_timing_but_if_you_can_does_not():
    """Snare Pit (chain link 2) destroys the monster, then Echo Chamber (link 1) draws:
    the destruction is not the last thing that happened, so the "when" trigger
    (Seedling) misses its timing (MSG_MISSED_EFFECT) and the "if" trigger (Sapling,
    EFFECT_FLAG_DELAY) activates after the chain."""
    for card, expect_trigger in ((SEEDLING, False), (SAPLING, True)):
        b = Board()
        b.monster(card, 0)
        b.spell(ECHO_CHAMBER, 0, set_=True)
        b.spell(SNARE_PIT, 1, set_=True)
        b.start()
        b.chain(1, SNARE_PIT)
        b.expect(MsgSelectCard, pick(card))
        hand_before = len(b.codes(0, LOC_HAND))
        b.activate(ECHO_CHAMBER)
        assert card in b.codes(0, LOC_GRAVE)
        yn = [p for p in b.asked(MsgSelectEffectYn) if p.code == card]
        offered = [o for offer in b.chain_offers(0) for o in offer if o == card]
        triggered = bool(yn or offered)
        assert triggered is expect_trigger, card
        drawn = len(b.codes(0, LOC_HAND)) - hand_before
        assert drawn == (2 if expect_trigger else 1)       # Echo Chamber's draw (+ the trigger's)
        if not expect_trigger:
            assert any(m.code == card for m in b.messages(MsgMissedEffect))


def test_when_you_can_triggers_when_the_destruction_is_the_last_thing():
    b = Board()
    b.monster(SEEDLING, 0)
    b.spell(SNARE_PIT, 1, set_=True)
    b.start()
    b.end_turn()                              # player 1's turn
    b.expect(MsgSelectCard, pick(SEEDLING))
    b.activate(SNARE_PIT)
    assert SEEDLING in b.codes(0, LOC_GRAVE)
    assert b.codes(0, LOC_HAND).count(CLERK) == 1       # the Seedling draw (player 0 drew nothing else)


# ===== targets, operation info, chain info ===========================================

def test_select_target_get_first_target_and_is_relate_to_effect():
    """Snare Pit targets a monster (MSG_BECOME_TARGET); the opponent returns that monster
    to the hand in response, so at resolution the target is no longer related to the
    effect and nothing is destroyed."""
    b = Board()
    b.spell(SNARE_PIT, 0, set_=True)
    b.monster(BAILIFF, 1)
    b.spell(190001071, 1, set_=True)            # Recall Order
    b.start()
    b.chain(1, 190001071)
    b.expect(MsgSelectCard, pick(BAILIFF), player=0)     # Snare Pit's target
    b.expect(MsgSelectCard, pick(BAILIFF), player=1)     # Recall Order's target
    b.activate(SNARE_PIT)
    assert not b.pending
    assert b.codes(1, LOC_HAND) == [BAILIFF]
    assert b.codes(1, LOC_GRAVE) == [190001071]
    assert b.messages(MsgBecomeTarget) != []
    destroyed = [m for m in b.messages(MsgMove) if m.reason & C.REASON_DESTROY and m.previous.location == LOC_MZONE]
    assert destroyed == []


def test_get_operation_info_sees_what_the_link_declared():
    """Stay of Execution answers only a link whose SetOperationInfo declared the
    destruction of a monster its controller controls."""
    b = Board()
    b.hand(SPARK_BOLT, 0)
    b.spell(SNARE_PIT, 0, set_=True)
    b.monster(BAILIFF, 1)
    b.spell(190001016, 1, set_=True)            # Stay of Execution
    b.start()
    n = b.pmark()
    b.activate(SPARK_BOLT)
    assert all(190001016 not in offer for offer in b.chain_offers(1, n))
    n = b.pmark()
    b.chain(1, 190001016)
    b.activate(SNARE_PIT)
    assert any(190001016 in offer for offer in b.chain_offers(1, n))
    assert b.codes(1, LOC_MZONE) == [BAILIFF]          # Snare Pit's activation was negated
    assert SNARE_PIT in b.codes(0, LOC_GRAVE)


def test_negating_an_effect_keeps_the_cost_paid_and_the_count_used():
    b = Board()
    b.monster(SCRIBE, 0)
    b.hand(CLERK, 0)
    b.spell(HUSH, 1, set_=True)
    b.start()
    b.chain(1, HUSH)
    start = b.mark()
    b.activate(SCRIBE)
    assert b.codes(0, LOC_GRAVE) == [CLERK]            # the discard cost stays paid
    assert b.codes(0, LOC_HAND) == []                  # no draw: the effect was negated
    assert [m.chain_count for m in b.messages(MsgChainDisabled, start)] == [1]
    assert b.messages(MsgChainNegated, start) == []    # the activation itself was not negated
    assert SCRIBE not in activatable(b)


# ===== count limits =====================================================================

def test_hard_once_per_turn_counts_every_copy_and_comes_back_next_turn():
    b = Board()
    b.monster(ARCHIVIST, 0, 0)
    b.monster(ARCHIVIST, 0, 1)
    b.start()
    assert activatable(b).count(ARCHIVIST) == 2
    b.activate(ARCHIVIST)
    assert b.lp(0) == 8300
    assert ARCHIVIST not in activatable(b)             # SetCountLimit(1,id): the other copy too
    b.end_turn()
    b.end_turn()
    assert b.duel.turn == 3 and activatable(b).count(ARCHIVIST) == 2


def test_shared_count_code_between_two_different_cards():
    b = Board()
    b.hand(LEDGER)
    b.hand(TALLY)
    b.start()
    assert {LEDGER, TALLY} <= set(activatable(b))
    b.activate(LEDGER)
    assert TALLY not in activatable(b)


def test_a_negated_activation_keeps_a_plain_count_used():
    b = Board()
    b.hand(LEDGER)
    b.hand(TALLY)
    b.spell(REBUKE, 1, set_=True)
    b.start()
    b.chain(1, REBUKE)
    b.activate(LEDGER)
    assert LEDGER in b.codes(0, LOC_GRAVE) and len(b.codes(0, LOC_HAND)) == 1
    assert TALLY not in activatable(b)


def test_oath_count_and_oath_restriction():
    b = Board()
    b.hand(OATH)
    b.hand(OATH)
    b.hand(REVIVAL_RITE)
    b.grave(BAILIFF)
    b.start()
    assert REVIVAL_RITE in activatable(b)
    b.activate(OATH)
    assert activatable(b).count(OATH) == 0             # once per turn (oath)
    assert REVIVAL_RITE not in activatable(b)           # cannot Special Summon this turn
    b.end_turn()
    b.end_turn()
    assert OATH in activatable(b) and REVIVAL_RITE in activatable(b)   # both reset on turn 3


def test_a_negated_oath_activation_gives_the_count_back_and_lifts_the_restriction():
    b = Board()
    b.hand(OATH)
    b.hand(OATH)
    b.hand(REVIVAL_RITE)
    b.grave(BAILIFF)
    b.spell(REBUKE, 1, set_=True)
    b.start()
    b.chain(1, REBUKE)
    b.activate(OATH)
    assert b.codes(0, LOC_GRAVE).count(OATH) == 1
    assert OATH in activatable(b)                       # EFFECT_COUNT_CODE_OATH: taken back
    assert REVIVAL_RITE in activatable(b)               # EFFECT_FLAG_OATH effect removed


# ===== resets, labels, label objects, flag effects ======================================

def test_reset_at_the_end_of_the_turn():
    b = Board()
    b.monster(BAILIFF, 0)
    b.hand(BRIEF_SURGE)
    b.start()
    b.activate(BRIEF_SURGE)
    bailiff = b.field(0)[0]
    assert bailiff.get_attack() == 2000
    b.end_turn()
    assert bailiff.get_attack() == 1500


def test_reset_phase_with_a_count_lasts_until_the_next_turns_end():
    b = Board()
    b.monster(BAILIFF, 0)
    b.hand(LASTING_SURGE)
    b.start()
    b.activate(LASTING_SURGE)
    bailiff = b.field(0)[0]
    assert bailiff.get_attack() == 2300
    b.end_turn()
    assert b.duel.turn == 2 and bailiff.get_attack() == 2300
    b.end_turn()
    assert b.duel.turn == 3 and bailiff.get_attack() == 1500


def test_reset_event_when_the_monster_leaves_the_field():
    b = Board()
    b.monster(BAILIFF, 0)
    b.hand(STEADFAST_VERDICT)
    b.spell(190001071, 0, set_=True)            # Recall Order
    b.start()
    b.activate(STEADFAST_VERDICT)
    bailiff = b.field(0)[0]
    b.end_turn()
    b.end_turn()
    assert b.duel.turn == 3 and bailiff.get_attack() == 2500     # no phase reset
    b.activate(190001071)                        # bounce it, then summon it again
    assert b.codes(0, LOC_HAND).count(BAILIFF) == 1
    b.summon(BAILIFF)
    assert b.field(0)[0].get_attack() == 1500


def test_label_carries_a_value_from_the_cost_to_the_operation():
    b = Board()
    b.monster(TITHE_COLLECTOR, 0)
    b.hand(190001004)                            # Gavel Magistrate, Level 6
    b.hand(CLERK)
    b.start()
    b.expect(MsgSelectCard, pick(190001004))
    b.activate(TITHE_COLLECTOR)
    assert b.lp(0) == 8000 + 6 * 200


def test_label_object_and_flag_effect_destroy_in_the_end_phase():
    b = Board()
    b.hand(MARK_OF_THE_HUNTED)
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(MARK_OF_THE_HUNTED)
    assert b.codes(1, LOC_MZONE) == [BAILIFF]
    flag_code = (MARK_OF_THE_HUNTED & 0x0FFFFFFF) | C.EFFECT_FLAG_EFFECT     # as Card.RegisterFlagEffect stores it
    assert b.field(1)[0].get_flag_effect(flag_code) == 1
    b.end_turn()
    assert b.codes(1, LOC_GRAVE) == [BAILIFF]


def test_flag_effect_reset_makes_the_delayed_effect_forget_the_card():
    """The marked monster leaves the field and comes back: it is a new card for the
    rules (its flag effect was reset), so the End Phase destruction does nothing."""
    b = Board()
    b.hand(MARK_OF_THE_HUNTED)
    b.hand(190001071)                            # Recall Order
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(MARK_OF_THE_HUNTED)
    b.activate(190001071)                        # back to player 1's hand
    assert b.codes(1, LOC_HAND) == [BAILIFF]
    b.end_turn()
    assert BAILIFF not in b.codes(1, LOC_GRAVE)


def test_player_flag_effect_counts_activations_this_turn():
    b = Board()
    for _ in range(3):
        b.hand(SECOND_WIND)
    b.start()
    b.activate(SECOND_WIND)
    assert len(b.codes(0, LOC_HAND)) == 2 + 1
    b.activate(SECOND_WIND)
    assert len(b.codes(0, LOC_HAND)) == 1 + 1 + 2
    b.end_turn()
    b.end_turn()
    before = len(b.codes(0, LOC_HAND))
    b.activate(SECOND_WIND)                       # turn 3: the flag was reset
    assert len(b.codes(0, LOC_HAND)) == before - 1 + 1


def test_global_effect_counts_destroyed_monsters_this_turn():
    b = Board()
    b.hand(GRAVE_CENSUS)
    b.spell(SNARE_PIT, 0, set_=True)
    b.monster(BAILIFF, 1)
    b.start()
    assert GRAVE_CENSUS not in activatable(b)
    b.activate(SNARE_PIT)
    assert GRAVE_CENSUS in activatable(b)
    b.activate(GRAVE_CENSUS)
    assert b.lp(0) == 8300


def test_custom_event_triggers_the_listener():
    b = Board()
    b.hand(SIGNAL_FLARE, 0)
    b.monster(FLARE_WATCHER, 1)
    b.start()
    start = b.mark()
    b.activate(SIGNAL_FLARE)
    assert b.lp(0) == 8100
    assert [m.code for m in b.messages(MsgChaining, start)] == [SIGNAL_FLARE, FLARE_WATCHER]
    assert b.field(1)[0].get_attack() == 2000
