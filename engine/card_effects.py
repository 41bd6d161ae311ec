"""Effects attached to a card: adding, removing, resetting, filtering; relations, counters, equips, materials (reference: card.cpp)."""

from __future__ import annotations


class CardEffectsMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()
