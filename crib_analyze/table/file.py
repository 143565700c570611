"""The discard table file: its columns, the writer, merging shards, verifying a file.

:func:`generate_table` computes (or resumes, through the chunk store) the chunks of a
run and streams them into one Parquet or CSV file, one row group per chunk, written
to a temp name and renamed into place. A Parquet file carries its run's metadata
(version, opponent model, rows, created-at, ...) and a checksum of every row group's
data, which :func:`verify_table` recomputes.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.cards import format_card
from crib_analyze.crib.hand_classes import N_CLASSES, hand_classes
from crib_analyze.errors import StorageError, TableError, UsageError, describe_os_error
from crib_analyze.settings import TABLE_FORMATS, check_choice
from crib_analyze.storage import checked
from crib_analyze.storage.atomic import atomic_open, check_output, writes_in_place
from crib_analyze.table.chunks import (
    META_KEY,
    ChunkStore,
    checksum,
    column_checksum,
    column_checksums,
    parquet_options,
    parts_dir,
)
from crib_analyze.table.compute import compute_chunk
from crib_analyze.table.spec import CHUNK_CLASSES, TABLE_FORMAT, TableSpec, shard_chunks
from crib_analyze.words import counted

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
    checksums: bool  # the data matched its stored checksums (False: the file has none)
    coverage: str | None = None  # what part of every hand, if not all (a shard, a sample)
    file_format: str = "parquet"
    game: str = "standard"  # the game of the rules whose hands it holds
    variants: tuple[str, ...] = ()  # those it ranks by ("lowball", "penalty back-ten")

    @property
    def summary(self) -> str:
        """What was found, in one line: the file, what it covers, its size and sums."""
        what = self.coverage.split(":")[0] if self.coverage else "full table"
        if self.checksums:
            sums = "data checksums match"
        elif self.file_format == "csv":
            sums = "no data checksum (CSV made before 0.4)"
        else:
            sums = "no data checksums (older file)"
        game = "" if self.game == "standard" else f"{self.game} game, "
        game += "".join(f"{v}, " for v in self.variants)
        return (
            f"{self.path}: {game}{what}, {self.opponent} opponent; {self.rows:,} rows, "
            f"{self.classes:,} hands, weights sum to {self.weight_sum:,}; {sums}"
        )


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

    Parquet: one row group per chunk, a CRC of every page, and in the file's key-value
    metadata the run metadata, the checksum of each column of each row group and a
    digest of both with the schema. CSV: plain text, and the metadata with a digest of
    the file's bytes in a ``.meta.json`` beside it (written after the table, so a pair
    from two runs is told).
    """
    check_choice("table format", fmt, TABLE_FORMATS)
    rows = 0
    sums: dict[str, list[str]] = {}
    file_digest = hashlib.blake2b(digest_size=16)
    try:
        with atomic_open(output, "wb") as raw:
            fh = _Hashing(raw, file_digest)
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
                    for name, digest in column_checksums(full).items():
                        sums.setdefault(name, []).append(digest)
                rows += full.num_rows
            if parquet is not None:
                record = meta | {"rows": rows, "column_checksums": sums}
                record["meta_digest"] = metadata_digest(record, parquet.schema.names)
                parquet.add_key_value_metadata({META_KEY.decode(): json.dumps(record)})
                parquet.close()
            elif csv is not None:
                csv.close()
            else:
                raise TableError("nothing to write")
        if fmt == "csv":  # CSV has no room for metadata: a small file beside it
            record = meta | {"rows": rows, "file_format": "csv"}
            record["file_digest"] = file_digest.hexdigest()
            record["meta_digest"] = metadata_digest(record, None)
            with atomic_open(metadata_path(output), "w") as mf:
                json.dump(record, mf)
    except (OSError, pa.ArrowException) as e:
        if isinstance(e, OSError):
            reason = describe_os_error(e)
        else:
            reason = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise StorageError(f"cannot write {output}: {reason}") from None
    return rows


class _Hashing:
    """A binary file that hashes what is written through it."""

    def __init__(self, fh: Any, digest: Any) -> None:
        self.fh, self.digest, self.closed = fh, digest, False

    def write(self, data: Any) -> int:
        self.digest.update(data)
        return int(self.fh.write(data))

    def flush(self) -> None:
        self.fh.flush()

    def tell(self) -> int:
        return int(self.fh.tell())

    def close(self) -> None:  # the atomic writer closes the real file
        self.closed = True

    def writable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return False


def metadata_digest(meta: dict[str, Any], columns: list[str] | None) -> str:
    """A digest of a table's metadata (without its own digest) and of its column names:
    a changed byte in either is told from a sound file."""
    h = hashlib.blake2b(digest_size=16)
    record = {k: v for k, v in meta.items() if k != "meta_digest"}
    h.update(json.dumps(record, sort_keys=True).encode())
    if columns is not None:
        h.update("\0".join(columns).encode())
    return h.hexdigest()


def coverage(meta: dict[str, Any]) -> str | None:
    """In words, what part of every hand a table covers, if not all: a shard or the
    sample of a --limit run; None for a whole table (another game's is always whole)."""
    if meta.get("game", "standard") != "standard":
        return None
    shard = meta.get("shard")
    classes = int(meta.get("classes") or 0)
    if shard:
        chunks = meta.get("chunks") or []
        hands = min(classes, (max(chunks) + 1) * CHUNK_CLASSES) - min(chunks) * CHUNK_CLASSES
        return f"a {shard[0]}/{shard[1]} shard ({hands:,} of the hands): not every hand"
    if classes and classes < N_CLASSES:
        return f"a sample of the first {counted(classes, 'hand')}: not every hand"
    return None


def standard_table(path: Path, meta: Mapping[Any, Any], what: str) -> None:
    """A TableError unless ``meta`` is a table of the standard game: ``what`` (a command
    or function) reads six-card hands."""
    game = meta.get("game", "standard")
    if meta.get("jokers"):
        raise TableError(
            f"{path} is the table of a pack with {meta['jokers']} joker(s); {what} reads the "
            "standard pack's: read it with load_table"
        )
    if game != "standard":
        raise TableError(
            f"{path} is the {game} game's table (five-card hands); {what} reads the standard "
            "game's (six-card hands): read it with load_table"
        )


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
    damaged chunk being recomputed. Ctrl-C lets the running chunk finish
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

    with interrupts.deferred():
        store.create()
        for k in chunks:
            interrupts.check()
            if store.ensure(k, compute, on_warning):
                reused += 1
            else:
                computed += 1
            if on_chunk:
                on_chunk(k)
        interrupts.check()
        meta = _run_metadata(spec, chunks, shard)
        rows = write_table_file(output, fmt, (store.read(k) for k in chunks), meta)
    store.remove()
    return TableResult(output, rows, computed, reused)


# --- reading, merging, verifying -------------------------------------------------------------


def metadata_path(table: Path) -> Path:
    """Where a CSV table's metadata is kept: ``NAME.csv.meta.json`` beside it."""
    return table.with_name(table.name + ".meta.json")


def read_table_metadata(path: Path, trust_unverified: bool = False) -> dict[str, Any]:
    """A table file's metadata, Parquet or CSV (from its ``.meta.json``), checked against
    its digest (a TableError if it was changed or cannot be read).

    A table without its provenance (a CSV with no ``.meta.json``, metadata without its
    digests: nothing to check the data against) is a TableError, unless
    ``trust_unverified``: then the metadata (``{}`` if none) carries ``unverified``,
    saying what is missing, for every output to show."""
    csv = path.suffix.lower() == ".csv"
    check_regular_file(path)
    meta = csv_metadata(path) if csv else read_file_metadata(path)
    gap = provenance_gap(meta, csv)
    if gap is None:
        how = "its .meta.json digest" if csv else "its metadata digest"
        checked.note(f"the table {path}", f"{how} matched; the data is checked as it is read")
        return meta or {}
    checked.note(f"the table {path}", f"UNCHECKED (--trust-unverified): it {gap}")
    if not trust_unverified:
        raise TableError(
            f"{path} {gap}, so its data cannot be checked: regenerate it with 'crib-analyze "
            "table', or read it unchecked with --trust-unverified"
        )
    return (meta or {}) | {"unverified": gap}


def check_regular_file(path: Path) -> None:
    """A TableError unless ``path`` is a regular file (a FIFO or a device would block or
    stream: a table is read from a file, more than once)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        raise TableError(f"cannot read {path}: {describe_os_error(e)}") from None
    if not stat.S_ISREG(mode):
        what = "a folder" if stat.S_ISDIR(mode) else "not a regular file"
        raise TableError(f"{path} is {what}: a table is read from a file")


def csv_metadata(path: Path) -> dict[str, Any] | None:
    """A CSV table's metadata from its ``.meta.json`` (None if there is none), checked
    against its digest: a TableError naming the file if it cannot be read or was changed."""
    source = metadata_path(path)
    try:
        with interrupts.at_once():  # a FIFO would wait for a writer: Ctrl-C is heard
            text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as e:
        raise TableError(f"cannot read {source}: {describe_os_error(e)}") from None
    except UnicodeDecodeError:
        raise TableError(f"{source} is damaged (not text); regenerate the table") from None
    try:
        meta = json.loads(text)
    except ValueError as e:
        raise TableError(f"{source} is damaged ({_reason(e)}); regenerate the table") from None
    if not isinstance(meta, dict):
        raise TableError(f"{source} is damaged (not a record); regenerate the table")
    if "meta_digest" in meta and meta["meta_digest"] != metadata_digest(meta, None):
        raise TableError(f"{source}: damaged metadata; regenerate the table")
    return _of_this_format(path, meta)


def provenance_gap(meta: dict[str, Any] | None, csv: bool) -> str | None:
    """What a table file lacks to be checked (its metadata or their digests), or None."""
    if meta is None:
        return f"has no {'.meta.json beside it' if csv else 'metadata'}"
    if "meta_digest" not in meta:
        return "has metadata without its digest"
    if csv and not meta.get("file_digest"):
        return "has no digest of its data in its .meta.json"
    if not csv and not (meta.get("column_checksums") or meta.get("checksums")):
        return "has no checksums of its data"
    return None


def verify_csv_digest(path: Path, meta: dict[str, Any]) -> bool:
    """True when a CSV table matches the digest in its metadata; False when the metadata
    holds none (an older file); a TableError when it does not match."""
    stored = meta.get("file_digest")
    if not stored:
        return False
    h = hashlib.blake2b(digest_size=16)
    try:
        with open(path, "rb") as fh:
            while block := fh.read(1 << 20):
                h.update(block)
    except OSError as e:
        raise TableError(f"cannot read {path}: {describe_os_error(e)}") from None
    if h.hexdigest() != stored:
        raise TableError(
            f"{path} does not match the digest in {metadata_path(path).name}: damaged, or "
            "not the table it was written with; regenerate it"
        )
    return True


def read_file_metadata(path: Path) -> dict[str, Any]:
    """The crib-analyze metadata of a table Parquet file, checked against its digest
    (with the file's schema)."""
    check_regular_file(path)
    try:
        file_meta = pq.read_metadata(path)
        kv = file_meta.metadata or {}
        meta = json.loads(kv[META_KEY])
        if not isinstance(meta, dict):
            raise ValueError("metadata is not a record")
    except (OSError, KeyError, ValueError, TypeError, pa.ArrowException) as e:
        raise TableError(f"{path} is not a crib-analyze table file ({_reason(e)})") from None
    if "meta_digest" in meta:
        columns = [file_meta.schema.column(i).name for i in range(file_meta.num_columns)]
        if meta["meta_digest"] != metadata_digest(meta, columns):
            raise TableError(
                f"{path}: its metadata or schema does not match their digest (damaged); "
                "regenerate the table"
            )
    return _of_this_format(path, meta)


def _of_this_format(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """``meta``, if its table is of the format this version reads; else a TableError."""
    expected = TABLE_FORMAT
    if meta.get("jokers"):  # the table of a pack with jokers has its own
        from crib_analyze.table.jokers import FORMAT as JOKER_FORMAT

        expected = JOKER_FORMAT
    elif meta.get("game", "standard") != "standard":  # so has another game's table
        from crib_analyze.table.five_card import FORMAT, TABLE_GAMES

        expected = FORMAT if meta["game"] in TABLE_GAMES else -1
    found = meta.get("format", expected)
    if found == expected:
        return meta
    if isinstance(found, int) and found > TABLE_FORMAT:
        raise TableError(
            f"{path} is a table of format {found}, made by a newer crib-analyze (this one "
            f"reads format {TABLE_FORMAT}): upgrade crib-analyze, or regenerate the table"
        )
    raise TableError(
        f"{path} is a table of format {found!r} (this version reads format {TABLE_FORMAT}): "
        "regenerate it with 'crib-analyze table'"
    )


def merge_tables(inputs: Sequence[Path], output: Path, fmt: str = "parquet") -> TableResult:
    """Join shard files into one table file; they must be one run's disjoint, complete slices."""
    if not inputs:
        raise UsageError("no shard files given")
    check_choice("table format", fmt, TABLE_FORMATS)
    _check_target(output)
    metas = [read_file_metadata(p) for p in inputs]
    keys = (
        "version", "format", "opponent", "model", "pegging", "classes", "chunk_classes",
        "n_chunks", "penalty", "lowball", "throw_fives",
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

    sums = {path: RowGroupSums(path, meta) for path, meta in zip(inputs, metas, strict=True)}

    def numeric_chunks() -> Iterator[pa.Table]:
        files: dict[Path, pq.ParquetFile] = {}
        for k in range(n_chunks):
            path, group = owner[k]
            try:
                files.setdefault(path, pq.ParquetFile(path))
                table = files[path].read_row_group(group)
            except (OSError, pa.ArrowException) as e:
                raise TableError(f"damaged shard {path}: {_reason(e)}") from None
            sums[path].check(group, table)
            yield table.drop_columns(TEXT_COLUMNS).replace_schema_metadata(None)

    drop = ("rows", "checksums", "column_checksums", "meta_digest")
    meta = {k: v for k, v in metas[0].items() if k not in drop} | {
        "chunks": list(range(n_chunks)),
        "shard": None,
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
    }
    return TableResult(output, write_table_file(output, fmt, numeric_chunks(), meta))


def verify_table(path: Path) -> TableCheck:
    """Check a table file, data included, against what its metadata says it holds.

    Parquet: every row group is read (every page's CRC checked) and its checksum
    compared with the one stored when it was written. CSV: the file against the digest
    in its ``.meta.json`` (a CSV written before 0.3.0 has none, and says so). Then rows,
    hands, weights, one row per (hand, discard) and a best discard for each role in
    every hand, for the hands the file covers: all of them, the first N of a --limit
    sample, or the chunks of a shard. Raises TableError naming the first failed check.
    """
    csv = path.suffix.lower() == ".csv"
    check_regular_file(path)
    found = csv_metadata(path) if csv else read_file_metadata(path)
    if found is None:
        raise TableError(f"{path} has no {metadata_path(path).name} beside it: not a table file")
    meta = found
    game = str(meta.get("game", "standard"))
    if meta.get("jokers") or game != "standard":  # a table written whole, hand by hand
        from crib_analyze.table.five_card import TABLE_GAMES
        from crib_analyze.table.jokers import verify_hands_table

        if game not in ("standard", *TABLE_GAMES):
            raise TableError(f"{path}: a table of {game!r}, a game this version has none of")
        found = verify_hands_table(path, meta)
        return TableCheck(
            path, found["rows"], found["classes"], found["weight_sum"],
            str(meta.get("opponent", "random")), False, True,
            game=game, variants=table_variants(meta),
        )  # fmt: skip
    keep = ["hand_id", "weight", "d1", "d2", "dealer_best", "pone_best"]
    if csv:
        checked = verify_csv_digest(path, meta)
        data = _read_csv_columns(path, keep)
    else:
        checked, data = _read_parquet_checked(path, meta, keep)
    ranges = _class_ranges(meta)
    expected_classes = sum(hi - lo for lo, hi in ranges)
    rows = len(data["hand_id"])
    if rows != 15 * expected_classes or meta.get("rows") != rows:
        raise TableError(f"{path}: {rows:,} rows, expected {15 * expected_classes:,}")
    hand_id = data["hand_id"].astype(np.int64)
    counts = np.bincount(hand_id, minlength=N_CLASSES)
    wanted = np.zeros(len(counts), bool)
    for lo, hi in ranges:
        wanted[lo:hi] = True
    if not (counts[wanted] == 15).all() or counts[~wanted].any():
        raise TableError(f"{path}: hands are not its {expected_classes:,} x 15 discards")
    first = np.r_[True, hand_id[1:] != hand_id[:-1]] if rows else np.zeros(0, bool)
    weight_sum = int(data["weight"].astype(np.int64)[first].sum())
    weights = hand_classes().weight.astype(np.int64)
    expected_weight = int(sum(weights[lo:hi].sum() for lo, hi in ranges))
    if weight_sum != expected_weight:
        raise TableError(f"{path}: weights sum to {weight_sum:,}, expected {expected_weight:,}")
    order = np.argsort(hand_id, kind="stable")
    pairs = (data["d1"].astype(np.int64) * 52 + data["d2"])[order].reshape(-1, 15)
    pairs.sort(axis=1)
    if (pairs[:, 1:] == pairs[:, :-1]).any():
        raise TableError(f"{path}: duplicate (hand, discard) rows")
    for role in ("dealer_best", "pone_best"):
        per_hand = np.bincount(
            hand_id, weights=data[role].astype(np.float64), minlength=len(counts)
        )
        if (per_hand[wanted] < 1).any():
            raise TableError(f"{path}: a hand without a {role} discard")
    return TableCheck(
        path=path,
        rows=rows,
        classes=expected_classes,
        weight_sum=weight_sum,
        opponent=str(meta.get("opponent", "random")),
        sample=not meta.get("shard") and int(meta.get("classes") or 0) < N_CLASSES,
        checksums=checked,
        coverage=coverage(meta),
        file_format="csv" if csv else "parquet",
        variants=table_variants(meta),
    )


def table_variants(meta: Mapping[Any, Any]) -> tuple[str, ...]:
    """The variants a standard table ranks by, as their options name them (none for a
    table made before them)."""
    penalty = str(meta.get("penalty", "none"))
    jokers = int(meta.get("jokers") or 0)
    return (
        (("lowball",) if meta.get("lowball") else ())
        + ((f"jokers {jokers}",) if jokers else ())
        + (("throw fives",) if meta.get("throw_fives") else ())
        + ((f"penalty {penalty}",) if penalty != "none" else ())
    )


def _class_ranges(meta: dict[str, Any]) -> list[tuple[int, int]]:
    """The hand classes a table holds: its chunks' ranges of the run's classes."""
    classes = int(meta.get("classes") or 0)
    size = int(meta.get("chunk_classes") or CHUNK_CLASSES)
    chunks = meta.get("chunks")
    if chunks is None:
        chunks = list(range(-(-classes // size)))
    return [(k * size, min((k + 1) * size, classes)) for k in chunks]


def _read_parquet_checked(
    path: Path, meta: dict[str, Any], keep: list[str]
) -> tuple[bool, dict[str, np.ndarray]]:
    """(checksums present, the ``keep`` columns) of a Parquet table, every row group
    read whole and checked against its page CRCs and its stored checksums."""
    parts: dict[str, list[np.ndarray]] = {name: [] for name in keep}
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        sums = RowGroupSums(path, meta, pf.num_row_groups)
        for group in range(pf.num_row_groups):
            table = pf.read_row_group(group)  # every column: damage anywhere is found
            sums.check(group, table)
            for name in keep:
                parts[name].append(table.column(name).to_numpy())
    except (OSError, pa.ArrowException, KeyError) as e:
        raise TableError(f"{path}: damaged data ({_reason(e)})") from None
    return sums.present, {
        name: np.concatenate(chunks) if chunks else np.empty(0) for name, chunks in parts.items()
    }


class RowGroupSums:
    """The checksums stored in a Parquet table's metadata: of each column of each row
    group (0.4 on; a reader checks just the columns it reads) or of each whole row
    group (older files)."""

    def __init__(self, path: Path, meta: dict[str, Any], groups: int | None = None) -> None:
        self.path = path
        self.by_column: dict[str, list[str]] | None = meta.get("column_checksums")
        self.whole: list[str] | None = meta.get("checksums")
        if groups is not None:
            lengths = {len(v) for v in (self.by_column or {}).values()}
            if self.whole is not None:
                lengths.add(len(self.whole))
            if lengths - {groups}:
                raise TableError(f"{path}: {groups} row groups but not as many checksums")

    @property
    def present(self) -> bool:
        return self.by_column is not None or self.whole is not None

    def columns_to_read(self, wanted: list[str] | None) -> list[str] | None:
        """What to read of a row group to check ``wanted`` (None: every column)."""
        return None if self.by_column is None and self.whole is not None else wanted

    def check(self, group: int, table: pa.Table) -> None:
        """A TableError unless ``table`` (row group ``group``) matches its checksums."""
        if self.by_column is not None:
            for name in table.column_names:
                stored = self.by_column.get(name)
                if stored is None or column_checksum(table.column(name)) != stored[group]:
                    raise TableError(
                        f"{self.path}: column {name} of row group {group} does not match its "
                        "checksum; regenerate the table ('crib-analyze table check' says more)"
                    )
        elif self.whole is not None and (
            checksum(table.replace_schema_metadata(None)) != self.whole[group]
        ):
            raise TableError(
                f"{self.path}: the data of row group {group} does not match its checksum; "
                "regenerate the table ('crib-analyze table check' says more)"
            )


def read_table_data(
    path: Path,
    meta: dict[str, Any],
    columns: list[str] | None = None,
    filters: Any = None,
    verify: bool = True,
) -> pa.Table:
    """The ``columns`` and ``filters`` rows of a table file, checked as they stream.

    Parquet: each row group that may hold rows the filters keep (by its statistics)
    is read whole, every page against its CRC and the group against the checksum
    stored when it was written, then filtered. CSV: the file against the digest in
    its ``.meta.json``. ``verify=False`` reads only what is asked, unchecked (faster
    for a column or two of a large table). A damaged file is a TableError."""
    import pyarrow.dataset as ds

    expression = pq.filters_to_expression(filters) if filters else None
    csv = path.suffix.lower() == ".csv"
    try:
        if csv or not verify:
            if csv and verify and verify_csv_digest(path, meta):
                checked.note(f"the table {path}", "metadata and the file's digest matched")
            fmt = "csv" if csv else "parquet"
            found = ds.dataset(path, format=fmt).to_table(columns=columns, filter=expression)
            return check_column_types(path, found)
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        sums = RowGroupSums(path, meta, pf.num_row_groups)
        groups: list[int] = list(range(pf.num_row_groups))
        needed = columns
        if expression is not None:  # only the row groups whose statistics may match
            (fragment,) = ds.dataset(path, format="parquet").get_fragments()
            groups = sorted(rg.id for f in fragment.split_by_row_group(expression)
                            for rg in f.row_groups)  # fmt: skip
            if columns is not None:
                filtered = [name for name, *_ in _flat_filters(filters)]
                needed = list(dict.fromkeys([*columns, *filtered]))
        parts = []
        for group in groups:
            table = pf.read_row_group(group, columns=sums.columns_to_read(needed))
            sums.check(group, table)
            if expression is not None:
                table = table.filter(expression)
            parts.append(table.select(columns) if columns is not None else table)
        what = f"{len(groups)} row groups read" if sums.present else "no checksums"
        checked.note(f"the table {path}", f"metadata digest, page CRCs and checksums ({what})")
        if not parts:
            schema = pf.schema_arrow
            empty = schema.empty_table()
            return empty.select(columns) if columns is not None else empty
        return pa.concat_tables(parts)
    except TableError:
        raise
    except OSError as e:
        raise TableError(f"cannot read {path}: {describe_os_error(e)}") from None
    except Exception as e:  # pyarrow's damaged-file, bad-filter and unknown-column errors
        raise TableError(f"cannot read {path}: {_reason(e)}") from None


#: the integer and flag columns of a table (the rest are text or numbers)
INT_COLUMNS = frozenset({"hand_id", "weight", "d1", "d2", "k1", "k2", "k3", "k4"})
FLAG_COLUMNS = frozenset(f"{role}_{best}" for role in ("dealer", "pone")
                         for best in ("best", "best_total"))  # fmt: skip


def check_column_types(path: Path, table: pa.Table) -> pa.Table:
    """``table``, if each column holds its kind of value (text, a flag, an integer, a
    number); else a TableError naming the column (a damaged file read without its
    checks: a word in a column of numbers)."""
    for field in table.schema:
        kind = field.type.value_type if pa.types.is_dictionary(field.type) else field.type
        if field.name in TEXT_COLUMNS:
            sound = pa.types.is_string(kind) or pa.types.is_large_string(kind)
            wanted = "text"
        elif field.name in FLAG_COLUMNS:
            sound, wanted = pa.types.is_boolean(kind), "true or false"
        elif field.name in INT_COLUMNS:
            sound, wanted = pa.types.is_integer(kind), "whole numbers"
        else:
            sound = pa.types.is_floating(kind) or pa.types.is_integer(kind)
            wanted = "numbers"
        if not sound:
            raise TableError(f"{path}: column {field.name} does not hold {wanted} (damaged)")
    return table


def _read_csv_columns(path: Path, keep: list[str]) -> dict[str, np.ndarray]:
    try:
        table = pacsv.read_csv(path, convert_options=pacsv.ConvertOptions(include_columns=keep))
    except (OSError, pa.ArrowException) as e:
        raise TableError(f"{path}: damaged data ({_reason(e)})") from None
    check_column_types(path, table)
    return {name: table.column(name).to_numpy() for name in keep}


def _check_target(output: Path) -> None:
    """A table goes to a regular file (not a folder, a device or a pipe) whose folder
    takes a new file: checked before any work."""
    if output.is_dir():
        raise UsageError(f"{output} is a folder; give a file name for the table")
    check_output(output)
    if writes_in_place(output):
        raise UsageError(f"{output} is not a regular file; a table is written to a file")


def _reason(e: BaseException) -> str:
    if isinstance(e, OSError) and e.strerror:
        return describe_os_error(e)
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


def _flat_filters(filters: Any) -> list[tuple[Any, ...]]:
    """The (column, op, value) terms of pyarrow-style filters (a list, or a list of lists)."""
    terms: list[tuple[Any, ...]] = []
    for item in filters:
        if isinstance(item, list | tuple) and item and isinstance(item[0], list | tuple):
            terms += [tuple(t) for t in item]
        else:
            terms.append(tuple(item))
    return terms
