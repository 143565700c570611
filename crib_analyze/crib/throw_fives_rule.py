"""The throw fives rule on six-card hands: which throws it allows (every five held goes
to the crib, as many as the two slots take), and the value that marks a throw it
forbids so that no best response chooses it.

>>> import numpy as np
>>> legal_throws_of(np.array([[16, 17, 0, 4, 8, 12]])).sum()  # 5C 5D and four more
np.int64(1)
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb
from typing import TYPE_CHECKING

import numpy as np

from crib_analyze.constants import CRIB_SIZE, FIVE_RANK
from crib_analyze.crib.hand_kernels import DISCARDS

if TYPE_CHECKING:
    from crib_analyze.rules import Rules

FORBIDDEN = -1e9  # the value of a throw the rules forbid: never a best response


def legal_throws_of(cards: np.ndarray, throws: np.ndarray = DISCARDS) -> np.ndarray:
    """(n, T) the throws the throw fives rule allows each hand (``throws`` (T, k): the
    positions each throw takes; a six-card hand's fifteen unless given): as many fives
    as the k slots take (every five when there are fewer)."""
    fives = (cards >> 2) == FIVE_RANK
    thrown = fives[:, throws].sum(axis=2)
    legal: np.ndarray = thrown == np.minimum(fives.sum(axis=1), throws.shape[1])[:, None]
    return legal


# --- the crib's other cards when every other seat obeys the rule ------------------------


def other_cards_weights(
    unseen: int, fives: int, seats: Sequence[tuple[int, int]], deck: int
) -> np.ndarray:
    """(K + 1, 2): the chance of one particular set of the crib's K other cards that holds
    j fives (row j) with one particular starter, a five (column 1) or not (column 0),
    when every other seat is dealt from the ``unseen`` cards (``fives`` of them fives),
    each seat (dealt, thrown) of ``seats`` throws at random among the throws the rule
    allows it, ``deck`` cards go from the pack to the crib and the starter is cut from
    the rest (K: the seats' throws and the pack's cards).

    Every five is alike to the rule, and so is every other card: the chance of a set
    and a starter depends only on how many fives they hold. So it is the chance of that
    pattern (the fives each seat is dealt, hypergeometric; the fives it throws, as many
    as its throw takes; the pack's cards and the starter from what is left) over the
    sets and starters that have it.

    >>> w = other_cards_weights(46, 4, [(6, 2)], 0)  # the standard game's opponent
    >>> from math import comb
    >>> float(round(sum(w[j, s] * comb(4, j) * comb(42, 2 - j) * (4 - j if s else 40 + j)
    ...                 for j in range(3) for s in range(2)), 12))
    1.0
    """
    plain = unseen - fives
    # the chance of each (fives thrown, fives left, cards left) once the seats are dealt
    states: dict[tuple[int, int, int], float] = {(0, fives, unseen): 1.0}
    for dealt, thrown in seats:
        after: dict[tuple[int, int, int], float] = {}
        for (j, f, n), p in states.items():
            for a in range(min(f, dealt) + 1):
                q = comb(f, a) * comb(n - f, dealt - a) / comb(n, dealt)
                if q:
                    key = (j + min(a, thrown), f - a, n - dealt)
                    after[key] = after.get(key, 0.0) + p * q
        states = after
    others = sum(thrown for _, thrown in seats) + deck
    chance = np.zeros((others + 1, 2))
    for (j, f, n), p in states.items():
        for g in range(min(f, deck) + 1):  # the pack's fives, then the starter
            q = p * comb(f, g) * comb(n - f, deck - g) / comb(n, deck)
            left, left_fives = n - deck, f - g
            chance[j + g, 1] += q * left_fives / left
            chance[j + g, 0] += q * (left - left_fives) / left
    out = np.zeros_like(chance)
    for j in range(others + 1):
        sets = comb(fives, j) * comb(plain, others - j)
        for s, starters in ((1, fives - j), (0, plain - (others - j))):
            if sets * starters:
                out[j, s] = chance[j, s] / (sets * starters)
    return out


def seat_fives_weights(rules: Rules, seat: int) -> np.ndarray:
    """(5, 5, 2): :func:`other_cards_weights` of ``seat`` in ``rules`` (its jokers in the
    pack, none of them a five) when it holds 0-4 fives (the first index), the rows past
    its K others zero. The other seats dealt cards throw by the rule; a seat dealt none
    (a partner passed cards) holds none of the unseen.

    >>> from crib_analyze.rules import game
    >>> w = seat_fives_weights(game("five-card"), 0)
    >>> w.shape, bool(w[4].any()), bool(w[4, 0, 0] > 0)  # holding every five: none unseen
    ((5, 5, 2), True, True)
    """
    seats = [
        (rules.dealt[s], rules.thrown[s])
        for s in range(rules.players)
        if s != seat and rules.dealt[s]
    ]  # fmt: skip
    unseen = 52 + rules.jokers - rules.dealt[seat]
    others = CRIB_SIZE - rules.thrown[seat]  # the crib's cards but the seat's own
    out = np.zeros((5, CRIB_SIZE + 1, 2))  # a seat throwing nothing: four others
    for held in range(5):
        out[held, : others + 1] = other_cards_weights(unseen, 4 - held, seats, rules.crib_from_deck)
    return out
