"""legal_responses() at every prompt kind: every answer listed is accepted, the order and
the bound are the documented ones, and a duel answered only from the list runs."""

from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from duelhost import Duel
from duelhost.engine import responses as R
from duelhost.engine.messages import (CardInfo, MsgAnnounceAttrib, MsgAnnounceCard, MsgAnnounceRace,
                                      MsgSelectCard, MsgSelectCounter, MsgSelectPlace, MsgSelectSum,
                                      MsgSelectTribute, MsgSortCard)
from duelhost.engine.ydk import read_ydk
from duelhost.legal import iter_legal_responses, legal_responses

REPO = Path(__file__).resolve().parent.parent


def _all_accepted(prompt, answers, db=None) -> None:
    for a in answers:
        R.validate_response(prompt, a, card_lookup=db.find if db is not None else None)


def test_every_prompt_of_many_duels_has_a_listed_answer_and_each_is_accepted() -> None:
    """Answer every prompt of seeded demo duels with a random member of the listed answers."""
    a, b = read_ydk(REPO / "cards" / "demo_a.ydk"), read_ydk(REPO / "cards" / "demo_b.ydk")
    kinds: set[str] = set()
    for seed in range(6):
        duel = Duel(seed=seed)
        duel.add_deck(0, a.main, a.extra, shuffle=True)
        duel.add_deck(1, b.main, b.extra, shuffle=True)
        duel.start()
        rng = random.Random(seed)
        request = duel.advance()
        steps = 0
        while request is not None and duel.turn <= 12 and steps < 2000:
            options = duel.legal_responses()
            assert options, request
            kinds.add(type(request).NAME)
            _all_accepted(request, options[:20], duel.db)
            request = duel.respond(rng.choice(options))
            steps += 1
    assert {"SELECT_IDLECMD", "SELECT_PLACE", "SELECT_CHAIN"} <= kinds, kinds


def _cards(n: int) -> tuple:
    return tuple(CardInfo(code=100 + i, controller=0, location=2, sequence=i) for i in range(n))


def test_select_card_lists_cancel_then_the_smallest_sets() -> None:
    p = MsgSelectCard(player=0, cancelable=True, min=1, max=2, cards=_cards(3))
    got = legal_responses(p)
    assert got[0] == R.CardsResponse(indices=None)
    assert [r.indices for r in got[1:]] == [(0,), (1,), (2,), (0, 1), (0, 2), (1, 2)]


def test_the_bound_is_the_first_limit_answers_of_the_generator() -> None:
    p = MsgSelectCard(player=0, cancelable=False, min=1, max=10, cards=_cards(12))
    full = list(iter_legal_responses(p))
    assert len(full) == sum(len(list(itertools.combinations(range(12), k))) for k in range(1, 11))
    assert legal_responses(p) == full[:256]
    assert legal_responses(p, limit=5) == full[:5]
    assert legal_responses(p, limit=None) == full


def test_select_place_lists_the_free_zones() -> None:
    # own Monster Zones 0-4 blocked but 2; everything else blocked
    flag = 0xFFFFFFFF & ~(1 << 2)
    p = MsgSelectPlace(player=0, count=1, flag=flag)
    assert legal_responses(p) == [R.PlaceResponse(zones=(R.Zone(player=0, location=4, sequence=2),))]
    two = MsgSelectPlace(player=0, count=2, flag=0xFFFFFFFF & ~0b1011)
    assert [tuple(z.sequence for z in r.zones) for r in legal_responses(two)] == [(0, 1), (0, 3), (1, 3)]


def test_tribute_sum_counter_sort_and_declarations() -> None:
    from duelhost.engine.messages import CounterCard, SumCard, TributeCard
    t = MsgSelectTribute(player=0, cancelable=False, min=2, max=2,
                         cards=tuple(TributeCard(code=1, controller=0, location=4, sequence=i,
                                                 release_param=1) for i in range(3)))
    assert [r.indices for r in legal_responses(t)] == [(0, 1), (0, 2), (1, 2)]
    s = MsgSelectSum(player=0, mode=0, min=1, max=3, target=5, must_cards=(),
                     cards=tuple(SumCard(code=1, controller=0, location=4, sequence=i, sum_param=v)
                                 for i, v in enumerate((2, 3, 5))))
    assert [r.indices for r in legal_responses(s)] == [(2,), (0, 1)]
    c = MsgSelectCounter(player=0, counter_type=1, count=2,
                         cards=tuple(CounterCard(code=1, controller=0, location=4, sequence=i,
                                                 counter_count=n) for i, n in enumerate((1, 2))))
    assert [r.counts for r in legal_responses(c)] == [(0, 2), (1, 1)]
    so = MsgSortCard(player=0, cards=_cards(3))
    got = legal_responses(so)
    assert got[0] == R.SortResponse(order=None) and len(got) == 1 + 6
    race = MsgAnnounceRace(player=0, count=2, available=0b1011)
    assert [r.races for r in legal_responses(race)] == [0b11, 0b1001, 0b1010]
    attr = MsgAnnounceAttrib(player=0, count=1, available=0x41)
    assert [r.attributes for r in legal_responses(attr)] == [0x1, 0x40]


def test_announce_card_lists_the_cards_of_the_duels_database() -> None:
    from duelhost.engine.constants import OPCODE_ISTYPE, TYPE_SPELL
    duel = Duel(seed=1)
    p = MsgAnnounceCard(player=0, options=(TYPE_SPELL, OPCODE_ISTYPE))
    got = duel.legal_responses(p, limit=None)
    spells = [rec.code for rec in duel.db if rec.type & TYPE_SPELL and not rec.alias]
    assert [r.code for r in got] == spells and spells
    _all_accepted(p, got, duel.db)
    assert legal_responses(p) == []      # no card pool: nothing to name


def test_readme_example_at_a_select_place_prompt() -> None:
    """The README's `duel.respond(duel.legal_responses()[0])` at the prompt that used to raise."""
    p = MsgSelectPlace(player=0, count=1, flag=0xFFFFFFFF & ~(1 << 3))
    duel = Duel(seed=1)
    assert duel.legal_responses(p)[0] == R.PlaceResponse(zones=(R.Zone(player=0, location=4, sequence=3),))
    with pytest.raises(ValueError):           # the engine's own list still names only the small prompts
        R.legal_responses(p)


def test_a_huge_sum_prompt_is_bounded_in_time() -> None:
    """30 cards whose values never reach the target: 2**30 candidate sets, none accepted."""
    import time

    from duelhost.engine.messages import SumCard
    p = MsgSelectSum(player=0, mode=0, min=1, max=30, target=10_000, must_cards=(),
                     cards=tuple(SumCard(code=1, controller=0, location=4, sequence=i % 5, sum_param=1)
                                 for i in range(30)))
    start = time.perf_counter()
    assert legal_responses(p) == []
    assert time.perf_counter() - start < 60
    assert list(itertools.islice(iter_legal_responses(p, budget=10), 5)) == []
