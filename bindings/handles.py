"""Object identity: one Lua userdata per engine object (Card, Effect, Group).

What scripts rely on (DESIGN.md "Object handles"), and how it holds here:

- ``type(c) == "userdata"``: a handle is a lupa userdata (made by pushing a
  throw-away Python "anchor" object) whose metatable is then replaced, from
  host-side Lua, by a private one.
- ``getmetatable(c)`` is the card's class table ``c<code>`` (whose own
  metatable is ``Card``), ``getmetatable(g) == Group``,
  ``getmetatable(e) == Effect``: the private metatable's ``__metatable``
  field.  Its ``__index`` is the same table, so ``c:GetCode()`` and
  ``c.some_field`` read ``c<code>`` then ``Card``, as in the reference.
  Group's metamethods (``#g``, ``g1 + g2``, ...) are copied into it at
  install time.  Its third field, ``__gc``, is invisible to scripts and
  hands the userdata back to lupa when Lua collects it (else lupa would keep
  every anchor forever).
- One engine object, one Lua value: the handle is made once and kept on the
  engine object (``obj.handle``, a lupa reference); every later push reuses
  it, so ``==``, ``rawequal`` and table keys work.  Objects the core creates
  (``duel.new_effect()``, event groups) get their handle lazily, the first
  time they cross into Lua.
- Back to Python: a private weak-keyed Lua table maps each handle to what
  the Lua-side wrappers hand to Python: the ``Card`` itself, or a
  ``weakref.ref`` to the ``Effect``/``Group``.  ``Args`` dereferences these.

Lifetimes (the weak references are what keep this free of leaks):

- Cards live as long as the duel (the duel lists them); their map entry holds
  them strongly.
- Effects are kept alive by this table from the moment they get a handle
  until ``release_effect`` (the reference keeps every effect until
  ``delete_effect``), so an effect a script created and holds only in Lua
  stays valid.
- Groups are held while a script call is running (the reference's
  ``sgroups``): every group that gets a handle while ``call_depth > 0`` is
  kept until the depth returns to 0; then groups marked ``KeepAlive``
  (``is_readonly == GTYPE_KEEP_ALIVE``) stay kept until they are no longer
  marked, and the others live as long as the engine holds them.  A script
  that keeps a released group and uses it later gets "Parameter n is an
  object that no longer exists" where the reference would read freed memory.

If Lua still holds a handle when its engine object is gone, the handle stays
a valid userdata with the right metatable; only passing it to a library
function fails.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ..engine.card import Card
from ..engine.effect import Effect
from ..engine.group import GTYPE_KEEP_ALIVE, Group
from .runtime import LuaObject

if TYPE_CHECKING:
    from .runtime import LuaSandbox

__all__ = ["HandleTable", "NoValue"]

_ReferenceType = weakref.ReferenceType


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


class HandleTable:
    """Makes, reuses and keeps alive the Lua handles of one host's engine objects."""

    __slots__ = ("_sb", "_class_of", "effects", "script_groups", "kept_groups", "__weakref__")

    def __init__(self, sandbox: "LuaSandbox", class_of: Any) -> None:
        self._sb = sandbox
        # code -> class table; the host's loader (creates c<code> and runs its script)
        self._class_of = class_of
        self.effects: dict[Effect, None] = {}
        self.script_groups: list[Group] = []
        self.kept_groups: dict[Group, None] = {}

    # ----- making handles -------------------------------------------------------------------

    def card_handle(self, card: Card, cls: Any) -> Any:
        """The handle of a card whose class table is ``cls`` (made once)."""
        h = card.handle
        if h is None:
            h = self._sb.make_card_handle(card, cls)
            card.handle = h
        return h

    def _make(self, obj: Any) -> Any:
        t = type(obj)
        if t is Group:
            h = self._sb.make_group_handle(weakref.ref(obj))
            obj.handle = h
            self.script_groups.append(obj)
            return h
        if t is Effect:
            h = self._sb.make_effect_handle(weakref.ref(obj))
            obj.handle = h
            self.effects[obj] = None
            return h
        if t is Card:
            cls = self._class_of(obj.data.get_original_code())
            return self.card_handle(obj, cls)
        raise TypeError(f"no Lua handle for a {t.__name__}")

    def push(self, obj: Card | Effect | Group) -> Any:
        """The Lua value of an engine object."""
        h = obj.handle
        return h if h is not None else self._make(obj)

    # ----- converting values -------------------------------------------------------------------

    def to_lua(self, v: Any) -> Any:
        """A Python value ready for Lua: engine objects become their handles."""
        t = type(v)
        if t is Card or t is Effect or t is Group:
            h = v.handle
            return h if h is not None else self._make(v)
        return v

    def args_to_lua(self, values: tuple) -> tuple:
        return tuple([self.to_lua(v) for v in values])

    def result_to_lua(self, r: Any) -> Any:
        """A binding's return value for Lua (tuples are several values, NoValue none).

        Raises TypeError for values that must not reach scripts (raw Python objects).
        """
        t = type(r)
        if t is int or t is bool or r is None or t is str or t is float:
            return r
        if t is Card or t is Effect or t is Group:
            h = r.handle
            return h if h is not None else self._make(r)
        if t is tuple:
            return tuple([self._one_to_lua(x) for x in r])
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
            h = v.handle
            return h if h is not None else self._make(v)
        if isinstance(v, LuaObject):
            return v
        raise TypeError(f"a binding returned a {t.__name__}, which scripts cannot receive")

    @staticmethod
    def from_lua(v: Any) -> Any:
        """A value Lua returned: weak references to effects/groups dereferenced (None if gone)."""
        return v() if type(v) is _ReferenceType else v

    def results_from_lua(self, values: tuple) -> tuple:
        return tuple([v() if type(v) is _ReferenceType else v for v in values])

    # ----- lifetimes ---------------------------------------------------------------------------

    def release_effect(self, effect: Effect) -> None:
        """The engine deleted the effect: stop keeping it alive for Lua."""
        self.effects.pop(effect, None)

    def release_script_groups(self) -> None:
        """Call depth is back to 0: drop groups held for the finished calls (keep KeepAlive ones)."""
        kept = self.kept_groups
        if kept:
            for g in [g for g in kept if g.is_readonly != GTYPE_KEEP_ALIVE]:
                del kept[g]
        sg = self.script_groups
        if sg:
            for g in sg:
                if g.is_readonly == GTYPE_KEEP_ALIVE:
                    kept[g] = None
            sg.clear()

    def stats(self) -> dict[str, int]:
        return {"effects": len(self.effects), "script_groups": len(self.script_groups),
                "kept_groups": len(self.kept_groups)}
