"""Derived arrays kept in the cache folder, which prove themselves on every load.

A cached file is named and stamped by the fingerprint of what it was computed from
(``key``), and written as an artifact file (:mod:`crib_analyze.storage.npz`) with a
digest of its arrays. On load the digest is recomputed, the key compared and the
caller's own check run; a file that fails any of them is never used: it is computed
again, with a one-line notice (logger ``crib_analyze.cache``). A cache folder that
cannot be written only makes the next run slower.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze import notices
from crib_analyze.errors import CribAnalyzeError
from crib_analyze.settings import cache_dir
from crib_analyze.storage import checked
from crib_analyze.storage.npz import read_npz, write_npz

CACHE_FORMAT = 1
log = notices.logger("crib_analyze.cache")

Arrays = dict[str, np.ndarray]


def cache_path(name: str, key: dict[str, str]) -> Path:
    """Where the arrays ``name`` computed from ``key`` are kept."""
    tag = hashlib.blake2b(json.dumps(key, sort_keys=True).encode(), digest_size=8).hexdigest()
    return cache_dir() / f"{name}_{tag}.npz"


def cached_arrays(
    name: str,
    key: dict[str, str],
    compute: Callable[[], Arrays],
    problem: Callable[[Arrays], str | None] = lambda arrays: None,
) -> Arrays:
    """The arrays ``name`` for ``key``: from the cache if the file there passes its
    digest, its key and ``problem`` (None: sound, else what is wrong), else from
    ``compute()``, then kept for the next run."""
    path = cache_path(name, key)
    if path.exists():
        try:
            arrays, stamp = read_npz(path, f"the cached {name}", CACHE_FORMAT, _parse)
            wrong = "made from other inputs" if stamp.get("key") != key else problem(arrays)
        except CribAnalyzeError as e:
            wrong = str(e).split(": ", 1)[-1]  # after "cannot read the cached NAME FILE"
        if wrong is None:
            checked.note(f"the cached {name} ({path})", "digest, key and entries computed again")
            return arrays
        log.warning(f"the cached {name} in {path} was not sound ({wrong}): computing it again")
    arrays = compute()
    checked.note(f"the {name}", "computed (no sound cached copy)")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_npz(path, CACHE_FORMAT, {"key": key}, arrays)
    except (OSError, CribAnalyzeError):
        pass  # an unwritable cache: computed again next time
    return arrays


#: rows a cached array's load computes again and compares (a file rewritten validly, its
#: digest recomputed, with every number changed, is found; one changed row may not be)
SPOT_ROWS = 6


def spot_check(
    cached: np.ndarray, rows: int, compute_rows: Callable[[np.ndarray], np.ndarray], axis: int = 1
) -> str | None:
    """None if ``SPOT_ROWS`` random rows (along ``axis``) of ``cached`` equal
    ``compute_rows(rows)`` computed afresh, else what is wrong (for ``problem``)."""
    picked = np.sort(np.random.default_rng().choice(rows, min(SPOT_ROWS, rows), replace=False))
    fresh = np.asarray(compute_rows(picked))
    if not np.allclose(np.take(cached, picked, axis=axis), fresh, rtol=0.0, atol=1e-9):
        return "rows computed again do not match it"
    return None


def _parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> tuple[Arrays, Any]:
    data = {k: np.asarray(v) for k, v in arrays.items() if k not in ("format", "provenance")}
    return data, provenance
