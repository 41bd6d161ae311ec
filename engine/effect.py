"""An effect: what a card (or the rules) does, registered by a script or by the core.

Field names follow the reference (effect.h) so that the rules read the same way.
Script callbacks (condition, cost, target, operation, and a function ``value``)
are opaque handles owned by the script host (Lua functions); the engine only
passes them to ``duel.script``.  A plain integer ``value`` is stored as an int.

The rule methods (is_available, is_activateable, get_value, reset, ...) live in
``effect_rules.py`` as a mixin.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .effect_rules import EffectRulesMixin
from .constants import PLAYER_NONE

if TYPE_CHECKING:
    from .card import Card
    from .duel import Duel


class Effect(EffectRulesMixin):
    """One effect.  Identity matters: scripts compare effects and use them as table keys."""

    __slots__ = (
        "duel", "owner", "handler", "effect_owner", "description", "code", "id", "type",
        "copy_id", "range", "s_range", "o_range", "count_limit", "count_limit_max",
        "status", "reset_count", "reset_flag", "count_code", "category", "flag",
        "hint_timing", "card_type", "active_type", "active_location", "active_sequence",
        "active_handler", "last_handler", "label", "label_object", "condition", "cost",
        "target", "value", "operation", "cost_checked", "required_handorset_effects",
        "object_type", "handle", "serial", "__weakref__",
    )

    def __init__(self, duel: "Duel") -> None:
        self.duel = duel
        self.owner: Card | None = None
        self.handler: Card | None = None
        self.effect_owner = PLAYER_NONE
        self.description = 0
        self.code = 0
        self.id = 0
        self.type = 0
        self.copy_id = 0
        self.range = 0
        self.s_range = 0
        self.o_range = 0
        self.count_limit = 0
        self.count_limit_max = 0
        self.status = 0
        self.reset_count = 0
        self.reset_flag = 0
        self.count_code = 0
        self.category = 0
        self.flag = [0, 0]
        self.hint_timing = [0, 0]
        self.card_type = 0
        self.active_type = 0
        self.active_location = 0
        self.active_sequence = 0
        self.active_handler: Card | None = None
        self.last_handler: Card | None = None
        self.label: list[int] = []
        # a Card, Effect, Group or other script value kept for the script (Effect.SetLabelObject)
        self.label_object: Any = None
        self.condition: Any = None
        self.cost: Any = None
        self.target: Any = None
        # an int, or a script function when EFFECT_FLAG_FUNC_VALUE is set
        self.value: Any = 0
        self.operation: Any = None
        self.cost_checked = False
        self.required_handorset_effects: list[Effect] = []
        # what kind of object label_object is (PARAM_TYPE_*; PARAM_TYPE_INT: none)
        self.object_type = 1
        # the Lua-side handle (set by the script host)
        self.handle: Any = None
        # creation order; a stable key where the reference orders by pointer
        self.serial = duel.next_effect_serial()

    def __repr__(self) -> str:
        h = self.handler.data.code if self.handler is not None else 0
        return f"<Effect code={self.code} type=0x{self.type:x} handler={h} id={self.id}>"

    def is_flag(self, x: int) -> bool:
        """Test an EFFECT_FLAG_* bit (first flag word)."""
        return bool(self.flag[0] & x)

    def is_flag2(self, x: int) -> bool:
        """Test an EFFECT_FLAG2_* bit (second flag word)."""
        return bool(self.flag[1] & x)
