"""The board: deals as ordered scoring events, the dynamic programme over positions, the
shipped table, throws valued from a score, and the odds / build-board / discard --score
commands.

The DP is checked against a top-down recursion written from the rules
(``tests/naive.py: naive_board``) on toy games, raw and after the merging and
de-duplication the build does; the events of real deals against the naive scorer and
the naive play; the table for its symmetry, monotonicity and boundaries.

Mutations tried (each fails a test here): the skunk band taken from the winner's score;
the deal not passing to the other player after a deal; a walk that lets the dealer's
show count before the pone's; consecutive events of one player not merged (the
counts of distinct deals then differ, the DP does not); the hand events swapped in
``events_of``; ``finish`` reading the table with the same dealer; the heels event
dropped; the position kernel dealing each throw its own opponent cards and starter
(``test_throws_share_their_deals``).
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze import UsageError, analyze, deal_points, odds, win_probability
from crib_analyze.artifacts.board_table import BoardTable, load_board, packaged_board_table
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.board import dp_kernels as dpk
from crib_analyze.board import event_kernels as evk
from crib_analyze.board import position_kernels as thk
from crib_analyze.board.build import build_board, distinct_deals
from crib_analyze.board.expert_throws import expert_deals, throw_arrays
from crib_analyze.board.throw_choice_kernels import EXPERT
from crib_analyze.board.throws import SPREAD_PLAY
from crib_analyze.cards import parse_cards
from crib_analyze.cli import cli
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.discard.engine import analyze_hand
from crib_analyze.errors import ModelError
from crib_analyze.play.matches import deal, play_reader
from crib_analyze.play.pegging_kernels import PEG_BINS
from crib_analyze.play.pegging_values import hand_pegging
from crib_analyze.play.play_policy_kernels import new_workspace, play_deal
from crib_analyze.play.spread import NO_SPREAD, play_spread
from crib_analyze.position import OUTCOMES, parse_score
from crib_analyze.rng_kernels import rng_for
from crib_analyze.scoring.show_kernels import rank_table
from tests.conftest import event_arrays, rotating, scaled, toy_deal
from tests.naive import naive_board, naive_play, naive_score

TOY_TARGET, TOY_LINES = 21, (16, 11, 6)
RUNNER = CliRunner()


def solve(deals: list[list[tuple[int, int]]], merged: bool) -> np.ndarray:
    players, points, weights = event_arrays(deals, merged)
    lines = np.array(TOY_LINES, np.int64)
    return np.asarray(dpk.board_values(players, points, weights, TOY_TARGET, lines))


@settings(max_examples=25, deadline=None)
@given(st.lists(toy_deal(2, 6, 6), min_size=1, max_size=8), st.booleans())
def test_the_dp_is_the_recursion_on_toy_games(deals: list, merged: bool) -> None:
    """Every position, every outcome and the deals left, to rounding."""
    values = solve(deals, merged)
    naive = naive_board(deals, TOY_TARGET, TOY_LINES)
    expected = np.array(
        [[[naive(a, b, bool(me)) for me in (0, 1)] for b in range(21)] for a in range(21)]
    )
    np.testing.assert_allclose(values, expected, atol=1e-12)


def test_a_repeated_deal_weighs_as_its_count() -> None:
    deals = [[(0, 3), (1, 5), (1, 1)], [(1, 2), (0, 4)], [(0, 3), (1, 5), (1, 1)]]
    np.testing.assert_allclose(solve(deals, merged=True), solve(deals, merged=False), atol=1e-12)
    players, points, _ = event_arrays(deals)
    _, _, weights = distinct_deals(players, points)
    assert sorted(weights.tolist()) == [1.0, 2.0]


# --- the events of real deals --------------------------------------------------------------


def replay(order: list[int]):  # type: ignore[no-untyped-def]
    """A ``choose`` for naive_play that lays the given cards in turn."""
    cards = iter(order)
    return lambda turn, legal, history: next(cards)


@pytest.mark.heavy
def test_events_are_the_deal_in_scoring_order() -> None:
    model = load_model()
    deals = deal(300, seed=5, model=model)
    weights = play_reader(model)
    policies = np.array([1, 1], np.int64)
    players, points, sources = evk.deal_events(deals, rank_table(), policies, weights, 16, 3, 0)
    jack_starters = 0
    for i, d in enumerate(deals):
        starter = int(d[8])
        expected: list[tuple[int, int, int]] = []
        if starter >> 2 == 10:
            expected.append((1, 2, 0))
            jack_starters += 1
        record = np.zeros((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        play_deal(
            d[0:4], d[4:8], starter, policies, weights, 16, rng_for(3, i), record, work, fwork,
            seen,
        )  # fmt: skip
        order = [int(c) for c in record[:, 1]]  # the cards the policy laid, replayed
        play = naive_play([int(c) for c in d[0:4]], [int(c) for c in d[4:8]], replay(order))
        expected += [(p, pts, 1) for p, _, _, pts, _ in play if pts > 0]
        shows = [
            (0, naive_score([int(c) for c in d[0:4]], starter), 2),
            (1, naive_score([int(c) for c in d[4:8]], starter), 2),
            (1, naive_score([int(c) for c in d[9:13]], starter, crib=True), 3),
        ]
        expected += [s for s in shows if s[1] > 0]
        n = int((players[i] >= 0).sum())
        got = list(
            zip(
                players[i, :n].tolist(),
                points[i, :n].tolist(),
                sources[i, :n].tolist(),
                strict=True,
            )
        )
        assert got == expected, i
        assert (players[i, n:] == -1).all() and (points[i, n:] == 0).all()
    assert jack_starters > 0  # heels were exercised


# --- the shipped table ----------------------------------------------------------------------


@pytest.fixture(scope="module")
def board() -> BoardTable:
    return packaged_board_table()


def test_the_table_adds_up_and_mirrors(board: BoardTable) -> None:
    """Outcomes sum to one; my win from (a, b) dealing is the opponent's loss from (b, a)
    as the pone (the DP computes the two seats separately)."""
    out = board.outcomes()
    np.testing.assert_allclose(out.sum(axis=-1), 1.0, atol=1e-5)
    mirror = np.concatenate([out[..., 4:], out[..., :4]], axis=-1).transpose(1, 0, 2, 3)
    np.testing.assert_allclose(out[:, :, 1], mirror[:, :, 0], atol=1e-5)
    # stored in float32: a certain win must read as exactly 1, never a hair above
    wins = [board.win_at(a, b, d) for a in range(121) for b in range(121) for d in (0, 1)]
    assert max(wins) == 1.0 and board.win().max() == 1.0


def test_more_points_never_hurt(board: BoardTable) -> None:
    win = board.win()
    assert (np.diff(win, axis=0) >= -1e-6).all()  # my score up
    assert (np.diff(win, axis=1) <= 1e-6).all()  # theirs up


def test_boundaries(board: BoardTable) -> None:
    win = board.win()
    assert win[120, 0, 0] == pytest.approx(1.0) and win[120, 0, 1] == pytest.approx(1.0)
    assert win[120, 120, 0] < 0.5  # 120 all: the dealer, who answers the lead, scores first
    assert board.at(120, 0, True)[3] == pytest.approx(1.0)  # the loser under 31: a triple
    # skunks only where the loser can still be under 91 when the game ends
    assert board.outcomes()[:, 91:, :, 1:4].max() < 1e-6
    assert 0.545 < win[0, 0, 1] < 0.575  # the first dealer: 55.5% published
    assert 0.48 < win[35, 37, 1] < 0.54  # dealer on 35, pone on 37: ~51% published
    assert 8.0 < board.deals_left()[0, 0, 1] < 10.0


@pytest.mark.heavy(seconds=8)  # 6,000 deals by the solver (2,000 in make test)
def test_at_120_all_whoever_scores_first_wins(board: BoardTable) -> None:
    """From 120 all the table's chance for the pone is the share of fresh deals (other
    seeds than the table's, played by the table's policy) in which the pone scores first."""
    first = first_scorers(scaled(6_000, 2_000), board.provenance["policy"])
    pone_first = float((first == 0).mean())
    assert board.win()[120, 120, 0] == pytest.approx(pone_first, abs=4 * np.sqrt(0.25 / len(first)))


def first_scorers(n: int, policy: str) -> np.ndarray:
    """Who scores first in each of ``n`` fresh deals (other seeds than the table's)."""
    from crib_analyze.play.matches import policy_code

    model = load_model()
    deals = deal(n, seed=77, model=model)
    code = policy_code(policy)
    players, _, _ = evk.deal_events_reading(
        deals, rank_table(), np.array([code, code], np.int64),
        play_reader(model, reads=policy == "solver"), 16, 77, 0,
    )  # fmt: skip
    return np.asarray(players[:, 0])


def test_the_table_is_what_random_games_from_a_position_give(board: BoardTable) -> None:
    """Games walked deal by deal in plain Python from fresh deals (not the table's)."""
    model = load_model()
    deals = expert_deals(20_000, 5, model)
    players, points, _ = evk.deal_events(
        deals, rank_table(), np.array([1, 1], np.int64), play_reader(model), 16, 5, 1 << 40
    )
    events = [
        [(int(p), int(q)) for p, q in zip(a, b, strict=True) if p >= 0]
        for a, b in zip(players, points, strict=True)
    ]
    rng = np.random.default_rng(0)
    n = 8000
    for start in rotating([(100, 80, 0), (90, 90, 1), (112, 104, 1)], 1, "random-games"):
        wins = 0
        for _ in range(n):
            a, b, me = start
            winner = None
            while winner is None:
                for p, q in events[rng.integers(len(events))]:
                    if p == me:
                        a += q
                    else:
                        b += q
                    if a >= 121 or b >= 121:
                        winner = a >= 121
                        break
                me = 1 - me
            wins += winner
        p_table = board.win()[start]
        se = np.sqrt(p_table * (1 - p_table) / n)
        assert abs(wins / n - p_table) < 4 * se + 0.003, (start, wins / n, p_table)


def test_api_and_provenance(board: BoardTable) -> None:
    assert win_probability(0, 0, dealer=True) == pytest.approx(board.win()[0, 0, 1])
    o = odds(100, 60, dealer=False, scoring="tournament")
    v = board.at(100, 60, False)
    assert o.p_win == pytest.approx(v[:4].sum())
    assert o.match_points == pytest.approx(v[:8] @ [2, 3, 3, 3, -2, -3, -3, -3])
    free = odds(100, 60, dealer=False, scoring="free")
    assert free.match_points == pytest.approx(v[:8] @ [1, 2, 4, 4, -1, -2, -4, -4])
    for p in ("deals", "seed", "expert_model", "per_deal_points", "win_error", "policy"):
        assert p in board.provenance
    with pytest.raises(UsageError, match="0-120"):
        win_probability(121, 0, dealer=True)
    with pytest.raises(UsageError, match="scoring"):
        odds(1, 2, True, scoring="casual")
    assert parse_score("110-115") == (110, 115) and parse_score((3, 4)) == (3, 4)
    for bad in ("110", "a-b", "110-121", "-1-5"):
        with pytest.raises(UsageError):
            parse_score(bad)


# --- building --------------------------------------------------------------------------------


@pytest.mark.heavy(seconds=40)  # compiling the solver's deals for the board: about a minute
def test_the_board_deals_can_be_played_by_the_solver() -> None:
    """``deal_events_reading`` (the build's deals when the solver plays) gives the same
    events as ``deal_events`` for a policy both play, and with the solver its deals
    differ in the play only: the same shows, and pegging that still follows the rules
    (a last card or a go in every deal)."""
    model = load_model()
    cards = expert_deals(60, 4, model)
    quick = np.array([1, 1], np.int64)
    plain = evk.deal_events(cards, rank_table(), quick, play_reader(model), 16, 4, 0)
    read = evk.deal_events_reading(cards, rank_table(), quick, play_reader(model), 16, 4, 0)
    for a, b in zip(plain, read, strict=True):
        np.testing.assert_array_equal(a, b)
    solver = np.array([4, 4], np.int64)
    _, points, sources = evk.deal_events_reading(
        cards, rank_table(), solver, play_reader(model, reads=True), 16, 4, 0
    )
    shows = np.where(sources >= 2, points, 0).sum(axis=1)
    np.testing.assert_array_equal(shows, np.where(read[2] >= 2, read[1], 0).sum(axis=1))
    pegged = np.where(sources == 1, points, 0).sum(axis=1)
    assert (pegged >= 1).all() and not np.array_equal(
        pegged, np.where(read[2] == 1, read[1], 0).sum(axis=1)
    )


def test_build_is_reproducible_and_resumes(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    whole = build_board(deals=4000, seed=9, policy="lookahead")
    again = build_board(deals=4000, seed=9, policy="lookahead")
    np.testing.assert_array_equal(whole.values, again.values)
    checkpoint = tmp_path / "b.checkpoint.npz"

    def stop(entry) -> None:  # type: ignore[no-untyped-def]
        if entry.step == "deals":
            raise KeyboardInterrupt  # killed after the first half's deals

    with pytest.raises(KeyboardInterrupt):
        build_board(deals=4000, seed=9, policy="lookahead", log=stop, checkpoint=checkpoint)
    assert checkpoint.exists()
    steps = []
    resumed = build_board(
        deals=4000, seed=9, policy="lookahead", log=steps.append, checkpoint=checkpoint
    )
    np.testing.assert_array_equal(resumed.values, whole.values)
    assert [s.done for s in steps if s.step == "deals"] == [4000]  # only the second half ran
    assert not checkpoint.exists()
    for key in ("per_deal_points", "per_deal_histogram"):
        assert resumed.provenance[key] == whole.provenance[key]
    other = build_board(deals=4000, seed=10, policy="lookahead")
    assert not np.array_equal(other.values, whole.values)
    path = tmp_path / "board.npz"
    whole.save(path)
    np.testing.assert_allclose(BoardTable.load(path).values, whole.values, atol=1e-6)
    monkeypatch.setenv("CRIB_ANALYZE_BOARD", str(path))
    assert load_board().provenance["deals"] == 4000
    path.write_bytes(b"not a table")
    with pytest.raises(ModelError, match="cannot read the board table"):
        load_board()


@pytest.mark.heavy(seconds=6)
def test_the_build_reports_the_points_per_deal_by_role_and_source() -> None:
    """The histograms of points per deal obey the rules: heels is 2 for a jack starter
    (4 in 52) and only the dealer's, no hand or crib scores 19, 25, 26, 27 or over 29,
    the pone has no crib; means and quartiles agree with the histograms."""
    n = 20_000
    prov = build_board(deals=n, seed=3, policy="lookahead").provenance
    hist, dist, means = (prov[k] for k in ("per_deal_histogram", "per_deal_distribution",
                                           "per_deal_points"))  # fmt: skip
    for role in ("pone", "dealer"):
        for source, counts in hist[role].items():
            counts = np.array(counts)
            assert counts.sum() == n, (role, source)
            x = np.arange(len(counts))
            assert means[role][source][0] == pytest.approx(counts @ x / n, abs=1e-4)
            assert dist[role][source]["max"] == len(counts) - 1
            assert dist[role][source]["p_zero"] == pytest.approx(counts[0] / n, abs=1e-4)
            q = np.repeat(x, counts)
            assert dist[role][source]["quartiles"] == [
                int(np.quantile(q, f, method="inverted_cdf")) for f in (0.25, 0.5, 0.75)
            ]
        assert sum(means[role][s][0] for s in ("heels", "pegging", "hand", "crib")) == (
            pytest.approx(means[role]["total"][0], abs=1e-3)
        )
        counts = np.array(hist[role]["hand"])
        assert len(counts) <= 30 and all(
            counts[k] == 0 for k in (19, 25, 26, 27) if k < len(counts)
        )
    assert hist["pone"]["heels"] == [n] and hist["pone"]["crib"] == [n]
    heels = np.array(hist["dealer"]["heels"])
    assert len(heels) == 3 and heels[1] == 0
    p = 4 / 52
    assert abs(heels[2] / n - p) < 4 * np.sqrt(p * (1 - p) / n)
    crib = np.array(hist["dealer"]["crib"])
    assert len(crib) <= 30 and all(crib[k] == 0 for k in (19, 25, 26, 27) if k < len(crib))


def test_deal_points_frame(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    df = deal_points()
    assert list(df.columns) == ["role", "source", "points", "deals", "share"]
    shares = df.groupby(["role", "source"])["share"].sum()
    np.testing.assert_allclose(shares.to_numpy(), 1.0)
    means = (df["points"] * df["share"]).groupby([df["role"], df["source"]]).sum()
    for (role, source), mean in means.items():
        assert mean == pytest.approx(df.attrs["per_deal_points"][role][source][0], abs=1e-4)
    assert df.query("role == 'pone' and source == 'crib'")["points"].tolist() == [0]
    old = BoardTable(packaged_board_table().values, provenance={"deals": 1})
    old.save(tmp_path / "old.npz")
    monkeypatch.setenv("CRIB_ANALYZE_BOARD", str(tmp_path / "old.npz"))
    with pytest.raises(ModelError, match="rebuild"):
        deal_points()


# --- throws from a score ---------------------------------------------------------------------

HAND = "5H 6S 4D JC QH 5C"


def counting_board(seat: int, size: int = 200) -> np.ndarray:
    """A fake table that returns the scores themselves: channel 0 my score, 4 theirs,
    read at the next deal's seat (the other one; the wrong one adds 1,000)."""
    values = np.zeros((size, size, 2, 9))
    values[..., 0] = np.arange(size)[:, None, None]
    values[..., 4] = np.arange(size)[None, :, None]
    values[:, :, seat, 0] += 1000
    values.setflags(write=False)  # as the board table's are: one compiled signature
    return values


@pytest.mark.parametrize("seat", [0, 1])
def test_the_simulated_deal_scores_what_the_exact_engine_expects(seat: int) -> None:
    """With the target out of reach and a table that reads back the scores, each
    throw's mean points are its exact hand + crib (+ heels) and its pegging."""
    model = load_model()
    hand6 = np.array(parse_cards(HAND), np.int64)
    n = 4000
    raw = thk.position_outcomes(
        hand6, seat, 0, 0, 0, n, 1, EXPERT, throw_arrays(model), np.array([1, 1], np.int64),
        play_reader(model), 16, NO_SPREAD, rank_table(), counting_board(seat), 200,
        np.array([91, 61, 31], np.int64),
    )  # fmt: skip
    out = np.asarray(raw)
    mine, theirs = out[..., 0], out[..., 4]
    role = "dealer" if seat == 1 else "pone"
    a = analyze_hand(hand6, pegging="none", model=model)
    # the position's deals are played by lookahead: its pegging, simulated the same way
    peg = hand_pegging(hand6, role, deals=2000, policy="lookahead", model=model)
    hand = a.hand_scores.mean(axis=1)
    own = hand + (a.dealer_crib + a.heels if seat == 1 else 0.0) + peg.peg_own
    se = mine.std(axis=0) / np.sqrt(n)
    z = (mine.mean(axis=0) - own) / np.sqrt(se**2 + peg.peg_se**2)
    assert np.abs(z).max() < 4.5, (role, z)
    # the opponent: its pegging and the crib when it deals, and its show, the same
    # for every throw (its cards and the starter are shared)
    theirs_varying = peg.peg_opp + (a.pone_crib if seat == 0 else 0.0)
    rest = theirs.mean(axis=0) - theirs_varying
    assert np.ptp(rest) < 0.4, rest
    assert 4.0 < rest.mean() < 10.0  # ~ the opponent's show


def random_counts(seed: int) -> np.ndarray:
    """Deal counts for every cell of the pegging table, made up: a few outcomes a cell."""
    rng = np.random.default_rng(seed)
    hist = np.zeros((2, 1820, PEG_BINS, PEG_BINS), np.int64)
    for _ in range(6):
        own, opp = rng.integers(0, 14, (2, 2, 1820))
        np.add.at(hist, (np.arange(2)[:, None], np.arange(1820)[None, :], own, opp),
                  rng.integers(1, 9, (2, 1820)))  # fmt: skip
    return hist


@pytest.mark.parametrize("seat", [0, 1])
def test_a_drawn_play_pegs_the_means_of_its_keeps_cell(seat: int) -> None:
    """With the play drawn from the deal counts of the pegging build, each throw pegs
    (own and opponent's) the mean of its keep's cell in those counts: the points
    ranking's count of the play. The cells' means are computed here from the counts."""
    model = load_model()
    hist = random_counts(seat)
    hand6 = np.array(parse_cards(HAND), np.int64)
    n = 4000
    raw = thk.position_outcomes(
        hand6, seat, 0, 0, 0, n, 1, EXPERT, throw_arrays(model), np.array([1, 1], np.int64),
        play_reader(model), 16, play_spread(hist), rank_table(), counting_board(seat), 200,
        np.array([91, 61, 31], np.int64),
    )  # fmt: skip
    mine, theirs = np.asarray(raw)[..., 0], np.asarray(raw)[..., 4]
    a = analyze_hand(hand6, pegging="none", model=model)
    shows = a.hand_scores.mean(axis=1) + (a.dealer_crib + a.heels if seat == 1 else 0.0)
    points = np.arange(PEG_BINS)
    rest = np.empty(15)
    for d in range(15):
        cell = hist[seat, kept_rows_of(sorted(int(c) >> 2 for c in hand6[KEEPS[d]]))]
        own = (cell.sum(axis=1) * points).sum() / cell.sum()
        opp = (cell.sum(axis=0) * points).sum() / cell.sum()
        drawn = mine[:, d] - shows[d]
        assert abs(drawn.mean() - own) < 4.5 * mine[:, d].std() / np.sqrt(n), d
        rest[d] = theirs[:, d].mean() - opp - (a.pone_crib[d] if seat == 0 else 0.0)
    # the opponent: the cell's mean on top of its show, the same for every throw
    assert np.ptp(rest) < 0.4, rest
    assert 4.0 < rest.mean() < 10.0  # ~ the opponent's show


def kept_rows_of(ranks: list[int]) -> int:
    """The row of four sorted ranks in the pegging table: lexicographic order."""
    from itertools import combinations_with_replacement

    return list(combinations_with_replacement(range(13), 4)).index(tuple(ranks))


def test_who_pegs_out_first_and_what_the_other_has_by_then() -> None:
    """A drawn play is two totals, each taken as spread evenly over the play: when only
    one player can reach 121 in it, that one wins; when both can, the one needing the
    smaller share of its points is first, the dealer on a tie; and the loser has counted
    that share of its own points by then (rounded down), which decides a skunk (written
    from the rule in ``play_order``'s docstring)."""
    model = load_model()
    hand6 = np.array(parse_cards(HAND), np.int64)

    def outcomes(seat: int, mine: int, theirs: int, own: int, opp: int) -> np.ndarray:
        hist = np.zeros((2, 1820, PEG_BINS, PEG_BINS), np.int64)
        hist[:, :, own, opp] = 1
        raw = thk.position_outcomes(
            hand6, seat, mine, theirs, 0, 200, 1, EXPERT, throw_arrays(model),
            np.array([1, 1], np.int64), play_reader(model), 16, play_spread(hist), rank_table(),
            np.ascontiguousarray(load_board().values, np.float64), 121,
            np.array([91, 61, 31], np.int64),
        )  # fmt: skip
        return np.asarray(raw)  # (samples, throws, 8)

    def p_win(seat: int, mine: int, theirs: int, own: int, opp: int) -> np.ndarray:
        return outcomes(seat, mine, theirs, own, opp)[..., :4].sum(axis=2)  # I won

    assert (p_win(0, 115, 0, 6, 0) == 1).all()  # only I reach it: the pone pegs out
    assert (p_win(0, 0, 118, 0, 3) == 0).all() and (p_win(1, 0, 118, 0, 3) == 0).all()
    # both reach it in the play: I need 6 of 12 (a half), the dealer 6 of 6 (all)
    assert (p_win(0, 115, 115, 12, 6) == 1).all()
    # a tie of shares (6 of 6 each) goes to the dealer, whoever I am
    assert (p_win(0, 115, 115, 6, 6) == 0).all() and (p_win(1, 115, 115, 6, 6) == 1).all()
    # the dealer's heels count before the play: I deal on 113 and peg 10, the pone on
    # 115 pegs 9: 8 of 10 against 6 of 9, the pone first; 6 of 10 after a jack's heels
    jack = p_win(1, 113, 115, 10, 9)[:, 0]  # the starter is a jack 3 times in 46
    assert 0 < jack.mean() < 0.2 and set(jack.tolist()) == {0.0, 1.0}
    # I (pone) on 115 peg out with the last of my 6 points: the dealer on 82 has pegged
    # all its 10 by then (92 or 94 with heels), no skunk; with 4 it is on 86 or 88
    assert (outcomes(0, 115, 82, 6, 10)[..., 0] == 1).all()  # a plain win
    assert (outcomes(0, 115, 82, 6, 4)[..., 1] == 1).all()  # a skunk
    # I need 3 of my 6 (a half), so the dealer has counted 4 of its 8 by then: from 80
    # it is on 84 (86 with heels): a skunk; from 87 on 91 (93): a plain win
    assert (outcomes(0, 118, 80, 6, 8)[..., 1] == 1).all()
    assert (outcomes(0, 118, 87, 6, 8)[..., 0] == 1).all()


def test_throws_from_a_score() -> None:
    frame = analyze(HAND, role="dealer", score=(110, 115), goal="win", position_samples=1000)
    assert {"p_win", "p_win_se", "points_rank", "match_points", "goal_loss"} <= set(frame.columns)
    assert (np.diff(frame["p_win"].to_numpy()) <= 1e-12).all()  # ranked by the chance to win
    assert sorted(frame["points_rank"]) == list(range(1, 16))
    assert (frame["p_win_se"] > 0).all() and (frame["p_win_se"] < 0.02).all()
    assert frame.attrs["score"] == (110, 115)
    assert frame.attrs["position_play"] in (SPREAD_PLAY, "the play by lookahead")
    # a position nobody can lose from: the dealer on 120, the pone on 0
    sure = analyze(HAND, role="dealer", score="120-0", position_samples=200)
    assert (sure["p_win"] == 1.0).all() and (sure["p_skunk"] == 1.0).all()
    again = analyze(HAND, role="dealer", score=(110, 115), position_samples=1000)
    assert again["p_win"].tolist() == frame["p_win"].tolist()  # seeded
    match = analyze(HAND, role="pone", score=(100, 80), goal="match", position_samples=1000)
    assert (np.diff(match["match_points"].to_numpy()) <= 1e-12).all()
    with pytest.raises(UsageError, match="`score` needs `role`"):
        analyze(HAND, score=(110, 115))
    with pytest.raises(UsageError, match="goal"):
        analyze(HAND, role="pone", score=(110, 115), goal="points!")


def test_throws_share_their_deals() -> None:
    """Throwing 5H 6S or 6S 5C keeps hands that differ only in a suit no flush or nobs
    can use: on shared deals every sample scores the same, so the values are equal."""
    frame = analyze(HAND, role="pone", score=(100, 100), position_samples=1000).set_index("discard")
    for a, b in (("5H 6S", "6S 5C"), ("5H 4D", "4D 5C")):
        assert frame.loc[a, "p_win"] == frame.loc[b, "p_win"]
        assert frame.loc[a, "match_points"] == frame.loc[b, "match_points"]


# --- the command line ------------------------------------------------------------------------


def test_odds_command() -> None:
    result = RUNNER.invoke(cli, ["odds", "95", "100", "--dealer"])
    assert result.exit_code == 0, result.output
    assert "you deal" in result.stdout and "you are pone" not in result.stdout
    rows = json.loads(RUNNER.invoke(cli, ["odds", "95", "100", "-f", "json"]).stdout)
    assert [r["dealer"] for r in rows] == [True, False]
    assert rows[0]["p_win"] == pytest.approx(win_probability(95, 100, True))
    both = RUNNER.invoke(cli, ["odds", "95", "100"]).stdout.splitlines()
    deal, pone = (100 * win_probability(95, 100, d) for d in (True, False))  # the verdict
    assert (
        both[0]
        == f"At 95-100 you win {deal:.1f}% as dealer and {pone:.1f}% as pone (by who deals next)"
    )
    assert result.stdout.startswith(f"At 95-100 you win {deal:.1f}% as dealer\n")
    assert all(len(line) <= 80 for line in both)
    csv = RUNNER.invoke(cli, ["odds", "0", "0", "--pone", "-f", "csv"]).stdout.splitlines()
    assert csv[0].startswith("my_score,opp_score,dealer") and len(csv) == 2
    for args, message in [
        (["odds", "121", "3"], "0-120"),
        (["odds", "95"], "give both scores"),
        (["odds"], "give both scores"),
        (["odds", "1", "2", "--dealer", "--pone"], "not both"),
        (["odds", "1", "2", "--scoring", "casual"], "casual"),
        (["odds", "--plot", "board.gif"], ".png or .svg"),
    ]:
        bad = RUNNER.invoke(cli, args)
        assert bad.exit_code == 2, (args, bad.output)
        assert message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_discard_score_command() -> None:
    args = ["discard", *HAND.split(), "--dealer", "--score", "110-115", "--position-samples"]
    result = RUNNER.invoke(cli, [*args, "500"])
    assert result.exit_code == 0, result.output
    assert "P(win)" in result.stdout and "pts #" in result.stdout
    rows = json.loads(RUNNER.invoke(cli, [*args, "500", "-f", "json"]).stdout)
    assert rows[0]["p_win"] == max(r["p_win"] for r in rows)
    for extra, message in [
        (["--score", "110-115"], "--dealer or --pone"),
        (["--dealer", "--goal", "win"], "go with --score"),
        (["--dealer", "--score", "110:115"], "MINE-THEIRS"),
        (["--pone", "--score", "110-115", "--distribution"], "--distribution"),
    ]:
        bad = RUNNER.invoke(cli, ["discard", *HAND.split(), *extra])
        assert bad.exit_code == 2, (extra, bad.output)
        assert message in bad.stderr and len(bad.stderr.strip().splitlines()) == 1


def test_build_board_command(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "b.npz"
    result = RUNNER.invoke(
        cli, ["build-board", "--deals", "4000", "--play-policy", "lookahead", "-o", str(out), "-q"]
    )
    assert result.exit_code == 0, result.output
    assert "first dealer wins" in result.stdout and out.exists()
    assert BoardTable.load(out).provenance["deals"] == 4000
    odd = RUNNER.invoke(cli, ["build-board", "--deals", "4001", "-o", str(out)])
    assert odd.exit_code == 2 and "even" in odd.stderr


def test_outcome_names() -> None:
    assert OUTCOMES[0] == "win" and OUTCOMES[4] == "loss" and len(OUTCOMES) == 8
    assert KEEPS.shape == (15, 4) and DISCARDS.shape == (15, 2)


def test_the_board_solved_in_calls_is_the_board_solved_at_once() -> None:
    """build-board solves the board a few anti-diagonals a call (Ctrl-C is heard between
    them): the same numbers as one call, to the last bit."""
    from crib_analyze.board import build
    from crib_analyze.play.matches import play_reader, policy_code
    from crib_analyze.rules import SKUNK_LINES, TARGET
    from crib_analyze.scoring.show_kernels import rank_table

    model = load_model()
    cards = expert_deals(3000, 5, model)
    code = policy_code("lookahead")
    players, points, _ = evk.deal_events(
        cards, rank_table(), np.array([code, code], np.int64), play_reader(model, reads=False),
        2, 5, build.PLAY_STREAMS,
    )  # fmt: skip
    p, q, c = build.distinct_deals(players, points)
    lines = np.array(SKUNK_LINES, np.int64)
    at_once = dpk.board_values(p, q, c, TARGET, lines)
    np.testing.assert_array_equal(build.solve_board(p, q, c, lines), at_once)
