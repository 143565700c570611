"""numba kernels for the play round a table of 2 to 5 players: the turn passing left,
the go passing round until nobody can lay, the last card, and the old five-card game's
single pass to 31.

Seats are numbered from the dealer's left, the dealer last (:mod:`crib_analyze.rules`):
seat 0 leads. ``hands`` (N, 4) holds card ids, -1 once laid (a three-card hand has a -1
from the start). A card's points come from
:func:`~crib_analyze.play.rules_kernels.lay_points`, the same for any number of players:
counts of 15 and 31, pairs, runs among the latest cards, nothing across a reset.

A player who can lay must; one who cannot passes (says go), and the turn goes on to the
left. When nobody can lay, whoever laid the last card scores 1 (2 at 31, scored with the
card), the count resets and the next player to the left of that one with cards leads.
The last card of the play scores 1 unless it made 31. With ``once`` (five-card
cribbage) the play ends at the first go or 31: the cards left are not laid.

Policies (per seat): ``IN_ORDER`` lays the first card of its row that fits (a play
written out in advance); ``GREEDY`` the card worth most now; ``LOOKAHEAD`` the most now
less the next player's expected best reply (plus it, when that player is a partner);
``SOLVER`` the best mean over draws of the cards it cannot see, each draw's rest of the
play solved exactly (:func:`~crib_analyze.play.table_solver_kernels.pimc_slot`, ``draws``
of them from the deal's ``rng``). Their lowball forms (loser's cribbage) lay the card
those value least: ``LOW_GREEDY`` the fewest points now, ``LOW_LOOKAHEAD`` the fewest
now less the least the next player is expected to score with its reply (its own
fewest: a player who can lay must), ``LOW_SOLVER`` the solver's least.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import FIRST_JOKER, MAX_COUNT, SOLVER_MOST_HIDDEN
from crib_analyze.jit import njit
from crib_analyze.play.play_policy_kernels import unseen_by_rank
from crib_analyze.play.reply_kernels import expected_best_reply, expected_least_reply
from crib_analyze.play.rules_kernels import (
    R_GO,
    R_LAST_CARD,
    can_lay,
    card_value,
    cards_left,
    lay_points,
    next_holding,
    rank_value,
)
from crib_analyze.play.table_solver_kernels import (
    NAMED,
    draw_others,
    new_memo,
    objective,
    option_values,
    ranks_of,
    side_count,
)
from crib_analyze.rng_kernels import rng_for
from crib_analyze.sorting_kernels import copy_small

IN_ORDER, GREEDY, LOOKAHEAD, LOW_GREEDY, LOW_LOOKAHEAD, SOLVER, LOW_SOLVER = range(7)
#: the policies a player of any game may be given, by name (whole games take those of
#: settings.ANY_GAME_PLAY_POLICIES; advice and play matches the solver too)
POLICY_CODES = {"lookahead": LOOKAHEAD, "greedy": GREEDY, "solver": SOLVER}
#: the same in lowball: the fewest points is best
LOWBALL_CODES = {"lookahead": LOW_LOOKAHEAD, "greedy": LOW_GREEDY, "solver": LOW_SOLVER}
SEQ_SIZE = 16  # a round holds at most 13 cards (four aces, four 2s, four 3s, a 4), 15 with
# two jokers (laid as aces)


@njit
def next_to_lay(hands: np.ndarray, seat: int, count: int) -> int:
    """The first seat to the left of ``seat`` (``seat`` itself last) that can lay at
    ``count``; -1 if nobody can."""
    n = hands.shape[0]
    for step in range(1, n + 1):
        s: int = (seat + step) % n
        if can_lay(hands[s], count):
            return s
    return -1


@njit
def choose(
    policy: int,
    hands: np.ndarray,
    seat: int,
    seq: np.ndarray,
    n: int,
    count: int,
    seen: np.ndarray,
    teams: np.ndarray,
) -> int:
    """The card ``policy`` lays from ``hands[seat]`` (one that fits), as a code: its slot,
    plus :data:`NAMED` * (1 + the rank it is laid as) for a joker (tried as every rank
    that fits, ace first; the in-order player lays it as an ace)."""
    best, best_slot = -1e18, -1
    left = np.empty(13, np.int64)
    low = policy >= LOW_GREEDY  # the lowball codes come last
    aim = -1.0 if low else 1.0
    if low:
        policy = GREEDY if policy == LOW_GREEDY else LOOKAHEAD
    if policy == LOOKAHEAD:  # what this seat cannot see, by rank
        unseen_by_rank(hands, seat, seen, 0, left)
    weight = np.ones(13)
    pts = np.empty(13, np.int64)
    none = np.empty(13)
    scratch = np.empty(13, np.int64)
    for s in range(4):
        c = hands[seat, s]
        if c < 0:
            continue
        wild = c >= FIRST_JOKER
        for r in range(13 if wild else 1):  # a joker: laid as each rank
            laid = r if wild else c >> 2
            if count + rank_value(laid) > MAX_COUNT:
                continue
            code = s + NAMED * (1 + r) if wild else s
            if policy == IN_ORDER:
                return code
            after = count + rank_value(laid)
            seq[n] = laid
            now, _ = lay_points(seq, n + 1, after)
            value = float(now)
            if policy == LOOKAHEAD:
                hands[seat, s] = -1  # who replies is decided with this card laid
                other = next_to_lay(hands, seat, after)
                hands[seat, s] = c
                if other >= 0 and other != seat:
                    k = cards_left(hands[other])
                    if low:
                        reply = expected_least_reply(
                            seq, n + 1, after, left, weight, k, pts, none, scratch
                        )
                    else:
                        reply = expected_best_reply(
                            seq, n + 1, after, left, weight, k, pts, none, scratch
                        )
                    value += reply if teams[other] == teams[seat] else -reply
            if aim * value > best + 1e-12:
                best, best_slot = aim * value, code
    return best_slot


@njit
def play_table(
    hands: np.ndarray,
    starter: int,
    policies: np.ndarray,
    teams: np.ndarray,
    once: bool,
    record: np.ndarray,
    draws: int,
    rng: np.ndarray,
    jokers: int = 0,
) -> tuple[np.ndarray, int]:
    """Play ``hands`` (N, 4; changed in place: every laid card becomes -1) to the end,
    from a pack with ``jokers`` jokers (ids 52 and 53: each laid as any rank).

    Returns (points (N,) each seat pegged, events written). ``record`` (N*4, 5) gets a
    row per laid card: [seat, card, count after, reasons, points (go or last card
    included)]. ``teams`` (N,) each seat's side, for the lookahead's partner and the
    solver; ``draws`` and ``rng`` the solver's (unused by the other policies).
    """
    players = hands.shape[0]
    points = np.zeros(players, np.int64)
    seen = np.zeros(52 + jokers, np.bool_)
    if starter >= 0:
        seen[starter] = True
    seq = np.zeros(SEQ_SIZE, np.int64)
    turn = 0
    if cards_left(hands[turn]) == 0:
        turn = next_holding(hands, turn)
    events = play_on(
        hands, seen, policies, teams, once, record, seq, 0, 0, turn, -1, 0, points, -1, draws,
        rng,
    )  # fmt: skip
    return points, events


@njit
def play_on(
    hands: np.ndarray,
    seen: np.ndarray,
    policies: np.ndarray,
    teams: np.ndarray,
    once: bool,
    record: np.ndarray,
    seq: np.ndarray,
    n: int,
    count: int,
    turn: int,
    last: int,
    events: int,
    points: np.ndarray,
    first_slot: int,
    draws: int,
    rng: np.ndarray,
) -> int:
    """Play on from a position of the play to its end: ``seq[:n]`` the ranks laid since
    the count started, ``count``, ``turn`` the seat to lay (or say go), ``last`` the
    seat that laid the last card (-1: none yet), ``events`` rows of ``record`` already
    written; ``first_slot`` (>= 0) the card ``turn`` lays now, whatever its policy (a
    code of :func:`choose`). ``seen`` (52,) the starter and the cards laid, or (53,)
    and (54,) with a pack's jokers. Adds each seat's points to ``points``; returns the
    events written. The solver knows of the go's said from here on (not of those before
    the call)."""
    players = hands.shape[0]
    said = np.zeros(players, np.bool_)  # who has said go in this count
    while turn >= 0:
        if not can_lay(hands[turn], count):  # a go: the turn passes left
            said[turn] = True
            turn = next_to_lay(hands, turn, count)
            if turn >= 0:
                continue
            # nobody can lay: the last card laid scores the go, the count resets
            points[last] += 1
            if events > 0:  # (a go for a card laid before this call has no row here)
                record[events - 1, 3] |= R_GO
                record[events - 1, 4] += 1
            if once:
                break
            n, count = 0, 0
            for s in range(players):
                said[s] = False
            turn = next_holding(hands, last)
            continue
        slot = first_slot
        first_slot = -1
        policy = policies[turn]
        if slot < 0 and policy >= SOLVER and hidden(hands, turn) > SOLVER_MOST_HIDDEN:
            policy = LOW_LOOKAHEAD if policy == LOW_SOLVER else LOOKAHEAD  # too many to solve
        if slot < 0 and policy >= SOLVER:
            aim = -1 if policy == LOW_SOLVER else 1
            slot = pimc_slot(hands, turn, seen, said, seq, n, count, teams, once, aim, draws, rng)
        elif slot < 0:
            slot = choose(policy, hands, turn, seq, n, count, seen, teams)
        slot, name = slot % NAMED, slot // NAMED - 1
        card = hands[turn, slot]
        hands[turn, slot] = -1
        seen[card] = True
        laid = name if card >= FIRST_JOKER else card >> 2
        count += rank_value(laid)
        seq[n] = laid
        n += 1
        pts, reasons = lay_points(seq, n, count)
        last = turn
        record[events, 0], record[events, 1], record[events, 2] = turn, card, count
        events += 1
        if next_holding(hands, turn) < 0:  # the last card of the play
            if count < MAX_COUNT:
                pts += 1
                reasons |= R_LAST_CARD
            points[turn] += pts
            record[events - 1, 3], record[events - 1, 4] = reasons, pts
            break
        points[turn] += pts
        record[events - 1, 3], record[events - 1, 4] = reasons, pts
        if count == MAX_COUNT:
            if once:
                break
            n, count = 0, 0
            for s in range(players):
                said[s] = False
            turn = next_holding(hands, turn)
        else:
            turn = (turn + 1) % players
    return events


@njit(parallel=True)
def table_rollouts(
    mine: np.ndarray,
    seat: int,
    held: np.ndarray,
    unseen: np.ndarray,
    said_go: np.ndarray,
    options: np.ndarray,
    seen: np.ndarray,
    seq: np.ndarray,
    n: int,
    count: int,
    last: int,
    policies: np.ndarray,
    teams: np.ndarray,
    once: bool,
    samples: int,
    seed: int,
) -> np.ndarray:
    """The rest of a play from ``seat``'s turn, for each of its ``options`` (a slot of
    ``mine`` (4,), or -1: say go), over ``samples`` draws of the other seats' cards.

    Each draw deals every other seat ``held[s]`` of the ``unseen`` cards at random (a
    seat that has said go in this count holds none that fits, by redrawing up to 100
    times) and plays every option on those same cards (common random numbers), the
    seat's later cards and everybody else's by ``policies``. ``seen`` (52,) the cards
    laid and the starter ((53,) or (54,) with the pack's jokers). Returns (options,
    samples, seats): each seat's points."""
    players = held.shape[0]
    out = np.zeros((options.shape[0], samples, players), np.int64)
    for j in prange(samples):
        dealt = np.full((players, 4), -1, np.int64)
        draw_others(rng_for(seed, j), unseen, mine, seat, held, said_go, count, dealt)
        record = np.zeros((players * 4, 5), np.int64)
        for o in range(options.shape[0]):
            hands = dealt.copy()
            points = np.zeros(players, np.int64)
            run = seq.copy()
            play_on(
                hands, seen.copy(), policies, teams, once, record, run, n, count, seat, last,
                0, points, options[o], 0, rng_for(seed, j),
            )  # fmt: skip
            copy_small(out[o, j], 0, points, 0, points.shape[0])
    return out


@njit(parallel=True)
def play_tables(
    hands: np.ndarray,
    starters: np.ndarray,
    policies: np.ndarray,
    teams: np.ndarray,
    once: bool,
    draws: int,
    seed: int,
    jokers: int = 0,
) -> np.ndarray:
    """Play each deal ``hands[d]`` (N, 4) once for each row of ``policies`` (K, N: a
    policy per seat), from the lead to the end: (K, D, N) the points each seat pegs.
    The solver's draws come from the stream of the deal (``seed``, ``d``), the same for
    every row; ``jokers`` the pack's (ids 52 and 53, each laid as any rank)."""
    deals, players = hands.shape[0], hands.shape[1]
    rows = policies.shape[0]
    out = np.zeros((rows, deals, players), np.int64)
    for d in prange(deals):
        record = np.zeros((players * 4, 5), np.int64)
        for k in range(rows):
            h = hands[d].copy()
            points, _ = play_table(
                h, starters[d], policies[k], teams, once, record, draws, rng_for(seed, d), jokers
            )
            for s in range(players):
                out[k, d, s] = points[s]
    return out


#: memo entries of a decision in a played deal (smaller than the advice's: many calls)
PLAY_MEMO_SIZE = 1 << 12


@njit
def hidden(hands: np.ndarray, seat: int) -> int:
    """The cards the other seats still hold (what a draw must place)."""
    n = 0
    for s in range(hands.shape[0]):
        if s != seat:
            n += cards_left(hands[s])
    return n


@njit
def pimc_slot(
    hands: np.ndarray, seat: int, seen: np.ndarray, said_go: np.ndarray, seq: np.ndarray,
    n: int, count: int, teams: np.ndarray, once: bool, aim: int, draws: int, rng: np.ndarray,
) -> int:  # fmt: skip
    """The slot of ``hands[seat]`` (card ids, -1 laid) the solver lays in a played deal:
    the other seats' cards drawn ``draws`` times from those ``seat`` cannot see (not
    its own, not ``seen``: the starter and the cards laid), as many as each holds, none
    that fits for a seat in ``said_go``; each draw solved after each card that fits; the
    card with the best mean for its side (``aim`` -1: the least), the first of equals.
    The draws are not weighted by the others' lays: weighting down the draws in which
    the lookahead would have laid otherwise lost ~0.03 points a deal with three players
    (benchmarks/README). ``seq[:n]`` the ranks since the count started;
    ``rng`` the deal's stream. With one card that fits (or no draws), that card at once.

    Returns a code of :func:`choose`: each card that fits is an option
    (:func:`~crib_analyze.play.table_solver_kernels.option_values`), a joker of its own
    one for each rank that fits; the jokers of the pack it cannot see (``seen`` (53,) or
    (54,)) are drawn like any card."""
    players = hands.shape[0]
    codes = np.empty(4 * 13, np.int64)  # each option: a slot, a joker's with its rank
    options = 0
    for t in range(4):
        c = hands[seat, t]
        if c >= FIRST_JOKER:
            for r in range(13):
                if count + rank_value(r) <= MAX_COUNT:
                    codes[options] = t + NAMED * (1 + r)
                    options += 1
        elif c >= 0 and count + card_value(c) <= MAX_COUNT:
            codes[options] = t
            options += 1
    if options == 0:
        return -1
    if options == 1 or draws <= 0:
        return int(codes[0])
    mine = np.full(4, -1, np.int64)
    for t in range(4):
        mine[t] = hands[seat, t]
    unseen_n = 0
    unseen = np.empty(seen.shape[0], np.int64)
    for c in range(seen.shape[0]):
        if seen[c]:
            continue
        own = False
        for t in range(4):
            own |= mine[t] == c
        if not own:
            unseen[unseen_n] = c
            unseen_n += 1
    held = np.zeros(players, np.int64)
    for s in range(players):
        if s != seat:
            held[s] = cards_left(hands[s])
    sides = side_count(teams)
    keys, values = new_memo(players, PLAY_MEMO_SIZE)
    dealt = np.full((players, 4), -1, np.int64)
    ranks = np.empty((players, 4), np.int64)
    opts = codes[:options]
    value = np.zeros((options, players), np.int64)
    total = np.zeros(options, np.int64)
    for _ in range(draws):
        draw_others(rng, unseen[:unseen_n], mine, seat, held, said_go, count, dealt)
        ranks_of(dealt, ranks)
        option_values(
            ranks, seat, seq, n, count, opts, teams, sides, once, aim, keys, values, value
        )  # fmt: skip
        for o in range(options):
            total[o] += objective(value[o], seat, teams, sides)
    top = 0
    for o in range(1, options):
        if aim * total[o] > aim * total[top]:
            top = o
    return int(codes[top])
