"""What a failing duel test reports: unanswered prompts, answers that do not fit, script errors.

The failures that are about the card under test (a prompt nobody answered, a
Lua error in its script, an assertion) derive from ``AssertionError`` so pytest
shows them as test failures with the full text; ``ScenarioError`` is for a test
that uses the toolkit wrongly (a card that does not exist, an action that does
not fit the moment).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from . import words

if TYPE_CHECKING:
    from duelhost.bindings.errors import ScriptError

    from .questions import PromptView

__all__ = ["ScenarioError", "UnansweredPrompt", "AnswerMismatch", "LuaScriptError", "LuaEvalError",
           "ExpectationFailed", "format_script_error", "script_error_where"]


class ScenarioError(Exception):
    """The test asked for something the scenario cannot do (the message says what and why)."""


class ExpectationFailed(AssertionError):
    """An expectation about the duel did not hold; the message shows the board."""


class UnansweredPrompt(AssertionError):
    """The duel asked a question that no scripted answer covered."""

    def __init__(self, view: "PromptView", note: str = "") -> None:
        self.view = view
        pending = view.scenario.answers.pending()
        lines = ["The duel asks a question the test did not answer.", "", view.describe(board=False)]
        if note:
            lines += ["", note]
        if pending:
            lines += ["", "Queued answers (none fits this prompt): " + ", ".join(a.describe() for a in pending)]
        lines += ["", "Answer it by queueing an answer before the action (duel.answers.queue(...) or "
                      "answers=[...]), or with a rule (duel.answers.on(...)).", "", view.scenario.board(),
                  "", view.scenario.recent_log()]
        super().__init__("\n".join(lines))


class AnswerMismatch(AssertionError):
    """A scripted answer fits the kind of prompt but none of its options."""

    def __init__(self, view: "PromptView", answer: Any, reason: str) -> None:
        self.view = view
        self.answer = answer
        if answer is not None:
            head = f"The scripted answer '{answer.describe()}' does not fit: {reason}."
        else:
            head = f"The action is not possible: {reason}."
        lines = [head, "", view.describe(board=True)]
        super().__init__("\n".join(lines))


def script_error_where(err: "ScriptError") -> str:
    if err.script and err.line is not None:
        return f"{err.script}:{err.line}"
    return err.script or "?"


def format_script_error(err: "ScriptError", scenario: Any = None) -> str:
    """A script error in words: the card (code and name), ``c<ID>.lua:line``, which effect and which
    callback was running (with ``chk``), the message, the Lua traceback, and the reference's log line."""
    who = "a script"
    if err.card_code is not None:
        name = err.card_name
        if name is None and scenario is not None:
            name = scenario.card_name(err.card_code)
        who = f"card {err.card_code}" + (f' "{name}"' if name and name != str(err.card_code) else "")
    kind = {"error": "Lua error", "timeout": "script timeout", "memory": "Lua out of memory",
            "call": "script call failed", "load": "script load error", "recursion": "recursive script call",
            "internal": "internal error in a binding"}.get(err.kind, err.kind)
    where = script_error_where(err)
    lines = [f"{kind} in {who}" + (f" at {where}" if where != "?" else "")]
    running = []
    eff = _effect_text(err, scenario)
    if err.callback:
        cb = err.callback
        if cb in ("condition", "cost", "target", "operation", "value"):
            cb = f"the {cb} function"
        elif cb == "script":
            cb = "the script file itself (loading it)"
        elif cb == "initial_effect":
            cb = "initial_effect (registering the card's effects)"
        running.append(cb + (f" with chk={err.chk}" if err.chk is not None else ""))
    if eff:
        running.append("of " + eff)
    if running:
        lines.append("  while running " + " ".join(running))
    lines.append(f"  message: {err.message}")
    tb = (err.traceback or "").strip("\n")
    if tb:
        first, _, rest = tb.partition("\n")
        if first.strip() == err.message.strip():
            tb = rest
        if tb.strip():
            lines.append("  Lua traceback:")
            lines.extend("    " + ln.strip() for ln in tb.splitlines()
                         if ln.strip() and ln.strip() != "stack traceback:" and "in upvalue 'cf'" not in ln)
    if err.python_traceback:
        lines.append("  Python traceback of the binding:")
        lines.extend("    " + ln for ln in err.python_traceback.rstrip().splitlines())
    lines.append(f"  reference log line: {err.log_line}")
    return "\n".join(lines)


def _effect_text(err: "ScriptError", scenario: Any) -> str:
    info = scenario.error_effect(err) if scenario is not None else {}
    code = info.get("effect_code", getattr(err, "effect_code", None))
    etype = info.get("effect_type", getattr(err, "effect_type", None))
    desc = info.get("effect_description", getattr(err, "effect_description", None))
    index = info.get("effect_index", getattr(err, "effect_index", None))
    count = info.get("effect_count")
    if code is None and etype is None and desc is None and index is None:
        return ""
    if scenario is None:
        parts = [f"effect #{index}" if index else "an effect"]
        if desc:
            parts.append(f"description {desc}")
        return " ".join(parts)
    return words.effect_words(scenario, effect_type=etype, code=code, description=desc, index=index, count=count)


class LuaScriptError(AssertionError):
    """Script errors happened while the duel ran (strict mode: any script error fails the test)."""

    def __init__(self, errors: Sequence["ScriptError"], scenario: Any = None, when: str = "") -> None:
        self.errors = list(errors)
        n = len(self.errors)
        head = f"{n} script error{'s' if n != 1 else ''}" + (f" {when}" if when else "") + ":"
        parts = [head]
        for err in self.errors:
            parts.append("")
            parts.append(format_script_error(err, scenario))
        if scenario is not None:
            parts += ["", scenario.board()]
        super().__init__("\n".join(parts))

    @property
    def log_lines(self) -> list[str]:
        """The errors in the reference core's one-line log format."""
        return [e.log_line for e in self.errors]


class LuaEvalError(ScenarioError):
    """``duel.lua(...)`` failed: the chunk did not compile or raised."""
