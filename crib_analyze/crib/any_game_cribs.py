"""The crib's mean by the ranks thrown, for the hand policy of any game
(:func:`~crib_analyze.crib.any_game_kernels.best_split`): one card, or two of different
suits, with random other cards, over every starter. Computed once (about 4 s) and kept
in the cache folder, keyed by the kernels' source and checked on load
(:mod:`crib_analyze.storage.cache`)."""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze import interrupts
from crib_analyze.cards import JOKER_IDS
from crib_analyze.constants import JOKER_RANK
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
    row filled for the number of cards it throws (zeros for the other size); with
    jokers in the pack, (P, 14) and (P, 14, 14) (:func:`joker_crib_tables`)."""
    throws = tuple(sorted(set(rules.thrown)))
    one, two = joker_crib_tables(throws, rules.jokers) if rules.jokers else crib_tables(throws)
    p, ranks = rules.players, one.shape[0]
    ones, twos = np.zeros((p, ranks)), np.zeros((p, ranks, ranks))
    for s, t in enumerate(rules.thrown):
        if t == 1:
            ones[s] = one
        elif t == 2:
            twos[s] = two
    return ones, twos


@cache
def joker_crib_tables(throws: tuple[int, ...], jokers: int) -> tuple[np.ndarray, np.ndarray]:
    """(crib_one (14,), crib_two (14, 14)): :func:`crib_tables` of a pack with
    ``jokers`` jokers (1 or 2), the last row a joker's: a crib's mean show holding the
    thrown ranks (of different suits; a joker) and random other cards of that pack
    (jokers among them), over every starter, each joker at its best. Computed once (a
    few seconds: two jokers' crib is the slowest) and kept in the cache folder."""
    sizes = tuple(sorted(set(throws) & {1, 2}))
    pack = 52 + jokers

    def rows() -> tuple[list[tuple[int, ...]], list[tuple[int, int]]]:
        """The thrown cards of each entry to compute, and where it goes (0 one, 1 two)."""
        thrown: list[tuple[int, ...]] = []
        where: list[tuple[int, int]] = []
        card = [4 * r for r in range(13)] + [JOKER_IDS[0]]
        for r in range(14) if 1 in sizes else ():
            thrown.append((card[r],))
            where.append((0, r))
        for r in range(14) if 2 in sizes else ():
            for q in range(r, 14):
                if r == q == JOKER_RANK:
                    if jokers == 2:
                        thrown.append(JOKER_IDS)
                        where.append((1, 14 * r + q))
                    continue
                thrown.append((card[r], card[q] + (q < JOKER_RANK)))  # two suits
                where.append((1, 14 * r + q))
        return thrown, where

    def compute() -> dict[str, np.ndarray]:
        one, two = np.zeros(14), np.zeros((14, 14))
        thrown, where = rows()
        for size in (1, 2):  # a call of one size's rows at a time (Ctrl-C between)
            chosen = [i for i, t in enumerate(thrown) if len(t) == size]
            for lo in range(0, len(chosen), 14):
                interrupts.check()
                part = chosen[lo : lo + 14]
                means = agk.crib_means(np.array([thrown[i] for i in part], np.int64), pack)
                for i, mean in zip(part, means, strict=True):
                    table, at = where[i]
                    if table == 0:
                        one[at] = mean
                    else:
                        two[at // 14, at % 14] = two[at % 14, at // 14] = mean
        return {"one": one, "two": two}

    def problem(arrays: dict[str, np.ndarray]) -> str | None:
        one, two = arrays.get("one"), arrays.get("two")
        if one is None or two is None or one.shape != (14,) or two.shape != (14, 14):
            return "not the expected arrays"
        if not (np.isfinite(one).all() and np.isfinite(two).all() and (two == two.T).all()):
            return "values a crib cannot take"
        if not ((one >= 0).all() and (one <= 50).all() and (two >= 0).all() and (two <= 50).all()):
            return "values a crib cannot take"
        return None

    key = {"throws": ",".join(map(str, sizes)), "jokers": str(jokers), "kernels": source_digest()}
    arrays = cached_arrays("joker_rank_cribs", key, compute, problem)
    return arrays["one"], arrays["two"]


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
