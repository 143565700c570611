"""Requests: one frozen value per analysis, with the one :meth:`resolve` that states
which of its options go together. :class:`DiscardRequest` is here; the others are in
the modules of their engines (:mod:`~crib_analyze.api.play_requests`,
:mod:`~crib_analyze.api.board_requests`, :mod:`~crib_analyze.api.table_requests`), and
named here too.

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

from dataclasses import dataclass, replace
from typing import Any, cast

from crib_analyze.api.capabilities import (
    CAPABILITIES,
    Engine,
    label,
    rules_of,
)
from crib_analyze.errors import UsageError
from crib_analyze.position import parse_scores
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    DEFAULT_PEGGING,
    GAME_OTHERS,
    GOALS,
    NEED,
    PEGGING_CHOICES,
    PENALTIES,
    POSITION_SAMPLES,
    ROLES,
    SAMPLED_POLICIES,
    SAMPLES,
    SCORINGS,
    SEED,
    SORT_KEYS,
    TOP,
    Penalty,
    check_choice,
)

#: the parameters only the standard game's discard engine honours (the role first: for
#: another game it names the seat)
STANDARD_DISCARD = CAPABILITIES["analyze"].standard_only

#: the variants the standard engine counts in points, against the random opponent (or
#: a model built under the variant), the play only simulated (by the parameter that
#: asks for each)
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
        if self.role is None:
            raise UsageError(f"`opponent` {self.opponent} with `jokers` needs `role`")
        if self.others is not None:
            raise UsageError("`others` goes with `game` or `seat`, not `opponent`")
        if self.policy is not None:
            check_choice("policy", self.policy, SAMPLED_POLICIES)
            if self.opponent != "sampled":
                raise UsageError("`policy` applies to `opponent` sampled only")
        by_hand = self.opponent == "sampled" and self.policy in (None, "random")
        seat = replace(
            self, opponent=None, policy=None, seat=self.role,
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
        pegging = self._seat_pegging()
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
        if pegging is not None and self.distribution:
            raise UsageError("`pegging` ranks the splits; it does not go with `distribution`")
        others = self.others or default_others(rules)
        check_choice("others", others, GAME_OTHERS)
        return replace(
            self, game=rules, engine="any-game", others=others, seat=seat, role=None,
            samples=SAMPLES.default if self.samples is None else SAMPLES.check(self.samples),
            seed=seed, pegging=pegging,
        )  # fmt: skip

    def _seat_pegging(self) -> str | None:
        """A seat's play: "simulated" (or None, not counted); the pegging table is the
        standard game's, and a score plays each deal out by the lookahead."""
        pegging = self.pegging
        if pegging in (None, "none", False):
            return None
        if pegging in ("simulated", "exact"):
            if self.score is not None:
                raise UsageError(
                    "`pegging` does not go with `score`: each deal's play is in the chance "
                    "of winning already"
                )
            return "simulated"
        if pegging in ("table", True):
            raise UsageError(
                "the pegging table is the standard game's: a seat's play is counted "
                "simulated (`pegging` simulated)"
            )
        check_choice("pegging", str(pegging), PEGGING_CHOICES)
        return None

    def _standard(self, rules: Rules) -> DiscardRequest:
        if self.others is not None:
            raise UsageError("`others` goes with `game` (another game)")
        opponent, pegging = self.opponent, self.pegging
        for name in POINTS_VARIANTS:
            if not getattr(rules, name):
                continue
            if pegging in ("simulated", "exact"):
                if name == "jokers":
                    opponent = opponent or "random"
                continue  # the play of these cards, the other's hand dealt by its rule
            if pegging not in (None, "none", False):
                raise UsageError(
                    f"`{name}` counts the play only simulated (`pegging` simulated): "
                    "the pegging table is the plain game's"
                )
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


#: the other requests, each in the module of its engines (imported when first named, so
#: a process that analyses a discard does not build them)
ELSEWHERE = {
    "OddsRequest": "crib_analyze.api.board_requests",
    "SimulateRequest": "crib_analyze.api.board_requests",
    "PlayRequest": "crib_analyze.api.play_requests",
    "ReviewRequest": "crib_analyze.api.play_requests",
    "TableRequest": "crib_analyze.api.table_requests",
}


def __getattr__(name: str) -> Any:
    if name in ELSEWHERE:
        from importlib import import_module

        return getattr(import_module(ELSEWHERE[name]), name)
    raise AttributeError(f"module 'crib_analyze.api.requests' has no attribute {name!r}")
