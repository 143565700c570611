"""Full games between discard policies, end to end, and what they show.

Games are played in batches (:mod:`crib_analyze.board.game_kernels`); game g draws
only from its own random streams (its cards shared with its duplicate partner), so a
seed gives the same games whatever the batch size, the threads, or the machines: with
a Dask scheduler the batches run on its workers and come back in order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.board_table import BoardTable, load_board
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.board import game_kernels as gk
from crib_analyze.board.event_kernels import SOURCES
from crib_analyze.board.expert_throws import throw_arrays
from crib_analyze.board.throws import SPREAD_PLAY
from crib_analyze.cluster import dask_client
from crib_analyze.errors import UsageError
from crib_analyze.play.matches import play_reader, policy_code
from crib_analyze.play.spread import NO_SPREAD, packaged_spread
from crib_analyze.position import Seat, outcome_weights
from crib_analyze.rules import SKUNK_LINES, TARGET
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import (
    CALL_SECONDS,
    CANDIDATES,
    DEFAULT_GOAL,
    DEFAULT_PLAY_POLICY,
    DEFAULT_PLAYERS,
    DEFAULT_SCORING,
    GAME_BATCH,
    GAME_PLAYERS,
    GAME_POSITION_SAMPLES,
    GAMES,
    PLAY_POLICIES,
    POSITION_FROM,
    QUICK_PLAY_POLICY,
    SCORINGS,
    SEARCH_SAMPLES,
    SEED,
    check_choice,
    check_scheduler,
)


@dataclass(frozen=True)
class GameSettings:
    """What a run plays: the two players' discard policies and the position settings."""

    players: tuple[str, str] = DEFAULT_PLAYERS
    seed: int = SEED.default
    position_from: int = POSITION_FROM.default
    position_samples: int = GAME_POSITION_SAMPLES.default
    candidates: int = CANDIDATES.default
    goal: str = DEFAULT_GOAL
    scoring: str = DEFAULT_SCORING
    play_policy: str = DEFAULT_PLAY_POLICY  # how both players lay their cards
    #: how each player lays its cards (player 0's, player 1's), where they differ
    play_policies: tuple[str, str] | None = None

    def check(self) -> None:
        """A one-line UsageError for the first setting out of its range."""
        for p in self.players:
            check_choice("discard policy", p, GAME_PLAYERS)
        for policy in self.lays:
            check_choice("play policy", policy, PLAY_POLICIES)
        SEED.check(self.seed)
        POSITION_FROM.check(self.position_from)
        GAME_POSITION_SAMPLES.check(self.position_samples)
        CANDIDATES.check(self.candidates)
        outcome_weights(self.goal, self.scoring)  # checks both

    @property
    def lays(self) -> tuple[str, str]:
        """How player 0 and player 1 lay their cards."""
        return self.play_policies or (self.play_policy, self.play_policy)


@dataclass(frozen=True)
class GameBatch:
    """The raw results of games ``first`` .. ``first + n - 1`` (see ``play_games``)."""

    first: int
    results: np.ndarray  # (n, 6)
    points: np.ndarray  # (n, 2, 2, 4)
    dealt: np.ndarray  # (n, 2)
    history: np.ndarray | None = None  # (n, HISTORY_DEALS, HISTORY_FIELDS) if kept


def play_batch(
    first: int,
    n: int,
    settings: GameSettings,
    model: ExpertModel | None = None,
    board: BoardTable | None = None,
    history: bool = False,
) -> GameBatch:
    """Play games ``first`` .. ``first + n - 1`` (a top-level function: Dask ships it);
    with ``history``, keep every deal's cards, play and scores too."""
    settings.check()
    m = model or load_model()
    table = board or load_board()
    codes = np.array([policy_code(p) for p in settings.lays], np.int64)
    quick = policy_code(QUICK_PLAY_POLICY)  # the position samples' play
    kinds = np.array([GAME_PLAYERS.index(p) for p in settings.players], np.int64)
    kept = np.full((n if history else 0, gk.HISTORY_DEALS, gk.HISTORY_FIELDS), -1, np.int16)
    results, points, dealt = gk.play_games(
        n, settings.seed, first, kinds, throw_arrays(m), codes, np.array([quick, quick], np.int64),
        play_reader(m, reads="solver" in settings.lays), SEARCH_SAMPLES.default,
        packaged_spread() or NO_SPREAD, rank_table(),
        np.ascontiguousarray(table.values, np.float64),
        TARGET, np.array(SKUNK_LINES, np.int64), settings.position_from,
        settings.position_samples, settings.candidates,
        outcome_weights(settings.goal, settings.scoring), kept,
    )  # fmt: skip
    return GameBatch(
        first, np.asarray(results), np.asarray(points), np.asarray(dealt),
        kept if history else None,
    )  # fmt: skip


@dataclass(frozen=True)
class GameLog:
    """Progress: games done of total, seconds so far (0 done: the checks passed and the
    games start)."""

    done: int
    total: int
    seconds: float


@dataclass(frozen=True)
class GameStats:
    """What ``games`` games showed. Rates carry standard errors (``*_se``)."""

    games: int
    settings: GameSettings
    first_dealer_wins: float
    first_dealer_wins_se: float
    player0_wins: float  # player 0's win rate, each duplicate pair averaged
    player0_wins_se: float
    deals_per_game: float
    deals_per_game_se: float
    points_per_deal: dict[str, dict[str, float]]  # role -> source (+ total) -> mean
    skunks: dict[str, float]  # share of games won by a skunk or more, double, triple
    margins: dict[int, int]  # the winner's margin (121 - loser's score) -> games
    seconds: float
    match_points: float = 0.0  # player 0's a game under settings.scoring, won less lost
    match_points_se: float = 0.0
    position_play: str = ""  # how a position player's sampled deals count the play
    batches: list[GameBatch] = field(default_factory=list, repr=False)

    @property
    def decided_by(self) -> dict[int, float]:
        """The share of games won by exactly 1 and 2 points."""
        return {k: self.margins.get(k, 0) / self.games for k in (1, 2)}

    @property
    def verdict(self) -> str:
        """The answer first, in words (:func:`crib_analyze.verdicts.games_verdict`)."""
        from crib_analyze.verdicts import games_verdict

        return games_verdict(self.as_dict())

    def as_dict(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k not in ("batches", "settings")}
        if "position" not in self.settings.players:
            del out["position_play"]
        settings = dict(self.settings.__dict__)
        if settings["play_policies"] is None:  # as before: one policy for both
            del settings["play_policies"]
        else:  # one a player: the single policy was not used
            del settings["play_policy"]
        out["settings"] = settings
        out["decided_by"] = self.decided_by
        return out


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def simulate(
    games: int = GAMES.default,
    settings: GameSettings | None = None,
    batch: int = GAME_BATCH.default,
    model: ExpertModel | None = None,
    log: Callable[[GameLog], None] | None = None,
    scheduler: str | None = None,
    history: bool = False,
) -> GameStats:
    """Play ``games`` full games (an even number: duplicate pairs) and summarise them.
    With ``scheduler`` (a Dask scheduler address) the batches run on its workers; with
    ``history`` each batch keeps its games' deals (``GameBatch.history``)."""
    s = settings or GameSettings()
    s.check()
    if scheduler is not None:
        check_scheduler(scheduler)
    if GAMES.check(games) % 2:
        raise UsageError(f"`games` must be even (games come in duplicate pairs), got {games:,}")
    if GAME_BATCH.check(batch) % 2:
        raise UsageError(f"`batch` must be even (games come in duplicate pairs), got {batch:,}")
    start = time.time()
    if log:  # the inputs are sound: the games start
        log(GameLog(0, games, 0.0))
    batches: list[GameBatch] = []
    if scheduler is None:  # batches of at most ``batch`` games, about CALL_SECONDS each
        m = model or load_model()
        for first, n in interrupts.paced(games, CALL_SECONDS, most=batch, step=2):
            batches.append(play_batch(first, n, s, m, history=history))
            if log:
                log(GameLog(first + n, games, time.time() - start))
    else:
        firsts = list(range(0, games, batch))
        sizes = [min(batch, games - f) for f in firsts]
        batches = _on_dask(scheduler, firsts, sizes, s, log, start, games, history)
    return summarise(batches, s, time.time() - start)


def _on_dask(
    scheduler: str,
    firsts: list[int],
    sizes: list[int],
    s: GameSettings,
    log: Callable[[GameLog], None] | None,
    start: float,
    games: int,
    history: bool,
) -> list[GameBatch]:
    client = dask_client(scheduler)
    from distributed import as_completed  # there: dask_client has checked it imports

    with client:
        futures = client.map(
            play_batch, firsts, sizes, [s] * len(firsts), history=history, pure=False
        )
        done = 0
        for future in as_completed(futures):  # type: ignore[no-untyped-call]
            interrupts.check()
            done += future.result().results.shape[0]
            if log:
                log(GameLog(done, games, time.time() - start))
        return [f.result() for f in futures]


def summarise(batches: list[GameBatch], settings: GameSettings, seconds: float) -> GameStats:
    """The statistics of played batches (in game order)."""
    results = np.concatenate([b.results for b in batches])
    points = np.concatenate([b.points for b in batches])
    dealt = np.concatenate([b.dealt for b in batches])
    n = len(results)
    first_won = (results[:, 0] == results[:, 1]).astype(np.float64)
    p0 = (results[:, 0] == 0).astype(np.float64).reshape(-1, 2).mean(axis=1)  # per pair
    deals = results[:, 4].astype(np.float64)
    # points per deal by role: sum over players, divided by the deals played in that role
    by_role = points.sum(axis=1)  # (n, role, source)
    role_deals = dealt.sum()  # each deal has one dealer and one pone
    per_deal: dict[str, dict[str, float]] = {}
    for seat in Seat:
        sums = by_role[:, seat].sum(axis=0) / role_deals
        per_deal[seat.role] = {
            name: round(float(v), 4) for name, v in zip(SOURCES, sums, strict=True)
        }
        per_deal[seat.role]["total"] = round(float(sums.sum()), 4)
    bands = results[:, 5]
    table = SCORINGS[settings.scoring]  # type: ignore[index]
    worth = np.array(table, np.float64)[bands]  # each game's match points to its winner
    p0_match = np.where(results[:, 0] == 0, worth, -worth).reshape(-1, 2).mean(axis=1)
    loser = np.where(results[:, 0] == 0, results[:, 3], results[:, 2])
    margins = np.bincount(TARGET - loser, minlength=TARGET + 1)
    return GameStats(
        games=n,
        settings=settings,
        first_dealer_wins=float(first_won.mean()),
        first_dealer_wins_se=_se(first_won.reshape(-1, 2).mean(axis=1)),
        player0_wins=float(p0.mean()),
        player0_wins_se=_se(p0),
        deals_per_game=float(deals.mean()),
        deals_per_game_se=_se(deals),
        points_per_deal=per_deal,
        skunks={
            "skunk": float((bands >= 1).mean()),
            "double": float((bands >= 2).mean()),
            "triple": float((bands >= 3).mean()),
        },
        margins={int(k): int(v) for k, v in enumerate(margins) if v},
        seconds=round(seconds, 1),
        match_points=float(p0_match.mean()),
        match_points_se=_se(p0_match),
        position_play=SPREAD_PLAY
        if packaged_spread() is not None
        else f"the play by {QUICK_PLAY_POLICY}",
        batches=batches,
    )


def _se(x: np.ndarray) -> float:
    return float(x.std(ddof=1) / np.sqrt(len(x))) if len(x) > 1 else float("nan")
