"""Control changes and equipping (reference: operations.cpp get_control, swap_control, equip)."""

from __future__ import annotations


class ControlMixin:
    """Methods of Duel (see engine/duel.py)."""
