"""Arrays kept uncompressed for a fast read: one file, read in one call, each array a
view of the bytes read, the whole checked by a CRC-32.

A compressed artifact (:mod:`crib_analyze.storage.npz`) is small and carries a digest,
but each read inflates it and hashes it again: ~10 ms for a few MB. The derived arrays a
one-hand process wants at once (an expert model in the form its one-hand path reads)
are kept in this form instead, in the cache folder: a magic line, the length of a JSON
header, the header (each array's name, dtype, shape and offset; the CRC-32 of the data;
the writer's own ``meta``), then the arrays, each on a 64-byte boundary. Written whole
or not at all (:func:`~crib_analyze.storage.atomic.atomic_open`); any damage found on a
read is one :class:`ValueError` saying what.

A *fast form* (:func:`read_fast_form`, :func:`keep_fast_form`) is such a file in the
cache folder made from another file (a packaged model or table): it is keyed by that
file's path, size and modification time, so a changed file is read afresh, and kept
again after.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "x.raw"
>>> write_raw(path, {"made_from": "a test"}, {"a": np.arange(3), "b": np.eye(2)})
>>> meta, arrays = read_raw(path)
>>> meta["made_from"], arrays["a"].tolist(), arrays["b"].shape
('a test', [0, 1, 2], (2, 2))
"""

from __future__ import annotations

import contextlib
import json
import os
import zlib
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze.errors import StorageError
from crib_analyze.settings import cache_dir
from crib_analyze.storage.atomic import atomic_open
from crib_analyze.storage.npz import blake2b

MAGIC = b"crib-analyze raw arrays 1\n"
KEEP_FAST_FORMS = 12  # fast forms kept of each kind (the newest): older ones are removed
_ALIGN = 64
_LENGTH_BYTES = 8


def write_raw(path: str | os.PathLike[str], meta: dict[str, Any], arrays: dict[str, Any]) -> None:
    """Write ``arrays`` (numeric, any shape) and ``meta`` (JSON) to ``path``, atomically;
    an OSError if it cannot be written."""
    parts, index, offset = [], [], 0
    for name, value in arrays.items():
        a = np.ascontiguousarray(value)
        if a.dtype.hasobject:
            raise TypeError(f"{name}: object arrays are not kept raw")
        offset = -(-offset // _ALIGN) * _ALIGN
        index.append([name, a.dtype.str, list(a.shape), offset])
        parts.append((offset, a.tobytes()))
        offset += a.nbytes
    data = bytearray(offset)
    for at, raw in parts:
        data[at : at + len(raw)] = raw
    header = json.dumps({"arrays": index, "crc32": zlib.crc32(data), "meta": meta}).encode()
    with atomic_open(path, "wb") as fh:
        fh.write(MAGIC + len(header).to_bytes(_LENGTH_BYTES, "little") + header)
        fh.write(data)


def read_raw(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(meta, arrays) of a file :func:`write_raw` wrote; the arrays are read-only views of
    the bytes read. An OSError if it cannot be read; a ValueError naming the damage."""
    with open(path, "rb") as fh:
        blob = fh.read()
    if not blob.startswith(MAGIC):
        raise ValueError("not a file of raw arrays")
    start = len(MAGIC) + _LENGTH_BYTES
    length = int.from_bytes(blob[len(MAGIC) : start], "little")
    try:
        header = json.loads(blob[start : start + length])
        index, crc, meta = header["arrays"], int(header["crc32"]), dict(header["meta"])
    except (ValueError, KeyError, TypeError) as e:
        raise ValueError(f"its header is damaged ({e})") from None
    data = memoryview(blob)[start + length :]
    if zlib.crc32(data) != crc:
        raise ValueError("its arrays do not match their CRC-32 (damaged)")
    arrays = {}
    try:
        for name, dtype, shape, offset in index:
            dt = np.dtype(dtype)
            count = int(np.prod(shape, dtype=np.int64))
            if offset < 0 or offset + count * dt.itemsize > len(data):
                raise ValueError(f"{name} runs past the end of the file")
            arrays[str(name)] = np.frombuffer(data, dt, count, offset).reshape(shape)
    except (TypeError, ValueError) as e:
        raise ValueError(f"its index is damaged ({e})") from None
    return meta, arrays


# --- fast forms: a file's arrays kept raw in the cache folder ------------------------------


def fast_form_path(
    path: Path, kind: str, version: int, code: tuple[str, ...] = ()
) -> tuple[Path, dict[str, Any]]:
    """Where the fast form of ``kind`` (e.g. "expert_model") made from the file at
    ``path`` is kept, and the key it must carry: the file's resolved path, size and
    modification time, the form's layout ``version``, and a digest of the source files
    ``code`` that make and read it (an edit to them makes it again; an OSError if a
    file is gone)."""
    st = path.stat()
    made_by = blake2b(digest_size=8)
    for source in code:
        with open(source, "rb") as fh:
            made_by.update(fh.read())
    key = {"file": str(path.resolve()), "size": st.st_size, "mtime_ns": st.st_mtime_ns,
           "kind": kind, "version": version, "code": made_by.hexdigest()}  # fmt: skip
    tag = blake2b(json.dumps(key, sort_keys=True).encode(), digest_size=8).hexdigest()
    return cache_dir() / f"{kind}_{tag}.raw", key


def read_fast_form(
    path: Path, kind: str, version: int, names: frozenset[str], code: tuple[str, ...] = ()
) -> tuple[dict[str, Any], dict[str, np.ndarray], Path] | None:
    """(meta, arrays, where) of the fast form of the file at ``path`` if one is kept,
    carries this file's key and holds exactly ``names``; else None (none kept, damaged,
    or of another file, layout or code: the caller reads the file and keeps it again)."""
    try:
        where, key = fast_form_path(path, kind, version, code)
        meta, arrays = read_raw(where)
    except (OSError, ValueError):
        return None
    if meta.get("key") != key or set(arrays) != names:
        return None
    with contextlib.suppress(OSError):
        os.utime(where)  # the newest in use: kept when older ones are removed
    return meta, arrays, where


def keep_fast_form(
    path: Path,
    kind: str,
    version: int,
    meta: dict[str, Any],
    arrays: dict[str, Any],
    code: tuple[str, ...] = (),
) -> None:
    """Keep ``arrays`` and ``meta`` as the fast form of the file at ``path``; a cache
    folder that cannot be written only makes the next read slower."""
    try:
        where, key = fast_form_path(path, kind, version, code)
        where.parent.mkdir(parents=True, exist_ok=True)
        write_raw(where, meta | {"key": key}, arrays)
    except (OSError, StorageError):
        return
    _remove_old(where.parent, kind)


def _remove_old(folder: Path, kind: str) -> None:
    """Remove all but the newest :data:`KEEP_FAST_FORMS` fast forms of ``kind`` in
    ``folder`` (those of files since changed, or of code since edited, are never read
    again)."""

    def age(p: Path) -> int:
        try:
            return p.stat().st_mtime_ns
        except OSError:
            return 0

    kept = sorted(folder.glob(f"{kind}_*.raw"), key=age, reverse=True)
    for old in kept[KEEP_FAST_FORMS:]:
        with contextlib.suppress(OSError):
            old.unlink()
