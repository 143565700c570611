"""One kernel for one hand: everything the discard engine needs of six cards, in a
single call (each kernel a process calls first costs a cache load at start-up, so the
single-hand path calls one).

:func:`hand_values` returns the kept hands' scores over the starters, the crib of every
throw by seat under the random or a tabulated expert opponent, and heels. It builds
the rank table and compiles the opponent's policies when it is given empty arrays for
them, and returns what it built so the caller can pass it back next time.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.crib.hand_classes import rank_multisets
from crib_analyze.crib.hand_kernels import N_DISCARDS, hand_scores, heels_expectation
from crib_analyze.crib.random_crib_kernels import crib_random_means
from crib_analyze.crib.throw_policy_kernels import compile_policy, crib_compiled_means
from crib_analyze.jit import njit
from crib_analyze.scoring.show_kernels import build_rank_table

RANDOM, EXPERT = 0, 1  # the opponent models of hand_values


@njit
def hand_values(
    table: np.ndarray,
    hand6: np.ndarray,
    opponent: int,
    pi: np.ndarray,
    suited: np.ndarray,
    groups: np.ndarray,
    ptr: np.ndarray,
    pairs: np.ndarray,
    prob: np.ndarray,
    suited_prob: np.ndarray,
) -> tuple[
    np.ndarray, np.ndarray, np.ndarray, float,
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray,
]:  # fmt: skip
    """(table, scores (15, 46), cribs (2, 15) by our seat, heels, and the compiled
    policies) of ``hand6`` against the ``RANDOM`` or ``EXPERT`` opponent.

    ``table`` is the rank table, or empty to build it here. For the expert, ``pi`` and
    ``suited`` (2, 18395, 15) are the policies the opponent throws by, by our seat;
    ``groups`` .. ``suited_prob`` their compiled form
    (:func:`~crib_analyze.crib.throw_policy_kernels.compile_policy`), or empty to
    compile them here.
    """
    if table.size == 0:
        table = build_rank_table()
    scores = hand_scores(table, hand6)
    if opponent == EXPERT:
        if ptr.size == 0:
            groups, ptr, pairs, prob, suited_prob = compile_policy(rank_multisets(), pi, suited)
        cribs = crib_compiled_means(table, hand6, groups, ptr, pairs, prob, suited_prob)
    else:
        crib = crib_random_means(table, hand6)
        cribs = np.empty((2, N_DISCARDS), np.float64)
        cribs[0] = crib
        cribs[1] = crib
    return (table, scores, cribs, heels_expectation(hand6), groups, ptr, pairs, prob, suited_prob)
