"""Expert opponent: throw models, exact combination, fixed point, role tables.

Mutations each caught by a fast test here (tried one at a time, then reverted; the
first failing test is named):

* swapping the suited and offsuit card-pair weights in
  ``combine_kernels.card_pair_masses`` (``F / 4`` <-> ``(1 - F) / 12``):
  ``test_closed_form_equals_naive_joint``;
* dropping the 1/k damping in ``expert.builder.fictitious_play`` (running = newest):
  ``test_fictitious_play_settles_matching_pennies``;
* the starter share ``n_c - k_c`` -> ``n_c`` in ``crib.throw_policy_kernels.weights_from_compiled``:
  ``test_closed_form_equals_naive_joint`` (policy);
* ``ExpertModel.opponent_policy`` returning the player's own seat:
  ``test_shipped_model_has_provenance_and_loads``;
* the two compiled policies in the wrong order (``compiled_policies``):
  ``test_expert_in_analyze_and_roles_differ``;
* the compact model's kept cards not scaled by availability
  (``pair_starter_weights``): ``test_random_throw_model_is_the_random_opponent``,
  ``test_compact_weights_equal_naive_twin``;
* offsuit throws counted as suited in ``best_response_stats``:
  ``test_best_response_stats_equal_naive_twin``.

Tie-rule and heels mutations are listed in test_discard.py.
"""

from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from crib_analyze import analyze
from crib_analyze.artifacts.expert_model import ExpertModel, ThrowModel, load_model, packaged_model
from crib_analyze.artifacts.pegging_table import packaged_pegging_table
from crib_analyze.cards import parse_cards
from crib_analyze.crib import combine_kernels as ck
from crib_analyze.crib import hand_kernels as dk
from crib_analyze.crib import random_crib_kernels as rck
from crib_analyze.crib import throw_model_kernels as tmk
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.discard.engine import analyze_hand, draw_opponents
from crib_analyze.errors import ModelError
from crib_analyze.expert.builder import FixedPoint, fictitious_play
from crib_analyze.expert.class_values import all_class_pegging, class_offsets, role_tables
from crib_analyze.position import Seat
from crib_analyze.scoring.show_kernels import rank_table
from tests.conftest import rotating
from tests.naive import (
    naive_best_response_stats,
    naive_compact_weights,
    naive_pair_starter_joint,
    naive_policy_weights,
    naive_score,
    unseen,
)

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
    np.testing.assert_allclose(got, rck.crib_random_means(rank_table(), hand6), atol=1e-12)


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


def joint_array(joint: dict[tuple[int, int, int], float]) -> np.ndarray:
    out = np.zeros((52, 52, 52))
    for (e1, e2, s), p in joint.items():
        out[e1, e2, s] = p
    return out


@pytest.mark.parametrize("hand", HANDS[:4])
@pytest.mark.parametrize("kind", ["compact", "policy"])
def test_closed_form_equals_naive_joint(hand: str, kind: str) -> None:
    """The fast combination equals summing every (throw, starter) of the joint built
    in plain Python from the model's rules (tests/naive.py), with lopsided suited
    shares so suited and offsuit weights cannot be confused."""
    hand6 = np.array(parse_cards(hand), np.int64)
    n_rank, _, _ = dk.unseen_counts(hand6)
    if kind == "compact":
        m = skewed_model()
        W, F = tmk.pair_starter_weights(m.P, m.K, n_rank), m.F
    else:
        multisets = hand_classes().multisets.astype(np.int64)
        W, F = pk.policy_weights(multisets, *skewed_policy(), n_rank)
    assert W.sum() == pytest.approx(1.0, abs=1e-12)
    joint = joint_array(naive_pair_starter_joint(hand6.tolist(), W.tolist(), F.tolist()))
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    assert not joint[:, :, hand6].any() and not joint[hand6].any()
    np.testing.assert_allclose(ck.pair_starter_probabilities(hand6, W, F), joint, atol=1e-15)
    closed = ck.crib_from_weights(rank_table(), hand6, W, F)
    np.testing.assert_allclose(closed, ck.crib_from_joint(rank_table(), hand6, joint), atol=1e-9)


@pytest.mark.parametrize("hand", HANDS[2:4])
def test_policy_weights_equal_naive_twin(hand: str) -> None:
    """Per-multiset policy -> (W, F) with rank-level card removal, against a plain
    enumeration of the opponent's rank multisets."""
    hand6 = np.array(parse_cards(hand), np.int64)
    n_rank, _, _ = dk.unseen_counts(hand6)
    multisets = hand_classes().multisets.astype(np.int64)
    pi, suited = skewed_policy()
    W, F = pk.policy_weights(multisets, pi, suited, n_rank)
    W2, F2 = naive_policy_weights(
        hand6.tolist(), [tuple(m) for m in multisets.tolist()], pi.tolist(), suited.tolist()
    )
    np.testing.assert_allclose(W, np.array(W2), atol=1e-14)
    np.testing.assert_allclose(F, np.array(F2), atol=1e-12)


@pytest.mark.parametrize("hand", HANDS[:5])
def test_random_policy_is_the_random_opponent(hand: str) -> None:
    """A hand drawn from the unseen cards throwing a random pair of its six is random."""
    hand6 = np.array(parse_cards(hand), np.int64)
    multisets = hand_classes().multisets.astype(np.int64)
    got = pk.crib_policy_means(rank_table(), hand6, multisets, *random_policy())
    np.testing.assert_allclose(got, rck.crib_random_means(rank_table(), hand6), atol=1e-12)


@pytest.mark.parametrize("hand", HANDS[:4])
def test_compact_weights_equal_naive_twin(hand: str) -> None:
    hand6 = np.array(parse_cards(hand), np.int64)
    n_rank, _, _ = dk.unseen_counts(hand6)
    m = skewed_model()
    got = tmk.pair_starter_weights(m.P, m.K, n_rank)
    expected = naive_compact_weights(hand6.tolist(), m.P.tolist(), m.K.tolist())
    np.testing.assert_allclose(got, np.array(expected), atol=1e-15)


def test_best_response_stats_equal_naive_twin() -> None:
    hc = hand_classes()
    rng = np.random.default_rng(6)
    rows = rng.choice(len(hc.weight), 300, replace=False)
    cards = hc.cards[rows].astype(np.int64)
    weight = hc.weight[rows].astype(np.float64)
    value = np.round(rng.normal(size=(300, 15)), 1)  # rounded: many exact ties
    value[:50, 3] = value[:50].max(axis=1) - 5e-10  # near-ties inside the tolerance
    flags, mass, suited, kept = tmk.best_response_stats(cards, weight, value, dk.TIE_TOLERANCE)
    m2, s2, k2 = naive_best_response_stats(
        cards.tolist(), weight.tolist(), value.tolist(), dk.TIE_TOLERANCE
    )
    np.testing.assert_allclose(mass, m2, rtol=1e-12)
    np.testing.assert_allclose(suited, s2, rtol=1e-12)
    np.testing.assert_allclose(kept, k2, rtol=1e-12)
    assert flags[:50, 3].all()


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
    per_sample = rck.crib_sampled(rank_table(), h, opponents, two_lowest_throws(opponents))[
        Seat.DEALER
    ]
    mean = per_sample.mean(axis=0)
    se = per_sample.std(axis=0, ddof=1) / np.sqrt(len(per_sample))
    assert (np.abs(mean - exact) < 4 * se).all()


@pytest.mark.slow
@pytest.mark.parametrize("hand", rotating(HANDS, 1, "expert-vs-sampled"))
def test_expert_agrees_with_sampled_expert_policy(hand: str) -> None:
    exact = analyze_hand(hand, opponent="expert")
    sampled = analyze_hand(hand, opponent="sampled", policy="expert", samples=40_000, seed=5)
    for crib in ("dealer_crib", "pone_crib"):
        diff = np.abs(getattr(exact, crib) - getattr(sampled, crib))
        assert (diff < 4 * getattr(sampled, f"{crib}_se")).all(), (crib, diff.max())


@pytest.mark.parametrize("kind", ["pegging", "classic"])
def test_shipped_model_has_provenance_and_loads(kind: str) -> None:
    model = packaged_model(kind)
    p = model.provenance
    assert (p.get("pegging") is not None) == (kind == "pegging")
    assert p["converged"] is True
    assert p["rounds"] >= 2
    assert p["final_table_change"] < p["tolerance"]
    assert len(p["log"]) == p["rounds"]
    for m in (model.pone_throws, model.dealer_throws):
        assert m.P.sum() == pytest.approx(1.0)
        assert (m.P >= 0).all()
        np.testing.assert_allclose(m.K.sum(axis=2)[m.P > 0], 4.0, atol=1e-9)
    for seat in ("dealer", "pone"):
        np.testing.assert_allclose(model.policy(seat).pi.sum(axis=1), 1.0, atol=1e-9)
    assert model.opponent_policy("dealer") is model.pone_policy
    assert model.opponent_policy("pone") is model.dealer_policy


@pytest.mark.heavy(seconds=5)
@pytest.mark.parametrize("kind", ["pegging", "classic"])
def test_shipped_policy_is_a_best_response_to_the_shipped_models(kind: str) -> None:
    """On a random sample of rank multisets, every class's best discards against the
    shipped compact models (and, for the pegging-aware model, the shipped pegging
    values), aggregated per multiset, reproduce the shipped policy."""
    model = packaged_model(kind)
    hc = hand_classes()
    rng = np.random.default_rng(2026)
    sample = np.sort(rng.choice(len(hc.multisets), 60, replace=False))
    offsets = class_offsets(hc.multiset, len(hc.multisets))
    rows = np.concatenate([np.arange(offsets[m], offsets[m + 1]) for m in sample])
    local = np.concatenate([[0], np.cumsum(offsets[sample + 1] - offsets[sample])])
    cards = hc.cards[rows].astype(np.int64)
    weight = hc.weight[rows].astype(np.float64)
    multiset = np.repeat(np.arange(len(sample)), np.diff(local))
    hand = np.array([dk.hand_means_closed(rank_table(), c) for c in cards])
    if kind == "pegging":
        table = packaged_pegging_table()
        assert model.provenance["pegging"]["created_at"] == table.provenance["created_at"]
        peg = {r: v[rows] for r, v in all_class_pegging(table).items()}
    else:
        peg = {"dealer": 0.0, "pone": 0.0}
    for role, throws, sign in (("dealer", model.pone_throws, 1), ("pone", model.dealer_throws, -1)):
        crib = np.empty((len(rows), dk.N_DISCARDS))
        tmk.class_model_cribs(
            rank_table(),
            read_only(hc.multisets[sample]),  # as the builder passes them: one signature
            local.astype(np.int64),
            read_only(hc.cards[rows]),
            throws.P,
            throws.F,
            throws.K,
            crib,
        )
        value = hand + sign * crib + peg[role]
        flags = tmk.best_response_stats(cards, weight, value, dk.TIE_TOLERANCE)[0]
        pi, suited = pk.multiset_policy(cards, weight, multiset, len(sample), flags)
        shipped = model.policy(role)
        np.testing.assert_allclose(pi, shipped.pi[sample], atol=1e-9, err_msg=role)
        np.testing.assert_allclose(suited, shipped.suited[sample], atol=1e-9, err_msg=role)


@pytest.mark.heavy
def test_pone_thrown_pairs_are_worth_more_than_dealer_thrown() -> None:
    tables = role_tables(packaged_model("classic"))  # keyed by the seat that throws the pair
    rank = {r: i for i, r in enumerate("A23456789TJQK")}
    for pair in ("55", "5J", "5T", "23"):
        a, b = sorted(rank[c] for c in pair)
        assert tables["pone"][a, b, 0] > tables["dealer"][a, b, 0], pair
    offsuit = [(a, b) for a in range(13) for b in range(a, 13)]
    more = sum(tables["pone"][a, b, 0] > tables["dealer"][a, b, 0] for a, b in offsuit)
    assert more >= 0.8 * len(offsuit)


def test_expert_in_analyze_and_roles_differ() -> None:
    df = analyze("5H 6S 4D JC QH 5C", opponent="expert")
    assert df.attrs["opponent"] == "expert"
    assert "packaged expert model" in df.attrs["model"]
    assert (df["crib_se"].isna() | (df["crib_se"] == 0)).all()
    row = df.set_index("discard").loc["5H 5C"]
    # the 5-5 we throw as dealer meets a pone's junk; as pone, a dealer's good cards
    assert row["pone_crib_mean"] > row["dealer_crib_mean"]


def test_model_round_trip_and_bad_files(tmp_path: Path) -> None:
    model = packaged_model()
    path = tmp_path / "m.npz"
    model.save(path)
    again = ExpertModel.load(path)
    np.testing.assert_array_equal(again.pone_throws.K, model.pone_throws.K)
    np.testing.assert_array_equal(again.policy("pone").pi, model.policy("pone").pi)
    assert again.provenance == model.provenance
    assert again.fingerprint() == model.fingerprint()
    assert again.source == str(path) and str(path) in again.describe()
    (tmp_path / "bad.npz").write_text("not a zip")
    with pytest.raises(ModelError, match="cannot read"):
        ExpertModel.load(tmp_path / "bad.npz")
    np.savez(tmp_path / "old.npz", format=np.array(99))
    with pytest.raises(ModelError, match="format"):
        ExpertModel.load(tmp_path / "old.npz")
    data = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(ModelError, match="damaged"):
        ExpertModel.load(tmp_path / "cut.npz")
    with pytest.raises(ModelError, match="no expert model"):
        load_model(tmp_path / "missing.npz")


def test_model_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "m.npz"
    packaged_model().save(path)
    monkeypatch.setenv("CRIB_ANALYZE_MODEL", str(path))
    assert load_model().source == str(path)
    assert str(path) in analyze("5H 6S 4D JC QH 5C", role="dealer").attrs["model"]
    monkeypatch.setenv("CRIB_ANALYZE_MODEL", str(tmp_path / "nope.npz"))
    with pytest.raises(ModelError, match="CRIB_ANALYZE_MODEL"):
        load_model()


def test_fictitious_play_settles_matching_pennies() -> None:
    """A toy game where plain best response cycles forever: the matcher plays heads
    when the mismatcher is more likely heads, the mismatcher the opposite. With the
    1/k averaging both mixtures settle at 1/2 (the equilibrium)."""

    def step(k: int, models: dict[str, float]) -> dict[str, tuple[np.ndarray, ...]]:
        match = 1.0 if models["mismatch"] > 0.5 else 0.0
        mismatch = 0.0 if models["match"] > 0.5 else 1.0
        return {"match": (np.array(match),), "mismatch": (np.array(mismatch),)}

    models, rounds, settled = fictitious_play(
        step, lambda s: float(s[0]), {"match": 0.9, "mismatch": 0.2}, 4000
    )
    assert (rounds, settled) == (4000, False)
    assert models["match"] == pytest.approx(0.5, abs=0.02)
    assert models["mismatch"] == pytest.approx(0.5, abs=0.02)


def test_fictitious_play_averages_best_responses() -> None:
    seen = [np.array([3.0, 0.0]), np.array([0.0, 3.0]), np.array([6.0, 0.0])]

    def step(k: int, models: dict[str, np.ndarray]) -> dict[str, tuple[np.ndarray, ...]] | None:
        return None if k > len(seen) else {"p": (seen[k - 1],)}

    models, rounds, settled = fictitious_play(step, lambda s: s[0], {"p": np.zeros(2)}, 10)
    assert (rounds, settled) == (4, True)
    np.testing.assert_allclose(models["p"], [3.0, 1.0])


def read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@pytest.mark.heavy(seconds=24)
@pytest.mark.slow
@pytest.mark.parametrize("kind", rotating(["classic", "pegging"], 1, "rebuild"))
def test_rebuild_reproduces_the_shipped_provenance(kind: str) -> None:
    """Two rounds of the fixed point, rebuilt here, log the same changes as the
    shipped model's first two rounds (so it was made by this code and these data)."""
    table = packaged_pegging_table() if kind == "pegging" else None
    fixed_point = FixedPoint(table)
    models, rounds, settled = fixed_point.run(tolerance=1e-3, max_rounds=2)
    assert (rounds, settled) == (2, False)
    shipped = packaged_model(kind).provenance["log"][:2]
    log = [(r.round, r.table_change, r.class_change) for r in fixed_point.history]
    assert [r[0] for r in log] == [1, 2]
    assert log[0][1:] == (np.inf, np.inf)
    assert log[1][1] == pytest.approx(shipped[1][1], rel=1e-9)
    assert log[1][2] == pytest.approx(shipped[1][2], rel=1e-9)
    # the final policy from the last round's cribs: a distribution over the 15 throws of
    # every rank multiset, its suited part within it
    for policy in fixed_point.tabulate(models, settled=True).values():
        np.testing.assert_allclose(policy.pi.sum(axis=1), 1.0, atol=1e-12)
        assert (policy.suited <= policy.pi + 1e-15).all() and (policy.suited >= 0).all()


def test_largest_difference_is_numpys() -> None:
    rng = np.random.default_rng(5)
    a, b = rng.random((50, 15)), rng.random((50, 15))
    assert tmk.largest_difference(a, b) == np.abs(a - b).max()
    b[7, 3] = np.nan  # a damaged value shows, as numpy's max shows it
    assert np.isnan(tmk.largest_difference(a, b)) and np.isnan(np.abs(a - b).max())


def test_a_model_file_of_format_1_is_still_read(tmp_path: Path) -> None:
    """Format 2 keeps the policies' nonzero entries; a file of format 1 (the whole
    tables, as 0.4.0 wrote them) reads as the same model, fingerprint and all."""
    import json

    from crib_analyze.storage.npz import arrays_digest

    model = load_model()
    arrays: dict[str, np.ndarray] = {
        "format": np.array(1),
        "provenance": np.array(json.dumps(model.provenance)),
        "fingerprint": np.array(model.fingerprint()),
    }
    for role in ("pone", "dealer"):
        throws, policy = model.throws(role), model.policy(role)
        arrays |= {f"{role}_P": throws.P, f"{role}_F": throws.F, f"{role}_K": throws.K}
        arrays |= {f"{role}_pi": policy.pi, f"{role}_suited": policy.suited}
    arrays["digest"] = np.array(arrays_digest(arrays))
    path = tmp_path / "old.npz"
    np.savez_compressed(path, **arrays)  # type: ignore[arg-type]
    old = ExpertModel.load(path)
    assert old.fingerprint() == model.fingerprint()
    for role in ("pone", "dealer"):
        assert np.array_equal(old.policy(role).pi, model.policy(role).pi)
        assert np.array_equal(old.policy(role).suited, model.policy(role).suited)
    new = tmp_path / "new.npz"
    old.save(new)
    with np.load(new) as data:
        assert int(data["format"]) == 2 and data["pone_pi"].ndim == 1  # entries only
    assert (
        ExpertModel.load(new).one_hand_policies().prob.size == model.one_hand_policies().prob.size
    )
