"""Deadlines that always fire: work run in forked child processes that the parent kills.

The pool itself lives in duelhost.execution.local (the execution layer that
check, selfplay and diff share, see duelhost.execution); this module keeps the
two plain entry points for one-off uses:

- ``run_forked(fn, timeout)`` runs ``fn(progress)`` once in a child;
- ``run_pool(tasks, handler, jobs=..., timeout=...)`` serves tasks to ``jobs``
  long-lived children, one at a time each, with a deadline per task.

The child writes how far it got into ``progress`` (shared integers), the parent
waits for the result until the deadline, and a child that is late is killed
(SIGKILL).  Late or dead children come back as a ``Lost`` (why, the progress at
that moment, the exit code).  Results travel through a pipe, so they must
pickle.  docs/security.md says what each limit is.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .execution import Work
from .execution.local import run_pool as _run_pool
from .execution.lost import PROGRESS_FIELDS, Lost

__all__ = ["Lost", "PROGRESS_FIELDS", "run_forked", "run_pool"]


class _Handler(Work):
    """A plain ``handler(task, progress)`` as a Work (forked children inherit it)."""

    def __init__(self, handler: Callable[[Any, Any], Any]) -> None:
        self.handler = handler

    def run(self, state: Any, item: Any, progress: Any) -> Any:
        return self.handler(item, progress)


def run_pool(tasks: Iterable[Any], handler: Callable[[Any, Any], Any], *, jobs: int,
             timeout: float | None, on_result: Callable[[Any, Any], None],
             on_lost: Callable[[Any, Lost], None]) -> None:
    """Run ``handler(task, progress)`` for every task in ``jobs`` forked children.

    Each task has ``timeout`` seconds (None: no limit) from the moment it is sent;
    a child past it is killed.  ``on_result(task, value)`` gets every result,
    ``on_lost(task, lost)`` every task that gave none; both run in this process,
    in the order tasks end.  A lost child is replaced while tasks remain.
    """
    _run_pool([(t, t) for t in tasks], _Handler(handler), jobs=jobs, timeout=timeout,
              on_result=lambda t, v: on_result(t[0], v), on_lost=lambda t, lost: on_lost(t[0], lost))


def run_forked(fn: Callable[[Any], Any], timeout: float | None) -> tuple[Any, Lost | None]:
    """``fn(progress)`` in a forked child with a deadline: (its value, None), or
    (None, Lost) when it was killed at ``timeout`` seconds or died."""
    out: dict[str, Any] = {}
    run_pool([0], lambda _task, progress: fn(progress), jobs=1, timeout=timeout,
             on_result=lambda _t, v: out.__setitem__("value", v),
             on_lost=lambda _t, lost: out.__setitem__("lost", lost))
    return out.get("value"), out.get("lost")
