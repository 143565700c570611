"""numba kernels: the crib of a hand from a pack with jokers against an opponent who
throws by a policy tabulated per multiset of symbols (13 ranks and the joker), exact.

The opponent's six cards are drawn from our unseen cards: a multiset of symbols m has
probability prod_r C(n_r, k_r) (the joker a symbol with n the jokers unseen), it throws
by its policy (:func:`~crib_analyze.crib.throw_policy_kernels.weights_from_compiled`
turns the policy into W[a, b, c], the chance of the thrown symbols a <= b with the
starter's symbol c, and F[a, b], the suited share of two real cards). Then every card
pair of those symbols and every starter card is weighed as the plain game's expert crib
weighs them (:func:`~crib_analyze.crib.combine_kernels.rank_pair_parts`,
:func:`~crib_analyze.crib.combine_kernels.card_pair_masses`: a suited pair of real
cards weighs ``F / 4``, an offsuit one ``(1 - F) / 12``, normalised over the pairs left;
a pair with a joker every pair alike; the starter spread over the cards of its symbol
left) and each crib of five is scored, jokers wild, as ``free + 5 flush + nobs``
(:mod:`~crib_analyze.crib.joker_class_kernels`): the most rank points over the jokers'
ranks, the five-card flush when the real cards share a suit, and nobs for a real jack
of the starter's suit (a cut joker takes the jack's suit), else ``gain`` when a joker
is among the four.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER, JACK_RANK
from crib_analyze.crib.hand_kernels import DISCARDS, N_DISCARDS
from crib_analyze.crib.joker_class_kernels import JOKER_SYMBOL, N_SYMBOLS, symbol_key
from crib_analyze.crib.throw_policy_kernels import weights_from_compiled
from crib_analyze.jit import njit


@njit(inline="always")
def _symbol(card: int) -> int:
    return JOKER_SYMBOL if card >= FIRST_JOKER else card >> 2


@njit
def wild_crib_points(
    free: np.ndarray, gain: np.ndarray, c0: int, c1: int, c2: int, c3: int, s: int
) -> int:
    """The crib of ``c0 .. c3`` with the starter ``s`` (jokers ids 52 and 53, wild):
    ``free`` of its symbols, 5 for a flush of the five real cards' suit, and nobs."""
    key = symbol_key(_symbol(c0), _symbol(c1), _symbol(c2), _symbol(c3), _symbol(s))
    points = int(free[key])
    suit, flush = -1, True
    for c in (c0, c1, c2, c3, s):
        if c < FIRST_JOKER:
            if suit < 0:
                suit = c & 3
            elif c & 3 != suit:
                flush = False
    if flush:
        points += 5
    jack, joker = False, False
    for c in (c0, c1, c2, c3):
        if c >= FIRST_JOKER:
            joker = True
        elif c >> 2 == JACK_RANK and (s >= FIRST_JOKER or c & 3 == s & 3):
            jack = True
    if jack:
        points += 1
    elif joker:
        points += int(gain[key])
    return points


@njit(error_model="numpy")
def joker_pair_masses(
    W: np.ndarray, F: np.ndarray, unseen: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(pairs (E, 2) of unseen cards e1 < e2, each pair's chance of being thrown (E,),
    q (14, 14, 14): the chance, given a throw of symbols a <= b, that the starter is one
    particular card of symbol c left) from W and F (see the module)."""
    n_sym = np.zeros(N_SYMBOLS, np.int64)
    for c in unseen:
        n_sym[_symbol(c)] += 1
    pab = np.zeros((N_SYMBOLS, N_SYMBOLS))
    q = np.zeros((N_SYMBOLS, N_SYMBOLS, N_SYMBOLS))
    for a in range(N_SYMBOLS):
        for b in range(a, N_SYMBOLS):
            total = 0.0
            for c in range(N_SYMBOLS):
                total += W[a, b, c]
            pab[a, b] = total
            if total <= 0.0:
                continue
            for c in range(N_SYMBOLS):
                left = n_sym[c] - (c == a) - (c == b)
                if left > 0:
                    q[a, b, c] = W[a, b, c] / total / left
    # each symbol pair's weight per card pair: suited and offsuit for two real ranks
    n_suited = np.zeros((N_SYMBOLS, N_SYMBOLS), np.int64)
    n_off = np.zeros((N_SYMBOLS, N_SYMBOLS), np.int64)
    n = unseen.shape[0]
    for i in range(n):
        for j in range(i + 1, n):
            e1, e2 = unseen[i], unseen[j]
            a, b = min(_symbol(e1), _symbol(e2)), max(_symbol(e1), _symbol(e2))
            if a != b and b != JOKER_SYMBOL and e1 & 3 == e2 & 3:
                n_suited[a, b] += 1
            else:
                n_off[a, b] += 1
    w_suited = np.zeros((N_SYMBOLS, N_SYMBOLS))
    w_off = np.zeros((N_SYMBOLS, N_SYMBOLS))
    for a in range(N_SYMBOLS):
        for b in range(a, N_SYMBOLS):
            if pab[a, b] <= 0.0:
                continue
            if a == b or b == JOKER_SYMBOL:  # every pair alike
                if n_off[a, b] > 0:
                    w_off[a, b] = pab[a, b] / n_off[a, b]
                continue
            ws, wo = F[a, b] / 4.0, (1.0 - F[a, b]) / 12.0
            norm = ws * n_suited[a, b] + wo * n_off[a, b]
            if norm <= 0.0:  # only pairs the policy never throws are left: share evenly
                ws = wo = 1.0
                norm = float(n_suited[a, b] + n_off[a, b])
            if norm > 0.0:
                w_suited[a, b] = pab[a, b] * ws / norm
                w_off[a, b] = pab[a, b] * wo / norm
    pairs = np.empty((n * (n - 1) // 2, 2), np.int64)
    mass = np.empty(n * (n - 1) // 2)
    k = 0
    for i in range(n):
        for j in range(i + 1, n):
            e1, e2 = unseen[i], unseen[j]
            a, b = min(_symbol(e1), _symbol(e2)), max(_symbol(e1), _symbol(e2))
            suited = a != b and b != JOKER_SYMBOL and e1 & 3 == e2 & 3
            m = w_suited[a, b] if suited else w_off[a, b]
            if m > 0.0:
                pairs[k, 0], pairs[k, 1], mass[k] = e1, e2, m
                k += 1
    return pairs[:k], mass[:k], q


@njit
def joker_policy_cribs(
    free: np.ndarray,
    gain: np.ndarray,
    hand: np.ndarray,
    unseen: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """((15,) the crib's mean, (15,) its chance of scoring nothing) for each throw of
    ``hand`` (6 cards, jokers ids 52 and 53) when the opponent's throw and the starter
    follow W and F (the module), every card pair and starter card of ``unseen``
    scored."""
    pairs, mass, q = joker_pair_masses(W, F, unseen)
    out = np.zeros(N_DISCARDS)
    zero = np.zeros(N_DISCARDS)
    thrown = np.empty((N_DISCARDS, 2), np.int64)
    for d in range(N_DISCARDS):
        thrown[d, 0], thrown[d, 1] = hand[DISCARDS[d, 0]], hand[DISCARDS[d, 1]]
    for k in range(pairs.shape[0]):
        e1, e2 = pairs[k, 0], pairs[k, 1]
        a, b = min(_symbol(e1), _symbol(e2)), max(_symbol(e1), _symbol(e2))
        for s in unseen:
            if s == e1 or s == e2:  # noqa: SIM109 (numba: scalars)
                continue
            w = mass[k] * q[a, b, _symbol(s)]
            if w == 0.0:
                continue
            for d in range(N_DISCARDS):
                points = wild_crib_points(free, gain, thrown[d, 0], thrown[d, 1], e1, e2, s)
                out[d] += w * points
                if points == 0:
                    zero[d] += w
    return out, zero


@njit
def _joker_among(a: int, b: int, c: int, d: int) -> bool:
    return a == JOKER_SYMBOL or b == JOKER_SYMBOL or c == JOKER_SYMBOL or d == JOKER_SYMBOL


@njit
def joker_policy_cribs_fast(
    free: np.ndarray,
    gain: np.ndarray,
    hand: np.ndarray,
    unseen: np.ndarray,
    W: np.ndarray,
    F: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`joker_policy_cribs` by parts, the same numbers about thirty times faster: the rank
    points and the nobs a joker makes summed over W by symbols alone (every card pair
    and starter of a symbol triple sums to its W), then only the crib cards whose suits
    count read card by card: the flushes, and the real jacks of the starter's suit
    (which score 1 where a joker's nobs would have, so its ``gain`` comes off there).
    A crib of nothing: no rank points by symbols (a joker always makes some), less the
    cribs among them a flush or a jack of the starter's suit scores."""
    pairs, mass, q = joker_pair_masses(W, F, unseen)
    out = np.zeros(N_DISCARDS)
    zero = np.zeros(N_DISCARDS)
    n = unseen.shape[0]
    for d in range(N_DISCARDS):
        t0, t1 = hand[DISCARDS[d, 0]], hand[DISCARDS[d, 1]]
        x, y = _symbol(t0), _symbol(t1)
        total = 0.0
        nothing = 0.0
        for a in range(N_SYMBOLS):  # the rank points, and the jokers' nobs, by symbols
            for b in range(a, N_SYMBOLS):
                joker = _joker_among(x, y, a, b)
                for c in range(N_SYMBOLS):
                    w = W[a, b, c]
                    if w > 0.0:
                        key = symbol_key(x, y, a, b, c)
                        total += w * (free[key] + (gain[key] if joker else 0))
                        if free[key] == 0:
                            nothing += w
        # the suits: which suits the thrown real cards allow a flush in, and their jacks
        flush_suits = 15
        jack_suits = 0
        for t in (t0, t1):
            if t < FIRST_JOKER:
                flush_suits &= 1 << (t & 3)
                if t >> 2 == JACK_RANK:
                    jack_suits |= 1 << (t & 3)
        for k in range(pairs.shape[0]):
            e1, e2 = pairs[k, 0], pairs[k, 1]
            a, b = min(_symbol(e1), _symbol(e2)), max(_symbol(e1), _symbol(e2))
            suits, jacks = flush_suits, jack_suits
            for e in (e1, e2):
                if e < FIRST_JOKER:
                    suits &= 1 << (e & 3)
                    if e >> 2 == JACK_RANK:
                        jacks |= 1 << (e & 3)
            if suits == 0 and jacks == 0:
                continue
            joker = _joker_among(x, y, a, b)
            for i in range(n):
                s = unseen[i]
                if s == e1 or s == e2:  # noqa: SIM109 (numba: scalars)
                    continue
                if s >= FIRST_JOKER:
                    bit = suits  # a cut joker takes any suit: the flush's, or a jack's
                    matched = jacks != 0
                else:
                    bit = suits & (1 << (s & 3))
                    matched = jacks & (1 << (s & 3)) != 0
                if bit == 0 and not matched:
                    continue
                w = mass[k] * q[a, b, _symbol(s)]
                if w == 0.0:
                    continue
                part = 5.0 if bit != 0 else 0.0
                key = symbol_key(x, y, a, b, _symbol(s))
                if matched:  # nobs by a real jack: 1, where a joker's gain would have been
                    part += 1.0
                    if joker:
                        part -= gain[key]
                total += w * part
                if free[key] == 0:  # not nothing after all: a flush or nobs scores
                    nothing -= w
        out[d] = total
        zero[d] = nothing
    return out, zero


@njit
def unseen_of(hand: np.ndarray, jokers: int) -> tuple[np.ndarray, np.ndarray]:
    """(the cards of a pack with ``jokers`` jokers not in ``hand``, their count of each
    of the 14 symbols)."""
    seen = np.zeros(52 + jokers, np.bool_)
    for c in hand:
        seen[c] = True
    unseen = np.flatnonzero(~seen).astype(np.int64)
    n_sym = np.zeros(N_SYMBOLS, np.int64)
    for i in range(unseen.shape[0]):
        n_sym[_symbol(int(unseen[i]))] += 1
    return unseen, n_sym


@njit(parallel=True)
def class_policy_cribs(
    free: np.ndarray,
    gain: np.ndarray,
    cards: np.ndarray,
    order: np.ndarray,
    offsets: np.ndarray,
    jokers: int,
    groups: np.ndarray,
    ptr: np.ndarray,
    pairs: np.ndarray,
    prob: np.ndarray,
    suited_prob: np.ndarray,
) -> tuple[np.ndarray, np.ndarray]:
    """((P, N, 15) the crib's mean and (P, N, 15) its chance of nothing, of every throw of
    every hand of ``cards`` (N, 6) from a
    pack with ``jokers`` jokers against each of P compiled policies over 14 symbols
    (:func:`~crib_analyze.crib.throw_policy_kernels.compile_policy`): the hands
    ``order[offsets[m]:offsets[m + 1]]`` share a multiset of symbols, so W and F once
    for them (:func:`joker_policy_cribs_fast`)."""
    n_pol = ptr.shape[0]
    out = np.empty((n_pol, cards.shape[0], N_DISCARDS))
    zero = np.empty((n_pol, cards.shape[0], N_DISCARDS))
    for m in prange(offsets.shape[0] - 1):
        first = order[offsets[m]]
        _, n_sym = unseen_of(cards[first], jokers)
        Ws, Fs = weights_from_compiled(groups, ptr, pairs, prob, suited_prob, n_sym)
        for i in range(offsets[m], offsets[m + 1]):
            h = order[i]
            unseen, _ = unseen_of(cards[h], jokers)
            for p in range(n_pol):
                out[p, h], zero[p, h] = joker_policy_cribs_fast(
                    free, gain, cards[h], unseen, Ws[p], Fs[p]
                )
    return out, zero
