"""numba scoring kernels: pure functions on card ids (see :mod:`crib_analyze.cards`).

A show is four cards plus the starter. Its score splits cleanly in two:

* the *rank part* (fifteens, pairs, runs) depends only on the five ranks;
* the *suit part* (flush, nobs) depends on suits and on hand vs crib rules.

The engines lean on that split: the rank part is looked up in a table indexed by
the sorted ranks (:func:`build_rank_table`), the suit part has closed forms.
No kernel validates its input: the Python wrappers in :mod:`crib_analyze.scoring.show`
do that first.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import JACK_RANK
from crib_analyze.jit import njit

N_SCORES = 30  # a show scores 0..29
RANK_TABLE_SIZE = 13**5


@njit(inline="always")
def _value(rank: int) -> int:
    return rank + 1 if rank < 10 else 10


@njit
def fifteens_points(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """2 points for every subset of the five cards whose values sum to 15."""
    v0, v1, v2, v3, v4 = _value(r0), _value(r1), _value(r2), _value(r3), _value(r4)
    ways = 0
    for mask in range(1, 32):
        total = 0
        if mask & 1:
            total += v0
        if mask & 2:
            total += v1
        if mask & 4:
            total += v2
        if mask & 8:
            total += v3
        if mask & 16:
            total += v4
        if total == 15:
            ways += 1
    return 2 * ways


@njit
def pairs_points(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """2 points for every pair of cards of equal rank."""
    n = 0
    n += (r0 == r1) + (r0 == r2) + (r0 == r3) + (r0 == r4)
    n += (r1 == r2) + (r1 == r3) + (r1 == r4)
    n += (r2 == r3) + (r2 == r4)
    n += r3 == r4
    return 2 * n


@njit
def runs_points(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """Length of the maximal run of 3+ ranks, times the number of card combinations.

    Five cards hold at most one maximal run of three or more distinct ranks.
    """
    present = (1 << r0) | (1 << r1) | (1 << r2) | (1 << r3) | (1 << r4)
    best_len = 0
    best_end = -1
    length = 0
    for rank in range(13):
        if present & (1 << rank):
            length += 1
            if length > best_len:
                best_len = length
                best_end = rank
        else:
            length = 0
    if best_len < 3:
        return 0
    combos = 1
    for rank in range(best_end - best_len + 1, best_end + 1):
        combos *= (r0 == rank) + (r1 == rank) + (r2 == rank) + (r3 == rank) + (r4 == rank)
    return best_len * combos


@njit
def rank_points(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """Fifteens + pairs + runs of five ranks (0..12)."""
    return (
        fifteens_points(r0, r1, r2, r3, r4)
        + pairs_points(r0, r1, r2, r3, r4)
        + runs_points(r0, r1, r2, r3, r4)
    )


@njit
def flush_points(c0: int, c1: int, c2: int, c3: int, starter: int, crib: bool) -> int:
    """Hand: 4 for four suited hand cards, 5 with the starter too. Crib: only all five, 5."""
    s = c0 & 3
    if (c1 & 3) != s or (c2 & 3) != s or (c3 & 3) != s:
        return 0
    if (starter & 3) == s:
        return 5
    return 0 if crib else 4


@njit
def nobs_points(c0: int, c1: int, c2: int, c3: int, starter: int) -> int:
    """1 for a jack of the starter's suit among the four cards (a jack starter is no nobs)."""
    nobs_card = 4 * JACK_RANK + (starter & 3)
    return int(c0 == nobs_card or c1 == nobs_card or c2 == nobs_card or c3 == nobs_card)


@njit
def suit_points(c0: int, c1: int, c2: int, c3: int, starter: int, crib: bool) -> int:
    """Flush + nobs."""
    return flush_points(c0, c1, c2, c3, starter, crib) + nobs_points(c0, c1, c2, c3, starter)


@njit
def score_show(c0: int, c1: int, c2: int, c3: int, starter: int, crib: bool) -> int:
    """Total points of four cards plus the starter, under hand or crib rules."""
    return rank_points(c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, starter >> 2) + suit_points(
        c0, c1, c2, c3, starter, crib
    )


@njit
def score_components(c0: int, c1: int, c2: int, c3: int, starter: int, crib: bool) -> np.ndarray:
    """(fifteens, pairs, runs, flush, nobs) for display."""
    r0, r1, r2, r3, r4 = c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, starter >> 2
    out = np.empty(5, np.int64)
    out[0] = fifteens_points(r0, r1, r2, r3, r4)
    out[1] = pairs_points(r0, r1, r2, r3, r4)
    out[2] = runs_points(r0, r1, r2, r3, r4)
    out[3] = flush_points(c0, c1, c2, c3, starter, crib)
    out[4] = nobs_points(c0, c1, c2, c3, starter)
    return out


@njit
def score_many(hands: np.ndarray, starters: np.ndarray, crib: bool) -> np.ndarray:
    """Vector driver: ``hands`` is (n, 4) card ids, ``starters`` (n,)."""
    n = hands.shape[0]
    out = np.empty(n, np.int64)
    for i in range(n):
        out[i] = score_show(hands[i, 0], hands[i, 1], hands[i, 2], hands[i, 3], starters[i], crib)
    return out


@njit
def all_deals_histogram(crib: bool) -> np.ndarray:
    """Score histogram (0..29) over all 270,725 four-card hands x 48 starters."""
    hist = np.zeros(N_SCORES, np.int64)
    for a in range(52):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for s in range(52):
                        if s == a or s == b or s == c or s == d:  # noqa: SIM109 (numba-friendly)
                            continue
                        hist[score_show(a, b, c, d, s, crib)] += 1
    return hist


# --- rank table -----------------------------------------------------------------------


@njit(inline="always")
def rank_key(r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """Index of five ranks in the rank table: sort them, read as base-13 digits."""
    # sorting network for five values
    if r0 > r1:
        r0, r1 = r1, r0
    if r3 > r4:
        r3, r4 = r4, r3
    if r2 > r4:
        r2, r4 = r4, r2
    if r2 > r3:
        r2, r3 = r3, r2
    if r0 > r3:
        r0, r3 = r3, r0
    if r0 > r2:
        r0, r2 = r2, r0
    if r1 > r4:
        r1, r4 = r4, r1
    if r1 > r3:
        r1, r3 = r3, r1
    if r1 > r2:
        r1, r2 = r2, r1
    return (((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4


@njit
def build_rank_table() -> np.ndarray:
    """Rank points for every sorted 5-rank multiset, indexed by :func:`rank_key`."""
    table = np.zeros(RANK_TABLE_SIZE, np.int8)
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    for r4 in range(r3, 13):
                        if r0 == r4:
                            continue  # five of a rank cannot be dealt
                        table[(((r0 * 13 + r1) * 13 + r2) * 13 + r3) * 13 + r4] = rank_points(
                            r0, r1, r2, r3, r4
                        )
    return table


_RANK_TABLE: list[np.ndarray] = []  # the process's rank table, once built


def rank_table() -> np.ndarray:
    """The rank-points table, built once per process (a few milliseconds)."""
    if not _RANK_TABLE:
        remember_rank_table(build_rank_table())
    return _RANK_TABLE[0]


def known_rank_table() -> np.ndarray:
    """The rank table if this process has built it, else an empty array (for kernels
    that build it themselves, saving a kernel call at start-up)."""
    return _RANK_TABLE[0] if _RANK_TABLE else np.empty(0, np.int8)


def remember_rank_table(table: np.ndarray) -> None:
    """Keep a rank table built by a kernel as the process's. (It stays writable: kernels
    that may build it take one array type; nothing writes to it.)"""
    if not _RANK_TABLE:
        _RANK_TABLE.append(table)


@njit(inline="always")
def lookup_rank_points(table: np.ndarray, r0: int, r1: int, r2: int, r3: int, r4: int) -> int:
    """Rank points of five ranks in any order, from the table."""
    return table[rank_key(r0, r1, r2, r3, r4)]  # type: ignore[no-any-return]


@njit(inline="always")
def table_score_show(
    table: np.ndarray, c0: int, c1: int, c2: int, c3: int, starter: int, crib: bool
) -> int:
    """Same as :func:`score_show`, with the rank part read from the table."""
    return lookup_rank_points(table, c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, starter >> 2) + (
        suit_points(c0, c1, c2, c3, starter, crib)
    )
