"""Ctrl-C that is safe at any moment.

A compiled kernel cannot be stopped in the middle: an exception raised while one runs
(in particular a parallel one) comes back as a ``SystemError`` or worse. So while a job
runs under :func:`deferred`, SIGINT only marks an interrupt as pending; the job calls
:func:`check` between its chunks, where ``KeyboardInterrupt`` is raised cleanly (the
command line prints "interrupted" and exits 130). A second Ctrl-C before the next
check ends the process at once (exit 130; a temp file it leaves is removed by the next
run of the same writer). Code that waits on the user (standard input) runs under
:func:`immediate`, where Ctrl-C interrupts the wait as usual.

The command line runs every command under :func:`deferred`; the long engine functions
(games, the builds, sampled opponents, positions, the table) carry it too, so a script
or a notebook calling them gets the same clean ``KeyboardInterrupt``. Outside the main
thread, or when some other handler owns SIGINT, both are no-ops.

Some waits have no safe point to stop at and nothing to lose: compiling kernels, and
opening or reading a file that may be a FIFO or a pipe. In the command's own process
(:func:`command_process`) they run under :func:`at_once`, where the first Ctrl-C ends
the process ("interrupted", exit 130). A watcher thread hears the signal through
:func:`signal.set_wakeup_fd` even while the main thread waits inside C code (LLVM, a
blocked ``open``), where no Python handler can run.

>>> with deferred():
...     check()  # nothing pending: returns
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
import time
from collections.abc import Iterator
from types import FrameType

_pending = False
_at_once = 0  # depth of :func:`at_once` bodies running on the main thread
_command = False  # this process is the command line's own (:func:`command_process`)
_FORCED = b"interrupted\n"
_WAIT = b"\nstopping at the end of this step (Ctrl-C again to stop at once)\n"


def _defer(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _pending or (_at_once and _command):  # the second Ctrl-C, or nothing to wait for
        stop_at_once(signum, frame)
    _pending = True
    with contextlib.suppress(OSError, ValueError):
        if os.isatty(2):  # a person is waiting: say why nothing happens yet
            _say(_WAIT)


def _say(message: bytes) -> None:
    with contextlib.suppress(OSError):
        os.write(2, message)


_ENDING = threading.Lock()  # held by the one thread that says "interrupted" and exits


def stop_at_once(signum: int, frame: FrameType | None) -> None:
    """A SIGINT handler for the moments no job runs (start-up, writing the output): the
    one line "interrupted" and exit 130, at once (once: the watcher thread and the
    handler may both get here)."""
    _ENDING.acquire()  # the second one waits here for the exit
    _say(_FORCED)
    os._exit(128 + signal.SIGINT)


#: the handlers :func:`deferred` may stand in for (restoring them afterwards)
_REPLACEABLE = (signal.default_int_handler, stop_at_once)


def _owns_sigint() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextlib.contextmanager
def deferred() -> Iterator[None]:
    """Run the body with SIGINT deferred to the next :func:`check` (or the body's end)."""
    global _pending
    previous = signal.getsignal(signal.SIGINT) if _owns_sigint() else None
    if previous not in _REPLACEABLE:
        yield  # nested, another thread, or the host application handles SIGINT
        return
    _pending = False
    signal.signal(signal.SIGINT, _defer)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
        if _pending:
            _pending = False
            raise KeyboardInterrupt


@contextlib.contextmanager
def immediate() -> Iterator[None]:
    """Run the body (a wait on the user) with Ctrl-C raising at once, as usual."""
    if not _owns_sigint() or signal.getsignal(signal.SIGINT) is not _defer:
        yield
        return
    check()
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, _defer)


def command_process() -> None:
    """Mark this process as the command line's own (call once, on the main thread, at
    start): :func:`at_once` bodies then end it at the first Ctrl-C, heard by a watcher
    thread even while the main thread waits in C code."""
    global _command
    if _command or not _owns_sigint():
        return
    read_end, write_end = os.pipe()
    os.set_blocking(write_end, False)
    try:
        signal.set_wakeup_fd(write_end, warn_on_full_buffer=False)
    except ValueError:  # not the main thread after all
        os.close(read_end)
        os.close(write_end)
        return
    _command = True
    threading.Thread(target=_watch, args=(read_end,), name="ctrl-c", daemon=True).start()


def _watch(read_end: int) -> None:
    """The watcher: a SIGINT during an :func:`at_once` body ends the process."""
    while True:
        try:
            got = os.read(read_end, 64)
        except OSError:
            return
        if not got:
            return
        if signal.SIGINT in got and _at_once and signal.getsignal(signal.SIGINT) is _defer:
            stop_at_once(signal.SIGINT, None)


@contextlib.contextmanager
def at_once() -> Iterator[None]:
    """Run the body (a compile, a wait on a file or a pipe: nothing half done to keep)
    with Ctrl-C ending the command at once, even a Ctrl-C pressed just before. Outside
    the command's own process (a notebook, a script, the tests), or off the main
    thread, the body runs as it would without it."""
    counted = begin_at_once()
    try:
        yield
    finally:
        if counted:
            end_at_once()


def begin_at_once() -> bool:
    """Enter an :func:`at_once` body (for a caller that cannot use ``with``, such as the
    compile listener of :mod:`crib_analyze.jit`); True if counted, to be ended with
    :func:`end_at_once`."""
    global _at_once
    if not _command or not _owns_sigint():
        return False
    if _pending and signal.getsignal(signal.SIGINT) is _defer:
        stop_at_once(signal.SIGINT, None)
    _at_once += 1
    return True


def end_at_once() -> None:
    """Leave an :func:`at_once` body entered by :func:`begin_at_once`."""
    global _at_once
    _at_once = max(0, _at_once - 1)


def check() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed since the job began."""
    global _pending
    if _pending:
        _pending = False
        raise KeyboardInterrupt


def paced(
    total: int, seconds: float, most: int | None = None, step: int = 1
) -> Iterator[tuple[int, int]]:
    """``(first, count)`` of the successive calls of a job over items ``0 .. total``: each
    sized to take about ``seconds`` by the time the one before took (the first is one
    ``step``; a call at most doubles), ``count`` a multiple of ``step`` (but the last)
    and at most ``most``. Ctrl-C is checked before each call. For jobs whose results do
    not depend on how their items are cut into calls.

    >>> [n for _, n in paced(10, seconds=60.0, step=2)]  # fast calls: doubling
    [2, 4, 4]
    """
    first, size = 0, step
    cap = total if most is None else max(step, most)
    while first < total:
        check()
        n = min(size, total - first)
        began = time.perf_counter()
        yield first, n
        took = max(time.perf_counter() - began, 1e-4)
        first += n
        size = step * max(1, min(cap // step, 2 * size // step, int(size * seconds / took) // step))


def pending() -> bool:
    """Whether an interrupt waits for the next :func:`check` (for tests and progress)."""
    return _pending
