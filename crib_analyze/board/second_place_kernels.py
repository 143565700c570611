"""numba kernels: second place on the board of three players (the continuation game).

When a seat first reaches the target it has won; in the continuation game the other two
play on, the deal passing as before (the winner still dealt and laying), and the first of
them to reach the target takes second place. The deal in which the game is won goes on
to its end: a second may come in the same deal.

Deals are as for :mod:`crib_analyze.board.three_board_kernels` (events by seat from the
dealer's left, in the order scored; each deal a weight). Seat ``w`` is the winner; its
two rivals are ``lo < hi``, the other two seats. After a deal, seat ``s`` sits at
``(s + 2) % 3``: the old middle is the new left, the old dealer the new middle.

Three parts, each summed once over the deals, no walk per position:

- **The race** (:func:`race_tables`, :func:`race_fill`): with ``w`` won, ``race[w, x, y]``
  the chance that ``lo`` (on ``x``) reaches the target before ``hi`` (on ``y``), the
  dealer about to deal. A deal in which neither rival scores keeps both scores and
  passes the deal, so three positions (the winner in each seat) form a cycle, solved
  in closed form.
- **A second in the winning deal** (:func:`second_tables`): seat ``W`` first reaches its
  need at one event, seat ``s`` its own at a later one, the third seat still short of
  its need then: a box of the three needs per pair of events, written at its corners and
  summed out.
- **The winning deal leaves both rivals short** (:func:`onward_tables`): ``W`` reaches
  its need within the deal and neither rival does, so the race goes on from the rivals'
  scores after the deal, read from ``race``; summed over the deals' distinct totals.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.jit import njit

N_SEATS = 3


@njit
def rivals(w: int) -> tuple[int, int]:
    """The two seats other than ``w``, the lower first."""
    lo = 1 if w == 0 else 0
    hi = 1 if w == 2 else 2
    return lo, hi


@njit
def running_totals(players: np.ndarray, points: np.ndarray, d: int, cum: np.ndarray) -> int:
    """Deal ``d``'s running totals by seat: ``cum[e + 1]`` after its event ``e``
    (``cum[0]`` zeros); returns its events."""
    cum[0, :] = 0
    n = 0
    for e in range(players.shape[1]):
        p = players[d, e]
        if p < 0:
            break
        cum[e + 1, :] = cum[e, :]
        cum[e + 1, p] += points[d, e]
        n += 1
    return n


@njit
def race_tables(
    players: np.ndarray, points: np.ndarray, weights: np.ndarray, target: int, most: int
) -> np.ndarray:
    """(3, 2, K + 1, target + 2): with seat ``w`` won (its events passed over), for the
    rival ``lo`` (0) or ``hi`` (1) needing ``n`` (up to K, the ``most`` any seat scores in
    a deal, or the target) and the other needing ``m``, the weight of the deals in which
    that rival reaches its need first. At the event where it does, the other has ``c``:
    it is first if ``m > c``, an orthant written at its corner and summed out."""
    top = min(most, target)
    edge = target + 1
    out = np.zeros((N_SEATS, 2, top + 1, target + 2))
    cum = np.zeros((players.shape[1] + 1, N_SEATS), np.int64)
    for d in range(players.shape[0]):
        w8 = weights[d]
        for e in range(running_totals(players, points, d, cum)):
            p = players[d, e]
            for w in range(N_SEATS):
                if w == p:
                    continue
                lo, hi = rivals(w)
                which = 0 if p == lo else 1
                other = hi if p == lo else lo
                x = cum[e + 1, other] + 1
                if x > edge:
                    continue
                for need in range(cum[e, p] + 1, min(cum[e + 1, p], top) + 1):
                    out[w, which, need, x] += w8
    for w in range(N_SEATS):
        for which in range(2):
            for n in range(top + 1):
                for x in range(1, target + 2):
                    out[w, which, n, x] += out[w, which, n, x - 1]
    return out


@njit
def race_fill(
    race: np.ndarray, first: np.ndarray, pairs: np.ndarray, mass: np.ndarray, whole: float
) -> None:
    """Fill ``race`` (3, target, target): ``race[w, x, y]`` the chance that, seat ``w``
    having won, its rival ``lo`` on ``x`` reaches the target before ``hi`` on ``y``,
    the dealer about to deal. ``first`` is :func:`race_tables`; ``pairs[w]`` (k, 2) the
    rivals' distinct (lo, hi) totals of the deals when ``w`` has won, ``mass[w]`` (k,)
    their weights (rows past the last of weight 0), ``whole`` the weight of all deals.

    Filled from the highest sum of the rivals' scores down. Deals in which neither rival
    scores pass the deal and keep the scores: ``race[0, x, y]`` leads to ``race[2, x,
    y]``, that (the rivals swapped in seat order) to ``race[1, y, x]``, and that back to
    ``race[0, x, y]``; the three are solved together."""
    target = race.shape[1]
    top = first.shape[2] - 1
    rest = np.zeros((N_SEATS, target, target))  # each cell but its scoreless deals
    stay = np.zeros(N_SEATS)  # the chance that neither rival scores
    for w in range(N_SEATS):
        for q in range(pairs.shape[1]):
            if pairs[w, q, 0] == 0 and pairs[w, q, 1] == 0:
                stay[w] += mass[w, q] / whole
    for total in range(2 * (target - 1), -1, -1):
        lo_x = max(0, total - (target - 1))
        hi_x = min(target - 1, total)
        for w in range(N_SEATS):
            swapped = w != 0  # after the deal the rivals' seats are in the other order
            nxt = (w + 2) % N_SEATS
            for x in range(lo_x, hi_x + 1):
                y = total - x
                n_x, n_y = target - x, target - y
                acc = 0.0
                if n_x <= top:
                    acc += first[w, 0, n_x, n_y]
                for q in range(pairs.shape[1]):
                    t_x, t_y = pairs[w, q, 0], pairs[w, q, 1]
                    h = mass[w, q]
                    if h == 0.0 or t_x >= n_x or t_y >= n_y or (t_x == 0 and t_y == 0):
                        continue
                    if swapped:
                        acc += h * (1.0 - race[nxt, y + t_y, x + t_x])
                    else:
                        acc += h * race[nxt, x + t_x, y + t_y]
                rest[w, x, y] = acc / whole
        for x in range(lo_x, hi_x + 1):  # the cycles of scoreless deals
            y = total - x
            p0, p1, p2 = stay[0], stay[1], stay[2]
            r0, r1, r2 = rest[0, x, y], rest[1, y, x], rest[2, x, y]
            u = (r0 + p0 * (r2 + p2) - p0 * p2 * (r1 + p1)) / (1.0 - p0 * p1 * p2)
            z = r1 + p1 * (1.0 - u)  # race[1, y, x]
            race[0, x, y] = u
            race[2, x, y] = r2 + p2 * (1.0 - z)
            race[1, y, x] = z


@njit
def second_tables(
    players: np.ndarray, points: np.ndarray, weights: np.ndarray, target: int, most: int
) -> np.ndarray:
    """(3, 2, K + 2, K + 2, target + 2): for the winner ``W`` needing ``n`` (up to K, as
    :func:`race_tables`), its rival ``lo`` (0) or ``hi`` (1) needing ``m`` (up to K) and
    the third seat needing ``k``, the weight of the deals in which ``W`` reaches its need
    first and that rival reaches its own later in the deal, before the third seat.

    For an event of ``W`` (its total from ``b`` to ``c``) and a later one of ``s`` (from
    ``b2`` to ``c2``), the third seat then on ``c3``: ``b < n <= c``, ``b2 < m <= c2`` and
    ``k > c3`` (so nobody else was there first), a box added at its corners."""
    top = min(most, target)
    edge = target + 1
    out = np.zeros((N_SEATS, 2, top + 2, top + 2, target + 2))
    cum = np.zeros((players.shape[1] + 1, N_SEATS), np.int64)
    for d in range(players.shape[0]):
        w8 = weights[d]
        e_count = running_totals(players, points, d, cum)
        for e1 in range(e_count):
            win = players[d, e1]
            b = cum[e1, win]
            if b >= top:
                continue
            c = min(cum[e1 + 1, win], top)
            lo, hi = rivals(win)
            for e2 in range(e1 + 1, e_count):
                s = players[d, e2]
                if s == win:
                    continue
                b2 = cum[e2, s]
                if b2 >= top:
                    continue
                c2 = min(cum[e2 + 1, s], top)
                third = hi if s == lo else lo
                k = cum[e2 + 1, third] + 1
                if k > edge:
                    continue
                which = 0 if s == lo else 1
                out[win, which, b + 1, b2 + 1, k] += w8
                out[win, which, c + 1, b2 + 1, k] -= w8
                out[win, which, b + 1, c2 + 1, k] -= w8
                out[win, which, c + 1, c2 + 1, k] += w8
    for w in range(N_SEATS):
        for which in range(2):
            for i in range(top + 2):
                for j in range(top + 2):
                    for k in range(target + 2):
                        v = out[w, which, i, j, k]
                        if i > 0:
                            v += out[w, which, i - 1, j, k]
                        if j > 0:
                            v += out[w, which, i, j - 1, k]
                        if k > 0:
                            v += out[w, which, i, j, k - 1]
                        if i > 0 and j > 0:
                            v -= out[w, which, i - 1, j - 1, k]
                        if i > 0 and k > 0:
                            v -= out[w, which, i - 1, j, k - 1]
                        if j > 0 and k > 0:
                            v -= out[w, which, i, j - 1, k - 1]
                        if i > 0 and j > 0 and k > 0:
                            v += out[w, which, i - 1, j - 1, k - 1]
                        out[w, which, i, j, k] = v
    return out


@njit(parallel=True)
def onward_tables(
    race: np.ndarray, triples: np.ndarray, mass: np.ndarray, top: int
) -> tuple[np.ndarray, np.ndarray]:
    """(3, K + 1, target, target) twice: for the winner ``W`` needing ``n`` (up to K)
    and its rivals ``lo`` on ``x`` and ``hi`` on ``y``, over the deals in which ``W``'s
    total reaches ``n`` and neither rival's reaches its need (``triples`` the deals'
    distinct totals by seat, ``mass`` their weights): the weight of those deals, and the
    weight times the chance that ``lo`` then takes second place, from the race
    (:func:`race_fill`) at the rivals' scores after the deal, the deal passed.

    Each deal is added at its winner's total and summed down to the needs it reaches."""
    target = race.shape[1]
    weight = np.zeros((N_SEATS, top + 2, target, target))
    lo_second = np.zeros((N_SEATS, top + 2, target, target))
    for w in range(N_SEATS):
        lo, hi = rivals(w)
        nxt = (w + 2) % N_SEATS
        swapped = w != 0
        for x in prange(target):
            for y in range(target):
                for q in range(triples.shape[0]):
                    t_w, t_x, t_y = triples[q, w], triples[q, lo], triples[q, hi]
                    if t_w < 1 or x + t_x >= target or y + t_y >= target:
                        continue
                    h = mass[q]
                    if swapped:
                        p = 1.0 - race[nxt, y + t_y, x + t_x]
                    else:
                        p = race[nxt, x + t_x, y + t_y]
                    at = min(t_w, top)
                    weight[w, at, x, y] += h
                    lo_second[w, at, x, y] += h * p
        for n in range(top - 1, 0, -1):  # a total reaches every need up to it
            for x in range(target):
                for y in range(target):
                    weight[w, n, x, y] += weight[w, n + 1, x, y]
                    lo_second[w, n, x, y] += lo_second[w, n + 1, x, y]
    return weight[:, : top + 1], lo_second[:, : top + 1]
