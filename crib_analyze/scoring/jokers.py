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


def count_with_jokers(cards: CardsLike, starter: CardLike | None, crib: bool, jokers: int) -> Show:
    """Four cards and the starter (or five, the starter last), jokers at their best
    (the show's ``wild`` says which card each joker was)."""
    from crib_analyze.scoring import joker_kernels as jk

    tokens = split_tokens(cards) + ([] if starter is None else [starter])
    parsed = parse_with_jokers(tokens, jokers)  # together: a cut joker is the second one
    if len(parsed) != 5:
        raise CardError(f"expected four cards and the starter, got {len(parsed)} cards")
    plain = [c for c in parsed if c < 52]
    if len(set(plain)) != len(plain):
        raise CardError("duplicate card: the starter is in the hand")
    five = np.array(parsed, np.int64)
    _, a, b = jk.best_joker_show(five, crib)
    counted = list(parsed)
    wild = []
    for i, c in enumerate(parsed):
        if c >= 52:
            counted[i] = int(a if c == 52 else b)
            wild.append((i, counted[i]))
    show = show_of(counted[:4], counted[4], crib)
    return replace(show, wild=tuple(wild), starter_is_joker=parsed[4] >= 52)
