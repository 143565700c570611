"""crib-analyze: exact, role-aware discard analysis for two-player cribbage.

Public API: :func:`parse_cards`, :func:`format_cards`, :func:`score_hand`,
:func:`score_breakdown`, :func:`analyze`.
"""

from importlib.metadata import PackageNotFoundError, version

from crib_analyze.api import analyze
from crib_analyze.cards import CardError, format_cards, parse_cards
from crib_analyze.score import Breakdown, score_breakdown, score_hand

try:
    __version__ = version("crib-analyze")
except PackageNotFoundError:  # running from a source tree without installation
    __version__ = "0+unknown"

__all__ = [
    "Breakdown",
    "CardError",
    "__version__",
    "analyze",
    "format_cards",
    "parse_cards",
    "score_breakdown",
    "score_hand",
]
