"""How many CPU instructions replaying recorded duels costs (issue 10): exact and repeatable.

Time on the shared two-core machines drifts by up to 2x within minutes, so the speed work
has been measured by instructions: ``valgrind --tool=cachegrind --cache-sim=no`` over a
process that replays the first N recorded duels of a set, minus the same process
replaying none (Python's start-up, the imports and reading the recording cost the same in
both).  The count repeats to the last digit for the same tree; a change of memory layout
moves it by about 0.2%.  It is a proxy: it misses cache misses and the interpreter's
instructions per cycle, so a gain must also show in time (bench.py, --rounds).

    .venv/bin/python benchmarks/instructions.py                       # set A, 10 duels
    YGOPRO_SCRIPTS=... .venv/bin/python benchmarks/instructions.py --set A B --duels 3
    .venv/bin/python benchmarks/instructions.py --tree ../before --tree .   # two trees, one run

A tree is a checkout with its own ``.venv`` (its Python imports that tree's duelhost);
without one the current interpreter runs with the tree on ``PYTHONPATH``.  Every replay
must stay identical to its recording, or the figure is not printed (exit 1).  Set B needs
the real scripts (``YGOPRO_SCRIPTS``) and ``real.jsonl.gz`` of the golden folder
(``--golden-b``); without them it is skipped with a line that says so.  Needs valgrind.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parent.parent
SET_A = REPO / "tests" / "data" / "golden" / "vanilla.jsonl.gz"
SET_B = REPO.parent / "shared" / "golden" / "real.jsonl.gz"

# The child: bench.py's own replay of the first N records of a golden file (0: only what
# every run does before replaying, the script host's module imported too); prints the
# number that stayed identical.
CHILD = r"""
import sys
from pathlib import Path
sys.path.insert(0, "benchmarks")
import bench
import duelhost.bindings.host
path, n, scripts = Path(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
records = bench.golden_records(path, max(n, 1))[:n]
print("identical", bench.golden_ours(records, Path(scripts) if scripts else None)["identical"])
"""

_REFS = re.compile(r"I\s+refs:\s+([\d,]+)")


def tree_python(tree: Path) -> tuple[str, dict[str, str]]:
    """The interpreter that imports ``tree``'s duelhost, and its environment."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)    # (a child would compile the package each run)
    venv = tree / ".venv" / "bin" / "python"
    if venv.is_file():
        return str(venv), env
    env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(tree), env.get("PYTHONPATH"))))
    return sys.executable, env


def count(tree: Path, golden: Path, duels: int, scripts: str, valgrind: bool = True) -> tuple[int, int]:
    """(instructions, identical replays) of one child process under cachegrind
    (``valgrind=False``: the same process run plainly, instructions 0)."""
    python, env = tree_python(tree)
    tool = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null"]
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp, "replay.py")
        script.write_text(CHILD, encoding="utf-8")
        out = subprocess.run(
            (tool if valgrind else []) + [python, str(script), str(golden), str(duels), scripts],
            cwd=tree, env=env, capture_output=True, text=True, check=False)
    refs = _REFS.search(out.stderr) if valgrind else None
    same = re.search(r"^identical (\d+)$", out.stdout, re.M)
    if out.returncode != 0 or same is None or (valgrind and refs is None):
        tail = (out.stderr or out.stdout).strip().splitlines()[-5:]
        how = "under valgrind" if valgrind else "run plainly"
        raise RuntimeError(f"{tree}: the replay {how} failed: " + " | ".join(tail))
    return (int(refs.group(1).replace(",", "")) if refs else 0), int(same.group(1))


def measure(tree: Path, name: str, golden: Path, duels: int, scripts: str) -> dict[str, Any]:
    # a plain run first, so that every module a replay imports has its bytecode written
    # before either counted run (compiling one inside a count would add millions)
    count(tree, golden, 1, scripts, valgrind=False)
    full, same = count(tree, golden, duels, scripts)
    base, _ = count(tree, golden, 0, scripts)
    return {"tree": str(tree), "set": name, "duels": duels, "identical": same,
            "instructions": full - base}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--set", nargs="+", choices=("A", "B"), default=["A"], dest="sets")
    ap.add_argument("--duels", type=int, default=None,
                    help="duels replayed per set (default: 10 of set A, 3 of set B)")
    ap.add_argument("--tree", type=Path, action="append",
                    help="a checkout to measure (repeatable; default: this one)")
    ap.add_argument("--scripts", default=os.environ.get("YGOPRO_SCRIPTS"),
                    help="the real script folder for set B (default: $YGOPRO_SCRIPTS)")
    ap.add_argument("--golden-b", type=Path, default=SET_B)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args(argv)
    if a.duels is not None and a.duels < 1:
        ap.error("--duels must be at least 1")
    a.tree = [t.resolve() for t in (a.tree or [REPO])]
    for t in a.tree:
        if not (t / "duelhost").is_dir():
            ap.error(f"{t}: not a duelhost checkout (no duelhost/ folder)")
    return a


def main(argv: list[str] | None = None) -> int:
    a = parse_args(argv)
    if shutil.which("valgrind") is None:
        print("Error: valgrind is not installed (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    plan: list[tuple[str, Path, str, int]] = []
    skipped: list[str] = []
    for name in a.sets:
        if name == "A":
            plan.append(("A", SET_A, "", a.duels or 10))
        elif not a.scripts or not Path(a.scripts, "utility.lua").is_file():
            skipped.append("set B (no real script folder: YGOPRO_SCRIPTS or --scripts)")
        elif not a.golden_b.is_file():
            skipped.append(f"set B (no {a.golden_b.name}: --golden-b)")
        else:
            plan.append(("B", a.golden_b, str(Path(a.scripts).resolve()), a.duels or 3))
    rows, status = [], 0
    for name, golden, scripts, duels in plan:
        for tree in a.tree:
            row = measure(tree, name, golden, duels, scripts)
            if row["identical"] != duels:
                status = 1
                row["error"] = f"{duels - row['identical']} replay(s) no longer identical"
            rows.append(row)
            if not a.json:
                figure = row.get("error") or f"{row['instructions'] / 1e9:.4f}G instructions"
                print(f"set {name}, {duels} duels, {tree}: {figure}", flush=True)
    if a.json:
        print(json.dumps({"rows": rows, "skipped": skipped}, indent=1))
    elif skipped:
        print("skipped: " + "; ".join(skipped))
    return status


if __name__ == "__main__":
    sys.exit(main())
