"""The public API of the show: count four cards and the starter, as a player does."""

from __future__ import annotations

from crib_analyze.scoring.show import Breakdown, Show, count_show, score_breakdown, score_hand

__all__ = ["Breakdown", "Show", "count_show", "score_breakdown", "score_hand"]
