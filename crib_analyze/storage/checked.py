"""What this process read and how each file was checked, for ``--verbose``.

Every reader of a file the results depend on (the expert model, the pegging and board
tables, the solver's leads, a discard table, a cached array) notes here what it checked
as it read: its digest, its format, its contents. A command run with ``--verbose``
lists the notes, so a user can see that nothing was read unchecked.

>>> note("a table (t.parquet)", "its digest matched")
>>> "a table (t.parquet): its digest matched" in notes()
True
"""

from __future__ import annotations

_NOTES: dict[str, str] = {}


def note(what: str, how: str) -> None:
    """Record that ``what`` was read and checked by ``how`` (the last word for a file wins)."""
    _NOTES[what] = how


def notes() -> list[str]:
    """The files read so far, each with how it was checked, in the order first read."""
    return [f"{what}: {how}" for what, how in _NOTES.items()]


def clear() -> None:
    """Forget the notes (a new command in the same process)."""
    _NOTES.clear()
