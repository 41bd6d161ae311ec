"""``duelhost diff``: our engine against the reference, duel by duel.

``run_golden_diff`` replays the recorded duels of a golden file (see
duelhost.golden and duelhost.conformance) and summarises: identical duels out
of the total, and for each other duel where it first differs.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .conformance import ReplayResult, replay_record
from .golden import load_records, record_card_reader


@dataclass
class DiffSummary:
    source: str
    results: list[ReplayResult] = field(default_factory=list)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def identical(self) -> int:
        return sum(1 for r in self.results if r.identical)

    def causes(self) -> collections.Counter:
        """Divergences grouped by the kind of the reference's message at the first difference."""
        c: collections.Counter = collections.Counter()
        for r in self.results:
            if r.identical:
                continue
            if r.error is not None:
                last = r.error.strip().splitlines()[-1]
                c[f"engine error: {last}"] += 1
            elif r.divergence is not None:
                exp = r.divergence.expected
                act = r.divergence.actual
                c[f"{exp.NAME if exp else '(end)'} vs {act.NAME if act else '(end)'}"] += 1
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "identical": self.identical,
            "total": self.total,
            "causes": dict(self.causes().most_common()),
            "duels": [
                {
                    "id": r.id,
                    "status": r.status,
                    "steps_compared": r.steps,
                    "steps_total": r.total_steps,
                    "divergence": None if r.divergence is None else {
                        "step": r.divergence.step,
                        "message_index": r.divergence.index,
                        "turn": r.divergence.turn,
                        "reference": r.divergence.expected.describe() if r.divergence.expected else None,
                        "duelhost": r.divergence.actual.describe() if r.divergence.actual else None,
                        "before": [m.describe() for m in r.divergence.context],
                    },
                    "error": r.error,
                }
                for r in self.results
            ],
        }

    def to_text(self) -> str:
        lines = []
        for r in self.results:
            if r.identical:
                lines.append(f"{r.id}: identical ({r.total_steps} steps)")
            elif r.error is not None:
                lines.append(f"{r.id}: ENGINE ERROR at step {r.steps}\n{r.error}")
            else:
                lines.append(f"{r.id}: differs at {r.divergence.describe()}")
        lines.append("")
        lines.append(f"{self.identical} / {self.total} duels identical ({self.source})")
        for cause, n in self.causes().most_common(10):
            lines.append(f"  {n:4d}  {cause}")
        return "\n".join(lines)


def run_golden_diff(path: Path, *, scripts: Path | None = None, limit: int | None = None,
                    only: set[str] | None = None, progress: bool = False) -> DiffSummary:
    summary = DiffSummary(source=str(path))
    for i, record in enumerate(load_records(path)):
        if limit is not None and i >= limit:
            break
        if only is not None and record.id not in only:
            continue
        script = None
        if record.scripts is not None:
            if scripts is None:
                raise SystemExit(f"{record.id} needs card scripts: pass --scripts DIR")
            from duelhost.bindings.host import LuaScriptHost
            script = LuaScriptHost(scripts)
        result = replay_record(record, record_card_reader(record), script)
        summary.results.append(result)
        if progress:
            import sys
            print(f"{record.id}: {result.status}", file=sys.stderr)
    return summary
