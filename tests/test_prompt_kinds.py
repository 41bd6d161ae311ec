"""One object per prompt kind (engine/prompt_kinds.py): the engine refuses an answer
exactly when the kind does, the registry covers every prompt, the untruncated numbers
a prompt carries (``exact``) are what its answer is checked against, and the words."""

from __future__ import annotations

import random
import struct
from pathlib import Path

import pytest

from duelhost import Duel, RandomPlayer
from duelhost.engine import messages as M
from duelhost.engine import prompt_kinds as PK
from duelhost.engine import responses as R
from duelhost.engine.messages import MsgRetry, SumCard
from duelhost.engine.ydk import read_ydk
from duelhost.testing.questions import KINDS as VIEW_KINDS

REPO = Path(__file__).resolve().parent.parent


def test_every_prompt_class_has_one_kind() -> None:
    assert set(PK.KINDS) == set(M.PROMPT_TYPES.values())
    names = [k.name for k in PK.KINDS.values()]
    assert len(set(names)) == len(names) == 20
    assert {cls: k.name for cls, k in PK.KINDS.items()} == VIEW_KINDS
    assert R.RESPONSE_TYPES == {cls: k.response_type for cls, k in PK.KINDS.items()}
    with pytest.raises(TypeError, match="MsgRetry is not a prompt"):
        PK.kind_of(MsgRetry())


def _garbage(rng: random.Random) -> bytes:
    if rng.random() < 0.4:
        return struct.pack("<i", rng.choice([-1, 0, 1, 2, 3, 5, 7, 8, 9, 0x10000, 0x10005, 0x20001, -2]))
    n = rng.choice([1, 2, 3, 4, 6, 9])
    return bytes(rng.randrange(256) if rng.random() < 0.15 else rng.randrange(6) for _ in range(n))


@pytest.mark.parametrize("seed", [3, 11])
def test_engine_refuses_exactly_what_the_kind_refuses(seed: int) -> None:
    """Unchecked bytes (respond_raw) at every prompt of a duel: the engine writes
    MSG_RETRY exactly when the prompt's kind gives a reason, and accepts the rest."""
    a, b = read_ydk(REPO / "cards" / "demo_a.ydk"), read_ydk(REPO / "cards" / "demo_b.ydk")
    duel = Duel(seed=seed)
    duel.add_deck(0, a.main, a.extra, shuffle=True)
    duel.add_deck(1, b.main, b.extra, shuffle=True)
    duel.start()
    rng = random.Random(seed)
    player = RandomPlayer(seed)
    refused = accepted = 0
    seen: set[str] = set()
    for _ in range(250):
        req = duel.advance()
        if req is None:
            break
        seen.add(req.NAME)
        raw = _garbage(rng)
        reason = PK.kind_of(req).refusal(req, raw, card_lookup=duel.db.find)  # type: ignore[arg-type]
        before = len(duel.engine.messages)
        duel.respond_raw(raw)
        retried = isinstance(duel.engine.messages[before], MsgRetry) if len(duel.engine.messages) > before else False
        assert retried == (reason is not None), (req.describe(), raw.hex(), reason)
        if retried:
            refused += 1
            duel.respond(player(duel, req))
        else:
            accepted += 1
    assert refused > 50 and accepted > 5
    assert {"SELECT_IDLECMD", "SELECT_CHAIN", "SELECT_PLACE"} <= seen


def _sum_prompt(exact: M.SumLimits | None) -> M.MsgSelectSum:
    card = SumCard(code=1, controller=0, location=4, sequence=0, sum_param=4)
    other = SumCard(code=2, controller=0, location=4, sequence=1, sum_param=3)
    # a script's SelectWithSumEqual(tp, f, 8, 0, 2) with two must-select cards: the core
    # is asked for -1 .. 2 more cards; the message holds min 0xff and max 2
    return M.MsgSelectSum(player=0, mode=0, target=8, min=0xFF, max=2, must_cards=(card, card),
                          cards=(other,), exact=exact)


def test_exact_limits_are_checked_and_stay_off_the_wire() -> None:
    made = _sum_prompt(M.SumLimits(-1, 2, 8))
    decoded = M.MsgSelectSum.decode(made.encode())
    assert decoded == made and decoded.exact is None and decoded.encode() == made.encode()
    assert "exact" not in repr(made)
    only_one_must = bytes([1, 0])          # count byte 1: fewer than the two must-select cards
    # the core was asked for min -1 (count >= 2 - 1): the count is allowed, and the sum is
    # checked over the first entry only (4, not the 8 asked for), as the reference does
    assert "exactly 8" in str(PK.SELECT_SUM.refusal(made, only_one_must))
    # a host with only the message cannot know min was -1: it reads min 0
    assert "count byte 1 must be 2 to 4" in str(PK.SELECT_SUM.refusal(decoded, only_one_must))
    both = bytes([2, 0, 0])
    assert PK.SELECT_SUM.refusal(made, both) is None and PK.SELECT_SUM.refusal(decoded, both) is None


def test_a_count_below_the_must_select_cards_sums_only_the_first_entries() -> None:
    # the reference's exact-sum check reads returns.bvalue[0] entries, must-select cards
    # first: with target 4 and must-select cards 4 + 4, a count byte of 1 (min -1) is a
    # whole answer, and a count byte of 2 (both must-select cards, 8) is not
    card = SumCard(code=1, controller=0, location=4, sequence=0, sum_param=4)
    other = SumCard(code=2, controller=0, location=4, sequence=1, sum_param=3)
    made = M.MsgSelectSum(player=0, mode=0, target=4, min=0xFF, max=2, must_cards=(card, card),
                          cards=(other,), exact=M.SumLimits(-1, 2, 4))
    assert PK.SELECT_SUM.refusal(made, bytes([1, 0])) is None
    assert "exactly 4" in str(PK.SELECT_SUM.refusal(made, bytes([2, 0, 0])))
    # in the "at least" mode every must-select card counts whatever the count byte says
    greater = M.MsgSelectSum(player=0, mode=1, target=8, min=0, max=0, must_cards=(card, card),
                             cards=(other,))
    assert PK.SELECT_SUM.refusal(greater, bytes([2, 0, 0])) is None


def test_counter_exact_count_wins_over_the_message() -> None:
    cards = (M.CounterCard(code=1, controller=0, location=4, sequence=0, counter_count=3),)
    made = M.MsgSelectCounter(player=0, counter_type=1, count=2, cards=cards,
                              exact=M.CounterLimits(count=2 + 0x10000, caps=(3,)))
    decoded = M.MsgSelectCounter.decode(made.encode())
    two = struct.pack("<H", 2)
    assert PK.SELECT_COUNTER.refusal(decoded, two) is None
    assert "must be exactly 65538" in str(PK.SELECT_COUNTER.refusal(made, two))


def test_words() -> None:
    card = M.MsgSelectCard(player=1, cancelable=1, min=1, max=2,
                           cards=(M.SelectableCard(code=5, location=M.LocInfo.from_raw(0x0104)),))
    assert PK.SELECT_CARD.describe(card) == "Player 1 must choose 1 to 2 card(s), or cancel."
    pos = M.MsgSelectPosition(player=0, code=89631139, positions=0x5)
    names = PK.PromptWords({89631139: "Blue-Eyes White Dragon"}.get)
    assert PK.kind_of(pos).what(pos, names) == "choose a battle position for Blue-Eyes White Dragon (89631139)"
    chain = M.MsgSelectChain(player=0, special_count=0, hint_timing=0, other_hint_timing=0, chains=())
    assert PK.SELECT_CHAIN.what(chain) == "chain an effect or pass"
