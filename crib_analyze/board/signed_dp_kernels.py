"""numba kernels: the board of two sides when a deal can take points away (the back-ten
penalty: a hand or crib of nothing costs its owner 10, a score never below 0).

Positions and outcomes are those of :mod:`crib_analyze.board.dp_kernels`. A deal's
events are walked in order with each score kept at 0 or more; the first side to reach
the target wins there. With points taken away a deal can leave the scores' sum lower
than it found it, so the positions are no longer solved once each from the highest sum
down: every position is swept in that order again and again, each sweep reading the
values the last one left where a deal leads down, until no value moves by more than
:data:`TOLERANCE` (a deal that lowers the sum is rare, and each sweep shrinks the error
by its chance, so a few sweeps do).

**A side's points in one deal** are summed up, for the deals in which nobody can reach
the target, as (T, S): a side on ``a`` ends the deal on ``max(a + T, S)`` (T its
points, S the most its last events can leave it from 0: 0 unless points are taken
away). A deal in which a side's gains alone, ``G``, could take it to the target is
walked event by event.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.board.dp_kernels import N_CHANNELS, N_OUTCOMES, band
from crib_analyze.jit import njit

#: the sweeps stop when no value moves more (each sweep moves them a few hundred times
#: less than the one before: measured on the standard game's deals under back ten)
TOLERANCE = 1e-6
MAX_SWEEPS = 200
T, S, G = 0, 1, 2  # a side's summary: its points, the least it ends on, its gains


@njit
def clamped_walk(
    players: np.ndarray, points: np.ndarray, me: int, a: int, b: int, target: int,
    lines: np.ndarray,
) -> tuple[int, int, int]:  # fmt: skip
    """Walk one deal's events (side -1 ends them) from my ``a`` and the other side's
    ``b``, each score kept at 0 or more: (the outcome 0-7, or -1 if nobody reaches the
    target; my score, theirs at the end)."""
    for e in range(players.shape[0]):
        p = players[e]
        if p < 0:
            break
        if p == me:
            a = max(0, a + points[e])
            if a >= target:
                return band(b, lines), a, b
        else:
            b = max(0, b + points[e])
            if b >= target:
                return 4 + band(a, lines), a, b
    return -1, a, b


@njit
def summaries(players: np.ndarray, points: np.ndarray) -> np.ndarray:
    """(n, 2, 3) each deal's (T, S, G) by side (0 the pone's, 1 the dealer's): from ``a``
    the side ends on ``max(a + T, S)``; G its gains."""
    n = players.shape[0]
    out = np.zeros((n, 2, 3), np.int64)
    for i in range(n):
        for q in range(2):
            total, lowest, gains, seen = 0, 0, 0, False
            for e in range(players.shape[1]):
                if players[i, e] < 0:
                    break
                if players[i, e] != q:
                    continue
                total += points[i, e]
                gains += max(0, points[i, e])
                if not seen or total < lowest:
                    lowest, seen = total, True
            least = total - lowest if seen else 0  # the last events' most from 0
            out[i, q, T] = total
            out[i, q, S] = least if least > total else 0  # only then does it matter
            out[i, q, G] = gains
    return out


@njit
def _by_gains(sums: np.ndarray, deals: np.ndarray) -> np.ndarray:
    """(2, len(deals)) ``deals`` by each side's gains, the most first."""
    out = np.empty((2, deals.shape[0]), np.int64)
    for q in range(2):
        out[q] = deals[np.argsort(-sums[deals, q, G], kind="mergesort")]
    return out


@njit
def _walks(
    players: np.ndarray, points: np.ndarray, weights: np.ndarray, sums: np.ndarray,
    by: np.ndarray, me: int, a: int, b: int, target: int, lines: np.ndarray, V: np.ndarray,
    acc: np.ndarray,
) -> None:  # fmt: skip
    """Add to ``acc`` the deals of ``by`` (:func:`_by_gains`) in which a side's gains
    could take it to the target from (a, b), each walked: its outcome, or the value where
    it leaves the scores."""
    n = by.shape[1]
    need_me, need_them = target - a, target - b
    for pass_ in range(2):  # deals I may finish; then those only they may
        q = me if pass_ == 0 else 1 - me
        for j in range(n):
            i = by[q, j]
            if sums[i, q, G] < (need_me if pass_ == 0 else need_them):
                break
            if pass_ == 1 and sums[i, me, G] >= need_me:
                continue  # walked already
            w = weights[i]
            outcome, a2, b2 = clamped_walk(players[i], points[i], me, a, b, target, lines)
            if outcome >= 0:
                acc[outcome] += w
            else:
                for c in range(N_CHANNELS):
                    acc[c] += w * V[a2, b2, 1 - me, c]
            acc[N_OUTCOMES] += w


@njit
def signed_board(
    players: np.ndarray, points: np.ndarray, weights: np.ndarray, target: int,
    lines: np.ndarray,
) -> tuple[np.ndarray, int]:  # fmt: skip
    """(target, target, 2, 9) the board over the deals (deal i with probability
    ``weights[i] / weights.sum()``; give them merged by
    :func:`~crib_analyze.board.dp_kernels.merge_turns` with its losses apart, and
    distinct, for speed), points taken away allowed; and the sweeps made."""
    n = players.shape[0]
    sums = summaries(players, points)
    mass = weights.sum()
    # the deals in which nobody can finish, by their summaries: distinct, weights summed
    keys = np.empty(n, np.int64)
    for i in range(n):
        k = 0
        for q in range(2):
            for f in range(3):
                k = k * 512 + sums[i, q, f] + 256
        keys[i] = k
    order = np.argsort(keys)
    kinds = np.zeros((n, 2, 3), np.int64)
    kind_w = np.zeros(n)
    m = -1
    for j in range(n):
        i = order[j]
        if m < 0 or keys[i] != keys[order[j - 1]]:
            m += 1
            kinds[m] = sums[i]
        kind_w[m] += weights[i]
    m += 1
    # ... and the deals to walk, by each side's gains, the most first: those that take no
    # points away always finish when walked, so they are walked once, the others each sweep
    plain = np.ones(n, np.bool_)
    for i in range(n):
        for e in range(players.shape[1]):
            if players[i, e] >= 0 and points[i, e] < 0:
                plain[i] = False
    by_plain = _by_gains(sums, np.flatnonzero(plain))
    by_taking = _by_gains(sums, np.flatnonzero(~plain))
    finished = np.zeros((target, target, 2, N_CHANNELS))
    V = np.zeros((target, target, 2, N_CHANNELS))
    acc = np.zeros(N_CHANNELS)
    sweeps = 0
    for sweep in range(MAX_SWEEPS):
        sweeps += 1
        moved = 0.0
        for total in range(2 * target - 2, -1, -1):
            lo = max(0, total - (target - 1))
            hi = min(target - 1, total)
            for a in range(lo, hi + 1):
                b = total - a
                for me in range(2):
                    need_me, need_them = target - a, target - b
                    if sweep == 0:  # the deals that take nothing away, walked once
                        acc[:] = 0.0
                        _walks(players, points, weights, sums, by_plain, me, a, b, target,
                               lines, V, acc)  # fmt: skip
                        finished[a, b, me] = acc
                    acc[:] = finished[a, b, me]
                    _walks(players, points, weights, sums, by_taking, me, a, b, target,
                           lines, V, acc)  # fmt: skip
                    for k in range(m):  # nobody can finish: the scores after the deal
                        if kinds[k, me, G] >= need_me or kinds[k, 1 - me, G] >= need_them:
                            continue
                        a2 = max(a + kinds[k, me, T], kinds[k, me, S])
                        b2 = max(b + kinds[k, 1 - me, T], kinds[k, 1 - me, S])
                        w = kind_w[k]
                        for c in range(N_CHANNELS):
                            acc[c] += w * V[a2, b2, 1 - me, c]
                        acc[N_OUTCOMES] += w
                    for c in range(N_CHANNELS):
                        v = acc[c] / mass
                        moved = max(moved, abs(v - V[a, b, me, c]))
                        V[a, b, me, c] = v
        if moved < TOLERANCE:
            break
    return V, sweeps
