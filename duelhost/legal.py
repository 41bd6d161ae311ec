"""Legal answers to every prompt kind: ``iter_legal_responses`` and ``legal_responses``.

``duelhost.engine.responses.legal_responses`` lists the answers of the prompts
whose answer set is small (commands, chains, yes/no, options, positions...).
The others can have very many answers -- choosing 5 of 30 cards, a sum, an
order of 10 cards -- so here they come from a generator, in a fixed order:

=====================  ==========================================================
prompt                 order of the answers
=====================  ==========================================================
SELECT_CARD            cancel first (when cancelable), then the index sets of
                       ``min`` .. ``max`` cards, smaller sets first, each set in
                       ascending index order (``itertools.combinations``)
SELECT_TRIBUTE         cancel first (when cancelable), then the index sets of 0 ..
                       ``max`` cards whose tribute values reach ``min``
SELECT_SUM             the index sets (must-select cards implied) the reference's
                       sum check accepts, smaller sets first
SELECT_PLACE,          the sets of ``max(1, count)`` zones that may be chosen, in
SELECT_DISFIELD        zone order (own Monster Zones, own Spell & Trap Zones, then
                       the opponent's); "no zone" when ``count`` is 0 and none is free
SELECT_COUNTER         every way to remove exactly ``count`` counters, the first
                       card's count varying slowest
SORT_CARD              keep the order (``None``), then every permutation
ANNOUNCE_RACE/ATTRIB   every mask of exactly ``count`` available bits
ANNOUNCE_CARD          every card of the database (``cards``) the filter allows,
                       in database order
=====================  ==========================================================

Every answer yielded is one the reference accepts (each is checked with
``validate_response``, the reference's own checks); a set of answers that are
equal for the reference (the order of the zones of one choice, the order of a
card set) is given once.  ``legal_responses(prompt, limit=N)`` is the first N of
them (``limit=None``: all, which may be a great many): a bounded list that always
starts with the answers a person would think of first -- cancel, then the
smallest selections -- found among at most ``DEFAULT_BUDGET`` candidates, so that
it returns in about a second even for a sum over 30 cards.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Iterator
from typing import Any

from duelhost.engine import responses as R
from duelhost.engine.constants import LOCATION_MZONE, LOCATION_SZONE
from duelhost.engine.core_constants import RACES_COUNT
from duelhost.engine.messages import (
    MsgAnnounceAttrib,
    MsgAnnounceCard,
    MsgAnnounceRace,
    MsgSelectCard,
    MsgSelectCounter,
    MsgSelectDisfield,
    MsgSelectPlace,
    MsgSelectSum,
    MsgSelectTribute,
    MsgSortCard,
    Prompt,
)

__all__ = ["DEFAULT_LIMIT", "iter_legal_responses", "legal_responses"]

DEFAULT_LIMIT = 256
"""How many answers ``legal_responses`` lists unless told (the small prompts have fewer)."""

DEFAULT_BUDGET = 50_000
"""How many candidate answers the bounded list examines at most (a sum over 30 cards has
2**30 candidate sets, few of them accepted): the list may then hold fewer than ``limit``."""


class _Budget:
    def __init__(self, n: int | None) -> None:
        self.left = n

    def spend(self) -> bool:
        if self.left is None:
            return True
        self.left -= 1
        return self.left >= 0


def _accepted(prompt: Prompt, candidates: Iterable[R.Response], budget: _Budget) -> Iterator[R.Response]:
    for r in candidates:
        if not budget.spend():
            return
        try:
            R.validate_response(prompt, r)
        except R.InvalidResponse:
            continue
        yield r


def _subsets(n: int, lo: int, hi: int) -> Iterator[tuple[int, ...]]:
    for k in range(max(lo, 0), min(hi, n) + 1):
        yield from itertools.combinations(range(n), k)


def _zones(p: MsgSelectPlace | MsgSelectDisfield, budget: _Budget) -> Iterator[R.PlaceResponse]:
    free = [R.Zone(player=zp, location=loc, sequence=s)
            for zp in (p.player, 1 - p.player)
            for loc, count in ((LOCATION_MZONE, 7), (LOCATION_SZONE, 8))
            for s in range(count)]
    found = False
    for combo in itertools.combinations(free, max(1, p.count)):
        if not budget.spend():
            return
        r = R.PlaceResponse(zones=combo)
        try:
            R.validate_response(p, r)
        except R.InvalidResponse:
            continue
        found = True
        yield r
    if not found and p.count == 0:
        yield R.PlaceResponse(zones=(R.Zone(player=p.player, location=0, sequence=0),))


def _counter_splits(caps: list[int], total: int) -> Iterator[tuple[int, ...]]:
    if not caps:
        if total == 0:
            yield ()
        return
    rest = sum(caps[1:])
    for first in range(min(caps[0], total) + 1):
        if total - first <= rest:
            for tail in _counter_splits(caps[1:], total - first):
                yield (first, *tail)


def _masks(available: int, end: int, count: int) -> Iterator[int]:
    bits = [b for b in (1 << i for i in range(end.bit_length())) if b < end and b & available]
    for combo in itertools.combinations(bits, count):
        yield sum(combo)


def iter_legal_responses(prompt: Prompt, *, cards: Iterable[Any] | None = None,
                         budget: int | None = None) -> Iterator[R.Response]:
    """Every answer the reference accepts to ``prompt``, one by one (see the module for the order).

    ``cards``: for ANNOUNCE_CARD, the cards that may be named (records with code,
    alias, setcodes, type, race, attribute, rule_code: a ``CardDatabase`` fits);
    without them ANNOUNCE_CARD has no listed answer.  ``budget``: stop after examining
    that many candidate answers (None: walk them all)."""
    p = prompt
    b = _Budget(budget)
    if isinstance(p, MsgSelectCard):
        if p.cancelable:
            yield R.CardsResponse(indices=None)
        yield from _accepted(p, (R.CardsResponse(indices=s) for s in _subsets(len(p.cards), p.min, p.max)), b)
    elif isinstance(p, MsgSelectTribute):
        if p.cancelable:
            yield R.CardsResponse(indices=None)
        yield from _accepted(p, (R.CardsResponse(indices=s) for s in _subsets(len(p.cards), 0, p.max)), b)
    elif isinstance(p, MsgSelectSum):
        n = len(p.cards)
        lo, hi = (p.min, p.max) if p.mode == 0 else (0, n)
        yield from _accepted(p, (R.SumResponse(indices=s) for s in _subsets(n, lo, hi)), b)
    elif isinstance(p, (MsgSelectPlace, MsgSelectDisfield)):
        yield from _zones(p, b)
    elif isinstance(p, MsgSelectCounter):
        caps = [c.counter_count for c in p.cards]
        yield from _accepted(p, (R.CounterResponse(counts=s) for s in _counter_splits(caps, p.count)), b)
    elif isinstance(p, MsgSortCard):
        yield R.SortResponse(order=None)
        for o in itertools.permutations(range(len(p.cards))):
            if not b.spend():
                return
            yield R.SortResponse(order=o)
    elif isinstance(p, MsgAnnounceRace):
        yield from _accepted(p, (R.AnnounceRaceResponse(races=m)
                                 for m in _masks(p.available, 1 << RACES_COUNT, p.count)), b)
    elif isinstance(p, MsgAnnounceAttrib):
        yield from _accepted(p, (R.AnnounceAttribResponse(attributes=m)
                                 for m in _masks(p.available, R.ATTRIBUTES_END, p.count)), b)
    elif isinstance(p, MsgAnnounceCard):
        for rec in cards or ():
            if rec.code and R.is_declarable(rec, p.options):
                yield R.AnnounceCardResponse(code=R._s32(rec.code))
    else:
        yield from R.legal_responses(p)


def legal_responses(prompt: Prompt, *, limit: int | None = DEFAULT_LIMIT,
                    cards: Iterable[Any] | None = None) -> list[R.Response]:
    """The first ``limit`` answers of ``iter_legal_responses`` (all of them with ``limit=None``).

    For the small prompts that is every answer; for the combinatorial ones (see the
    module) it is a bounded list in a documented order, starting with cancel and the
    smallest selections, found among at most ``DEFAULT_BUDGET`` candidates (so a rare
    accepted sum may be missing from it; ``limit=None`` walks every candidate).  An
    empty list with ``limit=None`` means no answer is accepted."""
    if limit is None:
        return list(iter_legal_responses(prompt, cards=cards))
    return list(itertools.islice(iter_legal_responses(prompt, cards=cards, budget=DEFAULT_BUDGET), limit))
