"""The public API of what ships with the package and how to rebuild it: the expert
model, the pegging table, the board table."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from crib_analyze.api.files import output_file
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.artifacts.expert_model import load_model as load_expert_model
from crib_analyze.discard.engine import ModelLike, resolve_model
from crib_analyze.errors import ModelError, UsageError
from crib_analyze.settings import (
    BOARD_DEALS,
    DEFAULT_PLAY_POLICY,
    GAME_BOARD_DEALS,
    GAME_MODEL_DEALS,
    GAME_MODEL_ROUNDS,
    GAMES_WITH_BOARDS,
    GAMES_WITH_MODELS,
    JOKER_MODEL_GAMES,
    JOKERS,
    MODEL_KINDS,
    MODEL_MAX_ROUNDS,
    MODEL_TOLERANCE,
    MODEL_VARIANTS,
    PEGGING_MAX_DEALS,
    PEGGING_PILOT,
    PEGGING_TARGET_SE,
    PLAY_POLICIES,
    SEED,
    ModelKind,
    PlayPolicy,
    check_choice,
    check_scheduler,
    default_board_output,
    default_game_boards_output,
    default_game_models_output,
    default_leads_output,
    default_model_output,
    default_pegging_output,
)

if TYPE_CHECKING:
    from crib_analyze.expert.builder import RoundLog


def load_model(
    path: str | os.PathLike[str] | None = None, kind: ModelKind = "pegging"
) -> ExpertModel:
    """The expert model in use: ``path`` if given, else ``$CRIB_ANALYZE_MODEL`` if set,
    else the packaged model of ``kind`` ("pegging": throws count the play, the
    default; "classic": hand and crib only).

    >>> load_model().describe().startswith("packaged expert model (pegging-aware)")
    True
    """
    check_choice("expert model kind", kind, MODEL_KINDS)
    return load_expert_model(path, kind=kind)


@dataclass(frozen=True)
class BuiltModel:
    """A model made by :func:`build_model` and where it was written."""

    model: ExpertModel
    path: Path


def build_model(
    output: str | os.PathLike[str] | None = None,
    tolerance: float = MODEL_TOLERANCE.default,
    max_rounds: int = MODEL_MAX_ROUNDS.default,
    log: Callable[[RoundLog], None] | None = None,
    pegging: bool | None = None,
    pegging_table: str | os.PathLike[str] | None = None,
    variant: str | None = None,
) -> BuiltModel:
    """Rebuild the expert model by fictitious play (a few minutes) and write it
    (default: ``expert_model.npz`` in the user data dir). With ``pegging`` (the default
    but with a variant) throws count the play too, valued by ``pegging_table`` (a file
    from :func:`build_pegging`; default: the packaged table); without, the classic
    expert. ``variant`` "throw-fives" or "lowball" builds the classic expert of the
    variant: every player throws the fives the rule takes, or wants the fewest points
    (the packaged ``throw-fives`` and ``lowball`` models).
    The packaged models stay the default; use the new one with ``model=PATH`` or
    ``$CRIB_ANALYZE_MODEL``. A killed build resumes after its last finished round
    (from a checkpoint beside the output).
    """
    from crib_analyze.artifacts.pegging_table import PeggingTable, packaged_pegging_table
    from crib_analyze.expert.builder import build_model as run

    tolerance = MODEL_TOLERANCE.check(tolerance)
    max_rounds = MODEL_MAX_ROUNDS.check(max_rounds)
    if variant is not None:
        check_choice("model variant", variant, MODEL_VARIANTS)
        if pegging:
            raise UsageError(f"the {variant} model does not count the play: drop `pegging`")
    pegging = variant is None if pegging is None else pegging
    if pegging_table is not None and not pegging:
        raise UsageError("`pegging_table` applies to the pegging-aware model only (`pegging`)")
    target = output_file(output, default_model_output())
    table = None
    if pegging:
        table = PeggingTable.load(pegging_table) if pegging_table else packaged_pegging_table()
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    model = run(
        tolerance=tolerance, max_rounds=max_rounds, log=log, pegging=table,
        checkpoint=checkpoint, variant=variant,
    )  # fmt: skip
    model.save(target)
    return BuiltModel(model, target)


@dataclass(frozen=True)
class BuiltTable:
    """A table made by :func:`build_pegging`, :func:`build_board` or
    :func:`build_leads`, and where it was written; of a file of several parts (the game
    models, the boards), the names of those this build made."""

    provenance: dict[str, Any]
    path: Path
    parts: tuple[str, ...] = ()


def build_pegging(
    output: str | os.PathLike[str] | None = None,
    target_se: float = PEGGING_TARGET_SE.default,
    pilot: int = PEGGING_PILOT.default,
    max_deals: int = PEGGING_MAX_DEALS.default,
    seed: int = SEED.default,
    policy: PlayPolicy = DEFAULT_PLAY_POLICY,
    log: Callable[[Any], None] | None = None,
    model: ModelLike = None,
    scheduler: str | None = None,
) -> BuiltTable:
    """Rebuild the pegging table (several minutes) and write it (default:
    ``pegging_table.npz`` in the user data dir). The opponents keep by ``model`` (the
    default expert model unless given). A killed build resumes from its checkpoint
    beside the output. With ``scheduler`` (a Dask address) the batches run on its
    workers: the same table."""
    from crib_analyze.play.pegging_values import build_pegging as run

    target_se = PEGGING_TARGET_SE.check(target_se)
    pilot, max_deals = PEGGING_PILOT.check(pilot), PEGGING_MAX_DEALS.check(max_deals)
    if max_deals < pilot:
        raise UsageError("`max_deals` must be at least `pilot`")
    seed = SEED.check(seed)
    if scheduler is not None:
        check_scheduler(scheduler)
    target = output_file(output, default_pegging_output())
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    table = run(
        target_se=target_se, pilot=pilot, max_deals=max_deals, seed=seed, policy=policy,
        model=resolve_model(model), log=log, checkpoint=checkpoint, scheduler=scheduler,
    )  # fmt: skip
    table.save(target)
    return BuiltTable(table.provenance, target)


def build_board(
    output: str | os.PathLike[str] | None = None,
    deals: int = BOARD_DEALS.default,
    seed: int = SEED.default,
    log: Callable[[Any], None] | None = None,
    model: ModelLike = None,
    play_policy: PlayPolicy = DEFAULT_PLAY_POLICY,
) -> BuiltTable:
    """Rebuild the board table and write it (default: ``board_table.npz`` in the user
    data dir). The players throw by ``model`` (default: the pegging-aware expert) and
    lay by ``play_policy`` (the solver: about half an hour for a million deals on 2
    cores; "lookahead" about a minute). A killed build resumes from its checkpoint
    beside the output. Use the new table with ``$CRIB_ANALYZE_BOARD``."""
    from crib_analyze.board.build import build_board as run

    check_choice("play policy", play_policy, PLAY_POLICIES)
    if BOARD_DEALS.check(deals) % 2:
        raise UsageError(f"`deals` must be even (the table is also solved per half), got {deals:,}")
    seed = SEED.check(seed)
    target = output_file(output, default_board_output())
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    table = run(
        deals=deals, seed=seed, policy=play_policy, model=resolve_model(model), log=log,
        checkpoint=checkpoint,
    )  # fmt: skip
    table.save(target)
    return BuiltTable(table.provenance, target)


def build_leads(
    output: str | os.PathLike[str] | None = None,
    log: Callable[[int, float], None] | None = None,
    model: ModelLike = None,
) -> BuiltTable:
    """Rebuild the solver's leads and replies for ``model`` (default: the expert model
    in use; about 15 minutes on 2 cores) and write them (default: ``solver_leads.npz``
    in the user data dir, where the reading finds leads for a rebuilt model).
    ``log(steps done, seconds)``: each starter rank's leads (1-13), then its replies
    (14-26). A killed build resumes from its checkpoint beside the output."""
    from crib_analyze.play.solver_lead_build import build_leads as run

    target = output_file(output, default_leads_output())
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    leads = run(resolve_model(model), checkpoint=checkpoint, log=log)
    leads.save(target)
    return BuiltTable(leads.provenance, target)


def build_game_models(
    games: tuple[str, ...] = (),
    output: str | os.PathLike[str] | None = None,
    rounds: int = GAME_MODEL_ROUNDS.default,
    deals: int = GAME_MODEL_DEALS.default,
    seed: int = SEED.default,
    log: Callable[[str], None] | None = None,
    scheduler: str | None = None,
    jokers: int = 0,
    throw_fives: bool = False,
    lowball: bool = False,
) -> BuiltTable:
    """Rebuild the expert throw models of ``games`` (default: every game but the
    standard one, which has its own, :func:`build_model`) and write them with the
    models in use for the other games (default: ``game_models.npz`` in the user data
    dir; point ``$CRIB_ANALYZE_GAME_MODELS`` at it to use it). Each game is
    ``rounds`` rounds of fictitious play over ``deals`` deals; a killed build resumes
    from its checkpoint beside the output. ``scheduler`` (a Dask scheduler's address)
    deals each round on its workers: the same models. With ``jokers`` (1 or 2) the
    models of a pack with that many jokers (default: the games whose joker models ship,
    the standard one among them); with ``throw_fives`` or ``lowball`` the models of
    those variants (every seat throwing its fives, or for the fewest points);
    ``provenance`` is keyed by the models' names (``standard+1-joker``,
    ``three+throw-fives``)."""
    from crib_analyze.artifacts.game_models import GameModels, game_models, model_key
    from crib_analyze.expert.game_models import build_game_model
    from crib_analyze.rules import game

    JOKERS.check(jokers)
    names = games or (JOKER_MODEL_GAMES if jokers else GAMES_WITH_MODELS)
    if scheduler is not None:
        check_scheduler(scheduler)
    rounds, deals, seed = (
        GAME_MODEL_ROUNDS.check(rounds),
        GAME_MODEL_DEALS.check(deals),
        SEED.check(seed),
    )
    for name in names:
        if name == "standard" and not jokers:
            raise UsageError(
                "the standard game has its own expert model: build-model (with `jokers`, "
                "a model of its own here)"
            )
        check_choice("game", name, GAMES_WITH_MODELS + (("standard",) if jokers else ()))
    target = output_file(output, default_game_models_output())
    try:
        base = game_models()
    except (ModelError, OSError):  # none in use yet (the first build): these games alone
        base = GameModels({})
    models, provenance = dict(base.models), dict(base.provenance)
    made_keys = []
    for name in names:
        rules = game(name, jokers=jokers, throw_fives=throw_fives, lowball=lowball)
        key = model_key(rules)
        made_keys.append(key)
        checkpoint = target.with_name(f"{target.name}.{key}.checkpoint.npz")
        model, made = build_game_model(
            rules, rounds, deals, seed, checkpoint, log, scheduler=scheduler
        )
        models[key], provenance[key] = model, made
    built = GameModels(models, provenance)
    built.save(target)
    return BuiltTable(provenance, target, tuple(made_keys))


def build_game_boards(
    games: tuple[str, ...] = (),
    output: str | os.PathLike[str] | None = None,
    deals: int = GAME_BOARD_DEALS.default,
    seed: int = SEED.default,
    log: Callable[[str, Any], None] | None = None,
    scheduler: str | None = None,
) -> BuiltTable:
    """Rebuild the boards of ``games`` (default: every game of two sides but the
    standard one, which has its own, :func:`build_board`, and of three players) and
    write them with the boards
    in use for the other games (default: ``game_boards.npz`` in the user data dir;
    point ``$CRIB_ANALYZE_GAME_BOARDS`` at it to use it). Each is ``deals`` deals of the
    game (every seat the expert's throws and the lookahead's play), solved by dynamic
    programming; ``log(game, progress)``. A killed build resumes from its checkpoint
    beside the output. ``scheduler`` (a Dask scheduler's address) deals them on its
    workers: the same boards."""
    from crib_analyze.artifacts.game_boards import GameBoards, game_boards
    from crib_analyze.board.table_boards import build_game_board
    from crib_analyze.rules import GAMES

    names = games or GAMES_WITH_BOARDS
    deals, seed = GAME_BOARD_DEALS.check(deals), SEED.check(seed)
    if deals % 2:
        raise UsageError(f"deals must be an even number, got {deals}")
    for name in names:
        check_choice("game", name, GAMES_WITH_BOARDS)
    target = output_file(output, default_game_boards_output())
    try:
        base = game_boards()
    except (ModelError, OSError):  # none in use yet (the first build): these games alone
        base = GameBoards({})
    boards, provenance = dict(base.boards), dict(base.provenance)
    for name in names:
        checkpoint = target.with_name(f"{target.name}.{name}.checkpoint.npz")

        def said(progress: Any, name: str = name) -> None:
            if log:
                log(name, progress)

        board, made = build_game_board(
            GAMES[name], deals, seed, log=said, checkpoint=checkpoint, scheduler=scheduler
        )
        boards[name], provenance[name] = board, made
    built = GameBoards(boards, provenance)
    built.save(target)
    return BuiltTable(provenance, target)
