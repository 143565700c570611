"""Pegging values: what a kept hand pegs, and what its opponent pegs, by role.

The table has a cell per kept rank multiset (1,820) and role of the keeper: the mean
points the keeper and the opponent peg over simulated deals (see
:mod:`crib_analyze.play.pegging_kernels`), both playing the table's policy, with the
standard error of their difference. It ships inside the package with its provenance and
is rebuilt by ``crib-analyze build-pegging``. For one six-card hand,
:func:`hand_pegging` refines it with the real cards (all 15 throws, common random
numbers).
"""

from __future__ import annotations

import datetime as dt
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from typing import Any

import numpy as np

from crib_analyze.atomic import atomic_open
from crib_analyze.cards import RANKS
from crib_analyze.defaults import __version__, check_choice, packaged
from crib_analyze.errors import ModelError, StorageError, UsageError, describe_os_error
from crib_analyze.expert_model import ExpertModel, load_model
from crib_analyze.play import pegging_kernels as pgk
from crib_analyze.play.matches import kept_rank_weights, policy_code, rank_multiset_keys

PEGGING_FORMAT = 1
PACKAGED_PEGGING = "pegging_table.npz"
TABLE_POLICY = "lookahead"
SEATS = ("pone", "dealer")  # the keeper's role; index = seat (the pone leads)


@cache
def kept_multisets() -> np.ndarray:
    """(1820, 4) every four-rank multiset a hand can keep, sorted, in lexicographic order."""
    arr = np.array(list(combinations_with_replacement(range(13), 4)), dtype=np.int64)
    arr.setflags(write=False)
    return arr


def keep_text(ranks: np.ndarray) -> str:
    """Four ranks as text, e.g. '5 5 6 6'."""
    return " ".join(RANKS[int(r)] for r in ranks)


@dataclass(frozen=True)
class PeggingTable:
    """Per (keeper's seat, kept multiset): mean points pegged by the keeper and by its
    opponent, and the standard error of the difference."""

    peg_own: np.ndarray  # (2, 1820)
    peg_opp: np.ndarray  # (2, 1820)
    peg_se: np.ndarray  # (2, 1820)
    provenance: dict[str, Any] = field(default_factory=dict)

    def index(self, ranks: np.ndarray | list[int]) -> int:
        """Row of a kept multiset (four ranks in any order)."""
        key = tuple(sorted(int(r) for r in ranks))
        return _multiset_rows()[key]

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays = {
            "format": np.array(PEGGING_FORMAT),
            "provenance": np.array(json.dumps(self.provenance)),
            "peg_own": self.peg_own,
            "peg_opp": self.peg_opp,
            "peg_se": self.peg_se,
        }
        try:
            with atomic_open(path, "wb") as fh:
                np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
        except OSError as e:
            raise StorageError(f"cannot write {path}: {describe_os_error(e)}") from None

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> PeggingTable:
        name = getattr(source, "name", str(source))
        try:
            with np.load(source, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
            if int(arrays["format"]) != PEGGING_FORMAT:
                raise ValueError(f"format {int(arrays['format'])}, expected {PEGGING_FORMAT}")
            shape = (2, len(kept_multisets()))
            parts = [np.asarray(arrays[k], np.float64) for k in ("peg_own", "peg_opp", "peg_se")]
            if any(p.shape != shape or not np.isfinite(p).all() for p in parts):
                raise ValueError("arrays of the wrong shape")
            provenance = dict(json.loads(str(arrays["provenance"])))
        except Exception as e:  # a damaged file, whatever numpy raises for it
            raise ModelError(f"cannot read the pegging table {name}: {e}") from None
        own, opp, se = parts
        return cls(own, opp, se, provenance=provenance)


@cache
def _multiset_rows() -> dict[tuple[int, ...], int]:
    return {tuple(int(r) for r in m): i for i, m in enumerate(kept_multisets())}


@cache
def packaged_pegging_table() -> PeggingTable:
    """The pegging table shipped with the package."""
    with packaged(PACKAGED_PEGGING).open("rb") as fh:
        return PeggingTable.load(fh)


@dataclass(frozen=True)
class BuildLog:
    """Progress of a build: cells done of all, seconds so far."""

    done: int
    total: int
    seconds: float


def build_pegging(
    deals: int = 24_000,
    seed: int = 0,
    policy: str = TABLE_POLICY,
    samples: int = 16,
    model: ExpertModel | None = None,
    batch: int = 91,
    log: Callable[[BuildLog], None] | None = None,
) -> PeggingTable:
    """Simulate ``deals`` deals for each of the 3,640 cells (1,820 keeps x 2 roles).

    Cells run in batches (``log`` after each); every deal draws from its own stream, so
    a seed gives the same table on any number of threads.
    """
    if deals < 2:
        raise UsageError(f"deals must be at least 2, got {deals}")
    code = policy_code(policy)
    m = model or load_model()
    ranks = kept_multisets()
    cells = np.concatenate([ranks, ranks])
    seats = np.repeat(np.arange(2, dtype=np.int64), len(ranks))
    sums = np.zeros((len(cells), 3))
    start = time.time()
    weights = kept_rank_weights(m)
    policies = np.array([code, code], np.int64)
    for lo in range(0, len(cells), batch):
        hi = min(lo + batch, len(cells))
        sums[lo:hi] = pgk.cell_sums(
            cells[lo:hi], seats[lo:hi], deals, seed, rank_multiset_keys(),
            m.policy("pone").pi, m.policy("dealer").pi, policies, weights, samples, lo,
        )  # fmt: skip
        if log:
            log(BuildLog(hi, len(cells), time.time() - start))
    own = sums[:, 0] / deals
    opp = sums[:, 1] / deals
    var = np.maximum(sums[:, 2] / deals - (own - opp) ** 2, 0.0) * deals / (deals - 1)
    se = np.sqrt(var / deals)
    provenance = {
        "made_by": f"crib-analyze {__version__} build-pegging",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "policy": policy,
        "search_samples": samples if policy == "search" else None,
        "deals_per_cell": deals,
        "seed": seed,
        "expert_model": m.fingerprint(),
        "scheme": "per cell: the keeper's four cards with random suits, two random cards "
        "thrown, the opponent's six from the 46 left thrown by its seat's expert policy, "
        "the starter from the 40 left; both play the policy to the end",
        "seconds": round(time.time() - start, 1),
        "max_se": float(se.max()),
    }
    return PeggingTable(
        own.reshape(2, -1), opp.reshape(2, -1), se.reshape(2, -1), provenance=provenance
    )


@dataclass(frozen=True)
class HandPegging:
    """Pegging of each of a hand's 15 throws (DISCARDS order) from its real cards."""

    peg_own: np.ndarray  # (15,)
    peg_opp: np.ndarray
    peg_se: np.ndarray  # standard error of own - opp per throw
    deals: int


def hand_pegging(
    hand6: np.ndarray,
    role: str,
    deals: int = 2000,
    seed: int = 0,
    policy: str = TABLE_POLICY,
    samples: int = 16,
    model: ExpertModel | None = None,
) -> HandPegging:
    """Simulate the play for all 15 throws of six known cards in ``role``: the same
    opponent hands and starters for every throw (common random numbers)."""
    check_choice("role", role, SEATS)
    if deals < 2:
        raise UsageError(f"deals must be at least 2, got {deals}")
    m = model or load_model()
    code = policy_code(policy)
    points = pgk.hand_deals(
        np.asarray(hand6, np.int64), SEATS.index(role), deals, seed, rank_multiset_keys(),
        m.policy("pone").pi, m.policy("dealer").pi, np.array([code, code], np.int64),
        kept_rank_weights(m), samples,
    ).astype(np.float64)  # fmt: skip
    diff = points[:, :, 0] - points[:, :, 1]
    return HandPegging(
        peg_own=points[:, :, 0].mean(axis=0),
        peg_opp=points[:, :, 1].mean(axis=0),
        peg_se=diff.std(axis=0, ddof=1) / np.sqrt(deals),
        deals=deals,
    )
