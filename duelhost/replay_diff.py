"""``duelhost replay --diff``: a replay file's answers played in the reference core and ours.

It needs the replay files (replay.py) and the side-by-side machinery of
``duelhost diff`` (diff.py, puzzle_diff.py), which itself writes replay files of
the duels it diffs; living here, above both, it lets replay.py and diff.py each
import what they use at load time without needing the other.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from duelhost.bindings.files import OutsideFolderError, file_in_folders

from .diff import LiveResult, play_side_by_side
from .puzzle_diff import PuzzleLoadError, puzzle_prepare
from .reference import ReferenceCore
from .replay import Replay, ReplayError, replay_setup

__all__ = ["diff_replay"]


def diff_replay(replay: Replay, ref_lib: Any, db: Any, scripts: Path | None, *,
                turn_limit: int = 10_000, puzzle_dir: Path | None = None) -> LiveResult:
    """Play a replay's responses in the reference library and our engine; compare the streams
    (a LiveResult, as ``duelhost diff``).  A 'yrp1' replay is
    created with ``create_duel`` in both cores (the reference's v1 rule, also for replays
    recorded before UNIFORM, whose older rule the current reference cannot reproduce).
    A single-mode replay's puzzle (a file of ``scripts`` or ``puzzle_dir``) is preloaded in
    both cores as ``diff --puzzle`` does (puzzle_diff.puzzle_prepare); a puzzle that is
    missing, refused or fails in both is a ReplayError."""
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    prepare = None
    if replay.is_single:
        prepare = _puzzle_for_diff(core, replay, scripts, puzzle_dir)
    # a 'yrp1' replay: create_duel(first output of mt19937(seed)), the reference's v1 rule on both
    # sides (a replay recorded before UNIFORM used an older rule that the reference no longer has)
    setup = replay_setup(replay, own_rng=False)
    answers = iter(replay.responses)

    class _Exhausted(Exception):
        pass

    def responder(prompt: Any) -> bytes:
        try:
            return next(answers)
        except StopIteration:
            raise _Exhausted() from None

    try:
        return play_side_by_side(core, db, scripts, setup, None, duel_id=replay.source, seed=0,
                                 turn_limit=turn_limit, response_limit=len(replay.responses),
                                 responder=responder, prepare=prepare)
    except _Exhausted:  # pragma: no cover - response_limit stops first
        raise
    except PuzzleLoadError as exc:
        if exc.in_both:
            raise ReplayError(f"{replay.source}: puzzle script {replay.script_name!r}: {exc.describe()}") from None
        return LiveResult(id=replay.source, seed=0, status="error", end=None, agreeing=0, messages=0,
                          responses=0, turns=0, error=f"puzzle script {replay.script_name!r}: {exc.describe()}")


def _puzzle_for_diff(core: Any, replay: Replay, scripts: Path | None, puzzle_dir: Path | None) -> Any:
    """The prepare step of a single-mode replay: its puzzle file found in the script or puzzle
    folders (confined to them, bindings/files.py), preloaded in both cores."""
    name = replay.script_name or ""
    folders = [d for d in (scripts, puzzle_dir) if d is not None]
    try:
        found = file_in_folders(folders, name)
    except OutsideFolderError as exc:
        raise ReplayError(f"{replay.source}: puzzle {exc}") from None
    if found is None:
        where = ", ".join(str(d) for d in folders) or "no folder"
        raise ReplayError(f"{replay.source}: puzzle script {name!r} not found in {where} "
                          f"(pass --puzzles DIR, the folder of the puzzle scripts)")
    return puzzle_prepare(core, Path(found), "./single/" + name)
