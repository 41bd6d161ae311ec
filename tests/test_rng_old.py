"""The old "almost uniform" integer rule (rng version 0), used by replays without UNIFORM.

Expected values were printed once by a small C++ program (g++ 12, libstdc++):
``std::mt19937 rng(seed)`` and ``(int)((double)rng() / rng.max() * (h - l + 1)) + l``
capped at ``h``, the rule of ygopro-core before its 2021 RNG update.
"""

from __future__ import annotations

from duelhost.engine.duel import Duel
from duelhost.engine.rng import MTRandom


def test_old_rule_dice() -> None:
    rng = MTRandom(5489)
    assert [rng.get_random_integer_old(1, 6) for _ in range(12)] == [5, 1, 6, 6, 1, 6, 6, 2, 4, 2, 1, 4]


def test_old_rule_wide_range_and_dispatch() -> None:
    rng = MTRandom(12345)
    got = [rng.get_random_integer(0, 39, version=0) for _ in range(12)]
    assert got == [37, 35, 12, 5, 7, 1, 8, 33, 22, 21, 23, 38]


def test_old_rule_shuffle() -> None:
    rng = MTRandom(777)
    v = list(range(10))
    rng.shuffle(v, version=0)
    assert v == [1, 6, 4, 2, 3, 8, 7, 0, 9, 5]


def test_duel_rng_version_0_uses_old_rule() -> None:
    duel = Duel(lambda code: None, seed=5489)
    duel.rng_version = 0
    assert [duel.get_next_integer(1, 6) for _ in range(4)] == [5, 1, 6, 6]
