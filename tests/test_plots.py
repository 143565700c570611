"""Plots are written (PNG and SVG, without a display), titled and labelled; bad names
and a missing matplotlib are one-line errors."""

from __future__ import annotations

import builtins
from pathlib import Path

import pytest
from click.testing import CliRunner

from crib_analyze.api import plot_crib_tables, plot_discards
from crib_analyze.cli import cli
from crib_analyze.errors import UsageError

pytest.importorskip("matplotlib")

HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]


@pytest.mark.parametrize("suffix", [".png", ".svg"])
def test_discard_plot_is_written(tmp_path: Path, suffix: str) -> None:
    out = tmp_path / f"d{suffix}"
    result = CliRunner().invoke(cli, ["discard", *HAND, "--plot", str(out)])
    assert result.exit_code == 0, result.output
    assert out.stat().st_size > 10_000
    assert f"wrote the plot to {out}" in result.stderr
    if suffix == ".svg":
        text = out.read_text()
        for words in ("as dealer", "as pone", "hand points", "probability over the 46 starters"):
            assert words in text, words
        assert "packaged expert model" in text


def test_crib_table_heatmaps(tmp_path: Path) -> None:
    out = plot_crib_tables(tmp_path / "c.svg", opponent="random")
    text = out.read_text()
    for words in ("thrown by the dealer", "thrown by the pone", "pone - dealer", "random opponent"):
        assert words in text, words
    result = CliRunner().invoke(cli, ["crib-table", "--plot", str(tmp_path / "c.png")])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "c.png").stat().st_size > 10_000


def test_bad_plot_names(tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"\.png or \.svg"):
        plot_discards(HAND, tmp_path / "d.jpg")
    result = CliRunner().invoke(cli, ["crib-table", "--plot", str(tmp_path / "c.pdf")])
    assert result.exit_code == 2 and "Error: plot file must end in .png or .svg" in result.stderr
    assert not list(tmp_path.iterdir())


def test_without_matplotlib(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real_import = builtins.__import__

    def no_matplotlib(name: str, *args: object, **kwargs: object) -> object:
        if name.startswith("matplotlib"):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(builtins, "__import__", no_matplotlib)
    result = CliRunner().invoke(cli, ["discard", *HAND, "--plot", str(tmp_path / "d.png")])
    assert result.exit_code == 2
    assert "pip install 'crib-analyze[plot]'" in result.stderr
    assert result.stdout == ""  # refused before any work
