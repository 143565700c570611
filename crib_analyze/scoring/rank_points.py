"""The rank part of a show (fifteens, pairs, runs) with numpy alone: no compile.

The same table as :func:`crib_analyze.scoring.show_kernels.build_rank_table` (the
kernels' twin): a show's rank points indexed by its five ranks, sorted and read as
base-13 digits. Built once a process, in about a millisecond, from the 6,188 sorted
multisets of five ranks.

>>> int(lookup(np.array([4, 4, 4, 10, 4])))  # 5 5 5 5 J: 28 in ranks (nobs is a suit point)
28
>>> int(lookup(np.array([0, 1, 2, 2, 12])))  # A 2 3 3 K: a double run and a pair, 15 twice
12
"""

from __future__ import annotations

from functools import cache
from itertools import combinations_with_replacement

import numpy as np

RANK_TABLE_SIZE = 13**5
_VALUES = np.minimum(np.arange(13) + 1, 10)  # A 1 ... 9 9, T J Q K 10
_SUBSETS = np.array([[(mask >> i) & 1 for i in range(5)] for mask in range(1, 32)]).T  # (5, 31)
_I, _J = np.triu_indices(5, 1)
_DIGITS = 13 ** np.arange(4, -1, -1)  # base-13 place of each sorted rank


def rank_points(ranks: np.ndarray) -> np.ndarray:
    """(N,) fifteens + pairs + runs of each row of five ranks (0..12), in any order."""
    r = np.asarray(ranks, np.int64).reshape(-1, 5)
    fifteens = 2 * ((_VALUES[r].astype(np.float64) @ _SUBSETS) == 15).sum(axis=1)
    pairs = 2 * (r[:, _I] == r[:, _J]).sum(axis=1)
    rows = np.arange(len(r))[:, None] * 13
    counts = np.bincount((rows + r).ravel(), minlength=13 * len(r)).reshape(-1, 13)
    present = np.pad(counts > 0, ((0, 0), (1, 1)))  # a rank of none on either side
    runs = np.zeros(len(r), np.int64)
    for length in (3, 4, 5):  # a maximal run: present inside, absent just outside
        n = 13 - length + 1  # the windows' lowest ranks
        inside = np.ones((len(r), n), bool)
        ways = np.ones((len(r), n), np.int64)
        for k in range(length):
            inside &= present[:, 1 + k : 1 + k + n]
            ways *= counts[:, k : k + n]
        ends = ~present[:, :n] & ~present[:, 1 + length : 1 + length + n]
        runs += (length * ways * (inside & ends)).sum(axis=1)
    return fifteens + pairs + runs  # type: ignore[no-any-return]


def rank_key(ranks: np.ndarray) -> np.ndarray:
    """Index in :func:`rank_table` of five ranks (last axis) in any order."""
    return np.sort(np.asarray(ranks, np.int64), axis=-1) @ _DIGITS


@cache
def rank_table() -> np.ndarray:
    """(13**5,) int8 rank points of every sorted multiset of five ranks (others 0; five
    of a rank cannot be dealt and scores 0 here, as in the kernels' table). Read-only."""
    sorted_ranks = np.array(list(combinations_with_replacement(range(13), 5)), np.int64)
    points = rank_points(sorted_ranks)
    points[sorted_ranks[:, 0] == sorted_ranks[:, 4]] = 0
    table = np.zeros(RANK_TABLE_SIZE, np.int8)
    table[sorted_ranks @ _DIGITS] = points
    table.setflags(write=False)
    return table


def lookup(ranks: np.ndarray) -> np.ndarray:
    """Rank points of five ranks (last axis, any order) from :func:`rank_table`."""
    points: np.ndarray = rank_table()[rank_key(ranks)].astype(np.int64)
    return points
