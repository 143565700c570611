"""The crib's mean by the ranks thrown, for the hand policy of any game
(:func:`~crib_analyze.crib.any_game_kernels.best_split`): one card, or two of different
suits, with random other cards, over every starter. Computed once (about 4 s) and kept
in the cache folder, keyed by the kernels' source and checked on load
(:mod:`crib_analyze.storage.cache`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze import interrupts
from crib_analyze.crib import any_game_kernels as agk
from crib_analyze.kernel_source import source_digest
from crib_analyze.rules import Rules
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
        return _spot_check(one if 1 in sizes else None, two if 2 in sizes else None)

    key = {"throws": ",".join(map(str, sizes)), "kernels": source_digest()}
    arrays = cached_arrays("rank_cribs", key, compute, problem)
    return arrays["one"], arrays["two"]


def hand_policy_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The hand policy's cribs as per-seat tables (seats from the dealer's left), the
    form every seat's throws take in the kernels: (P, 13) and (P, 13, 13), each seat's
    row filled for the number of cards it throws (zeros for the other size)."""
    one, two = crib_tables(tuple(sorted(set(rules.thrown))))
    p = rules.players
    ones, twos = np.zeros((p, 13)), np.zeros((p, 13, 13))
    for s, t in enumerate(rules.thrown):
        if t == 1:
            ones[s] = one
        elif t == 2:
            twos[s] = two
    return ones, twos


def _compute(throws: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    one = _ones(np.arange(13)) if 1 in throws else np.zeros(13)
    two = np.zeros((13, 13))
    if 2 in throws:
        for r in range(13):
            interrupts.check()  # a rank's pairs at a time: about 0.1 s
            for q in range(r, 13):
                two[r, q] = two[q, r] = _pair(r, q)
    return one, two


def _crib_of(thrown: list[int]) -> float:
    cards = np.array(thrown, np.int64)
    unseen = np.array([c for c in range(52) if c not in thrown], np.int64)
    return float(agk.crib_mean(cards, unseen))


def _ones(ranks: np.ndarray) -> np.ndarray:
    """The crib's mean holding one card of each of ``ranks`` (about 0.1 s each)."""
    out = []
    for r in ranks:
        interrupts.check()
        out.append(_crib_of([4 * int(r)]))
    return np.array(out)


def _spot_check(one: np.ndarray | None, two: np.ndarray | None) -> str | None:
    """A few entries computed again (two of ``one``, about 0.1 s each; four of ``two``,
    7 ms each): a file rewritten validly with every number changed, or rearranged, is
    found (one changed entry may not be)."""
    rng = np.random.default_rng()
    if one is not None:
        ranks = rng.choice(13, 2, replace=False)
        if np.abs(one[ranks] - _ones(ranks)).max() > 1e-9:
            return "an entry computed again does not match it"
    if two is not None:
        for _ in range(4):
            r, q = sorted(int(x) for x in rng.integers(13, size=2))
            if abs(two[r, q] - _pair(r, q)) > 1e-9 or two[q, r] != two[r, q]:
                return "an entry computed again does not match it"
    return None


def _pair(r: int, q: int) -> float:
    """The crib's mean holding ranks ``r`` <= ``q``, of two suits."""
    return _crib_of([4 * r, 4 * q + 1])
