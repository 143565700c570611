"""numba kernels that solve the rest of the play exactly at a table of 2 to 5 players
whose cards are all known: max-n for players each for themselves, the same with sides
for partnerships (two-team minimax), and the old five-card game's single pass to 31.

The rules are those of :mod:`crib_analyze.play.table_play_kernels`: after a card the
turn passes left to the first seat that can lay (the one that laid last, last); when
nobody can, the one that laid the last card scores the go and the count resets, the
first seat to its left holding cards leading; the last card of the play scores 1
unless it made 31. Suits play no part: hands are ranks (0 = A .. 12 = K), -1 for a
card laid, four slots a seat.

**The objective.** The value of a position is the points each seat pegs in the rest
of the play (an int per seat). The seat to lay picks the card that gives its side the
most points less the mean of every other side's: with ``S`` sides, the most of
``S * own side - all points`` (an integer, the same order); in lowball (``aim`` -1) the
least. Equal cards go to the first slot, so the answer is one line of play, the same
every time. Two seats each for themselves is the negamax of
:mod:`crib_analyze.play.solver_kernels`.

**Keeping it small.** Cards of one rank in one hand are tried once, and after every
reset the rest of the play depends only on the cards left and who leads: those values
are remembered in a small hash table (``memo_keys``/``memo_values``, cleared for each
deal by :func:`clear_memo`). The search keeps its own stack (numba's cache does not
keep recursive kernels reliably).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import MAX_COUNT
from crib_analyze.jit import njit
from crib_analyze.play.rules_kernels import (
    lay_points,
    next_holding,
    rank_value,
)
from crib_analyze.rng_kernels import rng_for, rng_next
from crib_analyze.sorting_kernels import copy_small

MAX_SEATS = 5
MAX_DEPTH = 4 * MAX_SEATS + 1  # a frame per card laid, and the root
SEQ_SIZE = 4 * MAX_SEATS + 16  # the ranks laid since the root, each round stacked
MEMO_BITS = 17
MEMO_SIZE = 1 << MEMO_BITS
NO_KEY = -1
JOKER = 13  # a joker's "rank" in a hand (card ids 52 and 53 >> 2): laid as any rank
NAMED = 4  # an option's code: its slot + NAMED * (1 + the rank a joker is laid as)
ANY = -1  # solve's root_name when no joker is named at the root


@njit
def new_memo(seats: int, size: int) -> tuple[np.ndarray, np.ndarray]:
    """An empty memo for ``seats`` players: (keys, values (size, seats)); ``size`` a
    power of two."""
    return np.full(size, NO_KEY, np.int64), np.zeros((size, seats), np.int64)


@njit
def clear_memo(keys: np.ndarray) -> None:
    """Forget every remembered position (a new deal)."""
    for i in range(keys.shape[0]):
        keys[i] = NO_KEY


@njit
def ranks_of(hands: np.ndarray, out: np.ndarray) -> None:
    """``out`` (N, 4): the ranks of card ids ``hands`` (N, 4), -1 kept."""
    for s in range(hands.shape[0]):
        for t in range(4):
            c = hands[s, t]
            out[s, t] = c >> 2 if c >= 0 else -1


@njit
def position_key(h: np.ndarray, leader: int) -> int:
    """The slots still held by each seat (4 bits a seat) and the leader."""
    key = 0
    for s in range(h.shape[0]):
        for t in range(4):
            if h[s, t] >= 0:
                key |= 1 << (4 * s + t)
    return key * 8 + leader


@njit(inline="always")
def slot_of(key: int, size: int) -> int:
    """Where ``key`` sits in a memo of ``size`` entries (a power of two)."""
    return (key * 2654435761) & (size - 1)


@njit(inline="always")
def least_value(r: int) -> int:
    """The least a card of rank ``r`` counts: its value, or 1 for a joker (an ace)."""
    return 1 if r == JOKER else rank_value(r)


@njit
def holds_fit(cards: np.ndarray, count: int) -> bool:
    """True if a card id of ``cards`` (-1 laid; 52 and 53 jokers) fits at ``count``."""
    for c in cards:  # noqa: SIM110 (a loop numba compiles well)
        if c >= 0 and count + least_value(c >> 2) <= MAX_COUNT:
            return True
    return False


@njit(inline="always")
def next_choice(
    hand: np.ndarray, s: int, name: int, hi: int, count: int, distinct: bool, only: int
) -> tuple[int, int]:
    """The choice after (slot ``s``, ``name``): the same joker laid as the next rank that
    fits, else the first slot after ``s`` (to ``hi``) whose card fits at ``count`` and,
    with ``distinct``, whose rank no earlier slot holds; a joker there is first laid as
    the ace (or only as ``only`` when that is >= 0). (``hi + 1``, -1) if none."""
    if 0 <= s <= hi and hand[s] == JOKER and name >= 0 and only < 0:
        name += 1
        while name < JOKER:
            if count + rank_value(name) <= MAX_COUNT:
                return s, name
            name += 1
    s += 1
    while s <= hi:
        r = hand[s]
        if r >= 0 and count + least_value(r) <= MAX_COUNT:
            repeat = False
            if distinct:
                for t in range(s):
                    if hand[t] == r:
                        repeat = True
            if not repeat:
                if r != JOKER:
                    return s, -1
                if only < 0:
                    return s, 0
                if count + rank_value(only) <= MAX_COUNT:
                    return s, only
        s += 1
    return s, -1


@njit
def next_to_lay(h: np.ndarray, seat: int, count: int) -> int:
    """The first seat to the left of ``seat`` (``seat`` itself last) holding a rank that
    fits at ``count``; -1 if nobody can lay."""
    n = h.shape[0]
    for step in range(1, n + 1):
        s: int = (seat + step) % n
        for t in range(4):
            r = h[s, t]
            if r >= 0 and count + least_value(r) <= MAX_COUNT:
                return s
    return -1


@njit
def side_count(teams: np.ndarray) -> int:
    """How many sides ``teams`` (a side per seat) makes."""
    sides = 0
    for s in range(teams.shape[0]):
        first = True
        for t in range(s):
            if teams[t] == teams[s]:
                first = False
        sides += first
    return sides


@njit(inline="always")
def objective(v: np.ndarray, seat: int, teams: np.ndarray, sides: int) -> int:
    """``sides`` times the seat's side's points less all the points: the side's lead
    over the mean of the other sides, scaled to an integer."""
    own, total = 0, 0
    for s in range(v.shape[0]):
        total += v[s]
        if teams[s] == teams[seat]:
            own += v[s]
    return sides * own - total


@njit
def solve(
    h: np.ndarray, p: int, seq: np.ndarray, n: int, count: int, first: int, last: int,
    teams: np.ndarray, sides: int, once: bool, aim: int, memo_keys: np.ndarray,
    memo_values: np.ndarray, out: np.ndarray, root_name: int,
) -> None:  # fmt: skip
    """``out`` (N,): the points each seat pegs in the rest of the play with every seat
    playing as the module says, ``p`` to lay now (it must hold a rank that fits) from
    its slots ``first`` to ``last`` (0 and 3: its best card). ``seq[:n]`` the ranks
    since the reset (``seq`` of :data:`SEQ_SIZE`), ``count`` the count; ``h`` (N, 4)
    ranks, restored on return. A joker (:data:`JOKER`) is laid as the rank that serves
    its seat best, tried rank by rank; ``root_name`` >= 0 lays a joker of ``p``'s now
    as that rank only."""
    seats = h.shape[0]
    fp = np.empty(MAX_DEPTH, np.int64)
    fbase = np.empty(MAX_DEPTH, np.int64)
    fn = np.empty(MAX_DEPTH, np.int64)
    fcount = np.empty(MAX_DEPTH, np.int64)
    fslot = np.empty(MAX_DEPTH, np.int64)
    fname = np.empty(MAX_DEPTH, np.int64)  # the rank a joker tried is laid as (-1: none)
    fcard = np.empty(MAX_DEPTH, np.int64)  # the rank held in the slot tried
    fhi = np.empty(MAX_DEPTH, np.int64)
    flo = np.empty(MAX_DEPTH, np.int64)
    fkey = np.empty(MAX_DEPTH, np.int64)  # the node's own memo key (-1: none)
    fobj = np.empty(MAX_DEPTH, np.int64)
    found = np.zeros(MAX_DEPTH, np.bool_)
    fbest = np.zeros((MAX_DEPTH, seats), np.int64)
    fdelta = np.zeros((MAX_DEPTH, seats), np.int64)  # the tried card's points
    value = np.zeros(seats, np.int64)
    d = 0
    fp[0], fbase[0], fn[0], fcount[0] = p, 0, n, count
    fslot[0], flo[0], fhi[0], fkey[0] = first - 1, first, last, NO_KEY
    fname[0] = -1
    returning = False
    while True:
        q = fp[d]
        if returning:  # the child's value is in ``value``: take the card back, keep the best
            returning = False
            for s in range(seats):
                value[s] += fdelta[d, s]
            h[q, fslot[d]] = fcard[d]
            o = aim * objective(value, q, teams, sides)
            if not found[d] or o > fobj[d]:
                found[d], fobj[d] = True, o
                for t in range(seats):
                    fbest[d, t] = value[t]
        s, named = next_choice(
            h[q], fslot[d], fname[d], fhi[d], fcount[d], flo[d] == 0, root_name if d == 0 else -1
        )
        if s > fhi[d]:  # every card tried: this node's value is its best
            for t in range(seats):
                value[t] = fbest[d, t]
            if fkey[d] != NO_KEY:
                at = slot_of(fkey[d], memo_keys.shape[0])
                memo_keys[at] = fkey[d]
                for t in range(seats):
                    memo_values[at, t] = value[t]
            if d == 0:
                for t in range(seats):
                    out[t] = value[t]
                return
            d -= 1
            returning = True
            continue
        fslot[d], fname[d], fcard[d] = s, named, h[q, s]
        r = named if named >= 0 else h[q, s]
        b, m = fbase[d], fn[d]
        h[q, s] = -1
        seq[b + m] = r
        after = fcount[d] + rank_value(r)
        pts, _ = lay_points(seq[b:], m + 1, after)
        for t in range(seats):
            fdelta[d, t] = 0
        fdelta[d, q] = pts
        nxt, nb, nm, nc, key = -1, b, m + 1, after, NO_KEY
        if next_holding(h, q) < 0:  # the last card of the play
            if after < MAX_COUNT:
                fdelta[d, q] += 1
        else:
            reset = after == MAX_COUNT
            if not reset:
                nxt = next_to_lay(h, q, after)
                if nxt < 0:  # nobody can lay: the go
                    fdelta[d, q] += 1
                    reset = True
            if reset and not once:
                nxt = next_holding(h, q)
                nb, nm, nc = b + m + 1, 0, 0
                key = position_key(h, nxt)
            elif reset:
                nxt = -1  # five-card: the play ends at the first go or 31
        known = nxt < 0
        if nxt < 0:
            for t in range(seats):
                value[t] = 0
        elif key != NO_KEY:
            at = slot_of(key, memo_keys.shape[0])
            if memo_keys[at] == key:
                known = True
                for t in range(seats):
                    value[t] = memo_values[at, t]
        if known:
            returning = True  # handled at once, as if returning from the child
            continue
        d += 1
        fp[d], fbase[d], fn[d], fcount[d] = nxt, nb, nm, nc
        fslot[d], flo[d], fhi[d], fkey[d] = -1, 0, 3, key
        fname[d] = -1
        found[d] = False


@njit
def option_values(
    h: np.ndarray, p: int, seq: np.ndarray, n: int, count: int, options: np.ndarray,
    teams: np.ndarray, sides: int, once: bool, aim: int, memo_keys: np.ndarray,
    memo_values: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """``out`` (O, N): for each option of ``p`` (a code: its slot + :data:`NAMED` * (1 +
    the rank a joker there is laid as), so a card's code is its slot), the points each
    seat pegs in the rest of the play when ``p`` lays it and every seat then plays as
    the module says. Each option must fit. The memo is cleared here."""
    clear_memo(memo_keys)
    work = np.zeros(SEQ_SIZE, np.int64)
    for o in range(options.shape[0]):
        for t in range(h.shape[0]):
            out[o, t] = 0
        for i in range(n):
            work[i] = seq[i]
        slot, name = options[o] % NAMED, options[o] // NAMED - 1
        solve(
            h, p, work, n, count, slot, slot, teams, sides, once, aim, memo_keys, memo_values,
            out[o], name,
        )  # fmt: skip


@njit
def said_go_value(
    h: np.ndarray, seat: int, seq: np.ndarray, n: int, count: int, last: int,
    teams: np.ndarray, sides: int, once: bool, aim: int, memo_keys: np.ndarray,
    memo_values: np.ndarray, out: np.ndarray,
) -> None:  # fmt: skip
    """``out`` (N,): the points of the rest of the play after ``seat`` says go at
    ``count`` (nothing of its fits): the next seat that can lay lays; if nobody can, the
    seat ``last`` (that laid the last card) scores the go and the count resets."""
    for t in range(h.shape[0]):
        out[t] = 0
    nxt = next_to_lay(h, seat, count)
    if nxt >= 0:
        solve(
            h, nxt, seq, n, count, 0, 3, teams, sides, once, aim, memo_keys, memo_values, out, ANY
        )
        return
    out[last] += 1
    lead = next_holding(h, last)
    if once or lead < 0:
        return
    rest = np.zeros(h.shape[0], np.int64)
    solve(h, lead, seq, 0, 0, 0, 3, teams, sides, once, aim, memo_keys, memo_values, rest,
          ANY)  # fmt: skip
    for t in range(h.shape[0]):
        out[t] += rest[t]


@njit(parallel=True)
def solved_rollouts(
    mine: np.ndarray,
    seat: int,
    held: np.ndarray,
    unseen: np.ndarray,
    said_go: np.ndarray,
    options: np.ndarray,
    seq: np.ndarray,
    n: int,
    count: int,
    last: int,
    teams: np.ndarray,
    once: bool,
    aim: int,
    samples: int,
    seed: int,
) -> np.ndarray:
    """Perfect-information Monte Carlo: for each of ``samples`` draws of the other
    seats' cards (as :func:`~crib_analyze.play.table_play_kernels.table_rollouts` draws
    them, the same streams), the rest of the play solved exactly after each of
    ``seat``'s ``options`` (codes of :func:`option_values`: slots of ``mine``, a joker's
    with the rank it is laid as; or -1: say go, when nothing fits); ``last`` the seat
    that laid the last card. Returns (options, samples, seats): each seat's points."""
    players = held.shape[0]
    sides = side_count(teams)
    out = np.zeros((options.shape[0], samples, players), np.int64)
    chunks = min(samples, 64)
    for c in prange(chunks):
        keys, values = new_memo(players, MEMO_SIZE)
        dealt = np.full((players, 4), -1, np.int64)
        ranks = np.empty((players, 4), np.int64)
        value = np.zeros((options.shape[0], players), np.int64)
        work = np.zeros(SEQ_SIZE, np.int64)
        for j in range(c, samples, chunks):
            draw_others(rng_for(seed, j), unseen, mine, seat, held, said_go, count, dealt)
            ranks_of(dealt, ranks)
            if options[0] < 0:  # nothing fits: the go, and the play goes on
                clear_memo(keys)
                for i in range(n):
                    work[i] = seq[i]
                said_go_value(ranks, seat, work, n, count, last, teams, sides, once, aim,
                              keys, values, out[0, j])  # fmt: skip
                continue
            option_values(
                ranks, seat, seq, n, count, options, teams, sides, once, aim, keys, values, value
            )  # fmt: skip
            for o in range(options.shape[0]):
                copy_small(out[o, j], 0, value[o], 0, value.shape[1])
    return out


@njit
def draw_others(
    rng: np.ndarray, unseen: np.ndarray, mine: np.ndarray, seat: int, held: np.ndarray,
    said_go: np.ndarray, count: int, dealt: np.ndarray,
) -> None:  # fmt: skip
    """Deal every seat but ``seat`` ``held[s]`` of the ``unseen`` cards at random into
    ``dealt`` (N, 4) (``seat`` gets ``mine``); a seat that has said go in this count
    gets none that fits, by drawing again up to 100 times."""
    players = held.shape[0]
    pool = unseen.copy()
    for _attempt in range(100):
        for i in range(pool.shape[0] - 1, 0, -1):
            k = rng_next(rng) % (i + 1)
            pool[i], pool[k] = pool[k], pool[i]
        at, fits = 0, True
        for s in range(players):
            if s == seat:
                for t in range(4):
                    dealt[s, t] = mine[t]
                continue
            for t in range(4):
                dealt[s, t] = -1
            for t in range(held[s]):
                dealt[s, t] = pool[at]
                at += 1
            if said_go[s] and holds_fit(dealt[s], count):
                fits = False
        if fits:
            return
