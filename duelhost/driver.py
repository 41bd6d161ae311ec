"""One way to drive a duel: every tool that runs our engine steps it through a Driver.

The engine (engine/processor/driver.py) has one entry point, ``step(answer)``: run
until a player must decide and return that prompt (None when the duel has ended),
the answer going to the prompt the previous call returned.  A :class:`Driver` owns
one engine duel and is the only caller of that entry point in duelhost:

- ``host.Duel`` (and so ``duelhost play``, ``selfplay``, the PettingZoo env, forks
  and snapshots, and the pytest toolkit's Scenario, which are built on it) checks
  each answer before its driver sends it;
- the golden replays (duelhost.conformance, their HTML page), ``duelhost replay``
  (duelhost.replay.play_replay) and our side of the live, replay and puzzle diffs
  (duelhost.diff.play_side_by_side, the live HTML page) send recorded or chosen
  answers through a driver as they are.

A driver is set up from a :class:`DuelSetup` (seed, players, cards; what both cores
of a live diff get) or, for host.Duel, card by card on ``driver.engine``; then
``start(options)`` and ``step(answer)`` until ``ended``.  After each step it knows
the prompt reached (``prompt``), the messages the step wrote (``new_messages()``,
as the reference's bytes ``new_bytes()``), whether the engine refused the answer
with MSG_RETRY (``retried()``), every answer sent (``answers``) and the time spent
in the engine (``seconds``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from duelhost.engine.duel import CardReader, Duel as EngineDuel
from duelhost.engine.messages import Message, MsgRetry, Prompt, encode_messages

__all__ = ["Driver", "DuelSetup"]


@dataclass
class DuelSetup:
    """Everything a core gets before its first step: how its generator is seeded, the
    players' LP / hand / draw settings, the cards in order, the start options."""

    seed_sequence: list[int]
    cards: list[tuple[int, int, int, int, int, int]]   # new_card arguments, in order
    players: list[tuple[int, int, int]] = field(default_factory=lambda: [(8000, 5, 1), (8000, 5, 1)])
    options: int = 5 << 16
    decks: list[list[int]] | None = None
    seed: int | None = None         # instead of seed_sequence: create_duel(seed), rng v1 (yrp1 replays)
    tag_cards: list[tuple[int, int, int]] = field(default_factory=list)   # new_tag_card arguments
    rng_version: int | None = None  # with ``seed``: another mapping of the generator (our engine only)

    def apply(self, set_player_info: Any, new_card: Any, new_tag_card: Any) -> None:
        """Give a core the players' settings, then every card, then the Tag partners'
        cards, in order, through its three set-up calls (ours or the reference's)."""
        for p, (lp, hand, draw) in enumerate(self.players):
            set_player_info(p, lp, hand, draw)
        for args in self.cards:
            new_card(*args)
        for code, owner, location in self.tag_cards:
            new_tag_card(code, owner, location)


class Driver:
    """One engine duel, stepped with answers (see the module docstring)."""

    __slots__ = ("engine", "prompt", "mark", "taken", "steps", "answers", "seconds")

    def __init__(self, card_reader: CardReader, *, seed_sequence: list[int] | None = None,
                 seed: int | None = None, rng_version: int | None = None, script: Any = None) -> None:
        """A new engine duel (not set up): seeded with ``seed_sequence`` (the reference's
        8 numbers) or else ``seed`` (create_duel's single seed, generator version 1 unless
        ``rng_version`` says another); ``script`` is its script host (None: no Lua)."""
        engine = EngineDuel(card_reader, seed_sequence=seed_sequence, seed=seed, script=script)
        if rng_version is not None:
            engine.rng_version = rng_version
        self.engine = engine
        self.prompt: Prompt | None = None   # the decision the duel waits for (None: not asked yet, or ended)
        self.mark = 0                       # index in engine.messages of the last step's first message
        self.taken = 0                      # messages written up to the end of the last step
        self.steps = 0                      # step() calls so far
        self.answers: list[bytes] = []      # every answer sent, in order
        self.seconds = 0.0                  # time spent in the engine's steps

    @classmethod
    def from_setup(cls, card_reader: CardReader, setup: DuelSetup, script: Any = None) -> Driver:
        """A duel seeded and set up as ``setup`` says (players, cards, Tag partners' cards),
        not started yet: a puzzle or other set-up may still run before ``start(setup.options)``."""
        if setup.seed is not None:
            driver = cls(card_reader, seed=setup.seed, rng_version=setup.rng_version, script=script)
        else:
            driver = cls(card_reader, seed_sequence=list(setup.seed_sequence), script=script)
        driver.place(setup)
        return driver

    def place(self, setup: DuelSetup) -> None:
        """The players' settings, then every card, then the Tag partners' cards of ``setup``."""
        engine = self.engine
        setup.apply(engine.set_player_info, engine.new_card_at, engine.new_tag_card_at)

    def start(self, options: int) -> None:
        """Draw the opening hands and begin the first turn (the reference's start_duel)."""
        self.engine.start_duel(options)

    def step(self, answer: bytes | None = None) -> Prompt | None:
        """Send ``answer`` (raw response bytes, unchecked; None for the first step) to the
        pending prompt and run to the next one; returns it (None: the duel has ended).

        The messages of the step are ``new_messages()``: those written since the previous
        step ended (the first step's also hold what the set-up wrote, such as a puzzle's
        Debug.ShowHint, as the reference's first get_message does).  An exception from
        the engine propagates, and the messages written before it are kept there too."""
        engine = self.engine
        self.mark = self.taken
        self.steps += 1
        if answer is not None:
            self.answers.append(answer)
        t0 = perf_counter()
        try:
            prompt: Prompt | None = engine.step(answer)
            self.prompt = prompt
        finally:
            self.seconds += perf_counter() - t0
            self.taken = len(engine.messages)
        return prompt

    @property
    def ended(self) -> bool:
        """The duel has ended (a player won, or a draw)."""
        return self.engine.finished

    @property
    def messages(self) -> list[Message]:
        """Every message the duel wrote."""
        return self.engine.messages

    def new_messages(self) -> list[Message]:
        """The messages the last step wrote."""
        return self.engine.messages[self.mark:]

    def new_bytes(self) -> bytes:
        """The messages of the last step as the reference's bytes (what a recording compares)."""
        return encode_messages(self.engine.messages[self.mark:])

    def retried(self) -> bool:
        """The last step refused its answer: it wrote MSG_RETRY and asks again."""
        return any(isinstance(m, MsgRetry) for m in self.engine.messages[self.mark:])
