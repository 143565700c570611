"""numba kernels for the expert opponent: crib expectations against a throw model.

A *throw model* describes what an opponent of one role puts in the crib, learned
from its best discards over all hands (see :mod:`crib_analyze.expert`):

* ``P[a, b]`` (a <= b): probability that it throws the rank pair (a, b);
* ``F[a, b]`` (a < b): the share of those throws that are suited;
* ``K[a, b, c]``: expected number of rank-c cards among the four it keeps.

Given our six cards (unseen rank counts ``n``, unseen suit counts ``u``):

* rank pair (a, b) has probability ``P[a, b] * N_ab(n) / N_ab(deck)``, normalised
  (card removal: pairs we hold cards of are less available);
* within (a, b) every available suited pair has weight ``F / 4`` and every offsuit
  pair ``(1 - F) / 12`` (their full-deck shares), normalised over what is available;
* the starter's rank is ``c`` in proportion to the cards of rank c left after the
  throw, minus the opponent's expected kept cards of rank c (scaled by availability);
  its suit is s in proportion to the unseen cards of suit s not thrown.

With ``P`` proportional to the pair counts, ``F = 1/4`` and ``K`` uniform this is
exactly the random opponent (tested). Rank points are summed over (pair, starter
rank) as in the random model, flush and nobs through card marginals.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from crib_analyze.discard_kernels import (
    DISCARDS,
    KEEPS,
    N_DISCARDS,
    hand_mean_closed,
    unseen_counts,
)
from crib_analyze.score_kernels import JACK_RANK, lookup_rank_points, table_score_show

N_STARTERS_AFTER_THROW = 44  # unseen cards (46) less the opponent's two thrown


@njit(cache=True, inline="always")
def _pair_count(n_rank: np.ndarray, a: int, b: int) -> int:
    return n_rank[a] * (n_rank[a] - 1) // 2 if a == b else n_rank[a] * n_rank[b]


@njit(cache=True)
def pair_starter_weights(P: np.ndarray, K: np.ndarray, n_rank: np.ndarray) -> np.ndarray:
    """W[a, b, c] = P(opponent throws ranks a <= b, starter has rank c | our cards)."""
    W = np.zeros((13, 13, 13), np.float64)
    tmp = np.empty(13, np.float64)
    total = 0.0
    for a in range(13):
        for b in range(a, 13):
            if P[a, b] <= 0.0:
                continue
            nab = _pair_count(n_rank, a, b)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True, error_model="numpy")
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
                offsuit[a, b] = pab[a, b] / _pair_count(n_rank, a, b)
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


@njit(cache=True)
def starter_suit_parts(pab: np.ndarray, q: np.ndarray) -> tuple[np.ndarray, float, np.ndarray]:
    """Sums over rank pairs shared by all hands of one rank multiset.

    ``Q[a, b] = sum_c q[a, b, c]``; ``R1 = sum_ab pab Q``; ``R2[r] = sum_ab pab q[a, b, r]``.
    """
    Q = q.sum(axis=2)
    R2 = np.zeros(13, np.float64)
    R1 = 0.0
    for a in range(13):
        for b in range(a, 13):
            if pab[a, b] > 0.0:
                R1 += pab[a, b] * Q[a, b]
                for r in range(13):
                    R2[r] += pab[a, b] * q[a, b, r]
    return Q, R1, R2


@njit(cache=True, error_model="numpy")
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
                g = Q[lo, hi]
                for h in hand:
                    if (h & 3) == s1:
                        g -= q[lo, hi, h >> 2]
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


@njit(cache=True, inline="always")
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


@njit(cache=True)
def crib_model_means(
    table: np.ndarray, hand6: np.ndarray, P: np.ndarray, F: np.ndarray, K: np.ndarray
) -> np.ndarray:
    """(15,) crib expectation of each of our discards against one compact throw model."""
    n_rank, _, _ = unseen_counts(hand6)
    return crib_from_weights(table, hand6, pair_starter_weights(P, K, n_rank), F)


@njit(cache=True)
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


# --- the fixed point over all hand classes ----------------------------------------------


@njit(cache=True)
def _multiset_class_cribs(
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


@njit(cache=True, inline="always")
def _unseen_ranks(ranks: np.ndarray) -> np.ndarray:
    n_rank = np.full(13, 4, np.int64)
    for r in ranks:
        n_rank[r] -= 1
    return n_rank


@njit(cache=True, parallel=True)
def class_model_cribs(
    table: np.ndarray,
    multisets: np.ndarray,
    offsets: np.ndarray,
    cards: np.ndarray,
    P: np.ndarray,
    F: np.ndarray,
    K: np.ndarray,
) -> np.ndarray:
    """(N, 15) crib expectation of every class's discards against one throw model.

    Rank parts are computed once per multiset (classes ``offsets[m]:offsets[m+1]``
    share it), flush and nobs per class.
    """
    n = cards.shape[0]
    out = np.empty((n, N_DISCARDS), np.float64)
    for m in prange(multisets.shape[0]):
        ranks = multisets[m].astype(np.int64)
        n_rank = _unseen_ranks(ranks)
        lo, hi = offsets[m], offsets[m + 1]
        W = pair_starter_weights(P, K, n_rank)
        _multiset_class_cribs(table, ranks, n_rank, W, F, cards[lo:hi], out[lo:hi])
    return out


@njit(cache=True)
def best_response_stats(
    cards: np.ndarray, weight: np.ndarray, value: np.ndarray, tol: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Throw statistics of the policy that maximises ``value`` in every class.

    Ties (within ``tol``) share the class weight equally. Returns the flags (N, 15)
    and, weighted by raw hands: mass[a, b], suited mass[a, b], kept[a, b, c]
    (mass times the number of rank-c cards kept).
    """
    n = cards.shape[0]
    flags = np.zeros((n, N_DISCARDS), np.bool_)
    mass = np.zeros((13, 13), np.float64)
    suited_mass = np.zeros((13, 13), np.float64)
    kept = np.zeros((13, 13, 13), np.float64)
    for i in range(n):
        best = value[i, 0]
        for d in range(1, N_DISCARDS):
            best = max(best, value[i, d])
        n_best = 0
        for d in range(N_DISCARDS):
            if value[i, d] >= best - tol:
                flags[i, d] = True
                n_best += 1
        w = weight[i] / n_best
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


@njit(cache=True)
def pair_value(table: np.ndarray, hand2: np.ndarray, W: np.ndarray, F: np.ndarray) -> float:
    """Crib value of throwing the two cards ``hand2`` when only they are known."""
    n_rank, n_suit, seen = unseen_counts(hand2)
    pab, q = rank_pair_parts(W, n_rank)
    Q, R1, R2 = starter_suit_parts(pab, q)
    flush, jack, opp_nobs = suit_terms(pab, q, Q, R1, R2, F, hand2, n_rank, n_suit, seen)
    return crib_rank_expectation(table, W, hand2[0] >> 2, hand2[1] >> 2) + crib_suit_expectation(
        flush, jack, opp_nobs, hand2[0], hand2[1]
    )


@njit(cache=True)
def _pair_hand(x: int, y: int, suited: int) -> np.ndarray:
    return np.array([4 * x, 4 * y + (0 if suited else 1)], np.int64)


@njit(cache=True)
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
                hand = _pair_hand(x, y, suited)
                n_rank, _, _ = unseen_counts(hand)
                out[x, y, suited] = pair_value(table, hand, pair_starter_weights(P, K, n_rank), F)
    return out


@njit(cache=True, parallel=True)
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
            hand = _pair_hand(x, y, suited)
            n_rank, _, _ = unseen_counts(hand)
            Ws, Fs = weights_from_compiled(*compiled, n_rank)
            out[x, y, suited] = pair_value(table, hand, Ws[0], Fs[0])
    return out


@njit(cache=True, parallel=True)
def expert_policy_throws(
    table: np.ndarray,
    opponents: np.ndarray,
    Pp: np.ndarray,
    Fp: np.ndarray,
    Kp: np.ndarray,
    Pd: np.ndarray,
    Fd: np.ndarray,
    Kd: np.ndarray,
) -> np.ndarray:
    """(n, 2) discard index each opponent hand throws [as pone, as dealer] when it
    best-responds to the expert models: as pone it maximises hand - crib against the
    dealer model (Pd, Fd, Kd), as dealer hand + crib against the pone model (Pp, ...)."""
    n = opponents.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        opp = opponents[i]
        n_rank, n_suit, _ = unseen_counts(opp)
        as_pone = crib_model_means(table, opp, Pd, Fd, Kd)
        as_dealer = crib_model_means(table, opp, Pp, Fp, Kp)
        best_p, best_d = -1e9, -1e9
        for d in range(N_DISCARDS):
            h = hand_mean_closed(
                table,
                n_rank,
                n_suit,
                opp[KEEPS[d, 0]],
                opp[KEEPS[d, 1]],
                opp[KEEPS[d, 2]],
                opp[KEEPS[d, 3]],
            )
            if h - as_pone[d] > best_p + 1e-12:
                best_p, out[i, 0] = h - as_pone[d], d
            if h + as_dealer[d] > best_d + 1e-12:
                best_d, out[i, 1] = h + as_dealer[d], d
    return out


@njit(cache=True, parallel=True)
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


# --- the expert policy per rank multiset: exact card removal -----------------------------

_COMB = np.array(
    [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]
)


@njit(cache=True)
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


@njit(cache=True)
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
    """
    n_pol = ptr.shape[0]
    n_left = n_rank.sum() - 6
    A = np.zeros((n_pol, 13, 13), np.float64)
    S = np.zeros((n_pol, 13, 13), np.float64)
    B = np.zeros((n_pol, 13, 13, 13), np.float64)
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
    W = np.zeros((n_pol, 13, 13, 13), np.float64)
    F = np.zeros((n_pol, 13, 13), np.float64)
    for p in range(n_pol):
        for a in range(13):
            for b in range(a, 13):
                if A[p, a, b] <= 0.0:
                    continue
                F[p, a, b] = S[p, a, b] / A[p, a, b]
                for c in range(13):
                    W[p, a, b, c] = (n_rank[c] * A[p, a, b] - B[p, a, b, c]) / (n_left * total)
    return W, F


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True, parallel=True)
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
        n_rank = _unseen_ranks(ranks)
        lo, hi = offsets[m], offsets[m + 1]
        Ws, Fs = weights_from_compiled(*compiled, n_rank)
        for p in range(n_pol):
            _multiset_class_cribs(table, ranks, n_rank, Ws[p], Fs[p], cards[lo:hi], out[p, lo:hi])
    return out


@njit(cache=True)
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
