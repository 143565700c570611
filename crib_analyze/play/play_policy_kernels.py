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
  each candidate card is laid and the rest of the deal played out by both players with
  the lookahead policy (each seeing only its own cards); the card with the best mean
  pegging differential wins (a Monte Carlo rollout: one step of policy improvement
  over the lookahead, with common random numbers across the candidates).

Random draws come from a per-deal stream (:mod:`crib_analyze.rng_kernels`), so a seed
gives the same deals however many threads run them.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.jit import njit
from crib_analyze.play.rules_kernels import (
    card_value,
    cards_left,
    lay,
    lay_points,
    reply_points,
)
from crib_analyze.rng_kernels import rng_for, rng_uniform
from crib_analyze.rules import MAX_COUNT

GREEDY, LOOKAHEAD, SEARCH = 0, 1, 2  # codes: the order of settings.PLAY_POLICIES


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
def unseen_by_rank(
    hands: np.ndarray, player: int, seen: np.ndarray, gone_above: int, left: np.ndarray
) -> np.ndarray:
    """Fill ``left`` (13,): cards of each rank the player cannot see and the opponent
    may still hold (after its go at count c, none of value <= 31 - c: ``gone_above``)."""
    left[:] = 4
    for c in range(52):
        if seen[c]:
            left[c >> 2] -= 1
    for c in hands[player]:
        if c >= 0:
            left[c >> 2] -= 1
    for r in range(13):
        if (r + 1 if r < 10 else 10) <= gone_above:
            left[r] = 0
    return left


@njit
def expected_best_reply(
    seq: np.ndarray,
    n: int,
    count: int,
    left: np.ndarray,
    rank_weight: np.ndarray,
    k: int,
    pts: np.ndarray,
    none: np.ndarray,
    scratch: np.ndarray,
) -> float:
    """E[the opponent's best reply points] when it holds ``k`` cards among ``left``
    (unseen cards per rank), each card of rank r held with probability
    min(1, k w_r / sum_r' left_r' w_r'), independently. ``pts`` (13, int) and ``none``
    (13, float) receive each rank's reply and the chance of holding none of it;
    ``scratch`` (13, int) is scratch space."""
    if k <= 0:
        return 0.0
    total = 0.0
    for r in range(13):
        total += left[r] * rank_weight[r]
    if total <= 0.0:
        return 0.0
    reply_points(seq, n, count, pts, scratch)
    none[:] = 1.0  # P(the opponent holds no card of rank r)
    for r in range(13):
        if left[r] == 0:
            pts[r] = 0
        elif pts[r] > 0:
            p = min(1.0, k * rank_weight[r] / total)
            none[r] = (1.0 - p) ** left[r]
    # E[max] = sum over levels v >= 1 of P(max >= v)
    expected = 0.0
    for level in range(1, 13):
        miss = 1.0
        for r in range(13):
            if pts[r] >= level:
                miss *= none[r]
        if miss == 1.0:
            break
        expected += 1.0 - miss
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
    work: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """The card with the most points now minus the opponent's expected best reply.
    ``work`` (26+, int) and ``fwork`` (13+, float) are scratch space."""
    n, count = state[0], state[1]
    left = unseen_by_rank(hands, player, seen, gone_above, work[0:13])
    pts, none, scratch = work[13:26], fwork[0:13], work[26:39]
    k = cards_left(hands[1 - player])
    best, best_slot = -1e9, -1
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        after = count + card_value(c)
        seq[n] = c >> 2
        now, _ = lay_points(seq, n + 1, after)
        value = now - expected_best_reply(
            seq, n + 1, after, left, rank_weight, k, pts, none, scratch
        )
        if value > best + 1e-12:
            best, best_slot = value, s
    return best_slot


@njit
def advance(
    hands: np.ndarray,
    player: int,
    slot: int,
    seq: np.ndarray,
    state: np.ndarray,
    scores: np.ndarray,
    seen: np.ndarray,
    gone_above: np.ndarray,
) -> tuple[int, int]:
    """Lay a card as :func:`~crib_analyze.play.rules_kernels.lay` does, and update what
    the players know: the card is seen, and a go by the opponent tells the player that
    none of the opponent's cards fits under 31 at that count (true for the rest of the
    deal, since its cards do not change)."""
    card = hands[player, slot]
    after = state[1] + card_value(card)
    seen[card] = True
    pts, reasons = lay(hands, player, slot, seq, state, scores)
    passed = state[2] == player or state[1] == 0  # the opponent did not lay next
    if after < MAX_COUNT and passed and cards_left(hands[1 - player]) > 0:
        gone_above[player] = max(gone_above[player], MAX_COUNT - after)
    return pts, reasons


@njit
def draw_opponent(
    hands: np.ndarray,
    player: int,
    seen: np.ndarray,
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    k: int,
    rng: np.ndarray,
    pick: np.ndarray,
) -> None:
    """Fill ``pick`` (4,) with ``k`` cards for the opponent, the rest -1: a draw without
    replacement from the cards the player cannot see, card c weighted by the player's
    prior ``rank_weights[player, rank]``, none the opponent's goes rule out."""
    pool = unseen_cards(hands, player, seen)
    w = np.empty(pool.shape[0], np.float64)
    for i in range(pool.shape[0]):
        fits = card_value(pool[i]) > gone_above[player]
        w[i] = rank_weights[player, pool[i] >> 2] if fits else 0.0
    pick[:] = -1
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
        pick[j] = pool[chosen]
        w[chosen] = 0.0


@njit
def simple_slot(
    policy: int | np.int64,
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """The greedy or the lookahead choice (the policies a rollout plays)."""
    if policy == GREEDY:
        return greedy_slot(hands, player, seq, state)
    return lookahead_slot(
        hands, player, seq, state, seen, rank_weights[player], gone_above[player], work, fwork
    )


@njit
def rollout(
    hands: np.ndarray,
    player: int,
    slot: int,
    opponent: np.ndarray,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    policy: int | np.int64,
    work: np.ndarray,
    fwork: np.ndarray,
) -> float:
    """The player's pegging differential for the rest of the deal when it lays
    ``slot`` now, the opponent holds ``opponent`` and both then play ``policy`` (greedy
    or lookahead). The position arrays are copied, not changed."""
    trial = hands.copy()
    trial[1 - player, :] = opponent
    t_seq, t_state, t_seen, t_gone = seq.copy(), state.copy(), seen.copy(), gone_above.copy()
    scores = np.zeros(2, np.int64)
    advance(trial, player, slot, t_seq, t_state, scores, t_seen, t_gone)
    while t_state[2] >= 0:
        p = t_state[2]
        s = simple_slot(policy, trial, p, t_seq, t_state, t_seen, rank_weights, t_gone, work, fwork)
        advance(trial, p, s, t_seq, t_state, scores, t_seen, t_gone)
    return float(scores[player] - scores[1 - player])


@njit
def search_slot(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    samples: int,
    rng: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """The card with the best mean pegging differential over ``samples`` rollouts: the
    opponent's cards drawn as for the lookahead (weighted, consistent with its goes),
    the candidate laid, the rest of the deal played by both with the lookahead policy,
    each knowing only what it can see. Every candidate meets the same draws."""
    count = state[1]
    legal = 0
    only = -1
    for s in range(4):
        c = hands[player, s]
        if c >= 0 and count + card_value(c) <= MAX_COUNT:
            legal += 1
            only = s
    if legal == 1:
        return only
    k = cards_left(hands[1 - player])
    totals = np.zeros(4, np.float64)
    pick = np.empty(4, np.int64)
    for _ in range(samples):
        draw_opponent(hands, player, seen, rank_weights, gone_above, k, rng, pick)
        for s in range(4):
            c = hands[player, s]
            if c >= 0 and count + card_value(c) <= MAX_COUNT:
                totals[s] += rollout(
                    hands, player, s, pick, seq, state, seen, rank_weights, gone_above,
                    np.int64(LOOKAHEAD), work, fwork,
                )  # fmt: skip
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
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    samples: int,
    rng: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
) -> int:
    if policy == GREEDY:
        return greedy_slot(hands, player, seq, state)
    if policy == LOOKAHEAD:
        return lookahead_slot(
            hands, player, seq, state, seen, rank_weights[player], gone_above[player],
            work, fwork,
        )  # fmt: skip
    return search_slot(
        hands, player, seq, state, seen, rank_weights, gone_above, samples, rng, work, fwork
    )


@njit
def new_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch space for :func:`play_deal`: (int64 (64,), float64 (16,), bool (52,)),
    made once and reused, so a deal allocates nothing."""
    return np.zeros(64, np.int64), np.zeros(16, np.float64), np.zeros(52, np.bool_)


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
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
) -> tuple[int, int]:
    """Play two four-card hands to the end; return (pone's points, dealer's points).

    ``policies`` (2,) and ``rank_weights`` (2, 13) are per player (0 = pone): a player's
    weights describe what its *opponent* keeps. ``record`` (8, 5) receives each laid
    card: [player, card, count after, reasons, points (the go or last card included)].
    ``work``, ``fwork`` and ``seen`` come from :func:`new_workspace`.
    """
    hands = work[0:8].reshape((2, 4))
    hands[0], hands[1] = pone, dealer
    seq = work[8:17]  # one spare slot for looking one card ahead
    state = work[17:20]  # n_seq, count, turn (the pone leads)
    state[:] = 0
    scores = work[20:22]
    scores[:] = 0
    gone_above = work[22:24]  # per player: what its opponent cannot hold
    gone_above[:] = 0
    scratch = work[24:64]
    seen[:] = False  # laid cards and the starter: public
    if starter >= 0:
        seen[starter] = True
    i = 0
    while state[2] >= 0:
        player = state[2]
        slot = choose_slot(
            policies[player], hands, player, seq, state, seen, rank_weights, gone_above,
            samples, rng, scratch, fwork,
        )  # fmt: skip
        card = hands[player, slot]
        points, reasons = advance(hands, player, slot, seq, state, scores, seen, gone_above)
        record[i, 0], record[i, 1], record[i, 2] = player, card, state[1]
        record[i, 3], record[i, 4] = reasons, points
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
        record = np.empty((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        p, d = play_deal(
            deals[i, 0:4], deals[i, 4:8], deals[i, 8], policies, rank_weights, samples, rng,
            record, work, fwork, seen,
        )  # fmt: skip
        out[i, 0], out[i, 1] = p, d
    return out


@njit(parallel=True)
def candidate_values(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    rank_weights: np.ndarray,
    gone_above: np.ndarray,
    policy: int,
    samples: int,
    seed: int,
    opponent_cards: int,
) -> np.ndarray:
    """(samples, 4) the player's pegging differential for the rest of the play after
    laying the card in each slot (NaN for slots it cannot lay), for ``samples`` draws of
    the opponent's ``opponent_cards`` cards (weighted by its kept-rank prior and
    consistent with its goes); both then play ``policy`` (the search's own rollouts
    play the lookahead). Draw i is shared by every slot (common random numbers) and
    comes from stream i of ``seed``."""
    out = np.full((samples, 4), np.nan)
    count = state[1]
    then = LOOKAHEAD if policy == SEARCH else policy
    for i in prange(samples):
        rng = rng_for(seed, i)
        pick = np.empty(4, np.int64)
        draw_opponent(hands, player, seen, rank_weights, gone_above, opponent_cards, rng, pick)
        work, fwork, _ = new_workspace()
        for s in range(4):
            c = hands[player, s]
            if c >= 0 and count + card_value(c) <= MAX_COUNT:
                out[i, s] = rollout(
                    hands, player, s, pick, seq, state, seen, rank_weights, gone_above,
                    then, work[24:64], fwork,
                )  # fmt: skip
    return out
