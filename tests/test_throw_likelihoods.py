"""The expert's throws turned around for the play's reading (keep -> the rank pairs
thrown with it and their chances): the kernel's table, the numpy rows that check its
cached copy, and the cache's refusal of a copy whose numbers were changed."""

from __future__ import annotations

import numpy as np
import pytest

from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.artifacts.pegging_table import kept_multisets
from crib_analyze.play import matches
from crib_analyze.position import Seat


@pytest.fixture(scope="module")
def computed() -> dict[str, np.ndarray]:
    return matches._likelihoods(load_model())


def naive_chance(seat: Seat, keep: np.ndarray, a: int, b: int) -> float:
    """From the model's own policy table: every discard of the six-rank multiset keep + a
    + b that throws ranks a and b, its probability summed."""
    model = load_model()
    six = sorted([*keep.tolist(), a, b])
    if max(six.count(r) for r in six) > 4:
        return 0.0
    key = int(np.array(six) @ (13 ** np.arange(5, -1, -1)))
    row = int(np.searchsorted(matches.rank_multiset_keys(), key))
    pi = model.policy(seat.name.lower()).pi[row]
    pairs = [(i, j) for i in range(6) for j in range(i + 1, 6)]
    return float(sum(pi[d] for d, (i, j) in enumerate(pairs) if (six[i], six[j]) == (a, b)))


@pytest.mark.parametrize("seat", list(Seat))
def test_the_rows_worked_out_again_equal_the_kernels_and_the_policy(
    computed: dict[str, np.ndarray], seat: Seat
) -> None:
    start, pair, chance = (computed[k] for k in ("start", "pair", "chance"))
    keeps = np.random.default_rng(int(seat)).choice(len(kept_multisets()), 12, replace=False)
    for k, fresh in zip(keeps, matches.keep_likelihoods(load_model(), seat, keeps), strict=True):
        lo, hi = start[seat, k], start[seat, k + 1]
        table = dict(zip(pair[seat, lo:hi].tolist(), chance[seat, lo:hi].tolist(), strict=True))
        assert table.keys() == fresh.keys()
        assert all(abs(table[t] - fresh[t]) < 1e-12 for t in fresh)
        for t in list(fresh)[:20]:
            assert abs(fresh[t] - naive_chance(seat, kept_multisets()[k], t // 13, t % 13)) < 1e-12


def test_a_sound_copy_passes_and_changed_numbers_do_not(computed: dict[str, np.ndarray]) -> None:
    model = load_model()
    assert matches._unlikely(computed, model) is None
    scaled = dict(computed, chance=computed["chance"] * 0.99)
    assert matches._unlikely(scaled, model) == "rows computed again do not match it"
    swapped = dict(computed, chance=computed["chance"][::-1].copy())
    assert matches._unlikely(swapped, model) is not None
    wide = dict(computed, pair=computed["pair"].astype(np.int64))
    assert matches._unlikely(wide, model) == "not the expected shapes"
