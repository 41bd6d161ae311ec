"""Tributes and materials: release lists, tribute checks, Synchro/Xyz/Fusion/Ritual/Link materials, sums (reference: field.cpp)."""

from __future__ import annotations


class MaterialsMixin:
    """Methods of Duel (see engine/duel.py)."""
