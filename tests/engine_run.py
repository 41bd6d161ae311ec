"""Running engine processor units straight from a test (no host, no driver)."""

from __future__ import annotations

from typing import Any, Callable, Iterable


def run_units(d: Any, proc: Any = None, answers: Iterable[bytes] = (), *,
              answer: Callable[[Any], bytes] | None = None) -> list:
    """Queue ``proc`` (when given) and run the processor until nothing is left.

    Each prompt gets the next of ``answers``, or ``answer(prompt)`` when that is
    given; returns the prompts in order.  The duel's ``finished`` flag is cleared
    afterwards, so a test can queue more."""
    if proc is not None:
        d.core.units.append(proc)
    pending = list(answers)
    prompts = []
    it = d.run_processor()
    try:
        prompt = next(it)
        while True:
            prompts.append(prompt)
            prompt = it.send(answer(prompt) if answer is not None else pending.pop(0))
    except StopIteration:
        pass
    d.finished = False
    return prompts
