"""numba kernels for the expert throw model of any game: the crib's mean by the ranks a
seat throws, when every other seat throws by the model too.

A game's model is a pair of tables per seat (seats from the dealer's left): ``one``
(P, 13), the crib's mean show when the seat throws one card of rank r, and ``two`` (P,
13, 13), when it throws two of ranks r and q (of different suits). With jokers in the
pack (ids 52 and 53, each wild: the best card for the show) the tables have a joker's
rank too, 13: (P, 14) and (P, 14, 14). A seat splits its
cards by the hand policy's rule (:func:`~crib_analyze.crib.any_game_kernels.best_split`)
with its own row of the tables in place of the random crib's: what the crib is worth
when the others throw as they do.

:func:`crib_sums` measures those means for a given model: deal at random, every seat
throws by the model, and for each seat the crib's other cards (the others' throws and
the pack's cards) and the starter are kept while the seat's throw is replaced by every
rank (pair) in turn, its suits drawn at random among the cards still free. The
fictitious play of :mod:`crib_analyze.expert.game_models` iterates it to a fixed point.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER, JOKER_RANK
from crib_analyze.crib.any_game_kernels import hand_policy_split
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.jit import njit
from crib_analyze.rng_kernels import rng_for, rng_next
from crib_analyze.scoring.any_hand_kernels import show_points, wild_show_points

CHUNKS = 64  # the driver's slices of deals, each summed on its own


@njit
def _free_card(rank: int, used: np.ndarray, rng: np.ndarray, other: int) -> int:
    """A card of ``rank`` at random among those not ``used``, and (``other`` a card, not
    -1) neither ``other`` nor of its suit; rank 13 a joker (the ids from 52 up to
    ``used``'s length), any but ``other``; -1 if none is free. (A pair's lower rank is
    drawn first, so ``other`` is a joker only when both are.)"""
    free = np.empty(4, np.int64)
    k = 0
    if rank == JOKER_RANK:
        for c in range(FIRST_JOKER, used.shape[0]):
            if not used[c] and c != other:
                free[k] = c
                k += 1
    else:
        for suit in range(4):
            c = 4 * rank + suit
            if not used[c] and (other < 0 or suit != (other & 3)):
                free[k] = c
                k += 1
    if k == 0:
        return -1
    return int(free[rng_next(rng) % k])


@njit(inline="always")
def _crib_points(crib: np.ndarray, starter: int, wild: bool) -> int:
    """The crib's show, its jokers at their best when the pack has some (``wild``: the
    scan for them is spared otherwise)."""
    return wild_show_points(crib, 4, starter, True) if wild else show_points(crib, 4, starter, True)


@njit
def deal_throws(
    deck: np.ndarray,
    dealt: np.ndarray,
    thrown: np.ndarray,
    passed: np.ndarray,
    sides: np.ndarray,
    from_deck: int,
    one: np.ndarray,
    two: np.ndarray,
    aim: int,
    throws: np.ndarray,
    fives: bool = False,
) -> int:
    """Deal ``deck`` (the seats' cards in turn from the dealer's left, then the pack's
    cards to the crib, then the starter; a pack of 52 cards and the jokers, as long as
    ``deck``); each seat throws by its row of ``one`` and ``two``, any card it cannot
    see a starter (each seat throwing its fives under ``fives``, the throw fives
    variant). Writes each seat's throw to ``throws`` (P, 2) (-1 past it) and returns the
    starter; the pack's cards to the crib are ``deck[sum(dealt):][:from_deck]``."""
    players = dealt.shape[0]
    dealer = players - 1
    throws[:, :] = -1
    pos = 0
    for s in range(players):
        m = dealt[s]
        if m == 0:
            continue
        held = deck[pos : pos + m].copy()
        pos += m
        sign = 1 if sides[s] == sides[dealer] else -1
        keep = m - thrown[s] - passed[s]
        _, tm, _ = hand_policy_split(
            held, keep, thrown[s], passed[s], sign, one[s], two[s], aim, fives,
            deck.shape[0] - FIRST_JOKER,
        )  # fmt: skip
        k = 0
        for i in range(m):
            if tm >> i & 1:
                throws[s, k] = held[i]
                k += 1
    return int(deck[pos + from_deck])


@njit
def _deal_sums(
    deck: np.ndarray,
    dealt: np.ndarray,
    thrown: np.ndarray,
    passed: np.ndarray,
    sides: np.ndarray,
    from_deck: int,
    one: np.ndarray,
    two: np.ndarray,
    aim: int,
    rng: np.ndarray,
    sums_one: np.ndarray,
    sums_two: np.ndarray,
    fives: bool,
) -> None:
    """One deal's counterfactual cribs, added to the sums: ``sums_one`` (P, R, 3) and
    ``sums_two`` (P, R, R, 3) hold count, sum and sum of squares (R: 13 ranks, 14 with
    the joker's when ``deck`` holds jokers)."""
    players = dealt.shape[0]
    ranks = sums_one.shape[1]
    wild = deck.shape[0] > FIRST_JOKER
    throws = np.empty((players, 2), np.int64)
    starter = deal_throws(
        deck, dealt, thrown, passed, sides, from_deck, one, two, aim, throws, fives
    )
    total = 0
    for s in range(players):
        total += dealt[s]
    crib = np.empty(4, np.int64)
    used = np.zeros(deck.shape[0], np.bool_)
    for s in range(players):
        t = thrown[s]
        if t == 0:
            continue
        n_rest = 0
        used[:] = False
        used[starter] = True
        for o in range(players):  # the crib's other cards: the others' throws ...
            if o == s:
                continue
            for i in range(thrown[o]):
                crib[t + n_rest] = throws[o, i]
                used[throws[o, i]] = True
                n_rest += 1
        for i in range(from_deck):  # ... and the pack's
            c = deck[total + i]
            crib[t + n_rest] = c
            used[c] = True
            n_rest += 1
        if t == 1:
            for r in range(ranks):
                a = _free_card(r, used, rng, -1)
                if a < 0:
                    continue
                crib[0] = a
                p = _crib_points(crib, starter, wild)
                sums_one[s, r, 0] += 1.0
                sums_one[s, r, 1] += p
                sums_one[s, r, 2] += p * p
        else:
            for r in range(ranks):
                for q in range(r, ranks):
                    a = _free_card(r, used, rng, -1)
                    if a < 0:
                        continue
                    b = _free_card(q, used, rng, a)
                    if b < 0:
                        continue
                    crib[0], crib[1] = a, b
                    p = _crib_points(crib, starter, wild)
                    sums_two[s, r, q, 0] += 1.0
                    sums_two[s, r, q, 1] += p
                    sums_two[s, r, q, 2] += p * p


@njit(parallel=True)
def crib_sums(
    n: int,
    seed: int,
    first: int,
    dealt: np.ndarray,
    thrown: np.ndarray,
    passed: np.ndarray,
    sides: np.ndarray,
    from_deck: int,
    one: np.ndarray,
    two: np.ndarray,
    aim: int,
    jokers: int,
    fives: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """Deals ``first`` .. ``first + n - 1`` under ``seed`` from a pack with ``jokers``
    jokers, every seat throwing by the model (``one``, ``two``; its fives first under
    ``fives``, the throw fives variant; for the fewest points with ``aim`` -1): per
    seat, for each rank (pair) thrown in place of its own throw, the crib's (count, sum,
    sum of squares) as (P, R, 3) and (P, R, R, 3) (pairs r <= q filled; R 13, or 14 with
    jokers: the joker's rank 13)."""
    players = dealt.shape[0]
    ranks = 13 if jokers == 0 else 14
    per_one = np.zeros((CHUNKS, players, ranks, 3))
    per_two = np.zeros((CHUNKS, players, ranks, ranks, 3))
    for chunk in prange(CHUNKS):
        deck = np.empty(52 + jokers, np.int64)
        for j in range(chunk, n, CHUNKS):
            rng = rng_for(seed, first + j)
            shuffle_into(deck, rng)
            _deal_sums(
                deck, dealt, thrown, passed, sides, from_deck, one, two, aim, rng,
                per_one[chunk], per_two[chunk], fives,
            )  # fmt: skip
    return per_one.sum(axis=0), per_two.sum(axis=0)
