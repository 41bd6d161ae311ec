"""Effects attached to a card: adding, removing, resetting, filtering; relations, counters,
equips, materials (reference: card.cpp).

Where the effects of a card live (see ``Card.__init__``):

* ``single_effect`` -- effects on the card itself (EFFECT_TYPE_SINGLE);
* ``field_effect`` -- effects the card applies to other cards or players;
* ``equip_effect`` / ``target_effect`` / ``xmaterial_effect`` -- effects the card
  gives to the card it equips, the cards it targets, the Xyz Monster it is a
  material of;
* ``indexer`` -- every effect of the card -> its container.

Where the reference walks an unordered container keyed by pointers (the
indexer, the initial/owning effect sets, the relation maps), we walk in
insertion order.  The reference's save_lp_cost/restore_lp_cost are empty and
are not called here.
"""

from __future__ import annotations

from functools import cmp_to_key
from typing import TYPE_CHECKING, Any, Callable, Iterable

from .constants import (
    CATEGORY_COIN, CATEGORY_DICE, CATEGORY_FUSION_SUMMON, CHINT_TURN, COUNTER_WITHOUT_PERMIT,
    EFFECT_ADD_SETCODE, EFFECT_ADD_TYPE, EFFECT_CANNOT_DISABLE, EFFECT_CANNOT_REMOVE,
    EFFECT_CANNOT_TO_DECK, EFFECT_CANNOT_TO_GRAVE, EFFECT_CANNOT_TO_HAND, EFFECT_CANNOT_TRIGGER,
    EFFECT_CHANGE_ATTRIBUTE, EFFECT_CHANGE_LEVEL, EFFECT_CHANGE_RACE, EFFECT_COUNTER_LIMIT,
    EFFECT_COUNTER_PERMIT, EFFECT_DISABLE, EFFECT_DISABLE_FIELD, EFFECT_DUAL_STATUS,
    EFFECT_EXTRA_SET_COUNT, EFFECT_EXTRA_SUMMON_COUNT, EFFECT_FLAG_BOTH_SIDE,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_CLIENT_HINT, EFFECT_FLAG_COIN, EFFECT_FLAG_COPY,
    EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_DICE, EFFECT_FLAG_EFFECT, EFFECT_FLAG_FUNC_VALUE,
    EFFECT_FLAG_FUSION_SUMMON, EFFECT_FLAG_IGNORE_IMMUNE, EFFECT_FLAG_INITIAL, EFFECT_FLAG_OATH,
    EFFECT_FLAG_OWNER_RELATE, EFFECT_FLAG_PLAYER_TARGET, EFFECT_FLAG_SINGLE_RANGE,
    EFFECT_FLAG_SPSUM_PARAM, EFFECT_FLAG_UNCOPYABLE, EFFECT_FORBIDDEN, EFFECT_FUSION_MATERIAL,
    EFFECT_FUSION_SUBSTITUTE, EFFECT_IMMUNE_EFFECT, EFFECT_LEAVE_FIELD_REDIRECT,
    EFFECT_LIMIT_SET_PROC, EFFECT_LIMIT_SUMMON_PROC, EFFECT_MATERIAL_CHECK, EFFECT_MATERIAL_LIMIT,
    EFFECT_NONTUNER, EFFECT_OLDUNION_STATUS, EFFECT_PRE_MONSTER, EFFECT_REMOVE_BRAINWASHING,
    EFFECT_REMOVE_REDIRECT, EFFECT_REVIVE_LIMIT, EFFECT_SET_ATTACK, EFFECT_SET_ATTACK_FINAL,
    EFFECT_SET_BASE_ATTACK, EFFECT_SET_BASE_ATTACK_FINAL, EFFECT_SET_BASE_DEFENSE,
    EFFECT_SET_BASE_DEFENSE_FINAL, EFFECT_SET_CONTROL, EFFECT_SET_DEFENSE, EFFECT_SET_DEFENSE_FINAL,
    EFFECT_SET_PROC, EFFECT_SPSUMMON_PROC, EFFECT_SPSUMMON_PROC_G, EFFECT_SUMMON_PROC,
    EFFECT_TO_DECK_REDIRECT, EFFECT_TO_GRAVE_REDIRECT, EFFECT_TO_HAND_REDIRECT, EFFECT_TUNER,
    EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_EQUIP, EFFECT_TYPE_FIELD, EFFECT_TYPE_SINGLE,
    EFFECT_TYPE_TARGET, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_XMATERIAL,
    EFFECT_UNION_STATUS, EFFECT_UNIQUE_CHECK, EFFECT_UPDATE_ATTACK, EFFECT_UPDATE_DEFENSE,
    EFFECT_UPDATE_LEVEL, EFFECT_USE_EXTRA_MZONE, EFFECT_USE_EXTRA_SZONE, EVENT_ADD_COUNTER,
    EVENT_LEAVE_DECK, EVENT_LEAVE_GRAVE, EVENT_LEVEL_UP, GLOBALFLAG_DECK_REVERSE_CHECK,
    LOCATION_DECK, LOCATION_DECKBOT, LOCATION_DECKSHF, LOCATION_EXTRA, LOCATION_FZONE,
    LOCATION_GRAVE, LOCATION_HAND, LOCATION_MZONE, LOCATION_ONFIELD, LOCATION_OVERLAY,
    LOCATION_REMOVED, LOCATION_SZONE, PHASE_DRAW, PHASE_END, PHASE_STANDBY, PLAYER_NONE,
    POS_FACEDOWN, POS_FACEDOWN_DEFENSE, POS_FACEUP, POS_FACEUP_DEFENSE, REASON_EFFECT,
    REASON_LOST_TARGET, REASON_MATERIAL, REASON_REDIRECT, REASON_RULE, REASON_XYZ, RESETS_STANDARD,
    RESET_CARD, RESET_CHAIN, RESET_CODE, RESET_CONTROL, RESET_COPY, RESET_DISABLE, RESET_EVENT,
    RESET_LEAVE, RESET_MSCHANGE, RESET_OPPO_TURN, RESET_OVERLAY, RESET_PHASE, RESET_REMOVE,
    RESET_SELF_TURN, RESET_TEMP_REMOVE, RESET_TODECK, RESET_TOFIELD, RESET_TOGRAVE, RESET_TOHAND,
    RESET_TURN_SET, STATUS_COPYING_EFFECT, STATUS_DISABLED, STATUS_EFFECT_ENABLED,
    STATUS_EFFECT_REPLACED, STATUS_FORBIDDEN, STATUS_INITIALIZING, STATUS_NO_LEVEL,
    STATUS_SPSUMMON_STEP, SUMMON_TYPE_ADVANCE, SUMMON_TYPE_FUSION, SUMMON_TYPE_NORMAL,
    SUMMON_TYPE_SPECIAL, TYPE_EFFECT, TYPE_MONSTER, TYPE_NORMAL, TYPE_PENDULUM, TYPE_SPELL,
    TYPE_TOKEN, TYPE_TRAP, TYPE_TRAPMONSTER, TYPE_TUNER, TYPE_UNION,
)
from .core_constants import (
    CHINT_DESC_ADD, CHINT_DESC_REMOVE, CODE_COUNTER, CODE_PHASE, EFFECT_TYPES_CHAIN_LINK,
    EFFECT_TYPES_TRIGGER_LIKE, MAX_CARD_ID, TEMP_CARD_ID,
)
from .event import Chain
from .card_data import CardBase
from .card_stats import PRINTED_STAT_EFFECTS
from .group import CardSet
from .messages import (LocInfo, MsgAddCounter, MsgCancelTarget, MsgCardHint, MsgCardTarget,
                       MsgDeckTop, MsgEquip, MsgMove, MsgRemoveCounter)
from .wire import i32 as _i32
from .effect_rules import effect_sort_key, is_continuous_event

if TYPE_CHECKING:
    from .card import Card, EffectContainer
    from .card_checks import MaterialInfo
    from .effect import Effect
    from .event import Event
    from .group import Group

def _loc(pcard: "Card") -> LocInfo:
    return LocInfo.from_raw(pcard.get_info_location())


# ----- the reference's effect filters (which of a container's effects apply to a card) -----

def default_single_filter(c: "Card", peffect: "Effect") -> bool:
    """An effect on the card itself: available, and (for an effect that works "in
    range" like a field effect) not blocked by the card's immunity."""
    return peffect.is_available() and (not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)
                                       or c.is_affect_by_effect(peffect))


def default_equip_filter(c: "Card", peffect: "Effect") -> bool:
    return peffect.is_available() and c.is_affect_by_effect(peffect)


def default_target_filter(c: "Card", peffect: "Effect") -> bool:
    return peffect.is_available() and peffect.is_target(c) and c.is_affect_by_effect(peffect)


def default_xmaterial_filter(c: "Card", peffect: "Effect") -> bool:
    return (not (peffect.type & EFFECT_TYPE_FIELD) and peffect.is_available()
            and c.is_affect_by_effect(peffect))


def default_aura_filter(c: "Card", peffect: "Effect") -> bool:
    return (not peffect.is_flag(EFFECT_FLAG_PLAYER_TARGET) and peffect.is_available()
            and peffect.is_target(c) and c.is_affect_by_effect(peffect))


def accept_filter(c: "Card", peffect: "Effect") -> bool:
    return True


def _target_only_filter(c: "Card", peffect: "Effect") -> bool:
    return bool(peffect.is_target(c))


def _not_field_filter(c: "Card", peffect: "Effect") -> bool:
    return not (peffect.type & EFFECT_TYPE_FIELD)


def _single_range_filter(c: "Card", peffect: "Effect") -> bool:
    return peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)


EffectFilter = Callable[["Card", "Effect"], bool]


class _NoTarget:
    """Marks "no target argument" (the one-argument is_affected_by_effect)."""

    __repr__ = lambda self: "NO_TARGET"  # noqa: E731


NO_TARGET: Any = _NoTarget()


# ----- ordering cards for an operation ---------------------------------------------------

def card_operation_sort(c1: "Card", c2: "Card") -> bool:
    """The reference's card_operation_sort: is ``c1`` handled before ``c2``?

    By controller (the turn player's cards first; a card with no controller
    compares as player 2), then by location number, then:
    * Xyz materials: by their holder's zone, then their own index;
    * a Deck whose order the selecting player may not see: the top card first
      if the Deck is reversed, then face-up cards (higher sequence first), then
      monsters before Spells before Traps, lower Level first, higher code first,
      higher sequence first;
    * Deck, Extra Deck, GY and banishment: higher sequence first;
    * elsewhere: lower sequence first.
    """
    duel = c1.duel
    cp1 = c1.overlay_target.current.controler if c1.overlay_target else c1.current.controler
    cp2 = c2.overlay_target.current.controler if c2.overlay_target else c2.current.controler
    if cp1 != cp2:
        if cp1 == PLAYER_NONE or cp2 == PLAYER_NONE:
            return cp1 < cp2
        if duel.infos.turn_player == 0:
            return cp1 < cp2
        return cp1 > cp2
    if c1.current.location != c2.current.location:
        return c1.current.location < c2.current.location
    if c1.current.location == LOCATION_OVERLAY:
        if (c1.overlay_target and c2.overlay_target
                and c1.overlay_target.current.sequence != c2.overlay_target.current.sequence):
            return c1.overlay_target.current.sequence < c2.overlay_target.current.sequence
        return c1.current.sequence < c2.current.sequence
    if c1.current.location == LOCATION_DECK and duel.is_select_hide_deck_sequence(cp1):
        return _hidden_deck_before(c1, c2, cp1, cp2)
    if c1.current.location & (LOCATION_DECK | LOCATION_EXTRA | LOCATION_GRAVE | LOCATION_REMOVED):
        return c1.current.sequence > c2.current.sequence
    return c1.current.sequence < c2.current.sequence


def _hidden_deck_before(c1: "Card", c2: "Card", cp1: int, cp2: int) -> bool:
    """card_operation_sort for two cards of a Deck whose order is hidden from the selector."""
    duel = c1.duel
    if duel.core.deck_reversed:
        # the top card of a reversed Deck goes first
        main1 = duel.player[cp1].list_main
        main2 = duel.player[cp2].list_main
        if main1 and c1 is main1[-1]:
            return False
        if main2 and c2 is main2[-1]:
            return True
    c1_faceup = c1.current.position & POS_FACEUP
    c2_faceup = c2.current.position & POS_FACEUP
    if c1_faceup or c2_faceup:
        if c1_faceup and c2_faceup:
            return c1.current.sequence > c2.current.sequence
        return bool(c2_faceup)
    c1_type = c1.data.type & (TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP)
    c2_type = c2.data.type & (TYPE_MONSTER | TYPE_SPELL | TYPE_TRAP)
    if c1_type != c2_type:
        return c1_type > c2_type
    if c1_type & TYPE_MONSTER and c1.data.level != c2.data.level:
        return c1.data.level < c2.data.level
    if c1.data.code != c2.data.code:
        return c1.data.code > c2.data.code
    return c1.current.sequence > c2.current.sequence


def _operation_cmp(c1: "Card", c2: "Card") -> int:
    if card_operation_sort(c1, c2):
        return -1
    if card_operation_sort(c2, c1):
        return 1
    return 0


card_operation_key = cmp_to_key(_operation_cmp)
"""Sort key for ``sorted(cards, key=card_operation_key)`` (the reference's card_operation_sort)."""


def _container_erase(container: "EffectContainer", peffect: "Effect") -> int | None:
    """Remove one effect from a container (found by its code, or by a scan if the code
    changed); returns the code it was kept under (None: not there)."""
    lst = container.get(peffect.code)
    if lst is not None and peffect in lst:
        container.discard(peffect.code, peffect)
        return peffect.code
    for code, lst in list(dict.items(container)):
        if peffect in lst:
            container.discard(code, peffect)
            return code
    return None


def _uncopy(duel: Any) -> dict:
    """The duel's set of uncopyable effects dropped while copying (the reference's duel::uncopy)."""
    s = getattr(duel, "uncopy", None)
    if s is None:
        s = duel.uncopy = {}
    return s


# single-effect codes that replace earlier ones of the listed codes (add_effect)
_REPLACED_BY: dict[int, tuple[int, ...]] = {
    EFFECT_SET_ATTACK: (EFFECT_SET_ATTACK,),
    EFFECT_SET_ATTACK_FINAL: (EFFECT_UPDATE_ATTACK, EFFECT_SET_ATTACK, EFFECT_SET_ATTACK_FINAL),
    EFFECT_SET_DEFENSE: (EFFECT_SET_DEFENSE,),
    EFFECT_SET_DEFENSE_FINAL: (EFFECT_UPDATE_DEFENSE, EFFECT_SET_DEFENSE, EFFECT_SET_DEFENSE_FINAL),
    EFFECT_SET_BASE_ATTACK: (EFFECT_SET_BASE_ATTACK,),
    EFFECT_SET_BASE_ATTACK_FINAL: (EFFECT_SET_BASE_ATTACK, EFFECT_SET_BASE_ATTACK_FINAL,
                                   EFFECT_SET_ATTACK, EFFECT_SET_ATTACK_FINAL),
    EFFECT_SET_BASE_DEFENSE: (EFFECT_SET_BASE_DEFENSE,),
    EFFECT_SET_BASE_DEFENSE_FINAL: (EFFECT_SET_BASE_DEFENSE, EFFECT_SET_BASE_DEFENSE_FINAL,
                                    EFFECT_SET_DEFENSE, EFFECT_SET_DEFENSE_FINAL),
}

# reset events that end a card's "this card was moved" bookkeeping
_RESETS_MOVED = (RESET_TODECK | RESET_TOHAND | RESET_TOGRAVE | RESET_REMOVE | RESET_TEMP_REMOVE
                 | RESET_OVERLAY | RESET_MSCHANGE)


def _extra_count_args(values: list[int]) -> tuple[int, int, int]:
    """(minimum tributes, zone, releasable) from an EFFECT_EXTRA_SUMMON/SET_COUNT value.

    Missing values default to 0, 0x1f and 0xff00ff; a negative releasable is
    taken off 0xff00ff.
    """
    new_min = int(values[0]) if len(values) > 0 else 0
    new_zone = (int(values[1]) & 0xFFFFFFFF) if len(values) > 1 else 0x1F
    if len(values) > 2:
        r = int(values[2])
        releasable = 0xFF00FF + r if r < 0 else r
    else:
        releasable = 0xFF00FF
    return new_min, new_zone, releasable


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


def _first_applying(card: "Card", effects: "list[Effect]", base: "EffectFilter", target: Any) -> "Effect | None":
    """The first of ``effects`` (a snapshot of the list is walked) that ``base`` lets apply
    to ``card`` and -- when a ``target`` is given -- whose value for it is non-zero."""
    for peffect in list(effects):
        if base(card, peffect) and (target is NO_TARGET or peffect.get_value(target)):
            return peffect
    return None


class CardEffectsMixin:
    """Methods of Card (see engine/card.py)."""

    __slots__ = ()

    card_operation_sort = staticmethod(card_operation_sort)

    # ----- equips ------------------------------------------------------------------------

    def equip(self: "Card", target: "Card", send_msg: bool | int = True) -> None:
        """Make this card an Equip Card of ``target`` (MSG_EQUIP when ``send_msg``)."""
        if self.equiping_target is not None:
            return
        target.equiping_cards.add(self)
        self.equiping_target = target
        for peffect in self.equip_effect.all_effects():
            if peffect.is_disable_related():
                self.duel.add_to_disable_check_list(self.equiping_target)
        if send_msg:
            self.duel.emit(MsgEquip(card=_loc(self), target=_loc(target)))

    def unequip(self: "Card") -> None:
        """Detach this Equip Card; its former target is kept in ``pre_equip_target``."""
        if self.equiping_target is None:
            return
        for peffect in self.equip_effect.all_effects():
            if peffect.is_disable_related():
                self.duel.add_to_disable_check_list(self.equiping_target)
        self.equiping_target.equiping_cards.discard(self)
        self.pre_equip_target = self.equiping_target
        self.equiping_target = None

    def get_union_count(self: "Card") -> int:
        """Union monsters equipped to this card and treated as Equip Cards (EFFECT_UNION_STATUS)."""
        return sum(1 for pcard in self.equiping_cards
                   if (pcard.data.type & TYPE_UNION) and pcard.is_affected_by_effect(EFFECT_UNION_STATUS))

    def get_old_union_count(self: "Card") -> int:
        return sum(1 for pcard in self.equiping_cards
                   if (pcard.data.type & TYPE_UNION) and pcard.is_affected_by_effect(EFFECT_OLDUNION_STATUS))

    # ----- Xyz materials -----------------------------------------------------------------

    def xyz_overlay(self: "Card", materials: Iterable["Card"]) -> None:
        """Attach cards to this Xyz Monster as materials.

        Materials are handled in card_operation order.  Each one leaves its place
        (effects reset as RESET_LEAVE+RESET_OVERLAY, unequipped, its Equip Cards
        detached and later destroyed, targets cleared), a MSG_MOVE is written,
        and EVENT_LEAVE_GRAVE / EVENT_LEAVE_DECK are raised for cards that left
        the GY or a Deck.  If the top of a Deck becomes visible (a reversed Deck or
        a face-up top card), MSG_DECK_TOP comes first.
        """
        cv = sorted(materials, key=card_operation_key)
        if not cv:
            return
        duel = self.duel
        core = duel.core
        des = CardSet()
        leave_grave = CardSet()
        leave_deck = CardSet()
        if core.global_flag & GLOBALFLAG_DECK_REVERSE_CHECK:
            self._overlay_deck_top_check(cv)
        for pcard in cv:
            if pcard.overlay_target is self:
                continue
            pcard.current.reason = REASON_XYZ + REASON_MATERIAL
            pcard.reset(RESET_LEAVE + RESET_OVERLAY, RESET_EVENT)
            if pcard.unique_code:
                duel.remove_unique_card(pcard)
            if pcard.equiping_target is not None:
                pcard.unequip()
            des.update(pcard.equiping_cards)
            for equipc in list(pcard.equiping_cards):
                equipc.unequip()
            pcard.clear_card_target()
            previous = _loc(pcard)
            if pcard.overlay_target is not None:
                pcard.overlay_target.xyz_remove(pcard)
            else:
                pcard.enable_field_effect(False)
                duel.remove_card(pcard)
                duel.add_to_disable_check_list(pcard)
            self.xyz_add(pcard)
            if pcard.previous.location == LOCATION_GRAVE:
                leave_grave.add(pcard)
                duel.raise_single_event(pcard, None, EVENT_LEAVE_GRAVE, core.reason_effect,
                                        pcard.current.reason, core.reason_player, 0, 0)
            elif pcard.previous.location in (LOCATION_DECK, LOCATION_EXTRA):
                leave_deck.add(pcard)
                duel.raise_single_event(pcard, None, EVENT_LEAVE_DECK, core.reason_effect,
                                        pcard.current.reason, core.reason_player, 0, 0)
            duel.emit(MsgMove(code=pcard.data.code, previous=previous, current=_loc(pcard),
                              reason=pcard.current.reason))
        if leave_grave or leave_deck:
            if leave_grave:
                duel.raise_event(leave_grave, EVENT_LEAVE_GRAVE, core.reason_effect,
                                 REASON_XYZ + REASON_MATERIAL, core.reason_player, 0, 0)
            if leave_deck:
                duel.raise_event(leave_deck, EVENT_LEAVE_DECK, core.reason_effect,
                                 REASON_XYZ + REASON_MATERIAL, core.reason_player, 0, 0)
            duel.process_single_event()
            duel.process_instant_event()
        if des:
            duel.destroy(des, None, REASON_LOST_TARGET + REASON_RULE, PLAYER_NONE)
        else:
            duel.adjust_instant()

    def _overlay_deck_top_check(self: "Card", cv: list["Card"]) -> None:
        """MSG_DECK_TOP for each Deck whose top cards are about to become materials,
        when the card left on top is shown (a reversed Deck, or a face-up card)."""
        duel = self.duel
        for p in (0, 1):
            main = duel.player[p].list_main
            d = len(main) - 1
            s = d
            for pcard in cv:
                if pcard.current.location != LOCATION_DECK:
                    continue
                if pcard.current.controler == p and pcard.current.sequence == s:
                    s -= 1
            if s != d and s > 0:
                ptop = main[s]
                if duel.core.deck_reversed or ptop.current.position == POS_FACEUP_DEFENSE:
                    code = ptop.data.code
                    if ptop.current.position == POS_FACEUP_DEFENSE:
                        code |= 0x80000000
                    duel.emit(MsgDeckTop(player=p, sequence=(d - s) & 0xFF, code=code))

    def xyz_add(self: "Card", mat: "Card") -> None:
        """Put a card that is nowhere (location 0) under this card as its last material;
        the material's EFFECT_TYPE_FIELD xmaterial effects start to apply."""
        if mat.current.location != 0:
            return
        self.xyz_materials.append(mat)
        mat.overlay_target = self
        mat.current.controler = PLAYER_NONE
        mat.current.location = LOCATION_OVERLAY
        mat.current.sequence = (len(self.xyz_materials) - 1) & 0xFF
        for peffect in mat.xmaterial_effect.all_effects():
            if peffect.type & EFFECT_TYPE_FIELD:
                self.duel.add_effect(peffect)

    def xyz_remove(self: "Card", mat: "Card") -> None:
        """Detach a material (it goes to location 0, remembering where it was) and
        renumber the others."""
        if mat.overlay_target is not self or mat not in self.xyz_materials:
            return
        self.xyz_materials[:] = [c for c in self.xyz_materials if c is not mat]
        mat.previous.controler = mat.current.controler
        mat.previous.location = mat.current.location
        mat.previous.sequence = mat.current.sequence
        mat.previous.pzone = mat.current.pzone
        mat.current.controler = PLAYER_NONE
        mat.current.location = 0
        mat.current.sequence = 0
        mat.overlay_target = None
        for i, c in enumerate(self.xyz_materials):
            c.current.sequence = i & 0xFF
        for peffect in mat.xmaterial_effect.all_effects():
            if peffect.type & EFFECT_TYPE_FIELD:
                self.duel.remove_effect(peffect)

    # ----- field effects -----------------------------------------------------------------

    def apply_field_effect(self: "Card") -> None:
        """Register this card's field effects that work where it now is (or are hand
        triggers) with the duel; join the unique-on-field checks."""
        if self.current.controler == PLAYER_NONE:
            return
        for peffect in self.field_effect.all_effects():
            if peffect.in_range(self) or peffect.is_hand_trigger():
                self.duel.add_effect(peffect)
        if self.unique_code and (self.current.location & self.unique_location):
            self.duel.add_unique_card(self)
        self.spsummon_counter[0] = self.spsummon_counter[1] = 0

    def cancel_field_effect(self: "Card") -> None:
        if self.current.controler == PLAYER_NONE:
            return
        for peffect in self.field_effect.all_effects():
            self.duel.remove_effect(peffect)
        if self.unique_code and (self.current.location & self.unique_location):
            self.duel.remove_unique_card(self)

    def enable_field_effect(self: "Card", enabled: bool) -> None:
        """Switch STATUS_EFFECT_ENABLED (the card is ready: not moving, summoning or chaining).

        Enabling gives the card's effects that now apply fresh ids (so they sort
        after older effects), and drops RESET_DISABLE effects if the card is
        negated.  Either way the cards its negation-related effects reach are
        queued for a negation check.
        """
        if self.current.location == 0:
            return
        if bool(enabled) == bool(self.get_status(STATUS_EFFECT_ENABLED)):
            return
        self.refresh_disable_status()
        infos = self.duel.infos
        if enabled:
            self.set_status(STATUS_EFFECT_ENABLED, True)
            for peffect in self.single_effect.all_effects():
                if peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE) and peffect.in_range(self):
                    peffect.id = infos.field_id
                    infos.field_id += 1
            for peffect in self.field_effect.all_effects():
                if peffect.in_range(self):
                    peffect.id = infos.field_id
                    infos.field_id += 1
            if self.current.location == LOCATION_SZONE:
                for peffect in self.equip_effect.all_effects():
                    peffect.id = infos.field_id
                    infos.field_id += 1
            for peffect in self.target_effect.all_effects():
                if peffect.in_range(self):
                    peffect.id = infos.field_id
                    infos.field_id += 1
            if self.get_status(STATUS_DISABLED):
                self.reset(RESET_DISABLE, RESET_EVENT)
        else:
            self.set_status(STATUS_EFFECT_ENABLED, False)
        if self.get_status(STATUS_DISABLED | STATUS_FORBIDDEN):
            return
        self.filter_disable_related_cards()

    # ----- registering effects -----------------------------------------------------------

    def add_effect(self: "Card", peffect: "Effect | None") -> int:
        """Attach an effect to this card; returns its new id, or 0 when refused.

        Refused: an uncopyable effect while copying (kept for deletion), an effect
        already attached, a RESET_DISABLE single effect of this card while it is
        negated, a trigger on an event reserved for continuous effects, a chain
        effect owned by the rules' temporary card.

        A single effect that sets ATK/DEF (or original ATK/DEF) replaces the
        card's earlier ones it overrides.  Phase triggers default to once per
        turn; EFFECT_CANNOT_TRIGGER ignores immunity.
        """
        if peffect is None:
            return 0
        duel = self.duel
        core = duel.core
        if self.get_status(STATUS_COPYING_EFFECT) and peffect.is_flag(EFFECT_FLAG_UNCOPYABLE):
            _uncopy(duel)[peffect] = None
            return 0
        if peffect in self.indexer:
            return 0
        if (peffect.type & EFFECT_TYPE_SINGLE and not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)
                and peffect.owner is self and self.get_status(STATUS_DISABLED)
                and (peffect.reset_flag & RESET_DISABLE)):
            return 0
        if peffect.type & EFFECT_TYPES_TRIGGER_LIKE and is_continuous_event(peffect.code):
            return 0
        if peffect.type & EFFECT_TYPES_CHAIN_LINK and peffect.owner is duel.temp_card:
            return 0
        if (peffect.get_code_type() == CODE_PHASE and peffect.code & (PHASE_DRAW | PHASE_STANDBY | PHASE_END)
                and peffect.type & (EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_TRIGGER_F)
                and not peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT)):
            peffect.flag[0] |= EFFECT_FLAG_COUNT_LIMIT
            peffect.count_limit = 1
            peffect.count_limit_max = 1
        if peffect.code == EFFECT_CANNOT_TRIGGER:
            peffect.flag[0] |= EFFECT_FLAG_IGNORE_IMMUNE
        container, check_target = self._container_for(peffect)
        if container is None:
            return 0
        if container is self.single_effect:
            self._remove_replaced_single(peffect)
        container.add(peffect.code, peffect)
        if peffect.code in PRINTED_STAT_EFFECTS and container is not self.field_effect:
            duel.printed_stats_changed(self if container is self.single_effect else None)
        infos = duel.infos
        peffect.id = infos.field_id
        infos.field_id += 1
        peffect.card_type = self.data.type
        if self.get_status(STATUS_INITIALIZING):
            peffect.flag[0] |= EFFECT_FLAG_INITIAL
        elif self.get_status(STATUS_COPYING_EFFECT):
            peffect.flag[0] |= EFFECT_FLAG_COPY
        if self.get_status(STATUS_COPYING_EFFECT):
            peffect.copy_id = infos.copy_id
            peffect.reset_flag |= core.copy_reset
            peffect.reset_count = core.copy_reset_count
        reason_effect = core.reason_effect
        self.indexer[peffect] = container
        peffect.handler = self
        if peffect.is_flag(EFFECT_FLAG_INITIAL):
            self.initial_effect[peffect] = None
        elif peffect.is_flag(EFFECT_FLAG_COPY):
            self.owning_effect[peffect] = None
        if peffect.type & EFFECT_TYPE_FIELD:
            if peffect.in_range(self) or (self.current.controler != PLAYER_NONE and peffect.is_hand_trigger()):
                duel.add_effect(peffect)
        if self.current.controler != PLAYER_NONE and check_target and peffect.is_disable_related():
            for target in check_target:
                duel.add_to_disable_check_list(target)
        self._index_effect_resets(peffect, reason_effect)
        if peffect.is_flag(EFFECT_FLAG_CLIENT_HINT):
            duel.emit(MsgCardHint(loc=_loc(self), type=CHINT_DESC_ADD, value=peffect.description & 0xFFFFFFFF))
        if (peffect.type & EFFECT_TYPE_SINGLE and peffect.code == EFFECT_UPDATE_LEVEL
                and not peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE)):
            val = peffect.get_value(self)
            if val > 0:
                duel.raise_single_event(self, None, EVENT_LEVEL_UP, peffect, 0, 0, 0, val)
                duel.process_single_event()
        return peffect.id

    def _container_for(self: "Card", peffect: "Effect") -> tuple["EffectContainer | None", list["Card"]]:
        """The container an effect goes in, and the cards whose negation status it can touch."""
        if peffect.type & EFFECT_TYPE_SINGLE:
            return self.single_effect, [self]
        if peffect.type & EFFECT_TYPE_EQUIP:
            return self.equip_effect, [self.equiping_target] if self.equiping_target else []
        if peffect.type & EFFECT_TYPE_TARGET:
            return self.target_effect, list(self.effect_target_cards)
        if peffect.type & EFFECT_TYPE_XMATERIAL:
            return self.xmaterial_effect, [self.overlay_target] if self.overlay_target else []
        if peffect.type & EFFECT_TYPE_FIELD:
            return self.field_effect, [self]
        return None, []

    def _remove_replaced_single(self: "Card", peffect: "Effect") -> None:
        """A new non-range single ATK/DEF-setting effect removes the card's earlier
        non-range single effects it overrides (in container order)."""
        if peffect.is_flag(EFFECT_FLAG_SINGLE_RANGE):
            return
        codes = _REPLACED_BY.get(peffect.code)
        if not codes:
            return
        for old in self.single_effect.all_effects():
            if old.code in codes and not old.is_flag(EFFECT_FLAG_SINGLE_RANGE):
                self.remove_effect(old)

    def _index_effect_resets(self: "Card", peffect: "Effect", reason_effect: "Effect | None") -> None:
        """Record a new effect in the duel's lists of oath / phase-reset / chain-reset /
        count-limited effects."""
        effects = self.duel.effects
        if peffect.is_flag(EFFECT_FLAG_OATH):
            effects.oath[peffect] = reason_effect
        if peffect.reset_flag & RESET_PHASE:
            effects.pheff[peffect] = None
            if peffect.reset_count == 0:
                peffect.reset_count = 1
        if peffect.reset_flag & RESET_CHAIN:
            effects.cheff[peffect] = None
        if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
            effects.rechargeable[peffect] = None

    def remove_effect(self: "Card", peffect: "Effect") -> None:
        """Detach an effect from this card and undo everything add_effect recorded.

        Removing a counter permit takes the card's counters of that type off
        (MSG_REMOVE_COUNTER); removing a client-hint effect writes its hint
        removal; removing EFFECT_UNIQUE_CHECK ends the card's uniqueness rule.
        """
        container = self.indexer.get(peffect)
        if container is None:
            return
        duel = self.duel
        check_target: list[Card] = [self]
        erased: int | None = None
        if peffect.type & EFFECT_TYPE_SINGLE:
            erased = _container_erase(self.single_effect, peffect)
        elif peffect.type & EFFECT_TYPE_EQUIP:
            erased = _container_erase(self.equip_effect, peffect)
            check_target = [self.equiping_target] if self.equiping_target else []
        elif peffect.type & EFFECT_TYPE_TARGET:
            erased = _container_erase(self.target_effect, peffect)
            check_target = list(self.effect_target_cards)
        elif peffect.type & EFFECT_TYPE_XMATERIAL:
            erased = _container_erase(self.xmaterial_effect, peffect)
            check_target = [self.overlay_target] if self.overlay_target else []
        elif peffect.type & EFFECT_TYPE_FIELD:
            check_target = []
            if peffect.is_available() and peffect.is_disable_related():
                duel.update_disable_check_list(peffect)
            _container_erase(self.field_effect, peffect)
            duel.remove_effect(peffect)
        if erased in PRINTED_STAT_EFFECTS:
            duel.printed_stats_changed(self if peffect.type & EFFECT_TYPE_SINGLE else None)
        if (self.current.controler != PLAYER_NONE and not self.get_status(STATUS_DISABLED | STATUS_FORBIDDEN)
                and check_target and peffect.is_disable_related()):
            for target in check_target:
                duel.add_to_disable_check_list(target)
        del self.indexer[peffect]
        if peffect.is_flag(EFFECT_FLAG_INITIAL):
            self.initial_effect.pop(peffect, None)
        elif peffect.is_flag(EFFECT_FLAG_COPY):
            self.owning_effect.pop(peffect, None)
        effects = duel.effects
        if peffect.is_flag(EFFECT_FLAG_OATH):
            effects.oath.pop(peffect, None)
        if peffect.reset_flag & RESET_PHASE:
            effects.pheff.pop(peffect, None)
        if peffect.reset_flag & RESET_CHAIN:
            effects.cheff.pop(peffect, None)
        if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
            effects.rechargeable.pop(peffect, None)
        if (peffect.get_code_type() == CODE_COUNTER and (peffect.code & 0xF0000) == EFFECT_COUNTER_PERMIT
                and peffect.type & EFFECT_TYPE_SINGLE):
            ctype = peffect.code & 0xFFFF
            if ctype in self.counters:
                count = self.counters.pop(ctype)
                self._emit_counter(MsgRemoveCounter, ctype, count)
        if peffect.is_flag(EFFECT_FLAG_CLIENT_HINT):
            duel.emit(MsgCardHint(loc=_loc(self), type=CHINT_DESC_REMOVE,
                                  value=peffect.description & 0xFFFFFFFF))
        if peffect.code == EFFECT_UNIQUE_CHECK:
            duel.remove_unique_card(self)
            self.unique_pos[0] = self.unique_pos[1] = 0
            self.unique_code = 0
        duel.core.reseted_effects[peffect] = None

    def _emit_counter(self: "Card", cls: Any, ctype: int, count: int) -> None:
        cur = self.current
        self.duel.emit(cls(counter_type=ctype & 0xFFFF, controller=cur.controler & 0xFF,
                           location=cur.location & 0xFF, sequence=cur.sequence & 0xFF, count=count & 0xFFFF))

    def _run_initial_effect_of(self: "Card", code: int, reset: int, count: int, replacing: bool) -> int:
        """Shared part of copy_effect / replace_effect: run card ``code``'s
        initial_effect on this card in copying mode."""
        duel = self.duel
        core = duel.core
        cr, crc = core.copy_reset, core.copy_reset_count
        core.copy_reset = reset
        core.copy_reset_count = count
        flags = STATUS_INITIALIZING | STATUS_COPYING_EFFECT if replacing else STATUS_COPYING_EFFECT
        self.set_status(flags, True)
        duel.script.call_code_function(code, "initial_effect", self)
        if replacing:
            self.set_status(flags, False)
            duel.infos.copy_id += 1
        else:
            duel.infos.copy_id += 1
            self.set_status(flags, False)
        core.copy_reset = cr
        core.copy_reset_count = crc
        if replacing:
            self.set_status(STATUS_EFFECT_REPLACED, True)
        uncopy = _uncopy(duel)
        for peffect in list(uncopy):
            duel.delete_effect(peffect)
        uncopy.clear()
        if (self.data.type & TYPE_MONSTER) and not (self.data.type & TYPE_EFFECT):
            # a Normal Monster that gains effects becomes an Effect Monster meanwhile
            peffect = duel.new_effect()
            reason_effect = core.reason_effect
            peffect.owner = reason_effect.get_handler() if reason_effect is not None else self
            peffect.handler = self
            peffect.type = EFFECT_TYPE_SINGLE
            peffect.code = EFFECT_ADD_TYPE
            peffect.value = TYPE_EFFECT
            peffect.flag[0] = EFFECT_FLAG_CANNOT_DISABLE
            peffect.reset_flag = reset
            peffect.reset_count = count
            self.add_effect(peffect)
        return duel.infos.copy_id - 1

    def copy_effect(self: "Card", code: int, reset: int, count: int) -> int:
        """Give this card the effects of card ``code`` (until ``reset``, default the
        standard resets); returns the copy id, or -1 for a Normal card."""
        if self._read_card(code).type & TYPE_NORMAL:
            return -1
        if not reset:
            reset = RESETS_STANDARD
        return self._run_initial_effect_of(code, reset, count, replacing=False)

    def replace_effect(self: "Card", code: int, reset: int, count: int) -> int:
        """Replace this card's own effects with those of card ``code``; returns the copy
        id, or -1 for a Normal card.  The card's original effects come back when a
        replacing effect resets (see reset)."""
        if self._read_card(code).type & TYPE_NORMAL:
            return -1
        if not reset:
            reset = RESETS_STANDARD
        if self.is_status(STATUS_EFFECT_REPLACED):
            self.set_status(STATUS_EFFECT_REPLACED, False)
        for peffect in list(self.indexer):
            if peffect in self.indexer and peffect.is_flag(EFFECT_FLAG_INITIAL):
                self.remove_effect(peffect)
        return self._run_initial_effect_of(code, reset, count, replacing=True)

    # ----- resets ------------------------------------------------------------------------

    def reset(self: "Card", id: int, reset_type: int) -> None:
        """Apply a reset (RESET_EVENT / PHASE / CODE / COPY / CARD) to this card.

        For RESET_EVENT, ``id`` says what happened and clears the matching
        bookkeeping first: relations, attack records, battle records, effect
        counts, counters, zone-usage marks, the previous equip target, and the
        counters of permitted types when the card is negated.  Then each effect
        whose reset matches is removed; if that drops a replacing copy of the
        card's own effects, the card's script runs again to restore them.
        """
        if reset_type not in (RESET_EVENT, RESET_PHASE, RESET_CODE, RESET_COPY, RESET_CARD):
            return
        if reset_type == RESET_EVENT:
            self._reset_event_bookkeeping(id)
        elif reset_type == RESET_COPY:
            self.delete_card_target(True)
            self.effect_target_cards.clear()
        reload = False
        # the reference walks an unordered map keyed by effect address; in practice
        # that is newest first (as the hand shuffle's hints, zones.py)
        for peffect in reversed(list(self.indexer)):
            if peffect not in self.indexer:
                continue
            if peffect.reset(id, reset_type):
                if (self.is_status(STATUS_EFFECT_REPLACED) and peffect.is_flag(EFFECT_FLAG_INITIAL)
                        and peffect.copy_id):
                    reload = True
                self.remove_effect(peffect)
        if reload:
            self.set_status(STATUS_EFFECT_REPLACED, False)
            if self._is_load_script():
                self.set_status(STATUS_INITIALIZING, True)
                self.duel.script.call_card_function(self, "initial_effect", self)
                self.set_status(STATUS_INITIALIZING, False)

    def _is_load_script(self: "Card") -> bool:
        """Cards with a script: all but Normal non-Pendulum cards and the temporary card."""
        data = self.data
        if data.code == TEMP_CARD_ID:
            return False
        return not (data.type & TYPE_NORMAL) or bool(data.type & TYPE_PENDULUM)

    def _reset_event_bookkeeping(self: "Card", id: int) -> None:
        """The part of reset(id, RESET_EVENT) that is not about effects."""
        for target, rflag in list(self.relations.items()):
            if rflag & 0xFFFF0000 & id:
                del self.relations[target]
        if id & _RESETS_MOVED:
            self.clear_relate_effect()
        if id & (_RESETS_MOVED | RESET_LEAVE | RESET_TOFIELD):
            self.indestructable_effects.clear()
            self.announced_cards.clear()
            self.attacked_cards.clear()
            self.attack_announce_count = 0
            self.announce_count = 0
            self.attacked_count = 0
            self.attack_all_target = True
        if id & (_RESETS_MOVED | RESET_LEAVE | RESET_TOFIELD | RESET_TURN_SET):
            self.battled_cards.clear()
            self.reset_effect_count()
            for peffect in self.field_effect.equal_range(EFFECT_DISABLE_FIELD):
                if not peffect.is_flag(EFFECT_FLAG_FUNC_VALUE):
                    peffect.value = 0
        if id & (_RESETS_MOVED | RESET_TOFIELD | RESET_TURN_SET):
            self.counters.clear()
        if id & (RESET_TODECK | RESET_TOHAND | RESET_TOGRAVE | RESET_REMOVE | RESET_TEMP_REMOVE
                 | RESET_LEAVE | RESET_TOFIELD | RESET_TURN_SET | RESET_CONTROL):
            # forget which extra zones these effects already used (kept in the high bits)
            for code in (EFFECT_USE_EXTRA_MZONE, EFFECT_USE_EXTRA_SZONE):
                for peffect in self.field_effect.equal_range(code):
                    if isinstance(peffect.value, int):
                        peffect.value = peffect.value & 0xFFFF
        if id & RESET_TOFIELD:
            self.pre_equip_target = None
        if id & RESET_DISABLE:
            # counters that need a permit go away when the card is negated
            for ctype in sorted(self.counters):
                if ctype & COUNTER_WITHOUT_PERMIT:
                    continue
                count = self.counters.pop(ctype)
                self._emit_counter(MsgRemoveCounter, ctype, count)

    def reset_effect_count(self: "Card") -> None:
        """Recharge every count-limited effect of the card."""
        for peffect in list(self.indexer):
            if peffect.is_flag(EFFECT_FLAG_COUNT_LIMIT):
                peffect.recharge()

    def refresh_disable_status(self: "Card") -> None:
        """Recompute STATUS_FORBIDDEN (EFFECT_FORBIDDEN) and STATUS_DISABLED
        (EFFECT_DISABLE unless EFFECT_CANNOT_DISABLE), after refreshing the immunities."""
        self.filter_immune_effect()
        if not self.duel.effects.holds(EFFECT_FORBIDDEN, EFFECT_DISABLE, EFFECT_CANNOT_DISABLE):
            self.status &= ~(STATUS_FORBIDDEN | STATUS_DISABLED)    # (only skips look-ups)
            return
        self.set_status(STATUS_FORBIDDEN, self.is_affected_by_effect(EFFECT_FORBIDDEN) is not None)
        disabled = (self.is_affected_by_effect(EFFECT_CANNOT_DISABLE) is None
                    and self.is_affected_by_effect(EFFECT_DISABLE) is not None)
        self.set_status(STATUS_DISABLED, disabled)

    def refresh_control_status(self: "Card") -> tuple[int, "Effect | None"]:
        """Who should control this card: (player, the EFFECT_SET_CONTROL deciding it or None).

        The newest EFFECT_SET_CONTROL decides; while brainwashing is being lifted,
        one older than the last control change does not count.
        """
        final = self.owner
        ceffect = None
        last_id = 0
        core = self.duel.core
        if core.remove_brainwashing and self.is_affected_by_effect(EFFECT_REMOVE_BRAINWASHING):
            last_id = core.last_control_changed_id
        eset = self.filter_effect(EFFECT_SET_CONTROL)
        if eset:
            peffect = eset[-1]
            if peffect.id >= last_id:
                final = peffect.get_value(self) & 0xFF
                ceffect = peffect
        return final, ceffect

    def count_turn(self: "Card", ct: int) -> None:
        """Set the card's turn counter and show it (MSG_CARD_HINT CHINT_TURN)."""
        self.turn_counter = ct & 0xFFFF
        self.duel.emit(MsgCardHint(loc=_loc(self), type=CHINT_TURN, value=ct & 0xFFFFFFFF))

    # ----- relations -----------------------------------------------------------------------

    def create_relation(self: "Card", target: Any, reset: int = 0) -> None:
        """Relate this card to a card (``reset``: the RESET_EVENT bits that end it), a
        chain link, or an effect (the newest chain link of that effect, else the
        effect outside any chain).  One name for the reference's three overloads."""
        if isinstance(target, Chain):
            self.relate_effect[(target.triggering_effect, target.chain_id & 0xFFFF)] = None
            return
        if _is_card(target):
            if target not in self.relations:
                self.relations[target] = reset
            return
        for ch in reversed(self.duel.core.current_chain):
            if ch.triggering_effect is target:
                self.create_relation(ch)
                return
        self.relate_effect[(target, 0)] = None

    def is_has_relation(self: "Card", target: Any) -> bool:
        """Related to this card / chain link / effect (any chain link of it)."""
        if isinstance(target, Chain):
            return (target.triggering_effect, target.chain_id & 0xFFFF) in self.relate_effect
        if _is_card(target):
            return target in self.relations
        return any(peffect is target for peffect, _ in self.relate_effect)

    def release_relation(self: "Card", target: Any) -> None:
        if isinstance(target, Chain):
            self.relate_effect.pop((target.triggering_effect, target.chain_id & 0xFFFF), None)
            return
        if _is_card(target):
            self.relations.pop(target, None)
            return
        for ch in reversed(self.duel.core.current_chain):
            if ch.triggering_effect is target:
                self.release_relation(ch)
                return
        self.relate_effect.pop((target, 0), None)

    def clear_relate_effect(self: "Card") -> None:
        self.relate_effect.clear()

    # ----- where a leaving card goes ---------------------------------------------------------

    def _redirect_allowed(self: "Card", peffect: "Effect", redirect: int, with_grave: bool) -> bool:
        """The player of the redirect effect may send this card to the first of hand,
        Deck, banishment (and GY) that the redirect names."""
        duel = self.duel
        p = peffect.get_handler_player()
        if ((redirect & LOCATION_HAND) and not self.is_affected_by_effect(EFFECT_CANNOT_TO_HAND)
                and duel.is_player_can_send_to_hand(p, self)):
            return True
        if ((redirect & LOCATION_DECK) and not self.is_affected_by_effect(EFFECT_CANNOT_TO_DECK)
                and duel.is_player_can_send_to_deck(p, self)):
            return True
        if ((redirect & LOCATION_REMOVED) and not self.is_affected_by_effect(EFFECT_CANNOT_REMOVE)
                and duel.is_player_can_remove(p, self, REASON_EFFECT | REASON_REDIRECT, peffect)):
            return True
        if (with_grave and (redirect & LOCATION_GRAVE) and not self.is_affected_by_effect(EFFECT_CANNOT_TO_GRAVE)
                and duel.is_player_can_send_to_grave(p, self)):
            return True
        return False

    def leave_field_redirect(self: "Card", reason: int) -> int:
        """Where EFFECT_LEAVE_FIELD_REDIRECT sends this card instead, or 0.

        All usable redirects are combined; banishment wins, then the Deck (bottom,
        then shuffled, then plain), then the hand.  Tokens are never redirected.
        """
        if self.data.type & TYPE_TOKEN:
            return 0
        redirects = 0
        for peffect in self.filter_effect(EFFECT_LEAVE_FIELD_REDIRECT):
            redirect = peffect.get_value(self) & 0xFFFFFFFF
            # each redirect counts if its first usable destination (hand, Deck, banished) is allowed
            if self._redirect_allowed(peffect, redirect, with_grave=False):
                redirects |= redirect
        if redirects & LOCATION_REMOVED:
            return LOCATION_REMOVED
        if redirects & LOCATION_DECK:
            if (redirects & LOCATION_DECKBOT) == LOCATION_DECKBOT:
                return LOCATION_DECKBOT
            if (redirects & LOCATION_DECKSHF) == LOCATION_DECKSHF:
                return LOCATION_DECKSHF
            return LOCATION_DECK
        if redirects & LOCATION_HAND:
            return LOCATION_HAND
        return 0

    def destination_redirect(self: "Card", destination: int, reason: int) -> int:
        """Where EFFECT_TO_HAND/TO_DECK/TO_GRAVE/REMOVE_REDIRECT sends this card instead
        of ``destination``, or 0: the first redirect (in effect order) that is allowed."""
        if self.data.type & TYPE_TOKEN:
            return 0
        destination &= 0xFF  # the reference takes the destination as a byte
        code = {LOCATION_HAND: EFFECT_TO_HAND_REDIRECT, LOCATION_DECK: EFFECT_TO_DECK_REDIRECT,
                LOCATION_GRAVE: EFFECT_TO_GRAVE_REDIRECT, LOCATION_REMOVED: EFFECT_REMOVE_REDIRECT}.get(destination)
        if code is None:
            return 0
        for peffect in self.filter_effect(code):
            redirect = peffect.get_value(self) & 0xFFFFFFFF
            if self._redirect_allowed(peffect, redirect, with_grave=True):
                return redirect
        return 0

    # ----- counters ----------------------------------------------------------------------

    def add_counter(self: "Card", playerid: int, countertype: int, count: int, singly: int | bool) -> bool:
        """Place counters (MSG_ADD_COUNTER, then EVENT_ADD_COUNTER+type).

        ``singly``: the counters are placed one by one, so a counter limit caps
        the number placed instead of refusing the whole placement.
        """
        countertype &= 0xFFFF
        if not self.is_can_add_counter(playerid, countertype, count, singly, 0):
            return False
        cttype = countertype
        self.counters.setdefault(cttype, 0)
        pcount = count & 0xFFFF
        if singly:
            eset = self.filter_effect(EFFECT_COUNTER_LIMIT + cttype)
            limit = eset[-1].get_value() if eset else 0
            if limit:
                mcount = max(limit - self.get_counter(cttype), 0)
                if pcount > mcount:
                    pcount = mcount & 0xFFFF
        self.counters[cttype] = (self.counters[cttype] + pcount) & 0xFFFF
        self._emit_counter(MsgAddCounter, cttype, pcount)
        core = self.duel.core
        self.duel.raise_single_event(self, None, EVENT_ADD_COUNTER + countertype, core.reason_effect,
                                     REASON_EFFECT, playerid, playerid, pcount)
        self.duel.process_single_event()
        return True

    def remove_counter(self: "Card", countertype: int, count: int) -> bool:
        """Take up to ``count`` counters off (MSG_REMOVE_COUNTER with the number removed)."""
        countertype &= 0xFFFF
        cur = self.counters.get(countertype)
        if cur is None:
            return False
        remove_count = count & 0xFFFF
        if cur <= remove_count:
            remove_count = cur
            del self.counters[countertype]
        else:
            self.counters[countertype] = cur - remove_count
        self._emit_counter(MsgRemoveCounter, countertype, remove_count)
        return True

    def is_can_add_counter(self: "Card", playerid: int, countertype: int, count: int,
                           singly: int | bool, loc: int) -> bool:
        """Can ``playerid`` put these counters on this card?

        ``loc`` 0 means "on the field now" (it must be face-up there); otherwise
        the question is for a card going to ``loc`` and a permit must work there.
        A type with COUNTER_WITHOUT_PERMIT needs no EFFECT_COUNTER_PERMIT.  An
        EFFECT_COUNTER_LIMIT caps the total (one counter at a time if ``singly``).
        """
        countertype &= 0xFFFF
        if not self.duel.is_player_can_place_counter(playerid, self, countertype, count):
            return False
        if not loc and (not (self.current.location & LOCATION_ONFIELD) or not self.is_position(POS_FACEUP)):
            return False
        check: int | bool = countertype & COUNTER_WITHOUT_PERMIT
        if not check:
            for peffect in self.filter_effect(EFFECT_COUNTER_PERMIT + countertype):
                check = (loc & peffect.range) if loc else True
                if check:
                    break
        if not check:
            return False
        limit = -1
        cur = self.counters.get(countertype, 0)
        eset = self.filter_effect(EFFECT_COUNTER_LIMIT + countertype)
        if eset:
            limit = eset[-1].get_value()
        if limit > 0 and cur + (1 if singly else count) > limit:
            return False
        return True

    def is_can_have_counter(self: "Card", countertype: int) -> bool:
        """Does this card have a counter permit of this type of its own (one that is
        ready, when the card is on the field)?"""
        countertype &= 0xFFFF
        if countertype & COUNTER_WITHOUT_PERMIT:
            return False
        eset = self.filter_self_effect(EFFECT_COUNTER_PERMIT + countertype)
        if self.current.is_location(LOCATION_ONFIELD):
            return any(peffect.is_single_ready() for peffect in eset)
        return bool(eset)

    def get_counter(self: "Card", countertype: int) -> int:
        return self.counters.get(countertype & 0xFFFF, 0)

    # ----- materials and targets ---------------------------------------------------------

    def set_material(self: "Card", materials: Iterable["Card"] | None) -> None:
        """Record the materials used to summon this card (each gets it as reason card)
        and let its EFFECT_MATERIAL_CHECK values see them."""
        if materials is None:
            self.material_cards.clear()
        else:
            self.material_cards = CardSet(materials)
        for pcard in self.material_cards:
            pcard.current.reason_card = self
        for peffect in self.filter_effect(EFFECT_MATERIAL_CHECK):
            peffect.get_value(self)

    def _queue_target_check(self: "Card", owner: "Card", pcard: "Card") -> None:
        """One disable check of ``pcard`` per negation-related target effect of ``owner``."""
        for peffect in owner.target_effect.all_effects():
            if peffect.is_disable_related():
                self.duel.add_to_disable_check_list(pcard)

    def add_card_target(self: "Card", pcard: "Card") -> None:
        """This card now keeps targeting ``pcard`` (MSG_CARD_TARGET)."""
        self.effect_target_cards.add(pcard)
        pcard.effect_target_owner.add(self)
        self._queue_target_check(self, pcard)
        self.duel.emit(MsgCardTarget(card=_loc(self), target=_loc(pcard)))

    def cancel_card_target(self: "Card", pcard: "Card") -> None:
        if pcard in self.effect_target_cards:
            self.effect_target_cards.discard(pcard)
            pcard.effect_target_owner.discard(self)
            self._queue_target_check(self, pcard)
            self.duel.emit(MsgCancelTarget(card=_loc(self), target=_loc(pcard)))

    def delete_card_target(self: "Card", send_msg: bool | int) -> None:
        """Stop targeting every card this card targets: they lose the single effects
        this card gave them with EFFECT_FLAG_OWNER_RELATE.  ``effect_target_cards``
        itself is left as it is (callers clear it)."""
        for pcard in self.effect_target_cards:
            pcard.effect_target_owner.discard(self)
            self._queue_target_check(self, pcard)
            for peffect in pcard.single_effect.all_effects():
                if peffect.owner is self and peffect.is_flag(EFFECT_FLAG_OWNER_RELATE):
                    pcard.remove_effect(peffect)
            if send_msg:
                self.duel.emit(MsgCancelTarget(card=_loc(self), target=_loc(pcard)))

    def clear_card_target(self: "Card") -> None:
        """Drop every lasting-target link of this card, both ways (no messages)."""
        for pcard in self.effect_target_owner:
            pcard.effect_target_cards.discard(self)
            self._queue_target_check(pcard, self)
        self.delete_card_target(False)
        self.effect_target_owner.clear()
        self.effect_target_cards.clear()

    def set_special_summon_status(self: "Card", peffect: "Effect") -> None:
        """Record, in ``spsummon``, the stats of what Special Summoned this card.

        A built-in summon procedure (uncopyable, cannot-be-negated) records
        nothing.  Otherwise, for a summon by a non-chain effect, or by a chain
        link whose card is still related to it (and is not a Trap Monster), the
        summoning card's current stats are recorded; else the stats the chain
        link recorded when it was activated.
        """
        sp = self.spsummon
        if (peffect.code in (EFFECT_SPSUMMON_PROC, EFFECT_SPSUMMON_PROC_G)
                and peffect.is_flag(EFFECT_FLAG_CANNOT_DISABLE) and peffect.is_flag(EFFECT_FLAG_UNCOPYABLE)):
            sp.code = sp.code2 = sp.type = sp.level = sp.rank = 0
            sp.attribute = sp.race = sp.attack = sp.defense = 0
            sp.setcode = ()
            sp.reason_effect = None
            sp.reason_player = PLAYER_NONE
            return
        pcard = peffect.get_handler()
        chain = self.duel.core.current_chain
        cait = chain[-1] if chain else None
        if (not (peffect.type & EFFECT_TYPES_CHAIN_LINK) or cait is None
                or (pcard.is_has_relation(cait) and not (pcard.get_type() & TYPE_TRAPMONSTER))):
            sp.code = pcard.get_code()
            sp.code2 = pcard.get_another_code()
            sp.type = pcard.get_type()
            sp.level = pcard.get_level()
            sp.rank = pcard.get_rank()
            sp.attribute = pcard.get_attribute()
            sp.race = pcard.get_race()
            sp.attack, sp.defense = pcard.get_atk_def()
            sp.setcode = tuple(e.get_value(pcard) & 0xFFFF for e in pcard.filter_effect(EFFECT_ADD_SETCODE))
            sp.reason_effect = peffect
            sp.reason_player = cait.triggering_player if chain else self.summon_player
        else:
            pcard = cait.triggering_effect.get_handler()
            ts = cait.triggering_state
            sp.code = ts.code
            sp.code2 = ts.code2
            sp.type = cait.triggering_effect.card_type
            sp.level = ts.level
            sp.rank = ts.rank
            sp.attribute = ts.attribute
            sp.race = ts.race
            sp.attack = ts.attack
            sp.defense = ts.defense
            sp.setcode = tuple(e.get_value(pcard) & 0xFFFF for e in pcard.filter_effect(EFFECT_ADD_SETCODE))
            sp.reason_effect = cait.triggering_effect
            sp.reason_player = cait.triggering_player

    # ----- which effects apply to this card ------------------------------------------------

    def filter_effect_container(self: "Card", container: "EffectContainer", code: int,
                                f: EffectFilter, eset: Any) -> Any:
        """Add the effects of ``code`` in ``container`` that pass ``f`` to ``eset``
        (a list, or a dict used as an ordered set); returns ``eset``."""
        for peffect in container.equal_range(code):
            if f(self, peffect):
                if isinstance(eset, list):
                    eset.append(peffect)
                else:
                    eset[peffect] = None
        return eset

    def filter_effect(self: "Card", code: int, eset: list["Effect"] | None = None,
                      sort: bool | int = True) -> list["Effect"]:
        """Every available effect of ``code`` that applies to this card: its own single
        effects, its Equip Cards' equip effects, its lasting targeters' target
        effects, its materials' xmaterial effects and the field's aura effects
        (sorted by effect order when ``sort``)."""
        if eset is None:
            eset = []
        effects = self.duel.effects
        # (the presence tests only skip work: this runs for every stat a script reads,
        # and almost always for a code no effect has)
        if code in effects.card_codes:
            fec = self.filter_effect_container
            if code in self.single_effect:
                fec(self.single_effect, code, default_single_filter, eset)
            if self.equiping_cards:
                for pcard in self.equiping_cards:
                    fec(pcard.equip_effect, code, default_equip_filter, eset)
            if self.effect_target_owner:
                for pcard in self.effect_target_owner:
                    fec(pcard.target_effect, code, default_target_filter, eset)
            if self.xyz_materials:
                for pcard in list(self.xyz_materials):
                    fec(pcard.xmaterial_effect, code, default_xmaterial_filter, eset)
        if code in effects.aura_effect:
            self.filter_effect_container(effects.aura_effect, code, default_aura_filter, eset)
        if sort and len(eset) > 1:
            eset.sort(key=effect_sort_key)
        return eset

    def filter_single_continuous_effect(self: "Card", code: int, eset: list["Effect"] | None = None,
                                        sort: bool | int = True) -> list["Effect"]:
        """Like filter_effect without the availability checks and without field effects."""
        if eset is None:
            eset = []
        fec = self.filter_effect_container
        fec(self.single_effect, code, accept_filter, eset)
        for pcard in self.equiping_cards:
            fec(pcard.equip_effect, code, accept_filter, eset)
        for pcard in self.effect_target_owner:
            fec(pcard.target_effect, code, _target_only_filter, eset)
        for pcard in list(self.xyz_materials):
            fec(pcard.xmaterial_effect, code, _not_field_filter, eset)
        if sort and len(eset) > 1:
            eset.sort(key=effect_sort_key)
        return eset

    def filter_self_effect(self: "Card", code: int, eset: list["Effect"] | None = None,
                           sort: bool | int = True) -> list["Effect"]:
        """The card's own range effects (SINGLE_RANGE) and its materials' xmaterial effects of ``code``."""
        if eset is None:
            eset = []
        self.filter_effect_container(self.single_effect, code, _single_range_filter, eset)
        for pcard in list(self.xyz_materials):
            self.filter_effect_container(pcard.xmaterial_effect, code, _not_field_filter, eset)
        if sort and len(eset) > 1:
            eset.sort(key=effect_sort_key)
        return eset

    def filter_immune_effect(self: "Card") -> None:
        """Refresh ``immune_effect``: every EFFECT_IMMUNE_EFFECT that may apply to this
        card (availability is checked when used), in effect order."""
        imm: list[Effect] = []
        effects = self.duel.effects
        if EFFECT_IMMUNE_EFFECT not in effects.card_codes and EFFECT_IMMUNE_EFFECT not in effects.aura_effect:
            self.immune_effect = imm
            return
        fec = self.filter_effect_container
        fec(self.single_effect, EFFECT_IMMUNE_EFFECT, accept_filter, imm)
        for pcard in self.equiping_cards:
            fec(pcard.equip_effect, EFFECT_IMMUNE_EFFECT, accept_filter, imm)
        for pcard in self.effect_target_owner:
            fec(pcard.target_effect, EFFECT_IMMUNE_EFFECT, _target_only_filter, imm)
        for pcard in list(self.xyz_materials):
            fec(pcard.xmaterial_effect, EFFECT_IMMUNE_EFFECT, _not_field_filter, imm)
        fec(self.duel.effects.aura_effect, EFFECT_IMMUNE_EFFECT, _target_only_filter, imm)
        imm.sort(key=effect_sort_key)
        self.immune_effect = imm

    def filter_disable_related_cards(self: "Card") -> None:
        """Queue for a negation check every card this card's negation-related effects
        reach: a field effect's targets, the equipped card, the lasting targets,
        the Xyz Monster this card is a material of."""
        duel = self.duel
        for peffect in list(self.indexer):
            if not peffect.is_disable_related():
                continue
            if peffect.type & EFFECT_TYPE_FIELD:
                duel.update_disable_check_list(peffect)
            elif (peffect.type & EFFECT_TYPE_EQUIP) and self.equiping_target is not None:
                duel.add_to_disable_check_list(self.equiping_target)
            elif (peffect.type & EFFECT_TYPE_TARGET) and self.effect_target_cards:
                for target in self.effect_target_cards:
                    duel.add_to_disable_check_list(target)
            elif (peffect.type & EFFECT_TYPE_XMATERIAL) and self.overlay_target is not None:
                duel.add_to_disable_check_list(self.overlay_target)

    # ----- summon procedures -------------------------------------------------------------

    def filter_summon_procedure(self: "Card", playerid: int, peset: list["Effect"], ignore_count: int,
                                min_tribute: int, zone: int) -> int:
        """Add the usable Normal Summon procedures (EFFECT_SUMMON_PROC) to ``peset``
        and say whether an ordinary Normal/Tribute Summon is possible.

        Returns -2 when the card has EFFECT_LIMIT_SUMMON_PROC but none is usable,
        -1 when it has them and some are usable (then only those are added),
        else 1 if an ordinary summon is possible, 0 if not.
        """
        return self._filter_proc(playerid, peset, ignore_count, min_tribute, zone, summon=True)

    def filter_set_procedure(self: "Card", playerid: int, peset: list["Effect"], ignore_count: int,
                             min_tribute: int, zone: int) -> int:
        """filter_summon_procedure for Setting a monster (EFFECT_LIMIT_SET_PROC /
        EFFECT_SET_PROC / EFFECT_EXTRA_SET_COUNT / EFFECT_DECREASE_TRIBUTE_SET)."""
        return self._filter_proc(playerid, peset, ignore_count, min_tribute, zone, summon=False)

    def _filter_proc(self: "Card", playerid: int, peset: list["Effect"], ignore_count: int,
                     min_tribute: int, zone: int, summon: bool) -> int:
        duel = self.duel
        core = duel.core
        limit_code, proc_code = ((EFFECT_LIMIT_SUMMON_PROC, EFFECT_SUMMON_PROC) if summon
                                 else (EFFECT_LIMIT_SET_PROC, EFFECT_SET_PROC))
        check = self.check_summon_procedure if summon else self.check_set_procedure
        eset = self.filter_effect(limit_code)
        if eset:
            for peffect in eset:
                if check(peffect, playerid, ignore_count, min_tribute, zone):
                    peset.append(peffect)
            return -1 if peset else -2
        for peffect in self.filter_effect(proc_code):
            if check(peffect, playerid, ignore_count, min_tribute, zone):
                peset.append(peffect)
        # the ordinary Normal Summon / Set
        can = duel.is_player_can_summon if summon else duel.is_player_can_mset
        if not can(SUMMON_TYPE_NORMAL, playerid, self, playerid):
            return 0
        if summon and duel.check_unique_onfield(self, playerid, LOCATION_MZONE):
            return 0
        rcount = self.get_summon_tribute_count() if summon else self.get_set_tribute_count()
        tmin = rcount & 0xFFFF
        tmax = (rcount >> 16) & 0xFFFF
        if not can(SUMMON_TYPE_ADVANCE, playerid, self, playerid):
            tmax = 0
        if tmin < min_tribute:
            tmin = min_tribute
        if tmax < tmin:
            return 0
        pos = () if summon else (POS_FACEDOWN_DEFENSE,)
        if (not ignore_count and not core.extra_summon[playerid]
                and core.summon_count[playerid] >= duel.get_summon_count_limit(playerid)):
            extra_code = EFFECT_EXTRA_SUMMON_COUNT if summon else EFFECT_EXTRA_SET_COUNT
            for peffect in self.filter_effect(extra_code):
                new_min, new_zone, releasable = _extra_count_args(peffect.get_values(self))
                if new_min < tmin:
                    new_min = tmin
                new_zone &= zone
                if duel.check_tribute(self, new_min, tmax, None, self.current.controler,
                                      new_zone, releasable, *pos):
                    return 1
            return 0
        if summon:
            return int(bool(duel.check_tribute(self, tmin, tmax, None, self.current.controler, zone)))
        return int(bool(duel.check_tribute(self, tmin, tmax, None, self.current.controler, zone,
                                           0xFF00FF, POS_FACEDOWN_DEFENSE)))

    def check_summon_procedure(self: "Card", proc: "Effect", playerid: int, ignore_count: int,
                               min_tribute: int, zone: int) -> bool:
        """Is this EFFECT_SUMMON_PROC / LIMIT_SUMMON_PROC usable now?

        Its count limit, the summon permission (to the opponent's field with
        EFFECT_FLAG_SPSUM_PARAM and an o_range), uniqueness, and its condition --
        once per extra Normal Summon effect when the normal count is used up.
        """
        return self._check_proc(proc, playerid, ignore_count, min_tribute, zone, summon=True)

    def check_set_procedure(self: "Card", proc: "Effect", playerid: int, ignore_count: int,
                            min_tribute: int, zone: int) -> bool:
        """check_summon_procedure for a Set procedure (no uniqueness check)."""
        return self._check_proc(proc, playerid, ignore_count, min_tribute, zone, summon=False)

    def _check_proc(self: "Card", proc: "Effect", playerid: int, ignore_count: int,
                    min_tribute: int, zone: int, summon: bool) -> bool:
        duel = self.duel
        core = duel.core
        if not proc.check_count_limit(playerid):
            return False
        toplayer = playerid
        if proc.is_flag(EFFECT_FLAG_SPSUM_PARAM) and proc.o_range:
            toplayer = 1 - playerid
        can = duel.is_player_can_summon if summon else duel.is_player_can_mset
        if not can(proc.get_value(self) & 0xFFFFFFFF, playerid, self, toplayer):
            return False
        if summon and duel.check_unique_onfield(self, toplayer, LOCATION_MZONE):
            return False
        # the script checks min_tribute itself (Duel.CheckTribute)
        if (not ignore_count and not core.extra_summon[playerid]
                and core.summon_count[playerid] >= duel.get_summon_count_limit(playerid)):
            extra_code = EFFECT_EXTRA_SUMMON_COUNT if summon else EFFECT_EXTRA_SET_COUNT
            for peffect in self.filter_effect(extra_code):
                new_min, new_zone, releasable = _extra_count_args(peffect.get_values(self))
                if new_min < min_tribute:
                    new_min = min_tribute
                new_zone &= zone
                if self.is_summonable(proc, new_min, new_zone, releasable):
                    return True
            return False
        return bool(self.is_summonable(proc, min_tribute, zone))

    def filter_spsummon_procedure(self: "Card", playerid: int, eset: list["Effect"] | None = None,
                                  summon_type: int = 0, info: "MaterialInfo | None" = None) -> list["Effect"]:
        """Add to ``eset`` (and return) the usable Special Summon procedures of this card.

        A procedure is usable when it is available, within its count limit, its
        condition holds (with the material limits of ``info``), uniqueness allows
        a face-up summon, its summon type matches ``summon_type`` (0: any), and the
        player may Special Summon it that way.
        """
        if eset is None:
            eset = []
        duel = self.duel
        proc_set: dict[Effect, None] = {}
        self.filter_effect_container(self.field_effect, EFFECT_SPSUMMON_PROC, accept_filter, proc_set)
        # the reference collects these in an unordered_set, which (few elements, distinct
        # buckets) iterates in reverse insertion order
        for peffect in reversed(list(proc_set)):
            if peffect.is_flag(EFFECT_FLAG_SPSUM_PARAM):
                topos = peffect.s_range & 0xFF
                toplayer = playerid if peffect.o_range == 0 else 1 - playerid
            else:
                topos = POS_FACEUP
                toplayer = playerid
            if (peffect.is_available() and peffect.check_count_limit(playerid)
                    and self.is_spsummonable(peffect, info)
                    and ((topos & POS_FACEDOWN) or not duel.check_unique_onfield(self, toplayer, LOCATION_MZONE))):
                sumeffect = duel.core.reason_effect
                if sumeffect is None:
                    sumeffect = peffect
                sumtype = peffect.get_value(self) & 0xFFFFFFFF
                if ((not summon_type or summon_type == sumtype)
                        and duel.is_player_can_spsummon_card(sumeffect, sumtype, topos, playerid, toplayer, self)):
                    eset.append(peffect)
        return eset

    def filter_spsummon_procedure_g(self: "Card", playerid: int,
                                    eset: list["Effect"] | None = None) -> list["Effect"]:
        """Add to ``eset`` (and return) the usable EFFECT_SPSUMMON_PROC_G of this card
        (summon procedures for a group, like Pendulum Summon)."""
        if eset is None:
            eset = []
        duel = self.duel
        core = duel.core
        proc_set: dict[Effect, None] = {}
        self.filter_effect_container(self.field_effect, EFFECT_SPSUMMON_PROC_G, accept_filter, proc_set)
        for peffect in reversed(list(proc_set)):  # unordered_set order (see filter_spsummon_procedure)
            if not peffect.is_available() or not peffect.check_count_limit(playerid):
                continue
            if self.current.controler != playerid and not peffect.is_flag(EFFECT_FLAG_BOTH_SIDE):
                continue
            oreason, op = core.reason_effect, core.reason_player
            core.reason_effect = peffect
            core.reason_player = self.current.controler
            if duel.script.check_condition(peffect.condition, peffect, self):
                eset.append(peffect)
            core.reason_effect = oreason
            core.reason_player = op
        return eset

    # ----- finding one effect ------------------------------------------------------------

    def find_effect(self: "Card", container: "EffectContainer", code: int,
                    f: EffectFilter) -> "Effect | None":
        for peffect in container.equal_range(code):
            if f(self, peffect):
                return peffect
        return None

    def find_effect_with_target(self: "Card", container: "EffectContainer", code: int,
                                f: Callable[["Card", "Effect", Any], bool], target: Any) -> "Effect | None":
        for peffect in container.equal_range(code):
            if f(self, peffect, target):
                return peffect
        return None

    def is_affected_by_effect(self: "Card", code: int, target: Any = NO_TARGET) -> "Effect | None":
        """The first effect of ``code`` that applies to this card, or None.

        Looks in the same places as filter_effect, in the same order.  With a
        ``target`` argument (a card, or None for "no card" -- e.g. a direct
        attack), the effect's value for that target must also be non-zero (the
        reference's two-argument overload).  Omit the argument for the one-argument
        overload; passing None explicitly is NOT the same.
        """
        effects = self.duel.effects
        aura = effects.aura_effect
        if code not in aura and code not in effects.card_codes:
            return None
        # (the emptiness tests only skip work: this runs for every rule check)
        lst = self.single_effect.get(code)
        if lst:
            found = _first_applying(self, lst, default_single_filter, target)
            if found is not None:
                return found
        if self.equiping_cards:
            for pcard in self.equiping_cards:
                lst = pcard.equip_effect.get(code)
                if lst:
                    found = _first_applying(self, lst, default_equip_filter, target)
                    if found is not None:
                        return found
        if self.effect_target_owner:
            for pcard in self.effect_target_owner:
                lst = pcard.target_effect.get(code)
                if lst:
                    found = _first_applying(self, lst, default_target_filter, target)
                    if found is not None:
                        return found
        if self.xyz_materials:
            for pcard in list(self.xyz_materials):
                lst = pcard.xmaterial_effect.get(code)
                if lst:
                    found = _first_applying(self, lst, default_xmaterial_filter, target)
                    if found is not None:
                        return found
        lst = aura.get(code)      # (read now: a script run above may have changed it)
        return _first_applying(self, lst, default_aura_filter, target) if lst else None

    # ----- Fusion ------------------------------------------------------------------------

    def _fusion_material_group(self: "Card", fusion_m: "Group | None", chkf: int,
                               not_material: int | bool) -> "Group | None":
        """A copy of the offered materials without those this card's EFFECT_MATERIAL_LIMIT
        rejects (unless the check is "not as material")."""
        if fusion_m is None:
            return None
        matgroup = self.duel.new_group(fusion_m.container)
        if not not_material:
            summon_type = SUMMON_TYPE_SPECIAL if (chkf & 0x200) > 0 else SUMMON_TYPE_FUSION
            eset = self.filter_effect(EFFECT_MATERIAL_LIMIT)
            for pcard in list(matgroup.container):
                for peffect in eset:
                    if not peffect.check_value_condition(pcard, self, summon_type):
                        matgroup.container.discard(pcard)
                        break
        return matgroup

    def fusion_check(self: "Card", fusion_m: "Group | None", cg: "Card | None", chkf: int,
                     not_material: int | bool) -> bool:
        """Can this Fusion Monster be made from ``fusion_m`` (with ``cg`` as a
        must-use material)?  Runs its EFFECT_FUSION_MATERIAL condition."""
        matgroup = self._fusion_material_group(fusion_m, chkf, not_material)
        eff = self.single_effect.equal_range(EFFECT_FUSION_MATERIAL)
        if not eff:
            return False
        peffect = eff[0]
        if not peffect.condition:
            return False
        core = self.duel.core
        oreason, op = core.reason_effect, core.reason_player
        core.reason_effect = peffect
        core.reason_player = peffect.get_handler_player()
        core.not_material = bool(not_material)
        res = self.duel.script.check_condition(peffect.condition, peffect, matgroup, cg, chkf)
        core.reason_effect = oreason
        core.reason_player = op
        core.not_material = False
        return bool(res)

    def fusion_select(self: "Card", playerid: int, fusion_m: "Group | None", cg: "Card | None",
                      chkf: int, not_material: int | bool) -> None:
        """Queue the selection of Fusion Materials (the card's EFFECT_FUSION_MATERIAL operation)."""
        matgroup = self._fusion_material_group(fusion_m, chkf, not_material)
        eff = self.single_effect.equal_range(EFFECT_FUSION_MATERIAL)
        peffect = eff[0] if eff else None
        duel = self.duel
        duel.add_process(duel.proc_select_fusion(peffect, matgroup, playerid + (chkf << 16),
                                                 not_material, cg))

    def check_fusion_substitute(self: "Card", fcard: "Card | None") -> bool:
        """Can this card substitute for a named Fusion Material of ``fcard``?"""
        for peffect in self.filter_effect(EFFECT_FUSION_SUBSTITUTE):
            if not peffect.value or peffect.get_value(fcard):
                return True
        return False

    # ----- Tuners ------------------------------------------------------------------------

    def is_not_tuner(self: "Card", scard: "Card | None") -> bool:
        """Usable as a non-Tuner for ``scard``: not a Tuner, or under EFFECT_NONTUNER."""
        if not (self.get_synchro_type() & TYPE_TUNER):
            return True
        for peffect in self.filter_effect(EFFECT_NONTUNER):
            if not peffect.value or peffect.get_value(scard):
                return True
        return False

    def is_tuner(self: "Card", scard: "Card | None") -> bool:
        """Usable as a Tuner for ``scard``: a Tuner, or under EFFECT_TUNER."""
        if self.get_synchro_type() & TYPE_TUNER:
            return True
        for peffect in self.filter_effect(EFFECT_TUNER):
            if not peffect.value or peffect.get_value(scard):
                return True
        return False

    # ----- "only one on the field" -------------------------------------------------------

    def check_unique_code(self: "Card", pcard: "Card") -> bool:
        """Does ``pcard`` count as a copy for this card's uniqueness rule?

        ``unique_code`` 1 means the rule's script function decides; otherwise
        either of ``pcard``'s names must equal it.
        """
        if not self.unique_code:
            return False
        if self.unique_code == 1:
            return bool(self.duel.script.get_function_value(self.unique_function, pcard))
        code1 = pcard.get_code()
        code2 = pcard.get_another_code()
        return code1 == self.unique_code or bool(code2 and code2 == self.unique_code)

    def get_unique_target(self: "Card", controler: int, icard: "Card | None" = None) -> CardSet:
        """Face-up cards (other than ``icard``) on the sides this card's uniqueness rule
        watches (seen from ``controler``) that count as copies."""
        cset = CardSet()
        for p in (0, 1):
            if not self.unique_pos[p]:
                continue
            player = self.duel.player[controler ^ p]
            if self.unique_location & LOCATION_MZONE:
                for pcard in player.list_mzone:
                    if (pcard is not None and pcard is not icard and pcard.is_position(POS_FACEUP)
                            and not pcard.get_status(STATUS_SPSUMMON_STEP) and self.check_unique_code(pcard)):
                        cset.add(pcard)
            if self.unique_location & LOCATION_SZONE:
                for pcard in player.list_szone:
                    if (pcard is not None and pcard is not icard and pcard.is_position(POS_FACEUP)
                            and self.check_unique_code(pcard)):
                        cset.add(pcard)
        return cset

    # ----- costs of actions ----------------------------------------------------------------

    def check_cost_condition(self: "Card", ecode: int, playerid: int, sumtype: int | None = None) -> bool:
        """Can every "to do this, you must pay" effect (player and card effects of
        ``ecode``, e.g. EFFECT_SUMMON_COST) be paid?  Runs each cost check with the
        effect as reason.  ``sumtype`` is passed to the script when given (the
        reference's 3-argument overload)."""
        duel = self.duel
        core = duel.core
        eset = duel.filter_player_effect(playerid, ecode, sort=False)
        self.filter_effect(ecode, eset)
        res = True
        oreason, op = core.reason_effect, core.reason_player
        extra = () if sumtype is None else (sumtype,)
        for peffect in eset:
            core.reason_effect = peffect
            core.reason_player = playerid
            if not duel.script.check_condition(peffect.cost, peffect, self, playerid, *extra):
                res = False
                break
        core.reason_effect = oreason
        core.reason_player = op
        return res

    # ----- effects registered by scripts ------------------------------------------------

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

    def add_monster_attribute(self: "Card", type_: int, attribute: int, race: int, level: int,
                              atk: int, defense: int) -> None:
        """Card.AddMonsterAttribute: a Trap Monster gets its monster stats -- it loses
        STATUS_NO_LEVEL and gets EFFECT_PRE_MONSTER (type; also reset at the end of
        the chain) and, for each non-zero stat, a CHANGE_ATTRIBUTE / CHANGE_RACE /
        CHANGE_LEVEL / SET_BASE_ATTACK / SET_BASE_DEFENSE, all ending when the card
        leaves the field or is turned face-down."""
        duel = self.duel
        if self.status & STATUS_NO_LEVEL:
            self.set_status(STATUS_NO_LEVEL, False)
            duel.printed_stats_changed(self)

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

    # ----- flag effects -----------------------------------------------------------------

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

    # ----- relations to a chain link or the battle --------------------------------------

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

    # ----- counters set up by scripts ---------------------------------------------------

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


def _is_card(x: Any) -> bool:
    return isinstance(x, CardBase)
