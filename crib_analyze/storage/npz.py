"""Artifact files: one compressed ``.npz`` with a format number, a JSON provenance and a
digest of all of it, written whole or not at all; read with every kind of damage turned
into one line, and with the digest recomputed (a file whose arrays were changed after
it was written is refused, even when it is a valid file).

Large arrays a reader seldom needs can be *deferred*: stored beside the others, each
with its own digest, and the digests (not the bytes) covered by the file's digest. A
read leaves them on disk; :func:`read_deferred` reads one when it is wanted and checks
it against its digest, so a file holding a large board costs nothing to the readers of
its small ones.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np

from crib_analyze import interrupts
from crib_analyze.errors import ModelError, StorageError, describe_os_error
from crib_analyze.storage import checked
from crib_analyze.storage.atomic import atomic_open

try:  # BLAKE2 alone: hashlib loads OpenSSL first, ~3 ms of a one-hand process
    from _blake2 import blake2b as blake2b
except ImportError:  # pragma: no cover - an interpreter built without it
    from hashlib import blake2b as blake2b

T = TypeVar("T")


def arrays_digest(arrays: dict[str, Any]) -> str:
    """A digest of named arrays: names, dtypes, shapes and bytes."""
    h = blake2b(digest_size=16)
    for name in sorted(arrays):
        a = np.ascontiguousarray(arrays[name])
        h.update(f"{name}\0{a.dtype.str}\0{a.shape}\0".encode())
        h.update(a.tobytes())
    return h.hexdigest()


DEFERRED = "deferred"  # the array of the deferred arrays' digests, by name (JSON)
DEFERRED_PREFIX = "deferred."  # a deferred array's key in the file


def write_npz(
    path: str | os.PathLike[str],
    fmt: int,
    provenance: dict[str, Any],
    arrays: dict[str, Any],
    deferred: dict[str, np.ndarray] | None = None,
) -> None:
    """Write ``arrays`` with ``format``, ``provenance`` and the digest of all three,
    atomically (StorageError); and the ``deferred`` arrays, each with its digest."""
    payload = {"format": np.array(fmt), "provenance": np.array(json.dumps(provenance))}
    later = {f"{DEFERRED_PREFIX}{k}": np.ascontiguousarray(v) for k, v in (deferred or {}).items()}
    if deferred:
        digests = {k: arrays_digest({k: v}) for k, v in deferred.items()}
        payload[DEFERRED] = np.array(json.dumps(digests, sort_keys=True))
    payload["digest"] = np.array(arrays_digest(payload | arrays))
    try:
        with atomic_open(path, "wb") as fh:
            np.savez_compressed(fh, **payload, **arrays, **later)  # type: ignore[arg-type]
    except OSError as e:
        raise StorageError(f"cannot write {path}: {describe_os_error(e)}") from None


def read_npz(
    source: str | os.PathLike[str] | Any,
    what: str,
    fmt: int | tuple[int, ...],
    parse: Callable[[dict[str, np.ndarray], dict[str, Any]], T],
) -> T:
    """Read a file written by :func:`write_npz` of format ``fmt`` (or one of them; the
    arrays keep their ``format``) and ``parse(arrays, provenance)`` it; a missing,
    damaged or wrong file is one ModelError naming ``what`` (e.g. "the board table"),
    and so is a file without its digest (nothing to check it against). A path that is a
    FIFO ends at the first Ctrl-C."""
    is_path = isinstance(source, str | os.PathLike)
    name = os.fspath(source) if is_path else getattr(source, "name", str(source))
    try:
        with interrupts.at_once(), np.load(source, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files if not k.startswith(DEFERRED_PREFIX)}
        formats = fmt if isinstance(fmt, tuple) else (fmt,)
        if int(arrays["format"]) not in formats:
            expected = " or ".join(str(f) for f in formats)
            raise ValueError(f"format {int(arrays['format'])}, expected {expected}")
        stored = str(arrays.pop("digest", ""))
        if not stored:
            raise ValueError("it carries no digest, so it cannot be checked")
        if stored != arrays_digest(arrays):
            raise ValueError("its arrays do not match their digest (changed after it was made)")
        provenance = dict(json.loads(str(arrays["provenance"])))
        parsed = parse(arrays, provenance)
    except Exception as e:  # a damaged file, whatever numpy, zipfile or parse raise for it
        raise ModelError(f"cannot read {what} {name}: {e}") from None
    found = int(arrays["format"])
    checked.note(f"{what} ({name})", f"format {found} and digest matched; contents in range")
    return parsed


def deferred_digests(arrays: dict[str, np.ndarray]) -> dict[str, str]:
    """The deferred arrays of a file read by :func:`read_npz`: name -> digest."""
    return dict(json.loads(str(arrays[DEFERRED]))) if DEFERRED in arrays else {}


def read_deferred(source: str | os.PathLike[str], what: str, name: str, digest: str) -> np.ndarray:
    """The deferred array ``name`` of the file at ``source``, checked against the
    ``digest`` its file gave (:func:`deferred_digests`); any damage is one ModelError
    naming ``what``."""
    try:
        with interrupts.at_once(), np.load(source, allow_pickle=False) as data:
            array = np.asarray(data[f"{DEFERRED_PREFIX}{name}"])
        if arrays_digest({name: array}) != digest:
            raise ValueError(f"its {name} does not match its digest (changed after it was made)")
    except Exception as e:  # a damaged file, whatever numpy or zipfile raise for it
        raise ModelError(f"cannot read {what} {os.fspath(source)}: {e}") from None
    return array
