"""What the frame-stack chunk cache (duelhost/_chunkcache.c) saves.

A Lua loop calls a Python function many times, started from Python at every
call depth in a range wider than one 16 KiB chunk of the interpreter's frame
stack.  At the depths where the Python callback opens a new chunk, CPython
maps and unmaps that chunk on every call; with the cache it is reused.  Each
side runs in its own process (DUELHOST_CHUNK_CACHE=1 / 0); printed: calls per
second at the median depth and at the worst depth, and their ratios.

    .venv/bin/python benchmarks/frame_chunks.py [--calls 20000] [--depths 0 400] [--json]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any


def child(calls: int, lo: int, hi: int) -> dict[str, Any]:
    import duelhost  # noqa: F401  (installs the cache unless DUELHOST_CHUNK_CACHE=0)
    import lupa

    lua = lupa.LuaRuntime()
    loop = lua.eval("function(f, n) local s = 0 for i = 1, n do s = s + f(i) end return s end")

    def level(c: int) -> int:          # a card query's shape: one small Python call
        return c & 7

    def at_depth(depth: int) -> float:
        if depth:
            return at_depth(depth - 1)
        t = time.perf_counter()
        loop(level, calls)
        return time.perf_counter() - t

    rates = [calls / at_depth(d) for d in range(lo, hi)]
    try:
        from duelhost import _chunkcache
        installed = bool(_chunkcache.stats()["installed"])
    except ImportError:
        installed = False
    median = statistics.median(rates)
    slow = sum(1 for r in rates if r < median / 2)
    return {"median": median, "worst": min(rates), "slow_depths": slow, "depths": len(rates),
            "installed": installed}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--depths", type=int, nargs=2, default=(0, 400), metavar=("FROM", "TO"))
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--_child", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a._child:
        print(json.dumps(child(a.calls, *a.depths)))
        return 0
    sys.setrecursionlimit(10000)
    out = {}
    for side, flag in (("cache", "1"), ("no cache", "0")):
        cmd = [sys.executable, __file__, "--_child", "--calls", str(a.calls), "--depths", *map(str, a.depths)]
        proc = subprocess.run(cmd, env={**os.environ, "DUELHOST_CHUNK_CACHE": flag},
                              capture_output=True, text=True, check=True)
        out[side] = json.loads(proc.stdout)
    if not out["cache"]["installed"]:
        out["note"] = "the C helper is not built: both sides ran without it"
    out["median_ratio"] = out["cache"]["median"] / out["no cache"]["median"]
    out["worst_ratio"] = out["cache"]["worst"] / out["no cache"]["worst"]
    if a.json:
        print(json.dumps(out))
        return 0
    print(f"Lua -> Python calls per second over call depths {a.depths[0]}-{a.depths[1]} ({a.calls} calls each)")
    for side in ("cache", "no cache"):
        r = out[side]
        print(f"  {side:9} median {r['median']:>12,.0f}   worst depth {r['worst']:>12,.0f}"
              f"   depths under half the median: {r['slow_depths']} of {r['depths']}")
    print(f"  cache / no cache: median {out['median_ratio']:.2f}x, worst depth {out['worst_ratio']:.2f}x")
    if "note" in out:
        print("  " + out["note"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
