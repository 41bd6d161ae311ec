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

import hashlib
import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from duelhost.engine.carddb import CardDatabase

if TYPE_CHECKING:
    from .host import Duel

__all__ = ["DuelSetup", "DuelSnapshot", "ForkError", "build_duel", "load_puzzle", "open_db"]


class ForkError(ValueError):
    """A duel cannot be forked, snapshotted or restored as asked (the message says why)."""


Step = tuple[Any, ...]
"""One recorded set-up call: ("player", p, lp, hand, draw), ("card", code, owner, player,
location, sequence, position), ("tag", code, player, location), ("shuffle", n) (add_deck
shuffled n cards with the set-up's generator) or ("lua", path, sha256)."""


@dataclass(frozen=True)
class DuelSetup:
    """Everything a duel was built from, before its first answer.

    ``db_path`` is the card database file (None for an in-memory database, which
    then travels in ``db``); ``scripts`` the script folders (None: no Lua) and
    ``host_options`` the script host's options."""

    db_path: str | None
    scripts: tuple[str, ...] | None
    host_options: Any
    seed: int
    seed_sequence: tuple[int, ...]
    options: int
    steps: tuple[Step, ...]
    db: Any = field(default=None, compare=False, repr=False)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        if state["db_path"] is not None:
            state["db"] = None       # a worker reopens the file (open_db caches it)
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)


@dataclass(frozen=True)
class DuelSnapshot:
    """A duel's position: its set-up and the answers it was sent, in order.

    Small (a few bytes per answer), immutable and picklable; ``Duel.from_snapshot``
    or ``Duel.restore`` turn it back into a duel at exactly that position."""

    setup: DuelSetup
    started: bool
    advanced: bool               # the engine has run to its first prompt
    answers: tuple[bytes, ...]

    @property
    def responses(self) -> int:
        return len(self.answers)

    def extends(self, other: DuelSnapshot) -> bool:
        """This position comes after ``other`` (or is it) on the same line of play."""
        if self.setup != other.setup:
            return False
        if (other.started and not self.started) or (other.advanced and not self.advanced):
            return False
        n = len(other.answers)
        return len(self.answers) >= n and self.answers[:n] == other.answers


# ----- card databases ------------------------------------------------------------------------

_DB_CACHE: dict[tuple[str, int, int], CardDatabase] = {}


def open_db(path: str) -> CardDatabase:
    """The card database at ``path``, opened once per process (while the file is unchanged)."""
    st = os.stat(path)
    key = (os.path.realpath(path), st.st_mtime_ns, st.st_size)
    db = _DB_CACHE.get(key)
    if db is None:
        db = _DB_CACHE[key] = CardDatabase.open(path)
    return db


def db_path_of(db: CardDatabase, given: str | Path | None) -> str | None:
    """The file a database was opened from, when it is one (else None: it travels by value)."""
    if isinstance(given, (str, Path)):
        return str(Path(given).resolve())
    source = getattr(db, "source", None)
    if isinstance(source, str) and source and Path(source).is_file():
        return str(Path(source).resolve())
    return None


def setup_difference(a: DuelSetup, b: DuelSetup) -> str:
    """The first thing two set-ups differ in, in words."""
    for name in ("db_path", "scripts", "seed", "seed_sequence", "options", "host_options"):
        if getattr(a, name) != getattr(b, name):
            return f"{name.replace('_', ' ')} {getattr(a, name)!r} against {getattr(b, name)!r}"
    if len(a.steps) != len(b.steps):
        return f"{len(a.steps)} set-up steps against {len(b.steps)}"
    for i, (x, y) in enumerate(zip(a.steps, b.steps)):
        if x != y:
            return f"set-up step {i + 1}: {x!r} against {y!r}"
    return "the in-memory card databases are different objects"


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ----- replay -----------------------------------------------------------------------------------

class _Quiet(logging.Filter):
    """Drop the engine's warnings and the scripts' log lines while a replay repeats them
    (the original logged them once; the fork's own lists still get them)."""

    def filter(self, record: logging.LogRecord) -> bool:
        return False


def build_duel(snapshot: DuelSnapshot, *, check_against: Duel | None = None) -> Duel:
    """A new duel at the snapshot's position (see the module docstring).

    ``check_against``: the duel being forked; the new one must have written as many
    messages and be at the same RNG state, else ``ForkError``."""
    # a circle not yet designed away: host.py imports this module (the snapshot types) and
    # Duel.fork/restore/unpickling call build_duel, which makes a host Duel
    from .host import Duel
    if not isinstance(snapshot, DuelSnapshot):
        raise ForkError(f"not a duel snapshot: {type(snapshot).__name__} (use Duel.snapshot())")
    setup = snapshot.setup
    db = setup.db if setup.db is not None else None
    if db is None:
        if setup.db_path is None:
            raise ForkError("the snapshot's in-memory card database was not kept")
        try:
            db = open_db(setup.db_path)
        except OSError as exc:
            raise ForkError(f"card database {setup.db_path}: {exc.strerror or exc}") from None
    if setup.scripts is None:
        duel = Duel(db=db, scripts=False, seed=setup.seed, seed_sequence=setup.seed_sequence,
                    options=setup.options)
    else:
        from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a duel with scripts
        for folder in setup.scripts:
            if not Path(folder).is_dir():
                raise ForkError(f"script folder {folder} of the snapshot does not exist here")
        host = LuaScriptHost([Path(p) for p in setup.scripts], setup.host_options)
        duel = Duel(db=db, seed=setup.seed, seed_sequence=setup.seed_sequence, options=setup.options,
                    script_host=host)
    duel._fork_db_path = setup.db_path
    quiet = _Quiet()
    logs = [logging.getLogger(name) for name in ("duelhost.engine", "duelhost.scripts")]
    for log in logs:
        log.addFilter(quiet)
    try:
        for step in setup.steps:
            kind = step[0]
            if kind == "player":
                duel.set_player(step[1], lp=step[2], start_hand=step[3], draw=step[4])
            elif kind == "card":
                code, owner, player, location, sequence, position = step[1:]
                duel.add_card(code, player, location, sequence, position, owner)
            elif kind == "shuffle":      # add_deck(shuffle=True): the same draws from the generator
                duel._deck_rng.sample(range(step[1]), step[1])
                duel._record_step(step)
            elif kind == "tag":
                duel._add_tag_card(step[1], step[2], step[3])
            elif kind == "lua":
                path = Path(step[1])
                if not path.is_file() or file_sha256(path) != step[2]:
                    raise ForkError(f"set-up file {path} is missing or changed since the duel was built")
                duel.run_setup_lua(path)
            else:
                raise ForkError(f"unknown set-up step {kind!r} in the snapshot")
        if snapshot.started:
            duel.start()
            if snapshot.advanced:
                duel.advance()
            for raw in snapshot.answers:
                duel._replay_answer(raw)
    finally:
        for log in logs:
            log.removeFilter(quiet)
    if check_against is not None:
        ours, theirs = duel.engine, check_against.engine
        if (len(ours.messages) != len(theirs.messages)
                or ours.random.getstate() != theirs.random.getstate()):
            duel.close()
            raise ForkError("the replayed duel does not match the original (it wrote "
                            f"{len(ours.messages)} messages, the original {len(theirs.messages)}): "
                            "the original was changed outside the Duel's methods (through duel.engine?)")
    return duel


def load_puzzle(path: str | Path, *, scripts: str | Path | None = None, db: Any = None,
                seed: int = 0) -> Duel:
    """``duelhost.puzzle.load_puzzle`` whose duel can be forked: the puzzle file is a
    recorded set-up step (``Duel.run_setup_lua``), replayed by a fork (the file must
    stay unchanged while forks are made)."""
    # the same circle as build_duel's (puzzle.py imports host.py, which imports this module)
    from .host import Duel
    from .puzzle import DRAW_COUNT, START_HAND, START_LP, PuzzleError
    path = Path(path)
    if not path.is_file():
        raise PuzzleError(f"puzzle file {path} does not exist")
    duel = Duel(db=db, scripts=scripts, seed=seed, options=0)
    for p in (0, 1):
        duel.set_player(p, lp=START_LP, start_hand=START_HAND, draw=DRAW_COUNT)
    duel.run_setup_lua(path)
    duel.start()
    return duel
