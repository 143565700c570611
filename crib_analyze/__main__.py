"""The ``crib-analyze`` command (and ``python -m crib_analyze``): :func:`run`.

Ctrl-C is answered from the first moment: before the command line is even imported,
SIGINT ends the process with the one line "interrupted" and exit 130; once a command
runs, :mod:`crib_analyze.interrupts` defers it to the next safe point.

The process is the command's own, so before numpy loads it takes the environment of
:data:`~crib_analyze.settings.PROCESS_ENVIRONMENT` (a variable the user set wins).
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import os
import signal
import sys

#: objects allocated (less those freed) before the cyclic garbage collector's youngest
#: pass, in the command's own process (Python's default: 700). Starting a command makes
#: tens of thousands of objects that all live (modules, classes, functions), and the
#: default ran ~50 passes over them in a one-hand answer, ~4 ms of its ~0.12 s
#: (benchmarks/README.md). A long job does about as much collecting work per object as
#: before, in fewer and larger passes, and holds at most that many objects of cycles
#: not yet collected.
GC_THRESHOLD = 100_000


def prepare_process() -> None:
    """Set the command's environment variables the user has not set."""
    from crib_analyze.settings import PROCESS_ENVIRONMENT

    for name, value in PROCESS_ENVIRONMENT:
        os.environ.setdefault(name, value)


def main() -> None:
    """Run the command line."""
    from crib_analyze import interrupts

    signal.signal(signal.SIGINT, interrupts.stop_at_once)
    interrupts.command_process()  # a compile or a blocked read ends at the first Ctrl-C
    prepare_process()
    try:
        from crib_analyze.cli import main as run

        run()
    finally:  # the work is done and said: a late Ctrl-C does not change the exit code
        signal.signal(signal.SIGINT, signal.SIG_IGN)


def run() -> None:
    """The console script: :func:`main`, then the end of the process at once.

    The command's work is done and said when :func:`main` exits: standard output and
    error are flushed and the exit handlers run (logging, temp folders), then the process
    ends without the interpreter's teardown of every module, which took ~60 ms of a
    0.3 s run on 2 cores (benchmarks/README.md). Garbage is collected less often while
    it runs (:data:`GC_THRESHOLD`)."""
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])
    try:
        main()
        code: str | int | None = 0
    except SystemExit as e:
        code = e.code
    if not isinstance(code, int | None):
        sys.exit(code)  # a message to print: the interpreter's own way
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    atexit._run_exitfuncs()
    os._exit(code or 0)


if __name__ == "__main__":
    run()
