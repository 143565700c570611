"""numba kernels for the discard engines: hand over starters, crib per opponent model.

Conventions shared by every kernel here:

* ``hand6`` is six distinct card ids; its 15 discards are the position pairs
  ``DISCARDS`` (lexicographic ``(i, j)``, ``i < j``) and ``KEEPS`` the other four.
* ``table`` is the rank-points table of :func:`crib_analyze.score_kernels.build_rank_table`.
* The *random* crib: the opponent's two cards are a uniform pair of the 46 unseen
  cards and the starter is uniform over the other 44, so every one of the
  ``1035 * 44 = 45,540`` completions is equally likely. The rank part is summed
  over (opponent rank pair, starter rank) weighted by the unseen rank counts;
  flush and nobs have closed forms. All sums are integers over ``45,540``.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from crib_analyze.score_kernels import JACK_RANK, lookup_rank_points, table_score_show

DISCARDS = np.array([(i, j) for i in range(6) for j in range(i + 1, 6)], dtype=np.int64)
KEEPS = np.array([[p for p in range(6) if p not in pair] for pair in DISCARDS], dtype=np.int64)
N_DISCARDS = 15
N_UNSEEN = 46  # 52 - 6
RANDOM_COMPLETIONS = 1035 * 44  # opponent pairs x starters


@njit(cache=True)
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


@njit(cache=True, inline="always")
def unseen_ranks(ranks: np.ndarray) -> np.ndarray:
    """Unseen cards per rank (13,) when we hold cards of these ranks."""
    n_rank = np.full(13, 4, np.int64)
    for r in ranks:
        n_rank[r] -= 1
    return n_rank


@njit(cache=True)
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


@njit(cache=True)
def hand_rank_numerator(
    table: np.ndarray, n_rank: np.ndarray, r0: int, r1: int, r2: int, r3: int
) -> int:
    """Rank points (fifteens, pairs, runs) of four kept ranks summed over the unseen starters."""
    total = 0
    for r in range(13):
        if n_rank[r] > 0:
            total += n_rank[r] * lookup_rank_points(table, r0, r1, r2, r3, r)
    return total


@njit(cache=True)
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


@njit(cache=True)
def hand_mean_closed(
    table: np.ndarray, n_rank: np.ndarray, n_suit: np.ndarray, k0: int, k1: int, k2: int, k3: int
) -> float:
    """Mean hand points over the 46 unseen starters, by starter rank plus closed forms."""
    rank_part = hand_rank_numerator(table, n_rank, k0 >> 2, k1 >> 2, k2 >> 2, k3 >> 2)
    return (rank_part + hand_suit_numerator(n_suit, k0, k1, k2, k3)) / N_UNSEEN


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def crib_random_numerator(
    table: np.ndarray, n_rank: np.ndarray, n_suit: np.ndarray, seen: np.ndarray, d0: int, d1: int
) -> int:
    """Total crib points of thrown ``d0, d1`` over all 45,540 random completions."""
    return crib_rank_numerator(table, n_rank, d0 >> 2, d1 >> 2) + crib_suit_numerator(
        n_suit, seen, d0, d1
    )


@njit(cache=True)
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


@njit(cache=True)
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


@njit(cache=True)
def best_for_roles(
    hand: np.ndarray, dealer_crib: np.ndarray, pone_crib: np.ndarray
) -> tuple[int, int]:
    """Best discard for a dealer (hand + crib) and a pone (hand - crib); ties go to
    the first discard in :data:`DISCARDS` order."""
    best_dealer, best_pone = 0, 0
    top_dealer, top_pone = -1e9, -1e9
    for d in range(N_DISCARDS):
        if hand[d] + dealer_crib[d] > top_dealer + 1e-12:
            top_dealer, best_dealer = hand[d] + dealer_crib[d], d
        if hand[d] - pone_crib[d] > top_pone + 1e-12:
            top_pone, best_pone = hand[d] - pone_crib[d], d
    return best_dealer, best_pone


@njit(cache=True)
def best_discards_random(table: np.ndarray, hand6: np.ndarray) -> tuple[int, int]:
    """Best discard for a dealer and a pone under the random crib model, from the
    holder's own view (46 unseen cards)."""
    crib = crib_random_means(table, hand6)
    return best_for_roles(hand_means_closed(table, hand6), crib, crib)


@njit(cache=True)
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


@njit(cache=True, parallel=True)
def random_policy_throws(table: np.ndarray, opponents: np.ndarray) -> np.ndarray:
    """(n, 2) discard index each opponent hand throws: [as pone, as dealer], random model."""
    n = opponents.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        best_as_dealer, best_as_pone = best_discards_random(table, opponents[i])
        out[i, 0], out[i, 1] = best_as_pone, best_as_dealer
    return out


@njit(cache=True, parallel=True)
def crib_sampled(
    table: np.ndarray, hand6: np.ndarray, opponents: np.ndarray, throws: np.ndarray
) -> np.ndarray:
    """Crib points per sampled opponent hand, per discard, for both of our roles.

    ``opponents`` is (n, 6): the opponent's six cards in each sample; ``throws`` (n, 2)
    the discard index it throws as pone (when we deal) and as dealer. The starter is
    enumerated over the 40 cards left. Returns (2, n, 15): index 0 is the crib when
    we deal, 1 when the opponent deals.
    """
    n = opponents.shape[0]
    out = np.empty((2, n, N_DISCARDS), np.float64)
    _, _, own_seen = unseen_counts(hand6)
    for i in prange(n):
        opp = opponents[i]
        seen = own_seen.copy()
        for c in opp:
            seen[c] = True
        for role in range(2):
            t = throws[i, role]
            if role == 1 and t == throws[i, 0]:
                out[1, i, :] = out[0, i, :]
                continue
            e0, e1 = opp[DISCARDS[t, 0]], opp[DISCARDS[t, 1]]
            for d in range(N_DISCARDS):
                out[role, i, d] = crib_given_throws(
                    table, seen, hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]], e0, e1
                )
    return out
