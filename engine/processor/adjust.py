"""State checks between actions (the reference's "adjust").

Reference: processor.cpp adjust_step, adjust_all, adjust_instant,
refresh_location_info(_instant).  After each action the core checks, in this
order: who has won; which cards are negated; zones disabled by effects; Trap
Monsters that stop being monsters; control that must change; brainwashing;
granted effects; self-destruction; equips that no longer apply; positions
forced by effects; the hands (revealed cards shuffle back); a reversed Deck;
whether the current attack must stop; EVENT_ADJUST.  If any check changed
something, the whole round runs again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    EFFECT_ADD_TYPE, EFFECT_CANNOT_CHANGE_POS_E, EFFECT_CHANGE_TYPE, EFFECT_DEFENSE_ATTACK, EFFECT_DISABLE_FIELD,
    EFFECT_DISABLE_TRAPMONSTER, EFFECT_EQUIP_LIMIT, EFFECT_PUBLIC, EFFECT_REMOVE_BRAINWASHING,
    EFFECT_REMOVE_TYPE, EFFECT_REVERSE_DECK, EFFECT_SET_CONTROL, EFFECT_SET_POSITION, EFFECT_TYPE_SINGLE,
    EFFECT_USE_EXTRA_MZONE, EFFECT_USE_EXTRA_SZONE, EVENT_ADJUST, GLOBALFLAG_BRAINWASHING_CHECK,
    GLOBALFLAG_DECK_REVERSE_CHECK, LOCATION_DECK, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    PHASE_DAMAGE, PHASE_DAMAGE_CAL, PLAYER_NONE, POS_DEFENSE, POS_FACEDOWN, POS_FACEUP,
    POS_FACEUP_DEFENSE, REASON_RULE, STATUS_ATTACK_CANCELED, STATUS_CONTINUOUS_POS, STATUS_JUST_POS,
    TYPE_LINK, TYPE_TRAPMONSTER,
)
from ..field.zones import FIELD_USED_COUNT
from ..group import CardSet
from ..messages import MsgDeckTop, MsgFieldDisabled, MsgReverseDeck, MsgWin

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from .driver import Proc


class AdjustMixin:
    """Methods of Duel (see engine/duel.py)."""

    def adjust_instant(self: "Duel") -> None:
        self.adjust_disable_check_list()
        self.adjust_self_destroy_set()

    def adjust_all(self: "Duel") -> None:
        self.core.readjust_map.clear()
        self.add_process(self.proc_adjust())

    def proc_adjust(self: "Duel") -> "Proc":
        """One adjust round after another until a round changes nothing.

        Each check is one step of the reference's unit.  A step's end only
        matters when the step queued units (they run before the next step) or
        ended the duel (the processor stops there); otherwise the next step
        follows at once, so each step yields only then (the same order, fewer
        turns of the processor loop).
        """
        core = self.core
        while True:
            core.re_adjust = False
            if core.subunits or self.finished:
                yield
            if self._check_win():
                yield
            yield from self._adjust_disable()
            self._adjust_trap_monsters()
            if core.subunits or self.finished:
                yield
            self._adjust_control()
            if core.subunits or self.finished:
                yield
            self._adjust_brainwashing()
            if core.subunits or self.finished:
                yield
            if self.adjust_grant_effect():
                core.re_adjust = True
            if core.subunits or self.finished:
                yield
            # while self-destruction is disabled (the Damage Step until damage calculation)
            # the reference skips the equip check too (its adjust step 9 jumps past step 10)
            if not core.selfdes_disabled:
                self.adjust_self_destroy_set()
                if core.subunits or self.finished:
                    yield
                self._adjust_equips()
            if core.subunits or self.finished:
                yield
            self._adjust_positions()
            if core.subunits or self.finished:
                yield
            self._adjust_hands()
            self._adjust_reverse_deck()
            self._adjust_attack_cancel()
            self.raise_event(None, EVENT_ADJUST, None, 0, PLAYER_NONE, PLAYER_NONE, 0)
            self.process_instant_event()
            if core.subunits or self.finished:
                yield
            if core.re_adjust:
                continue
            for p in (0, 1):
                if core.shuffle_hand_check[p]:
                    self.shuffle(p, LOCATION_HAND)
            for p in (0, 1):
                if core.shuffle_deck_check[p]:
                    self.shuffle(p, LOCATION_DECK)
            return

    def _check_win(self: "Duel") -> bool:
        """Write MSG_WIN when a player's LP reached 0 or a player had to draw from an empty Deck.

        Returns True when the duel is over (the driver stops after this step).
        """
        core = self.core
        lp0 = self.player[0].lp
        lp1 = self.player[1].lp
        winp, rea = 5, 1
        if lp0 <= 0 and lp1 > 0:
            winp, rea = 1, 1
        if core.overdraw[0] and not core.overdraw[1]:
            winp, rea = 1, 2
        if lp1 <= 0 and lp0 > 0:
            winp, rea = 0, 1
        if core.overdraw[1] and not core.overdraw[0]:
            winp, rea = 0, 2
        if lp1 <= 0 and lp0 <= 0:
            winp, rea = PLAYER_NONE, 1
        if core.overdraw[1] and core.overdraw[0]:
            winp, rea = PLAYER_NONE, 2
        if winp != 5:
            self.emit(MsgWin(player=winp, reason=rea))
            core.overdraw[0] = core.overdraw[1] = False
            core.win_player = 5
            core.win_reason = 0
        elif core.win_player != 5:
            self.emit(MsgWin(player=core.win_player, reason=core.win_reason))
            core.win_player = 5
            core.win_reason = 0
            core.overdraw[0] = core.overdraw[1] = False
        else:
            return False
        self.finished = True
        return True

    def _adjust_disable(self: "Duel") -> "Proc":
        tp = self.infos.turn_player
        add = self.add_to_disable_check_list
        for p in (tp, 1 - tp):
            for pcard in filter(None, self.player[p].list_mzone):      # (a card is never false)
                add(pcard)
            for pcard in filter(None, self.player[p].list_szone):
                add(pcard)
        self.adjust_disable_check_list()
        self.add_process(self.proc_refresh_location_info())
        yield

    def _adjust_trap_monsters(self: "Duel") -> None:
        core = self.core
        core.trap_monster_adjust_set[0].clear()
        core.trap_monster_adjust_set[1].clear()
        if not self.effects.holds(EFFECT_DISABLE_TRAPMONSTER, EFFECT_ADD_TYPE, EFFECT_REMOVE_TYPE,
                                  EFFECT_CHANGE_TYPE):
            return      # (only skips look-ups that find nothing)
        for p in (0, 1):
            for pcard in self.player[p].list_mzone:
                if pcard is None:
                    continue
                if (pcard.get_type() & TYPE_TRAPMONSTER) and pcard.is_affected_by_effect(EFFECT_DISABLE_TRAPMONSTER):
                    core.trap_monster_adjust_set[p].add(pcard)
        if core.trap_monster_adjust_set[0] or core.trap_monster_adjust_set[1]:
            core.re_adjust = True
            self.add_process(self.proc_trap_monster_adjust())

    def _adjust_control(self: "Duel") -> None:
        core = self.core
        tp = self.infos.turn_player
        core.control_adjust_set[0].clear()
        core.control_adjust_set[1].clear()
        reason_cards: list[Card] = []       # (a CardSet below, when control changes)
        # (only skips look-ups: with neither code anywhere every card belongs to its owner)
        plain = not self.effects.holds(EFFECT_SET_CONTROL, EFFECT_REMOVE_BRAINWASHING)
        for p in (0, 1):
            for pcard in self.player[p].list_mzone:
                if pcard is None:
                    continue
                cur = pcard.current.controler
                ref, peffect = (pcard.owner, None) if plain else pcard.refresh_control_status()
                if cur != ref and pcard.is_capable_change_control():
                    core.control_adjust_set[p].add(pcard)
                    if peffect is not None and (not (peffect.type & EFFECT_TYPE_SINGLE) or peffect.condition):
                        reason_cards.append(peffect.get_handler())
        if core.control_adjust_set[0] or core.control_adjust_set[1]:
            core.re_adjust = True
            self.get_control(core.control_adjust_set[1 - tp].copy(), None, PLAYER_NONE, tp, 0, 0, 0xFF)
            self.get_control(core.control_adjust_set[tp].copy(), None, PLAYER_NONE, 1 - tp, 0, 0, 0xFF)
            for rcard in CardSet(reason_cards):
                core.readjust_map[rcard] = core.readjust_map.get(rcard, 0) + 1
                if core.readjust_map[rcard] > 3:
                    self.destroy(rcard, None, REASON_RULE, PLAYER_NONE)
        core.last_control_changed_id = self.infos.field_id

    def _adjust_brainwashing(self: "Duel") -> None:
        core = self.core
        if not (core.global_flag & GLOBALFLAG_BRAINWASHING_CHECK):
            return
        tp = self.infos.turn_player
        core.control_adjust_set[0].clear()
        core.control_adjust_set[1].clear()
        res = bool(self.filter_field_effect(EFFECT_REMOVE_BRAINWASHING, False))
        if res:
            for p in (0, 1):
                for pcard in self.player[p].list_mzone:
                    if pcard is not None and pcard.is_affected_by_effect(EFFECT_REMOVE_BRAINWASHING):
                        for peffect in pcard.single_effect.equal_range(EFFECT_SET_CONTROL):
                            if not peffect.condition:
                                peffect.handler.remove_effect(peffect)
                        if p != pcard.owner and pcard.is_capable_change_control():
                            core.control_adjust_set[p].add(pcard)
        core.remove_brainwashing = res
        if core.control_adjust_set[0] or core.control_adjust_set[1]:
            core.re_adjust = True
            self.get_control(core.control_adjust_set[1 - tp].copy(), None, PLAYER_NONE, tp, 0, 0, 0xFF)
            self.get_control(core.control_adjust_set[tp].copy(), None, PLAYER_NONE, 1 - tp, 0, 0, 0xFF)

    def _adjust_equips(self: "Duel") -> None:
        """Equip Spells whose equip limit no longer holds are destroyed."""
        core = self.core
        tp = self.infos.turn_player
        unfit: list[Card] = []
        for p in (tp, 1 - tp):
            for i in range(5):
                pcard = self.player[p].list_szone[i]
                if (pcard is not None and pcard.equiping_target is not None
                        and not pcard.is_affected_by_effect(EFFECT_EQUIP_LIMIT, pcard.equiping_target)):
                    unfit.append(pcard)
        if unfit:
            core.re_adjust = True
            self.destroy(CardSet(unfit), None, REASON_RULE, PLAYER_NONE)

    def _adjust_positions(self: "Duel") -> None:
        """EFFECT_SET_POSITION: monsters are turned to the position an effect forces."""
        core = self.core
        tp = self.infos.turn_player
        if not self.effects.holds(EFFECT_SET_POSITION, EFFECT_CANNOT_CHANGE_POS_E):
            return      # (only skips look-ups that find nothing)
        pos_adjust = CardSet()
        for p in (tp, 1 - tp):
            for pcard in self.player[p].list_mzone:
                if (pcard is None or (pcard.data.type & TYPE_LINK)
                        or pcard.is_affected_by_effect(EFFECT_CANNOT_CHANGE_POS_E)):
                    continue
                eset = pcard.filter_effect(EFFECT_SET_POSITION)
                if not eset:
                    continue
                pos = eset[-1].get_value()
                if (pos & 0xFF) != pcard.current.position:
                    pos_adjust.add(pcard)
                    pcard.position_param = pos
                    pcard.set_status(STATUS_CONTINUOUS_POS, pcard.is_status(STATUS_JUST_POS))
                else:
                    pcard.set_status(STATUS_CONTINUOUS_POS, False)
                pcard.set_status(STATUS_JUST_POS, False)
        if pos_adjust:
            core.re_adjust = True
            g = self.new_group(pos_adjust)
            g.is_readonly = 1
            self.add_process(self.proc_change_position(g, None, PLAYER_NONE, True))

    def _adjust_hands(self: "Duel") -> None:
        """Revealed hand cards turn face-down again; a hand that had them is shuffled."""
        core = self.core
        tp = self.infos.turn_player
        public = self.effects.holds(EFFECT_PUBLIC)      # (only skips look-ups)
        for p in (0, 1):
            for pcard in self.player[p].list_hand:
                cur = pcard.current
                pub = pcard.is_affected_by_effect(EFFECT_PUBLIC) if public else None
                if pub is None and cur.position & POS_FACEUP:
                    core.shuffle_hand_check[p] = True
                cur.position = POS_FACEUP if pub is not None else POS_FACEDOWN
        if core.shuffle_hand_check[tp]:
            self.shuffle(tp, LOCATION_HAND)
        if core.shuffle_hand_check[1 - tp]:
            self.shuffle(1 - tp, LOCATION_HAND)

    def _adjust_reverse_deck(self: "Duel") -> None:
        core = self.core
        if not (core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK):
            return
        res = bool(self.filter_field_effect(EFFECT_REVERSE_DECK, False))
        if core.deck_reversed != res:
            self.reverse_deck(0)
            self.reverse_deck(1)
            self.emit(MsgReverseDeck())
            if res:
                for p in (0, 1):
                    if self.player[p].list_main:
                        ptop = self.player[p].list_main[-1]
                        code = ptop.data.code
                        if ptop.current.position == POS_FACEUP_DEFENSE:
                            code |= 0x80000000
                        self.emit(MsgDeckTop(player=p, sequence=0, code=code))
        core.deck_reversed = res

    def _adjust_attack_cancel(self: "Duel") -> None:
        """Does the current attack stop (the attacker left, or the opponent's monsters changed)?"""
        core = self.core
        infos = self.infos
        attacker = core.attacker
        if attacker is None or attacker.is_status(STATUS_ATTACK_CANCELED):
            return
        if infos.phase not in (PHASE_DAMAGE, PHASE_DAMAGE_CAL):
            if (not attacker.is_capable_attack() or attacker.current.controler != attacker.attack_controler
                    or attacker.fieldid_r != core.pre_field[0]):
                attacker.set_status(STATUS_ATTACK_CANCELED, True)
                return
            if core.attack_rollback:
                return
            fidset = {c.fieldid_r for c in self.player[1 - infos.turn_player].list_mzone if c is not None}
            if fidset != core.opp_mzone or not self.confirm_attack_target():
                core.attack_rollback = True
        else:
            target = core.attack_target
            if (attacker.current.location != LOCATION_MZONE or attacker.fieldid_r != core.pre_field[0]
                    or ((attacker.current.position & POS_DEFENSE)
                        and not attacker.is_affected_by_effect(EFFECT_DEFENSE_ATTACK))
                    or attacker.current.controler != attacker.attack_controler
                    or (target is not None and (target.current.location != LOCATION_MZONE
                                                or target.current.controler != target.attack_controler
                                                or target.fieldid_r != core.pre_field[1]))):
                attacker.set_status(STATUS_ATTACK_CANCELED, True)

    # ----- zones disabled by effects ----------------------------------------------------------

    def _disabled_location_bits(self: "Duel") -> int:
        return self.player[0].disabled_location | (self.player[1].disabled_location << 16)

    def _mirror_field_zones(self: "Duel") -> None:
        """The two Extra Monster Zones are shared: disabling one side's disables the other's."""
        p0, p1 = self.player[0], self.player[1]
        p0.disabled_location |= (((p1.disabled_location >> 5) & 1) << 6) | (((p1.disabled_location >> 6) & 1) << 5)
        p1.disabled_location |= (((p0.disabled_location >> 5) & 1) << 6) | (((p0.disabled_location >> 6) & 1) << 5)

    def refresh_location_info_instant(self: "Duel") -> None:
        dis1 = self._disabled_location_bits()
        self.player[0].disabled_location = 0
        self.player[1].disabled_location = 0
        for eff in self.filter_field_effect(EFFECT_DISABLE_FIELD):
            value = eff.get_value()
            self.player[0].disabled_location |= value & 0x1F7F
            self.player[1].disabled_location |= (value >> 16) & 0x1F7F
        for eff in self.filter_field_effect(EFFECT_USE_EXTRA_MZONE):
            p = eff.get_handler_player()
            self.player[p].disabled_location |= (eff.get_value() >> 16) & 0x1F
        for eff in self.filter_field_effect(EFFECT_USE_EXTRA_SZONE):
            p = eff.get_handler_player()
            self.player[p].disabled_location |= (eff.get_value() >> 8) & 0x1F00
        self._mirror_field_zones()
        dis2 = self._disabled_location_bits()
        if dis1 != dis2:
            self.emit(MsgFieldDisabled(flags=dis2 & 0xFFFFFFFF))

    def proc_refresh_location_info(self: "Duel") -> "Proc":
        """Recompute disabled zones; effects that disable a zone of the player's choice ask now."""
        core = self.core
        before = self._disabled_location_bits()
        self.player[0].disabled_location = 0
        self.player[1].disabled_location = 0
        core.disfield_effects = []
        core.extra_mzone_effects = []
        core.extra_szone_effects = []
        for eff in self.filter_field_effect(EFFECT_DISABLE_FIELD):
            value = eff.get_value()
            if value:
                self.player[0].disabled_location |= value & 0x1F7F
                self.player[1].disabled_location |= (value >> 16) & 0x1F7F
            else:
                core.disfield_effects.append(eff)
        for eff in self.filter_field_effect(EFFECT_USE_EXTRA_MZONE):
            p = eff.get_handler_player()
            value = eff.get_value()
            self.player[p].disabled_location |= (value >> 16) & 0x1F
            if FIELD_USED_COUNT[(value >> 16) & 0x1F] < (value & 0xFFFF):
                core.extra_mzone_effects.append(eff)
        for eff in self.filter_field_effect(EFFECT_USE_EXTRA_SZONE):
            p = eff.get_handler_player()
            value = eff.get_value()
            self.player[p].disabled_location |= (value >> 8) & 0x1F00
            if FIELD_USED_COUNT[(value >> 16) & 0x1F] < (value & 0xFFFF):
                core.extra_szone_effects.append(eff)
        # zones chosen by an operation (e.g. "choose a zone; it cannot be used")
        while core.disfield_effects:
            peffect = core.disfield_effects.pop(0)
            if not peffect.operation:
                peffect.value = 0x80
                continue
            core.sub_solving_event.append(self.nil_event)
            self.add_process(self.proc_execute_operation(peffect, peffect.get_handler_player()))
            yield
            v = self.returns.ivalue[0] & 0x1F7F1F7F
            if v == 0:
                v = 0x80
            if peffect.get_handler_player() == 0:
                peffect.value = v
                self.player[0].disabled_location |= v & 0x1F7F
                self.player[1].disabled_location |= (v >> 16) & 0x1F7F
            else:
                peffect.value = ((v << 16) | (v >> 16)) & 0xFFFFFFFF
                self.player[1].disabled_location |= v & 0x1F7F
                self.player[0].disabled_location |= (v >> 16) & 0x1F7F
        yield from self._choose_extra_zones(core.extra_mzone_effects, szone=False)
        yield from self._choose_extra_zones(core.extra_szone_effects, szone=True)
        self._mirror_field_zones()
        dis = self._disabled_location_bits()
        if dis != before:
            self.emit(MsgFieldDisabled(flags=dis & 0xFFFFFFFF))

    def _choose_extra_zones(self: "Duel", effs: list, szone: bool) -> "Proc":
        """EFFECT_USE_EXTRA_MZONE/SZONE: the player picks which zones the effect occupies."""
        while effs:
            peffect = effs.pop(0)
            p = peffect.get_handler_player()
            pl = self.player[p]
            if szone:
                zone_flag = ((pl.disabled_location | pl.used_location) >> 8) & 0x1F
            else:
                zone_flag = (pl.disabled_location | pl.used_location) & 0x1F
            if zone_flag == 0x1F:
                break
            val = peffect.get_value()
            dis_count = (val & 0xFFFF) - FIELD_USED_COUNT[(val >> 16) & 0x1F]
            empty_count = 5 - FIELD_USED_COUNT[zone_flag]
            flag = ((zone_flag << 8) | 0xFFFFE0FF) if szone else (zone_flag | 0xFFFFFFE0)
            if dis_count > empty_count:
                dis_count = empty_count
            self.add_process(self.proc_select_disfield(p, flag & 0xFFFFFFFF, dis_count))
            yield
            chosen = 0
            for i in range(dis_count):
                chosen |= 0x1 << self.returns.bvalue[i * 3 + 2]
            if szone:
                pl.disabled_location |= chosen << 8
            else:
                pl.disabled_location |= chosen
            peffect.value = (peffect.value | (chosen << 16)) & 0xFFFFFFFF

    # ----- what scripts ask of the state check (Duel.Win, Duel.Readjust) ----------------

    def set_win(self: "Duel", playerid: int, reason: int) -> None:
        """Duel.Win: record the winner (2: a draw) unless one is already recorded; the
        state check after the current action ends the duel."""
        core = self.core
        if core.win_player == 5:
            core.win_player = playerid
            core.win_reason = reason

    def readjust(self: "Duel") -> bool:
        """Duel.Readjust: ask for another state check after this one.

        The card of the reason effect may ask at most 3 times in a row; the 4th
        time it is sent to the GY by the rules instead (returns True: a unit was
        queued and the script must wait for it).
        """
        core = self.core
        if core.reason_effect is None:
            core.re_adjust = True
            return False
        adjcard = core.reason_effect.get_handler()
        core.readjust_map[adjcard] = core.readjust_map.get(adjcard, 0) + 1
        if core.readjust_map[adjcard] > 3:
            self.send_to(adjcard, None, REASON_RULE, core.reason_player, PLAYER_NONE, LOCATION_GRAVE, 0,
                         POS_FACEUP)
            return True
        core.re_adjust = True
        return False
