"""Full games (crib-analyze simulate) and how a player with real cards throws.

The expert throw is checked against the discard engine (its best total with the
pegging table), the crib table per rank multiset against the crib computed with the
real cards, games for reproducibility (seeds, batches, threads, a Dask cluster), the
duplicate pairs, and their statistics against the board table built from other deals
and against published figures (with the slack our known differences need).

Mutations tried (each fails a test here): the crib added for the pone instead of
subtracted; the pegging net left out of the expert's value; the duplicate partner dealt
other cards; the first dealer not alternating; the game going on after 121; the skunk
band read from the winner's score; heels worth 3 (``test_games_against_published_figures``).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze import UsageError, simulate
from crib_analyze.artifacts.board_table import packaged_board_table
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.board import throw_choice_kernels as dlk
from crib_analyze.board.expert_throws import throw_arrays
from crib_analyze.board.throws import SPREAD_PLAY
from crib_analyze.cli import cli
from crib_analyze.crib.throw_model_kernels import crib_model_means
from crib_analyze.discard.engine import analyze_hand
from crib_analyze.discard.ranking import discard_rows
from crib_analyze.scoring.show_kernels import rank_table
from tests.conftest import FULL, rotating, scaled

RUNNER = CliRunner()


def random_sixes(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return np.sort(np.array([rng.choice(52, 6, replace=False) for _ in range(n)]), axis=1)


def test_the_crib_table_is_the_crib_of_the_real_cards() -> None:
    """Per rank multiset with canonical suits; the real suits (a crib flush, the suit of
    a thrown jack) move a throw's crib by at most about a tenth of a point."""
    model = load_model()
    arrays = throw_arrays(model)
    pone, dealer = model.throws("pone"), model.throws("dealer")
    gaps = []
    for six in random_sixes(60, 1):
        row = arrays.cribs[:, int(np.searchsorted(arrays.keys, _key(six)))]
        own = crib_model_means(rank_table(), six, pone.P, pone.F, pone.K)
        theirs = crib_model_means(rank_table(), six, dealer.P, dealer.F, dealer.K)
        gaps += [np.abs(row[1] - own).max(), np.abs(row[0] - theirs).max()]
    assert max(gaps) < 0.15 and float(np.median(gaps)) < 0.08


def _key(six: np.ndarray) -> int:
    key = 0
    for card in six:
        key = key * 13 + int(card) // 4
    return key


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_expert_throws_what_discard_recommends(role: str) -> None:
    """The kernel's expert throw against the discard engine's best total (the exact
    expert crib, the pegging table): mostly the same throw, else a close one (the
    kernel's crib is the compact throw model's, per rank multiset)."""
    model = load_model()
    arrays = throw_arrays(model)
    seat = 1 if role == "dealer" else 0
    same, worst, total = 0, 0.0, 0.0
    hands = random_sixes(80, 2 + seat)
    for six in hands:
        t = dlk.throw_of(dlk.EXPERT, six, seat, rank_table(), arrays, np.zeros(1, np.uint64))
        rows = discard_rows(analyze_hand(six, model=model), role=role)
        chosen = next(i for i, d in enumerate(rows["discard"]) if d == _text(six, t))
        same += chosen == 0
        worst = max(worst, float(rows["loss"][chosen]))
        total += float(rows["loss"][chosen])
    assert same >= 0.85 * len(hands) and worst < 0.3, (same, worst)
    assert total / len(hands) < 0.02
    # without the play (points), a different throw is sometimes chosen
    points = [throw(dlk.POINTS, six, seat, arrays) for six in hands]
    expert = [throw(dlk.EXPERT, six, seat, arrays) for six in hands]
    assert points != expert


def throw(kind: int, six: np.ndarray, seat: int, arrays) -> int:  # type: ignore[no-untyped-def]
    rng = np.zeros(1, np.uint64)
    return int(dlk.throw_of(kind, six, seat, rank_table(), arrays, rng))


def _text(six: np.ndarray, t: int) -> str:
    from crib_analyze.cards import format_cards
    from crib_analyze.crib.hand_kernels import DISCARDS

    return format_cards(six[DISCARDS[t]])


@pytest.mark.parametrize("seat", [0, 1])
def test_the_table_player_throws_by_the_hand_and_the_crib_table(seat: int) -> None:
    """The table player's throw has the best hand mean over the 46 starters (scored
    here by the naive scorer) plus (dealer) or minus (pone) the shipped crib table's
    mean for the thrown ranks (read here from its CSV)."""
    import csv

    from crib_analyze.cards import RANKS
    from crib_analyze.crib.hand_kernels import DISCARDS
    from crib_analyze.settings import packaged_crib_table
    from tests.naive import discards_of, naive_hand_scores

    role = "dealer" if seat == 1 else "pone"
    with packaged_crib_table(role, "random").open() as fh:
        crib = {(r["rank1"], r["rank2"]): float(r["crib_mean"]) for r in csv.DictReader(fh)}
    arrays = throw_arrays(load_model())
    for six in random_sixes(12, 7 + seat):
        values = []
        for thrown, kept in discards_of([int(c) for c in six]):
            ranks = sorted(RANKS[c // 4] for c in thrown)
            pair = (ranks[0], ranks[1]) if (ranks[0], ranks[1]) in crib else (ranks[1], ranks[0])
            hand = np.mean(naive_hand_scores([int(c) for c in six], kept))
            values.append((hand + crib[pair] if seat == 1 else hand - crib[pair], thrown))
        t = throw(dlk.TABLE, six, seat, arrays)
        chosen = sorted(int(c) for c in six[DISCARDS[t]])
        best = max(v for v, _ in values)
        assert next(v for v, th in values if sorted(th) == chosen) > best - 1e-9


def test_each_player_lays_by_its_own_play_policy() -> None:
    """Policies are per player: swapping them between the players swaps the games of
    each duplicate pair, so player 0's win rate becomes one minus what it was."""
    from crib_analyze.board.games import GameSettings
    from crib_analyze.board.games import simulate as games

    lays = ("lookahead", "greedy")
    base = GameSettings(players=("expert", "expert"), seed=5)
    one = games(200, replace(base, play_policies=lays))
    two = games(200, replace(base, play_policies=lays[::-1]))
    assert one.player0_wins != 0.5  # one player lays better than the other
    assert one.player0_wins == pytest.approx(1 - two.player0_wins, abs=1e-12)
    same = games(200, replace(base, play_policies=("greedy", "greedy")))
    alike = games(200, replace(base, play_policy="greedy"))
    assert same.player0_wins == alike.player0_wins == 0.5


def test_games_are_reproducible_in_any_batches() -> None:
    a = simulate(20, players=("expert", "points"), seed=3, batch=20)
    b = simulate(20, players=("expert", "points"), seed=3, batch=4)
    np.testing.assert_array_equal(_results(a), _results(b))
    c = simulate(20, players=("expert", "points"), seed=4, batch=20)
    assert not np.array_equal(_results(a), _results(c))


def _results(stats) -> np.ndarray:  # type: ignore[no-untyped-def]
    return np.concatenate([b.results for b in stats.batches])


WORTH = {  # the formats' tables (the rules): a win, a skunk (the loser short of 91)
    "free": lambda loser: 4 if loser < 61 else 2 if loser < 91 else 1,
    "tournament": lambda loser: 3 if loser < 91 else 2,
}


@pytest.mark.parametrize("scoring", rotating(list(WORTH), 1, "match points"))
def test_simulate_counts_match_points_by_the_scoring(scoring: str) -> None:
    """Player 0's match points a game (won less lost) from each game's winner and the
    loser's score, by the rules' table of the format (one format a commit, in turn)."""
    worth = WORTH[scoring]
    s = simulate(20, players=("expert", "points"), seed=3, scoring=scoring, play_policy="greedy")
    r = _results(s)
    got = [
        worth(int(r[i, 3] if r[i, 0] == 0 else r[i, 2])) * (1 if r[i, 0] == 0 else -1)
        for i in range(len(r))
    ]
    assert s.match_points == pytest.approx(np.mean(got))
    assert s.match_points_se > 0
    assert any(abs(g) > 1 for g in got)  # the test bites: some game is worth more than 1


def test_duplicate_pairs_and_game_ends() -> None:
    s = simulate(400, seed=5, play_policy="lookahead")
    r = _results(s)
    assert (r[:, 1] == np.arange(400) % 2).all()  # the first dealer alternates
    # the same policies on the same cards: each pair's games mirror each other
    assert (r[0::2, 0] != r[1::2, 0]).all() and s.player0_wins == 0.5
    winner_score = np.where(r[:, 0] == 0, r[:, 2], r[:, 3])
    loser_score = np.where(r[:, 0] == 0, r[:, 3], r[:, 2])
    assert (winner_score >= 121).all() and (loser_score <= 120).all()
    assert (winner_score <= 121 + 29).all()  # the game stops at the event that reaches 121
    bands = (loser_score < 91).astype(int) + (loser_score < 61) + (loser_score < 31)
    assert (bands == r[:, 5]).all()
    assert sum(s.margins.values()) == 400 and min(s.margins) >= 1


@pytest.mark.heavy(seconds=18)  # 1,000 games played by the solver: half a minute (600 in make test)
def test_games_agree_with_the_board_table() -> None:
    """Games and the table come from different deals and code paths (a walk per game
    against the DP): the first dealer's rate, deals per game, per-deal points. The games
    play the board's policy."""
    p = packaged_board_table().provenance
    s = simulate(scaled(1000, 600), seed=11, play_policy=p["policy"])
    assert abs(s.first_dealer_wins - p["first_dealer_wins"]) < 4 * s.first_dealer_wins_se
    assert abs(s.deals_per_game - p["deals_per_game"]) < 4 * s.deals_per_game_se
    for role in ("dealer", "pone"):
        assert s.points_per_deal[role]["total"] == pytest.approx(
            p["per_deal_points"][role]["total"][0], abs=0.15
        )


# Published figures (issue 11; sources in docs/board.md) and how far ours may sit from
# them. Ours and why they differ: dealer pegging 3.26 against ~3.5 and so 9.11 deals a
# game against 8.6-8.7 (our lookahead pegs a little less than published strong play).
PUBLISHED = {
    ("dealer", "total"): (16.2, 16.7, 0.4),
    ("pone", "total"): (10.1, 10.8, 0.4),
    ("dealer", "pegging"): (3.5, 3.5, 0.4),
    ("pone", "pegging"): (2.0, 2.1, 0.2),
}


@pytest.mark.heavy(seconds=18)
def test_games_against_published_figures() -> None:
    s = simulate(4000 if FULL else 600, seed=12)  # both on the solver
    for (role, source), (lo, hi, slack) in PUBLISHED.items():
        assert lo - slack <= s.points_per_deal[role][source] <= hi + slack, (role, source)
    assert 8.6 - 0.2 <= s.deals_per_game <= 8.7 + 0.6
    assert abs(s.first_dealer_wins - 0.555) < 0.005 + 4 * s.first_dealer_wins_se
    assert s.decided_by[1] == pytest.approx(0.034, abs=0.015)
    assert s.decided_by[2] == pytest.approx(0.037, abs=0.015)
    assert s.points_per_deal["pone"]["heels"] == 0.0 and s.points_per_deal["pone"]["crib"] == 0.0
    assert 0.14 < s.points_per_deal["dealer"]["heels"] < 0.17  # 2 x 4/52 x P(no pegging out)


def test_position_players_run_and_differ() -> None:
    s = simulate(40, players=("position", "expert"), seed=2, position_from=0,
                 position_samples=20)  # fmt: skip
    e = simulate(40, players=("expert", "expert"), seed=2)
    assert not np.array_equal(_results(s), _results(e))  # the score changed some throws
    # the run says how its position player's deals counted the play (the expert's do not)
    assert s.as_dict()["position_play"] in (SPREAD_PLAY, "the play by lookahead")
    assert "position_play" not in e.as_dict()
    with pytest.raises(UsageError, match="discard policy"):
        simulate(10, players=("expert", "psychic"))
    with pytest.raises(UsageError, match="even"):
        simulate(11)


@pytest.mark.heavy(seconds=12)
def test_dask_gives_the_same_games() -> None:
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(
        n_workers=1, processes=False, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        remote = simulate(20, players=("expert", "points"), seed=3, batch=4,
                          scheduler=cluster.scheduler_address)  # fmt: skip
    local = simulate(20, players=("expert", "points"), seed=3, batch=20)
    np.testing.assert_array_equal(_results(remote), _results(local))
    with pytest.raises(UsageError, match="cannot reach"):
        simulate(4, scheduler="tcp://127.0.0.1:9")


def test_simulate_command() -> None:
    result = RUNNER.invoke(cli, ["simulate", "--games", "40", "-q"])
    assert result.exit_code == 0, result.output
    assert "first dealer wins" in result.stdout and "points per deal" in result.stdout
    data = json.loads(RUNNER.invoke(cli, ["simulate", "-n", "40", "-f", "json"]).stdout)
    assert data["games"] == 40 and data["settings"]["players"] == ["expert", "expert"]
    for args, message in [
        (["simulate", "-n", "201"], "even"),
        (["simulate", "--players", "expert"], "two policies"),
        (["simulate", "--players", "expert,psychic"], "psychic"),
        (["simulate", "--play-policy", "psychic"], "psychic"),
    ]:
        bad = RUNNER.invoke(cli, args)
        assert bad.exit_code == 2, (args, bad.output)
        assert message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_games_lay_their_cards_by_the_play_policy(tmp_path: Path) -> None:
    """The same deals with the solver and with the lookahead: the same cards, a
    different play somewhere (so the policy reaches the kernel), and every deal's play
    legal and scored as the independent rules say (read_record replays each one)."""
    from crib_analyze.game_review.record import read_record

    plays = {}
    for policy in ("solver", "lookahead"):
        target = tmp_path / f"{policy}.txt"
        stats = ca.simulate(4, seed=21, record=target, play_policy=policy)  # type: ignore[arg-type]
        assert stats.settings.play_policy == policy
        plays[policy] = read_record(target)
    solver, lookahead = plays["solver"], plays["lookahead"]
    assert solver[0].hand == lookahead[0].hand  # game 0's first deal: the same cards
    n = min(len(solver), len(lookahead))
    assert any(solver[k].play != lookahead[k].play for k in range(n))
    with pytest.raises(UsageError, match="play policy"):
        simulate(4, play_policy="psychic")  # type: ignore[arg-type]


def test_simulate_writes_its_games_as_a_record(tmp_path: Path) -> None:
    """Every deal of every game, from player 0's side, in the format review reads: the
    cards agree with the scores the games report."""
    from crib_analyze.game_review.record import read_record

    target = tmp_path / "games.txt"
    stats = ca.simulate(4, seed=9, record=target)
    deals = read_record(target)
    assert len(deals) == int(sum(b.results[:, 4].sum() for b in stats.batches))
    assert deals[0].dealer and deals[0].score == (0, 0)  # game 0: player 0 deals first
    assert all(len(d.play) >= 8 for d in deals)  # every play written whole
    # the deals of game 0 alternate the deal, and the scores only grow
    first = deals[: int(stats.batches[0].results[0, 4])]
    assert [d.dealer for d in first] == [k % 2 == 0 for k in range(len(first))]
    mine = [d.score[0] for d in first if d.score is not None]
    assert mine == sorted(mine)
    assert not (tmp_path / "games.txt.tmp").exists()


def test_the_games_verdict_names_the_winner_only_beyond_the_noise() -> None:
    from crib_analyze.verdicts import games_verdict

    def stats(players: tuple[str, str], p: float, se: float) -> dict[str, object]:
        return {"settings": {"players": list(players)}, "player0_wins": p,
                "player0_wins_se": se, "first_dealer_wins": 0.554,
                "first_dealer_wins_se": 0.004}  # fmt: skip

    assert games_verdict(stats(("expert", "points"), 0.53, 0.01)) == (
        "expert beats points: it wins 53.0% ± 1.0% of the games"
    )
    assert games_verdict(stats(("points", "expert"), 0.47, 0.01)) == (
        "expert beats points: it wins 53.0% ± 1.0% of the games"
    )
    assert games_verdict(stats(("expert", "points"), 0.515, 0.01)).startswith(
        "expert and points win alike: expert wins 51.5% ± 1.0%"
    )
    assert games_verdict(stats(("expert", "expert"), 0.5, 0.0)) == (
        "expert against itself: the first dealer wins 55.4% ± 0.4%"
    )
