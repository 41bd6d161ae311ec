"""Ready-made players for ``Duel.run``: random legal play and scripted answers."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Any

from duelhost.engine.messages import MsgAnnounceCard, Prompt
from duelhost.engine.responses import Response, random_response


class RandomPlayer:
    """Answers every request with a uniformly random legal response (seeded)."""

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def __call__(self, duel: Any, request: Prompt) -> Response:
        pool = _card_pool(duel) if isinstance(request, MsgAnnounceCard) else None
        return random_response(request, self.rng, card_pool=pool)


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
