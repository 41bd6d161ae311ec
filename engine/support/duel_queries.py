"""Rules behind Duel.* functions for groups, targets, materials, prompts and player checks (reference: libduel.cpp, second half).

The reference writes some rule logic directly in its Lua library functions
(libduel.cpp, duel_get_field_group ... duel_majestic_copy) or in its processor
dispatcher (PROCESSOR_SELECT_FUSION).  That logic lives here, as Duel methods,
so the bindings stay thin: a binding reads its arguments, calls one of these
(or an existing engine method) and converts the result.

Integer arguments arrive already converted to the C types of the reference
(the bindings mask them); methods here mask again where the reference narrows
a value inside the function.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterable

from ..constants import (
    ACTIVITY_ATTACK, ACTIVITY_BATTLE_PHASE, ACTIVITY_CHAIN, ACTIVITY_FLIPSUMMON,
    ACTIVITY_NORMALSUMMON, ACTIVITY_SPSUMMON, ACTIVITY_SUMMON, EFFECT_FLAG_CARD_TARGET,
    EFFECT_FLAG_DELAY, EFFECT_FLAG_INITIAL, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_QUICK_F, EFFECT_TYPE_QUICK_O, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O,
    EFFECT_TYPE_XMATERIAL, HINT_OPSELECTED, HINT_SELECTMSG, LOCATION_MZONE, LOCATION_SZONE,
    NEW_MASTER_RULE, OPCODE_ADD, OPCODE_AND, OPCODE_DIV, OPCODE_ISATTRIBUTE, OPCODE_ISCODE,
    OPCODE_ISRACE, OPCODE_ISSETCARD, OPCODE_ISTYPE, OPCODE_MUL, OPCODE_NEG, OPCODE_NOT, OPCODE_OR,
    OPCODE_SUB, PHASE_END, PLAYER_NONE, POS_FACEUP, RESETS_STANDARD, RESET_EVENT, RESET_OPPO_TURN,
    RESET_PHASE, RESET_SELF_TURN,
)
from ..core_constants import EFFECT_TYPES_CHAIN_LINK
from ..event import Event, OpTarget
from ..group import GTYPE_READ_ONLY, CardSet, Group
from ..messages import LocInfo, MsgBecomeTarget, MsgHint
from ..wire import i32 as _i32
from ..field.chains import _become_target

if TYPE_CHECKING:
    from ..card import Card, CardData
    from ..duel import Duel
    from ..effect import Effect
    from ..event import Chain
    from ..processor.driver import Proc


def setcode_list(value: int) -> tuple[int, ...]:
    """The archetype list a 64-bit setcode value stands for (the reference's write_setcode).

    Each non-zero 16-bit chunk, from the low end, is one archetype code.
    """
    value &= 0xFFFFFFFFFFFFFFFF
    out: list[int] = []
    while value:
        if value & 0xFFFF:
            out.append(value & 0xFFFF)
        value >>= 16
    return tuple(out)


class DuelQueriesSupportMixin:
    """Methods of Duel (see engine/duel.py)."""

    # ===== groups ======================================================================

    # ===== targets and operation info ==================================================

    # ===== materials ===================================================================

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

    # ===== zones =======================================================================

    # ===== hints and announcements =====================================================

    # ===== player checks ===============================================================

    # ===== misc ========================================================================

    def majestic_copy(self: "Duel", pcard: "Card", copy_target: "Card") -> None:
        """Duel.MajesticCopy: ``pcard`` gains the monster effects of ``copy_target`` that start
        chain links, until the End Phase.

        Each of the target's initial effects that is a trigger, quick or
        ignition effect (not a card activation, not an Xyz-material effect) and
        applies from the Monster Zone is cloned: owned by ``pcard``, no longer
        initial, no effect owner, reset at the End Phase (or when ``pcard``
        leaves), its count limit refilled.  Mandatory triggers become optional
        (and "when ... you can"), mandatory quick effects optional.
        """
        for peffect in list(copy_target.initial_effect):
            if not (peffect.type & (EFFECT_TYPES_CHAIN_LINK & ~EFFECT_TYPE_ACTIVATE)):
                continue
            if peffect.type & EFFECT_TYPE_XMATERIAL:
                continue
            if not peffect.is_monster_effect():
                continue
            ceffect = peffect.clone()
            ceffect.owner = pcard
            ceffect.flag[0] &= ~EFFECT_FLAG_INITIAL
            ceffect.effect_owner = PLAYER_NONE
            ceffect.reset_flag = (RESET_EVENT | RESETS_STANDARD | RESET_PHASE | PHASE_END
                                  | RESET_SELF_TURN | RESET_OPPO_TURN)
            ceffect.reset_count = 1
            ceffect.recharge()
            if ceffect.type & EFFECT_TYPE_TRIGGER_F:
                ceffect.type &= ~EFFECT_TYPE_TRIGGER_F
                ceffect.type |= EFFECT_TYPE_TRIGGER_O
                ceffect.flag[0] |= EFFECT_FLAG_DELAY
            if ceffect.type & EFFECT_TYPE_QUICK_F:
                ceffect.type &= ~EFFECT_TYPE_QUICK_F
                ceffect.type |= EFFECT_TYPE_QUICK_O
            pcard.add_effect(ceffect)
