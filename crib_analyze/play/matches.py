"""Deals for the play and duplicate matches between play policies.

A deal gives each player six cards from a shuffled deck and lets each throw by the
expert discard policy of its seat, so the play starts from realistic keeps. A
*duplicate* match plays every deal twice with the seats swapped, which cancels the luck
of the cards: policy A's score is the mean, over deals, of its pegging differential in
the two seatings, with its standard error.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.crib import dealing_kernels as dlk
from crib_analyze.crib.hand_classes import multisets
from crib_analyze.errors import UsageError
from crib_analyze.play import play_policy_kernels as pk
from crib_analyze.position import Seat
from crib_analyze.settings import PLAY_POLICIES, SEARCH_SAMPLES, check_choice


def policy_code(name: str) -> int:
    check_choice("play policy", name, PLAY_POLICIES)
    return PLAY_POLICIES.index(name)


@cache
def rank_multiset_keys() -> np.ndarray:
    return np.asarray(dlk.multiset_keys(multisets()))


def kept_rank_weights(model: ExpertModel) -> np.ndarray:
    """(2, 13) per seat: how likely a card of each rank is to be among the *opponent's*
    kept cards, relative to a random keep (1 = as likely). From the compact throw
    models: expected kept cards of rank c, sum_ab P[a,b] K[a,b,c]."""
    out = np.empty((2, 13))
    for seat in Seat:
        m = model.throws(seat.other)
        kept = np.einsum("ab,abc->c", m.P, m.K)  # of 4 kept cards, per rank
        out[seat] = kept * 13 / 16  # a random keep has 16/13 cards of each rank
    return out


def deal(n: int, seed: int, model: ExpertModel | None = None, first: int = 0) -> np.ndarray:
    """(n, 13) deals: pone's four kept, dealer's four, starter, pone's throw, dealer's."""
    m = model or load_model()
    pone, dealer = m.policy("pone").pi, m.policy("dealer").pi
    return np.asarray(dlk.expert_deals(n, seed, first, rank_multiset_keys(), pone, dealer))


def play(
    deals: np.ndarray,
    pone_policy: str,
    dealer_policy: str,
    seed: int = 0,
    samples: int = SEARCH_SAMPLES.default,
    model: ExpertModel | None = None,
    first: int = 0,
) -> np.ndarray:
    """(n, 2) points pegged by the pone and the dealer in each deal."""
    if samples < 1:
        raise UsageError(f"samples must be at least 1, got {samples}")
    weights = kept_rank_weights(model or load_model())
    policies = np.array([policy_code(pone_policy), policy_code(dealer_policy)], np.int64)
    seats = np.ascontiguousarray(deals[:, :9])  # one compiled signature (C layout)
    return np.asarray(pk.play_many(seats, policies, weights, samples, seed, first))


@dataclass(frozen=True)
class MatchResult:
    """Policy ``a`` against ``b`` over ``deals`` deals, each played in both seatings."""

    a: str
    b: str
    deals: int
    mean: float  # a's pegging differential per deal (mean of its two seatings)
    se: float
    a_as_pone: float  # a's mean points as pone (b deals), and as dealer
    a_as_dealer: float
    b_as_pone: float
    b_as_dealer: float

    @property
    def z(self) -> float:
        return self.mean / self.se if self.se > 0 else float("inf")


def duplicate_match(
    a: str,
    b: str,
    deals: int = 20_000,
    seed: int = 0,
    samples: int = SEARCH_SAMPLES.default,
    model: ExpertModel | None = None,
) -> MatchResult:
    """Play the same ``deals`` deals with ``a`` as pone and ``b`` as dealer, then swapped."""
    if deals < 2:
        raise UsageError(f"a match needs at least 2 deals, got {deals}")
    m = model or load_model()
    cards = deal(deals, seed, m)
    one = play(cards, a, b, seed, samples, m)  # a is pone
    two = play(cards, b, a, seed, samples, m)  # a deals
    diff = ((one[:, 0] - one[:, 1]) + (two[:, 1] - two[:, 0])) / 2.0
    return MatchResult(
        a=a,
        b=b,
        deals=deals,
        mean=float(diff.mean()),
        se=float(diff.std(ddof=1) / np.sqrt(deals)),
        a_as_pone=float(one[:, 0].mean()),
        a_as_dealer=float(two[:, 1].mean()),
        b_as_pone=float(two[:, 0].mean()),
        b_as_dealer=float(one[:, 1].mean()),
    )
