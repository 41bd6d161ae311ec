"""Object identity: one Lua userdata per engine object (Card, Effect, Group).

What scripts rely on (DESIGN.md "Object handles"), and how it holds here:

- ``type(c) == "userdata"``: a handle is the lupa userdata of a small Python
  *anchor* object made for the engine object (``CardAnchor`` holds the card,
  ``RefAnchor`` a weak reference to the effect or group).
- ``getmetatable(c)`` is the card's class table ``c<code>`` (whose own
  metatable is ``Card``), ``getmetatable(g) == Group``,
  ``getmetatable(e) == Effect``; ``c:GetCode()`` and ``c.some_field`` read
  ``c<code>`` then ``Card``.  A private weak-keyed Lua table maps each handle
  to its class table, and bootstrap.lua makes lupa's metatable for Python
  objects read through it (indexing, ``#g`` and ``g1 + g2`` via Group's
  metamethods, ``tostring`` as "userdata: 0x..."), while the script-visible
  ``getmetatable`` answers with the class table.  No attribute of an anchor
  is readable from Lua.  (Between ``c<code>`` and ``Card`` sit the Card queries
  answered in Lua from printed values: bootstrap.lua, docs/bindings.md.)
- One engine object, one Lua value: the anchor is made once and kept on the
  engine object (``obj.handle``); lupa pushes an object it already pushed as
  the same userdata while that userdata lives, and a strong Lua table (by
  handle id) keeps it alive as long as the engine object lives.  So ``==``,
  ``rawequal`` and table keys work.  Objects the core creates
  (``duel.new_effect()``, event groups) get their handle lazily, the first
  time they cross into Lua.
- Back to Python: lupa hands Python the anchor; ``Args`` and the host
  dereference it (``from_lua``).  A library function passed as a value
  (``g:Filter(Card.IsCode, ...)``) reaches Python as its Python entry;
  ``from_lua`` swaps in its Lua twin, so Python keeps and passes back a Lua
  function.

Lifetimes (the weak references are what keep this free of leaks):

- Cards live as long as the duel (the duel lists them); their anchors hold
  them strongly.
- Effects are kept alive by this table from the moment they get a handle
  until ``release_effect`` (the reference keeps every effect until
  ``delete_effect``), so an effect a script created and holds only in Lua
  stays valid.
- Groups are held while a script call is running (the reference's
  ``sgroups``): every group that gets a handle while a call runs is kept
  until the call depth returns to 0; then groups marked ``KeepAlive``
  (``is_readonly == GTYPE_KEEP_ALIVE``) stay kept until they are no longer
  marked, and the others live as long as the engine holds them.  A script
  that keeps a released group and uses it later gets "Parameter n is an
  object that no longer exists" where the reference would read freed memory.
- When an effect or group is gone, its handle id is queued (a weak-reference
  callback) and released in Lua at the host's next call; the userdata then
  lives as long as Lua refers to it, with its class table, and only passing
  it to a library function fails.
"""

from __future__ import annotations

import itertools
import weakref
from collections.abc import Callable
from types import FunctionType
from typing import TYPE_CHECKING, Any

from ..engine.card import Card
from ..engine.effect import Effect
from ..engine.group import GTYPE_KEEP_ALIVE, Group
from .runtime import LuaObject

if TYPE_CHECKING:
    from .runtime import LuaSandbox

__all__ = ["CardAnchor", "HandleTable", "NoValue", "RefAnchor"]


class _NoValueType:
    """Zero Lua values (a C function that returns 0).  ``None`` is one nil."""

    __slots__ = ()
    _instance: "_NoValueType | None" = None

    def __new__(cls) -> "_NoValueType":
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "NoValue"

    def __bool__(self) -> bool:
        return False


NoValue = _NoValueType()


class CardAnchor:
    """The Python side of a card's handle (``hid``: the handle's id, under which Lua
    keeps it: a filter batch passes cards to Lua by id, see HandleTable.card_ids)."""

    __slots__ = ("obj", "hid")

    def __init__(self, card: Card, hid: int) -> None:
        self.obj = card
        self.hid = hid


class _HandleRef(weakref.ref):
    """A weak reference to an effect or group that knows its handle's id (read by
    the one shared callback: no closure per handle)."""

    __slots__ = ("hid",)


class RefAnchor:
    """The Python side of an effect's or group's handle (a weak reference; ``hid``:
    the handle's id, under which Lua keeps it while the object lives)."""

    __slots__ = ("ref", "hid")

    def __init__(self, ref: "weakref.ReferenceType[Any]", hid: int) -> None:
        self.ref = ref
        self.hid = hid


def deref(v: Any) -> Any:
    """A value Lua gave Python, as Python code wants it: engine objects for handles
    (None when the object is gone), Lua twins for library functions."""
    t = type(v)
    if t is CardAnchor:
        return v.obj
    if t is RefAnchor:
        return v.ref()
    if t is FunctionType:
        twin = getattr(v, "lua_twin", None)
        if twin is not None:
            return twin
    return v


def _releaser(released: list[int]) -> Callable[[_HandleRef], None]:
    """The weak-reference callback of one table's handles: queue the id of the one gone."""
    def gone(ref: _HandleRef) -> None:
        released.append(ref.hid)
    return gone


class HandleTable:
    """Makes, reuses and keeps alive the Lua handles of one host's engine objects."""

    __slots__ = ("_sb", "_class_of", "_effect_lib", "_group_lib", "_ids", "released", "_gone",
                 "effects", "script_groups", "kept_groups", "__weakref__")

    def __init__(self, sandbox: "LuaSandbox", class_of: Any, effect_lib: Any, group_lib: Any) -> None:
        self._sb = sandbox
        # code -> class table; the host's loader (creates c<code> and runs its script)
        self._class_of = class_of
        self._effect_lib = effect_lib
        self._group_lib = group_lib
        self._ids = itertools.count(1)
        # ids of handles whose effect/group is gone, released at the host's next call
        self.released: list[int] = []
        # the callback of every handle's weak reference (one function, no cycle through self)
        self._gone = _releaser(self.released)
        self.effects: dict[Effect, None] = {}
        self.script_groups: list[Group] = []
        self.kept_groups: dict[Group, None] = {}

    # ----- making handles -------------------------------------------------------------------

    def card_handle(self, card: Card, cls: Any) -> CardAnchor:
        """The handle of a card whose class table is ``cls`` (made once)."""
        a = card.handle
        if a is None:
            a = CardAnchor(card, next(self._ids))
            self._sb.adopt(a, cls, a.hid)
            card.handle = a
        return a

    def _ref(self, obj: Any, hid: int) -> _HandleRef:
        r = _HandleRef(obj, self._gone)
        r.hid = hid
        return r

    def _make(self, obj: Any) -> Any:
        t = type(obj)
        if t is Group:
            hid = next(self._ids)
            a = RefAnchor(self._ref(obj, hid), hid)
            self._sb.adopt(a, self._group_lib, hid)
            obj.handle = a
            self.script_groups.append(obj)
            return a
        if t is Effect:
            hid = next(self._ids)
            a = RefAnchor(self._ref(obj, hid), hid)
            self._sb.adopt(a, self._effect_lib, hid)
            obj.handle = a
            self.effects[obj] = None
            return a
        if t is Card:
            return self.card_handle(obj, self._class_of(obj.data.get_original_code()))
        raise TypeError(f"no Lua handle for a {t.__name__}")

    def push(self, obj: Card | Effect | Group) -> Any:
        """The Lua value of an engine object (its anchor; lupa pushes its userdata)."""
        a = obj.handle
        return a if a is not None else self._make(obj)

    def card_ids(self, cards: list[Card]) -> list[int]:
        """The handle ids of ``cards`` (handles made where missing).  Lua keeps every
        card's handle by its id for the whole duel, so a list of cards can cross as
        integers, which lupa passes far more cheaply than userdata (~0.4 us each)."""
        out = []
        for c in cards:
            a = c.handle
            if a is None:
                a = self._make(c)
            out.append(a.hid)
        return out

    # ----- converting values -------------------------------------------------------------------

    def to_lua(self, v: Any) -> Any:
        """A Python value ready for Lua: engine objects become their handles."""
        t = type(v)
        if t is Card or t is Effect or t is Group:
            a = v.handle
            return a if a is not None else self._make(v)
        return v

    def args_to_lua(self, values: tuple | list) -> list:
        """to_lua of each value (one loop: this runs for every call into a script)."""
        out = []
        for v in values:
            t = type(v)
            if t is Card or t is Effect or t is Group:
                a = v.handle
                v = a if a is not None else self._make(v)
            out.append(v)
        return out

    def result_to_lua(self, r: Any) -> Any:
        """A binding's return value for Lua (tuples are several values, NoValue none).

        Raises TypeError for values that must not reach scripts (raw Python objects).
        """
        t = type(r)
        if t is int or t is bool or r is None or t is str or t is float:
            return r
        if t is Card or t is Effect or t is Group:
            a = r.handle
            return a if a is not None else self._make(r)
        if t is tuple:
            for x in r:         # (most are counts and flags: the tuple goes as it is)
                tx = type(x)
                if not (tx is int or tx is bool or x is None):
                    return tuple([self._one_to_lua(x) for x in r])
            return r
        if r is NoValue:
            return ()
        if isinstance(r, LuaObject):
            return r
        raise TypeError(f"a binding returned a {t.__name__}, which scripts cannot receive")

    def _one_to_lua(self, v: Any) -> Any:
        t = type(v)
        if t is int or t is bool or v is None or t is str or t is float:
            return v
        if t is Card or t is Effect or t is Group:
            a = v.handle
            return a if a is not None else self._make(v)
        if isinstance(v, LuaObject):
            return v
        raise TypeError(f"a binding returned a {t.__name__}, which scripts cannot receive")

    def class_of_anchor(self, anchor: Any) -> Any:
        """The class table of a handle's anchor (None for any other Python object).

        Used when lupa gave an anchor a second userdata (see bootstrap.lua's class_of).
        """
        t = type(anchor)
        if t is CardAnchor:
            return self._class_of(anchor.obj.data.get_original_code())
        if t is RefAnchor:
            obj = anchor.ref()
            if type(obj) is Group:
                return self._group_lib
            if type(obj) is Effect:
                return self._effect_lib
        return None

    from_lua = staticmethod(deref)

    @staticmethod
    def results_from_lua(values: tuple) -> tuple:
        return tuple([deref(v) for v in values])

    # ----- lifetimes ---------------------------------------------------------------------------

    def release_effect(self, effect: Effect) -> None:
        """The engine deleted the effect: stop keeping it alive for Lua."""
        self.effects.pop(effect, None)

    def release_script_groups(self) -> None:
        """Call depth is back to 0: drop groups held for the finished calls (keep KeepAlive ones).

        A kept group stops being kept only through unkeep (Group.DeleteGroup), which
        moves it back among the groups of the running call: so only those are looked at."""
        sg = self.script_groups
        if sg:
            kept = self.kept_groups
            for g in sg:
                if g.is_readonly == GTYPE_KEEP_ALIVE:
                    kept[g] = None
            sg.clear()

    def unkeep(self, group: Group) -> None:
        """``group`` is no longer KeepAlive: it is held until the running call ends, then dropped."""
        if self.kept_groups.pop(group, 0) is None:
            self.script_groups.append(group)

    def flush_released(self) -> None:
        """Release in Lua the handles of effects and groups that are gone."""
        if self.released:
            ids, self.released[:] = list(self.released), []
            self._sb.release_handles(ids)

    def stats(self) -> dict[str, int]:
        return {"effects": len(self.effects), "script_groups": len(self.script_groups),
                "kept_groups": len(self.kept_groups), "released_pending": len(self.released)}
