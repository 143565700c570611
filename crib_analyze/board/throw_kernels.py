"""numba kernels: how the game ends after each throw of a known hand, from a position.

Sample j draws the opponent's six cards from the 46 unseen (thrown by its seat's expert
policy) and the starter from the 40 left, and shares them, and the random stream of the
play, across all 15 throws (common random numbers). Each throw's deal is played out as
its scoring events (:mod:`crib_analyze.board.event_kernels`) and walked from the
position: if a player reaches the target during the deal, that is the outcome; if not,
the board table gives the outcome probabilities from the position after the deal.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.board.dp_kernels import band
from crib_analyze.board.event_kernels import MAX_EVENTS, events_of
from crib_analyze.discard_kernels import DISCARDS, KEEPS, N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.play.deal_kernels import draw_discard, multiset_of, shuffle_into
from crib_analyze.play.policy_kernels import new_workspace, rng_for

PLAY_STREAMS = 1 << 40  # sample j plays from stream PLAY_STREAMS + j


@njit
def finish(
    players: np.ndarray,
    points: np.ndarray,
    me: int,
    a: int,
    b: int,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
    out: np.ndarray,
) -> None:
    """Add to ``out`` (8,) the outcome of one deal's events from (a, b), me in seat
    ``me``: one outcome if someone reaches the target, else the table's row for the
    next position (the deal passes to the other player)."""
    for e in range(players.shape[0]):
        p = players[e]
        if p < 0:
            break
        if p == me:
            a += points[e]
            if a >= target:
                out[band(b, lines)] += 1.0
                return
        else:
            b += points[e]
            if b >= target:
                out[4 + band(a, lines)] += 1.0
                return
    for k in range(8):
        out[k] += values[a, b, 1 - me, k]


@njit(parallel=True)
def position_outcomes(
    hand6: np.ndarray,
    seat: int,
    a: int,
    b: int,
    n: int,
    seed: int,
    keys: np.ndarray,
    pone_pi: np.ndarray,
    dealer_pi: np.ndarray,
    policies: np.ndarray,
    rank_weights: np.ndarray,
    samples: int,
    table: np.ndarray,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
) -> np.ndarray:
    """(n, 15, 8): for sample j and throw d (``DISCARDS`` order) of ``hand6``, the
    outcome probabilities of the game for the holder in ``seat`` (0 pone, 1 dealer)
    on ``a`` against the opponent's ``b``."""
    out = np.zeros((n, N_DISCARDS, 8))
    mine = np.zeros(52, np.bool_)
    for card in hand6:
        mine[card] = True
    other = 1 - seat
    for j in prange(n):
        rng = rng_for(seed, j)
        deck = shuffle_into(np.empty(52, np.int64), rng)
        rest = np.empty(46, np.int64)
        m = 0
        for card in deck:
            if not mine[card]:
                rest[m] = card
                m += 1
        six = np.sort(rest[0:6])
        pi = pone_pi if other == 0 else dealer_pi
        t = draw_discard(pi[multiset_of(six, keys)], rng)
        deal = np.empty(13, np.int64)
        for i in range(4):
            deal[4 * other + i] = six[KEEPS[t, i]]
        deal[9 + 2 * other] = six[DISCARDS[t, 0]]
        deal[10 + 2 * other] = six[DISCARDS[t, 1]]
        deal[8] = rest[6]
        players = np.empty(MAX_EVENTS, np.int8)
        points = np.empty(MAX_EVENTS, np.int8)
        sources = np.empty(MAX_EVENTS, np.int8)
        record = np.zeros((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        for d in range(N_DISCARDS):
            for i in range(4):
                deal[4 * seat + i] = hand6[KEEPS[d, i]]
            deal[9 + 2 * seat] = hand6[DISCARDS[d, 0]]
            deal[10 + 2 * seat] = hand6[DISCARDS[d, 1]]
            play_rng = rng_for(seed, PLAY_STREAMS + j)  # the same for every throw
            events_of(
                deal, table, policies, rank_weights, samples, play_rng, players, points,
                sources, record, work, fwork, seen,
            )  # fmt: skip
            finish(players, points, seat, a, b, values, target, lines, out[j, d])
    return out
