"""The expert's throws with real cards, as the board kernels need them.

A player that throws "as the expert" with its real six cards best-responds to the
expert model: hand + its crib (against the other seat's tabulated policy) + the pegging
net of the keep. The crib part per rank multiset and throw is computed once per model
(a few seconds) and cached on disk under the model's fingerprint, verified on load
(:mod:`crib_analyze.storage.cache`).
"""

from __future__ import annotations

import csv
from functools import cache

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.artifacts.pegging_table import keep_rows, packaged_pegging_table
from crib_analyze.board import throw_choice_kernels as dlk
from crib_analyze.cards import RANKS
from crib_analyze.crib.hand_classes import multisets
from crib_analyze.kernel_source import source_digest
from crib_analyze.play.matches import throw_policies
from crib_analyze.position import Seat
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import CALL_SECONDS, packaged_crib_table
from crib_analyze.storage.cache import cached_arrays, spot_check

_THROW_ARRAYS: dict[str, dlk.ExpertThrows] = {}


def throw_arrays(model: ExpertModel) -> dlk.ExpertThrows:
    """What the throwing kernels need of ``model`` and the packaged pegging table (once
    per model and process; the crib table is kept in the kernel cache folder)."""
    key = model.fingerprint()
    if key not in _THROW_ARRAYS:
        pegging = packaged_pegging_table()
        _THROW_ARRAYS[key] = dlk.ExpertThrows(
            *throw_policies(model),
            cribs=expert_cribs(model),
            peg_net=np.ascontiguousarray(pegging.peg_own - pegging.peg_opp),
            peg_rows=keep_rows(),
            pair_cribs=shipped_pair_cribs(),
        )
    return _THROW_ARRAYS[key]


@cache
def shipped_pair_cribs() -> np.ndarray:
    """(2, 13, 13) the shipped crib tables against a random opponent by the thrown
    pair's ranks: [0] the pone's throw (the dealer's crib), [1] the dealer's own."""
    out = np.zeros((2, 13, 13))
    for seat in Seat:
        with packaged_crib_table(seat.role, "random").open() as fh:
            for row in csv.DictReader(fh):
                r1, r2 = RANKS.index(row["rank1"]), RANKS.index(row["rank2"])
                out[seat, r1, r2] = out[seat, r2, r1] = float(row["crib_mean"])
    out.setflags(write=False)
    return out


def expert_cribs(model: ExpertModel) -> np.ndarray:
    """(2, 18395, 15) :func:`~crib_analyze.board.throw_choice_kernels.multiset_cribs` of the
    model: from the cache folder (keyed by the model's fingerprint and the kernels'
    source, verified on load), or computed (a few seconds) and kept there."""
    shape = (2, len(multisets()), 15)
    pone, dealer = model.throws("pone"), model.throws("dealer")
    models = (pone.P, pone.F, pone.K, dealer.P, dealer.F, dealer.K)

    def compute() -> dict[str, np.ndarray]:  # about 2 s: in calls of CALL_SECONDS
        everyone = multisets()
        parts = [
            np.asarray(dlk.multiset_cribs(rank_table(), everyone[lo : lo + n], models))
            for lo, n in interrupts.paced(len(everyone), CALL_SECONDS, step=64)
        ]
        return {"cribs": np.concatenate(parts, axis=1)}

    def problem(arrays: dict[str, np.ndarray]) -> str | None:
        cribs = arrays.get("cribs")
        if cribs is None or cribs.shape != shape or cribs.dtype != np.float64:
            return "not the expected array"
        if not (np.isfinite(cribs).all() and (cribs >= 0).all() and (cribs <= 29).all()):
            return "values a crib cannot take"
        return spot_check(cribs, shape[1], lambda rows: dlk.multiset_cribs(
            rank_table(), np.ascontiguousarray(multisets()[rows]), models))  # fmt: skip

    key = {"model": model.fingerprint(), "kernels": source_digest()}
    return cached_arrays("expert_cribs", key, compute, problem)["cribs"]


def expert_deals(n: int, seed: int, model: ExpertModel, first: int = 0) -> np.ndarray:
    """(n, 13) deals with both players throwing as the expert with their real cards."""
    return np.asarray(dlk.card_deals(n, seed, first, dlk.EXPERT, rank_table(), throw_arrays(model)))
