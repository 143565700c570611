"""What the chances of winning from a score were made from, typed, and their words:
the standard game's board table (its provenance), or another game's simulated games.

>>> OddsMeta(game="three", method="simulation", games=2000, seed=1,
...          play_policy="lookahead").assumed.split("; ")[1]
'2,000 games simulated to the end (seed 1, lookahead play, throws by the expert model)'
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from crib_analyze.results import ResultMeta


@dataclass(frozen=True, kw_only=True)
class OddsMeta(ResultMeta):
    """The chances of winning from a score: ``method`` "board table" (the standard
    game; ``board`` the table's provenance) or "simulation" (``games`` games of
    ``game`` from ``seed``, every seat laying by ``play_policy``); ``notes`` the variants
    in play, in their rules' words."""

    game: str = "standard"
    method: str = "board table"
    board: dict[str, Any] = field(default_factory=dict)
    games: int = 0
    seed: int = 0
    play_policy: str = ""
    lowball: bool = False
    target: int = 121
    throws: str = "the expert model"
    scoring: str | None = None  # two sides' match points (None: three sides or more)
    continuation: bool = False  # three or more players: the others play on for second place

    @property
    def assumed(self) -> str:
        """How the chances were made, in words."""
        if self.method == "board table":
            deals = self.board.get("deals")
            made = f"{deals:,} simulated deals" if isinstance(deals, int) else "simulated deals"
            policy = self.board.get("policy") or self.board.get("play_policy", "?")
            if self.game != "standard" or self.board.get("variants"):
                thrower = {"hand": "the hand policy"}.get(self.board.get("throws", ""))
                first = (
                    ", made on its first use"
                    if "first use" in self.board.get("made_by", "")
                    else ""
                )
                return (
                    f"{self.game}: the dealer about to deal; its board{first}: {made} (throws "
                    f"by {thrower or 'the expert model'}, {policy} play)"
                )
            return f"board table: {made} (expert throws, {policy} play)"
        return (
            f"{self.game}: the dealer about to deal; {self.games:,} games simulated to the end "
            f"(seed {self.seed}, {self.play_policy} play, throws by {self.throws})"
        )
