"""``--from-table`` and ``lookup()`` give what the live analysis gives: the same ranking
(by the total, ties in the same order), the keep in the player's order, the same
verdict, ``--top``; the default opponent is the live analysis's; a missing table names
the command that makes it; a ``--limit`` sample never takes the full table's name.

Mutations tried (each fails a test here): the table ranked by the net; the keep left in
card order; the sample written to the full table's name; the missing expert table
naming plain 'crib-analyze table'.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.errors import TableError, UsageError
from crib_analyze.table.spec import CHUNK_CLASSES


@pytest.fixture(scope="module")
def sample(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("parity") / "sample.parquet"
    ca.generate_table(out, limit=12)
    return out


def hands_in(path: Path) -> list[str]:
    """A hand of each class in the sample, its cards shuffled out of card order."""
    frame = ca.load_table(path, columns=["hand_id", "d1", "d2", "k1", "k2", "k3", "k4"])
    first = frame.drop_duplicates("hand_id")
    rng = np.random.default_rng(2)
    out = []
    for row in first[["d1", "d2", "k1", "k2", "k3", "k4"]].to_numpy():
        cards = [int(c) for c in rng.permutation(row)]
        out.append(ca.format_cards(cards))
    return out


@pytest.mark.parametrize("role", ["dealer", "pone", None])
def test_a_table_row_is_the_live_row(sample: Path, role: str | None) -> None:
    for hand in hands_in(sample)[:6]:
        live = ca.analyze(hand, role=role, opponent="random")  # type: ignore[arg-type]
        read = ca.lookup(hand, sample, opponent="random", role=role)  # type: ignore[arg-type]
        assert read.discard.tolist() == live.discard.tolist(), hand
        assert read.keep.tolist() == live.keep.tolist(), hand
        for r in [role] if role else ["dealer", "pone"]:
            np.testing.assert_allclose(read[f"{r}_total"], live[f"{r}_total"], atol=1e-9)
            said = [v for v in live["verdict" if role else f"{r}_verdict"] if v]
            assert read.attrs["verdicts"][r] == said[0]


def test_the_command_line_reads_the_table_as_it_analyses(sample: Path) -> None:
    hand = hands_in(sample)[3].split()
    runner = CliRunner()
    table = runner.invoke(cli, ["discard", *hand, "--dealer", "--from-table", str(sample),
                                "--top", "3", "--opponent", "random"])  # fmt: skip
    live = runner.invoke(cli, ["discard", *hand, "--dealer", "--top", "3", "--opponent", "random"])
    assert table.exit_code == 0 and live.exit_code == 0, table.output + live.output
    rows = [line for line in table.stdout.splitlines() if line[:1].isdigit()]
    assert len(rows) == 3
    assert rows == [line for line in live.stdout.splitlines() if line[:1].isdigit()]
    assert table.stdout.splitlines()[0] == live.stdout.splitlines()[0]  # the verdict


def test_the_default_opponent_and_a_missing_table(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(tmp_path / "data"))
    with pytest.raises(TableError, match="'crib-analyze table --opponent expert'"):
        ca.lookup("5H 6S 4D JC QH 5C")
    with pytest.raises(TableError, match=r"generate it with 'crib-analyze table'$"):
        ca.lookup("5H 6S 4D JC QH 5C", opponent="random")


def test_a_sample_never_takes_the_full_tables_name(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(tmp_path / "data"))  # made on first use
    made = ca.generate_table(limit=3)
    assert made.output.name == "discard_table.sample-3.parquet"
    assert not (tmp_path / "data" / "discard_table.parquet").exists()
    with pytest.raises(UsageError, match="full table's name"):
        ca.generate_table(tmp_path / "data" / "discard_table.parquet", limit=3)


def test_table_merge_finds_the_shards_in_the_data_dir(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`table --shard I/N` writes to the data dir by default; `table merge` with no files
    reads them from there (the README's copy-paste trap)."""
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(tmp_path / "data"))
    runner = CliRunner()
    bare = runner.invoke(cli, ["table", "merge"])
    assert bare.exit_code == 2 and "none in" in bare.output
    limit = CHUNK_CLASSES + 20  # two chunks
    for i in (1, 2):
        made = runner.invoke(cli, ["table", "--limit", str(limit), "--shard", f"{i}/2", "-q"])
        assert made.exit_code == 0, made.output
    out = tmp_path / "whole.parquet"
    merged = runner.invoke(cli, ["table", "merge", "-o", str(out)])
    assert merged.exit_code == 0, merged.output
    assert ca.check_table(out).rows == limit * 15
