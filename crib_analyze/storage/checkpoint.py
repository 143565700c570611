"""Checkpoints of long builds: the state so far, with the settings it belongs to.

A build saves its state (named arrays) after each finished piece of work, whole or not
at all, with the settings it was started with and a digest of the arrays. On a new
run with the same settings it resumes from the last state; a checkpoint of other
settings, or one whose arrays do not match their digest (damaged), is not used: the
build starts over, with a one-line notice (logger ``crib_analyze.storage``).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze import notices
from crib_analyze.errors import StorageError, describe_os_error
from crib_analyze.storage.atomic import atomic_open
from crib_analyze.storage.npz import arrays_digest

log = notices.logger("crib_analyze.storage")


def checkpoint_beside(path: Path) -> Path | None:
    """Where a build that writes ``path`` keeps its checkpoint: beside it, its folder
    made; None if the folder cannot take a file (no checkpoint: the build's result is
    then not kept either)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=path.parent):
            pass
    except OSError:
        return None
    return path.with_name(f"{path.name}.checkpoint.npz")


def save_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any], arrays: dict[str, np.ndarray]
) -> None:
    """Write the state atomically (nothing when ``path`` is None); StorageError if the
    file system refuses."""
    if path is None:
        return
    meta = {"settings": settings, "digest": arrays_digest(arrays)}
    try:
        with atomic_open(path, "wb") as fh:
            np.savez(fh, checkpoint=np.array(json.dumps(meta)), **arrays)  # type: ignore[arg-type]
    except OSError as e:
        raise StorageError(f"cannot write the checkpoint {path}: {describe_os_error(e)}") from None


def load_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any]
) -> dict[str, np.ndarray] | None:
    """The saved arrays of an interrupted build with the same settings, or None (no
    file, other settings, or damaged)."""
    if path is None or not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["checkpoint"]))
            arrays = {k: np.array(data[k]) for k in data.files if k != "checkpoint"}
        if not isinstance(meta, dict):
            raise ValueError("no settings")
    except Exception as e:  # damaged in any way numpy, zipfile or json can tell: start over
        log.warning(f"the checkpoint {path} is damaged ({e}): starting over")
        return None
    if meta.get("digest") != arrays_digest(arrays):
        log.warning(f"the checkpoint {path} does not match its digest: starting over")
        return None
    if meta.get("settings") != settings:
        log.warning(f"the checkpoint {path} is of a run with other settings: starting over")
        return None
    return arrays


def remove_checkpoint(path: str | os.PathLike[str] | None) -> None:
    """Delete a finished build's checkpoint, if any."""
    if path is not None:
        with contextlib.suppress(OSError):
            os.unlink(path)
