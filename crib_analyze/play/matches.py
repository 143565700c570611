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
from crib_analyze.crib.one_hand import six_rank_multisets
from crib_analyze.errors import UsageError
from crib_analyze.kernel_source import source_digest
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
from crib_analyze.storage.cache import SPOT_ROWS, cached_arrays

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
    with and the chance the seat's expert policy throws them. Once per model: from the
    cache folder (keyed by the model's fingerprint and the kernels' source, checked on
    load against rows worked out again from the model's one-hand form), else computed
    (reading the policies from the model file, about 0.06 s) and kept there."""
    key = model.fingerprint()
    if key not in _THROWS:
        arrays = cached_arrays(
            "throw_likelihoods",
            {"model": key, "kernels": source_digest()},
            lambda: _likelihoods(model),
            lambda arrays: _unlikely(arrays, model),
        )
        pair = arrays["pair"].astype(np.int64)  # kept as bytes (a rank pair < 169)
        _THROWS[key] = (arrays["start"], pair, arrays["chance"])
    return _THROWS[key]


def _likelihoods(model: ExpertModel) -> dict[str, np.ndarray]:
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
    return {"start": start, "pair": pair.astype(np.uint8), "chance": chance}


def _unlikely(arrays: dict[str, np.ndarray], model: ExpertModel) -> str | None:
    """What is wrong with cached likelihoods (None: sound): their shapes and ranges, and
    :data:`~crib_analyze.storage.cache.SPOT_ROWS` keeps of each seat against
    :func:`keep_likelihoods`."""
    start, pair, chance = (arrays.get(k) for k in ("start", "pair", "chance"))
    if start is None or pair is None or chance is None:
        return "not the expected arrays"
    if start.shape != (2, len(kept_multisets()) + 1) or pair.shape != chance.shape:
        return "not the expected shapes"
    if chance.dtype != np.float64:
        return "not the expected shapes"
    if pair.ndim != 2 or pair.shape[0] != 2 or start.dtype != np.int64 or pair.dtype != np.uint8:
        return "not the expected shapes"
    if (np.diff(start, axis=1) < 0).any() or start[:, 0].any() or start.max() > pair.shape[1]:
        return "keeps out of order"
    if not (((pair >= 0) & (pair < 169)).all() and ((chance >= 0) & (chance <= 1 + 1e-9)).all()):
        return "values a throw cannot take"
    rng = np.random.default_rng()
    for seat in Seat:
        keeps = rng.choice(len(kept_multisets()), SPOT_ROWS, replace=False)
        for k, fresh in zip(keeps, keep_likelihoods(model, seat, keeps), strict=True):
            lo, hi = start[seat, k], start[seat, k + 1]
            cached = dict(
                zip(pair[seat, lo:hi].tolist(), chance[seat, lo:hi].tolist(), strict=True)
            )
            if cached.keys() != fresh.keys() or any(
                abs(cached[t] - fresh[t]) > 1e-9 for t in fresh
            ):
                return "rows computed again do not match it"
    return None


def keep_likelihoods(model: ExpertModel, seat: Seat, keeps: np.ndarray) -> list[dict[int, float]]:
    """For each keep of ``keeps`` (rows of :func:`kept_multisets`), the chance that
    ``seat``'s expert policy throws each rank pair (a * 13 + b, a <= b) with it, where
    above 0: from the model's one-hand form (its policy entries by multiset, as the
    opponent of the other seat), without the model file or a kernel."""
    compiled = model.one_hand_policies()
    policy = int(seat.other)  # the one-hand form holds each seat's opponent's throws
    lo, hi = np.searchsorted(compiled.entry_bin // 169, [policy, policy + 1])
    in_block = compiled.entry_multiset[lo:hi]  # ascending: entries go by multiset
    digits = 13 ** np.arange(5, -1, -1)
    keys = six_rank_multisets() @ digits  # ascending: the multisets are lexicographic
    out = []
    for k in keeps:
        a, b = np.triu_indices(13)  # every rank pair a <= b
        six = np.sort(np.column_stack([np.broadcast_to(kept_multisets()[k], (len(a), 4)), a, b]))
        possible = (six[:, :, None] == np.arange(13)).sum(axis=1).max(axis=1) <= 4
        six, a, b = six[possible], a[possible], b[possible]
        m = np.searchsorted(keys, six @ digits)
        first = lo + np.searchsorted(in_block, m)
        size = lo + np.searchsorted(in_block, m + 1) - first
        which = np.repeat(np.arange(len(m)), size)  # each entry of each pair's multiset
        entry = np.arange(size.sum()) - np.repeat(np.cumsum(size) - size, size) + first[which]
        mine = compiled.entry_bin[entry] == policy * 169 + a[which] * 13 + b[which]
        chance = np.bincount(which[mine], compiled.prob[entry[mine]], len(m))
        out.append({int(t): float(c) for t, c in zip(a * 13 + b, chance, strict=True) if c > 0.0})
    return out


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
