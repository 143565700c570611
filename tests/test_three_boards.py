"""The boards of three players each for themselves (crib_analyze.board.three_board_kernels
and its build in crib_analyze.board.table_boards), and ``odds`` and ``discard --score``
reading them: the dynamic programming against the plain recursion of the rules
(tests/naive.py: naive_three_board) on toy games; a split's chance from a score against
the whole-game twin (tests/naive.py: naive_table_game) deal by deal. The packaged boards
against whole games from a sample of scores are in tests/test_game_boards.py.

Mutations tried (each fails a test here): the next deal's seats rotated the wrong way
(the left's chance read from the dealer's); a skunk line one point off; a deal whose
middle total reaches its need counted as not ending the game; the third seat of the
finish tables always the dealer; the seat after the deal passes rotated the wrong way;
the board read at the old seats' scores.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.artifacts.game_boards import ThreeBoard, game_board
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_boards import solve_three_board
from crib_analyze.board.table_games import table_deal, throw_tables
from crib_analyze.cli import cli
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.rules import game
from tests.conftest import event_arrays, kernel_pack, scaled, toy_deal
from tests.naive import naive_greedy, naive_table_game, naive_three_board, naive_three_second

TOY_TARGET, TOY_LINE = 13, 9


def solve(deals: list[list[tuple[int, int]]], merged: bool) -> np.ndarray:
    players, points, weights = event_arrays(deals, merged)
    return solve_three_board(players, points, weights, TOY_LINE, TOY_TARGET)


@settings(max_examples=25, deadline=None)
@given(st.lists(toy_deal(3, 7, 7), min_size=1, max_size=6), st.booleans())
def test_the_board_of_three_is_the_recursion_on_toy_games(deals: list, merged: bool) -> None:
    """Every position: each seat's chance of winning, of winning with a skunk, and the
    deals left; and of second place in the continuation game (naive_three_second: the
    race after a win solved by repeating its equations), to rounding."""
    values = solve(deals, merged)
    naive = naive_three_board(deals, TOY_TARGET, TOY_LINE)
    second = naive_three_second(deals, TOY_TARGET)
    t = range(TOY_TARGET)
    expected = np.array([[[naive(a, b, c) + second(a, b, c) for c in t] for b in t] for a in t])
    np.testing.assert_allclose(values, expected, atol=1e-12)


def test_second_place_covers_each_way_a_toy_game_goes_on() -> None:
    """Fixed toy deals that reach every part of second place: a second in the deal that
    wins (the left wins at its 6, the middle then reaches 7), the race after it, and
    deals in which neither rival scores (the winner's points only: the cycle of the
    race); against the twin, and the chances of second place summing to 1."""
    deals = [[(0, 6), (1, 7), (2, 1)], [(2, 5), (0, 1)], [(1, 3), (2, 2), (0, 4)], [(0, 2)]]
    values = solve(deals, False)
    second = naive_three_second(deals, TOY_TARGET)
    t = range(TOY_TARGET)
    expected = np.array([[[second(a, b, c) for c in t] for b in t] for a in t])
    np.testing.assert_allclose(values[..., 7:], expected, atol=1e-12)
    np.testing.assert_allclose(values[..., 7:].sum(-1), 1.0, atol=1e-12)
    assert values[12, 6, 0, 8] > 0.5  # the middle, 7 short, second in the same deal often


def test_a_splits_chance_from_a_score_reads_the_board_of_three() -> None:
    """split_wins, sample by sample, against the twin: the middle seat's split
    forced, the others by the expert, greedy play; the events scored in order from the
    scores; a seat reaching the target wins then, else the board (here random numbers,
    so a wrong cell or seat shows) at the scores after the deal, seen from the new
    dealer, the old dealer's left."""
    from crib_analyze.discard.any_game import splits as all_splits

    r = game("three")
    seat, cards = 1, [16, 21, 15, 40, 45]  # 5C 6D 4S JC QD
    options = all_splits(5, 4, 1, 0)[:3]
    masks = np.array([[sum(1 << i for i in part) for part in o] for o in options], np.int64)
    table = table_deal(r, tk.GREEDY, "expert")
    win = np.random.default_rng(4).random((r.target,) * 3 + (3,))
    start = [113, 104, 109]  # by seat: left, middle, dealer
    samples = scaled(12, 6)
    got = tgk.split_wins(np.array(cards), seat, masks, table, np.array(start), win, samples, 2)
    one, two = throw_tables(r)
    unseen = [c for c in range(52) if c not in cards]
    place = r.dealt[0]
    decided = undecided = 0
    for j in range(samples):
        deck = kernel_pack(cards, unseen, place, 2, j)
        for row, (kept, thrown, passed) in enumerate(options):
            winner, _, _, _, points, _ = naive_table_game(
                r, [deck], None, None, [0, 1, 2], list(start), r.players - 1, False,
                naive_greedy,
                tables=lambda player, s: (one[1, s].tolist(), two[1, s].tolist()),
                forced=(seat, [cards[i] for i in kept], [cards[i] for i in thrown],
                        [cards[i] for i in passed]),
            )  # fmt: skip
            if winner >= 0:
                want = 1.0 if winner == seat else 0.0
                decided += 1
            else:
                undecided += 1
                after = [start[s] + sum(points[s]) for s in range(3)]
                # the left deals next: left = the old middle, middle = the old dealer
                want = float(win[after[1], after[2], after[0], 0])  # the old middle: left
            assert got[row, j] == pytest.approx(want), (row, j)
    assert decided > 0 and undecided > 0  # the test bites: deals that end it, and not


def test_odds_of_three_read_the_board() -> None:
    """odds --game three answers from the board at once: each seat's chance is the
    board's cell at the scores from the dealer's left (summing to 1), a skunk win no
    likelier than a win, match points 2 a win and 3 a skunk win; five players, with no
    board, simulate."""
    r = game("three")
    found = game_board(r)
    assert found is not None and isinstance(found[0], ThreeBoard)
    cell = found[0].values[110, 80, 95]  # the middle short of the skunk line
    rows = ca.odds_rows(110, 80, 95, game="three")
    assert rows.meta.method == "board table"
    assert rows["seats"].tolist() == ["left", "middle", "dealer"]
    assert rows["score"].tolist() == [110, 80, 95]
    assert float(rows["p_skunk"][0]) > 0.1  # the test bites: skunks are likely here
    assert rows["win"].tolist() == pytest.approx(cell[:3].tolist())
    assert float(rows["win"].sum()) == pytest.approx(1.0, abs=1e-4)
    assert (rows["p_skunk"] <= rows["win"] + 1e-9).all()
    want = 2 * (cell[:3] - cell[3:6]) + 3 * cell[3:6]
    assert rows["match_points"].tolist() == pytest.approx(want.tolist())
    out = CliRunner().invoke(cli, ["odds", "--game", "three-dealer-six", "110", "100", "95"])
    assert out.exit_code == 0, out.output
    assert "its board" in out.output and "P(skunk win)" in out.output


def test_a_seat_ranks_its_splits_by_the_board_of_three() -> None:
    """`discard --game three --seat middle --score MINE-LEFT-DEALER`: the score is the
    seat's first, then the others in seat order; each split's chance is split_wins
    from the scores by seat with the board (the same deals: equal)."""
    from crib_analyze.board.table_throws import score_seat

    r = game("three")
    found = game_board(r)
    assert found is not None
    hand = [16, 21, 15, 40, 45]  # 5C 6D 4S JC QD
    got = score_seat("5C 6D 4S JC QD", r, "middle", (104, 113, 109), samples=60, seed=3)
    assert not got.to_the_end
    masks = np.array(
        [[sum(1 << hand.index(c) for c in part) for part in (k, t, p)]
         for k, t, p in zip(got.kept, got.thrown, got.passed, strict=True)],
        np.int64,
    )  # fmt: skip
    table = table_deal(r, tk.POLICY_CODES["lookahead"], "expert")
    want = tgk.split_wins(
        np.array(hand), 1, masks, table, np.array([113, 104, 109]), found[0].win(), 60, 3
    ).mean(axis=1)
    assert got.win.tolist() == pytest.approx(want.tolist())


def test_a_board_of_three_is_stored_to_a_step_and_checked_when_read(tmp_path) -> None:
    """Saved and loaded, a board of three keeps each chance to within two steps of
    1/65535 (the third seat's win and second place are the rest); it is read when first
    asked for, so the other boards of its file load without it; one whose chances of
    winning or of second place do not sum to 1, or whose bytes changed, is refused in
    one error naming it."""
    from crib_analyze.artifacts.game_boards import QUANTUM, GameBoards
    from crib_analyze.errors import ModelError

    rng = np.random.default_rng(2)
    t = game("three").target

    def spread() -> np.ndarray:
        raw = rng.random((t, t, t, 3))
        return raw / raw.sum(-1, keepdims=True)

    win = spread()
    values = np.concatenate([win, win * rng.random(win.shape), spread()], axis=-1)
    path = tmp_path / "b.npz"
    GameBoards({"three": ThreeBoard("three", values)}, {}).save(path)
    loaded = GameBoards.load(path).boards["three"]
    assert isinstance(loaded, ThreeBoard)
    assert np.abs(loaded.values - values).max() <= 2 / QUANTUM
    cell = loaded.chances((5, 70, 119))
    assert np.concatenate(cell) == pytest.approx(loaded.values[5, 70, 119].tolist(), abs=1e-12)
    fresh = GameBoards.load(path).boards["three"]
    assert isinstance(fresh, ThreeBoard)  # its wins and outcomes unpacked alone
    assert np.array_equal(fresh.win(), loaded.values[..., :3])
    assert np.array_equal(fresh.outcomes(), loaded.values[..., :6])
    for channel, words in ((1, "chances of winning"), (7, "chances of second place")):
        bad = values.copy()
        bad[..., channel] = bad[..., channel - 1]  # the first two seats': not summing to 1
        GameBoards({"three": ThreeBoard("three", bad)}, {}).save(path)
        later = GameBoards.load(path).boards["three"]  # not read yet
        with pytest.raises(ModelError, match=f"three: {words} that do not sum"):
            later.chances((0, 0, 0))


def test_a_changed_board_of_three_is_one_line(tmp_path, monkeypatch) -> None:
    """A file whose board of three was changed after it was made: the boards of two
    sides still answer, and `odds --game three` stops with one line naming the file
    (exit 1)."""
    from crib_analyze.artifacts.game_boards import GameBoards, packaged_game_boards

    boards = packaged_game_boards()
    path = tmp_path / "boards.npz"
    GameBoards({k: boards.boards[k] for k in ("four", "three")}, boards.provenance).save(path)
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["deferred.three"] = arrays["deferred.three"].copy()
    arrays["deferred.three"][0, 5, 5, 5] += 1
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    monkeypatch.setenv("CRIB_ANALYZE_GAME_BOARDS", str(path))
    four = CliRunner().invoke(cli, ["odds", "--game", "four", "100", "90"])
    assert four.exit_code == 0, four.output
    out = CliRunner().invoke(cli, ["odds", "--game", "three", "100", "90", "80"])
    assert out.exit_code == 1, out.output
    assert out.stderr.count("\n") == 1 and "does not match its digest" in out.stderr
    assert str(path) in out.stderr


def test_odds_of_three_with_continuation_read_second_place() -> None:
    """odds --game three --continuation: each seat's chance of second place is the
    board's cell (the three summing to 1), and its match points add 1 for it to the
    winner's 2 or 3; without it there is no such column. Simulated (--games) the same
    columns come from games played on; five players get their chance of second place.
    The continuation of two sides, of the standard game or in lowball is refused in one
    line (exit 2)."""
    found = game_board(game("three"))
    assert found is not None and isinstance(found[0], ThreeBoard)
    cell = found[0].values[110, 80, 95]
    rows = ca.odds_rows(110, 80, 95, game="three", continuation=True)
    assert rows.meta.method == "board table" and rows.meta.continuation
    assert rows["p_second"].tolist() == pytest.approx(cell[6:9].tolist())
    assert float(rows["p_second"].sum()) == pytest.approx(1.0, abs=1e-4)
    assert float(rows["p_second"][1]) < float(rows["p_second"][2])  # 80 behind 95
    want = 2 * (cell[:3] - cell[3:6]) + 3 * cell[3:6] + cell[6:9]
    assert rows["match_points"].tolist() == pytest.approx(want.tolist())
    assert "p_second" not in ca.odds_rows(110, 80, 95, game="three").columns
    out = CliRunner().invoke(cli, ["odds", "--game", "three", "--continuation", "110", "80", "95"])
    assert out.exit_code == 0, out.output
    assert "P(2nd place)" in out.stdout and "1 for second place" in " ".join(out.stdout.split())
    assert "; of second place: dealer " in rows.meta.verdict  # the likeliest second first
    sim = ca.odds_rows(110, 80, 95, game="three", games=200, seed=2, continuation=True)
    assert sim.meta.method == "simulation"
    assert float(sim["p_second"].sum()) == pytest.approx(1.0)
    assert sim["match_points"].tolist() == pytest.approx(
        (2 * sim["win"] + sim["p_skunk"] + sim["p_second"]).tolist(), abs=1e-3
    )
    out = CliRunner().invoke(
        cli, ["odds", "--game", "three", "--continuation", "--games", "200", "110", "80", "95"]
    )
    assert out.exit_code == 0 and "P(2nd place)" in out.stdout, out.output
    assert out.stdout.count(" ± ") >= 6  # the second places and match points, simulated
    five = ca.odds_rows(110, 100, 90, 80, 70, game="five", games=40, continuation=True)
    assert float(five["p_second"].sum()) == pytest.approx(1.0)
    games = CliRunner().invoke(
        cli, ["simulate", "--game", "three", "--continuation", "--games", "30", "-q"]
    )
    assert games.exit_code == 0, games.output
    said = " ".join(games.stdout.split())
    assert "second places by first-deal seat: left " in said and "1 for second place" in said
    for args in (["--game", "four", "100", "90"], ["100", "90"], ["--lowball", "100", "90"],
                 ["--game", "three", "--lowball", "100", "90", "80"]):  # fmt: skip
        out = CliRunner().invoke(cli, ["odds", "--continuation", *args])
        assert out.exit_code == 2, (args, out.output)
        assert out.stderr.count("\n") == 1 and "continuation" in out.stderr, out.stderr


def test_second_place_on_the_board_of_three_agrees_with_games_played_on() -> None:
    """The packaged boards of three: from a sample of scores, each seat's chance of
    second place agrees with whole games played on after the first win (simulate
    --continuation, the same players) within 3 standard errors (the binomial error at
    the board's chance: the sample's own is unsteady for a chance near 0), the board's
    own error added; the chances of winning too."""
    from crib_analyze.board.table_games import TableRun, simulate_table
    from tests.conftest import rotating

    name = rotating(["three", "three-dealer-six"], 1, "second-place-sim")[0]
    r = game(name)
    found = game_board(r)
    assert found is not None and isinstance(found[0], ThreeBoard)
    board, prov = found
    rng = np.random.default_rng(8)
    games = scaled(4000, 1500)
    for _ in range(scaled(4, 2)):
        start = tuple(int(x) for x in rng.integers(r.target // 2, r.target - 5, 3))
        run = TableRun(r, seed=int(rng.integers(1 << 30)), start=start, first_dealer=r.dealer,
                       continuation=True)  # fmt: skip
        stats = simulate_table(games, run)
        win, _, second = board.chances(start)  # type: ignore[arg-type]
        for s, seat in enumerate(r.seat_names):
            for got, exact, error in ((stats.second_places[seat], second[s], "second_error"),
                                      (stats.wins[seat], win[s], "win_error")):  # fmt: skip
                tol = 3 * np.sqrt(exact * (1 - exact) / games + prov[error]["rms"] ** 2)
                assert abs(got - exact) < tol, (name, start, seat, error, got, exact)


def test_a_board_of_three_from_before_second_place_answers_all_but_it(
    tmp_path, monkeypatch
) -> None:
    """A boards file whose board of three stores no second place (made by crib-analyze
    0.4, five channels): `odds --game three` still answers from it, and `--continuation`
    stops with one line saying how to rebuild it (exit 1)."""
    from crib_analyze.artifacts.game_boards import WINS_ONLY, GameBoards

    found = game_board(game("three"))
    assert found is not None and isinstance(found[0], ThreeBoard)
    old = found[0].packed()[:WINS_ONLY].copy()
    path = tmp_path / "old.npz"
    GameBoards({"three": ThreeBoard("three", stored=lambda: old)}, {}).save(path)
    monkeypatch.setenv("CRIB_ANALYZE_GAME_BOARDS", str(path))
    plain = CliRunner().invoke(cli, ["odds", "--game", "three", "110", "100", "80"])
    assert plain.exit_code == 0, plain.output
    assert "0.8621" in plain.stdout  # the same chances as the board in use
    out = CliRunner().invoke(cli, ["odds", "--game", "three", "--continuation", "110", "100", "80"])
    assert out.exit_code == 1, out.output
    assert out.stderr.count("\n") == 1 and "build-game-boards --game three" in out.stderr
