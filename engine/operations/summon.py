"""Normal Summon, Tribute Summon, Set (monster and Spell/Trap), Flip Summon, tribute selection (reference: operations.cpp).

The units here follow the reference's step machines exactly; a bare ``yield``
is where a reference step returns FALSE after queuing units (a prompt, a cost
operation, a move), so those units run before the code after it.  Where the
reference jumps between steps without queuing anything the code just goes on.

Unit arguments
--------------
The reference packs several small values into one 32-bit word when it queues a
unit (``sumplayer + (ignore_count << 8) + (min_tribute << 16) + (zone << 24)``)
and unpacks them byte by byte.  The adders below do the same packing so the
values the unit sees are truncated exactly like the reference's (a zone
above 0xff loses its high bits, a minimum of tributes keeps one byte).

Summons during a chain
----------------------
``Duel.Summon`` / ``Duel.MSet`` / ``Duel.SpecialSummonRule`` (and the Synchro,
Xyz and Link variants) called while a chain resolves pass
``action_type=SUMMON_IN_CHAIN``.  The reference then takes the unit off the
queue before it runs and keeps it in ``core.summon_reserved``; the chain solver
queues it again when the chain link is done.  Here the unit itself does that on
its first step: it yields :class:`Suspend`, which stores the generator in
``core.summon_reserved`` and sets ``core.summoning_card``.  So the binding only
calls the adder; the chain solver re-queues with
``self.add_process(core.summon_reserved)`` when ``core.summoning_card`` is set.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..constants import (
    ACTIVITY_FLIPSUMMON, ACTIVITY_NORMALSUMMON, ACTIVITY_SUMMON, EFFECT_CANNOT_DISABLE_FLIP_SUMMON,
    EFFECT_CANNOT_DISABLE_SUMMON, EFFECT_CANNOT_MSET, EFFECT_CANNOT_SSET, EFFECT_CANNOT_SUMMON,
    EFFECT_CHANGE_TYPE, EFFECT_COUNT_CODE_OATH, EFFECT_DECREASE_TRIBUTE,
    EFFECT_DECREASE_TRIBUTE_SET, EFFECT_DIVINE_LIGHT, EFFECT_DUAL_STATUS, EFFECT_DUAL_SUMMONABLE,
    EFFECT_EXTRA_RELEASE_NONSUM, EFFECT_EXTRA_RELEASE_SUM, EFFECT_EXTRA_SET_COUNT,
    EFFECT_EXTRA_SUMMON_COUNT, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT,
    EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_SPSUM_PARAM, EFFECT_FLIPSUMMON_COST, EFFECT_MONSTER_SSET,
    EFFECT_MSET_COST, EFFECT_SSET_COST, EFFECT_SUMMON_COST, EFFECT_TYPE_SINGLE, EVENT_BE_MATERIAL,
    EVENT_BE_PRE_MATERIAL, EVENT_CHANGE_POS, EVENT_FLIP, EVENT_FLIP_SUMMON,
    EVENT_FLIP_SUMMON_NEGATED, EVENT_FLIP_SUMMON_SUCCESS, EVENT_MSET, EVENT_SPSUMMON,
    EVENT_SPSUMMON_NEGATED, EVENT_SSET, EVENT_SUMMON, EVENT_SUMMON_NEGATED, EVENT_SUMMON_SUCCESS,
    HINTMSG_RELEASE, HINT_CARD, HINT_SELECTMSG, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE,
    LOCATION_REASON_TOFIELD, LOCATION_SZONE, PLAYER_NONE, POS_FACEDOWN, POS_FACEDOWN_DEFENSE,
    POS_FACEUP, POS_FACEUP_ATTACK, REASON_EFFECT, REASON_MATERIAL, REASON_RULE, REASON_SUMMON,
    RESET_DISABLE, RESET_EVENT, STATUS_CANNOT_CHANGE_FORM, STATUS_DISABLED, STATUS_FLIP_SUMMONING,
    STATUS_FLIP_SUMMON_DISABLED, STATUS_FLIP_SUMMON_TURN, STATUS_PROC_COMPLETE, STATUS_SET_TURN,
    STATUS_SUMMONING, STATUS_SUMMON_DISABLED, STATUS_SUMMON_TURN, SUMMON_TYPE_ADVANCE,
    SUMMON_TYPE_DUAL, SUMMON_TYPE_FLIP, SUMMON_TYPE_NORMAL, SUMMON_TYPE_SPECIAL, TIMING_FLIPSUMMON,
    TIMING_MSET, TIMING_SSET, TIMING_SUMMON, TYPE_FIELD, TYPE_MONSTER,
)
from ..core_constants import (
    SUMMON_IN_CHAIN, SUMMON_IN_IDLE, SUMMON_VALUE_CUSTOM_TYPE, SUMMON_VALUE_SUB_TYPE,
)
from ..card import Card
from ..group import CardSet
from ..messages import (LocInfo, CardInfo, MsgConfirmCards, MsgFlipSummoned, MsgFlipSummoning,
                        MsgHint, MsgSet, MsgShuffleSetCard, MsgSummoned, MsgSummoning)
from ..processor.driver import Suspend
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..duel import Duel
    from ..effect import Effect
    from ..group import Group
    from ..processor.driver import Proc

# System string ids (the client's strings.conf) of the yes/no questions asked here.
_DESC_NORMAL_SUMMON_NO_TRIBUTE = 90   # summon without tributing?
_DESC_USE_EXTRA_RELEASE = 92          # also tribute a card allowed by EFFECT_EXTRA_RELEASE_SUM?
_DESC_RELEASE_ONEOF = 98              # also release a card allowed by EFFECT_EXTRA_RELEASE_NONSUM?
_DESC_MORE_TRIBUTES = 210             # select more?
_DESC_GEMINI_STATUS = 64              # client hint shown on a Gemini monster in its effect state

# The reset flag the reference gives core-made single effects that last while
# the card stays face-up on the field (RESET_EVENT + RESETS_STANDARD bits).
_RESET_STANDARD_EVENT = RESET_EVENT + 0x1FE0000


def _extra_count_values(retval: list[int]) -> tuple[int, int, int]:
    """Decode the value of an EXTRA_SUMMON_COUNT / EXTRA_SET_COUNT effect.

    The value function may return up to three numbers: the minimum number of
    tributes (default 0), the zones allowed (default 0x1f) and which monsters
    may be tributed (default 0xff00ff; a negative number is taken relative to
    that default).
    """
    new_min_tribute = _i32(retval[0]) if len(retval) > 0 else 0
    new_zone = retval[1] & 0xFFFFFFFF if len(retval) > 1 else 0x1F
    if len(retval) > 2:
        releasable = 0xFF00FF + _i32(retval[2]) if retval[2] < 0 else _i32(retval[2])
    else:
        releasable = 0xFF00FF
    return new_min_tribute, new_zone, releasable


def _pack_min_max(min_: int, max_: int) -> tuple[int, int]:
    """The (min, max) bytes a unit reads back from ``min + (max << 16)``.

    The reference packs both into one 32-bit word and each unit reads a byte
    of each half; a negative minimum borrows from the maximum.
    """
    v = (min_ + (max_ << 16)) & 0xFFFFFFFF
    return v & 0xFF, (v >> 16) & 0xFF


class _NormalSummon:
    """What a Normal Summon unit keeps between its steps (the reference's unit fields)."""

    __slots__ = ("sumplayer", "target", "proc", "ignore_count", "min_tribute", "zone",
                 "action_type", "pextra", "proc_releasable", "cost_effects")

    def __init__(self, sumplayer: int, target: "Card", proc: "Effect | None", ignore_count: int,
                 min_tribute: int, zone: int, action_type: int) -> None:
        self.sumplayer = sumplayer
        self.target = target
        self.proc = proc                # the procedure used; None: the rule
        self.ignore_count = ignore_count
        self.min_tribute = min_tribute
        self.zone = zone
        self.action_type = action_type
        self.pextra: Effect | None = None   # the extra-summon effect used, if any
        # what the procedure's operation gets as "releasable" (the unit's value1):
        # 0 unless an extra summon set it
        self.proc_releasable = 0
        self.cost_effects: list[Effect] = []    # EFFECT_SUMMON_COST effects applied


class SummonMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== small shared pieces (used by special_summon.py too) =========================

    def _hint_selectmsg(self: "Duel", playerid: int, data: int) -> None:
        """MSG_HINT HINT_SELECTMSG: tell a player what the next selection is for."""
        self.emit(MsgHint(type=HINT_SELECTMSG, player=playerid, data=data))

    def _hint_card(self: "Duel", code: int) -> None:
        """MSG_HINT HINT_CARD to both players: show which card's effect is applied."""
        self.emit(MsgHint(type=HINT_CARD, player=0, data=code))

    def _queue_operation(self: "Duel", peffect: "Effect", playerid: int, *args: Any) -> None:
        """Run an effect's operation as a unit (PROCESSOR_EXECUTE_OPERATION).

        The reference pushes ``nil_event`` as the event the operation sees and
        queues the operation with ``args`` (its add_param values) after the usual
        (e, tp, eg, ep, ev, re, r, rp).
        """
        self.core.sub_solving_event.append(self.nil_event)
        self.add_process(self.proc_execute_operation(peffect, playerid, *args))

    def _queue_target(self: "Duel", peffect: "Effect", playerid: int, *args: Any) -> None:
        """Run an effect's target function as a unit (PROCESSOR_EXECUTE_TARGET), see _queue_operation.

        Queued, not run in place, although the caller reads its result
        (returns.ivalue[0]) in its next step: see ChainMixin._run_callback."""
        self.core.sub_solving_event.append(self.nil_event)
        self.add_process(self.proc_execute_target(peffect, playerid, *args))

    def _queue_cost_operations(self: "Duel", eset: list["Effect"], playerid: int) -> None:
        """Queue the operation of every *_COST effect that has one (in effect order)."""
        for peffect in eset:
            if peffect.operation:
                self._queue_operation(peffect, playerid)

    def _select_card(self: "Duel", playerid: int, cancelable: int, min_: int, max_: int) -> None:
        """Queue PROCESSOR_SELECT_CARD on core.select_cards, with the reference's byte packing."""
        lo, hi = _pack_min_max(min_, max_)
        self.add_process(self.proc_select_card(playerid & 0xFF, cancelable & 0xFF, lo, hi))

    def _select_tribute_prompt(self: "Duel", playerid: int, cancelable: int, min_: int,
                               max_: int) -> None:
        """Queue PROCESSOR_SELECT_TRIBUTE_P (MSG_SELECT_TRIBUTE) on core.select_cards."""
        lo, hi = _pack_min_max(min_, max_)
        self.add_process(self.proc_select_tribute(playerid & 0xFF, cancelable & 0xFF, lo, hi))

    def _offer_options(self: "Duel", playerid: int) -> None:
        """Let ``playerid`` choose among core.select_options, or take the only one.

        With exactly one option the answer (index 0) is written to returns at
        once; otherwise PROCESSOR_SELECT_OPTION asks.
        """
        if len(self.core.select_options) == 1:
            self.returns.ivalue[0] = 0
        else:
            self.add_process(self.proc_select_option(playerid))

    def _reserve_summon(self: "Duel", target: "Card") -> Suspend:
        """Leave the queue until the current chain link is resolved (summon in a chain).

        The reference's libduel moves the freshly queued unit to
        ``core.summon_reserved`` and sets ``core.summoning_card``; the chain
        solver re-queues it after the link (processor.cpp solve_chain).
        """
        core = self.core

        def store(gen: "Proc") -> None:
            core.summon_reserved = gen
            core.summoning_card = target

        return Suspend(store)

    # ===== adders ======================================================================

    def summon(self: "Duel", sumplayer: int, target: "Card", proc: "Effect | None",
               ignore_count: int, min_tribute: int, zone: int = 0x1F,
               action_type: int = SUMMON_IN_IDLE) -> None:
        """Normal Summon ``target`` (Tribute Summon, summon procedure, or Gemini second summon).

        ``proc``: the summon procedure effect to use (None: let the player
        choose among the available ones); ``ignore_count``: the summon does not
        use the turn's Normal Summon; ``min_tribute``: at least this many
        tributes; ``zone``: allowed Main Monster Zones.  From the idle command
        and Duel.Summon.
        """
        arg1 = (sumplayer + (ignore_count << 8) + (min_tribute << 16) + (zone << 24)) & 0xFFFFFFFF
        self.add_process(self.proc_summon(arg1 & 0xFF, target, proc, (arg1 >> 8) & 0xFF,
                                          (arg1 >> 16) & 0xFF, (arg1 >> 24) & 0xFF, action_type))

    def mset(self: "Duel", setplayer: int, target: "Card", proc: "Effect | None",
             ignore_count: int, min_tribute: int, zone: int = 0x1F,
             action_type: int = SUMMON_IN_IDLE) -> None:
        """Set a monster face-down from the hand (the Set counterpart of ``summon``)."""
        arg1 = (setplayer + (ignore_count << 8) + (min_tribute << 16) + (zone << 24)) & 0xFFFFFFFF
        self.add_process(self.proc_mset(arg1 & 0xFF, target, proc, (arg1 >> 8) & 0xFF,
                                        (arg1 >> 16) & 0xFF, (arg1 >> 24) & 0xFF, action_type))

    def select_tribute_cards(self: "Duel", target: "Card | None", playerid: int, cancelable: int,
                             min_: int, max_: int, toplayer: int, zone: int) -> None:
        """Let ``playerid`` choose tributes for ``target`` among core.release_cards(_ex/_ex_oneof).

        The answer is left like a selection's: returns.bvalue[0] cards at
        core.select_cards[returns.bvalue[i + 1]]; returns.ivalue[0] == -1 when
        canceled.  (Also Duel.SelectTribute, with target None.)  The unit stays
        queued: it can end by queuing the MSG_SELECT_TRIBUTE prompt whose
        answer is the result, so the caller must read it only after the queue ran.
        """
        lo, hi = _pack_min_max(min_, max_)
        self.add_process(self.proc_select_tribute_cards(target, playerid & 0xFF, cancelable & 0xFF,
                                                        lo, hi, toplayer & 0xFFFFFFFF,
                                                        zone & 0xFFFFFFFF))

    # ===== Normal Summon / Tribute Summon ==============================================

    def proc_summon(self: "Duel", sumplayer: int, target: "Card", proc: "Effect | None",
                    ignore_count: int, min_tribute: int, zone: int, action_type: int) -> "Proc":
        """Normal Summon (PROCESSOR_SUMMON_RULE).

        A card in the hand is summoned with the rule (tributing by level), with
        a summon procedure (EFFECT_SUMMON_PROC / LIMIT_SUMMON_PROC), and may use
        an extra Normal Summon (EFFECT_EXTRA_SUMMON_COUNT).  A face-up Gemini
        monster on the field is "summoned again" and gains its effects.  Then
        the summon can be negated (EVENT_SUMMON window) before it succeeds.
        """
        if action_type == SUMMON_IN_CHAIN:
            yield self._reserve_summon(target)
        s = _NormalSummon(sumplayer, target, proc, ignore_count, min_tribute, zone, action_type)
        # step 0
        if not self._summon_allowed(s):
            return
        yield
        # steps 1-3
        yield from self._summon_choose_way(s)
        # steps 4-10
        if not (yield from self._summon_pay(s)):
            return
        # steps 11-17
        yield from self._summon_complete(s)

    def _summon_allowed(self: "Duel", s: "_NormalSummon") -> bool:
        """Step 0: can it be summoned at all; offer the ways (rule / procedures) for a hand card."""
        core = self.core
        target, sumplayer = s.target, s.sumplayer
        if not target.is_summonable_card():
            return False
        if self.check_unique_onfield(target, sumplayer, LOCATION_MZONE):
            return False
        if target.is_affected_by_effect(EFFECT_CANNOT_SUMMON):
            return False
        if target.current.location == LOCATION_MZONE:
            if not self._gemini_summon_allowed(sumplayer, target, s.ignore_count):
                return False
        else:
            eset: list[Effect] = []
            res = target.filter_summon_procedure(sumplayer, eset, s.ignore_count, s.min_tribute, s.zone)
            if s.proc is not None:
                if res < 0 or not target.check_summon_procedure(s.proc, sumplayer, s.ignore_count,
                                                                s.min_tribute, s.zone):
                    return False
            else:
                if res == -2:
                    return False
                self._list_procedures(res, eset)
                if not core.select_options:
                    return False
                self._offer_options(sumplayer)
        # a summon inside a summon procedure's operation cannot be canceled
        if core.summon_depth:
            core.summon_cancelable = False
        core.summon_depth += 1
        target.material_cards.clear()
        return True

    def _summon_choose_way(self: "Duel", s: "_NormalSummon") -> "Proc":
        """Steps 1-3: which Normal Summon is used (the turn's or an extra one), and the tributes.

        A Gemini monster on the field takes the first extra-summon effect if
        the player has not used one.  A hand card: the player chooses among
        the usable counts, the chosen extra one may change the minimum of
        tributes, the zones and what may be tributed; then, for the rule, the
        tributes are chosen.
        """
        core = self.core
        target, sumplayer = s.target, s.sumplayer
        eset = target.filter_effect(EFFECT_EXTRA_SUMMON_COUNT)
        if target.current.location == LOCATION_MZONE:
            if not s.ignore_count and not core.extra_summon[sumplayer] and eset:
                s.pextra = eset[0]
            return
        if s.proc is None:
            s.proc = core.select_effects[self.returns.ivalue[0]]
        self._list_extra_counts(sumplayer, target, s.proc, s.ignore_count, s.min_tribute, s.zone,
                                eset, EFFECT_EXTRA_SUMMON_COUNT)
        self._offer_options(sumplayer)
        yield
        # step 2
        s.pextra = core.select_effects[self.returns.ivalue[0]]
        releasable = 0xFF00FF
        if s.pextra is not None:
            new_min_tribute, new_zone, releasable = _extra_count_values(s.pextra.get_values(target))
            if s.min_tribute < new_min_tribute:
                s.min_tribute = new_min_tribute & 0xFF
            s.zone &= new_zone
            s.proc_releasable = releasable
        if s.proc is None:
            yield from self._choose_tributes(sumplayer, target, s.min_tribute, s.zone, releasable, 0x1)

    def _summon_pay(self: "Duel", s: "_NormalSummon") -> "Proc":
        """Steps 4-10: tributes or the procedure's operation, the count, the move to the field.

        Returns False when the summon stops here: the tribute selection was
        canceled, or this was a summon nested in another summon's procedure
        (the outer one goes on).
        """
        core = self.core
        target, sumplayer, proc = s.target, s.sumplayer, s.proc
        # step 4: cancel, tributes, summon costs
        in_mzone = target.current.location == LOCATION_MZONE
        tributes: CardSet | None = None
        if not in_mzone and proc is None:
            if self.returns.ivalue[0] == -1:
                core.summon_depth -= 1
                return False
            if self.returns.bvalue[0]:
                tributes = self._selected_cards()
        s.cost_effects = target.filter_effect(EFFECT_SUMMON_COST)
        if s.cost_effects:
            self._queue_cost_operations(s.cost_effects, sumplayer)
        yield
        if in_mzone:
            # steps 9-10: the Gemini monster's second summon
            core.summon_depth -= 1
            if core.summon_depth:
                return False
            self._begin_gemini_summon(sumplayer, target)
            yield
            self._use_summon_count(sumplayer, target, s.ignore_count, s.pextra)
            yield
            return True
        if proc is None:
            # step 5: tributes by the rule
            self._release_tributes(sumplayer, target, tributes, EFFECT_DECREASE_TRIBUTE)
            target.current.reason_effect = None
            target.current.reason_player = sumplayer
            yield
        else:
            # step 6: a summon procedure's operation
            target.summon_info = ((proc.get_value(target) & (SUMMON_VALUE_SUB_TYPE | SUMMON_VALUE_CUSTOM_TYPE))
                                  | SUMMON_TYPE_NORMAL | (LOCATION_HAND << 16))
            target.current.reason_effect = proc
            target.current.reason_player = sumplayer
            if proc.operation:
                core.limit_extra_summon_zone = s.zone
                core.limit_extra_summon_releasable = s.proc_releasable
                self._queue_operation(proc, sumplayer, target, s.min_tribute, s.zone, s.proc_releasable)
            proc.dec_count(sumplayer)
            yield
        # step 7: the summon is paid for
        core.limit_extra_summon_zone = 0
        core.limit_extra_summon_releasable = 0
        core.summon_depth -= 1
        if core.summon_depth:
            return False
        self.break_effect()
        self._use_summon_count(sumplayer, target, s.ignore_count, s.pextra)
        yield
        # step 8: to the field
        targetplayer = sumplayer
        positions = POS_FACEUP_ATTACK
        if self.is_player_affected_by_effect(sumplayer, EFFECT_DIVINE_LIGHT):
            positions = POS_FACEUP
        if proc is not None and proc.is_flag(EFFECT_FLAG_SPSUM_PARAM):
            positions = proc.s_range & 0xFF & POS_FACEUP
            if proc.o_range:
                targetplayer = 1 - sumplayer
        target.enable_field_effect(False)
        self.move_to_field(target, sumplayer, targetplayer, LOCATION_MZONE, positions,
                           False, 0, False, s.zone)
        yield
        return True

    def _summon_complete(self: "Duel", s: "_NormalSummon") -> "Proc":
        """Steps 11-17: MSG_SUMMONING, the window to negate, then success (MSG_SUMMONED, events)."""
        core = self.core
        target, sumplayer, proc = s.target, s.sumplayer, s.proc
        # step 11: MSG_SUMMONING and the "about to be a material" events
        self.set_control(target, target.current.controler, 0, 0)
        core.phase_action = True
        target.current.reason = REASON_SUMMON
        target.summon_player = sumplayer
        if not core.current_chain:
            # a Gemini's second summon is tracked with the FLIP_SUMMONING status
            if core.is_gemini_summoning:
                target.set_status(STATUS_SUMMONING, False)
                target.set_status(STATUS_FLIP_SUMMONING, True)
            else:
                target.set_status(STATUS_SUMMONING, True)
                target.set_status(STATUS_FLIP_SUMMONING, False)
        self.emit(MsgSummoning(code=target.data.code, loc=LocInfo.from_raw(target.get_info_location())))
        self._raise_material_events(target, EVENT_BE_PRE_MATERIAL, proc, REASON_SUMMON, sumplayer)
        self.process_single_event()
        self.process_instant_event()
        yield
        # steps 12-14: the window to negate the summon (only outside a chain)
        if not core.current_chain and not target.is_affected_by_effect(EFFECT_CANNOT_DISABLE_SUMMON):
            target.set_status(STATUS_SUMMON_DISABLED, False)
            target.set_status(STATUS_FLIP_SUMMON_DISABLED, False)
            self.raise_event(target, EVENT_SUMMON, proc, 0, sumplayer, sumplayer, 0)
            self.process_instant_event()
            self.add_process(self.proc_point_event(1, 1, True))
            yield
            still = (target.is_status(STATUS_FLIP_SUMMONING) if core.is_gemini_summoning
                     else target.is_status(STATUS_SUMMONING))
            if not still:
                if core.is_summon_negated:
                    self._undo_negated_summon(s)
                core.is_gemini_summoning = False
                core.is_summon_negated = False
                self.add_process(self.proc_point_event(0, 0, 0))
                return
        # step 15: the summon succeeds
        core.is_gemini_summoning = False
        if proc is not None:
            self.release_oath_relation(proc)
        for peffect in s.cost_effects:
            self.release_oath_relation(peffect)
        s.cost_effects = []
        target.set_status(STATUS_SUMMONING, False)
        target.set_status(STATUS_FLIP_SUMMONING, False)
        target.set_status(STATUS_SUMMON_TURN, True)
        target.set_status(STATUS_CANNOT_CHANGE_FORM, True)
        target.enable_field_effect(True)
        if target.is_status(STATUS_DISABLED):
            target.reset(RESET_DISABLE, RESET_EVENT)
        yield
        # step 16: MSG_SUMMONED and the material events
        self.emit(MsgSummoned())
        self.adjust_instant()
        self._raise_material_events(target, EVENT_BE_MATERIAL, proc, REASON_SUMMON, sumplayer)
        self.process_single_event()
        self.process_instant_event()
        yield
        # step 17: counters and EVENT_SUMMON_SUCCESS
        core.summon_state_count[sumplayer] += 1
        core.normalsummon_state_count[sumplayer] += 1
        self.check_card_counter(target, ACTIVITY_SUMMON, sumplayer)
        self.check_card_counter(target, ACTIVITY_NORMALSUMMON, sumplayer)
        self.raise_single_event(target, None, EVENT_SUMMON_SUCCESS, proc, 0, sumplayer, sumplayer, 0)
        self.process_single_event()
        self.raise_event(target, EVENT_SUMMON_SUCCESS, proc, 0, sumplayer, sumplayer, 0)
        self.process_instant_event()
        if s.action_type == SUMMON_IN_IDLE:
            self.adjust_all()
            core.hint_timing[sumplayer] |= TIMING_SUMMON
            self.add_process(self.proc_point_event(0, 0, 0))

    def _undo_negated_summon(self: "Duel", s: "_NormalSummon") -> None:
        """A negated Normal Summon takes back its oath effects and "once per turn" use; the card goes to the GY."""
        proc, target = s.proc, s.target
        if proc is not None:
            self.remove_oath_effect(proc)
            if proc.is_flag(EFFECT_FLAG_COUNT_LIMIT) and (proc.count_code & EFFECT_COUNT_CODE_OATH):
                self.dec_effect_code(proc.count_code, s.sumplayer)
        for peffect in s.cost_effects:
            self.remove_oath_effect(peffect)
        s.cost_effects = []
        if (target.get_status(STATUS_SUMMON_DISABLED | STATUS_FLIP_SUMMON_DISABLED)
                and target.current.location == LOCATION_MZONE):
            self.send_to(target, None, REASON_RULE, PLAYER_NONE, s.sumplayer, LOCATION_GRAVE, 0, 0)
        self.adjust_instant()

    def _gemini_summon_allowed(self: "Duel", sumplayer: int, target: "Card",
                               ignore_count: int) -> bool:
        """May this face-up monster on the field be Normal Summoned again (a Gemini)?

        It must be face-up, have a Normal Summon left (its own extra count
        counts if the player has not used an extra summon), be a Gemini not yet
        in its effect state, and the player must be allowed a SUMMON_TYPE_DUAL.
        """
        core = self.core
        if target.is_position(POS_FACEDOWN):
            return False
        if (not ignore_count
                and (core.extra_summon[sumplayer] or not target.is_affected_by_effect(EFFECT_EXTRA_SUMMON_COUNT))
                and core.summon_count[sumplayer] >= self.get_summon_count_limit(sumplayer)):
            return False
        if not target.is_affected_by_effect(EFFECT_DUAL_SUMMONABLE):
            return False
        if target.is_affected_by_effect(EFFECT_DUAL_STATUS):
            return False
        return bool(self.is_player_can_summon(SUMMON_TYPE_DUAL, sumplayer, target, sumplayer))

    def _list_procedures(self: "Duel", res: int, eset: list["Effect"]) -> None:
        """Fill the option list with the summon/set ways: the rule (if ``res`` > 0), then each procedure."""
        core = self.core
        core.select_effects.clear()
        core.select_options.clear()
        if res > 0:
            core.select_effects.append(None)
            core.select_options.append(1)
        for peffect in eset:
            core.select_effects.append(peffect)
            core.select_options.append(peffect.description)

    def _list_extra_counts(self: "Duel", playerid: int, target: "Card", proc: "Effect | None",
                           ignore_count: int, min_tribute: int, zone: int, eset: list["Effect"],
                           count_code: int) -> None:
        """Fill the option list with the usable Normal Summons/Sets for ``target``.

        First the turn's regular one (if left, or the count is ignored), then
        each extra-count effect (EFFECT_EXTRA_SUMMON_COUNT / EXTRA_SET_COUNT)
        whose conditions -- tributes, zones, releasable monsters -- the summon
        can still meet; extra counts are only offered before the player used one.
        """
        core = self.core
        is_set = count_code == EFFECT_EXTRA_SET_COUNT
        core.select_effects.clear()
        core.select_options.clear()
        if ignore_count or core.summon_count[playerid] < self.get_summon_count_limit(playerid):
            core.select_effects.append(None)
            core.select_options.append(1)
        if ignore_count or core.extra_summon[playerid]:
            return
        for peffect in eset:
            new_min_tribute, new_zone, releasable = _extra_count_values(peffect.get_values(target))
            new_zone &= zone
            if proc is not None:
                if new_min_tribute < min_tribute:
                    new_min_tribute = min_tribute
                if not target.is_summonable(proc, new_min_tribute, new_zone, releasable):
                    continue
            else:
                if is_set:
                    rcount = target.get_set_tribute_count()
                    can_adv = self.is_player_can_mset(SUMMON_TYPE_ADVANCE, playerid, target, playerid)
                else:
                    rcount = target.get_summon_tribute_count()
                    can_adv = self.is_player_can_summon(SUMMON_TYPE_ADVANCE, playerid, target, playerid)
                min_ = rcount & 0xFFFF
                max_ = (rcount >> 16) & 0xFFFF
                if not can_adv:
                    max_ = 0
                if min_ < min_tribute:
                    min_ = min_tribute
                if max_ < min_:
                    continue
                if min_ < new_min_tribute:
                    min_ = new_min_tribute
                if is_set:
                    ok = self.check_tribute(target, min_, max_, None, target.current.controler,
                                            new_zone, releasable, POS_FACEDOWN_DEFENSE)
                else:
                    ok = self.check_tribute(target, min_, max_, None, target.current.controler,
                                            new_zone, releasable)
                if not ok:
                    continue
            core.select_effects.append(peffect)
            core.select_options.append(peffect.description)

    def _choose_tributes(self: "Duel", playerid: int, target: "Card", min_tribute: int,
                         zone: int, releasable: int, pos: int) -> "Proc":
        """Steps 2-3 of summon/mset for the rule: how many tributes, and which.

        Leaves the answer like select_tribute_cards (returns.bvalue[0] == 0:
        no tribute).  With a 0-tribute option and room on the field the player
        is first asked whether to summon without tributing (string 90).
        """
        core = self.core
        is_set = pos == POS_FACEDOWN_DEFENSE
        core.select_cards.clear()
        required = target.get_set_tribute_count() if is_set else target.get_summon_tribute_count()
        min_ = required & 0xFFFF
        max_ = required >> 16
        if min_ < min_tribute:
            min_ = min_tribute
        if is_set:
            adv = self.is_player_can_mset(SUMMON_TYPE_ADVANCE, playerid, target, playerid)
        else:
            adv = self.is_player_can_summon(SUMMON_TYPE_ADVANCE, playerid, target, playerid)
        if max_ == 0 or not adv:
            self.returns.bvalue[0] = 0
            return
        core.release_cards.clear()
        core.release_cards_ex.clear()
        core.release_cards_ex_oneof.clear()
        if is_set:
            rcount = self.get_summon_release_list(target, core.release_cards, core.release_cards_ex,
                                                  core.release_cards_ex_oneof, None, 0, releasable,
                                                  POS_FACEDOWN_DEFENSE)
        else:
            rcount = self.get_summon_release_list(target, core.release_cards, core.release_cards_ex,
                                                  core.release_cards_ex_oneof, None, 0, releasable)
        if rcount == 0:
            self.returns.bvalue[0] = 0
            return
        ct = self.get_tofield_count(target, playerid, LOCATION_MZONE, playerid,
                                    LOCATION_REASON_TOFIELD, zone)
        fcount = self.get_mzone_limit(playerid, playerid, LOCATION_REASON_TOFIELD)
        if min_ == 0 and ct > 0 and fcount > 0:
            self.add_process(self.proc_select_yes_no(playerid, _DESC_NORMAL_SUMMON_NO_TRIBUTE))
            yield
            # step 3
            if self.returns.ivalue[0]:
                self.returns.bvalue[0] = 0
            else:
                self.select_tribute_cards(target, playerid, core.summon_cancelable, 1, max_,
                                          playerid, zone)
                yield
            return
        if min_ < -fcount + 1:
            min_ = -fcount + 1
        self.select_tribute_cards(target, playerid, core.summon_cancelable, min_, max_, playerid, zone)
        yield

    def _release_tributes(self: "Duel", playerid: int, target: "Card", tributes: CardSet | None,
                          decrease_code: int) -> None:
        """Step 5 of summon/mset: the tribute-reducing effects, then release the tributes.

        A level 5-6 monster needs 1 tribute, 7+ needs 2.  If the chosen
        tributes are fewer, EFFECT_DECREASE_TRIBUTE(_SET) effects make up the
        difference: first those without a count limit, then count-limited ones
        with a target function, then count-limited ones without; effects
        returning the same non-zero id count once.  Each one used is shown
        (HINT_CARD).  Sets ``summon_info`` to an (Advance) Normal Summon.
        """
        level = target.get_level()
        if level < 5:
            need = 0
        elif level < 7:
            need = 1
        else:
            need = 2
        if tributes is not None:
            need -= len(tributes)
        if need > 0:
            self._decrease_tribute(target, decrease_code, need)
        if tributes is not None:
            for pcard in tributes:
                pcard.current.reason_card = target
            target.set_material(tributes)
            self.release(tributes, None, REASON_SUMMON | REASON_MATERIAL, playerid)
            target.summon_info = SUMMON_TYPE_NORMAL | SUMMON_TYPE_ADVANCE | (LOCATION_HAND << 16)
            self.adjust_all()
        else:
            target.summon_info = SUMMON_TYPE_NORMAL | (LOCATION_HAND << 16)

    def _decrease_tribute(self: "Duel", target: "Card", code: int, need: int) -> None:
        """Apply tribute-reducing effects until ``need`` tributes are covered (see _release_tributes)."""
        duplicate: list[int] = []
        eset = target.filter_effect(code)

        def use(peffect: "Effect") -> int | None:
            retval = peffect.get_values(target)
            dec = _i32(retval[0]) if len(retval) > 0 else 0
            effect_code = _i32(retval[1]) if len(retval) > 1 else 0
            if effect_code > 0:
                if effect_code in duplicate:
                    return None
                duplicate.append(effect_code)
            return dec & 0xFFFF

        # not count-limited: always applied, even past what is needed
        for peffect in eset:
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                continue
            dec = use(peffect)
            if dec is None:
                continue
            need -= dec
            self._hint_card(peffect.handler.data.code)
        # count-limited: with a target function first, then without
        for with_target in (True, False):
            for peffect in eset:
                if need <= 0:
                    break
                if (not peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) or peffect.count_limit == 0
                        or bool(peffect.target) != with_target):
                    continue
                dec = use(peffect)
                if dec is None:
                    continue
                need -= dec
                peffect.dec_count()
                self._hint_card(peffect.handler.data.code)

    def _use_summon_count(self: "Duel", playerid: int, target: "Card", ignore_count: int,
                          pextra: "Effect | None") -> None:
        """Spend the Normal Summon/Set used: the turn's count, or the extra count effect.

        Using an extra count shows its card (HINT_CARD) and runs its operation
        with the summoned card, if it has one.
        """
        core = self.core
        if ignore_count:
            return
        if pextra is None:
            core.summon_count[playerid] += 1
            return
        core.extra_summon[playerid] = True
        self._hint_card(pextra.handler.data.code)
        if pextra.operation:
            self._queue_operation(pextra, playerid, target)

    def _begin_gemini_summon(self: "Duel", sumplayer: int, target: "Card") -> None:
        """Step 9: the Gemini monster becomes an effect monster (EFFECT_DUAL_STATUS)."""
        target.enable_field_effect(False)
        target.summon_info |= SUMMON_TYPE_NORMAL
        target.current.reason_effect = None
        target.current.reason_player = sumplayer
        self.core.is_gemini_summoning = True
        deffect = self.new_effect()
        deffect.owner = target
        deffect.code = EFFECT_DUAL_STATUS
        deffect.type = EFFECT_TYPE_SINGLE
        deffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_CLIENT_HINT
        deffect.description = _DESC_GEMINI_STATUS
        deffect.reset_flag = _RESET_STANDARD_EVENT
        target.add_effect(deffect)

    def _raise_material_events(self: "Duel", target: "Card", code: int, reason_effect: "Effect | None",
                               reason: int, playerid: int) -> None:
        """EVENT_BE_(PRE_)MATERIAL for the materials of a Normal Summon: each card's own, then the field's."""
        if not target.material_cards:
            return
        for mcard in target.material_cards:
            self.raise_single_event(mcard, None, code, reason_effect, reason, playerid, playerid, 0)
        self.raise_event(target.material_cards, code, reason_effect, reason, playerid, playerid, 0)

    # ===== Flip Summon =================================================================

    def proc_flip_summon(self: "Duel", sumplayer: int, target: "Card", action_type: int) -> "Proc":
        """Flip Summon a face-down monster (PROCESSOR_FLIP_SUMMON).

        The monster turns face-up Attack Position (MSG_FLIPSUMMONING); unless
        it cannot be negated, there is an EVENT_FLIP_SUMMON window; then it
        flips (EVENT_FLIP, EVENT_FLIP_SUMMON_SUCCESS, EVENT_CHANGE_POS).
        """
        core = self.core
        # step 0
        if target.current.location != LOCATION_MZONE:
            return
        if not (target.current.position & POS_FACEDOWN):
            return
        if self.check_unique_onfield(target, sumplayer, LOCATION_MZONE):
            return
        cost_effects = target.filter_effect(EFFECT_FLIPSUMMON_COST)
        if cost_effects:
            self._queue_cost_operations(cost_effects, sumplayer)
        yield
        # step 1: MSG_FLIPSUMMONING
        target.previous.position = target.current.position
        target.current.position = POS_FACEUP_ATTACK
        target.summon_player = sumplayer
        target.summon_info |= SUMMON_TYPE_FLIP
        target.fieldid = self.infos.field_id
        self.infos.field_id += 1
        target.activate_count_id = target.fieldid
        core.phase_action = True
        self.emit(MsgFlipSummoning(code=target.data.code, loc=LocInfo.from_raw(target.get_info_location())))
        if not target.is_affected_by_effect(EFFECT_CANNOT_DISABLE_FLIP_SUMMON):
            target.set_status(STATUS_FLIP_SUMMONING, True)
            target.set_status(STATUS_FLIP_SUMMON_DISABLED, False)
            self.raise_event(target, EVENT_FLIP_SUMMON, None, 0, sumplayer, sumplayer, 0)
            self.process_instant_event()
            self.add_process(self.proc_point_event(1, 1, True))
            yield
            # step 2: was it negated?
            if not target.is_status(STATUS_FLIP_SUMMONING):
                if core.is_summon_negated:
                    if cost_effects:
                        for peffect in cost_effects:
                            self.remove_oath_effect(peffect)
                        cost_effects = []
                    if (target.is_status(STATUS_FLIP_SUMMON_DISABLED)
                            and target.current.location == LOCATION_MZONE):
                        self.send_to(target, None, REASON_RULE, PLAYER_NONE, sumplayer,
                                     LOCATION_GRAVE, 0, 0)
                core.is_summon_negated = False
                self.add_process(self.proc_point_event(0, 0, 0))
                return
        # step 3
        for peffect in cost_effects:
            self.release_oath_relation(peffect)
        target.set_status(STATUS_FLIP_SUMMONING, False)
        target.enable_field_effect(True)
        if target.is_status(STATUS_DISABLED):
            target.reset(RESET_DISABLE, RESET_EVENT)
        target.set_status(STATUS_FLIP_SUMMON_TURN, True)
        target.set_status(STATUS_CANNOT_CHANGE_FORM, True)
        yield
        # step 4: MSG_FLIPSUMMONED and the events
        self.emit(MsgFlipSummoned())
        core.flipsummon_state_count[sumplayer] += 1
        self.check_card_counter(target, ACTIVITY_FLIPSUMMON, sumplayer)
        self.adjust_instant()
        self.raise_single_event(target, None, EVENT_FLIP, None, 0, sumplayer, sumplayer, 0)
        self.raise_single_event(target, None, EVENT_FLIP_SUMMON_SUCCESS, None, 0, sumplayer, sumplayer, 0)
        self.raise_single_event(target, None, EVENT_CHANGE_POS, None, 0, sumplayer, sumplayer, 0)
        self.process_single_event()
        self.raise_event(target, EVENT_FLIP, None, 0, sumplayer, sumplayer, 0)
        self.raise_event(target, EVENT_FLIP_SUMMON_SUCCESS, None, 0, sumplayer, sumplayer, 0)
        self.raise_event(target, EVENT_CHANGE_POS, None, 0, sumplayer, sumplayer, 0)
        self.process_instant_event()
        self.adjust_all()
        if action_type == SUMMON_IN_IDLE:
            core.hint_timing[sumplayer] |= TIMING_FLIPSUMMON
            self.add_process(self.proc_point_event(0, 0, 0))

    # ===== Set a monster ===============================================================

    def proc_mset(self: "Duel", setplayer: int, target: "Card", proc: "Effect | None",
                  ignore_count: int, min_tribute: int, zone: int, action_type: int) -> "Proc":
        """Set a monster face-down from the hand (PROCESSOR_MSET).

        Like a Normal Summon: the rule (tributing by level) or a set procedure,
        possibly with an extra Set (EFFECT_EXTRA_SET_COUNT); then the card goes
        to the field face-down (MSG_SET, EVENT_MSET).  Cannot be negated.
        """
        core = self.core
        if action_type == SUMMON_IN_CHAIN:
            yield self._reserve_summon(target)
        # step 0
        if not target.is_summonable_card():
            return
        if target.current.location != LOCATION_HAND:
            return
        if not (target.data.type & TYPE_MONSTER):
            return
        if target.is_affected_by_effect(EFFECT_CANNOT_MSET):
            return
        eset: list[Effect] = []
        res = target.filter_set_procedure(setplayer, eset, ignore_count, min_tribute, zone)
        if proc is not None:
            if res < 0 or not target.check_set_procedure(proc, setplayer, ignore_count, min_tribute, zone):
                return
        else:
            if res == -2:
                return
            # unlike the summon, an empty list is not checked here
            self._list_procedures(res, eset)
            self._offer_options(setplayer)
        target.material_cards.clear()
        yield
        # step 1: which Set (regular or extra)
        eset = target.filter_effect(EFFECT_EXTRA_SET_COUNT)
        if proc is None:
            proc = core.select_effects[self.returns.ivalue[0]]
        self._list_extra_counts(setplayer, target, proc, ignore_count, min_tribute, zone, eset,
                                EFFECT_EXTRA_SET_COUNT)
        self._offer_options(setplayer)
        yield
        # step 2: apply the chosen extra Set; choose tributes
        pextra: Effect | None = core.select_effects[self.returns.ivalue[0]]
        releasable = 0xFF00FF
        if pextra is not None:
            new_min_tribute, new_zone, releasable = _extra_count_values(pextra.get_values(target))
            if min_tribute < new_min_tribute:
                min_tribute = new_min_tribute & 0xFF
            zone &= new_zone
        tributes: CardSet | None = None
        if proc is None:
            yield from self._choose_tributes(setplayer, target, min_tribute, zone, releasable,
                                             POS_FACEDOWN_DEFENSE)
            # step 4
            if self.returns.ivalue[0] == -1:
                return
            if self.returns.bvalue[0]:
                tributes = self._selected_cards()
        self._queue_cost_operations(target.filter_effect(EFFECT_MSET_COST), setplayer)
        yield
        if proc is None:
            # step 5
            self._release_tributes(setplayer, target, tributes, EFFECT_DECREASE_TRIBUTE_SET)
            tributes = None
            target.summon_player = setplayer
            target.current.reason_effect = None
            target.current.reason_player = setplayer
            yield
        else:
            # step 6: the set procedure's operation (queued even without one)
            target.summon_info = ((proc.get_value(target) & (SUMMON_VALUE_SUB_TYPE | SUMMON_VALUE_CUSTOM_TYPE))
                                  | SUMMON_TYPE_NORMAL | (LOCATION_HAND << 16))
            target.summon_player = setplayer
            target.current.reason_effect = proc
            target.current.reason_player = setplayer
            self._queue_operation(proc, setplayer, target)
            proc.dec_count(setplayer)
            yield
        # step 7
        self.break_effect()
        self._use_summon_count(setplayer, target, ignore_count, pextra)
        yield
        # step 8: to the field face-down
        targetplayer = setplayer
        positions = POS_FACEDOWN_DEFENSE
        if proc is not None and proc.is_flag(EFFECT_FLAG_SPSUM_PARAM):
            positions = proc.s_range & 0xFF & POS_FACEDOWN
            if proc.o_range:
                targetplayer = 1 - setplayer
        target.enable_field_effect(False)
        self.move_to_field(target, setplayer, targetplayer, LOCATION_MZONE, positions, False, 0,
                           False, zone)
        yield
        # step 9: MSG_SET and EVENT_MSET
        self.set_control(target, target.current.controler, 0, 0)
        core.phase_action = True
        core.normalsummon_state_count[setplayer] += 1
        self.check_card_counter(target, ACTIVITY_NORMALSUMMON, setplayer)
        target.set_status(STATUS_SUMMON_TURN, True)
        target.set_status(STATUS_CANNOT_CHANGE_FORM, True)
        self.emit(MsgSet(code=target.data.code, loc=LocInfo.from_raw(target.get_info_location())))
        self.adjust_instant()
        self.raise_event(target, EVENT_MSET, proc, 0, setplayer, setplayer, 0)
        self.process_instant_event()
        if action_type == SUMMON_IN_IDLE:
            self.adjust_all()
            core.hint_timing[setplayer] |= TIMING_MSET
            self.add_process(self.proc_point_event(0, 0, 0))

    # ===== Set a Spell/Trap ============================================================

    def _sset_place_flag(self: "Duel", target: "Card", setplayer: int, toplayer: int,
                         used_zones: int = 0) -> int:
        """The MSG_SELECT_PLACE mask for setting ``target`` in a Spell & Trap Zone.

        Set bits are zones that cannot be chosen: everything but the free Spell
        & Trap Zones of ``toplayer`` (and never the Field or Pendulum slots).
        """
        flag_out = [0]
        self.get_useable_count(target, toplayer, LOCATION_SZONE, setplayer,
                               LOCATION_REASON_TOFIELD, 0xFF, flag_out)
        flag = flag_out[0] | used_zones
        if setplayer == toplayer:
            flag = ((flag & 0xFF) << 8) | 0xFFFF00FF
        else:
            flag = ((flag & 0xFF) << 24) | 0xFFFFFF
        return (flag | 0xE080E080) & 0xFFFFFFFF

    def _add_monster_sset_type(self: "Duel", target: "Card") -> None:
        """A monster Set as a Spell/Trap (EFFECT_MONSTER_SSET) takes the type that effect gives."""
        peffect = target.is_affected_by_effect(EFFECT_MONSTER_SSET)
        type_val = peffect.get_value()
        neweffect = self.new_effect()
        neweffect.owner = target
        neweffect.type = EFFECT_TYPE_SINGLE
        neweffect.code = EFFECT_CHANGE_TYPE
        neweffect.reset_flag = _RESET_STANDARD_EVENT
        neweffect.value = type_val
        target.add_effect(neweffect)

    def proc_sset(self: "Duel", setplayer: int, toplayer: int, target: "Card",
                  reason_effect: "Effect | None") -> "Proc":
        """Set one Spell/Trap from the idle command (PROCESSOR_SSET).

        The player picks the zone (MSG_SELECT_PLACE; a Field Spell goes to the
        Field Zone), SSET_COST operations run, the card is placed face-down
        (MSG_SET, EVENT_SSET).  Outside a chain an action window follows.
        """
        core = self.core
        # step 0
        if (not (target.data.type & TYPE_FIELD)
                and self.get_useable_count(target, toplayer, LOCATION_SZONE, setplayer,
                                           LOCATION_REASON_TOFIELD) <= 0):
            return
        if (target.data.type & TYPE_MONSTER) and not target.is_affected_by_effect(EFFECT_MONSTER_SSET):
            return
        if target.current.location == LOCATION_SZONE:
            return
        if not self.is_player_can_sset(setplayer, target):
            return
        if target.is_affected_by_effect(EFFECT_CANNOT_SSET):
            return
        if target.data.type & TYPE_FIELD:
            flag = ~(0x1 << 13) & 0xFFFFFFFF
        else:
            # the zone count asked here is setplayer's own (argument order as in the reference)
            flag_out = [0]
            self.get_useable_count(target, setplayer, LOCATION_SZONE, toplayer,
                                   LOCATION_REASON_TOFIELD, 0xFF, flag_out)
            flag = ((flag_out[0] & 0xFF) << 8) | 0xFFFF00FF
            flag = (flag | 0xE080E080) & 0xFFFFFFFF
        self.emit(MsgHint(type=HINT_SELECTMSG, player=setplayer, data=target.data.code))
        self.add_process(self.proc_select_place(setplayer, flag, 0))
        yield
        # step 1
        if self.returns.bvalue[1] == 0:
            return
        target.to_field_param = self.returns.bvalue[2]
        self._queue_cost_operations(target.filter_effect(EFFECT_SSET_COST), setplayer)
        yield
        # step 2
        target.enable_field_effect(False)
        self.move_to_field(target, setplayer, toplayer, LOCATION_SZONE, POS_FACEDOWN, False, 0,
                           False, (0x1 << target.to_field_param) & 0xFFFFFFFF)
        yield
        # step 3
        core.phase_action = True
        target.set_status(STATUS_SET_TURN, True)
        if target.data.type & TYPE_MONSTER:
            self._add_monster_sset_type(target)
        self.emit(MsgSet(code=target.data.code, loc=LocInfo.from_raw(target.get_info_location())))
        self.adjust_instant()
        self.raise_event(target, EVENT_SSET, reason_effect, 0, setplayer, setplayer, 0)
        self.process_instant_event()
        if not core.current_chain:
            self.adjust_all()
            core.hint_timing[setplayer] |= TIMING_SSET
            self.add_process(self.proc_point_event(0, 0, 0))

    def proc_sset_g(self: "Duel", setplayer: int, toplayer: int, ptarget: "Group", confirm: int,
                    reason_effect: "Effect | None") -> "Proc":
        """Set a group of Spells/Traps (Duel.SSet, PROCESSOR_SSET_G).

        Cards that cannot be Set are skipped; those lacking a free zone (and
        not in the GY) are sent to the GY.  The player picks a zone for each
        card in card order, the cards are placed, shown to ``toplayer`` if
        ``confirm``, then shuffled into the chosen zones (MSG_SHUFFLE_SET_CARD)
        so the opponent cannot tell which is which.  returns.ivalue[0] = the
        number Set.
        """
        core = self.core
        # step 0: which cards can be Set
        set_cards = CardSet()
        core.operated_set.clear()
        core.set_group_set.clear()
        for target in ptarget.container:
            if (((target.data.type & TYPE_MONSTER) and not target.is_affected_by_effect(EFFECT_MONSTER_SSET))
                    or target.current.location == LOCATION_SZONE
                    or not self.is_player_can_sset(setplayer, target)
                    or target.is_affected_by_effect(EFFECT_CANNOT_SSET)):
                continue
            if (not (target.data.type & TYPE_FIELD)
                    and self.get_useable_count(target, toplayer, LOCATION_SZONE, setplayer,
                                               LOCATION_REASON_TOFIELD) <= 0):
                if target.current.location != LOCATION_GRAVE:
                    core.unable_tofield_set.add(target)
                continue
            set_cards.add(target)
        if set_cards:
            for pcard in set_cards:
                self._queue_cost_operations(pcard.filter_effect(EFFECT_SSET_COST), setplayer)
            core.set_group_pre_set.clear()
            core.set_group_used_zones = 0
            core.phase_action = True
            yield
            # steps 1-2: a zone for each card, in card order
            while set_cards:
                target = set_cards.first()
                if target.data.type & TYPE_FIELD:
                    self.returns.bvalue[2] = 5
                else:
                    flag = self._sset_place_flag(target, setplayer, toplayer, core.set_group_used_zones)
                    self.emit(MsgHint(type=HINT_SELECTMSG, player=setplayer, data=target.data.code))
                    self.add_process(self.proc_select_place(setplayer, flag, 1))
                    yield
                seq = self.returns.bvalue[2]
                core.set_group_seq[len(core.set_group_pre_set)] = seq
                core.set_group_pre_set.add(target)
                core.set_group_used_zones |= 0x1 << seq
                set_cards.discard(target)
            # steps 3-4: place them face-down, lowest chosen zones first
            while core.set_group_pre_set:
                target = core.set_group_pre_set.first()
                target.enable_field_effect(False)
                if target.data.type & TYPE_FIELD:
                    zone = 0x1 << 5
                else:
                    zone = 0
                    for i in range(7):
                        zone = 0x1 << i
                        if core.set_group_used_zones & zone:
                            core.set_group_used_zones &= ~zone
                            break
                self.move_to_field(target, setplayer, toplayer, LOCATION_SZONE, POS_FACEDOWN,
                                   False, 0, False, zone)
                yield
                target.set_status(STATUS_SET_TURN, True)
                if target.data.type & TYPE_MONSTER:
                    self._add_monster_sset_type(target)
                self.emit(MsgSet(code=target.data.code, loc=LocInfo.from_raw(target.get_info_location())))
                core.set_group_set.add(target)
                core.set_group_pre_set.discard(target)
        # step 5: no room -> GY
        if core.unable_tofield_set:
            self.send_to(core.unable_tofield_set, None, REASON_RULE, PLAYER_NONE, PLAYER_NONE,
                         LOCATION_GRAVE, 0, POS_FACEUP)
        yield
        # step 6
        core.unable_tofield_set.clear()
        if not core.set_group_set:
            self.returns.ivalue[0] = 0
            return
        if confirm:
            self.emit(MsgConfirmCards(player=toplayer, skip_panel=0, cards=tuple(
                CardInfo(code=pcard.data.code, controller=pcard.current.controler,
                         location=pcard.current.location, sequence=pcard.current.sequence)
                for pcard in core.set_group_set)))
        # step 7: shuffle the Set cards into the zones the player chose
        core.operated_set.clear()
        for pcard in core.set_group_set:
            core.operated_set.add(pcard)
        self._shuffle_set_group(toplayer)
        # step 8
        self.adjust_instant()
        self.raise_event(core.operated_set, EVENT_SSET, reason_effect, 0, setplayer, setplayer, 0)
        self.process_instant_event()
        if not core.current_chain:
            self.adjust_all()
            core.hint_timing[setplayer] |= TIMING_SSET
            self.add_process(self.proc_point_event(0, 0, 0))
        yield
        # step 9
        self.returns.ivalue[0] = len(core.operated_set)

    def _shuffle_set_group(self: "Duel", toplayer: int) -> None:
        """Put each Set card (but a Field Spell) into the zone chosen for it, with MSG_SHUFFLE_SET_CARD.

        The cards were placed in the lowest chosen zones; the i-th card (card
        order) now takes the i-th chosen zone.  Nothing is written for one card.
        """
        core = self.core
        ct = len(core.operated_set) & 0xFF
        if core.set_group_used_zones & (0x1 << 5):
            ct = (ct - 1) & 0xFF
        if ct <= 1:
            return
        previous: list[LocInfo] = []
        for index, pcard in enumerate(core.operated_set):
            seq = core.set_group_seq[index]
            if pcard.data.type & TYPE_FIELD:
                continue
            previous.append(LocInfo.from_raw(pcard.get_info_location()))
            self.player[toplayer].list_szone[seq] = pcard
            pcard.current.sequence = seq
        # the reference writes ct zero words after the ct locations
        self.emit(MsgShuffleSetCard(location=LOCATION_SZONE, previous=tuple(previous),
                                    current=(None,) * ct))

    # ===== choosing tributes / releases ================================================

    def proc_select_release_cards(self: "Duel", playerid: int, cancelable: int, min_: int,
                                  max_: int) -> "Proc":
        """Choose cards to Tribute for a cost (Duel.SelectReleaseGroup, PROCESSOR_SELECT_RELEASE).

        Candidates were put in core.release_cards (own monsters),
        core.release_cards_ex (opponent's monsters that must be chosen first)
        and core.release_cards_ex_oneof (cards of which at most one may be
        used, by an EFFECT_EXTRA_RELEASE_NONSUM, asked with yes/no 98).  The
        answer is left like a selection: core.select_cards is the chosen cards
        in card order and returns.bvalue[0] / bvalue[i + 1] index them.
        """
        core = self.core
        lo, hi = _pack_min_max(min_, max_)
        min_, max_ = lo, hi
        cancelable &= 0xFF
        playerid &= 0xFF
        # step 0: the opponent's monsters first
        core.operated_set.clear()
        if core.release_cards_ex:
            core.select_cards = list(core.release_cards_ex)
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_card(playerid, cancelable, min_, max_)
            yield
            # step 1
            count = self.returns.bvalue[0]
            max_ -= count
            if max_ == 0 or len(core.release_cards) + len(core.release_cards_ex_oneof) == 0:
                return
            for i in range(count):
                core.operated_set.add(core.select_cards[self.returns.bvalue[i + 1]])
            min_ -= count
            if min_ < 0:
                min_ = 0
        # step 2: one of the "one of" cards?
        if core.release_cards_ex_oneof:
            if len(core.release_cards) < min_:
                self.returns.ivalue[0] = True
            else:
                self.add_process(self.proc_select_yes_no(playerid, _DESC_RELEASE_ONEOF))
                yield
        else:
            self.returns.ivalue[0] = False
        # step 3
        skip_rest = False
        if self.returns.ivalue[0]:
            core.select_cards = list(core.release_cards_ex_oneof)
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_card(playerid, cancelable, 1, 1)
            yield
            # step 4
            pcard = core.select_cards[self.returns.bvalue[1]]
            core.operated_set.add(pcard)
            peffect = pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE_NONSUM)
            core.dec_count_reserve.append(peffect)
            max_ -= 1
            if max_ == 0 or not core.release_cards:
                skip_rest = True
            else:
                min_ -= 1
                if min_ < 0:
                    min_ = 0
        if not skip_rest:
            # step 5: own monsters
            core.select_cards = list(core.release_cards)
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_card(playerid, cancelable, min_, max_)
            yield
            # step 6
            for i in range(self.returns.bvalue[0]):
                core.operated_set.add(core.select_cards[self.returns.bvalue[i + 1]])
        # step 7
        self._return_operated_set()

    def _return_operated_set(self: "Duel") -> None:
        """Leave core.operated_set as the answer of a selection (card order, indexes 0..n-1)."""
        core = self.core
        core.select_cards = list(core.operated_set)
        self.returns.bvalue[0] = len(core.operated_set) & 0xFF
        for i in range(len(core.select_cards)):
            self.returns.bvalue[i + 1] = i & 0xFF

    def proc_select_tribute_cards(self: "Duel", target: "Card | None", playerid: int,
                                  cancelable: int, min_: int, max_: int, toplayer: int,
                                  zone: int) -> "Proc":
        """Choose tributes for a Tribute Summon/Set (PROCESSOR_SELECT_TRIBUTE).

        ``min_``/``max_`` count tributes by their release value (a card worth
        two tributes has release_param 2).  If ``toplayer`` has no free zone
        for the monster, one tribute must first be chosen among the monsters
        in the allowed zones.  The opponent's monsters (core.release_cards_ex)
        and "one of" cards (release_cards_ex_oneof, EFFECT_EXTRA_RELEASE_SUM)
        are offered in their own selections.  The answer is left like a
        selection (see proc_select_release_cards); -1 when canceled.
        """
        core = self.core
        # step 0: a tribute that frees a zone first, if none is free
        core.operated_set.clear()
        zone &= 0x1F
        ct = self.get_tofield_count(target, toplayer, LOCATION_MZONE, playerid,
                                    LOCATION_REASON_TOFIELD, zone)
        extra_effect: Effect | None = None
        if ct > 0:
            self.returns.ivalue[0] = True
        else:
            rmax = 0
            core.select_cards = []
            for pcard in core.release_cards:
                if (pcard.current.location == LOCATION_MZONE and pcard.current.controler == toplayer
                        and ((zone >> pcard.current.sequence) & 1)):
                    core.select_cards.append(pcard)
                else:
                    rmax += pcard.release_param
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            if not core.release_cards_ex and not core.release_cards_ex_oneof and min_ > rmax:
                # every tribute must come from the zones: one MSG_SELECT_TRIBUTE does it all
                if rmax > 0:
                    core.select_cards = list(core.release_cards)
                self._select_tribute_prompt(playerid, cancelable, min_, max_)
                return
            self._select_card(playerid, cancelable, 1, 1)
            yield
            # step 1
            if self.returns.ivalue[0] == -1:
                return
            pcard = core.select_cards[self.returns.bvalue[1]]
            core.operated_set.add(pcard)
            core.release_cards.discard(pcard)
            if min_ <= pcard.release_param:
                if max_ > 1 and not core.release_cards_ex and (core.release_cards or core.release_cards_ex_oneof):
                    self.add_process(self.proc_select_yes_no(playerid, _DESC_MORE_TRIBUTES))
                    yield
                elif max_ > 1 and core.release_cards_ex:
                    self.returns.ivalue[0] = True
                else:
                    self._finish_tribute_selection(extra_effect, last_prompt=False)
                    return
            else:
                self.returns.ivalue[0] = True
        # step 2
        if not self.returns.ivalue[0]:
            self._finish_tribute_selection(extra_effect, last_prompt=False)
            return
        # The adjusted minimum and maximum of this step are not kept for later
        # steps (the reference changes its arguments without storing them).
        smin, smax = min_, max_
        fcount = self.get_mzone_limit(toplayer, playerid, LOCATION_REASON_TOFIELD)
        if core.operated_set:
            smin -= core.operated_set.first().release_param
            smax -= 1
            fcount += 1
        if (len(core.release_cards_ex) + len(core.release_cards_ex_oneof) == 0
                or (fcount <= 0 and smin < 2)):
            core.select_cards = list(core.release_cards)
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_tribute_prompt(playerid, cancelable, smin, smax)
            yield
            self._finish_tribute_selection(extra_effect, last_prompt=True)
            return
        if len(core.release_cards_ex) >= (smax & 0xFFFFFFFF):
            core.select_cards = list(core.release_cards_ex)
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_tribute_prompt(playerid, cancelable, smin, smax)
            yield
            self._finish_tribute_selection(extra_effect, last_prompt=True)
            return
        rmax = 0
        for pcard in core.release_cards:
            rmax += pcard.release_param
        for pcard in core.release_cards_ex:
            rmax += pcard.release_param
        core.temp_var[0] = 0
        use_oneof = True
        if rmax < smin:
            self.returns.ivalue[0] = True
            if rmax == 0 and smin == 2:
                core.temp_var[0] = 1
        elif core.release_cards_ex_oneof:
            self.add_process(self.proc_select_yes_no(playerid, _DESC_USE_EXTRA_RELEASE))
            yield
        else:
            use_oneof = False
        # step 3: one "one of" card (EFFECT_EXTRA_RELEASE_SUM)?
        if use_oneof and self.returns.ivalue[0]:
            if core.temp_var[0] == 0:
                core.select_cards = list(core.release_cards_ex_oneof)
            else:
                core.select_cards = [c for c in core.release_cards_ex_oneof if c.release_param == 2]
            self._hint_selectmsg(playerid, HINTMSG_RELEASE)
            self._select_card(playerid, cancelable, 1, 1)
            yield
            # step 4
            if self.returns.ivalue[0] == -1:
                return
            pcard = core.select_cards[self.returns.bvalue[1]]
            core.operated_set.add(pcard)
            extra_effect = pcard.is_affected_by_effect(EFFECT_EXTRA_RELEASE_SUM)
        # step 5: all of the opponent's monsters that were offered
        core.select_cards = list(core.release_cards_ex)
        self._hint_selectmsg(playerid, HINTMSG_RELEASE)
        n = len(core.release_cards_ex)
        self._select_card(playerid, cancelable, n, n)
        yield
        # step 6
        if self.returns.ivalue[0] == -1:
            return
        for i in range(self.returns.bvalue[0]):
            core.operated_set.add(core.select_cards[self.returns.bvalue[i + 1]])
        rmin = len(core.operated_set)
        rsum = 0
        for pcard in core.operated_set:
            rsum += pcard.release_param
        min_ -= rsum
        max_ -= rmin
        min_ = min_ if min_ > 0 else 0
        max_ = max_ if max_ > 0 else 0
        if min_ <= 0:
            if max_ > 0 and core.release_cards:
                self.add_process(self.proc_select_yes_no(playerid, _DESC_MORE_TRIBUTES))
                yield
            else:
                self._finish_tribute_selection(extra_effect, last_prompt=False)
                return
        else:
            self.returns.ivalue[0] = True
        # step 7: the rest from own monsters
        if not self.returns.ivalue[0]:
            self._finish_tribute_selection(extra_effect, last_prompt=False)
            return
        core.select_cards = list(core.release_cards)
        self._hint_selectmsg(playerid, HINTMSG_RELEASE)
        self._select_tribute_prompt(playerid, cancelable, min_, max_)
        yield
        self._finish_tribute_selection(extra_effect, last_prompt=True)

    def _finish_tribute_selection(self: "Duel", extra_effect: "Effect | None",
                                  last_prompt: bool) -> None:
        """Steps 8-9 of select_tribute_cards: add the last selection, leave the answer.

        ``last_prompt``: a MSG_SELECT_TRIBUTE was just answered (step 8 reads
        it); otherwise the reference jumps straight to step 9.  Using an
        EFFECT_EXTRA_RELEASE_SUM card spends its count.
        """
        core = self.core
        if last_prompt:
            if self.returns.ivalue[0] == -1:
                return
            for i in range(self.returns.bvalue[0]):
                core.operated_set.add(core.select_cards[self.returns.bvalue[i + 1]])
        self._return_operated_set()
        if extra_effect is not None:
            extra_effect.dec_count()

    # ===== negating a summon, the Normal Summon count (Duel.NegateSummon, IncreaseSummonedCount, CheckSummonedCount) ===

    def negate_summon(self: "Duel", target: "Card | Group") -> None:
        """Duel.NegateSummon: negate the summon now being made (the event at this point
        tells which kind: Normal -- Gemini when is_gemini_summoning --, Flip, or Special).

        A Normal/Flip Summon negation needs exactly one card.  Each card whose
        summon can be negated by the reason effect loses its "summoning"
        status and is marked negated; nothing happens when none can be.  Then
        EVENT_SUMMON_NEGATED / EVENT_FLIP_SUMMON_NEGATED / EVENT_SPSUMMON_NEGATED.
        """
        core = self.core
        pcard: Card | None = target if isinstance(target, Card) else None
        pgroup: Group | None = None if isinstance(target, Card) else target
        if self.check_event(EVENT_SUMMON):
            sumtype = SUMMON_TYPE_DUAL if core.is_gemini_summoning else SUMMON_TYPE_NORMAL
        elif self.check_event(EVENT_FLIP_SUMMON):
            sumtype = SUMMON_TYPE_FLIP
        elif self.check_event(EVENT_SPSUMMON):
            sumtype = SUMMON_TYPE_SPECIAL
        else:
            return
        if (sumtype & SUMMON_TYPE_NORMAL) or (sumtype & SUMMON_TYPE_FLIP):
            if pgroup is not None and len(pgroup.container) != 1:
                return
            if pcard is None:
                pcard = pgroup.container.first()
        sumplayer = PLAYER_NONE
        reason_effect = core.reason_effect
        negated = CardSet()
        if sumtype == SUMMON_TYPE_DUAL or (sumtype & SUMMON_TYPE_FLIP):
            if not pcard.is_summon_negatable(sumtype, reason_effect):
                return
            sumplayer = pcard.summon_player
            pcard.set_status(STATUS_FLIP_SUMMONING, False)
            pcard.set_status(STATUS_FLIP_SUMMON_DISABLED, True)
        elif pcard is not None:
            if not pcard.is_summon_negatable(sumtype, reason_effect):
                return
            sumplayer = pcard.summon_player
            pcard.set_status(STATUS_SUMMONING, False)
            pcard.set_status(STATUS_SUMMON_DISABLED, True)
            pcard.set_status(STATUS_PROC_COMPLETE, False)
        else:
            for gcard in pgroup.container:
                if not gcard.is_summon_negatable(sumtype, reason_effect):
                    continue
                sumplayer = gcard.summon_player
                gcard.set_status(STATUS_SUMMONING, False)
                gcard.set_status(STATUS_SUMMON_DISABLED, True)
                gcard.set_status(STATUS_PROC_COMPLETE, False)
                negated.add(gcard)
            if not negated:
                return
        core.is_summon_negated = True
        event_code = 0
        if sumtype & SUMMON_TYPE_NORMAL:
            event_code = EVENT_SUMMON_NEGATED
        elif sumtype & SUMMON_TYPE_FLIP:
            event_code = EVENT_FLIP_SUMMON_NEGATED
        elif sumtype & SUMMON_TYPE_SPECIAL:
            event_code = EVENT_SPSUMMON_NEGATED
        # the event carries the card, or the whole group given (negated or not)
        cards: Any = pcard if pcard is not None else pgroup.container
        self.raise_event(cards, event_code, reason_effect, REASON_EFFECT, core.reason_player, sumplayer, 0)
        self.process_instant_event()

    def increase_summon_count(self: "Duel", pcard: Card | None = None) -> None:
        """Duel.IncreaseSummonedCount: use up a Normal Summon of the reason player, or the
        card's EFFECT_EXTRA_SUMMON_COUNT (its value function is called with the card)."""
        core = self.core
        playerid = core.reason_player
        pextra = pcard.is_affected_by_effect(EFFECT_EXTRA_SUMMON_COUNT) if pcard is not None else None
        if pextra is not None:
            pextra.get_value(pcard)
        elif playerid in (0, 1):
            # (no reason player: the reference writes past its two-player array; we do nothing)
            core.summon_count[playerid] += 1

    def check_summon_count(self: "Duel", pcard: Card | None = None) -> bool:
        """Duel.CheckSummonedCount: can the reason player still Normal Summon (or ``pcard``
        use an EFFECT_EXTRA_SUMMON_COUNT)?"""
        core = self.core
        playerid = core.reason_player
        if pcard is not None and pcard.is_affected_by_effect(EFFECT_EXTRA_SUMMON_COUNT) is not None:
            return True
        if playerid not in (0, 1):
            # no reason player (a plain call outside any effect): the reference reads past
            # its two-player array; we answer "no"
            return False
        return core.summon_count[playerid] < self.get_summon_count_limit(playerid)
