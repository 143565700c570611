"""The public API of the show: count four cards and the starter, as a player does (or
three, in five-card cribbage)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from crib_analyze.cards import CardLike, CardsLike
from crib_analyze.errors import UsageError
from crib_analyze.rules import Rules
from crib_analyze.rules import game as rules_game
from crib_analyze.scoring.show import Breakdown, Show, score_breakdown, score_hand
from crib_analyze.scoring.show import count_show as _count_show
from crib_analyze.settings import SEED

if TYPE_CHECKING:
    from crib_analyze.scoring.counting import CountingTrainer
    from crib_analyze.scoring.jokers import JokerShow

__all__ = [
    "Breakdown", "Show", "count_jokers", "count_show", "score_breakdown", "score_hand",
    "start_counting",
]  # fmt: skip


def count_show(
    cards: CardsLike,
    starter: CardLike | None = None,
    crib: bool = False,
    game: str = "standard",
    jokers: int = 0,
) -> Show:
    """Every scoring combination of a show, in the order a player announces them:
    ``cards`` the hand and ``starter`` the cut, or the hand with the starter last. In
    ``game`` "five-card" a hand is three cards. With ``jokers`` (1 or 2 in the pack),
    each ``JK`` is counted as the card that scores most (:func:`count_jokers` says
    which).

    >>> count_show("5H 5C 5S JD", "5D").total
    29
    >>> count_show("2H 7H 9H KH", game="five-card").breakdown()["flush"]
    4
    """
    size = rules_game(game).hand_size
    if jokers:
        if size != 4 and not crib:
            raise UsageError("jokers are counted in four-card hands")
        return count_jokers(cards, starter, crib, jokers).show
    return _count_show(cards, starter, crib, 4 if crib else size)


def count_jokers(
    cards: CardsLike,
    starter: CardLike | None = None,
    crib: bool = False,
    jokers: int = 1,
    game: str | Rules = "standard",
) -> JokerShow:
    """A show with jokers: each ``JK`` counted as the card that scores most (it may repeat
    a card in play); ``wild`` says which card each joker counts as. Jokers are played in
    the standard game (``game`` refuses the others).

    >>> j = count_jokers("5H 5C 5S 5D", "JK")
    >>> j.show.total, j.wild, j.heels  # a fifth five: 40; the joker cut gives heels
    (40, ((4, 16),), 2)
    """
    from crib_analyze.api.capabilities import rules_of
    from crib_analyze.scoring.jokers import count_with_jokers

    if not rules_of(game).plain.is_standard:
        raise UsageError("`jokers` goes with the standard game's four-card hands")

    return count_with_jokers(cards, starter, crib, jokers)


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
