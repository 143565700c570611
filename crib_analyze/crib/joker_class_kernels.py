"""numba kernels for the discard table of a pack with jokers: every class's throws,
exact, against the random opponent, without counting a single show card by card.

A joker is fully wild: the holder of the show gives it the rank and suit that count
most. Its rank and its suit are chosen together, but they meet in one place only:

* **Ranks** (fifteens, pairs, runs) are the best over the jokers' ranks:
  ``free`` below, read from a table of every five symbols (13 ranks and the joker).
* **The flush** takes every joker into the suit of the real cards whenever they share
  one, whatever its rank: the crib's five-card flush holds if the real cards of the
  five share a suit; a hand's four-card flush if its real kept cards do (and the fifth
  point if the starter is of that suit or a joker).
* **Nobs** is where rank and suit meet: a real jack in the hand of the starter's suit
  (or a real jack and a joker cut, which takes the jack's suit) scores it whatever the
  jokers are; otherwise a joker in the hand scores it only as a jack of the starter's
  suit, which pays when the jack's ranks lose less than the point it makes
  (``gain`` below: 1 when ``free`` with a hand joker made a jack, plus one, beats
  ``free``). In a hand with a four-card flush a joker made a jack of another suit than
  the starter's would break the flush (4 points for 1), so there it never pays.

So a show is ``free + 5 flush + nobs`` with ``nobs = 1`` if a real jack matches,
else ``gain`` if a joker is in the hand. The crib's sum over its completions is then
a sum over ranks (``free + gain`` weighted by the unseen counts, once per rank
multiset), a closed form for the flush and for the matching jacks, less the
completions where a real jack matches *and* ``gain`` would have paid (a short list:
the hand must hold a joker and a real jack). The kept hand is summed starter by
starter. Cards are ids 0-51 and jokers ids 52 and 53; the joker's symbol among the
ranks is :data:`JOKER_SYMBOL`.

**Throw fives.** When the other seats obey the rule, one set of the crib's other cards
with one starter has a chance ``w[j, s]`` that depends only on the fives they hold (j
in the set, s 1 for a five cut; a joker is no five:
:func:`~crib_analyze.crib.throw_fives_rule.seat_fives_weights`). Every sum above then
weighs each completion by it: the rank part by the symbols' fives, the closed forms
split by the unseen fives of each suit (:func:`_sets`, :func:`_flush_sum`). With every
weight 1 (:data:`EVERY_COMPLETION`) the sums are the counts of the plain rules, so one
set of kernels serves both, on the plain pack and with jokers.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER, FIVE_RANK, JACK_RANK
from crib_analyze.crib.zero_kernels import (
    EVERY_PAIR,
    crib_one_zero_count,
    crib_zero_count,
    fives_one_zero,
    hand_zero_count,
    policy_crib_zero,
    throw_fives_starter_weights,
    unseen_grid,
)
from crib_analyze.jit import njit
from crib_analyze.scoring.any_hand_kernels import wild_show_points
from crib_analyze.scoring.show_kernels import lookup_rank_points

JOKER_SYMBOL = 13  # a joker among the ranks (A = 0 ... K = 12)
N_SYMBOLS = 14
N_KEYS = N_SYMBOLS**5
#: the weights (held fives, fives among the crib's others, starter a five) that count
#: every completion once: the random opponent of the plain rules
EVERY_COMPLETION = np.ones((5, 5, 2))


@njit(inline="always")
def symbol_key(a: int, b: int, c: int, d: int, starter: int) -> int:
    """The index of four hand symbols and the starter's in the tables of
    :func:`joker_rank_tables` (order matters only for the starter)."""
    return (((a * N_SYMBOLS + b) * N_SYMBOLS + c) * N_SYMBOLS + d) * N_SYMBOLS + starter


@njit(inline="always")
def symbol_of(card: int) -> int:
    """A card's rank, or :data:`JOKER_SYMBOL` for a joker."""
    return JOKER_SYMBOL if card >= FIRST_JOKER else card >> 2


@njit
def five_of_a_rank(rank: int) -> int:
    """Rank points of five cards of one rank (jokers made that rank): ten pairs, and
    the fifteens of three fives or of five threes."""
    value = min(rank + 1, 10)
    fifteens = 0
    for k, ways in ((2, 10), (3, 10), (4, 5), (5, 1)):  # k of the five: C(5, k) ways
        if k * value == 15:
            fifteens += ways
    return 20 + 2 * fifteens


@njit
def joker_rank_tables(table: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(free, gain), each (14^5,) by :func:`symbol_key`: the most rank points (fifteens,
    pairs, runs) over the jokers' ranks, and 1 where a joker in the hand (not the
    starter) made a jack scores more with the nobs point than ``free`` (0 elsewhere).
    Keys with more than two jokers are left 0."""
    free = np.zeros(N_KEYS, np.int16)
    gain = np.zeros(N_KEYS, np.int8)
    sym = np.empty(5, np.int64)
    r = np.empty(5, np.int64)
    where = np.empty(2, np.int64)
    for key in range(N_KEYS):
        k = key
        for i in range(4, -1, -1):
            sym[i] = k % N_SYMBOLS
            k //= N_SYMBOLS
        n = 0
        for i in range(5):
            if sym[i] == JOKER_SYMBOL:
                if n < 2:
                    where[n] = i
                n += 1
        if n > 2:
            continue
        in_hand = n >= 1 and where[0] < 4
        best, best_jack = -1, -1
        for a in range(13 if n >= 1 else 1):
            for b in range(13 if n >= 2 else 1):
                r[:] = sym
                if n >= 1:
                    r[where[0]] = a
                if n >= 2:
                    r[where[1]] = b
                if r[0] == r[1] == r[2] == r[3] == r[4]:  # five of a rank: not in ``table``
                    p = five_of_a_rank(r[0])
                else:
                    p = lookup_rank_points(table, r[0], r[1], r[2], r[3], r[4])
                best = max(best, p)
                jack = (n >= 1 and where[0] < 4 and a == JACK_RANK) or (
                    n >= 2 and where[1] < 4 and b == JACK_RANK
                )
                if jack:
                    best_jack = max(best_jack, p)
        free[key] = best
        gain[key] = 1 if in_hand and best_jack + 1 > best else 0
    return free, gain


@njit
def _unseen_of(hand6: np.ndarray, jokers: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(unseen card ids, symbol counts (14,), real unseen cards by suit (4,)) of a hand
    from a pack with ``jokers`` jokers."""
    size = 52 + jokers
    held = np.zeros(size, np.bool_)
    for c in hand6:
        held[c] = True
    unseen = np.flatnonzero(~held)
    n_sym = np.zeros(N_SYMBOLS, np.int64)
    n_suit = np.zeros(4, np.int64)
    for c in unseen:
        n_sym[symbol_of(int(c))] += 1
        if c < FIRST_JOKER:
            n_suit[c & 3] += 1
    return unseen, n_sym, n_suit


@njit
def crib_symbol_sum(
    free: np.ndarray, gain: np.ndarray, n_sym: np.ndarray, x: int, y: int, w: np.ndarray
) -> float:
    """``free + gain`` of a crib of thrown symbols ``x, y`` summed over every (opponent
    pair, starter) of the unseen symbol counts ``n_sym``, each weighing ``w[j, s]`` (j
    fives in the pair, s 1 when the starter is a five: :data:`EVERY_COMPLETION` counts
    them)."""
    total = 0.0
    for a in range(N_SYMBOLS):
        na = n_sym[a]
        if na == 0:
            continue
        for b in range(a, N_SYMBOLS):
            pairs = na * (na - 1) // 2 if a == b else na * n_sym[b]
            if pairs == 0:
                continue
            j = (a == FIVE_RANK) + (b == FIVE_RANK)
            for c in range(N_SYMBOLS):
                m = n_sym[c] - (c == a) - (c == b)
                if m > 0:
                    key = symbol_key(x, y, a, b, c)
                    total += pairs * m * (free[key] + gain[key]) * w[j, 1 if c == FIVE_RANK else 0]
    return total


@njit(inline="always")
def _pairs(n: int) -> int:
    return n * (n - 1) // 2 if n >= 2 else 0


@njit
def _jokers_and_jacks(unseen: np.ndarray) -> tuple[int, int]:
    """(jokers, real jacks) among ``unseen``."""
    j, jacks = 0, 0
    for c in unseen:
        if c >= FIRST_JOKER:
            j += 1
        elif c >> 2 == JACK_RANK:
            jacks += 1
    return j, jacks


@njit(inline="always")
def _choose(n: int, k: int) -> int:
    """C(n, k), 0 when n < k."""
    if n < k or k < 0:
        return 0
    out = 1
    for i in range(k):
        out = out * (n - i) // (i + 1)
    return out


@njit(inline="always")
def _sets(fives: int, plain: int, k: int, s: int, w: np.ndarray) -> float:
    """The weight of every set of ``k`` cards from ``fives`` fives and ``plain`` other
    cards with one starter of kind ``s`` (1 a five): the sets of j fives weigh
    ``w[j, s]`` each (C(fives + plain, k) when every weight is 1)."""
    total = 0.0
    for j in range(k + 1):
        total += _choose(fives, j) * _choose(plain, k - j) * w[j, s]
    return total


@njit
def _fives_by_suit(unseen: np.ndarray) -> tuple[np.ndarray, int]:
    """(the five of each suit unseen, 0 or 1 (4,); the unseen fives)."""
    five_in = np.zeros(4, np.int64)
    for c in unseen:
        if c < FIRST_JOKER and c >> 2 == FIVE_RANK:
            five_in[c & 3] = 1
    return five_in, int(five_in.sum())


@njit
def _flush_sum(pool_fives: int, pool_plain: int, k: int, w: np.ndarray) -> float:
    """The weight of the completions (``k`` others and a starter) drawn all from one
    suit's unseen cards and the jokers (``pool_fives`` fives, ``pool_plain`` others)."""
    total = 0.0
    for j in range(min(k, pool_fives) + 1):
        sets = _choose(pool_fives, j) * _choose(pool_plain, k - j)
        if sets:
            total += sets * ((pool_fives - j) * w[j, 1] + (pool_plain - (k - j)) * w[j, 0])
    return total


@njit
def crib_suit_sum(
    gain: np.ndarray, unseen: np.ndarray, n_suit: np.ndarray, t0: int, t1: int, w: np.ndarray
) -> float:
    """Flush and nobs of a crib of thrown ``t0, t1`` summed over every completion (each
    weighing ``w[j, s]`` as in :func:`crib_symbol_sum`), less the completions where a
    matching real jack scores nobs that ``gain`` had already paid (so the rank sum of
    :func:`crib_symbol_sum` plus this is the crib's total)."""
    u = unseen.shape[0]
    j, jacks = _jokers_and_jacks(unseen)
    five_in, fives = _fives_by_suit(unseen)
    plain = u - fives  # the jokers among them
    total = 0.0
    # flush: every real card of the five of one suit (the jokers join it)
    suit = -1
    mixed = False
    for t in (t0, t1):
        if t < FIRST_JOKER:
            if suit == -1:
                suit = t & 3
            elif suit != t & 3:
                mixed = True
    if not mixed:
        for s in range(4):
            if suit == -1 or s == suit:
                total += 5 * _flush_sum(five_in[s], n_suit[s] - five_in[s] + j, 2, w)
    # nobs by a real jack: a real starter of its suit, or a joker cut
    thrown_jack = False
    for t in (t0, t1):
        if t < FIRST_JOKER and t >> 2 == JACK_RANK:
            thrown_jack = True
            s = t & 3
            total += five_in[s] * _sets(fives - 1, plain, 2, 1, w)
            total += (n_suit[s] - five_in[s]) * _sets(fives, plain - 1, 2, 0, w)
    for c in unseen:
        if c < FIRST_JOKER and c >> 2 == JACK_RANK:  # in the opponent's pair
            s = c & 3
            total += five_in[s] * ((fives - 1) * w[1, 1] + (plain - 1) * w[0, 1])
            total += (n_suit[s] - five_in[s] - 1) * (fives * w[1, 0] + (plain - 2) * w[0, 0])
    with_jack = _sets(fives, plain - 1, 2, 0, w)  # a joker cut: the pairs of the rest
    if not thrown_jack:  # those with a real jack
        with_jack -= _sets(fives, plain - 1 - jacks, 2, 0, w)
    total += j * with_jack
    # less: a hand with a joker and a real jack, the jack matching, and ``gain`` 1
    thrown_joker = t0 >= FIRST_JOKER or t1 >= FIRST_JOKER
    for i in range(u):
        for k in range(i + 1, u):
            o1, o2 = unseen[i], unseen[k]
            has_joker = thrown_joker or o1 >= FIRST_JOKER or o2 >= FIRST_JOKER
            if not has_joker:
                continue
            suits = 0  # the suits of the real jacks of the crib's hand
            for c in (t0, t1, o1, o2):
                if c < FIRST_JOKER and c >> 2 == JACK_RANK:
                    suits |= 1 << (c & 3)
            if suits == 0:
                continue
            x, y, a, b = symbol_of(t0), symbol_of(t1), symbol_of(o1), symbol_of(o2)
            pair_fives = (a == FIVE_RANK) + (b == FIVE_RANK)
            for s in range(u):
                if s == i or s == k:  # noqa: SIM109 (numba)
                    continue
                z = unseen[s]
                if z >= FIRST_JOKER or suits >> (z & 3) & 1:
                    weight = w[pair_fives, 1 if symbol_of(z) == FIVE_RANK else 0]
                    total -= gain[symbol_key(x, y, a, b, symbol_of(z))] * weight
    return total


@njit
def hand_sum(free: np.ndarray, gain: np.ndarray, keep: np.ndarray, unseen: np.ndarray) -> int:
    """The kept four's show (jokers at their best) summed over every unseen starter."""
    suit = -1  # the real kept cards' one suit, or -2 when they have two
    jack_suits = 0
    for c in keep:
        if c < FIRST_JOKER:
            if suit == -1:
                suit = c & 3
            elif suit != c & 3:
                suit = -2
            if c >> 2 == JACK_RANK:
                jack_suits |= 1 << (c & 3)
    flush4 = suit >= 0
    a, b, c3, d = symbol_of(keep[0]), symbol_of(keep[1]), symbol_of(keep[2]), symbol_of(keep[3])
    total = 0
    for z in unseen:
        key = symbol_key(a, b, c3, d, symbol_of(z))
        points = int(free[key])
        joker_cut = z >= FIRST_JOKER
        if flush4:
            points += 4 + (joker_cut or (z & 3) == suit)
        if (jack_suits != 0 and joker_cut) or (not joker_cut and jack_suits >> (z & 3) & 1):
            points += 1
        elif not (flush4 and not joker_cut and (z & 3) != suit):
            points += int(gain[key])  # 0 without a joker in the hand
        total += points
    return total


# --- one card thrown: the seats dealt five that throw one ------------------------------------


@njit
def crib_one_symbol_sum(
    free: np.ndarray, gain: np.ndarray, n_sym: np.ndarray, x: int, w: np.ndarray
) -> float:
    """``free + gain`` of a crib of the thrown symbol ``x`` and three more cards,
    summed over every (three unseen cards, starter) of the unseen symbol counts, each
    weighing ``w[j, s]`` (j fives among the three, s 1 when the starter is a five)."""
    total = 0.0
    for a in range(N_SYMBOLS):
        for b in range(a, N_SYMBOLS):
            for c in range(b, N_SYMBOLS):
                if a == c:  # three of one symbol
                    sets = _choose(n_sym[a], 3)
                elif a == b:
                    sets = _choose(n_sym[a], 2) * n_sym[c]
                elif b == c:
                    sets = n_sym[a] * _choose(n_sym[b], 2)
                else:
                    sets = n_sym[a] * n_sym[b] * n_sym[c]
                if sets == 0:
                    continue
                j = (a == FIVE_RANK) + (b == FIVE_RANK) + (c == FIVE_RANK)
                for d in range(N_SYMBOLS):
                    m = n_sym[d] - (d == a) - (d == b) - (d == c)
                    if m > 0:
                        key = symbol_key(x, a, b, c, d)
                        weight = w[j, 1 if d == FIVE_RANK else 0]
                        total += sets * m * (free[key] + gain[key]) * weight
    return total


@njit
def _matching_gain(
    gain: np.ndarray,
    unseen: np.ndarray,
    t: int,
    a: int,
    b: int,
    c: int,
    skip: np.ndarray,
    w: np.ndarray,
) -> float:
    """``gain`` summed over the starters (unseen, not ``skip``) that a real jack of the
    crib's hand ``t, a, b, c`` matches (its suit, or a joker cut), each weighing
    ``w[j, s]`` (j fives among ``a, b, c``, s 1 when the starter is a five)."""
    suits = 0
    for card in (t, a, b, c):
        if card < FIRST_JOKER and card >> 2 == JACK_RANK:
            suits |= 1 << (card & 3)
    total = 0.0
    x, y, z, v = symbol_of(t), symbol_of(a), symbol_of(b), symbol_of(c)
    j = (y == FIVE_RANK) + (z == FIVE_RANK) + (v == FIVE_RANK)
    for s in range(unseen.shape[0]):
        if skip[s]:
            continue
        cut = unseen[s]
        if cut >= FIRST_JOKER or suits >> (cut & 3) & 1:
            weight = w[j, 1 if symbol_of(cut) == FIVE_RANK else 0]
            total += gain[symbol_key(x, y, z, v, symbol_of(cut))] * weight
    return total


@njit
def crib_one_suit_sum(
    gain: np.ndarray, unseen: np.ndarray, n_suit: np.ndarray, t: int, w: np.ndarray
) -> float:
    """Flush and nobs of a crib of the thrown ``t`` and three unseen cards summed over
    every completion (each weighing ``w[j, s]`` as in :func:`crib_one_symbol_sum`), less
    the completions where a matching real jack scores nobs that ``gain`` had already
    paid (:func:`crib_suit_sum` for one card thrown)."""
    u = unseen.shape[0]
    j, jacks = _jokers_and_jacks(unseen)
    five_in, fives = _fives_by_suit(unseen)
    plain = u - fives  # the jokers among them
    total = 0.0
    for s in range(4):  # flush: the real cards of one suit, the jokers joining it
        if t >= FIRST_JOKER or s == t & 3:
            total += 5 * _flush_sum(five_in[s], n_suit[s] - five_in[s] + j, 3, w)
    thrown_jack = t < FIRST_JOKER and t >> 2 == JACK_RANK
    if thrown_jack:  # a real starter of its suit
        s = t & 3
        total += five_in[s] * _sets(fives - 1, plain, 3, 1, w)
        total += (n_suit[s] - five_in[s]) * _sets(fives, plain - 1, 3, 0, w)
    for c in unseen:
        if c < FIRST_JOKER and c >> 2 == JACK_RANK:  # one of the three
            s = c & 3
            total += five_in[s] * _sets(fives - 1, plain - 1, 2, 1, w)
            total += (n_suit[s] - five_in[s] - 1) * _sets(fives, plain - 2, 2, 0, w)
    with_jack = _sets(fives, plain - 1, 3, 0, w)  # a joker cut: the threes of the rest
    if not thrown_jack:  # those with a real jack
        with_jack -= _sets(fives, plain - 1 - jacks, 3, 0, w)
    total += j * with_jack
    # less: a joker and a real jack among the crib's four, the jack matching, ``gain`` 1
    skip = np.zeros(u, np.bool_)
    is_joker = unseen >= FIRST_JOKER
    is_jack = (unseen < FIRST_JOKER) & (unseen >> 2 == JACK_RANK)
    if t >= FIRST_JOKER or thrown_jack:  # the three need the other kind: the least of it
        need = is_jack if t >= FIRST_JOKER else is_joker
        for i in range(u):
            if not need[i]:
                continue
            for k in range(u):
                if k == i or (need[k] and k < i):
                    continue
                for m in range(k + 1, u):
                    if m == i or (need[m] and m < i):
                        continue
                    skip[i], skip[k], skip[m] = True, True, True
                    crib = (t, unseen[i], unseen[k], unseen[m])
                    total -= _matching_gain(gain, unseen, *crib, skip, w)
                    skip[i], skip[k], skip[m] = False, False, False
        return total
    for i in range(u):  # a joker and a jack among the three: the least of each
        if not is_joker[i]:
            continue
        for k in range(u):
            if not is_jack[k]:
                continue
            for m in range(u):
                if m == i or m == k or (is_joker[m] and m < i) or (is_jack[m] and m < k):  # noqa: SIM109 (numba)
                    continue
                skip[i], skip[k], skip[m] = True, True, True
                total -= _matching_gain(gain, unseen, t, unseen[i], unseen[k], unseen[m], skip, w)
                skip[i], skip[k], skip[m] = False, False, False
    return total


# --- the drivers: every class of a table, each throw -----------------------------------------


@njit(inline="always")
def _held_fives(hand: np.ndarray) -> int:
    """The real fives of ``hand`` (a joker is none)."""
    n = 0
    for c in hand:
        n += c < FIRST_JOKER and c >> 2 == FIVE_RANK
    return n


@njit(parallel=True)
def multiset_crib_sums(
    free: np.ndarray,
    gain: np.ndarray,
    hands: np.ndarray,
    throws: np.ndarray,
    jokers: int,
    weights: np.ndarray,
) -> np.ndarray:
    """(M, T): the rank part of the random crib (:func:`crib_symbol_sum`, or
    :func:`crib_one_symbol_sum` for one card thrown) of each throw (``throws`` (T, 1 or
    2): positions) of one hand of each multiset of ranks and jokers (``hands`` (M, k)
    card ids; jokers ids >= 52): it depends on nothing else. Each completion weighs
    ``weights[h, j, s]`` (h the hand's fives; :data:`EVERY_COMPLETION` counts them)."""
    out = np.empty((hands.shape[0], throws.shape[0]), np.float64)
    for m in prange(hands.shape[0]):
        _, n_sym, _ = _unseen_of(hands[m], jokers)
        w = weights[_held_fives(hands[m])]
        for d in range(throws.shape[0]):
            x = symbol_of(hands[m, throws[d, 0]])
            if throws.shape[1] == 1:
                out[m, d] = crib_one_symbol_sum(free, gain, n_sym, x, w)
            else:
                y = symbol_of(hands[m, throws[d, 1]])
                out[m, d] = crib_symbol_sum(free, gain, n_sym, x, y, w)
    return out


@njit(parallel=True)
def joker_numerators(
    free: np.ndarray,
    gain: np.ndarray,
    cards: np.ndarray,
    multiset: np.ndarray,
    crib_ranks: np.ndarray,
    jokers: int,
    throws: np.ndarray,
    keeps: np.ndarray,
    weights: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each class (``cards`` (N, k), jokers ids >= 52; ``multiset`` its row of
    ``crib_ranks``, :func:`multiset_crib_sums`) and each throw (``throws`` (T, 1 or 2),
    ``keeps`` (T, 4 or 3): positions): (hand (N, T): the kept show summed over the
    52 + ``jokers`` - k starters (four kept by :func:`hand_sum`; the old five-card
    game's three card by card, ``wild_show_points``: a few cards, no tables needed);
    crib (N, T): the crib summed over every completion, each weighing
    ``weights[h, j, s]`` as in :func:`multiset_crib_sums`; heels (N,): the jacks and
    jokers unseen)."""
    n, nt = cards.shape[0], throws.shape[0]
    hand = np.empty((n, nt), np.int64)
    crib = np.empty((n, nt), np.float64)
    heels = np.empty(n, np.int64)
    for i in prange(n):
        unseen, n_sym, n_suit = _unseen_of(cards[i], jokers)
        w = weights[_held_fives(cards[i])]
        heels[i] = n_sym[JACK_RANK] + n_sym[JOKER_SYMBOL]
        kept = np.empty(4, np.int64)
        for t in range(nt):
            for j in range(keeps.shape[1]):
                kept[j] = cards[i, keeps[t, j]]
            if keeps.shape[1] == 4:
                hand[i, t] = hand_sum(free, gain, kept, unseen)
            else:
                total = 0
                for z in unseen:
                    total += wild_show_points(kept, keeps.shape[1], z, False)
                hand[i, t] = total
            suits = _throw_suit_sum(gain, unseen, n_suit, cards[i], throws[t], w)
            crib[i, t] = crib_ranks[multiset[i], t] + suits
    return hand, crib, heels


@njit(inline="always")
def _throw_suit_sum(
    gain: np.ndarray,
    unseen: np.ndarray,
    n_suit: np.ndarray,
    hand: np.ndarray,
    throw: np.ndarray,
    w: np.ndarray,
) -> float:
    """:func:`crib_suit_sum` of the throw at positions ``throw`` (one or two) of ``hand``."""
    t0 = hand[throw[0]]
    if throw.shape[0] == 1:
        return crib_one_suit_sum(gain, unseen, n_suit, t0, w)
    return crib_suit_sum(gain, unseen, n_suit, t0, hand[throw[1]], w)


@njit
def hand_cribs(
    gain: np.ndarray,
    hand: np.ndarray,
    crib_ranks: np.ndarray,
    jokers: int,
    throws: np.ndarray,
    weights: np.ndarray,
) -> np.ndarray:
    """(T,): the crib of each throw (``throws`` (T, 1 or 2): positions) of one hand of
    any size (``crib_ranks`` its row of :func:`multiset_crib_sums`), summed over every
    completion each weighing ``weights[h, j, s]``: the crib part of
    :func:`joker_numerators` for one hand, as ``discard`` asks it."""
    unseen, _, n_suit = _unseen_of(hand, jokers)
    w = weights[_held_fives(hand)]
    out = np.empty(throws.shape[0], np.float64)
    for t in range(throws.shape[0]):
        out[t] = crib_ranks[t] + _throw_suit_sum(gain, unseen, n_suit, hand, throws[t], w)
    return out


@njit(parallel=True)
def joker_zero_counts(
    table: np.ndarray,
    cards: np.ndarray,
    jokers: int,
    throws: np.ndarray,
    keeps: np.ndarray,
    with_crib: bool = True,
) -> tuple[np.ndarray, np.ndarray]:
    """(hand, crib), each (N, T): for each class and throw (as :func:`joker_numerators`
    takes them), the starters that leave the kept cards scoring nothing and the random
    crib's completions that score nothing. A show with a joker never scores nothing, so
    both count the real cards alone (:mod:`crib_analyze.crib.zero_kernels`; the old
    five-card game's kept three card by card). Without ``with_crib`` the crib's are left
    0 (weighed apart: :func:`joker_crib_zeros`)."""
    n, nt = cards.shape[0], throws.shape[0]
    hand = np.zeros((n, nt), np.int64)
    crib = np.zeros((n, nt), np.int64)
    for i in prange(n):
        unseen, _, _ = _unseen_of(cards[i], jokers)
        avail = unseen_grid(cards[i][cards[i] < FIRST_JOKER])
        kept = np.empty(4, np.int64)
        for t in range(nt):
            k = keeps.shape[1]
            for j in range(k):
                kept[j] = cards[i, keeps[t, j]]
            if k == 3:
                for z in unseen:
                    hand[i, t] += wild_show_points(kept, 3, z, False) == 0
            elif kept.max() < FIRST_JOKER:
                hand[i, t] = hand_zero_count(table, kept, avail)
            if not with_crib:  # the crib's weighed apart (joker_crib_zeros)
                continue
            t0 = cards[i, throws[t, 0]]
            if throws.shape[1] == 1:
                if t0 < FIRST_JOKER:
                    crib[i, t] = crib_one_zero_count(table, t0, avail)
            else:
                t1 = cards[i, throws[t, 1]]
                if t0 < FIRST_JOKER and t1 < FIRST_JOKER:
                    crib[i, t] = crib_zero_count(table, t0, t1, avail)
    return hand, crib


@njit(parallel=True)
def joker_crib_zeros(
    table: np.ndarray, cards: np.ndarray, throws: np.ndarray, weights: np.ndarray
) -> np.ndarray:
    """(N, T): the crib of each throw of each class (as :func:`joker_numerators` takes
    them) that scores nothing, each completion weighing ``weights[h, j, s]`` (h the
    hand's fives, j the fives among the crib's others, s 1 for a five cut): its chance
    when the other seats obey throw fives, or with :data:`EVERY_COMPLETION` 1, a count.
    A crib with a joker never scores nothing, so the real completions alone count, by
    the zero kernels' weighted forms (:func:`~crib_analyze.crib.zero_kernels.policy_crib_zero`,
    :func:`~crib_analyze.crib.zero_kernels.fives_one_zero`)."""
    n, nt = cards.shape[0], throws.shape[0]
    starters = np.empty((weights.shape[0], 13, 13, 13), np.float64)
    for h in range(weights.shape[0]):
        starters[h] = throw_fives_starter_weights(weights[h])
    out = np.zeros((n, nt), np.float64)
    for i in prange(n):
        h = _held_fives(cards[i])
        avail = unseen_grid(cards[i][cards[i] < FIRST_JOKER])
        for t in range(nt):
            t0 = cards[i, throws[t, 0]]
            if t0 >= FIRST_JOKER:
                continue
            if throws.shape[1] == 1:
                out[i, t] = fives_one_zero(table, t0, avail, weights[h])
                continue
            t1 = cards[i, throws[t, 1]]
            if t1 < FIRST_JOKER:
                out[i, t] = policy_crib_zero(
                    table, t0, t1, avail, EVERY_PAIR, EVERY_PAIR, starters[h]
                )
    return out
