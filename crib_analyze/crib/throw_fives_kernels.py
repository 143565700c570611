"""numba kernels for the tables of five-card hands under throw fives: the crib of every
throw of every class when the other seats are random and obey the rule, exact.

A seat's crib is its thrown card or cards, K other cards (the other seats' throws and
the pack's) and a starter. Under the rule, one particular set of the K others with one
particular starter has the chance ``w[j, s]``: j fives in the set, s 1 when the starter
is a five (:func:`crib_analyze.crib.throw_fives_rule.other_cards_weights`). The crib's
mean is its points summed with those weights:

* the rank part (fifteens, pairs, runs) once per multiset of ranks: it depends only on
  the unseen cards' rank counts;
* the flush of five and nobs in closed form, class by class.

The chance of a crib of nothing is the zero kernels' count with the same weights
(:func:`~crib_analyze.crib.zero_kernels.fives_one_zero`,
:func:`~crib_analyze.crib.zero_kernels.policy_crib_zero`). ``weights`` below is
(5, 4, 2): ``weights[h]`` the seat's ``w`` when it holds h fives.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIVE_RANK, JACK_RANK
from crib_analyze.crib.combine_kernels import _choose
from crib_analyze.crib.zero_kernels import (
    EVERY_PAIR,
    fives_one_zero,
    fives_pair_rank_sum,
    fives_pair_suit_sum,
    policy_crib_zero,
    throw_fives_starter_weights,
    unseen_grid,
)
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import lookup_rank_points


@njit
def fives_one_rank_sum(table: np.ndarray, n: np.ndarray, rt: int, w: np.ndarray) -> float:
    """The rank part of the crib of one thrown card of rank ``rt``: fifteens, pairs and
    runs over every set of three unseen cards (rank counts ``n``) and starter, weighed
    by ``w``."""
    total = 0.0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                if a == c:  # three of one rank
                    sets = _choose(n[a], 3)
                elif a == b:
                    sets = _choose(n[a], 2) * n[c]
                elif b == c:
                    sets = n[a] * _choose(n[b], 2)
                else:
                    sets = float(n[a] * n[b] * n[c])
                if sets == 0.0:
                    continue
                j = (a == FIVE_RANK) + (b == FIVE_RANK) + (c == FIVE_RANK)
                for d in range(13):
                    left = n[d] - (d == a) - (d == b) - (d == c)
                    if left > 0:
                        points = lookup_rank_points(table, rt, a, b, c, d)
                        if points:
                            total += points * sets * left * w[j, 1 if d == FIVE_RANK else 0]
    return total


@njit
def fives_one_suit_sum(t: int, avail: np.ndarray, w: np.ndarray) -> float:
    """The flush of five and nobs of the crib of the one thrown ``t`` (``avail[r, s]``: the
    card of rank r, suit s unseen), weighed by ``w``."""
    suit = t & 3
    plain_suited = 0  # the unseen cards of the thrown card's suit but its five
    for r in range(13):
        if r != FIVE_RANK:
            plain_suited += avail[r, suit]
    m = plain_suited
    flush = _choose(m, 3) * (m - 3) * w[0, 0]
    if avail[FIVE_RANK, suit]:  # its five among the three, or cut
        flush += _choose(m, 2) * (m - 2) * w[1, 0] + _choose(m, 3) * w[0, 1]
    total: float = 5.0 * flush
    fives, plain = 0, 0
    for r in range(13):
        for s in range(4):
            if r == FIVE_RANK:
                fives += avail[r, s]
            else:
                plain += avail[r, s]
    for rz in range(13):  # nobs: the jack of the starter's suit among the crib's four
        for sz in range(4):
            if not avail[rz, sz]:
                continue
            five_s = 1 if rz == FIVE_RANK else 0
            f, p = fives - five_s, plain - (1 - five_s)  # the cards the three come from
            if t >> 2 == JACK_RANK and sz == suit:  # the thrown jack: any three
                for j in range(4):
                    total += _choose(f, j) * _choose(p, 3 - j) * w[j, five_s]
            elif rz != JACK_RANK and avail[JACK_RANK, sz]:  # that jack and two more
                for j in range(3):
                    total += _choose(f, j) * _choose(p - 1, 2 - j) * w[j, five_s]
    return total


@njit(parallel=True)
def multiset_fives_rank_sums(
    table: np.ndarray, hands: np.ndarray, throws: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """(M, T): the rank part of the crib of each throw (``throws`` (T, 1 or 2):
    positions) of one hand of each multiset of ranks (``hands`` (M, 5))."""
    out = np.empty((hands.shape[0], throws.shape[0]), np.float64)
    for m in prange(hands.shape[0]):
        n = np.full(13, 4, np.int64)
        held_fives = 0
        for c in hands[m]:
            n[c >> 2] -= 1
            held_fives += c >> 2 == FIVE_RANK
        w = weights[held_fives]
        for d in range(throws.shape[0]):
            r0 = hands[m, throws[d, 0]] >> 2
            if throws.shape[1] == 1:
                out[m, d] = fives_one_rank_sum(table, n, r0, w)
            else:
                out[m, d] = fives_pair_rank_sum(table, n, r0, hands[m, throws[d, 1]] >> 2, w)
    return out


@njit(parallel=True)
def classes_fives_cribs(
    table: np.ndarray,
    cards: np.ndarray,
    multiset: np.ndarray,
    rank_sums: np.ndarray,
    throws: np.ndarray,
    weights: np.ndarray,
    with_zero: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """(crib mean (N, T), P(crib 0) (N, T), zeros unless ``with_zero``) of each throw of
    each class (``cards`` (N, 5); ``multiset`` its row of ``rank_sums``,
    :func:`multiset_fives_rank_sums`)."""
    n, k = cards.shape[0], throws.shape[0]
    mean = np.zeros((n, k), np.float64)
    zero = np.zeros((n, k), np.float64)
    for i in prange(n):
        held_fives = 0
        for c in cards[i]:
            held_fives += c >> 2 == FIVE_RANK
        w = weights[held_fives]
        avail = unseen_grid(cards[i])
        q = throw_fives_starter_weights(w)
        for d in range(k):
            t0 = cards[i, throws[d, 0]]
            if throws.shape[1] == 1:
                mean[i, d] = rank_sums[multiset[i], d] + fives_one_suit_sum(t0, avail, w)
                if with_zero:
                    zero[i, d] = fives_one_zero(table, t0, avail, w)
            else:
                t1 = cards[i, throws[d, 1]]
                mean[i, d] = rank_sums[multiset[i], d] + fives_pair_suit_sum(t0, t1, avail, w)
                if with_zero:
                    zero[i, d] = policy_crib_zero(table, t0, t1, avail, EVERY_PAIR, EVERY_PAIR, q)
    return mean, zero
