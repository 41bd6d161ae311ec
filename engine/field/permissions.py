"""Player permissions: can this player draw, summon, send this card to the GY, ...

Reference: field.cpp, the ``is_player_can_*`` family and ``is_able_to_enter_bp``.

Most checks follow one pattern: collect the player's effects of one
EFFECT_CANNOT_* code; an effect without a target function forbids the action
outright, one with a target forbids it when the target function accepts the
(effect, card, player, ...) arguments.  ``_forbidden_by`` is that pattern; each
check passes the arguments the reference gives to the target function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..constants import (
    DUEL_ATTACK_FIRST_TURN, EFFECT_CANNOT_BP, EFFECT_CANNOT_DISCARD_DECK,
    EFFECT_CANNOT_DISCARD_HAND, EFFECT_CANNOT_DRAW, EFFECT_CANNOT_FLIP_SUMMON, EFFECT_CANNOT_MSET,
    EFFECT_CANNOT_PLACE_COUNTER, EFFECT_CANNOT_RELEASE, EFFECT_CANNOT_REMOVE,
    EFFECT_CANNOT_SPECIAL_SUMMON, EFFECT_CANNOT_SSET, EFFECT_CANNOT_SUMMON, EFFECT_CANNOT_TO_DECK,
    EFFECT_CANNOT_TO_GRAVE, EFFECT_CANNOT_TO_HAND, EFFECT_DIVINE_LIGHT, EFFECT_LEFT_SPSUMMON_COUNT,
    EFFECT_OVERLAY_REMOVE_REPLACE, EFFECT_RCOUNTER_REPLACE, EFFECT_SPSUMMON_COST,
    EFFECT_TO_GRAVE_REDIRECT, LOCATION_DECK, LOCATION_HAND, LOCATION_ONFIELD, LOCATION_REMOVED,
    PHASE_BATTLE_START, POS_FACEDOWN, POS_FACEUP, POS_FACEUP_ATTACK, STATUS_FORBIDDEN,
    SUMMON_TYPE_NORMAL, SUMMON_TYPE_SPECIAL, TYPE_LINK, TYPE_TOKEN,
)
from ..card import CardData
from ..event import Event

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from ..effect import Effect


class PermissionsMixin:
    """Methods of Duel (see engine/duel.py)."""

    def _forbidden_by(self: "Duel", playerid: int, code: int, *target_args: Any) -> bool:
        """True when one of ``playerid``'s ``code`` effects forbids the action.

        Effects are checked in order; one without a target function forbids
        everything, one with a target is asked with (effect, *target_args).
        """
        if code not in self.effects.aura_effect:     # (only skips work: no effect to ask)
            return False
        for peffect in self.filter_player_effect(playerid, code):
            if peffect.target is None:
                return True
            if self.script.check_condition(peffect.target, peffect, *target_args):
                return True
        return False

    def is_player_can_draw(self: "Duel", playerid: int) -> bool:
        """A player can draw unless affected by EFFECT_CANNOT_DRAW."""
        return self.is_player_affected_by_effect(playerid, EFFECT_CANNOT_DRAW) is None

    def is_player_can_discard_deck(self: "Duel", playerid: int, count: int) -> bool:
        """The player has ``count`` (>= 0) cards in the Deck and no EFFECT_CANNOT_DISCARD_DECK."""
        if count < 0 or len(self.player[playerid].list_main) < count:
            return False
        return self.is_player_affected_by_effect(playerid, EFFECT_CANNOT_DISCARD_DECK) is None

    def is_player_can_discard_deck_as_cost(self: "Duel", playerid: int, count: int) -> bool:
        """Can the player send ``count`` cards from the top of the Deck to the GY as a cost?

        Besides is_player_can_discard_deck: sending one face-up top card asks
        that card whether it can go to the GY as a cost.  Otherwise an
        EFFECT_TO_GRAVE_REDIRECT that would catch cards leaving this player's
        Deck forbids the cost -- unless it redirects to banishment and the card
        or the player concerned cannot banish.
        """
        deck = self.player[playerid].list_main
        if count < 0 or len(deck) < count:
            return False
        if self.is_player_affected_by_effect(playerid, EFFECT_CANNOT_DISCARD_DECK) is not None:
            return False
        # (with an empty Deck and count 0 the reference reads past its Deck; we
        # treat the missing top card as unaffected by anything)
        topcard = deck[-1] if deck else None
        if count == 1 and topcard.is_position(POS_FACEUP):
            return bool(topcard.is_capable_cost_to_grave(playerid))
        cant_remove_s = not self.is_player_can_action(playerid, EFFECT_CANNOT_REMOVE)
        cant_remove_o = not self.is_player_can_action(1 - playerid, EFFECT_CANNOT_REMOVE)
        for peffect in self.filter_field_effect(EFFECT_TO_GRAVE_REDIRECT):
            redirect = peffect.get_value()
            p = peffect.get_handler_player()
            if redirect & LOCATION_REMOVED:
                if topcard is not None and topcard.is_affected_by_effect(EFFECT_CANNOT_REMOVE) is not None:
                    continue
                if (cant_remove_s and p == playerid) or (cant_remove_o and p != playerid):
                    continue
            if ((p == playerid and peffect.s_range & LOCATION_DECK)
                    or (p != playerid and peffect.o_range & LOCATION_DECK)):
                return False
        return True

    def is_player_can_discard_hand(self: "Duel", playerid: int, pcard: "Card",
                                   reason_effect: "Effect | None", reason: int) -> bool:
        """A card in hand can be discarded unless an EFFECT_CANNOT_DISCARD_HAND forbids it.

        The target function gets (effect, card, reason effect, reason).
        """
        if pcard.current.location != LOCATION_HAND:
            return False
        return not self._forbidden_by(playerid, EFFECT_CANNOT_DISCARD_HAND, pcard,
                                      reason_effect, reason)

    def is_player_can_action(self: "Duel", playerid: int, actionlimit: int) -> bool:
        """False when the player has an ``actionlimit`` effect with no target (a blanket ban)."""
        return all(peffect.target is not None
                   for peffect in self.filter_player_effect(playerid, actionlimit))

    def is_player_can_summon(self: "Duel", sumtype: int, playerid: int, pcard: "Card",
                             toplayer: int) -> bool:
        """Not forbidden by EFFECT_CANNOT_SUMMON.

        The target function gets (effect, card, player, sumtype | SUMMON_TYPE_NORMAL,
        POS_FACEUP, toplayer).
        """
        sumtype |= SUMMON_TYPE_NORMAL
        return not self._forbidden_by(playerid, EFFECT_CANNOT_SUMMON, pcard, playerid, sumtype,
                                      POS_FACEUP, toplayer)

    def is_player_can_mset(self: "Duel", sumtype: int, playerid: int, pcard: "Card",
                           toplayer: int) -> bool:
        """Not forbidden by EFFECT_CANNOT_MSET (as is_player_can_summon, position POS_FACEDOWN)."""
        sumtype |= SUMMON_TYPE_NORMAL
        return not self._forbidden_by(playerid, EFFECT_CANNOT_MSET, pcard, playerid, sumtype,
                                      POS_FACEDOWN, toplayer)

    def is_player_can_sset(self: "Duel", playerid: int, pcard: "Card") -> bool:
        """Not forbidden by EFFECT_CANNOT_SSET (target gets effect, card, player)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_SSET, pcard, playerid)

    def is_player_can_spsummon(self: "Duel", playerid: int) -> bool:
        """Can the player Special Summon at all?  (The reference's one-argument overload.)

        No EFFECT_CANNOT_SPECIAL_SUMMON without a target, and at least one
        Special Summon left under the Special Summon count limits.
        """
        if not self.is_player_can_action(playerid, EFFECT_CANNOT_SPECIAL_SUMMON):
            return False
        return self.is_player_can_spsummon_count(playerid, 1)

    def is_player_can_spsummon_card(self: "Duel", reason_effect: "Effect | None", sumtype: int,
                                    sumpos: int, playerid: int, toplayer: int,
                                    pcard: "Card") -> bool:
        """Can ``playerid`` Special Summon ``pcard`` to ``toplayer``'s field?

        (The reference's six-argument overload of is_player_can_spsummon.)
        The card must not be affected by EFFECT_CANNOT_SPECIAL_SUMMON, be
        forbidden, or be a Token already on the field; a Link Monster only in
        face-up Attack Position.  It needs a position it can take, its
        EFFECT_SPSUMMON_COST must be payable (LP costs checked, not paid), and
        no EFFECT_CANNOT_SPECIAL_SUMMON of the player may forbid it -- the
        target function sees face-down positions as face-up under
        EFFECT_DIVINE_LIGHT.  Finally the once-per-turn and count limits.
        """
        if pcard.is_affected_by_effect(EFFECT_CANNOT_SPECIAL_SUMMON) is not None:
            return False
        if pcard.is_status(STATUS_FORBIDDEN):
            return False
        if (pcard.data.type & TYPE_TOKEN) and (pcard.current.location & LOCATION_ONFIELD):
            return False
        if pcard.data.type & TYPE_LINK:
            sumpos &= POS_FACEUP_ATTACK
        position = pcard.get_spsummonable_position(reason_effect, sumtype, sumpos, playerid, toplayer)
        if position == 0:
            return False
        sumtype |= SUMMON_TYPE_SPECIAL
        self.save_lp_cost()
        payable = pcard.check_cost_condition(EFFECT_SPSUMMON_COST, playerid, sumtype)
        self.restore_lp_cost()
        if not payable:
            return False
        if position & POS_FACEDOWN and self.is_player_affected_by_effect(playerid, EFFECT_DIVINE_LIGHT) is not None:
            position = (position & POS_FACEUP) | ((position & POS_FACEDOWN) >> 1)
        if self._forbidden_by(playerid, EFFECT_CANNOT_SPECIAL_SUMMON, pcard, playerid, sumtype,
                              position, toplayer, reason_effect):
            return False
        if not self.check_spsummon_once(pcard, playerid):
            return False
        if not self.check_spsummon_counter(playerid):
            return False
        return True

    def is_player_can_flipsummon(self: "Duel", playerid: int, pcard: "Card") -> bool:
        """Not forbidden by EFFECT_CANNOT_FLIP_SUMMON (target gets effect, card, player)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_FLIP_SUMMON, pcard, playerid)

    def is_player_can_spsummon_monster(self: "Duel", playerid: int, toplayer: int, sumpos: int,
                                       sumtype: int, pdata: "CardData") -> bool:
        """Could a monster with data ``pdata`` (e.g. a Token) be Special Summoned?

        Asked with the duel's placeholder card wearing that data, for the
        current reason effect; the placeholder's data is blanked afterwards.
        """
        self.temp_card.data = pdata.copy()
        try:
            return self.is_player_can_spsummon_card(self.core.reason_effect, sumtype, sumpos,
                                                    playerid, toplayer, self.temp_card)
        finally:
            self.temp_card.data = CardData()

    def is_player_can_release(self: "Duel", playerid: int, pcard: "Card", reason: int) -> bool:
        """Not forbidden by EFFECT_CANNOT_RELEASE (target gets effect, card, player, reason)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_RELEASE, pcard, playerid, reason)

    def is_player_can_spsummon_count(self: "Duel", playerid: int, count: int) -> bool:
        """The player has ``count`` Special Summons left.

        Every EFFECT_LEFT_SPSUMMON_COUNT value (asked with the current reason
        effect and the player) must be at least ``count``, and the Special
        Summon counters must allow that many.
        """
        for peffect in self.filter_player_effect(playerid, EFFECT_LEFT_SPSUMMON_COUNT):
            v = peffect.get_value(None, self.core.reason_effect, playerid)
            if v < count:
                return False
        return self.check_spsummon_counter(playerid, count)

    def is_player_can_place_counter(self: "Duel", playerid: int, pcard: "Card | None",
                                    countertype: int, count: int) -> bool:
        """Not forbidden by EFFECT_CANNOT_PLACE_COUNTER (target gets effect, card, player)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_PLACE_COUNTER, pcard, playerid)

    def _replace_available(self: "Duel", code: int, playerid: int, value: int,
                           reason: int) -> bool:
        """Can some continuous replacement effect of ``code`` do the removal instead?"""
        e = Event(event_cards=None, event_player=playerid, event_value=value, reason=reason,
                  reason_effect=self.core.reason_effect, reason_player=playerid)
        for peffect in self.effects.continuous_effect.equal_range(code):
            if peffect.is_activateable(peffect.get_handler_player(), e):
                return True
        return False

    def is_player_can_remove_counter(self: "Duel", playerid: int, pcard: "Card | None", s: int,
                                     o: int, countertype: int, count: int, reason: int) -> bool:
        """Can ``count`` counters of a type be removed, from ``pcard`` or (None) from the field?

        Yes when there are that many (on the card, or on the fields chosen by
        ``s``/``o`` from ``playerid``'s side), or when an
        EFFECT_RCOUNTER_REPLACE effect for that counter type could be
        activated to do it instead.
        """
        if pcard is not None and pcard.get_counter(countertype) >= count:
            return True
        if pcard is None and self.get_field_counter(playerid, s, o, countertype) >= count:
            return True
        return self._replace_available(EFFECT_RCOUNTER_REPLACE + countertype, playerid, count, reason)

    def is_player_can_remove_overlay_card(self: "Duel", playerid: int, pcard: "Card | None",
                                          s: int, o: int, min: int, reason: int) -> bool:
        """Can ``min`` Xyz materials be detached, from ``pcard`` or (None) from the field?

        As is_player_can_remove_counter, with EFFECT_OVERLAY_REMOVE_REPLACE.
        """
        if pcard is not None and len(pcard.xyz_materials) >= min:
            return True
        if pcard is None and self.get_overlay_count(playerid, s, o) >= min:
            return True
        return self._replace_available(EFFECT_OVERLAY_REMOVE_REPLACE, playerid, min, reason)

    def is_player_can_send_to_grave(self: "Duel", playerid: int, pcard: "Card") -> bool:
        """Not forbidden by EFFECT_CANNOT_TO_GRAVE (target gets effect, card, player)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_TO_GRAVE, pcard, playerid)

    def is_player_can_send_to_hand(self: "Duel", playerid: int, pcard: "Card") -> bool:
        """Not forbidden by EFFECT_CANNOT_TO_HAND (target gets effect, card, player, reason effect).

        An Extra Deck monster "returning to the hand" goes to the Extra Deck,
        so it must also be allowed to go to the Deck.
        """
        if self._forbidden_by(playerid, EFFECT_CANNOT_TO_HAND, pcard, playerid,
                              self.core.reason_effect):
            return False
        if pcard.is_extra_deck_monster() and not self.is_player_can_send_to_deck(playerid, pcard):
            return False
        return True

    def is_player_can_send_to_deck(self: "Duel", playerid: int, pcard: "Card") -> bool:
        """Not forbidden by EFFECT_CANNOT_TO_DECK (target gets effect, card, player)."""
        return not self._forbidden_by(playerid, EFFECT_CANNOT_TO_DECK, pcard, playerid)

    def is_player_can_remove(self: "Duel", playerid: int, pcard: "Card", reason: int,
                             reason_effect: "Effect | None" = None) -> bool:
        """Not forbidden by EFFECT_CANNOT_REMOVE.

        The target gets (effect, card, player, reason, reason effect); the
        reason effect defaults to the current one.
        """
        if reason_effect is None:
            reason_effect = self.core.reason_effect
        return not self._forbidden_by(playerid, EFFECT_CANNOT_REMOVE, pcard, playerid, reason,
                                      reason_effect)

    def is_able_to_enter_bp(self: "Duel") -> bool:
        """Can the turn player still go to the Battle Phase?

        Not in the first turn of the duel (unless DUEL_ATTACK_FIRST_TURN), only
        before the Battle Phase, and not under EFFECT_CANNOT_BP.
        """
        return bool(((self.core.duel_options & DUEL_ATTACK_FIRST_TURN) or self.infos.turn_id != 1)
                    and self.infos.phase < PHASE_BATTLE_START
                    and self.is_player_affected_by_effect(self.infos.turn_player, EFFECT_CANNOT_BP) is None)

    # ----- a monster that does not exist yet (Duel.IsPlayerCanSpecialSummonMonster) -----

    def prospective_card_data(self: "Duel", code: int) -> "CardData":
        """The data of card ``code`` from the database (blank when unknown) with that code,
        to be adjusted for Duel.IsPlayerCanSpecialSummonMonster."""
        data = self.card_reader(code) if code else None
        data = data.copy() if data is not None else CardData()
        data.code = code
        return data
