"""The Main Phase idle command: what the turn player may do with an open game state.

Reference: processor.cpp process_idle_command.  The player is offered:
Normal Summon (0), Special Summon by a card's own procedure (1), change
position / Flip Summon (2), Set a monster (3), Set a Spell/Trap (4), activate
an effect (5), go to the Battle Phase (6), go to the End Phase (7), shuffle
the hand (8).  After each action the idle command is offered again; 6 and 7
end it: the choice is the unit's return value, which the turn takes with
``yield from`` (and also left in returns.ivalue[0], as the reference leaves it).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    DUEL_ATTACK_FIRST_TURN, EFFECT_CANNOT_BP, EFFECT_CANNOT_EP, EFFECT_FLAG_BOTH_SIDE,
    EFFECT_MUST_ATTACK, EFFECT_SKIP_M1, EFFECT_SKIP_M2, EFFECT_SPSUMMON_PROC,
    EFFECT_SPSUMMON_PROC_G, EVENT_FREE_CHAIN, HINT_EVENT, LOCATION_HAND, PHASE_MAIN1, PHASE_MAIN2,
    POS_FACEDOWN, POS_FACEDOWN_ATTACK, POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_ATTACK,
    POS_FACEUP_DEFENSE, STATUS_CANNOT_CHANGE_FORM, TIMING_MAIN_END,
)
from ..event import Chain, Event
from ..messages import MsgHint

if TYPE_CHECKING:
    from ..duel import Duel
    from .driver import Proc


class IdleMixin:
    """Methods of Duel (see engine/duel.py)."""

    def _collect_idle_activations(self: "Duel", free_event: Event) -> None:
        core = self.core
        tp = self.infos.turn_player
        effects = self.effects
        for container in (effects.activate_effect, effects.quick_o_effect):
            for peffect in container.equal_range(EVENT_FREE_CHAIN):
                peffect.set_activate_location()
                if peffect.is_activateable(tp, free_event):
                    ch = Chain()
                    ch.triggering_effect = peffect
                    core.select_chains.append(ch)
        for peffect in effects.continuous_effect.equal_range(EVENT_FREE_CHAIN):
            if peffect.get_handler_player() == tp and peffect.is_activateable(tp, free_event):
                ch = Chain()
                ch.triggering_effect = peffect
                core.select_chains.append(ch)
        for peffect in effects.ignition_effect.all_effects():
            peffect.set_activate_location()
            if peffect.is_activateable(tp, free_event):
                ch = Chain()
                ch.triggering_effect = peffect
                core.select_chains.append(ch)

    def _collect_idle_cards(self: "Duel") -> None:
        """Which cards the turn player may summon, set, or change the position of."""
        core = self.core
        tp = self.infos.turn_player
        pl = self.player[tp]
        core.summonable_cards = [c for c in pl.list_hand if c.is_can_be_summoned(tp, False, None, 0)]
        core.summonable_cards += [c for c in pl.list_mzone
                                  if c is not None and c.is_can_be_summoned(tp, False, None, 0)]
        core.spsummonable_cards = []
        for peffect in self.filter_field_effect(EFFECT_SPSUMMON_PROC):
            pcard = peffect.get_handler()
            if not peffect.check_count_limit(pcard.current.controler):
                continue
            if pcard.current.controler == tp and pcard.is_special_summonable(tp, 0):
                core.spsummonable_cards.append(pcard)
        for peffect in self.filter_field_effect(EFFECT_SPSUMMON_PROC_G):
            pcard = peffect.get_handler()
            if not peffect.check_count_limit(tp):
                continue
            if pcard.current.controler != tp and not peffect.is_flag(EFFECT_FLAG_BOTH_SIDE):
                continue
            oreason, op = core.reason_effect, core.reason_player
            core.reason_effect = peffect
            core.reason_player = pcard.current.controler
            self.save_lp_cost()
            if self.script.check_condition(peffect.condition, peffect, pcard):
                core.spsummonable_cards.append(pcard)
            self.restore_lp_cost()
            core.reason_effect, core.reason_player = oreason, op
        core.repositionable_cards = [
            c for c in pl.list_mzone if c is not None and (
                (c.is_position(POS_FACEUP | POS_FACEDOWN_ATTACK) and c.is_capable_change_position(tp))
                or (c.is_position(POS_FACEDOWN) and c.is_can_be_flip_summoned(tp)))]
        core.msetable_cards = []
        core.ssetable_cards = []
        for c in pl.list_hand:
            if c.is_setable_mzone(tp, False, None, 0):
                core.msetable_cards.append(c)
            if c.is_setable_szone(tp):
                core.ssetable_cards.append(c)

    def proc_idle_command(self: "Duel") -> "Proc":
        """Offer the idle command until the player moves on to the Battle or End Phase.

        Returns the choice: 6 (Battle Phase) or 7 (End Phase).
        """
        core = self.core
        infos = self.infos
        free_event = Event(EVENT_FREE_CHAIN)
        while True:
            tp = infos.turn_player
            core.select_chains = []
            core.to_bp = True
            core.to_ep = True
            if ((not (core.duel_options & DUEL_ATTACK_FIRST_TURN) and infos.turn_id == 1)
                    or infos.phase == PHASE_MAIN2
                    or self.is_player_affected_by_effect(tp, EFFECT_CANNOT_BP)):
                core.to_bp = False
            if infos.phase == PHASE_MAIN1:
                must_attack = any(c is not None and c.is_capable_attack() and c.is_affected_by_effect(EFFECT_MUST_ATTACK)
                                  for c in self.player[tp].list_mzone)
                if core.to_bp and (must_attack or self.is_player_affected_by_effect(tp, EFFECT_CANNOT_EP)):
                    core.to_ep = False
            if ((infos.phase == PHASE_MAIN1 and self.is_player_affected_by_effect(tp, EFFECT_SKIP_M1))
                    or (infos.phase == PHASE_MAIN2 and self.is_player_affected_by_effect(tp, EFFECT_SKIP_M2))):
                return (yield from self._skipped_main_phase())
            if infos.phase == PHASE_MAIN2 and core.skip_m2:
                core.skip_m2 = False
                self.returns.ivalue[0] = 7
            else:
                self._collect_idle_activations(free_event)
                self._collect_idle_cards()
                self.add_process(self.proc_select_idle_command(tp))
                yield
            ctype = self.returns.ivalue[0] & 0xFFFF
            sel = (self.returns.ivalue[0] >> 16) & 0xFFFF
            if ctype in (6, 7):
                ended = yield from self._end_main_phase(ctype)
                if ended:
                    return ctype
                continue
            yield from self._idle_action(ctype, sel, free_event)

    def _idle_action(self: "Duel", ctype: int, sel: int, free_event: Event) -> "Proc":
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        if ctype == 5:
            yield from self.activate_from_menu(sel, free_event)
        elif ctype == 0:
            target = core.summonable_cards[sel]
            core.summon_cancelable = True
            self.summon(tp, target, None, False, 0)
            yield
        elif ctype == 1:
            target = core.spsummonable_cards[sel]
            core.summon_cancelable = True
            self.special_summon_rule(tp, target, 0)
            yield
        elif ctype == 2:
            yield from self._idle_reposition(core.repositionable_cards[sel])
        elif ctype == 3:
            target = core.msetable_cards[sel]
            core.summon_cancelable = True
            self.mset(target.current.controler, target, None, False, 0)
            yield
        elif ctype == 4:
            target = core.ssetable_cards[sel]
            self.add_process(self.proc_sset(target.current.controler, target.current.controler, target, None))
            yield
        elif ctype == 8:
            self.shuffle(tp, LOCATION_HAND)
            infos.can_shuffle = False

    def _idle_reposition(self: "Duel", target) -> "Proc":
        """Change a monster's battle position, or Flip Summon it."""
        core = self.core
        tp = self.infos.turn_player
        if target.is_position(POS_FACEUP_ATTACK) or target.is_position(POS_FACEUP_DEFENSE):
            core.phase_action = True
            npos = POS_FACEUP_DEFENSE if target.is_position(POS_FACEUP_ATTACK) else POS_FACEUP_ATTACK
            self.change_position(target, None, tp, npos, 0)
            self.adjust_all()
            self.add_process(self.proc_point_event())
        elif target.is_position(POS_FACEDOWN_ATTACK):
            # face-down Attack Position (an old rule): Flip Summon or turn to face-down Defense
            positions = 0
            if target.is_capable_change_position(tp):
                positions |= POS_FACEDOWN_DEFENSE
            if target.is_can_be_flip_summoned(tp):
                positions |= POS_FACEUP_ATTACK
            self.add_process(self.proc_select_position(tp, target.data.code, positions))
            yield
            if self.returns.ivalue[0] == POS_FACEUP_ATTACK:
                self.add_process(self.proc_flip_summon(target.current.controler, target, 0))
            else:
                core.phase_action = True
                self.change_position(target, None, tp, POS_FACEDOWN_DEFENSE, 0)
                self.adjust_all()
                self.add_process(self.proc_point_event())
        else:
            self.add_process(self.proc_flip_summon(target.current.controler, target, 0))
        target.set_status(STATUS_CANNOT_CHANGE_FORM, True)
        yield

    def _end_main_phase(self: "Duel", ctype: int) -> "Proc":
        """The player wants to leave the Main Phase: the opponent may respond first.

        Returns True when the phase really ends (no chain was built).  The
        choice (6: Battle Phase, 7: End Phase) is then also left in
        returns.ivalue[0], where the reference leaves it (docs/architecture.md,
        "What stays on the returns buffer").
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        self.emit(MsgHint(type=HINT_EVENT, player=1 - tp, data=23))
        core.select_chains = []
        core.hint_timing[tp] = TIMING_MAIN_END
        self.add_process(self.proc_quick_effect(False, 1 - tp))
        infos.priorities[tp] = 1
        infos.priorities[1 - tp] = 0
        yield
        if core.current_chain:
            self.resolve_current_chain()
            yield
            return False
        self.release_chain_limits()
        self.reset_phase(infos.phase)
        self.adjust_all()
        yield
        self.returns.ivalue[0] = ctype
        infos.can_shuffle = True
        return True

    def _skipped_main_phase(self: "Duel") -> "Proc":
        """A skipped Main Phase: choose Battle or End Phase when both are possible.

        Returns the choice (6 or 7), also left in returns.ivalue[0].
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        if core.to_bp and core.to_ep:
            core.select_options = [80, 81]
            self.add_process(self.proc_select_option(tp))
            yield
            ctype = 6 if self.returns.ivalue[0] == 0 else 7
        else:
            ctype = 6 if core.to_bp else 7
        self.reset_phase(infos.phase)
        self.adjust_all()
        yield
        self.returns.ivalue[0] = ctype
        infos.can_shuffle = True
        return ctype
