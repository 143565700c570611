"""What checking files on read costs: every read verified, beside the same read unchecked.

(1) The full discard table (made in a temp dir, or ``--table PATH``), read by
    ``load_table``: every column, then four numeric columns, then one hand's rows (the
    ``lookup`` filter), each with ``verify=True`` (every row group read whole, its page
    CRCs and its stored checksum checked) and ``verify=False`` (only what is asked,
    unchecked), interleaved, best of ``--repeats``.
(2) The packaged expert model, pegging table and board table, loaded with every check
    (digest, ranges, sums, the fingerprint recomputed) beside a plain ``numpy.load`` of
    the same file's arrays (the baseline: the read alone).

The target (issue 21) is a check costing under 10% of the read; where it costs more,
``verify=False`` (``load_table``) is the documented way out. Run from the repository
root::

    .venv/bin/python benchmarks/bench_verify.py [--table PATH] [--repeats N]
"""

from __future__ import annotations

import argparse
import subprocess
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

from crib_analyze.artifacts.board_table import BoardTable
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.artifacts.pegging_table import PeggingTable
from crib_analyze.frames import read_table_frame
from crib_analyze.settings import PACKAGED_BOARD, PACKAGED_MODEL, PACKAGED_PEGGING, packaged

from common import CLI, bench_env, loads_text, reproduce_command, require_cli


def best(f: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        f()
        times.append(time.perf_counter() - start)
    return min(times)


def pair(label: str, checked: Callable[[], object], plain: Callable[[], object], n: int) -> None:
    plain()  # warm the page cache and the imports
    t_checked, t_plain = [], []
    for _ in range(n):  # interleaved: both see the same machine
        t_plain.append(best(plain, 1))
        t_checked.append(best(checked, 1))
    a, b = min(t_checked), min(t_plain)
    cost = 100 * (a / b - 1)
    print(f"  {label:<44} checked {a:7.3f} s  unchecked {b:7.3f} s  cost {cost:+6.1f}%")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--table", type=Path, help="a full table file (default: make one)")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    require_cli()
    print(f"load average {loads_text()}")
    with tempfile.TemporaryDirectory(prefix="bench-verify-") as tmp:
        table = args.table
        if table is None:
            table = Path(tmp) / "t.parquet"
            print("making the full table (random opponent) ...", flush=True)
            subprocess.run([CLI, "table", "-q", "-o", str(table)], env=bench_env(), check=True)
        size = table.stat().st_size / 1e6
        print(f"(1) load_table on {table} ({size:.0f} MB), best of {args.repeats}")
        n = args.repeats
        pair("every column", lambda: read_table_frame(table),
             lambda: read_table_frame(table, verify=False), n)  # fmt: skip
        numeric = ["hand_id", "weight", "dealer_net", "pone_net"]
        pair("4 numeric columns", lambda: read_table_frame(table, numeric),
             lambda: read_table_frame(table, numeric, verify=False), n)  # fmt: skip
        one = [("hand_id", "==", 123_456)]
        pair("one hand (the lookup filter)", lambda: read_table_frame(table, filters=one),
             lambda: read_table_frame(table, filters=one, verify=False), n)  # fmt: skip

    print(f"(2) packaged files, every check vs numpy.load of the arrays, best of {n * 3}")

    def raw(name: str) -> Callable[[], object]:
        def read() -> object:
            with packaged(name).open("rb") as fh, np.load(fh) as data:
                return {k: data[k] for k in data.files}

        return read

    def opened(name: str, load: Callable[[object], object]) -> Callable[[], object]:
        def read() -> object:
            with packaged(name).open("rb") as fh:
                return load(fh)

        return read

    model = opened(PACKAGED_MODEL, lambda fh: ExpertModel._read(fh, "bench"))  # type: ignore[arg-type]
    pair("expert model", model, raw(PACKAGED_MODEL), n * 3)
    pair("pegging table", opened(PACKAGED_PEGGING, PeggingTable.load), raw(PACKAGED_PEGGING),
         n * 3)  # fmt: skip
    pair("board table", opened(PACKAGED_BOARD, BoardTable.load), raw(PACKAGED_BOARD), n * 3)
    print(f"reproduce: {reproduce_command('bench_verify.py')}")


if __name__ == "__main__":
    main()
