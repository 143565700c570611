"""numba kernels that solve the rest of the play exactly when both hands are known.

The play is a two-player zero-sum game with perfect information once the hidden cards
are fixed, and a small one: at most eight cards, laid in turn. Suits play no part, so
hands are ranks (0 = A .. 12 = K), -1 for a card already laid, four slots a player.

:func:`best_value` is a negamax: the value of a position to the player to move is the
most, over its legal cards, of the points that card scores (the go or last card
included when the round ends with it) plus the value of what follows, negated when the
other player moves next. Two things keep it small: cards of one rank in one hand are
tried once, and after every reset the rest of the play depends only on which cards
are left and who leads, so those values are remembered (``memo``, 512 entries: the
held slots of each player as four bits, and the leader; one table per pair of hands).

The rules are those of :func:`crib_analyze.play.rules_kernels.lay`: after a card the
other player lays if it can, else the same player if it can, else the round ends
(1 for the go unless the count is 31) and the player after the last card leads,
unless it has no cards left.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import MAX_COUNT
from crib_analyze.jit import njit
from crib_analyze.play.rules_kernels import lay_points, rank_value

UNSOLVED = -(1 << 30)  # a memo entry not yet computed
MEMO_SIZE = 512
SEQ_SIZE = 16  # ranks laid since each reset, stacked: at most eight cards in all


@njit
def fits(hand: np.ndarray, count: int) -> bool:
    """True if a rank left in ``hand`` (4,) fits under 31 at ``count``."""
    for r in hand:  # noqa: SIM110 (a loop numba compiles well)
        if r >= 0 and count + rank_value(r) <= MAX_COUNT:
            return True
    return False


@njit
def memo_key(h: np.ndarray, leader: int) -> int:
    key = leader << 8
    for s in range(4):
        if h[0, s] >= 0:
            key |= 1 << s
        if h[1, s] >= 0:
            key |= 1 << (4 + s)
    return key


@njit(inline="always")
def next_slot(hand: np.ndarray, s: int, hi: int, count: int, distinct: bool) -> int:
    """The first slot of ``hand`` (ranks) from ``s`` to ``hi`` whose card fits at
    ``count`` and, with ``distinct``, whose rank no earlier slot holds (one of a rank is
    tried); ``hi + 1`` if none."""
    while s <= hi:
        r = hand[s]
        if r >= 0 and count + rank_value(r) <= MAX_COUNT:
            repeat = False
            if distinct:
                for t in range(s):
                    if hand[t] == r:
                        repeat = True
            if not repeat:
                return s
        s += 1
    return s


MAX_DEPTH = 10  # a frame per card laid, at most eight, and the root
N_FRAME_ROWS = 13
WIDE = 1 << 20  # wider than any value: a full window


@njit
def new_frames() -> np.ndarray:
    """The search's stack: (13, MAX_DEPTH) int64, made once and reused."""
    return np.empty((N_FRAME_ROWS, MAX_DEPTH), np.int64)


@njit
def best_value(
    h: np.ndarray, p: int, seq: np.ndarray, base: int, n: int, count: int, memo: np.ndarray,
    first: int, last: int, frames: np.ndarray,
) -> int:  # fmt: skip
    """The value to ``p`` (its points minus the other's, for the rest of the play) with
    ``p`` to lay: ``seq[base:base + n]`` the ranks since the reset, ``count`` the count.
    Only slots ``first`` to ``last`` are tried (0 and 3: all of them); ``p`` must hold a
    card that fits. ``frames`` from :func:`new_frames`.

    A depth-first alpha-beta search with its own stack (numba's cache does not keep
    recursive kernels reliably); the value returned is exact (the root's window is
    full), and so is every memo entry (the play after a reset is searched with a full
    window). ``h`` and ``seq`` are restored on return."""
    fp, fbase, fn, fcount = frames[0], frames[1], frames[2], frames[3]
    fslot, flo, fhi, fbest = frames[4], frames[5], frames[6], frames[7]
    fpts, fsign, fkey = frames[8], frames[9], frames[10]  # the card being tried
    falpha, fbeta = frames[11], frames[12]
    d = 0
    fp[0], fbase[0], fn[0], fcount[0] = p, base, n, count
    fslot[0], flo[0], fhi[0], fbest[0] = first - 1, first, last, UNSOLVED
    falpha[0], fbeta[0] = -WIDE, WIDE
    ret = 0
    returning = False
    while True:
        q = fp[d]
        if returning:  # the card in fslot[d] is answered: take it back, keep the best
            returning = False
            if fkey[d] >= 0:
                memo[fkey[d]] = ret
            v = fpts[d] + fsign[d] * ret
            h[q, fslot[d]] = seq[fbase[d] + fn[d]]
            if v > fbest[d]:
                fbest[d] = v
                if v > falpha[d]:
                    falpha[d] = v
        s = fslot[d] + 1
        if falpha[d] >= fbeta[d]:
            s = fhi[d] + 1  # a cut: the opponent will not allow this line
        s = next_slot(h[q], s, fhi[d], fcount[d], flo[d] == 0)
        if s > fhi[d]:  # every card tried (or a cut): return the best
            ret = fbest[d]
            if d == 0:
                return int(ret)
            d -= 1
            returning = True
            continue
        fslot[d] = s
        r = h[q, s]
        o = 1 - q
        b, m = fbase[d], fn[d]
        h[q, s] = -1
        seq[b + m] = r
        after = fcount[d] + rank_value(r)
        pts, _ = lay_points(seq[b:], m + 1, after)
        if after < MAX_COUNT and fits(h[o], after):
            nxt, nb, nm, nc, sign, key = o, b, m + 1, after, -1, -1
            lo, hi = pts - fbeta[d], pts - falpha[d]
        elif after < MAX_COUNT and fits(h[q], after):
            nxt, nb, nm, nc, sign, key = q, b, m + 1, after, 1, -1
            lo, hi = falpha[d] - pts, fbeta[d] - pts
        else:  # the round ends: the go (or last card) unless at 31; the next leads
            if after < MAX_COUNT:
                pts += 1
            held_o, held_q = False, False
            for t in range(4):
                held_o |= h[o, t] >= 0
                held_q |= h[q, t] >= 0
            if not (held_o or held_q):
                v = pts
            else:
                nxt = o if held_o else q
                sign = -1 if held_o else 1
                key = memo_key(h, nxt)
                v = UNSOLVED
                if memo[key] != UNSOLVED:
                    v = pts + sign * memo[key]
                nb, nm, nc = b + m + 1, 0, 0
                lo, hi = -WIDE, WIDE
            if v != UNSOLVED:  # known without a search
                h[q, s] = r
                if v > fbest[d]:
                    fbest[d] = v
                    if v > falpha[d]:
                        falpha[d] = v
                continue
        fpts[d], fsign[d], fkey[d] = pts, sign, key
        d += 1
        fp[d], fbase[d], fn[d], fcount[d] = nxt, nb, nm, nc
        fslot[d], flo[d], fhi[d], fbest[d] = -1, 0, 3, UNSOLVED
        falpha[d], fbeta[d] = lo, hi


@njit
def card_values(
    h: np.ndarray, p: int, seq: np.ndarray, n: int, count: int, memo: np.ndarray,
    out: np.ndarray, frames: np.ndarray,
) -> None:  # fmt: skip
    """``out[s]`` (4,): the value to ``p`` of laying slot ``s`` now and both playing
    perfectly after (``seq[:n]`` the ranks since the reset); ``UNSOLVED`` where the slot
    is empty or does not fit. ``seq`` needs :data:`SEQ_SIZE` entries; ``memo`` is
    cleared here; ``frames`` from :func:`new_frames`."""
    memo[:] = UNSOLVED
    for s in range(4):
        r = h[p, s]
        out[s] = UNSOLVED
        if r >= 0 and count + rank_value(r) <= MAX_COUNT:
            out[s] = best_value(h, p, seq, 0, n, count, memo, s, s, frames)
