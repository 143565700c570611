"""CLI tests for table, table merge/check, crib-table, build-model and the expert options."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from click.testing import CliRunner, Result

from crib_analyze import analyze
from crib_analyze.cli import cli
from crib_analyze.table.spec import CHUNK_CLASSES
from tests.wording import unwrapped

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
        (["table", "check", "--help"], "Verify a table file, data included"),
        (["crib-table", "--help"], "Crib value of each thrown rank pair"),
        (["build-model", "--help"], "Rebuild the expert opponent"),
        (["paths", "--help"], "Show where crib-analyze reads and writes"),
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
    # a --limit table is reported as a sample, not failed
    result = invoke(["table", "check", str(whole)])
    assert result.exit_code == 0, result.output
    assert f"sample of the first {LIMIT:,} hands" in result.stdout
    assert "data checksums match" in result.stdout
    # a shard is checked as a shard: its own hands, not every hand
    result = invoke(["table", "check", str(shards[1])])
    assert result.exit_code == 0, result.output
    assert "a 2/2 shard" in result.stdout
    assert f"{15 * (LIMIT - CHUNK_CLASSES):,} rows" in result.stdout
    # crib-table describes every hand: a sample or a shard is refused without --partial
    for partial in (whole, shards[0]):
        one_line_error(invoke(["crib-table", "--table", str(partial)]), 2, "--partial")
    result = invoke(["crib-table", "--table", str(shards[0]), "--partial"])
    assert result.exit_code == 0, result.output
    assert "from a 1/2 shard" in result.stdout
    # crib-table reads the opponent model from the file's metadata
    args = ["crib-table", "--table", str(whole), "--partial", "--role", "pone", "-f", "csv"]
    result = invoke(args)
    assert result.exit_code == 0, result.output
    rows = result.stdout.strip().splitlines()
    assert rows[0].startswith("pair,rank1,rank2,crib_mean")
    assert len(rows) == 92
    # a contradicting --opponent is refused, naming the file's model
    one_line_error(
        invoke(["crib-table", "--table", str(whole), "--partial", "--opponent", "expert"]),
        2,
        "made with the random opponent",
    )


def test_crib_table_prints_the_shipped_table_and_saves_only_when_asked(
    tmp_path: Path, private_data_dir: Path
) -> None:
    for opponent in ("expert", "random"):
        for role in ("dealer", "pone"):
            result = invoke(["crib-table", "--role", role, "--opponent", opponent])
            assert result.exit_code == 0, result.output
            lines = result.stdout.splitlines()
            assert f"a {role} chooses ({opponent} opponent model" in lines[0]
            head = next(i for i, line in enumerate(lines) if line.startswith("pair "))
            assert len(lines) == head + 1 + 91 and all(len(line) <= 80 for line in lines)
            flag = invoke(["crib-table", f"--{role}", "--opponent", opponent])
            assert flag.stdout == result.stdout  # --dealer/--pone as everywhere
    assert invoke(["crib-table"]).stdout == invoke(["crib-table", "--dealer"]).stdout
    one_line_error(invoke(["crib-table", "--pone", "--role", "dealer"]), 2, "contradicts")
    assert invoke(["crib-table", "--json"]).stdout == invoke(["crib-table", "-f", "json"]).stdout
    out = tmp_path / "pone.csv"
    result = invoke(["crib-table", "--role", "pone", "-f", "csv", "-o", str(out)])
    assert result.exit_code == 0 and result.stdout == ""
    assert len(pd.read_csv(out)) == 91
    assert list(private_data_dir.iterdir()) == []  # nothing written unless asked


def test_table_csv_format(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    result = invoke(["table", "--limit", "200", "-o", str(out), "-q"])  # CSV by its name
    assert result.exit_code == 0, result.output
    assert len(pd.read_csv(out)) == 3000
    bad = tmp_path / "u.csv"
    one_line_error(
        invoke(["table", "--limit", "20", "-f", "parquet", "-o", str(bad)]), 2, "named as csv"
    )
    assert not bad.exists()


def test_table_default_output_goes_to_the_data_dir(private_data_dir: Path) -> None:
    result = invoke(["table", "--limit", "30"])
    assert result.exit_code == 0, result.output
    target = private_data_dir / "discard_table.sample-30.parquet"  # never the full table's name
    assert str(target) in result.stderr
    assert target.is_file() and not (private_data_dir / "discard_table.parquet").exists()
    assert invoke(["table", "check", str(target)]).exit_code == 0
    assert len(analyze_table_rows(target)) == 450


def analyze_table_rows(path: Path | None = None) -> pd.DataFrame:
    from crib_analyze import load_table

    return load_table(path, columns=["hand_id"])


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["table", "--opponent", "psychic"], ["--opponent", "psychic"]),
        (["table", "--shard", "3/2"], ["shard", "out of range"]),
        (["table", "--shard", "x"], ["shard must look like I/N"]),
        (["table", "--limit", "0"], ["--limit"]),
        (["table", "--shard", "1/2", "--format", "csv"], ["shards are written as Parquet"]),
        (["table", "--model", "m.npz"], ["--model applies to --opponent expert"]),
        (["discard", *HAND, "--opponent", "random", "--model", "m.npz"], ["--model applies"]),
        (["discard", *HAND, "--opponent", "sampled", "--seed", "-1"], ["--seed", "-1"]),
        (["discard", *HAND, "--opponent", "sampled", "--samples", "100000000"], ["--samples"]),
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
    table = invoke(["discard", *HAND, "--pone", "--opponent", "expert", "--verbose"])
    assert table.stdout.splitlines()[2].startswith("opponent: expert")


def test_discard_sampled_expert_policy() -> None:
    args = ["discard", *HAND, "--pone", "--opponent", "sampled", "--policy", "expert"]
    result = invoke([*args, "--samples", "200", "--seed", "2", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert '"crib_se"' in result.stdout
    header = invoke([*args, "--samples", "50", "--verbose"]).stdout.splitlines()[2]
    assert "expert policy" in header


def test_missing_expert_model_is_a_clean_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CRIB_ANALYZE_MODEL", str(tmp_path / "nowhere.npz"))
    one_line_error(
        invoke(["discard", *HAND, "--opponent", "expert"]),
        1,
        "no expert model",
        "CRIB_ANALYZE_MODEL",
    )
    one_line_error(
        invoke(["discard", *HAND, "--model", str(tmp_path / "x.npz")]), 1, "no expert model"
    )


def test_truncated_model_file_is_a_clean_error(tmp_path: Path) -> None:
    from crib_analyze.artifacts.expert_model import packaged_model

    good = tmp_path / "m.npz"
    packaged_model().save(good)
    cut = tmp_path / "cut.npz"
    cut.write_bytes(good.read_bytes()[:5000])
    one_line_error(invoke(["discard", *HAND, "--model", str(cut)]), 1, "damaged")
    result = invoke(["discard", *HAND, "--dealer", "--model", str(good)])
    assert result.exit_code == 0, result.output
    assert str(good) in result.stdout  # the model used, said in the short form too


def test_build_model_writes_to_the_data_dir_and_says_how_to_use_it(
    private_data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fixed point itself is tested in test_expert; here a stand-in builder."""
    from crib_analyze.artifacts.expert_model import packaged_model
    from crib_analyze.expert import builder as expert_builder

    shipped = packaged_model()
    monkeypatch.setattr(expert_builder, "build_model", lambda **kw: shipped)
    result = invoke(["build-model", "-q"])
    assert result.exit_code == 0, result.output
    target = private_data_dir / "expert_model.npz"
    assert target.is_file()
    assert f"wrote {target}" in result.stdout
    assert f"--model {target}" in result.stdout


def test_paths(private_data_dir: Path) -> None:
    import json

    result = invoke(["paths", "-f", "json"])
    assert result.exit_code == 0
    found = json.loads(result.stdout)
    assert found["data_dir"] == str(private_data_dir)
    assert found["random_table"] == str(private_data_dir / "discard_table.parquet")
    assert found["model_in_use"] == "packaged"


def test_discard_from_table(tmp_path: Path, private_data_dir: Path) -> None:
    from crib_analyze.cards import canonical_hand, format_cards
    from crib_analyze.crib.hand_classes import hand_classes

    full = private_data_dir / "discard_table.parquet"
    assert (
        invoke(["table", "--limit", "50", "-q", "-o", str(full)[:-8] + ".s.parquet"]).exit_code == 0
    )
    (private_data_dir / "discard_table.s.parquet").rename(full)  # stands in for the full table
    hand = format_cards(hand_classes().cards[7])
    assert format_cards(canonical_hand(hand_classes().cards[7])) == hand
    result = invoke(
        ["discard", hand, "--from-table", "--opponent", "random", "--pone", "-f", "csv"]
    )
    assert result.exit_code == 0, result.output
    frame = pd.read_csv(pd.io.common.StringIO(result.stdout))
    ref = analyze(hand, role="pone", opponent="random")
    got = dict(
        zip(frame["discard"].map(lambda d: frozenset(d.split())), frame["pone_net"], strict=True)
    )
    want = dict(
        zip(ref["discard"].map(lambda d: frozenset(d.split())), ref["pone_net"], strict=True)
    )
    assert got.keys() == want.keys()
    assert [got[k] for k in want] == pytest.approx([want[k] for k in want], abs=1e-12)
    assert frame["pone_total"].is_monotonic_decreasing  # ranked as the live analysis
    text = invoke(
        ["discard", hand, "--from-table", str(private_data_dir / "discard_table.parquet")]
    )
    assert text.exit_code == 0 and "hand 7," in unwrapped(text.stdout)  # wrapped by the path
    # the default opponent is expert, and no expert table was made
    one_line_error(invoke(["discard", hand, "--from-table"]), 1, "no discard table")
    # its own command: table lookup (the table's default opponent, random, as `table`)
    own = invoke(["table", "lookup", hand, "--pone", "-f", "csv"])
    assert own.exit_code == 0 and own.stdout == result.stdout, own.output
    by_path = invoke(["table", "lookup", hand, "--table", str(full)])
    assert by_path.stdout == text.stdout
    one_line_error(invoke(["table", "lookup", hand, "--opponent", "expert"]), 1, "no discard table")
    one_line_error(invoke(["table", "lookup", hand, "--dealer", "--pone"]), 2, "not both")
