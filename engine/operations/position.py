"""Changing battle positions and turning cards face-up/face-down (reference: operations.cpp)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..card import Card
from ..constants import (
    EFFECT_CANNOT_CHANGE_POS_E, EFFECT_DEFENSE_ATTACK, EVENT_CHANGE_POS, EVENT_FLIP, EVENT_SSET,
    LOCATION_GRAVE, LOCATION_MZONE, LOCATION_SZONE, PLAYER_NONE, POS_DEFENSE, POS_FACEDOWN,
    POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_ATTACK, POS_FACEUP_DEFENSE, REASON_LOST_TARGET,
    REASON_RULE, RESET_EVENT, RESET_TURN_SET, STATUS_ACTIVATE_DISABLED, STATUS_ATTACK_CANCELED,
    STATUS_FLIP_SUMMONING, STATUS_FLIP_SUMMON_DISABLED, STATUS_JUST_POS, STATUS_SET_TURN,
    STATUS_SPSUMMON_STEP, STATUS_SUMMONING, STATUS_SUMMON_DISABLED, SUMMON_TYPE_FLIP,
    SUMMON_TYPE_PENDULUM, TIMING_POS_CHANGE, TYPE_LINK, TYPE_TOKEN, TYPE_TRAPMONSTER,
)
from ..core_constants import (
    DEFAULT_SUMMON_TYPE, EFFECT_TYPES_CHAIN_LINK, GTYPE_READ_ONLY, RETURN_TRAP_MONSTER_TO_SZONE,
    SUMMON_VALUE_CUSTOM_TYPE, SUMMON_VALUE_MAIN_TYPE,
)
from ..group import CardSet, Group
from ..messages import MsgPosChange
from .move import as_card_set, hint_selectmsg, operation_sorted, selected_cards, set_operated

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..processor.driver import Proc

UINT_MAX = 0xFFFFFFFF


class PositionMixin:
    """Methods of Duel (see engine/duel.py)."""

    def change_position(self: "Duel", targets: "Card | CardSet | Group", reason_effect: "Effect | None",
                        reason_player: int, *args: Any) -> None:
        """Change the position of cards; the reference's two overloads:

        - ``change_position(card, reason_effect, reason_player, npos, flag, enable=False)``
        - ``change_position(cards, reason_effect, reason_player, au, ad, du, dd, flag, enable=False)``:
          each card takes the position given for its current one (face-up
          attack ``au``, face-down defense ``dd``, face-up defense ``du``,
          else ``ad``).

        ``flag`` goes into the high bits of position_param (read back as the
        EVENT_FLIP value: e.g. NO_FLIP_EFFECT).  With ``enable`` the effects of a
        card turned face-up start working (after the chain link, for a
        monster turned by a chain-link effect).
        """
        if isinstance(targets, Card):
            npos, flag, *rest = args
            enable = rest[0] if rest else False
            ng = self.new_group(targets)
            ng.is_readonly = GTYPE_READ_ONLY
            targets.position_param = npos | flag
        else:
            au, ad, du, dd, flag, *rest = args
            enable = rest[0] if rest else False
            cset = as_card_set(targets)
            ng = self.new_group(cset)
            ng.is_readonly = GTYPE_READ_ONLY
            for pcard in cset:
                pos = pcard.current.position
                if pos == POS_FACEUP_ATTACK:
                    pcard.position_param = au
                elif pos == POS_FACEDOWN_DEFENSE:
                    pcard.position_param = dd
                elif pos == POS_FACEUP_DEFENSE:
                    pcard.position_param = du
                else:
                    pcard.position_param = ad
                pcard.position_param |= flag
        self.add_process(self.proc_change_position(ng, reason_effect, reason_player, enable))

    def proc_change_position(self: "Duel", targets: Group, reason_effect: "Effect | None",
                             reason_player: int, enable: bool | int) -> "Proc":
        """Change positions (each card's new position is the low byte of position_param).

        Cards drop out that are not in a Monster or Spell & Trap Zone, Link
        Monsters, cards being summoned, cards unaffected by the reason effect,
        cards already in that position, cards that may not be turned face-down
        (not Tokens), and, for an effect, cards under EFFECT_CANNOT_CHANGE_POS_E.
        A Trap Monster turned face-down goes back to its player's Spell & Trap
        Zone; when a player lacks room, the extra ones go to the GY (the
        reason player's Trap Monsters are settled first).  Then in operation
        order: MSG_POS_CHANGE, flips (new field id, EVENT_FLIP), cards turned
        face-down lose their equips, summon type and effects; then the events.
        """
        core = self.core
        for pcard in list(targets.container):
            npos = pcard.position_param & 0xFF
            opos = pcard.current.position
            if ((pcard.current.location != LOCATION_MZONE and pcard.current.location != LOCATION_SZONE)
                    or (pcard.data.type & TYPE_LINK)
                    or pcard.get_status(STATUS_SUMMONING | STATUS_SPSUMMON_STEP)
                    or not pcard.is_affect_by_effect(reason_effect) or npos == opos
                    or (not (pcard.data.type & TYPE_TOKEN) and (opos & POS_FACEUP) and (npos & POS_FACEDOWN)
                        and not pcard.is_capable_turn_set(reason_player))
                    or (reason_effect is not None and pcard.is_affected_by_effect(EFFECT_CANNOT_CHANGE_POS_E))):
                targets.container.discard(pcard)
        to_grave_set = CardSet()
        for playerid in (reason_player, 1 - reason_player):
            ssets = CardSet()
            for pcard in targets.container:
                npos = pcard.position_param & 0xFF
                opos = pcard.current.position
                if ((opos & POS_FACEUP) and (npos & POS_FACEDOWN)
                        and (pcard.get_type() & TYPE_TRAPMONSTER) and pcard.current.controler == playerid):
                    ssets.add(pcard)
            if not ssets:
                continue
            self.refresh_location_info_instant()
            fcount = self.get_useable_count(None, playerid, LOCATION_SZONE, playerid, 0)
            if fcount <= 0:
                for pcard in ssets:
                    to_grave_set.add(pcard)
                    targets.container.discard(pcard)
                continue
            if len(ssets) > fcount:
                core.select_cards = list(ssets)
                ct = len(ssets) - fcount
                hint_selectmsg(self, reason_player, 502)
                self.add_process(self.proc_select_card(reason_player, False, ct & 0xFF, ct & 0xFF))
                yield
            # Sic: with enough room the reference asks nothing but still reads the
            # last selection answer here (returns and core.select_cards as they are).
            for pcard in selected_cards(self):
                to_grave_set.add(pcard)
                targets.container.discard(pcard)
        self._apply_positions(targets, reason_effect, reason_player, enable, to_grave_set)
        yield
        set_operated(self, targets.container)
        self.returns.ivalue[0] = len(targets.container)
        self.delete_group(targets)

    def _apply_positions(self: "Duel", targets: Group, reason_effect: "Effect | None", reason_player: int,
                         enable: bool | int, to_grave_set: CardSet) -> None:
        """Change each card's position (step 4 of the reference's unit), then raise the events."""
        core = self.core
        equipings = CardSet()
        flips = CardSet()
        ssets = CardSet()
        pos_changed = CardSet()
        for pcard in operation_sorted(targets.container):
            npos = pcard.position_param & 0xFF
            opos = pcard.current.position
            flag = (pcard.position_param >> 16) & 0xFF
            if (pcard.data.type & TYPE_TOKEN) and (npos & POS_FACEDOWN):
                npos = POS_FACEUP_DEFENSE
            pcard.previous.position = opos
            pcard.current.position = npos
            if (npos & POS_DEFENSE) and not pcard.is_affected_by_effect(EFFECT_DEFENSE_ATTACK):
                pcard.set_status(STATUS_ATTACK_CANCELED, True)
            pcard.set_status(STATUS_JUST_POS, True)
            cur = pcard.current
            self.emit(MsgPosChange(code=pcard.data.code, controller=cur.controler & 0xFF,
                                   location=cur.location & 0xFF, sequence=cur.sequence & 0xFF,
                                   previous_position=pcard.previous.position & 0xFF,
                                   current_position=cur.position & 0xFF))
            core.hint_timing[cur.controler] |= TIMING_POS_CHANGE
            if (opos & POS_FACEDOWN) and (npos & POS_FACEUP):
                self._flipped_face_up(pcard, reason_effect, reason_player, enable, flag, flips)
            if cur.location == LOCATION_MZONE:
                self.raise_single_event(pcard, None, EVENT_CHANGE_POS, reason_effect, 0, reason_player, 0, 0)
                pos_changed.add(pcard)
            trapmonster = False
            if (opos & POS_FACEUP) and (npos & POS_FACEDOWN):
                trapmonster = bool(pcard.get_type() & TYPE_TRAPMONSTER)
                _turned_face_down(pcard)
            if (npos & POS_FACEDOWN) and pcard.equiping_cards:
                for equipc in list(pcard.equiping_cards):
                    equipings.add(equipc)
                    equipc.unequip()
            if (npos & POS_FACEDOWN) and pcard.equiping_target is not None:
                pcard.unequip()
            if trapmonster:
                self.refresh_location_info_instant()
                self.move_to_field(pcard, cur.controler, cur.controler, LOCATION_SZONE, POS_FACEDOWN,
                                   False, RETURN_TRAP_MONSTER_TO_SZONE)
                self.raise_single_event(pcard, None, EVENT_SSET, reason_effect, 0, reason_player, 0, 0)
                ssets.add(pcard)
        self.adjust_instant()
        self.process_single_event()
        if flips:
            self.raise_event(flips, EVENT_FLIP, reason_effect, 0, reason_player, 0, 0)
        if ssets:
            for pcard in ssets:
                targets.container.discard(pcard)
            self.raise_event(ssets, EVENT_SSET, reason_effect, 0, reason_player, 0, 0)
        if pos_changed:
            self.raise_event(pos_changed, EVENT_CHANGE_POS, reason_effect, 0, reason_player, 0, 0)
        self.process_instant_event()
        if equipings:
            self.destroy(equipings, None, REASON_LOST_TARGET + REASON_RULE, PLAYER_NONE)
        if to_grave_set:
            self.send_to(to_grave_set, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE, LOCATION_GRAVE, 0,
                         POS_FACEUP)

    def _flipped_face_up(self: "Duel", pcard: Card, reason_effect: "Effect | None", reason_player: int,
                         enable: bool | int, flag: int, flips: CardSet) -> None:
        """A card turned face-up: a new field id; a monster flips (EVENT_FLIP, value
        ``flag``); its effects start now, after the chain link (core.delayed_enable_set)
        for a monster flipped by a chain-link effect, or not at all without ``enable``."""
        pcard.fieldid = self.infos.field_id
        self.infos.field_id += 1
        pcard.activate_count_id = pcard.fieldid
        if self.check_unique_onfield(pcard, pcard.current.controler, pcard.current.location):
            pcard.unique_fieldid = UINT_MAX
        if pcard.current.location == LOCATION_MZONE:
            self.raise_single_event(pcard, None, EVENT_FLIP, reason_effect, 0, reason_player, 0, flag)
            flips.add(pcard)
        if enable:
            if (reason_effect is None or not (reason_effect.type & EFFECT_TYPES_CHAIN_LINK)
                    or pcard.current.location != LOCATION_MZONE):
                pcard.enable_field_effect(True)
            else:
                self.core.delayed_enable_set.add(pcard)
        else:
            pcard.refresh_disable_status()


def _turned_face_down(pcard: Card) -> None:
    """A card turned face-down: negated summon/activation forgotten, effects and
    targets reset, set this turn, no longer summoned by Flip (nor Pendulum)."""
    if pcard.status & (STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED):
        pcard.set_status(STATUS_SUMMON_DISABLED | STATUS_ACTIVATE_DISABLED, False)
    pcard.set_status(STATUS_FLIP_SUMMONING, False)
    pcard.set_status(STATUS_FLIP_SUMMON_DISABLED, False)
    pcard.reset(RESET_TURN_SET, RESET_EVENT)
    pcard.clear_card_target()
    pcard.set_status(STATUS_SET_TURN, True)
    pcard.enable_field_effect(False)
    pcard.previous.location = 0
    pcard.summon_info &= (DEFAULT_SUMMON_TYPE & ~SUMMON_TYPE_FLIP) & 0xFFFFFFFF
    if (pcard.summon_info & SUMMON_TYPE_PENDULUM) == SUMMON_TYPE_PENDULUM:
        pcard.summon_info &= (SUMMON_VALUE_MAIN_TYPE | SUMMON_VALUE_CUSTOM_TYPE)
    pcard.spsummon_counter[0] = 0
    pcard.spsummon_counter[1] = 0
