"""``CheckReport``: the numbers of a check and its text, JSON and JUnit forms."""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any
from xml.etree import ElementTree as ET

from .results import (
    CardResult, FAILED, NOT_RUN, NO_DB_ROW, NO_INITIAL_EFFECT, PASSED, STATUSES,
    ScriptFailure, failure_pattern,
)
from .scan import Finding
from ..execution import RunInfo


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
            lines += _ranked(writes, causes, "names")
        groups = self.causes()
        if groups:
            lines.append(f"== failure causes ({len(groups)} patterns) ==")
            lines += _ranked(groups, causes, "patterns")
        needed = self.needed_functions()
        if needed:
            lines.append("== most needed library functions (cards failing on each) ==")
            lines += _ranked(needed, causes, None)
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


def _ranked(rows: Any, limit: int, more: str | None) -> list[str]:
    """The first ``limit`` (what, count, card codes) rows of a ranking, a line saying how
    many more there are (named ``more``; None: not said) and a blank line."""
    lines = [f"{n:6d}  {what}   e.g. {_examples(codes)}" for what, n, codes in rows[:limit]]
    if more is not None and len(rows) > limit:
        lines.append(f"        ... {len(rows) - limit} more {more}")
    lines.append("")
    return lines


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
