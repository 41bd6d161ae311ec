"""``std::sort`` as GCC's libstdc++ implements it, step for step.

The reference core sorts with ``std::sort``.  For a comparison that is a strict
weak order with no ties any sort gives the same result, but two things make the
algorithm itself matter:

* ties: ``std::sort`` is not stable, so equal elements end up in an order that
  depends on the algorithm;
* comparisons that are not transitive.  The reference's
  ``chain::chain_operation_sort`` orders two effects of one card by description
  and any other two by effect id, which can form a cycle (A < B by
  description, B < C by id, C < A by id); the order it then produces is
  whatever libstdc++'s introsort makes of it.

``std_sort(items, less)`` reproduces libstdc++'s introsort (median-of-three
quicksort down to runs of 16, heap sort past the depth limit, then insertion
sort), so it gives the reference's order in both cases.  ``less(a, b)`` is the
reference's comparison function (``a`` goes before ``b``).
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import TypeVar

__all__ = ["std_sort"]

T = TypeVar("T")
_THRESHOLD = 16


def std_sort(seq: MutableSequence[T], less: Callable[[T, T], bool]) -> None:
    """Sort ``seq`` in place exactly as ``std::sort(begin, end, less)`` does (libstdc++)."""
    n = len(seq)
    if n < 2:
        return
    _introsort_loop(seq, 0, n, 2 * (n.bit_length() - 1), less)
    _final_insertion_sort(seq, 0, n, less)


def _introsort_loop(a: MutableSequence[T], first: int, last: int, depth: int, less: Callable[[T, T], bool]) -> None:
    while last - first > _THRESHOLD:
        if depth == 0:
            _heap_sort(a, first, last, less)
            return
        depth -= 1
        cut = _partition_pivot(a, first, last, less)
        _introsort_loop(a, cut, last, depth, less)
        last = cut


def _partition_pivot(a: MutableSequence[T], first: int, last: int, less: Callable[[T, T], bool]) -> int:
    mid = first + (last - first) // 2
    _move_median_to_first(a, first, first + 1, mid, last - 1, less)
    return _unguarded_partition(a, first + 1, last, first, less)


def _move_median_to_first(a: MutableSequence[T], result: int, x: int, y: int, z: int,
                          less: Callable[[T, T], bool]) -> None:
    if less(a[x], a[y]):
        if less(a[y], a[z]):
            pick = y
        elif less(a[x], a[z]):
            pick = z
        else:
            pick = x
    elif less(a[x], a[z]):
        pick = x
    elif less(a[y], a[z]):
        pick = z
    else:
        pick = y
    a[result], a[pick] = a[pick], a[result]


def _unguarded_partition(a: MutableSequence[T], first: int, last: int, pivot: int,
                         less: Callable[[T, T], bool]) -> int:
    while True:
        while less(a[first], a[pivot]):
            first += 1
        last -= 1
        while less(a[pivot], a[last]):
            last -= 1
        if not first < last:
            return first
        a[first], a[last] = a[last], a[first]
        first += 1


def _final_insertion_sort(a: MutableSequence[T], first: int, last: int, less: Callable[[T, T], bool]) -> None:
    if last - first > _THRESHOLD:
        _insertion_sort(a, first, first + _THRESHOLD, less)
        for i in range(first + _THRESHOLD, last):
            _unguarded_linear_insert(a, i, less)
    else:
        _insertion_sort(a, first, last, less)


def _insertion_sort(a: MutableSequence[T], first: int, last: int, less: Callable[[T, T], bool]) -> None:
    if first == last:
        return
    for i in range(first + 1, last):
        if less(a[i], a[first]):
            val = a[i]
            a[first + 1:i + 1] = a[first:i]
            a[first] = val
        else:
            _unguarded_linear_insert(a, i, less)


def _unguarded_linear_insert(a: MutableSequence[T], last: int, less: Callable[[T, T], bool]) -> None:
    val = a[last]
    nxt = last - 1
    while less(val, a[nxt]):
        a[last] = a[nxt]
        last = nxt
        nxt -= 1
    a[last] = val


def _heap_sort(a: MutableSequence[T], first: int, last: int, less: Callable[[T, T], bool]) -> None:
    """``std::__partial_sort(first, last, last)``: make a heap, then sort it."""
    n = last - first
    if n >= 2:
        parent = (n - 2) // 2
        while True:
            _adjust_heap(a, first, parent, n, a[first + parent], less)
            if parent == 0:
                break
            parent -= 1
    while last - first > 1:
        last -= 1
        value = a[last]
        a[last] = a[first]
        _adjust_heap(a, first, 0, last - first, value, less)


def _adjust_heap(a: MutableSequence[T], first: int, hole: int, length: int, value: T,
                 less: Callable[[T, T], bool]) -> None:
    top = hole
    child = hole
    while child < (length - 1) // 2:
        child = 2 * (child + 1)
        if less(a[first + child], a[first + child - 1]):
            child -= 1
        a[first + hole] = a[first + child]
        hole = child
    if (length & 1) == 0 and child == (length - 2) // 2:
        child = 2 * (child + 1)
        a[first + hole] = a[first + child - 1]
        hole = child - 1
    parent = (hole - 1) // 2
    while hole > top and less(a[first + parent], value):
        a[first + hole] = a[first + parent]
        hole = parent
        parent = (hole - 1) // 2
    a[first + hole] = value
