"""The one way kernels are compiled: ``numba.njit`` with a cache that cannot go stale.

numba's on-disk cache checks only the file that defines a kernel (its time stamp
and size); a kernel that calls or inlines a kernel from another file keeps its
stale machine code when only that other file changes. Here every kernel is cached
under a folder named by a digest of the source of all kernel modules and of the
modules below them (:mod:`crib_analyze.kernel_source`; the import contract lets
kernels import nothing else):

    <cache dir>/numba-<numba version>/<digest>/

so any change to any of those files, including a new installed version, compiles
afresh instead of reusing old code. Each cache file is sealed with a digest: a damaged
one is dropped and its kernel recompiled, with a notice. The cache dir is
``$CRIB_ANALYZE_CACHE_DIR``, else the user cache directory (``~/.cache/crib-analyze``);
nothing is written into the package. Where no cache folder can be written, kernels
compile on each run.

A kernel is compiled once for the types it is called with: a kernel that calls
another with a constant (``solve(..., 0, 3)``) does not make numba compile the callee
again for that constant (:class:`_Dispatcher`).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import pickle
import threading
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, ClassVar, TypeVar, overload

import numba
from numba.core import caching as _caching
from numba.core import config as _config
from numba.core import event as _event
from numba.core import registry as _registry
from numba.core import types as _types

from crib_analyze import interrupts, notices
from crib_analyze.kernel_source import source_digest
from crib_analyze.settings import FIRST_COMPILE_RECORD, cache_dir, serial_kernels

F = TypeVar("F", bound=Callable[..., Any])
config: Any = _config  # numba sets its options as module attributes at import


@cache
def kernel_cache_dir() -> str:
    """The cache folder of this exact kernel source (serial kernels apart)."""
    serial = "-serial" if serial_kernels() else ""
    return str(cache_dir() / f"numba-{numba.__version__}" / (source_digest() + serial))


KEEP_CACHES = 4  # digest folders kept per numba version (the newest by use)

#: the logger of compile notices (the command line shows them, in one line)
log = notices.logger("crib_analyze.jit")


class _FirstCompile(_event.Listener):
    """Logs once per process, when numba starts compiling a kernel (a cache miss); and
    while the main thread compiles, lets the command's first Ctrl-C end it at once
    (:func:`crib_analyze.interrupts.at_once`: a compile has no safe point to stop at, and
    nothing to lose)."""

    said = False
    held: ClassVar[list[bool]] = []  # per compile on the main thread: counted at once

    def on_start(self, event: Any) -> None:
        if threading.current_thread() is threading.main_thread():
            _FirstCompile.held.append(interrupts.begin_at_once())
        if not _FirstCompile.said:
            _FirstCompile.said = True
            where = kernel_cache_dir() if _cache_usable() else None
            log.info(
                f"compiling kernels, once (cached in {where})"
                if where
                else "compiling kernels (no cache folder can be written: every run compiles)",
                extra={FIRST_COMPILE_RECORD: where or ""},  # the command line words it (cli.app)
            )

    def on_end(self, event: Any) -> None:
        on_main = threading.current_thread() is threading.main_thread()
        if on_main and _FirstCompile.held and _FirstCompile.held.pop():
            interrupts.end_at_once()


_event.register("numba:compile", _FirstCompile())  # type: ignore[no-untyped-call]


@cache
def _cache_usable() -> bool:
    here = Path(kernel_cache_dir())
    try:
        here.mkdir(parents=True, exist_ok=True)
        os.utime(here)  # mark it as the newest in use
        _prune(here)
    except OSError:
        return False
    return os.access(here, os.W_OK)


def _prune(here: Path) -> None:
    """Remove all but the newest KEEP_CACHES digest folders beside ``here``: old
    sources' kernels, which a changed digest never reads again."""
    import shutil

    others = sorted(
        (p for p in here.parent.iterdir() if p.is_dir() and p != here),
        key=lambda p: p.stat().st_mtime,
        reverse=True,
    )
    for old in others[KEEP_CACHES - 1 :]:
        shutil.rmtree(old, ignore_errors=True)


_SEAL = b"crib-analyze sealed\0"
_SAID: set[str] = set()


def _sealed(payload: bytes) -> bytes:
    return _SEAL + hashlib.blake2b(payload, digest_size=16).digest() + payload


def _opened(raw: bytes) -> bytes:
    """The payload of a sealed file, or ValueError if it does not match its digest."""
    head, payload = raw[: len(_SEAL) + 16], raw[len(_SEAL) + 16 :]
    if head != _SEAL + hashlib.blake2b(payload, digest_size=16).digest():
        raise ValueError("it does not match its checksum")
    return payload


def _damaged(path: str, e: BaseException) -> None:
    """Drop a damaged cache file (its kernel is recompiled); say so once per process."""
    with contextlib.suppress(OSError):
        os.unlink(path)
    reason = str(e).splitlines()[0] if str(e) else type(e).__name__
    if _SAID:
        log.debug(f"damaged cache file {path}: {reason}")
    else:
        _SAID.add(path)
        log.warning(
            f"the kernel cache held damaged files (first: {path}: {reason}); "
            "recompiling those kernels"
        )


class _CheckedCacheFile(_caching.IndexDataCacheFile):
    """numba's index and data files, each sealed with a digest: a damaged entry
    (truncated, flipped, overwritten) is dropped and its kernel recompiled with a
    notice, instead of failing every later run with a pickle or LLVM error."""

    def _save_index(self, overloads: dict[Any, str]) -> None:
        payload = self._dump((self._source_stamp, overloads))  # type: ignore[no-untyped-call]
        with self._open_for_write(self._index_path) as f:
            pickle.dump(self._version, f, protocol=-1)
            f.write(_sealed(payload))

    def _load_index(self) -> dict[Any, str]:
        try:
            with open(self._index_path, "rb") as f:
                version = pickle.load(f)
                data = f.read()
        except FileNotFoundError:
            return {}
        except Exception as e:  # whatever a damaged pickle raises
            _damaged(self._index_path, e)
            return {}
        if version != self._version:
            return {}
        try:
            stamp, overloads = pickle.loads(_opened(data))
            if not isinstance(overloads, dict):
                raise ValueError("not an index")
        except Exception as e:
            _damaged(self._index_path, e)
            return {}
        return overloads if stamp == self._source_stamp else {}

    def _save_data(self, name: str, data: Any) -> None:
        path = self._data_path(name)  # type: ignore[no-untyped-call]
        with self._open_for_write(path) as f:
            f.write(_sealed(self._dump(data)))  # type: ignore[no-untyped-call]

    def _load_data(self, name: str) -> Any:
        path = self._data_path(name)  # type: ignore[no-untyped-call]
        with open(path, "rb") as f:
            raw = f.read()
        try:
            return pickle.loads(_opened(raw))
        except Exception as e:
            _damaged(path, e)
            raise FileNotFoundError(path) from None  # numba's load: a miss, then compile


def _check_cache_files(kernel: Any) -> None:
    """Seal the cache files of a numba dispatcher (see :class:`_CheckedCacheFile`)."""
    cache_file = getattr(getattr(kernel, "_cache", None), "_cache_file", None)
    if type(cache_file) is _caching.IndexDataCacheFile:
        cache_file.__class__ = _CheckedCacheFile


class _Dispatcher(_registry.CPUDispatcher):
    """numba's dispatcher, but a kernel called from another with a constant argument
    is compiled for the constant's type, not for the constant itself: numba would
    compile it once more for each constant it is called with (``solve(..., 0, 3)``
    beside ``solve(..., first, last)``): 2 s of the 10 s of a first ``play --game``."""

    def get_call_template(self, args: Any, kws: Any) -> Any:
        plain: Callable[[Any], Any] = _types.unliteral
        return super().get_call_template(
            tuple(plain(a) for a in args), {k: plain(v) for k, v in kws.items()}
        )


@overload
def njit(func: F) -> F: ...


@overload
def njit(func: None = None, **options: Any) -> Callable[[F], F]: ...


def njit(func: F | None = None, **options: Any) -> F | Callable[[F], F]:
    """``numba.njit(cache=True, **options)`` caching in :func:`kernel_cache_dir`.

    Use as ``@njit`` or ``@njit(parallel=True, ...)``. For type checkers a kernel keeps
    the signature of its Python function (numba's dispatcher calls it with the same
    arguments and returns what the function returns). With
    ``$CRIB_ANALYZE_SERIAL_KERNELS`` set, ``parallel`` is dropped (make test).
    """
    if serial_kernels():
        options.pop("parallel", None)

    def decorate(f: F) -> F:
        kernel: F
        if not _cache_usable():  # never fall back to numba's own (stale-prone) places
            kernel = numba.njit(cache=False, **options)(f)
        else:
            previous = config.CACHE_DIR
            config.CACHE_DIR = kernel_cache_dir()  # read once, when caching is enabled
            try:
                kernel = numba.njit(cache=True, **options)(f)
                _check_cache_files(kernel)
            except RuntimeError:  # no writable cache location anywhere: compile every run
                kernel = numba.njit(cache=False, **options)(f)
            finally:
                config.CACHE_DIR = previous
        if type(kernel) is _registry.CPUDispatcher:
            kernel.__class__ = _Dispatcher  # type: ignore[assignment]
        return kernel

    return decorate(func) if func is not None else decorate
