"""Lowball (loser's cribbage) on the board and in the play (its throws: test_lowball.py):
whole games against the plain-Python twin with every seat splitting and laying for the
fewest points; the lowball reply against an enumeration of the holding model; the
advice and the seat throws turned round; the first to the target losing; the command
line and the variants as fields of the rules.

Mutations tried (each fails a test here): the throws still for the most points; the
lowball play laying the card worth most; the least reply taken as the best; the winner
not turned round (the first to the target winning); the play advice ranked highest net
first; a variant the whole game does not play let through.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest
from click.testing import CliRunner

from crib_analyze.board.table_games import TableRun, simulate_table
from crib_analyze.cli import cli
from crib_analyze.discard.any_game import analyze_seat
from crib_analyze.errors import UsageError
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.play.reply_kernels import expected_least_reply
from crib_analyze.play.rules_kernels import reply_points
from crib_analyze.play.table_advice import advise_table
from crib_analyze.rules import game
from tests.conftest import rotating, scaled
from tests.naive import naive_lay_points, rank, value
from tests.test_table_games import assert_same, kernel_games, twin_games


@pytest.mark.parametrize(
    "name", rotating(["standard", "five-card", "four", "five-dealt"], 2, "lowball")
)
def test_lowball_games_agree_with_the_twin(name: str) -> None:
    n = 2 * game(name).players
    assert_same(kernel_games(name, n, lowball=True), twin_games(name, n, lowball=True))


def test_lowball_games_from_near_the_end_agree_with_the_twin() -> None:
    kernel = kernel_games("standard", 12, start=(110, 112), first_dealer=1, lowball=True)
    assert_same(kernel, twin_games("standard", 12, start=(110, 112), first_dealer=1, lowball=True))


def test_lowball_deals_score_less() -> None:
    """Every seat throwing and laying for the fewest points scores fewer a deal."""
    low = kernel_games("standard", 40, lowball=True)
    high = kernel_games("standard", 40)
    per_deal = [p[2].sum() / p[0][:, 3].sum() for p in (low, high)]
    assert per_deal[0] < per_deal[1] - 3


def test_the_first_to_the_target_loses() -> None:
    stats = simulate_table(60, TableRun(game("standard", lowball=True), seed=2))
    results, scores, _ = stats.raw
    rows = np.arange(len(results))
    winner = results[:, 0]
    assert (scores[rows, winner] < 121).all()
    assert (scores[rows, 1 - winner] >= 121).all()
    assert stats.skunks == 0.0
    assert sum(stats.wins.values()) == pytest.approx(1.0)


def test_a_whole_game_refuses_what_it_does_not_play() -> None:
    with pytest.raises(UsageError, match="two sides"):
        simulate_table(2, TableRun(game("three", lowball=True)))


def enumerated_reply(pts, count, left, weight, k, least=True) -> float:  # type: ignore[no-untyped-def]
    """The holding model of the reply, enumerated: each rank r is held (one or more of
    its ``left[r]`` cards, each with probability min(1, k w_r / sum left w))
    independently; the reply is the least (or the most) of the points ``pts`` of the
    held ranks that fit under 31, 0 with none."""
    total = sum(left[r] * weight[r] for r in range(13))
    fit = [r for r in range(13) if left[r] and count + min(r + 1, 10) <= 31]
    held = {r: 1 - (1 - min(1.0, k * weight[r] / total)) ** left[r] for r in fit}
    expected = 0.0
    for pattern in itertools.product((0, 1), repeat=len(fit)):
        prob = 1.0
        for r, h in zip(fit, pattern, strict=True):
            prob *= held[r] if h else 1 - held[r]
        got = [pts[r] for r, h in zip(fit, pattern, strict=True) if h]
        expected += prob * ((min(got) if least else max(got)) if got else 0)
    return expected


@pytest.mark.parametrize(
    ("ranks", "count", "k"),
    [((4,), 5, 3), ((6, 7), 15, 2), ((9, 9), 20, 4), ((2, 3), 7, 1), ((12, 11), 20, 4)],
)
def test_the_least_reply_is_the_enumerated_holding_model(ranks, count, k) -> None:  # type: ignore[no-untyped-def]
    seq = np.zeros(16, np.int64)
    seq[: len(ranks)] = ranks
    left = np.array([4 - ranks.count(r) for r in range(13)], np.int64)
    left[5] = 1  # some ranks nearly gone
    weight = np.linspace(0.5, 1.5, 13)
    pts = np.empty(13, np.int64)
    got = expected_least_reply(
        seq, len(ranks), count, left, weight, k, pts, np.empty(13), np.empty(13, np.int64)
    )
    reply_points(seq, len(ranks), count, pts, np.empty(13, np.int64))
    assert got == pytest.approx(enumerated_reply(pts.tolist(), count, left, weight, k), abs=1e-12)


def test_the_lowball_play_lays_the_least() -> None:
    """At 10 with 5, 6 and 9: greedy makes 15, lowball lays a card worth nothing."""
    cards = [4 * 4, 5 * 4, 8 * 4]  # 5C 6C 9C
    hands = np.array([[*cards, -1], [-1, -1, -1, -1]], np.int64)
    seq = np.zeros(16, np.int64)
    seq[0] = 9  # a ten laid
    teams = np.array([0, 1], np.int64)
    seen = np.zeros(52, np.bool_)
    for policy, worth in ((tk.GREEDY, 2), (tk.LOW_GREEDY, 0), (tk.LOW_LOOKAHEAD, 0)):
        slot = tk.choose(policy, hands.copy(), 0, seq.copy(), 1, 10, seen, teams)
        card = cards[slot]
        assert (10 + value(card) == 15) == (worth == 2), (policy, rank(card))


def twin_low_lookahead(hand, laid, count, k, least=True):  # type: ignore[no-untyped-def]
    """The lowball lookahead from the rules text: the card (first of ties) whose points
    now less the opponent's expected reply (its least, by :func:`enumerated_reply`,
    every card the player cannot see by rank, equal weights) is lowest."""
    ranks = [rank(c) for c in laid]
    left = [4 - sum(rank(c) == r for c in [*laid, *hand]) for r in range(13)]
    best, choice = None, None
    for c in hand:
        after = count + value(c)
        if after > 31:
            continue
        now, _ = naive_lay_points([*ranks, rank(c)], after)
        pts = [
            naive_lay_points([*ranks, rank(c), r], after + min(r + 1, 10))[0]
            if after + min(r + 1, 10) <= 31
            else 0
            for r in range(13)
        ]
        v = now - enumerated_reply(pts, after, left, [1.0] * 13, k, least)
        if best is None or v < best - 1e-12:
            best, choice = v, c
    return choice


def test_the_lowball_lookahead_expects_the_least_reply() -> None:
    """Random positions late in a count (the opponent holds an ace, so it can reply):
    the kernel's choice is the twin's, and the least reply matters: with the best reply
    the twin would choose otherwise in some of them."""
    rng = random.Random(5)
    differ = 0
    for _ in range(scaled(60, 30)):
        cards = rng.sample([c for c in range(52) if rank(c) != 0], 6)
        cards[3:] = sorted(cards[3:], key=value)  # the lowest first: more of them fit
        laid, hand = cards[:3], cards[3:]
        count = sum(value(c) for c in laid)
        if not any(count + value(c) <= 30 for c in hand):
            continue
        opponent = [0, *rng.sample([c for c in range(52) if c not in cards and rank(c)], 2)]
        hands = np.array([[*hand, -1], [*opponent, -1]], np.int64)
        seq = np.zeros(16, np.int64)
        seq[:3] = [rank(c) for c in laid]
        seen = np.zeros(52, np.bool_)
        seen[laid] = True
        slot = tk.choose(tk.LOW_LOOKAHEAD, hands, 0, seq, 3, count, seen, np.array([0, 1]))
        expected = twin_low_lookahead(hand, laid, count, 3)
        assert hand[slot] == expected, (laid, hand)
        differ += expected != twin_low_lookahead(hand, laid, count, 3, least=False)
    assert differ > 0


def test_lowball_play_advice_is_ranked_lowest_first() -> None:
    args = ("standard", "pone", "7C 8D 2C", "5H", "3D 10S")
    plain = advise_table(game(), "pone", *args[2:], samples=300, seed=1)
    low = advise_table(game("standard", lowball=True), "pone", *args[2:], samples=300, seed=1)
    assert list(low.net) == sorted(low.net)
    assert list(plain.net) == sorted(plain.net, reverse=True)
    assert low.options[0] != plain.options[0]  # 2C makes 15 at 13: the best, and the worst


def test_a_seats_lowball_throws_are_the_points_ranking_turned_round() -> None:
    hand = "5H 6S 4D JC QH"
    plain = analyze_seat(hand, game("three"), "dealer", "random")
    low = analyze_seat(hand, game("three", lowball=True), "dealer", "random")
    assert sorted(low.net) == list(low.net)
    assert list(np.sort(plain.net)) == pytest.approx(list(low.net))
    assert low.kept[0] == plain.kept[-1]


def test_the_variants_are_fields_of_the_rules() -> None:
    r = game("standard", lowball=True, jokers=2, penalty="back-ten")
    assert r.variants == ("lowball", "jokers 2", "penalty back-ten")
    assert r.plain == game() and not r.is_standard
    with pytest.raises(UsageError, match="jokers"):
        game(jokers=3)
    with pytest.raises(UsageError, match="no penalty 'double'"):
        game(penalty="double")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="the variant throw fives"):
        game(throw_fives=True).refuse_variants("here", ("lowball",))


def test_the_cli_plays_lowball_on_the_board_and_in_the_play() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["odds", "--lowball", "100", "110", "-n", "200"])
    assert out.exit_code == 0, out.output
    assert "lowball: the fewest points is best; the first to 121 loses" in out.output
    out = runner.invoke(cli, ["simulate", "--lowball", "-n", "40", "-q"])
    assert out.exit_code == 0, out.output
    assert "lowball" in out.output  # no share of skunks: lowball counts none
    assert not any(line.startswith("skunks") for line in out.output.splitlines())
    assert "(tournament: 2 a win; no skunks in lowball)" in out.output.replace("\n  ", " ")
    out = runner.invoke(
        cli, ["play", "7C", "8D", "2C", "--pone", "-s", "5H", "--played", "3D 10S", "--lowball"]
    )
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    assert lines[0].startswith("As pone at count 13: play ") and "fewer than" in lines[0]
    assert any(line.split()[:1] == ["card"] for line in lines)
    for args, word in (
        (["simulate", "--lowball", "--continuation", "-n", "4"], "--continuation"),
        (["simulate", "--lowball", "--players", "points,expert", "-n", "4"], "--players"),
        (["odds", "--lowball", "--dealer", "100", "110"], "--dealer"),
        (["simulate", "--lowball", "--game", "three", "-n", "3"], "two sides"),
        (["play", "7C", "--pone", "-s", "5H", "--lowball", "--model", "x"], "--model"),
    ):
        bad = runner.invoke(cli, args)
        assert bad.exit_code == 2, (args, bad.output)
        assert word in bad.output and "Traceback" not in bad.output


# --- the play of a lowball throw: discard --lowball --pegging simulated ----------------------


def test_a_lowball_throw_s_play_is_simulated_for_the_fewest(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``discard --lowball --pegging simulated``: the play of each throw against an
    opponent throwing by the lowball expert, both laying by the solver's lowball form.
    The totals are the net and the play's net in points, the fewest first; the other
    role's play is not counted; and on the same deals the lowball play pegs fewer points
    (both players together) than the solver playing for points, reproducibly."""
    import crib_analyze as ca
    from crib_analyze.cards import parse_cards
    from crib_analyze.discard import engine
    from crib_analyze.discard.variant_play import lowball_deals, solved_pegging
    from crib_analyze.play.pegging_values import hand_pegging
    from crib_analyze.position import Seat
    from crib_analyze.settings import Count

    monkeypatch.setattr(engine, "SIMULATED_DEALS", Count("simulated deals", 2, 100, 6))
    text = "5H 6S 4D JC QH 8C"
    df = ca.analyze(text, role="dealer", lowball=True, pegging="simulated")
    assert "both players laying for the fewest points" in df.pegging[0]
    assert np.allclose(df.dealer_total, df.dealer_net + df.dealer_peg_own - df.dealer_peg_opp)
    assert (np.diff(df.dealer_total) >= -1e-12).all()  # the fewest first
    assert df.pone_total.isna().all()
    model = ca.load_model(kind="lowball")
    hand6 = np.array(parse_cards(text), np.int64)
    own, opp, _ = solved_pegging(*lowball_deals(hand6, Seat.DEALER, 10, model, 3)[:2],
                                 Seat.DEALER, True, 0, 3)  # fmt: skip
    again, _, _ = solved_pegging(*lowball_deals(hand6, Seat.DEALER, 10, model, 3)[:2],
                                 Seat.DEALER, True, 0, 3)  # fmt: skip
    assert np.array_equal(own, again)
    plain = hand_pegging(hand6, Seat.DEALER, deals=10, seed=3, policy="solver", model=model)
    assert (own + opp).mean() < 0.8 * (plain.peg_own + plain.peg_opp).mean()
    both = ca.analyze(text, role="pone", lowball=True, throw_fives=True, pegging="simulated")
    assert len(both) == 5 and all(d.startswith("5H") for d in both.discard)  # legal only
    assert "its fives by the expert of throw fives and lowball" in both.pegging[0]
    assert (np.diff(both.pone_total) >= -1e-12).all()
    refused = CliRunner().invoke(cli, ["discard", *text.split(), "--lowball", "--pegging", "table"])
    assert refused.exit_code == 2 and "counts the play only simulated" in refused.output


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_a_lowball_throw_s_deals_are_the_rules(role: str) -> None:
    """The deals of the simulated play: the opponent's six are unseen cards, its kept
    four the split of least value from its own seat against the lowball model (as
    dealer the least hand + crib against the pone's throws, as pone the least hand -
    crib against the dealer's: the model's parts, computed here), and the starter one of
    the 40 cards neither holds; our seat holds each throw's kept four."""
    import crib_analyze as ca
    from crib_analyze.cards import parse_cards
    from crib_analyze.crib import throw_model_kernels as tmk
    from crib_analyze.crib.hand_kernels import KEEPS, hand_means_closed
    from crib_analyze.discard.variant_play import lowball_deals
    from crib_analyze.position import Seat
    from crib_analyze.scoring.show_kernels import rank_table

    model = ca.load_model(kind="lowball")
    hand6 = np.array(parse_cards("5H 6S 4D JC QH 8C"), np.int64)
    seat = Seat.of(role)
    theirs = 1 - int(seat)
    dealt, starters, opponents = lowball_deals(hand6, seat, 20, model, seed=5)
    p, d = model.pone_throws, model.dealer_throws
    for k in range(20):
        opp = opponents[k]
        assert not set(opp.tolist()) & set(hand6.tolist())
        assert starters[k] not in set(opp.tolist()) | set(hand6.tolist())
        hand = hand_means_closed(rank_table(), opp)
        if theirs == Seat.DEALER:  # its own crib, against the pone's throws
            value = hand + tmk.crib_model_means(rank_table(), opp, p.P, p.F, p.K)
        else:
            value = hand - tmk.crib_model_means(rank_table(), opp, d.P, d.F, d.K)
        kept = set(dealt[k, 0, theirs].tolist())
        best = [set(opp[KEEPS[t]].tolist()) for t in np.flatnonzero(value <= value.min() + 1e-9)]
        assert kept in best, (k, role)
        for t in range(15):
            assert set(dealt[k, t, seat].tolist()) == set(hand6[KEEPS[t]].tolist())
    both = ca.load_model(kind="throw-fives-lowball")  # throw fives too: its fives thrown
    dealt, _, opponents = lowball_deals(hand6, seat, 300, both, seed=6, throw_fives=True)
    fives = (opponents >> 2 == 4).sum(axis=1)
    kept_fives = (dealt[:, 0, theirs] >> 2 == 4).sum(axis=1)
    assert (kept_fives == np.maximum(fives - 2, 0)).all() and fives.max() >= 1
