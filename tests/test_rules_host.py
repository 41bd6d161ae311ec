"""Issue 3, item 1: the host API (duelhost.Duel), with our rules cards.

Create a duel from the bundled database and scripts with a seed; set LP, hands and
draw counts; add decks or single cards anywhere; start; then the loop of typed
requests (prompts) and typed responses; ``run`` with player objects (random and
scripted); the state at any time (cards per location with current stats, LP,
turn, phase, chain); messages as typed objects and as the reference's bytes.
"""

from __future__ import annotations

import pytest

from duelhost import Duel, DuelSetupError, InvalidResponse, RandomPlayer, ScriptedPlayer
from duelhost.engine import constants as C
from duelhost.engine.carddb import UnknownCardError
from duelhost.engine.messages import (MsgSelectChain, MsgSelectIdleCmd, Prompt, decode_messages,
                                      encode_messages)
from duelhost.engine.responses import ChainResponse, IdleCmdResponse, PlaceResponse, encode_response

from rules_board import BAILIFF, BRIEF_SURGE, CLERK, RALLY_BANNER, SPARK_BOLT, Board, first_free_zone

DECK = [int(x) for x in open(__file__.replace("tests/test_rules_host.py", "cards/rules_a.ydk")).read().split()
        if x.isdigit()]


def test_defaults_are_the_bundled_cards_and_scripts():
    d = Duel(seed=3)
    assert SPARK_BOLT in d.db
    d.add_deck(0, DECK, shuffle=True)
    d.add_deck(1, DECK, shuffle=True)
    d.start()
    req = d.advance()
    assert isinstance(req, Prompt)
    assert d.advance() is req                      # asking again returns the same request


def test_set_up_players_and_cards_anywhere():
    d = Duel(seed=1)
    d.set_player(0, lp=4000, start_hand=3, draw=2)
    d.set_player(1, lp=9000, start_hand=0)
    d.add_deck(0, [CLERK] * 10)
    d.add_deck(1, [CLERK] * 10)
    d.add_card(BAILIFF, 0, C.LOCATION_MZONE, 2, C.POS_FACEUP_DEFENSE)
    d.add_card(RALLY_BANNER, 0, C.LOCATION_SZONE, 1, C.POS_FACEUP)
    d.add_card(SPARK_BOLT, 1, C.LOCATION_GRAVE)
    d.add_card(BAILIFF, 1, C.LOCATION_REMOVED, 0, C.POS_FACEUP)
    d.start()
    d.advance()
    st = d.state()
    assert (st.turn, st.turn_player, st.phase) == (1, 0, C.PHASE_MAIN1)
    assert (st.players[0].lp, st.players[1].lp) == (4000, 9000)
    assert len(st.players[0].at(C.LOCATION_HAND)) == 3 and len(st.players[1].at(C.LOCATION_HAND)) == 0
    mon = st.players[0].at(C.LOCATION_MZONE)[0]
    assert (mon.code, mon.sequence, mon.position) == (BAILIFF, 2, C.POS_FACEUP_DEFENSE)
    assert (mon.attack, mon.defense, mon.level) == (1800, 900, 4)     # current stats, Rally Banner applied
    assert [c.code for c in st.players[1].at(C.LOCATION_GRAVE)] == [SPARK_BOLT]
    assert [c.code for c in st.players[1].at(C.LOCATION_REMOVED)] == [BAILIFF]
    assert len(st.players[0].at(C.LOCATION_DECK)) == 7
    assert "Gavel Bailiff" in str(st)


def test_setup_errors_are_refused_clearly():
    d = Duel(seed=1)
    with pytest.raises(DuelSetupError, match="player must be 0 or 1"):
        d.set_player(2)
    with pytest.raises(UnknownCardError):
        d.add_card(123, 0)
    d.add_card(BAILIFF, 0, C.LOCATION_MZONE, 0)
    with pytest.raises(DuelSetupError, match="zone is taken"):
        d.add_card(BAILIFF, 0, C.LOCATION_MZONE, 0)
    with pytest.raises(DuelSetupError, match="start"):
        d.advance()
    d.add_deck(0, [CLERK] * 5)
    d.add_deck(1, [CLERK] * 5)
    d.start()
    with pytest.raises(DuelSetupError, match="already started"):
        d.add_card(BAILIFF, 0)
    with pytest.raises(DuelSetupError, match="already started"):
        d.start()


def test_requests_are_typed_and_responses_typed_bytes_or_int():
    b = Board()
    b.hand(SPARK_BOLT)
    b.hand(BRIEF_SURGE)
    b.monster(BAILIFF)
    b.start()
    req = b.duel.request
    assert isinstance(req, MsgSelectIdleCmd) and req.player == 0
    assert IdleCmdResponse(command=7) in b.duel.legal_responses()
    index = [o.card_code for o in req.activatable].index(SPARK_BOLT)
    # the same answer as raw bytes
    nxt = b.duel.respond(encode_response(req, IdleCmdResponse(command=5, index=index)))
    assert isinstance(nxt, Prompt)
    b.run()
    assert b.lp(1) == 7700
    req = b.duel.request
    index = [o.card_code for o in req.activatable].index(BRIEF_SURGE)
    b.duel.respond((index << 16) | 5)              # and as an int
    b.run()
    assert b.field(0)[0].get_attack() == 2000


def test_state_shows_the_chain():
    b = Board()
    b.hand(SPARK_BOLT)
    b.start()
    b.duel.respond(IdleCmdResponse(command=5, index=0))
    req = b.run(until=MsgSelectChain, player=1)
    assert isinstance(req, MsgSelectChain)
    assert b.duel.state().chain == ((SPARK_BOLT, 1),)


def test_messages_typed_and_as_the_references_bytes():
    d = Duel(seed=5)
    d.add_deck(0, DECK, shuffle=True)
    d.add_deck(1, DECK, shuffle=True)
    d.run([RandomPlayer(1), RandomPlayer(2)], max_turns=4)
    raw = d.message_bytes()
    assert raw == encode_messages(d.messages)
    assert decode_messages(raw) == d.messages
    assert d.message_bytes(10) == encode_messages(d.messages[10:])


def test_run_with_random_players_returns_the_outcome():
    d = Duel(seed=11)
    d.add_deck(0, DECK, shuffle=True)
    d.add_deck(1, DECK, shuffle=True)
    out = d.run([RandomPlayer(1), RandomPlayer(2)], max_turns=6)
    assert out.turns >= 6 and out.responses == d.responses > 0
    if out.finished:
        assert out.winner in (0, 1, 2) and out.reason is not None
    else:
        assert out.stopped_by == "turn_limit"


def test_scripted_player_answers_in_order_and_says_when_it_runs_out():
    b = Board()
    b.hand(SPARK_BOLT)
    b.start()
    p = ScriptedPlayer([IdleCmdResponse(command=5, index=0),                  # activate Spark Bolt
                        lambda duel, req: PlaceResponse(zones=(first_free_zone(req),)),   # its zone
                        ChainResponse(index=None)])                           # player 1 passes
    with pytest.raises(LookupError, match="no scripted answer left for SELECT_CHAIN"):
        b.duel.run([p, p], max_turns=3)
    assert p.used == 3


def test_random_players_are_seeded():
    outs = []
    for _ in range(2):
        d = Duel(seed=21)
        d.add_deck(0, DECK, shuffle=True)
        d.add_deck(1, DECK, shuffle=True)
        d.run([RandomPlayer(7), RandomPlayer(8)], max_turns=5)
        outs.append(d.message_bytes())
    assert outs[0] == outs[1]


def test_an_illegal_typed_answer_raises_and_the_game_goes_on():
    b = Board()
    b.start()
    with pytest.raises(InvalidResponse):
        b.duel.respond(IdleCmdResponse(command=5, index=3))
    assert isinstance(b.duel.request, MsgSelectIdleCmd)
