"""The numpy one-hand path against its twins, the numba kernels, option by option.

``discard`` answers one hand with numpy alone (:mod:`crib_analyze.crib.one_hand`) for
the exact models; the kernels (:func:`crib_analyze.crib.one_hand_kernels.hand_values`)
compute the same numbers. Random hands (thousands in make test-all), both opponent
models (random, the packaged expert of each kind) and a rebuilt-style model with
policies that split their throws; and the process that answers it never loads numba.

The issue asks for agreement to 1e-9; the numpy path adds in the kernels' order, so the
twins agree to the last bit, and the machine-readable output (every digit of a float)
does not depend on which of them answered.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.constants import DISCARD_POSITIONS, KEEP_POSITIONS, N_MULTISETS
from crib_analyze.crib import one_hand
from crib_analyze.crib import one_hand_kernels as ohk
from crib_analyze.crib.hand_classes import multisets
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.scoring import rank_points
from crib_analyze.scoring.show_kernels import build_rank_table, rank_table
from tests.conftest import scaled

TOL = 1e-9
HANDS = scaled(3000, 300)


def _hands(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.array([rng.choice(52, 6, replace=False) for _ in range(n)], np.int64)


def _kernel_values(hand6: np.ndarray, model: ExpertModel | None) -> tuple[np.ndarray, ...]:
    if model is None:
        empty = np.empty((2, 0, 15))
        out = ohk.hand_values(
            rank_table(), hand6, ohk.RANDOM, empty, empty, *ExpertModel.empty_compiled()
        )
    else:
        pi, suited = model.opponent_policy_arrays()
        out = ohk.hand_values(
            rank_table(), hand6, ohk.EXPERT, pi, suited, *model.compiled_policies()
        )
    _, scores, cribs, heels, *_ = out
    return scores, cribs, heels


def test_the_foundations_agree_with_the_kernels() -> None:
    shipped, kernels = rank_points.rank_table(), build_rank_table()
    assert np.array_equal(shipped, rank_points.rank_table_from_rules())  # the file is the rules'
    digits = np.indices((13,) * 5).reshape(5, -1).T  # every five ranks, every order
    in_order = (np.diff(digits, axis=1) >= 0).all(axis=1)
    assert np.array_equal(shipped[in_order], kernels[in_order])  # the kernels' sorted keys
    assert not kernels[~in_order].any()
    some = digits[np.random.default_rng(5).choice(len(digits), 2000, replace=False)]
    sorted_keys = np.sort(some, axis=1) @ 13 ** np.arange(4, -1, -1)
    assert np.array_equal(rank_points.lookup(some), kernels[sorted_keys])  # any order
    assert np.array_equal(one_hand.six_rank_multisets(), multisets())
    assert len(multisets()) == N_MULTISETS
    assert np.array_equal(one_hand.DISCARDS, DISCARDS) and np.array_equal(one_hand.KEEPS, KEEPS)
    assert len(DISCARD_POSITIONS) == len(KEEP_POSITIONS) == 15


@pytest.mark.parametrize("opponent", ["random", "pegging", "classic"])
def test_random_hands_match_the_kernels(opponent: str) -> None:
    model = None if opponent == "random" else load_model(kind=opponent)
    compiled = model.one_hand_policies() if model else None
    for hand6 in _hands(HANDS, seed=len(opponent)):
        values = one_hand.hand_values(hand6, compiled)
        scores, cribs, heels = _kernel_values(hand6, model)
        assert np.array_equal(values.scores, scores), hand6
        assert values.heels == heels
        assert np.array_equal(values.cribs, cribs), (hand6, np.abs(values.cribs - cribs).max())


def test_both_ways_of_summing_the_ranks_held_match_the_kernels() -> None:
    """A process's first hands sum the opponents' cards by rank over every policy entry,
    later ones over the ranks each entry's multiset holds (one_hand._ranks_held): each
    way, forced for every hand, matches the kernels to the last bit."""
    model = load_model()
    hands = _hands(scaled(40, 12), seed=5)
    compiled = model.one_hand_policies()
    for ahead in (True, False):  # the ranks held at once; rank by rank throughout
        compiled.__dict__.pop("_ranks_held", None)
        object.__setattr__(compiled, "_valued", one_hand.RANK_BY_RANK_HANDS if ahead else -1000)
        for hand6 in hands:
            values = one_hand.hand_values(hand6, compiled)
            _, cribs, _ = _kernel_values(hand6, model)
            assert np.array_equal(values.cribs, cribs), (ahead, hand6)
        assert ("_ranks_held" in compiled.__dict__) == ahead


def test_a_policy_that_splits_its_throws_matches_the_kernels() -> None:
    """Soft policies (every throw likely, suited parts anywhere in range) reach every
    branch of the closed forms that a best-response policy leaves empty."""
    rng = np.random.default_rng(7)
    base = load_model()
    pi = rng.random((2, N_MULTISETS, 15)) ** 4
    pi /= pi.sum(axis=2, keepdims=True)
    suited = pi * rng.random(pi.shape)
    pols = [type(base.pone_policy)(pi[i], suited[i]) for i in range(2)]  # type: ignore[misc]
    model = ExpertModel(base.pone_throws, base.dealer_throws, pols[1], pols[0])
    for hand6 in _hands(scaled(200, 20), seed=11):
        values = one_hand.hand_values(hand6, model.one_hand_policies())
        _, cribs, _ = _kernel_values(hand6, model)
        assert np.abs(values.cribs - cribs).max() <= TOL, hand6  # to 1e-9 at least
        assert np.array_equal(values.cribs, cribs), hand6


def test_the_jacks_and_flushes_that_the_closed_forms_count() -> None:
    """Hands full of jacks and of one suit, where nobs and flushes carry the crib."""
    model = load_model()
    for hand in ([40, 41, 42, 43, 0, 4], [0, 4, 8, 12, 16, 40], [40, 44, 48, 41, 45, 1]):
        hand6 = np.array(hand, np.int64)
        for m in (None, model):
            values = one_hand.hand_values(hand6, m.one_hand_policies() if m else None)
            scores, cribs, heels = _kernel_values(hand6, m)
            assert np.array_equal(values.scores, scores)
            assert np.array_equal(values.cribs, cribs)
            assert values.heels == heels


@pytest.mark.parametrize(
    "args",
    [
        ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--dealer"],
        ["discard", "AH", "2C", "4D", "9S", "TC", "KD", "--pone", "--opponent", "random"],
        ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--no-pegging", "-f", "json"],
    ],
)
def test_one_hand_loads_no_compiler(args: list[str]) -> None:
    """The one-hand commands answer with numpy alone: numba is never imported."""
    code = (
        "import sys\n"
        "from crib_analyze.__main__ import main\n"
        f"sys.argv = ['crib-analyze', *{args!r}]\n"
        "try:\n    main()\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "loaded = sorted(m for m in sys.modules if m == 'numba' or m.startswith('numba.'))\n"
        "print('NUMBA', loaded[:3])\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=os.environ, timeout=120
    )
    assert out.returncode == 0, out.stderr
    assert "NUMBA []" in out.stdout, out.stdout[-300:]


def test_a_process_turns_to_the_kernels_when_the_work_grows(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The first hands of a process are valued with numpy, the rest by the kernels (fast
    once loaded); the answers do not change at the switch."""
    from crib_analyze.discard import engine
    from crib_analyze.settings import NUMPY_HANDS

    monkeypatch.setattr(engine, "_EXACT_HANDS", [0])
    by_numpy: list[int] = []
    real = one_hand.hand_values

    def counted(*args: object) -> one_hand.HandValues:
        by_numpy.append(1)
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(one_hand, "hand_values", counted)
    model = load_model()
    for hand6 in _hands(NUMPY_HANDS + 4, seed=5):
        scores, cribs, heels = engine.exact_values(hand6, model)
        k_scores, k_cribs, k_heels = _kernel_values(hand6, model)
        assert np.array_equal(scores, k_scores) and np.array_equal(cribs, k_cribs)
        assert heels == k_heels
    assert len(by_numpy) == NUMPY_HANDS
