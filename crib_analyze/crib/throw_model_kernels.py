"""numba kernels for the compact throw model the expert fixed point iterates on.

A compact throw model describes what an opponent of one role throws, learned from
its best discards over all hands (see :mod:`crib_analyze.expert.builder`):

* ``P[a, b]`` (a <= b): probability that it throws the rank pair (a, b);
* ``F[a, b]`` (a < b): the share of those throws that are suited;
* ``K[a, b, c]``: expected number of rank-c cards among the four it keeps.

Given our cards, rank pair (a, b) has probability ``P[a, b] * N_ab(n) / N_ab(deck)``,
normalised (card removal of whole pairs), and the starter's rank is c in proportion to
the cards of rank c left after the throw less the opponent's expected kept cards (K,
scaled by availability). With ``P`` proportional to the pair counts, ``F = 1/4`` and
``K`` uniform this is exactly the random opponent (tested).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import DEALER_SEAT, PONE_SEAT
from crib_analyze.crib.combine_kernels import (
    crib_from_weights,
    multiset_class_cribs,
    pair_count,
    pair_hand,
    pair_value,
)
from crib_analyze.crib.hand_kernels import (
    DISCARDS,
    KEEPS,
    N_DISCARDS,
    TIE_TOLERANCE,
    best_flags,
    first_best,
    hand_means_closed,
    unseen_counts,
    unseen_ranks,
)
from crib_analyze.jit import njit


@njit
def pair_starter_weights(P: np.ndarray, K: np.ndarray, n_rank: np.ndarray) -> np.ndarray:
    """W[a, b, c] = P(opponent throws ranks a <= b, starter has rank c | our cards)."""
    W = np.zeros((13, 13, 13), np.float64)
    tmp = np.empty(13, np.float64)
    total = 0.0
    for a in range(13):
        for b in range(a, 13):
            if P[a, b] <= 0.0:
                continue
            nab = pair_count(n_rank, a, b)
            if nab == 0:
                continue
            pab = P[a, b] * nab / (6.0 if a == b else 16.0)
            denom = 0.0
            for c in range(13):
                thrown = (c == a) + (c == b)
                avail = n_rank[c] - thrown
                full_left = 4 - thrown
                kept = K[a, b, c] * avail / full_left if full_left > 0 else 0.0
                tmp[c] = max(avail - kept, 0.0)
                denom += tmp[c]
            if denom <= 0.0:
                continue
            for c in range(13):
                W[a, b, c] = pab * tmp[c] / denom
            total += pab
    if total > 0.0:
        W /= total
    return W


@njit
def crib_model_means(
    table: np.ndarray, hand6: np.ndarray, P: np.ndarray, F: np.ndarray, K: np.ndarray
) -> np.ndarray:
    """(15,) crib expectation of each of our discards against one compact throw model."""
    n_rank, _, _ = unseen_counts(hand6)
    return crib_from_weights(table, hand6, pair_starter_weights(P, K, n_rank), F)


@njit(parallel=True)
def class_model_cribs(
    table: np.ndarray,
    multisets: np.ndarray,
    offsets: np.ndarray,
    cards: np.ndarray,
    P: np.ndarray,
    F: np.ndarray,
    K: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out`` (N, 15) with the crib expectation of every class's discards against
    one throw model.

    Rank parts are computed once per multiset (classes ``offsets[m]:offsets[m+1]``
    share it), flush and nobs per class.
    """
    for m in prange(multisets.shape[0]):
        ranks = multisets[m].astype(np.int64)
        n_rank = unseen_ranks(ranks)
        lo, hi = offsets[m], offsets[m + 1]
        W = pair_starter_weights(P, K, n_rank)
        multiset_class_cribs(table, ranks, n_rank, W, F, cards[lo:hi], out[lo:hi])


@njit(parallel=True)
def largest_difference(a: np.ndarray, b: np.ndarray) -> float:
    """max |a - b| over two (N, 15) arrays, without a temporary the size of either
    (NaN if either holds one, as numpy's max says)."""
    best = np.zeros(a.shape[0], np.float64)
    for i in prange(a.shape[0]):
        for j in range(a.shape[1]):
            d = abs(a[i, j] - b[i, j])
            if d > best[i] or d != d:
                best[i] = d
    largest = 0.0
    for v in best:  # numba's max passes over a NaN: say it
        if v != v:
            return float(v)
        largest = max(largest, v)
    return largest


@njit
def best_response_stats(
    cards: np.ndarray, weight: np.ndarray, value: np.ndarray, tol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Throw statistics of the policy that maximises ``value`` in every class.

    The best discards are :func:`~crib_analyze.crib.hand_kernels.best_flags`; tied ones
    share the class weight equally. Returns the flags (N, 15)
    and, weighted by raw hands: mass[a, b], suited mass[a, b], kept[a, b, c]
    (mass times the number of rank-c cards kept).
    """
    n = cards.shape[0]
    flags = best_flags(value, tol)
    mass = np.zeros((13, 13), np.float64)
    suited_mass = np.zeros((13, 13), np.float64)
    kept = np.zeros((13, 13, 13), np.float64)
    for i in range(n):
        w = weight[i] / flags[i].sum()
        for d in range(N_DISCARDS):
            if not flags[i, d]:
                continue
            e1, e2 = cards[i, DISCARDS[d, 0]], cards[i, DISCARDS[d, 1]]
            a, b = min(e1 >> 2, e2 >> 2), max(e1 >> 2, e2 >> 2)
            mass[a, b] += w
            if (e1 & 3) == (e2 & 3):
                suited_mass[a, b] += w
            for k in range(4):
                kept[a, b, cards[i, KEEPS[d, k]] >> 2] += w
    return flags, mass, suited_mass, kept


@njit
def thrown_pair_values(
    table: np.ndarray, P: np.ndarray, F: np.ndarray, K: np.ndarray
) -> np.ndarray:
    """(13, 13, 2) crib value of throwing ranks x <= y (offsuit, suited) against a
    compact model, only the two thrown cards removed from the deck (50 unseen).
    Suited needs x < y (index 1); impossible entries are NaN."""
    out = np.full((13, 13, 2), np.nan)
    for x in range(13):
        for y in range(x, 13):
            for suited in range(2 if x < y else 1):
                hand = pair_hand(x, y, suited)
                n_rank, _, _ = unseen_counts(hand)
                out[x, y, suited] = pair_value(table, hand, pair_starter_weights(P, K, n_rank), F)
    return out


@njit(parallel=True)
def expert_policy_throws(
    table: np.ndarray,
    opponents: np.ndarray,
    Pp: np.ndarray,
    Fp: np.ndarray,
    Kp: np.ndarray,
    Pd: np.ndarray,
    Fd: np.ndarray,
    Kd: np.ndarray,
    peg: np.ndarray,
    aim: int = 1,
) -> np.ndarray:
    """(n, 2) discard index each opponent hand throws when it best-responds to the
    compact expert models, by the seat it throws from: column ``PONE_SEAT`` (into our
    crib, maximising hand - crib + peg against the dealer's throws Pd, Fd, Kd) and
    ``DEALER_SEAT`` (its own crib: hand + crib + peg against the pone's throws Pp, Fp,
    Kp). ``peg`` (n, 2, 15) is added to each throw's value by seat: the pegging net
    (zeros for the classic expert), or a rule's mark on a throw it forbids. ``aim`` -1
    (lowball): the fewest points, ``aim`` x (hand +- crib) + peg maximised."""
    n = opponents.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        opp = opponents[i]
        its_crib = crib_model_means(table, opp, Pp, Fp, Kp)  # it deals: the pone throws
        our_crib = crib_model_means(table, opp, Pd, Fd, Kd)  # we deal: the dealer throws
        hand = hand_means_closed(table, opp)
        own = aim * (hand + its_crib) + peg[i, DEALER_SEAT]
        out[i, DEALER_SEAT] = first_best(own, TIE_TOLERANCE)
        out[i, PONE_SEAT] = first_best(aim * (hand - our_crib) + peg[i, PONE_SEAT], TIE_TOLERANCE)
    return out
