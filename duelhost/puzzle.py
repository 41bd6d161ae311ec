"""Puzzles: a Lua file that builds a position with the Debug library, then you play it.

A puzzle (the reference client's "single mode") is an ordinary Lua chunk run
in the duel's script state.  It typically calls ``Debug.ReloadFieldBegin`` (the
duel options and rule), ``Debug.SetPlayerInfo`` (LP, no opening hand),
``Debug.AddCard`` for every card, ``Debug.PreSummon`` / ``PreEquip`` /
``PreSetTarget`` / ``PreAddCounter`` to fix their state, ``Debug.ReloadFieldEnd``,
``Debug.SetAIName`` and ``Debug.ShowHint`` for the player, and finally
``aux.BeginPuzzle()`` (utility.lua): the player loses at the end of the turn
and skips the Draw and Standby Phases.

We run it the way the reference client does:

1. create the duel and give both players 8000 LP, a 5-card opening hand and
   1 card a turn (``set_player_info``);
2. run the puzzle file in the duel's Lua state (``preload_script``): the
   script adds the cards, so nothing is added by the host;
3. start the duel with no options (``start_duel(pduel, 0)``): the rule and
   flags are whatever ``Debug.ReloadFieldBegin`` set; with ``DUEL_SIMPLE_AI``
   the core itself answers most of player 1's prompts.

The person (or a random or scripted player, for tests) plays player 0; the
prompts the core leaves to player 1 go to the same player, as in the client.
A puzzle is *solved* when player 0 wins.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from duelhost.engine.messages import MsgAiName, MsgShowHint

from .host import Duel, Outcome, Player
from .puzzle_file import DRAW_COUNT, START_HAND, START_LP, PuzzleError, run_lua_file

__all__ = ["DRAW_COUNT", "START_HAND", "START_LP", "PuzzleError", "PuzzleResult", "load_puzzle",
           "play_puzzle", "puzzle_codes", "run_lua_file"]

@dataclass(frozen=True)
class PuzzleResult:
    """How a puzzle ended."""

    solved: bool
    outcome: Outcome
    ai_name: str | None
    hints: tuple[str, ...]
    script_errors: tuple[str, ...]


def load_puzzle(path: str | Path, *, scripts: str | Path | None = None, db: Any = None,
                seed: int = 0) -> Duel:
    """A started duel set up by the puzzle file ``path`` (see the module docstring).

    ``scripts`` / ``db``: the card scripts and database (default: the bundled ones;
    real puzzles need a real script folder and card database).  Raises
    ``PuzzleError`` when the file is missing or its Lua fails.
    """
    path = Path(path)
    if not path.is_file():
        raise PuzzleError(f"puzzle file {path} does not exist")
    duel = Duel(db=db, scripts=scripts, seed=seed, options=0)
    host = duel.script_host
    if host is None or not hasattr(host, "load_script"):
        raise PuzzleError("a puzzle needs a Lua script host")
    for p in (0, 1):
        duel.set_player(p, lp=START_LP, start_hand=START_HAND, draw=DRAW_COUNT)
    run_lua_file(host, path)
    duel.start()
    return duel


_ADD_CARD = re.compile(r"Debug\.AddCard\s*\(\s*(0x[0-9a-fA-F]+|\d+)")


def puzzle_codes(path: str | Path) -> list[int]:
    """The card codes a puzzle file adds with ``Debug.AddCard(<number>, ...)`` (literal
    codes only: a code computed in Lua is not seen), in file order, without repeats."""
    text = Path(path).read_text(encoding="utf-8", errors="replace")
    text = re.sub(r"--\[\[.*?\]\]", "", text, flags=re.S)          # block comments
    text = re.sub(r"--[^\n]*", "", text)                             # line comments
    return list(dict.fromkeys(int(m, 0) for m in _ADD_CARD.findall(text)))


def puzzle_texts(duel: Duel) -> tuple[str | None, tuple[str, ...]]:
    """The AI name and the hints (Debug.ShowHint, Debug.Message) the puzzle gave."""
    ai = None
    hints = []
    for m in duel.messages:
        if isinstance(m, MsgAiName):
            ai = m.text
        elif isinstance(m, MsgShowHint):
            hints.append(m.text)
    for kind, text in getattr(duel.script_host, "log", ()):
        if kind == 2:
            hints.append(text)
    return ai, tuple(hints)


def play_puzzle(duel: Duel, player: Player, *, max_responses: int = 5000) -> PuzzleResult:
    """Play a loaded puzzle with ``player`` answering every prompt left to the players."""
    outcome = duel.run([player, player], max_responses=max_responses)
    ai, hints = puzzle_texts(duel)
    errors = tuple(str(getattr(e, "message", e)) for e in getattr(duel.script_host, "errors", ()))
    return PuzzleResult(solved=outcome.finished and outcome.winner == 0, outcome=outcome,
                        ai_name=ai, hints=hints, script_errors=errors)
