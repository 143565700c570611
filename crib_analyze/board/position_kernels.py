"""numba kernels: how the game ends after each throw of a known hand, from a position.

Sample j draws the opponent's six cards from the 46 unseen (thrown by the expert, see
:mod:`crib_analyze.board.throw_choice_kernels`) and the starter from the 40 left, and shares
them, and the random stream of the play, across all 15 throws (common random numbers).
Each throw's deal is played out as its scoring events
(:mod:`crib_analyze.board.event_kernels`) and walked from the position: if a player
reaches the target during the deal, that is the outcome; if not, the board table gives
the outcome probabilities from the position after the deal.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.board.dp_kernels import walk_to
from crib_analyze.board.event_kernels import MAX_EVENTS, events_of, events_of_totals
from crib_analyze.board.throw_choice_kernels import ExpertThrows, fill_seat, throw_of
from crib_analyze.constants import HEELS_POINTS, JACK_RANK
from crib_analyze.crib.hand_kernels import N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.play.play_policy_kernels import new_workspace
from crib_analyze.play.spread_kernels import PlaySpread, play_order, spread_draw
from crib_analyze.rng_kernels import rng_for, rng_next, rng_uniform
from crib_analyze.sorting_kernels import sorted_small

PLAY_STREAMS = 1 << 40  # sample j plays from stream PLAY_STREAMS + j


@njit
def finish(
    players: np.ndarray,
    points: np.ndarray,
    me: int,
    a: int,
    b: int,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
    out: np.ndarray,
) -> None:
    """Add to ``out`` (8,) the outcome of one deal's events from (a, b), me in seat
    ``me``: one outcome if someone reaches the target, else the table's row for the
    next position (the deal passes to the other player)."""
    outcome, a, b = walk_to(players, points, me, a, b, target, lines)
    if outcome >= 0:
        out[outcome] += 1.0
        return
    for k in range(8):
        out[k] += values[a, b, 1 - me, k]


@njit
def sample_outcomes(
    hand6: np.ndarray,
    unseen: np.ndarray,
    seat: int,
    a: int,
    b: int,
    throws: np.ndarray,
    rng: np.ndarray,
    play_rng_seed: int,
    play_stream: int,
    opp_kind: int | np.int64,
    expert: ExpertThrows,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    spread: PlaySpread,
    table: np.ndarray,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
    out: np.ndarray,
) -> None:
    """One shared deal: the opponent's six of ``unseen`` (46 cards, shuffled here with
    ``rng``), its throw (by ``opp_kind``, see :mod:`~crib_analyze.board.throw_choice_kernels`),
    the starter; then for each throw index in ``throws``, the deal's outcome added to
    ``out[k]`` (len(throws), 8). The play is drawn from ``spread`` (the solver's
    pegging of the keep, one uniform number of stream ``play_stream`` of
    ``play_rng_seed`` shared by every throw), or, if ``spread`` is empty, played by
    ``policies`` (that stream again for every throw)."""
    for i in range(45, 38, -1):  # the first seven cards of a shuffle: opponent, starter
        k = rng_next(rng) % (i + 1)
        unseen[i], unseen[k] = unseen[k], unseen[i]
    other = 1 - seat
    six = sorted_small(unseen[39:45])
    t = throw_of(opp_kind, six, other, table, expert, rng)
    deal = np.empty(13, np.int64)
    fill_seat(deal, other, six, t)
    deal[8] = unseen[45]
    players = np.empty(MAX_EVENTS, np.int8)
    points = np.empty(MAX_EVENTS, np.int8)
    sources = np.empty(MAX_EVENTS, np.int8)
    record = np.zeros((8, 5), np.int64)
    work, fwork, seen = new_workspace()
    drawn = spread.starts.shape[0] > 0
    u = rng_uniform(rng_for(play_rng_seed, play_stream))
    pone_score, dealer_score = (a, b) if seat == 0 else (b, a)
    if deal[8] >> 2 == JACK_RANK:  # heels come before the play
        dealer_score += HEELS_POINTS
    for k in range(throws.shape[0]):
        fill_seat(deal, seat, hand6, throws[k])
        if drawn:
            own, theirs = spread_draw(spread, seat, deal[4 * seat : 4 * seat + 4], u)
            pegs = (own, theirs) if seat == 0 else (theirs, own)
            first, before = play_order(pone_score, dealer_score, pegs[0], pegs[1], target)
            events_of_totals(deal, table, pegs, first, before, players, points, sources)
        else:
            play_rng = rng_for(play_rng_seed, play_stream)
            events_of(
                deal, table, policies, reader, samples, play_rng, players, points, sources,
                record, work, fwork, seen,
            )  # fmt: skip
        finish(players, points, seat, a, b, values, target, lines, out[k])


@njit
def unseen_cards(hand6: np.ndarray) -> np.ndarray:
    """The 46 cards not in ``hand6``, in order."""
    mine = np.zeros(52, np.bool_)
    for card in hand6:
        mine[card] = True
    out = np.empty(46, np.int64)
    m = 0
    for card in range(52):
        if not mine[card]:
            out[m] = card
            m += 1
    return out


@njit(parallel=True)
def position_outcomes(
    hand6: np.ndarray,
    seat: int,
    a: int,
    b: int,
    first: int,
    n: int,
    seed: int,
    opp_kind: int | np.int64,
    expert: ExpertThrows,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    spread: PlaySpread,
    table: np.ndarray,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
) -> np.ndarray:
    """(n, 15, 8): for sample ``first + j`` and throw d (``DISCARDS`` order) of ``hand6``,
    the outcome probabilities of the game for the holder in ``seat`` (0 pone, 1
    dealer) on ``a`` against the opponent's ``b``. Sample i draws from stream i of
    ``seed``, so samples computed in parts equal those computed at once."""
    out = np.zeros((n, N_DISCARDS, 8))
    throws = np.arange(N_DISCARDS)
    for j in prange(n):
        sample_outcomes(
            hand6, unseen_cards(hand6), seat, a, b, throws, rng_for(seed, first + j), seed,
            PLAY_STREAMS + first + j, opp_kind, expert, policies, reader, samples, spread, table,
            values, target, lines, out[j],
        )  # fmt: skip
    return out
