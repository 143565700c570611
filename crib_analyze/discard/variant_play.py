"""The play of six known cards simulated where the pegging table (the plain game's) does
not serve: loser's cribbage and a pack with jokers (``discard --lowball|--jokers N
--pegging simulated``), each the solver's play of its deals (:func:`solved_pegging`).

In lowball, for each of the 15 throws the same deals (common random numbers): the
opponent dealt six of the unseen cards at random, throwing by the lowball expert (its
policies' best response, the fewest points), a starter of the other 40, and both
players laying by the solver's lowball form, each for its fewest points (the engine of
``play --lowball``).

With jokers, for each of the 15 throws the same deals (common random numbers): the
opponent dealt six of the unseen cards of the 53- or 54-card pack at random, throwing by
the expert model of the pack with jokers (``build-game-models --jokers N``) where one
ships for the rules, else by the hand policy (the random crib's values; each five
thrown under throw fives, the fewest points in lowball); a starter of the other cards;
both players laying by the solver, a joker laid as the rank that serves its holder best
(:mod:`crib_analyze.play.table_play_kernels`, the engine of ``play --jokers``).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.cards import as_one_joker
from crib_analyze.constants import N_DISCARDS
from crib_analyze.crib.hand_kernels import KEEPS
from crib_analyze.position import Seat
from crib_analyze.rules import Rules
from crib_analyze.settings import SOLVER_DRAWS

DEAL_STREAMS = 1 << 20  # deal k's solver stream: seed * DEAL_STREAMS + k


def solved_pegging(
    dealt: np.ndarray,
    starters: np.ndarray,
    seat: Seat,
    lowball: bool,
    jokers: int,
    seed: int,
    on_deal: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(peg_own, peg_opp, peg_se) (T,) each: ``dealt`` (deals, T, 2, 4) by seat, each
    deal's T throws played to the end by the solver (its lowball form, each player for
    its fewest points, under ``lowball``; ``jokers`` the pack's) from ``starters``
    (deals,): the points ``seat`` and its opponent peg, and the standard error of their
    difference. Deal k's draws come from the stream ``seed * DEAL_STREAMS + k``;
    ``on_deal(k + 1)`` after it."""
    from crib_analyze.play import table_play_kernels as tk

    deals, throws = dealt.shape[0], dealt.shape[1]
    hands = dealt.reshape(deals * throws, 2, 4)
    starts = np.repeat(starters, throws)
    code = (tk.LOWBALL_CODES if lowball else tk.POLICY_CODES)["solver"]
    policies = np.array([[code, code]], np.int64)
    teams = np.array([0, 1], np.int64)
    by_deal = np.empty((deals, throws, 2), np.int64)
    for k in range(deals):  # a call a deal, its own stream: Ctrl-C heard between them
        interrupts.check()
        rows = slice(k * throws, (k + 1) * throws)
        by_deal[k] = tk.play_tables(
            hands[rows], starts[rows], policies, teams, False, SOLVER_DRAWS.default,
            seed * DEAL_STREAMS + k, jokers,
        )[0]  # fmt: skip
        if on_deal is not None:
            on_deal(k + 1)
    own, opp = by_deal[:, :, seat], by_deal[:, :, seat.other]
    diff = (own - opp).astype(np.float64)
    return own.mean(axis=0), opp.mean(axis=0), diff.std(axis=0, ddof=1) / np.sqrt(deals)


def opponent_tables(rules: Rules) -> tuple[np.ndarray, np.ndarray, str]:
    """(one, two, words): the per-seat crib tables the opponent throws by under
    ``rules`` (:func:`~crib_analyze.discard.any_game.seat_tables`): the expert model of
    the pack with jokers where one ships (a made one is not: a default never depends on
    the data dir), else the hand policy's."""
    from crib_analyze.artifacts.game_models import game_model
    from crib_analyze.discard.any_game import seat_tables

    expert = game_model(rules, made=False) is not None
    one, two = seat_tables(rules, "expert" if expert else "hand")
    words = f"the expert model of the pack with {rules.jokers} joker(s)"
    return one, two, words if expert else "the hand policy"


def shuffled_opponents(
    hand6: np.ndarray, deals: int, pack: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    """(the opponent's six (deals, 6), starters (deals,)): each deal's six of the
    ``pack`` cards (52 and the jokers) not in ``hand6`` at random, the starter the next
    card of the same shuffle."""
    rng = np.random.default_rng(seed)
    unseen = np.setdiff1d(np.arange(pack, dtype=np.int64), hand6)
    order = np.argsort(rng.random((deals, unseen.size)), axis=1)
    return unseen[order[:, :6]], unseen[order[:, 6]]


def throws_dealt(hand6: np.ndarray, seat: Seat, kept: np.ndarray) -> np.ndarray:
    """(deals, 15, 2, 4) by seat: each throw's kept four of ``hand6`` in ``seat``, the
    opponent's ``kept`` (deals, 4) in the other."""
    dealt = np.empty((kept.shape[0], N_DISCARDS, 2, 4), np.int64)
    dealt[:, :, seat] = hand6[KEEPS][None, :, :]
    dealt[:, :, seat.other] = kept[:, None, :]
    return dealt


def joker_deals(
    hand6: np.ndarray, seat: Seat, deals: int, rules: Rules, seed: int = 0
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hands (deals, 15, 2, 4) by seat, starters (deals,), the opponent's six (deals,
    6)): each deal's opponent dealt six of the cards of the pack of ``rules.jokers``
    jokers not in ``hand6``, keeping what :func:`opponent_tables`' rule keeps from its
    seat (its fives thrown under throw fives, the fewest points in lowball), with each
    throw's kept four of ``hand6`` in ``seat``; the starter one of the other cards."""
    from crib_analyze.crib.any_game_kernels import hand_policy_split

    one, two, _ = opponent_tables(rules)
    opponents, starters = shuffled_opponents(hand6, deals, 52 + rules.jokers, seed)
    theirs = seat.other
    sign = 1 if theirs == Seat.DEALER else -1  # the crib is the dealer's
    aim = -1 if rules.lowball else 1
    kept = np.empty((deals, 4), np.int64)
    for k in range(deals):
        held = np.ascontiguousarray(opponents[k])
        keep_mask, _, _ = hand_policy_split(
            held, 4, 2, 0, sign, one[theirs], two[theirs], aim, rules.throw_fives, rules.jokers
        )
        kept[k] = held[[i for i in range(6) if keep_mask >> i & 1]]
    return throws_dealt(hand6, seat, kept), starters, opponents


def joker_hand_pegging(
    hand6: np.ndarray,
    seat: Seat,
    deals: int,
    rules: Rules,
    seed: int = 0,
    on_deal: Callable[[int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`solved_pegging` of :func:`joker_deals`: the points the holder of ``hand6``
    (card ids, a joker 52 or 53) in ``seat`` and its opponent peg in the play of each
    throw's kept four, and the standard error of their difference."""
    dealt, starters, _ = joker_deals(hand6, seat, deals, rules, seed)
    # two jokers held are one card: throws that differ only in which goes where are
    # played once (the same values; 11 throws played of 15)
    keys = np.array([as_one_joker(kept) for kept in hand6[KEEPS]])
    _, first, again = np.unique(keys, axis=0, return_index=True, return_inverse=True)
    order = np.argsort(first)  # each distinct throw at its first place, in order
    place = np.empty_like(order)
    place[order] = np.arange(order.size)
    own, opp, se = solved_pegging(
        dealt[:, first[order]], starters, seat, rules.lowball, rules.jokers, seed, on_deal
    )
    rows = place[again.reshape(-1)]
    return own[rows], opp[rows], se[rows]


def lowball_deals(
    hand6: np.ndarray,
    seat: Seat,
    deals: int,
    model: ExpertModel,
    seed: int = 0,
    throw_fives: bool = False,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hands (deals, 15, 2, 4) by seat, starters (deals,), the opponent's six (deals,
    6)): each deal's opponent dealt six of the unseen cards, keeping what the lowball
    ``model``'s best response keeps from its seat, with each throw's kept four of
    ``hand6`` in ``seat``; the starter one of the other 40. Under ``throw_fives`` the
    opponent throws its fives (``model`` the expert of both variants)."""
    from crib_analyze.discard.engine import policy_throws

    opponents, starters = shuffled_opponents(hand6, deals, 52, seed)
    thrown = policy_throws(opponents, "expert", model, throw_fives, lowball=True)[:, seat.other]
    kept = np.take_along_axis(opponents, KEEPS[thrown], axis=1)  # (deals, 4)
    return throws_dealt(hand6, seat, kept), starters, opponents
