"""Results as named columns: the one shape every command's output is rendered from.

A :class:`Rows` is a set of equal-length numpy columns, in order, with ``attrs`` saying
what they were made from. Engines return them without pandas (quick to start); the
public API wraps them in DataFrames (:mod:`crib_analyze.frames`); the command line
renders them as a readable table, CSV or JSON (:mod:`crib_analyze.render.common`).

>>> rows = Rows({"card": np.array(["5H", "JC"], dtype=object), "points": np.array([2, 0])})
>>> len(rows), list(rows.records())[1]
(2, {'card': 'JC', 'points': 0})
"""

from __future__ import annotations

from collections.abc import Hashable, Iterator
from dataclasses import dataclass, field, fields, replace
from typing import Any, Protocol, TypeVar

import numpy as np


@dataclass(frozen=True, kw_only=True)
class ResultMeta:
    """What a result was made from, typed, and its words made on the engine side from
    the numbers: ``verdict`` the answer first, ``notes`` what a reader should know
    (e.g. the variants in play). Each result kind has its own subclass."""

    verdict: str = ""
    notes: tuple[str, ...] = ()

    def as_attrs(self) -> dict[str, Any]:
        """The fields as a plain dict (a DataFrame's ``attrs``)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass
class Rows:
    """Named columns of equal length (numpy arrays) and what they were made from:
    ``meta`` typed (for the kinds that have it), ``attrs`` the same as a plain dict."""

    columns: dict[str, np.ndarray]
    attrs: dict[str, Any] = field(default_factory=dict)
    meta: ResultMeta | None = None

    def __post_init__(self) -> None:
        if self.meta is not None:  # one source: the dict mirrors the typed fields
            self.attrs = self.attrs | self.meta.as_attrs()

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0

    def __repr__(self) -> str:
        """One line: how many rows, which columns."""
        names = list(self.columns)
        shown = ", ".join(names[:6]) + (f", ... ({len(names)} columns)" if len(names) > 6 else "")
        return f"Rows({len(self)} rows: {shown})"

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def take(self, index: np.ndarray | list[int]) -> Rows:
        """These rows, in this order (attrs kept)."""
        idx = np.asarray(index, dtype=np.int64)
        return Rows({k: v[idx] for k, v in self.columns.items()}, dict(self.attrs), self.meta)

    def records(self) -> Iterator[dict[str, Any]]:
        """Each row as a dict of plain Python values."""
        names = list(self.columns)
        lists = [self.columns[n].tolist() for n in names]
        for values in zip(*lists, strict=True):
            yield dict(zip(names, values, strict=True))

    def with_verdict(self, said: str) -> Rows:
        """The same rows with their verdict (the answer first, in words) in ``attrs``
        and on their typed metadata."""
        meta = None if self.meta is None else replace(self.meta, verdict=said)
        return Rows(self.columns, self.attrs | {"verdict": said}, meta)

    def with_notes(self, *notes: str) -> Rows:
        """The same rows with ``notes`` added to their metadata's (none: unchanged)."""
        if not notes or self.meta is None:
            return self
        meta = replace(self.meta, notes=(*self.meta.notes, *notes))
        return Rows(self.columns, self.attrs | {"notes": meta.notes}, meta)

    def with_first(self, name: str, value: object) -> Rows:
        """The same rows with a constant column ``name`` first (e.g. the hand)."""
        column = np.full(len(self), value, dtype=object)
        return Rows({name: column} | self.columns, dict(self.attrs), self.meta)

    @classmethod
    def of_records(
        cls,
        records: list[dict[str, Any]],
        attrs: dict[str, Any] | None = None,
        meta: ResultMeta | None = None,
    ) -> Rows:
        """Rows from a list of records with the same keys (text as object columns)."""
        if not records:
            return cls({}, dict(attrs or {}), meta)
        names = list(records[0])
        columns = {}
        for n in names:
            values = [r[n] for r in records]
            kind = object if any(isinstance(v, str) or v is None for v in values) else None
            columns[n] = np.array(values, dtype=kind)
        return cls(columns, dict(attrs or {}), meta)


def rows_of_frame(frame: Any) -> Rows:
    """The columns of a pandas DataFrame as :class:`Rows` (missing text becomes None),
    with its ``attrs``; pandas itself is not imported here."""
    columns: dict[str, np.ndarray] = {}
    for name in frame.columns:
        series = frame[name]
        if series.dtype == object or str(series.dtype) in ("string", "category", "str"):
            values = [None if v is None or v != v or str(v) == "<NA>" else v for v in series]
            columns[str(name)] = np.array(values, dtype=object)
        else:
            columns[str(name)] = series.to_numpy()
    attrs = dict(frame.attrs)
    meta = attrs.pop("meta", None)
    return Rows(columns, attrs, meta if isinstance(meta, ResultMeta) else None)


def concat_rows(parts: list[Rows]) -> Rows:
    """Rows one after another (same columns; the attrs of the first)."""
    if not parts:
        return Rows({})
    names = list(parts[0].columns)
    return Rows(
        {n: np.concatenate([p.columns[n] for p in parts]) for n in names},
        dict(parts[0].attrs),
        parts[0].meta,
    )


class HasAttrs(Protocol):
    """A table with ``attrs`` (a pandas DataFrame; pandas itself is not imported here)."""

    @property
    def attrs(self) -> dict[Hashable, Any]: ...


FrameT = TypeVar("FrameT", bound=HasAttrs)


def with_verdict(frame: FrameT, said: str) -> FrameT:
    """``frame`` with its verdict (the answer first, in words) in ``attrs["verdict"]``
    and on its typed metadata."""
    frame.attrs["verdict"] = said
    meta = frame.attrs.get("meta")
    if isinstance(meta, ResultMeta):
        frame.attrs["meta"] = replace(meta, verdict=said)
    return frame


def with_meta(frame: FrameT, meta: ResultMeta) -> FrameT:
    """``frame`` with its typed metadata: ``attrs["meta"]``, and each field in ``attrs``
    as well (for pandas users who read them by name)."""
    frame.attrs.update(meta.as_attrs())
    frame.attrs["meta"] = meta
    return frame
