"""crib-analyze: exact, role-aware discard analysis for two-player cribbage.

The public API (``dir(crib_analyze)`` lists it): cards (:func:`parse_cards`,
:func:`format_cards`, :func:`canonical_hand`), scoring (:func:`score_hand`,
:func:`score_breakdown`, :func:`count_show`), discards (:func:`analyze`), the full table
(:func:`generate_table`, :func:`merge_tables`, :func:`check_table`,
:func:`load_table`, :func:`crib_table`), the expert model (:func:`load_model`,
:func:`build_model`), the play (:func:`score_play`, :func:`advise_play`,
:func:`pegging_table`), the board (:func:`win_probability`, :func:`odds`,
:func:`board_frame`, :func:`deal_points`, :func:`build_board`, :func:`simulate`), file places
(:func:`paths`) and the errors they raise. The heavy parts (numba, pandas) load on first use, so
``import crib_analyze`` is quick.

>>> import crib_analyze as ca
>>> ca.score_hand("5H 5C 5S JD", "5D")
29
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from crib_analyze.cards import canonical_hand, format_cards, parse_cards
from crib_analyze.defaults import __version__
from crib_analyze.errors import (
    CardError,
    CribAnalyzeError,
    ModelError,
    StorageError,
    TableError,
    UsageError,
)

if TYPE_CHECKING:
    from crib_analyze.api import (
        advise_play,
        analyze,
        analyze_rows,
        board_frame,
        build_board,
        build_model,
        build_pegging,
        check_table,
        crib_table,
        deal_points,
        generate_table,
        hand_distribution,
        load_model,
        load_table,
        lookup,
        merge_tables,
        odds,
        paths,
        pegging_table,
        plot_board,
        plot_crib_tables,
        plot_discards,
        score_play,
        simulate,
        win_probability,
    )
    from crib_analyze.counting import count_show
    from crib_analyze.expert_model import ExpertModel
    from crib_analyze.score import Breakdown, score_breakdown, score_hand

_LAZY = {
    "analyze": "crib_analyze.api",
    "advise_play": "crib_analyze.api",
    "count_show": "crib_analyze.counting",
    "build_model": "crib_analyze.api",
    "check_table": "crib_analyze.api",
    "crib_table": "crib_analyze.api",
    "generate_table": "crib_analyze.api",
    "load_model": "crib_analyze.api",
    "load_table": "crib_analyze.api",
    "lookup": "crib_analyze.api",
    "hand_distribution": "crib_analyze.api",
    "analyze_rows": "crib_analyze.api",
    "plot_discards": "crib_analyze.api",
    "plot_crib_tables": "crib_analyze.api",
    "merge_tables": "crib_analyze.api",
    "paths": "crib_analyze.api",
    "pegging_table": "crib_analyze.api",
    "build_pegging": "crib_analyze.api",
    "board_frame": "crib_analyze.api",
    "deal_points": "crib_analyze.api",
    "build_board": "crib_analyze.api",
    "odds": "crib_analyze.api",
    "plot_board": "crib_analyze.api",
    "win_probability": "crib_analyze.api",
    "simulate": "crib_analyze.api",
    "ExpertModel": "crib_analyze.expert_model",
    "Breakdown": "crib_analyze.score",
    "score_breakdown": "crib_analyze.score",
    "score_play": "crib_analyze.api",
    "score_hand": "crib_analyze.score",
}

__all__ = [
    "Breakdown",
    "CardError",
    "CribAnalyzeError",
    "ExpertModel",
    "ModelError",
    "StorageError",
    "TableError",
    "UsageError",
    "__version__",
    "advise_play",
    "analyze",
    "analyze_rows",
    "board_frame",
    "build_board",
    "build_model",
    "build_pegging",
    "canonical_hand",
    "check_table",
    "count_show",
    "crib_table",
    "deal_points",
    "format_cards",
    "generate_table",
    "hand_distribution",
    "load_model",
    "load_table",
    "lookup",
    "merge_tables",
    "odds",
    "parse_cards",
    "paths",
    "pegging_table",
    "plot_board",
    "plot_crib_tables",
    "plot_discards",
    "score_breakdown",
    "score_hand",
    "score_play",
    "simulate",
    "win_probability",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        value = getattr(import_module(_LAZY[name]), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'crib_analyze' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
