"""Issue 3, item 6: operations with their events, reasons and messages, with our rules
cards (cards/rules.toml): draw, search, send to the GY / hand / Deck, banish, destroy,
release, discard, return, shuffle, confirm, damage / recover / LP cost, control
change, position change, Duel.MoveToField and Special Summon.
"""

from __future__ import annotations

from duelhost.engine import constants as C
from duelhost.engine.messages import (MsgChained, MsgChaining, MsgConfirmCards, MsgDamage, MsgDraw, MsgMove,
                                      MsgPayLpCost, MsgPosChange, MsgRecover, MsgSelectCard,
                                      MsgShuffleDeck, MsgShuffleHand, MsgSpSummoned, MsgSpSummoning)

from rules_board import (BAILIFF, BANNER_BEARER, BLOOD_PACT, BORROWED_BLADE, CARD_SHREDDER, CLERK,
                         DEEP_BURIAL, ECHO_CHAMBER, EXILE_GATE, JUROR, MAGISTRATE, OPEN_HAND,
                         QUICK_MEND, RALLY_BANNER, RECALL_ORDER, REVIVAL_RITE, SCOUTS_REPORT, SCRIBE,
                         SNARE_PIT, SPARK_BOLT, SPRINTER, TRIBUTE_ALTAR, POSTURE_SHIFT, Board, pick)

LOC_DECK, LOC_HAND, LOC_GRAVE = C.LOCATION_DECK, C.LOCATION_HAND, C.LOCATION_GRAVE
LOC_SZONE, LOC_MZONE, LOC_REMOVED = C.LOCATION_SZONE, C.LOCATION_MZONE, C.LOCATION_REMOVED


def activatable(b: Board) -> list[int]:
    return [o.card_code for o in b.idle().activatable]


def moves(b: Board, start: int, code: int | None = None) -> list[MsgMove]:
    return [m for m in b.messages(MsgMove, start) if code is None or m.code == code]


def test_draw():
    b = Board()
    b.spell(ECHO_CHAMBER, 0, set_=True)
    b.start()
    start = b.mark()
    b.activate(ECHO_CHAMBER)
    draws = b.messages(MsgDraw, start)
    assert [(m.player, len(m.codes)) for m in draws] == [(0, 1)]
    assert len(b.codes(0, LOC_DECK)) == 9 and len(b.codes(0, LOC_HAND)) == 1


def test_search_confirms_to_the_opponent_and_shuffles_the_deck():
    b = Board()
    b.hand(SCOUTS_REPORT)
    b.deck_top(SPRINTER)
    b.start()
    start = b.mark()
    b.expect(MsgSelectCard, pick(SPRINTER))
    b.activate(SCOUTS_REPORT)
    assert b.codes(0, LOC_HAND) == [SPRINTER]
    move = moves(b, start, SPRINTER)[0]
    assert move.previous.location == LOC_DECK and move.current.location == LOC_HAND
    assert move.reason == C.REASON_EFFECT
    confirm = b.messages(MsgConfirmCards, start)
    assert confirm and confirm[0].player == 1 and [c.code for c in confirm[0].cards] == [SPRINTER]
    assert [m.player for m in b.messages(MsgShuffleDeck, start)] == [0]


def test_send_top_cards_of_both_decks_to_the_gy():
    b = Board()
    b.hand(CARD_SHREDDER)
    b.deck_top(JUROR, 1)
    b.start()
    start = b.mark()
    b.activate(CARD_SHREDDER)
    assert len(b.codes(0, LOC_GRAVE)) == 3 and len(b.codes(0, LOC_DECK)) == 8
    assert len(b.codes(1, LOC_GRAVE)) == 2 and JUROR in b.codes(1, LOC_GRAVE)
    milled = [m for m in moves(b, start) if m.previous.location == LOC_DECK]
    assert len(milled) == 4 and all(m.reason == C.REASON_EFFECT for m in milled)


def test_return_to_the_owners_hand_even_from_the_other_side():
    b = Board()
    b.hand(BORROWED_BLADE)
    b.hand(RECALL_ORDER)
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(BORROWED_BLADE)
    assert b.codes(0, LOC_MZONE) == [BAILIFF]
    b.activate(RECALL_ORDER)
    assert b.codes(1, LOC_HAND) == [BAILIFF] and b.codes(0, LOC_HAND) == []


def test_shuffle_a_gy_card_into_the_deck():
    b = Board()
    b.hand(DEEP_BURIAL)
    b.grave(MAGISTRATE, 1)
    b.start()
    start = b.mark()
    b.activate(DEEP_BURIAL)
    assert MAGISTRATE in b.codes(1, LOC_DECK) and len(b.codes(1, LOC_DECK)) == 11
    move = moves(b, start, MAGISTRATE)[0]
    assert move.previous.location == LOC_GRAVE and move.current.location == LOC_DECK
    assert 1 in [m.player for m in b.messages(MsgShuffleDeck, start)]


def test_banish():
    b = Board()
    b.spell(EXILE_GATE, 0, set_=True)
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(EXILE_GATE)
    assert b.codes(1, LOC_REMOVED) == [BAILIFF]
    assert b.engine.player[1].list_remove[0].current.position == C.POS_FACEUP


def test_destroy_reason():
    b = Board()
    b.spell(SNARE_PIT, 0, set_=True)
    b.monster(BAILIFF, 1)
    b.start()
    start = b.mark()
    b.activate(SNARE_PIT)
    move = moves(b, start, BAILIFF)[0]
    assert move.reason == C.REASON_EFFECT | C.REASON_DESTROY
    assert b.engine.player[1].list_grave[0].current.reason_player == 0


def test_release_as_a_cost():
    b = Board()
    b.hand(TRIBUTE_ALTAR)
    b.monster(BAILIFF, 0)
    b.start()
    start = b.mark()
    b.activate(TRIBUTE_ALTAR)
    move = moves(b, start, BAILIFF)[0]
    assert move.reason == C.REASON_RELEASE | C.REASON_COST
    assert len(b.codes(0, LOC_HAND)) == 2
    # the cost is paid once the activation is announced, before the chain link is complete
    msgs = b.duel.messages
    chaining, chained = b.messages(MsgChaining, start)[0], b.messages(MsgChained, start)[0]
    assert msgs.index(chaining) < msgs.index(move) < msgs.index(chained)


def test_release_cost_check_hides_the_card_without_a_monster():
    b = Board()
    b.hand(TRIBUTE_ALTAR)
    b.start()
    assert TRIBUTE_ALTAR not in activatable(b)


def test_discard_as_a_cost_and_as_an_effect_with_confirm_and_hand_shuffle():
    b = Board()
    b.monster(SCRIBE, 0)
    b.hand(CLERK, 0)
    b.hand(OPEN_HAND, 0)
    b.hand(BAILIFF, 1)
    b.hand(JUROR, 1)
    b.start()
    start = b.mark()
    b.expect(MsgSelectCard, pick(CLERK))
    b.activate(SCRIBE)
    move = moves(b, start, CLERK)[0]
    assert move.reason == C.REASON_COST | C.REASON_DISCARD
    start = b.mark()
    b.expect(MsgSelectCard, pick(JUROR), player=1)       # player 1 chooses its discard
    b.activate(OPEN_HAND)
    confirm = b.messages(MsgConfirmCards, start)
    assert confirm and confirm[0].player == 0 and sorted(c.code for c in confirm[0].cards) == sorted([BAILIFF, JUROR])
    assert [m.player for m in b.messages(MsgShuffleHand, start)] == [1]
    move = moves(b, start, JUROR)[0]
    assert move.reason == C.REASON_EFFECT | C.REASON_DISCARD
    assert b.codes(1, LOC_HAND) == [BAILIFF]


def test_damage_recover_and_lp_cost():
    b = Board()
    b.hand(SPARK_BOLT)
    b.hand(QUICK_MEND)
    b.hand(BLOOD_PACT)
    b.start()
    start = b.mark()
    b.activate(SPARK_BOLT)
    b.activate(QUICK_MEND)
    b.activate(BLOOD_PACT)
    assert [(m.player, m.amount) for m in b.messages(MsgDamage, start)] == [(1, 300)]
    assert [(m.player, m.amount) for m in b.messages(MsgRecover, start)] == [(0, 500)]
    assert [(m.player, m.amount) for m in b.messages(MsgPayLpCost, start)] == [(0, 1000)]
    assert (b.lp(0), b.lp(1)) == (8000 + 500 - 1000, 7700)
    assert len(b.codes(0, LOC_HAND)) == 2


def test_lp_cost_needs_enough_lp():
    for lp, can in ((1000, True), (999, False)):
        b = Board(lp=lp)
        b.hand(BLOOD_PACT)
        b.start()
        assert (BLOOD_PACT in activatable(b)) is can


def test_control_change_until_the_end_phase():
    b = Board()
    b.hand(BORROWED_BLADE)
    b.monster(BAILIFF, 1)
    b.start()
    b.activate(BORROWED_BLADE)
    bailiff = b.field(0)[0]
    assert bailiff.current.controler == 0 and bailiff.owner == 1
    b.end_turn()
    assert bailiff.current.controler == 1 and b.codes(1, LOC_MZONE) == [BAILIFF]


def test_position_change_by_an_effect():
    b = Board()
    b.hand(POSTURE_SHIFT)
    b.monster(BAILIFF, 1)
    b.start()
    start = b.mark()
    b.activate(POSTURE_SHIFT)
    pos = b.messages(MsgPosChange, start)
    assert [(m.code, m.previous_position, m.current_position) for m in pos] == \
        [(BAILIFF, C.POS_FACEUP_ATTACK, C.POS_FACEUP_DEFENSE)]
    assert b.field(1)[0].current.position == C.POS_FACEUP_DEFENSE


def test_move_to_field_places_a_card_without_activating_it():
    b = Board()
    b.hand(BANNER_BEARER)
    b.deck_top(RALLY_BANNER)
    b.monster(BAILIFF, 0)
    b.start()
    start = b.mark()
    b.activate(BANNER_BEARER)
    assert RALLY_BANNER in b.codes(0, LOC_SZONE)
    assert [m.code for m in b.messages(MsgChaining, start)] == [BANNER_BEARER]     # no activation
    assert b.field(0)[0].get_attack() == 1800        # its continuous effect applies at once
    move = moves(b, start, RALLY_BANNER)[0]
    assert move.previous.location == LOC_DECK and move.current.location == LOC_SZONE


def test_special_summon_from_the_gy():
    b = Board()
    b.hand(REVIVAL_RITE)
    b.grave(MAGISTRATE)
    b.start()
    start = b.mark()
    b.activate(REVIVAL_RITE)
    assert b.codes(0, LOC_MZONE) == [MAGISTRATE]
    assert [m.code for m in b.messages(MsgSpSummoning, start)] == [MAGISTRATE]
    assert len(b.messages(MsgSpSummoned, start)) == 1
    card = b.field(0)[0]
    assert card.summon_info & 0xF0000000 == C.SUMMON_TYPE_SPECIAL
    assert card.current.reason & C.REASON_SPSUMMON
