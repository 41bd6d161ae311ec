"""The static scans of ``duelhost check``: what a script assigns and references, without running it."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .tokens import Token, lua_tokens, read_lua


SCRIPT_RE = re.compile(r"c(\d+)\.lua")
LIBRARY_FILES = ("constant.lua", "utility.lua", "procedure.lua")
ALL_CAPS_RE = re.compile(r"[A-Z][A-Z0-9_]*\Z")


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
