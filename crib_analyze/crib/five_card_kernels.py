"""numba kernels and constants for the tables of five-card hands: every suit-distinct
hand of five, and the throws of the old five-card game (ten of two, three kept) and of
the games whose seats throw one (five, four kept).

**Classes.** Two hands that differ only by a renaming of the suits score alike, so the
table holds one hand of each class: the one whose sorted card ids are the least under
the 24 renamings. Its weight is the number of hands it stands for (24 over the
renamings that leave it unchanged); the weights add up to C(52, 5) = 2,598,960.

**Throws.** Throw ``t`` of a hand keeps the other cards (:data:`THROWS`, :data:`KEEPS`;
:data:`THROWS_ONE`, :data:`KEEPS_ONE`: positions in the sorted hand). The means are
summed exactly by :mod:`crib_analyze.table.class_numbers`: the kept hand over the 47
starters, the random crib over every completion (C(47, 2) x 45 = 48,645 of two thrown,
C(47, 3) x 44 = 713,460 of one).
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np

from crib_analyze.jit import njit
from crib_analyze.sorting_kernels import sort_small

UNSEEN = 47
COMPLETIONS = UNSEEN * (UNSEEN - 1) // 2 * (UNSEEN - 2)  # 48,645
THROWS = np.array(list(combinations(range(5), 2)), np.int64)  # (10, 2)
KEEPS = np.array([[i for i in range(5) if i not in t] for t in THROWS], np.int64)  # (10, 3)
PERMS = np.array(list(permutations(range(4))), np.int64)  # the 24 renamings of the suits


@njit
def _renamed(hand: np.ndarray, perm: np.ndarray, out: np.ndarray) -> None:
    """``hand`` with suit s renamed ``perm[s]``, sorted, into ``out``."""
    for i in range(5):
        out[i] = (hand[i] & ~3) | perm[hand[i] & 3]
    sort_small(out)


@njit
def _less(a: np.ndarray, b: np.ndarray) -> int:
    """-1, 0, 1: ``a`` before, equal to, after ``b`` (lexicographic)."""
    for i in range(5):
        if a[i] != b[i]:
            return -1 if a[i] < b[i] else 1
    return 0


@njit
def five_card_classes(
    perms: np.ndarray, a_lo: int = 0, a_hi: int = 52
) -> tuple[np.ndarray, np.ndarray]:
    """(cards (C, 5) sorted card ids, weight (C,)): every class whose least card is
    ``a_lo`` to ``a_hi - 1`` (all of them by default), in lexicographic order."""
    cards = np.empty((140_000, 5), np.int64)
    weight = np.empty(140_000, np.int64)
    hand = np.empty(5, np.int64)
    other = np.empty(5, np.int64)
    n = 0
    for a in range(a_lo, a_hi):
        for b in range(a + 1, 52):
            for c in range(b + 1, 52):
                for d in range(c + 1, 52):
                    for e in range(d + 1, 52):
                        hand[0], hand[1], hand[2], hand[3], hand[4] = a, b, c, d, e
                        least, same = True, 0
                        for p in range(perms.shape[0]):
                            _renamed(hand, perms[p], other)
                            order = _less(other, hand)
                            if order < 0:
                                least = False
                                break
                            if order == 0:
                                same += 1
                        if least:
                            cards[n] = hand
                            weight[n] = perms.shape[0] // same
                            n += 1
    return cards[:n].copy(), weight[:n].copy()


#: the games where a seat is dealt five and throws one (five-dealt, three, four, five):
#: throw t is the card at position t of the sorted hand, the other four kept
THROWS_ONE = np.arange(5, dtype=np.int64).reshape(5, 1)
KEEPS_ONE = np.array([[i for i in range(5) if i != t] for t in range(5)], np.int64)  # (5, 4)
#: the crib of a throw of one: the card thrown, three of the 47 unseen and a starter
#: from the other 44, every one of the C(47, 3) x 44 completions alike
COMPLETIONS_ONE = UNSEEN * (UNSEEN - 1) * (UNSEEN - 2) // 6 * (UNSEEN - 3)  # 713,460
