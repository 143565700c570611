"""What a review returns: one row per graded decision, and its typed metadata with its
words (how many deals and decisions it graded and what they lost in all: its
``verdict``, made from the numbers).

>>> ReviewMeta(deals=2, decisions=1, total_loss=0.5).total
'total lost: 0.50 points, over 1 decision in 2 deals'
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from crib_analyze.results import ResultMeta, with_meta
from crib_analyze.words import counted

if TYPE_CHECKING:
    from crib_analyze.game_review.grading import Decision


@dataclass(frozen=True, kw_only=True)
class ReviewMeta(ResultMeta):
    """A graded game: ``deals``, ``decisions``, the points lost in all, and (where the
    record has the scores) the chance of winning lost."""

    deals: int = 0
    decisions: int = 0
    total_loss: float = 0.0
    total_loss_win: float | None = None

    @property
    def total(self) -> str:
        """What the decisions lost in all, in words."""
        total = f"total lost: {self.total_loss:.2f} points"
        if self.total_loss_win is not None:
            total += (
                f" and {100 * self.total_loss_win:.1f} percentage points of the chance of winning"
            )
        return (
            f"{total}, over {counted(self.decisions, 'decision')} in {counted(self.deals, 'deal')}"
        )


def review_frame(decisions: list[Decision], deals: int) -> pd.DataFrame:
    """One row per graded decision; ``attrs``: deals, decisions, the total loss in
    points and (where scores were recorded) in chance of winning."""
    frame = pd.DataFrame(
        {
            "deal": np.array([d.deal for d in decisions], dtype=np.int64),
            "kind": pd.array([d.kind for d in decisions], dtype="string"),
            "situation": pd.array([d.situation for d in decisions], dtype="string"),
            "chosen": pd.array([d.chosen for d in decisions], dtype="string"),
            "best": pd.array([d.best for d in decisions], dtype="string"),
            "loss": np.array([d.loss for d in decisions], dtype=np.float64),
            "loss_win": np.array(
                [np.nan if d.loss_win is None else d.loss_win for d in decisions],
                dtype=np.float64,
            ),
            "options": np.array([d.options for d in decisions], dtype=np.int64),
        }
    )
    wins = [d.loss_win for d in decisions if d.loss_win is not None]
    meta = ReviewMeta(
        deals=deals,
        decisions=len(decisions),
        total_loss=float(frame["loss"].sum()),
        total_loss_win=float(sum(wins)) if wins else None,
    )
    return with_meta(frame, replace(meta, verdict=meta.total))
