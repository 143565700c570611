"""Values over every suit class at once: hand means, cribs against a throw model or a
policy, and the crib value of each thrown rank pair by the seat that throws it.

Engines above (the expert fixed point, the table) take their numbers from here; the
kernels do the work (:mod:`crib_analyze.crib.class_kernels`,
:mod:`crib_analyze.crib.throw_model_kernels`, :mod:`crib_analyze.crib.throw_policy_kernels`).
"""

from __future__ import annotations

import itertools

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel, ThrowModel, ThrowPolicy
from crib_analyze.artifacts.pegging_table import PeggingTable, hands_pegging
from crib_analyze.crib import class_kernels as tk
from crib_analyze.crib import hand_kernels as hk
from crib_analyze.crib import throw_model_kernels as tmk
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_classes import hand_classes, multisets
from crib_analyze.crib.hand_kernels import N_UNSEEN
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import CALL_SECONDS


def class_offsets(multiset: np.ndarray, n_multisets: int) -> np.ndarray:
    """Start of each multiset's classes (classes are grouped by multiset)."""
    return np.searchsorted(multiset, np.arange(n_multisets + 1)).astype(np.int64)


def all_hand_means() -> np.ndarray:
    """(N, 15) exact hand means of every class's discards."""
    classes = hand_classes()
    hand_rank, crib_rank = tk.multiset_rank_numerators(rank_table(), classes.multisets, False)
    hand_num, _ = tk.class_numerators(classes.cards, classes.multiset, hand_rank, crib_rank)
    return np.asarray(hand_num / N_UNSEEN)


CRIB_PARTS = 16  # kernel calls per pass over every class (Ctrl-C is checked between them)


def all_class_cribs(throws: ThrowModel, out: np.ndarray | None = None) -> np.ndarray:
    """(N, 15) crib expectation of every class's discards when the other player's
    throws follow the compact model ``throws``; computed in parts of the multisets,
    into ``out`` when given (a fixed point reuses its arrays: a fresh 115 MB array costs
    more to touch than to fill)."""
    classes = hand_classes()
    offsets = class_offsets(classes.multiset, len(classes.multisets))
    if out is None:
        out = np.empty((len(classes.cards), hk.N_DISCARDS), np.float64)
    bounds = np.linspace(0, len(classes.multisets), CRIB_PARTS + 1).astype(np.int64)
    for m_lo, m_hi in itertools.pairwise(bounds.tolist()):
        interrupts.check()
        lo, hi = int(offsets[m_lo]), int(offsets[m_hi])
        tmk.class_model_cribs(
            rank_table(), classes.multisets[m_lo:m_hi], offsets[m_lo : m_hi + 1] - lo,
            classes.cards[lo:hi], throws.P, throws.F, throws.K, out[lo:hi],
        )  # fmt: skip
    return out


def class_cribs_range(policies: list[ThrowPolicy], lo: int, hi: int) -> np.ndarray:
    """(P, hi - lo, 15) crib expectation of classes ``lo:hi`` against tabulated policies
    (each the policy of the player throwing into the crib with us)."""
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
            multisets(),  # the cached int64 copy the model's policies use too
            np.stack([p.pi for p in policies]),
            np.stack([p.suited for p in policies]),
        )
    )


def role_tables(model: ExpertModel, compact: bool = False) -> dict[str, np.ndarray]:
    """Crib value of each thrown rank pair, keyed by the seat of the player who throws
    it: ``"dealer"`` (into its own crib, where the other cards come from a pone) and
    ``"pone"`` (into the dealer's crib). Each is (13, 13, 2): ranks x <= y, offsuit
    (0) or suited (1, x < y only; impossible entries are NaN); only the two thrown
    cards are known (50 unseen).

    Uses the tabulated policies (exact card removal) unless ``compact`` or absent.
    """
    table = rank_table()
    other = {"dealer": "pone", "pone": "dealer"}  # the seat of the crib's other thrower
    if compact or model.pone_policy is None or model.dealer_policy is None:
        return {
            seat: tmk.thrown_pair_values(table, *_arrays(model.throws(other[seat])))
            for seat in other
        }
    return {
        seat: pk.thrown_pair_values_policy(
            table, multisets(), model.policy(other[seat]).pi, model.policy(other[seat]).suited
        )
        for seat in other
    }


def _arrays(m: ThrowModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return m.P, m.F, m.K


def all_class_pegging(
    table: PeggingTable, lo: int = 0, hi: int | None = None
) -> dict[str, np.ndarray]:
    """Per role ("dealer", "pone"): (N, 15) pegging net (own - opponent's) of the keeps
    of classes ``lo:hi`` (all by default), from the pegging table (by kept ranks); in
    paced parts (Ctrl-C is checked between them: all of them take seconds)."""
    cards = hand_classes().cards[lo:hi]
    out = {role: np.empty((len(cards), hk.N_DISCARDS), np.float64) for role in ("dealer", "pone")}
    for first, n in interrupts.paced(len(cards), CALL_SECONDS, step=4096):
        for role, net in hands_pegging(table, cards[first : first + n]).items():
            out[role][first : first + n] = net
    return out
