"""The public Python API: every capability of the command line, as functions.

Results are pandas DataFrames or small records (or, for quick batch work, the numpy
columns of :class:`~crib_analyze.results.Rows`); problems are typed exceptions from
:mod:`crib_analyze.errors` (:class:`CardError`, :class:`UsageError`,
:class:`ModelError`, :class:`TableError`, :class:`StorageError`) with one-line
messages. Nothing here prints. Every parameter is validated here, once, against the
bounds of :mod:`crib_analyze.settings`; the command line adds no rule of its own.

By subject: :mod:`~crib_analyze.api.discards` (a hand's throws),
:mod:`~crib_analyze.api.plays` (the play), :mod:`~crib_analyze.api.tables` (the full
table), :mod:`~crib_analyze.api.board` (the board and whole games),
:mod:`~crib_analyze.api.builds` (the model and tables that ship, rebuilt),
:mod:`~crib_analyze.api.shows` (counting a show), :mod:`~crib_analyze.api.rulebook` (the
games of the rules) and
:mod:`~crib_analyze.api.files` (where files go).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crib_analyze.api.board import (
        Odds,
        board_frame,
        deal_points,
        match_points,
        odds,
        odds_rows,
        plot_board,
        simulate,
        win_probability,
    )
    from crib_analyze.api.board_requests import OddsRequest, SimulateRequest
    from crib_analyze.api.builds import (
        BuiltModel,
        BuiltTable,
        build_board,
        build_game_boards,
        build_game_models,
        build_leads,
        build_model,
        build_pegging,
        load_model,
    )
    from crib_analyze.api.capabilities import check_game
    from crib_analyze.api.discards import (
        analyze,
        analyze_rows,
        auction,
        auction_rows,
        check_discard_options,
        discard_rows_for,
        hand_distribution,
        plot_discards,
        prefer_kernels,
        start_quiz,
    )
    from crib_analyze.api.files import (
        Paths,
        check_plot,
        files_checked,
        output_file,
        paths,
    )
    from crib_analyze.api.play_requests import PlayRequest, ReviewRequest
    from crib_analyze.api.plays import (
        advise_play,
        advise_play_rows,
        pegging_table,
        play_grade_frame,
        play_grade_rows,
        review,
        review_text_record,
        score_play,
        score_play_rows,
        start_play_quiz,
    )
    from crib_analyze.api.requests import DiscardRequest
    from crib_analyze.api.rulebook import Rules, game, games, games_rows
    from crib_analyze.api.shows import (
        Breakdown,
        Show,
        count_show,
        score_breakdown,
        score_hand,
        start_counting,
    )
    from crib_analyze.api.table_requests import TableRequest
    from crib_analyze.api.tables import (
        check_table,
        crib_table,
        generate_table,
        load_table,
        lookup,
        merge_tables,
        plot_crib_tables,
    )
    from crib_analyze.board.meta import OddsMeta
    from crib_analyze.discard.auction_meta import AuctionMeta
    from crib_analyze.discard.game_meta import GameThrowsMeta
    from crib_analyze.discard.meta import DiscardMeta
    from crib_analyze.game_review.result import ReviewMeta
    from crib_analyze.play.meta import GameAdviceMeta, PlayMeta, ScoredPlayMeta
    from crib_analyze.results import ResultMeta
    from crib_analyze.table.meta import CribTableMeta, LookupMeta

#: each public name and the module that defines it (loaded on first use, so that
#: ``from crib_analyze.api import odds`` does not load the discard engine's kernels)
EXPORTS = {
    "DiscardMeta": "crib_analyze.discard.meta",
    "PlayMeta": "crib_analyze.play.meta",
    "OddsMeta": "crib_analyze.board.meta",
    "AuctionMeta": "crib_analyze.discard.auction_meta",
    "LookupMeta": "crib_analyze.table.meta",
    "CribTableMeta": "crib_analyze.table.meta",
    "ReviewMeta": "crib_analyze.game_review.result",
    "GameAdviceMeta": "crib_analyze.play.meta",
    "GameThrowsMeta": "crib_analyze.discard.game_meta",
    "ScoredPlayMeta": "crib_analyze.play.meta",
    "ResultMeta": "crib_analyze.results",
    "DiscardRequest": "crib_analyze.api.requests",
    "TableRequest": "crib_analyze.api.table_requests",
    "ReviewRequest": "crib_analyze.api.play_requests",
    "OddsRequest": "crib_analyze.api.board_requests",
    "PlayRequest": "crib_analyze.api.play_requests",
    "SimulateRequest": "crib_analyze.api.board_requests",
    "discard_rows_for": "crib_analyze.api.discards",
    "check_game": "crib_analyze.api.capabilities",
    "BuiltModel": "crib_analyze.api.builds",
    "BuiltTable": "crib_analyze.api.builds",
    "build_board": "crib_analyze.api.builds",
    "build_game_boards": "crib_analyze.api.builds",
    "build_game_models": "crib_analyze.api.builds",
    "build_leads": "crib_analyze.api.builds",
    "build_model": "crib_analyze.api.builds",
    "build_pegging": "crib_analyze.api.builds",
    "load_model": "crib_analyze.api.builds",
    "analyze": "crib_analyze.api.discards",
    "auction": "crib_analyze.api.discards",
    "auction_rows": "crib_analyze.api.discards",
    "analyze_rows": "crib_analyze.api.discards",
    "start_counting": "crib_analyze.api.shows",
    "start_quiz": "crib_analyze.api.discards",
    "check_discard_options": "crib_analyze.api.discards",
    "check_plot": "crib_analyze.api.files",
    "hand_distribution": "crib_analyze.api.discards",
    "prefer_kernels": "crib_analyze.api.discards",
    "plot_discards": "crib_analyze.api.discards",
    "Paths": "crib_analyze.api.files",
    "Rules": "crib_analyze.api.rulebook",
    "game": "crib_analyze.api.rulebook",
    "games": "crib_analyze.api.rulebook",
    "games_rows": "crib_analyze.api.rulebook",
    "files_checked": "crib_analyze.api.files",
    "output_file": "crib_analyze.api.files",
    "paths": "crib_analyze.api.files",
    "Odds": "crib_analyze.api.board",
    "board_frame": "crib_analyze.api.board",
    "deal_points": "crib_analyze.api.board",
    "match_points": "crib_analyze.api.board",
    "odds": "crib_analyze.api.board",
    "odds_rows": "crib_analyze.api.board",
    "plot_board": "crib_analyze.api.board",
    "simulate": "crib_analyze.api.board",
    "win_probability": "crib_analyze.api.board",
    "advise_play": "crib_analyze.api.plays",
    "advise_play_rows": "crib_analyze.api.plays",
    "play_grade_frame": "crib_analyze.api.plays",
    "play_grade_rows": "crib_analyze.api.plays",
    "start_play_quiz": "crib_analyze.api.plays",
    "pegging_table": "crib_analyze.api.plays",
    "review": "crib_analyze.api.plays",
    "review_text_record": "crib_analyze.api.plays",
    "score_play": "crib_analyze.api.plays",
    "score_play_rows": "crib_analyze.api.plays",
    "Breakdown": "crib_analyze.api.shows",
    "Show": "crib_analyze.api.shows",
    "count_show": "crib_analyze.api.shows",
    "score_breakdown": "crib_analyze.api.shows",
    "score_hand": "crib_analyze.api.shows",
    "check_table": "crib_analyze.api.tables",
    "crib_table": "crib_analyze.api.tables",
    "generate_table": "crib_analyze.api.tables",
    "load_table": "crib_analyze.api.tables",
    "lookup": "crib_analyze.api.tables",
    "merge_tables": "crib_analyze.api.tables",
    "plot_crib_tables": "crib_analyze.api.tables",
}

__all__ = [
    "AuctionMeta",
    "Breakdown",
    "BuiltModel",
    "BuiltTable",
    "CribTableMeta",
    "DiscardMeta",
    "DiscardRequest",
    "GameAdviceMeta",
    "GameThrowsMeta",
    "LookupMeta",
    "Odds",
    "OddsMeta",
    "OddsRequest",
    "Paths",
    "PlayMeta",
    "PlayRequest",
    "ResultMeta",
    "ReviewMeta",
    "ReviewRequest",
    "Rules",
    "ScoredPlayMeta",
    "Show",
    "SimulateRequest",
    "TableRequest",
    "advise_play",
    "advise_play_rows",
    "analyze",
    "analyze_rows",
    "auction",
    "auction_rows",
    "board_frame",
    "build_board",
    "build_game_boards",
    "build_game_models",
    "build_leads",
    "build_model",
    "build_pegging",
    "check_discard_options",
    "check_game",
    "check_plot",
    "check_table",
    "count_show",
    "crib_table",
    "deal_points",
    "discard_rows_for",
    "files_checked",
    "game",
    "games",
    "games_rows",
    "generate_table",
    "hand_distribution",
    "load_model",
    "load_table",
    "lookup",
    "match_points",
    "merge_tables",
    "odds",
    "odds_rows",
    "output_file",
    "paths",
    "pegging_table",
    "play_grade_frame",
    "play_grade_rows",
    "plot_board",
    "plot_crib_tables",
    "plot_discards",
    "prefer_kernels",
    "review",
    "review_text_record",
    "score_breakdown",
    "score_hand",
    "score_play",
    "score_play_rows",
    "simulate",
    "start_counting",
    "start_play_quiz",
    "start_quiz",
    "win_probability",
]


def __getattr__(name: str) -> Any:
    if name in EXPORTS:
        value = getattr(import_module(EXPORTS[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'crib_analyze.api' has no attribute {name!r}")


def __dir__() -> list[str]:
    return list(__all__)
