"""The throw that wins: a hand's 15 throws valued by how the game ends from a position.

For each throw the deal is simulated jointly (the opponent's six cards drawn from the
unseen and thrown as the expert would with those cards, the starter shared, the play,
both shows and the crib, in the order they score), on common random numbers across the
throws. The play is drawn from the solver's pegging of the keep (the distribution of
the pegging table's deals of its cell, which gives the table's means: the same count of
the play as the points ranking), or, where the table ships without its distributions,
played by the quick policy; the board table values the position after the deal when nobody
has reached 121 during it. Each throw gets the probability of each game outcome, the
chance of winning and the expected match points, with standard errors (of the value,
and of its difference from the best throw, which common random numbers make smaller).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.board_table import BoardTable, load_board
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.board import position_kernels as thk
from crib_analyze.board.expert_throws import throw_arrays
from crib_analyze.board.throw_choice_kernels import EXPERT
from crib_analyze.play.matches import play_reader, policy_code
from crib_analyze.play.spread import NO_SPREAD, packaged_spread
from crib_analyze.position import Seat, check_score, p_win, scoring_points
from crib_analyze.rules import SKUNK_LINES, TARGET
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import (
    DEFAULT_SCORING,
    POSITION_SAMPLES,
    QUICK_PLAY_POLICY,
    SEARCH_SAMPLES,
    SEED,
)

POSITION_PART = 1000  # deals simulated per kernel call


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
@dataclass(frozen=True)
class PositionThrows:
    """A hand's 15 throws (``DISCARDS`` order) valued from one position on the board:
    how the game ends after each, from simulated deals on common random numbers."""

    role: str
    score: tuple[int, int]  # (mine, theirs) before this deal
    outcomes: np.ndarray  # (15, 8) probability of each Outcome
    p_win: np.ndarray  # (15,)
    p_win_se: np.ndarray  # (15,) standard error of p_win
    p_win_diff_se: np.ndarray  # (15,) standard error of p_win minus the best throw's
    match_points: np.ndarray  # (15,) expected match points, mine minus theirs
    match_se: np.ndarray  # (15,)
    match_diff_se: np.ndarray  # (15,)
    scoring: str
    samples: int
    seed: int
    play: str = ""  # how each deal's play was counted, in words


def position_throws(
    hand6: np.ndarray,
    role: str,
    score: tuple[int, int],
    scoring: str = DEFAULT_SCORING,
    samples: int = POSITION_SAMPLES.default,
    seed: int = 0,
    model: ExpertModel | None = None,
    board: BoardTable | None = None,
) -> PositionThrows:
    """Value the 15 throws of ``hand6`` (six card ids) for ``role`` at ``score``
    (mine, theirs), by simulating ``samples`` deals shared by all throws."""
    seat = Seat.of(role)
    mine = check_score("my score", score[0])
    theirs = check_score("the opponent's score", score[1])
    points = scoring_points(scoring)
    samples = POSITION_SAMPLES.check(samples)
    seed = SEED.check(seed)
    m = model or load_model()
    table = board or load_board()
    code = policy_code(QUICK_PLAY_POLICY)
    spread = packaged_spread()
    values = np.ascontiguousarray(table.values, np.float64)
    parts = []
    for first in range(0, samples, POSITION_PART):  # Ctrl-C is checked between parts
        interrupts.check()
        parts.append(thk.position_outcomes(
            np.asarray(hand6, np.int64), int(seat), mine, theirs, first,
            min(POSITION_PART, samples - first), seed, EXPERT, throw_arrays(m),
            np.array([code, code], np.int64), play_reader(m, reads=False), SEARCH_SAMPLES.default,
            spread or NO_SPREAD, rank_table(), values, TARGET, np.array(SKUNK_LINES, np.int64),
        ))  # fmt: skip
    per_sample = np.concatenate(parts)
    win, win_se, win_diff_se = _mean_se(p_win(per_sample))  # (n, 15) -> (15,)
    mp, mp_se, mp_diff_se = _mean_se(per_sample @ points)
    return PositionThrows(
        role=seat.role,
        score=(mine, theirs),
        outcomes=per_sample.mean(axis=0),
        p_win=win,
        p_win_se=win_se,
        p_win_diff_se=win_diff_se,
        match_points=mp,
        match_se=mp_se,
        match_diff_se=mp_diff_se,
        scoring=scoring,
        samples=samples,
        seed=seed,
        play=SPREAD_PLAY if spread is not None else f"the play by {QUICK_PLAY_POLICY}",
    )


SPREAD_PLAY = "the play drawn from the solver's pegging of each keep (the pegging table's deals)"


def _mean_se(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of (n, 15): the mean, its standard error, and the standard error of
    its difference from the best column (paired over the shared samples)."""
    n = x.shape[0]
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / np.sqrt(n)
    best = int(np.argmax(mean))
    diff_se = (x - x[:, [best]]).std(axis=0, ddof=1) / np.sqrt(n)
    return mean, se, diff_se
