"""numba kernels for the rules of the play: legal cards, points of a laid card, go.

Players are seats (:class:`crib_analyze.position.Seat`: 0 = pone, who leads,
1 = dealer). A player's cards are four ids in an
int64 row, -1 once played. Cards laid since the last reset are kept as ranks
(``seq``, oldest first) for pairs and runs; the count is their value sum.

Points for a laid card (all that apply): the count is exactly 15 -> 2, exactly 31 -> 2;
the last 2, 3 or 4 cards of one rank -> 2, 6, 12; the most recent k >= 3 cards are k
distinct consecutive ranks in any order -> k (the longest such k, up to 7). Nothing
spans a reset. When neither player can lay a card, the player who laid the last one
scores 1 for the go (or last card), unless the count is 31 (already 2), and the count
resets; the other player leads. ``reasons`` packs what scored into one int: see the
``R_*`` bits; the run length sits in bits 8-10.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import FIRST_JOKER, MAX_COUNT
from crib_analyze.jit import njit

R_FIFTEEN = 1
R_THIRTY_ONE = 2
R_PAIR = 4  # two of a rank: 2
R_PAIR_ROYAL = 8  # three of a rank: 6
R_DOUBLE_PAIR_ROYAL = 16  # four of a rank: 12
R_GO = 32  # the go point (1) for the last card before a reset
R_LAST_CARD = 64  # the last card of the play (1)
R_FIVE_OF_A_KIND = 128  # five of a rank (jokers): 20
RUN_SHIFT = 8  # run length k (3..7) in bits 8-10
R_SIX_OF_A_KIND = 2048  # six of a rank (jokers): 30


@njit(inline="always")
def rank_value(r: int) -> int:
    """Counting value of a rank (0 = A .. 12 = K): A = 1, 2..10 face value, J Q K = 10."""
    return r + 1 if r < 10 else 10


@njit(inline="always")
def card_value(card: int) -> int:
    """Counting value of a card id: its rank's (:func:`rank_value`)."""
    return rank_value(card >> 2)


@njit(inline="always")
def least_card_value(card: int) -> int:
    """The least a card id counts in the play: its value, or 1 for a joker (an ace)."""
    return 1 if card >= FIRST_JOKER else rank_value(card >> 2)


@njit
def can_lay(hand: np.ndarray, count: int) -> bool:
    """True if any card left in ``hand`` (ids, -1 played; a joker as an ace) fits under
    31."""
    for c in hand:  # noqa: SIM110 (a loop numba compiles well)
        if c >= 0 and count + least_card_value(c) <= MAX_COUNT:
            return True
    return False


@njit
def cards_left(hand: np.ndarray) -> int:
    n = 0
    for c in hand:
        n += c >= 0
    return n


@njit
def distinct_span(seq: np.ndarray, start: int, n: int) -> tuple[int, int, int]:
    """(bits, lo, hi) of the ranks ``seq[start:n]``: their set as bits, the lowest and
    the highest; bits is -1 if a rank repeats (no run can use them)."""
    lo, hi, bits = 13, -1, 0
    for i in range(start, n):
        r = seq[i]
        if bits >> r & 1:
            return -1, lo, hi
        bits |= 1 << r
        lo = min(lo, r)
        hi = max(hi, r)
    return bits, lo, hi


@njit
def lay_points(seq: np.ndarray, n: int, count: int) -> tuple[int, int]:
    """(points, reasons) for the card just laid: ``seq[:n]`` are the ranks since the
    reset, the new card last; ``count`` includes it."""
    points = 0
    reasons = 0
    if count == 15:
        points += 2
        reasons |= R_FIFTEEN
    if count == MAX_COUNT:
        points += 2
        reasons |= R_THIRTY_ONE
    same = 1
    while same < n and seq[n - 1 - same] == seq[n - 1]:
        same += 1
    if same == 2:
        points += 2
        reasons |= R_PAIR
    elif same == 3:
        points += 6
        reasons |= R_PAIR_ROYAL
    elif same == 4:
        points += 12
        reasons |= R_DOUBLE_PAIR_ROYAL
    elif same == 5:  # with jokers, which may repeat a card already in play
        points += 20
        reasons |= R_FIVE_OF_A_KIND
    elif same >= 6:
        points += 30
        reasons |= R_SIX_OF_A_KIND
    run = 0
    for k in range(min(n, 7), 2, -1):
        bits, lo, hi = distinct_span(seq, n - k, n)
        if bits >= 0 and hi - lo == k - 1:
            run = k
            break
    if run:
        points += run
        reasons |= run << RUN_SHIFT
    return points, reasons


@njit
def lay(
    hands: np.ndarray,
    player: int,
    slot: int,
    seq: np.ndarray,
    state: np.ndarray,
    scores: np.ndarray,
) -> tuple[int, int]:
    """Lay ``hands[player, slot]``; score it and the go or last card if the round ends.

    ``state`` is int64 [n_seq, count, turn]: updated in place (the next player to lay,
    or -1 when all eight cards are down). Returns (points, reasons) of this card,
    the go or last-card point included.
    """
    card = hands[player, slot]
    hands[player, slot] = -1
    n, count = state[0], state[1] + card_value(card)
    seq[n] = card >> 2
    n += 1
    points, reasons = lay_points(seq, n, count)
    other = 1 - player
    if count < MAX_COUNT and can_lay(hands[other], count):
        state[0], state[1], state[2] = n, count, other
    elif count < MAX_COUNT and can_lay(hands[player], count):
        state[0], state[1], state[2] = n, count, player  # the other says go
    else:  # nobody can lay: the round ends
        if count < MAX_COUNT:
            points += 1
            done = cards_left(hands[0]) + cards_left(hands[1]) == 0
            reasons |= R_LAST_CARD if done else R_GO
        state[0], state[1] = 0, 0
        if cards_left(hands[other]) > 0:
            state[2] = other
        elif cards_left(hands[player]) > 0:
            state[2] = player
        else:
            state[2] = -1
    scores[player] += points
    return points, reasons


@njit
def reply_points(
    seq: np.ndarray, n: int, count: int, out: np.ndarray, best: np.ndarray
) -> np.ndarray:
    """Fill ``out`` (13,) with the points a card of each rank would score laid next
    (after ``seq[:n]`` at ``count``; 0 where it would pass 31): the same as
    :func:`lay_points` for every rank at once, without laying 13 cards. ``best`` (13,)
    is scratch space."""
    for r in range(13):
        v = rank_value(r)
        after = count + v
        if after > MAX_COUNT:
            out[r] = 0
            continue
        pts = 0
        if after == 15:
            pts += 2
        if after == MAX_COUNT:
            pts += 2
        out[r] = pts
    if n > 0:  # pairs: a card of the last rank pairs with the trailing run of that rank
        last = seq[n - 1]
        same = 1
        while same < n and seq[n - 1 - same] == last:
            same += 1
        v = last + 1 if last < 10 else 10
        if count + v <= MAX_COUNT:
            # (five and six of a kind: jokers, which may repeat a card already in play)
            out[last] += (2, 6, 12, 20, 30)[min(same, 5) - 1]
    # runs: the new card and the latest k - 1 cards are k distinct consecutive ranks
    best[:13] = 0
    for k in range(3, min(n + 1, 7) + 1):
        bits, lo, hi = distinct_span(seq, n - (k - 1), n)
        if bits < 0 or hi - lo > k - 1:
            continue
        if hi - lo == k - 2:  # a block: extend it at either end
            if lo > 0:
                best[lo - 1] = k
            if hi < 12:
                best[hi + 1] = k
        else:  # one gap inside: only its rank completes the run
            for r in range(lo + 1, hi):
                if not bits >> r & 1:
                    best[r] = k
    for r in range(13):
        v = rank_value(r)
        if best[r] and count + v <= MAX_COUNT:
            out[r] += best[r]
    return out


@njit
def next_holding(hands: np.ndarray, seat: int) -> int:
    """The first seat to the left of ``seat`` (``seat`` itself last) with a card; -1 if
    every hand is empty."""
    n = hands.shape[0]
    for step in range(1, n + 1):
        s: int = (seat + step) % n
        if cards_left(hands[s]) > 0:
            return s
    return -1
