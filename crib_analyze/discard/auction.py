"""The auction variant: after the deal the players bid points for the crib; the winner
takes its bid off its own score at once and owns the crib, and the other pays nothing.
What should you bid, with these six cards?

**In points.** Owning the crib is worth ``owner`` (your best total as its owner: hand,
your crib, heels, your pegging as the player who lays second); not owning it,
``other`` (hand less the opponent's crib, your pegging as the one who leads). Winning
at a bid ``b`` leaves you ``owner - b``; letting the opponent win at ``b`` leaves you
``other + b`` (it is the opponent who pays). The break-even bid is where the two meet:
half the difference, ``(owner - other) / 2``. **From a score** (mine, theirs), it is
the largest whole bid ``b`` for which owning the crib from ``mine - b`` wins at least
as often as the opponent owning it from ``theirs - b`` (each side's best throw, valued
from the score as ``discard --score`` does, on the same simulated deals). A bid cannot
exceed the bidder's score.

Conventions where the rules leave details open: the crib's owner plays the dealer's
part in the play (the other player leads), and the opponent model is the usual
expert's for each part.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from crib_analyze.results import Rows

MAX_BID = 60  # points: far above what any crib is worth


@dataclass(frozen=True)
class AuctionValue:
    """The best throw owning the crib and not owning it, the crib's worth in points,
    and, from a score, the break-even bid and the chances of winning it rests on."""

    owner: dict[str, Any]  # the best row of the dealer's ranking
    other: dict[str, Any]  # the best row of the pone's ranking
    worth: float  # owner total - other total (points): what owning it is worth
    score: tuple[int, int] | None = None
    bid: int | None = None  # the break-even bid from the score
    p_other: dict[int, float] = field(default_factory=dict)  # bid -> P(win), they won at it
    p_owner: dict[int, float] = field(default_factory=dict)  # bid -> P(win), you won at it

    @property
    def break_even(self) -> float:
        """The bid in points at which winning the crib and letting it go are worth the
        same: half what owning it is worth (the winner pays, the other does not)."""
        return self.worth / 2


def auction_value(
    rank: Callable[[str, tuple[int, int] | None], Rows],
    score: tuple[int, int] | None = None,
) -> AuctionValue:
    """The crib's worth: ``rank(role, score)`` ranks the hand's throws for a role
    (from a score, or by points with None), best first, with a ``total`` column (or
    ``net`` when the play is not counted)."""
    owner = next(rank("dealer", None).records())
    other = next(rank("pone", None).records())
    column = "total" if "total" in owner else "net"  # "net" without the play
    worth = float(owner[column] - other[column])
    if score is None:
        return AuctionValue(owner, other, worth)
    mine, theirs = score
    p_owner: dict[int, float] = {}
    p_other: dict[int, float] = {}

    def gains(bid: int) -> bool:
        """Owning the crib at this bid wins at least as often as letting it go at it."""
        if bid not in p_owner:
            p_owner[bid] = float(rank("dealer", (mine - bid, theirs))["p_win"].max())
            p_other[bid] = float(rank("pone", (mine, theirs - bid))["p_win"].max())
        return p_owner[bid] >= p_other[bid]

    lo, hi = 0, min(mine, theirs, MAX_BID)
    if not gains(0):
        bid = 0
    elif gains(hi):
        bid = hi
    else:  # gains(lo) and not gains(hi): owning loses, and not owning gains, as bids grow
        while hi - lo > 1:
            mid = (lo + hi) // 2
            if gains(mid):
                lo = mid
            else:
                hi = mid
        bid = lo
    gains(bid)
    return AuctionValue(
        owner, other, worth, score, bid, dict(sorted(p_other.items())),
        dict(sorted(p_owner.items())),
    )  # fmt: skip
