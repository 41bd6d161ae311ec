"""Ready-made players for ``Duel.run``: random legal play and scripted answers."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from duelhost.engine.messages import Prompt
from duelhost.engine.prompt_kinds import ANNOUNCE_CARD, Response, kind_of


class RandomPlayer:
    """Answers every request with a random legal response (seeded): the prompt kind's
    ``random`` (engine/prompt_kinds.py), with the duel's database as the cards an
    ANNOUNCE_CARD may name."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, duel: Any, request: Prompt) -> Response:
        kind = kind_of(request)
        pool = _card_pool(duel) if kind is ANNOUNCE_CARD else None
        result: Response = kind.random(request, self.rng, card_pool=pool)
        return result


def _card_pool(duel: Any) -> list[Any]:
    pool = getattr(duel, "_announce_pool", None)
    if pool is None:
        pool = list(duel.db)
        duel._announce_pool = pool
    return pool


class ScriptedPlayer:
    """Answers from a list, in order: Response objects, raw bytes, ints, or callables
    ``f(duel, request) -> response``.  Running out of answers raises."""

    def __init__(self, answers: Iterable[Any]) -> None:
        self.answers = list(answers)
        self.used = 0

    def __call__(self, duel: Any, request: Prompt) -> Any:
        if self.used >= len(self.answers):
            raise LookupError(f"no scripted answer left for {request.describe(duel.card_name)}")
        a = self.answers[self.used]
        self.used += 1
        if callable(a) and not isinstance(a, (Response, bytes, int)):
            return a(duel, request)
        return a
