"""Jokers in the show (crib_analyze.scoring.joker_kernels, ``score --jokers``): each
joker counted at its best against brute force over every card it may be (the plain
scorer of tests/naive.py), the pack's distributions against counts made by hand from
the rules, and the command line.

Mutations tried (each fails a test here): a joker's suit fixed to clubs; a second joker
taking the first one's card; the crib rules ignored with a joker; the distribution
skipping starters after the hand's cards.
"""

from __future__ import annotations

import json
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.scoring import joker_kernels as jk
from tests.conftest import FULL
from tests.naive import naive_score


def brute(cards: list[int], crib: bool) -> int:
    """The best over every card each joker (id >= 52) may be, duplicates allowed."""
    where = [i for i, c in enumerate(cards) if c >= 52]
    best = -1
    choices = [[c] if c < 52 else list(range(52)) for c in cards]
    if len(where) == 2:  # 2,704 assignments: enumerate them
        for a in range(52):
            for b in range(52):
                five = list(cards)
                five[where[0]], five[where[1]] = a, b
                best = max(best, naive_score(five[:4], five[4], crib))
        return best
    for x in choices[where[0]] if where else [None]:
        five = list(cards)
        if where:
            five[where[0]] = x
        best = max(best, naive_score(five[:4], five[4], crib))
    return best


@settings(max_examples=60, deadline=None)
@given(st.permutations(range(52)), st.integers(0, 4), st.booleans())
def test_one_joker_anywhere_is_its_best_card(perm: list[int], at: int, crib: bool) -> None:
    cards = list(perm[:5])
    cards[at] = 52
    got = jk.best_joker_show(np.array(cards, np.int64), crib)
    assert got[0] == brute(cards, crib)
    counted = list(cards)
    counted[at] = got[1]
    assert naive_score(counted[:4], counted[4], crib) == got[0]  # the card it says


@settings(max_examples=6, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([(0, 1), (2, 4), (3, 4)]), st.booleans())
def test_two_jokers_are_their_best_pair(perm: list[int], at: tuple[int, int], crib: bool) -> None:
    cards = list(perm[:5])
    cards[at[0]], cards[at[1]] = 52, 53
    assert jk.best_joker_show(np.array(cards, np.int64), crib)[0] == brute(cards, crib)


def test_the_pack_without_jokers_is_the_rules_distribution() -> None:
    d = jk.joker_distribution(0, False)
    assert d.sum() == 12_994_800 and d[0] == 1_009_008 and d[29] == 4
    assert not d[[19, 25, 26, 27]].any() and not d[30:].any()
    assert round(float((np.arange(len(d)) * d).sum() / d.sum()), 6) == 4.769152


def test_one_joker_five_fives_and_the_new_maximum() -> None:
    """Every four of 53 cards with every starter of the other 49. Only five fives score
    40: four fives in hand and the joker cut (1), or three fives and the joker in hand
    and the fourth five cut (4)."""
    d = jk.joker_distribution(1, False)
    assert d.sum() == comb(53, 4) * 49
    assert np.flatnonzero(d).max() == 40 and d[40] == 5


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["score", "5H", "5C", "5S", "5D", "--starter", "JK", "--jokers", "1"])
    assert ok.exit_code == 0, ok.output
    assert "total     40" in ok.output and "counted as 5" in ok.output and "heels: 2" in ok.output
    for args, words in [
        (["score", "5H", "5C", "JK", "JD", "--starter", "5S"], "give --jokers"),
        (["score", "5H", "JK", "JK", "JD", "--starter", "5S", "--jokers", "1"], "--jokers 2"),
        (["score", "5H", "5C", "JK", "JD", "--starter", "5S", "--jokers", "3"], "--jokers"),
    ]:
        bad = runner.invoke(cli, args)
        assert bad.exit_code == 2 and words in bad.output, (args, bad.output)
    assert ca.count_show("5H 5C 5S 5D", "JK", jokers=1).total == 40


@pytest.mark.parametrize(
    ("hand", "crib", "total"),
    [
        ("JH 5D 5C JK", False, 29),  # the hand's joker a 5, the cut one 5H: the jack is nobs
        ("4H 6H 5H JK", True, 29),  # a double run of 24 and a five-card crib flush
    ],
)
def test_two_jokers_one_of_them_cut(hand: str, crib: bool, total: int) -> None:
    """The cut joker was given the hand joker's id, so both counted as one card (28, 26);
    the right counts are from the rules text, worked by hand."""
    from crib_analyze.api import count_show

    shown = count_show(hand, "JK", crib=crib, jokers=2)
    assert shown.total == total
    assert len({card for _, card in shown.wild}) == 2  # two cards, not one twice
    args = ["score", *hand.split(), "--starter", "JK", "--jokers", "2", "-f", "json"]
    result = CliRunner().invoke(cli, [*args, *(["--crib"] if crib else [])])
    assert result.exit_code == 0, result.output
    assert f'"total": {total}' in result.stdout
    said = json.loads(result.stdout)  # the cut joker gives heels; both jokers named
    assert said["heels"] == 2 and [j["place"] for j in said["jokers"]] == [3, 4]


@settings(max_examples=40, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([3, 4]), st.integers(1, 2), st.booleans(),
       st.booleans())  # fmt: skip
def test_any_hand_with_jokers_is_its_best_cards(
    perm: list[int], size: int, jokers: int, cut: bool, crib: bool
) -> None:
    """The whole-game show of a hand of any size (crib_analyze.scoring.any_hand_kernels.
    wild_show_points) against the plain enumeration of every card each joker may be
    (tests/naive.py: naive_wild_score); a joker in the hand, cut, or both."""
    from crib_analyze.scoring.any_hand_kernels import wild_show_points
    from tests.naive import naive_wild_score

    if jokers == 2 and size == 4 and crib:  # the slowest twin: one case in four
        crib = False
    cards = list(perm[: size + 1])
    places = [size] if cut else []
    places += [0, 1][: jokers - len(places)]
    for j, at in enumerate(places):
        cards[at] = 52 + j
    hand, starter = cards[:size], cards[size]
    want = naive_wild_score(hand, starter, crib)
    got = wild_show_points(np.array([*hand, -1][:4], np.int64), size, starter, crib)
    assert got == want, (hand, starter, crib)


def test_nobs_is_one_point_however_many_jacks_a_joker_makes() -> None:
    """JH JC 3S and a joker with the 8H cut: the joker as a second jack of hearts would
    make nobs twice (8); nobs is one point a hand, as docs/variants.md reads the rule, so
    the best is 7 (the joker as the 4 of anything: a fifteen 3-4-8, a pair of jacks...
    or as the jack of hearts with nobs once)."""
    from crib_analyze.cards import parse_card
    from crib_analyze.scoring.any_hand_kernels import wild_show_points
    from tests.naive import naive_wild_score

    hand = [parse_card(c) for c in ("JH", "JC", "3S")] + [52]
    starter = parse_card("8H")
    assert naive_wild_score(hand, starter) == 7
    assert wild_show_points(np.array(hand, np.int64), 4, starter, False) == 7


def test_the_hand_policy_with_a_joker() -> None:
    """A seat of a whole game holding a joker splits as the plain hand policy does
    (tests/naive.py: naive_split, the joker thrown as rank 13 of the tables), for
    either seat; the dealer throws the joker to its own crib where that is worth most
    (TH 9H AS TS JC JK: the ace and the joker, keeping T-T-9-J)."""
    from crib_analyze.crib.any_game_cribs import joker_crib_tables
    from crib_analyze.crib.any_game_kernels import hand_policy_split
    from tests.naive import naive_split

    one, two = joker_crib_tables((2,), 1)
    rng = np.random.default_rng(5)
    hands = [[int(c) for c in rng.choice(52, 5, replace=False)] + [52] for _ in range(6)]
    hands.append([38, 34, 3, 39, 40, 52])  # TH 9H AS TS JC JK, the dealer's
    thrown_joker = []
    for trial, cards in enumerate(hands):
        sign = 1 if trial % 2 == 0 else -1
        km, _, _ = hand_policy_split(np.array(cards, np.int64), 4, 2, 0, sign, one, two,
                                      1, False, 1)  # fmt: skip
        kept = [c for j, c in enumerate(cards) if km >> j & 1]
        want, _, _ = naive_split(cards, 4, 2, 0, sign > 0, one.tolist(), two.tolist(),
                                 jokers=1)  # fmt: skip
        assert kept == want, cards
        thrown_joker.append(52 not in kept)
    assert not any(thrown_joker[1::2])  # the pone keeps its joker
    assert thrown_joker[-1]


@pytest.mark.parametrize(
    ("table", "entry", "thrown", "jokers"),
    [(1, (4, 13), [16, 52], 1)]  # the table the other tests use too; the rest in test-all
    + ([(0, (13,), [52], 2), (1, (13, 13), [52, 53], 2)] if FULL else []),
)  # fmt: skip
def test_the_joker_s_crib_tables(table, entry, thrown, jokers) -> None:  # type: ignore[no-untyped-def]
    """The hand policy's crib with a joker thrown (crib_analyze.crib.any_game_cribs.
    joker_crib_tables, exact): the same mean from cribs dealt at random from the rest
    of the pack and counted by the plain enumeration of every card each joker may be
    (tests/naive.py: naive_wild_score), within four standard errors."""
    from crib_analyze.crib.any_game_cribs import joker_crib_tables
    from tests.conftest import scaled
    from tests.naive import naive_wild_score

    got = joker_crib_tables((len(thrown),), jokers)[table][entry]
    rest = [c for c in range(52 + jokers) if c not in thrown]
    rng = np.random.default_rng(11)
    n = scaled(1_500, 300) if 53 not in thrown else scaled(100, 20)
    shows = []
    for _ in range(n):
        drawn = [int(c) for c in rng.choice(rest, 5 - len(thrown), replace=False)]
        shows.append(naive_wild_score([*thrown, *drawn[:-1]], drawn[-1], crib=True))
    se = float(np.std(shows, ddof=1)) / np.sqrt(n)
    assert abs(got - float(np.mean(shows))) < 4 * se + 1e-9, (got, np.mean(shows), se)


@pytest.mark.parametrize(
    ("name", "seat", "hand"),
    [("five-card", "pone", "5H 6S JK 9C QD"), ("three", "dealer", "5H 6S 4D JC JK"),
     ("three", "left", "5H 6S 4D JC QH")],
)  # fmt: skip
def test_a_seat_s_hand_distribution_with_a_joker(name: str, seat: str, hand: str) -> None:
    """Any game's seat with a joker (discard.any_game.analyze_seat): each kept hand's
    show with every starter it cannot see (a joker cut among them), counted by the
    plain enumeration of every card each joker may be (tests/naive.py:
    naive_wild_score), gives its distribution, its chance of 0 (never with a joker
    held), its chance to reach ``need`` and its mean, exactly."""
    from crib_analyze.discard.any_game import analyze_seat
    from crib_analyze.scoring.jokers import parse_with_jokers
    from tests.naive import naive_wild_score

    rules = ca.game(name, jokers=1)
    throws = analyze_seat(hand, rules, seat, others="random", need=12)
    cards = parse_with_jokers(hand, 1)
    unseen = [c for c in range(53) if c not in cards]
    for i in (0, len(throws.kept) - 1):
        kept = list(throws.kept[i])
        shows = [naive_wild_score(kept, s) for s in unseen]
        counts = np.bincount(shows, minlength=throws.hand_counts.shape[1])
        assert throws.hand_counts[i].tolist() == counts.tolist()
        assert throws.hand[i] == pytest.approx(np.mean(shows), abs=1e-12)
        assert throws.hand_zero[i] == pytest.approx(np.mean(np.array(shows) == 0), abs=1e-12)
        if 52 in kept:  # a joker held: never nothing
            assert throws.hand_zero[i] == 0.0
        assert throws.hand_need[i] == pytest.approx(np.mean(np.array(shows) >= 12), abs=1e-12)


@settings(max_examples=25, deadline=None)
@given(st.permutations(range(52)), st.integers(1, 2), st.integers(0, 3), st.booleans())
def test_a_hand_of_three_with_jokers_is_the_best_of_every_card_they_may_be(
    perm: list[int], jokers: int, at: int, cut_too: bool
) -> None:
    """The old five-card game's show of three cards and the starter (``score --game
    five-card --jokers N``): the total is the plain twin's best over every card each
    joker may be (nobs once a hand), and the cards the show says the jokers were score
    it."""
    from tests.naive import naive_score, naive_wild_score

    cards = list(perm[:4])
    cards[at] = 52
    if jokers == 2:
        cards[(at + 1) % 4 if cut_too else (at + 2) % 4] = 53
    hand, starter = cards[:3], cards[3]
    text = " ".join("JK" if c >= 52 else ca.format_cards([c]) for c in hand)
    cut = "JK" if starter >= 52 else ca.format_cards([starter])
    shown = ca.count_show(text, cut, game="five-card", jokers=jokers)
    assert shown.total == naive_wild_score(hand, starter)
    counted = [*shown.hand, shown.starter]
    assert naive_score(counted[:3], counted[3]) == shown.total


def test_a_hand_of_three_with_jokers_on_the_command_line() -> None:
    nobs = ca.count_show("JS JK 2S", "3S", game="five-card", jokers=1)  # a second JS:
    assert nobs.total == 11 and nobs.breakdown()["nobs"] == 1  # nobs once a hand
    result = CliRunner().invoke(
        cli, ["score", "5H", "5D", "JK", "--starter", "5C", "--game", "five-card", "--jokers", "1"]
    )
    assert result.exit_code == 0, result.output
    assert "total     20" in result.output and "counted as 5C" in result.output
    wrong = CliRunner().invoke(
        cli, ["score", "5H", "5D", "JK", "4C", "--starter", "5C", "--game", "five-card",
              "--jokers", "1"],
    )  # fmt: skip
    assert wrong.exit_code == 2 and "expected three cards and the starter" in wrong.output
