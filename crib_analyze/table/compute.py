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
from crib_analyze.crib import zero_kernels as zk
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.crib.hand_kernels import unseen_ranks
from crib_analyze.crib.random_crib_kernels import RANDOM_COMPLETIONS
from crib_analyze.crib.throw_fives_rule import FORBIDDEN, legal_throws_of
from crib_analyze.discard.penalties import penalty_points
from crib_analyze.expert.class_values import all_class_pegging, class_cribs_range
from crib_analyze.position import Seat
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.table.spec import TableSpec

#: numeric columns of a chunk, in file order (the crib columns depend on the model)
CRIB_COLUMNS = {
    "random": ["crib_mean"],
    "expert": ["dealer_crib_mean", "pone_crib_mean"],
}


#: a penalty table's chances of a zero crib (per role under the expert model)
CRIB_ZERO_COLUMNS = {
    "random": ["p_crib_zero"],
    "expert": ["dealer_p_crib_zero", "pone_p_crib_zero"],
}

#: the play's columns (none in a lowball or throw-fives table: the pegging values are
#: for players who want points, dealt by the plain rules)
PLAY_COLUMNS = [
    "dealer_peg_net",
    "pone_peg_net",
    "dealer_total",
    "pone_total",
    "dealer_best_total",
    "pone_best_total",
]


def numeric_columns(
    opponent: str, penalty: str = "none", lowball: bool = False, throw_fives: bool = False
) -> list[str]:
    """Names of the numeric columns of a table made with ``opponent`` and the variants
    (a plain table's are those of every table before the variants, in that order)."""
    zero = [] if penalty == "none" else [
        "p_hand_zero", *CRIB_ZERO_COLUMNS[opponent], "dealer_penalty", "pone_penalty"
    ]  # fmt: skip
    return [
        "hand_mean",
        *CRIB_COLUMNS[opponent],
        "dealer_heels",
        *zero,
        "dealer_net",
        "pone_net",
        *(["legal"] if throw_fives else []),
        "dealer_best",
        "pone_best",
        *([] if lowball or throw_fives else PLAY_COLUMNS),
        "hand_id",
        "weight",
        "d1",
        "d2",
        "k1",
        "k2",
        "k3",
        "k4",
    ]


def spec_columns(spec: TableSpec) -> list[str]:
    """:func:`numeric_columns` of a run."""
    return numeric_columns(spec.opponent, spec.penalty, spec.lowball, spec.throw_fives)


def zero_chances(
    spec: TableSpec, cards: np.ndarray, model: ExpertModel | None, multiset: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(n, 15) P(the kept hand scores nothing) over the 46 starters, and (2, n, 15) by
    the holder's seat P(the crib scores nothing): exact, in closed form over ranks
    (:mod:`crib_analyze.crib.zero_kernels`); the expert's throws weighed per rank
    multiset (``multiset``: each hand's, as :func:`hand_classes` numbers them)."""
    from crib_analyze.crib import combine_kernels as ck
    from crib_analyze.crib import throw_policy_kernels as tpk

    table = rank_table()
    hand_zero, crib_zero = zk.class_zero_counts(table, cards.astype(np.int64))
    if spec.opponent == "random":
        crib = crib_zero / RANDOM_COMPLETIONS
        return hand_zero / dk.N_UNSEEN, np.stack([crib, crib])
    assert model is not None
    groups, group = np.unique(multiset, return_inverse=True)
    all_multisets = hand_classes().multisets.astype(np.int64)
    out = np.empty((2, len(cards), dk.N_DISCARDS))
    for seat in Seat:
        policy = model.opponent_policy(seat)
        pab = np.empty((len(groups), 13, 13))
        q = np.empty((len(groups), 13, 13, 13))
        F = np.empty((len(groups), 13, 13))
        for g, m in enumerate(groups):
            n_rank = unseen_ranks(all_multisets[m])
            W, F[g] = tpk.policy_weights(all_multisets, policy.pi, policy.suited, n_rank)
            pab[g], q[g] = ck.rank_pair_parts(W, n_rank)
        out[seat] = zk.classes_policy_crib_zero(table, cards.astype(np.int64), group, pab, q, F)
    return hand_zero / dk.N_UNSEEN, out


def _best(value: np.ndarray, lowball: bool, legal: np.ndarray | None = None) -> np.ndarray:
    """The best throws' flags by ``value`` (the fewest points under lowball), among the
    ``legal`` throws if given."""
    aimed = -value if lowball else value
    if legal is not None:
        aimed = np.where(legal, aimed, FORBIDDEN)
    return dk.best_flags(aimed, dk.TIE_TOLERANCE)


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
    if not (spec.lowball or spec.throw_fives):
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
    elif spec.throw_fives:  # the random opponent obeys the rule: its crib entry by entry
        dealer_crib, fives_zero = zk.classes_throw_fives_cribs(rank_table(), cards.astype(np.int64))
        pone_crib = dealer_crib
        cribs = {"crib_mean": dealer_crib}
    else:
        dealer_crib = pone_crib = crib_num / RANDOM_COMPLETIONS
        cribs = {"crib_mean": dealer_crib}
    heels = dk.class_heels(cards.astype(np.int64))[:, None] * np.ones((1, dk.N_DISCARDS))
    dealer_rank = hand + dealer_crib  # heels is the hand's, whatever it throws
    pone_net = hand - pone_crib
    zero: dict[str, np.ndarray] = {}
    if spec.penalty != "none":
        p_hand_zero, p_crib_zero = zero_chances(spec, cards, model, classes.multiset[lo:hi])
        if spec.throw_fives and spec.opponent == "random":
            p_crib_zero = np.stack([fives_zero, fives_zero])
        shape = p_hand_zero.shape
        points = penalty_points(spec.penalty, p_hand_zero.ravel(), p_crib_zero.reshape(2, -1))
        moved = {seat.role: points[seat].reshape(shape) for seat in Seat}
        crib_zero = (
            {"p_crib_zero": p_crib_zero[Seat.DEALER]} if spec.opponent == "random" else
            {"dealer_p_crib_zero": p_crib_zero[Seat.DEALER],
             "pone_p_crib_zero": p_crib_zero[Seat.PONE]}
        )  # fmt: skip
        zero = {"p_hand_zero": p_hand_zero, **crib_zero,
                "dealer_penalty": moved["dealer"], "pone_penalty": moved["pone"]}  # fmt: skip
        dealer_rank = dealer_rank + moved["dealer"]
        pone_net = pone_net + moved["pone"]
    dealer_net = dealer_rank + heels
    legal = legal_throws_of(cards.astype(np.int64)) if spec.throw_fives else None
    n = hi - lo
    thrown = cards[:, dk.DISCARDS].reshape(n * dk.N_DISCARDS, 2)
    kept = cards[:, dk.KEEPS].reshape(n * dk.N_DISCARDS, 4)
    columns = {
        "hand_mean": hand,
        **cribs,
        "dealer_heels": heels,
        **zero,
        "dealer_net": dealer_net,
        "pone_net": pone_net,
        **({"legal": legal} if legal is not None else {}),
        "dealer_best": _best(dealer_rank, spec.lowball, legal),
        "pone_best": _best(pone_net, spec.lowball, legal),
        "hand_id": np.repeat(np.arange(lo, hi, dtype=np.int32), dk.N_DISCARDS),
        "weight": np.repeat(classes.weight[lo:hi], dk.N_DISCARDS),
        "d1": thrown[:, 0],
        "d2": thrown[:, 1],
        "k1": kept[:, 0],
        "k2": kept[:, 1],
        "k3": kept[:, 2],
        "k4": kept[:, 3],
    }
    if not (spec.lowball or spec.throw_fives):
        assert pegging is not None
        peg = all_class_pegging(pegging, lo, hi)
        dealer_total = dealer_net + peg["dealer"]
        pone_total = pone_net + peg["pone"]
        columns |= {
            "dealer_peg_net": peg["dealer"],
            "pone_peg_net": peg["pone"],
            "dealer_total": dealer_total,
            "pone_total": pone_total,
            "dealer_best_total": dk.best_flags(dealer_total, dk.TIE_TOLERANCE),
            "pone_best_total": dk.best_flags(pone_total, dk.TIE_TOLERANCE),
        }
    return {name: np.ascontiguousarray(columns[name]).ravel() for name in spec_columns(spec)}
