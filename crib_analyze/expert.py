"""The expert opponent: role-specific throw models found by a damped fixed point.

A compact throw model (see :mod:`crib_analyze.throw_model_kernels`) says which rank pairs an
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

from crib_analyze import policy_kernels as pk
from crib_analyze import table_kernels as tk
from crib_analyze import throw_model_kernels as tmk
from crib_analyze.atomic import atomic_open
from crib_analyze.discard_kernels import N_UNSEEN
from crib_analyze.hand_classes import N_MULTISETS, hand_classes, multisets
from crib_analyze.score import rank_table

MODEL_FORMAT = 1
DEFAULT_MODEL_PATH = Path(__file__).resolve().parent.parent / "data" / "expert_model.npz"
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
class ThrowPolicy:
    """A role's throwing policy per rank multiset: ``pi[m, d]`` = P(a hand of multiset m
    throws its discard d), ``suited[m, d]`` = the suited part of it. Combined with our
    unseen cards by :func:`crib_analyze.policy_kernels.policy_weights`."""

    pi: np.ndarray  # (18,395, 15)
    suited: np.ndarray  # (18,395, 15)


@dataclass(frozen=True)
class ExpertModel:
    """The expert opponent: per role, the compact throw model the fixed point iterates
    on and the final policy (best response to it) tabulated per rank multiset."""

    pone: ThrowModel  # the pone's throws (we deal)
    dealer: ThrowModel  # the dealer's throws (we are pone)
    pone_policy: ThrowPolicy | None = None
    dealer_policy: ThrowPolicy | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    _compiled: tuple[np.ndarray, ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _fingerprint: str | None = field(default=None, init=False, repr=False, compare=False)

    def fingerprint(self) -> str:
        """A short digest of the model's numbers (tables made with it carry it); cached."""
        if self._fingerprint is None:
            object.__setattr__(self, "_fingerprint", self._digest())
        return self._fingerprint  # type: ignore[return-value]

    def _digest(self) -> str:
        import hashlib

        h = hashlib.blake2b(digest_size=8)
        for m in (self.pone, self.dealer):
            for arr in (m.P, m.F, m.K):
                h.update(np.ascontiguousarray(arr).tobytes())
        for pol in (self.pone_policy, self.dealer_policy):
            if pol is not None:
                h.update(np.ascontiguousarray(pol.pi).tobytes())
                h.update(np.ascontiguousarray(pol.suited).tobytes())
        return h.hexdigest()

    def compiled_policies(self) -> tuple[np.ndarray, ...]:
        """Both policies [we deal, opponent deals] in the sparse form the kernels take
        (:func:`crib_analyze.policy_kernels.compile_policy`); built once per model."""
        if self._compiled is None:
            pols = [self.policy_for_our_role("dealer"), self.policy_for_our_role("pone")]
            compiled = pk.compile_policy(
                multisets(),
                np.stack([p.pi for p in pols]),
                np.stack([p.suited for p in pols]),
            )
            object.__setattr__(self, "_compiled", compiled)  # a cache on a frozen record
        return self._compiled  # type: ignore[return-value]

    def policy_for_our_role(self, role: str) -> ThrowPolicy:
        """The opponent's policy when we are ``role`` ("dealer": the pone throws)."""
        policy = self.pone_policy if role == "dealer" else self.dealer_policy
        if policy is None:
            raise ModelError("this expert model has no tabulated policy; rebuild it")
        return policy

    def save(self, path: str | os.PathLike[str]) -> None:
        """One compressed .npz: both compact models, both policies, provenance (JSON)."""
        arrays: dict[str, np.ndarray] = {
            "format": np.array(MODEL_FORMAT),
            "provenance": np.array(json.dumps(self.provenance)),
        }
        for role in ROLES:
            m: ThrowModel = getattr(self, role)
            arrays |= {f"{role}_P": m.P, f"{role}_F": m.F, f"{role}_K": m.K}
            pol: ThrowPolicy | None = getattr(self, f"{role}_policy")
            if pol is not None:
                arrays |= {f"{role}_pi": pol.pi, f"{role}_suited": pol.suited}
        with atomic_open(path, "wb") as fh:
            np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]

    @classmethod
    def load(cls, path: str | os.PathLike[str]) -> ExpertModel:
        try:
            with np.load(path, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except (OSError, ValueError, EOFError) as e:
            raise ModelError(f"cannot read expert model {path}: {e}") from None
        if int(arrays.get("format", -1)) != MODEL_FORMAT:
            raise ModelError(f"{path} is not an expert model of format {MODEL_FORMAT}")
        try:
            models = {
                role: ThrowModel.from_json({k: arrays[f"{role}_{k}"] for k in ("P", "F", "K")})
                for role in ROLES
            }
            policies = {
                role: ThrowPolicy(arrays[f"{role}_pi"], arrays[f"{role}_suited"])
                if f"{role}_pi" in arrays
                else None
                for role in ROLES
            }
            provenance = dict(json.loads(str(arrays["provenance"])))
        except (KeyError, TypeError, ValueError) as e:
            raise ModelError(f"{path}: bad expert model ({e})") from None
        for pol in policies.values():
            if pol is not None and pol.pi.shape != (N_MULTISETS, 15):
                raise ModelError(f"{path}: policy arrays have the wrong shape")
        return cls(
            models["pone"],
            models["dealer"],
            policies["pone"],
            policies["dealer"],
            provenance,
        )


def model_path() -> Path:
    """Where the expert model is read from: $CRIB_ANALYZE_MODEL or data/expert_model.npz."""
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


def role_tables(model: ExpertModel, compact: bool = False) -> np.ndarray:
    """(2, 13, 13, 2) crib value of each thrown rank pair (offsuit, suited) when the
    dealer throws it (index 0: the opponent is the pone) and when the pone does (1).

    Uses the tabulated policies (exact card removal) unless ``compact`` or absent.
    """
    table = rank_table()
    if compact or model.pone_policy is None or model.dealer_policy is None:
        return np.stack(
            [tmk.thrown_pair_values(table, m.P, m.F, m.K) for m in (model.pone, model.dealer)]
        )
    return np.stack(
        [
            pk.thrown_pair_values_policy(table, multisets(), p.pi, p.suited)
            for p in (model.pone_policy, model.dealer_policy)
        ]
    )


def class_offsets(multiset: np.ndarray, n_multisets: int) -> np.ndarray:
    """Start of each multiset's classes (classes are grouped by multiset)."""
    return np.searchsorted(multiset, np.arange(n_multisets + 1)).astype(np.int64)


def all_hand_means() -> np.ndarray:
    """(N, 15) exact hand means of every class's discards."""
    classes = hand_classes()
    table = rank_table()
    hand_rank, crib_rank = tk.multiset_rank_numerators(table, classes.multisets, False)
    hand_num, _ = tk.class_numerators(classes.cards, classes.multiset, hand_rank, crib_rank)
    return np.asarray(hand_num / N_UNSEEN)


def all_class_cribs(model: ThrowModel) -> np.ndarray:
    """(N, 15) crib expectation of every class's discards against ``model``."""
    classes = hand_classes()
    offsets = class_offsets(classes.multiset, len(classes.multisets))
    return np.asarray(
        tmk.class_model_cribs(
            rank_table(), classes.multisets, offsets, classes.cards, model.P, model.F, model.K
        )
    )


def class_cribs_range(policies: list[ThrowPolicy], lo: int, hi: int) -> np.ndarray:
    """(P, hi - lo, 15) crib expectation of classes ``lo:hi`` against tabulated policies."""
    classes = hand_classes()
    ms = classes.multiset
    m_lo, m_hi = int(ms[lo]), int(ms[hi - 1]) + 1
    offsets = np.clip(class_offsets(ms, len(classes.multisets))[m_lo : m_hi + 1], lo, hi) - lo
    return np.asarray(
        pk.class_policy_cribs(
            rank_table(),
            classes.multisets[m_lo:m_hi],
            offsets.astype(np.int64),
            classes.cards[lo:hi],
            classes.multisets.astype(np.int64),
            np.stack([p.pi for p in policies]),
            np.stack([p.suited for p in policies]),
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
    previous_tables = role_tables(ExpertModel(models["pone"], models["dealer"]), compact=True)
    change = class_change = np.inf
    rounds = 0
    for k in range(1, max_rounds + 1):
        t0 = time.time()
        # our crib when we deal faces the pone model; when we are pone, the dealer model
        crib = {
            "dealer": all_class_cribs(models["pone"]),
            "pone": all_class_cribs(models["dealer"]),
        }
        tables = role_tables(ExpertModel(models["pone"], models["dealer"]), compact=True)
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
            _, mass, suited, kept = tmk.best_response_stats(cards, weight, value, TIE_TOLERANCE)
            if role not in running:
                running[role] = [mass, suited, kept]
            else:
                for acc, new in zip(running[role], (mass, suited, kept), strict=True):
                    acc += (new - acc) / k
            models[role] = ThrowModel.from_stats(*running[role])
    if change >= tolerance:  # stopped by the round cap: value the final models
        crib = {
            "dealer": all_class_cribs(models["pone"]),
            "pone": all_class_cribs(models["dealer"]),
        }
    # the final policy: each class's best response to the converged models, per multiset
    multiset = classes.multiset.astype(np.int64)
    policies = {}
    for role, value in (("dealer", hand + crib["dealer"]), ("pone", hand - crib["pone"])):
        flags = tmk.best_response_stats(cards, weight, value, TIE_TOLERANCE)[0]
        pi, suited_share = pk.multiset_policy(cards, weight, multiset, N_MULTISETS, flags)
        policies[role] = ThrowPolicy(pi, suited_share)
    provenance = {
        "made_by": f"crib-analyze {__version__} build-model",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "scheme": "fictitious play from the random opponent over all 962,988 hand classes "
        "(weighted by raw hands); best responses averaged with weight 1/k in round k; "
        "ties share weight; the final best responses tabulated per rank multiset",
        "rounds": rounds,
        "final_table_change": change,
        "final_class_change": class_change,
        "tolerance": tolerance,
        "converged": bool(change < tolerance),
        "seconds": round(time.time() - start, 1),
    }
    return ExpertModel(
        models["pone"], models["dealer"], policies["pone"], policies["dealer"], provenance
    )
