"""Expert opponent: throw models, exact combination, fixed point, role tables."""

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from crib_analyze import analyze
from crib_analyze import combine_kernels as ck
from crib_analyze import discard_kernels as dk
from crib_analyze import policy_kernels as pk
from crib_analyze import throw_model_kernels as tmk
from crib_analyze.cards import parse_cards
from crib_analyze.discard import analyze_hand, draw_opponents
from crib_analyze.expert import (
    ExpertModel,
    ModelError,
    ThrowModel,
    build_model,
    default_model,
    role_tables,
)
from crib_analyze.hand_classes import hand_classes
from crib_analyze.score import rank_table
from tests.naive import naive_score, unseen

HANDS = [
    "5H 6S 4D JC QH 5C",
    "JC JD JH JS 5C 5D",
    "2H 4H 6H 8H TH QH",
    "7C 7D 7H 7S 8C AD",
    "5C 5D 9S KD 2C 7H",
    "AC 2D 3H 5S 5C JD",
    "TD JD QD KD 5S 5H",
    "2C 3D 4H 6S 8C 9D",
    "KC KD QH QS JD TC",
    "9S 8S 6D 3C JH KS",
]


def skewed_model() -> ThrowModel:
    """A deliberately lopsided model: mostly low pairs, suited, keeping fives."""
    rng = np.random.default_rng(7)
    base = ThrowModel.random()
    P = np.triu(rng.random((13, 13)) ** 3)
    P /= P.sum()
    F = np.triu(rng.random((13, 13)), 1)
    K = base.K * rng.uniform(0.2, 1.8, (13, 13, 13))
    K[:, :, 4] += 0.5
    K *= 4 / K.sum(axis=2, keepdims=True)
    return ThrowModel(P, F, K)


@pytest.mark.parametrize("hand", HANDS[:6])
def test_random_throw_model_is_the_random_opponent(hand: str) -> None:
    hand6 = np.array(parse_cards(hand), np.int64)
    m = ThrowModel.random()
    got = tmk.crib_model_means(rank_table(), hand6, m.P, m.F, m.K)
    np.testing.assert_allclose(got, dk.crib_random_means(rank_table(), hand6), atol=1e-12)


def random_policy() -> tuple[np.ndarray, np.ndarray]:
    """Every hand throws a uniformly random pair of its six cards."""
    multisets = hand_classes().multisets
    pi = np.full((len(multisets), 15), 1 / 15)
    pairs = multisets[:, dk.DISCARDS]
    suited = np.where(pairs[:, :, 0] != pairs[:, :, 1], pi / 4, 0.0)
    return pi, suited


def skewed_policy() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(9)
    pi = rng.random((len(hand_classes().multisets), 15)) ** 4
    pi /= pi.sum(axis=1, keepdims=True)
    return pi, pi * rng.random(pi.shape) * 0.5


@pytest.mark.parametrize("hand", HANDS[:4])
@pytest.mark.parametrize("kind", ["compact", "policy"])
def test_closed_form_equals_enumerated_joint(hand: str, kind: str) -> None:
    """The fast combination equals summing every (throw, starter) of the model's joint."""
    hand6 = np.array(parse_cards(hand), np.int64)
    n_rank, _, _ = dk.unseen_counts(hand6)
    if kind == "compact":
        m = skewed_model()
        W, F = tmk.pair_starter_weights(m.P, m.K, n_rank), m.F
    else:
        multisets = hand_classes().multisets.astype(np.int64)
        W, F = pk.policy_weights(multisets, *skewed_policy(), n_rank)
    assert W.sum() == pytest.approx(1.0, abs=1e-12)
    joint = ck.pair_starter_probabilities(hand6, W, F)
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    assert not joint[:, :, hand6].any() and not joint[hand6].any()
    closed = ck.crib_from_weights(rank_table(), hand6, W, F)
    np.testing.assert_allclose(closed, ck.crib_from_joint(rank_table(), hand6, joint), atol=1e-9)


@pytest.mark.parametrize("hand", HANDS[:5])
def test_random_policy_is_the_random_opponent(hand: str) -> None:
    """A hand drawn from the unseen cards throwing a random pair of its six is random."""
    hand6 = np.array(parse_cards(hand), np.int64)
    multisets = hand_classes().multisets.astype(np.int64)
    got = pk.crib_policy_means(rank_table(), hand6, multisets, *random_policy())
    np.testing.assert_allclose(got, dk.crib_random_means(rank_table(), hand6), atol=1e-12)


def test_multiset_policy_aggregates_flags() -> None:
    hc = hand_classes()
    lo, hi = 0, 3000
    cards = hc.cards[lo:hi].astype(np.int64)
    rng = np.random.default_rng(4)
    flags = rng.random((hi - lo, 15)) < 0.1
    flags[np.arange(hi - lo), rng.integers(0, 15, hi - lo)] = True
    weight = hc.weight[lo:hi].astype(np.float64)
    multiset = hc.multiset[lo:hi].astype(np.int64)
    pi, suited = pk.multiset_policy(cards, weight, multiset, int(multiset.max()) + 1, flags)
    np.testing.assert_allclose(pi.sum(axis=1), 1.0)
    assert (suited <= pi + 1e-15).all()
    m = int(multiset[0])
    rows = multiset == m
    share = (flags[rows] / flags[rows].sum(axis=1, keepdims=True)) * weight[rows, None]
    np.testing.assert_allclose(pi[m], share.sum(axis=0) / weight[rows].sum())


def test_joint_combination_matches_naive_scorer() -> None:
    """crib_from_joint itself, against the plain-Python scorer on a sparse joint."""
    hand6 = parse_cards("5H 6S 4D JC QH 5C")
    rest = unseen(hand6)
    joint = np.zeros((52, 52, 52))
    rng = np.random.default_rng(3)
    for _ in range(40):
        e1, e2 = sorted(int(c) for c in rng.choice(rest, 2, replace=False))
        s = int(rng.choice([c for c in rest if c not in (e1, e2)]))
        joint[e1, e2, s] += rng.random()
    joint /= joint.sum()
    got = ck.crib_from_joint(rank_table(), np.array(hand6, np.int64), joint)
    for d, (i, j) in enumerate(combinations(range(6), 2)):
        expected = sum(
            joint[e1, e2, s] * naive_score([hand6[i], hand6[j], e1, e2], s, crib=True)
            for e1, e2, s in zip(*np.nonzero(joint), strict=True)
        )
        assert got[d] == pytest.approx(expected, abs=1e-12)


def two_lowest_joint(hand6: list[int]) -> np.ndarray:
    """Exact P(throw, starter) for an opponent who throws its two lowest cards.

    Its six cards are a uniform 6-subset of the 46 unseen; it throws the two lowest
    ids {e1 < e2}, which happens for C(#unseen above e2, 4) of the C(46, 6) hands, and
    keeps four uniform cards above e2; the starter is uniform over the 40 left.
    """
    from math import comb

    rest = sorted(unseen(hand6))
    joint = np.zeros((52, 52, 52))
    total = comb(46, 6)
    for i, e1 in enumerate(rest):
        for j in range(i + 1, len(rest)):
            e2 = rest[j]
            above = len(rest) - j - 1
            p_throw = comb(above, 4) / total
            if p_throw == 0:
                continue
            for s in rest:
                if s in (e1, e2):
                    continue
                p_not_kept = 1 - (4 / above if s > e2 else 0.0)
                joint[e1, e2, s] = p_throw * p_not_kept / 40
    return joint


def two_lowest_throws(opponents: np.ndarray) -> np.ndarray:
    """The test double's throw (same in both roles): positions of its two lowest cards."""
    order = np.argsort(opponents, axis=1)[:, :2]
    order.sort(axis=1)
    index = {tuple(p): d for d, p in enumerate(dk.DISCARDS.tolist())}
    throw = np.array([index[(int(a), int(b))] for a, b in order])
    return np.stack([throw, throw], axis=1)


@pytest.mark.slow
@pytest.mark.parametrize("hand", HANDS[:3])
def test_combination_is_exact_for_a_test_double_policy(hand: str) -> None:
    hand6 = parse_cards(hand)
    h = np.array(hand6, np.int64)
    joint = two_lowest_joint(hand6)
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    exact = ck.crib_from_joint(rank_table(), h, joint)
    opponents = draw_opponents(h, 40_000, seed=11)
    per_sample = dk.crib_sampled(rank_table(), h, opponents, two_lowest_throws(opponents))[0]
    mean = per_sample.mean(axis=0)
    se = per_sample.std(axis=0, ddof=1) / np.sqrt(len(per_sample))
    assert (np.abs(mean - exact) < 4 * se).all()


@pytest.mark.slow
@pytest.mark.parametrize("hand", HANDS)
def test_expert_agrees_with_sampled_expert_policy(hand: str) -> None:
    exact = analyze_hand(hand, opponent="expert")
    sampled = analyze_hand(hand, opponent="sampled", policy="expert", samples=40_000, seed=5)
    diff = np.abs(exact.crib_mean - sampled.crib_mean)
    assert (diff < 4 * sampled.crib_se).all(), diff.max()


def test_shipped_model_has_provenance_and_loads() -> None:
    model = default_model()
    p = model.provenance
    assert p["converged"] is True
    assert p["rounds"] >= 2
    assert p["final_table_change"] < p["tolerance"]
    for m in (model.pone, model.dealer):
        assert m.P.sum() == pytest.approx(1.0)
        assert (m.P >= 0).all()
        np.testing.assert_allclose(m.K.sum(axis=2)[m.P > 0], 4.0, atol=1e-9)
    for role in ("dealer", "pone"):
        policy = model.policy_for_our_role(role)
        np.testing.assert_allclose(policy.pi.sum(axis=1), 1.0, atol=1e-9)


def test_pone_thrown_pairs_are_worth_more_than_dealer_thrown() -> None:
    tables = role_tables(default_model())  # [0]: dealer throws it, [1]: pone throws it
    rank = {r: i for i, r in enumerate("A23456789TJQK")}
    for pair in ("55", "5J", "5T", "23"):
        a, b = sorted(rank[c] for c in pair)
        assert tables[1, a, b, 0] > tables[0, a, b, 0], pair
    offsuit = [(a, b) for a in range(13) for b in range(a, 13)]
    more = sum(tables[1, a, b, 0] > tables[0, a, b, 0] for a, b in offsuit)
    assert more >= 0.8 * len(offsuit)


def test_expert_in_analyze_and_roles_differ() -> None:
    df = analyze("5H 6S 4D JC QH 5C", opponent="expert")
    assert df.attrs["opponent"] == "expert"
    assert (df["crib_se"].isna() | (df["crib_se"] == 0)).all()
    row = df.set_index("discard").loc["5H 5C"]
    # the 5-5 we throw as dealer meets a pone's junk; as pone, a dealer's good cards
    assert row["pone_crib_mean"] > row["dealer_crib_mean"]


def test_model_round_trip_and_bad_files(tmp_path: Path) -> None:
    model = default_model()
    path = tmp_path / "m.npz"
    model.save(path)
    again = ExpertModel.load(path)
    np.testing.assert_array_equal(again.pone.K, model.pone.K)
    np.testing.assert_array_equal(
        again.policy_for_our_role("pone").pi, model.policy_for_our_role("pone").pi
    )
    assert again.provenance == model.provenance
    assert again.fingerprint() == model.fingerprint()
    (tmp_path / "bad.npz").write_text("not a zip")
    with pytest.raises(ModelError, match="cannot read"):
        ExpertModel.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "old.npz", format=np.array(99))
    with pytest.raises(ModelError, match="format"):
        ExpertModel.load(tmp_path / "old.npz")


@pytest.mark.slow
def test_fixed_point_is_reproducible() -> None:
    a = build_model(max_rounds=2)
    b = build_model(max_rounds=2)
    for role in ("pone", "dealer"):
        for name in ("P", "F", "K"):
            np.testing.assert_array_equal(
                getattr(getattr(a, role), name), getattr(getattr(b, role), name)
            )
