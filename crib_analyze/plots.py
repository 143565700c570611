"""Pictures where a picture beats a table (matplotlib, the optional ``plot`` extra).

Figures are drawn with matplotlib's object interface (no pyplot, no display needed)
and written whole or not at all, as PNG or SVG by the file's extension.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from crib_analyze.cards import RANKS
from crib_analyze.errors import StorageError, UsageError, describe_os_error
from crib_analyze.storage.atomic import atomic_open, check_output

if TYPE_CHECKING:
    import pandas as pd

    from crib_analyze.results import Rows

PLOT_FORMATS = {".png": "png", ".svg": "svg"}


def plot_format(path: str | os.PathLike[str]) -> str:
    """png or svg from the file name; anything else is a usage error."""
    fmt = PLOT_FORMATS.get(Path(path).suffix.lower())
    if fmt is None:
        raise UsageError(f"plot file must end in .png or .svg, got {Path(path).name!r}")
    return fmt


def check_plot(path: str | os.PathLike[str]) -> None:
    """Fail early (before any work) on a bad file name, a place that cannot take the
    file, or a missing matplotlib."""
    plot_format(path)
    check_output(path)
    _figure(1, 1)


def _figure(width: float, height: float) -> Any:
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise UsageError("plots need matplotlib: pip install 'crib-analyze[plot]'") from None
    return Figure(figsize=(width, height), layout="constrained")


def _save(fig: Any, path: str | os.PathLike[str]) -> Path:
    fmt = plot_format(path)
    target = Path(path)
    try:
        with atomic_open(target, "wb") as fh:
            fig.savefig(fh, format=fmt, dpi=110)
    except OSError as e:
        raise StorageError(f"cannot write {target}: {describe_os_error(e)}") from None
    return target


def discard_plot(
    by_role: dict[str, Rows], hand: str, model: str, path: str | os.PathLike[str]
) -> Path:
    """Hand-score distributions of each role's best throws (grouped bars), one panel a
    role. ``by_role`` maps a role to its distribution rows (:func:`distribution_rows`),
    best throws first."""
    plot_format(path)
    fig = _figure(7.5, 3.2 * len(by_role))
    axes = fig.subplots(len(by_role), 1, squeeze=False)[:, 0]
    for ax, (role, rows) in zip(axes, by_role.items(), strict=True):
        discards = list(dict.fromkeys(rows["discard"]))
        width = 0.8 / len(discards)
        points = np.arange(30)
        for i, d in enumerate(discards):
            mask = rows["discard"] == d
            keep = rows["keep"][mask][0]
            rank = int(rows["rank"][mask][0])
            ax.bar(
                points - 0.4 + width * (i + 0.5),
                rows["probability"][mask],
                width=width,
                label=f"#{rank} throw {d}, keep {keep}",
            )
        ax.set_title(f"{hand} as {role}: the kept hand's score, best throws")
        ax.set_xlabel("hand points (the four kept cards and the starter)")
        ax.set_ylabel("probability over the 46 starters")
        ax.set_xticks(range(0, 30, 2))
        ax.legend(fontsize="small")
    fig.suptitle(f"opponent: {model}", fontsize="small")
    return _save(fig, path)


def crib_heatmaps(
    tables: dict[str, pd.DataFrame], opponent: str, source: str, path: str | os.PathLike[str]
) -> Path:
    """13x13 heatmaps of the crib value of each thrown rank pair: as the dealer throws
    it, as the pone throws it, and the difference (pone - dealer)."""
    plot_format(path)
    grids = {role: _rank_grid(frame) for role, frame in tables.items()}
    panels = [*grids.items(), ("pone - dealer", grids["pone"] - grids["dealer"])]
    fig = _figure(15, 4.8)
    axes = fig.subplots(1, 3)
    low = min(np.nanmin(g) for g in grids.values())
    high = max(np.nanmax(g) for g in grids.values())
    for ax, (name, grid) in zip(axes, panels, strict=True):
        diff = name.startswith("pone -")
        scale = {} if diff else {"vmin": low, "vmax": high}  # one scale for both roles
        image = ax.imshow(grid, cmap="magma" if diff else "viridis", origin="upper", **scale)
        ax.set_xticks(range(13), list(RANKS))
        ax.set_yticks(range(13), list(RANKS))
        ax.set_xlabel("second card thrown")
        ax.set_ylabel("first card thrown")
        title = "difference, pone - dealer" if diff else f"thrown by the {name}"
        ax.set_title(f"crib value, {title}")
        fig.colorbar(image, ax=ax, shrink=0.8, label="points")
    fig.suptitle(f"crib value of thrown rank pairs ({opponent} opponent model; {source})")
    return _save(fig, path)


def _rank_grid(frame: pd.DataFrame) -> np.ndarray:
    """The crib_mean of each rank pair as a symmetric 13 x 13 grid."""
    index = {r: i for i, r in enumerate(RANKS)}
    grid = np.full((13, 13), np.nan)
    for r1, r2, value in zip(frame["rank1"], frame["rank2"], frame["crib_mean"], strict=True):
        a, b = index[str(r1)], index[str(r2)]
        grid[a, b] = grid[b, a] = value
    return grid


def board_heatmaps(
    win: np.ndarray, provenance: dict[str, Any], path: str | os.PathLike[str]
) -> Path:
    """The chance of winning over the board (my score across, the opponent's up), for
    the player about to deal and the player about to lead, with the 50% contour and the
    skunk lines."""
    plot_format(path)
    fig = _figure(13, 5.8)
    axes = fig.subplots(1, 2)
    for ax, (seat, name) in zip(axes, ((1, "you deal"), (0, "you are the pone")), strict=True):
        grid = win[:, :, seat].T  # rows: the opponent's score
        image = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1, origin="lower")
        ax.contour(grid, levels=[0.5], colors="black", linewidths=0.8)
        for line in (61, 91):
            ax.axvline(line, color="grey", lw=0.5, ls=":")
            ax.axhline(line, color="grey", lw=0.5, ls=":")
        ax.set_xlabel("your score")
        ax.set_ylabel("opponent's score")
        ax.set_title(f"P(you win), {name}")
        fig.colorbar(image, ax=ax, shrink=0.8, label="probability")
    deals = provenance.get("deals")
    made = f"{deals:,} simulated deals" if isinstance(deals, int) else "the board table"
    fig.suptitle(f"the chance of winning from every position ({made}; black: 50%)")
    return _save(fig, path)
