"""``duelhost selfplay``: seeded duels between random players, and how they end.

Each duel is played by two :class:`~duelhost.players.RandomPlayer` (uniformly
random legal answers) until a player wins, the turn cap or the response cap is
reached, or something breaks.  What can break, and how it is reported:

* **engine error**: a Python exception escaped the engine (the duel cannot go
  on), a Python exception inside a Lua binding (the host records it as an
  "internal" script error), a prompt that admits no legal answer, a random
  legal answer that the duel refused, or a duel that ran past its time limit;
* **script error**: a card script failed (a Lua error, a missing function, a
  time-out of the script's CPU budget).  The reference reports such a failure
  and goes on; selfplay stops the duel there so that every error is seen on a
  clean state (``keep_going`` lets the duel go on as the reference does, and
  still lists the errors).

Errors are grouped by cause (exception type and the innermost engine frame, or
the script's message and position) with the card codes involved, the duels
they stopped and one full traceback each.

Everything is deterministic for a given seed: duel ``i`` gets its own seed from
a generator seeded with ``seed`` (so duel ``i`` is the same whatever ``duels``,
``jobs`` or ``only`` are), and that seed chooses the decks, the duel's random
number seed sequence and both players' seeds.  Without deck files, each player
gets a random deck (40 Main + 15 Extra Deck cards, or 40 Main Deck cards with
``main_only``) from the cards of the script folder that have a database row
(duelhost.deckpool); with a deck folder (``deck_dir``) duel *i* plays pairing
*i mod P* of its .ydk files (deckpool.deck_pairs).  ``mode`` gives the Master
Rule and the DUEL_* flags (duelhost.modes; a Tag Duel has four decks).  The one thing no seed fixes is
Lua's own ``pairs()`` order over string keys, which changes from process to
process (docs: DESIGN "Random numbers"); scripts almost never depend on it.
"""

from __future__ import annotations

import collections
import dataclasses
import gc
import json
import os
import random
import re
import sys
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import click

from duelhost.engine.carddb import CardDatabase
from duelhost.engine.responses import InvalidResponse, NoValidResponse
from duelhost.engine.ydk import read_ydk
from duelhost.players import RandomPlayer

from . import paths
from .deckpool import DeckPool, deck_pairs, deck_pool, random_deck, read_deck_folder
from .inputs import BadInput, open_card_database, stops_on_interrupt
from .modes import DuelMode, mode_options
from .execution import (Backend, ExecutionError, RunInfo, Work, backend_from_options, execute,
                        finish_interrupted, progress_display, ray_option)
from .execution.lost import Lost

__all__ = [
    "DeckChoice",
    "DuelReport",
    "ErrorInfo",
    "SelfplayConfig",
    "SelfplayError",
    "SelfplayResult",
    "duel_seeds",
    "play_duel",
    "run_selfplay",
]

WIN_REASON_NAMES = {0: "surrender", 1: "LP", 2: "deck-out", 3: "timeout", 4: "connection lost"}

class SelfplayError(ValueError):
    """Selfplay cannot run as asked (no usable cards, an unreadable deck file, ...)."""


# ---------------------------------------------------------------------------
# Decks
# ---------------------------------------------------------------------------
def deck_files(values: Sequence[Path]) -> list[Path]:
    """The .ydk files named (a folder stands for all its .ydk files, in name order)."""
    out: list[Path] = []
    for v in values:
        if v.is_dir():
            found = sorted(v.glob("*.ydk"))
            if not found:
                raise SelfplayError(f"{v}: no .ydk file in this folder")
            out.extend(found)
        else:
            out.append(v)
    return out


@dataclass(frozen=True)
class DeckChoice:
    """One player's deck for one duel."""

    name: str
    main: tuple[int, ...]
    extra: tuple[int, ...]


def duel_seeds(seed: int, count: int) -> list[int]:
    """The seed of each duel: duel ``i`` has the same seed for any ``count > i``."""
    master = random.Random(seed)
    return [master.getrandbits(63) for _ in range(count)]


# ---------------------------------------------------------------------------
# Results
# ---------------------------------------------------------------------------
@dataclass
class ErrorInfo:
    """What stopped a duel (or, with keep_going, a script error it went through)."""

    kind: str                    # "engine" or "script"
    cause: str                   # the grouping key
    message: str
    card_code: int | None = None
    card_name: str | None = None
    where: str | None = None     # the innermost engine frame, or the script position
    traceback: str = ""
    turn: int = 0
    response: int = 0            # how many responses had been given


@dataclass
class DuelReport:
    """How one duel went."""

    index: int
    seed: int
    decks: tuple[str, ...]       # two names, four in a Tag Duel
    status: str                  # "win", "turn_cap", "response_cap", "engine_error", "script_error"
    winner: int | None = None
    reason: int | None = None
    turns: int = 0
    responses: int = 0
    seconds: float = 0.0
    error: ErrorInfo | None = None
    script_errors: list[ErrorInfo] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)   # what the duel went on through (duel.warnings)

    @property
    def completed(self) -> bool:
        """Ended by a win or a cap, with no error."""
        return self.status in ("win", "turn_cap", "response_cap")

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> DuelReport:
        data = dict(data)
        data["decks"] = tuple(data["decks"])
        if data.get("error") is not None:
            data["error"] = ErrorInfo(**data["error"])
        data["script_errors"] = [ErrorInfo(**e) for e in data.get("script_errors", [])]
        return cls(**data)


@dataclass
class SelfplayConfig:
    scripts: Path
    db: Path
    duels: int | None = 100      # None with deck_dir: one duel per pairing
    seed: int = 0
    decks: list[Path] = field(default_factory=list)
    deck_dir: Path | None = None  # pair the .ydk files of this folder (deckpool.deck_pairs)
    pair_offset: int | None = None
    main_only: bool = False      # random decks without an Extra Deck
    mode: DuelMode = field(default_factory=DuelMode)
    turn_limit: int = 40         # 0: no turn cap
    response_limit: int = 10000
    timeout: float = 300.0       # seconds per duel
    script_time_budget: float = 60.0   # CPU seconds one Lua call may run (real group checks can take seconds)
    keep_going: bool = False     # let duels go on after a script error (as the reference does)
    only: list[int] | None = None
    # cards random decks leave out; None: decided from the scripts folder where the duels are
    # planned (the bundled folder's card that fails on purpose), fixed before work is shipped
    leave_out: frozenset[int] | None = None


def _left_out(config: SelfplayConfig) -> frozenset[int]:
    """The cards random decks leave out: the bundled card that fails on purpose, when the
    scripts are the bundled folder (decided on the machine that plans the run, so that a
    worker given a copy of the folder leaves out the same cards)."""
    if config.leave_out is not None:
        return config.leave_out
    return paths.BROKEN_ON_PURPOSE if paths.is_bundled_scripts(config.scripts) else frozenset()


@dataclass
class SelfplayResult:
    config: SelfplayConfig
    duels: list[DuelReport]
    wall_seconds: float
    jobs: int
    pool_sizes: tuple[int, int] | None = None
    deck_count: int = 0
    problems: list[str] = field(default_factory=list)   # deck files of deck_dir left out, one line each
    execution: RunInfo | None = None    # backend, retries, interrupted (duelhost.execution)

    @property
    def notes(self) -> list[str]:
        return self.execution.notes() if self.execution is not None else []

    # ----- figures -----
    def count(self, status: str) -> int:
        return sum(1 for d in self.duels if d.status == status)

    @property
    def completed(self) -> int:
        return sum(1 for d in self.duels if d.completed)

    @property
    def responses(self) -> int:
        return sum(d.responses for d in self.duels)

    @property
    def play_seconds(self) -> float:
        return sum(d.seconds for d in self.duels)

    def win_reasons(self) -> collections.Counter[str]:
        c: collections.Counter[str] = collections.Counter()
        for d in self.duels:
            if d.status == "win":
                name = WIN_REASON_NAMES.get(d.reason, f"effect 0x{d.reason:x}") if d.reason is not None else "?"
                c["draw" if d.winner == 2 else name] += 1
        return c

    def error_groups(self, kind: str) -> list[tuple[str, list[tuple[DuelReport, ErrorInfo]]]]:
        """(cause, [(duel, error), ...]) for errors of ``kind``, most frequent first."""
        groups: dict[str, list[tuple[DuelReport, ErrorInfo]]] = {}
        for d in self.duels:
            errors = ([d.error] if d.error is not None else []) + d.script_errors
            seen: set[str] = set()
            for e in errors:
                if e.kind == kind and e.cause not in seen:
                    seen.add(e.cause)
                    groups.setdefault(e.cause, []).append((d, e))
        return sorted(groups.items(), key=lambda kv: (-len(kv[1]), kv[0]))

    @property
    def exit_code(self) -> int:
        return 0 if all(d.completed and not d.script_errors for d in self.duels) else 1

    # ----- reports -----
    def summary(self) -> dict[str, Any]:
        rate = self.responses / self.play_seconds if self.play_seconds else 0.0
        return {
            "duels": len(self.duels),
            "completed": self.completed,
            "completed_ratio": round(self.completed / len(self.duels), 4) if self.duels else 0.0,
            "wins": self.count("win"),
            "win_reasons": dict(self.win_reasons().most_common()),
            "turn_cap": self.count("turn_cap"),
            "response_cap": self.count("response_cap"),
            "engine_error": self.count("engine_error"),
            "script_error": self.count("script_error"),
            "duels_with_script_errors": sum(1 for d in self.duels if d.script_errors or d.status == "script_error"),
            "duels_with_warnings": sum(1 for d in self.duels if d.warnings),
            "responses": self.responses,
            "play_seconds": round(self.play_seconds, 3),
            "wall_seconds": round(self.wall_seconds, 3),
            "responses_per_second": round(rate, 1),
            "responses_per_second_wall": round(self.responses / self.wall_seconds, 1) if self.wall_seconds else 0.0,
            "jobs": self.jobs,
        }

    def to_json(self) -> dict[str, Any]:
        cfg = self.config
        groups = {}
        for kind in ("engine", "script"):
            groups[kind] = [
                {
                    "cause": cause,
                    "duels": [d.index for d, _ in items],
                    "cards": sorted({e.card_code for _, e in items if e.card_code is not None}),
                    "message": items[0][1].message,
                    "where": items[0][1].where,
                    "traceback": items[0][1].traceback,
                }
                for cause, items in self.error_groups(kind)
            ]
        return {
            "config": {
                "scripts": str(cfg.scripts), "db": str(cfg.db), "duels": cfg.duels, "seed": cfg.seed,
                "decks": [str(p) for p in cfg.decks], "turn_limit": cfg.turn_limit,
                "deck_dir": str(cfg.deck_dir) if cfg.deck_dir is not None else None,
                "main_only": cfg.main_only, "mode": cfg.mode.describe(), "options": cfg.mode.options,
                "response_limit": cfg.response_limit, "keep_going": cfg.keep_going,
                "pool": None if self.pool_sizes is None else {"main": self.pool_sizes[0], "extra": self.pool_sizes[1]},
            },
            "summary": self.summary(),
            "skipped_decks": list(self.problems),
            "errors": groups,
            "duels": [d.to_json() for d in self.duels],
            "execution": self.execution.to_json() if self.execution is not None else None,
            "notes": self.notes,
        }

    def to_text(self, *, max_groups: int | None = None, details: bool = True) -> str:
        """The summary, then each error cause (with its first traceback when ``details``)."""
        cfg = self.config
        s = self.summary()
        n = len(self.duels) or 1
        lines = [f"skipped deck {p}" for p in self.problems]
        if cfg.deck_dir is not None:
            source = f"pairings of {self.deck_count} decks from {cfg.deck_dir}"
        elif cfg.decks:
            source = f"{self.deck_count or len(cfg.decks)} deck file(s)"
        elif self.pool_sizes is not None:
            extra = "no Extra Deck" if cfg.main_only else f"{self.pool_sizes[1]} Extra Deck cards"
            source = f"random decks from {self.pool_sizes[0]} Main Deck + {extra}"
        else:
            source = "random decks"
        lines.append(f"selfplay: {len(self.duels)} duels, seed {cfg.seed}, {source}, {cfg.mode.describe()}; "
                     f"scripts {cfg.scripts}, db {cfg.db}; caps {cfg.turn_limit or 'no'} turns, "
                     f"{cfg.response_limit} responses")
        lines.append(f"finished: {s['completed']}/{len(self.duels)} ({100 * s['completed'] / n:.1f}%) with no error")
        reasons = ", ".join(f"{k} {v}" for k, v in s["win_reasons"].items()) or "none"
        lines.append(f"  by a win: {s['wins']} ({reasons})")
        lines.append(f"  at the turn cap: {s['turn_cap']}")
        lines.append(f"  at the response cap: {s['response_cap']}")
        lines.append(f"stopped by an engine error: {s['engine_error']}")
        lines.append(f"stopped by a script error: {s['script_error']}")
        if cfg.keep_going:
            lines.append(f"duels with script errors: {s['duels_with_script_errors']}")
        if s["duels_with_warnings"]:
            warned = collections.Counter(w for d in self.duels for w in d.warnings)
            lines.append(f"duels that went on through a warning: {s['duels_with_warnings']}")
            lines.extend(f"  - [{n} duel(s)] {w}" for w, n in warned.most_common(max_groups or 10))
        lines.append(f"responses: {s['responses']} in {s['play_seconds']:.1f} s of play: "
                     f"{s['responses_per_second']:.0f} responses/s per job; "
                     f"{s['responses_per_second_wall']:.0f}/s overall "
                     f"({s['wall_seconds']:.1f} s wall, {self.jobs} job(s))")
        lines.extend(self.notes)
        for kind, title in (("engine", "Engine errors"), ("script", "Script errors")):
            groups = self.error_groups(kind)
            if not groups:
                continue
            lines.append("")
            lines.append(f"{title}: {len(groups)} cause(s)" + ("" if details else " (details in the report)"))
            for cause, items in groups[:max_groups]:
                cards = sorted({e.card_code for _, e in items if e.card_code is not None})
                first_d, first_e = items[0]
                lines.append(f"- [{len(items)} duel(s)] {cause}")
                if not details:
                    continue
                if cards:
                    lines.append("  cards: " + ", ".join(
                        f"{c}" + (f" ({e.card_name})" if (e := next((e for _, e in items if e.card_code == c), None))
                                   and e.card_name else "") for c in cards[:10])
                        + (f" and {len(cards) - 10} more" if len(cards) > 10 else ""))
                lines.append("  duels: " + ", ".join(f"#{d.index}" for d, _ in items[:12])
                             + (f" and {len(items) - 12} more" if len(items) > 12 else ""))
                lines.append(f"  first: duel #{first_d.index} (seed {first_d.seed}, {first_d.decks[0]} vs "
                             f"{first_d.decks[1]}), turn {first_e.turn}, after {first_e.response} responses")
                lines.append(f"  message: {first_e.message}")
                if first_e.traceback:
                    lines.extend("    " + ln for ln in first_e.traceback.rstrip().splitlines())
            if max_groups is not None and len(groups) > max_groups:
                lines.append(f"... and {len(groups) - max_groups} more cause(s)")
        return "\n".join(lines)


# ---------------------------------------------------------------------------
# One duel
# ---------------------------------------------------------------------------
class DuelTimeout(Exception):
    """The duel ran past its time limit."""


_PACKAGE_ROOT = str(Path(__file__).resolve().parent.parent)


def _innermost_frame(exc: BaseException) -> str | None:
    """``file:line in function`` of the innermost frame of our code in the traceback."""
    where = None
    for fs in traceback.extract_tb(exc.__traceback__):
        if fs.filename.startswith(_PACKAGE_ROOT) and not fs.filename.endswith("selfplay.py"):
            where = f"{os.path.relpath(fs.filename, _PACKAGE_ROOT)}:{fs.lineno} in {fs.name}"
    return where


def _normalise(text: str) -> str:
    """A message with numbers and addresses masked, for grouping."""
    text = re.sub(r"0x[0-9a-fA-F]+", "0x?", text)
    return re.sub(r"\d+", "N", text)


def _context_card(engine: Any) -> tuple[int | None, str]:
    """The card whose effect was being handled when the engine failed, and a description."""
    core = engine.core
    parts = []
    code = None
    try:
        if core.current_chain:
            ch = core.current_chain[-1]
            h = ch.triggering_effect.get_handler()
            code = h.data.code
            parts.append(f"chain link {ch.chain_count}: card {code}")
        if core.reason_effect is not None:
            h = core.reason_effect.get_handler()
            if h is not None:
                parts.append(f"reason effect of card {h.data.code}")
                code = code if code is not None else h.data.code
    except Exception:  # noqa: BLE001 - context is best effort
        pass
    return code, "; ".join(parts)


def _engine_error(duel: Any, exc: BaseException, cause_prefix: str = "") -> ErrorInfo:
    where = _innermost_frame(exc)
    code, context = _context_card(duel.engine) if duel is not None else (None, "")
    msg = f"{type(exc).__name__}: {exc}"
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    if context:
        tb += f"context: {context}\n"
    cause = getattr(exc, "cause", None) or (
        cause_prefix + _normalise(f"{type(exc).__name__}: {str(exc)[:200]}") + (f" at {where}" if where else ""))
    return ErrorInfo(kind="engine", cause=cause, message=msg, card_code=code,
                     card_name=duel.card_name(code) if code is not None and duel is not None else None,
                     where=where, traceback=tb,
                     turn=duel.engine.infos.turn_id if duel is not None else 0,
                     response=duel.responses if duel is not None else 0)


def _script_error(duel: Any, err: Any) -> ErrorInfo:
    """An ErrorInfo for a ScriptError record; a Python exception in a binding is an engine error."""
    where = f"{err.script}:{err.line}" if err.script and err.line is not None else err.script
    internal = err.kind == "internal"
    message = err.message
    if internal:
        last = (err.python_traceback or "").strip().splitlines()
        cause = "binding: " + _normalise(message[:200])
        if last:
            frames = [ln.strip() for ln in last if ln.strip().startswith("File ")]
            if frames:
                cause += " at " + _normalise_frame(frames[-1])
    else:
        # the message without its position; the position is what groups it
        text = re.sub(r"^\./script/[^:]+:\d+: ", "", message)
        cause = f"{err.kind}: {_normalise(text[:200])}" + (f" at {where}" if where else "")
    tb = err.traceback or ""
    if err.python_traceback:
        tb = (tb + "\n" if tb else "") + err.python_traceback
    if err.callback:
        tb += f"\n(callback: {err.callback}" + (f", chk={err.chk}" if err.chk is not None else "") + ")"
    return ErrorInfo(kind="engine" if internal else "script", cause=cause, message=message,
                     card_code=err.card_code, card_name=err.card_name, where=where, traceback=tb,
                     turn=duel.engine.infos.turn_id, response=duel.responses)


def _normalise_frame(line: str) -> str:
    m = re.search(r'File "([^"]+)", line (\d+), in (\S+)', line)
    if not m:
        return line
    path = m.group(1)
    if path.startswith(_PACKAGE_ROOT):
        path = os.path.relpath(path, _PACKAGE_ROOT)
    return f"{path}:{m.group(2)} in {m.group(3)}"


@dataclass
class _Setup:
    """What every duel of a run shares (built once, inherited by forked workers)."""

    config: SelfplayConfig
    db: CardDatabase
    pool: DeckPool | None
    decks: list[DeckChoice]
    seeds: list[int]
    groups: list[tuple[int, ...]] = field(default_factory=list)   # deck_dir: the pairings
    problems: list[str] = field(default_factory=list)             # deck files left out
    count: int = 0                                                 # duels in the run


def _read_deck_files(config: SelfplayConfig, db: CardDatabase) -> list[DeckChoice]:
    """The --deck files (a folder: its .ydk files); any that cannot be played stops selfplay."""
    decks = []
    for path in deck_files(config.decks):
        try:
            d = read_ydk(path)
        except Exception as exc:  # noqa: BLE001
            raise SelfplayError(f"{path}: {exc}") from exc
        missing = sorted({c for c in (*d.main, *d.extra) if c not in db})
        if missing:
            raise SelfplayError(f"{path}: card(s) with no row in {config.db}: "
                                + ", ".join(map(str, missing[:10])))
        decks.append(DeckChoice(name=path.name, main=d.main, extra=d.extra))
    return decks


def _prepare(config: SelfplayConfig) -> _Setup:
    if config.duels is not None and config.duels < 0:
        raise SelfplayError("the number of duels cannot be negative")
    if not config.scripts.is_dir():
        raise SelfplayError(f"{config.scripts}: not a folder of scripts")
    try:
        db = open_card_database(config.db)
    except BadInput as exc:
        raise SelfplayError(exc.message) from None
    decks: list[DeckChoice] = []
    pool = None
    groups: list[tuple[int, ...]] = []
    problems: list[str] = []
    if config.deck_dir is not None:
        files = read_deck_folder(config.deck_dir, db)
        problems = [f"{f.name}: {f.problem}" for f in files if f.problem]
        decks = [DeckChoice(f.name, f.main, f.extra) for f in files if not f.problem]
        groups = deck_pairs(len(decks), config.pair_offset, config.mode.decks)
        if not groups:
            raise SelfplayError(f"{config.deck_dir}: fewer than two playable .ydk files"
                                + "".join(f"\n  {p}" for p in problems))
    elif config.decks:
        decks = _read_deck_files(config, db)
    else:
        if next(config.scripts.glob("c*.lua"), None) is None:
            raise SelfplayError(f"{config.scripts}: no Main Deck cards with a script (no c<ID>.lua here)")
        pool = deck_pool(db, config.scripts, ot=0)
        leave = _left_out(config)
        if leave:                               # not the card that fails on purpose
            pool = DeckPool(main=tuple(c for c in pool.main if c not in leave),
                            extra=tuple(c for c in pool.extra if c not in leave), types=pool.types)
        try:                                    # fails early when the pool is too small
            random_deck(random.Random(0), pool, rule=config.mode.effective_rule, main_only=config.main_only)
        except ValueError as exc:
            raise SelfplayError(f"{config.scripts}: Main Deck cards with a script and a database row: "
                                f"{exc}") from None
    count = config.duels if config.duels is not None else (len(groups) if groups else 100)
    top = max(config.only) + 1 if config.only else count
    return _Setup(config=config, db=db, pool=pool, decks=decks, seeds=duel_seeds(config.seed, max(top, 0)),
                  groups=groups, problems=problems, count=count)


def _choose_decks(setup: _Setup, index: int, rng: random.Random) -> list[DeckChoice]:
    """The decks of duel ``index``: player 0's, player 1's, then (Tag Duel) their partners'.

    A deck folder: pairing ``index mod P``; deck files: deck ``index + s mod k`` for
    seat s; else random decks drawn from ``rng``."""
    seats = setup.config.mode.decks
    if setup.groups:
        return [setup.decks[i] for i in setup.groups[index % len(setup.groups)]]
    if setup.decks:
        n = len(setup.decks)
        return [setup.decks[(index + s) % n] for s in range(seats)]
    assert setup.pool is not None
    out = []
    for s in range(seats):
        main, extra = random_deck(rng, setup.pool, rule=setup.config.mode.effective_rule,
                                  main_only=setup.config.main_only)
        out.append(DeckChoice(name=f"random-{index}-{s}", main=tuple(main), extra=tuple(extra)))
    return out


def play_duel(setup: _Setup, index: int, progress: Any = None) -> DuelReport:
    """Play duel ``index`` of a run to its end and report how it went.

    ``progress`` (a watchdog progress array, optional) gets the turn and the
    responses so far, for a report of a duel its parent had to kill.  The
    duel's own ``config.timeout`` is checked between answers; the watchdog
    that runs duels in child processes (``run_selfplay``) kills it a little
    later whatever it is doing."""
    # lazy: the duel host (the whole engine) loads in the process that plays, so that
    # `duelhost --help`, which imports this module for its command, stays light
    from duelhost.host import Duel

    cfg = setup.config
    seed = setup.seeds[index]
    rng = random.Random(seed)
    decks = _choose_decks(setup, index, rng)
    duel_seed = rng.getrandbits(32)
    players = [RandomPlayer(rng.getrandbits(64)), RandomPlayer(rng.getrandbits(64))]
    report = DuelReport(index=index, seed=seed, decks=tuple(d.name for d in decks), status="engine_error")
    duel = None
    start = time.perf_counter()
    try:
        from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime (as Duel above)
        host = LuaScriptHost(cfg.scripts, time_budget=cfg.script_time_budget)
        duel = Duel(db=setup.db, seed=duel_seed, script_host=host, options=cfg.mode.options)
        for seat, deck in enumerate(decks):
            add = duel.add_deck if seat < 2 else duel.add_tag_deck
            add(seat % 2, deck.main, deck.extra, shuffle=True)
        duel.start()
        _play(duel, players, cfg, report, progress)
    except DuelTimeout as exc:
        report.status = "engine_error"
        report.error = _engine_error(duel, exc, "timeout: ")
        report.error.cause = f"timeout: the duel took more than {cfg.timeout:g} s"
    except Exception as exc:  # noqa: BLE001 - an engine error is what we report
        report.status = "engine_error"
        report.error = _engine_error(duel, exc)
    report.seconds = time.perf_counter() - start
    if duel is not None:
        report.warnings = list(dict.fromkeys(duel.engine.warnings))
        report.turns = duel.engine.infos.turn_id
        report.responses = duel.responses
        host = duel.script_host
        if host is not None and hasattr(host, "close"):
            try:
                host.close()
            except Exception:  # noqa: BLE001
                pass
    return report


class _RequestProblem(Exception):
    """A prompt with no legal answer, or a legal answer the duel refused."""

    def __init__(self, message: str, cause: str) -> None:
        super().__init__(message)
        self.cause = cause


def _play(duel: Any, players: list[Any], cfg: SelfplayConfig, report: DuelReport,
          progress: Any = None) -> None:
    host = duel.script_host
    errors = host.errors if host is not None and hasattr(host, "errors") else []
    seen = 0
    deadline = time.perf_counter() + cfg.timeout if cfg.timeout else None
    while True:
        if deadline is not None and time.perf_counter() > deadline:
            raise DuelTimeout(f"the duel took more than {cfg.timeout:g} s")
        if progress is not None:
            progress[0], progress[1] = duel.engine.infos.turn_id, duel.responses
        req = duel.advance()
        if len(errors) > seen:
            new = errors[seen:]
            seen = len(errors)
            infos = [_script_error(duel, e) for e in new]
            engine = [e for e in infos if e.kind == "engine"]
            if engine:
                report.status = "engine_error"
                report.error = engine[0]
                report.script_errors.extend(e for e in infos if e.kind == "script")
                return
            if not cfg.keep_going:
                report.status = "script_error"
                report.error = infos[0]
                report.script_errors.extend(infos[1:])
                return
            report.script_errors.extend(infos)
        if req is None:
            win = duel.win()
            if win is None:
                raise RuntimeError("the duel ended without MSG_WIN")
            report.status, report.winner, report.reason = "win", win.player, win.reason
            return
        if cfg.turn_limit and duel.engine.infos.turn_id > cfg.turn_limit:
            report.status = "turn_cap"
            return
        if duel.responses >= cfg.response_limit:
            report.status = "response_cap"
            return
        try:
            answer = players[req.player](duel, req)
        except NoValidResponse as exc:
            raise _RequestProblem(f"{exc} (prompt: {req.describe(duel.card_name)})",
                                  f"no legal answer: {_normalise(str(exc))}") from exc
        try:
            duel.respond(answer)
        except InvalidResponse as exc:
            raise _RequestProblem(f"a random legal answer was refused: {exc.reason} "
                                  f"(prompt: {req.describe(duel.card_name)}; answer {answer!r})",
                                  f"legal answer refused: {_normalise(exc.reason)}") from exc


# ---------------------------------------------------------------------------
# Many duels, in worker processes
# ---------------------------------------------------------------------------
# A duel the watchdog killed gets this long beyond its own --timeout (checked
# between answers in the child) to end by itself and report with full detail.
KILL_GRACE = 2.0


class SelfplayWork(Work):
    """Selfplay as a duelhost.execution Work: the state is the run's set-up (built once
    here and inherited by forked workers, or built again on a Ray node), an item is
    a duel number, a duel whose process was killed or died is reported with the
    turn and responses it had reached."""

    def __init__(self, config: SelfplayConfig, setup: _Setup | None = None) -> None:
        self.config = config
        self.setup = setup

    def __getstate__(self) -> dict[str, Any]:
        return {"config": self.config, "setup": None}    # a remote worker builds its own

    def prepare(self) -> _Setup:
        return self.setup if self.setup is not None else _prepare(self.config)

    def run(self, setup: _Setup, index: int, progress: Any) -> dict[str, Any]:
        report = play_duel(setup, index, progress)
        gc.collect()
        return report.to_json()

    def lost(self, index: int, lost: Lost) -> dict[str, Any]:
        assert self.setup is not None
        return _lost_report(self.setup, index, lost).to_json()

    def shipped(self) -> dict[str, Path]:
        cfg = self.config
        out = {"scripts": cfg.scripts, "db": cfg.db}
        out.update({f"deck{i}": p for i, p in enumerate(cfg.decks)})
        if cfg.deck_dir is not None:
            out["deck_dir"] = cfg.deck_dir
        return out

    def on_node(self, paths: dict[str, Path]) -> "SelfplayWork":
        cfg = dataclasses.replace(self.config, scripts=paths["scripts"], db=paths["db"],
                                  decks=[paths[f"deck{i}"] for i in range(len(self.config.decks))],
                                  deck_dir=paths.get("deck_dir"))
        return SelfplayWork(cfg)

    def chunk_size(self, items: int, slots: int) -> int:
        return max(1, min(8, items // (8 * max(1, slots))))


def _lost_report(setup: _Setup, index: int, lost: Lost) -> DuelReport:
    """The report of a duel whose process was killed at its deadline or died:
    how far it got (turn, responses) from the progress it left."""
    cfg = setup.config
    turns, responses = lost.progress[0], lost.progress[1]
    where = f"at turn {turns} after {responses} responses"
    if lost.how == "timeout":
        cause = f"timeout: the duel took more than {cfg.timeout:g} s"
        message = (f"the duel took more than {cfg.timeout:g} s and its process was killed {where} "
                   f"(a script or the engine did not return)")
    else:
        cause = f"worker process died (exit code {lost.exitcode})"
        message = f"the duel's process died (exit code {lost.exitcode}) {where}"
    try:
        decks = tuple(d.name for d in _choose_decks(setup, index, random.Random(setup.seeds[index])))
    except Exception:  # noqa: BLE001 - the names are only for the report
        decks = ("?", "?")
    err = ErrorInfo(kind="engine", cause=cause, message=message, turn=turns, response=responses)
    return DuelReport(index=index, seed=setup.seeds[index], decks=decks, status="engine_error",
                      turns=turns, responses=responses, seconds=lost.seconds, error=err)


def run_selfplay(config: SelfplayConfig, *, jobs: int = 1,
                 progress: Callable[[DuelReport], None] | None = None,
                 backend: Backend | None = None) -> SelfplayResult:
    """Play the duels of ``config`` in ``jobs`` forked worker processes, each duel with a
    deadline that always fires (duelhost.execution); ``jobs=0`` plays them here, with
    only the in-process checks (for tests and profiling); ``backend`` (e.g.
    ``Backend.ray(address)``) overrides ``jobs``.  The duels are in index order
    whatever the backend; after Ctrl-C the result holds the duels done and
    ``result.execution.interrupted`` is set."""
    config = dataclasses.replace(config, leave_out=_left_out(config))
    setup = _prepare(config)
    indices = sorted(set(config.only)) if config.only else list(range(setup.count))
    if backend is None:
        backend = Backend.local(jobs)
    timeout = config.timeout + KILL_GRACE if config.timeout else None
    start = time.perf_counter()
    work = SelfplayWork(config, setup)
    try:
        got, info = execute(work, indices, backend, timeout=timeout,
                            on_result=(lambda _i, d: progress(DuelReport.from_json(d))) if progress else None)
    except ExecutionError as exc:
        raise SelfplayError(str(exc)) from None
    wall = time.perf_counter() - start
    pool_sizes = (len(setup.pool.main), len(setup.pool.extra)) if setup.pool is not None else None
    slots = info.slots if backend.kind == "ray" else max(1, min(backend.jobs, len(indices) or 1))
    return SelfplayResult(config=config, duels=[DuelReport.from_json(d) for d in got if d is not None],
                          wall_seconds=wall, jobs=slots, pool_sizes=pool_sizes,
                          deck_count=len(setup.decks), problems=setup.problems, execution=info)


def default_config(**kwargs: Any) -> SelfplayConfig:
    """A config with the bundled scripts and cards.db unless given."""
    if kwargs.get("scripts") is None:
        kwargs["scripts"] = paths.bundled_scripts()
    if kwargs.get("db") is None:
        kwargs["db"] = paths.bundled_db()
    return SelfplayConfig(**kwargs)


def dumps(result: SelfplayResult) -> str:
    return json.dumps(result.to_json(), indent=1)


# ---------------------------------------------------------------------------
# The command (registered on the ``duelhost`` group by duelhost.cli)
# ---------------------------------------------------------------------------

@click.command("selfplay")
@click.option("--scripts", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Folder of c<ID>.lua scripts (default: the bundled scripts/).")
@click.option("--db", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Card database in the cards.cdb schema (default: the bundled cards.db).")
@click.option("--duels", "-n", type=click.IntRange(min=0), default=None,
              help="How many duels to play (default 100; with --decks one per pairing).")
@click.option("--seed", "-s", type=int, default=0, show_default=True,
              help="Seed of the run: duel i is the same for the same seed.")
@click.option("--deck", "decks", multiple=True, type=click.Path(exists=True, path_type=Path),
              help="A .ydk deck (repeatable; a folder means all its .ydk files).  Duel i puts deck "
                   "i mod k against deck i+1 mod k.  Without --deck each player gets a random "
                   "deck (40 Main + 15 Extra Deck cards) from the scripted cards of --scripts.")
@click.option("--decks", "deck_dir", type=click.Path(exists=True, file_okay=False, path_type=Path), default=None,
              help="Pair the .ydk files of this folder (deck k against deck k+m): duel i plays pairing "
                   "i mod P; a deck that cannot be played is one line of the report.")
@click.option("--pair-offset", type=click.IntRange(min=1), default=None,
              help="With --decks: m (default: the number of decks / 2, / 4 with --tag).")
@click.option("--main-only", is_flag=True, help="Random decks with no Extra Deck (40 Main Deck cards).")
@click.option("--turn-limit", type=click.IntRange(min=0), default=40, show_default=True,
              help="Stop a duel at the first prompt after this turn (0: no turn cap).")
@click.option("--response-limit", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Stop a duel after this many responses.")
@click.option("--timeout", type=click.FloatRange(min=0), default=300.0, show_default=True,
              help="Seconds one duel may take (0: no limit); past it the duel counts as an engine error "
                   "(checked between answers; its process is killed 2 s later whatever it is doing).")
@click.option("--script-time-budget", type=click.FloatRange(min=0.1), default=60.0, show_default=True,
              help="Wall-clock seconds one Lua call may run before it fails as a script timeout.")
@click.option("--keep-going", is_flag=True,
              help="Let a duel go on after a script error (as the reference does) instead of stopping it.")
@click.option("--only", "only", multiple=True, type=click.IntRange(min=0),
              help="Play only duel number I of the run (repeatable): replays one duel of a report.")
@click.option("--jobs", "-j", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes (on this machine; with --ray the cluster's CPUs).")
@ray_option
@click.option("--report", type=click.Choice(["text", "json"]), default="text")
@click.option("--output", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the report here (a short text summary is still printed).")
@click.option("--max-causes", type=click.IntRange(min=0), default=None,
              help="Text report: list at most N error causes of each kind.")
@click.option("--progress/--no-progress", default=None,
              help="Progress bar on standard error (default: when it is a terminal).")
@mode_options
@stops_on_interrupt("selfplay stopped, no report")
def selfplay_command(scripts: Path | None, db: Path | None, duels: int | None, seed: int,
                     decks: tuple[Path, ...], deck_dir: Path | None, pair_offset: int | None, main_only: bool,
                     turn_limit: int, response_limit: int, timeout: float, script_time_budget: float,
                     keep_going: bool, only: tuple[int, ...], jobs: int, report: str, output: Path | None,
                     max_causes: int | None, progress: bool | None, mode: DuelMode,
                     ray: str | None = None) -> None:
    """Play seeded duels between random players and report how they end.

    Prints the duels finished (by LP, deck-out, other win reasons, at the turn
    or response cap), the duels stopped by an engine error (a Python exception,
    a prompt with no legal answer, a legal answer refused) or a script error,
    grouped by cause with card codes and a traceback, and responses per second.
    Exit code 1 when any duel hit an error, 2 when selfplay cannot run.
    """
    import logging   # lazy: `duelhost --help`, which imports this module, loads no logging

    # script errors are in the report; the host's log lines would only repeat them
    logging.getLogger("duelhost.scripts").setLevel(logging.CRITICAL)
    logging.getLogger("duelhost.engine").setLevel(logging.ERROR)     # warnings are in the report too
    if decks and deck_dir is not None:
        raise click.UsageError("pass either --deck files or --decks FOLDER")
    if duels is None and deck_dir is None:
        duels = 100
    config = default_config(scripts=scripts, db=db, duels=duels, seed=seed, decks=list(decks),
                            deck_dir=deck_dir, pair_offset=pair_offset, main_only=main_only, mode=mode,
                            turn_limit=turn_limit, response_limit=response_limit, timeout=timeout,
                            keep_going=keep_going, script_time_budget=script_time_budget,
                            only=list(only) or None)
    # about one per deck (duels is set above when there is no folder)
    total = len(set(only)) if only else (duels if duels is not None or deck_dir is None
                                         else len(list(deck_dir.glob("*.ydk"))))
    with progress_display(total, "playing duels", progress) as update:
        try:
            result = run_selfplay(config, backend=backend_from_options(ray, jobs), progress=update)
        except SelfplayError as exc:
            raise BadInput(str(exc)) from exc
    text = dumps(result) if report == "json" else result.to_text(max_groups=max_causes)
    if output is not None:
        output.write_text(text + "\n", encoding="utf-8")
        click.echo(result.to_text(max_groups=max_causes, details=False))
    else:
        click.echo(text)
    finish_interrupted(result.execution, "selfplay")
    sys.exit(result.exit_code)
