"""The auction variant: after the deal the players bid points for the crib, and the
winner deducts the bid from their score at once and owns the crib. What is the crib
worth to you, with these six cards?

**In points**, the crib is worth your best total as its owner (the dealer's part:
hand, your crib, heels, your pegging as the player who lays second) less your best
total as the other player (hand, less the opponent's crib, your pegging as the one who
leads): the most you can bid and still gain on average. **From a score**, the
break-even bid is the largest whole number of points ``b`` for which owning the crib
from ``mine - b`` wins at least as often as not owning it from ``mine`` (each side's
best throw, valued from the score as ``discard --score`` does, on the same simulated
deals). A bid cannot exceed your score.

Conventions where the rules leave details open: the crib's owner plays the dealer's
part in the play (the other player leads), and the opponent model is the usual
expert's for each part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import pandas as pd

MAX_BID = 60  # points: far above what any crib is worth


@dataclass(frozen=True)
class AuctionValue:
    """The best throw owning the crib and not owning it, the crib's worth in points,
    and, from a score, the break-even bid and the chances of winning it rests on."""

    owner: pd.Series  # the best row of the dealer's ranking
    other: pd.Series  # the best row of the pone's ranking
    worth: float  # owner total - other total (points)
    score: tuple[int, int] | None = None
    bid: int | None = None  # the break-even bid from the score
    p_other: float | None = None  # P(win) not owning the crib
    p_owner: dict[int, float] = field(default_factory=dict)  # bid -> P(win) owning it


def auction_value(
    rank: Callable[[str, tuple[int, int] | None], pd.DataFrame],
    score: tuple[int, int] | None = None,
) -> AuctionValue:
    """The crib's worth: ``rank(role, score)`` ranks the hand's throws for a role
    (from a score, or by points with None), best first, with a ``total`` column (or
    ``net`` when the play is not counted)."""
    owner = rank("dealer", None).iloc[0]
    other = rank("pone", None).iloc[0]
    column = "total" if "total" in owner.index else "net"  # "net" without the play
    worth = float(owner[column] - other[column])
    if score is None:
        return AuctionValue(owner, other, worth)
    mine, theirs = score
    p_other = float(rank("pone", score)["p_win"].max())
    p_owner: dict[int, float] = {}

    def owning(bid: int) -> float:
        if bid not in p_owner:
            p_owner[bid] = float(rank("dealer", (mine - bid, theirs))["p_win"].max())
        return p_owner[bid]

    lo, hi = 0, min(mine, MAX_BID)
    if owning(0) < p_other:
        bid = 0
    elif owning(hi) >= p_other:
        bid = hi
    else:  # owning(lo) >= p_other > owning(hi): the chance falls as the bid grows
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if owning(mid) >= p_other:
                lo = mid
            else:
                hi = mid
        bid = lo
    return AuctionValue(owner, other, worth, score, bid, p_other, dict(sorted(p_owner.items())))
