"""A match of games kept game by game: the match points each game gives its winner
(:func:`~crib_analyze.position.game_points`, by the scoring's skunk lines) and who wins
the match, when (:func:`play_match`)."""

from __future__ import annotations

from dataclasses import dataclass

from crib_analyze.errors import UsageError
from crib_analyze.position import game_points
from crib_analyze.rules import TARGET, skunk_lines
from crib_analyze.settings import MATCH_WINNING_TRIPLE


@dataclass(frozen=True)
class MatchResult:
    """A match game by game: each game's points to its winner, both players' running
    totals, and who won the match at which game (None: not over yet)."""

    points: tuple[int, ...]
    totals: tuple[tuple[int, int], ...]
    winner: int | None
    decided_at: int | None  # the game (1-based) that decided it
    outright: bool  # decided by a triple skunk (free-triple)


def play_match(
    games: list[tuple[int, int]], scoring: str, first_to: int, target: int = TARGET
) -> MatchResult:
    """Keep a match: ``games`` (each to ``target``) as (winner 0 or 1, the loser's final
    score) in order, under ``scoring``, to ``first_to`` match points. A game after the
    match is decided is a usage error.

    >>> r = play_match([(0, 100), (1, 80), (0, 50)], "free", 5)
    >>> r.totals[-1], r.winner, r.decided_at
    ((5, 2), 0, 3)
    """
    if first_to < 1:
        raise UsageError(f"a match is to 1 match point or more, got {first_to}")
    totals = [0, 0]
    points: list[int] = []
    running: list[tuple[int, int]] = []
    winner = decided = None
    outright = False
    for n, (who, loser) in enumerate(games, start=1):
        if winner is not None:
            raise UsageError(f"the match was decided at game {decided}: game {n} is after it")
        if who not in (0, 1):
            raise UsageError(f"a game's winner is player 0 or 1, got {who!r}")
        pts = game_points(loser, scoring, target)
        totals[who] += pts
        points.append(pts)
        running.append((totals[0], totals[1]))
        triple = loser < skunk_lines(target)[-1] and scoring in MATCH_WINNING_TRIPLE
        if totals[who] >= first_to or triple:
            winner, decided, outright = who, n, triple
    return MatchResult(tuple(points), tuple(running), winner, decided, outright)
