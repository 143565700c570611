"""Building the expert opponent: a damped fixed point over every hand (``build-model``).

The expert models are the self-consistent pair of throw models
(:mod:`crib_analyze.artifacts.expert_model`):

* the **pone's throws** are learned from the pone's best discards (hand - crib) when
  the dealer's throws follow the dealer's model;
* the **dealer's throws** from the dealer's best discards (hand + crib) when the
  pone's throws follow the pone's model.

:func:`build_model` finds them by **fictitious play** (:func:`fictitious_play`): start
from the random opponent; each round every one of the 962,988 hand classes (weighted
by the raw hands it stands for) picks its best discards for each role against the
current models; the throw statistics of those best responses are averaged into the
running models with weight 1/k in round k. Plain best response (weight 1) can cycle
between two policies; the decreasing weight damps it. The run stops when no crib value
of a thrown rank pair (:func:`~crib_analyze.expert.class_values.role_tables`) moves by
``tolerance`` between rounds; the largest change of any class's crib value is logged
beside it. The final policy, each class's best response to the converged models, is
tabulated per rank multiset.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel, ThrowModel, ThrowPolicy
from crib_analyze.artifacts.pegging_table import PeggingTable
from crib_analyze.crib import throw_model_kernels as tmk
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_classes import N_MULTISETS, hand_classes
from crib_analyze.crib.hand_kernels import TIE_TOLERANCE
from crib_analyze.crib.throw_fives_rule import FORBIDDEN, legal_throws_of
from crib_analyze.errors import UsageError
from crib_analyze.expert.class_values import (
    all_class_cribs,
    all_class_pegging,
    all_hand_means,
    role_tables,
)
from crib_analyze.settings import MODEL_VARIANTS, __version__, check_choice, variant_obeys
from crib_analyze.storage.checkpoint import load_checkpoint, remove_checkpoint, save_checkpoint

M = TypeVar("M")
Stats = tuple[np.ndarray, ...]

SCHEME = (
    "fictitious play from the random opponent over all 962,988 hand classes "
    "(weighted by raw hands); best responses averaged with weight 1/k in round k; "
    "ties share weight; the final best responses tabulated per rank multiset"
)


@dataclass(frozen=True)
class RoundLog:
    """One fixed-point round: the largest change of any role-table crib value, and of
    any class's crib value, since the previous round (inf in round 1)."""

    round: int
    table_change: float
    class_change: float
    seconds: float


def fictitious_play(
    step: Callable[[int, dict[str, M]], Mapping[str, Stats] | None],
    model_of: Callable[[Stats], M],
    start: Mapping[str, M],
    max_rounds: int,
    resume: tuple[int, dict[str, Stats]] | None = None,
    on_round: Callable[[int, dict[str, Stats]], None] | None = None,
) -> tuple[dict[str, M], int, bool]:
    """Run fictitious play; return (models, rounds, settled).

    Each round k, ``step(k, models)`` returns each player's best-response statistics
    against the current models, or None once they have settled. The running
    statistics are the mean of the best responses of rounds 1..k (weight 1/k for the
    newest), and ``model_of`` turns them into the next round's model. After each
    round ``on_round(k, running)`` may save them; ``resume=(k, running)`` continues
    from such a save with round k + 1.
    """
    models = dict(start)
    running: dict[str, Stats] = {}
    first = 1
    if resume is not None:
        done, running = resume[0], dict(resume[1])
        models.update({player: model_of(stats) for player, stats in running.items()})
        first = done + 1
    for k in range(first, max_rounds + 1):
        stats = step(k, models)
        if stats is None:
            return models, k, True
        for player, new in stats.items():
            if player in running:
                running[player] = tuple(
                    acc + (x - acc) / k for acc, x in zip(running[player], new, strict=True)
                )
            else:
                running[player] = tuple(new)
            models[player] = model_of(running[player])
        if on_round is not None:
            on_round(k, running)
    return models, max_rounds, False


class FixedPoint:
    """Fictitious play over every hand class: each round, every class's best discards
    for each role against the current throw models; the running mean of those best
    responses makes the next models. :meth:`run` plays the rounds (``history`` logs
    them), :meth:`tabulate` the final policy."""

    def __init__(self, pegging: PeggingTable | None = None, variant: str | None = None) -> None:
        interrupts.check()
        classes = hand_classes()
        interrupts.check()
        self.pegging = pegging
        self.variant = variant
        self.cards = classes.cards.astype(np.int64)
        self.weight = classes.weight.astype(np.float64)
        self.multiset = classes.multiset.astype(np.int64)
        self.hand = all_hand_means()
        interrupts.check()
        self.peg: dict[str, Any] = (
            all_class_pegging(pegging) if pegging is not None else {"dealer": 0.0, "pone": 0.0}
        )
        self.history: list[RoundLog] = []
        self.last = _Evaluation()
        # the arrays each round refills (touching fresh 115 MB arrays every round cost
        # more than the arithmetic): the cribs of the round before last, and the values
        self._spare: dict[str, np.ndarray] = {}
        self._value = {role: np.empty_like(self.hand) for role in ("dealer", "pone")}
        # throw fives: the throws the rule forbids never chosen (every hand has a legal one)
        fives, self._lowball = variant_obeys(variant)
        self._forbidden = ~legal_throws_of(self.cards) if fives else None
        interrupts.check()

    def cribs(
        self, models: Mapping[str, ThrowModel], out: Mapping[str, np.ndarray] | None = None
    ) -> dict[str, np.ndarray]:
        """Each role's own-view crib: a dealer faces the pone's throws, a pone the dealer's
        (into the arrays ``out`` when given)."""
        out = out or {}
        return {
            "dealer": all_class_cribs(models["pone"], out.get("dealer")),
            "pone": all_class_cribs(models["dealer"], out.get("pone")),
        }

    def values(self, crib: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
        """What each role's throws are worth: hand +- crib (+ the pegging net). The
        arrays are reused: the next call overwrites them."""
        value = self._value
        np.add(self.hand, crib["dealer"], out=value["dealer"])
        np.subtract(self.hand, crib["pone"], out=value["pone"])
        for role in value:
            np.add(value[role], self.peg[role], out=value[role])
            if self._lowball:  # the fewest points best
                np.negative(value[role], out=value[role])
            if self._forbidden is not None:
                value[role][self._forbidden] = FORBIDDEN
        return value

    def run(
        self,
        tolerance: float,
        max_rounds: int,
        log: Callable[[RoundLog], None] | None = None,
        checkpoint: str | os.PathLike[str] | None = None,
    ) -> tuple[dict[str, ThrowModel], int, bool]:
        """(models, rounds, settled): from the random opponent until no role-table crib
        value moves by ``tolerance`` in a round, or ``max_rounds``. With
        ``checkpoint``, each round's running statistics are saved, and a killed run
        resumes after its last finished round (with the same numbers)."""
        last = self.last
        start = {"pone": ThrowModel.random(), "dealer": ThrowModel.random()}

        def model_of(stats: Stats) -> ThrowModel:
            return ThrowModel.from_stats(*stats)

        def evaluate(models: Mapping[str, ThrowModel]) -> None:
            crib = self.cribs(models, self._spare)
            tables = role_tables(ExpertModel(models["pone"], models["dealer"]), compact=True)
            if last.crib:
                last.class_change = max(tmk.largest_difference(crib[r], last.crib[r]) for r in crib)
                last.change = max(
                    float(np.nanmax(np.abs(tables[s] - last.tables[s]))) for s in tables
                )
            self._spare = last.crib
            last.crib, last.tables = crib, tables

        def step(k: int, models: dict[str, ThrowModel]) -> dict[str, Stats] | None:
            interrupts.check()
            t0 = time.time()
            evaluate(models)
            entry = RoundLog(k, last.change, last.class_change, time.time() - t0)
            self.history.append(entry)
            if log:
                log(entry)
            if last.change < tolerance:
                return None
            # the pone's throws are learned from the pone's best discards, and so on
            value = self.values(last.crib)
            return {r: _best_response(self.cards, self.weight, value[r])[1:] for r in value}

        settings = {
            "scheme": SCHEME, "tolerance": tolerance, "max_rounds": max_rounds,
            "pegging": None if self.pegging is None else self.pegging.fingerprint(),
            "version": __version__,
        } | ({"variant": self.variant} if self.variant else {})  # fmt: skip
        previous: dict[str, Stats] = {}  # the running statistics before the last round

        def save(k: int, running: dict[str, Stats]) -> None:
            state = _running_arrays("now", running) | _running_arrays("before", previous)
            state["history"] = np.array(
                [[r.round, r.table_change, r.class_change, r.seconds] for r in self.history]
            )
            save_checkpoint(checkpoint, settings, state)
            previous.clear()
            previous.update(running)

        resume = None
        state = load_checkpoint(checkpoint, settings)
        if state is not None:
            done, running, before = _resumed_rounds(state)
            self.history = [
                RoundLog(int(r[0]), float(r[1]), float(r[2]), float(r[3])) for r in state["history"]
            ]
            # the crib values of the last finished round, recomputed from its models
            evaluate({p: model_of(before[p]) if before else start[p] for p in start})
            last.change = self.history[-1].table_change
            last.class_change = self.history[-1].class_change
            previous.update(running)
            resume = (done, running)
            if log:
                for entry in self.history:
                    log(entry)
        result = fictitious_play(step, model_of, start, max_rounds, resume, save)
        remove_checkpoint(checkpoint)
        return result

    def tabulate(self, models: Mapping[str, ThrowModel], settled: bool) -> dict[str, ThrowPolicy]:
        """The final policy per role: each class's best response to ``models``, per rank
        multiset (the last round's cribs when it settled, else the models' own)."""
        crib = self.last.crib if settled else self.cribs(models, self._spare)
        policies = {}
        for role, value in self.values(crib).items():
            flags = _best_response(self.cards, self.weight, value)[0]
            pi, suited = pk.multiset_policy(
                self.cards, self.weight, self.multiset, N_MULTISETS, flags
            )
            policies[role] = ThrowPolicy(pi, suited)
        return policies


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def build_model(
    tolerance: float = 1e-3,
    max_rounds: int = 200,
    log: Callable[[RoundLog], None] | None = None,
    pegging: PeggingTable | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    variant: str | None = None,
) -> ExpertModel:
    """Run fictitious play from the random opponent until crib values settle, then
    tabulate the final policy. ``variant`` "throw-fives": every hand throws the fives
    the rule takes (its other throws never chosen); "lowball": every hand throws for
    the fewest points (hand + crib for the dealer, hand - crib for the pone, least).

    With ``pegging`` (a pegging table) every hand chooses its throw on hand +- crib +
    its pegging net (the pegging-aware expert); without it, on hand +- crib (the classic
    expert, the kind of opponent the published crib tables assume). With
    ``checkpoint``, a killed build resumes after its last finished round.
    """
    if not tolerance > 0:
        raise UsageError(f"tolerance must be positive, got {tolerance}")
    if max_rounds < 1:
        raise UsageError(f"max_rounds must be at least 1, got {max_rounds}")
    if variant is not None:
        check_choice("model variant", variant, MODEL_VARIANTS)
        if pegging is not None:
            raise UsageError(f"the {variant} model is a classic one: it does not count the play")
    start = time.time()
    fixed_point = FixedPoint(pegging, variant)
    models, rounds, settled = fixed_point.run(tolerance, max_rounds, log, checkpoint)
    policies = fixed_point.tabulate(models, settled)
    last, history = fixed_point.last, fixed_point.history
    provenance = {
        "made_by": f"crib-analyze {__version__} build-model",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "scheme": SCHEME,
        **({"variant": variant} if variant else {}),
        "pegging": None
        if pegging is None
        else {
            k: pegging.provenance.get(k)
            for k in ("made_by", "created_at", "policy", "expert_model", "max_se")
        },
        "rounds": rounds,
        "final_table_change": _finite(last.change),
        "final_class_change": _finite(last.class_change),
        "tolerance": tolerance,
        "converged": settled,
        "seconds": round(time.time() - start, 1),
        # per round: (round, role-table change, class change); null for round 1
        "log": [[r.round, _finite(r.table_change), _finite(r.class_change)] for r in history],
    }
    return ExpertModel(
        models["pone"], models["dealer"], policies["pone"], policies["dealer"], provenance
    )


@dataclass
class _Evaluation:
    """The latest round's crib values and how far they moved."""

    crib: dict[str, np.ndarray] = field(default_factory=dict)
    tables: dict[str, np.ndarray] = field(default_factory=dict)
    change: float = np.inf
    class_change: float = np.inf


def _best_response(cards: np.ndarray, weight: np.ndarray, value: np.ndarray) -> Stats:
    """(flags, mass, suited mass, kept) of the best discards by ``value`` in every class."""
    return tuple(tmk.best_response_stats(cards, weight, value, TIE_TOLERANCE))


def _finite(x: float) -> float | None:
    return float(x) if np.isfinite(x) else None


def _running_arrays(prefix: str, running: Mapping[str, Stats]) -> dict[str, np.ndarray]:
    return {
        f"{prefix}_{player}_{i}": np.asarray(x)
        for player, stats in running.items()
        for i, x in enumerate(stats)
    }


def _resumed_rounds(
    state: Mapping[str, np.ndarray],
) -> tuple[int, dict[str, Stats], dict[str, Stats]]:
    """(rounds done, running statistics now and before the last round) of a checkpoint."""

    def running(prefix: str) -> dict[str, Stats]:
        out: dict[str, dict[int, np.ndarray]] = {}
        for name, array in state.items():
            head, player, i = name.rsplit("_", 2) if name.count("_") == 2 else ("", "", "")
            if head == prefix:
                out.setdefault(player, {})[int(i)] = array
        return {p: tuple(v[i] for i in sorted(v)) for p, v in out.items()}

    return len(state["history"]), running("now"), running("before")
