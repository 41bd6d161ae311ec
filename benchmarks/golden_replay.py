"""Engine speed on a fixed workload: replaying recorded reference duels.

The golden recordings (tests/data/golden/vanilla.jsonl.gz, and
/work/shared/golden/real.jsonl.gz with --scripts) fix every input, so the work
is the same from run to run.  Prints responses per second and messages per
second for our engine and, when a reference core library is available
(--reference or OCGCORE_LIB), for the reference on the same inputs and the ratio.

    .venv/bin/python benchmarks/golden_replay.py                     # set A, our engine
    .venv/bin/python benchmarks/golden_replay.py --golden real.jsonl.gz --scripts DIR
    OCGCORE_LIB=/path/libocgcore.so .venv/bin/python benchmarks/golden_replay.py --json
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_GOLDEN = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"


def run_ours(records, scripts: Path | None) -> dict:
    from duelhost.conformance import replay_record
    from duelhost.golden import record_card_reader
    responses = messages = 0
    identical = 0
    t0 = time.perf_counter()
    for rec in records:
        host = None
        if rec.scripts is not None:
            from duelhost.bindings.host import LuaScriptHost
            host = LuaScriptHost(scripts)
        result = replay_record(rec, record_card_reader(rec), host)
        identical += result.identical
        responses += rec.result.responses
        messages += rec.result.messages
    elapsed = time.perf_counter() - t0
    return {"seconds": elapsed, "responses": responses, "messages": messages,
            "responses_per_second": responses / elapsed, "messages_per_second": messages / elapsed,
            "identical": identical, "duels": len(records)}


def run_reference(records, lib: str, scripts: Path | None) -> dict:
    from duelhost.golden import record_card_reader  # noqa: F401  (same inputs)
    from duelhost.reference import ReferenceCore
    core = ReferenceCore.load(lib)
    responses = messages = 0
    t0 = time.perf_counter()
    for rec in records:
        core.use(scripts=scripts) if scripts is not None else None
        duel = core.create_duel(list(rec.seed_sequence))
        for p, info in enumerate(rec.players):
            duel.set_player_info(p, info.lp, info.start_hand, info.draw)
        for c in rec.cards:
            duel.new_card(c.code, c.owner, c.player, c.location, c.sequence, c.position)
        duel.start(rec.options)
        for step in rec.steps:
            duel.advance()
            if step.response is not None:
                duel.set_responseb(step.response_area)
        responses += rec.result.responses
        messages += rec.result.messages
    elapsed = time.perf_counter() - t0
    return {"seconds": elapsed, "responses_per_second": responses / elapsed,
            "messages_per_second": messages / elapsed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--golden", type=Path, default=DEFAULT_GOLDEN)
    ap.add_argument("--scripts", type=Path, default=os.environ.get("YGOPRO_SCRIPTS"))
    ap.add_argument("--reference", default=os.environ.get("OCGCORE_LIB"))
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    from duelhost.golden import load_records
    records = list(load_records(args.golden))[: args.limit]
    if any(r.scripts for r in records) and args.scripts is None:
        print("these duels need card scripts: pass --scripts or set YGOPRO_SCRIPTS", file=sys.stderr)
        return 2
    out = {"golden": str(args.golden), "cpus": os.cpu_count(), "ours": run_ours(records, args.scripts)}
    if args.reference:
        out["reference"] = run_reference(records, args.reference, args.scripts)
        out["ratio_reference_over_ours"] = (out["reference"]["responses_per_second"]
                                           / out["ours"]["responses_per_second"])
    if args.json:
        print(json.dumps(out, indent=2))
    else:
        o = out["ours"]
        print(f"duelhost: {o['duels']} duels ({o['identical']} identical), {o['seconds']:.2f} s, "
              f"{o['responses_per_second']:.0f} responses/s, {o['messages_per_second']:.0f} messages/s")
        if "reference" in out:
            r = out["reference"]
            print(f"reference: {r['seconds']:.2f} s, {r['responses_per_second']:.0f} responses/s; "
                  f"the reference is {out['ratio_reference_over_ours']:.1f}x faster")
    return 0


if __name__ == "__main__":
    sys.exit(main())
