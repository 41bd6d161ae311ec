"""Where field effects are indexed and which effects apply to a card or player (reference: field.cpp)."""

from __future__ import annotations


class FieldEffectsMixin:
    """Methods of Duel (see engine/duel.py)."""
