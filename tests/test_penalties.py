"""Zero penalty and back ten (``discard --penalty``, crib_analyze.discard.penalties):
the chance of a crib of nothing against plain enumeration with the plain-Python scorer
(tests/naive.py), under the random opponent and under the expert's throws; the points
each rule moves, from the rules text; the net and the ranking; the command line.

Mutations tried (each fails a test here): a crib of nothing counted under hand rules
(a four-card flush scoring); the pone's gain from the dealer's zero crib signed as a
loss; back ten's cost of 1; the expert's crib zeros taken from the other seat's policy.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.cli import cli
from crib_analyze.crib import throw_policy_kernels as tpk
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.crib.hand_kernels import DISCARDS, unseen_counts
from crib_analyze.discard.penalties import crib_zero_chances, penalty_points
from crib_analyze.position import Seat
from tests.conftest import rotating
from tests.naive import naive_pair_starter_joint, naive_score

HAND = "AC 3D 7H 9S JC KD"  # many throws can leave a crib of nothing
FLUSHY = "2H 4H 6H 8H QS KD"  # a crib of four hearts scores nothing without a heart cut


@pytest.mark.parametrize("hand", [HAND, FLUSHY])
def test_the_random_crib_s_zeros_are_every_completion(hand: str) -> None:
    hand6 = np.array(ca.parse_cards(hand), np.int64)
    got = crib_zero_chances(hand6, "random", None)
    assert np.array_equal(got[0], got[1])
    rest = [c for c in range(52) if c not in hand6]
    for d in rotating(list(range(15)), 2, f"zero {hand}"):
        thrown = [int(c) for c in hand6[DISCARDS[d]]]
        zero = total = 0
        for pair in combinations(rest, 2):
            for s in rest:
                if s not in pair:
                    total += 1
                    zero += naive_score([*thrown, *pair], s, crib=True) == 0
        assert total == 45_540
        assert got[0, d] == pytest.approx(zero / total, abs=1e-12)


def test_the_expert_crib_s_zeros_follow_its_throws() -> None:
    hand6 = np.array(ca.parse_cards(HAND), np.int64)
    model = load_model()
    got = crib_zero_chances(hand6, "expert", model)
    n_rank, _, _ = unseen_counts(hand6)
    multisets = hand_classes().multisets.astype(np.int64)
    for seat in Seat:
        policy = model.opponent_policy(seat)
        W, F = tpk.policy_weights(multisets, policy.pi, policy.suited, n_rank)
        joint = naive_pair_starter_joint(hand6.tolist(), W.tolist(), F.tolist())
        d = rotating(list(range(15)), 1, f"expert zero {seat}")[0]
        thrown = [int(c) for c in hand6[DISCARDS[d]]]
        zero = sum(
            p for (e1, e2, s), p in joint.items() if naive_score([*thrown, e1, e2], s, True) == 0
        )
        assert got[seat, d] == pytest.approx(zero, abs=1e-9)
    assert not np.allclose(got[0], got[1])  # the dealer and the pone throw differently


def test_the_points_each_rule_moves() -> None:
    """From the rules: a zero penalty gives the opponent 1, back ten costs the owner 10.
    Hand zero 0.2, crib zero 0.1: as dealer both are yours; as pone the crib is theirs."""
    hand, crib = np.array([0.2]), np.array([[0.1], [0.1]])
    zero = penalty_points("zero", hand, crib)
    ten = penalty_points("back-ten", hand, crib)
    assert zero[Seat.DEALER, 0] == pytest.approx(-0.3) and zero[Seat.PONE, 0] == pytest.approx(-0.1)
    assert ten[Seat.DEALER, 0] == pytest.approx(-3.0) and ten[Seat.PONE, 0] == pytest.approx(-1.0)
    assert not penalty_points("none", hand, crib).any()


def test_the_penalty_is_in_the_net_and_moves_the_ranking() -> None:
    plain = ca.analyze(HAND, role="pone").set_index("discard")
    ten = ca.analyze(HAND, role="pone", penalty="back-ten").set_index("discard")
    ten = ten.loc[plain.index]
    np.testing.assert_allclose(ten.net - plain.net, ten.penalty, atol=1e-12)
    assert (ten.p_hand_zero == (ten.hand_min == 0) * ten.p_hand_zero).all()
    assert ten["rank"]["9S KD"] > plain["rank"]["9S KD"]  # its hand is zero more often


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["discard", *HAND.split(), "--pone", "--penalty", "back-ten", "--wide"])
    assert ok.exit_code == 0 and "P(crib 0)" in ok.output and "back-ten penalty" in ok.output
    for extra, words in [  # with --score the games are played out (test_game_boards.py)
        (["--opponent", "sampled"], "exact with --opponent expert or random"),
        (["--auction"], "does not go with --auction"),
    ]:
        bad = runner.invoke(cli, ["discard", *HAND.split(), "--pone", "--penalty", "zero", *extra])
        assert bad.exit_code == 2 and words in bad.output, (extra, bad.output)
