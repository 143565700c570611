"""The numbers of the discard table, one chunk of hand classes at a time.

Rank-only parts (hand over starters; the random crib) are computed once per rank
multiset and cached for the process; flush, nobs and heels per class; the pegging net
of each keep and role comes from the pegging table, and ``*_total`` adds it to the net
(``*_best_total`` flags the best throws by total, ``*_best`` by the classic net). Under the random
opponent everything is an exact rational; under the expert opponent each role's crib
comes from the opponent's tabulated policy (:mod:`crib_analyze.expert.class_values`). Best
discards follow the one tie rule of :mod:`crib_analyze.crib.hand_kernels`.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.artifacts.pegging_table import PeggingTable, packaged_pegging_table
from crib_analyze.crib import class_kernels as tk
from crib_analyze.crib import hand_kernels as dk
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.crib.random_crib_kernels import RANDOM_COMPLETIONS
from crib_analyze.expert.class_values import all_class_pegging, class_cribs_range
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.table.spec import TableSpec

#: numeric columns of a chunk, in file order (the crib columns depend on the model)
CRIB_COLUMNS = {
    "random": ["crib_mean"],
    "expert": ["dealer_crib_mean", "pone_crib_mean"],
}


def numeric_columns(opponent: str) -> list[str]:
    """Names of the numeric columns of a table made with ``opponent``."""
    return [
        "hand_mean",
        *CRIB_COLUMNS[opponent],
        "dealer_heels",
        "dealer_net",
        "pone_net",
        "dealer_best",
        "pone_best",
        "dealer_peg_net",
        "pone_peg_net",
        "dealer_total",
        "pone_total",
        "dealer_best_total",
        "pone_best_total",
        "hand_id",
        "weight",
        "d1",
        "d2",
        "k1",
        "k2",
        "k3",
        "k4",
    ]


@cache
def _multiset_parts(with_crib: bool) -> tuple[np.ndarray, np.ndarray]:
    """Hand (and, for the random model, crib) rank numerators of every multiset."""
    parts = tk.multiset_rank_numerators(rank_table(), hand_classes().multisets, with_crib)
    return parts[0], parts[1]


def compute_chunk(
    spec: TableSpec, k: int, model: ExpertModel | None = None, pegging: PeggingTable | None = None
) -> dict[str, np.ndarray]:
    """The numeric columns of chunk ``k``: one row per (class, discard), 15 per class.

    ``model`` is the expert model of an expert table (its fingerprint must be the
    spec's); ``pegging`` the pegging table of the totals (default: the packaged one).
    """
    pegging = pegging or packaged_pegging_table()
    if spec.pegging_fingerprint not in (None, pegging.fingerprint()):
        raise ValueError("compute_chunk needs the pegging table the spec was made with")
    lo, hi = spec.chunk_range(k)
    classes = hand_classes()
    cards = classes.cards[lo:hi]
    hand_rank, crib_rank = _multiset_parts(with_crib=spec.opponent == "random")
    hand_num, crib_num = tk.class_numerators(cards, classes.multiset[lo:hi], hand_rank, crib_rank)
    hand = hand_num / dk.N_UNSEEN
    if spec.opponent == "expert":
        if model is None or model.fingerprint() != spec.model_fingerprint:
            raise ValueError("compute_chunk needs the expert model the spec was made with")
        dealer_crib, pone_crib = class_cribs_range(
            [model.opponent_policy("dealer"), model.opponent_policy("pone")], lo, hi
        )
        cribs = {"dealer_crib_mean": dealer_crib, "pone_crib_mean": pone_crib}
    else:
        dealer_crib = pone_crib = crib_num / RANDOM_COMPLETIONS
        cribs = {"crib_mean": dealer_crib}
    heels = dk.class_heels(cards.astype(np.int64))[:, None] * np.ones((1, dk.N_DISCARDS))
    peg = all_class_pegging(pegging, lo, hi)
    dealer_total = hand + dealer_crib + heels + peg["dealer"]
    pone_total = hand - pone_crib + peg["pone"]
    n = hi - lo
    thrown = cards[:, dk.DISCARDS].reshape(n * dk.N_DISCARDS, 2)
    kept = cards[:, dk.KEEPS].reshape(n * dk.N_DISCARDS, 4)
    columns = {
        "hand_mean": hand,
        **cribs,
        "dealer_heels": heels,
        "dealer_net": hand + dealer_crib + heels,
        "pone_net": hand - pone_crib,
        "dealer_best": dk.best_flags(hand + dealer_crib, dk.TIE_TOLERANCE),
        "pone_best": dk.best_flags(hand - pone_crib, dk.TIE_TOLERANCE),
        "dealer_peg_net": peg["dealer"],
        "pone_peg_net": peg["pone"],
        "dealer_total": dealer_total,
        "pone_total": pone_total,
        "dealer_best_total": dk.best_flags(dealer_total, dk.TIE_TOLERANCE),
        "pone_best_total": dk.best_flags(pone_total, dk.TIE_TOLERANCE),
        "hand_id": np.repeat(np.arange(lo, hi, dtype=np.int32), dk.N_DISCARDS),
        "weight": np.repeat(classes.weight[lo:hi], dk.N_DISCARDS),
        "d1": thrown[:, 0],
        "d2": thrown[:, 1],
        "k1": kept[:, 0],
        "k2": kept[:, 1],
        "k3": kept[:, 2],
        "k4": kept[:, 3],
    }
    return {
        name: np.ascontiguousarray(columns[name]).ravel() for name in numeric_columns(spec.opponent)
    }
