"""One command for the speed ratios of issue 10: duelhost against the reference core.

Runs fixed workloads through duelhost and, when a reference core library is
given (--reference or OCGCORE_LIB), through the reference in the same run, and
prints for each the speed of both, the ratio (reference speed / ours) and the
peak resident memory of both (every workload runs in its own Python process,
so peaks do not mix).  Workloads:

* golden_a / golden_b: the recorded duels of set A (Normal Monsters, bundled in
  tests/data/golden) and set B (real decks, real scripts), responses/s;
* corpus: create every scripted card of the script folder and run its
  initial_effect, cards/s in one process (the reference: one duel per 100
  cards, new_card loading each script, as a host does);
* selfplay: seeded random-deck duels between random players, responses/s;
* setup: create a duel, add both decks, start, up to the first prompt (s);
* startup: ``import duelhost`` and ``duelhost --help`` (subprocess wall time);
* crossings: Lua<->Python crossings per response on set B (set A without it).

    .venv/bin/python benchmarks/bench.py                  # everything available
    .venv/bin/python benchmarks/bench.py --short          # set A + bundled cards, under a minute
    .venv/bin/python benchmarks/bench.py --only golden_b crossings --limit 5 --json

What is missing (no reference, no script folder, no corpus database, no set B)
is skipped and said in one line.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SET_A = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
DEFAULT_DB = REPO.parent / "shared" / "cards" / "corpus.cdb"      # the project's shared folder
WORKLOADS = ("golden_a", "golden_b", "corpus_host", "corpus", "selfplay", "setup", "startup", "crossings")
SHORT_WORKLOADS = ("golden_a", "setup", "startup", "crossings")
CARDS_PER_REFERENCE_DUEL = 100
TURN_LIMIT = 40
RESPONSE_LIMIT = 3000
SCRIPT_TIME_BUDGET = 60.0

Json = dict[str, Any]


# =====================================================================================
# Small helpers
# =====================================================================================

def peak_rss_mib() -> float:
    """This process's peak resident memory (ru_maxrss, KiB on Linux) in MiB."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def rate(count: float, seconds: float) -> float | None:
    """count / seconds, rounded (None for no time)."""
    return round(count / seconds, 1) if seconds > 0 else None


def median_wall(cmd: list[str], runs: int) -> float:
    """Median wall time (s) of running ``cmd`` ``runs`` times (output discarded)."""
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - t0)
    return round(statistics.median(times), 4)


# =====================================================================================
# Golden replays (sets A and B)
# =====================================================================================

def golden_records(path: Path, limit: int | None) -> list[Any]:
    """The first ``limit`` recorded duels of a golden file."""
    from duelhost.golden import load_records
    records = []
    for rec in load_records(path):
        if limit is not None and len(records) >= limit:
            break
        records.append(rec)
    return records


def golden_ours(records: list[Any], scripts: Path | None) -> Json:
    """Replay the records through duelhost (a fresh script host per duel when it has scripts)."""
    from duelhost.conformance import replay_record
    from duelhost.golden import record_card_reader
    responses = messages = identical = 0
    t0 = time.perf_counter()
    for rec in records:
        host = None
        if rec.scripts is not None:
            from duelhost.bindings.host import LuaScriptHost
            host = LuaScriptHost(scripts)
        identical += replay_record(rec, record_card_reader(rec), host).identical
        responses += rec.result.responses
        messages += rec.result.messages
    seconds = time.perf_counter() - t0
    return {"seconds": round(seconds, 3), "duels": len(records), "identical": identical,
            "responses": responses, "messages": messages, "rate": rate(responses, seconds),
            "messages_per_second": rate(messages, seconds)}


def record_cards(record: Any) -> Any:
    """The card data one recording gave the reference, as the database ReferenceCore
    serves (only find and card_data are read; a CardDatabase so ReferenceCore.use takes it)."""
    from duelhost.engine.carddb import CardDatabase

    class RecordCards(CardDatabase):
        def __init__(self, table: dict[int, bytes]) -> None:     # no file behind it
            self.table = table

        def find(self, code: int) -> Any:
            return True if code in self.table else None

        def card_data(self, code: int) -> bytes:
            return self.table[code]
    return RecordCards({int(k): bytes(v) for k, v in record.card_data.items()})


def _reference_step(duel: Any, expected: bytes) -> bytes:
    """process()/get_message() until the step's recorded length is written (no decoding)."""
    from duelhost.reference import PROCESSOR_END
    chunks = []
    size = 0
    while True:
        flags = duel.process()
        data = duel.get_message()
        if data:
            chunks.append(data)
            size += len(data)
        if size >= len(expected) or flags & PROCESSOR_END:
            return b"".join(chunks)


def golden_reference(records: list[Any], lib: str, scripts: Path | None) -> Json:
    """Replay the records' inputs through the reference, as a lean host (no message decoding).

    Every step's bytes are compared with the recording after the clock stops.
    Then the same replay through the adapter's advance() (which decodes every
    message in Python, as duelhost diff does) is timed too.
    """
    from duelhost.reference import ReferenceCore
    core = ReferenceCore.load(lib, scripts=scripts)
    produced: list[list[bytes]] = []
    t0 = time.perf_counter()
    for rec in records:
        duel = _reference_duel(core, rec)
        out = []
        for step in rec.steps:
            out.append(_reference_step(duel, step.messages))
            if step.response is not None:
                duel.set_responseb(step.response_area)
        duel.end()
        produced.append(out)
    seconds = time.perf_counter() - t0
    identical = sum(_same_steps(rec, got) for rec, got in zip(records, produced))
    t1 = time.perf_counter()
    for rec in records:
        duel = _reference_duel(core, rec)
        for step in rec.steps:
            duel.advance()
            if step.response is not None:
                duel.set_responseb(step.response_area)
        duel.end()
    adapter = time.perf_counter() - t1
    responses = sum(r.result.responses for r in records)
    return {"seconds": round(seconds, 3), "duels": len(records), "identical": identical,
            "responses": responses, "rate": rate(responses, seconds),
            "adapter_seconds": round(adapter, 3), "adapter_rate": rate(responses, adapter),
            "script_errors": len(core.errors)}


def _reference_duel(core: Any, rec: Any) -> Any:
    """A reference duel set up as the recording's was, serving the recording's card data."""
    core.use(db=record_cards(rec))
    duel = core.create_duel(list(rec.seed_sequence))
    for p, info in enumerate(rec.players):
        duel.set_player_info(p, info.lp, info.start_hand, info.draw)
    for c in rec.cards:
        duel.new_card(c.code, c.owner, c.player, c.location, c.sequence, c.position)
    duel.start(rec.options)
    return duel


def _same_steps(rec: Any, got: list[bytes]) -> bool:
    """Each step's bytes as recorded (the address-dependent steps: same length)."""
    loose = set(rec.address_dependent_steps or [])
    return all(g == s.messages or (k in loose and len(g) == len(s.messages))
               for k, (g, s) in enumerate(zip(got, rec.steps)))


# =====================================================================================
# Lua <-> Python crossings (counted in the benchmark process only)
# =====================================================================================

class CrossingCounter:
    """Counts calls across the Lua/Python boundary by wrapping, in this process only,
    what each new sandbox hands to Lua and the Lua functions it calls.

    * Lua -> Python: the library functions (``set_function``'s Python entries) and
      the class resolver;
    * Python -> Lua: every Lua function the sandbox keeps as an attribute
      (``_call``, ``_call_field``, ``_task_resume``, ``adopt``, ...), by name.
    Not counted: the instruction hook's clock reads.
    """

    HANDED_TO_LUA = {"_set_function": 2, "_set_resolver": 0}   # attribute -> index of the callable
    # (lib, name1, entry1, may_yield1, name2, ...): every third argument from 2 is a callable
    HANDED_IN_BATCHES = ("_set_functions",)

    def __init__(self) -> None:
        self.lua_to_python: Counter[str] = Counter()
        self.python_to_lua: Counter[str] = Counter()

    def install(self) -> None:
        """Wrap every sandbox created from now on (bindings.runtime's sandbox observers)."""
        from duelhost.bindings import runtime
        runtime.add_sandbox_observer(self._observe)

    def _observe(self, sandbox: Any) -> None:
        lua_function = type(sandbox._call)
        for name, value in list(vars(sandbox).items()):
            if type(value) is lua_function:
                setattr(sandbox, name, self._count_out(name, value))
        for name, index in self.HANDED_TO_LUA.items():
            if hasattr(sandbox, name):
                setattr(sandbox, name, self._count_handed(name, index, getattr(sandbox, name)))
        for name in self.HANDED_IN_BATCHES:
            if hasattr(sandbox, name):
                setattr(sandbox, name, self._count_batch(getattr(sandbox, name)))

    def _count_out(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        counts = self.python_to_lua

        def counted(*args: Any) -> Any:
            counts[name] += 1
            return fn(*args)
        return counted

    def _count_handed(self, name: str, index: int, install: Callable[..., Any]) -> Callable[..., Any]:
        counts = self.lua_to_python

        def wrapped(*args: Any) -> Any:
            args = list(args)
            inner = args[index]
            key = _qualified(str(args[1])) if name == "_set_function" else "class resolver"

            def counted(*a: Any) -> Any:
                counts[key] += 1
                return inner(*a)
            args[index] = counted
            counts.setdefault(key, 0)
            twin = install(*args)
            counted.lua_twin = twin      # what bindings/args.py reads on a library function passed back
            return twin
        return wrapped


    def _count_batch(self, install: Callable[..., Any]) -> Callable[..., Any]:
        """Wrap each entry of a set_functions batch as _count_handed wraps one."""
        counts = self.lua_to_python

        def counter(key: str, inner: Callable[..., Any]) -> Callable[..., Any]:
            def counted(*a: Any) -> Any:
                counts[key] += 1
                return inner(*a)
            return counted

        def wrapped(lib: Any, *flat: Any) -> Any:
            flat_l = list(flat)
            made = []
            for i in range(0, len(flat_l), 3):
                key = _qualified(str(flat_l[i]))
                counts.setdefault(key, 0)
                flat_l[i + 1] = counter(key, flat_l[i + 1])
                made.append(flat_l[i + 1])
            twins = install(lib, *flat_l)
            for fn, twin in zip(made, twins if isinstance(twins, tuple) else (twins,)):
                fn.lua_twin = twin   # what bindings/args.py reads on a library function passed back
            return twins
        return wrapped


def _qualified(fname: str) -> str:
    """``Card.GetCode`` for ``GetCode`` when one library has that name, else the bare name."""
    from duelhost.bindings import registry
    owners = [n for n in registry.registered() if n.partition(".")[2] == fname]
    return owners[0] if len(owners) == 1 else fname


def crossings(records: list[Any], scripts: Path | None) -> Json:
    """Replay the records with every crossing counted; per response and the top names."""
    counter = CrossingCounter()
    counter.install()
    run = golden_ours(records, scripts)
    responses = max(run["responses"], 1)
    into = sum(counter.lua_to_python.values())
    out = sum(counter.python_to_lua.values())
    return {"responses": run["responses"], "duels": run["duels"], "seconds_counted": run["seconds"],
            "lua_to_python": into, "python_to_lua": out,
            "lua_to_python_per_response": round(into / responses, 2),
            "python_to_lua_per_response": round(out / responses, 2),
            "top_python_to_lua": {k.lstrip("_"): v for k, v in counter.python_to_lua.most_common(8)},
            "top_lua_to_python": dict(counter.lua_to_python.most_common(10))}


# =====================================================================================
# Corpus load
# =====================================================================================

def corpus_codes(scripts: Path, db: Path, limit: int | None) -> list[int]:
    """The codes ``duelhost check`` creates: every c<ID>.lua with a database row, by code."""
    from duelhost import check as chk
    from duelhost.engine.carddb import CardDatabase
    cards = CardDatabase.open(db)
    files = list(chk.script_files(scripts))[:limit]
    return [c for c in files if cards.find(c) is not None]


def corpus_ours(scripts: Path, db: Path, limit: int | None) -> Json:
    """load_corpus.py's single-process measurement (what duelhost check does)."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import load_corpus
    m = load_corpus._measure("single", scripts, db, 0, limit, "reset")
    seconds = m["seconds"] + m["startup_seconds"]
    return {"cards": m["cards_created"], "passed": m["passed"], "failed": m["failed"],
            "startup_seconds": m["startup_seconds"], "seconds": round(seconds, 3),
            "rate": rate(m["cards_created"], seconds)}


def corpus_host(scripts: Path, db: Path, limit: int | None) -> Json:
    """Our engine loaded the way a host loads the reference (corpus_reference): each
    card new_card'ed into a duel (its script loaded, initial_effect run), a new duel
    with a new script host every 100 cards; duel creation is part of the time."""
    from duelhost.bindings.host import LuaScriptHost
    from duelhost.engine.carddb import CardDatabase
    from duelhost.engine.duel import Duel, card_reader_from_db
    codes = corpus_codes(scripts, db, limit)
    reader = card_reader_from_db(CardDatabase.open(db))
    seed_sequence = list(range(1, 9))
    errors = 0
    t0 = time.perf_counter()
    duel = None
    for i, code in enumerate(codes):
        if i % CARDS_PER_REFERENCE_DUEL == 0:
            if duel is not None:
                errors += len(duel.script.errors)
            duel = Duel(reader, seed_sequence=seed_sequence, script=LuaScriptHost(scripts))
        duel.new_card_at(code, 0, 0, 0x01, 0, 8)
    if duel is not None:
        errors += len(duel.script.errors)
    seconds = time.perf_counter() - t0
    return {"cards": len(codes), "seconds": round(seconds, 3), "rate": rate(len(codes), seconds),
            "script_errors": errors}


def corpus_reference(scripts: Path, db: Path, limit: int | None, lib: str) -> Json:
    """Each card new_card'ed into a reference duel (its script loaded and initial_effect
    run there), a new duel every 100 cards; duel creation is part of the time."""
    from duelhost.engine.carddb import CardDatabase
    from duelhost.reference import ReferenceCore
    codes = corpus_codes(scripts, db, limit)
    core = ReferenceCore.load(lib, db=CardDatabase.open(db), scripts=scripts)
    seed_sequence = list(range(1, 9))
    t0 = time.perf_counter()
    duel = None
    for i, code in enumerate(codes):
        if i % CARDS_PER_REFERENCE_DUEL == 0:
            if duel is not None:
                duel.end()
            duel = core.create_duel(seed_sequence)
        duel.new_card(code, 0, 0, 0x01, 0, 8)
    if duel is not None:
        duel.end()
    seconds = time.perf_counter() - t0
    return {"cards": len(codes), "seconds": round(seconds, 3), "rate": rate(len(codes), seconds),
            "script_errors": len(core.errors), "scripts_missing": len(core.scripts_missing)}


# =====================================================================================
# Self-play: seeded random decks, random answers
# =====================================================================================

def selfplay_pool(db: Path, scripts: Path) -> tuple[Any, list[int], list[Any]]:
    """(database, Main Deck pool, cards ANNOUNCE_CARD may name) as duelhost diff builds them."""
    from duelhost.deckpool import main_deck_pool
    from duelhost.engine.carddb import CardDatabase
    cards = CardDatabase.open(db)
    return cards, main_deck_pool(cards, scripts), list(cards)


class OurSide:
    """One duelhost engine duel driven like a host (step with the last answer)."""

    def __init__(self, cards: Any, scripts: Path, setup: Any) -> None:
        from duelhost.bindings.host import LuaScriptHost
        from duelhost.driver import Driver
        from duelhost.engine.duel import card_reader_from_db
        self.host = LuaScriptHost(scripts, time_budget=SCRIPT_TIME_BUDGET)
        self.driver = Driver.from_setup(card_reader_from_db(cards), setup, self.host)
        self.driver.start(setup.options)
        self.pending: bytes | None = None

    def advance(self) -> tuple[list[Any], Any, bool]:
        """(new messages, the prompt or None, ended)."""
        prompt = self.driver.step(self.pending)
        return self.driver.new_messages(), prompt, prompt is None

    def respond(self, raw: bytes) -> None:
        """The answer the next advance() sends."""
        self.pending = raw

    def end(self) -> None:
        """Close the duel's Lua state."""
        self.host.close()


class ReferenceSide:
    """One reference duel through the ctypes adapter."""

    def __init__(self, core: Any, setup: Any) -> None:
        self.duel = core.create_duel(setup.seed_sequence)
        for p, (lp, hand, draw) in enumerate(setup.players):
            self.duel.set_player_info(p, lp, hand, draw)
        for args in setup.cards:
            self.duel.new_card(*args)
        self.duel.start(setup.options)
        self.prompt: Any = None

    def advance(self) -> tuple[list[Any], Any, bool]:
        """(new messages, the prompt waiting -- the last one again after MSG_RETRY -- or None, ended)."""
        out = self.duel.advance()
        if out.prompt is not None:
            self.prompt = out.prompt
        return out.messages, (self.prompt if out.prompt is not None or out.retry else None), out.ended

    def respond(self, raw: bytes) -> None:
        """set_responseb: the answer the next process() reads."""
        self.duel.set_responseb(raw)

    def end(self) -> None:
        """end_duel."""
        self.duel.end()


def play_random(side: Any, rng: random.Random, card_pool: list[Any], cap: int,
                deadline: float | None, tally: Counter[str]) -> str:
    """Answer every prompt with a random legal response (as duelhost diff does) until
    MSG_WIN, the first prompt after turn 40, ``cap`` responses or the deadline.
    Counts ``tally["responses"]``; returns how the duel ended."""
    from duelhost.engine.messages import MsgNewTurn
    from duelhost.engine.responses import encode_response, random_response
    turns = 0
    while True:
        messages, prompt, ended = side.advance()
        turns += sum(1 for m in messages if isinstance(m, MsgNewTurn))
        if ended:
            return "win"
        if prompt is None:
            return "no prompt"
        if turns > TURN_LIMIT:
            return "turn cap"
        if tally["responses"] >= cap:
            return "response cap"
        if deadline is not None and time.perf_counter() > deadline:
            return "timeout"
        answer = random_response(prompt, rng, card_pool=card_pool)
        side.respond(answer if isinstance(answer, bytes) else encode_response(prompt, answer))
        tally["responses"] += 1


def selfplay(side_name: str, scripts: Path, db: Path, seeds: list[int], caps: list[int] | None,
             lib: str | None, timeout: float) -> Json:
    """Duel k: random.Random(seed) draws both decks and the seed sequence
    (duelhost.diff.random_setup), then the random answers.  The reference plays
    each duel up to the responses duelhost gave (the same workload when the two agree)."""
    from duelhost.diff import random_setup
    cards, pool, card_pool = selfplay_pool(db, scripts)
    core = None
    if side_name == "reference":
        from duelhost.reference import ReferenceCore
        core = ReferenceCore.load(lib, db=cards, scripts=scripts)
    duels = []
    for k, seed in enumerate(seeds):
        rng = random.Random(seed)
        setup = random_setup(rng, pool)
        t0 = time.perf_counter()
        side = ReferenceSide(core, setup) if core is not None else OurSide(cards, scripts, setup)
        cap = caps[k] if caps is not None else RESPONSE_LIMIT
        deadline = t0 + timeout if core is None and timeout else None
        tally: Counter[str] = Counter()
        try:
            end = play_random(side, rng, card_pool, cap, deadline, tally)
        except Exception as exc:  # noqa: BLE001 - an engine error ends the duel; the reference stops there too
            end = f"error: {exc!r}"[:200]
        finally:
            side.end()
        duels.append({"seed": seed, "responses": tally["responses"], "end": end,
                      "seconds": round(time.perf_counter() - t0, 3)})
    counted = [d for d in duels if d["end"] != "timeout"]
    responses = sum(d["responses"] for d in counted)
    seconds = sum(d["seconds"] for d in counted)
    return {"duels": len(duels), "counted": len(counted), "responses": responses,
            "seconds": round(seconds, 3), "rate": rate(responses, seconds),
            "ends": dict(Counter(d["end"].split(":")[0] for d in duels)), "per_duel": duels}


# =====================================================================================
# Duel set-up time
# =====================================================================================

def setup_time(side_name: str, scripts: Path | None, db: Path | None, lib: str | None, runs: int) -> Json:
    """Median time to create a duel, add both decks and start it up to the first prompt.

    With a script folder and corpus: duel 1 of the self-play workload (real
    scripts, both cores); else the bundled demo decks and cards (duelhost only).
    """
    times = []
    if scripts is None or db is None:
        from duelhost import Duel
        from duelhost.engine.ydk import read_ydk
        a, b = read_ydk(REPO / "cards" / "demo_a.ydk"), read_ydk(REPO / "cards" / "demo_b.ydk")
        for i in range(runs):
            t0 = time.perf_counter()
            duel = Duel(seed=i)
            duel.add_deck(0, a.main, a.extra, shuffle=True)
            duel.add_deck(1, b.main, b.extra, shuffle=True)
            duel.start()
            duel.advance()
            times.append(time.perf_counter() - t0)
        return {"decks": "bundled demo decks", "runs": runs, "seconds": round(statistics.median(times), 4)}
    from duelhost.diff import random_setup
    cards, pool, _ = selfplay_pool(db, scripts)
    setup = random_setup(random.Random(1), pool)
    core = None
    if side_name == "reference":
        from duelhost.reference import ReferenceCore
        core = ReferenceCore.load(lib, db=cards, scripts=scripts)
    for _ in range(runs):
        t0 = time.perf_counter()
        side = ReferenceSide(core, setup) if core is not None else OurSide(cards, scripts, setup)
        side.advance()
        times.append(time.perf_counter() - t0)
        side.end()
    return {"decks": "self-play duel 1 (real scripts)", "runs": runs,
            "seconds": round(statistics.median(times), 4)}


def startup_times(runs: int) -> Json:
    """Median wall time of ``python -c pass``, ``import duelhost`` and ``duelhost --help``."""
    py = sys.executable
    console = Path(py).parent / "duelhost"
    help_cmd = [str(console), "--help"] if console.is_file() else [py, "-c", "from duelhost.cli import main; main()",
                                                                   "--help"]
    return {"runs": runs, "python_seconds": median_wall([py, "-c", "pass"], runs),
            "import_seconds": median_wall([py, "-c", "import duelhost"], runs),
            "help_seconds": median_wall(help_cmd, runs)}


# =====================================================================================
# One workload in its own process
# =====================================================================================

def _path(value: str | None) -> Path | None:
    return Path(value) if value else None


def run_child(spec: Json) -> Json:
    """Run one workload on one side (in this process) and add its peak RSS."""
    name, side, lib = spec["workload"], spec["side"], spec.get("reference")
    scripts, db = _path(spec.get("scripts")), _path(spec.get("db"))
    limit = spec.get("limit")
    if side != "reference" and spec.get("gc_tuning"):
        # as the duelhost commands run (duelhost/gc_tuning.py: faster, more memory)
        from duelhost.gc_tuning import tune_for_throughput
        tune_for_throughput()
    if name in ("golden_a", "golden_b"):
        records = golden_records(Path(spec["golden"]), limit)
        out = golden_reference(records, lib, scripts) if side == "reference" else golden_ours(records, scripts)
    elif name == "crossings":
        out = crossings(golden_records(Path(spec["golden"]), limit), scripts)
    elif name == "corpus":
        out = corpus_reference(scripts, db, limit, lib) if side == "reference" else corpus_ours(scripts, db, limit)
    elif name == "corpus_host":
        out = corpus_reference(scripts, db, limit, lib) if side == "reference" else corpus_host(scripts, db, limit)
    elif name == "selfplay":
        out = selfplay(side, scripts, db, spec["seeds"], spec.get("caps"), lib, spec["timeout"])
    elif name == "setup":
        out = setup_time(side, scripts, db, lib, spec["runs"])
    else:
        raise ValueError(f"unknown workload {name}")
    out["peak_rss_mib"] = peak_rss_mib()
    return out


def spawn(spec: Json) -> Json:
    """run_child in a fresh Python process; {"error": ...} when it fails."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--_child", json.dumps(spec)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=REPO)
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines:
        tail = (proc.stderr.strip().splitlines() or ["no output"])[-1]
        return {"error": f"exit code {proc.returncode}: {tail[:300]}"}
    return json.loads(lines[-1])


# =====================================================================================
# The run: what is available, what runs, what is skipped
# =====================================================================================

class Plan:
    """The resources found and the workloads that can run with them."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.lib = args.reference if args.reference and Path(args.reference).is_file() else None
        self.scripts = args.scripts if args.scripts and args.scripts.is_dir() else None
        self.db = args.db if args.db and args.db.is_file() else None
        self.set_b = args.golden_b if args.golden_b and args.golden_b.is_file() else None
        self.skipped: list[str] = []
        if args.reference and not self.lib:
            self.skipped.append(f"the reference (library {args.reference} not found)")
        elif not args.reference:
            self.skipped.append("the reference side (no library: --reference or OCGCORE_LIB)")

    def real_scripts(self) -> str | None:
        """Why real-script workloads cannot run (None: they can)."""
        if self.scripts is None:
            return "no script folder (--scripts or YGOPRO_SCRIPTS)"
        if self.db is None:
            return "no corpus database (--db or DUELHOST_CORPUS_DB)"
        return None

    def no_set_b(self) -> str | None:
        """Why set B cannot run (None: it can)."""
        if self.args.short:
            return "--short"
        if self.set_b is None:
            return "no set B file (--golden-b, or real.jsonl.gz in the golden folder)"
        if self.scripts is None:
            return "no script folder (--scripts or YGOPRO_SCRIPTS)"
        return None

    def spec(self, name: str) -> Json | None:
        """The child spec of a workload, or None (and a line in skipped) when it cannot run."""
        a = self.args
        base: Json = {"workload": name, "limit": a.limit, "scripts": str(self.scripts) if self.scripts else None,
                      "db": str(self.db) if self.db else None, "reference": self.lib,
                      "gc_tuning": a.gc_tuning}
        if name == "golden_a":
            return {**base, "golden": str(SET_A), "scripts": None}
        no_b = self.no_set_b()
        if name in ("golden_b", "crossings") and no_b is None:
            return {**base, "golden": str(self.set_b), "set": "B"}
        if name == "golden_b":
            self.skipped.append(f"golden set B ({no_b})")
            return None
        if name == "crossings":
            return {**base, "golden": str(SET_A), "scripts": None, "set": "A"}
        if name == "setup":
            if a.short or self.real_scripts():
                return {**base, "scripts": None, "db": None, "runs": a.runs}
            return {**base, "runs": a.runs}
        why = "--short" if a.short else self.real_scripts()
        if why:
            self.skipped.append(f"{'corpus load' if name.startswith('corpus') else 'self-play'} ({why})")
            return None
        if name == "selfplay":
            seeds = list(range(a.selfplay_seed, a.selfplay_seed + a.selfplay_duels))
            return {**base, "seeds": seeds, "timeout": a.selfplay_timeout}
        return base


def _key(name: str) -> str:
    """The figure a workload's ratio is made of: "rate" (higher is faster) or "seconds"."""
    return next(("rate" if kind == "rate" else "seconds") for n, _, _, kind in ROWS if n == name)


def _one_round(plan: Plan, name: str, spec: Json, progress: Callable[[str], None], tag: str) -> Json:
    """Both sides of one workload once: duelhost's process, then the reference's."""
    progress(f"{name} (duelhost){tag}")
    entry: Json = {"ours": spawn({**spec, "side": "ours"})}
    reference_runs = name not in ("crossings",) and not (name == "setup" and spec.get("scripts") is None)
    if plan.lib and reference_runs and "error" not in entry["ours"]:
        ref_spec = {**spec, "side": "reference"}
        if name == "selfplay":
            counted = [d for d in entry["ours"]["per_duel"] if d["end"] != "timeout"]
            ref_spec["seeds"] = [d["seed"] for d in counted]
            ref_spec["caps"] = [d["responses"] for d in counted]
        progress(f"{name} (reference){tag}")
        entry["reference"] = spawn(ref_spec)
    return entry


def _median_round(name: str, rounds: list[Json]) -> Json:
    """Several rounds as one entry: each side's median run, and the ratio of every round
    (``round_ratios``; ``ratios`` takes their median).  A machine whose speed drifts moves
    both sides of a round alike, so the per-round ratios vary less than either side."""
    key = _key(name)
    entry: Json = {}
    for side in ("ours", "reference"):
        runs = [r[side] for r in rounds if side in r and "error" not in r[side]]
        failed = [r[side] for r in rounds if side in r and "error" in r[side]]
        if failed:
            entry[side] = failed[0]
        elif runs:
            runs.sort(key=lambda r: r.get(key) or 0)
            entry[side] = {**runs[len(runs) // 2], "peak_rss_mib": max(r["peak_rss_mib"] for r in runs),
                           "runs": [r.get(key) for r in runs]}
    pairs = [(r["ours"].get(key), r["reference"].get(key)) for r in rounds
             if "reference" in r and "error" not in r["ours"] and "error" not in r["reference"]]
    entry["round_ratios"] = [round(ref / ours if key == "rate" else ours / ref, 2)
                             for ours, ref in pairs if ours and ref]
    return entry


def measure(plan: Plan, names: Iterable[str], progress: Callable[[str], None]) -> Json:
    """Every workload's sides, one process each (``--rounds`` times, alternating)."""
    results: Json = {}
    for name in names:
        if name == "startup":
            progress("startup")
            results[name] = {"ours": startup_times(plan.args.runs)}
            continue
        spec = plan.spec(name)
        if spec is None:
            continue
        n = plan.args.rounds if name not in ("crossings", "selfplay") else 1
        rounds = [_one_round(plan, name, spec, progress, f" round {k + 1}/{n}" if n > 1 else "")
                  for k in range(n)]
        entry = rounds[0] if n == 1 else _median_round(name, rounds)
        entry["set"] = spec.get("set")
        results[name] = entry
    return results


# =====================================================================================
# Output
# =====================================================================================

ROWS = (   # workload, label, unit, "rate" (higher is faster) or "time"
    ("golden_a", "golden set A replay", "responses/s", "rate"),
    ("golden_b", "golden set B replay", "responses/s", "rate"),
    ("corpus_host", "corpus load as a host does, 1 process", "cards/s", "rate"),
    ("corpus", "corpus load by duelhost check, 1 process", "cards/s", "rate"),
    ("selfplay", "self-play, random decks", "responses/s", "rate"),
    ("setup", "duel set-up to 1st prompt", "s", "time"),
)


def ratios(results: Json) -> None:
    """Add "ratio" (reference speed / ours) and "rss_ratio" (ours / reference) in place."""
    for name, _, _, kind in ROWS:
        entry = results.get(name)
        if not entry or "reference" not in entry:
            continue
        ours, ref = entry["ours"], entry["reference"]
        if "error" in ours or "error" in ref:
            continue
        key = "rate" if kind == "rate" else "seconds"
        if entry.get("round_ratios"):
            entry["ratio"] = round(statistics.median(entry["round_ratios"]), 2)
        elif ours.get(key) and ref.get(key):
            entry["ratio"] = round(ref[key] / ours[key] if kind == "rate" else ours[key] / ref[key], 2)
        entry["rss_ratio"] = round(ours["peak_rss_mib"] / ref["peak_rss_mib"], 2)


def _num(value: Any, unit: str) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if unit == "s" else f"{value:,.0f}"


def text_report(out: Json) -> str:
    """The table, start-up, crossings, failures and the skipped line."""
    results = out["results"]
    head = ("workload", "unit", "reference", "duelhost", "ratio", "RSS ref", "RSS ours", "RSS ratio")
    rows = [head]
    failures = []
    for name, label, unit, kind in ROWS:
        entry = results.get(name)
        if not entry:
            continue
        ours, ref = entry["ours"], entry.get("reference", {})
        for side, res in (("duelhost", ours), ("reference", ref)):
            if "error" in res:
                failures.append(f"{label} ({side}): {res['error']}")
        key = "rate" if kind == "rate" else "seconds"
        if name == "setup":
            label += f" ({ours.get('decks', '?')})"
        rows.append((label, unit, _num(ref.get(key), unit), _num(ours.get(key), unit),
                     f"{entry['ratio']:.1f}x" if "ratio" in entry else "-",
                     f"{ref['peak_rss_mib']:.0f} MiB" if "peak_rss_mib" in ref else "-",
                     f"{ours['peak_rss_mib']:.0f} MiB" if "peak_rss_mib" in ours else "-",
                     f"{entry['rss_ratio']:.2f}x" if "rss_ratio" in entry else "-"))
    widths = [max(len(r[i]) for r in rows) for i in range(len(head))]
    lines = [f"duelhost benchmark: {out['cpus']} CPUs, Python {out.get('python', '?')}; "
             "ratio = reference speed / duelhost's, RSS ratio = duelhost's peak / the reference's"
             + ("; duelhost with the commands' collector thresholds (duelhost/gc_tuning.py)"
                if out.get("gc_tuning") else "")]
    for r in rows if len(rows) > 1 else []:
        lines.append("  ".join(c.ljust(w) if i < 2 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths))))
    lines.extend(_details(results))
    lines.extend(f"FAILED: {f}" for f in failures)
    if out["skipped"]:
        lines.append("skipped: " + "; ".join(out["skipped"]))
    return "\n".join(lines)


def _details(results: Json) -> list[str]:
    """Start-up times, crossings, and the identity checks of the replays."""
    lines = []
    if "startup" in results:
        s = results["startup"]["ours"]
        lines.append(f"start-up (median of {s['runs']}): python -c pass {s['python_seconds']:.3f} s, "
                     f"import duelhost {s['import_seconds']:.3f} s, duelhost --help {s['help_seconds']:.3f} s")
    c = results.get("crossings", {}).get("ours")
    if c and "error" not in c:
        top = ", ".join(f"{k} {v / max(c['responses'], 1):.1f}" for k, v in c["top_python_to_lua"].items())
        into = ", ".join(f"{k} {v / max(c['responses'], 1):.1f}" for k, v in
                         list(c["top_lua_to_python"].items())[:5])
        lines.append(f"crossings per response (set {results['crossings'].get('set')}, {c['responses']} responses): "
                     f"Lua->Python {c['lua_to_python_per_response']}, Python->Lua {c['python_to_lua_per_response']}"
                     + (f"\n  Python->Lua: {top}" if top else "") + (f"\n  Lua->Python: {into}" if into else ""))
        if results["crossings"].get("set") == "B" and not (c["lua_to_python"] and c["python_to_lua"]):
            lines.append("WARNING: no crossings counted on set B: has bindings/runtime.py renamed what "
                         "CrossingCounter wraps (_set_function, the sandbox's Lua function attributes)?")
    by_round = [f"{name} " + " ".join(f"{r:.1f}x" for r in e["round_ratios"])
                for name, e in results.items() if e.get("round_ratios")]
    if by_round:
        lines.append("ratio of each round (the table gives their median): " + "; ".join(by_round))
    for name in ("golden_a", "golden_b"):
        entry = results.get(name, {})
        for side in ("ours", "reference"):
            r = entry.get(side)
            if r and "identical" in r and r["identical"] != r["duels"]:
                lines.append(f"WARNING: {name} {side}: {r['identical']}/{r['duels']} duels identical to the recording")
    sp = results.get("selfplay", {})
    if "ours" in sp and "per_duel" in sp["ours"]:
        o = sp["ours"]
        lines.append(f"self-play: {o['duels']} duels, {o['counted']} counted, ends {o['ends']}"
                     + (f"; reference ends {sp['reference'].get('ends')}" if "reference" in sp else ""))
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--short", action="store_true", help="set A and the bundled cards only (CI; under a minute)")
    ap.add_argument("--only", nargs="+", choices=WORKLOADS, metavar="WORKLOAD",
                    help=f"run only these workloads ({', '.join(WORKLOADS)})")
    ap.add_argument("--limit", type=int, default=None, help="only the first N duels of each golden set "
                    "(and the first N scripts of the corpus)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--reference", default=os.environ.get("OCGCORE_LIB"),
                    help="reference core library (default: $OCGCORE_LIB)")
    ap.add_argument("--scripts", type=Path, default=_path(os.environ.get("YGOPRO_SCRIPTS")),
                    help="real script folder (default: $YGOPRO_SCRIPTS)")
    ap.add_argument("--db", type=Path, default=Path(os.environ.get("DUELHOST_CORPUS_DB") or DEFAULT_DB),
                    help="full card database (default: $DUELHOST_CORPUS_DB, else ../shared/cards/corpus.cdb)")
    ap.add_argument("--golden-b", type=Path, default=None,
                    help="set B file (default: real.jsonl.gz of the golden folder, duelhost.golden)")
    ap.add_argument("--selfplay-duels", type=int, default=200, help="self-play duels (default 200)")
    ap.add_argument("--selfplay-seed", type=int, default=1, help="first seed (duel k: random.Random(seed + k))")
    ap.add_argument("--selfplay-timeout", type=float, default=300.0,
                    help="seconds one duelhost self-play duel may take; past it, it is left out of both sides")
    ap.add_argument("--runs", type=int, default=5, help="repetitions of the set-up and start-up timings")
    ap.add_argument("--rounds", type=int, default=1,
                    help="run each workload's two sides N times, alternating, and give the median of "
                         "the N ratios (for a noisy machine; not self-play or crossings)")
    ap.add_argument("--gc-tuning", action="store_true",
                    help="run duelhost's side with the commands' collector thresholds (duelhost/gc_tuning.py); "
                         "default: Python's, as a program using the library gets them")
    ap.add_argument("--_child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.golden_b is None:
        try:
            from duelhost.golden import default_golden_dir
            args.golden_b = default_golden_dir() / "real.jsonl.gz"
        except Exception:  # noqa: BLE001 - no golden folder: set B is skipped
            args.golden_b = None
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args._child:
        import logging
        logging.getLogger("duelhost.scripts").setLevel(logging.CRITICAL)
        print(json.dumps(run_child(json.loads(args._child))))
        return 0
    plan = Plan(args)
    names = args.only or (SHORT_WORKLOADS if args.short else WORKLOADS)
    if args.short and not args.only:
        plan.skipped.append("golden set B, corpus load, self-play (--short)")

    def progress(what: str) -> None:
        print(f"[bench] {what} ...", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    results = measure(plan, names, progress)
    ratios(results)
    # (the interpreter's build moves both sides: see "The interpreter's build" in benchmarks/README.md)
    out = {"cpus": os.cpu_count(), "python": f"{platform.python_version()} ({platform.python_compiler()})",
           "short": args.short, "limit": args.limit, "gc_tuning": args.gc_tuning,
           "reference": Path(plan.lib).name if plan.lib else None,
           "wall_seconds": round(time.perf_counter() - t0, 1), "results": results, "skipped": plan.skipped}
    print(json.dumps(out, indent=1) if args.json else text_report(out))
    failed = any("error" in side for e in results.values() for side in e.values() if isinstance(side, dict))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
