"""The variants that punish a show of nothing: **zero penalty** (when a hand or crib
scores zero in the show, the opponent scores 1) and **back ten** (a zero costs its
owner 10 points). Both are exact for every throw: the kept hand's chance of a zero
over the 46 starters, and the crib's over every opponent throw and starter under the
opponent model (random, or the expert's policy for the seat).

A throw's expected points from the rule, from the holder's side (added to its net):
the holder's hand, ``-P(hand 0) x cost``; as dealer its own crib, ``-P(crib 0) x
cost``; as pone the dealer's crib, ``+P(crib 0) x cost``, since that zero costs the
opponent (zero penalty: the holder scores 1; back ten: the dealer loses 10). The
opponent's own hand is left out: the holder's throw does not change it.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.constants import N_DISCARDS
from crib_analyze.errors import UsageError
from crib_analyze.position import Seat
from crib_analyze.rules import BACK_TEN_POINTS, ZERO_PENALTY_POINTS
from crib_analyze.settings import PENALTIES, check_choice

#: what a zero costs its owner under each variant (zero penalty: 1 to the opponent)
COST = {"none": 0, "zero": ZERO_PENALTY_POINTS, "back-ten": BACK_TEN_POINTS}


def crib_zero_chances(hand6: np.ndarray, opponent: str, model: ExpertModel | None) -> np.ndarray:
    """(2, 15) by the holder's seat: the chance the crib of each throw scores nothing."""
    from crib_analyze.crib import combine_kernels as ck  # compiles: not at import
    from crib_analyze.crib import throw_policy_kernels as tpk
    from crib_analyze.crib.hand_classes import hand_classes
    from crib_analyze.crib.hand_kernels import unseen_counts
    from crib_analyze.scoring.show_kernels import rank_table

    table = rank_table()
    if opponent == "random":
        joint = ck.random_pair_starter(hand6)
        zero = ck.crib_distribution_from_joint(table, hand6, joint)[:, 0]
        return np.stack([zero, zero])
    if opponent != "expert" or model is None:
        raise UsageError("a penalty for a zero is exact with --opponent expert or random")
    n_rank, _, _ = unseen_counts(hand6)
    multisets = hand_classes().multisets.astype(np.int64)
    out = np.empty((2, N_DISCARDS))
    for seat in Seat:
        policy = model.opponent_policy(seat)
        W, F = tpk.policy_weights(multisets, policy.pi, policy.suited, n_rank)
        joint = ck.pair_starter_probabilities(hand6, W, F)
        out[seat] = ck.crib_distribution_from_joint(table, hand6, joint)[:, 0]
    return out


def penalty_points(penalty: str, p_hand_zero: np.ndarray, p_crib_zero: np.ndarray) -> np.ndarray:
    """(2, 15) by seat: the expected points the rule moves, from the holder's side."""
    check_choice("penalty", penalty, PENALTIES)
    cost = COST[penalty]
    out = np.empty((2, len(p_hand_zero)))
    out[Seat.DEALER] = -cost * (p_hand_zero + p_crib_zero[Seat.DEALER])
    out[Seat.PONE] = -cost * p_hand_zero + cost * p_crib_zero[Seat.PONE]
    return out
