"""Errors of the Lua side: argument errors raised by bindings, and script error records.

Two different things are called "errors" here:

- ``LuaArgError`` (and its subclasses) is what a *binding* raises when a
  script called it wrongly (``Parameter 2 should be "Card".``).  The binding
  wrapper turns it into a Lua error at the script's call site, exactly where
  the reference's ``luaL_error`` points, so the script's traceback shows the
  calling line.  Bindings never catch it.

- ``ScriptError`` is the *record* the host keeps when a script call failed
  (a Lua error, a timeout, memory exhaustion, a missing function).  The
  reference reports such failures as one line of text to its message
  handler and goes on; the host does the same (``ScriptError.log_line`` is
  that line) and keeps the structured record in ``host.errors``.  With
  ``strict=True`` the host raises ``ScriptFailure`` instead (for tests).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "ActionNotAllowed",
    "BindingRegistrationError",
    "LuaArgError",
    "LuaRaised",
    "SandboxError",
    "ScriptError",
    "ScriptFailure",
    "ScriptStopped",
    "reference_log_line",
]


class LuaArgError(Exception):
    """A script called a library function wrongly; becomes a Lua error at the call site.

    ``level`` follows Lua's ``error(msg, level)``: 1 (default) prefixes the
    script's ``file:line:`` like the reference's ``luaL_error``; 0 gives the
    bare message (the reference's messages raised by Lua itself, such as
    "attempt to yield from outside a coroutine").
    """

    def __init__(self, message: str, level: int = 1) -> None:
        super().__init__(message)
        self.message = message
        self.level = level


class ActionNotAllowed(LuaArgError):
    """The reference's ``check_action_permission`` failure: an action inside a
    condition, filter, value or ``chk==0`` check."""

    def __init__(self) -> None:
        super().__init__("Action is not allowed here.")


class ScriptStopped(LuaArgError):
    """The running script call is being stopped (its time budget is spent, or an
    error repeats through host functions).  Raised by the host where a nested
    script call would have started or failed, it leaves the library function
    that made that call as a Lua error with exactly this text, so the
    outermost call fails once instead of every nested call failing on its own."""

    def __init__(self, message: str) -> None:
        super().__init__(message, level=0)


class LuaRaised(Exception):
    """What a binding's entry raises to make a Lua error: lupa turns it into the Lua
    error value and the host's message handler reads back ``str()`` of it, the
    reference's message with the script position already in front."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class BindingRegistrationError(Exception):
    """A binding was declared wrongly (unknown name, registered twice, wrong ``yields``)."""


class SandboxError(Exception):
    """The Lua runtime could not be set up as required (a lupa without Lua 5.4, ...)."""


# "./script/c123.lua:45:" as our chunk names print; the reference prints the
# same name as a string chunk: [string "./script/c123.lua"]:45:
_POSITION = re.compile(r"(?<![\w\"])(\./script/[^\s:\"\]]+\.lua):(\d+):")


def reference_log_line(message: str | None) -> str:
    """The text the reference core would hand to its message handler for ``message``.

    The reference loads ``c123.lua`` under the name ``./script/c123.lua`` as a
    string chunk, so positions read ``[string "./script/c123.lua"]:45:``; a
    non-string error object prints as ``(null)``; the buffer holds 255 bytes.
    """
    if message is None:
        return "(null)"
    text = _POSITION.sub(lambda m: f'[string "{m.group(1)}"]:{m.group(2)}:', message)
    raw = text.encode("utf-8", "surrogateescape")
    if len(raw) > 255:
        text = raw[:255].decode("utf-8", "ignore")
    return text


@dataclass(frozen=True, slots=True, kw_only=True)
class ScriptError:
    """One failed script call, as the host recorded it.

    kind      "error" (a Lua error), "timeout", "stopped" (an error that repeated
              through host functions stopped the whole call), "memory", "call" (a function to
              call was missing or not a function), "load" (a script file did not
              compile or failed while running), "recursion" (a coroutine started
              while the same function's coroutine was suspended), "internal" (a
              Python exception inside a binding).
    message   the Lua error message (positions read ``./script/c123.lua:45:``).
    log_line  the one line the reference core would report for this failure.
    card_code / card_name   the card whose callback ran, when known.
    script / line           where the error was raised, e.g. "c123.lua", 45.
    callback  which callback ran: "initial_effect", "condition", "cost",
              "target", "operation", "value", "filter", "script" (loading a
              file), or the function name for call_card_function.
    chk       the ``chk`` argument of a cost/target call, when known.
    traceback the Lua traceback ("" when Lua gives none, e.g. out of memory).
    python_traceback  the Python traceback of an internal error.
    effect_code / effect_type / effect_description   the effect whose callback ran
              (its SetCode, SetType and SetDescription values), when the call was an
              effect's condition, cost, target, operation or value.
    effect_index  that effect's place (1-based) among the effects its card's
              initial_effect registered, when it is one of them.
    """

    kind: str
    message: str
    log_line: str
    card_code: int | None = None
    card_name: str | None = None
    script: str | None = None
    line: int | None = None
    callback: str | None = None
    chk: int | None = None
    traceback: str = ""
    python_traceback: str | None = None
    effect_code: int | None = None
    effect_type: int | None = None
    effect_description: int | None = None
    effect_index: int | None = None

    def __str__(self) -> str:
        if self.script and self.line is not None:
            where = f" at {self.script}:{self.line}"
        elif self.script:
            where = f" in {self.script}"
        else:
            where = ""
        who = []
        if self.card_code is not None:
            who.append(f"card {self.card_code}" + (f" {self.card_name}" if self.card_name else ""))
        if self.callback:
            who.append(self.callback + (f" chk={self.chk}" if self.chk is not None else ""))
        suffix = f" [{', '.join(who)}]" if who else ""
        return f"{self.kind}{where}: {self.message}{suffix}"


class ScriptFailure(Exception):
    """Raised instead of recording when the host runs with ``strict=True``."""

    def __init__(self, error: ScriptError) -> None:
        text = str(error)
        if error.traceback:
            text += "\n" + error.traceback
        if error.python_traceback:
            text += "\n" + error.python_traceback
        super().__init__(text)
        self.error = error
