"""The numba scorer against the issue's golden histograms, named hands and a naive twin."""

from itertools import permutations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze import score_breakdown, score_hand
from crib_analyze.cards import CardError, parse_cards, relabel_suits
from crib_analyze.scoring import show_kernels as k
from crib_analyze.scoring.show_kernels import rank_table
from tests.naive import naive_breakdown, naive_score

HAND_HISTOGRAM = [
    1009008, 99792, 2813796, 505008, 2855676, 697508, 1800268, 751324, 1137236, 361224,
    388740, 51680, 317340, 19656, 90100, 9168, 58248, 11196, 2708, 0,
    8068, 2496, 444, 356, 3680, 0, 0, 0, 76, 4,
]  # fmt: skip
CRIB_HISTOGRAM = [
    1022208, 99792, 2839800, 508908, 2868960, 703496, 1787176, 755320, 1118336, 358368,
    378240, 43880, 310956, 16548, 88132, 9072, 57288, 11196, 2264, 0,
    7828, 2472, 444, 356, 3680, 0, 0, 0, 76, 4,
]  # fmt: skip
ALL_DEALS = 12_994_800


def test_golden_histogram_hand_rules() -> None:
    hist = k.all_deals_histogram(False)
    assert hist.tolist() == HAND_HISTOGRAM
    assert hist.sum() == ALL_DEALS
    mean = (hist * np.arange(30)).sum() / ALL_DEALS
    assert round(mean, 6) == 4.769152


def test_golden_histogram_crib_rules() -> None:
    hist = k.all_deals_histogram(True)
    assert hist.tolist() == CRIB_HISTOGRAM
    assert hist.sum() == ALL_DEALS


@pytest.mark.parametrize(
    ("hand", "starter", "crib", "expected"),
    [
        ("5H 5C 5S JD", "5D", False, 29),  # the perfect hand
        ("5H 5C 5S JD", "5D", True, 29),
        ("5H 5C 5S JD", "JH", False, 14 + 8),  # fifteens 6 x J5 + 555, pairs 555 + JJ
        ("4H 4C 5S 5D", "6C", False, 24),
        ("AH AC 2S 3D", "3C", False, 12 + 4),  # double-double run 12 + two pairs 4
        ("2H 3H 7H 9H", "KC", False, 2 + 4),  # 2+3+K fifteen, four-card flush in hand
        ("2H 3H 7H 9H", "KC", True, 2),  # no four-card flush in the crib
        ("2H 3H 7H 9H", "KH", True, 2 + 5),  # five-card flush in the crib
        ("2H 3H 7H 9S", "KH", False, 2),  # 3 hand cards + starter is no flush
        ("2H 4H 6H 8C", "JD", False, 0),  # jack starter is no nobs (heels)
        ("JD 2C 4C 6S", "8D", False, 1),  # nobs
        ("JC 2C 4C 6S", "8D", False, 0),  # jack of another suit
    ],
)
def test_named_hands(hand: str, starter: str, crib: bool, expected: int) -> None:
    assert score_hand(hand, starter, crib=crib) == expected
    cards = parse_cards(hand)
    assert naive_score(cards, parse_cards(starter)[0], crib) == expected


def test_aa233_runs_are_12() -> None:
    parts = score_breakdown("AH AC 2S 3D", "3C")
    assert parts.runs == 12
    assert parts.pairs == 4


@pytest.mark.parametrize(
    ("hand", "starter", "runs"),
    [
        ("QH KH AH 7C", "9S", 0),  # Q-K-A is no run: ace is low only
        ("JH QS KD 7C", "9S", 3),  # J-Q-K is
        ("AH 2S 3D 4C", "5C", 5),
        ("9H TS JD QC", "QD", 8),  # double run of four
        ("9H TS TD JC", "TC", 9),  # triple run
    ],
)
def test_runs(hand: str, starter: str, runs: int) -> None:
    assert score_breakdown(hand, starter).runs == runs
    assert naive_breakdown(parse_cards(hand), parse_cards(starter)[0])["runs"] == runs


def test_29_breakdown() -> None:
    parts = score_breakdown("5H 5C 5S JD", "5D")
    assert (parts.fifteens, parts.pairs, parts.runs, parts.flush, parts.nobs) == (16, 12, 0, 0, 1)
    assert parts.total == 29


def test_score_hand_accepts_ints_and_text() -> None:
    cards = parse_cards("4H 4C 5S 5D")
    assert score_hand(cards, parse_cards("6C")[0]) == score_hand("4H 4C 5S 5D", "6C") == 24


@pytest.mark.parametrize(
    ("hand", "starter", "message"),
    [
        ("5H 5C 5S", "5D", "expected 4 cards, got 3"),
        ("5H 5C 5S JD", "5H", "starter 5H is also one of the four cards"),
        ("5H 5C 5S JD", "5Z", "unknown suit 'Z'"),
        ("5H 5C 5S 5H", "5D", "duplicate card 5H"),
    ],
)
def test_score_hand_rejects_bad_input(hand: str, starter: str, message: str) -> None:
    with pytest.raises(CardError, match=message):
        score_hand(hand, starter)


deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@settings(max_examples=1500, deadline=None)
@given(deals, st.booleans())
def test_kernel_matches_naive_twin(deal: list[int], crib: bool) -> None:
    hand, starter = deal[:4], deal[4]
    expected = naive_breakdown(hand, starter, crib)
    got = score_breakdown(hand, starter, crib)
    assert got.as_dict() == expected | {"total": sum(expected.values())}
    assert 0 <= got.total <= 29


@settings(max_examples=300, deadline=None)
@given(deals, st.booleans(), st.permutations(range(4)))
def test_score_is_invariant_under_suit_relabelling(
    deal: list[int], crib: bool, perm: list[int]
) -> None:
    moved = relabel_suits(deal, tuple(perm))  # type: ignore[arg-type]
    assert score_hand(moved[:4], moved[4], crib) == score_hand(deal[:4], deal[4], crib)


def test_rank_points_exhaustive_over_rank_multisets() -> None:
    """Every 5-rank multiset (suits chosen to be distinct per rank) vs the naive twin."""
    table = rank_table()
    checked = 0
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    for r4 in range(r3, 13):
                        ranks = [r0, r1, r2, r3, r4]
                        if r0 == r4:
                            continue
                        # give repeated ranks distinct suits; the naive twin only needs ranks here
                        cards = [4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)]
                        naive = naive_breakdown(cards[:4], cards[4])
                        expected = naive["fifteens"] + naive["pairs"] + naive["runs"]
                        assert k.rank_points(*ranks) == expected
                        for p in set(permutations(ranks)):
                            assert k.lookup_rank_points(table, *p) == expected
                        checked += 1
    assert checked == 6175


def test_score_many_matches_scalar() -> None:
    rng = np.random.default_rng(5)
    deals_ = np.array([rng.choice(52, 5, replace=False) for _ in range(2000)], dtype=np.int64)
    for crib in (False, True):
        many = k.score_many(deals_[:, :4], deals_[:, 4], crib)
        assert many.tolist() == [naive_score(list(d[:4]), int(d[4]), crib) for d in deals_]
