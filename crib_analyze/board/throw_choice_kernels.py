"""numba kernels: how a player with six real cards throws, and deals for the board.

Throwing policies (codes):

- ``EXPERT``: the best response to the expert model with the real cards: the hand's
  exact mean over the 46 starters (suits count), plus (dealer) or minus (pone) the crib
  against the compact expert throw model of the other seat, plus the pegging net of
  the keep for the seat. The crib part is read from a table per rank multiset
  (:func:`multiset_cribs`, cards given canonical suits), as millions of throws are
  made: a crib's suit terms (a five-card flush, the suit of a thrown jack) move a
  throw's crib by up to about a tenth of a point and are left out of the choice, not
  out of the score.
- ``POINTS``: the same without the play (hand and crib only, the classic ranking).
- ``MIXED``: the expert model's mixed policy per rank multiset (suits ride along: it
  cannot see a flush), as the pegging table's deals use.
- ``TABLE``: the classic player's rule: the hand's exact mean plus (dealer) or minus
  (pone) a crib table's mean for the thrown pair of ranks (``pair_cribs``: the shipped
  table against a random opponent, or any table of that shape), no play.

Ties go to the first throw (the one tie rule, ``first_best``).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from crib_analyze.constants import DEALER_SEAT
from crib_analyze.crib.dealing_kernels import (
    ThrowPolicies,
    multiset_of,
    seat_throw,
    shuffle_into,
)
from crib_analyze.crib.hand_kernels import (
    DISCARDS,
    KEEPS,
    N_DISCARDS,
    TIE_TOLERANCE,
    first_best,
    hand_means_closed,
)
from crib_analyze.crib.throw_model_kernels import crib_model_means
from crib_analyze.jit import njit
from crib_analyze.rng_kernels import rng_for
from crib_analyze.sorting_kernels import sort_small, sorted_small

EXPERT, POINTS, POSITION, MIXED, TABLE = 0, 1, 2, 3, 4  # the order of settings.GAME_PLAYERS


@njit(parallel=True)
def multiset_cribs(
    table: np.ndarray,
    multisets: np.ndarray,
    models: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray],
) -> np.ndarray:
    """(2, M, 15) the crib of each throw of each rank multiset (M, 6) against the
    compact throw models (the pone's P, F, K, then the dealer's): [0] the dealer's crib
    when the holder is the pone, [1] its own crib when it deals. Card i of a multiset
    gets suit i % 4."""
    Pp, Fp, Kp, Pd, Fd, Kd = models
    out = np.empty((2, multisets.shape[0], N_DISCARDS))
    for m in prange(multisets.shape[0]):
        six = np.empty(6, np.int64)
        for i in range(6):
            six[i] = multisets[m, i] * 4 + i % 4
        dealer = crib_model_means(table, six, Pd, Fd, Kd)  # the dealer throws with us
        pone = crib_model_means(table, six, Pp, Fp, Kp)  # the pone throws with us
        for d in range(N_DISCARDS):  # element by element: a row assignment compiles an
            out[0, m, d], out[1, m, d] = dealer[d], pone[d]  # error message (first runs)
    return out


class ExpertThrows(NamedTuple):
    """What the throwing kernels need of an expert model: its throw policies (as
    :class:`~crib_analyze.crib.dealing_kernels.ThrowPolicies`: ``keys``, ``pone_pi``,
    ``dealer_pi``), the crib of each throw of each rank multiset by seat (``cribs``
    (2, 18395, 15), from :func:`multiset_cribs`, rows in the order of ``keys``), and the
    pegging net of each keep by seat (``peg_net`` (2, 1820), rows by ``peg_rows`` indexed
    by the sorted kept ranks in base 13), and for the table player a crib table by
    the thrown pair's ranks (``pair_cribs`` (2, 13, 13), symmetric: [0] the dealer's
    crib when the holder is the pone, [1] its own when it deals). Flat: a parallel loop
    cannot take a tuple nested in a tuple."""

    keys: np.ndarray
    pone_pi: np.ndarray
    dealer_pi: np.ndarray
    cribs: np.ndarray
    peg_net: np.ndarray
    peg_rows: np.ndarray
    pair_cribs: np.ndarray


@njit
def points_values(
    table: np.ndarray, six: np.ndarray, seat: int, expert: ExpertThrows, with_play: bool | np.bool_
) -> np.ndarray:
    """(15,) what each throw of ``six`` (sorted) is worth in ``seat`` (0 pone, 1
    dealer): the hand's mean over the starters, plus or minus the crib, and with
    ``with_play`` the pegging net of the keep."""
    hand = hand_means_closed(table, six)
    crib = expert.cribs[seat, multiset_of(six, expert.keys)]
    value: np.ndarray = hand + crib if seat == DEALER_SEAT else hand - crib
    if with_play:
        ranks = np.empty(4, np.int64)
        for d in range(N_DISCARDS):
            for i in range(4):
                ranks[i] = six[KEEPS[d, i]] >> 2
            sort_small(ranks)
            key = ((ranks[0] * 13 + ranks[1]) * 13 + ranks[2]) * 13 + ranks[3]
            value[d] += expert.peg_net[seat, expert.peg_rows[key]]
    return value


@njit
def throw_of(
    kind: int | np.int64,
    six: np.ndarray,
    seat: int,
    table: np.ndarray,
    expert: ExpertThrows,
    rng: np.ndarray,
) -> int:
    """The discard index (into sorted ``six``) a player of ``kind`` throws in ``seat``."""
    if kind == MIXED:
        policies = ThrowPolicies(expert.keys, expert.pone_pi, expert.dealer_pi)
        return seat_throw(policies, six, seat, rng)
    if kind == TABLE:
        value = hand_means_closed(table, six)
        for d in range(N_DISCARDS):
            crib = expert.pair_cribs[seat, six[DISCARDS[d, 0]] >> 2, six[DISCARDS[d, 1]] >> 2]
            value[d] += crib if seat == DEALER_SEAT else -crib
        return first_best(value, TIE_TOLERANCE)
    value = points_values(table, six, seat, expert, kind != POINTS)
    return first_best(value, TIE_TOLERANCE)


@njit
def fill_seat(deal: np.ndarray, seat: int, six: np.ndarray, t: int) -> None:
    """Put the keep and the throw ``t`` of ``six`` into ``deal`` (13,) for ``seat``."""
    for j in range(4):
        deal[4 * seat + j] = six[KEEPS[t, j]]
    deal[9 + 2 * seat] = six[DISCARDS[t, 0]]
    deal[10 + 2 * seat] = six[DISCARDS[t, 1]]


@njit(parallel=True)
def card_deals(
    n: int,
    seed: int,
    first: int,
    kind: int,
    table: np.ndarray,
    expert: ExpertThrows,
) -> np.ndarray:
    """(n, 13) deals, both players throwing by ``kind``: the pone's four kept cards, the
    dealer's four, the starter, the pone's two thrown, the dealer's two. Deal i uses
    stream ``first + i`` of ``seed``."""
    out = np.empty((n, 13), np.int64)
    for i in prange(n):
        rng = rng_for(seed, first + i)
        deck = shuffle_into(np.empty(52, np.int64), rng)
        for seat in range(2):
            six = sorted_small(deck[6 * seat : 6 * seat + 6])
            t = throw_of(kind, six, seat, table, expert, rng)
            fill_seat(out[i], seat, six, t)
        out[i, 8] = deck[12]
    return out
