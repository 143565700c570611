"""The card that wins the game at any table and under any variant: each option of the
player valued by the chance of winning from the score.

The other seats' cards are drawn as the play advice draws them
(:func:`~crib_analyze.play.table_advice.table_position`; the same draws); for each draw
and option the rest of the play follows the exact solver's line, then the shows (the
real cards, jokers wild, each penalty) and the crib (the player's throw and the others'
drawn), walked from the score; if nobody has won, the board of the game values the
position after the deal (:func:`~crib_analyze.board.table_boards.board_of`: the one
shipped for the game, or under a variant one made on first use)
(:mod:`crib_analyze.board.table_outcome_kernels`). A game with no board (five players,
three under back ten) is played on to its end instead, once a draw (:func:`played_on`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from crib_analyze.artifacts.game_boards import GameBoard, ThreeBoard
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board import table_outcome_kernels as tok
from crib_analyze.board.table_boards import board_of, has_board, skunk_lines
from crib_analyze.board.table_games import table_deal, throw_policy_of
from crib_analyze.errors import UsageError
from crib_analyze.play.meta import GameAdviceMeta
from crib_analyze.play.table_advice import SAY_GO, TablePosition
from crib_analyze.play.table_play_kernels import POLICY_CODES
from crib_analyze.play.table_solver_kernels import NAMED, SEQ_SIZE
from crib_analyze.position import check_score, p_skunked, p_win
from crib_analyze.results import Rows
from crib_analyze.rules import Rules

_THE_DEAL = (
    "each draw of the other seats' cards weighed by the chance their throws (by the hand "
    "policy) keep them: the card laid, the rest of the play along the solver's line, the "
    "shows and the crib (your throw, theirs) under the game's rules, then "
)
#: what the output says of how each card was valued
TABLE_ODDS_METHOD = _THE_DEAL + "the board of the game"
#: ... where the game has no board (three players under back ten, five players)
PLAYED_ON_METHOD = (
    _THE_DEAL + "the game played on to its end, once a draw (every seat throwing by its "
    "expert and laying by the lookahead; the same deals after each card)"
)
NO_BOARD = np.zeros((0, 0, 0, 0))  # option_outcomes: the game has no board, it is played on
#: draw j's game played on is game ONWARD_GAMES + j of games_onward: its streams clear of
#: the draws' own (the crib's at CRIB_STREAMS + j, of the same seed)
ONWARD_GAMES = 1 << 30


@dataclass(frozen=True)
class TablePlayOdds:
    """Per option of the position (``codes``, in the position's order): the outcome
    probabilities (n, 8) for the player's side, its chance of winning and that chance's
    standard error over the draws, and the board's provenance."""

    codes: list[int]
    outcomes: np.ndarray
    p_win: np.ndarray
    p_win_se: np.ndarray
    p_skunked: np.ndarray | None  # two sides only (a board of three does not say)
    wins: np.ndarray  # (n, samples) each draw's chance of winning
    share: np.ndarray  # (samples,) each draw's weight, summing to 1
    samples: int
    effective: float  # the draws' effective number, weighed (1 / the sum of shares squared)
    throw_drawn: bool  # the player's throw (or part of it) not given: drawn at random
    unweighed: bool  # no draw held hands the throws keep: every draw counted alike
    score: tuple[int, ...]
    board: dict[str, Any]


def table_play_odds(
    pos: TablePosition, score: tuple[int, ...], samples: int, seed: int
) -> TablePlayOdds:
    """The chance of winning after each option of ``pos`` from ``score`` (the play so far
    counted): the player's side's first, then the other side's; with three or five players
    each for themselves, the player's and then the others' from the dealer's left."""
    rules = pos.rules
    sides = len(rules.sides)
    if len(score) != sides:
        raise UsageError(f"`score` takes {sides} scores in {rules.name}, got {len(score)}")
    names = ["my score", *(["the opponent's score"] if sides == 2 else ["a score"] * (sides - 1))]
    score = tuple(check_score(w, v, rules.target) for w, v in zip(names, score, strict=True))
    if int(pos.codes[0]) == SAY_GO:
        raise UsageError("no card fits: say go (nothing to value from the score)")
    onward = not has_board(rules)  # no board: the game is played on after the deal
    board, provenance = (  # checked first: it may be made now, in minutes
        (None, {"played_on": True, "games": samples}) if onward else board_of(rules)
    )
    mine_side = rules.teams[pos.seat]
    start = scores_by_side(sides, mine_side, score)
    seq = np.zeros(SEQ_SIZE, np.int64)
    seq[: len(pos.ranks)] = pos.ranks
    s = pos.seat
    given = list(pos.thrown)
    crib_unseen = np.array(sorted({*pos.unseen.tolist(), *pos.dead}), np.int64)
    # the other seats' hands weighed by their throws: the hand policy with the tables
    # of the throws their whole games make (the expert model's where it is theirs)
    table = table_deal(rules, 0, throw_policy_of(rules, None))
    throws = table.thrown.copy()
    throws[s] = max(0, throws[s] - len(given))
    seats = range(rules.players)
    by_policy = np.array([t != s and not rules.passed[t] for t in seats], np.bool_)
    dealer_side = rules.teams[-1]
    signs = np.array([1 if rules.teams[t] == dealer_side else -1 for t in seats], np.int64)
    one = np.stack([table.crib_one[table.throws[t], t] for t in seats])
    two = np.stack([table.crib_two[table.throws[t], t] for t in seats])
    out, weights, ends = tok.option_outcomes(
        pos.row, s, pos.held, pos.unseen, pos.said_go, pos.codes, seq, len(pos.ranks),
        pos.count, np.array(rules.teams, np.int64), table.once, table.aim, samples, seed,
        pos.laid, table.hand_size, pos.cut, np.array(given, np.int64), crib_unseen, throws,
        table.dealt, by_policy, signs, one, two, table.from_deck, table.fives, table.jokers,
        table.penalty, start,
        NO_BOARD if board is None else board_values(board),
        table.target, skunk_lines(rules),
    )  # fmt: skip
    if onward:
        played_on(out, ends, rules, mine_side, seed)
    unweighed = weights.sum() <= 0.0  # no draw's hands are ones the throws keep
    share = np.full(samples, 1.0 / samples) if unweighed else weights / weights.sum()
    effective = float(1.0 / (share**2).sum())  # the draws' worth, weighed
    outcomes = np.einsum("ojk,j->ok", out, share)
    wins = out[..., :4].sum(axis=2)  # (options, samples)
    return TablePlayOdds(
        codes=[int(c) for c in pos.codes], outcomes=outcomes,
        p_win=np.clip(p_win(outcomes), 0.0, 1.0),
        p_win_se=weighted_se(wins, share),
        p_skunked=np.clip(p_skunked(outcomes), 0.0, 1.0) if sides == 2 else None,
        wins=wins, share=share, samples=samples, effective=effective,
        throw_drawn=len(given) < rules.thrown[s], unweighed=unweighed,
        score=score,
        board=provenance,
    )  # fmt: skip


def scores_by_side(sides: int, mine: int, score: tuple[int, ...]) -> np.ndarray:
    """The scores as asked (the player's side's first, then the others in the order of
    their first seats from the dealer's left) by side.

    >>> scores_by_side(3, 2, (110, 100, 115)).tolist()  # the dealer of three: 110
    [100, 115, 110]
    >>> scores_by_side(5, 1, (1, 2, 3, 4, 5)).tolist()
    [2, 1, 3, 4, 5]
    """
    start = np.zeros(sides, np.int64)
    start[mine] = score[0]
    start[[t for t in range(sides) if t != mine]] = score[1:]
    return start


def played_on(out: np.ndarray, ends: np.ndarray, rules: Rules, mine: int, seed: int) -> None:
    """Fill ``out`` (options, samples, 8) where ``ends`` (options, samples, sides) holds
    the scores after the deal (nobody at the target; -1 elsewhere) with the game played
    on to its end from them (:func:`~crib_analyze.board.table_game_kernels.games_onward`,
    the seat left of the dealer dealing next; draw j's games on game ``ONWARD_GAMES +
    j``'s streams, the same for every option): a win for side ``mine`` (1 with a loser
    short of the first skunk line) or a loss (4)."""
    at = np.argwhere(ends[..., 0] >= 0)
    if not len(at):
        return
    table = table_deal(rules, POLICY_CODES["lookahead"], "expert")
    games = ONWARD_GAMES + at[:, 1].astype(np.int64)  # draw j's: the same for every option
    scores = np.ascontiguousarray(ends[at[:, 0], at[:, 1]])
    winner, short = tgk.games_onward(scores, games, 0, table, seed, int(skunk_lines(rules)[0]))
    won = winner == mine
    out[at[:, 0], at[:, 1], 0] = won & ~short
    out[at[:, 0], at[:, 1], 1] = won & short
    out[at[:, 0], at[:, 1], 4] = ~won


def board_values(board: GameBoard | ThreeBoard) -> np.ndarray:
    """What the outcome kernels read of a board: a board of two sides' values, or a board
    of three's chances of winning and of a skunk win (second place left packed)."""
    if isinstance(board, ThreeBoard):
        return board.outcomes()
    return np.ascontiguousarray(board.values, np.float64)


def weighted_se(values: np.ndarray, share: np.ndarray) -> np.ndarray:
    """The standard error of the weighted mean of each row of ``values`` (n, samples),
    the draws weighted by ``share`` (summing to 1): the ratio estimator's.

    >>> float(weighted_se(np.array([[0.0, 1.0, 0.0, 1.0]]), np.full(4, 0.25))[0])
    0.25
    """
    mean = values @ share
    return np.asarray(np.sqrt(((values - mean[:, None]) ** 2) @ (share**2)))


def ranked_by_table_odds(rows: Rows, codes: list[int], odds: TablePlayOdds) -> Rows:
    """Play advice at any table (:func:`~crib_analyze.play.result_rows.table_advice_rows`,
    its options' ``codes`` in row order) ranked by the chance of winning from ``odds``'
    score: each option's ``p_win`` with its standard error, ``gap_se`` the error of its
    gap to the best (the same draws), and ``p_skunked``; the most wins first, the
    pegging order among equals; a joker as the rank that wins most only."""
    at = np.array([odds.codes.index(c) for c in codes], np.int64)
    order = np.argsort(-odds.p_win[at], kind="stable")
    named = [codes[i] >= NAMED for i in order]  # a joker laid as a rank: its best one only
    order = np.array([i for k, i in enumerate(order) if not named[k] or named.index(True) == k],
                     np.int64)  # fmt: skip
    at = at[order]
    wins = odds.wins[at]  # (rows, samples)
    columns = {name: values[order] for name, values in rows.columns.items()}
    columns["p_win"] = odds.p_win[at]
    columns["p_win_se"] = odds.p_win_se[at]
    columns["gap_se"] = weighted_se(wins[0] - wins, odds.share)
    if odds.p_skunked is not None:
        columns["p_skunked"] = odds.p_skunked[at]
    meta = rows.meta
    assert isinstance(meta, GameAdviceMeta)
    method = PLAYED_ON_METHOD if odds.board.get("played_on") else TABLE_ODDS_METHOD
    method = f"{method} ({odds.effective:,.0f} draws' worth, weighed)"
    ranked = replace(meta, score=odds.score, odds_method=method, board=odds.board)
    rows = Rows(columns, meta=ranked)
    if odds.throw_drawn:
        rows = rows.with_notes(
            "your throw to the crib was not given (discards): it is drawn at random"
        )
    if odds.unweighed:
        rows = rows.with_notes(
            "no draw gave the other seats hands their throws would keep: every draw is "
            "counted alike (more samples may find some)"
        )
    return rows
