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
