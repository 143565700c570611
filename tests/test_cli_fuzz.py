"""No traceback, ever: seeded fuzzing of every command, option and value, and the
file-system faults of the foundation issue as real processes.

The fuzz test builds 10,000 argument lists from a small grammar per command: each
option of the command is used or not, with a value drawn from a pool mixing good
values, bad ones (wrong type, out of range, empty, unicode junk) and file paths that
fail in every way the file system allows (a folder, a path under a regular file,
/sys, /proc, /dev/full, a missing file, a damaged table, a truncated model). Every
run must end with exit code 0, 1 or 2 and no uncaught exception or traceback.
Work is kept cheap (tables always get a small --limit, sampled runs few samples) and
build-model's fixed point is replaced by the packaged model, build-board's simulation
by the packaged table (their CLI, option checks and file writing are what is fuzzed;
the builds are tested in test_expert.py and test_board.py); simulate plays a few games.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import traceback
from pathlib import Path

import numba
import pytest
from click.testing import CliRunner

from crib_analyze.api import generate_table
from crib_analyze.artifacts.board_table import packaged_board_table
from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.board import build as board_build
from crib_analyze.cli import cli
from crib_analyze.expert import builder as expert_builder
from tests.conftest import rotation_seed, scaled

N_CASES = scaled(10_000, 1_000)  # make test-all: 10,000
HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]
CARD_TOKENS = [
    *HAND,
    "10d",
    "T♥",
    "J♣",
    "AH",
    "KS",
    "2c",
    "7C,8D",
    "1H",
    "5X",
    "5",
    "10",
    "H",
    "",
    "zz",
    "5H5C",
    "\uff21\uff28",  # full-width A H
    "\x00",
    "-5H",
    "--",
    "5h",
]
HANDS_TEXT = "5H 6S 4D JC QH 5C\n# comment\n\nzz\n7C 8D 8H 9S KC 2D\n"


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    """Pools of paths: good inputs, damaged inputs and outputs that cannot be written."""
    root = tmp_path_factory.mktemp("fuzz")
    (root / "folder").mkdir()
    (root / "regular").write_text("a regular file\n")
    (root / "hands.txt").write_text(HANDS_TEXT)
    (root / "bom.txt").write_bytes("\ufeff5H 6S 4D JC QH 5C\n".encode())
    (root / "empty.txt").write_text("")
    (root / "binary.bin").write_bytes(bytes(range(256)) * 4)
    model = root / "model.npz"
    packaged_model().save(model)
    (root / "cut.npz").write_bytes(model.read_bytes()[:3000])
    (root / "junk.npz").write_text("not a model")
    table = root / "t.parquet"
    generate_table(table, limit=40)
    shards = [root / f"s{i}.parquet" for i in (1, 2)]
    for i, shard in enumerate(shards, start=1):
        generate_table(shard, limit=12_000, shard=f"{i}/2")
    damaged = root / "damaged.parquet"
    data = bytearray(table.read_bytes())
    data[len(data) // 3 : len(data) // 3 + 400] = bytes(400)
    damaged.write_bytes(bytes(data))
    generate_table(root / "t.csv", limit=5)
    out = root / "out"
    out.mkdir()
    bad_outputs = [
        str(root / "folder"),
        str(root / "regular" / "x.parquet"),
        "/sys/crib.parquet",
        "/proc/crib.csv",
        "/dev/full",
        "",
    ]
    return {
        "hands": [
            str(root / n) for n in ("hands.txt", "bom.txt", "empty.txt", "binary.bin", "folder")
        ]
        + ["-", str(root / "missing.txt")],
        "models": [str(model), str(root / "cut.npz"), str(root / "junk.npz"), str(root / "nope")],
        "tables": [
            str(table),
            str(damaged),
            str(root / "t.csv"),
            str(root / "regular"),
            str(root / "folder"),
            str(root / "missing.parquet"),
        ],
        "shards": [str(s) for s in shards],
        "outputs": [
            *(str(out / n) for n in ("a.csv", "b.json", "c.parquet", "d.txt", "e.CSV")),
            str(out / "new" / "deeper" / "f.parquet"),
            *bad_outputs,
        ],
        "plot": [str(out / "board.png")],
    }


INTS = ["0", "1", "2", "3", "12", "29", "30", "-1", "100000000", "abc", "1.5", "", "1e3"]
SAMPLES = ["1", "2", "40", "0", "-3", "100000000", "1000001", "x"]
LIMITS = ["1", "7", "25", "0", "-1", "abc", ""]
PLAYERS = ["expert,expert", "position,points", "mixed,expert", "expert", "x,y", ""]
SHARDS = ["1/2", "2/2", "3/2", "0/1", "x", "1/1", "1/3", "2/1"]


def build_args(rng: random.Random, f: dict[str, list[str]]) -> tuple[list[str], str | None]:
    """One argument list (and standard input) from the grammar."""
    pick = rng.choice

    def maybe(p: float = 0.5) -> bool:
        return rng.random() < p

    def cards(n: int) -> list[str]:
        if maybe(0.6):
            hand = rng.sample([*HAND, "AH", "KS", "7C", "8D"], n)
        else:
            hand = [pick(CARD_TOKENS) for _ in range(n)]
        if maybe(0.1):
            hand = [" ".join(hand)]
        return hand

    def opts(table: list[tuple[str, list[str] | None]], p: float = 0.35) -> list[str]:
        """Each option of ``table`` with probability p, in any order, with a value."""
        chosen = [(name, pool) for name, pool in table if maybe(p)]
        rng.shuffle(chosen)
        out: list[str] = []
        for name, pool in chosen:
            out += [name] if pool is None else [name, pick(pool)]
        return out

    command = pick(
        ["score", "discard", "discard", "table", "table merge", "table check", "crib-table",
         "build-model", "paths", "quiz", "peg", "play", "odds", "simulate", "build-board",
         "top", "junk"]
    )  # fmt: skip
    stdin = None
    if command == "score":
        args = ["score", *cards(pick([4, 4, 4, 3, 5]))]
        args += opts([("--starter", ["5D", "5H", "JS", "zz", "", "10"]), ("-s", ["KD"]),
                      ("--crib", None), ("-f", ["table", "json", "csv"])], 0.5)  # fmt: skip
    elif command == "discard":
        args = ["discard"]
        if maybe(0.85):
            args += cards(pick([6, 6, 6, 5, 7]))
        args += opts(
            [
                ("--dealer", None),
                ("--pone", None),
                ("--opponent", ["expert", "random", "sampled", "psychic"]),
                ("--policy", ["random", "expert", "x"]),
                ("--samples", SAMPLES),
                ("--seed", ["0", "7", "-1", "99999999999999999999", "x"]),
                ("--model", f["models"]),
                ("--need", INTS),
                ("--sort", ["net", "hand", "crib", "need", "best"]),
                ("--top", INTS),
                ("--hands-file", f["hands"]),
                ("-q", None),
                ("--format", ["table", "csv", "json", "parquet"]),
                ("-o", f["outputs"]),
                ("--score", ["110-115", "120-0", "0-0", "x", "121-3", "5", "-5-5"]),
                ("--goal", ["win", "match", "x"]),
                ("--scoring", ["tournament", "free-triple", "x"]),
                ("--position-samples", ["2", "40", "0", "x"]),
            ],
            0.25,
        )
        stdin = HANDS_TEXT if maybe() else ""
        if "--score" in args and "--position-samples" not in args:
            args += ["--position-samples", "40"]  # the default 4,000 is too slow for a fuzz
        if "--opponent" in args and "sampled" in args and "--samples" not in args:
            args += ["--samples", "20"]  # keep the default 2,000 out of a 10,000-run fuzz
    elif command == "table":
        args = ["table", "--limit", pick(LIMITS)]
        args += opts(
            [
                ("-o", f["outputs"]),
                ("--format", ["parquet", "csv", "json"]),
                ("--opponent", ["random", "expert", "x"]),
                ("--model", f["models"]),
                ("--shard", SHARDS),
                ("--jobs", ["1", "2", "0", "x"]),
                ("--restart", None),
                ("-q", None),
            ]
        )
    elif command == "table merge":
        chosen = [pick(f["shards"] + f["tables"]) for _ in range(pick([0, 1, 2, 2, 3]))]
        args = ["table", "merge", *chosen]
        args += opts([("-o", f["outputs"]), ("--format", ["parquet", "csv", "x"])])
    elif command == "table check":
        args = ["table", "check"] + ([pick(f["tables"] + f["shards"])] if maybe(0.9) else [])
    elif command == "crib-table":
        args = ["crib-table"]
        args += opts(
            [
                ("--role", ["dealer", "pone", "both"]),
                ("--opponent", ["expert", "random", "x"]),
                ("--table", f["tables"]),
                ("--format", ["table", "csv", "json", "x"]),
                ("-o", f["outputs"]),
            ]
        )
    elif command == "build-model":
        args = ["build-model"]
        args += opts(
            [
                ("-o", f["outputs"]),
                ("--tolerance", ["0", "1e-3", "-1", "x", "0.5"]),
                ("--max-rounds", ["1", "0", "x", "3"]),
                ("--jobs", ["1", "0", "2"]),
                ("-q", None),
            ]
        )
    elif command == "quiz":
        args = ["quiz"]
        args += opts(
            [
                ("--rounds", ["1", "2", "0", "x"]),
                ("--seed", ["0", "5", "-1"]),
                ("--role", ["dealer", "pone", "random", "both"]),
                ("--opponent", ["expert", "random", "sampled"]),
                ("--model", f["models"]),
            ]
        )
        if "--rounds" not in args:
            args += ["--rounds", "2"]
        stdin = "\n".join(pick(["?", "q", "5H 6S", "zz", "", "AH", *CARD_TOKENS]) for _ in range(6))
    elif command == "peg":
        args = [
            "peg",
            *[pick([*CARD_TOKENS, "go", "GO", "9D", "3S"]) for _ in range(rng.randrange(0, 10))],
        ]
        args += opts(
            [
                ("--pone", ["10H 7C 6C 4D", "zz", "5H 5H 6S 7C"]),
                ("--dealer", ["5S 6D 2H 4S", ""]),
                ("-f", ["table", "csv", "json", "x"]),
            ]
        )
    elif command == "play":
        args = ["play", *cards(pick([1, 2, 3, 4, 5]))]
        args += opts(
            [
                ("--dealer", None),
                ("--pone", None),
                ("--starter", ["5H", "zz", "JS"]),
                ("--discards", ["9H KS", "9H", ""]),
                ("--played", ["", "10H", "10H 5S 7C", "go", "7C 7C"]),
                ("--policy", ["greedy", "lookahead", "x"]),
                ("--samples", ["2", "20", "0", "x"]),
                ("-f", ["table", "json"]),
            ],
            0.5,
        )
        if "--samples" not in args:
            args += ["--samples", "10"]
    elif command == "odds":
        args = ["odds", *[pick([*INTS, "120", "121", "95"]) for _ in range(pick([0, 1, 2, 2, 3]))]]
        args += opts(
            [
                ("--dealer", None),
                ("--pone", None),
                ("--scoring", ["tournament", "tournament-variant", "free", "free-triple", "x"]),
                ("--plot", [*f["outputs"], *f["plot"]]),
                ("-f", ["table", "csv", "json", "x"]),
            ]
        )
    elif command == "simulate":
        args = ["simulate"]
        args += opts(
            [
                ("--games", ["2", "4", "0", "3", "x", "-2"]),
                ("--players", PLAYERS),
                ("--seed", ["0", "3", "-1"]),
                ("--position-from", ["0", "61", "122", "x"]),
                ("--position-samples", ["1", "5", "0", "x"]),
                ("--goal", ["win", "match", "x"]),
                ("--scoring", ["free", "x"]),
                ("--batch", ["2", "3", "0"]),
                ("-q", None),
                ("-f", ["table", "json", "csv"]),
            ]
        )
        if "--games" not in args:
            args += ["--games", "2"]
        if "--position-samples" not in args:
            args += ["--position-samples", "5"]
    elif command == "build-board":
        args = ["build-board"]
        args += opts(
            [
                ("-o", f["outputs"]),
                ("--deals", ["4000", "4001", "10", "x"]),
                ("--seed", ["0", "-1"]),
                ("--model", f["models"]),
                ("-q", None),
            ]
        )
    elif command == "paths":
        args = ["paths"] + (["-f", pick(["table", "json", "x"])] if maybe() else [])
    elif command == "top":
        args = [pick(["--version", "-V", "--help", "-h"])] if maybe() else []
    else:
        args = [pick(["scor", "--bogus", "discard --dealer", "", "-", "∞"])]
    if maybe(0.05):
        args.insert(rng.randrange(len(args) + 1), pick(["--bogus", "-x", "--help", "extra"]))
    return args, stdin


@pytest.mark.slow
def test_fuzz_every_command_no_traceback(
    files: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = packaged_model()
    monkeypatch.setattr(expert_builder, "build_model", lambda **kw: shipped)
    board = packaged_board_table()
    monkeypatch.setattr(board_build, "build_board", lambda **kw: board)
    runner = CliRunner()
    rng = random.Random(f"fuzz/{rotation_seed()}")  # new cases with every commit
    threads = numba.get_num_threads()
    codes: dict[int, int] = {}
    try:
        for case in range(N_CASES):
            args, stdin = build_args(rng, files)
            result = runner.invoke(cli, args, input=stdin, prog_name="crib-analyze")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                tb = "".join(traceback.format_exception(*result.exc_info))  # type: ignore[misc]
                pytest.fail(f"case {case}: {args!r} raised:\n{tb}")
            assert result.exit_code in (0, 1, 2), (case, args, result.exit_code, result.output)
            assert "Traceback" not in result.output, (case, args, result.output)
            codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
    finally:
        numba.set_num_threads(threads)
    # the grammar reaches every outcome often
    assert all(codes.get(code, 0) > N_CASES // 30 for code in (0, 1, 2)), codes


# --- the faults of the foundation issue, as real processes -------------------------------------


def run(args: list[str], cwd: Path, stdout: int | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "crib_analyze", *args],
        cwd=cwd,
        stdout=stdout if stdout is not None else subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=os.environ.copy(),
        timeout=300,
    )


def one_line(proc: subprocess.CompletedProcess[str], code: int, *needles: str) -> None:
    assert proc.returncode == code, (proc.returncode, proc.stderr)
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: "), proc.stderr
    assert "Traceback" not in proc.stderr
    for needle in needles:
        assert needle in lines[0], (needle, lines[0])


def test_score_into_a_full_disk(tmp_path: Path) -> None:
    with open("/dev/full", "w") as full:
        proc = run(
            ["score", "5H", "5C", "5S", "JD", "--starter", "5D"], tmp_path, stdout=full.fileno()
        )
    one_line(proc, 1, "cannot write the output", "No space left on device")


@pytest.mark.parametrize(
    ("args", "code", "needles"),
    [
        (["discard", *HAND, "--opponent", "sampled", "--seed", "-1"], 2, ["--seed", "-1"]),
        (["discard", *HAND, "--opponent", "sampled", "--samples", "100000000"], 2, ["--samples"]),
        (["discard", "10", "H", "6S", "4D", "JC", "QH", "5C"], 2, ["'10' has no suit", "10H"]),
        (
            ["table", "--limit", "100", "-o", "REGULAR/t.parquet"],
            1,
            ["cannot write", "not a folder"],
        ),
        (
            ["table", "--limit", "100", "-o", "/sys/t.parquet"],
            1,
            ["cannot write /sys/t.parquet", "creating a file in /sys"],
        ),
        (
            ["table", "merge", "SHARD1", "SHARD2", "-o", "/sys/m.parquet"],
            1,
            ["cannot write /sys/m.parquet"],
        ),
        (["discard", *HAND, "--model", "CUT"], 1, ["damaged"]),
        (["table", "--limit", "100", "-o", "x.csv", "-f", "parquet"], 2, ["named as csv"]),
        (["discard", "--hands-file", "EMPTY"], 2, ["has no hands"]),
    ],
)
def test_faults_give_one_line(
    tmp_path: Path, files: dict[str, list[str]], args: list[str], code: int, needles: list[str]
) -> None:
    (tmp_path / "regular").write_text("x")
    (tmp_path / "empty.txt").write_text("")
    swap = {
        "REGULAR/t.parquet": str(tmp_path / "regular" / "t.parquet"),
        "SHARD1": files["shards"][0],
        "SHARD2": files["shards"][1],
        "CUT": next(m for m in files["models"] if m.endswith("cut.npz")),
        "EMPTY": str(tmp_path / "empty.txt"),
    }
    proc = run([swap.get(a, a) for a in args], tmp_path)
    one_line(proc, code, *needles)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.txt", "regular"]  # nothing left


def test_read_only_folder(tmp_path: Path) -> None:
    """Into a read-only folder (as root, where permissions do not bind, a read-only
    file system stands in for it: /proc)."""
    target = tmp_path / "ro"
    target.mkdir()
    target.chmod(0o500)
    try:
        where = "/proc/ro" if os.geteuid() == 0 else str(target)
        proc = run(["table", "--limit", "100", "-o", f"{where}/t.parquet"], tmp_path)
        one_line(proc, 1, "cannot")
    finally:
        target.chmod(0o700)
        shutil.rmtree(target)
