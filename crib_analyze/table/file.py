"""The discard table file: its columns, the writer, merging shards, verifying a file.

:func:`generate_table` computes (or resumes, through the chunk store) the chunks of a
run and streams them into one Parquet or CSV file, one row group per chunk, written
to a temp name and renamed into place. A Parquet file carries its run's metadata
(version, opponent model, rows, created-at, ...) and a checksum of every row group's
data, which :func:`verify_table` recomputes.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.cards import format_card
from crib_analyze.crib.hand_classes import N_CLASSES, N_RAW_HANDS, hand_classes
from crib_analyze.errors import StorageError, TableError, UsageError, describe_os_error
from crib_analyze.settings import TABLE_FORMATS, check_choice
from crib_analyze.storage.atomic import atomic_open, check_output, writes_in_place
from crib_analyze.table.chunks import (
    META_KEY,
    ChunkStore,
    checksum,
    interrupt_between_chunks,
    parquet_options,
    parts_dir,
)
from crib_analyze.table.compute import compute_chunk
from crib_analyze.table.spec import N_ROWS_FULL, TableSpec, shard_chunks

TEXT_COLUMNS = ["hand", "discard", "keep"]


@dataclass(frozen=True)
class TableResult:
    """A table file written: where, how many rows, chunks computed and reused."""

    output: Path
    rows: int
    chunks_computed: int = 0
    chunks_reused: int = 0


@dataclass(frozen=True)
class TableCheck:
    """What :func:`verify_table` found in a sound table file."""

    path: Path
    rows: int
    classes: int
    weight_sum: int
    opponent: str
    sample: bool  # the first ``classes`` classes only (made with --limit), not all
    checksums: bool  # every row group's data matched its stored checksum


# --- text columns ----------------------------------------------------------------------------

_CARD_TEXT = np.array([format_card(c) for c in range(52)], dtype=object)
_PAIR_TEXT = pa.array([f"{format_card(a)} {format_card(b)}" for a, b in combinations(range(52), 2)])


def _pair_index(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Index of the card pair a < b among all 1,326 pairs in lexicographic order."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    return a64 * (103 - a64) // 2 + (b64 - a64 - 1)


def with_text_columns(table: pa.Table) -> pa.Table:
    """Add ``hand``, ``discard``, ``keep`` as dictionary-encoded text; order the columns."""
    classes = hand_classes()
    hand_id = table.column("hand_id").to_numpy()
    ids, hand_local = np.unique(hand_id, return_inverse=True)
    hand_dict = pa.array([" ".join(_CARD_TEXT[classes.cards[i]]) for i in ids])
    d1, d2 = table.column("d1").to_numpy(), table.column("d2").to_numpy()
    discard = pa.DictionaryArray.from_arrays(pa.array(_pair_index(d1, d2), pa.int32()), _PAIR_TEXT)
    keeps = np.stack([table.column(c).to_numpy() for c in ("k1", "k2", "k3", "k4")], axis=1)
    keep_codes = keeps.astype(np.int64) @ (52 ** np.arange(3, -1, -1))
    _, first, keep_local = np.unique(keep_codes, return_index=True, return_inverse=True)
    keep_dict = pa.array([" ".join(_CARD_TEXT[keeps[i]]) for i in first])
    extra = {
        "hand": pa.DictionaryArray.from_arrays(pa.array(hand_local, pa.int32()), hand_dict),
        "discard": discard,
        "keep": pa.DictionaryArray.from_arrays(pa.array(keep_local, pa.int32()), keep_dict),
    }
    return pa.table(extra | {name: table.column(name) for name in table.column_names})


def _as_plain_text(table: pa.Table) -> pa.Table:
    """Dictionary-encoded text columns decoded to plain strings (for CSV)."""
    fields = [
        pa.field(f.name, pa.string()) if pa.types.is_dictionary(f.type) else f for f in table.schema
    ]
    return table.cast(pa.schema(fields))


# --- writing ---------------------------------------------------------------------------------


def write_table_file(
    output: Path, fmt: str, tables: Iterator[pa.Table], meta: dict[str, Any]
) -> int:
    """Stream numeric chunk tables into ``output`` atomically; return the row count.

    Parquet: one row group per chunk, the run metadata and each row group's checksum
    in the file's key-value metadata. CSV: plain text, no metadata.
    """
    check_choice("table format", fmt, TABLE_FORMATS)
    rows = 0
    sums: list[str] = []
    try:
        with atomic_open(output, "wb") as fh:
            parquet: pq.ParquetWriter | None = None
            csv: pacsv.CSVWriter | None = None
            for table in tables:
                full = with_text_columns(table)
                if fmt == "csv":
                    full = _as_plain_text(full)
                    csv = csv or pacsv.CSVWriter(fh, full.schema)
                    csv.write_table(full)
                else:
                    parquet = parquet or pq.ParquetWriter(
                        fh, full.schema, **parquet_options(meta["opponent"], full.schema)
                    )
                    parquet.write_table(full, row_group_size=full.num_rows)
                    sums.append(checksum(full))
                rows += full.num_rows
            if parquet is not None:
                record = meta | {"rows": rows, "checksums": sums}
                parquet.add_key_value_metadata({META_KEY.decode(): json.dumps(record)})
                parquet.close()
            elif csv is not None:
                csv.close()
            else:
                raise TableError("nothing to write")
        if fmt == "csv":  # CSV has no room for metadata: a small file beside it
            with atomic_open(metadata_path(output), "w") as fh:
                json.dump(meta | {"rows": rows, "file_format": "csv"}, fh)
    except (OSError, pa.ArrowException) as e:
        if isinstance(e, OSError):
            reason = describe_os_error(e)
        else:
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise StorageError(f"cannot write {output}: {reason}") from None
    return rows


def _run_metadata(
    spec: TableSpec, chunks: Sequence[int], shard: tuple[int, int] | None
) -> dict[str, Any]:
    return spec.fingerprint() | {
        "chunks": list(chunks),
        "n_chunks": spec.n_chunks,
        "limit": spec.limit,
        "shard": None if shard is None else list(shard),
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def generate_table(
    output: Path,
    spec: TableSpec,
    fmt: str = "parquet",
    shard: tuple[int, int] | None = None,
    model: ExpertModel | None = None,
    restart: bool = False,
    on_chunk: Callable[[int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> TableResult:
    """Compute (or resume) the chunks of ``spec`` / ``shard`` and write ``output``.

    ``model`` is the expert model of an expert table. ``on_chunk`` is called after
    each chunk is ready (progress); ``on_warning`` gets one-line notes such as a
    damaged chunk being recomputed. The first Ctrl-C lets the running chunk finish
    (KeyboardInterrupt is raised at the next boundary; finished chunks are kept).
    """
    check_choice("table format", fmt, TABLE_FORMATS)
    if shard is not None and fmt != "parquet":
        raise UsageError("shards are written as Parquet (merge them, then choose the format)")
    _check_target(output)
    store = ChunkStore(parts_dir(output), spec)
    if restart:
        store.remove()
    chunks = shard_chunks(spec, shard)
    computed = reused = 0

    def compute(k: int) -> pa.Table:
        columns = compute_chunk(spec, k, model)
        return pa.table({name: pa.array(values) for name, values in columns.items()})

    with interrupt_between_chunks() as stop_requested:
        store.create()
        for k in chunks:
            if stop_requested():
                raise KeyboardInterrupt
            if store.ensure(k, compute, on_warning):
                reused += 1
            else:
                computed += 1
            if on_chunk:
                on_chunk(k)
        if stop_requested():
            raise KeyboardInterrupt
        meta = _run_metadata(spec, chunks, shard)
        rows = write_table_file(output, fmt, (store.read(k) for k in chunks), meta)
    store.remove()
    return TableResult(output, rows, computed, reused)


# --- reading, merging, verifying -------------------------------------------------------------


def metadata_path(table: Path) -> Path:
    """Where a CSV table's metadata is kept: ``NAME.csv.meta.json`` beside it."""
    return table.with_name(table.name + ".meta.json")


def read_table_metadata(path: Path) -> dict[str, Any]:
    """A table file's metadata, Parquet or CSV (from its ``.meta.json``; {} if none)."""
    if path.suffix.lower() != ".csv":
        return read_file_metadata(path)
    try:
        meta = json.loads(metadata_path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def read_file_metadata(path: Path) -> dict[str, Any]:
    """The crib-analyze metadata of a table Parquet file."""
    try:
        kv = pq.read_metadata(path).metadata or {}
        meta = json.loads(kv[META_KEY])
        if not isinstance(meta, dict):
            raise ValueError("metadata is not a record")
        return meta
    except (OSError, KeyError, ValueError, TypeError, pa.ArrowException) as e:
        raise TableError(f"{path} is not a crib-analyze table file ({_reason(e)})") from None


def merge_tables(inputs: Sequence[Path], output: Path, fmt: str = "parquet") -> TableResult:
    """Join shard files into one table file; they must be one run's disjoint, complete slices."""
    if not inputs:
        raise UsageError("no shard files given")
    check_choice("table format", fmt, TABLE_FORMATS)
    _check_target(output)
    metas = [read_file_metadata(p) for p in inputs]
    keys = (
        "version", "format", "opponent", "model", "pegging", "classes", "chunk_classes",
        "n_chunks",
    )  # fmt: skip
    first = {k: metas[0].get(k) for k in keys}
    for path, meta in zip(inputs, metas, strict=True):
        other = {k: meta.get(k) for k in keys}
        if other != first:
            raise TableError(f"{path} is from another run ({other} vs {first})")
    owner: dict[int, tuple[Path, int]] = {}
    for path, meta in zip(inputs, metas, strict=True):
        for group, k in enumerate(meta.get("chunks") or []):
            if k in owner:
                raise TableError(f"chunk {k} is in both {owner[k][0]} and {path}")
            owner[k] = (path, group)
    n_chunks = int(first["n_chunks"] or 0)
    missing = sorted(set(range(n_chunks)) - owner.keys())
    if missing:
        raise TableError(
            f"shards are incomplete: {len(missing)} chunk(s) missing, first {missing[0]}"
        )

    def numeric_chunks() -> Iterator[pa.Table]:
        files: dict[Path, pq.ParquetFile] = {}
        for k in range(n_chunks):
            path, group = owner[k]
            try:
                files.setdefault(path, pq.ParquetFile(path))
                table = files[path].read_row_group(group)
            except (OSError, pa.ArrowException) as e:
                raise TableError(f"damaged shard {path}: {_reason(e)}") from None
            sums = metas[inputs.index(path)].get("checksums")
            if sums is not None and checksum(table.replace_schema_metadata(None)) != sums[group]:
                raise TableError(
                    f"damaged shard {path}: row group {group} does not match its checksum"
                )
            yield table.drop_columns(TEXT_COLUMNS).replace_schema_metadata(None)

    meta = {k: v for k, v in metas[0].items() if k not in ("rows", "checksums")} | {
        "chunks": list(range(n_chunks)),
        "shard": None,
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return TableResult(output, write_table_file(output, fmt, numeric_chunks(), meta))


def verify_table(path: Path) -> TableCheck:
    """Check a table file, data included: every row group is read and its checksum
    compared with the one stored when it was written; then rows, hands, weights, one
    row per (hand, discard) and a best discard for each role in every hand.

    A file made with ``--limit`` is reported as a sample (its first N classes), not
    failed for having fewer rows than the full table. Raises TableError naming the
    first failed check.
    """
    meta = read_file_metadata(path)
    sums = meta.get("checksums")
    keep = ["hand_id", "weight", "d1", "d2", "dealer_best", "pone_best"]
    parts: dict[str, list[np.ndarray]] = {name: [] for name in keep}
    try:
        pf = pq.ParquetFile(path)
        if sums is not None and len(sums) != pf.num_row_groups:
            raise TableError(f"{path}: {pf.num_row_groups} row groups but {len(sums)} checksums")
        for group in range(pf.num_row_groups):
            table = pf.read_row_group(group)  # every column: damage anywhere is found
            if sums is not None and checksum(table.replace_schema_metadata(None)) != sums[group]:
                raise TableError(
                    f"{path}: the data of row group {group} does not match its checksum"
                )
            for name in keep:
                parts[name].append(table.column(name).to_numpy())
    except (OSError, pa.ArrowException, KeyError) as e:
        raise TableError(f"{path}: damaged data ({_reason(e)})") from None
    data = {
        name: np.concatenate(chunks) if chunks else np.empty(0) for name, chunks in parts.items()
    }
    rows = len(data["hand_id"])
    classes = int(meta.get("classes") or 0)
    sample = classes < N_CLASSES
    expected_rows = 15 * classes if meta.get("shard") is None else rows
    if rows != expected_rows or meta.get("rows") != rows or (not sample and rows != N_ROWS_FULL):
        raise TableError(f"{path}: {rows:,} rows, expected {expected_rows:,}")
    hand_id = data["hand_id"].astype(np.int64)
    counts = np.bincount(hand_id)
    present = counts > 0
    if not np.all(counts[present] == 15) or (
        meta.get("shard") is None and present.sum() != classes
    ):
        raise TableError(f"{path}: hands are not {classes:,} x 15 discards")
    first = np.r_[True, hand_id[1:] != hand_id[:-1]] if rows else np.zeros(0, bool)
    weight_sum = int(data["weight"].astype(np.int64)[first].sum())
    expected_weight = (
        N_RAW_HANDS if not sample else int(hand_classes().weight[:classes].astype(np.int64).sum())
    )
    if meta.get("shard") is None and weight_sum != expected_weight:
        raise TableError(f"{path}: weights sum to {weight_sum:,}, expected {expected_weight:,}")
    order = np.argsort(hand_id, kind="stable")
    pairs = (data["d1"].astype(np.int64) * 52 + data["d2"])[order].reshape(-1, 15)
    pairs.sort(axis=1)
    if (pairs[:, 1:] == pairs[:, :-1]).any():
        raise TableError(f"{path}: duplicate (hand, discard) rows")
    for role in ("dealer_best", "pone_best"):
        per_hand = np.bincount(hand_id, weights=data[role].astype(np.float64))
        if (per_hand[present] < 1).any():
            raise TableError(f"{path}: a hand without a {role} discard")
    return TableCheck(
        path=path,
        rows=rows,
        classes=int(present.sum()),
        weight_sum=weight_sum,
        opponent=str(meta.get("opponent", "random")),
        sample=sample,
        checksums=sums is not None,
    )


def _check_target(output: Path) -> None:
    """A table goes to a regular file (not a folder, a device or a pipe) whose folder
    takes a new file: checked before any work."""
    if output.is_dir():
        raise UsageError(f"{output} is a folder; give a file name for the table")
    if writes_in_place(output):
        raise UsageError(f"{output} is not a regular file; a table is written to a file")
    check_output(output)


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return describe_os_error(e)
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__
