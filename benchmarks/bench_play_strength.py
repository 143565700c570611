"""Strength of the play policies in duplicate matches, and their speed.

1. Duplicate matches: the same deals (each player throwing by its seat's expert policy)
   played twice with the seats swapped. For each pair: A's mean pegging differential
   per deal with its standard error, and each policy's points per deal as pone and as
   dealer. Targets (issue 15): the solver beats lookahead by >= 0.15 and the rule bot
   by >= 0.20 points a deal, each over >= 20,000 deals.
2. Whole deals a second, both players on one policy, all cores; greedy measured in the
   same run as the baseline.
3. One ``play`` decision with the solver (every live opponent hand solved): seconds,
   worst of the positions tried. Target <= 0.3 s.

Run from the repository root::

    .venv/bin/python benchmarks/bench_play_strength.py [--quick]
"""

from __future__ import annotations

import argparse
import time

from crib_analyze.api import advise_play
from crib_analyze.play import matches as mt

PAIRS = [
    ("solver", "lookahead", 20_000, 0.15),
    ("solver", "rulebot", 20_000, 0.20),
    ("lookahead", "rulebot", 20_000, None),
    ("solver", "search", 4_000, None),
    ("solver", "greedy", 4_000, None),
]

DECISIONS = [  # (role, hand, starter, played): the widest positions
    ("pone", "5H 6S 7D JC", "2C", ""),
    ("dealer", "9S 2C KD QH", "4H", "9H"),
    ("pone", "AH 4S 7D 10C", "KC", ""),
    ("dealer", "3H 3S 8D QC", "6C", "5D"),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the deals")
    args = parser.parse_args()
    scale = 0.1 if args.quick else 1.0
    warm = mt.deal(100, 99)
    for policy in ("greedy", "lookahead", "search", "rulebot", "solver"):
        mt.play(warm[:20], policy, policy, samples=4)  # compile or load the kernels

    print("1. duplicate matches: A's mean differential per deal against B, +- 1 s.e.")
    print("   | A | B | deals | A as pone | A as dealer | B as pone | B as dealer | A - B |")
    for a, b, n, target in PAIRS:
        n = int(n * scale)
        t = time.perf_counter()
        r = mt.duplicate_match(a, b, deals=n, seed=2026)
        dt = time.perf_counter() - t
        verdict = "" if target is None else (" PASS" if r.mean >= target else " FAIL")
        goal = "" if target is None else f" (target >= {target})"
        print(
            f"   | {a} | {b} | {n:,} x 2 | {r.a_as_pone:.3f} | {r.a_as_dealer:.3f} | "
            f"{r.b_as_pone:.3f} | {r.b_as_dealer:.3f} | **{r.mean:+.3f} +- {r.se:.3f}**{goal}"
            f"{verdict} |   [{2 * n / dt:,.0f} deals/s]"
        )

    print("2. whole deals a second, both players on the policy, all cores")
    rates = {}
    for policy, n in (("greedy", 200_000), ("lookahead", 200_000), ("rulebot", 200_000),
                      ("search", 4_000), ("solver", 20_000)):  # fmt: skip
        deals = mt.deal(int(n * scale), 7)
        t = time.perf_counter()
        points = mt.play(deals, policy, policy)
        rates[policy] = len(deals) / (time.perf_counter() - t)
        print(
            f"   {policy:>9}: {rates[policy]:,.0f} deals/s ({rates['greedy'] / rates[policy]:.0f}x "
            f"slower than greedy); pone {points[:, 0].mean():.3f}, dealer "
            f"{points[:, 1].mean():.3f} a deal"
        )

    print("3. one play decision with the solver (every live hand solved), worst position")
    worst = 0.0
    for role, hand, starter, played in DECISIONS:
        advise_play(role, hand.split(), starter, None, played, "solver")  # type: ignore[arg-type]
        t = time.perf_counter()
        advise_play(role, hand.split(), starter, None, played, "solver")  # type: ignore[arg-type]
        worst = max(worst, time.perf_counter() - t)
    print(f"   {worst:.3f} s [{'PASS' if worst <= 0.3 else 'FAIL'}: <= 0.3 s]")
    print("reproduce: .venv/bin/python benchmarks/bench_play_strength.py")


if __name__ == "__main__":
    main()
