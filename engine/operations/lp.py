"""Life points: damage, recovery, paying LP (reference: operations.cpp)."""

from __future__ import annotations


class LifePointsMixin:
    """Methods of Duel (see engine/duel.py)."""
