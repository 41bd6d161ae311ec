"""What a duel's copy is made from: its recorded set-up and the answers it was sent.

``DuelSetup`` (card database, script folders, seed sequence, options, the set-up
steps in order) and ``DuelSnapshot`` (a set-up plus the answers so far) are small
frozen, picklable values; ``ForkError`` says why a duel cannot be copied.  The host
(``duelhost.host.Duel``) records them and rebuilds a duel from them
(``duelhost.host.build_duel``); ``duelhost.fork`` is the user-facing module (its
docstring tells how forks work).  This module sits below the host and imports none
of it.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duelhost.engine.carddb import CardDatabase

__all__ = ["DuelSetup", "DuelSnapshot", "ForkError", "Step", "db_path_of", "file_sha256", "open_db",
           "setup_difference"]


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
