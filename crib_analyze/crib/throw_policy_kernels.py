"""numba kernels for a throwing policy tabulated per rank multiset (the expert policy).

``pi[m, d]`` is the probability that a hand of rank multiset m throws its discard d
(positions in the sorted ranks) and ``suited[m, d]`` the suited part of it. Against our
cards, the opponent's six cards are drawn from our unseen cards, so its multiset has
probability prod_r C(n_r, k_r); its thrown ranks follow pi; the starter's rank is c
with probability (n_c - k_c) / (unseen - 6), since all six of its cards are out. That
is exact card removal at the rank level.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.crib.combine_kernels import (
    crib_from_weights,
    multiset_class_cribs,
    pair_hand,
    pair_value,
)
from crib_analyze.crib.hand_kernels import DISCARDS, N_DISCARDS, unseen_counts, unseen_ranks
from crib_analyze.jit import njit

_COMB = np.array(
    [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]
)


@njit
def compile_policy(
    multisets: np.ndarray, pi: np.ndarray, suited: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A sparse form of P per-multiset policies for :func:`weights_from_compiled`.

    ``pi`` and ``suited`` are (P, M, 15). Returns ``groups`` (M, 6, 2): each
    multiset's distinct ranks and counts (count 0 pads); ``ptr`` (P, M + 1): where
    its throws start in the entry arrays of each policy; ``pairs`` (E, 2) thrown
    ranks a <= b; ``prob`` (E,) and ``suited_prob`` (E,).
    """
    n_pol, n = pi.shape[0], multisets.shape[0]
    groups = np.zeros((n, 6, 2), np.int64)
    for m in range(n):
        g = 0
        for i in range(6):
            r = multisets[m, i]
            if i > 0 and multisets[m, i - 1] == r:
                groups[m, g - 1, 1] += 1
            else:
                groups[m, g, 0] = r
                groups[m, g, 1] = 1
                g += 1
    ptr = np.zeros((n_pol, n + 1), np.int64)
    total = 0
    for k in range(n_pol):
        ptr[k, 0] = total
        for m in range(n):
            for d in range(N_DISCARDS):
                if pi[k, m, d] != 0.0:
                    total += 1
            ptr[k, m + 1] = total
    pairs = np.empty((total, 2), np.int64)
    prob = np.empty(total, np.float64)
    suited_prob = np.empty(total, np.float64)
    e = 0
    for k in range(n_pol):
        for m in range(n):
            for d in range(N_DISCARDS):
                if pi[k, m, d] != 0.0:
                    pairs[e, 0] = multisets[m, DISCARDS[d, 0]]
                    pairs[e, 1] = multisets[m, DISCARDS[d, 1]]
                    prob[e] = pi[k, m, d]
                    suited_prob[e] = suited[k, m, d]
                    e += 1
    return groups, ptr, pairs, prob, suited_prob


@njit
def weights_from_compiled(
    groups: np.ndarray,
    ptr: np.ndarray,
    pairs: np.ndarray,
    prob: np.ndarray,
    suited_prob: np.ndarray,
    n_rank: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """W[k, a, b, c] and F[k, a, b] of opponents whose hands are drawn from our unseen
    cards, one per compiled policy k (one pass over the multisets serves them all).

    The opponent's rank multiset m has probability prod_r C(n_r, k_r) (its hand is six
    of our unseen cards); it throws the rank pairs of its policy entries; the starter's
    rank is c with probability (n_c - k_c) / (unseen - 6): all six of its cards are out.
    ``n_rank`` may have a 14th symbol, the jokers unseen (a pack with jokers: the policy's
    multisets over 14 symbols too).
    """
    n_pol = ptr.shape[0]
    R = n_rank.shape[0]  # 13 ranks, or 14 symbols with the joker
    n_left = n_rank.sum() - 6
    A = np.zeros((n_pol, R, R), np.float64)
    S = np.zeros((n_pol, R, R), np.float64)
    B = np.zeros((n_pol, R, R, R), np.float64)
    total = 0.0
    for m in range(groups.shape[0]):
        w = 1.0
        for g in range(6):
            k = groups[m, g, 1]
            if k == 0:
                break
            nr = n_rank[groups[m, g, 0]]
            if k > nr:
                w = 0.0
                break
            w *= _COMB[nr, k]
        if w == 0.0:
            continue
        total += w
        for p in range(n_pol):
            for e in range(ptr[p, m], ptr[p, m + 1]):
                a, b = pairs[e, 0], pairs[e, 1]
                wp = w * prob[e]
                A[p, a, b] += wp
                S[p, a, b] += w * suited_prob[e]
                for g in range(6):
                    k = groups[m, g, 1]
                    if k == 0:
                        break
                    B[p, a, b, groups[m, g, 0]] += wp * k
    W = np.zeros((n_pol, R, R, R), np.float64)
    F = np.zeros((n_pol, R, R), np.float64)
    for p in range(n_pol):
        for a in range(R):
            for b in range(a, R):
                if A[p, a, b] <= 0.0:
                    continue
                F[p, a, b] = S[p, a, b] / A[p, a, b]
                for c in range(R):
                    W[p, a, b, c] = (n_rank[c] * A[p, a, b] - B[p, a, b, c]) / (n_left * total)
    return W, F


@njit
def policy_weights(
    multisets: np.ndarray, pi: np.ndarray, suited: np.ndarray, n_rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """W and F of one per-multiset policy: ``pi[m, d]`` = P(a hand of rank multiset m
    throws its discard d), ``suited[m, d]`` the suited part (see
    :func:`weights_from_compiled`)."""
    compiled = compile_policy(
        multisets, pi.reshape((1, *pi.shape)), suited.reshape((1, *suited.shape))
    )
    W, F = weights_from_compiled(*compiled, n_rank)
    return W[0], F[0]


@njit
def crib_policy_means(
    table: np.ndarray,
    hand6: np.ndarray,
    multisets: np.ndarray,
    pi: np.ndarray,
    suited: np.ndarray,
) -> np.ndarray:
    """(15,) crib expectation of our discards against a per-multiset throwing policy."""
    n_rank, _, _ = unseen_counts(hand6)
    W, F = policy_weights(multisets, pi, suited, n_rank)
    return crib_from_weights(table, hand6, W, F)


@njit
def crib_compiled_means(
    table: np.ndarray,
    hand6: np.ndarray,
    groups: np.ndarray,
    ptr: np.ndarray,
    pairs: np.ndarray,
    prob: np.ndarray,
    suited_prob: np.ndarray,
) -> np.ndarray:
    """(P, 15) crib expectation of our discards against each compiled policy
    (:func:`compile_policy`), one pass over the opponent's multisets for all."""
    n_rank, _, _ = unseen_counts(hand6)
    Ws, Fs = weights_from_compiled(groups, ptr, pairs, prob, suited_prob, n_rank)
    out = np.empty((Ws.shape[0], N_DISCARDS), np.float64)
    for p in range(Ws.shape[0]):
        out[p] = crib_from_weights(table, hand6, Ws[p], Fs[p])
    return out


@njit(parallel=True)
def class_policy_cribs(
    table: np.ndarray,
    multisets: np.ndarray,
    offsets: np.ndarray,
    cards: np.ndarray,
    all_multisets: np.ndarray,
    pi: np.ndarray,
    suited: np.ndarray,
) -> np.ndarray:
    """(P, N, 15) crib expectation of classes against each of P per-multiset policies.

    ``multisets`` / ``offsets`` / ``cards`` describe our classes as in
    :func:`class_model_cribs`; ``all_multisets`` indexes ``pi`` and ``suited`` (P, M, 15).
    """
    n = cards.shape[0]
    n_pol = pi.shape[0]
    out = np.empty((n_pol, n, N_DISCARDS), np.float64)
    compiled = compile_policy(all_multisets, pi, suited)
    for m in prange(multisets.shape[0]):
        ranks = multisets[m].astype(np.int64)
        n_rank = unseen_ranks(ranks)
        lo, hi = offsets[m], offsets[m + 1]
        Ws, Fs = weights_from_compiled(*compiled, n_rank)
        for p in range(n_pol):
            multiset_class_cribs(table, ranks, n_rank, Ws[p], Fs[p], cards[lo:hi], out[p, lo:hi])
    return out


@njit
def multiset_policy(
    cards: np.ndarray,
    weight: np.ndarray,
    multiset: np.ndarray,
    n_multisets: int,
    flags: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """Aggregate a class-level policy (best-discard flags, ties shared) per multiset.

    Returns ``pi`` and ``suited``, (M, 15): the weighted probability that a hand of
    multiset m throws its discard d, and the suited part of it.
    """
    pi = np.zeros((n_multisets, N_DISCARDS), np.float64)
    suited = np.zeros((n_multisets, N_DISCARDS), np.float64)
    mass = np.zeros(n_multisets, np.float64)
    for i in range(cards.shape[0]):
        m = multiset[i]
        n_best = 0
        for d in range(N_DISCARDS):
            n_best += flags[i, d]
        w = weight[i] / n_best
        mass[m] += weight[i]
        for d in range(N_DISCARDS):
            if flags[i, d]:
                pi[m, d] += w
                if (cards[i, DISCARDS[d, 0]] & 3) == (cards[i, DISCARDS[d, 1]] & 3):
                    suited[m, d] += w
    for m in range(n_multisets):
        if mass[m] > 0.0:
            for d in range(N_DISCARDS):
                pi[m, d] /= mass[m]
                suited[m, d] /= mass[m]
    return pi, suited


@njit(parallel=True)
def thrown_pair_values_policy(
    table: np.ndarray, multisets: np.ndarray, pi: np.ndarray, suited_share: np.ndarray
) -> np.ndarray:
    """As :func:`thrown_pair_values`, against a per-multiset policy (opponent hands drawn
    from the 50 unseen cards)."""
    out = np.full((13, 13, 2), np.nan)
    compiled = compile_policy(
        multisets, pi.reshape((1, *pi.shape)), suited_share.reshape((1, *suited_share.shape))
    )
    for k in prange(169):
        x, y = k // 13, k % 13
        if y < x:
            continue
        for suited in range(2 if x < y else 1):
            hand = pair_hand(x, y, suited)
            n_rank, _, _ = unseen_counts(hand)
            Ws, Fs = weights_from_compiled(*compiled, n_rank)
            out[x, y, suited] = pair_value(table, hand, Ws[0], Fs[0])
    return out
