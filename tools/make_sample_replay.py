"""Write samples/demo.yrp: a duel of the bundled rules decks (cards/rules_a.ydk, rules_b.ydk) between random players,
played by our own engine and saved with ``Duel.save_replay``.

    python tools/make_sample_replay.py [--seed 23] [--out samples/demo.yrp]

The seed is chosen so that the duel ends by a win within 40 turns; the file is
committed, so this script only needs to run again when the demo decks change.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from duelhost import Duel, RandomPlayer
from duelhost.engine.ydk import read_ydk

REPO = Path(__file__).resolve().parent.parent


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--out", type=Path, default=REPO / "samples" / "demo.yrp")
    args = ap.parse_args()
    a, b = read_ydk(REPO / "cards" / "rules_a.ydk"), read_ydk(REPO / "cards" / "rules_b.ydk")
    duel = Duel(seed=args.seed)
    duel.add_deck(0, a.main, a.extra, shuffle=True)
    duel.add_deck(1, b.main, b.extra, shuffle=True)
    duel.start()
    outcome = duel.run([RandomPlayer(args.seed), RandomPlayer(args.seed + 1)], max_turns=40)
    path = duel.save_replay(args.out, players=("Rules A", "Rules B"))
    print(f"{path}: {outcome}, turn {duel.turn}")


if __name__ == "__main__":
    main()
