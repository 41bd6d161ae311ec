"""Questions about the chain: can link N be negated, is it disabled, which triggers may be activated (reference: field.cpp)."""

from __future__ import annotations


class ChainQueriesMixin:
    """Methods of Duel (see engine/duel.py)."""
