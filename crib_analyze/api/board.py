"""The public API of the board: the chance of winning from a score, how games end,
points per deal, whole simulated games."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from crib_analyze.board.meta import OddsMeta
from crib_analyze.errors import ModelError
from crib_analyze.position import (
    N_OUTCOMES,
    check_score,
    p_double_skunk,
    p_double_skunked,
    p_skunk,
    p_skunked,
    p_triple_skunk,
    p_triple_skunked,
    scoring_points,
)
from crib_analyze.results import Rows
from crib_analyze.rules import TARGET, Rules
from crib_analyze.settings import (
    DEFAULT_SCORING,
    GAMES,
    SEED,
    AnyGamePlayPolicy,
    GameThrowPolicy,
    Goal,
    PlayPolicy,
    Scoring,
)
from crib_analyze.verdicts import game_odds_verdict, odds_verdict

if TYPE_CHECKING:
    import pandas as pd

    from crib_analyze.artifacts.game_boards import ThreeBoard
    from crib_analyze.board.games import GameLog, GameSettings, GameStats
    from crib_analyze.board.table_games import TableStats


@dataclass(frozen=True)
class Odds:
    """How the game ends from a position, for the player on ``my_score``.

    ``p_skunk`` is the chance of winning by a skunk or more (the opponent under 91),
    ``p_double_skunk`` by a double (under 61), ``p_triple_skunk`` a triple (under 31);
    ``p_skunked`` and the rest are the same for losing. ``match_points`` is the
    expected match points under ``scoring``, what I win minus what I lose;
    ``my_match_points`` only what I win. ``table_error`` is the Monte Carlo error of
    the board table (root mean square over positions, from the provenance).
    """

    my_score: int
    opp_score: int
    dealer: bool
    scoring: str
    p_win: float
    p_skunk: float
    p_double_skunk: float
    p_triple_skunk: float
    p_skunked: float
    p_double_skunked: float
    p_triple_skunked: float
    match_points: float
    my_match_points: float
    deals_left: float
    table_error: float

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def win_probability(my_score: int, opp_score: int, dealer: bool) -> float:
    """The chance that the player on ``my_score`` wins, ``dealer`` if it deals now.

    >>> round(win_probability(0, 0, dealer=True), 2)  # the first dealer
    0.56
    >>> win_probability(120, 0, dealer=False)  # the pone counts first: it pegs out
    1.0
    """
    from crib_analyze.artifacts.board_table import load_board

    return load_board().win_at(my_score, opp_score, dealer)


def odds(my_score: int, opp_score: int, dealer: bool, scoring: Scoring = DEFAULT_SCORING) -> Odds:
    """Each way the game can end from a position, and the expected match points.

    >>> o = odds(95, 100, dealer=True)
    >>> 0.5 < o.p_win < 0.55 and o.p_skunk == 0 and o.scoring == "tournament"
    True
    """
    from crib_analyze.artifacts.board_table import load_board

    points = scoring_points(scoring)
    mine, theirs = check_score("my score", my_score), check_score("the opponent's score", opp_score)
    board = load_board()
    v = board.outcomes()[mine, theirs, int(bool(dealer))]
    return Odds(
        my_score=mine,
        opp_score=theirs,
        dealer=bool(dealer),
        scoring=scoring,
        p_win=board.win_at(mine, theirs, dealer),
        p_skunk=float(p_skunk(v)),
        p_double_skunk=float(p_double_skunk(v)),
        p_triple_skunk=float(p_triple_skunk(v)),
        p_skunked=float(p_skunked(v)),
        p_double_skunked=float(p_double_skunked(v)),
        p_triple_skunked=float(p_triple_skunked(v)),
        match_points=float(v @ points),
        my_match_points=float(v @ np.maximum(points, 0.0)),
        deals_left=float(board.deals_left()[mine, theirs, int(bool(dealer))]),
        table_error=float(board.provenance.get("win_error", {}).get("rms", float("nan"))),
    )


def odds_rows(
    *scores: int,
    dealer: bool | None = None,
    scoring: Scoring | None = None,
    games: int | None = None,
    seed: int | None = None,
    play_policy: AnyGamePlayPolicy | None = None,
    game: str | Rules = "standard",
    continuation: bool | None = None,
) -> Rows:
    """The chances of the game from ``scores``, as rows.

    **The standard game**: two scores, mine and the opponent's; :func:`odds` for one
    seat (``dealer``), or both (None: you deal, then you are pone), read from the board
    table; ``attrs`` carries its provenance.

    **Any other game or variant** (``game``): one score per side, in the order of the
    sides' first seats from the dealer's left (the dealer's side last in two-sided
    games), the dealer about to deal: each side's chance to win (``win``, with
    ``win_se``), read from the game's board (a game of two sides or of three players
    without variants, and none of ``games``, ``seed``, ``play_policy`` given) or by
    simulating ``games`` games to the end with ``seed``, every seat laying by
    ``play_policy`` ("lookahead" unless given, or "greedy"). With two sides each side
    also gets ``p_skunk``, ``p_skunked`` and ``match_points`` under ``scoring`` (won
    less lost; ``match_points_se`` when simulated); with three or more ``scoring`` is
    refused, and three players give each seat ``p_skunk`` (a win with a loser short of
    the skunk line) and ``match_points`` (2 a win, 3 a skunk win). With
    ``continuation`` (three or more players) the others play on for second place: each
    seat gets ``p_second``, and three players' match points count 1 for it.

    >>> rows = odds_rows(0, 0)  # the first deal: one of us deals and wins more often
    >>> rows["dealer"].tolist(), round(float(rows["p_win"].sum()), 3)
    ([True, False], 1.0)
    >>> rows = odds_rows(118, 100, 100, game="three")  # from three's board
    >>> rows["seats"].tolist(), bool(rows["win"][0] > rows["win"][1]), rows.meta.method
    (['left', 'middle', 'dealer'], True, 'board table')
    >>> rows = odds_rows(118, 100, 60, game="three", continuation=True)  # second place
    >>> bool(rows["p_second"][1] > rows["p_second"][2]), round(float(rows["p_second"].sum()), 3)
    (True, 1.0)
    """
    from crib_analyze.api.board_requests import OddsRequest

    r = OddsRequest(scores, dealer, scoring, games, seed, play_policy, game,
                    continuation).resolve()  # fmt: skip
    if r.method == "board":
        return _board_odds(
            cast(Rules, r.game), r.scores, cast(Scoring, r.scoring), bool(r.continuation)
        )
    if r.engine == "any-game":
        return _simulated_odds(
            cast(Rules, r.game), r.scores, cast(int, r.games), cast(int, r.seed),
            cast(AnyGamePlayPolicy, r.play_policy), cast("Scoring | None", r.scoring),
            bool(r.continuation),
        )  # fmt: skip
    from crib_analyze.artifacts.board_table import load_board

    seats = [True, False] if dealer is None else [bool(dealer)]
    chosen = cast(Scoring, r.scoring)
    records = [odds(r.scores[0], r.scores[1], seat, chosen).as_dict() for seat in seats]
    board = dict(load_board().provenance)
    rows = Rows.of_records(records, board)
    return Rows(rows.columns, board, OddsMeta(board=board, verdict=odds_verdict(rows)))


def _board_odds(
    rules: Rules, scores: Sequence[int], scoring: Scoring, continuation: bool = False
) -> Rows:
    """:func:`odds_rows` of another game of two sides, read from its board: each side's
    chance, the dealer's side about to deal (``win_se`` the board's sampling error, its
    root mean square over the positions), its chances of skunking and being skunked
    and its match points under ``scoring``, won less lost."""
    from crib_analyze.artifacts.game_boards import ThreeBoard, game_board, made_board

    found = game_board(rules) or made_board(rules)
    assert found is not None  # the request chose the board because there is one
    board, provenance = found
    if isinstance(board, ThreeBoard):
        return _three_odds(rules, board, provenance, scores, continuation)
    sides = rules.sides
    dealer_side = next(i for i, seats in enumerate(sides) if rules.dealer in seats)
    names = rules.seat_names
    error = float(provenance.get("win_error", {}).get("rms", 0.0))
    records = []
    for side, seats in enumerate(sides):
        mine, theirs = int(scores[side]), int(scores[1 - side])
        win = board.win_at(mine, theirs, side == dealer_side)
        v = np.asarray(board.values[mine, theirs, int(side == dealer_side), :N_OUTCOMES])
        records.append(
            {"seats": "+".join(names[s] for s in seats), "score": mine, "win": win,
             "win_se": error, "p_skunk": float(p_skunk(v)), "p_skunked": float(p_skunked(v)),
             "match_points": float(v @ scoring_points(scoring))}
        )  # fmt: skip
    meta = OddsMeta(
        game=rules.name, method="board table", board=provenance, target=rules.target,
        play_policy=str(provenance.get("play_policy", "")), scoring=scoring,
        lowball=rules.lowball, notes=rules.variant_rules,
    )  # fmt: skip
    rows = Rows.of_records(records, meta=meta)
    return Rows(rows.columns, meta=replace(meta, verdict=game_odds_verdict(rows)))


def _three_odds(
    rules: Rules,
    board: ThreeBoard,
    provenance: dict[str, Any],
    scores: Sequence[int],
    continuation: bool,
) -> Rows:
    """:func:`odds_rows` of a game of three players, read from its board: each seat's
    chance of winning (``win_se`` the board's sampling error, its root mean square over
    the positions), of winning with a skunk, and its match points (the winner takes 2,
    or 3 with a loser short of the skunk line); with ``continuation`` its chance of
    second place (``p_second``), which adds 1 to its match points."""
    from crib_analyze.artifacts.game_boards import REBUILD_THREE
    from crib_analyze.rules import SECOND_POINTS, SKUNK_POINTS, WIN_POINTS

    if continuation and not board.has_second():
        raise ModelError(
            f"the board of {rules.name} in use was made before second place was solved: "
            f"rebuild it with `{REBUILD_THREE}`"
        )
    left, middle, dealer = (int(s) for s in scores)
    win, skunk, second = board.chances((left, middle, dealer))
    error = float(provenance.get("win_error", {}).get("rms", 0.0))
    records = []
    for s, name in enumerate(rules.seat_names):
        points = WIN_POINTS * (win[s] - skunk[s]) + SKUNK_POINTS * skunk[s]
        record: dict[str, Any] = {"seats": name, "score": int(scores[s]), "win": float(win[s]),
                                  "win_se": error, "p_skunk": float(skunk[s])}  # fmt: skip
        if continuation:
            record["p_second"] = float(second[s])
            points += SECOND_POINTS * second[s]
        record["match_points"] = float(points)
        records.append(record)
    meta = OddsMeta(
        game=rules.name, method="board table", board=provenance, target=rules.target,
        play_policy=str(provenance.get("play_policy", "")), notes=rules.variant_rules,
        continuation=continuation,
    )  # fmt: skip
    rows = Rows.of_records(records, meta=meta)
    return Rows(rows.columns, meta=replace(meta, verdict=game_odds_verdict(rows)))


def _simulated_odds(
    rules: Rules, scores: Sequence[int], games: int, seed: int, play_policy: AnyGamePlayPolicy,
    scoring: Scoring | None, continuation: bool = False,
) -> Rows:  # fmt: skip
    """:func:`odds_rows` of another game (a resolved request's): each side's chance, by
    simulated games; with two sides (``scoring`` set) also its chances of skunking and
    being skunked and its match points, won less lost, with their standard error; with
    three players its chance of a skunk win and its match points; with
    ``continuation`` its chance of second place."""
    from crib_analyze.board.table_games import (
        TableRun,
        simulate_table,
        throw_policy_of,
    )

    sides = rules.sides
    start = tuple(int(s) for s in scores)
    run = TableRun(rules, seed=seed, play_policy=play_policy, start=start,
                   first_dealer=rules.dealer, scoring=scoring or DEFAULT_SCORING,
                   continuation=continuation)  # fmt: skip
    stats = simulate_table(games, run)
    names = rules.seat_names
    labels = ["+".join(names[s] for s in seats) for seats in sides]
    records: list[dict[str, Any]] = []
    for side, label in enumerate(labels):
        record: dict[str, Any] = {"seats": label, "score": start[side], "win": stats.wins[label],
                                  "win_se": stats.wins_se[label]}  # fmt: skip
        if scoring is not None:  # two sides
            record.update(
                p_skunk=stats.skunk_wins[label], p_skunked=stats.skunk_wins[labels[1 - side]],
                match_points=stats.match_points[label],
                match_points_se=stats.match_points_se[label],
            )  # fmt: skip
        elif label in stats.match_points:  # three players
            record["p_skunk"] = stats.skunk_wins[label]
        if continuation:
            record.update(p_second=stats.second_places[label],
                          p_second_se=stats.second_places_se[label])  # fmt: skip
        if scoring is None and label in stats.match_points:
            record.update(match_points=stats.match_points[label],
                          match_points_se=stats.match_points_se[label])  # fmt: skip
        records.append(record)
    throws = throw_policy_of(rules, None)
    meta = OddsMeta(
        game=rules.name, games=games, seed=seed, play_policy=play_policy, method="simulation",
        lowball=rules.lowball, target=rules.target, notes=rules.variant_rules,
        throws="the expert model" if throws == "expert" else "the hand policy", scoring=scoring,
        continuation=continuation,
    )  # fmt: skip
    rows = Rows.of_records(records, meta=meta)
    return Rows(rows.columns, meta=replace(meta, verdict=game_odds_verdict(rows)))


def board_frame(scoring: Scoring = DEFAULT_SCORING) -> pd.DataFrame:
    """Every position of the board (121 x 121 x who deals), one row each:
    ``my_score``, ``opp_score``, ``dealer``, ``p_win``, ``p_skunk``, ``p_skunked``,
    ``match_points`` (under ``scoring``), ``deals_left``; ``df.attrs`` is the board
    table's provenance.

    >>> df = board_frame()
    >>> len(df), round(float(df.query("my_score == 0 and opp_score == 0")["p_win"].sum()), 3)
    (29282, 1.0)
    """
    from crib_analyze.artifacts.board_table import load_board
    from crib_analyze.frames import board_positions_frame

    scoring_points(scoring)  # checks the name
    return board_positions_frame(load_board(), scoring)


def deal_points() -> pd.DataFrame:
    """How many points a deal brings each role, from each source, as a distribution:
    one row per ``role`` (dealer, pone), ``source`` (heels, pegging, hand, crib, total)
    and ``points``, with the ``deals`` that scored it and their ``share``, over the
    simulated deals the board table was built on (``df.attrs``: its provenance).

    >>> df = deal_points()
    >>> heels = df.query("role == 'dealer' and source == 'heels'").set_index("points")
    >>> round(float(heels.loc[2, "share"]), 3)  # a jack starter: 4 in 52
    0.077
    """
    from crib_analyze.artifacts.board_table import load_board
    from crib_analyze.frames import deal_points_frame

    board = load_board()
    if not board.provenance.get("per_deal_histogram"):
        raise ModelError("this board table has no per-deal histograms: rebuild it (build-board)")
    return deal_points_frame(board.provenance)


def plot_board(path: str | os.PathLike[str]) -> Path:
    """Draw the win-probability surface over the board, for the dealer and the pone,
    to ``path`` (.png or .svg; needs matplotlib)."""
    from crib_analyze.artifacts.board_table import load_board
    from crib_analyze.plots import board_heatmaps, check_plot

    check_plot(path)
    board = load_board()
    return board_heatmaps(board.win(), board.provenance, path)


def simulate(
    games: int = GAMES.default,
    players: tuple[str, str] | list[str] | None = None,
    seed: int = SEED.default,
    position_from: int | None = None,
    position_samples: int | None = None,
    candidates: int | None = None,
    goal: Goal | None = None,
    scoring: Scoring | None = None,
    batch: int | None = None,
    scheduler: str | None = None,
    log: Callable[[GameLog], None] | None = None,
    record: str | os.PathLike[str] | None = None,
    play_policy: PlayPolicy | AnyGamePlayPolicy | None = None,
    game: str | Rules = "standard",
    continuation: bool | None = None,
    throw_policy: GameThrowPolicy | None = None,
) -> GameStats | TableStats:
    """Play ``games`` full games of ``game`` (a name of ``crib-analyze games`` or its
    :class:`~crib_analyze.rules.Rules`, variants and all) and summarise them.

    **The standard game** (an even number of games, between two discard policies): the
    first dealer's and player 0's win rates with standard errors, deals per game, points
    per deal by role and source, skunks, margins (a :class:`GameStats`).
    ``players`` are "expert" (the default: the best response to the expert model, the
    play counted: what ``discard`` recommends), "points" (hand and crib only), "position"
    (as the expert until either score reaches ``position_from``, then the ``candidates``
    best throws valued from the score by ``position_samples`` simulated deals and the
    board table, by ``goal`` under ``scoring``), "mixed" (the expert model's rank-level
    mixed policy) or "table" (the classic player: the hand's mean plus or minus the
    shipped crib table's mean for the thrown ranks, against a random opponent). Both
    lay their cards by ``play_policy`` (the solver unless given; "lookahead" is far
    faster: see ``crib-analyze simulate --help``). Games 2k and 2k+1
    deal the same cards with the first dealer swapped (duplicate pairs). The same
    ``seed`` gives the same games for any ``batch`` and threads, or on a Dask
    ``scheduler`` (an address). ``record`` (a file) receives every game from player 0's
    side in the record format that :func:`~crib_analyze.api.plays.review` reads
    (``docs/review.md``).

    **Any other game or variant** (a :class:`TableStats`): the share of games won by
    each seat of the first deal (each side, in partnerships), deals per game, points per
    deal by seat and source, skunks and, with three players, match points (2 a win, 3 a
    skunk, 1 for second place in the ``continuation`` game). Every seat throws by
    ``throw_policy``: "expert" (the default where the game has an expert model: the
    kept hand's mean over the starters and the crib's by the thrown ranks as the seats
    throw, :mod:`crib_analyze.artifacts.game_models`) or "hand" (the hand policy: the
    crib's with random other cards; the default elsewhere); every seat lays by
    ``play_policy`` (see ``crib-analyze simulate --help``); game g's first dealer is
    ``g % players``. The options of the standard game's engine are refused
    there, in one line (:mod:`crib_analyze.api.capabilities`).

    ``log`` gets the progress, first with 0 games done once the inputs are checked.

    >>> s = simulate(200, seed=1)
    >>> s.games, s.player0_wins  # the same policy on both sides of duplicate pairs
    (200, 0.5)
    >>> s = simulate(40, seed=1, game="five-card")
    >>> s.games, sorted(s.wins), round(sum(s.wins.values()), 6)
    (40, ['dealer', 'pone'], 1.0)
    """
    from crib_analyze.api.board_requests import SimulateRequest

    r = SimulateRequest(
        games, players, seed, position_from, position_samples, candidates, goal, scoring,
        batch, scheduler, record, play_policy, game, continuation, throw_policy,
    ).resolve()  # fmt: skip
    if r.engine == "any-game":
        from crib_analyze.board.table_games import TableRun, simulate_table

        run = TableRun(
            cast(Rules, r.game), seed=seed, play_policy=cast(AnyGamePlayPolicy, r.play_policy),
            continuation=bool(r.continuation),
            throw_policy=cast("GameThrowPolicy | None", r.throw_policy),
            scoring=cast(Scoring, r.scoring or DEFAULT_SCORING),
        )  # fmt: skip
        return simulate_table(games, run, log=log)
    from crib_analyze.board.games import GameSettings

    asked = {
        "position_from": r.position_from, "position_samples": r.position_samples,
        "candidates": r.candidates, "goal": r.goal, "scoring": r.scoring,
    }  # fmt: skip
    chosen: dict[str, Any] = {k: v for k, v in asked.items() if v is not None}
    settings = GameSettings(players=cast(tuple[str, str], r.players), seed=seed,
                            play_policy=cast(str, r.play_policy), **chosen)  # fmt: skip
    return _simulate_standard(games, settings, cast(int, r.batch), scheduler, log, record)


def _simulate_standard(
    games: int, settings: GameSettings, batch: int, scheduler: str | None,
    log: Callable[[GameLog], None] | None, record: str | os.PathLike[str] | None,
) -> GameStats:  # fmt: skip
    """:func:`simulate` by the standard game's engine (and its ``record``)."""
    from crib_analyze.api.files import output_file
    from crib_analyze.board.games import simulate as run

    target = None if record is None else output_file(record, Path(record))
    stats = run(games, settings, batch=batch, log=log, scheduler=scheduler, history=bool(target))
    if target is not None:
        from crib_analyze.game_review.record import games_record
        from crib_analyze.storage.atomic import atomic_open

        kept = [b.history for b in stats.batches if b.history is not None]
        with atomic_open(target) as fh:
            fh.write(games_record(np.concatenate(kept)))
    return stats


def match_points(
    games: Sequence[tuple[int, int]],
    scoring: Scoring = DEFAULT_SCORING,
    first_to: int = 7,
    target: int = TARGET,
) -> pd.DataFrame:
    """Keep the score of a two-player match: ``games`` as (winner 0 or 1, the loser's
    final score), in order. One row per game: ``points`` (the game's match points to
    its winner under ``scoring``) and each player's running total; ``attrs`` give the
    match's ``winner`` and the game that ``decided`` it (None while it goes on), and
    whether a triple skunk won it ``outright`` (free-triple). A game after the match
    is decided is a usage error. Games to 61 (``target``) skunk short of 46, double
    (the lurch) short of 31 and triple short of 16: the lines are three quarters, half
    and a quarter of the target.

    >>> df = match_points([(0, 100), (1, 80), (0, 50)], "free", first_to=5)
    >>> df.points.tolist(), df.attrs["winner"], df.attrs["decided"]
    ([1, 2, 4], 0, 3)
    >>> match_points([(0, 50), (1, 40), (0, 20)], "free", first_to=9, target=61).points.tolist()
    [1, 2, 4]
    """
    import pandas as pd

    from crib_analyze.board.match_points import play_match

    result = play_match([(int(w), int(s)) for w, s in games], scoring, first_to, target)
    frame = pd.DataFrame(
        {
            "game": range(1, len(result.points) + 1),
            "winner": [int(w) for w, _ in games],
            "loser_score": [int(s) for _, s in games],
            "points": list(result.points),
            "total_0": [t[0] for t in result.totals],
            "total_1": [t[1] for t in result.totals],
        }
    )
    frame.attrs.update(
        scoring=scoring, first_to=first_to, target=target, winner=result.winner,
        decided=result.decided_at,
        outright=result.outright,
    )  # fmt: skip
    return frame
