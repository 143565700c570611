"""The show with jokers: parse ``JK`` among the cards, count each joker at its best
(:mod:`crib_analyze.scoring.joker_kernels`), and announce the show as counted.

A pack of 53 or 54 cards holds one or two jokers, written ``JK`` (twice for two). A
joker counts as any card, chosen to make the most points, and may repeat a card
already in play, so five of a kind (40 points with fives: 20 for the ten pairs, 20 for
the ten fifteens) can be shown. A joker cut as the starter gives the dealer 2 for heels,
and each hand counts it at its own best.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from crib_analyze.cards import CardLike, CardsLike, parse_card, split_tokens
from crib_analyze.errors import CardError
from crib_analyze.scoring.show import Show, show_of
from crib_analyze.settings import JOKERS

JOKER_TOKEN = "JK"
MAX_JOKERS = JOKERS.hi


def parse_with_jokers(cards: CardsLike, jokers: int) -> list[int]:
    """Card ids, each ``JK`` a joker (52, then 53): at most ``jokers`` of them, and no
    other card twice."""
    if not 0 <= jokers <= MAX_JOKERS:
        raise CardError(f"a pack has 0 to {MAX_JOKERS} jokers, not {jokers}")
    out: list[int] = []
    seen: set[int] = set()
    wild = 0
    for token in split_tokens(cards):
        if isinstance(token, str) and token.strip().upper() == JOKER_TOKEN:
            if wild >= jokers:
                raise CardError(
                    f"more jokers than the pack holds ({jokers}): give --jokers {wild + 1}"
                    if wild < MAX_JOKERS
                    else f"a pack has at most {MAX_JOKERS} jokers"
                )
            out.append(52 + wild)
            wild += 1
            continue
        card = parse_card(token)
        if card in seen:
            raise CardError(f"duplicate card {token!r}")
        seen.add(card)
        out.append(card)
    return out


def count_with_jokers(
    cards: CardsLike, starter: CardLike | None, crib: bool, jokers: int, size: int = 4
) -> Show:
    """Four cards and the starter (or five, the starter last), jokers at their best
    (the show's ``wild`` says which card each joker was); ``size`` 3: a hand of the old
    five-card game, three cards and the starter.

    >>> count_with_jokers("5H 5D JK", "5C", False, 1, size=3).total  # four fives
    20
    """
    from crib_analyze.scoring import joker_kernels as jk

    tokens = split_tokens(cards) + ([] if starter is None else [starter])
    parsed = parse_with_jokers(tokens, jokers)  # together: a cut joker is the second one
    if len(parsed) != size + 1:
        words = "four" if size == 4 else "three"
        raise CardError(f"expected {words} cards and the starter, got {len(parsed)} cards")
    plain = [c for c in parsed if c < 52]
    if len(set(plain)) != len(plain):
        raise CardError("duplicate card: the starter is in the hand")
    if size == 4:
        _, a, b = jk.best_joker_show(np.array(parsed, np.int64), crib)
    else:  # a few cards: every card each joker may be, as the kernel tries them
        a, b = _best_assignment(parsed, crib)
    counted = list(parsed)
    wild = []
    for i, c in enumerate(parsed):
        if c >= 52:
            counted[i] = int(a if c == 52 else b)
            wild.append((i, counted[i]))
    show = show_of(counted[:size], counted[size], crib)
    return replace(show, wild=tuple(wild), starter_is_joker=parsed[size] >= 52)


def _best_assignment(parsed: list[int], crib: bool) -> tuple[int, int]:
    """(first joker's card, second's; -1 where none) that make the show of ``parsed``
    (the hand, the starter last) score most; ties: the first in card order, as
    :func:`~crib_analyze.scoring.joker_kernels.best_joker_show` breaks them."""
    where = [i for i, c in enumerate(parsed) if c >= 52]
    best, pick = -1, (-1, -1)
    choices = [range(52) if k < len(where) else range(-1, 0) for k in range(2)]
    for a in choices[0]:
        for b in choices[1]:
            cards = list(parsed)
            for i, card in zip(where, (a, b), strict=False):
                cards[i] = card
            points = show_of(cards[:-1], cards[-1], crib).total
            if points > best:
                best, pick = points, (a, b)
    return pick
