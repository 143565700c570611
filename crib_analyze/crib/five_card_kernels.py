"""numba kernels for the table of the old five-card game: every suit-distinct five-card
hand, each of its ten throws of two, the kept three's mean show and the random crib's.

**Classes.** Two hands that differ only by a renaming of the suits score alike, so the
table holds one hand of each class: the one whose sorted card ids are the least under
the 24 renamings. Its weight is the number of hands it stands for (24 over the
renamings that leave it unchanged); the weights add up to C(52, 5) = 2,598,960.

**Means, exact.** Throw ``t`` of a hand keeps the other three (:data:`THROWS`,
:data:`KEEPS`: positions in the sorted hand). The kept hand's mean is its show summed
over the 47 starters (``hand_num / 47``). The crib is the two thrown cards, two of the
47 unseen cards and a starter from the other 45, every one of the C(47, 2) x 45 =
48,645 completions alike (the random opponent): its rank points are summed over the
unseen rank counts, flush and nobs in closed form (``crib_num / 48,645``).
"""

from __future__ import annotations

from itertools import combinations, permutations

import numpy as np
from numba import prange

from crib_analyze.constants import JACK_RANK, NOBS_POINTS
from crib_analyze.jit import njit
from crib_analyze.scoring.any_hand_kernels import show_points
from crib_analyze.scoring.show_kernels import lookup_rank_points
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


@njit
def crib_numerator(table: np.ndarray, d0: int, d1: int, hand: np.ndarray) -> int:
    """The crib's show with thrown ``d0, d1`` summed over the 48,645 completions, the
    other cards of ``hand`` (five card ids, the thrown among them) unseen to nobody."""
    n_rank = np.full(13, 4, np.int64)
    n_suit = np.full(4, 13, np.int64)
    for c in hand:
        n_rank[c >> 2] -= 1
        n_suit[c & 3] -= 1
    x, y = d0 >> 2, d1 >> 2
    total = 0
    for a in range(13):  # the two unseen cards' ranks a <= b, the starter's c
        na = n_rank[a]
        if na == 0:
            continue
        for b in range(a, 13):
            w = na * (na - 1) // 2 if a == b else na * n_rank[b]
            if w == 0:
                continue
            for c in range(13):
                m = n_rank[c] - (c == a) - (c == b)
                if m > 0:
                    total += w * m * lookup_rank_points(table, x, y, a, b, c)
    s = d0 & 3
    if (d1 & 3) == s:  # a flush of five: both unseen cards and the starter of the suit
        ns = n_suit[s]
        total += 5 * (ns * (ns - 1) // 2) * (ns - 2)
    for d in (d0, d1):  # a thrown jack with a starter of its suit
        if d >> 2 == JACK_RANK:
            ns = n_suit[d & 3]
            total += NOBS_POINTS * ns * (UNSEEN - 1) * (UNSEEN - 2) // 2
    for s in range(4):  # an unseen jack in the crib, the starter of its suit
        jack = JACK_RANK * 4 + s
        held = False
        for c in hand:
            held |= c == jack
        if not held:
            total += NOBS_POINTS * (UNSEEN - 2) * (n_suit[s] - 1)
    return total


@njit(parallel=True)
def five_card_means(
    cards: np.ndarray, table: np.ndarray, throws: np.ndarray, keeps: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each class and throw: (hand_num (C, 10), crib_num (C, 10), jacks (C,)): the
    kept three's show summed over the 47 starters, the crib's over the 48,645
    completions, and the unseen jacks (the dealer's heels: 2 x jacks / 47)."""
    n = cards.shape[0]
    hand_num = np.zeros((n, throws.shape[0]), np.int64)
    crib_num = np.zeros((n, throws.shape[0]), np.int64)
    jacks = np.zeros(n, np.int64)
    for i in prange(n):
        hand = cards[i]
        held = np.zeros(52, np.bool_)
        for c in hand:
            held[c] = True
        kept = np.empty(3, np.int64)
        for t in range(throws.shape[0]):
            for j in range(3):
                kept[j] = hand[keeps[t, j]]
            total = 0
            for s in range(52):
                if not held[s]:
                    total += show_points(kept, 3, s, False)
            hand_num[i, t] = total
            crib_num[i, t] = crib_numerator(table, hand[throws[t, 0]], hand[throws[t, 1]], hand)
        for s in range(4):
            jacks[i] += not held[JACK_RANK * 4 + s]
    return hand_num, crib_num, jacks


#: the games where a seat is dealt five and throws one (five-dealt, three, four, five):
#: throw t is the card at position t of the sorted hand, the other four kept
THROWS_ONE = np.arange(5, dtype=np.int64).reshape(5, 1)
KEEPS_ONE = np.array([[i for i in range(5) if i != t] for t in range(5)], np.int64)  # (5, 4)
#: the crib of a throw of one: the card thrown, three of the 47 unseen and a starter
#: from the other 44, every one of the C(47, 3) x 44 completions alike
COMPLETIONS_ONE = UNSEEN * (UNSEEN - 1) * (UNSEEN - 2) // 6 * (UNSEEN - 3)  # 713,460


@njit
def crib_numerator_one(table: np.ndarray, d0: int, hand: np.ndarray) -> int:
    """The crib's show with ``d0`` thrown summed over the :data:`COMPLETIONS_ONE`
    completions, the other cards of ``hand`` (five card ids, ``d0`` among them) seen."""
    n_rank = np.full(13, 4, np.int64)
    n_suit = np.full(4, 13, np.int64)
    for c in hand:
        n_rank[c >> 2] -= 1
        n_suit[c & 3] -= 1
    x = d0 >> 2
    total = 0
    for a in range(13):  # the three unseen cards' ranks a <= b <= c, the starter's e
        for b in range(a, 13):
            for c in range(b, 13):
                if a == b == c:
                    n = n_rank[a]
                    w = n * (n - 1) * (n - 2) // 6
                elif a == b:
                    w = n_rank[a] * (n_rank[a] - 1) // 2 * n_rank[c]
                elif b == c:
                    w = n_rank[a] * (n_rank[b] * (n_rank[b] - 1) // 2)
                else:
                    w = n_rank[a] * n_rank[b] * n_rank[c]
                if w == 0:
                    continue
                for e in range(13):
                    m = n_rank[e] - (e == a) - (e == b) - (e == c)
                    if m > 0:
                        total += w * m * lookup_rank_points(table, x, a, b, c, e)
    s = d0 & 3
    ns = n_suit[s]  # a flush of five: the three unseen cards and the starter of its suit
    total += 5 * (ns * (ns - 1) * (ns - 2) // 6) * (ns - 3)
    triples = (UNSEEN - 1) * (UNSEEN - 2) * (UNSEEN - 3) // 6  # beside a given starter
    if x == JACK_RANK:  # the thrown jack, a starter of its suit
        total += NOBS_POINTS * ns * triples
    pairs = (UNSEEN - 2) * (UNSEEN - 3) // 2  # the other two beside an unseen jack
    for t in range(4):  # an unseen jack among the three, the starter of its suit
        jack = JACK_RANK * 4 + t
        held = False
        for c in hand:
            held |= c == jack
        if not held:
            total += NOBS_POINTS * (n_suit[t] - 1) * pairs
    return int(total)


@njit(parallel=True)
def throw_one_means(cards: np.ndarray, table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each class (five sorted card ids) and throw of one: (hand_num (C, 5), crib_num
    (C, 5)): the kept four's show summed over the 47 starters, the crib's over the
    :data:`COMPLETIONS_ONE` completions (:func:`five_card_means` gives the jacks)."""
    n = cards.shape[0]
    hand_num = np.zeros((n, 5), np.int64)
    crib_num = np.zeros((n, 5), np.int64)
    for i in prange(n):
        hand = cards[i]
        held = np.zeros(52, np.bool_)
        for c in hand:
            held[c] = True
        kept = np.empty(4, np.int64)
        for t in range(5):
            for j in range(4):
                kept[j] = hand[KEEPS_ONE[t, j]]
            total = 0
            for s in range(52):
                if not held[s]:
                    total += show_points(kept, 4, s, False)
            hand_num[i, t] = total
            crib_num[i, t] = crib_numerator_one(table, hand[t], hand)
    return hand_num, crib_num
