"""Requests: one frozen value per analysis, with the one :meth:`resolve` that states
which of its options go together.

A request holds what was asked, None where nothing was (the chosen engine's default then
applies). :meth:`DiscardRequest.resolve` fills the defaults, coerces the values and
checks them together, naming the first parameter that does not go; the engines trust a
resolved request. The command line builds a request from the options the user gave
(``crib_analyze.cli.arguments.asked_for``) and a Python caller from keywords, so both
meet the same one-line :class:`~crib_analyze.errors.UsageError`.

>>> DiscardRequest(role="dealer").resolve().opponent
'expert'
>>> DiscardRequest(game="three", seat="dealer").resolve().engine
'any-game'
>>> DiscardRequest(jokers=1, opponent="expert", role="pone").resolve().others
'expert'
>>> DiscardRequest(role="dealer", score="0-0", distribution=True).resolve()
Traceback (most recent call last):
...
crib_analyze.errors.UsageError: `score` ranks the throws; it does not go with `distribution`
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import Any, cast

from crib_analyze.api.capabilities import (
    CAPABILITIES,
    Engine,
    dispatch,
    label,
    play_policy,
    rules_of,
)
from crib_analyze.errors import UsageError
from crib_analyze.position import check_score, parse_score, parse_scores
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    DEFAULT_PEGGING,
    DEFAULT_PLAYERS,
    DEFAULT_SCORING,
    DEFAULT_TABLE_OPPONENT,
    GAME_BATCH,
    GAME_OTHERS,
    GAME_THROW_POLICIES,
    GAMES,
    GOALS,
    NEED,
    ODDS_GAMES,
    PEGGING_CHOICES,
    PENALTIES,
    PLAY_SAMPLES,
    POSITION_SAMPLES,
    ROLES,
    SAMPLED_POLICIES,
    SAMPLES,
    SCORINGS,
    SEED,
    SORT_KEYS,
    TABLE_LIMIT,
    TABLE_OPPONENTS,
    TOP,
    Penalty,
    check_choice,
)

#: the parameters only the standard game's discard engine honours (the role first: for
#: another game it names the seat)
STANDARD_DISCARD = CAPABILITIES["analyze"].standard_only

#: the variants the standard engine counts in points, against the random opponent and
#: without the play (by the parameter that asks for each)
POINTS_VARIANTS = ("throw_fives", "lowball", "jokers")


@dataclass(frozen=True)
class DiscardRequest:
    """How to rank a hand's throws (the hand itself travels beside it).

    ``game`` is a name of ``crib-analyze games`` or its :class:`~crib_analyze.rules.Rules`;
    the variant keywords (``penalty``, ``throw_fives``, ``lowball``, ``jokers``) are
    added to it. The standard game's engine answers when the deal is the standard one
    and no ``seat`` is named; else the any-game engine ranks ``seat``'s splits. The other
    fields are :func:`~crib_analyze.api.discards.analyze`'s. After :meth:`resolve`,
    ``game`` is the rules, ``engine`` names the engine, and every field the engine
    reads holds a value (the any-game engine keeps an ``opponent`` only where it
    answers the standard game with jokers against the expert or a sampled one).
    """

    role: str | None = None
    opponent: str | None = None
    policy: str | None = None
    samples: int | None = None
    seed: int | None = None
    model: Any = None
    need: int | None = None
    sort: str | None = None
    top: int | None = None
    distribution: bool | None = None
    pegging: str | bool | None = None
    score: str | tuple[int, ...] | None = None  # a game of more sides: one per side, yours first
    goal: str | None = None
    scoring: str | None = None
    position_samples: int | None = None
    game: str | Rules = "standard"
    seat: str | int | None = None
    others: str | None = None
    penalty: str | None = None
    throw_fives: bool | None = None
    lowball: bool | None = None
    jokers: int | None = None
    engine: Engine | None = None  # set by resolve()

    def resolve(self) -> DiscardRequest:
        """This request checked and completed: a one-line UsageError naming the first
        parameter that does not go with the others."""
        if self.engine is not None:
            return self  # resolved already
        rules = self._rules()
        if self.score is not None and self.distribution:
            raise UsageError("`score` ranks the throws; it does not go with `distribution`")
        played_out = self.score is not None and rules.variants
        if rules.jokers and self.model is not None:
            raise UsageError(
                "`model` does not go with `jokers`: the expert with jokers is the game "
                "models' (build-game-models --jokers N)"
            )
        if rules.plain.is_standard and self.seat is None and not played_out:
            if rules.jokers and self.opponent in ("expert", "sampled"):
                return self._joker_opponent(rules)
            return self._standard(rules)
        return self._any_game(rules)  # a score under a variant: games played out to the end

    def _joker_opponent(self, rules: Rules) -> DiscardRequest:
        """Jokers against the expert, or a sampled opponent: the standard engine counts
        jokers against the random opponent alone, so the any-game engine answers from the
        role's seat, the other seat's throws sampled by the expert model of a pack with
        jokers (``others`` expert; a sampled opponent's hands throwing their best
        against the random crib are the hand policy's: ``others`` hand)."""
        from crib_analyze.artifacts.game_models import game_model

        if self.role is None:
            raise UsageError(f"`opponent` {self.opponent} with `jokers` needs `role`")
        if self.others is not None:
            raise UsageError("`others` goes with `game` or `seat`, not `opponent`")
        if self.policy is not None:
            check_choice("policy", self.policy, SAMPLED_POLICIES)
            if self.opponent != "sampled":
                raise UsageError("`policy` applies to `opponent` sampled only")
        if self.pegging not in (None, "none", False):
            raise UsageError("`jokers` is counted without the play (`pegging` none)")
        by_hand = self.opponent == "sampled" and self.policy in (None, "random")
        if not by_hand and game_model(rules) is None:
            also = ", ".join(v for v in rules.variants if not v.startswith("jokers"))
            raise UsageError(
                f"no expert model plays jokers with {also or 'these rules'}: `opponent` "
                "random or sampled"
            )
        seat = replace(
            self, opponent=None, policy=None, pegging=None, seat=self.role,
            others="hand" if by_hand else "expert",
        )._any_game(rules)  # fmt: skip
        return replace(seat, opponent=self.opponent, policy=self.policy)  # as asked

    def _rules(self) -> Rules:
        rules = rules_of(self.game)
        if self.penalty is not None:
            check_choice("penalty", self.penalty, PENALTIES)
        penalty = self.penalty if self.penalty not in (None, "none") else rules.penalty
        return replace(
            rules, lowball=bool(self.lowball) or rules.lowball,
            throw_fives=bool(self.throw_fives) or rules.throw_fives,
            jokers=self.jokers if self.jokers else rules.jokers,
            penalty=cast(Penalty, penalty),
        )  # fmt: skip

    def _any_game(self, rules: Rules) -> DiscardRequest:
        seat = self.seat
        if self.role is not None:  # a role names the seat of that name
            if seat is not None and seat != self.role:
                raise UsageError(f"`{self.role}` contradicts `seat` {seat}")
            seat = self.role
        for name in STANDARD_DISCARD[1:]:  # all but the role
            if getattr(self, name) is not None:
                raise UsageError(f"`{name}` does not go with {label(rules)} yet")
        if seat is None and rules.plain.is_standard:  # a variant's score: by the role
            raise UsageError("`score` needs `role` (a score is valued for the dealer or the pone)")
        if seat is None:
            raise UsageError(f"say which seat: `seat` {'|'.join(rules.seat_names)}")
        rules.refuse_variants(
            "a seat's throws in another game", ("lowball", "throw", "penalty", "jokers")
        )
        rules.seat(seat)
        from crib_analyze.discard.any_game import default_others

        seed = SEED.default if self.seed is None else SEED.check(self.seed)
        if self.score is not None:  # by the chance of winning: the board, or games played out
            if self.others is not None:  # the others throw by the expert model
                raise UsageError("`others` does not go with `score`")
            if self.need is not None:
                raise UsageError("`need` does not go with `score`")
            samples = self.position_samples
            return replace(
                self, game=rules, engine="any-game", seat=seat, role=None, seed=seed,
                score=parse_scores(self.score, len(rules.sides), rules.target),
                others="expert",
                position_samples=POSITION_SAMPLES.default if samples is None
                else POSITION_SAMPLES.check(samples),
            )  # fmt: skip
        if self.position_samples is not None:
            raise UsageError("`position_samples` goes with `score`")
        if self.need is not None:
            NEED.check(self.need)
        others = self.others or default_others(rules)
        check_choice("others", others, GAME_OTHERS)
        return replace(
            self, game=rules, engine="any-game", others=others, seat=seat, role=None,
            samples=SAMPLES.default if self.samples is None else SAMPLES.check(self.samples),
            seed=seed,
        )  # fmt: skip

    def _standard(self, rules: Rules) -> DiscardRequest:
        if self.others is not None:
            raise UsageError("`others` goes with `game` (another game)")
        opponent, pegging = self.opponent, self.pegging
        for name in POINTS_VARIANTS:
            if not getattr(rules, name):
                continue
            if pegging not in (None, "none", False):
                raise UsageError(f"`{name}` is counted without the play (`pegging` none)")
            opponent, pegging = opponent or "random", "none"
        opponent = opponent or DEFAULT_OPPONENT
        pegging = DEFAULT_PEGGING if pegging is None else pegging
        if isinstance(pegging, str):
            check_choice("pegging", pegging, PEGGING_CHOICES)
        if self.role is not None:
            check_choice("role", self.role, ROLES)
        check_choice("opponent model", opponent, ("expert", "random", "sampled"))
        if self.policy is not None:
            check_choice("policy", self.policy, SAMPLED_POLICIES)
            if opponent != "sampled":
                raise UsageError("`policy` applies to `opponent` sampled only")
        uses_model = opponent == "expert" or (opponent == "sampled" and self.policy == "expert")
        if uses_model and rules.throw_fives and rules.lowball:
            from crib_analyze.discard.engine import model_variant

            model_variant(True, True)  # no expert model plays both: one line
        if self.model is not None and not uses_model:
            raise UsageError("`model` applies to `opponent` expert (or `policy` expert)")
        position = (self.goal, self.scoring, self.position_samples)
        if self.score is None and any(v is not None for v in position):
            raise UsageError("`goal`, `scoring` and `position_samples` go with `score`")
        if self.score is not None:
            if self.role is None:
                raise UsageError(
                    "`score` needs `role` (a score is valued for the dealer or the pone)"
                )
            if rules.penalty != "none":
                raise UsageError(
                    "a penalty for a zero is counted in points: it does not go with `score`"
                )
        if self.goal is not None:
            check_choice("goal", self.goal, GOALS)
        if self.scoring is not None:
            check_choice("scoring", self.scoring, tuple(SCORINGS))
        if self.position_samples is not None:
            POSITION_SAMPLES.check(self.position_samples)
        if self.sort is not None:
            check_choice("sort", self.sort, SORT_KEYS)
        if self.need is not None:
            NEED.check(self.need)
        if self.top is not None:
            TOP.check(self.top)
        return replace(
            self, game=rules, engine="standard", opponent=opponent, pegging=pegging,
            samples=SAMPLES.default if self.samples is None else SAMPLES.check(self.samples),
            seed=self.seed,  # None: a fresh seed for a sampled opponent
            distribution=bool(self.distribution), penalty=rules.penalty,
            throw_fives=rules.throw_fives, lowball=rules.lowball, jokers=rules.jokers,
        )  # fmt: skip


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
            if self.continuation and rules.lowball:
                raise UsageError("`continuation` does not go with `lowball` (two sides)")
            throws = self.throw_policy
            if throws is not None:
                check_choice("throw policy", throws, GAME_THROW_POLICIES)
            return replace(self, game=rules, engine=engine, play_policy=policy,
                           continuation=bool(self.continuation), throw_policy=throws,
                           scoring=sides_scoring(rules, self.scoring))  # fmt: skip
        players = DEFAULT_PLAYERS if self.players is None else self.players
        if isinstance(players, str) or len(players) != 2:
            raise UsageError(f"`players` must be two discard policies, got {players!r}")
        return replace(
            self, game=rules, engine=engine, play_policy=policy,
            players=(str(players[0]), str(players[1])),
            batch=GAME_BATCH.default if self.batch is None else self.batch,
        )  # fmt: skip


@dataclass(frozen=True)
class PlayRequest:
    """Which card to lay (see :func:`~crib_analyze.api.plays.advise_play`), the cards
    beside it: None where nothing was asked. After :meth:`resolve`, ``game`` is the
    rules, ``engine`` names the engine, ``policy``, ``samples`` and ``seed`` are set,
    and ``seat`` is a role ("dealer" or "pone") for the standard game's engine."""

    seat: str | int
    policy: str | None = None
    samples: int = PLAY_SAMPLES.default
    seed: int = SEED.default
    model: Any = None
    game: str | Rules = "standard"
    has_starter: bool = True  # another game's play is valued after the cut
    score: str | tuple[int, int] | None = None  # rank by the chance of winning from it
    engine: Engine | None = None

    def resolve(self) -> PlayRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {"model": self.model, "score": self.score}
        game = rules_of(self.game)
        if self.score is None:  # a penalty changes the shows, not the play
            game = replace(game, penalty="none")
        rules, engine = dispatch("advise_play", game, given)
        policy = play_policy("advise_play", rules, self.policy, "policy")
        score = self.score
        if score is not None:
            if policy != "solver":
                raise UsageError("`score` ranks cards by the solver's play: leave out `policy`")
            if not self.has_starter:
                raise UsageError("`score` needs the `starter`: the shows after the play count it")
            score = parse_score(score)
        samples, seed = PLAY_SAMPLES.check(self.samples), SEED.check(self.seed)
        seat = self.seat
        if engine == "any-game":
            if not self.has_starter:
                raise UsageError("`starter` is needed: the play of another game is valued after it")
            rules.seat(seat)
        else:
            if isinstance(seat, str):
                check_choice("seat", seat, ROLES)
            seat = rules.seat_names[rules.seat(seat)]
        return replace(self, game=rules, engine=engine, policy=policy, samples=samples,
                       seed=seed, seat=seat, score=score)  # fmt: skip


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


@dataclass(frozen=True)
class OddsRequest:
    """The chances from a score (see :func:`~crib_analyze.api.board.odds_rows`): the
    scores, None where nothing else was asked. After :meth:`resolve`, ``game`` is the
    rules, ``engine`` names the engine and its fields are set: ``scoring`` for the board
    table; for another game, ``method``: "board" (a game of two sides with a board, and
    none of ``games``, ``seed``, ``play_policy`` asked) or "simulation", with ``games``,
    ``seed`` and ``play_policy`` set."""

    scores: tuple[int, ...]
    dealer: bool | None = None
    scoring: str | None = None
    games: int | None = None
    seed: int | None = None
    play_policy: str | None = None
    game: str | Rules = "standard"
    engine: Engine | None = None
    method: str | None = None

    def resolve(self) -> OddsRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {"dealer": self.dealer, "scoring": self.scoring, "games": self.games,
                 "seed": self.seed, "play_policy": self.play_policy}  # fmt: skip
        rules, engine = dispatch("odds_rows", self.game, given)
        if engine == "any-game":
            from crib_analyze.artifacts.game_boards import game_board

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
            if all(a is None for a in asked) and game_board(rules) is not None:
                return replace(self, game=rules, engine=engine, method="board", scores=scores,
                               scoring=scoring)  # fmt: skip
            games = ODDS_GAMES.default if self.games is None else ODDS_GAMES.check(self.games)
            return replace(
                self, game=rules, engine=engine, games=games, method="simulation", scoring=scoring,
                seed=SEED.default if self.seed is None else SEED.check(self.seed),
                play_policy=play_policy("odds_rows", rules, self.play_policy, "play_policy"),
                scores=tuple(int(s) for s in self.scores),
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
class TableRequest:
    """A discard table to write (see :func:`~crib_analyze.api.tables.generate_table`):
    None where nothing was asked. After :meth:`resolve`, ``game`` is the rules,
    ``engine`` names the engine, and for the standard game ``opponent`` and ``restart``
    are set and ``shard`` is parsed."""

    opponent: str | None = None
    fmt: str | None = None
    limit: int | None = None
    shard: str | tuple[int, int] | None = None
    restart: bool | None = None
    model: Any = None
    game: str | Rules = "standard"
    engine: Engine | None = None

    def resolve(self) -> TableRequest:
        """This request checked and completed (a one-line UsageError naming the first
        parameter that does not go)."""
        if self.engine is not None:
            return self
        given = {"opponent": self.opponent, "model": self.model, "limit": self.limit,
                 "shard": self.shard, "restart": self.restart, "fmt": self.fmt}  # fmt: skip
        rules, engine = dispatch("generate_table", self.game, given)
        if engine == "any-game":
            if rules.plain.is_standard and rules.jokers:  # the table of a pack with jokers
                rules.refuse_variants(
                    "the discard table with jokers", ("jokers", "lowball", "penalty")
                )
                return replace(self, game=rules, engine=engine)
            if rules.plain.is_standard:  # a variant the standard table does not rank by
                rules.refuse_variants("the discard table", ("lowball", "penalty", "throw"))
            from crib_analyze.table.five_card import TABLE_GAMES

            if rules.name not in TABLE_GAMES:
                raise UsageError(
                    f"no table for {rules.name}: a seat's choice there is a split of ten "
                    "cards (keep four, pass four, throw two), too many hands to enumerate; "
                    "'discard --game' ranks one hand's splits"
                )
            rules.refuse_variants(f"the {rules.name} table", ("lowball", "penalty", "jokers"))
            return replace(self, game=rules, engine=engine)
        from crib_analyze.discard.engine import model_variant
        from crib_analyze.table.spec import parse_shard

        opponent = self.opponent or DEFAULT_TABLE_OPPONENT
        check_choice("opponent model for the table", opponent, TABLE_OPPONENTS)
        if opponent == "expert":
            model_variant(rules.throw_fives, rules.lowball)  # an expert model plays them
        if self.model is not None and opponent != "expert":
            raise UsageError("`model` applies to `opponent` expert")
        limit = None if self.limit is None else TABLE_LIMIT.check(self.limit)
        shard = parse_shard(self.shard) if isinstance(self.shard, str) else self.shard
        if shard is not None and self.fmt not in (None, "parquet"):
            raise UsageError("shards are written as Parquet (merge them, then choose the format)")
        return replace(self, game=rules, engine=engine, opponent=opponent, limit=limit,
                       shard=shard, restart=bool(self.restart))  # fmt: skip


@dataclass(frozen=True)
class ReviewRequest:
    """A recorded game to grade (see :func:`~crib_analyze.api.plays.review`). Records are
    the standard game's: another game is refused. After :meth:`resolve` the bounds are
    checked and ``game`` is the rules."""

    position_samples: int = POSITION_SAMPLES.default
    seed: int = SEED.default
    model: Any = None
    game: str | Rules = "standard"
    engine: Engine | None = None

    def resolve(self) -> ReviewRequest:
        """This request checked (a one-line UsageError naming the first parameter that
        does not go)."""
        if self.engine is not None:
            return self
        rules = rules_of(self.game)
        if not rules.is_standard:
            raise UsageError(f"review reads the standard game's records, not {label(rules)}")
        return replace(
            self, game=rules, engine="standard",
            position_samples=POSITION_SAMPLES.check(self.position_samples),
            seed=SEED.check(self.seed),
        )  # fmt: skip
