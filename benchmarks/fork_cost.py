"""What Duel.fork() costs at turn 1, 10 and 30 of a real-deck duel (docs/fork.md).

Plays seeded random legal answers through a duel of two .ydk decks with the real
scripts, and at the first prompt of each chosen turn forks the duel ``--repeat``
times.  Prints, per turn: the answers so far, one response's mean time over the
duel up to the last turn measured (the time of ``Duel.respond``), the median fork time in ms, the
fork as a multiple of one response, and the same for snapshot() + pickle round
trip + Duel.from_snapshot (what a worker process pays).

    YGOPRO_SCRIPTS=/path/to/ygopro-scripts .venv/bin/python benchmarks/fork_cost.py
    .venv/bin/python benchmarks/fork_cost.py --turns 1 10 30 --repeat 5 --json

Without YGOPRO_SCRIPTS it measures the bundled cards (cards/rules_a.ydk against
rules_b.ydk) and says so.  Duels that end before the last turn are skipped (the
next seed is tried).
"""

from __future__ import annotations

import argparse
import json
import os
import pickle
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from duelhost.engine.messages import MsgAnnounceCard  # noqa: E402
from duelhost.engine.responses import random_response  # noqa: E402
from duelhost.host import Duel  # noqa: E402


def _bad_input(text: str) -> None:
    print(f"fork_cost: {text}", file=sys.stderr)
    raise SystemExit(2)


def _decks(args: argparse.Namespace) -> tuple[str, Any, Any, list[Any]]:
    """(what is measured, db, scripts, deck files)."""
    from duelhost.deckpool import read_deck_folder
    from duelhost.engine.carddb import CardDatabase
    from duelhost.fork import open_db
    scripts = args.scripts or os.environ.get("YGOPRO_SCRIPTS")
    if scripts:
        db_path = args.db or os.environ.get("DUELHOST_CORPUS_DB") or str(REPO.parent / "shared" / "cards" / "corpus.cdb")
        if not Path(db_path).is_file():
            _bad_input(f"card database {db_path} not found (set DUELHOST_CORPUS_DB or --db)")
        db = open_db(db_path)
        folder = Path(args.decks or REPO.parent / "shared" / "decks")
        decks = [d for d in read_deck_folder(folder, db) if d.problem is None]
        if len(decks) < 2:
            _bad_input(f"fewer than two playable decks in {folder}")
        return f"real decks of {folder.name}/ with the scripts of {Path(scripts).name}/", db, scripts, decks
    from duelhost.deckpool import read_deck_file
    db = CardDatabase.open(REPO / "cards.db")
    print("YGOPRO_SCRIPTS is not set: measuring the bundled cards (rules_a.ydk against rules_b.ydk)")
    decks = [read_deck_file(REPO / "cards" / n, db) for n in ("rules_a.ydk", "rules_b.ydk")]
    return "bundled rules decks", db, None, decks


def measure(args: argparse.Namespace) -> dict[str, Any]:
    what, db, scripts, decks = _decks(args)
    turns = sorted(args.turns)
    pool = list(db)
    for attempt in range(args.tries):
        seed = args.seed + attempt
        rng = random.Random(seed)
        a, b = rng.sample(range(len(decks)), 2)
        t0 = time.perf_counter()
        duel = Duel(db=db, scripts=scripts if scripts else None, seed=seed)
        duel.add_deck(0, decks[a].main, decks[a].extra, shuffle=True)
        duel.add_deck(1, decks[b].main, decks[b].extra, shuffle=True)
        duel.start()
        req = duel.advance()
        setup_s = time.perf_counter() - t0
        respond_s = 0.0
        rows = []
        pending = list(turns)
        while req is not None and pending:
            if duel.turn >= pending[0]:
                pending.pop(0)
                fork_ms = []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    f = duel.fork()
                    fork_ms.append((time.perf_counter() - t) * 1000)
                    f.close()
                worker_ms = []
                for _ in range(args.repeat):
                    t = time.perf_counter()
                    g = Duel.from_snapshot(pickle.loads(pickle.dumps(duel.snapshot())))
                    worker_ms.append((time.perf_counter() - t) * 1000)
                    g.close()
                fork = statistics.median(fork_ms)
                rows.append({"turn": duel.turn, "responses": duel.responses,
                             "fork_ms": round(fork, 1),
                             "snapshot_pickle_restore_ms": round(statistics.median(worker_ms), 1),
                             "snapshot_bytes": len(pickle.dumps(duel.snapshot()))})
                continue
            ans = random_response(req, rng, card_pool=pool if isinstance(req, MsgAnnounceCard) else None)
            t = time.perf_counter()
            req = duel.respond(ans)
            respond_s += time.perf_counter() - t
        if not pending:
            mean_ms = respond_s * 1000 / max(1, duel.responses)
            for r in rows:
                r["fork_in_responses"] = round(r["fork_ms"] / mean_ms, 1)
            return {"what": what, "seed": seed, "decks": [decks[a].name, decks[b].name],
                    "setup_ms": round(setup_s * 1000, 1), "responses": duel.responses,
                    "mean_response_ms": round(mean_ms, 3), "rows": rows}
        duel.close()
    print(f"fork_cost: no duel of {args.tries} reached turn {turns[-1]}", file=sys.stderr)
    raise SystemExit(1)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turns", type=int, nargs="+", default=[1, 10, 30])
    ap.add_argument("--repeat", type=int, default=5, help="forks per turn (the median is printed)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--tries", type=int, default=20, help="seeds to try for a duel long enough")
    ap.add_argument("--scripts", help="script folder (default: $YGOPRO_SCRIPTS)")
    ap.add_argument("--db", help="card database (default: $DUELHOST_CORPUS_DB, else ../shared/cards/corpus.cdb)")
    ap.add_argument("--decks", help="folder of .ydk decks (default: ../shared/decks)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    out = measure(args)
    if args.json:
        print(json.dumps(out, indent=1))
        return 0
    print(f"{out['what']}: seed {out['seed']}, {out['decks'][0]} against {out['decks'][1]}")
    print(f"new duel, decks, start to the first prompt: {out['setup_ms']} ms; one response: {out['mean_response_ms']} ms "
          f"(mean over the {out['responses']} answers to the last turn measured)")
    print(f"{'turn':>4} {'answers':>7} {'fork ms':>8} {'x response':>10} "
          f"{'pickle+restore ms':>17} {'snapshot B':>10}")
    for r in out["rows"]:
        print(f"{r['turn']:>4} {r['responses']:>7} {r['fork_ms']:>8} "
              f"{r['fork_in_responses']:>10} {r['snapshot_pickle_restore_ms']:>17} {r['snapshot_bytes']:>10}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
