"""The boards of the other games of two sides (crib_analyze.board.table_boards,
crib_analyze.artifacts.game_boards) and ``odds --game`` reading them.

A deal's events by side against the whole-game twin's points (tests/naive.py:
naive_table_game, one deal far from the target); a split's chance of winning from a
score, deal by deal, against the same twin and the board; the board against whole games
simulated from a sample of scores (the issue's check: within 3 standard errors); a
build's reproducibility and resumption; the packaged file.

Mutations tried (each fails a test here): the dealer's side labelled by the dealer's
seat rather than its side (partners); the board read from the other side's point of
view in ``odds``; the side that deals next inverted in the chance from a score.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.artifacts.game_boards import (
    GameBoards,
    ThreeBoard,
    board_problem,
    game_board,
    packaged_game_boards,
)
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_boards import build_game_board
from crib_analyze.board.table_games import (
    TableRun,
    sides_of,
    simulate_table,
    table_deal,
    throw_tables,
)
from crib_analyze.cli import cli
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.errors import ModelError, UsageError
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.rng_kernels import rng_for
from crib_analyze.rules import game
from crib_analyze.settings import GAMES_WITH_BOARDS
from tests.conftest import kernel_pack, rotating, scaled
from tests.naive import naive_greedy, naive_least, naive_table_game


@pytest.mark.parametrize("name", GAMES_WITH_BOARDS)
def test_a_deals_events_by_side_are_the_rules(name: str) -> None:
    """Deal i is dealt by player i mod P; its events, summed by side and source, are the
    twin's points of the same pack and dealer (greedy play, the expert's throws), the
    dealer's side named 1 and the other 0."""
    r = game(name)
    table = table_deal(r, tk.GREEDY, "expert")
    one, two = throw_tables(r)
    n = scaled(6, 1) if name != "canadian-doubles" else 1
    players, points, sources = tgk.side_events(n, 8, 0, table)
    sides = [int(x) for x in sides_of(r)]
    for i in range(n):
        deck = np.empty(52, np.int64)
        shuffle_into(deck, rng_for(8, tgk.BOARD_STREAMS + 2 * i))
        dealer = i % r.players
        start = [-10_000] * len(set(r.teams))  # nobody reaches the target
        *_, by_seat, _ = naive_table_game(
            r, [[int(c) for c in deck]], None, None, sides, start, dealer, False, naive_greedy,
            tables=lambda player, seat: (one[1, seat].tolist(), two[1, seat].tolist()),
        )  # fmt: skip
        want = np.zeros((2, 4), np.int64)
        for seat in range(r.players):
            dealing = r.teams[seat] == r.teams[r.dealer]
            want[int(dealing)] += by_seat[seat][:4]  # no penalty in these games
        got = np.zeros((2, 4), np.int64)
        for e in range(players.shape[1]):
            if players[i, e] >= 0:
                got[players[i, e], sources[i, e]] += points[i, e]
        assert got.tolist() == want.tolist(), (name, i)


@pytest.mark.parametrize("name", ["five-dealt", "four"])
def test_a_splits_chance_from_a_score_is_the_rules(name: str) -> None:
    """split_wins, sample by sample, against the twin: the pack as the kernel deals it
    (the seat's cards in its place), the seat's split forced, the others by the expert,
    greedy play; the events scored in order from the score; a side reaching the target
    wins then, else the board at the scores after the deal, the deal passing left."""
    from crib_analyze.discard.any_game import splits as all_splits

    r = game(name)
    board, _ = game_board(r)  # type: ignore[misc]
    win = board.win()
    seat, cards = 0, [16, 21, 15, 40, 45]  # 5C 6D 4S JC QD
    options = all_splits(5, 4, 1, 0)[:3]
    masks = np.array([[sum(1 << i for i in part) for part in o] for o in options], np.int64)
    table = table_deal(r, tk.GREEDY, "expert")
    mine, theirs = (108, 104) if name == "five-dealt" else (96, 92)
    samples = scaled(10, 6)
    start = np.zeros(2, np.int64)
    start[sides_of(r)[seat]], start[1 - sides_of(r)[seat]] = mine, theirs
    got = tgk.split_wins(np.array(cards), seat, masks, table, start, win[..., None], samples, 2)
    one, two = throw_tables(r)
    sides = [int(x) for x in sides_of(r)]
    unseen = [c for c in range(52) if c not in cards]
    decided = undecided = 0
    for j in range(samples):
        deck = kernel_pack(cards, unseen, 0, 2, j)  # seat 0's cards first
        for row, (kept, thrown, passed) in enumerate(options):
            start = [0, 0]
            start[sides[seat]], start[1 - sides[seat]] = mine, theirs
            winner, _, _, _, points, _ = naive_table_game(
                r, [deck], None, None, sides, start, r.players - 1, False, naive_greedy,
                tables=lambda player, s: (one[1, s].tolist(), two[1, s].tolist()),
                forced=(seat, [cards[i] for i in kept], [cards[i] for i in thrown],
                        [cards[i] for i in passed]),
            )  # fmt: skip
            if winner >= 0:
                want = 1.0 if winner == sides[seat] else 0.0
                decided += 1
            else:
                undecided += 1
                score = list(start)
                for s2 in range(r.players):
                    score[sides[s2]] += sum(points[s2])
                next_mine = int(sides[0] == sides[seat])
                want = float(win[score[sides[seat]], score[1 - sides[seat]], next_mine])
            assert got[row, j] == pytest.approx(want), (name, row, j)
    assert decided > 0 and undecided > 0  # the test bites: deals that end it, and not


@pytest.mark.parametrize(
    ("name", "variants", "score"),
    [("standard", {"throw_fives": True, "penalty": "zero"}, (104, 100)),
     ("standard", {"lowball": True}, (100, 108)),
     ("five-dealt", {"penalty": "back-ten"}, (104, 108))],
)  # fmt: skip
def test_a_split_played_out_to_the_end_is_the_rules(name, variants, score) -> None:  # type: ignore[no-untyped-def]
    """split_games (the variants, which have no board), sample by sample, against the
    twin: this deal as split_wins deals it with the seat's split forced, then whole
    packs shuffled from the sample's streams, deal after deal, every seat throwing by
    its model and laying greedily, until a side reaches the target: the same side
    first, for every split and sample."""
    from crib_analyze.discard.any_game import splits as all_splits
    from crib_analyze.rng_kernels import rng_next

    r = game(name, **variants)
    seat, cards = 1, [16, 21, 15, 40, 45, 8]  # 5C 6D 4S JC QD 3C: the dealer's
    cards = cards[: r.dealt[seat]]
    options = all_splits(len(cards), r.hand_size, r.thrown[seat], 0)
    if r.throw_fives:  # the legal splits: the five thrown
        options = [o for o in options if 0 in o[1]]
    options = options[:3]
    masks = np.array([[sum(1 << i for i in part) for part in o] for o in options], np.int64)
    low = variants.get("lowball", False)
    table = table_deal(r, tk.LOW_GREEDY if low else tk.GREEDY, "expert")
    samples = scaled(8, 4)
    sides = [int(x) for x in sides_of(r)]
    start = [0, 0]
    start[sides[seat]], start[1 - sides[seat]] = score
    held, at = np.array(cards), np.array(start, np.int64)
    got = tgk.split_games(held, seat, masks, table, at, 0, samples, 5)
    cut = [
        tgk.split_games(held, seat, masks, table, at, lo, n, 5)
        for lo, n in ((0, 1), (1, samples - 1))
    ]
    assert (np.concatenate(cut, axis=1) == got).all()  # the same games however they are cut
    one, two = throw_tables(r)
    unseen = [c for c in range(52) if c not in cards]

    def shuffled(stream: int) -> list[int]:
        rng, deck = rng_for(5, stream), list(range(52))
        for i in range(51, 0, -1):
            k = int(rng_next(rng)) % (i + 1)
            deck[i], deck[k] = deck[k], deck[i]
        return deck

    winners = set()
    for j in range(samples):
        first = kernel_pack(cards, unseen, sum(r.dealt[:seat]), 5, j)
        later = [shuffled(tgk.GAME_STREAMS + j * tgk.MAX_DEALS + k) for k in range(1, 40)]
        for row, (kept, thrown, passed) in enumerate(options):
            winner = naive_table_game(
                r, [first, *later], None, None, sides, start, r.players - 1, False,
                naive_least if low else naive_greedy, low,
                tables=lambda player, s: (one[1, s].tolist(), two[1, s].tolist()),
                forced=(seat, [cards[i] for i in kept], [cards[i] for i in thrown],
                        [cards[i] for i in passed]),
                fives=r.throw_fives, penalty=r.penalty,
            )[0]  # fmt: skip
            assert got[row, j] == winner, (name, variants, row, j)
            winners.add(winner)
    assert winners == {0, 1}  # the test bites: each side reaches the target first somewhere


def test_a_build_is_reproducible_and_resumes(tmp_path) -> None:
    """The same seed gives the same board; a build stopped after its first half resumes
    from the checkpoint to the same board; the board is a board of the game (five-card:
    to 61)."""
    r = game("five-card")
    board, prov = build_game_board(r, 4000, 3)
    assert board_problem(board.values, r) is None and board.values.shape[0] == 61
    assert prov["target"] == 61 and 0 < prov["win_error"]["rms"] < 0.1
    check = tmp_path / "b.checkpoint.npz"
    seen = []

    def stop(entry) -> None:  # type: ignore[no-untyped-def]
        seen.append(entry)
        if entry.step == "deals":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_game_board(r, 4000, 3, log=stop, checkpoint=check)
    assert check.exists()
    again, _ = build_game_board(r, 4000, 3, checkpoint=check)
    assert np.array_equal(board.values, again.values) and not check.exists()


def test_every_game_with_a_board_ships_one_that_whole_games_confirm() -> None:
    """The packaged boards: one for each game of two sides and of three players, checked
    on load; from a sample of scores the board's chance of winning agrees with whole
    games simulated from there by the same players (within 3 standard errors, the
    board's own error added)."""
    boards = packaged_game_boards()
    assert sorted(boards.boards) == sorted(GAMES_WITH_BOARDS)
    name = rotating(list(GAMES_WITH_BOARDS), 1, "game-board-sim")[0]
    r = game(name)
    found = game_board(r)
    assert found is not None
    board, prov = found
    assert prov["deals"] >= 400_000
    t = r.target
    sides = len(r.sides)
    rng = np.random.default_rng(5)
    games = scaled(4000, 1200)
    for _ in range(scaled(4, 2)):
        start = tuple(int(x) for x in rng.integers(t // 2, t - 5, sides))
        run = TableRun(r, seed=int(rng.integers(1 << 30)), start=start, first_dealer=r.dealer)
        stats = simulate_table(games, run)
        label = next(iter(stats.wins))  # the first seat's side, the dealer's about to deal
        simulated, se = stats.wins[label], stats.wins_se[label]
        if isinstance(board, ThreeBoard):  # the left's chance
            exact = float(board.chances(start)[0][0])  # type: ignore[arg-type]
        else:  # the pone's side's
            exact = board.win_at(start[0], start[1], False)
        tol = 3 * np.sqrt(se**2 + prov["win_error"]["rms"] ** 2)
        assert abs(simulated - exact) < tol, (name, start, simulated, exact, se)


def test_odds_reads_the_board_unless_asked_to_simulate() -> None:
    """odds --game of a game of two sides answers from its board at once (the chances of
    the two sides summing to 1, the board named), and simulates when --games or --seed
    is given; five players (no board) simulate; a score past the target is refused."""
    rows = ca.odds_rows(100, 90, game="four")
    assert rows.meta.method == "board table"
    assert float(rows["win"].sum()) == pytest.approx(1.0, abs=2e-3)
    board, _ = game_board(game("four"))  # type: ignore[misc]
    assert float(rows["win"][0]) == pytest.approx(board.win_at(100, 90, False))
    assert float(rows["win"][1]) == pytest.approx(board.win_at(90, 100, True))
    sim = ca.odds_rows(100, 90, game="four", games=40, seed=1)
    assert sim.meta.method == "simulation"
    assert ca.odds_rows(110, 100, 90, 80, 70, game="five", games=30).meta.method == "simulation"
    with pytest.raises(UsageError, match="from 0 to 60"):
        ca.odds_rows(61, 0, game="five-card")
    result = CliRunner().invoke(cli, ["odds", "--game", "five-dealt", "100", "110"])
    assert result.exit_code == 0, result.output
    assert "its board" in result.output


def test_a_damaged_board_file_is_one_error(tmp_path, monkeypatch) -> None:
    boards = packaged_game_boards()
    good = tmp_path / "good.npz"
    GameBoards({"five-card": boards.boards["five-card"]}, {}).save(good)
    assert sorted(GameBoards.load(good).boards) == ["five-card"]
    raw = bytearray(good.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    bad = tmp_path / "bad.npz"
    bad.write_bytes(bytes(raw))
    with pytest.raises(ModelError):
        GameBoards.load(bad)
    monkeypatch.setenv("CRIB_ANALYZE_GAME_BOARDS", str(tmp_path / "none.npz"))
    with pytest.raises(ModelError, match="CRIB_ANALYZE_GAME_BOARDS"):
        game_board(game("four"))


def test_a_variant_s_throws_by_the_chance_of_winning() -> None:
    """`discard --score` under a variant (no board holds it): every game played out to
    its end. At 120-0 the dealer wins at its first point, so almost surely; in lowball
    the first to 121 loses, so it almost surely loses. With a joker in the pack too (a
    smoke test of the path: every split played out; the joker games themselves are
    tested deal by deal in tests/test_table_games.py)."""
    hand = "5H 6S 4D JC QH 9C"
    kw = {"role": "dealer", "score": "120-0", "position_samples": 200}
    fives = ca.analyze(hand, throw_fives=True, **kw)
    assert fives.attrs["meta"].to_the_end and (fives.p_win > 0.95).all()
    assert fives["throw"].str.contains("5H").all()  # the rule: the five goes
    low = ca.analyze(hand, lowball=True, **kw)
    assert (low.p_win < 0.05).all()
    assert "played out to the end" in low.attrs["meta"].assumed
    with pytest.raises(UsageError, match="`score` needs `role`"):
        ca.analyze(hand, lowball=True, score="100-100")
    with pytest.raises(UsageError, match="`need` does not go with `score`"):
        ca.analyze(hand, lowball=True, need=4, **kw)
    wild = ca.analyze(hand.replace("9C", "JK"), jokers=1, **kw)
    assert wild.attrs["meta"].to_the_end and (wild.p_win > 0.95).all()
    assert len(wild) == 15 and wild.attrs["meta"].samples == 200
    out = CliRunner().invoke(
        cli, ["discard", *hand.split(), "--dealer", "--penalty", "zero", "--score", "100-100",
              "--position-samples", "100"],
    )  # fmt: skip
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("As dealer: throw ") and "(wins " in out.stdout.splitlines()[0]


@pytest.mark.heavy(seconds=17)
def test_a_build_on_dask_is_the_same_board(monkeypatch: pytest.MonkeyPatch) -> None:
    """`build-game-boards --scheduler`: the deals dealt on a Dask cluster's workers, in
    pieces (made small here), give the same board as a local build."""
    distributed = pytest.importorskip("distributed")
    from crib_analyze.board import table_boards

    r = game("five-card")
    local, _ = build_game_board(r, 4000, 5)
    monkeypatch.setattr(table_boards, "DASK_PIECE", 700)
    with distributed.LocalCluster(
        n_workers=1, processes=False, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        remote, prov = build_game_board(r, 4000, 5, scheduler=cluster.scheduler_address)
    assert np.array_equal(local.values, remote.values) and prov["deals"] == 4000
    with pytest.raises(UsageError, match="cannot reach"):
        build_game_board(r, 4000, 5, scheduler="tcp://127.0.0.1:9")
