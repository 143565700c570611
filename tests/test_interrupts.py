"""Ctrl-C and kill -9 at random moments, for every long command and every writer.

Each command runs once to the end (the clean result), then again and is sent SIGINT or
SIGKILL at a random moment of a run of that length. After SIGINT it must end with exit
130 and the one line "interrupted" (or 0 if it had finished), leave no temp file, and
leave its output as it was or whole. After SIGKILL the output must be as it was or
whole, too. Either way a rerun (which resumes where the command can: table chunks,
build checkpoints) must give the clean result, and leave no temp file behind.

make test runs one cheap command, once each way (rotating with the commit); make
test-all runs every command, three SIGINTs and two kills each.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from crib_analyze import interrupts
from tests.conftest import FULL, rotating, rotation_seed

HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]


def _json(path: Path) -> object:
    data = json.loads(path.read_text())
    data.pop("seconds", None)
    return data


def _npz(path: Path) -> dict[str, bytes]:
    with np.load(path) as data:
        return {k: data[k].tobytes() for k in data.files if k not in ("provenance", "digest")}


def _parquet(path: Path) -> object:
    return pq.read_table(path).replace_schema_metadata(None)


@dataclass(frozen=True)
class Long:
    """A long command writing ``out``; ``same`` reads an output for comparison."""

    args: list[str]
    out: str
    same: Callable[[Path], object] = lambda p: p.read_bytes()
    cheap: bool = True


COMMANDS = {
    "simulate": Long(
        [
            "simulate",
            "--games",
            "6000",
            "--seed",
            "3",
            "--play-policy",
            "lookahead",
            "-f",
            "json",
            "-q",
            "-o",
            "OUT",
        ],
        "games.json",
        _json,
    ),
    "table": Long(["table", "--limit", "24000", "-q", "-o", "OUT"], "t.parquet", _parquet),
    "build-pegging": Long(
        [
            "build-pegging",
            "--pilot",
            "6",
            "--max-deals",
            "12",
            "--policy",
            "lookahead",
            "-q",
            "-o",
            "OUT",
        ],
        "pegging.npz",
        _npz,
    ),
    "sampled": Long(
        [
            "discard",
            *HAND,
            "--opponent",
            "sampled",
            "--samples",
            "30000",  # ~3 s of work after ~1.5 s of start-up: most stops land in the work
            "-q",
            "-f",
            "csv",
            "-o",
            "OUT",
        ],
        "sampled.csv",
    ),
    "position": Long(
        [
            "discard",
            *HAND,
            "--dealer",
            "--score",
            "100-95",
            "--position-samples",
            "12000",
            "-f",
            "csv",
            "-o",
            "OUT",
        ],
        "position.csv",
    ),
    "hands-file": Long(
        ["discard", "--hands-file", "HANDS", "--no-pegging", "-f", "csv", "-o", "OUT"],
        "hands.csv",
    ),
    "build-board": Long(
        ["build-board", "--deals", "4000", "-q", "-o", "OUT"], "board.npz", _npz, cheap=False
    ),
    "build-model": Long(
        ["build-model", "--max-rounds", "3", "--tolerance", "5", "-q", "-o", "OUT"],
        "model.npz",
        _npz,
        cheap=False,
    ),
}


def hands_file(path: Path, n: int = 120) -> Path:
    rng = random.Random(5)
    ranks, suits = "A23456789TJQK", "CDHS"
    deck = [r + s for r in ranks for s in suits]
    path.write_text("".join(" ".join(rng.sample(deck, 6)) + "\n" for _ in range(n)))
    return path


def command(name: str, folder: Path) -> tuple[list[str], Path]:
    long = COMMANDS[name]
    out = folder / long.out
    swap = {"OUT": str(out), "HANDS": str(hands_file(folder / "hands.txt"))}
    return [sys.executable, "-m", "crib_analyze", *(swap.get(a, a) for a in long.args)], out


def temp_files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if p.name.endswith(".tmp"))


@pytest.fixture(scope="module")
def clean_runs(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[object, float]]:
    """Each command's clean result and how long it ran (filled on first use)."""
    return {}


def clean(name: str, runs: dict[str, tuple[object, float]], root: Path) -> tuple[object, float]:
    if name not in runs:
        folder = root / f"clean-{name}"
        folder.mkdir()
        argv, out = command(name, folder)
        start = time.monotonic()
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        assert proc.returncode == 0, proc.stderr
        runs[name] = (COMMANDS[name].same(out), time.monotonic() - start)
    return runs[name]


def stop(argv: list[str], after: float, how: signal.Signals) -> subprocess.CompletedProcess[str]:
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        proc.wait(timeout=after)
    except subprocess.TimeoutExpired:
        proc.send_signal(how)
    stdout, stderr = proc.communicate(timeout=900)
    return subprocess.CompletedProcess(argv, proc.returncode, stdout, stderr)


CASES = [(name, how) for name in COMMANDS for how in ("INT", "KILL")]


def chosen_cases() -> list[tuple[str, str]]:
    if FULL:
        return CASES
    cheap = [n for n, long in COMMANDS.items() if long.cheap]
    name = rotating(cheap, 1, "interrupts")[0]
    return [(name, "INT"), (name, "KILL")]


@pytest.mark.slow
@pytest.mark.parametrize(("name", "how"), chosen_cases())
def test_stopped_at_random_moments_then_resumed(
    name: str, how: str, tmp_path: Path, clean_runs: dict[str, tuple[object, float]],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:  # fmt: skip
    expected, seconds = clean(name, clean_runs, tmp_path_factory.mktemp("clean"))
    sig = signal.SIGINT if how == "INT" else signal.SIGKILL
    rng = random.Random(f"{rotation_seed()}/{name}/{how}")
    for attempt in range(3 if FULL and how == "INT" else 2 if FULL else 1):
        folder = tmp_path / f"try{attempt}"
        folder.mkdir()
        argv, out = command(name, folder)
        out.write_bytes(b"old\n")  # what was there must survive a stopped run
        after = rng.uniform(0.05, 1.1 * seconds)
        stopped = stop(argv, after, sig)
        where = (name, how, round(after, 2), stopped.returncode, stopped.stderr)
        assert "Traceback" not in stopped.stderr, where
        if sig == signal.SIGINT:
            assert stopped.returncode in (0, 130), where
            if stopped.returncode == 130:  # one line: "interrupted", maybe how to resume
                assert stopped.stderr.startswith("interrupted"), where
                assert stopped.stderr.count("\n") == 1, where
                assert temp_files(folder) == [], where
        else:
            assert stopped.returncode in (0, -signal.SIGKILL), where
        if out.read_bytes() != b"old\n":  # a reader never sees half a file
            assert COMMANDS[name].same(out) == expected, where
        rerun = subprocess.run(argv, capture_output=True, text=True, timeout=900)
        assert rerun.returncode == 0, (*where, rerun.stderr)
        assert COMMANDS[name].same(out) == expected, where
        assert temp_files(folder) == [], where


def test_a_job_defers_ctrl_c_to_its_next_check() -> None:
    """In process: SIGINT during a deferred job only marks it; check() raises it."""
    with pytest.raises(KeyboardInterrupt), interrupts.deferred():
        os.kill(os.getpid(), signal.SIGINT)
        time.sleep(0.05)  # a kernel would be running here: nothing may be raised
        assert interrupts.pending()
        interrupts.check()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler  # restored
    with interrupts.deferred():  # a job without Ctrl-C is not disturbed
        interrupts.check()
    assert not interrupts.pending()


def test_an_api_job_stops_cleanly_on_ctrl_c() -> None:
    """From Python (a script, a notebook): Ctrl-C during a long engine call is one
    clean KeyboardInterrupt at the next batch, never a SystemError from a kernel."""
    import threading

    from crib_analyze.api import simulate

    simulate(4, seed=1, play_policy="lookahead")  # compiled (or loaded) before the clock
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    start = time.monotonic()
    timer.start()
    with pytest.raises(KeyboardInterrupt) as caught:
        simulate(2_000_000, seed=1, batch=2000, play_policy="lookahead")
    assert time.monotonic() - start < 10
    assert Path(str(caught.traceback[-1].path)).name == "interrupts.py"  # raised by check()
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
