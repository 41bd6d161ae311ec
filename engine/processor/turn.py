"""The turn: Draw, Standby, Main 1, Battle, Main 2 and End Phases.

Reference: processor.cpp process_turn.  One unit plays turns forever,
alternating the turn player; the duel ends when a win is written.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..constants import (
    DUEL_TAG_MODE, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_NO_TURN_RESET, EFFECT_FLAG_PLAYER_TARGET,
    EFFECT_SKIP_BP, EFFECT_SKIP_DP, EFFECT_SKIP_M1, EFFECT_SKIP_M2, EFFECT_SKIP_SP,
    EFFECT_SKIP_TURN, EFFECT_TYPE_FIELD, EVENT_PHASE_START, EVENT_PREDRAW, EVENT_TURN_END,
    GLOBALFLAG_SPSUMMON_COUNT, HINT_EVENT, PHASE_BATTLE, PHASE_BATTLE_START, PHASE_BATTLE_STEP,
    PHASE_DRAW, PHASE_END, PHASE_MAIN1, PHASE_MAIN2, PHASE_STANDBY, PLAYER_NONE, REASON_RULE,
    RESET_PHASE, RESET_SELF_TURN, STATUS_CANNOT_CHANGE_FORM, STATUS_FLIP_SUMMON_TURN,
    STATUS_SET_TURN, STATUS_SPSUMMON_TURN, STATUS_SUMMON_TURN,
)
from ..core_constants import EFFECT_SKIP_EP
from ..messages import MsgHint, MsgNewPhase, MsgNewTurn
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..duel import Duel
    from .driver import Proc


_SKIP_PHASE_CODES = {
    PHASE_DRAW: EFFECT_SKIP_DP,
    PHASE_STANDBY: EFFECT_SKIP_SP,
    PHASE_MAIN1: EFFECT_SKIP_M1,
    PHASE_BATTLE: EFFECT_SKIP_BP,
    PHASE_MAIN2: EFFECT_SKIP_M2,
    PHASE_END: EFFECT_SKIP_EP,
}


class TurnMixin:
    """Methods of Duel (see engine/duel.py)."""

    def proc_turn(self: "Duel", turn_player: int) -> "Proc":
        """Play turns forever, starting with ``turn_player``."""
        while True:
            yield from self._one_turn(turn_player)
            turn_player = 1 - turn_player

    def _clear_phase_chains(self: "Duel") -> None:
        core = self.core
        core.new_fchain = []
        core.new_ochain = []
        core.quick_f_chain.clear()
        core.delayed_quick_tmp = {}

    def _new_phase(self: "Duel") -> None:
        self.emit(MsgNewPhase(phase=self.infos.phase))

    def _start_of_turn(self: "Duel", turn_player: int) -> None:
        """Reset what lasts one turn: once-per-turn counts, attack counts, summon counts."""
        core = self.core
        core.used_event = []
        for peffect in list(core.reseted_effects):
            self.delete_effect(peffect)
        core.reseted_effects.clear()
        for p in (0, 1, PLAYER_NONE):
            core.effect_count_code[p].clear()
        for p in (0, 1):
            for pcard in self.player[p].list_mzone:
                if pcard is None:
                    continue
                pcard.set_status(STATUS_SUMMON_TURN, False)
                pcard.set_status(STATUS_FLIP_SUMMON_TURN, False)
                pcard.set_status(STATUS_SPSUMMON_TURN, False)
                pcard.set_status(STATUS_SET_TURN, False)
                pcard.set_status(STATUS_CANNOT_CHANGE_FORM, False)
                pcard.indestructable_effects.clear()
                pcard.attack_announce_count = 0
                pcard.announce_count = 0
                pcard.attacked_count = 0
                pcard.announced_cards.clear()
                pcard.attacked_cards.clear()
                pcard.battled_cards.clear()
                pcard.attack_all_target = 1
            for pcard in self.player[p].list_szone:
                if pcard is None:
                    continue
                pcard.set_status(STATUS_SET_TURN, False)
                pcard.indestructable_effects.clear()
            core.summon_state_count[p] = 0
            core.normalsummon_state_count[p] = 0
            core.flipsummon_state_count[p] = 0
            core.spsummon_state_count[p] = 0
            core.attack_state_count[p] = 0
            core.battle_phase_count[p] = 0
            core.battled_count[p] = 0
            core.summon_count[p] = 0
            core.extra_summon[p] = 0
            core.spsummon_once_map[p].clear()
        for peffect in list(self.effects.rechargeable):
            if not peffect.is_flag(EFFECT_FLAG_NO_TURN_RESET):
                peffect.recharge()
        for counters in (core.summon_counter, core.normalsummon_counter, core.spsummon_counter,
                         core.flipsummon_counter, core.attack_counter, core.chain_counter):
            for entry in counters.values():
                entry[1] = 0
        if core.global_flag & GLOBALFLAG_SPSUMMON_COUNT:
            for peffect in list(self.effects.spsummon_count_eff):
                pcard = peffect.get_handler()
                if not peffect.is_flag(EFFECT_FLAG_NO_TURN_RESET):
                    pcard.spsummon_counter[0] = pcard.spsummon_counter[1] = 0
        self.infos.turn_id += 1
        self.infos.turn_id_by_player[turn_player] += 1
        self.infos.turn_player = turn_player

    def _one_turn(self: "Duel", turn_player: int) -> "Proc":
        core = self.core
        infos = self.infos
        self._start_of_turn(turn_player)
        self.emit(MsgNewTurn(player=turn_player))
        if (core.duel_options & DUEL_TAG_MODE) and infos.turn_id != 1:
            self.tag_swap(turn_player)
        if self.is_player_affected_by_effect(turn_player, EFFECT_SKIP_TURN):
            self.reset_phase(PHASE_DRAW)
            self.reset_phase(PHASE_STANDBY)
            self.reset_phase(PHASE_END)
            self.adjust_all()
            yield
            yield from self._turn_end(turn_player)
            return
        yield from self._draw_phase(turn_player)
        yield from self._standby_phase(turn_player)
        to_battle = yield from self._main_phase_1(turn_player)
        skip_m2 = False
        if to_battle:
            skip_m2 = yield from self._battle_phases(turn_player)
            if skip_m2 is None:
                skip_m2 = False
            else:
                yield from self._main_phase_2(turn_player, skip_m2)
        yield from self._end_phase(turn_player)
        yield from self._turn_end(turn_player)

    def _draw_phase(self: "Duel", turn_player: int) -> "Proc":
        core = self.core
        infos = self.infos
        infos.phase = PHASE_DRAW
        core.phase_action = False
        core.hand_adjusted = False
        self.raise_event(None, EVENT_PHASE_START + PHASE_DRAW, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        self.adjust_all()
        yield
        self._clear_phase_chains()
        if self.is_player_affected_by_effect(infos.turn_player, EFFECT_SKIP_DP):
            self.reset_phase(PHASE_DRAW)
            self.adjust_all()
            yield
            return
        self._new_phase()
        self.raise_event(None, EVENT_PREDRAW, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        self.emit(MsgHint(type=HINT_EVENT, player=turn_player, data=27))
        if core.new_fchain or core.new_ochain:
            self.add_process(self.proc_point_event(0, 1, 1))
        yield
        # the first player skips the draw of the first turn (new ruling)
        if core.duel_rule <= 2 or infos.turn_id > 1:
            count = self.get_draw_count(infos.turn_player)
            if count > 0:
                self.draw(None, REASON_RULE, turn_player, turn_player, count)
                self.add_process(self.proc_point_event())
        self.add_process(self.proc_phase_event(PHASE_DRAW))
        yield

    def _standby_phase(self: "Duel", turn_player: int) -> "Proc":
        core = self.core
        infos = self.infos
        infos.phase = PHASE_STANDBY
        core.phase_action = False
        self._clear_phase_chains()
        if self.is_player_affected_by_effect(infos.turn_player, EFFECT_SKIP_SP):
            self.reset_phase(PHASE_STANDBY)
            self.adjust_all()
            yield
            return
        self._new_phase()
        self.raise_event(None, EVENT_PHASE_START + PHASE_STANDBY, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        # (reference step 5) what that queued (continuous effects at the start of the phase)
        # runs first; then EVENT_PHASE_START + PHASE_STANDBY alone opens no window
        # (reference: c89642993)
        yield
        if (core.new_fchain or core.new_ochain or not core.instant_event
                or core.instant_event[-1].event_code != EVENT_PHASE_START + PHASE_STANDBY):
            self.add_process(self.proc_point_event())
        self.add_process(self.proc_phase_event(PHASE_STANDBY))
        yield

    def _main_phase_1(self: "Duel", turn_player: int) -> "Proc":
        """Main Phase 1; returns True when the player goes to the Battle Phase."""
        core = self.core
        infos = self.infos
        infos.phase = PHASE_MAIN1
        core.phase_action = False
        self.raise_event(None, EVENT_PHASE_START + PHASE_MAIN1, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        self.adjust_all()
        yield
        self._clear_phase_chains()
        self._new_phase()
        # run in place: the reference queues PROCESSOR_IDLE_COMMAND as the only unit of
        # this step and reads its answer in the next, so nothing runs in between
        choice = yield from self.proc_idle_command()
        return choice != 7

    def _battle_phases(self: "Duel", turn_player: int) -> "Proc":
        """The Battle Phase (twice with EFFECT_BP_TWICE).

        Returns whether Main Phase 2 is skipped (the player went straight to the
        End Phase), or None when the Battle Phase was skipped entirely (then the
        turn goes on to the End Phase).
        """
        core = self.core
        infos = self.infos
        second_bp = False
        while True:
            infos.phase = PHASE_BATTLE_START
            self._clear_phase_chains()
            core.phase_action = False
            core.battle_phase_count[infos.turn_player] += 1
            self._new_phase()
            if self.is_player_affected_by_effect(infos.turn_player, EFFECT_SKIP_BP):
                self.reset_phase(PHASE_BATTLE_START)
                self.reset_phase(PHASE_BATTLE_STEP)
                self.reset_phase(PHASE_BATTLE)
                self.adjust_all()
                yield
                return None
            self.raise_event(None, EVENT_PHASE_START + PHASE_BATTLE_START, None, 0, 0, turn_player, 0)
            self.process_instant_event()
            self.adjust_all()
            yield
            if core.new_fchain or core.new_ochain:
                self.add_process(self.proc_point_event())
            self.add_process(self.proc_phase_event(PHASE_BATTLE_START))
            yield
            infos.phase = PHASE_BATTLE_STEP
            self._clear_phase_chains()
            core.phase_action = False
            core.chain_attack = False
            # run in place, as the idle command above
            ctype, second = yield from self.proc_battle_command()
            if not second_bp and second:
                second_bp = True
                for p in (0, 1):
                    for pcard in self.player[p].list_mzone:
                        if pcard is None:
                            continue
                        pcard.attack_announce_count = 0
                        pcard.announce_count = 0
                        pcard.attacked_count = 0
                        pcard.announced_cards.clear()
                        pcard.attacked_cards.clear()
                        pcard.battled_cards.clear()
                continue
            return ctype == 3

    def _main_phase_2(self: "Duel", turn_player: int, skip_m2: bool) -> "Proc":
        core = self.core
        infos = self.infos
        core.skip_m2 = skip_m2
        infos.phase = PHASE_MAIN2
        core.phase_action = False
        self.raise_event(None, EVENT_PHASE_START + PHASE_MAIN2, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        self.adjust_all()
        yield
        if core.new_fchain or core.new_ochain:
            self.add_process(self.proc_point_event())
            yield
        self._clear_phase_chains()
        self._new_phase()
        infos.can_shuffle = True
        self.add_process(self.proc_idle_command())
        yield

    def _end_phase(self: "Duel", turn_player: int) -> "Proc":
        core = self.core
        infos = self.infos
        infos.phase = PHASE_END
        core.phase_action = False
        if not self.is_player_affected_by_effect(infos.turn_player, EFFECT_SKIP_EP):
            self._new_phase()
            self.raise_event(None, EVENT_PHASE_START + PHASE_END, None, 0, 0, turn_player, 0)
            self.process_instant_event()
            self.adjust_all()
            yield
            if core.new_fchain or core.new_ochain:
                self.add_process(self.proc_point_event())
                yield
            self._clear_phase_chains()
            self.add_process(self.proc_phase_event(PHASE_END))
            yield
        else:
            self.reset_phase(PHASE_END)
            self.adjust_all()
            yield

    def _turn_end(self: "Duel", turn_player: int) -> "Proc":
        self.raise_event(None, EVENT_TURN_END, None, 0, 0, turn_player, 0)
        self.process_instant_event()
        self.adjust_all()
        yield
        self._clear_phase_chains()

    # ----- skipping a phase (Duel.SkipPhase) --------------------------------------------

    def skip_phase(self: "Duel", playerid: int, phase: int, reset: int, count: int, value: int) -> None:
        """Duel.SkipPhase: ``playerid`` skips their next ``phase`` (a field effect on the
        player, EFFECT_SKIP_DP ... EFFECT_SKIP_EP), reset at ``reset``'s phase of their
        own turn ``count`` times (at least 1).  Other phases: nothing."""
        code = _SKIP_PHASE_CODES.get(phase)
        if code is None:
            return
        if count <= 0:
            count = 1
        peffect = self.new_effect()
        peffect.owner = self.temp_card
        peffect.effect_owner = playerid
        peffect.type = EFFECT_TYPE_FIELD
        peffect.code = code
        peffect.reset_flag = (reset & 0x3FF) | RESET_PHASE | RESET_SELF_TURN
        peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_PLAYER_TARGET
        peffect.s_range = 1
        peffect.o_range = 0
        peffect.reset_count = _i32(count)
        peffect.value = _i32(value)
        self.add_effect(peffect, playerid)
