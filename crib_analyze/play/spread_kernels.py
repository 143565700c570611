"""numba kernels: a deal's play drawn from its keep's distribution of pegging.

The pegging table's build counts, per cell (the keeper's seat and four kept ranks), its
deals by the points the keeper pegged and the points the opponent pegged, both playing
the solver. :class:`PlaySpread` holds those counts as one cumulative distribution a
cell, its outcomes in order of the keeper's net (then its own points), so that one
uniform number shared by several keeps draws comparable outcomes for each (common
random numbers across the throws of a hand). The board's throw ranking draws the
play this way instead of playing it: the means are the table's, and no deal is played.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from crib_analyze.jit import njit
from crib_analyze.sorting_kernels import search_right, sorted_small

KEEP_KEYS = 13**4  # four ranks read in base 13
KEEP_CELLS = 1820  # four-rank multisets: a seat's cells


class PlaySpread(NamedTuple):
    """``rows`` (13**4,) a keep's row by its sorted ranks in base 13; ``starts``
    (2 * 1820 + 1,) where each cell's outcomes begin (cell = seat * 1820 + row, seat 0
    pone, 1 dealer); per outcome ``own`` and ``opp`` the keeper's and the opponent's
    points and ``cdf`` the cell's cumulative probability up to it. Empty ``starts``
    (length 0): no distributions (the caller plays the deal instead)."""

    rows: np.ndarray
    starts: np.ndarray
    own: np.ndarray
    opp: np.ndarray
    cdf: np.ndarray


@njit
def keep_key(keep: np.ndarray) -> int:
    """The base-13 key of four cards' ranks, sorted."""
    r = sorted_small(keep >> 2)
    return int(((r[0] * 13 + r[1]) * 13 + r[2]) * 13 + r[3])


@njit
def spread_draw(spread: PlaySpread, seat: int, keep: np.ndarray, u: float) -> tuple[int, int]:
    """(the keeper's points, the opponent's) for the keeper in ``seat`` holding ``keep``
    (four cards), at the point ``u`` in [0, 1) of its cell's distribution."""
    cell = seat * KEEP_CELLS + spread.rows[keep_key(keep)]
    lo, hi = spread.starts[cell], spread.starts[cell + 1]
    i = lo + search_right(spread.cdf[lo:hi], u)
    if i >= hi:  # u at the very top (rounding): the last outcome
        i = hi - 1
    return int(spread.own[i]), int(spread.opp[i])


@njit
def play_order(
    pone_score: int, dealer_score: int, pone_pegs: int, dealer_pegs: int, target: int
) -> tuple[int, int]:
    """When a deal's play is known only by its totals: (the seat that reaches ``target``
    in the play, 0 pone or 1 dealer, -1 if neither does; the other seat's play points
    counted before it gets there). Each player's points are taken as spread evenly over
    the play: the one needing the smaller share of its points gets there first (the
    dealer on a tie), and by then the other has counted that share of its own, rounded
    down and short of the target (it decides a skunk)."""
    need_pone, need_dealer = target - pone_score, target - dealer_score
    pone_can = 0 < need_pone <= pone_pegs
    dealer_can = 0 < need_dealer <= dealer_pegs
    if not (pone_can or dealer_can):
        return -1, 0
    if pone_can and (not dealer_can or need_pone * dealer_pegs < need_dealer * pone_pegs):
        return 0, min((dealer_pegs * need_pone) // pone_pegs, need_dealer - 1)
    return 1, min((pone_pegs * need_dealer) // dealer_pegs, need_pone - 1)
