"""The throw that wins: a hand's 15 throws valued by how the game ends from a position.

For each throw the deal is simulated jointly (the opponent's six cards drawn from the
unseen and thrown as the expert would with those cards, the starter shared, the play by the default
policy, both shows and the crib, in the order they score), on common random numbers
across the throws; the board table values the position after the deal when nobody
has reached 121 during it. Each throw gets the probability of each game outcome, the
chance of winning and the expected match points, with standard errors (of the value,
and of its difference from the best throw, which common random numbers make smaller).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze.board import throw_kernels as thk
from crib_analyze.board.board_table import (
    BOARD_POLICY,
    BoardTable,
    check_score,
    load_board,
    scoring_points,
    throw_arrays,
)
from crib_analyze.board.deal_kernels import EXPERT
from crib_analyze.defaults import (
    DEFAULT_POSITION_SAMPLES,
    DEFAULT_SCORING,
    ROLES,
    SKUNK_LINES,
    TARGET,
    check_choice,
)
from crib_analyze.errors import UsageError
from crib_analyze.expert_model import ExpertModel, load_model
from crib_analyze.play.matches import kept_rank_weights, policy_code
from crib_analyze.score_kernels import rank_table

MAX_POSITION_SAMPLES = 200_000


@dataclass(frozen=True)
class PositionThrows:
    """Per throw (``DISCARDS`` order) of one hand from one position."""

    role: str
    score: tuple[int, int]  # (mine, theirs) before this deal
    outcomes: np.ndarray  # (15, 8) probability of each outcome (board_table.OUTCOMES)
    p_win: np.ndarray  # (15,)
    p_win_se: np.ndarray  # (15,) standard error of p_win
    p_win_diff_se: np.ndarray  # (15,) standard error of p_win minus the best throw's
    match_points: np.ndarray  # (15,) expected match points, mine minus theirs
    match_se: np.ndarray  # (15,)
    match_diff_se: np.ndarray  # (15,)
    scoring: str
    samples: int
    seed: int


def check_position_samples(samples: int, seed: int) -> None:
    if isinstance(samples, bool) or not isinstance(samples, int | np.integer):
        raise UsageError(f"samples must be a whole number, got {samples!r}")
    if not 2 <= samples <= MAX_POSITION_SAMPLES:
        raise UsageError(f"samples must be 2-{MAX_POSITION_SAMPLES:,}, got {samples:,}")
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer) or seed < 0:
        raise UsageError(f"seed must be a whole number >= 0, got {seed!r}")


def position_throws(
    hand6: np.ndarray,
    role: str,
    score: tuple[int, int],
    scoring: str = DEFAULT_SCORING,
    samples: int = DEFAULT_POSITION_SAMPLES,
    seed: int = 0,
    model: ExpertModel | None = None,
    board: BoardTable | None = None,
) -> PositionThrows:
    """Value the 15 throws of ``hand6`` (six card ids) for ``role`` at ``score``
    (mine, theirs), by simulating ``samples`` deals shared by all throws."""
    check_choice("role", role, ROLES)
    mine = check_score("my score", score[0])
    theirs = check_score("the opponent's score", score[1])
    points = scoring_points(scoring)
    check_position_samples(samples, seed)
    m = model or load_model()
    table = board or load_board()
    code = policy_code(BOARD_POLICY)
    outcomes = thk.position_outcomes(
        np.asarray(hand6, np.int64), 1 if role == "dealer" else 0, mine, theirs, samples,
        seed, EXPERT, *throw_arrays(m).args(), np.array([code, code], np.int64),
        kept_rank_weights(m), 16, rank_table(),
        np.ascontiguousarray(table.values, np.float64), TARGET,
        np.array(SKUNK_LINES, np.int64),
    )  # fmt: skip
    per_sample = np.asarray(outcomes)
    win = per_sample[..., :4].sum(axis=-1)  # (n, 15)
    match = per_sample @ points
    p_win, p_win_se, p_win_diff_se = _mean_se(win)
    mp, mp_se, mp_diff_se = _mean_se(match)
    return PositionThrows(
        role=role,
        score=(mine, theirs),
        outcomes=per_sample.mean(axis=0),
        p_win=p_win,
        p_win_se=p_win_se,
        p_win_diff_se=p_win_diff_se,
        match_points=mp,
        match_se=mp_se,
        match_diff_se=mp_diff_se,
        scoring=scoring,
        samples=samples,
        seed=seed,
    )


def _mean_se(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per column of (n, 15): the mean, its standard error, and the standard error of
    its difference from the best column (paired over the shared samples)."""
    n = x.shape[0]
    mean = x.mean(axis=0)
    se = x.std(axis=0, ddof=1) / np.sqrt(n)
    best = int(np.argmax(mean))
    diff_se = (x - x[:, [best]]).std(axis=0, ddof=1) / np.sqrt(n)
    return mean, se, diff_se
