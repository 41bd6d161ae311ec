"""One execution layer for the tools that run many independent tasks.

``duelhost check`` (cards), ``selfplay`` (seeded duels) and ``diff`` (recorded
or live duels) each describe their work as a :class:`Work` (what a worker
builds once, what it does with one item, what an item that gave no result is
reported as) and a list of items, and hand both to :func:`execute` with a
:class:`Backend`:

- ``Backend.inline()``: in this process, one item after the other (no crash or
  time-out protection: tests and profiling);
- ``Backend.local(jobs)``: ``jobs`` forked worker processes on this machine
  (the default; duelhost.execution.local);
- ``Backend.ray(address)``: the cores of a Ray cluster (``pip install
  duelhost[ray]``; duelhost.execution.ray_backend).

Whatever the backend, :func:`execute` returns the results **in the order of
the items** (the report of a run is the same at any scale), every item has one
deadline (``timeout`` seconds, enforced by killing the process that runs it:
nothing in the task has to cooperate), an item that gave no result comes back
as ``work.lost(item, Lost)`` with the progress it had written, and Ctrl-C
stops the workers and returns what was done (``RunInfo.interrupted``) so that
the command can still write its partial report and exit with 130.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .lost import PROGRESS_FIELDS, Lost

__all__ = ["Backend", "ExecutionError", "Lost", "PROGRESS_FIELDS", "RAY_ADDRESS_ENV", "RunInfo", "Work",
           "backend_from_options", "execute", "progress_display"]

RAY_ADDRESS_ENV = "DUELHOST_RAY_ADDRESS"


class ExecutionError(RuntimeError):
    """The run cannot go on: a worker could not start, the cluster cannot be reached or
    lacks what the run needs.  Its message is one line for ``Error: ...`` (exit code 2)."""


class Work:
    """What the workers of one run do.  Subclasses must pickle (Ray ships them).

    ``prepare()`` runs once in each worker process and returns its state;
    ``run(state, item, progress)`` does one item (``progress`` is a list of
    PROGRESS_FIELDS integers the item may write how far it got into, or None);
    ``lost(item, lost)`` runs in the parent for an item that gave no result.
    ``describe(state)`` (sent once a worker is ready) and ``finish(state)`` (at
    its end) are dicts for the report.  ``shipped()`` names the files and
    folders a worker on another machine needs (name -> path); ``on_node(paths)``
    is the same work with the paths where they are on that machine."""

    def prepare(self) -> Any:
        return None

    def run(self, state: Any, item: Any, progress: Any) -> Any:
        raise NotImplementedError

    def lost(self, item: Any, lost: Lost) -> Any:
        raise NotImplementedError

    def describe(self, state: Any) -> dict[str, Any]:
        return {}

    def finish(self, state: Any) -> dict[str, Any]:
        return {}

    def shipped(self) -> dict[str, Path]:
        return {}

    def on_node(self, paths: dict[str, Path]) -> "Work":
        return self

    def chunk_size(self, items: int, slots: int) -> int:
        """Items per Ray task (many small items are grouped; a duel is its own task)."""
        return 1


@dataclass(frozen=True)
class Backend:
    """Where a run's items are executed: "inline", "local" (forked processes) or "ray"."""

    kind: str = "local"
    jobs: int = 1
    address: str | None = None      # ray: None starts a local cluster

    @classmethod
    def inline(cls) -> "Backend":
        return cls("inline", 0)

    @classmethod
    def local(cls, jobs: int) -> "Backend":
        return cls("local", max(1, jobs)) if jobs > 0 else cls.inline()

    @classmethod
    def ray(cls, address: str | None = None) -> "Backend":
        return cls("ray", 0, address or None)

    def describe(self) -> str:
        if self.kind == "ray":
            return f"Ray cluster at {self.address}" if self.address else "local Ray cluster"
        if self.kind == "inline":
            return "this process"
        return f"{self.jobs} local worker process{'es' if self.jobs != 1 else ''}"


def backend_from_options(ray: str | None, jobs: int) -> Backend:
    """The backend of a command's ``--ray [ADDRESS]`` and ``--jobs``: ``--ray`` given
    (``""``: start a local cluster) or ``DUELHOST_RAY_ADDRESS`` set -> Ray, else the
    local pool of ``jobs`` processes (0: this process)."""
    if ray is None:
        env = os.environ.get(RAY_ADDRESS_ENV, "").strip()
        if env:
            return Backend.ray(None if env == "local" else env)
        return Backend.local(jobs)
    return Backend.ray(ray.strip() or os.environ.get(RAY_ADDRESS_ENV, "").strip() or None)


@dataclass
class RunInfo:
    """How a run went: the backend, each worker's summary, the tasks retried after a
    worker or node died, whether Ctrl-C stopped it, and how many items have results."""

    backend: str
    total: int
    done: int = 0
    workers: list[dict[str, Any]] = field(default_factory=list)
    ready: list[dict[str, Any]] = field(default_factory=list)
    retried: list[str] = field(default_factory=list)
    interrupted: bool = False
    slots: int = 0

    def notes(self) -> list[str]:
        """Lines for a report: retries and an interruption."""
        out = [f"retried: {r}" for r in self.retried]
        if self.interrupted:
            out.append(f"interrupted: {self.done} of {self.total} done; this report is partial")
        return out

    def to_json(self) -> dict[str, Any]:
        return {"backend": self.backend, "slots": self.slots, "total": self.total, "done": self.done,
                "retried": self.retried, "interrupted": self.interrupted}


def execute(work: Work, items: Sequence[Any], backend: Backend, *, timeout: float | None,
            on_result: Callable[[int, Any], None] | None = None) -> tuple[list[Any], RunInfo]:
    """Run ``work`` on every item; (the results in item order, how it went).

    ``on_result(index, result)`` is called in this process as results come in
    (in the order they end: for progress).  An item whose worker was killed at
    ``timeout`` seconds or died gives ``work.lost(item, lost)``.  After Ctrl-C
    the list holds None for the items that have no result and
    ``RunInfo.interrupted`` is set.
    """
    results: list[Any] = [None] * len(items)
    have = [False] * len(items)
    info = RunInfo(backend=backend.describe(), total=len(items))

    def got(index: int, value: Any) -> None:
        results[index] = value
        if not have[index]:
            have[index] = True
            info.done += 1
        if on_result is not None:
            on_result(index, value)

    try:
        if not items:
            pass
        elif backend.kind == "inline":
            info.slots = 1
            state = work.prepare()
            info.ready.append(work.describe(state))
            try:
                for i, item in enumerate(items):
                    got(i, work.run(state, item, None))
            finally:
                info.workers.append({"worker": f"pid {os.getpid()}", "items": info.done, "ended": "done",
                                     **work.finish(state)})
        elif backend.kind == "local":
            from .local import run_pool
            info.slots = min(backend.jobs, len(items))
            run_pool(list(enumerate(items)), work, jobs=backend.jobs, timeout=timeout,
                     on_result=lambda t, v: got(t[0], v),
                     on_lost=lambda t, lost: got(t[0], work.lost(t[1], lost)),
                     info=info)
        elif backend.kind == "ray":
            from .ray_backend import run_on_ray
            run_on_ray(work, items, address=backend.address, timeout=timeout, got=got, info=info)
        else:
            raise ValueError(f"unknown backend {backend.kind!r}")
    except KeyboardInterrupt:
        info.interrupted = True
    return results, info


@contextmanager
def progress_display(total: int | None, label: str, enabled: bool | None,
                     name: Callable[[Any], str] | None = None) -> Iterator[Callable[[Any], None]]:
    """The progress display of check, selfplay and diff on standard error (``enabled``
    None: when it is a terminal): yields ``update(result)``, to call once per result.
    A bar of ``total`` steps, or with ``total`` None one line per result (``name``)."""
    import click

    show = sys.stderr.isatty() if enabled is None else enabled
    if not show:
        yield lambda _r: None
        return
    if total is None:
        yield lambda r: click.echo(name(r) if name else str(r), err=True)
        return
    bar: Any = click.progressbar(length=total, label=label, file=sys.stderr, show_pos=True, show_eta=True,
                            item_show_func=(lambda r: name(r) if r is not None else "") if name else None)
    with bar:
        yield lambda r: bar.update(1, r)


def ray_option(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The ``--ray [ADDRESS]`` option of check, selfplay and diff (parameter ``ray``)."""
    import click

    return click.option(
        "--ray", "ray", is_flag=False, flag_value="", default=None, metavar="[ADDRESS]",
        help="Run on a Ray cluster: join the one at ADDRESS (HOST:PORT, ray://HOST:PORT or auto), "
             f"or start a local one when no address is given (also ${RAY_ADDRESS_ENV}; "
             "needs pip install 'duelhost[ray]', see docs/scale-out.md).")(fn)


def finish_interrupted(info: RunInfo | None, what: str) -> None:
    """After the report of an interrupted run is written: one line, exit code 130."""
    if info is not None and info.interrupted:
        from ..inputs import interrupted
        interrupted(f"{what} stopped after {info.done} of {info.total}; the report is partial")
