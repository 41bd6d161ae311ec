"""Forks, snapshots and pickling of a host duel, by exact re-simulation.

The engine is deterministic: a duel is entirely given by how it was set up
(card database, script folders, seed sequence, options, the players' LP/hand/draw
settings, every card put in place, in order) and by the bytes of every answer sent
to it.  So this module copies a duel by *replaying* it:

* a ``Duel`` records its set-up as it happens (``DuelSetup``) and keeps every
  answer it was sent (``Duel.driver.answers``, also used for replay files);
* ``Duel.snapshot()`` is a ``DuelSnapshot``: that set-up plus the answers so far,
  a small frozen, picklable value;
* ``build_duel(snapshot)`` makes a fresh duel from the set-up and feeds it the
  answers; because nothing in the engine depends on anything but these, the new
  duel's board, chain, pending events, RNG state, Lua state, script globals,
  effect labels and flag effects are exactly the original's;
* ``Duel.fork()`` is ``build_duel(self.snapshot())`` reusing the already open
  card database (read-only); ``Duel.restore(snapshot)`` moves a duel to a
  snapshot of the same set-up (going forward only replays the missing answers);
  ``pickle.dumps(duel)`` stores the snapshot, ``pickle.loads`` rebuilds.

A fork costs about what the duel so far cost to play (see docs/fork.md for the
measured figures): set-up plus one engine step per answer, with no validation of
answers (they were accepted once).

What cannot be replayed is refused with a ``ForkError`` naming it: a duel given a
script host that is not a fresh plain ``LuaScriptHost`` (the pytest toolkit's
``Scenario``, a fake host), a duel whose engine was set up behind the host's back
(cards or player settings changed through ``duel.engine`` or by a Lua file run
in its script state, as ``duelhost.puzzle.load_puzzle`` does: load a puzzle with
``duelhost.fork.load_puzzle`` or ``Duel.run_setup_lua`` instead), and a duel
whose state after the replay differs from the original's (checked on the message
count and the RNG state, which catches changes made through ``duel.engine`` after
the start).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .host import Duel, build_duel
from .puzzle_file import DRAW_COUNT, START_HAND, START_LP, PuzzleError
from .snapshot import DuelSetup, DuelSnapshot, ForkError, Step, db_path_of, file_sha256, open_db, setup_difference

__all__ = ["DuelSetup", "DuelSnapshot", "ForkError", "Step", "build_duel", "db_path_of", "file_sha256",
           "load_puzzle", "open_db", "setup_difference"]


def load_puzzle(path: str | Path, *, scripts: str | Path | None = None, db: Any = None,
                seed: int = 0) -> Duel:
    """``duelhost.puzzle.load_puzzle`` whose duel can be forked: the puzzle file is a
    recorded set-up step (``Duel.run_setup_lua``), replayed by a fork (the file must
    stay unchanged while forks are made)."""
    path = Path(path)
    if not path.is_file():
        raise PuzzleError(f"puzzle file {path} does not exist")
    duel = Duel(db=db, scripts=scripts, seed=seed, options=0)
    for p in (0, 1):
        duel.set_player(p, lp=START_LP, start_hand=START_HAND, draw=DRAW_COUNT)
    duel.run_setup_lua(path)
    duel.start()
    return duel
