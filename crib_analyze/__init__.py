"""crib-analyze: exact, role-aware discard analysis for cribbage.

The public API (``dir(crib_analyze)`` lists it; each name is documented where
:mod:`crib_analyze.api` defines it): cards (:func:`parse_cards`, :func:`format_cards`,
:func:`canonical_hand`), the show (:func:`score_hand`, :func:`score_breakdown`,
:func:`count_show`, :func:`start_counting`, :class:`Breakdown`),
discards (:func:`analyze`,
:func:`auction`, :func:`analyze_rows`, :func:`hand_distribution`, :func:`plot_discards`,
:func:`start_quiz`, :func:`start_play_quiz`), the full table
(:func:`generate_table`, :func:`merge_tables`,
:func:`check_table`, :func:`load_table`, :func:`lookup`, :func:`crib_table`,
:func:`plot_crib_tables`), the expert model (:func:`load_model`, :func:`build_model`,
:class:`ExpertModel`), the play (:func:`score_play`, :func:`advise_play`,
:func:`pegging_table`,
:func:`build_pegging`, :func:`build_leads`, :func:`review`; the other games' expert
throws and boards :func:`build_game_models`, :func:`build_game_boards`), the games of the rules
(:func:`games`, :func:`game`; the other games' throws, play, tables,
chances and whole games through :func:`analyze`, :func:`advise_play`, :func:`generate_table`,
:func:`odds_rows` and :func:`simulate` with ``game=``), the board
(:func:`win_probability`, :func:`odds`,
:func:`board_frame`, :func:`deal_points`, :func:`build_board`, :func:`simulate`,
:func:`match_points`, :func:`plot_board`), file places (:func:`paths`) and the errors
they raise (:class:`CribAnalyzeError` and its kinds :class:`CardError`,
:class:`UsageError`, :class:`ModelError`, :class:`TableError`, :class:`StorageError`).
``__version__`` is the package's version. The heavy
parts (numba, pandas) load on first use, so ``import crib_analyze`` is quick.

>>> import crib_analyze as ca
>>> ca.score_hand("5H 5C 5S JD", "5D")
29
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crib_analyze.api import (
        Breakdown,
        advise_play,
        analyze,
        analyze_rows,
        auction,
        board_frame,
        build_board,
        build_game_boards,
        build_game_models,
        build_leads,
        build_model,
        build_pegging,
        check_table,
        count_show,
        crib_table,
        deal_points,
        game,
        games,
        generate_table,
        hand_distribution,
        load_model,
        load_table,
        lookup,
        match_points,
        merge_tables,
        odds,
        odds_rows,
        paths,
        pegging_table,
        plot_board,
        plot_crib_tables,
        plot_discards,
        review,
        score_breakdown,
        score_hand,
        score_play,
        simulate,
        start_counting,
        start_play_quiz,
        start_quiz,
        win_probability,
    )
    from crib_analyze.artifacts.expert_model import ExpertModel
    from crib_analyze.cards import canonical_hand, format_cards, parse_cards
    from crib_analyze.errors import (
        CardError,
        CribAnalyzeError,
        ModelError,
        StorageError,
        TableError,
        UsageError,
    )
    from crib_analyze.settings import __version__

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
    "auction",
    "board_frame",
    "build_board",
    "build_game_boards",
    "build_game_models",
    "build_leads",
    "build_model",
    "build_pegging",
    "canonical_hand",
    "check_table",
    "count_show",
    "crib_table",
    "deal_points",
    "format_cards",
    "game",
    "games",
    "generate_table",
    "hand_distribution",
    "load_model",
    "load_table",
    "lookup",
    "match_points",
    "merge_tables",
    "odds",
    "odds_rows",
    "parse_cards",
    "paths",
    "pegging_table",
    "plot_board",
    "plot_crib_tables",
    "plot_discards",
    "review",
    "score_breakdown",
    "score_hand",
    "score_play",
    "simulate",
    "start_counting",
    "start_play_quiz",
    "start_quiz",
    "win_probability",
]


#: where the public names that do not come from the API live
_HOMES = {
    "ExpertModel": "crib_analyze.artifacts.expert_model",
    "__version__": "crib_analyze.settings",
    **dict.fromkeys(["canonical_hand", "format_cards", "parse_cards"], "crib_analyze.cards"),
    **dict.fromkeys(
        ["CardError", "CribAnalyzeError", "ModelError", "StorageError", "TableError", "UsageError"],
        "crib_analyze.errors",
    ),
}


def __getattr__(name: str) -> Any:
    """Every public name loads on first use (so the command can answer Ctrl-C from its
    first moment, and ``import crib_analyze`` costs nothing), from the public API (which
    loads its parts lazily too) or the module in ``_HOMES``."""
    if name in __all__:
        value = getattr(import_module(_HOMES.get(name, "crib_analyze.api")), name)
        globals()[name] = value  # later lookups skip this hook
        return value
    raise AttributeError(f"module 'crib_analyze' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
