"""The reference core's random numbers, bit for bit.

The reference (ygopro-core ``mtrandom.h``) draws every random number of a duel
from one ``std::mt19937``.  ``create_duel_v2`` seeds it through a
``std::seed_seq`` built from 8 uint32 values; the older ``create_duel`` seeds it
with a single uint32.  On top of the raw 32-bit outputs it defines two ways to
draw an integer in ``[l, h]`` (``v1`` and ``v2``, which reject different raw
values) and a forward Fisher-Yates shuffle.

Everything here is pure Python and follows the C++ standard's definitions
([rand.eng.mers] for the engine, [rand.util.seedseq] for the seed sequence), so
the same seed gives the same numbers as the reference.  The 624-word state is
regenerated in one batch and tempered into an output buffer, so a draw is a list
index plus a counter.
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence
from typing import TypeVar

__all__ = [
    "DEFAULT_SEED",
    "MTRandom",
    "seed_seq_generate",
]

T = TypeVar("T")

_MASK32 = 0xFFFFFFFF
_N = 624  # state size in words
_M = 397  # shift size
_MATRIX_A = 0x9908B0DF
_UPPER = 0x80000000
_LOWER = 0x7FFFFFFF
_RAND_MAX = _MASK32  # std::mt19937::max()

DEFAULT_SEED = 5489
"""The seed of a default-constructed ``std::mt19937``."""


def seed_seq_generate(seeds: Iterable[int], count: int) -> list[int]:
    """Return ``count`` uint32 words as ``std::seed_seq(seeds).generate`` makes them.

    Rule ([rand.util.seedseq]): fill with 0x8b8b8b8b, then mix the seeds in over
    ``max(len(seeds) + 1, count)`` rounds of a 1664525-multiplier step, then run
    ``count`` rounds of a 1566083941-multiplier step.  Every seed is first taken
    modulo 2**32, as ``seed_seq`` stores them as ``uint_least32_t``.
    """
    v = [s & _MASK32 for s in seeds]
    n = count
    if n == 0:
        return []
    b = [0x8B8B8B8B] * n
    s = len(v)
    t = 11 if n >= 623 else 7 if n >= 68 else 5 if n >= 39 else 3 if n >= 7 else (n - 1) // 2
    p = (n - t) // 2
    q = p + t
    m = max(s + 1, n)
    for k in range(m):
        x = b[k % n] ^ b[(k + p) % n] ^ b[(k - 1) % n]
        r1 = (1664525 * (x ^ (x >> 27))) & _MASK32
        if k == 0:
            r2 = (r1 + s) & _MASK32
        elif k <= s:
            r2 = (r1 + k % n + v[k - 1]) & _MASK32
        else:
            r2 = (r1 + k % n) & _MASK32
        b[(k + p) % n] = (b[(k + p) % n] + r1) & _MASK32
        b[(k + q) % n] = (b[(k + q) % n] + r2) & _MASK32
        b[k % n] = r2
    for k in range(m, m + n):
        x = (b[k % n] + b[(k + p) % n] + b[(k - 1) % n]) & _MASK32
        r3 = (1566083941 * (x ^ (x >> 27))) & _MASK32
        r4 = (r3 - k % n) & _MASK32
        b[(k + p) % n] ^= r3
        b[(k + q) % n] ^= r4
        b[k % n] = r4
    return b


def _state_from_value(value: int) -> list[int]:
    """The 624-word state of ``std::mt19937(value)`` (Knuth's 1812433253 recurrence)."""
    mt = [value & _MASK32]
    for i in range(1, _N):
        prev = mt[-1]
        mt.append((1812433253 * (prev ^ (prev >> 30)) + i) & _MASK32)
    return mt


def _state_from_seed_seq(seeds: Iterable[int]) -> list[int]:
    """The 624-word state of ``std::mt19937(std::seed_seq(seeds))``.

    The engine takes the 624 generated words as its state; if the top bit of the
    first word and all other words are zero it sets the first word to 2**31, so
    that the state is never all zero.
    """
    mt = seed_seq_generate(seeds, _N)
    if (mt[0] & _UPPER) == 0 and not any(mt[1:]):
        mt[0] = _UPPER
    return mt


def _twist(mt: list[int]) -> None:
    """Advance the 624-word state in place by one full generation.

    Word ``i`` becomes ``mt[i + 397] ^ (y >> 1) ^ (0x9908b0df if y is odd)``, with
    ``y`` the top bit of ``mt[i]`` joined to the low 31 bits of ``mt[i + 1]``
    (indexes modulo 624; words past the end wrap to the already-new front).
    """
    mag = (0, _MATRIX_A)
    for i in range(_N - _M):
        y = (mt[i] & _UPPER) | (mt[i + 1] & _LOWER)
        mt[i] = mt[i + _M] ^ (y >> 1) ^ mag[y & 1]
    for i in range(_N - _M, _N - 1):
        y = (mt[i] & _UPPER) | (mt[i + 1] & _LOWER)
        mt[i] = mt[i + _M - _N] ^ (y >> 1) ^ mag[y & 1]
    y = (mt[_N - 1] & _UPPER) | (mt[0] & _LOWER)
    mt[_N - 1] = mt[_M - 1] ^ (y >> 1) ^ mag[y & 1]


def _tempered(mt: list[int]) -> list[int]:
    """The 624 outputs of the current state, after the standard tempering."""
    out = []
    append = out.append
    for y in mt:
        y ^= y >> 11
        y ^= (y << 7) & 0x9D2C5680
        y ^= (y << 15) & 0xEFC60000
        append(y ^ (y >> 18))
    return out


class MTRandom:
    """``std::mt19937`` with the reference's integer and shuffle rules.

    Construct it with :meth:`from_seed_sequence` (as ``create_duel_v2``) or
    :meth:`from_seed` (as ``create_duel``); ``MTRandom()`` is a default
    ``std::mt19937`` (seed 5489).
    """

    __slots__ = ("_mt", "_out", "_index")

    def __init__(self, seed: int = DEFAULT_SEED) -> None:
        self._mt: list[int] = _state_from_value(seed)
        self._out: list[int] = []
        self._index = _N  # outputs are generated on first use, as the standard says

    @classmethod
    def from_seed(cls, value: int) -> MTRandom:
        """``std::mt19937(value)``: the single-uint32 seeding of ``create_duel``."""
        return cls(value)

    @classmethod
    def from_seed_sequence(cls, seeds: Iterable[int]) -> MTRandom:
        """``std::mt19937(std::seed_seq(seeds))``: the seeding of ``create_duel_v2``."""
        rng = cls.__new__(cls)
        rng._mt = _state_from_seed_seq(seeds)
        rng._out = []
        rng._index = _N
        return rng

    # -- raw engine -------------------------------------------------------------

    def rand(self) -> int:
        """The next raw 32-bit output (``rng()``)."""
        i = self._index
        if i >= _N:
            _twist(self._mt)
            self._out = _tempered(self._mt)
            i = 0
        self._index = i + 1
        return self._out[i]

    def discard(self, count: int) -> None:
        """Skip ``count`` raw outputs (``rng.discard``)."""
        for _ in range(count):
            self.rand()

    # -- the reference's integer rules ------------------------------------------

    def get_random_integer_v1(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``, old rule (rng_version 1).

        With ``r = high - low + 1`` (as uint32), raw outputs at or above
        ``RAND_MAX - RAND_MAX % r`` are thrown away; the result is
        ``low + x % r``.
        """
        span = _span(low, high)
        secure_max = _RAND_MAX - _RAND_MAX % span
        x = self.rand()
        while x >= secure_max:
            x = self.rand()
        return low + x % span

    def get_random_integer_v2(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``, current rule (rng_version 2).

        With ``r = high - low + 1`` (as uint32), raw outputs below
        ``(2**32 - r) % r`` are thrown away; the result is ``low + x % r``.
        """
        span = _span(low, high)
        bound = ((1 << 32) - span) % span
        x = self.rand()
        while x < bound:
            x = self.rand()
        return low + x % span

    def get_random_integer_old(self, low: int, high: int) -> int:
        """An integer in ``[low, high]``, the "almost uniform" rule of cores before 2021.

        Duels recorded in replays without the UNIFORM flag drew their numbers
        this way: one raw output scaled to the range as a double,
        ``low + int(x / (2**32 - 1) * r)``, capped at ``high``.  The current
        reference no longer has this rule; it is version 0 here.
        """
        span = _span(low, high)
        result = int(self.rand() / _RAND_MAX * span) + low
        return high if result > high else result

    def get_random_integer(self, low: int, high: int, version: int = 2) -> int:
        """``duel::get_next_integer``: the v1 rule for version 1, the old rule for 0, else v2."""
        if version == 1:
            return self.get_random_integer_v1(low, high)
        if version == 0:
            return self.get_random_integer_old(low, high)
        return self.get_random_integer_v2(low, high)

    def shuffle(
        self,
        seq: MutableSequence[T],
        first: int = 0,
        last: int | None = None,
        version: int = 2,
    ) -> None:
        """Shuffle ``seq[first:last]`` in place, forward Fisher-Yates.

        For ``i`` from ``first`` to ``last - 2``, swap ``seq[i]`` with
        ``seq[get_random_integer(i, last - 1)]``.  ``last`` is cut to
        ``len(seq)``, as ``shuffle_vector`` does.
        """
        if last is None or last > len(seq):
            last = len(seq)
        draw = (self.get_random_integer_v1 if version == 1 else
                self.get_random_integer_old if version == 0 else self.get_random_integer_v2)
        for i in range(first, last - 1):
            r = draw(i, last - 1)
            seq[i], seq[r] = seq[r], seq[i]

    # -- state --------------------------------------------------------------------

    def getstate(self) -> tuple[tuple[int, ...], int]:
        """The engine state: the 624 words and the position within them."""
        return tuple(self._mt), self._index

    def setstate(self, state: tuple[tuple[int, ...], int]) -> None:
        """Restore a state returned by :meth:`getstate`."""
        words, index = state
        if len(words) != _N or not 0 <= index <= _N:
            raise ValueError(f"not an mt19937 state: {len(words)} words, index {index}")
        self._mt = [w & _MASK32 for w in words]
        self._out = _tempered(self._mt)
        self._index = index

    def copy(self) -> MTRandom:
        """An independent generator in the same state."""
        twin = MTRandom.__new__(MTRandom)
        twin._mt = list(self._mt)
        twin._out = list(self._out)
        twin._index = self._index
        return twin

    def __repr__(self) -> str:
        return f"<MTRandom at output {self._index} of {_N}>"


def _span(low: int, high: int) -> int:
    """``high - low + 1`` as the reference computes it, refusing an empty range."""
    if high < low:
        raise ValueError(f"empty random range [{low}, {high}]")
    span = (high - low + 1) & _MASK32
    if span == 0:
        raise ValueError(f"random range [{low}, {high}] has 2**32 values, which the reference cannot draw")
    return span
