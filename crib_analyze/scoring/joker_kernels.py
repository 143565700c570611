"""numba kernels for the show with jokers: a joker is fully wild, its rank and suit
chosen when it is counted, and it may repeat a card already in play.

A joker is any id >= 52 (:data:`JOKER`, the second ``JOKER + 1``). The show of four
cards and a starter with jokers among them is the best over every assignment of a
card (0-51) to each joker: 52 for one joker, 52 x 52 for two. A joker cut as the
starter is assigned for each hand on its own (each player chooses for their own hand).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import score_show

JOKER = FIRST_JOKER  # the first joker's id; the second is 53
MAX_JOKER_POINTS = 50  # bins of a distribution: above any show (five fives score 40)


@njit
def unseen_of(held: np.ndarray, jokers: int) -> np.ndarray:
    """The ids of a pack with ``jokers`` jokers not among ``held``, ascending."""
    seen = np.zeros(52 + jokers, np.bool_)
    for c in held:
        seen[c] = True
    return np.flatnonzero(~seen)


@njit
def best_joker_show(cards: np.ndarray, crib: bool) -> tuple[int, int, int]:
    """(points, first joker's card, second joker's card) of the best assignment for
    ``cards`` (5: four and the starter last, jokers as ids >= 52); -1 for a joker that
    is not there. Ties: the first assignment in card order."""
    where = np.full(2, -1, np.int64)
    k = 0
    for i in range(5):
        if cards[i] >= JOKER:
            where[k] = i
            k += 1
    c = cards.copy()
    best, a_best, b_best = -1, -1, -1
    n_a = 52 if k >= 1 else 1
    n_b = 52 if k >= 2 else 1
    for a in range(n_a):
        if k >= 1:
            c[where[0]] = a
        for b in range(n_b):
            if k >= 2:
                c[where[1]] = b
            p = score_show(c[0], c[1], c[2], c[3], c[4], crib)
            if p > best:
                best = p
                a_best = a if k >= 1 else -1
                b_best = b if k >= 2 else -1
    return best, a_best, b_best


@njit(parallel=True)
def joker_distribution(jokers: int, crib: bool) -> np.ndarray:
    """(MAX_JOKER_POINTS + 1,) how many (four cards, starter) of a pack with ``jokers``
    jokers (53 or 54 cards) score each number of points, each joker counted at its best:
    every four of the pack with every starter of the rest."""
    size = 52 + jokers
    out = np.zeros((size, MAX_JOKER_POINTS + 1), np.int64)
    for a in prange(size):
        cards = np.empty(5, np.int64)
        for b in range(a + 1, size):
            for c in range(b + 1, size):
                for d in range(c + 1, size):
                    for s in range(size):
                        if s == a or s == b or s == c or s == d:  # noqa: SIM109 (numba)
                            continue
                        cards[0], cards[1], cards[2], cards[3], cards[4] = a, b, c, d, s
                        if a < JOKER and b < JOKER and c < JOKER and d < JOKER and s < JOKER:
                            p = score_show(a, b, c, d, s, crib)
                        else:
                            p = best_joker_show(cards, crib)[0]
                        out[a, p] += 1
    total: np.ndarray = out.sum(axis=0)
    return total


@njit(parallel=True)
def joker_kept_scores(hand: np.ndarray, keeps: np.ndarray, jokers: int) -> np.ndarray:
    """(T, U): each kept hand's show (``keeps`` (T, 4): positions in ``hand``, jokers
    ids >= 52) with each of the U unseen cards of a pack with ``jokers`` jokers as the
    starter, every joker at its best."""
    unseen = unseen_of(hand, jokers)
    u = unseen.shape[0]
    scores = np.zeros((keeps.shape[0], u), np.int64)
    for d in prange(keeps.shape[0]):
        five = np.empty(5, np.int64)
        for j in range(4):
            five[j] = hand[keeps[d, j]]
        for i in range(u):
            five[4] = unseen[i]
            scores[d, i] = best_joker_show(five, False)[0]
    return scores


@njit(parallel=True)
def joker_hand_values(
    hand6: np.ndarray, discards: np.ndarray, keeps: np.ndarray, jokers: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The throws of six cards (jokers among them as ids >= 52) from a pack with
    ``jokers`` jokers, against the random opponent: (scores (15, U): each kept hand's
    show with each of the U unseen starters; crib_num (15,): the crib's show summed over
    every opponent pair of the unseen cards and every starter of the rest; crib_zero
    (15,): how many of those cribs show nothing; that number of completions). Every
    joker is counted at its best, card by card: the brute force that the tests hold
    the class kernels of :mod:`crib_analyze.crib.joker_class_kernels` to."""
    unseen = unseen_of(hand6, jokers)
    u = unseen.shape[0]
    n_throws = discards.shape[0]
    scores = joker_kept_scores(hand6, keeps, jokers)
    crib_num = np.zeros(n_throws, np.int64)
    crib_zero = np.zeros(n_throws, np.int64)
    for d in prange(n_throws):
        five = np.empty(5, np.int64)
        five[0], five[1] = hand6[discards[d, 0]], hand6[discards[d, 1]]
        total = 0
        zeros = 0
        for i in range(u):
            for j in range(i + 1, u):
                five[2], five[3] = unseen[i], unseen[j]
                for s in range(u):
                    if s == i or s == j:  # noqa: SIM109 (numba)
                        continue
                    five[4] = unseen[s]
                    if five.max() < JOKER:  # no joker: one count
                        p = score_show(five[0], five[1], five[2], five[3], five[4], True)
                    else:
                        p = best_joker_show(five, True)[0]
                    total += p
                    zeros += p == 0
        crib_num[d] = total
        crib_zero[d] = zeros
    return scores, crib_num, crib_zero, u * (u - 1) // 2 * (u - 2)


@njit
def _starters_sum(
    five: np.ndarray, unseen: np.ndarray, five_of: np.ndarray, w: np.ndarray, fives: int,
    skip: tuple[int, int, int, int],
) -> tuple[float, float]:  # fmt: skip
    """(points, chance of nothing) of the crib ``five[:4]`` over every unseen starter but
    the positions ``skip`` (-1: none), each weighing ``w[fives, starter a five]``."""
    total = 0.0
    nothing = 0.0
    for s in range(unseen.shape[0]):
        if s == skip[0] or s == skip[1] or s == skip[2] or s == skip[3]:
            continue
        five[4] = unseen[s]
        if five.max() < JOKER:
            p = score_show(five[0], five[1], five[2], five[3], five[4], True)
        else:
            p = best_joker_show(five, True)[0]
        weight = w[fives, five_of[s]]
        total += weight * p
        if p == 0:
            nothing += weight
    return total, nothing


@njit(parallel=True)
def weighted_joker_cribs(
    held: np.ndarray, rows: np.ndarray, jokers: int, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(mean (T,), P(0) (T,)) of the crib of each throw (``rows`` (T, k): card ids, k 1
    or 2) of the ``held`` cards, from a pack with ``jokers`` jokers: every set of the
    4 - k other crib cards among the unseen (jokers too) and every starter of the rest,
    card by card, each weighing ``w[j, s]`` (j fives in the set, s 1 when the starter
    is a five: the other seats obeying throw fives,
    :func:`crib_analyze.crib.throw_fives_rule.other_cards_weights`); every joker at its
    best."""
    unseen = unseen_of(held, jokers)
    u = unseen.shape[0]
    five_of = np.zeros(u, np.int64)
    for i in range(u):
        five_of[i] = 1 if unseen[i] < JOKER and unseen[i] >> 2 == 4 else 0
    k = rows.shape[1]
    n = rows.shape[0]
    mean = np.zeros(n, np.float64)
    zero = np.zeros(n, np.float64)
    for d in prange(n):
        five = np.empty(5, np.int64)
        for t in range(k):
            five[t] = rows[d, t]
        total = 0.0
        nothing = 0.0
        for i in range(u):
            for j in range(i + 1, u):
                if k == 2:  # the other seat's pair
                    five[2], five[3] = unseen[i], unseen[j]
                    got = _starters_sum(five, unseen, five_of, w, five_of[i] + five_of[j],
                                        (i, j, -1, -1))  # fmt: skip
                    total += got[0]
                    nothing += got[1]
                    continue
                for m in range(j + 1, u):  # one thrown: three others
                    five[1], five[2], five[3] = unseen[i], unseen[j], unseen[m]
                    fives = five_of[i] + five_of[j] + five_of[m]
                    got = _starters_sum(five, unseen, five_of, w, fives, (i, j, m, -1))
                    total += got[0]
                    nothing += got[1]
        mean[d] = total
        zero[d] = nothing
    return mean, zero


@njit(parallel=True)
def weighted_joker_nothing_thrown(
    held: np.ndarray, jokers: int, w: np.ndarray
) -> tuple[float, float]:
    """(mean, P(0)) of a crib to which the ``held`` cards' seat throws nothing (five's
    dealer): every set of four unseen cards (jokers too) with every starter of the rest,
    card by card, each weighing ``w[j, s]`` as in :func:`weighted_joker_cribs`; every
    joker at its best."""
    unseen = unseen_of(held, jokers)
    u = unseen.shape[0]
    five_of = np.zeros(u, np.int64)
    for i in range(u):
        five_of[i] = 1 if unseen[i] < JOKER and unseen[i] >> 2 == 4 else 0
    totals = np.zeros(u, np.float64)
    zeros = np.zeros(u, np.float64)
    for i in prange(u):  # the set's first card: each its own slot
        five = np.empty(5, np.int64)
        five[0] = unseen[i]
        for j in range(i + 1, u):
            five[1] = unseen[j]
            for m in range(j + 1, u):
                five[2] = unseen[m]
                for n in range(m + 1, u):
                    five[3] = unseen[n]
                    fives = five_of[i] + five_of[j] + five_of[m] + five_of[n]
                    got = _starters_sum(five, unseen, five_of, w, fives, (i, j, m, n))
                    totals[i] += got[0]
                    zeros[i] += got[1]
    return totals.sum(), zeros.sum()
