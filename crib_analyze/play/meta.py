"""What play advice was made from, typed, and its words (the verdict is made from the
values by :func:`crib_analyze.verdicts.play_verdict`; ``method`` says how the values
were made).

>>> meta = PlayMeta(role="pone", count=5, policy="solver", continuation="solved",
...                 weighted_by="its throw")
>>> meta.method
"solver policy: solved; the opponent's cards weighted by its throw"
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta


@dataclass(frozen=True, kw_only=True)
class PlayMeta(ResultMeta):
    """Play advice in the standard game: the role and count it was asked at, the policy
    and how its values were made, and what each card scores, leaves and invites."""

    role: str = "pone"
    count: int = 0
    samples: int = 0
    policy: str = ""
    continuation: str = ""
    weighted_by: str = ""
    reasons: dict[str, str] = field(default_factory=dict)
    score: tuple[int, int] | None = None  # yours, the opponent's: cards ranked by P(win)
    odds_method: str = ""  # how the chance of winning was made, with a score

    @property
    def method(self) -> str:
        """How the values were made, in words."""
        said = (
            f"{self.policy} policy: {self.continuation}; the opponent's cards weighted by "
            f"{self.weighted_by}"
        )
        if self.score is None:
            return said
        at = "-".join(str(v) for v in self.score)
        return f"{said}. From {at}, the chance of winning: {self.odds_method}"


@dataclass(frozen=True, kw_only=True)
class ScoredPlayMeta(ResultMeta):
    """A written play scored: each seat's points (``totals``), each side's with partners
    (``sides``), the game, and whether every card was laid; ``verdict`` says the totals.

    >>> ScoredPlayMeta(totals={"pone": 3, "dealer": 2}, complete=False).tally
    'pone 3, dealer 2 (so far: the play is not finished)'
    """

    game: str = "standard"
    totals: dict[str, int] = field(default_factory=dict)
    complete: bool = True
    sides: dict[str, int] | None = None

    @property
    def tally(self) -> str:
        """The points by seat (and side), in words."""
        line = ", ".join(f"{seat} {points}" for seat, points in self.totals.items())
        if self.sides:
            line += "; sides: " + ", ".join(f"{s} {points}" for s, points in self.sides.items())
        return line + ("" if self.complete else " (so far: the play is not finished)")


@dataclass(frozen=True, kw_only=True)
class GameAdviceMeta(ResultMeta):
    """Play advice in another game: the game, the seat and count it was asked at, the
    draws of the other seats' cards and the policy that played the rest; ``notes`` the
    variants in play (their rules' words)."""

    game: str = "standard"
    seat: str = ""
    count: int = 0
    samples: int = 0
    policy: str = ""
    lowball: bool = False
    score: tuple[int, ...] | None = None  # your side's, then the others': ranked by P(win)
    odds_method: str = ""  # how the chance of winning was made, with a score
    board: dict[str, object] = field(default_factory=dict)  # the board's provenance

    @property
    def assumed(self) -> str:
        """One line: where the advice was asked, and what was simulated."""
        said = (
            f"{self.game}, as {self.seat} at count {self.count}: the other seats' cards drawn "
            f"at random, {self.samples:,} draws shared by every card; the rest of the play "
            f"by {self.policy}"
        )
        if self.score is None:
            return said
        at = "-".join(str(v) for v in self.score)
        return f"{said}. From {at}, the chance of winning: {self.odds_method}"
