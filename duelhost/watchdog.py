"""Deadlines that always fire: work run in forked child processes that the parent kills.

A script's time budget (bindings/runtime.py) is enforced inside the process:
it stops Lua code, bounds the C functions scripts call and counts the host's
work for a script.  What it cannot stop is a single long computation that
never comes back to a check (engine work the reference would hang on too, a C
call we did not foresee).  The tools that run many duels or cards therefore
run each one in a forked child and give it a deadline the parent keeps:

- ``run_forked(fn, timeout)`` runs ``fn(progress)`` once in a child;
- ``run_pool(tasks, handler, jobs=..., timeout=...)`` serves tasks to ``jobs``
  long-lived children, one at a time each, with a deadline per task.

The rule is the same for both: the child writes how far it got into
``progress`` (shared integers, e.g. turn and responses), the parent waits for
the result until the deadline, and a child that is late is killed
(SIGKILL: nothing in the child has to cooperate).  Late or dead children come
back as a ``Lost`` (why, the progress at that moment, the exit code), and
a pool replaces the child and goes on with the next task.  Results travel
through a pipe, so they must pickle.

selfplay (duels), diff (golden and live duels) and check (cards, through its
own worker protocol) use these; docs/security.md says what each limit is.
"""

from __future__ import annotations

import collections
import multiprocessing
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

__all__ = ["Lost", "PROGRESS_FIELDS", "run_forked", "run_pool"]

# integers each child can write into its shared progress array
PROGRESS_FIELDS = 8


@dataclass(frozen=True)
class Lost:
    """A task that gave no result: "timeout" (killed at its deadline) or "crash"
    (the child died, ``exitcode`` says how), with the child's progress then."""

    how: str
    progress: tuple[int, ...]
    exitcode: int | None
    seconds: float

    def describe(self, timeout: float | None) -> str:
        """One clause for a report: why there is no result."""
        if self.how == "timeout":
            return f"no result after {timeout:g} s; its process was killed"
        return f"its process died (exit code {self.exitcode})"


def _context() -> Any:
    return multiprocessing.get_context("fork")


@dataclass
class _Child:
    """One forked child serving tasks over a pipe, with its progress array."""

    proc: Any
    conn: Any
    progress: Any
    task: Any = None
    busy: bool = False
    since: float = 0.0

    def start(self, task: Any) -> None:
        for i in range(len(self.progress)):
            self.progress[i] = 0
        self.task, self.busy, self.since = task, True, time.monotonic()
        self.conn.send((task,))

    def lost(self, how: str) -> Lost:
        """Kill the child (if it still runs) and describe the task it was serving."""
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()
        return Lost(how=how, progress=tuple(self.progress), exitcode=self.proc.exitcode,
                    seconds=time.monotonic() - self.since)


def _serve(conn: Any, progress: Any, handler: Callable[[Any, Any], Any]) -> None:
    """The child's loop: run the handler on each task until told to stop (None)."""
    try:
        while True:
            msg = conn.recv()
            if msg is None:
                return
            conn.send(handler(msg[0], progress))
    except (EOFError, KeyboardInterrupt, BrokenPipeError):
        return


def _spawn(handler: Callable[[Any, Any], Any]) -> _Child:
    ctx = _context()
    parent, child = ctx.Pipe()
    progress = ctx.RawArray("q", PROGRESS_FIELDS)
    proc = ctx.Process(target=_serve, args=(child, progress, handler), daemon=True,
                       name="duelhost-watched")
    proc.start()
    child.close()
    return _Child(proc=proc, conn=parent, progress=progress)


def run_pool(tasks: Iterable[Any], handler: Callable[[Any, Any], Any], *, jobs: int,
             timeout: float | None, on_result: Callable[[Any, Any], None],
             on_lost: Callable[[Any, Lost], None]) -> None:
    """Run ``handler(task, progress)`` for every task in ``jobs`` forked children.

    Each task has ``timeout`` seconds (None: no limit) from the moment it is sent;
    a child past it is killed.  ``on_result(task, value)`` gets every result,
    ``on_lost(task, lost)`` every task that gave none; both run in this process,
    in the order tasks end.  A lost child is replaced while tasks remain.
    """
    todo = collections.deque(tasks)
    children: list[_Child] = []

    def feed(c: _Child) -> None:
        if todo:
            c.start(todo.popleft())
        else:
            c.busy = False

    try:
        for _ in range(max(1, min(jobs, len(todo)))):
            c = _spawn(handler)
            children.append(c)
            feed(c)
        while any(c.busy for c in children):
            busy = [c for c in children if c.busy]
            wait_for = None
            if timeout is not None:
                now = time.monotonic()
                wait_for = max(0.0, min(c.since + timeout - now for c in busy))
            ready = wait([c.conn for c in busy] + [c.proc.sentinel for c in busy], timeout=wait_for)
            now = time.monotonic()
            for c in busy:
                lost: Lost | None = None
                if c.conn in ready or c.proc.sentinel in ready:
                    try:
                        value = c.conn.recv()     # a dead child's pipe is at its end: EOFError
                    except (EOFError, OSError):
                        lost = c.lost("crash")
                    else:
                        task = c.task
                        feed(c)
                        on_result(task, value)
                        continue
                elif timeout is not None and now - c.since >= timeout:
                    lost = c.lost("timeout")
                if lost is not None:
                    children.remove(c)
                    task = c.task
                    if todo:
                        nc = _spawn(handler)
                        children.append(nc)
                        feed(nc)
                    on_lost(task, lost)
    finally:
        for c in children:
            try:
                c.conn.send(None)
            except (OSError, ValueError):
                pass
        for c in children:
            c.proc.join(2)
            if c.proc.is_alive():
                c.proc.kill()
                c.proc.join(5)


@dataclass
class _One:
    value: Any = None
    lost: Lost | None = None
    done: bool = False


def run_forked(fn: Callable[[Any], Any], timeout: float | None) -> tuple[Any, Lost | None]:
    """``fn(progress)`` in a forked child with a deadline: (its value, None), or
    (None, Lost) when it was killed at ``timeout`` seconds or died."""
    out = _One()

    def got(_task: Any, value: Any) -> None:
        out.value, out.done = value, True

    def lost(_task: Any, why: Lost) -> None:
        out.lost = why

    run_pool([0], lambda _task, progress: fn(progress), jobs=1, timeout=timeout,
             on_result=got, on_lost=lost)
    return out.value, out.lost
