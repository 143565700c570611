"""The pegging quiz (``quiz --play``, crib_analyze.play.trainer): positions that are
real positions of the play (your turn, the play so far legal, two or more cards that
fit), cards graded against the advice, and the scripted command line.

Mutations tried (each fails a test here): a position stopped at the opponent's turn;
the loss measured from the worst card; a card that passes 31 accepted.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cards import format_cards, value_of
from crib_analyze.cli import cli
from crib_analyze.errors import CardError
from crib_analyze.play.sequence import PLAYERS, score_sequence
from tests.conftest import rotating, scaled


def test_positions_are_real_turns_of_yours() -> None:
    """Read back as a player writes it (the go's said), the play so far leaves your turn
    at the count shown, and the advice values exactly the cards that fit. Positions just
    after a round's go's (count 0, the go's not forced by a card) are among them."""
    after_goes = 0
    # seed 3 deals one such position in its first six (so does about one seed in three
    # of 0-39: a rotating sample of 8 may hold none, as one CI run found)
    for seed in sorted({3, *rotating(range(40), scaled(40, 8), "play quiz positions")}):
        quiz = ca.start_play_quiz(seed=seed, policy="lookahead", samples=20)
        for _ in range(6):
            p = quiz.deal()
            play = score_sequence(p.played_text)
            assert play.turn == PLAYERS.index(p.role) and play.count == p.count
            assert len(p.legal) >= 2 and set(p.legal) <= set(p.hand)
            assert all(p.count + value_of(c) <= 31 for c in p.legal)
            laid = sum(e.player == p.role for e in play.events if e.card >= 0)
            assert laid + len(p.hand) == 4
            assert set(quiz.advice(p).cards) == set(p.legal), p
            after_goes += p.played_text.endswith("go")
    assert after_goes >= 1


def test_a_card_is_graded_against_the_best() -> None:
    quiz = ca.start_play_quiz(seed=1, role="pone", policy="lookahead", samples=60)
    p = quiz.deal()
    frame = ca.advise_play("pone", list(p.hand), p.starter, list(p.discards), p.played_text,
                           policy="lookahead", samples=60, seed=0)  # fmt: skip
    values = dict(zip(frame.card, frame.value, strict=True))
    for card in p.legal:
        grade = quiz.grade(p, card)
        name = format_cards([card])
        assert grade.loss == pytest.approx(max(values.values()) - values[name])
        assert grade.is_best == (grade.loss <= 1e-9)
    assert quiz.tally.hands == len(p.legal) and quiz.tally.best >= 1
    graded = quiz.tally.hands
    while True:  # a position whose best card is not the first that fits
        later = quiz.deal()
        if quiz.advice(later).cards[0] != later.legal[0]:
            break
    shown = quiz.reveal(later)  # the answer shown: counted apart, not graded
    assert (shown.card, shown.loss, shown.is_best) == (shown.best, 0.0, True)
    assert shown.best == format_cards([quiz.advice(later).cards[0]])
    assert (quiz.tally.hands, quiz.tally.revealed) == (graded, 1)
    late = replace(p, hand=(*p.legal, 51), count=25)  # KS would pass 31 at 25
    with pytest.raises(CardError, match="KS passes 31 at 25"):
        quiz.parse_card(late, "KS")
    with pytest.raises(CardError, match="not in your hand"):
        quiz.parse_card(p, format_cards([c for c in range(52) if c not in p.hand][:1]))


def test_the_scripted_pegging_quiz() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["quiz", "--play", "--rounds", "2", "--seed", "5"],
                        input="7C\n?\n7C\n")  # fmt: skip
    assert out.exit_code == 0, out.output
    assert "is not in your hand: lay one of" in out.output
    assert "The best card: AD." in out.output and "Your card" in out.output
    assert "Your card 7C:" in out.output
    assert "Summary: 1 position graded" in out.output and "1 answer shown" in out.output
    bad = runner.invoke(cli, ["quiz", "--play", "--opponent", "random"])
    assert bad.exit_code == 2 and "--opponent does not go with --play" in bad.output
