"""One worker's loader: creates each card in a fresh duel, as the engine does, and reports how it went."""

from __future__ import annotations

import os
import re
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from .results import (
    CardResult, FAILED, NOT_RUN, NO_DB_ROW, NO_INITIAL_EFFECT, PASSED, ScriptFailure,
    needed_function,
)
from .scan import (
    Finding, LIBRARY_FILES, SCRIPT_RE, library_globals, missing_references, scan_script,
)
from .tokens import read_lua


# =====================================================================================
# One worker's loader
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
    # the bundled folder (no procedure.lua on purpose, nothing to note): decided where the
    # check is planned, since a worker may be given a copy of the folder (Ray)
    bundled: bool | None = None

    def build(self) -> Any:
        if self.factory is not None:
            return self.factory(self)
        return CardLoader(self)


def script_files(folder: Path) -> dict[int, Path]:
    """The card scripts of a folder: code -> path of ``c<code>.lua``."""
    out = {}
    with os.scandir(folder) as entries:      # (the entry's type needs no stat per file)
        for entry in entries:
            m = SCRIPT_RE.fullmatch(entry.name)
            if m and entry.is_file():
                out[int(m.group(1))] = folder / entry.name
    return dict(sorted(out.items()))


# read by the parent before it forks workers, inherited by them (see _run_in_workers)
_SCRIPT_FILES: dict[Path, dict[int, Path]] = {}


_DATABASES: dict[Path, Any] = {}


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
        from ..paths import is_bundled_scripts
        bundled = spec.bundled if spec.bundled is not None else is_bundled_scripts(spec.scripts)
        if self.runtime.missing_libraries and not bundled:
            # the bundled folder has no procedure.lua on purpose (none of our cards calls it)
            self.notes.append(f"{', '.join(self.runtime.missing_libraries)} not in {spec.scripts}: "
                              "scripts that use them fail")

    def _fallback_library_files(self) -> list[Path]:
        """Library files the script host falls back to when the folder lacks them (the bundled ones)."""
        from .. import paths
        out: list[Path] = []
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
        from ..coverage import executable_lines

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
-- a table's entries and their number
local function copy(t)
  local c, n = {}, 0
  for k, v in next, t do c[k] = v; n = n + 1 end
  return c, n
end
local snap, nsnap = copy(G)
local libs = {}
for i = 1, #LIBS do
  local t = rawget(G, LIBS[i])
  if type(t) == "table" then
    local c, n = copy(t)
    libs[LIBS[i]] = {t, c, n}
  end
end
-- Put table t back to its snapshot s (n entries), listing what differed in out.
-- One walk over t finds the added and the replaced entries; s is walked only
-- when fewer than n of its keys were seen (some were removed).  (As before,
-- `~=` may call an __eq both values share.)
local function put_back(t, s, n, prefix, out)
  local seen = 0
  for k, v in next, t do
    local sv = s[k]
    if sv == nil then
      rawset(t, k, nil)
      if type(k) ~= "string" or not (prefix == "" and (find(k, "^c%d+$") or k == "self_table"
                                                       or k == "self_code")) then
        out[#out + 1] = "+" .. prefix .. tostring(k)
      end
    else
      seen = seen + 1
      if v ~= sv then
        rawset(t, k, sv)
        out[#out + 1] = "=" .. prefix .. tostring(k)
      end
    end
  end
  if seen ~= n then
    for k, v in next, s do
      if rawget(t, k) == nil then
        rawset(t, k, v)
        out[#out + 1] = "=" .. prefix .. tostring(k)
      end
    end
  end
end
return function()
  local out = {}
  put_back(G, snap, nsnap, "", out)
  for name, entry in next, libs do
    put_back(entry[1], entry[2], entry[3], name .. ".", out)
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
        self.host: Any = cast(Any, None)      # set by _new_host
        self.duel: Any = None
        self._reset: Any = None
        self._cards = 0
        self.hosts_built = 0
        self.coverage: Any = None
        if spec.coverage:
            from ..coverage import LuaCoverage
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
        self._reset = (host.sandbox.lua.execute(_RESET_LUA)  # type: ignore[union-attr]
                       if self.spec.isolation == "reset" else None)
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
            # sorted by name: the reset walks Lua tables with pairs(), whose order over string
            # keys changes from process to process, and the report must not
            for token in sorted((names or "").split(), key=lambda t: (t[1:], t[0])):
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
