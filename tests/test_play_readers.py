"""One reading of a written play: every play of many random deals, written as players
write it, read back the same by each reader.

A deal is played by :func:`tests.naive.naive_play` (the rules twin, random legal cards)
and written three ways: every go said (a count closed by both players' go's written
"go go"), only the first go of a count (the usual way: "the pone's go at 29 closes the
count when the dealer cannot lay either"), and no go at all (with both hands known,
each go is implied). Each is read by ``score_play`` (with and without the hands, where
the writing allows it) and must give the twin's points; and cut after every card, by
the play advice's reader (:func:`crib_analyze.play.advice.play_for`) asked by the
player the twin says lays next, it must give that player the turn at the twin's count.

Mutations tried: the turn left with a player out of cards after the other's go (the
reader of issue 31 found it), a second written go refused, the opponent's implied go
not read by the advice: each fails here.
"""

from __future__ import annotations

import random

import pytest

from crib_analyze import score_play
from crib_analyze.cards import format_card
from crib_analyze.play.advice import play_for
from crib_analyze.play.sequence import score_sequence
from tests.conftest import scaled
from tests.naive import _Decision, _replay, naive_play, value

DEALS = scaled(3000, 300)


def written(pone: list[int], dealer: list[int], cards: list[int], style: str) -> list[str]:
    """The play of ``cards`` (in the order laid) as a player writes it: the cards, and
    the go's of ``style`` ("every", "first" or "none"), by the rules text."""
    hands = [list(pone), list(dealer)]
    out: list[str] = []
    count, turn, said, last = 0, 0, [False, False], -1
    it = iter(cards)
    while hands[0] or hands[1]:
        legal = [c for c in hands[turn] if count + value(c) <= 31]
        if not legal:
            if hands[turn] and not said[turn]:  # a player with cards says go
                first = not said[1 - turn]
                if style == "every" or (style == "first" and first):
                    out.append("go")
            said[turn] = True
            other = 1 - turn
            if said[other] or not [c for c in hands[other] if count + value(c) <= 31]:
                if hands[other] and not said[other] and style == "every":
                    out.append("go")  # the other's go that closes the count
                count, said = 0, [False, False]
                turn = 1 - last if hands[1 - last] else last
                continue
            turn = other
            continue
        card = next(it)
        assert card in legal
        hands[turn].remove(card)
        out.append(format_card(card))
        count += value(card)
        last = turn
        if count == 31:
            count, said = 0, [False, False]
            turn = 1 - turn if hands[1 - turn] else turn
            continue
        if not said[1 - turn]:
            turn = 1 - turn
    return out


def random_deal(rng: random.Random) -> tuple[list[int], list[int], list[int], list[int]]:
    """(pone, dealer, cards in the order laid, each player's points) of a random play."""
    deck = rng.sample(range(52), 8)
    pone, dealer = deck[:4], deck[4:]
    events = naive_play(pone, dealer, lambda player, legal, history: rng.choice(legal))
    points = [0, 0]
    for player, _, _, pts, _ in events:
        points[player] += pts
    return pone, dealer, [card for _, card, _, _, _ in events], points


def text(cards: list[int]) -> str:
    return " ".join(format_card(c) for c in cards)


@pytest.mark.slow
def test_every_writing_of_random_plays_reads_the_same() -> None:
    rng = random.Random(31)
    asked = 0
    for deal in range(DEALS):
        pone, dealer, cards, points = random_deal(rng)
        for style in ("every", "first", "none"):
            record = written(pone, dealer, cards, style)
            where = (deal, style, " ".join(record), text(pone), text(dealer))
            both = score_play(record, text(pone), text(dealer)).attrs["totals"]
            assert [both["pone"], both["dealer"]] == points, where
            if style != "none":  # without the hands a go must be written to be known
                alone = score_play(record).attrs["totals"]
                assert [alone["pone"], alone["dealer"]] == points, where
            events = naive_play(pone, dealer, _laid(cards))
            for k in range(len(cards)):  # asked after each card by the one who lays next
                decision, _ = _replay(pone, dealer, cards[:k])
                assert isinstance(decision, _Decision)
                prefix = _cut_after_cards(record, k)
                so_far = [sum(e[3] for e in events[:k] if e[0] == p) for p in (0, 1)]
                with_hands = score_sequence(prefix, text(pone), text(dealer))
                assert with_hands.turn == decision.player, (*where, k, prefix)
                assert with_hands.totals == dict(zip(("pone", "dealer"), so_far, strict=True)), (
                    where
                )
                if style == "none":
                    continue  # the advice reads its own hand only: go's must be written
                play = play_for(prefix, decision.player)
                assert play.turn == decision.player, (*where, k, prefix)
                if style == "every":  # every go written: the points so far, as they fell
                    assert play.totals == dict(zip(("pone", "dealer"), so_far, strict=True)), where
                asked += 1
    assert asked > DEALS


def _laid(cards: list[int]):  # type: ignore[no-untyped-def]
    """A chooser for naive_play that lays ``cards`` in order."""
    it = iter(cards)
    return lambda player, legal, history: next(it)


def _cut_after_cards(record: list[str], k: int) -> list[str]:
    """``record`` up to its ``k``-th card, with the go's written after that card (the
    player asked has heard them)."""
    out: list[str] = []
    seen = 0
    for token in record:
        if token != "go":
            if seen == k:
                break
            seen += 1
        out.append(token)
    return out


@pytest.mark.parametrize(
    ("played", "asker", "count", "points"),
    [
        # the pone has laid all four after the dealer's go: the pone takes the go, the
        # dealer leads next (the turn was left with the pone)
        ("3C TD KD go 4C 3S", 1, 0, {"pone": 1, "dealer": 0}),
        # the pone's go at 29 closes the count when the dealer cannot lay either
        ("KH QD 5S 4C go", 0, 0, {"pone": 0, "dealer": 1}),
        # the pone, out of cards, says nothing: the dealer leads
        ("9S KD 8C go 2D AH", 1, 0, {"pone": 1, "dealer": 0}),
    ],
)
def test_the_three_records_of_issue_31(
    played: str, asker: int, count: int, points: dict[str, int]
) -> None:
    play = play_for(played, asker)
    assert (play.turn, play.count) == (asker, count)
    assert play.totals == points
