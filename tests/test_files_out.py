"""Output lands where the user pointed it, or the command fails at once, in one line.

Real processes (``python -m crib_analyze``) write ``crib-table -f csv`` (no kernels,
quick) through every kind of target: a symlink to a file, to a file not yet made, a
chain of links, ``/dev/stdout`` and a link to ``/proc/self/fd/1`` with standard output
redirected to a file, a named pipe, ``/dev/null``, ``/dev/full``. A link is never
replaced; the file it points to gets the data. A writer checks its output before any
work, cleans the temp files of killed runs of itself (only those whose process is
gone), and closed or vanished streams end in one line.

Mutations checked: renaming the temp file over the link instead of its target (the
link tests fail), opening ``/dev/stdout`` by name instead of its descriptor (the
append test loses the earlier line), skipping the output check (the build test
computes), removing temp files of running processes (the leftover test fails).
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from crib_analyze.storage.atomic import check_output, remove_leftovers, temp_name

CSV_ARGS = ["crib-table", "--role", "pone", "-f", "csv"]


def run(
    args: list[str], cwd: Path, *, stdout: object = subprocess.PIPE, **kw: object
) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    return subprocess.run(  # type: ignore[call-overload, no-any-return]
        [sys.executable, "-m", "crib_analyze", *args],
        cwd=cwd,
        env=env,
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=300,
        **kw,
    )


@pytest.fixture(scope="module")
def expected(tmp_path_factory: pytest.TempPathFactory) -> str:
    folder = tmp_path_factory.mktemp("expected")
    out = run(CSV_ARGS, folder)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith("pair,rank1,rank2")
    return out.stdout


def test_a_link_is_written_through_to_its_file(tmp_path: Path, expected: str) -> None:
    (tmp_path / "real.csv").write_text("old\n")
    (tmp_path / "link.csv").symlink_to("real.csv")
    assert run([*CSV_ARGS, "-o", "link.csv"], tmp_path).returncode == 0
    assert (tmp_path / "link.csv").is_symlink()
    assert (tmp_path / "real.csv").read_text() == expected


def test_a_link_to_a_file_not_yet_made(tmp_path: Path, expected: str) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "link.csv").symlink_to("sub/new.csv")
    assert run([*CSV_ARGS, "-o", "link.csv"], tmp_path).returncode == 0
    assert (tmp_path / "link.csv").is_symlink()
    assert (tmp_path / "sub" / "new.csv").read_text() == expected


def test_a_chain_of_links(tmp_path: Path, expected: str) -> None:
    (tmp_path / "real.csv").write_text("")
    (tmp_path / "b").symlink_to("real.csv")
    (tmp_path / "a").symlink_to(tmp_path / "b")
    assert run([*CSV_ARGS, "-o", "a"], tmp_path).returncode == 0
    assert (tmp_path / "a").is_symlink() and (tmp_path / "b").is_symlink()
    assert (tmp_path / "real.csv").read_text() == expected


@pytest.mark.parametrize("target", ["/dev/stdout", "link-to-fd-1"])
def test_standard_output_redirected_to_a_file(tmp_path: Path, expected: str, target: str) -> None:
    if target == "link-to-fd-1":
        (tmp_path / target).symlink_to("/proc/self/fd/1")
    out = tmp_path / "out.csv"
    out.write_text("before\n")
    with open(out, "a") as fh:  # appended: the earlier line must stay
        done = run([*CSV_ARGS, "-o", target], tmp_path, stdout=fh)
    assert done.returncode == 0, done.stderr
    assert out.read_text() == "before\n" + expected
    if target == "link-to-fd-1":
        assert (tmp_path / target).is_symlink()


def test_a_named_pipe(tmp_path: Path, expected: str) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    done = run([*CSV_ARGS, "-o", str(fifo)], tmp_path)
    reader.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert got == [expected] and fifo.exists() and not fifo.is_file()


def test_dev_null_and_dev_full(tmp_path: Path) -> None:
    assert run([*CSV_ARGS, "-o", "/dev/null"], tmp_path).returncode == 0
    full = run([*CSV_ARGS, "-o", "/dev/full"], tmp_path)
    assert full.returncode == 1
    assert full.stderr.count("\n") == 1 and "No space left" in full.stderr


@pytest.mark.parametrize(
    ("target", "code", "needle"),
    [
        ("/nonexistent-folder/x.npz", 1, "no such folder"),
        ("/proc/nope/board.npz", 1, "cannot write"),
        (".", 2, "directory"),
        ("", 2, "empty"),
    ],
)
def test_a_bad_output_fails_before_any_work(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, code: int, needle: str
) -> None:
    from click.testing import CliRunner

    from crib_analyze.board import build
    from crib_analyze.cli import cli

    def no_work(**kw: object) -> None:
        raise AssertionError("the board was built before the output was checked")

    monkeypatch.setattr(build, "build_board", no_work)
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["build-board", "-o", target])
    assert result.exit_code == code, result.output
    assert needle in result.stderr and result.stderr.count("\n") == 1


def test_check_output_finds_a_file_in_place_of_a_folder(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    from crib_analyze.errors import StorageError

    with pytest.raises(StorageError, match="not a folder"):
        check_output(tmp_path / "file" / "out.csv")


def test_leftovers_of_killed_runs_are_removed_not_those_of_running_ones(tmp_path: Path) -> None:
    target = tmp_path / "t.csv"
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True).stdout.strip()  # fmt: skip
    gone = tmp_path / f".t.csv.{dead}.abcdef.tmp"
    alive = tmp_path / f".t.csv.{os.getppid()}.abcdef.tmp"
    gone.write_text("half")
    alive.write_text("half")
    assert remove_leftovers(target) == [gone]
    assert alive.exists() and not gone.exists()
    assert temp_name(target).name.startswith(f".t.csv.{os.getpid()}.")


def test_closed_standard_output_is_one_line(tmp_path: Path) -> None:
    done = run(CSV_ARGS, tmp_path, stdout=None, pass_fds=(), preexec_fn=lambda: os.close(1))
    assert done.returncode == 1
    assert done.stderr.strip() == "Error: cannot write the output: standard output is closed"


def test_closed_standard_input_is_one_line(tmp_path: Path) -> None:
    done = run(["discard", "--hands-file", "-"], tmp_path, preexec_fn=lambda: os.close(0))
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "standard input is closed" in done.stderr


def test_a_reader_that_goes_away_is_one_line(tmp_path: Path) -> None:
    (tmp_path / "hands.txt").write_text("5H 6S 4D JC QH 5C\n" * 300)  # ~2 MB of CSV
    proc = subprocess.Popen(
        [sys.executable, "-m", "crib_analyze", "discard", "--hands-file", "hands.txt",
         "--opponent", "random", "-f", "csv"],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()  # the reader goes away after one line
    err = proc.stderr.read()
    assert proc.wait(timeout=300) == 1
    assert err.count("\n") == 1 and "broken pipe" in err, err


# --- issue 32: every -o writer refuses a target it cannot write, before any work ----------

#: each command that writes with -o, with arguments that would start its work
WRITERS = {
    ("auction",): ["5H", "6S", "4D", "JC", "QH", "5C", "--score", "100-105"],
    ("build-board",): ["--deals", "4000", "--play-policy", "lookahead"],
    ("build-game-boards",): ["--game", "five-card", "--deals", "4000"],
    ("build-game-models",): ["--game", "five-dealt", "--rounds", "1", "--deals", "100"],
    ("build-leads",): [],
    ("build-model",): ["--max-rounds", "2"],
    ("build-pegging",): ["--pilot", "2", "--max-deals", "2"],
    ("crib-table",): ["--role", "pone"],
    ("discard",): ["5H", "6S", "4D", "JC", "QH", "5C", "--dealer"],
    ("simulate",): ["--games", "400"],
    ("table",): ["--limit", "50", "-q"],
    ("table", "lookup"): ["5H", "6S", "4D", "JC", "QH", "5C"],
    ("table", "merge"): ["SHARD"],
}


def test_the_writers_are_all_listed() -> None:
    import click

    from crib_analyze.cli import cli
    from crib_analyze.cli.app import subcommands

    def walk(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        found = []
        for name, command in subcommands(group).items():
            if any(p.name == "output" for p in command.params):
                found.append((*path, name))
            if isinstance(command, click.Group):
                found += walk(command, (*path, name))
        return found

    assert sorted(walk(cli)) == sorted(WRITERS)


@pytest.mark.parametrize("writer", sorted(WRITERS), ids=" ".join)  # ~0.2 s each
def test_an_unwritable_output_fails_at_once(tmp_path: Path, writer: tuple[str, ...]) -> None:
    """-o /dev/full (an empty write succeeds there) and -o through a loop of symlinks:
    one line, exit 1, before the work starts (a start-up's time, not the build's), and
    the links stay links."""
    import time

    (tmp_path / "l1").symlink_to("l2")
    (tmp_path / "l2").symlink_to("l1")
    (tmp_path / "shard.parquet").write_text("the output is checked before the shards are read")
    args = ["shard.parquet" if a == "SHARD" else a for a in WRITERS[writer]]
    for target, needle in (("/dev/full", "No space left on device"), ("l1", "loop")):
        began = time.monotonic()
        proc = run([*writer, *args, "-o", target], tmp_path)
        took = time.monotonic() - began
        assert proc.returncode == 1, (writer, target, proc.stderr)
        assert proc.stderr.count("\n") == 1 and needle in proc.stderr, (writer, proc.stderr)
        assert took < 5, (writer, target, took)  # start-up only (~0.3 s): builds take minutes
    assert (tmp_path / "l1").is_symlink() and (tmp_path / "l2").is_symlink()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["l1", "l2", "shard.parquet"]
