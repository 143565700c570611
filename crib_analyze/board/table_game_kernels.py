"""numba kernels: whole games of any game of the rules (2 to 5 players, five-card,
partners), deal after deal, to the target.

**Seats and players.** Seats run from the dealer's left, the dealer last
(:mod:`crib_analyze.rules`); players sit round the table, numbered ``0 .. P-1``, and the
deal passes left: with ``d`` dealing, player ``(d + 1 + s) % P`` sits in seat ``s``.
Points belong to sides: ``sides[p]`` is player p's side (its own number when every
player is for themself; partners share one). The rules' seat teams are the same pattern
seen from a dealer, so ``sides = teams`` for every preset.

**A deal**, in scoring order: the deal (each seat its cards, the pack's cards to the
crib, the starter); each seat that has cards splits them by :func:`best_split`; heels
(2 to the dealer's side for a jack starter); the play (:func:`~crib_analyze.play.
table_play_kernels.play_table`), each card's points as laid; the hands, from the
dealer's left round to the dealer; the crib last. The game ends the moment a side
reaches the target, so the order matters at the end.

**The throws** follow the hand policy's rule
(:func:`~crib_analyze.crib.any_game_kernels.hand_policy_split`), each player with the
crib tables of its throw model: the hand policy's (random other cards) or the game's
expert model (:mod:`crib_analyze.artifacts.game_models`), by seat.

The kernel reports the first side to reach the target as the winner; in lowball
(``aim`` -1), where that side loses, the caller reads it so.

With ``continuation`` (three players for themselves) the game goes on after the first
side reaches the target, the deal passing as before, until a second does: second place.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import prange

from crib_analyze.constants import (
    BACK_TEN_POINTS,
    FIRST_JOKER,
    HEELS_POINTS,
    JACK_RANK,
    ZERO_PENALTY_POINTS,
)
from crib_analyze.crib.any_game_kernels import hand_policy_split
from crib_analyze.crib.dealing_kernels import shuffle_in_place, shuffle_into
from crib_analyze.jit import njit
from crib_analyze.play.table_play_kernels import play_table
from crib_analyze.rng_kernels import rng_for, rng_next
from crib_analyze.scoring.any_hand_kernels import wild_show_points
from crib_analyze.sorting_kernels import copy_small

NO_FORCE = np.array([-1, 0, 0, 0], np.int64)  # deal_events: no seat's split forced
MAX_DEALS = 512  # a game cannot last longer: every deal scores at least one point
DECK_STREAMS = 1 << 40  # deal k of rotation group g: stream DECK_STREAMS + g * MAX_DEALS + k
SOLVER_STREAMS = 1 << 41  # ... and the solver's draws in it: SOLVER_STREAMS + g * MAX_DEALS + k
RESULTS = 4  # winner side, second side (-1: none), first dealer (a player), deals
HEELS, PEGGING, HAND, CRIB = 0, 1, 2, 3  # sources, as in board.event_kernels.SOURCES
PENALTY = 4  # ... and the penalties for a show of nothing (the variant)
N_SOURCES = 5
#: a deal's scoring events at most: each player's cards laid (4), show and its penalty;
#: and heels, the crib and its penalty
EVENTS_PER_PLAYER, EVENTS_MORE = 6, 3
#: TableDeal.penalty: settings.PENALTIES by index
NO_PENALTY, ZERO_PENALTY, BACK_TEN = 0, 1, 2


class TableDeal(NamedTuple):
    """A game of the rules as the kernels deal, play and score it (numba compiles a named
    tuple as a tuple: each field by its name). Seats run from the dealer's left."""

    dealt: np.ndarray  # (P,) the cards each seat is dealt
    thrown: np.ndarray  # (P,) the cards each seat throws to the crib
    passed: np.ndarray  # (P,) the cards each seat passes to its partner
    sides: np.ndarray  # (P,) each player's side
    policies: np.ndarray  # (P,) each player's play policy (table_play_kernels codes)
    crib_one: np.ndarray  # (M, P, 13): throw model m's crib values of one card, by seat
    crib_two: np.ndarray  # (M, P, 13, 13): ... and of two
    throws: np.ndarray  # (P,) each player's throw model (0: the hand policy; 1: the expert)
    from_deck: int  # the pack's cards to the crib
    hand_size: int  # the cards a hand shows
    target: int  # the points that win
    once: bool  # the old game's play: it ends at its first go or 31
    aim: int  # the throws' aim: 1 the most points, -1 the fewest (lowball)
    draws: int  # the solver's draws of the unseen cards a decision (its players only)
    fives: bool  # the throw fives variant: every five held goes to the crib
    penalty: int  # a show of nothing: NO_PENALTY, ZERO_PENALTY or BACK_TEN
    jokers: int  # jokers in the pack (ids 52, 53): wild in the show and the play


@njit(parallel=True)
def play_table_games(
    n: int,
    seed: int,
    first: int,
    table: TableDeal,
    start: np.ndarray,
    pone_start: int,
    first_dealer: int,
    continuation: bool,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Games ``first`` .. ``first + n - 1`` of ``table``.

    ``start`` (S,): each side's points before the first deal, and ``pone_start`` more
    for the side of the first dealer's left-hand player; ``first_dealer`` the
    player who deals first, or -1: game g's is ``g % P``, and the P games of a rotation
    group ``g // P`` are dealt the same cards deal by deal (each player in each seat of
    the same deals).

    A side's score never falls below 0 (back ten takes it back to the start at most).

    Returns (results (n, 4): the winning side, the second side or -1, the first dealer,
    deals; scores (n, S): each side's points the moment the game was won; points (n, P,
    5): points by seat (from the dealer's left) and source (heels, pegging, hand, crib,
    penalty), summed over the game's deals, each deal counted whole; by_player (n, P,
    5): the same by player)."""
    players = table.dealt.shape[0]
    n_sides = start.shape[0]
    results = np.full((n, RESULTS), -1, np.int64)
    scores = np.zeros((n, n_sides), np.int64)
    points = np.zeros((n, players, N_SOURCES), np.int64)
    by_player = np.zeros((n, players, N_SOURCES), np.int64)
    events_max = EVENTS_PER_PLAYER * players + EVENTS_MORE
    for i in prange(n):
        game = first + i
        if first_dealer < 0:
            dealer, group = game % players, game // players
        else:
            dealer, group = first_dealer, game
        results[i, 2] = dealer
        score = start.copy()
        score[table.sides[(dealer + 1) % players]] += pone_start  # the first deal's left hand
        done = np.zeros(n_sides, np.bool_)
        deck = np.empty(52 + table.jokers, np.int64)
        hands = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        seat_side = np.empty(players, np.int64)
        events = np.empty((events_max, 3), np.int64)
        winner, second, over, k = -1, -1, False, 0
        while not over and k < MAX_DEALS:
            shuffle_into(deck, rng_for(seed, DECK_STREAMS + group * MAX_DEALS + k))
            draws = rng_for(seed, SOLVER_STREAMS + group * MAX_DEALS + k)
            e = deal_events(deck, dealer, table, hands, crib, seat_side, events, draws, NO_FORCE)
            for j in range(e):
                s, pts, source = events[j, 0], events[j, 1], events[j, 2]
                points[i, s, source] += pts
                by_player[i, (dealer + 1 + s) % players, source] += pts
                side = seat_side[s]
                if over or done[side] or pts == 0:
                    continue
                score[side] = max(0, score[side] + pts)
                if score[side] >= table.target:
                    done[side] = True
                    if winner < 0:
                        winner = side
                        copy_small(scores[i], 0, score, 0, score.shape[0])
                        over = not continuation
                    else:
                        second = side
                        over = True
            k += 1
            dealer = (dealer + 1) % players
        results[i, 0], results[i, 1], results[i, 3] = winner, second, k
    return results, scores, points, by_player


@njit
def deal_events(
    deck: np.ndarray,
    dealer: int,
    table: TableDeal,
    hands: np.ndarray,
    crib: np.ndarray,
    seat_side: np.ndarray,
    events: np.ndarray,
    rng: np.ndarray,
    forced: np.ndarray,
) -> int:
    """One deal of the shuffled ``deck`` with player ``dealer`` dealing: fills
    ``seat_side`` (each seat's side) and ``events`` with the deal's scoring events in
    order, (seat, points, source) each; returns how many. ``rng``: the stream of the
    solver's draws (a player whose policy is the solver). ``forced`` (seat, kept,
    thrown, passed masks) makes that seat split so (seat -1: nobody, ``NO_FORCE``)."""
    players = table.dealt.shape[0]
    dealer_seat = players - 1
    seat_policy = np.empty(players, np.int64)
    seat_throws = np.empty(players, np.int64)
    for s in range(players):
        p = (dealer + 1 + s) % players
        seat_policy[s] = table.policies[p]
        seat_throws[s] = table.throws[p]
        seat_side[s] = table.sides[p]
    starter = deal_hands(deck, table, seat_side, seat_throws, hands, crib, forced)
    shown = hands.copy()
    e = 0
    if starter >> 2 == JACK_RANK or starter >= FIRST_JOKER:  # heels: a jack or a joker
        events[e, 0], events[e, 1], events[e, 2] = dealer_seat, HEELS_POINTS, HEELS
        e += 1
    record = np.zeros((players * 4, 5), np.int64)
    once, draws = table.once, table.draws
    laid = play_table(
        hands, starter, seat_policy, seat_side, once, record, draws, rng, table.jokers
    )[1]
    for j in range(laid):
        events[e, 0], events[e, 1], events[e, 2] = record[j, 0], record[j, 4], PEGGING
        e += 1
    for s in range(players):
        shows = wild_show_points(shown[s], table.hand_size, starter, False)
        events[e, 0], events[e, 1], events[e, 2] = s, shows, HAND
        e = show_penalty(events, e + 1, s, shows, table.penalty, seat_side)
    shows = wild_show_points(crib, 4, starter, True)
    events[e, 0], events[e, 1], events[e, 2] = dealer_seat, shows, CRIB
    return show_penalty(events, e + 1, dealer_seat, shows, table.penalty, seat_side)


@njit
def show_penalty(
    events: np.ndarray, e: int, seat: int, shows: int, penalty: int, seat_side: np.ndarray
) -> int:
    """After the show of ``seat``'s hand or crib (``shows`` points), the penalty's event
    when it scored nothing: zero penalty, 1 to the first seat after it on another side
    (the opponent: two sides only); back ten, -10 to the owner. Returns the events."""
    if shows != 0 or penalty == NO_PENALTY:
        return e
    if penalty == ZERO_PENALTY:
        players = seat_side.shape[0]
        other = (seat + 1) % players
        while seat_side[other] == seat_side[seat]:
            other = (other + 1) % players
        events[e, 0], events[e, 1] = other, ZERO_PENALTY_POINTS
    else:
        events[e, 0], events[e, 1] = seat, -BACK_TEN_POINTS
    events[e, 2] = PENALTY
    return e + 1


@njit
def deal_hands(
    deck: np.ndarray,
    table: TableDeal,
    seat_side: np.ndarray,
    seat_throws: np.ndarray,
    hands: np.ndarray,
    crib: np.ndarray,
    forced: np.ndarray,
) -> int:
    """Deals ``deck``: each seat's kept cards to ``hands`` (-1 past a short hand), the
    throws (each seat by its throw model, ``seat_throws``, or the split ``forced`` gives
    it) and the pack's cards to ``crib``, a partner's passed cards to the partner;
    returns the starter."""
    players = table.dealt.shape[0]
    dealer_seat = players - 1
    total_dealt = 0
    for s in range(players):
        total_dealt += table.dealt[s]
    hands[:, :] = -1
    pos, nc = 0, 0
    for c in range(table.from_deck):  # the pack's cards to the crib come after the hands
        crib[nc] = deck[total_dealt + c]
        nc += 1
    for s in range(players):
        m = table.dealt[s]
        if m == 0:
            continue
        held = deck[pos : pos + m].copy()
        pos += m
        sign = 1 if seat_side[s] == seat_side[dealer_seat] else -1
        thrown, passed = table.thrown[s], table.passed[s]
        model = seat_throws[s]
        if s == forced[0]:
            km, tm, pm = forced[1], forced[2], forced[3]
        else:
            km, tm, pm = hand_policy_split(
                held, m - thrown - passed, thrown, passed, sign, table.crib_one[model, s],
                table.crib_two[model, s], table.aim, table.fives, table.jokers,
            )  # fmt: skip
        h = 0
        for j in range(m):
            if km >> j & 1:
                hands[s, h] = held[j]
                h += 1
            elif tm >> j & 1:
                crib[nc] = held[j]
                nc += 1
        if passed:
            q = s
            for o in range(players):
                if o != s and seat_side[o] == seat_side[s]:
                    q = o
            h = 0
            for j in range(m):
                if pm >> j & 1:
                    hands[q, h] = held[j]
                    h += 1
    return int(deck[pos + table.from_deck])


BOARD_STREAMS = 1 << 42  # deal i of a board's deals: stream BOARD_STREAMS + i (its draws + 1)


@njit(parallel=True)
def side_events(
    n: int, seed: int, first: int, table: TableDeal, by_seat: bool = False
) -> tuple[np.ndarray, ...]:
    """Deals ``first`` .. ``first + n - 1`` of a game, each dealt by player ``i % P``:
    (players, points, sources), each (n, E) int8, the deal's scoring events in the order
    they score, ``players`` naming the side (0 the side not dealing, 1 the dealer's; -1
    past the last event), as the board's dynamic programming reads them
    (:mod:`crib_analyze.board.dp_kernels`); with ``by_seat``, the seat (0 the dealer's
    left .. P - 1 the dealer), as the board of three reads them
    (:mod:`crib_analyze.board.three_board_kernels`)."""
    players_n = table.dealt.shape[0]
    events_max = EVENTS_PER_PLAYER * players_n + EVENTS_MORE
    players = np.full((n, events_max), -1, np.int8)
    points = np.zeros((n, events_max), np.int8)
    sources = np.full((n, events_max), -1, np.int8)
    for i in prange(n):
        k = first + i
        deck = np.empty(52 + table.jokers, np.int64)
        shuffle_into(deck, rng_for(seed, BOARD_STREAMS + 2 * k))
        draws = rng_for(seed, BOARD_STREAMS + 2 * k + 1)
        hands = np.empty((players_n, 4), np.int64)
        crib = np.empty(4, np.int64)
        seat_side = np.empty(players_n, np.int64)
        events = np.empty((events_max, 3), np.int64)
        e = deal_events(deck, k % players_n, table, hands, crib, seat_side, events, draws, NO_FORCE)
        dealing = seat_side[players_n - 1]
        for j in range(e):
            if by_seat:
                players[i, j] = events[j, 0]
            else:
                players[i, j] = 1 if seat_side[events[j, 0]] == dealing else 0
            points[i, j] = events[j, 1]
            sources[i, j] = events[j, 2]
    return players, points, sources


@njit
def unseen_and_place(cards: np.ndarray, seat: int, table: TableDeal) -> tuple[np.ndarray, int]:
    """(the cards ``seat`` cannot see, where its ``cards`` sit in a pack dealt from the
    dealer's left): for the kernels that deal one seat its own cards."""
    taken = np.zeros(52 + table.jokers, np.bool_)
    for c in cards:
        taken[c] = True
    place = 0
    for s in range(seat):
        place += table.dealt[s]
    return np.flatnonzero(~taken), place


@njit
def pack_with(cards: np.ndarray, unseen: np.ndarray, place: int, rng: np.ndarray) -> np.ndarray:
    """A pack of the ``unseen`` cards shuffled by ``rng``, ``cards`` put at ``place``."""
    pool = shuffle_in_place(unseen.copy(), rng)
    m = cards.shape[0]
    size = unseen.shape[0] + m
    deck = np.empty(size, np.int64)
    copy_small(deck, 0, pool, 0, place)
    copy_small(deck, place, cards, 0, m)
    copy_small(deck, place + m, pool, place, size - m - place)
    return deck


@njit(parallel=True)
def split_wins(
    cards: np.ndarray,
    seat: int,
    splits: np.ndarray,
    table: TableDeal,
    start: np.ndarray,
    win: np.ndarray,
    samples: int,
    seed: int,
) -> np.ndarray:
    """(S, samples): for each split of ``seat``'s ``cards`` (rows of ``splits``: kept,
    thrown, passed masks over ``cards``), the chance its side wins the game from
    ``start`` (each side's score) with this deal, in ``samples`` deals of the other
    cards.

    Player p sits in seat p (the dealer the last); the other seats are dealt at random
    from the cards ``seat`` cannot see, throw by their models and everyone lays by
    their policies; the events are walked in the order they score: a side that reaches
    the target wins there and then; if none does, the game's board values the position
    after the deal, the deal passing to the left (seat 0 deals next):
    - two sides: ``win`` (target, target, 2, 1), my side's score, the other's, my side
      deals;
    - three players: ``win`` (target, target, target, 3), each seat's chance from the
      scores seen from the dealer: (the old middle's score, the old dealer's, the old
      left's), ``seat`` now in seat ``seat - 1`` (the left: 2).

    Sample j is dealt and played from the same streams for every split (common random
    numbers)."""
    players = table.dealt.shape[0]
    dealer = players - 1
    unseen, place = unseen_and_place(cards, seat, table)
    my_side = table.sides[seat]
    three = start.shape[0] == 3
    next_mine = 1 if table.sides[0] == my_side else 0  # two sides: seat 0 deals next
    then = (seat + players - 1) % players  # three: the seat's seat after the deal passes
    target = table.target
    events_max = EVENTS_PER_PLAYER * players + EVENTS_MORE
    out = np.zeros((splits.shape[0], samples))
    for j in prange(samples):
        rng = rng_for(seed, j)
        deck = pack_with(cards, unseen, place, rng)
        draws_seed = rng_next(rng)
        hands = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        seat_side = np.empty(players, np.int64)
        events = np.empty((events_max, 3), np.int64)
        forced = np.empty(4, np.int64)
        score = np.empty(start.shape[0], np.int64)
        for r in range(splits.shape[0]):
            forced[0] = seat
            copy_small(forced, 1, splits[r], 0, splits.shape[1])
            draws = rng_for(draws_seed, 0)
            e = deal_events(deck, dealer, table, hands, crib, seat_side, events, draws, forced)
            copy_small(score, 0, start, 0, score.shape[0])
            value = -1.0
            for k in range(e):
                side = seat_side[events[k, 0]]
                score[side] += events[k, 1]
                if score[side] >= target:
                    value = 1.0 if side == my_side else 0.0
                    break
            if value >= 0.0:
                out[r, j] = value
            elif three:
                out[r, j] = win[score[1], score[2], score[0], then]
            else:
                out[r, j] = win[score[my_side], score[1 - my_side], next_mine, 0]
    return out


@njit(parallel=True)
def split_pegging(
    cards: np.ndarray,
    seat: int,
    splits: np.ndarray,
    table: TableDeal,
    first_sample: int,
    samples: int,
    seed: int,
) -> np.ndarray:
    """(S, samples, P): for each split of ``seat``'s ``cards`` (rows of ``splits``: kept,
    thrown, passed masks), the points each seat pegs in the play of this deal, in deals
    ``first_sample`` .. ``first_sample + samples - 1`` of the other cards.

    Deal j is dealt as :func:`split_wins` deals it (from its own stream ``rng_for(seed,
    j)``, player p in seat p, the dealer last): the other seats dealt at random from the
    cards ``seat`` cannot see, throwing by their models, every seat laying by its policy
    from the lead; every split meets the same cards and the same solver draws (common
    random numbers)."""
    players = table.dealt.shape[0]
    unseen, place = unseen_and_place(cards, seat, table)
    out = np.zeros((splits.shape[0], samples, players), np.int64)
    for g in prange(samples):
        rng = rng_for(seed, first_sample + g)
        deck = pack_with(cards, unseen, place, rng)
        draws_seed = rng_next(rng)
        hands = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        record = np.zeros((players * 4, 5), np.int64)
        forced = np.empty(4, np.int64)
        for r in range(splits.shape[0]):
            forced[0] = seat
            copy_small(forced, 1, splits[r], 0, splits.shape[1])
            starter = deal_hands(deck, table, table.sides, table.throws, hands, crib, forced)
            points, _ = play_table(
                hands, starter, table.policies, table.sides, table.once, record, table.draws,
                rng_for(draws_seed, 0), table.jokers,
            )  # fmt: skip
            for s in range(players):
                out[r, g, s] = points[s]
    return out


GAME_STREAMS = (
    1 << 43
)  # split_games: deal k after the first of sample j: GAME_STREAMS + j * MAX_DEALS + k


@njit(parallel=True)
def split_games(
    cards: np.ndarray,
    seat: int,
    splits: np.ndarray,
    table: TableDeal,
    start: np.ndarray,
    first_sample: int,
    samples: int,
    seed: int,
) -> np.ndarray:
    """(S, samples): for each split of ``seat``'s ``cards`` (as :func:`split_wins`), the
    side that first reaches the target when the game is played out from ``start`` (each
    side's score) with this deal and then deal after deal to the end, in games
    ``first_sample`` .. ``first_sample + samples - 1`` (game j from its own streams, so
    the games do not depend on how they are cut into calls), every split meeting the
    same cards (common random numbers).

    This deal is dealt as :func:`split_wins` deals it (player p in seat p, the dealer
    last); each later deal shuffles a whole pack from its own stream, the deal passing
    to the left; a side's score never falls below 0 (back ten). For a game without a
    board: the variants, whose scores the board does not know."""
    players = table.dealt.shape[0]
    dealer = players - 1
    unseen, place = unseen_and_place(cards, seat, table)
    target = table.target
    events_max = EVENTS_PER_PLAYER * players + EVENTS_MORE
    out = np.full((splits.shape[0], samples), -1, np.int64)
    for g in prange(samples):
        j = first_sample + g
        rng = rng_for(seed, j)
        dealt = pack_with(cards, unseen, place, rng)
        draws_seed = rng_next(rng)
        deck = np.empty(52 + table.jokers, np.int64)
        hands = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        seat_side = np.empty(players, np.int64)
        events = np.empty((events_max, 3), np.int64)
        forced = np.empty(4, np.int64)
        for r in range(splits.shape[0]):
            forced[0] = seat
            copy_small(forced, 1, splits[r], 0, splits.shape[1])
            score = start.copy()
            e = deal_events(
                dealt, dealer, table, hands, crib, seat_side, events, rng_for(draws_seed, 0), forced
            )
            winner = _walk_events(events, e, seat_side, score, target)
            if winner < 0:
                winner = play_on(score, 0, j, 1, table, seed, deck, hands, crib, seat_side, events)
            out[r, g] = winner
    return out


@njit
def _walk_events(
    events: np.ndarray, e: int, seat_side: np.ndarray, score: np.ndarray, target: int
) -> int:
    """Add events ``[:e]`` to ``score`` (by side, a score never below 0) until a side
    reaches ``target``: that side, or -1."""
    for i in range(e):
        side = int(seat_side[events[i, 0]])
        score[side] = max(0, score[side] + events[i, 1])
        if score[side] >= target:
            return side
    return -1


@njit
def play_on(
    score: np.ndarray, dealer: int, j: int, first_deal: int, table: TableDeal, seed: int,
    deck: np.ndarray, hands: np.ndarray, crib: np.ndarray, seat_side: np.ndarray,
    events: np.ndarray,
) -> int:  # fmt: skip
    """Play game ``j`` on from ``score`` (by side; updated) deal after deal, player
    ``dealer`` dealing deal ``first_deal`` (deal k shuffled from stream ``GAME_STREAMS +
    j * MAX_DEALS + k``), the deal passing left: the first side to reach the target, or
    -1 after ``MAX_DEALS`` deals in all. ``deck`` and the rest are work arrays."""
    players = table.dealt.shape[0]
    d, k, winner = dealer, first_deal, -1
    while winner < 0 and k < MAX_DEALS:
        stream = GAME_STREAMS + j * MAX_DEALS + k
        shuffle_into(deck, rng_for(seed, stream))
        draws = rng_for(seed, SOLVER_STREAMS + stream)
        e = deal_events(deck, d, table, hands, crib, seat_side, events, draws, NO_FORCE)
        winner = _walk_events(events, e, seat_side, score, table.target)
        k += 1
        d = (d + 1) % players
    return winner


@njit(parallel=True)
def games_onward(
    scores: np.ndarray, games: np.ndarray, dealer: int, table: TableDeal, seed: int,
    line: int,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """For each row of ``scores`` (M, sides: the scores after a deal, by side), the game
    played on to its end with player ``dealer`` dealing next (:func:`play_on`, game
    ``games[m]``'s streams: rows of one game meet the same cards, common random numbers):
    (the side that first reaches the target (M,), -1 if none; whether a side other than
    the winner was then short of ``line`` (M,))."""
    players = table.dealt.shape[0]
    events_max = EVENTS_PER_PLAYER * players + EVENTS_MORE
    rows = scores.shape[0]
    winner = np.full(rows, -1, np.int64)
    short = np.zeros(rows, np.bool_)
    for m in prange(rows):
        deck = np.empty(52 + table.jokers, np.int64)
        hands = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        seat_side = np.empty(players, np.int64)
        events = np.empty((events_max, 3), np.int64)
        score = scores[m].copy()
        w = play_on(score, dealer, games[m], 1, table, seed, deck, hands, crib, seat_side, events)
        winner[m] = w
        short[m] = w >= 0 and loser_short(score, w, line)
    return winner, short


@njit
def loser_short(score: np.ndarray, winner: int, line: int) -> bool:
    """Whether a side other than ``winner`` is short of ``line`` (``score`` by side):
    a skunk when the winner has just reached the target."""
    for o in range(score.shape[0]):  # noqa: SIM110 (numba: no generators)
        if o != winner and score[o] < line:
            return True
    return False
