"""Chains: building a link, resolving the chain, continuous effects, running cost/target/operation (reference: processor.cpp)."""

from __future__ import annotations


class ChainMixin:
    """Methods of Duel (see engine/duel.py)."""
