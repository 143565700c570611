"""Numbers in words as players read them: a count with its noun in the right number.

>>> counted(1, "hand"), counted(1638, "hand"), counted(2, "chunk", "computed")
('1 hand', '1,638 hands', '2 chunks computed')
"""

from __future__ import annotations


def counted(n: int, noun: str, after: str = "", plural: str | None = None) -> str:
    """``n`` (with thousands separators) and ``noun``, plural unless ``n`` is 1 (``plural``
    if the noun's plural is not noun + s), then ``after``."""
    word = noun if n == 1 else plural or noun + "s"
    return f"{n:,} {word}" + (f" {after}" if after else "")
