"""Benchmarks for the play: policy strength in duplicate matches, throughput, pegging.

1. Duplicate matches (the same deals played twice, seats swapped): each pair of
   policies, mean pegging differential per deal of the first against the second, with
   its standard error. Targets: the default beats each simpler policy by >= 3 s.e.
2. Throughput of whole played deals (both players the same policy), deals per second on
   all cores, against the greedy policy measured in the same run. Target for the policy
   that builds tables (lookahead): >= 200,000 deals/s on 2 cores.
3. Per-deal pegging by role in lookahead self-play, against the published 3.5 (dealer)
   and 2.0-2.1 (pone) points.
4. The exact-cards refinement of one hand (15 throws, 2,000 deals each, common random
   numbers): seconds per hand. Target <= 0.3 s.

Run from the repository root::

    .venv/bin/python benchmarks/bench_play.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from crib_analyze.cards import parse_cards
from crib_analyze.play import matches as mt
from crib_analyze.play.pegging_values import hand_pegging

PAIRS = [
    ("lookahead", "greedy", 40_000),
    ("search", "lookahead", 4_000),
    ("search", "greedy", 4_000),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer deals")
    args = parser.parse_args()
    scale = 0.25 if args.quick else 1.0
    warm = mt.deal(200, 99)
    for policy in ("greedy", "lookahead", "search"):
        mt.play(warm[:20], policy, policy, samples=4)  # compile or load the kernels

    print("1. duplicate matches (mean differential per deal of A against B, +- 1 s.e.)")
    for a, b, n in PAIRS:
        n = int(n * scale)
        t = time.perf_counter()
        r = mt.duplicate_match(a, b, deals=n, seed=2026, samples=32)
        dt = time.perf_counter() - t
        verdict = "PASS" if r.mean > 3 * r.se else "FAIL"
        print(
            f"   {a:>9} vs {b:<9} {n:>7,} deals x 2 seatings: {r.mean:+.3f} +- {r.se:.3f} "
            f"({r.z:.1f} s.e.) [{verdict}: >= 3 s.e.]   {2 * n / dt:,.0f} deals/s"
        )

    print("2. throughput, both players the same policy, all cores")
    deals = mt.deal(int(400_000 * scale), 7)
    rates = {}
    for policy in ("greedy", "lookahead"):
        best = 0.0
        for _ in range(3):
            t = time.perf_counter()
            points = mt.play(deals, policy, policy)
            best = max(best, len(deals) / (time.perf_counter() - t))
        rates[policy] = best
        print(f"   {policy:>9}: {best:,.0f} deals/s (best of 3)")
        if policy == "lookahead":
            pone, dealer = points[:, 0].mean(), points[:, 1].mean()
    verdict = "PASS" if rates["lookahead"] >= 200_000 else "FAIL"
    print(f"   lookahead target >= 200,000 deals/s: {verdict}; greedy/lookahead "
          f"{rates['greedy'] / rates['lookahead']:.1f}x")  # fmt: skip

    print("3. pegging per deal in lookahead self-play (published: dealer ~3.5, pone ~2.0-2.1)")
    print(f"   dealer {dealer:.3f}, pone {pone:.3f}")  # type: ignore[possibly-undefined]

    print("4. exact-cards refinement of one hand (15 throws x 2,000 deals, both roles)")
    hand = np.array(parse_cards("5H 6S 4D JC QH 5C"))
    hand_pegging(hand, "dealer", deals=50)
    times = []
    for _ in range(3):
        t = time.perf_counter()
        hand_pegging(hand, "dealer", deals=2000)
        times.append(time.perf_counter() - t)
    verdict = "PASS" if min(times) <= 0.3 else "FAIL"
    print(f"   {min(times):.3f} s per hand and role (best of 3) [{verdict}: <= 0.3 s]")
    print("reproduce: .venv/bin/python benchmarks/bench_play.py")


if __name__ == "__main__":
    main()
