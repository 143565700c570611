"""The play of six known cards in loser's cribbage, simulated (``discard --lowball
--pegging simulated``): for each of the 15 throws, the same deals (common random
numbers): the opponent dealt six of the unseen cards at random, throwing by the lowball
expert (its policies' best response, the fewest points), a starter of the other 40, and
both players laying by the solver's lowball form, each for its fewest points
(:mod:`crib_analyze.play.table_play_kernels`, the engine of ``play --lowball``).
"""

from __future__ import annotations

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.crib.hand_kernels import KEEPS
from crib_analyze.position import Seat


def lowball_deals(
    hand6: np.ndarray,
    seat: Seat,
    deals: int,
    model: ExpertModel,
    seed: int = 0,
    throw_fives: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hands (deals, 15, 2, 4) by seat, starters (deals,), the opponent's six (deals,
    6)): each deal's opponent dealt six of the unseen cards, keeping what the lowball
    ``model``'s best response keeps from its seat, with each throw's kept four of
    ``hand6`` in ``seat``; the starter one of the other 40. Under ``throw_fives`` the
    opponent throws its fives (``model`` the expert of both variants)."""
    from crib_analyze.discard.engine import policy_throws
    from crib_analyze.discard.variant_play import shuffled_opponents, throws_dealt

    opponents, starters = shuffled_opponents(hand6, deals, 52, seed)
    thrown = policy_throws(opponents, "expert", model, throw_fives, lowball=True)[:, seat.other]
    kept = np.take_along_axis(opponents, KEEPS[thrown], axis=1)  # (deals, 4)
    return throws_dealt(hand6, seat, kept), starters, opponents


def lowball_hand_pegging(
    hand6: np.ndarray,
    seat: Seat,
    deals: int,
    model: ExpertModel,
    seed: int = 0,
    throw_fives: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(peg_own, peg_opp, peg_se) (15,) each: the points the holder of ``hand6`` in
    ``seat`` and its opponent peg in the play of each throw's kept four, over ``deals``
    deals shared by the 15 throws (:func:`lowball_deals`), and the standard error of
    their difference."""
    from crib_analyze.discard.variant_play import solved_pegging

    dealt, starters, _ = lowball_deals(hand6, seat, deals, model, seed, throw_fives)
    return solved_pegging(dealt, starters, seat, True, 0, seed)
