"""The throw fives variant: every five a player holds must go to the crib, even the
opponent's. With two slots: holding two fives, both go; three or four, any two of them
(the choice is the player's); one, it goes with any other card; none, any two. The
legal throws are ranked; the random opponent follows the rule too
(:func:`~crib_analyze.crib.combine_kernels.throw_fives_pair_starter`), exactly.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.crib import combine_kernels as ck
from crib_analyze.crib.throw_fives_rule import legal_throws_of
from crib_analyze.scoring.show_kernels import rank_table


def legal_throws(hand6: np.ndarray) -> np.ndarray:
    """(15,) the throws the throw fives rule allows: as many fives as the two slots
    take, every five when there are fewer."""
    legal: np.ndarray = legal_throws_of(np.asarray(hand6)[None, :])[0]
    return legal


def throw_fives_values(
    hand6: np.ndarray, zeros: bool
) -> tuple[np.ndarray, np.ndarray | None, np.ndarray]:
    """(cribs (2, 15) by seat, P(crib 0) (2, 15) or None, legal (15,)) under throw
    fives against the random opponent that follows the rule."""
    joint = ck.throw_fives_pair_starter(hand6)
    dist = ck.crib_distribution_from_joint(rank_table(), hand6, joint)  # one pass: both
    crib = dist @ np.arange(dist.shape[1])
    zero = dist[:, 0]
    return np.stack([crib, crib]), np.stack([zero, zero]) if zeros else None, legal_throws(hand6)
