"""Moving cards: destroy, release, send to hand/Deck/GY/banished, move to field,
discard the Deck, self-destruction, Trap Monsters going back, and the
replacement effects ("destroy X instead", "banish it instead") that can stop
these moves (reference: operations.cpp).

Every action has an adder (``destroy``, ``send_to``, ...) that records on each
card where it goes and why, then queues the unit (``proc_destroy``,
``proc_send_to``, ...).  Before a card actually moves, the unit offers the
replacement effects, drops the cards that cannot move, raises the "about to
leave" events, and only then moves the cards one by one (MSG_MOVE each) and
raises the "moved" events.

Some units are entered in the middle by other parts of the rules; those
entries have their own generators here (each docstring says which).

The helpers at the top are shared with the other operations modules.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..card import Card
from ..card_effects import card_operation_key
from ..constants import (
    EFFECT_ADD_SETCODE, EFFECT_CANNOT_DISCARD_DECK, EFFECT_CHANGE_TYPE, EFFECT_DESTROY_REPLACE,
    EFFECT_DESTROY_SUBSTITUTE, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT,
    EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_PLAYER_TARGET, EFFECT_INDESTRUCTABLE,
    EFFECT_INDESTRUCTABLE_COUNT, EFFECT_MUST_USE_MZONE, EFFECT_PRE_MONSTER, EFFECT_RELEASE_REPLACE,
    EFFECT_SELF_DESTROY, EFFECT_SELF_TOGRAVE, EFFECT_SEND_REPLACE, EFFECT_TO_GRAVE_REDIRECT_CB,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_SINGLE, EFFECT_USE_EXTRA_SZONE, EVENT_DESTROY, EVENT_DESTROYED,
    EVENT_DETACH_MATERIAL, EVENT_DISCARD, EVENT_LEAVE_DECK, EVENT_LEAVE_FIELD, EVENT_LEAVE_FIELD_P,
    EVENT_LEAVE_GRAVE, EVENT_MOVE, EVENT_RELEASE, EVENT_REMOVE, EVENT_TO_DECK, EVENT_TO_GRAVE,
    EVENT_TO_HAND, GLOBALFLAG_DECK_REVERSE_CHECK, GLOBALFLAG_DETACH_EVENT, HINT_CARD,
    HINT_SELECTMSG, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    LOCATION_ONFIELD, LOCATION_OVERLAY, LOCATION_PZONE, LOCATION_REASON_CONTROL,
    LOCATION_REASON_TOFIELD, LOCATION_REMOVED, LOCATION_SZONE, NEW_MASTER_RULE, PLAYER_NONE,
    POS_FACEDOWN, POS_FACEDOWN_ATTACK, POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_ATTACK,
    POS_FACEUP_DEFENSE, REASON_BATTLE, REASON_COST, REASON_DESTROY, REASON_DISCARD, REASON_EFFECT,
    REASON_LOST_OVERLAY, REASON_LOST_TARGET, REASON_REDIRECT, REASON_RELEASE, REASON_REPLACE,
    REASON_RETURN, REASON_RULE, REASON_SUMMON, REASON_TEMPORARY, RESET_CODE, RESET_EVENT,
    RESET_LEAVE, RESET_MSCHANGE, RESET_REMOVE, RESET_TEMP_REMOVE, RESET_TODECK, RESET_TOFIELD,
    RESET_TOGRAVE, RESET_TOHAND, RESET_TURN_SET, STATUS_ACTIVATE_DISABLED,
    STATUS_CANNOT_CHANGE_FORM, STATUS_DESTROY_CONFIRMED, STATUS_FLIP_SUMMONING,
    STATUS_FLIP_SUMMON_DISABLED, STATUS_FLIP_SUMMON_TURN, STATUS_FORBIDDEN, STATUS_LEAVE_CONFIRMED,
    STATUS_PROC_COMPLETE, STATUS_SET_TURN, STATUS_SPSUMMON_STEP, STATUS_SPSUMMON_TURN,
    STATUS_SUMMONING, STATUS_SUMMON_DISABLED, STATUS_SUMMON_TURN, TIMING_DESTROY, TIMING_REMOVE,
    TIMING_TODECK, TIMING_TOGRAVE, TIMING_TOHAND, TYPE_FIELD, TYPE_LINK, TYPE_MONSTER,
    TYPE_PENDULUM, TYPE_SPELL, TYPE_TOKEN, TYPE_TRAP, TYPE_TRAPMONSTER,
)
from ..core_constants import (
    GTYPE_READ_ONLY, PLAYER_SELFDES, RETURN_TEMP_REMOVE_TO_FIELD, RETURN_TRAP_MONSTER_TO_SZONE,
)
from ..event import Chain, Event
from ..group import CardSet, Group
from ..messages import LocInfo, MsgDeckTop, MsgHint, MsgMove
from ..wire import i32, u32

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..processor.driver import Proc


# ----------------------------------------------------------------------------------------
# helpers shared by the operations modules
# ----------------------------------------------------------------------------------------


def loc_info(raw: int) -> LocInfo:
    """A message location from the packed 32-bit form (controller, location, sequence, position)."""
    return LocInfo.from_raw(raw & 0xFFFFFFFF)


def loc_of(pcard: Card) -> LocInfo:
    """The card's own place written byte by byte (controler, location, sequence, position)."""
    cur = pcard.current
    return loc_info((cur.controler & 0xFF) | ((cur.location & 0xFF) << 8)
                    | ((cur.sequence & 0xFF) << 16) | ((cur.position & 0xFF) << 24))


def hint_selectmsg(duel: "Duel", playerid: int, data: int) -> None:
    """MSG_HINT HINT_SELECTMSG: tell ``playerid`` what the next selection is for."""
    duel.emit(MsgHint(type=HINT_SELECTMSG, player=playerid & 0xFF, data=u32(data)))


def hint_card(duel: "Duel", code: int) -> None:
    """MSG_HINT HINT_CARD to player 0: show which card's effect applied."""
    duel.emit(MsgHint(type=HINT_CARD, player=0, data=u32(code)))


def restore_reason(pcard: Card) -> None:
    """Put back the reason the card had before this action claimed it."""
    pcard.current.reason = pcard.temp.reason
    pcard.current.reason_effect = pcard.temp.reason_effect
    pcard.current.reason_player = pcard.temp.reason_player


def save_reason(pcard: Card) -> None:
    """Remember the card's reason (restore_reason undoes the change that follows)."""
    pcard.temp.reason = pcard.current.reason
    pcard.temp.reason_effect = pcard.current.reason_effect
    pcard.temp.reason_player = pcard.current.reason_player


def save_previous_place(pcard: Card) -> None:
    """Copy the card's place into ``previous`` (done by every move that does not go
    through move_card)."""
    pcard.previous.controler = pcard.current.controler
    pcard.previous.location = pcard.current.location
    pcard.previous.sequence = pcard.current.sequence
    pcard.previous.position = pcard.current.position
    pcard.previous.pzone = pcard.current.pzone


def as_card_set(targets: "Card | CardSet | Group | Iterable[Card]") -> CardSet:
    """The card set an adder works on.  A CardSet (or a Group's) is used as is:
    like the reference, some adders change the caller's set."""
    if isinstance(targets, Card):
        return CardSet((targets,))
    if isinstance(targets, CardSet):
        return targets
    if isinstance(targets, Group):
        return targets.container
    return CardSet(targets)


def operation_sorted(cards: Iterable[Card]) -> list[Card]:
    """Cards in the order the reference moves them (card::card_operation_sort)."""
    cv = list(cards)
    if len(cv) > 1:
        cv.sort(key=card_operation_key)
    return cv


def int_value(peffect: "Effect") -> int:
    """An effect's raw integer value (0 for a function value), as the reference reads
    ``peffect->value`` directly."""
    v = peffect.value
    return v if isinstance(v, int) else 0


def selected_cards(duel: "Duel") -> list[Card]:
    """The cards a proc_select_card answer chose, in answer order.

    A cancelled selection (answer -1) is read as no card: the reference would
    index past the selection there (undefined behaviour); no caller here is
    cancelable except proc_remove_overlay_card.
    """
    if duel.returns.ivalue[0] == -1:
        return []
    b = duel.returns.bvalue
    sel = duel.core.select_cards
    out = []
    for i in range(b[0]):
        idx = b[i + 1]
        if idx < len(sel):
            out.append(sel[idx])
    return out


def useable_count_and_flag(duel: "Duel", pcard: Card | None, playerid: int, location: int,
                           uplayer: int, reason: int, zone: int = 0xFF) -> tuple[int, int]:
    """get_useable_count plus the zone flag it fills (the reference's ``uint32_t* list``)."""
    flag = [0]
    ct = duel.get_useable_count(pcard, playerid, location, uplayer, reason, zone, flag)
    return ct, u32(flag[0])


def nothing_operated(duel: "Duel", targets: "Group") -> None:
    """No card is left for the operation: it returns 0, operated_set is empty
    and the operation's group is deleted."""
    duel.returns.ivalue[0] = 0
    duel.core.operated_set.clear()
    duel.delete_group(targets)


def set_operated(duel: "Duel", cards: Iterable[Card]) -> None:
    """core.operated_set = cards (kept as the same object)."""
    duel.core.operated_set.clear()
    duel.core.operated_set.update(cards)


def deck_top_message(duel: "Duel", playerid: int, count: int, ptop: Card) -> None:
    """MSG_DECK_TOP when the card now on top of a Deck is visible (reversed Deck or
    a face-up card): the high bit of the code marks a face-up card."""
    if duel.core.deck_reversed or ptop.current.position == POS_FACEUP_DEFENSE:
        code = ptop.data.code
        if ptop.current.position == POS_FACEUP_DEFENSE:
            code |= 0x80000000
        duel.emit(MsgDeckTop(player=playerid & 0xFF, sequence=count & 0xFF, code=u32(code)))


def add_owner_hint(duel: "Duel", pcard: Card) -> None:
    """A card added to a hand other than its owner's gets the client hint
    "owned by the opponent" (string 67) until it leaves."""
    if pcard.owner != pcard.current.controler:
        deffect = duel.new_effect()
        deffect.owner = pcard
        deffect.code = 0
        deffect.type = EFFECT_TYPE_SINGLE
        deffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_CLIENT_HINT
        deffect.description = 67
        deffect.reset_flag = RESET_EVENT + 0x1fe0000
        pcard.add_effect(deffect)


def _owner_of(peffect: "Effect | None") -> Card | None:
    return peffect.owner if peffect is not None else None


def _self_destroy_related(pcard: Card) -> bool:
    re = pcard.current.reason_effect
    return bool(re is not None and re.is_self_destroy_related())


def _new_replace_chain(replace_effect: "Effect", e: Event) -> Chain:
    """A chain link that is not on the chain: how a replacement effect runs its
    target and operation functions."""
    newchain = Chain()
    newchain.chain_id = 0
    newchain.chain_count = 0
    newchain.triggering_effect = replace_effect
    newchain.triggering_player = e.event_player
    newchain.evt = e.copy()
    newchain.target_cards = None
    newchain.target_player = PLAYER_NONE
    newchain.target_param = 0
    newchain.disable_player = PLAYER_NONE
    newchain.disable_reason = None
    newchain.flag = 0
    return newchain


def _drop_replace_chain(duel: "Duel", ch: Chain) -> None:
    if ch.target_cards is not None:
        duel.delete_group(ch.target_cards)
    for op in ch.opinfos.values():
        if op.op_cards is not None:
            duel.delete_group(op.op_cards)


def _pop_replace_chain(duel: "Duel") -> None:
    """Forget the replacement's chain link (the last one of continuous_chain)."""
    _drop_replace_chain(duel, duel.core.continuous_chain[-1])
    duel.core.continuous_chain.pop()


def _replace_event(targets: Group, player: int, pcard: Card) -> Event:
    """The event a replacement effect sees: the cards, and the reason taken from ``pcard``."""
    return Event(event_cards=targets, event_player=player, event_value=0,
                 reason=pcard.current.reason, reason_effect=pcard.current.reason_effect,
                 reason_player=pcard.current.reason_player)


def _indestructable_by_value(pcard: Card, peffect: "Effect") -> bool:
    """An EFFECT_INDESTRUCTABLE-like effect's value, asked with the card's destroy reason."""
    cur = pcard.current
    return bool(peffect.check_value_condition(cur.reason_effect, cur.reason, cur.reason_player))


def _indestructable_count_value(pcard: Card, peffect: "Effect") -> int:
    cur = pcard.current
    return peffect.get_value(None, cur.reason_effect, cur.reason, cur.reason_player)


def _count_use(pcard: Card, peffect: "Effect", ct: int) -> bool:
    """One more use of an "only N times" indestructibility; True while within N."""
    n = pcard.indestructable_effects.get(peffect.id, 0) + 1
    pcard.indestructable_effects[peffect.id] = n
    return n <= ct


class MoveMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ====================================================================================
    # adders
    # ====================================================================================

    def destroy(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                reason: int, reason_player: int, playerid: int = PLAYER_NONE,
                destination: int = 0, sequence: int = 0) -> None:
        """Destroy cards (one card or a set).

        Cards already being destroyed (STATUS_DESTROY_CONFIRMED, and not saved
        by a substitute) are left out -- and, as in the reference, removed
        from the caller's set.  A destroyed card goes to the GY unless the
        destination is the hand, the Deck or banished; to the GY or banished it
        always goes to its owner's.  With PLAYER_SELFDES as reason player the
        card keeps the reason effect/player its self-destruction set.
        """
        cset = as_card_set(targets)
        for pcard in list(cset):
            if (pcard.is_status(STATUS_DESTROY_CONFIRMED)
                    and pcard not in self.core.destroy_canceled):
                cset.discard(pcard)
                continue
            pcard.temp.reason = pcard.current.reason
            pcard.current.reason = reason
            if reason_player != PLAYER_SELFDES:
                pcard.temp.reason_effect = pcard.current.reason_effect
                pcard.temp.reason_player = pcard.current.reason_player
                if reason_effect is not None:
                    pcard.current.reason_effect = reason_effect
                pcard.current.reason_player = reason_player
            p = playerid
            dest = destination
            if not (dest & (LOCATION_HAND | LOCATION_DECK | LOCATION_REMOVED)):
                dest = LOCATION_GRAVE
            if dest and p == PLAYER_NONE:
                p = pcard.owner
            if dest & (LOCATION_GRAVE | LOCATION_REMOVED):
                p = pcard.owner
            pcard.set_status(STATUS_DESTROY_CONFIRMED, True)
            pcard.sendto_param.set(p & 0xFF, POS_FACEUP, dest & 0xFF, sequence & 0xFF)
        ng = self.new_group(cset)
        ng.is_readonly = GTYPE_READ_ONLY
        self.add_process(self.proc_destroy(ng, reason_effect, reason, reason_player))

    def release(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                reason: int, reason_player: int) -> None:
        """Tribute cards (one card or a set): they go to their owner's GY."""
        cset = as_card_set(targets)
        for pcard in cset:
            save_reason(pcard)
            pcard.current.reason = reason
            pcard.current.reason_effect = reason_effect
            pcard.current.reason_player = reason_player
            pcard.sendto_param.set(pcard.owner & 0xFF, POS_FACEUP, LOCATION_GRAVE)
        ng = self.new_group(cset)
        ng.is_readonly = GTYPE_READ_ONLY
        self.add_process(self.proc_release(ng, reason_effect, reason, reason_player))

    def send_to(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                reason: int, reason_player: int, playerid: int, destination: int,
                sequence: int, position: int, send_activating: bool | int = False) -> None:
        """Send cards (one card or a set) to the hand, Deck, Extra Deck, GY or banishment.

        Nothing happens for a destination on the field.  Who receives the card:
        ``playerid``; when none is given, a card taken from its controller's
        own Deck to the hand by that player goes to that player's hand, else
        every card goes to its owner's side -- always so for the GY and
        banishment.  A banished card returned to the GY is flagged
        REASON_RETURN.  Only banishment keeps the given position (0: the
        current one); elsewhere cards are face-up.
        """
        if destination & LOCATION_ONFIELD:
            return
        ng = self._send_to_group(targets, reason_effect, reason, reason_player, playerid,
                                 destination, sequence, position)
        self.add_process(self.proc_send_to(ng, reason_effect, reason, reason_player,
                                           send_activating & 0xFF))

    def _send_to_group(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                       reason: int, reason_player: int, playerid: int, destination: int,
                       sequence: int, position: int) -> Group:
        """What send_to does before queuing proc_send_to: each card's reason and
        sendto_param, and the read-only group of the operation (``destination``
        is off the field)."""
        cset = as_card_set(targets)
        for pcard in cset:
            pcard.temp.reason = pcard.current.reason
            pcard.current.reason = reason
            if reason_player != PLAYER_SELFDES:
                pcard.temp.reason_effect = pcard.current.reason_effect
                pcard.temp.reason_player = pcard.current.reason_player
                pcard.current.reason_effect = reason_effect
                pcard.current.reason_player = reason_player
            p = playerid
            if (p == PLAYER_NONE and (destination & LOCATION_HAND)
                    and (pcard.current.location & LOCATION_DECK)
                    and pcard.current.controler == reason_player):
                p = reason_player
            if (destination & (LOCATION_GRAVE | LOCATION_REMOVED)) or p == PLAYER_NONE:
                p = pcard.owner
            if destination == LOCATION_GRAVE and pcard.current.location == LOCATION_REMOVED:
                pcard.current.reason |= REASON_RETURN
            pos = position
            if destination != LOCATION_REMOVED:
                pos = POS_FACEUP
            elif position == 0:
                pos = pcard.current.position
            pcard.sendto_param.set(p & 0xFF, pos & 0xFF, destination & 0xFF, sequence & 0xFF)
        ng = self.new_group(cset)
        ng.is_readonly = GTYPE_READ_ONLY
        return ng

    def move_to_field(self: "Duel", target: Card, move_player: int, playerid: int,
                      destination: int, positions: int, enable: bool | int = False,
                      ret: int = 0, pzone: bool | int = False, zone: int = 0xFF) -> None:
        """Put a card on the field (Duel.MoveToField, Duel.ReturnToField, equips,
        Trap Monsters going back, control changes).

        ``ret``: 0 normally, RETURN_TEMP_REMOVE_TO_FIELD for a card banished
        "until" returning, RETURN_TRAP_MONSTER_TO_SZONE for a Trap Monster going
        back to the Spell & Trap Zone.  Nothing happens for a place off the
        field, with no positions, or when the card is already there.
        """
        if not (destination & LOCATION_ONFIELD) or not positions:
            return
        if (destination == target.current.location and playerid == target.current.controler
                and target.current.pzone == bool(pzone)):
            return
        target.to_field_param = u32((move_player << 24) + (playerid << 16)
                                    + (destination << 8) + positions)
        self.add_process(self.proc_move_to_field(target, enable, ret & 0xFF, pzone & 0xFF, u32(zone)))

    def operation_replace(self: "Duel", type: int, step: int, targets: Group) -> None:
        """Offer the field's continuous replacement effects of ``type`` (EFFECT_DESTROY_REPLACE,
        EFFECT_RELEASE_REPLACE, EFFECT_SEND_REPLACE) for a whole group of cards.

        The turn player's effects are offered first, each side's in the order
        they were registered.  ``step`` is the reference's entry into its unit:
        5 for an ordinary move, 12 for destruction by battle.
        """
        is_destroy = type == EFFECT_DESTROY_REPLACE
        if step == 12:
            make = self.proc_operation_replace_battle_group
        else:
            make = self.proc_operation_replace_group
        opp_effects = []
        for reffect in self.effects.continuous_effect.equal_range(type):
            if reffect.get_handler_player() == self.infos.turn_player:
                self.add_process(make(reffect, targets, is_destroy))
            else:
                opp_effects.append(reffect)
        for peffect in opp_effects:
            self.add_process(make(peffect, targets, is_destroy))

    # ====================================================================================
    # self destruction (unique on field, EFFECT_SELF_DESTROY, EFFECT_SELF_TOGRAVE)
    # ====================================================================================

    def proc_self_destroy(self: "Duel", ucard: Card, p: int) -> "Proc":
        """A "you can only control one" card sees two or more copies on ``p``'s side.

        Queued by adjust_self_destroy_set.  If the card still watches that side,
        one copy is kept -- chosen by the side's player among copies not
        already marked, failing that by the other player, failing that among
        any copy -- and the others are destroyed by the rule, with the unique
        effect as reason.
        """
        core = self.core
        if ucard not in core.unique_cards[p]:
            core.unique_destroy_set.discard(ucard)
            return
        cset = CardSet(ucard.get_unique_target(p))
        if len(cset) == 0:
            ucard.unique_fieldid = 0
        elif len(cset) == 1:
            ucard.unique_fieldid = cset.first().fieldid
        else:
            select_player = self._unique_keeper_choices(cset, p)
            if len(core.select_cards) == 1:
                self.returns.bvalue[1] = 0
            else:
                hint_selectmsg(self, select_player, 534)
                self.add_process(self.proc_select_card(select_player, False, 1, 1))
            yield
            cset = CardSet(ucard.get_unique_target(p))
            mcard = core.select_cards[self.returns.bvalue[1]]
            ucard.unique_fieldid = mcard.fieldid
            cset.discard(mcard)
            for pcard in cset:
                pcard.temp.reason_effect = pcard.current.reason_effect
                pcard.temp.reason_player = pcard.current.reason_player
                pcard.current.reason_effect = ucard.unique_effect
                pcard.current.reason_player = ucard.current.controler
            self.destroy(cset, None, REASON_RULE, PLAYER_SELFDES)
            yield
        core.unique_destroy_set.discard(ucard)

    def _unique_keeper_choices(self: "Duel", cset: CardSet, p: int) -> int:
        """Fill core.select_cards with the copies one player may keep; return that player."""
        core = self.core
        for select_player, unmarked_only in ((p, True), (1 - p, True), (p, False), (1 - p, False)):
            core.select_cards = [c for c in cset if c.current.controler == select_player
                                 and (not unmarked_only or c.unique_fieldid != 0xFFFFFFFF)]
            if core.select_cards:
                return select_player
        return 1 - p

    def proc_self_destroy_effect(self: "Duel") -> "Proc":
        """Destroy, one at a time, the cards that destroy themselves (EFFECT_SELF_DESTROY).

        The reference's self_destroy unit entered at step 10 (queued by
        adjust_self_destroy_set).  The destruction is by effect, with the
        self-destroy effect and its handler's player as reason.
        """
        core = self.core
        while core.self_destroy_set:
            pcard = core.self_destroy_set.first()
            peffect = pcard.is_affected_by_effect(EFFECT_SELF_DESTROY)
            if peffect:
                pcard.temp.reason_effect = pcard.current.reason_effect
                pcard.temp.reason_player = pcard.current.reason_player
                pcard.current.reason_effect = peffect
                pcard.current.reason_player = peffect.get_handler_player()
                self.destroy(pcard, None, REASON_EFFECT, PLAYER_SELFDES)
            core.self_destroy_set.discard(pcard)
            yield
        self.returns.ivalue[0] = 0
        core.operated_set.clear()

    def proc_self_tograve(self: "Duel") -> "Proc":
        """Send to the GY, one at a time, the cards under EFFECT_SELF_TOGRAVE.

        The reference's self_destroy unit entered at step 20.
        """
        core = self.core
        while core.self_tograve_set:
            pcard = core.self_tograve_set.first()
            peffect = pcard.is_affected_by_effect(EFFECT_SELF_TOGRAVE)
            if peffect:
                pcard.temp.reason_effect = pcard.current.reason_effect
                pcard.temp.reason_player = pcard.current.reason_player
                pcard.current.reason_effect = peffect
                pcard.current.reason_player = peffect.get_handler_player()
                self.send_to(pcard, None, REASON_EFFECT, PLAYER_SELFDES, PLAYER_NONE,
                             LOCATION_GRAVE, 0, POS_FACEUP)
            core.self_tograve_set.discard(pcard)
            yield
        self.returns.ivalue[0] = 0
        core.operated_set.clear()

    # ====================================================================================
    # Trap Monsters going back to the Spell & Trap Zone
    # ====================================================================================

    def proc_trap_monster_adjust(self: "Duel") -> "Proc":
        """Trap Monsters that lost their monster status go back to the Spell & Trap Zone.

        From Master Rule 2020 a Trap Monster holds no Spell & Trap Zone, so
        each player (turn player first) may lack room: with no free zone all
        of theirs go to the GY, with too few the player picks which go to the
        GY.  Then every one left is put back face-down (turn player's first)
        and those picked are sent to the GY.
        """
        core = self.core
        to_grave_set: CardSet | None = None
        if core.duel_rule > 4:
            to_grave_set = CardSet()
            for second in (False, True):
                check_player = 1 - self.infos.turn_player if second else self.infos.turn_player
                adjust_set = core.trap_monster_adjust_set[check_player]
                self.refresh_location_info_instant()
                fcount = self.get_useable_count(None, check_player, LOCATION_SZONE, check_player, 0)
                if fcount <= 0:
                    to_grave_set.update(adjust_set)
                    adjust_set.clear()
                elif len(adjust_set) > fcount:
                    ct = len(adjust_set) - fcount
                    core.select_cards = list(adjust_set)
                    hint_selectmsg(self, check_player, 502)
                    self.add_process(self.proc_select_card(check_player, False, ct & 0xFF, ct & 0xFF))
                    yield
                    for pcard in selected_cards(self):
                        to_grave_set.add(pcard)
                        adjust_set.discard(pcard)
        tp = self.infos.turn_player
        for _ in range(2):
            for pcard in core.trap_monster_adjust_set[tp]:
                pcard.reset(RESET_TURN_SET, RESET_EVENT)
                if core.duel_rule <= 4:
                    self.refresh_location_info_instant()
                self.move_to_field(pcard, tp, tp, LOCATION_SZONE, pcard.current.position,
                                   False, RETURN_TRAP_MONSTER_TO_SZONE)
            tp = 1 - tp
        if to_grave_set:
            self.send_to(to_grave_set, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                         LOCATION_GRAVE, 0, POS_FACEUP)

    # ====================================================================================
    # destroy
    # ====================================================================================

    def proc_destroy_replace(self: "Duel", targets: Group, target: Card, battle: bool | int) -> "Proc":
        """Offer ``target``'s own destroy-replacement effects (EFFECT_DESTROY_REPLACE on the card).

        A card that already reached the GY or banishment is dropped from the
        destruction instead.  Each effect is queued; the first that applies
        stops the others (they see returns.ivalue[0] set).
        """
        if target.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
            restore_reason(target)
            target.set_status(STATUS_DESTROY_CONFIRMED, False)
            targets.container.discard(target)
            return
        if target not in targets.container:
            return
        self.returns.ivalue[0] = 0
        for peffect in target.filter_single_continuous_effect(EFFECT_DESTROY_REPLACE):
            if battle:
                self.add_process(self.proc_operation_replace_battle_card(peffect, targets, target, True))
            else:
                self.add_process(self.proc_operation_replace(peffect, targets, target, True))
        return
        yield  # a unit: a generator even though it never pauses

    def proc_destroy(self: "Duel", targets: Group, reason_effect: "Effect | None", reason: int,
                     reason_player: int) -> "Proc":
        """Destroy a group of cards.

        First the cards that survive drop out: cards that cannot be destroyed,
        cards unaffected by the reason effect or protected against it, cards
        with an applying EFFECT_INDESTRUCTABLE or a use left of an "only N
        times" EFFECT_INDESTRUCTABLE_COUNT, and cards whose EFFECT_DESTROY_SUBSTITUTE
        destroys another card instead (that card joins the destruction).  Each
        protecting effect is counted and shown (MSG_HINT).  Then the field's and
        the cards' own replacement effects are offered, then the cards are
        destroyed (EVENT_DESTROY) and sent on (proc_send_to_after_checks).
        """
        core = self.core
        extra = CardSet()
        indestructable_set = CardSet()
        # The reference keeps these in a std::set ordered by effect address; creation
        # order (effect.serial) is the stable stand-in, see the hints below.
        indestructable_effects: dict["Effect", None] = {}
        for pcard in list(targets.container):
            verdict = self._destroy_check(pcard, reason_player, indestructable_effects, extra)
            if verdict == "indestructable":
                indestructable_set.add(pcard)
            elif verdict == "counted":
                core.indestructable_count_set.add(pcard)
            elif verdict == "substituted":
                restore_reason(pcard)
                core.destroy_canceled.add(pcard)
                targets.container.discard(pcard)
        for pcard in indestructable_set:
            restore_reason(pcard)
            pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
            targets.container.discard(pcard)
        for pcard in core.indestructable_count_set:
            restore_reason(pcard)
            targets.container.discard(pcard)
        for rep in extra:
            if rep not in targets.container:
                save_reason(rep)
                rep.current.reason = REASON_EFFECT | REASON_DESTROY | REASON_REPLACE
                rep.current.reason_effect = None
                rep.current.reason_player = rep.current.controler
                rep.sendto_param.set(rep.owner & 0xFF, POS_FACEUP, LOCATION_GRAVE)
                targets.container.add(rep)
        for peffect in sorted(indestructable_effects, key=lambda e: e.serial):
            peffect.dec_count()
            hint_card(self, peffect.owner.data.code)
        self.operation_replace(EFFECT_DESTROY_REPLACE, 5, targets)
        yield
        for pcard in targets.container:
            self.add_process(self.proc_destroy_replace(targets, pcard, False))
        yield
        for pcard in core.destroy_canceled:
            pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
        core.destroy_canceled.clear()
        for pcard in core.indestructable_count_set:
            pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
        core.indestructable_count_set.clear()
        yield
        yield from self.proc_destroy_battle(targets, reason_effect, reason, reason_player)

    def _destroy_check(self: "Duel", pcard: Card, reason_player: int,
                       indestructable_effects: dict, extra: CardSet) -> str:
        """Why ``pcard`` escapes destruction (step 0 of the reference's destroy unit).

        Returns "indestructable", "counted" (an EFFECT_INDESTRUCTABLE_COUNT
        use), "substituted" (EFFECT_DESTROY_SUBSTITUTE; the substitutes are
        added to ``extra``) or "" when it is destroyed.  Protecting effects go
        to ``indestructable_effects`` (not for a self-destruction, except count
        effects).
        """
        if not pcard.is_destructable():
            return "indestructable"
        cur = pcard.current
        if not (cur.reason & (REASON_RULE | REASON_COST)):
            if not pcard.is_affect_by_effect(cur.reason_effect):
                return "indestructable"
            ieffect = pcard.check_indestructable_by_effect(cur.reason_effect, cur.reason_player)
            if ieffect:
                if reason_player != PLAYER_SELFDES:
                    indestructable_effects[ieffect] = None
                return "indestructable"
        for peffect in pcard.filter_effect(EFFECT_INDESTRUCTABLE):
            if _indestructable_by_value(pcard, peffect):
                if reason_player != PLAYER_SELFDES:
                    indestructable_effects[peffect] = None
                return "indestructable"
        # a card kept by EFFECT_INDESTRUCTABLE_COUNT is not offered EFFECT_DESTROY_REPLACE
        counted = False
        for peffect in pcard.filter_effect(EFFECT_INDESTRUCTABLE_COUNT):
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                if peffect.count_limit == 0:
                    continue
                if _indestructable_by_value(pcard, peffect):
                    indestructable_effects[peffect] = None
                    counted = True
            else:
                ct = _indestructable_count_value(pcard, peffect)
                if ct and _count_use(pcard, peffect, ct):
                    indestructable_effects[peffect] = None
                    counted = True
        if counted:
            return "counted"
        sub = False
        for peffect in pcard.filter_effect(EFFECT_DESTROY_SUBSTITUTE):
            if _indestructable_by_value(pcard, peffect):
                extra.add(peffect.handler)
                sub = True
        return "substituted" if sub else ""

    def proc_destroy_battle(self: "Duel", targets: Group, reason_effect: "Effect | None" = None,
                            reason: int = REASON_BATTLE, reason_player: int = PLAYER_NONE) -> "Proc":
        """Destroy cards whose replacements were already dealt with.

        The reference's destroy unit entered at step 3: the end of proc_destroy,
        and what the Damage Step queues for monsters destroyed by battle
        (after proc_destroy_battle_replace).  Cards that meanwhile reached the
        GY or banishment are dropped; the others get REASON_DESTROY and
        EVENT_DESTROY, then go where they were sent (a hand/Deck/banishment
        they may not go to becomes the GY), through the field's send
        replacements.
        """
        core = self.core
        if not targets.container:
            nothing_operated(self, targets)
            return
        for pcard in operation_sorted(targets.container):
            if pcard.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
                restore_reason(pcard)
                targets.container.discard(pcard)
                continue
            pcard.current.reason |= REASON_DESTROY
            core.hint_timing[pcard.current.controler] |= TIMING_DESTROY
            self.raise_single_event(pcard, None, EVENT_DESTROY, pcard.current.reason_effect,
                                    pcard.current.reason, pcard.current.reason_player, 0, 0)
        self.adjust_disable_check_list()
        self.process_single_event()
        self.raise_event(targets.container, EVENT_DESTROY, reason_effect, reason, reason_player, 0, 0)
        self.process_instant_event()
        yield
        sendtargets = self.new_group(targets.container)
        sendtargets.is_readonly = GTYPE_READ_ONLY
        for pcard in sendtargets.container:
            pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
            param = pcard.sendto_param
            dest = param.location or LOCATION_GRAVE
            if ((dest == LOCATION_HAND and not pcard.is_capable_send_to_hand(reason_player))
                    or (dest == LOCATION_DECK and not pcard.is_capable_send_to_deck(reason_player))
                    or (dest == LOCATION_REMOVED
                        and not pcard.is_removeable(reason_player, param.position, reason))):
                dest = LOCATION_GRAVE
            param.location = dest
        self.operation_replace(EFFECT_SEND_REPLACE, 5, sendtargets)
        self.add_process(self.proc_send_to_after_checks(sendtargets, reason_effect,
                                                        reason | REASON_DESTROY, reason_player))
        yield
        # cards destroyed only to replace another card's destruction do not count
        set_operated(self, (c for c in targets.container if not (c.current.reason & REASON_REPLACE)))
        self.returns.ivalue[0] = len(core.operated_set)
        self.delete_group(targets)
        self.adjust_self_destroy_set()

    def proc_destroy_battle_replace(self: "Duel", targets: Group) -> "Proc":
        """Offer the ways out for monsters about to be destroyed by battle.

        The reference's destroy unit entered at step 10 (the Damage Step
        queues it; proc_destroy_battle does the destruction later with what is
        left of ``targets``).  Like proc_destroy's checks, but each protecting
        effect is shown (MSG_HINT) as it applies, substitutes are collected in
        core.battle_destroy_rep, and the replacement effects chosen are kept
        in core.desrep_chain to resolve afterwards.
        """
        core = self.core
        for pcard in list(targets.container):
            if not pcard.is_destructable() or self._battle_indestructable(pcard):
                restore_reason(pcard)
                pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
                targets.container.discard(pcard)
                continue
            sub = False
            for peffect in pcard.filter_effect(EFFECT_DESTROY_SUBSTITUTE):
                if _indestructable_by_value(pcard, peffect):
                    core.battle_destroy_rep.add(peffect.handler)
                    sub = True
            if sub:
                restore_reason(pcard)
                core.destroy_canceled.add(pcard)
                targets.container.discard(pcard)
        if targets.container:
            self.operation_replace(EFFECT_DESTROY_REPLACE, 12, targets)
        yield
        for pcard in targets.container:
            self.add_process(self.proc_destroy_replace(targets, pcard, True))
        yield
        for pcard in core.destroy_canceled:
            pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
        core.destroy_canceled.clear()

    def _battle_indestructable(self: "Duel", pcard: Card) -> bool:
        """EFFECT_INDESTRUCTABLE / EFFECT_INDESTRUCTABLE_COUNT keep ``pcard`` from a battle
        destruction; each applying effect is shown at once (MSG_HINT HINT_CARD)."""
        for peffect in pcard.filter_effect(EFFECT_INDESTRUCTABLE):
            if _indestructable_by_value(pcard, peffect):
                hint_card(self, peffect.owner.data.code)
                return True
        indes = False
        for peffect in pcard.filter_effect(EFFECT_INDESTRUCTABLE_COUNT):
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                if peffect.count_limit == 0:
                    continue
                if _indestructable_by_value(pcard, peffect):
                    peffect.dec_count()
                    hint_card(self, peffect.owner.data.code)
                    indes = True
            else:
                ct = _indestructable_count_value(pcard, peffect)
                if ct and _count_use(pcard, peffect, ct):
                    hint_card(self, peffect.owner.data.code)
                    indes = True
        return indes

    # ====================================================================================
    # release
    # ====================================================================================

    def proc_release_replace(self: "Duel", targets: Group, target: Card) -> "Proc":
        """Offer ``target``'s own release-replacement effects (not for a release by the rules)."""
        if target.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
            restore_reason(target)
            targets.container.discard(target)
            return
        if target not in targets.container:
            return
        if not (target.current.reason & REASON_RULE):
            self.returns.ivalue[0] = 0
            for peffect in target.filter_single_continuous_effect(EFFECT_RELEASE_REPLACE):
                self.add_process(self.proc_operation_replace(peffect, targets, target, False))
        return
        yield  # a unit: a generator even though it never pauses

    def proc_release(self: "Duel", targets: Group, reason_effect: "Effect | None", reason: int,
                     reason_player: int) -> "Proc":
        """Tribute a group of cards.

        Cards being summoned, cards that cannot be Tributed for this summon, and
        (for an effect) cards unaffected by it or that cannot be Tributed by
        effects drop out.  Replacement effects are offered (not for a release
        by the rules), then the cards get REASON_RELEASE and go to the GY
        through proc_send_to_after_checks.
        """
        core = self.core
        for pcard in list(targets.container):
            if (pcard.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP)
                    or ((reason & REASON_SUMMON)
                        and not pcard.is_releasable_by_summon(reason_player, pcard.current.reason_card))
                    or ((reason & REASON_EFFECT)
                        and (not pcard.is_affect_by_effect(pcard.current.reason_effect)
                             or not pcard.is_releasable_by_nonsummon(reason_player, reason)))):
                restore_reason(pcard)
                targets.container.discard(pcard)
        if not (reason & REASON_RULE):
            self.operation_replace(EFFECT_RELEASE_REPLACE, 5, targets)
        yield
        for pcard in targets.container:
            self.add_process(self.proc_release_replace(targets, pcard))
        yield
        if not targets.container:
            nothing_operated(self, targets)
            return
        for pcard in operation_sorted(targets.container):
            if pcard.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
                restore_reason(pcard)
                targets.container.discard(pcard)
                continue
            pcard.current.reason |= REASON_RELEASE
        self.adjust_instant()
        yield
        sendtargets = self.new_group(targets.container)
        sendtargets.is_readonly = GTYPE_READ_ONLY
        self.operation_replace(EFFECT_SEND_REPLACE, 5, sendtargets)
        self.add_process(self.proc_send_to_after_checks(sendtargets, reason_effect,
                                                        reason | REASON_RELEASE, reason_player))
        yield
        for peffect in core.dec_count_reserve:
            peffect.dec_count()
        core.dec_count_reserve.clear()
        set_operated(self, targets.container)
        self.returns.ivalue[0] = len(targets.container)
        self.delete_group(targets)

    # ====================================================================================
    # send to hand / Deck / GY / banishment
    # ====================================================================================

    def proc_send_replace(self: "Duel", targets: Group, target: Card) -> "Proc":
        """Offer ``target``'s own send-replacement effects (not for a move by the rules).

        A card already where it is being sent (same place, same player)
        drops out instead.
        """
        playerid = target.sendto_param.playerid
        dest = target.sendto_param.location
        if target not in targets.container:
            return
        if target.current.location == dest and target.current.controler == playerid:
            restore_reason(target)
            targets.container.discard(target)
            return
        if not (target.current.reason & REASON_RULE):
            self.returns.ivalue[0] = 0
            for peffect in target.filter_single_continuous_effect(EFFECT_SEND_REPLACE):
                self.add_process(self.proc_operation_replace(peffect, targets, target, False))
        return
        yield  # a unit: a generator even though it never pauses

    def proc_send_to(self: "Duel", targets: Group, reason_effect: "Effect | None", reason: int,
                     reason_player: int, send_activating: bool | int = False) -> "Proc":
        """Send a group of cards to where each card's sendto_param says.

        Unless the rules send them, cards drop out that are being summoned,
        that the reason effect does not affect, or that the reason player may
        not send there (EFFECT_CANNOT_TO_HAND and the like, asked for
        core.reason_player); then the field's send replacements are offered.
        The rest is proc_send_to_after_checks.  Returns how many cards were
        sent (also left in returns.ivalue[0], which Lua reads).
        """
        rp = self.core.reason_player
        for pcard in list(targets.container):
            dest = pcard.sendto_param.location
            if not (reason & REASON_RULE) and (
                    pcard.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP)
                    or ((pcard.current.reason & REASON_EFFECT)
                        and not pcard.is_affect_by_effect(pcard.current.reason_effect))
                    or (dest == LOCATION_HAND and not pcard.is_capable_send_to_hand(rp))
                    or (dest == LOCATION_DECK and not pcard.is_capable_send_to_deck(rp, send_activating))
                    or (dest == LOCATION_REMOVED
                        and not pcard.is_removeable(rp, pcard.sendto_param.position, reason))
                    or (dest == LOCATION_GRAVE and not pcard.is_capable_send_to_grave(rp))
                    or (dest == LOCATION_EXTRA and not pcard.is_capable_send_to_extra(rp))):
                restore_reason(pcard)
                targets.container.discard(pcard)
        if not (reason & REASON_RULE):
            self.operation_replace(EFFECT_SEND_REPLACE, 5, targets)
        yield
        return (yield from self.proc_send_to_after_checks(targets, reason_effect, reason, reason_player))

    def proc_send_to_after_checks(self: "Duel", targets: Group, reason_effect: "Effect | None",
                                  reason: int, reason_player: int) -> "Proc":
        """Move cards whose permission checks are done (the reference's send_to unit at step 1).

        proc_destroy and proc_release enter here after their own checks.  In
        order: each card's own send replacements; EVENT_LEAVE_FIELD_P and a
        snapshot of what the leaving cards were (``previous``); redirections
        (EFFECT_LEAVE_FIELD_REDIRECT, EFFECT_TO_*_REDIRECT); the moves, one
        card at a time in operation order; the "left" events; the "arrived"
        events; then equips left behind are destroyed and Xyz materials left
        behind sent to the GY.  Returns how many cards were moved (also left in
        returns.ivalue[0]).
        """
        core = self.core
        for pcard in targets.container:
            self.add_process(self.proc_send_replace(targets, pcard))
        yield
        if not targets.container:
            nothing_operated(self, targets)
            return 0
        self._send_to_leave_field_p(targets, reason_effect, reason, reason_player)
        yield
        self._send_to_redirect(targets)
        yield
        cv = operation_sorted(targets.container)
        show_decktop = [False, False]
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
            for pcard in cv:
                if pcard.current.location == LOCATION_DECK:
                    show_decktop[pcard.current.controler] = True
        moved = _Moved()
        for pcard in cv:
            yield from self._send_to_move_one(pcard, targets, reason_effect, moved, show_decktop)
        self._send_to_left(targets, reason_effect, reason, reason_player, moved, show_decktop)
        yield
        self._send_to_arrived(targets, reason_effect, reason, reason_player)
        yield
        set_operated(self, targets.container)
        count = len(targets.container)
        self.returns.ivalue[0] = count
        self.delete_group(targets)
        return count

    def _send_to_leave_field_p(self: "Duel", targets: Group, reason_effect: "Effect | None",
                               reason: int, reason_player: int) -> None:
        """EVENT_LEAVE_FIELD_P for cards about to leave the field (not negated
        summons/activations), and a record of what each field card was."""
        leave_p = CardSet()
        for pcard in targets.container:
            cur = pcard.current
            if (cur.location & LOCATION_ONFIELD) and not pcard.is_status(STATUS_SUMMON_DISABLED) \
                    and not pcard.is_status(STATUS_ACTIVATE_DISABLED):
                self.raise_single_event(pcard, None, EVENT_LEAVE_FIELD_P, cur.reason_effect,
                                        cur.reason, cur.reason_player, 0, 0)
                leave_p.add(pcard)
            if cur.location & LOCATION_ONFIELD:
                _record_previous_stats(pcard)
        if leave_p:
            self.raise_event(leave_p, EVENT_LEAVE_FIELD_P, reason_effect, reason, reason_player, 0, 0)
        self.process_single_event()
        self.process_instant_event()

    def _send_to_redirect(self: "Duel", targets: Group) -> None:
        """Apply redirections: a card leaving the field may be redirected
        (leave_field_redirect, which also drops REASON_TEMPORARY and turns a
        face-down banishment face-up), then any card may be redirected by
        where it is going (destination_redirect).  A card with
        EFFECT_TO_GRAVE_REDIRECT_CB going to the GY is flagged (bit 4 of
        sendto_param.playerid) for the Crystal Beast choice."""
        for pcard in targets.container:
            pcard.enable_field_effect(False)
        self.adjust_disable_check_list()
        for pcard in targets.container:
            param = pcard.sendto_param
            dest = param.location
            redirect = 0
            redirect_seq = 0
            check_cb = bool((dest & LOCATION_GRAVE)
                            and pcard.is_affected_by_effect(EFFECT_TO_GRAVE_REDIRECT_CB))
            if (pcard.current.location & LOCATION_ONFIELD) and not pcard.is_status(STATUS_SUMMON_DISABLED) \
                    and not pcard.is_status(STATUS_ACTIVATE_DISABLED):
                redirect = u32(pcard.leave_field_redirect(pcard.current.reason))
                redirect_seq = redirect >> 16
                redirect &= 0xFFFF
            if redirect:
                pcard.current.reason &= ~REASON_TEMPORARY
                pcard.current.reason |= REASON_REDIRECT
                param.location = redirect & 0xFF
                param.sequence = redirect_seq & 0xFF
                dest = redirect
                if dest == LOCATION_REMOVED:
                    if param.position & POS_FACEDOWN_ATTACK:
                        param.position = (param.position & ~POS_FACEDOWN_ATTACK) | POS_FACEUP_ATTACK
                    if param.position & POS_FACEDOWN_DEFENSE:
                        param.position = (param.position & ~POS_FACEDOWN_DEFENSE) | POS_FACEUP_DEFENSE
            redirect = u32(pcard.destination_redirect(dest, pcard.current.reason))
            if redirect:
                redirect_seq = redirect >> 16
                redirect &= 0xFFFF
            if redirect and pcard.current.location != redirect:
                pcard.current.reason |= REASON_REDIRECT
                param.location = redirect & 0xFF
                param.sequence = redirect_seq & 0xFF
            if check_cb:
                param.playerid |= 0x1 << 4

    def _send_to_move_one(self: "Duel", pcard: Card, targets: Group, reason_effect: "Effect | None",
                          moved: "_Moved", show_decktop: list[bool]) -> "Proc":
        """Move one card (the reference's send_to steps 5-8).

        A Token simply leaves the game (MSG_MOVE to nowhere).  A card with
        EFFECT_TO_GRAVE_REDIRECT_CB going to the GY may, if its controller
        agrees and has a free zone, be placed face-up in the Spell & Trap
        Zone instead and run that effect's operation.
        """
        core = self.core
        predirect = None
        if pcard.sendto_param.playerid >> 4:
            predirect = pcard.is_affected_by_effect(EFFECT_TO_GRAVE_REDIRECT_CB)
        pcard.enable_field_effect(False)
        if pcard.data.type & TYPE_TOKEN:
            self._send_to_token_leaves(pcard)
            moved.leave_field.add(pcard)
            return
        controler = pcard.current.controler
        if predirect and self.get_useable_count(pcard, controler, LOCATION_SZONE, controler,
                                                LOCATION_REASON_TOFIELD) > 0:
            self.add_process(self.proc_select_effect_yes_no(controler, 97, pcard))
            yield
        else:
            self.returns.ivalue[0] = 0
        if not self.returns.ivalue[0]:
            self._send_to_move_normal(pcard, moved, show_decktop)
            return
        # the Crystal Beast way: to a Spell & Trap Zone of the controller's choice
        _, flag = useable_count_and_flag(self, pcard, controler, LOCATION_SZONE, controler,
                                         LOCATION_REASON_TOFIELD)
        flag = ((flag << 8) & 0xFF00) | 0xFFFFE0FF
        hint_selectmsg(self, controler, pcard.data.code)
        self.add_process(self.proc_select_place(controler, flag, 1))
        yield
        oloc = pcard.current.location
        seq = self.returns.bvalue[2]
        previous = pcard.get_info_location()
        if pcard.overlay_target is not None:
            moved.detach.add(pcard.overlay_target)
            pcard.overlay_target.xyz_remove(pcard)
        self.move_card(pcard.current.controler, pcard, LOCATION_SZONE, seq)
        pcard.current.position = POS_FACEUP
        self.emit(MsgMove(code=pcard.data.code, previous=loc_info(previous),
                          current=loc_info(pcard.get_public_info_location()),
                          reason=u32(pcard.current.reason)))
        _clear_move_statuses(pcard)
        if pcard.status & (STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED):
            pcard.set_status(STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED, False)
            pcard.previous.location = 0
        elif oloc & LOCATION_ONFIELD:
            pcard.reset(RESET_LEAVE + RESET_MSCHANGE, RESET_EVENT)
            pcard.clear_card_target()
            moved.leave_field.add(pcard)
        if predirect.operation:
            # The reference hands the operation its unit's scratch pointer as the
            # event group here (undefined behaviour); we pass the moved group.
            e = Event(event_cards=targets, event_player=pcard.current.controler, event_value=0,
                      reason=pcard.current.reason, reason_effect=reason_effect,
                      reason_player=pcard.current.controler)
            core.sub_solving_event.append(e)
            self.add_process(self.proc_execute_operation(predirect, pcard.current.controler))
        pcard.sendto_param.playerid |= 0x1 << 5
        yield

    def _send_to_token_leaves(self: "Duel", pcard: Card) -> None:
        """A Token leaving the field ceases to exist: MSG_MOVE to location 0."""
        self.emit(MsgMove(code=pcard.data.code, previous=loc_of(pcard), current=loc_info(0),
                          reason=u32(pcard.current.reason)))
        save_previous_place(pcard)
        pcard.current.reason &= ~REASON_TEMPORARY
        pcard.fieldid = self.infos.field_id
        self.infos.field_id += 1
        pcard.fieldid_r = pcard.fieldid
        pcard.reset(RESET_LEAVE, RESET_EVENT)
        pcard.clear_relate_effect()
        self.remove_card(pcard)

    def _send_to_move_normal(self: "Duel", pcard: Card, moved: "_Moved",
                             show_decktop: list[bool]) -> None:
        """Move one card where its sendto_param says (MSG_MOVE) and note what it left."""
        core = self.core
        oloc = pcard.current.location
        param = pcard.sendto_param
        playerid = param.playerid & 0x7
        dest = param.location
        seq = param.sequence
        control_player = (pcard.overlay_target.current.controler if pcard.overlay_target is not None
                          else pcard.current.controler)
        if dest == LOCATION_GRAVE:
            core.hint_timing[control_player] |= TIMING_TOGRAVE
        elif dest == LOCATION_HAND:
            pcard.set_status(STATUS_PROC_COMPLETE, False)
            core.hint_timing[control_player] |= TIMING_TOHAND
        elif dest == LOCATION_DECK:
            pcard.set_status(STATUS_PROC_COMPLETE, False)
            core.hint_timing[control_player] |= TIMING_TODECK
        elif dest == LOCATION_REMOVED:
            core.hint_timing[control_player] |= TIMING_REMOVE
        if pcard.current.controler != playerid or pcard.current.location != dest:
            # The reference writes the first half of MSG_MOVE before move_card and
            # the rest after; move_card itself only writes a message for a move
            # inside one place, which this condition excludes except for an Extra
            # Deck monster sent from the Extra Deck to the hand/Deck (then the
            # reference interleaves two messages; we write them one after the other).
            previous = pcard.get_info_location()
            if pcard.overlay_target is not None:
                moved.detach.add(pcard.overlay_target)
                pcard.overlay_target.xyz_remove(pcard)
            self.move_card(playerid, pcard, dest, seq)
            # move_card may change sendto_param.position (Extra Deck monsters)
            pcard.current.position = pcard.sendto_param.position
            self.emit(MsgMove(code=pcard.data.code, previous=loc_info(previous),
                              current=loc_info(pcard.get_public_info_location()),
                              reason=u32(pcard.current.reason)))
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
            if pcard.current.location == LOCATION_DECK:
                show_decktop[pcard.current.controler] = True
        _clear_move_statuses(pcard)
        if pcard.status & (STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED):
            pcard.set_status(STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED, False)
            pcard.previous.location = 0
        elif oloc & LOCATION_ONFIELD:
            pcard.reset(RESET_LEAVE, RESET_EVENT)
            moved.leave_field.add(pcard)
        elif oloc == LOCATION_GRAVE:
            moved.leave_grave.add(pcard)
        elif oloc == LOCATION_DECK or oloc == LOCATION_EXTRA:
            moved.leave_deck.add(pcard)
        if pcard.previous.location == LOCATION_OVERLAY:
            pcard.previous.controler = control_player

    def _send_to_left(self: "Duel", targets: Group, reason_effect: "Effect | None", reason: int,
                      reason_player: int, moved: "_Moved", show_decktop: list[bool]) -> None:
        """After the moves: the new Deck tops, the resets for where each card
        arrived, then the "left" events (field, GY, Deck, Xyz material)."""
        core = self.core
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
            for p in (0, 1):
                if show_decktop[p] and self.player[p].list_main:
                    deck_top_message(self, p, 0, self.player[p].list_main[-1])
        for pcard in targets.container:
            if not (pcard.data.type & TYPE_TOKEN):
                pcard.enable_field_effect(True)
            nloc = pcard.current.location
            if nloc == LOCATION_HAND:
                pcard.reset(RESET_TOHAND, RESET_EVENT)
            if nloc == LOCATION_DECK or nloc == LOCATION_EXTRA:
                pcard.reset(RESET_TODECK, RESET_EVENT)
            if nloc == LOCATION_GRAVE:
                pcard.reset(RESET_TOGRAVE, RESET_EVENT)
            if nloc == LOCATION_REMOVED or ((pcard.data.type & TYPE_TOKEN)
                                            and pcard.sendto_param.location == LOCATION_REMOVED):
                if pcard.current.reason & REASON_TEMPORARY:
                    pcard.reset(RESET_TEMP_REMOVE, RESET_EVENT)
                else:
                    pcard.reset(RESET_REMOVE, RESET_EVENT)
            pcard.refresh_disable_status()
        for pcard in moved.leave_field:
            self._raise_own_event(pcard, EVENT_LEAVE_FIELD)
        for pcard in moved.leave_grave:
            self._raise_own_event(pcard, EVENT_LEAVE_GRAVE)
        for pcard in moved.leave_deck:
            self._raise_own_event(pcard, EVENT_LEAVE_DECK)
        detach_event = bool((core.global_flag & GLOBALFLAG_DETACH_EVENT) and moved.detach)
        if detach_event:
            for pcard in moved.detach:
                if pcard.current.location & LOCATION_MZONE:
                    self.raise_single_event(pcard, None, EVENT_DETACH_MATERIAL, reason_effect,
                                            reason, reason_player, 0, 0)
        self.process_single_event()
        if moved.leave_field:
            self.raise_event(moved.leave_field, EVENT_LEAVE_FIELD, reason_effect, reason, reason_player, 0, 0)
        if moved.leave_grave:
            self.raise_event(moved.leave_grave, EVENT_LEAVE_GRAVE, reason_effect, reason, reason_player, 0, 0)
        if moved.leave_deck:
            self.raise_event(moved.leave_deck, EVENT_LEAVE_DECK, reason_effect, reason, reason_player, 0, 0)
        if detach_event:
            self.raise_event(moved.detach, EVENT_DETACH_MATERIAL, reason_effect, reason, reason_player, 0, 0)
        self.process_instant_event()
        self.adjust_instant()

    def _raise_own_event(self: "Duel", pcard: Card, code: int) -> None:
        """A single event for ``pcard`` with the card's own reason."""
        cur = pcard.current
        self.raise_single_event(pcard, None, code, cur.reason_effect, cur.reason, cur.reason_player, 0, 0)

    def _send_to_arrived(self: "Duel", targets: Group, reason_effect: "Effect | None", reason: int,
                         reason_player: int) -> None:
        """The "arrived" events (to hand, Deck, GY, banished, discarded, released,
        destroyed, moved); then equips whose target left are destroyed and Xyz
        materials left behind are sent to the GY."""
        tohand, todeck, tograve, remove = CardSet(), CardSet(), CardSet(), CardSet()
        discard, released, destroyed = CardSet(), CardSet(), CardSet()
        equipings, overlays = CardSet(), CardSet()
        for pcard in targets.container:
            nloc = pcard.current.location
            cb_redirected = pcard.sendto_param.playerid >> 5
            if pcard.equiping_target is not None and not cb_redirected:
                pcard.unequip()
            for equipc in list(pcard.equiping_cards):
                equipc.unequip()
                if equipc.current.location == LOCATION_SZONE:
                    equipings.add(equipc)
            pcard.clear_card_target()
            reason_c = pcard.current.reason
            if nloc == LOCATION_HAND:
                add_owner_hint(self, pcard)
                tohand.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_HAND)
            if nloc == LOCATION_DECK or nloc == LOCATION_EXTRA:
                todeck.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_DECK)
            if nloc == LOCATION_GRAVE and not (reason_c & REASON_RETURN):
                tograve.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_GRAVE)
            if nloc == LOCATION_REMOVED:
                remove.add(pcard)
                self._raise_own_event(pcard, EVENT_REMOVE)
            if reason_c & REASON_DISCARD:
                discard.add(pcard)
                self._raise_own_event(pcard, EVENT_DISCARD)
            if reason_c & REASON_RELEASE:
                released.add(pcard)
                self._raise_own_event(pcard, EVENT_RELEASE)
            # destruction by battle has its own event (EVENT_BATTLE_DESTROYED)
            if (reason_c & REASON_DESTROY) and not (reason_c & REASON_BATTLE):
                destroyed.add(pcard)
                self._raise_own_event(pcard, EVENT_DESTROYED)
            if pcard.xyz_materials:
                pcard.xyz_materials_previous_count_onfield = len(pcard.xyz_materials)
                overlays.update(pcard.xyz_materials)
            else:
                pcard.xyz_materials_previous_count_onfield = 0
            self._raise_own_event(pcard, EVENT_MOVE)
        for cset, code in ((tohand, EVENT_TO_HAND), (todeck, EVENT_TO_DECK), (tograve, EVENT_TO_GRAVE),
                           (remove, EVENT_REMOVE), (discard, EVENT_DISCARD), (released, EVENT_RELEASE),
                           (destroyed, EVENT_DESTROYED)):
            if cset:
                self.raise_event(cset, code, reason_effect, reason, reason_player, 0, 0)
        self.raise_event(targets.container, EVENT_MOVE, reason_effect, reason, reason_player, 0, 0)
        self.process_single_event()
        self.process_instant_event()
        if equipings:
            self.destroy(equipings, None, REASON_RULE + REASON_LOST_TARGET, PLAYER_NONE)
        if overlays:
            self.send_to(overlays, None, REASON_RULE + REASON_LOST_OVERLAY, PLAYER_NONE, PLAYER_NONE,
                         LOCATION_GRAVE, 0, POS_FACEUP)
        self.adjust_instant()

    # ====================================================================================
    # discard the top of the Deck
    # ====================================================================================

    def proc_discard_deck(self: "Duel", playerid: int, count: int, reason: int) -> "Proc":
        """Send the top ``count`` cards of ``playerid``'s Deck to the GY (Duel.DiscardDeck).

        Nothing happens under EFFECT_CANNOT_DISCARD_DECK.  Each card may be
        redirected (destination_redirect).  The cards are moved top first,
        each to its owner's side (MSG_MOVE), then the events are raised.
        ``count`` is a byte, as the reference's unit reads it.
        """
        core = self.core
        count &= 0xFF
        playerid &= 0xFF
        if self.is_player_affected_by_effect(playerid, EFFECT_CANNOT_DISCARD_DECK):
            core.operated_set.clear()
            self.returns.ivalue[0] = 0
            return
        deck = self.player[playerid].list_main
        for pcard in list(reversed(deck))[:count]:
            pcard.sendto_param.location = LOCATION_GRAVE
            pcard.current.reason_effect = core.reason_effect
            pcard.current.reason_player = core.reason_player
            pcard.current.reason = reason
            redirect = u32(pcard.destination_redirect(LOCATION_GRAVE, reason)) & 0xFFFF
            if redirect:
                pcard.sendto_param.location = redirect & 0xFF
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
            if len(deck) > count:
                deck_top_message(self, playerid, count, deck[len(deck) - 1 - count])
        yield
        tohand, todeck, tograve, remove = CardSet(), CardSet(), CardSet(), CardSet()
        core.discarded_set.clear()
        for _ in range(count):
            if not deck:
                break
            pcard = deck[-1]
            dest = pcard.sendto_param.location
            self._discard_deck_reset(pcard, dest)
            previous = loc_of(pcard)
            pcard.enable_field_effect(False)
            pcard.cancel_field_effect()
            deck.pop()
            save_previous_place(pcard)
            pcard.current.controler = PLAYER_NONE
            pcard.current.location = 0
            self.add_card(pcard.owner, pcard, dest, 0)
            pcard.enable_field_effect(True)
            pcard.current.position = POS_FACEUP
            self.emit(MsgMove(code=pcard.data.code, previous=previous, current=loc_of(pcard),
                              reason=u32(pcard.current.reason)))
            if dest == LOCATION_HAND:
                add_owner_hint(self, pcard)
                tohand.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_HAND)
            elif dest == LOCATION_DECK or dest == LOCATION_EXTRA:
                todeck.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_DECK)
            elif dest == LOCATION_GRAVE:
                tograve.add(pcard)
                self._raise_own_event(pcard, EVENT_TO_GRAVE)
            elif dest == LOCATION_REMOVED:
                remove.add(pcard)
                self._raise_own_event(pcard, EVENT_REMOVE)
            self._raise_own_event(pcard, EVENT_MOVE)
            core.discarded_set.add(pcard)
        re, rp = core.reason_effect, core.reason_player
        for cset, code in ((tohand, EVENT_TO_HAND), (todeck, EVENT_TO_DECK),
                           (tograve, EVENT_TO_GRAVE), (remove, EVENT_REMOVE)):
            if cset:
                self.raise_event(cset, code, re, reason, rp, 0, 0)
        self.raise_event(core.discarded_set, EVENT_MOVE, re, reason, rp, 0, 0)
        self.process_single_event()
        self.process_instant_event()
        self.adjust_instant()
        yield
        set_operated(self, core.discarded_set)
        self.returns.ivalue[0] = len(core.discarded_set)
        core.discarded_set.clear()

    @staticmethod
    def _discard_deck_reset(pcard: Card, dest: int) -> None:
        """The resets for a card discarded from the Deck, by where it goes."""
        if dest == LOCATION_GRAVE:
            pcard.reset(RESET_TOGRAVE, RESET_EVENT)
        elif dest == LOCATION_HAND:
            pcard.reset(RESET_TOHAND, RESET_EVENT)
            pcard.set_status(STATUS_PROC_COMPLETE, False)
        elif dest == LOCATION_DECK:
            pcard.reset(RESET_TODECK, RESET_EVENT)
            pcard.set_status(STATUS_PROC_COMPLETE, False)
        elif dest == LOCATION_REMOVED:
            if pcard.current.reason & REASON_TEMPORARY:
                pcard.reset(RESET_TEMP_REMOVE, RESET_EVENT)
            else:
                pcard.reset(RESET_REMOVE, RESET_EVENT)

    # ====================================================================================
    # move to the field
    # ====================================================================================

    def proc_move_to_field(self: "Duel", target: Card, enable: bool | int, ret: int, pzone: int,
                           zone: int) -> "Proc":
        """Put ``target`` on the field (see move_to_field; where to is in target.to_field_param).

        The zone: a Field Spell going to the Field Zone replaces the one there
        (sent to the GY, destroyed before Master Rule 3); a Pendulum going to a
        Pendulum Zone, or any other card, needs a usable zone -- if there is
        none the card goes to the GY -- and the mover picks one unless only one
        is allowed.  A card returning from a temporary banishment returns only
        to the effect that banished it, and goes to the GY if it cannot
        return.  A monster's position is asked unless it is a Link Monster.
        returns.ivalue[0]: whether the card was put on the field.
        """
        core = self.core
        move_player, playerid, location, positions = _to_field_args(target)
        self.returns.ivalue[0] = 0
        if ret == RETURN_TEMP_REMOVE_TO_FIELD and (
                not (target.current.reason & REASON_TEMPORARY)
                or _owner_of(target.current.reason_effect) is not _owner_of(core.reason_effect)):
            return
        if _is_field_zone_move(target, location, zone):
            pcard = self.get_field_card(playerid, LOCATION_SZONE, 5)
            if pcard:
                if core.duel_rule >= 3:
                    self.send_to(pcard, None, REASON_RULE, pcard.current.controler, PLAYER_NONE,
                                 LOCATION_GRAVE, 0, 0)
                else:
                    self.destroy(pcard, None, REASON_RULE, pcard.current.controler)
                self.adjust_all()
        elif pzone and location == LOCATION_SZONE and (target.data.type & TYPE_PENDULUM):
            if not self._ask_pzone(target, move_player, playerid, zone):
                if target.current.location != LOCATION_GRAVE:
                    self.send_to(target, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                                 LOCATION_GRAVE, 0, POS_FACEUP)
                yield
                self.returns.ivalue[0] = 0
                return
        else:
            lreason = (LOCATION_REASON_CONTROL if target.current.location == LOCATION_MZONE
                       else LOCATION_REASON_TOFIELD)
            ct, flag = useable_count_and_flag(self, target, playerid, location, move_player, lreason, zone)
            if ret == RETURN_TEMP_REMOVE_TO_FIELD and (
                    ct <= 0 or target.is_status(STATUS_FORBIDDEN)
                    or (not (positions & POS_FACEDOWN)
                        and self.check_unique_onfield(target, playerid, location))):
                self.send_to(target, core.reason_effect, REASON_RULE, core.reason_player, PLAYER_NONE,
                             LOCATION_GRAVE, 0, 0)
                yield
                self.returns.ivalue[0] = 0
                return
            if ct <= 0:
                if target.current.location != LOCATION_GRAVE:
                    self.send_to(target, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                                 LOCATION_GRAVE, 0, POS_FACEUP)
                yield
                self.returns.ivalue[0] = 0
                return
            self._ask_zone(target, move_player, playerid, location, ret, zone, flag)
        yield
        self._move_to_field_prepare(target, ret, zone)
        yield
        self._move_to_field_move(target, enable, ret, pzone)
        yield
        self.returns.ivalue[0] = 1

    def _ask_pzone(self: "Duel", target: Card, move_player: int, playerid: int, zone: int) -> bool:
        """Ask for a Pendulum Zone (``zone`` bits 0/1: left/right; none: either).
        False when neither allowed zone is usable."""
        flag = 0
        zone &= 0x3
        if not zone:
            zone = 0x3
        if self.is_location_useable(playerid, LOCATION_PZONE, 0) and (zone & 0x1):
            flag |= 0x100 << self.get_pzone_sequence(0)
        if self.is_location_useable(playerid, LOCATION_PZONE, 1) and (zone & 0x2):
            flag |= 0x100 << self.get_pzone_sequence(1)
        if not flag:
            return False
        if move_player != playerid:
            flag = flag << 16
        flag = u32(~flag)
        hint_selectmsg(self, move_player, target.data.code)
        self.add_process(self.proc_select_place(move_player, flag, 1))
        return True

    def _ask_zone(self: "Duel", target: Card, move_player: int, playerid: int, location: int,
                  ret: int, zone: int, flag: int) -> None:
        """Choose the zone: the only one ``zone`` allows, a Trap Monster's old
        zone (before Master Rule 2020), or the mover's pick among the usable
        ones.  The answer is left in returns.bvalue[2]."""
        seq = _single_zone(zone)
        if seq is not None:
            self.returns.bvalue[2] = seq
            return
        if ret == RETURN_TRAP_MONSTER_TO_SZONE and self.core.duel_rule <= 4:
            self.returns.bvalue[2] = target.previous.sequence & 0xFF
            return
        if move_player == playerid:
            if location == LOCATION_SZONE:
                flag = ((flag & 0xFF) << 8) | 0xFFFF00FF
            else:
                flag = (flag & 0xFF) | 0xFFFFFF00
        else:
            if location == LOCATION_SZONE:
                flag = ((flag & 0xFF) << 24) | 0xFFFFFF
            else:
                flag = ((flag & 0xFF) << 16) | 0xFF00FFFF
        flag |= 0xE080E080
        hint_selectmsg(self, move_player, target.data.code)
        self.add_process(self.proc_select_place(move_player, u32(flag), 1))

    def _move_to_field_prepare(self: "Duel", target: Card, ret: int, zone: int) -> None:
        """Resets for a card changing place (step 1), then ask a monster's position."""
        move_player, playerid, location, positions = _to_field_args(target)
        seq = self.returns.bvalue[2]
        if _is_field_zone_move(target, location, zone):
            seq = 5
        cur = target.current
        if ret != RETURN_TEMP_REMOVE_TO_FIELD and location != cur.location:
            resetflag = 0
            if location & LOCATION_ONFIELD:
                resetflag |= RESET_TOFIELD
            if cur.location & LOCATION_ONFIELD:
                resetflag |= RESET_LEAVE
            peffect = target.is_affected_by_effect(EFFECT_PRE_MONSTER)
            # a card moving between Monster and Spell & Trap Zone changes form,
            # except a Trap Monster's way back
            if ((location & LOCATION_ONFIELD) and (cur.location & LOCATION_ONFIELD)
                    and not (peffect and (int_value(peffect) & TYPE_TRAP))
                    and ret != RETURN_TRAP_MONSTER_TO_SZONE):
                resetflag |= RESET_MSCHANGE
            target.reset(resetflag, RESET_EVENT)
            target.clear_card_target()
        if not (cur.location & LOCATION_ONFIELD):
            target.clear_relate_effect()
        if ret == RETURN_TEMP_REMOVE_TO_FIELD:
            cur.reason &= ~REASON_TEMPORARY
        if (ret == 0 and location != cur.location) or ret == RETURN_TEMP_REMOVE_TO_FIELD:
            target.set_status(STATUS_SUMMON_TURN, False)
            target.set_status(STATUS_FLIP_SUMMON_TURN, False)
            target.set_status(STATUS_SPSUMMON_TURN, False)
            target.set_status(STATUS_SET_TURN, False)
            target.set_status(STATUS_CANNOT_CHANGE_FORM, False)
        target.temp.sequence = seq
        if location != LOCATION_MZONE:
            self.returns.ivalue[0] = positions
        elif target.data.type & TYPE_LINK:
            self.returns.ivalue[0] = POS_FACEUP_ATTACK
        else:
            self.add_process(self.proc_select_position(move_player, target.data.code, positions))

    def _move_to_field_move(self: "Duel", target: Card, enable: bool | int, ret: int, pzone: int) -> None:
        """The move itself (step 2): MSG_MOVE, equips and materials left behind,
        EFFECT_MUST_USE_MZONE counts, a card becoming a monster (EFFECT_PRE_MONSTER),
        then the events."""
        core = self.core
        move_player, playerid, location, positions = _to_field_args(target)
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK and target.current.location == LOCATION_DECK:
            curp = target.current.controler
            curs = target.current.sequence
            deck = self.player[curp].list_main
            if curs > 0 and curs == len(deck) - 1:
                deck_top_message(self, curp, 1, deck[curs - 1])
        previous = target.get_info_location()
        if target.overlay_target is not None:
            target.overlay_target.xyz_remove(target)
        self.move_card(playerid, target, location, target.temp.sequence, pzone)
        target.current.position = self.returns.ivalue[0] & 0xFF
        target.set_status(STATUS_LEAVE_CONFIRMED, False)
        self.emit(MsgMove(code=target.data.code, previous=loc_info(previous),
                          current=loc_info(target.get_public_info_location()),
                          reason=u32(target.current.reason)))
        if target.current.location != LOCATION_MZONE:
            if target.equiping_cards:
                # destroy may drop some from the card's own set (already being destroyed)
                self.destroy(target.equiping_cards, None, REASON_LOST_TARGET + REASON_RULE, PLAYER_NONE)
                for equipc in list(target.equiping_cards):
                    equipc.unequip()
            if target.xyz_materials:
                target.xyz_materials_previous_count_onfield = len(target.xyz_materials)
                self.send_to(CardSet(target.xyz_materials), None, REASON_LOST_OVERLAY + REASON_RULE,
                             PLAYER_NONE, PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP)
            else:
                target.xyz_materials_previous_count_onfield = 0
        if target.previous.location == LOCATION_SZONE and target.equiping_target is not None:
            target.unequip()
        if target.current.location == LOCATION_MZONE:
            self._count_must_use_mzone(target, move_player)
            self._become_monster(target)
        if enable or (ret == RETURN_TEMP_REMOVE_TO_FIELD and target.is_position(POS_FACEUP)):
            target.enable_field_effect(True)
        if (ret == RETURN_TEMP_REMOVE_TO_FIELD and target.current.location == LOCATION_MZONE
                and not (target.data.type & TYPE_MONSTER)):
            self.send_to(target, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE, LOCATION_GRAVE, 0, 0)
        else:
            cur = target.current
            if target.previous.location == LOCATION_GRAVE:
                self.raise_single_event(target, None, EVENT_LEAVE_GRAVE, cur.reason_effect, cur.reason,
                                        move_player, 0, 0)
                self.raise_event(target, EVENT_LEAVE_GRAVE, cur.reason_effect, cur.reason, move_player, 0, 0)
            elif target.previous.location in (LOCATION_DECK, LOCATION_EXTRA):
                self.raise_single_event(target, None, EVENT_LEAVE_DECK, cur.reason_effect, cur.reason,
                                        move_player, 0, 0)
                self.raise_event(target, EVENT_LEAVE_DECK, cur.reason_effect, cur.reason, move_player, 0, 0)
            self.raise_single_event(target, None, EVENT_MOVE, cur.reason_effect, cur.reason,
                                    cur.reason_player, 0, 0)
            self.raise_event(target, EVENT_MOVE, cur.reason_effect, cur.reason, cur.reason_player, 0, 0)
            self.process_single_event()
            self.process_instant_event()
        self.adjust_disable_check_list()

    def _count_must_use_mzone(self: "Duel", target: Card, move_player: int) -> None:
        """An EFFECT_MUST_USE_MZONE whose zones include the one the card landed in
        uses up one of its counts."""
        eset = self.filter_player_effect(0, EFFECT_MUST_USE_MZONE, False)
        self.filter_player_effect(1, EFFECT_MUST_USE_MZONE, False, eset)
        eset = target.filter_effect(EFFECT_MUST_USE_MZONE, eset)
        for peffect in eset:
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and peffect.count_limit == 0:
                continue
            if peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET):
                value = peffect.get_value()
            else:
                lreason = (LOCATION_REASON_CONTROL if target.current.location == LOCATION_MZONE
                           else LOCATION_REASON_TOFIELD)
                value = peffect.get_value(target, target.current.controler, move_player, lreason)
            value = u32(value)
            if peffect.get_handler_player() != target.current.controler:
                value = value >> 16
            if value & (0x1 << target.current.sequence):
                peffect.dec_count()

    def _become_monster(self: "Duel", target: Card) -> None:
        """A card placed as a monster by EFFECT_PRE_MONSTER (a Trap Monster and the
        like) becomes a monster of that type; before Master Rule 2020 a Trap
        Monster keeps holding its Spell & Trap Zone."""
        teffect = target.is_affected_by_effect(EFFECT_PRE_MONSTER)
        if not teffect:
            return
        type_ = u32(int_value(teffect))
        if type_ & TYPE_TRAP:
            type_ |= TYPE_TRAPMONSTER | target.data.type
        target.reset(EFFECT_PRE_MONSTER, RESET_CODE)
        peffect = self.new_effect()
        peffect.owner = target
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = EFFECT_CHANGE_TYPE
        peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
        peffect.reset_flag = RESET_EVENT + 0x1fc0000
        peffect.value = TYPE_MONSTER | type_
        target.add_effect(peffect)
        if self.core.duel_rule <= NEW_MASTER_RULE and (type_ & TYPE_TRAPMONSTER):
            peffect = self.new_effect()
            peffect.owner = target
            peffect.type = EFFECT_TYPE_FIELD
            peffect.range = LOCATION_MZONE
            peffect.code = EFFECT_USE_EXTRA_SZONE
            peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
            peffect.reset_flag = RESET_EVENT + 0x1fe0000
            peffect.value = 1 + (0x10000 << target.previous.sequence)
            target.add_effect(peffect)

    # ====================================================================================
    # replacement effects ("... instead")
    # ====================================================================================

    def proc_operation_replace(self: "Duel", replace_effect: "Effect", targets: Group, target: Card,
                               is_destroy: bool | int) -> "Proc":
        """One card's own replacement effect (EFFECT_DESTROY/RELEASE/SEND_REPLACE on the card).

        Skipped once an earlier replacement applied (returns.ivalue[0]) or when
        it cannot be used.  Its target function decides; if it applies, the
        card leaves the action (unless the reason is a self-destruction) and
        the effect's count is used, then its operation runs.
        """
        core = self.core
        if self.returns.ivalue[0]:
            return
        if replace_effect.target is None:
            return
        e = _replace_event(targets, replace_effect.get_handler_player(), target)
        if not replace_effect.is_activateable(replace_effect.get_handler_player(), e):
            return
        self._start_replace(replace_effect, e, True)
        yield
        if self.returns.ivalue[0]:
            if not _self_destroy_related(target):
                targets.container.discard(target)
                restore_reason(target)
                if is_destroy:
                    core.destroy_canceled.add(target)
            replace_effect.dec_count(replace_effect.get_handler_player())
            self._replace_operation(replace_effect)
            yield
        _pop_replace_chain(self)
        core.solving_event.pop(0)

    def proc_operation_replace_group(self: "Duel", replace_effect: "Effect", targets: Group,
                                     is_destroy: bool | int) -> "Proc":
        """A field replacement effect offered for a whole group (reference step 5).

        Its event takes the reason of the group's first card.  If its target
        function applies, every card its value accepts leaves the action
        (unless the reason is a self-destruction); then its operation runs.
        """
        core = self.core
        if not targets.container:
            return
        hp = replace_effect.get_handler_player()
        e = _replace_event(targets, hp, targets.container.first())
        if not replace_effect.is_activateable(hp, e) or not replace_effect.value:
            return
        self._start_replace(replace_effect, e, True)
        yield
        if self.returns.ivalue[0]:
            for pcard in list(targets.container):
                if replace_effect.get_value(pcard) and not _self_destroy_related(pcard):
                    restore_reason(pcard)
                    if is_destroy:
                        core.destroy_canceled.add(pcard)
                    targets.container.discard(pcard)
            replace_effect.dec_count(replace_effect.get_handler_player())
            self._replace_operation(replace_effect)
            yield
        _pop_replace_chain(self)
        core.solving_event.pop(0)

    def proc_operation_replace_battle_card(self: "Duel", replace_effect: "Effect", targets: Group,
                                           target: Card, is_destroy: bool | int) -> "Proc":
        """One card's own destroy replacement during a battle destruction (reference step 10).

        Only the target function runs now; when it applies, its chain link is
        kept in core.desrep_chain and its operation runs later
        (proc_operation_replace_battle).
        """
        core = self.core
        if self.returns.ivalue[0]:
            return
        if replace_effect.target is None:
            return
        e = _replace_event(targets, replace_effect.get_handler_player(), target)
        if not replace_effect.is_activateable(replace_effect.get_handler_player(), e):
            return
        self._start_replace(replace_effect, e, False)
        yield
        if self.returns.ivalue[0]:
            targets.container.discard(target)
            restore_reason(target)
            if is_destroy:
                core.destroy_canceled.add(target)
            replace_effect.dec_count(replace_effect.get_handler_player())
            core.desrep_chain.append(core.continuous_chain[0])
        # the reference takes the link from the front of continuous_chain here
        core.continuous_chain.pop(0)

    def proc_operation_replace_battle_group(self: "Duel", replace_effect: "Effect", targets: Group,
                                            is_destroy: bool | int) -> "Proc":
        """A field destroy replacement for a group during a battle destruction (reference step 12).

        Like proc_operation_replace_group, but the operation is kept for later
        (core.desrep_chain, proc_operation_replace_battle).
        """
        core = self.core
        if not targets.container:
            return
        hp = replace_effect.get_handler_player()
        e = _replace_event(targets, hp, targets.container.first())
        if not replace_effect.is_activateable(hp, e) or not replace_effect.value:
            return
        self._start_replace(replace_effect, e, False)
        yield
        if self.returns.ivalue[0]:
            for pcard in list(targets.container):
                if replace_effect.get_value(pcard):
                    restore_reason(pcard)
                    if is_destroy:
                        core.destroy_canceled.add(pcard)
                    targets.container.discard(pcard)
            replace_effect.dec_count(replace_effect.get_handler_player())
            core.desrep_chain.append(core.continuous_chain[0])
        core.continuous_chain.pop(0)

    def proc_operation_replace_battle(self: "Duel") -> "Proc":
        """Run the operations of the destroy replacements chosen during a battle
        destruction, in the order they were chosen (reference step 15: core.desrep_chain)."""
        core = self.core
        while core.desrep_chain:
            core.continuous_chain.append(core.desrep_chain.pop(0))
            reffect = core.continuous_chain[-1].triggering_effect
            if reffect.operation:
                core.sub_solving_event.append(core.continuous_chain[-1].evt.copy())
                self.add_process(self.proc_execute_operation(reffect, reffect.get_handler_player()))
            yield
            _pop_replace_chain(self)

    def _start_replace(self: "Duel", replace_effect: "Effect", e: Event, solving: bool) -> None:
        """Put the replacement's link on continuous_chain and run its target function.

        ``solving``: also keep the event on core.solving_event for the
        operation (the non-battle entries; the reference pops it at the end).
        """
        core = self.core
        newchain = _new_replace_chain(replace_effect, e)
        if solving:
            core.solving_event.insert(0, e.copy())
        core.sub_solving_event.append(e.copy())
        core.continuous_chain.append(newchain)
        self.add_process(self.proc_execute_target(replace_effect, replace_effect.get_handler_player()))

    def _replace_operation(self: "Duel", replace_effect: "Effect") -> None:
        """Queue the replacement's operation, with the event being solved."""
        if not replace_effect.operation:
            return
        core = self.core
        core.sub_solving_event.append(core.solving_event[0].copy())
        self.add_process(self.proc_execute_operation(replace_effect, replace_effect.get_handler_player()))


# ----------------------------------------------------------------------------------------
# module helpers of the units above
# ----------------------------------------------------------------------------------------

class _Moved:
    """What proc_send_to's moves left behind (the reference's exargs)."""

    __slots__ = ("leave_field", "leave_grave", "leave_deck", "detach")

    def __init__(self) -> None:
        self.leave_field = CardSet()
        self.leave_grave = CardSet()
        self.leave_deck = CardSet()
        self.detach = CardSet()


def _clear_move_statuses(pcard: Card) -> None:
    pcard.set_status(STATUS_LEAVE_CONFIRMED, False)
    pcard.set_status(STATUS_FLIP_SUMMONING, False)
    pcard.set_status(STATUS_FLIP_SUMMON_DISABLED, False)


def _record_previous_stats(pcard: Card) -> None:
    """What a card leaving the field was: its current stats if face-up (a
    monster's level, rank, attribute, race, ATK/DEF too), else its printed
    data; and its added archetypes."""
    prev = pcard.previous
    if pcard.current.position & POS_FACEUP:
        prev.code = pcard.get_code()
        prev.code2 = pcard.get_another_code()
        prev.type = pcard.get_type()
        if pcard.current.location & LOCATION_MZONE:
            prev.level = pcard.get_level()
            prev.rank = pcard.get_rank()
            prev.attribute = pcard.get_attribute()
            prev.race = pcard.get_race()
            prev.attack, prev.defense = pcard.get_atk_def()
    else:
        codes = pcard.get_original_code_rule()
        prev.code = codes[0]
        prev.code2 = codes[1]
        data = pcard.data
        prev.type = data.type
        prev.level = data.level
        prev.rank = data.level  # sic: the reference records the level as rank here
        prev.attribute = data.attribute
        prev.race = data.race
        prev.attack = data.attack
        prev.defense = data.defense
    prev.setcode = tuple(u32(peffect.get_value(pcard)) & 0xFFFF
                         for peffect in pcard.filter_effect(EFFECT_ADD_SETCODE))


def _to_field_args(target: Card) -> tuple[int, int, int, int]:
    """(move_player, playerid, location, positions) packed in target.to_field_param.

    Read again at every step, as the reference does."""
    p = target.to_field_param
    return (p >> 24) & 0xFF, (p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF


def _is_field_zone_move(target: Card, location: int, zone: int) -> bool:
    """A Field Spell going to the Field Zone (zone bit 5 of the Spell & Trap Zones)."""
    return bool(location == LOCATION_SZONE and zone == 0x1 << 5
                and (target.data.type & TYPE_FIELD) and (target.data.type & TYPE_SPELL))


def _single_zone(zone: int) -> int | None:
    """The sequence when ``zone`` allows exactly one of the first 8 zones."""
    zone = u32(zone)
    if zone & u32(zone - 1) == 0:
        for seq in range(8):
            if zone & (0x1 << seq):
                return seq
    return None
