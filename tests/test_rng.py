"""MTRandom against numbers computed with the C++ standard library.

How the expected values were made (once, not a build step): a small C++17
program, compiled with ``g++ -O2 -std=c++17`` (GCC 12, libstdc++), that builds
``std::seed_seq`` / ``std::mt19937`` exactly as ygopro-core's ``mtrandom.h`` does,
copies ``get_random_integer_v1`` / ``v2`` and ``shuffle_vector``'s loop, and
prints the outputs below.  Seeds: the 8-word sequence ``SEED8`` (as passed to
``create_duel_v2``) unless a test says otherwise.
"""

from __future__ import annotations

import pytest

from duelhost.engine.rng import DEFAULT_SEED, MTRandom, seed_seq_generate

SEED8 = [2317639275, 3951741134, 3694916452, 2355095800, 997188871, 1737120419, 2206632489, 1476720930]

SEED8_FIRST10 = [217096616, 2103464813, 4041910362, 1248375485, 1537853158,
                 3011353272, 2086619725, 2436532063, 178145424, 3326730157]
SEED8_1001ST = 1059100682
MT5489_FIRST10 = [3499211612, 581869302, 3890346734, 3586334585, 545404204,
                  4161255391, 3922919429, 949333985, 2715962298, 1323567403]
MT_DEFAULT_10000TH = 4123659995  # the value the C++ standard requires of mt19937
MT0_FIRST3 = [2357136044, 2546248239, 3071714933]
SEEDSEQ_ONE_FIRST3 = [853323747, 2396352728, 3025954838]  # std::seed_seq{1u}
SEEDSEQ_EMPTY_FIRST3 = [2872601305, 4078552948, 3385508327]  # std::seed_seq{}
SEEDSEQ_700_FIRST3 = [2518578212, 3655682992, 3861792089]  # 700 words i * 2654435761

# (low, high) -> the first 12 draws from a fresh SEED8 generator.
V1 = {
    (0, 1): [0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 1, 1],
    (1, 6): [3, 6, 1, 6, 5, 1, 2, 2, 1, 2, 4, 2],
    (0, 39): [16, 13, 2, 5, 38, 32, 5, 23, 24, 37, 13, 33],
    (0, 2): [2, 2, 0, 2, 1, 0, 1, 1, 0, 1, 0, 1],
    (-5, 5): [-5, 5, 1, 0, 1, -1, -2, 4, 1, -2, -3, 3],
    (100, 100): [100] * 12,
    (0, 2147483646): [217096616, 2103464813, 1894426715, 1248375485, 1537853158, 863869625,
                      2086619725, 289048416, 178145424, 1179246510, 387551133, 1100836393],
    (-2147483647, 2147483647): [-1930387031, -44018834, 1894426715, -899108162, -609630489, 863869625,
                                -60863922, 289048416, -1969338223, 1179246510, -1759932514, -1046647254],
    (0, 1999999999): [217096616, 103464813, 1248375485, 1537853158, 1011353272, 86619725,
                      436532063, 178145424, 1326730157, 387551133, 1100836393, 179422006],
}
V2 = dict(V1)
V2[(0, 1999999999)] = [103464813, 41910362, 1248375485, 1537853158, 1011353272, 86619725,
                       436532063, 1326730157, 387551133, 1100836393, 83717577, 145170877]

SHUFFLE40 = [16, 9, 8, 39, 14, 37, 19, 38, 24, 10, 13, 29, 21, 26, 6, 17, 31, 32, 28, 0,
             27, 11, 30, 34, 36, 18, 7, 4, 2, 22, 15, 3, 5, 35, 1, 20, 33, 23, 25, 12]
AFTER_SHUFFLE40 = 128434340  # the next raw output after that shuffle
SHUFFLE20_5_15 = [0, 1, 2, 3, 4, 11, 5, 9, 8, 13, 12, 10, 7, 6, 14, 15, 16, 17, 18, 19]


def take(rng: MTRandom, n: int) -> list[int]:
    return [rng.rand() for _ in range(n)]


def test_seed_sequence_first_outputs() -> None:
    assert take(MTRandom.from_seed_sequence(SEED8), 10) == SEED8_FIRST10


def test_seed_sequence_across_regenerations() -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    rng.discard(1000)
    assert rng.rand() == SEED8_1001ST


@pytest.mark.parametrize(
    ("seeds", "expected"),
    [([1], SEEDSEQ_ONE_FIRST3), ([], SEEDSEQ_EMPTY_FIRST3),
     ([(i * 2654435761) & 0xFFFFFFFF for i in range(700)], SEEDSEQ_700_FIRST3)],
    ids=["one", "empty", "longer-than-state"],
)
def test_seed_sequence_lengths(seeds: list[int], expected: list[int]) -> None:
    assert take(MTRandom.from_seed_sequence(seeds), 3) == expected


def test_single_value_seeding() -> None:
    assert take(MTRandom.from_seed(5489), 10) == MT5489_FIRST10
    assert take(MTRandom(), 10) == MT5489_FIRST10
    assert DEFAULT_SEED == 5489
    assert take(MTRandom.from_seed(0), 3) == MT0_FIRST3


def test_standard_10000th_output() -> None:
    rng = MTRandom()
    rng.discard(9999)
    assert rng.rand() == MT_DEFAULT_10000TH


@pytest.mark.parametrize("bounds", list(V1))
def test_integer_v1(bounds: tuple[int, int]) -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    assert [rng.get_random_integer_v1(*bounds) for _ in range(12)] == V1[bounds]


@pytest.mark.parametrize("bounds", list(V2))
def test_integer_v2(bounds: tuple[int, int]) -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    assert [rng.get_random_integer_v2(*bounds) for _ in range(12)] == V2[bounds]
    rng = MTRandom.from_seed_sequence(SEED8)
    assert [rng.get_random_integer(*bounds) for _ in range(12)] == V2[bounds]


def test_v1_and_v2_reject_different_outputs() -> None:
    assert V1[(0, 1999999999)] != V2[(0, 1999999999)]


@pytest.mark.parametrize("version", [1, 2])
def test_shuffle_forty(version: int) -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    deck = list(range(40))
    rng.shuffle(deck, 0, 40, version=version)
    assert deck == SHUFFLE40
    assert rng.rand() == AFTER_SHUFFLE40


def test_shuffle_sub_range_and_clamped_end() -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    items = list(range(20))
    rng.shuffle(items, 5, 15)
    assert items == SHUFFLE20_5_15
    rng = MTRandom.from_seed_sequence(SEED8)
    deck = list(range(40))
    rng.shuffle(deck, 0, 99)  # last beyond the end is cut to len(deck)
    assert deck == SHUFFLE40


def test_shuffle_of_one_or_none_draws_nothing() -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    rng.shuffle([7])
    rng.shuffle([])
    assert rng.rand() == SEED8_FIRST10[0]


def test_copy_and_state_round_trip() -> None:
    rng = MTRandom.from_seed_sequence(SEED8)
    rng.discard(700)
    twin = rng.copy()
    state = rng.getstate()
    ahead = take(rng, 5)
    assert take(twin, 5) == ahead
    restored = MTRandom()
    restored.setstate(state)
    assert take(restored, 5) == ahead


def test_empty_range_is_refused() -> None:
    rng = MTRandom()
    with pytest.raises(ValueError, match=r"empty random range \[3, 2\]"):
        rng.get_random_integer_v2(3, 2)


def test_seed_seq_generate_masks_seeds() -> None:
    assert seed_seq_generate([1 + (1 << 32)], 4) == seed_seq_generate([1], 4)
