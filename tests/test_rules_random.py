"""Issue 3, item 2: random numbers and shuffles in a duel, with our rules cards.

tests/test_rng.py checks the generator itself (mt19937, seed_seq, the integer
rules, the shuffle) against values computed with a standard C++ mt19937.  Here:
a duel draws its numbers from that generator seeded with its own seed sequence,
so a Deck shuffled by a card (after a search) and a shuffled hand come out in
the order the generator gives, computed independently from the seed sequence.
"""

from __future__ import annotations

from duelhost import Duel
from duelhost.engine import constants as C
from duelhost.engine.messages import MsgSelectCard, MsgShuffleDeck, MsgShuffleHand
from duelhost.engine.rng import MTRandom

from rules_board import (BAILIFF, CLERK, HERALD, HIGH_JUDGE, JUROR, MAGISTRATE, OPEN_HAND, SCOUTS_REPORT,
                         SCRIBE, SEEDLING, SENTINEL, SPRINTER, Board, pick)

DECK = [CLERK, BAILIFF, JUROR, MAGISTRATE, HIGH_JUDGE, SPRINTER, SCRIBE, SENTINEL, HERALD, SEEDLING]


def test_a_searched_deck_is_shuffled_by_the_duels_generator():
    b = Board(seed=123, deck_size=0)
    b.duel.add_deck(0, DECK)                      # DECK[0] at the bottom, DECK[-1] on top
    b.duel.add_deck(1, [CLERK] * 5)
    b.hand(SCOUTS_REPORT)
    b.start()
    fresh = MTRandom.from_seed_sequence(b.duel.seed_sequence)
    assert b.engine.random.getstate() == fresh.getstate()      # nothing random happened yet
    start = b.mark()
    b.expect(MsgSelectCard, pick(SPRINTER))
    b.activate(SCOUTS_REPORT)
    assert [m.player for m in b.messages(MsgShuffleDeck, start)] == [0]
    expected = [c for c in DECK if c != SPRINTER]
    fresh.shuffle(expected, 0, len(expected))
    assert b.codes(0, C.LOCATION_DECK) == expected
    assert [c.current.sequence for c in b.engine.player[0].list_main] == list(range(len(expected)))


def test_a_hand_shuffle_uses_the_same_generator():
    b = Board(seed=321)
    hand = [BAILIFF, JUROR, MAGISTRATE, SPRINTER]
    for code in hand:
        b.hand(code, 1)
    b.hand(OPEN_HAND, 0)
    b.start()
    fresh = MTRandom.from_seed_sequence(b.duel.seed_sequence)
    assert b.engine.random.getstate() == fresh.getstate()
    start = b.mark()
    b.expect(MsgSelectCard, pick(JUROR), player=1)
    b.activate(OPEN_HAND)
    shuffle = b.messages(MsgShuffleHand, start)
    expected = list(hand)
    fresh.shuffle(expected, 0, len(expected))
    assert shuffle and list(shuffle[0].codes) == expected
    assert b.codes(1, C.LOCATION_HAND) == [c for c in expected if c != JUROR]


def test_the_same_seed_gives_the_same_seed_sequence_and_shuffles():
    assert Duel(seed=5).seed_sequence == Duel(seed=5).seed_sequence != Duel(seed=6).seed_sequence
    orders = []
    for seed in (5, 5, 6):
        b = Board(seed=seed, deck_size=0)
        b.duel.add_deck(0, DECK)
        b.duel.add_deck(1, [CLERK] * 5)
        b.hand(SCOUTS_REPORT)
        b.start()
        b.expect(MsgSelectCard, pick(SPRINTER))
        b.activate(SCOUTS_REPORT)
        orders.append(b.codes(0, C.LOCATION_DECK))
    assert orders[0] == orders[1] != orders[2]
