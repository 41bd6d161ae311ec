"""Rule checks on a card: can it be summoned, attack, be sent, be targeted, ... (reference: card.cpp)."""

from __future__ import annotations


class CardChecksMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()
