"""What a mypyc build of the unchanged engine gains (issue 10): an experiment, not a build.

Copies the package into a scratch folder, makes the engine acceptable to mypyc there
(the repository's sources are not touched), compiles it, and replays the recorded
duels through the compiled copy and through the pure-Python package in separate
processes, alternating.  Prints, per side, the fewest replays that stayed identical in
any round, the CPU seconds of each side (median of ``--rounds``) and the ratio
pure / compiled.

    .venv/bin/python benchmarks/mypyc_probe.py                  # set A only
    YGOPRO_SCRIPTS=... .venv/bin/python benchmarks/mypyc_probe.py --limit-b 20
    .venv/bin/python benchmarks/mypyc_probe.py --keep DIR       # keep the build in DIR
    .venv/bin/python benchmarks/mypyc_probe.py --reuse DIR      # replay with that build
    .venv/bin/python benchmarks/mypyc_probe.py --bindings       # compile the bindings too
    YGOPRO_SCRIPTS=... .venv/bin/python benchmarks/mypyc_probe.py --reuse DIR --limit-a 0 --limit-b 0 --selfplay 30

Needs mypy (the test extra) and a C compiler; the build takes 2-3 minutes on two cores
(``--opt 0`` about one).  What the scratch copy changes, and why (benchmarks/README.md,
"A mypyc build of the engine"):

* the mixins of Duel, Card and Effect become mypyc traits (Card's non-trait base first);
* Effect and its mixin stay ordinary classes: the handle table weak-references effects,
  and mypyc's native classes take no weak references;
* Card gets an explicit ``__hash__`` (a native class defining ``__lt__`` loses the
  inherited hash);
* annotations that mypyc would enforce at run time and the bindings do not honour are
  widened: parameters and returns of one engine class accept None, locals that later
  hold None become Any (found with mypy), ``Proc`` returns Any;
* messages, prompt kinds, responses, the wire format, the RNG, the card database and
  the deck reader stay interpreted (dynamic class building, bytes/bytearray, pydantic).

With ``--bindings`` the bindings are compiled too, except the modules named in
``BINDINGS_INTERPRETED``; every class in them stays an ordinary class (lupa and the
handle table set attributes and take weak references), and ``BINDINGS_EDITS`` lists what
else they needed, each with its reason.

Each edit is an exact text replacement: when the engine changes under it the script
stops with the file and the text it did not find (exit 1).
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
SET_A = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
INTERPRETED = {"messages.py", "group.py", "rng.py", "carddb.py", "ydk.py", "prompt_kinds.py",
               "responses.py", "wire.py"}
ONE_CLASS = {"Card", "Effect", "Group", "Chain", "Event", "CardSet"}
# --bindings: the bindings compiled too, but these (registry.py's entries carry a
# ``lua_twin`` attribute and are told from Lua functions by type; the watcher reads
# Python frames; the rest is cold)
BINDINGS_INTERPRETED = {"registry.py", "overrun.py", "errors.py", "files.py", "__init__.py"}

# (file under engine/, text, replacement)
EDITS = [
    ("card.py", "class Card(CardStatsMixin, CardChecksMixin, CardEffectsMixin, CardBase):",
     "class Card(CardBase, CardStatsMixin, CardChecksMixin, CardEffectsMixin):"),
    ("card.py", '    def __lt__(self, other: "Card") -> bool:',
     '    def __hash__(self) -> int:\n        return id(self) >> 4\n\n    def __lt__(self, other: "Card") -> bool:'),
    ("card.py", "self.unique_effect: Effect | None = None", "self.unique_effect: Any = None"),
    ("card.py", "self.equiping_target: Card | None = None", "self.equiping_target: Any = None"),
    ("card.py", "self.pre_equip_target: Card | None = None", "self.pre_equip_target: Any = None"),
    ("card_effects.py", "        self.equiping_target = target\n", "        self.equiping_target: Any = target\n"),
    ("card_effects.py", "        self.unique_effect = peffect\n", "        self.unique_effect: Any = peffect\n"),
    ("card_effects.py", "            self.attack_all_target = True\n", "            self.attack_all_target = 1\n"),
    ("card_data.py", "        for name in CardState.__slots__:\n", "        for name in CardState_FIELDS:\n"),
    ("event.py", "        c = Chain.__new__(Chain)\n        for name in Chain.__slots__:\n",
     "        c = Chain()\n        for name in Chain_FIELDS:\n"),
    ("event.py", "        self.evt = Event()\n", "        self.evt: Any = Event()\n"),
    ("field/materials.py", "MaterialsMixin.get_sum_params", "sum_params"),
    ("operations/misc.py", "        sent = yield from self.proc_send_to(", "        sent: Any = yield from self.proc_send_to("),
    ("processor/driver.py", "Proc = Generator[Any, Any, None]", "Proc = Generator[Any, Any, Any]"),
    ("duel.py", "self.oath: dict[Effect, Effect] = {}", "self.oath: dict[Effect, Any] = {}"),
    ("duel.py", "class CoreState:\n", "class CoreState:\n    damage_step_reserved_des: Any = None\n"),
    ("effect.py", "\nclass Effect(", "\n@mypyc_attr(native_class=False)\nclass Effect("),
]

# (file under bindings/, text, replacement), with --bindings
BINDINGS_EDITS = [
    # object.__new__ of an ordinary class (the singleton is made once, at import)
    ("handles.py", "    def __new__(cls) -> \"_NoValueType\":\n        if cls._instance is None:\n"
                   "            cls._instance = super().__new__(cls)\n        return cls._instance\n", ""),
    # a tuple assignment in a class body
    ("host.py", "    NEW, SUSPENDED, DONE = 0, 1, 2\n", "    NEW = 0\n    SUSPENDED = 1\n    DONE = 2\n"),
    ("lib_duel_state.py", "    scard = None\n    stype = None\n", "    scard: Any = None\n    stype: Any = None\n"),
    # hints mypyc enforces that the callers do not honour: lupa decodes memoryviews
    ("runtime.py", "    def decode(data: bytes, errors", "    def decode(data: Any, errors"),
    # a local first bound to a float and later to False: mypyc would keep it a float
    # (0.0, which Lua reads as true: a fresh budget for a nested call)
    ("host.py", "        fresh = self._lua_depth == 0\n        try:\n",
     "        fresh = self._lua_depth == 0\n        arm: Any = False\n        try:\n"),
    # the plain dispatcher's result is the Lua call's first value, not always a tuple
    ("host.py", "    def _enter(self, method: Callable[..., tuple], thread: int | None, *args: Any) -> tuple:",
     "    def _enter(self, method: Callable[..., Any], thread: int | None, *args: Any) -> Any:"),
    # a conditional expression mypyc types as its else branch (None)
    ("lib_duel_query.py", "    return playerid if _player_ok(playerid) else None\n",
     "    if _player_ok(playerid):\n        return playerid\n    return None\n"),
]


def fail(text: str) -> None:
    print(f"mypyc_probe: {text}", file=sys.stderr)
    raise SystemExit(1)


def edit(root: Path, rel: str, old: str, new: str) -> None:
    path = root / rel
    text = path.read_text()
    if old not in text:
        fail(f"{root.name}/{rel}: text not found: {old.strip()[:70]!r}")
    path.write_text(text.replace(old, new))


def add_import(path: Path, line: str) -> None:
    """Insert ``line`` after the module's docstring and ``from __future__`` imports."""
    src = path.read_text()
    body = ast.parse(src).body
    at = 0
    for node in body:
        docstring = isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and node is body[0]
        if docstring or (isinstance(node, ast.ImportFrom) and node.module == "__future__"):
            at = node.end_lineno or node.lineno
        else:
            break
    lines = src.split("\n")
    lines.insert(at, line)
    path.write_text("\n".join(lines))


def slots_to_constants(root: Path) -> None:
    """``for name in X.__slots__`` needs a module constant under mypyc."""
    for rel, cls in (("card_data.py", "CardState"), ("event.py", "Chain")):
        path = root / rel
        text = path.read_text()
        m = re.search(r"(class %s\b.*?\n)(    __slots__ = (\(.*?\)))\n" % cls, text, re.S)
        if m is None:
            fail(f"engine/{rel}: no __slots__ tuple in class {cls}")
        text = text.replace(m.group(2), f"    __slots__ = {cls}_FIELDS")
        text = text.replace(f"class {cls}", f"{cls}_FIELDS = {m.group(3)}\n\n\nclass {cls}", 1)
        path.write_text(text)


def traits(root: Path) -> None:
    """Every ``class ...Mixin`` becomes a trait, but Effect's (an ordinary class)."""
    for path in root.rglob("*.py"):
        text = path.read_text()
        if not re.search(r"^class \w+Mixin\b", text, re.M):
            continue
        native = path.name != "effect_rules.py"
        deco = "@trait" if native else "@mypyc_attr(native_class=False)"
        path.write_text(re.sub(r"^(class \w+Mixin\b)", deco + r"\n\1", text, flags=re.M))
    for path in root.rglob("*.py"):
        add_import(path, "from typing import Any as Any\nfrom mypy_extensions import trait, mypyc_attr")


def ordinary_classes(root: Path) -> None:
    """Every class of the compiled bindings stays an ordinary Python class (weak
    references, ``object.__new__``, attributes set from outside); their functions and
    methods are compiled."""
    for path in root.glob("*.py"):
        if path.name in BINDINGS_INTERPRETED:
            continue
        text = path.read_text()
        path.write_text(re.sub(r"^(class \w+)", r"@mypyc_attr(native_class=False)\n\1", text, flags=re.M))
        add_import(path, "from typing import Any as Any\nfrom mypy_extensions import trait, mypyc_attr")


def widen_one_class(root: Path) -> int:
    """Parameters and returns typed as one engine class also accept None."""
    count = 0
    for path in root.rglob("*.py"):
        src = path.read_text()
        offs = [0]
        for line in src.split("\n"):
            offs.append(offs[-1] + len(line) + 1)
        spans = []
        for node in ast.walk(ast.parse(src)):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            anns = [a.annotation for a in node.args.posonlyargs + node.args.args + node.args.kwonlyargs
                    if a.arg != "self"]
            for ann in [*anns, node.returns]:
                if ann is None:
                    continue
                bare = (ast.get_source_segment(src, ann) or "").strip("\"'")
                if bare in ONE_CLASS:
                    spans.append((offs[ann.lineno - 1] + ann.col_offset,
                                  offs[ann.end_lineno - 1] + ann.end_col_offset, f'"{bare} | None"'))
        for start, end, text in sorted(spans, reverse=True):
            src = src[:start] + text + src[end:]
        if spans:
            path.write_text(src)
            count += len(spans)
    return count


def compiled_files(scratch: Path, bindings: bool) -> list[str]:
    pkg = scratch / "duelhost"
    files = [p for p in (pkg / "engine").rglob("*.py") if p.name not in INTERPRETED]
    if bindings:
        files += [p for p in (pkg / "bindings").glob("*.py") if p.name not in BINDINGS_INTERPRETED]
    return sorted(str(p.relative_to(scratch)) for p in files)


def mypy_findings(scratch: Path, bindings: bool) -> list[str]:
    files = [str(p.relative_to(scratch)) for p in (scratch / "duelhost" / "engine").rglob("*.py")]
    if bindings:
        files += compiled_files(scratch, True)
        files = sorted(set(files))
    cfg = scratch / "probe-mypy.ini"
    cfg.write_text("[mypy]\npython_version = 3.11\n[mypy-lupa.*]\nignore_missing_imports = True\n")
    res = subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(cfg), *files],
                         cwd=scratch, capture_output=True, text=True)
    return res.stdout.splitlines()


def none_returns_and_locals(scratch: Path, bindings: bool) -> int:
    """``-> None`` functions that return a value return Any; locals first bound to a
    class and later to None become Any (mypy names both)."""
    fixes: dict[Path, set[tuple[str, int]]] = defaultdict(set)
    compiled = set(compiled_files(scratch, bindings))
    for line in mypy_findings(scratch, bindings):
        m = re.match(r"(duelhost/(?:engine|bindings)/\S+?\.py):(\d+): error: (.*)", line)
        if m is None or m.group(1) not in compiled:
            continue
        kind = ("ret" if m.group(3).startswith("No return value expected")
                else "var" if "variable has type" in m.group(3) and "Incompatible types in assignment" in m.group(3)
                else None)
        if kind:
            fixes[scratch / m.group(1)].add((kind, int(m.group(2))))
    count = 0
    for path, items in fixes.items():
        src = path.read_text()
        lines = src.split("\n")
        funcs = [n for n in ast.walk(ast.parse(src)) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
        inserts: dict[int, set[tuple[str, str]]] = defaultdict(set)
        for kind, ln in items:
            fn = max((f for f in funcs if f.lineno <= ln <= (f.end_lineno or f.lineno)), key=lambda f: f.lineno)
            if kind == "ret":
                i = fn.lineno - 1
                while "-> None:" not in lines[i] and not lines[i].rstrip().endswith(":"):
                    i += 1
                lines[i] = lines[i].replace("-> None:", "-> Any:")
                count += 1
                continue
            m = re.match(r"\s*(?:for\s+)?(\w+)", lines[ln - 1])
            if m is None or m.group(1) == "for":
                continue
            first = fn.body[0]
            doc = isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant)
            at = (first.end_lineno or first.lineno) if doc else first.lineno - 1
            indent = re.match(r"\s*", lines[fn.body[0].lineno - 1]).group(0)  # type: ignore[union-attr]
            name = m.group(1)
            for i in range(fn.lineno - 1, fn.end_lineno or fn.lineno):    # one declaration only
                lines[i] = re.sub(rf"^(\s*){name}: [^=]+= ", rf"\g<1>{name} = ", lines[i])
            inserts[at].add((indent, name))
        for at in sorted(inserts, reverse=True):
            for indent, name in sorted(inserts[at]):
                lines.insert(at, f"{indent}{name}: Any")
                count += 1
        path.write_text("\n".join(lines))
    return count


def prepare(scratch: Path, bindings: bool) -> None:
    pkg = scratch / "duelhost"
    # (with the frame-chunk helper, if it was built: both sides run with it)
    shutil.copytree(REPO / "duelhost", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "engine", pkg / "engine", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(REPO / "bindings", pkg / "bindings", ignore=shutil.ignore_patterns("__pycache__"))
    engine = pkg / "engine"
    slots_to_constants(engine)
    traits(engine)
    for rel, old, new in EDITS:
        edit(engine, rel, old, new)
    widened = widen_one_class(engine)
    if bindings:
        for rel, old, new in BINDINGS_EDITS:
            edit(pkg / "bindings", rel, old, new)
        ordinary_classes(pkg / "bindings")
        widened += widen_one_class(pkg / "bindings")
    print(f"widened {widened} annotations; "
          f"{none_returns_and_locals(scratch, bindings)} returns/locals made Any", file=sys.stderr)


def build(scratch: Path, opt: str, bindings: bool) -> None:
    files = compiled_files(scratch, bindings)
    (scratch / "mypy.ini").write_text("[mypy]\npython_version = 3.11\n[mypy-lupa.*]\nignore_missing_imports = True\n"
                                      "[mypy-duelhost.engine.*]\nignore_errors = True\n"
                                      "[mypy-duelhost.bindings.*]\nignore_errors = True\n")
    (scratch / "setup_probe.py").write_text(
        "from setuptools import setup\nfrom mypyc.build import mypycify\n"
        f"setup(name='probe', ext_modules=mypycify({files!r}, opt_level={opt!r}, multi_file=True))\n")
    res = subprocess.run([sys.executable, "setup_probe.py", "build_ext", "--inplace", "-j", "2"],
                         cwd=scratch, capture_output=True, text=True)
    if res.returncode != 0:
        errors = [line for line in (res.stdout + res.stderr).splitlines() if "error" in line]
        fail("the mypyc build failed:\n" + "\n".join(errors[:20]))


REPLAY = r"""
import sys, time
from pathlib import Path
from duelhost.golden import load_records, record_card_reader
from duelhost.conformance import replay_record
from duelhost.bindings.host import LuaScriptHost
path, limit, scripts = sys.argv[1], int(sys.argv[2]), sys.argv[3]
recs = [r for _, r in zip(range(limit), load_records(Path(path)))]
import duelhost.engine.card as card_module
t0 = time.process_time()
same = 0
for rec in recs:
    host = LuaScriptHost(Path(scripts)) if rec.scripts is not None else None
    same += replay_record(rec, record_card_reader(rec), host).identical
print(time.process_time() - t0, same, len(recs), sum(r.result.responses for r in recs),
      card_module.__file__.endswith(".so"))
"""


def replay(pythonpath: str | None, path: Path, limit: int, scripts: str) -> tuple[float, int, int, int, bool]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    # (run from a folder without a duelhost/ in it: "-c" puts the working folder first)
    res = subprocess.run([sys.executable, "-c", REPLAY, str(path), str(limit), scripts],
                         capture_output=True, text=True, env=env, cwd=pythonpath or tempfile.gettempdir())
    if res.returncode != 0:
        fail(f"replay of {path.name} failed:\n{res.stderr[-2000:]}")
    secs, same, n, responses, compiled = res.stdout.split()
    return float(secs), int(same), int(n), int(responses), compiled == "True"


SELFPLAY = r"""
import sys, time, hashlib
from pathlib import Path
sys.path.insert(0, sys.argv[4])
import bench
import duelhost.engine.card as card_module
n, scripts, db = int(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
t0 = time.process_time()
r = bench.selfplay("duelhost", scripts, db, list(range(1, n + 1)), None, None, 0)
secs = time.process_time() - t0
ends = hashlib.sha256(repr([(d["responses"], d["end"]) for d in r["per_duel"]]).encode()).hexdigest()[:12]
print(secs, ends, n, r["responses"], card_module.__file__.endswith(".so"))
"""


def selfplay(pythonpath: str | None, duels: int, scripts: str, db: str) -> tuple[float, str, int, int, bool]:
    """bench.py's self-play workload (seeds 1..duels) in a fresh process: CPU seconds, a
    digest of every duel's response count and end (the same in both builds when they
    play alike), duels, responses, whether the compiled engine was imported."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if pythonpath:
        env["PYTHONPATH"] = pythonpath
    res = subprocess.run([sys.executable, "-c", SELFPLAY, str(duels), scripts, db, str(REPO / "benchmarks")],
                         capture_output=True, text=True, env=env, cwd=pythonpath or tempfile.gettempdir())
    if res.returncode != 0:
        fail(f"self-play failed:\n{res.stderr[-2000:]}")
    secs, ends, n, responses, compiled = res.stdout.split()
    return float(secs), ends, int(n), int(responses), compiled == "True"


def compare_selfplay(scratch: Path, duels: int, rounds: int, scripts: str, db: str) -> None:
    """Self-play through both builds, alternating; the ratio of the median CPU seconds."""
    times: dict[str, list[float]] = {"pure": [], "compiled": []}
    digests: set[str] = set()
    n = responses = 0
    for _ in range(rounds):
        for side, pp in (("compiled", str(scratch)), ("pure", None)):
            secs, ends, n, responses, compiled = selfplay(pp, duels, scripts, db)
            if compiled != (side == "compiled"):
                fail(f"the {side} run imported the wrong engine")
            times[side].append(secs)
            digests.add(ends)
    pure, comp = statistics.median(times["pure"]), statistics.median(times["compiled"])
    alike = "the same responses and ends in every run" if len(digests) == 1 else "DIFFERENT responses or ends"
    print(f"self-play: {n} duels, {responses} responses ({alike}); CPU s pure {pure:.2f}, "
          f"compiled {comp:.2f}; pure/compiled {pure / comp:.2f}x")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--limit-a", type=int, default=40)
    ap.add_argument("--limit-b", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--opt", default="3", help="mypyc's C optimisation level (0-3)")
    ap.add_argument("--keep", type=Path, help="build in this (new) folder and keep it")
    ap.add_argument("--reuse", type=Path, help="replay with the build a --keep run left in this folder")
    ap.add_argument("--bindings", action="store_true",
                    help="compile the bindings too (their classes stay ordinary classes)")
    ap.add_argument("--scripts", default=os.environ.get("YGOPRO_SCRIPTS"))
    ap.add_argument("--golden-b", type=Path)
    ap.add_argument("--selfplay", type=int, default=0, metavar="N",
                    help="also N seeded self-play duels with the real scripts (bench.py's workload)")
    ap.add_argument("--db", default=os.environ.get("DUELHOST_CORPUS_DB",
                                                   str(REPO.parent / "shared" / "cards" / "corpus.cdb")))
    args = ap.parse_args()
    sets = [("set A", SET_A, args.limit_a)] if args.limit_a > 0 else []
    if args.scripts:
        from duelhost.golden import default_golden_dir
        set_b = args.golden_b or default_golden_dir() / "real.jsonl.gz"
        if set_b.is_file():
            if args.limit_b > 0:
                sets.append(("set B", set_b, args.limit_b))
        else:
            print(f"skipped set B: {set_b} not found", file=sys.stderr)
    else:
        print("skipped set B: no script folder (--scripts or YGOPRO_SCRIPTS)", file=sys.stderr)
    if args.selfplay and not (args.scripts and Path(args.db).is_file()):
        fail("--selfplay needs the real scripts (--scripts or YGOPRO_SCRIPTS) and the corpus (--db)")
    if args.reuse and not (args.reuse / "duelhost" / "engine").is_dir():
        fail(f"{args.reuse}: no build of an earlier --keep run")
    scratch = args.reuse or args.keep or Path(tempfile.mkdtemp(prefix="duelhost-mypyc-"))
    if args.keep and not args.reuse and scratch.exists():
        fail(f"{scratch} exists; --keep needs a new folder")
    scratch.mkdir(parents=True, exist_ok=True)
    try:
        if not args.reuse:
            prepare(scratch, args.bindings)
            build(scratch, args.opt, args.bindings)
        for name, path, limit in sets:
            times: dict[str, list[float]] = {"pure": [], "compiled": []}
            fewest: dict[str, int] = {}         # the fewest identical replays of any round
            for _ in range(args.rounds):
                for side, pp in (("compiled", str(scratch)), ("pure", None)):
                    secs, same, n, responses, compiled = replay(pp, path, limit, args.scripts or "")
                    if compiled != (side == "compiled"):
                        fail(f"the {side} run imported the wrong engine")
                    times[side].append(secs)
                    fewest[side] = min(same, fewest.get(side, same))
            pure, comp = statistics.median(times["pure"]), statistics.median(times["compiled"])
            print(f"{name}: {n} duels, {responses} responses; identical in every round: compiled "
                  f"{fewest['compiled']}/{n}, pure {fewest['pure']}/{n}; CPU s pure {pure:.2f}, "
                  f"compiled {comp:.2f}; pure/compiled {pure / comp:.2f}x")
        if args.selfplay:
            compare_selfplay(scratch, args.selfplay, args.rounds, args.scripts, args.db)
    finally:
        if not (args.keep or args.reuse):
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
