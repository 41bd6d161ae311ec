"""engine.stdsort.std_sort against libstdc++'s std::sort.

Expected orders were printed once by a small C++ program (g++ 12, libstdc++,
-O2) that builds the same pseudo-random elements (the LCG below) and sorts them
with std::sort: mode 0 with the reference's chain_operation_sort comparison
(not transitive: same handler -> by description, else by id, then chain id),
mode 1 by a key with many ties (std::sort is not stable).
"""

from __future__ import annotations

import functools

import pytest

from duelhost.engine.stdsort import std_sort

EXPECTED = [
(0, 3, [2,0,1,]),
(0, 5, [3,1,2,0,4,]),
(0, 8, [7,4,6,3,1,0,5,2,]),
(0, 16, [14,13,12,9,7,6,5,1,4,0,8,3,2,10,15,11,]),
(0, 17, [4,1,16,3,8,11,2,5,7,10,9,13,6,12,0,15,14,]),
(0, 24, [2,4,9,8,11,6,3,0,22,5,20,15,7,10,21,17,14,12,18,19,1,13,23,16,]),
(0, 40, [15,11,12,36,34,22,2,33,8,14,29,5,7,31,23,1,18,32,16,0,20,35,19,10,17,24,26,37,9,28,39,38,25,27,3,6,4,21,30,13,]),
(0, 90, [56,55,82,58,22,32,21,66,3,83,25,61,38,89,6,71,54,69,41,27,0,15,47,72,12,11,9,29,77,37,48,51,85,76,33,78,2,31,34,79,1,39,64,62,24,68,19,88,46,70,5,53,16,57,63,43,50,44,13,10,60,45,59,35,17,23,49,42,65,18,40,52,8,74,75,36,67,86,73,30,4,14,84,80,87,7,26,28,20,81,]),
(1, 3, [0,1,2,]),
(1, 5, [2,3,1,4,0,]),
(1, 8, [4,7,0,3,1,5,2,6,]),
(1, 16, [0,15,2,5,12,4,7,11,3,8,10,1,6,9,13,14,]),
(1, 17, [16,10,6,7,8,13,11,9,4,3,12,15,0,5,2,14,1,]),
(1, 24, [5,9,15,14,13,22,17,10,21,3,2,7,12,0,20,19,18,1,11,8,4,16,6,23,]),
(1, 40, [20,39,27,11,10,6,2,5,1,26,21,29,13,3,15,33,32,31,30,4,22,37,36,35,38,23,0,17,9,25,28,16,34,14,12,8,7,24,19,18,]),
(1, 90, [54,35,65,32,64,40,42,62,19,47,83,56,10,50,6,57,48,33,3,68,74,75,76,86,44,60,82,9,14,13,84,46,63,39,51,72,20,89,2,4,8,12,16,81,36,21,80,66,34,73,45,71,87,67,49,7,18,43,24,26,27,1,88,5,11,15,23,25,28,52,58,37,41,61,79,53,55,85,59,0,17,22,69,78,77,38,31,30,29,70,]),
]


def _elements(state: list[int], mode: int, n: int) -> list[tuple[int, int, int, int, int]]:
    def lcg() -> int:
        state[0] = (state[0] * 1103515245 + 12345) & 0xFFFFFFFF
        return (state[0] >> 16) & 0x7FFF
    out = []
    for i in range(n):
        handler = lcg() % 4
        desc = lcg() % 5
        ident = lcg() % 6 if mode else lcg() % 50
        chain = lcg() % 1000
        out.append((i, handler, desc, ident, chain))
    return out


def _chain_less(a, b) -> bool:
    if a[1] == b[1] and a[2] != b[2]:
        return a[2] < b[2]
    if a[3] != b[3]:
        return a[3] < b[3]
    return a[4] < b[4]


def _key_less(a, b) -> bool:
    return a[3] < b[3]


def test_std_sort_matches_libstdcxx() -> None:
    state = [12345]
    for mode, n, expected in EXPECTED:
        items = _elements(state, mode, n)
        std_sort(items, _key_less if mode else _chain_less)
        assert [e[0] for e in items] == expected, (mode, n)


def test_python_sort_differs_where_it_matters() -> None:
    """The reason for std_sort: Python's stable sort orders ties and cycles differently."""
    state = [12345]
    differs = 0
    for mode, n, expected in EXPECTED:
        items = _elements(state, mode, n)
        less = _key_less if mode else _chain_less
        cmp = lambda a, b: -1 if less(a, b) else (1 if less(b, a) else 0)  # noqa: E731
        if [e[0] for e in sorted(items, key=functools.cmp_to_key(cmp))] != expected:
            differs += 1
    assert differs > 0


@pytest.mark.parametrize("n", [0, 1, 2, 20, 200])
def test_std_sort_sorts_a_total_order(n: int) -> None:
    items = [(i * 7919) % 1009 for i in range(n)]
    std_sort(items, lambda a, b: a < b)
    assert items == sorted(items)


def test_select_chain_order_follows_std_sort_with_a_cycle() -> None:
    """Two effects of card X (descriptions 8 < 9) and one of card Y, with ids X8=810,
    X9=742, Y=785: X8 < X9 (description), X9 < Y (id), Y < X8 (id).  libstdc++'s
    insertion sort of [X8, X9, Y] gives Y, X8, X9, as the reference listed them in a
    public tag-duel replay (Altergeist Silquitous before Altergeist Protocol's two
    effects); Python's stable sort gives X8, X9, Y."""
    from duelhost.engine.event import Chain
    from duelhost.engine.processor.prompts import chain_operation_less

    class _E:
        def __init__(self, handler: object, description: int, ident: int) -> None:
            self.handler, self.description, self.id = handler, description, ident

    x, y = object(), object()
    chains = []
    for n, (h, d, i) in enumerate(((x, 8, 810), (x, 9, 742), (y, 1, 785))):
        ch = Chain()
        ch.triggering_effect = _E(h, d, i)
        ch.chain_id = 865 + n
        chains.append(ch)
    order = list(chains)
    std_sort(order, chain_operation_less)
    assert [c.triggering_effect.id for c in order] == [785, 810, 742]
    from duelhost.engine.processor.prompts import chain_operation_key
    assert [c.triggering_effect.id for c in sorted(chains, key=chain_operation_key)] == [810, 742, 785]
