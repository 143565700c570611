"""Discard engine: exact random-model crib vs brute force, hand stats, sampled model,
heels and the one tie rule.

Mutations each caught by a fast test here (tried one at a time, then reverted):

* ``first_best`` picking the last of the tied discards:
  ``test_sampled_kernel_matches_twin`` and ``test_tie_rule_flags_and_first_best``;
* ``best_flags`` without its tolerance (``== best``): ``test_tie_rule_flags_and_first_best``;
* ``rank_order`` breaking ties against discard order: ``test_tie_rule_flags_and_first_best``,
  ``test_tied_discards_rank_in_discard_order``;
* heels off by one (``3 - jacks``) or over 45 starters: ``test_example_hand_facts``,
  ``test_heels_is_two_points_times_the_chance_of_a_jack_starter``.

(``>=`` -> ``>`` in ``best_flags`` is an equivalent mutant: the best value itself is
always within the tolerance.)
"""

from itertools import combinations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze import analyze
from crib_analyze.cards import CardError, format_cards, parse_cards
from crib_analyze.crib import hand_kernels as dk
from crib_analyze.crib import random_crib_kernels as rck
from crib_analyze.discard import engine as discard_engine
from crib_analyze.discard.engine import analyze_hand, draw_opponents, rank_order
from crib_analyze.errors import UsageError
from crib_analyze.position import Seat
from crib_analyze.scoring import show_kernels as k
from crib_analyze.scoring.show_kernels import rank_table
from tests.conftest import rotating
from tests.naive import discards_of, naive_hand_scores, naive_score, unseen

EXAMPLE = "5H 6S 4D JC QH 5C"

BRUTE_FORCE_HANDS = [
    EXAMPLE,
    "JC JD JH JS 5C 5D",  # four jacks
    "JC JD 5H 5S TC KD",  # several jacks, fives
    "2H 4H 6H 8H TH QH",  # six-card flush
    "7C 7D 7H 7S 8C AD",  # four of a kind
    "AC 2C 3C 4C 5C 6C",  # flush with a long run
    "5C 5D 5H 5S JC QD",  # four fives
    "KC KD QH QS JD TC",
    "AC AD AH 2S 2C 3D",
    "9S 8S 6D 3C JH KS",
    "TD JD QD KD 5S 5H",
    "2C 3D 4H 6S 8C 9D",
]


def brute_force_random_crib(hand6: list[int], thrown: list[int]) -> float:
    """Mean crib over every opponent pair of the 46 unseen and every starter of the other 44."""
    hands, starters = [], []
    rest = unseen(hand6)
    for a, b in combinations(rest, 2):
        for s in rest:
            if s != a and s != b:
                hands.append([thrown[0], thrown[1], a, b])
                starters.append(s)
    assert len(starters) == 1035 * 44
    scores = k.score_many(np.array(hands, np.int64), np.array(starters, np.int64), True)
    return float(scores.mean())


@pytest.mark.slow
@pytest.mark.parametrize("hand", rotating(BRUTE_FORCE_HANDS, 4, "random-crib-brute-force"))
def test_random_crib_equals_brute_force(hand: str) -> None:
    hand6 = parse_cards(hand)
    analysis = analyze_hand(hand6, opponent="random")
    for d, (thrown, _kept) in enumerate(discards_of(hand6)):
        expected = brute_force_random_crib(hand6, thrown)
        assert analysis.dealer_crib[d] == pytest.approx(expected, abs=1e-9)
        assert analysis.pone_crib[d] == analysis.dealer_crib[d]
    assert not analysis.dealer_crib_se.any() and not analysis.pone_crib_se.any()


@pytest.mark.slow
def test_random_crib_brute_force_with_naive_scorer() -> None:
    """One discard checked against the pure-Python scorer over all 45,540 completions."""
    hand6 = parse_cards("JC 5D 5H TS 4C QD")
    thrown = [hand6[0], hand6[1]]  # JC 5D
    rest = unseen(hand6)
    total = count = 0
    for a, b in combinations(rest, 2):
        for s in rest:
            if s != a and s != b:
                total += naive_score([*thrown, a, b], s, crib=True)
                count += 1
    assert analyze_hand(hand6, opponent="random").dealer_crib[0] == pytest.approx(
        total / count, abs=1e-12
    )


@pytest.mark.parametrize("hand", BRUTE_FORCE_HANDS[:6])
def test_hand_scores_equal_naive_twin(hand: str) -> None:
    hand6 = parse_cards(hand)
    analysis = analyze_hand(hand6, opponent="random")
    for d, (thrown, kept) in enumerate(discards_of(hand6)):
        assert analysis.hand_scores[d].tolist() == naive_hand_scores(hand6, kept)
        assert format_cards(analysis.discards[d]) == format_cards(thrown)
        assert format_cards(analysis.keeps[d]) == format_cards(kept)


def test_example_hand_facts() -> None:
    """Facts from the issue: JC QH best for both roles, with these exact values."""
    for role in ("dealer", "pone"):
        df = analyze(EXAMPLE, role=role, opponent="random")
        assert df.loc[0, "discard"] == "JC QH"
        assert df.loc[0, "keep"] == "5H 6S 4D 5C"
    df = analyze(EXAMPLE, role="dealer", opponent="random").set_index("discard")
    row = df.loc["JC QH"]
    assert row["hand_mean"] == pytest.approx(734 / 46, abs=1e-12)
    assert row["crib_mean"] == pytest.approx(4.711287, abs=5e-7)
    assert row["dealer_heels"] == pytest.approx(2 * 3 / 46)  # three jacks unseen
    assert row["dealer_net"] - row["dealer_heels"] == pytest.approx(20.667809, abs=5e-7)
    assert row["pone_net"] == pytest.approx(11.245235, abs=5e-7)


def test_frame_columns_and_order() -> None:
    df = analyze(EXAMPLE, role="pone", need=12)
    for col in ["discard", "keep", "hand_mean", "hand_min", "hand_max", "hand_sd", "crib_mean"]:
        assert col in df.columns
    assert df["rank"].tolist() == list(range(1, 16))
    assert df["total"].is_monotonic_decreasing  # with the play counted, by the total
    np.testing.assert_allclose(df["total"], df["net"] + df["peg_own"] - df["peg_opp"])
    assert analyze(EXAMPLE, role="pone", pegging="none")["net"].is_monotonic_decreasing
    assert str(df["hand_min"].dtype) == "int64"
    assert df.attrs["role"] == "pone"
    # p_need is the exact fraction of the 46 starters reaching 12
    hand6 = parse_cards(EXAMPLE)
    for _, row in df.iterrows():
        kept = parse_cards(row["keep"])
        scores = naive_hand_scores(hand6, kept)
        assert row["p_need"] == pytest.approx(sum(s >= 12 for s in scores) / 46)
        assert row["hand_sd"] == pytest.approx(float(np.std(scores)))
        assert (row["hand_min"], row["hand_max"]) == (min(scores), max(scores))


def test_sort_keys() -> None:
    assert analyze(EXAMPLE, role="dealer", sort="hand")["hand_mean"].is_monotonic_decreasing
    assert analyze(EXAMPLE, role="dealer", sort="crib")["crib_mean"].is_monotonic_decreasing
    assert analyze(EXAMPLE, role="pone", sort="crib")["crib_mean"].is_monotonic_increasing
    df = analyze(EXAMPLE, role="dealer", need=14, sort="need")
    assert df["p_need"].is_monotonic_decreasing
    with pytest.raises(ValueError, match="need"):
        analyze(EXAMPLE, sort="need")


def test_no_role_shows_both_roles_ranked_by_dealer() -> None:
    df = analyze(EXAMPLE, opponent="random", pegging="none")
    assert df["dealer_net"].is_monotonic_decreasing
    assert df["dealer_net"].tolist() == pytest.approx(
        (df["hand_mean"] + df["crib_mean"] + df["dealer_heels"]).tolist()
    )
    assert df["pone_net"].tolist() == pytest.approx((df["hand_mean"] - df["crib_mean"]).tolist())


def test_bad_input() -> None:
    with pytest.raises(CardError, match="expected 6 cards, got 5"):
        analyze("5H 6S 4D JC QH")
    with pytest.raises(ValueError, match="role"):
        analyze(EXAMPLE, role="both")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="opponent"):
        analyze(EXAMPLE, opponent="psychic")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="samples"):
        analyze(EXAMPLE, opponent="sampled", samples=0)
    with pytest.raises(UsageError, match="samples must be a whole number from 1 to 1,000,000"):
        analyze(EXAMPLE, opponent="sampled", samples=100_000_000)
    with pytest.raises(
        UsageError, match="seed must be a whole number from 0 to 9,223,372,036,854,775,807"
    ):
        analyze(EXAMPLE, opponent="sampled", seed=-1)


hands6 = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)


@settings(max_examples=60, deadline=None)
@given(hands6)
def test_closed_form_hand_mean_equals_enumeration(hand: list[int]) -> None:
    hand6 = np.array(hand, np.int64)
    n_rank, n_suit, _ = dk.unseen_counts(hand6)
    scores = dk.hand_scores(rank_table(), hand6)
    for d in range(15):
        kept = hand6[dk.KEEPS[d]]
        closed = dk.hand_mean_closed(rank_table(), n_rank, n_suit, *kept)
        assert closed == pytest.approx(scores[d].mean(), abs=1e-12)


# --- sampled model ----------------------------------------------------------------------


def naive_best_discards(hand6: list[int]) -> tuple[int, int]:
    """Best discard for a dealer and a pone, hand means by naive enumeration."""
    crib = analyze_hand(hand6, opponent="random").dealer_crib
    hands = [np.mean(naive_hand_scores(hand6, kept)) for _, kept in discards_of(hand6)]
    dealer = max(range(15), key=lambda d: (hands[d] + crib[d], -d))
    pone = max(range(15), key=lambda d: (hands[d] - crib[d], -d))
    return dealer, pone


def test_sampled_kernel_matches_twin() -> None:
    hand6 = parse_cards("5H 5C 6S 4D JC QH")
    opponents = draw_opponents(np.array(hand6, np.int64), 6, seed=11)
    throws = rck.random_policy_throws(rank_table(), opponents)
    got = rck.crib_sampled(rank_table(), np.array(hand6, np.int64), opponents, throws)
    for i, opp in enumerate(opponents.tolist()):
        best_dealer, best_pone = naive_best_discards(opp)
        left = [c for c in range(52) if c not in hand6 and c not in opp]
        assert len(left) == 40
        assert throws[i].tolist() == [best_pone, best_dealer]
        for ours, choice in ((Seat.DEALER, best_pone), (Seat.PONE, best_dealer)):
            opp_thrown, _ = discards_of(opp)[choice]
            for d, (thrown, _) in enumerate(discards_of(hand6)):
                expected = np.mean([naive_score([*thrown, *opp_thrown], s, True) for s in left])
                assert got[ours, i, d] == pytest.approx(expected, abs=1e-12)


def test_sampled_is_reproducible_and_seed_dependent() -> None:
    a = analyze(EXAMPLE, role="dealer", opponent="sampled", samples=300, seed=4)
    b = analyze(EXAMPLE, role="dealer", opponent="sampled", samples=300, seed=4)
    c = analyze(EXAMPLE, role="dealer", opponent="sampled", samples=300, seed=5)
    assert a.equals(b)
    assert not np.allclose(a["crib_mean"], c["crib_mean"])
    assert (a["crib_se"] > 0).all()


@pytest.mark.slow
def test_sampled_mean_moves_within_four_standard_errors() -> None:
    small = analyze_hand(EXAMPLE, opponent="sampled", samples=1000, seed=1)
    large = analyze_hand(EXAMPLE, opponent="sampled", samples=8000, seed=2)
    for crib in ("dealer_crib", "pone_crib"):
        diff = np.abs(getattr(small, crib) - getattr(large, crib))
        se_small, se_large = getattr(small, f"{crib}_se"), getattr(large, f"{crib}_se")
        assert (diff < 4 * np.sqrt(se_small**2 + se_large**2)).all()
        assert (se_large < se_small).all()


def test_pone_throws_a_dealer_less_than_random_for_five_five() -> None:
    """When we deal, the opponent is a pone throwing junk: our 5-5 crib is worth less."""
    hand = "5H 5C 9S KD 2C 7H"
    random_model = analyze_hand(hand, opponent="random").dealer_crib[0]  # throws 5H 5C
    sampled = analyze_hand(hand, opponent="sampled", samples=2000, seed=3)
    assert sampled.dealer_crib[0] + 4 * sampled.dealer_crib_se[0] < random_model
    # and a dealer opponent feeds its own crib more than a random pair would
    assert sampled.pone_crib[0] - 4 * sampled.pone_crib_se[0] > random_model


def test_draw_opponents_are_unseen_and_distinct() -> None:
    hand6 = np.array(parse_cards(EXAMPLE), np.int64)
    opp = draw_opponents(hand6, 500, seed=0)
    assert opp.shape == (500, 6)
    assert all(len(set(row)) == 6 for row in opp.tolist())
    assert not np.isin(opp, hand6).any()


def test_sampled_batches_are_one_stream(monkeypatch: pytest.MonkeyPatch) -> None:
    """Batches of any size give the numbers of one draw of every sample at once."""
    hand6 = np.array(parse_cards(EXAMPLE), np.int64)
    opponents = draw_opponents(hand6, 23, seed=8)
    throws = rck.random_policy_throws(rank_table(), opponents)
    per_sample = rck.crib_sampled(rank_table(), hand6, opponents, throws)
    for batch in (23, 5, 1):
        monkeypatch.setattr(discard_engine, "SAMPLE_BATCH", batch)
        seen: list[int] = []
        got = analyze_hand(
            EXAMPLE,
            opponent="sampled",
            samples=23,
            seed=8,
            on_progress=lambda d, t, s=seen: s.append(d),
        )
        assert seen[-1] == 23 and len(seen) == -(-23 // batch)
        for crib, row in (("dealer_crib", Seat.DEALER), ("pone_crib", Seat.PONE)):
            np.testing.assert_allclose(getattr(got, crib), per_sample[row].mean(axis=0), atol=1e-12)
            se = per_sample[row].std(axis=0, ddof=1) / np.sqrt(23)
            np.testing.assert_allclose(getattr(got, f"{crib}_se"), se, atol=1e-12)


# --- heels and the tie rule ----------------------------------------------------------------


@pytest.mark.parametrize("hand", ["5H 6S 4D JC QH 5C", "JC JD JH JS 5C 5D", "2C 3D 4H 6S 8C 9D"])
def test_heels_is_two_points_times_the_chance_of_a_jack_starter(hand: str) -> None:
    hand6 = parse_cards(hand)
    starters = unseen(hand6)
    assert len(starters) == 46
    expected = 2 * sum(c // 4 == 10 for c in starters) / len(starters)
    assert analyze_hand(hand6, opponent="random").heels == pytest.approx(expected, abs=1e-15)
    rows = analyze(hand6, role="dealer", opponent="random")
    assert (rows["dealer_net"] - rows["hand_mean"] - rows["crib_mean"]).to_numpy() == (
        pytest.approx([expected] * 15)
    )


def naive_best(values: list[float], tol: float) -> list[bool]:
    top = max(values)
    return [v >= top - tol for v in values]


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.sampled_from([0.0, 1.0, 1.0 + 1e-12, 2.5, 2.5 - 5e-10, 3.0]), min_size=15, max_size=15
    )
)
def test_tie_rule_flags_and_first_best(values: list[float]) -> None:
    arr = np.array(values)
    flags = dk.best_flags(arr[None, :], dk.TIE_TOLERANCE)[0]
    assert flags.tolist() == naive_best(values, 1e-9)
    assert dk.first_best(arr, dk.TIE_TOLERANCE) == flags.tolist().index(True)
    assert rank_order([arr])[0] == flags.tolist().index(True)


def test_tied_discards_rank_in_discard_order() -> None:
    """5H and 5C are interchangeable here (no flush or nobs can tell them apart), so
    throwing either with the same card ties exactly; tied rows keep discard order."""
    hand = parse_cards("5H 6S 4D JC QH 5C")
    for role in ("dealer", "pone"):
        df = analyze(hand, role=role, opponent="random")
        net = df[f"{role}_net"].to_numpy()
        positions = [sorted(hand.index(c) for c in parse_cards(d)) for d in df["discard"]]
        groups = 0
        for i in range(14):
            if abs(net[i] - net[i + 1]) <= 1e-9:
                groups += 1
                assert positions[i] < positions[i + 1], (role, df["discard"][i : i + 2])
        assert groups >= 2
