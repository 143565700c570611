"""numba kernels for the full discard table: rank parts per multiset, rows per class.

Rank-only quantities (the fifteens/pairs/runs of kept hands over starters and of
cribs over random completions) depend only on a hand's rank multiset and on which
positions are thrown, so they are computed once per multiset (18,395 of them) and
shared by its suit classes. Suits enter through flush and nobs, whose closed forms
are added per class. Everything stays an integer numerator until the end: hand
points over 46 starters, crib points over 45,540 completions.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.crib.hand_kernels import (
    DISCARDS,
    KEEPS,
    N_DISCARDS,
    hand_rank_numerator,
    hand_suit_numerator,
    unseen_counts,
    unseen_ranks,
)
from crib_analyze.crib.random_crib_kernels import crib_rank_numerator, crib_suit_numerator
from crib_analyze.jit import njit


@njit(parallel=True)
def multiset_rank_numerators(
    table: np.ndarray, multisets: np.ndarray, with_crib: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """(M, 15) hand and random-crib rank-part numerators for each six-rank multiset.

    ``with_crib=False`` leaves the crib part zero (the expert table has its own).
    """
    n = multisets.shape[0]
    hand = np.empty((n, N_DISCARDS), np.int64)
    crib = np.zeros((n, N_DISCARDS), np.int64)
    for m in prange(n):
        ranks = multisets[m].astype(np.int64)
        n_rank = unseen_ranks(ranks)
        for d in range(N_DISCARDS):
            hand[m, d] = hand_rank_numerator(
                table,
                n_rank,
                ranks[KEEPS[d, 0]],
                ranks[KEEPS[d, 1]],
                ranks[KEEPS[d, 2]],
                ranks[KEEPS[d, 3]],
            )
            if with_crib:
                crib[m, d] = crib_rank_numerator(
                    table, n_rank, ranks[DISCARDS[d, 0]], ranks[DISCARDS[d, 1]]
                )
    return hand, crib


@njit(parallel=True)
def class_numerators(
    cards: np.ndarray, multiset: np.ndarray, hand_rank: np.ndarray, crib_rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(N, 15) hand numerators (/46) and random-crib numerators (/45,540) per class."""
    n = cards.shape[0]
    hand = np.empty((n, N_DISCARDS), np.int64)
    crib = np.empty((n, N_DISCARDS), np.int64)
    for i in prange(n):
        c = cards[i].astype(np.int64)
        _, n_suit, seen = unseen_counts(c)
        m = multiset[i]
        for d in range(N_DISCARDS):
            k0, k1, k2, k3 = c[KEEPS[d, 0]], c[KEEPS[d, 1]], c[KEEPS[d, 2]], c[KEEPS[d, 3]]
            hand[i, d] = hand_rank[m, d] + hand_suit_numerator(n_suit, k0, k1, k2, k3)
            d0, d1 = c[DISCARDS[d, 0]], c[DISCARDS[d, 1]]
            crib[i, d] = crib_rank[m, d] + crib_suit_numerator(n_suit, seen, d0, d1)
    return hand, crib
