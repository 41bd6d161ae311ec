"""Fuzz the answers a duel takes: random bytes, ints and malformed typed answers.

The rule under test (docs/security.md, "Answers"): ``Duel.respond`` either
accepts an answer or raises ``InvalidResponse`` with the reason, and a refused
answer leaves the duel exactly as it was (same board, same messages, same
pending request).  Any other exception, or a change after a refusal, is an error.

Between the garbage, a random legal answer (RandomPlayer) moves the duel on, so
the fuzz meets every kind of prompt; a legal answer that is refused is an error
too.  A duel that ends (or reaches the turn cap) is replaced by the next one.

    python tools/fuzz_responses.py --steps 100000 --decks DIR --db FILE --scripts DIR
    python tools/fuzz_responses.py --steps 2000          # bundled decks, cards.db and scripts

``--decks``/``--db``/``--scripts`` default to $DUELHOST_DECKS, $DUELHOST_CORPUS_DB
and $YGOPRO_SCRIPTS, else the bundled decks of cards/ with cards.db and scripts/.
Prints steps, refusals, accepted answers, errors and steps/s; exit code 1 on an error.
tests/test_fuzz_responses.py runs the same driver over the bundled decks in CI.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duelhost import Duel, RandomPlayer, paths
from duelhost.engine import responses as R
from duelhost.engine.responses import InvalidResponse, NoValidResponse
from duelhost.engine.ydk import read_ydk

REPO = Path(__file__).resolve().parent.parent
BUNDLED_DECKS = (("demo_a.ydk", "demo_b.ydk"), ("rules_a.ydk", "rules_b.ydk"))
LEGAL_SHARE = 0.2          # share of steps answered with a random legal answer
TURN_CAP = 30              # a duel longer than this is replaced by the next one


@dataclass
class FuzzStats:
    """What a fuzz run saw.  ``errors``: one line each (kept up to ``max_errors``)."""

    steps: int = 0
    refused: int = 0
    accepted: int = 0          # garbage the duel took (the reference would take it too)
    legal: int = 0             # random legal answers sent to move on
    duels: int = 0
    error_count: int = 0
    errors: list[str] = field(default_factory=list)
    seconds: float = 0.0
    max_errors: int = 50

    def error(self, text: str) -> None:
        self.error_count += 1
        if len(self.errors) < self.max_errors:
            self.errors.append(text)

    def summary(self) -> str:
        rate = self.steps / self.seconds if self.seconds else 0.0
        return (f"steps {self.steps}, refusals {self.refused}, accepted {self.accepted}, "
                f"legal {self.legal}, errors {self.error_count}, duels {self.duels}, "
                f"{self.seconds:.1f} s, {rate:.0f} steps/s")


# ---------------------------------------------------------------------------------------------
# garbage
# ---------------------------------------------------------------------------------------------
_INT_EDGES = (0, 1, -1, 2, 7, 0xFFFF, 0x10000, 0x7FFFFFFF, -(1 << 31), (1 << 31), (1 << 32) - 1,
              1 << 32, (1 << 32) + 7, -(1 << 31) - 1, 1 << 64, -(1 << 64))


def _random_int(rng: random.Random) -> int:
    pick = rng.random()
    if pick < 0.3:
        return rng.choice(_INT_EDGES)
    if pick < 0.6:
        return rng.randint(-3, 40)
    if pick < 0.8:
        return rng.randint(-(1 << 31), (1 << 32) - 1)
    return rng.randint(-(1 << 80), 1 << 80)


def _random_bytes(rng: random.Random) -> bytes:
    pick = rng.random()
    n = 0 if pick < 0.05 else rng.randint(257, 300) if pick < 0.1 else rng.randint(1, 16)
    return rng.randbytes(n)


def _random_typed(rng: random.Random) -> Any:
    """A typed answer of a random kind with random (often impossible) fields."""
    i = lambda: _random_int(rng)   # noqa: E731
    small = lambda: tuple(rng.randint(-2, 300) for _ in range(rng.randint(0, 5)))   # noqa: E731
    makers: list[Callable[[], Any]] = [
        lambda: R.IdleCmdResponse(command=i(), index=i()),
        lambda: R.BattleCmdResponse(command=i(), index=i()),
        lambda: R.ChainResponse(index=rng.choice((None, i()))),
        lambda: R.YesNoResponse(yes=rng.random() < 0.5),
        lambda: R.OptionResponse(index=i()),
        lambda: R.CardsResponse(indices=rng.choice((None, small()))),
        lambda: R.UnselectCardResponse(index=rng.choice((None, i()))),
        lambda: R.PlaceResponse(zones=rng.choice((
            (rng.randint(0, 99),),
            tuple(R.Zone(player=rng.randint(-1, 2), location=rng.choice((0, 4, 8, 0x10, 300)),
                         sequence=rng.randint(-1, 8)) for _ in range(rng.randint(0, 3)))))),
        lambda: R.PositionResponse(position=i()),
        lambda: R.CounterResponse(counts=tuple(rng.randint(-1, 70000) for _ in range(rng.randint(0, 4)))),
        lambda: R.SumResponse(indices=small()),
        lambda: R.SortResponse(order=rng.choice((None, small()))),
        lambda: R.AnnounceRaceResponse(races=i()),
        lambda: R.AnnounceAttribResponse(attributes=i()),
        lambda: R.AnnounceCardResponse(code=i()),
        lambda: R.AnnounceNumberResponse(index=i()),
        lambda: R.RpsResponse(choice=i()),
        lambda: rng.choice((None, "0", 1.5, [0], object())),
    ]
    return rng.choice(makers)()


def random_garbage(rng: random.Random) -> Any:
    """An answer made at random: bytes, an int, or a typed answer with random fields."""
    pick = rng.random()
    if pick < 0.4:
        return _random_bytes(rng)
    if pick < 0.75:
        return _random_int(rng)
    return _random_typed(rng)


# ---------------------------------------------------------------------------------------------
# the driver
# ---------------------------------------------------------------------------------------------
def _fingerprint(duel: Duel) -> tuple:
    """What a refused answer must leave as it was."""
    return (len(duel.messages), duel.responses, duel.state())


def fuzz_duel(duel: Duel, rng: random.Random, steps: int, stats: FuzzStats, *,
              legal_share: float = LEGAL_SHARE, turn_cap: int = TURN_CAP) -> None:
    """Send up to ``steps`` answers to one started duel (fewer when it ends), counting them
    in ``stats``: garbage must be accepted or refused with InvalidResponse and the duel
    unchanged; a random legal answer must be accepted."""
    player = RandomPlayer(rng.randrange(1 << 30))
    stats.duels += 1
    before = None
    for _ in range(steps):
        request = duel.advance()
        if request is None or duel.engine.infos.turn_id > turn_cap:
            return
        stats.steps += 1
        if rng.random() < legal_share:
            try:
                answer = player(duel, request)
            except NoValidResponse:
                return                       # a prompt with no legal answer: next duel
            try:
                duel.respond(answer)
                stats.legal += 1
            except Exception as exc:        # noqa: BLE001 - every failure is counted
                stats.error(f"{request.NAME}: legal answer {answer!r} failed: {type(exc).__name__}: {exc}")
                return
            before = None
            continue
        answer = random_garbage(rng)
        if before is None:
            before = _fingerprint(duel)
        try:
            duel.respond(answer)
        except InvalidResponse as exc:
            stats.refused += 1
            if not exc.reason:
                stats.error(f"{request.NAME}: {answer!r} refused without a reason")
            if duel.advance() is not request or _fingerprint(duel) != before:
                stats.error(f"{request.NAME}: the duel changed after refusing {answer!r}")
                return
        except Exception as exc:            # noqa: BLE001 - the finding
            stats.error(f"{request.NAME}: {answer!r} raised {type(exc).__name__}: {exc}")
            return
        else:
            stats.accepted += 1
            before = None


def deck_pairs(folder: Path | None, db: Any, rng: random.Random) -> Iterator[tuple[Any, Any]]:
    """Endless random pairs of decks (main, extra) from ``folder`` (every *.ydk whose cards
    are all in ``db``), or the bundled pairs of cards/ when ``folder`` is None."""
    if folder is None:
        pairs = [(read_ydk(REPO / "cards" / a), read_ydk(REPO / "cards" / b)) for a, b in BUNDLED_DECKS]
        while True:
            yield rng.choice(pairs)
    decks = []
    for f in sorted(folder.glob("*.ydk")):
        try:
            d = read_ydk(f)
        except (OSError, ValueError):
            continue
        if d.main and all(c in db for c in (*d.main, *d.extra)):
            decks.append(d)
    if len(decks) < 2:
        raise SystemExit(f"{folder}: fewer than two decks whose cards are all in the database")
    while True:
        yield rng.choice(decks), rng.choice(decks)


def run_fuzz(steps: int, *, seed: int = 0, decks: Path | None = None, db: Any = None,
             scripts: Path | None = None, per_duel: int = 400,
             progress: Callable[[FuzzStats], None] | None = None) -> FuzzStats:
    """Fuzz ``steps`` answers over duels of random deck pairs (seeded), at most ``per_duel``
    answers a duel.  ``db``: a path or CardDatabase (default: the bundled cards.db)."""
    from duelhost.engine.carddb import CardDatabase
    database = db if isinstance(db, CardDatabase) else CardDatabase.open(db or paths.bundled_db())
    rng = random.Random(seed)
    stats = FuzzStats()
    pairs = deck_pairs(decks, database, rng)
    start = time.perf_counter()
    while stats.steps < steps:
        a, b = next(pairs)
        duel = Duel(db=database, scripts=scripts, seed=rng.randrange(1 << 31))
        duel.add_deck(0, a.main, a.extra, shuffle=True)
        duel.add_deck(1, b.main, b.extra, shuffle=True)
        try:
            duel.start()
        except Exception as exc:            # noqa: BLE001
            stats.error(f"duel start failed: {type(exc).__name__}: {exc}")
            continue
        fuzz_duel(duel, rng, min(per_duel, steps - stats.steps), stats)
        stats.seconds = time.perf_counter() - start
        if progress is not None:
            progress(stats)
    stats.seconds = time.perf_counter() - start
    return stats


def _opt_path(text: str | None) -> Path | None:
    """A path option: an empty text means "not given" (the bundled files)."""
    return Path(text) if text else None


def _env_path(name: str) -> Path | None:
    return _opt_path(os.environ.get(name))


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--steps", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--decks", type=_opt_path, default=_env_path("DUELHOST_DECKS"),
                    help="folder of .ydk decks (default: $DUELHOST_DECKS, else the bundled decks)")
    ap.add_argument("--db", type=_opt_path, default=_env_path("DUELHOST_CORPUS_DB"),
                    help="card database (default: $DUELHOST_CORPUS_DB, else cards.db)")
    ap.add_argument("--scripts", type=_opt_path, default=_env_path("YGOPRO_SCRIPTS"),
                    help="script folder (default: $YGOPRO_SCRIPTS, else scripts/)")
    ap.add_argument("--per-duel", type=int, default=400, help="answers sent to one duel at most")
    ap.add_argument("--quiet", action="store_true", help="no progress lines on standard error")
    args = ap.parse_args(argv)

    last = [0.0]

    def show(s: FuzzStats) -> None:
        if not args.quiet and s.seconds - last[0] >= 10:
            last[0] = s.seconds
            print(s.summary(), file=sys.stderr, flush=True)

    stats = run_fuzz(args.steps, seed=args.seed, decks=args.decks, db=args.db, scripts=args.scripts,
                     per_duel=args.per_duel, progress=show)
    print(stats.summary())
    for line in stats.errors:
        print("error:", line)
    return 1 if stats.error_count else 0


if __name__ == "__main__":
    sys.exit(main())
