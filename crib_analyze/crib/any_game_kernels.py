"""numba kernels for the throws of any game of the rules, with the other seats' cards
as random cards: what a kept hand, a passed hand and a thrown part of the crib are worth.

A seat holds ``n`` cards and splits them into a kept hand, a throw to the crib and (in
Canadian doubles) cards passed to its partner. The cards it cannot see are ``unseen``;
the starter is any of them alike. The crib gets the throw, and its other ``4 - t``
cards are unseen cards alike (the other seats' throws and the cards dealt from the pack
to the crib: the random opponent model of the two-player game, for every seat).
Each mean is exact: every starter, and for the crib every set of other cards with it.

The other seats can also throw by a model: the hand policy (:func:`best_split`), each
seat's cards dealt at random (:func:`sampled_cribs`, a sampled crib).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER, FIVE_RANK
from crib_analyze.crib.dealing_kernels import shuffle_in_place
from crib_analyze.jit import njit
from crib_analyze.rng_kernels import rng_for
from crib_analyze.scoring.any_hand_kernels import rank_points, suit_points, wild_show_points
from crib_analyze.scoring.joker_kernels import MAX_JOKER_POINTS
from crib_analyze.sorting_kernels import copy_small


@njit
def hand_mean(cards: np.ndarray, size: int, unseen: np.ndarray) -> float:
    """Mean show of ``cards[:size]`` (a hand) over every starter in ``unseen``, a joker
    (in the hand or cut) counted at its best. Without a joker the starters are taken by
    rank for the ranks' points and by suit for the suits' (the same sum, a few times
    fewer shows scored)."""
    wild = False
    for i in range(size):
        wild |= cards[i] >= FIRST_JOKER
    for c in unseen:
        wild |= c >= FIRST_JOKER
    total = 0
    if wild:
        for s in unseen:
            total += wild_show_points(cards, size, s, False)
        wild_mean: float = total / unseen.shape[0]
        return wild_mean
    by_rank = np.zeros(13, np.int64)
    by_suit = np.zeros(4, np.int64)
    for c in unseen:
        by_rank[c >> 2] += 1
        by_suit[c & 3] += 1
    show = np.empty(size + 1, np.int64)
    copy_small(show, 0, cards, 0, size)
    for r in range(13):
        if by_rank[r]:
            show[size] = 4 * r
            total += by_rank[r] * rank_points(show, size + 1)
    for u in range(4):
        if by_suit[u]:
            show[size] = u  # the suit's ace: suits alone score here
            total += by_suit[u] * suit_points(show, size, False)
    mean: float = total / unseen.shape[0]
    return mean


SHOW_BINS = 30  # a show's points, 0 .. 29: a distribution's bins
WILD_SHOW_BINS = MAX_JOKER_POINTS + 1  # ... and with jokers in the pack


@njit
def show_bins(unseen: np.ndarray, cards: np.ndarray) -> int:
    """The bins a show's points need: more when a joker (id >= 52) is among the cards."""
    wild = False
    for c in unseen:
        wild |= c >= FIRST_JOKER
    for c in cards:
        wild |= c >= FIRST_JOKER
    return WILD_SHOW_BINS if wild else SHOW_BINS


@njit
def crib_mean(thrown: np.ndarray, unseen: np.ndarray) -> float:
    """Mean show of a crib holding ``thrown`` (1 to 4 cards) and 4 - len of the
    ``unseen`` cards, over every starter and every such set of unseen cards."""
    counts = np.zeros(show_bins(unseen, thrown), np.int64)
    crib_counts(thrown, unseen, counts)
    total = 0
    n = 0
    for points in range(counts.shape[0]):
        total += points * counts[points]
        n += counts[points]
    mean: float = total / n
    return mean


@njit(parallel=True)
def crib_means(thrown: np.ndarray, pack: int) -> np.ndarray:
    """(R,): :func:`crib_mean` of each row of ``thrown`` (R, t: card ids), the other
    cards and the starter from a pack of ``pack`` cards (52, or 53 and 54 with the
    jokers' ids 52 and 53) but that row's."""
    out = np.zeros(thrown.shape[0])
    for i in prange(thrown.shape[0]):
        taken = np.zeros(pack, np.bool_)
        for c in thrown[i]:
            taken[c] = True
        out[i] = crib_mean(thrown[i], np.flatnonzero(~taken))
    return out


@njit
def crib_counts(thrown: np.ndarray, unseen: np.ndarray, counts: np.ndarray) -> None:
    """Adds to ``counts[p]`` the (starter, unseen cards) cases of :func:`crib_mean` in
    which the crib shows p points."""
    t = thrown.shape[0]
    u = unseen.shape[0]
    crib = np.empty(4, np.int64)
    copy_small(crib, 0, thrown, 0, t)
    need = 4 - t
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
                counts[wild_show_points(crib, 4, starter, True)] += 1
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


@njit(parallel=True)
def hand_scores(cards: np.ndarray, subsets: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """(H, U): for each row of ``subsets`` (H, k: indices into ``cards``), the points
    that hand shows with each starter of ``unseen``."""
    n, k = subsets.shape
    out = np.zeros((n, len(unseen)), np.int64)
    for i in prange(n):
        hand = np.empty(4, np.int64)
        for j in range(k):
            hand[j] = cards[subsets[i, j]]
        for u in range(len(unseen)):
            out[i, u] = wild_show_points(hand, k, unseen[u], False)
    return out


@njit(parallel=True)
def crib_histograms(cards: np.ndarray, throws: np.ndarray, unseen: np.ndarray) -> np.ndarray:
    """(T, bins): :func:`crib_counts` of each row of ``throws`` (T, t: indices into
    ``cards``); :func:`show_bins` bins."""
    n, t = throws.shape
    out = np.zeros((n, show_bins(unseen, cards)), np.int64)
    for i in prange(n):
        thrown = np.empty(t, np.int64)
        for j in range(t):
            thrown[j] = cards[throws[i, j]]
        crib_counts(thrown, unseen, out[i])
    return out


@njit
def _bits(mask: int) -> int:
    n = 0
    while mask:
        n += mask & 1
        mask >>= 1
    return n


@njit
def _mask_hand(cards: np.ndarray, mask: int, out: np.ndarray) -> int:
    """Write the cards of ``mask`` into ``out``; return how many."""
    k = 0
    for i in range(cards.shape[0]):
        if mask >> i & 1:
            out[k] = cards[i]
            k += 1
    return k


@njit(inline="always")
def _five_mask(cards: np.ndarray, fives: bool) -> int:
    """The positions of the fives among ``cards`` under throw fives (none without)."""
    mask = 0
    if fives:
        for i in range(cards.shape[0]):
            if cards[i] >> 2 == FIVE_RANK:
                mask |= 1 << i
    return mask


@njit(inline="always")
def _thrown_crib(
    cards: np.ndarray, tmask: int, throw: int, crib_one: np.ndarray, crib_two: np.ndarray,
    hand: np.ndarray,
) -> float:  # fmt: skip
    """The crib's mean of the cards of ``tmask`` by rank (one card or two; ``hand`` a
    buffer)."""
    if throw == 1:
        _mask_hand(cards, tmask, hand)
        return float(crib_one[hand[0] >> 2])
    if throw == 2:
        _mask_hand(cards, tmask, hand)
        return float(crib_two[hand[0] >> 2, hand[1] >> 2])
    return 0.0


@njit
def best_split(
    cards: np.ndarray,
    keep: int,
    throw: int,
    passes: int,
    unseen: np.ndarray,
    sign: int,
    crib_one: np.ndarray,
    crib_two: np.ndarray,
    aim: int,
    fives: bool = False,
) -> tuple[int, int, int]:
    """The (kept, thrown, passed) masks over ``cards`` of the best split by the hand
    policy (the first best in mask order): the highest value, or with ``aim`` -1
    (lowball) the lowest. With ``fives`` (the throw fives variant) only the splits that
    throw as many fives as the crib takes from this seat are legal: every five held, or
    ``throw`` of them when it holds more. With jokers (ids 52 and 53, the variant) the
    tables have a joker's rank too (13: (14,) and (14, 14)).

    The hand policy, a rule-level player of any game: keep the split whose kept hand
    scores most on average over the starters in ``unseen``, plus the partner's hand
    from the cards passed, plus (``sign`` +1, its side's crib) or minus (-1) the crib's
    mean of what it throws, by rank: ``crib_one`` (13,) for one card, ``crib_two`` (13,
    13) for two (a crib with those cards and random others)."""
    n = cards.shape[0]
    full = (1 << n) - 1
    five_mask = _five_mask(cards, fives)
    five_throws = min(_bits(five_mask), throw)
    means = np.full(1 << n, np.nan)
    hand = np.empty(4, np.int64)
    best, best_k, best_t, best_p = -1e18, 0, 0, 0
    for kmask in range(1 << n):
        if _bits(kmask) != keep or _bits(kmask & five_mask) > _bits(five_mask) - five_throws:
            continue
        if np.isnan(means[kmask]):
            size = _mask_hand(cards, kmask, hand)
            means[kmask] = hand_mean(hand, size, unseen)
        rest = full & ~kmask
        sub = rest
        while True:  # every part of the rest to pass, the remainder thrown
            tmask = rest & ~sub
            if _bits(sub) == passes and _bits(tmask & five_mask) == five_throws:
                value = means[kmask]
                if passes:
                    if np.isnan(means[sub]):
                        size = _mask_hand(cards, sub, hand)
                        means[sub] = hand_mean(hand, size, unseen)
                    value += means[sub]
                value += sign * _thrown_crib(cards, tmask, throw, crib_one, crib_two, hand)
                if aim * value > best + 1e-12:
                    best, best_k, best_t, best_p = aim * value, kmask, tmask, sub
            if sub == 0:
                break
            sub = (sub - 1) & rest
    return best_k, best_t, best_p


@njit
def hand_policy_split(
    held: np.ndarray,
    keep: int,
    throw: int,
    passes: int,
    sign: int,
    crib_one: np.ndarray,
    crib_two: np.ndarray,
    aim: int,
    fives: bool = False,
    jokers: int = 0,
) -> tuple[int, int, int]:
    """:func:`best_split` of the cards a seat holds, the starter any card it does not
    (of a pack with ``jokers`` jokers)."""
    unseen = _not_in(held, jokers)
    return best_split(held, keep, throw, passes, unseen, sign, crib_one, crib_two, aim, fives)


@njit
def _not_in(cards: np.ndarray, jokers: int) -> np.ndarray:
    """The cards of a pack with ``jokers`` jokers not among ``cards``."""
    mine = np.zeros(52 + jokers, np.bool_)
    for c in cards:
        mine[c] = True
    return np.flatnonzero(~mine)


@njit
def policy_keeps_first(
    cards: np.ndarray,
    keep: int,
    throw: int,
    sign: int,
    crib_one: np.ndarray,
    crib_two: np.ndarray,
    aim: int,
    fives: bool = False,
    jokers: int = 0,
) -> float:
    """The chance that the hand policy (:func:`hand_policy_split`, nothing passed) keeps
    exactly ``cards[:keep]`` and throws the rest, the cards dealt in a random order: 0
    if another legal split is worth more, else 1 / the splits worth as much (it keeps
    the first of them in the order dealt). Stops at the first split worth more."""
    n = cards.shape[0]
    unseen = _not_in(cards, jokers)
    five_mask = _five_mask(cards, fives)
    five_throws = min(_bits(five_mask), throw)
    full = (1 << n) - 1
    hand = np.empty(4, np.int64)
    first = (1 << keep) - 1
    own = -1e18
    ties = 1
    for kmask in range(first, 1 << n):
        if _bits(kmask) != keep or _bits(kmask & five_mask) > _bits(five_mask) - five_throws:
            continue
        tmask = full & ~kmask
        if _bits(tmask & five_mask) != five_throws:
            continue
        size = _mask_hand(cards, kmask, hand)
        value = hand_mean(hand, size, unseen)
        value += sign * _thrown_crib(cards, tmask, throw, crib_one, crib_two, hand)
        if kmask == first:
            own = aim * value
        elif own == -1e18:
            return 0.0  # the hand kept is no legal split
        elif aim * value > own + 1e-12:
            return 0.0
        elif aim * value > own - 1e-12:
            ties += 1
    return 1.0 / ties if own > -1e18 else 0.0


@njit(parallel=True)
def sampled_cribs(
    cards: np.ndarray,
    seat: int,
    throws: np.ndarray,
    dealt: np.ndarray,
    thrown: np.ndarray,
    passed: np.ndarray,
    sides: np.ndarray,
    from_deck: int,
    crib_one: np.ndarray,
    crib_two: np.ndarray,
    samples: int,
    seed: int,
    aim: int,
    fives: bool,
    jokers: int = 0,
) -> np.ndarray:
    """(T, samples): the crib's show for each of ``seat``'s throws (rows of ``throws``,
    indices into ``cards``, the cards it is dealt) in ``samples`` deals of the rest.

    Each deal gives every other seat its cards from the pack at random (``dealt``,
    ``thrown``, ``passed`` per seat from the dealer's left; ``sides`` each seat's side),
    each throws by the hand policy's rule (:func:`best_split`, its own cards unseen to
    it, with ``aim``) with its row of ``crib_one`` (P, 13) and ``crib_two`` (P, 13, 13):
    the random crib's values for the hand policy, or a game's expert model; with
    ``fives`` (throw fives) each throws its fives; then the pack's ``from_deck`` cards
    go to the crib and the next is the starter. The same deals serve every throw (common
    random numbers). ``jokers``: the pack's (the tables then have a joker's row; every
    show counts them at their best)."""
    players = dealt.shape[0]
    taken = np.zeros(52 + jokers, np.bool_)
    for c in cards:
        taken[c] = True
    unseen = np.flatnonzero(~taken)
    n_throws, t = throws.shape
    out = np.zeros((n_throws, samples), np.int64)
    for j in prange(samples):
        rng = rng_for(seed, j)
        pool = shuffle_in_place(unseen.copy(), rng)
        rest = np.empty(4, np.int64)
        got, at = 0, 0
        for s in range(players):
            m = dealt[s]
            if s == seat or m == 0:
                continue
            held = pool[at : at + m].copy()
            at += m
            sign = 1 if sides[s] == sides[players - 1] else -1
            keep = m - thrown[s] - passed[s]
            _, tm, _ = hand_policy_split(
                held, keep, thrown[s], passed[s], sign, crib_one[s], crib_two[s], aim, fives,
                jokers,
            )  # fmt: skip
            for i in range(m):
                if tm >> i & 1:
                    rest[got] = held[i]
                    got += 1
        for _ in range(from_deck):
            rest[got] = pool[at]
            got += 1
            at += 1
        starter = pool[at]
        crib = np.empty(4, np.int64)
        for r in range(n_throws):
            for i in range(t):
                crib[i] = cards[throws[r, i]]
            copy_small(crib, t, rest, 0, 4 - t)
            out[r, j] = wild_show_points(crib, 4, starter, True)
    return out
