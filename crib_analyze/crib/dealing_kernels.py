"""numba kernels that deal cards for the play: six each, thrown by a per-multiset policy.

A player's six cards are sorted; their ranks name a rank multiset (the key: the ranks
read as base-13 digits, looked up in the sorted keys of all 18,395 multisets); the
player throws discard d with probability ``pi[m, d]`` of its seat's policy (the expert
policy, tabulated per multiset; positions are those of :data:`DISCARDS`). Suits ride
along with the cards, so the suited share of the policy is not used here.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from crib_analyze.constants import PONE_SEAT
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS, N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.rng_kernels import rng_for, rng_next, rng_uniform
from crib_analyze.sorting_kernels import search_left, sorted_small


class ThrowPolicies(NamedTuple):
    """The expert's throws as the kernels read them: the sorted base-13 ``keys`` of every
    six-rank multiset, and each seat's policy (rows in the order of ``keys``, 15 discard
    probabilities each): ``pone_pi`` what a pone throws, ``dealer_pi`` a dealer."""

    keys: np.ndarray
    pone_pi: np.ndarray
    dealer_pi: np.ndarray


@njit
def multiset_keys(multisets: np.ndarray) -> np.ndarray:
    """(M,) base-13 key of each sorted six-rank multiset (ascending, like the rows)."""
    out = np.empty(multisets.shape[0], np.int64)
    for m in range(multisets.shape[0]):
        key = 0
        for i in range(6):
            key = key * 13 + multisets[m, i]
        out[m] = key
    return out


@njit
def multiset_of(cards: np.ndarray, keys: np.ndarray) -> int:
    """Index of the rank multiset of six sorted card ids."""
    key = 0
    for i in range(6):
        key = key * 13 + (cards[i] >> 2)
    return search_left(keys, key)


@njit
def draw_discard(pi_row: np.ndarray, rng: np.ndarray) -> int:
    """A discard index drawn with the probabilities ``pi_row`` (15,)."""
    x = rng_uniform(rng)
    acc = 0.0
    last = 0
    for d in range(N_DISCARDS):
        if pi_row[d] > 0.0:
            acc += pi_row[d]
            last = d
            if x < acc:
                return d
    return last


@njit
def shuffle_in_place(cards: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """Put ``cards`` in a random order, in place (Fisher-Yates from the end)."""
    for i in range(cards.shape[0] - 1, 0, -1):
        k = rng_next(rng) % (i + 1)
        cards[i], cards[k] = cards[k], cards[i]
    return cards


@njit
def shuffle_into(deck: np.ndarray, rng: np.ndarray) -> np.ndarray:
    """Fill ``deck`` with the cards in a random order (Fisher-Yates): (52,) a pack, (53,)
    or (54,) with the jokers' ids 52 and 53."""
    for i in range(deck.shape[0]):
        deck[i] = i
    for i in range(deck.shape[0] - 1, 0, -1):
        j = rng_next(rng) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@njit
def seat_throw(policies: ThrowPolicies, six: np.ndarray, seat: int, rng: np.ndarray) -> int:
    """The discard index (into sorted ``six``) that ``seat``'s policy draws."""
    pi = policies.pone_pi if seat == PONE_SEAT else policies.dealer_pi
    return draw_discard(pi[multiset_of(six, policies.keys)], rng)


@njit(parallel=True)
def expert_deals(n: int, seed: int, first: int, policies: ThrowPolicies) -> np.ndarray:
    """(n, 13) deals: the pone's four kept cards, the dealer's four, the starter, then
    the pone's two thrown cards and the dealer's two. Deal i uses stream ``first + i``."""
    out = np.empty((n, 13), np.int64)
    for i in prange(n):
        rng = rng_for(seed, first + i)
        deck = shuffle_into(np.empty(52, np.int64), rng)
        for seat in range(2):
            six = sorted_small(deck[6 * seat : 6 * seat + 6])
            d = seat_throw(policies, six, seat, rng)
            for j in range(4):
                out[i, 4 * seat + j] = six[KEEPS[d, j]]
            out[i, 9 + 2 * seat] = six[DISCARDS[d, 0]]
            out[i, 10 + 2 * seat] = six[DISCARDS[d, 1]]
        out[i, 8] = deck[12]
    return out
