"""What names the compiled kernels: a digest of the source of every kernel module.

A kernel module is one that compiles through :mod:`crib_analyze.jit` (it imports
``njit`` from it); the import contract (``tools/import_contracts.py``) lets such a
module import only other kernel modules and the foundation modules in
:data:`FOUNDATION`, so the digest of all of those covers every line a kernel can run.
The kernel cache folder is named by it, and so is anything cached that kernels
computed (:mod:`crib_analyze.storage.cache`): a changed kernel never meets old numbers.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
#: the foundation modules kernels may import besides other kernels (the import contract
#: of pyproject.toml holds kernels to these, so the digest below covers all they read)
FOUNDATION = ("constants", "jit", "kernel_source")
_MARK = b"from crib_analyze.jit import"


@cache
def source_digest() -> str:
    """Digest of every kernel module (those compiling through :mod:`crib_analyze.jit`)
    and the foundation modules they may read constants from."""
    return digest_of(_PACKAGE)


def digest_of(package: Path) -> str:
    """:func:`source_digest` of the package in folder ``package``."""
    h = hashlib.blake2b(digest_size=8)
    for path in sorted(package.rglob("*.py")):
        text = path.read_bytes()
        top_level = path.parent == package and path.stem in FOUNDATION
        if top_level or _MARK in text:
            h.update(str(path.relative_to(package)).encode() + b"\0" + text + b"\0")
    return h.hexdigest()
