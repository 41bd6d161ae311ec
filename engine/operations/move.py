"""Moving cards: destroy, release, send to hand/Deck/GY/banished, move to field, discard the Deck, replacements (reference: operations.cpp)."""

from __future__ import annotations


class MoveMixin:
    """Methods of Duel (see engine/duel.py)."""
