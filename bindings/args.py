"""Arguments of a library call, read the way the reference's C functions read them.

A binding receives ``args: Args`` holding exactly the values the script
passed (``args.count`` is ``lua_gettop``: an explicit trailing ``nil``
counts).  Indexes are 1-based, like Lua's stack.  Engine objects arrive as
themselves: a card handle is the engine ``Card``, an effect handle the
``Effect``, a group handle the ``Group``.

Readers and their reference equivalents:

    args.need(n)            check_param_count: "%d Parameters are needed."
    args.card(i)            check_param(L, PARAM_TYPE_CARD, i) + the pointer
    args.group(i)           ... PARAM_TYPE_GROUP        'Parameter i should be "Group".'
    args.effect(i)          ... PARAM_TYPE_EFFECT       'Parameter i should be "Effect".'
    args.function(i)        ... PARAM_TYPE_FUNCTION     'Parameter i should be "Function".'
    args.str(i)             ... PARAM_TYPE_STRING + lua_tostring
    args.card_or_group(i)   card, else group, else 'Parameter i should be "Card" or "Group".'
    args.opt_card(i) ...    nil or absent -> None, else as card(i) (same for group/effect/function)
    args.is_card(i) ...     check_param(..., retfalse=TRUE): a bool, never raises
    args.int(i)             lua_tointeger: integers as is, floats with an exact integer
                            value, numeric strings; anything else (nil, booleans, tables,
                            3.5) is 0.  The full 64-bit value: mask it the way the
                            reference casts it (``& 0xFFFFFFFF`` for uint32_t, ...)
    args.opt_int(i, d)      d when i > count (``lua_gettop(L) >= i`` tests), else int(i)
    args.number(i)          lua_tonumber: int or float, 0 when not a number
    args.bool(i)            lua_toboolean: False only for nil and false (0 is true)
    args.opt_bool(i, d)     d when i > count, else bool(i)
    args.is_nil(i)          lua_isnil (False when i > count: that is "none")
    args.is_none_or_nil(i)  lua_isnoneornil
    args.raw(i)             the value itself (None when absent)
    args.rest(i)            the values from i to count, as a tuple (a filter's extra
                            arguments: pass them on unchanged)
    args.type_name(i)       Lua's type name ("nil", "number", "userdata", ...; "no value")

Every checker raises ``LuaArgError`` with the reference's wording; the
binding wrapper turns it into a Lua error at the script's call site.

Script functions and tables arrive as lupa objects.  Keep them, pass them
back to Lua (as callbacks, as a filter's extra arguments), but never index,
iterate or call them from Python: call script functions through the host
(``ctx.host.call_function`` and friends), which runs them protected and on
the right Lua thread.
"""

from __future__ import annotations

import math
import re
from types import FunctionType
from typing import Any

from ..engine.card import Card
from ..engine.effect import Effect
from ..engine.group import Group
from .errors import LuaArgError
from .handles import CardAnchor, RefAnchor
from .runtime import LuaFunction, LuaObject, LuaTable, _lupa

__all__ = ["Args", "lua_toboolean", "lua_tointeger", "lua_tonumber", "lua_type_name"]

_MAX = 2**63
_DEC_INT = re.compile(r"[+-]?[0-9]+")
_HEX_INT = re.compile(r"([+-]?)0[xX]([0-9a-fA-F]+)")
_DEC_FLOAT = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")
_HEX_FLOAT = re.compile(r"[+-]?0[xX](?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?")
_LUA_SPACE = " \f\n\r\t\v"


def _wrap64(v: int) -> int:
    v &= 0xFFFFFFFFFFFFFFFF
    return v - 0x10000000000000000 if v & 0x8000000000000000 else v


def _str2number(s: str) -> int | float | None:
    """Lua's string -> number conversion (lua_stringtonumber), None when not a numeral."""
    t = s.strip(_LUA_SPACE)
    if not t:
        return None
    m = _HEX_INT.fullmatch(t)
    if m:
        v = int(m.group(2), 16)
        return _wrap64(-v if m.group(1) == "-" else v)
    if _DEC_INT.fullmatch(t):
        v = int(t)
        if -_MAX <= v < _MAX:
            return v
        return float(v)       # a decimal integer that does not fit is read as a float
    if _DEC_FLOAT.fullmatch(t):
        return float(t)
    if _HEX_FLOAT.fullmatch(t):
        sign = -1.0 if t[0] == "-" else 1.0
        body = t.lstrip("+-")
        if "p" not in body.lower():
            body += "p0"
        return sign * float.fromhex(body)
    return None


def _float2int(f: float) -> int | None:
    if math.isfinite(f) and f == math.floor(f) and -_MAX <= f < _MAX:
        return int(f)
    return None


def lua_tointeger(v: Any) -> int:
    """``lua_tointeger``: the integer value of ``v``, 0 when it has none."""
    t = type(v)
    if t is int:
        return v
    if t is float:
        r = _float2int(v)
        return 0 if r is None else r
    if t is str:
        n = _str2number(v)
        if n is None:
            return 0
        if type(n) is int:
            return n
        r = _float2int(n)
        return 0 if r is None else r
    return 0


def lua_tonumber(v: Any) -> int | float:
    """``lua_tonumber`` (as an int for Lua integers): 0 when ``v`` is not a number."""
    t = type(v)
    if t is int or t is float:
        return v
    if t is str:
        n = _str2number(v)
        return 0 if n is None else n
    return 0


def lua_toboolean(v: Any) -> bool:
    return v is not None and v is not False


def lua_type_name(v: Any) -> str:
    """Lua's type() of a value as Python sees it."""
    if v is None:
        return "nil"
    t = type(v)
    if t is bool:
        return "boolean"
    if t is int or t is float:
        return "number"
    if t is str or t is bytes:
        return "string"
    if t is LuaFunction:
        return "function"
    if t is LuaTable:
        return "table"
    if t is Card or t is Effect or t is Group or t is CardAnchor or t is RefAnchor:
        return "userdata"
    if t is FunctionType and getattr(v, "lua_twin", None) is not None:
        return "function"
    if isinstance(v, LuaObject):
        return str(_lupa.lua_type(v) or "userdata")
    return "userdata"


def _number_to_str(v: int | float) -> str:
    if type(v) is int:
        return str(v)
    if v != v:
        return "nan" if math.copysign(1.0, v) > 0 else "-nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    s = "%.14g" % v
    if all(ch in "-0123456789" for ch in s):
        s += ".0"
    return s


class _Dead:
    """What a handle of an engine object that no longer exists reads as."""

    __slots__ = ()


_DEAD = _Dead()


class Args:
    """The arguments of one library call (see the module docstring)."""

    __slots__ = ("_a", "count")

    def __init__(self, values: tuple) -> None:
        self._a = values
        self.count = len(values)

    def __repr__(self) -> str:
        return f"Args({', '.join(self.type_name(i) for i in range(1, self.count + 1))})"

    # ----- raw access --------------------------------------------------------------------

    def _get(self, i: int) -> Any:
        if i > self.count or i < 1:
            return None
        v = self._a[i - 1]
        t = type(v)
        if t is CardAnchor:
            return v.obj
        if t is RefAnchor:
            v = v.ref()
            return _DEAD if v is None else v
        if t is FunctionType:
            twin = getattr(v, "lua_twin", None)
            if twin is not None:
                return twin
        return v

    def raw(self, i: int) -> Any:
        """The value at ``i`` (None when nil or absent); engine objects as themselves."""
        v = self._get(i)
        return None if v is _DEAD else v

    def rest(self, i: int) -> tuple:
        """The values from ``i`` to the last, unchanged (a filter's extra arguments)."""
        if i < 1:
            return tuple(self.raw(k) for k in range(i, self.count + 1))
        out = []
        for v in self._a[i - 1:]:
            t = type(v)
            if t is CardAnchor:
                v = v.obj
            elif t is RefAnchor:
                v = v.ref()         # (a dead object reads as nil, as raw gives it)
            elif t is FunctionType:
                twin = getattr(v, "lua_twin", None)
                if twin is not None:
                    v = twin
            out.append(v)
        return tuple(out)

    @property
    def values(self) -> tuple:
        return self.rest(1)

    def type_name(self, i: int) -> str:
        if i > self.count or i < 1:
            return "no value"
        return lua_type_name(self._get(i))

    # ----- counts and nils -----------------------------------------------------------------

    def need(self, n: int) -> None:
        """check_param_count: at least ``n`` arguments (explicit nils count)."""
        if self.count < n:
            raise LuaArgError(f"{n} Parameters are needed.")

    def is_nil(self, i: int) -> bool:
        """lua_isnil: an explicit nil (an absent argument is "none", not nil)."""
        return i <= self.count and self._a[i - 1] is None

    def is_none_or_nil(self, i: int) -> bool:
        return i > self.count or self._a[i - 1] is None

    # ----- engine objects -----------------------------------------------------------------------

    def _dead(self, i: int) -> LuaArgError:
        return LuaArgError(f"Parameter {i} is an object that no longer exists in the duel.")

    def card(self, i: int) -> Card:
        if 0 < i <= self.count:
            v = self._a[i - 1]
            if type(v) is CardAnchor:
                return v.obj
        v = self._get(i)
        if type(v) is Card:
            return v
        if v is _DEAD:
            raise self._dead(i)
        raise LuaArgError(f'Parameter {i} should be "Card".')

    def _referenced(self, i: int, cls: type, type_name: str) -> Any:
        """The Group or Effect (``cls``) at ``i``: those handles hold their object weakly."""
        if 0 < i <= self.count:
            v = self._a[i - 1]
            if type(v) is RefAnchor:
                obj = v.ref()
                if type(obj) is cls:
                    return obj
        v = self._get(i)
        if type(v) is cls:
            return v
        if v is _DEAD:
            raise self._dead(i)
        raise LuaArgError(f'Parameter {i} should be "{type_name}".')

    def group(self, i: int) -> Group:
        return self._referenced(i, Group, "Group")

    def effect(self, i: int) -> Effect:
        return self._referenced(i, Effect, "Effect")

    def card_or_group(self, i: int) -> Card | Group:
        v = self._get(i)
        if type(v) is Card or type(v) is Group:
            return v
        if v is _DEAD:
            raise self._dead(i)
        raise LuaArgError(f'Parameter {i} should be "Card" or "Group".')

    def opt_card(self, i: int) -> Card | None:
        return None if self.is_none_or_nil(i) else self.card(i)

    def opt_group(self, i: int) -> Group | None:
        return None if self.is_none_or_nil(i) else self.group(i)

    def opt_effect(self, i: int) -> Effect | None:
        return None if self.is_none_or_nil(i) else self.effect(i)

    def opt_card_or_group(self, i: int) -> Card | Group | None:
        return None if self.is_none_or_nil(i) else self.card_or_group(i)

    def is_card(self, i: int) -> bool:
        return 0 < i <= self.count and type(self._a[i - 1]) is CardAnchor

    def is_group(self, i: int) -> bool:
        if 0 < i <= self.count:
            v = self._a[i - 1]
            if type(v) is RefAnchor:
                return type(v.ref()) is Group
        return type(self._get(i)) is Group

    def is_effect(self, i: int) -> bool:
        return type(self._get(i)) is Effect

    # ----- functions and strings ----------------------------------------------------------------

    def function(self, i: int) -> Any:
        v = self._get(i)
        if type(v) is LuaFunction:
            return v
        raise LuaArgError(f'Parameter {i} should be "Function".')

    def opt_function(self, i: int) -> Any:
        return None if self.is_none_or_nil(i) else self.function(i)

    def is_function(self, i: int) -> bool:
        return type(self._get(i)) is LuaFunction

    def str(self, i: int) -> str:
        """check_param(PARAM_TYPE_STRING) + lua_tostring: strings, and numbers as Lua prints them."""
        v = self._get(i)
        t = type(v)
        if t is str:
            return v
        if t is int or t is float:
            return _number_to_str(v)
        if t is bytes:
            return v.decode("utf-8", "replace")
        raise LuaArgError(f'Parameter {i} should be "String".')

    def is_string(self, i: int) -> bool:
        t = type(self._get(i))
        return t is str or t is int or t is float or t is bytes

    # ----- numbers and booleans ------------------------------------------------------------------

    def int(self, i: int) -> int:
        """lua_tointeger (0 for nil, booleans, tables, non-integral numbers)."""
        if i > self.count or i < 1:
            return 0
        v = self._a[i - 1]
        if type(v) is int:
            return v
        return lua_tointeger(v)

    def codes(self, start: int) -> list[int | None]:
        """The arguments from ``start`` on as uint32 values, None for nil (the reference's
        loops over card codes and set codes skip nil arguments)."""
        return [v & 0xFFFFFFFF if type(v) is int else None if v is None else lua_tointeger(v) & 0xFFFFFFFF
                for v in self._a[start - 1:]]

    def opt_int(self, i: int, default: int) -> int:
        """``default`` when fewer than ``i`` arguments were passed, else int(i)."""
        return default if i > self.count else self.int(i)

    def uint32(self, i: int) -> int:
        """``(uint32_t)lua_tointeger(L, i)``."""
        if 0 < i <= self.count:
            v = self._a[i - 1]
            if type(v) is int:
                return v & 0xFFFFFFFF
        return self.int(i) & 0xFFFFFFFF

    def int32(self, i: int) -> int:
        """``(int32_t)lua_tointeger(L, i)``."""
        if 0 < i <= self.count:
            v = self._a[i - 1]
            v = (v if type(v) is int else lua_tointeger(v)) & 0xFFFFFFFF
        else:
            v = 0
        return v - 0x100000000 if v & 0x80000000 else v

    def number(self, i: int) -> int | float:
        """lua_tonumber (an int when the Lua value is an integer)."""
        return lua_tonumber(self._get(i))

    def is_number(self, i: int) -> bool:
        """lua_isnumber: numbers and numeric strings."""
        v = self._get(i)
        t = type(v)
        return t is int or t is float or (t is str and _str2number(v) is not None)

    def is_integer(self, i: int) -> bool:
        """lua_isinteger: a number stored as a Lua integer."""
        return type(self._get(i)) is int

    def bool(self, i: int) -> bool:
        """lua_toboolean."""
        v = self._get(i)
        return v is not None and v is not False

    def opt_bool(self, i: int, default: bool) -> bool:
        return default if i > self.count else self.bool(i)

    def is_boolean(self, i: int) -> bool:
        return type(self._get(i)) is bool
