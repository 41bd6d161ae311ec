"""The live diff's one allowance: client hints in the reference's address order.

The reference writes a card's client-hint messages (MSG_CARD_HINT DESC_ADD /
DESC_REMOVE) in the order of an unordered map keyed by effect address, and the
same duel comes out in either order from one run to the next.  A run of such
hints of one card that holds the same messages in another order is compared
as a set (duelhost.diff.settle_hint_order); nothing else is.
"""

from __future__ import annotations

from duelhost.diff import settle_hint_order
from duelhost.engine.constants import CHINT_TURN
from duelhost.engine.core_constants import CHINT_DESC_ADD, CHINT_DESC_REMOVE
from duelhost.engine.messages import LocInfo, MsgCardHint, MsgNewTurn


def hint(value: int, sequence: int = 21, type: int = CHINT_DESC_REMOVE) -> MsgCardHint:
    return MsgCardHint(loc=LocInfo(controller=0, location=0x10, sequence=sequence, position=0),
                       type=type, value=value)


def test_the_same_hints_in_another_order_are_settled_and_counted():
    theirs = [MsgNewTurn(player=0), hint(0x54), hint(0x53), MsgNewTurn(player=1)]
    mine = [MsgNewTurn(player=0), hint(0x53), hint(0x54), MsgNewTurn(player=1)]
    out, n = settle_hint_order(theirs, mine)
    assert n == 1 and [m.encode() for m in out] == [m.encode() for m in theirs]


def test_the_same_hints_of_several_cards_are_settled_too():
    theirs = [hint(0x54, sequence=2), hint(0x54, sequence=6)]     # one phase reset, two monsters
    mine = [hint(0x54, sequence=6), hint(0x54, sequence=2)]
    out, n = settle_hint_order(theirs, mine)
    assert n == 1 and [m.encode() for m in out] == [m.encode() for m in theirs]


def test_other_hints_are_left_to_differ():
    for mine in ([hint(0x53), hint(0x55)],                       # not the same messages
                 [hint(0x53, sequence=20), hint(0x54)],           # not the same card's hint
                 [hint(0x53, type=CHINT_DESC_ADD), hint(0x54)]):  # another hint type
        theirs = [hint(0x54), hint(0x53)]
        out, n = settle_hint_order(theirs, mine)
        assert n == 0 and out == mine


def test_hints_whose_order_is_a_rule_are_never_reordered():
    theirs = [hint(2, type=CHINT_TURN), hint(1, type=CHINT_TURN)]
    mine = [hint(1, type=CHINT_TURN), hint(2, type=CHINT_TURN)]
    assert settle_hint_order(theirs, mine) == (mine, 0)


def test_identical_streams_settle_nothing():
    stream = [hint(0x53), hint(0x54), MsgNewTurn(player=0)]
    assert settle_hint_order(stream, list(stream)) == (stream, 0)
