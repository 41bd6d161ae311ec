"""Player permissions: can this player draw, summon, send this card to the GY, ... (reference: field.cpp is_player_can_*)."""

from __future__ import annotations


class PermissionsMixin:
    """Methods of Duel (see engine/duel.py)."""
