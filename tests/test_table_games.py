"""Whole games of every game of the rules (crib_analyze.board.table_games): the kernel
against a plain-Python twin written from the rules text (tests/naive.py:
naive_table_game), deal by deal on the same packs, from the start and from scores near
the target (where the order of the play and the shows decides who wins); the crib
table against the mean crib of the rules; the command line.

Mutations tried (each fails a test here): the hands counted from the dealer round to
the right (the dealer first); heels to the player on the dealer's left; the pone's three
points of five-card given to the dealer; an opponent's crib added to a throw's value
rather than taken away; the continuation game's winner still scoring.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_games import TableRun, sides_of, simulate_table, table_deal
from crib_analyze.cli import cli
from crib_analyze.crib.any_game_cribs import crib_tables, joker_crib_tables
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.rng_kernels import rng_for
from crib_analyze.rules import GAMES, game
from tests.conftest import FULL, rotating, scaled
from tests.naive import naive_greedy, naive_least, naive_table_game


def decks(seed: int, group: int, jokers: int = 0) -> list[list[int]]:
    """The packs of a rotation group's deals, from the kernel's random streams (input)."""
    out = []
    for k in range(tgk.MAX_DEALS):
        deck = np.empty(52 + jokers, np.int64)
        shuffle_into(deck, rng_for(seed, tgk.DECK_STREAMS + group * tgk.MAX_DEALS + k))
        out.append([int(c) for c in deck])
    return out


def kernel_games(name: str, n: int, start=None, first_dealer=-1, continuation=False, seed=3,
                 lowball=False, **variants):  # fmt: skip
    r = game(name, **variants)
    n_sides = len(set(r.teams))
    s = np.zeros(n_sides, np.int64) if start is None else np.array(start, np.int64)
    table = table_deal(r, tk.LOW_GREEDY if lowball else tk.GREEDY)._replace(
        aim=-1 if lowball else 1
    )
    return tgk.play_table_games(
        n, seed, 0, table, s, r.pone_start if start is None else 0, first_dealer, continuation
    )


def twin_games(name: str, n: int, start=None, first_dealer=-1, continuation=False, seed=3,
               lowball=False, **variants):  # fmt: skip
    r = game(name, **variants)
    throws = tuple(sorted(set(r.thrown)))
    one, two = joker_crib_tables(throws, r.jokers) if r.jokers else crib_tables(throws)
    sides = [int(x) for x in sides_of(r)]
    out = []
    for g in range(n):
        dealer = g % r.players if first_dealer < 0 else first_dealer
        group = g // r.players if first_dealer < 0 else g
        points = [0] * len(set(r.teams)) if start is None else list(start)
        if start is None:  # the first dealer's left-hand player starts with the pone's points
            points[sides[(dealer + 1) % r.players]] += r.pone_start
        out.append(
            naive_table_game(
                r,
                decks(seed, group, r.jokers),
                one.tolist(),
                two.tolist(),
                sides,
                points,
                dealer,
                continuation,
                naive_least if lowball else naive_greedy,
                lowball,
                fives=r.throw_fives,
                penalty=r.penalty,
                jokers=r.jokers,
            )
        )
    return out


def assert_same(kernel, twin) -> None:  # type: ignore[no-untyped-def]
    results, scores, points, by_player = kernel
    for i, (winner, second, deals, at_win, pts, players) in enumerate(twin):
        assert [winner, second, deals] == [
            int(results[i, 0]),
            int(results[i, 1]),
            int(results[i, 3]),
        ]
        assert at_win == scores[i].tolist()
        assert pts == points[i].tolist()
        assert players == by_player[i].tolist()


@pytest.mark.parametrize(
    "name", rotating([g for g in GAMES if g != "canadian-doubles"], 4, "whole games")
)
def test_whole_games_agree_with_the_twin(name: str) -> None:
    n = 2 * game(name).players
    assert_same(kernel_games(name, n), twin_games(name, n))


def test_canadian_doubles_games_agree_with_the_twin() -> None:
    """Ten cards split three ways by each 10-card seat: one game (the slowest twin)."""
    assert_same(kernel_games("canadian-doubles", 1), twin_games("canadian-doubles", 1))


@pytest.mark.parametrize(
    ("name", "variants"),
    rotating(
        [("standard", {"throw_fives": True, "penalty": "back-ten"}),
         ("standard", {"penalty": "zero"}),
         ("five-card", {"throw_fives": True, "penalty": "zero"}),
         ("three", {"throw_fives": True, "penalty": "back-ten"}),
         ("four", {"throw_fives": True, "penalty": "zero"})],
        3, "variants in whole games",
    ),
)  # fmt: skip
def test_throw_fives_and_the_penalties_agree_with_the_twin(name, variants) -> None:  # type: ignore[no-untyped-def]
    """Whole games with every five thrown and a show of nothing penalised: the kernel's
    games equal the twin's, deal by deal, and the rules bite (fives reach the crib, and
    some penalty is scored)."""
    n = 2 * game(name).players
    assert_same(kernel_games(name, n, **variants), twin_games(name, n, **variants))
    penalties = kernel_games(name, 40, **variants)[2][:, :, tgk.PENALTY]
    assert (penalties != 0).any()
    assert ((penalties < 0) if variants["penalty"] == "back-ten" else (penalties > 0)).any()


def test_back_ten_takes_a_score_to_the_start_at_most() -> None:
    """From two points each, a hand or crib of nothing in the first deals would take a
    score below 0: the kernel's games equal the twin's, whose scores stop at 0."""
    v = {"penalty": "back-ten"}
    kernel = kernel_games("standard", 6, start=(2, 2), first_dealer=1, **v)
    assert_same(kernel, twin_games("standard", 6, start=(2, 2), first_dealer=1, **v))


@pytest.mark.parametrize(
    ("name", "start"),
    [("standard", (115, 117)), ("five-card", (55, 57)), ("three", (114, 116, 118)),
     ("four", (112, 116)), ("five", (118, 119, 117, 116, 120))],
)  # fmt: skip
def test_from_a_score_near_the_end_the_order_of_scoring_decides(name, start) -> None:  # type: ignore[no-untyped-def]
    """Games from scores where the play or the first hands decide: the same winners,
    deal by deal, as the twin (forty in make test-all, twenty in make test)."""
    dealer = game(name).players - 1
    n = scaled(40, 20)
    kernel = kernel_games(name, n, start=start, first_dealer=dealer)
    twin = twin_games(name, n, start=start, first_dealer=dealer)
    assert_same(kernel, twin)
    # the test bites: someone other than the dealer's side wins some of them
    assert len({int(w) for w in kernel[0][:, 0]}) > 1


@pytest.mark.parametrize("name", rotating(["three", "four", "five-card"], 1, "mixed-throws"))
def test_players_throw_by_their_own_model_in_every_seat(name: str) -> None:
    """Player 0 throws by tables of its own that differ by seat (the expert's form), the
    others by the hand policy's: the kernel's games equal the twin's, each player's
    tables following it round the table, and the points by player are the twin's."""
    r = game(name)
    rng = np.random.default_rng(3)
    own_one = rng.uniform(2, 9, (r.players, 13))
    a = rng.uniform(2, 9, (r.players, 13, 13))
    own_two = (a + a.transpose(0, 2, 1)) / 2
    one, two = crib_tables(tuple(sorted(set(r.thrown))))
    table = table_deal(r, tk.GREEDY)._replace(
        crib_one=np.stack([np.tile(one, (r.players, 1)), own_one]),
        crib_two=np.stack([np.tile(two, (r.players, 1, 1)), own_two]),
        throws=np.array([1] + [0] * (r.players - 1), np.int64),
    )
    n = r.players * scaled(2, 1)
    zero = np.zeros(len(set(r.teams)), np.int64)
    kernel = tgk.play_table_games(n, 3, 0, table, zero, r.pone_start, -1, False)

    def tables(player: int, seat: int):  # type: ignore[no-untyped-def]
        if player == 0:
            return own_one[seat].tolist(), own_two[seat].tolist()
        return one.tolist(), two.tolist()

    sides = [int(x) for x in sides_of(r)]
    twin = []
    for g in range(n):
        points = [0] * len(set(r.teams))
        points[sides[(g % r.players + 1) % r.players]] += r.pone_start
        twin.append(naive_table_game(r, decks(3, g // r.players), one.tolist(), two.tolist(),
                                     sides, points, g % r.players, False, naive_greedy,
                                     tables=tables))  # fmt: skip
    assert_same(kernel, twin)


def test_the_continuation_game_plays_on_for_second_place() -> None:
    kernel = kernel_games("three", 6, continuation=True)
    twin = twin_games("three", 6, continuation=True)
    assert_same(kernel, twin)
    assert (kernel[0][:, 1] >= 0).all() and (kernel[0][:, 1] != kernel[0][:, 0]).all()


def test_the_crib_of_one_thrown_card_averages_to_the_mean_crib() -> None:
    """Over the thirteen ranks, a crib holding one thrown card and three random ones
    averages to the mean crib of the rules: the mean show 4.769152 less the four-card
    flush a crib does not score without the starter (4 x 4C(13,4)/C(52,4) x 39/48)."""
    one, _ = crib_tables((1,))
    flush = 4 * (4 * 715 / 270725) * 39 / 48
    assert one.mean() == pytest.approx(4.769152 - flush, abs=2e-6)
    assert one.argmax() == 4  # a five


def test_simulate_game_reports_by_seat() -> None:
    stats = simulate_table(60, TableRun(game("three"), seed=1))
    d = stats.as_dict()
    assert set(d["wins"]) == {"left", "middle", "dealer"}
    assert sum(d["wins"].values()) == pytest.approx(1.0)
    assert set(d["match_points"]) == {"left", "middle", "dealer"}
    assert d["settings"]["game"] == "three"


def test_the_cli_simulates_and_gives_odds_for_a_game() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["simulate", "--game", "four", "--games", "40", "-q", "-f", "json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert set(data["wins"]) == {"left+right", "across+dealer"}
    text = runner.invoke(cli, ["simulate", "--game", "four", "--games", "40", "-q"]).stdout
    verdict = text.split("\n40 games")[0].replace("\n  ", " ")  # unwrapped
    p, se = data["wins"]["across+dealer"], data["wins_se"]["across+dealer"]
    if abs(p - 0.5) < 2 * se:
        assert verdict.startswith("In four the seats of the first deal win alike"), text
    else:
        best = max(data["wins"], key=data["wins"].get)
        assert verdict == (
            f"In four the first deal's {best} side wins most: {100 * data['wins'][best]:.1f}% "
            f"± {100 * data['wins_se'][best]:.1f}% of the games (an even share is 50.0%)"
        )
    out = runner.invoke(cli, ["odds", "--game", "three", "110", "100", "90", "--games", "40"])
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    rows = ca.odds_rows(110, 100, 90, games=40, game="three").records()
    chances = sorted(rows, key=lambda r: -r["win"])
    said = ", ".join(f"{r['seats']} {100 * r['win']:.1f}%" for r in chances)
    assert "\n".join(lines[:2]).replace("\n  ", " ") == (
        f"At left 110, middle 100, dealer 90 in three (the dealer about to deal) the "
        f"chance of winning: {said}"
    )
    assert all(len(line) <= 80 for line in lines)
    bad = runner.invoke(cli, ["odds", "--game", "three", "110", "100"])
    assert bad.exit_code == 2 and "3 sides" in bad.output
    bad = runner.invoke(cli, ["simulate", "--game", "four", "--players", "position,expert"])
    assert bad.exit_code == 2 and "--players" in bad.output


def test_the_games_verdict_names_a_seat_only_beyond_the_noise() -> None:
    from crib_analyze.verdicts import game_games_verdict

    def stats(wins: dict[str, float], se: float) -> dict[str, object]:
        return {"settings": {"game": "three"}, "wins": wins, "wins_se": dict.fromkeys(wins, se)}

    assert game_games_verdict(stats({"left": 0.3, "middle": 0.3, "dealer": 0.4}, 0.01)) == (
        "In three the first deal's dealer seat wins most: 40.0% ± 1.0% of the games "
        "(an even share is 33.3%)"
    )
    alike = game_games_verdict(stats({"left": 0.3, "middle": 0.3, "dealer": 0.4}, 0.04))
    assert alike.startswith("In three the seats of the first deal win alike")
    one_off = game_games_verdict(stats({"left": 0.333, "middle": 0.29, "dealer": 0.377}, 0.01))
    assert one_off.startswith("In three the first deal's dealer seat wins most")  # left is even


def test_the_odds_verdict_names_the_likeliest_first() -> None:
    from crib_analyze.results import Rows
    from crib_analyze.verdicts import game_odds_verdict

    rows = Rows(
        {"seats": np.array(["left", "middle", "dealer"]), "score": np.array([90, 110, 100]),
         "win": np.array([0.1, 0.7, 0.2])},
        {"game": "three"},
    )  # fmt: skip
    assert game_odds_verdict(rows) == (
        "At left 90, middle 110, dealer 100 in three (the dealer about to deal) the chance "
        "of winning: middle 70.0%, dealer 20.0%, left 10.0%"
    )


def test_the_solver_plays_whole_games_reproducibly() -> None:
    """--play-policy solver at a table: every seat lays by the solver (its draws from
    each deal's own stream), the same games for the same seed, and not the lookahead's;
    with identical players each rotation group of three games is a permutation, so each
    player wins a third exactly (the solver's draws follow the deal, not the seat)."""
    one = ca.simulate(game="three", games=3, seed=3, play_policy="solver")
    two = ca.simulate(game="three", games=3, seed=3, play_policy="solver")
    look = ca.simulate(game="three", games=3, seed=3)
    assert one.as_dict()["points_per_deal"] == two.as_dict()["points_per_deal"]
    assert one.as_dict()["points_per_deal"] != look.as_dict()["points_per_deal"]
    table = table_deal(game("three"), tk.SOLVER)
    results, _, _, _ = tgk.play_table_games(15, 5, 0, table, np.zeros(3, np.int64), 0, -1, False)
    assert np.bincount(results[:, 0], minlength=3).tolist() == [5, 5, 5]


def test_the_zero_penalty_is_for_two_sides() -> None:
    """The zero penalty's point goes to the opponent: games of two sides take it
    (partners included), three or more sides are refused in the rules themselves."""
    from crib_analyze.errors import UsageError

    assert game("four", penalty="zero").penalty == "zero"
    for name, partners in (("three", None), ("five", None), ("four", False)):
        with pytest.raises(UsageError, match="the zero penalty gives the point to the opponent"):
            game(name, partners, penalty="zero")
    assert game("three", penalty="back-ten").penalty == "back-ten"


#: match points for a win, a skunk, a double and a triple skunk, as the rules give them
#: (the American Cribbage Congress's 2/3; the free game's 1/2/4; the lurch's 1 a win and
#: a double game for a loser short of half the target)
RULES_SCORINGS = {"tournament": (2, 3, 3, 3), "free": (1, 2, 4, 4), "lurch": (1, 1, 2, 2)}


def plain_match_points(winner_side: int, side_scores: list[int], target: int, scoring: str) -> int:
    """What a game of two sides is worth to its winner: the loser short of three
    quarters of the target is skunked, of half doubly, of a quarter triply (rounded up:
    91, 61, 31 of 121; 46, 31, 16 of 61)."""
    loser = side_scores[1 - winner_side]
    lines = [-(-target * q // 4) for q in (3, 2, 1)]
    return RULES_SCORINGS[scoring][sum(loser < line for line in lines)]


@pytest.mark.parametrize(("name", "scoring"), [("five-card", "lurch"), ("five-card", "free"),
                                               ("five-dealt", "tournament")])  # fmt: skip
def test_two_sides_score_match_points_by_the_losers_lines(name: str, scoring: str) -> None:
    """A side's match points a game (won less lost, by the first deal's seat) and the
    shares of skunks from the games' final scores, as the rules read them, for a game to
    61 and one to 121; the games hold skunks (and doubles at 61), so the lines bite."""
    from crib_analyze.board.table_games import summarise

    r = game(name)
    results, scores, points, _ = kernel_games(name, 400)
    stats = summarise((results, scores, points), TableRun(r, scoring=scoring), 0.0)  # type: ignore[arg-type]
    pone, dealer = [], []
    bands = []
    for (winner, _second, first, _deals), at_win in zip(results.tolist(), scores.tolist(),
                                                        strict=True):  # fmt: skip
        pts = plain_match_points(winner, at_win, r.target, scoring)
        pone_side = (first + 1) % 2  # two players: a player's side is the player
        pone.append(pts if winner == pone_side else -pts)
        dealer.append(-pone[-1])
        loser = at_win[1 - winner]
        bands.append(sum(loser < -(-r.target * q // 4) for q in (3, 2, 1)))
    assert stats.match_points["pone"] == pytest.approx(np.mean(pone), abs=1e-4)
    assert stats.match_points["dealer"] == pytest.approx(np.mean(dealer), abs=1e-4)
    assert stats.skunks == pytest.approx(np.mean([b >= 1 for b in bands]), abs=1e-4)
    assert stats.double_skunks == pytest.approx(np.mean([b >= 2 for b in bands]), abs=1e-4)
    assert stats.skunks > 0 and (r.target > 61 or stats.double_skunks > 0)


def test_a_game_to_61_reads_its_match_points_from_its_board() -> None:
    """Five-card to 61: the board's skunk chances and match points from a score agree
    with games simulated from it (the board solved with the lines 46, 31, 16)."""
    board = list(ca.odds_rows(30, 40, game="five-card", scoring="lurch").records())
    sim = ca.odds_rows(30, 40, game="five-card", scoring="lurch", games=scaled(2000, 4000),
                       seed=2).records()  # fmt: skip
    for b, s in zip(board, sim, strict=True):
        assert b["seats"] == s["seats"]
        assert abs(b["match_points"] - s["match_points"]) < 4 * s["match_points_se"] + 0.01
        assert abs(b["p_skunked"] - s["p_skunked"]) < 0.05
    assert board[0]["p_skunked"] > 0.2  # the pone at 30 is short of 46 a third of the time


def test_scoring_chooses_among_two_sides_formats_only() -> None:
    runner = CliRunner()
    bad = runner.invoke(cli, ["odds", "--game", "three", "110", "100", "90", "--scoring", "free"])
    assert bad.exit_code == 2
    assert bad.output.startswith("Error: --scoring chooses the match points of two sides;")
    out = runner.invoke(cli, ["simulate", "--game", "five-card", "--games", "40", "-q",
                              "--scoring", "lurch", "-f", "json"])  # fmt: skip
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["settings"]["scoring"] == "lurch" and data["settings"]["skunk_lines"] == [
        46,
        31,
        16,
    ]
    assert set(data["match_points"]) == {"pone", "dealer"}
    assert data["match_points"]["pone"] == pytest.approx(-data["match_points"]["dealer"])


@pytest.mark.parametrize(
    ("name", "variants", "n"),
    rotating(
        [("standard", {"jokers": 1}, scaled(4, 2)),
         ("five-card", {"jokers": 1}, 2),
         ("three", {"jokers": 1}, 3),
         ("four", {"jokers": 1, "throw_fives": True}, 2)],
        1, "jokers in whole games",
    ),
)  # fmt: skip
def test_jokers_agree_with_the_twin(name, variants, n) -> None:  # type: ignore[no-untyped-def]
    """Whole games with a joker in the pack: thrown or kept by the hand policy with the
    joker's row of the crib tables, shown as its best card, laid as the rank that
    serves best now, heels for a joker cut; the kernel's games equal the twin's, deal
    by deal, and some joker was dealt."""
    kernel = kernel_games(name, n, **variants)
    assert_same(kernel, twin_games(name, n, **variants))
    r = game(name, **variants)
    shown = sum(r.dealt) + r.crib_from_deck + 1  # the cards dealt and the starter
    players = r.players
    jokers_seen = sum(
        52 in deck[:shown]
        for g in range(n)
        for deck in decks(3, g // players, r.jokers)[: int(kernel[0][g, 3])]
    )
    assert jokers_seen > 0


@pytest.mark.skipif(not FULL, reason="two jokers' twin is slow: make test-all")
def test_two_jokers_agree_with_the_twin() -> None:
    assert_same(kernel_games("standard", 2, jokers=2), twin_games("standard", 2, jokers=2))


@pytest.mark.parametrize("seed", rotating(list(range(6)), 4, "solver lays a joker"))
def test_the_solver_lays_its_joker_as_perfect_play_would(seed: int) -> None:
    """The solver's card in a played deal (table_play_kernels.pimc_slot) with a joker
    in hand, the dealer answering the pone's lead: when the cards it cannot see are
    exactly the pone's, every draw is the true deal, so its choice (a card, or the
    joker laid as a rank) is worth what the best answer is worth under perfect play of
    the known cards (tests/naive.py: naive_table_value, brute force)."""
    from tests.naive import JOKER_LAID, lays_of, naive_table_value, value

    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.choice(52, 7, replace=False)]
    pone, mine = cards[:4], [*cards[4:7], 52]
    lead = pone[0]
    hands = np.array([[-1, *pone[1:]], mine], np.int64)
    seen = np.ones(53, np.bool_)
    seen[pone[1:]] = False  # all but the pone's cards left (and its own) seen
    seq = np.zeros(16, np.int64)
    seq[0] = lead >> 2
    teams = np.array([0, 1], np.int64)
    code = tk.pimc_slot(hands.copy(), 1, seen, np.zeros(2, np.bool_), seq, 1, value(lead),
                        teams, False, 1, 3, rng_for(seed, 0))  # fmt: skip
    slot, name = code % 4, code // 4 - 1
    chosen = mine[slot] if mine[slot] < 52 else JOKER_LAID + name

    def worth(card: int) -> int:
        points = naive_table_value([pone, mine], [0, 1], [lead, card], done=1)
        return points[1] - points[0]

    best = max(worth(x) for c in mine for x in lays_of(c, value(lead)))
    assert worth(chosen) == best


def test_jokers_on_the_command_line() -> None:
    """`simulate --jokers` and `odds --jokers` play the pack with jokers (said in the
    output); a third joker is a usage error."""
    runner = CliRunner()
    out = runner.invoke(cli, ["simulate", "--jokers", "1", "--games", "4", "--format", "json"])
    assert out.exit_code == 0, out.output
    got = json.loads(out.stdout)
    assert got["games"] == 4 and got["settings"]["variants"] == ["jokers 1"]
    odds = runner.invoke(cli, ["odds", "100", "110", "--jokers", "1", "--games", "40"])
    assert odds.exit_code == 0, odds.output
    assert "53-card pack" in odds.stdout
    bad = runner.invoke(cli, ["simulate", "--jokers", "3", "--games", "4"])
    assert bad.exit_code == 2 and "--jokers" in bad.output
