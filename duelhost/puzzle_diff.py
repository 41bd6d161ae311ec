"""``duelhost diff --puzzle FILE|DIR``: puzzles played side by side in both cores.

Each puzzle file is set up the way the reference client's single mode sets it
up (duelhost/puzzle.py has the steps): ``create_duel_v2(seed sequence)``,
``set_player_info(p, 8000, 5, 1)`` for both players, ``preload_script`` of the
puzzle file (its ``Debug.ReloadFieldBegin`` sets the rule and flags, its
``Debug.AddCard`` calls add the cards) and ``start_duel(0)``.  Both cores get
the same seed sequence; at each prompt the reference's prompt is answered by a
seeded random player and the same bytes go to both (diff.play_side_by_side,
which compares every message).  Run *k* of a puzzle uses ``random.Random(S + k)``
for the seed sequence, then for the answers, as ``duelhost diff --seeds``.

Two players (``player``): ``random`` answers every prompt uniformly at random,
as the live diff does; in a puzzle it mostly ends the turn within a few moves.
``keen`` answers the same way except in the Main and Battle Phase menus, where
it summons, sets, activates or attacks whenever it can (nine times in ten)
and leaves the Main Phase for the Battle Phase before the End Phase: it plays
deeper into the puzzle's cards.

What cannot be compared is one line of the report and the run goes on:

* a file that cannot be read, or whose ``Debug.AddCard`` codes have no row in
  the database, or that is named like a file of the script folder
  (``skipped puzzle NAME: ...``): the literal codes are checked
  before the run, and the cards the file added are checked once it has loaded
  (codes it computes);
* a puzzle that fails to load in the reference as well as in ours (a Lua
  error, a function the reference does not have): ``skipped puzzle NAME: it
  does not run in the reference either: ...``.  A puzzle that loads in one core
  only is a divergence (status ``error``).
"""

from __future__ import annotations

import random
import re
import time
import traceback
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from duelhost.engine.carddb import CardDatabase
from duelhost.engine.core_constants import TEMP_CARD_ID
from duelhost.engine.messages import MsgSelectBattleCmd, MsgSelectIdleCmd
from duelhost.engine.responses import (BATTLE_ACTIVATE, BATTLE_ATTACK, IDLE_BATTLE_PHASE, IDLE_SHUFFLE,
                                       legal_responses, random_response)

from . import paths
from .diff import (DEFAULT_DUEL_TIMEOUT, DEFAULT_RESPONSE_LIMIT, DEFAULT_TURN_LIMIT, LiveResult,
                   LiveSummary, play_side_by_side)
from .driver import DuelSetup
from .execution import Backend, Work, execute
from .execution.lost import Lost
from .inputs import BadInput, open_card_database
from .puzzle import DRAW_COUNT, START_HAND, START_LP, PuzzleError, run_lua_file
from .reference import ReferenceCore, ReferenceCoreError
from .replay import REPLAY_ID_YRP2, REPLAY_SINGLE_MODE, REPLAY_UNIFORM, Replay, ReplayHeader, _trim, write_replay

__all__ = ["PuzzleCardsMissing", "PuzzleLoadError", "PuzzleSummary", "keen_responder", "puzzle_files",
           "puzzle_prepare", "puzzle_problem", "puzzle_replay", "run_puzzle_diff"]

DEFAULT_PUZZLE_SEEDS = 3
PLAYERS = ("random", "keen")
KEEN_ACTION = 0.9

# Debug.AddCard(code, owner, player, location, sequence, position[, proc])
_ADD_CARD = re.compile(r"Debug\s*\.\s*AddCard\s*\(\s*(0[xX][0-9a-fA-F]+|\d+)")
_LINE_COMMENT = re.compile(r"--(?!\[=*\[).*")
_BLOCK_COMMENT = re.compile(r"--\[(=*)\[.*?\]\1\]", re.S)


class PuzzleLoadError(Exception):
    """The puzzle file did not load in one or both cores (raised by the prepare step)."""

    def __init__(self, reference: str | None, ours: str | None) -> None:
        self.reference = reference      # None: it loaded there
        self.ours = ours
        super().__init__(self.describe())

    @property
    def in_both(self) -> bool:
        return self.reference is not None and self.ours is not None

    def describe(self) -> str:
        if self.in_both:
            return f"it does not run in the reference either: {self.reference} (duelhost: {self.ours})"
        if self.reference is not None:
            return f"it does not run in the reference ({self.reference}) but runs in duelhost"
        return f"it runs in the reference but not in duelhost: {self.ours}"


class PuzzleCardsMissing(PuzzleLoadError):
    """The puzzle loaded, but added cards whose codes have no database row (found after
    loading, so codes the file computes are caught too)."""

    def __init__(self, codes: list[int]) -> None:
        self.codes = sorted(set(codes))
        super().__init__(None, None)

    @property
    def in_both(self) -> bool:
        return True

    def describe(self) -> str:
        return _missing_text(self.codes)


def _missing_text(codes: list[int]) -> str:
    shown = ", ".join(str(c) for c in codes[:8]) + (", ..." if len(codes) > 8 else "")
    return f"{len(codes)} card(s) missing from the database: {shown}"


def puzzle_files(target: Path) -> list[Path]:
    """``target`` itself, or the .lua files of the folder ``target`` and its sub-folders in name order."""
    target = Path(target)
    if target.is_dir():
        return sorted((p for p in target.rglob("*.lua") if p.is_file()),
                      key=lambda p: p.relative_to(target).as_posix())
    return [target]


def card_codes(source: str) -> list[int]:
    """The literal card codes of the ``Debug.AddCard`` calls of a puzzle's source, in order
    (comments left out)."""
    text = _BLOCK_COMMENT.sub("", source)
    text = _LINE_COMMENT.sub("", text)
    return [int(m.group(1), 0) if m.group(1).lower().startswith("0x") else int(m.group(1), 10)
            for m in _ADD_CARD.finditer(text)]


def puzzle_problem(path: Path, db: Any, scripts: Path | None = None) -> str | None:
    """Why ``path`` cannot be played against ``db`` and the script folder ``scripts`` (one
    line), or None."""
    if scripts is not None and (Path(scripts) / path.name).is_file() \
            and Path(scripts).resolve() != path.resolve().parent:
        return f"named like a file of the script folder {scripts}: rename the puzzle"
    try:
        data = path.read_bytes()
    except OSError as exc:
        return f"cannot be read: {exc.strerror or exc}"
    text = data.decode("utf-8", "replace")
    codes = card_codes(text)
    missing = sorted({c for c in codes if db.find(c) is None})
    if missing:
        return _missing_text(missing)
    return None


@dataclass
class PuzzleSummary(LiveSummary):
    """A LiveSummary whose left-out lines are puzzles (``skipped puzzle NAME: why``)."""

    @property
    def solved(self) -> int:
        """Runs the player solved: player 0 won."""
        return sum(1 for r in self.results if r.end == "win" and r.winner == 0)

    def to_json(self) -> dict[str, Any]:
        out = super().to_json()
        out["skipped_puzzles"] = out.pop("skipped_decks")
        out["solved"] = self.solved
        for duel in out["duels"]:
            duel["puzzle"] = duel["id"].rsplit("@", 1)[0]        # the file, relative to the folder
        return out

    def to_text(self) -> str:
        lines = super().to_text().splitlines()
        lines = [ln for ln in lines if not ln.startswith("skipped deck ")]
        lines = [f"skipped puzzle {p}" for p in self.problems] + lines
        if self.results:
            at = next(i for i, ln in enumerate(lines) if " puzzle runs identical (" in ln or " duels identical (" in ln)
            lines.insert(at + 1, f"  solved (player 0 won): {self.solved} of {self.total} runs")
        return "\n".join(ln.replace("deck file(s) left out", "puzzle(s) left out")
                         .replace(" duels identical (", " puzzle runs identical (") for ln in lines)


def puzzle_prepare(core: Any, path: Path, name: str | None = None) -> Any:
    """The step diff.play_side_by_side runs before both duels start: the puzzle file ``path``
    preloaded in the reference (served to its script reader as ``name``, default
    ``./single/<file name>``, as the client names it) and run in our Lua state.  Raises
    PuzzleLoadError when it fails in either core, PuzzleCardsMissing when it added cards
    with no database row."""
    name = name or f"./single/{path.name}"
    data = path.read_bytes()

    def prepare(ref: Any, ours: Any, script: Any) -> None:
        core.provide_script(name, data)
        before = len(core.errors)
        ref_error = None
        if not ref.preload_script(name):
            ref_error = "; ".join(core.errors[before:]) or "preload_script failed"
        our_error = None
        if script is None:
            our_error = "no script host"
        else:
            try:
                run_lua_file(script, path)
            except PuzzleError as exc:
                our_error = str(exc).removeprefix(f"puzzle {path}: ")
        if ref_error is not None or our_error is not None:
            raise PuzzleLoadError(_one_line(ref_error), _one_line(our_error))
        if core.db is not None:
            missing = [c.data.code for c in ours.cards
                       if c.data.code != TEMP_CARD_ID and core.db.find(c.data.code) is None]
            if missing:
                raise PuzzleCardsMissing(missing)
    return prepare


def keen_responder(rng: random.Random, card_pool: list[Any]) -> Any:
    """The ``keen`` player: random answers, but in the Main / Battle Phase menus an action
    (summon, set, activate, attack) whenever there is one, nine times in ten, and the
    Battle Phase before the End Phase."""

    def answer(prompt: Any) -> Any:
        if isinstance(prompt, MsgSelectIdleCmd):
            options: list[Any] = legal_responses(prompt)
            acts = [o for o in options if o.command < IDLE_BATTLE_PHASE]
            if acts and rng.random() < KEEN_ACTION:
                return rng.choice(acts)
            leave = [o for o in options if o.command == IDLE_BATTLE_PHASE]
            if leave:
                return leave[0]
            rest = [o for o in options if o.command != IDLE_SHUFFLE] or options
            return rng.choice(rest)
        if isinstance(prompt, MsgSelectBattleCmd):
            options = list(legal_responses(prompt))
            acts = [o for o in options if o.command in (BATTLE_ACTIVATE, BATTLE_ATTACK)]
            if acts and rng.random() < KEEN_ACTION:
                return rng.choice(acts)
            return rng.choice(options)
        return random_response(prompt, rng, card_pool=card_pool)
    return answer


def _play_one(core: Any, db: Any, scripts: Path | None, path: Path, seed: int, *, run_id: str,
              turn_limit: int, response_limit: int, card_pool: list[Any], player: str = "random",
              on_step: Any = None) -> LiveResult:
    """One run of one puzzle in both cores (see the module docstring)."""
    rng = random.Random(seed)
    setup = DuelSetup(seed_sequence=[rng.getrandbits(32) for _ in range(8)], cards=[],
                      players=[(START_LP, START_HAND, DRAW_COUNT)] * 2, options=0)
    prepare = puzzle_prepare(core, path)
    responder = keen_responder(rng, card_pool) if player == "keen" else None
    try:
        return play_side_by_side(core, db, scripts, setup, rng, duel_id=run_id, seed=seed,
                                 turn_limit=turn_limit, response_limit=response_limit,
                                 card_pool=card_pool, on_step=on_step, prepare=prepare,
                                 responder=responder)
    except PuzzleLoadError as exc:
        return LiveResult(id=run_id, seed=seed, status="unloadable" if exc.in_both else "error", end=None,
                          agreeing=0, messages=0, responses=0, turns=0, error=exc.describe(),
                          seed_sequence=list(setup.seed_sequence), setup=setup)


def puzzle_replay(result: LiveResult, script_name: str) -> Any:
    """A single-mode 'yrp2' replay of one puzzle run (its seed sequence, the puzzle's file
    name, every answer sent), which ``duelhost replay FILE --diff --puzzles DIR`` plays again
    in both cores; None for a run whose answers are not known (a killed child)."""
    setup = result.setup
    if setup is None:
        return None
    header = ReplayHeader(id=REPLAY_ID_YRP2, flag=REPLAY_UNIFORM | REPLAY_SINGLE_MODE,
                          seed_sequence=list(setup.seed_sequence), start_time=int(time.time()))
    lp, hand, draw = setup.players[0]
    return Replay(header=header, players=[result.id, ""], start_lp=lp, start_hand=hand, draw_count=draw,
                  duel_flag=setup.options, script_name=script_name,
                  responses=[_trim(r) for r in result.sent])


def _one_line(text: str | None, limit: int = 300) -> str | None:
    if text is None:
        return None
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[:limit - 3] + "..."


class PuzzleWork(Work):
    """Puzzle runs as a duelhost.execution Work: an item is (puzzle file, seed, the
    keyword arguments of _play_one); the reference core, the database and its card pool
    are this process's, inherited by the forked worker of each run (an item stays small:
    it is sent to the worker through a pipe)."""

    def __init__(self, core: Any, db: Any, scripts: Path | None, timeout: float | None,
                 card_pool: list[Any]) -> None:
        self.core, self.db, self.scripts, self.timeout = core, db, scripts, timeout
        self.card_pool = card_pool

    def run(self, state: Any, item: Any, progress: Any) -> LiveResult:
        path, seed, kwargs = item
        if progress is None:        # in this process
            return _play_one(self.core, self.db, self.scripts, path, seed, card_pool=self.card_pool, **kwargs)

        def on_step(res: LiveResult) -> None:
            progress[0], progress[1], progress[2] = res.agreeing, res.responses, res.turns
        try:
            return _play_one(self.core, self.db, self.scripts, path, seed, on_step=on_step,
                             card_pool=self.card_pool, **kwargs)
        except BaseException:
            return LiveResult(id=kwargs["run_id"], seed=seed, status="error", end=None,
                              agreeing=progress[0], messages=progress[0], responses=progress[1],
                              turns=progress[2], error=traceback.format_exc())

    def lost(self, item: Any, lost: Lost) -> LiveResult:
        _path, seed, kwargs = item
        if lost.how == "timeout":
            status, error = "timeout", f"the puzzle took longer than {self.timeout:g} s (both cores are stopped)"
        else:
            status, error = "crash", f"the run's process died (exit code {lost.exitcode})"
        return LiveResult(id=kwargs["run_id"], seed=seed, status=status, end=None,
                          agreeing=lost.progress[0], messages=lost.progress[0], responses=lost.progress[1],
                          turns=lost.progress[2], error=error, seconds=lost.seconds)


def run_puzzle_diff(ref_lib: str | Path | None, target: Path, *, db_path: Any, scripts: Path | None,
                    seeds: int = DEFAULT_PUZZLE_SEEDS, first_seed: int = 1,
                    turn_limit: int = DEFAULT_TURN_LIMIT, response_limit: int = DEFAULT_RESPONSE_LIMIT,
                    progress: Any = None, player: str = "random", save_dir: Path | None = None,
                    duel_timeout: float | None = DEFAULT_DUEL_TIMEOUT) -> PuzzleSummary:
    """Every puzzle of ``target`` (a .lua file or a folder of them), ``seeds`` runs each
    (seeds ``first_seed`` ...), in both cores; see the module docstring.  ``db_path``: a
    cards.cdb-schema file or an open CardDatabase.  ``player``: "random" or "keen" (module
    docstring).  ``save_dir``: every run that is not identical written there as a single-mode
    replay (puzzle_replay).  A folder without .lua files is a ValueError."""
    if player not in PLAYERS:
        raise ValueError(f"player must be one of {', '.join(PLAYERS)}, not {player!r}")
    db = db_path if isinstance(db_path, CardDatabase) else CardDatabase.open(db_path)
    target = Path(target)
    files = puzzle_files(target)
    if not files:
        raise ValueError(f"{target}: no .lua puzzle files in this folder")
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    problems: list[str] = []
    good: list[Path] = []
    for p in files:
        why = puzzle_problem(p, db, scripts)
        if why is None:
            good.append(p)
        else:
            problems.append(f"{_display(p, target)}: {why}")
    card_pool = list(db)

    def name_of(code: int) -> str:
        rec = db.find(code & 0x7FFFFFFF)
        return rec.name if rec is not None and rec.name else str(code)

    summary = PuzzleSummary(source=f"puzzles: {len(files)} file(s) from {target}, "
                                   f"{seeds} seed(s) from {first_seed} each, {player} player, "
                                   f"turn cap {turn_limit or 'none'}, {core.path}",
                            name_of=name_of, problems=problems)
    work = PuzzleWork(core, db, scripts, duel_timeout, card_pool)
    # one run at a time (each in a forked worker killed at the deadline, with a timeout),
    # so that a puzzle found unloadable is not run again with the next seeds
    backend = Backend.local(1) if duel_timeout is not None else Backend.inline()
    for p in good:
        label = _display(p, target)
        for k in range(seeds):
            seed = first_seed + k
            kwargs: dict[str, Any] = dict(run_id=f"{label}@{seed}", turn_limit=turn_limit,
                          response_limit=response_limit, player=player)
            got, _info = execute(work, [(p, seed, kwargs)], backend, timeout=duel_timeout)
            r = got[0]
            if r is None:           # Ctrl-C: what was done so far
                raise KeyboardInterrupt
            if progress is not None:
                progress(r)
            if r.status == "unloadable":
                # the puzzle itself is broken: one line, whatever the seed
                summary.problems.append(f"{label}: {r.error}")
                break
            summary.results.append(r)
            if save_dir is not None and not r.identical:
                rep = puzzle_replay(r, p.name)
                if rep is not None:
                    Path(save_dir).mkdir(parents=True, exist_ok=True)
                    write_replay(rep, Path(save_dir) / f"{p.stem}@{seed}.yrp")
    return summary


def _display(path: Path, target: Path) -> str:
    if target.is_dir():
        try:
            return path.relative_to(target).as_posix()
        except ValueError:
            pass
    return path.name


def run_puzzle_diff_cli(target: Path, *, ref_lib: Path | None, seeds: int, first_seed: int, db: Path | None,
                        scripts: Path | None, turn_limit: int, response_limit: int,
                        duel_timeout: float | None, progress: bool, player: str = "random",
                        save_dir: Path | None = None) -> PuzzleSummary:
    """``duelhost diff --puzzle``: run_puzzle_diff with the command's defaults and errors
    (no library: a usage error; a library that cannot be used: exit code 1; a folder
    without puzzles or a database that cannot be read: bad input, exit code 2)."""
    if ref_lib is None:
        raise click.UsageError("--puzzle needs the reference library: --ref-lib FILE or OCGCORE_LIB")

    def report_progress(r: LiveResult) -> None:
        if progress:
            click.echo(f"{r.id}: {r.status} ({r.agreeing} messages agree, {r.seconds:.1f} s)", err=True)

    database = open_card_database(db if db is not None else paths.bundled_db())
    try:
        return run_puzzle_diff(ref_lib, target, db_path=database,
                               scripts=scripts if scripts is not None else paths.bundled_scripts(),
                               seeds=seeds, first_seed=first_seed, turn_limit=turn_limit,
                               response_limit=response_limit, progress=report_progress,
                               duel_timeout=duel_timeout, player=player, save_dir=save_dir)
    except ReferenceCoreError as exc:
        raise click.ClickException(str(exc)) from exc
    except ValueError as exc:
        raise BadInput(str(exc)) from exc
