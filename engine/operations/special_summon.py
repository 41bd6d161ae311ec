"""Special Summons: by procedure (summon rules), by effect (step/complete), material selection (reference: operations.cpp).

Three ways a monster is Special Summoned:

- by its own procedure (EFFECT_SPSUMMON_PROC: Synchro/Xyz/Link by the rule,
  "cannot be Normal Summoned, Special Summon by ..." monsters) or a group
  procedure (EFFECT_SPSUMMON_PROC_G: Pendulum Summon) --
  ``special_summon_rule``.  This is a summon that can be negated;
- by a card effect, all at once -- ``special_summon`` (Duel.SpecialSummon);
- by a card effect, one by one and then together --
  ``special_summon_step`` (Duel.SpecialSummonStep) then
  ``special_summon_complete`` (Duel.SpecialSummonComplete).

Material selection for Synchro and Xyz Summons (Duel.SelectSynchroMaterial,
Duel.SelectTunerMaterial, Duel.SelectXyzMaterial) is here too.  Those units
hand their result back to the script that asked (the reference pushes it as a
parameter of the resumed coroutine): the caller passes a list as
``script_results`` and the unit appends the values the script gets -- a Group,
or None for "nothing" (canceled); nothing at all is appended when the
reference pushes nothing.

See engine/operations/summon.py for the conventions (packing of unit
arguments, summons during a chain).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..card import Card
from ..card_checks import MaterialInfo
from ..constants import (
    ACTIVITY_SPSUMMON, EFFECT_CANNOT_DISABLE_SPSUMMON, EFFECT_CANNOT_SPECIAL_SUMMON,
    EFFECT_COUNT_CODE_OATH, EFFECT_DIVINE_LIGHT, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_SPSUM_PARAM,
    EFFECT_MUST_BE_SMATERIAL, EFFECT_MUST_BE_XMATERIAL, EFFECT_REVIVE_LIMIT, EFFECT_SCRAP_CHIMERA,
    EFFECT_SPSUMMON_CONDITION, EFFECT_SPSUMMON_COST, EFFECT_SPSUMMON_PROC_G, EFFECT_SYNCHRO_CHECK,
    EFFECT_SYNCHRO_MATERIAL_CUSTOM, EFFECT_TUNER_MATERIAL_LIMIT, EFFECT_TUNE_MAGICIAN_X,
    EVENT_BE_MATERIAL, EVENT_BE_PRE_MATERIAL, EVENT_SPSUMMON, EVENT_SPSUMMON_SUCCESS,
    EVENT_SPSUMMON_SUCCESS_G_P, GLOBALFLAG_SCRAP_CHIMERA, GLOBALFLAG_TUNE_MAGICIAN,
    GLOBALFLAG_XMAT_COUNT_LIMIT, HINTMSG_SMATERIAL, HINTMSG_XMATERIAL, LOCATION_EXTRA,
    LOCATION_GRAVE, LOCATION_MZONE, LOCATION_REASON_TOFIELD, NEW_MASTER_RULE, PLAYER_NONE,
    POS_FACEDOWN, POS_FACEUP, POS_FACEUP_ATTACK, REASON_FUSION, REASON_LINK, REASON_RITUAL,
    REASON_RULE, REASON_SPSUMMON, REASON_SYNCHRO, REASON_XYZ, RESET_DISABLE, RESET_EVENT,
    STATUS_CANNOT_CHANGE_FORM, STATUS_DISABLED, STATUS_PROC_COMPLETE, STATUS_SPSUMMON_STEP,
    STATUS_SPSUMMON_TURN, STATUS_SUMMONING, STATUS_SUMMON_DISABLED, SUMMON_TYPE_FUSION,
    SUMMON_TYPE_LINK, SUMMON_TYPE_RITUAL, SUMMON_TYPE_SPECIAL, SUMMON_TYPE_SYNCHRO, SUMMON_TYPE_XYZ,
    TIMING_SPSUMMON, TYPE_MONSTER,
)
from ..core_constants import (
    DEFAULT_SUMMON_TYPE, SUMMON_CUSTOM_FUTURE_FUSION, SUMMON_IN_CHAIN, SUMMON_IN_IDLE,
    SUMMON_VALUE_CUSTOM_TYPE, SUMMON_VALUE_MAIN_TYPE, SUMMON_VALUE_SUB_TYPE,
)
from ..group import GTYPE_READ_ONLY, CardSet, Group
from ..messages import LocInfo, MsgSpSummoned, MsgSpSummoning
from ..card_effects import card_operation_key
from .move import as_card_set, nothing_operated
from ..event import Event
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..duel import CoreState, Duel
    from ..effect import Effect
    from ..processor.driver import Proc

_DESC_MORE_XYZ_MATERIALS = 93   # "Use more materials?"


def _spsummon_param(target: Card) -> tuple[int, int, int, int]:
    """(playerid, nocheck, nolimit, positions) stored by the special_summon(_step) adders."""
    p = target.spsummon_param
    return (p >> 24) & 0xF, (p >> 16) & 0xFF, (p >> 8) & 0xFF, p & 0xFF


def _material_reason(proc: "Effect") -> int:
    """The reason materials get from a summon procedure: Synchro, Xyz, Link, else Special Summon."""
    if proc.value == SUMMON_TYPE_SYNCHRO:
        return REASON_SYNCHRO
    if proc.value == SUMMON_TYPE_XYZ:
        return REASON_XYZ
    if proc.value == SUMMON_TYPE_LINK:
        return REASON_LINK
    return REASON_SPSUMMON


def _material_info(core: "CoreState") -> MaterialInfo:
    """The material limits set by Duel.SynchroSummon / XyzSummon / LinkSummon, as a material_info."""
    return MaterialInfo(limit_tuner=core.limit_tuner, limit_syn=core.limit_syn,
                        limit_syn_minc=core.limit_syn_minc, limit_syn_maxc=core.limit_syn_maxc,
                        limit_xyz=core.limit_xyz, limit_xyz_minc=core.limit_xyz_minc,
                        limit_xyz_maxc=core.limit_xyz_maxc, limit_link=core.limit_link,
                        limit_link_card=core.limit_link_card, limit_link_minc=core.limit_link_minc,
                        limit_link_maxc=core.limit_link_maxc)


def _push(out: list | None, value: Any) -> None:
    """Hand a value back to the script that started the unit (the reference's lua->add_param)."""
    if out is not None:
        out.append(value)


class SpecialSummonMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== adders ======================================================================

    def special_summon_rule(self: "Duel", sumplayer: int, target: Card, summon_type: int,
                            action_type: int = SUMMON_IN_IDLE) -> None:
        """Special Summon ``target`` by one of its own procedures (idle command, Duel.SpecialSummonRule,
        Duel.SynchroSummon / XyzSummon / LinkSummon with ``summon_type`` SUMMON_TYPE_*; 0: any)."""
        self.add_process(self.proc_special_summon_rule(sumplayer & 0xFF, target,
                                                       summon_type & 0xFFFFFFFF, action_type))

    def _prepare_special_summon(self: "Duel", pcard: Card, sumtype: int, sumplayer: int,
                                playerid: int, nocheck: int, nolimit: int, positions: int) -> None:
        """Record how ``pcard`` is to be Special Summoned by an effect.

        The current reason is saved in ``temp`` (restored if the summon fails);
        summon_info gets the summon type and where the card comes from;
        spsummon_param packs the target player, the "ignore the summoning
        conditions" / "ignore the revive limit" flags and the positions.
        """
        core = self.core
        pcard.temp.reason = pcard.current.reason
        pcard.temp.reason_effect = pcard.current.reason_effect
        pcard.temp.reason_player = pcard.current.reason_player
        pcard.summon_info = (((sumtype & (SUMMON_VALUE_SUB_TYPE | SUMMON_VALUE_CUSTOM_TYPE))
                              | SUMMON_TYPE_SPECIAL | (pcard.current.location << 16)) & 0xFFFFFFFF)
        pcard.summon_player = sumplayer & 0xFF
        pcard.current.reason = REASON_SPSUMMON
        pcard.current.reason_effect = core.reason_effect
        pcard.current.reason_player = core.reason_player
        pcard.spsummon_param = ((playerid << 24) + (nocheck << 16) + (nolimit << 8) + positions) & 0xFFFFFFFF

    def _divine_light_positions(self: "Duel", sumplayer: int, positions: int) -> int:
        """Under EFFECT_DIVINE_LIGHT a monster may not be summoned face-down: face-down becomes face-up."""
        if (positions & POS_FACEDOWN) and self.is_player_affected_by_effect(sumplayer, EFFECT_DIVINE_LIGHT):
            positions = (positions & POS_FACEUP) | ((positions & POS_FACEDOWN) >> 1)
        return positions

    def special_summon(self: "Duel", target: "Card | CardSet | Group | Iterable[Card]", sumtype: int,
                       sumplayer: int, playerid: int, nocheck: int, nolimit: int, positions: int,
                       zone: int = 0xFF) -> None:
        """Special Summon cards by an effect (Duel.SpecialSummon); returns.ivalue[0] = how many.

        ``sumplayer`` summons to ``playerid``'s field; ``nocheck``: ignore the
        summoning conditions; ``nolimit``: ignore "must first be properly
        summoned"; ``positions``: allowed positions; ``zone``: allowed zones.
        """
        core = self.core
        cset = as_card_set(target)
        positions = self._divine_light_positions(sumplayer, positions)
        for pcard in cset:
            self._prepare_special_summon(pcard, sumtype, sumplayer, playerid, nocheck, nolimit, positions)
        pgroup = self.new_group(cset)
        pgroup.is_readonly = GTYPE_READ_ONLY
        self.add_process(self.proc_special_summon(core.reason_effect, core.reason_player, pgroup,
                                                  zone & 0xFFFFFFFF))

    def special_summon_step(self: "Duel", target: Card, sumtype: int, sumplayer: int, playerid: int,
                            nocheck: int, nolimit: int, positions: int, zone: int = 0xFF) -> None:
        """Special Summon one card by an effect without finishing the summon (Duel.SpecialSummonStep).

        The card goes to the field and waits in core.special_summoning for
        special_summon_complete; returns.ivalue[0] is true when it got there.
        """
        positions = self._divine_light_positions(sumplayer, positions)
        self._prepare_special_summon(target, sumtype, sumplayer, playerid, nocheck, nolimit, positions)
        self.add_process(self.proc_special_summon_step(None, target, zone & 0xFFFFFFFF))

    def special_summon_complete(self: "Duel", reason_effect: "Effect | None", reason_player: int) -> None:
        """Finish the Special Summons started with special_summon_step (Duel.SpecialSummonComplete)."""
        core = self.core
        ng = self.new_group()
        ng.container.swap(core.special_summoning)
        ng.is_readonly = GTYPE_READ_ONLY
        core.hint_timing[reason_player] |= TIMING_SPSUMMON
        self.add_process(self.proc_special_summon_complete(reason_effect, reason_player, ng, 0))

    # ===== Special Summon by a card's own procedure ====================================

    def proc_special_summon_rule(self: "Duel", sumplayer: int, target: Card, summon_type: int,
                                 action_type: int) -> "Proc":
        """Special Summon by procedure (PROCESSOR_SPSUMMON_RULE).

        The player picks one of the card's usable procedures (or a group
        procedure, see _spsummon_rule_group).  Its target function may refuse;
        SPSUMMON_COST operations run; the procedure's operation picks and sends
        the materials; the card goes to the field (MSG_SPSUMMONING).  Outside
        a chain there is an EVENT_SPSUMMON window where the summon can be
        negated; then EVENT_SPSUMMON_SUCCESS.  The limits set by
        Duel.SynchroSummon & co. (core.limit_*) are passed to the procedure
        and cleared.
        """
        core = self.core
        if action_type == SUMMON_IN_CHAIN:
            yield self._reserve_summon(target)
        # step 0: the usable procedures
        eset: list[Effect] = []
        target.filter_spsummon_procedure(sumplayer, eset, summon_type, _material_info(core))
        target.filter_spsummon_procedure_g(sumplayer, eset)
        if not eset:
            self._clear_summon_limits()
            return
        core.select_effects.clear()
        core.select_options.clear()
        for peffect in eset:
            core.select_effects.append(peffect)
            core.select_options.append(peffect.description)
        self._offer_options(sumplayer)
        yield
        # step 1: the procedure's target function
        peffect = core.select_effects[self.returns.ivalue[0]]
        if peffect.code == EFFECT_SPSUMMON_PROC_G:
            yield from self._spsummon_rule_group(sumplayer, target, peffect, action_type)
            return
        self.returns.ivalue[0] = True
        if peffect.target:
            self._queue_target(peffect, sumplayer, target, *_material_info(core).condition_args())
        yield
        # step 2: summon costs
        if not self.returns.ivalue[0]:
            self._clear_summon_limits()
            return
        cost_effects = target.filter_effect(EFFECT_SPSUMMON_COST)
        if cost_effects:
            self._queue_cost_operations(cost_effects, sumplayer)
        yield
        # step 3: the procedure's operation (materials)
        target.material_cards.clear()
        if peffect.operation:
            self._queue_operation(peffect, sumplayer, target, *self._take_operation_limits())
        peffect.dec_count(sumplayer)
        yield
        # step 4: to the field
        self._delete_limit_groups()
        self._move_by_procedure(sumplayer, target, peffect)
        yield
        # step 5: MSG_SPSUMMONING
        self.set_control(target, target.current.controler, 0, 0)
        core.phase_action = True
        target.current.reason_effect = peffect
        target.set_status(STATUS_SUMMONING, True)
        self.emit(MsgSpSummoning(code=target.data.code,
                                 loc=LocInfo.from_raw(target.get_public_info_location())))
        yield
        # step 6: "about to be used as material"
        matreason = _material_reason(peffect)
        for mcard in target.material_cards:
            self.raise_single_event(mcard, None, EVENT_BE_PRE_MATERIAL, peffect, matreason,
                                    sumplayer, sumplayer, 0)
        # raised even without materials (the event group is then empty)
        self.raise_event(target.material_cards, EVENT_BE_PRE_MATERIAL, peffect, matreason,
                         sumplayer, sumplayer, 0)
        self.process_single_event()
        self.process_instant_event()
        yield
        # steps 7, 10, 11: the window to negate the summon (only outside a chain)
        if not core.current_chain and not target.is_affected_by_effect(EFFECT_CANNOT_DISABLE_SPSUMMON):
            target.set_status(STATUS_SUMMON_DISABLED, False)
            self.raise_event(target, EVENT_SPSUMMON, peffect, 0, sumplayer, sumplayer, 0)
            self.process_instant_event()
            self.add_process(self.proc_point_event(1, 1, True))
            yield
            if not target.is_status(STATUS_SUMMONING):
                self._undo_negated_procedure(peffect, cost_effects, sumplayer)
                if target.is_status(STATUS_SUMMON_DISABLED) and target.current.location == LOCATION_MZONE:
                    self.send_to(target, None, REASON_RULE, PLAYER_NONE, sumplayer, LOCATION_GRAVE, 0, 0)
                self.adjust_instant()
                self.add_process(self.proc_point_event(0, 0, 0))
                return
        # step 15: the summon succeeds
        self.release_oath_relation(peffect)
        for ceffect in cost_effects:
            self.release_oath_relation(ceffect)
        target.set_status(STATUS_SUMMONING, False)
        target.set_status(STATUS_PROC_COMPLETE | STATUS_SPSUMMON_TURN, True)
        target.set_status(STATUS_CANNOT_CHANGE_FORM, True)
        target.enable_field_effect(True)
        if target.is_status(STATUS_DISABLED):
            target.reset(RESET_DISABLE, RESET_EVENT)
        yield
        # step 16: MSG_SPSUMMONED, "used as material"
        self.emit(MsgSpSummoned())
        self.adjust_instant()
        for mcard in target.material_cards:
            self.raise_single_event(mcard, None, EVENT_BE_MATERIAL, peffect, matreason,
                                    sumplayer, sumplayer, 0)
        self.raise_event(target.material_cards, EVENT_BE_MATERIAL, peffect, matreason,
                         sumplayer, sumplayer, 0)
        self.process_single_event()
        self.process_instant_event()
        yield
        # step 17: counters, EVENT_SPSUMMON_SUCCESS
        self.set_spsummon_counter(sumplayer)
        self.check_card_counter(target, ACTIVITY_SPSUMMON, sumplayer)
        if target.spsummon_code:
            once = core.spsummon_once_map[sumplayer]
            once[target.spsummon_code] = once.get(target.spsummon_code, 0) + 1
        target.set_special_summon_status(peffect)
        self.raise_single_event(target, None, EVENT_SPSUMMON_SUCCESS, peffect, 0, sumplayer, sumplayer, 0)
        self.process_single_event()
        self.raise_event(target, EVENT_SPSUMMON_SUCCESS, peffect, 0, sumplayer, sumplayer, 0)
        self.process_instant_event()
        if action_type == SUMMON_IN_IDLE:
            self.adjust_all()
            core.hint_timing[sumplayer] |= TIMING_SPSUMMON
            self.add_process(self.proc_point_event(0, 0, 0))

    def _take_operation_limits(self: "Duel") -> tuple:
        """The core.limit_* values a procedure's operation receives after the card; cleared as passed.

        Unlike the target function's, these are not exclusive: Synchro,
        then Xyz, then Link values are each added when set.  The Synchro
        group and the Xyz/Link groups stay until the card moves (step 4).
        """
        core = self.core
        args: tuple = ()
        if core.limit_tuner is not None or core.limit_syn is not None:
            args += (core.limit_tuner, core.limit_syn)
            core.limit_tuner = None
            if core.limit_syn_minc:
                args += (core.limit_syn_minc, core.limit_syn_maxc)
                core.limit_syn_minc = 0
                core.limit_syn_maxc = 0
        if core.limit_xyz is not None:
            args += (core.limit_xyz,)
            if core.limit_xyz_minc:
                args += (core.limit_xyz_minc, core.limit_xyz_maxc)
                core.limit_xyz_minc = 0
                core.limit_xyz_maxc = 0
        if core.limit_link is not None or core.limit_link_card is not None:
            args += (core.limit_link, core.limit_link_card)
            core.limit_link_card = None
            if core.limit_link_minc:
                args += (core.limit_link_minc, core.limit_link_maxc)
                core.limit_link_minc = 0
                core.limit_link_maxc = 0
        return args

    def _delete_limit_groups(self: "Duel") -> None:
        """Forget the material groups of Duel.SynchroSummon / XyzSummon / LinkSummon."""
        core = self.core
        if core.limit_syn is not None:
            self.delete_group(core.limit_syn)
            core.limit_syn = None
        if core.limit_xyz is not None:
            self.delete_group(core.limit_xyz)
            core.limit_xyz = None
        if core.limit_link is not None:
            self.delete_group(core.limit_link)
            core.limit_link = None

    def _clear_summon_limits(self: "Duel") -> None:
        """Step 18: a procedure summon that did not happen forgets its material limits."""
        core = self.core
        core.limit_tuner = None
        if core.limit_syn is not None:
            self.delete_group(core.limit_syn)
            core.limit_syn = None
        if core.limit_xyz is not None:
            self.delete_group(core.limit_xyz)
            core.limit_xyz = None
        core.limit_link_card = None
        if core.limit_link is not None:
            self.delete_group(core.limit_link)
            core.limit_link = None

    def _move_by_procedure(self: "Duel", sumplayer: int, target: Card, peffect: "Effect") -> None:
        """Step 4: put the card on the field as its procedure says.

        EFFECT_FLAG_SPSUM_PARAM gives positions (s_range) and the side
        (o_range: the opponent's).  The procedure's value gives the summon
        type and, as a second value, the zones.  No allowed position means
        face-up Attack.
        """
        targetplayer = sumplayer
        positions = POS_FACEUP
        if peffect.is_flag(EFFECT_FLAG_SPSUM_PARAM):
            positions = peffect.s_range & 0xFF
            targetplayer = sumplayer if peffect.o_range == 0 else 1 - sumplayer
        retval = peffect.get_values(target)
        summon_info = retval[0] & 0xFFFFFFFF if len(retval) > 0 else 0
        sumtype = (summon_info & (SUMMON_VALUE_SUB_TYPE | SUMMON_VALUE_CUSTOM_TYPE)) | SUMMON_TYPE_SPECIAL
        positions = target.get_spsummonable_position(peffect, sumtype, positions, sumplayer,
                                                     targetplayer) & 0xFF
        if positions == 0:
            positions = POS_FACEUP_ATTACK
        zone = retval[1] & 0xFFFFFFFF if len(retval) > 1 else 0xFF
        target.summon_info = sumtype | (target.current.location << 16)
        target.enable_field_effect(False)
        self.move_to_field(target, sumplayer, targetplayer, LOCATION_MZONE, positions, False, 0,
                           False, zone)
        target.current.reason = REASON_SPSUMMON
        target.current.reason_effect = peffect
        target.current.reason_player = sumplayer
        target.summon_player = sumplayer
        self.break_effect()

    def _undo_negated_procedure(self: "Duel", peffect: "Effect", cost_effects: list["Effect"],
                                playerid: int) -> None:
        """A negated procedure summon takes back its oath effects and its "once per turn" use."""
        self.remove_oath_effect(peffect)
        if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and (peffect.count_code & EFFECT_COUNT_CODE_OATH):
            self.dec_effect_code(peffect.count_code, playerid)
        for ceffect in cost_effects:
            self.remove_oath_effect(ceffect)
        cost_effects.clear()

    # ----- group procedures (Pendulum Summon) ---------------------------------------------

    def _spsummon_rule_group(self: "Duel", sumplayer: int, target: Card, peffect: "Effect",
                             action_type: int) -> "Proc":
        """Steps 20-29: Special Summon a group by an EFFECT_SPSUMMON_PROC_G (Pendulum Summon).

        The procedure's operation fills a group; cards that cannot be summoned
        are dropped; each remaining card goes to the field in card order
        (MSG_SPSUMMONING each), to zones that leave room for the rest; the
        summon of those that can be negated can be (EVENT_SPSUMMON); then
        EVENT_SPSUMMON_SUCCESS_G_P, MSG_SPSUMMONED and EVENT_SPSUMMON_SUCCESS.
        """
        core = self.core
        # step 20
        pgroup = self.new_group()
        if peffect.operation:
            self._queue_operation(peffect, sumplayer, target, pgroup)
        peffect.dec_count(sumplayer)
        yield
        # step 21: drop what cannot be summoned; summon costs
        cost_effects: list[Effect] = []
        for pcard in pgroup.container:
            if (not (pcard.data.type & TYPE_MONSTER)
                    or pcard.current.location == LOCATION_MZONE
                    or self.check_unique_onfield(pcard, sumplayer, LOCATION_MZONE)
                    or pcard.is_affected_by_effect(EFFECT_CANNOT_SPECIAL_SUMMON)):
                pgroup.container.discard(pcard)
                continue
            eset = pcard.filter_effect(EFFECT_SPSUMMON_COST)
            if eset:
                self._queue_cost_operations(eset, sumplayer)
                # only the last card's cost effects are remembered (as in the reference)
                cost_effects = eset
        yield
        # step 22
        if not pgroup.container:
            return
        core.phase_action = True
        # steps 23-24: each card to the field
        cards = list(pgroup.container)
        for index, pcard in enumerate(cards):
            self._move_group_member(sumplayer, peffect, pcard, cards[index:])
            yield
            self.set_control(pcard, pcard.current.controler, 0, 0)
            pcard.set_status(STATUS_SUMMONING, True)
            self.emit(MsgSpSummoning(code=pcard.data.code,
                                     loc=LocInfo.from_raw(pcard.get_public_info_location())))
            yield
        # step 25: the window to negate (no chain check here)
        cset = CardSet(pcard for pcard in pgroup.container
                       if not pcard.is_affected_by_effect(EFFECT_CANNOT_DISABLE_SPSUMMON))
        if cset:
            self.raise_event(cset, EVENT_SPSUMMON, peffect, 0, sumplayer, sumplayer, 0)
            self.process_instant_event()
            self.add_process(self.proc_point_event(1, 1, True))
        yield
        # step 26: negated cards leave the group (and go to the GY)
        cset = CardSet()
        for pcard in pgroup.container:
            if not pcard.is_status(STATUS_SUMMONING):
                pgroup.container.discard(pcard)
                if pcard.is_status(STATUS_SUMMON_DISABLED) and pcard.current.location == LOCATION_MZONE:
                    cset.add(pcard)
        if cset:
            self.send_to(cset, None, REASON_RULE, PLAYER_NONE, sumplayer, LOCATION_GRAVE, 0, 0)
            self.adjust_instant()
        if not pgroup.container:
            self._undo_negated_procedure(peffect, cost_effects, sumplayer)
            self.add_process(self.proc_point_event(0, 0, 0))
            return
        yield
        # step 27
        self.release_oath_relation(peffect)
        for ceffect in cost_effects:
            self.release_oath_relation(ceffect)
        for pcard in pgroup.container:
            pcard.set_status(STATUS_SUMMONING, False)
            pcard.set_status(STATUS_SPSUMMON_TURN, True)
            pcard.set_status(STATUS_CANNOT_CHANGE_FORM, True)
            pcard.enable_field_effect(True)
            if pcard.is_status(STATUS_DISABLED):
                pcard.reset(RESET_DISABLE, RESET_EVENT)
        yield
        # step 28
        self.raise_event(pgroup.container, EVENT_SPSUMMON_SUCCESS_G_P, peffect, 0, sumplayer, sumplayer, 0)
        self.process_instant_event()
        self.adjust_all()
        yield
        # step 29
        self.emit(MsgSpSummoned())
        self.set_spsummon_counter(sumplayer)
        self.check_card_counter(pgroup, ACTIVITY_SPSUMMON, sumplayer)
        once_codes: set[int] = set()
        for pcard in pgroup.container:
            if pcard.spsummon_code:
                once_codes.add(pcard.spsummon_code)
            pcard.set_special_summon_status(peffect)
        once = core.spsummon_once_map[sumplayer]
        for code in sorted(once_codes):
            once[code] = once.get(code, 0) + 1
        for pcard in pgroup.container:
            self.raise_single_event(pcard, None, EVENT_SPSUMMON_SUCCESS, peffect, 0, sumplayer,
                                    pcard.summon_player, 0)
        self.process_single_event()
        self.raise_event(pgroup.container, EVENT_SPSUMMON_SUCCESS, peffect, 0, sumplayer, sumplayer, 0)
        self.process_instant_event()
        if action_type == SUMMON_IN_IDLE:
            self.adjust_all()
            core.hint_timing[sumplayer] |= TIMING_SPSUMMON
            self.add_process(self.proc_point_event(0, 0, 0))

    def _move_group_member(self: "Duel", sumplayer: int, peffect: "Effect", pcard: Card,
                           remaining: list[Card]) -> None:
        """Step 23: one card of a group procedure to the field.

        ``remaining`` are this card and those after it.  If, counting them,
        the zones for cards from the Extra Deck (or for the others) run out,
        this card is kept out of the zones the others need.
        """
        pcard.enable_field_effect(False)
        pcard.current.reason = REASON_SPSUMMON
        pcard.current.reason_effect = peffect
        pcard.current.reason_player = sumplayer
        pcard.summon_player = sumplayer
        pcard.summon_info = (((peffect.get_value(pcard) & DEFAULT_SUMMON_TYPE) | SUMMON_TYPE_SPECIAL
                              | (pcard.current.location << 16)) & 0xFFFFFFFF)
        zone = 0xFF
        flag1 = [0]
        flag2 = [0]
        ct1 = self.get_tofield_count(pcard, sumplayer, LOCATION_MZONE, sumplayer,
                                     LOCATION_REASON_TOFIELD, zone, flag1)
        ct2 = self.get_spsummonable_count_fromex(pcard, sumplayer, sumplayer, zone, flag2)
        for other in remaining:
            if other.current.location != LOCATION_EXTRA:
                ct1 -= 1
            else:
                ct2 -= 1
        if pcard.current.location != LOCATION_EXTRA:
            if ct2 == 0:
                zone = flag2[0]
        else:
            if ct1 == 0:
                zone = flag1[0]
        sumtype = ((peffect.get_value(pcard) & 0xFF00FFFF) | SUMMON_TYPE_SPECIAL) & 0xFFFFFFFF
        positions = pcard.get_spsummonable_position(peffect, sumtype, POS_FACEUP, sumplayer, sumplayer) & 0xFF
        self.move_to_field(pcard, sumplayer, sumplayer, LOCATION_MZONE, positions, False, 0, False, zone)

    # ===== Special Summon by an effect =================================================

    def proc_special_summon_step(self: "Duel", targets: "Group | None", target: Card,
                                 zone: int) -> "Proc":
        """Move one card to the field for a Special Summon by an effect (PROCESSOR_SPSUMMON_STEP).

        ``targets``: the group of a Duel.SpecialSummon (None for
        Duel.SpecialSummonStep: the card then waits in core.special_summoning).
        The summon fails if the card is already on the field, must first be
        properly summoned, is unique and already there, may not be summoned by
        this player, is not a monster (unless conditions are ignored), has no
        zone (it then goes to the GY unless already there), or its summoning
        condition refuses.  returns.ivalue[0] tells whether it got there; a
        failed card leaves ``targets`` and gets its previous reason back.
        """
        core = self.core
        playerid, nocheck, nolimit, positions = _spsummon_param(target)
        # step 0
        cost_effects: list[Effect] = []
        if not self._spsummon_step_allowed(target, playerid, nocheck, nolimit, positions, zone):
            self._spsummon_step_failed(targets, target)
            return
        cost_effects = target.filter_effect(EFFECT_SPSUMMON_COST)
        if cost_effects:
            self._queue_cost_operations(cost_effects, target.summon_player)
        yield
        # step 1: to the field
        playerid, nocheck, nolimit, positions = _spsummon_param(target)
        for ceffect in cost_effects:
            self.release_oath_relation(ceffect)
        if targets is None:
            core.special_summoning.add(target)
        target.enable_field_effect(False)
        if targets is not None and core.duel_rule >= NEW_MASTER_RULE:
            zone = self._zone_leaving_room(targets, target, playerid, zone)
        sumpositions = target.get_spsummonable_position(core.reason_effect,
                                                        target.summon_info & DEFAULT_SUMMON_TYPE,
                                                        positions, target.summon_player, playerid) & 0xFF
        self.move_to_field(target, target.summon_player, playerid, LOCATION_MZONE, sumpositions,
                           False, 0, False, zone)
        yield
        # step 2
        self.emit(MsgSpSummoning(code=target.data.code,
                                 loc=LocInfo.from_raw(target.get_public_info_location())))
        yield
        # step 3
        self.returns.ivalue[0] = True
        self.set_control(target, target.current.controler, 0, 0)
        target.set_status(STATUS_SPSUMMON_STEP, True)

    def _spsummon_step_allowed(self: "Duel", target: Card, playerid: int, nocheck: int,
                               nolimit: int, positions: int, zone: int) -> bool:
        """Step 0 of special_summon_step: may this card be Special Summoned by the effect?

        EFFECT_REVIVE_LIMIT (a monster that must first be properly summoned)
        blocks it from the GY/banishment/Extra Deck unless ``nolimit``, and
        from the hand/Deck unless ``nocheck`` or ``nolimit``.  A card that
        finds no free zone joins core.unable_tofield_set (sent to the GY later)
        unless it is in the GY.  Summoning conditions are checked unless
        ``nocheck``.
        """
        core = self.core
        if target.is_affected_by_effect(EFFECT_REVIVE_LIMIT) and not target.is_status(STATUS_PROC_COMPLETE):
            if ((not nolimit and (target.current.location & 0x38))
                    or (not nocheck and not nolimit and (target.current.location & 0x3))):
                return False
        sumtype = target.summon_info & DEFAULT_SUMMON_TYPE
        if (target.current.location == LOCATION_MZONE
                or (not (positions & POS_FACEDOWN) and self.check_unique_onfield(target, playerid, LOCATION_MZONE))
                or not self.is_player_can_spsummon_card(core.reason_effect, sumtype, positions,
                                                        target.summon_player, playerid, target)
                or (not nocheck and not (target.data.type & TYPE_MONSTER))):
            return False
        if self.get_useable_count(target, playerid, LOCATION_MZONE, target.summon_player,
                                  LOCATION_REASON_TOFIELD, zone) <= 0:
            if target.current.location != LOCATION_GRAVE:
                core.unable_tofield_set.add(target)
            return False
        if not nocheck:
            for peffect in target.filter_effect(EFFECT_SPSUMMON_CONDITION):
                if not peffect.check_value_condition(core.reason_effect, target.summon_player, sumtype,
                                                     positions, playerid):
                    return False
        return True

    def _spsummon_step_failed(self: "Duel", targets: "Group | None", target: Card) -> None:
        """Step 5 of special_summon_step: the card stays where it is, with its previous reason."""
        self.returns.ivalue[0] = False
        target.current.reason = target.temp.reason
        target.current.reason_effect = target.temp.reason_effect
        target.current.reason_player = target.temp.reason_player
        if targets is not None:
            targets.container.discard(target)

    def _zone_leaving_room(self: "Duel", targets: "Group", target: Card, playerid: int, zone: int) -> int:
        """Master Rule 4+: keep ``target`` out of the zones the rest of ``targets`` needs.

        Cards from the Extra Deck and the others compete for different zones;
        when, counting every card of the summon not yet on the field, one kind
        would have exactly no zone left, ``target`` (of the other kind) avoids
        the zones that kind can use.
        """
        flag1 = [0]
        flag2 = [0]
        ct1 = self.get_tofield_count(target, playerid, LOCATION_MZONE, target.summon_player,
                                     LOCATION_REASON_TOFIELD, zone, flag1)
        ct2 = self.get_spsummonable_count_fromex(target, playerid, target.summon_player, zone, flag2)
        for pcard in targets.container:
            if pcard.current.location == LOCATION_MZONE:
                continue
            if pcard.current.location != LOCATION_EXTRA:
                ct1 -= 1
            else:
                ct2 -= 1
        if target.current.location != LOCATION_EXTRA:
            if ct2 == 0:
                zone &= flag2[0]
        else:
            if ct1 == 0:
                zone &= flag1[0]
        return zone

    def proc_special_summon(self: "Duel", reason_effect: "Effect | None", reason_player: int,
                            targets: Group, zone: int) -> "Proc":
        """Special Summon a group by an effect (PROCESSOR_SPSUMMON).

        Each card is moved by its own special_summon_step: the turn player's
        summons first, then the other player's, each in the order the rules
        handle cards (card_operation_sort).  Then the summon completes for all
        at once (see proc_special_summon_complete).
        """
        core = self.core
        tp = self.infos.turn_player
        cvs: list[Card] = []
        cvo: list[Card] = []
        for pcard in targets.container:
            if pcard.summon_player == tp:
                cvs.append(pcard)
            else:
                cvo.append(pcard)
        if cvs:
            if len(cvs) > 1:
                cvs.sort(key=card_operation_key)
            core.hint_timing[tp] |= TIMING_SPSUMMON
            for pcard in cvs:
                self.add_process(self.proc_special_summon_step(targets, pcard, zone))
        if cvo:
            if len(cvo) > 1:
                cvo.sort(key=card_operation_key)
            core.hint_timing[1 - tp] |= TIMING_SPSUMMON
            for pcard in cvo:
                self.add_process(self.proc_special_summon_step(targets, pcard, zone))
        yield
        yield from self._complete_special_summon(reason_effect, reason_player, targets)

    def proc_special_summon_complete(self: "Duel", reason_effect: "Effect | None", reason_player: int,
                                     targets: Group, zone: int = 0) -> "Proc":
        """PROCESSOR_SPSUMMON entered at step 1: finish summons already moved by special_summon_step."""
        yield from self._complete_special_summon(reason_effect, reason_player, targets)

    def _complete_special_summon(self: "Duel", reason_effect: "Effect | None", reason_player: int,
                                 targets: Group) -> "Proc":
        """Steps 1-5 of PROCESSOR_SPSUMMON: the summoned cards become summoned together.

        Cards that found no zone go to the GY; the summon counters count;
        the cards get their statuses and effects; MSG_SPSUMMONED;
        EVENT_SPSUMMON_SUCCESS (each face-up card's own, then the field's) and
        EVENT_BE_MATERIAL for Fusion/Ritual/Xyz/Link materials (not for a
        Future Fusion).  returns.ivalue[0] and core.operated_set: the summoned cards.
        """
        core = self.core
        # step 1
        if core.unable_tofield_set:
            self.send_to(core.unable_tofield_set, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                         LOCATION_GRAVE, 0, POS_FACEUP)
        yield
        # step 2
        core.unable_tofield_set.clear()
        if not targets.container:
            nothing_operated(self, targets)
            return
        self._count_special_summons(targets)
        for pcard in targets.container:
            pcard.set_status(STATUS_SPSUMMON_STEP, False)
            pcard.set_status(STATUS_SPSUMMON_TURN, True)
            pcard.set_status(STATUS_CANNOT_CHANGE_FORM, True)
            if pcard.is_position(POS_FACEUP):
                pcard.enable_field_effect(True)
        self.adjust_instant()
        yield
        # step 3
        self.emit(MsgSpSummoned())
        for pcard in targets.container:
            self.check_card_counter(pcard, ACTIVITY_SPSUMMON, pcard.summon_player)
            pcard.set_special_summon_status(reason_effect)
            if not (pcard.current.position & POS_FACEDOWN):
                self.raise_single_event(pcard, None, EVENT_SPSUMMON_SUCCESS, reason_effect, 0,
                                        reason_player, pcard.summon_player, 0)
            self._raise_effect_material_events(targets, pcard, reason_effect, reason_player)
        self.process_single_event()
        self.process_instant_event()
        yield
        # step 4
        self.raise_event(targets.container, EVENT_SPSUMMON_SUCCESS, reason_effect, 0, reason_player,
                         PLAYER_NONE, 0)
        self.process_instant_event()
        yield
        # step 5
        core.operated_set = targets.container.copy()
        self.returns.ivalue[0] = len(targets.container)
        self.delete_group(targets)

    def _count_special_summons(self: "Duel", targets: Group) -> None:
        """Count the summon for each summoning player (turn player first) and the "once per turn" codes."""
        core = self.core
        tp = self.infos.turn_player
        has_tp = has_ntp = False
        once_codes: list[set[int]] = [set(), set()]
        for pcard in targets.container:
            if pcard.summon_player == tp:
                has_tp = True
            else:
                has_ntp = True
            if pcard.spsummon_code:
                once_codes[pcard.summon_player].add(pcard.spsummon_code)
        if has_tp:
            self.set_spsummon_counter(tp)
        if has_ntp:
            self.set_spsummon_counter(1 - tp)
        for p in (0, 1):
            once = core.spsummon_once_map[p]
            for code in sorted(once_codes[p]):
                once[code] = once.get(code, 0) + 1

    def _raise_effect_material_events(self: "Duel", targets: Group, pcard: Card,
                                      reason_effect: "Effect | None", reason_player: int) -> None:
        """EVENT_BE_MATERIAL for the materials of a card Fusion/Ritual/Xyz/Link Summoned by an effect."""
        summontype = pcard.summon_info & (SUMMON_VALUE_MAIN_TYPE | SUMMON_VALUE_SUB_TYPE)
        custom_type = pcard.summon_info & SUMMON_VALUE_CUSTOM_TYPE
        if not summontype or not pcard.material_cards or custom_type == SUMMON_CUSTOM_FUTURE_FUSION:
            return
        matreason = 0
        if summontype == SUMMON_TYPE_FUSION:
            matreason = REASON_FUSION
        elif summontype == SUMMON_TYPE_RITUAL:
            matreason = REASON_RITUAL
        elif summontype == SUMMON_TYPE_XYZ:
            matreason = REASON_XYZ
        elif summontype == SUMMON_TYPE_LINK:
            matreason = REASON_LINK
        for mcard in pcard.material_cards:
            self.raise_single_event(mcard, targets.container, EVENT_BE_MATERIAL, reason_effect,
                                    matreason, reason_player, pcard.summon_player, 0)
        self.raise_event(pcard.material_cards, EVENT_BE_MATERIAL, reason_effect, matreason,
                         reason_player, pcard.summon_player, 0)

    # ===== Synchro materials ===========================================================

    def _synchro_result(self: "Duel", out: list | None, cards: Iterable[Card] | None) -> None:
        """End a Synchro material selection: hand the group (None: nothing) to the script."""
        if cards is not None:
            _push(out, self.new_group(cards))
        self.restore_assumes()
        self.core.limit_tuner = None

    def proc_select_synchro_material(self: "Duel", playerid: int, pcard: Card, min_: int, max_: int,
                                     smat: Card | None, mg: Group | None, filter1: Any, filter2: Any,
                                     script_results: list | None = None) -> "Proc":
        """Choose a Tuner and the other materials for a Synchro Summon (Duel.SelectSynchroMaterial).

        core.select_cards holds the usable Tuners.  ``smat``: a non-Tuner that
        must be used; ``mg``: the materials to choose from (default: the
        field).  ``filter2`` filters the non-Tuners (``filter1`` was used to
        find the Tuners).  With nothing cancelable and exactly one way to use
        all of ``mg``, no question is asked.
        """
        core = self.core
        out = script_results
        # step 0
        if not core.select_cards:
            return
        if not core.summon_cancelable and mg is not None and min_ == max_ and len(mg.container) == min_ + 1:
            self._synchro_result(out, mg.container)
            return
        self._hint_selectmsg(playerid, HINTMSG_SMATERIAL)
        self._select_card(playerid, core.summon_cancelable, 1, 1)
        yield
        yield from self._select_synchro_nontuners(playerid, pcard, min_, max_, smat, mg, filter2, out)

    def proc_select_tuner_material(self: "Duel", playerid: int, pcard: Card, tuner: Card, min_: int,
                                   max_: int, mg: Group | None, filter1: Any, filter2: Any,
                                   script_results: list | None = None) -> "Proc":
        """Choose the non-Tuners for a Synchro Summon with a given Tuner (Duel.SelectTunerMaterial).

        PROCESSOR_SELECT_SYNCHRO entered at step 1, as if ``tuner`` had been
        chosen (the reference's binding puts it in core.select_cards and
        returns.bvalue[1] first; this unit does that itself).
        """
        self.core.select_cards = [tuner]
        self.returns.bvalue[1] = 0
        yield from self._select_synchro_nontuners(playerid, pcard, min_, max_, None, mg, filter2,
                                                  script_results)

    def _select_synchro_nontuners(self: "Duel", playerid: int, pcard: Card, min_: int, max_: int,
                                  smat: Card | None, mg: Group | None, filter2: Any,
                                  out: list | None) -> "Proc":
        """Steps 1-10 of PROCESSOR_SELECT_SYNCHRO: after the Tuner, the other materials."""
        core = self.core
        # step 1: the Tuner chosen
        if self.returns.ivalue[0] == -1:
            _push(out, None)
            core.limit_tuner = None
            return
        tuner = core.select_cards[self.returns.bvalue[1]]
        pcheck = tuner.is_affected_by_effect(EFFECT_SYNCHRO_CHECK)
        if pcheck is not None:
            pcheck.get_value(tuner)
        core.limit_tuner = tuner
        custom = tuner.is_affected_by_effect(EFFECT_SYNCHRO_MATERIAL_CUSTOM, pcard)
        if custom is not None:
            # the Tuner chooses its partners itself (into core.synchro_materials)
            if custom.operation:
                core.synchro_materials.clear()
                self._queue_operation(custom, playerid, pcard, filter2, min_, max_)
                yield
            # step 2
            cards = CardSet(core.synchro_materials)
            cards.add(core.limit_tuner)
            self._synchro_result(out, cards)
            return
        # step 3: limits on the number of materials; a fixed pair
        tuner_limit = tuner.is_affected_by_effect(EFFECT_TUNER_MATERIAL_LIMIT)
        if tuner_limit is not None and tuner_limit.is_flag(EFFECT_FLAG_SPSUM_PARAM):
            if tuner_limit.s_range and tuner_limit.s_range > min_:
                min_ = tuner_limit.s_range
            if tuner_limit.o_range and tuner_limit.o_range < max_:
                max_ = tuner_limit.o_range
        mzone_limit = self.get_mzone_limit(playerid, playerid, LOCATION_REASON_TOFIELD)
        if mzone_limit < 0:
            ft = -mzone_limit
            if ft > min_:
                min_ = ft
        if smat is not None:
            pcheck = tuner.is_affected_by_effect(EFFECT_SYNCHRO_CHECK)
            if pcheck is not None:
                pcheck.get_value(smat)
            if min_ == 1 and max_ == 1:
                if not self.check_must_material(self.new_group([tuner, smat]), playerid,
                                                EFFECT_MUST_BE_SMATERIAL):
                    # nothing is handed back to the script here
                    self._synchro_result(out, None)
                    return
                lv = pcard.get_level()
                tuner.sum_param = tuner.get_synchro_level(pcard)
                smat.sum_param = smat.get_synchro_level(pcard)
                if self.check_with_sum_limit_m([tuner, smat], lv, 0, 0, 0, 0xFFFF, 2):
                    # step 9
                    self._synchro_result(out, [core.limit_tuner, smat])
                    return
        yield
        # step 4: which non-Tuners can complete the Synchro Level
        self._list_synchro_candidates(playerid, pcard, min_, max_, smat, mg, filter2)
        yield
        # steps 5-6: when the Synchro Monster needs a zone one material frees, pick that one first
        handed = yield from self._select_handover_material(pcard, smat)
        if handed:
            min_ -= 1
            max_ -= 1
        # step 7: the rest by their Synchro Levels
        lv = pcard.get_level()
        mcount = len(core.must_select_cards)
        asked = yield from self._scrap_chimera_choice(playerid, pcard, min_, max_, lv, mcount)
        if not asked:
            self._hint_selectmsg(playerid, HINTMSG_SMATERIAL)
            self.add_process(self.proc_select_sum(playerid, lv, min_ - (mcount - 1), max_ - (mcount - 1)))
            yield
        # step 8
        cards = CardSet()
        mcount = len(core.must_select_cards)
        for i in range(mcount, self.returns.bvalue[0]):
            cards.add(core.select_cards[self.returns.bvalue[i + 1]])
        cards.update(core.must_select_cards)
        core.must_select_cards.clear()
        self._synchro_result(out, cards)

    def _list_synchro_candidates(self: "Duel", playerid: int, pcard: Card, min_: int, max_: int,
                                 smat: Card | None, mg: Group | None, filter2: Any) -> None:
        """Step 4: must-use materials in core.must_select_cards, selectable ones in core.select_cards.

        The Tuner, ``smat`` and the EFFECT_MUST_BE_SMATERIAL cards must be
        used.  A candidate must be usable with this Tuner (its
        EFFECT_TUNER_MATERIAL_LIMIT filter and locations), face-up if on the
        field, pass ``filter2``, and leave a way to reach the level.
        """
        core = self.core
        tuner = core.limit_tuner
        location = LOCATION_MZONE
        tuner_limit = tuner.is_affected_by_effect(EFFECT_TUNER_MATERIAL_LIMIT)
        if tuner_limit is not None and tuner_limit.value:
            location = tuner_limit.value
        pcheck = tuner.is_affected_by_effect(EFFECT_SYNCHRO_CHECK)
        core.must_select_cards = [tuner]
        tuner.sum_param = tuner.get_synchro_level(pcard)
        if smat is not None:
            core.must_select_cards.append(smat)
            smat.sum_param = smat.get_synchro_level(pcard)
        must_list = CardSet()
        mct = self.get_must_material_list(playerid, EFFECT_MUST_BE_SMATERIAL, must_list)
        if mct > 0:
            for mcard in must_list:
                if mcard is tuner or mcard is smat:
                    continue
                core.must_select_cards.append(mcard)
                mcard.sum_param = mcard.get_synchro_level(pcard)
        nsyn = list(core.must_select_cards)
        mcount = len(nsyn)
        if mg is not None:
            candidates: Iterable[Card] = mg.container
        else:
            candidates = self.get_synchro_material(playerid, CardSet(), tuner_limit)
        for pm in candidates:
            if (pm is None or pm is tuner or pm is smat or pm in must_list
                    or not pm.is_can_be_synchro_material(pcard, tuner)):
                continue
            if tuner_limit is not None:
                if tuner_limit.target:
                    if not self.script.get_function_value(tuner_limit.target, tuner_limit, pm):
                        continue
                # with an explicit group, the limit's locations are checked here
                if mg is not None and tuner_limit.value and not (pm.current.location & location):
                    continue
            if pcheck is not None:
                pcheck.get_value(pm)
            if pm.current.location == LOCATION_MZONE and not pm.is_position(POS_FACEUP):
                continue
            if not self.script.check_condition(filter2, pm, pcard):
                continue
            nsyn.append(pm)
            pm.sum_param = pm.get_synchro_level(pcard)
        lv = pcard.get_level()
        core.select_cards = []
        # try each candidate as the first non-required material
        for i in range(mcount, len(nsyn)):
            pm = nsyn[i]
            nsyn[mcount], nsyn[i] = nsyn[i], nsyn[mcount]
            if self.check_other_synchro_material(nsyn, lv, min_ - mcount, max_ - mcount, mcount + 1):
                core.select_cards.append(pm)
            nsyn[mcount], nsyn[i] = nsyn[i], nsyn[mcount]

    def _select_handover_material(self: "Duel", pcard: Card, smat: Card | None) -> "Proc":
        """Steps 5-6: if the Synchro Monster has no zone, first pick a material that frees one.

        Only when neither the Tuner nor ``smat`` frees a zone for it and some
        candidates do not.  The pick is made by the monster's controller,
        without cancel, and becomes a required material.  Returns True when a
        card was picked.
        """
        core = self.core
        tuner = core.limit_tuner
        cplayer = pcard.current.controler
        ct = self.get_spsummonable_count(pcard, cplayer)
        if ct > 0:
            return False
        must_use_zone_flag = self.filter_must_use_mzone(cplayer, cplayer, LOCATION_REASON_TOFIELD, pcard, 0)
        handover_zone = self.get_rule_zone_fromex(cplayer, pcard) & ~must_use_zone_flag
        handover_zone_cards = self.get_cards_in_zone(CardSet(), handover_zone, cplayer, LOCATION_MZONE)
        if tuner in handover_zone_cards:
            ct += 1
        if smat is not None and smat in handover_zone_cards:
            ct += 1
        if ct > 0:
            return False
        in_zone = [pm for pm in core.select_cards if pm in handover_zone_cards]
        if len(in_zone) == len(core.select_cards):
            return False
        all_cards = core.select_cards
        must_cards = core.must_select_cards
        core.select_cards = in_zone
        core.must_select_cards = []
        self._hint_selectmsg(cplayer, HINTMSG_SMATERIAL)
        self._select_card(cplayer, 0, 1, 1)
        yield
        # step 6
        chosen = core.select_cards[self.returns.bvalue[1]]
        all_cards.remove(chosen)
        must_cards.append(chosen)
        core.select_cards = all_cards
        core.must_select_cards = must_cards
        return True

    def _scrap_chimera_choice(self: "Duel", playerid: int, pcard: Card, min_: int, max_: int,
                              lv: int, mcount: int) -> "Proc":
        """Step 7 (and 10) under GLOBALFLAG_SCRAP_CHIMERA: materials that exclude each other.

        A candidate under EFFECT_SCRAP_CHIMERA only allows materials its value
        accepts.  If the Synchro is possible both with it (and only accepted
        materials) and without it, the player chooses (yes: with it) and the
        selection is asked here; returns True then.  If only one way works,
        the candidates are narrowed to it.
        """
        core = self.core
        if not (core.global_flag & GLOBALFLAG_SCRAP_CHIMERA):
            return False
        peffect = self._scrap_chimera_effect()
        if peffect is None:
            return False
        nsyn = list(core.must_select_cards) + list(core.select_cards)
        nsyn_filtered = [pm for pm in nsyn if not peffect.get_value(pm)]
        if len(nsyn_filtered) >= len(nsyn):
            return False
        nsyn_removed = [pm for pm in nsyn if not pm.is_affected_by_effect(EFFECT_SCRAP_CHIMERA)]
        mfiltered = True
        mremoved = True
        for i in range(len(core.must_select_cards)):
            if peffect.get_value(nsyn[i]):
                mfiltered = False
            if nsyn[i].is_affected_by_effect(EFFECT_SCRAP_CHIMERA):
                mremoved = False
        if mfiltered and self.check_with_sum_limit_m(nsyn_filtered, lv, 0, min_, max_, 0xFFFF, mcount):
            if not (mremoved and self.check_with_sum_limit_m(nsyn_removed, lv, 0, min_, max_, 0xFFFF, mcount)):
                core.select_cards = nsyn_filtered[mcount:]
                return False
        else:
            core.select_cards = nsyn_removed[mcount:]
            return False
        self.add_process(self.proc_select_yes_no(playerid, peffect.description))
        yield
        # step 10
        lv = pcard.get_level()
        mcount = len(core.must_select_cards)
        peffect = self._scrap_chimera_effect()
        if self.returns.ivalue[0]:
            core.select_cards = [pm for pm in core.select_cards if not peffect.get_value(pm)]
        else:
            core.select_cards = [pm for pm in core.select_cards
                                 if not pm.is_affected_by_effect(EFFECT_SCRAP_CHIMERA)]
        self._hint_selectmsg(playerid, HINTMSG_SMATERIAL)
        self.add_process(self.proc_select_sum(playerid, lv, min_ - (mcount - 1), max_ - (mcount - 1)))
        yield
        return True

    def _scrap_chimera_effect(self: "Duel") -> "Effect | None":
        """The first EFFECT_SCRAP_CHIMERA among the selectable materials."""
        for pm in self.core.select_cards:
            peffect = pm.is_affected_by_effect(EFFECT_SCRAP_CHIMERA)
            if peffect is not None:
                return peffect
        return None

    # ===== Xyz materials ===============================================================

    def _xyz_result(self: "Duel", out: list | None, extra: Iterable[Card] = ()) -> None:
        """End an Xyz material selection: hand core.operated_set (plus ``extra``) to the script."""
        cards = self.core.operated_set.copy()
        cards.update(extra)
        _push(out, self.new_group(cards))

    def _take_xmaterial(self: "Duel", pcard: Card) -> int:
        """Remove ``pcard`` from core.xmaterial_lst; the count it requires (0 if absent)."""
        lst = self.core.xmaterial_lst
        for i, (level, card) in enumerate(lst):
            if card is pcard:
                del lst[i]
                return level
        return 0

    def _handover_cards(self: "Duel", playerid: int, scard: Card) -> CardSet:
        """Cards in the Monster Zones the Xyz Monster could use once they leave."""
        must_use_zone_flag = self.filter_must_use_mzone(playerid, playerid, LOCATION_REASON_TOFIELD, scard, 0)
        handover_zone = self.get_rule_zone_fromex(playerid, scard) & ~must_use_zone_flag
        return self.get_cards_in_zone(CardSet(), handover_zone, playerid, LOCATION_MZONE)

    def proc_select_xyz_material(self: "Duel", playerid: int, lv: int, scard: Card, min_: int, max_: int,
                                 script_results: list | None = None) -> "Proc":
        """Choose Xyz Materials for ``scard`` (Duel.SelectXyzMaterial, PROCESSOR_SELECT_XMATERIAL).

        Candidates are in core.xmaterial_lst as (count, card): a material
        counting as several (its count) requires at least that many
        materials.  EFFECT_MUST_BE_XMATERIAL cards are chosen first; if the
        Xyz Monster needs a zone a material frees, one such is chosen next;
        then the rest, asking "more?" (93) when the minimum is met.  Tune
        Magician-like materials (EFFECT_TUNE_MAGICIAN_X) restrict the others.
        """
        core = self.core
        out = script_results
        lst = core.xmaterial_lst
        # the unit reads both from one word: min + (max << 16)
        packed = (min_ + (max_ << 16)) & 0xFFFFFFFF
        min_, max_ = packed & 0xFFFF, packed >> 16
        # step 0: materials that must be used
        core.operated_set.clear()
        mzone_limit = self.get_mzone_limit(playerid, playerid, LOCATION_REASON_TOFIELD)
        if mzone_limit <= 0:
            ft = -mzone_limit + 1
            if ft > min_:
                min_ = ft
        mcset = CardSet()
        mct = self.get_must_material_list(playerid, EFFECT_MUST_BE_XMATERIAL, mcset)
        core.select_cards = list(mcset)
        if mct == 0:
            self.returns.ivalue[0] = 1
        else:
            self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
            self._select_card(playerid, core.summon_cancelable, mct, mct)
            yield
            # step 1
            if self.returns.ivalue[0] == -1:
                _push(out, None)
                return
            pv = 0
            count = self.returns.bvalue[0]
            for i in range(count):
                pcard = core.select_cards[self.returns.bvalue[i + 1]]
                core.operated_set.add(pcard)
                pv = max(pv, self._take_xmaterial(pcard))
            max_ -= count
            if max_ == 0 or not lst:
                self._xyz_result(out)
                return
            min_ -= count
            if min_ < 0:
                min_ = 0
            if pv - len(core.operated_set) > min_:
                min_ = pv - len(core.operated_set)
            yield from self._ask_more_xyz(playerid, min_)
        # step 2
        if not self.returns.ivalue[0]:
            self._xyz_result(out)
            return
        if core.global_flag & GLOBALFLAG_TUNE_MAGICIAN:
            selectable = self._tune_magician_filter(playerid, scard, min_, max_)
            if selectable is not None:
                yield from self._select_xyz_tune_magician(playerid, scard, min_, max_, selectable, out)
                return
        # steps 3-4: a material that frees a zone for the Xyz Monster, if needed
        picked = yield from self._select_xyz_handover(playerid, scard, min_)
        if picked is not None:
            # step 4
            if self.returns.ivalue[0] == -1:
                _push(out, None)
                return
            pcard = core.select_cards[self.returns.bvalue[1]]
            core.operated_set.add(pcard)
            pv = self._take_xmaterial(pcard)
            max_ -= 1
            if max_ == 0 or not lst:
                self._xyz_result(out)
                return
            if min_ > 0:
                min_ -= 1
            if pv - len(core.operated_set) > min_:
                min_ = pv - len(core.operated_set)
            yield from self._ask_more_xyz(playerid, min_)
        # step 5
        if not self.returns.ivalue[0]:
            self._xyz_result(out)
            return
        maxv = lst[0][0] if lst else 0
        if min_ >= maxv:
            core.select_cards = [card for _, card in lst]
            self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
            self._select_card(playerid, core.summon_cancelable, min_, max_)
            yield
            # step 6
            if self.returns.ivalue[0] == -1:
                _push(out, None)
                return
            self._xyz_result(out, self._selected_cards())
            return
        # step 7: exactly the minimum first (a material counting as several raises it)
        core.select_cards = [card for _, card in lst]
        self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
        self._select_card(playerid, core.summon_cancelable, min_, min_)
        yield
        while True:
            # step 8
            if self.returns.ivalue[0] == -1:
                _push(out, None)
                return
            pv = 0
            count = self.returns.bvalue[0]
            for i in range(count):
                pcard = core.select_cards[self.returns.bvalue[i + 1]]
                core.operated_set.add(pcard)
                pv = max(pv, self._take_xmaterial(pcard))
            max_ -= count
            if max_ == 0 or not lst:
                self._xyz_result(out)
                return
            min_ = 0
            if pv - len(core.operated_set) > min_:
                min_ = pv - len(core.operated_set)
            yield from self._ask_more_xyz(playerid, min_)
            # step 9
            if not self.returns.ivalue[0]:
                self._xyz_result(out)
                return
            core.select_cards = [card for _, card in lst]
            maxv = lst[0][0]
            self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
            smin = min_ if min_ else 1      # not kept for later steps
            if smin + len(core.operated_set) >= maxv:
                self._select_card(playerid, 0, smin, max_)
                yield
                # step 10
                self._xyz_result(out, self._selected_cards())
                return
            self._select_card(playerid, 0, smin, smin)
            yield

    def _ask_more_xyz(self: "Duel", playerid: int, min_: int) -> "Proc":
        """With the minimum reached ask "use more materials?" (93), else go on (returns.ivalue[0] = 1)."""
        if min_ == 0:
            self.add_process(self.proc_select_yes_no(playerid, _DESC_MORE_XYZ_MATERIALS))
            yield
        else:
            self.returns.ivalue[0] = 1

    def _select_xyz_handover(self: "Duel", playerid: int, scard: Card, min_: int) -> "Proc":
        """Step 3: ask for a material in a zone the Xyz Monster could take, when it has none.

        Returns True when the selection was asked (its answer is read by step
        4), None when not needed (returns.ivalue[0] = 1 then).  Not asked if
        the chosen materials already free a zone, or if the others alone could
        not reach the minimum.
        """
        core = self.core
        ct = self.get_spsummonable_count(scard, playerid)
        if ct > 0:
            self.returns.ivalue[0] = 1
            return None
        handover_zone_cards = self._handover_cards(playerid, scard)
        ft = ct + sum(1 for pcard in core.operated_set if pcard in handover_zone_cards)
        if ft > 0:
            self.returns.ivalue[0] = 1
            return None
        mmax = 0
        core.select_cards = []
        for _, pcard in core.xmaterial_lst:
            if pcard in handover_zone_cards:
                core.select_cards.append(pcard)
            else:
                mmax += 1
        if min_ > mmax:
            self.returns.ivalue[0] = 1
            return None
        self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
        self._select_card(playerid, core.summon_cancelable, 1, 1)
        yield
        return True

    def _tune_magician_filter(self: "Duel", playerid: int, scard: Card, min_: int, max_: int) -> int | None:
        """Step 2 under GLOBALFLAG_TUNE_MAGICIAN: group the candidates by compatibility.

        A material under EFFECT_TUNE_MAGICIAN_X only goes with materials its
        value does not reject.  Each such material gets a bit; sum_param of
        every candidate collects the bits of the groups it fits in (bit 1:
        the group without any such material).  Groups that cannot reach the
        minimum (or free a needed zone) are dropped.  Returns None when all
        remaining candidates fit together (normal selection goes on), else the
        mask of usable groups (the one-by-one selection of steps 20-23).
        """
        core = self.core
        lst = core.xmaterial_lst
        ct = self.get_spsummonable_count(scard, playerid)
        handover_zone_cards = CardSet()
        if ct <= 0:
            handover_zone_cards = self._handover_cards(playerid, scard)
        for pcard in core.operated_set:
            peffect = pcard.is_affected_by_effect(EFFECT_TUNE_MAGICIAN_X)
            if peffect is not None:
                lst[:] = [entry for entry in lst if not peffect.get_value(entry[1])]
        for _, pcard in lst:
            pcard.sum_param = 0
        digit = 1
        i = 0
        while i < len(lst):
            pcard = lst[i][1]
            peffect = pcard.is_affected_by_effect(EFFECT_TUNE_MAGICIAN_X)
            if peffect is not None:
                if any(peffect.get_value(mcard) for mcard in core.operated_set):
                    del lst[i]
                    continue
                digit <<= 1
                for _, mcard in lst:
                    if not peffect.get_value(mcard):
                        mcard.sum_param |= digit
                pcard.sum_param |= digit
            else:
                pcard.sum_param |= 1
            i += 1
        selectable = 0
        icheck = 1
        while icheck <= digit:
            mat = [entry for entry in lst if entry[1].sum_param & icheck]
            if core.global_flag & GLOBALFLAG_XMAT_COUNT_LIMIT:
                maxc = min(max_, len(mat)) + len(core.operated_set)
                mat = [entry for entry in mat if entry[0] <= maxc]
            ok = True
            if ct <= 0:
                ft = ct + sum(1 for _, pcard in mat if pcard in handover_zone_cards)
                ok = ft > 0
            if ok and len(mat) >= min_:
                selectable |= icheck
            icheck <<= 1
        acc = selectable
        kept = []
        for entry in lst:
            if entry[1].sum_param & selectable:
                acc &= entry[1].sum_param
                kept.append(entry)
        lst[:] = kept
        if acc:
            return None
        return selectable

    def _select_xyz_tune_magician(self: "Duel", playerid: int, scard: Card, min_: int, max_: int,
                                  selectable: int, out: list | None) -> "Proc":
        """Steps 20-23: choose materials one at a time, keeping only those compatible with the choices."""
        core = self.core
        lst = core.xmaterial_lst
        # step 20: a material freeing a zone first, if needed
        ct = self.get_spsummonable_count(scard, playerid)
        forced = False
        if ct <= 0:
            handover_zone_cards = self._handover_cards(playerid, scard)
            ft = ct + sum(1 for pcard in core.operated_set if pcard in handover_zone_cards)
            if ft <= 0:
                core.select_cards = [pcard for _, pcard in lst if pcard in handover_zone_cards]
                self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
                self._select_card(playerid, core.summon_cancelable, 1, 1)
                forced = True
        if not forced:
            self._select_any_xmaterial(playerid)
        yield
        while True:
            # step 22
            if self.returns.ivalue[0] == -1:
                _push(out, None)
                return
            pv = 0
            pcard = core.select_cards[self.returns.bvalue[1]]
            core.operated_set.add(pcard)
            selectable &= pcard.sum_param
            kept = []
            for entry in lst:
                if entry[1] is pcard:
                    pv = entry[0]
                elif entry[1].sum_param & selectable:
                    kept.append(entry)
            lst[:] = kept
            max_ -= 1
            if max_ == 0 or not lst:
                self._xyz_result(out)
                return
            if min_ > 0:
                min_ -= 1
            if pv - len(core.operated_set) > min_:
                min_ = pv - len(core.operated_set)
            if min_ == 0:
                self.add_process(self.proc_select_yes_no(playerid, _DESC_MORE_XYZ_MATERIALS))
                yield
                # step 23
                if not self.returns.ivalue[0]:
                    self._xyz_result(out)
                    return
            # step 21
            self._select_any_xmaterial(playerid)
            yield

    def _select_any_xmaterial(self: "Duel", playerid: int) -> None:
        """Step 21: one more material among all candidates."""
        core = self.core
        core.select_cards = [pcard for _, pcard in core.xmaterial_lst]
        self._hint_selectmsg(playerid, HINTMSG_XMATERIAL)
        self._select_card(playerid, core.summon_cancelable, 1, 1)

    # ===== material selections started by scripts (Duel.SelectSynchroMaterial, SelectTunerMaterial, SelectXyzMaterial, SelectFusionMaterial) ===

    def select_synchro_material(self: "Duel", playerid: int, pcard: "Card", filter1: Any,
                                filter2: Any, min_: int, max_: int, smat: "Card | None",
                                mg: Group | None, out: list) -> None:
        """Duel.SelectSynchroMaterial: offer the Tuners that work and queue the selection.

        The Tuners come from ``mg`` (``smat`` is then ignored) or from the
        player's Synchro material candidates; each must allow a Synchro Summon
        of ``pcard`` (check_tuner_material).  The unit appends the chosen
        group (or None when canceled) to ``out``; nothing when no Tuner works.
        """
        core = self.core
        select_cards = CardSet()
        packed = (min_ + (max_ << 16)) & 0xFFFFFFFF
        umin, umax = packed & 0xFFFF, packed >> 16
        if mg is not None:
            for pm in mg.container:
                if self.check_tuner_material(pcard, pm, filter1, filter2, min_, max_, None, mg):
                    select_cards.add(pm)
            core.select_cards = list(select_cards)
            self.add_process(self.proc_select_synchro_material(playerid & 0xFF, pcard, umin, umax, None, mg,
                                                               filter1, filter2, out))
        else:
            for tuner in self.get_synchro_material(playerid, CardSet()):
                if self.check_tuner_material(pcard, tuner, filter1, filter2, min_, max_, smat, None):
                    select_cards.add(tuner)
            core.select_cards = list(select_cards)
            self.add_process(self.proc_select_synchro_material(playerid & 0xFF, pcard, umin, umax, smat, None,
                                                               filter1, filter2, out))

    def select_tuner_material(self: "Duel", playerid: int, pcard: "Card", tuner: "Card",
                              filter1: Any, filter2: Any, min_: int, max_: int,
                              mg: Group | None, out: list) -> bool:
        """Duel.SelectTunerMaterial: with ``tuner`` fixed, queue the choice of the other materials.

        False (nothing queued) when ``tuner`` cannot be used for ``pcard``.
        """
        if not self.check_tuner_material(pcard, tuner, filter1, filter2, min_, max_, None, mg):
            return False
        packed = (min_ + (max_ << 16)) & 0xFFFFFFFF
        self.add_process(self.proc_select_tuner_material(playerid & 0xFF, pcard, tuner, packed & 0xFFFF,
                                                         packed >> 16, mg, filter1, filter2, out))
        return True

    def select_xyz_material(self: "Duel", playerid: int, scard: "Card", filter_fn: Any, lv: int,
                            minc: int, maxc: int, mg: Group | None, out: list) -> bool:
        """Duel.SelectXyzMaterial: list the Xyz material candidates and queue the selection.

        False (nothing queued) when ``scard`` cannot be Xyz Summoned with
        them (check_xyz_material).  The player and the Rank travel packed in
        one word as in the reference (player: its low byte).
        """
        if not self.check_xyz_material(scard, filter_fn, _i32(lv), _i32(minc), _i32(maxc), mg):
            return False
        self.get_xyz_material(scard, filter_fn, lv & 0xFFFFFFFF, _i32(maxc), mg)
        arg1 = (playerid + (lv << 16)) & 0xFFFFFFFF
        self.add_process(self.proc_select_xyz_material(arg1 & 0xFF, arg1 >> 16, scard, minc, maxc, out))
        return True

    def proc_select_fusion(self: "Duel", peffect: "Effect | None", matgroup: Group | None,
                           arg1: int, not_material: int | bool, cg: "Card | None") -> "Proc":
        """Choose Fusion Materials by running the Fusion Monster's EFFECT_FUSION_MATERIAL
        operation (PROCESSOR_SELECT_FUSION).

        ``arg1`` is ``playerid + (chkf << 16)``.  core.fusion_materials is
        emptied first; without such an effect nothing else happens.  The
        operation sees an event whose cards are the offered materials, reason
        effect the material effect and reason player the player, and gets
        (cg, chkf) after the usual arguments; it leaves its choice in
        core.fusion_materials (Duel.SetFusionMaterial).  core.not_material is
        set while it runs.
        """
        core = self.core
        arg1 &= 0xFFFFFFFF
        e = Event(event_cards=matgroup, reason_effect=peffect, reason_player=arg1 & 0xFF)
        core.fusion_materials.clear()
        if peffect is None:
            return
        core.not_material = bool(not_material)
        core.sub_solving_event.append(e)
        self.add_process(self.proc_execute_operation(peffect, arg1 & 0xFF, cg, arg1 >> 16))
        yield
        core.not_material = False

