"""Throws with jokers (``discard --jokers``): the kernel without jokers against the
standard engine, and with a joker in the hand against a plain enumeration of every
starter and every crib (each joker counted by ``best_joker_show``, which
tests/test_jokers.py checks against brute force), heels, and the command line.

Mutations tried (each fails a test here): the crib's starter allowed to be one of the
opponent's cards; the kept hand scored without its joker at its best; heels without the
joker cut.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.scoring import joker_kernels as jk
from crib_analyze.scoring.jokers import parse_with_jokers
from tests.conftest import rotating
from tests.naive import naive_score


def test_without_jokers_the_kernel_is_the_standard_engine() -> None:
    hand = "5H 6S 4D JC QH 5C"
    cards = np.array(ca.parse_cards(hand), np.int64)
    scores, crib, n = jk.joker_hand_values(cards, DISCARDS, KEEPS, 0)
    df = ca.analyze(hand, role="dealer", opponent="random", pegging="none").set_index("discard")
    for d in range(15):
        row = df.loc[ca.format_cards(cards[DISCARDS[d]])]
        assert scores[d].mean() == pytest.approx(row.hand_mean, abs=1e-12)
        assert crib[d] / n == pytest.approx(row.crib_mean, abs=1e-12)


@pytest.mark.parametrize(
    ("hand", "throw"),
    [("5H 6S 4D JC QH JK", None), ("AC 2D 9S JK KH 7C", None),
     ("2H 7H 9H JK 4C 8S", "4C 8S")],  # three hearts and the joker: a flush in hand
)  # fmt: skip
def test_a_joker_in_the_hand_every_starter_and_every_crib(hand: str, throw: str | None) -> None:
    cards = parse_with_jokers(hand, 1)
    arr = np.array(cards, np.int64)
    scores, crib, n = jk.joker_hand_values(arr, DISCARDS, KEEPS, 1)
    unseen = [c for c in range(53) if c not in cards]
    assert n == 47 * 46 // 2 * 45
    named = [d for d in range(15) if ca.format_cards(arr[DISCARDS[d]]) == throw]
    for d in named or rotating(list(range(15)), 2, f"joker throws {hand}"):
        kept = [cards[i] for i in KEEPS[d]]
        thrown = [cards[i] for i in DISCARDS[d]]
        for i, s in enumerate(unseen):  # the kept hand: its joker over every card
            five = [*kept, s]
            if 52 not in five:
                assert scores[d, i] == naive_score(kept, s)
            else:
                best = max(
                    naive_score(*(lambda f: (f[:4], f[4]))([x if c == 52 else c for c in five]))
                    for x in range(52)
                )
                assert scores[d, i] == best
        total = 0
        for a, b in combinations(unseen, 2):
            for s in unseen:
                if s not in (a, b):
                    total += jk.best_joker_show(np.array([*thrown, a, b, s], np.int64), True)[0]
        assert crib[d] == total


def test_heels_count_a_joker_cut() -> None:
    df = ca.analyze("5H 6S 4D 2C QH 3D", role="dealer", opponent="random", pegging="none",
                    jokers=1)  # fmt: skip
    assert df.dealer_heels[0] == pytest.approx(2 * 5 / 47)  # four jacks and the joker


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "JK", "--dealer",
                             "--jokers", "1", "--top", "2"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert "jokers: 1 in a 53-card pack" in ok.output and "5H 6S 4D JK" in ok.output
    for extra, words in [([], "give --jokers"), (["--jokers", "1", "--opponent", "expert"],
                         "random opponent")]:  # fmt: skip
        bad = runner.invoke(
            cli, ["discard", "5H", "6S", "4D", "JC", "QH", "JK", "--dealer", *extra]
        )
        assert bad.exit_code == 2 and words in bad.output, (extra, bad.output)
