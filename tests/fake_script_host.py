"""A fake script host for engine tests: "script functions" are Python callables.

The engine talks to scripts only through the ScriptHost methods below
(engine/scripting.py, ScriptHost, names them); this fake runs each callable at once and
logs what it was asked, so a test can check which function a rule called with
which arguments.  No tests live here.
"""

from __future__ import annotations

from typing import Any, Callable

from duelhost.engine.card import Card
from duelhost.engine.duel import Duel


class PyTask:
    """A "coroutine" that runs a Python callable to completion at once."""

    def __init__(self, fn: Callable[..., Any], args: tuple) -> None:
        self.fn = fn
        self.args = args

    def resume(self, value: Any = None) -> tuple[bool, Any]:
        result = self.fn(*self.args)
        return False, (() if result is None else (result,))


class FakeScript:
    """Logs ``calls`` (fn, args), ``code_calls`` (code, name, args), ``card_calls``
    (card, name, args) and ``cloned`` (function references the engine copied);
    ``on_code_call`` (optional) runs for every class-function call."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, tuple]] = []
        self.code_calls: list[tuple[int, str, tuple]] = []
        self.card_calls: list[tuple[Card, str, tuple]] = []
        self.cloned: list[Any] = []
        self.on_code_call: Callable[..., Any] | None = None

    def attach(self, duel: Duel) -> None:
        self.duel = duel

    def register_card(self, card: Card) -> None:
        return None

    def release_effect(self, effect: Any) -> None:
        return None

    def check_condition(self, fn: Callable | None, *args: Any) -> bool:
        if fn is None:
            return True
        self.calls.append((fn, args))
        return bool(fn(*args))

    def check_filter(self, fn: Callable, card: Card, *extra: Any) -> bool:
        self.calls.append((fn, (card, *extra)))
        return bool(fn(card, *extra))

    def get_function_value(self, fn: Callable, *args: Any) -> int:
        self.calls.append((fn, args))
        return int(fn(*args))

    def get_function_values(self, fn: Callable, *args: Any) -> list[int]:
        self.calls.append((fn, args))
        out = fn(*args)
        return [int(v) for v in out] if isinstance(out, (list, tuple)) else [int(out)]

    def call_function(self, fn: Callable, *args: Any) -> tuple:
        self.calls.append((fn, args))
        return (fn(*args),)

    def call_code_function(self, code: int, name: str, *args: Any) -> tuple:
        self.code_calls.append((code, name, args))
        if self.on_code_call is not None:
            self.on_code_call(code, name, *args)
        return ()

    def call_card_function(self, card: Card, name: str, *args: Any) -> tuple:
        self.card_calls.append((card, name, args))
        return ()

    def start(self, fn: Callable, *args: Any) -> PyTask:
        return PyTask(fn, args)

    def clone_function_ref(self, fn: Any) -> Any:
        self.cloned.append(fn)
        return fn

    def release(self, fn: Any) -> None:
        return None
