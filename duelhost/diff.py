"""``duelhost diff``: our engine against the reference, duel by duel.

``run_golden_diff`` replays the recorded duels of a golden file (see
duelhost.golden and duelhost.conformance) and summarises: identical duels out
of the total, and for each other duel where it first differs.
"""

from __future__ import annotations

import collections
import importlib
import random
import statistics
import sys
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from duelhost.engine import constants as C
from duelhost.engine.carddb import CardDatabase
from duelhost.engine.core_constants import CHINT_DESC_ADD, CHINT_DESC_REMOVE
from duelhost.engine.duel import card_reader_from_db
from duelhost.engine.messages import MsgCardHint, MsgNewPhase, MsgNewTurn, MsgWin
from duelhost.engine.responses import NoValidResponse, encode_response, random_response
from duelhost.engine.ydk import read_ydk

from .conformance import ReplayResult, replay_record
from .deckpool import DeckFile, DeckPool, deck_pairs, deck_pool, random_deck, random_main_deck, read_deck_folder
from .driver import Driver, DuelSetup
from .execution import Backend, ExecutionError, RunInfo, Work, execute
from .execution.lost import Lost
from .golden import GoldenError, load_records, record_card_reader
from .modes import DuelMode
from .reference import ReferenceCore
from .replay import replay_from_duel, write_replay
from .state import PHASE_NAMES


@dataclass
class DiffSummary:
    source: str
    results: list[ReplayResult] = field(default_factory=list)
    execution: RunInfo | None = None     # backend, retries, interrupted (duelhost.execution)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def identical(self) -> int:
        return sum(1 for r in self.results if r.identical)

    def causes(self) -> collections.Counter:
        """Divergences grouped by the kind of the reference's message at the first difference."""
        c: collections.Counter = collections.Counter()
        for r in self.results:
            if r.identical:
                continue
            if r.error is not None:
                last = r.error.strip().splitlines()[-1]
                c[f"engine error: {last}"] += 1
            elif r.divergence is not None:
                exp = r.divergence.expected
                act = r.divergence.actual
                c[f"{exp.NAME if exp else '(end)'} vs {act.NAME if act else '(end)'}"] += 1
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source,
            "identical": self.identical,
            "total": self.total,
            "causes": dict(self.causes().most_common()),
            "duels": [
                {
                    "id": r.id,
                    "status": r.status,
                    "steps_compared": r.steps,
                    "steps_total": r.total_steps,
                    "divergence": None if r.divergence is None else {
                        "step": r.divergence.step,
                        "message_index": r.divergence.index,
                        "turn": r.divergence.turn,
                        "reference": r.divergence.expected.describe() if r.divergence.expected else None,
                        "duelhost": r.divergence.actual.describe() if r.divergence.actual else None,
                        "before": [m.describe() for m in r.divergence.context],
                    },
                    "error": r.error,
                }
                for r in self.results
            ],
            "execution": self.execution.to_json() if self.execution is not None else None,
            "notes": self.execution.notes() if self.execution is not None else [],
        }

    def to_text(self) -> str:
        lines = []
        for r in self.results:
            if r.identical:
                lines.append(f"{r.id}: identical ({r.total_steps} steps)")
            elif r.error is not None:
                lines.append(f"{r.id}: ENGINE ERROR at step {r.steps}\n{r.error}")
            else:
                lines.append(f"{r.id}: differs at {r.divergence.describe()}")
        lines.append("")
        lines.append(f"{self.identical} / {self.total} duels identical ({self.source})")
        for cause, n in self.causes().most_common(10):
            lines.append(f"  {n:4d}  {cause}")
        lines.extend(self.execution.notes() if self.execution is not None else [])
        return "\n".join(lines)


def run_golden_diff(path: Path, *, scripts: Path | None = None, limit: int | None = None,
                    only: set[str] | None = None, progress: Any = False,
                    duel_timeout: float | None = None, jobs: int = 1,
                    backend: Backend | None = None) -> DiffSummary:
    """Replay the recorded duels of ``path`` and compare every message byte.

    With ``duel_timeout`` each duel is replayed in a forked child (``jobs`` of
    them, or on ``backend``: duelhost.execution) that is killed after that many
    seconds whatever it is doing; the duel is then an error saying how many
    steps it got through, and the run goes on.  Without it the duels are
    replayed here, one after the other.  ``progress``: True prints one line per
    duel on standard error, a callable gets each result.
    """
    summary = DiffSummary(source=str(path))
    records = []
    for i, record in enumerate(load_records(path)):
        if limit is not None and i >= limit:
            break
        if only is not None and record.id not in only:
            continue
        if record.scripts is not None and scripts is None:
            raise GoldenError(f"{path}: duel {record.id} needs card scripts: pass --scripts DIR")
        records.append(record)
    if backend is None:
        backend = Backend.local(jobs) if duel_timeout is not None else Backend.inline()

    def report(_i: int, result: ReplayResult) -> None:
        if callable(progress):
            progress(result)
        elif progress:
            print(f"{result.id}: {result.status}", file=sys.stderr)

    try:
        got, info = execute(GoldenWork(scripts, duel_timeout), records, backend, timeout=duel_timeout,
                            on_result=report)
    except ExecutionError as exc:
        raise GoldenError(str(exc)) from None
    summary.results = [r for r in got if r is not None]
    summary.execution = info
    return summary


class GoldenWork(Work):
    """Golden replays as a duelhost.execution Work: an item is a recorded duel."""

    def __init__(self, scripts: Path | None, timeout: float | None) -> None:
        self.scripts = scripts
        self.timeout = timeout

    def prepare(self) -> Any:
        """Import the engine and the Lua side once per worker process (a forked child
        inherits them: its deadline is spent on the duel, not on imports)."""
        for name in ("duelhost.engine.duel", "duelhost.bindings.host", "duelhost.host"):
            importlib.import_module(name)
        from duelhost.bindings import registry   # lazy: the Lua runtime, loaded here for the workers
        registry.load_libraries()
        return None

    def run(self, state: Any, record: Any, progress: Any) -> ReplayResult:
        script = None
        if record.scripts is not None:
            from duelhost.bindings.host import LuaScriptHost   # lazy: the Lua runtime, for a duel with scripts
            script = LuaScriptHost(self.scripts)
        return replay_record(record, record_card_reader(record), script, progress)

    def lost(self, record: Any, lost: Lost) -> ReplayResult:
        total = len(record.steps)
        step = lost.progress[0]
        return ReplayResult(record.id, False, step, total,
                            error=f"{lost.how}: {lost.describe(self.timeout)} at step {step} of {total}")

    def shipped(self) -> dict[str, Path]:
        return {"scripts": self.scripts} if self.scripts is not None else {}

    def on_node(self, paths: dict[str, Path]) -> "GoldenWork":
        return GoldenWork(paths.get("scripts", self.scripts), self.timeout)


# =====================================================================================
# Live mode: the same seeded duel in both cores at once
# =====================================================================================

CONTEXT_MESSAGES = 6
DEFAULT_TURN_LIMIT = 40
DEFAULT_RESPONSE_LIMIT = 3000
DEFAULT_SCRIPT_TIME_BUDGET = 60.0
DEFAULT_DUEL_TIMEOUT = 600.0


@dataclass
class LiveDivergence:
    """Where the two message streams first differ."""

    index: int                 # message index in the whole stream (0 = first message after start)
    turn: int                  # MSG_NEW_TURN count so far
    phase: int | None          # the last MSG_NEW_PHASE's phase (None before the first)
    response: int              # responses sent before it
    reference: Any             # the reference's message there (None: its stream had ended)
    ours: Any                  # ours (None: our stream had ended)
    context: list[Any] = field(default_factory=list)   # the agreeing messages just before

    @property
    def cause(self) -> str:
        ref = self.reference.NAME if self.reference is not None else "(end)"
        us = self.ours.NAME if self.ours is not None else "(end)"
        return f"{ref} vs {us}"

    def describe(self, name_of: Any = None) -> str:
        phase = PHASE_NAMES.get(self.phase, hex(self.phase)) if self.phase is not None else "-"
        ref = self.reference.describe(name_of) if self.reference is not None else "(end of stream)"
        ours = self.ours.describe(name_of) if self.ours is not None else "(end of stream)"
        lines = [f"message {self.index} (turn {self.turn}, {phase} Phase, after {self.response} responses)",
                 f"  reference: {ref}",
                 f"  duelhost:  {ours}"]
        if self.context:
            lines.append("  before:")
            lines.extend(f"    {m.describe(name_of)}" for m in self.context)
        return "\n".join(lines)

    def to_json(self, name_of: Any = None) -> dict[str, Any]:
        return {
            "message_index": self.index, "turn": self.turn, "phase": self.phase,
            "responses": self.response, "cause": self.cause,
            "reference": self.reference.describe(name_of) if self.reference is not None else None,
            "reference_hex": self.reference.encode().hex() if self.reference is not None else None,
            "duelhost": self.ours.describe(name_of) if self.ours is not None else None,
            "duelhost_hex": self.ours.encode().hex() if self.ours is not None else None,
            "before": [m.describe(name_of) for m in self.context],
        }


@dataclass
class LiveResult:
    """One duel played in both cores."""

    id: str
    seed: int
    status: str                # identical / diverged / error / harness
    end: str | None            # win / cap_turns / cap_responses / None when it stopped early
    agreeing: int              # messages both cores wrote identically, from the start
    messages: int              # messages the reference wrote (compared so far)
    responses: int
    turns: int
    winner: int | None = None
    reason: int | None = None
    divergence: LiveDivergence | None = None
    error: str | None = None
    decks: list[list[int]] | None = None
    seed_sequence: list[int] | None = None
    seconds: float = 0.0
    reference_seconds: float = 0.0   # of ``seconds``, in the reference's process()/get_message() calls
    our_seconds: float = 0.0         # of ``seconds``, in our engine's steps
    script_errors: dict[str, list[str]] = field(default_factory=dict)   # "reference"/"duelhost" -> texts
    address_orders: int = 0    # runs of hint messages the reference wrote in its address order (settle_hint_order)
    sent: list[bytes] = field(default_factory=list, repr=False)   # every response sent to both cores
    setup: Any = field(default=None, repr=False)                   # the DuelSetup both cores got

    @property
    def identical(self) -> bool:
        return self.status == "identical"

    @property
    def cause(self) -> str | None:
        if self.identical:
            return None
        if self.divergence is not None:
            return self.divergence.cause
        if self.status == "timeout" and (self.reference_seconds or self.our_seconds):
            # grouped by whose time it was, not by the figures of each duel
            whose = "in the reference" if self.reference_seconds > self.our_seconds else "in duelhost"
            return f"timeout: the duel ran past its time-out, most of it {whose}"
        if self.error is not None:
            last = self.error.strip().splitlines()[-1] if self.error.strip() else "?"
            return f"{self.status}: {last[:160]}"
        return self.status

    def to_json(self, name_of: Any = None) -> dict[str, Any]:
        return {
            "id": self.id, "seed": self.seed, "status": self.status, "end": self.end,
            "agreeing_messages": self.agreeing, "reference_messages": self.messages,
            "responses": self.responses, "turns": self.turns, "winner": self.winner,
            "reason": self.reason, "seconds": round(self.seconds, 3),
            "reference_seconds": round(self.reference_seconds, 3), "our_seconds": round(self.our_seconds, 3),
            "divergence": self.divergence.to_json(name_of) if self.divergence else None,
            "error": self.error, "script_errors": self.script_errors,
            "address_dependent_orders": self.address_orders,
            "seed_sequence": self.seed_sequence, "decks": self.decks,
        }


WIN_REASONS = {0: "surrender", 1: "LP", 2: "deck-out", 3: "timeout", 4: "connection lost"}


def how_it_ended(r: LiveResult) -> str:
    """``win by LP``, ``win by effect 0x11``, ``draw``, ``cap_turns``, ``cap_responses``,
    or the status of a duel that stopped early (diverged, error, timeout, ...)."""
    if r.end == "win":
        return "draw" if r.winner == 2 else f"win by {win_reason(r.reason)}"
    return r.end or r.status


def win_reason(reason: int | None) -> str:
    """MSG_WIN's reason: LP (1), deck-out (2)..., else the effect's code."""
    if reason is None:
        return "?"
    return WIN_REASONS.get(reason, f"effect 0x{reason:x}")


# MSG_CARD_HINT types whose order the reference takes from its heap: it walks a
# card's effect index, an unordered map keyed by effect address, and the field's
# phase-reset effects, an unordered set of effect addresses (golden README,
# "Address-dependent output"; the same duel comes out in either order run to run)
_ADDRESS_ORDERED_HINTS = (CHINT_DESC_ADD, CHINT_DESC_REMOVE)


def settle_hint_order(theirs: list[Any], mine: list[Any]) -> tuple[list[Any], int]:
    """``mine`` with each run of consecutive client-hint messages (MSG_CARD_HINT
    DESC_ADD / DESC_REMOVE, of one card or of several removed by one phase reset)
    put in the reference's order when the two runs hold the same messages in
    another order -- the one output the reference itself writes in an
    address-dependent order.  Returns the list and how many runs were reordered;
    anything else is left as it is, to be compared byte for byte."""
    def is_hint(m: Any) -> bool:
        return isinstance(m, MsgCardHint) and m.type in _ADDRESS_ORDERED_HINTS

    out = list(mine)
    settled = 0
    i = 0
    while i < min(len(theirs), len(out)):
        if not (is_hint(theirs[i]) and is_hint(out[i])):
            i += 1
            continue
        j = i
        while (j < len(theirs) and j < len(out) and is_hint(theirs[j]) and is_hint(out[j])
               and theirs[j].type == theirs[i].type):
            j += 1
        a = [m.encode() for m in theirs[i:j]]
        b = [m.encode() for m in out[i:j]]
        if a != b and sorted(a) == sorted(b):
            out[i:j] = theirs[i:j]
            settled += 1
        i = max(j, i + 1)
    return out, settled


@dataclass
class LiveSummary:
    source: str
    results: list[LiveResult] = field(default_factory=list)
    name_of: Any = None
    problems: list[str] = field(default_factory=list)   # deck files left out, one line each
    execution: RunInfo | None = None     # backend, retries, interrupted (duelhost.execution)

    @property
    def total(self) -> int:
        return len(self.results)

    @property
    def identical(self) -> int:
        return sum(1 for r in self.results if r.identical)

    def median_agreeing(self) -> float:
        return float(statistics.median(r.agreeing for r in self.results)) if self.results else 0.0

    def causes(self) -> collections.Counter:
        """Divergences grouped by message kind (reference's vs ours at the first difference)."""
        return collections.Counter(r.cause for r in self.results if not r.identical)

    def ends(self) -> collections.Counter:
        """How the identical duels ended (win / cap_turns / cap_responses)."""
        return collections.Counter(r.end or r.status for r in self.results if r.identical)

    def endings(self) -> collections.Counter:
        """How every duel ended (how_it_ended)."""
        return collections.Counter(how_it_ended(r) for r in self.results)

    def to_json(self) -> dict[str, Any]:
        return {
            "source": self.source, "identical": self.identical, "total": self.total,
            "median_agreeing_messages": self.median_agreeing(),
            "identical_ends": dict(self.ends()),
            "endings": dict(self.endings().most_common()),
            "causes": dict(self.causes().most_common()),
            "address_dependent_orders": sum(r.address_orders for r in self.results),
            "skipped_decks": list(self.problems),
            "duels": [r.to_json(self.name_of) for r in self.results],
            "execution": self.execution.to_json() if self.execution is not None else None,
            "notes": self.execution.notes() if self.execution is not None else [],
        }

    def line(self, r: LiveResult) -> str:
        if r.identical:
            won = f" (player {r.winner} by {win_reason(r.reason)})" if r.end == "win" and r.winner != 2 else ""
            return (f"{r.id}: identical to the {r.end}{won} ({r.messages} messages, {r.responses} responses, "
                    f"{r.turns} turns)")
        if r.divergence is not None:
            return f"{r.id}: differs at {r.divergence.describe(self.name_of)}"
        return f"{r.id}: {r.status.upper()} after {r.agreeing} agreeing messages\n{r.error}"

    def to_text(self) -> str:
        lines = [f"skipped deck {p}" for p in self.problems]
        lines += [self.line(r) for r in self.results]
        lines.append("")
        lines.append(f"{self.identical} / {self.total} duels identical ({self.source})")
        if self.problems:
            lines.append(f"  {len(self.problems)} deck file(s) left out (listed above)")
        ends = ", ".join(f"{n} {k}" for k, n in self.ends().most_common())
        if ends:
            lines.append(f"  identical duels ended: {ends}")
        endings = ", ".join(f"{n} {k}" for k, n in self.endings().most_common())
        if endings:
            lines.append(f"  all duels ended: {endings}")
        lines.append(f"  median agreeing prefix: {self.median_agreeing():g} messages")
        ref_s = sum(r.reference_seconds for r in self.results)
        our_s = sum(r.our_seconds for r in self.results)
        if ref_s or our_s:
            lines.append(f"  time in the cores: reference {ref_s:.1f} s, duelhost {our_s:.1f} s")
        orders = [r for r in self.results if r.address_orders]
        if orders:
            lines.append(f"  {len(orders)} duel(s) with client hints in the reference's address-dependent "
                         f"order ({sum(r.address_orders for r in orders)} run(s) compared as sets)")
        for cause, n in self.causes().most_common(10):
            lines.append(f"  {n:4d}  {cause}")
        lines.extend(self.execution.notes() if self.execution is not None else [])
        return "\n".join(lines)


def random_setup(rng: Any, pool: Any, decks: list[Any] | None = None, *, mode: Any = None,
                 main_only: bool = False) -> DuelSetup:
    """Decks and seed sequence for one duel, drawn from ``rng`` as the recordings did.

    With ``decks`` (two .ydk Decks, four in a Tag Duel: player 0, player 1, then
    their partners) each Main Deck is shuffled by ``rng`` and the Extra Deck kept
    in file order; otherwise random decks are drawn from ``pool`` (a
    deckpool.DeckPool: 40 Main + 15 Extra Deck cards allowed under the mode's
    rule, only the 40 with ``main_only``; a plain list of codes: 40-card Main
    Decks).  Then 8 x 32 random bits make the seed sequence.  Players 0 and 1 get
    ``new_card``, the partners ``new_tag_card``; the options are the mode's.
    """
    mode = mode if mode is not None else DuelMode()
    cards: list[tuple[int, int, int, int, int, int]] = []
    tag_cards: list[tuple[int, int, int]] = []
    mains: list[list[int]] = []
    for seat in range(mode.decks):
        p = seat % 2
        if decks is not None:
            main = list(decks[seat].main)
            main = rng.sample(main, len(main))
            extra = list(decks[seat].extra)
        elif isinstance(pool, DeckPool):
            main, extra = random_deck(rng, pool, rule=mode.effective_rule, main_only=main_only)
        else:
            main, extra = random_main_deck(rng, pool or []), []
        mains.append(main)
        if seat < 2:
            cards.extend((code, p, p, C.LOCATION_DECK, 0, C.POS_FACEDOWN_DEFENSE) for code in main)
            cards.extend((code, p, p, C.LOCATION_EXTRA, 0, C.POS_FACEDOWN_DEFENSE) for code in extra)
        else:
            tag_cards.extend((code, p, C.LOCATION_DECK) for code in main)
            tag_cards.extend((code, p, C.LOCATION_EXTRA) for code in extra)
    seed_sequence = [rng.getrandbits(32) for _ in range(8)]
    return DuelSetup(seed_sequence=seed_sequence, cards=cards, decks=mains, options=mode.options,
                     tag_cards=tag_cards)


def _describe_error() -> str:
    return traceback.format_exc()


def set_up_both(ref: Any, db: Any, setup: DuelSetup, script: Any) -> Driver:
    """The same players, cards and Tag partners' cards, in the same order, into a
    reference duel and into a new duel of ours (its Driver, seeded as ``setup`` says);
    both still to be started with ``setup.options``."""
    setup.apply(ref.set_player_info, ref.new_card, ref.new_tag_card)
    return Driver.from_setup(card_reader_from_db(db), setup, script)


def play_side_by_side(ref_core: Any, db: Any, scripts: Path | None, setup: DuelSetup, rng: Any, *,
                      duel_id: str = "duel", seed: int = 0, turn_limit: int = DEFAULT_TURN_LIMIT,
                      response_limit: int = DEFAULT_RESPONSE_LIMIT, responder: Any = None,
                      card_pool: list[Any] | None = None,
                      script_time_budget: float = DEFAULT_SCRIPT_TIME_BUDGET,
                      on_step: Any = None, prepare: Any = None, on_side: Any = None) -> LiveResult:
    """Play one duel in the reference and in our engine, answering the reference's prompts.

    ``script_time_budget``: CPU seconds one Lua call may take in our engine
    (the reference has no such limit; group checks of the real utility.lua can
    take seconds in our engine).  ``on_step(result)`` is called after every
    agreeing step (progress), ``on_side(side, result)`` before each core's turn to run (1 the
    reference, 2 ours; 0 after both) and after it, so that a duel killed inside one call
    can still say which core it was in.  ``prepare(ref, ours, script_host)`` runs after the
    cards are added and before both duels start (a puzzle file, puzzle_diff.py).  Each answer is chosen by ``responder(prompt)`` (default: a uniformly random
    legal response drawn from ``rng``) from the *reference's* prompt and sent to
    both cores.  Stops at the first message that differs, at MSG_WIN, or at the
    first prompt after turn ``turn_limit`` (0: no turn cap) or ``response_limit``
    responses.
    """
    start = time.perf_counter()
    result = LiveResult(id=duel_id, seed=seed, status="identical", end=None, agreeing=0, messages=0,
                        responses=0, turns=0, decks=setup.decks,
                        seed_sequence=list(setup.seed_sequence) if setup.seed_sequence else None,
                        setup=setup)

    if setup.seed is not None:
        ref = ref_core.create_duel(seed=setup.seed)
    else:
        ref = ref_core.create_duel(setup.seed_sequence)
    ref_errors = len(ref_core.errors)
    script = None
    ours = None
    try:
        if scripts is not None:
            from duelhost.bindings.host import LuaScriptHost   # lazy: as GoldenWork.run
            script = LuaScriptHost(scripts, time_budget=script_time_budget)
        ours = set_up_both(ref, db, setup, script)
        if prepare is not None:
            prepare(ref, ours.engine, script)
        ref.start(setup.options)
        ours.start(setup.options)

        history: list[Any] = []
        phase: int | None = None
        raw: bytes | None = None
        prompt = None
        clock = time.perf_counter
        while True:
            if on_side is not None:
                on_side(1, result)
            t0 = clock()
            out = ref.advance()
            result.reference_seconds += clock() - t0
            if on_side is not None:
                on_side(2, result)
            try:
                ours.step(raw)
            except Exception:
                result.status = "error"
                result.error = _describe_error()
                break
            finally:
                result.our_seconds = ours.seconds
                if on_side is not None:
                    on_side(0, result)
            mine = ours.new_messages()
            theirs = out.messages
            mine, settled = settle_hint_order(theirs, mine)
            result.address_orders += settled
            diverged = False
            for i in range(max(len(theirs), len(mine))):
                a = theirs[i] if i < len(theirs) else None
                b = mine[i] if i < len(mine) else None
                if a is None or b is None or a.encode() != b.encode():
                    result.divergence = LiveDivergence(
                        index=result.messages + i, turn=result.turns, phase=phase,
                        response=result.responses, reference=a, ours=b,
                        context=history[-CONTEXT_MESSAGES:])
                    result.status = "diverged"
                    result.agreeing = result.messages + i
                    diverged = True
                    break
                history.append(a)
                if isinstance(a, MsgNewTurn):
                    result.turns += 1
                elif isinstance(a, MsgNewPhase):
                    phase = a.phase
            if diverged:
                break
            del history[:-CONTEXT_MESSAGES]
            result.messages += len(theirs)
            result.agreeing = result.messages
            if on_step is not None:
                on_step(result)
            if out.ended:
                result.end = "win"
                for m in reversed(theirs):
                    if isinstance(m, MsgWin):
                        result.winner, result.reason = m.player, m.reason
                        break
                break
            if out.prompt is not None:
                prompt = out.prompt
            elif not out.retry or prompt is None:
                result.status = "harness"
                result.error = "the reference stopped without a prompt"
                break
            if turn_limit and result.turns > turn_limit:
                result.end = "cap_turns"
                break
            if result.responses >= response_limit:
                result.end = "cap_responses"
                break
            try:
                if responder is not None:
                    response = responder(prompt)
                else:
                    response = random_response(prompt, rng, card_pool=card_pool)
                raw = encode_response(prompt, response) if not isinstance(response, bytes) else response
            except NoValidResponse as exc:
                result.status = "harness"
                result.error = f"no answer for {prompt.NAME}: {exc}"
                break
            ref.set_responseb(raw)
            result.sent.append(bytes(raw))
            result.responses += 1
    finally:
        ref.end()
        result.seconds = time.perf_counter() - start
        errs = {}
        if len(ref_core.errors) > ref_errors:
            errs["reference"] = [str(e) for e in ref_core.errors[ref_errors:ref_errors + 5]]
        if script is not None and getattr(script, "errors", None):
            errs["duelhost"] = [str(e)[:300] for e in script.errors[:5]]
        if ours is not None and ours.engine.warnings:
            errs["duelhost warnings"] = list(dict.fromkeys(ours.engine.warnings))[:5]
        result.script_errors = errs
    return result


@dataclass
class LiveDuel:
    """One duel of a live run: its name, seed, decks (None: random) and generator."""

    id: str
    seed: int
    rng: Any
    decks: list[Any] | None = None


def live_duels(seeds: int, first_seed: int, deck_sets: list[list[Any]] | None) -> list[LiveDuel]:
    """The duels of a live run, in order.

    Without ``deck_sets``, duel k is seed ``first_seed + k`` with
    ``random.Random(first_seed + k)``.  With them (the decks of each pairing,
    named), every set is played once per seed, seed-major; its generator is
    seeded from the seed and the set's place, so the same pairing and seed give
    the same duel whatever the folder holds after it.
    """
    out = []
    for k in range(seeds):
        seed = first_seed + k
        if deck_sets is None:
            out.append(LiveDuel(f"seed-{seed}", seed, random.Random(seed)))
            continue
        for i, decks in enumerate(deck_sets):
            names = "-vs-".join(Path(d.name).stem for d in decks)
            rng = random.Random(f"{seed}:{i}") if len(deck_sets) > 1 else random.Random(seed)
            out.append(LiveDuel(f"{names}@{seed}", seed, rng, decks))
    return out


def run_live_diff(ref_lib: str | Path | None, *, seeds: int, first_seed: int = 1,
                  db_path: Path, scripts: Path | None, deck_files: list[Path] | None = None,
                  deck_dir: Path | None = None, pair_offset: int | None = None,
                  mode: Any = None, main_only: bool = False,
                  turn_limit: int = DEFAULT_TURN_LIMIT, response_limit: int = DEFAULT_RESPONSE_LIMIT,
                  progress: Any = None, save_dir: Path | None = None,
                  duel_timeout: float | None = DEFAULT_DUEL_TIMEOUT, jobs: int = 1,
                  backend: Backend | None = None) -> LiveSummary:
    """``duelhost diff --seeds N``: seeded duels in both cores (see play_side_by_side).

    Decks: random ones from the database (40 Main + 15 Extra Deck cards, or 40
    Main Deck cards with ``main_only``; deckpool.py), the .ydk files of
    ``deck_files`` (2, or 4 for a Tag Duel) with shuffled Main Decks, or every
    pairing of the .ydk files of ``deck_dir`` (deckpool.deck_pairs) once per
    seed; a deck file that cannot be played is one line of the report.  Each
    duel's generator gives its decks, then its seed sequence, then the random
    player's answers.  ``mode`` (modes.DuelMode) gives the rule and flags.
    """

    mode = mode if mode is not None else DuelMode()
    db = CardDatabase.open(db_path)
    core = ReferenceCore.load(ref_lib, db=db, scripts=scripts)
    deck_sets = None
    pool = None
    problems: list[str] = []
    if deck_dir is not None:
        files = read_deck_folder(deck_dir, db)
        problems = [f"{f.name}: {f.problem}" for f in files if f.problem]
        good = [f for f in files if not f.problem]
        deck_sets = [[good[i] for i in group] for group in deck_pairs(len(good), pair_offset, mode.decks)]
        source = f"{len(deck_sets)} pairings of {len(good)} decks from {deck_dir}"
    elif deck_files:
        if len(deck_files) != mode.decks:
            raise ValueError(f"pass --deck {mode.decks} times (player 0's deck, then player 1's"
                             + (", then their partners')" if mode.tag else ")"))
        deck_sets = [[_named(read_ydk(p), p) for p in deck_files]]
        source = " vs ".join(p.name for p in deck_files)
    else:
        pool = deck_pool(db, scripts)
        source = "random decks" + (" (Main Deck only)" if main_only else " with Extra Decks")
    card_pool = list(db)

    def name_of(code: int) -> str:
        rec = db.find(code & 0x7FFFFFFF)
        return rec.name if rec is not None and rec.name else str(code)

    summary = LiveSummary(source=f"live: {seeds} seed(s) from {first_seed}, {source}, {mode.describe()}, "
                                 f"turn cap {turn_limit or 'none'}, {core.path}",
                          name_of=name_of, problems=problems)
    items = []
    for duel in live_duels(seeds, first_seed, deck_sets):
        setup = random_setup(duel.rng, pool, duel.decks, mode=mode, main_only=main_only)
        items.append((duel.id, duel.seed, setup, duel.rng))     # the generator as it is after the set-up
    work = LiveWork(ref_lib=Path(core.path), db_path=Path(db_path), scripts=scripts, timeout=duel_timeout,
                    turn_limit=turn_limit, response_limit=response_limit, state=(core, db, card_pool))
    if backend is None:
        backend = Backend.local(jobs) if duel_timeout is not None else Backend.inline()

    def done(_i: int, r: LiveResult) -> None:
        if save_dir is not None and not r.identical:
            save_live_replay(r, Path(save_dir) / f"{r.id}.yrp")
        if progress is not None:
            progress(r)

    try:
        got, info = execute(work, items, backend, timeout=duel_timeout, on_result=done)
    except ExecutionError as exc:
        raise ValueError(str(exc)) from None
    summary.results = [r for r in got if r is not None]
    summary.execution = info
    return summary


class LiveWork(Work):
    """Live duels as a duelhost.execution Work: the state is (reference core, database,
    card pool), loaded once per worker (inherited from this process by forked
    workers); an item is (duel id, seed, set-up, generator after the set-up)."""

    def __init__(self, *, ref_lib: Path, db_path: Path, scripts: Path | None, timeout: float | None,
                 turn_limit: int, response_limit: int, state: Any = None) -> None:
        self.ref_lib, self.db_path, self.scripts = ref_lib, db_path, scripts
        self.timeout, self.turn_limit, self.response_limit = timeout, turn_limit, response_limit
        self.state = state

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "state": None}     # a remote worker loads its own core

    def prepare(self) -> Any:
        if self.state is not None:
            return self.state
        db = CardDatabase.open(self.db_path)
        return ReferenceCore.load(self.ref_lib, db=db, scripts=self.scripts), db, list(db)

    def run(self, state: Any, item: Any, progress: Any) -> LiveResult:
        core, db, card_pool = state
        duel_id, seed, setup, rng = item
        kwargs = dict(duel_id=duel_id, seed=seed, turn_limit=self.turn_limit,
                      response_limit=self.response_limit, card_pool=card_pool)
        if progress is None:        # in this process: as it always was
            return play_side_by_side(core, db, self.scripts, setup, rng, **kwargs)

        def on_step(res: LiveResult) -> None:
            progress[0], progress[1], progress[2] = res.agreeing, res.responses, res.turns

        def on_side(side: int, res: LiveResult) -> None:
            # which core runs now, since when, and the time each core had so far: a duel
            # killed at its deadline inside one long call still says whose time it was
            progress[3], progress[4] = int(res.reference_seconds * 1000), int(res.our_seconds * 1000)
            progress[5], progress[6] = side, int(time.time() * 1000)
        try:
            return play_side_by_side(core, db, self.scripts, setup, rng, on_step=on_step, on_side=on_side,
                                     **kwargs)
        except BaseException:
            return LiveResult(id=duel_id, seed=seed, status="error", end=None,
                              agreeing=progress[0], messages=progress[0], responses=progress[1],
                              turns=progress[2], error=_describe_error(), setup=setup)

    def lost(self, item: Any, lost: Lost) -> LiveResult:
        duel_id, seed, setup, _rng = item
        timeout = self.timeout
        if lost.how == "timeout":
            status, error = "timeout", f"the duel took longer than {timeout:g} s (both cores are stopped)"
        ref_s, our_s = lost_core_seconds(lost.progress)
        if lost.how == "timeout":
            if ref_s or our_s:
                whose = "the reference's own time" if ref_s > our_s else "duelhost's time"
                error += f": reference {ref_s:.1f} s, duelhost {our_s:.1f} s ({whose})"
        else:
            status = "crash"
            error = (f"the duel's process died (exit code {lost.exitcode}: the reference library "
                     f"or Lua crashed?)")
        agreeing, responses, turns = lost.progress[0], lost.progress[1], lost.progress[2]
        return LiveResult(id=duel_id, seed=seed, status=status, end=None,
                          agreeing=agreeing, messages=agreeing, responses=responses, turns=turns,
                          error=error, decks=setup.decks, seed_sequence=list(setup.seed_sequence or []) or None,
                          seconds=lost.seconds, reference_seconds=ref_s, our_seconds=our_s, setup=setup)

    def shipped(self) -> dict[str, Path]:
        out = {"ref_lib": self.ref_lib, "db": self.db_path}
        if self.scripts is not None:
            out["scripts"] = self.scripts
        return out

    def on_node(self, paths: dict[str, Path]) -> "LiveWork":
        return LiveWork(ref_lib=paths["ref_lib"], db_path=paths["db"], scripts=paths.get("scripts"),
                        timeout=self.timeout, turn_limit=self.turn_limit, response_limit=self.response_limit)


def _named(deck: Any, path: Path) -> Any:
    """A .ydk Deck with the file's name (for duel ids)."""
    return DeckFile(path, tuple(deck.main), tuple(deck.extra))


def lost_core_seconds(progress: Sequence[int], now_ms: int | None = None) -> tuple[float, float]:
    """(reference seconds, our seconds) of a duel stopped from outside, from the progress
    its process wrote (LiveWork.run): the time of the calls that returned, plus the call
    that was running when it was stopped."""
    ref_ms, our_ms, side, since = progress[3], progress[4], progress[5], progress[6]
    if side and since:
        running = max(0, (now_ms if now_ms is not None else int(time.time() * 1000)) - since)
        if side == 1:
            ref_ms += running
        else:
            our_ms += running
    return ref_ms / 1000, our_ms / 1000


def _play_forked(core: Any, db: Any, scripts: Path | None, setup: DuelSetup, rng: Any, timeout: float,
                 kwargs: dict[str, Any]) -> LiveResult:
    """play_side_by_side in a forked child with a deadline (one item of the execution
    layer); a timeout or a dead child becomes a result too, with the progress it made."""
    work = LiveWork(ref_lib=Path(core.path), db_path=Path(getattr(db, "path", "") or "."), scripts=scripts,
                    timeout=timeout, turn_limit=kwargs["turn_limit"], response_limit=kwargs["response_limit"],
                    state=(core, db, kwargs.get("card_pool")))
    got, _ = execute(work, [(kwargs["duel_id"], kwargs["seed"], setup, rng)], Backend.local(1), timeout=timeout)
    return got[0]


def save_live_replay(result: LiveResult, path: Path) -> Path | None:
    """Write a live-diff duel (its set-up and the responses sent) as a .yrp replay."""
    setup = result.setup
    if setup is None or (not result.sent and result.status in ("timeout", "crash")):
        return None         # a stopped child's answers are not known
    path.parent.mkdir(parents=True, exist_ok=True)
    rep = replay_from_duel(setup.seed_sequence, setup.cards, result.sent, params=setup.players[0],
                           options=setup.options, players=(f"{result.id} P0", f"{result.id} P1"))
    return write_replay(rep, path)
