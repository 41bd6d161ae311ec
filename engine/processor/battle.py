"""The Battle Phase: attack declaration, replays, the Damage Step and damage calculation (reference: processor.cpp)."""

from __future__ import annotations


class BattleMixin:
    """Methods of Duel (see engine/duel.py)."""
