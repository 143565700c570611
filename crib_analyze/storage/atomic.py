"""Files that appear whole or not at all: write a temp file beside the target, then rename.

A target that exists and is not a regular file (``/dev/stdout``, a named pipe,
``/dev/full``) is written in place instead: it cannot be replaced, and a device or
pipe was asked for on purpose.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any


@contextlib.contextmanager
def atomic_open(path: str | os.PathLike[str], mode: str = "w") -> Iterator[IO[Any]]:
    """Open a temp file in the target's folder; on success rename it over ``path``.

    On any exception the temp file is removed and ``path`` is left untouched.
    """
    target = Path(path)
    encoding = None if "b" in mode else "utf-8"
    if _is_special(target):  # a device or pipe: write in place
        with open(target, mode, encoding=encoding) as fh:
            yield fh
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, mode, encoding=encoding) as fh:
            yield fh
            fh.flush()
            os.fsync(fh.fileno())
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; give the usual permissions
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def _is_special(path: Path) -> bool:
    """True for an existing target that is neither a regular file nor a folder."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` atomically."""
    with atomic_open(path, "w") as fh:
        fh.write(text)
