"""numpy's huge pages: what asking for them costs here, and what the command sets.

numpy asks the kernel for huge pages (``madvise(MADV_HUGEPAGE)``) for every array of
4 MB or more. Where ``/sys/kernel/mm/transparent_hugepage/defrag`` is ``madvise`` (a
common default) the kernel may stop to compact memory before it hands one out, and a
fresh array is slow to fill (numpy issue 31590). The command sets
``NUMPY_MADVISE_HUGEPAGE=0`` for its own process unless the user set it
(``crib_analyze.settings.PROCESS_ENVIRONMENT``).

Each case runs in its own process, since numpy reads the variable once, when it loads,
with huge pages asked for (``1``, numpy's default) and not (``0``):

* **fresh arrays**: after loading the 962,988 hand classes, six fresh (962,988, 15)
  float64 arrays (115 MB each, the size the fixed point works on), each filled once and
  kept, so none reuses another's memory: seconds per array;
* **fixed point**: two rounds of the expert fixed point (what ``build-model`` repeats,
  and the rebuild test runs), kernels compiled beforehand (``--quick`` skips it);
* **table command**: ``crib-analyze table --limit 100000`` as a user runs it, with
  ``NUMPY_MADVISE_HUGEPAGE`` set to each value (a user's setting wins over the command's).

Run from the repository root::

    .venv/bin/python benchmarks/bench_hugepages.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from common import CLI, bench_env, loads_text, reproduce_command, require_cli, run_measured

FRESH_ARRAYS = """
import time
import numpy as np
from crib_analyze.crib.hand_classes import hand_classes
n = len(hand_classes().cards)
kept, seconds = [], []
for _ in range(6):
    start = time.perf_counter()
    a = np.empty((n, 15))
    a.fill(1.0)
    seconds.append(time.perf_counter() - start)
    kept.append(a)
print(*seconds)
"""

FIXED_POINT = """
import time
from crib_analyze.expert.builder import FixedPoint
FixedPoint(None).run(tolerance=1e-3, max_rounds=2)  # compile (or load) the kernels
start = time.perf_counter()
FixedPoint(None).run(tolerance=1e-3, max_rounds=2)
print(time.perf_counter() - start)
"""

SETTINGS = ("1", "0")  # numpy's default, the command's


def in_process(code: str, setting: str) -> list[float]:
    """The figures ``code`` prints, run with ``NUMPY_MADVISE_HUGEPAGE=setting``."""
    env = bench_env() | {"NUMPY_MADVISE_HUGEPAGE": setting}
    proc = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise SystemExit(f"failed ({proc.returncode}):\n{proc.stderr}")
    return [float(x) for x in proc.stdout.split()]


def kernel_setting(name: str) -> str:
    path = Path("/sys/kernel/mm/transparent_hugepage", name)
    return path.read_text().strip() if path.exists() else "(not found)"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the fixed point")
    args = parser.parse_args()
    require_cli()
    print(f"cpus: {os.cpu_count()}; load {loads_text()}")
    print(f"transparent_hugepage/enabled: {kernel_setting('enabled')}")
    print(f"transparent_hugepage/defrag: {kernel_setting('defrag')}\n")

    fresh = {s: in_process(FRESH_ARRAYS, s) for s in SETTINGS}
    print("a fresh 115 MB array, filled once (seconds; median, min-max of six)")
    for s in SETTINGS:
        v = fresh[s]
        print(
            f"  NUMPY_MADVISE_HUGEPAGE={s}: {statistics.median(v):.3f} ({min(v):.3f}-{max(v):.3f})"
        )
    ratio = statistics.median(fresh["1"]) / statistics.median(fresh["0"])
    print(f"  huge pages asked for / not: {ratio:.1f}x\n")

    if not args.quick:
        print("two rounds of the expert fixed point (seconds, compile excluded)")
        for s in SETTINGS:
            print(f"  NUMPY_MADVISE_HUGEPAGE={s}: {in_process(FIXED_POINT, s)[0]:.1f}")
        print()

    print("crib-analyze table --limit 100000 (wall seconds, peak RSS)")
    with tempfile.TemporaryDirectory(prefix="bench-hugepages-") as tmp:
        argv = ["table", "--limit", "100000", "-o", str(Path(tmp, "t.parquet")), "-q"]
        run_measured(argv, bench_env())  # compile (or load) the kernels first
        for s in SETTINGS:
            run = run_measured(argv, bench_env() | {"NUMPY_MADVISE_HUGEPAGE": s})
            print(f"  NUMPY_MADVISE_HUGEPAGE={s}: {run.wall:.2f} s, {run.peak_mb:.0f} MB")
    print(f"\nthe command sets NUMPY_MADVISE_HUGEPAGE=0 unless set ({CLI})")
    print(f"reproduce: {reproduce_command('bench_hugepages.py')}")


if __name__ == "__main__":
    main()
