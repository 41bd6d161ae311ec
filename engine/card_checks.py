"""Rule checks on a card: can it be summoned, attack, be sent, be targeted, ... (reference: card.cpp).

Each check answers one "can this card ..." question the way the reference does,
in the same order (the order matters: checks call card scripts, which may have
side effects such as recording what they were asked).  Checks that run a cost
condition set the duel's reason effect/player while the script runs and put
them back afterwards.  The reference's save_lp_cost/restore_lp_cost around
cost checks are empty and are not called here.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .constants import (
    EFFECT_ATTACK_COST, EFFECT_ATTACK_DISABLED, EFFECT_CANNOT_ATTACK, EFFECT_CANNOT_ATTACK_ANNOUNCE,
    EFFECT_CANNOT_BE_BATTLE_TARGET, EFFECT_CANNOT_BE_EFFECT_TARGET,
    EFFECT_CANNOT_BE_FUSION_MATERIAL, EFFECT_CANNOT_BE_LINK_MATERIAL,
    EFFECT_CANNOT_BE_SYNCHRO_MATERIAL, EFFECT_CANNOT_BE_XYZ_MATERIAL, EFFECT_CANNOT_CHANGE_CONTROL,
    EFFECT_CANNOT_CHANGE_POSITION, EFFECT_CANNOT_DISABLE, EFFECT_CANNOT_DISABLE_FLIP_SUMMON,
    EFFECT_CANNOT_DISABLE_SPSUMMON, EFFECT_CANNOT_DISABLE_SUMMON, EFFECT_CANNOT_FLIP_SUMMON,
    EFFECT_CANNOT_MSET, EFFECT_CANNOT_RELEASE, EFFECT_CANNOT_REMOVE, EFFECT_CANNOT_SELECT_BATTLE_TARGET,
    EFFECT_CANNOT_SELECT_EFFECT_TARGET, EFFECT_CANNOT_SPECIAL_SUMMON, EFFECT_CANNOT_SSET,
    EFFECT_CANNOT_SUMMON, EFFECT_CANNOT_TO_DECK, EFFECT_CANNOT_TO_GRAVE,
    EFFECT_CANNOT_TO_GRAVE_AS_COST, EFFECT_CANNOT_TO_HAND, EFFECT_CANNOT_TURN_SET,
    EFFECT_CANNOT_USE_AS_COST, EFFECT_DECREASE_TRIBUTE, EFFECT_DECREASE_TRIBUTE_SET,
    EFFECT_DEFENSE_ATTACK, EFFECT_DIVINE_LIGHT, EFFECT_DUAL_STATUS, EFFECT_DUAL_SUMMONABLE,
    EFFECT_EQUIP_LIMIT, EFFECT_EXTRA_ATTACK, EFFECT_EXTRA_FUSION_MATERIAL,
    EFFECT_EXTRA_RITUAL_MATERIAL, EFFECT_EXTRA_SET_COUNT, EFFECT_EXTRA_SUMMON_COUNT,
    EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_IGNORE_IMMUNE, EFFECT_FLAG_SPSUM_PARAM,
    EFFECT_FLIPSUMMON_COST, EFFECT_HAND_SYNCHRO, EFFECT_IGNORE_BATTLE_TARGET, EFFECT_INDESTRUCTABLE,
    EFFECT_INDESTRUCTABLE_BATTLE, EFFECT_INDESTRUCTABLE_COUNT, EFFECT_INDESTRUCTABLE_EFFECT,
    EFFECT_LIMIT_SPECIAL_SUMMON_POSITION, EFFECT_MONSTER_SSET, EFFECT_MSET_COST,
    EFFECT_OLDUNION_STATUS, EFFECT_REVIVE_LIMIT, EFFECT_SCRAP_CHIMERA, EFFECT_SKIP_BP,
    EFFECT_SPSUMMON_CONDITION, EFFECT_SPSUMMON_COST, EFFECT_SSET_COST, EFFECT_SUMMON_COST,
    EFFECT_TRIBUTE_LIMIT, EFFECT_TUNER_MATERIAL_LIMIT, EFFECT_UNION_LIMIT, EFFECT_UNION_STATUS,
    EFFECT_UNRELEASABLE_EFFECT, EFFECT_UNRELEASABLE_NONSUM, EFFECT_UNRELEASABLE_SUM,
    EVENT_BE_PRE_MATERIAL, GLOBALFLAG_SCRAP_CHIMERA, LOCATION_DECK, LOCATION_EXTRA, LOCATION_GRAVE,
    LOCATION_HAND, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_REASON_CONTROL,
    LOCATION_REASON_TOFIELD, LOCATION_REMOVED, LOCATION_SZONE, PLAYER_NONE, POS_FACEDOWN,
    POS_FACEDOWN_ATTACK, POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_ATTACK, POS_FACEUP_DEFENSE,
    REASON_COST, REASON_EFFECT, REASON_SUMMON, STATUS_BATTLE_DESTROYED, STATUS_CANNOT_CHANGE_FORM,
    STATUS_DISABLED, STATUS_FLIP_SUMMONING, STATUS_FORBIDDEN, STATUS_LEAVE_CONFIRMED,
    STATUS_PROC_COMPLETE, STATUS_SUMMONING, SUMMON_TYPE_DUAL, SUMMON_TYPE_FLIP, SUMMON_TYPE_FUSION,
    SUMMON_TYPE_NORMAL, SUMMON_TYPE_SPECIAL, SUMMON_TYPE_SYNCHRO, SUMMON_TYPE_XYZ, TYPE_FIELD,
    TYPE_FUSION, TYPE_LINK, TYPE_MONSTER, TYPE_PENDULUM, TYPE_RITUAL, TYPE_SPELL, TYPE_SPSUMMON,
    TYPE_TOKEN, TYPE_TRAP, TYPE_TRAPMONSTER, TYPE_XYZ,
)
from .core_constants import EFFECT_STATUS_SPSELF, TYPES_EXTRA_DECK

if TYPE_CHECKING:
    from .card import Card
    from .effect import Effect
    from .group import Group


# effect codes that still reach a card while it is being summoned (effect.h's affect_summoning_effect)
AFFECT_SUMMONING_EFFECT = frozenset({EFFECT_CANNOT_DISABLE_SUMMON, EFFECT_CANNOT_DISABLE_SPSUMMON,
                                     EVENT_BE_PRE_MATERIAL})


class MaterialInfo:
    """Material limits passed to a Special Summon procedure's condition (the reference's
    material_info): a required Tuner / material group for Synchro, a group for Xyz,
    a group or a card for Link, each with optional min/max counts."""

    __slots__ = ("limit_tuner", "limit_syn", "limit_syn_minc", "limit_syn_maxc", "limit_xyz",
                 "limit_xyz_minc", "limit_xyz_maxc", "limit_link", "limit_link_card",
                 "limit_link_minc", "limit_link_maxc")

    def __init__(self, *, limit_tuner: "Card | None" = None, limit_syn: "Group | None" = None,
                 limit_syn_minc: int = 0, limit_syn_maxc: int = 0, limit_xyz: "Group | None" = None,
                 limit_xyz_minc: int = 0, limit_xyz_maxc: int = 0, limit_link: "Group | None" = None,
                 limit_link_card: "Card | None" = None, limit_link_minc: int = 0,
                 limit_link_maxc: int = 0) -> None:
        self.limit_tuner = limit_tuner
        self.limit_syn = limit_syn
        self.limit_syn_minc = limit_syn_minc
        self.limit_syn_maxc = limit_syn_maxc
        self.limit_xyz = limit_xyz
        self.limit_xyz_minc = limit_xyz_minc
        self.limit_xyz_maxc = limit_xyz_maxc
        self.limit_link = limit_link
        self.limit_link_card = limit_link_card
        self.limit_link_minc = limit_link_minc
        self.limit_link_maxc = limit_link_maxc

    def condition_args(self) -> tuple:
        """The extra arguments a procedure's condition receives after (e, c)."""
        if self.limit_tuner is not None or self.limit_syn is not None:
            args: tuple = (self.limit_tuner, self.limit_syn)
            if self.limit_syn_minc:
                args += (self.limit_syn_minc, self.limit_syn_maxc)
            return args
        if self.limit_xyz is not None:
            args = (self.limit_xyz,)
            if self.limit_xyz_minc:
                args += (self.limit_xyz_minc, self.limit_xyz_maxc)
            return args
        if self.limit_link is not None or self.limit_link_card is not None:
            args = (self.limit_link, self.limit_link_card)
            if self.limit_link_minc:
                args += (self.limit_link_minc, self.limit_link_maxc)
            return args
        return ()


NULL_INFO = MaterialInfo()


def _tribute_count(card: "Card", decrease_code: int) -> int:
    """Tributes needed to Tribute Summon/Set ``card``: min in the low 16 bits, max in the high.

    Level 5-6 need 1, Level 7+ need 2.  Each usable EFFECT_DECREASE_TRIBUTE(_SET)
    value lowers min (low 16 bits) and max (high 16 bits); effects whose second
    return value names an effect code already counted are skipped.
    """
    level = card.get_level()
    if level < 5:
        return 0
    tmin = tmax = 1 if level < 7 else 2
    duplicate: list[int] = []
    for peffect in card.filter_effect(decrease_code):
        if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT) and peffect.count_limit == 0:
            continue
        retval = peffect.get_values(card)
        dec = int(retval[0]) if len(retval) > 0 else 0
        effect_code = int(retval[1]) if len(retval) > 1 else 0
        if effect_code > 0:
            if effect_code in duplicate:
                continue
            duplicate.append(effect_code)
        tmin -= dec & 0xFFFF
        tmax -= dec >> 16
    if tmin < 0:
        tmin = 0
    if tmax < tmin:
        tmax = tmin
    return tmin + (tmax << 16)


class CardChecksMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()

    # ----- summoning ---------------------------------------------------------------------

    def is_summonable_card(self: "Card") -> bool:
        """A Main Deck monster that can be Normal Summoned at all (not Ritual,
        not "cannot be Normal Summoned", not a Token)."""
        t = self.data.type
        if not (t & TYPE_MONSTER):
            return False
        if t & TYPES_EXTRA_DECK:
            return False
        return not (t & (TYPE_RITUAL | TYPE_SPSUMMON | TYPE_TOKEN))

    def _spsummon_conditions_ok(self: "Card", reason_effect: "Effect | None", sumplayer: int,
                                sumtype: int, sumpos: int, toplayer: int) -> bool:
        """Every EFFECT_SPSUMMON_CONDITION of the card accepts this Special Summon."""
        for peffect in self.filter_effect(EFFECT_SPSUMMON_CONDITION):
            if not peffect.check_value_condition(reason_effect, sumplayer, sumtype, sumpos, toplayer):
                return False
        return True

    def _revive_limited(self: "Card") -> bool:
        """Must be properly summoned first and was not (EFFECT_REVIVE_LIMIT without STATUS_PROC_COMPLETE)."""
        return self.is_affected_by_effect(EFFECT_REVIVE_LIMIT) is not None and not self.is_status(STATUS_PROC_COMPLETE)

    def _is_faceup_extra_pendulum(self: "Card") -> bool:
        return bool((self.data.type & TYPE_PENDULUM) and self.current.location == LOCATION_EXTRA
                    and (self.current.position & POS_FACEUP))

    def is_spsummonable_card(self: "Card") -> bool:
        """Could this monster be Special Summoned by an effect right now (its revive
        limit and its Special Summon conditions, with the current reason)?"""
        if not (self.data.type & TYPE_MONSTER):
            return False
        if self._revive_limited():
            if self.current.location & (LOCATION_GRAVE | LOCATION_REMOVED | LOCATION_SZONE):
                return False
            if self._is_faceup_extra_pendulum():
                return False
        core = self.duel.core
        return self._spsummon_conditions_ok(core.reason_effect, core.reason_player, SUMMON_TYPE_SPECIAL, 0, 0)

    def is_fusion_summonable_card(self: "Card", summon_type: int) -> bool:
        """Could this Fusion Monster be Fusion Summoned (by the current reason)?"""
        if not (self.data.type & TYPE_FUSION):
            return False
        if self._is_faceup_extra_pendulum():
            return False
        summon_type |= SUMMON_TYPE_FUSION
        core = self.duel.core
        return self._spsummon_conditions_ok(core.reason_effect, core.reason_player, summon_type, 0, 0)

    def is_spsummonable(self: "Card", proc: "Effect", info: MaterialInfo | None = None) -> bool:
        """Does the condition of Special Summon procedure ``proc`` hold (with the
        material limits of ``info``)?  The procedure is the reason meanwhile."""
        if info is None:
            info = NULL_INFO
        core = self.duel.core
        oreason, op = core.reason_effect, core.reason_player
        core.reason_effect = proc
        core.reason_player = self.current.controler
        result = self.duel.script.check_condition(proc.condition, proc, self, *info.condition_args())
        core.reason_effect = oreason
        core.reason_player = op
        return bool(result)

    def is_summonable(self: "Card", proc: "Effect", min_tribute: int, zone: int = 0x1F,
                      releasable: int = 0xFF00FF) -> bool:
        """Does the condition of Normal Summon/Set procedure ``proc`` hold, given the
        minimum tributes, the allowed zones and the releasable mask?"""
        core = self.duel.core
        oreason, op = core.reason_effect, core.reason_player
        core.reason_effect = proc
        core.reason_player = self.current.controler
        core.limit_extra_summon_zone = zone
        core.limit_extra_summon_releasable = releasable
        result = self.duel.script.check_condition(proc.condition, proc, self, min_tribute, zone, releasable)
        core.limit_extra_summon_zone = 0
        core.limit_extra_summon_releasable = 0
        core.reason_effect = oreason
        core.reason_player = op
        return bool(result)

    def _normal_count_used_up(self: "Card", playerid: int, extra_count_code: int) -> bool:
        """The player has no Normal Summon/Set left and no extra one this card could use."""
        core = self.duel.core
        return bool((core.extra_summon[playerid] or self.is_affected_by_effect(extra_count_code) is None)
                    and core.summon_count[playerid] >= self.duel.get_summon_count_limit(playerid))

    def is_can_be_summoned(self: "Card", playerid: int, ignore_count: int, peffect: "Effect | None",
                           min_tribute: int, zone: int = 0x1F) -> bool:
        """Can ``playerid`` Normal Summon this card (with procedure ``peffect``, or any)?

        In the hand: a summon procedure or an ordinary (Tribute) Summon must work
        (see filter_summon_procedure).  On the field: a face-up Gemini monster
        not yet Gemini-Summoned may be Normal Summoned again.
        """
        if not self.is_summonable_card():
            return False
        if not ignore_count and self._normal_count_used_up(playerid, EFFECT_EXTRA_SUMMON_COUNT):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if not self.check_cost_condition(EFFECT_SUMMON_COST, playerid):
            return False
        if self.current.location == LOCATION_MZONE:
            if (self.is_position(POS_FACEDOWN)
                    or not self.is_affected_by_effect(EFFECT_DUAL_SUMMONABLE)
                    or self.is_affected_by_effect(EFFECT_DUAL_STATUS)
                    or not self.duel.is_player_can_summon(SUMMON_TYPE_DUAL, playerid, self, playerid)
                    or self.is_affected_by_effect(EFFECT_CANNOT_SUMMON)):
                return False
        elif self.current.location == LOCATION_HAND:
            if self.is_affected_by_effect(EFFECT_CANNOT_SUMMON):
                return False
            proc: list[Effect] = []
            res = self.filter_summon_procedure(playerid, proc, ignore_count, min_tribute, zone)
            if peffect is not None:
                if res < 0 or not self.check_summon_procedure(peffect, playerid, ignore_count, min_tribute, zone):
                    return False
            elif not proc and (not res or res == -2):
                return False
        return True

    def is_summon_negatable(self: "Card", sumtype: int, reason_effect: "Effect | None") -> bool:
        """Can this card's summon of type ``sumtype`` be negated by ``reason_effect``?

        Not under the matching EFFECT_CANNOT_DISABLE_(FLIP_/SP)SUMMON.  A Flip or
        Gemini Summon must be in progress (STATUS_FLIP_SUMMONING), the card must be
        affected by the effect, and a Gemini Summon must still be possible.
        """
        if sumtype & SUMMON_TYPE_NORMAL:
            code = EFFECT_CANNOT_DISABLE_SUMMON
        elif sumtype & SUMMON_TYPE_FLIP:
            code = EFFECT_CANNOT_DISABLE_FLIP_SUMMON
        elif sumtype & SUMMON_TYPE_SPECIAL:
            code = EFFECT_CANNOT_DISABLE_SPSUMMON
        else:
            return False
        if self.is_affected_by_effect(code):
            return False
        if sumtype == SUMMON_TYPE_DUAL or sumtype & SUMMON_TYPE_FLIP:
            if not self.is_status(STATUS_FLIP_SUMMONING):
                return False
            if not self.is_affect_by_effect(reason_effect):
                return False
            if sumtype == SUMMON_TYPE_DUAL and (not self.is_affected_by_effect(EFFECT_DUAL_SUMMONABLE)
                                                or self.is_affected_by_effect(EFFECT_DUAL_STATUS)):
                return False
        return True

    def get_summon_tribute_count(self: "Card") -> int:
        return _tribute_count(self, EFFECT_DECREASE_TRIBUTE)

    def get_set_tribute_count(self: "Card") -> int:
        return _tribute_count(self, EFFECT_DECREASE_TRIBUTE_SET)

    def is_can_be_flip_summoned(self: "Card", playerid: int) -> bool:
        """A face-down monster in the Monster Zone that may change position and be Flip Summoned."""
        if self.is_status(STATUS_CANNOT_CHANGE_FORM):
            return False
        if self.current.location != LOCATION_MZONE:
            return False
        if not (self.current.position & POS_FACEDOWN):
            return False
        duel = self.duel
        if duel.check_unique_onfield(self, playerid, LOCATION_MZONE):
            return False
        if not duel.is_player_can_flipsummon(playerid, self):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_FLIP_SUMMON):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_CHANGE_POSITION):
            return False
        return self.check_cost_condition(EFFECT_FLIPSUMMON_COST, playerid)

    def is_special_summonable(self: "Card", playerid: int, summon_type: int,
                              info: MaterialInfo | None = None) -> bool:
        """Can ``playerid`` Special Summon this card by one of its own procedures
        (of ``summon_type``, 0 for any)?"""
        if not (self.data.type & TYPE_MONSTER):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_SPECIAL_SUMMON):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if not self.check_cost_condition(EFFECT_SPSUMMON_COST, playerid, summon_type):
            return False
        return bool(self.filter_spsummon_procedure(playerid, [], summon_type, info))

    def is_can_be_special_summoned(self: "Card", reason_effect: "Effect", sumtype: int, sumpos: int,
                                   sumplayer: int, toplayer: int, nocheck: int | bool,
                                   nolimit: int | bool, zone: int) -> bool:
        """Can ``sumplayer`` Special Summon this card to ``toplayer``'s field by ``reason_effect``?

        ``nocheck``: ignore the summon conditions; ``nolimit``: ignore the revive
        limit ("properly summoned first").  ``zone`` 0xff skips the free-zone check.
        A face-down summon under EFFECT_DIVINE_LIGHT is checked as face-up.
        Marks ``reason_effect`` EFFECT_STATUS_SPSELF when it is this card's own effect.
        """
        if reason_effect is not None and reason_effect.get_handler() is self:
            reason_effect.status |= EFFECT_STATUS_SPSELF
        loc = self.current.location
        if loc == LOCATION_MZONE:
            return False
        if loc == LOCATION_REMOVED and (self.current.position & POS_FACEDOWN):
            return False
        if self._revive_limited():
            if ((not nolimit and (loc & (LOCATION_GRAVE | LOCATION_REMOVED | LOCATION_SZONE)))
                    or (not nocheck and not nolimit and (loc & (LOCATION_DECK | LOCATION_HAND)))):
                return False
            if not nolimit and self._is_faceup_extra_pendulum():
                return False
        if self._is_faceup_extra_pendulum() and sumtype in (SUMMON_TYPE_FUSION, SUMMON_TYPE_SYNCHRO, SUMMON_TYPE_XYZ):
            return False
        duel = self.duel
        if (sumpos & POS_FACEDOWN) and duel.is_player_affected_by_effect(sumplayer, EFFECT_DIVINE_LIGHT):
            sumpos = (sumpos & POS_FACEUP) | ((sumpos & POS_FACEDOWN) >> 1)
        if not (sumpos & POS_FACEDOWN) and duel.check_unique_onfield(self, toplayer, LOCATION_MZONE):
            return False
        sumtype |= SUMMON_TYPE_SPECIAL
        if sumplayer in (0, 1) and not duel.is_player_can_spsummon_card(reason_effect, sumtype, sumpos,
                                                                       sumplayer, toplayer, self):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_SPECIAL_SUMMON):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if zone != 0xFF:
            if duel.get_useable_count(self, toplayer, LOCATION_MZONE, sumplayer, LOCATION_REASON_TOFIELD,
                                      zone, None) <= 0:
                return False
        if not self.check_cost_condition(EFFECT_SPSUMMON_COST, sumplayer, sumtype):
            return False
        if not nocheck:
            if not (self.data.type & TYPE_MONSTER):
                return False
            if not self._spsummon_conditions_ok(reason_effect, sumplayer, sumtype, sumpos, toplayer):
                return False
        return True

    def get_spsummonable_position(self: "Card", reason_effect: "Effect | None", sumtype: int, sumpos: int,
                                  sumplayer: int, toplayer: int) -> int:
        """The positions among ``sumpos`` this card may be Special Summoned in: Tokens
        and Link Monsters never face-down, and no EFFECT_LIMIT_SPECIAL_SUMMON_POSITION
        of ``sumplayer`` may forbid it."""
        position = 0
        duel = self.duel
        for pos in (POS_FACEUP_ATTACK, POS_FACEDOWN_ATTACK, POS_FACEUP_DEFENSE, POS_FACEDOWN_DEFENSE):
            if not (pos & sumpos):
                continue
            if (self.data.type & (TYPE_TOKEN | TYPE_LINK)) and (pos & POS_FACEDOWN):
                continue
            poscheck = True
            for peffect in duel.filter_player_effect(sumplayer, EFFECT_LIMIT_SPECIAL_SUMMON_POSITION):
                if not peffect.target:
                    continue
                if duel.script.check_condition(peffect.target, peffect, self, sumplayer, sumtype, pos,
                                               toplayer, reason_effect):
                    poscheck = False
            if poscheck:
                position |= pos
        return position

    def is_setable_mzone(self: "Card", playerid: int, ignore_count: int, peffect: "Effect | None",
                         min_tribute: int, zone: int = 0x1F) -> bool:
        """Can ``playerid`` Set this monster from the hand (with procedure ``peffect``, or any)?"""
        if not self.is_summonable_card():
            return False
        if self.current.location != LOCATION_HAND:
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_MSET):
            return False
        if not ignore_count and self._normal_count_used_up(playerid, EFFECT_EXTRA_SET_COUNT):
            return False
        if not self.check_cost_condition(EFFECT_MSET_COST, playerid):
            return False
        eset: list[Effect] = []
        res = self.filter_set_procedure(playerid, eset, ignore_count, min_tribute, zone)
        if peffect is not None:
            if res < 0 or not self.check_set_procedure(peffect, playerid, ignore_count, min_tribute, zone):
                return False
        elif not eset and (not res or res == -2):
            return False
        return True

    def is_setable_szone(self: "Card", playerid: int, ignore_fd: int | bool = 0) -> bool:
        """Can ``playerid`` Set this card in the Spell & Trap Zone (a free zone needed
        unless it is a Field Spell or ``ignore_fd``; a monster only with EFFECT_MONSTER_SSET)?"""
        duel = self.duel
        if (not (self.data.type & TYPE_FIELD) and not ignore_fd
                and duel.get_useable_count(self, self.current.controler, LOCATION_SZONE, self.current.controler,
                                           LOCATION_REASON_TOFIELD) <= 0):
            return False
        if self.data.type & TYPE_MONSTER and not self.is_affected_by_effect(EFFECT_MONSTER_SSET):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_SSET):
            return False
        if not duel.is_player_can_sset(playerid, self):
            return False
        return self.check_cost_condition(EFFECT_SSET_COST, playerid)

    # ----- being affected, negated, destroyed --------------------------------------------

    def is_affect_by_effect(self: "Card", reason_effect: "Effect | None") -> bool:
        """Does ``reason_effect`` reach this card?

        While being summoned, only the few effects that work on a summoning card
        do.  Otherwise no effect (or one ignoring immunity) always does, and an
        effect the card is immune to does not.
        """
        if self.is_status(STATUS_SUMMONING):
            return reason_effect is not None and reason_effect.code in AFFECT_SUMMONING_EFFECT
        if reason_effect is None or reason_effect.is_flag(EFFECT_FLAG_IGNORE_IMMUNE):
            return True
        if reason_effect.is_immuned(self):
            return False
        return True

    def is_can_be_disabled_by_effect(self: "Card", reason_effect: "Effect | None", is_monster_effect: bool) -> bool:
        """Can ``reason_effect`` negate this card (not already negated -- a Trap Monster
        negated as a monster can still have its card effect negated)?"""
        if is_monster_effect and self.is_status(STATUS_DISABLED):
            return False
        if not is_monster_effect and not (self.get_type() & TYPE_TRAPMONSTER) and self.is_status(STATUS_DISABLED):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_DISABLE):
            return False
        if not self.is_affect_by_effect(reason_effect):
            return False
        return True

    def is_destructable(self: "Card") -> bool:
        """Cards that can be destroyed at all: not materials, not in the GY or banished."""
        if self.overlay_target is not None:
            return False
        if self.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
            return False
        return True

    def is_destructable_by_battle(self: "Card", pcard: "Card | None") -> bool:
        return self.is_affected_by_effect(EFFECT_INDESTRUCTABLE_BATTLE, pcard) is None

    def check_indestructable_by_effect(self: "Card", reason_effect: "Effect | None",
                                       playerid: int) -> "Effect | None":
        """The first EFFECT_INDESTRUCTABLE_EFFECT protecting this card from destruction
        by ``reason_effect`` of ``playerid``, or None."""
        if reason_effect is None:
            return None
        for peffect in self.filter_effect(EFFECT_INDESTRUCTABLE_EFFECT):
            if peffect.check_value_condition(reason_effect, playerid, self):
                return peffect
        return None

    def is_destructable_by_effect(self: "Card", reason_effect: "Effect | None", playerid: int) -> bool:
        """Can ``reason_effect`` of ``playerid`` destroy this card?

        Not if unaffected, protected by EFFECT_INDESTRUCTABLE_EFFECT or
        EFFECT_INDESTRUCTABLE, or by an EFFECT_INDESTRUCTABLE_COUNT with uses left
        (a count-limited one with its count left; otherwise its value is the number
        of times per turn, against this card's record of uses).
        """
        if not self.is_affect_by_effect(reason_effect):
            return False
        if self.check_indestructable_by_effect(reason_effect, playerid):
            return False
        for peffect in self.filter_effect(EFFECT_INDESTRUCTABLE):
            if peffect.check_value_condition(reason_effect, REASON_EFFECT, playerid):
                return False
        for peffect in self.filter_effect(EFFECT_INDESTRUCTABLE_COUNT):
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                if peffect.count_limit == 0:
                    continue
                if peffect.check_value_condition(reason_effect, REASON_EFFECT, playerid):
                    return False
            else:
                ct = peffect.get_value(None, reason_effect, REASON_EFFECT, playerid)
                if ct:
                    used = self.indestructable_effects.setdefault(peffect.id, 0)
                    if used + 1 <= ct:
                        return False
        return True

    # ----- banishing, Tributing ----------------------------------------------------------

    def is_removeable(self: "Card", playerid: int, pos: int, reason: int) -> bool:
        """Can ``playerid`` banish this card (in position ``pos``; a Token never face-down)?"""
        if not self.duel.is_player_can_remove(playerid, self, reason):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_REMOVE):
            return False
        if (self.data.type & TYPE_TOKEN) and (pos & POS_FACEDOWN):
            return False
        return True

    def _cost_destination(self: "Card", dest: int) -> tuple[int, bool]:
        """Where this card would really go if sent to ``dest`` as a cost, after the
        leave-the-field and destination redirects; and whether one applied."""
        saved = (self.sendto_param.playerid, self.sendto_param.position,
                 self.sendto_param.location, self.sendto_param.sequence)
        self.sendto_param.location = dest & 0xFF
        redirected = False
        redirect = 0
        if self.current.location & LOCATION_ONFIELD:
            redirect = self.leave_field_redirect(REASON_COST) & 0xFFFF
        if redirect:
            redirected = True
            dest = redirect
        redirect = self.destination_redirect(dest, REASON_COST) & 0xFFFF
        if redirect:
            redirected = True
            dest = redirect
        sp = self.sendto_param
        sp.playerid, sp.position, sp.location, sp.sequence = saved
        return dest, redirected

    def is_removeable_as_cost(self: "Card", playerid: int, pos: int) -> bool:
        """Can this card be banished as a cost (and really end up banished; a
        redirected card cannot be banished face-down)?"""
        if self.current.location == LOCATION_REMOVED:
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
            return False
        if not self.is_removeable(playerid, pos, REASON_COST):
            return False
        dest, redirected = self._cost_destination(LOCATION_REMOVED)
        if dest != LOCATION_REMOVED or (redirected and (pos & POS_FACEDOWN)):
            return False
        return True

    def is_releasable_by_summon(self: "Card", playerid: int, pcard: "Card") -> bool:
        """Can ``playerid`` Tribute this card for the Tribute Summon of ``pcard``?"""
        if self.status & STATUS_SUMMONING:
            return False
        if self.overlay_target is not None:
            return False
        if self.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
            return False
        duel = self.duel
        if (EFFECT_CANNOT_RELEASE in duel.effects.aura_effect      # (only skips work)
                and not duel.is_player_can_release(playerid, self, REASON_SUMMON)):
            return False
        if self.is_affected_by_effect(EFFECT_UNRELEASABLE_SUM, pcard):
            return False
        if pcard.is_affected_by_effect(EFFECT_TRIBUTE_LIMIT, self):
            return False
        return True

    def is_releasable_by_nonsummon(self: "Card", playerid: int, reason: int) -> bool:
        """Can ``playerid`` Tribute this card other than for a summon (not a Spell/Trap in the hand)?"""
        if self.is_status(STATUS_SUMMONING):
            return False
        if self.overlay_target is not None:
            return False
        if self.current.location & (LOCATION_GRAVE | LOCATION_REMOVED):
            return False
        if self.current.location == LOCATION_HAND and (self.data.type & (TYPE_SPELL | TYPE_TRAP)):
            return False
        if not self.duel.is_player_can_release(playerid, self, reason):
            return False
        if self.is_affected_by_effect(EFFECT_UNRELEASABLE_NONSUM):
            return False
        return True

    def is_releasable_by_effect(self: "Card", playerid: int, reason_effect: "Effect | None") -> bool:
        """No EFFECT_UNRELEASABLE_EFFECT stops ``reason_effect`` from Tributing this card."""
        if reason_effect is None:
            return True
        for peffect in self.filter_effect(EFFECT_UNRELEASABLE_EFFECT):
            if peffect.check_value_condition(reason_effect, playerid, self):
                return False
        return True

    # ----- sending to places -------------------------------------------------------------

    def is_capable_send_to_grave(self: "Card", playerid: int) -> bool:
        if self.is_affected_by_effect(EFFECT_CANNOT_TO_GRAVE):
            return False
        return bool(self.duel.is_player_can_send_to_grave(playerid, self))

    def is_capable_send_to_hand(self: "Card", playerid: int) -> bool:
        """Not already leaving, not an Extra Deck monster in the Extra Deck (and an
        Extra Deck monster must be able to go back to the Deck instead)."""
        if self.is_status(STATUS_LEAVE_CONFIRMED):
            return False
        if self.current.location == LOCATION_EXTRA and self.is_extra_deck_monster():
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_TO_HAND):
            return False
        if self.is_extra_deck_monster() and not self.is_capable_send_to_deck(playerid):
            return False
        return bool(self.duel.is_player_can_send_to_hand(playerid, self))

    def is_capable_send_to_deck(self: "Card", playerid: int, send_activating: int | bool = False) -> bool:
        """``send_activating``: the card being activated may be returned even though
        it is already marked as leaving."""
        if not send_activating and self.is_status(STATUS_LEAVE_CONFIRMED):
            return False
        if self.current.location == LOCATION_EXTRA and self.is_extra_deck_monster():
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_TO_DECK):
            return False
        return bool(self.duel.is_player_can_send_to_deck(playerid, self))

    def is_capable_send_to_extra(self: "Card", playerid: int) -> bool:
        """Extra Deck monsters and Pendulum cards only."""
        if not self.is_extra_deck_monster() and not (self.data.type & TYPE_PENDULUM):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_TO_DECK):
            return False
        return bool(self.duel.is_player_can_send_to_deck(playerid, self))

    def is_capable_cost_to_grave(self: "Card", playerid: int) -> bool:
        """Can this card be sent to the GY as a cost, and really end up there? (A
        Pendulum card on the field that could go to the Extra Deck cannot.)"""
        if self.data.type & TYPE_TOKEN:
            return False
        if ((self.data.type & TYPE_PENDULUM) and (self.current.location & LOCATION_ONFIELD)
                and self.is_capable_send_to_extra(playerid)):
            return False
        if self.current.location == LOCATION_GRAVE:
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_TO_GRAVE_AS_COST):
            return False
        if not self.is_capable_send_to_grave(playerid):
            return False
        return self._cost_destination(LOCATION_GRAVE)[0] == LOCATION_GRAVE

    def is_capable_cost_to_hand(self: "Card", playerid: int) -> bool:
        if (self.data.type & TYPE_TOKEN) or self.is_extra_deck_monster():
            return False
        if self.current.location == LOCATION_HAND:
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
            return False
        if not self.is_capable_send_to_hand(playerid):
            return False
        return self._cost_destination(LOCATION_HAND)[0] == LOCATION_HAND

    def is_capable_cost_to_deck(self: "Card", playerid: int) -> bool:
        if (self.data.type & TYPE_TOKEN) or self.is_extra_deck_monster():
            return False
        if self.current.location == LOCATION_DECK:
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
            return False
        if not self.is_capable_send_to_deck(playerid):
            return False
        return self._cost_destination(LOCATION_DECK)[0] == LOCATION_DECK

    def is_capable_cost_to_extra(self: "Card", playerid: int) -> bool:
        """An Extra Deck monster returned as a cost (it goes "to the Deck", i.e. the Extra Deck)."""
        if not self.is_extra_deck_monster():
            return False
        if self.current.location == LOCATION_EXTRA:
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_USE_AS_COST):
            return False
        if not self.is_capable_send_to_deck(playerid):
            return False
        return self._cost_destination(LOCATION_DECK)[0] == LOCATION_DECK

    # ----- battle ------------------------------------------------------------------------

    def is_capable_attack(self: "Card") -> bool:
        """Face-up Attack Position (or Defense with EFFECT_DEFENSE_ATTACK), not forbidden,
        not prevented from attacking, and the turn player's Battle Phase is not skipped."""
        if not self.is_position(POS_FACEUP_ATTACK) and not (
                self.is_position(POS_FACEUP_DEFENSE) and self.is_affected_by_effect(EFFECT_DEFENSE_ATTACK)):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_ATTACK):
            return False
        if self.is_affected_by_effect(EFFECT_ATTACK_DISABLED):
            return False
        if self.duel.is_player_affected_by_effect(self.duel.infos.turn_player, EFFECT_SKIP_BP):
            return False
        return True

    def is_capable_attack_announce(self: "Card", playerid: int) -> bool:
        if not self.is_capable_attack():
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_ATTACK_ANNOUNCE):
            return False
        return self.check_cost_condition(EFFECT_ATTACK_COST, playerid)

    def is_capable_be_battle_target(self: "Card", pcard: "Card") -> bool:
        """Can ``pcard`` choose this card as its attack target?"""
        if self.is_affected_by_effect(EFFECT_CANNOT_BE_BATTLE_TARGET, pcard):
            return False
        if pcard.is_affected_by_effect(EFFECT_CANNOT_SELECT_BATTLE_TARGET, self):
            return False
        if self.is_affected_by_effect(EFFECT_IGNORE_BATTLE_TARGET, pcard):
            return False
        return True

    # ----- positions and control ---------------------------------------------------------

    def is_capable_change_position(self: "Card", playerid: int) -> bool:
        """Can ``playerid`` change this monster's position manually (not Link monsters)?"""
        if self.is_status(STATUS_CANNOT_CHANGE_FORM):
            return False
        if self.data.type & TYPE_LINK:
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_CHANGE_POSITION):
            return False
        if self.duel.is_player_affected_by_effect(playerid, EFFECT_CANNOT_CHANGE_POSITION):
            return False
        return True

    def is_capable_change_position_by_effect(self: "Card", playerid: int) -> bool:
        return not (self.data.type & TYPE_LINK)

    def is_capable_turn_set(self: "Card", playerid: int) -> bool:
        """Can this face-up card be turned face-down (not Links or Tokens)?"""
        if self.data.type & (TYPE_LINK | TYPE_TOKEN):
            return False
        if self.is_position(POS_FACEDOWN):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_TURN_SET):
            return False
        if self.duel.is_player_affected_by_effect(playerid, EFFECT_CANNOT_TURN_SET):
            return False
        return True

    def is_capable_change_control(self: "Card") -> bool:
        return self.is_affected_by_effect(EFFECT_CANNOT_CHANGE_CONTROL) is None

    def is_control_can_be_changed(self: "Card", ignore_mzone: int | bool, zone: int) -> bool:
        """Can control of this monster pass to the opponent (a free Monster Zone in
        ``zone`` unless ``ignore_mzone``; before Master Rule 2020 a Trap Monster also
        needs a free Spell & Trap Zone)?"""
        if self.current.controler == PLAYER_NONE:
            return False
        if self.current.location != LOCATION_MZONE:
            return False
        duel = self.duel
        ctrl = self.current.controler
        if not ignore_mzone and duel.get_useable_count(self, 1 - ctrl, LOCATION_MZONE, ctrl,
                                                       LOCATION_REASON_CONTROL, zone) <= 0:
            return False
        if (duel.core.duel_rule <= 4 and (self.get_type() & TYPE_TRAPMONSTER)
                and duel.get_useable_count(self, 1 - ctrl, LOCATION_SZONE, ctrl, LOCATION_REASON_CONTROL) <= 0):
            return False
        if self.is_affected_by_effect(EFFECT_CANNOT_CHANGE_CONTROL):
            return False
        return True

    # ----- targeting ---------------------------------------------------------------------

    def is_capable_be_effect_target(self: "Card", reason_effect: "Effect", playerid: int) -> bool:
        """Can ``reason_effect`` (of ``playerid``) target this card?

        Never while being summoned, after being destroyed by battle, or in the
        Deck, Extra Deck or hand; not under an EFFECT_CANNOT_BE_EFFECT_TARGET that
        applies, nor when the effect's card may not select it
        (EFFECT_CANNOT_SELECT_EFFECT_TARGET).
        """
        if self.is_status(STATUS_SUMMONING) or self.is_status(STATUS_BATTLE_DESTROYED):
            return False
        if self.current.location & (LOCATION_DECK | LOCATION_EXTRA | LOCATION_HAND):
            return False
        for peffect in self.filter_effect(EFFECT_CANNOT_BE_EFFECT_TARGET):
            if peffect.get_value(None, reason_effect, playerid):
                return False
        for peffect in reason_effect.get_handler().filter_effect(EFFECT_CANNOT_SELECT_EFFECT_TARGET):
            if peffect.get_value(reason_effect, self):
                return False
        return True

    # ----- materials ---------------------------------------------------------------------

    def is_capable_overlay(self: "Card", playerid: int) -> bool:
        """Can ``playerid`` attach this card as an Xyz Material (not a Token; an
        opponent's card only if its control could change)?"""
        if self.data.type & TYPE_TOKEN:
            return False
        if not (self.current.location & LOCATION_ONFIELD) and self.is_status(STATUS_FORBIDDEN):
            return False
        if self.current.controler != playerid and not self.is_capable_change_control():
            return False
        return True

    def is_can_be_fusion_material(self: "Card", fcard: "Card | None", summon_type: int) -> bool:
        """Usable as Fusion Material for ``fcard``: no EFFECT_CANNOT_BE_FUSION_MATERIAL
        applies, and if the card has EFFECT_EXTRA_FUSION_MATERIAL one must allow it.
        Always when the rules check "not as material"."""
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if self.duel.core.not_material:
            return True
        for peffect in self.filter_effect(EFFECT_CANNOT_BE_FUSION_MATERIAL):
            if peffect.get_value(None, fcard, summon_type):
                return False
        eset = self.filter_effect(EFFECT_EXTRA_FUSION_MATERIAL)
        if eset:
            return any(peffect.get_value(fcard) for peffect in eset)
        return True

    def is_can_be_synchro_material(self: "Card", scard: "Card | None", tuner: "Card | None" = None) -> bool:
        """Usable as Synchro Material for ``scard`` (with ``tuner``): a monster with a
        Synchro Level (an Xyz/Link monster only with one from an effect), not
        excluded by Scrap Chimera's rule nor EFFECT_CANNOT_BE_SYNCHRO_MATERIAL."""
        if (self.data.type & (TYPE_XYZ | TYPE_LINK)) and not self.get_synchro_level(scard):
            return False
        if not (self.get_synchro_type() & TYPE_MONSTER):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        if tuner is not None and (self.duel.core.global_flag & GLOBALFLAG_SCRAP_CHIMERA):
            if self.is_affected_by_effect(EFFECT_SCRAP_CHIMERA, tuner):
                return False
        for peffect in self.filter_effect(EFFECT_CANNOT_BE_SYNCHRO_MATERIAL):
            if peffect.get_value(scard):
                return False
        return True

    def is_can_be_ritual_material(self: "Card", scard: "Card | None") -> bool:
        """A monster; from the GY only with an EFFECT_EXTRA_RITUAL_MATERIAL allowing it."""
        if not (self.get_type() & TYPE_MONSTER):
            return False
        if self.current.location == LOCATION_GRAVE:
            return any(peffect.get_value(scard) for peffect in self.filter_effect(EFFECT_EXTRA_RITUAL_MATERIAL))
        return True

    def is_can_be_xyz_material(self: "Card", scard: "Card | None") -> bool:
        if self.data.type & TYPE_TOKEN:
            return False
        if not (self.get_xyz_type() & TYPE_MONSTER):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        for peffect in self.filter_effect(EFFECT_CANNOT_BE_XYZ_MATERIAL):
            if peffect.get_value(scard):
                return False
        return True

    def is_can_be_link_material(self: "Card", scard: "Card | None") -> bool:
        if not (self.get_link_type() & TYPE_MONSTER):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        for peffect in self.filter_effect(EFFECT_CANNOT_BE_LINK_MATERIAL):
            if peffect.get_value(scard):
                return False
        return True

    # ----- properties of the card's own effects ------------------------------------------

    def is_original_effect_property(self: "Card", filter: Any) -> bool:
        """Does the script function ``filter(e)`` accept one of the card's original effects?"""
        check = self.duel.script.check_condition
        return any(check(filter, peffect) for peffect in list(self.initial_effect))

    def is_effect_property(self: "Card", filter: Any) -> bool:
        """Does ``filter(e)`` accept one of the card's current own effects (original,
        then gained by copying)?  In the Monster Zone only monster effects count;
        in the Spell & Trap Zone only effects that work there."""
        check = self.duel.script.check_condition
        for peffect in list(self.initial_effect) + list(self.owning_effect):
            if self.current.is_location(LOCATION_MZONE) and not peffect.is_monster_effect():
                continue
            if self.current.is_location(LOCATION_SZONE) and not peffect.in_range(self):
                continue
            if check(filter, peffect):
                return True
        return False

    # ----- placing and equipping --------------------------------------------------------

    def is_can_be_placed_on_field(self: "Card", toplayer: int, tolocation: int) -> bool:
        """Card.IsCanBePlacedOnField: not forbidden, and no unique-on-field rule is
        broken by placing it in ``tolocation`` of ``toplayer`` (0 or 1)."""
        if toplayer not in (0, 1):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        return self.duel.check_unique_onfield(self, toplayer, tolocation & 0xFF, None) is None

    def _union_compatible(self: "Card", target: "Card") -> bool:
        """An old-style Union may not join a target that has new-style Unions, and
        the other way round."""
        return ((not self.is_affected_by_effect(EFFECT_OLDUNION_STATUS) or target.get_union_count() == 0)
                and (not self.is_affected_by_effect(EFFECT_UNION_STATUS) or target.get_old_union_count() == 0))

    def check_equip_target(self: "Card", target: "Card") -> bool:
        """Card.CheckEquipTarget: EFFECT_EQUIP_LIMIT allows ``target``, and the Union kinds fit."""
        return (self.is_affected_by_effect(EFFECT_EQUIP_LIMIT, target) is not None
                and self._union_compatible(target))

    def check_union_target(self: "Card", target: "Card") -> bool:
        """Card.CheckUnionTarget: EFFECT_UNION_LIMIT allows ``target``, and the Union kinds fit."""
        return (self.is_affected_by_effect(EFFECT_UNION_LIMIT, target) is not None
                and self._union_compatible(target))

    # ----- Synchro material limits ------------------------------------------------------

    @staticmethod
    def _material_limit_range(peffect: "Effect") -> tuple[int, int]:
        """(min, max) materials an EFFECT_FLAG_SPSUM_PARAM limit effect sets with its
        s_range/o_range; 0 and 99 otherwise."""
        lo, hi = 0, 99
        if peffect.is_flag(EFFECT_FLAG_SPSUM_PARAM):
            if peffect.s_range and peffect.s_range > lo:
                lo = peffect.s_range & 0xFFFF
            if peffect.o_range and peffect.o_range < hi:
                hi = peffect.o_range & 0xFFFF
        return lo, hi

    def get_tuner_limit(self: "Card") -> tuple | None:
        """Card.GetTunerLimit: the EFFECT_TUNER_MATERIAL_LIMIT on this Tuner as
        (effect, target function or None, value or None, min, max), or None."""
        peffect = self.is_affected_by_effect(EFFECT_TUNER_MATERIAL_LIMIT)
        if peffect is None:
            return None
        lo, hi = self._material_limit_range(peffect)
        value = peffect.get_integer_value()
        return (peffect, peffect.target if peffect.target else None, value if value else None, lo, hi)

    def get_hand_synchro(self: "Card") -> tuple | None:
        """Card.GetHandSynchro: for a monster in the Monster Zone, the effect letting it
        use monsters in the hand as Synchro Material -- EFFECT_HAND_SYNCHRO, else an
        EFFECT_TUNER_MATERIAL_LIMIT whose value includes LOCATION_HAND -- as
        (effect, target function or None, min, max); None if neither."""
        if not (self.current.location & LOCATION_MZONE):
            return None
        peffect = self.is_affected_by_effect(EFFECT_HAND_SYNCHRO)
        if peffect is None:
            peffect = self.is_affected_by_effect(EFFECT_TUNER_MATERIAL_LIMIT)
            if peffect is None or not (peffect.get_integer_value() & LOCATION_HAND):
                return None
        lo, hi = self._material_limit_range(peffect)
        return peffect, peffect.target if peffect.target else None, lo, hi

    # ----- battle -----------------------------------------------------------------------

    def get_battle_target(self: "Card") -> "Card | None":
        """Card.GetBattleTarget: the monster this one battles (the attack target if it
        attacks, the attacker if it is attacked), else None."""
        core = self.duel.core
        if core.attacker is self:
            return core.attack_target
        if core.attack_target is self:
            return core.attacker
        return None

    def get_attackable_targets(self: "Card") -> tuple[list["Card"], bool]:
        """Card.GetAttackableTarget: the monsters this card could attack now (as a
        chain attack if it is the chain attacker) and whether it could attack directly."""
        duel = self.duel
        targets: list[Card] = []
        chain_attack = duel.core.chain_attacker_id == self.fieldid
        duel.get_attack_target(self, targets, chain_attack)
        return targets, bool(self.direct_attackable)

    def is_chain_attackable(self: "Card", ac: int = 2, monsteronly: bool = False) -> bool:
        """Card.IsChainAttackable: can the current attacker attack again?

        (This card itself is not looked at; the question is about the attacker.)
        No when the attacker was destroyed by battle, is not the turn player's, is
        no longer the monster that attacked, cannot declare an attack, has made
        ``ac`` or more attack declarations (``ac`` 0: no limit), or (``ac`` 2) has
        EFFECT_EXTRA_ATTACK.  Then it needs a monster to attack, or (unless
        ``monsteronly``) a direct attack.  No attacker: False.
        """
        duel = self.duel
        core = duel.core
        attacker = core.attacker
        if attacker is None:
            return False
        turn_player = duel.infos.turn_player
        if (attacker.is_status(STATUS_BATTLE_DESTROYED)
                or attacker.current.controler != turn_player
                or attacker.fieldid_r != core.pre_field[0]
                or not attacker.is_capable_attack_announce(turn_player)
                or (ac != 0 and attacker.announce_count >= ac)
                or (ac == 2 and attacker.is_affected_by_effect(EFFECT_EXTRA_ATTACK))):
            return False
        cv: list[Card] = []
        duel.get_attack_target(attacker, cv, True)
        if not cv and (monsteronly or attacker.direct_attackable == 0):
            return False
        return True

    def get_attacked_cards(self: "Card") -> list["Card"]:
        """Card.GetAttackedGroup: the monsters this card attacked (not direct attacks)."""
        return [entry[0] for entry in self.attacked_cards.values() if entry[0] is not None]

    def get_battled_cards(self: "Card") -> list["Card"]:
        """Card.GetBattledGroup: the monsters this card battled."""
        return [entry[0] for entry in self.battled_cards.values() if entry[0] is not None]

    def is_direct_attacked(self: "Card") -> bool:
        """Card.IsDirectAttacked: this card attacked directly (since its records were reset)."""
        return self.attacked_cards.findcard(None) > 0
