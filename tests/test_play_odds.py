"""Play advice from a score (``advise_play(score=)``, ``crib-analyze play --score``): each
card ranked by the chance of winning the game.

The solved line after each card is the solver's own (its differential is the solver's
value of the card); a card that pegs out wins for certain; at the last card of the play
the chance is the one written here from the rules: the card's points and the last
card, the pone's show, the dealer's, then the crib by its spread, else the board table
(scored by the naive scorer, the crib's spread and the board read from their files).

Mutations tried (each fails a test here): the pone's show counted after the dealer's;
the board read with the seat of this deal rather than the next; the line choosing the
worst card; the crib's points off by one.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.artifacts.board_table import load_board
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.board.play_odds import play_odds
from crib_analyze.cards import parse_cards
from crib_analyze.cli import cli
from crib_analyze.play.advice import play_position
from tests.naive import naive_lay_points, naive_score

RUNNER = CliRunner()

POSITIONS = [  # (role, hand, starter, discards, played)
    ("dealer", "5C 9D KS 2H", "4D", "7S 8S", "7H"),
    ("pone", "3C 4D JH", "5S", None, "8C QD"),
    ("dealer", "6D 2H 4S", "KC", None, "10H 5S 7C"),
    ("pone", "AC 2D 9H KS", "5H", "QC QD", ""),
]


@pytest.mark.parametrize("position", POSITIONS)
def test_the_line_after_each_card_is_the_solvers(position: tuple) -> None:  # type: ignore[type-arg]
    """The pegging differential of the line played out after each card is the solver's
    value of that card (its advice, computed by another kernel)."""
    role, hand, starter, discards, played = position
    advice = ca.advise_play(role, hand, starter, discards, played).set_index("card")
    pos = play_position(role, hand, starter, discards, played)
    odds = play_odds(pos, (60, 60), load_model())
    from crib_analyze.cards import format_card

    for card, line in zip(odds.cards, odds.line_value, strict=True):
        assert line == pytest.approx(advice.loc[format_card(card), "value"], abs=1e-9)
    assert ((odds.p_win > 0) & (odds.p_win < 1)).all()  # from 60-60 nothing is sure


def test_a_card_that_pegs_out_wins_for_certain() -> None:
    """119-119, the pone has led a 7: the dealer's 8 makes 15 and wins at once; with
    any other card the pone, who shows first, may yet win."""
    frame = ca.advise_play("dealer", "8C 9D KS 2H", "4D", played="7H", score="119-119")
    assert frame.loc[0, "card"] == "8C" and frame.loc[0, "p_win"] == pytest.approx(1.0, abs=1e-12)
    assert (frame.loc[1:, "p_win"] < 0.9).all()
    assert frame.attrs["score"] == (119, 119)
    assert frame.attrs["verdict"].startswith("As dealer at count 7, 119-119: play 8C (wins 100.0%")


@pytest.mark.parametrize("need", [0, 3, 6])
def test_the_last_card_then_the_shows_in_order(need: int) -> None:
    """The dealer lays the play's last card holding 3H; the game is then decided by the
    shows, the crib (by its spread over the board's deals) and the board table, as
    written here: the crib must bring ``need`` points for the dealer to win at once."""
    played = "TH 5C 9C 7S 8S KS 2D"
    starter = parse_cards("4D")[0]
    pone4 = parse_cards("TH 9C 8S 2D")
    mine4 = parse_cards("5C 7S KS 3H")
    last, _ = naive_lay_points([8 - 1, 13 - 1, 2 - 1, 3 - 1], 23)  # 8 K 2 3 since the reset
    last += 1  # the last card
    pone_show, dealer_show = naive_score(pone4, starter), naive_score(mine4, starter)
    theirs = 121 - pone_show - 1  # one short after its show
    mine = 121 - last - dealer_show - need
    frame = ca.advise_play("dealer", "3H", "4D", played=played, score=(mine, theirs))
    board = load_board()
    spread = np.asarray(board.provenance["per_deal_histogram"]["dealer"]["crib"], np.float64)
    spread /= spread.sum()
    expected = 0.0
    for crib, chance in enumerate(spread):
        if crib >= need:
            expected += chance
        else:  # nobody is out: the board from the next deal, where I am the pone
            a, b = mine + last + dealer_show + crib, theirs + pone_show
            expected += chance * board.values[a, b, 0, :4].sum()
    assert frame.loc[0, "p_win"] == pytest.approx(expected, abs=1e-9)


def test_the_pone_shows_before_the_dealer() -> None:
    """After the last card both hands would reach 121: the pone's is counted first."""
    starter = parse_cards("4D")[0]
    pone_show = naive_score(parse_cards("TH 9C 8S 2D"), starter)
    dealer_show = naive_score(parse_cards("5C 7S KS 3H"), starter)
    score = (121 - 1 - dealer_show, 121 - pone_show)  # the last card is worth 1 to me
    frame = ca.advise_play("dealer", "3H", "4D", played="TH 5C 9C 7S 8S KS 2D", score=score)
    assert frame.loc[0, "p_win"] == pytest.approx(0.0, abs=1e-12)
    as_pone = ca.advise_play("pone", "2D", "4D", played="TH 5C 9C 7S 8S KS", score=score[::-1])
    assert as_pone.loc[0, "p_win"] == pytest.approx(
        1.0, abs=1e-12
    )  # the same deal from the pone's chair


def test_the_command_ranks_by_the_chance_of_winning() -> None:
    args = ["play", "5C", "9D", "KS", "2H", "--dealer", "-s", "4D", "--played", "7H"]
    result = RUNNER.invoke(cli, [*args, "--score", "119-119"])
    assert result.exit_code == 0, result.output
    assert "P(win)" in result.output and "play KS (wins" in result.output
    for extra, message in [
        (["--score", "119-119", "--policy", "lookahead"], "leave out --policy"),
        (["--score", "121-0"], "0-120"),
        (["--score", "119-119", "--game", "three", "--seat", "dealer"], "3 numbers"),
    ]:
        bad = RUNNER.invoke(cli, [*args, *extra])
        assert bad.exit_code == 2 and message in bad.output, bad.output
    no_starter = RUNNER.invoke(cli, ["play", "5C", "9D", "--dealer", "--played", "7H 2C KD",
                                     "--score", "1-1"])  # fmt: skip
    assert no_starter.exit_code == 2 and "needs the --starter" in no_starter.output
