"""A counting trainer with muggins: deal a hand and a starter, take the player's count,
and give the points they miss to the opponent.

The player claims either a number (their total) or the combinations they see: groups
of cards separated by commas, e.g. ``5H JD, 5C JD, 5H 5C``. Each group claims the
scoring combinations made of exactly those cards (a fifteen, a pair, a run, a flush,
nobs); a group of three or four of a rank claims all its pairs. Every combination of
the show (:func:`~crib_analyze.scoring.show.count_show`) not claimed is missed, and by
**muggins** the opponent scores it. With a number, the points below the true count go
to the opponent; the combinations are then shown but cannot be told apart.

Conventions where the rules leave a detail open: a claim above the true count is
corrected down to it, with no penalty (some play that the opponent takes the excess);
a group that scores nothing, or repeats a combination already claimed, gains nothing.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from crib_analyze.cards import format_cards, parse_cards, rank_of
from crib_analyze.errors import CardError
from crib_analyze.rules import game as rules_game
from crib_analyze.scoring.show import Combination, Show, count_show


@dataclass(frozen=True)
class CountDeal:
    """One hand to count: its number, the show (hand, starter, every combination)."""

    number: int
    show: Show


@dataclass(frozen=True)
class CountGrade:
    """How a claim went: the points claimed and scored, the combinations missed (the
    opponent's by muggins), groups that scored nothing, and an overclaim corrected."""

    claimed: int  # the player's claim as made (a number, or the sum of the groups)
    scored: int  # what the player pegs: the claim, corrected down to the true count
    total: int  # the true count
    missed: tuple[Combination, ...]  # empty when a number was claimed
    muggins: int  # points to the opponent
    wrong: tuple[str, ...] = ()  # groups that claimed nothing
    by_number: bool = False


@dataclass
class CountTally:
    hands: int = 0
    perfect: int = 0
    scored: int = 0
    muggins: int = 0


@dataclass
class CountingTrainer:
    """Deals from ``seed``; ``crib`` counts each hand as a crib; ``game`` "five-card"
    counts three-card hands."""

    seed: int
    crib: bool = False
    game: str = "standard"
    tally: CountTally = field(default_factory=CountTally)
    _rng: random.Random = field(init=False, repr=False)
    _dealt: int = field(default=0, init=False, repr=False)

    def __post_init__(self) -> None:
        self._rng = random.Random(self.seed)
        self.size = 4 if self.crib else rules_game(self.game).hand_size

    def deal(self) -> CountDeal:
        cards = self._rng.sample(range(52), self.size + 1)
        self._dealt += 1
        show = count_show(cards[: self.size], cards[self.size], self.crib, self.size)
        return CountDeal(self._dealt, show)

    def grade(self, deal: CountDeal, answer: str) -> CountGrade:
        """Grade a claim (a number, or comma-separated groups of cards); a CardError for
        cards that are not in the show."""
        show = deal.show
        total = show.total
        text = answer.strip()
        if text.isdigit() or (text.startswith("-") and text[1:].isdigit()):
            claimed = int(text)
            if claimed < 0:
                raise CardError("a count is 0 or more")
            scored = min(claimed, total)
            grade = CountGrade(claimed, scored, total, (), total - scored, by_number=True)
        else:
            grade = self._grade_groups(show, text)
        self.tally.hands += 1
        self.tally.perfect += grade.muggins == 0 and grade.claimed == total
        self.tally.scored += grade.scored
        self.tally.muggins += grade.muggins
        return grade

    def _grade_groups(self, show: Show, text: str) -> CountGrade:
        in_show = {*show.hand, show.starter}
        left = list(show.combinations)
        claimed_points = 0
        wrong: list[str] = []
        groups = [g for g in text.replace(";", ",").split(",") if g.strip()]
        if not groups:
            raise CardError("give your count, or the combinations as groups of cards")
        for group in groups:
            cards = parse_cards(group)
            stray = [c for c in cards if c not in in_show]
            if stray:
                raise CardError(f"{format_cards(stray)} is not in this show")
            wanted = set(cards)
            if len(wanted) != len(cards):
                raise CardError(f"{group.strip()}: a card twice in one group")
            same_rank = len({rank_of(c) for c in cards}) == 1 and len(cards) >= 3
            exact = [c for c in left if set(c.cards) == wanted][:1]
            if same_rank:  # its pairs; once they are claimed, what the cards make together
                hits = [c for c in left if c.kind == "pair" and set(c.cards) <= wanted] or exact
            else:  # one combination a group (list it twice for two kinds)
                hits = exact
            if not hits:
                wrong.append(group.strip())
            for c in hits:
                left.remove(c)
                claimed_points += c.points
        missed = tuple(left)
        muggins = sum(c.points for c in missed)
        return CountGrade(claimed_points, claimed_points, show.total, missed, muggins, tuple(wrong))


def start_counting(seed: int, crib: bool = False, game: str = "standard") -> CountingTrainer:
    """A counting trainer dealing from ``seed``."""
    return CountingTrainer(seed=seed, crib=crib, game=game)
