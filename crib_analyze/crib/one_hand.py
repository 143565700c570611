"""One hand's values with numpy alone: the exact answer to ``discard`` with no compile.

A six-card hand needs little: 15 kept hands over 46 starters, and the crib of each
throw against the random or the tabulated expert opponent (for both seats), and heels.
This module computes them with numpy, so the one-hand commands answer without loading
numba. The numba kernels compute the same numbers and are its twins
(:func:`crib_analyze.crib.one_hand_kernels.hand_values`): sums are added in the
kernels' order (:func:`_total`), so tests/test_one_hand.py finds them equal to the last
bit on random hands (300 a model in make test, 3,000 in make test-all):

* the hand: :func:`crib_analyze.crib.hand_kernels.hand_scores`;
* the random opponent's crib: :mod:`crib_analyze.crib.random_crib_kernels` (integer
  sums over the 45,540 completions, then one division);
* the expert's crib: :mod:`crib_analyze.crib.throw_policy_kernels` (the opponent's rank
  multisets weighted by card removal, their throws by the policy) and the closed forms
  of :mod:`crib_analyze.crib.combine_kernels`.

Conventions (the throw order, the seat axis) are those of :mod:`crib_analyze.crib.hand_kernels`.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from functools import cache

import numpy as np

from crib_analyze.constants import (
    DISCARD_POSITIONS,
    HEELS_POINTS,
    JACK_RANK,
    KEEP_POSITIONS,
    N_DISCARDS,
    N_UNSEEN,
)
from crib_analyze.scoring.rank_points import rank_key, rank_table

DISCARDS = np.array(DISCARD_POSITIONS, np.int64)
KEEPS = np.array(KEEP_POSITIONS, np.int64)
RANDOM_COMPLETIONS = 1035 * 44  # the random opponent's pairs x starters
_COMB = np.array(  # C(n, k) for n, k <= 4
    [[1, 0, 0, 0, 0], [1, 1, 0, 0, 0], [1, 2, 1, 0, 0], [1, 3, 3, 1, 0], [1, 4, 6, 4, 1]]
)
_A, _B, _C = np.indices((13, 13, 13))  # rank grids of (pair a, pair b, starter c)


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class HandValues:
    """What the discard engine needs of six cards (arrays in throw order)."""

    scores: np.ndarray  # (15, 46) hand points of each keep with each unseen starter
    cribs: np.ndarray  # (2, 15) the crib of each throw, by our seat
    heels: float  # a dealer's expected heels holding these cards


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class CompiledPolicies:
    """P per-multiset throwing policies as flat entries: each nonzero throw of a rank
    multiset by one policy, in policy, multiset, throw order; built once a model
    (:func:`compile_policies`)."""

    n_policies: int
    rank_counts: np.ndarray  # (13, M) uint8 cards of each rank in each multiset
    full_weight: np.ndarray  # (M,) int64 prod_r C(4, k_r): a multiset's ways in a whole pack
    entry_multiset: np.ndarray  # (E,) the multiset of each entry
    entry_bin: np.ndarray  # (E,) policy * 169 + a * 13 + b of its thrown ranks a <= b
    prob: np.ndarray  # (E,) the probability of that throw
    suited_prob: np.ndarray  # (E,) its suited part
    entry_counts: np.ndarray  # (13, E) uint8: its multiset's cards of each rank


@cache
def six_rank_multisets() -> np.ndarray:
    """(18,395, 6) sorted ranks of every six-card rank multiset, lexicographic (the order
    of :func:`crib_analyze.crib.hand_classes.rank_multisets`)."""
    ms = np.arange(13)[:, None]
    for _ in range(5):  # append a rank no lower than the last, row by row: stays sorted
        lows = ms[:, -1]
        reps = 13 - lows
        rows = np.repeat(np.arange(len(ms)), reps)
        within = np.arange(len(rows)) - np.repeat(np.cumsum(reps) - reps, reps)
        ms = np.column_stack([ms[rows], lows[rows] + within])
    out: np.ndarray = ms[(ms[:, 0] != ms[:, 4]) & (ms[:, 1] != ms[:, 5])]  # none five alike
    out.setflags(write=False)
    return out


def compile_policies(
    entries: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]],
) -> CompiledPolicies:
    """:class:`CompiledPolicies` of P policies, each given by its nonzero entries
    (multiset, throw, pi, suited), ordered by multiset then throw."""
    ms = six_rank_multisets()
    n_ms = len(ms)
    slots = ms * n_ms + np.arange(n_ms)[:, None]  # (rank, multiset) of each card
    counts = np.bincount(slots.ravel(), minlength=13 * n_ms).reshape(13, n_ms)
    thrown = (ms[:, DISCARDS[:, 0]] * 13 + ms[:, DISCARDS[:, 1]]).ravel()  # (M * 15,)
    policy = np.concatenate([np.full(len(e[0]), p * 169) for p, e in enumerate(entries)])
    multiset = np.concatenate([e[0] for e in entries]).astype(np.intp, copy=False)
    throw = np.concatenate([e[1] for e in entries]).astype(np.intp, copy=False)
    return CompiledPolicies(
        n_policies=len(entries),
        rank_counts=counts.astype(np.uint8),
        full_weight=_COMB[4][counts].prod(axis=0),
        entry_multiset=multiset,
        entry_bin=policy + thrown[multiset * 15 + throw],
        prob=np.concatenate([e[2] for e in entries]).astype(np.float64, copy=False),
        suited_prob=np.concatenate([e[3] for e in entries]).astype(np.float64, copy=False),
        entry_counts=counts.astype(np.uint8)[:, multiset],
    )


def unseen_counts(hand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Unseen cards per rank (13,), per suit (4,), and the 52 flags of cards held."""
    seen = np.zeros(52, bool)
    seen[hand] = True
    n_rank = 4 - np.bincount(hand >> 2, minlength=13)
    n_suit = 13 - np.bincount(hand & 3, minlength=4)
    return n_rank, n_suit, seen


def hand_scores(hand6: np.ndarray) -> np.ndarray:
    """(15, 46) hand points of each keep with each unseen starter (ascending card id)."""
    _, _, seen = unseen_counts(hand6)
    starters = np.flatnonzero(~seen)
    keeps = hand6[KEEPS]  # (15, 4)
    kept = rank_key(keeps >> 2, places=4)  # (15,) the four kept ranks' digits, then the starter's
    points = rank_table()[(kept * 13)[:, None] + (starters >> 2)[None, :]]
    suits = keeps & 3
    four = (suits == suits[:, :1]).all(axis=1)[:, None]  # (15, 1) four of a suit
    with_starter = suits[:, :1] == (starters & 3)[None, :]
    flush = np.where(four, np.where(with_starter, 5, 4), 0)
    nobs_card = 4 * JACK_RANK + (starters & 3)  # (46,) the jack of each starter's suit
    nobs = (keeps[:, :, None] == nobs_card[None, None, :]).any(axis=1)
    return points + flush + nobs  # type: ignore[no-any-return]


def heels_expectation(hand6: np.ndarray) -> float:
    """A dealer's expected heels holding ``hand6``: 2 x P(the starter is a jack)."""
    return HEELS_POINTS * (4 - int(((hand6 >> 2) == JACK_RANK).sum())) / N_UNSEEN


def _throw_points(hand6: np.ndarray) -> np.ndarray:
    """(15, 13, 13, 13) rank points of each throw's ranks x, y with ranks a, b, c."""
    thrown = rank_key(hand6[DISCARDS] >> 2, places=2)  # (15,) the digits x, y
    keys = (thrown * 13**3)[:, None] + np.arange(13**3)[None, :]  # then a, b, c
    return rank_table()[keys].reshape(N_DISCARDS, 13, 13, 13).astype(np.int64)


def crib_random_means(hand6: np.ndarray, points: np.ndarray | None = None) -> np.ndarray:
    """(15,) the exact crib of each throw against the random opponent (a uniform pair of
    the 46 unseen cards, a uniform starter of the other 44)."""
    n_rank, n_suit, seen = unseen_counts(hand6)
    points = _throw_points(hand6) if points is None else points
    na, nb = n_rank[_A[:, :, 0]], n_rank[_B[:, :, 0]]
    pair = np.where(_A[:, :, 0] == _B[:, :, 0], na * (na - 1) // 2, na * nb)
    pair = np.where(_A[:, :, 0] <= _B[:, :, 0], pair, 0)  # (13, 13): a <= b
    left = np.maximum(n_rank[_C] - (_C == _A) - (_C == _B), 0)
    weight = pair[:, :, None] * left  # (13, 13, 13) card choices of (a, b, c)
    rank_part = np.einsum("dabc,abc->d", points, weight)  # integers: exact
    suit_part = np.array([_crib_suit_numerator(n_suit, seen, d0, d1) for d0, d1 in hand6[DISCARDS]])
    return (rank_part + suit_part) / RANDOM_COMPLETIONS  # type: ignore[no-any-return]


def _crib_suit_numerator(n_suit: np.ndarray, seen: np.ndarray, d0: int, d1: int) -> int:
    """Flush and nobs of thrown ``d0, d1`` summed over the 45,540 random completions."""
    total = 0
    s = d0 & 3
    if (d1 & 3) == s and (u := int(n_suit[s])) >= 3:  # both, the pair and the starter
        total += 5 * (u * (u - 1) // 2) * (u - 2)
    for d in (d0, d1):  # our jack: a starter of its suit with any of C(45, 2) pairs
        if (d >> 2) == JACK_RANK:
            total += 990 * int(n_suit[d & 3])
    for suit in range(4):  # an unseen jack in its pair: 44 (u - 1) starters of its suit
        if not seen[4 * JACK_RANK + suit]:
            total += 44 * (int(n_suit[suit]) - 1)
    return total


def policy_weights(compiled: CompiledPolicies, n_rank: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """W (P, 13, 13, 13) and F (P, 13, 13) of opponents whose six cards are drawn from our
    unseen cards (:func:`crib_analyze.crib.throw_policy_kernels.weights_from_compiled`):
    a multiset weighs prod_r C(n_r, k_r); the starter is any card of the others."""
    n_pol = compiled.n_policies
    w = compiled.full_weight.copy()  # integers: exact in any order
    for r in np.flatnonzero(n_rank < 4):  # the ranks we hold: C(4, k) becomes C(n_r, k)
        k = compiled.rank_counts[r]
        w = w // _COMB[4][k] * _COMB[n_rank[r]][k]
    w = w.astype(np.float64)
    total = _total(w)
    n_left = n_rank.sum() - 6
    we = w[compiled.entry_multiset]
    wp = we * compiled.prob
    A = np.bincount(compiled.entry_bin, wp, n_pol * 169).reshape(n_pol, 13, 13)
    S = np.bincount(compiled.entry_bin, we * compiled.suited_prob, n_pol * 169)
    # B: the thrown pair's multisets' cards of each rank, each bin's terms in entry order
    # (the kernel's); both ways below add the same terms in the same order
    ranks_held = _ranks_held(compiled)
    held: np.ndarray
    if ranks_held is None:  # a process's first hands: rank by rank over every entry
        held = np.empty((n_pol * 169, 13))
        part = np.empty_like(wp)  # one buffer: a fresh one each rank costs page faults
        for c in range(13):
            np.multiply(wp, compiled.entry_counts[c], out=part)
            held[:, c] = np.bincount(compiled.entry_bin, part, n_pol * 169)
    else:  # later hands: one pass over the ranks each multiset holds (2 ms against 4)
        entry, slot, count = ranks_held
        part = _buffer(len(entry))  # a fresh 5 MB a hand costs page faults
        np.take(wp, entry, out=part, mode="clip")  # the indices are in range
        np.multiply(part, count, out=part)
        held = np.bincount(slot, part, n_pol * 169 * 13)
    B = held.reshape(n_pol, 13, 13, 13)
    thrown = A > 0.0
    with np.errstate(invalid="ignore", divide="ignore"):
        F = np.where(thrown, S.reshape(n_pol, 13, 13) / A, 0.0)
        W = (n_rank[None, None, None, :] * A[..., None] - B) / (n_left * total)
    return np.where(thrown[..., None], W, 0.0), F


#: hands a process values rank by rank before it works out the ranks each policy entry
#: holds (15-30 ms in a fresh process, what five hands then save; 48 hands through
#: ``--hands-file`` 0.64 -> 0.48-0.52 s, bench_startup.py)
RANK_BY_RANK_HANDS = 4


def _ranks_held(compiled: CompiledPolicies) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """Every (entry, rank) whose multiset holds the rank, by rank then entry: the entry,
    its bin * 13 + the rank, and the cards of the rank. None for the first
    :data:`RANK_BY_RANK_HANDS` hands a process values with ``compiled``, then worked out
    and kept on it."""
    kept = compiled.__dict__.get("_ranks_held")
    if kept is None:
        valued = compiled.__dict__.get("_valued", 0)
        if valued < RANK_BY_RANK_HANDS:
            object.__setattr__(compiled, "_valued", valued + 1)
            return None
        rank, entry = np.nonzero(compiled.entry_counts)
        slot = compiled.entry_bin[entry] * 13 + rank
        kept = (entry.astype(np.int32), slot, compiled.entry_counts[rank, entry])
        object.__setattr__(compiled, "_ranks_held", kept)
    return kept


_BUFFERS = threading.local()  # each thread's own (the page serves requests on threads)


def _buffer(n: int) -> np.ndarray:
    """A float64 buffer of ``n`` for this thread, kept for its next hand."""
    buf: np.ndarray | None = getattr(_BUFFERS, "held", None)
    if buf is None or len(buf) < n:
        buf = np.empty(n)
        _BUFFERS.held = buf
    return buf[:n]


def crib_from_weights(
    hand: np.ndarray, W: np.ndarray, F: np.ndarray, points: np.ndarray
) -> np.ndarray:
    """(15,) the crib of each throw of six cards given one opponent's W and F
    (:func:`crib_analyze.crib.combine_kernels.crib_from_weights`); ``points`` is
    :func:`_throw_points` of the hand."""
    n_rank, _, seen = unseen_counts(hand)
    pab = _total(W, axis=2)
    thrown = pab > 0.0
    left = n_rank[_C] - (_C == _A) - (_C == _B)
    with np.errstate(invalid="ignore", divide="ignore"):
        q = np.where(thrown[..., None] & (left > 0), W / pab[..., None] / left, 0.0)
    Q = _total(q, axis=2)
    R1 = float(_total(np.where(thrown, pab * Q, 0.0).ravel()))
    R2 = _total(np.where(thrown[..., None], pab[..., None] * q, 0.0).reshape(169, 13), axis=0)
    suited, offsuit = _card_pair_masses(pab, F, seen, n_rank)
    # g_of[s, a, b]: Q less q of each card we hold of suit s
    g_of = np.broadcast_to(Q, (4, 13, 13)).copy()
    for h in hand:
        g_of[h & 3] -= np.where(thrown, q[:, :, h >> 2], 0.0)
    jack = np.full(4, R1)
    for h in hand:
        jack[h & 3] -= R2[h >> 2]
    # every unseen card c1 with a partner rank r2 (flush and nobs do not depend on our throw)
    c1 = np.flatnonzero(~seen)[:, None]
    r1, s1 = c1 >> 2, c1 & 3
    r2 = np.arange(13)[None, :]
    lo, hi = np.minimum(r1, r2), np.maximum(r1, r2)
    live = thrown[lo, hi]
    same = r2 == r1
    n_su = np.where(same, 0, 1 - seen[4 * r2 + s1])
    n_off = np.where(same, n_rank[r1] - 1, n_rank[r2] - n_su)
    su, off = suited[lo, hi], offsuit[lo, hi]
    q1, q2 = q[lo, hi, r1], q[lo, hi, r2]
    gone = np.where(live, (n_su * su + n_off * off) * q1, 0.0)
    g = g_of[s1, lo, hi]
    pairs = live & (n_su == 1) & (r1 < r2)  # a suited pair, counted from its lower card
    to_flush = np.where(pairs, su * (g - q1 - q2), 0.0)
    flush = np.zeros(4)
    for suit in range(4):
        mine = s1[:, 0] == suit
        jack[suit] = _total(np.concatenate([[jack[suit]], -gone[mine].ravel()]))
        flush[suit] = _total(np.concatenate([[0.0], to_flush[mine].ravel()]))
    base = g - q1
    jacks = live & (r1 == JACK_RANK)
    nobs = np.stack(  # the opponent's jack c1 with a partner: offsuit, then suited
        [
            np.where(jacks, n_off * off * base, 0.0),
            np.where(jacks & (n_su == 1), su * (base - q2), 0.0),
        ],
        axis=-1,
    )
    opp_nobs = float(_total(np.concatenate([[0.0], nobs.ravel()])))
    ranks = _total((np.where(W > 0.0, W, 0.0) * points).reshape(N_DISCARDS, -1), axis=1)
    d0, d1 = hand[DISCARDS[:, 0]], hand[DISCARDS[:, 1]]
    suits = np.full(N_DISCARDS, opp_nobs)
    suits += np.where((d0 & 3) == (d1 & 3), 5.0 * flush[d0 & 3], 0.0)
    for d in (d0, d1):
        suits += np.where((d >> 2) == JACK_RANK, jack[d & 3], 0.0)
    return ranks + suits  # type: ignore[no-any-return]


def _total(x: np.ndarray, axis: int = -1) -> np.ndarray:
    """The sum along ``axis`` added in order, one term after another, as the kernels add
    (numpy's ``sum`` adds in pairs): the twins then agree to the last bit."""
    return np.cumsum(x, axis=axis).take(-1, axis=axis)  # type: ignore[no-any-return]


def _card_pair_masses(
    pab: np.ndarray, F: np.ndarray, seen: np.ndarray, n_rank: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(suited, offsuit) (13, 13): the probability of one particular available suited
    (offsuit) card pair of ranks a <= b
    (:func:`crib_analyze.crib.combine_kernels.card_pair_masses`)."""
    held = np.zeros(13, np.int64)  # suits we hold of each rank, as bits
    np.bitwise_or.at(held, np.flatnonzero(seen) >> 2, 1 << (np.flatnonzero(seen) & 3))
    a, b = _A[:, :, 0], _B[:, :, 0]
    gone = held[a] | held[b]
    n_suited = 4 - sum((gone >> k) & 1 for k in range(4))
    n_off = n_rank[a] * n_rank[b] - n_suited
    ws, wo = F / 4.0, (1.0 - F) / 12.0
    norm = ws * n_suited + wo * n_off
    even = norm <= 0.0  # only pairs the model never throws are left: share evenly
    ws, wo = np.where(even, 1.0, ws), np.where(even, 1.0, wo)
    norm = np.where(even, n_suited + n_off, norm)
    with np.errstate(invalid="ignore", divide="ignore"):
        suited = np.where((pab > 0.0) & (a < b), pab * ws / norm, 0.0)
        offsuit = np.where((pab > 0.0) & (a < b), pab * wo / norm, 0.0)
        na = n_rank[a]
        offsuit = np.where((pab > 0.0) & (a == b), pab / (na * (na - 1) // 2), offsuit)
    return suited, offsuit


def hand_values(hand6: np.ndarray, compiled: CompiledPolicies | None = None) -> HandValues:
    """The hand, the crib by seat and heels of six cards, against the random opponent
    (``compiled`` None) or the expert whose policies by our seat ``compiled`` holds
    (policy ``PONE_SEAT``: the dealer's throws; ``DEALER_SEAT``: the pone's)."""
    hand6 = np.asarray(hand6, np.int64)
    points = _throw_points(hand6)
    if compiled is None:
        crib = crib_random_means(hand6, points)
        cribs = np.stack([crib, crib])
    else:
        n_rank, _, _ = unseen_counts(hand6)
        W, F = policy_weights(compiled, n_rank)
        cribs = np.stack([crib_from_weights(hand6, W[p], F[p], points) for p in range(len(W))])
    return HandValues(hand_scores(hand6), cribs, heels_expectation(hand6))
