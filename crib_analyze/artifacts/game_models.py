"""The expert throws of every game but the standard one: per seat, what the crib is worth
by the ranks the seat throws when every seat throws that way.

Each game's model is a pair of tables over the seats from the dealer's left
(:mod:`crib_analyze.crib.game_model_kernels`): ``one`` (P, 13), the crib's mean when the
seat throws one card of a rank, and ``two`` (P, 13, 13), two of different suits; zeros
where the seat throws no such number of cards. A seat of the game throws by its row
(the hand policy's rule with these cribs in place of the random crib's), and the tables
are the fixed point of that (``crib-analyze build-game-models``,
:mod:`crib_analyze.expert.game_models`). Each game carries the standard error of its
tables and how it was built.

The packaged file ships inside the package (``data/game_models.npz`` in the source
tree); a rebuilt one is used only when pointed at (``$CRIB_ANALYZE_GAME_MODELS``). A
model neither holds is made on its first use (:func:`made_model_path`, in the data
dir; :func:`crib_analyze.expert.game_models.make_game_model`) and read from there.
A pack with jokers has models of its own, named by the game and the jokers
(:func:`model_key`: ``standard+1-joker``, ``three+2-jokers``): their tables have a
joker's rank too, 13 ((P, 14) and (P, 14, 14)), and the standard game has them as well
(its expert model knows no jokers). Throw fives and lowball have models of their own
too (``three+throw-fives``, ``four+throw-fives+lowball``: each seat throwing its fives,
or for the fewest points), built by the same fictitious play; a penalty has none (its
seats throw by the hand policy).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze import notices
from crib_analyze.constants import JOKER_RANK
from crib_analyze.errors import CribAnalyzeError, ModelError, describe_os_error
from crib_analyze.rules import GAMES, Rules, game
from crib_analyze.settings import (
    GAME_MODELS_ENV,
    MADE_MODELS_FOLDER,
    PACKAGED_GAME_MODELS,
    data_dir,
    packaged,
)
from crib_analyze.storage.npz import read_npz, write_npz

GAME_MODELS_FORMAT = 1
MAX_CRIB = 29.0  # a crib shows 0 to 29


def model_key(rules: Rules) -> str:
    """The name of the model of ``rules`` in the file: the game's, its jokers, and the
    variants that change how a seat throws.

    >>> model_key(game("three")), model_key(game("standard", jokers=2))
    ('three', 'standard+2-jokers')
    >>> model_key(game("four", throw_fives=True, lowball=True))
    'four+throw-fives+lowball'
    """
    key = rules.name
    if rules.jokers:
        key += f"+{rules.jokers}-joker{'s' if rules.jokers > 1 else ''}"
    if rules.throw_fives:
        key += "+throw-fives"
    if rules.lowball:
        key += "+lowball"
    return key


def rules_of_key(key: str) -> Rules:
    """The rules a model's name stands for (:func:`model_key`'s inverse); ValueError for
    a name of no game.

    >>> rules_of_key("five+1-joker").jokers
    1
    >>> rules_of_key("three+lowball").lowball
    True
    """
    name, *parts = key.split("+")
    if name not in GAMES:
        raise ValueError(f"a model of no game: {key!r}")
    jokers = [int(p.split("-")[0]) for p in parts if p[:1].isdigit()]
    rules = game(
        name, jokers=jokers[0] if jokers else 0, throw_fives="throw-fives" in parts,
        lowball="lowball" in parts,
    )  # fmt: skip
    if model_key(rules) != key:
        raise ValueError(f"a model of no game: {key!r}")
    return rules


def modelled(rules: Rules) -> Rules:
    """The rules a game model of ``rules`` would be built for: the game as dealt, with
    its jokers, throw fives and lowball (a penalty, or a game's own changes, have no
    model)."""
    return game(
        rules.name, jokers=rules.jokers, throw_fives=rules.throw_fives, lowball=rules.lowball
    )


def standard_experts(rules: Rules) -> bool:
    """True for the standard game without jokers (under any variant): its experts are
    :mod:`crib_analyze.artifacts.expert_model`'s, and it has no game model."""
    return rules.plain.is_standard and not rules.jokers


@dataclass(frozen=True)
class GameModel:
    """One game's expert throws: ``one`` (P, R) and ``two`` (P, R, R) crib means by the
    seat's thrown ranks (R 13, or 14 with jokers), and their standard errors; ``game``
    is the model's name (:func:`model_key`)."""

    game: str
    one: np.ndarray
    two: np.ndarray
    one_se: np.ndarray
    two_se: np.ndarray

    @property
    def max_se(self) -> float:
        return float(max(self.one_se.max(initial=0.0), self.two_se.max(initial=0.0)))


@dataclass(frozen=True)
class GameModels:
    """The models of the games, by name; ``provenance`` says how each was built
    (``provenance[game]``: rounds, deals a round, seed, the last round's change)."""

    models: dict[str, GameModel]
    provenance: dict[str, Any] = field(default_factory=dict)

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays: dict[str, np.ndarray] = {}
        for name, m in self.models.items():
            for part in ("one", "two", "one_se", "two_se"):
                arrays[f"{name}/{part}"] = getattr(m, part)
        write_npz(path, GAME_MODELS_FORMAT, self.provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> GameModels:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> GameModels:
            names = sorted({k.split("/")[0] for k in arrays if "/" in k})
            models = {}
            for name in names:
                rules = rules_of_key(name)
                parts = [np.ascontiguousarray(arrays[f"{name}/{p}"], np.float64)
                         for p in ("one", "two", "one_se", "two_se")]  # fmt: skip
                model = GameModel(name, *parts)
                problem = model_problem(model, rules)
                if problem:
                    raise ValueError(f"{name}: {problem}")
                models[name] = model
            return cls(models, provenance)

        return read_npz(source, "the game models", GAME_MODELS_FORMAT, parse)


def model_problem(model: GameModel, rules: Rules) -> str | None:
    """What is wrong with ``model`` as the model of ``rules``, or None: the shapes, cribs
    out of 0..29, tables of ranks a seat never throws, two that is not symmetric."""
    p, r = rules.players, 14 if rules.jokers else 13
    if model.one.shape != (p, r) or model.two.shape != (p, r, r):
        return "tables of the wrong shape"
    if model.one_se.shape != model.one.shape or model.two_se.shape != model.two.shape:
        return "standard errors of the wrong shape"
    for table in (model.one, model.two, model.one_se, model.two_se):
        if not np.isfinite(table).all() or table.min() < 0 or table.max() > MAX_CRIB:
            return "a value a crib cannot take"
    if not np.array_equal(model.two, model.two.transpose(0, 2, 1)):
        return "a table of pairs that depends on their order"
    pairs = np.ones((r, r), bool)  # the pairs a seat can throw: two jokers need two
    if rules.jokers == 1:
        pairs[JOKER_RANK, JOKER_RANK] = False
    for s in range(p):
        if (model.one[s].any() and rules.thrown[s] != 1) or (
            model.two[s].any() and rules.thrown[s] != 2
        ):
            return f"a table for seat {s}, which throws {rules.thrown[s]}"
        if rules.thrown[s] == 1 and not model.one[s].all():
            return f"seat {s} throws one card, and its table has gaps"
        if rules.thrown[s] == 2 and not model.two[s][pairs].all():
            return f"seat {s} throws two cards, and its table has gaps"
        if model.two[s][~pairs].any():
            return f"seat {s}'s table has two jokers in a pack of one"
    return None


@cache
def packaged_game_models() -> GameModels:
    """The models shipped with the package."""
    with packaged(PACKAGED_GAME_MODELS).open("rb") as fh:
        return GameModels.load(fh)


@cache
def _models_file(path: str, stamp: tuple[int, int]) -> GameModels:
    return GameModels.load(path)


def game_models() -> GameModels:
    """The game models in use: ``$CRIB_ANALYZE_GAME_MODELS`` if set (read once per
    version of the file), else the packaged ones."""
    chosen = os.environ.get(GAME_MODELS_ENV) or None
    if chosen is None:
        return packaged_game_models()
    p = Path(chosen).expanduser()
    try:
        st = p.stat()
    except OSError as e:
        raise ModelError(
            f"no game models at {p} (from ${GAME_MODELS_ENV}): {describe_os_error(e)}"
        ) from None
    return _models_file(str(p), (st.st_mtime_ns, st.st_size))


def game_model(rules: Rules, made: bool = True) -> GameModel | None:
    """The model of ``rules`` in use: a game of :data:`~crib_analyze.rules.GAMES` as
    dealt, with jokers, throw fives or lowball (:func:`modelled`); None for any other
    rules, or rules the file has no model of (their seats throw by the hand policy);
    None for the standard game without jokers, whose experts are
    :mod:`crib_analyze.artifacts.expert_model`'s. ``made``: a model made on an earlier
    first use counts too (where the expert is asked for; the defaults, which choose a
    policy unasked, read the file's alone, so what a data dir holds never changes them)."""
    if rules.name not in GAMES or rules != modelled(rules):
        return None
    if standard_experts(rules):
        return None
    model = game_models().models.get(model_key(rules))
    return model if model is not None or not made else made_model(rules)


def expert_model_of(rules: Rules) -> GameModel | None:
    """The model the seats of ``rules`` throw by when they throw as experts: the game's
    (shipped, or made on an earlier ask), under a penalty the game's without it (its
    throws weigh no show of nothing, as the hand policy's do not); None where none is."""
    return game_model(rules) or game_model(replace(rules, penalty="none"))


def made_model_path(rules: Rules) -> Path:
    """Where the model of ``rules`` made on its first use is kept: the data dir's
    :data:`~crib_analyze.settings.MADE_MODELS_FOLDER`, one file a model, named by
    :func:`model_key`."""
    return data_dir() / MADE_MODELS_FOLDER / f"{model_key(modelled(rules))}.npz"


@cache
def _made_file(path: str, stamp: tuple[int, int]) -> GameModels:
    return GameModels.load(path)


#: models made in this process, by name (kept in the data dir too where it can be written)
_MADE_HERE: dict[str, GameModel] = {}
_SAID_DAMAGED: set[tuple[str, int]] = set()  # made models found damaged, said once each


def remember_made_model(model: GameModel) -> None:
    """Keep ``model``, just made, for the rest of this process."""
    _MADE_HERE[model.game] = model


def made_model(rules: Rules) -> GameModel | None:
    """The model of ``rules`` made on an earlier first use (in this process, or kept in
    the data dir and sound); None if none is (a damaged one is said in one line, and
    made again when wanted)."""
    if model_key(modelled(rules)) in _MADE_HERE:
        return _MADE_HERE[model_key(modelled(rules))]
    path = made_model_path(rules)
    try:
        st = path.stat()
        models = _made_file(str(path), (st.st_mtime_ns, st.st_size))
    except OSError:
        return None
    except CribAnalyzeError as e:
        if (str(path), st.st_mtime_ns) not in _SAID_DAMAGED:  # once a version of the file
            _SAID_DAMAGED.add((str(path), st.st_mtime_ns))
            notices.logger("crib_analyze.models").warning(f"{e}: it is made again when wanted")
        return None
    return models.models.get(model_key(modelled(rules)))
