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
from crib_analyze.artifacts.pegging_table import kept_multisets
from crib_analyze.artifacts.solver_leads import SolverLeads, leads_for
from crib_analyze.crib import dealing_kernels as dlk
from crib_analyze.crib.hand_classes import multisets
from crib_analyze.errors import UsageError
from crib_analyze.play import inference_kernels as ik
from crib_analyze.play import play_policy_kernels as pk
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.position import Seat
from crib_analyze.settings import (
    PLAY_POLICIES,
    SEARCH_SAMPLES,
    SOLVER_HANDS,
    SOLVER_LEAD_SLACK,
    SOLVER_TAU,
    check_choice,
)

NO_LEADS = np.zeros((0, 1820), np.int64)
NO_REPLIES = np.zeros((0, 13, 1820), np.int64)


def policy_code(name: str) -> int:
    check_choice("play policy", name, PLAY_POLICIES)
    return PLAY_POLICIES.index(name)


@cache
@cache
def rank_multiset_keys() -> np.ndarray:
    """The sorted base-13 key of every six-rank multiset (the rows of the policies)."""
    return np.asarray(dlk.multiset_keys(multisets()))


def throw_policies(model: ExpertModel) -> dlk.ThrowPolicies:
    """The expert model's throws as the dealing kernels read them."""
    return dlk.ThrowPolicies(rank_multiset_keys(), model.policy("pone").pi,
                             model.policy("dealer").pi)  # fmt: skip


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


_THROWS: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray]] = {}


def throw_likelihoods(model: ExpertModel) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each seat's throw policy turned around (start (2, 1821), pair (2, E), chance
    (2, E), by the thrower's seat; padded): for each keep, the rank pairs it can be kept
    with and the chance the seat's expert policy throws them. Once per model."""
    key = model.fingerprint()
    if key not in _THROWS:
        keeps = np.ascontiguousarray(kept_multisets())
        parts = [
            ik.throw_likelihoods(keeps, rank_multiset_keys(), model.policy(seat.name.lower()).pi)
            for seat in Seat
        ]
        size = max(len(p[1]) for p in parts)
        start = np.stack([p[0] for p in parts])
        pair = np.zeros((2, size), np.int64)
        chance = np.zeros((2, size))
        for i, (_, pr, ch) in enumerate(parts):
            pair[i, : len(pr)] = pr
            chance[i, : len(ch)] = ch
        _THROWS[key] = (start, pair, chance)
    return _THROWS[key]


def play_reader(
    model: ExpertModel | None = None,
    hands: int = SOLVER_HANDS.default,
    tau: float = SOLVER_TAU.default,
    reads: bool = True,
    slack: float = SOLVER_LEAD_SLACK.default,
    leads: bool = True,
) -> Reader:
    """The reader tuple the play kernels take: kept-rank priors, keeps, each seat's
    throw policy turned around, [tau, hands, slack] for the solver's reading and budget,
    and the solver's leads and replies made with ``model`` (when there are such, and
    ``leads``).
    Without ``reads`` (no solver will play) the reading's parts are empty, of the same
    types: nothing is computed that no policy uses."""
    m = model or load_model()
    hands = SOLVER_HANDS.check(hands)
    tau = SOLVER_TAU.check(tau)
    slack = SOLVER_LEAD_SLACK.check(slack)
    params = np.array([tau, float(hands), slack])
    if not reads:
        nothing = np.zeros((2, 0), np.int64)
        return _read_only(Reader(
            rank_weights=kept_rank_weights(m), keeps=np.zeros((0, 4), np.int64),
            start=np.zeros((2, 1), np.int64), pair=nothing, chance=np.zeros((2, 0)),
            params=params, leads=NO_LEADS, replies=NO_REPLIES,
        ))  # fmt: skip
    start, pair, chance = throw_likelihoods(m)
    keeps = np.ascontiguousarray(kept_multisets())
    known = solver_leads_of(m) if leads else None
    return _read_only(Reader(
        rank_weights=kept_rank_weights(m), keeps=keeps, start=start, pair=pair,
        chance=chance, params=params, leads=NO_LEADS if known is None else known.leads,
        replies=NO_REPLIES if known is None or known.replies is None else known.replies,
    ))  # fmt: skip


def _read_only(reader: Reader) -> Reader:
    """The reader with every array read-only: the kernels only read it, and numba types a
    read-only array apart from a writable one, so a reader of mixed flags would compile
    every play kernel twice (about two minutes of the test suite)."""
    for array in reader:
        array.setflags(write=False)
    return reader


def solver_leads_of(model: ExpertModel) -> SolverLeads | None:
    """The solver's leads made with ``model``, if any (see
    :func:`crib_analyze.artifacts.solver_leads.leads_for`)."""
    return leads_for(model.fingerprint())


def deal(n: int, seed: int, model: ExpertModel | None = None, first: int = 0) -> np.ndarray:
    """(n, 13) deals: pone's four kept, dealer's four, starter, pone's throw, dealer's."""
    m = model or load_model()
    return np.asarray(dlk.expert_deals(n, seed, first, throw_policies(m)))


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
    policies = np.array([policy_code(pone_policy), policy_code(dealer_policy)], np.int64)
    reader = play_reader(model, reads=bool((policies == pk.SOLVER).any()))
    seats = np.ascontiguousarray(deals[:, :13])  # one compiled signature (C layout)
    return np.asarray(pk.play_many(seats, policies, reader, samples, seed, first))


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
