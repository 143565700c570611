"""What a seat's splits in another game were ranked by, typed, and its words
(:class:`GameThrowsMeta`; the standard game's discard is :mod:`crib_analyze.discard.meta`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta


@dataclass(frozen=True, kw_only=True)
class GameThrowsMeta(ResultMeta):
    """A seat's splits in another game: the game, the seat, whose the crib is (and the
    sign it counts with), how the other seats' throws were made (``samples`` 0: as
    random cards, exactly); ``notes`` the variants in play (their rules' words).

    >>> GameThrowsMeta(game="three", seat="left", crib="an opponent's", crib_sign=-1).assumed
    "three, as left: the crib is an opponent's (-); the other seats' throws as random cards (exact)"
    """

    game: str = "standard"
    seat: str = ""
    crib: str = "yours"
    crib_sign: int = 1
    lowball: bool = False
    throw_fives: bool = False  # the other seats obey throw fives
    samples: int = 0
    others: str = "random"  # the other seats' throws: "expert", "hand" or "random"
    score: tuple[int, ...] = ()  # ranked by the chance of winning from each side's, yours first
    need: int | None = None  # the points asked for (``p_need``)
    to_the_end: bool = False  # with a score: each game played out to its end (no board)
    pegging: str | None = None  # how the play was counted (None: not counted)
    # by split (its ``discard`` name: the cards thrown, "/ passed"): the starters with
    # which its kept hand is the best of the splits' ("best"), and reaches ``need``
    starters: dict[str, dict[str, str]] = field(default_factory=dict)

    @property
    def model(self) -> str:
        """How the other seats' throws were made, in words."""
        at = "-".join(str(s) for s in self.score)
        if self.score and self.to_the_end:
            return (
                f"from {at} (your side first), by the chance of "
                f"winning: {self.samples:,} games played out to the end from this deal "
                "(the others' throws by the game's model, or the hand policy where it has "
                "none; everyone's play by the lookahead; no board holds these rules)"
            )
        if self.score:
            return (
                f"from {at} (your side first), by the chance of "
                f"winning: {self.samples:,} deals played out (the others' throws by the "
                "game's expert model, the lookahead's play), then the game's board"
            )
        if not self.samples:
            obeying = " that obey throw fives" if self.throw_fives else ""
            return f"the other seats' throws as random cards{obeying} (exact)"
        by = "the game's expert model" if self.others == "expert" else "the hand policy"
        return f"the other seats' throws by {by} ({self.samples:,} deals sampled)"

    @property
    def assumed(self) -> str:
        """One line: the game, the seat, whose the crib is, the other seats' throws."""
        sign = "+" if self.crib_sign > 0 else "-"
        said = f"{self.game}, as {self.seat}: the crib is {self.crib} ({sign}); {self.model}"
        return said + (f"; {self.pegging}" if self.pegging else "")
