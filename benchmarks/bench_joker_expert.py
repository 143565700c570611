"""The crib against the expert of a pack with jokers (``table --jokers N --opponent
expert``): the kernel by parts (``joker_policy_cribs_fast``: the rank points by symbols,
only flushes and matching jacks card by card) against its twin that scores every card
pair and starter (``joker_policy_cribs``), one six-card hand and role at a time, in
one process after compilation, the two equal on every hand (checked here).

The policy is made from a sample of the pack's suit classes (its W is a fair stand-in
for the timing: the kernels' cost is the hand's cards, not the policy's entries).

Run from the repository root::

    .venv/bin/python benchmarks/bench_joker_expert.py [--hands N]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from common import SEED, reproduce_command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20, help="hands a pack [20]")
    args = parser.parse_args()
    from crib_analyze.crib import joker_policy_kernels as jpk
    from crib_analyze.crib import throw_policy_kernels as pk
    from crib_analyze.crib.hand_cribs import joker_rank_tables
    from crib_analyze.rules import game
    from crib_analyze.table import joker_expert as je
    from crib_analyze.table import jokers as tj
    from crib_analyze.table.class_numbers import exact_numbers, kind_of

    free, gain = joker_rank_tables()
    rng = np.random.default_rng(SEED)
    print(
        f"{'pack':<10} {'by parts ms':>12} {'every card ms':>14} {'ratio':>6} {'largest gap':>12}"
    )
    for jokers in (1, 2):
        cards, weight = tj.joker_classes(jokers)
        rows = rng.choice(len(cards), 20_000, replace=False)
        some, w = np.array(cards[rows], np.int64), weight[rows]
        hand = exact_numbers(kind_of("standard"), some, jokers, "none")[0]
        compiled = pk.compile_policy(*je.expert_policy(game(jokers=jokers), some, w, hand))
        hands = some[rng.choice(len(some), args.hands, replace=False)]
        fast = slow = gap = 0.0
        for i, held in enumerate(hands):
            unseen, n_sym = jpk.unseen_of(held, jokers)
            W, F = pk.weights_from_compiled(*compiled, n_sym)
            if i == 0:  # compile
                jpk.joker_policy_cribs_fast(free, gain, held, unseen, W[1], F[1])
                jpk.joker_policy_cribs(free, gain, held, unseen, W[1], F[1])
            start = time.perf_counter()
            a, _ = jpk.joker_policy_cribs_fast(free, gain, held, unseen, W[1], F[1])
            mid = time.perf_counter()
            b, _ = jpk.joker_policy_cribs(free, gain, held, unseen, W[1], F[1])
            end = time.perf_counter()
            fast, slow = fast + mid - start, slow + end - mid
            gap = max(gap, float(np.abs(a - b).max()))
        n = len(hands)
        print(f"{jokers} joker(s) {fast / n * 1e3:>12.2f} {slow / n * 1e3:>14.2f} "
              f"{slow / fast:>5.0f}x {gap:>12.1e}")  # fmt: skip
    print("reproduce:", reproduce_command("bench_joker_expert.py"))


if __name__ == "__main__":
    main()
