"""The crib's mean by the ranks thrown, for the hand policy of any game
(:func:`~crib_analyze.crib.any_game_kernels.best_split`): one card, or two of different
suits, with random other cards, over every starter; computed once a process."""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze.crib import any_game_kernels as agk


@cache
def crib_tables(throws: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(crib_one (13,), crib_two (13, 13)): a crib's mean show holding one thrown card,
    or two, of these ranks (of different suits) and random other cards, over every
    starter; only the sizes in ``throws`` are filled (the rest are zeros)."""
    one = np.zeros(13)
    two = np.zeros((13, 13))
    if 1 in throws:
        for r in range(13):
            card = 4 * r
            unseen = np.array([c for c in range(52) if c != card], np.int64)
            one[r] = agk.crib_mean(np.array([card], np.int64), unseen)
    if 2 in throws:
        for r in range(13):
            for q in range(r, 13):
                pair = np.array([4 * r, 4 * q + 1], np.int64)
                unseen = np.array([c for c in range(52) if c not in pair], np.int64)
                two[r, q] = two[q, r] = agk.crib_mean(pair, unseen)
    return one, two
