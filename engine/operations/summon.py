"""Normal Summon, Tribute Summon, Set (monster and Spell/Trap), Flip Summon, tribute selection (reference: operations.cpp)."""

from __future__ import annotations


class SummonMixin:
    """Methods of Duel (see engine/duel.py)."""
