"""What one discard-table run computes, and how it is cut into chunks and shards.

The 962,988 hand classes (:mod:`crib_analyze.crib.hand_classes`) are split into chunks of
``CHUNK_CLASSES``; a shard ``I/N`` is the I-th of N contiguous runs of chunks. The
run's fingerprint (version, format, opponent model and its digest, classes, chunk
size) must match for chunks and shards to be combined.

>>> spec = TableSpec(limit=25_000)
>>> spec.n_chunks, spec.chunk_range(2)
(3, (20000, 25000))
>>> shard_chunks(TableSpec(), parse_shard("2/2"))[:2]
[49, 50]
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from crib_analyze.crib.hand_classes import N_CLASSES
from crib_analyze.errors import UsageError
from crib_analyze.settings import PENALTIES, TABLE_OPPONENTS, __version__, check_choice

TABLE_FORMAT = 3  # 2: heels is dealer_heels; 3: pegging columns
CHUNK_CLASSES = 10_000
N_ROWS_FULL = N_CLASSES * 15


@dataclass(frozen=True)
class TableSpec:
    """A run: the opponent model (with the expert model's fingerprint), how many
    classes (all by default, or the first ``limit``: a sample of the table) and the
    variants it ranks by: ``penalty`` (a show of nothing costs; the chances of a zero
    become columns), ``lowball`` (the fewest points is best; the play not counted) and
    ``throw_fives`` (every five held thrown: a ``legal`` column, the best among the
    legal throws, the opponent obeying the rule; the play not counted)."""

    opponent: str = "random"
    limit: int | None = None
    model_fingerprint: str | None = None
    pegging_fingerprint: str | None = None  # the pegging table the totals use
    penalty: str = "none"
    lowball: bool = False
    throw_fives: bool = False  # only the throws the rule allows are ranked; the play not counted

    def __post_init__(self) -> None:
        check_choice("opponent model for the table", self.opponent, TABLE_OPPONENTS)
        check_choice("penalty", self.penalty, PENALTIES)
        if self.limit is not None and self.limit < 1:
            raise UsageError(f"limit must be at least 1, got {self.limit}")
        if (self.opponent == "expert") != (self.model_fingerprint is not None):
            raise UsageError("an expert table needs the model's fingerprint (and only it does)")

    @property
    def n_classes(self) -> int:
        return N_CLASSES if self.limit is None else min(self.limit, N_CLASSES)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_classes // CHUNK_CLASSES)

    def chunk_range(self, k: int) -> tuple[int, int]:
        lo = k * CHUNK_CLASSES
        return lo, min(lo + CHUNK_CLASSES, self.n_classes)

    def fingerprint(self) -> dict[str, Any]:
        """What must match for chunks and shards to be combined."""
        out: dict[str, Any] = {
            "version": __version__,
            "format": TABLE_FORMAT,
            "opponent": self.opponent,
            "classes": self.n_classes,
            "chunk_classes": CHUNK_CLASSES,
        }
        if self.model_fingerprint is not None:
            out["model"] = self.model_fingerprint
        if self.pegging_fingerprint is not None:
            out["pegging"] = self.pegging_fingerprint
        if self.penalty != "none":  # absent from the plain table's, as before the variants
            out["penalty"] = self.penalty
        if self.lowball:
            out["lowball"] = True
        if self.throw_fives:
            out["throw_fives"] = True
        return out


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` -> (I, N) with 1 <= I <= N."""
    try:
        i_text, n_text = text.split("/")
        i, n = int(i_text), int(n_text)
    except ValueError:
        raise UsageError(f"shard must look like I/N (e.g. 1/4), got {text!r}") from None
    if not 1 <= i <= n:
        raise UsageError(f"shard {text!r} out of range: need 1 <= I <= N")
    return i, n


def shard_chunks(spec: TableSpec, shard: tuple[int, int] | None) -> list[int]:
    """The chunk indices of shard I of N (contiguous, disjoint, covering all)."""
    chunks = np.arange(spec.n_chunks)
    if shard is None:
        return [int(k) for k in chunks]
    i, n = shard
    if n > spec.n_chunks:
        raise UsageError(f"{n} shards but only {spec.n_chunks} chunk(s) to share")
    return [int(k) for k in np.array_split(chunks, n)[i - 1]]
