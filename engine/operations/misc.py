"""Other actions: negating and changing chain links, drawing, removing counters
and Xyz materials, activating an effect from a script, coins, dice,
rock-paper-scissors, discarding from the hand, sorting the top of a Deck and
negating an attack (reference: operations.cpp, and the three units the
reference writes inline in processor.cpp's dispatcher).
"""

from __future__ import annotations

from typing import Iterable, TYPE_CHECKING

from ..card import Card
from ..constants import (
    EFFECT_ATTACK_DISABLED, EFFECT_DISABLE_CHAIN, EFFECT_FLAG_CARD_TARGET, EFFECT_FLAG_DELAY,
    EFFECT_FLAG_INITIAL, EFFECT_OVERLAY_REMOVE_REPLACE, EFFECT_PUBLIC, EFFECT_RCOUNTER_REPLACE,
    EFFECT_TOSS_COIN_REPLACE, EFFECT_TOSS_DICE_REPLACE, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_QUICK_F,
    EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O,
    EFFECT_TYPE_XMATERIAL, EVENT_ATTACK_DISABLED, EVENT_DRAW, EVENT_FREE_CHAIN, EVENT_MOVE,
    EVENT_REMOVE_COUNTER, EVENT_TOSS_COIN, EVENT_TOSS_COIN_NEGATE, EVENT_TOSS_DICE,
    EVENT_TOSS_DICE_NEGATE, EVENT_TO_HAND, GLOBALFLAG_DECK_REVERSE_CHECK, LOCATION_DECK,
    LOCATION_EXTRA, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_SZONE, MASTER_RULE_2020,
    PHASE_END, PLAYER_NONE, POS_FACEDOWN, POS_FACEUP, POS_FACEUP_DEFENSE, REASON_DISCARD,
    REASON_DRAW, REASON_EFFECT, REASON_RULE, RESETS_STANDARD, RESET_CHAIN, RESET_EVENT,
    RESET_OPPO_TURN, RESET_PHASE, RESET_SELF_TURN, RESET_TOHAND, STATUS_ACTIVATE_DISABLED,
    STATUS_ATTACK_CANCELED, STATUS_CHAINING, STATUS_LEAVE_CONFIRMED, TIMING_DRAW, TIMING_TOHAND,
)
from ..core_constants import (
    CHAIN_DISABLE_ACTIVATE, CHAIN_DISABLE_EFFECT, EFFECT_TYPES_CHAIN_LINK, MAX_COIN_COUNT,
)
from ..event import Chain, Event
from ..group import CardSet, Group
from ..messages import (
    LocInfo, card_info, MsgBecomeTarget, MsgChainDisabled, MsgChainNegated, MsgConfirmCards,
    MsgConfirmDecktop, MsgConfirmExtratop, MsgDeckTop, MsgDraw, MsgHandRes, MsgMove,
    MsgRandomSelected, MsgRockPaperScissors, MsgTossCoin, MsgTossDice,
)
from .move import (add_owner_hint, deck_top_message, hint_selectmsg, i32, loc_info,
                   save_previous_place, selected_cards, set_operated, u32)
from ..wire import u32 as _u32

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..processor.driver import Proc


def _chain_index(duel: "Duel", chaincount: int) -> int | None:
    """The index in core.current_chain of chain link ``chaincount`` (a byte; out of
    range means the last link), or None when there is no chain."""
    n = len(duel.core.current_chain)
    if n == 0:
        return None
    chaincount &= 0xFF
    if chaincount > n or chaincount < 1:
        chaincount = n
    return chaincount - 1


def _choose_replacement(duel: "Duel", playerid: int, yes_no_desc: int) -> None:
    """Ask how to proceed among core.select_options / core.select_effects: nothing
    to ask for one option, a yes/no question when the only alternative to the
    normal way (None) is one replacement effect, else a list of options."""
    core = duel.core
    if len(core.select_options) == 1:
        duel.returns.ivalue[0] = 0
    elif core.select_effects[0] is None and len(core.select_effects) == 2:
        duel.add_process(duel.proc_select_effect_yes_no(playerid, yes_no_desc,
                                                        core.select_effects[1].handler))
    else:
        duel.add_process(duel.proc_select_option(playerid))


class MiscOperationsMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ====================================================================================
    # chain links
    # ====================================================================================

    def negate_chain(self: "Duel", chaincount: int) -> bool:
        """Negate the activation of chain link ``chaincount`` (Duel.NegateActivation).

        Possible once per link, when the link may be negated and its card is
        not protected (a card tied to the link must be affected by the
        negating effect).  A negated Spell/Trap card activated on the field
        will leave it.  MSG_CHAIN_NEGATED.  A card activated from the Deck (or
        face-down from the Extra Deck, Master Rule 2020) is no longer tied to
        the link.
        """
        core = self.core
        idx = _chain_index(self, chaincount)
        if idx is None:
            return False
        pchain = core.current_chain[idx]
        phandler = pchain.triggering_effect.get_handler()
        if (pchain.flag & CHAIN_DISABLE_ACTIVATE) or not self.is_chain_negatable(pchain.chain_count):
            return False
        if phandler.is_has_relation(pchain) and not phandler.is_affect_by_effect(core.reason_effect):
            return False
        pchain.flag |= CHAIN_DISABLE_ACTIVATE
        pchain.disable_reason = core.reason_effect
        pchain.disable_player = core.reason_player
        if ((pchain.triggering_effect.type & EFFECT_TYPE_ACTIVATE) and phandler.is_has_relation(pchain)
                and phandler.current.location == LOCATION_SZONE):
            phandler.set_status(STATUS_LEAVE_CONFIRMED, True)
            phandler.set_status(STATUS_ACTIVATE_DISABLED, True)
        self.emit(MsgChainNegated(chain_count=idx + 1))
        self._release_link_from_deck(pchain, phandler)
        return True

    def disable_chain(self: "Duel", chaincount: int, forced: bool | int = False) -> bool:
        """Negate the effect of chain link ``chaincount`` (Duel.NegateEffect).

        Same conditions as negate_chain, for the effect; MSG_CHAIN_DISABLED.
        ``forced`` is accepted for the reference's signature and not used.
        """
        core = self.core
        idx = _chain_index(self, chaincount)
        if idx is None:
            return False
        pchain = core.current_chain[idx]
        phandler = pchain.triggering_effect.get_handler()
        if (pchain.flag & CHAIN_DISABLE_EFFECT) or not self.is_chain_disablable(pchain.chain_count):
            return False
        if phandler.is_has_relation(pchain) and not phandler.is_affect_by_effect(core.reason_effect):
            return False
        pchain.flag |= CHAIN_DISABLE_EFFECT
        pchain.disable_reason = core.reason_effect
        pchain.disable_player = core.reason_player
        self.emit(MsgChainDisabled(chain_count=idx + 1))
        self._release_link_from_deck(pchain, phandler)
        return True

    def _release_link_from_deck(self: "Duel", pchain: Chain, phandler: Card) -> None:
        if (pchain.triggering_location == LOCATION_DECK
                or (self.core.duel_rule >= MASTER_RULE_2020
                    and pchain.triggering_location == LOCATION_EXTRA
                    and (pchain.triggering_position & POS_FACEDOWN))):
            phandler.release_relation(pchain)

    def change_chain_effect(self: "Duel", chaincount: int, rep_op: object) -> None:
        """Replace the operation of chain link ``chaincount`` (Duel.ChangeChainOperation).

        A Spell/Trap card activated on the field will leave it afterwards.
        """
        idx = _chain_index(self, chaincount)
        if idx is None:
            return
        pchain = self.core.current_chain[idx]
        pchain.replace_op = rep_op
        te = pchain.triggering_effect
        if (te.type & EFFECT_TYPE_ACTIVATE) and te.handler.current.location == LOCATION_SZONE:
            te.handler.set_status(STATUS_LEAVE_CONFIRMED, True)

    def change_target(self: "Duel", chaincount: int, targets: Group) -> None:
        """Make ``targets`` the targets of chain link ``chaincount`` (Duel.ChangeTargetCard).

        Only a link that had targets.  The old targets lose their tie to the
        link, the new ones get it, and for a targeting effect each new target
        is shown (one MSG_BECOME_TARGET per card).
        """
        idx = _chain_index(self, chaincount)
        if idx is None:
            return
        pchain = self.core.current_chain[idx]
        ot = pchain.target_cards
        if ot is None:
            return
        te = pchain.triggering_effect
        for pcard in ot.container:
            pcard.release_relation(pchain)
        ot.container = targets.container.copy()
        for pcard in ot.container:
            pcard.create_relation(pchain)
        if te.is_flag(EFFECT_FLAG_CARD_TARGET):
            for pcard in ot.container:
                self.emit(MsgBecomeTarget(cards=(loc_info(pcard.get_info_location()),)))

    def change_target_player(self: "Duel", chaincount: int, playerid: int) -> None:
        """Set the target player of chain link ``chaincount`` (Duel.ChangeTargetPlayer)."""
        idx = _chain_index(self, chaincount)
        if idx is not None:
            self.core.current_chain[idx].target_player = playerid & 0xFF

    def change_target_param(self: "Duel", chaincount: int, param: int) -> None:
        """Set the target parameter of chain link ``chaincount`` (Duel.ChangeTargetParam)."""
        idx = _chain_index(self, chaincount)
        if idx is not None:
            self.core.current_chain[idx].target_param = i32(param)

    # ====================================================================================
    # counters and Xyz materials
    # ====================================================================================

    def remove_counter(self: "Duel", reason: int, pcard: Card | None, rplayer: int, s: int, o: int,
                       countertype: int, count: int) -> None:
        """``rplayer`` removes ``count`` counters of ``countertype`` from ``pcard``, or
        (no card) from the cards on the sides ``s``/``o`` allow."""
        self.add_process(self.proc_remove_counter(reason, pcard, rplayer & 0xFF, s & 0xFF, o & 0xFF,
                                                  countertype & 0xFFFF, count & 0xFFFF))

    def remove_overlay_card(self: "Duel", reason: int, pcard: Card | None, rplayer: int, s: int, o: int,
                            min_: int, max_: int) -> None:
        """``rplayer`` detaches between ``min_`` and ``max_`` Xyz materials from ``pcard``,
        or (no card) from the monsters on the sides ``s``/``o`` allow."""
        self.add_process(self.proc_remove_overlay_card(reason, pcard, rplayer & 0xFF, s & 0xFF, o & 0xFF,
                                                       min_ & 0xFFFF, max_ & 0xFFFF))

    def proc_remove_counter(self: "Duel", reason: int, pcard: Card | None, rplayer: int, s: int, o: int,
                            countertype: int, count: int) -> "Proc":
        """Remove counters, or use an EFFECT_RCOUNTER_REPLACE (+ counter type) instead.

        The normal way is possible when there are enough counters (on the
        card) or any (on the field).  From a card, the script raises the
        event itself; from the field the player picks how many from each card
        and EVENT_REMOVE_COUNTER (+ type) is raised.  returns.ivalue[0]: 1, or
        0 when no way was possible.
        """
        core = self.core
        core.select_options.clear()
        core.select_effects.clear()
        if ((pcard is not None and pcard.get_counter(countertype) >= count)
                or (pcard is None and self.get_field_counter(rplayer, s, o, countertype))):
            core.select_options.append(10)
            core.select_effects.append(None)
        e = Event(event_cards=None, event_player=rplayer, event_value=count, reason=reason,
                  reason_effect=core.reason_effect, reason_player=rplayer)
        for peffect in self.effects.continuous_effect.equal_range(EFFECT_RCOUNTER_REPLACE + countertype):
            if peffect.is_activateable(peffect.get_handler_player(), e):
                core.select_options.append(peffect.description)
                core.select_effects.append(peffect)
        self.returns.ivalue[0] = 0
        if not core.select_options:
            return
        _choose_replacement(self, rplayer, 220)
        yield
        peffect = core.select_effects[self.returns.ivalue[0]]
        if peffect is not None:
            e = Event(event_cards=None, event_player=rplayer, event_value=count, reason=reason,
                      reason_effect=core.reason_effect, reason_player=rplayer)
            self.solve_continuous(rplayer, peffect, e)
            yield
        elif pcard is not None:
            self.returns.ivalue[0] = int(pcard.remove_counter(countertype, count))
        else:
            self.add_process(self.proc_select_counter(rplayer, countertype, count, s, o))
            yield
            for i, c in enumerate(core.select_cards):
                n = self.returns.svalue[i]
                if n > 0:
                    c.remove_counter(countertype, n)
            self.raise_event(None, EVENT_REMOVE_COUNTER + countertype, core.reason_effect, reason,
                             rplayer, rplayer, count)
            self.process_instant_event()
            yield
        self.returns.ivalue[0] = 1

    def proc_remove_overlay_card(self: "Duel", reason: int, pcard: Card | None, rplayer: int, s: int,
                                 o: int, min_: int, max_: int) -> "Proc":
        """Detach Xyz materials, or use an EFFECT_OVERLAY_REMOVE_REPLACE.

        The normal way is possible with at least ``min_`` materials.  A
        replacement reports how many materials it stood for (its operation's
        result); the player then detaches the rest (cancelable when nothing
        more is required).  The materials chosen go to the GY.
        returns.ivalue[0]: how many were detached, counting the replaced ones.
        """
        core = self.core
        core.select_options.clear()
        core.select_effects.clear()
        if ((pcard is not None and len(pcard.xyz_materials) >= min_)
                or (pcard is None and self.get_overlay_count(rplayer, s, o) >= min_)):
            core.select_options.append(12)
            core.select_effects.append(None)
        e = Event(event_cards=None, event_player=rplayer, event_value=min_, reason=reason,
                  reason_effect=core.reason_effect, reason_player=rplayer)
        for peffect in self.effects.continuous_effect.equal_range(EFFECT_OVERLAY_REMOVE_REPLACE):
            if peffect.is_activateable(peffect.get_handler_player(), e):
                core.select_options.append(peffect.description)
                core.select_effects.append(peffect)
        self.returns.ivalue[0] = 0
        if not core.select_options:
            return
        _choose_replacement(self, rplayer, 219)
        yield
        replace_effect = core.select_effects[self.returns.ivalue[0]]
        if replace_effect is not None:
            e = Event(event_cards=None, event_player=rplayer, event_value=u32(min_ + (max_ << 16)),
                      reason=reason, reason_effect=core.reason_effect, reason_player=rplayer)
            self.solve_continuous(rplayer, replace_effect, e)
        yield
        cancelable = False
        replace_count = 0
        if replace_effect is not None:
            replace_count = self.returns.ivalue[0]
            if replace_count >= max_:
                return
            # min_ and max_ are 16-bit in the reference: a replacement worth more
            # than ``min_`` wraps ``min_`` around instead of making it 0
            min_ = (min_ - replace_count) & 0xFFFF
            max_ = (max_ - replace_count) & 0xFFFF
            if min_ == 0:
                cancelable = True
        if pcard is not None:
            core.select_cards = list(pcard.xyz_materials)
        else:
            core.select_cards = list(self.get_overlay_group(rplayer, s, o))
        hint_selectmsg(self, rplayer, 519)
        self.add_process(self.proc_select_card(rplayer, cancelable, min_ & 0xFF, max_ & 0xFF))
        yield
        cset = CardSet(selected_cards(self))
        # run in place: the reference queues the send as the only unit of this step and
        # reads its count in the next
        ng = self._send_to_group(cset, core.reason_effect, reason, rplayer, PLAYER_NONE,
                                 LOCATION_GRAVE, 0, POS_FACEUP)
        sent = yield from self.proc_send_to(ng, core.reason_effect, reason, rplayer)
        self.returns.ivalue[0] = i32(sent + replace_count)

    # ====================================================================================
    # draw
    # ====================================================================================

    def draw(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
             playerid: int, count: int) -> None:
        """``playerid`` draws ``count`` cards (players are 4-bit fields of the reference's unit)."""
        self.add_process(self.proc_draw(reason_effect, reason, reason_player & 0xF, playerid & 0xF,
                                        i32(count)))

    def proc_draw(self: "Duel", reason_effect: "Effect | None", reason: int, reason_player: int,
                  playerid: int, count: int) -> "Proc":
        """Draw cards from the top of the Deck.

        Nothing unless the rules draw or the player may draw.  Running out of
        cards stops the draw and marks the player as having overdrawn (the
        rules' draw then checks for a loss at once).  Drawn cards are face-down
        unless EFFECT_PUBLIC.  MSG_DRAW (in draw order; the Deck's new top first
        when visible); with a reversed Deck the opponent is shown the cards and
        the hand is shuffled.  EVENT_DRAW, EVENT_TO_HAND and EVENT_MOVE, each
        card's own first.  returns.ivalue[0]: the number of cards drawn.
        """
        core = self.core
        if not (reason & REASON_RULE) and not self.is_player_can_draw(playerid):
            self.returns.ivalue[0] = 0
            return
        if count == 0:
            self.returns.ivalue[0] = 0
            return
        deck = self.player[playerid].list_main
        core.overdraw[playerid] = False
        cv: list[Card] = []
        public_count = 0
        for _ in range(count):
            if not deck:
                core.overdraw[playerid] = True
                break
            pcard = deck[-1]
            pcard.enable_field_effect(False)
            pcard.cancel_field_effect()
            deck.pop()
            save_previous_place(pcard)
            pcard.current.controler = PLAYER_NONE
            pcard.current.reason_effect = reason_effect
            pcard.current.reason_player = reason_player
            pcard.current.reason = reason | REASON_DRAW
            pcard.current.location = 0
            self.add_card(playerid, pcard, LOCATION_HAND, 0)
            pcard.enable_field_effect(True)
            pub = pcard.is_affected_by_effect(EFFECT_PUBLIC)
            if pub:
                public_count += 1
            pcard.current.position = POS_FACEUP if pub else POS_FACEDOWN
            cv.append(pcard)
            pcard.reset(RESET_TOHAND, RESET_EVENT)
        core.hint_timing[playerid] |= TIMING_DRAW + TIMING_TOHAND
        self.adjust_instant()
        if core.overdraw[playerid] and (reason & REASON_RULE):
            self.adjust_all()
        drawed_set = CardSet(cv)
        if cv:
            self._draw_messages(playerid, cv, drawed_set, public_count)
            for pcard in drawed_set:
                add_owner_hint(self, pcard)
                for code in (EVENT_DRAW, EVENT_TO_HAND, EVENT_MOVE):
                    self.raise_single_event(pcard, None, code, reason_effect, reason, reason_player,
                                            playerid, 0)
            self.process_single_event()
            for code in (EVENT_DRAW, EVENT_TO_HAND, EVENT_MOVE):
                self.raise_event(drawed_set, code, reason_effect, reason, reason_player, playerid, len(cv))
            self.process_instant_event()
        yield
        set_operated(self, drawed_set)
        self.returns.ivalue[0] = len(core.operated_set)

    def _draw_messages(self: "Duel", playerid: int, cv: list[Card], drawed_set: CardSet,
                       public_count: int) -> None:
        core = self.core
        deck = self.player[playerid].list_main
        if (core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK) and deck:
            deck_top_message(self, playerid, len(cv), deck[-1])
        self.emit(MsgDraw(player=playerid, codes=tuple(
            u32(c.data.code | (0x80000000 if c.is_position(POS_FACEUP) else 0)) for c in cv)))
        if core.deck_reversed and public_count < len(cv):
            self.emit(MsgConfirmCards(player=1 - playerid, skip_panel=0,
                                      cards=tuple(card_info(c) for c in drawed_set)))
            self.shuffle(playerid, LOCATION_HAND)

    # ====================================================================================
    # activating an effect from a script (Duel.Activate)
    # ====================================================================================

    def proc_activate_effect(self: "Duel", peffect: "Effect") -> "Proc":
        """Activate ``peffect`` as a new chain (Duel.Activate) if it can be activated now.

        Its controller activates it; the opponent may respond; then the chain
        resolves.
        """
        core = self.core
        phandler = peffect.get_handler()
        playerid = phandler.current.controler
        test_event = Event(event_code=EVENT_FREE_CHAIN)
        if not peffect.is_activateable(playerid, test_event):
            return
        newchain = Chain()
        newchain.flag = 0
        newchain.chain_id = self.infos.field_id & 0xFFFF  # the reference's chain_id is 16-bit
        self.infos.field_id += 1
        newchain.evt = Event(event_code=peffect.code, event_cards=None, reason_effect=None, reason=0,
                             reason_player=PLAYER_NONE, event_player=PLAYER_NONE, event_value=0)
        newchain.triggering_effect = peffect
        newchain.set_triggering_state(phandler)
        newchain.triggering_player = playerid
        core.new_chains.append(newchain)
        phandler.set_status(STATUS_CHAINING, True)
        peffect.dec_count(playerid)
        self.add_process(self.proc_add_chain())
        self.add_process(self.proc_quick_effect(False, 1 - playerid))
        self.infos.priorities[0] = 0
        self.infos.priorities[1] = 0
        yield
        self.release_chain_limits()
        for ch in core.current_chain:
            ch.triggering_effect.get_handler().set_status(STATUS_CHAINING, False)
        self.add_process(self.proc_solve_chain(False, 0))

    # ====================================================================================
    # coins, dice, rock-paper-scissors
    # ====================================================================================

    def proc_toss_coin(self: "Duel", reason_effect: "Effect | None", reason_player: int, playerid: int,
                       count: int) -> "Proc":
        """Toss ``count`` coins (at most 20), or with -1 toss until tails (at most 20).

        A usable EFFECT_TOSS_COIN_REPLACE is solved instead (its operation
        sets the results).  Otherwise MSG_TOSS_COIN (1 = heads),
        EVENT_TOSS_COIN_NEGATE, then EVENT_TOSS_COIN.
        """
        core = self.core
        reason_player &= 0xFF
        playerid &= 0xFF
        count = i32(count)
        if count == 0 or count < -1:
            return
        if count > MAX_COIN_COUNT:
            count = MAX_COIN_COUNT
        e = Event(event_cards=None, event_player=playerid, event_value=u32(count), reason=0,
                  reason_effect=reason_effect, reason_player=reason_player)
        for i in range(MAX_COIN_COUNT):
            core.coin_result[i] = 0
        peffect = self._first_replacement(EFFECT_TOSS_COIN_REPLACE, e)
        if peffect is not None:
            # its operation calls Duel.SetCoinResult if needed
            self.solve_continuous(peffect.get_handler_player(), peffect, e)
            return
        if count > 0:
            core.coin_count = count
            for i in range(count):
                core.coin_result[i] = self.get_next_integer(0, 1)
        else:
            core.coin_count = 0
            for i in range(MAX_COIN_COUNT):
                core.coin_result[i] = self.get_next_integer(0, 1)
                if not core.coin_result[i]:
                    core.coin_count = i + 1
                    break
            if not core.coin_count:
                core.coin_count = MAX_COIN_COUNT
        self.emit(MsgTossCoin(player=playerid, results=tuple(core.coin_result[:core.coin_count])))
        self.raise_event(None, EVENT_TOSS_COIN_NEGATE, reason_effect, 0, reason_player, playerid, u32(count))
        self.process_instant_event()
        yield
        self.raise_event(None, EVENT_TOSS_COIN, reason_effect, 0, reason_player, playerid, core.coin_count)
        self.process_instant_event()

    def proc_toss_dice(self: "Duel", reason_effect: "Effect | None", reason_player: int, playerid: int,
                       count1: int, count2: int) -> "Proc":
        """Roll ``count1`` dice for ``playerid`` and ``count2`` for the other player.

        A usable EFFECT_TOSS_DICE_REPLACE is solved instead.  Otherwise one
        MSG_TOSS_DICE per player who rolls, EVENT_TOSS_DICE_NEGATE, then
        EVENT_TOSS_DICE (value: count1 + count2 << 16).
        """
        core = self.core
        reason_player &= 0xFF
        playerid &= 0xFF
        count1 &= 0xFF
        count2 &= 0xFF
        value = count1 + (count2 << 16)
        e = Event(event_cards=None, event_player=playerid, event_value=value, reason=0,
                  reason_effect=reason_effect, reason_player=reason_player)
        for i in range(5):
            core.dice_result[i] = 0
        peffect = self._first_replacement(EFFECT_TOSS_DICE_REPLACE, e)
        if peffect is not None:
            # its operation calls Duel.SetDiceResult if needed
            self.solve_continuous(peffect.get_handler_player(), peffect, e)
            return
        rolls1 = [self.get_next_integer(1, 6) for _ in range(count1)]
        self.emit(MsgTossDice(player=playerid, results=tuple(rolls1)))
        rolls2 = []
        if count2 > 0:
            rolls2 = [self.get_next_integer(1, 6) for _ in range(count2)]
            self.emit(MsgTossDice(player=1 - playerid, results=tuple(rolls2)))
        # Duel.TossDice allows five dice in all; the result array has five slots
        for i, r in enumerate(rolls1 + rolls2):
            if i < len(core.dice_result):
                core.dice_result[i] = r
        self.raise_event(None, EVENT_TOSS_DICE_NEGATE, reason_effect, 0, reason_player, playerid, value)
        self.process_instant_event()
        yield
        self.raise_event(None, EVENT_TOSS_DICE, reason_effect, 0, reason_player, playerid, value)
        self.process_instant_event()

    def _first_replacement(self: "Duel", code: int, e: Event) -> "Effect | None":
        """The first usable continuous effect with ``code`` (registration order)."""
        for pe in self.effects.continuous_effect.equal_range(code):
            if pe.is_activateable(pe.get_handler_player(), e):
                return pe
        return None

    def proc_rock_paper_scissors(self: "Duel", repeat: bool | int = False) -> "Proc":
        """Rock-paper-scissors: player 0 then player 1 choose (1 scissors, 2 rock, 3 paper).

        MSG_HAND_RES shows both hands.  A draw is replayed when ``repeat``.
        returns.ivalue[0]: the winner, or PLAYER_NONE for a draw.  The answers
        are not checked (the reference reads them as they come).
        """
        while True:
            yield from self._wait_answer(MsgRockPaperScissors(player=0))
            hand0 = self.returns.ivalue[0]
            yield from self._wait_answer(MsgRockPaperScissors(player=1))
            hand1 = self.returns.ivalue[0]
            self.emit(MsgHandRes(result=(hand0 + (hand1 << 2)) & 0xFF))
            if hand0 == hand1:
                if repeat:
                    continue
                self.returns.ivalue[0] = PLAYER_NONE
            elif (hand0, hand1) in ((1, 2), (2, 3), (3, 1)):
                self.returns.ivalue[0] = 1
            else:
                self.returns.ivalue[0] = 0
            return

    # ====================================================================================
    # the three units the reference writes inside its dispatcher
    # ====================================================================================

    def proc_discard_hand(self: "Duel", playerid: int, min_: int, max_: int, reason: int) -> "Proc":
        """``playerid`` discards between ``min_`` and ``max_`` of core.select_cards (Duel.DiscardHand).

        The caller fills core.select_cards.  The hint says "discard" (501)
        for REASON_DISCARD, else "send to the GY" (504).  The cards go to the
        GY with core.reason_effect/reason_player.  returns.ivalue[0]: how many
        (from proc_send_to), 0 when none was chosen.
        """
        core = self.core
        playerid &= 0xFF
        hint_selectmsg(self, playerid, 501 if (reason & REASON_DISCARD) else 504)
        self.add_process(self.proc_select_card(playerid, False, min_ & 0xFF, max_ & 0xFF))
        yield
        cset = CardSet(selected_cards(self))
        if cset:
            self.send_to(cset, core.reason_effect, reason, core.reason_player, playerid,
                         LOCATION_GRAVE, 0, POS_FACEUP)
        else:
            self.returns.ivalue[0] = 0
        yield

    def proc_sort_deck(self: "Duel", sort_player: int, target_player: int, count: int) -> "Proc":
        """``sort_player`` puts the top ``count`` cards of ``target_player``'s Deck back in
        any order (Duel.SortDecktop).

        The cards are offered top first; the answer gives each card's new
        place from the top (0xff: keep the order).  Each of them is then
        reported with a hidden MSG_MOVE (code 0, same place).
        """
        core = self.core
        sort_player &= 0xFF
        target_player &= 0xFF
        deck = self.player[target_player].list_main
        count = min(count & 0xFF, len(deck))
        core.select_cards = deck[len(deck) - count:][::-1]
        self.add_process(self.proc_sort_card(sort_player))
        yield
        if self.returns.bvalue[0] != 0xFF:
            tc: list[Card | None] = [None] * 256
            del deck[len(deck) - count:]
            for i in range(count):
                tc[self.returns.bvalue[i]] = core.select_cards[i]
            for i in range(count):
                deck.append(tc[count - 1 - i])
            self.reset_sequence(target_player, LOCATION_DECK)
            for pcard in deck[len(deck) - count:][::-1]:
                info = loc_info(pcard.get_info_location())
                self.emit(MsgMove(code=0, previous=info, current=info, reason=REASON_EFFECT))
        if (core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK) and count > 0:
            deck_top_message(self, target_player, 0, deck[-1])

    def proc_attack_disable(self: "Duel") -> "Proc":
        """Negate the current attack (Duel.NegateAttack).

        Only for an attack still going on with the same attacker, outside the
        effects-in-damage-calculation window, by an effect that affects the
        attacker.  The attacker gets EFFECT_ATTACK_DISABLED and the attack is
        cancelled; EVENT_ATTACK_DISABLED.  returns.ivalue[0]: 1 if negated.
        """
        core = self.core
        attacker = core.attacker
        if (attacker is None
                or core.effect_damage_step != 0
                or attacker.fieldid_r != core.pre_field[0]
                or attacker.current.location != LOCATION_MZONE
                or not attacker.is_capable_attack()
                or not attacker.is_affect_by_effect(core.reason_effect)):
            self.returns.ivalue[0] = 0
            return
        peffect = self.new_effect()
        peffect.code = EFFECT_ATTACK_DISABLED
        peffect.type = EFFECT_TYPE_SINGLE
        attacker.add_effect(peffect)
        attacker.set_status(STATUS_ATTACK_CANCELED, True)
        self.raise_event(attacker, EVENT_ATTACK_DISABLED, core.reason_effect, 0, core.reason_player,
                         PLAYER_NONE, 0)
        self.process_instant_event()
        yield
        self.returns.ivalue[0] = 1

    # ===== showing cards (Duel.ConfirmDecktop, ConfirmExtratop, ConfirmCards) and the wait unit ===

    def proc_wait(self: "Duel") -> "Proc":
        """PROCESSOR_WAIT: the reference hands control back to the host here (after
        Duel.ConfirmCards / ConfirmDecktop / ConfirmExtratop) without asking
        anything, then goes on.  The host loop has nothing to answer, so the unit
        only marks the point in the queue where the script resumes."""
        return
        yield  # pragma: no cover -- makes this a generator

    def confirm_decktop(self: "Duel", playerid: int, count: int) -> None:
        """Duel.ConfirmDecktop: show the top ``count`` cards of ``playerid``'s Deck (top first).

        With the reversed-Deck check on (GLOBALFLAG_DECK_REVERSE_CHECK) and the
        Deck reversed, the card below the shown ones is announced first
        (MSG_DECK_TOP).  Then the host gets control back (PROCESSOR_WAIT).
        """
        deck = self.player[playerid].list_main
        count &= 0xFFFFFFFF
        if count >= len(deck):
            count = len(deck)
        elif (self.core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK) and self.core.deck_reversed:
            pcard = deck[len(deck) - 1 - count]
            code = pcard.data.code
            if pcard.current.position == POS_FACEUP_DEFENSE:
                code |= 0x80000000
            self.emit(MsgDeckTop(player=playerid, sequence=count & 0xFF, code=_u32(code)))
        shown = deck[len(deck) - count:][::-1] if count else []
        self.emit(MsgConfirmDecktop(player=playerid, cards=tuple(card_info(c) for c in shown)))
        self.add_process(self.proc_wait())

    def confirm_extratop(self: "Duel", playerid: int, count: int) -> None:
        """Duel.ConfirmExtratop: show the top ``count`` face-down cards of ``playerid``'s
        Extra Deck (the face-up Pendulums lie on top and are skipped)."""
        pl = self.player[playerid]
        extra = pl.list_extra
        facedown = len(extra) - pl.extra_p_count
        count &= 0xFFFFFFFF
        if count >= facedown:
            count = facedown
        end = len(extra) - pl.extra_p_count
        shown = extra[max(0, end - count):end][::-1] if count > 0 else []
        self.emit(MsgConfirmExtratop(player=playerid, cards=tuple(card_info(c) for c in shown)))
        self.add_process(self.proc_wait())

    def confirm_cards(self: "Duel", playerid: int, cards: "Card | Iterable[Card]",
                      skip_panel: bool | int = False) -> None:
        """Duel.ConfirmCards: show cards to ``playerid`` (MSG_CONFIRM_CARDS, in card order
        for a group), then give the host control (PROCESSOR_WAIT)."""
        if isinstance(cards, Card):
            lst = [cards]
        else:
            lst = list(cards)
        self.emit(MsgConfirmCards(player=playerid, skip_panel=1 if skip_panel else 0,
                                  cards=tuple(card_info(c) for c in lst)))
        self.add_process(self.proc_wait())

    # ===== negating the effects a card activated (Duel.NegateRelatedChain) ============

    def negate_related_chain(self: "Duel", pcard: Card, reset_flag: int) -> None:
        """Duel.NegateRelatedChain: negate the effects ``pcard`` activated in the current chain
        (only with at least two links, and if the reason effect reaches it).

        Each such link still related to the card gets an EFFECT_DISABLE_CHAIN on
        the card, reset with the chain (and ``reset_flag``).
        """
        core = self.core
        if len(core.current_chain) < 2:
            return
        if not pcard.is_affect_by_effect(core.reason_effect):
            return
        for ch in reversed(list(core.current_chain)):
            if ch.triggering_effect.get_handler() is pcard and pcard.is_has_relation(ch):
                negeff = self.new_effect()
                negeff.owner = core.reason_effect.get_handler()
                negeff.type = EFFECT_TYPE_SINGLE
                negeff.code = EFFECT_DISABLE_CHAIN
                negeff.value = ch.chain_id
                negeff.reset_flag = _u32(RESET_CHAIN | RESET_EVENT | reset_flag)
                pcard.add_effect(negeff)

    # ===== a random pick from a group (Group.RandomSelect) ============================

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

    # ===== copying monster effects (Duel.MajesticCopy) ================================

    def majestic_copy(self: "Duel", pcard: "Card", copy_target: "Card") -> None:
        """Duel.MajesticCopy: ``pcard`` gains the monster effects of ``copy_target`` that start
        chain links, until the End Phase.

        Each of the target's initial effects that is a trigger, quick or
        ignition effect (not a card activation, not an Xyz-material effect) and
        applies from the Monster Zone is cloned: owned by ``pcard``, no longer
        initial, no effect owner, reset at the End Phase (or when ``pcard``
        leaves), its count limit refilled.  Mandatory triggers become optional
        (and "when ... you can"), mandatory quick effects optional.
        """
        for peffect in list(copy_target.initial_effect):
            if not (peffect.type & (EFFECT_TYPES_CHAIN_LINK & ~EFFECT_TYPE_ACTIVATE)):
                continue
            if peffect.type & EFFECT_TYPE_XMATERIAL:
                continue
            if not peffect.is_monster_effect():
                continue
            ceffect = peffect.clone()
            ceffect.owner = pcard
            ceffect.flag[0] &= ~EFFECT_FLAG_INITIAL
            ceffect.effect_owner = PLAYER_NONE
            ceffect.reset_flag = (RESET_EVENT | RESETS_STANDARD | RESET_PHASE | PHASE_END
                                  | RESET_SELF_TURN | RESET_OPPO_TURN)
            ceffect.reset_count = 1
            ceffect.recharge()
            if ceffect.type & EFFECT_TYPE_TRIGGER_F:
                ceffect.type &= ~EFFECT_TYPE_TRIGGER_F
                ceffect.type |= EFFECT_TYPE_TRIGGER_O
                ceffect.flag[0] |= EFFECT_FLAG_DELAY
            if ceffect.type & EFFECT_TYPE_QUICK_F:
                ceffect.type &= ~EFFECT_TYPE_QUICK_F
                ceffect.type |= EFFECT_TYPE_QUICK_O
            pcard.add_effect(ceffect)
