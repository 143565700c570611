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

**The throws** are the hand policy's
(:func:`~crib_analyze.crib.any_game_kernels.hand_policy_split`).

The kernel reports the first side to reach the target as the winner; in lowball
(``aim`` -1), where that side loses, the caller reads it so.

With ``continuation`` (three players for themselves) the game goes on after the first
side reaches the target, the deal passing as before, until a second does: second place.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import HEELS_POINTS, JACK_RANK
from crib_analyze.crib.any_game_kernels import hand_policy_split
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.jit import njit
from crib_analyze.play.table_play_kernels import play_table
from crib_analyze.rng_kernels import rng_for
from crib_analyze.scoring.any_hand_kernels import show_points

MAX_DEALS = 512  # a game cannot last longer: every deal scores at least one point
DECK_STREAMS = 1 << 40  # deal k of rotation group g: stream DECK_STREAMS + g * MAX_DEALS + k
RESULTS = 4  # winner side, second side (-1: none), first dealer (a player), deals
HEELS, PEGGING, HAND, CRIB = 0, 1, 2, 3  # sources, as in board.event_kernels.SOURCES


@njit(parallel=True)
def play_table_games(
    n: int,
    seed: int,
    first: int,
    dealt: np.ndarray,
    thrown: np.ndarray,
    passed: np.ndarray,
    sides: np.ndarray,
    from_deck: int,
    hand_size: int,
    target: int,
    policies: np.ndarray,
    crib_one: np.ndarray,
    crib_two: np.ndarray,
    start: np.ndarray,
    pone_start: int,
    first_dealer: int,
    once: bool,
    continuation: bool,
    aim: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games ``first`` .. ``first + n - 1``.

    ``start`` (S,): each side's points before the first deal, and ``pone_start`` more
    for the side of the first dealer's left-hand player; ``first_dealer`` the
    player who deals first, or -1: game g's is ``g % P``, and the P games of a rotation
    group ``g // P`` are dealt the same cards deal by deal (each player in each seat of
    the same deals). ``policies`` (P,): each player's play policy
    (:mod:`~crib_analyze.play.table_play_kernels` codes); ``aim`` the throws' aim: 1 the
    most points, -1 the fewest (lowball).

    Returns (results (n, 4): the winning side, the second side or -1, the first dealer,
    deals; scores (n, S): each side's points the moment the game was won; points (n, P,
    4): points by seat (from the dealer's left) and source, summed over the game's deals,
    each deal counted whole)."""
    players = dealt.shape[0]
    n_sides = start.shape[0]
    results = np.full((n, RESULTS), -1, np.int64)
    scores = np.zeros((n, n_sides), np.int64)
    points = np.zeros((n, players, 4), np.int64)
    dealer_seat = players - 1
    events_max = players * 4 + players + 2  # heels, every card, the hands, the crib
    total_dealt = 0
    for s in range(players):
        total_dealt += dealt[s]
    for i in prange(n):
        game = first + i
        if first_dealer < 0:
            dealer, group = game % players, game // players
        else:
            dealer, group = first_dealer, game
        results[i, 2] = dealer
        score = start.copy()
        score[sides[(dealer + 1) % players]] += pone_start  # the first deal's left hand
        done = np.zeros(n_sides, np.bool_)
        deck = np.empty(52, np.int64)
        hands = np.empty((players, 4), np.int64)
        shown = np.empty((players, 4), np.int64)
        crib = np.empty(4, np.int64)
        record = np.zeros((players * 4, 5), np.int64)
        seat_policy = np.empty(players, np.int64)
        seat_side = np.empty(players, np.int64)
        ev_seat = np.empty(events_max, np.int64)
        ev_pts = np.empty(events_max, np.int64)
        ev_src = np.empty(events_max, np.int64)
        winner, second, over, k = -1, -1, False, 0
        while not over and k < MAX_DEALS:
            shuffle_into(deck, rng_for(seed, DECK_STREAMS + group * MAX_DEALS + k))
            for s in range(players):
                p = (dealer + 1 + s) % players
                seat_policy[s] = policies[p]
                seat_side[s] = sides[p]
            hands[:, :] = -1
            pos, nc = 0, 0
            for c in range(from_deck):  # the pack's cards to the crib come after the hands
                crib[nc] = deck[total_dealt + c]
                nc += 1
            for s in range(players):
                m = dealt[s]
                if m == 0:
                    continue
                held = deck[pos : pos + m].copy()
                pos += m
                sign = 1 if sides[(dealer + 1 + s) % players] == seat_side[dealer_seat] else -1
                keep = m - thrown[s] - passed[s]
                km, tm, pm = hand_policy_split(
                    held, keep, thrown[s], passed[s], sign, crib_one, crib_two, aim
                )
                h = 0
                for j in range(m):
                    if km >> j & 1:
                        hands[s, h] = held[j]
                        h += 1
                    elif tm >> j & 1:
                        crib[nc] = held[j]
                        nc += 1
                if passed[s]:
                    q = s
                    for o in range(players):
                        if o != s and seat_side[o] == seat_side[s]:
                            q = o
                    h = 0
                    for j in range(m):
                        if pm >> j & 1:
                            hands[q, h] = held[j]
                            h += 1
            starter = deck[pos + from_deck]
            shown[:, :] = hands
            e = 0  # the scoring events in order: (seat, points, source)
            if starter >> 2 == JACK_RANK:
                ev_seat[e], ev_pts[e], ev_src[e] = dealer_seat, HEELS_POINTS, HEELS
                e += 1
            events = play_table(hands, starter, seat_policy, seat_side, once, record)[1]
            for j in range(events):
                ev_seat[e], ev_pts[e], ev_src[e] = record[j, 0], record[j, 4], PEGGING
                e += 1
            for s in range(players):
                shows = show_points(shown[s], hand_size, starter, False)
                ev_seat[e], ev_pts[e], ev_src[e] = s, shows, HAND
                e += 1
            shows = show_points(crib, 4, starter, True)
            ev_seat[e], ev_pts[e], ev_src[e] = dealer_seat, shows, CRIB
            e += 1
            for j in range(e):
                s = ev_seat[j]
                points[i, s, ev_src[j]] += ev_pts[j]
                side = seat_side[s]
                if over or done[side] or ev_pts[j] == 0:
                    continue
                score[side] += ev_pts[j]
                if score[side] >= target:
                    done[side] = True
                    if winner < 0:
                        winner = side
                        scores[i, :] = score
                        over = not continuation
                    else:
                        second = side
                        over = True
            k += 1
            dealer = (dealer + 1) % players
        results[i, 0], results[i, 1], results[i, 3] = winner, second, k
    return results, scores, points
