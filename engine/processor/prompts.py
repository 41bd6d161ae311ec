"""Asking a player: MSG_SELECT_* prompts and the checks on the answer (reference: playerop.cpp)."""

from __future__ import annotations


class PromptsMixin:
    """Methods of Duel (see engine/duel.py)."""
