"""Legal answers to every prompt kind: ``iter_legal_responses`` and ``legal_responses``.

Each prompt kind's object (duelhost.engine.prompt_kinds) knows its answers:
``legal`` lists them for the kinds whose answer set is small (commands, chains,
yes/no, options, positions...), ``iter_legal`` yields them one by one for every
kind.  The others can have very many answers -- choosing 5 of 30 cards, a sum,
an order of 10 cards -- so they come from a generator, in a fixed order:

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

Every answer yielded is one the reference accepts (each is checked with the
kind's ``validate``, the reference's own checks); a set of answers that are
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

from duelhost.engine.messages import Prompt
from duelhost.engine.prompt_kinds import Response, kind_of

__all__ = ["DEFAULT_LIMIT", "iter_legal_responses", "legal_responses"]

DEFAULT_LIMIT = 256
"""How many answers ``legal_responses`` lists unless told (the small prompts have fewer)."""

DEFAULT_BUDGET = 50_000
"""How many candidate answers the bounded list examines at most (a sum over 30 cards has
2**30 candidate sets, few of them accepted): the list may then hold fewer than ``limit``."""


def iter_legal_responses(prompt: Prompt, *, cards: Iterable[Any] | None = None,
                         budget: int | None = None) -> Iterator[Response]:
    """Every answer the reference accepts to ``prompt``, one by one (see the module for the order).

    ``cards``: for ANNOUNCE_CARD, the cards that may be named (records with code,
    alias, setcodes, type, race, attribute, rule_code: a ``CardDatabase`` fits);
    without them ANNOUNCE_CARD has no listed answer.  ``budget``: stop after examining
    that many candidate answers (None: walk them all)."""
    yield from kind_of(prompt).iter_legal(prompt, cards=cards, budget=budget)


def legal_responses(prompt: Prompt, *, limit: int | None = DEFAULT_LIMIT,
                    cards: Iterable[Any] | None = None) -> list[Response]:
    """The first ``limit`` answers of ``iter_legal_responses`` (all of them with ``limit=None``).

    For the small prompts that is every answer; for the combinatorial ones (see the
    module) it is a bounded list in a documented order, starting with cancel and the
    smallest selections, found among at most ``DEFAULT_BUDGET`` candidates (so a rare
    accepted sum may be missing from it; ``limit=None`` walks every candidate).  An
    empty list with ``limit=None`` means no answer is accepted."""
    if limit is None:
        return list(iter_legal_responses(prompt, cards=cards))
    return list(itertools.islice(iter_legal_responses(prompt, cards=cards, budget=DEFAULT_BUDGET), limit))
