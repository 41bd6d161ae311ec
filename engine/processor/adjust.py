"""State checks between actions: win check, disable check, control, self destroy, positions, hand shuffle (reference: processor.cpp adjust_step)."""

from __future__ import annotations


class AdjustMixin:
    """Methods of Duel (see engine/duel.py)."""
