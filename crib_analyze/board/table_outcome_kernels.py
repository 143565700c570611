"""numba kernels: how a game ends after each card a player can lay now, at any table and
under any variant.

For each draw of the other seats' cards (the draws of
:func:`~crib_analyze.play.table_solver_kernels.solved_rollouts`, the same streams, so
the ranking by points and by the chance of winning see the same hands), each seat's
hand is weighed by the chance its throw keeps it (:func:`throw_weight`: the hand policy,
a set it may have thrown being its throw to the crib), each option is laid and the rest
of the play is played out along the exact solver's line with every card known
(:func:`table_line`: each seat lays the card of best value to its side, the first of
ties; a joker as the rank that serves it best). The play's points are walked from the
score in the order they are scored, then the shows from the dealer's left to the dealer
and the crib, each with its penalty, a score never below 0: whoever reaches the target
first wins there (in lowball, loses); else the board values the position after the
deal, or where the game has none the scores after it are handed back, for the game to be
played on (:func:`~crib_analyze.board.table_game_kernels.games_onward`). Each seat's
show is its real cards with the starter (jokers wild). The throws not weighed (the
player's not given, a partner's that passes cards) are drawn from the cards left, under
throw fives the fives first (so a throw with ``f`` fives of ``k`` cards thrown from
``d`` dealt is ``C(d, k) / C(d - f, k - f)`` times as likely as a set at random).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.board.signed_dp_kernels import clamped_walk
from crib_analyze.board.table_game_kernels import loser_short, show_penalty
from crib_analyze.constants import FIRST_JOKER, FIVE_RANK, MAX_COUNT
from crib_analyze.crib.any_game_kernels import policy_keeps_first
from crib_analyze.crib.combine_kernels import choose
from crib_analyze.jit import njit
from crib_analyze.play import table_solver_kernels as ts
from crib_analyze.play.rules_kernels import lay_points, next_holding, rank_value
from crib_analyze.rng_kernels import rng_for, rng_next, rng_uniform
from crib_analyze.scoring.any_hand_kernels import wild_show_points
from crib_analyze.sorting_kernels import copy_small

#: a deal's events at most: a card each, a show and its penalty each, the crib and its
MAX_EVENTS = 4 * ts.MAX_SEATS + 2 * ts.MAX_SEATS + 2
CRIB_STREAMS = 1 << 43  # draw j's crib: stream CRIB_STREAMS + j of the same seed
THROW_TRIES = 48  # the sets a seat may have thrown tried a draw, at most
N_OUTCOMES = 8


@njit
def table_line(
    h: np.ndarray, p: int, seq: np.ndarray, n: int, count: int, slot: int, name: int,
    teams: np.ndarray, sides: int, once: bool, aim: int, keys: np.ndarray, values: np.ndarray,
    ev_seat: np.ndarray, ev_points: np.ndarray,
) -> int:  # fmt: skip
    """Seat ``p`` lays its ``slot`` (a joker there as rank ``name``; -1 a card), then the
    rest of the play follows the solver's line; each card's points (its go or last card
    included) are appended to ``ev_seat``/``ev_points`` as laid, those of none left out.
    ``h`` (N, 4) ranks is played out (cards laid become -1) and ``seq[:n]`` the ranks
    since the reset; returns the events written."""
    seats = h.shape[0]
    value = np.zeros(seats, np.int64)
    work = np.zeros(ts.SEQ_SIZE, np.int64)
    e = 0
    q = p
    first = True
    while q >= 0:
        s, nm = slot, name
        if not first:  # the option of best value to q's side, the first of ties
            s = -1
            best = 0
            cs, cn = ts.next_choice(h[q], -1, -1, 3, count, True, -1)
            while cs <= 3:
                copy_small(work, 0, seq, 0, n)
                ts.solve(h, q, work, n, count, cs, cs, teams, sides, once, aim, keys, values,
                         value, cn if cn >= 0 else ts.ANY)  # fmt: skip
                o = aim * ts.objective(value, q, teams, sides)
                if s < 0 or o > best:
                    s, nm, best = cs, cn, o
                cs, cn = ts.next_choice(h[q], cs, cn, 3, count, True, -1)
        first = False
        r = nm if nm >= 0 else h[q, s]
        h[q, s] = -1
        seq[n] = r
        after = count + rank_value(r)
        pts, _ = lay_points(seq, n + 1, after)
        nxt = -1
        reset = False
        if next_holding(h, q) < 0:  # the last card of the play
            if after < MAX_COUNT:
                pts += 1
        else:
            reset = after == MAX_COUNT
            if not reset:
                nxt = ts.next_to_lay(h, q, after)
                if nxt < 0:  # nobody can lay: the go
                    pts += 1
                    reset = True
            if reset:
                nxt = -1 if once else next_holding(h, q)
        if pts > 0:
            ev_seat[e], ev_points[e] = q, pts
            e += 1
        if reset:
            n, count = 0, 0
        else:
            n, count = n + 1, after
        q = nxt
    return e


@njit
def draw_crib(
    rng: np.ndarray, pool: np.ndarray, size: int, throws: np.ndarray, dealt: np.ndarray,
    fives: bool, out: np.ndarray, at: int,
) -> int:  # fmt: skip
    """Fill ``out[at:]`` with the crib's unknown cards from ``pool[:size]`` (shuffled in
    place): ``throws[i]`` cards thrown by a seat dealt ``dealt[i]`` (each set at random,
    or under ``fives`` weighted as the module says), then any left at random (the pack's
    cards). Returns the crib's cards."""
    for i in range(size - 1, 0, -1):
        k = rng_next(rng) % (i + 1)
        pool[i], pool[k] = pool[k], pool[i]
    used = 0
    for t in range(throws.shape[0]):
        k = throws[t]
        if k <= 0:
            continue
        if fives:  # a set of f fives is kept with chance 1 / C(d - f, k - f), else redrawn
            for _attempt in range(10_000):
                f = 0
                for j in range(k):
                    c = pool[used + j]
                    f += 1 if c < FIRST_JOKER and c >> 2 == FIVE_RANK else 0
                if rng_uniform(rng) * choose(dealt[t] - f, k - f) < 1.0:
                    break
                for j in range(k):  # k other cards at random from the rest
                    pick = used + j + rng_next(rng) % (size - used - j)
                    pool[used + j], pool[pick] = pool[pick], pool[used + j]
        for _ in range(k):
            out[at] = pool[used]
            at += 1
            used += 1
    return at


@njit
def throw_weight(
    kept: np.ndarray, nk: int, pool: np.ndarray, left: int, k: int, sign: int,
    crib_one: np.ndarray, crib_two: np.ndarray, aim: int, fives: bool, jokers: int,
    rng: np.ndarray, chosen: np.ndarray,
) -> float:  # fmt: skip
    """The share of the sets of ``k`` cards of ``pool[:left]`` that a seat keeping
    ``kept[:nk]`` may have thrown, given its throw policy keeps exactly those (a set
    after which the policy finds t splits as good counts 1/t: the dealing order decides
    among them; every set tried when there are at most :data:`THROW_TRIES`, else that
    many at random): the weight of the seat's hand in the draw. ``chosen[:k]`` gets the
    pool positions of one such set, by its share (none: the weight is 0)."""
    cards = np.empty(nk + k, np.int64)
    copy_small(cards, 0, kept, 0, nk)
    total = choose(left, k)
    if total < 1.0:
        return 0.0  # too few cards left for the throw
    every = total <= THROW_TRIES and k <= 2
    tries = int(total) if every else THROW_TRIES
    at = np.empty(k, np.int64)
    matches = 0.0
    for t in range(tries):
        if every:  # the t-th set in order (k is 1 or 2)
            if k == 1:
                at[0] = t
            else:
                i, rest = 0, t
                while rest >= left - 1 - i:
                    rest -= left - 1 - i
                    i += 1
                at[0], at[1] = i, i + 1 + rest
        else:  # k distinct positions at random
            for u in range(k):
                fresh = False
                while not fresh:
                    at[u] = rng_next(rng) % left
                    fresh = True
                    for v in range(u):
                        if at[v] == at[u]:
                            fresh = False
        for u in range(k):
            cards[nk + u] = pool[at[u]]
        share = policy_keeps_first(cards, nk, k, sign, crib_one, crib_two, aim, fives, jokers)
        if share > 0.0:
            matches += share
            if rng_uniform(rng) * matches < share:  # one of the sets, by its share
                copy_small(chosen, 0, at, 0, k)
    return matches / tries


@njit
def _walk(
    ev_side: np.ndarray, ev_points: np.ndarray, e: int, mine: int, a: int, b: int, target: int,
    lines: np.ndarray, lowball: bool,
) -> tuple[int, int, int]:  # fmt: skip
    """Walk events ``[:e]`` (by side) from my ``a`` and the other side's ``b``, a score
    never below 0 (:func:`~crib_analyze.board.signed_dp_kernels.clamped_walk`): (the
    outcome 0-7 for my side, -1 if nobody reaches the target; the scores at the end). In
    lowball the side that reaches the target loses, plainly."""
    outcome, a, b = clamped_walk(ev_side[:e], ev_points[:e], mine, a, b, target, lines)
    if lowball and outcome >= 0:
        outcome = 0 if outcome >= 4 else 4
    return outcome, a, b


@njit
def _seats_outcome(
    ev_side: np.ndarray, ev_points: np.ndarray, e: int, me: int, start: np.ndarray,
    target: int, line: int, board: np.ndarray, out: np.ndarray, ends: np.ndarray,
) -> None:  # fmt: skip
    """Three or more players each for themselves: walk events ``[:e]`` (by seat from the
    dealer's left) from the scores ``start``, a score never below 0, and write ``me``'s
    outcome to ``out`` (8,): 0 a plain win, 1 a win with a loser short of ``line``, 4 a
    loss. If nobody reaches the target: with a ``board`` (three players: (target, target,
    target, 6), each seat's chance of winning then of a skunk win) read it after the deal
    passes left (the old middle seat the new left, the old dealer the new middle, the old
    left the new dealer); with none (an empty one) leave ``out`` at 0 and write the scores
    to ``ends`` (the game is played on after:
    :func:`~crib_analyze.board.table_game_kernels.games_onward`)."""
    sc = start.copy()
    for i in range(e):
        s = ev_side[i]
        sc[s] = max(0, sc[s] + ev_points[i])
        if sc[s] >= target:
            if s != me:
                out[4] = 1.0
                return
            out[1 if loser_short(sc, s, line) else 0] = 1.0
            return
    if board.shape[0] == 0:
        copy_small(ends, 0, sc, 0, ends.shape[0])
        return
    k = (me + 2) % 3  # my seat in the next deal
    win, skunk_win = board[sc[1], sc[2], sc[0], k], board[sc[1], sc[2], sc[0], 3 + k]
    out[0] = max(0.0, win - skunk_win)
    out[1] = skunk_win
    out[4] = max(0.0, 1.0 - win)


@njit
def _show_events(
    shown: np.ndarray, size: int, crib: np.ndarray, crib_size: int, starter: int,
    teams: np.ndarray, penalty: int, ev_side: np.ndarray, ev_points: np.ndarray, e: int,
) -> int:  # fmt: skip
    """Append the shows (each seat from the dealer's left, then the crib, the dealer's
    side's) and their penalties (the whole games' rule,
    :func:`~crib_analyze.board.table_game_kernels.show_penalty`), by side; return the
    events."""
    seats = shown.shape[0]
    owed = np.zeros((1, 3), np.int64)  # a penalty's (seat, points, source)
    for s in range(seats + 1):
        owner = s if s < seats else seats - 1
        pts = (wild_show_points(shown[s], size, starter, False) if s < seats
               else wild_show_points(crib, crib_size, starter, True))  # fmt: skip
        ev_side[e], ev_points[e] = teams[owner], pts
        e += 1
        if show_penalty(owed, 0, owner, pts, penalty, teams) > 0:
            ev_side[e], ev_points[e] = teams[owed[0, 0]], owed[0, 1]
            e += 1
    return e


@njit(parallel=True)
def option_outcomes(
    mine: np.ndarray, seat: int, held: np.ndarray, unseen: np.ndarray, said_go: np.ndarray,
    options: np.ndarray, seq: np.ndarray, n: int, count: int, teams: np.ndarray, once: bool,
    aim: int, samples: int, seed: int, laid: np.ndarray, size: int, starter: int,
    crib_known: np.ndarray, crib_unseen: np.ndarray, throws: np.ndarray, dealt: np.ndarray,
    by_policy: np.ndarray, signs: np.ndarray, crib_one: np.ndarray, crib_two: np.ndarray,
    from_pack: int, fives: bool, jokers: int, penalty: int, start: np.ndarray, board: np.ndarray,
    target: int, lines: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:  # fmt: skip
    """(options, samples, 8): for each draw of the other seats' cards and each option of
    ``seat`` (codes of :func:`~crib_analyze.play.table_solver_kernels.option_values`),
    the chance of each outcome of the game for ``seat``'s side (0 a win, 1-3 by a skunk
    and more, 4-7 the same losses), from the scores ``start``. ``laid`` (N,
    4) the card ids each seat has laid (-1 none), ``size`` a hand's cards in the show;
    ``crib_known`` the crib's cards known (the player's throw), ``crib_unseen`` those it
    may hold besides (``unseen`` and, under throw fives, the fives), ``throws``/``dealt`` the
    cards each seat throws (the player's: those not known) and was dealt, ``from_pack``
    the pack's cards to the crib; a seat with ``by_policy`` threw by the hand policy
    (its side's crib ``signs`` +1 or -1, its tables ``crib_one``/``crib_two`` (N, ...)),
    and its hand is weighed by it (:func:`throw_weight`), the others' throws are drawn at
    random; ``board`` (target, target, 2, 9) from the side's point of view, or with three
    sides the board of three, or an empty one where the game has none (three players
    under back ten, five); ``start`` the scores now by side; ``aim`` -1 lowball.
    Also returns each draw's weight (samples,): the product of the seats'; and (options,
    samples, sides) the scores after the deal where nobody reached the target and there
    is no board (-1 elsewhere), for the game to be played on."""
    players = held.shape[0]
    sides = ts.side_count(teams)
    mine_side = teams[seat]
    dealer_side = teams[players - 1]
    lowball = aim < 0
    out = np.zeros((options.shape[0], samples, N_OUTCOMES))
    ends = np.full((options.shape[0], samples, start.shape[0]), -1, np.int64)
    weights = np.zeros(samples)
    random_throws = throws.copy()  # the throws drawn at random
    for t in range(players):
        if by_policy[t]:
            random_throws[t] = 0
    chunks = min(samples, 64)
    crib_size = crib_known.shape[0] + from_pack
    for t in range(throws.shape[0]):
        crib_size += throws[t]
    for c in prange(chunks):
        keys, values = ts.new_memo(players, ts.MEMO_SIZE)
        dealt_now = np.full((players, 4), -1, np.int64)
        ranks = np.empty((players, 4), np.int64)
        h = np.empty((players, 4), np.int64)
        work = np.zeros(ts.SEQ_SIZE, np.int64)
        shown = np.full((players, 8), -1, np.int64)
        crib = np.full(8, -1, np.int64)
        pool = np.empty(crib_unseen.shape[0], np.int64)
        taken = np.zeros(FIRST_JOKER + 2, np.bool_)
        ev_seat = np.full(MAX_EVENTS, -1, np.int64)
        ev_side = np.full(MAX_EVENTS, -1, np.int64)
        ev_points = np.zeros(MAX_EVENTS, np.int64)
        chosen = np.empty(4, np.int64)
        for j in range(c, samples, chunks):
            ts.draw_others(rng_for(seed, j), unseen, mine, seat, held, said_go, count, dealt_now)
            ts.ranks_of(dealt_now, ranks)
            # the shows: each seat's cards laid and held
            taken[:] = False
            shown[:, :] = -1
            for s in range(players):
                k = 0
                for t in range(4):
                    if laid[s, t] >= 0:
                        shown[s, k] = laid[s, t]
                        k += 1
                for t in range(4):
                    if dealt_now[s, t] >= 0:
                        shown[s, k] = dealt_now[s, t]
                        taken[dealt_now[s, t]] = True
                        k += 1
            left = 0
            for i in range(crib_unseen.shape[0]):
                if not taken[crib_unseen[i]]:
                    pool[left] = crib_unseen[i]
                    left += 1
            for i in range(crib_known.shape[0]):
                crib[i] = crib_known[i]
            at = crib_known.shape[0]
            rng = rng_for(seed, CRIB_STREAMS + j)
            w = 1.0
            for t in range(players):  # each seat's hand weighed by its throw policy
                k = throws[t]
                if not by_policy[t] or k == 0:
                    continue
                nk = 0
                for i in range(8):
                    if shown[t, i] >= 0 and nk < size:
                        nk += 1
                w *= throw_weight(shown[t], nk, pool, left, k, signs[t], crib_one[t],
                                  crib_two[t], aim, fives, jokers, rng, chosen)  # fmt: skip
                if w == 0.0:
                    break
                for u in range(k):
                    crib[at + u] = pool[chosen[u]]
                at += k
                for u in range(k):  # out of the pool
                    pool[chosen[u]] = -1
                kept_left = 0
                for i in range(left):
                    if pool[i] >= 0:
                        pool[kept_left] = pool[i]
                        kept_left += 1
                left = kept_left
            weights[j] = w
            if w == 0.0:
                continue
            at = draw_crib(rng, pool, left, random_throws, dealt, fives, crib, at)
            for i in range(from_pack):
                crib[at + i] = pool[left - 1 - i]
            e_shows = _show_events(shown, size, crib, crib_size, starter, teams, penalty,
                                   ev_side, ev_points, 0)  # fmt: skip
            shows_side = ev_side[:e_shows].copy()
            shows_points = ev_points[:e_shows].copy()
            ts.clear_memo(keys)
            for o in range(options.shape[0]):
                for row in range(h.shape[0]):
                    copy_small(h[row], 0, ranks[row], 0, h.shape[1])
                copy_small(work, 0, seq, 0, n)
                slot, name = options[o] % ts.NAMED, options[o] // ts.NAMED - 1
                e = table_line(h, seat, work, n, count, slot, name, teams, sides, once, aim,
                               keys, values, ev_seat, ev_points)  # fmt: skip
                for i in range(e):
                    ev_side[i] = teams[ev_seat[i]]
                for i in range(e_shows):
                    ev_side[e + i], ev_points[e + i] = shows_side[i], shows_points[i]
                if sides > 2:  # three or five players each for themselves
                    _seats_outcome(ev_side, ev_points, e + e_shows, mine_side, start, target,
                                   lines[0], board, out[o, j], ends[o, j])  # fmt: skip
                    continue
                outcome, a2, b2 = _walk(ev_side, ev_points, e + e_shows, mine_side,
                                        start[mine_side], start[1 - mine_side], target, lines,
                                        lowball)  # fmt: skip
                if outcome >= 0:
                    out[o, j, outcome] = 1.0
                else:
                    deals = 1 if mine_side == dealer_side else 0  # the deal passes
                    for k in range(N_OUTCOMES):
                        out[o, j, k] = board[a2, b2, 1 - deals, k]
    return out, weights, ends
