"""Jokers in the play (``peg --jokers``): a joker laid as a card already in play makes
five and six of a kind, 20 and 30 (every pair among them, as the rules count pairs);
the kernel against the plain-Python twin of tests/naive.py on sequences with up to six
of a rank, the rules' example written out; a bare joker laid as the card that pegs
most there, against every rank tried by the twin; and the command line.

Mutations tried (each fails a test here): five of a kind scored as a double pair royal
(12); six of a kind as five (20); a joker's card refused as laid twice; a bare joker
laid as the first rank that fits, or the highest of equals.
"""

from __future__ import annotations

import numpy as np
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.cards import parse_card
from crib_analyze.cli import cli
from crib_analyze.play.rules_kernels import lay_points
from tests.naive import naive_lay_points

VALUES = [r + 1 if r < 10 else 10 for r in range(13)]


@settings(max_examples=400, deadline=None)
@given(st.integers(0, 12), st.integers(1, 6), st.lists(st.integers(0, 12), max_size=4))
def test_many_of_a_rank_are_every_pair(rank: int, same: int, before: list[int]) -> None:
    ranks = [*before, *[rank] * same]
    count = sum(VALUES[r] for r in ranks)
    if count > 31 or (before and before[-1] == rank):  # at most six of a rank together
        return
    seq = np.zeros(16, np.int64)
    seq[: len(ranks)] = ranks
    got, _ = lay_points(seq, len(ranks), count)
    assert got == naive_lay_points(ranks, count)[0]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=0, max_size=6, unique=True))
def test_a_bare_joker_pegs_the_most_there(cards: list[int]) -> None:
    """``JK`` after a written play (cut where the count would pass 31) is laid as the
    rank that pegs most there, the lowest of equals: every rank tried by the twin."""
    laid, count = [], 0
    for c in cards:
        if count + VALUES[c // 4] > 31:
            break
        laid.append(c)
        count += VALUES[c // 4]
    if count == 31:
        return
    ranks = [c // 4 for c in laid]
    worth = {
        r: naive_lay_points([*ranks, r], count + VALUES[r])[0]
        for r in range(13)
        if count + VALUES[r] <= 31
    }
    best = max(worth.values())
    want = min(r for r, p in worth.items() if p == best)
    play = ca.score_play([*(ca.format_cards([c]) for c in laid), "JK"], jokers=1)
    assert parse_card(play.card.iloc[-1]) // 4 == want
    assert play.points.iloc[-1] == best  # seven cards at most: the play is not over


def test_six_fives_with_two_jokers() -> None:
    """Pairs 2, 6, 12, 20, 30 as each five joins the others (every pair among them, 2
    each); the third makes 15 too."""
    df = ca.score_play("5H 5C 5S 5D JK=5H JK=5C", jokers=2)
    assert df.points.tolist() == [0, 2, 8, 12, 20, 30]
    assert df.reason.iloc[-1] == "six of a kind 30"


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["peg", "5H", "5C", "5S", "5D", "JK=5H", "--jokers", "1"])
    assert ok.exit_code == 0 and "five of a kind 20" in ok.output
    ok = runner.invoke(cli, ["peg", "5H", "5C", "5S", "5D", "JK", "--jokers", "1"])
    assert ok.exit_code == 0 and "joker as 5C" in ok.output and "five of a kind 20" in ok.output
    for args, words in [
        (["peg", "5H", "JK"], "--jokers"),
        (["peg", "5H", "JK5H", "--jokers", "1"], "JK=5H"),
        (["peg", "5H", "JK=5C", "JK=5D", "--jokers", "1"], "more jokers"),
    ]:
        bad = runner.invoke(cli, args)
        assert bad.exit_code == 2 and words in bad.output, (args, bad.output)
