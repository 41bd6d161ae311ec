"""Card-moving operations (engine/operations/move.py, position.py, control.py, misc.py).

Units run through the processor driver with hand-placed cards; prompts are
answered with raw response bytes as a host would send them.  Expected
behaviour is read from the reference (operations.cpp, processor.cpp).
"""

from __future__ import annotations

from typing import Any

import pytest
from engine_run import run_units as run
from test_card_support import FakeScript

from duelhost.engine.card import Card, CardData
from duelhost.engine.constants import *  # noqa: F403
from duelhost.engine.core_constants import CHAIN_DISABLE_ACTIVATE, CHAIN_DISABLE_EFFECT
from duelhost.engine.duel import Duel
from duelhost.engine.effect import Effect
from duelhost.engine.event import Chain
from duelhost.engine.group import CardSet
from duelhost.engine.messages import (LocInfo, MsgChainDisabled, MsgChainNegated, MsgDraw, MsgHandRes,
                                      MsgHint, MsgMove, MsgPosChange, MsgRockPaperScissors,
                                      MsgSelectPlace, MsgSortCard, MsgTossCoin)
from duelhost.engine.operations.control import _swap_zone_flag
from duelhost.engine.operations.move import _single_zone, operation_sorted

NORMAL = TYPE_MONSTER | TYPE_NORMAL
DB = {
    100: CardData(code=100, type=NORMAL, level=4, attack=1500, defense=1000),
    101: CardData(code=101, type=NORMAL, level=3, attack=1200, defense=800),
    102: CardData(code=102, type=NORMAL, level=2, attack=500, defense=500),
    400: CardData(code=400, type=TYPE_MONSTER | TYPE_XYZ, level=4, attack=2000),
    500: CardData(code=500, type=TYPE_SPELL | TYPE_CONTINUOUS),
    501: CardData(code=501, type=TYPE_SPELL | TYPE_EQUIP),
    700: CardData(code=700, type=TYPE_MONSTER | TYPE_NORMAL | TYPE_TOKEN, level=1),
}


def make_duel() -> Duel:
    return Duel(DB.get, seed_sequence=[1, 2, 3, 4, 5, 6, 7, 8], script=FakeScript())


def moves(d: Duel) -> list[MsgMove]:
    return [m for m in d.messages if isinstance(m, MsgMove)]


def loc(p: int, location: int, seq: int, pos: int) -> LocInfo:
    return LocInfo(controller=p, location=location, sequence=seq, position=pos)


def i32(v: int) -> bytes:
    return (v & 0xFFFFFFFF).to_bytes(4, "little")


# ----- send to ----------------------------------------------------------------------------

def test_send_to_hand_from_grave() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    d.send_to(c, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_HAND, 0, POS_FACEUP)
    run(d)
    assert c.current.location == LOCATION_HAND and c in d.player[0].list_hand
    # add_card turns a card going to the hand face-down (sendto_param.position)
    assert moves(d) == [MsgMove(code=100, previous=loc(0, LOCATION_GRAVE, 0, POS_FACEUP),
                                current=loc(0, LOCATION_HAND, 0, POS_FACEDOWN), reason=REASON_EFFECT)]
    assert d.returns.ivalue[0] == 1
    assert list(d.core.operated_set) == [c]
    assert c.previous.location == LOCATION_GRAVE


def test_send_to_field_destination_is_ignored() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.send_to(c, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_MZONE, 0, POS_FACEUP)
    assert not d.core.subunits


def test_banish_keeps_the_given_position_or_the_current_one() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    b = d.new_card_at(101, 0, 0, LOCATION_GRAVE, 1, POS_FACEUP)
    d.send_to(a, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_REMOVED, 0, POS_FACEDOWN)
    d.send_to(b, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_REMOVED, 0, 0)
    assert a.sendto_param.position == POS_FACEDOWN
    assert b.sendto_param.position == POS_FACEUP
    # a card banished and returned to the GY is a "return", not a "send"
    c = d.new_card_at(102, 0, 0, LOCATION_REMOVED, 0, POS_FACEUP)
    d.send_to(c, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_GRAVE, 0, 0)
    assert c.current.reason & REASON_RETURN


def test_send_to_deck_from_own_deck_to_hand_goes_to_the_searching_player() -> None:
    d = make_duel()
    c = d.new_card_at(100, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN)
    d.send_to(c, None, REASON_EFFECT, 1, PLAYER_NONE, LOCATION_HAND, 0, POS_FACEUP)
    assert c.sendto_param.playerid == 1
    d2 = make_duel()
    c2 = d2.new_card_at(100, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN)
    d2.send_to(c2, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_HAND, 0, POS_FACEUP)
    assert c2.sendto_param.playerid == 1  # not the reason player's Deck: the owner's hand


def test_token_leaving_the_field_ceases_to_exist() -> None:
    d = make_duel()
    t = d.new_card_at(700, 0, 0, LOCATION_MZONE, 2, POS_FACEUP_DEFENSE)
    d.send_to(t, None, REASON_EFFECT, 0, PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP)
    run(d)
    assert moves(d) == [MsgMove(code=700, previous=loc(0, LOCATION_MZONE, 2, POS_FACEUP_DEFENSE),
                                current=LocInfo.from_raw(0), reason=REASON_EFFECT)]
    assert t.current.location == 0
    assert d.player[0].list_mzone[2] is None
    assert t not in d.player[0].list_grave


# ----- destroy ----------------------------------------------------------------------------

def test_destroy_sends_to_the_owners_grave() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 1, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)  # owned by 0, controlled by 1
    d.destroy(c, None, REASON_EFFECT, 1)
    assert c.is_status(STATUS_DESTROY_CONFIRMED)
    run(d)
    assert c.current.location == LOCATION_GRAVE and c.current.controler == 0
    [m] = moves(d)
    assert m.previous == loc(1, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    assert m.current == loc(0, LOCATION_GRAVE, 0, POS_FACEUP)
    assert m.reason == REASON_EFFECT | REASON_DESTROY
    assert not c.is_status(STATUS_DESTROY_CONFIRMED)
    assert d.returns.ivalue[0] == 1


def test_destroy_leaves_out_cards_already_being_destroyed_from_the_callers_set() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    b.set_status(STATUS_DESTROY_CONFIRMED, True)
    cset = CardSet((a, b))
    d.destroy(cset, None, REASON_EFFECT, 0)
    assert list(cset) == [a]


def test_destroy_of_several_cards_moves_them_in_operation_order() -> None:
    d = make_duel()
    d.infos.turn_player = 1
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 3, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    c = d.new_card_at(102, 1, 1, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    assert operation_sorted([a, b, c]) == [c, b, a]  # turn player's first, then by sequence
    d.destroy(CardSet((a, b, c)), None, REASON_EFFECT, 0)
    run(d)
    assert [m.code for m in moves(d)] == [102, 101, 100]


def test_indestructible_card_stays_and_the_effect_is_shown(monkeypatch: pytest.MonkeyPatch) -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    owner = d.new_card_at(500, 0, 0, LOCATION_SZONE, 0, POS_FACEUP)
    indes = d.new_effect()
    indes.owner = owner
    indes.code = EFFECT_INDESTRUCTABLE
    indes.value = 1
    original = Card.filter_effect

    def filtered(self: Card, code: int, eset: Any = None, sort: Any = True) -> list:
        if self is c and code == EFFECT_INDESTRUCTABLE:
            out = eset if eset is not None else []
            out.append(indes)
            return out
        return original(self, code, eset, sort)
    monkeypatch.setattr(Card, "filter_effect", filtered)
    c.current.reason = REASON_RULE
    d.destroy(c, None, REASON_EFFECT, 1)
    run(d)
    assert c.current.location == LOCATION_MZONE
    assert c.current.reason == REASON_RULE  # the destroy reason is taken back
    assert not c.is_status(STATUS_DESTROY_CONFIRMED)
    assert not moves(d)
    assert MsgHint(type=HINT_CARD, player=0, data=500) in d.messages
    assert d.returns.ivalue[0] == 0


# ----- discard the Deck -------------------------------------------------------------------

def test_discard_deck_sends_the_top_cards_top_first() -> None:
    d = make_duel()
    bottom = d.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    middle = d.new_card_at(101, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    top = d.new_card_at(102, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    assert d.player[0].list_main == [bottom, middle, top]
    run(d, d.proc_discard_deck(0, 2, REASON_EFFECT))
    ms = moves(d)
    assert [m.code for m in ms] == [102, 101]
    assert ms[0].previous == loc(0, LOCATION_DECK, 2, POS_FACEDOWN)
    assert ms[0].current == loc(0, LOCATION_GRAVE, 0, POS_FACEUP)
    assert ms[1].current == loc(0, LOCATION_GRAVE, 1, POS_FACEUP)
    assert d.player[0].list_main == [bottom]
    assert d.returns.ivalue[0] == 2
    assert set(d.core.operated_set) == {top, middle}


# ----- move to field ----------------------------------------------------------------------

def test_move_to_field_into_the_only_allowed_zone_asks_nothing() -> None:
    d = make_duel()
    c = d.new_card_at(500, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.move_to_field(c, 0, 0, LOCATION_SZONE, POS_FACEUP, True, 0, False, 0x1 << 2)
    prompts = run(d)
    assert prompts == []
    assert d.player[0].list_szone[2] is c
    assert moves(d) == [MsgMove(code=500, previous=loc(0, LOCATION_HAND, 0, POS_FACEDOWN),
                                current=loc(0, LOCATION_SZONE, 2, POS_FACEUP), reason=0)]
    assert d.returns.ivalue[0] == 1


def test_move_to_field_lets_the_mover_pick_the_zone() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    d.move_to_field(c, 0, 0, LOCATION_MZONE, POS_FACEUP_ATTACK)
    prompts = run(d, None, [bytes([0, LOCATION_MZONE, 3])])
    assert isinstance(prompts[0], MsgSelectPlace)
    # own Monster Zones bits 0-7 (free ones cleared), everything else blocked
    assert prompts[0].flag & 0xFFFFFF00 == 0xFFFFFF00
    assert prompts[0].flag & 0x1F == 0
    assert d.player[0].list_mzone[3] is c
    assert c.current.position == POS_FACEUP_ATTACK


def test_move_to_field_without_room_sends_to_grave() -> None:
    d = make_duel()
    for seq in range(5):
        d.new_card_at(100, 0, 0, LOCATION_SZONE, seq, POS_FACEDOWN)
    c = d.new_card_at(500, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.move_to_field(c, 0, 0, LOCATION_SZONE, POS_FACEUP)
    run(d)
    assert c.current.location == LOCATION_GRAVE
    assert d.returns.ivalue[0] == 0


def test_single_zone() -> None:
    assert _single_zone(0x4) == 2
    assert _single_zone(0x20) == 5
    assert _single_zone(0x6) is None
    assert _single_zone(0) is None
    assert _single_zone(0x100) is None


# ----- positions --------------------------------------------------------------------------

def test_change_position_to_defense() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    d.change_position(c, None, 0, POS_FACEUP_DEFENSE, 0)
    run(d)
    assert c.current.position == POS_FACEUP_DEFENSE
    assert [m for m in d.messages if isinstance(m, MsgPosChange)] == [MsgPosChange(
        code=100, controller=0, location=LOCATION_MZONE, sequence=1,
        previous_position=POS_FACEUP_ATTACK, current_position=POS_FACEUP_DEFENSE)]
    assert c.is_status(STATUS_ATTACK_CANCELED) and c.is_status(STATUS_JUST_POS)
    assert d.returns.ivalue[0] == 1


def test_change_position_by_current_position_and_flip_gets_new_field_id() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 0, 0, LOCATION_MZONE, 1, POS_FACEDOWN_DEFENSE)
    old_fieldid = b.fieldid
    d.change_position(CardSet((a, b)), None, 0, POS_FACEUP_DEFENSE, POS_FACEUP_DEFENSE,
                      POS_FACEUP_ATTACK, POS_FACEUP_ATTACK, 0)
    run(d)
    assert a.current.position == POS_FACEUP_DEFENSE
    assert b.current.position == POS_FACEUP_ATTACK
    assert b.fieldid != old_fieldid


def test_position_change_to_the_same_position_drops_the_card() -> None:
    d = make_duel()
    c = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.change_position(c, None, 0, POS_FACEUP_ATTACK, 0)
    run(d)
    assert not [m for m in d.messages if isinstance(m, MsgPosChange)]
    assert d.returns.ivalue[0] == 0


# ----- control ----------------------------------------------------------------------------

def test_swap_zone_flag() -> None:
    # own side: only the main zones that are free (and the swapped card's own) are open
    assert _swap_zone_flag(0b00110, 1, 0, 0) == 0xFFFFFFE4
    # the opponent's side: the same mask moved to bits 16-23
    assert _swap_zone_flag(0b00110, 1, 0, 1) == 0xFFE4FFFF


def test_get_control_moves_the_monster_to_the_new_controller() -> None:
    d = make_duel()
    c = d.new_card_at(100, 1, 1, LOCATION_MZONE, 2, POS_FACEUP_ATTACK)
    d.get_control(c, None, 0, 0, 0, 0, 0x1 << 4)
    run(d)
    assert d.player[0].list_mzone[4] is c
    assert c.current.controler == 0
    assert d.returns.ivalue[0] == 1


# ----- draw -------------------------------------------------------------------------------

def test_draw_takes_the_top_cards() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    b = d.new_card_at(101, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    c = d.new_card_at(102, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    d.draw(None, REASON_RULE, 0, 0, 2)
    run(d)
    assert [m for m in d.messages if isinstance(m, MsgDraw)] == [MsgDraw(player=0, codes=(102, 101))]
    assert d.player[0].list_hand == [c, b]
    assert d.player[0].list_main == [a]
    assert c.current.reason == REASON_RULE | REASON_DRAW
    assert d.returns.ivalue[0] == 2
    assert not d.core.overdraw[0]


def test_drawing_more_than_the_deck_marks_an_overdraw() -> None:
    d = make_duel()
    d.new_card_at(100, 1, 1, LOCATION_DECK, 0, POS_FACEDOWN)
    run(d, d.proc_draw(None, REASON_EFFECT, 1, 1, 3))
    assert d.core.overdraw[1]
    assert [m for m in d.messages if isinstance(m, MsgDraw)] == [MsgDraw(player=1, codes=(100,))]
    assert d.returns.ivalue[0] == 1


# ----- chain links ------------------------------------------------------------------------

def _chain_with_link(d: Duel) -> Chain:
    holder = d.new_card_at(500, 0, 0, LOCATION_SZONE, 0, POS_FACEUP)
    eff = d.new_effect()
    eff.owner = eff.handler = holder
    eff.type = EFFECT_TYPE_ACTIVATE
    ch = Chain()
    ch.chain_count = 1
    ch.triggering_effect = eff
    ch.triggering_location = LOCATION_SZONE
    d.core.current_chain.append(ch)
    return ch


def test_negate_and_disable_a_chain_link() -> None:
    d = make_duel()
    ch = _chain_with_link(d)
    assert d.negate_chain(5)  # out of range: the last link
    assert ch.flag & CHAIN_DISABLE_ACTIVATE
    assert not d.negate_chain(1)  # only once
    assert d.disable_chain(1)
    assert ch.flag & CHAIN_DISABLE_EFFECT
    assert [m for m in d.messages if isinstance(m, (MsgChainNegated, MsgChainDisabled))] == [
        MsgChainNegated(chain_count=1), MsgChainDisabled(chain_count=1)]


def test_chain_changes_without_a_chain_do_nothing() -> None:
    d = make_duel()
    assert not d.negate_chain(1)
    assert not d.disable_chain(1)
    d.change_target_player(1, 1)
    d.change_target_param(1, 5)
    assert d.messages == []


# ----- sort, coins, rock-paper-scissors ---------------------------------------------------

def test_sort_deck_puts_the_cards_back_in_the_chosen_order() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    b = d.new_card_at(101, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    c = d.new_card_at(102, 0, 0, LOCATION_DECK, 0, POS_FACEDOWN)
    # offered top first: (c, b); the answer gives each its new place from the top
    prompts = run(d, d.proc_sort_deck(0, 0, 2), [bytes([1, 0])])
    assert isinstance(prompts[0], MsgSortCard)
    assert d.player[0].list_main == [a, c, b]
    ms = moves(d)
    assert [(m.code, m.previous, m.current, m.reason) for m in ms] == [
        (0, loc(0, LOCATION_DECK, 2, POS_FACEDOWN), loc(0, LOCATION_DECK, 2, POS_FACEDOWN), REASON_EFFECT),
        (0, loc(0, LOCATION_DECK, 1, POS_FACEDOWN), loc(0, LOCATION_DECK, 1, POS_FACEDOWN), REASON_EFFECT)]


def test_toss_coins_until_tails() -> None:
    d = make_duel()
    run(d, d.proc_toss_coin(None, 0, 0, -1))
    [m] = [m for m in d.messages if isinstance(m, MsgTossCoin)]
    assert m.results[-1] == 0 and all(m.results[:-1])
    assert d.core.coin_count == len(m.results)


def test_toss_a_number_of_coins() -> None:
    d = make_duel()
    run(d, d.proc_toss_coin(None, 0, 1, 3))
    [m] = [m for m in d.messages if isinstance(m, MsgTossCoin)]
    assert m.player == 1 and len(m.results) == 3
    assert d.core.coin_result[:3] == list(m.results)
    d.messages.clear()
    run(d, d.proc_toss_coin(None, 0, 1, 0))
    assert d.messages == []


@pytest.mark.parametrize("hands, winner, repeat_draw", [
    ((1, 2), 1, False),   # scissors vs rock
    ((2, 1), 0, False),
    ((3, 3), PLAYER_NONE, False),
    ((3, 3, 3, 2), 0, True),  # a draw is replayed when asked
])
def test_rock_paper_scissors(hands: tuple, winner: int, repeat_draw: bool) -> None:
    d = make_duel()
    prompts = run(d, d.proc_rock_paper_scissors(repeat_draw), [i32(h) for h in hands])
    assert [p.player for p in prompts] == [0, 1] * (len(hands) // 2)
    assert all(isinstance(p, MsgRockPaperScissors) for p in prompts)
    res = [m for m in d.messages if isinstance(m, MsgHandRes)]
    assert res[-1] == MsgHandRes(result=hands[-2] + (hands[-1] << 2))
    assert d.returns.ivalue[0] == winner


# ----- replacement order ------------------------------------------------------------------

def test_field_replacements_offer_the_turn_players_effects_first(monkeypatch: pytest.MonkeyPatch) -> None:
    d = make_duel()
    d.infos.turn_player = 1
    h0 = d.new_card_at(500, 0, 0, LOCATION_SZONE, 0, POS_FACEUP)
    h1 = d.new_card_at(500, 1, 1, LOCATION_SZONE, 0, POS_FACEUP)
    effects = []
    for h in (h0, h1, h0, h1):
        e = d.new_effect()
        e.owner = e.handler = h
        e.code = EFFECT_SEND_REPLACE
        d.effects.continuous_effect.add(EFFECT_SEND_REPLACE, e)
        effects.append(e)
    offered: list[Effect] = []

    def record(self: Duel, reffect: Effect, targets: Any, is_destroy: Any) -> Any:
        offered.append(reffect)
        return iter(())
    monkeypatch.setattr(Duel, "proc_operation_replace_group", record)
    d.operation_replace(EFFECT_SEND_REPLACE, 5, d.new_group())
    assert offered == [effects[1], effects[3], effects[0], effects[2]]


# ----- equips, materials, hand, attacks ---------------------------------------------------

def test_equip_places_the_card_and_links_it() -> None:
    d = make_duel()
    mon = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    eq = d.new_card_at(501, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.equip(0, eq, mon, True, False)
    prompts = run(d, None, [bytes([0, LOCATION_SZONE, 1])])
    assert isinstance(prompts[0], MsgSelectPlace)
    assert d.player[0].list_szone[1] is eq and eq.is_position(POS_FACEUP)
    assert eq.equiping_target is mon and eq in mon.equiping_cards
    assert mon in eq.effect_target_cards and eq in mon.effect_target_owner
    assert d.returns.ivalue[0] == 1


def test_equip_to_a_face_down_monster_sends_the_card_to_the_grave() -> None:
    d = make_duel()
    mon = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEDOWN_DEFENSE)
    eq = d.new_card_at(501, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.equip(0, eq, mon, True, False)
    run(d)
    assert eq.current.location == LOCATION_GRAVE
    assert eq.equiping_target is None
    assert d.returns.ivalue[0] == 0


def test_swap_control_asks_both_new_zones() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 1, 1, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.swap_control(None, 0, a, b, 0, 0)
    prompts = run(d, None, [bytes([0, LOCATION_MZONE, 2]), bytes([1, LOCATION_MZONE, 3])])
    assert [type(p) for p in prompts] == [MsgSelectPlace, MsgSelectPlace]
    # first b's place on player 0's side, then a's on player 1's (seen from player 0)
    # all five main zones are open, the swapped card's own included
    assert prompts[0].flag & 0xFF == 0xE0
    assert (prompts[1].flag >> 16) & 0xFF == 0xE0
    assert d.player[0].list_mzone[2] is b and d.player[1].list_mzone[3] is a
    assert a.current.controler == 1 and b.current.controler == 0
    assert d.returns.ivalue[0] == 1


def test_swap_control_of_monsters_on_one_side_does_nothing() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    b = d.new_card_at(101, 0, 0, LOCATION_MZONE, 1, POS_FACEUP_ATTACK)
    d.swap_control(None, 0, a, b, 0, 0)
    assert run(d) == []
    assert d.returns.ivalue[0] == 0 and not d.core.operated_set


def test_detach_a_material() -> None:
    d = make_duel()
    xyz = d.new_card_at(400, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    m1 = d.new_card_at(100, 0, 0, LOCATION_GRAVE, 0, POS_FACEUP)
    m2 = d.new_card_at(101, 0, 0, LOCATION_GRAVE, 1, POS_FACEUP)
    xyz.xyz_overlay(CardSet((m1, m2)))
    d.messages.clear()
    d.remove_overlay_card(REASON_COST, xyz, 0, 0, 0, 1, 1)
    prompts = run(d, None, [bytes([1, 0])])
    assert len(prompts) == 1 and prompts[0].min == 1 and prompts[0].max == 1
    assert MsgHint(type=HINT_SELECTMSG, player=0, data=519) in d.messages
    chosen = d.core.operated_set.first()
    assert chosen in (m1, m2) and chosen.current.location == LOCATION_GRAVE
    assert len(xyz.xyz_materials) == 1
    assert d.returns.ivalue[0] == 1


def test_detach_without_enough_materials_does_nothing() -> None:
    d = make_duel()
    xyz = d.new_card_at(400, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    run(d, d.proc_remove_overlay_card(REASON_COST, xyz, 0, 0, 0, 1, 1))
    assert d.returns.ivalue[0] == 0 and d.messages == []


def test_discard_hand() -> None:
    d = make_duel()
    a = d.new_card_at(100, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    b = d.new_card_at(101, 0, 0, LOCATION_HAND, 0, POS_FACEDOWN)
    d.core.select_cards = [a, b]
    run(d, d.proc_discard_hand(0, 1, 1, REASON_COST | REASON_DISCARD), [bytes([1, 1])])
    assert MsgHint(type=HINT_SELECTMSG, player=0, data=501) in d.messages
    assert b.current.location == LOCATION_GRAVE
    assert b.current.reason == REASON_COST | REASON_DISCARD
    assert a.current.location == LOCATION_HAND
    assert d.returns.ivalue[0] == 1


def test_negate_attack() -> None:
    d = make_duel()
    run(d, d.proc_attack_disable())
    assert d.returns.ivalue[0] == 0
    attacker = d.new_card_at(100, 0, 0, LOCATION_MZONE, 0, POS_FACEUP_ATTACK)
    d.core.attacker = attacker
    d.core.pre_field[0] = attacker.fieldid_r
    run(d, d.proc_attack_disable())
    assert d.returns.ivalue[0] == 1
    assert attacker.is_status(STATUS_ATTACK_CANCELED)
    assert attacker.is_affected_by_effect(EFFECT_ATTACK_DISABLED)


def test_remove_counter_from_a_card() -> None:
    d = make_duel()
    c = d.new_card_at(500, 0, 0, LOCATION_SZONE, 0, POS_FACEUP)
    c.counters[0x1] = 3
    run(d, d.proc_remove_counter(REASON_COST, c, 0, 0, 0, 0x1, 2))
    assert c.get_counter(0x1) == 1
    assert d.returns.ivalue[0] == 1
    run(d, d.proc_remove_counter(REASON_COST, c, 0, 0, 0, 0x1, 2))
    assert c.get_counter(0x1) == 1
    assert d.returns.ivalue[0] == 0
