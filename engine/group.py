"""Groups of cards.

The reference keeps cards in ordered sets sorted by card id (creation order);
``CardSet`` is that: a set whose iteration is in card-id order.  ``Group`` is
the object scripts see (Duel.GetMatchingGroup, event groups, targets...).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable, Iterator

if TYPE_CHECKING:
    from .card import Card
    from .duel import Duel

GTYPE_DEFAULT = 0
GTYPE_READ_ONLY = 1
GTYPE_KEEP_ALIVE = 2


def _cardid(c: "Card") -> int:
    return c.cardid


class CardSet:
    """A set of cards iterated in card-id order (the reference's card_set)."""

    __slots__ = ("_set", "_sorted")

    def __init__(self, cards: Iterable["Card"] = ()) -> None:
        self._set: set[Card] = set(cards)
        self._sorted: list[Card] | None = None

    def add(self, c: "Card") -> bool:
        """Insert; True when the card was not there yet."""
        if c in self._set:
            return False
        self._set.add(c)
        self._sorted = None
        return True

    insert = add

    def discard(self, c: "Card") -> bool:
        """Erase; True when the card was there."""
        if c in self._set:
            self._set.remove(c)
            self._sorted = None
            return True
        return False

    erase = discard

    def clear(self) -> None:
        self._set.clear()
        self._sorted = None

    def update(self, cards: Iterable["Card"]) -> None:
        for c in cards:
            self.add(c)

    def ordered(self) -> list["Card"]:
        if self._sorted is None:
            self._sorted = sorted(self._set, key=_cardid)
        return self._sorted

    def __iter__(self) -> Iterator["Card"]:
        return iter(list(self.ordered()))

    def __len__(self) -> int:
        return len(self._set)

    def __bool__(self) -> bool:
        return bool(self._set)

    def __contains__(self, c: object) -> bool:
        return c in self._set

    def first(self) -> "Card | None":
        o = self.ordered()
        return o[0] if o else None

    def copy(self) -> "CardSet":
        cs = CardSet()
        cs._set = set(self._set)
        cs._sorted = self._sorted
        return cs

    def swap(self, other: "CardSet") -> None:
        self._set, other._set = other._set, self._set
        self._sorted, other._sorted = other._sorted, self._sorted

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and self._set == other._set

    def __repr__(self) -> str:
        return f"CardSet({self.ordered()!r})"


class Group:
    """A group of cards as scripts see it.

    ``container`` is the card set; ``it`` is the cursor used by
    Group.GetFirst/GetNext; ``is_readonly`` marks event groups scripts must not
    change.  Groups created by the core for one use are collected when the
    script host no longer references them.
    """

    __slots__ = ("duel", "container", "is_readonly", "cursor", "handle", "__weakref__")

    def __init__(self, duel: "Duel", cards: Iterable["Card"] | "Card | None" = None) -> None:
        from .card import Card
        self.duel = duel
        if cards is None:
            self.container = CardSet()
        elif isinstance(cards, Card):
            self.container = CardSet((cards,))
        elif isinstance(cards, CardSet):
            self.container = cards.copy()
        else:
            self.container = CardSet(cards)
        self.is_readonly = GTYPE_DEFAULT
        # index into container.ordered() for GetFirst/GetNext
        self.cursor = 0
        self.handle: Any = None

    def has_card(self, c: "Card") -> bool:
        return c in self.container

    def __iter__(self) -> Iterator["Card"]:
        return iter(self.container)

    def __len__(self) -> int:
        return len(self.container)

    def __repr__(self) -> str:
        return f"<Group {[c.data.code for c in self.container.ordered()]}>"
