"""Where crib-analyze reads and writes its files, and where a built file goes."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from crib_analyze.errors import UsageError
from crib_analyze.settings import (
    MADE_MODELS_FOLDER,
    MODEL_ENV,
    PACKAGED_MODEL,
    cache_dir,
    data_dir,
    default_model_output,
    default_table_path,
    packaged,
)
from crib_analyze.storage.atomic import check_output


@dataclass(frozen=True)
class Paths:
    """Where crib-analyze reads and writes its files."""

    data_dir: Path  # generated files, unless an output path is given
    random_table: Path
    expert_table: Path
    rebuilt_model: Path  # where build-model writes by default (used only when pointed at)
    model_in_use: str  # the expert model discard uses: $CRIB_ANALYZE_MODEL or "packaged"
    packaged_model: str
    kernel_cache: Path
    made_game_models: Path  # expert throws of combinations none ships, made on first use

    def as_dict(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.__dict__.items()}


def paths() -> Paths:
    """The default locations, after environment overrides.

    >>> paths().random_table.name
    'discard_table.parquet'
    """
    return Paths(
        data_dir=data_dir(),
        random_table=default_table_path("random"),
        expert_table=default_table_path("expert"),
        rebuilt_model=default_model_output(),
        model_in_use=os.environ.get(MODEL_ENV) or "packaged",
        packaged_model=str(packaged(PACKAGED_MODEL)),
        kernel_cache=cache_dir(),
        made_game_models=data_dir() / MADE_MODELS_FOLDER,
    )


def output_file(output: str | os.PathLike[str] | None, default: Path) -> Path:
    """Where a built file goes: ``output``, else ``default``, checked before any work is
    done (:func:`~crib_analyze.storage.atomic.check_output`: a usage error for an empty
    name or a folder, a storage error for a folder that cannot take the file)."""
    if output is not None and not os.fspath(output).strip():
        raise UsageError("the output file name is empty")
    target = default if output is None else Path(output)
    check_output(target)
    return target


def files_checked() -> list[str]:
    """Each file this process has read for its answers (models, tables, caches), with
    how it was checked: its digest, format and contents, or that it was read unchecked
    (``--trust-unverified``). The command line shows them with ``--verbose``.

    >>> from crib_analyze.api import win_probability
    >>> _ = win_probability(100, 95, dealer=True)
    >>> any(line.startswith("the board table") for line in files_checked())
    True
    """
    from crib_analyze.storage.checked import notes

    return notes()


def check_plot(path: str | os.PathLike[str]) -> None:
    """Raise a UsageError now if ``path`` cannot take a plot (name, matplotlib)."""
    from crib_analyze.plots import check_plot as check

    check(path)
