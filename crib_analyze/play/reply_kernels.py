"""numba kernel for the opponent's expected best reply: what the lookahead policy
subtracts from a card's points, and what the reading of the opponent's lays uses.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import MAX_COUNT
from crib_analyze.jit import njit
from crib_analyze.play.rules_kernels import rank_value, reply_points


@njit
def expected_best_reply(
    seq: np.ndarray,
    n: int,
    count: int,
    left: np.ndarray,
    rank_weight: np.ndarray,
    k: int,
    pts: np.ndarray,
    none: np.ndarray,
    scratch: np.ndarray,
) -> float:
    """E[the opponent's best reply points] when it holds ``k`` cards among ``left``
    (unseen cards per rank), each card of rank r held with probability
    min(1, k w_r / sum_r' left_r' w_r'), independently. ``pts`` (13, int) and ``none``
    (13, float) receive each rank's reply and the chance of holding none of it;
    ``scratch`` (13, int) is scratch space."""
    reply_points(seq, n, count, pts, scratch)
    return expected_max_reply(pts, left, rank_weight, k, none)


@njit
def expected_max_reply(
    pts: np.ndarray, left: np.ndarray, rank_weight: np.ndarray, k: int, none: np.ndarray
) -> float:
    """:func:`expected_best_reply` from the reply points of each rank ``pts`` (13,),
    computed once for a position and reused for many ``left``. ``none`` (13, float) is
    scratch: the chance of holding no card of each rank."""
    if k <= 0:
        return 0.0
    total = 0.0
    for r in range(13):
        total += left[r] * rank_weight[r]
    if total <= 0.0:
        return 0.0
    top = 0
    for r in range(13):
        none[r] = 1.0  # P(the opponent holds no card of rank r)
        if left[r] > 0 and pts[r] > 0:
            p = min(1.0, k * rank_weight[r] / total)
            none[r] = (1.0 - p) ** left[r]
            top = max(top, pts[r])
    # E[max] = sum over levels v >= 1 of P(max >= v)
    expected = 0.0
    for level in range(1, top + 1):
        miss = 1.0
        for r in range(13):
            if pts[r] >= level and left[r] > 0:
                miss *= none[r]
        if miss == 1.0:
            break
        expected += 1.0 - miss
    return expected


@njit
def expected_least_reply(
    seq: np.ndarray,
    n: int,
    count: int,
    left: np.ndarray,
    rank_weight: np.ndarray,
    k: int,
    pts: np.ndarray,
    none: np.ndarray,
    scratch: np.ndarray,
) -> float:
    """E[the opponent's least reply points] (lowball: a player who must lay lays what
    scores least), with the holding model of :func:`expected_best_reply`. A player with
    no card that fits says go and scores nothing here."""
    reply_points(seq, n, count, pts, scratch)
    if k <= 0:
        return 0.0
    total = 0.0
    for r in range(13):
        total += left[r] * rank_weight[r]
    if total <= 0.0:
        return 0.0
    top = 0
    holds_none = 1.0  # P(no card that fits)
    for r in range(13):
        none[r] = 1.0
        fits = count + rank_value(r) <= MAX_COUNT
        if left[r] > 0 and fits:
            p = min(1.0, k * rank_weight[r] / total)
            none[r] = (1.0 - p) ** left[r]
            holds_none *= none[r]
            top = max(top, pts[r])
    # P(least >= v) = P(no fitting card scoring under v) - P(no fitting card at all)
    expected = 0.0
    for level in range(1, top + 1):
        under = 1.0
        for r in range(13):
            if pts[r] < level and left[r] > 0 and count + rank_value(r) <= MAX_COUNT:
                under *= none[r]
        expected += under - holds_none
    return expected
