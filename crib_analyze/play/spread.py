"""The solver's pegging as a distribution per keep, ready for the kernels that draw it.

:func:`play_spread` turns the pegging build's deal counts (per seat and kept rank
multiset: how often the keeper pegged i points and the opponent j) into the
cumulative distributions of :class:`~crib_analyze.play.spread_kernels.PlaySpread`.
:func:`packaged_spread` is that of the shipped pegging table, if its distributions are
shipped with it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze.artifacts.pegging_table import keep_rows, packaged_distributions
from crib_analyze.play.spread_kernels import PlaySpread

NO_SPREAD = PlaySpread(
    np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros(0, np.int64),
    np.zeros(0, np.int64), np.zeros(0, np.float64),
)  # fmt: skip


def play_spread(hist: np.ndarray) -> PlaySpread:
    """The cumulative distributions of deal counts ``hist`` (2, 1820, bins, bins): each
    cell's outcomes with any deals, ordered by the keeper's net, then its own points.

    >>> hist = np.zeros((2, 1820, 32, 32), np.int64)
    >>> hist[:, :, 3, 1] = 1  # every cell: one deal 3-1 ...
    >>> hist[:, :, 0, 2] = 3  # ... and three 0-2
    >>> s = play_spread(hist)
    >>> s.own[:2].tolist(), s.opp[:2].tolist(), s.cdf[:2].tolist()
    ([0, 3], [2, 1], [0.75, 1.0])
    """
    bins = hist.shape[-1]
    own, opp = np.meshgrid(np.arange(bins), np.arange(bins), indexing="ij")
    order = np.lexsort((own.ravel(), (own - opp).ravel()))  # by net, then own points
    counts = hist.reshape(-1, bins * bins)[:, order].astype(np.float64)
    keep = counts > 0
    per_cell = keep.sum(axis=1)
    starts = np.concatenate([[0], np.cumsum(per_cell)]).astype(np.int64)
    cdf = np.cumsum(counts, axis=1) / counts.sum(axis=1, keepdims=True)
    return PlaySpread(
        rows=np.ascontiguousarray(keep_rows()),
        starts=starts,
        own=np.ascontiguousarray(np.broadcast_to(own.ravel()[order], counts.shape)[keep]),
        opp=np.ascontiguousarray(np.broadcast_to(opp.ravel()[order], counts.shape)[keep]),
        cdf=np.ascontiguousarray(cdf[keep]),
    )


@cache
def packaged_spread() -> PlaySpread | None:
    """The shipped pegging table's distributions, or None if it has none."""
    hist = packaged_distributions()
    return None if hist is None else play_spread(hist)
