"""Decks for seeded duels: random decks from a card database, and pairs of .ydk files.

One home for every deck ``duelhost diff`` and ``duelhost selfplay`` play.

**The pool** (``deck_pool(db, scripts)``): the codes a random deck may hold, in
ascending code order (so the same ``random.Random`` state gives the same deck).
A code is in it when it has a database row of a card type (monster, Spell,
Trap; not a Token), is legal in the OCG or TCG (or has no legality recorded,
as our own cards), is not an alternate artwork (alias 0), and has a
``c<ID>.lua`` in the script folder unless it is a Normal Monster that is not a
Pendulum (the reference loads no script for those).  Fusion, Synchro, Xyz and
Link monsters go to the Extra Deck part of the pool, every other card to the
Main Deck part.

**What the rules allow** (``banned_types``): a duel under Master Rule 1 or 2 has
no Pendulum Zones (so no Pendulum cards at all), one before Master Rule 4 has
no Link Monsters (no Extra Monster Zone, no Link Summon).

**A random deck** (``random_deck``): 40 distinct Main Deck cards and 15
distinct Extra Deck cards (fewer when the pool has fewer) drawn with
``rng.sample``; ``main_only`` draws only the 40 Main Deck cards, exactly as
the decks of the measurements before Extra Decks were drawn
(``random_main_deck``).

**Deck files** (``read_deck_folder``, ``deck_pairs``): the .ydk files of a folder,
each either a readable deck whose cards all have a row or one line saying why
it is left out; duel *k* of a pairing puts deck *k* against deck *k + m*.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase

__all__ = ["DECK_SIZE", "EXTRA_DECK_SIZE", "DeckFile", "DeckPool", "banned_types", "deck_pairs",
           "deck_pool", "main_deck_pool", "random_deck", "random_main_deck", "read_deck_folder"]

DECK_SIZE = 40
EXTRA_DECK_SIZE = 15

EXTRA_DECK_TYPES = C.TYPE_FUSION | C.TYPE_SYNCHRO | C.TYPE_XYZ | C.TYPE_LINK
_OT_OCG_TCG = 0x3


def _needs_script(card_type: int) -> bool:
    """The reference loads c<ID>.lua for every card but a non-Pendulum Normal Monster."""
    return not (card_type & C.TYPE_NORMAL and card_type & C.TYPE_MONSTER and not card_type & C.TYPE_PENDULUM)


def banned_types(rule: int) -> int:
    """Card type bits a random deck may not hold under Master Rule ``rule``:
    Pendulum before Master Rule 3 (no Pendulum Zones), Link before Master Rule 4."""
    banned = 0
    if rule < C.MASTER_RULE3:
        banned |= C.TYPE_PENDULUM
    if rule < C.NEW_MASTER_RULE:
        banned |= C.TYPE_LINK
    return banned


@dataclass(frozen=True)
class DeckPool:
    """The cards random decks are drawn from, in code order, with their types."""

    main: tuple[int, ...]
    extra: tuple[int, ...]
    types: dict[int, int] = field(default_factory=dict, compare=False, repr=False)

    def for_rule(self, rule: int) -> tuple[list[int], list[int]]:
        """(Main, Extra) codes a deck may hold under Master Rule ``rule``."""
        banned = banned_types(rule)
        if not banned:
            return list(self.main), list(self.extra)
        return ([c for c in self.main if not self.types.get(c, 0) & banned],
                [c for c in self.extra if not self.types.get(c, 0) & banned])


def deck_pool(db: CardDatabase, scripts: str | Path | None = None, *, ot: int = _OT_OCG_TCG) -> DeckPool:
    """The Main and Extra Deck codes of ``db`` a random deck may hold (see the module)."""
    have: set[str] | None = None
    if scripts is not None:
        have = {p.name for p in Path(scripts).glob("c*.lua")}
    main: list[int] = []
    extra: list[int] = []
    types: dict[int, int] = {}
    for rec in db:
        t = rec.type
        if not rec.code or rec.alias:
            continue
        if not t & (C.TYPE_MONSTER | C.TYPE_SPELL | C.TYPE_TRAP) or t & C.TYPE_TOKEN:
            continue
        if ot and rec.ot and not rec.ot & ot:    # ot 0 (our own cards): no legality recorded
            continue
        if have is not None and _needs_script(t) and f"c{rec.code}.lua" not in have:
            continue
        types[rec.code] = t
        (extra if t & C.TYPE_MONSTER and t & EXTRA_DECK_TYPES else main).append(rec.code)
    return DeckPool(main=tuple(sorted(main)), extra=tuple(sorted(extra)), types=types)


def main_deck_pool(db: CardDatabase, scripts: str | Path | None = None, *,
                   ot: int = _OT_OCG_TCG) -> list[int]:
    """Codes of ``db`` (ascending) that can be put in a random Main Deck."""
    return list(deck_pool(db, scripts, ot=ot).main)


def random_main_deck(rng: random.Random, pool: Iterable[int], size: int = DECK_SIZE) -> list[int]:
    """``size`` distinct codes of ``pool`` in random order (``rng.sample``)."""
    cards = list(pool)
    if len(cards) < size:
        raise ValueError(f"the card pool has {len(cards)} cards, fewer than a {size}-card deck")
    return rng.sample(cards, size)


def random_deck(rng: random.Random, pool: DeckPool, *, rule: int = 5,
                main_only: bool = False) -> tuple[list[int], list[int]]:
    """(Main, Extra): 40 distinct Main Deck cards, then (unless ``main_only``) 15
    distinct Extra Deck cards or all the pool has, allowed under Master Rule ``rule``."""
    main_codes, extra_codes = pool.for_rule(rule)
    main = random_main_deck(rng, main_codes)
    if main_only:
        return main, []
    return main, rng.sample(extra_codes, min(EXTRA_DECK_SIZE, len(extra_codes)))


# ----- deck files ---------------------------------------------------------------------------

@dataclass(frozen=True)
class DeckFile:
    """One .ydk file of a folder: its cards, or why it cannot be played."""

    path: Path
    main: tuple[int, ...] = ()
    extra: tuple[int, ...] = ()
    problem: str | None = None

    @property
    def name(self) -> str:
        return self.path.name


def read_deck_file(path: Path, db: CardDatabase) -> DeckFile:
    """``path`` read as a deck; an unreadable file or cards without a row in ``db``
    give a DeckFile with ``problem`` set (one line) instead of an exception."""
    from duelhost.engine.ydk import read_ydk
    try:
        deck = read_ydk(path)
    except (OSError, ValueError) as exc:      # YdkError is a ValueError naming the file first
        text = str(exc).removeprefix(str(path)).lstrip(":, ")
        return DeckFile(path, problem=f"unreadable: {text}")
    missing = sorted({c for c in (*deck.main, *deck.extra) if c not in db})
    if missing:
        more = f" and {len(missing) - 10} more" if len(missing) > 10 else ""
        return DeckFile(path, problem=f"{len(missing)} card(s) with no row in the database: "
                                      + ", ".join(map(str, missing[:10])) + more)
    if not deck.main:
        return DeckFile(path, problem="no Main Deck card")
    return DeckFile(path, tuple(deck.main), tuple(deck.extra))


def read_deck_folder(folder: Path, db: CardDatabase) -> list[DeckFile]:
    """Every .ydk file of ``folder`` in name order (see read_deck_file)."""
    return [read_deck_file(p, db) for p in sorted(Path(folder).glob("*.ydk"))]


def deck_pairs(count: int, offset: int | None = None, size: int = 2) -> list[tuple[int, ...]]:
    """Which decks meet: group *k* is decks k, k+m, k+2m, ... (mod ``count``), ``size``
    of them (2 for a duel, 4 for a Tag Duel: player 0, player 1, then their partners).

    ``offset`` m defaults to ``count // size`` so neighbours in name order (often
    versions of one deck) rarely meet and every deck plays each seat once.
    """
    if count < 2:
        return []
    m = offset if offset else max(1, count // size)
    return [tuple((k + i * m) % count for i in range(size)) for k in range(count)]
