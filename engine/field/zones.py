"""Zones: putting cards in and taking them out, sequences, shuffles, free-zone counts (reference: field.cpp)."""

from __future__ import annotations


class ZonesMixin:
    """Methods of Duel (see engine/duel.py)."""
