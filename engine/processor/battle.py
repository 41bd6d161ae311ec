"""The Battle Phase: battle commands, attack declaration, replays, the Damage Step.

Reference: processor.cpp process_battle_command, process_damage_step,
calculate_battle_damage.

The Battle Step loop: the turn player may activate an effect, declare an
attack, or move on (Main Phase 2 or End Phase).  An attack: choose the
attacker, pay attack costs, choose the target (or attack directly), announce
it (MSG_ATTACK), give both players a window; if the opponent's monsters
changed the attack is replayed (the player may choose a new target or stop).
Then the Damage Step: start, flip a face-down target, damage calculation
(MSG_BATTLE, battle damage, monsters destroyed by battle), end.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    ACTIVITY_ATTACK, DOUBLE_DAMAGE, EFFECT_ALSO_BATTLE_DAMAGE, EFFECT_ATTACK_COST,
    EFFECT_ATTACK_DISABLED, EFFECT_AVOID_BATTLE_DAMAGE, EFFECT_BATTLE_DAMAGE_TO_EFFECT,
    EFFECT_BATTLE_DESTROY_REDIRECT, EFFECT_BOTH_BATTLE_DAMAGE, EFFECT_BP_TWICE,
    EFFECT_CANNOT_ATTACK_ANNOUNCE, EFFECT_CANNOT_DIRECT_ATTACK, EFFECT_CANNOT_M2,
    EFFECT_CHANGE_BATTLE_DAMAGE, EFFECT_CHANGE_INVOLVING_BATTLE_DAMAGE, EFFECT_DEFENSE_ATTACK,
    EFFECT_FIRST_ATTACK, EFFECT_FLAG_PLAYER_TARGET, EFFECT_INDESTRUCTABLE_BATTLE,
    EFFECT_MUST_ATTACK, EFFECT_MUST_ATTACK_MONSTER, EFFECT_NO_BATTLE_DAMAGE,
    EFFECT_PATRICIAN_OF_DARKNESS, EFFECT_PIERCE, EFFECT_REFLECT_BATTLE_DAMAGE, EFFECT_SKIP_BP,
    EVENT_ATTACK_ANNOUNCE, EVENT_BATTLED, EVENT_BATTLE_CONFIRM, EVENT_BATTLE_DESTROYED,
    EVENT_BATTLE_DESTROYING, EVENT_BATTLE_START, EVENT_BE_BATTLE_TARGET, EVENT_DAMAGE_STEP_END,
    EVENT_DESTROYED, EVENT_FREE_CHAIN, EVENT_PRE_BATTLE_DAMAGE, EVENT_PRE_DAMAGE_CALCULATE,
    HALF_DAMAGE, HINT_CARD, HINT_EVENT, HINT_SELECTMSG, LOCATION_GRAVE, LOCATION_MZONE,
    PHASE_BATTLE, PHASE_BATTLE_STEP, PHASE_DAMAGE, PHASE_DAMAGE_CAL, PLAYER_NONE, POS_ATTACK,
    POS_FACEDOWN, POS_FACEUP, POS_FACEUP_DEFENSE, REASON_BATTLE, REASON_EFFECT, REASON_REPLACE,
    RESET_CODE, STATUS_ATTACK_CANCELED, STATUS_BATTLE_DESTROYED, STATUS_BATTLE_RESULT,
    STATUS_CANNOT_CHANGE_FORM, STATUS_DESTROY_CONFIRMED, STATUS_OPPO_BATTLE, TIMING_ATTACK,
    TIMING_BATTLED, TIMING_BATTLE_PHASE, TIMING_BATTLE_STEP_END, TIMING_DAMAGE_CAL,
    TIMING_DAMAGE_STEP, TYPE_MONSTER,
)
from ..event import Chain, Event
from ..group import CardSet
from ..messages import (LocInfo, MsgAttack, MsgAttackDisabled, MsgBattle, MsgBecomeTarget,
                        MsgDamageStepEnd, MsgDamageStepStart, MsgHint)
from .driver import Suspend
from ..effect_rules import effect_sort_key

if TYPE_CHECKING:
    from ..card import Card
    from ..duel import Duel
    from .driver import Proc

_NO_TARGET = -2


class BattleMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ----- the battle command loop -------------------------------------------------------

    def _collect_battle_activations(self: "Duel", free_event: Event) -> None:
        core = self.core
        tp = self.infos.turn_player
        effects = self.effects
        for peffect in effects.activate_effect.equal_range(EVENT_FREE_CHAIN):
            peffect.set_activate_location()
            if peffect.is_activateable(tp, free_event) and peffect.get_speed() > 1:
                ch = Chain()
                ch.triggering_effect = peffect
                core.select_chains.append(ch)
        for peffect in effects.quick_o_effect.equal_range(EVENT_FREE_CHAIN):
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

    def _collect_attackers(self: "Duel") -> None:
        """Which monsters may declare an attack; sets to_m2 / to_ep."""
        core = self.core
        tp = self.infos.turn_player
        core.attackable_cards = []
        first_attack: list[Card] = []
        must_attack: list[Card] = []
        if not self.is_player_affected_by_effect(tp, EFFECT_CANNOT_ATTACK_ANNOUNCE):
            for pcard in self.player[tp].list_mzone:
                if pcard is None or not pcard.is_capable_attack_announce(tp):
                    continue
                chain_attack = core.chain_attack and core.chain_attacker_id == pcard.fieldid
                cv: list[Card] = []
                self.get_attack_target(pcard, cv, chain_attack)
                if not cv and pcard.direct_attackable == 0:
                    continue
                core.attackable_cards.append(pcard)
                if pcard.is_affected_by_effect(EFFECT_FIRST_ATTACK):
                    first_attack.append(pcard)
                if pcard.is_affected_by_effect(EFFECT_MUST_ATTACK):
                    must_attack.append(pcard)
            if first_attack:
                core.attackable_cards = first_attack
        core.to_m2 = True
        core.to_ep = True
        if must_attack or self.is_player_affected_by_effect(tp, EFFECT_CANNOT_M2):
            core.to_m2 = False
        if must_attack:
            core.to_ep = False

    def proc_battle_command(self: "Duel") -> "Proc":
        """The Battle Step: offer battle commands until the player leaves the Battle Phase.

        Returns (the player's choice: 2 Main Phase 2, 3 End Phase; 1 when a
        second Battle Phase follows, else 0), which the turn takes with
        ``yield from``.  Both are also left in returns.ivalue[0] and [1], where
        the reference leaves them (docs/architecture.md, "What stays on the
        returns buffer").
        """
        core = self.core
        infos = self.infos
        free_event = Event(EVENT_FREE_CHAIN)
        while True:
            tp = infos.turn_player
            core.select_chains = []
            if not core.chain_attack:
                core.chain_attacker_id = 0
                core.chain_attack_target = None
            core.attack_player = False
            core.attacker = None
            core.attack_target = None
            skip_effect = self.is_player_affected_by_effect(tp, EFFECT_SKIP_BP)
            if skip_effect is not None:
                return (yield from self._skip_battle_step(skip_effect))
            self._collect_battle_activations(free_event)
            self._collect_attackers()
            core.attack_cancelable = True
            self.add_process(self.proc_select_battle_command(tp))
            yield
            ctype = self.returns.ivalue[0] & 0xFFFF
            sel = (self.returns.ivalue[0] >> 16) & 0xFFFF
            if ctype == 0:
                yield from self.activate_from_menu(sel, free_event)
            elif ctype == 1:
                yield from self._declare_attack(sel)
            else:
                ended = yield from self._leave_battle_step(ctype)
                if ended is not None:
                    return ended

    def _skip_battle_step(self: "Duel", skip_effect) -> "Proc":
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        second = 1 if self.is_player_affected_by_effect(tp, EFFECT_BP_TWICE) else 0
        if not skip_effect.value:
            self.reset_phase(PHASE_BATTLE_STEP)
            self.adjust_all()
            infos.phase = PHASE_BATTLE
            self.add_process(self.proc_phase_event(PHASE_BATTLE))
        else:
            core.hint_timing[tp] = 0
            self.reset_phase(PHASE_BATTLE)
            self.adjust_all()
        yield
        core.attacker = None
        core.attack_target = None
        self.returns.ivalue[0] = 2
        self.returns.ivalue[1] = second
        return 2, second

    def _leave_battle_step(self: "Duel", ctype: int) -> "Proc":
        """Main Phase 2 (2) or End Phase (3): the opponent may respond first.

        Returns (ctype, second Battle Phase 0/1) when the Battle Phase really
        ends, None when a chain was built instead.
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        self.emit(MsgHint(type=HINT_EVENT, player=1 - tp, data=29))
        core.select_chains = []
        core.hint_timing[tp] = TIMING_BATTLE_STEP_END
        self.add_process(self.proc_quick_effect(False, 1 - tp))
        infos.priorities[tp] = 1
        infos.priorities[1 - tp] = 0
        yield
        if core.current_chain:
            self.resolve_current_chain()
            yield
            return None
        self.release_chain_limits()
        self.reset_phase(PHASE_BATTLE_STEP)
        self.adjust_all()
        yield
        second = 1 if self.is_player_affected_by_effect(tp, EFFECT_BP_TWICE) else 0
        infos.phase = PHASE_BATTLE
        self.add_process(self.proc_phase_event(PHASE_BATTLE))
        self.adjust_all()
        yield
        core.attacker = None
        core.attack_target = None
        self.returns.ivalue[0] = ctype
        self.returns.ivalue[1] = second
        return ctype, second

    # ----- declaring an attack -------------------------------------------------------------

    def _declare_attack(self: "Duel", sel: int) -> "Proc":
        """One attack, from choosing the attacker to the end of its Damage Step."""
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        failed = False          # the reference's arg3: the attack announcement failed
        rollback = False        # the reference's arg1: this is a replay
        core.attacker = core.attackable_cards[sel]
        core.attacker.set_status(STATUS_ATTACK_CANCELED, False)
        core.attacker.attack_controler = core.attacker.current.controler
        core.pre_field[0] = core.attacker.fieldid_r
        if core.chain_attack and core.chain_attacker_id != core.attacker.fieldid:
            core.chain_attack = False
            core.chain_attacker_id = 0
        eset = self.filter_player_effect(tp, EFFECT_ATTACK_COST, sort=False)
        eset = core.attacker.filter_effect(EFFECT_ATTACK_COST, eset)
        for eff in eset:
            if eff.operation:
                core.attack_cancelable = False
                core.sub_solving_event.append(self.nil_event)
                self.add_process(self.proc_execute_operation(eff, tp))
                self.adjust_all()
        yield
        # (step 3)
        rollback = False
        if core.attacker.is_status(STATUS_ATTACK_CANCELED):
            failed = True
        else:
            failed, cancelled = yield from self._choose_attack_target()
            if cancelled:
                return
        while True:
            # (step 7) the attack is announced, or its announcement failed
            if not rollback:
                core.phase_action = True
                core.attack_state_count[tp] += 1
                self.check_card_counter(core.attacker, ACTIVITY_ATTACK, tp)
                core.attacker.attack_announce_count += 1
            if failed:
                core.attacker.announce_count += 1
                core.attacker.set_status(STATUS_CANNOT_CHANGE_FORM, True)
                core.chain_attack = False
                return
            yield from self._announce_attack(rollback)
            outcome = yield from self._attack_windows()
            if outcome == "damage":
                yield from self._damage_step()
                return
            if outcome == "stop":
                yield from self._attack_stopped()
                return
            # replay: choose again (the reference's step 4)
            rollback = True
            failed = False
            failed, cancelled = yield from self._choose_attack_target()
            if cancelled:
                yield from self._attack_stopped()
                return

    def _choose_attack_target(self: "Duel") -> "Proc":
        """Choose what the attacker attacks.  Returns (failed, cancelled).

        ``failed``: no legal target remains (the announcement fails).
        ``cancelled``: the player cancelled the attack.
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        core.attack_player = False
        core.select_cards = []
        atype = self.get_attack_target(core.attacker, core.select_cards, core.chain_attack)
        answer_direct = None
        if core.attacker.direct_attackable:
            if not core.select_cards:
                answer_direct = True
            else:
                if self.is_player_affected_by_effect(tp, EFFECT_PATRICIAN_OF_DARKNESS):
                    self.add_process(self.proc_select_effect_yes_no(1 - tp, 31, core.attacker))
                else:
                    self.add_process(self.proc_select_yes_no(tp, 31))
                yield
                if self.returns.ivalue[0]:
                    answer_direct = True
                elif core.select_cards:
                    opposel = self.is_player_affected_by_effect(tp, EFFECT_PATRICIAN_OF_DARKNESS)
                    chooser = 1 - tp if opposel else tp
                    self.emit(MsgHint(type=HINT_SELECTMSG, player=chooser, data=549))
                    # the reference packs "cancelable" as 0x20000 in the player argument: it reads back as 2
                    cancelable = 2 if (not opposel and core.attack_cancelable) else 0
                    self.add_process(self.proc_select_card(chooser, cancelable, 1, 1))
                    yield
                else:
                    return True, False
        else:
            if not core.select_cards:
                return True, False
            must_attack_monster = atype == 3
            oppo_select = bool(self.is_player_affected_by_effect(tp, EFFECT_PATRICIAN_OF_DARKNESS))
            if not oppo_select and must_attack_monster and len(core.select_cards) > 1:
                eset = core.attacker.filter_effect(EFFECT_MUST_ATTACK_MONSTER)
                oppo_select = len(eset) > 1
            if oppo_select:
                if len(core.select_cards) == 1:
                    self.returns.bvalue[1] = 0
                else:
                    self.emit(MsgBecomeTarget(cards=(LocInfo.from_raw(core.attacker.get_info_location()),)))
                    self.emit(MsgHint(type=HINT_SELECTMSG, player=1 - tp, data=549))
                    self.add_process(self.proc_select_card(1 - tp, False, 1, 1))
                    yield
            else:
                self.emit(MsgHint(type=HINT_SELECTMSG, player=tp, data=549))
                # the reference packs "cancelable" as 0x20000 in the player argument: it reads back as 2
                cancelable = 2 if (core.attack_cancelable and not must_attack_monster) else 0
                self.add_process(self.proc_select_card(tp, cancelable, 1, 1))
                yield
        # (step 6) the answer
        if answer_direct:
            core.attack_target = None
        else:
            if self.returns.ivalue[0] == -1:
                return False, True
            core.attack_target = core.select_cards[self.returns.bvalue[1]]
        core.pre_field[1] = core.attack_target.fieldid_r if core.attack_target is not None else 0
        return False, False

    def _announce_attack(self: "Duel", rollback: bool) -> "Proc":
        """MSG_ATTACK, the attack-declaration events and the window after them (step 8)."""
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        core.attack_cancelable = True
        target_info = None
        if core.attack_target is not None:
            self.raise_single_event(core.attack_target, None, EVENT_BE_BATTLE_TARGET, None, 0, 0, 1 - tp, 0)
            self.raise_event(core.attack_target, EVENT_BE_BATTLE_TARGET, None, 0, 0, 1 - tp, 0)
            target_info = LocInfo.from_raw(core.attack_target.get_info_location())
        self.emit(MsgAttack(attacker=LocInfo.from_raw(core.attacker.get_info_location()), target=target_info))
        core.attack_rollback = False
        core.opp_mzone = {c.fieldid_r for c in self.player[1 - tp].list_mzone if c is not None}
        if not rollback:
            self.raise_single_event(core.attacker, None, EVENT_ATTACK_ANNOUNCE, None, 0, 0, tp, 0)
            self.raise_event(core.attacker, EVENT_ATTACK_ANNOUNCE, None, 0, 0, tp, 0)
        core.attacker.attack_controler = core.attacker.current.controler
        core.pre_field[0] = core.attacker.fieldid_r
        self.process_single_event()
        self.process_instant_event()
        core.hint_timing[tp] = TIMING_ATTACK
        self.add_process(self.proc_point_event())
        yield

    def _attack_windows(self: "Duel") -> "Proc":
        """After the announcement: the Battle Step windows (steps 9-12).

        Returns "damage" (go to the Damage Step), "stop" (the attack ends
        without battle), or "replay" (choose a new target).
        """
        core = self.core
        infos = self.infos
        tp = infos.turn_player
        while True:
            if (self.is_player_affected_by_effect(tp, EFFECT_SKIP_BP)
                    or core.attacker.is_status(STATUS_ATTACK_CANCELED) or core.attack_rollback):
                break
            self.emit(MsgHint(type=HINT_EVENT, player=0, data=24))
            self.emit(MsgHint(type=HINT_EVENT, player=1, data=24))
            core.hint_timing[0] = TIMING_BATTLE_PHASE
            core.hint_timing[1] = TIMING_BATTLE_PHASE
            # queued, not run in place: when a chain was built the window queues its
            # resolution at its end, and that (proc_solve_chain, then the chain-end
            # window) must run before this reads returns.ivalue[0] (0: no chain)
            self.add_process(self.proc_point_event(battle_step_continuous=True))
            yield
            if self.returns.ivalue[0]:
                continue    # a chain resolved: check again and reopen the window
            self.adjust_all()
            yield
            break
        # (step 11)
        if core.attacker.is_affected_by_effect(EFFECT_ATTACK_DISABLED):
            core.attacker.reset(EFFECT_ATTACK_DISABLED, RESET_CODE)
            self.emit(MsgAttackDisabled())
            core.attacker.set_status(STATUS_ATTACK_CANCELED, True)
        if self.is_player_affected_by_effect(tp, EFFECT_SKIP_BP) or core.attacker.is_status(STATUS_ATTACK_CANCELED):
            return "stop"
        if not core.attack_rollback:
            core.attacker.announce_count += 1
            core.attacker.set_status(STATUS_CANNOT_CHANGE_FORM, True)
            core.attacker.announced_cards.addcard(core.attack_target)
            self.attack_all_target_check()
            return "damage"
        cv: list[Card] = []
        self.get_attack_target(core.attacker, cv, core.chain_attack)
        if not cv and not core.attacker.direct_attackable:
            return "stop"
        # the replay: the player may attack again (a new target) or not
        if not core.attacker.is_affected_by_effect(EFFECT_MUST_ATTACK):
            self.add_process(self.proc_select_yes_no(tp, 30))
            yield
        else:
            self.returns.ivalue[0] = 1
            core.attack_cancelable = False
        return "replay" if self.returns.ivalue[0] else "stop"

    def _attack_stopped(self: "Duel") -> "Proc":
        """The attack ended without battle (step 13)."""
        core = self.core
        if core.attacker.fieldid_r == core.pre_field[0]:
            core.attacker.announce_count += 1
            core.attacker.set_status(STATUS_CANNOT_CHANGE_FORM, True)
            core.attacker.announced_cards.addcard(core.attack_target)
            self.attack_all_target_check()
        core.chain_attack = False
        self.reset_phase(PHASE_DAMAGE)
        self.adjust_all()
        yield

    # ----- the Damage Step ---------------------------------------------------------------

    def _damage_step(self: "Duel") -> "Proc":
        """From the start of the Damage Step to its end (reference steps 19-39)."""
        core = self.core
        infos = self.infos
        attacker = core.attacker
        infos.phase = PHASE_DAMAGE
        core.chain_attack = False
        core.damage_calculated = False
        core.selfdes_disabled = True
        core.flip_delayed = True
        attacker.attack_controler = attacker.current.controler
        core.pre_field[0] = attacker.fieldid_r
        if core.attack_target is not None:
            core.attack_target.attack_controler = core.attack_target.current.controler
            core.pre_field[1] = core.attack_target.fieldid_r
        else:
            core.pre_field[1] = 0
        attacker.attacked_count += 1
        attacker.attacked_cards.addcard(core.attack_target)
        core.battled_count[infos.turn_player] += 1
        self.adjust_all()
        yield
        # start of the Damage Step
        self.emit(MsgDamageStepStart())
        self._raise_battle_event(EVENT_BATTLE_START)
        self._hint_both(40)
        self.add_process(self.proc_point_event(0, 0, 1))
        yield
        des = None
        if not core.attacker.is_status(STATUS_ATTACK_CANCELED):
            target = core.attack_target
            if target is not None:
                core.attacker.temp.position = core.attacker.current.position
                target.temp.position = target.current.position
                if target.is_position(POS_FACEDOWN):
                    self.change_position(target, None, PLAYER_NONE, target.current.position >> 1, 0, True)
                    self.adjust_all()
                    yield
            # battle confirmation (before damage calculation)
            self.raise_single_event(core.attacker, None, EVENT_BATTLE_CONFIRM, None, 0, 0, 0, 0)
            if core.attack_target is not None:
                if core.attack_target.temp.position & POS_FACEDOWN:
                    core.pre_field[1] = core.attack_target.fieldid_r
                self.raise_single_event(core.attack_target, None, EVENT_BATTLE_CONFIRM, None, 0, 0, 0, 1)
            self.raise_event(None, EVENT_BATTLE_CONFIRM, None, 0, 0, 0, 0)
            self.process_single_event()
            self.process_instant_event()
            self._hint_both(41)
            core.hint_timing[infos.turn_player] = TIMING_DAMAGE_STEP
            self.add_process(self.proc_point_event())
            yield
            if not core.attacker.is_status(STATUS_ATTACK_CANCELED):
                infos.phase = PHASE_DAMAGE_CAL
                self.adjust_all()
                yield
                self.calculate_battle_damage()
                self._raise_battle_event(EVENT_PRE_DAMAGE_CALCULATE)
                self._hint_both(42)
                core.hint_timing[infos.turn_player] = TIMING_DAMAGE_CAL
                self.add_process(self.proc_point_event(0, 0, 1))
                yield
                if core.attacker.is_status(STATUS_ATTACK_CANCELED):
                    self.reset_phase(PHASE_DAMAGE_CAL)
                    self.adjust_all()
                    infos.phase = PHASE_DAMAGE
                    yield
                else:
                    des = yield from self._damage_calculation()
                    yield from self._battled_window(des)
        yield from self._damage_step_end()

    def _raise_battle_event(self: "Duel", code: int) -> None:
        """An event for the attacker, the attack target, and the field, then collect responses."""
        core = self.core
        self.raise_single_event(core.attacker, None, code, None, 0, 0, 0, 0)
        if core.attack_target is not None:
            self.raise_single_event(core.attack_target, None, code, None, 0, 0, 0, 1)
        self.raise_event(None, code, None, 0, 0, 0, 0)
        self.process_single_event()
        self.process_instant_event()

    def _hint_both(self: "Duel", hint: int) -> None:
        self.emit(MsgHint(type=HINT_EVENT, player=0, data=hint))
        self.emit(MsgHint(type=HINT_EVENT, player=1, data=hint))

    def _damage_calculation(self: "Duel") -> "Proc":
        """Damage calculation: MSG_BATTLE, battle damage, monsters to destroy (steps 26-31).

        Returns the group of monsters destroyed by battle (or None).  This is
        also where Duel.CalculateDamage enters.
        """
        core = self.core
        infos = self.infos
        attacker = core.attacker
        target = core.attack_target
        aa, ad = attacker.get_atk_def()
        da = dd = 0
        pa = attacker.current.controler
        attacker.q_cache.attack = aa
        attacker.q_cache.defense = ad
        attacker.set_status(STATUS_BATTLE_RESULT, False)
        attacker.set_status(STATUS_BATTLE_DESTROYED, False)
        if target is not None:
            da, dd = target.get_atk_def()
            target.q_cache.attack = da
            target.q_cache.defense = dd
            target.set_status(STATUS_BATTLE_RESULT, False)
            target.set_status(STATUS_BATTLE_DESTROYED, False)
            pd = target.current.controler
            if pa != pd:
                attacker.set_status(STATUS_OPPO_BATTLE, True)
                target.set_status(STATUS_OPPO_BATTLE, True)
            core.attacker_player = pa
            core.attack_target_player = pd
        damchange, reason_card, bd = self.calculate_battle_damage()
        bd = list(bd)
        for i, (card, other) in enumerate(((attacker, target), (target, attacker))):
            if not bd[i]:
                continue
            ind = card.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE, other)
            if ind is not None:
                self.emit(MsgHint(type=HINT_CARD, player=0, data=ind.owner.data.code))
                bd[i] = False
            else:
                card.set_status(STATUS_BATTLE_RESULT, True)
        self.emit(MsgBattle(
            attacker=LocInfo.from_raw(attacker.get_info_location()), attacker_atk=aa & 0xFFFFFFFF,
            attacker_def=ad & 0xFFFFFFFF, attacker_destroyed=int(bool(bd[0])),
            target=LocInfo.from_raw(target.get_info_location()) if target is not None else None,
            target_atk=(da & 0xFFFFFFFF) if target is not None else 0,
            target_def=(dd & 0xFFFFFFFF) if target is not None else 0,
            target_destroyed=int(bool(bd[1])) if target is not None else 0))
        reason_player = reason_card.current.controler if reason_card is not None else core.temp_var[0]
        if reason_card is not None:
            core.temp_var[0] = reason_card.current.controler
        if damchange is None:
            tp = infos.turn_player
            for p in (tp, 1 - tp):
                if core.battle_damage[p]:
                    rp = reason_card.current.controler
                    self.raise_single_event(attacker, None, EVENT_PRE_BATTLE_DAMAGE, None, 0, rp, p, core.battle_damage[p])
                    if target is not None:
                        self.raise_single_event(target, None, EVENT_PRE_BATTLE_DAMAGE, None, 0, rp, p, core.battle_damage[p])
                    self.raise_event(reason_card, EVENT_PRE_BATTLE_DAMAGE, None, 0, rp, p, core.battle_damage[p])
        self.process_single_event()
        self.process_instant_event()
        core.damage_calculated = True
        yield
        # (step 27) battle damage is dealt
        infos.phase = PHASE_DAMAGE
        core.hint_timing[infos.turn_player] = 0
        core.chain_attack = False
        attacker.battled_cards.addcard(target)
        if target is not None:
            target.battled_cards.addcard(attacker)
        for p in (0, 1):
            if not core.battle_damage[p]:
                continue
            if damchange is None:
                self.damage(None, REASON_BATTLE, reason_player, reason_card, p, core.battle_damage[p])
            else:
                self.damage(damchange, REASON_EFFECT, reason_player, reason_card, p, core.battle_damage[p])
        self.reset_phase(PHASE_DAMAGE_CAL)
        self.adjust_all()
        yield
        # (step 28) monsters destroyed by battle
        des = CardSet()
        for card, other, pre in ((attacker, target, core.pre_field[0]), (target, attacker, core.pre_field[1])):
            if (card is not None and card.is_status(STATUS_BATTLE_RESULT)
                    and card.current.location == LOCATION_MZONE and card.fieldid_r == pre):
                des.add(card)
                self._mark_battle_destroy(card, other)
        attacker.set_status(STATUS_BATTLE_RESULT, False)
        if target is not None:
            target.set_status(STATUS_BATTLE_RESULT, False)
        core.battle_destroy_rep.clear()
        core.desrep_chain = []
        des_group = None
        if des:
            des_group = self.new_group(des)
            des_group.is_readonly = 1
            self.add_process(self.proc_destroy_battle_replace(des_group))
        yield
        # (step 29) replacements chosen for battle destruction
        if core.battle_destroy_rep:
            self.destroy(core.battle_destroy_rep, None, REASON_EFFECT | REASON_REPLACE, PLAYER_NONE)
        if core.desrep_chain:
            self.add_process(self.proc_operation_replace_battle())
        self.adjust_all()
        yield
        # (step 30)
        if des_group is not None and des_group.container:
            for pcard in des_group.container:
                pcard.set_status(STATUS_BATTLE_DESTROYED, True)
                pcard.set_status(STATUS_DESTROY_CONFIRMED, False)
                pcard.filter_disable_related_cards()
        core.selfdes_disabled = False
        self.adjust_all()
        yield
        # (step 31) "after damage calculation"
        core.flip_delayed = False
        core.new_fchain[0:0] = core.new_fchain_b
        core.new_fchain_b = []
        core.new_ochain[0:0] = core.new_ochain_b
        core.new_ochain_b = []
        self.raise_single_event(attacker, None, EVENT_BATTLED, None, 0, PLAYER_NONE, 0, 0)
        if core.attack_target is not None:
            self.raise_single_event(core.attack_target, None, EVENT_BATTLED, None, 0, PLAYER_NONE, 0, 1)
        self.raise_event(None, EVENT_BATTLED, None, 0, PLAYER_NONE, 0, 0)
        self.process_single_event()
        self.process_instant_event()
        return des_group

    def _mark_battle_destroy(self: "Duel", card: "Card", other: "Card") -> None:
        """Record that ``card`` is destroyed by battle with ``other`` and where it goes."""
        card.temp.reason = card.current.reason
        card.temp.reason_card = card.current.reason_card
        card.temp.reason_effect = card.current.reason_effect
        card.temp.reason_player = card.current.reason_player
        card.current.reason_effect = None
        card.current.reason = REASON_BATTLE
        card.current.reason_card = other
        card.current.reason_player = other.current.controler
        dest = LOCATION_GRAVE
        seq = 0
        peffect = other.is_affected_by_effect(EFFECT_BATTLE_DESTROY_REDIRECT)
        if peffect is not None and (card.data.type & TYPE_MONSTER):
            dest = peffect.get_value(card)
            seq = dest >> 16
            dest &= 0xFFFF
        card.sendto_param.set(card.owner, POS_FACEUP, dest, seq)
        card.set_status(STATUS_DESTROY_CONFIRMED, True)

    def _battled_window(self: "Duel", des) -> "Proc":
        """The window after damage calculation, then destruction by battle (steps 32-33)."""
        core = self.core
        self._hint_both(43)
        core.hint_timing[0] |= TIMING_BATTLED
        core.hint_timing[1] |= TIMING_BATTLED
        self.add_process(self.proc_point_event(0, 0, 1))
        yield
        if des is not None:
            still = [c for c in des.container
                     if c.current.location == LOCATION_MZONE
                     and c.fieldid_r in (core.pre_field[0], core.pre_field[1])]
            for c in list(des.container):
                if c not in still:
                    des.container.discard(c)
            self.add_process(self.proc_destroy_battle(des))
        self.adjust_all()
        yield

    def _damage_step_end(self: "Duel") -> "Proc":
        """The end of the Damage Step: battle destruction events, the last window (steps 34-39)."""
        core = self.core
        infos = self.infos
        core.damage_calculated = True
        core.selfdes_disabled = False
        core.flip_delayed = False
        core.new_fchain[0:0] = core.new_fchain_b
        core.new_fchain_b = []
        core.new_ochain[0:0] = core.new_ochain_b
        core.new_ochain_b = []
        attacker = core.attacker
        target = core.attack_target
        ing = CardSet()
        ed = CardSet()
        if attacker.is_status(STATUS_BATTLE_DESTROYED) and (attacker.current.reason & REASON_BATTLE):
            r = attacker.current.reason
            self.raise_single_event(target, None, EVENT_BATTLE_DESTROYING, None, r, core.attack_target_player, 0, 1)
            self.raise_single_event(attacker, None, EVENT_BATTLE_DESTROYED, None, r, core.attack_target_player, 0, 0)
            self.raise_single_event(attacker, None, EVENT_DESTROYED, None, r, core.attack_target_player, 0, 0)
            ing.add(target)
            ed.add(attacker)
        if target is not None and target.is_status(STATUS_BATTLE_DESTROYED) and (target.current.reason & REASON_BATTLE):
            r = target.current.reason
            self.raise_single_event(attacker, None, EVENT_BATTLE_DESTROYING, None, r, core.attacker_player, 0, 0)
            self.raise_single_event(target, None, EVENT_BATTLE_DESTROYED, None, r, core.attacker_player, 0, 1)
            self.raise_single_event(target, None, EVENT_DESTROYED, None, r, core.attacker_player, 0, 1)
            ing.add(attacker)
            ed.add(target)
        if ing:
            self.raise_event(ing, EVENT_BATTLE_DESTROYING, None, 0, 0, 0, 0)
        if ed:
            self.raise_event(ed, EVENT_BATTLE_DESTROYED, None, 0, 0, 0, 0)
            self.raise_event(ed, EVENT_DESTROYED, None, 0, 0, 0, 0)
        self._raise_battle_event(EVENT_DAMAGE_STEP_END)
        attacker.set_status(STATUS_BATTLE_DESTROYED, False)
        if target is not None:
            target.set_status(STATUS_BATTLE_DESTROYED, False)
        self._hint_both(44)
        self.add_process(self.proc_point_event(0, 0, 1))
        yield
        # (step 39) end of the Damage Step
        attacker.set_status(STATUS_OPPO_BATTLE, False)
        if target is not None:
            target.set_status(STATUS_OPPO_BATTLE, False)
        core.attacker_player = PLAYER_NONE
        core.attack_target_player = PLAYER_NONE
        infos.phase = PHASE_BATTLE_STEP
        self.emit(MsgDamageStepEnd())
        self.reset_phase(PHASE_DAMAGE)
        self.adjust_all()
        yield

    # ----- battle damage --------------------------------------------------------------------

    def calculate_battle_damage(self: "Duel"):
        """Who takes how much battle damage, and who is destroyed by battle.

        Sets core.battle_damage and returns (damage-to-effect change, the card
        that inflicts the damage, (attacker destroyed, target destroyed)).
        """
        core = self.core
        attacker = core.attacker
        target = core.attack_target
        aa = attacker.get_battle_attack()
        ad = attacker.get_battle_defense()
        attacker_value = aa
        pa = attacker.current.controler
        damaged_player = 0
        damchange = None
        reason_card = None
        bd = [False, False]
        pierce = False
        core.battle_damage[0] = core.battle_damage[1] = 0
        if attacker.is_position(POS_FACEUP_DEFENSE):
            defattack = attacker.is_affected_by_effect(EFFECT_DEFENSE_ATTACK)
            if defattack is not None and defattack.get_value(attacker):
                attacker_value = ad
        if target is not None:
            da = target.get_battle_attack()
            dd = target.get_battle_defense()
            pd = target.current.controler
            if target.is_position(POS_ATTACK):
                defender_value = da
                if attacker_value > defender_value:
                    damaged_player = pd
                    core.battle_damage[damaged_player] = attacker_value - defender_value
                    reason_card = attacker
                    bd[1] = True
                elif attacker_value < defender_value:
                    damaged_player = pa
                    core.battle_damage[damaged_player] = defender_value - attacker_value
                    reason_card = target
                    bd[0] = True
                elif attacker_value != 0:
                    bd[0] = True
                    bd[1] = True
            else:
                defender_value = dd
                if attacker_value > defender_value:
                    eset = attacker.filter_effect(EFFECT_PIERCE)
                    if eset:
                        pierce = True
                        self._piercing_damage(eset, attacker_value - defender_value, pa, pd)
                        reason_card = attacker
                    bd[1] = True
                elif attacker_value < defender_value:
                    damaged_player = pa
                    core.battle_damage[damaged_player] = defender_value - attacker_value
                    reason_card = target
        elif attacker_value != 0:
            damaged_player = 1 - pa
            core.battle_damage[damaged_player] = attacker_value
            reason_card = attacker
        if reason_card is not None and not pierce:
            damchange = reason_card.is_affected_by_effect(EFFECT_BATTLE_DAMAGE_TO_EFFECT)
            if damchange is None:
                self._adjust_battle_damage(reason_card, damaged_player, pa)
        if not core.battle_damage[damaged_player] and not core.battle_damage[1 - damaged_player]:
            reason_card = None
        return damchange, reason_card, (bd[0], bd[1])

    def _apply_reflect_also(self: "Duel", damaged_player: int, pa: int, both: bool,
                            reflect: list, also: list) -> None:
        """Reflected and "also" battle damage (the turn player's effects apply first)."""
        bdm = self.core.battle_damage
        if both:
            if reflect[pa] is not None and reflect[pa].get_handler_player() == pa:
                bdm[1 - pa] += bdm[pa]
                bdm[pa] = 0
            elif reflect[1 - pa] is not None and reflect[1 - pa].get_handler_player() == pa:
                bdm[pa] += bdm[1 - pa]
                bdm[1 - pa] = 0
            elif reflect[pa] is not None and reflect[pa].get_handler_player() == 1 - pa:
                bdm[1 - pa] += bdm[pa]
                bdm[pa] = 0
            elif reflect[1 - pa] is not None and reflect[1 - pa].get_handler_player() == 1 - pa:
                bdm[pa] += bdm[1 - pa]
                bdm[1 - pa] = 0
            return
        d = damaged_player
        if reflect[d] is not None:
            if not also[1 - d]:
                bdm[1 - d] += bdm[d]
                bdm[d] = 0
            else:
                bdm[1 - d] += bdm[d]
                bdm[d] = bdm[1 - d]
        elif also[d]:
            if reflect[1 - d] is None:
                bdm[1 - d] += bdm[d]
            else:
                bdm[1 - d] += bdm[d]
                bdm[d] += bdm[1 - d]
                bdm[1 - d] = 0

    def _change_battle_damage(self: "Duel", eset: list, take_min: bool) -> None:
        """EFFECT_CHANGE_BATTLE_DAMAGE & co: double, halve, or set each player's battle damage."""
        eset.sort(key=effect_sort_key)
        bdm = self.core.battle_damage
        for p in (0, 1):
            double_dam = half_dam = False
            dam_value = -1
            current_min = 0x7FFFFFFF
            for eff in eset:
                val = -1
                if not eff.is_flag(EFFECT_FLAG_PLAYER_TARGET):
                    val = eff.get_value(None, p)
                elif eff.is_target_player(p):
                    val = eff.get_value()
                if val == 0:
                    dam_value = 0
                    break
                elif val > 0 and (not take_min or val < current_min):
                    current_min = val
                    dam_value = val
                elif val == DOUBLE_DAMAGE:
                    double_dam = True
                elif val == HALF_DAMAGE:
                    half_dam = True
            if double_dam and half_dam:
                double_dam = half_dam = False
            if double_dam:
                bdm[p] *= 2
            if half_dam:
                bdm[p] //= 2
            if dam_value >= 0 and bdm[p] > 0:
                bdm[p] = dam_value

    def _piercing_damage(self: "Duel", eset: list, amount: int, pa: int, pd: int) -> None:
        """Piercing battle damage to the player(s) the piercing effects point at."""
        core = self.core
        attacker = core.attacker
        target = core.attack_target
        bdm = core.battle_damage
        dp = [0, 0]
        for eff in eset:
            dp[1 - eff.get_handler_player()] = 1
        if dp[0]:
            bdm[0] = amount
        if dp[1]:
            bdm[1] = amount
        if any(eff.get_value() == DOUBLE_DAMAGE for eff in eset):
            if dp[0]:
                bdm[0] *= 2
            if dp[1]:
                bdm[1] *= 2
        both = bool(dp[0] and dp[1])
        damaged_player = 0
        if not both:
            damaged_player = 0 if dp[0] else 1
            if (attacker.is_affected_by_effect(EFFECT_BOTH_BATTLE_DAMAGE)
                    or target.is_affected_by_effect(EFFECT_BOTH_BATTLE_DAMAGE)):
                bdm[1 - damaged_player] = bdm[damaged_player]
                both = True
        reflect = [None, None]
        reflect[pd] = target.is_affected_by_effect(EFFECT_REFLECT_BATTLE_DAMAGE, attacker)
        if reflect[pd] is None:
            reflect[pd] = self.is_player_affected_by_effect(pd, EFFECT_REFLECT_BATTLE_DAMAGE)
        reflect[1 - pd] = attacker.is_affected_by_effect(EFFECT_REFLECT_BATTLE_DAMAGE, target)
        if reflect[1 - pd] is None:
            reflect[1 - pd] = self.is_player_affected_by_effect(1 - pd, EFFECT_REFLECT_BATTLE_DAMAGE)
        also = [False, False]
        if not both and (target.is_affected_by_effect(EFFECT_ALSO_BATTLE_DAMAGE)
                         or self.is_player_affected_by_effect(pd, EFFECT_ALSO_BATTLE_DAMAGE)):
            also[pd] = True
        if not both and (attacker.is_affected_by_effect(EFFECT_ALSO_BATTLE_DAMAGE)
                         or self.is_player_affected_by_effect(1 - pd, EFFECT_ALSO_BATTLE_DAMAGE)):
            also[1 - pd] = True
        self._apply_reflect_also(damaged_player, pa, both, reflect, also)
        change = attacker.filter_effect(EFFECT_CHANGE_BATTLE_DAMAGE, None, False)
        change = attacker.filter_effect(EFFECT_CHANGE_INVOLVING_BATTLE_DAMAGE, change, False)
        change = target.filter_effect(EFFECT_CHANGE_INVOLVING_BATTLE_DAMAGE, change, False)
        change = self.filter_player_effect(pa, EFFECT_CHANGE_BATTLE_DAMAGE, False, change)
        change = self.filter_player_effect(1 - pa, EFFECT_CHANGE_BATTLE_DAMAGE, False, change)
        self._change_battle_damage(change, take_min=False)
        if (attacker.is_affected_by_effect(EFFECT_NO_BATTLE_DAMAGE)
                or target.is_affected_by_effect(EFFECT_AVOID_BATTLE_DAMAGE, attacker)
                or self.is_player_affected_by_effect(pd, EFFECT_AVOID_BATTLE_DAMAGE)):
            bdm[pd] = 0
        if (target.is_affected_by_effect(EFFECT_NO_BATTLE_DAMAGE)
                or attacker.is_affected_by_effect(EFFECT_AVOID_BATTLE_DAMAGE, target)
                or self.is_player_affected_by_effect(1 - pd, EFFECT_AVOID_BATTLE_DAMAGE)):
            bdm[1 - pd] = 0

    def _adjust_battle_damage(self: "Duel", reason_card: "Card", damaged_player: int, pa: int) -> None:
        """Both-players, reflected, changed and avoided battle damage (non-piercing)."""
        core = self.core
        bdm = core.battle_damage
        dam_card = core.attack_target if reason_card is core.attacker else core.attacker
        both = False
        if (reason_card.is_affected_by_effect(EFFECT_BOTH_BATTLE_DAMAGE)
                or (dam_card is not None and dam_card.is_affected_by_effect(EFFECT_BOTH_BATTLE_DAMAGE))):
            bdm[1 - damaged_player] = bdm[damaged_player]
            both = True
        reflect = [None, None]
        if dam_card is not None:
            reflect[damaged_player] = dam_card.is_affected_by_effect(EFFECT_REFLECT_BATTLE_DAMAGE, reason_card)
        if reflect[damaged_player] is None:
            reflect[damaged_player] = self.is_player_affected_by_effect(damaged_player, EFFECT_REFLECT_BATTLE_DAMAGE)
        reflect[1 - damaged_player] = reason_card.is_affected_by_effect(EFFECT_REFLECT_BATTLE_DAMAGE, dam_card)
        if reflect[1 - damaged_player] is None:
            reflect[1 - damaged_player] = self.is_player_affected_by_effect(1 - damaged_player, EFFECT_REFLECT_BATTLE_DAMAGE)
        also = [False, False]
        if not both and ((dam_card is not None and dam_card.is_affected_by_effect(EFFECT_ALSO_BATTLE_DAMAGE))
                         or self.is_player_affected_by_effect(damaged_player, EFFECT_ALSO_BATTLE_DAMAGE)):
            also[damaged_player] = True
        if not both and (reason_card.is_affected_by_effect(EFFECT_ALSO_BATTLE_DAMAGE)
                         or self.is_player_affected_by_effect(1 - damaged_player, EFFECT_ALSO_BATTLE_DAMAGE)):
            also[1 - damaged_player] = True
        self._apply_reflect_also(damaged_player, pa, both, reflect, also)
        change = reason_card.filter_effect(EFFECT_CHANGE_BATTLE_DAMAGE, None, False)
        change = reason_card.filter_effect(EFFECT_CHANGE_INVOLVING_BATTLE_DAMAGE, change, False)
        if dam_card is not None:
            change = dam_card.filter_effect(EFFECT_CHANGE_INVOLVING_BATTLE_DAMAGE, change, False)
        change = self.filter_player_effect(damaged_player, EFFECT_CHANGE_BATTLE_DAMAGE, False, change)
        change = self.filter_player_effect(1 - damaged_player, EFFECT_CHANGE_BATTLE_DAMAGE, False, change)
        self._change_battle_damage(change, take_min=True)
        if (reason_card.is_affected_by_effect(EFFECT_NO_BATTLE_DAMAGE)
                or (dam_card is not None and dam_card.is_affected_by_effect(EFFECT_AVOID_BATTLE_DAMAGE, reason_card))
                or self.is_player_affected_by_effect(damaged_player, EFFECT_AVOID_BATTLE_DAMAGE)):
            bdm[damaged_player] = 0
        if ((dam_card is not None and dam_card.is_affected_by_effect(EFFECT_NO_BATTLE_DAMAGE))
                or reason_card.is_affected_by_effect(EFFECT_AVOID_BATTLE_DAMAGE, dam_card)
                or self.is_player_affected_by_effect(1 - damaged_player, EFFECT_AVOID_BATTLE_DAMAGE)):
            bdm[1 - damaged_player] = 0

    # ----- Duel.CalculateDamage: a Damage Step run by an effect ------------------------------

    def proc_damage_step(self: "Duel", attacker: "Card", attack_target: "Card | None",
                         new_attack: bool) -> "Proc":
        """A battle started by an effect (Duel.CalculateDamage).

        Swaps in the given monsters, announces the attack and enters the Damage
        Step; damage calculation runs at once, the rest waits until the
        current chain ends (the unit suspends itself and is resumed by
        solve_chain).
        """
        core = self.core
        infos = self.infos
        if core.effect_damage_step and not new_attack:
            return
        core.effect_damage_step = 1
        saved_attacker, saved_target = core.attacker, core.attack_target
        core.attacker, core.attack_target = attacker, attack_target
        saved_phase = infos.phase
        gone = (core.attacker.current.location != LOCATION_MZONE
                or (core.attack_target is not None and core.attack_target.current.location != LOCATION_MZONE))
        if not gone:
            if new_attack:
                core.attack_state_count[infos.turn_player] += 1
                core.battled_count[infos.turn_player] += 1
                self.check_card_counter(core.attacker, ACTIVITY_ATTACK, infos.turn_player)
            core.attacker.announced_cards.addcard(core.attack_target)
            self.attack_all_target_check()
            self.emit(MsgAttack(attacker=LocInfo.from_raw(core.attacker.get_info_location()),
                                target=(LocInfo.from_raw(core.attack_target.get_info_location())
                                        if core.attack_target is not None else None)))
            infos.phase = PHASE_DAMAGE
            self.emit(MsgDamageStepStart())
            core.pre_field[0] = core.attacker.fieldid_r
            core.attacker.attacked_count += 1
            if core.attack_target is not None:
                core.pre_field[1] = core.attack_target.fieldid_r
                if core.attack_target.is_position(POS_FACEDOWN):
                    self.change_position(core.attack_target, None, PLAYER_NONE,
                                         core.attack_target.current.position >> 1, 0, True)
                    self.adjust_all()
            else:
                core.pre_field[1] = 0
            yield
            infos.phase = PHASE_DAMAGE_CAL
            self.add_process(self.proc_battle_damage_calc())
            yield Suspend(lambda g: setattr(core, "damage_step_reserved", g))
        # resumed after the chain (or at once when a monster left the field)
        core.effect_damage_step = 2
        self.add_process(self.proc_battle_after_damage_calc(core.damage_step_reserved_des))
        yield
        core.attacker, core.attack_target = saved_attacker, saved_target
        if core.attacker is not None:
            core.attacker.set_status(STATUS_ATTACK_CANCELED, True)
            core.attacker.announce_count += 1
            core.attacker.set_status(STATUS_CANNOT_CHANGE_FORM, True)
            core.attacker.announced_cards.addcard(core.attack_target)
            self.attack_all_target_check()
        if core.attack_target is not None:
            core.attack_target.set_status(STATUS_ATTACK_CANCELED, True)
        core.effect_damage_step = 0
        infos.phase = saved_phase

    def proc_battle_damage_calc(self: "Duel") -> "Proc":
        """Damage calculation for Duel.CalculateDamage (the reference's battle command at step 26)."""
        des = yield from self._damage_calculation()
        self.core.damage_step_reserved_des = des

    def proc_battle_after_damage_calc(self: "Duel", des) -> "Proc":
        """The rest of a Duel.CalculateDamage Damage Step (the battle command at step 32)."""
        yield from self._battled_window(des)
        yield from self._damage_step_end()

    # ----- the battle as scripts change it (Duel.ChangeAttacker, ChangeAttackTarget, GetBattleMonster, ChainAttack) ---

    def change_attacker(self: "Duel", attacker: Card, ignore_count: bool | int = False) -> None:
        """Duel.ChangeAttacker: ``attacker`` replaces the current attacker.

        The replaced attacker counts the attack as made (on the current target);
        unless ``ignore_count`` the new one counts an attack announcement (and,
        in the Damage Step, an attack made).
        """
        core = self.core
        if core.attacker is attacker:
            return
        attack_target = core.attack_target
        if core.attacker is not None:   # the reference assumes an attack is going on
            core.attacker.announce_count += 1
            core.attacker.announced_cards.addcard(attack_target)
        self.attack_all_target_check()
        core.attacker = attacker
        attacker.attack_controler = attacker.current.controler
        core.pre_field[0] = attacker.fieldid_r
        if not ignore_count:
            attacker.attack_announce_count += 1
            if self.infos.phase == PHASE_DAMAGE:
                attacker.attacked_count += 1
                attacker.attacked_cards.addcard(attack_target)

    def change_attack_target(self: "Duel", target: Card | None) -> bool:
        """Duel.ChangeAttackTarget: the attack goes to ``target`` (None: directly).

        Only while the attacker can still attack, and only to a monster it could
        attack now (a direct attack: unless EFFECT_CANNOT_DIRECT_ATTACK).  The
        opponent's monsters are remembered (the replay check), MSG_ATTACK is
        sent and the new target gets EVENT_BE_BATTLE_TARGET.  True if changed.
        """
        core = self.core
        attacker = core.attacker
        if attacker is None or not attacker.is_capable_attack() or attacker.is_status(STATUS_ATTACK_CANCELED):
            return False
        cv: list[Card] = []
        self.get_attack_target(attacker, cv, core.chain_attack)
        if not ((target is not None and target in cv)
                or (target is None and not attacker.is_affected_by_effect(EFFECT_CANNOT_DIRECT_ATTACK))):
            return False
        core.attack_target = target
        core.attack_rollback = False
        core.opp_mzone.clear()
        turnp = self.infos.turn_player
        for pcard in self.player[1 - turnp].list_mzone:
            if pcard is not None:
                core.opp_mzone.add(pcard.fieldid_r)
        attacker_loc = LocInfo.from_raw(attacker.get_info_location() & 0xFFFFFFFF)
        if target is not None:
            self.raise_single_event(target, None, EVENT_BE_BATTLE_TARGET, None, REASON_REPLACE, 0,
                                    1 - turnp, 0)
            self.raise_event(target, EVENT_BE_BATTLE_TARGET, None, REASON_REPLACE, 0, 1 - turnp, 0)
            self.process_single_event()
            self.process_instant_event()
            self.emit(MsgAttack(attacker=attacker_loc,
                                target=LocInfo.from_raw(target.get_info_location() & 0xFFFFFFFF)))
        else:
            core.attack_player = True
            self.emit(MsgAttack(attacker=attacker_loc, target=None))
        return True

    def get_battle_monsters(self: "Duel", playerid: int) -> tuple[Card | None, Card | None]:
        """Duel.GetBattleMonster: (``playerid``'s monster in the battle, the opponent's)."""
        core = self.core
        out: list[Card | None] = []
        for _ in range(2):
            if core.attacker is not None and core.attacker.current.controler == playerid:
                out.append(core.attacker)
            elif core.attack_target is not None and core.attack_target.current.controler == playerid:
                out.append(core.attack_target)
            else:
                out.append(None)
            playerid = 1 - playerid
        return out[0], out[1]

    def start_chain_attack(self: "Duel") -> bool:
        """Duel.ChainAttack: the attacker (if the current reason effect reaches it) may attack
        again right after this battle.  False (nothing done) when there is no such attacker;
        the caller then may set core.chain_attack_target (the only monster it may attack)."""
        core = self.core
        attacker = core.attacker
        if attacker is None or not attacker.is_affect_by_effect(core.reason_effect):
            return False
        core.chain_attack = True
        core.chain_attacker_id = attacker.fieldid
        return True
