"""Whole games of any game of the rules, by simulation: who wins from the first deal or
from a score, points a deal by seat and source, skunks, and three players' match points.

The deals are played by :mod:`crib_analyze.board.table_game_kernels`: every seat throws
by the hand policy (its kept hand's mean over the starters, its partner's hand from the
cards passed, and the crib's mean from its throw, by rank, added for its side's crib
and taken away for an opponent's) and lays by a play policy of
:mod:`crib_analyze.play.table_play_kernels`. Game g draws only from its own streams, so
a seed gives the same games whatever the batch size or the threads.

**Lowball** (loser's cribbage, ``rules.lowball``; two sides): every seat throws and lays
for the fewest points (the hand policy's and the play policy's lowball forms), and the
first side to reach the target loses: the other wins. Skunks and match points are not
counted in lowball.

**Throw fives and the penalties** (``rules.throw_fives``, ``rules.penalty``): every seat
throws its fives (as many as its throw takes; of more, the split the hand policy likes
best), and a hand or crib that shows nothing costs its owner 10 (back ten; a score goes
no lower than 0) or gives the opponent 1 (zero penalty; two sides only), as a fifth
source of points scored in its place in the order. The throws do not weigh the penalty.

**Match points of two sides** (``run.scoring``, one of
:data:`~crib_analyze.settings.SCORINGS`): the winner scores a win, a skunk, a double or
a triple skunk as the loser ends short of the game's lines (three quarters, half and a
quarter of the target: 91, 61, 31 of 121; 46, 31, 16 of 61), and the side's match
points a game are what it won less what it lost. In lowball every win is a plain one.

**Match points with three players** (winner takes all): the winner scores 2, or 3 when
it skunks one of the others (a loser short of the skunk line the moment the game is
won). In the continuation game the other two play on, the deal passing as before, and
the second to reach the target scores 1 for second place.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.game_models import expert_model_of, game_model
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.event_kernels import SOURCES
from crib_analyze.board.games import GameLog
from crib_analyze.crib.any_game_cribs import hand_policy_tables
from crib_analyze.errors import UsageError
from crib_analyze.play.table_play_kernels import LOWBALL_CODES, POLICY_CODES
from crib_analyze.rules import SECOND_POINTS, SKUNK_POINTS, WIN_POINTS, Rules
from crib_analyze.settings import (
    ANY_GAME_PLAY_POLICIES,
    CALL_SECONDS,
    DEFAULT_SCORING,
    EXPERT_THROW_JOKER_GAMES,
    EXPERT_THROW_VARIANT_GAMES,
    GAME_BATCH,
    GAME_THROW_POLICIES,
    GAMES,
    HAND_THROW_GAMES,
    PENALTIES,
    SCORINGS,
    SEED,
    SOLVER_DRAWS,
    AnyGamePlayPolicy,
    GameThrowPolicy,
    Scoring,
    check_choice,
    model_variant_of,
)

THROW_MODELS = ("hand", "expert")  # the kernels' throw model indices
THROW_WORDS = {
    "hand": "the hand policy (kept hand, passed hand, crib by rank with random other cards)",
    "expert": "the game's expert model (kept hand, passed hand, crib by rank as the seats throw)",
}


def sides_of(rules: Rules) -> np.ndarray:
    """Each player's side (players numbered round the table): the seats' teams, numbered
    from 0 in order of appearance."""
    order: list[int] = []
    for t in rules.teams:
        if t not in order:
            order.append(t)
    return np.array([order.index(t) for t in rules.teams], np.int64)


@dataclass(frozen=True)
class TableRun:
    """What a run plays: the game, the play policy, the start, match scoring."""

    rules: Rules
    seed: int = SEED.default
    play_policy: AnyGamePlayPolicy = "lookahead"
    throw_policy: GameThrowPolicy | None = None  # None: the expert where the game has one
    start: tuple[int, ...] | None = None  # each side's points before the first deal
    first_dealer: int = -1  # -1: rotating (game g's first dealer is g % players)
    continuation: bool = False  # three players: play on for second place
    scoring: Scoring = DEFAULT_SCORING  # two sides: the match points of a game

    def check(self) -> None:
        SEED.check(self.seed)
        check_choice("scoring", self.scoring, tuple(SCORINGS))
        check_choice("play policy", self.play_policy, ANY_GAME_PLAY_POLICIES)
        if self.throw_policy is not None:
            check_choice("throw policy", self.throw_policy, GAME_THROW_POLICIES)
        n_sides = len(set(self.rules.teams))
        self.rules.refuse_variants("a whole game", ("lowball", "throw", "penalty", "jokers"))
        if self.rules.lowball and n_sides != 2:
            raise UsageError(f"lowball is played by two sides; {self.rules.name} has {n_sides}")
        if self.continuation and n_sides < 3:
            raise UsageError(f"{self.rules.name}: the continuation game is for three or more sides")
        if self.start is not None:
            if len(self.start) != n_sides:
                raise UsageError(f"{self.rules.name} has {n_sides} sides: give {n_sides} scores")
            for s in self.start:
                if not 0 <= s < self.rules.target:
                    raise UsageError(f"a score must be from 0 to {self.rules.target - 1}, got {s}")
        if self.throw_policy == "expert" and expert_model_of(self.rules) is None:
            from crib_analyze.expert.game_models import expert_game_model

            expert_game_model(self.rules)  # made now, once (kept in the data dir), all else good

    def start_scores(self) -> np.ndarray:
        """Each side's points before the first deal (the rules' ``pone_start`` is added
        by the kernel to the first dealer's left-hand side when no ``start`` is given)."""
        n_sides = len(set(self.rules.teams))
        if self.start is not None:
            return np.array(self.start, np.int64)
        return np.zeros(n_sides, np.int64)


def throw_policy_of(rules: Rules, asked: str | None) -> GameThrowPolicy:
    """The throw policy a run of ``rules`` plays: ``asked``, or the expert where the game
    has a model that throws better than the hand policy, and the hand policy where not
    (no model, one of :data:`~crib_analyze.settings.HAND_THROW_GAMES`; under throw fives
    or lowball, a game not of :data:`~crib_analyze.settings.EXPERT_THROW_VARIANT_GAMES`;
    jokers in a game not of :data:`~crib_analyze.settings.EXPERT_THROW_JOKER_GAMES`)."""
    if asked is not None:
        return cast(GameThrowPolicy, asked)
    if game_model(rules, made=False) is None:  # a default: the shipped models alone
        return "hand"
    if rules.jokers and rules.name not in EXPERT_THROW_JOKER_GAMES:
        return "hand"
    variant = model_variant_of(rules.throw_fives, rules.lowball)
    if variant is not None:
        return "expert" if rules.name in EXPERT_THROW_VARIANT_GAMES[variant] else "hand"
    if rules.name in HAND_THROW_GAMES:
        return "hand"
    return "expert"


def throw_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray]:
    """The throw models' per-seat crib tables, stacked: (2, P, R) and (2, P, R, R) (R 13
    ranks, 14 with a joker's in a pack with jokers), model 0 the hand policy's, model 1
    the game's expert model (the hand policy's again where the game has none)."""
    hand_one, hand_two = hand_policy_tables(rules)
    model = expert_model_of(rules)
    one, two = (hand_one, hand_two) if model is None else (model.one, model.two)
    return np.stack([hand_one, one]), np.stack([hand_two, two])


def table_deal(
    rules: Rules, policy: int, throws: GameThrowPolicy | np.ndarray = "hand"
) -> tgk.TableDeal:
    """``rules`` as the game kernels take them, every player playing ``policy`` (a
    table_play_kernels code) and throwing by ``throws``: a policy for every player, or
    each player's model index (0 the hand policy, 1 the expert)."""
    one, two = throw_tables(rules)
    if isinstance(throws, str):
        models = np.full(rules.players, THROW_MODELS.index(throws), np.int64)
    else:
        models = np.asarray(throws, np.int64)
    return tgk.TableDeal(
        np.array(rules.dealt, np.int64), np.array(rules.thrown, np.int64),
        np.array(rules.passed, np.int64), sides_of(rules), np.full(rules.players, policy, np.int64),
        one, two, models, rules.crib_from_deck, rules.hand_size, rules.target, rules.play_once,
        -1 if rules.lowball else 1, SOLVER_DRAWS.default, rules.throw_fives,
        PENALTIES.index(rules.penalty), rules.jokers,
    )  # fmt: skip


def play_batch(first: int, n: int, run: TableRun) -> tuple[np.ndarray, ...]:
    """Games ``first`` .. ``first + n - 1``: the kernel's (results, scores, points)."""
    r = run.rules
    code = (LOWBALL_CODES if r.lowball else POLICY_CODES)[run.play_policy]
    start = run.start_scores()
    pone_start = r.pone_start if run.start is None else 0
    table = table_deal(r, code, throw_policy_of(r, run.throw_policy))
    results, scores, points, _ = tgk.play_table_games(
        n, run.seed, first, table, start, pone_start, run.first_dealer, run.continuation
    )
    if r.lowball:  # the first side to the target loses: the other (of two) wins
        results[:, 0] = np.where(results[:, 0] >= 0, 1 - results[:, 0], -1)
    return results, scores, points


@dataclass(frozen=True)
class TableStats:
    """What ``games`` games of ``run.rules`` showed; rates carry standard errors."""

    games: int
    run: TableRun
    wins: dict[str, float]  # by the first deal's seat (or side): the share of games won
    wins_se: dict[str, float]
    deals_per_game: float
    deals_per_game_se: float
    points_per_deal: dict[str, dict[str, float]]  # seat -> source (+ total) -> mean
    points_per_deal_se: dict[str, float]  # seat -> the total's standard error
    skunks: float  # the share of games won with a loser short of the first skunk line
    double_skunks: float  # ... short of the second (half the target)
    triple_skunks: float  # ... short of the third
    # two sides: each side's match points a game under run.scoring, won less lost, by
    # the first deal's seats; three players: each seat's, won (2 or 3, 1 for second)
    match_points: dict[str, float]
    match_points_se: dict[str, float]
    # the share of games each wins by a skunk or more (three players: a loser short of the
    # first line), by the first deal's seats
    skunk_wins: dict[str, float]
    seconds: float
    raw: tuple[np.ndarray, ...] = field(default=(), repr=False)
    # the continuation game: the share of games each first-deal seat came second
    second_places: dict[str, float] = field(default_factory=dict)
    second_places_se: dict[str, float] = field(default_factory=dict)

    @property
    def verdict(self) -> str:
        """The answer first, in words (:func:`crib_analyze.verdicts.game_games_verdict`)."""
        from crib_analyze.verdicts import game_games_verdict

        return game_games_verdict(self.as_dict())

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("raw", "run")}
        r = self.run
        out["settings"] = {
            "game": r.rules.name, "seed": r.seed, "play_policy": r.play_policy,
            "start": list(r.start) if r.start is not None else None,
            "first_dealer": r.first_dealer, "continuation": r.continuation,
            "throws": THROW_WORDS[throw_policy_of(r.rules, r.throw_policy)],
            "lowball": r.rules.lowball,
            "scoring": r.scoring if len(r.rules.sides) == 2 else None,
            "skunk_lines": list(r.rules.skunk_lines),
            "variants": list(r.rules.variants),
            "variant_rules": list(r.rules.variant_rules),
        }  # fmt: skip
        return out


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def simulate_table(
    games: int,
    run: TableRun,
    batch: int = GAME_BATCH.default,
    log: Callable[[GameLog], None] | None = None,
) -> TableStats:
    """Play ``games`` whole games of ``run.rules`` and summarise them."""
    run.check()
    GAMES.check(games)
    GAME_BATCH.check(batch)
    start = time.time()
    if log:  # the inputs are sound: the games start
        log(GameLog(0, games, 0.0))
    parts: list[tuple[np.ndarray, ...]] = []
    for first, n in interrupts.paced(games, CALL_SECONDS, most=batch):  # about 0.5 s a call
        parts.append(play_batch(first, n, run))
        if log:
            log(GameLog(first + n, games, time.time() - start))
    raw = tuple(np.concatenate([p[k] for p in parts]) for k in range(3))
    return summarise(raw, run, time.time() - start)


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")


def summarise(raw: tuple[np.ndarray, ...], run: TableRun, seconds: float) -> TableStats:
    """The statistics of played games (the kernel's arrays, in game order)."""
    results, scores, points = raw
    r = run.rules
    n = len(results)
    sides = sides_of(r)
    names = r.seat_names
    winner, second, first, deals = results.T
    # who won, by the seats the winning side sat in at the first deal
    wins: dict[str, float] = {}
    wins_se: dict[str, float] = {}
    for seats in r.sides:
        side_of_game = sides[(first + 1 + seats[0]) % r.players]
        won = (winner == side_of_game).astype(np.float64)
        label = "+".join(names[s] for s in seats)
        wins[label], wins_se[label] = float(won.mean()), _se(won)
    d = deals.astype(np.float64)
    per_deal: dict[str, dict[str, float]] = {}
    per_deal_se: dict[str, float] = {}
    sources = (*SOURCES, "penalty") if r.penalty != "none" else SOURCES
    total_deals = d.sum()
    for seat, name in enumerate(names):
        sums = points[:, seat].sum(axis=0) / total_deals
        per_deal[name] = {s: round(float(v), 4) for s, v in zip(sources, sums, strict=False)}
        per_deal[name]["total"] = round(float(sums.sum()), 4)
        x = points[:, seat].sum(axis=1).astype(np.float64)  # ratio estimator's error
        ratio = x.sum() / total_deals
        per_deal_se[name] = round(_se(x - ratio * d) / float(d.mean()), 4)
    losers = scores.copy()
    losers[np.arange(n), winner] = r.target
    lowest = losers.min(axis=1)  # the loser furthest behind when the game is won
    # 0 a plain win, 1 a skunk, 2 a double, 3 a triple (none in lowball)
    band = (lowest[:, None] < np.array(r.skunk_lines)).sum(axis=1) * (not r.lowball)
    match: dict[str, float] = {}
    match_se: dict[str, float] = {}
    skunk_wins: dict[str, float] = {}
    if len(r.sides) == 2:
        pts = np.array(SCORINGS[run.scoring], np.float64)[band]
        for seats in r.sides:
            side_of_game = sides[(first + 1 + seats[0]) % r.players]
            won = winner == side_of_game
            got = np.where(won, pts, -pts)
            label = "+".join(names[s] for s in seats)
            match[label], match_se[label] = round(float(got.mean()), 4), round(_se(got), 4)
            skunk_wins[label] = round(float((won & (band >= 1)).mean()), 4)
    elif len(r.sides) == 3:
        pts = np.where(band > 0, SKUNK_POINTS, WIN_POINTS)
        for seat, name in enumerate(names):
            player_side = sides[(first + 1 + seat) % r.players]
            got = np.where(winner == player_side, pts, 0)
            got = got + np.where(second == player_side, SECOND_POINTS, 0)
            match[name], match_se[name] = round(float(got.mean()), 4), round(_se(got), 4)
            skunk_wins[name] = round(float(((winner == player_side) & (band >= 1)).mean()), 4)
    places: dict[str, float] = {}
    places_se: dict[str, float] = {}
    if run.continuation:
        for seats in r.sides:
            side_of_game = sides[(first + 1 + seats[0]) % r.players]
            came = (second == side_of_game).astype(np.float64)
            label = "+".join(names[s] for s in seats)
            places[label], places_se[label] = round(float(came.mean()), 4), round(_se(came), 4)
    return TableStats(
        games=n,
        run=run,
        wins={k: round(v, 4) for k, v in wins.items()},
        wins_se={k: round(v, 4) for k, v in wins_se.items()},
        deals_per_game=round(float(d.mean()), 3),
        deals_per_game_se=round(_se(d), 3),
        points_per_deal=per_deal,
        points_per_deal_se=per_deal_se,
        skunks=round(float((band >= 1).mean()), 4),
        double_skunks=round(float((band >= 2).mean()), 4),
        triple_skunks=round(float((band >= 3).mean()), 4),
        match_points=match,
        match_points_se=match_se,
        skunk_wins=skunk_wins,
        seconds=round(seconds, 1),
        raw=raw,
        second_places=places,
        second_places_se=places_se,
    )
