"""numba kernel for the show of a hand of any size with the starter: the three-card hands
of five-card cribbage as well as the usual four.

The same rules as :mod:`crib_analyze.scoring.show_kernels`: fifteens 2 each, pairs 2
each, each maximal run of three or more once per combination of cards, nobs 1. A hand's
flush is all its cards of one suit (as many points, one more with the starter); a crib
scores a flush only when the starter matches too. Written for any size rather than
unrolled, so it is slower than the four-card kernel the two-player engines use.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import FIRST_JOKER, JACK_RANK, NOBS_POINTS
from crib_analyze.jit import njit
from crib_analyze.sorting_kernels import copy_small


@njit
def show_points(hand: np.ndarray, size: int, starter: int, crib: bool) -> int:
    """Points of ``hand[:size]`` (card ids) with ``starter`` in the show."""
    m = size + 1
    cards = np.empty(m, np.int64)
    copy_small(cards, 0, hand, 0, size)
    cards[size] = starter
    return rank_points(cards, m) + suit_points(cards, size, crib)


@njit
def rank_points(cards: np.ndarray, m: int) -> int:
    """The points of ``cards[:m]`` that their ranks make: fifteens, pairs, runs."""
    points = 0
    for mask in range(1, 1 << m):  # fifteens: every combination counting 15
        total = 0
        for i in range(m):
            if mask >> i & 1:
                r = cards[i] >> 2
                total += r + 1 if r < 10 else 10
        if total == 15:
            points += 2
    counts = np.zeros(13, np.int64)
    for i in range(m):
        counts[cards[i] >> 2] += 1
    r = 0
    while r < 13:
        points += counts[r] * (counts[r] - 1)  # pairs: 2 for each of C(n, 2)
        r += 1
    r = 0
    while r < 13:  # runs: each maximal block of 3+ ranks, once per choice of cards
        if counts[r] == 0:
            r += 1
            continue
        length, ways = 0, 1
        while r < 13 and counts[r] > 0:
            length += 1
            ways *= counts[r]
            r += 1
        if length >= 3:
            points += length * ways
    return points


@njit
def suit_points(cards: np.ndarray, size: int, crib: bool) -> int:
    """The points of a show (``cards[:size]`` the hand, ``cards[size]`` the starter) that
    suits make: the flush, and nobs (one point a hand, however many jacks of the
    starter's suit a joker makes)."""
    starter = cards[size]
    points = 0
    suit = cards[0] & 3
    flush = True
    for i in range(1, size):
        flush &= (cards[i] & 3) == suit
    if flush:
        if (starter & 3) == suit:
            points += size + 1
        elif not crib:
            points += size
    for i in range(size):
        if cards[i] >> 2 == JACK_RANK and (cards[i] & 3) == (starter & 3):
            return points + NOBS_POINTS
    return points


@njit
def wild_show_points(hand: np.ndarray, size: int, starter: int, crib: bool) -> int:
    """:func:`show_points` with jokers (ids >= 52) among ``hand[:size]`` and the starter:
    the most over every card (0-51) each joker may be, a card already there included;
    nobs once a hand however many jokers are the jack of the starter's suit. Without a
    joker, :func:`show_points` itself. The ranks' points and the suits' part apart: each
    rank a joker may be, then the suit that serves it best."""
    a, b, k = -1, -1, 0  # where the jokers are (the starter at ``size``), how many
    for i in range(size + 1):
        if (hand[i] if i < size else starter) >= FIRST_JOKER:
            if k == 0:
                a = i
            else:
                b = i
            k += 1
    if k == 0:
        return show_points(hand, size, starter, crib)
    m = size + 1
    cards = np.empty(m, np.int64)
    copy_small(cards, 0, hand, 0, size)
    cards[size] = starter
    best = 0
    for ra in range(13):
        for rb in range(13 if k == 2 else 1):
            cards[a] = 4 * ra
            if k == 2:
                cards[b] = 4 * rb
            ranks = rank_points(cards, m)
            suits = 0
            for sa in range(4):
                cards[a] = 4 * ra + sa
                for sb in range(4 if k == 2 else 1):
                    if k == 2:
                        cards[b] = 4 * rb + sb
                    suits = max(suits, suit_points(cards, size, crib))
            best = max(best, ranks + suits)
    return best
