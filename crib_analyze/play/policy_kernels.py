"""numba kernels for play policies and whole deals.

A policy picks a card using only what its player knows: its own cards, the cards laid
(and the starter), the count, and how many cards the opponent holds, plus a prior
``rank_weight[13]`` over the ranks the opponent keeps (from the expert discard model;
all ones for none) and ``gone_above``: after the opponent said go at count c it holds
no card of value <= 31 - c until the reset.

* ``GREEDY``: the most points now (ties: the first such card).
* ``LOOKAHEAD``: points now minus the expected best reply, the opponent's cards being a
  weighted draw from the cards unseen by the player.
* ``SEARCH``: for ``samples`` opponent hands drawn as above (consistent with its goes),
  the exact best play of the rest of the deal with all cards known (negamax on the
  pegging differential), averaged per candidate card.

Random draws come from a per-deal stream (:func:`rng_next`, splitmix64), so a seed gives
the same deals however many threads run them.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.jit import njit
from crib_analyze.play.rules_kernels import (
    MAX_COUNT,
    card_value,
    cards_left,
    lay,
    lay_points,
)

GREEDY, LOOKAHEAD, SEARCH = 0, 1, 2
POLICY_NAMES = ("greedy", "lookahead", "search")


# --- a small deterministic random stream -----------------------------------------------------


@njit(inline="always")
def rng_next(state: np.ndarray) -> int:
    """splitmix64 step: advance ``state[0]`` and return 63 random bits."""
    state[0] = (state[0] + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state[0]
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = z ^ (z >> np.uint64(31))
    return int(z >> np.uint64(1))


@njit(inline="always")
def rng_uniform(state: np.ndarray) -> float:
    return (rng_next(state) >> 10) / 9007199254740992.0  # 53 bits in [0, 1)


@njit
def rng_for(seed: int, index: int) -> np.ndarray:
    """The stream of deal ``index`` under ``seed``."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(index)
    rng_next(state)
    return state


# --- what a player can see -----------------------------------------------------------------


@njit
def unseen_cards(hands: np.ndarray, player: int, seen: np.ndarray) -> np.ndarray:
    """Card ids the player cannot see: not its own, not in ``seen`` (flags, 52)."""
    mask = seen.copy()
    for c in hands[player]:
        if c >= 0:
            mask[c] = True
    out = np.empty(52, np.int64)
    n = 0
    for c in range(52):
        if not mask[c]:
            out[n] = c
            n += 1
    return out[:n]


# --- policies ------------------------------------------------------------------------------


@njit
def greedy_slot(hands: np.ndarray, player: int, seq: np.ndarray, state: np.ndarray) -> int:
    """The card worth most points now (the first of ties)."""
    n, count = state[0], state[1]
    best, best_slot = -1, -1
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        seq[n] = c >> 2
        pts, _ = lay_points(seq, n + 1, count + card_value(c))
        if pts > best:
            best, best_slot = pts, s
    return best_slot


@njit
def expected_best_reply(
    seq: np.ndarray,
    n: int,
    count: int,
    unseen: np.ndarray,
    weight: np.ndarray,
    k: int,
    gone_above: int,
) -> float:
    """E[the opponent's best reply points] when it holds ``k`` of ``unseen`` (card u
    held with probability ~ k w_u / sum w, independently) and can lay only cards of
    value > ``gone_above`` (0 when it has not said go)."""
    if k <= 0:
        return 0.0
    total_w = 0.0
    for i in range(unseen.shape[0]):
        if card_value(unseen[i]) > gone_above:
            total_w += weight[i]
    if total_w <= 0.0:
        return 0.0
    pts = np.zeros(unseen.shape[0], np.int64)
    prob = np.zeros(unseen.shape[0], np.float64)
    for i in range(unseen.shape[0]):
        u = unseen[i]
        v = card_value(u)
        if v <= gone_above or count + v > MAX_COUNT:
            continue
        seq[n] = u >> 2
        pts[i], _ = lay_points(seq, n + 1, count + v)
        prob[i] = min(1.0, k * weight[i] / total_w)
    # E[max] = sum over levels v of P(max >= v), with P(none >= v) = prod (1 - p_u)
    expected = 0.0
    for level in range(1, 13):
        none = 1.0
        for i in range(unseen.shape[0]):
            if pts[i] >= level:
                none *= 1.0 - prob[i]
        expected += 1.0 - none
    return expected


@njit
def lookahead_slot(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weight: np.ndarray,
    gone_above: int,
) -> int:
    """The card with the most points now minus the opponent's expected best reply."""
    n, count = state[0], state[1]
    unseen = unseen_cards(hands, player, seen)
    weight = np.empty(unseen.shape[0], np.float64)
    for i in range(unseen.shape[0]):
        weight[i] = rank_weight[unseen[i] >> 2]
    k = cards_left(hands[1 - player])
    best, best_slot = -1e9, -1
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        after = count + card_value(c)
        seq[n] = c >> 2
        now, _ = lay_points(seq, n + 1, after)
        reply = expected_best_reply(seq, n + 1, after, unseen, weight, k, gone_above)
        value = now - reply
        if value > best + 1e-12:
            best, best_slot = value, s
    return best_slot


@njit
def negamax(hands: np.ndarray, seq: np.ndarray, state: np.ndarray, scratch: np.ndarray) -> float:
    """The pegging differential (mover minus the other) the player to move gets from
    here on with every card known and both playing their best. ``scratch`` (2,) takes
    the points as they are laid (ignored)."""
    player = state[2]
    if player < 0:
        return 0.0
    n, count = state[0], state[1]
    best = -1e9
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        pts, _ = lay(hands, player, s, seq, state, scratch)
        nxt = state[2]
        if nxt < 0:
            value = float(pts)
        elif nxt == player:
            value = pts + negamax(hands, seq, state, scratch)
        else:
            value = pts - negamax(hands, seq, state, scratch)
        hands[player, s] = c  # undo
        state[0], state[1], state[2] = n, count, player
        if value > best:
            best = value
    return best


@njit
def search_slot(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weight: np.ndarray,
    gone_above: int,
    samples: int,
    rng: np.ndarray,
) -> int:
    """The card with the best mean exact value over ``samples`` opponent hands."""
    n, count = state[0], state[1]
    legal = 0
    only = -1
    for s in range(4):
        c = hands[player, s]
        if c >= 0 and count + card_value(c) <= MAX_COUNT:
            legal += 1
            only = s
    if legal == 1:
        return only
    other = 1 - player
    k = cards_left(hands[other])
    unseen = unseen_cards(hands, player, seen)
    weight = np.empty(unseen.shape[0], np.float64)
    for i in range(unseen.shape[0]):
        v = card_value(unseen[i])
        weight[i] = rank_weight[unseen[i] >> 2] if v > gone_above else 0.0
    totals = np.zeros(4, np.float64)
    scratch = np.zeros(2, np.int64)
    trial = hands.copy()
    work_seq = seq.copy()
    work_state = state.copy()
    pick = np.empty(k, np.int64)
    for _ in range(samples):
        # the opponent's k cards: a weighted draw without replacement
        w = weight.copy()
        got = 0
        for j in range(k):
            total = w.sum()
            if total <= 0.0:
                break
            x = rng_uniform(rng) * total
            acc = 0.0
            chosen = w.shape[0] - 1
            for i in range(w.shape[0]):
                acc += w[i]
                if x < acc:
                    chosen = i
                    break
            pick[j] = unseen[chosen]
            w[chosen] = 0.0
            got += 1
        for j in range(4):
            trial[other, j] = pick[j] if j < got else -1
        for s in range(4):
            c = hands[player, s]
            if c < 0 or count + card_value(c) > MAX_COUNT:
                continue
            for j in range(4):
                trial[player, j] = hands[player, j]
            work_state[0], work_state[1], work_state[2] = n, count, player
            work_seq[:n] = seq[:n]
            pts, _ = lay(trial, player, s, work_seq, work_state, scratch)
            nxt = work_state[2]
            if nxt < 0:
                value = float(pts)
            elif nxt == player:
                value = pts + negamax(trial, work_seq, work_state, scratch)
            else:
                value = pts - negamax(trial, work_seq, work_state, scratch)
            totals[s] += value
    best, best_slot = -1e18, only
    for s in range(4):
        c = hands[player, s]
        if c >= 0 and count + card_value(c) <= MAX_COUNT and totals[s] > best + 1e-9:
            best, best_slot = totals[s], s
    return best_slot


# --- whole deals ---------------------------------------------------------------------------


@njit
def choose_slot(
    policy: int,
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weight: np.ndarray,
    gone_above: int,
    samples: int,
    rng: np.ndarray,
) -> int:
    if policy == GREEDY:
        return greedy_slot(hands, player, seq, state)
    if policy == LOOKAHEAD:
        return lookahead_slot(hands, player, seq, state, seen, rank_weight, gone_above)
    return search_slot(hands, player, seq, state, seen, rank_weight, gone_above, samples, rng)


@njit
def play_deal(
    pone: np.ndarray,
    dealer: np.ndarray,
    starter: int,
    policies: np.ndarray,
    rank_weights: np.ndarray,
    samples: int,
    rng: np.ndarray,
    record: np.ndarray,
) -> tuple[int, int]:
    """Play two four-card hands to the end; return (pone's points, dealer's points).

    ``policies`` (2,) and ``rank_weights`` (2, 13) are per player (0 = pone): a player's
    weights describe what its *opponent* keeps. ``record`` (8, 4) receives each laid
    card: [player, card, count after, reasons].
    """
    hands = np.empty((2, 4), np.int64)
    hands[0], hands[1] = pone, dealer
    seq = np.empty(9, np.int64)  # one spare slot for looking one card ahead
    state = np.zeros(3, np.int64)  # n_seq, count, turn (the pone leads)
    scores = np.zeros(2, np.int64)
    seen = np.zeros(52, np.bool_)  # laid cards and the starter: public
    if starter >= 0:
        seen[starter] = True
    gone_above = np.zeros(2, np.int64)  # per player: what its opponent cannot hold
    i = 0
    while state[2] >= 0:
        player = state[2]
        before = state[1]
        slot = choose_slot(
            policies[player],
            hands,
            player,
            seq,
            state,
            seen,
            rank_weights[player],
            gone_above[player],
            samples,
            rng,
        )
        card = hands[player, slot]
        seen[card] = True
        _, reasons = lay(hands, player, slot, seq, state, scores)
        record[i, 0], record[i, 1], record[i, 2], record[i, 3] = player, card, state[1], reasons
        after = before + card_value(card)
        passed = state[2] == player or state[1] == 0  # the opponent did not lay next
        if after < MAX_COUNT and passed and cards_left(hands[1 - player]) > 0:
            # the opponent said go at this count: none of its cards fits, now or later
            gone_above[player] = max(gone_above[player], MAX_COUNT - after)
        i += 1
    return scores[0], scores[1]


@njit(parallel=True)
def play_many(
    deals: np.ndarray,
    policies: np.ndarray,
    rank_weights: np.ndarray,
    samples: int,
    seed: int,
    first: int,
) -> np.ndarray:
    """(n, 2) points of the pone and the dealer for each deal (n, 9): pone's four
    cards, dealer's four, starter. Deal i draws from the stream ``first + i``."""
    n = deals.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        rng = rng_for(seed, first + i)
        record = np.empty((8, 4), np.int64)
        p, d = play_deal(
            deals[i, 0:4], deals[i, 4:8], deals[i, 8], policies, rank_weights, samples, rng, record
        )
        out[i, 0], out[i, 1] = p, d
    return out
