"""What the long jobs cost, as measured: the figures ``benchmarks/bench_costs.py
--record`` writes to ``data/costs.json`` (shipped with the package), each with where it
comes from. The command line states them in ``--help`` and warns before a run expected
to take over :data:`~crib_analyze.settings.LONG_RUN_SECONDS`; ``make docs`` puts them
into the docs. They are one machine's figures (see ``machine`` in the file), not bounds.

>>> expected = simulate_seconds(20_000, ("position", "expert"), "solver")
>>> expected > 60
True
>>> duration_text(95)
'about 2 minutes'
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from crib_analyze.settings import DEFAULT_PLAY_POLICY, packaged

if TYPE_CHECKING:
    from crib_analyze.rules import Rules

COSTS_FILE = "costs.json"


@dataclass(frozen=True)
class Cost:
    """One measured figure: ``seconds`` a ``per`` ("game", "deal", "run") of a job."""

    name: str
    seconds: float
    per: str
    what: str
    source: str
    megabytes: int | None = None

    def text(self) -> str:
        """The figure as --help states it, e.g. 'about 0.02 s a game'."""
        if self.seconds <= 0:
            raise ValueError(f"{self.name} was never measured")
        if self.per == "run":
            size = f", {self.megabytes:,} MB" if self.megabytes else ""
            return f"{duration_text(self.seconds)}{size}"
        return f"about {self.seconds:.2g} s a {self.per}"


@cache
def _recorded() -> dict[str, Any]:
    """The file's contents; empty if it cannot be read (no figure: no warning, no
    'Cost' in --help, never a failed command)."""
    try:
        data = json.loads(packaged(COSTS_FILE).read_text())
        if isinstance(data, dict) and isinstance(data.get("figures"), dict):
            return data
    except (OSError, ValueError):
        pass
    return {"machine": "", "figures": {}}


@cache
def costs() -> dict[str, Cost]:
    """Every recorded figure by name (none if the file is damaged)."""
    try:
        return {
            name: Cost(
                name,
                float(f["seconds"]),
                str(f["per"]),
                str(f["what"]),
                str(f["source"]),
                f.get("megabytes"),
            )
            for name, f in _recorded()["figures"].items()
        }
    except (KeyError, TypeError, ValueError, AttributeError):
        return {}


def machine() -> str:
    """The machine the figures were measured on."""
    return str(_recorded().get("machine", ""))


def cost(name: str) -> Cost:
    """The figure ``name``; one of 0 seconds if it was never recorded."""
    return costs().get(name) or Cost(name, 0.0, "run", "not measured", "none")


def first_run_key(kind: str) -> str:
    """The figure of a command's first run, whose kernels compile (``bench_startup.py
    --record``): ``discard --score`` -> ``first-run-discard-score``."""
    return "first-run-" + "-".join(part.lstrip("-") for part in kind.split())


def duration_text(seconds: float) -> str:
    """A duration as a person says it: 'under a second', 'about 40 seconds',
    'about 3 minutes', 'about 1.5 hours'."""
    if seconds < 1:
        return "under a second"
    if seconds < 90:
        return f"about {seconds:.0f} seconds" if seconds < 10 else f"about {seconds:.2g} seconds"
    if seconds < 90 * 60:
        return f"about {seconds / 60:.0f} minutes"
    hours = seconds / 3600
    return f"about {hours:.1f} hours" if hours < 10 else f"about {hours:.0f} hours"


def simulate_seconds(
    games: int, players: tuple[str, ...], play_policy: str | None, rules: Rules | None = None
) -> float:
    """Expected seconds of ``simulate``: games of two players by their policies (the
    solver unless given), or of another game's ``rules``."""
    if rules is not None and not rules.is_standard:
        return game_seconds(games, play_policy)
    solver = (play_policy or DEFAULT_PLAY_POLICY) == "solver"
    per = cost("simulate-solver" if solver else "simulate-lookahead").seconds
    if "position" in players:  # the position player's sampling dominates
        per = max(per, cost("simulate-position").seconds)
    return games * per


def discard_seconds(
    hands: int, score: bool, simulated_roles: int = 0, sampled: int | None = None
) -> float:
    """Expected seconds of ``discard`` over ``hands`` hands (``--hands-file``): the plain
    analysis, or its ``--score`` figure and ``--pegging simulated``'s for each of the
    ``simulated_roles`` roles whose play is simulated, and with ``--opponent sampled``
    its figure scaled to ``sampled`` opponent hands (one role or both take alike there:
    both are ranked from the same work)."""
    from crib_analyze.settings import SAMPLES

    per = 0.0 if score or simulated_roles or sampled else cost("discard").seconds
    per += cost("discard-score").seconds if score else 0.0
    per += cost("discard-simulated-pegging").seconds * simulated_roles
    if sampled:
        per += cost("discard-sampled").seconds * sampled / SAMPLES.default
    return hands * per


def game_seconds(games: int, play_policy: str | None = None) -> float:
    """Expected seconds of ``simulate --game`` (three players' figure: the others are
    within a factor of two, but for the solver, far slower with four or five)."""
    key = "simulate-game-solver" if play_policy == "solver" else "simulate-game"
    return games * cost(key).seconds


def table_seconds(
    opponent: str,
    game: str = "standard",
    penalty: str = "none",
    throw_fives: bool = False,
    jokers: int = 0,
) -> float:
    """Expected seconds of a whole discard table."""
    if jokers and game == "standard":
        return cost("table-jokers-expert" if opponent == "expert" else "table-jokers").seconds
    if throw_fives and game == "standard" and opponent == "random":
        return cost("table-throw-fives").seconds
    if game != "standard":
        return cost("table-five-card" if game == "five-card" else "table-throw-one").seconds
    if penalty != "none":
        return cost("table-expert-penalty" if opponent == "expert" else "table-penalty").seconds
    return cost("table-expert" if opponent == "expert" else "table").seconds


def pegging_seconds(pilot: int, policy: str) -> float:
    """Expected seconds of ``build-pegging`` at least: the pilot deals of every cell (two
    roles x 1,820 keeps); another play policy than the solver by the ratio of the whole
    games' figures."""
    per = cost("build-pegging").seconds
    if policy != "solver":
        per *= cost("simulate-lookahead").seconds / cost("simulate-solver").seconds
    return per * pilot * 2 * 1820


def board_seconds(deals: int, play_policy: str) -> float:
    """Expected seconds of ``build-board`` over ``deals`` played by ``play_policy`` (the
    solver's figure, else the lookahead's)."""
    name = "build-board" if play_policy == "solver" else "build-board-lookahead"
    return cost(name).seconds * deals


def build_seconds(name: str, deals: int | None = None) -> float:
    """Expected seconds of a builder ('build-model', 'build-pegging', 'build-leads',
    'build-board'); ``deals`` for those measured by the deal."""
    c = cost(name)
    return c.seconds * (deals if c.per == "deal" and deals is not None else 1)
