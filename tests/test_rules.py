"""The games of the rules as data (crib_analyze.rules.Rules): every preset deals a
whole crib and whole hands, seats and partners are named consistently, bad games and
seats are one-line errors, and ``crib-analyze games`` lists them.

Mutations tried (each fails a test here): a preset whose crib gets three cards; the
individual form of a partnership game keeping its teams; the dealer not the last seat.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from crib_analyze.cli import cli
from crib_analyze.errors import UsageError
from crib_analyze.rules import CARDS_DEALT, CARDS_KEPT, GAMES, STANDARD, TARGET, Rules, game

# the table of the rules, as the deal-shapes issue words it: (dealt, from the pack to
# the crib, thrown, hand)
ROWS = {
    "standard": ((6, 6), 0, (2, 2), 4),
    "five-dealt": ((5, 5), 2, (1, 1), 4),
    "five-card": ((5, 5), 0, (2, 2), 3),
    "three": ((5, 5, 5), 1, (1, 1, 1), 4),
    "three-dealer-six": ((5, 5, 6), 0, (1, 1, 2), 4),
    "four": ((5, 5, 5, 5), 0, (1, 1, 1, 1), 4),
    "five": ((5, 5, 5, 5, 4), 0, (1, 1, 1, 1, 0), 4),
    "canadian-doubles": ((10, 0, 0, 10), 0, (2, 0, 0, 2), 4),
}


@pytest.mark.parametrize("name", list(ROWS))
def test_each_game_deals_as_the_rules_say(name: str) -> None:
    rules = game(name)
    dealt, from_pack, thrown, hand = ROWS[name]
    assert (rules.dealt, rules.crib_from_deck, rules.thrown, rules.hand_size) == (
        dealt, from_pack, thrown, hand,
    )  # fmt: skip
    assert sum(rules.thrown) + rules.crib_from_deck == 4  # the crib shows four cards
    assert rules.seat_names[-1] == "dealer" and rules.dealer == rules.players - 1
    assert len(set(rules.seat_names)) == rules.players


def test_the_standard_game_is_the_constants_every_engine_reads() -> None:
    assert game() is STANDARD and STANDARD.is_standard
    assert STANDARD.dealt == (CARDS_DEALT, CARDS_DEALT) and STANDARD.hand_size == CARDS_KEPT
    assert STANDARD.target == TARGET and STANDARD.seat_names == ("pone", "dealer")
    assert not any(r.is_standard for n, r in GAMES.items() if n != "standard")


def test_five_card_is_the_old_game() -> None:
    old = game("five-card")
    assert (old.target, old.pone_start, old.play_once) == (61, 3, True)
    assert old.skunk_lines == (46, 31, 16)  # three quarters, half, a quarter, rounded up


def test_partners() -> None:
    four = game("four")
    assert four.partners and four.partner(0) == 2 and four.partner(3) == 1
    alone = game("four", partners=False)
    assert not alone.partners and alone.teams == (0, 1, 2, 3)
    with pytest.raises(UsageError, match="has no single partner"):
        alone.partner(0)
    with pytest.raises(UsageError, match="pass cards to partners"):
        game("canadian-doubles", partners=False)
    with pytest.raises(UsageError, match="no partnership form"):
        game("three", partners=True)
    doubles = game("canadian-doubles")
    assert doubles.partner(0) == 2 and doubles.partner(3) == 1


def test_bad_games_and_seats_are_one_line_errors() -> None:
    with pytest.raises(UsageError, match=r"^no game 'six'; the games: standard, "):
        game("six")
    with pytest.raises(
        UsageError, match=r"three has no seat 'pone'; its seats: left, middle, dealer"
    ):
        game("three").seat("pone")
    assert game("three").seat("middle") == 1 and game("five").seat(4) == 4
    with pytest.raises(UsageError, match="the crib must get 4 cards"):
        Rules("bad", "", dealt=(6, 6), thrown=(1, 2))
    with pytest.raises(UsageError, match="would hold 5 cards"):
        Rules("bad", "", dealt=(6, 7), thrown=(2, 2))
    with pytest.raises(UsageError, match="2 to 5 players"):
        Rules("bad", "", dealt=(5,) * 6, thrown=(1, 1, 1, 1, 0, 0))


def test_the_games_command_lists_every_game() -> None:
    runner = CliRunner()
    result = runner.invoke(cli, ["games"])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert [line.split()[0] for line in lines[: len(GAMES)]] == list(GAMES)
    assert max(len(line) for line in lines) <= 80  # fits a terminal
    assert "  3 players: left middle dealer" in lines
    listed = json.loads(runner.invoke(cli, ["games", "-f", "json"]).stdout)
    assert [row["game"] for row in listed] == list(GAMES)
    three = next(row for row in listed if row["game"] == "three")
    assert (three["dealt"], three["from_pack"], three["target"]) == ("5 5 5", 1, 121)
    bad = runner.invoke(cli, ["games", "-f", "xml"])
    assert bad.exit_code == 2
