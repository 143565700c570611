"""The requests of the board: the chances from a score (:class:`OddsRequest`) and whole
games to play (:class:`SimulateRequest`), each resolved as
:class:`~crib_analyze.api.requests.DiscardRequest` is."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace

from crib_analyze.api.capabilities import Engine, dispatch, label, play_policy
from crib_analyze.errors import UsageError
from crib_analyze.position import check_score
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    DEFAULT_PLAYERS,
    DEFAULT_SCORING,
    GAME_BATCH,
    GAME_THROW_POLICIES,
    GAMES,
    ODDS_GAMES,
    SCORINGS,
    SEED,
    check_choice,
)


def sides_scoring(rules: Rules, scoring: str | None) -> str | None:
    """The match scoring of a game other than the standard one: ``scoring`` (the
    default unless given) for two sides; None for three or more, whose match points are
    the winner's (2, 3 with a skunk) and second place's, where asking for one is a
    one-line UsageError."""
    n = len(rules.sides)
    if n != 2:
        if scoring is not None:
            raise UsageError(
                f"`scoring` chooses the match points of two sides; {label(rules)} has {n} "
                "(the winner scores 2, or 3 with a skunk)"
            )
        return None
    scoring = scoring or DEFAULT_SCORING
    check_choice("scoring", scoring, tuple(SCORINGS))
    return scoring


def continuation_of(rules: Rules, continuation: bool | None) -> bool:
    """Whether the others play on for second place: ``continuation`` checked against
    the rules (three or more players each for themselves, not lowball; a one-line
    UsageError otherwise)."""
    if not continuation:
        return False
    if len(rules.sides) < 3:
        raise UsageError(
            f"`continuation` is the game of three or more players for second place; "
            f"{label(rules)} has {len(rules.sides)} sides"
        )
    if rules.lowball:
        raise UsageError("`continuation` does not go with `lowball` (two sides)")
    return True


@dataclass(frozen=True)
class OddsRequest:
    """The chances from a score (see :func:`~crib_analyze.api.board.odds_rows`): the
    scores, None where nothing else was asked. After :meth:`resolve`, ``game`` is the
    rules, ``engine`` names the engine and its fields are set: ``scoring`` for the board
    table; for another game, ``method``: "board" (a game of two sides or three players
    with a board: shipped, or under a variant one made on an earlier first use; and
    none of ``games``, ``seed``, ``play_policy`` asked) or "simulation", with ``games``,
    ``seed`` and ``play_policy`` set; ``continuation`` (three or more players: second
    place counted) a bool."""

    scores: tuple[int, ...]
    dealer: bool | None = None
    scoring: str | None = None
    games: int | None = None
    seed: int | None = None
    play_policy: str | None = None
    game: str | Rules = "standard"
    continuation: bool | None = None
    engine: Engine | None = None
    method: str | None = None

    def resolve(self) -> OddsRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {"dealer": self.dealer, "scoring": self.scoring, "games": self.games,
                 "seed": self.seed, "play_policy": self.play_policy,
                 "continuation": self.continuation}  # fmt: skip
        rules, engine = dispatch("odds_rows", self.game, given)
        if engine == "any-game":
            continuation = continuation_of(rules, self.continuation)
            from crib_analyze.artifacts.game_boards import game_board, made_board

            sides = len(rules.sides)
            if len(self.scores) != sides:
                raise UsageError(
                    f"give the scores of {rules.name}'s {sides} sides, from the dealer's "
                    f"left; got {len(self.scores)}"
                )
            scores = tuple(int(s) for s in self.scores)
            for score in scores:
                if not 0 <= score < rules.target:
                    raise UsageError(f"a score must be from 0 to {rules.target - 1}, got {score}")
            scoring = sides_scoring(rules, self.scoring)
            asked = (self.games, self.seed, self.play_policy)
            kept = game_board(rules) or (made_board(rules) if rules.variants else None)
            if all(a is None for a in asked) and kept is not None:
                return replace(self, game=rules, engine=engine, method="board", scores=scores,
                               scoring=scoring, continuation=continuation)  # fmt: skip
            games = ODDS_GAMES.default if self.games is None else ODDS_GAMES.check(self.games)
            return replace(
                self, game=rules, engine=engine, games=games, method="simulation", scoring=scoring,
                seed=SEED.default if self.seed is None else SEED.check(self.seed),
                play_policy=play_policy("odds_rows", rules, self.play_policy, "play_policy"),
                scores=tuple(int(s) for s in self.scores), continuation=continuation,
            )  # fmt: skip
        if len(self.scores) != 2:
            many = "two scores" if len(self.scores) > 2 else "both scores"
            raise UsageError(
                f"give {many}, mine and the opponent's (e.g. 95 100); got {len(self.scores)}"
            )
        mine = check_score("my score", self.scores[0])
        theirs = check_score("the opponent's score", self.scores[1])
        scoring = self.scoring or DEFAULT_SCORING
        check_choice("scoring", scoring, tuple(SCORINGS))
        return replace(self, game=rules, engine=engine, scores=(mine, theirs), scoring=scoring)


@dataclass(frozen=True)
class SimulateRequest:
    """Whole games to play (see :func:`~crib_analyze.api.board.simulate`): None where
    nothing was asked. After :meth:`resolve`, ``game`` is the rules, ``engine`` names
    the engine, ``play_policy`` is set, and so are ``players`` and ``batch`` for the
    standard game's engine."""

    games: int = GAMES.default
    players: tuple[str, str] | list[str] | None = None
    seed: int = SEED.default
    position_from: int | None = None
    position_samples: int | None = None
    candidates: int | None = None
    goal: str | None = None
    scoring: str | None = None
    batch: int | None = None
    scheduler: str | None = None
    record: str | os.PathLike[str] | None = None
    play_policy: str | None = None
    game: str | Rules = "standard"
    continuation: bool | None = None
    throw_policy: str | None = None
    engine: Engine | None = None

    def resolve(self) -> SimulateRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {
            "players": self.players, "position_from": self.position_from,
            "position_samples": self.position_samples, "candidates": self.candidates,
            "goal": self.goal, "scoring": self.scoring, "batch": self.batch,
            "scheduler": self.scheduler, "record": self.record,
            "continuation": self.continuation, "throw_policy": self.throw_policy,
        }  # fmt: skip
        rules, engine = dispatch("simulate", self.game, given)
        policy = play_policy("simulate", rules, self.play_policy, "play_policy")
        if engine == "any-game":
            continuation = continuation_of(rules, self.continuation)
            throws = self.throw_policy
            if throws is not None:
                check_choice("throw policy", throws, GAME_THROW_POLICIES)
            return replace(self, game=rules, engine=engine, play_policy=policy,
                           continuation=continuation, throw_policy=throws,
                           scoring=sides_scoring(rules, self.scoring))  # fmt: skip
        players = DEFAULT_PLAYERS if self.players is None else self.players
        if isinstance(players, str) or len(players) != 2:
            raise UsageError(f"`players` must be two discard policies, got {players!r}")
        return replace(
            self, game=rules, engine=engine, play_policy=policy,
            players=(str(players[0]), str(players[1])),
            batch=GAME_BATCH.default if self.batch is None else self.batch,
        )  # fmt: skip
