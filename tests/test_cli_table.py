"""CLI tests for table, table merge/check, crib-table, build-model and the expert options."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from crib_analyze import analyze
from crib_analyze.cli import cli
from crib_analyze.table import CHUNK_CLASSES

RUNNER = CliRunner()
HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]
LIMIT = CHUNK_CLASSES + 100  # two chunks


def invoke(args: list[str]) -> Result:
    return RUNNER.invoke(cli, args, prog_name="crib-analyze")


def one_line_error(result: Result, code: int, *needles: str) -> None:
    assert result.exit_code == code, result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), result.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("args", "purpose"),
    [
        (["table", "--help"], "Generate the discard table"),
        (["table", "merge", "--help"], "Join the shard files"),
        (["table", "check", "--help"], "Verify a complete table"),
        (["crib-table", "--help"], "Crib value of each thrown rank pair"),
        (["build-model", "--help"], "Build the expert opponent"),
    ],
)
def test_help(args: list[str], purpose: str) -> None:
    result = invoke(args)
    assert result.exit_code == 0
    assert purpose in result.stdout


def test_table_shards_merge_check_and_crib_table(tmp_path: Path) -> None:
    whole = tmp_path / "whole.parquet"
    result = invoke(["table", "--limit", str(LIMIT), "-o", str(whole)])
    assert result.exit_code == 0, result.output
    assert f"wrote {15 * LIMIT:,} rows" in result.stderr
    shards = [tmp_path / f"s{i}.parquet" for i in (1, 2)]
    for i, path in enumerate(shards, start=1):
        args = ["table", "--limit", str(LIMIT), "--shard", f"{i}/2", "-o", str(path), "-q"]
        r = invoke([*args, "--jobs", "1"])
        assert r.exit_code == 0, r.output
        assert r.stderr == ""
    merged = tmp_path / "merged.parquet"
    assert invoke(["table", "merge", *map(str, shards), "-o", str(merged)]).exit_code == 0
    assert pd.read_parquet(merged).equals(pd.read_parquet(whole))
    one_line_error(invoke(["table", "merge", str(shards[0]), "-o", str(tmp_path / "x")]), 1,
                   "incomplete")  # fmt: skip
    # a partial table fails the full check with a one-line reason
    one_line_error(invoke(["table", "check", str(whole)]), 1, "rows, expected 14,444,820")
    result = invoke(["crib-table", "--table", str(whole), "--no-save", "--role", "pone",
                     "--opponent", "random", "-f", "csv"])  # fmt: skip
    assert result.exit_code == 0, result.output
    rows = result.stdout.strip().splitlines()
    assert rows[0].startswith("pair,rank1,rank2,crib_mean")
    assert len(rows) == 92
    # the default opponent is expert: a random table is refused, naming the fix
    one_line_error(
        invoke(["crib-table", "--table", str(whole), "--no-save"]), 1, "--opponent random"
    )


def test_table_csv_format(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    result = invoke(["table", "--limit", "200", "--format", "csv", "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 3000


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["table", "--opponent", "psychic"], ["--opponent", "psychic"]),
        (["table", "--shard", "3/2"], ["shard", "out of range"]),
        (["table", "--shard", "x"], ["shard must look like I/N"]),
        (["table", "--limit", "0"], ["--limit"]),
        (["table", "--shard", "1/2", "--format", "csv"], ["--shard writes Parquet"]),
        (["discard", *HAND, "--policy", "expert"], ["--policy applies to --opponent sampled"]),
        (["build-model", "--tolerance", "0"], ["--tolerance"]),
    ],
)
def test_usage_errors(args: list[str], needles: list[str]) -> None:
    one_line_error(invoke(args), 2, *needles)


def test_crib_table_without_a_table(tmp_path: Path) -> None:
    one_line_error(
        invoke(["crib-table", "--table", str(tmp_path / "none.parquet")]), 1, "no discard table"
    )


def test_discard_expert(tmp_path: Path) -> None:
    result = invoke(["discard", *HAND, "--dealer", "--opponent", "expert", "-f", "csv"])
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(pd.io.common.StringIO(result.stdout))
    ref = analyze(" ".join(HAND), role="dealer", opponent="expert")
    assert frame["discard"].tolist() == ref["discard"].tolist()
    assert frame["crib_mean"].to_numpy() == pytest.approx(ref["crib_mean"].to_numpy())
    table = invoke(["discard", *HAND, "--pone", "--opponent", "expert"])
    assert "opponent expert" in table.stdout.splitlines()[0]


def test_discard_sampled_expert_policy() -> None:
    args = ["discard", *HAND, "--pone", "--opponent", "sampled", "--policy", "expert"]
    result = invoke([*args, "--samples", "200", "--seed", "2", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert '"crib_se"' in result.stdout
    header = invoke([*args, "--samples", "50"]).stdout.splitlines()[0]
    assert "expert policy" in header


def test_missing_expert_model_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crib_analyze import expert

    monkeypatch.setenv(expert.MODEL_ENV, str(tmp_path / "nowhere.json"))
    expert.default_model.cache_clear()
    try:
        one_line_error(invoke(["discard", *HAND, "--opponent", "expert"]), 1, "no expert model")
    finally:
        expert.default_model.cache_clear()
