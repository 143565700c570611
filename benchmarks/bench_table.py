"""Full discard table: ``crib-analyze table`` wall time and memory, loading it, resume.

(0) Warm-up: ``crib-analyze table --limit 100`` with a fresh ``CRIB_ANALYZE_CACHE_DIR``
    (cold: every kernel compiled), then again (warm). Every later process uses that
    cache, so compilation is never counted in the figures below.
(1) ``crib-analyze table -o TMP/t.parquet --quiet``: the whole table (962,988 hand
    classes x 15 discards = 14,444,820 rows, random opponent, exact) into a temp dir,
    wall time and peak resident memory of the process (``/usr/bin/time -v``, else the
    child's rusage from ``os.wait4``); rows/s and the Parquet file size.
(2) The same with ``--jobs 1``: the speed-up of all cores over one.
(3) ``crib-analyze table check TMP/t.parquet`` on the full file: wall time and peak
    memory of the process (it reads every column of every row group and compares each
    row group's checksum, then checks rows, hands, weights and best discards).
(4) ``crib_analyze.load_table(path, columns=[...])`` on the full file in a fresh
    process: four columns with the text ones, and four numeric ones. The import of
    the modules it uses is timed separately and excluded from the load figure.
(5) Baseline: the per-hand API ``crib_analyze.analyze(hand)`` (same numbers, one
    hand at a time) on class representatives spread over the whole table,
    extrapolated to 962,988 classes; its answers are checked against the table.
(6) Resume: ``--limit 300000`` (30 chunks) timed fresh, then interrupted with
    SIGINT once five chunks are on disk (30 ms later, i.e. while the next chunk is
    being written), then rerun; the rerun must report the kept chunks as resumed
    and write the same rows as the full table.

Run from the repository root (everything is written to a temp dir, removed at the
end; ``$CRIB_ANALYZE_DATA_DIR`` of the processes is a temp dir too)::

    .venv/bin/python benchmarks/bench_table.py [--quick]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq

from crib_analyze import analyze, format_cards
from crib_analyze.crib.hand_classes import N_CLASSES, hand_classes

from common import (
    CLI,
    GNU_TIME,
    Run,
    bench_env,
    loads_text,
    reproduce_command,
    require_cli,
    run_measured,
    run_table,
    spread,
)

N_ROWS = N_CLASSES * 15  # 14,444,820
TARGET_WALL_SECONDS = 120.0
TARGET_PEAK_GB = 4.0
TARGET_LOAD_SECONDS = 3.0
OLD_CHECK_SECONDS = 3.1  # table check before it read every column (benchmarks/README.md)
TEXT_COLUMNS = ["hand", "discard", "dealer_net", "pone_net"]
NUMERIC_COLUMNS = ["hand_id", "d1", "d2", "crib_mean"]
RESUME_LIMIT = 300_000  # 30 chunks of 10,000 classes
RESUME_AFTER_CHUNKS = 5
RESUME_SIGNAL_DELAY = 0.03  # seconds after the 5th chunk file appears
CHECK_COLUMNS = ["hand_id", "d1", "d2", "hand_mean", "crib_mean", "dealer_net", "pone_net"]


def bench_warmup(env: dict[str, str], tmp: Path) -> None:
    """(0) compile (cold cache) and warm start-up of a tiny table run."""
    out = tmp / "warm.parquet"
    argv = ["table", "--limit", "100", "-o", str(out), "--quiet"]
    cold = run_measured(argv, env)
    warm = [run_measured(argv, env).wall for _ in range(2)]
    print("(0) crib-analyze table --limit 100 (1,500 rows), fresh CRIB_ANALYZE_CACHE_DIR")
    print(f"    cold (compiles every kernel) : {cold.wall:6.2f} s")
    print(f"    warm (cache filled)          : {spread(warm)} s")
    print(f"    compile cost ~ cold - warm   : {cold.wall - min(warm):6.2f} s\n")


def full_runs(env: dict[str, str], out: Path, repeats: int, jobs: int | None) -> list[Run]:
    """``repeats`` whole-table processes into ``out`` (removed before each run)."""
    argv = ["table", "-o", str(out), "--quiet"] + ([] if jobs is None else ["--jobs", str(jobs)])
    return [run_table(argv, out, env, N_ROWS)[0] for _ in range(repeats)]


def bench_full(env: dict[str, str], out: Path, repeats: int) -> float:
    """(1) and (2): all cores, then one core; returns the best all-core wall time."""
    runs = full_runs(env, out, repeats, jobs=None)
    one = full_runs(env, out, repeats, jobs=1)
    best = min(r.wall for r in runs)
    best_one = min(r.wall for r in one)
    peak_gb = max(r.peak_mb for r in runs + one) / 1024
    size_mb = out.stat().st_size / 1e6
    loads = [r.load for r in runs + one]
    n_cores = os.cpu_count()
    wall_ok = "PASS" if best <= TARGET_WALL_SECONDS else "FAIL"
    mem_ok = "PASS" if peak_gb <= TARGET_PEAK_GB else "FAIL"
    print(f"(1) crib-analyze table -o TMP/t.parquet --quiet ({N_ROWS:,} rows), {repeats} run(s)")
    print(f"    wall         : {spread([r.wall for r in runs])} s")
    print(f"    rows/s       : {N_ROWS / best / 1e6:.2f} M rows/s (best run)")
    print(f"    peak RSS     : {spread([r.peak_mb for r in runs], '{:.0f}')} MB")
    print(f"    Parquet file : {size_mb:.1f} MB ({size_mb * 1e6 / N_ROWS:.1f} bytes/row)")
    print(f"    load average before the runs: {', '.join(f'{x:.2f}' for x in loads)}")
    print(f"(2) same with --jobs 1, {repeats} run(s)")
    print(f"    wall         : {spread([r.wall for r in one])} s")
    print(f"    peak RSS     : {spread([r.peak_mb for r in one], '{:.0f}')} MB")
    print(f"    speed-up {n_cores} cores / 1 core: {best_one / best:.2f}x (best runs)")
    print(f"    target whole table <= {TARGET_WALL_SECONDS:.0f} s wall: {wall_ok}")
    print(f"    target peak memory <= {TARGET_PEAK_GB:.0f} GB: {mem_ok} ({peak_gb:.2f} GB)\n")
    return best


def bench_check(env: dict[str, str], path: Path, repeats: int) -> None:
    """(3) ``table check`` on the full file: wall time and peak memory of the process."""
    runs = [run_measured(["table", "check", str(path)], env) for _ in range(repeats)]
    out = subprocess.run(  # once more for its output (run_measured keeps only stderr)
        [CLI, "table", "check", str(path)], env=env, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0 and out.stdout.startswith("ok:"), (out.stdout, out.stderr)
    assert "full table" in out.stdout and "data checksums match" in out.stdout, out.stdout
    best = min(r.wall for r in runs)
    print(f"(3) crib-analyze table check TMP/t.parquet, {repeats} run(s) (+1 to read its output)")
    print(f"    wall         : {spread([r.wall for r in runs])} s")
    print(f"    peak RSS     : {spread([r.peak_mb for r in runs], '{:.0f}')} MB")
    print(f"    says         : {out.stdout.strip()[:100]}...")
    print(
        f"    before it read every column it took {OLD_CHECK_SECONDS} s "
        f"(benchmarks/README.md): now {best / OLD_CHECK_SECONDS:.1f}x that\n"
    )


LOADER = """
import json, resource, sys, time
start = time.perf_counter()
import pandas.io.parquet, pyarrow.parquet
import crib_analyze.api, crib_analyze.frames
from crib_analyze import load_table
imported = time.perf_counter() - start
start = time.perf_counter()
df = load_table(sys.argv[1], columns=sys.argv[2].split(","))
loaded = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({"import": imported, "load": loaded, "rows": len(df), "peak_mb": peak,
                  "dtypes": [str(t) for t in df.dtypes]}))
"""


def bench_load(env: dict[str, str], path: Path, repeats: int) -> None:
    """(4) load_table in a fresh process, import timed apart."""
    print(f"(4) load_table(path, columns=[...]) on the full file, fresh process x {repeats}")
    for columns in (TEXT_COLUMNS, NUMERIC_COLUMNS):
        results = []
        for _ in range(repeats):
            argv = [sys.executable, "-c", LOADER, str(path), ",".join(columns)]
            proc = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
            if proc.returncode != 0:
                raise SystemExit(f"load_table {columns} failed:\n{proc.stderr}")
            results.append(json.loads(proc.stdout))
        assert all(r["rows"] == N_ROWS for r in results)
        loads = [r["load"] for r in results]
        verdict = "PASS" if min(loads) < TARGET_LOAD_SECONDS else "FAIL"
        print(f"    columns {columns}")
        target = f"target < {TARGET_LOAD_SECONDS:.0f} s: {verdict}"
        print(f"      load   : {spread(loads)} s  -> {target}")
        print(f"      runs   : {', '.join(f'{x:.2f}' for x in loads)} s (in order)")
        print(f"      import : {spread([r['import'] for r in results])} s (excluded above)")
        print(f"      peak RSS of the loading process: {max(r['peak_mb'] for r in results):.0f} MB")
        print(f"      dtypes : {', '.join(results[0]['dtypes'])}")
    print()


def bench_baseline(path: Path, n_hands: int, repeats: int, table_wall: float) -> None:
    """(5) analyze(hand) per class representative, extrapolated; answers checked."""
    classes = hand_classes()
    ids = np.linspace(0, N_CLASSES - 1, n_hands).round().astype(np.int64)
    hands = [[int(c) for c in classes.cards[i]] for i in ids]
    analyze(hands[0], opponent="random")  # compile or load the kernels
    passes, frames = [], []
    for _ in range(repeats):
        start = time.perf_counter()
        frames = [analyze(hand, opponent="random") for hand in hands]
        passes.append((time.perf_counter() - start) / n_hands)

    rows = pq.read_table(path, columns=CHECK_COLUMNS, filters=[("hand_id", "in", ids.tolist())])
    table = rows.to_pandas()
    table["discard"] = [format_cards([a, b]) for a, b in zip(table.d1, table.d2, strict=True)]
    for hand_id, frame in zip(ids, frames, strict=True):
        mine = table[table.hand_id == hand_id].set_index("discard").sort_index()
        theirs = frame.set_index("discard").sort_index()
        assert len(mine) == len(theirs) == 15, hand_id
        for col, other in [
            ("hand_mean", "hand_mean"),
            ("crib_mean", "dealer_crib_mean"),
            ("dealer_net", "dealer_net"),
            ("pone_net", "pone_net"),
        ]:
            diff = np.abs(mine[col].to_numpy() - theirs[other].to_numpy()).max()
            assert diff < 1e-9, (hand_id, col, diff)

    per_hand = min(passes)
    total = per_hand * N_CLASSES
    print(f"(5) baseline: analyze(hand) per class, {n_hands} representatives spread over the table")
    ms = spread([p * 1e3 for p in passes], "{:.3f}")
    print(f"    per hand     : {ms} ms ({repeats} pass(es))")
    print(f"    x {N_CLASSES:,} classes: {total:,.0f} s = {total / 60:.1f} min (extrapolated)")
    print(f"    answers match the table rows for all {n_hands} hands (to 1e-9)")
    print(f"    speed-up of the table job over the per-hand loop: {total / table_wall:,.0f}x\n")


def describe_exit(code: int | None, err: str) -> str:
    """How an interrupted process ended: exit code and its last stderr line."""
    if code is not None and code < 0:
        return f"killed by {signal.Signals(-code).name}"
    last = err.strip().splitlines()[-1] if err.strip() else ""
    return f"exit {code}: {last[:60]}"


def bench_resume(env: dict[str, str], tmp: Path, full: Path) -> None:
    """(6) interrupt a --limit run with SIGINT mid-chunk, rerun, compare with the full table."""
    out = tmp / "resume.parquet"
    parts = out.with_name(out.name + ".parts")
    n_chunks = -(-RESUME_LIMIT // 10_000)
    argv = ["table", "--limit", str(RESUME_LIMIT), "-o", str(out)]
    fresh = run_measured(
        ["table", "--limit", str(RESUME_LIMIT), "-o", str(tmp / "fresh.parquet")], env
    )

    start = time.perf_counter()
    child = subprocess.Popen([CLI, *argv], env=env, stderr=subprocess.PIPE, text=True)
    while child.poll() is None and len(list(parts.glob("chunk-*.parquet"))) < RESUME_AFTER_CHUNKS:
        time.sleep(0.005)
    # mid-chunk (writing it), not at the start of the next chunk's numba kernel: a
    # SIGINT inside a numba call escapes the CLI's handler (see benchmarks/README.md)
    time.sleep(RESUME_SIGNAL_DELAY)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate()
    interrupted_after = time.perf_counter() - start
    done = len(list(parts.glob("chunk-*.parquet")))
    clean = child.returncode == 130 and "rerun to resume" in err

    rerun = run_measured(argv, env)
    match = re.search(r"\((\d+) chunks computed, (\d+) resumed\)", rerun.stderr)
    assert match is not None, rerun.stderr
    computed, resumed = int(match.group(1)), int(match.group(2))
    ok = resumed == done and computed + resumed == n_chunks
    big, small = pq.ParquetFile(full), pq.ParquetFile(out)
    assert small.metadata.num_rows == RESUME_LIMIT * 15
    for g in range(small.num_row_groups):
        a = small.read_row_group(g, columns=CHECK_COLUMNS)
        b = big.read_row_group(g, columns=CHECK_COLUMNS)
        assert a.equals(b), f"row group {g} differs from the full table"
    print(f"(6) resume: crib-analyze table --limit {RESUME_LIMIT:,} ({n_chunks} chunks)")
    print(f"    fresh run (no parts)   : {fresh.wall:5.2f} s")
    print(f"    SIGINT after {interrupted_after:.2f} s: {describe_exit(child.returncode, err)}")
    print(f"    chunks kept            : {done}")
    print(f"    rerun                  : {rerun.wall:5.2f} s, says '{match.group(0)[1:-1]}'")
    print("    resumed rows equal the same row groups of the full table")
    print(f"    interrupt exits 130 with the resume hint: {'PASS' if clean else 'FAIL'}")
    print(f"    rerun resumes exactly the kept chunks: {'PASS' if ok else 'FAIL'}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick", action="store_true", help="one run per figure, fewer baseline hands"
    )
    args = parser.parse_args()
    repeats = 1 if args.quick else 2
    require_cli()
    memory = "/usr/bin/time -v" if GNU_TIME.exists() else "os.wait4 rusage"
    print(f"cpus: {os.cpu_count()}; load average {loads_text()}; peak memory from {memory}\n")
    with tempfile.TemporaryDirectory(prefix="bench-table-") as tmp_name:
        tmp = Path(tmp_name)
        env = bench_env(tmp / "kernel-cache")
        bench_warmup(env, tmp)
        full = tmp / "t.parquet"
        best = bench_full(env, full, repeats)
        bench_check(env, full, repeats)
        bench_load(env, full, repeats=2 if args.quick else 3)
        bench_baseline(full, n_hands=100 if args.quick else 300, repeats=repeats, table_wall=best)
        bench_resume(env, tmp, full)
    print(f"load average at the end: {loads_text()}")
    print(f"reproduce: {reproduce_command('bench_table.py')}")


if __name__ == "__main__":
    main()
