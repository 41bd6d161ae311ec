"""Running the cards: ``check_scripts`` hands them to the execution layer (duelhost.execution)."""

from __future__ import annotations

import dataclasses
import importlib
import os
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

from .loader import CheckError, LoaderSpec, _DATABASES, _SCRIPT_FILES, script_files
from .report import CheckReport
from .results import CardResult, FAILED, ScriptFailure
from ..execution import Backend, ExecutionError, Work, execute
from ..execution.local import maxrss_kb
from ..execution.lost import Lost


# =====================================================================================
# Running the cards: worker processes
# =====================================================================================


def _maxrss_kb() -> int:
    """This process's peak resident memory in KiB (ru_maxrss is bytes on macOS)."""
    return maxrss_kb()


class CheckWork(Work):
    """The check as a duelhost.execution Work: a worker builds one loader, an item is a
    card code, a card whose worker died or ran out of time fails as "crash"/"timeout"."""

    def __init__(self, spec: LoaderSpec, files: dict[int, Path], timeout: float | None) -> None:
        self.spec = spec
        self.files = files
        self.timeout = timeout

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
        return {"constants_check": getattr(loader, "constants_check", "static"),
                "notes": list(getattr(loader, "notes", ()))}

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
        return CheckWork(spec, self.files, self.timeout)

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
    from ..paths import is_bundled_scripts
    spec = LoaderSpec(scripts=scripts, db=db, isolation=isolation,
                      runtime_constants=runtime_constants, factory=loader_factory, coverage=coverage,
                      bundled=is_bundled_scripts(scripts))
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
    from .. import paths
    from ..coverage import build_report

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
