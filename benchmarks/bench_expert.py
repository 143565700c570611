"""Expert opponent: building the model, per-hand analysis, start-up, the expert table.

(1) ``crib-analyze build-model -o TMP/m.npz`` as a subprocess (never over the packaged
    data/expert_model.npz; kernel cache as found, by default
    ~/.cache/crib-analyze, so a first run after a kernel change also compiles): wall
    time, the rounds of its stderr log, and seconds per round, both wall / rounds and
    the interval between consecutive round lines (the log's own per-round seconds
    cover only the crib valuation, not the best responses). ``--quick`` stops it with
    ``--max-rounds 2`` (it then exits 1, "NOT converged") and extrapolates to the
    shipped model's round count R as wall + (R - 3) x round interval: the capped run
    already holds the start, two rounds' best responses, one extra valuation and the
    final policies.
(2) ``discard.analyze_hand(hand, opponent="expert")`` and the whole API
    ``analyze(hand, opponent="expert")``, ms per hand after compilation, on seeded
    random hands, with the kernels it calls timed apart. Baseline: what the exact
    combination replaces, ``opponent="sampled", policy="expert"`` at 2,000 samples
    per hand on a few hands (its answers compared with the exact ones).
(3) ``crib-analyze discard 5H 6S 4D JC QH 5C --dealer --opponent expert``, whole
    process: cold (fresh ``CRIB_ANALYZE_CACHE_DIR``, every kernel compiled), then warm
    (median of several runs from that cache); the same with ``--opponent random`` as
    the baseline, and the phases of one warm process timed in-process.
(4) ``crib-analyze table --opponent expert -o TMP/e.parquet -q`` against
    ``crib-analyze table -o TMP/r.parquet -q`` (random opponent), both warm (a
    ``--limit 100`` run of each first, fresh ``CRIB_ANALYZE_CACHE_DIR``), interleaved;
    then where the expert time goes, in this process: ``expert.class_values.class_cribs_range``
    over all 962,988 classes with both policies (one call; in the table's chunks; one
    thread), the best responses, ``TableSpec.fingerprint()`` (called per part written
    and read) and the model's own fingerprint (once per model), and writing one chunk's
    numeric columns as a Parquet part, random against expert.

Sections (2)-(4) use the model the package reads (``$CRIB_ANALYZE_MODEL`` or the
packaged data/expert_model.npz, unchanged: checked at the end). Every file
is written to a temp dir, removed at the end; ``$CRIB_ANALYZE_DATA_DIR`` of the processes
is a temp dir too. Run from the repository root::

    .venv/bin/python benchmarks/bench_expert.py [--quick]
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import io
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import numba
import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from crib_analyze import analyze
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.crib.combine_kernels import crib_from_weights
from crib_analyze.crib.hand_classes import N_CLASSES, hand_classes, multisets
from crib_analyze.crib.hand_kernels import unseen_counts
from crib_analyze.crib.throw_model_kernels import best_response_stats
from crib_analyze.crib.throw_policy_kernels import compile_policy, weights_from_compiled
from crib_analyze.discard import engine as discard
from crib_analyze.discard.engine import DiscardAnalysis
from crib_analyze.expert.class_values import all_hand_means, class_cribs_range
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import MODEL_ENV, PACKAGED_MODEL, packaged
from crib_analyze.table.chunks import parquet_options
from crib_analyze.table.compute import compute_chunk
from crib_analyze.table.spec import CHUNK_CLASSES, TableSpec

from common import (
    CLI,
    SEED,
    Run,
    bench_env,
    load1,
    loads_text,
    pass_seconds,
    random_hands,
    reproduce_command,
    require_cli,
    run_measured,
    run_once,
    run_table,
    spread,
)

N_ROWS = N_CLASSES * 15  # 14,444,820
TARGET_BUILD_SECONDS = 600.0
TARGET_MS_PER_HAND = 5.0
TARGET_WARM_SECONDS = 1.0
TARGET_TABLE_RATIO = 2.0
SAMPLES = 2000
HAND = "5H 6S 4D JC QH 5C"
ROUND_LINE = re.compile(r"round\s+(\d+)\s+role-table change (\S+)\s+class change (\S+)\s+(\S+) s")
FINAL_LINE = re.compile(r"(NOT converged|converged) after (\d+) rounds in (\S+) s")


def file_digest(path: Path) -> str:
    return hashlib.blake2b(path.read_bytes(), digest_size=8).hexdigest()


def model_file() -> Path:
    """The file the package reads its expert model from: ``$CRIB_ANALYZE_MODEL`` if set,
    else the packaged one (a plain file inside the installed package)."""
    env = os.environ.get(MODEL_ENV)
    return Path(env).expanduser() if env else Path(str(packaged(PACKAGED_MODEL)))


def cribs_of(a: DiscardAnalysis) -> np.ndarray:
    """(2, 15) crib means [the holder deals, the opponent deals] of one analysis."""
    return np.vstack([a.dealer_crib, a.pone_crib])


def crib_ses_of(a: DiscardAnalysis) -> np.ndarray:
    """(2, 15) standard errors of :func:`cribs_of`."""
    return np.vstack([a.dealer_crib_se, a.pone_crib_se])


# --- (1) build-model ---------------------------------------------------------------------


@dataclass(frozen=True)
class Build:
    """One build-model process: wall time, when each round line arrived, its summary."""

    wall: float
    peak_mb: float
    load: float
    line_times: list[float]  # seconds after start at which round k's log line arrived
    logged: list[float]  # the seconds each round line reports
    rounds: int
    converged: bool


def run_build(out: Path, max_rounds: int | None) -> Build:
    """``crib-analyze build-model -o out``, its stderr (the round log) read line by line
    as it arrives; the summary line ("converged after N rounds ...") is on stdout."""
    argv = [CLI, "build-model", "-o", str(out)]
    if max_rounds is not None:
        argv += ["--max-rounds", str(max_rounds)]
    load = load1()
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, env=bench_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stderr is not None and child.stdout is not None
    line_times: list[float] = []
    logged: list[float] = []
    final = None
    lines = []
    for line in child.stderr:
        now = time.perf_counter() - start
        lines.append(line)
        if match := ROUND_LINE.search(line):
            assert int(match.group(1)) == len(line_times) + 1, line
            line_times.append(now)
            logged.append(float(match.group(4)))
    for line in child.stdout:  # two short lines, read once stderr is closed
        lines.append(line)
        if match := FINAL_LINE.search(line):
            final = match
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    capped_ok = max_rounds is not None and code == 1  # stopped by the round cap
    if final is None or (code != 0 and not capped_ok) or not out.exists():
        raise SystemExit(f"build-model failed ({code}):\n{''.join(lines)}")
    rounds = int(final.group(2))
    assert rounds == len(line_times), (rounds, len(line_times))
    return Build(
        wall=wall,
        peak_mb=usage.ru_maxrss / 1024,
        load=load,
        line_times=line_times,
        logged=logged,
        rounds=rounds,
        converged=final.group(1) == "converged",
    )


def bench_build(tmp: Path, quick: bool, shipped: ExpertModel | None) -> None:
    """(1) one whole build (``--quick``: two rounds, extrapolated)."""
    out = tmp / "m.npz"
    build = run_build(out, max_rounds=2 if quick else None)
    intervals = [b - a for a, b in pairwise(build.line_times)]
    interval = statistics.median(intervals)
    head, tail = build.line_times[0], build.wall - build.line_times[-1]
    built = ExpertModel.load(out)
    what = "--max-rounds 2 (--quick)" if quick else "full build"
    print(f"(1) crib-analyze build-model -o TMP/m.npz, {what}, load average {build.load:.2f}")
    print(f"    wall                    : {build.wall:7.1f} s, peak RSS {build.peak_mb:.0f} MB")
    state = "converged" if build.converged else "NOT converged (round cap)"
    print(f"    rounds (stderr log)     : {build.rounds}, {state}")
    print(f"    wall / rounds           : {build.wall / build.rounds:7.2f} s per round")
    print(
        f"    round interval          : {spread(intervals)} s between round lines "
        f"(median {interval:.2f} s)"
    )
    logged = spread(build.logged, "{:.1f}")
    print(f"    logged per round        : {logged} s (crib valuation only, per the log)")
    print(f"    before round 1's line   : {head:7.1f} s (start-up, classes, hand means, round 1)")
    after = "round 2's best response, one more valuation (capped), " if quick else ""
    print(f"    after the last line     : {tail:7.1f} s ({after}final policies, save)")
    if shipped is not None and build.converged:
        same = built.fingerprint() == shipped.fingerprint()
        print(f"    same numbers as the shipped model: {'yes' if same else 'no'}")
    if quick:
        rounds = int(shipped.provenance.get("rounds", 0)) if shipped is not None else 0
        if rounds < 3:
            print("    no shipped model round count to extrapolate to: no verdict\n")
            return
        estimate = build.wall + (rounds - 3) * interval
        verdict = "PASS" if estimate <= TARGET_BUILD_SECONDS else "FAIL"
        print(
            f"    EXTRAPOLATED to {rounds} rounds (the shipped model's): "
            f"{estimate:.0f} s = wall + {rounds - 3} x {interval:.1f} s"
        )
        target = f"target <= {TARGET_BUILD_SECONDS / 60:.0f} min (extrapolated, not measured)"
        print(f"    {target}: {verdict}\n")
    else:
        verdict = "PASS" if build.wall <= TARGET_BUILD_SECONDS else "FAIL"
        target = f"target <= {TARGET_BUILD_SECONDS / 60:.0f} min wall"
        print(f"    {target}: {verdict} ({build.wall / 60:.1f} min)\n")


# --- (2) per hand ------------------------------------------------------------------------


def engine_parts(model: ExpertModel, hands: list[list[int]]) -> dict[str, float]:
    """ms of the kernels behind ``analyze_hand(opponent="expert")``: ``compile_policy``
    (both policies; once per model and process, cached on the model), then per hand
    ``weights_from_compiled`` (both policies in one pass over the opponent multisets)
    and ``crib_from_weights`` (both roles); their crib means are checked against the
    engine's."""
    table = rank_table()
    pols = [model.opponent_policy(role) for role in ("dealer", "pone")]
    pi = np.stack([p.pi for p in pols])
    suited = np.stack([p.suited for p in pols])
    compile_policy(multisets(), pi, suited)  # compile or load
    compile_s = []
    for _ in range(5):
        start = time.perf_counter()
        compiled = compile_policy(multisets(), pi, suited)
        compile_s.append(time.perf_counter() - start)
    hand0 = np.array(hands[0], dtype=np.int64)
    W, F = weights_from_compiled(*compiled, unseen_counts(hand0)[0])  # compile or load
    crib_from_weights(table, hand0, W[0], F[0])
    weights_s = cribs_s = 0.0
    for hand in hands:
        hand6 = np.array(hand, dtype=np.int64)
        t0 = time.perf_counter()
        W, F = weights_from_compiled(*compiled, unseen_counts(hand6)[0])
        t1 = time.perf_counter()
        cribs = [crib_from_weights(table, hand6, W[p], F[p]) for p in range(2)]
        t2 = time.perf_counter()
        weights_s += t1 - t0
        cribs_s += t2 - t1
        exact = cribs_of(discard.analyze_hand(hand, opponent="expert", model=model))
        assert np.allclose(np.vstack(cribs), exact, rtol=0, atol=1e-12), hand
    return {
        "compile_policy": statistics.median(compile_s) * 1e3,
        "weights_from_compiled": weights_s / len(hands) * 1e3,
        "crib_from_weights": cribs_s / len(hands) * 1e3,
    }


def bench_per_hand(model: ExpertModel, n_hands: int, n_baseline: int, repeats: int) -> None:
    """(2) exact expert combination per hand; sampled --policy expert as the baseline."""
    hands = random_hands(n_hands)
    analyze(hands[0], opponent="expert")  # compile or load every kernel, read the model
    discard.analyze_hand(hands[0], opponent="random")
    engine = pass_seconds(lambda h: discard.analyze_hand(h, opponent="expert"), hands, repeats)
    api = pass_seconds(lambda h: analyze(h, opponent="expert"), hands, repeats)
    random_engine = pass_seconds(
        lambda h: discard.analyze_hand(h, opponent="random"), hands, repeats
    )
    parts = engine_parts(model, hands)

    discard.analyze_hand(hands[0], opponent="sampled", policy="expert", samples=10)  # compile
    sampled_s, worst_diff, worst_z = [], 0.0, 0.0
    for hand in hands[:n_baseline]:
        start = time.perf_counter()
        s = discard.analyze_hand(hand, opponent="sampled", policy="expert", samples=SAMPLES)
        sampled_s.append(time.perf_counter() - start)
        exact = cribs_of(discard.analyze_hand(hand, opponent="expert"))
        diff = np.abs(cribs_of(s) - exact)
        worst_diff = max(worst_diff, float(diff.max()))
        worst_z = max(worst_z, float((diff / crib_ses_of(s)).max()))
    engine_ms = statistics.median(engine) * 1e3
    api_ms = statistics.median(api) * 1e3
    sampled = statistics.median(sampled_s)

    verdict = "PASS" if engine_ms <= TARGET_MS_PER_HAND else "FAIL"
    print(f"(2) expert opponent, {n_hands} hands (seed {SEED}), median of {repeats} passes")
    print(f"    load average {loads_text()}")
    ms = "{:.3f}"
    print(
        f"    discard.analyze_hand(hand, opponent='expert'): {engine_ms:6.3f} ms/hand "
        f"(passes {spread([p * 1e3 for p in engine], ms)})"
    )
    print(
        f"    analyze(hand, opponent='expert')             : {api_ms:6.3f} ms/hand "
        f"(passes {spread([p * 1e3 for p in api], ms)}; API + DataFrame, both roles)"
    )
    print(
        f"    discard.analyze_hand(hand, opponent='random'): "
        f"{statistics.median(random_engine) * 1e3:6.3f} ms/hand (for comparison)"
    )
    print("    engine kernels, both roles (answers match the engine):")
    print(
        f"      compile_policy        : {parts['compile_policy']:6.3f} ms "
        "once per model and process (cached on the model)"
    )
    print(f"      weights_from_compiled : {parts['weights_from_compiled']:6.3f} ms/hand")
    print(f"      crib_from_weights     : {parts['crib_from_weights']:6.3f} ms/hand")
    print(
        f"    baseline opponent='sampled', policy='expert', {SAMPLES} samples: "
        f"{sampled:.3f} s/hand (median of {n_baseline} hands, {spread(sampled_s, ms)})"
    )
    print(
        f"      sampled vs exact crib means: max |diff| {worst_diff:.3f} points, "
        f"max {worst_z:.1f} standard errors (30 values per hand)"
    )
    print(f"    speed-up exact engine / sampled: {sampled / (engine_ms / 1e3):,.0f}x")
    print(f"    speed-up exact API / sampled   : {sampled / (api_ms / 1e3):,.0f}x")
    api_note = "within" if api_ms <= TARGET_MS_PER_HAND else "over"
    print(f"    target analyze_hand <= {TARGET_MS_PER_HAND:.0f} ms/hand: {verdict}")
    print(f"    (the whole API is {api_note} {TARGET_MS_PER_HAND:.0f} ms too: {api_ms:.2f} ms)\n")


# --- (3) whole process -------------------------------------------------------------------


PHASES = """
import json, sys, time
start = time.perf_counter()
from crib_analyze.discard import engine as discard
from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.crib.hand_classes import multisets
out = {"import crib_analyze.discard.engine": time.perf_counter() - start}
for name, fn in [
    ("multisets() (18,395 rank multisets)", multisets),
    ("load_model() (read the .npz)", load_model),
    ("load_model().compiled_policies()", lambda: load_model().compiled_policies()),
    ("first analyze_hand(expert)", lambda: discard.analyze_hand(sys.argv[1], opponent="expert")),
    ("second analyze_hand(expert)", lambda: discard.analyze_hand(sys.argv[1], opponent="expert")),
]:
    t = time.perf_counter()
    fn()
    out[name] = time.perf_counter() - t
print(json.dumps(out))
"""


def bench_process(n_cold: int, n_warm: int) -> None:
    """(3) cold and warm start of the expert discard command, random as the baseline."""
    commands = {
        "expert": [CLI, "discard", *HAND.split(), "--dealer", "--opponent", "expert"],
        "random": [CLI, "discard", *HAND.split(), "--dealer", "--opponent", "random"],
    }
    expect = {"expert": "exact combination", "random": "JC QH"}  # in the header line
    cold: list[float] = []
    warm: dict[str, list[float]] = {name: [] for name in commands}
    loads = []
    phases: list[dict[str, float]] = []
    for _ in range(n_cold):
        with tempfile.TemporaryDirectory(prefix="kernel-cache-") as cache_dir:
            loads.append(load1())
            cold.append(run_once(commands["expert"], expect["expert"], cache_dir))
            run_once(commands["random"], expect["random"], cache_dir)  # its warm-up
            for _ in range(n_warm):
                for name, argv in commands.items():  # interleaved
                    warm[name].append(run_once(argv, expect[name], cache_dir))
            proc = subprocess.run(
                [sys.executable, "-c", PHASES, HAND],
                env=bench_env(cache_dir),
                capture_output=True,
                text=True,
                check=True,
            )
            phases.append(json.loads(proc.stdout))
    median = {name: statistics.median(times) for name, times in warm.items()}
    print(f"(3) crib-analyze discard {HAND} --dealer --opponent ..., whole process")
    print(
        f"    {n_cold} fresh CRIB_ANALYZE_CACHE_DIR(s), {n_warm} warm runs each; "
        f"load average {', '.join(f'{x:.2f}' for x in loads)}"
    )
    print(f"    {'opponent':<9} {'cold':>22} {'warm median':>12} {'warm range':>16}")
    for name in commands:
        lo, hi = min(warm[name]), max(warm[name])
        cold_text = f"{spread(cold)} s" if name == "expert" else "-"
        print(f"    {name:<9} {cold_text:>22} {median[name]:>10.3f} s {lo:>7.3f}-{hi:.3f} s")
    print("    (cold = the first run with an empty kernel cache: best (range) of them)")
    print(f"    expert - random, warm medians: {median['expert'] - median['random']:+.3f} s")
    print("    phases of one warm process (in-process, best of the cache dirs):")
    for name in phases[0]:
        print(f"      {name:<46}: {min(p[name] for p in phases):6.3f} s")
    verdict = "PASS" if median["expert"] <= TARGET_WARM_SECONDS else "FAIL"
    target = f"target --opponent expert warm <= {TARGET_WARM_SECONDS:.0f} s wall"
    print(f"    {target}: {verdict} ({median['expert']:.3f} s)\n")


# --- (4) expert table --------------------------------------------------------------------


def table_argv(opponent: str, out: Path, limit: int | None = None) -> list[str]:
    argv = ["table", "-o", str(out), "-q"]
    if opponent == "expert":
        argv += ["--opponent", "expert"]
    return argv + ([] if limit is None else ["--limit", str(limit)])


def bench_tables(tmp: Path, repeats: int, quick: bool, model: ExpertModel) -> None:
    """(4) the whole table, random and expert opponent, warm; then where the time goes."""
    env = bench_env(tmp / "kernel-cache")
    warmup = {
        name: run_measured(table_argv(name, tmp / f"warm-{name}.parquet", limit=100), env).wall
        for name in ("random", "expert")
    }
    runs: dict[str, list[Run]] = {"random": [], "expert": []}
    sizes = {}
    for _ in range(repeats):
        for name in ("random", "expert"):  # interleaved, so both see the same load
            out = tmp / f"{name[0]}.parquet"
            run, stamped = run_table(table_argv(name, out), out, env, N_ROWS)
            runs[name].append(run)
            assert stamped.get("opponent", "random") == name, stamped
            sizes[name] = out.stat().st_size / 1e6
            out.unlink()
    best = {name: min(r.wall for r in rs) for name, rs in runs.items()}
    ratio = best["expert"] / best["random"]
    pair_ratios = [e.wall / r.wall for r, e in zip(runs["random"], runs["expert"], strict=True)]
    print(f"(4) crib-analyze table [--opponent expert] -o TMP/x.parquet -q ({N_ROWS:,} rows)")
    print(
        f"    warm-up --limit 100: random {warmup['random']:.2f} s (compiles), "
        f"expert {warmup['expert']:.2f} s (compiles the expert kernels)"
    )
    for name in ("random", "expert"):
        rs = runs[name]
        print(
            f"    {name:<7}: {spread([r.wall for r in rs])} s wall, "
            f"{N_ROWS / best[name] / 1e6:.2f} M rows/s, peak RSS "
            f"{spread([r.peak_mb for r in rs], '{:.0f}')} MB, file {sizes[name]:.1f} MB, "
            f"load average {', '.join(f'{r.load:.2f}' for r in rs)}"
        )
    print(f"    expert - random (best runs): {best['expert'] - best['random']:.1f} s")
    ratios = ", ".join(f"{x:.2f}" for x in pair_ratios)
    print(f"    ratio expert / random: {ratio:.2f}x (best runs); per pair: {ratios}")

    where_the_time_goes(model, quick, best["expert"] - best["random"])
    verdict = "PASS" if ratio <= TARGET_TABLE_RATIO else "FAIL"
    print(f"    target expert / random <= {TARGET_TABLE_RATIO:.0f}x: {verdict} ({ratio:.2f}x)\n")


def chunk_parquet(spec: TableSpec, model: ExpertModel | None, k: int) -> tuple[float, float, int]:
    """Chunk ``k``'s numeric columns written as Parquet in memory, with the options a
    part is written with (zstd; no dictionary for the expert floats): best seconds of
    three writes, MB, and the distinct crib values of its rows."""
    columns = compute_chunk(spec, k, model)
    table = pa.table({name: pa.array(values) for name, values in columns.items()})
    options = parquet_options(spec.opponent, table.schema)
    times = []
    for _ in range(3):
        buffer = io.BytesIO()
        start = time.perf_counter()
        pq.write_table(table, buffer, **options)
        times.append(time.perf_counter() - start)
    crib = "crib_mean" if spec.opponent == "random" else "dealer_crib_mean"
    distinct = len(np.unique(columns[crib]))
    return min(times), buffer.tell() / 1e6, distinct


def where_the_time_goes(model: ExpertModel, quick: bool, extra: float) -> None:
    """The work ``compute_chunk`` and the chunk files add for the expert opponent,
    timed in this process (numba cache as found)."""
    policies = [model.opponent_policy("dealer"), model.opponent_policy("pone")]
    class_cribs_range(policies, 0, 100)  # compile or load
    threads = numba.get_num_threads()
    n_chunks = -(-N_CLASSES // CHUNK_CLASSES)
    print(f"    where the expert time goes, in-process, load average {load1():.2f}:")
    start = time.perf_counter()
    cribs = class_cribs_range(policies, 0, N_CLASSES)
    whole = time.perf_counter() - start
    print(
        f"      class_cribs_range(both policies, 0, {N_CLASSES:,}): {whole:6.1f} s "
        f"({threads} numba threads, one call)"
    )
    chunked = whole
    if not quick:
        start = time.perf_counter()
        for lo in range(0, N_CLASSES, CHUNK_CLASSES):
            class_cribs_range(policies, lo, min(lo + CHUNK_CLASSES, N_CLASSES))
        chunked = time.perf_counter() - start
        numba.set_num_threads(1)
        start = time.perf_counter()
        class_cribs_range(policies, 0, N_CLASSES)
        one_thread = time.perf_counter() - start
        numba.set_num_threads(threads)
        print(
            f"      same in {n_chunks} chunks of {CHUNK_CLASSES:,} (as the table): {chunked:6.1f} s"
        )
        print(
            f"      same, one call, 1 numba thread: {one_thread:6.1f} s "
            f"(speed-up {threads} threads / 1: {one_thread / whole:.2f}x)"
        )
    classes = hand_classes()
    hand = all_hand_means()
    weight = classes.weight.astype(np.float64)
    cards = classes.cards.astype(np.int64)
    start = time.perf_counter()
    best_response_stats(cards, weight, hand + cribs[0], 1e-9)
    best_response_stats(cards, weight, hand - cribs[1], 1e-9)
    print(f"      best_response_stats, both roles: {time.perf_counter() - start:6.1f} s")

    start = time.perf_counter()
    digest = dataclasses.replace(model).fingerprint()  # a copy: its digest not yet cached
    model_digest = time.perf_counter() - start
    assert digest == model.fingerprint()
    spec = {
        "random": TableSpec("random"),
        "expert": TableSpec("expert", model_fingerprint=model.fingerprint()),
    }
    finger = {}
    for name in spec:
        spec[name].fingerprint()
        start = time.perf_counter()
        for _ in range(1000):
            spec[name].fingerprint()
        finger[name] = (time.perf_counter() - start) / 1000
    fingerprints = finger["expert"] * 2 * n_chunks + model_digest
    print(
        f"      TableSpec.fingerprint(), once per part written and once per part read: "
        f"expert {finger['expert'] * 1e6:.1f} us x {2 * n_chunks}; random "
        f"{finger['random'] * 1e6:.1f} us; the model's digest, once per model and "
        f"process: {model_digest * 1e3:.1f} ms; together {fingerprints:.2f} s"
    )
    k = n_chunks // 2
    used = {"random": None, "expert": model}
    parts = {name: chunk_parquet(spec[name], used[name], k) for name in spec}
    write_extra = (parts["expert"][0] - parts["random"][0]) * n_chunks
    print(f"      chunk {k}'s numeric columns as a Parquet part (zstd, as written):")
    for name, (seconds, mb, distinct) in parts.items():
        print(
            f"        {name:<7}: {mb:5.2f} MB in {seconds * 1e3:5.1f} ms; "
            f"{distinct:,} distinct crib values in {CHUNK_CLASSES * 15:,} rows"
        )
    print(
        f"        expert extra x {n_chunks} chunks: {write_extra:.1f} s per write pass "
        "(each chunk is written twice: its part, then the final file with text columns)"
    )
    if extra > 0:
        counted = chunked + fingerprints + 2 * write_extra
        print(
            f"      class_cribs_range ({'chunked' if not quick else 'one call'}) + fingerprints "
            f"+ 2 write passes = {counted:.1f} s of the {extra:.1f} s expert - random wall "
            f"({chunked / extra:.0%} + {fingerprints / extra:.0%} + {2 * write_extra / extra:.0%})"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--quick",
        action="store_true",
        help="build-model capped at 2 rounds (extrapolated), fewer hands, runs and repeats",
    )
    args = parser.parse_args()
    quick = args.quick
    require_cli()
    path = model_file()
    if not path.is_file():
        raise SystemExit(f"no expert model at {path}")
    digest = file_digest(path)
    model = load_model()  # the package's own (cached) instance, as analyze() uses
    print(
        f"cpus: {os.cpu_count()}; numba threads {numba.get_num_threads()}; "
        f"load average {loads_text()}"
    )
    print(
        f"expert model: {path} ({model.provenance.get('rounds')} rounds, "
        f"fingerprint {model.fingerprint()})\n"
    )
    with tempfile.TemporaryDirectory(prefix="bench-expert-") as tmp_name:
        tmp = Path(tmp_name)
        bench_build(tmp, quick, model)
        bench_per_hand(
            model,
            n_hands=100 if quick else 300,
            n_baseline=2 if quick else 5,
            repeats=1 if quick else 3,
        )
        bench_process(n_cold=1 if quick else 2, n_warm=3 if quick else 7)
        bench_tables(tmp, repeats=1 if quick else 2, quick=quick, model=model)
    assert file_digest(path) == digest, f"{path} changed during the benchmark"
    print(f"{path} unchanged; load average at the end: {loads_text()}")
    print(f"reproduce: {reproduce_command('bench_expert.py')}")


if __name__ == "__main__":
    main()
