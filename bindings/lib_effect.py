"""The Effect library (reference: libeffect.cpp), all 55 functions.

Each function reads its arguments the way the reference's does (which are
checked, which are optional, ``lua_gettop`` branches), stores into the
effect's fields with the width of the reference's field (``range`` is 16 bits,
``count_limit`` 8, ``value`` a signed 32-bit int, ``category`` and the two flag
words 64 bits), and returns what the reference pushes (booleans stay booleans).

Script functions (condition, cost, target, operation, a function value) are
kept as the lupa function objects the script passed; the engine hands them
back to ``duel.script``.  The reference's "unref the old function" becomes
``duel.script.release(old)``.

The label object (Effect.SetLabelObject) is kept as the engine object itself
(Card, Effect or Group) with ``object_type`` saying which, as the engine
reads it (field/effects.py); anything else is refused like the reference
refuses it.  Note that this keeps a labelled group alive; the reference
keeps only a registry reference, which goes stale when the group is freed.
"""

from __future__ import annotations

import math
from typing import Any

from ..engine.constants import (
    EFFECT_COUNT_CODE_CHAIN, EFFECT_COUNT_CODE_OATH, EFFECT_COUNT_CODE_SINGLE,
    EFFECT_FLAG_ABSOLUTE_TARGET, EFFECT_FLAG_COUNT_LIMIT, EFFECT_FLAG_DELAY, EFFECT_FLAG_FIELD_ONLY,
    EFFECT_FLAG_FUNC_VALUE, EFFECT_TYPE_ACTIONS, EFFECT_TYPE_ACTIVATE, EFFECT_TYPE_CONTINUOUS,
    EFFECT_TYPE_FIELD, EFFECT_TYPE_FLIP, EFFECT_TYPE_IGNITION, EFFECT_TYPE_QUICK_F,
    EFFECT_TYPE_QUICK_O, EFFECT_TYPE_SINGLE, EFFECT_TYPE_TRIGGER_F, EFFECT_TYPE_TRIGGER_O,
    EVENT_FLIP, LOCATION_FZONE, LOCATION_HAND, LOCATION_SZONE, RESET_OPPO_TURN, RESET_PHASE,
    RESET_SELF_TURN,
)
from ..engine.core_constants import (
    EFFECT_TYPES_CHAIN_LINK, INTERNAL_FLAGS, PARAM_TYPE_CARD, PARAM_TYPE_EFFECT, PARAM_TYPE_GROUP,
    PARAM_TYPE_INT,
)
from .args import Args
from .errors import LuaArgError
from .registry import LuaContext, NoValue, lua_function
from ..engine.wire import i32 as _i32, u32 as _u32

U64 = 0xFFFFFFFFFFFFFFFF


def _u8(v: int) -> int:
    return v & 0xFF


def _u16(v: int) -> int:
    return v & 0xFFFF


def _i64(v: int) -> int:
    """A 64-bit field pushed with lua_pushinteger (read back as a signed lua_Integer)."""
    v &= U64
    return v - 0x10000000000000000 if v & 0x8000000000000000 else v


def _number_to_i32(v: int | float) -> int:
    """``(int32_t)lua_tonumber(...)``: floats truncate toward zero; NaN and out-of-range
    values give INT32_MIN (what the x86 conversion produces)."""
    if type(v) is int:
        return _i32(v)
    if not math.isfinite(v) or not (-2147483649.0 < v < 2147483648.0):
        return -2147483648
    return int(v)


# ===== creating, cloning, resetting ========================================================

@lua_function("Effect.CreateEffect")
def effect_create_effect(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    pcard = args.card(1)
    duel = pcard.duel
    peffect = duel.new_effect()
    peffect.effect_owner = _u8(duel.core.reason_player)
    peffect.owner = pcard
    return peffect


@lua_function("Effect.GlobalEffect")
def effect_global_effect(ctx: LuaContext, args: Args) -> Any:
    duel = ctx.duel
    peffect = duel.new_effect()
    peffect.effect_owner = 0
    peffect.owner = duel.temp_card
    return peffect


@lua_function("Effect.Clone")
def effect_clone(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).clone()


@lua_function("Effect.Reset")
def effect_reset(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    peffect = args.effect(1)
    if peffect.owner is None or peffect.handler is None:
        return NoValue
    if peffect.is_flag(EFFECT_FLAG_FIELD_ONLY):
        peffect.duel.remove_effect(peffect)
    else:
        peffect.handler.remove_effect(peffect)
    return NoValue


# ===== plain setters =======================================================================

@lua_function("Effect.SetDescription")
def effect_set_description(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.description = args.uint32(2)
    return NoValue


@lua_function("Effect.SetCode")
def effect_set_code(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.code = args.uint32(2)
    return NoValue


@lua_function("Effect.SetRange")
def effect_set_range(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.range = _u16(args.int(2))
    return NoValue


@lua_function("Effect.SetTargetRange")
def effect_set_target_range(ctx: LuaContext, args: Args) -> Any:
    args.need(3)
    peffect = args.effect(1)
    peffect.s_range = _u16(args.int(2))
    peffect.o_range = _u16(args.int(3))
    peffect.flag[0] &= ~EFFECT_FLAG_ABSOLUTE_TARGET & U64
    return NoValue


@lua_function("Effect.SetAbsoluteRange")
def effect_set_absolute_range(ctx: LuaContext, args: Args) -> Any:
    args.need(4)
    peffect = args.effect(1)
    playerid = args.int32(2)
    s = _u16(args.int(3))
    o = _u16(args.int(4))
    if playerid == 0:
        peffect.s_range, peffect.o_range = s, o
    else:
        peffect.s_range, peffect.o_range = o, s
    peffect.flag[0] |= EFFECT_FLAG_ABSOLUTE_TARGET
    return NoValue


@lua_function("Effect.SetCountLimit")
def effect_set_count_limit(ctx: LuaContext, args: Args) -> Any:
    """A limit of 0 means 1; EFFECT_COUNT_CODE_CHAIN alone also counts per card
    (EFFECT_COUNT_CODE_SINGLE), as the reference makes it."""
    args.need(2)
    peffect = args.effect(1)
    v = args.uint32(2)
    code = args.uint32(3) if args.count >= 3 else 0
    if v == 0:
        v = 1
    if code == EFFECT_COUNT_CODE_CHAIN:
        code = EFFECT_COUNT_CODE_CHAIN | EFFECT_COUNT_CODE_SINGLE
    peffect.flag[0] |= EFFECT_FLAG_COUNT_LIMIT
    peffect.count_limit = _u8(v)
    peffect.count_limit_max = _u8(v)
    peffect.count_code = code
    return NoValue


@lua_function("Effect.SetReset")
def effect_set_reset(ctx: LuaContext, args: Args) -> Any:
    """A count of 0 (or none) means 1; a phase reset with neither turn flag resets
    on both players' turns."""
    args.need(2)
    peffect = args.effect(1)
    v = args.uint32(2)
    c = args.int32(3)
    if c == 0:
        c = 1
    if v & RESET_PHASE and not (v & (RESET_SELF_TURN | RESET_OPPO_TURN)):
        v |= RESET_SELF_TURN | RESET_OPPO_TURN
    peffect.reset_flag = v
    peffect.reset_count = c
    return NoValue


@lua_function("Effect.SetType")
def effect_set_type(ctx: LuaContext, args: Args) -> Any:
    """The type is normalised as the reference does it:

    - a card activation is FIELD|ACTIVATE and its range becomes the Spell &
      Trap Zone, the Field Zone and the hand;
    - a flip effect gets the code EVENT_FLIP and becomes SINGLE|FLIP with
      TRIGGER_O (and EFFECT_FLAG_DELAY) or TRIGGER_F;
    - ignition and quick effects are FIELD effects;
    - EFFECT_TYPE_ACTIONS is set exactly for chain-link and continuous types.
    """
    args.need(2)
    peffect = args.effect(1)
    v = args.uint32(2)
    if v & EFFECT_TYPE_ACTIVATE:
        v = EFFECT_TYPE_FIELD | EFFECT_TYPE_ACTIVATE
        peffect.range = LOCATION_SZONE + LOCATION_FZONE + LOCATION_HAND
    elif v & EFFECT_TYPE_FLIP:
        peffect.code = EVENT_FLIP
        if v & EFFECT_TYPE_TRIGGER_O:
            v = EFFECT_TYPE_SINGLE | EFFECT_TYPE_FLIP | EFFECT_TYPE_TRIGGER_O
            peffect.flag[0] |= EFFECT_FLAG_DELAY
        else:
            v = EFFECT_TYPE_SINGLE | EFFECT_TYPE_FLIP | EFFECT_TYPE_TRIGGER_F
    elif v & (EFFECT_TYPE_IGNITION | EFFECT_TYPE_QUICK_O | EFFECT_TYPE_QUICK_F):
        v |= EFFECT_TYPE_FIELD
    if v & (EFFECT_TYPES_CHAIN_LINK | EFFECT_TYPE_CONTINUOUS):
        v |= EFFECT_TYPE_ACTIONS
    else:
        v &= ~EFFECT_TYPE_ACTIONS & 0xFFFFFFFF
    peffect.type = v
    return NoValue


@lua_function("Effect.SetProperty")
def effect_set_property(ctx: LuaContext, args: Args) -> Any:
    """Both flag words; the core's own flags of the first word are kept."""
    args.need(2)
    peffect = args.effect(1)
    v1 = args.int(2) & U64
    v2 = args.int(3) & U64
    peffect.flag[0] = (peffect.flag[0] & INTERNAL_FLAGS) | (v1 & ~INTERNAL_FLAGS & U64)
    peffect.flag[1] = v2
    return NoValue


@lua_function("Effect.SetLabel")
def effect_set_label(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.label = [args.int(i) for i in range(2, args.count + 1)]
    return NoValue


@lua_function("Effect.SetLabelObject")
def effect_set_label_object(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    if args.is_nil(2):
        peffect.label_object = None
        peffect.object_type = PARAM_TYPE_INT
        return NoValue
    if args.is_card(2):
        peffect.label_object = args.card(2)
        peffect.object_type = PARAM_TYPE_CARD
    elif args.is_effect(2):
        peffect.label_object = args.effect(2)
        peffect.object_type = PARAM_TYPE_EFFECT
    elif args.is_group(2):
        peffect.label_object = args.group(2)
        peffect.object_type = PARAM_TYPE_GROUP
    else:
        raise LuaArgError('Parameter 2 should be "Card" or "Effect" or "Group".')
    return NoValue


@lua_function("Effect.SetCategory")
def effect_set_category(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.category = args.int(2) & U64
    return NoValue


@lua_function("Effect.SetHintTiming")
def effect_set_hint_timing(ctx: LuaContext, args: Args) -> Any:
    """One timing for both players, or the effect's player's and the opponent's."""
    args.need(2)
    peffect = args.effect(1)
    vs = args.uint32(2)
    vo = args.uint32(3) if args.count >= 3 else vs
    peffect.hint_timing[0] = vs
    peffect.hint_timing[1] = vo
    return NoValue


@lua_function("Effect.SetOwnerPlayer")
def effect_set_owner_player(ctx: LuaContext, args: Args) -> Any:
    """Anything but 0 or 1 is ignored; a missing player counts as 0."""
    args.need(1)
    peffect = args.effect(1)
    p = args.int32(2)
    if p != 0 and p != 1:
        return NoValue
    peffect.effect_owner = p
    return NoValue


# ===== script functions ====================================================================

def _release(peffect: Any, fn: Any) -> None:
    if fn is not None:
        peffect.duel.script.release(fn)


@lua_function("Effect.SetCondition")
def effect_set_condition(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    fn = args.function(2)
    _release(peffect, peffect.condition)
    peffect.condition = fn
    return NoValue


@lua_function("Effect.SetTarget")
def effect_set_target(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    fn = args.function(2)
    _release(peffect, peffect.target)
    peffect.target = fn
    return NoValue


@lua_function("Effect.SetCost")
def effect_set_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    fn = args.function(2)
    _release(peffect, peffect.cost)
    peffect.cost = fn
    return NoValue


@lua_function("Effect.SetValue")
def effect_set_value(ctx: LuaContext, args: Args) -> Any:
    """A function (EFFECT_FLAG_FUNC_VALUE set), else a number kept as a signed 32-bit
    int: a boolean is 1 or 0, an integer is truncated to 32 bits, anything else
    goes through lua_tonumber (floats truncate; nil, tables and cards give 0)."""
    args.need(2)
    peffect = args.effect(1)
    if peffect.is_flag(EFFECT_FLAG_FUNC_VALUE):
        _release(peffect, peffect.value)
    if args.is_function(2):
        peffect.value = args.function(2)
        peffect.flag[0] |= EFFECT_FLAG_FUNC_VALUE
    else:
        peffect.flag[0] &= ~EFFECT_FLAG_FUNC_VALUE & U64
        if args.is_boolean(2):
            peffect.value = 1 if args.bool(2) else 0
        elif args.is_integer(2):
            peffect.value = _i32(args.int(2))
        else:
            peffect.value = _number_to_i32(args.number(2))
    return NoValue


@lua_function("Effect.SetOperation")
def effect_set_operation(ctx: LuaContext, args: Args) -> Any:
    """A function, or nil for none."""
    args.need(2)
    peffect = args.effect(1)
    fn = None if args.is_nil(2) else args.function(2)
    _release(peffect, peffect.operation)
    peffect.operation = fn
    return NoValue


@lua_function("Effect.GetCondition")
def effect_get_condition(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).condition


@lua_function("Effect.GetTarget")
def effect_get_target(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).target


@lua_function("Effect.GetCost")
def effect_get_cost(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).cost


@lua_function("Effect.GetValue")
def effect_get_value(ctx: LuaContext, args: Args) -> Any:
    """The value function, or the stored integer."""
    args.need(1)
    peffect = args.effect(1)
    if peffect.is_flag(EFFECT_FLAG_FUNC_VALUE):
        return peffect.value
    return _i32(peffect.value)


@lua_function("Effect.GetOperation")
def effect_get_operation(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).operation


# ===== plain getters =======================================================================

@lua_function("Effect.GetFieldID")
def effect_get_field_id(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).id


@lua_function("Effect.GetDescription")
def effect_get_description(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).description


@lua_function("Effect.GetCode")
def effect_get_code(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).code


@lua_function("Effect.GetType")
def effect_get_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).type


@lua_function("Effect.GetProperty")
def effect_get_property(ctx: LuaContext, args: Args) -> Any:
    """Both flag words (two integers)."""
    args.need(1)
    peffect = args.effect(1)
    return _i64(peffect.flag[0]), _i64(peffect.flag[1])


@lua_function("Effect.GetLabel")
def effect_get_label(ctx: LuaContext, args: Args) -> Any:
    """Every label value, or one 0 when there is none."""
    args.need(1)
    label = args.effect(1).label
    if not label:
        return 0
    return tuple(label)


@lua_function("Effect.GetLabelObject")
def effect_get_label_object(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    obj = args.effect(1).label_object
    return obj


@lua_function("Effect.GetCategory")
def effect_get_category(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return _i64(args.effect(1).category)


@lua_function("Effect.GetRange")
def effect_get_range(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).range


@lua_function("Effect.GetOwner")
def effect_get_owner(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).get_owner()


@lua_function("Effect.GetHandler")
def effect_get_handler(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).get_handler()


@lua_function("Effect.GetOwnerPlayer")
def effect_get_owner_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).get_owner_player()


@lua_function("Effect.GetHandlerPlayer")
def effect_get_handler_player(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).get_handler_player()


@lua_function("Effect.GetActiveType")
def effect_get_active_type(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).get_active_type()


@lua_function("Effect.IsActiveType")
def effect_is_active_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    return bool(peffect.get_active_type() & args.uint32(2))


@lua_function("Effect.GetActivateLocation")
def effect_get_activate_location(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).active_location


@lua_function("Effect.GetActivateSequence")
def effect_get_activate_sequence(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return args.effect(1).active_sequence


# ===== tests on bits =======================================================================

@lua_function("Effect.IsHasProperty")
def effect_is_has_property(ctx: LuaContext, args: Args) -> Any:
    """Each given flag word (0 or missing: not tested) shares a bit with the effect's."""
    args.need(2)
    peffect = args.effect(1)
    tflag1 = args.int(2) & U64
    tflag2 = args.int(3) & U64
    return ((not tflag1 or bool(peffect.flag[0] & tflag1))
            and (not tflag2 or bool(peffect.flag[1] & tflag2)))


@lua_function("Effect.IsHasCategory")
def effect_is_has_category(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    return bool(peffect.category & (args.int(2) & U64))


@lua_function("Effect.IsHasType")
def effect_is_has_type(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    return bool(peffect.type & (args.int(2) & U64))


@lua_function("Effect.IsHasRange")
def effect_is_has_range(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    return bool(peffect.range & (args.int(2) & U64))


# ===== activation and counts ===============================================================

@lua_function("Effect.IsActivatable")
def effect_is_activatable(ctx: LuaContext, args: Args) -> Any:
    """is_activateable for the player with no event; optional neglect_loc, neglect_target."""
    args.need(2)
    peffect = args.effect(1)
    playerid = _u8(args.int(2))
    neglect_loc = False
    neglect_target = False
    if args.count > 2:
        neglect_loc = args.bool(3)
        if args.count > 3:
            neglect_target = args.bool(4)
    duel = peffect.duel
    return bool(peffect.is_activateable(playerid, duel.nil_event, False, False, neglect_target,
                                        neglect_loc))


@lua_function("Effect.IsActivated")
def effect_is_activated(ctx: LuaContext, args: Args) -> Any:
    """Is it a chain-link effect (activated rather than applied)?"""
    args.need(1)
    return bool(args.effect(1).type & EFFECT_TYPES_CHAIN_LINK)


@lua_function("Effect.IsCostChecked")
def effect_is_cost_checked(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    return bool(args.effect(1).cost_checked)


@lua_function("Effect.SetCostCheck")
def effect_set_cost_check(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    peffect.cost_checked = args.bool(2)
    return NoValue


@lua_function("Effect.CheckCountLimit")
def effect_check_count_limit(ctx: LuaContext, args: Args) -> Any:
    args.need(2)
    peffect = args.effect(1)
    return bool(peffect.check_count_limit(_u8(args.int(2))))


@lua_function("Effect.UseCountLimit")
def effect_use_count_limit(ctx: LuaContext, args: Args) -> Any:
    """Use ``count`` (default 1) of the effect's uses for player ``p``; with
    ``oath_only`` only when the count code is an oath (EFFECT_COUNT_CODE_OATH).

    A negative count would make the reference loop about 2^32 times; here it uses
    nothing.
    """
    args.need(2)
    peffect = args.effect(1)
    p = _u8(args.int(2))
    count = 1
    oath_only = False
    code = peffect.count_code
    if args.count > 2:
        count = args.int32(3)
        if args.count > 3:
            oath_only = args.bool(4)
    if not oath_only or code & EFFECT_COUNT_CODE_OATH:
        while count > 0:
            peffect.dec_count(p)
            count -= 1
    return NoValue
