"""The hand-written sorts and searches of kernels against numpy's (their twins)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze import sorting_kernels as sk

small_ints = st.lists(st.integers(-5, 60), min_size=0, max_size=16)


@settings(max_examples=300, deadline=None)
@given(small_ints)
def test_the_small_sorts_are_numpys(values: list[int]) -> None:
    a = np.array(values, np.int64)
    assert np.array_equal(sk.sorted_small(a), np.sort(a))
    b = a.copy()
    sk.sort_small(b)
    assert np.array_equal(b, np.sort(a))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 6), min_size=0, max_size=16))
def test_the_descending_order_is_a_stable_argsort(values: list[int]) -> None:
    """Ties (many here) keep their index order, as numpy's mergesort does."""
    v = np.array(values, np.float64)
    assert np.array_equal(sk.order_descending(v), np.argsort(-v, kind="mergesort"))


@settings(max_examples=300, deadline=None)
@given(small_ints, st.integers(-8, 64))
def test_the_searches_are_numpys(values: list[int], key: int) -> None:
    keys = np.sort(np.array(values, np.int64))
    assert sk.search_left(keys, key) == np.searchsorted(keys, key)
    cdf = keys.astype(np.float64) / 7
    u = key / 7
    assert sk.search_right(cdf, u) == np.searchsorted(cdf, u, side="right")


@given(st.data())
@settings(max_examples=200, deadline=None)
def test_the_small_copy_is_a_slice_assignment(data: st.DataObject) -> None:
    """copy_small(dst, at, src, start, n) is numpy's dst[at:at + n] = src[start:start + n],
    the rest of dst untouched."""
    src = np.array(data.draw(st.lists(st.integers(-99, 99), min_size=1, max_size=12)), np.int64)
    start = data.draw(st.integers(0, len(src)))
    n = data.draw(st.integers(0, len(src) - start))
    dst = np.array(data.draw(st.lists(st.integers(-99, 99), min_size=n, max_size=n + 6)))
    at = data.draw(st.integers(0, len(dst) - n))
    want = dst.copy()
    want[at : at + n] = src[start : start + n]
    sk.copy_small(dst, at, src, start, n)
    np.testing.assert_array_equal(dst, want)
