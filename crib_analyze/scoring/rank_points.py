"""The rank part of a show (fifteens, pairs, runs) with numpy alone: no compile.

:func:`rank_points` counts five ranks by the rules. The one-hand path reads them from
:func:`rank_table`: the points of every five ranks in every order (13**5 entries, int8),
indexed by the ranks read as base-13 digits, so a lookup needs no sort. The table is
shipped with the package (``data/rank_points.raw``, made by :func:`write_rank_table`
from :func:`rank_points`; read once a process, its CRC-32 checked, in well under a
millisecond where building it takes tens). Five of a rank cannot be dealt and reads 0,
as in the kernels' table (:func:`crib_analyze.scoring.show_kernels.build_rank_table`),
the twin the tests hold it to.

>>> int(lookup(np.array([4, 4, 4, 10, 4])))  # 5 5 5 5 J: 28 in ranks (nobs is a suit point)
28
>>> int(lookup(np.array([0, 1, 2, 2, 12])))  # A 2 3 3 K: a double run and a pair, 15 twice
12
"""

from __future__ import annotations

import os
from functools import cache

import numpy as np

from crib_analyze.errors import ModelError
from crib_analyze.settings import PACKAGED_RANK_TABLE, packaged
from crib_analyze.storage.raw import read_raw, write_raw

RANK_TABLE_SIZE = 13**5
RANK_TABLE_FORMAT = 1
_VALUES = np.minimum(np.arange(13) + 1, 10)  # A 1 ... 9 9, T J Q K 10
_SUBSETS = np.array([[(mask >> i) & 1 for i in range(5)] for mask in range(1, 32)]).T  # (5, 31)
_I, _J = np.triu_indices(5, 1)
_DIGITS = 13 ** np.arange(4, -1, -1)  # base-13 place of each rank, the first the highest


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


def rank_key(ranks: np.ndarray, places: int = 5) -> np.ndarray:
    """Index in :func:`rank_table` of five ranks (last axis), in the order given; of
    fewer (``places``), the leading digits of the index of any five that begin with them.

    >>> head, tail = rank_key(np.array([1, 2]), places=2), rank_key(np.array([3, 4, 5]), 3)
    >>> int(head * 13**3 + tail) == int(rank_key(np.array([1, 2, 3, 4, 5])))
    True
    """
    return np.asarray(ranks, np.int64) @ _DIGITS[5 - places :]


def rank_table_from_rules() -> np.ndarray:
    """(13**5,) int8: :func:`rank_points` of every five ranks in every order (five of a
    rank 0); about a second, in slices."""
    ranks = np.indices((13,) * 5).reshape(5, -1).T  # row i: the base-13 digits of i
    table = np.zeros(RANK_TABLE_SIZE, np.int8)
    step = 1 << 15
    for lo in range(0, RANK_TABLE_SIZE, step):
        table[lo : lo + step] = rank_points(ranks[lo : lo + step])
    table[(ranks == ranks[:, :1]).all(axis=1)] = 0
    return table


def write_rank_table(path: str | os.PathLike[str]) -> None:
    """Write :func:`rank_table_from_rules` as the packaged table's file."""
    made = {"format": RANK_TABLE_FORMAT, "made_by": "rank_points.write_rank_table"}
    write_raw(path, made, {"points": rank_table_from_rules()})


@cache
def rank_table() -> np.ndarray:
    """(13**5,) int8 rank points of every five ranks in every order (five of a rank 0),
    from the packaged file (:data:`~crib_analyze.settings.PACKAGED_RANK_TABLE`), read
    once a process. Read-only."""
    path = packaged(PACKAGED_RANK_TABLE)
    try:
        meta, arrays = read_raw(str(path))
        table = arrays["points"]
        if meta.get("format") != RANK_TABLE_FORMAT:
            raise ValueError(f"format {meta.get('format')}, expected {RANK_TABLE_FORMAT}")
        if table.shape != (RANK_TABLE_SIZE,) or table.dtype != np.int8:
            raise ValueError(
                f"a table of {table.dtype} {table.shape}, not int8 ({RANK_TABLE_SIZE},)"
            )
        if table.min() < 0 or table.max() > 28:  # 5 5 5 5 J's 28 is the most
            raise ValueError("points outside 0..28")
    except (OSError, KeyError, ValueError) as e:
        raise ModelError(f"cannot read the packaged rank table {path}: {e}") from None
    return table


def lookup(ranks: np.ndarray) -> np.ndarray:
    """Rank points of five ranks (last axis, any order) from :func:`rank_table`."""
    points: np.ndarray = rank_table()[rank_key(ranks)].astype(np.int64)
    return points
