"""The pegging table: what a kept hand pegs, and what its opponent pegs, by seat.

The table has a cell per kept rank multiset (1,820) and seat of the keeper: the mean
points the keeper and the opponent peg over simulated deals, both playing the table's
policy, with the standard error of their difference. It ships with the package and its
provenance; :mod:`crib_analyze.play.pegging_values` builds it (``crib-analyze
build-pegging``) and values one hand's throws with their real cards.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations_with_replacement
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze.cards import RANKS
from crib_analyze.crib.one_hand import KEEPS
from crib_analyze.position import Seat
from crib_analyze.settings import PACKAGED_PEGGING, packaged
from crib_analyze.storage import checked
from crib_analyze.storage.npz import blake2b, read_npz, write_npz
from crib_analyze.storage.raw import keep_fast_form, read_fast_form

PEGGING_FORMAT = 1
DISTRIBUTIONS_FORMAT = 1
MAX_PEGGED = 64  # points a player can peg in one deal are fewer (generous bound)


@cache
def kept_multisets() -> np.ndarray:
    """(1820, 4) every four-rank multiset a hand can keep, sorted, in lexicographic order."""
    arr = np.array(list(combinations_with_replacement(range(13), 4)), dtype=np.int64)
    arr.setflags(write=False)
    return arr


def keep_text(ranks: np.ndarray) -> str:
    """Four ranks as text, e.g. '5 5 6 6'."""
    return " ".join(RANKS[int(r)] for r in ranks)


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class PeggingTable:
    """Per (keeper's seat, kept multiset): mean points pegged by the keeper and by its
    opponent, and the standard error of the difference; the seat axis is :class:`Seat`."""

    peg_own: np.ndarray  # (2, 1820)
    peg_opp: np.ndarray  # (2, 1820)
    peg_se: np.ndarray  # (2, 1820)
    provenance: dict[str, Any] = field(default_factory=dict)
    #: (2, 1820, PEG_BINS, PEG_BINS) the build's deals of each cell by the points the
    #: keeper pegged (row) and the opponent (column); saved beside the table, in
    #: :func:`distributions_path`, and read by :func:`load_distributions`
    peg_hist: np.ndarray | None = field(default=None, compare=False, repr=False)

    def fingerprint(self) -> str:
        """A short digest of the values (tables made with them carry it)."""
        h = blake2b(digest_size=8)
        for arr in (self.peg_own, self.peg_opp, self.peg_se):
            h.update(np.ascontiguousarray(arr).tobytes())
        return h.hexdigest()

    def index(self, ranks: np.ndarray | list[int]) -> int:
        """Row of a kept multiset (four ranks in any order)."""
        return int(rows_of(np.asarray(ranks)))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the table to ``path`` and, if it has them, its distributions beside it."""
        arrays = {"peg_own": self.peg_own, "peg_opp": self.peg_opp, "peg_se": self.peg_se}
        provenance = self.provenance | {"fingerprint": self.fingerprint()}
        beside = distributions_path(path)
        if self.peg_hist is not None:
            counts = {"peg_hist": np.asarray(self.peg_hist, np.int32)}
            of = {"table": self.fingerprint(), "made_by": self.provenance.get("made_by")}
            write_npz(beside, DISTRIBUTIONS_FORMAT, of, counts)
        elif os.path.exists(beside):  # another table's: it would no longer match
            os.unlink(beside)
        write_npz(path, PEGGING_FORMAT, provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> PeggingTable:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> PeggingTable:
            shape = (2, len(kept_multisets()))
            parts = [np.asarray(arrays[k], np.float64) for k in ("peg_own", "peg_opp", "peg_se")]
            if any(p.shape != shape or not np.isfinite(p).all() for p in parts):
                raise ValueError("arrays of the wrong shape")
            own, opp, se = parts
            if (own < 0).any() or (opp < 0).any() or max(own.max(), opp.max()) > MAX_PEGGED:
                raise ValueError(f"points pegged outside [0, {MAX_PEGGED}] a deal")
            if (se < 0).any() or se.max() > MAX_PEGGED:
                raise ValueError("standard errors outside their range")
            table = cls(own, opp, se, provenance=provenance)
            if provenance.get("fingerprint", table.fingerprint()) != table.fingerprint():
                raise ValueError("its values do not match its fingerprint")
            return table

        return read_npz(source, "the pegging table", PEGGING_FORMAT, parse)


def distributions_path(path: str | os.PathLike[str]) -> str:
    """Where a table file's distributions are: ``x.npz`` -> ``x_distributions.npz``."""
    root, ext = os.path.splitext(os.fspath(path))
    return f"{root}_distributions{ext or '.npz'}"


@cache
def keep_rows() -> np.ndarray:
    """Row of each kept multiset, indexed by its sorted ranks read in base 13."""
    ms = kept_multisets()
    lookup = np.full(13**4, -1, np.int64)
    lookup[((ms[:, 0] * 13 + ms[:, 1]) * 13 + ms[:, 2]) * 13 + ms[:, 3]] = np.arange(len(ms))
    return lookup


def rows_of(ranks: np.ndarray) -> np.ndarray:
    """Rows of kept multisets: ``ranks`` (..., 4), each four in any order."""
    kept = np.sort(np.asarray(ranks, np.int64), axis=-1)
    return keep_rows()[((kept[..., 0] * 13 + kept[..., 1]) * 13 + kept[..., 2]) * 13 + kept[..., 3]]  # type: ignore[no-any-return]


def hands_pegging(table: PeggingTable, hands6: np.ndarray) -> dict[str, np.ndarray]:
    """Per role ("dealer", "pone"): (n, 15) pegging net (own - opponent's) of the keeps
    of each six-card hand in ``hands6`` (n, 6), discards in ``DISCARDS`` order."""
    rows = rows_of(np.asarray(hands6, np.int64)[:, KEEPS] >> 2)  # (n, 15)
    net = table.peg_own - table.peg_opp  # (seat, 1820)
    return {seat.role: net[seat][rows] for seat in Seat}


PEGGING_FAST_FORM = 1  # the fast form's layout
_TABLE_ARRAYS = ("peg_own", "peg_opp", "peg_se")


@cache
def packaged_pegging_table() -> PeggingTable:
    """The pegging table shipped with the package: from its fast form in the cache
    folder (:func:`~crib_analyze.storage.raw.read_fast_form`) when one is kept, else
    read from its file and kept in that form."""
    path = Path(str(packaged(PACKAGED_PEGGING)))
    code = (__file__,)  # an edit to this reader makes the fast form again
    found = read_fast_form(path, "pegging_table", PEGGING_FAST_FORM, frozenset(_TABLE_ARRAYS), code)
    if found is not None:
        meta, arrays, where = found
        checked.note(
            f"the pegging table ({path})",
            f"its fast form in the cache ({where.name}): CRC-32 matched, made from the "
            "file when its digest matched",
        )
        own, opp, se = (np.array(arrays[k]) for k in _TABLE_ARRAYS)  # writable, as read
        return PeggingTable(own, opp, se, provenance=dict(meta["provenance"]))
    with path.open("rb") as fh:
        table = PeggingTable.load(fh)
    arrays = {k: getattr(table, k) for k in _TABLE_ARRAYS}
    keep_fast_form(
        path, "pegging_table", PEGGING_FAST_FORM, {"provenance": table.provenance}, arrays, code
    )
    return table


def load_distributions(source: str | os.PathLike[str] | Any, table: PeggingTable) -> np.ndarray:
    """The (2, 1820, bins, bins) deal counts of ``table``'s build (its distributions
    file); ModelError if the file is damaged, of another table, or its counts do not
    give the table's means."""

    def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> np.ndarray:
        hist = np.asarray(arrays["peg_hist"])
        if hist.ndim != 4 or hist.shape[:2] != table.peg_own.shape or (hist < 0).any():
            raise ValueError("counts of the wrong shape")
        if provenance.get("table") != table.fingerprint():
            raise ValueError("they belong to another pegging table")
        deals = hist.sum(axis=(2, 3))
        if (deals < 2).any():
            raise ValueError("a cell without deals")
        points = np.arange(hist.shape[2])
        own = np.einsum("scij,i->sc", hist, points) / deals
        if not np.allclose(own, table.peg_own, atol=0.05):  # only the cap at 31 moves them
            raise ValueError("they do not give the table's means")
        return hist

    return read_npz(source, "the pegging distributions", DISTRIBUTIONS_FORMAT, parse)


@cache
def packaged_distributions() -> np.ndarray | None:
    """The packaged pegging table's distributions, or None if none are shipped with it."""
    source = packaged(distributions_path(PACKAGED_PEGGING))
    if not source.is_file():
        return None
    with source.open("rb") as fh:
        return load_distributions(fh, packaged_pegging_table())
