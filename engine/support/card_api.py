"""Rules behind Card.* functions that belong in the engine (reference: libcard.cpp).

The Card library's bindings (duelhost.bindings.lib_card*) read their arguments
and call one engine method each.  Where the reference's library function does
more than call one card.cpp/field.cpp method -- builds an effect, walks an
effect container, writes a message, combines several checks -- that logic is a
method here, so the binding stays a mechanical translation of arguments and
return values.  Names follow the Lua function (``register_effect`` for
Card.RegisterEffect, ...) where the reference has no method of its own.

Arguments arrive already converted to the widths the reference uses (the
bindings mask ``uint8_t``/``uint16_t``/``uint32_t`` parameters); these methods
do not check argument types.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..constants import (
    CATEGORY_COIN, CATEGORY_DICE, CATEGORY_FUSION_SUMMON, EFFECT_ADD_FUSION_CODE,
    EFFECT_ADD_LINK_CODE, EFFECT_CHANGE_ATTRIBUTE, EFFECT_CHANGE_LEVEL, EFFECT_CHANGE_RACE,
    EFFECT_COUNTER_LIMIT, EFFECT_COUNTER_PERMIT, EFFECT_DUAL_STATUS, EFFECT_EQUIP_LIMIT,
    EFFECT_EXTRA_ATTACK, EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COIN,
    EFFECT_FLAG_DICE, EFFECT_FLAG_EFFECT, EFFECT_FLAG_FUSION_SUMMON, EFFECT_FLAG_SINGLE_RANGE,
    EFFECT_FLAG_SPSUM_PARAM, EFFECT_FLAG_UNCOPYABLE, EFFECT_HAND_SYNCHRO, EFFECT_OLDUNION_STATUS,
    EFFECT_PRE_MONSTER, EFFECT_REVIVE_LIMIT, EFFECT_SET_BASE_ATTACK, EFFECT_SET_BASE_DEFENSE,
    EFFECT_TUNER_MATERIAL_LIMIT, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_SINGLE, EFFECT_UNION_LIMIT,
    EFFECT_UNION_STATUS, EFFECT_UNIQUE_CHECK, GLOBALFLAG_SPSUMMON_ONCE, LOCATION_DECK,
    LOCATION_FZONE, LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_SZONE,
    PLAYER_NONE, POS_FACEUP, POS_FACEUP_DEFENSE, RESET_CARD, RESET_CHAIN, RESET_EVENT,
    RESET_OPPO_TURN, RESET_PHASE, RESET_SELF_TURN, STATUS_BATTLE_DESTROYED, STATUS_COPYING_EFFECT,
    STATUS_FORBIDDEN, STATUS_LEAVE_CONFIRMED, STATUS_NO_LEVEL, SUMMON_INFO_ATTACK,
    SUMMON_INFO_ATTRIBUTE, SUMMON_INFO_CODE, SUMMON_INFO_CODE2, SUMMON_INFO_DEFENSE,
    SUMMON_INFO_LEVEL, SUMMON_INFO_RACE, SUMMON_INFO_RANK, SUMMON_INFO_REASON_EFFECT,
    SUMMON_INFO_REASON_PLAYER, SUMMON_INFO_TYPE, TYPE_LINK, TYPE_MONSTER,
)
from ..core_constants import CHINT_DESC_ADD, MAX_CARD_ID
from ..wire import i32 as _i32

if TYPE_CHECKING:
    from ..card import Card
    from ..effect import Effect
    from ..event import Event


# Effect categories whose presence marks the effect with a matching flag when it
# is registered on a card (the reference's category_checklist, in key order).
CATEGORY_CHECKLIST: tuple[tuple[int, int], ...] = (
    (CATEGORY_COIN, EFFECT_FLAG_COIN),
    (CATEGORY_DICE, EFFECT_FLAG_DICE),
    (CATEGORY_FUSION_SUMMON, EFFECT_FLAG_FUSION_SUMMON),
)

_U64 = 0xFFFFFFFFFFFFFFFF


def flag_effect_code(code: int) -> int:
    """The effect code a "flag effect" with id ``code`` is stored under: the id's
    low 28 bits with EFFECT_FLAG_EFFECT added."""
    return _i32((code & MAX_CARD_ID) | EFFECT_FLAG_EFFECT)


class CardApiSupportMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()

    # ----- names -------------------------------------------------------------------------

    def _codes_with(self: "Card", extra_code: int | None) -> list[int]:
        """The current name, the second name (if any), then the values of the card's
        effects of ``extra_code`` (None: no extra names)."""
        codes = [self.get_code()]
        otcode = self.get_another_code()
        if otcode:
            codes.append(otcode)
        if extra_code is not None:
            codes.extend(_i32(peffect.get_value(self)) for peffect in self.filter_effect(extra_code))
        return codes

    def get_fusion_codes(self: "Card") -> list[int]:
        """Card.GetFusionCode: the names the card has as a Fusion Material -- its
        name(s), then each EFFECT_ADD_FUSION_CODE value (not while the rules check
        "not as material")."""
        return self._codes_with(None if self.duel.core.not_material else EFFECT_ADD_FUSION_CODE)

    def get_link_codes(self: "Card") -> list[int]:
        """Card.GetLinkCode: the name(s), then each EFFECT_ADD_LINK_CODE value."""
        return self._codes_with(EFFECT_ADD_LINK_CODE)

    def is_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsCode: does either of the card's names equal one of ``codes``
        (None entries -- nil arguments -- are skipped)?"""
        code1 = self.get_code()
        code2 = self.get_another_code()
        for tcode in codes:
            if tcode is None:
                continue
            if code1 == tcode or (code2 and code2 == tcode):
                return True
        return False

    def is_original_code_rule(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsOriginalCodeRule: is_code against the names before effects."""
        code1, code2 = self.get_original_code_rule()
        for tcode in codes:
            if tcode is None:
                continue
            if code1 == tcode or (code2 and code2 == tcode):
                return True
        return False

    def _is_code_with(self: "Card", extra_code: int, codes: list[int | None], skip: bool) -> bool:
        eset = self.filter_effect(extra_code)
        if not eset or skip:
            return self.is_code(codes)
        fcode = {self.get_code()}
        code2 = self.get_another_code()
        if code2:
            fcode.add(code2)
        for peffect in eset:
            fcode.add(peffect.get_value(self) & 0xFFFFFFFF)
        return any(tcode is not None and tcode in fcode for tcode in codes)

    def is_fusion_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsFusionCode: is_code, also matching EFFECT_ADD_FUSION_CODE names
        (which do not count while the rules check "not as material")."""
        return self._is_code_with(EFFECT_ADD_FUSION_CODE, codes, self.duel.core.not_material)

    def is_link_code(self: "Card", codes: list[int | None]) -> bool:
        """Card.IsLinkCode: is_code, also matching EFFECT_ADD_LINK_CODE names."""
        return self._is_code_with(EFFECT_ADD_LINK_CODE, codes, False)

    # ----- stats as scripts see them -------------------------------------------------------

    def is_monster_for_stats(self: "Card") -> bool:
        """Does the card have monster stats now (a monster card, currently a monster,
        or under EFFECT_PRE_MONSTER)?  Card.IsAttack & co. answer no otherwise."""
        return bool((self.data.type & TYPE_MONSTER) or (self.get_type() & TYPE_MONSTER)
                    or self.is_affected_by_effect(EFFECT_PRE_MONSTER))

    def has_defense_for_stats(self: "Card") -> bool:
        """A monster (see is_monster_for_stats) that is not a Link Monster."""
        return not (self.data.type & TYPE_LINK) and self.is_monster_for_stats()

    def get_current_scale(self: "Card") -> int:
        """Card.GetCurrentScale: in the left Pendulum Zone the left scale, in the
        right one the right scale; elsewhere the printed left scale."""
        if self.current.pzone:
            if self.current.sequence == self.duel.get_pzone_sequence(0):
                return self.get_lscale()
            return self.get_rscale()
        return self.data.lscale

    def get_special_summon_info(self: "Card", flag: int) -> Any:
        """One value recorded when the card was Special Summoned (SUMMON_INFO_*):
        unsigned stats, signed ATK/DEF, the reason effect (or None) and player;
        None for an unknown flag."""
        sp = self.spsummon
        unsigned = {SUMMON_INFO_CODE: sp.code, SUMMON_INFO_CODE2: sp.code2, SUMMON_INFO_TYPE: sp.type,
                    SUMMON_INFO_LEVEL: sp.level, SUMMON_INFO_RANK: sp.rank,
                    SUMMON_INFO_ATTRIBUTE: sp.attribute, SUMMON_INFO_RACE: sp.race}
        if flag in unsigned:
            return unsigned[flag] & 0xFFFFFFFF
        if flag == SUMMON_INFO_ATTACK:
            return _i32(sp.attack)
        if flag == SUMMON_INFO_DEFENSE:
            return _i32(sp.defense)
        if flag == SUMMON_INFO_REASON_EFFECT:
            return sp.reason_effect
        if flag == SUMMON_INFO_REASON_PLAYER:
            return sp.reason_player & 0xFF
        return None

    # ----- where the card is, as scripts see it ---------------------------------------------

    def get_script_location(self: "Card") -> int:
        """Card.GetLocation: 0 while the card is treated as not on the field (being
        summoned, or its summon/activation negated), else its location."""
        if self.is_treated_as_not_on_field():
            return 0
        return self.current.location

    def is_script_location(self: "Card", loc: int) -> bool:
        """Card.IsLocation: never while treated as not on the field; a card in the
        Spell & Trap Zone also matches LOCATION_FZONE / LOCATION_PZONE."""
        if self.is_treated_as_not_on_field():
            return False
        if self.current.location == LOCATION_MZONE:
            return bool(loc & LOCATION_MZONE)
        if self.current.location == LOCATION_SZONE:
            return self.current.is_location(loc)
        return bool(self.current.location & loc)

    def is_script_onfield(self: "Card") -> bool:
        """Card.IsOnField: on the field and not treated as not on the field."""
        return bool(self.current.location & LOCATION_ONFIELD) and not self.is_treated_as_not_on_field()

    def is_faceup_ex(self: "Card") -> bool:
        """Card.IsFaceupEx: face-up, or in the hand, GY or Deck."""
        return bool(self.is_position(POS_FACEUP)
                    or (self.current.location & (LOCATION_HAND | LOCATION_GRAVE | LOCATION_DECK)))

    # ----- statuses set by scripts --------------------------------------------------------

    def set_status_by_script(self: "Card", status: int, enabled: bool) -> None:
        """Card.SetStatus: ignored while the card is copying effects."""
        if self.status & STATUS_COPYING_EFFECT:
            return
        self.set_status(status, enabled)

    def enable_dual_state(self: "Card") -> None:
        """Card.EnableDualState: the Gemini monster becomes an Effect Monster (an
        uncancellable EFFECT_DUAL_STATUS with a client hint, ending when the card
        leaves the field or is turned face-down)."""
        deffect = self.duel.new_effect()
        deffect.owner = self
        deffect.code = EFFECT_DUAL_STATUS
        deffect.type = EFFECT_TYPE_SINGLE
        deffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_CLIENT_HINT
        deffect.description = 64
        deffect.reset_flag = RESET_EVENT + 0x1FE0000
        self.add_effect(deffect)

    def enable_revive_limit(self: "Card") -> None:
        """Card.EnableReviveLimit: the card must be properly summoned before it can be
        revived (an uncopyable EFFECT_REVIVE_LIMIT); nothing while copying effects."""
        if self.is_status(STATUS_COPYING_EFFECT):
            return
        peffect = self.duel.new_effect()
        peffect.owner = self
        peffect.code = EFFECT_REVIVE_LIMIT
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE | EFFECT_FLAG_UNCOPYABLE
        self.add_effect(peffect)

    def set_spsummon_once(self: "Card", code: int) -> None:
        """Card.SetSPSummonOnce: only one Special Summon of cards with this code per
        turn (turns on the duel's check); ignored while copying effects."""
        if self.status & STATUS_COPYING_EFFECT:
            return
        self.spsummon_code = code
        self.duel.core.global_flag |= GLOBALFLAG_SPSUMMON_ONCE

    def cancel_to_grave(self: "Card", cancel: bool = True) -> None:
        """Card.CancelToGrave: a card that was going to the GY after resolving stays
        (``cancel``), or is marked to be sent there (added to leave_confirmed)."""
        if cancel:
            self.set_status(STATUS_LEAVE_CONFIRMED, False)
        else:
            self.duel.core.leave_confirmed.add(self)
            self.set_status(STATUS_LEAVE_CONFIRMED, True)

    def assume_property(self: "Card", assume_type: int, assume_value: int) -> None:
        """Card.AssumeProperty: answer stat questions with ``assume_value`` for one
        ASSUME_* stat until the duel restores the assumptions."""
        self.assume_type = assume_type & 0xFF
        self.assume_value = assume_value & 0xFFFFFFFF
        self.duel.assumes.add(self)

    def set_hint(self: "Card", hint_type: int, value: int) -> None:
        """Card.SetHint: show a hint on the card (MSG_CARD_HINT); the description
        hints (CHINT_DESC_ADD and above) are only written by the core."""
        from ..messages import LocInfo, MsgCardHint
        if hint_type >= CHINT_DESC_ADD:
            return
        self.duel.emit(MsgCardHint(loc=LocInfo.from_raw(self.get_info_location()),
                                   type=hint_type & 0xFF, value=value & 0xFFFFFFFF))

    def reverse_in_deck(self: "Card") -> None:
        """Card.ReverseInDeck: turn a Deck card face-up; if it is the top card, the
        top of the Deck is shown (MSG_DECK_TOP)."""
        from ..messages import MsgDeckTop
        if self.current.location != LOCATION_DECK:
            return
        self.current.position = POS_FACEUP_DEFENSE
        p = self.current.controler
        if self.current.sequence == len(self.duel.player[p].list_main) - 1:
            self.duel.emit(MsgDeckTop(player=p, sequence=0, code=(self.data.code | 0x80000000) & 0xFFFFFFFF))

    def set_unique_onfield(self: "Card", s: int, o: int, unique_code: int, unique_function: Any,
                           location: int) -> None:
        """Card.SetUniqueOnField: only one card matching (``unique_function`` when
        given, else the code ``unique_code``) may be face-up in ``location`` on the
        sides ``s``/``o`` watch.  Registers EFFECT_UNIQUE_CHECK and starts watching
        if the card is already there."""
        self.unique_pos[0] = s & 0xFF
        self.unique_pos[1] = o & 0xFF
        if unique_function is not None:
            self.unique_code = 1
            self.unique_function = unique_function
        else:
            self.unique_code = unique_code & 0xFFFFFFFF
        self.unique_location = location
        peffect = self.duel.new_effect()
        peffect.owner = self
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = EFFECT_UNIQUE_CHECK
        self.add_effect(peffect)
        self.unique_effect = peffect
        if self.current.location & location:
            self.duel.add_unique_card(self)

    def is_can_be_placed_on_field(self: "Card", toplayer: int, tolocation: int) -> bool:
        """Card.IsCanBePlacedOnField: not forbidden, and no unique-on-field rule is
        broken by placing it in ``tolocation`` of ``toplayer`` (0 or 1)."""
        if toplayer not in (0, 1):
            return False
        if self.is_status(STATUS_FORBIDDEN):
            return False
        return self.duel.check_unique_onfield(self, toplayer, tolocation & 0xFF, None) is None

    # ----- equips ----------------------------------------------------------------------------

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

    # ----- effects ---------------------------------------------------------------------------

    def register_effect(self: "Card", peffect: "Effect", forced: bool) -> int | None:
        """Card.RegisterEffect.  Returns the effect's id, 0 when add_effect refused
        it, -1 when it already has a handler, or None (no value for the script)
        when it is owned by the rules' temporary card or when an effect is being
        applied (core.reason_effect) that this card is unaffected by -- unless
        ``forced``; the effect is then queued for deletion (reseted_effects).
        Categories COIN/DICE/FUSION_SUMMON add their EFFECT_FLAG_* first.
        """
        duel = self.duel
        core = duel.core
        if peffect.owner is duel.temp_card:
            return None
        if not forced and core.reason_effect is not None and not self.is_affect_by_effect(core.reason_effect):
            core.reseted_effects[peffect] = None
            return None
        for category, flag in CATEGORY_CHECKLIST:
            if peffect.category & category:
                peffect.flag[0] |= flag
        if peffect.handler is not None:
            return -1
        return self.add_effect(peffect)

    def get_has_effects(self: "Card", code: int, check_player: int) -> list["Effect"]:
        """Card.IsHasEffect: the card's applying effects of ``code`` (effect order);
        with ``check_player`` other than PLAYER_NONE only those whose count limit
        that player has not used up."""
        eset = self.filter_effect(code)
        if check_player == PLAYER_NONE:
            return eset
        return [peffect for peffect in eset if peffect.check_count_limit(check_player)]

    def get_activate_effects(self: "Card") -> list["Effect"]:
        """Card.GetActivateEffect: the card's EFFECT_TYPE_ACTIVATE effects (container order)."""
        return [peffect for peffect in self.field_effect.all_effects() if peffect.type & EFFECT_TYPE_ACTIVATE]

    def check_activate_effect(self: "Card", neglect_con: bool, neglect_cost: bool,
                              copy_info: bool) -> tuple["Effect", "Event"] | None:
        """Card.CheckActivateEffect: the first of the card's activate effects that the
        reason player could activate now (ignoring its condition/cost if asked),
        with the event it would respond to; None if none."""
        duel = self.duel
        for peffect in self.field_effect.all_effects():
            if not (peffect.type & EFFECT_TYPE_ACTIVATE):
                continue
            ev = duel.check_event_c(peffect, duel.core.reason_player, neglect_con, neglect_cost, copy_info)
            if ev is not None:
                return peffect, ev
        return None

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

    # ----- flag effects ---------------------------------------------------------------------

    def register_flag_effect(self: "Card", code: int, reset: int, flag: int, count: int,
                             label: int = 0, description: int = 0) -> "Effect":
        """Card.RegisterFlagEffect: a marker effect (code = flag_effect_code(id))
        carrying one label.  ``count`` 0 means 1; a phase reset without a turn
        side resets on either player's turn.  The marker cannot be negated."""
        if count == 0:
            count = 1
        if reset & RESET_PHASE and not (reset & (RESET_SELF_TURN | RESET_OPPO_TURN)):
            reset |= RESET_SELF_TURN | RESET_OPPO_TURN
        duel = self.duel
        peffect = duel.new_effect()
        peffect.effect_owner = duel.core.reason_player
        peffect.owner = self
        peffect.handler = None
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = code
        peffect.reset_flag = reset & 0xFFFFFFFF
        peffect.flag[0] = (flag | EFFECT_FLAG_CANNOT_DISABLE) & _U64
        peffect.reset_count = _i32(count)
        peffect.label.append(label)
        peffect.description = description & 0xFFFFFFFF
        self.add_effect(peffect)
        return peffect

    def get_flag_effect(self: "Card", code: int) -> int:
        """Card.GetFlagEffect: how many flag effects with this code the card has
        (stored ones, whether or not they apply)."""
        return len(self.single_effect.get(code) or ())

    def set_flag_effect_label(self: "Card", code: int, label: int) -> bool:
        """Card.SetFlagEffectLabel: replace the labels of the first flag effect with
        this code by ``label``; False if there is none."""
        effects = self.single_effect.get(code)
        if not effects:
            return False
        peffect = effects[0]
        peffect.label.clear()
        peffect.label.append(label)
        return True

    def get_flag_effect_labels(self: "Card", code: int) -> list[int]:
        """Card.GetFlagEffectLabel: the first label (0 if none) of each flag effect
        with this code, in registration order."""
        return [peffect.label[0] if peffect.label else 0 for peffect in self.single_effect.equal_range(code)]

    # ----- relations -------------------------------------------------------------------------

    def is_relate_to_chain(self: "Card", chain_count: int) -> bool:
        """Card.IsRelateToChain: related to chain link ``chain_count`` (out of range or
        below 1: the newest link).  False when no chain is being built or resolved."""
        chain = self.duel.core.current_chain
        if chain_count > len(chain) or chain_count < 1:
            chain_count = len(chain)
        if chain_count == 0:
            return False
        return self.is_has_relation(chain[chain_count - 1])

    def is_relate_to_battle(self: "Card") -> bool:
        """Card.IsRelateToBattle: still the same card (real field id) as one of the
        two monsters of the current battle."""
        pre_field = self.duel.core.pre_field
        return self.fieldid_r == pre_field[0] or self.fieldid_r == pre_field[1]

    # ----- counters --------------------------------------------------------------------------

    def enable_counter_permit(self: "Card", countertype: int, prange: int | None = None,
                              condition: Any = None) -> None:
        """Card.EnableCounterPermit: the card may hold counters of this type while in
        ``prange`` (default: Monster Zone for monsters, else Spell & Trap/Field
        Zone), optionally only while ``condition`` holds."""
        if prange is None:
            prange = LOCATION_MZONE if self.data.type & TYPE_MONSTER else LOCATION_SZONE | LOCATION_FZONE
        peffect = self.duel.new_effect()
        peffect.owner = self
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = _i32(EFFECT_COUNTER_PERMIT | countertype) & 0xFFFFFFFF
        peffect.flag[0] = EFFECT_FLAG_SINGLE_RANGE
        peffect.range = prange & 0xFFFF
        if condition is not None:
            peffect.condition = condition
        self.add_effect(peffect)

    def set_counter_limit(self: "Card", countertype: int, limit: int) -> None:
        """Card.SetCounterLimit: at most ``limit`` counters of this type (EFFECT_COUNTER_LIMIT)."""
        peffect = self.duel.new_effect()
        peffect.owner = self
        peffect.type = EFFECT_TYPE_SINGLE
        peffect.code = _i32(EFFECT_COUNTER_LIMIT | countertype) & 0xFFFFFFFF
        peffect.value = limit
        self.add_effect(peffect)

    def remove_all_counters(self: "Card") -> bool:
        """Card.RemoveCounter with counter type 0: every counter comes off at once
        (one MSG_REMOVE_COUNTER per type, by type); True if there were any."""
        from ..messages import MsgRemoveCounter
        result = False
        for ctype in sorted(self.counters):
            result = True
            self._emit_counter(MsgRemoveCounter, ctype, self.counters[ctype])
        self.counters.clear()
        return result

    def get_counter_count(self: "Card", countertype: int) -> int:
        """Card.GetCounter: the number of counters of this type; type 0 gives how many
        counter types the card has."""
        if countertype == 0:
            return len(self.counters)
        return self.get_counter(countertype & 0xFFFF)

    # ----- turning into a monster ---------------------------------------------------------------

    def add_monster_attribute(self: "Card", type_: int, attribute: int, race: int, level: int,
                              atk: int, defense: int) -> None:
        """Card.AddMonsterAttribute: a Trap Monster gets its monster stats -- it loses
        STATUS_NO_LEVEL and gets EFFECT_PRE_MONSTER (type; also reset at the end of
        the chain) and, for each non-zero stat, a CHANGE_ATTRIBUTE / CHANGE_RACE /
        CHANGE_LEVEL / SET_BASE_ATTACK / SET_BASE_DEFENSE, all ending when the card
        leaves the field or is turned face-down."""
        self.set_status(STATUS_NO_LEVEL, False)
        duel = self.duel

        def add_temp_effect(code: int, value: int, extra_reset_flag: int = 0) -> None:
            peffect = duel.new_effect()
            peffect.owner = self
            peffect.type = EFFECT_TYPE_SINGLE
            peffect.code = code
            peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
            peffect.reset_flag = RESET_EVENT | 0x47E0000 | extra_reset_flag
            peffect.value = value
            self.add_effect(peffect)

        add_temp_effect(EFFECT_PRE_MONSTER, type_, RESET_CHAIN)
        if attribute:
            add_temp_effect(EFFECT_CHANGE_ATTRIBUTE, attribute)
        if race:
            add_temp_effect(EFFECT_CHANGE_RACE, race)
        if level:
            add_temp_effect(EFFECT_CHANGE_LEVEL, level)
        if atk:
            add_temp_effect(EFFECT_SET_BASE_ATTACK, atk)
        if defense:
            add_temp_effect(EFFECT_SET_BASE_DEFENSE, defense)

    # ----- battle ------------------------------------------------------------------------------

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

    # ----- resets --------------------------------------------------------------------------------

    def reset_negate_effect(self: "Card", codes: list[int]) -> None:
        """Card.ResetNegateEffect: end the effects owned by each of these card codes (RESET_CARD)."""
        for code in codes:
            self.reset(code & 0xFFFFFFFF, RESET_CARD)

    def copy_effect_by_script(self: "Card", code: int, reset: int, count: int, replace: bool) -> int:
        """Card.CopyEffect / Card.ReplaceEffect: ``count`` 0 means 1, and a phase
        reset without a turn side resets on either player's turn."""
        if count == 0:
            count = 1
        if reset & RESET_PHASE and not (reset & (RESET_SELF_TURN | RESET_OPPO_TURN)):
            reset |= RESET_SELF_TURN | RESET_OPPO_TURN
        if replace:
            return self.replace_effect(code, reset, count)
        return self.copy_effect(code, reset, count)

    # ----- groups of cards the card keeps ---------------------------------------------------------

    def get_attacked_cards(self: "Card") -> list["Card"]:
        """Card.GetAttackedGroup: the monsters this card attacked (not direct attacks)."""
        return [entry[0] for entry in self.attacked_cards.values() if entry[0] is not None]

    def get_battled_cards(self: "Card") -> list["Card"]:
        """Card.GetBattledGroup: the monsters this card battled."""
        return [entry[0] for entry in self.battled_cards.values() if entry[0] is not None]

    def is_direct_attacked(self: "Card") -> bool:
        """Card.IsDirectAttacked: this card attacked directly (since its records were reset)."""
        return self.attacked_cards.findcard(None) > 0
