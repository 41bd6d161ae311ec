"""The local backend: forked worker processes with deadlines that always fire.

A script's time budget (bindings/runtime.py) is enforced inside the process;
what it cannot stop is one long computation that never comes back to a check.
So every item runs in a forked child and the parent keeps its deadline:

- ``run_pool(tasks, work, jobs=..., timeout=...)`` serves tasks to ``jobs``
  long-lived children, one at a time each.  A child first builds its state
  (``work.prepare()``; or inherits a state built before the fork), says it
  is ready, then runs what it is sent;
- the child writes how far it got into ``progress`` (shared integers), the
  parent waits for the result until the deadline, and a child that is late is
  killed (SIGKILL: nothing in it has to cooperate).  A late or dead child's
  task comes back as a :class:`Lost` (why, the progress then, the exit code),
  the child is replaced and the pool goes on.  Results travel through a pipe,
  so they must pickle.

Children ignore SIGINT: Ctrl-C is the parent's (it stops them all and returns).
The Ray backend runs its chunks through this same pool on each node, so an
item's deadline and its report are the same on one machine and on a cluster.
"""

from __future__ import annotations

import collections
import multiprocessing
import os
import resource
import signal
import sys
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from multiprocessing.connection import wait
from typing import Any

from .lost import PROGRESS_FIELDS, Lost

__all__ = ["maxrss_kb", "run_pool"]

_UNSET: Any = object()


def maxrss_kb() -> int:
    """This process's peak resident memory in KiB (ru_maxrss is bytes on macOS)."""
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return rss // 1024 if sys.platform == "darwin" else rss


def _context() -> Any:
    return multiprocessing.get_context("fork")


@dataclass
class _Child:
    """One forked child serving tasks over a pipe, with its progress array."""

    proc: Any
    conn: Any
    progress: Any
    ready: bool = False
    task: Any = None
    busy: bool = False
    since: float = 0.0
    items: int = 0

    def start(self, task: Any) -> None:
        for i in range(len(self.progress)):
            self.progress[i] = 0
        self.task, self.busy, self.since = task, True, time.monotonic()
        self.conn.send((task[1],))

    def lost(self, how: str) -> Lost:
        """Kill the child (if it still runs) and describe the task it was serving."""
        if self.proc.is_alive():
            self.proc.kill()
        self.proc.join(5)
        self.conn.close()
        return Lost(how=how, progress=tuple(self.progress), exitcode=self.proc.exitcode,
                    seconds=time.monotonic() - self.since)


def _serve(conn: Any, progress: Any, work: Any, state: Any) -> None:
    """The child's loop: build the state, then run each task until told to stop (None)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with_parent()
    try:
        if state is _UNSET:
            try:
                state = work.prepare()
            except BaseException:  # noqa: BLE001 - the parent reports it
                conn.send(("fatal", traceback.format_exc()))
                return
        conn.send(("ready", {"pid": os.getpid(), **work.describe(state)}))
        items = 0
        while True:
            msg = conn.recv()
            if msg is None:
                conn.send(("bye", {"items": items, "maxrss_kb": maxrss_kb(), **work.finish(state)}))
                return
            value = work.run(state, msg[0], progress)
            items += 1
            conn.send(("result", value))
    except (EOFError, BrokenPipeError, KeyboardInterrupt):
        return


def _die_with_parent() -> None:
    """Linux: the child gets SIGKILL when its parent dies (a Ray worker killed by a cancel)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL, 0, 0, 0)   # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


def _spawn(work: Any, state: Any) -> _Child:
    ctx = _context()
    parent, child = ctx.Pipe()
    progress = ctx.RawArray("q", PROGRESS_FIELDS)
    proc = ctx.Process(target=_serve, args=(child, progress, work, state), daemon=True,
                       name="duelhost-worker")
    proc.start()
    child.close()
    return _Child(proc=proc, conn=parent, progress=progress)


def run_pool(tasks: Iterable[tuple[Any, Any]], work: Any, *, jobs: int, timeout: float | None,
             on_result: Callable[[Any, Any], None], on_lost: Callable[[Any, Lost], None],
             info: Any = None, state: Any = _UNSET, start_timeout: float = 120.0) -> None:
    """Run ``work.run(state, item, progress)`` for every ``(key, item)`` task in ``jobs``
    forked children.

    Each task has ``timeout`` seconds (None: no limit) from the moment it is sent;
    a child past it is killed.  ``on_result(task, value)`` gets every result,
    ``on_lost(task, lost)`` every task that gave none; both run in this process,
    in the order tasks end.  A lost child is replaced while tasks remain.  A
    child that cannot build its state (``work.prepare`` raised, it died or took
    more than ``start_timeout`` s first) stops the run with ExecutionError.
    ``info`` (a RunInfo) gets each child's summary and ready message.
    """
    from . import ExecutionError

    todo = collections.deque(tasks)
    children: list[_Child] = []
    started = time.monotonic()

    def record(c: _Child, ended: str, extra: dict[str, Any] | None = None) -> None:
        if info is not None:
            info.workers.append({"worker": f"pid {c.proc.pid}", "items": c.items, "ended": ended,
                                 **(extra or {})})

    def feed(c: _Child) -> None:
        if todo:
            c.start(todo.popleft())
        else:
            c.busy = False

    def spawn() -> None:
        nonlocal started
        started = time.monotonic()
        children.append(_spawn(work, state))

    finished = False
    try:
        for _ in range(max(1, min(jobs, len(todo)))):
            spawn()
        while any(c.busy or not c.ready for c in children):
            live = [c for c in children if c.busy or not c.ready]
            wait_for = 1.0
            busy = [c for c in live if c.busy]
            if timeout is not None and busy:
                now = time.monotonic()
                wait_for = max(0.0, min(c.since + timeout - now for c in busy))
            ready = wait([c.conn for c in live] + [c.proc.sentinel for c in live], timeout=wait_for)
            now = time.monotonic()
            for c in live:
                lost: Lost | None = None
                if c.conn in ready or c.proc.sentinel in ready:
                    try:
                        tag, value = c.conn.recv()   # a dead child's pipe is at its end: EOFError
                    except (EOFError, OSError):
                        if not c.ready:
                            c.proc.join(5)
                            raise ExecutionError(f"a worker process died while starting "
                                                 f"(exit code {c.proc.exitcode})") from None
                        lost = c.lost("crash")
                    else:
                        if tag == "fatal":
                            last = value.strip().splitlines()[-1] if value.strip() else "?"
                            raise ExecutionError(f"a worker process could not start: {last}")
                        if tag == "ready":
                            c.ready = True
                            if info is not None:
                                info.ready.append(value)
                            feed(c)
                            continue
                        task = c.task
                        c.items += 1
                        feed(c)
                        on_result(task, value)
                        continue
                elif c.busy and timeout is not None and now - c.since >= timeout:
                    lost = c.lost("timeout")
                elif not c.ready and now - started > start_timeout:
                    raise ExecutionError(f"a worker process did not start within {start_timeout:g} s")
                if lost is not None:
                    children.remove(c)
                    record(c, lost.how)
                    task = c.task
                    if todo:
                        spawn()
                    on_lost(task, lost)
        finished = True
    finally:
        if not finished:            # Ctrl-C or an error: no waiting for the tasks under way
            for c in children:
                if c.busy and c.proc.is_alive():
                    c.proc.kill()
        for c in children:
            try:
                c.conn.send(None)
            except (OSError, ValueError):
                pass
        deadline = time.monotonic() + 5
        for c in children:
            bye = None
            try:
                if finished and c.ready and c.conn.poll(max(0.0, deadline - time.monotonic())):
                    tag, value = c.conn.recv()
                    bye = value if tag == "bye" else None
            except (EOFError, OSError):
                pass
            c.proc.join(2)
            if c.proc.is_alive():
                c.proc.kill()
                c.proc.join(5)
            if bye is not None:
                bye.pop("items", None)
                record(c, "done", bye)
            else:
                record(c, "stopped")
