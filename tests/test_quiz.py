"""The discard quiz: seeded deals, grading against the analysis, the tally, and the
command line driven from standard input (no terminal needed)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from crib_analyze import analyze
from crib_analyze.cards import format_cards, parse_cards
from crib_analyze.cli import cli
from crib_analyze.discard.trainer import Quiz
from crib_analyze.errors import CardError, UsageError


def test_deals_are_seeded_and_roles_follow_the_option() -> None:
    a, b = Quiz(seed=3), Quiz(seed=3)
    hands = [(a.deal(), b.deal()) for _ in range(5)]
    assert all(x.hand == y.hand and x.role == y.role for x, y in hands)
    assert len({x.hand for x, _ in hands}) == 5
    assert {Quiz(seed=3, role="pone").deal().role for _ in range(3)} == {"pone"}
    with pytest.raises(UsageError):
        Quiz(role="both")


def test_grading_against_the_analysis() -> None:
    quiz = Quiz(seed=11, role="dealer", opponent="random")
    deal = quiz.deal()
    ref = analyze(format_cards(deal.hand), role="dealer", opponent="random")
    best, worst = ref.iloc[0], ref.iloc[-1]
    g1 = quiz.grade(deal, parse_cards(best["discard"]))
    assert (g1.best, g1.loss, g1.rank) == (True, 0.0, 1)
    g2 = quiz.grade(deal, parse_cards(worst["discard"])[::-1])  # any order
    assert g2.loss == pytest.approx(ref["dealer_total"].max() - worst["dealer_total"])
    assert not g2.best
    assert quiz.tally.hands == 2 and quiz.tally.best == 1
    assert quiz.tally.total_loss == pytest.approx(g2.loss)
    with pytest.raises(CardError, match="not in your hand"):
        quiz.parse_throw(deal, "AS 2S" if 0 not in deal.hand else "KS QS")
    with pytest.raises(CardError, match="throw two cards"):
        quiz.parse_throw(deal, format_cards(deal.hand[:3]))


def test_command_line_from_standard_input() -> None:
    quiz = Quiz(seed=5, role="pone")
    deals = [quiz.deal() for _ in range(3)]
    best = deals[0].rows["discard"][0]
    worst = deals[1].rows["discard"][-1]
    answers = f"zz\n{best.lower()}\n{' '.join(reversed(worst.split()))}\n?\n"
    result = CliRunner().invoke(
        cli, ["quiz", "--rounds", "3", "--seed", "5", "--role", "pone"], input=answers
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.count("you are the pone") == 3
    assert "give two of your six" in out.replace(
        "\n    ", " "
    )  # the bad answer got a hint and a new try
    assert f"Your throw {best}: the best throw. Tally: 1 of 1 best (100%)" in out
    loss = float(deals[1].rows["loss"][-1])
    assert f"Your throw {worst}: {loss:.3f} points behind the best (rank 15 of 15)" in out
    summary = out.strip().split("\n\n")[-1].strip().replace("\n  ", " ")  # wrapped at 80
    assert summary == (
        f"Summary: 2 hands graded, 1 best (50%), {loss:.3f} points lost "
        f"({loss / 2:.3f} a hand), 1 answer shown"
    )


def test_quit_and_end_of_input_end_with_a_summary() -> None:
    for answers in ("q\n", ""):
        result = CliRunner().invoke(cli, ["quiz", "--seed", "1"], input=answers)
        assert result.exit_code == 0, result.output
        assert re.search(r"Summary: 0 hands graded", result.stdout)
        assert result.stdout.count("Hand ") == 1
