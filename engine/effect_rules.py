"""Rules of one effect: is it available, can it be activated, its value, its reset (reference: effect.cpp).

Script callbacks are called through ``self.duel.script`` with their arguments
in the order the Lua function receives them.  The reference builds argument
lists with ``add_param``; a parameter added with ``front=true`` goes before the
ones already queued.  ``get_value`` and ``check_value_condition`` put the
effect (and the card/effect argument) *in front of* whatever the caller queued
first, so their Lua function receives ``(e, [card_or_effect,] extra...)``.

A ``None`` callback means "no function" (the reference's 0 reference): a
condition check on it passes, a value read on it gives 0.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .constants import (
    EFFECT_ACTIVATE_COST, EFFECT_CANNOT_ACTIVATE, EFFECT_CANNOT_DISABLE, EFFECT_CANNOT_TRIGGER,
    EFFECT_CHANGE_TYPE, EFFECT_COUNT_CODE_SINGLE, EFFECT_DISABLE, EFFECT_FLAG2_COF, EFFECT_FLAG_BOTH_SIDE,
    EFFECT_FLAG_CANNOT_DISABLE, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_DAMAGE_CAL,
    EFFECT_FLAG_DAMAGE_STEP, EFFECT_FLAG_DELAY, EFFECT_FLAG_EVENT_PLAYER, EFFECT_FLAG_FIELD_ONLY,
    EFFECT_FLAG_FUNC_VALUE, EFFECT_FLAG_IGNORE_RANGE, EFFECT_FLAG_IMMEDIATELY_APPLY,
    EFFECT_FLAG_INITIAL, EFFECT_FLAG_LIMIT_ZONE, EFFECT_FLAG_NO_TURN_RESET, EFFECT_FLAG_OWNER_RELATE,
    EFFECT_FLAG_PLAYER_TARGET, EFFECT_FLAG_SET_AVAILABLE, EFFECT_FLAG_SINGLE_RANGE,
    EFFECT_FLAG_SPSUM_PARAM, EFFECT_FLAG_ABSOLUTE_TARGET, EFFECT_FORBIDDEN, EFFECT_IMMUNE_EFFECT,
    EFFECT_QP_ACT_IN_NTPHAND, EFFECT_QP_ACT_IN_SET_TURN, EFFECT_REVEAL_ONFIELD,
    EFFECT_SELF_DESTROY, EFFECT_SELF_TOGRAVE, EFFECT_TRAP_ACT_IN_HAND, EFFECT_TRAP_ACT_IN_SET_TURN,
    EFFECT_TYPE_ACTIONS, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS, EFFECT_TYPE_EQUIP,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_FLIP, EFFECT_TYPE_IGNITION, EFFECT_TYPE_QUICK_F,
    EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TARGET, EFFECT_TYPE_TRIGGER_F,
    EFFECT_TYPE_TRIGGER_O, EFFECT_TYPE_XMATERIAL, EFFECT_UNIQUE_CHECK, EVENT_ADJUST,
    EVENT_BREAK_EFFECT, EVENT_CUSTOM, EVENT_PHASE_START, EVENT_PRE_BATTLE_DAMAGE,
    EVENT_SPSUMMON_SUCCESS_G_P, EVENT_TO_DECK, EVENT_TURN_END, LOCATION_DECK, LOCATION_EXTRA,
    LOCATION_FZONE, LOCATION_HAND, LOCATION_ONFIELD, LOCATION_OVERLAY, LOCATION_PZONE,
    LOCATION_REASON_TOFIELD, LOCATION_REMOVED, LOCATION_SZONE, MASTER_RULE_2020, PHASE_DAMAGE,
    PHASE_DAMAGE_CAL, PLAYER_NONE, POS_FACEDOWN, POS_FACEUP, RESET_CARD, RESET_CODE, RESET_COPY,
    RESET_DISABLE, RESET_EVENT, RESET_OPPO_TURN, RESET_PHASE, RESET_SELF_TURN, STATUS_BATTLE_DESTROYED,
    STATUS_DISABLED, STATUS_EFFECT_ENABLED, STATUS_FORBIDDEN, STATUS_SET_TURN, TYPE_COUNTER,
    TYPE_FIELD, TYPE_MONSTER, TYPE_PENDULUM, TYPE_QUICKPLAY, TYPE_SPELL, TYPE_TRAP,
    TYPE_TRAPMONSTER,
)
from .core_constants import (
    CODE_COUNTER, CODE_CUSTOM, CODE_PHASE, CODE_VALUE, EFFECT_FLAG_CANNOT_NEGATE,
    EFFECT_STATUS_AVAILABLE, EFFECT_TYPES_CHAIN_LINK, MAX_CARD_ID,
)
from .event import Chain

if TYPE_CHECKING:
    from .card import Card
    from .effect import Effect
    from .event import Event

# Events only EFFECT_TYPE_CONTINUOUS effects may use (effect.h continuous_event).
CONTINUOUS_EVENTS = frozenset({
    EVENT_ADJUST, EVENT_BREAK_EFFECT, EVENT_TURN_END, EVENT_PRE_BATTLE_DAMAGE,
    EVENT_SPSUMMON_SUCCESS_G_P,
})

# Battle events a card's effect may answer in the Damage Step / damage calculation
# without EFFECT_FLAG_DAMAGE_STEP / _DAMAGE_CAL (event codes 1132..1149 and 1134..1136).
_DAMAGE_STEP_EVENTS = range(1132, 1150)
_DAMAGE_CAL_EVENTS = range(1134, 1137)


def effect_sort_key(e: "Effect") -> tuple[int, int]:
    """The order in which effects of one code are applied (the reference's effect_sort_id).

    Effects a card has by itself (initial single-range single effects) come
    first, then every other effect by id, i.e. by when it last became active.

    The reference sorts with std::sort, which is not stable; effects with equal
    keys would need equal ids, which the field id counter never hands out twice
    to registered effects, so a stable sort gives the same order.
    """
    return (0 if e.is_initial_single() else 1, e.id)


def is_continuous_event(code: int) -> bool:
    """Is ``code`` an event reserved for EFFECT_TYPE_CONTINUOUS effects?

    Custom and counter events never are; of the phase events only
    EVENT_PHASE_START ones are; otherwise the fixed list CONTINUOUS_EVENTS.
    """
    if code & EVENT_CUSTOM:
        return False
    if code & 0xF0000:  # EVENT_ADD_COUNTER, EVENT_REMOVE_COUNTER
        return False
    if code & 0xF000:
        return bool(code & EVENT_PHASE_START)
    return code in CONTINUOUS_EVENTS


def _event_args(e: "Event") -> tuple:
    """The six event values scripts receive after (e, tp): eg, ep, ev, re, r, rp."""
    return (e.event_cards, e.event_player, e.event_value, e.reason_effect, e.reason,
            e.reason_player)


class EffectRulesMixin:
    """Methods of Effect (see engine/effect.py)."""

    __slots__ = ()

    # ----- script helpers ---------------------------------------------------------------

    def _check(self: "Effect", fn: Any, *args: Any) -> bool:
        """check_condition on a callback; no callback passes."""
        if fn is None:
            return True
        return bool(self.duel.script.check_condition(fn, *args))

    def _has_value(self: "Effect") -> bool:
        """The reference's ``if(value)``: a function value, or a non-zero integer."""
        if self.is_flag(EFFECT_FLAG_FUNC_VALUE):
            return self.value is not None
        return bool(self.value)

    # ----- classification -----------------------------------------------------------------

    def is_disable_related(self: "Effect") -> bool:
        """Effects whose coming and going can change which cards are negated."""
        return self.code in (EFFECT_IMMUNE_EFFECT, EFFECT_DISABLE, EFFECT_CANNOT_DISABLE,
                             EFFECT_FORBIDDEN)

    def is_self_destroy_related(self: "Effect") -> bool:
        """Effects that make cards destroy or send themselves (unique-on-field, self-destroy)."""
        return self.code in (EFFECT_UNIQUE_CHECK, EFFECT_SELF_DESTROY, EFFECT_SELF_TOGRAVE)

    def is_can_be_forbidden(self: "Effect") -> bool:
        """False only for an effect that cannot be disabled and does not allow forbidding."""
        flag = self.flag[0]
        return not ((flag & EFFECT_FLAG_CANNOT_DISABLE) and not (flag & EFFECT_FLAG_CANNOT_NEGATE))

    def is_hand_trigger(self: "Effect") -> bool:
        """An optional trigger usable from the hand (not a phase trigger)."""
        return bool((self.range & LOCATION_HAND) and (self.type & EFFECT_TYPE_TRIGGER_O)
                    and self.get_code_type() != CODE_PHASE)

    def is_initial_single(self: "Effect") -> bool:
        """A single-range single effect the card has from its own script text."""
        return bool((self.type & EFFECT_TYPE_SINGLE) and self.is_flag(EFFECT_FLAG_SINGLE_RANGE)
                    and self.is_flag(EFFECT_FLAG_INITIAL))

    def is_monster_effect(self: "Effect") -> bool:
        """An effect not applied from a Spell & Trap, Field or Pendulum Zone."""
        return not (self.range & (LOCATION_SZONE | LOCATION_FZONE | LOCATION_PZONE))

    def get_code_type(self: "Effect") -> int:
        """Which kind of code this is, judged from the highest bits set (CODE_*)."""
        code = self.code
        if code & 0xF0000000:
            return CODE_CUSTOM
        if code & 0xF0000:
            return CODE_COUNTER
        if code & 0xF000:
            return CODE_PHASE
        return CODE_VALUE

    def get_speed(self: "Effect") -> int:
        """Spell Speed: 1 for ignition/trigger effects, 2 for quick effects; an activation
        has the speed of its card (Counter Trap 3, other Trap and Quick-Play 2, other Spell 1,
        monster 0).  Non-activatable effects have speed 0."""
        t = self.type
        if not (t & EFFECT_TYPE_ACTIONS):
            return 0
        if t & (EFFECT_TYPE_TRIGGER_O | EFFECT_TYPE_TRIGGER_F | EFFECT_TYPE_IGNITION):
            return 1
        if t & (EFFECT_TYPE_QUICK_O | EFFECT_TYPE_QUICK_F):
            return 2
        if t & EFFECT_TYPE_ACTIVATE:
            ctype = self.handler.data.type
            if ctype & TYPE_MONSTER:
                return 0
            if ctype & TYPE_SPELL:
                return 2 if ctype & TYPE_QUICKPLAY else 1
            return 3 if ctype & TYPE_COUNTER else 2
        return 0

    # ----- owner and handler ------------------------------------------------------------

    def _xmaterial_holder(self: "Effect") -> "Card | None":
        """For an effect an Xyz material grants: the monster it is (or was last) attached to."""
        if self.active_handler is not None:
            return self.active_handler
        if self.handler.overlay_target is not None:
            return self.handler.overlay_target
        return self.last_handler

    def get_owner(self: "Effect") -> "Card":
        """The card the effect counts as coming from (an Xyz material's effect: its holder)."""
        if self.type & EFFECT_TYPE_XMATERIAL:
            holder = self._xmaterial_holder()
            if holder is not None:
                return holder
        return self.owner

    def get_owner_player(self: "Effect") -> int:
        """The effect's explicit owner player, else its owner card's controller."""
        if self.effect_owner != PLAYER_NONE:
            return self.effect_owner
        return self.get_owner().current.controler

    def get_handler(self: "Effect") -> "Card":
        """The card the effect acts from (an Xyz material's effect: its holder)."""
        if self.type & EFFECT_TYPE_XMATERIAL:
            holder = self._xmaterial_holder()
            if holder is not None:
                return holder
        return self.handler

    def get_handler_player(self: "Effect") -> int:
        """Who uses the effect: the registering player for a field-only effect, else the
        handler's controller."""
        if self.is_flag(EFFECT_FLAG_FIELD_ONLY):
            return self.effect_owner
        return self.get_handler().current.controler

    def in_range(self: "Effect", target: "Card | Chain") -> bool:
        """Is the effect in its range?  Two overloads in one method:

        - ``in_range(card)``: the card is in one of the ``range`` locations;
        - ``in_range(chain)``: the chain link's triggering location is in ``range``.

        An Xyz material's effect is in range exactly while the material is attached.
        """
        if self.type & EFFECT_TYPE_XMATERIAL:
            return self.handler.overlay_target is not None
        if isinstance(target, Chain):
            return bool(self.range & target.triggering_location)
        return target.current.is_location(self.range)

    def set_activate_location(self: "Effect") -> None:
        """Remember where the handler is when the effect is activated."""
        phandler = self.get_handler()
        self.active_location = phandler.current.location
        self.active_sequence = phandler.current.sequence

    def set_active_type(self: "Effect") -> None:
        """Remember the handler's card type at activation (a Trap Monster counts as a monster only)."""
        phandler = self.get_handler()
        self.active_type = phandler.get_type()
        if self.active_type & TYPE_TRAPMONSTER:
            self.active_type &= ~TYPE_TRAP

    def get_active_type(self: "Effect", uselast: bool = True) -> int:
        """The card type the effect counts as having.

        For a chain-link effect: the type remembered at activation (if any and
        ``uselast``), else Pendulum Spell for a Pendulum card's activation, else the
        handler's current type.  Other effects: the owner's current type.
        """
        if self.type & EFFECT_TYPES_CHAIN_LINK:
            if self.active_type and uselast:
                return self.active_type
            if (self.type & EFFECT_TYPE_ACTIVATE) and (self.get_handler().data.type & TYPE_PENDULUM):
                return TYPE_PENDULUM + TYPE_SPELL
            return self.get_handler().get_type()
        return self.owner.get_type()

    # ----- availability -----------------------------------------------------------------

    def _blocked_by_owner_status(self: "Effect", powner: "Card", phandler: "Card",
                                 neglect_disabled: bool) -> bool:
        """The forbidden/disabled tests shared by single, equip and field effects.

        An owner-related effect stops when its owner is forbidden or negated; an
        effect on its own card stops when that card is.  Negation is ignored for
        EFFECT_FLAG_CANNOT_DISABLE effects and when ``neglect_disabled``.
        """
        # (the flag and status tests written out: this runs for every effect look-up)
        flag = self.flag[0]
        owner_relate = flag & EFFECT_FLAG_OWNER_RELATE
        forbiddable = self.is_can_be_forbidden()
        if owner_relate and forbiddable and powner.status & STATUS_FORBIDDEN:
            return True
        if powner is phandler and forbiddable and phandler.status & STATUS_FORBIDDEN:
            return True
        disablable = not ((flag & EFFECT_FLAG_CANNOT_DISABLE) or neglect_disabled)
        if owner_relate and disablable and powner.status & STATUS_DISABLED:
            return True
        if powner is phandler and disablable and phandler.status & STATUS_DISABLED:
            return True
        return False

    def _single_range_ready(self: "Effect", phandler: "Card") -> bool:
        """A single effect's place checks: has a controller; with SINGLE_RANGE, in range,
        enabled (or immediately applied) and face-up when on the field."""
        cur = phandler.current
        if cur.controler == PLAYER_NONE:
            return False
        flag = self.flag[0]
        if flag & EFFECT_FLAG_SINGLE_RANGE:
            if not self.in_range(phandler):
                return False
            if not (phandler.status & STATUS_EFFECT_ENABLED) and not (flag & EFFECT_FLAG_IMMEDIATELY_APPLY):
                return False
            if (cur.location & LOCATION_ONFIELD) and not (cur.position & POS_FACEUP):
                return False
        return True

    def _equip_available(self: "Effect", neglect_disabled: bool) -> bool:
        handler = self.handler
        if handler.current.controler == PLAYER_NONE:
            return False
        if self._blocked_by_owner_status(self.owner, handler, neglect_disabled):
            return False
        if not self.is_flag(EFFECT_FLAG_SET_AVAILABLE):
            if not handler.get_status(STATUS_EFFECT_ENABLED):
                return False
            if not handler.is_position(POS_FACEUP):
                return False
        return True

    def _field_available(self: "Effect", neglect_disabled: bool) -> bool:
        flag = self.flag[0]
        if flag & EFFECT_FLAG_FIELD_ONLY:
            return True
        phandler = self.get_handler()
        powner = self.get_owner()
        cur = phandler.current
        if cur.controler == PLAYER_NONE:
            return False
        if not self.in_range(phandler):
            return False
        if not (phandler.status & STATUS_EFFECT_ENABLED) and not (flag & EFFECT_FLAG_IMMEDIATELY_APPLY):
            return False
        # (is_location(LOCATION_ONFIELD): the Monster and Spell & Trap Zones, no pseudo-zone)
        if (cur.location & LOCATION_ONFIELD) and not (cur.position & POS_FACEUP):
            return False
        # a Spell/Trap turned into something else in its zone has lost its effects
        if (phandler.current.is_stzone() and (phandler.data.type & (TYPE_SPELL | TYPE_TRAP))
                and phandler.is_affected_by_effect(EFFECT_CHANGE_TYPE)):
            return False
        if self._blocked_by_owner_status(powner, phandler, neglect_disabled):
            return False
        if phandler.is_status(STATUS_BATTLE_DESTROYED):
            return False
        return True

    def is_available(self: "Effect", neglect_disabled: bool = False) -> bool:
        """Does this single/equip/field effect apply now?

        Checks where its handler is, that the handler is face-up and enabled, not
        forbidden or negated (unless ``neglect_disabled``), not destroyed by battle
        (field effects), then the condition.  Activated effects are never
        "available".  When the condition passes after having failed, the effect
        gets a fresh id (it sorts as the newest effect); the AVAILABLE status
        remembers the last result.
        """
        t = self.type
        if t & EFFECT_TYPE_ACTIONS:
            return False
        if (t & (EFFECT_TYPE_SINGLE | EFFECT_TYPE_XMATERIAL)) and not (t & EFFECT_TYPE_FIELD):
            phandler = self.get_handler()
            if not self._single_range_ready(phandler):
                return False
            if self._blocked_by_owner_status(self.get_owner(), phandler, neglect_disabled):
                return False
        if t & EFFECT_TYPE_EQUIP:
            if not self._equip_available(neglect_disabled):
                return False
        if t & (EFFECT_TYPE_FIELD | EFFECT_TYPE_TARGET):
            if not self._field_available(neglect_disabled):
                return False
        if self.condition is None:
            return True
        res = bool(self.duel.script.check_condition(self.condition, self))
        if res:
            if not (self.status & EFFECT_STATUS_AVAILABLE):
                infos = self.duel.infos
                self.id = infos.field_id
                infos.field_id += 1
            self.status |= EFFECT_STATUS_AVAILABLE
        else:
            self.status &= ~EFFECT_STATUS_AVAILABLE
        return res

    def limit_counter_is_available(self: "Effect") -> bool:
        """A counting effect (e.g. EFFECT_SPSUMMON_COUNT_LIMIT) keeps counting while negated."""
        return self.is_available(True)

    def is_single_ready(self: "Effect") -> bool:
        """Is this single effect in place (range, enabled, face-up) and its condition true?

        Like is_available for single effects, without the forbidden/negated tests
        and without touching id/status.
        """
        t = self.type
        if t & EFFECT_TYPE_ACTIONS:
            return False
        if not ((t & (EFFECT_TYPE_SINGLE | EFFECT_TYPE_XMATERIAL)) and not (t & EFFECT_TYPE_FIELD)):
            return False
        if not self._single_range_ready(self.get_handler()):
            return False
        if self.condition is None:
            return True
        return bool(self.duel.script.check_condition(self.condition, self))

    # ----- count limits -------------------------------------------------------------------

    def check_count_limit(self: "Effect", playerid: int) -> bool:
        """Has the effect uses left (its own counter, and the shared count code)?

        A count code shared by name is counted per player; an
        EFFECT_COUNT_CODE_SINGLE limit is counted per card on the field (its
        activate_count_id) with no player.
        """
        if not self.is_flag(EFFECT_FLAG_COUNT_LIMIT):
            return True
        if self.count_limit == 0:
            return False
        if self.count_code:
            limit_code = self.count_code & MAX_CARD_ID
            limit_type = self.count_code & 0xF0000000
            count = self.count_limit_max
            field = self.duel
            if limit_code == EFFECT_COUNT_CODE_SINGLE:
                used = field.get_effect_code(limit_type | self.get_handler().activate_count_id, PLAYER_NONE)
            else:
                used = field.get_effect_code(self.count_code, playerid)
            if used >= count:
                return False
        return True

    def dec_count(self: "Effect", playerid: int = PLAYER_NONE) -> None:
        """Use one count: the own counter (unless only the shared code counts), and the
        shared count code."""
        if not self.is_flag(EFFECT_FLAG_COUNT_LIMIT):
            return
        if self.count_limit == 0:
            return
        if self.count_code == 0 or self.is_flag(EFFECT_FLAG_NO_TURN_RESET):
            self.count_limit = (self.count_limit - 1) & 0xFF
        if self.count_code:
            limit_code = self.count_code & MAX_CARD_ID
            limit_type = self.count_code & 0xF0000000
            if limit_code == EFFECT_COUNT_CODE_SINGLE:
                self.duel.add_effect_code(limit_type | self.get_handler().activate_count_id, PLAYER_NONE)
            else:
                self.duel.add_effect_code(self.count_code, playerid)

    def recharge(self: "Effect") -> None:
        """Refill the own use counter."""
        if self.is_flag(EFFECT_FLAG_COUNT_LIMIT):
            self.count_limit = self.count_limit_max

    # ----- activation -------------------------------------------------------------------

    def get_required_handorset_effects(self: "Effect", eset: "list[Effect] | None", playerid: int,
                                       e: "Event", neglect_loc: bool = False) -> int:
        """Which effects let this card be activated from the hand or in the turn it was Set.

        ``eset`` (cleared first, may be None) receives the usable permission
        effects.  Returns 1 when no permission is needed (not an activation, or
        an ordinary place), 0 when one is needed and none is usable (or a
        non-Quick-Play Spell in the hand during the opponent's turn), 2 when
        some permission effect is usable.  A permission is usable when it has
        uses left and its cost function (chk 0) accepts
        ``(pe, tp, eg, ep, ev, re, r, rp, 0, this_effect)``.
        """
        if eset is None:
            eset = []
        eset.clear()
        if not (self.type & EFFECT_TYPE_ACTIVATE):
            return 1
        handler = self.handler
        field = self.duel
        ctype = handler.data.type
        ecode = 0
        if handler.current.location == LOCATION_HAND and not neglect_loc:
            if ctype & TYPE_TRAP:
                ecode = EFFECT_TRAP_ACT_IN_HAND
            elif (ctype & TYPE_SPELL) and field.infos.turn_player != playerid:
                if ctype & TYPE_QUICKPLAY:
                    ecode = EFFECT_QP_ACT_IN_NTPHAND
                else:
                    return 0
        elif handler.current.location == LOCATION_SZONE:
            if (ctype & TYPE_TRAP) and handler.get_status(STATUS_SET_TURN):
                ecode = EFFECT_TRAP_ACT_IN_SET_TURN
            if (ctype & TYPE_SPELL) and (ctype & TYPE_QUICKPLAY) and handler.get_status(STATUS_SET_TURN):
                ecode = EFFECT_QP_ACT_IN_SET_TURN
        if not ecode:
            return 1
        available = 0
        tmp_eset = handler.filter_effect(ecode)
        if not tmp_eset:
            return available
        core = field.core
        oreason = core.reason_effect
        op = core.reason_player
        core.reason_player = playerid
        field.save_lp_cost()
        for peffect in tmp_eset:
            if peffect.check_count_limit(playerid):
                core.reason_effect = peffect
                if self._check(peffect.cost, peffect, playerid, *_event_args(e), 0, self):
                    available = 2
                    eset.append(peffect)
        core.reason_effect = oreason
        core.reason_player = op
        field.restore_lp_cost()
        return available

    def _activate_place_ok(self: "Effect", playerid: int, e: "Event", neglect_loc: bool) -> bool:
        """is_activateable for a card's activation (EFFECT_TYPE_ACTIVATE): the card itself."""
        handler = self.handler
        field = self.duel
        ctype = handler.data.type
        if handler.current.controler != playerid:
            return False
        if field.check_unique_onfield(handler, playerid, LOCATION_SZONE):
            return False
        if not (ctype & TYPE_COUNTER):
            phase = field.infos.phase
            if (self.code not in _DAMAGE_STEP_EVENTS and phase == PHASE_DAMAGE
                    and not self.is_flag(EFFECT_FLAG_DAMAGE_STEP)
                    and not field.get_cteffect(self, playerid, False)):
                return False
            if (self.code not in _DAMAGE_CAL_EVENTS and phase == PHASE_DAMAGE_CAL
                    and not self.is_flag(EFFECT_FLAG_DAMAGE_CAL)
                    and not field.get_cteffect(self, playerid, False)):
                return False
        limit_zone = not (ctype & (TYPE_FIELD | TYPE_PENDULUM)) and self.is_flag(EFFECT_FLAG_LIMIT_ZONE)
        zone = 0xFF
        if limit_zone:
            # the value function gets (e, tp, eg, ep, ev, re, r, rp) and returns allowed zones
            zone = self.get_value(None, playerid, *_event_args(e)) & 0xFFFFFFFF
            if not zone:
                zone = 0xFF
        if handler.current.location == LOCATION_SZONE:
            if handler.is_position(POS_FACEUP):
                return False
            if handler.equiping_target is not None:
                return False
            if limit_zone and not (zone & (1 << handler.current.sequence)):
                return False
        elif ctype & TYPE_MONSTER:
            if not (ctype & TYPE_PENDULUM):
                return False
            if (not field.is_location_useable(playerid, LOCATION_PZONE, 0)
                    and not field.is_location_useable(playerid, LOCATION_PZONE, 1)):
                return False
        elif (not (ctype & TYPE_FIELD)
              and field.get_useable_count(handler, playerid, LOCATION_SZONE, playerid,
                                          LOCATION_REASON_TOFIELD, zone) <= 0):
            return False
        if not self.get_required_handorset_effects(None, playerid, e, neglect_loc):
            return False
        if handler.is_status(STATUS_FORBIDDEN):
            return False
        if handler.is_affected_by_effect(EFFECT_CANNOT_TRIGGER):
            return False
        return True

    def _card_effect_place_ok(self: "Effect", playerid: int, neglect_faceup: bool) -> bool:
        """is_activateable for an ignition/trigger/quick effect of a card: where the card is."""
        phandler = self.get_handler()
        field = self.duel
        t = self.type
        if not (phandler.get_type() & TYPE_MONSTER) and (self.get_active_type(False) & TYPE_MONSTER):
            return False
        if (t & EFFECT_TYPE_QUICK_O) and self.is_flag(EFFECT_FLAG_DELAY) and not self.in_range(phandler):
            return False
        if not neglect_faceup and (phandler.current.location & (LOCATION_ONFIELD | LOCATION_REMOVED)):
            if not phandler.is_position(POS_FACEUP) and not self.is_flag(EFFECT_FLAG_SET_AVAILABLE):
                return False
            if phandler.is_position(POS_FACEUP) and not phandler.is_status(STATUS_EFFECT_ENABLED):
                return False
        # mandatory triggers, flip effects and optional single triggers may start
        # in the Damage Step; everything else needs the damage-step flags
        if (not (t & (EFFECT_TYPE_FLIP | EFFECT_TYPE_TRIGGER_F))
                and not ((t & EFFECT_TYPE_TRIGGER_O) and (t & EFFECT_TYPE_SINGLE))):
            phase = field.infos.phase
            if (self.code not in _DAMAGE_STEP_EVENTS and phase == PHASE_DAMAGE
                    and not self.is_flag(EFFECT_FLAG_DAMAGE_STEP)):
                return False
            if (self.code not in _DAMAGE_CAL_EVENTS and phase == PHASE_DAMAGE_CAL
                    and not self.is_flag(EFFECT_FLAG_DAMAGE_CAL)):
                return False
        loc = phandler.current.location
        if loc == LOCATION_OVERLAY:
            return False
        if (loc == LOCATION_DECK
                or (field.core.duel_rule >= MASTER_RULE_2020 and loc == LOCATION_EXTRA
                    and (phandler.current.position & POS_FACEDOWN))):
            if (t & EFFECT_TYPE_SINGLE) and self.code != EVENT_TO_DECK:
                return False
            if (t & EFFECT_TYPE_FIELD) and not (self.range & (LOCATION_DECK | LOCATION_EXTRA)):
                return False
        if (phandler.current.is_stzone() and (phandler.data.type & (TYPE_SPELL | TYPE_TRAP))
                and phandler.is_affected_by_effect(EFFECT_CHANGE_TYPE)):
            return False
        if ((t & EFFECT_TYPE_FIELD) and phandler.current.controler != playerid
                and not self.is_flag(EFFECT_FLAG_BOTH_SIDE | EFFECT_FLAG_EVENT_PLAYER)):
            return False
        if phandler.is_status(STATUS_FORBIDDEN):
            return False
        if phandler.is_affected_by_effect(EFFECT_CANNOT_TRIGGER):
            return False
        return True

    def _continuous_place_ok(self: "Effect") -> bool:
        """is_activateable for a continuous (EFFECT_TYPE_CONTINUOUS) effect of a card."""
        phandler = self.get_handler()
        owner = self.owner
        t = self.type
        if (t & EFFECT_TYPE_FIELD) and phandler.is_status(STATUS_BATTLE_DESTROYED):
            return False
        single_range = bool((t & EFFECT_TYPE_SINGLE) and self.is_flag(EFFECT_FLAG_SINGLE_RANGE))
        if (((t & EFFECT_TYPE_FIELD) or single_range)
                and (phandler.current.location & LOCATION_ONFIELD)
                and (not phandler.is_position(POS_FACEUP) or not phandler.is_status(STATUS_EFFECT_ENABLED))):
            return False
        if single_range and not self.in_range(phandler):
            return False
        # never neglects negation (unlike is_available's neglect_disabled)
        if self._blocked_by_owner_status(owner, phandler, False):
            return False
        return True

    def is_activateable(self: "Effect", playerid: int, e: "Event", neglect_cond: bool = False,
                        neglect_cost: bool = False, neglect_target: bool = False,
                        neglect_loc: bool = False, neglect_faceup: bool = False) -> bool:
        """Can ``playerid`` activate (or, for a continuous effect, apply) this effect for event ``e``?

        First the uses left, then the card's place and state (by kind: card
        activation, ignition/trigger/quick effect, continuous effect; a
        field-only effect only checks its player), then with
        core.reason_effect/reason_player set to this effect and player: the
        EFFECT_CANNOT_ACTIVATE / EFFECT_ACTIVATE_COST checks (not for continuous
        effects) and condition, cost and target with chk 0.
        """
        if not (self.type & EFFECT_TYPE_ACTIONS):
            return False
        if not self.check_count_limit(playerid):
            return False
        if not self.is_flag(EFFECT_FLAG_FIELD_ONLY):
            if self.type & EFFECT_TYPE_ACTIVATE:
                if not self._activate_place_ok(playerid, e, neglect_loc):
                    return False
            elif not (self.type & EFFECT_TYPE_CONTINUOUS):
                if not self._card_effect_place_ok(playerid, neglect_faceup):
                    return False
            elif not self._continuous_place_ok():
                return False
        elif self.get_owner_player() != playerid and not self.is_flag(EFFECT_FLAG_BOTH_SIDE):
            return False
        field = self.duel
        core = field.core
        field.save_lp_cost()
        oreason = core.reason_effect
        op = core.reason_player
        core.reason_effect = self
        core.reason_player = playerid
        result = True
        if not (self.type & EFFECT_TYPE_CONTINUOUS):
            result = self.is_action_check(playerid)
        if result:
            result = self.is_activate_ready(playerid, e, neglect_cond, neglect_cost, neglect_target)
        core.reason_effect = oreason
        core.reason_player = op
        field.restore_lp_cost()
        return result

    def is_action_check(self: "Effect", playerid: int) -> bool:
        """Do the player-wide restrictions allow activating this effect?

        Every EFFECT_CANNOT_ACTIVATE affecting the player is asked with its value
        function ``(ce, this, tp)``; every EFFECT_ACTIVATE_COST whose target
        ``(ce, this, tp)`` accepts this effect must have its cost ``(ce, this, tp)``
        payable.
        """
        field = self.duel
        for ce in field.filter_player_effect(playerid, EFFECT_CANNOT_ACTIVATE):
            if ce.check_value_condition(self, playerid):
                return False
        for ce in field.filter_player_effect(playerid, EFFECT_ACTIVATE_COST):
            if not self._check(ce.target, ce, self, playerid):
                continue
            if not self._check(ce.cost, ce, self, playerid):
                return False
        return True

    def is_activate_ready(self: "Effect", *args: Any, **kwargs: Any) -> bool:
        """Do the condition, cost (chk 0) and target (chk 0) functions allow the activation?

        Both reference overloads in one name:

        - ``is_activate_ready(playerid, e, neglect_cond=False, neglect_cost=False, neglect_target=False)``
          calls the functions with this effect as ``e``;
        - ``is_activate_ready(reason_effect, playerid, e, ...)`` (first argument an
          Effect or None) calls them with ``reason_effect`` instead, used when one
          effect checks another's functions.  ``is_activate_ready_reason`` is the
          same thing by an explicit name.
        """
        if args and not isinstance(args[0], int):
            return self.is_activate_ready_reason(*args, **kwargs)
        return self.is_activate_ready_reason(self, *args, **kwargs)

    def is_activate_ready_reason(self: "Effect", reason_effect: "Effect", playerid: int, e: "Event",
                                 neglect_cond: bool = False, neglect_cost: bool = False,
                                 neglect_target: bool = False) -> bool:
        """is_activate_ready with an explicit effect passed to the functions (see above).

        Functions get ``(re, tp, eg, ep, ev, re2, r, rp[, chk=0])``.  The cost is
        skipped for continuous effects; ``reason_effect.cost_checked`` is true
        while cost and target run, so a target function can tell it is checked
        together with its cost.
        """
        ev = _event_args(e)
        if not neglect_cond and self.condition is not None:
            if not self.duel.script.check_condition(self.condition, reason_effect, playerid, *ev):
                return False
        if not neglect_cost and not (self.type & EFFECT_TYPE_CONTINUOUS):
            reason_effect.cost_checked = True
            if self.cost is not None:
                if not self.duel.script.check_condition(self.cost, reason_effect, playerid, *ev, 0):
                    reason_effect.cost_checked = False
                    return False
        else:
            reason_effect.cost_checked = False
        if not neglect_target and self.target is not None:
            if not self.duel.script.check_condition(self.target, reason_effect, playerid, *ev, 0):
                reason_effect.cost_checked = False
                return False
        reason_effect.cost_checked = False
        return True

    def is_condition_check(self: "Effect", playerid: int, e: "Event") -> bool:
        """Is the condition true for event ``e``?  (A non-activation effect of a face-down
        card on the field or banished never is.)  Runs with core.reason_effect/player set
        to this effect and ``playerid``."""
        phandler = self.get_handler()
        if (not (self.type & EFFECT_TYPE_ACTIVATE)
                and (phandler.current.location & (LOCATION_ONFIELD | LOCATION_REMOVED))
                and not phandler.is_position(POS_FACEUP)):
            return False
        if self.condition is None:
            return True
        field = self.duel
        core = field.core
        oreason = core.reason_effect
        op = core.reason_player
        core.reason_effect = self
        core.reason_player = playerid
        field.save_lp_cost()
        res = bool(field.script.check_condition(self.condition, self, playerid, *_event_args(e)))
        field.restore_lp_cost()
        core.reason_effect = oreason
        core.reason_player = op
        return res

    def is_activate_check(self: "Effect", playerid: int, e: "Event", neglect_cond: bool = False,
                          neglect_cost: bool = False, neglect_target: bool = False) -> bool:
        """is_activate_ready with core.reason_effect/reason_player set to this effect and player."""
        field = self.duel
        core = field.core
        field.save_lp_cost()
        oreason = core.reason_effect
        op = core.reason_player
        core.reason_effect = self
        core.reason_player = playerid
        result = self.is_activate_ready(playerid, e, neglect_cond, neglect_cost, neglect_target)
        core.reason_effect = oreason
        core.reason_player = op
        field.restore_lp_cost()
        return result

    def is_chainable(self: "Effect", tp: int) -> bool:
        """May this effect be chained now by ``tp``?

        Spell Speed 1 card activations never chain (except Curse of Field,
        EFFECT_FLAG2_COF).  The speed must reach that of the last link; an
        optional trigger from the hand only needs the last link to be speed 2 at
        most.  Every chain limit set by Duel.SetChainLimit(TillChainEnd) must
        accept ``(e, limit_player, tp)``.
        """
        if not (self.type & EFFECT_TYPE_ACTIONS):
            return False
        sp = self.get_speed()
        if (self.type & EFFECT_TYPE_ACTIVATE) and sp <= 1 and not self.is_flag2(EFFECT_FLAG2_COF):
            return False
        core = self.duel.core
        if core.current_chain:
            last_speed = core.current_chain[-1].triggering_effect.get_speed()
            if (not self.is_flag(EFFECT_FLAG_FIELD_ONLY) and (self.type & EFFECT_TYPE_TRIGGER_O)
                    and self.get_handler().current.location == LOCATION_HAND):
                if last_speed > 2:
                    return False
            elif sp < last_speed:
                return False
        for fn, player in list(core.chain_limit):
            if not self._check(fn, self, player, tp):
                return False
        for fn, player in list(core.chain_limit_p):
            if not self._check(fn, self, player, tp):
                return False
        return True

    # ----- targets ----------------------------------------------------------------------

    def is_target(self: "Effect", pcard: "Card") -> bool:
        """Does this (non-activated) effect apply to ``pcard``?

        Single, equip and Xyz-material effects apply to their card; a target
        effect asks its target function.  A field effect needs the card face-up
        on the field (unless SET_AVAILABLE or EFFECT_REVEAL_ONFIELD), in the
        self/opponent range seen from the handler's controller (or from player 0
        with ABSOLUTE_TARGET), then its target function ``(e, c)``.
        """
        t = self.type
        if t & EFFECT_TYPE_ACTIONS:
            return False
        if (t & (EFFECT_TYPE_SINGLE | EFFECT_TYPE_EQUIP | EFFECT_TYPE_XMATERIAL)) and not (t & EFFECT_TYPE_FIELD):
            return True
        if (t & EFFECT_TYPE_TARGET) and not (t & EFFECT_TYPE_FIELD):
            return self.is_fit_target_function(pcard)
        if (not self.is_flag(EFFECT_FLAG_SET_AVAILABLE) and self.code != EFFECT_REVEAL_ONFIELD
                and (pcard.current.location & LOCATION_ONFIELD) and not pcard.is_position(POS_FACEUP)):
            return False
        if not self.is_flag(EFFECT_FLAG_IGNORE_RANGE):
            if pcard.is_treated_as_not_on_field():
                return False
            if self.is_flag(EFFECT_FLAG_SPSUM_PARAM):
                return False
            if self.is_flag(EFFECT_FLAG_ABSOLUTE_TARGET):
                own = pcard.current.controler == 0
            else:
                own = pcard.current.controler == self.get_handler_player()
            if not pcard.current.is_location(self.s_range if own else self.o_range):
                return False
        return self.is_fit_target_function(pcard)

    def is_fit_target_function(self: "Effect", pcard: "Card") -> bool:
        """Does the target function accept ``(e, c)``?  No function accepts every card."""
        return self._check(self.target, self, pcard)

    def is_target_player(self: "Effect", playerid: int) -> bool:
        """Does this player-target effect affect ``playerid``?  s_range/o_range non-zero
        mean "affects the handler's controller"/"the other player" (with
        ABSOLUTE_TARGET: player 0 / player 1)."""
        if not self.is_flag(EFFECT_FLAG_PLAYER_TARGET):
            return False
        if self.is_flag(EFFECT_FLAG_ABSOLUTE_TARGET):
            if self.s_range and playerid == 0:
                return True
            if self.o_range and playerid == 1:
                return True
        else:
            self_player = self.get_handler_player()
            if self.s_range and self_player == playerid:
                return True
            if self.o_range and self_player != playerid:
                return True
        return False

    def is_player_effect_target(self: "Effect", pcard: "Card") -> bool:
        """For a player-target effect with a card filter: does its target ``(e, c)`` accept the card?"""
        return self._check(self.target, self, pcard)

    def is_immuned(self: "Effect", pcard: "Card") -> bool:
        """Is ``pcard`` unaffected by this effect?  Asks each available immunity effect of
        the card with its value function ``(ie, this_effect, c)``."""
        for peffect in list(pcard.immune_effect):
            if peffect.is_available() and peffect._has_value():
                if peffect.check_value_condition(self, pcard):
                    return True
        return False

    # ----- reset --------------------------------------------------------------------------

    def reset(self: "Effect", reset_level: int, reset_type: int) -> bool:
        """Does the reset ``(reset_level, reset_type)`` end this effect?

        - RESET_EVENT: one of the effect's event reset flags (high 16 bits) is in
          ``reset_level``; RESET_DISABLE only counts when the effect is on its owner.
        - RESET_CARD: the owner's code is ``reset_level``.
        - RESET_PHASE: a matching phase in a matching turn counts down
          ``reset_count``; the effect ends when it reaches 0.
        - RESET_CODE: a single, non-activated effect with code ``reset_level``.
        - RESET_COPY: the effect was copied with copy id ``reset_level``.
        """
        if reset_type == RESET_EVENT:
            if not (self.reset_flag & RESET_EVENT):
                return False
            if self.owner is not self.handler:
                reset_level &= ~RESET_DISABLE
            return bool(reset_level & 0xFFFF0000 & self.reset_flag)
        if reset_type == RESET_CARD:
            return self.owner is not None and self.owner.data.code == reset_level
        if reset_type == RESET_PHASE:
            if not (self.reset_flag & RESET_PHASE):
                return False
            pid = self.get_owner_player()
            tp = self.duel.infos.turn_player
            right_turn = (((self.reset_flag & RESET_SELF_TURN) and pid == tp)
                          or ((self.reset_flag & RESET_OPPO_TURN) and pid != tp))
            if right_turn and (reset_level & 0x3FF & self.reset_flag):
                self.reset_count -= 1
            return self.reset_count == 0
        if reset_type == RESET_CODE:
            return (self.code == reset_level and bool(self.type & EFFECT_TYPE_SINGLE)
                    and not (self.type & EFFECT_TYPE_ACTIONS))
        if reset_type == RESET_COPY:
            return self.copy_id == reset_level
        return False

    # ----- values -------------------------------------------------------------------------

    def _value_args(self: "Effect", arg: Any, extra: tuple) -> tuple:
        if isinstance(arg, int) and not isinstance(arg, bool):
            # catches a literal port of get_value(extraargs): extras are values, not a count
            raise TypeError("Effect.get_value: the first argument is a Card, an Effect or None; "
                            f"got the int {arg!r} (pass the extra Lua values after None)")
        if arg is None:
            return (self, *extra)
        return (self, arg, *extra)

    def get_value(self: "Effect", arg: Any = None, *extra: Any) -> int:
        """The effect's value as one integer.

        All reference overloads in one: ``get_value()``, ``get_value(card)``,
        ``get_value(effect)``, each with extra values.  A value function receives
        ``(e, [arg,] *extra)`` -- the effect and the card/effect first, then the
        extra values, which the reference queued before calling.  ``arg=None``
        means the overload without a card/effect.  A stored integer is returned
        as is; a missing function gives 0.
        """
        args = self._value_args(arg, extra)
        if self.is_flag(EFFECT_FLAG_FUNC_VALUE):
            if self.value is None:
                return 0
            return self.duel.script.get_function_value(self.value, *args)
        return self.value

    def get_values(self: "Effect", arg: Any = None, *extra: Any) -> list[int]:
        """The effect's value as a list (the multi-result overloads of get_value).

        A value function's every return value, in order (same arguments as
        get_value); a stored integer gives ``[value]``; a missing function ``[]``.
        """
        args = self._value_args(arg, extra)
        if self.is_flag(EFFECT_FLAG_FUNC_VALUE):
            if self.value is None:
                return []
            return list(self.duel.script.get_function_values(self.value, *args))
        return [self.value]

    def get_integer_value(self: "Effect") -> int:
        """The stored integer value; 0 when the value is a function."""
        return 0 if self.is_flag(EFFECT_FLAG_FUNC_VALUE) else self.value

    def check_value_condition(self: "Effect", *extra: Any) -> int | bool:
        """The value used as a yes/no test: a value function gets ``(e, *extra)`` and its
        result is taken as a boolean; a stored integer is returned (non-zero = yes)."""
        if self.is_flag(EFFECT_FLAG_FUNC_VALUE):
            return self._check(self.value, self, *extra)
        return self.value

    def get_label_object(self: "Effect") -> Any:
        """The Card, Effect or Group stored by Effect.SetLabelObject (None if none)."""
        return self.label_object

    # ----- copying --------------------------------------------------------------------------

    def clone(self: "Effect") -> "Effect":
        """A copy of this effect as a new, unregistered effect (no handler).

        Every field is copied; script functions get references of their own
        (the value only when it is a function).  The label list and the
        required hand/set effects are copied, the label object is shared.
        """
        duel = self.duel
        script = duel.script
        ceffect = duel.new_effect()
        keep = {"duel", "handle", "serial", "__weakref__"}
        for name in type(self).__slots__:
            if name in keep:
                continue
            setattr(ceffect, name, getattr(self, name))
        ceffect.flag = list(self.flag)
        ceffect.hint_timing = list(self.hint_timing)
        ceffect.label = list(self.label)
        ceffect.required_handorset_effects = list(self.required_handorset_effects)
        ceffect.handler = None
        if self.condition is not None:
            ceffect.condition = script.clone_function_ref(self.condition)
        if self.cost is not None:
            ceffect.cost = script.clone_function_ref(self.cost)
        if self.target is not None:
            ceffect.target = script.clone_function_ref(self.target)
        if self.operation is not None:
            ceffect.operation = script.clone_function_ref(self.operation)
        if self.is_flag(EFFECT_FLAG_FUNC_VALUE) and self.value is not None:
            ceffect.value = script.clone_function_ref(self.value)
        return ceffect
