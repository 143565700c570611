"""A discard trainer: deal hands, grade the throws, keep the tally.

The quiz deals six cards and a role from one seeded stream, analyses the hand (all 15
throws, as :func:`crib_analyze.api.analyze_rows` does) and grades the player's throw
by the points it loses against the role's best. The command line (``crib-analyze
quiz``) only reads answers and prints.

>>> quiz = Quiz(seed=1, role="pone", opponent="random")
>>> deal = quiz.deal()
>>> grade = quiz.grade(deal, list(deal.hand[:2]))
>>> grade.loss >= 0, quiz.tally.hands
(True, 1)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from crib_analyze.cards import CardsLike, format_cards, parse_cards
from crib_analyze.discard.engine import ModelLike, analyze_hand, resolve_model
from crib_analyze.discard.ranking import discard_rows
from crib_analyze.discard.reasons import role_reasons
from crib_analyze.errors import CardError, UsageError
from crib_analyze.results import Rows
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    NEAR_TIE_POINTS,
    QUIZ_OPPONENTS,
    QUIZ_ROLES,
    ROLES,
    SEED,
    check_choice,
)
from crib_analyze.tally import Tally


@dataclass(frozen=True)
class Deal:
    """One quiz hand: six cards, the player's role and the analysis of its throws."""

    number: int
    hand: tuple[int, ...]
    role: str
    rows: Rows  # every throw, best first for the role


@dataclass(frozen=True)
class Grade:
    """How a throw did: points lost against the role's best, its rank, a near tie."""

    discard: str
    loss: float
    rank: int
    best: bool
    near_tie: bool
    why: tuple[str, ...] = ()  # why the best throw beats this one (empty when it is the best)


class Quiz:
    """Deals and grades; ``role`` is dealer, pone or random (a fresh choice each hand)."""

    def __init__(
        self,
        seed: int | None = None,
        role: str = "random",
        opponent: str = DEFAULT_OPPONENT,
        model: ModelLike = None,
    ) -> None:
        check_choice("role", role, QUIZ_ROLES)
        check_choice("opponent model", opponent, QUIZ_OPPONENTS)
        if model is not None and opponent != "expert":
            raise UsageError("`model` applies to `opponent` expert")
        if seed is not None:
            SEED.check(seed)
        self.rng = np.random.default_rng(seed)
        self.role = role
        self.opponent = opponent
        self.model = resolve_model(model) if opponent == "expert" else None
        self.tally = Tally()
        self.dealt = 0

    def deal(self) -> Deal:
        """The next hand: six cards and a role, analysed."""
        hand = tuple(int(c) for c in np.sort(self.rng.choice(52, 6, replace=False)))
        role = str(self.rng.choice(ROLES)) if self.role == "random" else self.role
        self.dealt += 1
        analysis = analyze_hand(hand, opponent=self.opponent, model=self.model)  # type: ignore[arg-type]
        return Deal(self.dealt, hand, role, discard_rows(analysis, role=role))

    def parse_throw(self, deal: Deal, answer: CardsLike) -> list[int]:
        """Two distinct cards of the hand, in any order and case (CardError if not)."""
        cards = parse_cards(answer)
        if len(cards) != 2:
            raise CardError(f"throw two cards, got {len(cards)}")
        missing = [c for c in cards if c not in deal.hand]
        if missing:
            verb = "is" if len(missing) == 1 else "are"
            raise CardError(f"{format_cards(missing)} {verb} not in your hand")
        return cards

    def grade(self, deal: Deal, throw: Sequence[int]) -> Grade:
        """Grade a throw (two of the hand's cards) and add it to the tally."""
        text = format_cards(c for c in deal.hand if c in throw)
        index = list(deal.rows["discard"]).index(text)
        loss = float(deal.rows["loss"][index])
        best = bool(deal.rows[f"{deal.role}_best"][index])
        top = int(np.flatnonzero(deal.rows[f"{deal.role}_best"])[0])
        why = () if best else tuple(role_reasons(deal.rows.columns, deal.role, top, index))
        grade = Grade(
            discard=text,
            loss=loss,
            rank=int(deal.rows["rank"][index]),
            best=best,
            near_tie=not best and loss <= NEAR_TIE_POINTS,
            why=why,
        )
        self.tally.add(loss, best)
        return grade

    def reveal(self, deal: Deal) -> None:
        """The player asked for the answer: counted apart, not graded."""
        self.tally.revealed += 1
