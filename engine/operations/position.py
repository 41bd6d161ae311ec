"""Changing battle positions (reference: operations.cpp change_position)."""

from __future__ import annotations


class PositionMixin:
    """Methods of Duel (see engine/duel.py)."""
