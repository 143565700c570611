"""Suit-distinct six-card hands: 962,988 classes of the 20,358,520 raw hands.

Two hands are the same class when a relabelling of the suits maps one onto the
other; the scorer cannot tell them apart. The representative of a class is the
relabelling whose sorted tuple of card ids is smallest (the rule of
:func:`crib_analyze.cards.canonical_hand`), and its ``weight`` is the number of raw
hands in the class (24 divided by the number of relabellings that fix it).

Classes are enumerated rank multiset by rank multiset (18,395 multisets of six
ranks, none more than four times), in lexicographic order of the sorted ranks and,
within a multiset, of the representative's card ids. A hand's cards are sorted by
id, i.e. by rank then suit, so position ``i`` has the same rank in every class of a
multiset: rank-only quantities are computed once per multiset.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from itertools import permutations

import numpy as np
from numba import prange

from crib_analyze.constants import N_MULTISETS as N_MULTISETS  # re-exported
from crib_analyze.jit import njit

N_CLASSES = 962_988
N_RAW_HANDS = 20_358_520

_PERMS = np.array(list(permutations(range(4))), dtype=np.int64)  # (24, 4): old suit -> new
# PERM_MASK[p, m]: the suit set m (4-bit mask) after relabelling p
_PERM_MASK = np.array(
    [[sum(1 << int(p[s]) for s in range(4) if m >> s & 1) for m in range(16)] for p in _PERMS],
    dtype=np.int64,
)
# KEY[m]: the ascending suits of m read as base-4 digits; for suit sets of one size
# this orders them as their sorted card tuples compare
_KEY = np.array(
    [
        sum(s * 4 ** (3 - j) for j, s in enumerate(s for s in range(4) if m >> s & 1))
        for m in range(16)
    ],
    dtype=np.int64,
)
# MASKS[k, :C(4,k)]: the suit sets of size k
_MASKS = np.full((5, 6), -1, dtype=np.int64)
for _k in range(1, 5):
    _ms = [m for m in range(16) if bin(m).count("1") == _k]
    _MASKS[_k, : len(_ms)] = _ms
_N_MASKS = np.array([0, 4, 6, 4, 1], dtype=np.int64)


@njit
def rank_multisets() -> np.ndarray:
    """(18,395, 6) sorted ranks of every six-card rank multiset, lexicographic order."""
    out = np.empty((N_MULTISETS, 6), np.int64)
    n = 0
    for a in range(13):
        for b in range(a, 13):
            for c in range(b, 13):
                for d in range(c, 13):
                    for e in range(d, 13):
                        if a == e:
                            continue
                        for f in range(e, 13):
                            if b == f:
                                continue
                            out[n, 0], out[n, 1], out[n, 2] = a, b, c
                            out[n, 3], out[n, 4], out[n, 5] = d, e, f
                            n += 1
    return out


@njit
def _classes_of_multiset(
    ranks: np.ndarray,
    perm_mask: np.ndarray,
    key: np.ndarray,
    masks: np.ndarray,
    n_masks: np.ndarray,
    cards_out: np.ndarray,
    weight_out: np.ndarray,
    fill: bool,
) -> int:
    """Enumerate the suit classes of one rank multiset; return how many (fill if asked)."""
    # distinct ranks and their multiplicities
    group_rank = np.empty(6, np.int64)
    group_size = np.empty(6, np.int64)
    k = 0
    for i in range(6):
        if k > 0 and group_rank[k - 1] == ranks[i]:
            group_size[k - 1] += 1
        else:
            group_rank[k] = ranks[i]
            group_size[k] = 1
            k += 1
    choice = np.zeros(k, np.int64)
    mask = np.empty(k, np.int64)
    found = 0
    while True:
        for g in range(k):
            mask[g] = masks[group_size[g], choice[g]]
        # canonical iff no relabelling gives a smaller key sequence
        canonical = True
        fixed = 0
        for p in range(24):
            cmp = 0
            for g in range(k):
                a = key[perm_mask[p, mask[g]]]
                b = key[mask[g]]
                if a != b:
                    cmp = -1 if a < b else 1
                    break
            if cmp < 0:
                canonical = False
                break
            if cmp == 0:
                fixed += 1
        if canonical:
            if fill:
                pos = 0
                for g in range(k):
                    for s in range(4):
                        if mask[g] >> s & 1:
                            cards_out[found, pos] = 4 * group_rank[g] + s
                            pos += 1
                weight_out[found] = 24 // fixed
            found += 1
        # next assignment (odometer)
        g = k - 1
        while g >= 0:
            choice[g] += 1
            if choice[g] < n_masks[group_size[g]]:
                break
            choice[g] = 0
            g -= 1
        if g < 0:
            return found


@njit(parallel=True)
def enumerate_classes(
    multisets: np.ndarray,
    perm_mask: np.ndarray,
    key: np.ndarray,
    masks: np.ndarray,
    n_masks: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """All classes: (N, 6) card ids, (N,) weights, (N,) multiset index; two passes."""
    n_ms = multisets.shape[0]
    counts = np.zeros(n_ms, np.int64)
    dummy_cards = np.empty((0, 6), np.int64)
    dummy_weight = np.empty(0, np.int64)
    for m in prange(n_ms):
        counts[m] = _classes_of_multiset(
            multisets[m], perm_mask, key, masks, n_masks, dummy_cards, dummy_weight, False
        )
    offsets = np.zeros(n_ms + 1, np.int64)
    offsets[1:] = np.cumsum(counts)
    total = offsets[n_ms]
    cards = np.empty((total, 6), np.int64)
    weight = np.empty(total, np.int64)
    ms_index = np.empty(total, np.int64)
    for m in prange(n_ms):
        lo, hi = offsets[m], offsets[m + 1]
        _classes_of_multiset(
            multisets[m], perm_mask, key, masks, n_masks, cards[lo:hi], weight[lo:hi], True
        )
        ms_index[lo:hi] = m
    return cards, weight, ms_index


@dataclass(frozen=True)
class HandClasses:
    """Every suit class of six-card hands, in enumeration order."""

    cards: np.ndarray  # (N, 6) int8 card ids, ascending
    weight: np.ndarray  # (N,) int32 raw hands per class
    multiset: np.ndarray  # (N,) int32 index into ``multisets``
    multisets: np.ndarray  # (18,395, 6) int8 sorted ranks


@cache
def multisets() -> np.ndarray:
    """(18,395, 6) int64 sorted ranks of every six-card rank multiset (cheap, cached)."""
    out: np.ndarray = rank_multisets()
    out.setflags(write=False)
    return out


@cache
def hand_classes() -> HandClasses:
    """The 962,988 classes (computed once per process, about a second)."""
    ms = multisets()
    cards, weight, ms_index = enumerate_classes(ms, _PERM_MASK, _KEY, _MASKS, _N_MASKS)
    result = HandClasses(
        cards=cards.astype(np.int8),
        weight=weight.astype(np.int32),
        multiset=ms_index.astype(np.int32),
        multisets=ms.astype(np.int8),
    )
    for arr in (result.cards, result.weight, result.multiset, result.multisets):
        arr.setflags(write=False)
    return result


def class_index(hand: tuple[int, ...]) -> int:
    """The index (``hand_id``) of a canonical six-card hand among :func:`hand_classes`.

    ``hand`` must be a class representative (see :func:`crib_analyze.cards.canonical_hand`).
    """
    classes = hand_classes()
    ranks = np.array(sorted(c // 4 for c in hand), dtype=np.int8)
    ms = classes.multisets
    # multisets are in lexicographic order: find this one by binary search on a key
    key = (ms.astype(np.int64) * 13 ** np.arange(5, -1, -1)).sum(axis=1)
    m = int(np.searchsorted(key, int((ranks.astype(np.int64) * 13 ** np.arange(5, -1, -1)).sum())))
    lo, hi = np.searchsorted(classes.multiset, [m, m + 1])
    rows = np.flatnonzero((classes.cards[lo:hi] == np.array(sorted(hand), np.int8)).all(axis=1))
    if m >= len(key) or not rows.size:
        raise ValueError(f"not a canonical six-card hand: {hand}")
    return int(lo + rows[0])
