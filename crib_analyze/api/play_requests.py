"""The requests of the play: which card to lay (:class:`PlayRequest`) and a recorded
game to grade (:class:`ReviewRequest`), each resolved as
:class:`~crib_analyze.api.requests.DiscardRequest` is."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from crib_analyze.api.capabilities import Engine, dispatch, label, play_policy, rules_of
from crib_analyze.errors import UsageError
from crib_analyze.position import parse_scores
from crib_analyze.rules import Rules
from crib_analyze.settings import PLAY_SAMPLES, POSITION_SAMPLES, ROLES, SEED, check_choice


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
    score: str | tuple[int, ...] | None = None  # rank by the chance of winning from it
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
        chosen = (
            self.policy if self.score is None or engine == "standard" else self.policy or "solver"
        )
        policy = play_policy("advise_play", rules, chosen, "policy")
        score = self.score
        if score is not None:
            if policy != "solver":
                raise UsageError("`score` ranks cards by the solver's play: leave out `policy`")
            if not self.has_starter:
                raise UsageError("`score` needs the `starter`: the shows after the play count it")
            if engine == "any-game":
                from crib_analyze.board.table_boards import check_score_rules

                check_score_rules(rules)
            score = parse_scores(score, len(rules.sides), rules.target)
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
