"""The readings the rules leave open, one test each (docs/variants.md, "Readings the
rules leave open"): nobs with jokers, a joker cut as the starter, and who plays which
part when the crib is bought in the auction (issue 36, item 6)."""

from __future__ import annotations

import crib_analyze as ca
from crib_analyze.cards import parse_cards
from crib_analyze.scoring.show_kernels import score_show


def test_nobs_counts_once_a_hand_even_when_a_joker_repeats_the_jack() -> None:
    """Two jokers may both be counted as the jack of the starter's suit (a joker may
    repeat a card in play); nobs is still one point a hand. JH JH 2C 9S + 5H: two
    fifteens (each jack with the 5) 4, the pair of jacks 2, nobs 1 (not 2): 7."""
    jack, two, nine, five = parse_cards("JH 2C 9S 5H")
    assert score_show(jack, jack, two, nine, five, False) == 7
    # the same hand with the jacks of another suit: no nobs, 6
    spade = parse_cards("JS")[0]
    assert score_show(spade, spade, two, nine, five, False) == 6


def test_a_joker_cut_gives_heels_and_each_hand_counts_it_at_its_own_best() -> None:
    fives = ca.count_show("5C 5D 5S JD", "JK", jokers=1)  # the cut joker as the fourth five: 29
    low = ca.count_show("2C 3D 4S 9D", "JK", jokers=1)  # the same cut joker, another card
    assert (fives.total, fives.heels, low.heels) == (29, 2, 2)
    assert fives.wild[0][0] == low.wild[0][0] == 4  # the starter's place
    assert fives.wild[0][1] != low.wild[0][1]  # each hand its own card for the one joker


def test_the_crib_s_buyer_plays_the_dealer_s_part() -> None:
    """The auction's owner row is the dealer's best throw (it lays second, the other
    leads and counts first); the other row is the pone's."""
    hand = "5H 6S 4D JC QH 5C"
    frame = ca.auction(hand).set_index("part")
    dealer = ca.analyze(hand, role="dealer").iloc[0]
    pone = ca.analyze(hand, role="pone").iloc[0]
    assert (
        frame.loc["owner", "total"] == dealer.total
        and frame.loc["owner", "discard"] == dealer.discard
    )
    assert (
        frame.loc["other", "total"] == pone.total and frame.loc["other", "discard"] == pone.discard
    )
    assert abs(frame.loc["owner", "break_even"] - (dealer.total - pone.total) / 2) < 1e-12
