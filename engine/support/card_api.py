"""Rules behind Card.* functions that belong in the engine (reference: libcard.cpp)."""

from __future__ import annotations


class CardApiSupportMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()
