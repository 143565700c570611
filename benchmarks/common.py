"""Helpers shared by the benchmark scripts in this folder.

Each script is run as ``.venv/bin/python benchmarks/NAME.py``, which puts this folder
first on ``sys.path``, so ``from common import ...`` finds this module. Only the
standard library is imported at module level (numpy and pyarrow inside the helpers that
use them), so a script such as bench_startup.py stays light.

Every ``crib-analyze`` process started from here gets ``$CRIB_ANALYZE_DATA_DIR`` set to
a scratch dir of this run (removed at exit), so nothing generated lands in the user data
dir; its kernel cache is ``$CRIB_ANALYZE_CACHE_DIR`` when a script passes one (cold and
warm figures), else the one found (by default ``~/.cache/crib-analyze``).
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

SEED = 20261130
BIN = Path(sys.executable).parent
CLI = str(BIN / "crib-analyze")
GNU_TIME = Path("/usr/bin/time")
CACHE_ENV = "CRIB_ANALYZE_CACHE_DIR"  # where crib_analyze.jit caches compiled kernels
DATA_ENV = "CRIB_ANALYZE_DATA_DIR"  # where generated files go without -o


@dataclass(frozen=True)
class Run:
    """One finished process: wall seconds, peak RSS in MB, its stderr and load average."""

    wall: float
    peak_mb: float
    stderr: str
    load: float


def require_cli() -> None:
    """Exit with a hint when the ``crib-analyze`` entry point is not installed."""
    if not Path(CLI).exists():
        raise SystemExit(f"{CLI} not found: run `make install` first")


@cache
def scratch_data_dir() -> str:
    """A temp dir for ``$CRIB_ANALYZE_DATA_DIR`` of child processes, removed at exit."""
    path = tempfile.mkdtemp(prefix="bench-data-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


@functools.cache
def bytecode_dir() -> str:
    """A temp dir for the children's compiled bytecode (removed at exit)."""
    path = tempfile.mkdtemp(prefix="bench-pycache-")
    atexit.register(shutil.rmtree, path, ignore_errors=True)
    return path


def bench_env(cache_dir: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """The environment of a child process: this one's, with the data dir a scratch dir
    and, if given, ``cache_dir`` as the kernel cache (``None``: as inherited). Python's
    bytecode is kept, in a temp dir, as an installed package's is: a machine whose
    environment says PYTHONDONTWRITEBYTECODE would otherwise compile every module's
    source on every run (~0.1 s)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = bytecode_dir()
    env[DATA_ENV] = scratch_data_dir()
    if cache_dir is not None:
        env[CACHE_ENV] = str(cache_dir)
    return env


def reproduce_command(script: str) -> str:
    """The command line that reruns ``benchmarks/script`` with this run's arguments."""
    return " ".join([".venv/bin/python", f"benchmarks/{script}", *sys.argv[1:]])


def load1() -> float:
    """The one-minute load average."""
    return os.getloadavg()[0]


def loads_text() -> str:
    """The 1, 5 and 15 minute load averages, space separated."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def spread(values: Sequence[float], fmt: str = "{:.2f}") -> str:
    """``"best (min-max)"`` text for a list of timings (lower is better)."""
    lo, hi = min(values), max(values)
    return f"{fmt.format(lo)} ({fmt.format(lo)}-{fmt.format(hi)})"


def run_once(argv: list[str], expect: str, cache_dir: str | None) -> float:
    """Wall seconds of one process; fails loudly on a bad exit or unexpected output.

    ``cache_dir`` is the process's ``CRIB_ANALYZE_CACHE_DIR`` (``None``: as inherited)."""
    env = bench_env(cache_dir)
    start = time.perf_counter()
    proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0 or expect not in proc.stdout:
        raise SystemExit(f"{argv} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    return elapsed


def run_measured(argv: Sequence[str], env: dict[str, str]) -> Run:
    """Run ``crib-analyze argv``; wall time and peak RSS; exit 0 required."""
    load = load1()
    if GNU_TIME.exists():
        cmd = [str(GNU_TIME), "-v", CLI, *argv]
        start = time.perf_counter()
        proc = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
        wall = time.perf_counter() - start
        match = re.search(r"Maximum resident set size \(kbytes\): (\d+)", proc.stderr)
        if proc.returncode != 0 or match is None:
            raise SystemExit(f"crib-analyze {argv} failed ({proc.returncode}):\n{proc.stderr}")
        peak_kb = int(match.group(1))
        stderr = proc.stderr[: proc.stderr.find("\tCommand being timed")]
    else:  # the child's own rusage (ru_maxrss is in KB on Linux)
        start = time.perf_counter()
        child = subprocess.Popen([CLI, *argv], env=env, stderr=subprocess.PIPE, text=True)
        assert child.stderr is not None
        stderr = child.stderr.read()
        _, status, usage = os.wait4(child.pid, 0)
        wall = time.perf_counter() - start
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode != 0:
            raise SystemExit(f"crib-analyze {argv} failed ({child.returncode}):\n{stderr}")
        peak_kb = usage.ru_maxrss
    return Run(wall=wall, peak_mb=peak_kb / 1024, stderr=stderr, load=load)


def run_table(
    argv: Sequence[str], out: Path, env: dict[str, str], rows: int
) -> tuple[Run, dict[str, Any]]:
    """``run_measured(argv)`` of a table command writing ``out``, which is removed (with
    its ``.parts`` folder) first; checks the file holds ``rows`` rows, as its
    ``crib_analyze`` metadata says, and returns the run and that metadata."""
    import pyarrow.parquet as pq

    out.unlink(missing_ok=True)
    shutil.rmtree(out.with_name(out.name + ".parts"), ignore_errors=True)
    run = run_measured(argv, env)
    meta = pq.read_metadata(out)
    stamped: dict[str, Any] = json.loads((meta.metadata or {})[b"crib_analyze"])
    assert meta.num_rows == stamped["rows"] == rows, (meta.num_rows, stamped["rows"])
    return run, stamped


def random_hands(n: int, seed: int = SEED) -> list[list[int]]:
    """``n`` six-card hands (lists of card ids), reproducible from ``seed``."""
    import numpy as np

    rng = np.random.default_rng(seed)
    return [[int(c) for c in rng.choice(52, 6, replace=False)] for _ in range(n)]


def pass_seconds(
    fn: Callable[[list[int]], object], hands: list[list[int]], repeats: int
) -> list[float]:
    """Per-hand seconds of each of ``repeats`` passes over ``hands``."""
    passes = []
    for _ in range(repeats):
        start = time.perf_counter()
        for hand in hands:
            fn(hand)
        passes.append((time.perf_counter() - start) / len(hands))
    return passes
