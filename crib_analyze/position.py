"""Seats, scores and the ways a game ends: the words every engine shares.

**Seats.** A deal has two seats, and every array with a seat axis is indexed by
:class:`Seat` in one order: ``Seat.PONE = 0`` (the pone leads the play and counts
first), ``Seat.DEALER = 1`` (owns the crib). A role is the seat's name, ``"pone"`` or
``"dealer"``; :func:`seat_of` turns one into the other.

**Scores.** A position on the board is (my score, the opponent's, who deals), each
score 0-120: :func:`check_score`, :func:`parse_score`.

**Outcomes.** A game ends in one of eight :class:`Outcome` values: a win or a loss,
plain or by a skunk, a double or a triple skunk (the loser under 91, 61, 31). Arrays
of outcome probabilities have the outcomes on their last axis in that order, and
:func:`p_win`, :func:`p_skunk` and friends sum the right entries (no magic slices).

>>> Seat.of("dealer"), Seat.PONE.role
(<Seat.DEALER: 1>, 'pone')
>>> parse_score("110-115")
(110, 115)
>>> import numpy as np
>>> v = np.zeros(8); v[Outcome.WIN_SKUNK] = 0.25; v[Outcome.LOSS] = 0.75
>>> float(p_win(v)), float(p_skunk(v)), float(p_skunked(v))
(0.25, 0.25, 0.0)
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import Any, cast

import numpy as np

from crib_analyze.constants import DEALER_SEAT, PONE_SEAT, TARGET
from crib_analyze.errors import UsageError
from crib_analyze.rules import skunk_lines
from crib_analyze.settings import SCORINGS, Role, check_choice


class Seat(IntEnum):
    """The two seats of a deal, in the one order of every seat axis."""

    PONE = PONE_SEAT
    DEALER = DEALER_SEAT

    @property
    def role(self) -> Role:
        """The seat's name: ``"pone"`` or ``"dealer"``."""
        return "pone" if self is Seat.PONE else "dealer"

    @property
    def other(self) -> Seat:
        """The opponent's seat."""
        return Seat(1 - self)

    @classmethod
    def of(cls, role: str | Seat) -> Seat:
        """The seat of a role name (a one-line UsageError for anything else)."""
        if isinstance(role, Seat):
            return role
        check_choice("role", role, ("dealer", "pone"))
        return cls.DEALER if role == "dealer" else cls.PONE


def seat_of(role: str | Seat) -> Seat:
    """``Seat.of(role)``."""
    return Seat.of(role)


# --- scores ------------------------------------------------------------------------------


def check_score(what: str, score: object, target: int = TARGET) -> int:
    """A score on the board (0-120, or below another ``target``) as an int, or a
    one-line UsageError."""
    if isinstance(score, bool) or not isinstance(score, int | np.integer):
        raise UsageError(f"{what} must be a whole number, got {score!r}")
    if not 0 <= score < target:
        raise UsageError(f"{what} must be 0-{target - 1} (the game ends at {target}), got {score}")
    return int(score)


def score_words(text: str) -> list[str]:
    """The numbers of a score written ``MINE-THEIRS``, ``MINE THEIRS`` or ``MINE,THEIRS``
    (any number of them: one per side in games of more sides).

    >>> score_words("110-115"), score_words("110 100, 95")
    (['110', '115'], ['110', '100', '95'])
    """
    return re.split(r"\s*[\s,-]\s*", text.strip())


def parse_score(score: str | tuple[int, int] | list[int]) -> tuple[int, int]:
    """(mine, theirs) from a pair or text like '110-115' or '110 115' (each 0-120, ASCII
    digits).

    >>> parse_score(" 0 - 7 "), parse_score("110 115")
    ((0, 7), (110, 115))
    """
    if isinstance(score, str):
        parts = score_words(score)
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() for p in parts):
            raise UsageError(f"a score is MINE-THEIRS or MINE THEIRS, e.g. 110-115, got {score!r}")
        pair: tuple[Any, Any] = (int(parts[0]), int(parts[1]))
    else:
        try:
            mine, theirs = score
        except (TypeError, ValueError):
            raise UsageError(f"a score is (mine, theirs), got {score!r}") from None
        pair = (mine, theirs)
    return check_score("my score", pair[0]), check_score("the opponent's score", pair[1])


def parse_scores(
    score: str | tuple[int, ...] | list[int], sides: int, target: int = TARGET
) -> tuple[int, ...]:
    """One score per side, your side's first, from a tuple or text like '100-110-95'
    (each below ``target``): :func:`parse_score` for two sides.

    >>> parse_scores("100 110 95", 3), parse_scores((0, 7), 2)
    ((100, 110, 95), (0, 7))
    """
    if sides == 2 and target == TARGET:
        return parse_score(cast(Any, score))
    if isinstance(score, str):
        parts = score_words(score)
        if not all(p.isascii() and p.isdigit() for p in parts):
            raise UsageError(f"a score is one number per side, e.g. 100-110-95, got {score!r}")
        numbers: list[Any] = [int(p) for p in parts]
    else:
        try:
            numbers = list(score)
        except TypeError:
            raise UsageError(f"a score is one number per side, got {score!r}") from None
    if len(numbers) != sides:
        raise UsageError(
            f"a score here is {sides} numbers, one per side (yours first), got {len(numbers)}"
        )
    others = (
        ["the other side's score"]
        if sides == 2
        else [f"the score of side {i + 2}" for i in range(sides - 1)]
    )
    names = ["my side's score", *others]
    return tuple(check_score(n, s, target) for n, s in zip(names, numbers, strict=True))


# --- how a game ends --------------------------------------------------------------------------


class Outcome(IntEnum):
    """How a game ends, from one player's side: the index on an outcome axis."""

    WIN = 0
    WIN_SKUNK = 1  # the loser under 91
    WIN_DOUBLE = 2  # under 61
    WIN_TRIPLE = 3  # under 31
    LOSS = 4
    LOSS_SKUNK = 5
    LOSS_DOUBLE = 6
    LOSS_TRIPLE = 7


N_OUTCOMES = len(Outcome)
#: outcome names in axis order (as stored in files and shown in JSON)
OUTCOMES = tuple(o.name.lower() for o in Outcome)


def _sum(v: np.ndarray, first: Outcome, last: Outcome) -> np.ndarray:
    return np.asarray(np.asarray(v)[..., first : last + 1].sum(axis=-1))


def p_win(v: np.ndarray) -> np.ndarray:
    """P(win) of outcome probabilities ``v`` (..., 8)."""
    return _sum(v, Outcome.WIN, Outcome.WIN_TRIPLE)


def p_skunk(v: np.ndarray) -> np.ndarray:
    """P(win by a skunk or more)."""
    return _sum(v, Outcome.WIN_SKUNK, Outcome.WIN_TRIPLE)


def p_double_skunk(v: np.ndarray) -> np.ndarray:
    """P(win by a double skunk or more)."""
    return _sum(v, Outcome.WIN_DOUBLE, Outcome.WIN_TRIPLE)


def p_triple_skunk(v: np.ndarray) -> np.ndarray:
    """P(win by a triple skunk)."""
    return np.asarray(np.asarray(v)[..., Outcome.WIN_TRIPLE])


def p_skunked(v: np.ndarray) -> np.ndarray:
    """P(lose by a skunk or more)."""
    return _sum(v, Outcome.LOSS_SKUNK, Outcome.LOSS_TRIPLE)


def p_double_skunked(v: np.ndarray) -> np.ndarray:
    """P(lose by a double skunk or more)."""
    return _sum(v, Outcome.LOSS_DOUBLE, Outcome.LOSS_TRIPLE)


def p_triple_skunked(v: np.ndarray) -> np.ndarray:
    """P(lose by a triple skunk)."""
    return np.asarray(np.asarray(v)[..., Outcome.LOSS_TRIPLE])


def scoring_points(scoring: str) -> np.ndarray:
    """(8,) match points of each outcome, from my side: what I win, minus what I lose.

    >>> scoring_points("tournament").tolist()
    [2.0, 3.0, 3.0, 3.0, -2.0, -3.0, -3.0, -3.0]
    """
    check_choice("scoring", scoring, tuple(SCORINGS))
    pts = np.array(SCORINGS[scoring], np.float64)  # type: ignore[index]
    return np.concatenate([pts, -pts])


def game_points(loser_score: int, scoring: str, target: int = TARGET) -> int:
    """The match points a game to ``target`` is worth to its winner, by the loser's
    score (the lines of :func:`skunk_lines`).

    >>> game_points(95, "tournament"), game_points(80, "tournament"), game_points(50, "lurch")
    (2, 3, 2)
    >>> game_points(45, "tournament", target=61), game_points(30, "lurch", target=61)
    (3, 2)
    """
    check_choice("scoring", scoring, tuple(SCORINGS))
    check_score("the loser's score", loser_score, target)
    band = sum(loser_score < line for line in skunk_lines(target))  # 0 none .. 3 triple
    return SCORINGS[scoring][band]  # type: ignore[index]


def outcome_weights(goal: str, scoring: str) -> np.ndarray:
    """(8,) the value of each outcome when ranking by ``goal`` ('win' or 'match')."""
    check_choice("goal", goal, ("win", "match"))
    if goal == "win":
        return np.array([1.0] * 4 + [0.0] * 4)
    return scoring_points(scoring)
