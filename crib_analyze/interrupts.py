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

>>> with deferred():
...     check()  # nothing pending: returns
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Iterator
from types import FrameType

_pending = False
_FORCED = b"interrupted\n"
_WAIT = b"\nstopping at the end of this step (Ctrl-C again to stop at once)\n"


def _defer(signum: int, frame: FrameType | None) -> None:
    global _pending
    if _pending:  # the second Ctrl-C: the user will not wait for the next check
        _say(_FORCED)
        os._exit(128 + signal.SIGINT)
    _pending = True
    with contextlib.suppress(OSError, ValueError):
        if os.isatty(2):  # a person is waiting: say why nothing happens yet
            _say(_WAIT)


def _say(message: bytes) -> None:
    with contextlib.suppress(OSError):
        os.write(2, message)


def stop_at_once(signum: int, frame: FrameType | None) -> None:
    """A SIGINT handler for the moments no job runs (start-up, writing the output): the
    one line "interrupted" and exit 130, at once."""
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


def check() -> None:
    """Raise ``KeyboardInterrupt`` if Ctrl-C was pressed since the job began."""
    global _pending
    if _pending:
        _pending = False
        raise KeyboardInterrupt


def pending() -> bool:
    """Whether an interrupt waits for the next :func:`check` (for tests and progress)."""
    return _pending
