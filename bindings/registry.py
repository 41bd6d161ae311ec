"""How library functions are defined: one decorator at each Python definition.

Writing a binding (one function of the reference's Card/Duel/Effect/Group/Debug
libraries; see docs/bindings.md for the full guide):

    from .args import Args
    from .registry import LuaContext, NoValue, Yield, lua_function

    @lua_function("Card.GetAttack")
    def card_get_attack(ctx: LuaContext, args: Args) -> Any:
        args.need(1)                        # "1 Parameters are needed."
        c = args.card(1)                    # 'Parameter 1 should be "Card".'
        return c.get_attack()               # one Lua integer

    @lua_function("Duel.Destroy")           # yields: taken from reference_api.txt
    def duel_destroy(ctx: LuaContext, args: Args) -> Any:
        args.need(2)
        targets = args.card_or_group(1)
        reason = args.uint32(2)
        dest = args.opt_int(3, LOCATION_GRAVE) & 0xFFFFFFFF
        duel = ctx.duel
        duel.destroy(..., reason, ...)      # queue the engine's work
        return Yield(lambda: duel.returns.ivalue[0])   # suspend; resume with this value

Return values: ``None`` is one nil; ``NoValue`` (or ``()``) is no value at
all (a C function returning 0); ``bool``, ``int``, ``float``, ``str``; an
engine ``Card``/``Effect``/``Group`` (becomes its handle); a tuple for several
values; a Lua table from ``ctx.table(...)``; a lupa object received from the
script.  Anything else is an internal error (raw Python objects never reach
scripts).

``yields`` and whether the reference checks the action permission come from
the reference's data (reference_api.txt; ``ACTION_CHECKED`` below), so a
binding cannot get them wrong: declaring ``yields`` differently from the
reference is a registration error.  For names in ``ACTION_CHECKED`` the
wrapper raises "Action is not allowed here." before the binding runs when a
plain call (condition, filter, value, ``chk==0`` check) is in progress --
the check the reference does first thing.  A yielding binding returns
``Yield(result)``; if no task can suspend here the wrapper raises Lua's own
message ("attempt to yield from outside a coroutine" / "... across a C-call
boundary"), as the reference's ``lua_yield`` would.

``registered()`` and ``missing()`` list the API's completeness; ``install``
(called by the host) puts every registered function into the global tables,
a "not implemented: X.Y" stub for every reference name not registered yet,
and makes reading any other name of Duel/Debug/Effect/Group an error.
"""

from __future__ import annotations

import importlib
import pkgutil
import traceback
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .args import Args
from .errors import ActionNotAllowed, BindingRegistrationError, LuaArgError
from .handles import CardAnchor, NoValue
from .runtime import YIELD_MARK

if TYPE_CHECKING:
    from ..engine.duel import Duel
    from ..engine.effect import Effect
    from .host import LuaScriptHost

__all__ = [
    "ACTION_CHECKED",
    "LIBRARIES",
    "STRICT_LIBRARIES",
    "FunctionSpec",
    "LuaContext",
    "NoValue",
    "Yield",
    "install",
    "load_libraries",
    "lua_function",
    "missing",
    "reference_api",
    "registered",
    "spec",
    "unregister",
]

LIBRARIES = ("Card", "Effect", "Group", "Duel", "Debug")

# Libraries where reading an absent name raises.  Not Card: every card's class
# table inherits from Card, and scripts read absent per-card fields through it
# all the time (c.material, mt.announce_filter, ...), which must give nil.
STRICT_LIBRARIES = ("Effect", "Group", "Duel", "Debug")

REFERENCE_API_PATH = Path(__file__).with_name("reference_api.txt")

# The reference functions that call check_action_permission() first
# (libcard/libduel/libgroup.cpp): 53 of the 79 yielding ones and 7 others.
ACTION_CHECKED = frozenset({
    "Card.RemoveCounter", "Card.RemoveOverlayCard",
    "Duel.Activate", "Duel.BreakEffect", "Duel.CalculateDamage", "Duel.ChangePosition",
    "Duel.CreateToken", "Duel.Damage", "Duel.Destroy", "Duel.DiscardDeck", "Duel.DiscardHand",
    "Duel.Draw", "Duel.Equip", "Duel.GetControl", "Duel.LinkSummon", "Duel.MSet",
    "Duel.MoveToField", "Duel.Overlay", "Duel.PayLPCost", "Duel.RaiseEvent",
    "Duel.RaiseSingleEvent", "Duel.Recover", "Duel.Release", "Duel.ReleaseRitualMaterial",
    "Duel.Remove", "Duel.RemoveCounter", "Duel.RemoveOverlayCard", "Duel.ReturnToField",
    "Duel.SSet", "Duel.SelectFusionMaterial", "Duel.SelectMatchingCard",
    "Duel.SelectReleaseGroup", "Duel.SelectReleaseGroupEx", "Duel.SelectTarget",
    "Duel.SelectTribute", "Duel.SelectXyzMaterial", "Duel.SendtoDeck", "Duel.SendtoExtraP",
    "Duel.SendtoGrave", "Duel.SendtoHand", "Duel.SetOperationInfo", "Duel.SetTargetCard",
    "Duel.SetTargetParam", "Duel.SetTargetPlayer", "Duel.SortDecktop", "Duel.SpecialSummon",
    "Duel.SpecialSummonComplete", "Duel.SpecialSummonRule", "Duel.SpecialSummonStep",
    "Duel.Summon", "Duel.SwapControl", "Duel.SwapDeckAndGrave", "Duel.SynchroSummon",
    "Duel.XyzSummon",
    "Group.CancelableSelect", "Group.FilterSelect", "Group.Select", "Group.SelectUnselect",
    "Group.SelectWithSumEqual", "Group.SelectWithSumGreater",
})


class Yield:
    """What a yielding binding returns: suspend the script until the engine has run.

    The engine processes what the binding queued, then calls ``result()``; the
    script resumes with that value (a tuple is several values, NoValue none).
    """

    __slots__ = ("_result",)

    def __init__(self, result: Callable[[], Any] | None = None) -> None:
        self._result = result

    def result(self) -> Any:
        return NoValue if self._result is None else self._result()

    def __repr__(self) -> str:
        return f"Yield({self._result!r})"


@dataclass(frozen=True, slots=True)
class FunctionSpec:
    """One registered library function."""

    name: str
    fn: Callable[["LuaContext", Args], Any]
    yields: bool
    checks_action: bool
    extension: bool
    module: str
    # for a read-only query of one card: the binding's result for that card alone
    # (``fn(ctx, Args((card,)))`` without the Args; see host.operation_values)
    of_card: Callable[[Any], Any] | None = None
    # for a read-only query of one card and one integer (``Card.IsType(c, TYPE_MONSTER)``):
    # the binding's result for exactly that card and integer (``fn(ctx, Args((card, n)))``)
    of_card_int: Callable[[Any, int], Any] | None = None


_REGISTRY: dict[str, FunctionSpec] = {}


@lru_cache(maxsize=1)
def reference_api() -> dict[str, bool]:
    """Every function of the reference's Lua API -> whether it yields (reference_api.txt)."""
    out: dict[str, bool] = {}
    for line in REFERENCE_API_PATH.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        parts = line.split("\t")
        out[parts[0]] = len(parts) > 1 and parts[1].strip() == "yields"
    return out


def lua_function(name: str, *, yields: bool | None = None, checks_action: bool | None = None,
                 extension: bool = False, of_card: Callable[[Any], Any] | None = None,
                 of_card_int: Callable[[Any, int], Any] | None = None
                 ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Register ``fn(ctx, args)`` as the Lua function ``name`` ("Card.GetCode").

    ``yields`` defaults to the reference's; ``checks_action`` to whether the
    reference calls check_action_permission.  ``extension=True`` allows a
    name the reference does not have (none of ours so far).  ``of_card``: for a
    Card query whose only argument is the card, the function of that card that
    ``fn`` itself returns (the host calls it for a whole group at once, and a
    call from Lua with a card first calls it without making an ``Args``).
    ``of_card_int``: likewise for a query of a card and an integer (``Card.IsType(c, t)``,
    ``Card.IsSetCard(c, 0x1)``): ``of_card_int(card, n)`` is what ``fn`` returns for exactly
    those two arguments, called straight when Lua passes a card and an integer and nothing
    more (a query taking more values, ``c:IsSetCard(0x1, 0x2)``, goes through ``fn``).
    """
    ref = reference_api()
    lib, _, fname = name.partition(".")
    if lib not in LIBRARIES or not fname:
        raise BindingRegistrationError(f"{name!r}: expected '<{'|'.join(LIBRARIES)}>.<Name>'")
    if name not in ref and not extension:
        raise BindingRegistrationError(f"{name} is not a function of the reference core "
                                       f"(pass extension=True for a function of our own)")
    ref_yields = ref.get(name, False)
    if yields is None:
        yields = ref_yields
    elif name in ref and yields != ref_yields:
        raise BindingRegistrationError(
            f"{name}: yields={yields}, but the reference's {'does' if ref_yields else 'does not'} yield")
    if checks_action is None:
        checks_action = name in ACTION_CHECKED

    def decorate(fn: Callable[..., Any]) -> Callable[..., Any]:
        old = _REGISTRY.get(name)
        module = getattr(fn, "__module__", "?")
        if old is not None and (old.module, old.fn.__qualname__) != (module, fn.__qualname__):
            raise BindingRegistrationError(
                f"{name} is registered twice: {old.module}.{old.fn.__qualname__} and "
                f"{module}.{fn.__qualname__}")
        _REGISTRY[name] = FunctionSpec(name, fn, bool(yields), bool(checks_action), extension, module,
                                       of_card, of_card_int)
        return fn

    return decorate


def unregister(name: str) -> None:
    """Forget a registration (tests that register functions of their own clean up with it)."""
    _REGISTRY.pop(name, None)


def registered() -> list[str]:
    """Names with a Python implementation, sorted."""
    return sorted(_REGISTRY)


def missing() -> list[str]:
    """Reference names without an implementation yet (they raise "not implemented")."""
    return sorted(n for n in reference_api() if n not in _REGISTRY)


def spec(name: str) -> FunctionSpec | None:
    return _REGISTRY.get(name)


def load_libraries() -> list[str]:
    """Import every ``duelhost.bindings.lib_*`` module so its decorators run."""
    pkg = __name__.rpartition(".")[0]
    names = sorted(m.name for m in pkgutil.iter_modules([str(Path(__file__).parent)])
                   if m.name.startswith("lib_"))
    for n in names:
        importlib.import_module(f"{pkg}.{n}")
    return names


# =====================================================================================
# The context a binding gets
# =====================================================================================


class LuaContext:
    """What a binding can reach besides its arguments: the duel and the script host."""

    __slots__ = ("host", "duel", "handles")

    def __init__(self, host: "LuaScriptHost", duel: "Duel") -> None:
        self.host = host
        self.duel = duel
        self.handles = host.handles

    # the reference's interpreter state

    def check_action_permission(self) -> None:
        """Raise "Action is not allowed here." inside a plain call (condition, filter, ...).

        Done automatically before every name in ACTION_CHECKED; calling it again is harmless.
        """
        if self.host.no_action:
            raise ActionNotAllowed()

    @property
    def no_action(self) -> int:
        return self.host.no_action

    @property
    def can_yield(self) -> bool:
        """True when a yielding binding may suspend the script here (inside a task, no plain call)."""
        return self.host.can_yield

    @property
    def reason_effect(self) -> "Effect | None":
        return self.duel.core.reason_effect

    @property
    def reason_player(self) -> int:
        return self.duel.core.reason_player

    # values for Lua

    def push(self, obj: Any) -> Any:
        """The Lua value of an engine object (its handle); other values unchanged."""
        return self.handles.to_lua(obj)

    def table(self, *values: Any, **fields: Any) -> Any:
        """A new Lua table: ``values`` as its sequence, ``fields`` as named entries."""
        to_lua = self.handles.to_lua
        return self.host.sandbox.new_table(tuple(to_lua(v) for v in values),
                                           {k: to_lua(v) for k, v in fields.items()})

    def tostring(self, value: Any) -> str | None:
        """What the script's global ``tostring`` makes of a value (Debug.Message does this)."""
        return self.host.lua_tostring(value)

    # calling script functions (all protected, all on the main Lua thread)

    def call(self, fn: Any, *args: Any) -> tuple:
        """Call a script function; its results (empty after an error, which is reported)."""
        return self.host.call_function(fn, *args)

    def check_filter(self, fn: Any, card: Any, *extra: Any) -> bool:
        return self.host.check_filter(fn, card, *extra)

    def message(self, text: str, message_type: int = 2) -> None:
        """Send a line to the host's message handler (Debug.Message uses type 2)."""
        self.host.handle_message(text, message_type)


# =====================================================================================
# Installing the libraries into one host
# =====================================================================================


def _entry_maker(host: "LuaScriptHost") -> Callable[[FunctionSpec], Callable[..., Any]]:
    """The maker of ``host``'s Python callables behind library functions (hot path: keep
    them lean).

    Errors leave as exceptions carrying the reference's message with the
    script's position (host.lua_raise); lupa turns them into Lua errors.  The
    host's values live in this scope, so the 611 callables of a duel share one
    closure cell each instead of holding copies (fewer objects for every duel's
    set-up and for the garbage collector).
    """
    ctx = host.ctx
    new_args = object.__new__
    convert = host.handles.result_to_lua
    raise_arg = host.lua_raise
    raise_internal = host.lua_raise_internal

    def make(spec: FunctionSpec) -> Callable[..., Any]:
        fn = spec.fn
        name = spec.name
        if spec.yields:
            checks_action = spec.checks_action

            def entry(*a: Any) -> Any:
                try:
                    if checks_action and host.no_action:
                        raise ActionNotAllowed()
                    args = new_args(Args)      # Args(a) without a Python __init__ frame
                    args._a = a
                    args.count = len(a)
                    r = fn(ctx, args)
                    if type(r) is Yield:
                        if not host.running_tasks:
                            raise LuaArgError("attempt to yield from outside a coroutine", level=0)
                        if host.no_action:
                            raise LuaArgError("attempt to yield across a C-call boundary", level=0)
                        host.pending_op = r
                        return YIELD_MARK
                    t = type(r)
                    if t is int or t is bool or r is None:
                        return r
                    return convert(r)
                except LuaArgError as e:
                    raise raise_arg(e) from None
                except Exception as e:
                    raise raise_internal(name, e) from None
            return entry

        if spec.checks_action:
            def entry(*a: Any) -> Any:
                try:
                    if host.no_action:
                        raise ActionNotAllowed()
                    args = new_args(Args)      # Args(a) without a Python __init__ frame
                    args._a = a
                    args.count = len(a)
                    r = fn(ctx, args)
                    t = type(r)
                    if t is int or t is bool or r is None:
                        return r
                    return convert(r)
                except LuaArgError as e:
                    raise raise_arg(e) from None
                except Exception as e:
                    raise raise_internal(name, e) from None
            return entry

        # a query of the card alone (Card.IsFaceup, FunctionSpec.of_card: with the card first),
        # or of a card and an integer (Card.IsType, FunctionSpec.of_card_int: with exactly
        # those two): the binding's result is that function of them (its contract), so no Args
        of_card = spec.of_card
        of_card_int = spec.of_card_int

        def entry(*a: Any) -> Any:
            try:
                if of_card is not None and a and type(a[0]) is CardAnchor:
                    r = of_card(a[0].obj)
                elif (of_card_int is not None and len(a) == 2 and type(a[0]) is CardAnchor
                        and type(a[1]) is int):
                    r = of_card_int(a[0].obj, a[1])
                else:
                    args = new_args(Args)
                    args._a = a
                    args.count = len(a)
                    r = fn(ctx, args)
                t = type(r)
                if t is int or t is bool or r is None:
                    return r
                return convert(r)
            except LuaArgError as e:
                raise raise_arg(e) from None
            except Exception as e:
                raise raise_internal(name, e) from None
        return entry
    return make


def _make_stub(name: str, host: "LuaScriptHost") -> Callable[..., Any]:
    raise_arg = host.lua_raise
    message = "not implemented: " + name

    def stub(*a: Any) -> Any:
        raise raise_arg(LuaArgError(message)) from None
    return stub


_QUERY_PREFIXES = ("Card.Is", "Card.Get", "Card.Check", "Card.Has")


def is_direct_query(spec: FunctionSpec) -> bool:
    """A read-only Card query (``Card.IsFaceup``, ``Card.GetLevel``...): when a script
    passes it as a value to a group function, the host may call it from Python
    directly (host._direct_query) -- it neither yields nor acts, so nothing but
    speed can tell the two calls apart."""
    return (not spec.yields and not spec.checks_action and not spec.extension
            and spec.name.startswith(_QUERY_PREFIXES))


_SPLIT_NAMES: dict[str, tuple[str, bytes]] = {}


def _lib_and_name(name: str) -> tuple[str, bytes]:
    """"Card.IsType" -> ("Card", b"IsType"), kept for the process."""
    split = _SPLIT_NAMES.get(name)
    if split is None:
        lib, _, fname = name.partition(".")
        split = _SPLIT_NAMES[name] = (lib, fname.encode("utf-8"))
    return split


def install(host: "LuaScriptHost", libs: dict[str, Any]) -> None:
    """Put every library function (implemented or stub) into the global tables of ``host``.

    Each Python entry keeps its Lua twin in ``entry.lua_twin`` (see handles.py).
    """
    sb = host.sandbox
    ref = reference_api()
    # per library: (name in it, Python callable, may yield, its spec or None for a stub)
    todo: dict[str, list[tuple[bytes, Any, bool, FunctionSpec | None]]] = {lib: [] for lib in libs}
    make_entry = _entry_maker(host)
    # (the names go to Lua as bytes, encoded once per process: lupa would run its
    # Python-level codec on each of the 611 names of every duel)
    for name, fs in _REGISTRY.items():
        lib, fname = _lib_and_name(name)
        todo[lib].append((fname, make_entry(fs), fs.yields, fs))
    for name in ref:
        if name not in _REGISTRY:
            lib, fname = _lib_and_name(name)
            todo[lib].append((fname, _make_stub(name, host), False, None))
    for lib, items in todo.items():
        if not items:
            continue
        twins = sb.set_functions(libs[lib], [(fname, fn, yields) for fname, fn, yields, _ in items])
        for (_, fn, _, fs), twin in zip(items, twins):
            fn.lua_twin = twin
            if fs is not None and is_direct_query(fs):
                host.direct_queries[twin] = fs.fn
                if fs.of_card is not None:
                    host.card_values[twin] = fs.of_card
    # card queries answered in Lua from a card's printed values (bootstrap.lua)
    host.printed_answers = sb.answer_printed(libs["Card"], host.printed_stats)
    for lib in STRICT_LIBRARIES:
        sb.make_strict(libs[lib], lib)


def format_internal_error(name: str, exc: BaseException) -> tuple[str, str]:
    """(message for Lua, Python traceback) of an exception raised inside a binding."""
    msg = f"internal error in {name}: {type(exc).__name__}: {exc}"
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    return msg, tb
