"""What ``duelhost check`` finds for one card (statuses, failures, findings) and how failures are grouped."""

from __future__ import annotations

import dataclasses
import re
import traceback
from dataclasses import dataclass, field
from typing import Any

from .scan import Finding


# outcome statuses of a card
PASSED = "passed"
FAILED = "failed"
NO_INITIAL_EFFECT = "no_initial_effect"
NO_DB_ROW = "no_db_row"
NOT_RUN = "not_run"
STATUSES = (PASSED, FAILED, NO_INITIAL_EFFECT, NO_DB_ROW, NOT_RUN)
FAILING = (FAILED, NO_INITIAL_EFFECT)


# =====================================================================================
# Results
# =====================================================================================


@dataclass(kw_only=True)
class ScriptFailure:
    """Why a card failed.

    ``callback`` is what the engine was doing: ``"load"`` (running the chunk
    c<ID>.lua), ``"initial_effect"``, ``"engine"`` (Python code of the engine or
    bindings raised), ``"worker"`` (the worker process crashed or timed out).
    ``file``/``line``: where the error was raised, as Lua reports it (the
    innermost script frame for an error raised by a library function).
    """

    message: str
    callback: str
    file: str | None = None
    line: int | None = None
    traceback: str = ""
    kind: str = "lua"          # "lua", "engine", "no_initial_effect", "crash", "timeout"
    needs: str | None = None   # the library function the message says is missing (needed_function)

    def to_json(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def where(self) -> str:
        if self.file is None:
            return ""
        return f"{self.file}:{self.line}" if self.line is not None else self.file


@dataclass(kw_only=True)
class CardResult:
    """The outcome of one script."""

    code: int
    file: str
    status: str
    name: str = ""
    reason: str = ""                                     # why a card was not run
    failures: list[ScriptFailure] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)   # room for --coverage

    @property
    def failed(self) -> bool:
        return self.status in FAILING

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"code": self.code, "name": self.name, "file": self.file,
                               "status": self.status, "seconds": round(self.seconds, 6)}
        if self.reason:
            out["reason"] = self.reason
        if self.failures:
            out["failures"] = [f.to_json() for f in self.failures]
        if self.findings:
            out["findings"] = [f.to_json() for f in self.findings]
        if self.extra:
            out["extra"] = self.extra
        return out


# =====================================================================================
# Grouping failures
# =====================================================================================

_LOCATION_PREFIX = re.compile(r"^(?:(?:\[string \"[^\"]*\"\]|[\w./\\-]+\.lua):\d+:\s*)+")
_SCRIPT_CODE = re.compile(r"\bc\d{3,}\b")
_NUMBER_WORD = re.compile(r"(?<![#\w.])-?\d+(?:\.\d+)?\b")
_NEEDED_PATTERNS = (
    re.compile(r"not implemented:?\s*'?([A-Za-z_][\w]*(?:[.:][A-Za-z_]\w*)*)"),
    re.compile(r"attempt to call a nil value \((?:field|method|global) '([^']+)'\)"),
    re.compile(r"attempt to index a nil value \(global '([^']+)'\)"),
)
_CALL_SITE = re.compile(r"([A-Za-z_]\w*)\s*[.:]\s*$")


def failure_pattern(message: str) -> str:
    """A failure message reduced to its kind, for grouping: the first line, the
    leading ``file:line:`` cut, card codes as ``c<ID>`` and numbers as ``<N>``."""
    first = message.strip().splitlines()[0] if message.strip() else "(no message)"
    text = _LOCATION_PREFIX.sub("", first)
    text = _SCRIPT_CODE.sub("c<ID>", text)
    text = _NUMBER_WORD.sub("<N>", text)
    return text[:200]


def needed_function(failure: ScriptFailure, source_line: str | None = None) -> str | None:
    """The library function a failure says is missing (``Card.IsFoo``, ``Duel.Bar``), if any.

    "not implemented: X" names it; for "attempt to call a nil value (method
    'X')" the library is taken from the calling line when it names one
    (``Duel.X(`` / ``aux.X(``), else it is reported as ``?:X``.
    """
    for pat in _NEEDED_PATTERNS:
        m = pat.search(failure.message)
        if m is None:
            continue
        name = m.group(1)
        if "." in name or ":" in name:
            return name
        if "(method" in m.group(0):
            return f"{_guess_receiver(name, source_line)}:{name}"
        if "(global" in m.group(0):
            return name
        if source_line:
            k = source_line.find(name)
            while k >= 0:
                mm = _CALL_SITE.search(source_line[:k])
                if mm:
                    owner = mm.group(1)
                    return f"{'aux' if owner == 'Auxiliary' else owner}.{name}"
                k = source_line.find(name, k + 1)
        return name
    return None


_EFFECT_VARS = re.compile(r"(?:e\d*|te|re|ce|se|pe|ke|eff\w*|effect\w*)\Z")
_GROUP_VARS = re.compile(r"(?:\w*g\d*|group\w*)\Z")


def _guess_receiver(method: str, source_line: str | None) -> str:
    """The library of the object a method was called on, guessed from the variable
    name at the call site (the scripts' habit: ``e1`` effects, ``g``/``sg`` groups,
    ``c``/``tc`` cards); ``?`` when the line does not show the call."""
    if not source_line:
        return "?"
    m = re.search(r"([A-Za-z_]\w*)\s*:\s*" + re.escape(method) + r"\b", source_line)
    if m is None:
        return "?"
    var = m.group(1)
    if _EFFECT_VARS.match(var):
        return "Effect"
    if _GROUP_VARS.match(var):
        return "Group"
    return "Card"
