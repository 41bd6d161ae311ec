"""Groups of cards.

The reference keeps cards in ordered sets sorted by card id (creation order);
``CardSet`` is that: a set whose iteration is in card-id order.  ``Group`` is
the object scripts see (Duel.GetMatchingGroup, event groups, targets...).
"""

from __future__ import annotations

from operator import attrgetter
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from .card_data import CardBase
from .core_constants import GTYPE_DEFAULT, GTYPE_KEEP_ALIVE, GTYPE_READ_ONLY

if TYPE_CHECKING:
    from .card import Card
    from .duel import Duel

__all__ = ["CardSet", "Group", "GTYPE_DEFAULT", "GTYPE_READ_ONLY", "GTYPE_KEEP_ALIVE"]


_cardid = attrgetter("cardid")


class CardSet(set):
    """A set of cards iterated in card-id order (the reference's card_set).

    A ``set`` underneath, so that size, truth and membership tests run at C
    speed (the rules ask them millions of times a duel); iteration goes through
    a cached card-id-ordered list that every change drops.  ``CardSet(cards)`` is
    set's own constructor: making one runs no Python code (the rules make dozens
    per action), and the cache starts as the class's None.
    """

    _sorted: "list[Card] | None" = None

    def add(self, c: "Card") -> bool:  # type: ignore[override]
        """Insert; True when the card was not there yet."""
        if c in self:
            return False
        set.add(self, c)
        self._sorted = None
        return True

    insert = add

    def discard(self, c: "Card") -> bool:  # type: ignore[override]
        """Erase; True when the card was there."""
        if c in self:
            set.discard(self, c)
            self._sorted = None
            return True
        return False

    erase = discard

    def clear(self) -> None:
        set.clear(self)
        self._sorted = None

    def update(self, *groups: Iterable["Card"]) -> None:
        size = len(self)
        set.update(self, *groups)
        if len(self) != size:
            self._sorted = None

    def _unsupported(self, *args: Any) -> Any:
        raise TypeError("CardSet changes only through add/discard/clear/update")

    # set's other in-place changes would bypass the order cache
    remove = pop = difference_update = intersection_update = _unsupported
    symmetric_difference_update = __ior__ = __iand__ = __isub__ = __ixor__ = _unsupported

    def ordered(self) -> list["Card"]:
        """The cards in card-id order (cached; callers must not change the list)."""
        o = self._sorted
        if o is None:
            if not self:
                return []
            o = self._sorted = sorted(set.__iter__(self), key=_cardid)
        return o

    def __iter__(self) -> Iterator["Card"]:
        # a snapshot: a change makes a new ordered list and never alters this one
        return iter(self.ordered())

    def first(self) -> "Card | None":
        o = self.ordered()
        return o[0] if o else None

    def copy(self) -> "CardSet":
        cs = CardSet(set.__iter__(self))
        cs._sorted = self._sorted
        return cs

    def swap(self, other: "CardSet") -> None:
        mine = set(set.__iter__(self))
        set.clear(self)
        set.update(self, set.__iter__(other))
        set.clear(other)
        set.update(other, mine)
        self._sorted, other._sorted = other._sorted, self._sorted

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and set.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"CardSet({self.ordered()!r})"

    def __reduce__(self) -> Any:
        return (CardSet, (self.ordered(),))


class Group:
    """A group of cards as scripts see it.

    ``container`` is the card set; ``it`` is the cursor used by
    Group.GetFirst/GetNext; ``is_readonly`` marks event groups scripts must not
    change.  Groups created by the core for one use are collected when the
    script host no longer references them.
    """

    __slots__ = ("duel", "container", "is_readonly", "cursor", "handle", "__weakref__")

    def __init__(self, duel: "Duel", cards: Iterable["Card"] | "Card | None" = None) -> None:
        self.duel = duel
        if cards is None:
            self.container = CardSet()
        elif isinstance(cards, CardSet):
            self.container = cards.copy()
        elif isinstance(cards, CardBase):
            self.container = CardSet((cards,))
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
