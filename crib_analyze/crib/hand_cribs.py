"""The crib of each throw of one hand against random other cards, exact: the discard
tables' class kernels (:mod:`crib_analyze.crib.joker_class_kernels`) on one hand, of
any size and any game, from a pack with or without jokers, the other seats obeying
throw fives where the rules play it (each completion of the crib at its chance,
:func:`~crib_analyze.crib.throw_fives_rule.seat_fives_weights`).
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np

from crib_analyze.crib import joker_class_kernels as jc
from crib_analyze.crib.throw_fives_rule import seat_fives_weights
from crib_analyze.rules import CRIB_SIZE, FIVE_RANK, Rules
from crib_analyze.scoring.show_kernels import rank_table


@cache
def joker_rank_tables() -> tuple[np.ndarray, np.ndarray]:
    """The (free, gain) tables of :func:`~crib_analyze.crib.joker_class_kernels.joker_rank_tables`,
    once a process (one hand's cribs and every table's)."""
    return jc.joker_rank_tables(rank_table())


def random_cribs(
    rules: Rules, seat: int, cards: np.ndarray, throws: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(crib mean (T,), P(crib 0) (T,)) of each throw (``throws`` (T, 0, 1 or 2):
    positions in ``cards``, the hand of ``seat``; jokers ids 52 and 53) when the crib's
    other cards are random unseen cards (the other seats obeying throw fives under
    ``rules``), exact, each joker at its best. A seat that throws nothing (five's
    dealer) has the four others' crib, every set and starter scored card by card (a
    second or so, more with jokers: one call, whatever it keeps).

    >>> from crib_analyze.rules import game
    >>> hand = np.array([16, 17, 0, 4, 8, 12])  # 5C 5D AC 2C 3C 4C
    >>> mean, zero = random_cribs(game(), 0, hand, np.array([[0, 1], [2, 3]]))
    >>> zero[0], bool(zero[1] > 0)  # a pair of fives never scores nothing
    (np.float64(0.0), True)
    >>> fives, _ = random_cribs(game(throw_fives=True), 0, hand, np.array([[0, 1]]))
    >>> bool(fives[0] > mean[0])  # the opponent throws its fives in too
    True
    """
    hand = np.array(cards, np.int64)
    throws = np.array(throws, np.int64)
    if rules.throw_fives:
        weights, completions = seat_fives_weights(rules, seat), 1
    else:
        unseen = 52 + rules.jokers - len(hand)
        others = CRIB_SIZE - throws.shape[1]
        weights, completions = jc.EVERY_COMPLETION, comb(unseen, others) * (unseen - others)
    if throws.shape[1] == 0:  # nothing thrown (five's dealer): four others, card by card
        from crib_analyze.scoring.joker_kernels import weighted_joker_nothing_thrown

        held_fives = int(np.count_nonzero((hand < 52) & (hand >> 2 == FIVE_RANK)))
        total, nothing = weighted_joker_nothing_thrown(hand, rules.jokers, weights[held_fives])
        every = np.ones(len(throws))
        return every * total / completions, every * nothing / completions
    free, gain = joker_rank_tables()
    ranks = jc.multiset_crib_sums(free, gain, hand[None, :], throws, rules.jokers, weights)
    mean = jc.hand_cribs(gain, hand, ranks[0], rules.jokers, throws, weights)
    zero = jc.joker_crib_zeros(rank_table(), hand[None, :], throws, weights)[0]
    return mean / completions, zero / completions
