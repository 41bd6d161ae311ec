"""Random masked agents through duelhost.env: N duels, then the steps per second.

    YGOPRO_SCRIPTS=/path/to/ygopro-scripts .venv/bin/python examples/random_agents.py
    .venv/bin/python examples/random_agents.py --duels 20 --bundled     # our own cards only

With YGOPRO_SCRIPTS set it plays the real decks of ../shared/decks (``--decks`` for
another folder) with the real scripts and the corpus database
($DUELHOST_CORPUS_DB, else ../shared/cards/corpus.cdb); without it, it says so
and plays the bundled rules decks.  Each agent samples uniformly among the legal
actions (``obs["action_mask"]``).  Needs the extra: pip install 'duelhost[env]'.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duels", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--max-turns", type=int, default=None, help="truncate a duel past this turn")
    ap.add_argument("--decks", help="folder of .ydk decks (default: ../shared/decks with YGOPRO_SCRIPTS)")
    ap.add_argument("--bundled", action="store_true", help="play the bundled rules decks even with YGOPRO_SCRIPTS")
    args = ap.parse_args(argv)
    try:
        from duelhost import env as duel_env
    except ImportError as exc:
        print(exc, file=sys.stderr)
        return 2
    scripts = None if args.bundled else os.environ.get("YGOPRO_SCRIPTS")
    if scripts:
        db = os.environ.get("DUELHOST_CORPUS_DB") or str(REPO.parent / "shared" / "cards" / "corpus.cdb")
        folder = Path(args.decks) if args.decks else REPO.parent / "shared" / "decks"
        if not folder.is_dir() or not Path(db).is_file():
            print(f"random_agents: need the deck folder {folder} and the card database {db}", file=sys.stderr)
            return 2
        e = duel_env.env(decks=[folder], db=db, scripts=scripts, max_turns=args.max_turns)
        what = f"real decks of {folder.name}/ ({len(e.unwrapped.decks)} playable), real scripts"
    else:
        if not args.bundled:
            print("YGOPRO_SCRIPTS is not set: playing the bundled rules decks instead of real decks")
        e = duel_env.env(max_turns=args.max_turns)
        what = "bundled rules decks"
    rng = random.Random(args.seed)
    steps = 0
    results: Counter[str] = Counter()
    turns = []
    start = time.perf_counter()
    for i in range(args.duels):
        e.reset(seed=args.seed * 100_000 + i)
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                action = None
            else:
                legal = obs["action_mask"].nonzero()[0]
                action = int(legal[rng.randrange(len(legal))])
                steps += 1
            e.step(action)
        duel = e.unwrapped.duel
        win = duel.win()
        results["draw" if win is not None and win.player == 2 else
                f"player {win.player} won" if win is not None else "truncated"] += 1
        turns.append(duel.turn)
    seconds = time.perf_counter() - start
    e.close()
    print(f"{args.duels} duels ({what}): {steps} steps in {seconds:.1f} s = {steps / seconds:.0f} steps/s")
    print("results: " + ", ".join(f"{k} {v}" for k, v in sorted(results.items()))
          + f"; turns per duel: mean {sum(turns) / len(turns):.1f}, max {max(turns)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
