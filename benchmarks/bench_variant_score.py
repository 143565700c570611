"""The chance of winning under a variant (issue 36): ``discard --score`` with lowball,
throw fives or a penalty plays each throw's games out to the end, since no board holds
those rules. How long that takes, beside the standard game's ``--score`` (its deals
played once, then the board) as the baseline, in one process with the kernels loaded.

Run from the repository root::

    .venv/bin/python benchmarks/bench_variant_score.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import crib_analyze as ca

from common import loads_text, reproduce_command

HAND = "5H 6S 4D JC QH 5C"
#: (label, the variant's keywords): the standard game first, the baseline
CASES = [
    ("standard (the board)", {}),
    ("lowball", {"lowball": True}),
    ("throw fives", {"throw_fives": True}),
    ("back ten", {"penalty": "back-ten"}),
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1,000 games a throw, not 4,000")
    args = parser.parse_args()
    samples = 1000 if args.quick else 4000
    for _, variant in CASES:  # load (or compile) the kernels
        ca.analyze(HAND, role="dealer", score="100-100", position_samples=100, **variant)
    print(f"{HAND} as dealer, {samples:,} games a throw; {loads_text()}")
    print(f"{'rules':<22} {'from':>7} {'seconds':>8} {'x baseline':>11}  best throw (P(win))")
    for score in ("100-100", "0-0"):
        base = 0.0
        for label, variant in CASES:
            t = time.perf_counter()
            df = ca.analyze(HAND, role="dealer", score=score, position_samples=samples, **variant)
            took = time.perf_counter() - t
            base = base or took
            col = "p_win" if "p_win" in df.columns else "win"
            best = df.iloc[0]
            throw = best["discard"] if "discard" in df.columns else best["throw"]
            print(f"{label:<22} {score:>7} {took:>7.2f}s {took / base:>10.1f}x  "
                  f"{throw} ({best[col]:.3f})")  # fmt: skip
    print(f"reproduce: {reproduce_command('bench_variant_score.py')}")


if __name__ == "__main__":
    main()
