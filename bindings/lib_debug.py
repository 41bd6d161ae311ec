"""The Debug library (reference: libdebug.cpp), all 11 functions.

Used by puzzle and test scripts to build a position directly: cards put
straight into zones, summon states, equips, targets and counters set without
the rules, then MSG_RELOAD_FIELD.  The rule-side work is in the engine:
debug_add_card and debug_pre_add_counter in engine/field/zones.py,
debug_pre_equip in engine/operations/control.py, clear and
reload_field_begin/end in engine/duel.py.

Texts: Debug.Message hands ``tostring(value)`` to the host's message handler
(type 2; the reference's buffer keeps 255 bytes).  Debug.SetAIName and
Debug.ShowHint write MSG_AI_NAME / MSG_SHOW_HINT with the text cut to 127 and
1023 bytes (the reference's SIZE_AI_NAME / SIZE_HINT_MSG minus the NUL); like
the reference's strlen, a text stops at its first NUL byte.
"""

from __future__ import annotations

from typing import Any

from ..engine.messages import MsgAiName, MsgShowHint
from .args import Args
from .registry import LuaContext, NoValue, lua_function
from ..engine.wire import i32 as _i32

SIZE_AI_NAME = 128
SIZE_HINT_MSG = 1024
_STRBUFFER = 256


def _c_text(text: str | None, size: int) -> str:
    """A Lua string as the reference copies it: up to the first NUL, at most
    ``size - 1`` bytes (a cut multi-byte character is kept as raw bytes)."""
    if text is None:
        return "(null)"
    raw = text.encode("utf-8", "surrogateescape")
    nul = raw.find(b"\x00")
    if nul >= 0:
        raw = raw[:nul]
    raw = raw[:size - 1]
    return raw.decode("utf-8", "surrogateescape")


@lua_function("Debug.Message")
def debug_message(ctx: LuaContext, args: Args) -> Any:
    """Send ``tostring(value)`` to the host's message handler (type 2)."""
    args.need(1)
    text = ctx.tostring(args.raw(args.count))
    ctx.message(_c_text(text, _STRBUFFER), 2)
    return NoValue


@lua_function("Debug.AddCard")
def debug_add_card(ctx: LuaContext, args: Args) -> Any:
    """Debug.AddCard(code, owner, player, location, sequence, position[, proc]):
    the new card, or nothing when it could not be placed."""
    args.need(6)
    code = args.int32(1)
    owner = args.int32(2)
    playerid = args.int32(3)
    location = args.int32(4)
    sequence = args.int32(5)
    position = args.int32(6)
    proc = args.bool(7)
    pcard = ctx.duel.debug_add_card(code & 0xFFFFFFFF, owner, playerid, location, sequence, position, proc)
    if pcard is None:
        return NoValue
    return pcard


@lua_function("Debug.SetPlayerInfo")
def debug_set_player_info(ctx: LuaContext, args: Args) -> Any:
    """Debug.SetPlayerInfo(player, lp, start_count, draw_count)."""
    args.need(4)
    playerid = args.int32(1)
    lp = args.int32(2)
    startcount = args.int32(3)
    drawcount = args.int32(4)
    if playerid != 0 and playerid != 1:
        return NoValue
    pl = ctx.duel.player[playerid]
    pl.lp = lp
    pl.start_count = startcount
    pl.draw_count = drawcount
    return NoValue


@lua_function("Debug.PreSummon")
def debug_pre_summon(ctx: LuaContext, args: Args) -> Any:
    """Debug.PreSummon(card, summon_type[, summon_location]): how the card counts as summoned."""
    args.need(2)
    pcard = args.card(1)
    summon_type = args.uint32(2)
    summon_location = args.int(3) & 0xFF if args.count > 2 else 0
    pcard.summon_info = (summon_type | (summon_location << 16)) & 0xFFFFFFFF
    return NoValue


@lua_function("Debug.PreEquip")
def debug_pre_equip(ctx: LuaContext, args: Args) -> Any:
    """Debug.PreEquip(equip_card, target): true when the equip was made."""
    args.need(2)
    equip_card = args.card(1)
    target = args.card(2)
    return bool(equip_card.duel.debug_pre_equip(equip_card, target))


@lua_function("Debug.PreSetTarget")
def debug_pre_set_target(ctx: LuaContext, args: Args) -> Any:
    """Debug.PreSetTarget(card, target): the card keeps targeting ``target``."""
    args.need(2)
    t_card = args.card(1)
    target = args.card(2)
    t_card.add_card_target(target)
    return NoValue


@lua_function("Debug.PreAddCounter")
def debug_pre_add_counter(ctx: LuaContext, args: Args) -> Any:
    """Debug.PreAddCounter(card, counter_type[, count=1])."""
    args.need(2)
    pcard = args.card(1)
    countertype = args.int(2) & 0xFFFF
    count = args.int(3) & 0xFFFF if args.count >= 3 else 1
    pcard.duel.debug_pre_add_counter(pcard, countertype, count)
    return NoValue


@lua_function("Debug.ReloadFieldBegin")
def debug_reload_field_begin(ctx: LuaContext, args: Args) -> Any:
    """Debug.ReloadFieldBegin(flag[, rule]): start over with an empty duel."""
    args.need(1)
    flag = args.uint32(1)
    rule = args.int32(2)
    ctx.duel.reload_field_begin(flag, rule)
    return NoValue


@lua_function("Debug.ReloadFieldEnd")
def debug_reload_field_end(ctx: LuaContext, args: Args) -> Any:
    """Debug.ReloadFieldEnd(): MSG_RELOAD_FIELD with the field built so far."""
    ctx.duel.reload_field_end()
    return NoValue


@lua_function("Debug.SetAIName")
def debug_set_ai_name(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    text = args.str(1)
    ctx.duel.emit(MsgAiName(text=_c_text(text, SIZE_AI_NAME)))
    return NoValue


@lua_function("Debug.ShowHint")
def debug_show_hint(ctx: LuaContext, args: Args) -> Any:
    args.need(1)
    text = ctx.tostring(args.raw(args.count))
    ctx.duel.emit(MsgShowHint(text=_c_text(text, SIZE_HINT_MSG)))
    return NoValue
