"""The expert opponent of the variants: the packaged throw-fives and lowball models
(classic experts built by fictitious play with the rule in force) and the throws
ranked against them."""

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.cards import parse_cards
from crib_analyze.cli import cli
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.crib.hand_kernels import DISCARDS
from crib_analyze.crib.throw_fives_rule import legal_throws_of
from crib_analyze.discard.throw_fives import legal_throws
from crib_analyze.errors import UsageError
from crib_analyze.position import Seat
from crib_analyze.scoring.show_kernels import rank_table
from tests.conftest import rotating

HANDS = ["5H 6S 4D JC QH 5C", "5H 5S 5D JC QH KC", "AH 2C 4D 9S TC KD", "5C 9D 6H 4S KS 8D"]


def test_the_builders_legal_throws_are_the_rules_hand_by_hand() -> None:
    classes = hand_classes()
    chosen = np.random.default_rng(4).choice(len(classes.cards), 400, replace=False)
    cards = classes.cards[chosen].astype(np.int64)
    got = legal_throws_of(cards)
    for row, hand in zip(got, cards, strict=True):
        assert (row == legal_throws(hand)).all()


@pytest.mark.parametrize("kind", ["throw-fives", "throw-fives-lowball"])
def test_the_throw_fives_model_obeys_the_rule_and_says_so(kind: str) -> None:
    model = packaged_model(kind)
    assert model.provenance["variant"] == kind and model.provenance["converged"]
    multisets = hand_classes().multisets
    fives = multisets == 4  # rank index of the five
    legal = fives[:, DISCARDS].sum(axis=2) == np.minimum(fives.sum(axis=1), 2)[:, None]
    for seat in Seat:
        policy = model.opponent_policy(seat)
        assert not policy.pi[~legal].any(), seat.role  # no mass on a throw the rule forbids
        np.testing.assert_allclose(policy.pi.sum(axis=1), 1.0, atol=1e-9)


@pytest.mark.parametrize(("kind", "than"), [("lowball", "classic"),
                                            ("throw-fives-lowball", "throw-fives")])  # fmt: skip
def test_the_lowball_model_throws_for_fewer_points_than_the_classic(kind: str, than: str) -> None:
    """Over every multiset, the kept hands the lowball expert chooses score less than
    the classic expert's (the one of throw fives, both obeying it), by the hand's rank
    part over the starters."""
    lowball, classic = packaged_model(kind), packaged_model(than)
    assert lowball.provenance["variant"] == kind and lowball.provenance["converged"]
    multisets = hand_classes().multisets.astype(np.int64)
    from crib_analyze.crib import class_kernels as tk

    kept, _ = tk.multiset_rank_numerators(rank_table(), multisets, False)
    for seat in Seat:
        low = (lowball.opponent_policy(seat).pi * kept).sum()
        high = (classic.opponent_policy(seat).pi * kept).sum()
        assert low < 0.8 * high, seat.role


@pytest.mark.parametrize("hand", rotating(HANDS, 2, "variant-models"))
@pytest.mark.parametrize("variant", ["throw-fives", "lowball", "throw-fives-lowball"])
def test_the_crib_is_the_variant_models_policy_exactly(hand: str, variant: str) -> None:
    """Each role's crib against --opponent expert under the variant is the crib of that
    model's per-multiset policy (the generic machinery, tested with any policy in
    tests/test_expert.py)."""
    options = {"throw_fives": "fives" in variant, "lowball": "lowball" in variant}
    hand6 = np.array(parse_cards(hand), np.int64)
    model = packaged_model(variant)
    multisets = hand_classes().multisets.astype(np.int64)
    for seat in Seat:
        df = ca.analyze(hand, role=seat.role, opponent="expert", **options)
        policy = model.opponent_policy(seat)
        want = pk.crib_policy_means(rank_table(), hand6, multisets, policy.pi, policy.suited)
        order = [[hand6[i] for i in d] for d in DISCARDS]
        for _, row in df.iterrows():
            d = order.index(sorted(parse_cards(str(row["discard"])), key=list(hand6).index))
            assert row["crib_mean"] == pytest.approx(want[d], abs=1e-9), (seat.role, row.discard)
        assert f"packaged expert model ({variant})" in df.attrs["model"]
        said = " ".join(df.attrs["meta"].notes)
        assert ("built under the rule" if variant == "throw-fives" else "lowball expert") in said
        if variant == "throw-fives":
            assert len(df) == legal_throws(hand6).sum()  # the legal throws only


def test_a_model_of_another_game_is_refused_in_one_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(UsageError, match="was built for throw-fives, not lowball"):
        ca.analyze(HANDS[0], opponent="expert", lowball=True, model=packaged_model("throw-fives"))
    with pytest.raises(UsageError, match="was built for the plain game, not throw-fives"):
        ca.analyze(HANDS[0], opponent="expert", throw_fives=True, model=packaged_model("classic"))
    with pytest.raises(UsageError, match="was built for lowball: give it with --lowball"):
        ca.analyze(HANDS[0], opponent="expert", model=packaged_model("lowball"))
    with pytest.raises(UsageError, match="built for throw-fives-lowball: give it with "
                                         "--throw-fives --lowball"):  # fmt: skip
        ca.analyze(HANDS[0], opponent="expert", model=packaged_model("throw-fives-lowball"))
    result = CliRunner().invoke(
        cli, ["discard", *HANDS[0].split(), "--dealer", "--throw-fives", "--lowball",
              "--opponent", "expert", "--model",
              str(Path(ca.paths().packaged_model).with_name("expert_model_throw_fives.npz"))],
    )  # fmt: skip
    assert result.exit_code == 2 and "Traceback" not in result.output
    assert "was built for throw-fives, not throw-fives-lowball" in result.output


@pytest.mark.parametrize("lowball", [False, True])
@pytest.mark.parametrize("policy", ["random", "expert"])
def test_the_sampled_opponent_obeys_throw_fives(policy: str, lowball: bool) -> None:
    from crib_analyze.discard.engine import draw_opponents, policy_throws

    hand6 = np.array(parse_cards(HANDS[0]), np.int64)
    opponents = draw_opponents(hand6, 3000, 7)
    kind = "throw-fives-lowball" if lowball else "throw-fives"
    model = packaged_model(kind) if policy == "expert" else None
    throws = policy_throws(opponents, policy, model, throw_fives=True, lowball=lowball)
    legal = legal_throws_of(opponents)
    for seat in Seat:
        assert legal[np.arange(len(opponents)), throws[:, seat]].all(), seat.role
    plain = policy_throws(opponents, policy, None)  # the plain game: the default models
    assert (plain != throws).any()  # the rule changed some throws


def test_the_sampled_opponent_in_lowball_throws_for_the_fewest_points() -> None:
    """Its throw minimises hand +- crib against the lowball model's throws, computed
    here from the kernels' parts."""
    from crib_analyze.crib import throw_model_kernels as tmk
    from crib_analyze.crib.hand_kernels import hand_means_closed
    from crib_analyze.discard.engine import draw_opponents, policy_throws

    hand6 = np.array(parse_cards(HANDS[2]), np.int64)
    opponents = draw_opponents(hand6, 60, 3)
    model = packaged_model("lowball")
    throws = policy_throws(opponents, "expert", model, lowball=True)
    p, d = model.pone_throws, model.dealer_throws
    for i, opp in enumerate(opponents):
        hand = hand_means_closed(rank_table(), opp)
        own = hand + tmk.crib_model_means(rank_table(), opp, p.P, p.F, p.K)
        given = hand - tmk.crib_model_means(rank_table(), opp, d.P, d.F, d.K)
        assert own[throws[i, Seat.DEALER]] == pytest.approx(own.min(), abs=1e-9)
        assert given[throws[i, Seat.PONE]] == pytest.approx(given.min(), abs=1e-9)


def test_the_sampled_opponent_ranks_a_variants_throws() -> None:
    df = ca.analyze(HANDS[0], role="dealer", opponent="sampled", throw_fives=True, samples=400)
    assert len(df) == legal_throws(np.array(parse_cards(HANDS[0]))).sum()
    assert (df["crib_se"] > 0).all()
    low = ca.analyze(HANDS[0], role="pone", opponent="sampled", lowball=True, samples=400)
    assert low["net"].iloc[0] == low["net"].min()  # the fewest first
