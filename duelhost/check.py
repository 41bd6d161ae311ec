"""``duelhost check``: load every card script of a folder the way a duel does, and report.

For each ``c<ID>.lua`` of a script folder the check creates the card in a fresh
duel (with its database row) exactly as the engine does when a card is
created: ``Duel.new_card`` -> the script host's ``register_card`` (load the
script into the card's table ``c<ID>``, then call ``initial_effect(c)``).  The
reference only does that for cards whose row is not a plain Normal Monster;
such cards are reported as *not run*, and a script with no database row is
reported as *no row* (the reference would run it as a card of all-zero data;
the check skips it: neither is a failure).

Beside the run, three findings a maintainer wants before a release:

* **missing references**: a script that names another card's script table
  ``c<ID>`` (``c29724053[tp]``, ``c83764718.filter``) or needs another code's
  script loaded (``Duel.CreateToken(tp, 12345)``, ``c:CopyEffect(12345, ...)``,
  ``c:ReplaceEffect(...)`` with a constant code) whose ``c<ID>.lua`` is not in
  the folder -- a static scan of the tokens;
* **no initial_effect**: the card table has no ``initial_effect`` function
  after loading (the reference then reports "attempt to call an error
  function" every time the card is created) -- a failure;
* **undefined constants**: an ALL_CAPS global that is read while the script
  loads or runs ``initial_effect`` and is not defined (a misspelt constant is
  silently ``nil``).  Found at run time by an ``__index`` hook on the scripts'
  global table when the script host offers one (check mode only), else by a
  static scan: ALL_CAPS names used in the file that neither constant.lua /
  utility.lua / procedure.lua nor the script itself defines.

Cards run in worker processes (``jobs``), each with one script host reused for
many cards.  Isolation between cards: every card gets a fresh engine duel, and
after each card the worker puts the Lua globals back as they were after the
shared libraries loaded (new globals removed, changed ones restored, also
inside the library tables ``aux``/``Card``/``Duel``/``Effect``/``Group``), so a
script that breaks a global cannot change the next card's result.  A worker
that crashes or runs past the time limit is replaced; its card is a failure.

``duelhost check --coverage`` (per-file Lua line coverage, duelhost.coverage):
each worker counts the lines its Lua runtimes run; after each card
(:meth:`CardLoader.run`) the counts since the previous card, and the executable
lines of chunks seen for the first time, travel in the result's ``extra``; the
parent merges them into ``CheckReport.coverage`` and takes them out of ``extra``.
"""

from __future__ import annotations

import dataclasses
import importlib
import os
import re
import sys
import time
import traceback
from collections import defaultdict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.etree import ElementTree as ET

from .execution import Backend, ExecutionError, RunInfo, Work, execute
from .execution.local import maxrss_kb
from .execution.lost import Lost

__all__ = [
    "CheckReport",
    "CardLoader",
    "CardResult",
    "Finding",
    "ScriptFailure",
    "StaticInfo",
    "check_scripts",
    "failure_pattern",
    "lua_tokens",
    "needed_function",
    "scan_script",
]

SCRIPT_RE = re.compile(r"c(\d+)\.lua")
LIBRARY_FILES = ("constant.lua", "utility.lua", "procedure.lua")
ALL_CAPS_RE = re.compile(r"[A-Z][A-Z0-9_]*\Z")

# outcome statuses of a card
PASSED = "passed"
FAILED = "failed"
NO_INITIAL_EFFECT = "no_initial_effect"
NO_DB_ROW = "no_db_row"
NOT_RUN = "not_run"
STATUSES = (PASSED, FAILED, NO_INITIAL_EFFECT, NO_DB_ROW, NOT_RUN)
FAILING = (FAILED, NO_INITIAL_EFFECT)


# =====================================================================================
# Lua tokens (for the static scans)
# =====================================================================================

LUA_KEYWORDS = frozenset(
    "and break do else elseif end false for function goto if in local nil not or repeat "
    "return then true until while".split())

_TOKEN_RE = re.compile(r"""
    (?P<nl>\n)
  | [ \t\r\f\v]+
  | --\[(?P<lceq>=*)\[
  | --[^\n]*
  | (?P<name>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>0[xX][0-9A-Fa-f]*\.?[0-9A-Fa-f]*(?:[pP][+-]?\d+)?
             | (?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<string>"(?:[^"\\\n]|\\z\s*|\\(?:.|\n))*"
             | '(?:[^'\\\n]|\\z\s*|\\(?:.|\n))*')
  | \[(?P<lseq>=*)\[
  | (?P<op>\.\.\.|\.\.|==|~=|<=|>=|//|::|<<|>>|[^"'])
""", re.X | re.S)


Token = tuple[str, str, int]
"""(kind, text, line); kind is "name", "keyword", "number", "string" or "op"."""


def lua_tokens(src: str) -> Iterator[Token]:
    """The tokens of a Lua chunk, comments dropped (string tokens keep their quotes).

    Lenient: an unterminated string or comment ends the scan instead of raising
    (loading the script reports the syntax error properly).
    """
    pos, n, line = 0, len(src), 1
    match = _TOKEN_RE.match
    while pos < n:
        m = match(src, pos)
        if m is None:       # an unterminated string
            return
        kind = m.lastgroup
        pos = m.end()
        if kind is None:
            continue
        if kind == "nl":
            line += 1
        elif kind == "name":
            text = m.group()
            yield ("keyword" if text in LUA_KEYWORDS else "name", text, line)
        elif kind in ("lceq", "lseq"):
            close = "]" + m.group(kind) + "]"
            j = src.find(close, pos)
            if j < 0:
                return
            if kind == "lseq":
                yield ("string", src[m.start():j + len(close)], line)
            line += src.count("\n", m.start(), j)
            pos = j + len(close)
        elif kind == "string":
            text = m.group()
            yield ("string", text, line)
            line += text.count("\n")
        else:
            yield (kind, m.group(), line)


def read_lua(path: Path) -> str:
    """A script's text (scripts are UTF-8; a bad byte must not stop the scan)."""
    return path.read_bytes().decode("utf-8", errors="replace")


# =====================================================================================
# Static scans
# =====================================================================================


@dataclass(frozen=True, slots=True, kw_only=True)
class Finding:
    """Something a static or runtime scan found in one script.

    ``kind``: ``"missing_reference"`` (``name`` is ``c<ID>``, ``code`` the
    referenced code, ``detail`` how it is referenced),
    ``"undefined_constant"`` (``name`` the ALL_CAPS global, ``detail`` "runtime"
    or "static"), ``"no_initial_effect"`` (static, for a script the check did
    not run) or ``"global_write"`` (``name`` a global or library field,
    ``Auxiliary.X`` / ``Duel.X``, that the script added or replaced while
    loading; ``detail`` "added"/"replaced").
    """

    kind: str
    name: str
    line: int | None = None
    code: int | None = None
    detail: str = ""

    def to_json(self) -> dict[str, Any]:
        return {k: v for k, v in dataclasses.asdict(self).items() if v is not None and v != ""}

    def describe(self) -> str:
        where = f" (line {self.line})" if self.line else ""
        if self.kind == "missing_reference":
            return f"references {self.name} ({self.detail}){where}, but c{self.code}.lua is not in the folder"
        if self.kind == "no_initial_effect":
            return "defines no initial_effect (static scan; the card was not run)"
        if self.kind == "global_write":
            return (f"{self.detail} the shared global {self.name} while loading "
                    f"(every later card of a duel sees it)")
        return f"reads undefined constant {self.name}{where} [{self.detail}]"


def _assigned_names(toks: Sequence[Token]) -> set[str]:
    """Names a chunk defines: assignment targets, ``function NAME``, locals, parameters, loop variables.

    Over-generous on purpose (a table constructor key ``{FOO=1}`` counts): the
    set only suppresses reports.
    """
    out: set[str] = set()
    n = len(toks)
    for k, t in enumerate(toks):
        if t[0] != "name":
            continue
        prev = toks[k - 1] if k else None
        if prev is not None and prev[0] == "op" and prev[1] in (".", ":", "::"):
            continue
        nxt = toks[k + 1] if k + 1 < n else None
        if nxt is not None and nxt[0] == "op" and nxt[1] in ("=", ","):
            # NAME = ...  or  NAME, NAME2 = ...  (a "," inside an argument list is
            # harmless over-generosity only when followed by an "=" later: check)
            if nxt[1] == "=" or _list_then_assign(toks, k):
                out.add(t[1])
                continue
        if prev is not None and prev[0] == "keyword" and prev[1] in ("function", "local", "for"):
            out.add(t[1])
            continue
    # parameters and the rest of ``local a, b`` / ``for a, b`` lists
    for k, t in enumerate(toks):
        if t[0] == "keyword" and t[1] in ("local", "for"):
            j = k + 1
            if j < n and toks[j][0] == "keyword" and toks[j][1] == "function":
                continue
            while j < n and toks[j][0] == "name":
                out.add(toks[j][1])
                if j + 1 < n and toks[j + 1][1] == "<":   # local x <const>
                    j += 3
                if j + 1 < n and toks[j + 1][0] == "op" and toks[j + 1][1] == ",":
                    j += 2
                else:
                    break
        elif t[0] == "keyword" and t[1] == "function":
            j = k + 1
            while j < n and not (toks[j][0] == "op" and toks[j][1] == "("):
                j += 1
            j += 1
            while j < n and not (toks[j][0] == "op" and toks[j][1] == ")"):
                if toks[j][0] == "name":
                    out.add(toks[j][1])
                j += 1
    return out


def _list_then_assign(toks: Sequence[Token], k: int) -> bool:
    """Whether ``toks[k]`` starts ``NAME, NAME, ... =`` (a multiple assignment)."""
    j, n = k, len(toks)
    while j + 1 < n and toks[j][0] == "name" and toks[j + 1][0] == "op" and toks[j + 1][1] == ",":
        j += 2
    return (j + 1 < n and toks[j][0] == "name" and toks[j + 1][0] == "op"
            and toks[j + 1][1] == "=")


def library_globals(folder: Path, extra: Iterable[Path] = ()) -> frozenset[str]:
    """Every name the shared library files of ``folder`` (constant/utility/procedure.lua) define."""
    names: set[str] = set()
    paths = [folder / name for name in LIBRARY_FILES] + list(extra)
    for path in paths:
        if path.is_file():
            names |= _assigned_names(list(lua_tokens(read_lua(path))))
    return frozenset(names)


# calls that make the engine load another code's script, and the index of the code argument
_LOADING_CALLS = {"CreateToken": 1, "CopyEffect": 0, "ReplaceEffect": 0}


@dataclass(frozen=True, slots=True, kw_only=True)
class StaticInfo:
    """What the static scan of one script found."""

    defines_initial_effect: bool
    undefined_constants: tuple[Finding, ...] = ()
    references: tuple[Finding, ...] = ()    # every other code whose script this one needs


def _eval_code(toks: Sequence[Token], env: dict[str, int]) -> int | None:
    """The value of a constant integer expression (numbers, known names, + - *, parentheses)."""
    text = []
    for t in toks:
        if t[0] == "number":
            try:
                text.append(str(int(t[1], 0)))
            except ValueError:
                return None
        elif t[0] == "name" and t[1] in env:
            text.append(str(env[t[1]]))
        elif t[0] == "op" and t[1] in "+-*()":
            text.append(t[1])
        else:
            return None
    if not text:
        return None
    try:
        value = eval("".join(text), {"__builtins__": {}}, {})   # digits and + - * ( ) only
    except Exception:
        return None
    return value if isinstance(value, int) else None


def _call_args(toks: Sequence[Token], k: int) -> list[list[Token]] | None:
    """The top-level argument token lists of the call whose ``(`` is ``toks[k]``."""
    if k >= len(toks) or toks[k][1] != "(":
        return None
    args: list[list[Token]] = [[]]
    depth = 0
    for t in toks[k + 1:]:
        if t[0] == "op" and t[1] in "([{":
            depth += 1
        elif t[0] == "op" and t[1] in ")]}":
            if depth == 0:
                return args
            depth -= 1
        elif t[0] == "op" and t[1] == "," and depth == 0:
            args.append([])
            continue
        args[-1].append(t)
    return None


def scan_script(src: str, code: int, library: frozenset[str]) -> StaticInfo:
    """The static findings of the script of ``code`` (its text ``src``).

    ``references`` lists every other code whose script this one needs, whether
    or not the file exists (the caller decides what is missing).
    """
    toks = list(lua_tokens(src))
    assigned = _assigned_names(toks)
    # the script's own code under the names GetID() binds: local s,id,o=GetID()
    env: dict[str, int] = {}
    self_tables = {f"c{code}"}
    for k, t in enumerate(toks):
        if t[0] == "name" and t[1] == "GetID" and k >= 2 and toks[k - 1][1] == "=":
            j = k - 2
            names: list[str] = []
            while j >= 0 and toks[j][0] == "name":
                names.insert(0, toks[j][1])
                if j >= 1 and toks[j - 1][1] == ",":
                    j -= 2
                else:
                    break
            if names:
                self_tables.add(names[0])
            if len(names) > 1:
                env[names[1]] = code
            if len(names) > 2:
                env[names[2]] = 1 if code < 100000000 else 100
    defines_initial = False
    undefined: dict[str, Finding] = {}
    refs: dict[tuple[int, str], Finding] = {}
    n = len(toks)
    for k, t in enumerate(toks):
        if t[0] != "name":
            continue
        prev = toks[k - 1] if k else None
        after_dot = prev is not None and prev[0] == "op" and prev[1] in (".", ":", "::")
        if (t[1] == "initial_effect" and prev is not None and prev[1] in (".", ":")
                and k >= 2 and toks[k - 2][1] in self_tables):
            nxt = toks[k + 1] if k + 1 < n else None
            before = toks[k - 3] if k >= 3 else None
            if (before is not None and before[1] == "function") or (nxt is not None and nxt[1] == "="):
                defines_initial = True
        if after_dot:
            if t[1] in _LOADING_CALLS and k + 1 < n:
                args = _call_args(toks, k + 1)
                index = _LOADING_CALLS[t[1]]
                if args is not None and len(args) > index:
                    value = _eval_code(args[index], env)
                    if value is not None and value != code:
                        key = (value, t[1])
                        if key not in refs:
                            refs[key] = Finding(kind="missing_reference", name=f"c{value}", code=value,
                                                line=t[2], detail=f"{t[1]}({value})")
            continue
        if prev is not None and prev[0] == "keyword" and prev[1] == "goto":
            continue
        m = SCRIPT_RE.fullmatch(t[1] + ".lua")
        if m and t[1] not in assigned:
            value = int(m.group(1))
            if value != code and (value, "table") not in refs:
                refs[(value, "table")] = Finding(kind="missing_reference", name=t[1], code=value,
                                                 line=t[2], detail="script table")
            continue
        if (ALL_CAPS_RE.match(t[1]) and len(t[1]) > 1 and t[1] not in library
                and t[1] not in assigned and t[1] not in undefined):
            undefined[t[1]] = Finding(kind="undefined_constant", name=t[1], line=t[2],
                                        detail="static")
    return StaticInfo(defines_initial_effect=defines_initial,
                      undefined_constants=tuple(undefined.values()),
                      references=tuple(refs.values()))


def missing_references(info: StaticInfo, available: Callable[[int], bool],
                       needs_script: Callable[[int], bool],
                       has_row: Callable[[int], bool] | None = None) -> list[Finding]:
    """The references of ``info`` whose script is not available.

    ``available(code)``: whether ``c<code>.lua`` is in the folder.
    ``needs_script(code)``: whether the engine loads a script for a card of that
    code (False for a Normal Monster or Token row, which never runs one).  A
    script-table reference always needs the file.  With ``has_row``, a card
    created by code (CreateToken, ...) whose code has no database row says so:
    the engine would create it with empty data and look for its script.
    """
    out = []
    for f in info.references:
        assert f.code is not None
        if available(f.code):
            continue
        if f.detail != "script table":
            if not needs_script(f.code):
                continue
            if has_row is not None and not has_row(f.code):
                f = dataclasses.replace(f, detail=f"{f.detail}; code {f.code} has no database row either")
        out.append(f)
    return out


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


# =====================================================================================
# The report
# =====================================================================================

_STATUS_LABELS = {
    PASSED: "passed",
    FAILED: "failed",
    NO_INITIAL_EFFECT: "no initial_effect",
    NO_DB_ROW: "no database row",
    NOT_RUN: "not run by the engine",
}


@dataclass
class CheckReport:
    """Everything ``duelhost check`` found, with its text, JSON and JUnit forms."""

    scripts: str
    db: str
    results: list[CardResult]
    seconds: float = 0.0
    jobs: int = 0
    constants_check: str = "static"          # "runtime" when the script host's hook was used
    strict: bool = False
    workers: list[dict[str, Any]] = field(default_factory=list)
    parent_maxrss_kb: int = 0
    notes: list[str] = field(default_factory=list)
    execution: RunInfo | None = None      # backend, retries, interrupted (duelhost.execution)
    coverage: Any = None                     # duelhost.coverage.CoverageReport with coverage=True

    # ----- numbers ----------------------------------------------------------------

    def count(self, status: str) -> int:
        return sum(1 for r in self.results if r.status == status)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def with_row(self) -> int:
        """Scripts whose code has a database row (the ones the engine can create)."""
        return self.total - self.count(NO_DB_ROW)

    @property
    def run(self) -> int:
        """Scripts with a database row that the engine runs (not Normal Monsters / alternate artworks)."""
        return self.with_row - self.count(NOT_RUN)

    @property
    def failures(self) -> list[CardResult]:
        return [r for r in self.results if r.failed]

    def with_findings(self, kind: str) -> list[CardResult]:
        return [r for r in self.results if any(f.kind == kind for f in r.findings)]

    @property
    def ok(self) -> bool:
        if self.failures:
            return False
        return not (self.strict and any(_strict_findings(r) for r in self.results
                                        if r.status not in (NO_DB_ROW, NOT_RUN)))

    @property
    def exit_code(self) -> int:
        return 0 if self.ok else 1

    @property
    def cards_per_second(self) -> float:
        """Cards created per second of wall time (worker start-up included)."""
        return self.run / self.seconds if self.seconds > 0 else 0.0

    def causes(self) -> list[tuple[str, int, list[int]]]:
        """Failures grouped by message pattern, most frequent first: (pattern, count, codes)."""
        groups: dict[str, list[int]] = defaultdict(list)
        for r in self.failures:
            f = r.failures[0]
            groups[failure_pattern(f.message)].append(r.code)
        return sorted(((p, len(c), c) for p, c in groups.items()), key=lambda x: (-x[1], x[0]))

    def needed_functions(self) -> list[tuple[str, int, list[int]]]:
        """Library functions failures say are missing, by how many cards need them."""
        groups: dict[str, list[int]] = defaultdict(list)
        for r in self.failures:
            for name in dict.fromkeys(f.needs for f in r.failures if f.needs):
                groups[name].append(r.code)
        return sorted(((n, len(c), c) for n, c in groups.items()), key=lambda x: (-x[1], x[0]))

    def global_writes(self) -> list[tuple[str, int, list[int]]]:
        """Shared globals scripts added or replaced while loading, by how many scripts did."""
        groups: dict[str, list[int]] = defaultdict(list)
        for r in self.results:
            for f in r.findings:
                if f.kind == "global_write":
                    groups[f"{f.name} ({f.detail})"].append(r.code)
        return sorted(((n, len(c), c) for n, c in groups.items()), key=lambda x: (-x[1], x[0]))

    def summary(self) -> dict[str, Any]:
        counts = {status: self.count(status) for status in STATUSES}
        clean = counts[PASSED]
        return {
            "total": self.total,
            **counts,
            "with_db_row": self.with_row,
            "run": self.run,
            "pass_rate": round(clean / self.run, 6) if self.run else None,
            "missing_references": len(self.with_findings("missing_reference")),
            "undefined_constants": len(self.with_findings("undefined_constant")),
            "global_writes": len(self.with_findings("global_write")),
            "constants_check": self.constants_check,
            "seconds": round(self.seconds, 3),
            "cards_per_second": round(self.cards_per_second, 1),
            "jobs": self.jobs,
            "parent_maxrss_kb": self.parent_maxrss_kb,
            "worker_maxrss_kb": max((w.get("maxrss_kb", 0) for w in self.workers), default=0),
            "ok": self.ok,
        }

    # ----- text --------------------------------------------------------------------

    def to_text(self, *, max_failures: int | None = None, causes: int = 25) -> str:
        lines: list[str] = []
        failures = sorted(self.failures, key=lambda r: r.code)
        if failures:
            lines.append(f"== failures ({len(failures)}) ==")
            shown = failures if max_failures is None else failures[:max_failures]
            for r in shown:
                lines.extend(_failure_lines(r))
            if len(shown) < len(failures):
                lines.append(f"... and {len(failures) - len(shown)} more (use --report json for all)")
            lines.append("")
        missing = self.with_findings("missing_reference")
        if missing:
            lines.append(f"== references to scripts not in the folder ({len(missing)} scripts) ==")
            for r in missing:
                for f in r.findings:
                    if f.kind == "missing_reference":
                        lines.append(f"c{r.code} {_quote(r.name)}: {f.describe()}")
            lines.append("")
        undefined = self.with_findings("undefined_constant")
        if undefined:
            how = ("read while loading (runtime hook)" if self.constants_check == "runtime"
                   else "used, defined nowhere (static scan)")
            lines.append(f"== undefined ALL_CAPS globals, {how} ({len(undefined)} scripts) ==")
            for r in undefined:
                names = ", ".join(
                    f"{f.name}" + (f" (line {f.line})" if f.line else "")
                    for f in r.findings if f.kind == "undefined_constant")
                lines.append(f"c{r.code} {_quote(r.name)}: {names}")
            lines.append("")
        noinit = [r for r in self.results if any(f.kind == "no_initial_effect" for f in r.findings)]
        if noinit:
            lines.append(f"== scripts not run that define no initial_effect ({len(noinit)}) ==")
            lines.append("  " + " ".join(f"c{r.code}" for r in noinit))
            lines.append("")
        writes = self.global_writes()
        if writes:
            lines.append(f"== shared globals a script added or replaced while loading "
                         f"({len(self.with_findings('global_write'))} scripts; the check puts them back "
                         f"between cards, a duel does not) ==")
            for name, n, codes in writes[:causes]:
                lines.append(f"{n:6d}  {name}   e.g. {_examples(codes)}")
            if len(writes) > causes:
                lines.append(f"        ... {len(writes) - causes} more names")
            lines.append("")
        groups = self.causes()
        if groups:
            lines.append(f"== failure causes ({len(groups)} patterns) ==")
            for pattern, n, codes in groups[:causes]:
                lines.append(f"{n:6d}  {pattern}   e.g. {_examples(codes)}")
            if len(groups) > causes:
                lines.append(f"        ... {len(groups) - causes} more patterns")
            lines.append("")
        needed = self.needed_functions()
        if needed:
            lines.append("== most needed library functions (cards failing on each) ==")
            for name, n, codes in needed[:causes]:
                lines.append(f"{n:6d}  {name}   e.g. {_examples(codes)}")
            lines.append("")
        lines.extend(self._summary_lines())
        return "\n".join(lines)

    def _summary_lines(self) -> list[str]:
        s = self.summary()
        lines = [f"== duelhost check: {self.scripts} (database {self.db}) =="]
        lines.append(f"  scripts                {s['total']:7d}")
        for status in STATUSES:
            extra = ""
            if status == NO_DB_ROW and s[status]:
                extra = "  (skipped, not failures)"
            elif status == NOT_RUN and s[status]:
                extra = "  (Normal Monsters / alternate artworks: the engine runs no script for them)"
            lines.append(f"  {_STATUS_LABELS[status]:<22} {s[status]:7d}{extra}")
        if s["run"]:
            lines.append(f"  load cleanly           {s[PASSED]}/{s['run']} scripts with a database row "
                         f"that the engine runs ({100 * s['pass_rate']:.1f}%)")
        lines.append(f"  missing references     {s['missing_references']:7d} scripts")
        lines.append(f"  undefined constants    {s['undefined_constants']:7d} scripts ({self.constants_check} check)")
        lines.append(f"  shared globals written {s['global_writes']:7d} scripts (informational)")
        rss = f", peak memory {_mib(s['parent_maxrss_kb'])} parent"
        if s["worker_maxrss_kb"]:
            rss += f" / {_mib(s['worker_maxrss_kb'])} per worker"
        lines.append(f"  time                   {self.seconds:.1f} s, {self.cards_per_second:.0f} cards/s "
                     f"with {self.jobs or 1} {'worker' if self.jobs else 'process'}"
                     f"{'s' if self.jobs > 1 else ''}{rss}")
        for note in self.notes:
            lines.append(f"  note: {note}")
        lines.append("  result: " + ("OK" if self.ok else "FAILED"))
        return lines

    # ----- JSON ----------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "scripts": self.scripts,
            "db": self.db,
            "summary": self.summary(),
            "causes": [{"pattern": p, "count": n, "codes": c} for p, n, c in self.causes()],
            "needed_functions": [{"function": f, "count": n, "codes": c}
                                 for f, n, c in self.needed_functions()],
            "workers": self.workers,
            "execution": self.execution.to_json() if self.execution is not None else None,
            "notes": self.notes,
            "cards": [r.to_json() for r in sorted(self.results, key=lambda r: r.code)],
        }

    # ----- JUnit XML -------------------------------------------------------------------

    def to_junit(self) -> str:
        """JUnit XML: one testcase per script; failures carry the message and traceback,
        scripts with no database row (and scripts the engine does not run) are skipped."""
        s = self.summary()
        failed = s[FAILED] + s[NO_INITIAL_EFFECT]
        skipped = s[NO_DB_ROW] + s[NOT_RUN]
        if self.strict:
            failed += sum(1 for r in self.results if not r.failed and _strict_findings(r)
                          and r.status not in (NO_DB_ROW, NOT_RUN))
        attrs = {"name": "duelhost check", "tests": str(self.total), "failures": str(failed),
                 "errors": "0", "skipped": str(skipped), "time": f"{self.seconds:.3f}"}
        root = ET.Element("testsuites", attrs)
        suite = ET.SubElement(root, "testsuite", {**attrs, "name": f"duelhost check {self.scripts}"})
        props = ET.SubElement(suite, "properties")
        for key, value in (("scripts", self.scripts), ("db", self.db),
                           ("constants_check", self.constants_check)):
            ET.SubElement(props, "property", {"name": key, "value": value})
        for r in sorted(self.results, key=lambda r: r.code):
            case = ET.SubElement(suite, "testcase", {
                "classname": "duelhost.check", "name": f"c{r.code}" + (f" {r.name}" if r.name else ""),
                "file": r.file, "time": f"{r.seconds:.4f}"})
            if r.failed:
                f = r.failures[0]
                el = ET.SubElement(case, "failure", {"message": _xml_text(f.message.strip().splitlines()[0]
                                                                          if f.message.strip() else f.kind),
                                                     "type": f"{f.kind}:{f.callback}"})
                el.text = _xml_text("\n\n".join(_failure_detail(x) for x in r.failures))
            elif r.status == NO_DB_ROW:
                ET.SubElement(case, "skipped", {"message": r.reason or f"no database row for {r.code}"})
            elif r.status == NOT_RUN:
                ET.SubElement(case, "skipped", {"message": r.reason})
            elif self.strict and _strict_findings(r) and r.status not in (NO_DB_ROW, NOT_RUN):
                strict = _strict_findings(r)
                el = ET.SubElement(case, "failure", {"message": _xml_text(strict[0].describe()),
                                                     "type": strict[0].kind})
                el.text = _xml_text("\n".join(f.describe() for f in strict))
            if r.findings:
                out = ET.SubElement(case, "system-out")
                out.text = _xml_text("\n".join(f.describe() for f in r.findings))
        ET.indent(root)
        return '<?xml version="1.0" encoding="UTF-8"?>\n' + ET.tostring(root, encoding="unicode")


STRICT_FINDINGS = ("missing_reference", "undefined_constant", "no_initial_effect")


def _strict_findings(r: CardResult) -> list[Finding]:
    """The findings that fail a card under --strict (global writes stay informational)."""
    return [f for f in r.findings if f.kind in STRICT_FINDINGS]


_XML_BAD = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _xml_text(text: str) -> str:
    """Text XML 1.0 can carry (control characters from a script's error become \\xNN)."""
    return _XML_BAD.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def _quote(name: str) -> str:
    return f'"{name}"' if name else "(no name)"


def _examples(codes: list[int], n: int = 5) -> str:
    more = f" (+{len(codes) - n})" if len(codes) > n else ""
    return " ".join(f"c{c}" for c in codes[:n]) + more


def _mib(kb: int) -> str:
    return f"{kb / 1024:.0f} MiB"


def _failure_detail(f: ScriptFailure) -> str:
    head = f"[{f.callback}] {f.message.strip()}"
    if f.where:
        head += f"\n  at {f.where}"
    if f.needs:
        head += f"\n  missing: {f.needs}"
    if f.traceback:
        head += "\n" + f.traceback.rstrip()
    return head


def _failure_lines(r: CardResult) -> list[str]:
    lines = [f"c{r.code} {_quote(r.name)} [{r.file}]"]
    for f in r.failures:
        lines.extend("    " + line for line in _failure_detail(f).splitlines())
    return lines


# =====================================================================================
# Running the cards: worker processes
# =====================================================================================


class CheckError(RuntimeError):
    """The check itself cannot run (bad folder, database, or a worker that cannot start)."""


@dataclass(frozen=True, kw_only=True)
class LoaderSpec:
    """How a worker builds its :class:`CardLoader` (picklable)."""

    scripts: Path
    db: Path
    isolation: str = "reset"      # "reset": one Lua runtime, globals restored per card; "fresh": new host per card
    runtime_constants: bool = True
    factory: Callable[["LoaderSpec"], Any] | None = None    # tests: a stand-in loader
    coverage: bool = False        # count the script lines run (duelhost.coverage), per card in extra

    def build(self) -> Any:
        if self.factory is not None:
            return self.factory(self)
        return CardLoader(self)


def script_files(folder: Path) -> dict[int, Path]:
    """The card scripts of a folder: code -> path of ``c<code>.lua``."""
    out = {}
    for p in folder.iterdir():
        m = SCRIPT_RE.fullmatch(p.name)
        if m and p.is_file():
            out[int(m.group(1))] = p
    return dict(sorted(out.items()))


# read by the parent before it forks workers, inherited by them (see _run_in_workers)
_SCRIPT_FILES: dict[Path, dict[int, Path]] = {}
_DATABASES: dict[Path, Any] = {}


def _maxrss_kb() -> int:
    """This process's peak resident memory in KiB (ru_maxrss is bytes on macOS)."""
    return maxrss_kb()


class CheckWork(Work):
    """The check as a duelhost.execution Work: a worker builds one loader, an item is a
    card code, a card whose worker died or ran out of time fails as "crash"/"timeout"."""

    def __init__(self, spec: LoaderSpec, files: dict[int, Path], timeout: float | None,
                 origin: dict[str, str] | None = None) -> None:
        self.spec = spec
        self.files = files
        self.timeout = timeout
        self.origin = origin or {}      # on a Ray node: node path -> the path given to the command

    def prepare(self) -> Any:
        return self.spec.build()

    def run(self, loader: Any, code: int, progress: Any) -> CardResult:
        return loader.run(code)

    def lost(self, code: int, lost: Lost) -> CardResult:
        if lost.how == "timeout":
            kind, message = "timeout", (f"no result after {self.timeout:g} s (endless loop?); "
                                        f"the worker was killed")
        else:
            kind, message = "crash", (f"the worker process died (exit code {lost.exitcode}) "
                                      f"while running this card")
        name = self.files[code].name
        return CardResult(code=code, file=name, status=FAILED, seconds=lost.seconds, failures=[
            ScriptFailure(message=message, callback="worker", file=name, kind=kind)])

    def describe(self, loader: Any) -> dict[str, Any]:
        notes = list(getattr(loader, "notes", ()))
        for mine, theirs in self.origin.items():
            notes = [n.replace(mine, theirs) for n in notes]
        return {"constants_check": getattr(loader, "constants_check", "static"), "notes": notes}

    def finish(self, loader: Any) -> dict[str, Any]:
        runtime = getattr(loader, "runtime", None)
        cov = getattr(runtime, "coverage", None)
        if cov is not None and os.getpid() == _PARENT_PID:
            cov.stop()            # in this process: no more counting once the check is done
        return {"hosts_built": getattr(runtime, "hosts_built", None)}

    def shipped(self) -> dict[str, Path]:
        return {"scripts": self.spec.scripts, "db": self.spec.db}

    def on_node(self, paths: dict[str, Path]) -> "CheckWork":
        spec = dataclasses.replace(self.spec, scripts=paths["scripts"], db=paths["db"])
        origin = {str(paths["scripts"]): str(self.spec.scripts), str(paths["db"]): str(self.spec.db)}
        return CheckWork(spec, self.files, self.timeout, origin)

    def chunk_size(self, items: int, slots: int) -> int:
        return max(1, min(200, -(-items // (4 * max(1, slots)))))


_PARENT_PID = os.getpid()


def _preload_for_fork(spec: LoaderSpec, files: dict[int, Path]) -> None:
    """Import and open once in the parent, so that forked workers inherit the modules
    and the database instead of building them each."""
    from duelhost.bindings import registry as _registry
    from duelhost.engine.carddb import CardDatabase
    importlib.import_module("duelhost.bindings.host")
    importlib.import_module("duelhost.engine.duel")
    _registry.load_libraries()
    _SCRIPT_FILES[spec.scripts] = files
    _DATABASES[spec.db] = CardDatabase.open(spec.db)


def _check_database(db: Path) -> None:
    """A check needs a readable card database: one that is not SQLite, empty, truncated or of
    the wrong schema is a CheckError naming the file, before any card runs."""
    from duelhost.engine.carddb import CardDatabase, CardDatabaseError
    try:
        CardDatabase.open(db)
    except CardDatabaseError as exc:
        raise CheckError(str(exc)) from None


def check_scripts(scripts: Path | str, db: Path | str, *, jobs: int = 0,
                  only: Iterable[int] | None = None, limit: int | None = None,
                  timeout: float = 60.0, strict: bool = False, isolation: str = "reset",
                  runtime_constants: bool = True,
                  progress: Callable[[CardResult], None] | None = None,
                  loader_factory: Callable[[LoaderSpec], Any] | None = None,
                  coverage: bool = False, backend: Backend | None = None) -> CheckReport:
    """Create every card of ``scripts`` (a folder of ``c<ID>.lua``) and run its initial_effect.

    ``jobs`` 0 runs in this process (no crash or time-out protection: for
    tests and measurements); N >= 1 runs N worker processes; ``backend``
    (duelhost.execution.Backend, e.g. ``Backend.ray(address)``) overrides ``jobs``.
    Results are in code order whatever the backend; after Ctrl-C the report holds
    the cards done and ``report.execution.interrupted`` is set.  ``only`` limits the
    run to those codes (whose file must exist), ``limit`` to the first N
    scripts by code.  ``progress`` is called with each result as it comes in.
    ``coverage`` counts which script lines ran (``report.coverage``, a
    duelhost.coverage.CoverageReport).
    """
    scripts = Path(scripts)
    db = Path(db)
    if not scripts.is_dir():
        raise CheckError(f"script folder {scripts} does not exist")
    if not db.is_file():
        raise CheckError(f"card database {db} does not exist")
    if isolation not in ("reset", "fresh"):
        raise CheckError(f"isolation must be 'reset' or 'fresh', not {isolation!r}")
    if loader_factory is None:          # a custom loader reads the database its own way
        _check_database(db)
    files = script_files(scripts)
    if not files:
        raise CheckError(f"{scripts}: no card scripts (c<ID>.lua) in this folder")
    codes = list(files)
    if only:
        wanted = list(dict.fromkeys(int(c) for c in only))
        absent = [c for c in wanted if c not in files]
        if absent:
            raise CheckError("no script for " + ", ".join(f"c{c}.lua" for c in absent) + f" in {scripts}")
        codes = sorted(wanted)
    if limit is not None:
        codes = codes[:max(0, limit)]
    spec = LoaderSpec(scripts=scripts, db=db, isolation=isolation,
                      runtime_constants=runtime_constants, factory=loader_factory, coverage=coverage)
    report = CheckReport(scripts=str(scripts), db=str(db), results=[], jobs=jobs, strict=strict)

    def emit(result: CardResult) -> None:
        if progress is not None:
            progress(result)

    if backend is None:
        backend = Backend.local(jobs)
    if coverage and backend.kind == "ray":
        raise CheckError("--coverage runs on this machine only (not with --ray)")
    report.jobs = backend.jobs
    work = CheckWork(spec, files, timeout)
    start = time.perf_counter()
    if backend.kind == "local" and loader_factory is None and codes:
        _preload_for_fork(spec, files)
    try:
        got, info = execute(work, codes, backend, timeout=timeout,
                            on_result=lambda _i, r: emit(r))
    except ExecutionError as exc:
        raise CheckError(str(exc)) from None
    finally:
        _SCRIPT_FILES.pop(spec.scripts, None)
        _DATABASES.pop(spec.db, None)
    report.results = results = [r for r in got if r is not None]
    for ready in info.ready:
        report.constants_check = ready.get("constants_check", report.constants_check)
        for note in ready.get("notes", ()):
            if note not in report.notes:
                report.notes.append(note)
    report.notes.extend(info.notes())
    report.execution = info
    if backend.kind == "ray":
        report.jobs = info.slots
    report.workers = [{"worker": w.get("worker"), "cards": w.get("items", 0),
                       "maxrss_kb": w.get("maxrss_kb", 0), "ended": w.get("ended"),
                       **({"hosts_built": w["hosts_built"]} if w.get("hosts_built") is not None else {})}
                      for w in info.workers] if backend.kind != "inline" else []
    report.seconds = time.perf_counter() - start
    report.parent_maxrss_kb = _maxrss_kb()
    results.sort(key=lambda r: r.code)
    if coverage:
        report.coverage = _coverage_report(results, scripts)
    return report


def _coverage_report(results: Sequence[CardResult], scripts: Path) -> Any:
    """Merge the per-card line counts the loaders put in ``extra`` (and take them out of
    it: the JSON report stays the size it was)."""
    from . import paths
    from .coverage import build_report

    hits: dict[str, dict[int, int]] = {}
    lines: dict[str, set[int]] = {}
    for r in results:
        for chunk, got in (r.extra.pop("lua_lines", None) or {}).items():
            mine = hits.setdefault(chunk, {})
            for line, n in got.items():
                mine[int(line)] = mine.get(int(line), 0) + int(n)
        for chunk, exe in (r.extra.pop("lua_exec", None) or {}).items():
            lines.setdefault(chunk, set()).update(exe)
    dirs = [scripts]
    try:
        dirs.append(paths.bundled_scripts())
    except FileNotFoundError:
        pass
    return build_report(hits, lines=lines, search_dirs=dirs, chunks=set(lines))


# =====================================================================================
# One worker's loader
# =====================================================================================


def is_load_script(rec: Any) -> bool:
    """Whether the engine runs a script for a card of this record (the reference's
    is_load_script): every card but a Normal Monster that is not a Pendulum."""
    from duelhost.engine.constants import TYPE_NORMAL, TYPE_PENDULUM
    return not (rec.type & TYPE_NORMAL) or bool(rec.type & TYPE_PENDULUM)


class CardLoader:
    """Creates cards one at a time in fresh duels, sharing one script host (one per worker).

    :meth:`run` never raises: whatever goes wrong becomes the card's result.
    """

    def __init__(self, spec: LoaderSpec) -> None:
        from duelhost.engine.carddb import CardDatabase
        from duelhost.engine.duel import card_reader_from_db

        self.spec = spec
        self.db = _DATABASES.get(spec.db) or CardDatabase.open(spec.db)
        self.reader = card_reader_from_db(self.db)
        self.files = _SCRIPT_FILES.get(spec.scripts) or script_files(spec.scripts)
        self.library = library_globals(spec.scripts, self._fallback_library_files())
        self.notes: list[str] = []
        self.constants_check = "static"
        self._reported_chunks: set[str] = set()
        self.runtime = _RuntimeAdapter(spec, self.reader)
        if spec.runtime_constants and self.runtime.can_hook_globals:
            self.constants_check = "runtime"
        elif spec.runtime_constants:
            self.notes.append("the script host offers no global-read hook: undefined constants "
                              "come from the static scan")
        if self.runtime.missing_libraries:
            self.notes.append(f"{', '.join(self.runtime.missing_libraries)} not in {spec.scripts}: "
                              "scripts that use them fail")

    def _fallback_library_files(self) -> list[Path]:
        """Library files the script host falls back to when the folder lacks them (the bundled ones)."""
        from . import paths
        out = []
        try:
            bundled = paths.bundled_scripts()
        except FileNotFoundError:
            return out
        for name in LIBRARY_FILES:
            if not (self.spec.scripts / name).is_file() and (bundled / name).is_file():
                out.append(bundled / name)
        return out

    # ----- what a script needs ------------------------------------------------------

    def needs_script(self, code: int) -> bool:
        """Whether creating a card of ``code`` runs a script (of its own or, for an
        alternate artwork, of its original) that the folder does not have."""
        rec = self.db.find(code)
        if rec is not None and not is_load_script(rec):
            return False
        target = rec.original_code if rec is not None else code
        return target not in self.files

    # ----- one card --------------------------------------------------------------------

    def run(self, code: int) -> CardResult:
        start = time.perf_counter()
        path = self.files[code]
        result = CardResult(code=code, file=path.name, status=PASSED)
        try:
            self._run(code, path, result)
        except Exception as exc:     # a bug of the check itself: still a result
            result.status = FAILED
            result.failures.append(ScriptFailure(
                message=f"{type(exc).__name__}: {exc}", callback="check", file=path.name,
                traceback=traceback.format_exc(), kind="engine"))
        if self.runtime.coverage is not None:
            self._take_coverage(result)
        result.seconds = time.perf_counter() - start
        return result

    def _take_coverage(self, result: CardResult) -> None:
        """The lines counted since the last card, and the executable lines of every chunk
        this loader has not reported yet (computed here, in the worker)."""
        from .coverage import executable_lines

        cov = self.runtime.coverage
        hits = cov.take_hits()
        new = {}
        for chunk, source in cov.new_sources():
            if chunk not in self._reported_chunks and chunk.startswith("@"):
                self._reported_chunks.add(chunk)
                new[chunk] = sorted(executable_lines(source, chunk))
        cov.forget_sources()
        hits = {c: h for c, h in hits.items() if c in self._reported_chunks}
        if hits:
            result.extra["lua_lines"] = hits
        if new:
            result.extra["lua_exec"] = new

    def _run(self, code: int, path: Path, result: CardResult) -> None:
        src = read_lua(path)
        info = scan_script(src, code, self.library)
        result.findings.extend(missing_references(
            info, available=lambda c: c in self.files, needs_script=self.needs_script,
            has_row=lambda c: c in self.db))
        rec = self.db.find(code)
        if rec is not None:
            result.name = rec.name
        not_run_findings = list(info.undefined_constants)
        if not info.defines_initial_effect:
            not_run_findings.append(Finding(kind="no_initial_effect", name=f"c{code}.initial_effect",
                                            detail="static"))
        if rec is None:
            result.status = NO_DB_ROW
            result.reason = f"no database row for card code {code} in {self.db.source}"
            result.findings.extend(not_run_findings)
            return
        if not is_load_script(rec):
            result.status = NOT_RUN
            result.reason = "a Normal Monster: the engine runs no script for it"
            result.findings.extend(not_run_findings)
            return
        if rec.original_code != code:
            result.status = NOT_RUN
            result.reason = (f"an alternate artwork of {rec.original_code}: the engine runs "
                             f"c{rec.original_code}.lua for it")
            return
        outcome = self.runtime.create_card(code)
        lines = src.splitlines()
        for f in outcome.failures:
            if f.needs is None and f.kind == "lua":
                line = None
                if f.line is not None and f.file is not None and Path(f.file).name == path.name:
                    if 0 < f.line <= len(lines):
                        line = lines[f.line - 1]
                f.needs = needed_function(f, line)
        result.failures.extend(outcome.failures)
        if outcome.failures:
            result.status = FAILED
        elif not outcome.has_initial_effect:
            result.status = NO_INITIAL_EFFECT
            result.failures.append(ScriptFailure(
                message=f'"CallCardFunction"(c{code}.initial_effect): attempt to call an error function '
                        f"(the script defines no initial_effect)",
                callback="initial_effect", file=path.name, kind="no_initial_effect"))
        if self.constants_check == "runtime":
            result.findings.extend(outcome.undefined_constants)
        else:
            result.findings.extend(info.undefined_constants)
        result.findings.extend(outcome.global_writes)


@dataclass(kw_only=True)
class _CardOutcome:
    failures: list[ScriptFailure]
    has_initial_effect: bool
    undefined_constants: list[Finding] = field(default_factory=list)
    global_writes: list[Finding] = field(default_factory=list)


# What the worker runs in the sandbox after the shared libraries loaded: a
# snapshot of the global table and of the library tables, and a function that
# puts them back, returning the names a card's script changed (space-separated;
# "=" marks a changed value, "+" a new name).  c<ID> class tables and the
# loader's self_table/self_code are the host's, not the script's.
_RESET_LUA = """
local G = _G
local next, rawget, rawset, type, tostring = next, rawget, rawset, type, tostring
local concat, find = table.concat, string.find
local LIBS = {"Auxiliary", "Card", "Duel", "Effect", "Group", "Debug", "bit",
              "string", "table", "math", "utf8"}
local function copy(t)
  local c = {}
  for k, v in next, t do c[k] = v end
  return c
end
local snap = copy(G)
local libs = {}
for i = 1, #LIBS do
  local t = rawget(G, LIBS[i])
  if type(t) == "table" then libs[LIBS[i]] = {t, copy(t)} end
end
local function put_back(t, s, prefix, out)
  for k in next, t do
    if s[k] == nil then
      rawset(t, k, nil)
      if type(k) ~= "string" or not (prefix == "" and (find(k, "^c%d+$") or k == "self_table"
                                                       or k == "self_code")) then
        out[#out + 1] = "+" .. prefix .. tostring(k)
      end
    end
  end
  for k, v in next, s do
    if rawget(t, k) ~= v then
      rawset(t, k, v)
      out[#out + 1] = "=" .. prefix .. tostring(k)
    end
  end
end
return function()
  local out = {}
  put_back(G, snap, "", out)
  for name, pair in next, libs do
    put_back(pair[1], pair[2], name .. ".", out)
  end
  return concat(out, " ")
end
"""

_RECYCLE_EVERY = 1000   # cards per host at most (bounds memory and whatever the engine accumulates)


class _RuntimeAdapter:
    """The bindings' LuaScriptHost as the check uses it.

    ``reset`` isolation: one host and one engine duel serve many cards; after
    each card the Lua globals and library tables are put back as they were
    after constant/utility/procedure.lua (what a script added or replaced is
    reported), and the host and duel are replaced after a card that failed,
    after a card whose initial_effect registered field effects in the duel, and
    every ``_RECYCLE_EVERY`` cards.  ``fresh`` isolation: a new host and duel
    per card (about 7 ms each: for measurement and doubt).
    """

    def __init__(self, spec: LoaderSpec, reader: Callable[[int], Any]) -> None:
        import logging

        from duelhost.bindings.host import HostOptions, LuaScriptHost

        self.spec = spec
        self.reader = reader
        self._host_cls = LuaScriptHost
        self.can_hook_globals = hasattr(LuaScriptHost, "take_undefined_globals")
        self._options = HostOptions(record_undefined_globals=self.can_hook_globals)
        self._log = logging.getLogger("duelhost.scripts")
        self.host: Any = None
        self.duel: Any = None
        self._reset: Any = None
        self._cards = 0
        self.hosts_built = 0
        self.coverage: Any = None
        if spec.coverage:
            from .coverage import LuaCoverage
            self.coverage = LuaCoverage().start()
        self._new_host()
        self.missing_libraries = [Path(n).name for n in self.host.scripts_missing]

    def _new_host(self) -> None:
        from duelhost.engine.duel import Duel as EngineDuel

        if self.host is not None:
            if self.coverage is not None and self.host.sandbox is not None:
                self.coverage.detach(self.host.sandbox)
            self.host.close()
        host = self._host_cls(self.spec.scripts, self._options)
        level = self._log.level
        self._log.setLevel(logging_critical())
        try:
            self.duel = EngineDuel(self.reader, seed_sequence=[0] * 8, script=host)
        finally:
            self._log.setLevel(level)
        self.host = host
        self._reset = host.sandbox.lua.execute(_RESET_LUA) if self.spec.isolation == "reset" else None
        self._cards = 0
        self.hosts_built += 1

    def create_card(self, code: int) -> "_CardOutcome":
        if self.spec.isolation == "fresh" or self._cards >= _RECYCLE_EVERY:
            self._new_host()
        host, duel = self.host, self.duel
        n_errors = len(host.errors)
        n_field = len(duel.effects.indexer)
        level = self._log.level
        self._log.setLevel(logging_critical())
        crashed = None
        try:
            card = duel.new_card(code)
        except Exception as exc:       # the engine raised past the host
            crashed = ScriptFailure(message=f"{type(exc).__name__}: {exc}", callback="engine",
                                    traceback=traceback.format_exc(), kind="engine")
            card = None
        finally:
            self._log.setLevel(level)
        self._cards += 1
        failures = [_failure_from_error(e) for e in host.errors[n_errors:]]
        if crashed is not None:
            failures.append(crashed)
        has_initial = True
        if failures and all(f.kind == "no_initial_effect" for f in failures):
            has_initial = False
            failures = []
        elif any(f.kind != "no_initial_effect" for f in failures):
            # a script that failed to load also has no initial_effect: the load error is the cause
            failures = [f for f in failures if f.kind != "no_initial_effect"] or failures
        changed: list[Finding] = []
        if self._reset is not None:
            if self.coverage is not None:     # the reset walks every global: not worth counting
                host.sandbox.set_line_coverage(False)
            try:
                names = self._reset()
            except Exception as exc:   # the reset itself failed: start over
                names = ""
                self._reset = None
                failures.append(ScriptFailure(message=f"the check could not restore the Lua globals: {exc}",
                                              callback="check", kind="engine"))
            if self.coverage is not None and self._reset is not None:
                host.sandbox.set_line_coverage(True)
            for token in (names or "").split():
                changed.append(Finding(kind="global_write", name=token[1:],
                                       detail="replaced" if token[0] == "=" else "added"))
        undefined: list[Finding] = []
        if self.can_hook_globals:
            for name, source, line in host.take_undefined_globals():
                undefined.append(Finding(kind="undefined_constant", name=name, line=line, detail="runtime"))
        dirty = (failures or crashed is not None or self._reset is None
                 or len(duel.effects.indexer) != n_field)
        if dirty and self.spec.isolation == "reset":
            self._cards = _RECYCLE_EVERY      # a new host before the next card
        del card
        return _CardOutcome(failures=failures, has_initial_effect=has_initial,
                            undefined_constants=undefined, global_writes=changed)


def logging_critical() -> int:
    import logging
    return logging.CRITICAL


def _failure_from_error(err: Any) -> ScriptFailure:
    """A ScriptFailure from the bindings' ScriptError record."""
    callback = err.callback or "?"
    if callback == "script":
        callback = "load"
    kind = {"error": "lua", "load": "lua", "internal": "engine"}.get(err.kind, err.kind)
    message = err.message
    if err.kind == "call" and "initial_effect" in message and "attempt to call an error function" in message:
        kind = "no_initial_effect"
    tb = err.traceback or ""
    first, _, rest = tb.partition("\n")
    if first.strip() == message.strip():     # Lua's traceback repeats the message first
        tb = rest
    if err.python_traceback:
        tb = (tb + "\n" if tb else "") + "Python traceback (bindings):\n" + err.python_traceback.rstrip()
    needs = None
    m = re.search(r"internal error in ([A-Za-z_][\w.]*)", message)
    if m:
        needs = f"{m.group(1)} (internal error)"
    return ScriptFailure(message=message, callback=callback, file=err.script, line=err.line,
                         traceback=tb, kind=kind, needs=needs)
