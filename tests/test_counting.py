"""Counting a show like a player: the combinations, their order, the running total.

The worked examples come from the rules, not from this code: the 29 hand (eight
fifteens, six pairs, nobs); 4-4-5-5-6 and 6-7-7-8-8 are 24 each (four fifteens, two
pairs, four runs of three); a double run 2-2-3-4 is 8 for the runs and its pair.

Mutations tried (each fails a test here): counting every run length instead of only the
longest; dropping the crib rule for four-card flushes; announcing the fifteens after the
pairs; nobs for a jack of another suit.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze import score_breakdown
from crib_analyze.cards import format_cards, parse_cards
from crib_analyze.errors import CardError
from crib_analyze.scoring.show import count_show, number_words
from tests.naive import naive_breakdown


def kinds(show) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.kind for c in show.combinations]


def test_the_29_hand() -> None:
    show = count_show("5H 5C 5S JD 5D")
    assert show.total == 29
    assert kinds(show) == ["fifteen"] * 8 + ["pair"] * 6 + ["nobs"]
    assert [c.running for c in show.combinations] == [*range(2, 30, 2), 29]
    assert show.combinations[0].announce == "fifteen two"
    assert show.combinations[8].announce == "and a pair is eighteen"
    assert show.combinations[-1].announce == "and nobs is twenty-nine"
    assert format_cards(show.combinations[-1].cards) == "JD"
    assert show.heels == 0


@pytest.mark.parametrize("cards", ["4H 4C 5S 5D 6C", "6C 7D 7H 8S 8C"])
def test_the_24_hands(cards: str) -> None:
    show = count_show(cards)
    assert show.total == 24
    assert kinds(show) == ["fifteen"] * 4 + ["pair"] * 2 + ["run"] * 4
    assert all(len(c.cards) == 3 and c.points == 3 for c in show.combinations if c.kind == "run")


def test_a_double_run_is_eight_with_its_pair() -> None:
    show = count_show("2H 2S 3D 4C", "9S")  # 2+4+9 = 15 once
    b = show.breakdown()
    assert b["runs"] + b["pairs"] == 8
    runs = [format_cards(c.cards) for c in show.combinations if c.kind == "run"]
    assert runs == ["2H 3D 4C", "2S 3D 4C"]


def test_flush_rules_and_nobs() -> None:
    assert count_show("2H 4H 6H 8H", "KS").breakdown()["flush"] == 4
    assert count_show("2H 4H 6H 8H", "KS", crib=True).breakdown()["flush"] == 0
    assert count_show("2H 4H 6H 8H", "KH", crib=True).breakdown()["flush"] == 5
    assert count_show("2H 4H 6H 8H", "KS").combinations[0].announce == "a flush of four is four"
    assert count_show("JH 2C 4D 6S", "8H").breakdown()["nobs"] == 1
    assert count_show("JH 2C 4D 6S", "8C").breakdown()["nobs"] == 0


def test_a_jack_starter_is_heels_not_part_of_the_hand() -> None:
    show = count_show("2C 4D 6H 8S", "JH")
    assert show.heels == 2
    assert show.total == 0  # 2-4-6-8 and a jack: no fifteens (all even), nothing


def test_five_cards_or_four_and_a_starter() -> None:
    assert count_show("5H 5C 5S JD 5D").total == count_show("5H 5C 5S JD", "5D").total
    for bad, message in [
        ("5H 5C 5S JD", "expected 5 cards"),
        ("5H 5C 5S JD 5D 6D", "expected 5 cards"),
    ]:
        with pytest.raises(CardError, match=message):
            count_show(bad)
    with pytest.raises(CardError, match="expected 4 cards with a separate starter"):
        count_show("5H 5C 5S JD 5D", "6D")
    with pytest.raises(CardError, match="starter 5H is also one of the four"):
        count_show("5H 5C 5S JD", "5H")


def test_number_words() -> None:
    assert [number_words(n) for n in (0, 2, 15, 20, 21, 29)] == [
        "zero", "two", "fifteen", "twenty", "twenty-one", "twenty-nine"
    ]  # fmt: skip


deals = st.lists(st.integers(0, 51), min_size=5, max_size=5, unique=True)


@settings(max_examples=1500, deadline=None)
@given(deals, st.booleans())
def test_categories_equal_the_kernel_and_the_twin(deal: list[int], crib: bool) -> None:
    show = count_show(deal[:4], deal[4], crib=crib)
    kernel = score_breakdown(deal[:4], deal[4], crib).as_dict()
    assert show.breakdown() == kernel
    naive = naive_breakdown(deal[:4], deal[4], crib)
    assert show.breakdown() == naive | {"total": sum(naive.values())}
    # fifteens come first, then pairs, runs, flush, nobs
    order = ["fifteen", "pair", "run", "flush", "nobs"]
    assert kinds(show) == sorted(kinds(show), key=order.index)
    assert all(c.running == sum(x.points for x in show.combinations[: i + 1])
               for i, c in enumerate(show.combinations))  # fmt: skip


def test_every_rank_multiset_with_the_kernel() -> None:
    """All 6,175 five-rank multisets (suits spread) counted equal to the kernel."""
    checked = 0
    for r0 in range(13):
        for r1 in range(r0, 13):
            for r2 in range(r1, 13):
                for r3 in range(r2, 13):
                    for r4 in range(r3, 13):
                        ranks = [r0, r1, r2, r3, r4]
                        if r0 == r4:
                            continue
                        cards = [4 * r + ranks[:i].count(r) for i, r in enumerate(ranks)]
                        show = count_show(cards[:4], cards[4])
                        assert show.total == score_breakdown(cards[:4], cards[4]).total
                        checked += 1
    assert checked == 6175


def test_parse_cards_is_shared() -> None:
    assert count_show(parse_cards("5h 5c 5s jd 5d")).total == 29
