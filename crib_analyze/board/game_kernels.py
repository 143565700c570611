"""numba kernels: whole games, deal after deal, to 121.

Players are 0 and 1; in game g player ``g % 2`` deals first, and games 2k and 2k+1 are
dealt the same cards deal by deal (a duplicate pair: each player sits in each seat of
the same deals until the games drift apart). Every deal is played out as its scoring
events (:mod:`crib_analyze.board.event_kernels`); the game ends the moment a player
reaches the target.

How a player throws (``kinds``, codes of :mod:`crib_analyze.board.throw_choice_kernels`):
expert, points, mixed as there; position: from a score where either player has
``position_from`` or more, the ``candidates`` best throws for the expert valued by
simulating ``position_samples`` deals (the opponent throwing as the expert, the play
drawn from ``spread``, the solver's pegging of each keep, or if it is empty played by
``sample_policies``, which never include the solver) and reading the board table,
ranked by ``goal_weights`` over the outcomes; elsewhere as the expert. The deals of the
game itself are played by ``policies``, one a player (player 0's, player 1's), the
solver included.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.board.dp_kernels import band
from crib_analyze.board.event_kernels import MAX_EVENTS, events_of_reading
from crib_analyze.board.position_kernels import sample_outcomes, unseen_cards
from crib_analyze.board.throw_choice_kernels import (
    EXPERT,
    POSITION,
    ExpertThrows,
    fill_seat,
    points_values,
    throw_of,
)
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.crib.hand_kernels import N_DISCARDS
from crib_analyze.jit import njit
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.play.play_policy_kernels import new_reading, new_workspace
from crib_analyze.play.spread_kernels import PlaySpread
from crib_analyze.rng_kernels import rng_for
from crib_analyze.sorting_kernels import order_descending, sorted_small

MAX_DEALS = 256  # a game cannot last longer: every deal scores at least one point
HISTORY_DEALS = 48  # deals of a game kept when its history is asked for (a game has ~9)
HISTORY_FIELDS = 24  # the deal (13 cards), the 8 cards laid in order, the dealer, 2 scores
DECK_STREAMS = 1 << 36  # deal k of duplicate pair p: stream DECK_STREAMS + p * 256 + k
PLAY_STREAMS = 1 << 44  # its play (shared by the pair)
CHOICE_STREAMS = 1 << 52  # game g's own choices (mixed policies, position samples)
SAMPLE_STREAMS = 1 << 58  # the plays of game g's position samples: g * 4096 + j
RESULTS = 6  # winner, first dealer, player 0's score, player 1's, deals, skunk band


@njit(parallel=True)
def play_games(
    n: int,
    seed: int,
    first: int,
    kinds: np.ndarray,
    expert: ExpertThrows,
    policies: np.ndarray,
    sample_policies: np.ndarray,
    reader: Reader,
    samples: int,
    spread: PlaySpread,
    table: np.ndarray,
    values: np.ndarray,
    target: int,
    lines: np.ndarray,
    position_from: int,
    position_samples: int,
    candidates: int,
    goal_weights: np.ndarray,
    history: np.ndarray,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Games ``first`` .. ``first + n - 1``: (results (n, 6): winner, first dealer, the
    two final scores, deals, the skunk band of the loss (0-3); points (n, 2, 2, 4): per
    player, role (0 pone, 1 dealer) and source, summed over the game's deals, each deal
    counted whole; dealt (n, 2): deals each player dealt). ``history`` (n or 0,
    HISTORY_DEALS, HISTORY_FIELDS) receives each deal of each game (if it has rows):
    the 13 cards of the deal (pone's four kept, dealer's four, starter, pone's two
    thrown, dealer's two), the 8 cards in the order laid, the dealing player, and the
    two players' scores before the deal; -1 past the game's last deal."""
    results = np.zeros((n, RESULTS), np.int64)
    points = np.zeros((n, 2, 2, 4), np.int64)
    dealt = np.zeros((n, 2), np.int64)
    for i in prange(n):
        game = first + i
        pair = game // 2
        choice_rng = rng_for(seed, CHOICE_STREAMS + game)
        score = np.zeros(2, np.int64)
        dealer = game % 2
        results[i, 1] = dealer
        deck = np.empty(52, np.int64)
        deal = np.empty(13, np.int64)
        players = np.empty(MAX_EVENTS, np.int8)
        pts = np.empty(MAX_EVENTS, np.int8)
        sources = np.empty(MAX_EVENTS, np.int8)
        record = np.zeros((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        reading = new_reading()
        out = np.zeros((N_DISCARDS, 8))
        seat_policies = np.empty(2, np.int64)  # the pone's, the dealer's
        over = False
        k = 0
        while not over and k < MAX_DEALS:
            shuffle_into(deck, rng_for(seed, DECK_STREAMS + pair * MAX_DEALS + k))
            for seat in range(2):  # 0 pone, 1 dealer
                player = dealer if seat == 1 else 1 - dealer
                six = sorted_small(deck[6 * seat : 6 * seat + 6])
                kind = kinds[player]
                a, b = score[player], score[1 - player]
                if kind != POSITION or max(a, b) < position_from:
                    by = EXPERT if kind == POSITION else kind
                    t = throw_of(by, six, seat, table, expert, choice_rng)
                else:
                    # a typed flag: one compiled signature for every caller
                    value = points_values(table, six, seat, expert, np.bool_(True))
                    throws = order_descending(value)[:candidates]
                    out[:, :] = 0.0
                    unseen = unseen_cards(six)
                    for j in range(position_samples):
                        sample_outcomes(
                            six, unseen, seat, a, b, throws, choice_rng, seed,
                            SAMPLE_STREAMS + game * 4096 + j % 4096, np.int64(EXPERT), expert,
                            sample_policies, reader, samples, spread, table, values, target, lines,
                            out,
                        )  # fmt: skip
                    best, best_value = 0, -np.inf
                    for c in range(throws.shape[0]):
                        v = 0.0
                        for o in range(8):
                            v += out[c, o] * goal_weights[o]
                        if v > best_value + 1e-12:
                            best, best_value = c, v
                    t = throws[best]
                fill_seat(deal, seat, six, t)
            deal[8] = deck[12]
            play_rng = rng_for(seed, PLAY_STREAMS + pair * MAX_DEALS + k)
            seat_policies[0], seat_policies[1] = policies[1 - dealer], policies[dealer]
            events_of_reading(
                deal, table, seat_policies, reader, samples, play_rng, players, pts, sources,
                record, work, fwork, seen, reading,
            )  # fmt: skip
            if history.shape[0] > 0 and k < HISTORY_DEALS:
                h = history[i, k]
                h[0:13] = deal
                h[13:21] = record[:, 1]
                h[21], h[22], h[23] = dealer, score[0], score[1]
            dealt[i, dealer] += 1
            for e in range(MAX_EVENTS):
                if players[e] < 0:
                    break
                seat = players[e]
                player = dealer if seat == 1 else 1 - dealer
                points[i, player, seat, sources[e]] += pts[e]
                if not over:
                    score[player] += pts[e]
                    if score[player] >= target:
                        over = True
                        results[i, 0] = player
                        results[i, 5] = band(score[1 - player], lines)
            k += 1
            dealer = 1 - dealer
        results[i, 2], results[i, 3], results[i, 4] = score[0], score[1], k
    return results, points, dealt
