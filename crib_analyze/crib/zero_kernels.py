"""numba kernels for the chance of a show of nothing, for every suit class of the table.

A show scores nothing only if its five ranks are distinct and make no fifteen or run,
with no flush and no nobs. So the rank part is a test of five distinct ranks (the rank
table), and the suits enter in closed form:

- the kept hand over the 46 starters: nothing if its four cards are one suit (a flush);
  a kept jack loses every starter of its suit (nobs);
- the random crib (the two thrown cards, a pair of the 46 unseen cards, a starter of
  the other 44; 45,540 completions alike): a five-card flush needs the thrown pair
  suited; nobs needs a jack among the four crib cards, the thrown one or the
  opponent's, with the starter of its suit. A completion with a jack that is a flush
  has nobs too, so: zero = rank-zero - (nobs if a jack is in the crib, else flush).

Counts stay integers: starters over 46, completions over 45,540 (the twin that deals
every starter and completion is in tests/naive.py).

The expert opponent's crib (:func:`policy_crib_zero`) has the same form with weights:
its throw of one particular card pair of ranks a < b weighs ``suited[a, b]`` or
``offsuit[a, b]``, and then one particular starter of rank c ``q[a, b, c]`` (the pieces
of :mod:`crib_analyze.crib.combine_kernels`, whose explicit joint the tests sum).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIVE_RANK, JACK_RANK
from crib_analyze.crib.combine_kernels import card_pair_masses, choose
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS, N_DISCARDS, unseen_counts
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import lookup_rank_points


@njit
def unseen_grid(held: np.ndarray) -> np.ndarray:
    """(13, 4) 1 where the card of that rank and suit is not among ``held``."""
    avail = np.ones((13, 4), np.int64)
    for c in held:
        avail[c >> 2, c & 3] = 0
    return avail


@njit
def hand_zero_count(table: np.ndarray, keep: np.ndarray, avail: np.ndarray) -> int:
    """How many of the unseen starters leave the four ``keep`` cards scoring nothing
    (``avail[r, s]``: card of rank r, suit s unseen)."""
    held = np.zeros(13, np.int64)
    for c in keep:
        held[c >> 2] += 1
    if held.max() > 1:
        return 0  # a pair
    r0, r1, r2, r3 = keep[0] >> 2, keep[1] >> 2, keep[2] >> 2, keep[3] >> 2
    s0 = keep[0] & 3
    if s0 == keep[1] & 3 and s0 == keep[2] & 3 and s0 == keep[3] & 3:
        return 0  # a four-card flush
    jack_suit = -1
    for c in keep:
        if c >> 2 == JACK_RANK:
            jack_suit = c & 3
    count = 0
    for rs in range(13):
        if held[rs] or lookup_rank_points(table, r0, r1, r2, r3, rs) != 0:
            continue
        for s in range(4):
            if avail[rs, s] and s != jack_suit:
                count += 1
    return count


#: the random opponent's weights in :func:`policy_crib_zero`: every card pair and
#: starter counts once, so the chance is a count of completions (and the weights of a
#: card pair when only its starter's weight varies: throw fives)
EVERY_PAIR = np.ones((13, 13), np.float64)
_EVERY_STARTER = np.ones((13, 13, 13), np.float64)


@njit
def crib_zero_count(table: np.ndarray, t0: int, t1: int, avail: np.ndarray) -> int:
    """How many of the random completions of the thrown ``t0``, ``t1`` (an unseen pair,
    then a starter of the rest: 45,540 for six cards held) make a crib of nothing."""
    weighed = policy_crib_zero(table, t0, t1, avail, EVERY_PAIR, EVERY_PAIR, _EVERY_STARTER)
    return round(weighed)


@njit(parallel=True)
def class_zero_counts(table: np.ndarray, cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(n, 15) each: for each six-card hand (a row of ``cards``) and throw (the order
    of :data:`~crib_analyze.crib.hand_kernels.DISCARDS`), the starters of 46 that leave
    the kept hand scoring nothing, and the random crib's completions of 45,540 that
    score nothing."""
    n = cards.shape[0]
    hand = np.zeros((n, N_DISCARDS), np.int64)
    crib = np.zeros((n, N_DISCARDS), np.int64)
    for i in prange(n):
        avail = unseen_grid(cards[i])
        keep = np.empty(4, np.int64)
        for d in range(N_DISCARDS):
            for j in range(4):
                keep[j] = cards[i, KEEPS[d, j]]
            hand[i, d] = hand_zero_count(table, keep, avail)
            crib[i, d] = crib_zero_count(
                table, cards[i, DISCARDS[d, 0]], cards[i, DISCARDS[d, 1]], avail
            )
    return hand, crib


@njit
def policy_crib_zero(
    table: np.ndarray,
    t0: int,
    t1: int,
    avail: np.ndarray,
    suited: np.ndarray,
    offsuit: np.ndarray,
    q: np.ndarray,
) -> float:
    """The chance the crib of the thrown ``t0``, ``t1`` scores nothing when the opponent
    throws a suited (offsuit) card pair of ranks a < b with weight ``suited[a, b]``
    (``offsuit[a, b]``) each and the starter is one card of rank c with ``q[a, b, c]``."""
    r0, r1 = t0 >> 2, t1 >> 2
    if r0 == r1:
        return 0.0
    n = np.zeros(13, np.int64)
    for r in range(13):
        for s in range(4):
            n[r] += avail[r, s]
    flush_suit = t0 & 3 if (t0 & 3) == (t1 & 3) else -1
    thrown_jack = -1
    if r0 == JACK_RANK:
        thrown_jack = t0 & 3
    elif r1 == JACK_RANK:
        thrown_jack = t1 & 3
    used = np.zeros(13, np.bool_)
    used[r0] = used[r1] = True
    total = 0.0
    for a in range(13):
        if used[a]:
            continue
        for b in range(a + 1, 13):
            if used[b]:
                continue
            same = 0  # the suited pairs left of ranks a, b
            for s in range(4):
                same += avail[a, s] * avail[b, s]
            pairs = suited[a, b] * same + offsuit[a, b] * (n[a] * n[b] - same)
            for c in range(13):
                if used[c] or c in (a, b) or q[a, b, c] == 0.0:
                    continue
                if lookup_rank_points(table, r0, r1, a, b, c) != 0:
                    continue
                if thrown_jack >= 0:  # nobs: a starter of the thrown jack's suit
                    kept = pairs * (n[c] - avail[c, thrown_jack])
                elif a == JACK_RANK or b == JACK_RANK:  # the opponent's jack
                    other = b if a == JACK_RANK else a
                    nobs = 0.0
                    for s in range(4):
                        if avail[JACK_RANK, s] and avail[c, s]:
                            with_jack = avail[other, s] * suited[a, b]
                            nobs += with_jack + (n[other] - avail[other, s]) * offsuit[a, b]
                    kept = pairs * n[c] - nobs
                else:
                    kept = pairs * n[c]
                    if flush_suit >= 0:
                        kept -= (
                            suited[a, b] * avail[a, flush_suit] * avail[b, flush_suit]
                            * avail[c, flush_suit]
                        )  # fmt: skip
                total += q[a, b, c] * kept
    return total


@njit(parallel=True)
def classes_policy_crib_zero(
    table: np.ndarray,
    cards: np.ndarray,
    group: np.ndarray,
    pab: np.ndarray,
    q: np.ndarray,
    F: np.ndarray,
) -> np.ndarray:
    """(n, 15): for each six-card hand and throw, the chance the crib scores nothing
    under an opponent policy given per rank multiset ``group[i]`` by its rank pair
    probabilities ``pab[g]``, starter parts ``q[g]`` and suited shares ``F[g]`` (the
    pieces of :func:`crib_analyze.crib.combine_kernels.rank_pair_parts`)."""
    n = cards.shape[0]
    out = np.zeros((n, N_DISCARDS), np.float64)
    for i in prange(n):
        n_rank, _, seen = unseen_counts(cards[i])
        g = group[i]
        suited, offsuit = card_pair_masses(pab[g], F[g], seen, n_rank)
        avail = unseen_grid(cards[i])
        for d in range(N_DISCARDS):
            out[i, d] = policy_crib_zero(
                table, cards[i, DISCARDS[d, 0]], cards[i, DISCARDS[d, 1]], avail,
                suited, offsuit, q[g],
            )  # fmt: skip
    return out


# --- the tables of five-card hands (crib_analyze.table.five_card) ----------------------


#: the random seats' weights in :func:`fives_one_zero`: every set and starter counts once
_EVERY_SET = np.ones((4, 2), np.float64)


@njit
def crib_one_zero_count(table: np.ndarray, t: int, avail: np.ndarray) -> int:
    """How many completions of the one card ``t`` thrown (three of the unseen cards,
    then a starter of the rest) make a crib of nothing: of C(47, 3) x 44 for a seat
    dealt five."""
    return round(fives_one_zero(table, t, avail, _EVERY_SET))


@njit
def fives_one_zero(table: np.ndarray, t: int, avail: np.ndarray, w: np.ndarray) -> float:
    """The completions of the one card ``t`` thrown that make a crib of nothing, each set
    of three holding j fives with a starter (s 1: a five) weighing ``w[j, s]`` (the
    chance of nothing when ``w`` is the chance of each; their count when it is 1)."""
    rt, st = t >> 2, t & 3
    n = np.zeros(13, np.int64)
    for r in range(13):
        for s in range(4):
            n[r] += avail[r, s]
    thrown_jack = st if rt == JACK_RANK else -1
    total = 0.0
    for rx in range(13):
        if rx == rt:
            continue
        for ry in range(rx + 1, 13):
            if ry == rt:
                continue
            for rz in range(ry + 1, 13):
                if rz == rt:
                    continue
                trip = n[rx] * n[ry] * n[rz]
                j = (rx == FIVE_RANK) + (ry == FIVE_RANK) + (rz == FIVE_RANK)
                for rs in range(13):
                    if rs in (rt, rx, ry, rz):
                        continue
                    if lookup_rank_points(table, rt, rx, ry, rz, rs) != 0:
                        continue
                    if thrown_jack >= 0:  # nobs: a starter of the thrown jack's suit
                        count = trip * (n[rs] - avail[rs, thrown_jack])
                    elif JACK_RANK in (rx, ry, rz):  # another seat's jack
                        rest = trip // n[JACK_RANK] if n[JACK_RANK] else 0
                        nobs = 0
                        for s in range(4):
                            nobs += avail[JACK_RANK, s] * avail[rs, s]
                        count = trip * n[rs] - rest * nobs
                    else:  # a flush of five in the thrown card's suit
                        flush = avail[rx, st] * avail[ry, st] * avail[rz, st] * avail[rs, st]
                        count = trip * n[rs] - flush
                    total += count * w[j, 1 if rs == FIVE_RANK else 0]
    return total


# --- the standard table under throw fives (crib_analyze.table.compute) -----------------


@njit
def throw_fives_weights(hand6: np.ndarray) -> np.ndarray:
    """(3, 2) the chance of one particular opponent throw and starter under throw fives
    (the random opponent obeying the rule), by how many fives the throw holds and
    whether the starter is a five: the entries of
    :func:`crib_analyze.crib.combine_kernels.throw_fives_pair_starter`, which take only
    these six values."""
    f = 4  # unseen fives
    for c in hand6:
        f -= c >> 2 == FIVE_RANK
    n = 46 - f  # unseen cards that are not fives
    hands = choose(46, 6)
    out = np.zeros((3, 2), np.float64)
    for five_s in range(2):
        both = 0.0
        for k in range(2, 7):  # its fives: the two thrown and k - 2 others
            both += (
                choose(f - 2 - five_s, k - 2) * choose(n - (1 - five_s), 6 - k)
                / (k * (k - 1) / 2)
            )  # fmt: skip
        out[2, five_s] = both / hands / 40.0
        out[1, five_s] = choose(n - 1 - (1 - five_s), 4) / 5.0 / hands / 40.0
        out[0, five_s] = choose(n - 2 - (1 - five_s), 4) / 15.0 / hands / 40.0
    return out


@njit
def _pair_weight(w: np.ndarray, fives: int, plain: int, five_s: int) -> float:
    """The weight of every opponent pair drawn from ``fives`` unseen fives and ``plain``
    other cards, with a starter that is (``five_s`` 1) or is not a five."""
    both: float = fives * (fives - 1) // 2 * w[2, five_s]
    one: float = fives * plain * w[1, five_s]
    none: float = plain * (plain - 1) // 2 * w[0, five_s]
    return both + one + none


@njit
def throw_fives_crib_mean(
    table: np.ndarray, t0: int, t1: int, avail: np.ndarray, w: np.ndarray
) -> float:
    """The mean crib of the thrown ``t0``, ``t1`` when the random opponent obeys throw
    fives: ``w`` (:func:`throw_fives_weights`) weighs each opponent pair and starter by
    how many fives the pair holds and whether the starter is one. Ranks, then the flush
    of five and nobs in closed form."""
    n = np.zeros(13, np.int64)
    for r in range(13):
        for s in range(4):
            n[r] += avail[r, s]
    ranks = fives_pair_rank_sum(table, n, t0 >> 2, t1 >> 2, w)
    return ranks + fives_pair_suit_sum(t0, t1, avail, w)


@njit
def fives_pair_rank_sum(table: np.ndarray, n: np.ndarray, r0: int, r1: int, w: np.ndarray) -> float:
    """The rank part of :func:`throw_fives_crib_mean` (fifteens, pairs, runs) of thrown
    ranks ``r0``, ``r1``: it depends only on the unseen cards' rank counts ``n``."""
    total = 0.0
    for rx in range(13):  # the rank part: each opponent rank pair and starter rank
        for ry in range(rx, 13):
            pairs = n[rx] * n[ry] if rx != ry else n[rx] * (n[rx] - 1) // 2
            if pairs == 0:
                continue
            fives = (rx == FIVE_RANK) + (ry == FIVE_RANK)
            for rs in range(13):
                left = n[rs] - (rs == rx) - (rs == ry)
                if left <= 0:
                    continue
                points = lookup_rank_points(table, r0, r1, rx, ry, rs)
                if points:
                    total += points * pairs * left * w[fives, 1 if rs == FIVE_RANK else 0]
    return total


@njit
def fives_pair_suit_sum(t0: int, t1: int, avail: np.ndarray, w: np.ndarray) -> float:
    """The flush of five and nobs of :func:`throw_fives_crib_mean`, in closed form."""
    total = 0.0
    if (t0 & 3) == (t1 & 3):  # a flush of five: the pair and the starter of that suit
        suit = t0 & 3
        for rx in range(13):
            if not avail[rx, suit]:
                continue
            for ry in range(rx + 1, 13):
                if not avail[ry, suit]:
                    continue
                fives = (rx == FIVE_RANK) + (ry == FIVE_RANK)
                for rs in range(13):
                    if avail[rs, suit] and rs != rx and rs != ry:
                        total += 5 * w[fives, 1 if rs == FIVE_RANK else 0]
    n_fives = 0
    n_all = 0
    for r in range(13):
        for s in range(4):
            n_all += avail[r, s]
            if r == FIVE_RANK:
                n_fives += avail[r, s]
    n_plain = n_all - n_fives
    for t in (t0, t1):  # nobs for a thrown jack: a starter of its suit, any pair
        if t >> 2 != JACK_RANK:
            continue
        for rs in range(13):
            if avail[rs, t & 3]:
                five_s = 1 if rs == FIVE_RANK else 0
                total += _pair_weight(w, n_fives - five_s, n_plain - (1 - five_s), five_s)
    for suit in range(4):  # nobs for the opponent's jack: a starter of its suit
        if not avail[JACK_RANK, suit]:
            continue
        for rs in range(13):
            if rs == JACK_RANK or not avail[rs, suit]:
                continue
            five_s = 1 if rs == FIVE_RANK else 0
            fives = n_fives - five_s  # the other card: a five or not, but not these two
            plain = n_plain - 1 - (1 - five_s)
            total += fives * w[1, five_s] + plain * w[0, five_s]
    return total


@njit
def throw_fives_starter_weights(w: np.ndarray) -> np.ndarray:
    """(13, 13, 13) ``w`` as :func:`policy_crib_zero`'s starter weights: one opponent
    pair of ranks a, b (every card pair counted once) with one starter of rank c."""
    q = np.zeros((13, 13, 13), np.float64)
    for a in range(13):
        for b in range(13):
            fives = (a == FIVE_RANK) + (b == FIVE_RANK)
            for c in range(13):
                q[a, b, c] = w[fives, 1 if c == FIVE_RANK else 0]
    return q


@njit(parallel=True)
def classes_throw_fives_cribs(
    table: np.ndarray, cards: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(n, 15) each: the mean crib of every throw of every six-card hand, and the chance
    it scores nothing, when the random opponent obeys the throw fives rule too (its
    pair and starter weighed by :func:`throw_fives_weights`), in closed form."""
    n = cards.shape[0]
    mean = np.zeros((n, N_DISCARDS), np.float64)
    zero = np.zeros((n, N_DISCARDS), np.float64)
    for i in prange(n):
        w = throw_fives_weights(cards[i])
        q = throw_fives_starter_weights(w)
        avail = unseen_grid(cards[i])
        for d in range(N_DISCARDS):
            t0, t1 = cards[i, DISCARDS[d, 0]], cards[i, DISCARDS[d, 1]]
            mean[i, d] = throw_fives_crib_mean(table, t0, t1, avail, w)
            zero[i, d] = policy_crib_zero(table, t0, t1, avail, EVERY_PAIR, EVERY_PAIR, q)
    return mean, zero
