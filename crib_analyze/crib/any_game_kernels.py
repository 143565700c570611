"""numba kernels for the throws of any game of the rules, with the other seats' cards
as random cards: what a kept hand, a passed hand and a thrown part of the crib are worth.

A seat holds ``n`` cards and splits them into a kept hand, a throw to the crib and (in
Canadian doubles) cards passed to its partner. The cards it cannot see are ``unseen``;
the starter is any of them alike. The crib gets the throw, and its other ``4 - t``
cards are unseen cards alike (the other seats' throws and the cards dealt from the pack
to the crib: the random opponent model of the two-player game, for every seat).
Each mean is exact: every starter, and for the crib every set of other cards with it.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.jit import njit
from crib_analyze.scoring.any_hand_kernels import show_points


@njit
def hand_mean(cards: np.ndarray, size: int, unseen: np.ndarray) -> float:
    """Mean show of ``cards[:size]`` (a hand) over every starter in ``unseen``."""
    total = 0
    for s in unseen:
        total += show_points(cards, size, s, False)
    mean: float = total / unseen.shape[0]
    return mean


@njit
def crib_mean(thrown: np.ndarray, unseen: np.ndarray) -> float:
    """Mean show of a crib holding ``thrown`` (1 to 4 cards) and 4 - len of the
    ``unseen`` cards, over every starter and every such set of unseen cards."""
    t = thrown.shape[0]
    u = unseen.shape[0]
    crib = np.empty(4, np.int64)
    crib[:t] = thrown
    need = 4 - t
    total = 0
    n = 0
    idx = np.zeros(4, np.int64)
    for si in range(u):
        starter = unseen[si]
        # every need-subset of the unseen cards other than the starter, in index order
        for i in range(need):
            idx[i] = i
        while True:
            ok = True
            for i in range(need):
                if idx[i] == si:
                    ok = False
            if ok:
                for i in range(need):
                    crib[t + i] = unseen[idx[i]]
                total += show_points(crib, 4, starter, True)
                n += 1
            if need == 0:
                break
            i = need - 1
            while i >= 0 and idx[i] == u - need + i:
                i -= 1
            if i < 0:
                break
            idx[i] += 1
            for j in range(i + 1, need):
                idx[j] = idx[j - 1] + 1
    return total / n


@njit(parallel=True)
def hand_means(cards: np.ndarray, subsets: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """(H,): :func:`hand_mean` of each row of ``subsets`` (H, k: indices into ``cards``)."""
    n, k = subsets.shape
    out = np.zeros(n)
    for i in prange(n):
        hand = np.empty(4, np.int64)
        for j in range(k):
            hand[j] = cards[subsets[i, j]]
        out[i] = hand_mean(hand, k, unseen)
    return out


@njit(parallel=True)
def crib_means(cards: np.ndarray, throws: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """(T,): :func:`crib_mean` of each row of ``throws`` (T, t: indices into ``cards``)."""
    n, t = throws.shape
    out = np.zeros(n)
    for i in prange(n):
        thrown = np.empty(t, np.int64)
        for j in range(t):
            thrown[j] = cards[throws[i, j]]
        out[i] = crib_mean(thrown, unseen)
    return out
