"""How much the Lua line hook of duelhost.coverage slows duels down.

Plays the same seeded random duels (real scripts, random .ydk decks) with
coverage off and on, alternating, and prints the best time of each and the
ratio.  Needs a script folder and a card database:

    python benchmarks/lua_coverage.py --scripts /path/to/ygopro-scripts \
        --db cards.cdb --decks /path/to/decks --duels 6 --rounds 3

Without --scripts it uses the bundled scripts, cards.db and demo decks.
"""

from __future__ import annotations

import argparse
import glob
import random
import time
from pathlib import Path

from duelhost import Duel, RandomPlayer
from duelhost.coverage import LuaCoverage
from duelhost.engine.ydk import read_ydk
from duelhost.play import DEMO_DECKS, bundled_deck


def play(args: argparse.Namespace, decks: list[str]) -> float:
    start = time.perf_counter()
    for seed in range(args.duels):
        rng = random.Random(seed)
        a, b = read_ydk(rng.choice(decks)), read_ydk(rng.choice(decks))
        d = Duel(seed=seed, scripts=args.scripts, db=args.db)
        d.add_deck(0, a.main, a.extra, shuffle=True)
        d.add_deck(1, b.main, b.extra, shuffle=True)
        d.start()
        d.run([RandomPlayer(seed), RandomPlayer(seed + 1)], max_responses=args.responses)
    return time.perf_counter() - start


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scripts", default=None)
    ap.add_argument("--db", default=None)
    ap.add_argument("--decks", default=None, help="folder of .ydk files")
    ap.add_argument("--duels", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--responses", type=int, default=1500)
    args = ap.parse_args()
    if args.decks:
        decks = sorted(glob.glob(str(Path(args.decks) / "*.ydk")))
    else:
        decks = [str(bundled_deck(n)) for n in DEMO_DECKS]
    off, on = [], []
    lines = 0
    for _ in range(args.rounds):
        off.append(play(args, decks))
        cov = LuaCoverage().start()
        on.append(play(args, decks))
        cov.stop()
        lines = sum(sum(h.values()) for h in cov.hits.values())
    print(f"{args.duels} duels, {args.rounds} rounds, best of each")
    print(f"coverage off: {min(off):.2f} s")
    print(f"coverage on:  {min(on):.2f} s  ({lines} line events counted in the last round)")
    print(f"slowdown:     {min(on) / min(off):.2f}x")


if __name__ == "__main__":
    main()
