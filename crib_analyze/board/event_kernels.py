"""numba kernels: a deal as the scoring events in the order they are scored.

Players are 0 = pone, 1 = dealer. A deal scores, in order: heels (2 to the dealer for
a jack starter, at the cut), each pegging point of the play as it is laid (the go and
last card included), the pone's show, the dealer's show, the dealer's crib. The game
ends the moment a player reaches the target, so the order matters: a dealer on 119 can
peg out before the pone counts its hand. Events with no points are left out; unused
slots have player -1. Each event also carries its source: 0 heels, 1 pegging, 2 a hand,
3 the crib.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import DEALER_SEAT, HEELS_POINTS, JACK_RANK
from crib_analyze.jit import njit
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.play.play_policy_kernels import (
    new_reading,
    new_workspace,
    play_deal,
    play_deal_reading,
)
from crib_analyze.rng_kernels import rng_for
from crib_analyze.scoring.show_kernels import table_score_show

MAX_EVENTS = 12  # heels, up to 8 cards pegging, two hands, the crib (a drawn play: 3)
SOURCES = ("heels", "pegging", "hand", "crib")


@njit
def _heels(d: np.ndarray, players: np.ndarray, points: np.ndarray, sources: np.ndarray) -> int:
    """Clear the events and score heels; return the next free slot."""
    players[:] = -1
    points[:] = 0
    sources[:] = -1
    if d[8] >> 2 == JACK_RANK:
        players[0], points[0], sources[0] = DEALER_SEAT, HEELS_POINTS, 0
        return 1
    return 0


@njit
def _after_heels(
    d: np.ndarray,
    table: np.ndarray,
    record: np.ndarray,
    e: int,
    players: np.ndarray,
    points: np.ndarray,
    sources: np.ndarray,
) -> None:
    """The pegging points of the play in ``record``, then the shows, from slot ``e``."""
    for j in range(8):
        if record[j, 4] > 0:
            players[e], points[e], sources[e] = record[j, 0], record[j, 4], 1
            e += 1
    _shows(d, table, e, players, points, sources)


@njit
def _shows(
    d: np.ndarray,
    table: np.ndarray,
    e: int,
    players: np.ndarray,
    points: np.ndarray,
    sources: np.ndarray,
) -> None:
    """The shows in the order they are counted, from slot ``e``."""
    starter = d[8]
    pone = table_score_show(table, d[0], d[1], d[2], d[3], starter, False)
    dealer = table_score_show(table, d[4], d[5], d[6], d[7], starter, False)
    crib = table_score_show(table, d[9], d[10], d[11], d[12], starter, True)
    if pone > 0:
        players[e], points[e], sources[e] = 0, pone, 2
        e += 1
    if dealer > 0:
        players[e], points[e], sources[e] = 1, dealer, 2
        e += 1
    if crib > 0:
        players[e], points[e], sources[e] = 1, crib, 3


@njit
def events_of(
    d: np.ndarray,
    table: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    rng: np.ndarray,
    players: np.ndarray,
    points: np.ndarray,
    sources: np.ndarray,
    record: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
) -> None:
    """Fill ``players``, ``points``, ``sources`` (12,) with the events of one deal ``d``
    (13,), its play drawing from ``rng``; the rest is scratch (see ``play_deal``). The
    policies do not include the solver (see :func:`events_of_reading`)."""
    e = _heels(d, players, points, sources)
    play_deal(d[0:4], d[4:8], d[8], policies, reader, samples, rng, record, work, fwork, seen)
    _after_heels(d, table, record, e, players, points, sources)


@njit
def events_of_totals(
    d: np.ndarray,
    table: np.ndarray,
    pegs: tuple[int, int],
    first: int,
    before: int,
    players: np.ndarray,
    points: np.ndarray,
    sources: np.ndarray,
) -> None:
    """:func:`events_of` for a play known only by its totals, ``pegs`` (the pone's
    points, the dealer's), in the order of
    :func:`~crib_analyze.play.spread_kernels.play_order`: with ``first`` a seat, the
    other's ``before`` points, then all of ``first``'s, then the other's rest; with
    ``first`` -1 (nobody reaches the target in the play), the pone's then the dealer's."""
    e = _heels(d, players, points, sources)
    if first < 0:
        seats, amounts = (0, 1, 0), (pegs[0], pegs[1], 0)
    else:
        other = 1 - first
        seats, amounts = (other, first, other), (before, pegs[first], pegs[other] - before)
    for k in range(3):
        if amounts[k] > 0:
            players[e], points[e], sources[e] = seats[k], amounts[k], 1
            e += 1
    _shows(d, table, e, players, points, sources)


@njit
def events_of_reading(
    d: np.ndarray,
    table: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    rng: np.ndarray,
    players: np.ndarray,
    points: np.ndarray,
    sources: np.ndarray,
    record: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
    reading: tuple[np.ndarray, ...],
) -> None:
    """:func:`events_of` with any policy, the solver included (``reading`` from
    ``new_reading``; each player reads the other from its throw and its cards). Kept
    apart so that the kernels which never play the solver do not compile it."""
    e = _heels(d, players, points, sources)
    play_deal_reading(
        d[0:4], d[4:8], d[8], d[9:13], policies, reader, samples, rng, record, work, fwork,
        seen, reading,
    )  # fmt: skip
    _after_heels(d, table, record, e, players, points, sources)


@njit(parallel=True)
def deal_events(
    deals: np.ndarray,
    table: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    seed: int,
    first: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(players, points, sources), each (n, 12) int8: the scoring events of each deal
    (n, 13): pone's four kept cards, dealer's four, starter, pone's two thrown, dealer's
    two. Deal i plays from stream ``first + i``."""
    n = deals.shape[0]
    players = np.full((n, MAX_EVENTS), -1, np.int8)
    points = np.zeros((n, MAX_EVENTS), np.int8)
    sources = np.full((n, MAX_EVENTS), -1, np.int8)
    for i in prange(n):
        record = np.zeros((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        events_of(
            deals[i], table, policies, reader, samples, rng_for(seed, first + i),
            players[i], points[i], sources[i], record, work, fwork, seen,
        )  # fmt: skip
    return players, points, sources


@njit(parallel=True)
def deal_events_reading(
    deals: np.ndarray,
    table: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    seed: int,
    first: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`deal_events` with any policy, the solver included (each player reads the
    other from its throw and its cards through ``reader``); the same events as
    :func:`deal_events` for the policies both play."""
    n = deals.shape[0]
    players = np.full((n, MAX_EVENTS), -1, np.int8)
    points = np.zeros((n, MAX_EVENTS), np.int8)
    sources = np.full((n, MAX_EVENTS), -1, np.int8)
    for i in prange(n):
        record = np.zeros((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        events_of_reading(
            deals[i], table, policies, reader, samples, rng_for(seed, first + i),
            players[i], points[i], sources[i], record, work, fwork, seen, new_reading(),
        )  # fmt: skip
    return players, points, sources
