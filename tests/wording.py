"""Reading the command's words in tests, whatever the width they were wrapped to: a
long temp path or file name moves the line breaks, never the words."""

from __future__ import annotations


def unwrapped(text: str) -> str:
    """``text`` with every run of whitespace (line breaks and the indent of a wrapped
    line included) as one space: phrases can be looked for across a wrap.

    >>> unwrapped("from /a/long/path (hand\\n  7, random opponent)")
    'from /a/long/path (hand 7, random opponent)'
    """
    return " ".join(text.split())
