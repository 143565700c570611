"""The expert opponent: role-specific throw models found by a damped fixed point.

A throw model (see :mod:`crib_analyze.expert_kernels`) says which rank pairs an
opponent of one role throws, how often suited, and which ranks it keeps with them.
The expert models are the self-consistent pair:

* the **pone** model is learned from the pone's best discards (hand - crib) when the
  dealer's throws follow the dealer model;
* the **dealer** model from the dealer's best discards (hand + crib) when the pone's
  throws follow the pone model.

:func:`build_model` finds them by **fictitious play**: start from the random
opponent; each round every one of the 962,988 hand classes (weighted by the raw
hands it stands for) picks its best discard for each role against the current
models; the throw statistics of those best responses are averaged into the running
models with weight 1/k in round k. Plain best response (weight 1) can cycle between
two policies; the decreasing weight damps it. The run stops when no crib value of
thrown rank pair in the role crib tables (:func:`role_tables`) moves by ``tolerance``
between rounds; the largest change of any class's crib value is logged beside it.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze import expert_kernels as ek
from crib_analyze import table_kernels as tk
from crib_analyze.atomic import atomic_write_text
from crib_analyze.discard_kernels import N_UNSEEN
from crib_analyze.hand_classes import hand_classes
from crib_analyze.score import rank_table

MODEL_FORMAT = 1
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "expert_model.json"
MODEL_ENV = "CRIB_ANALYZE_MODEL"
ROLES = ("pone", "dealer")  # the role of the opponent whose throws a model describes
TIE_TOLERANCE = 1e-9


class ModelError(Exception):
    """A model file that cannot be used (one-line message)."""


@dataclass(frozen=True)
class ThrowModel:
    """What an opponent of one role throws: P[a, b], F[a, b], K[a, b, c]."""

    P: np.ndarray  # (13, 13) probability of the rank pair a <= b
    F: np.ndarray  # (13, 13) suited share, a < b
    K: np.ndarray  # (13, 13, 13) expected kept cards of rank c with that throw

    @classmethod
    def random(cls) -> ThrowModel:
        """The random opponent as a throw model (reproduces it exactly)."""
        P = np.zeros((13, 13))
        F = np.zeros((13, 13))
        K = np.zeros((13, 13, 13))
        for a in range(13):
            for b in range(a, 13):
                P[a, b] = (6 if a == b else 16) / 1326
                F[a, b] = 0.25 if a < b else 0.0
                for c in range(13):
                    K[a, b, c] = 4 * (4 - (c == a) - (c == b)) / 50
        return cls(P, F, K)

    @classmethod
    def from_stats(cls, mass: np.ndarray, suited: np.ndarray, kept: np.ndarray) -> ThrowModel:
        """Normalise weighted throw counts; unthrown pairs keep the random K and F."""
        base = cls.random()
        total = mass.sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            F = np.where(mass > 0, suited / mass, base.F)
            K = np.where(mass[:, :, None] > 0, kept / mass[:, :, None], base.K)
        return cls(mass / total, F, K)

    def as_json(self) -> dict[str, Any]:
        return {"P": self.P.tolist(), "F": self.F.tolist(), "K": self.K.tolist()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ThrowModel:
        P, F, K = (np.asarray(data[k], dtype=np.float64) for k in ("P", "F", "K"))
        if P.shape != (13, 13) or F.shape != (13, 13) or K.shape != (13, 13, 13):
            raise ModelError("throw model arrays have the wrong shape")
        if not np.isclose(P.sum(), 1.0) or (P < 0).any():
            raise ModelError("throw model probabilities do not sum to 1")
        return cls(P, F, K)


@dataclass(frozen=True)
class ExpertModel:
    """The two throw models and how they were made."""

    pone: ThrowModel  # used when we deal
    dealer: ThrowModel  # used when the opponent deals
    provenance: dict[str, Any] = field(default_factory=dict)

    def for_our_role(self, role: str) -> ThrowModel:
        """The opponent's throw model when we are ``role``."""
        return self.pone if role == "dealer" else self.dealer

    def save(self, path: str | os.PathLike[str]) -> None:
        data = {
            "format": MODEL_FORMAT,
            "provenance": self.provenance,
            "pone": self.pone.as_json(),
            "dealer": self.dealer.as_json(),
        }
        atomic_write_text(path, json.dumps(data) + "\n")

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ExpertModel:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError) as e:
            raise ModelError(f"cannot read expert model {path}: {e}") from None
        if not isinstance(data, dict) or data.get("format") != MODEL_FORMAT:
            raise ModelError(f"{path} is not an expert model of format {MODEL_FORMAT}")
        try:
            return cls(
                ThrowModel.from_json(data["pone"]),
                ThrowModel.from_json(data["dealer"]),
                dict(data.get("provenance", {})),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ModelError(f"{path}: bad expert model ({e})") from None


def model_path() -> Path:
    """Where the expert model is read from: $CRIB_ANALYZE_MODEL or data/expert_model.json."""
    return Path(os.environ.get(MODEL_ENV) or DEFAULT_MODEL_PATH)


@cache
def default_model() -> ExpertModel:
    """The shipped expert model (read once per process)."""
    path = model_path()
    if not path.exists():
        raise ModelError(f"no expert model at {path}: build it with 'crib-analyze build-model'")
    return ExpertModel.load(path)


# --- building it -------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundLog:
    """One fixed-point round: the largest change of any role crib value, and of any
    class's crib value, since the previous round."""

    round: int
    table_change: float
    class_change: float
    seconds: float


def role_tables(model: ExpertModel) -> np.ndarray:
    """(2, 13, 13, 2) crib value of each thrown rank pair (offsuit, suited) when the
    dealer throws it (index 0: the opponent is the pone) and when the pone does (1)."""
    table = rank_table()
    return np.stack(
        [ek.thrown_pair_values(table, m.P, m.F, m.K) for m in (model.pone, model.dealer)]
    )


def class_offsets(multiset: np.ndarray, n_multisets: int) -> np.ndarray:
    """Start of each multiset's classes (classes are grouped by multiset)."""
    return np.searchsorted(multiset, np.arange(n_multisets + 1)).astype(np.int64)


def all_hand_means() -> np.ndarray:
    """(N, 15) exact hand means of every class's discards."""
    classes = hand_classes()
    table = rank_table()
    hand_rank, crib_rank = tk.multiset_rank_numerators(table, classes.multisets)
    hand_num, _ = tk.class_numerators(classes.cards, classes.multiset, hand_rank, crib_rank)
    return np.asarray(hand_num / N_UNSEEN)


def all_class_cribs(model: ThrowModel) -> np.ndarray:
    """(N, 15) crib expectation of every class's discards against ``model``."""
    classes = hand_classes()
    offsets = class_offsets(classes.multiset, len(classes.multisets))
    return np.asarray(
        ek.class_model_cribs(
            rank_table(), classes.multisets, offsets, classes.cards, model.P, model.F, model.K
        )
    )


def build_model(
    tolerance: float = 1e-3,
    max_rounds: int = 200,
    log: Callable[[RoundLog], None] | None = None,
) -> ExpertModel:
    """Run fictitious play from the random opponent until crib values settle."""
    from crib_analyze import __version__

    start = time.time()
    classes = hand_classes()
    cards = classes.cards.astype(np.int64)
    weight = classes.weight.astype(np.float64)
    hand = all_hand_means()
    models = {"pone": ThrowModel.random(), "dealer": ThrowModel.random()}
    running: dict[str, list[np.ndarray]] = {}
    previous: dict[str, np.ndarray] = {}
    previous_tables = role_tables(ExpertModel(models["pone"], models["dealer"]))
    change = class_change = np.inf
    rounds = 0
    for k in range(1, max_rounds + 1):
        t0 = time.time()
        # our crib when we deal faces the pone model; when we are pone, the dealer model
        crib = {
            "dealer": all_class_cribs(models["pone"]),
            "pone": all_class_cribs(models["dealer"]),
        }
        tables = role_tables(ExpertModel(models["pone"], models["dealer"]))
        if previous:
            class_change = max(float(np.abs(crib[r] - previous[r]).max()) for r in crib)
            change = float(np.nanmax(np.abs(tables - previous_tables)))
        previous, previous_tables = crib, tables
        rounds = k
        if log:
            log(RoundLog(k, change, class_change, time.time() - t0))
        if change < tolerance:
            break
        for role, value in (("dealer", hand + crib["dealer"]), ("pone", hand - crib["pone"])):
            _, mass, suited, kept = ek.best_response_stats(cards, weight, value, TIE_TOLERANCE)
            if role not in running:
                running[role] = [mass, suited, kept]
            else:
                for acc, new in zip(running[role], (mass, suited, kept), strict=True):
                    acc += (new - acc) / k
            models[role] = ThrowModel.from_stats(*running[role])
    provenance = {
        "made_by": f"crib-analyze {__version__} build-model",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "scheme": "fictitious play from the random opponent over all 962,988 hand classes "
        "(weighted by raw hands); best responses averaged with weight 1/k in round k; "
        "ties share weight",
        "rounds": rounds,
        "final_table_change": change,
        "final_class_change": class_change,
        "tolerance": tolerance,
        "converged": bool(change < tolerance),
        "seconds": round(time.time() - start, 1),
    }
    return ExpertModel(models["pone"], models["dealer"], provenance)
