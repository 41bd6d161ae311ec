"""Replaying recorded reference duels and comparing every message byte.

A golden record (see duelhost.golden) holds the inputs the reference core got
and every byte it wrote.  ``replay_record`` rebuilds the same duel in our
engine, feeds it the same responses, and compares each step's bytes.  The
result says "identical" or where the first difference is: the step, the index
of the first differing message, both messages decoded, and the turn.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass, field
from typing import Any, Callable

from duelhost.engine.duel import CardReader
from duelhost.engine.messages import Message, MsgNewTurn, decode_messages, encode_messages

from .driver import Driver, DuelSetup
from .golden import DuelRecord


@dataclass
class Divergence:
    """The first place our stream differs from the reference's."""

    step: int
    index: int                      # index of the first differing message within the step
    turn: int                       # MSG_NEW_TURN count before the difference
    expected: Message | None
    actual: Message | None
    context: list[Message] = field(default_factory=list)   # the messages just before it

    def describe(self, name_of: Callable[[int], str] | None = None) -> str:
        def d(m: Message | None) -> str:
            return "(nothing)" if m is None else m.describe(name_of)
        lines = [f"step {self.step}, message {self.index}, turn {self.turn}",
                 f"  reference: {d(self.expected)}",
                 f"  duelhost:  {d(self.actual)}"]
        if self.context:
            lines.append("  before:")
            lines.extend(f"    {m.describe(name_of)}" for m in self.context)
        return "\n".join(lines)


@dataclass
class ReplayResult:
    id: str
    identical: bool
    steps: int                       # steps compared
    total_steps: int
    divergence: Divergence | None = None
    error: str | None = None         # an exception in the engine (traceback)

    @property
    def status(self) -> str:
        if self.identical:
            return "identical"
        if self.error is not None:
            return "error"
        return "diverged"


def _first_difference(expected: list[Message], actual: list[Message]) -> int:
    for i, (e, a) in enumerate(zip(expected, actual)):
        if e.encode() != a.encode():
            return i
    return min(len(expected), len(actual))


def record_setup(record: DuelRecord) -> DuelSetup:
    """The set-up the recording harness gave the reference: its seed sequence, players, cards, options."""
    return DuelSetup(seed_sequence=list(record.seed_sequence),
                     cards=[(c.code, c.owner, c.player, c.location, c.sequence, c.position) for c in record.cards],
                     players=[(info.lp, info.start_hand, info.draw) for info in record.players],
                     options=record.options)


def build_duel(record: DuelRecord, card_reader: CardReader, script: Any = None) -> Driver:
    """Our duel, created and started exactly as the recording harness created the reference's."""
    setup = record_setup(record)
    driver = Driver.from_setup(card_reader, setup, script)
    driver.start(setup.options)
    return driver


def replay_record(record: DuelRecord, card_reader: CardReader, script: Any = None,
                  progress: Any = None) -> ReplayResult:
    """Replay one recorded duel through our engine and compare it step by step
    (``progress[0]``, when given, is the step being replayed: see duelhost.watchdog)."""
    total = len(record.steps)
    turn = 0
    history: list[Message] = []
    try:
        duel = build_duel(record, card_reader, script)
        response: bytes | None = None
        for k, step in enumerate(record.steps):
            if progress is not None:
                progress[0] = k
            duel.step(response)
            produced = duel.new_messages()
            got = encode_messages(produced)
            if got != step.messages and not _same_unordered(record, k, got, step.messages):
                expected = decode_messages(step.messages)
                i = _first_difference(expected, produced)
                for m in expected[:i]:
                    if isinstance(m, MsgNewTurn):
                        turn += 1
                context = (history + expected[:i])[-6:]
                return ReplayResult(record.id, False, k, total, Divergence(
                    step=k, index=i, turn=turn,
                    expected=expected[i] if i < len(expected) else None,
                    actual=produced[i] if i < len(produced) else None,
                    context=context))
            for m in produced:
                if isinstance(m, MsgNewTurn):
                    turn += 1
            history = (history + produced)[-6:]
            response = step.response_area
        return ReplayResult(record.id, True, total, total)
    except Exception:  # an engine bug: report it with the place it happened
        return ReplayResult(record.id, False, 0, total, error=traceback.format_exc())


def _same_unordered(record: DuelRecord, k: int, got: bytes, expected: bytes) -> bool:
    """For the steps the reference itself writes in an address-dependent order, compare as multisets."""
    if k not in set(record.address_dependent_steps or []):
        return False
    try:
        a = sorted(m.encode() for m in decode_messages(got))
        b = sorted(m.encode() for m in decode_messages(expected))
    except Exception:
        return False
    return a == b
