"""Rules behind the Group and Effect libraries that belong in the engine (reference: libgroup.cpp, libeffect.cpp)."""

from __future__ import annotations


class GroupApiSupportMixin:
    """Methods of Duel (see engine/duel.py)."""
