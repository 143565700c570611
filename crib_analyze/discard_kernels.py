"""numba kernels for the discard engines: hand over starters, crib per opponent model.

Conventions shared by every kernel here:

* ``hand6`` is six distinct card ids; its 15 discards are the position pairs
  ``DISCARDS`` (lexicographic ``(i, j)``, ``i < j``) and ``KEEPS`` the other four.
* ``table`` is the rank-points table of :func:`crib_analyze.score_kernels.build_rank_table`.
* **Best discard** (one rule everywhere): a discard is best when its value is within
  ``TIE_TOLERANCE`` points of the hand's largest; every such discard is flagged
  (:func:`best_flags`), and where one must be named it is the first of them in
  ``DISCARDS`` order (:func:`first_best`).
* **Heels**: a jack starter gives the dealer 2 points at the cut, so a dealer holding
  these six cards expects ``2 * unseen jacks / 46`` (:func:`heels_expectation`).
* The *random* crib: the opponent's two cards are a uniform pair of the 46 unseen
  cards and the starter is uniform over the other 44, so every one of the
  ``1035 * 44 = 45,540`` completions is equally likely. The rank part is summed
  over (opponent rank pair, starter rank) weighted by the unseen rank counts;
  flush and nobs have closed forms. All sums are integers over ``45,540``.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.jit import njit
from crib_analyze.score_kernels import JACK_RANK, lookup_rank_points, table_score_show

DISCARDS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
KEEPS = np.array([[p for p in range(6) if p not in pair] for pair in DISCARDS], dtype=np.int64)
N_DISCARDS = 15
N_UNSEEN = 46  # 52 - 6
RANDOM_COMPLETIONS = 1035 * 44  # opponent pairs x starters
# The two cribs of one hand, as rows of (2, ...) arrays: OWN when we deal (the
# opponent throws as pone), OPP when the opponent deals (it throws as dealer).
OWN_CRIB, OPP_CRIB = 0, 1
TIE_TOLERANCE = 1e-9  # points: discards this close to the best are tied for best
HEELS_POINTS = 2


@njit
def best_flags(values: np.ndarray, tol: float) -> np.ndarray:
    """(..., 15) flags: True where a discard is within ``tol`` of its row's best."""
    flat = values.reshape((-1, values.shape[-1]))
    out = np.zeros(flat.shape, np.bool_)
    for i in range(flat.shape[0]):
        best = flat[i, 0]
        for d in range(1, flat.shape[1]):
            best = max(best, flat[i, d])
        for d in range(flat.shape[1]):
            out[i, d] = flat[i, d] >= best - tol
    return out.reshape(values.shape)


@njit
def first_best(values: np.ndarray, tol: float) -> int:
    """Index of the best discard of one row (the first of those tied within ``tol``)."""
    best = values[0]
    for d in range(1, values.shape[0]):
        best = max(best, values[d])
    for d in range(values.shape[0]):
        if values[d] >= best - tol:
            return d
    return 0  # unreachable for finite values


@njit
def heels_expectation(hand6: np.ndarray) -> float:
    """The dealer's expected heels holding ``hand6``: 2 x P(the starter is a jack)."""
    jacks = 0
    for c in hand6:
        jacks += (c >> 2) == JACK_RANK
    return HEELS_POINTS * (4 - jacks) / N_UNSEEN


@njit
def class_heels(cards: np.ndarray) -> np.ndarray:
    """(N,) :func:`heels_expectation` of each row of ``cards`` (N, 6)."""
    out = np.empty(cards.shape[0], np.float64)
    for i in range(cards.shape[0]):
        out[i] = heels_expectation(cards[i])
    return out


@njit
def unseen_counts(hand6: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unseen cards per rank (13,), per suit (4,), and a 52-flag ``seen`` mask."""
    n_rank = np.full(13, 4, np.int64)
    n_suit = np.full(4, 13, np.int64)
    seen = np.zeros(52, np.bool_)
    for c in hand6:
        n_rank[c >> 2] -= 1
        n_suit[c & 3] -= 1
        seen[c] = True
    return n_rank, n_suit, seen


@njit(inline="always")
def unseen_ranks(ranks: np.ndarray) -> np.ndarray:
    """Unseen cards per rank (13,) when we hold cards of these ranks."""
    n_rank = np.full(13, 4, np.int64)
    for r in ranks:
        n_rank[r] -= 1
    return n_rank


@njit
def hand_scores(table: np.ndarray, hand6: np.ndarray) -> np.ndarray:
    """(15, 46) hand points of each keep with each unseen starter (ascending card id)."""
    _, _, seen = unseen_counts(hand6)
    out = np.empty((N_DISCARDS, N_UNSEEN), np.int64)
    for d in range(N_DISCARDS):
        k0, k1, k2, k3 = (
            hand6[KEEPS[d, 0]],
            hand6[KEEPS[d, 1]],
            hand6[KEEPS[d, 2]],
            hand6[KEEPS[d, 3]],
        )
        col = 0
        for s in range(52):
            if not seen[s]:
                out[d, col] = table_score_show(table, k0, k1, k2, k3, s, False)
                col += 1
    return out


@njit
def hand_rank_numerator(
    table: np.ndarray, n_rank: np.ndarray, r0: int, r1: int, r2: int, r3: int
) -> int:
    """Rank points (fifteens, pairs, runs) of four kept ranks summed over the unseen starters."""
    total = 0
    for r in range(13):
        if n_rank[r] > 0:
            total += n_rank[r] * lookup_rank_points(table, r0, r1, r2, r3, r)
    return total


@njit
def hand_suit_numerator(n_suit: np.ndarray, k0: int, k1: int, k2: int, k3: int) -> int:
    """Flush and nobs of four kept cards summed over the 46 unseen starters (closed form)."""
    total = 0
    s = k0 & 3
    if (k1 & 3) == s and (k2 & 3) == s and (k3 & 3) == s:
        total += 4 * N_UNSEEN + n_suit[s]  # 4 with every starter, 1 more with its suit
    for c in (k0, k1, k2, k3):
        if (c >> 2) == JACK_RANK:
            total += n_suit[c & 3]  # nobs with each unseen starter of the jack's suit
    return total


@njit
def hand_mean_closed(
    table: np.ndarray, n_rank: np.ndarray, n_suit: np.ndarray, k0: int, k1: int, k2: int, k3: int
) -> float:
    """Mean hand points over the 46 unseen starters, by starter rank plus closed forms."""
    rank_part = hand_rank_numerator(table, n_rank, k0 >> 2, k1 >> 2, k2 >> 2, k3 >> 2)
    return (rank_part + hand_suit_numerator(n_suit, k0, k1, k2, k3)) / N_UNSEEN


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
def hand_means_closed(table: np.ndarray, hand6: np.ndarray) -> np.ndarray:
    """(15,) mean hand points of each keep over the 46 unseen starters (closed form)."""
    n_rank, n_suit, _ = unseen_counts(hand6)
    out = np.empty(N_DISCARDS, np.float64)
    for d in range(N_DISCARDS):
        out[d] = hand_mean_closed(
            table,
            n_rank,
            n_suit,
            hand6[KEEPS[d, 0]],
            hand6[KEEPS[d, 1]],
            hand6[KEEPS[d, 2]],
            hand6[KEEPS[d, 3]],
        )
    return out


@njit
def best_for_roles(hand: np.ndarray, own_crib: np.ndarray, opp_crib: np.ndarray) -> tuple[int, int]:
    """(as dealer, as pone): the best discard for a dealer (hand + its own crib) and
    for a pone (hand - the dealer's crib), by :func:`first_best`."""
    return first_best(hand + own_crib, TIE_TOLERANCE), first_best(hand - opp_crib, TIE_TOLERANCE)


@njit
def best_discards_random(table: np.ndarray, hand6: np.ndarray) -> tuple[int, int]:
    """Best discard for a dealer and a pone under the random crib model, from the
    holder's own view (46 unseen cards)."""
    crib = crib_random_means(table, hand6)
    return best_for_roles(hand_means_closed(table, hand6), crib, crib)


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
    """(n, 2) discard index each opponent hand throws under the random crib model:
    column OWN_CRIB as pone (we deal), OPP_CRIB as dealer."""
    n = opponents.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        as_dealer, as_pone = best_discards_random(table, opponents[i])
        out[i, OWN_CRIB], out[i, OPP_CRIB] = as_pone, as_dealer
    return out


@njit(parallel=True)
def crib_sampled(
    table: np.ndarray, hand6: np.ndarray, opponents: np.ndarray, throws: np.ndarray
) -> np.ndarray:
    """Crib points per sampled opponent hand, per discard, for both of our roles.

    ``opponents`` is (n, 6): the opponent's six cards in each sample; ``throws`` (n, 2)
    the discard index it throws into our crib (column OWN_CRIB, as pone) and into its
    own (OPP_CRIB, as dealer). The starter is enumerated over the 40 cards left.
    Returns (2, n, 15): row OWN_CRIB is our crib (we deal), OPP_CRIB the opponent's.
    """
    n = opponents.shape[0]
    out = np.empty((2, n, N_DISCARDS), np.float64)
    _, _, own_seen = unseen_counts(hand6)
    for i in prange(n):
        opp = opponents[i]
        seen = own_seen.copy()
        for c in opp:
            seen[c] = True
        for role in (OWN_CRIB, OPP_CRIB):
            t = throws[i, role]
            if role == OPP_CRIB and t == throws[i, OWN_CRIB]:
                out[OPP_CRIB, i, :] = out[OWN_CRIB, i, :]
                continue
            e0, e1 = opp[DISCARDS[t, 0]], opp[DISCARDS[t, 1]]
            for d in range(N_DISCARDS):
                out[role, i, d] = crib_given_throws(
                    table, seen, hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]], e0, e1
                )
    return out
