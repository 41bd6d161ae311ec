"""Events: raising them, collecting the effects that respond, and the chain windows.

Reference: processor.cpp (raise_event, raise_single_event, check_event,
check_event_c, process_phase_event, process_point_event, process_quick_effect,
process_instant_event, process_single_event).

Vocabulary:
- ``queue_event``: events raised since the last ``process_instant_event``;
- ``instant_event`` / ``point_event``: events of the current "point" (what
  just happened), which triggers and quick effects may respond to;
- ``new_fchain`` / ``new_ochain``: mandatory / optional triggers collected;
  ``..._s`` the ones being offered now, ``..._b`` the ones held during battle;
- a *point event* unit is the window after an action: mandatory triggers
  (turn player first), then optional triggers, then quick effects, then the
  chain resolves.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

from ..constants import (
    EFFECT_DISABLE_CHAIN, EFFECT_DISABLE_EFFECT, EFFECT_FLAG_ACTIVATE_CONDITION, EFFECT_FLAG_DELAY,
    EFFECT_FLAG_EVENT_PLAYER, EFFECT_FLAG_FIELD_ONLY, EFFECT_HAND_LIMIT, EFFECT_SET_CONTROL,
    EFFECT_SKIP_BP, EFFECT_SKIP_DP, EFFECT_SKIP_SP, EFFECT_TYPE_ACTIONS, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_FLIP, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_O, EVENT_FLIP,
    EVENT_FLIP_SUMMON_SUCCESS, EVENT_FREE_CHAIN, EVENT_PHASE, EVENT_SPSUMMON_SUCCESS,
    EVENT_SUMMON_SUCCESS, HINT_EVENT, HINT_SELECTMSG, LOCATION_DECK, LOCATION_GRAVE, LOCATION_HAND,
    LOCATION_MZONE, NO_FLIP_EFFECT, PHASE_BATTLE, PHASE_BATTLE_START, PHASE_DRAW, PHASE_END,
    PHASE_MAIN1, PHASE_MAIN2, PHASE_STANDBY, PLAYER_NONE, POS_FACEDOWN, POS_FACEUP, REASON_ADJUST,
    REASON_DISCARD, REASON_RULE, REASON_TEMPORARY, RESET_EVENT, RESET_OPPO_TURN, RESET_SELF_TURN,
    STATUS_CHAINING, STATUS_EFFECT_ENABLED, TIMING_ATTACK, TIMING_BATTLE_END, TIMING_BATTLE_START,
    TIMING_DAMAGE_CAL, TIMING_DAMAGE_STEP, TIMING_DRAW_PHASE, TIMING_END_PHASE,
    TIMING_STANDBY_PHASE,
)
from ..core_constants import CHAIN_FORCED, EFFECT_SKIP_EP
from ..event import Chain, Event
from ..effect_rules import is_continuous_event
from ..messages import MsgHint

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from ..effect import Effect
    from .driver import Proc


def _remove_chain_id(chains: list[Chain], chain_id: int) -> None:
    chains[:] = [c for c in chains if c.chain_id != chain_id]


class EventsMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- raising events -------------------------------------------------------------

    def _event_group(self: "Duel", cards: "Card | Iterable[Card] | None"):
        if cards is None:
            return None
        g = self.new_group(cards)
        g.is_readonly = 1
        return g

    def raise_event(self: "Duel", event_cards, event_code: int, reason_effect: "Effect | None",
                    reason: int, reason_player: int, event_player: int, event_value: int) -> None:
        """Queue a field event (a card, a set of cards, or None)."""
        e = Event(event_code, self._event_group(event_cards), reason_effect, reason,
                  reason_player, event_player, event_value)
        self.core.queue_event.append(e)

    def raise_single_event(self: "Duel", trigger_card: "Card", event_cards, event_code: int,
                           reason_effect: "Effect | None", reason: int, reason_player: int,
                           event_player: int, event_value: int) -> None:
        """Queue an event for one card's own (single) effects."""
        e = Event(event_code, self._event_group(event_cards), reason_effect, reason,
                  reason_player, event_player, event_value, trigger_card=trigger_card)
        self.core.single_event.append(e)

    def check_event(self: "Duel", code: int) -> Event | None:
        """The first event of the current point with this code, or None."""
        for ev in self.core.point_event:
            if ev.event_code == code:
                return ev
        for ev in self.core.instant_event:
            if ev.event_code == code:
                return ev
        return None

    def check_event_c(self: "Duel", peffect: "Effect", playerid: int, neglect_con: bool,
                      neglect_cost: bool, copy_info: bool) -> Event | None:
        """An event of the current point this effect could respond to now (None if none).

        With ``copy_info`` the event is also stored on the newest chain link
        (used while a chain link's target function asks "could I respond?").
        A free-chain effect answers with the empty event.
        """
        core = self.core
        if peffect.code == EVENT_FREE_CHAIN:
            if peffect.is_activate_ready_reason(core.reason_effect, playerid, self.nil_event,
                                                neglect_con, neglect_cost, False):
                return self.nil_event
            return None
        for ev in list(core.point_event) + list(core.instant_event):
            if ev.event_code == peffect.code and peffect.is_activate_ready_reason(
                    core.reason_effect, playerid, ev, neglect_con, neglect_cost, False):
                if copy_info and not self.script_no_action() and core.current_chain:
                    core.current_chain[-1].evt = ev
                return ev
        return None

    def script_no_action(self: "Duel") -> bool:
        """True while scripts run in a context where actions are not allowed."""
        return bool(getattr(self.script, "no_action", 0))

    # ----- collecting responses to events ------------------------------------------------

    def _new_link(self: "Duel", peffect: "Effect", ev: Event, phandler: "Card") -> Chain:
        ch = Chain()
        ch.chain_id = self.infos.field_id
        self.infos.field_id += 1
        ch.evt = ev
        ch.triggering_effect = peffect
        ch.set_triggering_state(phandler)
        return ch

    def _continuous_link(self: "Duel", peffect: "Effect", owner_player: int, ev: Event) -> Chain:
        ch = Chain()
        ch.triggering_effect = peffect
        ch.triggering_player = owner_player
        ch.evt = ev
        return ch

    def _collect_continuous(self: "Duel", peffect: "Effect", ev: Event,
                            tp: list[Chain], ntp: list[Chain]) -> None:
        """A continuous effect responding to an event runs at once (or later if delayed)."""
        core = self.core
        owner_player = peffect.get_handler_player()
        if peffect.is_flag(EFFECT_FLAG_EVENT_PLAYER) and ev.event_player in (0, 1):
            owner_player = ev.event_player
        if not peffect.is_activateable(owner_player, ev):
            return
        ch = self._continuous_link(peffect, owner_player, ev)
        if peffect.is_flag(EFFECT_FLAG_DELAY) and (core.chain_solving or core.conti_solving):
            if owner_player == self.infos.turn_player:
                core.delayed_continuous_tp.append(ch)
            else:
                core.delayed_continuous_ntp.append(ch)
        elif owner_player == self.infos.turn_player:
            tp.append(ch)
        else:
            ntp.append(ch)

    def _queue_continuous(self: "Duel", tp: list[Chain], ntp: list[Chain]) -> None:
        for ch in tp + ntp:
            self.core.sub_solving_continuous.append(ch)
            self.add_process(self.proc_solve_continuous())

    def _triggering_player(self: "Duel", peffect: "Effect", ev: Event, phandler: "Card") -> int:
        if peffect.is_flag(EFFECT_FLAG_EVENT_PLAYER) and ev.event_player in (0, 1):
            return ev.event_player
        return phandler.current.controler

    def process_instant_event(self: "Duel") -> bool:
        """Collect what responds to the queued events, then make them the current point.

        Continuous effects are queued to resolve at once (turn player's first);
        triggers go to new_fchain/new_ochain; mandatory quick effects to
        quick_f_chain; delayed quick effects are remembered.
        """
        core = self.core
        if not core.queue_event:
            return True
        tp: list[Chain] = []
        ntp: list[Chain] = []
        effects = self.effects
        for ev in core.queue_event:
            for peffect in effects.continuous_effect.equal_range(ev.event_code):
                self._collect_continuous(peffect, ev, tp, ntp)
            if is_continuous_event(ev.event_code):
                continue
            for peffect in effects.trigger_f_effect.equal_range(ev.event_code):
                phandler = peffect.get_handler()
                if not phandler.is_status(STATUS_EFFECT_ENABLED):
                    continue
                if (not peffect.is_flag(EFFECT_FLAG_ACTIVATE_CONDITION)
                        and not peffect.is_condition_check(phandler.current.controler, ev)):
                    continue
                peffect.set_activate_location()
                ch = self._new_link(peffect, ev, phandler)
                ch.triggering_player = self._triggering_player(peffect, ev, phandler)
                core.new_fchain.append(ch)
                phandler.create_relation(ch)
            for peffect in effects.trigger_o_effect.equal_range(ev.event_code):
                phandler = peffect.get_handler()
                act = (phandler.is_status(STATUS_EFFECT_ENABLED)
                       and (peffect.is_flag(EFFECT_FLAG_ACTIVATE_CONDITION)
                            or peffect.is_condition_check(phandler.current.controler, ev)))
                if not act and not (peffect.range & LOCATION_HAND):
                    continue
                peffect.set_activate_location()
                ch = self._new_link(peffect, ev, phandler)
                ch.triggering_player = self._triggering_player(peffect, ev, phandler)
                core.new_ochain.append(ch)
                if (peffect.is_flag(EFFECT_FLAG_FIELD_ONLY)
                        or not (peffect.range & LOCATION_HAND)
                        or ((peffect.range & phandler.current.location) and act)):
                    phandler.create_relation(ch)
            for peffect in effects.quick_f_effect.equal_range(ev.event_code):
                phandler = peffect.get_handler()
                peffect.set_activate_location()
                if peffect.is_activateable(phandler.current.controler, ev):
                    ch = self._new_link(peffect, ev, phandler)
                    ch.triggering_player = self._triggering_player(peffect, ev, phandler)
                    # the reference keys this by effect pointer; we keep insertion order
                    core.quick_f_chain[peffect] = ch
                    phandler.create_relation(ch)
            core.delayed_activate_event.append(ev)
            for peffect in effects.quick_o_effect.equal_range(ev.event_code):
                if (peffect.is_flag(EFFECT_FLAG_DELAY)
                        and peffect.is_condition_check(peffect.get_handler().current.controler, ev)):
                    core.delayed_quick_tmp[(peffect, ev.key())] = (peffect, ev)
        self._queue_continuous(tp, ntp)
        core.instant_event.extend(core.queue_event)
        core.queue_event = []
        return True

    def process_single_event(self: "Duel") -> bool:
        """Collect the single effects responding to the queued single events."""
        core = self.core
        if not core.single_event:
            return True
        tp: list[Chain] = []
        ntp: list[Chain] = []
        for ev in core.single_event:
            starget = ev.trigger_card
            for peffect in starget.single_effect.equal_range(ev.event_code):
                self.process_single_event_effect(peffect, ev, tp, ntp)
            for pcard in list(starget.xyz_materials):
                for peffect in pcard.xmaterial_effect.equal_range(ev.event_code):
                    if peffect.type & EFFECT_TYPE_FIELD:
                        continue
                    self.process_single_event_effect(peffect, ev, tp, ntp)
        self._queue_continuous(tp, ntp)
        core.single_event = []
        return True

    def process_single_event_effect(self: "Duel", peffect: "Effect", e: Event,
                                    tp: list[Chain], ntp: list[Chain]) -> bool:
        """One single effect responding to its card's event: run (continuous) or trigger."""
        core = self.core
        if not (peffect.type & EFFECT_TYPE_ACTIONS):
            return False
        if (peffect.type & EFFECT_TYPE_FLIP) and (e.event_value & (NO_FLIP_EFFECT >> 16)):
            return False
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            self._collect_continuous(peffect, e, tp, ntp)
            return True
        phandler = peffect.get_handler()
        if (not peffect.is_flag(EFFECT_FLAG_ACTIVATE_CONDITION)
                and not peffect.is_condition_check(phandler.current.controler, e)):
            return False
        peffect.set_activate_location()
        ch = self._new_link(peffect, e, phandler)
        if peffect.is_flag(EFFECT_FLAG_EVENT_PLAYER) and e.event_player in (0, 1):
            ch.triggering_player = e.event_player
        elif phandler.current.reason & REASON_TEMPORARY:
            ch.triggering_player = phandler.previous.controler
        else:
            ch.triggering_player = ch.triggering_controler
        optional = bool(peffect.type & EFFECT_TYPE_TRIGGER_O)
        if core.flip_delayed and e.event_code == EVENT_FLIP:
            (core.new_ochain_b if optional else core.new_fchain_b).append(ch)
        else:
            (core.new_ochain if optional else core.new_fchain).append(ch)
        peffect.set_active_type()
        phandler.create_relation(ch)
        deffect = phandler.is_affected_by_effect(EFFECT_DISABLE_EFFECT)
        if deffect is not None:
            negeff = self.new_effect()
            negeff.owner = deffect.owner
            negeff.type = EFFECT_TYPE_SINGLE
            negeff.code = EFFECT_DISABLE_CHAIN
            negeff.value = ch.chain_id
            negeff.reset_flag = RESET_EVENT | deffect.get_value()
            phandler.add_effect(negeff)
        return True

    # ----- the phase window (triggers and activations at a phase's end) -----------------

    def _phase_candidates(self: "Duel", phase: int, check_player: int, test_event: Event):
        """Build core.select_chains for a phase window; returns (tf, to, fc, cn) counts."""
        core = self.core
        infos = self.infos
        effects = self.effects
        phase_event = EVENT_PHASE + phase
        core.select_chains = []
        tf = to = fc = cn = 0
        for peffect in effects.trigger_f_effect.equal_range(phase_event):
            peffect.set_activate_location()
            if not peffect.is_activateable(check_player, test_event):
                continue
            peffect.id = infos.field_id
            infos.field_id += 1
            ch = Chain()
            ch.triggering_effect = peffect
            ch.flag |= CHAIN_FORCED
            core.select_chains.append(ch)
            tf += 1
        for peffect in effects.continuous_effect.equal_range(phase_event):
            if (peffect.get_handler_player() != check_player
                    or not peffect.is_activateable(check_player, test_event)):
                continue
            peffect.id = infos.field_id
            infos.field_id += 1
            ch = Chain()
            ch.triggering_effect = peffect
            ch.flag |= CHAIN_FORCED
            core.select_chains.append(ch)
            cn += 1
        # control taken "until the End Phase" ends here, not at the end of the turn
        for peffect in list(effects.pheff):
            if peffect.code != EFFECT_SET_CONTROL or not (peffect.reset_flag & phase):
                continue
            pid = peffect.get_handler_player()
            if pid != check_player:
                continue
            tpl = infos.turn_player
            if not (((peffect.reset_flag & RESET_SELF_TURN) and pid == tpl)
                    or ((peffect.reset_flag & RESET_OPPO_TURN) and pid != tpl)):
                continue
            if peffect.reset_count != 1:
                continue
            phandler = peffect.get_handler()
            if peffect.get_value(phandler) != phandler.current.controler:
                continue
            ch = Chain()
            ch.triggering_effect = peffect
            ch.flag |= CHAIN_FORCED
            core.select_chains.append(ch)
            cn += 1
        core.spe_effect[check_player] = 0
        if not core.hand_adjusted:
            for peffect in effects.trigger_o_effect.equal_range(phase_event):
                peffect.set_activate_location()
                if not peffect.is_activateable(check_player, test_event):
                    continue
                peffect.id = infos.field_id
                infos.field_id += 1
                ch = Chain()
                ch.triggering_effect = peffect
                core.select_chains.append(ch)
                to += 1
                core.spe_effect[check_player] += 1
            core.hint_timing[infos.turn_player] = {
                PHASE_DRAW: TIMING_DRAW_PHASE, PHASE_STANDBY: TIMING_STANDBY_PHASE,
                PHASE_BATTLE_START: TIMING_BATTLE_START, PHASE_BATTLE: TIMING_BATTLE_END,
            }.get(phase, TIMING_END_PHASE)
            for container, cteffect_hint in ((effects.activate_effect, True),
                                             (effects.quick_o_effect, False)):
                for peffect in container.equal_range(EVENT_FREE_CHAIN):
                    peffect.set_activate_location()
                    if (not peffect.is_chainable(check_player)
                            or not peffect.is_activateable(check_player, test_event)):
                        continue
                    peffect.id = infos.field_id
                    infos.field_id += 1
                    ch = Chain()
                    ch.triggering_effect = peffect
                    if self.check_hint_timing(peffect) or (
                            cteffect_hint and self.check_cteffect_hint(peffect, check_player)):
                        core.spe_effect[check_player] += 1
                    core.select_chains.append(ch)
                    fc += 1
            for peffect in effects.continuous_effect.equal_range(EVENT_FREE_CHAIN):
                if (peffect.get_handler_player() != check_player
                        or not peffect.is_activateable(check_player, test_event)):
                    continue
                peffect.id = infos.field_id
                infos.field_id += 1
                ch = Chain()
                ch.triggering_effect = peffect
                core.select_chains.append(ch)
                fc += 1
        return tf, to, fc, cn

    _PHASE_HINTS = {PHASE_DRAW: 20, PHASE_STANDBY: 21, PHASE_BATTLE_START: 28, PHASE_BATTLE: 25}

    def proc_phase_event(self: "Duel", phase: int) -> "Proc":
        """The window at the end of a phase: phase triggers and activations, both players.

        Each player in turn (turn player first) may use phase effects; when
        both pass in a row the window closes.  At the End Phase the turn player
        then discards down to the hand limit and the window opens once more.
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        test_event = Event(EVENT_PHASE + phase, event_player=tp)
        while True:
            skipped = yield from self._phase_window(phase, test_event)
            if skipped or phase != PHASE_END:
                break
            # hand limit: discard down to 6 (or EFFECT_HAND_LIMIT's value)
            limit = 6
            eset = self.filter_player_effect(tp, EFFECT_HAND_LIMIT)
            if eset:
                limit = eset[-1].get_value()
            hand = self.player[tp].list_hand
            hd = len(hand)
            if hd <= limit:
                break
            core.select_cards = list(hand)
            self.emit(MsgHint(type=HINT_SELECTMSG, player=tp, data=501))
            self.add_process(self.proc_select_card(tp, False, hd - limit, hd - limit))
            yield
            cset = self._selected_cards()
            self.send_to(cset, None, REASON_RULE + REASON_DISCARD + REASON_ADJUST, tp,
                         PLAYER_NONE, LOCATION_GRAVE, 0, POS_FACEUP)
            yield
            core.hand_adjusted = True
            self.add_process(self.proc_point_event())
            yield
        core.hint_timing[tp] = 0
        self.reset_phase(phase)
        self.adjust_all()
        yield
        core.quick_f_chain.clear()
        core.instant_event = []
        core.point_event = []
        core.delayed_activate_event = []
        core.full_event = []

    def _phase_skipped(self: "Duel", phase: int) -> bool:
        """Is this phase skipped for the turn player (EFFECT_SKIP_DP/SP/BP/EP)?"""
        tp = self.infos.turn_player
        return bool((phase == PHASE_DRAW and self.is_player_affected_by_effect(tp, EFFECT_SKIP_DP))
                    or (phase == PHASE_STANDBY and self.is_player_affected_by_effect(tp, EFFECT_SKIP_SP))
                    or (phase in (PHASE_BATTLE_START, PHASE_BATTLE)
                        and self.is_player_affected_by_effect(tp, EFFECT_SKIP_BP))
                    or (phase == PHASE_END and self.is_player_affected_by_effect(tp, EFFECT_SKIP_EP)))

    def _phase_window(self: "Duel", phase: int, test_event: Event) -> "Proc":
        """Offer phase effects to each player until both pass in a row.

        Every time the window (re)opens, after a pass or after an activation
        resolved, the phase is first checked for being skipped, as the
        reference's step 0 does: an effect resolved in the window that skips
        this phase (Scrubbed Raid at the start of the Battle Phase) closes it.
        Returns True when it closed that way.
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        priority_passed = False
        is_opponent = False
        while True:
            if self._phase_skipped(phase):
                return True
            check_player = 1 - tp if is_opponent else tp
            tf, to, fc, cn = self._phase_candidates(phase, check_player, test_event)
            if not core.select_chains:
                self.returns.ivalue[0] = -1
            elif tf == 0 and cn == 1 and to == 0 and fc == 0:
                self.returns.ivalue[0] = 0
            else:
                self.emit(MsgHint(type=HINT_EVENT, player=check_player,
                                  data=self._PHASE_HINTS.get(infos.phase, 26)))
                if tf == 0 and to == 1 and fc == 0 and cn == 0:
                    handler = core.select_chains[0].triggering_effect.get_handler()
                    self.add_process(self.proc_select_effect_yes_no(check_player, 0, handler))
                    yield
                    self.returns.ivalue[0] -= 1
                else:
                    self.add_process(self.proc_select_chain(check_player, core.spe_effect[check_player]))
                    yield
            if self.returns.ivalue[0] == -1:
                if priority_passed:
                    return False
                priority_passed = True
                is_opponent = not is_opponent
                continue
            priority_passed = False
            newchain = core.select_chains[self.returns.ivalue[0]].copy()
            peffect = newchain.triggering_effect
            phandler = peffect.get_handler()
            if not (peffect.type & EFFECT_TYPE_ACTIONS):
                # an "until the End Phase" control effect ends now
                if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
                    self.remove_effect(peffect)
                else:
                    peffect.handler.remove_effect(peffect)
                self.adjust_all()
                yield
                self.adjust_instant()
                self.add_process(self.proc_point_event())
                yield
            elif not (peffect.type & EFFECT_TYPE_CONTINUOUS):
                yield from self.start_chain(newchain, 1 - tp if is_opponent else tp, test_event)
            else:
                core.select_chains = []
                self.solve_continuous(peffect.get_handler_player(), peffect, test_event)
                yield
                self.adjust_instant()
                self.add_process(self.proc_point_event())
                yield

    # ----- the point window (after an action) -------------------------------------------

    def proc_point_event(self: "Duel", skip_trigger: int = 0, skip_freechain: int = 0,
                         skip_new: int = 0, battle_step_continuous: bool = False) -> "Proc":
        """The window after something happened.

        Mandatory triggers first (turn player's, then the opponent's, each
        choosing the order), then optional triggers likewise, then each player
        may respond with quick effects; if a chain was built it resolves.
        ``battle_step_continuous`` first offers both players their free-chain
        continuous effects (the Battle Step's extra check, reference step 30).
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        if battle_step_continuous:
            yield from self._battle_step_continuous(tp)
            yield from self._battle_step_continuous(1 - tp)
        core.select_chains = []
        core.point_event.extend(core.instant_event)
        core.instant_event = []
        if not skip_trigger:
            core.new_fchain_s[0:0] = core.new_fchain
            core.new_fchain = []
            core.new_ochain_s[0:0] = core.new_ochain
            core.new_ochain = []
            core.full_event.extend(core.delayed_activate_event)
            core.delayed_activate_event = []
            core.delayed_quick = core.delayed_quick_tmp
            core.delayed_quick_tmp = {}
            core.current_player = tp
            yield from self._offer_forced_triggers()
            yield from self._offer_optional_triggers()
            core.select_chains = []
        # (the obsolete ignition-priority rule applies only to duel rule 1)
        if core.duel_rule < 2 and infos.phase in (PHASE_MAIN1, PHASE_MAIN2):
            self._obsolete_ignition_priority()
        infos.priorities[0] = 0
        infos.priorities[1] = 0
        if not core.current_chain:
            if not core.hand_adjusted:
                self.add_process(self.proc_quick_effect(skip_freechain, tp))
        else:
            self.add_process(self.proc_quick_effect(False, 1 - core.current_chain[-1].triggering_player))
        yield
        core.new_ochain_h = []
        core.full_event = []
        core.delayed_quick = {}
        self.release_chain_limits()
        if core.current_chain:
            for ch in core.current_chain:
                ch.triggering_effect.get_handler().set_status(STATUS_CHAINING, False)
            self.add_process(self.proc_solve_chain(skip_trigger | ((skip_freechain | skip_new) << 8),
                                                   skip_new))
        else:
            core.used_event.extend(core.point_event)
            core.point_event = []
            self.release_chain_limits(permanent=True)
            for d in core.effect_count_code_chain:
                d.clear()
            self.reset_chain()
            self.returns.ivalue[0] = 0

    def _follow_controller(self: "Duel", ch: Chain) -> None:
        """A trigger whose card changed control is now its new controller's (unless the
        effect belongs to the event's player)."""
        phandler = ch.triggering_effect.get_handler()
        if (ch.triggering_player != phandler.current.controler
                and not ch.triggering_effect.is_flag(EFFECT_FLAG_EVENT_PLAYER)):
            ch.triggering_player = phandler.current.controler
            ch.set_triggering_state(phandler)

    def _refresh_hand_trigger(self: "Duel", ch: Chain) -> None:
        """A field trigger usable from the hand, whose card is in the hand now: relate it
        (if its condition holds) and record where it is activated from and by whom."""
        peffect = ch.triggering_effect
        phandler = peffect.get_handler()
        if (not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) and (peffect.type & EFFECT_TYPE_FIELD)
                and (peffect.range & LOCATION_HAND) and phandler.current.location == LOCATION_HAND):
            if not phandler.is_has_relation(ch) and peffect.is_condition_check(phandler.current.controler, ch.evt):
                phandler.create_relation(ch)
            peffect.set_activate_location()
            ch.triggering_player = phandler.current.controler
            ch.set_triggering_state(phandler)

    def _add_chosen_trigger(self: "Duel", newchain: Chain) -> None:
        """The player chose this trigger: it is being activated and goes on the chain next."""
        peffect = newchain.triggering_effect
        peffect.get_handler().set_status(STATUS_CHAINING, True)
        peffect.dec_count(newchain.triggering_player)
        self.core.new_chains.append(newchain)
        self.add_process(self.proc_add_chain())

    def _offer_forced_triggers(self: "Duel") -> "Proc":
        """Mandatory triggers: each player puts theirs on the chain in the order they choose."""
        core = self.core
        tp = self.infos.turn_player
        while True:
            core.select_chains = []
            kept: list[Chain] = []
            for ch in core.new_fchain_s:
                peffect = ch.triggering_effect
                phandler = peffect.get_handler()
                if phandler.is_has_relation(ch):
                    ch.set_triggering_state(phandler)
                self._follow_controller(ch)
                p = ch.triggering_player
                if (self.check_trigger_effect(ch) and peffect.is_chainable(p)
                        and peffect.is_activateable(p, ch.evt, not peffect.is_flag(EFFECT_FLAG_ACTIVATE_CONDITION))):
                    if p == core.current_player:
                        ch.flag |= CHAIN_FORCED
                        core.select_chains.append(ch)
                    kept.append(ch)
                else:
                    peffect.active_type = 0
            core.new_fchain_s = kept
            if not core.select_chains:
                self.returns.ivalue[0] = -1
            elif len(core.select_chains) == 1:
                self.returns.ivalue[0] = 0
            else:
                self.add_process(self.proc_select_chain(core.current_player, 0x7F))
                yield
            if self.returns.ivalue[0] == -1:
                if core.new_fchain_s:
                    core.current_player = 1 - tp
                    continue
                core.current_player = tp
                return
            newchain = core.select_chains[self.returns.ivalue[0]]
            self._add_chosen_trigger(newchain)
            _remove_chain_id(core.new_fchain_s, newchain.chain_id)
            yield

    def _offer_optional_triggers(self: "Duel") -> "Proc":
        """Optional triggers: each player may add theirs to the chain, in the order they choose."""
        core = self.core
        tp = self.infos.turn_player
        while True:
            core.select_chains = []
            kept: list[Chain] = []
            for ch in core.new_ochain_s:
                peffect = ch.triggering_effect
                phandler = peffect.get_handler()
                if phandler.is_has_relation(ch):
                    ch.set_triggering_state(phandler)
                self._refresh_hand_trigger(ch)
                self._follow_controller(ch)
                p = ch.triggering_player
                if (self.check_nonpublic_trigger(ch) and self.check_trigger_effect(ch)
                        and peffect.is_chainable(p)
                        and peffect.is_activateable(p, ch.evt, not peffect.is_flag(EFFECT_FLAG_ACTIVATE_CONDITION))
                        and self.check_spself_from_hand_trigger(ch)):
                    if p == core.current_player:
                        core.select_chains.append(ch)
                    kept.append(ch)
                else:
                    peffect.active_type = 0
            core.new_ochain_s = kept
            if not core.select_chains:
                self.returns.ivalue[0] = -1
            elif len(core.select_chains) == 1 and not core.current_chain:
                handler = core.select_chains[0].triggering_effect.get_handler()
                self.add_process(self.proc_select_effect_yes_no(core.current_player, 221, handler))
                yield
                self.returns.ivalue[0] -= 1
            else:
                self.add_process(self.proc_select_chain(core.current_player, 0x7F))
                yield
            if self.returns.ivalue[0] == -1:
                for ch in core.select_chains:
                    ch.triggering_effect.active_type = 0
                    _remove_chain_id(core.new_ochain_s, ch.chain_id)
                if core.new_ochain_s:
                    core.current_player = 1 - tp
                    continue
                core.current_player = tp
                return
            newchain = core.select_chains[self.returns.ivalue[0]]
            self._add_chosen_trigger(newchain)
            _remove_chain_id(core.new_ochain_s, newchain.chain_id)
            _remove_chain_id(core.new_ochain_h, newchain.chain_id)
            yield

    def _obsolete_ignition_priority(self: "Duel") -> None:
        """Duel rule 1 only: after the turn player's summon, their ignition effects get priority."""
        core = self.core
        infos = self.infos
        if core.current_chain:
            return
        evt = (self.check_event(EVENT_SUMMON_SUCCESS) or self.check_event(EVENT_SPSUMMON_SUCCESS)
               or self.check_event(EVENT_FLIP_SUMMON_SUCCESS))
        if evt is None or evt.reason_player != infos.turn_player:
            return
        for peffect in self.effects.ignition_effect.all_effects():
            phandler = peffect.get_handler()
            e = Event(peffect.code)
            if (phandler.current.location == LOCATION_MZONE and peffect.is_chainable(infos.turn_player)
                    and peffect.is_activateable(infos.turn_player, e)):
                ch = self._new_link(peffect, e, phandler)
                ch.flag = 0
                ch.triggering_player = infos.turn_player
                core.ignition_priority_chains.append(ch)

    def _battle_step_continuous(self: "Duel", check_player: int) -> "Proc":
        """Offer one player their free-chain continuous effects, repeatedly, until they pass."""
        core = self.core
        free_event = Event(EVENT_FREE_CHAIN)
        while True:
            core.select_chains = []
            core.spe_effect[check_player] = 0
            for peffect in self.effects.continuous_effect.equal_range(EVENT_FREE_CHAIN):
                if peffect.get_handler_player() == check_player and peffect.is_activateable(check_player, free_event):
                    ch = Chain()
                    ch.triggering_effect = peffect
                    core.select_chains.append(ch)
                    core.spe_effect[check_player] += 1
            if not core.select_chains:
                return
            self.add_process(self.proc_select_chain(check_player, core.spe_effect[check_player]))
            yield
            if self.returns.ivalue[0] == -1:
                return
            peffect = core.select_chains[self.returns.ivalue[0]].triggering_effect
            core.select_chains = []
            self.solve_continuous(peffect.get_handler_player(), peffect, free_event)
            yield

    # ----- quick effects: each player in turn may respond ----------------------------------

    def proc_quick_effect(self: "Duel", skip_freechain: int, priority: int,
                          after_pass: bool = False) -> "Proc":
        """One player's chance to respond (``priority`` is that player).

        First the mandatory quick effects waiting in quick_f_chain are added;
        then the player chooses an effect to chain or passes.  Chaining gives
        the other player the next chance; when both pass in a row the chain is
        complete.  ``after_pass`` enters after the previous player's pass (the
        reference's entry at step 1).
        """
        core = self.core
        infos = self.infos
        check_opponent = False
        skip_first = after_pass
        while True:
            if not skip_first:
                check_player = 1 - infos.turn_player if check_opponent else infos.turn_player
                core.select_chains = []
                for peffect, ch in list(core.quick_f_chain.items()):
                    phandler = peffect.get_handler()
                    p = ch.triggering_player
                    if peffect.is_chainable(p) and peffect.check_count_limit(p) and phandler.is_has_relation(ch):
                        if p == check_player:
                            ch.flag |= CHAIN_FORCED
                            core.select_chains.append(ch)
                    else:
                        del core.quick_f_chain[peffect]
                if not core.select_chains:
                    self.returns.ivalue[0] = -1
                elif len(core.select_chains) == 1:
                    self.returns.ivalue[0] = 0
                else:
                    self.add_process(self.proc_select_chain(check_player, 0))
                    yield
            skip_first = False
            if self.returns.ivalue[0] == -1:
                if core.quick_f_chain:
                    check_opponent = True
                    continue
                if core.new_chains:
                    self.add_process(self.proc_add_chain())
                    self.add_process(self.proc_quick_effect(False, 1 - core.new_chains[-1].triggering_player))
                    infos.priorities[0] = 0
                    infos.priorities[1] = 0
                    return
                break
            newchain = core.select_chains[self.returns.ivalue[0]]
            peffect = newchain.triggering_effect
            peffect.get_handler().set_status(STATUS_CHAINING, True)
            peffect.dec_count(newchain.triggering_player)
            core.new_chains.append(newchain)
            core.quick_f_chain.pop(peffect, None)
        yield from self._offer_quick_effects(skip_freechain, priority)

    def _collect_event_responses(self: "Duel", priority: int) -> None:
        """Effects that could respond to what just happened (added to core.select_chains)."""
        core = self.core
        effects = self.effects
        for ev in list(core.point_event) + list(core.instant_event):
            for container in (effects.activate_effect, effects.quick_o_effect):
                for peffect in container.equal_range(ev.event_code):
                    peffect.set_activate_location()
                    if (not peffect.is_flag(EFFECT_FLAG_DELAY) and peffect.is_chainable(priority)
                            and peffect.is_activateable(priority, ev)):
                        ch = self._new_link(peffect, ev, peffect.get_handler())
                        ch.triggering_player = priority
                        core.select_chains.append(ch)
        for ch in core.new_ochain_h:
            peffect = ch.triggering_effect
            phandler = peffect.get_handler()
            self._refresh_hand_trigger(ch)
            if (ch.triggering_player == priority and not phandler.is_status(STATUS_CHAINING)
                    and ((ch.triggering_location == LOCATION_HAND and phandler.is_position(POS_FACEDOWN))
                         or ch.triggering_location == LOCATION_DECK)
                    and phandler.is_has_relation(ch) and peffect.is_chainable(priority)
                    and peffect.is_activateable(priority, ch.evt, True)
                    and self.check_spself_from_hand_trigger(ch)):
                core.select_chains.append(ch)
        # delayed activations and delayed quick effects (EFFECT_FLAG_DELAY)
        for ev in core.full_event:
            for peffect in effects.activate_effect.equal_range(ev.event_code):
                peffect.set_activate_location()
                if (peffect.is_flag(EFFECT_FLAG_DELAY) and peffect.is_chainable(priority)
                        and peffect.is_activateable(priority, ev)):
                    ch = self._new_link(peffect, ev, peffect.get_handler())
                    ch.triggering_player = priority
                    core.select_chains.append(ch)
            for peffect in effects.quick_o_effect.equal_range(ev.event_code):
                if (peffect.is_flag(EFFECT_FLAG_DELAY)
                        and peffect.is_condition_check(peffect.get_handler().current.controler, ev)):
                    core.delayed_quick.setdefault((peffect, ev.key()), (peffect, ev))
        for peffect, evt in list(core.delayed_quick.values()):
            peffect.set_activate_location()
            if peffect.is_chainable(priority) and peffect.is_activateable(priority, evt, True):
                ch = self._new_link(peffect, evt, peffect.get_handler())
                ch.triggering_player = priority
                core.select_chains.append(ch)

    def _offer_quick_effects(self: "Duel", skip_freechain: int, priority: int) -> "Proc":
        core = self.core
        infos = self.infos
        effects = self.effects
        core.select_chains = []
        if core.ignition_priority_chains:
            core.select_chains, core.ignition_priority_chains = core.ignition_priority_chains, []
        self._collect_event_responses(priority)
        core.spe_effect[priority] = len(core.select_chains)
        if not skip_freechain:
            free_event = Event(EVENT_FREE_CHAIN)
            for container, cteffect_hint in ((effects.activate_effect, True),
                                             (effects.quick_o_effect, False)):
                for peffect in container.equal_range(EVENT_FREE_CHAIN):
                    peffect.set_activate_location()
                    if peffect.is_chainable(priority) and peffect.is_activateable(priority, free_event):
                        ch = self._new_link(peffect, free_event, peffect.get_handler())
                        ch.triggering_player = priority
                        core.select_chains.append(ch)
                        if self.check_hint_timing(peffect) or (
                                cteffect_hint and self.check_cteffect_hint(peffect, priority)):
                            core.spe_effect[priority] += 1
        if core.current_chain or (core.hint_timing[0] & TIMING_ATTACK) or (core.hint_timing[1] & TIMING_ATTACK):
            core.spe_effect[priority] = len(core.select_chains)
        self.add_process(self.proc_select_chain(priority, core.spe_effect[priority]))
        yield
        if core.select_chains and self.returns.ivalue[0] != -1:
            newchain = core.select_chains[self.returns.ivalue[0]]
            core.new_chains.append(newchain)
            peffect = newchain.triggering_effect
            core.delayed_quick.pop((peffect, newchain.evt.key()), None)
            peffect.get_handler().set_status(STATUS_CHAINING, True)
            peffect.dec_count(priority)
            self.add_process(self.proc_add_chain())
            self.add_process(self.proc_quick_effect(False, 1 - priority))
            infos.priorities[0] = 0
            infos.priorities[1] = 0
        else:
            infos.priorities[priority] = 1
            if not infos.priorities[0] or not infos.priorities[1]:
                self.add_process(self.proc_quick_effect(skip_freechain, 1 - priority, after_pass=True))
            else:
                core.hint_timing[0] &= TIMING_DAMAGE_STEP | TIMING_DAMAGE_CAL
                core.hint_timing[1] &= TIMING_DAMAGE_STEP | TIMING_DAMAGE_CAL
        core.select_chains = []
