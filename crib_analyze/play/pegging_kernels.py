"""numba kernels for pegging values: deals around a kept hand, played out.

For a *cell* (four kept ranks, the keeper's seat) a deal gives the keeper four cards of
those ranks (suits at random), throws two random cards of the rest into the crib, deals
the opponent six of the 46 left, which it throws by its seat's expert policy, and cuts
the starter from the 40 left; then both play. For a *hand* (six known cards, 15 throws)
the opponent's six cards and the starter are drawn once per deal and shared by all 15
throws (common random numbers). Every deal draws from its own stream, so results do not
depend on the number of threads.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.crib.dealing_kernels import ThrowPolicies, seat_throw, shuffle_into
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS, N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.play.play_policy_kernels import (
    new_reading,
    new_workspace,
    play_deal_reading,
)
from crib_analyze.rng_kernels import rng_for, rng_next
from crib_analyze.sorting_kernels import sorted_small


@njit
def _opponent_keep(
    deck: np.ndarray, start: int | np.int64, throws: ThrowPolicies, seat: int, rng: np.ndarray,
    thrown: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """Four cards the opponent in ``seat`` keeps of ``deck[start:start + 6]`` by its
    policy in ``throws``; the two it throws go to ``thrown`` (2,)."""
    six = sorted_small(deck[start : start + 6])
    d = seat_throw(throws, six, seat, rng)
    keep = np.empty(4, np.int64)
    for j in range(4):
        keep[j] = six[KEEPS[d, j]]
    thrown[0], thrown[1] = six[DISCARDS[d, 0]], six[DISCARDS[d, 1]]
    return keep


@njit
def play_as(
    seat: int,
    keep: np.ndarray,
    opp: np.ndarray,
    starter: int,
    thrown: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    rng: np.ndarray,
    record: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
    reading: tuple[np.ndarray, ...],
) -> tuple[int, int]:
    """(the keeper's points, the opponent's) of a deal with the keeper in ``seat``;
    ``thrown`` (4,) the keeper's two thrown cards, then the opponent's."""
    pone, dealer = (keep, opp) if seat == 0 else (opp, keep)
    by_seat = thrown.copy() if seat == 0 else np.concatenate((thrown[2:], thrown[:2]))
    p, d = play_deal_reading(
        pone, dealer, starter, by_seat, policies, reader, samples, rng, record, work, fwork,
        seen, reading,
    )  # fmt: skip
    return (p, d) if seat == 0 else (d, p)


STREAM_STRIDE = 1 << 32  # deal j of cell c draws stream c * STRIDE + j
PEG_BINS = 32  # a deal's points pegged by one player, 0 .. 31 (31 stands for 31 or more)


@njit(parallel=True)
def cell_sums(
    ranks: np.ndarray,
    seats: np.ndarray,
    cell_ids: np.ndarray,
    starts: np.ndarray,
    counts: np.ndarray,
    seed: int,
    throws: ThrowPolicies,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
) -> tuple[np.ndarray, np.ndarray]:
    """(C, 3) per cell: sum of the keeper's points, of the opponent's, of the squared
    differential, over deals ``starts[c] .. starts[c] + counts[c] - 1`` of the cell;
    and (C, PEG_BINS, PEG_BINS) how many of those deals the keeper pegged i points and
    the opponent j (each capped at PEG_BINS - 1).
    ``ranks`` (C, 4) kept ranks, ``seats`` (C,) the keeper's seat (0 pone, 1 dealer),
    ``cell_ids`` (C,) the cells' numbers, which name their random streams."""
    cells = ranks.shape[0]
    out = np.zeros((cells, 3), np.float64)
    hist = np.zeros((cells, PEG_BINS, PEG_BINS), np.int64)
    for c in prange(cells):
        seat = seats[c]
        other = 1 - seat
        record = np.empty((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        reading = new_reading()
        thrown = np.empty(4, np.int64)
        taken = np.zeros(52, np.bool_)
        keep = np.empty(4, np.int64)
        deck = np.empty(52, np.int64)
        rest = np.empty(48, np.int64)
        for j in range(starts[c], starts[c] + counts[c]):
            rng = rng_for(seed, cell_ids[c] * STREAM_STRIDE + j)
            # the keeper's four cards: a random suit for each rank, distinct cards
            taken[:] = False
            for i in range(4):
                while True:
                    card = 4 * ranks[c, i] + rng_next(rng) % 4
                    if not taken[card]:
                        break
                taken[card] = True
                keep[i] = card
            shuffle_into(deck, rng)
            m = 0
            for card in deck:
                if not taken[card]:
                    rest[m] = card
                    m += 1
            # rest[0:2] the keeper's throw, rest[2:8] the opponent's six, rest[8] the starter
            opp = _opponent_keep(rest, np.int64(2), throws, other, rng, thrown[2:])
            thrown[0], thrown[1] = rest[0], rest[1]
            starter = rest[8]
            own, theirs = play_as(
                seat, keep, opp, starter, thrown, policies, reader, samples, rng, record,
                work, fwork, seen, reading,
            )  # fmt: skip
            out[c, 0] += own
            out[c, 1] += theirs
            out[c, 2] += (own - theirs) ** 2
            hist[c, min(own, PEG_BINS - 1), min(theirs, PEG_BINS - 1)] += 1
    return out, hist


@njit(parallel=True)
def hand_deals(
    hand6: np.ndarray,
    seat: int,
    first: int,
    n: int,
    seed: int,
    throws: ThrowPolicies,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
) -> np.ndarray:
    """(n, 15, 2) the holder's and the opponent's points in deal ``first + j`` for each of
    the 15 throws of ``hand6`` (known cards), the holder in ``seat``. A deal shares the
    opponent's six cards and the starter across the throws. ``policies`` as for
    :func:`~crib_analyze.play.play_policy_kernels.play_deal_reading` (the solver reads
    the other seat through ``reader``)."""
    out = np.empty((n, N_DISCARDS, 2), np.int64)
    other = 1 - seat
    mine = np.zeros(52, np.bool_)
    for card in hand6:
        mine[card] = True
    for g in prange(n):
        j = first + g
        rng = rng_for(seed, j)
        deck = shuffle_into(np.empty(52, np.int64), rng)
        rest = np.empty(46, np.int64)
        m = 0
        for card in deck:
            if not mine[card]:
                rest[m] = card
                m += 1
        thrown = np.empty(2, np.int64)
        opp = _opponent_keep(rest, np.int64(0), throws, other, rng, thrown)
        starter = rest[6]
        record = np.empty((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        reading = new_reading()
        keep = np.empty(4, np.int64)
        both = np.empty(4, np.int64)  # the holder's two thrown cards, then the opponent's
        both[2], both[3] = thrown[0], thrown[1]
        for d in range(N_DISCARDS):
            for i in range(4):
                keep[i] = hand6[KEEPS[d, i]]
            both[0], both[1] = hand6[DISCARDS[d, 0]], hand6[DISCARDS[d, 1]]
            play_rng = rng_for(seed + 1, j)  # the same policy draws for every throw
            own, theirs = play_as(
                seat, keep, opp, starter, both, policies, reader, samples, play_rng, record,
                work, fwork, seen, reading,
            )  # fmt: skip
            out[g, d, 0], out[g, d, 1] = own, theirs
    return out
