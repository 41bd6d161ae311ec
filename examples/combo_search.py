"""A depth-limited search over player 0's answers with Duel.fork(): solve a puzzle.

    .venv/bin/python examples/combo_search.py                          # the bundled puzzle
    .venv/bin/python examples/combo_search.py PUZZLE.lua --depth 8 --scripts DIR --db FILE

From the puzzle's start, every prompt of player 0 with more than one candidate answer
is a branch point: each candidate is tried in a fork of the duel (the original stays
at the branch point), depth-first, up to ``--depth`` branch points deep.  Player 1's
prompts (what DUEL_SIMPLE_AI leaves to the players) get the first legal answer, and a
prompt with a single candidate is answered without counting as a branch.  The search
stops at the first line that wins for player 0 and prints it, with the number of
positions visited (answers tried at branch points) and the time taken.  Each candidate
but the last is tried in a fork; the last takes the duel itself, which is no longer
needed then.

Candidate answers: every answer of the prompts whose answers are few
(engine.responses.legal_responses), every allowed selection of up to ``--max-pick``
cards for card selections and tributes, and one zone (the first free one) for
zone prompts: zones rarely decide a puzzle, and each candidate multiplies the search.
Other prompts get one seeded random answer.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from duelhost.engine.messages import (MsgSelectCard, MsgSelectDisfield, MsgSelectPlace,  # noqa: E402
                                      MsgSelectTribute, Prompt)
from duelhost.engine.responses import (CardsResponse, InvalidResponse, Response, encode_response,  # noqa: E402
                                       legal_responses, parse_response, random_response)
from duelhost.host import Duel  # noqa: E402

BUNDLED_PUZZLE = REPO / "samples" / "two_blows.lua"


def candidates(prompt: Prompt, *, max_pick: int = 2) -> list[Response]:
    """The answers the search tries at ``prompt`` (see the module docstring)."""
    try:
        return legal_responses(prompt)
    except ValueError:
        pass
    if isinstance(prompt, (MsgSelectCard, MsgSelectTribute)):
        n = len(prompt.cards)
        out: list[Response] = []
        for k in range(max(prompt.min, 0 if isinstance(prompt, MsgSelectTribute) else 1),
                       min(prompt.max, n, max_pick) + 1):
            for pick in itertools.combinations(range(n), k):
                resp = CardsResponse(indices=pick)
                try:
                    parse_response(prompt, encode_response(prompt, resp))
                except InvalidResponse:
                    continue
                out.append(resp)
        if out:
            return out
    if isinstance(prompt, (MsgSelectPlace, MsgSelectDisfield)):
        return [random_response(prompt, random.Random(0))]
    return [random_response(prompt, random.Random(0))]


IDLE = ("Normal Summon", "Special Summon", "change the position of", "Set", "Set", "activate",
        "go to the Battle Phase", "end the turn", "shuffle the hand")
BATTLE = ("activate", "attack with", "go to Main Phase 2", "end the turn")


def describe(duel: Duel, req: Any, resp: Any) -> str:
    """One answer in words (with the card names the prompt lists)."""
    from duelhost.engine.responses import BattleCmdResponse, IdleCmdResponse
    if isinstance(resp, IdleCmdResponse):
        lists = list(req.card_lists) + [req.activatable]
        card = lists[resp.command][resp.index] if resp.command < len(lists) else None
        return IDLE[resp.command] + (f" {duel.card_name(card.code & 0x7FFFFFFF)}" if card is not None else "")
    if isinstance(resp, BattleCmdResponse):
        lists = [req.activatable, req.attackable]
        card = lists[resp.command][resp.index] if resp.command < 2 else None
        return BATTLE[resp.command] + (f" {duel.card_name(card.code & 0x7FFFFFFF)}" if card is not None else "")
    if isinstance(resp, CardsResponse) and resp.indices is not None:
        return f"{req.NAME}: " + ", ".join(duel.card_name(req.cards[i].code) for i in resp.indices)
    return f"{req.NAME}: {resp}"


@dataclass
class SearchResult:
    line: list[str] | None          # the winning answers of player 0 (described), None: not found
    positions: int                  # positions tried (answers given at branch points)
    seconds: float
    depth: int
    answers: tuple[bytes, ...] = ()  # every answer of the winning line (both players), as sent


def search(duel: Duel, depth: int, *, max_pick: int = 2) -> SearchResult:
    """Depth-first search from ``duel``'s pending prompt for a line that wins for player 0."""
    start = time.perf_counter()
    visited = 0
    winning: list[bytes] = []

    def forward(d: Duel) -> Prompt | None:
        """Answer what is not a branch point (player 1, single candidates); the next branch point."""
        req = d.advance()
        while req is not None:
            options = candidates(req, max_pick=max_pick)
            if req.player == 0 and len(options) > 1:
                return req
            d.respond(options[0])
            req = d.advance()
        return None

    def dfs(d: Duel, left: int, line: list[str]) -> list[str] | None:
        nonlocal visited
        req = forward(d)
        if req is None:
            win = d.win()
            if win is not None and win.player == 0:
                winning[:] = d.snapshot().answers
                return line
            return None
        if left == 0:
            return None
        options = candidates(req, max_pick=max_pick)
        for k, resp in enumerate(options):
            # the last candidate takes the duel itself: it is not needed afterwards (one fork saved)
            child = d if k == len(options) - 1 else d.fork()
            visited += 1
            words = describe(d, req, resp)
            child.respond(resp)
            found = dfs(child, left - 1, line + [words])
            if child is not d:
                child.close()
            if found is not None:
                return found
        return None

    line = dfs(duel.fork(), depth, [])
    return SearchResult(line=line, positions=visited, seconds=time.perf_counter() - start, depth=depth,
                        answers=tuple(winning))


def main(argv: list[str] | None = None) -> int:
    from duelhost.fork import load_puzzle
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("puzzle", nargs="?", default=str(BUNDLED_PUZZLE))
    ap.add_argument("--depth", type=int, default=8, help="branch points of player 0 (default 8)")
    ap.add_argument("--max-pick", type=int, default=2, help="cards per selection tried (default 2)")
    ap.add_argument("--scripts", help="script folder (default: the bundled scripts)")
    ap.add_argument("--db", help="card database (default: the bundled cards.db)")
    args = ap.parse_args(argv)
    if not Path(args.puzzle).is_file():
        print(f"combo_search: puzzle file {args.puzzle} does not exist", file=sys.stderr)
        return 2
    from duelhost.engine.carddb import CardDatabaseError
    from duelhost.puzzle import PuzzleError
    try:
        duel = load_puzzle(args.puzzle, scripts=args.scripts, db=args.db)
    except (PuzzleError, CardDatabaseError, OSError) as exc:
        print(f"combo_search: {exc}", file=sys.stderr)
        return 2
    result = search(duel, args.depth, max_pick=args.max_pick)
    name = Path(args.puzzle).name
    if result.line is None:
        print(f"{name}: no win within {args.depth} branch points; {result.positions} positions in "
              f"{result.seconds:.1f} s")
        return 1
    print(f"{name}: solved in {len(result.line)} choices; {result.positions} positions visited in "
          f"{result.seconds:.2f} s ({result.seconds * 1000 / max(1, result.positions):.0f} ms per position)")
    for step in result.line:
        print("  " + step)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
