"""Python's cyclic garbage collector, tuned for runs of many duels.

A duel allocates a great many short-lived objects; with Python's default
thresholds (700, 10, 10) the collector runs every 700 allocations, and its
older generations walk everything alive -- a card database of 13,000 rows
included.  Measured on this project's workloads (benchmarks/README.md):
``duelhost check`` of the corpus with 2 workers 529 -> 682 cards/s (134 ->
218 MiB per worker); the 40 recorded real-deck duels in one process 1,820 ->
1,997 responses/s (93 -> 189 MiB peak).  The price is memory: a finished
duel is cyclic garbage, and with these thresholds it waits longer to be
collected.

The ``duelhost`` commands call ``tune_for_throughput()`` once at start (forked
workers inherit it).  A program driving duels through the Python API may
call it too; it changes the thresholds of the whole process.
"""

from __future__ import annotations

import gc

THROUGHPUT_THRESHOLDS = (50_000, 20, 20)


def tune_for_throughput() -> tuple[int, int, int]:
    """Raise the collector's thresholds to THROUGHPUT_THRESHOLDS; returns the old ones
    (``gc.set_threshold(*old)`` puts them back)."""
    old = gc.get_threshold()
    gc.set_threshold(*THROUGHPUT_THRESHOLDS)
    return old
