"""Chains: adding a link, resolving the chain, continuous effects, running script callbacks.

Reference: processor.cpp add_chain, solve_continuous, solve_chain,
break_effect, execute_cost / execute_operation / execute_target.

A chain link is built in steps: costs of EFFECT_ACTIVATE_COST, the card goes
to the field (a Spell/Trap activated from the hand) or is turned face-up,
MSG_CHAINING, the Continuous Trap "activate and use an effect" choice, the
cost, the target, then MSG_CHAINED and EVENT_CHAINING.  Resolution walks the
chain from the last link: negated activation, negated effect, or the
operation; then chain end clean-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..constants import (
    EFFECT_ACTIVATE_COST, EFFECT_COUNT_CODE_OATH, EFFECT_DISABLE_CHAIN, EFFECT_DISABLE_EFFECT,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CARD_TARGET, EFFECT_FLAG_CLIENT_HINT,
    EFFECT_FLAG_CONTINUOUS_TARGET, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_DAMAGE_CAL,
    EFFECT_FLAG_DAMAGE_STEP, EFFECT_FLAG_DELAY, EFFECT_FLAG_FIELD_ONLY, EFFECT_FLAG_LIMIT_ZONE,
    EFFECT_REMAIN_FIELD, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS, EFFECT_TYPE_FIELD,
    EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_XMATERIAL,
    EVENT_BECOME_TARGET, EVENT_CHAINING, EVENT_CHAIN_ACTIVATING, EVENT_CHAIN_DISABLED,
    EVENT_CHAIN_END, EVENT_CHAIN_NEGATED, EVENT_CHAIN_SOLVED, EVENT_CHAIN_SOLVING, HINT_OPSELECTED,
    LOCATION_DECK, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_SZONE, PHASE_DAMAGE,
    PHASE_DAMAGE_CAL, PLAYER_NONE, POS_FACEUP, REASON_RULE, RESET_CHAIN, RESET_EVENT,
    STATUS_ACT_FROM_HAND, STATUS_CHAINING, STATUS_DISABLED, STATUS_FORBIDDEN,
    STATUS_LEAVE_CONFIRMED, TIMING_CHAIN_END, TIMING_DAMAGE_CAL, TIMING_DAMAGE_STEP,
    TYPE_CONTINUOUS, TYPE_EQUIP, TYPE_FIELD, TYPE_MONSTER, TYPE_PENDULUM, TYPE_SPELL, TYPE_TRAP,
)
from ..core_constants import (
    CHAIN_ACTIVATING, CHAIN_CONTINUOUS_CARD, CHAIN_DISABLE_ACTIVATE, CHAIN_DISABLE_EFFECT,
    CHAIN_HAND_EFFECT, CODE_PHASE,
)
from ..event import Chain, Event
from ..messages import (LocInfo, MsgChainDisabled, MsgChained, MsgChainEnd, MsgChaining,
                        MsgChainSolved, MsgChainSolving, MsgHint, MsgMissedEffect)

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from .driver import Proc


class ChainMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- running script callbacks as coroutines ------------------------------------------

    def _run_callback(self: "Duel", fn: Any, peffect: "Effect", triggering_player: int,
                      with_chk: bool, extra: tuple) -> "Proc":
        """Run a cost/target/operation function, letting it suspend on processor work.

        Arguments: (e, tp, eg, ep, ev, re, r, rp[, chk=1], extra...) from the
        front of core.solving_event.  While it runs, core.reason_effect/player
        are this effect and player; deck and hand shuffles requested inside are
        done once when the outermost callback ends.  The function's result is
        left in returns.ivalue[0].

        Units that read that result (a procedure's target, a replacement's
        target, EFFECT_DISABLE_FIELD's operation) queue this unit and read the
        buffer in their next step; they cannot run it in place with ``yield
        from``: the script's last stretch, after its last suspension, may queue
        units itself (Duel.Activate queues without suspending), and those run
        before the caller goes on.
        """
        core = self.core
        core.solving_event[0:0] = core.sub_solving_event
        core.sub_solving_event = []
        if not fn:
            core.solving_event.pop(0)
            return
        e = core.solving_event[0]
        args: tuple = (peffect, triggering_player, e.event_cards, e.event_player, e.event_value,
                       e.reason_effect, e.reason, e.reason_player)
        if with_chk:
            args += (1,)
        args += extra
        if core.check_level == 0:
            core.shuffle_deck_check[0] = core.shuffle_deck_check[1] = False
            core.shuffle_hand_check[0] = core.shuffle_hand_check[1] = False
        saved_disabled = core.shuffle_check_disabled
        core.shuffle_check_disabled = False
        core.check_level += 1
        core.reason_effect = peffect
        core.reason_player = triggering_player
        task = self.script.start(fn, *args)
        value: Any = None
        while True:
            suspended, out = task.resume(value)
            if not suspended:
                break
            yield
            core.reason_effect = peffect
            core.reason_player = triggering_player
            value = out.result() if out is not None and hasattr(out, "result") else None
        self.returns.ivalue[0] = _yield_value(out)
        core.reason_effect = None
        core.reason_player = PLAYER_NONE
        core.check_level -= 1
        if core.check_level == 0:
            for p in (0, 1):
                if core.shuffle_hand_check[p]:
                    self.shuffle(p, LOCATION_HAND)
            for p in (0, 1):
                if core.shuffle_deck_check[p]:
                    self.shuffle(p, LOCATION_DECK)
        core.shuffle_check_disabled = saved_disabled
        core.solving_event.pop(0)

    def proc_execute_cost(self: "Duel", peffect: "Effect", triggering_player: int, *extra: Any) -> "Proc":
        yield from self._run_callback(peffect.cost, peffect, triggering_player, True, extra)

    def proc_execute_target(self: "Duel", peffect: "Effect", triggering_player: int, *extra: Any) -> "Proc":
        yield from self._run_callback(peffect.target, peffect, triggering_player, True, extra)

    def proc_execute_operation(self: "Duel", peffect: "Effect", triggering_player: int, *extra: Any) -> "Proc":
        yield from self._run_callback(peffect.operation, peffect, triggering_player, False, extra)

    def release_chain_limits(self: "Duel", permanent: bool = False) -> None:
        """Forget the chain limits set by Duel.SetChainLimit (or SetChainLimitTillChainEnd)."""
        lst = self.core.chain_limit_p if permanent else self.core.chain_limit
        for fn, _player in lst:
            self.script.release(fn)
        lst.clear()

    # ----- starting a chain from a menu ---------------------------------------------------------

    def start_chain(self: "Duel", newchain: Chain, player: int, evt: Event) -> "Proc":
        """``player`` activates ``newchain``'s effect as chain link 1.

        The link is built, the opponent gets the first chance to respond, and
        the chain then resolves.
        """
        core = self.core
        infos = self.infos
        peffect = newchain.triggering_effect
        phandler = peffect.get_handler()
        newchain.flag = 0
        newchain.chain_id = infos.field_id
        infos.field_id += 1
        newchain.evt = evt
        newchain.set_triggering_state(phandler)
        newchain.triggering_player = player
        core.new_chains.append(newchain)
        phandler.set_status(STATUS_CHAINING, True)
        peffect.dec_count(player)
        core.select_chains = []
        self.add_process(self.proc_add_chain())
        self.add_process(self.proc_quick_effect(False, 1 - player))
        infos.priorities[0] = 0
        infos.priorities[1] = 0
        yield
        self.resolve_current_chain()
        yield

    def activate_from_menu(self: "Duel", sel: int, free_event: Event) -> "Proc":
        """The turn player activates core.select_chains[sel] from the idle or battle menu.

        A continuous effect resolves at once (then the window after it);
        anything else starts a chain.
        """
        core = self.core
        newchain = core.select_chains[sel]
        peffect = newchain.triggering_effect
        if peffect.type & EFFECT_TYPE_CONTINUOUS:
            core.select_chains = []
            self.solve_continuous(peffect.get_handler_player(), peffect, free_event)
            yield
            self.adjust_instant()
            self.add_process(self.proc_point_event())
            yield
            return
        yield from self.start_chain(newchain, self.infos.turn_player, Event(peffect.code))

    def resolve_current_chain(self: "Duel") -> None:
        """The chain is complete: forget chain limits, end "being activated", queue its resolution."""
        self.release_chain_limits()
        for ch in self.core.current_chain:
            ch.triggering_effect.get_handler().set_status(STATUS_CHAINING, False)
        self.add_process(self.proc_solve_chain(0, 0))

    # ----- adding a chain link -----------------------------------------------------------------

    def proc_add_chain(self: "Duel") -> "Proc":
        """Put the first of core.new_chains on the chain (activation, cost, target)."""
        core = self.core
        if not core.new_chains:
            return
        clit = core.new_chains[0]
        peffect = clit.triggering_effect
        phandler = peffect.get_handler()
        tp = clit.triggering_player
        for eff in self.filter_player_effect(tp, EFFECT_ACTIVATE_COST):
            if not self.script.check_condition(eff.target, eff, clit.triggering_effect, tp):
                continue
            if eff.operation:
                core.sub_solving_event.append(clit.evt)
                self.add_process(self.proc_execute_operation(eff, tp))
        if peffect.type & EFFECT_TYPE_ACTIVATE:
            if peffect.get_required_handorset_effects(clit.required_handorset_effects, tp, clit.evt) != 2:
                clit.required_handorset_effects.clear()
            ctrl = phandler.current.controler
            if phandler.current.location == LOCATION_HAND:
                zone = 0xFF
                if not (phandler.data.type & (TYPE_FIELD | TYPE_PENDULUM)) and peffect.is_flag(EFFECT_FLAG_LIMIT_ZONE):
                    ev = clit.evt
                    zone = peffect.get_value(None, tp, ev.event_cards, ev.event_player, ev.event_value,
                                             ev.reason_effect, ev.reason, ev.reason_player)
                    if not zone:
                        zone = 0xFF
                phandler.enable_field_effect(False)
                phandler.set_status(STATUS_ACT_FROM_HAND, True)
                if phandler.data.type & TYPE_FIELD:
                    zone = 0x1 << 5
                self.move_to_field(phandler, ctrl, ctrl, LOCATION_SZONE, POS_FACEUP, False, 0,
                                   bool(phandler.data.type & TYPE_PENDULUM), zone)
            else:
                phandler.set_status(STATUS_ACT_FROM_HAND, False)
                self.change_position(phandler, None, ctrl, POS_FACEUP, 0)
        yield
        # (step 1) the activation is announced
        clit = core.new_chains[0]
        peffect = clit.triggering_effect
        phandler = peffect.get_handler()
        phandler.refresh_disable_status()
        if peffect.type & EFFECT_TYPE_ACTIVATE:
            clit.set_triggering_state(phandler)
        self.emit(MsgChaining(code=phandler.data.code, loc=LocInfo.from_raw(phandler.get_info_location()),
                              triggering_controller=clit.triggering_controler,
                              triggering_location=clit.triggering_location & 0xFF,
                              triggering_sequence=clit.triggering_sequence,
                              description=peffect.description & 0xFFFFFFFF,
                              chain_count=len(core.current_chain) + 1))
        self.release_chain_limits()
        peffect.card_type = phandler.get_type()
        if (peffect.card_type & (TYPE_TRAP | TYPE_MONSTER)) == (TYPE_TRAP | TYPE_MONSTER):
            peffect.card_type -= TYPE_TRAP
        peffect.set_active_type()
        if peffect.type & EFFECT_TYPE_XMATERIAL:
            peffect.active_handler = peffect.handler.overlay_target
            peffect.last_handler = peffect.handler.overlay_target
        clit.chain_count = len(core.current_chain) + 1
        clit.target_cards = None
        clit.target_player = PLAYER_NONE
        clit.target_param = 0
        clit.disable_reason = None
        clit.disable_player = PLAYER_NONE
        clit.replace_op = None
        if phandler.current.location == LOCATION_HAND:
            clit.flag |= CHAIN_HAND_EFFECT
        core.current_chain.append(clit)
        core.is_target_ready = False
        self.check_chain_counter(peffect, clit.triggering_player, clit.chain_count)
        # effects that are not triggered by an event relate to their card now
        if not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) and (
                not (peffect.type & (EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_TRIGGER_O))
                or peffect.get_code_type() == CODE_PHASE):
            phandler.create_relation(clit)
        peffect.effect_owner = clit.triggering_player
        # EFFECT_DISABLE_CHAIN is decided before the cost
        if not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) and phandler.is_has_relation(clit):
            deffect = phandler.is_affected_by_effect(EFFECT_DISABLE_EFFECT)
            if deffect is not None:
                negeff = self.new_effect()
                negeff.owner = deffect.owner
                negeff.type = EFFECT_TYPE_SINGLE
                negeff.code = EFFECT_DISABLE_CHAIN
                negeff.value = clit.chain_id
                negeff.reset_flag = RESET_CHAIN | RESET_EVENT | deffect.get_value()
                phandler.add_effect(negeff)
        core.new_chains.pop(0)
        # (steps 2-4) a Continuous Trap activated to use one of its effects at once
        clit = core.current_chain[-1]
        playerid = clit.triggering_player
        peffect = clit.triggering_effect
        use_now = False
        if self.get_cteffect(peffect, playerid, True):
            damage_step = self.infos.phase == PHASE_DAMAGE and not peffect.is_flag(EFFECT_FLAG_DAMAGE_STEP)
            damage_cal = self.infos.phase == PHASE_DAMAGE_CAL and not peffect.is_flag(EFFECT_FLAG_DAMAGE_CAL)
            if damage_step or damage_cal:
                use_now = True
            else:
                self.add_process(self.proc_select_effect_yes_no(playerid, 94, peffect.get_handler()))
                yield
                use_now = bool(self.returns.ivalue[0])
        if not use_now:
            core.select_chains = []
            core.select_options = []
        else:
            if len(core.select_chains) > 1:
                self.add_process(self.proc_select_option(clit.triggering_player))
                yield
            else:
                self.returns.ivalue[0] = 0
            self._use_cteffect(clit)
        # (steps 5-6) the required "hand or set" effect (e.g. activating a Trap from the hand)
        if clit.required_handorset_effects:
            yield from self._pay_handorset_effect(clit)
        # (step 7) the cost
        peffect = clit.triggering_effect
        peffect.cost_checked = True
        if peffect.cost:
            core.sub_solving_event.append(clit.evt)
            self.add_process(self.proc_execute_cost(peffect, clit.triggering_player))
            yield
        # (step 8) the target
        if peffect.target:
            core.sub_solving_event.append(clit.evt)
            self.add_process(self.proc_execute_target(peffect, clit.triggering_player))
            yield
        # (step 9) the link is complete
        yield from self._chain_link_done(clit)

    def _use_cteffect(self: "Duel", clit: Chain) -> None:
        """The Continuous Trap's chosen effect replaces its bare activation on this link."""
        core = self.core
        ch = core.select_chains[self.returns.ivalue[0]]
        playerid = clit.triggering_player
        peffect = ch.triggering_effect
        phandler = peffect.get_handler()
        desc = core.select_options[self.returns.ivalue[0]] if len(core.select_options) > 1 else 65
        self.emit(MsgHint(type=HINT_OPSELECTED, player=playerid, data=desc))
        clit.triggering_effect = peffect
        clit.evt = ch.evt
        phandler.create_relation(clit)
        peffect.set_active_type()
        peffect.dec_count(playerid)
        if not (peffect.type & EFFECT_TYPE_ACTIVATE):
            peffect.type |= EFFECT_TYPE_ACTIVATE
            clit.flag |= CHAIN_ACTIVATING
        core.select_chains = []
        core.select_options = []
        deffect = self.new_effect()
        deffect.owner = phandler
        deffect.code = 0
        deffect.type = EFFECT_TYPE_SINGLE
        deffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_CLIENT_HINT
        deffect.description = 65
        deffect.reset_flag = RESET_CHAIN
        phandler.add_effect(deffect)

    def _pay_handorset_effect(self: "Duel", clit: Chain) -> "Proc":
        """Choose which "may activate from the hand / the turn it was Set" effect is used."""
        core = self.core
        reqs = clit.required_handorset_effects
        if len(reqs) == 1:
            self.returns.ivalue[0] = 0
        else:
            unique_id = 0
            for req in reqs:
                rid = req.get_value(None, clit.triggering_effect, clit.triggering_player)
                if not rid or unique_id != rid:
                    unique_id = 0
                    break
                if not unique_id:
                    unique_id = rid
            if unique_id:
                self.returns.ivalue[0] = 0
            else:
                core.select_options = [req.description for req in reqs]
                self.add_process(self.proc_select_option(clit.triggering_player))
                yield
        ceffect = reqs[self.returns.ivalue[0]]
        ceffect.dec_count(clit.triggering_player)
        if ceffect.description:
            self.emit(MsgHint(type=HINT_OPSELECTED, player=clit.triggering_player, data=ceffect.description))
        if ceffect.cost:
            core.sub_solving_event.append(clit.evt)
            self.add_process(self.proc_execute_cost(ceffect, clit.triggering_player, clit.triggering_effect))
            yield

    def _chain_link_done(self: "Duel", clit: Chain) -> "Proc":
        core = self.core
        self.break_effect()
        core.is_target_ready = True
        peffect = clit.triggering_effect
        peffect.cost_checked = False
        phandler = peffect.get_handler()
        if clit.target_cards is not None and clit.target_cards.container and peffect.is_flag(EFFECT_FLAG_CARD_TARGET):
            for pcard in clit.target_cards.container:
                self.raise_single_event(pcard, None, EVENT_BECOME_TARGET, peffect, 0,
                                        clit.triggering_player, 0, clit.chain_count)
            self.process_single_event()
            if clit.target_cards.container:
                self.raise_event(clit.target_cards.container, EVENT_BECOME_TARGET, peffect, 0,
                                 clit.triggering_player, clit.triggering_player, clit.chain_count)
        if peffect.type & EFFECT_TYPE_ACTIVATE:
            core.leave_confirmed.add(phandler)
            if (not (phandler.data.type & (TYPE_CONTINUOUS | TYPE_FIELD | TYPE_EQUIP | TYPE_PENDULUM))
                    and not phandler.is_affected_by_effect(EFFECT_REMAIN_FIELD)):
                phandler.set_status(STATUS_LEAVE_CONFIRMED, True)
        htype = phandler.get_type()
        if ((htype & (TYPE_SPELL | TYPE_TRAP)) and (htype & (TYPE_CONTINUOUS | TYPE_FIELD | TYPE_EQUIP | TYPE_PENDULUM))
                and phandler.is_has_relation(clit) and phandler.current.location == LOCATION_SZONE
                and not peffect.is_flag(EFFECT_FLAG_FIELD_ONLY)):
            clit.flag |= CHAIN_CONTINUOUS_CARD
        self.emit(MsgChained(chain_count=clit.chain_count))
        self.raise_event(phandler, EVENT_CHAINING, peffect, 0, clit.triggering_player,
                         clit.triggering_player, clit.chain_count)
        self.process_instant_event()
        if core.new_chains:
            self.add_process(self.proc_add_chain())
        self.adjust_all()
        yield

    def break_effect(self: "Duel") -> None:
        """The timing breaks: optional "when" triggers that are not delayed miss their timing."""
        core = self.core
        core.hint_timing[0] &= TIMING_DAMAGE_STEP | TIMING_DAMAGE_CAL
        core.hint_timing[1] &= TIMING_DAMAGE_STEP | TIMING_DAMAGE_CAL
        kept: list[Chain] = []
        for ch in core.new_ochain:
            peffect = ch.triggering_effect
            if peffect.is_flag(EFFECT_FLAG_DELAY):
                kept.append(ch)
                continue
            if (peffect.is_flag(EFFECT_FLAG_FIELD_ONLY) or not (peffect.type & EFFECT_TYPE_FIELD)
                    or peffect.in_range(ch)):
                h = peffect.get_handler()
                self.emit(MsgMissedEffect(loc=LocInfo.from_raw(h.get_info_location()), code=h.data.code))
        core.new_ochain = kept
        core.used_event.extend(core.instant_event)
        core.instant_event = []
        self.adjust_instant()
        return 0

    # ----- continuous effects ------------------------------------------------------------------

    def solve_continuous(self: "Duel", playerid: int, peffect: "Effect", e: Event) -> None:
        """Queue a continuous effect to resolve at once (not on the chain)."""
        ch = Chain()
        ch.triggering_effect = peffect
        ch.triggering_player = playerid
        ch.evt = e
        self.core.sub_solving_continuous.append(ch)
        self.add_process(self.proc_solve_continuous())

    def proc_solve_continuous(self: "Duel") -> "Proc":
        """Resolve one continuous effect (target, then operation), then any delayed ones."""
        core = self.core
        core.solving_continuous[0:0] = core.sub_solving_continuous
        core.sub_solving_continuous = []
        clit = core.solving_continuous[0]
        peffect = clit.triggering_effect
        triggering_player = clit.triggering_player
        if not peffect.check_count_limit(triggering_player):
            core.solving_continuous.pop(0)
            return
        core.continuous_chain.append(clit)
        delayed = peffect.is_flag(EFFECT_FLAG_DELAY) or peffect.get_code_type() == CODE_PHASE
        if delayed:
            core.conti_solving = True
        saved_reason_effect = core.reason_effect
        saved_reason_player = core.reason_player
        if peffect.target:
            core.sub_solving_event.append(clit.evt)
            self.add_process(self.proc_execute_target(peffect, triggering_player))
            yield
        if peffect.operation:
            peffect.dec_count(triggering_player)
            core.sub_solving_event.append(clit.evt)
            self.add_process(self.proc_execute_operation(peffect, triggering_player))
            yield
        core.reason_effect = saved_reason_effect
        core.reason_player = saved_reason_player
        core.continuous_chain.pop()
        core.solving_continuous.pop(0)
        if not delayed:
            return
        core.conti_solving = False
        self.adjust_all()
        yield
        # (step 4) continuous effects delayed while this one resolved
        if core.conti_player == PLAYER_NONE:
            core.conti_player = self.infos.turn_player
        tp = self.infos.turn_player
        if core.conti_player == tp:
            if core.delayed_continuous_tp:
                core.sub_solving_continuous.append(core.delayed_continuous_tp.pop(0))
                self.add_process(self.proc_solve_continuous())
            else:
                core.conti_player = 1 - tp
        if core.conti_player == 1 - tp:
            if core.delayed_continuous_ntp:
                core.sub_solving_continuous.append(core.delayed_continuous_ntp.pop(0))
                self.add_process(self.proc_solve_continuous())
            elif core.delayed_continuous_tp:
                core.conti_player = tp
                core.sub_solving_continuous.append(core.delayed_continuous_tp.pop(0))
                self.add_process(self.proc_solve_continuous())
            else:
                core.conti_player = PLAYER_NONE

    # ----- resolving the chain ------------------------------------------------------------------

    def proc_solve_chain(self: "Duel", chainend_arg1: int, chainend_arg2: int) -> "Proc":
        """Resolve the chain from its last link; then the chain-end clean-up and window."""
        core = self.core
        if not core.current_chain:
            return
        while True:
            cait = core.current_chain[-1]
            yield from self._resolve_link(cait)
            # (step 10) clean up after the link
            self._after_link(cait)
            self.adjust_all()
            core.current_chain.pop()
            if not core.current_chain:
                self.release_chain_limits()
                yield
                break
            if core.summoning_card is not None:
                core.subunits.append(core.summon_reserved)
            core.summoning_card = None
            yield
        # (step 11) cards whose activation finished go to the GY
        for pcard in list(core.leave_confirmed):
            if not pcard.is_status(STATUS_LEAVE_CONFIRMED):
                core.leave_confirmed.discard(pcard)
        if core.leave_confirmed:
            self.send_to(core.leave_confirmed.copy(), None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                         LOCATION_GRAVE, 0, POS_FACEUP)
            yield
        # (step 12) chain end
        core.used_event.extend(core.point_event)
        core.point_event = []
        self.emit(MsgChainEnd())
        self.release_chain_limits(permanent=True)
        for d in core.effect_count_code_chain:
            d.clear()
        self.reset_chain()
        if core.summoning_card is not None:
            core.subunits.append(core.summon_reserved)
        if core.effect_damage_step == 1:
            core.subunits.append(core.damage_step_reserved)
        core.summoning_card = None
        yield
        # (step 13)
        self.raise_event(None, EVENT_CHAIN_END, None, 0, 0, 0, 0)
        self.process_instant_event()
        self.adjust_all()
        if chainend_arg1 != 0x101 or chainend_arg2 != 1:
            core.hint_timing[0] |= TIMING_CHAIN_END
            core.hint_timing[1] |= TIMING_CHAIN_END
            self.add_process(self.proc_point_event(chainend_arg1 & 0xFF, (chainend_arg1 >> 8) & 0xFF,
                                                   chainend_arg2))
        self.returns.ivalue[0] = 1

    def _resolve_link(self: "Duel", cait: Chain) -> "Proc":
        """Steps 0-5: activation negated, effect negated, or the operation resolves."""
        core = self.core
        core.phase_action = True
        self.emit(MsgChainSolving(chain_count=cait.chain_count))
        self.add_to_disable_check_list(cait.triggering_effect.get_handler())
        self.adjust_instant()
        self.raise_event(None, EVENT_CHAIN_ACTIVATING, cait.triggering_effect, 0, cait.triggering_player,
                         cait.triggering_player, cait.chain_count)
        self.process_instant_event()
        yield
        peffect = cait.triggering_effect
        if (cait.flag & CHAIN_DISABLE_ACTIVATE) and self.is_chain_negatable(cait.chain_count):
            self.remove_oath_effect(peffect)
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and (peffect.count_code & EFFECT_COUNT_CODE_OATH):
                self.dec_effect_code(peffect.count_code, cait.triggering_player)
            self.check_chain_counter(peffect, cait.triggering_player, cait.chain_count, True)
            cc = cait.chain_count
            core.new_fchain = [c for c in core.new_fchain
                               if not (c.evt.event_code == EVENT_CHAINING and c.evt.event_value == cc)]
            core.new_ochain = [c for c in core.new_ochain
                               if not (c.evt.event_code == EVENT_CHAINING and c.evt.event_value == cc)]
            self.raise_event(None, EVENT_CHAIN_NEGATED, peffect, 0, cait.triggering_player,
                             cait.triggering_player, cait.chain_count)
            self.process_instant_event()
            yield
            return
        self.release_oath_relation(peffect)
        self.break_effect()
        core.chain_solving = True
        self.raise_event(None, EVENT_CHAIN_SOLVING, peffect, 0, cait.triggering_player,
                         cait.triggering_player, cait.chain_count)
        self.process_instant_event()
        yield
        # (step 2)
        pcard = peffect.get_handler()
        skip_op = False
        if (cait.flag & CHAIN_CONTINUOUS_CARD) and not pcard.is_has_relation(cait):
            skip_op = True
        else:
            if (peffect.type & EFFECT_TYPE_ACTIVATE) and pcard.is_has_relation(cait) and not cait.replace_op:
                pcard.enable_field_effect(True)
                if core.duel_rule <= 2 and (pcard.data.type & TYPE_FIELD):
                    fscard = self.player[1 - pcard.current.controler].list_szone[5]
                    if fscard is not None and fscard.is_position(POS_FACEUP):
                        fscard.enable_field_effect(False)
                self.adjust_instant()
            if self.is_chain_disablable(cait.chain_count) and (
                    not peffect.is_flag(EFFECT_FLAG_CONTINUOUS_TARGET) or cait.replace_op):
                if self.is_chain_disabled(cait.chain_count) or (
                        pcard.get_status(STATUS_DISABLED | STATUS_FORBIDDEN) and pcard.is_has_relation(cait)):
                    if not (cait.flag & CHAIN_DISABLE_EFFECT):
                        self.emit(MsgChainDisabled(chain_count=cait.chain_count))
                    self.raise_event(None, EVENT_CHAIN_DISABLED, peffect, 0, cait.triggering_player,
                                     cait.triggering_player, cait.chain_count)
                    self.process_instant_event()
                    skip_op = True
        # every way out of step 2 ends the step: what adjust_instant queued (a self-destroy
        # of the card just enabled, ...) runs before the operation and before CHAIN_SOLVED
        yield
        saved_op = None
        if not skip_op:
            # (step 3) the operation
            if cait.replace_op:
                saved_op = cait.triggering_effect.operation
                cait.triggering_effect.operation = cait.replace_op
            if cait.triggering_effect.operation:
                core.sub_solving_event.append(cait.evt)
                self.add_process(self.proc_execute_operation(cait.triggering_effect, cait.triggering_player))
            yield
        # (step 4)
        if saved_op is not None:
            peffect.operation = saved_op
        core.special_summoning.clear()
        core.equiping_cards.clear()
        yield
        # (step 5)
        core.chain_solving = False
        tp = self.infos.turn_player
        if core.delayed_continuous_tp:
            core.conti_player = tp
            core.sub_solving_continuous.append(core.delayed_continuous_tp.pop(0))
            self.add_process(self.proc_solve_continuous())
        elif core.delayed_continuous_ntp:
            core.conti_player = 1 - tp
            core.sub_solving_continuous.append(core.delayed_continuous_ntp.pop(0))
            self.add_process(self.proc_solve_continuous())
        else:
            core.conti_player = PLAYER_NONE
        self.emit(MsgChainSolved(chain_count=cait.chain_count))
        self.raise_event(None, EVENT_CHAIN_SOLVED, cait.triggering_effect, 0, cait.triggering_player,
                         cait.triggering_player, cait.chain_count)
        self.adjust_disable_check_list()
        self.process_instant_event()
        yield

    def _after_link(self: "Duel", cait: Chain) -> None:
        """Step 10: undo what the link set up (relations, temporary types, hand shuffle)."""
        core = self.core
        peffect = cait.triggering_effect
        pcard = peffect.get_handler()
        if (peffect.type & EFFECT_TYPE_ACTIVATE) and (cait.flag & CHAIN_ACTIVATING):
            peffect.type &= ~EFFECT_TYPE_ACTIVATE
        if (cait.flag & CHAIN_HAND_EFFECT) and not pcard.is_position(POS_FACEUP) and pcard.current.location == LOCATION_HAND:
            self.shuffle(pcard.current.controler, LOCATION_HAND)
        if cait.target_cards is not None and cait.target_cards.container:
            for ptarget in cait.target_cards.container:
                ptarget.release_relation(cait)
        if ((pcard.data.type & TYPE_EQUIP) and (peffect.type & EFFECT_TYPE_ACTIVATE)
                and pcard.equiping_target is None and pcard.is_has_relation(cait)):
            pcard.set_status(STATUS_LEAVE_CONFIRMED, True)
        if core.duel_rule <= 2:
            if ((pcard.data.type & TYPE_FIELD) and (peffect.type & EFFECT_TYPE_ACTIVATE)
                    and not pcard.is_status(STATUS_LEAVE_CONFIRMED) and pcard.is_has_relation(cait)):
                fscard = self.player[1 - pcard.current.controler].list_szone[5]
                if fscard is not None and fscard.is_position(POS_FACEUP):
                    self.destroy(fscard, None, REASON_RULE, 1 - pcard.current.controler)
        peffect.active_handler = None
        pcard.release_relation(cait)
        for cit in list(core.delayed_enable_set):
            if cit.current.location == LOCATION_MZONE:
                cit.enable_field_effect(True)
        core.delayed_enable_set.clear()


def _yield_value(out: Any) -> int:
    """A callback's result as the reference reads it: last value, boolean as 0/1, else integer."""
    if not out:
        return 0
    v = out[-1] if isinstance(out, (tuple, list)) else out
    if v is True:
        return 1
    if v is False or v is None:
        return 0
    try:
        return int(v) & 0xFFFFFFFF if int(v) >= 0 else int(v)
    except (TypeError, ValueError):
        return 0
