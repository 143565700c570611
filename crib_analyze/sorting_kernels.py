"""Sorting, searching and copying the few values of a hand, for kernels, by hand.

numba's own ``np.sort``, ``ndarray.sort``, ``np.argsort(kind=...)`` and
``np.searchsorted`` compile a generic quicksort or a string argument into every kernel
that calls them: seconds of a command's first run (measured on ``play``: the quicksort
~3 s and the ``side=`` string ~1 s of ~10 s). A hand has six cards, a throw fifteen
values: an insertion sort and a binary search do the same work, give the same answer,
and compile at once. Large arrays keep numpy's sorts. Likewise a slice or row
assignment (``a[:n] = b[:n]``) compiles numba's setitem and its shape-error message, a
string kernel, into its kernel: :func:`copy_small` copies element by element (a first
``play --game --score`` 28.7 -> 25.1 s of compile, benchmarks/README.md).
"""

from __future__ import annotations

import numpy as np

from crib_analyze.jit import njit


@njit
def copy_small(dst: np.ndarray, at: int, src: np.ndarray, start: int, n: int) -> None:
    """``dst[at : at + n] = src[start : start + n]`` (1-D), element by element."""
    for i in range(n):
        dst[at + i] = src[start + i]


@njit
def sort_small(a: np.ndarray) -> None:
    """Sort the 1-D ``a`` in place, ascending (insertion sort: a few values)."""
    for i in range(1, a.shape[0]):
        v = a[i]
        j = i - 1
        while j >= 0 and a[j] > v:
            a[j + 1] = a[j]
            j -= 1
        a[j + 1] = v


@njit
def sorted_small(a: np.ndarray) -> np.ndarray:
    """A sorted copy of the 1-D ``a`` (``np.sort`` for a few values)."""
    out = a.copy()
    sort_small(out)
    return out


@njit
def search_left(keys: np.ndarray, key: float) -> int:
    """The first index whose value is at least ``key`` in the ascending ``keys``
    (``np.searchsorted(keys, key)``)."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def search_right(keys: np.ndarray, key: float) -> int:
    """The first index whose value is above ``key`` in the ascending ``keys``
    (``np.searchsorted(keys, key, side="right")``)."""
    lo, hi = 0, keys.shape[0]
    while lo < hi:
        mid = (lo + hi) // 2
        if keys[mid] <= key:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit
def order_descending(values: np.ndarray) -> np.ndarray:
    """Indexes of the 1-D ``values`` from the largest, ties in index order
    (``np.argsort(-values, kind="mergesort")`` for a few values)."""
    n = values.shape[0]
    order = np.arange(n)
    for i in range(1, n):
        k = order[i]
        j = i - 1
        while j >= 0 and values[order[j]] < values[k]:
            order[j + 1] = order[j]
            j -= 1
        order[j + 1] = k
    return order
