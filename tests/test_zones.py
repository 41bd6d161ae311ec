"""Zones (engine/field/zones.py): placing and moving cards, zone counts, shuffles, queries.

These run without the processor: cards are placed with new_card_at / add_card
and the rules are asked directly.  Expected values come from reading the
reference (field.cpp, ocgapi.cpp).
"""

from __future__ import annotations

import struct
from typing import Any

import pytest

from duelhost.engine.card import CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.core_constants import CHINT_DESC_ADD, LEN_EMPTY, MSG_RELOAD_FIELD, QUERY_CODE
from duelhost.engine.duel import Duel
from duelhost.engine.field.zones import field_used_count
from duelhost.engine.group import CardSet
from duelhost.engine.messages import (LocInfo, MsgCardHint, MsgDeckTop, MsgMove, MsgReloadField,
                                      MsgShuffleDeck, MsgShuffleExtra, MsgShuffleHand, MsgSwap,
                                      MsgSwapGraveDeck, MsgTagSwap, decode_messages)

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB: dict[int, CardData] = {
    100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000),
    101: CardData(code=101, type=NORMAL, level=3, attack=1200, defense=800),
    102: CardData(code=102, type=NORMAL, level=2, attack=500, defense=500),
    200: CardData(code=200, type=TYPE_MONSTER | TYPE_FUSION, level=6, attack=2000, defense=2000),
    300: CardData(code=300, type=TYPE_MONSTER | TYPE_NORMAL | TYPE_PENDULUM, level=4,
                  lscale=5, rscale=5, attack=1000, defense=1000),
    # Link monsters: markers chosen to build a path between the Extra Monster Zones
    401: CardData(code=401, type=TYPE_MONSTER | TYPE_LINK, level=1, attack=1000,
                  link_marker=LINK_MARKER_BOTTOM),
    402: CardData(code=402, type=TYPE_MONSTER | TYPE_LINK, level=2, attack=1000,
                  link_marker=LINK_MARKER_TOP | LINK_MARKER_RIGHT),
    403: CardData(code=403, type=TYPE_MONSTER | TYPE_LINK, level=2, attack=1000,
                  link_marker=LINK_MARKER_LEFT | LINK_MARKER_RIGHT),
    404: CardData(code=404, type=TYPE_MONSTER | TYPE_LINK, level=2, attack=1000,
                  link_marker=LINK_MARKER_LEFT | LINK_MARKER_TOP),
    500: CardData(code=500, type=TYPE_SPELL),
}
SEEDS = [11, 22, 33, 44, 55, 66, 77, 88]


def make_duel(rule: int = 5) -> Duel:
    d = Duel(DB.get, seed_sequence=SEEDS)
    d.core.duel_rule = rule
    return d


def deck_codes(d: Duel, p: int = 0) -> list[int]:
    return [c.data.code for c in d.player[p].list_main]


def sequences(cards: list[Any]) -> list[int]:
    return [c.current.sequence for c in cards]


# ----- the table ------------------------------------------------------------------------

def test_field_used_count_is_popcount_of_five_bits() -> None:
    assert len(field_used_count) == 32
    assert field_used_count[0] == 0 and field_used_count[0x1F] == 5
    assert field_used_count[0b10110] == 3


# ----- add_card / remove_card -----------------------------------------------------------

def test_deck_cards_stack_on_top_in_the_order_added() -> None:
    d = make_duel()
    for code in (100, 101, 102):
        d.new_card_at(code, 0, 0, LOCATION_DECK, SEQ_DECKTOP, POS_FACEDOWN_DEFENSE)
    assert deck_codes(d) == [100, 101, 102]          # index -1 is the top card
    assert sequences(d.player[0].list_main) == [0, 1, 2]
    assert d.core.shuffle_deck_check == [False, False]


def test_deck_bottom_and_shuffle_insertions() -> None:
    d = make_duel()
    for code in (100, 101):
        d.new_card_at(code, 0, 0, LOCATION_DECK, SEQ_DECKTOP, POS_FACEDOWN_DEFENSE)
    bottom = d.new_card(102)
    bottom.owner = 0
    d.add_card(0, bottom, LOCATION_DECK, SEQ_DECKBOTTOM)
    assert deck_codes(d) == [102, 100, 101]
    assert sequences(d.player[0].list_main) == [0, 1, 2]
    assert not d.core.shuffle_deck_check[0]
    shuffled = d.new_card(100)
    d.add_card(0, shuffled, LOCATION_DECK, SEQ_DECKSHUFFLE)
    assert d.player[0].list_main[0] is shuffled       # "shuffled in" goes to the bottom...
    assert d.core.shuffle_deck_check[0]               # ...and asks for a shuffle
    d.core.duel_options |= DUEL_RETURN_DECK_TOP
    top = d.new_card(101)
    d.add_card(0, top, LOCATION_DECK, SEQ_DECKSHUFFLE)
    assert d.player[0].list_main[-1] is top           # unless the option says top


def test_extra_deck_monster_sent_to_deck_goes_to_extra_face_down() -> None:
    d = make_duel()
    fusion = d.new_card_at(200, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    assert fusion.current.location == LOCATION_EXTRA
    assert fusion.sendto_param.position == POS_FACEDOWN_DEFENSE
    assert d.player[0].list_main == [] and d.player[0].list_extra == [fusion]


def test_face_up_pendulums_stay_on_top_of_the_extra_deck() -> None:
    d = make_duel()
    pend = d.new_card(300)
    pend.sendto_param.position = POS_FACEUP_DEFENSE
    d.add_card(0, pend, LOCATION_EXTRA, 0)
    assert d.player[0].extra_p_count == 1
    fusion = d.new_card(200)
    d.add_card(0, fusion, LOCATION_EXTRA, 0)
    assert d.player[0].list_extra == [fusion, pend]
    assert sequences(d.player[0].list_extra) == [0, 1]
    pend.current.position = POS_FACEUP_DEFENSE
    d.remove_card(pend)
    assert d.player[0].extra_p_count == 0


def test_add_card_refuses_a_used_zone_and_a_card_already_placed() -> None:
    d = make_duel()
    first = d.new_card_at(100, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    assert first is not None and d.player[0].used_location == 1 << 2
    assert d.new_card_at(101, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK) is None
    d.add_card(1, first, LOCATION_MZONE, 0)           # already somewhere: ignored
    assert first.current.controler == 0 and d.player[1].list_mzone[0] is None


def test_add_card_gives_new_field_ids_and_sets_zone_bits() -> None:
    d = make_duel()
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    s = d.new_card_at(500, 0, 0, LOCATION_SZONE, 3, POS_FACEDOWN)
    assert m.fieldid == m.fieldid_r == m.activate_count_id
    assert s.fieldid == m.fieldid + 1
    assert d.player[0].used_location == (1 << 0) | (0x100 << 3)
    assert m.is_status(STATUS_PROC_COMPLETE) and not s.is_status(STATUS_PROC_COMPLETE)


def test_remove_card_keeps_previous_state_and_renumbers() -> None:
    d = make_duel()
    cards = [d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE) for c in (100, 101, 102)]
    middle = cards[1]
    d.remove_card(middle)
    assert middle.current.location == 0 and middle.current.controler == PLAYER_NONE
    assert middle.previous.location == LOCATION_DECK and middle.previous.sequence == 1
    assert sequences(d.player[0].list_main) == [0, 1]
    assert d.core.shuffle_deck_check[0]               # taking a card out of the Deck
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 4, POS_FACEUP_ATTACK)
    d.remove_card(m)
    assert d.player[0].list_mzone[4] is None and d.player[0].used_location == 0


# ----- move_card --------------------------------------------------------------------------

def test_move_between_own_monster_zones_reports_msg_move() -> None:
    d = make_duel()
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    fid = m.fieldid
    m.current.reason = REASON_EFFECT
    d.move_card(0, m, LOCATION_MZONE, 3)
    assert d.player[0].list_mzone[1] is None and d.player[0].list_mzone[3] is m
    assert m.previous.sequence == 1 and m.fieldid == fid
    assert d.player[0].used_location == 1 << 3
    assert d.messages == [MsgMove(code=100, previous=LocInfo.from_raw(0x01010400),
                                  current=LocInfo.from_raw(0x01030400), reason=REASON_EFFECT)]


def test_move_to_the_opponents_monster_zone_is_silent_and_renews_the_field_id() -> None:
    d = make_duel()
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    fid = m.fieldid
    d.move_card(1, m, LOCATION_MZONE, 0)
    assert d.messages == []
    assert m.current.controler == 1 and d.player[1].list_mzone[0] is m
    assert m.fieldid > fid
    assert d.player[0].used_location == 0 and d.player[1].used_location == 1


def test_move_onto_an_occupied_or_same_zone_does_nothing() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    d.new_card_at(101, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    d.move_card(0, a, LOCATION_MZONE, 1)
    d.move_card(0, a, LOCATION_MZONE, 2)
    assert a.current.sequence == 1 and d.messages == []


def test_move_inside_the_deck_to_the_bottom() -> None:
    d = make_duel()
    cards = [d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE) for c in (100, 101, 102)]
    top = cards[-1]
    d.move_card(0, top, LOCATION_DECK, SEQ_DECKBOTTOM)
    assert deck_codes(d) == [102, 100, 101]
    [msg] = d.messages
    assert msg.previous.sequence == 2 and msg.current.sequence == 0
    assert msg.current.location == LOCATION_DECK


def test_move_to_top_of_gy_only_when_not_already_there() -> None:
    d = make_duel()
    a, b = (d.new_card_at(c, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP) for c in (100, 101))
    d.move_card(0, b, LOCATION_GRAVE, 0)
    assert d.messages == []
    d.move_card(0, a, LOCATION_GRAVE, 0)
    assert d.player[0].list_grave == [b, a] and sequences([b, a]) == [0, 1]
    [msg] = d.messages
    assert (msg.previous.sequence, msg.current.sequence) == (0, 1)


def test_move_from_field_to_gy_goes_through_remove_and_add() -> None:
    d = make_duel()
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.move_card(0, m, LOCATION_GRAVE, 0)
    assert m.current.location == LOCATION_GRAVE and d.player[0].list_grave == [m]
    assert m.previous.location == LOCATION_MZONE and d.messages == []


def test_pendulum_from_the_field_to_the_gy_goes_face_up_to_the_extra_deck() -> None:
    d = make_duel()
    p = d.new_card_at(300, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.move_card(0, p, LOCATION_GRAVE, 0)
    assert p.current.location == LOCATION_EXTRA
    assert p.sendto_param.position == POS_FACEUP_DEFENSE
    assert d.player[0].extra_p_count == 1


def test_card_in_its_owners_hand_stays() -> None:
    d = make_duel()
    h = d.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.move_card(0, h, LOCATION_HAND, 0)
    assert h.current.location == LOCATION_HAND and d.messages == []
    d.move_card(1, h, LOCATION_HAND, 0)
    assert h.current.controler == 1 and d.player[1].list_hand == [h]


# ----- swap_card ---------------------------------------------------------------------------

def test_swap_keeping_sequences_is_one_msg_swap() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 1, 1, LOCATION_MZONE, 3, POS_FACEUP_ATTACK)
    d.swap_card(a, b)
    assert d.player[1].list_mzone[3] is a and d.player[0].list_mzone[1] is b
    assert (a.current.controler, b.current.controler) == (1, 0)
    assert d.messages == [MsgSwap(code1=100, loc1=LocInfo.from_raw(0x01010400),
                                  code2=101, loc2=LocInfo.from_raw(0x01030401))]


def test_swap_to_new_sequences_is_two_moves_second_card_first() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 1, 1, LOCATION_MZONE, 3, POS_FACEUP_ATTACK)
    d.swap_card(a, b, 2, 4)
    assert d.player[1].list_mzone[4] is a and d.player[0].list_mzone[2] is b
    assert [m.code for m in d.messages] == [101, 100]
    assert all(isinstance(m, MsgMove) and m.reason == 0 for m in d.messages)


def test_swap_refused_for_cards_off_the_field() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    g = d.new_card_at(101, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    d.swap_card(a, g)
    assert a.current.location == LOCATION_MZONE and d.messages == []


# ----- zones, cards, counts ----------------------------------------------------------------

def test_pzone_sequences_by_rule() -> None:
    assert [make_duel(5).get_pzone_sequence(i) for i in (0, 1)] == [0, 4]
    assert [make_duel(3).get_pzone_sequence(i) for i in (0, 1)] == [6, 7]


def test_get_field_card_understands_field_and_pendulum_zones() -> None:
    d = make_duel()
    f = d.new_card(500)
    d.add_card(0, f, LOCATION_SZONE, 5)
    p = d.new_card(300)
    d.add_card(0, p, LOCATION_SZONE, 4, pzone=True)
    s = d.new_card(500)
    d.add_card(0, s, LOCATION_SZONE, 0)              # a plain S/T in zone 0 is no Pendulum
    assert d.get_field_card(0, LOCATION_FZONE, 0) is f
    assert d.get_field_card(0, LOCATION_PZONE, 1) is p
    assert d.get_field_card(0, LOCATION_PZONE, 0) is None
    assert d.get_field_card(0, LOCATION_SZONE, 6) is None   # beyond szone_size
    assert d.get_field_card(2, LOCATION_MZONE, 0) is None
    assert d.get_field_vector(0, LOCATION_OVERLAY) is None


def test_extra_monster_zone_blocked_by_the_facing_one() -> None:
    d = make_duel()
    assert d.is_location_useable(0, LOCATION_MZONE, 5)
    d.new_card_at(100, 1, 1, LOCATION_MZONE, 6, POS_FACEUP_ATTACK)   # faces player 0's zone 5
    assert not d.is_location_useable(0, LOCATION_MZONE, 5)
    assert d.is_location_useable(0, LOCATION_MZONE, 6)
    d.player[0].disabled_location = 0x100 << 2
    assert not d.is_location_useable(0, LOCATION_SZONE, 2)
    assert not d.is_location_useable(0, LOCATION_SZONE, 6)         # only 6 S/T zones
    assert d.is_location_useable(0, LOCATION_GRAVE, 99)


def test_tofield_count_with_zone_mask_and_list_out() -> None:
    d = make_duel()
    d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.player[0].disabled_location = 1 << 4
    flag = [0]
    n = d.get_tofield_count(None, 0, LOCATION_MZONE, 0, LOCATION_REASON_TOFIELD, 0b00111, flag)
    assert n == 2                                    # zones 1 and 2
    assert flag[0] == 0b1111001                      # 0, 3, 4 unusable, 5/6 always marked
    assert d.get_tofield_count(None, 0, LOCATION_SZONE, 0, 0) == 5
    assert d.get_tofield_count(None, 0, LOCATION_GRAVE, 0, 0) == 0


def test_useable_count_is_capped_by_the_mzone_limit() -> None:
    d = make_duel()
    for seq in (0, 1, 2, 3):
        d.new_card_at(100, 0, 0, LOCATION_MZONE, seq, POS_FACEUP_ATTACK)
    d.new_card_at(101, 0, 0, LOCATION_MZONE, 5, POS_FACEUP_ATTACK)
    assert d.get_mzone_limit(0, 0, LOCATION_REASON_TOFIELD) == 2       # 7 - 5
    assert d.get_useable_count(None, 0, LOCATION_MZONE, 0, LOCATION_REASON_TOFIELD) == 1
    assert make_duel(3).get_mzone_limit(0, 0, LOCATION_REASON_TOFIELD) == 5


def test_spsummonable_count_from_extra_without_links_uses_one_extra_zone() -> None:
    d = make_duel(4)
    fusion = d.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    flag = [0]
    assert d.get_spsummonable_count(fusion, 0, 0xFF, flag) == 1        # no links: EMZ only
    assert flag[0] == 0x1F
    d.core.duel_rule = 5                                              # MR2020: Fusion anywhere
    assert d.get_spsummonable_count(fusion, 0) == 6
    assert d.get_useable_count_fromex(None, 0, 0) == 1                 # "any card": temp card
    assert d.temp_card.current.location == 0


def link_path(d: Duel) -> list[Any]:
    """401 in EMZ 5 points down to zone 1; 402-403-404 chain to zone 3; 404 points up to EMZ 6."""
    return [d.new_card_at(401, 0, 0, LOCATION_MZONE, 5, POS_FACEUP_ATTACK),
            d.new_card_at(402, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK),
            d.new_card_at(403, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK),
            d.new_card_at(404, 0, 0, LOCATION_MZONE, 3, POS_FACEUP_ATTACK)]


def test_check_extra_link_follows_mutual_links() -> None:
    d = make_duel()
    link_path(d)
    assert not d.check_extra_link(0)                  # zone 6 empty
    top = d.new_card(401)
    assert d.check_extra_link(0, top, 6)              # as if it stood in zone 6
    assert top.current.location == 0 and d.player[0].list_mzone[6] is None
    assert not d.check_extra_link(0, None, 6)
    d.add_card(0, top, LOCATION_MZONE, 6)
    assert d.check_extra_link(0)


def test_linked_zone_and_cards() -> None:
    d = make_duel()
    cards = link_path(d)
    linked = d.get_linked_zone(0)
    assert linked & (1 << 1) and linked & (1 << 5)
    assert set(d.get_linked_cards(0, 1, 0)) >= {cards[1], cards[0]}
    assert len(d.get_linked_cards(0, 0, 1)) == 0


def test_get_cards_in_zone_picks_occupied_zones_of_the_mask() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.new_card_at(101, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    cs = d.get_cards_in_zone(CardSet(), 0b011, 0, LOCATION_MZONE)
    assert list(cs) == [a]
    assert len(d.get_cards_in_zone(None, 0x7F, 0, LOCATION_GRAVE)) == 0


def test_rule_zone_from_extra() -> None:
    d = make_duel(3)
    assert d.get_rule_zone_fromex(0, None) == 0x1F
    d.core.duel_rule = 4
    assert d.get_rule_zone_fromex(0, None) == 0x60
    d.core.duel_rule = 5
    fusion = d.new_card(200)
    assert d.get_rule_zone_fromex(0, fusion) == 0x7F


# ----- shuffles --------------------------------------------------------------------------

def test_hand_shuffle_follows_the_duel_rng_and_reports_the_new_order() -> None:
    d = make_duel()
    hand = [d.new_card_at(c, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN) for c in (100, 101, 102, 200 - 100)]
    expected = list(hand)
    d.random.copy().shuffle(expected, 0, len(expected), d.rng_version)
    d.core.shuffle_hand_check[0] = True
    d.shuffle(0, LOCATION_HAND)
    assert d.player[0].list_hand == expected
    assert sequences(d.player[0].list_hand) == [0, 1, 2, 3]
    assert d.messages == [MsgShuffleHand(player=0, codes=tuple(c.data.code for c in expected))]
    assert not d.core.shuffle_hand_check[0]


def test_all_face_up_hand_is_not_shuffled() -> None:
    d = make_duel()
    for c in (100, 101):
        d.new_card_at(c, 0, 0, LOCATION_HAND, 0, POS_FACEUP)
    before = d.random.copy()
    d.core.shuffle_hand_check[0] = True
    d.shuffle(0, LOCATION_HAND)
    assert d.messages == [] and not d.core.shuffle_hand_check[0]
    assert d.random.rand() == before.rand()          # no number drawn


def test_hand_shuffle_resends_client_hints() -> None:
    d = make_duel()
    h = d.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.new_card_at(101, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    e = d.new_effect()
    e.type = EFFECT_TYPE_SINGLE
    e.code = 0x10000000 + 1234
    e.flag[0] = EFFECT_FLAG_CLIENT_HINT
    e.description = 0x12345
    e.owner = h
    h.add_effect(e)                                  # (adding it sends a hint too)
    d.messages.clear()
    d.shuffle(0, LOCATION_HAND)
    hints = [m for m in d.messages if isinstance(m, MsgCardHint)]
    assert hints == [MsgCardHint(loc=LocInfo.from_raw(h.get_info_location()),
                                 type=CHINT_DESC_ADD, value=0x12345)]


def test_hand_shuffle_resends_client_hints_newest_first() -> None:
    """The reference walks the card's effect index (an unordered_map keyed by
    address): the effects registered last come first.  Seen live (issue 12): a
    card given to the opponent's hand with hints 0x43 then 0x42 resends 0x42 first."""
    d = make_duel()
    h = d.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.new_card_at(101, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    for n, desc in enumerate((0x43, 0x42)):
        e = d.new_effect()
        e.type = EFFECT_TYPE_SINGLE
        e.code = 0x10000000 + 1234 + n
        e.flag[0] = EFFECT_FLAG_CLIENT_HINT
        e.description = desc
        e.owner = h
        h.add_effect(e)
    d.messages.clear()
    d.shuffle(0, LOCATION_HAND)
    assert [m.value for m in d.messages if isinstance(m, MsgCardHint)] == [0x42, 0x43]


def test_deck_shuffle_and_pseudo_shuffle() -> None:
    d = make_duel()
    for c in (100, 101, 102, 100, 101):
        d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    expected = list(d.player[0].list_main)
    d.random.copy().shuffle(expected, 0, 5, 2)
    d.shuffle(0, LOCATION_DECK)
    assert d.player[0].list_main == expected
    assert d.messages == [MsgShuffleDeck(player=0)]
    d.messages.clear()
    d.core.duel_options |= DUEL_PSEUDO_SHUFFLE
    d.shuffle(0, LOCATION_DECK)
    assert d.player[0].list_main == expected           # order kept, message still sent
    assert d.messages == [MsgShuffleDeck(player=0)]


def test_deck_shuffle_shows_a_face_up_top_card_when_checking_reversal() -> None:
    d = make_duel()
    for c in (100, 101):
        d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    d.core.global_flag |= GLOBALFLAG_DECK_REVERSE_CHECK
    d.core.deck_reversed = True
    d.shuffle(0, LOCATION_DECK)
    top = d.player[0].list_main[-1]
    assert d.messages[-1] == MsgDeckTop(player=0, sequence=0, code=top.data.code)


def test_extra_shuffle_leaves_face_up_pendulums() -> None:
    d = make_duel()
    for _ in range(4):
        d.new_card_at(200, 0, 0, LOCATION_EXTRA, 0, POS_FACEDOWN_DEFENSE)
    pend = d.new_card(300)
    pend.sendto_param.position = POS_FACEUP_DEFENSE
    d.add_card(0, pend, LOCATION_EXTRA, 0)
    pend.current.position = POS_FACEUP_DEFENSE
    expected = list(d.player[0].list_extra)
    d.random.copy().shuffle(expected, 0, 4, 2)
    d.shuffle(0, LOCATION_EXTRA)
    assert d.player[0].list_extra == expected and expected[-1] is pend
    assert d.messages == [MsgShuffleExtra(player=0, codes=(200, 200, 200, 200, 300))]


def test_reverse_deck_renumbers() -> None:
    d = make_duel()
    for c in (100, 101, 102):
        d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    d.reverse_deck(0)
    assert deck_codes(d) == [102, 101, 100] and sequences(d.player[0].list_main) == [0, 1, 2]


def test_swap_deck_and_grave() -> None:
    d = make_duel()
    deck = [d.new_card_at(c, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE) for c in (100, 101)]
    grave = [d.new_card_at(c, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP) for c in (102, 200)]
    fusion = grave[1]
    d.swap_deck_and_grave(0)
    pl = d.player[0]
    assert set(pl.list_grave) == set(deck) and pl.list_extra == [fusion]
    assert pl.list_main == [grave[0]]
    assert grave[0].current.location == LOCATION_DECK and grave[0].previous.location == LOCATION_GRAVE
    assert all(c.current.location == LOCATION_GRAVE and c.current.position == POS_FACEUP for c in deck)
    assert fusion.current.location == LOCATION_EXTRA
    assert d.messages == [MsgSwapGraveDeck(player=0), MsgShuffleDeck(player=0)]


def test_tag_swap_trades_piles_and_reports_face_up_cards() -> None:
    d = make_duel()
    d.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    partner = [d.new_tag_card_at(c, 0, LOCATION_DECK) for c in (101, 102)]
    tag_extra = d.new_tag_card_at(200, 0, LOCATION_EXTRA)
    d.player[0].tag_list_hand.append(d.new_card(100))
    d.player[0].tag_list_hand[0].current.position = POS_FACEUP
    d.tag_swap(0)
    pl = d.player[0]
    assert pl.list_main == partner and [c.data.code for c in pl.tag_list_main] == [100]
    assert pl.list_extra == [tag_extra]
    assert d.messages == [MsgTagSwap(player=0, deck_count=2, extra_p_count=0, deck_top=0,
                                     hand=(100 | 0x80000000,), extra=(200,))]


# ----- per-turn counts --------------------------------------------------------------------

def test_draw_count_is_zero_on_the_first_turn_from_master_rule_3() -> None:
    d = make_duel()
    d.infos.turn_id = 1
    d.infos.turn_player = 0
    assert d.get_draw_count(0) == 0 and d.get_draw_count(1) == 1
    d.core.duel_rule = 2
    assert d.get_draw_count(0) == 1
    d.player[0].draw_count = 2
    d.infos.turn_id = 2
    assert d.get_draw_count(0) == 2
    assert d.get_summon_count_limit(0) == 1


# ----- set-up and queries ------------------------------------------------------------------

def test_set_player_info_ignores_out_of_range_values() -> None:
    d = make_duel()
    d.set_player_info(0, 4000, 4, 2)
    d.set_player_info(1, 0, -1, -1)
    d.set_player_info(2, 1, 1, 1)
    assert (d.player[0].lp, d.player[0].start_count, d.player[0].draw_count) == (4000, 4, 2)
    assert (d.player[1].lp, d.player[1].start_count, d.player[1].draw_count) == (8000, 5, 1)


def test_start_duel_sets_rule_draws_opening_hands_and_queues_the_turn(monkeypatch: pytest.MonkeyPatch) -> None:
    d = Duel(DB.get, seed_sequence=SEEDS)
    calls: list[tuple] = []
    monkeypatch.setattr(d, "draw", lambda *args: calls.append(("draw",) + args), raising=False)
    monkeypatch.setattr(d, "proc_turn", lambda *args: ("turn",) + args, raising=False)
    queued: list[Any] = []
    monkeypatch.setattr(d, "add_process", queued.append)
    d.set_player_info(1, 8000, 0, 1)
    d.core.shuffle_deck_check[0] = True
    d.start_duel((3 << 16) | DUEL_ATTACK_FIRST_TURN)
    assert d.core.duel_rule == 3 and d.core.duel_options & DUEL_ATTACK_FIRST_TURN
    assert d.player[0].szone_size == 8 and d.player[1].szone_size == 8
    assert d.core.shuffle_deck_check == [False, False]
    assert calls == [("draw", None, REASON_RULE, PLAYER_NONE, 0, 5)]
    assert queued == [("turn", 0)]


@pytest.mark.parametrize("options, rule", [(0, 5), (DUEL_OBSOLETE_RULING, 1), (9 << 16, 5), (2 << 16, 2)])
def test_start_duel_rule_choice(monkeypatch: pytest.MonkeyPatch, options: int, rule: int) -> None:
    d = Duel(DB.get, seed_sequence=SEEDS)
    monkeypatch.setattr(d, "draw", lambda *args: None, raising=False)
    monkeypatch.setattr(d, "proc_turn", lambda *args: None, raising=False)
    monkeypatch.setattr(d, "add_process", lambda proc: None)
    d.start_duel(options)
    assert d.core.duel_rule == rule


def test_tag_mode_partners_take_their_hands_from_their_decks(monkeypatch: pytest.MonkeyPatch) -> None:
    d = Duel(DB.get, seed_sequence=SEEDS)
    monkeypatch.setattr(d, "draw", lambda *args: None, raising=False)
    monkeypatch.setattr(d, "proc_turn", lambda *args: None, raising=False)
    monkeypatch.setattr(d, "add_process", lambda proc: None)
    tag = [d.new_tag_card_at(100 + i % 3, 0, LOCATION_DECK) for i in range(7)]
    d.start_duel((5 << 16) | DUEL_TAG_MODE)
    pl = d.player[0]
    assert pl.tag_list_main == tag[:2] and pl.tag_list_hand == tag[:1:-1]
    assert [c.current.sequence for c in pl.tag_list_hand] == [0, 1, 2, 3, 4]
    assert all(c.current.location == LOCATION_HAND and c.current.position == POS_FACEDOWN
               for c in pl.tag_list_hand)


def test_query_helpers() -> None:
    d = make_duel()
    m = d.new_card_at(100, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    d.new_card_at(101, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    assert d.query_field_count(0, LOCATION_MZONE) == 1
    assert d.query_field_count(0, LOCATION_HAND) == 1
    assert d.query_field_count(0, LOCATION_OVERLAY) == 0
    assert d.query_card(0, LOCATION_MZONE, 0, QUERY_CODE) == struct.pack("<i", LEN_EMPTY)
    assert d.query_card(0, LOCATION_GRAVE, 0, QUERY_CODE) == b""          # LEN_FAIL
    assert d.query_card(0, LOCATION_MZONE, 2, QUERY_CODE, False) == m.get_infos(QUERY_CODE, False)
    field = d.query_field_card(0, LOCATION_MZONE, QUERY_CODE, False)
    empty = struct.pack("<i", LEN_EMPTY)
    assert field.startswith(empty * 2) and field.endswith(empty * 4)
    assert d.query_field_card(0, 0x400, QUERY_CODE) == b""


def test_query_field_info_is_the_reload_field_message() -> None:
    d = make_duel()
    d.new_card_at(100, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    d.new_card_at(500, 1, 1, LOCATION_SZONE, 0, POS_FACEDOWN)
    for _ in range(3):
        d.new_card_at(101, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN_DEFENSE)
    data = d.query_field_info()
    assert data[0] == MSG_RELOAD_FIELD and data[1] == 5
    [msg] = decode_messages(data)
    assert isinstance(msg, MsgReloadField)
    p0, p1 = msg.players
    assert p0.lp == 8000 and p0.mzone[2].position == POS_FACEUP_ATTACK and p0.mzone[0] is None
    assert p1.szone[0].position == POS_FACEDOWN and p1.deck_count == 3
    # 1 + 1 + per player (4 + 7 + 8 + 2 extra bytes + 1 extra + 6) + chain count
    assert len(data) == 2 + (4 + 7 + 2 + 8 + 6) + (4 + 7 + 8 + 1 + 6) + 1
    d.reload_field_info()
    assert d.messages == [msg]
