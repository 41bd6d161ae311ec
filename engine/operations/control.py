"""Control changes and equipping (reference: operations.cpp)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..card import Card
from ..constants import (
    EFFECT_ADD_TYPE, EFFECT_CHANGE_TYPE, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_TYPE_SINGLE,
    EVENT_CONTROL_CHANGED, EVENT_EQUIP, EVENT_MOVE, LOCATION_GRAVE, LOCATION_MZONE,
    LOCATION_ONFIELD, LOCATION_REASON_CONTROL, LOCATION_REASON_TOFIELD, LOCATION_SZONE, PLAYER_NONE,
    POS_FACEDOWN, POS_FACEUP, REASON_EFFECT, REASON_RULE, RESET_CONTROL, RESET_EVENT,
    STATUS_ATTACK_CANCELED, TIMING_EQUIP, TYPE_EQUIP, TYPE_SPELL, TYPE_TRAP, TYPE_TRAPMONSTER,
)
from ..core_constants import GTYPE_READ_ONLY
from ..group import CardSet, Group
from .move import as_card_set, hint_selectmsg, selected_cards, set_operated, u32, useable_count_and_flag

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..processor.driver import Proc


def _swap_zone_flag(flag: int, seq: int, reason_player: int, p: int) -> int:
    """The zones ``reason_player`` may not pick in ``p``'s Monster Zone for a swap:
    every zone but the free main ones and the swapped card's own."""
    if reason_player == p:
        return u32((flag & ~(0x1 << seq) & 0xFF) | 0xFFFFFFE0)
    return u32((((flag & ~(0x1 << seq)) << 16) & 0xFF0000) | 0xFFE0FFFF)


class ControlMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- adders -----------------------------------------------------------------------

    def get_control(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                    reason_player: int, playerid: int, reset_phase: int, reset_count: int,
                    zone: int) -> None:
        """``playerid`` takes control of the monsters (one card or a set), until
        ``reset_phase`` ``reset_count`` times (0: for good), into ``zone``."""
        ng = self.new_group(as_card_set(targets))
        ng.is_readonly = GTYPE_READ_ONLY
        # the reference packs these four into one 32-bit word and unpacks them
        packed = u32((reason_player << 28) + (playerid << 24) + (reset_phase << 8) + reset_count)
        self.add_process(self.proc_get_control(reason_effect, (packed >> 28) & 0xF, ng, (packed >> 24) & 0xF,
                                               (packed >> 8) & 0x3FF, packed & 0xFF, u32(zone)))

    def swap_control(self: "Duel", reason_effect: "Effect | None", reason_player: int,
                     targets1: "Card | CardSet | Group", targets2: "Card | CardSet | Group",
                     reset_phase: int, reset_count: int) -> None:
        """Swap control of two monsters (or two sets of monsters, pairwise)."""
        ng1 = self.new_group(as_card_set(targets1))
        ng1.is_readonly = GTYPE_READ_ONLY
        ng2 = self.new_group(as_card_set(targets2))
        ng2.is_readonly = GTYPE_READ_ONLY
        self.add_process(self.proc_swap_control(reason_effect, reason_player & 0xFF, ng1, ng2,
                                                reset_phase & 0xFFFF, reset_count & 0xFF))

    def equip(self: "Duel", equip_player: int, equip_card: Card, target: Card, up: bool | int,
              is_step: bool | int) -> None:
        """``equip_player`` equips ``equip_card`` to ``target`` (face-up if ``up``).
        With ``is_step`` the equip is completed later (Duel.EquipComplete)."""
        self.add_process(self.proc_equip(equip_player & 0xFF, equip_card, target, int(up) & 0xFF,
                                         int(is_step) & 0xFF))

    # ----- get control ------------------------------------------------------------------

    def proc_get_control(self: "Duel", reason_effect: "Effect | None", reason_player: int, targets: Group,
                         playerid: int, reset_phase: int, reset_count: int, zone: int) -> "Proc":
        """Take control of monsters.

        Monsters drop out that are Xyz materials, already controlled by
        ``playerid``, not in a Monster Zone, whose control cannot change, or
        unaffected by the reason effect (before Master Rule 2020 also a Trap
        Monster whose new controller has no Spell & Trap Zone for it).  With no
        room at all every one is destroyed instead; with too little room the
        new controller picks which are destroyed.  Each moves over
        (move_to_field), then EVENT_CONTROL_CHANGED and EVENT_MOVE.
        returns.ivalue[0]: how many changed control.
        """
        core = self.core
        destroy_set = CardSet()
        for pcard in list(targets.container):
            pcard.filter_disable_related_cards()
            if not self._can_take_control(pcard, reason_effect, reason_player, playerid):
                targets.container.discard(pcard)
        fcount = self.get_useable_count(None, playerid, LOCATION_MZONE, reason_player,
                                        LOCATION_REASON_CONTROL, zone)
        if fcount <= 0:
            destroy_set.swap(targets.container)
        else:
            if len(targets.container) > fcount:
                core.select_cards = list(targets.container)
                hint_selectmsg(self, playerid, 502)
                ct = len(targets.container) - fcount
                self.add_process(self.proc_select_card(playerid, False, ct & 0xFF, ct & 0xFF))
                yield
                for pcard in selected_cards(self):
                    destroy_set.add(pcard)
                    targets.container.discard(pcard)
            for pcard in targets.container:
                if pcard.unique_code and (pcard.unique_location & LOCATION_MZONE):
                    self.remove_unique_card(pcard)
            mover = reason_player if reason_player != PLAYER_NONE else playerid
            for pcard in list(targets.container):
                self.move_to_field(pcard, mover, playerid, LOCATION_MZONE, pcard.current.position,
                                   False, 0, False, zone)
                yield
                pcard.set_status(STATUS_ATTACK_CANCELED, True)
                self.set_control(pcard, playerid, reset_phase, reset_count)
                pcard.reset(RESET_CONTROL, RESET_EVENT)
                pcard.filter_disable_related_cards()
            self.adjust_instant()
            yield
            self._control_changed_events(targets, reason_effect, reason_player, playerid)
            yield
        if destroy_set:
            self.destroy(destroy_set, None, REASON_RULE, PLAYER_NONE)
        yield
        set_operated(self, targets.container)
        self.returns.ivalue[0] = len(targets.container)
        self.delete_group(targets)

    def _can_take_control(self: "Duel", pcard: Card, reason_effect: "Effect | None", reason_player: int,
                          playerid: int) -> bool:
        cur = pcard.current
        if pcard.overlay_target is not None:
            return False
        if cur.controler == playerid or cur.controler == PLAYER_NONE:
            return False
        if cur.location != LOCATION_MZONE:
            return False
        if not pcard.is_capable_change_control():
            return False
        if not pcard.is_affect_by_effect(reason_effect):
            return False
        if (self.core.duel_rule <= 4 and (pcard.get_type() & TYPE_TRAPMONSTER)
                and self.get_useable_count(pcard, playerid, LOCATION_SZONE, reason_player,
                                           LOCATION_REASON_CONTROL) <= 0):
            return False
        return True

    def _control_changed_events(self: "Duel", targets: Group, reason_effect: "Effect | None",
                                reason_player: int, playerid: int) -> None:
        """EVENT_CONTROL_CHANGED and EVENT_MOVE for the monsters still on the field."""
        for pcard in list(targets.container):
            if not (pcard.current.location & LOCATION_ONFIELD):
                targets.container.discard(pcard)
                continue
            if pcard.unique_code and (pcard.unique_location & LOCATION_MZONE):
                self.add_unique_card(pcard)
            self.raise_single_event(pcard, None, EVENT_CONTROL_CHANGED, reason_effect, REASON_EFFECT,
                                    reason_player, playerid, 0)
            self.raise_single_event(pcard, None, EVENT_MOVE, reason_effect, REASON_EFFECT,
                                    reason_player, playerid, 0)
        if targets.container:
            self.raise_event(targets.container, EVENT_CONTROL_CHANGED, reason_effect, REASON_EFFECT,
                             reason_player, playerid, 0)
            self.raise_event(targets.container, EVENT_MOVE, reason_effect, REASON_EFFECT,
                             reason_player, playerid, 0)
        self.process_single_event()
        self.process_instant_event()

    # ----- swap control -----------------------------------------------------------------

    def proc_swap_control(self: "Duel", reason_effect: "Effect | None", reason_player: int, targets1: Group,
                          targets2: Group, reset_phase: int, reset_count: int) -> "Proc":
        """Swap control of two equal-sized groups of monsters, pair by pair.

        Every monster of a group must be controlled by the same player (the
        two groups by different players), be in a Monster Zone, not be an Xyz
        material, be able to change control and be affected by the reason
        effect; each side needs room for the monsters coming from an Extra
        Monster Zone.  Otherwise nothing happens (returns.ivalue[0] 0).  For
        each pair the reason player picks the new zones, then the cards swap.
        """
        core = self.core
        if not self._swap_control_possible(reason_effect, reason_player, targets1, targets2):
            core.operated_set.clear()
            self.returns.ivalue[0] = 0
            self.delete_group(targets1)
            self.delete_group(targets2)
            return
        for pcard in targets1.container:
            if pcard.unique_code and (pcard.unique_location & LOCATION_MZONE):
                self.remove_unique_card(pcard)
        for pcard in targets2.container:
            if pcard.unique_code and (pcard.unique_location & LOCATION_MZONE):
                self.remove_unique_card(pcard)
        yield
        for pcard1, pcard2 in zip(list(targets1.container), list(targets2.container)):
            # pcard2's new zone, in pcard1's controller's Monster Zone
            self._ask_swap_zone(reason_player, pcard1, pcard2)
            yield
            new_s1 = self.returns.bvalue[2]
            # pcard1's new zone, in pcard2's controller's Monster Zone
            self._ask_swap_zone(reason_player, pcard2, pcard1)
            yield
            p1 = pcard1.current.controler
            p2 = pcard2.current.controler
            new_s2 = self.returns.bvalue[2]
            self.swap_card(pcard1, pcard2, new_s1, new_s2)
            pcard1.reset(RESET_CONTROL, RESET_EVENT)
            pcard2.reset(RESET_CONTROL, RESET_EVENT)
            self.set_control(pcard1, p2, reset_phase, reset_count)
            self.set_control(pcard2, p1, reset_phase, reset_count)
            pcard1.set_status(STATUS_ATTACK_CANCELED, True)
            pcard2.set_status(STATUS_ATTACK_CANCELED, True)
        targets1.container.update(targets2.container)
        for pcard in targets1.container:
            pcard.filter_disable_related_cards()
            if pcard.unique_code and (pcard.unique_location & LOCATION_MZONE):
                self.add_unique_card(pcard)
            self.raise_single_event(pcard, None, EVENT_CONTROL_CHANGED, reason_effect, REASON_EFFECT,
                                    reason_player, pcard.current.controler, 0)
            self.raise_single_event(pcard, None, EVENT_MOVE, reason_effect, REASON_EFFECT,
                                    reason_player, pcard.current.controler, 0)
        self.raise_event(targets1.container, EVENT_CONTROL_CHANGED, reason_effect, REASON_EFFECT,
                         reason_player, 0, 0)
        self.raise_event(targets1.container, EVENT_MOVE, reason_effect, REASON_EFFECT, reason_player, 0, 0)
        self.process_single_event()
        self.process_instant_event()
        yield
        set_operated(self, targets1.container)
        self.returns.ivalue[0] = 1
        self.delete_group(targets1)
        self.delete_group(targets2)

    def _swap_control_possible(self: "Duel", reason_effect: "Effect | None", reason_player: int,
                               targets1: Group, targets2: Group) -> bool:
        c1, c2 = targets1.container, targets2.container
        if not c1 or not c2 or len(c1) != len(c2):
            return False
        for pcard in c1:
            pcard.filter_disable_related_cards()
        for pcard in c2:
            pcard.filter_disable_related_cards()
        p1 = c1.first().current.controler
        p2 = c2.first().current.controler
        if p1 == p2 or p1 == PLAYER_NONE or p2 == PLAYER_NONE:
            return False
        for cset, p in ((c1, p1), (c2, p2)):
            for pcard in cset:
                if (pcard.overlay_target is not None or pcard.current.controler != p
                        or pcard.current.location != LOCATION_MZONE
                        or not pcard.is_capable_change_control()
                        or not pcard.is_affect_by_effect(reason_effect)):
                    return False
        for cset, p in ((c1, p1), (c2, p2)):
            ct = self.get_useable_count(None, p, LOCATION_MZONE, reason_player, LOCATION_REASON_CONTROL)
            for pcard in cset:
                if pcard.current.sequence >= 5:
                    ct -= 1
            if ct < 0:
                return False
        return True

    def _ask_swap_zone(self: "Duel", reason_player: int, pstay: Card, pcoming: Card) -> None:
        """Ask ``reason_player`` where in ``pstay``'s controller's Monster Zone ``pcoming`` goes."""
        p = pstay.current.controler
        _, flag = useable_count_and_flag(self, None, p, LOCATION_MZONE, reason_player,
                                         LOCATION_REASON_CONTROL, 0xFF)
        flag = _swap_zone_flag(flag, pstay.current.sequence, reason_player, p)
        hint_selectmsg(self, reason_player, pcoming.data.code)
        self.add_process(self.proc_select_place(reason_player, flag, 1))

    # ----- equip ------------------------------------------------------------------------

    def proc_equip(self: "Duel", equip_player: int, equip_card: Card, target: Card, up: bool | int,
                   is_step: bool | int) -> "Proc":
        """Equip a card to a monster.

        Nothing if the card is unaffected by the reason effect or is the
        monster itself.  If the monster is not a face-up monster on the field,
        or the card needs a Spell & Trap Zone and there is none, the card goes
        to the GY instead.  A card already equipped is moved off its old
        target; a card already in a Spell & Trap Zone is turned face-up if
        asked; any other card is placed there.  A card that is not an Equip
        Spell becomes one (a Trap keeps its type and gains TYPE_EQUIP).  Unless
        ``is_step``, its effects start and EVENT_EQUIP is raised; with it the
        card waits in core.equiping_cards for Duel.EquipComplete.
        returns.ivalue[0]: whether it was equipped.
        """
        core = self.core
        self.returns.ivalue[0] = 0
        if not equip_card.is_affect_by_effect(core.reason_effect):
            return
        if equip_card is target:
            return
        to_grave = bool(target.current.location != LOCATION_MZONE or (target.current.position & POS_FACEDOWN))
        if equip_card.current.location != LOCATION_SZONE:
            self.refresh_location_info_instant()
            if self.get_useable_count(equip_card, equip_player, LOCATION_SZONE, equip_player,
                                      LOCATION_REASON_TOFIELD) <= 0:
                to_grave = True
        if to_grave:
            if equip_card.current.location != LOCATION_GRAVE:
                self.send_to(equip_card, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE, LOCATION_GRAVE, 0,
                             POS_FACEUP)
            yield
            self.returns.ivalue[0] = 0
            return
        equip_card_type = 0
        if not (equip_card.data.type & TYPE_EQUIP):
            equip_card_type = equip_card.get_type()
        if equip_card.equiping_target is not None:
            equip_card.effect_target_cards.discard(equip_card.equiping_target)
            equip_card.equiping_target.effect_target_owner.discard(equip_card)
            equip_card.unequip()
            equip_card.enable_field_effect(False)
        elif equip_card.current.location == LOCATION_SZONE:
            if up and equip_card.is_position(POS_FACEDOWN):
                self.change_position(equip_card, None, equip_player, POS_FACEUP, 0)
        else:
            equip_card.enable_field_effect(False)
            pos = POS_FACEUP if (up or equip_card.is_position(POS_FACEUP)) else POS_FACEDOWN
            self.move_to_field(equip_card, equip_player, equip_player, LOCATION_SZONE, pos)
        yield
        equip_card.equip(target)
        if not (equip_card.data.type & TYPE_EQUIP):
            self._become_equip_card(equip_card, equip_card_type)
        equip_card.effect_target_cards.add(target)
        target.effect_target_owner.add(equip_card)
        if is_step:
            core.equiping_cards.add(equip_card)
            self.returns.ivalue[0] = 1
            return
        if equip_card.is_position(POS_FACEUP):
            equip_card.enable_field_effect(True)
        self.adjust_disable_check_list()
        cset = CardSet((equip_card,))
        self.raise_single_event(target, cset, EVENT_EQUIP, core.reason_effect, 0, core.reason_player,
                                PLAYER_NONE, 0)
        self.raise_event(cset, EVENT_EQUIP, core.reason_effect, 0, core.reason_player, PLAYER_NONE, 0)
        core.hint_timing[target.current.controler] |= TIMING_EQUIP
        self.process_single_event()
        self.process_instant_event()
        yield
        self.returns.ivalue[0] = 1

    def _become_equip_card(self: "Duel", equip_card: Card, equip_card_type: int) -> None:
        """A card equipped without being an Equip Spell: a Trap gains TYPE_EQUIP,
        anything else becomes an Equip Spell, until it leaves."""
        peffect = self.new_effect()
        peffect.owner = equip_card
        peffect.handler = equip_card
        peffect.type = EFFECT_TYPE_SINGLE
        if equip_card_type & TYPE_TRAP:
            peffect.code = EFFECT_ADD_TYPE
            peffect.value = TYPE_EQUIP
        else:
            peffect.code = EFFECT_CHANGE_TYPE
            peffect.value = TYPE_EQUIP + TYPE_SPELL
        peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
        peffect.reset_flag = RESET_EVENT + 0x17e0000
        equip_card.add_effect(peffect)

    # ----- finishing step equips (Duel.EquipComplete) -----------------------------------

    def equip_complete(self: "Duel") -> None:
        """Duel.EquipComplete: finish the equips made with Duel.Equip(..., is_step=true).

        The face-up equip cards' effects start; EVENT_EQUIP is raised for each
        equipped monster (with all equip cards) and for the field; both players
        get TIMING_EQUIP.
        """
        core = self.core
        etargets = CardSet()
        for equip_card in core.equiping_cards:
            if equip_card.is_position(POS_FACEUP):
                equip_card.enable_field_effect(True)
            etargets.add(equip_card.equiping_target)
        self.adjust_instant()
        for equip_target in etargets:
            self.raise_single_event(equip_target, core.equiping_cards, EVENT_EQUIP, core.reason_effect,
                                    0, core.reason_player, PLAYER_NONE, 0)
        self.raise_event(core.equiping_cards, EVENT_EQUIP, core.reason_effect, 0, core.reason_player,
                         PLAYER_NONE, 0)
        core.hint_timing[0] |= TIMING_EQUIP
        core.hint_timing[1] |= TIMING_EQUIP
        self.process_single_event()
        self.process_instant_event()

    # ----- a puzzle's equips (Debug.PreEquip) -------------------------------------------

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
