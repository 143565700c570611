"""The answer in words: for each role, the throw to make, the keep, and the margin over
the next throw worth something different (an equal throw, such as the same ranks in
other suits, is not a runner-up). From a score, the throw for the game, and the throw
that scores more points when that is another.

Built from the ranking's own values (:mod:`crib_analyze.discard.ranking`); nothing here
is canned text about cribbage.

>>> import numpy as np
>>> value = np.array([3.0, 5.0, 5.0, 1.0])
>>> names = ["AC 2C", "3C 4C", "3D 4D", "5C 6C"]
>>> keeps = ["x", "y", "y'", "z"]
>>> points_verdict("dealer", value, names, keeps, np.ones(4, bool), lowball=False)
('as dealer: throw 3C 4C, keep y: 2.00 points better than AC 2C', 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from crib_analyze.discard.engine import rank_order
from crib_analyze.settings import NEAR_TIE_POINTS, POSITION_FROM

SAME = 1e-9  # values closer than this are the same throw's worth


def best_and_next(value: np.ndarray, legal: np.ndarray) -> tuple[int, int | None]:
    """The best row by ``value`` (largest) among ``legal``, and the first row after it
    worth less (None: every legal row is worth the same)."""
    rows = np.flatnonzero(legal)
    order = [int(rows[i]) for i in rank_order([value[rows]])]
    best = order[0]
    runner = next((i for i in order[1:] if value[i] < value[best] - SAME), None)
    return best, runner


def points_verdict(
    role: str,
    value: np.ndarray,
    discards: Sequence[str],
    keeps: Sequence[str],
    legal: np.ndarray,
    lowball: bool,
) -> tuple[str, int]:
    """(the verdict, the row it names): "as dealer: throw JC QH, keep 5H 6S 4D 5C: 4.84
    points better than 5H QH". ``value`` is the role's ranking value (the total with the
    play, else the net; negated in lowball, where the margin is in fewer points)."""
    best, runner = best_and_next(value, legal)
    head = f"as {role}: throw {discards[best]}, keep {keeps[best]}"
    if runner is None:
        if legal.sum() == 1:
            return f"{head} (the only throw allowed)", best
        return f"{head} (every throw allowed is worth the same)", best
    margin = value[best] - value[runner]
    word = "fewer" if lowball else "better"
    size = f"{margin:.2f}" if margin >= 0.005 else f"{margin:.3f}"
    near = " (a near tie)" if margin <= NEAR_TIE_POINTS else ""
    return f"{head}: {size} points {word} than {discards[runner]}{near}", best


def goal_verdict(
    role: str,
    score: tuple[int, int],
    goal: str,
    by_goal: np.ndarray,
    points: np.ndarray,
    discards: Sequence[str],
    keeps: Sequence[str],
    legal: np.ndarray,
    play: str = "",
) -> tuple[str, int]:
    """(the verdict, the row it names): "at 110-115 as dealer: throw 6S 4D, keep 5H JC QH
    5C for the chance of winning (20.1%, 2.7 percentage points more than 6S JC); JC QH scores more
    points (23.53 against 17.37)". ``by_goal`` the chance of winning or the match
    points, ``points`` the points ranking's value; ``play`` how the score's deals
    counted the play (when not by the pegging table, and both scores are under the
    position player's 61, where the score changes little, the verdict says so beside
    a points favourite it passes over: the two counts of the play differ)."""
    best, runner = best_and_next(by_goal, legal)
    what = "the chance of winning" if goal == "win" else "match points"
    head = f"at {score[0]}-{score[1]} as {role}: throw {discards[best]}, keep {keeps[best]}"
    head += f" for {what}"
    worth = f"{100 * by_goal[best]:.1f}%" if goal == "win" else f"{by_goal[best]:+.3f}"
    if runner is not None:
        margin = by_goal[best] - by_goal[runner]
        size = f"{100 * margin:.1f} percentage points" if goal == "win" else f"{margin:.3f}"
        head += f" ({worth}, {size} more than {discards[runner]})"
    else:
        head += f" ({worth})"
    top, _ = best_and_next(points, legal)
    if points[top] > points[best] + SAME:
        head += (
            f"; {discards[top]} scores more points ({points[top]:.2f} against {points[best]:.2f})"
        )
        if play and "pegging table" not in play and max(score) < POSITION_FROM.default:
            # far from the end the score changes little: the two counts of the play differ
            head += f", its play counted by the pegging table where the score's deals have {play}"
    return head, best
