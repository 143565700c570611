"""What the crib is worth in the auction, typed, and its words (:class:`AuctionMeta`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta


@dataclass(frozen=True, kw_only=True)
class AuctionMeta(ResultMeta):
    """The auction: what owning the crib is worth (points), the break-even bid (half of
    it: the winner pays its bid, the other nothing), and from a ``score`` the break-even
    bid in chances of winning, with the chance at each bid tried (``p_owner``: you won
    the crib at it; ``p_other``: the opponent did). ``verdict`` says the bid.

    >>> AuctionMeta(worth=5.5, break_even=2.75).verdict_words.split(": ")[-1]
    'bid up to 2 (expert opponent)'
    """

    worth: float = 0.0
    break_even: float = 0.0
    score: tuple[int, int] | None = None
    bid: int | None = None
    p_owner: dict[int, float] = field(default_factory=dict)
    p_other: dict[int, float] = field(default_factory=dict)
    opponent: str = "expert"

    @property
    def verdict_words(self) -> str:
        """The crib's worth and the break-even bid in points, in words."""
        even = self.break_even or self.worth / 2
        return (
            f"owning the crib is worth {self.worth:.2f} points more than not owning it; the "
            f"winner pays its bid and the other nothing, so the break-even bid is half that, "
            f"{even:.2f} points: bid up to {int(even)} ({self.opponent} opponent)"
        )

    @property
    def score_words(self) -> str | None:
        """From a score, the break-even bid in chances of winning (None without one)."""
        if self.score is None:
            return None
        mine, theirs = self.score
        bid = self.bid or 0
        own, other = self.p_owner[bid], self.p_other[bid]
        if not bid:
            return (
                f"at {mine}-{theirs}: do not bid (owning the crib wins {own:.3f}, letting it "
                f"go {other:.3f})"
            )
        return (
            f"at {mine}-{theirs}: break-even bid {bid} (you owning the crib from "
            f"{mine - bid}-{theirs}: P(win) {own:.3f}; the opponent owning it from "
            f"{mine}-{theirs - bid}: {other:.3f})"
        )
