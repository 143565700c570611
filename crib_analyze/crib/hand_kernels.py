"""numba kernels for a six-card hand: its throws, the kept hand over the starters, the
tie rule and heels. Every engine that ranks throws shares them.

Conventions shared by every kernel of :mod:`crib_analyze.crib`:

* ``hand6`` is six distinct card ids; its 15 discards are the position pairs
  ``DISCARDS`` (lexicographic ``(i, j)``, ``i < j``) and ``KEEPS`` the other four.
* ``table`` is the rank-points table of
  :func:`crib_analyze.scoring.show_kernels.build_rank_table`.
* Seat axes follow :class:`crib_analyze.position.Seat` (pone 0, dealer 1). A crib
  array indexed by seat is the crib *as seen by the player holding these cards* in
  that seat: ``[DEALER_SEAT]`` its own crib (the opponent throws as pone), ``[PONE_SEAT]``
  the opponent's crib (the opponent throws as dealer).
* **Best discard** (one rule everywhere): a discard is best when its value is within
  ``TIE_TOLERANCE`` points of the hand's largest; every such discard is flagged
  (:func:`best_flags`), and where one must be named it is the first of them in
  ``DISCARDS`` order (:func:`first_best`).
* **Heels**: a jack starter gives the dealer 2 points at the cut, so a dealer holding
  these six cards expects ``2 * unseen jacks / 46`` (:func:`heels_expectation`).
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import (
    DEALER_SEAT,
    DISCARD_POSITIONS,
    HEELS_POINTS,
    JACK_RANK,
    KEEP_POSITIONS,
    PONE_SEAT,
)
from crib_analyze.constants import N_DISCARDS as N_DISCARDS  # the kernels' names, re-exported
from crib_analyze.constants import N_UNSEEN as N_UNSEEN
from crib_analyze.constants import TIE_TOLERANCE as TIE_TOLERANCE
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import lookup_rank_points, table_score_show

DISCARDS = np.array(DISCARD_POSITIONS, dtype=np.int64)
KEEPS = np.array(KEEP_POSITIONS, dtype=np.int64)


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
def best_for_seats(hand: np.ndarray, own_crib: np.ndarray, opp_crib: np.ndarray) -> np.ndarray:
    """(2,) by seat: the best discard for a pone (hand - the dealer's crib) and for a
    dealer (hand + its own crib), by :func:`first_best`."""
    out = np.empty(2, np.int64)
    out[PONE_SEAT] = first_best(hand - opp_crib, TIE_TOLERANCE)
    out[DEALER_SEAT] = first_best(hand + own_crib, TIE_TOLERANCE)
    return out
