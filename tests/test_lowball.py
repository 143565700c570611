"""Lowball, loser's cribbage (``discard --lowball``): the ranking is the mirror of the
points ranking (random opponent, no play), best and loss by the fewest points, and the
command line.

Mutations tried (each fails a test here): the order left as the points order; the best
flags left at the most points; the loss measured from the most points.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_ranking_is_the_mirror_of_the_points_ranking(role: str) -> None:
    rng = random.Random(3)
    for _ in range(12):
        hand = ca.format_cards(rng.sample(range(52), 6))
        points = ca.analyze(hand, role=role, opponent="random", pegging="none")  # type: ignore[arg-type]
        low = ca.analyze(hand, role=role, opponent="random", pegging="none", lowball=True)  # type: ignore[arg-type]
        assert np.all(np.diff(low.net) >= -1e-12)  # the fewest points first
        assert np.all(np.diff(points.net) <= 1e-12)
        # the same throws and values, the order turned round (equal nets may swap)
        np.testing.assert_allclose(low.net.to_numpy(), points.net.to_numpy()[::-1])
        assert set(low.discard) == set(points.discard)
        best = low[f"{role}_best"].to_numpy()
        assert best[0] and np.allclose(low.net[best], low.net.min())
        np.testing.assert_allclose(low.loss, low.net - low.net.min(), atol=1e-12)


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--pone", "--lowball"])
    assert ok.exit_code == 0 and "lowball: the fewest points is best" in ok.output
    first = next(line for line in ok.output.splitlines() if line.strip().startswith("1 "))
    assert "5H 5C" in first  # the pone gives the dealer its fives and keeps little
    bad = runner.invoke(
        cli,
        [
            "discard",
            "5H",
            "6S",
            "4D",
            "JC",
            "QH",
            "5C",
            "--pone",
            "--lowball",
            "--pegging",
            "table",
        ],
    )
    assert bad.exit_code == 2 and "counts the play only simulated" in bad.output
