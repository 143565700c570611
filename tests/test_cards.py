"""Card encoding, parsing, formatting and suit canonicalisation."""

from itertools import permutations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from crib_analyze.cards import (
    CardError,
    canonical_hand,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
    rank_of,
    relabel_suits,
    suit_of,
    value_of,
)


def test_encoding_is_rank_times_four_plus_suit() -> None:
    assert parse_card("AC") == 0
    assert parse_card("AS") == 3
    assert parse_card("2C") == 4
    assert parse_card("KS") == 51
    assert (rank_of(parse_card("JD")), suit_of(parse_card("JD"))) == (10, 1)


@pytest.mark.parametrize(
    ("token", "text"),
    [
        ("5H", "5H"),
        ("5h", "5H"),
        ("10H", "TH"),
        ("th", "TH"),
        ("AS", "AS"),
        ("kd", "KD"),
        ("5♥", "5H"),
        ("J♣", "JC"),
        ("q♦", "QD"),
        ("A♠", "AS"),
        ("7♡", "7H"),
        ("5♥️", "5H"),  # emoji variation selector
        (" 9c ", "9C"),
        (7, "2S"),
    ],
)
def test_parse_accepts_what_people_type(token: str | int, text: str) -> None:
    assert format_card(parse_card(token)) == text


def test_format_parse_round_trip_all_52() -> None:
    for card in range(52):
        assert parse_card(format_card(card)) == card
    assert len({format_card(c) for c in range(52)}) == 52


def test_values() -> None:
    assert [value_of(parse_card(r + "C")) for r in "A23456789TJQK"] == [
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10,
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("5H 6S 4D", ["5H", "6S", "4D"]),
        ("5H,6S,4D", ["5H", "6S", "4D"]),
        ("5H, 6S ,4D", ["5H", "6S", "4D"]),
        (["5H 6S", "4D"], ["5H", "6S", "4D"]),
    ],
)
def test_parse_cards_text_forms(text: str | list[str], expected: list[str]) -> None:
    assert format_cards(parse_cards(text)).split() == expected


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("1H", "unknown rank '1' in card '1H'"),
        ("ZH", "unknown rank 'Z'"),
        ("5X", "unknown suit 'X' in card '5X'"),
        ("11S", "unknown rank '11'"),
        ("5", "card '5' has no suit"),
        (
            "10 H 5S",
            "card '10' has no suit: 'H' stands apart (write rank and suit together, like 10H)",
        ),
        ("H 5S", "card 'H' has no rank"),
        ("x", "card too short: 'x'"),
        ("5H 5h", "duplicate card 5H"),
        (["5H", 99], "card id 99 out of range"),
    ],
)
def test_parse_errors_name_the_token(text: str | list[str | int], fragment: str) -> None:
    with pytest.raises(CardError) as info:
        parse_cards(text)
    assert fragment in str(info.value)
    assert "\n" not in str(info.value)


def test_wrong_count() -> None:
    with pytest.raises(CardError, match="expected 6 cards, got 5"):
        parse_cards("AC 2C 3C 4C 5C", count=6)


def test_bool_is_not_a_card() -> None:
    with pytest.raises(CardError):
        parse_card(True)


hands6 = st.lists(st.integers(0, 51), min_size=6, max_size=6, unique=True)


@given(hands6)
def test_canonical_hand_is_invariant_under_all_24_relabellings(hand: list[int]) -> None:
    canon = canonical_hand(hand)
    for perm in permutations(range(4)):
        assert canonical_hand(relabel_suits(hand, perm)) == canon  # type: ignore[arg-type]


@given(hands6)
def test_canonical_hand_is_a_relabelling_of_the_hand(hand: list[int]) -> None:
    canon = canonical_hand(hand)
    assert sorted(rank_of(c) for c in canon) == sorted(rank_of(c) for c in hand)
    assert any(
        tuple(sorted(relabel_suits(hand, perm))) == canon  # type: ignore[arg-type]
        for perm in permutations(range(4))
    )


def test_public_api_is_listed_and_importable() -> None:
    """dir(crib_analyze) is the public API (tab completion), and every name resolves."""
    import crib_analyze

    names = dir(crib_analyze)
    for name in (
        "analyze",
        "score_hand",
        "score_breakdown",
        "generate_table",
        "merge_tables",
        "check_table",
        "load_table",
        "crib_table",
        "build_model",
        "load_model",
        "paths",
        "canonical_hand",
        "CardError",
        "TableError",
        "ModelError",
        "UsageError",
        "StorageError",
    ):
        assert name in names, name
        assert getattr(crib_analyze, name) is not None
    assert not [n for n in names if n.startswith("_") and n != "__version__"]
