"""Which engine answers which game: the capability table, and the refusals it gives.

The standard game (two players, six cards, no variant) has engines of its own: the
expert model, the play solver, the board table. Every other game of the rules, and
every variant, is played by the any-game engines (rollouts, the hand policy). Each
public function of a capability takes the game as one ``game`` argument (a name or a
:class:`~crib_analyze.rules.Rules`) and sends it to the engine that plays it; the
parameters only one engine honours are listed here, once, and a request that gives one
to the other engine is refused in one line that names it.

>>> from crib_analyze.rules import game
>>> engine_for(game("standard")), engine_for(game("standard", lowball=True))
('standard', 'any-game')
>>> dispatch("simulate", "three", {"players": ("expert", "expert")})
Traceback (most recent call last):
...
crib_analyze.errors.UsageError: `players` does not go with `game` three
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from crib_analyze.errors import UsageError
from crib_analyze.rules import Rules
from crib_analyze.rules import game as game_named
from crib_analyze.settings import (
    ANY_GAME_PLAY_POLICIES,
    DEFAULT_PLAY_POLICY,
    PLAY_POLICIES,
    SOLVED_ADVICE_POLICY,
)

Engine = Literal["standard", "any-game"]


@dataclass(frozen=True)
class Capability:
    """One capability's engines: the parameters only the standard game's engine honours,
    those only the any-game engine honours, and each engine's play policies (the first
    its default)."""

    name: str
    standard_only: tuple[str, ...] = ()
    any_game_only: tuple[str, ...] = ()
    standard_policies: tuple[str, ...] = (DEFAULT_PLAY_POLICY, *PLAY_POLICIES)
    any_game_policies: tuple[str, ...] = ANY_GAME_PLAY_POLICIES
    #: the any-game default where the rules' play is solved (Rules.play_solved), if other
    solved_default: str | None = None
    #: the variants of the standard game its own engine plays here (by their first word)
    standard_variants: tuple[str, ...] = ()

    def engine(self, rules: Rules) -> Engine:
        """The engine that plays ``rules`` here: :func:`engine_for`, but the standard
        game's own for a variant of it that it plays.

        >>> CAPABILITIES["generate_table"].engine(game_named("standard", lowball=True))
        'standard'
        """
        variants = [v.split()[0] for v in rules.variants]
        if rules.plain.is_standard and set(variants) <= set(self.standard_variants):
            return "standard"
        return engine_for(rules)

    def policies(self, engine: Engine) -> tuple[str, ...]:
        """The play policies ``engine`` lays cards by, its default first."""
        chosen = self.standard_policies if engine == "standard" else self.any_game_policies
        return tuple(dict.fromkeys(chosen))


_SIMULATE_STANDARD = (
    "players", "position_from", "position_samples", "candidates", "goal", "batch",
    "scheduler", "record",
)  # fmt: skip

#: the discard engine's own: another game's seat is ranked exactly with random throws,
#: or with ``others``' hand policy (the role first: for another game it names the seat)
_ANALYZE_STANDARD = (
    "role", "opponent", "policy", "model", "sort", "goal", "scoring",
)  # fmt: skip

#: every capability with two engines, by the name of its public function
CAPABILITIES: dict[str, Capability] = {
    c.name: c
    for c in (
        # discard: the engine is chosen by DiscardRequest.resolve (a seat asks for the other)
        Capability("analyze", standard_only=_ANALYZE_STANDARD),
        Capability(
            "simulate",
            standard_only=_SIMULATE_STANDARD,
            any_game_only=("continuation", "throw_policy"),
        ),
        Capability(
            "odds_rows",
            standard_only=("dealer",),
            any_game_only=("games", "seed", "play_policy", "continuation"),
        ),
        Capability(
            "advise_play",
            standard_only=("model",),
            solved_default=SOLVED_ADVICE_POLICY,
        ),
        # the board table's plot (the command line's --plot beside odds)
        Capability("plot_board", standard_only=("plot_path",)),
        Capability(
            "generate_table",
            standard_only=("opponent", "model", "limit", "shard", "restart", "fmt"),
            standard_variants=("lowball", "penalty", "throw"),  # what a throw is worth
        ),
    )
}


#: parameters named with their twin in a refusal (a seat is either)
SHOWN = {"dealer": "`dealer` or `pone`"}


def rules_of(game: str | Rules) -> Rules:
    """The rules of ``game``: a name of :data:`~crib_analyze.rules.GAMES`, or the rules."""
    return game if isinstance(game, Rules) else game_named(game)


def engine_for(rules: Rules) -> Engine:
    """The engine that plays ``rules``: the standard game's own, or the any-game one."""
    return "standard" if rules.is_standard else "any-game"


def label(rules: Rules) -> str:
    """The game and variants of ``rules`` as a request names them (parameters in
    backticks, shown by the command line as its options).

    >>> label(game_named("four", lowball=True))
    '`game` four `lowball`'
    """
    words = [] if rules.name == "standard" else [f"`game` {rules.name}"]
    words += ["`lowball`"] if rules.lowball else []
    words += [f"`jokers` {rules.jokers}"] if rules.jokers else []
    words += ["`throw_fives`"] if rules.throw_fives else []
    words += [f"`penalty` {rules.penalty}"] if rules.penalty != "none" else []
    return " ".join(words)


def dispatch(
    capability: str, game: str | Rules, given: Mapping[str, object]
) -> tuple[Rules, Engine]:
    """The rules of ``game`` and the engine that plays them, once no parameter in
    ``given`` (each given a value other than None) is one the engine does not honour."""
    cap = CAPABILITIES[capability]
    rules = rules_of(game)
    engine = cap.engine(rules)
    foreign = cap.standard_only if engine == "any-game" else cap.any_game_only
    for name, value in given.items():
        if value is None or name not in foreign:
            continue
        if engine == "any-game":
            shown = SHOWN.get(name, f"`{name}`")
            raise UsageError(f"{shown} does not go with {label(rules)}")
        raise UsageError(f"`{name}` goes with `game` (another game)")
    return rules, engine


def play_policy(capability: str, rules: Rules, policy: str | None, name: str) -> str:
    """``policy``, or the default of the engine that plays ``rules`` when None (another
    game or variant whose play is solved, :attr:`~crib_analyze.rules.Rules.play_solved`:
    the capability's ``solved_default`` if it has one), checked against the policies
    that engine lays cards by (the error names the parameter ``name``)."""
    engine = engine_for(rules)
    cap = CAPABILITIES[capability]
    choices = cap.policies(engine)
    if policy is None:
        solved = engine == "any-game" and rules.play_solved
        return cap.solved_default if solved and cap.solved_default else choices[0]
    if policy not in {*cap.standard_policies, *cap.any_game_policies}:
        raise UsageError(f"`{name}` {policy!r} is no play policy; use {', '.join(choices)}")
    if policy not in choices:
        where = label(rules) if engine == "any-game" else "the standard game"
        raise UsageError(f"`{name}` {policy} does not go with {where}; use {', '.join(choices)}")
    return policy


def check_game(capability: str, game: str | Rules, **given: object) -> Rules:
    """The rules of ``game``, once :func:`dispatch` finds nothing in ``given`` that the
    engine playing it does not honour (for a caller that checks before it starts).

    >>> check_game("plot_board", "three", plot_path="board.png")
    Traceback (most recent call last):
    ...
    crib_analyze.errors.UsageError: `plot_path` does not go with `game` three
    """
    return dispatch(capability, game, given)[0]
