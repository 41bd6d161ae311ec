"""Issue 3, item 8: bad responses, with our rules cards.

A response that is not one of the legal options is refused with a clear reason
and the duel state is unchanged; sent raw (as a host's set_responseb), the
engine writes MSG_RETRY and asks the same question again, as the reference does;
a legal response given after it is then taken as usual.
"""

from __future__ import annotations

import pytest

from duelhost import InvalidResponse
from duelhost.engine import constants as C
from duelhost.engine.messages import MsgRetry, MsgSelectCard, MsgSelectChain, MsgSelectPlace, encode_messages
from duelhost.engine.responses import (CardsResponse, ChainResponse, IdleCmdResponse, PlaceResponse,
                                       PositionResponse, Zone)

from rules_board import BAILIFF, CLERK, SNARE_PIT, SPARK_BOLT, HERALD, TOLL_GATE, Board, first_free_zone


def snapshot(b: Board) -> tuple:
    return (str(b.duel.state()), len(b.duel.messages), b.duel.responses,
            b.engine.random.getstate() if hasattr(b.engine.random, "getstate") else None)


def refused(b: Board, answer, match: str) -> None:
    """``answer`` raises InvalidResponse naming the rule, and changes nothing."""
    req = b.duel.request
    before = snapshot(b)
    with pytest.raises(InvalidResponse, match=match) as info:
        b.duel.respond(answer)
    assert info.value.reason
    assert b.duel.request is req and snapshot(b) == before


def test_idle_command_out_of_range_is_refused_then_a_legal_one_is_taken():
    b = Board()
    b.hand(SPARK_BOLT)
    b.start()
    refused(b, IdleCmdResponse(command=5, index=1), r"IDLECMD: activate index 1 out of range \(1 entries\)")
    refused(b, IdleCmdResponse(command=6), "Battle Phase is not allowed")       # turn 1
    refused(b, IdleCmdResponse(command=9), "command 9 does not exist")
    refused(b, b"\x05\x00\x01", "activate index 1 out of range")                 # raw bytes, checked
    b.duel.respond(IdleCmdResponse(command=5, index=0))
    b.run()
    assert b.lp(1) == 7700


def test_card_selection_checks_count_range_and_duplicates():
    b = Board()
    b.spell(SNARE_PIT, 0, set_=True)
    b.monster(BAILIFF, 1, 0)
    b.monster(CLERK, 1, 1)
    b.start()
    b.duel.respond(IdleCmdResponse(command=5, index=0))
    req = b.run(until=MsgSelectCard)
    assert isinstance(req, MsgSelectCard) and (req.min, req.max) == (1, 1)
    refused(b, CardsResponse(indices=(0, 1)), "chose 2 cards, must choose 1 to 1")
    refused(b, CardsResponse(indices=(5,)), "index 5 out of range")
    refused(b, CardsResponse(indices=()), "chose 0 cards")
    b.duel.respond(CardsResponse(indices=(0,)))
    b.run()
    assert len(b.codes(1, C.LOCATION_GRAVE)) == 1


def test_a_forced_chain_cannot_be_passed():
    b = Board()
    b.hand(HERALD)
    b.spell(TOLL_GATE)
    b.start()
    b.duel.respond(IdleCmdResponse(command=0, index=0))
    req = b.run(until=MsgSelectChain, player=0)
    while not (isinstance(req, MsgSelectChain) and req.chains):
        b.duel.respond(b.default(req))
        req = b.run(until=MsgSelectChain, player=0)
    assert req.has_forced
    refused(b, ChainResponse(index=None), "cannot pass, an effect must be chained")
    refused(b, ChainResponse(index=2), r"index 2 out of range")
    b.duel.respond(ChainResponse(index=0))
    b.run()
    assert b.lp(0) == 8000 + 500 + 200


def test_place_and_position_must_be_offered():
    b = Board()
    b.hand(BAILIFF)
    b.monster(CLERK, 0, 0)
    b.start()
    b.duel.respond(IdleCmdResponse(command=0, index=0))
    req = b.run(until=MsgSelectPlace)
    assert isinstance(req, MsgSelectPlace)
    refused(b, PlaceResponse(zones=(Zone(player=0, location=C.LOCATION_MZONE, sequence=0),)),
            "SELECT_PLACE: zone 0: P0 location 0x4 sequence 0 may not be chosen")
    refused(b, PlaceResponse(zones=(Zone(player=1, location=C.LOCATION_MZONE, sequence=3),)),
            "P1 location 0x4 sequence 3 may not be chosen")
    b.duel.respond(PlaceResponse(zones=(first_free_zone(req),)))
    b.run()
    assert b.codes(0, C.LOCATION_MZONE) == [CLERK, BAILIFF]


def test_raw_bad_answer_writes_retry_asks_again_and_changes_nothing_else():
    """Two identical duels: one gets a bad raw answer first (MSG_RETRY), then both get
    the same legal answers.  Without the MSG_RETRY their message streams are
    byte-identical: a refused answer draws no random number and changes no state."""
    streams = []
    for bad in (False, True):
        b = Board(seed=9)
        b.hand(SPARK_BOLT)
        b.hand(CLERK)
        b.start()
        req = b.duel.request
        if bad:
            start = b.mark()
            before = snapshot(b)[0]
            again = b.duel.respond_raw(b"\x05\x00\x07\x00")          # activate index 7: no such entry
            # the reference writes MSG_RETRY and waits for another answer to the same prompt
            assert [type(m) for m in b.duel.messages[start:]] == [MsgRetry]
            assert again is req and b.duel.request is req
            assert str(b.duel.state()) == before
            retry_at = start
        b.duel.respond(IdleCmdResponse(command=5, index=0))
        b.run()
        b.end_turn()
        assert b.lp(1) == 7700
        msgs = list(b.duel.messages)
        if bad:
            del msgs[retry_at]
        streams.append(encode_messages(msgs))
    assert streams[0] == streams[1]


def test_answer_of_the_wrong_kind_is_refused():
    b = Board()
    b.start()
    refused(b, PositionResponse(position=C.POS_FACEUP_ATTACK),
            "SELECT_IDLECMD: MsgSelectIdleCmd is answered by IdleCmdResponse, not PositionResponse")
    refused(b, "7", "a response must be a Response, bytes or int")
