"""Benchmarks for the board: the table build, throws from a score, odds, full games.

1. The board DP over 200,000 simulated deals: merged and de-duplicated event sequences
   (what the build does) against the raw deals (the naive baseline), same numbers.
2. ``crib-analyze build-board`` (1,000,000 deals), the whole process. Target <= 120 s.
3. Throws from a score (``analyze(..., score=(110, 115))``), 4,000 shared deals x 15
   throws, per hand in-process, against the same hand ranked by points. Target <= 0.5 s.
4. ``crib-analyze odds 95 100 --dealer`` and ``discard ... --score 110-115``, warm,
   whole process, beside ``python -c "import numpy, numba"``.
5. Full games, expert against expert, games per second (2 cores).

Run from the repository root::

    .venv/bin/python benchmarks/bench_board.py [--quick]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from crib_analyze import analyze, simulate
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.board import dp_kernels as dpk
from crib_analyze.board import event_kernels as evk
from crib_analyze.board.build import distinct_deals
from crib_analyze.board.expert_throws import expert_deals
from crib_analyze.play.matches import kept_rank_weights
from crib_analyze.scoring.show_kernels import rank_table

CLI = str(Path(sys.executable).with_name("crib-analyze"))
HAND = "5H 6S 4D JC QH 5C"


def timed(args: list[str], runs: int = 3) -> float:
    """Median wall time of a whole process."""
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(args, check=True, capture_output=True)
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="skip the full build")
    args = parser.parse_args()
    model = load_model()
    lines = np.array([91, 61, 31], np.int64)

    print("1. the DP over 200,000 deals: distinct merged sequences vs raw deals")
    deals = expert_deals(200_000, 0, model)
    players, points, _ = evk.deal_events(
        deals, rank_table(), np.array([1, 1], np.int64), kept_rank_weights(model), 16, 0, 1 << 40
    )
    dpk.board_values(players[:100], points[:100], np.ones(100), 121, lines)  # compile
    t = time.perf_counter()
    p, q, w = distinct_deals(players, points)
    fast = dpk.board_values(p, q, w, 121, lines)
    t_fast = time.perf_counter() - t
    t = time.perf_counter()
    raw = dpk.board_values(players, points, np.ones(len(players)), 121, lines)
    t_raw = time.perf_counter() - t
    same = np.abs(fast - raw).max()
    print(
        f"   distinct ({len(w):,} sequences) {t_fast:.1f} s, raw {t_raw:.1f} s: "
        f"{t_raw / t_fast:.1f}x; largest difference {same:.1e}"
    )

    if not args.quick:
        print("2. crib-analyze build-board (1,000,000 deals), whole process")
        with tempfile.TemporaryDirectory() as tmp:
            t = time.perf_counter()
            subprocess.run([CLI, "build-board", "-q", "-o", f"{tmp}/b.npz"], check=True)
            dt = time.perf_counter() - t
        print(f"   {dt:.0f} s [{'PASS' if dt <= 120 else 'FAIL'}: <= 120 s]")

    print("3. throws from a score, in-process (4,000 shared deals x 15 throws)")
    analyze(HAND, role="dealer", score=(110, 115), position_samples=100)  # compile / load
    runs = []
    for seed in range(3):
        t = time.perf_counter()
        analyze(HAND, role="dealer", score=(110, 115), seed=seed)
        runs.append(time.perf_counter() - t)
    t = time.perf_counter()
    analyze(HAND, role="dealer")
    base = time.perf_counter() - t
    per = statistics.median(runs)
    print(
        f"   {per:.3f} s per hand [{'PASS' if per <= 0.5 else 'FAIL'}: <= 0.5 s]; "
        f"by points alone {base:.3f} s"
    )

    print("4. whole processes, warm (median of 3)")
    floor = timed([sys.executable, "-c", "import numpy, numba"])
    odds = timed([CLI, "odds", "95", "100", "--dealer"])
    score = timed([CLI, "discard", *HAND.split(), "--dealer", "--score", "110-115"])
    print(f"   odds {odds:.2f} s; discard --score {score:.2f} s; import numpy+numba {floor:.2f} s")

    print("5. full games, expert vs expert")
    simulate(200, seed=1)  # compile / load
    n = 20_000 if args.quick else 100_000
    t = time.perf_counter()
    simulate(n, seed=2)
    dt = time.perf_counter() - t
    print(f"   {n:,} games in {dt:.1f} s: {n / dt:,.0f} games/s")
    print("reproduce: .venv/bin/python benchmarks/bench_board.py")


if __name__ == "__main__":
    main()
