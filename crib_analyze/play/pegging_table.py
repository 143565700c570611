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

import contextlib
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
from crib_analyze.errors import StorageError, UsageError, describe_os_error
from crib_analyze.expert_model import ExpertModel, load_model
from crib_analyze.npz_store import read_npz, write_npz
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

    def fingerprint(self) -> str:
        """A short digest of the values (tables made with them carry it)."""
        import hashlib

        h = hashlib.blake2b(digest_size=8)
        for arr in (self.peg_own, self.peg_opp, self.peg_se):
            h.update(np.ascontiguousarray(arr).tobytes())
        return h.hexdigest()

    def index(self, ranks: np.ndarray | list[int]) -> int:
        """Row of a kept multiset (four ranks in any order)."""
        key = tuple(sorted(int(r) for r in ranks))
        return _multiset_rows()[key]

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays = {"peg_own": self.peg_own, "peg_opp": self.peg_opp, "peg_se": self.peg_se}
        write_npz(path, PEGGING_FORMAT, self.provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> PeggingTable:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> PeggingTable:
            shape = (2, len(kept_multisets()))
            parts = [np.asarray(arrays[k], np.float64) for k in ("peg_own", "peg_opp", "peg_se")]
            if any(p.shape != shape or not np.isfinite(p).all() for p in parts):
                raise ValueError("arrays of the wrong shape")
            own, opp, se = parts
            return cls(own, opp, se, provenance=provenance)

        return read_npz(source, "the pegging table", PEGGING_FORMAT, parse)


@cache
def keep_rows() -> np.ndarray:
    """Row of each kept multiset, indexed by its sorted ranks read in base 13."""
    ms = kept_multisets()
    lookup = np.full(13**4, -1, np.int64)
    lookup[((ms[:, 0] * 13 + ms[:, 1]) * 13 + ms[:, 2]) * 13 + ms[:, 3]] = np.arange(len(ms))
    return lookup


def hands_pegging(table: PeggingTable, hands6: np.ndarray) -> dict[str, np.ndarray]:
    """Per role ("dealer", "pone"): (n, 15) pegging net (own - opponent's) of the keeps
    of each six-card hand in ``hands6`` (n, 6), discards in ``DISCARDS`` order."""
    from crib_analyze.discard_kernels import KEEPS

    kept = np.sort(np.asarray(hands6, np.int64)[:, KEEPS] >> 2, axis=2)  # (n, 15, 4)
    key = ((kept[..., 0] * 13 + kept[..., 1]) * 13 + kept[..., 2]) * 13 + kept[..., 3]
    rows = keep_rows()[key]
    net = table.peg_own - table.peg_opp  # (2 seats [pone, dealer], 1820)
    return {"dealer": net[1][rows], "pone": net[0][rows]}


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
    """Progress of a build: the stage (1 pilot, then top-ups), cells done of those the
    stage runs, deals so far, seconds so far."""

    stage: int
    done: int
    total: int
    deals: int
    seconds: float


def build_pegging(
    target_se: float = 0.02,
    pilot: int = 2000,
    max_deals: int = 200_000,
    seed: int = 0,
    policy: str = TABLE_POLICY,
    samples: int = 16,
    model: ExpertModel | None = None,
    batch: int = 182,
    log: Callable[[BuildLog], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> PeggingTable:
    """Simulate the 3,640 cells (1,820 keeps x 2 roles) until the standard error of each
    cell's pegging differential is at most ``target_se`` (or ``max_deals`` are spent).

    Stage 1 plays ``pilot`` deals per cell; later stages give each cell still short of
    the target the deals its variance asks for (up to four top-ups). Deal j of cell c
    always draws the same random stream, so a seed gives the same table on any number
    of threads. With ``checkpoint`` (a file), the
    state is saved after every batch and a killed build resumes from it.
    """
    if pilot < 2 or max_deals < pilot:
        raise UsageError(f"need 2 <= pilot <= max_deals, got {pilot} and {max_deals}")
    if not target_se > 0:
        raise UsageError(f"target_se must be positive, got {target_se}")
    code = policy_code(policy)
    m = model or load_model()
    ranks = kept_multisets()
    cells = np.concatenate([ranks, ranks])
    seats = np.repeat(np.arange(2, dtype=np.int64), len(ranks))
    n_cells = len(cells)
    settings = {
        "target_se": target_se, "pilot": pilot, "max_deals": max_deals, "seed": seed,
        "policy": policy, "samples": samples, "model": m.fingerprint(), "version": __version__,
    }  # fmt: skip
    sums = np.zeros((n_cells, 3))
    done = np.zeros(n_cells, np.int64)  # deals played per cell
    state = _load_checkpoint(checkpoint, settings)
    if state is not None:
        sums, done = state
    weights = kept_rank_weights(m)
    policies = np.array([code, code], np.int64)
    start = time.time()

    def run(stage: int, wanted: np.ndarray) -> None:
        todo = np.flatnonzero(done < wanted)
        for lo in range(0, len(todo), batch):
            idx = todo[lo : lo + batch]
            sums[idx] += pgk.cell_sums(
                cells[idx], seats[idx], idx.astype(np.int64), done[idx], wanted[idx] - done[idx],
                seed, rank_multiset_keys(), m.policy("pone").pi, m.policy("dealer").pi,
                policies, weights, samples,
            )  # fmt: skip
            done[idx] = wanted[idx]
            _save_checkpoint(checkpoint, settings, sums, done)
            if log:
                log(BuildLog(stage, min(lo + batch, len(todo)), len(todo), int(done.sum()),
                             time.time() - start))  # fmt: skip

    run(1, np.full(n_cells, pilot, np.int64))
    for stage in range(2, 6):  # top up until every cell meets the target (or the cap)
        _, _, se = _summary(sums, done)
        short = (se > target_se) & (done < max_deals)
        if not short.any():
            break
        sd = se * np.sqrt(done)
        wanted = np.ceil(1.05 * (sd / target_se) ** 2)  # a little margin for the estimate
        wanted = np.where(short, np.clip(wanted, done + 1, max_deals), done).astype(np.int64)
        run(stage, wanted)
    own, opp, se = _summary(sums, done)
    provenance = {
        "made_by": f"crib-analyze {__version__} build-pegging",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "policy": policy,
        "search_samples": samples if policy == "search" else None,
        "seed": seed,
        "expert_model": m.fingerprint(),
        "target_se": target_se,
        "pilot_deals": pilot,
        "max_deals": max_deals,
        "deals": int(done.sum()),
        "deals_per_cell_min": int(done.min()),
        "deals_per_cell_max": int(done.max()),
        "max_se": float(se.max()),
        "scheme": "per cell: the keeper's four cards with random suits, two random cards "
        "thrown, the opponent's six from the 46 left thrown by its seat's expert policy, "
        "the starter from the 40 left; both play the policy to the end; a pilot of "
        "deals per cell, then each cell topped up to the target standard error",
        "seconds": round(time.time() - start, 1),
    }
    table = PeggingTable(
        own.reshape(2, -1), opp.reshape(2, -1), se.reshape(2, -1), provenance=provenance
    )
    if checkpoint is not None:
        with contextlib.suppress(OSError):
            os.unlink(checkpoint)
    return table


def _summary(sums: np.ndarray, done: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Means of own and opponent's points, and the standard error of the difference."""
    n = done.astype(np.float64)
    own, opp = sums[:, 0] / n, sums[:, 1] / n
    var = np.maximum(sums[:, 2] / n - (own - opp) ** 2, 0.0) * n / (n - 1)
    return own, opp, np.sqrt(var / n)


def _save_checkpoint(
    path: str | os.PathLike[str] | None,
    settings: dict[str, Any],
    sums: np.ndarray,
    done: np.ndarray,
) -> None:
    if path is None:
        return
    try:
        with atomic_open(path, "wb") as fh:
            np.savez(fh, settings=np.array(json.dumps(settings)), sums=sums, done=done)
    except OSError as e:
        raise StorageError(f"cannot write the checkpoint {path}: {describe_os_error(e)}") from None


def _load_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any]
) -> tuple[np.ndarray, np.ndarray] | None:
    """The saved (sums, done) of an interrupted build with the same settings, if any."""
    if path is None or not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if json.loads(str(data["settings"])) != settings:
                return None
            return np.array(data["sums"]), np.array(data["done"])
    except Exception:  # a damaged checkpoint: start over
        return None


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
