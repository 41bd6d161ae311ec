"""Rules of one effect: is it available, can it be activated, its value, its reset (reference: effect.cpp)."""

from __future__ import annotations


class EffectRulesMixin:
    """Methods of Effect (see engine/effect.py)."""

    __slots__ = ()
