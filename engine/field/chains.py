"""Questions about the chain: can link N be negated, is it disabled, which triggers may be used.

Reference: field.cpp (is_chain_negatable ... check_spself_from_hand_trigger).
A chain count of 0 means "the newest link".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..constants import (
    CHAININFO_CHAIN_COUNT, CHAININFO_CHAIN_ID, CHAININFO_DISABLE_PLAYER, CHAININFO_DISABLE_REASON,
    CHAININFO_EXTTYPE, CHAININFO_TARGET_CARDS, CHAININFO_TARGET_PARAM, CHAININFO_TARGET_PLAYER,
    CHAININFO_TRIGGERING_ATTACK, CHAININFO_TRIGGERING_ATTRIBUTE, CHAININFO_TRIGGERING_CODE,
    CHAININFO_TRIGGERING_CODE2, CHAININFO_TRIGGERING_CONTROLER, CHAININFO_TRIGGERING_DEFENSE,
    CHAININFO_TRIGGERING_EFFECT, CHAININFO_TRIGGERING_LEVEL, CHAININFO_TRIGGERING_LOCATION,
    CHAININFO_TRIGGERING_PLAYER, CHAININFO_TRIGGERING_POSITION, CHAININFO_TRIGGERING_RACE,
    CHAININFO_TRIGGERING_RANK, CHAININFO_TRIGGERING_SEQUENCE, CHAININFO_TYPE,
    EFFECT_CANNOT_DISEFFECT, EFFECT_CANNOT_INACTIVATE, EFFECT_DISABLE_CHAIN,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CANNOT_INACTIVATE, EFFECT_FLAG_CARD_TARGET,
    EFFECT_FLAG_FIELD_ONLY, EFFECT_FLAG_SINGLE_RANGE, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F,
    EFFECT_TYPE_TRIGGER_O, EVENT_FREE_CHAIN, EVENT_PHASE, LOCATION_DECK, LOCATION_EXTRA,
    LOCATION_HAND, MASTER_RULE_2020, POS_FACEDOWN, POS_FACEUP, RESET_CHAIN, STATUS_FORBIDDEN,
    TYPE_CONTINUOUS, TYPE_MONSTER, TYPE_SPELL, TYPE_TRAP,
)
from ..core_constants import (
    CHAIN_DISABLE_EFFECT, CHAIN_HAND_TRIGGER, EFFECT_STATUS_SPSELF, GTYPE_READ_ONLY,
)
from ..event import Chain, Event, OpTarget
from ..messages import LocInfo, MsgBecomeTarget
from ..group import Group
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from ..effect import Effect

def _become_target(duel: "Duel", pcard: "Card") -> None:
    """MSG_BECOME_TARGET for one card (the reference always writes one card per message)."""
    duel.emit(MsgBecomeTarget(cards=(LocInfo.from_raw(pcard.get_info_location() & 0xFFFFFFFF),)))


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

    # ----- what scripts read of a chain link (Duel.GetChainInfo, GetTargetsRelateToChain) ---

    def chain_info(self: "Duel", ch: "Chain", flag: int) -> Any:
        """One value of Duel.GetChainInfo: what CHAININFO_* ``flag`` asks about link ``ch``
        (None for an unknown flag)."""
        st = ch.triggering_state
        if flag == CHAININFO_CHAIN_COUNT:
            return ch.chain_count
        if flag == CHAININFO_TRIGGERING_EFFECT:
            return ch.triggering_effect
        if flag == CHAININFO_TRIGGERING_PLAYER:
            return ch.triggering_player
        if flag == CHAININFO_TRIGGERING_CONTROLER:
            return ch.triggering_controler
        if flag == CHAININFO_TRIGGERING_LOCATION:
            return ch.triggering_location
        if flag == CHAININFO_TRIGGERING_SEQUENCE:
            return ch.triggering_sequence
        if flag == CHAININFO_TRIGGERING_POSITION:
            return ch.triggering_position
        if flag == CHAININFO_TRIGGERING_CODE:
            return st.code
        if flag == CHAININFO_TRIGGERING_CODE2:
            return st.code2
        if flag == CHAININFO_TRIGGERING_LEVEL:
            return st.level
        if flag == CHAININFO_TRIGGERING_RANK:
            return st.rank
        if flag == CHAININFO_TRIGGERING_ATTRIBUTE:
            return st.attribute
        if flag == CHAININFO_TRIGGERING_RACE:
            return st.race
        if flag == CHAININFO_TRIGGERING_ATTACK:
            return st.attack
        if flag == CHAININFO_TRIGGERING_DEFENSE:
            return st.defense
        if flag == CHAININFO_TARGET_CARDS:
            return ch.target_cards
        if flag == CHAININFO_TARGET_PLAYER:
            return ch.target_player
        if flag == CHAININFO_TARGET_PARAM:
            return ch.target_param
        if flag == CHAININFO_DISABLE_REASON:
            return ch.disable_reason
        if flag == CHAININFO_DISABLE_PLAYER:
            return ch.disable_player
        if flag == CHAININFO_CHAIN_ID:
            return ch.chain_id
        if flag == CHAININFO_TYPE:
            ctype = ch.triggering_effect.card_type & (TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP)
            return TYPE_MONSTER if ctype == (TYPE_TRAP | TYPE_MONSTER) else ctype
        if flag == CHAININFO_EXTTYPE:
            return ch.triggering_effect.card_type
        return None

    def get_targets_relate_to_chain(self: "Duel") -> Group:
        """Duel.GetTargetsRelateToChain: the current link's targets still related to it."""
        pgroup = self.new_group()
        ch = self.get_chain(0)
        if ch is not None and ch.target_cards is not None and len(ch.target_cards.container) > 0:
            for pcard in ch.target_cards.container:
                if pcard.is_has_relation(ch):
                    pgroup.container.add(pcard)
        return pgroup

    # ----- a chain link's targets and operation info (Duel.SetTargetCard, SetOperationInfo & co.) ---

    def _target_group_of(self: "Duel", ch: "Chain") -> Group:
        if ch.target_cards is None:
            ch.target_cards = self.new_group()
            ch.target_cards.is_readonly = GTYPE_READ_ONLY
        return ch.target_cards

    def take_selected_targets(self: "Duel") -> Group | None:
        """Make the cards just chosen in core.select_cards the targets of the current chain link.

        (The continuation of Duel.SelectTarget.)  No chain link: None.  For a
        continuous effect's pseudo-link the cards are only added to its target
        group, which is what the script gets.  Otherwise each card, in the
        order chosen, joins the targets, is related to the link and -- when
        the effect targets (EFFECT_FLAG_CARD_TARGET) -- is shown with
        MSG_BECOME_TARGET; the script gets a new group of the chosen cards.
        """
        core = self.core
        ch = self.get_chain(0)
        if ch is None:
            return None
        tg = self._target_group_of(ch)
        peffect = ch.triggering_effect
        b = self.returns.bvalue
        chosen = [core.select_cards[b[i + 1]] for i in range(b[0])]
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            tg.container.update(chosen)
            return tg
        pgroup = self.new_group()
        for pcard in chosen:
            tg.container.add(pcard)
            pgroup.container.add(pcard)
            pcard.create_relation(ch)
            if peffect.is_flag(EFFECT_FLAG_CARD_TARGET):
                _become_target(self, pcard)
        return pgroup

    def set_target_card(self: "Duel", targets: "Card | Group") -> None:
        """Duel.SetTargetCard: make a card or a group targets of the current chain link.

        For a continuous effect's pseudo-link a card is added, a group
        replaces the targets.  Otherwise the cards are added and related to
        the link, and shown with MSG_BECOME_TARGET (one message per card, in
        card order) when the effect targets.
        """
        ch = self.get_chain(0)
        if ch is None:
            return
        tg = self._target_group_of(ch)
        peffect = ch.triggering_effect
        cards = list(targets.container) if isinstance(targets, Group) else [targets]
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            if isinstance(targets, Group):
                tg.container = targets.container.copy()
            else:
                tg.container.add(targets)
            return
        for pcard in cards:
            tg.container.add(pcard)
            pcard.create_relation(ch)
        if peffect.is_flag(EFFECT_FLAG_CARD_TARGET):
            for pcard in cards:
                _become_target(self, pcard)

    def clear_target_card(self: "Duel") -> None:
        """Duel.ClearTargetCard: the current chain link has no target cards any more."""
        ch = self.get_chain(0)
        if ch is not None and ch.target_cards is not None:
            ch.target_cards.container.clear()

    def set_operation_info(self: "Duel", chaincount: int, category: int,
                           targets: "Card | Group | None", count: int, playerid: int,
                           param: int) -> None:
        """Duel.SetOperationInfo: record what chain link ``chaincount`` will do in ``category``.

        The cards are copied into a new read-only group.  A previous entry of
        the same category is replaced (its place in the order is kept, as a
        map keeps it).  The count and player are bytes, the parameter an int32.
        """
        ch = self.get_chain(chaincount)
        if ch is None:
            return
        pg: Group | None = None
        if targets is not None:
            pg = self.new_group(targets.container if isinstance(targets, Group) else targets)
            pg.is_readonly = GTYPE_READ_ONLY
        old = ch.opinfos.get(category)
        if old is not None and old.op_cards is not None:
            self.delete_group(old.op_cards)
        ch.opinfos[category] = OpTarget(op_cards=pg, op_count=count & 0xFF,
                                        op_player=playerid & 0xFF, op_param=_i32(param))

    def clear_operation_info(self: "Duel", chaincount: int) -> None:
        """Duel.ClearOperationInfo: forget every operation info of chain link ``chaincount``."""
        ch = self.get_chain(chaincount)
        if ch is None:
            return
        for opt in ch.opinfos.values():
            if opt.op_cards is not None:
                self.delete_group(opt.op_cards)
        ch.opinfos.clear()

    def check_chain_uniqueness(self: "Duel") -> bool:
        """Duel.CheckChainUniqueness: no two links of the current chain come from cards with
        the same code."""
        chain = self.core.current_chain
        if not chain:
            return True
        codes = {ch.triggering_effect.get_handler().get_code() for ch in chain}
        return len(codes) == len(chain)
