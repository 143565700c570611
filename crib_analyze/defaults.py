"""Defaults shared by the library and the command line: choices, limits, file places.

Nothing here imports numba, numpy or pandas, so the command line can read it to
build its options (and answer ``--help``) at once.

Files the package ships (the expert model, the per-role crib tables) are package
data, read with :mod:`importlib.resources`. Files the user generates (discard
tables, rebuilt models) go to one place, the user data directory of
:mod:`platformdirs` (``~/.local/share/crib-analyze`` on Linux), or
``$CRIB_ANALYZE_DATA_DIR`` when set; an explicit output path always wins.

>>> default_table_path("expert").name
'discard_table_expert.parquet'
>>> table_format_for("out.csv", None)
'csv'
"""

from __future__ import annotations

import os
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Literal

from crib_analyze.errors import UsageError

#: the package version, read by pyproject.toml too (one source, no metadata lookup at start)
__version__ = "0.2.0"

APP_NAME = "crib-analyze"

# --- choices ------------------------------------------------------------------------------

Role = Literal["dealer", "pone"]
SortKey = Literal["total", "net", "hand", "crib", "need"]

ROLES = ("dealer", "pone")
OPPONENTS = ("expert", "random", "sampled")  # how the opponent's crib cards are modelled
POLICIES = ("random", "expert")  # how a sampled opponent throws
TABLE_OPPONENTS = ("random", "expert")  # models the full table can be built with
SORT_KEYS = ("total", "net", "hand", "crib", "need")
OUTPUT_FORMATS = ("table", "csv", "json")  # printed results
TABLE_FORMATS = ("parquet", "csv")  # table files

PEGGING_CHOICES = ("table", "exact", "none")  # how discards count the play
DEFAULT_PEGGING = "table"
DEFAULT_OPPONENT = "expert"
DEFAULT_TABLE_OPPONENT = "random"
DEFAULT_POLICY = "random"
DEFAULT_SAMPLES = 2000
MAX_SAMPLES = 1_000_000  # ~2 minutes on 2 cores; memory stays fixed (batches)
DEFAULT_SEED = 0
NEAR_TIE_POINTS = 0.01  # throws this close to a role's best are flagged as near ties

# --- the board ----------------------------------------------------------------------------

TARGET = 121  # the game is won by the first to reach it
SKUNK_LINES = (91, 61, 31)  # a loser under these is skunked, double, triple skunked
GOALS = ("points", "win", "match")  # what a throw is ranked by
#: match points for a win, a skunk, a double skunk, a triple skunk, by scoring
SCORINGS = {
    "tournament": (2, 3, 3, 3),  # American Cribbage Congress: 2 a win, 3 a skunk
    "tournament-variant": (2, 3, 4, 4),
    "free": (1, 2, 4, 4),
    "free-triple": (1, 2, 4, 4),  # and a triple skunk wins the match outright
}
DEFAULT_SCORING = "tournament"
DEFAULT_BOARD_DEALS = 1_000_000
DEFAULT_POSITION_SAMPLES = 4000

# --- environment --------------------------------------------------------------------------

MODEL_ENV = "CRIB_ANALYZE_MODEL"  # an expert model file to use instead of the packaged one
DATA_DIR_ENV = "CRIB_ANALYZE_DATA_DIR"  # where generated files go by default
CACHE_DIR_ENV = "CRIB_ANALYZE_CACHE_DIR"  # where compiled kernels are cached

# --- packaged data ------------------------------------------------------------------------

PACKAGED_MODEL = "expert_model.npz"  # the pegging-aware expert (throws count the play)
PACKAGED_CLASSIC_MODEL = "expert_model_classic.npz"  # hand +- crib only
PACKAGED_BOARD = "board_table.npz"  # outcome probabilities for every position
MODEL_KINDS = ("pegging", "classic")


def packaged(name: str) -> Traversable:
    """A file shipped inside the package (``crib_analyze/data/NAME``)."""
    return files("crib_analyze").joinpath("data", name)


def packaged_crib_table(role: str, opponent: str) -> Traversable:
    """The shipped crib table of a role under an opponent model (a small CSV)."""
    check_choice("role", role, ROLES)
    check_choice("opponent", opponent, TABLE_OPPONENTS)
    suffix = "" if opponent == "random" else f"_{opponent}"
    return packaged(f"crib_table_{role}{suffix}.csv")


# --- user files ---------------------------------------------------------------------------


def data_dir() -> Path:
    """Where generated files go unless an output path is given."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def cache_dir() -> Path:
    """Where compiled kernels are cached (``$CRIB_ANALYZE_CACHE_DIR``, else the user cache)."""
    env = os.environ.get(CACHE_DIR_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False))


def default_table_path(opponent: str = DEFAULT_TABLE_OPPONENT, fmt: str = "parquet") -> Path:
    """``discard_table.parquet`` (random) or ``discard_table_expert.parquet`` in the data dir."""
    check_choice("opponent", opponent, TABLE_OPPONENTS)
    check_choice("format", fmt, TABLE_FORMATS)
    stem = "discard_table" if opponent == "random" else f"discard_table_{opponent}"
    return data_dir() / f"{stem}.{fmt}"


def default_shard_path(opponent: str, shard: tuple[int, int]) -> Path:
    """Where shard I of N goes by default (always Parquet)."""
    base = default_table_path(opponent)
    return base.with_name(f"{base.stem}.shard-{shard[0]}-of-{shard[1]}.parquet")


def default_board_output() -> Path:
    """Where ``build-board`` writes a rebuilt board table unless told otherwise."""
    return data_dir() / PACKAGED_BOARD


def default_model_output() -> Path:
    """Where ``build-model`` writes a rebuilt model unless told otherwise."""
    return data_dir() / PACKAGED_MODEL


def table_format_for(path: str | os.PathLike[str] | None, fmt: str | None) -> str:
    """The table format: ``fmt`` if given, else from the file name (.csv or Parquet).

    A ``.csv`` name with ``fmt="parquet"`` (or ``.parquet`` with ``csv``) is refused,
    so a file's name never lies about its contents.
    """
    suffix = Path(path).suffix.lower() if path is not None else ""
    named = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(suffix)
    if fmt is None:
        return named or "parquet"
    check_choice("format", fmt, TABLE_FORMATS)
    if named is not None and named != fmt:
        raise UsageError(f"{Path(path or '').name} is named as {named} but the format is {fmt}")
    return fmt


def check_choice(what: str, value: object, choices: tuple[str, ...]) -> None:
    """Raise a one-line UsageError unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise UsageError(f"unknown {what} {value!r} (choose from {', '.join(choices)})")
