"""The processor: a queue of units, each a generator.

The reference drives a duel with a list of process units stepped by
``switch(step)``.  Here each unit is a generator:

- a bare ``yield`` ends the current step.  Units queued with ``add_process``
  during that step run first (in the order they were queued), then the
  generator continues.  This is the reference's "add_process, then return
  FALSE" and keeps its exact order of operations;
- ``return`` ends the unit;
- yielding a prompt message (an MSG_SELECT_* object) asks a player: the host's
  answer (the raw response bytes) is sent back in as the value of that
  ``yield``.  Only the prompt units of processor/prompts.py do this;
- yielding ``Suspend(store)`` takes the unit off the queue without ending it;
  ``store`` receives the generator so it can be queued again later (the
  reference's summon_reserved / damage_step_reserved).

A unit can also run inside another, ``result = yield from self.proc_x(...)``:
its steps become the caller's and its return value comes back.  That keeps
the order of queuing it only when the caller queues nothing else in that
step, yields right after and reads the result in the next step, and the
unit's last step queues nothing and it never suspends (docs/architecture.md).

Results otherwise travel through ``self.returns`` as in the reference; what
stays there and why: docs/architecture.md, "What stays on the returns buffer".
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..duel import Duel

Proc = Generator[Any, Any, None]


class Suspend:
    """Yielded by a unit to leave the queue and be kept for later."""

    __slots__ = ("store",)

    def __init__(self, store: Callable[[Proc], None]) -> None:
        self.store = store


class ProcessorMixin:
    """Methods of Duel (see engine/duel.py)."""

    def add_process(self: "Duel", proc: Proc) -> None:
        """Queue a unit to run when the current step ends."""
        self.core.subunits.append(proc)

    def run_processor(self: "Duel") -> Generator[Any, bytes, None]:
        """Run units until the duel ends; yield each prompt and receive the raw answer.

        Stops right after a step that wrote MSG_WIN (the host stops there too).
        """
        core = self.core
        units = core.units
        value: Any = None
        while True:
            if core.subunits:
                units[0:0] = core.subunits
                core.subunits = []
            if not units or self.finished:
                self.finished = True
                return
            unit = units[0]
            try:
                out = unit.send(value)
            except StopIteration:
                self._remove_unit(unit)
                value = None
                continue
            value = None
            if out is None:
                continue
            if isinstance(out, Suspend):
                self._remove_unit(unit)
                out.store(unit)
                continue
            value = yield out

    def _remove_unit(self: "Duel", unit: Proc) -> None:
        units = self.core.units
        if units and units[0] is unit:
            del units[0]
        else:
            units.remove(unit)


class HostLoopMixin:
    """The host's side of the loop: run to the next prompt, answer it."""

    def step(self: "Duel", response: bytes | None = None) -> Any:
        """Run until the next prompt and return it (None when the duel has ended).

        ``response`` answers the prompt returned by the previous call (the raw
        response area, as the reference's set_responseb takes it).
        """
        runner = self._runner
        if runner is None:
            runner = self._runner = self.run_processor()
            try:
                return next(runner)
            except StopIteration:
                return None
        try:
            return runner.send(response)
        except StopIteration:
            return None
