"""The split that wins in a game from a score: a seat's splits valued by the chance its
side wins the game (``discard --game NAME --seat SEAT --score MINE-THEIRS...``).

The points ranking (:mod:`crib_analyze.discard.any_game`) gives each split's mean
points; the best of them (all when there are 15 or fewer, the 15 best by points
otherwise: Canadian doubles' 3,150) are then played out in ``samples`` deals of the
other cards each, the same deals for every split (common random numbers): the other
seats dealt at random, throwing by the game's expert model, every seat laying by the
lookahead, the events scored in order; a side reaching the target wins there and then,
else the game's board (:mod:`crib_analyze.artifacts.game_boards`) values the position
after the deal (:func:`~crib_analyze.board.table_game_kernels.split_wins`). A game without
a board (five players, the variants) is played out to its end instead. Each split
gets its chance of winning with its standard error, and the standard error of its gap
to the best (smaller: the same deals).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.game_boards import ThreeBoard, game_board
from crib_analyze.artifacts.game_models import expert_model_of
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_games import table_deal
from crib_analyze.cards import CardsLike
from crib_analyze.discard.any_game import analyze_seat, dealt_cards, split_columns
from crib_analyze.discard.game_meta import GameThrowsMeta
from crib_analyze.play.table_play_kernels import LOWBALL_CODES, POLICY_CODES
from crib_analyze.position import parse_scores
from crib_analyze.results import Rows
from crib_analyze.rules import Rules
from crib_analyze.settings import CALL_SECONDS, POSITION_SAMPLES, SEED

MOST_SPLITS = 15  # splits played out at most: the best by points


@dataclass(frozen=True)
class GameScoreThrows:
    """A seat's best splits by the chance of winning from a score, best first."""

    rules: Rules
    seat: int
    score: tuple[int, ...]  # each side's, the seat's side first (then in seat order)
    kept: list[tuple[int, ...]]
    thrown: list[tuple[int, ...]]
    passed: list[tuple[int, ...]]
    net: np.ndarray  # the points ranking's net
    win: np.ndarray  # the chance of winning
    win_se: np.ndarray
    gap_se: np.ndarray  # the standard error of the gap to the best
    samples: int
    to_the_end: bool = False  # every game played out to its end (no board for the rules)


def split_masks(
    cards: list[int], kept: list[tuple[int, ...]], thrown: list[tuple[int, ...]],
    passed: list[tuple[int, ...]], chosen: range | list[int],
) -> np.ndarray:  # fmt: skip
    """(S, 3) the kept, thrown and passed masks over ``cards`` (distinct ids) of the
    splits ``chosen`` (indices into ``kept``, ``thrown``, ``passed``), as the kernels
    take them."""

    def mask(part: tuple[int, ...]) -> int:
        return sum(1 << cards.index(c) for c in part)

    return np.array([[mask(kept[i]), mask(thrown[i]), mask(passed[i])] for i in chosen], np.int64)


def score_seat(
    hand: CardsLike,
    rules: Rules,
    seat: str | int,
    score: tuple[int, ...],
    samples: int = POSITION_SAMPLES.default,
    seed: int = SEED.default,
) -> GameScoreThrows:
    """``seat``'s splits of ``hand`` in ``rules`` by the chance its side wins from
    ``score`` (each side's: its side's first, then the others in the order of their
    first seats from the dealer's left) with this deal to play: from the game's board
    where it has one, else every game played out to its end."""
    POSITION_SAMPLES.check(samples)
    SEED.check(seed)
    found = game_board(rules)
    n_sides = len(rules.sides)
    score = parse_scores(score, n_sides, rules.target)
    # the points ranking beside it: random cards for the others, or (throw fives, which
    # random cards do not follow) the hand policy's throws, sampled
    points = analyze_seat(hand, rules, seat, others="hand" if rules.throw_fives else "random")
    s = points.seat
    cards = [int(c) for c in dealt_cards(hand, rules.dealt[s], rules.jokers)]
    chosen = range(min(MOST_SPLITS, len(points.kept)))
    splits = split_masks(cards, points.kept, points.thrown, points.passed, chosen)
    codes = LOWBALL_CODES if rules.lowball else POLICY_CODES
    table = table_deal(rules, codes["lookahead"], "expert")
    held = np.array(cards, np.int64)
    my_side = int(table.sides[s])
    others = iter(score[1:])  # the other sides in their order
    start = np.array(
        [score[0] if side == my_side else next(others) for side in range(n_sides)], np.int64
    )
    if found is not None:
        board = found[0]  # two sides' chances get the axis of three's seats: one kernel
        chances = board.win() if isinstance(board, ThreeBoard) else board.win()[..., None]
        values = tgk.split_wins(held, s, splits, table, start, chances, samples, seed)
    else:  # the variants and five players: every game played out to its end
        first = np.concatenate([
            tgk.split_games(held, s, splits, table, start, lo, n, seed)
            for lo, n in interrupts.paced(samples, CALL_SECONDS, step=16)
        ], axis=1)  # fmt: skip  # calls of about CALL_SECONDS: Ctrl-C heard between them
        reached = (first == my_side).astype(np.float64)
        values = 1.0 - reached if rules.lowball else reached  # lowball: the first there loses
    win = values.mean(axis=1)
    order = np.argsort(-win, kind="stable")
    best = values[order[0]]
    gap_se = np.array([(values[i] - best).std(ddof=1) / np.sqrt(samples) for i in order])
    return GameScoreThrows(
        rules=rules, seat=s, score=score,
        kept=[points.kept[i] for i in order], thrown=[points.thrown[i] for i in order],
        passed=[points.passed[i] for i in order], net=points.net[order], win=win[order],
        win_se=values[order].std(axis=1, ddof=1) / np.sqrt(samples), gap_se=gap_se,
        samples=samples, to_the_end=found is None,
    )  # fmt: skip


def score_throws_rows(throws: GameScoreThrows) -> Rows:
    """A seat's splits by the chance of winning as rows, best first: keep, throw (and
    pass), the points ranking's net, the chance of winning, its standard error and the
    standard error of its gap to the best."""
    rules = throws.rules
    columns = split_columns(throws.kept, throws.thrown, throws.passed)
    columns["net"] = throws.net
    columns["p_win"] = throws.win
    columns["p_win_se"] = throws.win_se
    columns["gap_se"] = throws.gap_se
    own = rules.teams[throws.seat] == rules.teams[rules.dealer]
    meta = GameThrowsMeta(
        game=rules.name, seat=rules.seat_names[throws.seat],
        crib="yours" if throws.seat == rules.dealer else "your partner's" if own
        else "an opponent's",
        crib_sign=1 if own else -1, samples=throws.samples,
        others="expert" if expert_model_of(rules) is not None else "hand",  # as dealt
        score=throws.score, to_the_end=throws.to_the_end,
        lowball=rules.lowball, notes=tuple(rules.variant_rules),
    )  # fmt: skip
    return Rows(columns, meta=meta)
