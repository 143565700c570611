"""numba kernels that combine an opponent's throw with our hand into crib expectations.

Every opponent model here ends as two arrays for our six (or two) known cards:

* ``W[a, b, c]``: probability that the opponent throws ranks a <= b and the starter
  has rank c (given our cards);
* ``F[a, b]``: the suited share of its (a, b) throws.

Within a rank pair every available suited pair has weight ``F / 4`` and every offsuit
pair ``(1 - F) / 12`` (their full-deck shares), normalised over what is left; given the
throw, each available card of the starter's rank is equally likely. Rank points are
summed over (pair, starter rank) as in the random model; flush and nobs through the
per-card probabilities. :func:`pair_starter_probabilities` spells out the joint these
closed forms sum, and :func:`crib_from_joint` sums any joint by brute force.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIVE_RANK, JACK_RANK
from crib_analyze.crib.hand_kernels import DISCARDS, N_DISCARDS, unseen_counts
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import lookup_rank_points, table_score_show


@njit(inline="always")
def pair_count(n_rank: np.ndarray, a: int, b: int) -> int:
    return n_rank[a] * (n_rank[a] - 1) // 2 if a == b else n_rank[a] * n_rank[b]  # type: ignore[no-any-return]


@njit
def crib_rank_expectation(table: np.ndarray, W: np.ndarray, x: int, y: int) -> float:
    """Expected rank points of our thrown ranks x, y against the weights W."""
    total = 0.0
    for a in range(13):
        for b in range(a, 13):
            for c in range(13):
                w = W[a, b, c]
                if w > 0.0:
                    total += w * lookup_rank_points(table, x, y, a, b, c)
    return total


@njit
def rank_pair_parts(W: np.ndarray, n_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Rank-level pieces of W: ``pab[a, b]`` and ``q[a, b, c]``.

    ``pab`` is the probability of the rank pair; ``q`` the probability, given a throw
    of that pair, that the starter is one particular available card of rank c (the
    rank's share from W, spread evenly over the cards of that rank left).
    """
    pab = np.zeros((13, 13), np.float64)
    q = np.zeros((13, 13, 13), np.float64)
    for a in range(13):
        for b in range(a, 13):
            total = 0.0
            for c in range(13):
                total += W[a, b, c]
            pab[a, b] = total
            if total <= 0.0:
                continue
            for c in range(13):
                left = n_rank[c] - (c == a) - (c == b)
                if left > 0:
                    q[a, b, c] = W[a, b, c] / total / left
    return pab, q


@njit(error_model="numpy")
def card_pair_masses(
    pab: np.ndarray, F: np.ndarray, seen: np.ndarray, n_rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """``(suited, offsuit)``: probability of one particular available suited (offsuit)
    card pair of ranks a <= b, from the rank pair's probability and suited share."""
    suited = np.zeros((13, 13), np.float64)
    offsuit = np.zeros((13, 13), np.float64)
    held = np.zeros(13, np.int64)  # suits we hold of each rank, as bits
    for c in range(52):
        if seen[c]:
            held[c >> 2] |= 1 << (c & 3)
    for a in range(13):
        for b in range(a, 13):
            if pab[a, b] <= 0.0:
                continue
            if a == b:
                offsuit[a, b] = pab[a, b] / pair_count(n_rank, a, b)
                continue
            gone = held[a] | held[b]
            n_suited = 4 - ((gone & 1) + (gone >> 1 & 1) + (gone >> 2 & 1) + (gone >> 3 & 1))
            n_off = n_rank[a] * n_rank[b] - n_suited
            ws, wo = F[a, b] / 4.0, (1.0 - F[a, b]) / 12.0
            norm = ws * n_suited + wo * n_off
            if norm <= 0.0:  # only pairs the model never throws are left: share evenly
                ws = wo = 1.0
                norm = float(n_suited + n_off)
            suited[a, b] = pab[a, b] * ws / norm
            offsuit[a, b] = pab[a, b] * wo / norm
    return suited, offsuit


@njit
def starter_suit_parts(pab: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Sums over rank pairs shared by all hands of one rank multiset.

    ``Q[a, b] = sum_c q[a, b, c]``; ``R1 = sum_ab pab Q``; ``R2[r] = sum_ab pab q[a, b, r]``.
    """
    Q = np.zeros((13, 13), np.float64)  # by loops: sum(axis=) compiles an error message
    for a in range(13):
        for b in range(13):
            for c in range(13):
                Q[a, b] += q[a, b, c]
    R2 = np.zeros(13, np.float64)
    R1 = 0.0
    for a in range(13):
        for b in range(a, 13):
            if pab[a, b] > 0.0:
                R1 += pab[a, b] * Q[a, b]
                for r in range(13):
                    R2[r] += pab[a, b] * q[a, b, r]
    return Q, R1, R2


@njit(error_model="numpy")
def suit_terms(
    pab: np.ndarray,
    q: np.ndarray,
    Q: np.ndarray,
    R1: float,
    R2: np.ndarray,
    F: np.ndarray,
    hand: np.ndarray,
    n_rank: np.ndarray,
    n_suit: np.ndarray,
    seen: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, float]:
    """Flush and nobs ingredients that do not depend on which two cards we throw.

    Returns ``(flush, jack, opp_nobs)``: ``flush[s]`` = P(opponent throws two cards
    of suit s and the starter is of suit s); ``jack[s]`` = P(starter of suit s), the
    nobs chance of a jack of suit s we throw; ``opp_nobs`` = expected nobs from the
    opponent's own jacks. Starter probabilities follow ``q`` of :func:`rank_pair_parts`;
    ``Q, R1, R2`` come from :func:`starter_suit_parts`.

    With g(a, b, s) = P(starter of suit s | throw of ranks a, b), counting the thrown
    cards as possible starters: g = Q[a, b] minus q[a, b, r] for each card (r, s) we
    hold; the thrown cards' own q is taken off per pair below.
    """
    suited, offsuit = card_pair_masses(pab, F, seen, n_rank)
    flush = np.zeros(4, np.float64)
    jack = np.full(4, R1)
    for h in hand:
        jack[h & 3] -= R2[h >> 2]
    opp_nobs = 0.0
    # g of every suit and rank pair at once: Q less q of each card we hold of that suit
    g_of = np.empty((4, 13, 13), np.float64)
    for a in range(13):
        for b in range(a, 13):
            for s in range(4):
                g_of[s, a, b] = Q[a, b]
    for h in hand:
        s, r = h & 3, h >> 2
        for a in range(13):
            for b in range(a, 13):
                if pab[a, b] > 0.0:  # the only pairs read below
                    g_of[s, a, b] -= q[a, b, r]
    for c1 in range(52):
        if seen[c1]:
            continue
        r1, s1 = c1 >> 2, c1 & 3
        is_jack = r1 == JACK_RANK
        for r2 in range(13):
            lo, hi = min(r1, r2), max(r1, r2)
            if pab[lo, hi] <= 0.0:
                continue
            if r2 == r1:
                n_off, n_su = n_rank[r1] - 1, 0
            else:
                n_su = 0 if seen[4 * r2 + s1] else 1
                n_off = n_rank[r2] - n_su
            # the thrown card c1 itself cannot be the starter
            jack[s1] -= (n_su * suited[lo, hi] + n_off * offsuit[lo, hi]) * q[lo, hi, r1]
            if (n_su and r1 < r2) or is_jack:
                g = g_of[s1, lo, hi]
                if n_su and r1 < r2:
                    # a suited pair {c1, (r2, s1)}: counted once, from its lower card
                    flush[s1] += suited[lo, hi] * (g - q[lo, hi, r1] - q[lo, hi, r2])
                if is_jack:
                    # nobs from the opponent's jack c1 with a partner of rank r2
                    base = g - q[lo, hi, r1]
                    opp_nobs += n_off * offsuit[lo, hi] * base
                    if n_su:
                        opp_nobs += suited[lo, hi] * (base - q[lo, hi, r2])
    return flush, jack, opp_nobs


@njit(inline="always")
def crib_suit_expectation(
    flush: np.ndarray, jack: np.ndarray, opp_nobs: float, d0: int, d1: int
) -> float:
    """Expected flush + nobs of our thrown d0, d1 given the per-suit terms."""
    total = opp_nobs
    s = d0 & 3
    if (d1 & 3) == s:
        total += 5.0 * flush[s]
    for d in (d0, d1):
        if (d >> 2) == JACK_RANK:
            total += jack[d & 3]
    return total


@njit
def crib_from_weights(
    table: np.ndarray, hand: np.ndarray, W: np.ndarray, F: np.ndarray
) -> np.ndarray:
    """Crib expectation of each discard of ``hand`` (6 cards: 15 discards) given the
    throw/starter weights W and suited shares F."""
    n_rank, n_suit, seen = unseen_counts(hand)
    pab, q = rank_pair_parts(W, n_rank)
    Q, R1, R2 = starter_suit_parts(pab, q)
    flush, jack, opp_nobs = suit_terms(pab, q, Q, R1, R2, F, hand, n_rank, n_suit, seen)
    out = np.empty(N_DISCARDS, np.float64)
    for d in range(N_DISCARDS):
        d0, d1 = hand[DISCARDS[d, 0]], hand[DISCARDS[d, 1]]
        out[d] = crib_rank_expectation(table, W, d0 >> 2, d1 >> 2) + crib_suit_expectation(
            flush, jack, opp_nobs, d0, d1
        )
    return out


@njit
def pair_starter_probabilities(hand6: np.ndarray, W: np.ndarray, F: np.ndarray) -> np.ndarray:
    """(52, 52, 52) P(opponent throws {e1 < e2}, starter s | our cards) given W and F.

    The explicit joint that :func:`crib_from_weights` sums in closed form; the tests
    enumerate it to check that closed form.
    """
    n_rank, _, seen = unseen_counts(hand6)
    pab, q = rank_pair_parts(W, n_rank)
    suited, offsuit = card_pair_masses(pab, F, seen, n_rank)
    joint = np.zeros((52, 52, 52), np.float64)
    for e1 in range(52):
        if seen[e1]:
            continue
        for e2 in range(e1 + 1, 52):
            if seen[e2]:
                continue
            a, b = min(e1 >> 2, e2 >> 2), max(e1 >> 2, e2 >> 2)
            m = suited[a, b] if (e1 & 3) == (e2 & 3) else offsuit[a, b]
            for s in range(52):
                if not seen[s] and s != e1 and s != e2:
                    joint[e1, e2, s] = m * q[a, b, s >> 2]
    return joint


@njit(parallel=True)
def crib_from_joint(table: np.ndarray, hand6: np.ndarray, joint: np.ndarray) -> np.ndarray:
    """(15,) crib expectation of our discards for any opponent behaviour given as the
    joint P(throw {e1 < e2}, starter s) (52, 52, 52): exact, one show per entry."""
    out = np.zeros(N_DISCARDS, np.float64)
    for d in prange(N_DISCARDS):
        d0, d1 = hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]]
        total = 0.0
        for e1 in range(52):
            for e2 in range(e1 + 1, 52):
                for s in range(52):
                    p = joint[e1, e2, s]
                    if p != 0.0:
                        total += p * table_score_show(table, d0, d1, e1, e2, s, True)
        out[d] = total
    return out


@njit
def pair_value(table: np.ndarray, hand2: np.ndarray, W: np.ndarray, F: np.ndarray) -> float:
    """Crib value of throwing the two cards ``hand2`` when only they are known."""
    n_rank, n_suit, seen = unseen_counts(hand2)
    pab, q = rank_pair_parts(W, n_rank)
    Q, R1, R2 = starter_suit_parts(pab, q)
    flush, jack, opp_nobs = suit_terms(pab, q, Q, R1, R2, F, hand2, n_rank, n_suit, seen)
    return crib_rank_expectation(table, W, hand2[0] >> 2, hand2[1] >> 2) + crib_suit_expectation(
        flush, jack, opp_nobs, hand2[0], hand2[1]
    )


@njit
def pair_hand(x: int, y: int, suited: int) -> np.ndarray:
    return np.array([4 * x, 4 * y + (0 if suited else 1)], np.int64)


@njit
def multiset_class_cribs(
    table: np.ndarray,
    ranks: np.ndarray,
    n_rank: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
    cards: np.ndarray,
    out: np.ndarray,
) -> None:
    """Fill ``out`` (k, 15) for the k classes ``cards`` of one rank multiset.

    The rank part is computed once for the multiset (discards throwing the same
    ranks share it); flush and nobs per class.
    """
    pab, q = rank_pair_parts(W, n_rank)
    Q, R1, R2 = starter_suit_parts(pab, q)
    rank_part = np.empty(N_DISCARDS, np.float64)
    for d in range(N_DISCARDS):
        x, y = ranks[DISCARDS[d, 0]], ranks[DISCARDS[d, 1]]
        rank_part[d] = -1.0
        for e in range(d):
            if ranks[DISCARDS[e, 0]] == x and ranks[DISCARDS[e, 1]] == y:
                rank_part[d] = rank_part[e]
                break
        if rank_part[d] < 0.0:
            rank_part[d] = crib_rank_expectation(table, W, x, y)
    for i in range(cards.shape[0]):
        c = cards[i].astype(np.int64)
        _, n_suit, seen = unseen_counts(c)
        flush, jack, opp_nobs = suit_terms(pab, q, Q, R1, R2, F, c, n_rank, n_suit, seen)
        for d in range(N_DISCARDS):
            out[i, d] = rank_part[d] + crib_suit_expectation(
                flush, jack, opp_nobs, c[DISCARDS[d, 0]], c[DISCARDS[d, 1]]
            )


@njit
def random_pair_starter(hand6: np.ndarray) -> np.ndarray:
    """(52, 52, 52) P(opponent throws {e1 < e2}, starter s | our six) for the random
    opponent: every pair of the 46 unseen cards and every starter of the other 44 alike."""
    seen = np.zeros(52, np.bool_)
    for c in hand6:
        seen[c] = True
    joint = np.zeros((52, 52, 52), np.float64)
    p = 1.0 / (46 * 45 // 2 * 44)
    for e1 in range(52):
        if seen[e1]:
            continue
        for e2 in range(e1 + 1, 52):
            if seen[e2]:
                continue
            for s in range(52):
                if not seen[s] and s != e1 and s != e2:
                    joint[e1, e2, s] = p
    return joint


@njit(parallel=True)
def crib_distribution_from_joint(
    table: np.ndarray, hand6: np.ndarray, joint: np.ndarray
) -> np.ndarray:
    """(15, 30) the chance of each crib score (0-29) for each of our discards, for an
    opponent behaviour given as the joint of :func:`crib_from_joint`: exact. Its mean is
    :func:`crib_from_joint`; column 0 is the chance of a crib of nothing."""
    out = np.zeros((N_DISCARDS, 30), np.float64)
    for d in prange(N_DISCARDS):
        d0, d1 = hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]]
        for e1 in range(52):
            for e2 in range(e1 + 1, 52):
                for s in range(52):
                    p = joint[e1, e2, s]
                    if p != 0.0:
                        out[d, table_score_show(table, d0, d1, e1, e2, s, True)] += p
    return out


@njit
def choose(n: int, k: int) -> float:
    """C(n, k) as a float (0 outside 0 <= k <= n)."""
    if k < 0 or n < k:
        return 0.0
    out = 1.0
    for i in range(k):
        out = out * (n - i) / (i + 1)
    return out


@njit
def throw_fives_pair_starter(hand6: np.ndarray) -> np.ndarray:
    """(52, 52, 52) P(opponent throws {e1 < e2}, starter s | our six) under the throw
    fives variant, for a random opponent: its six are any six of the 46 unseen cards
    alike; it throws two of its fives if it holds two or more (any two alike), its five
    and one of its other five cards alike if it holds one, any two alike if none. The
    starter is any of the 40 cards outside both hands alike (so it is more often a five
    when the opponent threw none: the rule tells where the fives are)."""
    seen = np.zeros(52, np.bool_)
    for c in hand6:
        seen[c] = True
    f = 0  # unseen fives
    for s in range(4):
        f += not seen[FIVE_RANK * 4 + s]
    n = 46 - f  # unseen cards that are not fives
    hands = choose(46, 6)
    joint = np.zeros((52, 52, 52), np.float64)
    for e1 in range(52):
        if seen[e1]:
            continue
        for e2 in range(e1 + 1, 52):
            if seen[e2]:
                continue
            fives = (e1 >> 2 == FIVE_RANK) + (e2 >> 2 == FIVE_RANK)
            for s in range(52):
                if seen[s] or s in (e1, e2):
                    continue
                five_s = s >> 2 == FIVE_RANK
                count = 0.0  # opponent hands holding e1, e2, not s, times P(throw e1 e2)
                if fives == 2:
                    for k in range(2, 7):  # its fives: e1, e2 and k - 2 others
                        others = f - 2 - (1 if five_s else 0)
                        plain = n - (0 if five_s else 1)
                        pairs = k * (k - 1) / 2  # it throws any two of its k fives
                        count += choose(others, k - 2) * choose(plain, 6 - k) / pairs
                elif fives == 1:  # its only five and four more plain cards with the other
                    plain = n - 1 - (0 if five_s else 1)
                    count = choose(plain, 4) / 5.0
                else:  # no fives: e1, e2 and four more plain cards
                    plain = n - 2 - (0 if five_s else 1)
                    count = choose(plain, 4) / 15.0
                if count > 0.0:
                    joint[e1, e2, s] = count / hands / 40.0
    return joint
