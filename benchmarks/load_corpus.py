"""Time loading the whole script corpus, as ``duelhost check`` does.

    python benchmarks/load_corpus.py [--scripts DIR] [--db FILE] [--jobs N ...]
                                     [--limit N] [--isolation reset|fresh] [--json]

Defaults: ``--scripts $YGOPRO_SCRIPTS``, ``--db $DUELHOST_CORPUS_DB`` or
../shared/cards/corpus.cdb next to the checkout, ``--jobs`` the CPU count.  Every measurement
runs in a fresh Python process (so one run's memory does not count in the
next):

* single process: cards created one after another in one process (the
  in-process path of ``duelhost check --jobs 0``); the script host's start-up
  (database read, Lua runtime, constant/utility/procedure.lua) is timed apart;
* ``--jobs N``: N worker processes (``duelhost check --jobs N``), wall time
  including the workers' start-up.

Printed: scripts, cards created (scripts with a database row that the engine
runs), seconds, cards per second, median / 95th percentile per card, clean
loads, and peak resident memory (``resource.getrusage`` ru_maxrss) of the
parent and of each worker.  ``--json`` prints the same as one JSON object.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_DB = Path(__file__).resolve().parent.parent.parent / "shared" / "cards" / "corpus.cdb"


def _measure(mode: str, scripts: Path, db: Path, jobs: int, limit: int | None, isolation: str) -> dict[str, Any]:
    """One measurement, in this process (called in a child process by main)."""
    from duelhost import check as chk

    t0 = time.perf_counter()
    startup = None
    if mode == "single":
        spec = chk.LoaderSpec(scripts=scripts, db=db, isolation=isolation)
        loader = spec.build()
        startup = time.perf_counter() - t0
        files = list(chk.script_files(scripts))
        if limit is not None:
            files = files[:limit]
        results = []
        t1 = time.perf_counter()
        for code in files:
            results.append(loader.run(code))
        seconds = time.perf_counter() - t1
        report = chk.CheckReport(scripts=str(scripts), db=str(db), results=results, seconds=seconds)
        report.parent_maxrss_kb = chk._maxrss_kb()
    else:
        report = chk.check_scripts(scripts, db, jobs=jobs, limit=limit, isolation=isolation)
        seconds = report.seconds
    run = [r for r in report.results if r.status not in (chk.NO_DB_ROW, chk.NOT_RUN)]
    per_card = sorted(r.seconds for r in run)
    out: dict[str, Any] = {
        "mode": mode,
        "jobs": jobs if mode != "single" else 0,
        "isolation": isolation,
        "scripts": report.total,
        "cards_created": len(run),
        "passed": report.count(chk.PASSED),
        "failed": report.count(chk.FAILED) + report.count(chk.NO_INITIAL_EFFECT),
        "no_db_row": report.count(chk.NO_DB_ROW),
        "seconds": round(seconds, 3),
        "cards_per_second": round(len(run) / seconds, 1) if seconds else None,
        "per_card_ms_median": round(1000 * statistics.median(per_card), 3) if per_card else None,
        "per_card_ms_p95": round(1000 * per_card[int(0.95 * (len(per_card) - 1))], 3) if per_card else None,
        "parent_maxrss_mib": round(report.parent_maxrss_kb / 1024, 1),
    }
    if startup is not None:
        out["startup_seconds"] = round(startup, 3)
    if report.workers:
        rss = [w.get("maxrss_kb", 0) / 1024 for w in report.workers]
        out["worker_maxrss_mib"] = [round(x, 1) for x in rss]
        out["worker_maxrss_mib_max"] = round(max(rss), 1)
    return out


def _run_child(mode: str, args: argparse.Namespace, jobs: int) -> dict[str, Any]:
    cmd = [sys.executable, os.path.abspath(__file__), "--_measure", mode, "--scripts", str(args.scripts),
           "--db", str(args.db), "--isolation", args.isolation, "--jobs", str(jobs)]
    if args.limit is not None:
        cmd += ["--limit", str(args.limit)]
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.stderr.write(proc.stderr)
        raise SystemExit(f"measurement {mode} failed (exit code {proc.returncode})")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _print(m: dict[str, Any]) -> None:
    name = "single process" if m["mode"] == "single" else f"--jobs {m['jobs']}"
    print(f"{name} ({m['isolation']} isolation):")
    print(f"  scripts             {m['scripts']}")
    print(f"  cards created       {m['cards_created']}  (passed {m['passed']}, failed {m['failed']}, "
          f"no database row {m['no_db_row']})")
    if "startup_seconds" in m:
        print(f"  host start-up       {m['startup_seconds']:.3f} s")
    print(f"  time                {m['seconds']:.3f} s")
    print(f"  cards per second    {m['cards_per_second']}")
    print(f"  per card            median {m['per_card_ms_median']} ms, p95 {m['per_card_ms_p95']} ms")
    print(f"  peak memory         parent {m['parent_maxrss_mib']} MiB"
          + (f", workers max {m['worker_maxrss_mib_max']} MiB ({', '.join(map(str, m['worker_maxrss_mib']))})"
             if "worker_maxrss_mib" in m else ""))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--scripts", type=Path, default=os.environ.get("YGOPRO_SCRIPTS"),
                        help="script folder (default: $YGOPRO_SCRIPTS)")
    parser.add_argument("--db", type=Path,
                        default=Path(os.environ.get("DUELHOST_CORPUS_DB") or DEFAULT_DB),
                        help=f"card database (default: $DUELHOST_CORPUS_DB or {DEFAULT_DB})")
    parser.add_argument("--jobs", type=int, nargs="*", default=None,
                        help="worker counts to measure (default: the CPU count); 0 skips the multi-process run")
    parser.add_argument("--limit", type=int, default=None, help="only the first N scripts by code")
    parser.add_argument("--isolation", choices=("reset", "fresh"), default="reset",
                        help="between cards: restore the Lua globals (reset) or build a new script host (fresh)")
    parser.add_argument("--no-single", action="store_true", help="skip the single-process run")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--_measure", choices=("single", "jobs"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.scripts is None:
        parser.error("no script folder: pass --scripts or set YGOPRO_SCRIPTS")
    if not args.scripts.is_dir():
        parser.error(f"{args.scripts} is not a directory")
    if not args.db.is_file():
        parser.error(f"card database {args.db} not found")
    if args._measure:
        jobs = (args.jobs or [0])[0]
        print(json.dumps(_measure(args._measure, args.scripts, args.db, jobs, args.limit, args.isolation)))
        return
    job_counts = args.jobs if args.jobs is not None else [os.cpu_count() or 1]
    runs = []
    if not args.no_single:
        runs.append(_run_child("single", args, 0))
        if not args.json:
            _print(runs[-1])
    for jobs in job_counts:
        if jobs > 0:
            runs.append(_run_child("jobs", args, jobs))
            if not args.json:
                _print(runs[-1])
    if args.json:
        print(json.dumps({"scripts": str(args.scripts), "db": str(args.db), "cpus": os.cpu_count(),
                          "runs": runs}, indent=1))


if __name__ == "__main__":
    main()
