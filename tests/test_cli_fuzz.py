"""No traceback, ever: a seeded fuzz generated from the command tree, and the
file-system faults of the foundation issue as real processes.

The fuzz walks the click commands and their parameters and draws each value by its
type: inside the range and at its edges, just outside, and the extremes no option
takes (2^63, 2^64, 1e8, NaN, inf, '', other scripts' digits, '1_000'); choices and
junk; paths that fail in every way the file system allows (a folder, a path under a
regular file, /sys, /proc, /dev/full, an unreadable /proc file, a missing file, a
dangling link, a loop of links, a named pipe, a damaged table, a truncated model);
scores, shards, scheduler addresses and cards (blank ones too) by parameter name. A new
option without values fails test_the_fuzz_covers_every_command_and_parameter. Every
command-parameter pair is drawn in every run (one case forcing each pair, the rest of
its options drawn as usual), then random cases: 200 in all per make test, seeded from
the commit so each run explores new ones; 10,000 in make test-all. The named
pipes are served by threads (one writes a hands file into the input pipe for each
reader, one drains the output pipe), so a command waits on them as on a slow program,
never for ever. Every run must end with exit code 0, 1 or 2 and no traceback or
internal error. Work is kept cheap (the options that cost time per unit are always given,
small or invalid) and the builds' heavy parts are replaced by the packaged files
(their CLI, option checks and file writing are what is fuzzed; the builds are tested
in test_expert.py, test_board.py, test_pegging.py, test_game_models.py and
test_game_boards.py), and so are serve's warm-up and server (test_web.py runs them).
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import subprocess
import sys
import threading
import traceback
from pathlib import Path

import click
import numba
import numpy as np
import pytest
from click.testing import CliRunner

from crib_analyze.api import generate_table
from crib_analyze.artifacts.board_table import packaged_board_table
from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.artifacts.game_boards import packaged_game_boards
from crib_analyze.artifacts.game_models import GameModel, model_key, packaged_game_models
from crib_analyze.artifacts.pegging_table import packaged_pegging_table
from crib_analyze.artifacts.solver_leads import packaged_solver_leads
from crib_analyze.board import build as board_build
from crib_analyze.board import table_boards
from crib_analyze.cli import cli, serve_commands
from crib_analyze.cli.app import subcommands
from crib_analyze.cli.options import checked_output
from crib_analyze.expert import builder as expert_builder
from crib_analyze.expert import game_models as game_models_build
from crib_analyze.play import pegging_values, solver_lead_build
from tests.conftest import rotation_seed, scaled

N_CASES = scaled(10_000, 200)  # make test-all: every pair, then random cases to 10,000
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
    " ",
    "  ",
    "-5H",
    "--",
    "5h",
]
HANDS_TEXT = "5H 6S 4D JC QH 5C\n# comment\n\nzz\n7C 8D 8H 9S KC 2D\n"


def stand_in_model(rules):  # type: ignore[no-untyped-def]
    """A valid model of ``rules`` (a model the packaged file lacks, e.g. a game with
    jokers): every crib 5 where the seat throws that many cards."""
    ranks = 14 if rules.jokers else 13
    one, two = np.zeros((rules.players, ranks)), np.zeros((rules.players, ranks, ranks))
    for s, t in enumerate(rules.thrown):
        if t == 1:
            one[s] = 5.0
        elif t == 2:
            two[s] = 5.0
            if rules.jokers == 1:
                two[s, 13, 13] = 0.0
    return GameModel(model_key(rules), one, two, one * 0, two * 0)


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
    deal = "deal\ndealer: me\nhand: 5H 6S 4D JC QH 5C\nthrow: JC QH\nstarter: 2D\nplay: {}\n"
    (root / "game.txt").write_text(deal.format("9C 6S 9D 4D"))
    (root / "bad_game.txt").write_text(deal.format("9C 6S 9D 4D KS"))
    model = root / "model.npz"
    packaged_model().save(model)
    (root / "cut.npz").write_bytes(model.read_bytes()[:3000])
    (root / "junk.npz").write_text("not a model")
    pegging = root / "pegging.npz"
    packaged_pegging_table().save(pegging)
    (root / "pegging_cut.npz").write_bytes(pegging.read_bytes()[:2000])
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
    (root / "loop1").symlink_to("loop2")
    (root / "loop2").symlink_to("loop1")
    (root / "dangling").symlink_to("gone/nowhere.txt")
    (out / "dangling.csv").symlink_to("made-through-the-link.csv")
    fifo_in, fifo_out = root / "fifo-in", out / "fifo-out"
    os.mkfifo(fifo_in)
    os.mkfifo(fifo_out)
    serve_fifos(fifo_in, fifo_out)
    odd = [str(fifo_in), str(root / "loop1"), str(root / "dangling"), "/proc/self/mem"]
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
        + ["-", str(root / "missing.txt"), *odd],
        "models": [
            str(model),
            str(root / "cut.npz"),
            str(root / "junk.npz"),
            str(root / "nope"),
            *odd,
        ],
        "records": [
            str(root / n)
            for n in ("game.txt", "bad_game.txt", "hands.txt", "binary.bin", "folder", "nope")
        ]
        + odd,
        "tables": [
            str(table),
            str(damaged),
            str(root / "t.csv"),
            str(root / "regular"),
            str(root / "folder"),
            str(root / "missing.parquet"),
            *odd,
        ],
        "shards": [str(s) for s in shards],
        "pegging": [
            str(pegging),
            str(root / "pegging_cut.npz"),
            str(model),
            str(root / "nope.npz"),
            *odd,
        ],
        "outputs": [
            *(str(out / n) for n in ("a.csv", "b.json", "c.parquet", "d.txt", "e.CSV")),
            str(out / "new" / "deeper" / "f.parquet"),
            str(fifo_out),
            str(out / "dangling.csv"),
            str(root / "loop1"),
            *bad_outputs,
        ],
        "plot": [str(out / "board.png")],
    }


def serve_fifos(fifo_in: Path, fifo_out: Path) -> None:
    """Threads that serve the named pipes for as long as the tests run: each reader of
    ``fifo_in`` gets a hands file, each writer to ``fifo_out`` is drained."""

    def feed() -> None:
        while True:
            with contextlib.suppress(OSError), open(fifo_in, "w") as fh:
                fh.write(HANDS_TEXT)

    def drain() -> None:
        while True:
            with contextlib.suppress(OSError), open(fifo_out, "rb") as fh:
                while fh.read(1 << 16):
                    pass

    for serve in (feed, drain):
        threading.Thread(target=serve, daemon=True).start()


# --- values by kind ------------------------------------------------------------------------

#: numbers no option may take: past every 64-bit bound, other scripts' digits, non-finite
EXTREME_INTS = [
    "-1", str(2**63), str(2**64), str(-(2**63) - 1), "100000000", "1e8", "NaN", "inf", "",
    "\uff11\uff12", "\u0661\u0662", "\u00b2", "1_000", "0x1f", " 7", "+3", "3.0", "x",
]  # fmt: skip
EXTREME_REALS = [
    "nan", "inf", "-inf", "1e308", "-0", "", "x", "1e-320", "\uff11", "0x1p-3", "1_0", "-1",
]  # fmt: skip
JUNK = ["", "x", "\x00", "\u221e", "--", "-", " ", "\u00b2", "a" * 300]
SCORES = ["110-115", "120-0", "0-0", "x", "121-3", "5", "-5-5", "\u00b2-3", "\uff11-2", "9-"]
PLAYERS = ["expert,expert", "position,points", "mixed,expert", "expert", "x,y", ""]
SHARDS = ["1/2", "2/2", "3/2", "0/1", "x", "1/1", "1/3", "2/1", "\u00b9/2", f"1/{2**64}"]
SCHEDULERS = [
    "", "x", "localhost:notaport", "tcp://[::1", "tcp://host:99999", "udp://h:1",
    "tcp://127.0.0.1:0", "\uff11\uff12\uff17.0.0.1:1", "tcp://h:\u00b9",
]  # fmt: skip
PEG_TOKENS = [*CARD_TOKENS, "go", "GO", "9D", "3S"]

#: largest value drawn inside the range of options that cost time per unit
CHEAP_MAX = {
    "samples": 40, "games": 6, "limit": 30, "position_samples": 40, "rounds": 2,
    "search_samples": 2, "candidates": 4, "max_deals": 2, "pilot": 2,
}  # fmt: skip


def commands_of(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    """Every command path of the tree (a group that runs by itself is one too)."""
    out: list[tuple[str, ...]] = []
    for name, command in sorted(subcommands(group).items()):
        if isinstance(command, click.Group):
            if command.invoke_without_command:
                out.append((*path, name))
            out += commands_of(command, (*path, name))
        else:
            out.append((*path, name))
    return out


def command_at(path: tuple[str, ...]) -> click.Command:
    command: click.Command = cli
    for name in path:
        assert isinstance(command, click.Group)
        command = subcommands(command)[name]
    return command


def text_pools(f: dict[str, list[str]]) -> dict[str, list[str]]:
    """Values for the parameters that take text or a path, by parameter name."""
    card_text = ["10H 7C 6C 4D", "zz", "5H 5H 6S 7C", "", "9H KS", "9H", "10H 5S 7C", "go"]
    return {
        "output": f["outputs"],
        "model": f["models"],
        "hands_file": f["hands"],
        "record": f["records"],
        "table_path": f["tables"],
        "from_table": f["tables"] + [""],
        "path": f["tables"] + f["shards"],
        "shards": f["shards"] + f["tables"],
        "plot_path": f["plot"] + f["outputs"],
        "pegging_table": f["pegging"],
        "starter": ["5D", "5H", "JS", "zz", "", "10", *CARD_TOKENS[:4]],
        "score": [*SCORES, "110 115", "95,100"],
        "scores": ["0", "60", "120", "121", "95", "95-100", "110 115", "x", "-5", "\u00b2"],
        "players": PLAYERS,
        "shard": SHARDS,
        "scheduler": SCHEDULERS,
        "discards": card_text,
        "played": card_text,
        "pone_hand": card_text,
        "dealer_hand": card_text,
        "old_pone_hand": card_text,  # peg's --pone CARDS before 0.5
        "old_dealer_hand": card_text,
        "hands": card_text,
        "seat": ["dealer", "pone", "left", "middle", "across", "right", "second", "x", "", "3"],
        "host": ["127.0.0.1", "localhost", "::1", "[::1]", "0.0.0.0", "x y", "", "256.1.1.1"],
    }


def draw_value(param: click.Parameter, rng: random.Random, pools: dict[str, list[str]]) -> str:
    """One value for ``param`` by its type: good ones, edge ones, extreme ones."""
    kind, name = param.type, str(param.name)
    if isinstance(kind, click.Choice):
        choices = [str(c) for c in kind.choices]
        return rng.choice([*choices, *choices, "x", "", choices[0].upper()])
    if isinstance(kind, click.IntRange):
        lo = int(kind.min) if kind.min is not None else -(2**63)
        hi = int(kind.max) if kind.max is not None else 2**63 - 1
        top = min(hi, lo + CHEAP_MAX[name]) if name in CHEAP_MAX else hi
        inside = [lo, lo + 1, min(top, lo + 2), top, rng.randint(lo, top)]
        if rng.random() < 0.7:
            return str(rng.choice(inside))
        return str(rng.choice([lo - 1, hi + 1, *EXTREME_INTS]))
    if isinstance(kind, click.FloatRange):
        lo, hi = float(kind.min or 0.0), float(kind.max or 1.0)
        inside = [hi, (lo + hi) / 2, lo + (hi - lo) * 1e-3, lo + 1e-12]
        if rng.random() < 0.7:
            return str(rng.choice(inside))
        return str(rng.choice([lo, hi * 2, *EXTREME_REALS]))
    if isinstance(kind, click.types.IntParamType):
        return rng.choice(["0", "60", "120", "121", "95", *EXTREME_INTS])
    if getattr(param, "callback", None) is checked_output:  # a file written (simulate --record)
        return rng.choice(pools["output"])  # not an input's odd files: a FIFO nobody reads
    assert name in pools, f"the fuzz has no values for {name!r}: add them to text_pools"
    return rng.choice(pools[name])


def arguments_for(
    param: click.Argument, rng: random.Random, pools: dict[str, list[str]], forced: bool = False
) -> list[str]:
    if param.name == "cards":
        n = rng.choice([6, 6, 6, 5, 7, 4, 1, 0])
        if rng.random() < 0.6:
            hand = rng.sample([*HAND, "AH", "KS", "7C", "8D"], min(n, 10))
        else:
            hand = [rng.choice(CARD_TOKENS) for _ in range(n)]
        return [" ".join(hand)] if hand and rng.random() < 0.1 else hand
    if param.name == "sequence":
        return [rng.choice(PEG_TOKENS) for _ in range(rng.randrange(0, 10))]
    if param.nargs == -1:
        n = rng.choice([1, 2, 2, 3] if forced else [0, 1, 2, 2, 3])
        return [draw_value(param, rng, pools) for _ in range(n)]
    return [draw_value(param, rng, pools)] if forced or rng.random() < 0.9 else []


Pair = tuple[tuple[str, ...], str]  # a command's path and one of its parameters


def build_args(
    rng: random.Random, f: dict[str, list[str]], force: Pair | None = None
) -> tuple[list[str], str | bytes | None]:
    """One argument list (and standard input), generated from the command tree: each
    option of the command used or not, with a value drawn by its type; the options that
    cost time per unit are always given (small or invalid). ``force``: this command,
    with this parameter given."""
    pools = text_pools(f)
    if force is None and rng.random() < 0.03:  # the top level itself
        return [rng.choice(["--version", "-V", "--help", "-h", "scor", "--bogus", "", "∞"])], None
    path = force[0] if force else rng.choice(COMMAND_PATHS)
    command = command_at(path)
    args = list(path)
    options = [p for p in command.params if isinstance(p, click.Option)]
    rng.shuffle(options)
    for param in options:
        costly = param.name in CHEAP_MAX
        forced = force is not None and param.name == force[1]
        if not costly and not forced and rng.random() > 0.3:
            continue
        flag = param.opts[0] if rng.random() < 0.8 else param.opts[-1]
        if param.is_flag:
            args.append(flag)
        else:
            args += [flag, draw_value(param, rng, pools)]
    for param in command.params:
        if isinstance(param, click.Argument):
            forced = force is not None and param.name == force[1]
            args += arguments_for(param, rng, pools, forced)
    if rng.random() < 0.05:
        args.insert(rng.randrange(len(args) + 1), rng.choice(["--bogus", "-x", "--help", "x"]))
    stdin: str | bytes | None = None
    if path == ("quiz",):
        answers = ["?", "q", "5H 6S", "zz", "", "AH", *CARD_TOKENS]
        stdin = "\n".join(rng.choice(answers) for _ in range(6))
    elif "-" in args or rng.random() < 0.3:
        stdin = HANDS_TEXT if rng.random() < 0.7 else b"\xff\xfe5H 6S 4D JC QH 5C\n\x80"
    return args, stdin


COMMAND_PATHS = commands_of(cli)
#: every command-parameter pair: each is the forced one of a case in every run
PAIRS: list[Pair] = [(path, str(p.name)) for path in COMMAND_PATHS for p in command_at(path).params]


def test_the_fuzz_covers_every_command_and_parameter(files: dict[str, list[str]]) -> None:
    """A new command or option is fuzzed at once, or this fails until it has values."""
    assert {p[0] for p in COMMAND_PATHS} >= {"discard", "table", "simulate", "build-board"}
    pools, rng = text_pools(files), random.Random(0)
    for path in COMMAND_PATHS:
        for param in command_at(path).params:
            if isinstance(param, click.Option) and param.is_flag:
                continue  # given or not
            for _ in range(20):
                if isinstance(param, click.Argument):
                    values = arguments_for(param, rng, pools)
                else:
                    values = [draw_value(param, rng, pools)]
                assert all(isinstance(v, str) for v in values)


@pytest.mark.slow
def test_fuzz_every_command_no_traceback(
    files: dict[str, list[str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = packaged_model()
    monkeypatch.setattr(expert_builder, "build_model", lambda **kw: shipped)
    board = packaged_board_table()
    monkeypatch.setattr(board_build, "build_board", lambda **kw: board)
    pegging = packaged_pegging_table()
    monkeypatch.setattr(pegging_values, "build_pegging", lambda **kw: pegging)
    leads = packaged_solver_leads()
    monkeypatch.setattr(solver_lead_build, "build_leads", lambda *a, **kw: leads)
    models, boards = packaged_game_models(), packaged_game_boards()
    monkeypatch.setattr(
        game_models_build, "build_game_model",
        lambda rules, *a, **kw: (
            (models.models[model_key(rules)], models.provenance[model_key(rules)])
            if model_key(rules) in models.models
            else (stand_in_model(rules), {"rounds": 1, "deals_per_round": 100,
                                          "last_change": 0.0, "max_se": 0.0})
        ),
    )  # fmt: skip
    monkeypatch.setattr(
        table_boards, "build_game_board",
        lambda rules, *a, **kw: (boards.boards[rules.name], boards.provenance[rules.name]),
    )  # fmt: skip
    # serve: the warm-up and the server itself are not fuzzed (test_web.py runs them)
    monkeypatch.setattr(serve_commands, "warm", lambda: None)
    monkeypatch.setattr(serve_commands, "run_server", lambda app, sock: False)
    runner = CliRunner()
    rng = random.Random(f"fuzz/{rotation_seed()}")  # new cases with every commit
    threads = numba.get_num_threads()
    codes: dict[int, int] = {}
    forced: list[Pair | None] = [*PAIRS, *[None] * max(0, N_CASES - len(PAIRS))]
    try:
        for case, force in enumerate(forced):
            args, stdin = build_args(rng, files, force)
            result = runner.invoke(cli, args, input=stdin, prog_name="crib-analyze")
            if result.exception is not None and not isinstance(result.exception, SystemExit):
                tb = "".join(traceback.format_exception(*result.exc_info))  # type: ignore[misc]
                pytest.fail(f"case {case}: {args!r} raised:\n{tb}")
            assert result.exit_code in (0, 1, 2), (case, args, result.exit_code, result.output)
            assert "Traceback" not in result.output, (case, args, result.output)
            assert "internal error" not in result.output, (case, args, result.output)
            codes[result.exit_code] = codes.get(result.exit_code, 0) + 1
    finally:
        numba.set_num_threads(threads)
    # the generator reaches every outcome often
    assert all(codes.get(code, 0) > len(forced) // 40 for code in (0, 1, 2)), codes
    print(f"command fuzz: {len(forced)} cases, {len(PAIRS)} pairs forced; exit codes {codes}")


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


#: the tracebacks an outside fuzz found (issue 19), each now one line and exit 2
REPRODUCERS = [
    (["simulate", "--seed", "99999999999999999999", "--games", "6"], "--seed"),
    (["discard", *HAND, "--score", "119-0", "--dealer", "--seed", str(2**64)], "--seed"),
    (["play", "QC", "5C", "KC", "5D", "--pone", "--samples", "2", "--seed", str(10**20)],
     "--seed"),
    (["simulate", "--games", "6", "--scheduler", ""], "scheduler address"),
    (["simulate", "--games", "6", "--scheduler", "x"], "scheduler address"),
    (["simulate", "--games", "6", "--scheduler", "localhost:notaport"], "scheduler address"),
    (["discard", "JH", "KD", "AH", "5D", "6S", "4H", "--score", "\u00b2-3", "--pone"],
     "MINE-THEIRS"),
    (["discard", *HAND, "--need", "\uff11\uff12"], "ASCII digits"),
    (["odds", "\u0661\u0660\u0660", "3"], "ASCII digits"),
    (["build-model", "--tolerance", "nan"], "finite number"),
    (["build-pegging", "--target-se", "inf"], "finite number"),
]  # fmt: skip


@pytest.mark.parametrize(("args", "needle"), REPRODUCERS)
def test_extreme_values_are_one_line_usage_errors(args: list[str], needle: str) -> None:
    result = CliRunner().invoke(cli, args, prog_name="crib-analyze")
    assert result.exit_code == 2, (args, result.output)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0], lines


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
