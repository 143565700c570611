"""One public function per capability: the game goes in as one argument, and an option
that the engine playing that game does not honour is refused in one line naming it,
from the API and from the command line alike (issue 31)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.api.capabilities import CAPABILITIES, SHOWN, dispatch, engine_for
from crib_analyze.cli import cli
from crib_analyze.errors import UsageError

#: a value of each parameter some engine does not honour, as the API takes it
VALUES: dict[str, Any] = {
    "players": ("expert", "points"), "position_from": 80, "position_samples": 100,
    "candidates": 2, "goal": "win", "scoring": "free", "batch": 10, "scheduler": "tcp://x:1",
    "record": "games.txt", "continuation": True, "dealer": True, "games": 100, "seed": 3,
    "role": "pone", "model": "model.npz", "seat": "left", "opponent": "expert",
    "limit": 5, "shard": "1/2", "restart": True, "fmt": "csv", "play_policy": "greedy",
    "score": "100-100", "throw_policy": "hand",
}  # fmt: skip

#: how each capability is called with one parameter and a game
CALLS = {
    "simulate": lambda game, kw: ca.simulate(2, game=game, **kw),
    "advise_play": lambda game, kw: ca.advise_play(0, "5C 9D", "4D", game=game, **kw),
    "generate_table": lambda game, kw: ca.generate_table("t.parquet", game=game, **kw),
    "odds_rows": lambda game, kw: ca.odds_rows(100, 100, game=game, **kw),
}


def test_every_parameter_named_in_the_table_is_refused_by_the_other_engine() -> None:
    """Each capability called through its one function: with another game, each of the
    standard engine's own parameters is refused by name; with the standard game, each
    of the other engine's (no work is done: the refusal comes first)."""
    checked = 0
    for name, call in CALLS.items():
        cap = CAPABILITIES[name]
        for game, foreign, says in (
            ("three", cap.standard_only, "does not go with `game` three"),
            (ca.game("standard", lowball=True), cap.standard_only, "does not go with `lowball`"),
            ("standard", cap.any_game_only, "goes with `game` (another game)"),
        ):
            if not isinstance(game, str) and cap.engine(game) == "standard":
                continue  # a variant this capability's standard engine plays
            for param in foreign:
                with pytest.raises(UsageError) as caught:
                    call(game, {param: VALUES[param]})
                shown = SHOWN.get(param, f"`{param}`") if "not go" in says else f"`{param}`"
                assert str(caught.value) == f"{shown} {says}", (name, param)
                checked += 1
    assert checked >= 30


def test_the_engine_is_chosen_by_the_rules_alone() -> None:
    assert engine_for(ca.game("standard")) == "standard"
    for variant in ({"lowball": True}, {"jokers": 1}, {"throw_fives": True}, {"penalty": "zero"}):
        assert engine_for(ca.game("standard", **variant)) == "any-game", variant
    for name in ("five-dealt", "five-card", "three", "four", "canadian-doubles"):
        assert engine_for(ca.game(name)) == "any-game", name
    rules, engine = dispatch("simulate", "three", {"players": None, "continuation": True})
    assert (rules.name, engine) == ("three", "any-game")  # None: not given


def test_one_function_plays_every_game() -> None:
    """The folded names answer both engines: the standard game by its own engine (the
    two-player statistics, the solver's advice), the others by the any-game one."""
    standard = ca.simulate(4, seed=1, play_policy="lookahead")
    three = ca.simulate(6, seed=1, game="three")
    assert standard.games == 4 and hasattr(standard, "player0_wins")
    assert three.games == 6 and sorted(three.wins) == ["dealer", "left", "middle"]
    lay = ca.advise_play("pone", "KC 2S", played="10H 5S 7C 6D", samples=50)
    assert lay.card.tolist() == ["2S"] and "policy_choice" in lay.columns
    lay = ca.advise_play("dealer", "5C 9D KS 2H", "4D", played="7H 3S", game="three", samples=50)
    assert "net" in lay.columns and lay.card.iloc[0] == "5C"  # 7 + 3 + 5 = 15


def test_the_policy_default_and_choices_follow_the_engine() -> None:
    with pytest.raises(UsageError, match="`play_policy` search does not go with `game` three"):
        ca.simulate(2, game="three", play_policy="search")
    with pytest.raises(UsageError, match="`policy` search does not go with `lowball`"):
        ca.advise_play("pone", "7C 8D 2C", "5H", played="3D 10S",
                       game=ca.game("standard", lowball=True), policy="search")  # fmt: skip
    with pytest.raises(UsageError, match="`starter` is needed"):
        ca.advise_play("dealer", "5C 9D KS 2H", game="three")
    with pytest.raises(UsageError, match="no table for canadian-doubles: a seat's choice"):
        ca.generate_table("t.parquet", game="canadian-doubles")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--game", "three", "--players", "expert,points"],
         "--players does not go with --game three"),
        (["simulate", "--lowball", "--goal", "win"], "--goal does not go with --lowball"),
        (["simulate", "--continuation"], "--continuation goes with --game (another game)"),
        (["simulate", "--game", "four", "--record", "x.txt"],
         "--record does not go with --game four"),
        (["simulate", "--game", "three", "--play-policy", "search"],
         "--play-policy search does not go with --game three; use lookahead, greedy, solver"),
        (["play", "5C", "9D", "--game", "three", "--seat", "left", "--starter", "4D",
          "--model", "m.npz"], "--model does not go with --game three"),
        (["table", "--game", "five-card", "--shard", "1/2"],
         "--shard does not go with --game five-card"),
        (["table", "--game", "five-card", "--restart"],
         "--restart does not go with --game five-card"),
    ],
)  # fmt: skip
def test_the_command_line_names_the_option(args: list[str], message: str) -> None:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"Error: {message}"), result.output


def test_a_discard_request_resolves_once_for_either_engine() -> None:
    """DiscardRequest.resolve states which discard options go together: another game's
    seat refuses each of the standard engine's options by name; a role names the seat;
    the variants counted in points play the random opponent without the play."""
    from crib_analyze.api.requests import STANDARD_DISCARD, DiscardRequest

    values = {"opponent": "expert", "policy": "random", "model": "m.npz",
              "sort": "net", "pegging": "none", "distribution": True, "score": "100-100",
              "goal": "win", "scoring": "free", "position_samples": 100}  # fmt: skip
    for name in STANDARD_DISCARD[1:]:
        with pytest.raises(UsageError) as caught:
            DiscardRequest(game="three", seat="dealer", **{name: values[name]}).resolve()
        assert str(caught.value) == f"`{name}` does not go with `game` three yet", name
    seat = DiscardRequest(game="three", role="dealer").resolve()
    assert (seat.engine, seat.seat, seat.role, seat.others) == (
        "any-game",
        "dealer",
        None,
        "expert",
    )
    with pytest.raises(UsageError, match="`pone` contradicts `seat` left"):
        DiscardRequest(game="four", role="pone", seat="left").resolve()
    with pytest.raises(UsageError, match=re.escape("say which seat: `seat` left|middle|dealer")):
        DiscardRequest(game="three").resolve()
    played = DiscardRequest(jokers=1, opponent="expert", role="pone", pegging="simulated")
    assert (played.resolve().engine, played.resolve().pegging) == ("any-game", "simulated")
    five = DiscardRequest(throw_fives=True).resolve()
    assert (five.engine, five.opponent, five.pegging) == ("standard", "random", "none")
    assert DiscardRequest(game=ca.game("standard", lowball=True)).resolve().lowball is True
    both = DiscardRequest(throw_fives=True, lowball=True, opponent="expert").resolve()
    assert (both.throw_fives, both.lowball, both.opponent) == (True, True, "expert")
    for bad, says in [
        ({"jokers": 1, "opponent": "expert"}, "`opponent` expert with `jokers` needs `role`"),
        (
            {"jokers": 1, "opponent": "expert", "role": "pone", "model": "m.npz"},
            "`model` does not go with `jokers`",
        ),
        (
            {"jokers": 1, "opponent": "expert", "role": "pone", "policy": "expert"},
            "`policy` applies to `opponent` sampled only",
        ),
        ({"jokers": 1, "pegging": "table"}, "`jokers` counts the play only simulated"),
        (
            {"jokers": 1, "opponent": "expert", "role": "pone", "pegging": "table"},
            "the pegging table is the standard game's",
        ),
        ({"game": "three", "seat": "left", "pegging": "table"}, "a seat's play is counted"),
        ({"others": "hand"}, "`others` goes with `game`"),
        ({"score": "100-100"}, "`score` needs `role`"),
        ({"role": "dealer", "score": "100-100", "distribution": True}, "`distribution`"),
        ({"goal": "win"}, "go with `score`"),
        ({"policy": "expert"}, "`policy` applies to `opponent` sampled only"),
        ({"opponent": "random", "model": "m.npz"}, "`model` applies to `opponent` expert"),
    ]:
        with pytest.raises(UsageError, match=re.escape(says)):
            DiscardRequest(**bad).resolve()


def test_analyze_plays_another_game_s_seat_through_the_same_function() -> None:
    from crib_analyze.api.discards import analyze_seat

    by_seat = analyze_seat("5H 6S 4D JC QH", "three", "dealer")
    folded = ca.analyze("5H 6S 4D JC QH", game="three", seat="dealer")
    assert folded.keep.tolist() == by_seat.keep.tolist()
    assert folded.net.tolist() == by_seat.net.tolist()
    assert folded.attrs["verdict"] == by_seat.attrs["verdict"]
    top = ca.analyze_rows("5H 6S 4D JC QH", game="three", role="dealer", top=2)
    assert len(top) == 2 and top.attrs["verdict"] == by_seat.attrs["verdict"]


def test_the_simulate_and_play_requests_resolve_to_their_engine() -> None:
    from crib_analyze.api.board_requests import SimulateRequest
    from crib_analyze.api.play_requests import PlayRequest

    three = SimulateRequest(game="three").resolve()
    assert (three.engine, three.play_policy, three.continuation) == ("any-game", "lookahead", False)
    two = SimulateRequest().resolve()
    assert (two.engine, two.play_policy, two.players) == (
        "standard",
        "solver",
        ("expert", "expert"),
    )
    with pytest.raises(UsageError, match="`players` must be two discard policies"):
        SimulateRequest(players=("expert",)).resolve()
    with pytest.raises(UsageError, match="`continuation` does not go with `lowball`"):
        SimulateRequest(game=ca.game("three", lowball=True), continuation=True).resolve()
    assert PlayRequest(0).resolve().seat == "pone"  # the standard game's seat 0
    assert PlayRequest("left", game="three").resolve().policy == "solver"  # the default
    assert PlayRequest("left", game="four").resolve().policy == "lookahead"  # of partners
    with pytest.raises(UsageError, match="`starter` is needed"):
        PlayRequest("left", game="three", has_starter=False).resolve()
    with pytest.raises(UsageError, match="no seat 'across'"):
        PlayRequest("across", game="three").resolve()


def test_the_odds_table_and_review_requests_resolve_once() -> None:
    from crib_analyze.api.board_requests import OddsRequest
    from crib_analyze.api.play_requests import ReviewRequest
    from crib_analyze.api.table_requests import TableRequest

    board = OddsRequest((95, 100)).resolve()
    assert (board.engine, board.scoring, board.scores) == ("standard", "tournament", (95, 100))
    three = OddsRequest((110, 100, 95), game="three").resolve()
    assert (three.engine, three.method, three.games) == ("any-game", "board", None)
    five = OddsRequest((110, 100, 95, 90, 80), game="five").resolve()
    assert (five.engine, five.play_policy, five.games) == ("any-game", "lookahead", 4000)
    for scores, says in [((95,), "give both scores"), ((1, 2, 3), "give two scores")]:
        with pytest.raises(UsageError, match=says):
            OddsRequest(scores).resolve()
    with pytest.raises(UsageError, match="give the scores of three's 3 sides"):
        OddsRequest((110, 100), game="three").resolve()
    with pytest.raises(UsageError, match="0-120"):
        OddsRequest((121, 3)).resolve()
    table = TableRequest(shard="2/4").resolve()
    assert (table.opponent, table.shard, table.restart) == ("random", (2, 4), False)
    with pytest.raises(UsageError, match="`model` applies to `opponent` expert"):
        TableRequest(model="m.npz").resolve()
    with pytest.raises(UsageError, match="shards are written as Parquet"):
        TableRequest(shard="1/2", fmt="csv").resolve()
    both = TableRequest(game=ca.game("five-card", throw_fives=True, jokers=1)).resolve()
    assert both.engine == "any-game" and both.game == ca.game(
        "five-card", throw_fives=True, jokers=1
    )
    with pytest.raises(UsageError, match="no table for canadian-doubles: a seat's choice"):
        TableRequest(game="canadian-doubles").resolve()
    assert TableRequest(game=ca.game("five-card", throw_fives=True)).resolve().engine == "any-game"
    assert TableRequest(game=ca.game("five-card", lowball=True)).resolve().engine == "any-game"
    assert ReviewRequest().resolve().engine == "standard"
    with pytest.raises(UsageError, match="review reads the standard game's records"):
        ReviewRequest(game="three").resolve()


def test_no_command_line_module_tests_the_game() -> None:
    """The engine for a game is chosen by the API's capability table: no module of the
    command line compares anything with the standard game's name or asks whether rules
    are the standard ones."""
    import ast
    from pathlib import Path

    import crib_analyze.cli

    found = []
    for path in sorted(Path(crib_analyze.cli.__file__).parent.glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Compare):
                names = [node.left, *node.comparators]
                if any(isinstance(n, ast.Constant) and n.value == "standard" for n in names):
                    found.append(f"{path.name}:{node.lineno}")
            if isinstance(node, ast.Attribute) and node.attr in ("is_standard", "plain"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
