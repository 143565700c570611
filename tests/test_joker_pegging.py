"""The play counted in ``discard --jokers N --pegging simulated``
(:mod:`crib_analyze.discard.variant_play`): the opponent's throws against the hand
policy's twin (``naive_split``, written from the rules text: every split's mean show over
the starters it cannot see, plus or minus the crib table of its thrown ranks), each
deal's play against the solver's play of that deal alone with the pack's jokers, and the
command line.

Mutations tried (each fails a test here): the opponent's crib sign turned round; the
pack's jokers left out of the unseen cards; ``play_tables`` not passing the jokers to the
play (the solver's draws then never hold the unseen joker); the play of the pone's seat
reported for the dealer; the distinct throws played in the order of their keys.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.crib.hand_kernels import KEEPS
from crib_analyze.discard import engine
from crib_analyze.discard.variant_play import (
    DEAL_STREAMS,
    joker_deals,
    opponent_tables,
    solved_pegging,
)
from crib_analyze.position import Seat
from crib_analyze.rules import game
from crib_analyze.scoring.jokers import parse_with_jokers
from crib_analyze.settings import SOLVER_DRAWS, Count
from tests.conftest import rotating, scaled
from tests.naive import naive_split

CASES = [
    (game(jokers=1), "5H 6S 4D JC QH JK", "pone"),
    (game(jokers=1), "5H 6S 4D JC QH 2C", "dealer"),
    (game(jokers=2), "5H 6S 4D JC JK JK", "dealer"),
    (game(jokers=2, throw_fives=True), "5H 5S 4D JC QH JK", "pone"),
    (game(jokers=1, lowball=True), "5H 6S 4D JC QH JK", "dealer"),
    (game(jokers=2, lowball=True, throw_fives=True), "5H 6S 4D 5C QH JK", "pone"),
]


@pytest.mark.parametrize(("rules", "hand", "role"), rotating(CASES, 3, "joker-deals"))
def test_the_opponent_throws_by_its_rule(rules: ca.Rules, hand: str, role: str) -> None:
    hand6 = np.array(parse_with_jokers(hand, rules.jokers), np.int64)
    seat = Seat.of(role)
    theirs = seat.other
    one, two, _ = opponent_tables(rules)
    deals = scaled(6, 3)
    dealt, starters, opponents = joker_deals(hand6, seat, deals, rules, seed=11)
    pack = set(range(52 + rules.jokers))
    for k in range(deals):
        opp = opponents[k].tolist()
        assert set(opp) <= pack - set(hand6.tolist()) and len(set(opp)) == 6
        assert starters[k] in pack - set(opp) - set(hand6.tolist())
        kept, _, _ = naive_split(
            opp, 4, 2, 0, theirs == Seat.DEALER, one[theirs], two[theirs], rules.lowball,
            rules.throw_fives, rules.jokers,
        )  # fmt: skip
        for t in range(15):
            assert sorted(dealt[k, t, theirs].tolist()) == sorted(kept), (k, t)
            assert sorted(dealt[k, t, seat].tolist()) == sorted(hand6[KEEPS[t]].tolist())


def test_a_joker_of_the_pack_reaches_the_opponent() -> None:
    """Over many deals the opponent is dealt each joker not in the hand, as often as any
    other unseen card (6 of the 46 or 47 cards a deal)."""
    rules = game(jokers=2)
    hand6 = np.array(parse_with_jokers("5H 6S 4D JC QH JK", 2), np.int64)
    _, _, opponents = joker_deals(hand6, Seat.DEALER, 2000, rules, seed=4)
    held = (opponents == 53).any(axis=1).mean()
    assert held == pytest.approx(6 / 48, abs=4 * np.sqrt(6 / 48 * 42 / 48 / 2000))
    assert not (opponents == 52).any()


@pytest.mark.parametrize("jokers", [1, 2])
def test_each_deal_is_the_solvers_play_of_that_deal(jokers: int) -> None:
    """The driver's means are the means of each deal played alone by the play kernel,
    the pack's jokers in its draws, on the deal's own stream."""
    from crib_analyze.play import table_play_kernels as tk
    from crib_analyze.rng_kernels import rng_for

    rules = game(jokers=jokers)
    hand6 = np.array(parse_with_jokers("5H 6S 4D JC QH JK", jokers), np.int64)
    seat = Seat.PONE
    deals, seed = 3, 9
    dealt, starters, _ = joker_deals(hand6, seat, deals, rules, seed)
    own, opp, _ = solved_pegging(dealt, starters, seat, False, jokers, seed)
    code = tk.POLICY_CODES["solver"]
    points = np.zeros((deals, 15, 2))
    record = np.zeros((8, 5), np.int64)
    for k in range(deals):
        for t in range(15):
            got, _ = tk.play_table(
                dealt[k, t].copy(), starters[k], np.array([code, code]), np.array([0, 1]),
                False, record, SOLVER_DRAWS.default, rng_for(seed * DEAL_STREAMS + k, t),
                jokers,
            )  # fmt: skip
            points[k, t] = got
    assert np.array_equal(own, points[:, :, seat].mean(axis=0))
    assert np.array_equal(opp, points[:, :, seat.other].mean(axis=0))


def test_two_jokers_held_play_each_throw_once() -> None:
    """Throws that differ only in which of two held jokers goes where are one throw:
    played once, the same values in both rows; the distinct throws are played in their
    first places' order, as the driver plays any throws."""
    from crib_analyze.discard.variant_play import joker_hand_pegging

    rules = game(jokers=2)
    hand6 = np.array(parse_with_jokers("5H 6S 4D JC JK JK", 2), np.int64)
    own, opp, se = joker_hand_pegging(hand6, Seat.DEALER, 4, rules, seed=2)
    keys = [tuple(sorted(min(c, 52) for c in hand6[KEEPS[t]])) for t in range(15)]
    firsts = sorted({keys.index(k) for k in keys})
    assert len(firsts) == 11
    for t in range(15):
        f = keys.index(keys[t])
        assert (own[t], opp[t], se[t]) == (own[f], opp[f], se[f])
    dealt, starters, _ = joker_deals(hand6, Seat.DEALER, 4, rules, 2)
    want = solved_pegging(dealt[:, firsts], starters, Seat.DEALER, False, 2, 2)
    assert np.array_equal(own[firsts], want[0]) and np.array_equal(opp[firsts], want[1])


@pytest.fixture
def few_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine, "SIMULATED_DEALS", Count("simulated deals", 2, 10, 6))


@pytest.mark.usefixtures("few_deals")
def test_the_ranking_counts_the_play_of_the_role_asked() -> None:
    df = ca.analyze("5H 6S 4D JC QH 2C", role="dealer", jokers=1, pegging="simulated")
    assert df["dealer_peg_own"].notna().all() and df["pone_peg_own"].isna().all()
    peg = df["dealer_peg_own"] - df["dealer_peg_opp"]
    assert (df["dealer_total"] - df["dealer_net"] - peg).abs().max() < 1e-9
    rules = game(jokers=1)
    hand6 = np.array(parse_with_jokers("5H 6S 4D JC QH 2C", 1), np.int64)
    dealt, starters, _ = joker_deals(hand6, Seat.DEALER, 6, rules, 0)
    own, opp, _ = solved_pegging(dealt, starters, Seat.DEALER, False, 1, 0)
    keeps = [" ".join(ca.format_cards(hand6[KEEPS[t]]).split()) for t in range(15)]
    by_keep = df.set_index("keep")
    for t, keep in enumerate(keeps):
        assert by_keep.loc[keep, "dealer_peg_own"] == pytest.approx(own[t], abs=1e-12)
        assert by_keep.loc[keep, "dealer_peg_opp"] == pytest.approx(opp[t], abs=1e-12)


@pytest.mark.usefixtures("few_deals")
def test_the_command_line() -> None:
    runner = CliRunner()
    got = runner.invoke(
        cli, ["discard", "5H", "6S", "4D", "JC", "QH", "2C", "--pone", "--jokers", "1",
              "--pegging", "simulated", "--verbose"],
    )  # fmt: skip
    assert got.exit_code == 0, got.output
    said = " ".join(got.output.split())
    assert "53-card pack at random" in said and "pone total = net + peg" in said
    assert "as dealer, not counted" in said
    bad = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "2C", "--pone",
                              "--jokers", "1", "--pegging", "table"])  # fmt: skip
    assert bad.exit_code == 2 and "counts the play only simulated" in bad.output, bad.output
