"""numba kernels for the random opponent's crib: exact over every completion, or over
sampled opponent hands.

The *random* crib: the opponent's two cards are a uniform pair of the 46 unseen cards
and the starter is uniform over the other 44, so every one of the ``1035 * 44 =
45,540`` completions is equally likely. The rank part is summed over (opponent rank
pair, starter rank) weighted by the unseen rank counts; flush and nobs have closed
forms. All sums are integers over ``45,540``. Conventions: :mod:`crib_analyze.crib.hand_kernels`.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import DEALER_SEAT, JACK_RANK, PONE_SEAT
from crib_analyze.crib.hand_kernels import (
    DISCARDS,
    N_DISCARDS,
    best_for_seats,
    hand_means_closed,
    unseen_counts,
)
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import lookup_rank_points, table_score_show
from crib_analyze.sorting_kernels import copy_small

RANDOM_COMPLETIONS = 1035 * 44  # opponent pairs x starters


@njit
def crib_rank_numerator(table: np.ndarray, n_rank: np.ndarray, x: int, y: int) -> int:
    """Rank points of thrown ranks ``x, y`` summed over all 45,540 random completions.

    Sums over opponent rank pairs ``a <= b`` and starter rank ``c``, each weighted by
    the number of card choices the unseen rank counts allow.
    """
    total = 0
    for a in range(13):
        na = n_rank[a]
        if na == 0:
            continue
        for b in range(a, 13):
            w_ab = na * (na - 1) // 2 if a == b else na * n_rank[b]
            if w_ab == 0:
                continue
            for c in range(13):
                m = n_rank[c] - (c == a) - (c == b)
                if m > 0:
                    total += w_ab * m * lookup_rank_points(table, x, y, a, b, c)
    return total


@njit
def crib_suit_numerator(n_suit: np.ndarray, seen: np.ndarray, d0: int, d1: int) -> int:
    """Flush and nobs of thrown ``d0, d1`` summed over all 45,540 random completions."""
    total = 0
    # flush: both thrown cards of suit s, opponent pair and starter all of suit s
    s = d0 & 3
    if (d1 & 3) == s:
        u = n_suit[s]
        if u >= 3:
            total += 5 * (u * (u - 1) // 2) * (u - 2)
    # nobs, thrown jack: a starter of its suit (n_suit choices) with any of C(45, 2) pairs
    for d in (d0, d1):
        if (d >> 2) == JACK_RANK:
            total += 990 * n_suit[d & 3]
    # nobs, unseen jack J of suit s in the opponent's pair {J, o}: summed over the 45
    # partners o, the starters of suit s left number 45 (u - 1) - (u - 1) = 44 (u - 1)
    for suit in range(4):
        if not seen[4 * JACK_RANK + suit]:
            total += 44 * (n_suit[suit] - 1)
    return total


@njit
def crib_random_numerator(
    table: np.ndarray, n_rank: np.ndarray, n_suit: np.ndarray, seen: np.ndarray, d0: int, d1: int
) -> int:
    """Total crib points of thrown ``d0, d1`` over all 45,540 random completions."""
    return crib_rank_numerator(table, n_rank, d0 >> 2, d1 >> 2) + crib_suit_numerator(
        n_suit, seen, d0, d1
    )


@njit
def crib_random_means(table: np.ndarray, hand6: np.ndarray) -> np.ndarray:
    """(15,) exact crib expectation of each discard under the random opponent."""
    n_rank, n_suit, seen = unseen_counts(hand6)
    out = np.empty(N_DISCARDS, np.float64)
    for d in range(N_DISCARDS):
        num = crib_random_numerator(
            table, n_rank, n_suit, seen, hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]]
        )
        out[d] = num / RANDOM_COMPLETIONS
    return out


@njit
def best_discards_random(table: np.ndarray, hand6: np.ndarray) -> np.ndarray:
    """(2,) by seat: the best discard for a pone and for a dealer under the random crib
    model, from the holder's own view (46 unseen cards)."""
    crib = crib_random_means(table, hand6)
    return best_for_seats(hand_means_closed(table, hand6), crib, crib)


@njit
def crib_given_throws(
    table: np.ndarray, seen: np.ndarray, d0: int, d1: int, e0: int, e1: int
) -> float:
    """Mean crib points of four known crib cards over every starter not in ``seen``."""
    total = 0
    count = 0
    for s in range(52):
        if not seen[s]:
            total += table_score_show(table, d0, d1, e0, e1, s, True)
            count += 1
    return total / count


@njit(parallel=True)
def random_policy_throws(table: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """(n, 2) discard index each opponent hand throws under the random crib model, by the
    seat it throws from: column ``PONE_SEAT`` into our crib (we deal), ``DEALER_SEAT``
    into its own."""
    n = opponents.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        copy_small(out[i], 0, best_discards_random(table, opponents[i]), 0, 2)
    return out


@njit(parallel=True)
def crib_sampled(
    table: np.ndarray, hand6: np.ndarray, opponents: np.ndarray, throws: np.ndarray
) -> np.ndarray:
    """Crib points per sampled opponent hand, per discard, for both of our seats.

    ``opponents`` is (n, 6): the opponent's six cards in each sample; ``throws`` (n, 2)
    the discard index it throws from each seat (:func:`random_policy_throws`). The
    starter is enumerated over the 40 cards left. Returns (2, n, 15) by our seat:
    ``[DEALER_SEAT]`` our crib (it throws as pone), ``[PONE_SEAT]`` its crib.
    """
    n = opponents.shape[0]
    out = np.empty((2, n, N_DISCARDS), np.float64)
    _, _, own_seen = unseen_counts(hand6)
    for i in prange(n):
        opp = opponents[i]
        seen = own_seen.copy()
        for c in opp:
            seen[c] = True
        for ours in (DEALER_SEAT, PONE_SEAT):
            t = throws[i, 1 - ours]  # the opponent throws from the other seat
            if ours == PONE_SEAT and t == throws[i, PONE_SEAT]:
                out[PONE_SEAT, i, :] = out[DEALER_SEAT, i, :]
                continue
            e0, e1 = opp[DISCARDS[t, 0]], opp[DISCARDS[t, 1]]
            for d in range(N_DISCARDS):
                out[ours, i, d] = crib_given_throws(
                    table, seen, hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]], e0, e1
                )
    return out
