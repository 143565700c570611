"""The chunk store of a table run: finished chunks on disk, verified, resumable.

Each finished chunk is written atomically to a parts folder beside the output
(``OUTPUT.parts/chunk-00042.parquet``), stamped with the run's fingerprint, its
index, its row count and a checksum of its data, so an interrupted run resumes
from the chunks it finished and a chunk from another run, or a damaged one, is
detected. Ctrl-C is deferred to chunk boundaries (:mod:`crib_analyze.interrupts`).
"""

from __future__ import annotations

import hashlib
import json
import shutil
import zlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from crib_analyze.errors import StorageError, TableError, describe_os_error
from crib_analyze.storage.atomic import atomic_open
from crib_analyze.table.spec import TableSpec

META_KEY = b"crib_analyze"


def parquet_options(opponent: str, schema: pa.Schema) -> dict[str, Any]:
    """zstd throughout; a CRC of every data page (checked as the data is read);
    dictionary encoding except for the expert table's floats.

    Random-model values are rationals with few distinct values, which dictionaries
    compress well; expert values are nearly unique per row, where a dictionary only
    costs time (measured: writes ~40% and reads ~75% faster without it, same size).
    """
    if opponent == "random":
        return {"compression": "zstd", "write_page_checksum": True}
    keep = [f.name for f in schema if not pa.types.is_floating(f.type)]
    return {"compression": "zstd", "use_dictionary": keep, "write_page_checksum": True}


def checksum(table: pa.Table) -> str:
    """A digest of a table's data (column names, numbers, text), to detect damage.

    Text (also dictionary-encoded text) is hashed as its decoded UTF-8 bytes, so the
    digest does not depend on how a file happens to encode it.
    """
    h = hashlib.blake2b(digest_size=16)
    for name in table.column_names:
        h.update(name.encode())
        column = table.column(name)
        if pa.types.is_dictionary(column.type):
            column = column.cast(column.type.value_type)
        if pa.types.is_string(column.type):
            arr = column.combine_chunks() if column.num_chunks else pa.array([], pa.string())
            offsets = np.frombuffer(arr.buffers()[1], np.int32)[
                arr.offset : arr.offset + len(arr) + 1
            ]
            data = arr.buffers()[2]
            h.update((offsets - offsets[0]).tobytes())
            if data is not None:
                h.update(memoryview(data)[offsets[0] : offsets[-1]])
        else:
            h.update(np.ascontiguousarray(column.to_numpy()).tobytes())
    return h.hexdigest()


def column_checksum(column: pa.ChunkedArray | pa.Array) -> str:
    """A CRC-32 of one column's values, so a reader checks just the columns it reads.

    Numbers are checked as their bytes, text as its decoded UTF-8 strings (so the
    checksum does not depend on how a file encodes the text); the type, the length and
    the count of nulls are checked too. CRC-32 (about 3 GB/s here) detects damage, not
    deliberate forgery; it costs what benchmarks/bench_verify.py measures.
    """
    array = column.combine_chunks() if isinstance(column, pa.ChunkedArray) else column
    if pa.types.is_dictionary(array.type):
        array = array.cast(array.type.value_type)
    crc = zlib.crc32(f"{array.type}\0{len(array)}\0{array.null_count}\0".encode())
    if pa.types.is_string(array.type):
        offsets = np.frombuffer(array.buffers()[1], np.int32)[
            array.offset : array.offset + len(array) + 1
        ]
        crc = zlib.crc32((offsets - offsets[0]).tobytes(), crc)
        data = array.buffers()[2]
        if data is not None:
            crc = zlib.crc32(memoryview(data)[offsets[0] : offsets[-1]], crc)
    else:
        values = np.ascontiguousarray(array.to_numpy(zero_copy_only=False))
        crc = zlib.crc32(values.view(np.uint8).data, crc)
    return f"{crc:08x}"


def column_checksums(table: pa.Table) -> dict[str, str]:
    """:func:`column_checksum` of every column of ``table``, by name."""
    return {name: column_checksum(table.column(name)) for name in table.column_names}


def parts_dir(output: Path) -> Path:
    """The folder of finished chunks of the run writing ``output``."""
    return output.with_name(output.name + ".parts")


class ChunkStore:
    """Finished chunks of one run (``spec``) in ``parts``."""

    def __init__(self, parts: Path, spec: TableSpec) -> None:
        self.parts = parts
        self.spec = spec

    def path(self, k: int) -> Path:
        return self.parts / f"chunk-{k:05d}.parquet"

    def write(self, k: int, table: pa.Table) -> None:
        """Write one chunk atomically with its fingerprint, index, rows and checksum."""
        meta = self.spec.fingerprint() | {
            "chunk": k,
            "rows": table.num_rows,
            "checksum": checksum(table),
        }
        table = table.replace_schema_metadata({META_KEY: json.dumps(meta).encode()})
        try:
            with atomic_open(self.path(k), "wb") as fh:
                pq.write_table(table, fh, **parquet_options(self.spec.opponent, table.schema))
        except OSError as e:
            raise StorageError(
                f"cannot write chunk {self.path(k)}: {describe_os_error(e)}"
            ) from None

    def read(self, k: int) -> pa.Table:
        """Read and verify chunk ``k``; raise TableError naming what is wrong."""
        path = self.path(k)
        try:
            table = pq.read_table(path)
            meta = json.loads((table.schema.metadata or {})[META_KEY])
        except (OSError, KeyError, ValueError, pa.ArrowException) as e:
            raise TableError(f"damaged chunk {path}: {e}") from None
        expected = self.spec.fingerprint()
        foreign = {key: meta.get(key) for key in expected if meta.get(key) != expected[key]}
        if foreign or meta.get("chunk") != k:
            raise TableError(f"chunk {path} belongs to another run ({foreign or 'chunk index'})")
        lo, hi = self.spec.chunk_range(k)
        table = table.replace_schema_metadata(None)
        if table.num_rows != 15 * (hi - lo) or meta.get("checksum") != checksum(table):
            raise TableError(f"damaged chunk {path}: rows or checksum do not match")
        return table

    def ensure(
        self,
        k: int,
        compute: Callable[[int], pa.Table],
        on_warning: Callable[[str], None] | None = None,
    ) -> bool:
        """Reuse chunk ``k`` if it is there and sound (True), else compute and save it.

        A damaged chunk is recomputed (with a warning); a chunk of another run stops
        the job, since mixing runs would be silently wrong.
        """
        if self.path(k).exists():
            try:
                self.read(k)
                return True
            except TableError as e:
                if "another run" in str(e):
                    raise TableError(
                        f"{e}; remove {self.parts} (or pass --restart) to start over"
                    ) from None
                if on_warning:
                    on_warning(f"{e}; recomputing it")
        self.write(k, compute(k))
        return False

    def create(self) -> None:
        try:
            self.parts.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise StorageError(f"cannot create {self.parts}: {describe_os_error(e)}") from None

    def remove(self) -> None:
        shutil.rmtree(self.parts, ignore_errors=True)
