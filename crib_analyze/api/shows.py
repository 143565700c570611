"""The public API of the show: count four cards and the starter, as a player does (or
three, in five-card cribbage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crib_analyze.cards import CardLike, CardsLike
from crib_analyze.rules import Rules
from crib_analyze.rules import game as rules_game
from crib_analyze.scoring.show import Breakdown, Show, score_breakdown, score_hand
from crib_analyze.scoring.show import count_show as _count_show
from crib_analyze.settings import SEED

if TYPE_CHECKING:
    from crib_analyze.scoring.counting import CountingTrainer

__all__ = [
    "Breakdown", "Show", "count_show", "score_breakdown", "score_hand",
    "start_counting",
]  # fmt: skip


def count_show(
    cards: CardsLike,
    starter: CardLike | None = None,
    crib: bool = False,
    game: str | Rules = "standard",
    jokers: int = 0,
) -> Show:
    """Every scoring combination of a show, in the order a player announces them:
    ``cards`` the hand and ``starter`` the cut, or the hand with the starter last. In
    ``game`` "five-card" a hand is three cards. With ``jokers`` (1 or 2 in the pack),
    each ``JK`` is counted as the card that scores most (it may repeat a card in play),
    ``wild`` saying which; a cut joker gives the dealer heels, in every game (the old
    five-card game's hand of three too).

    >>> count_show("5H 5C 5S JD", "5D").total
    29
    >>> j = count_show("5H 5C 5S 5D", "JK", jokers=1)
    >>> j.total, j.wild, j.heels  # a fifth five: 40; the joker cut gives heels
    (40, ((4, 16),), 2)
    >>> count_show("2H 7H 9H KH", game="five-card").breakdown()["flush"]
    4
    """
    from crib_analyze.api.capabilities import rules_of

    rules = rules_of(game)
    size = rules.hand_size
    if jokers:
        from crib_analyze.scoring.jokers import count_with_jokers

        return count_with_jokers(cards, starter, crib, jokers, 4 if crib else size)
    return _count_show(cards, starter, crib, 4 if crib else size)


def start_counting(seed: int, crib: bool = False, game: str = "standard") -> CountingTrainer:
    """A counting trainer with muggins: ``deal()`` a hand and a starter (from ``seed``),
    ``grade(deal, answer)`` a claim: a number, or the combinations as comma-separated
    groups of cards. Points missed go to the opponent (``muggins``) and are listed.
    ``crib`` counts cribs; ``game`` "five-card" counts three-card hands.

    >>> trainer = start_counting(seed=1)
    >>> deal = trainer.deal()
    >>> grade = trainer.grade(deal, "0")
    >>> grade.muggins == deal.show.total
    True
    """
    from crib_analyze.scoring.counting import start_counting as start

    SEED.check(seed)
    rules_game(game)  # a known game
    return start(seed, crib, game)
