"""What a table lookup was read from, typed, and its words: the file, the hand's class,
how the file was made, and each role's verdict (made from the rows read).

>>> meta = LookupMeta(role="dealer", path="t.parquet", hand_id=7, opponent="random",
...                   version="0.5.0")
>>> meta.source
'from t.parquet (hand 7, random opponent, made by crib-analyze 0.5.0)'
"""

from __future__ import annotations

from dataclasses import dataclass, field

from crib_analyze.results import ResultMeta


def unchecked_words(unverified: str) -> str:
    """The words of a table read with ``trust_unverified``: what it lacked."""
    return f"read unchecked (--trust-unverified): the table {unverified}"


@dataclass(frozen=True, kw_only=True)
class LookupMeta(ResultMeta):
    """A hand's rows read from a discard table: the role they are ranked for (None:
    both), the hand's class (``hand_id``), the ranking ``value`` (total or net), each
    role's ``verdicts``, the file (``path``, ``version``, ``opponent``, ``coverage``,
    ``unverified``) and its whole provenance (``file``); ``notes`` say when it was read
    unchecked."""

    role: str | None = None
    hand_id: int = 0
    value: str = "net"
    verdicts: dict[str, str] = field(default_factory=dict)
    path: str = ""
    version: str = "?"
    opponent: str = "?"
    coverage: str | None = None
    unverified: str | None = None
    variants: tuple[str, ...] = ()  # those the table ranks by ("lowball", "penalty zero")

    @property
    def source(self) -> str:
        """Where the rows were read, in words."""
        ranked = "".join(f", {v}" for v in self.variants)
        return (
            f"from {self.path} (hand {self.hand_id:,}, {self.opponent} opponent{ranked}, "
            f"made by crib-analyze {self.version})"
        )


@dataclass(frozen=True, kw_only=True)
class CribTableMeta(ResultMeta):
    """The crib value of each thrown rank pair: for which role, under which opponent
    model, from which table (``source``: "packaged" or a path), what part of every hand
    it covers; ``notes`` say when it was read unchecked."""

    role: str = "?"
    opponent: str = "random"
    source: str = "packaged"
    coverage: str | None = None
    unverified: str | None = None
    variants: tuple[str, ...] = ()  # those the table ranks by ("lowball", "penalty zero")

    @property
    def heading(self) -> str:
        """What the table holds, in words."""
        origin = "the table shipped with crib-analyze" if self.source == "packaged" else self.source
        ranked = "".join(f"; {v}" for v in self.variants)
        return (
            f"crib value of the discards a {self.role} chooses ({self.opponent} opponent "
            f"model{ranked}; {origin})"
        )
