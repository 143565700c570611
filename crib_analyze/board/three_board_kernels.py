"""numba kernels: the board of a game of three players each for themselves, by dynamic
programming over deals.

A position is the three scores, seen from the dealer: (the dealer's left, the middle
seat, the dealer). A deal is one of ``n`` sampled event sequences, each (seat, points)
in the order scored (:func:`~crib_analyze.board.table_game_kernels.side_events` by seat,
merged by :func:`~crib_analyze.board.dp_kernels.merge_turns`). Walking a deal from a
position, the first seat to reach the target wins there and then; a win is a skunk when
a loser is short of ``line`` at that moment. If nobody reaches it, play moves to the
scores plus the deal's totals, the deal passing to the left: the dealer's left deals
next, so the old middle seat becomes the new left, the old dealer the new middle.

Values from a position: channel s (0-2) the chance seat s wins, 3 + s the chance it wins
with a skunk, 6 the expected deals still to play, 7 + s the chance it takes second place
in the continuation game (:mod:`crib_analyze.board.second_place_kernels`).

Two parts make a position's value, with no walk per position:
- **Deals that end the game** depend only on what each seat needs: seat i, needing
  ``n_i``, is first there at the event where its running total reaches ``n_i``, if the
  others' running totals then are below their needs. So each deal adds its weight to a
  region of the three needs (:func:`finish_tables`: an orthant per event, written as a
  corner and summed out), and a position reads its cell.
- **Deals that do not** (every seat's total below its need) lead to the position after
  the deal; they are summed over the distinct (left, middle, dealer) totals.

Values are filled from the highest sum of scores down: every deal scores (the last card
always does), so the next position is always ready.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.board.second_place_kernels import rivals, running_totals
from crib_analyze.jit import njit

N_SEATS = 3
WIN, SKUNK, DEALS, SECOND = 0, 3, 6, 7  # the first channel of each
N_CHANNELS = 10


@njit
def finish_tables(
    players: np.ndarray,
    points: np.ndarray,
    weights: np.ndarray,
    target: int,
    line: int,
    most: int,
) -> np.ndarray:
    """(3, 2, K + 1, target + 2, target + 2): for seat i needing ``n_i`` (up to K, the
    ``most`` any seat scores in a deal, or the target) and the other two needing ``n_j``,
    ``n_k`` (j < k), the weight of the deals in which i reaches its need first (0), and
    first with a loser then short of ``line`` (1).

    At the event where i's running total first reaches ``n_i``, the others have ``c_j``
    and ``c_k``: i is first if ``n_j > c_j`` and ``n_k > c_k``, and j is then short of
    the line if ``target - n_j + c_j < line``, i.e. ``n_j > c_j + target - line``. Each
    such orthant is added at its corner and the corners summed over both axes."""
    top = min(most, target)
    gap = target - line
    edge = target + 1
    out = np.zeros((N_SEATS, 2, top + 1, target + 2, target + 2))
    cum = np.zeros((players.shape[1] + 1, N_SEATS), np.int64)
    for d in range(players.shape[0]):
        w = weights[d]
        for e in range(running_totals(players, points, d, cum)):
            p = players[d, e]
            j, k = rivals(p)
            x, y = cum[e + 1, j] + 1, cum[e + 1, k] + 1
            if x > edge or y > edge:
                continue
            xs, ys = x + gap, y + gap
            for need in range(cum[e, p] + 1, min(cum[e + 1, p], top) + 1):
                out[p, 0, need, x, y] += w
                if xs <= edge:
                    out[p, 1, need, xs, y] += w
                if ys <= edge:
                    out[p, 1, need, x, ys] += w
                if xs <= edge and ys <= edge:
                    out[p, 1, need, xs, ys] -= w
    for i in range(N_SEATS):
        for b in range(2):
            for m in range(top + 1):
                for x in range(1, target + 2):
                    for y in range(target + 2):
                        out[i, b, m, x, y] += out[i, b, m, x - 1, y]
                for x in range(target + 2):
                    for y in range(1, target + 2):
                        out[i, b, m, x, y] += out[i, b, m, x, y - 1]
    return out


@njit(parallel=True)
def three_fill(
    V: np.ndarray,
    finish: np.ndarray,
    second: np.ndarray,
    onward: np.ndarray,
    lo_second: np.ndarray,
    triples: np.ndarray,
    mass: np.ndarray,
    total_hi: int,
    total_lo: int,
) -> None:
    """Fill ``V`` (target, target, target, 10) on the planes of the scores' sum from
    ``total_hi`` down to ``total_lo`` (those above must be filled), from the
    :func:`finish_tables` of the deals, their second places
    (:func:`~crib_analyze.board.second_place_kernels.second_tables`, ``second``; and
    :func:`~crib_analyze.board.second_place_kernels.onward_tables`, ``onward`` and
    ``lo_second``) and their distinct (left, middle, dealer) totals, sorted by the left's
    total, with the weight of each (``triples``, ``mass``)."""
    target = V.shape[0]
    top = finish.shape[2] - 1
    n = triples.shape[0]
    whole = mass.sum()
    for total in range(total_hi, total_lo - 1, -1):
        lo = max(0, total - 2 * (target - 1))
        hi = min(target - 1, total)
        for left in prange(lo, hi + 1):
            rest = total - left
            acc = np.zeros(N_CHANNELS)
            for middle in range(max(0, rest - (target - 1)), min(target - 1, rest) + 1):
                dealer = rest - middle
                n_l, n_m, n_d = target - left, target - middle, target - dealer
                acc[:] = 0.0
                if n_l <= top:
                    acc[WIN] += finish[0, 0, n_l, n_m, n_d]
                    acc[SKUNK] += finish[0, 1, n_l, n_m, n_d]
                if n_m <= top:
                    acc[WIN + 1] += finish[1, 0, n_m, n_l, n_d]
                    acc[SKUNK + 1] += finish[1, 1, n_m, n_l, n_d]
                if n_d <= top:
                    acc[WIN + 2] += finish[2, 0, n_d, n_l, n_m]
                    acc[SKUNK + 2] += finish[2, 1, n_d, n_l, n_m]
                score = (left, middle, dealer)
                need = (n_l, n_m, n_d)
                for w in range(N_SEATS):  # w wins in this deal: who is second
                    if need[w] > top:
                        continue
                    lo, hi = rivals(w)
                    if need[lo] <= top:  # in the same deal
                        acc[SECOND + lo] += second[w, 0, need[w], need[lo], need[hi]]
                    if need[hi] <= top:
                        acc[SECOND + hi] += second[w, 1, need[w], need[hi], need[lo]]
                    part = lo_second[w, need[w], score[lo], score[hi]]  # in the race after
                    acc[SECOND + lo] += part
                    acc[SECOND + hi] += onward[w, need[w], score[lo], score[hi]] - part
                for q in range(n):  # nobody finishes: the next deal, the left dealing
                    t_l = triples[q, 0]
                    if t_l >= n_l:
                        break
                    t_m, t_d = triples[q, 1], triples[q, 2]
                    if t_m >= n_m or t_d >= n_d:
                        continue
                    h = mass[q]
                    v = V[middle + t_m, dealer + t_d, left + t_l]
                    # there the old middle sits left (0), the old dealer middle (1), the
                    # old left deals (2)
                    acc[WIN] += h * v[WIN + 2]
                    acc[WIN + 1] += h * v[WIN]
                    acc[WIN + 2] += h * v[WIN + 1]
                    acc[SKUNK] += h * v[SKUNK + 2]
                    acc[SKUNK + 1] += h * v[SKUNK]
                    acc[SKUNK + 2] += h * v[SKUNK + 1]
                    acc[SECOND] += h * v[SECOND + 2]
                    acc[SECOND + 1] += h * v[SECOND]
                    acc[SECOND + 2] += h * v[SECOND + 1]
                    acc[DEALS] += h * v[DEALS]
                acc[DEALS] += whole  # this deal, whoever finishes
                for ch in range(N_CHANNELS):
                    V[left, middle, dealer, ch] = acc[ch] / whole
