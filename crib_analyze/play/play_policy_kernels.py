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
* ``RULEBOT``: a baseline of rules a club player is taught: take the most points now;
  else stay off counts of 5 and 21 (a ten makes 15 or 31) and off run invitations (a
  card one or two ranks from the last), and lay the highest such card, keeping low
  cards for the end of the count.
* ``SOLVER``: reads the opponent (:mod:`crib_analyze.play.inference_kernels`: its
  throw, its lays, its go's) and, for each hand it may hold, solves the rest of the
  play exactly with both hands known (:mod:`crib_analyze.play.solver_kernels`); lays
  the card with the best mean over those hands, weighted by how likely each is. Every
  live hand is solved when there are at most ``hands`` of them (the reader's budget),
  else ``hands`` are drawn by systematic resampling.

The *reader* (:class:`crib_analyze.play.inference_kernels.Reader`, a named tuple)
carries what the policies know of the other seat: ``rank_weights (2, 13), keeps
(1820, 4), start (2, 1821), pair (2, E), chance (2, E), params, leads``: the kept-rank
priors of the lookahead, the keeps and the inverted throw
policy of each seat (:func:`crib_analyze.play.inference_kernels.throw_likelihoods`,
indexed by the *thrower's* seat), ``params`` = [tau, hands, lead slack], and the
solver's leads (13, 1820): the rank it leads from each keep, by the starter's rank
(:func:`solver_leads`; (0, 1820) when not known).

Random draws come from a per-deal stream (:mod:`crib_analyze.rng_kernels`), so a seed
gives the same deals however many threads run them.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from crib_analyze.constants import MAX_COUNT
from crib_analyze.jit import njit
from crib_analyze.play import inference_kernels as ik
from crib_analyze.play import solver_kernels as sk
from crib_analyze.play.inference_kernels import Reader
from crib_analyze.play.reply_kernels import expected_best_reply
from crib_analyze.play.rules_kernels import (
    card_value,
    cards_left,
    lay,
    lay_points,
    rank_value,
)
from crib_analyze.rng_kernels import rng_for, rng_uniform

GREEDY, LOOKAHEAD, SEARCH, RULEBOT, SOLVER = 0, 1, 2, 3, 4  # the order of settings.PLAY_POLICIES


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
def fits(hands: np.ndarray, player: int, s: int, count: int) -> bool:
    """Whether ``player``'s card in slot ``s`` is there and can be laid at ``count``."""
    c = hands[player, s]
    return c >= 0 and count + card_value(c) <= MAX_COUNT


@njit
def legal_cards(hands: np.ndarray, player: int, count: int) -> tuple[int, int]:
    """(how many of ``player``'s cards can be laid at ``count``, the last one's slot or
    -1)."""
    legal, only = 0, -1
    for s in range(4):
        if fits(hands, player, s, count):
            legal += 1
            only = s
    return legal, only


@njit
def best_legal_slot(
    hands: np.ndarray, player: int, count: int, values: np.ndarray, tolerance: float,
    fallback: int,
) -> int:  # fmt: skip
    """The slot of the legal card with the highest ``values[s]``, the first of those
    that no later card beats by more than ``tolerance``; ``fallback`` when none fits."""
    best, best_slot = -np.inf, fallback
    for s in range(4):
        if fits(hands, player, s, count) and values[s] > best + tolerance:
            best, best_slot = values[s], s
    return best_slot


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
        if 0 <= c < 52:  # (a joker, id 52 or 53, is no rank's)
            left[c >> 2] -= 1
    for r in range(13):
        if rank_value(r) <= gone_above:
            left[r] = 0
    return left


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
    ``work`` (39+, int) and ``fwork`` (20, float) are scratch space."""
    n, count = state[0], state[1]
    left = unseen_by_rank(hands, player, seen, gone_above, work[0:13])
    pts, none, scratch = work[13:26], fwork[0:13], work[26:39]
    k = cards_left(hands[1 - player])
    values = fwork[16:20]
    for s in range(4):
        if not fits(hands, player, s, count):
            continue
        c = hands[player, s]
        after = count + card_value(c)
        seq[n] = c >> 2
        now, _ = lay_points(seq, n + 1, after)
        values[s] = now - expected_best_reply(
            seq, n + 1, after, left, rank_weight, k, pts, none, scratch
        )
    return best_legal_slot(hands, player, count, values, 1e-12, -1)


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
    """The greedy, rule bot or lookahead choice (the policies a rollout plays)."""
    if policy == GREEDY:
        return greedy_slot(hands, player, seq, state)
    if policy == RULEBOT:
        return rulebot_slot(hands, player, seq, state)
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
    for i in range(trial.shape[1]):  # element by element: a row assignment compiles
        trial[1 - player, i] = opponent[i]  # an error message (seconds of a first run)
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
    legal, only = legal_cards(hands, player, count)
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
    return best_legal_slot(hands, player, count, totals, 1e-9, only)


# --- whole deals ---------------------------------------------------------------------------


@njit
def rulebot_slot(hands: np.ndarray, player: int, seq: np.ndarray, state: np.ndarray) -> int:
    """The rule bot's card: the most points now (the first of ties); with none, the
    card with the fewest warnings (a count of 5 or 21 after it; a rank one or two from
    the last card laid, inviting a run), the highest of those."""
    n, count = state[0], state[1]
    best_pts, best_slot = 0, -1
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        seq[n] = c >> 2
        pts, _ = lay_points(seq, n + 1, count + card_value(c))
        if pts > best_pts:
            best_pts, best_slot = pts, s
    if best_slot >= 0:
        return best_slot
    best_key = -1e9
    for s in range(4):
        c = hands[player, s]
        if c < 0 or count + card_value(c) > MAX_COUNT:
            continue
        after = count + card_value(c)
        warnings = 0
        if after == 5 or after == 21:
            warnings += 1
        if n > 0 and 1 <= abs((c >> 2) - seq[n - 1]) <= 2:
            warnings += 1
        key = -10.0 * warnings + card_value(c) + 0.01 * (c >> 2)
        if key > best_key:
            best_key, best_slot = key, s
    return best_slot


@njit
def new_reading() -> tuple[
    np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray
]:
    """A deal's reading of both players, made once per deal: (weights (2, 1820) per
    reader over the other's keeps, laid (2, 13) ranks each player has laid, then
    scratch: hands (1820, 4), chance (1820,), memo, seq, values (4,) float)."""
    return (
        np.zeros((2, ik.N_KEEPS)), np.zeros((2, 13), np.int64),
        np.empty((ik.N_KEEPS, 4), np.int64), np.empty(ik.N_KEEPS),
        np.empty(sk.MEMO_SIZE, np.int64), np.zeros(sk.SEQ_SIZE, np.int64), np.empty(4),
    )  # fmt: skip


@njit
def start_reading(
    reader: Reader, p: int, hands: np.ndarray, thrown: np.ndarray, starter: int,
    weights: np.ndarray,
) -> None:  # fmt: skip
    """``weights`` (1820,): player p's prior over the other's keeps from its throw:
    p sees its own four cards, its two thrown (``thrown[2p:2p + 2]``, -1 if unknown)
    and the starter."""
    keeps, start, pair, chance = reader.keeps, reader.start, reader.pair, reader.chance
    unseen = np.full(13, 4, np.int64)
    for c in hands[p]:
        if c >= 0:
            unseen[c >> 2] -= 1
    for j in range(2):
        c = thrown[2 * p + j]
        if c >= 0:
            unseen[c >> 2] -= 1
    if starter >= 0:
        unseen[starter >> 2] -= 1
    o = 1 - p
    ik.keep_prior(unseen, keeps, start[o], pair[o], chance[o], weights)


@njit
def solver_values(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    reader: Reader,
    reading: tuple[np.ndarray, ...],
    gone_above: np.ndarray,
    rng: np.ndarray,
    budget: int,
) -> int:
    """Fill ``reading[6]`` (values, 4) with each slot's mean exact value over the hands
    the opponent may hold, weighted as the reading says; return how many hands were
    solved (0: the reading and the cards leave none). Every live hand is solved if
    there are at most ``budget``, else ``budget`` are drawn by systematic resampling."""
    n, count = state[0], state[1]
    keeps = reader.keeps
    weights, laid, cand, chance, memo, sseq, values = reading
    o = 1 - player
    values[:] = 0.0
    m = ik.hidden_hands(weights[player], keeps, laid[o], gone_above[player], cand, chance)
    if m == 0:  # the reading ruled out every hand: fall back on the cards alone
        m = ik.hidden_hands(np.ones(ik.N_KEEPS), keeps, laid[o], gone_above[player], cand, chance)
        if m == 0:
            return 0
    h = np.empty((2, 4), np.int64)
    for s in range(4):
        c = hands[player, s]
        h[player, s] = c >> 2 if c >= 0 else -1
    out = np.empty(4, np.int64)
    frames = sk.new_frames()
    draws = min(m, budget)
    u = rng_uniform(rng) / budget if m > budget else 0.0
    acc, i, w = chance[0], 0, 1.0 / budget
    for j in range(draws):
        if m <= budget:
            i, w = j, chance[j]
        else:  # systematic resampling: the hand whose cumulative chance spans u + j/budget
            while acc < u + j / budget and i < m - 1:
                i += 1
                acc += chance[i]
        for c in range(cand.shape[1]):  # element by element: a slice assignment
            h[o, c] = cand[i, c]  # compiles numba's shape error (seconds of a first run)
        for t in range(n):
            sseq[t] = seq[t]
        sk.card_values(h, player, sseq, n, count, memo, out, frames)
        for s in range(4):
            if out[s] != sk.UNSOLVED:
                values[s] += w * out[s]
    return draws


@njit
def solver_slot(
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    reader: Reader,
    reading: tuple[np.ndarray, ...],
    gone_above: np.ndarray,
    rng: np.ndarray,
) -> int:
    """The card with the best value by :func:`solver_values` (the first of ties)."""
    count = state[1]
    legal, only = legal_cards(hands, player, count)
    if legal <= 1:
        return only
    budget = int(reader.params[1])  # the solver's hands
    if solver_values(hands, player, seq, state, reader, reading, gone_above, rng, budget) == 0:
        return only
    return best_legal_slot(hands, player, count, reading[6], 1e-9, only)


@njit
def read_card(
    reader: Reader,
    reading: tuple[np.ndarray, ...],
    p: int,
    card: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    hands: np.ndarray,
    gone_above: np.ndarray,
) -> None:
    """Player p reads the other laying ``card`` now (before it is laid)."""
    rank_weights, keeps, params, leads = (
        reader.rank_weights,
        reader.keeps,
        reader.params,
        reader.leads,
    )
    weights, laid = reading[0], reading[1]
    o = 1 - p
    public = np.zeros(13, np.int64)
    for c in range(52):
        if seen[c]:
            public[c >> 2] += 1
    lead = np.zeros(0, np.int64)
    down = 0  # cards laid so far in the deal
    for r in range(13):
        down += laid[0, r] + laid[1, r]
    if o == 0 and state[0] == 0 and state[1] == 0 and leads.shape[0] > 0 and down == 0:
        for r in range(13):
            if public[r] > 0:  # the starter: the only card seen before the lead
                lead = leads[r]
    elif o == 1 and state[0] == 1 and down == 1 and reader.replies.shape[0] > 0:
        led = seq[0]  # the dealer's first card, the reply to the lead: by the replies
        for r in range(13):
            if public[r] - (r == led) > 0:  # the starter: the card seen besides the lead
                lead = reader.replies[r, led]
    ik.read_lay(
        weights[p], keeps, laid[o], card >> 2, seq, state[0], state[1], public,
        gone_above[o], cards_left(hands[p]), rank_weights[o], params[0], lead, params[2],
    )  # fmt: skip


@njit
def choose_slot(
    policy: int,
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    reader: Reader,
    gone_above: np.ndarray,
    samples: int,
    rng: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
) -> int:
    """The card ``policy`` lays (greedy, lookahead, search or the rule bot; see
    :func:`choose_slot_reading` for the solver)."""
    rank_weights = reader.rank_weights
    if policy == SEARCH:
        return search_slot(
            hands, player, seq, state, seen, rank_weights, gone_above, samples, rng, work, fwork
        )
    # the solver plays only in play_deal_reading: here it would play the lookahead
    return simple_slot(
        policy, hands, player, seq, state, seen, rank_weights, gone_above, work, fwork
    )


@njit
def choose_slot_reading(
    policy: int,
    hands: np.ndarray,
    player: int,
    seq: np.ndarray,
    state: np.ndarray,
    seen: np.ndarray,
    reader: Reader,
    gone_above: np.ndarray,
    samples: int,
    rng: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    reading: tuple[np.ndarray, ...],
) -> int:
    """The card ``policy`` lays, the solver included (kept apart from
    :func:`choose_slot` so that kernels which never read the opponent do not compile
    the solver)."""
    if policy == SOLVER:
        return solver_slot(hands, player, seq, state, reader, reading, gone_above, rng)
    return choose_slot(
        policy, hands, player, seq, state, seen, reader, gone_above, samples, rng, work, fwork
    )


@njit
def new_workspace() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Scratch space for :func:`play_deal`: (int64 (64,), float64 (20,), bool (52,)),
    made once and reused, so a deal allocates nothing."""
    return np.zeros(64, np.int64), np.zeros(20, np.float64), np.zeros(52, np.bool_)


@njit
def deal_state(
    work: np.ndarray, pone: np.ndarray, dealer: np.ndarray, starter: int, seen: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The views of ``work`` a deal is played in, set for its start: (hands (2, 4), seq,
    state [n_seq, count, turn], scores (2,), gone_above (2,), scratch)."""
    hands = work[0:8].reshape((2, 4))
    for i in range(4):  # element by element: a row assignment compiles an error message
        hands[0, i], hands[1, i] = pone[i], dealer[i]
    seq = work[8:17]  # one spare slot for looking one card ahead
    state = work[17:20]  # n_seq, count, turn (the pone leads)
    state[:] = 0
    scores = work[20:22]
    scores[:] = 0
    gone_above = work[22:24]  # per player: what its opponent cannot hold
    gone_above[:] = 0
    seen[:] = False  # laid cards and the starter: public
    if starter >= 0:
        seen[starter] = True
    return hands, seq, state, scores, gone_above, work[24:64]


@njit
def play_deal(
    pone: np.ndarray,
    dealer: np.ndarray,
    starter: int,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    rng: np.ndarray,
    record: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
) -> tuple[int, int]:
    """Play two four-card hands to the end; return (pone's points, dealer's points).

    ``policies`` (2,) are per player (0 = pone): greedy, lookahead, search or the rule
    bot (:func:`play_deal_reading` plays the solver too); ``reader`` what the policies
    know of the other seat (see the module notes). ``record`` (8, 5) receives each laid
    card: [player, card, count after, reasons, points (the go or last card included)].
    ``work``, ``fwork`` and ``seen`` come from :func:`new_workspace`.
    """
    hands, seq, state, scores, gone_above, scratch = deal_state(work, pone, dealer, starter, seen)
    i = 0
    while state[2] >= 0:
        player = state[2]
        slot = choose_slot(
            policies[player], hands, player, seq, state, seen, reader, gone_above,
            samples, rng, scratch, fwork,
        )  # fmt: skip
        card = hands[player, slot]
        points, reasons = advance(hands, player, slot, seq, state, scores, seen, gone_above)
        record[i, 0], record[i, 1], record[i, 2] = player, card, state[1]
        record[i, 3], record[i, 4] = reasons, points
        i += 1
    return scores[0], scores[1]


@njit
def play_deal_reading(
    pone: np.ndarray,
    dealer: np.ndarray,
    starter: int,
    thrown: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    rng: np.ndarray,
    record: np.ndarray,
    work: np.ndarray,
    fwork: np.ndarray,
    seen: np.ndarray,
    reading: tuple[np.ndarray, ...],
) -> tuple[int, int]:
    """:func:`play_deal` with the solver among the policies: a solver player reads the
    other from the start (``thrown`` (4,): the pone's two thrown cards and the dealer's,
    each player knowing only its own) and after each card it lays. ``reading`` comes
    from :func:`new_reading`."""
    hands, seq, state, scores, gone_above, scratch = deal_state(work, pone, dealer, starter, seen)
    reads = np.zeros(2, np.bool_)
    for p in range(2):
        if policies[p] == SOLVER:
            reads[p] = True
            start_reading(reader, p, hands, thrown, starter, reading[0][p])
    reading[1][:] = 0
    i = 0
    while state[2] >= 0:
        player = state[2]
        slot = choose_slot_reading(
            policies[player], hands, player, seq, state, seen, reader, gone_above,
            samples, rng, scratch, fwork, reading,
        )  # fmt: skip
        card = hands[player, slot]
        if reads[1 - player]:
            read_card(reader, reading, 1 - player, card, seq, state, seen, hands, gone_above)
        reading[1][player, card >> 2] += 1
        points, reasons = advance(hands, player, slot, seq, state, scores, seen, gone_above)
        record[i, 0], record[i, 1], record[i, 2] = player, card, state[1]
        record[i, 3], record[i, 4] = reasons, points
        i += 1
    return scores[0], scores[1]


@njit(parallel=True)
def play_many(
    deals: np.ndarray,
    policies: np.ndarray,
    reader: Reader,
    samples: int,
    seed: int,
    first: int,
) -> np.ndarray:
    """(n, 2) points of the pone and the dealer for each deal (n, 13): pone's four
    cards, dealer's four, starter, pone's two thrown, dealer's two. Deal i draws from
    the stream ``first + i``."""
    n = deals.shape[0]
    out = np.empty((n, 2), np.int64)
    for i in prange(n):
        rng = rng_for(seed, first + i)
        record = np.empty((8, 5), np.int64)
        work, fwork, seen = new_workspace()
        reading = new_reading()
        p, d = play_deal_reading(
            deals[i, 0:4], deals[i, 4:8], deals[i, 8], deals[i, 9:13], policies, reader,
            samples, rng, record, work, fwork, seen, reading,
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
    then = LOOKAHEAD if policy in (SEARCH, SOLVER) else policy
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


@njit(parallel=True)
def solver_leads(reader: Reader, s: int, lo: int, hi: int) -> np.ndarray:
    """(hi - lo,): the rank the solver leads as pone from each keep ``lo`` to ``hi`` (rows
    of ``reader.keeps``, at most 1,820) when the starter has rank ``s``, every live dealer
    hand solved (-1 where the keep holds all four of that rank). The keep's cards take
    the lowest suits free; the pone's own throw is left unknown (suits play no part in
    the play)."""
    keeps = reader.keeps
    out = np.full(hi - lo, -1, np.int64)
    for i in prange(hi - lo):
        k = lo + i
        hands = np.full((2, 4), -1, np.int64)
        used = np.zeros(13, np.int64)
        for j in range(4):
            r = keeps[k, j]
            hands[0, j] = 4 * r + used[r]
            used[r] += 1
        if used[s] >= 4:
            continue
        reading = new_reading()
        start_reading(reader, 0, hands, np.full(4, -1, np.int64), 4 * s + used[s], reading[0][0])
        seq = np.zeros(9, np.int64)
        state = np.zeros(3, np.int64)
        gone = np.zeros(2, np.int64)
        slot = solver_slot(hands, 0, seq, state, reader, reading, gone, rng_for(s, k))
        out[i] = hands[0, slot] >> 2
    return out


@njit(parallel=True)
def solver_replies(reader: Reader, s: int, led: int, lo: int, hi: int) -> np.ndarray:
    """(hi - lo,): the rank the solver lays as dealer in reply to a lead of rank ``led``
    from each keep ``lo`` to ``hi`` (rows of ``reader.keeps``) when the starter has rank
    ``s``, the pone's hand read from its throw and its lead (the solver's own leads,
    when the reader has them); -1 where the keep, the starter and the lead hold more
    than four of a rank. The cards take the lowest suits free, the starter's first."""
    keeps = reader.keeps
    out = np.full(hi - lo, -1, np.int64)
    for i in prange(hi - lo):
        k = lo + i
        used = np.zeros(13, np.int64)  # each card: the lowest suit of its rank still free
        hands = np.full((2, 4), -1, np.int64)
        starter = 4 * s + used[s]
        used[s] += 1
        lead = 4 * led + used[led]
        used[led] += 1
        for j in range(4):
            r = keeps[k, j]
            hands[1, j] = 4 * r + used[r]
            used[r] += 1
        if used.max() > 4:  # more than four of a rank: no such deal
            continue
        reading = new_reading()
        start_reading(reader, 1, hands, np.full(4, -1, np.int64), starter, reading[0][1])
        seq = np.zeros(9, np.int64)
        state = np.zeros(3, np.int64)
        seen = np.zeros(52, np.bool_)
        seen[starter] = True
        gone = np.zeros(2, np.int64)
        read_card(reader, reading, 1, lead, seq, state, seen, hands, gone)
        reading[1][0, led] += 1
        seen[lead] = True
        seq[0] = led
        state[0], state[1], state[2] = 1, rank_value(led), 1
        slot = solver_slot(hands, 1, seq, state, reader, reading, gone, rng_for(13 * s + led, k))
        out[i] = hands[1, slot] >> 2
    return out
