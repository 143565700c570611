"""numba kernels: how the game ends after each card the player can lay now.

For each hand the opponent may hold (the solver's reading: every live keep, weighted),
each candidate card is laid and the rest of the play is played out by the exact solver
with both hands known (each player lays the card of best pegging value, the first of
ties). The play's points are walked from the score in the order they are scored, then
the shows (the pone's hand, the dealer's, the crib): whoever reaches the target first
wins there; else the board table values the position after the deal. The opponent's
show is its keep's with the starter by ranks (no flush or nobs), and the crib is drawn
from a given distribution of points (its mean over all deals unless known better).
"""

from __future__ import annotations

import numpy as np

from crib_analyze.board.dp_kernels import walk_to
from crib_analyze.jit import njit
from crib_analyze.play import solver_kernels as sk
from crib_analyze.play.inference_kernels import N_KEEPS, held_after
from crib_analyze.play.rules_kernels import lay
from crib_analyze.scoring.show_kernels import lookup_rank_points

MAX_PLAY_EVENTS = 8  # a card each


@njit
def solved_line(
    cards: np.ndarray, seq: np.ndarray, state: np.ndarray, memo: np.ndarray,
    frames: np.ndarray, players: np.ndarray, points: np.ndarray, e: int,
) -> int:  # fmt: skip
    """Play the rest of the deal from ``state`` [n, count, turn] (``cards`` (2, 4) rank
    * 4 per slot, -1 laid; ``seq`` the ranks since the reset), each player laying the
    slot of best exact value (the first of ties); append each card's points and its
    player to ``players``/``points`` from slot ``e``; return the next free slot."""
    h = np.empty((2, 4), np.int64)
    scores = np.zeros(2, np.int64)
    sq = np.zeros(sk.SEQ_SIZE, np.int64)
    while state[2] >= 0:
        p = state[2]
        for q in range(2):
            for s in range(4):
                h[q, s] = cards[q, s] >> 2 if cards[q, s] >= 0 else -1
        sq[: state[0]] = seq[: state[0]]
        best, best_slot = sk.UNSOLVED, -1
        for s in range(4):
            r = h[p, s]
            if r >= 0 and state[1] + (r + 1 if r < 10 else 10) <= 31:
                v = sk.best_value(h, p, sq, 0, state[0], state[1], memo, s, s, frames)
                if v > best:
                    best, best_slot = v, s
        pts, _ = lay(cards, p, best_slot, seq, state, scores)
        if pts > 0:
            players[e], points[e] = p, pts
            e += 1
    return e


@njit
def card_outcomes(
    mine: np.ndarray, me: int, seq: np.ndarray, n: int, count: int, weights: np.ndarray,
    keeps: np.ndarray, laid: np.ndarray, gone_above: int, starter: int, my_show: int,
    crib: np.ndarray, a: int, b: int, values: np.ndarray, target: int, lines: np.ndarray,
    table: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, int]:  # fmt: skip
    """For each slot of ``mine`` (4,) card ids (-1 none) that fits at ``count``: (the
    outcome probabilities (4, 8) of the game for me in seat ``me`` on ``a`` against
    ``b``, the pegging differential (4,) of the solved line (its check), the hands
    solved). The opponent's keeps are ``keeps`` (1820, 4) ranks weighted by ``weights``
    (zero: ruled out), ``laid`` (13,) its laid ranks, ``gone_above`` its go's bound;
    ``crib`` (K,) the chance the crib scores 0 .. K - 1; ``values`` the board table."""
    out = np.zeros((4, 8))
    diff = np.zeros(4)
    base = np.full((2, 4), -1, np.int64)
    for s in range(4):
        base[me, s] = (mine[s] >> 2) * 4 if mine[s] >= 0 else -1
    held = np.empty(4, np.int64)
    memo = np.empty(sk.MEMO_SIZE, np.int64)
    frames = sk.new_frames()
    cards = np.empty((2, 4), np.int64)
    sq = np.zeros(sk.SEQ_SIZE, np.int64)
    state = np.empty(3, np.int64)
    scores = np.zeros(2, np.int64)
    players = np.full(MAX_PLAY_EVENTS + 3, -1, np.int8)
    points = np.zeros(MAX_PLAY_EVENTS + 3, np.int8)
    total, solved = 0.0, 0
    for k in range(N_KEEPS):
        w = weights[k]
        if w <= 0.0 or not held_after(keeps[k], laid, held):
            continue
        ruled_out = False
        for i in range(4):
            if held[i] >= 0 and (held[i] + 1 if held[i] < 10 else 10) <= gone_above:
                ruled_out = True
        if ruled_out:
            continue
        solved += 1
        total += w
        theirs = lookup_rank_points(table, keeps[k, 0], keeps[k, 1], keeps[k, 2], keeps[k, 3],
                                    starter >> 2)  # fmt: skip
        pone_show, dealer_show = (my_show, theirs) if me == 0 else (theirs, my_show)
        memo[:] = sk.UNSOLVED  # one table for this pair of hands
        for s in range(4):
            r = base[me, s]
            if r < 0 or count + ((r >> 2) + 1 if (r >> 2) < 10 else 10) > 31:
                continue
            cards[:] = base
            for i in range(4):
                cards[1 - me, i] = held[i] * 4 if held[i] >= 0 else -1
            sq[:n] = seq[:n]
            state[0], state[1], state[2] = n, count, me
            players[:] = -1
            points[:] = 0
            pts, _ = lay(cards, me, s, sq, state, scores)
            e = 0
            if pts > 0:
                players[0], points[0] = me, pts
                e = 1
            e = solved_line(cards, sq, state, memo, frames, players, points, e)
            for j in range(e):
                diff[s] += w * (points[j] if players[j] == me else -points[j])
            _shows_walk(players, points, e, pone_show, dealer_show, crib, me, a, b, values,
                        target, lines, w, out[s])  # fmt: skip
    if total > 0.0:
        out /= total
        diff /= total
    return out, diff, solved


@njit
def _shows_walk(
    players: np.ndarray, points: np.ndarray, e: int, pone_show: int, dealer_show: int,
    crib: np.ndarray, me: int, a: int, b: int, values: np.ndarray, target: int,
    lines: np.ndarray, w: float, out: np.ndarray,
) -> None:  # fmt: skip
    """Add ``w`` times the outcome of the play's events ``[:e]``, then the shows and each
    crib score (by its chance), walked from (a, b), to ``out`` (8,)."""
    players[e], points[e] = 0, pone_show
    players[e + 1], points[e + 1] = 1, dealer_show
    players[e + 2] = 1
    for c in range(crib.shape[0]):
        if crib[c] <= 0.0:
            continue
        points[e + 2] = c
        outcome, a2, b2 = walk_to(players[: e + 3], points[: e + 3], me, a, b, target, lines)
        if outcome >= 0:
            out[outcome] += w * crib[c]
        else:
            for o in range(8):
                out[o] += w * crib[c] * values[a2, b2, 1 - me, o]
