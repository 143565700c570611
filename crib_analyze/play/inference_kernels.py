"""numba kernels that read the opponent: how likely each hand it may hold is, given all
it has shown.

The opponent's *keep* is one of the 1,820 four-rank multisets (suits play no part in
the play). A reader weights each keep K by

* **its throw**: the chance that the opponent, dealt six cards from those the reader
  cannot see, keeps K: the sum over the rank pairs T it may have thrown of the number
  of ways to deal K + T from the unseen cards times the chance the expert throw policy
  of the opponent's seat throws T from K + T (:func:`keep_prior`);
* **each card it lays**: the chance its play model lays that rank from what K leaves it
  at that moment (:func:`read_lay`): a softmax, temperature ``tau`` points, over the
  lookahead value of each rank it could lay (points now minus the reader's expected
  best reply, as the opponent sees the cards), zero if K cannot have that card. The
  deal's first card, the pone's lead, is read from the solver's own leads when they are
  known (a table of the rank the solver leads from each keep and starter,
  :mod:`crib_analyze.artifacts.solver_leads`): ``1 - slack`` if the table leads that
  rank from K, plus ``slack`` times the softmax;
* **its go's**: after a go at count c it holds no card of value <= 31 - c
  (:func:`hidden_hands` drops the keeps that would).

What the opponent still holds is its keep less the cards it has laid. The weights are
kept unnormalised; :func:`hidden_hands` returns the live hands and their weights
summing to one.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from crib_analyze.constants import MAX_COUNT
from crib_analyze.crib.hand_kernels import DISCARDS, N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.play.reply_kernels import expected_max_reply
from crib_analyze.play.rules_kernels import lay_points, rank_value, reply_points
from crib_analyze.sorting_kernels import search_left, sort_small

N_KEEPS = 1820
N_PAIRS = 91  # rank pairs a <= b


class Reader(NamedTuple):
    """What the play policies know of the other seat, as the kernels take it (numba
    compiles a named tuple as a tuple: each field by its name, none by a number).
    Without the solver's reading, the reading's arrays are empty, of the same types."""

    rank_weights: np.ndarray  # (2, 13): a seat's prior over the other's kept ranks
    keeps: np.ndarray  # (1820, 4): every kept rank multiset
    start: np.ndarray  # each seat's throw policy turned around: where a keep's rows start
    pair: np.ndarray  # ... the thrown rank pair of each row
    chance: np.ndarray  # ... and its chance
    params: np.ndarray  # [tau, hands, slack]: the softmax of lays, the budget, the leads' slack
    leads: np.ndarray  # (13, 1820) the solver's leads (0 rows: none for this model)
    #: (13, 13, 1820) the solver's replies to the lead, by starter and lead rank (0 rows: none)
    replies: np.ndarray

    @property
    def tau(self) -> float:
        return float(self.params[0])

    @property
    def hands(self) -> int:
        return int(self.params[1])

    @property
    def slack(self) -> float:
        return float(self.params[2])


# C(n, k) for n, k <= 4 (k > n: 0); more than four of a rank is impossible
_BINOM = np.array(
    [
        [1, 0, 0, 0, 0, 0, 0],
        [1, 1, 0, 0, 0, 0, 0],
        [1, 2, 1, 0, 0, 0, 0],
        [1, 3, 3, 1, 0, 0, 0],
        [1, 4, 6, 4, 1, 0, 0],
    ],
    np.float64,
)  # C(n, k) for n <= 4, k <= 6


@njit
def throw_likelihoods(
    keeps: np.ndarray, keys: np.ndarray, pi: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The throw policy ``pi`` (per six-rank multiset, per discard position) turned
    around: for each keep K (row of ``keeps``, sorted ranks), the rank pairs T it can be
    kept with and the chance the policy throws T from K + T. Sparse, by keep: entries
    ``start[K]:start[K + 1]`` of ``pair`` (a * 13 + b, a <= b) and ``chance``."""
    start = np.zeros(N_KEEPS + 1, np.int64)
    pair = np.empty(N_KEEPS * N_PAIRS, np.int64)
    chance = np.empty(N_KEEPS * N_PAIRS, np.float64)
    six = np.empty(6, np.int64)
    e = 0
    for k in range(N_KEEPS):
        start[k] = e
        for a in range(13):
            for b in range(a, 13):
                na = 2 if a == b else 1
                nb = 1
                for i in range(4):
                    na += keeps[k, i] == a
                    nb += keeps[k, i] == b
                if na > 4 or nb > 4:
                    continue
                for i in range(4):  # (a slice assignment compiles numba's shape error)
                    six[i] = keeps[k, i]
                six[4], six[5] = a, b
                sort_small(six)
                key = 0
                for i in range(6):
                    key = key * 13 + six[i]
                row = search_left(keys, key)
                p = 0.0
                for d in range(N_DISCARDS):
                    if six[DISCARDS[d, 0]] == a and six[DISCARDS[d, 1]] == b:
                        p += pi[row, d]
                if p > 0.0:
                    pair[e] = a * 13 + b
                    chance[e] = p
                    e += 1
    start[N_KEEPS] = e
    return start, pair[:e].copy(), chance[:e].copy()


# C(u, c + 1) / C(u, c) and C(u, c + 2) / C(u, c): one or two more cards of a rank
# of which the keep holds c and u are unseen (0 where the keep alone is impossible)
_MORE1 = np.zeros((5, 5))
_MORE2 = np.zeros((5, 5))
for _u in range(5):
    for _c in range(5):
        if _BINOM[_u, _c] > 0:
            _MORE1[_u, _c] = _BINOM[_u, _c + 1] / _BINOM[_u, _c]
            _MORE2[_u, _c] = _BINOM[_u, _c + 2] / _BINOM[_u, _c]


@njit
def keep_prior(
    unseen: np.ndarray,
    keeps: np.ndarray,
    start: np.ndarray,
    pair: np.ndarray,
    chance: np.ndarray,
    out: np.ndarray,
) -> None:
    """``out[K]`` (1,820): the weight of keep K from the throw alone, ``unseen`` (13,)
    the cards of each rank the reader cannot see (not its own six, not the starter).
    The ways to deal K + T are the ways to deal K times one factor per thrown rank."""
    held = np.zeros(13, np.int64)
    for k in range(N_KEEPS):
        ways = 1.0
        i = 0
        while i < 4:
            r = keeps[k, i]
            j = i
            while j < 4 and keeps[k, j] == r:
                j += 1
            held[r] = j - i
            ways *= _BINOM[unseen[r], j - i]
            i = j
        total = 0.0
        if ways > 0.0:
            for e in range(start[k], start[k + 1]):
                a, b = pair[e] // 13, pair[e] % 13
                if a == b:
                    f = _MORE2[unseen[a], held[a]]
                else:
                    f = _MORE1[unseen[a], held[a]] * _MORE1[unseen[b], held[b]]
                total += f * chance[e]
        out[k] = ways * total
        for i in range(4):
            held[keeps[k, i]] = 0


@njit
def held_after(keep: np.ndarray, laid: np.ndarray, out: np.ndarray) -> bool:
    """``out`` (4,): the ranks of ``keep`` (sorted) less the laid ranks (``laid`` counts
    per rank, 13), -1 padded; False if the keep does not hold every laid card."""
    m = 0
    used = 0  # laid cards matched
    i = 0
    while i < 4:
        r = keep[i]
        j = i
        while j < 4 and keep[j] == r:
            j += 1
        take = min(laid[r], j - i)  # of the j - i cards of rank r, these were laid
        used += take
        for _ in range(j - i - take):
            out[m] = r
            m += 1
        i = j
    for i in range(m, 4):
        out[i] = -1
    laid_total = 0
    for r in range(13):
        laid_total += laid[r]
    return used == laid_total


@njit
def read_lay(
    weights: np.ndarray,
    keeps: np.ndarray,
    laid: np.ndarray,
    rank: int,
    seq: np.ndarray,
    n: int,
    count: int,
    public: np.ndarray,
    gone_above: int,
    reader_left: int,
    rank_weight: np.ndarray,
    tau: float,
    lead: np.ndarray,
    slack: float,
) -> None:
    """Multiply ``weights`` (1,820) by the chance each keep lays ``rank`` now.

    ``laid`` (13,) what the opponent laid before; ``seq[:n]``, ``count`` the round so
    far; ``public`` (13,) cards of each rank anyone can see (starter and laid);
    ``gone_above``: what the opponent knows of the reader's cards from its go's;
    ``reader_left`` the reader's cards in hand; ``rank_weight`` (13,) the opponent's
    prior over the reader's kept ranks. ``lead`` (1,820): for the deal's lead, the rank
    the solver leads from each keep (-1: none known), mixed with the softmax by
    ``slack``; empty for any other card.
    """
    held = np.empty(4, np.int64)
    left = np.empty(13, np.int64)
    value = np.empty(4, np.float64)
    none = np.empty(13, np.float64)
    scratch = np.empty(13, np.int64)
    work = seq.copy()
    # what each rank would score laid now, and the reader's replies to it: once for all keeps
    now = np.zeros(13, np.int64)
    replies = np.zeros((13, 13), np.int64)
    for r in range(13):
        after = count + rank_value(r)
        if after <= MAX_COUNT:
            work[n] = r
            now[r], _ = lay_points(work, n + 1, after)
            reply_points(work, n + 1, after, replies[r], scratch)
    for k in range(N_KEEPS):
        if weights[k] == 0.0:
            continue
        if not held_after(keeps[k], laid, held):
            weights[k] = 0.0
            continue
        has = False
        for i in range(4):
            has |= held[i] == rank
        if not has:
            weights[k] = 0.0
            continue
        # what the opponent cannot see: 4 of each rank less the public and its own
        for r in range(13):
            left[r] = 4 - public[r]
            if rank_value(r) <= gone_above:
                left[r] = 0
        for i in range(4):
            if held[i] >= 0:
                left[held[i]] -= 1
        for r in range(13):
            if left[r] < 0:
                left[r] = 0
        best = -1e18
        chosen = 0.0
        for i in range(4):
            value[i] = -1e18
            r = held[i]
            if r < 0 or count + rank_value(r) > MAX_COUNT or (i > 0 and held[i - 1] == r):
                continue
            value[i] = now[r] - expected_max_reply(replies[r], left, rank_weight, reader_left, none)
            best = max(best, value[i])
        total = 0.0
        for i in range(4):
            if value[i] > -1e17:
                x = np.exp((value[i] - best) / tau)
                total += x
                if held[i] == rank:
                    chosen = x
        chance = chosen / total
        if lead.shape[0] > 0 and lead[k] >= 0:
            chance = (1.0 - slack) * (1.0 if lead[k] == rank else 0.0) + slack * chance
        weights[k] *= chance


@njit
def hidden_hands(
    weights: np.ndarray,
    keeps: np.ndarray,
    laid: np.ndarray,
    gone_above: int,
    hands: np.ndarray,
    chance: np.ndarray,
) -> int:
    """The hands the opponent may hold now: ``hands[i]`` (4,) ranks, -1 padded, and
    ``chance[i]`` summing to one, for i below the count returned (0 if no keep is left).
    A keep that does not hold every laid card, or holds a card its go's rule out
    (value <= ``gone_above``), is dropped."""
    m = 0
    total = 0.0
    held = np.empty(4, np.int64)
    for k in range(N_KEEPS):
        if weights[k] <= 0.0 or not held_after(keeps[k], laid, held):
            continue
        ok = True
        for i in range(4):
            if held[i] >= 0 and rank_value(held[i]) <= gone_above:
                ok = False
        if not ok:
            continue
        for i in range(4):  # (a row assignment compiles numba's shape error)
            hands[m, i] = held[i]
        chance[m] = weights[k]
        total += weights[k]
        m += 1
    for i in range(m):
        chance[i] /= total
    return m
