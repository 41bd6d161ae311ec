"""Rules behind Duel.* functions for groups, targets, materials, prompts and player checks (reference: libduel.cpp, second half)."""

from __future__ import annotations


class DuelQueriesSupportMixin:
    """Methods of Duel (see engine/duel.py)."""
