"""The crib's mean by the ranks thrown, for the hand policy of any game
(:func:`~crib_analyze.crib.any_game_kernels.best_split`): one card, or two of different
suits, with random other cards, over every starter. Computed once (about 4 s) and kept
in the cache folder, keyed by the kernels' source and checked on load
(:mod:`crib_analyze.storage.cache`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze.crib import any_game_kernels as agk
from crib_analyze.kernel_source import source_digest
from crib_analyze.storage.cache import cached_arrays


@cache
def crib_tables(throws: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    """(crib_one (13,), crib_two (13, 13)): a crib's mean show holding one thrown card,
    or two, of these ranks (of different suits) and random other cards, over every
    starter; only the sizes in ``throws`` are filled (the rest are zeros)."""
    sizes = tuple(sorted(set(throws) & {1, 2}))

    def compute() -> dict[str, np.ndarray]:
        one, two = _compute(sizes)
        return {"one": one, "two": two}

    def problem(arrays: dict[str, np.ndarray]) -> str | None:
        one, two = arrays.get("one"), arrays.get("two")
        if one is None or two is None or one.shape != (13,) or two.shape != (13, 13):
            return "not the expected arrays"
        if not ((one >= 0).all() and (one <= 29).all() and (two >= 0).all() and (two <= 29).all()):
            return "values a crib cannot take"
        return None

    key = {"throws": ",".join(map(str, sizes)), "kernels": source_digest()}
    arrays = cached_arrays("rank_cribs", key, compute, problem)
    return arrays["one"], arrays["two"]


def _compute(throws: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
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
