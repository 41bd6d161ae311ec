"""The turn: Draw, Standby, Main 1, Battle, Main 2 and End Phases (reference: processor.cpp process_turn)."""

from __future__ import annotations


class TurnMixin:
    """Methods of Duel (see engine/duel.py)."""
