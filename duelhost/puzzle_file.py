"""A puzzle file run in a duel's script state, below the host.

What the host (``Duel.run_setup_lua``), duelhost.puzzle (loading and playing a
puzzle) and duelhost.fork (a puzzle whose duel can be forked) share: the
settings the reference client gives both players before a puzzle runs, the
error of a puzzle that cannot run, and running the file the way the
reference's ``preload_script`` does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["DRAW_COUNT", "START_HAND", "START_LP", "PuzzleError", "run_lua_file"]

START_LP, START_HAND, DRAW_COUNT = 8000, 5, 1   # what the reference client gives both players


class PuzzleError(RuntimeError):
    """The puzzle file cannot be run (missing, or its Lua failed)."""


def run_lua_file(host: Any, path: Path) -> None:
    """Run a Lua file from outside the script folder in the host's state (the
    reference's ``preload_script``).  The file's folder is searched after the
    script folders while it runs, so its chunk reads ``./script/<file name>``."""
    folder = path.resolve().parent
    name = path.name
    for d in host.script_dirs:
        if (Path(d) / name).is_file() and Path(d).resolve() != folder:
            raise PuzzleError(f"{name} is also a file of the script folder {d}: rename the puzzle")
    errors_before = len(host.errors)
    host.script_dirs.append(folder)
    try:
        ok = host.load_script(name)
    finally:
        # the last entry is ours (the folder may also be a script folder)
        del host.script_dirs[len(host.script_dirs) - 1]
    if not ok:
        new = host.errors[errors_before:]
        detail = "; ".join(e.message for e in new) or "it did not run"
        raise PuzzleError(f"puzzle {path}: {detail}")
