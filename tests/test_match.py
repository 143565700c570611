"""Match formats (crib_analyze.board.match_points.play_match, api.match_points): the match-point
arithmetic of each format from the rules text, a six-game free-play match to 5, the
triple skunk that wins a free-triple match outright, and the lurch.

Mutations tried (each fails a test here): the skunk line at 90 rather than 91; a free
double skunk worth 2; the triple skunk not ending a free-triple match; a game after
the match counted.
"""

from __future__ import annotations

import pytest

import crib_analyze as ca
from crib_analyze.board.match_points import play_match
from crib_analyze.errors import UsageError
from crib_analyze.position import game_points

#: each format's points for a win, a skunk, a double and a triple, from the rules text
FORMATS = [
    ("tournament", (2, 3, 3, 3)),
    ("tournament-variant", (2, 3, 4, 4)),
    ("free", (1, 2, 4, 4)),
    ("free-triple", (1, 2, 4, 4)),
    ("lurch", (1, 1, 2, 2)),
]


@pytest.mark.parametrize(("scoring", "expect"), FORMATS)  # losers at 91, 90, 60, 30
def test_what_a_game_is_worth(scoring: str, expect: tuple[int, ...]) -> None:
    assert tuple(game_points(s, scoring) for s in (91, 90, 60, 30)) == expect
    assert game_points(61, scoring) == expect[1] and game_points(31, scoring) == expect[2]


def test_a_six_game_free_play_match_to_five() -> None:
    """Free play (1 a win, 2 a skunk, 4 a double), first to 5: A wins at 100, B skunks
    at 85, A skunks at 88, B wins at 95, B wins at 110, A skunks at 75: 5 to 4 for A."""
    games = [(0, 100), (1, 85), (0, 88), (1, 95), (1, 110), (0, 75)]
    r = play_match(games, "free", 5)
    assert r.points == (1, 2, 2, 1, 1, 2)
    assert r.totals == ((1, 0), (1, 2), (3, 2), (3, 3), (3, 4), (5, 4))
    assert (r.winner, r.decided_at, r.outright) == (0, 6, False)
    df = ca.match_points(games, "free", first_to=5)
    assert df.total_0.tolist()[-1] == 5 and df.attrs["winner"] == 0


def test_a_triple_skunk_wins_a_free_triple_match_outright() -> None:
    r = play_match([(1, 100), (0, 20)], "free-triple", 7)
    assert (r.winner, r.decided_at, r.outright, r.totals[-1]) == (0, 2, True, (4, 1))
    assert play_match([(1, 100), (0, 20)], "free", 7).winner is None


def test_nothing_after_the_match() -> None:
    with pytest.raises(UsageError, match="decided at game 1"):
        play_match([(0, 20), (1, 100)], "free", 4)


@pytest.mark.parametrize(("scoring", "expect"), FORMATS)
def test_a_game_to_61_skunks_at_three_quarters_and_lurches_at_half(
    scoring: str, expect: tuple[int, ...]
) -> None:
    """Issue 36: in a game to 61 the skunk line is three quarters of the target (46),
    the double (the lurch) half (31), the triple a quarter (16), each rounded up as 91,
    61 and 31 are for 121. Every loser's score 0-60, written from those lines."""
    for loser in range(61):
        band = (loser < 46) + (loser < 31) + (loser < 16)
        assert game_points(loser, scoring, target=61) == expect[band], (scoring, loser)
    with pytest.raises(UsageError, match="0-60"):
        game_points(61, scoring, target=61)
    r = play_match([(1, 50), (0, 15)], scoring, 99, target=61)
    assert r.points == (expect[0], expect[3])
    assert r.outright == (scoring == "free-triple")
