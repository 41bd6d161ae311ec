"""Zones: putting cards in and taking them out, sequences, shuffles, free-zone counts.

Reference: field.cpp (the zone half) and the duel set-up/query entry points of
ocgapi.cpp (start_duel, set_player_info, new_card, query_*).

Zone bitmasks
-------------
A player's ``used_location`` / ``disabled_location`` hold one bit per zone:
bits 0-6 are the Monster Zones (5 and 6 are the Extra Monster Zones), bits
8-15 the Spell & Trap Zones (8 + sequence; 8 + 5 is the Field Zone).  The
``zone`` argument of the count functions has one bit per zone of the location
asked about (bit n = sequence n, Monster or Spell & Trap alike); where a mask
covers both players, the opponent's zones are shifted up by 16.

Out-parameters
--------------
The reference's zone-count functions take an optional ``uint32_t* list`` that
receives the mask of zones that cannot be used.  Here that argument is
``list_out``: pass a one-element list (``flag = [0]``) and the function stores
the mask in ``flag[0]``; leave it out when only the count matters.  The count
is always the return value, so ``self.get_useable_count(...) <= 0`` reads as
in the reference.  ``filter_must_use_mzone`` ORs into a caller's flag in the
reference; here it takes the flag and returns the new value.  Functions that
fill a ``card_set*`` take the CardSet to fill (None: a new one) and return it.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING

from ..constants import (
    DUEL_OBSOLETE_RULING, DUEL_PSEUDO_SHUFFLE, DUEL_RETURN_DECK_TOP, DUEL_TAG_MODE,
    EFFECT_DRAW_COUNT, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COUNT_LIMIT,
    EFFECT_FLAG_PLAYER_TARGET, EFFECT_MAX_MZONE, EFFECT_MAX_SZONE, EFFECT_MUST_USE_MZONE,
    EFFECT_PUBLIC, EFFECT_REMOVE_BRAINWASHING, EFFECT_SET_CONTROL, EFFECT_SET_SUMMON_COUNT_LIMIT,
    EFFECT_TYPE_SINGLE, EVENT_MOVE, GLOBALFLAG_DECK_REVERSE_CHECK, LOCATION_DECK, LOCATION_EXTRA,
    LOCATION_FZONE, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_PZONE,
    LOCATION_REASON_TOFIELD, LOCATION_REMOVED, LOCATION_SZONE, MASTER_RULE3, MASTER_RULE_2020,
    NEW_MASTER_RULE, PLAYER_NONE, POS_FACEDOWN, POS_FACEDOWN_DEFENSE, POS_FACEUP,
    POS_FACEUP_DEFENSE, REASON_DRAW, REASON_EFFECT, REASON_RULE, RESET_EVENT, RESET_OPPO_TURN,
    RESET_PHASE, RESET_SELF_TURN, RESET_TODECK, RESET_TOGRAVE, SEQ_DECKBOTTOM, SEQ_DECKTOP,
    STATUS_ACTIVATE_DISABLED, STATUS_PROC_COMPLETE, STATUS_SUMMON_DISABLED,
    STATUS_TO_HAND_WITHOUT_CONFIRM, TYPE_FUSION, TYPE_MONSTER, TYPE_PENDULUM, TYPE_SYNCHRO,
    TYPE_XYZ,
)
from ..core_constants import CHINT_DESC_ADD, CURRENT_RULE, LEN_EMPTY
from ..group import CardSet, Group
from ..messages import (
    ChainLinkInfo, LocInfo, MonsterZoneState, MsgCardHint, MsgDeckTop, MsgMove, MsgReloadField,
    MsgShuffleDeck, MsgShuffleExtra, MsgShuffleHand, MsgShuffleSetCard, MsgSwap, MsgSwapGraveDeck,
    MsgTagSwap, PlayerFieldState, SpellZoneState,
)
from ..wire import i32 as _i32, u32 as _u32

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel

UINT_MAX = 0xFFFFFFFF

# How many zones a 5-bit mask marks as taken: popcount of 0..31.
field_used_count: tuple[int, ...] = tuple(bin(i).count("1") for i in range(32))


def check_playerid(playerid: int) -> bool:
    return 0 <= playerid <= 1


def _save_previous(pcard: "Card") -> None:
    """Remember where the card is before it moves (previous <- current)."""
    cur, prev = pcard.current, pcard.previous
    prev.controler = cur.controler
    prev.location = cur.location
    prev.sequence = cur.sequence
    prev.position = cur.position
    prev.pzone = cur.pzone


# number of set bits in a 5-bit zone mask (the reference's field::field_used_count)
FIELD_USED_COUNT = tuple(bin(i).count("1") for i in range(32))


class ZonesMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== the host's view: MSG_RELOAD_FIELD and query_field_info ======================

    def field_info(self: "Duel") -> MsgReloadField:
        """A snapshot of both fields and the chain, as MSG_RELOAD_FIELD carries it."""
        players = []
        for p in self.player:
            mzone = tuple(None if c is None else
                          MonsterZoneState(position=c.current.position & 0xFF,
                                           overlay_count=len(c.xyz_materials) & 0xFF)
                          for c in p.list_mzone)
            szone = tuple(None if c is None else SpellZoneState(position=c.current.position & 0xFF)
                          for c in p.list_szone)
            players.append(PlayerFieldState(
                lp=p.lp & UINT_MAX, mzone=mzone, szone=szone,
                deck_count=len(p.list_main) & 0xFF, hand_count=len(p.list_hand) & 0xFF,
                grave_count=len(p.list_grave) & 0xFF, removed_count=len(p.list_remove) & 0xFF,
                extra_count=len(p.list_extra) & 0xFF, extra_p_count=p.extra_p_count & 0xFF))
        chain = []
        for ch in self.core.current_chain:
            handler = ch.triggering_effect.get_handler()
            chain.append(ChainLinkInfo(
                code=handler.data.code, location=LocInfo.from_raw(handler.get_info_location()),
                triggering_controller=ch.triggering_controler,
                triggering_location=ch.triggering_location & 0xFF,
                triggering_sequence=ch.triggering_sequence,
                description=ch.triggering_effect.description & UINT_MAX))
        return MsgReloadField(duel_rule=self.core.duel_rule, players=(players[0], players[1]),
                              chain=tuple(chain))

    def reload_field_info(self: "Duel") -> None:
        """Tell the host the whole field again (MSG_RELOAD_FIELD)."""
        self.emit(self.field_info())

    def query_field_info(self: "Duel") -> bytes:
        """The bytes of ocgapi's query_field_info: the MSG_RELOAD_FIELD message."""
        return self.field_info().encode()

    # ===== cards entering and leaving zones ===========================================

    def add_card(self: "Duel", playerid: int, pcard: "Card", location: int, sequence: int,
                 pzone: bool | int = False) -> None:
        """Put a card that is nowhere into a zone of ``playerid``.

        Nothing happens if the card is already somewhere or the zone cannot be
        used.  An Extra Deck monster sent to the hand or Deck goes to the Extra
        Deck face-down instead.  Deck: SEQ_DECKTOP puts it on top,
        SEQ_DECKBOTTOM at the bottom, SEQ_DECKSHUFFLE at the bottom (top with
        DUEL_RETURN_DECK_TOP) and marks the Deck for a shuffle.  Hand: marks the
        hand for a shuffle unless the card was drawn.  Extra Deck: face-up
        Pendulums go on top of the pile, others below the face-up Pendulums.
        Then the card gets new field ids, its field effects are registered and
        the player's zone bits are recomputed.
        """
        if pcard.current.location != 0:
            return
        if not self.is_location_useable(playerid, location, sequence):
            return
        if pcard.is_extra_deck_monster() and (location & (LOCATION_HAND | LOCATION_DECK)):
            location = LOCATION_EXTRA
            pcard.sendto_param.position = POS_FACEDOWN_DEFENSE
        pcard.current.controler = playerid
        pcard.current.location = location
        pl = self.player[playerid]
        if location == LOCATION_MZONE:
            pl.list_mzone[sequence] = pcard
            pcard.current.sequence = sequence
        elif location == LOCATION_SZONE:
            pl.list_szone[sequence] = pcard
            pcard.current.sequence = sequence
        elif location == LOCATION_DECK:
            self._add_to_deck(playerid, pcard, sequence)
        elif location == LOCATION_HAND:
            pl.list_hand.append(pcard)
            pcard.current.sequence = len(pl.list_hand) - 1
            public = pcard.is_affected_by_effect(EFFECT_PUBLIC)
            pcard.sendto_param.position = POS_FACEUP if public else POS_FACEDOWN
            if not (pcard.current.reason & REASON_DRAW) and not self.core.shuffle_check_disabled:
                self.core.shuffle_hand_check[playerid] = True
        elif location == LOCATION_GRAVE:
            pl.list_grave.append(pcard)
            pcard.current.sequence = len(pl.list_grave) - 1
        elif location == LOCATION_REMOVED:
            pl.list_remove.append(pcard)
            pcard.current.sequence = len(pl.list_remove) - 1
        elif location == LOCATION_EXTRA:
            self._add_to_extra(playerid, pcard)
        pcard.current.pzone = bool(pzone)
        if pzone and not (pcard.data.type & TYPE_PENDULUM):
            self.printed_stats_changed(pcard)     # (a card in a Pendulum Zone is a Pendulum Spell)
        pcard.apply_field_effect()
        pcard.fieldid = self.infos.field_id
        self.infos.field_id += 1
        pcard.fieldid_r = pcard.fieldid
        pcard.activate_count_id = pcard.fieldid
        if self.check_unique_onfield(pcard, pcard.current.controler, pcard.current.location):
            pcard.unique_fieldid = UINT_MAX
        pcard.turnid = self.infos.turn_id
        self.refresh_player_info(playerid)

    def _add_to_deck(self: "Duel", playerid: int, pcard: "Card", sequence: int) -> None:
        deck = self.player[playerid].list_main
        to_top = (sequence == SEQ_DECKTOP
                  or (sequence != SEQ_DECKBOTTOM and self.core.duel_options & DUEL_RETURN_DECK_TOP))
        if to_top:
            deck.append(pcard)
            pcard.current.sequence = len(deck) - 1
        else:
            deck.insert(0, pcard)
            self.reset_sequence(playerid, LOCATION_DECK)
        if sequence not in (SEQ_DECKTOP, SEQ_DECKBOTTOM) and not self.core.shuffle_check_disabled:
            self.core.shuffle_deck_check[playerid] = True
        pcard.sendto_param.position = POS_FACEDOWN

    def _add_to_extra(self: "Duel", playerid: int, pcard: "Card") -> None:
        pl = self.player[playerid]
        faceup_pendulum = bool(pcard.data.type & TYPE_PENDULUM
                               and pcard.sendto_param.position & POS_FACEUP)
        if pl.extra_p_count == 0 or faceup_pendulum:
            pl.list_extra.append(pcard)
        else:
            pl.list_extra.insert(len(pl.list_extra) - pl.extra_p_count, pcard)
        if faceup_pendulum:
            pl.extra_p_count += 1
        self.reset_sequence(playerid, LOCATION_EXTRA)

    def remove_card(self: "Duel", pcard: "Card") -> None:
        """Take a card out of its zone; it is nowhere afterwards.

        Leaving the Deck marks it for a shuffle; leaving the hand clears
        STATUS_TO_HAND_WITHOUT_CONFIRM; leaving the Extra Deck face-up (a
        Pendulum) lowers the face-up Pendulum count.  The card's field effects
        are withdrawn and ``previous`` keeps where it was.
        """
        playerid = pcard.current.controler
        if not check_playerid(playerid) or pcard.current.location == 0:
            return
        pl = self.player[playerid]
        loc = pcard.current.location
        seq = pcard.current.sequence
        if loc == LOCATION_MZONE:
            pl.list_mzone[seq] = None
        elif loc == LOCATION_SZONE:
            pl.list_szone[seq] = None
        elif loc == LOCATION_DECK:
            del pl.list_main[seq]
            self.reset_sequence(playerid, LOCATION_DECK)
            if not self.core.shuffle_check_disabled:
                self.core.shuffle_deck_check[playerid] = True
        elif loc == LOCATION_HAND:
            pcard.set_status(STATUS_TO_HAND_WITHOUT_CONFIRM, False)
            del pl.list_hand[seq]
            self.reset_sequence(playerid, LOCATION_HAND)
        elif loc == LOCATION_GRAVE:
            del pl.list_grave[seq]
            self.reset_sequence(playerid, LOCATION_GRAVE)
        elif loc == LOCATION_REMOVED:
            del pl.list_remove[seq]
            self.reset_sequence(playerid, LOCATION_REMOVED)
        elif loc == LOCATION_EXTRA:
            del pl.list_extra[seq]
            self.reset_sequence(playerid, LOCATION_EXTRA)
            if (pcard.data.type & TYPE_PENDULUM) and (pcard.current.position & POS_FACEUP):
                pl.extra_p_count -= 1
        pcard.cancel_field_effect()
        self.refresh_player_info(playerid)
        _save_previous(pcard)
        pcard.current.controler = PLAYER_NONE
        pcard.current.location = 0
        pcard.current.sequence = 0

    def move_card(self: "Duel", playerid: int, pcard: "Card", location: int, sequence: int,
                  pzone: bool | int = False) -> None:
        """Move a card to a zone of ``playerid`` (the zone must be usable).

        A move within the same kind of place is done in place and reported with
        MSG_MOVE here: inside one player's Deck (to top/bottom/shuffle
        position), between Monster or Spell & Trap Zones (MSG_MOVE only when the
        controller stays the same; a change of controller gets a new field id
        instead), or to the top of the GY / banished pile / Extra Deck.  A card
        already in its owner's hand stays.  Any other move is a remove_card then
        an add_card (no message: the caller reports it); on the way a Pendulum
        Monster leaving the field for the GY goes face-up to the Extra Deck if
        it may.
        """
        if not self.is_location_useable(playerid, location, sequence):
            return
        if pcard.is_extra_deck_monster() and (location & (LOCATION_HAND | LOCATION_DECK)):
            location = LOCATION_EXTRA
            pcard.sendto_param.position = POS_FACEDOWN_DEFENSE
        if pcard.current.location:
            if pcard.current.location == location and pcard.current.pzone == bool(pzone):
                if self._move_within_location(playerid, pcard, location, sequence):
                    return
            else:
                if self._pendulum_goes_to_extra(playerid, pcard, location):
                    location = LOCATION_EXTRA
                    pcard.sendto_param.position = POS_FACEUP_DEFENSE
                self.remove_card(pcard)
        self.add_card(playerid, pcard, location, sequence, pzone)

    def _pendulum_goes_to_extra(self: "Duel", playerid: int, pcard: "Card",
                                location: int) -> bool:
        """A Pendulum Monster sent from the field to the GY goes to the Extra Deck instead,
        unless its summon or activation was negated."""
        if not (pcard.data.type & TYPE_PENDULUM) or location != LOCATION_GRAVE:
            return False
        if not pcard.is_capable_send_to_extra(playerid):
            return False
        if pcard.current.location == LOCATION_MZONE:
            return not pcard.is_status(STATUS_SUMMON_DISABLED)
        if pcard.current.location == LOCATION_SZONE:
            return not pcard.is_status(STATUS_ACTIVATE_DISABLED)
        return False

    def _move_within_location(self: "Duel", playerid: int, pcard: "Card", location: int,
                              sequence: int) -> bool:
        """move_card when the card stays in the same kind of place.

        Returns True when the move is finished (or refused), False when the
        caller must still add the card (it has been removed already).
        """
        preplayer = pcard.current.controler
        if location == LOCATION_DECK:
            if preplayer != playerid:
                self.remove_card(pcard)
                return False
            self._move_inside_deck(playerid, pcard, sequence)
            return True
        if location & LOCATION_ONFIELD:
            self._move_on_field(playerid, pcard, location, sequence)
            return True
        if location == LOCATION_HAND:
            if preplayer == playerid:
                return True
            self.remove_card(pcard)
            return False
        self._move_to_pile_top(pcard, location)
        return True

    def _move_inside_deck(self: "Duel", playerid: int, pcard: "Card", sequence: int) -> None:
        deck = self.player[playerid].list_main
        before = pcard.get_info_location()
        del deck[pcard.current.sequence]
        if sequence == SEQ_DECKTOP:
            deck.append(pcard)
        elif sequence == SEQ_DECKBOTTOM:
            deck.insert(0, pcard)
        else:  # SEQ_DECKSHUFFLE
            if self.core.duel_options & DUEL_RETURN_DECK_TOP:
                deck.append(pcard)
            else:
                deck.insert(0, pcard)
            if not self.core.shuffle_check_disabled:
                self.core.shuffle_deck_check[playerid] = True
        self.reset_sequence(playerid, LOCATION_DECK)
        pcard.previous.controler = playerid
        pcard.current.controler = playerid
        self.emit(MsgMove(code=pcard.data.code, previous=LocInfo.from_raw(before),
                          current=LocInfo.from_raw(pcard.get_info_location()), reason=pcard.current.reason))

    def _move_on_field(self: "Duel", playerid: int, pcard: "Card", location: int,
                       sequence: int) -> None:
        preplayer = pcard.current.controler
        presequence = pcard.current.sequence
        if playerid == preplayer and sequence == presequence:
            return
        pl = self.player[playerid]
        if location == LOCATION_MZONE:
            if sequence >= len(pl.list_mzone) or pl.list_mzone[sequence] is not None:
                return
        elif sequence >= pl.szone_size or pl.list_szone[sequence] is not None:
            return
        before = pcard.get_info_location()
        _save_previous(pcard)
        zones_from = (self.player[preplayer].list_mzone if location == LOCATION_MZONE
                      else self.player[preplayer].list_szone)
        zones_to = pl.list_mzone if location == LOCATION_MZONE else pl.list_szone
        zones_from[presequence] = None
        zones_to[sequence] = pcard
        pcard.current.controler = playerid
        pcard.current.sequence = sequence
        if preplayer == playerid:
            self.refresh_player_info(playerid)
            self.emit(MsgMove(code=pcard.data.code, previous=LocInfo.from_raw(before),
                              current=LocInfo.from_raw(pcard.get_public_info_location()),
                              reason=pcard.current.reason))
        else:
            self.refresh_player_info(preplayer)
            self.refresh_player_info(playerid)
            pcard.fieldid = self.infos.field_id
            self.infos.field_id += 1
            if self.check_unique_onfield(pcard, pcard.current.controler, pcard.current.location):
                pcard.unique_fieldid = UINT_MAX

    def _move_to_pile_top(self: "Duel", pcard: "Card", location: int) -> None:
        """Move a card to the top of the GY, banished pile or Extra Deck it is already in."""
        p = pcard.current.controler
        pl = self.player[p]
        if location == LOCATION_GRAVE:
            pile = pl.list_grave
        elif location == LOCATION_REMOVED:
            pile = pl.list_remove
        else:
            pile = pl.list_extra
        # the GY and banished pile: nothing to do when the card is already on top
        if location in (LOCATION_GRAVE, LOCATION_REMOVED) and pcard.current.sequence == len(pile) - 1:
            return
        before = pcard.get_info_location()
        del pile[pcard.current.sequence]
        pile.append(pcard)
        self.reset_sequence(p, location if location in (LOCATION_GRAVE, LOCATION_REMOVED)
                            else LOCATION_EXTRA)
        self.emit(MsgMove(code=pcard.data.code, previous=LocInfo.from_raw(before),
                          current=LocInfo.from_raw(pcard.get_info_location()), reason=pcard.current.reason))

    def swap_card(self: "Duel", pcard1: "Card", pcard2: "Card",
                  new_sequence1: int | None = None, new_sequence2: int | None = None) -> None:
        """Swap two cards on the field (both overloads of the reference).

        Without sequences each card takes the other's place.  With them,
        ``pcard2`` goes to ``pcard1``'s player and location at
        ``new_sequence1`` and ``pcard1`` to ``pcard2``'s at ``new_sequence2``.
        Both must be on the field, a changed target zone must be usable, and on
        one side of one location a card may not land where the other one is.
        Same kind of zone: swapped in place (new field ids when the controllers
        differ).  Otherwise both are removed and re-added.  Reported as one
        MSG_SWAP when neither sequence changes, else as two MSG_MOVE (pcard1's
        first only when its own sequence is unchanged).
        """
        if new_sequence1 is None:
            new_sequence1 = pcard1.current.sequence
        if new_sequence2 is None:
            new_sequence2 = pcard2.current.sequence
        p1, p2 = pcard1.current.controler, pcard2.current.controler
        l1, l2 = pcard1.current.location, pcard2.current.location
        s1, s2 = pcard1.current.sequence, pcard2.current.sequence
        info1, info2 = pcard1.get_info_location(), pcard2.get_info_location()
        if not (l1 & LOCATION_ONFIELD) or not (l2 & LOCATION_ONFIELD):
            return
        if ((new_sequence1 != s1 and not self.is_location_useable(p1, l1, new_sequence1))
                or (new_sequence2 != s2 and not self.is_location_useable(p2, l2, new_sequence2))):
            return
        if p1 == p2 and l1 == l2 and (new_sequence1 == s2 or new_sequence2 == s1):
            return
        if l1 == l2:
            self._swap_in_place(pcard1, pcard2, new_sequence1, new_sequence2)
        else:
            self.remove_card(pcard1)
            self.remove_card(pcard2)
            self.add_card(p2, pcard1, l2, new_sequence2)
            self.add_card(p1, pcard2, l1, new_sequence1)
        if s1 == new_sequence1 and s2 == new_sequence2:
            self.emit(MsgSwap(code1=pcard1.data.code, loc1=LocInfo.from_raw(info1),
                              code2=pcard2.data.code, loc2=LocInfo.from_raw(info2)))
            return
        moves = [(pcard1, info1), (pcard2, info2)]
        if s1 != new_sequence1:
            moves.reverse()
        for pcard, info in moves:
            self.emit(MsgMove(code=pcard.data.code, previous=LocInfo.from_raw(info),
                              current=LocInfo.from_raw(pcard.get_public_info_location()), reason=0))

    def _swap_in_place(self: "Duel", pcard1: "Card", pcard2: "Card", new_sequence1: int,
                       new_sequence2: int) -> None:
        p1, p2 = pcard1.current.controler, pcard2.current.controler
        loc = pcard1.current.location
        s1, s2 = pcard1.current.sequence, pcard2.current.sequence
        _save_previous(pcard1)
        pcard1.current.controler = p2
        pcard1.current.sequence = new_sequence2
        _save_previous(pcard2)
        pcard2.current.controler = p1
        pcard2.current.sequence = new_sequence1
        if p1 != p2:
            for pcard in (pcard1, pcard2):
                pcard.fieldid = self.infos.field_id
                self.infos.field_id += 1
            for pcard in (pcard1, pcard2):
                if self.check_unique_onfield(pcard, pcard.current.controler, pcard.current.location):
                    pcard.unique_fieldid = UINT_MAX
        if loc in (LOCATION_MZONE, LOCATION_SZONE):
            attr = "list_mzone" if loc == LOCATION_MZONE else "list_szone"
            z1, z2 = getattr(self.player[p1], attr), getattr(self.player[p2], attr)
            z1[s1] = None
            z2[s2] = None
            z2[new_sequence2] = pcard1
            z1[new_sequence1] = pcard2
            self.refresh_player_info(p1)
            self.refresh_player_info(p2)

    def set_control(self: "Duel", pcard: "Card", playerid: int, reset_phase: int,
                    reset_count: int) -> None:
        """Give control of a card to ``playerid`` with an EFFECT_SET_CONTROL effect.

        Nothing happens when brainwashing is being removed and the card is
        under EFFECT_REMOVE_BRAINWASHING, or when the card already ends up
        controlled by ``playerid``.  With a ``reset_count`` the effect ends at
        the given phase that many turns later.
        """
        if ((self.core.remove_brainwashing and pcard.is_affected_by_effect(EFFECT_REMOVE_BRAINWASHING))
                or pcard.refresh_control_status()[0] == playerid):
            return
        peffect = self.new_effect()
        if self.core.reason_effect is not None:
            peffect.owner = self.core.reason_effect.get_handler()
        else:
            peffect.owner = pcard
        peffect.handler = pcard
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = EFFECT_SET_CONTROL
        peffect.value = playerid
        peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
        peffect.reset_flag = RESET_EVENT | 0xC6C0000
        if reset_count:
            peffect.reset_flag |= RESET_PHASE | reset_phase
            if not (peffect.reset_flag & (RESET_SELF_TURN | RESET_OPPO_TURN)):
                peffect.reset_flag |= RESET_SELF_TURN | RESET_OPPO_TURN
            peffect.reset_count = reset_count
        pcard.add_effect(peffect)
        pcard.current.controler = playerid

    # ===== finding zones and cards ====================================================

    def get_pzone_sequence(self: "Duel", pseq: int) -> int:
        """The Spell & Trap Zone of Pendulum Zone ``pseq`` (0 left, 1 right).

        Master Rule 4 and later: the outer Spell & Trap Zones 0 and 4; before:
        the separate zones 6 and 7.
        """
        if self.core.duel_rule >= NEW_MASTER_RULE:
            return 4 if pseq else 0
        return 7 if pseq else 6

    def get_field_vector(self: "Duel", playerid: int, location: int) -> list | None:
        """The list holding one of a player's locations, or None for a bad one."""
        if not check_playerid(playerid):
            return None
        pl = self.player[playerid]
        return {
            LOCATION_MZONE: pl.list_mzone,
            LOCATION_SZONE: pl.list_szone,
            LOCATION_DECK: pl.list_main,
            LOCATION_HAND: pl.list_hand,
            LOCATION_GRAVE: pl.list_grave,
            LOCATION_REMOVED: pl.list_remove,
            LOCATION_EXTRA: pl.list_extra,
        }.get(location)

    def get_field_card(self: "Duel", playerid: int, general_location: int,
                       sequence: int) -> "Card | None":
        """The card at a sequence of a location (LOCATION_FZONE / LOCATION_PZONE understood)."""
        if not check_playerid(playerid):
            return None
        pl = self.player[playerid]
        if general_location in (LOCATION_MZONE, LOCATION_DECK, LOCATION_HAND, LOCATION_GRAVE,
                                LOCATION_REMOVED, LOCATION_EXTRA):
            container = self.get_field_vector(playerid, general_location)
            if container is None or not 0 <= sequence < len(container):
                return None
            return container[sequence]
        if general_location == LOCATION_SZONE:
            return pl.list_szone[sequence] if 0 <= sequence < pl.szone_size else None
        if general_location == LOCATION_FZONE:
            return pl.list_szone[5] if sequence == 0 else None
        if general_location == LOCATION_PZONE:
            if sequence not in (0, 1):
                return None
            pcard = pl.list_szone[self.get_pzone_sequence(sequence)]
            return pcard if pcard is not None and pcard.current.pzone else None
        return None

    def is_location_useable(self: "Duel", playerid: int, general_location: int,
                            sequence: int) -> bool:
        """True when a zone exists and is neither occupied nor disabled.

        An Extra Monster Zone is also unusable when the opponent uses (or has
        disabled) the facing one: zone 5 faces the opponent's 6 and vice versa.
        Locations other than the field zones are always usable.
        """
        if not check_playerid(playerid):
            return False
        pl = self.player[playerid]
        flag = pl.disabled_location | pl.used_location
        if general_location == LOCATION_MZONE:
            if sequence >= len(pl.list_mzone):
                return False
            if flag & (1 << sequence):
                return False
            if sequence >= 5:
                opp = self.player[1 - playerid]
                if (opp.disabled_location | opp.used_location) & (1 << (11 - sequence)):
                    return False
        elif general_location == LOCATION_SZONE:
            if sequence >= pl.szone_size:
                return False
            if flag & (0x100 << sequence):
                return False
        elif general_location == LOCATION_FZONE:
            if sequence >= 1:
                return False
            if flag & (0x100 << (5 + sequence)):
                return False
        elif general_location == LOCATION_PZONE:
            if sequence >= 2:
                return False
            if flag & (0x100 << self.get_pzone_sequence(sequence)):
                return False
        return True

    # ===== free-zone counts ============================================================
    # Glossary: ``playerid`` owns the zones, ``uplayer`` is the player moving the
    # card (PLAYER_NONE: ignore EFFECT_MAX_MZONE/MAX_SZONE and uplayer's
    # EFFECT_MUST_USE_MZONE), ``reason`` is LOCATION_REASON_*, ``zone`` limits
    # the zones considered.

    def get_useable_count(self: "Duel", pcard: "Card | None", playerid: int, location: int,
                          uplayer: int, reason: int, zone: int = 0xFF,
                          list_out: list[int] | None = None) -> int:
        """How many zones of ``location`` in ``zone`` ``uplayer`` can move ``pcard`` to.

        Usable means free, not disabled, allowed by EFFECT_MUST_USE_MZONE, and
        within EFFECT_MAX_MZONE / EFFECT_MAX_SZONE; the count can be negative.
        A card coming from the Extra Deck to the Monster Zone follows the Extra
        Deck rules (get_useable_count_fromex).
        """
        if location == LOCATION_MZONE and pcard is not None and pcard.current.location == LOCATION_EXTRA:
            return self.get_useable_count_fromex(pcard, playerid, uplayer, zone, list_out)
        return self.get_useable_count_other(pcard, playerid, location, uplayer, reason, zone, list_out)

    def get_useable_count_fromex(self: "Duel", pcard: "Card | None", playerid: int, uplayer: int,
                                 zone: int = 0xFF, list_out: list[int] | None = None) -> int:
        """Usable Monster Zones for a card from the Extra Deck (None: any such card)."""
        use_temp_card = pcard is None
        if use_temp_card:
            pcard = self.temp_card
            pcard.current.location = LOCATION_EXTRA
        if self.core.duel_rule >= NEW_MASTER_RULE:
            count = self.get_useable_count_fromex_rule4(pcard, playerid, uplayer, zone, list_out)
        else:
            count = self.get_useable_count_other(pcard, playerid, LOCATION_MZONE, uplayer,
                                                 LOCATION_REASON_TOFIELD, zone, list_out)
        if use_temp_card:
            pcard.current.location = 0
        return count

    def get_spsummonable_count(self: "Duel", pcard: "Card", playerid: int, zone: int = 0xFF,
                               list_out: list[int] | None = None) -> int:
        """Zones in ``zone`` where ``pcard`` can be Special Summoned by ``playerid`` to its own field.

        Free, not disabled and allowed by EFFECT_MUST_USE_MZONE; EFFECT_MAX_MZONE
        is not counted.
        """
        if pcard.current.location == LOCATION_EXTRA:
            return self.get_spsummonable_count_fromex(pcard, playerid, playerid, zone, list_out)
        return self.get_tofield_count(pcard, playerid, LOCATION_MZONE, playerid,
                                      LOCATION_REASON_TOFIELD, zone, list_out)

    def get_spsummonable_count_fromex(self: "Duel", pcard: "Card | None", playerid: int,
                                      uplayer: int, zone: int = 0xFF,
                                      list_out: list[int] | None = None) -> int:
        """get_spsummonable_count for a card from the Extra Deck (None: any such card)."""
        use_temp_card = pcard is None
        if use_temp_card:
            pcard = self.temp_card
            pcard.current.location = LOCATION_EXTRA
        if self.core.duel_rule >= NEW_MASTER_RULE:
            count = self.get_spsummonable_count_fromex_rule4(pcard, playerid, uplayer, zone, list_out)
        else:
            count = self.get_tofield_count(pcard, playerid, LOCATION_MZONE, uplayer,
                                           LOCATION_REASON_TOFIELD, zone, list_out)
        if use_temp_card:
            pcard.current.location = 0
        return count

    def get_useable_count_other(self: "Duel", pcard: "Card | None", playerid: int, location: int,
                                uplayer: int, reason: int, zone: int = 0xFF,
                                list_out: list[int] | None = None) -> int:
        """Usable Main Monster Zones or Spell & Trap Zones 0-4: the free count capped by the limit."""
        count = self.get_tofield_count(pcard, playerid, location, uplayer, reason, zone, list_out)
        if location == LOCATION_MZONE:
            limit = self.get_mzone_limit(playerid, uplayer, reason)
        else:
            limit = self.get_szone_limit(playerid, uplayer, reason)
        return min(count, limit)

    def get_tofield_count(self: "Duel", pcard: "Card | None", playerid: int, location: int,
                          uplayer: int, reason: int, zone: int = 0xFF,
                          list_out: list[int] | None = None) -> int:
        """Free zones among the Main Monster Zones or Spell & Trap Zones 0-4 in ``zone``.

        For the Monster Zone and a move onto the field, zones blocked by
        EFFECT_MUST_USE_MZONE count as taken.  The unusable-zone mask written
        to ``list_out`` always has the Extra Monster Zones set for the Monster
        Zone.
        """
        if location not in (LOCATION_MZONE, LOCATION_SZONE):
            return 0
        pl = self.player[playerid]
        flag = pl.disabled_location | pl.used_location
        if location == LOCATION_MZONE and (reason & LOCATION_REASON_TOFIELD):
            flag = self.filter_must_use_mzone(playerid, uplayer, reason, pcard, flag)
        if location == LOCATION_MZONE:
            flag = (flag | ~zone) & 0x1F
        else:
            flag = ((flag >> 8) | ~zone) & 0x1F
        count = 5 - field_used_count[flag]
        if location == LOCATION_MZONE:
            flag |= (1 << 5) | (1 << 6)
        if list_out is not None:
            list_out[0] = flag
        return count

    def get_useable_count_fromex_rule4(self: "Duel", pcard: "Card", playerid: int, uplayer: int,
                                       zone: int = 0xFF,
                                       list_out: list[int] | None = None) -> int:
        count = self.get_spsummonable_count_fromex_rule4(pcard, playerid, uplayer, zone, list_out)
        limit = self.get_mzone_limit(playerid, uplayer, LOCATION_REASON_TOFIELD)
        return min(count, limit)

    def get_spsummonable_count_fromex_rule4(self: "Duel", pcard: "Card", playerid: int,
                                            uplayer: int, zone: int = 0xFF,
                                            list_out: list[int] | None = None) -> int:
        """Monster Zones a card from the Extra Deck may go to (Master Rule 4 and later).

        Main Monster Zones count when free and in the rule zone (linked zones,
        or all of them under Master Rule 2020 for a Fusion/Synchro/Xyz that is
        not a face-up Pendulum).  One Extra Monster Zone counts if the player
        holds neither; if they hold one, the other counts only when putting the
        card there would link the two Extra Monster Zones together.
        """
        pl = self.player[playerid]
        flag = pl.disabled_location | pl.used_location
        flag = self.filter_must_use_mzone(playerid, uplayer, LOCATION_REASON_TOFIELD, pcard, flag)
        if (pl.list_mzone[5] is not None and self.is_location_useable(playerid, LOCATION_MZONE, 6)
                and self.check_extra_link(playerid, pcard, 6)):
            flag |= 1 << 5
        elif (pl.list_mzone[6] is not None and self.is_location_useable(playerid, LOCATION_MZONE, 5)
                and self.check_extra_link(playerid, pcard, 5)):
            flag |= 1 << 6
        elif pl.list_mzone[5] is not None or pl.list_mzone[6] is not None:
            flag |= (1 << 5) | (1 << 6)
        else:
            if not self.is_location_useable(playerid, LOCATION_MZONE, 5):
                flag |= 1 << 5
            if not self.is_location_useable(playerid, LOCATION_MZONE, 6):
                flag |= 1 << 6
        rule_zone = self.get_rule_zone_fromex(playerid, pcard)
        flag = (flag | ~zone | ~rule_zone) & UINT_MAX
        if list_out is not None:
            list_out[0] = flag & 0x7F
        count = 5 - field_used_count[flag & 0x1F]
        if ~flag & ((1 << 5) | (1 << 6)):
            count += 1
        return count

    def _zone_limit_effects(self: "Duel", playerid: int, uplayer: int, reason: int,
                            code: int, limit: int) -> int:
        """The lowest of ``limit`` and the EFFECT_MAX_MZONE/MAX_SZONE values on ``playerid``."""
        if uplayer >= 2:
            return limit
        for peffect in self.filter_player_effect(playerid, code):
            v = peffect.get_value(None, playerid, uplayer, reason)
            if limit > v:
                limit = v
        return limit

    def get_mzone_limit(self: "Duel", playerid: int, uplayer: int, reason: int) -> int:
        """Monsters ``playerid`` may still put in the Monster Zone under EFFECT_MAX_MZONE.

        The maximum is 5 (7 from Master Rule 4 on, counting the Extra Monster
        Zones) lowered by EFFECT_MAX_MZONE values; minus the occupied zones.
        Can be negative.
        """
        pl = self.player[playerid]
        max_count = 5
        used_count = field_used_count[pl.used_location & 0x1F]
        if self.core.duel_rule >= NEW_MASTER_RULE:
            max_count = 7
            used_count += (pl.list_mzone[5] is not None) + (pl.list_mzone[6] is not None)
        max_count = self._zone_limit_effects(playerid, uplayer, reason, EFFECT_MAX_MZONE, max_count)
        return max_count - used_count

    def get_szone_limit(self: "Duel", playerid: int, uplayer: int, reason: int) -> int:
        """Cards ``playerid`` may still put in Spell & Trap Zones 0-4 under EFFECT_MAX_SZONE."""
        used_flag = (self.player[playerid].used_location >> 8) & 0x1F
        max_count = self._zone_limit_effects(playerid, uplayer, reason, EFFECT_MAX_SZONE, 5)
        return max_count - field_used_count[used_flag]

    def get_linked_zone(self: "Duel", playerid: int) -> int:
        """``playerid``'s Monster Zones that some monster (either player's) points to."""
        zones = 0
        for pcard in self.player[playerid].list_mzone:
            if pcard is not None:
                zones |= pcard.get_linked_zone() & 0xFFFF
        for pcard in self.player[1 - playerid].list_mzone:
            if pcard is not None:
                zones |= (pcard.get_linked_zone() & UINT_MAX) >> 16
        return zones

    def get_rule_zone_fromex(self: "Duel", playerid: int, pcard: "Card | None") -> int:
        """Monster Zones the rules allow for a card coming from the Extra Deck.

        Before Master Rule 4: the five Main Monster Zones.  Master Rule 2020: a
        Fusion, Synchro or Xyz Monster that is not a face-up Pendulum may use
        any zone.  Otherwise: the linked zones and both Extra Monster Zones.
        """
        if self.core.duel_rule < NEW_MASTER_RULE:
            return 0x1F
        if (self.core.duel_rule >= MASTER_RULE_2020 and pcard is not None
                and (pcard.data.type & (TYPE_FUSION | TYPE_SYNCHRO | TYPE_XYZ))
                and (pcard.is_position(POS_FACEDOWN) or not (pcard.data.type & TYPE_PENDULUM))):
            return 0x7F
        return self.get_linked_zone(playerid) | (1 << 5) | (1 << 6)

    def filter_must_use_mzone(self: "Duel", playerid: int, uplayer: int, reason: int,
                              pcard: "Card | None", flag: int = 0) -> int:
        """``flag`` with the Monster Zones of ``playerid`` that EFFECT_MUST_USE_MZONE forbids.

        The effects are ``uplayer``'s player effects (none for PLAYER_NONE) and
        those on the card itself; a used-up count-limited one is skipped.  A
        player-target effect's value is a plain zone mask; otherwise the value
        function gets (card, playerid, uplayer, reason).  The value lists the
        allowed zones from the effect holder's side (the opponent's in the high
        16 bits).
        """
        eset: list = []
        if uplayer < 2:
            eset = self.filter_player_effect(uplayer, EFFECT_MUST_USE_MZONE)
        if pcard is not None:
            eset = pcard.filter_effect(EFFECT_MUST_USE_MZONE, eset=eset)
        for peffect in eset:
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and peffect.count_limit == 0:
                continue
            if peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET):
                value = peffect.get_value()
            else:
                value = peffect.get_value(None, pcard, playerid, uplayer, reason)
            value &= UINT_MAX
            if peffect.get_handler_player() == playerid:
                flag |= ~value & 0x7F
            else:
                flag |= ~(value >> 16) & 0x7F
        return flag

    def get_linked_cards(self: "Duel", self_player: int, s: int, o: int,
                         cset: CardSet | None = None) -> CardSet:
        """Monsters in linked zones: ``self_player``'s side if ``s``, the opponent's if ``o``."""
        if cset is None:
            cset = CardSet()
        cset.clear()
        p = self_player
        for wanted in (s, o):
            if wanted:
                self.get_cards_in_zone(cset, self.get_linked_zone(p), p, LOCATION_MZONE)
            p = 1 - p
        return cset

    def check_extra_link(self: "Duel", playerid: int, pcard: "Card | None" = None,
                         sequence: int | None = None) -> bool:
        """True when ``playerid``'s two Extra Monster Zone monsters are joined by links.

        "Joined" means a chain of mutually linked monsters (on either field)
        leads from the one in zone 5 to the one in zone 6.  With ``pcard`` and
        ``sequence`` (the reference's second overload) the question is asked as
        if ``pcard`` stood in that empty Monster Zone.
        """
        if sequence is not None:
            return self._check_extra_link_with(playerid, pcard, sequence)
        zones = self.player[playerid].list_mzone
        if zones[5] is None or zones[6] is None:
            return False
        checked = 1 << 5
        linked_zone = zones[5].get_mutual_linked_zone() & UINT_MAX
        while True:
            if (linked_zone >> 6) & 1:
                return True
            checking = linked_zone & ~checked
            if not checking:
                return False
            rightmost = checking & -checking
            checked |= rightmost
            # only Monster Zone bits (0-6 of either half) lead to another monster
            if rightmost < 0x10000:
                idx = rightmost.bit_length() - 1
                other = zones[idx] if idx < 7 else None
                if other is not None:
                    linked_zone |= other.get_mutual_linked_zone() & UINT_MAX
            else:
                idx = (rightmost >> 16).bit_length() - 1
                other = self.player[1 - playerid].list_mzone[idx] if idx < 7 else None
                if other is not None:
                    zone = other.get_mutual_linked_zone() & UINT_MAX
                    # the opponent's view of its links: swap the two players' halves
                    linked_zone |= ((zone << 16) | (zone >> 16)) & UINT_MAX

    def _check_extra_link_with(self: "Duel", playerid: int, pcard: "Card | None",
                               sequence: int) -> bool:
        if pcard is None:
            return False
        zones = self.player[playerid].list_mzone
        if zones[sequence] is not None:
            return False
        cur = pcard.current
        saved = (cur.controler, cur.location, cur.sequence)
        zones[sequence] = pcard
        cur.controler, cur.location, cur.sequence = playerid, LOCATION_MZONE, sequence
        try:
            return self.check_extra_link(playerid)
        finally:
            zones[sequence] = None
            cur.controler, cur.location, cur.sequence = saved

    def get_cards_in_zone(self: "Duel", cset: CardSet | None, zone: int, playerid: int,
                          location: int) -> CardSet:
        """Add to ``cset`` the cards of ``playerid``'s Monster or Spell & Trap Zones in ``zone``."""
        if cset is None:
            cset = CardSet()
        if not (location & LOCATION_ONFIELD):
            return cset
        pl = self.player[playerid]
        svector = pl.list_mzone if location == LOCATION_MZONE else pl.list_szone
        for i, pcard in enumerate(svector):
            if zone & (1 << i) and pcard is not None:
                cset.add(pcard)
        return cset

    # ===== shuffles and piles ==========================================================

    def shuffle(self: "Duel", playerid: int, location: int) -> None:
        """Shuffle a player's hand, Deck or Extra Deck and tell the host.

        A hand with no face-down card is not shuffled (and no message is
        sent).  The Extra Deck's face-up Pendulums (at the top of the pile) stay
        in place.  With DUEL_PSEUDO_SHUFFLE only the hand is really shuffled,
        but the Deck and Extra Deck messages are still sent.  After a hand
        shuffle each card's client-hint descriptions are sent again; after a
        Deck shuffle, the new top card is shown if the Deck is reversed (or that
        card is face-up) while GLOBALFLAG_DECK_REVERSE_CHECK is on.
        """
        if not (location & (LOCATION_HAND | LOCATION_DECK | LOCATION_EXTRA)):
            return
        pl = self.player[playerid]
        if location == LOCATION_HAND:
            svector = pl.list_hand
        elif location == LOCATION_DECK:
            svector = pl.list_main
        else:
            svector = pl.list_extra
        if not svector:
            return
        if location == LOCATION_HAND and all(c.is_position(POS_FACEUP) for c in svector):
            self.core.shuffle_hand_check[playerid] = False
            return
        if location == LOCATION_HAND or not (self.core.duel_options & DUEL_PSEUDO_SHUFFLE):
            s = len(svector)
            if location == LOCATION_EXTRA:
                s -= pl.extra_p_count
            if s > 1:
                self.random.shuffle(svector, 0, s, self.rng_version)
                self.reset_sequence(playerid, location)
        if location == LOCATION_HAND:
            self.emit(MsgShuffleHand(player=playerid, codes=tuple(c.data.code for c in svector)))
            self.core.shuffle_hand_check[playerid] = False
            self._resend_hand_hints(svector)
        elif location == LOCATION_EXTRA:
            self.emit(MsgShuffleExtra(player=playerid, codes=tuple(c.data.code for c in svector)))
        else:
            self.emit(MsgShuffleDeck(player=playerid))
            self.core.shuffle_deck_check[playerid] = False
            if self.core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
                ptop = svector[-1]
                if self.core.deck_reversed or ptop.current.position == POS_FACEUP_DEFENSE:
                    code = ptop.data.code
                    if ptop.current.position == POS_FACEUP_DEFENSE:
                        code |= 0x80000000
                    self.emit(MsgDeckTop(player=playerid, sequence=0, code=code))

    def _resend_hand_hints(self: "Duel", hand: list["Card"]) -> None:
        """MSG_CARD_HINT (CHINT_DESC_ADD) for each client-hint effect of each card in hand.

        The reference walks each card's effect index, an unordered map keyed
        by effect address (libstdc++: an element inserted goes in front of the
        others of its bucket, or of the whole list for an empty bucket), so the
        effects registered last come first; we walk it newest first.  (Exact
        only while no rehash and no bucket order intervene: the addresses are
        the reference's.)
        """
        for pcard in hand:
            for peffect in reversed(list(pcard.indexer)):
                if peffect.is_flag(EFFECT_FLAG_CLIENT_HINT) and not peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET):
                    self.emit(MsgCardHint(loc=LocInfo.from_raw(pcard.get_info_location()),
                                          type=CHINT_DESC_ADD, value=peffect.description & UINT_MAX))

    def reset_sequence(self: "Duel", playerid: int, location: int) -> None:
        """Renumber a pile's sequences 0, 1, 2, ... in list order (field zones keep theirs)."""
        if location & LOCATION_ONFIELD:
            return
        pile = self.get_field_vector(playerid, location)
        if pile is None:
            return
        for i, pcard in enumerate(pile):
            pcard.current.sequence = i

    def swap_deck_and_grave(self: "Duel", playerid: int) -> None:
        """Swap a player's Deck and GY (e.g. Exchange of the Spirit).

        Every card's effects are switched off and withdrawn, the two lists
        traded, and every card re-entered in its new place: the new GY face-up,
        the new Deck face-down; Extra Deck monsters from the GY go to the Extra
        Deck (below its face-up Pendulums).  Each card is reset as if sent
        there by the current reason effect.  MSG_SWAP_GRAVE_DECK, then the Deck
        is shuffled.
        """
        pl = self.player[playerid]
        for pile, loc in ((pl.list_grave, LOCATION_GRAVE), (pl.list_main, LOCATION_DECK)):
            for pcard in pile:
                pcard.previous.location = loc
                pcard.previous.sequence = pcard.current.sequence
                pcard.enable_field_effect(False)
                pcard.cancel_field_effect()
        pl.list_grave, pl.list_main = pl.list_main, pl.list_grave
        ex = [c for c in pl.list_main if c.is_extra_deck_monster()]
        pl.list_main[:] = [c for c in pl.list_main if not c.is_extra_deck_monster()]
        for pcard in pl.list_grave:
            self._reenter_after_swap(pcard, POS_FACEUP, LOCATION_GRAVE, RESET_TOGRAVE, False)
        for pcard in pl.list_main:
            self._reenter_after_swap(pcard, POS_FACEDOWN_DEFENSE, LOCATION_DECK, RESET_TODECK, True)
        for pcard in ex:
            self._reenter_after_swap(pcard, POS_FACEDOWN_DEFENSE, LOCATION_EXTRA, RESET_TODECK, True)
        at = len(pl.list_extra) - pl.extra_p_count
        pl.list_extra[at:at] = ex
        self.reset_sequence(playerid, LOCATION_GRAVE)
        self.reset_sequence(playerid, LOCATION_DECK)
        self.reset_sequence(playerid, LOCATION_EXTRA)
        self.emit(MsgSwapGraveDeck(player=playerid))
        self.shuffle(playerid, LOCATION_DECK)

    def _reenter_after_swap(self: "Duel", pcard: "Card", position: int, location: int,
                            reset_code: int, clear_proc_complete: bool) -> None:
        cur = pcard.current
        cur.position = position
        cur.location = location
        cur.reason = REASON_EFFECT
        cur.reason_effect = self.core.reason_effect
        cur.reason_player = self.core.reason_player
        pcard.apply_field_effect()
        pcard.enable_field_effect(True)
        pcard.reset(reset_code, RESET_EVENT)
        if clear_proc_complete:
            pcard.set_status(STATUS_PROC_COMPLETE, False)

    def reverse_deck(self: "Duel", playerid: int) -> None:
        """Turn a player's Deck upside down (sequences follow)."""
        deck = self.player[playerid].list_main
        deck.reverse()
        self.reset_sequence(playerid, LOCATION_DECK)

    def refresh_player_info(self: "Duel", playerid: int) -> None:
        """Recompute ``used_location`` from the occupied Monster and Spell & Trap Zones."""
        if not check_playerid(playerid):
            return
        pl = self.player[playerid]
        used_flag = 0
        for i, pcard in enumerate(pl.list_mzone):
            if pcard is not None:
                used_flag |= 1 << i
        for i in range(pl.szone_size):
            if pl.list_szone[i] is not None:
                used_flag |= 0x100 << i
        pl.used_location = used_flag

    def tag_swap(self: "Duel", playerid: int) -> None:
        """Tag Duel: the partner takes over ``playerid``'s Deck, hand and Extra Deck.

        For each of the three piles in turn the leaving cards' effects are
        switched off and withdrawn, the piles traded with the partner's, and
        the arriving cards' effects registered and switched on.  MSG_TAG_SWAP
        tells the host the new counts, the top card if the Deck is reversed,
        and the hand and Extra Deck codes (bit 31 for face-up cards).
        """
        pl = self.player[playerid]
        for attr, tag_attr in (("list_main", "tag_list_main"), ("list_hand", "tag_list_hand"),
                               ("list_extra", "tag_list_extra")):
            for pcard in getattr(pl, attr):
                pcard.enable_field_effect(False)
                pcard.cancel_field_effect()
            leaving = getattr(pl, attr)
            setattr(pl, attr, getattr(pl, tag_attr))
            setattr(pl, tag_attr, leaving)
            if attr == "list_extra":
                pl.extra_p_count, pl.tag_extra_p_count = pl.tag_extra_p_count, pl.extra_p_count
            for pcard in getattr(pl, attr):
                pcard.apply_field_effect()
                pcard.enable_field_effect(True)

        def shown(c: "Card") -> int:
            return c.data.code | (0x80000000 if c.is_position(POS_FACEUP) else 0)

        top = pl.list_main[-1].data.code if self.core.deck_reversed and pl.list_main else 0
        self.emit(MsgTagSwap(player=playerid, deck_count=len(pl.list_main) & 0xFF,
                             extra_p_count=pl.extra_p_count & 0xFF, deck_top=top,
                             hand=tuple(shown(c) for c in pl.list_hand),
                             extra=tuple(shown(c) for c in pl.list_extra)))

    # ===== per-turn counts =============================================================

    def get_summon_count_limit(self: "Duel", playerid: int) -> int:
        """Normal Summons/Sets allowed per turn: 1, or the highest EFFECT_SET_SUMMON_COUNT_LIMIT."""
        count = 1
        for peffect in self.filter_player_effect(playerid, EFFECT_SET_SUMMON_COUNT_LIMIT):
            c = peffect.get_value()
            if c > count:
                count = c
        return count

    def get_draw_count(self: "Duel", playerid: int) -> int:
        """Cards drawn in the Draw Phase.

        None for the first player's first turn (from Master Rule 3 on).
        Otherwise the player's draw count, raised to the highest
        EFFECT_DRAW_COUNT value; an EFFECT_DRAW_COUNT of 0 means no draw.
        """
        if self.core.duel_rule >= 3 and self.infos.turn_id == 1 and self.infos.turn_player == playerid:
            return 0
        count = self.player[playerid].draw_count
        for peffect in self.filter_player_effect(playerid, EFFECT_DRAW_COUNT):
            c = peffect.get_value()
            if c == 0:
                return 0
            if c > count:
                count = c
        return count

    # ===== setting up a duel (ocgapi.cpp) ==============================================

    def set_player_info(self: "Duel", playerid: int, lp: int, startcount: int,
                        drawcount: int) -> None:
        """Set a player's LP, opening hand size and cards drawn per turn.

        Values out of range (LP <= 0, negative counts) keep the defaults.
        """
        if not check_playerid(playerid):
            return
        pl = self.player[playerid]
        if lp > 0:
            pl.lp = lp
        if startcount >= 0:
            pl.start_count = startcount
        if drawcount >= 0:
            pl.draw_count = drawcount

    def new_card_at(self: "Duel", code: int, owner: int, playerid: int, location: int,
                    sequence: int, position: int) -> "Card | None":
        """Create a card and put it on the field before the duel starts (ocgapi's new_card).

        Skipped when a player id is bad or the zone cannot be used.  A card
        off the field or face-up gets its effects switched on at once.  A
        monster placed in the Monster Zone counts as properly summoned.
        Returns the card (None when skipped).
        """
        if not check_playerid(owner) or not check_playerid(playerid):
            return None
        if not self.is_location_useable(playerid, location, sequence):
            return None
        pcard = self.new_card(code)
        pcard.owner = owner
        self.add_card(playerid, pcard, location, sequence)
        pcard.current.position = position
        if not (location & LOCATION_ONFIELD) or (position & POS_FACEUP):
            pcard.enable_field_effect(True)
            self.adjust_instant()
        if location == LOCATION_MZONE:
            pcard.set_status(STATUS_PROC_COMPLETE, True)
        return pcard

    def new_tag_card_at(self: "Duel", code: int, owner: int, location: int) -> "Card | None":
        """Create a card for the Tag Duel partner's Deck or Extra Deck (ocgapi's new_tag_card)."""
        if owner > 1 or not (location & (LOCATION_DECK | LOCATION_EXTRA)):
            return None
        pcard = self.new_card(code)
        pl = self.player[owner]
        if location == LOCATION_DECK:
            pile, loc = pl.tag_list_main, LOCATION_DECK
        elif location == LOCATION_EXTRA:
            pile, loc = pl.tag_list_extra, LOCATION_EXTRA
        else:  # both bits: the reference's switch matches neither case
            return pcard
        pile.append(pcard)
        pcard.owner = owner
        pcard.current.controler = owner
        pcard.current.location = loc
        pcard.current.sequence = len(pile) - 1
        pcard.current.position = POS_FACEDOWN_DEFENSE
        return pcard

    def start_duel(self: "Duel", options: int) -> None:
        """Start the duel (ocgapi's start_duel).

        ``options``: the rule in the high 16 bits (1..CURRENT_RULE; otherwise
        DUEL_OBSOLETE_RULING selects rule 1, else the current rule), DUEL_*
        flags in the low 16.  Master Rule 3 has 8 Spell & Trap Zones.  Nothing
        is shuffled: the opening hands are drawn from the top of the Decks as
        they were built; in a Tag Duel the partners also take their hands
        straight from their Decks.  Then the first turn is queued.
        """
        core = self.core
        duel_rule = (options >> 16) & 0xFFFF
        core.duel_options |= options & 0xFFFF
        if 1 <= duel_rule <= CURRENT_RULE:
            core.duel_rule = duel_rule
        elif options & DUEL_OBSOLETE_RULING:  # old replays
            core.duel_rule = 1
        if not 1 <= core.duel_rule <= CURRENT_RULE:
            core.duel_rule = CURRENT_RULE
        if core.duel_rule == MASTER_RULE3:
            self.player[0].szone_size = 8
            self.player[1].szone_size = 8
        core.shuffle_hand_check[0] = core.shuffle_hand_check[1] = False
        core.shuffle_deck_check[0] = core.shuffle_deck_check[1] = False
        for p in (0, 1):
            if self.player[p].start_count > 0:
                self.draw(None, REASON_RULE, PLAYER_NONE, p, self.player[p].start_count)
        if options & DUEL_TAG_MODE:
            for p in (0, 1):
                self._tag_opening_hand(p)
        self.add_process(self.proc_turn(0))

    def _tag_opening_hand(self: "Duel", p: int) -> None:
        pl = self.player[p]
        for _ in range(pl.start_count):
            if not pl.tag_list_main:
                break
            pcard = pl.tag_list_main.pop()
            pl.tag_list_hand.append(pcard)
            pcard.current.controler = p
            pcard.current.location = LOCATION_HAND
            pcard.current.sequence = len(pl.tag_list_hand) - 1
            pcard.current.position = POS_FACEDOWN

    # ===== host queries (ocgapi.cpp) ===================================================

    def query_card(self: "Duel", playerid: int, location: int, sequence: int, query_flag: int,
                   use_cache: bool | int = True) -> bytes:
        """The bytes of ocgapi's query_card: one card's infos.

        b"" when the player, location or sequence is invalid (the reference's
        LEN_FAIL); the 4 bytes of LEN_EMPTY for an empty field zone.
        """
        if not check_playerid(playerid):
            return b""
        location &= 0x7F
        if location in (LOCATION_MZONE, LOCATION_SZONE):
            pcard = self.get_field_card(playerid, location, sequence)
        else:
            pile = self.get_field_vector(playerid, location)
            if pile is None or sequence >= len(pile):
                return b""
            pcard = pile[sequence]
        if pcard is None:
            return struct.pack("<i", LEN_EMPTY)
        return pcard.get_infos(query_flag, use_cache)

    def query_field_count(self: "Duel", playerid: int, location: int) -> int:
        """ocgapi's query_field_count: cards in one of a player's locations."""
        if not check_playerid(playerid):
            return 0
        pile = self.get_field_vector(playerid, location)
        if pile is None:
            return 0
        if location in (LOCATION_MZONE, LOCATION_SZONE):
            return sum(1 for c in pile if c is not None)
        return len(pile)

    def query_field_card(self: "Duel", playerid: int, location: int, query_flag: int,
                         use_cache: bool | int = True) -> bytes:
        """The bytes of ocgapi's query_field_card: every card of one location.

        Field zones give one entry per zone (LEN_EMPTY for an empty one).  b""
        for a bad player or location (LEN_FAIL).
        """
        if not check_playerid(playerid):
            return b""
        pile = self.get_field_vector(playerid, location)
        if pile is None:
            return b""
        empty = struct.pack("<i", LEN_EMPTY)
        return b"".join(empty if c is None else c.get_infos(query_flag, use_cache) for c in pile)

    # ===== moving cards inside a zone (Duel.MoveSequence, SwapSequence, ShuffleSetCard) ===

    def move_sequence(self: "Duel", pcard: Card, seq: int) -> None:
        """Duel.MoveSequence: move a card to another zone of the same location (when the
        current reason effect reaches it), raising EVENT_MOVE for it and for the field."""
        core = self.core
        playerid = pcard.current.controler
        if not pcard.is_affect_by_effect(core.reason_effect):
            return
        self.move_card(playerid, pcard, pcard.current.location, seq & 0xFF)
        self.raise_single_event(pcard, None, EVENT_MOVE, core.reason_effect, 0, core.reason_player,
                                playerid, 0)
        self.raise_event(pcard, EVENT_MOVE, core.reason_effect, 0, core.reason_player, playerid, 0)
        self.process_single_event()
        self.process_instant_event()

    def swap_sequence(self: "Duel", pcard1: Card, pcard2: Card) -> None:
        """Duel.SwapSequence: two monsters in the same player's Monster Zones swap zones
        (when the current reason effect reaches both); EVENT_MOVE for each and both."""
        core = self.core
        player = pcard1.current.controler
        location = pcard1.current.location
        if not (pcard2.current.controler == player and location == LOCATION_MZONE
                and pcard2.current.location == location
                and pcard1.is_affect_by_effect(core.reason_effect)
                and pcard2.is_affect_by_effect(core.reason_effect)):
            return
        self.swap_card(pcard1, pcard2)
        swapped = CardSet((pcard1, pcard2))
        self.raise_single_event(pcard1, None, EVENT_MOVE, core.reason_effect, 0, core.reason_player,
                                player, 0)
        self.raise_single_event(pcard2, None, EVENT_MOVE, core.reason_effect, 0, core.reason_player,
                                player, 0)
        self.raise_event(swapped, EVENT_MOVE, core.reason_effect, 0, core.reason_player, player, 0)
        self.process_single_event()
        self.process_instant_event()

    def shuffle_setcard(self: "Duel", cards: CardSet) -> None:
        """Duel.ShuffleSetCard: shuffle face-down cards among their zones.

        All cards must be face-down, in Main Monster Zones or Spell & Trap Zones
        0-4 of one location of one player; otherwise (or with fewer than two
        cards) nothing happens.  The cards are permuted with the duel's RNG
        (Fisher-Yates from the last), each takes the zone of the card at its
        new index, EVENT_MOVE is raised, and MSG_SHUFFLE_SET_CARD reports the
        old places and, for Xyz Monsters with materials, the new ones.
        """
        if len(cards) <= 1:
            return
        ms: list[Card] = []
        seq: list[int] = []
        tp = 2
        loc = 0
        for pcard in cards:
            cur = pcard.current
            if ((loc != 0 and cur.location != loc)
                    or (cur.location != LOCATION_MZONE and cur.location != LOCATION_SZONE)
                    or (cur.position & POS_FACEUP) or cur.sequence > 4
                    or (tp != 2 and cur.controler != tp)):
                return
            tp = cur.controler
            loc = cur.location
            ms.append(pcard)
            seq.append(cur.sequence)
        ct = len(ms)
        for i in range(ct - 1, 0, -1):
            s = self.get_next_integer(0, i)
            ms[i], ms[s] = ms[s], ms[i]
        core = self.core
        previous = []
        zone_list = self.player[tp].list_mzone if loc == LOCATION_MZONE else self.player[tp].list_szone
        for i in range(ct):
            pcard = ms[i]
            previous.append(LocInfo.from_raw(pcard.get_info_location() & 0xFFFFFFFF))
            zone_list[seq[i]] = pcard
            pcard.current.sequence = seq[i]
            self.raise_single_event(pcard, None, EVENT_MOVE, pcard.current.reason_effect,
                                    pcard.current.reason, pcard.current.reason_player, tp, 0)
        self.raise_event(cards, EVENT_MOVE, core.reason_effect, 0, core.reason_player, tp, 0)
        self.process_single_event()
        self.process_instant_event()
        current = tuple(LocInfo.from_raw(c.get_info_location() & 0xFFFFFFFF) if c.xyz_materials else None
                        for c in ms)
        self.emit(MsgShuffleSetCard(location=loc, previous=tuple(previous), current=current))

    # ===== zone counts as if some cards had left (Duel.GetMZoneCount & co.) ===========

    def _without_cards(self: "Duel", mcard: Card | None, mgroup: "Group | CardSet | None",
                       szone: bool) -> list[tuple[int, list]]:
        """Hide ``mcard`` / ``mgroup`` from both players' Monster Zones (or Spell & Trap Zones)
        and their used-zone bits, as the reference does to count zones "after they
        leave".  Returns what to put back (``_restore_cards``)."""
        cset = mgroup.container if isinstance(mgroup, Group) else mgroup
        saved = []
        for p in (0, 1):
            pl = self.player[p]
            zones = pl.list_szone if szone else pl.list_mzone
            used = 0
            digit = 0x100 if szone else 0x1
            new_list: list[Card | None] = []
            for pcard in zones:
                if pcard is not None and pcard is not mcard and not (cset is not None and pcard in cset):
                    used |= digit
                    new_list.append(pcard)
                else:
                    new_list.append(None)
                digit <<= 1
            used |= pl.used_location & (0xFF if szone else 0xFF00)
            saved.append((pl.used_location, zones))
            pl.used_location = used
            if szone:
                pl.list_szone = new_list
            else:
                pl.list_mzone = new_list
        return saved

    def _restore_cards(self: "Duel", saved: list[tuple[int, list]], szone: bool) -> None:
        for p in (0, 1):
            pl = self.player[p]
            pl.used_location, zones = saved[p]
            if szone:
                pl.list_szone = zones
            else:
                pl.list_mzone = zones

    def get_mzone_count(self: "Duel", playerid: int, mcard: Card | None, mgroup: "Group | None",
                        uplayer: int, reason: int, zone: int, hide: bool,
                        list_out: list[int] | None = None) -> int:
        """Duel.GetMZoneCount: free Main Monster Zones of ``playerid`` for ``uplayer``, counted
        (with ``hide``) as if ``mcard`` / ``mgroup`` had left the field."""
        saved = self._without_cards(mcard, mgroup, False) if hide else None
        try:
            return self.get_useable_count(None, playerid, LOCATION_MZONE, uplayer, reason, zone, list_out)
        finally:
            if saved is not None:
                self._restore_cards(saved, False)

    def get_szone_count(self: "Duel", playerid: int, mcard: Card | None, mgroup: "Group | None",
                        uplayer: int, reason: int, zone: int, hide: bool,
                        list_out: list[int] | None = None) -> int:
        """Duel.GetSZoneCount: free Spell & Trap Zones 0-4 of ``playerid`` for ``uplayer``,
        counted (with ``hide``) as if ``mcard`` / ``mgroup`` had left the field."""
        saved = self._without_cards(mcard, mgroup, True) if hide else None
        try:
            return self.get_useable_count(None, playerid, LOCATION_SZONE, uplayer, reason, zone, list_out)
        finally:
            if saved is not None:
                self._restore_cards(saved, True)

    def get_location_count_fromex(self: "Duel", playerid: int, uplayer: int, mcard: Card | None,
                                  mgroup: "Group | None", hide: bool, scard: Card | None,
                                  stype: int | None, zone: int,
                                  list_out: list[int] | None = None) -> int:
        """Duel.GetLocationCountFromEx: zones ``uplayer`` can use to bring ``scard`` (or, with
        ``stype``, any monster of that type; neither: any monster) from the Extra Deck to
        ``playerid``'s field, counted (with ``hide``) as if ``mcard`` / ``mgroup`` had left.

        A type is asked with the rules' blank card placed in the Extra Deck
        (face-up if it is a Pendulum), reset afterwards.
        """
        saved = self._without_cards(mcard, mgroup, False) if hide else None
        use_temp_card = False
        if stype is not None:
            use_temp_card = True
            scard = self.temp_card
            scard.current.location = LOCATION_EXTRA
            scard.data.type = _u32(TYPE_MONSTER | stype)
            scard.current.position = POS_FACEUP_DEFENSE if (stype & TYPE_PENDULUM) else POS_FACEDOWN_DEFENSE
        try:
            return self.get_useable_count_fromex(scard, playerid, uplayer, zone, list_out)
        finally:
            if saved is not None:
                self._restore_cards(saved, False)
            if use_temp_card:
                scard.current.location = 0
                scard.data.type = 0
                scard.current.position = 0

    def get_usable_mzone_count(self: "Duel", playerid: int, uplayer: int) -> int:
        """Duel.GetUsableMZoneCount: free Main and Extra Monster Zones of ``playerid`` that
        ``uplayer`` could use (a Main Monster Zone counted once), capped by the
        monster limit."""
        zone = 0xFF
        flag1 = [0]
        flag2 = [0]
        # get_tofield_count takes the player as a 32-bit value, the other two as a byte
        ct1 = self.get_tofield_count(None, playerid, LOCATION_MZONE, uplayer, LOCATION_REASON_TOFIELD, zone, flag1)
        ct2 = self.get_spsummonable_count_fromex(None, playerid, uplayer & 0xFF, zone, flag2)
        ct3 = FIELD_USED_COUNT[~(flag1[0] | flag2[0]) & 0x1F]
        count = ct1 + ct2 - ct3
        limit = self.get_mzone_limit(playerid, uplayer & 0xFF, LOCATION_REASON_TOFIELD)
        return min(count, limit)

    # ===== the top of the Deck and the Extra Deck =====================================

    def get_decktop_group(self: "Duel", playerid: int, count: int) -> CardSet:
        """The top ``count`` cards of ``playerid``'s Deck (Duel.GetDecktopGroup)."""
        pile = self.player[playerid].list_main
        return CardSet(pile[len(pile) - 1 - i] for i in range(min(count, len(pile))))

    def get_extratop_group(self: "Duel", playerid: int, count: int) -> CardSet:
        """The top ``count`` face-down cards of ``playerid``'s Extra Deck (Duel.GetExtraTopGroup).

        The face-up Pendulum Monsters, kept at the top of the pile, are skipped.
        """
        pl = self.player[playerid]
        pile = pl.list_extra
        start = len(pile) - 1 - pl.extra_p_count
        out = CardSet()
        i = start
        while len(out) < count and i >= 0:
            out.add(pile[i])
            i -= 1
        return out

    # ===== zone flags of place selections (Duel.SelectDisableField, SelectField) ======

    def get_disable_field_flag(self: "Duel", playerid: int, count: int, location1: int,
                               location2: int, filter_: int) -> tuple[int, int]:
        """Duel.SelectDisableField: the unselectable-zone flag and how many zones to choose.

        Only free, usable zones are offered: the Main Monster / Spell & Trap
        Zones of ``location1`` on ``playerid``'s side and ``location2`` on the
        other (Extra Monster Zones when both sides' Monster Zones are asked,
        Master Rule 4 on), minus ``filter_``.  ``count`` is capped by the
        number of such zones (unsigned arithmetic as in the reference).
        """
        ct = [0, 0, 0, 0]
        flag = 0xFFFFFFFF
        plist = [0]
        if location1 & LOCATION_MZONE:
            ct[0] = self.get_useable_count(None, playerid, LOCATION_MZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFFFF00) | (plist[0] & 0xFFFFFFFF)
        if location1 & LOCATION_SZONE:
            ct[1] = self.get_useable_count(None, playerid, LOCATION_SZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFF00FF) | ((plist[0] << 8) & 0xFFFFFFFF)
        if location2 & LOCATION_MZONE:
            ct[2] = self.get_useable_count(None, 1 - playerid, LOCATION_MZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFF00FFFF) | ((plist[0] << 16) & 0xFFFFFFFF)
        if location2 & LOCATION_SZONE:
            ct[3] = self.get_useable_count(None, 1 - playerid, LOCATION_SZONE, PLAYER_NONE, 0, 0xFF, plist)
            flag = (flag & 0xFFFFFF) | ((plist[0] << 24) & 0xFFFFFFFF)
        if ((location1 & LOCATION_MZONE) and (location2 & LOCATION_MZONE)
                and self.core.duel_rule >= NEW_MASTER_RULE):
            if self.is_location_useable(playerid, LOCATION_MZONE, 5):
                flag &= ~(0x1 << 5)
                ct[0] += 1
            if self.is_location_useable(playerid, LOCATION_MZONE, 6):
                flag &= ~(0x1 << 6)
                ct[0] += 1
        flag = (flag | filter_ | 0xE080E080) & 0xFFFFFFFF
        total = sum(c & 0xFFFFFFFF for c in ct) & 0xFFFFFFFF
        count &= 0xFFFFFFFF
        if count > total:
            count = total
        return flag, count

    def get_select_field_flag(self: "Duel", location1: int, location2: int, filter_: int) -> int:
        """Duel.SelectField: the unselectable-zone flag (free or not, every zone of the locations).

        Main Monster Zones and Spell & Trap Zones (with the Pendulum Zones
        under Master Rule 3) of ``location1`` on the chooser's side and
        ``location2`` on the other; the Extra Monster Zones when both sides'
        Monster Zones are asked (Master Rule 4 on); minus ``filter_``.
        """
        rule3 = self.core.duel_rule == 3
        flag = 0xFFFFFFFF
        if location1 & LOCATION_MZONE:
            flag &= 0xFFFFFF80
        if location1 & LOCATION_SZONE:
            flag &= 0xFFFF00FF if rule3 else 0xFFFFC0FF
        if location2 & LOCATION_MZONE:
            flag &= 0xFF80FFFF
        if location2 & LOCATION_SZONE:
            flag &= 0x00FFFFFF if rule3 else 0xC0FFFFFF
        if ((location1 & LOCATION_MZONE) and (location2 & LOCATION_MZONE)
                and self.core.duel_rule >= NEW_MASTER_RULE):
            flag &= 0xFFFFFF9F
        return (flag | filter_ | 0x00800080) & 0xFFFFFFFF

    def get_selected_field_flag(self: "Duel", playerid: int, count: int) -> int:
        """The zones a place selection chose, as a zone flag from ``playerid``'s view.

        Reads ``count`` (player, location, sequence) answers from returns
        (the byte index wraps like the reference's uint8_t); an Extra Monster
        Zone also marks the facing zone on the other side.  Returned as the
        reference's int32.
        """
        b = self.returns.bvalue
        dfflag = 0
        pa = 0
        # the answer bytes repeat after 256 triples, so more passes add nothing
        for _ in range(min(count & 0xFFFFFFFF, 256)):
            p, l, s = b[pa], b[(pa + 1) & 0xFF], b[(pa + 2) & 0xFF]
            shift = s + (0 if p == playerid else 16) + (0 if l == LOCATION_MZONE else 8)
            dfflag |= 0x1 << (shift & 31)
            pa = (pa + 3) & 0xFF
        if dfflag & (0x1 << 5):
            dfflag |= 0x1 << (16 + 6)
        if dfflag & (0x1 << 6):
            dfflag |= 0x1 << (16 + 5)
        return _i32(dfflag)

    # ===== putting a puzzle's cards in place (Debug.AddCard, PreAddCounter) ===========

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

    def debug_pre_add_counter(self: "Duel", pcard: "Card", countertype: int, count: int) -> None:
        """Debug.PreAddCounter: add counters directly (no permit check, no message,
        no event); type and count are 16-bit."""
        countertype &= 0xFFFF
        pcard.counters[countertype] = (pcard.counters.get(countertype, 0) + (count & 0xFFFF)) & 0xFFFF
