"""Scoring one show: validating wrappers around the numba kernels.

>>> score_hand("5H 5C 5S JD", "5D")
29
>>> score_breakdown("4H 4C 5S 5D", "6C").total
24
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from crib_analyze import score_kernels as k
from crib_analyze.cards import CardLike, CardsLike, parse_show


@dataclass(frozen=True)
class Breakdown:
    """Points of one show by category."""

    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs + self.flush + self.nobs

    def as_dict(self) -> dict[str, int]:
        """Categories and total, for JSON output."""
        return asdict(self) | {"total": self.total}


def score_hand(hand4: CardsLike, starter: CardLike, crib: bool = False) -> int:
    """Total points of four cards plus the starter (hand rules, or crib rules if ``crib``)."""
    hand, card = parse_show(hand4, starter)
    return int(k.score_show(hand[0], hand[1], hand[2], hand[3], card, bool(crib)))


def score_breakdown(hand4: CardsLike, starter: CardLike, crib: bool = False) -> Breakdown:
    """Points by category (fifteens, pairs, runs, flush, nobs) and total."""
    hand, card = parse_show(hand4, starter)
    parts = k.score_components(hand[0], hand[1], hand[2], hand[3], card, bool(crib))
    return Breakdown(*(int(p) for p in parts))
