"""Current stats of a card: code, type, level, attribute, race, ATK/DEF with continuous effects (reference: card.cpp)."""

from __future__ import annotations


class CardStatsMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()
