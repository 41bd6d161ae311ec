"""Other actions: draw, negating/disabling chain links, counters, Xyz materials, coins, dice (reference: operations.cpp)."""

from __future__ import annotations


class MiscOperationsMixin:
    """Methods of Duel (see engine/duel.py)."""
