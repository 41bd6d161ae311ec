"""Events: raising them, collecting triggers, quick effects and phase events (reference: processor.cpp)."""

from __future__ import annotations


class EventsMixin:
    """Methods of Duel (see engine/duel.py)."""
