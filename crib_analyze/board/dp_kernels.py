"""numba kernels: the chance of each game outcome from every position, by dynamic
programming over deals.

A position is (my score, the opponent's, whether I deal). A deal is one of ``n``
sampled event sequences (:mod:`crib_analyze.board.event_kernels`), each equally likely.
Walking a sequence from the position, the first player to reach the target wins there
and then, the loser's score at that moment deciding a skunk; if nobody does, play moves
to (my score + my points, theirs + theirs) with the deal passing to the other player.
Values are computed from the highest score sums down (every deal scores at least the
last card's point), so the next position's value is always ready: the result is exact
for the sampled deals.

Outcomes, from my side: 0 win, 1 win with a skunk (the loser under ``lines[0]``), 2 a
double skunk (under ``lines[1]``), 3 a triple (under ``lines[2]``); 4-7 the same losses.
Deals are given merged (:func:`merge_turns`) and as distinct sequences with weights,
which makes the walks several times fewer.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.jit import njit

N_OUTCOMES = 8
N_CHANNELS = 9  # the outcomes, then the expected deals to the end


@njit(inline="always")
def band(loser: int, lines: np.ndarray) -> int:
    """0 for no skunk, 1 skunk, 2 double, 3 triple, by the loser's score."""
    if loser >= lines[0]:
        return 0
    if loser >= lines[1]:
        return 1
    if loser >= lines[2]:
        return 2
    return 3


@njit(inline="always")
def walk_to(
    players: np.ndarray, points: np.ndarray, me: int, a: int, b: int, target: int, lines: np.ndarray
) -> tuple[int, int, int]:
    """Walk one deal's events from my ``a`` and the opponent's ``b``, me in seat ``me``:
    (the outcome 0-7, or -1 if nobody reaches the target; my score, theirs at the end)."""
    for e in range(players.shape[0]):
        p = players[e]
        if p < 0:
            break
        if p == me:
            a += points[e]
            if a >= target:
                return band(b, lines), a, b
        else:
            b += points[e]
            if b >= target:
                return 4 + band(a, lines), a, b
    return -1, a, b


@njit(inline="always")
def walk(
    players: np.ndarray, points: np.ndarray, me: int, a: int, b: int, target: int, lines: np.ndarray
) -> int:
    """The outcome (0-7) of one deal's events from (a, b); -1 if nobody finishes."""
    return walk_to(players, points, me, a, b, target, lines)[0]


@njit
def merge_turns(
    players: np.ndarray, points: np.ndarray, losses_apart: bool = False
) -> tuple[np.ndarray, np.ndarray]:
    """The same deals with each run of events by one player merged into one event: who
    reaches the target first, and the loser's score then, do not change. With
    ``losses_apart`` (points may be taken away, a score kept at 0 or more) only runs of
    gains merge, and each loss stays an event of its own: the scores at the end do not
    change either."""
    n, m = players.shape
    out_players = np.full((n, m), -1, np.int8)
    out_points = np.zeros((n, m), np.int8)
    for i in range(n):
        e = -1
        for k in range(m):
            p = players[i, k]
            if p < 0:
                break
            if (
                e >= 0
                and out_players[i, e] == p
                and (not losses_apart or (points[i, k] >= 0 and out_points[i, e] >= 0))
            ):
                out_points[i, e] += points[i, k]
            else:
                e += 1
                out_players[i, e], out_points[i, e] = p, points[i, k]
    return out_players, out_points


@njit
def deal_totals(players: np.ndarray, points: np.ndarray, seats: int = 2) -> np.ndarray:
    """(n, seats) each deal's points by the player its events name: the pone (0) and
    the dealer (1); with three players, the seats from the dealer's left."""
    n = players.shape[0]
    out = np.zeros((n, seats), np.int64)
    for i in range(n):
        for e in range(players.shape[1]):
            if players[i, e] >= 0:
                out[i, players[i, e]] += points[i, e]
    return out


@njit
def board_values(
    players: np.ndarray,
    points: np.ndarray,
    weights: np.ndarray,
    target: int,
    lines: np.ndarray,
) -> np.ndarray:
    """(target, target, 2, 9): from (my score, theirs, I deal 0/1), the probability of
    each outcome of the game (0-7) and the expected number of deals still to play (8),
    when deal i happens with probability ``weights[i] / weights.sum()``. Every deal must
    score at least a point (the last card always does). In one call: a long job calls
    :func:`board_prepare` and then :func:`board_fill` a few anti-diagonals at a time.
    """
    deals = board_prepare(players, points, weights)
    V = np.zeros((target, target, 2, N_CHANNELS))
    board_fill(V, target, lines, deals, 2 * target - 2, 0)
    return V


@njit
def board_prepare(players: np.ndarray, points: np.ndarray, weights: np.ndarray) -> tuple[
    int, float, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:  # fmt: skip
    """The deals as :func:`board_fill` walks them: (top total + 1, the weights' sum, per
    seat of mine the deals in descending order of my total and, where only the opponent
    can finish, of theirs (players, points, weights, my totals, theirs; copied in that
    order so the walks read memory in sequence), and the (my total, theirs) histogram."""
    n = players.shape[0]
    totals = deal_totals(players, points)
    top = int(totals.max()) + 1
    mass = weights.sum()
    sorted_players = np.empty((2, 2, n, players.shape[1]), np.int8)
    sorted_points = np.empty((2, 2, n, players.shape[1]), np.int8)
    sorted_weights = np.empty((2, 2, n))
    sorted_mine = np.empty((2, 2, n), np.int64)
    sorted_theirs = np.empty((2, 2, n), np.int64)
    hist = np.zeros((2, top, top))
    for me in range(2):
        mine, theirs = totals[:, me], totals[:, 1 - me]
        for by in range(2):
            order = np.argsort(-mine if by == 0 else -theirs, kind="mergesort")
            for k in range(n):
                i = order[k]
                sorted_players[me, by, k] = players[i]
                sorted_points[me, by, k] = points[i]
                sorted_weights[me, by, k] = weights[i]
                sorted_mine[me, by, k] = mine[i]
                sorted_theirs[me, by, k] = theirs[i]
        for i in range(n):
            hist[me, mine[i], theirs[i]] += weights[i]
    return (top, mass, sorted_players, sorted_points, sorted_weights, sorted_mine,
            sorted_theirs, hist)  # fmt: skip


@njit
def board_fill(
    V: np.ndarray,
    target: int,
    lines: np.ndarray,
    deals: tuple[int, float, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                 np.ndarray],
    total_hi: int,
    total_lo: int,
) -> None:  # fmt: skip
    """Fill ``V`` (see :func:`board_values`) on the anti-diagonals of the scores' sum from
    ``total_hi`` down to ``total_lo`` (those above must be filled: a deal only adds
    points). Serial: the positions of one anti-diagonal are too little work to share
    between threads (measured slower in parallel on 2 cores, and three times slower to
    compile)."""
    top, mass, sorted_players, sorted_points, sorted_weights, sorted_mine = deals[:6]
    sorted_theirs, hist = deals[6], deals[7]
    n = sorted_players.shape[2]
    for total in range(total_hi, total_lo - 1, -1):
        lo = max(0, total - (target - 1))
        hi = min(target - 1, total)
        for a in range(lo, hi + 1):
            b = total - a
            for me in range(2):
                acc = np.zeros(N_CHANNELS)
                need_me, need_them = target - a, target - b
                for k in range(n):  # deals where I can reach the target
                    if sorted_mine[me, 0, k] < need_me:
                        break
                    pl, pt = sorted_players[me, 0, k], sorted_points[me, 0, k]
                    acc[walk(pl, pt, me, a, b, target, lines)] += sorted_weights[me, 0, k]
                for k in range(n):  # deals where only they can
                    if sorted_theirs[me, 1, k] < need_them:
                        break
                    if sorted_mine[me, 1, k] < need_me:
                        pl, pt = sorted_players[me, 1, k], sorted_points[me, 1, k]
                        acc[walk(pl, pt, me, a, b, target, lines)] += sorted_weights[me, 1, k]
                for m in range(min(top, need_me)):  # nobody finishes: the next position
                    for o in range(min(top, need_them)):
                        h = hist[me, m, o]
                        if h > 0.0:
                            for c in range(N_CHANNELS):
                                acc[c] += h * V[a + m, b + o, 1 - me, c]
                acc[8] += mass  # this deal, whoever finishes
                for c in range(N_CHANNELS):
                    V[a, b, me, c] = acc[c] / mass
