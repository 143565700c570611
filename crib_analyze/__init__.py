"""crib-analyze: exact, role-aware discard analysis for two-player cribbage.

Public API: :func:`parse_cards`, :func:`format_cards`, :func:`score_hand`,
:func:`score_breakdown`, :func:`analyze`, :func:`load_table`. The heavy parts
(numba, pandas) load on first use, so ``crib-analyze --help`` starts at once.
"""

from __future__ import annotations

from importlib import import_module
from importlib.metadata import PackageNotFoundError, version
from typing import TYPE_CHECKING, Any

from crib_analyze.cards import CardError, format_cards, parse_cards

if TYPE_CHECKING:
    from crib_analyze.api import analyze, load_table
    from crib_analyze.score import Breakdown, score_breakdown, score_hand

try:
    __version__ = version("crib-analyze")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

_LAZY = {
    "analyze": "crib_analyze.api",
    "load_table": "crib_analyze.api",
    "Breakdown": "crib_analyze.score",
    "score_breakdown": "crib_analyze.score",
    "score_hand": "crib_analyze.score",
}

__all__ = [
    "Breakdown",
    "CardError",
    "__version__",
    "analyze",
    "format_cards",
    "load_table",
    "parse_cards",
    "score_breakdown",
    "score_hand",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'crib_analyze' has no attribute {name!r}")
