"""The full discard-value table: every suit class x 15 discards, in resumable chunks.

Generation splits the 962,988 classes (see :mod:`crib_analyze.hand_classes`) into
chunks of ``CHUNK_CLASSES``. Each finished chunk is written atomically to a parts
folder beside the output, stamped with the run's fingerprint and a checksum, so an
interrupted run resumes from the chunks it finished; a chunk from another run or a
damaged one is detected. When every chunk is there, they are streamed (one row
group each) into the final Parquet or CSV file, written to a temp name and renamed
into place, with metadata (version, opponent model, rows, created-at).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import hashlib
import json
import shutil
import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from crib_analyze import discard_kernels as dk
from crib_analyze import table_kernels as tk
from crib_analyze.atomic import atomic_open
from crib_analyze.cards import format_card
from crib_analyze.hand_classes import hand_classes
from crib_analyze.score import rank_table

TABLE_FORMAT = 1
CHUNK_CLASSES = 10_000
DEFAULT_OUTPUT = Path("data/discard_table.parquet")


def default_output(opponent: str = "random", fmt: str = "parquet") -> Path:
    """data/discard_table.parquet, or data/discard_table_expert.parquet (.csv for CSV)."""
    stem = "discard_table" if opponent == "random" else f"discard_table_{opponent}"
    return DEFAULT_OUTPUT.with_name(f"{stem}.{'csv' if fmt == 'csv' else 'parquet'}")


META_KEY = b"crib_analyze"
TABLE_OPPONENTS = ("random", "expert")
N_ROWS_FULL = 962_988 * 15

TEXT_COLUMNS = ["hand", "discard", "keep"]


class TableError(Exception):
    """A table file or chunk that cannot be used as asked (one-line message)."""


@dataclass(frozen=True)
class TableSpec:
    """What a run computes: the opponent model and how many classes (all by default)."""

    opponent: str = "random"
    limit: int | None = None

    def __post_init__(self) -> None:
        if self.opponent not in TABLE_OPPONENTS:
            raise TableError(
                f"opponent model {self.opponent!r} is not available for the full table "
                f"(available: {', '.join(TABLE_OPPONENTS)})"
            )
        if self.limit is not None and self.limit < 1:
            raise TableError(f"limit must be at least 1, got {self.limit}")

    @property
    def n_classes(self) -> int:
        total = len(hand_classes().weight)
        return total if self.limit is None else min(self.limit, total)

    @property
    def n_chunks(self) -> int:
        return -(-self.n_classes // CHUNK_CLASSES)

    def chunk_range(self, k: int) -> tuple[int, int]:
        lo = k * CHUNK_CLASSES
        return lo, min(lo + CHUNK_CLASSES, self.n_classes)

    def fingerprint(self) -> dict[str, Any]:
        """What must match for chunks and shards to be combined."""
        from crib_analyze import __version__

        print_ = {
            "version": __version__,
            "format": TABLE_FORMAT,
            "opponent": self.opponent,
            "classes": self.n_classes,
            "chunk_classes": CHUNK_CLASSES,
        }
        if self.opponent == "expert":
            from crib_analyze.expert import default_model

            print_["model"] = default_model().fingerprint()
        return print_


def parse_shard(text: str) -> tuple[int, int]:
    """``"I/N"`` -> (I, N) with 1 <= I <= N."""
    try:
        i_text, n_text = text.split("/")
        i, n = int(i_text), int(n_text)
    except ValueError:
        raise TableError(f"shard must look like I/N (e.g. 1/4), got {text!r}") from None
    if not 1 <= i <= n:
        raise TableError(f"shard {text!r} out of range: need 1 <= I <= N")
    return i, n


def shard_chunks(spec: TableSpec, shard: tuple[int, int] | None) -> list[int]:
    """The chunk indices of shard I of N (contiguous, disjoint, covering all)."""
    chunks = np.arange(spec.n_chunks)
    if shard is None:
        return chunks.tolist()
    i, n = shard
    return np.array_split(chunks, n)[i - 1].tolist()


# --- computing chunks ---------------------------------------------------------------------


_rank_parts: dict[bool, tuple[np.ndarray, np.ndarray]] = {}


def _multiset_parts(with_crib: bool) -> tuple[np.ndarray, np.ndarray]:
    """Hand (and, for the random model, crib) rank numerators of every multiset, cached."""
    if with_crib not in _rank_parts:
        _rank_parts[with_crib] = tk.multiset_rank_numerators(
            rank_table(), hand_classes().multisets, with_crib
        )
    return _rank_parts[with_crib]


def compute_chunk(spec: TableSpec, k: int) -> pa.Table:
    """The numeric columns of chunk ``k``: one row per (class, discard)."""
    lo, hi = spec.chunk_range(k)
    classes = hand_classes()
    cards = classes.cards[lo:hi]
    hand_rank, crib_rank = _multiset_parts(with_crib=spec.opponent == "random")
    hand_num, crib_num = tk.class_numerators(cards, classes.multiset[lo:hi], hand_rank, crib_rank)
    n = hi - lo
    unseen_jacks = 4 - ((cards // 4) == 10).sum(axis=1)
    heels = np.repeat(2.0 * unseen_jacks / dk.N_UNSEEN, 15)
    hand_mean = hand_num.ravel() / dk.N_UNSEEN
    if spec.opponent == "expert":
        from crib_analyze.expert import TIE_TOLERANCE, class_cribs_range, default_model
        from crib_analyze.throw_model_kernels import best_response_stats

        model = default_model()
        dealer_crib, pone_crib = class_cribs_range(
            [model.policy_for_our_role("dealer"), model.policy_for_our_role("pone")], lo, hi
        )
        hand2 = hand_num / dk.N_UNSEEN
        weight = classes.weight[lo:hi].astype(np.float64)
        c64 = cards.astype(np.int64)
        dealer_best = best_response_stats(c64, weight, hand2 + dealer_crib, TIE_TOLERANCE)[0]
        pone_best = best_response_stats(c64, weight, hand2 - pone_crib, TIE_TOLERANCE)[0]
        cribs = {"dealer_crib_mean": dealer_crib.ravel(), "pone_crib_mean": pone_crib.ravel()}
        dealer_c, pone_c = cribs["dealer_crib_mean"], cribs["pone_crib_mean"]
    else:
        dealer_best, pone_best = tk.best_flags(hand_num, crib_num)
        crib_mean = crib_num.ravel() / dk.RANDOM_COMPLETIONS
        cribs = {"crib_mean": crib_mean}
        dealer_c = pone_c = crib_mean
    thrown = cards[:, dk.DISCARDS].reshape(n * 15, 2)
    kept = cards[:, dk.KEEPS].reshape(n * 15, 4)
    columns = {
        "hand_mean": hand_mean,
        **cribs,
        "heels": heels,
        "dealer_net": hand_mean + dealer_c + heels,
        "pone_net": hand_mean - pone_c,
        "dealer_best": dealer_best.ravel(),
        "pone_best": pone_best.ravel(),
        "hand_id": np.repeat(np.arange(lo, hi, dtype=np.int32), 15),
        "weight": np.repeat(classes.weight[lo:hi], 15),
        "d1": thrown[:, 0],
        "d2": thrown[:, 1],
        "k1": kept[:, 0],
        "k2": kept[:, 1],
        "k3": kept[:, 2],
        "k4": kept[:, 3],
    }
    return pa.table({name: pa.array(values) for name, values in columns.items()})


def parquet_options(opponent: str, schema: pa.Schema) -> dict[str, Any]:
    """zstd throughout; dictionary encoding except for the expert table's floats.

    Random-model values are rationals with few distinct values, which dictionaries
    compress well; expert values are nearly unique per row, where a dictionary only
    costs time (measured: writes ~40% and reads ~75% faster without it, same size).
    """
    if opponent == "random":
        return {"compression": "zstd"}
    keep = [f.name for f in schema if not pa.types.is_floating(f.type)]
    return {"compression": "zstd", "use_dictionary": keep}


def checksum(table: pa.Table) -> str:
    """A digest of a chunk's numeric columns, to detect damage."""
    h = hashlib.blake2b(digest_size=16)
    for name in table.column_names:
        h.update(name.encode())
        h.update(table.column(name).to_numpy().tobytes())
    return h.hexdigest()


def chunk_path(parts: Path, k: int) -> Path:
    return parts / f"chunk-{k:05d}.parquet"


def write_chunk(parts: Path, spec: TableSpec, k: int, table: pa.Table) -> None:
    """Write one chunk atomically with its fingerprint, index, rows and checksum."""
    meta = spec.fingerprint() | {"chunk": k, "rows": table.num_rows, "checksum": checksum(table)}
    table = table.replace_schema_metadata({META_KEY: json.dumps(meta).encode()})
    with atomic_open(chunk_path(parts, k), "wb") as fh:
        pq.write_table(table, fh, **parquet_options(spec.opponent, table.schema))


def read_chunk(parts: Path, spec: TableSpec, k: int) -> pa.Table:
    """Read and verify chunk ``k``; raise TableError naming what is wrong."""
    path = chunk_path(parts, k)
    try:
        table = pq.read_table(path)
        meta = json.loads((table.schema.metadata or {})[META_KEY])
    except (OSError, KeyError, ValueError, pa.ArrowException) as e:
        raise TableError(f"damaged chunk {path}: {e}") from None
    expected = spec.fingerprint()
    foreign = {k_: meta.get(k_) for k_ in expected if meta.get(k_) != expected[k_]}
    if foreign or meta.get("chunk") != k:
        raise TableError(f"chunk {path} belongs to another run ({foreign or 'chunk index'})")
    lo, hi = spec.chunk_range(k)
    table = table.replace_schema_metadata(None)
    if table.num_rows != 15 * (hi - lo) or meta.get("checksum") != checksum(table):
        raise TableError(f"damaged chunk {path}: rows or checksum do not match")
    return table


# --- text columns and the final file ---------------------------------------------------


def _card_text() -> np.ndarray:
    return np.array([format_card(c) for c in range(52)], dtype=object)


def _pair_index(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Index of the card pair a < b among all 1,326 pairs in lexicographic order."""
    a64, b64 = a.astype(np.int64), b.astype(np.int64)
    return a64 * (103 - a64) // 2 + (b64 - a64 - 1)


_PAIR_TEXT = pa.array([f"{format_card(a)} {format_card(b)}" for a, b in combinations(range(52), 2)])


def with_text_columns(table: pa.Table) -> pa.Table:
    """Add ``hand``, ``discard``, ``keep`` as dictionary-encoded text; order the columns."""
    text = _card_text()
    classes = hand_classes()
    hand_id = table.column("hand_id").to_numpy()
    ids, hand_local = np.unique(hand_id, return_inverse=True)
    hand_dict = pa.array([" ".join(text[classes.cards[i]]) for i in ids])
    d1, d2 = table.column("d1").to_numpy(), table.column("d2").to_numpy()
    discard = pa.DictionaryArray.from_arrays(pa.array(_pair_index(d1, d2), pa.int32()), _PAIR_TEXT)
    keeps = np.stack([table.column(c).to_numpy() for c in ("k1", "k2", "k3", "k4")], axis=1)
    keep_codes = keeps.astype(np.int64) @ (52 ** np.arange(3, -1, -1))
    uniq, keep_local = np.unique(keep_codes, return_inverse=True)
    first = np.unique(keep_codes, return_index=True)[1]
    keep_dict = pa.array([" ".join(text[keeps[i]]) for i in first])
    assert len(keep_dict) == len(uniq)
    extra = {
        "hand": pa.DictionaryArray.from_arrays(pa.array(hand_local, pa.int32()), hand_dict),
        "discard": discard,
        "keep": pa.DictionaryArray.from_arrays(pa.array(keep_local, pa.int32()), keep_dict),
    }
    return pa.table(extra | {name: table.column(name) for name in table.column_names})


def _file_metadata(spec: TableSpec, chunks: Sequence[int], rows: int) -> dict[str, Any]:
    return spec.fingerprint() | {
        "rows": rows,
        "chunks": list(chunks),
        "n_chunks": spec.n_chunks,
        "limit": spec.limit,
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }


def _as_plain_text(table: pa.Table) -> pa.Table:
    """Dictionary-encoded text columns decoded to plain strings (for CSV)."""
    fields = [
        pa.field(f.name, pa.string()) if pa.types.is_dictionary(f.type) else f for f in table.schema
    ]
    return table.cast(pa.schema(fields))


def write_table_file(
    output: Path, fmt: str, tables: Iterator[pa.Table], meta: dict[str, Any]
) -> int:
    """Stream numeric chunk tables into ``output`` atomically (Parquet: one row group
    per chunk, run metadata in the file's key-value metadata); return the row count."""
    rows = 0
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
                    fh, full.schema, **parquet_options(meta.get("opponent", "random"), full.schema)
                )
                parquet.write_table(full, row_group_size=full.num_rows)
            rows += full.num_rows
        if parquet is not None:
            parquet.add_key_value_metadata({META_KEY.decode(): json.dumps(meta | {"rows": rows})})
            parquet.close()
        elif csv is not None:
            csv.close()
        else:
            raise TableError("nothing to write")
    return rows


def read_file_metadata(path: Path) -> dict[str, Any]:
    """The crib-analyze metadata of a table Parquet file."""
    try:
        kv = pq.read_metadata(path).metadata or {}
        return dict(json.loads(kv[META_KEY]))
    except (OSError, KeyError, ValueError, pa.ArrowException) as e:
        raise TableError(f"{path} is not a crib-analyze table file: {e}") from None


# --- the whole job -----------------------------------------------------------------------


@dataclass(frozen=True)
class GenerateResult:
    output: Path
    rows: int
    chunks_computed: int
    chunks_reused: int


def parts_dir(output: Path) -> Path:
    return output.with_name(output.name + ".parts")


def generate_table(
    output: Path,
    spec: TableSpec,
    fmt: str = "parquet",
    shard: tuple[int, int] | None = None,
    on_chunk: Callable[[int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> GenerateResult:
    """Compute (or resume) the chunks of ``spec`` / ``shard`` and write ``output``.

    ``on_chunk`` is called after each chunk is ready (for progress bars);
    ``on_warning`` gets one-line notes such as a damaged chunk being recomputed.
    """
    if fmt not in ("parquet", "csv"):
        raise TableError(f"unknown format {fmt!r} (parquet or csv)")
    if shard is not None and fmt != "parquet":
        raise TableError("shards are written as Parquet (merge them, then choose the format)")
    parts = parts_dir(output)
    computed = reused = 0
    with _interrupt_between_chunks() as stop_requested:
        chunks = shard_chunks(spec, shard)
        parts.mkdir(parents=True, exist_ok=True)
        for k in chunks:
            if stop_requested():
                raise KeyboardInterrupt
            if _ensure_chunk(parts, spec, k, on_warning):
                reused += 1
            else:
                computed += 1
            if on_chunk:
                on_chunk(k)
        if stop_requested():
            raise KeyboardInterrupt
        meta = _file_metadata(spec, chunks, 0) | {"shard": None if shard is None else list(shard)}
        rows = write_table_file(output, fmt, (read_chunk(parts, spec, k) for k in chunks), meta)
    shutil.rmtree(parts, ignore_errors=True)
    return GenerateResult(output, rows, computed, reused)


@contextlib.contextmanager
def _interrupt_between_chunks() -> Iterator[Callable[[], bool]]:
    """Turn the first Ctrl-C into a request checked between chunks.

    A signal landing inside a numba kernel can crash the process, so the first
    SIGINT only sets a flag (the current chunk finishes and is saved); a second one
    interrupts at once. Outside the main thread this changes nothing.
    """
    requested = [False]
    if threading.current_thread() is not threading.main_thread():
        yield lambda: False
        return

    def handler(signum: int, frame: Any) -> None:
        if requested[0]:
            raise KeyboardInterrupt
        requested[0] = True

    previous = signal.signal(signal.SIGINT, handler)
    try:
        yield lambda: requested[0]
    finally:
        signal.signal(signal.SIGINT, previous)


def _ensure_chunk(
    parts: Path, spec: TableSpec, k: int, on_warning: Callable[[str], None] | None
) -> bool:
    """Reuse chunk ``k`` if it is there and sound (True), else compute and save it."""
    if chunk_path(parts, k).exists():
        try:
            read_chunk(parts, spec, k)
            return True
        except TableError as e:
            if "another run" in str(e):
                raise TableError(f"{e}; remove {parts} (or pass --restart) to start over") from None
            if on_warning:
                on_warning(f"{e}; recomputing it")
    write_chunk(parts, spec, k, compute_chunk(spec, k))
    return False


def merge_tables(inputs: Sequence[Path], output: Path, fmt: str = "parquet") -> int:
    """Join shard files into one table file; they must be one run's disjoint, complete slices."""
    if not inputs:
        raise TableError("no shard files given")
    metas = [read_file_metadata(p) for p in inputs]
    keys = ("version", "format", "opponent", "classes", "chunk_classes", "n_chunks")
    first = {k: metas[0].get(k) for k in keys}
    for path, meta in zip(inputs, metas, strict=True):
        other = {k: meta.get(k) for k in keys}
        if other != first:
            raise TableError(f"{path} is from another run ({other} vs {first})")
    owner: dict[int, Path] = {}
    for path, meta in zip(inputs, metas, strict=True):
        for k in meta["chunks"]:
            if k in owner:
                raise TableError(f"chunk {k} is in both {owner[k]} and {path}")
            owner[k] = path
    missing = sorted(set(range(first["n_chunks"])) - owner.keys())  # type: ignore[arg-type]
    if missing:
        raise TableError(
            f"shards are incomplete: {len(missing)} chunk(s) missing, first {missing[0]}"
        )

    def numeric_chunks() -> Iterator[pa.Table]:
        files = {p: pq.ParquetFile(p) for p in inputs}
        position = {p: 0 for p in inputs}
        for k in range(first["n_chunks"]):  # type: ignore[arg-type]
            path = owner[k]
            table = files[path].read_row_group(position[path])
            position[path] += 1
            yield table.drop_columns(TEXT_COLUMNS).replace_schema_metadata(None)

    meta = dict(metas[0]) | {
        "chunks": list(range(first["n_chunks"])),  # type: ignore[arg-type]
        "shard": None,
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return write_table_file(output, fmt, numeric_chunks(), meta)


def verify_table(path: Path) -> dict[str, int]:
    """Check a complete table file: rows, weight sum, one row per (hand, discard).

    Raises TableError naming the first failed check; returns the counts.
    """
    from crib_analyze.hand_classes import N_CLASSES, N_RAW_HANDS

    meta = read_file_metadata(path)
    columns = ["hand_id", "weight", "d1", "d2", "dealer_best", "pone_best"]
    data = pq.read_table(path, columns=columns)
    rows = data.num_rows
    hand_id = data.column("hand_id").to_numpy()
    weight = data.column("weight").to_numpy().astype(np.int64)
    d1 = data.column("d1").to_numpy()
    d2 = data.column("d2").to_numpy()
    if rows != N_ROWS_FULL or meta.get("rows") != rows:
        raise TableError(f"{path}: {rows:,} rows, expected {N_ROWS_FULL:,}")
    first = np.r_[True, hand_id[1:] != hand_id[:-1]]
    if first.sum() != N_CLASSES or not np.all(np.bincount(hand_id) == 15):
        raise TableError(f"{path}: hands are not {N_CLASSES:,} x 15 discards")
    weight_sum = int(weight[first].sum())
    if weight_sum != N_RAW_HANDS:
        raise TableError(f"{path}: weights sum to {weight_sum:,}, expected {N_RAW_HANDS:,}")
    # rows come in blocks of 15 per hand (checked above): no discard twice in a block
    order = np.argsort(hand_id, kind="stable")
    pairs = (d1.astype(np.int64) * 52 + d2)[order].reshape(-1, 15)
    pairs.sort(axis=1)
    if (pairs[:, 1:] == pairs[:, :-1]).any():
        raise TableError(f"{path}: duplicate (hand, discard) rows")
    for role in ("dealer_best", "pone_best"):
        per_hand = np.bincount(hand_id, weights=data.column(role).to_numpy())
        if (per_hand < 1).any():
            raise TableError(f"{path}: a hand without a {role} discard")
    return {"rows": rows, "classes": N_CLASSES, "weight_sum": weight_sum}
