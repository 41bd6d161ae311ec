"""Questions about the chain: can link N be negated, is it disabled, which triggers may be used.

Reference: field.cpp (is_chain_negatable ... check_spself_from_hand_trigger).
A chain count of 0 means "the newest link".
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    EFFECT_CANNOT_DISEFFECT, EFFECT_CANNOT_INACTIVATE, EFFECT_DISABLE_CHAIN,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CANNOT_INACTIVATE, EFFECT_FLAG_CARD_TARGET,
    EFFECT_FLAG_FIELD_ONLY, EFFECT_FLAG_SINGLE_RANGE, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F,
    EFFECT_TYPE_TRIGGER_O, EVENT_FREE_CHAIN, EVENT_PHASE, LOCATION_DECK, LOCATION_EXTRA,
    LOCATION_HAND, MASTER_RULE_2020, POS_FACEDOWN, POS_FACEUP, RESET_CHAIN, STATUS_FORBIDDEN,
    TYPE_CONTINUOUS, TYPE_TRAP,
)
from ..core_constants import CHAIN_DISABLE_EFFECT, CHAIN_HAND_TRIGGER, EFFECT_STATUS_SPSELF
from ..event import Chain, Event

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect


class ChainQueriesMixin:
    """Methods of Duel (see engine/duel.py)."""

    def _chain_at(self: "Duel", chaincount: int) -> Chain | None:
        chain = self.core.current_chain
        if chaincount < 0 or chaincount > len(chain):
            return None
        return chain[-1] if chaincount == 0 else chain[chaincount - 1]

    def is_chain_negatable(self: "Duel", chaincount: int) -> bool:
        """Can the activation of link ``chaincount`` be negated?

        Not when its effect cannot be inactivated, or when an
        EFFECT_CANNOT_INACTIVATE on the field protects that link.
        """
        ch = self._chain_at(chaincount)
        if ch is None:
            return False
        peffect = ch.triggering_effect
        if peffect.is_flag(EFFECT_FLAG_CANNOT_INACTIVATE):
            return False
        for eff in self.filter_field_effect(EFFECT_CANNOT_INACTIVATE):
            if eff.check_value_condition(chaincount):
                return False
        return True

    def is_chain_disablable(self: "Duel", chaincount: int) -> bool:
        """Can the effect of link ``chaincount`` be negated?

        A forbidden card's effect always can; otherwise not when the effect
        cannot be disabled or an EFFECT_CANNOT_DISEFFECT protects the link.
        """
        ch = self._chain_at(chaincount)
        if ch is None:
            return False
        peffect = ch.triggering_effect
        if not peffect.get_handler().get_status(STATUS_FORBIDDEN):
            if peffect.is_flag(EFFECT_FLAG_CANNOT_DISABLE):
                return False
            for eff in self.filter_field_effect(EFFECT_CANNOT_DISEFFECT):
                if eff.check_value_condition(chaincount):
                    return False
        return True

    def is_chain_disabled(self: "Duel", chaincount: int) -> bool:
        """Is the effect of link ``chaincount`` negated (flag, or an EFFECT_DISABLE_CHAIN for it)?"""
        ch = self._chain_at(chaincount)
        if ch is None:
            return False
        if ch.flag & CHAIN_DISABLE_EFFECT:
            return True
        pcard = ch.triggering_effect.get_handler()
        for peffect in pcard.single_effect.equal_range(EFFECT_DISABLE_CHAIN):
            if peffect.get_value() == ch.chain_id:
                peffect.reset_flag |= RESET_CHAIN
                return True
        return False

    def check_chain_target(self: "Duel", chaincount: int, pcard) -> bool:
        """Would ``pcard`` be a legal target for link ``chaincount``'s target function?"""
        ch = self._chain_at(chaincount)
        if ch is None:
            return False
        peffect = ch.triggering_effect
        if not peffect.is_flag(EFFECT_FLAG_CARD_TARGET) or not peffect.target:
            return False
        e = ch.evt
        return self.script.check_condition(
            peffect.target, peffect, ch.triggering_player, e.event_cards, e.event_player,
            e.event_value, e.reason_effect, e.reason, e.reason_player, 0, pcard)

    def get_chain(self: "Duel", chaincount: int) -> Chain | None:
        """The link a script means by ``chaincount`` (0: the one resolving now, or the newest).

        While a continuous effect resolves, link 0 is its pseudo-link.
        """
        core = self.core
        if (chaincount == 0 and core.continuous_chain and core.reason_effect is not None
                and (core.reason_effect.type & EFFECT_TYPE_CONTINUOUS)):
            return core.continuous_chain[-1]
        if chaincount == 0 or chaincount > len(core.current_chain):
            chaincount = len(core.current_chain)
            if chaincount == 0:
                return None
        return core.current_chain[chaincount - 1]

    def _cteffect_candidates(self: "Duel", peffect: "Effect") -> bool:
        """Is ``peffect`` the bare activation of a Continuous Trap that does something else?"""
        phandler = peffect.get_handler()
        if phandler.data.type != (TYPE_TRAP | TYPE_CONTINUOUS):
            return False
        if not (peffect.type & EFFECT_TYPE_ACTIVATE):
            return False
        if peffect.code != EVENT_FREE_CHAIN:
            return False
        if peffect.cost or peffect.target or peffect.operation:
            return False
        return True

    def get_cteffect(self: "Duel", peffect: "Effect", playerid: int, store: bool) -> bool:
        """A Continuous Trap activated with an effect of its own at once.

        When a Continuous Trap's activation does nothing by itself, the player may
        use one of its trigger/quick effects right away.  With ``store`` the
        usable effects go to core.select_chains / select_options.
        """
        if not self._cteffect_candidates(peffect):
            return False
        phandler = peffect.get_handler()
        core = self.core
        if store:
            core.select_chains.clear()
            core.select_options.clear()
        for code, feffect in phandler.field_effect.items():
            if not (feffect.type & (EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_QUICK_O)):
                continue
            if not feffect.in_range(phandler):
                continue
            if code == EVENT_FREE_CHAIN or code == (EVENT_PHASE | self.infos.phase):
                if self.get_cteffect_evt(feffect, playerid, Event(code), store) and not store:
                    return True
            else:
                for ev in list(core.point_event) + list(core.instant_event):
                    if code != ev.event_code:
                        continue
                    if self.get_cteffect_evt(feffect, playerid, ev, store) and not store:
                        return True
        return bool(store and core.select_chains)

    def get_cteffect_evt(self: "Duel", feffect: "Effect", playerid: int, e: Event, store: bool) -> bool:
        if not feffect.is_activateable(playerid, e, False, False, False, False, True):
            return False
        if store:
            newchain = Chain()
            newchain.evt = e
            newchain.triggering_effect = feffect
            self.core.select_chains.append(newchain)
            self.core.select_options.append(feffect.description)
        return True

    def check_cteffect_hint(self: "Duel", peffect: "Effect", playerid: int) -> bool:
        """Does a Continuous Trap's bare activation deserve a hint (an effect usable now)?"""
        if not self._cteffect_candidates(peffect):
            return False
        phandler = peffect.get_handler()
        core = self.core
        for code, feffect in phandler.field_effect.items():
            if not (feffect.type & (EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_QUICK_O)):
                continue
            if not feffect.in_range(phandler):
                continue
            if code == EVENT_FREE_CHAIN or code == EVENT_PHASE + self.infos.phase:
                if (self.get_cteffect_evt(feffect, playerid, Event(code), False)
                        and (code != EVENT_FREE_CHAIN or self.check_hint_timing(feffect))):
                    return True
            else:
                for ev in list(core.point_event) + list(core.instant_event):
                    if code != ev.event_code:
                        continue
                    if self.get_cteffect_evt(feffect, playerid, ev, False):
                        return True
        return False

    def check_nonpublic_trigger(self: "Duel", ch: Chain) -> bool:
        """Triggers from the hand or Deck: remember them as hand triggers; hide the face-down ones.

        Such a trigger is kept in core.new_ochain_h (it may be activated later
        in the chain window); it is not offered now when its card is a face-down
        card in the hand, in the Deck, or out of its range.
        """
        peffect = ch.triggering_effect
        phandler = peffect.get_handler()
        single_unranged = ((peffect.type & EFFECT_TYPE_SINGLE)
                           and not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)
                           and phandler.is_has_relation(ch)
                           and (ch.triggering_location & (LOCATION_HAND | LOCATION_DECK)))
        if not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) and (
                single_unranged or (peffect.range & (LOCATION_HAND | LOCATION_DECK))):
            ch.flag |= CHAIN_HAND_TRIGGER
            self.core.new_ochain_h.append(ch)
            if ((ch.triggering_location == LOCATION_HAND and phandler.is_position(POS_FACEDOWN))
                    or ch.triggering_location == LOCATION_DECK
                    or (peffect.range and not peffect.in_range(ch))):
                return False
        return True

    def check_trigger_effect(self: "Duel", ch: Chain) -> bool:
        """Can this trigger still be activated?  (Master Rule 2020: its card must still be related.)"""
        peffect = ch.triggering_effect
        phandler = peffect.get_handler()
        if self.core.duel_rule >= MASTER_RULE_2020:
            return phandler.is_has_relation(ch)
        if peffect.type & EFFECT_TYPE_FIELD:
            return phandler.is_has_relation(ch)
        if ((ch.triggering_location & (LOCATION_DECK | LOCATION_HAND | LOCATION_EXTRA))
                and (ch.triggering_position & POS_FACEDOWN)):
            return True
        if (not (phandler.current.location & (LOCATION_DECK | LOCATION_HAND | LOCATION_EXTRA))
                or phandler.is_position(POS_FACEUP)):
            return True
        return False

    def check_spself_from_hand_trigger(self: "Duel", ch: Chain) -> bool:
        """Only one "Special Summon itself from the hand" trigger per player per chain."""
        peffect = ch.triggering_effect
        tp = ch.triggering_player
        if (peffect.status & EFFECT_STATUS_SPSELF) and (ch.flag & CHAIN_HAND_TRIGGER):
            return not any(c.triggering_player == tp
                           and (c.triggering_effect.status & EFFECT_STATUS_SPSELF)
                           and (c.flag & CHAIN_HAND_TRIGGER)
                           for c in self.core.current_chain)
        return True

    def check_hint_timing(self: "Duel", peffect: "Effect") -> bool:
        """Does the effect's hint timing match the current timing (from its controller's view)?"""
        p = peffect.get_handler_player()
        ht = self.core.hint_timing
        if p == 0:
            return bool((peffect.hint_timing[0] & ht[0]) or (peffect.hint_timing[1] & ht[1]))
        return bool((peffect.hint_timing[0] & ht[1]) or (peffect.hint_timing[1] & ht[0]))
