"""The pegging quiz: a position of the play (your cards, the starter, your throw, the
play so far), your card graded by the play advice (the solver by default), with the
reasons of :mod:`crib_analyze.play.card_reasons`.

A position is dealt from one seeded stream: each player four cards, your two thrown
cards, the starter; the play is played from the start by the greedy policy for both
(:mod:`crib_analyze.play.table_play_kernels`) and stopped at a random turn of yours
where at least two of your cards fit.

>>> quiz = PlayQuiz(seed=2, role="pone", policy="lookahead", samples=50)
>>> position = quiz.deal()
>>> grade = quiz.grade(position, position.legal[0])
>>> grade.loss >= 0, quiz.tally.hands
(True, 1)
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crib_analyze.cards import CardLike, format_card, parse_card, value_of
from crib_analyze.errors import CardError, UsageError
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.play.advice import Advice, advise
from crib_analyze.play.sequence import GO, PLAYERS, PlayError, score_sequence
from crib_analyze.rules import MAX_COUNT
from crib_analyze.settings import PLAY_SAMPLES, QUIZ_ROLES, check_choice
from crib_analyze.tally import Tally


@dataclass(frozen=True)
class PlayPosition:
    """One quiz position: whose, the cards you hold, what fits, the starter, your throw,
    the play so far as a player writes it (cards in order, each go said as GO), the count."""

    number: int
    role: str
    hand: tuple[int, ...]
    legal: tuple[int, ...]
    starter: int
    discards: tuple[int, ...]
    played: tuple[int, ...]
    count: int

    @property
    def played_text(self) -> str:
        return " ".join("go" if c == GO else format_card(c) for c in self.played)


@dataclass(frozen=True)
class PlayGrade:
    """How a card did: pegging lost against the best card, the best, the advice."""

    role: str
    card: str
    best: str
    loss: float
    is_best: bool
    advice: Advice  # the play advice: each card's value, best first, and the reasons


@dataclass
class PlayQuiz:
    """Deals positions of ``role`` ("dealer", "pone" or "random") and grades cards by
    the play advice of ``policy``."""

    seed: int | None = None
    role: str = "random"
    policy: str = "solver"
    samples: int = PLAY_SAMPLES.default
    model: Any = None  # an ExpertModel, or None for the packaged one
    tally: Tally = field(default_factory=Tally)
    _dealt: int = 0

    def __post_init__(self) -> None:
        check_choice("role", self.role, QUIZ_ROLES)
        PLAY_SAMPLES.check(self.samples)
        self._rng = random.Random(self.seed)

    def deal(self) -> PlayPosition:
        """The next position: a random turn of yours where two or more cards fit."""
        while True:
            self._dealt += 1
            role = self.role if self.role != "random" else self._rng.choice(PLAYERS)
            me = PLAYERS.index(role)
            deck = self._rng.sample(range(52), 11)
            hands = np.array([deck[0:4], deck[4:8]], np.int64)
            mine = [int(c) for c in hands[me]]
            thrown, starter = tuple(deck[8:10]), deck[10]
            record = np.zeros((8, 5), np.int64)
            policies = np.full(2, tk.GREEDY, np.int64)
            tk.play_table(
                hands.copy(),
                starter,
                policies,
                np.array([0, 1]),
                False,
                record,
                0,
                np.zeros(1, np.uint64),
            )
            turns = []
            for j in range(8):
                seat, card, after = (int(x) for x in record[j, :3])
                if seat != me:
                    continue
                count = after - value_of(card)
                held = [c for c in mine if c not in record[:j, 1].tolist()]
                fits = [c for c in held if count + value_of(c) <= MAX_COUNT]
                if len(fits) >= 2:
                    turns.append((j, held, fits, count))
            if not turns:
                continue
            j, held, fits, count = self._rng.choice(turns)
            played = _as_written([int(c) for c in record[: j + 1, 1]], hands, me, count)
            if played is None:  # not reached: the parser reads every real play
                continue
            return PlayPosition(
                number=self._dealt, role=role, hand=tuple(held), legal=tuple(fits),
                starter=starter, discards=thrown, played=played, count=count,
            )  # fmt: skip

    def parse_card(self, position: PlayPosition, text: str) -> int:
        """The card typed, checked: one of yours that fits (a one-line CardError)."""
        card = parse_card(text)
        if card not in position.hand:
            raise CardError(f"{format_card(card)} is not in your hand")
        if card not in position.legal:
            raise CardError(f"{format_card(card)} passes 31 at {position.count}")
        return card

    def advice(self, position: PlayPosition) -> Advice:
        """The play advice for the position (best first, with the reasons)."""
        return advise(
            position.role, list(position.hand), position.starter, list(position.discards),
            list(position.played), self.policy, self.samples, 0, self.model,
        )  # fmt: skip

    def grade(self, position: PlayPosition, card: CardLike) -> PlayGrade:
        """Grade a card against the advice and add it to the tally."""
        chosen = parse_card(card)
        if chosen not in position.legal:
            raise UsageError(f"{format_card(chosen)} is not a card you can lay here")
        graded = self._graded(position, chosen)
        self.tally.add(graded.loss, graded.is_best)
        return graded

    def reveal(self, position: PlayPosition) -> PlayGrade:
        """The player asked for the answer: the best card's grade (the advice with it),
        counted apart, not graded."""
        self.tally.revealed += 1
        return self._graded(position, None)

    def _graded(self, position: PlayPosition, chosen: int | None) -> PlayGrade:
        """``chosen`` (None: the advice's best card) against the advice."""
        advice = self.advice(position)
        values = dict(zip(advice.cards, advice.value.tolist(), strict=True))
        top = advice.cards[0]
        chosen = top if chosen is None else chosen
        loss = float(values[top] - values[chosen])
        return PlayGrade(
            position.role, format_card(chosen), format_card(top), loss, loss <= 1e-9, advice
        )


def _as_written(cards: list[int], hands: np.ndarray, me: int, count: int) -> tuple[int, ...] | None:
    """The play before your turn (``cards`` ends with the card you laid) as a player
    writes it: the cards, with the go's that were said (read from the play with both
    hands known), and the go's that end a round just before your turn. Checked by
    reading it back without the hands: your turn at ``count``; None if it is not."""
    pone, dealer = ([int(c) for c in h] for h in hands)
    known = score_sequence(cards, pone=pone, dealer=dealer)
    last = max(i for i, e in enumerate(known.events) if e.card >= 0)
    written = [e.card for e in known.events[:last]]
    for _ in range(3):  # at most your go and the opponent's end the round
        try:
            read = score_sequence(written)
        except PlayError:
            return None
        if read.turn == me and read.count == count:
            return tuple(written)
        written.append(GO)
    return None
