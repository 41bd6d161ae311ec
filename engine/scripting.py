"""The engine's view of the script host (the Lua side lives in duelhost.bindings).

The rules call card scripts through this small interface, so they can be read
and tested without Lua.  Arguments are engine objects (Card, Effect, Group,
int, None); the host converts them.  Functions are opaque handles the host
gave the engine (an effect's condition, a filter passed to Duel.SelectMatchingCard...).

Calls come in two kinds, as in the reference:
- plain calls (conditions, filters, values, chk==0 checks) must not suspend; a
  script that tries to (Duel.Destroy inside a condition) gets an error
  "action is not allowed here";
- coroutine calls (cost, target, operation) may suspend on any API function that
  needs the processor; ``start`` returns a task the processor resumes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from .card import Card
    from .duel import Duel
    from .effect import Effect


class ScriptTask(Protocol):
    """A script callback running as a coroutine.

    ``resume(value)`` runs it until it suspends or ends.  It returns
    ``(True, op)`` when the script suspended on an API call whose processing the
    engine must run (``op`` is what the binding returned: an object with a
    ``result()`` method giving the values to resume with), or ``(False, values)``
    when the callback finished (its return values) or failed (values is None; the
    host already reported the error).
    """

    def resume(self, value: Any = None) -> tuple[bool, Any]: ...


class ScriptHost(Protocol):
    def attach(self, duel: "Duel") -> None: ...
    def register_card(self, card: "Card") -> None: ...
    def release_effect(self, effect: "Effect") -> None: ...
    def check_condition(self, fn: Any, *args: Any) -> bool: ...
    def get_function_value(self, fn: Any, *args: Any) -> int: ...
    def get_function_values(self, fn: Any, *args: Any) -> list[int]: ...
    def call_function(self, fn: Any, *args: Any) -> tuple: ...
    def check_filter(self, fn: Any, card: "Card", *extra: Any) -> bool: ...
    def get_operation_value(self, fn: Any, card: "Card", *extra: Any) -> int: ...
    def call_card_function(self, card: "Card", name: str, *args: Any) -> tuple: ...
    def call_code_function(self, code: int, name: str, *args: Any) -> tuple: ...
    def start(self, fn: Any, *args: Any) -> ScriptTask: ...
    def release(self, fn: Any) -> None: ...
    def clone_function_ref(self, fn: Any) -> Any: ...


def filter_cards(script: Any, fn: Any, cards: "list[Card]", extra: tuple = (),
                 limit: int = 0) -> "list[Card]":
    """The cards that pass the script filter ``fn(card, *extra)``, in order, stopping
    after ``limit`` matches (0: no limit): one check_filter per card.  A host may
    make those same calls in one go (LuaScriptHost.filter_cards)."""
    if fn is None:                                   # no filter: every card passes
        return list(cards[:limit]) if limit else list(cards)
    batch = getattr(script, "filter_cards", None)
    if batch is not None:
        return batch(fn, cards, extra, limit)
    return filter_each(script, fn, cards, extra, limit)


def operation_values(script: Any, fn: Any, cards: "list[Card]", extra: tuple = ()) -> list[int]:
    """``script.get_operation_value(fn, card, *extra)`` of each card, in order; a host
    may make those same calls in one go (LuaScriptHost.operation_values)."""
    batch = getattr(script, "operation_values", None)
    if batch is not None:
        return batch(fn, cards, extra)
    return [script.get_operation_value(fn, c, *extra) for c in cards]


def filter_each(script: Any, fn: Any, cards: "list[Card]", extra: tuple = (),
                limit: int = 0) -> "list[Card]":
    """filter_cards card by card: one ``script.check_filter`` call per card, in order."""
    passed: list[Card] = []
    for c in cards:
        if script.check_filter(fn, c, *extra):
            passed.append(c)
            if limit and len(passed) >= limit:
                break
    return passed


class NullScriptHost:
    """No scripts at all: cards have no effects (enough for Normal Monsters)."""

    def attach(self, duel: "Duel") -> None:
        self.duel = duel

    def register_card(self, card: "Card") -> None:
        return None

    def release_effect(self, effect: "Effect") -> None:
        return None

    def _no_scripts(self) -> Any:
        raise RuntimeError("this duel has no script host, but a script function was called")

    def check_condition(self, fn: Any, *args: Any) -> bool:
        return True if fn is None else self._no_scripts()

    def get_function_value(self, fn: Any, *args: Any) -> int:
        return self._no_scripts()

    def get_function_values(self, fn: Any, *args: Any) -> list[int]:
        return self._no_scripts()

    def call_function(self, fn: Any, *args: Any) -> tuple:
        return self._no_scripts()

    def check_filter(self, fn: Any, card: "Card", *extra: Any) -> bool:
        return True if fn is None else self._no_scripts()

    def get_operation_value(self, fn: Any, card: "Card", *extra: Any) -> int:
        return self._no_scripts()

    def call_card_function(self, card: "Card", name: str, *args: Any) -> tuple:
        return ()

    def call_code_function(self, code: int, name: str, *args: Any) -> tuple:
        return ()

    def start(self, fn: Any, *args: Any) -> ScriptTask:
        return self._no_scripts()

    def release(self, fn: Any) -> None:
        return None

    def clone_function_ref(self, fn: Any) -> Any:
        return fn
