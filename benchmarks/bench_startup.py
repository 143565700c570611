"""Process start-up (issue 34): whole ``crib-analyze`` runs beside a baseline process.

The baseline is ``python -c "import numpy"``, run in the same session (about what an
exact C program takes for one hand): the one-hand commands are judged by their ratio to
it, which survives a noisy machine. **Warm**: the kernel cache (``CRIB_ANALYZE_CACHE_DIR``)
filled; **cold**: a fresh empty one, as after an install or an upgrade (every kernel a
command needs compiles). Medians of several runs.

The goals of the issue, each with PASS or FAIL:

* warm ``discard`` (default options), ``score``, ``odds``: at most 1.5x the baseline;
* their cold run: at most 2x their warm run (nothing to compile);
* warm ``play`` (the solver): at most 0.3 s; cold ``play``: at most 10 s;
* 48 hands through ``discard --hands-file``: at least 10x faster than 48 runs;
* ``analyze()`` in a loop: at least 100x faster a hand than a separate process.

The first runs of the commands that do compile are measured too; ``--record`` writes
them to ``data/costs.json`` as ``first-run-...``, which the compile notice quotes.

Run from the repository root::

    .venv/bin/python benchmarks/bench_startup.py [--quick] [--record] [--no-first-runs]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from crib_analyze.cards import format_cards
from crib_analyze.settings import NUMPY_HANDS

from common import CLI, bench_env, random_hands, reproduce_command, require_cli, run_once

ROOT = Path(__file__).resolve().parent.parent
COSTS = ROOT / "data" / "costs.json"
HAND = "5H 6S 4D JC QH 5C"
# (label, crib-analyze arguments, text the output must contain)
INSTANT = [
    ("discard", f"discard {HAND} --dealer", "JC QH"),
    ("score", "score 5H 5C 5S JD --starter 5D", "total     29"),
    ("odds", "odds 100-110 --dealer", "you deal"),
]
PLAY = ("play", 'play 7C 8D 2C 3D --pone --starter 5H --discards "9H KS"', "play 2C")
# first runs that compile: (the compile notice's kind, arguments, expected output)
COMPILING = [
    PLAY,
    ("discard --score", f"discard {HAND} --dealer --score 100-105", "JC QH"),
    ("discard --opponent sampled", f"discard {HAND} --dealer --opponent sampled", "JC QH"),
    ("simulate", "simulate --games 20", "games"),
    (
        "play --game",
        "play 5C 9D KS 2H --game three --seat dealer --starter 4D --played '7H 3S'",
        "three",
    ),
    (
        "play --game --score",
        "play 5C 9D KS 2H --game five-dealt --seat dealer --starter 4D --played 7H --score 110-115",
        "p_win",
    ),
]
GOAL_RATIO = 1.5  # warm one-hand command / the baseline
GOAL_COLD = 2.0  # cold / warm, for the commands that compile nothing
GOAL_PLAY_WARM, GOAL_PLAY_COLD = 0.3, 10.0  # seconds
GOAL_FILE, GOAL_LOOP = 10.0, 100.0  # speed-ups over separate processes


def verdict(ok: bool) -> str:
    return "PASS" if ok else "FAIL"


def warm_runs(argv: list[str], expect: str, cache: str, n: int) -> list[float]:
    run_once(argv, expect, cache)  # page in, and fill the cache
    return [run_once(argv, expect, cache) for _ in range(n)]


def loop_seconds(cache: str, hands: int) -> float:
    """Seconds a hand of ``analyze()`` called in a loop in one process, once it has
    settled: after the first hands, which numpy answers, and the kernels' load (~0.5 s,
    once a process)."""
    code = (
        "import time\nfrom crib_analyze.api import analyze\n"
        f"hands = {random_hands(hands + NUMPY_HANDS + 1)!r}\n"
        f"for h in hands[:{NUMPY_HANDS + 1}]:\n    analyze(h, role='dealer')\n"
        "t = time.perf_counter()\n"
        f"for h in hands[{NUMPY_HANDS + 1}:]:\n    analyze(h, role='dealer')\n"
        f"print((time.perf_counter() - t) / {hands})\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=bench_env(cache), capture_output=True, text=True
    )
    if out.returncode:
        raise SystemExit(out.stderr)
    return float(out.stdout.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer warm runs, a shorter loop")
    parser.add_argument("--record", action="store_true", help="write first-run-* to costs.json")
    parser.add_argument(
        "--no-first-runs", action="store_true", help="skip the commands that compile (minutes)"
    )
    args = parser.parse_args()
    n_warm = 3 if args.quick else 7
    require_cli()
    cache = tempfile.mkdtemp(prefix="kernel-cache-")
    print(f"cpus: {os.cpu_count()}; warm runs: {n_warm} (medians)\n")

    base_argv = [sys.executable, "-c", "import numpy"]
    base = statistics.median(warm_runs(base_argv, "", cache, n_warm))
    label = 'baseline: python -c "import numpy"'
    print(f"{label:<44} {base:>7.3f} s")
    rows = []
    for label, line, expect in INSTANT:
        argv = [CLI, *shlex.split(line)]
        warm = statistics.median(warm_runs(argv, expect, cache, n_warm))  # bytecode kept too
        with tempfile.TemporaryDirectory(prefix="cold-") as cold_cache:
            cold = run_once(argv, expect, cold_cache)  # an empty kernel cache, as installed
        base_now = statistics.median(warm_runs(base_argv, "", cache, 3))  # beside it
        rows.append((label, warm, warm / base_now, cold, cold / warm))
        print(
            f"{label + ' (warm, cold)':<44} {warm:>7.3f} s  {warm / base_now:4.2f}x baseline"
            f"  {verdict(warm / base_now <= GOAL_RATIO)};  cold {cold:.3f} s"
            f"  {cold / warm:4.2f}x warm  {verdict(cold / warm <= GOAL_COLD)}"
        )

    first_runs: dict[str, float] = {}
    for kind, line, expect in [] if args.no_first_runs else COMPILING:
        argv = [CLI, *shlex.split(line)]
        with tempfile.TemporaryDirectory(prefix="cold-") as cold_cache:
            first_runs[kind] = run_once(argv, expect, cold_cache)
            warm = statistics.median(warm_runs(argv, expect, cold_cache, 3))
        extra = ""
        if kind == "play":
            extra = (
                f"  goals: warm <= {GOAL_PLAY_WARM} s {verdict(warm <= GOAL_PLAY_WARM)}, "
                f"cold <= {GOAL_PLAY_COLD:.0f} s {verdict(first_runs[kind] <= GOAL_PLAY_COLD)}"
            )
        print(f"{kind + ' (first run, warm)':<44} {first_runs[kind]:>7.1f} s  {warm:.3f} s{extra}")

    hands = random_hands(48)
    with tempfile.TemporaryDirectory(prefix="hands-") as folder:
        path = Path(folder, "hands.txt")
        path.write_text("".join(format_cards(h) + "\n" for h in hands), encoding="utf-8")
        argv = [CLI, "discard", "--hands-file", str(path), "--dealer", "-f", "csv"]
        one_file = statistics.median(warm_runs(argv, "discard", cache, 3))
    per_process = rows[0][1]
    speed_file = 48 * per_process / one_file
    print(
        f"{'48 hands: --hands-file vs 48 runs':<44} {one_file:>7.3f} s  {speed_file:5.1f}x"
        f"  goal >= {GOAL_FILE:.0f}x {verdict(speed_file >= GOAL_FILE)}"
    )
    loop = loop_seconds(cache, 100 if args.quick else 400)
    speed_loop = per_process / loop
    print(
        f"{'analyze() in a loop, a hand':<44} {loop * 1000:>7.2f} ms {speed_loop:5.0f}x a process"
        f"  goal >= {GOAL_LOOP:.0f}x {verdict(speed_loop >= GOAL_LOOP)}"
    )
    print(f"\nreproduce: {reproduce_command('bench_startup.py')}")
    if args.record and first_runs:
        from crib_analyze.costs import first_run_key

        data = json.loads(COSTS.read_text())
        stamp = time.strftime("%Y-%m-%d")
        for kind, seconds in first_runs.items():
            data["figures"][first_run_key(kind)] = {
                "per": "run",
                "seconds": round(seconds, 1),
                "source": f"benchmarks/bench_startup.py, {stamp}, {os.cpu_count()} cores",
                "what": f"the first run of {kind} after an install: compiling its kernels",
            }
        COSTS.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
        print(f"written: {COSTS.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
