"""The Main Phase idle command (reference: processor.cpp process_idle_command)."""

from __future__ import annotations


class IdleMixin:
    """Methods of Duel (see engine/duel.py)."""
