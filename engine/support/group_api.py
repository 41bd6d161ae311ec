"""Rules behind the Group, Effect and Debug libraries that belong in the engine
(reference: libgroup.cpp, libeffect.cpp, libdebug.cpp).

The Lua bindings (bindings/lib_group.py, lib_effect.py, lib_debug.py) stay
thin: argument handling and return values.  What those library functions do
to the duel beyond reading or setting one field lives here:

- Group.RandomSelect: the random draw and MSG_RANDOM_SELECTED;
- Group.CheckWithSum* / SelectWithSum*: the candidate list built from
  ``core.must_select_cards`` and the group, the per-card sum values, and the
  feasibility check done before asking the player;
- Debug.AddCard / PreEquip / PreAddCounter / ReloadFieldBegin / ReloadFieldEnd:
  putting a puzzle's cards on the field and starting over with an empty duel.

Script functions (filters, value functions) are opaque handles passed to
``self.script`` together with the extra Lua values the script gave.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..constants import (
    DUEL_OBSOLETE_RULING, LOCATION_EXTRA, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_PZONE,
    LOCATION_SZONE, MASTER_RULE3, POS_FACEDOWN, POS_FACEDOWN_DEFENSE, POS_FACEUP,
    STATUS_PROC_COMPLETE, TYPE_XYZ,
)
from ..core_constants import CURRENT_RULE
from ..group import CardSet
from ..messages import LocInfo, MsgRandomSelected

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel


class GroupApiSupportMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== Group.RandomSelect ===========================================================

    def random_select(self: "Duel", cards: Iterable["Card"], playerid: int, count: int) -> CardSet:
        """Pick ``count`` of ``cards`` at random for ``playerid`` and announce them.

        The candidates are taken in card-id order; for i = 0..count-1 the card at
        a random index in [i, n-1] is swapped to position i (a partial
        Fisher-Yates shuffle with the duel's RNG) and the first ``count`` are
        chosen.  Asking for all of them draws no random number.  Unless nothing
        is chosen, MSG_RANDOM_SELECTED lists the chosen cards in card-id order.
        ``count`` above the number of cards means all of them.  A negative count
        is undefined in the reference; here it chooses nothing.
        """
        cv = list(cards)
        if count > len(cv):
            count = len(cv)
        chosen = CardSet()
        if count <= 0:
            return chosen
        if count == len(cv):
            chosen.update(cv)
        else:
            back = len(cv) - 1
            for i in range(count):
                r = self.get_next_integer(i, back)
                cv[i], cv[r] = cv[r], cv[i]
            chosen.update(cv[:count])
        self.emit(MsgRandomSelected(
            player=playerid & 0xFF,
            cards=tuple(LocInfo.from_raw(c.get_info_location()) for c in chosen.ordered())))
        return chosen

    # ===== Group.CheckWithSum* / SelectWithSum* =========================================

    # ===== Debug library ================================================================

    def debug_pre_equip(self: "Duel", equip_card: "Card", target: "Card") -> bool:
        """Debug.PreEquip: equip a card in the Spell & Trap Zone to a face-up monster
        without a message, and record it as targeting the monster.  False (nothing
        done) if either is elsewhere or the monster is face-down."""
        if (equip_card.current.location != LOCATION_SZONE
                or target.current.location != LOCATION_MZONE
                or target.current.position & POS_FACEDOWN):
            return False
        equip_card.equip(target, False)
        equip_card.effect_target_cards.add(target)
        target.effect_target_owner.add(equip_card)
        return True

    def clear(self: "Duel") -> None:
        """Throw the whole duel away and start with an empty field (the reference's duel::clear).

        Every card, the field, its effects and the processor state are replaced
        by fresh ones (card ids restart at 1 with a new temp card); the RNG, the
        message stream and the script host's Lua state are kept.  Meant to be
        called before the duel starts (Debug.ReloadFieldBegin in a puzzle): units
        already queued are dropped.  The reference also unregisters every old
        card, group and effect from Lua; here a script that kept a handle of an
        old object still reaches that (now detached) object.
        """
        from ..duel import CoreState, FieldEffects, FieldInfo, PlayerInfo, Returns, TEMP_CARD_ID
        from ..event import Event
        self.cards = []
        self.assumes.clear()
        self.uncopy.clear()
        self.player = [PlayerInfo(), PlayerInfo()]
        self.infos = FieldInfo()
        self.effects = FieldEffects()
        self.core = CoreState()
        self.returns = Returns()
        self.nil_event = Event()
        self.temp_card = self.new_card(TEMP_CARD_ID)

    def reload_field_begin(self: "Duel", flag: int, rule: int) -> None:
        """Debug.ReloadFieldBegin: clear the duel, add ``flag`` to the duel options and
        set the rule: ``rule`` if non-zero, else 1 with DUEL_OBSOLETE_RULING, else
        the current rule.  Master Rule 3 has 8 Spell & Trap Zones per player."""
        self.clear()
        core = self.core
        core.duel_options |= flag & 0xFFFFFFFF
        if rule:
            core.duel_rule = rule
        elif flag & DUEL_OBSOLETE_RULING:
            core.duel_rule = 1
        else:
            core.duel_rule = CURRENT_RULE
        if core.duel_rule == MASTER_RULE3:
            self.player[0].szone_size = 8
            self.player[1].szone_size = 8

    def reload_field_end(self: "Duel") -> None:
        """Debug.ReloadFieldEnd: no pending hand/Deck shuffles, then MSG_RELOAD_FIELD."""
        core = self.core
        core.shuffle_hand_check[0] = core.shuffle_hand_check[1] = False
        core.shuffle_deck_check[0] = core.shuffle_deck_check[1] = False
        self.reload_field_info()
