"""Special Summons: by procedure (summon rules), by effect (step/complete), material selection (reference: operations.cpp)."""

from __future__ import annotations


class SpecialSummonMixin:
    """Methods of Duel (see engine/duel.py)."""
