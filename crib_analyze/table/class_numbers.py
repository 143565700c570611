"""The exact numbers of the tables of one seat's split, for every kind of hand: the
standard game's six cards and fifteen throws of two, the old five-card game's ten
throws of two, the five throws of one of the games whose seats are dealt five; from the
plain pack or one with jokers.

One set of kernels serves them all (:mod:`crib_analyze.crib.joker_class_kernels`): the
crib's rank part once per multiset of ranks (and jokers), the flush and nobs in closed
form, the kept hand over its starters; integers until the end. The plain five-card
tables are these numbers with no joker in the pack (equal to the kernels they replaced,
which summed the crib's ranks hand by hand, and 2-40x faster).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from crib_analyze import interrupts
from crib_analyze.constants import FIRST_JOKER
from crib_analyze.crib import five_card_kernels as fk
from crib_analyze.crib import joker_class_kernels as jc
from crib_analyze.crib.hand_cribs import joker_rank_tables
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.rules import HEELS_POINTS, Rules
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import CALL_SECONDS


@dataclass(frozen=True)
class TableKind:
    """A kind of discard table of the games of one seat's split: the cards dealt a hand
    (``size``), each throw's
    thrown and kept positions, and the two roles a throw is valued for (the crib's
    owner first)."""

    name: str
    size: int
    throws: np.ndarray
    keeps: np.ndarray
    roles: tuple[str, str]

    @property
    def n_throws(self) -> int:
        return int(self.throws.shape[0])

    def seat_of(self, rules: Rules) -> int:
        """The first seat of ``rules`` whose choice is this kind's split (dealt ``size``,
        throwing as many as a throw here takes, passed no cards).

        >>> from crib_analyze.rules import game
        >>> KINDS["throw-one"].seat_of(game("five")), KINDS["five-card"].seat_of(game("five-card"))
        (0, 0)
        """
        return next(
            s for s in range(rules.players)
            if rules.dealt[s] == self.size and rules.thrown[s] == self.throws.shape[1]
            and not rules.passed[s]
        )  # fmt: skip


KINDS = {
    "standard": TableKind("standard", 6, DISCARDS, KEEPS, ("dealer", "pone")),
    "five-card": TableKind("five-card", 5, fk.THROWS, fk.KEEPS, ("dealer", "pone")),
    "throw-one": TableKind("throw-one", 5, fk.THROWS_ONE, fk.KEEPS_ONE, ("owner", "other")),
}


def kind_of(game: str) -> TableKind:
    """The kind of table of ``game`` (the standard game, the old five-card game, or a
    game whose seats are dealt five and throw one)."""
    return KINDS[game if game in ("standard", "five-card") else "throw-one"]


def writable(cards: np.ndarray) -> np.ndarray:
    """``cards`` as writable int64 (a copy only if needed): the kernels see one type of
    array, so they compile once (a read-only array is another type to numba)."""
    if cards.dtype == np.int64 and cards.flags.writeable:
        return cards
    return np.array(cards, np.int64)


def numerators(
    kind: TableKind, cards: np.ndarray, jokers: int, weights: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(hand (N, throws): each throw's kept show summed over the starters; crib (N,
    throws): the random crib summed over every completion, each weighing
    ``weights[h, j, s]`` (the chance of each under throw fives:
    :func:`~crib_analyze.crib.throw_fives_rule.seat_fives_weights`; unless given, 1);
    heels (N,): the jacks and jokers unseen) of each hand of ``cards`` (N,
    ``kind.size``; jokers ids 52 and 53)."""
    cards = writable(cards)
    weights = jc.EVERY_COMPLETION if weights is None else weights
    free, gain = joker_rank_tables()
    reps, which = multisets_of(cards)
    crib_ranks = jc.multiset_crib_sums(free, gain, reps, kind.throws, jokers, weights)

    def call(lo: int, k: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        rows, sets = cards[lo : lo + k], which[lo : lo + k]
        return jc.joker_numerators(
            free, gain, rows, sets, crib_ranks, jokers, kind.throws, kind.keeps, weights
        )

    parts = [call(lo, k) for lo, k in interrupts.paced(len(cards), CALL_SECONDS, step=256)]
    # each class on its own: the same numbers however the classes are cut
    hand, crib, heels = (np.concatenate([p[i] for p in parts]) for i in range(3))
    return hand, crib, heels


def multisets_of(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(one hand of each multiset of ranks and jokers (M, k), each hand's multiset (N,))."""
    symbols = np.where(cards >= FIRST_JOKER, jc.JOKER_SYMBOL, cards >> 2)
    symbols.sort(axis=1)
    key = symbols @ (jc.N_SYMBOLS ** np.arange(cards.shape[1] - 1, -1, -1))
    _, first, which = np.unique(key, return_index=True, return_inverse=True)
    return cards[first], which.astype(np.int64)


def exact_numbers(
    kind: TableKind,
    cards: np.ndarray,
    jokers: int,
    penalty: str,
    weights: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(hand mean, crib mean (N, throws), heels (N,), and with a ``penalty`` P(hand 0) and
    P(crib 0) (N, throws)) of every throw of each hand of ``cards``, from a pack with
    ``jokers`` jokers (0: the plain pack); the crib's completions equally likely, or
    with ``weights`` each of the chance given (the other seats obeying throw fives)."""
    cards = writable(cards)
    hand_num, crib_num, heels_num = numerators(kind, cards, jokers, weights)
    unseen = 52 + jokers - kind.size
    others = 4 - kind.throws.shape[1]  # the crib's cards besides the thrown
    completions = comb(unseen, others) * (unseen - others) if weights is None else 1
    hand, crib = hand_num / unseen, crib_num / completions
    heels = HEELS_POINTS * heels_num / unseen
    if penalty == "none":
        return hand, crib, heels, None, None
    zeros = [
        jc.joker_zero_counts(
            rank_table(), cards[lo : lo + k], jokers, kind.throws, kind.keeps, weights is None
        )
        for lo, k in interrupts.paced(len(cards), CALL_SECONDS, step=256)
    ]
    p_hand = np.concatenate([z[0] for z in zeros]) / unseen
    p_crib = np.concatenate([z[1] for z in zeros]) / completions
    if weights is not None:  # each real completion of nothing at its chance
        p_crib = np.concatenate([
            jc.joker_crib_zeros(rank_table(), cards[lo : lo + k], kind.throws, weights)
            for lo, k in interrupts.paced(len(cards), CALL_SECONDS, step=256)
        ])  # fmt: skip
    return hand, crib, heels, p_hand, p_crib
