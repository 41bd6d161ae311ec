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

# opmin passed by the reference's sum checks ("no card is superfluous" starts unbounded)
_SUM_OPMIN = 0xFFFF


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

    def _sum_candidates(self: "Duel", cards: Iterable["Card"], fn: Any, extra: tuple) -> tuple[list["Card"], int]:
        """The must-select cards first, then the other cards of the group; returns the list
        and how many must-select cards lead it.

        As the reference's Group.CheckWithSum* do: core.must_select_cards is
        consumed (emptied) first, then every candidate gets its ``sum_param``
        from the value function ``fn(card, *extra)``.
        """
        must = self.core.must_select_cards
        cv = list(must)
        mcount = len(cv)
        for pcard in cards:
            if pcard not in must:
                cv.append(pcard)
        self.core.must_select_cards = []
        for pcard in cv:
            pcard.sum_param = self.script.get_operation_value(fn, pcard, *extra)
        return cv, mcount

    def check_group_sum_equal(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int, min_: int,
                              max_: int, extra: tuple = ()) -> bool:
        """Group.CheckWithSumEqual: can min..max of the cards (plus every card of
        core.must_select_cards, which is consumed) have values adding up to
        exactly ``acc``, with no card superfluous?

        A card's value is ``fn(card, *extra)``; its two halves are two possible
        values (see MaterialsMixin.get_sum_params).  ``min_`` below 0 counts as 0,
        ``max_`` below ``min_`` as ``min_``.
        """
        if min_ < 0:
            min_ = 0
        if max_ < min_:
            max_ = min_
        cv, mcount = self._sum_candidates(cards, fn, extra)
        return self.check_with_sum_limit_m(cv, acc, 0, min_, max_, _SUM_OPMIN, mcount)

    def check_group_sum_greater(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int,
                                extra: tuple = ()) -> bool:
        """Group.CheckWithSumGreater: can some of the cards (plus every card of
        core.must_select_cards, which is consumed) reach at least ``acc`` with no
        card superfluous?"""
        cv, mcount = self._sum_candidates(cards, fn, extra)
        return self.check_with_sum_greater_limit_m(cv, acc, 0, _SUM_OPMIN, mcount)

    def prepare_group_select_sum(self: "Duel", cards: Iterable["Card"], fn: Any, acc: int,
                                 min_: int, max_: int, greater: bool, extra: tuple = ()) -> bool:
        """Set up Group.SelectWithSumEqual (``greater`` False) or SelectWithSumGreater.

        core.select_cards becomes the group's cards (card-id order) minus the
        must-select cards; every candidate gets its sum value from
        ``fn(card, *extra)``.  When no selection can succeed,
        core.must_select_cards is cleared and False is returned (the script gets
        an empty group without being asked).  Otherwise True: the caller queues
        ``proc_select_sum`` and reads the answer with
        ``group_select_sum_result``.  ``min_``/``max_`` must already be clamped.
        """
        core = self.core
        must = core.must_select_cards
        core.select_cards = [c for c in cards if c not in must]
        cv = list(must) + core.select_cards
        mcount = len(must)
        for pcard in cv:
            pcard.sum_param = self.script.get_operation_value(fn, pcard, *extra)
        if greater:
            ok = self.check_with_sum_greater_limit_m(cv, acc, 0, _SUM_OPMIN, mcount)
        else:
            ok = self.check_with_sum_limit_m(cv, acc, 0, min_, max_, _SUM_OPMIN, mcount)
        if not ok:
            core.must_select_cards = []
        return ok

    def group_select_sum_result(self: "Duel") -> CardSet:
        """The cards chosen in a select-sum prompt, without the must-select cards
        (which the answer lists first); core.must_select_cards is cleared."""
        core = self.core
        b = self.returns.bvalue
        chosen = CardSet()
        for i in range(len(core.must_select_cards), b[0]):
            chosen.add(core.select_cards[b[i + 1]])
        core.must_select_cards = []
        return chosen

    # ===== Debug library ================================================================

    def debug_add_card(self: "Duel", code: int, owner: int, playerid: int, location: int,
                       sequence: int, position: int, proc: bool) -> "Card | None":
        """Debug.AddCard: create a card and put it straight into a zone (puzzles).

        Both players must be 0 or 1.  If the zone can be used, the card is added
        there (LOCATION_PZONE: the Pendulum Zone's Spell & Trap Zone; an Extra
        Deck card with position 0 is face-down) and given ``position``; unless it
        is face-down on the field its continuous effects start at once (with the
        instant adjustments).  If it cannot and the location is the Monster Zone,
        the card becomes the last Xyz material of the Xyz Monster there, if any.
        ``proc`` marks it as properly summoned.  Returns the card, or None when
        nothing was created.
        """
        if not (0 <= owner <= 1 and 0 <= playerid <= 1):
            return None
        if self.is_location_useable(playerid, location, sequence & 0xFF):
            pcard = self.new_card(code)
            pcard.owner = owner
            if location == LOCATION_EXTRA and position == 0:
                position = POS_FACEDOWN_DEFENSE
            pcard.sendto_param.position = position & 0xFF
            if location == LOCATION_PZONE:
                seq = self.get_pzone_sequence(sequence & 0xFF)
                self.add_card(playerid, pcard, LOCATION_SZONE, seq, True)
            else:
                # the reference's add_card takes the location and sequence as bytes
                self.add_card(playerid, pcard, location & 0xFF, sequence & 0xFF)
            pcard.current.position = position & 0xFF
            if not (location & (LOCATION_ONFIELD | LOCATION_PZONE)) or (position & POS_FACEUP):
                pcard.enable_field_effect(True)
                self.adjust_instant()
            if proc:
                pcard.set_status(STATUS_PROC_COMPLETE, True)
            return pcard
        if location == LOCATION_MZONE:
            fcard = self.get_field_card(playerid, location, sequence & 0xFF)
            if fcard is None or not (fcard.data.type & TYPE_XYZ):
                return None
            pcard = self.new_card(code)
            pcard.owner = owner
            fcard.xyz_add(pcard)
            if proc:
                pcard.set_status(STATUS_PROC_COMPLETE, True)
            return pcard
        return None

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

    def debug_pre_add_counter(self: "Duel", pcard: "Card", countertype: int, count: int) -> None:
        """Debug.PreAddCounter: add counters directly (no permit check, no message,
        no event); type and count are 16-bit."""
        countertype &= 0xFFFF
        pcard.counters[countertype] = (pcard.counters.get(countertype, 0) + (count & 0xFFFF)) & 0xFFFF

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
