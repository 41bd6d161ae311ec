"""Lua line coverage of card scripts.

Which lines of which script files ran, collected by the host: the sandbox's
privileged glue puts a line hook beside its time-budget hook on every Lua
thread (the main state and each coroutine that runs script callbacks), so
scripts never get the debug library.  It is off unless something switches it
on; ``pytest --lua-cov`` and ``duelhost check --coverage`` do.

    cov = LuaCoverage()
    cov.start()                  # every Lua runtime created from now on counts lines
    ...                          # run duels, tests, checks
    cov.stop()
    report = cov.report()
    print(report.to_text())
    report.write("json:lua-coverage.json")        # or lcov:PATH, xml:PATH (Cobertura)

What counts as a line: the lines Lua itself can stop at (the "active lines"
of every function in the chunk, read from the compiled chunk), so blank
lines, comments, ``else`` and the inside of long strings never count as
missed.  A line is *hit* when a line event fired on it at least once.

Only chunks that were run from files (card scripts, constant/utility/
procedure.lua, puzzle files) are reported; the source text that ran is kept,
so the report does not depend on the files still being there.

The hook costs time while it is on (measured: see docs/coverage.md).
"""

from __future__ import annotations

import json
import os
import struct
import sys
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from duelhost.bindings.files import OutsideFolderError, confined_path

from . import paths

__all__ = [
    "CoverageReport",
    "FileCoverage",
    "LuaCoverage",
    "active_lines",
    "executable_lines",
]


# =========================================================================================
# which lines can run: the active lines of a compiled chunk
# =========================================================================================

class _Reader:
    """Reads the binary chunk ``string.dump`` writes (Lua 5.4 format)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        b = self.data[self.pos]
        self.pos += 1
        return b

    def take(self, n: int) -> bytes:
        out = self.data[self.pos:self.pos + n]
        if len(out) != n:
            raise ValueError("truncated chunk")
        self.pos += n
        return out

    def size(self) -> int:
        """A size: 7-bit groups, most significant first, the last byte marked by 0x80."""
        x = 0
        while True:
            b = self.byte()
            x = (x << 7) | (b & 0x7F)
            if b & 0x80:
                return x

    def string(self) -> bytes | None:
        n = self.size()
        if n == 0:
            return None
        return self.take(n - 1)


_ABSLINEINFO = -0x80
_VNUMINT, _VNUMFLT, _VSHRSTR, _VLNGSTR = 3, 19, 4, 20


def _function_lines(r: _Reader, out: set[int], int_size: int, num_size: int) -> None:
    r.string()                                  # source
    linedefined = r.size()
    r.size()                                    # lastlinedefined
    r.byte()                                    # numparams
    is_vararg = r.byte()
    r.byte()                                    # maxstacksize
    ncode = r.size()
    r.take(4 * ncode)
    for _ in range(r.size()):                   # constants
        tag = r.byte()
        if tag == _VNUMINT:
            r.take(int_size)
        elif tag == _VNUMFLT:
            r.take(num_size)
        elif tag in (_VSHRSTR, _VLNGSTR):
            r.string()
    for _ in range(r.size()):                   # upvalues: instack, idx, kind
        r.take(3)
    for _ in range(r.size()):                   # nested functions
        _function_lines(r, out, int_size, num_size)
    nline = r.size()
    lineinfo = struct.unpack(f"{nline}b", r.take(nline))
    absinfo = {}
    for _ in range(r.size()):
        pc = r.size()
        absinfo[pc] = r.size()
    for _ in range(r.size()):                   # local variables
        r.string()
        r.size()
        r.size()
    for _ in range(r.size()):                   # upvalue names
        r.string()
    # Lua's collectvalidlines: a vararg function's first instruction (VARARGPREP) is skipped
    line = linedefined
    for pc, delta in enumerate(lineinfo):
        line = absinfo[pc] if delta == _ABSLINEINFO else line + delta
        if pc == 0 and is_vararg:
            continue
        out.add(line)


def active_lines(dump: bytes) -> set[int]:
    """The lines of every function of a Lua 5.4 binary chunk (``string.dump`` output with
    debug information) that Lua can stop at."""
    r = _Reader(dump)
    if r.take(4) != b"\x1bLua" or r.byte() != 0x54:
        raise ValueError("not a Lua 5.4 binary chunk")
    r.byte()                                    # format
    r.take(6)                                   # LUAC_DATA
    r.byte()                                    # sizeof(Instruction)
    int_size = r.byte()
    num_size = r.byte()
    r.take(int_size + num_size)                 # LUAC_INT, LUAC_NUM
    r.byte()                                    # number of upvalues of the main function
    out: set[int] = set()
    _function_lines(r, out, int_size, num_size)
    return out


def _runtime() -> Any:
    """duelhost.bindings.runtime, imported on first use: it loads lupa, and this module is
    loaded by the coverage pytest plugin (duelhost/coverage_plugin.py) at every pytest start,
    which must stay light when coverage is not asked for."""
    from duelhost.bindings import runtime
    return runtime


_COMPILER: Any = None


def _compiler() -> Any:
    """A plain Lua state used only to compile (never to run) script text."""
    global _COMPILER
    if _COMPILER is None:
        import lupa.lua54 as lupa   # lazy: see _runtime
        rt = lupa.LuaRuntime(encoding=None, register_eval=False, register_builtins=False)
        _COMPILER = rt.eval(
            "function(src, name) local f, e = load(src, name, 't')"
            " if f == nil then return nil, e end return string.dump(f), nil end")
    return _COMPILER


def executable_lines(source: bytes | str, chunkname: str = "=coverage") -> set[int]:
    """The lines of ``source`` Lua can stop at (empty when it does not compile)."""
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogateescape")
    dump, _err = _compiler()(source, chunkname.encode())
    if dump is None:
        return set()
    return active_lines(bytes(dump))


# =========================================================================================
# collecting
# =========================================================================================

def _host_script_dirs() -> list[Any] | None:
    """The script folders of the LuaScriptHost creating a sandbox right now: the host's
    ``attach`` is a few frames up the stack of the sandbox observer."""
    try:
        f: Any = sys._getframe(2)
    except ValueError:
        return None
    for _ in range(8):
        if f is None:
            return None
        dirs = getattr(f.f_locals.get("self"), "script_dirs", None)
        if isinstance(dirs, list):
            return dirs
        f = f.f_back
    return None


class LuaCoverage:
    """Counts the script lines that run in every Lua runtime it is attached to.

    ``start()`` attaches it to every LuaSandbox created afterwards (``attach`` does
    it for one that exists); the hits of a runtime are read when it is garbage,
    when it is detached, and at ``drain()`` / ``stop()``.  Hits are counts of line
    events per chunk name (``@./script/c123.lua``).
    """

    def __init__(self) -> None:
        self.hits: dict[str, dict[int, int]] = {}
        self._source_dicts: list[list[Any]] = []      # [the sandbox's covered_sources, items seen]
        self.search_dirs: list[Path] = []
        self._host_dirs: list[list[Any]] = []
        self._live: dict[int, weakref.finalize] = {}
        self.active = False

    # ----- switching on and off ---------------------------------------------------------

    def start(self) -> "LuaCoverage":
        _runtime().add_sandbox_observer(self._observe)
        self.active = True
        return self

    def stop(self) -> None:
        _runtime().remove_sandbox_observer(self._observe)
        self.active = False
        for key in list(self._live):
            fin = self._live.get(key)
            alive = fin.peek() if fin is not None else None
            if alive is not None:
                self.detach(alive[0])
        self.drain()

    def _observe(self, sandbox: Any) -> None:
        dirs = _host_script_dirs()
        if dirs is not None and not any(d is dirs for d in self._host_dirs):
            self._host_dirs.append(dirs)
        self.attach(sandbox)

    def attach(self, sandbox: Any) -> None:
        """Count the lines run in ``sandbox`` (a duelhost.bindings.runtime.LuaSandbox)."""
        if id(sandbox) in self._live and self._live[id(sandbox)].alive:
            return
        sandbox.set_line_coverage(True)
        reader = sandbox._coverage_take        # the glue's function itself: no reference to the sandbox
        sources = sandbox.covered_sources
        self._source_dicts.append([sources, 0])
        fin = weakref.finalize(sandbox, self._take_from, reader, sources)
        fin.atexit = False
        self._live[id(sandbox)] = fin

    def detach(self, sandbox: Any) -> None:
        """Read ``sandbox``'s counts now and stop counting there."""
        fin = self._live.pop(id(sandbox), None)
        try:
            sandbox.set_line_coverage(False)
        except Exception:      # a closed sandbox
            pass
        if fin is not None:
            fin()

    def drain(self) -> None:
        """Read the counts of every attached runtime that is still alive."""
        for key, fin in list(self._live.items()):
            alive = fin.peek()
            if alive is None:
                self._live.pop(key, None)
                continue
            _obj, _fn, (reader, sources), _kw = alive
            self._take_from(reader, sources)

    def _take_from(self, reader: Any, sources: dict[str, bytes] | None) -> None:
        try:
            text = reader()
        except Exception:
            return
        self.merge_hits(_runtime().parse_line_hits(text))

    @property
    def sources(self) -> dict[str, bytes]:
        """Chunk name -> the source text that ran (the last one run under that name)."""
        out: dict[str, bytes] = {}
        for d, _seen in self._source_dicts:
            out.update(d)
        return out

    def forget_sources(self) -> None:
        """Drop the source texts kept so far (``duelhost check`` reports each chunk's
        executable lines once and needs the text no longer); later chunks are kept."""
        for entry in self._source_dicts:
            entry[0].clear()
            entry[1] = 0

    def new_sources(self) -> list[tuple[str, bytes]]:
        """The chunks run since the last call (a chunk run again under the same name in the
        same runtime is not new)."""
        out = []
        for entry in self._source_dicts:
            d, seen = entry
            if len(d) > seen:
                out.extend(list(d.items())[seen:])
                entry[1] = len(d)
        return out

    def merge_hits(self, hits: dict[str, dict[int, int]]) -> None:
        for chunk, lines in hits.items():
            mine = self.hits.setdefault(chunk, {})
            for line, n in lines.items():
                mine[int(line)] = mine.get(int(line), 0) + int(n)

    def take_hits(self) -> dict[str, dict[int, int]]:
        """Everything counted so far (live runtimes drained first), then start from zero."""
        self.drain()
        out, self.hits = self.hits, {}
        return out

    # ----- the report ---------------------------------------------------------------------

    def report(self, *, search_dirs: Iterable[str | Path] = (), chunks: Iterable[str] | None = None,
               lines: dict[str, set[int]] | None = None) -> "CoverageReport":
        """The coverage of every file chunk that ran (or of ``chunks``).

        Executable lines come from ``lines`` (chunk -> lines) when given, else from
        the source text that ran, else from the file found in the script folders.
        """
        self.drain()
        dirs = [Path(d) for d in search_dirs] + list(self.search_dirs)
        for host_dirs in self._host_dirs:
            dirs.extend(Path(d) for d in list(host_dirs))
        dirs.extend(_default_dirs())
        return build_report(self.hits, sources=self.sources, search_dirs=dirs, chunks=chunks, lines=lines)


def _default_dirs() -> list[Path]:
    out = []
    env = os.environ.get("YGOPRO_SCRIPTS")
    if env:
        out.append(Path(env))
    try:
        out.append(paths.bundled_scripts())
    except FileNotFoundError:
        pass
    return out


# =========================================================================================
# the report
# =========================================================================================

SCRIPT_CHUNK_PREFIX = "@./script/"


def chunk_file_name(chunk: str) -> str:
    """``@./script/c123.lua`` -> ``c123.lua``; other file chunks lose their ``@``."""
    if chunk.startswith(SCRIPT_CHUNK_PREFIX):
        return chunk[len(SCRIPT_CHUNK_PREFIX):]
    return chunk[1:] if chunk.startswith("@") else chunk


def _find_file(name: str, dirs: Sequence[Path], source: bytes | None) -> Path | None:
    """The file of a chunk among the folders; with the source text known, the one whose
    bytes are the text that ran."""
    first = None
    seen: set[Path] = set()
    for d in dirs:
        try:
            p = confined_path(d, name)      # a chunk name is script data: never a file outside
        except OutsideFolderError:
            continue
        if p in seen:
            continue
        seen.add(p)
        if p.is_file():
            if source is None:
                return p.resolve()
            try:
                if p.read_bytes() == source:
                    return p.resolve()
            except OSError:
                continue
            if first is None:
                first = p.resolve()
    return first if source is None else None


@dataclass
class FileCoverage:
    """One script file: which of its executable lines ran, and how often."""

    chunk: str
    name: str
    path: Path | None
    executable: set[int]
    hits: dict[int, int]

    @property
    def covered(self) -> set[int]:
        return {ln for ln in self.executable if self.hits.get(ln)}

    @property
    def missed(self) -> set[int]:
        return self.executable - self.covered

    @property
    def percent(self) -> float:
        return 100.0 * len(self.covered) / len(self.executable) if self.executable else 100.0

    @property
    def display(self) -> str:
        return str(self.path) if self.path is not None else self.name


MISSING_WIDTH = 60   # characters of missed-line ranges per row of the text table


def _ranges(lines: Iterable[int]) -> str:
    """``1-3, 7, 9-10``."""
    out: list[str] = []
    run: list[int] = []
    for ln in sorted(lines):
        if run and ln == run[-1] + 1:
            run.append(ln)
            continue
        if run:
            out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
        run = [ln]
    if run:
        out.append(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]))
    return ", ".join(out)


@dataclass
class CoverageReport:
    """Line coverage per script file, with text, JSON, lcov and Cobertura forms."""

    files: list[FileCoverage] = field(default_factory=list)

    @property
    def executable(self) -> int:
        return sum(len(f.executable) for f in self.files)

    @property
    def covered(self) -> int:
        return sum(len(f.covered) for f in self.files)

    @property
    def percent(self) -> float:
        n = self.executable
        return 100.0 * self.covered / n if n else 100.0

    def file(self, name: str) -> FileCoverage | None:
        """The entry of a file by its name (``c123.lua``), path or chunk name."""
        for f in self.files:
            if name in (f.name, f.chunk, f.display) or (f.path is not None and f.path.name == name):
                return f
        return None

    # ----- text -------------------------------------------------------------------------

    def to_text(self, *, limit: int | None = 50, missing: bool = True) -> str:
        """A table: one row per file (the least covered first when there are more
        than ``limit``), then the total."""
        rows = sorted(self.files, key=lambda f: f.name)
        shown = rows
        note = ""
        if limit is not None and len(rows) > limit:
            shown = sorted(rows, key=lambda f: (f.percent, f.name))[:limit]
            note = f"({len(rows) - limit} more files not shown: the {limit} least covered are listed)"
        width = max([len(f.name) for f in shown] + [len("File"), len("TOTAL")])
        head = f"{'File':<{width}}  {'Lines':>6}  {'Hit':>6}  {'Miss':>6}  {'Cover':>6}"
        if missing:
            head += "  Missing"
        lines = ["Lua line coverage", head, "-" * len(head)]
        for f in shown:
            row = (f"{f.name:<{width}}  {len(f.executable):>6}  {len(f.covered):>6}  "
                   f"{len(f.missed):>6}  {f.percent:>5.1f}%")
            if missing and f.missed:
                ranges = _ranges(f.missed)
                if len(ranges) > MISSING_WIDTH:          # the JSON report has them all
                    ranges = ranges[:MISSING_WIDTH].rsplit(",", 1)[0] + ", ..."
                row += "  " + ranges
            lines.append(row)
        lines.append("-" * len(head))
        lines.append(f"{'TOTAL':<{width}}  {self.executable:>6}  {self.covered:>6}  "
                     f"{self.executable - self.covered:>6}  {self.percent:>5.1f}%  ({len(self.files)} files)")
        if note:
            lines.append(note)
        return "\n".join(lines)

    # ----- machines ---------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "duelhost-lua-coverage/1",
            "summary": {"files": len(self.files), "lines": self.executable, "covered": self.covered,
                        "percent": round(self.percent, 2)},
            "files": [{
                "name": f.name, "chunk": f.chunk, "path": str(f.path) if f.path else None,
                "lines": len(f.executable), "covered": len(f.covered), "percent": round(f.percent, 2),
                "executed_lines": sorted(f.covered), "missing_lines": sorted(f.missed),
                "hits": {str(ln): n for ln, n in sorted(f.hits.items())},
            } for f in sorted(self.files, key=lambda f: f.name)],
        }

    def to_lcov(self) -> str:
        """lcov's tracefile format (genhtml, Codecov, Coveralls read it)."""
        out = []
        for f in sorted(self.files, key=lambda f: f.name):
            out.append("TN:")
            out.append(f"SF:{f.display}")
            for ln in sorted(f.executable):
                out.append(f"DA:{ln},{f.hits.get(ln, 0)}")
            out.append(f"LH:{len(f.covered)}")
            out.append(f"LF:{len(f.executable)}")
            out.append("end_of_record")
        return "\n".join(out) + "\n"

    def to_cobertura(self) -> str:
        """Cobertura XML (GitLab, Jenkins, Azure read it): one package, a class per file."""
        rate = self.covered / self.executable if self.executable else 1.0
        out = ['<?xml version="1.0" ?>',
               f'<coverage version="duelhost" line-rate="{rate:.4f}" branch-rate="0" '
               f'lines-covered="{self.covered}" lines-valid="{self.executable}" branches-covered="0" '
               f'branches-valid="0" complexity="0" timestamp="0">',
               "  <sources>"]
        roots = sorted({str(f.path.parent) for f in self.files if f.path is not None})
        for r in roots:
            out.append(f"    <source>{_xml(r)}</source>")
        out.append("  </sources>")
        out.append(f'  <packages><package name="lua-scripts" line-rate="{rate:.4f}" branch-rate="0" '
                   f'complexity="0"><classes>')
        for f in sorted(self.files, key=lambda f: f.name):
            frate = len(f.covered) / len(f.executable) if f.executable else 1.0
            fname = f.path.name if f.path is not None else f.name
            out.append(f'    <class name={quoteattr(f.name)} filename={quoteattr(fname)} '
                       f'line-rate="{frate:.4f}" branch-rate="0" complexity="0"><methods/><lines>')
            for ln in sorted(f.executable):
                out.append(f'      <line number="{ln}" hits="{f.hits.get(ln, 0)}" branch="false"/>')
            out.append("    </lines></class>")
        out.append("  </classes></package></packages>")
        out.append("</coverage>")
        return "\n".join(out) + "\n"

    def write(self, spec: str) -> Path | None:
        """Write one report: ``json:PATH``, ``lcov:PATH``, ``xml:PATH`` (Cobertura); a bare
        kind uses lua-coverage.json / lua-coverage.lcov / lua-coverage.xml.  ``term`` and
        ``term-missing`` write nothing (they are the text table).  Returns the path written."""
        kind, _, target = spec.partition(":")
        kind = kind.strip().lower()
        defaults = {"json": "lua-coverage.json", "lcov": "lua-coverage.lcov", "xml": "lua-coverage.xml",
                    "cobertura": "lua-coverage.xml"}
        if kind in ("term", "term-missing"):
            return None
        if kind not in defaults:
            raise ValueError(f"unknown coverage report {spec!r} (term, json[:PATH], lcov[:PATH], xml[:PATH])")
        path = Path(target or defaults[kind])
        if kind == "json":
            text = json.dumps(self.to_json(), indent=1) + "\n"
        elif kind == "lcov":
            text = self.to_lcov()
        else:
            text = self.to_cobertura()
        if path.parent and not path.parent.exists():
            path.parent.mkdir(parents=True)
        path.write_text(text, encoding="utf-8")
        return path


def _xml(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build_report(hits: dict[str, dict[int, int]], *, sources: dict[str, bytes] | None = None,
                 search_dirs: Sequence[Path] = (), chunks: Iterable[str] | None = None,
                 lines: dict[str, set[int]] | None = None) -> CoverageReport:
    """A report from raw counts.  Only file chunks (``@...``) whose executable lines can
    be found (given, from the source that ran, or from a file in ``search_dirs``)."""
    sources = sources or {}
    lines = lines or {}
    names = set(chunks) if chunks is not None else set(hits) | set(sources) | set(lines)
    files = []
    for chunk in sorted(names):
        if not chunk.startswith("@"):
            continue
        name = chunk_file_name(chunk)
        source = sources.get(chunk)
        path = _find_file(name, search_dirs, source) if search_dirs else None
        if chunk in lines:
            exe = set(lines[chunk])
        elif source is not None:
            exe = executable_lines(source, chunk)
        elif path is not None:
            exe = executable_lines(path.read_bytes(), chunk)
        else:
            continue
        got = dict(hits.get(chunk, {}))
        exe |= {ln for ln, n in got.items() if n}      # never report a hit line as not executable
        files.append(FileCoverage(chunk=chunk, name=name, path=path, executable=exe, hits=got))
    return CoverageReport(files=files)
