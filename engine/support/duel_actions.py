"""Rules behind Duel.* functions for card actions, LP, chains, battle and turn state (reference: libduel.cpp, first half)."""

from __future__ import annotations


class DuelActionsSupportMixin:
    """Methods of Duel (see engine/duel.py)."""
