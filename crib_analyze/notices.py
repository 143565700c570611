"""The library's notices (a kernel compiling, a damaged cache file made again): each
module that gives them takes its logger from :func:`logger`, and a front end that shows
them (:func:`crib_analyze.cli.app.show_notices`) asks :func:`when_logging` to attach its
handler then. A process that gives no notice never imports :mod:`logging` (~3 ms of a
one-hand command).

>>> attached = []
>>> when_logging(lambda: attached.append(True))
>>> logger("crib_analyze.example").name, attached
('crib_analyze.example', [True])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import logging

_waiting: list[Callable[[], None]] = []
_made = False  # a logger has been made: attach at once


def when_logging(attach: Callable[[], None]) -> None:
    """Call ``attach`` when the library makes its first logger (at once if it has)."""
    if _made:
        attach()
    else:
        _waiting.append(attach)


def logger(name: str) -> logging.Logger:
    """The logger ``name`` (under "crib_analyze"), a front end's handler attached first."""
    import logging

    global _made
    _made = True
    while _waiting:
        _waiting.pop(0)()
    return logging.getLogger(name)
