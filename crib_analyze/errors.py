"""Domain errors: each carries a one-line message that names what was wrong.

The library raises these and never prints; the command line turns them into
``Error: <message>`` and an exit code (2 for bad input, 1 for failures).

>>> issubclass(CardError, CribAnalyzeError) and issubclass(CardError, ValueError)
True
"""

from __future__ import annotations


class CribAnalyzeError(Exception):
    """Base of every error crib-analyze raises on purpose."""

    #: exit code the command line uses: 2 = bad input (usage), 1 = the work failed
    exit_code = 1


class UsageError(CribAnalyzeError, ValueError):
    """An argument the library cannot accept (wrong choice, out of range).

    A parameter named in the message is written in backticks, ```need```; the command
    line shows it as its option (``--need``)."""

    exit_code = 2


class CardError(UsageError):
    """Bad card input: an unknown rank or suit, a duplicate, the wrong count."""


class ModelError(CribAnalyzeError):
    """An expert model file that cannot be used (missing, damaged, wrong format)."""


class TableError(CribAnalyzeError):
    """A discard table or one of its chunks that cannot be used as asked."""


class StorageError(CribAnalyzeError):
    """A file that cannot be written or read for a reason of the file system
    (read-only folder, full disk, a path under a regular file)."""


def describe_os_error(e: OSError) -> str:
    """``strerror`` of an OSError with its path, one line (no errno tuple)."""
    reason = e.strerror or e.__class__.__name__
    return f"{reason}: {e.filename}" if e.filename else reason
