"""Random real decks: the Main Deck cards of a database that a duel can use.

``main_deck_pool(db, scripts)`` lists the codes that may go in a random Main
Deck: a database row, a Main Deck card type (a Spell, a Trap, or a monster that
is not Fusion/Synchro/Xyz/Link/Token), legal in the OCG or TCG (or with no
legality recorded, as our own cards), not an alternate artwork (alias 0), and
a ``c<ID>.lua`` in the script folder unless it is a Normal Monster that is not
a Pendulum (the reference loads no script for those).  ``random_main_deck(rng, pool)`` draws 40 distinct cards from it.

Used by ``duelhost diff`` (live mode) and the replay writer's tests; the pool
is ordered by code so the same ``random.Random`` state gives the same deck.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Iterable

from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase

__all__ = ["main_deck_pool", "random_main_deck", "DECK_SIZE"]

DECK_SIZE = 40

_EXTRA_OR_TOKEN = C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK | C.TYPE_TOKEN
_OT_OCG_TCG = 0x3


def _needs_script(card_type: int) -> bool:
    """The reference loads c<ID>.lua for every card but a non-Pendulum Normal Monster."""
    return not (card_type & C.TYPE_NORMAL and card_type & C.TYPE_MONSTER and not card_type & C.TYPE_PENDULUM)


def main_deck_pool(db: CardDatabase, scripts: str | Path | None = None, *,
                   ot: int = _OT_OCG_TCG) -> list[int]:
    """Codes of ``db`` (ascending) that can be put in a random Main Deck."""
    have: set[str] | None = None
    if scripts is not None:
        have = {p.name for p in Path(scripts).glob("c*.lua")}
    out = []
    for rec in db:
        t = rec.type
        if not rec.code or rec.alias:
            continue
        if not t & (C.TYPE_MONSTER | C.TYPE_SPELL | C.TYPE_TRAP) or t & _EXTRA_OR_TOKEN:
            continue
        if ot and rec.ot and not rec.ot & ot:    # ot 0 (our own cards): no legality recorded
            continue
        if have is not None and _needs_script(t) and f"c{rec.code}.lua" not in have:
            continue
        out.append(rec.code)
    out.sort()
    return out


def random_main_deck(rng: random.Random, pool: Iterable[int], size: int = DECK_SIZE) -> list[int]:
    """``size`` distinct codes of ``pool`` in random order (``rng.sample``)."""
    cards = list(pool)
    if len(cards) < size:
        raise ValueError(f"the card pool has {len(cards)} cards, fewer than a {size}-card deck")
    return rng.sample(cards, size)
