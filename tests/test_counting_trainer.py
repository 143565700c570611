"""The counting trainer with muggins (crib_analyze.scoring.counting, ``count``): claims
by number and by combinations against shows counted by hand from the rules text, the
opponent's muggins points, and the command line scripted from standard input.

Mutations tried (each fails a test here): a missed combination not given to the
opponent; an overclaim pegged as claimed; a group of three of a rank claiming one pair;
a group claiming every combination its cards are part of.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.errors import CardError
from crib_analyze.scoring.counting import CountDeal, CountingTrainer


def deal(hand: str, starter: str) -> tuple[CountingTrainer, CountDeal]:
    trainer = ca.start_counting(seed=1)
    return trainer, CountDeal(1, ca.count_show(hand, starter))


# 5H 5C 6S 7D + KC, counted from the rules: 5H-KC and 5C-KC fifteens (4), the pair of
# fives (2), the run 5-6-7 twice (6): 12
ALL = "5H KC, 5C KC, 5H 5C, 5H 6S 7D, 5C 6S 7D"


def test_every_combination_claimed_is_the_whole_count() -> None:
    trainer, d = deal("5H 5C 6S 7D", "KC")
    grade = trainer.grade(d, ALL)
    assert (grade.scored, grade.total, grade.muggins, grade.missed) == (12, 12, 0, ())
    assert trainer.tally.perfect == 1


def test_a_missed_run_goes_to_the_opponent() -> None:
    trainer, d = deal("5H 5C 6S 7D", "KC")
    grade = trainer.grade(d, "5H KC, 5C KC, 5H 5C, 5H 6S 7D")
    assert (grade.scored, grade.muggins) == (9, 3)
    assert [(c.kind, ca.format_cards(c.cards)) for c in grade.missed] == [("run", "5C 6S 7D")]
    assert trainer.tally.muggins == 3


def test_a_group_claims_only_its_own_combination() -> None:
    trainer, d = deal("5H 5C 6S 7D", "KC")
    grade = trainer.grade(d, "5H 5C 6S 7D, 5H KC")
    assert grade.scored == 2 and grade.muggins == 10 and grade.wrong == ("5H 5C 6S 7D",)


def test_three_of_a_rank_claims_its_pairs_then_its_fifteen() -> None:
    """5H 5C 5S 2D + 9C: a pair royal (6) and 5+5+5 (2): 8."""
    trainer, d = deal("5H 5C 5S 2D", "9C")
    assert trainer.grade(d, "5H 5C 5S").scored == 6
    trainer, d = deal("5H 5C 5S 2D", "9C")
    grade = trainer.grade(d, "5H 5C 5S, 5H 5C 5S")
    assert (grade.scored, grade.muggins) == (8, 0)


def test_a_number() -> None:
    trainer, d = deal("5H 5C 6S 7D", "KC")
    short = trainer.grade(d, "8")
    assert (short.scored, short.muggins, short.by_number) == (8, 4, True)
    over = trainer.grade(d, "15")
    assert (over.scored, over.muggins) == (12, 0)  # corrected down, no penalty
    with pytest.raises(CardError):
        trainer.grade(d, "5H 9D")  # 9D is not in the show


def test_the_command_line_scripted() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["count", "--seed", "3", "-n", "3"], input="12\n?\nq\n")
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == "Counting with muggins: 3 hands, seed 3 (--seed 3 again)"
    assert "  The count is 2, not 12: you peg 2." in lines
    summary = "Summary: 1 hand counted, 0 exactly; you pegged 2, the opponent 0 by muggins"
    assert lines[-1] == summary
    bad = runner.invoke(cli, ["count", "--seed", "-1"])
    assert bad.exit_code == 2
