"""The card that wins the game: each card the player can lay now, valued from the score.

Near the end the card to lay is the one that wins, not the one that pegs most: pegging
out first, holding the opponent short of the line. For each hand the solver's reading
gives the opponent (every live keep, weighted by its throw, its lays and its go's),
each candidate card is laid and the rest of the play solved and played out exactly;
its points are walked from the score in the order they come, then the shows, and the
board table values the position after the deal if nobody has won
(:mod:`crib_analyze.board.play_outcome_kernels`). The continuation is the pegging
solver's line (the most points), not a search for the win: a card that pegs out, or
leaves the opponent unable to, is seen; a later card chosen for the win is not.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from crib_analyze.artifacts.board_table import BoardTable, load_board
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.board import play_outcome_kernels as pok
from crib_analyze.cards import format_card
from crib_analyze.errors import UsageError
from crib_analyze.play.advice import PlayPosition, read_opponent
from crib_analyze.play.meta import PlayMeta
from crib_analyze.position import check_score, p_skunked, p_win
from crib_analyze.results import Rows
from crib_analyze.rules import SKUNK_LINES, TARGET
from crib_analyze.scoring.show_kernels import rank_table, table_score_show

#: what the output says of how each card was valued
PLAY_ODDS_METHOD = (
    "each hand the opponent may hold, weighted by the solver's reading: the card laid, the "
    "rest of the play solved exactly, the shows (the opponent's by ranks, the crib by its "
    "spread over all deals), then the board table"
)


@dataclass(frozen=True)
class PlayOdds:
    """Per legal card of the position (``cards``, ids, in the order of ``pos.legal``):
    the outcome probabilities (n, 8), the chance of winning, and the pegging
    differential of the solved line (the solver's own value of the card)."""

    cards: list[int]
    outcomes: np.ndarray
    p_win: np.ndarray
    line_value: np.ndarray
    hands: int  # the opponent's hands solved
    score: tuple[int, int]


def play_odds(
    pos: PlayPosition,
    score: tuple[int, int],
    model: ExpertModel,
    board: BoardTable | None = None,
) -> PlayOdds:
    """The chance of winning after each legal card of ``pos``, me on ``score[0]``
    against ``score[1]`` now (the play so far already counted)."""
    mine, theirs = check_score("my score", score[0]), check_score("the opponent's score", score[1])
    if pos.cut is None:
        raise UsageError("`score` needs the `starter`: the shows after the play count with it")
    if not pos.legal:
        raise UsageError("no card fits: say go (nothing to value from the score)")
    reading = read_opponent(pos, model)
    table = board or load_board()
    histogram = np.asarray(table.provenance["per_deal_histogram"]["dealer"]["crib"], np.float64)
    full = [*pos.mine, *pos.my_laid]
    my_show = int(
        table_score_show(rank_table(), full[0], full[1], full[2], full[3], pos.cut, False)
    )
    slots = np.full(4, -1, np.int64)
    slots[: len(pos.mine)] = pos.mine
    out, line, solved = pok.card_outcomes(
        slots, pos.me, pos.seq, int(pos.state[0]), int(pos.state[1]), reading.reading[0][pos.me],
        reading.reader.keeps, reading.reading[1][1 - pos.me], int(pos.gone_above[pos.me]),
        pos.cut, my_show, histogram / histogram.sum(), mine, theirs,
        np.ascontiguousarray(table.values, np.float64), TARGET, np.array(SKUNK_LINES, np.int64),
        rank_table(),
    )  # fmt: skip
    if solved == 0:
        raise UsageError("no hand the opponent could hold fits the play so far")
    index = [pos.mine.index(c) for c in pos.legal]
    outcomes = np.asarray(out)[index]
    return PlayOdds(
        cards=list(pos.legal), outcomes=outcomes, p_win=p_win(outcomes),
        line_value=np.asarray(line)[index], hands=int(solved), score=(mine, theirs),
    )  # fmt: skip


def ranked_by_odds(rows: Rows, odds: PlayOdds) -> Rows:
    """Play advice (:func:`~crib_analyze.play.result_rows.advice_rows`) ranked by the
    chance of winning from ``odds``' score: each card's ``p_win`` and ``p_skunked``
    (losing by a skunk or more), the most wins first, the pegging order among equals."""
    by_card = {format_card(c): i for i, c in enumerate(odds.cards)}
    at = np.array([by_card[str(card)] for card in rows["card"]], dtype=np.int64)
    columns = dict(rows.columns)
    columns["p_win"] = odds.p_win[at]
    columns["p_skunked"] = p_skunked(odds.outcomes)[at]
    order = np.argsort(-columns["p_win"], kind="stable")
    meta = rows.meta
    assert isinstance(meta, PlayMeta)
    ranked = replace(meta, score=odds.score, odds_method=PLAY_ODDS_METHOD)
    return Rows({name: values[order] for name, values in columns.items()}, meta=ranked)
