"""Full-deal enumeration speed: every 4-card hand x 48 starters, hand and crib rules.

Times ``scoring.show_kernels.all_deals_histogram`` (serial numba, compile excluded by a
warm-up call) and a naive pure-Python scorer on a random sample of deals in the
same run, and prints deals per second and their ratio.

Run from the repository root::

    .venv/bin/python benchmarks/bench_enumeration.py [--quick]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
import time
from collections.abc import Callable, Sequence
from functools import partial
from itertools import combinations, pairwise

from crib_analyze.scoring import show_kernels as k

from common import reproduce_command

TOTAL_DEALS = 270_725 * 48  # C(52, 4) hands x 48 starters = 12,994,800
TARGET_SECONDS = 5.0
JACK_RANK = 10
SEED = 20261130


def naive_score(hand: Sequence[int], starter: int, crib: bool) -> int:
    """Score a show the textbook way: enumerate subsets with itertools."""
    cards = [*hand, starter]
    ranks = [c // 4 for c in cards]
    values = [min(r + 1, 10) for r in ranks]
    points = 0
    for size in range(2, 6):
        points += 2 * sum(1 for combo in combinations(values, size) if sum(combo) == 15)
    points += 2 * sum(1 for a, b in combinations(ranks, 2) if a == b)
    for size in (5, 4, 3):
        runs = sum(1 for combo in combinations(ranks, size) if _is_run(combo))
        if runs:
            points += size * runs
            break
    suits = {c % 4 for c in hand}
    if len(suits) == 1:
        if starter % 4 in suits:
            points += 5
        elif not crib:
            points += 4
    if any(c // 4 == JACK_RANK and c % 4 == starter % 4 for c in hand):
        points += 1
    return points


def _is_run(ranks: Sequence[int]) -> bool:
    ordered = sorted(ranks)
    return all(b - a == 1 for a, b in pairwise(ordered))


def sample_deals(n: int, seed: int) -> list[tuple[list[int], int]]:
    """``n`` uniform random (four cards, starter) deals."""
    rng = random.Random(seed)
    deals = []
    for _ in range(n):
        cards = rng.sample(range(52), 5)
        deals.append((cards[:4], cards[4]))
    return deals


def best_and_median(fn: Callable[[], object], repeats: int) -> tuple[float, float]:
    """(min, median) wall seconds of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, smaller sample")
    parser.add_argument("--sample", type=int, help="deals for the naive baseline (20000)")
    args = parser.parse_args()
    repeats = 1 if args.quick else 5
    n_sample = args.sample or (2_000 if args.quick else 20_000)

    print(f"python {platform.python_version()} on {platform.machine()}, serial numba kernel")
    start = time.perf_counter()
    k.all_deals_histogram(False)
    k.all_deals_histogram(True)
    print(f"warm-up (cache load or compile, both rule sets): {time.perf_counter() - start:.2f} s")

    deals = sample_deals(n_sample, SEED)
    for crib in (False, True):
        rules = "crib" if crib else "hand"
        hist = k.all_deals_histogram(crib)
        assert int(hist.sum()) == TOTAL_DEALS, hist.sum()
        best, median = best_and_median(partial(k.all_deals_histogram, crib), repeats)
        fast_rate = TOTAL_DEALS / median

        mismatches = sum(
            naive_score(h, s, crib) != k.score_show(h[0], h[1], h[2], h[3], s, crib)
            for h, s in deals
        )
        assert mismatches == 0, f"naive and kernel scores differ on {mismatches} deals"
        start = time.perf_counter()
        for h, s in deals:
            naive_score(h, s, crib)
        naive_seconds = time.perf_counter() - start
        naive_rate = n_sample / naive_seconds

        verdict = "PASS" if median < TARGET_SECONDS else "FAIL"
        print(f"\n{rules} rules, {TOTAL_DEALS:,} deals ({repeats} runs):")
        print(
            f"  kernel : {median:.3f} s median ({best:.3f} s best), {fast_rate / 1e6:.1f} M deals/s"
        )
        print(f"  naive  : {naive_rate / 1e3:.1f} k deals/s on {n_sample:,} sampled deals")
        print(f"           (agrees with the kernel on all {n_sample:,})")
        print(f"           (full enumeration would take ~{TOTAL_DEALS / naive_rate / 60:.0f} min)")
        print(f"  speed-up kernel / naive: {fast_rate / naive_rate:,.0f}x")
        print(f"  target full enumeration < {TARGET_SECONDS:.0f} s on one core: {verdict}")

    print(f"\nreproduce: {reproduce_command('bench_enumeration.py')}")


if __name__ == "__main__":
    main()
