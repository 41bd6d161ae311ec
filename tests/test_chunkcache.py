"""The optional C helper that keeps freed frame-stack chunks (duelhost/_chunkcache.c).

A call depth that goes back and forth across a 16 KiB chunk boundary of the
interpreter's frame stack makes CPython map and unmap a chunk on every crossing;
with the helper installed (importing duelhost does it) the chunk is kept and
reused.  Built when the package is installed with a C compiler; skipped without.
"""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

import duelhost  # noqa: F401  (installs the cache)

chunkcache = pytest.importorskip("duelhost._chunkcache", reason="the C helper was not built (no compiler)")


def _leaf() -> int:
    return 1


def _at_depth(depth: int, crossings: int) -> int:
    """Recurse to ``depth`` frames, then call one more frame ``crossings`` times."""
    if depth:
        return _at_depth(depth - 1, crossings)
    return sum(_leaf() for _ in range(crossings))


def test_importing_duelhost_installs_it() -> None:
    assert chunkcache.stats()["installed"] is True


def test_a_chunk_crossed_back_and_forth_is_reused_not_remapped() -> None:
    # every depth over a range wider than one chunk: some depth sits at a boundary
    before = chunkcache.stats()
    for depth in range(0, 400, 1):
        _at_depth(depth, 200)
    after = chunkcache.stats()
    assert after["reused"] - before["reused"] >= 200          # at least one boundary was crossed 200 times
    assert after["allocated"] - before["allocated"] <= 8      # ... without asking the system each time
    assert after["cached"] <= 32


def test_it_can_be_turned_off() -> None:
    code = "import duelhost, duelhost._chunkcache as c; print(c.stats()['installed'])"
    env = {**os.environ, "DUELHOST_CHUNK_CACHE": "0"}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
