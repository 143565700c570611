"""Process start-up: wall time of whole ``crib-analyze`` runs, cold and warm numba cache.

Cold: ``CRIB_ANALYZE_CACHE_DIR`` (the kernel cache of :mod:`crib_analyze.jit`) points
at a fresh empty directory, so every kernel the command needs is compiled. Warm: the
same directory again, kernels load from it (median of several runs). The floors run in
the same process tree: ``python -c pass``, ``import numpy``, ``import numpy, numba``,
and one cached one-line numba kernel called once (what any numba program pays before
its own work: numba builds its typing and target contexts before it loads machine code
from the cache), then ``crib-analyze --help``. The discard command uses the default
opponent (expert).

Run from the repository root::

    .venv/bin/python benchmarks/bench_startup.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

from common import CLI, reproduce_command, require_cli, run_once

DISCARD_WARM_TARGET = 0.5  # seconds (issue 14: the headline command, warm)
TINY_KERNEL = """
import numba

@numba.njit(cache=True)
def f(x):
    return x + 1
"""

# (crib-analyze arguments, text the output must contain)
COMMANDS: list[tuple[str, str]] = [
    ("score 5H 5C 5S JD --starter 5D", "total     29"),
    ("discard 5H 6S 4D JC QH 5C --dealer", "JC QH"),
    ("discard 5H 6S 4D JC QH 5C --dealer --opponent random", "JC QH"),
    ("discard 5H 6S 4D JC QH 5C --dealer --no-pegging", "JC QH"),
]
FLOORS: list[tuple[str, list[str], str]] = [
    ("python -c pass (interpreter)", [sys.executable, "-c", "pass"], ""),
    ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"], ""),
    ("python -c 'import numpy, numba'", [sys.executable, "-c", "import numpy, numba"], ""),
    ("a cached one-line numba kernel, called once", [], ""),  # filled in main()
    ("crib-analyze --help", [CLI, "--help"], "Usage"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="one cold run, three warm runs")
    args = parser.parse_args()
    n_cold = 1 if args.quick else 2
    n_warm = 3 if args.quick else 7
    require_cli()

    print(f"cpus: {os.cpu_count()}; cold runs per command: {n_cold}; warm runs: {n_warm}\n")
    print(f"{'command':<60} {'cold':>8} {'warm (median)':>14} {'warm min':>9}")
    tiny = tempfile.mkdtemp(prefix="tiny-kernel-")
    Path(tiny, "tiny.py").write_text(TINY_KERNEL)
    os.environ["NUMBA_CACHE_DIR"] = str(Path(tiny, "cache"))  # for that floor only
    call = f"import sys; sys.path.insert(0, {tiny!r}); import tiny; tiny.f(1)"
    floors = [(label, argv or [sys.executable, "-c", call], e) for label, argv, e in FLOORS]
    for label, argv, expect in floors:
        run_once(argv, expect, None)  # page in the interpreter and packages
        warm = [run_once(argv, expect, None) for _ in range(n_warm)]
        print(f"{label:<60} {'-':>8} {statistics.median(warm):>12.3f} s {min(warm):>7.3f} s")

    results: dict[str, float] = {}
    for label, expect in COMMANDS:
        argv = [CLI, *label.split()]
        cold, warm = [], []
        for _ in range(n_cold):
            with tempfile.TemporaryDirectory(prefix="kernel-cache-") as cache_dir:
                cold.append(run_once(argv, expect, cache_dir))
                warm += [run_once(argv, expect, cache_dir) for _ in range(n_warm)]
        results[label] = statistics.median(warm)
        cold_s = statistics.median(cold)
        print(f"{label:<60} {cold_s:>6.2f} s {results[label]:>12.3f} s {min(warm):>7.3f} s")

    discard_warm = results[COMMANDS[1][0]]
    verdict = "PASS" if discard_warm <= DISCARD_WARM_TARGET else "FAIL"
    target = f"target discard warm <= {DISCARD_WARM_TARGET:.2f} s wall"
    print(f"\n{target}: {verdict} ({discard_warm:.3f} s)")
    print(f"reproduce: {reproduce_command('bench_startup.py')}")


if __name__ == "__main__":
    main()
