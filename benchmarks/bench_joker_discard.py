"""One hand with jokers: the discard command's crib by the tables' class kernels against
counting every completion card by card, in the same process.

For random six-card hands holding 0-2 jokers of a 54-card pack (and 53 with one), the
random opponent's crib of all 15 throws, with and without throw fives:

* the product: :func:`crib_analyze.crib.hand_cribs.random_cribs` (the rank part once
  for the hand's multiset, the flush and the jacks in closed forms);
* the baseline: every opponent pair and starter scored card by card, each joker at its
  best (``joker_hand_values``, ``weighted_joker_cribs``: the tests' brute force, and the
  command's path before 2026-12-05).

Prints milliseconds a hand for each (median of the hands, after compilation) and the
ratio, and checks they agree to 1e-9. Run from the repository root::

    .venv/bin/python benchmarks/bench_joker_discard.py [--hands N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from crib_analyze.crib.hand_cribs import random_cribs
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.crib.throw_fives_rule import seat_fives_weights
from crib_analyze.rules import game
from crib_analyze.scoring import joker_kernels as jk

from common import SEED, reproduce_command


def hands(rng: np.random.Generator, n: int, jokers: int) -> list[np.ndarray]:
    """``n`` six-card hands of the pack, each holding 0..``jokers`` jokers in turn."""
    out = []
    for i in range(n):
        held = i % (jokers + 1)
        real = rng.choice(52, 6 - held, replace=False)
        out.append(np.sort(np.r_[real, 52 + np.arange(held)]).astype(np.int64))
    return out


def brute(hand: np.ndarray, jokers: int, fives: bool) -> np.ndarray:
    """The crib of every throw, card by card."""
    if fives:
        rules = game(jokers=jokers, throw_fives=True)
        held = int(np.count_nonzero((hand < 52) & (hand >> 2 == 4)))
        w = seat_fives_weights(rules, 0)[held]
        return jk.weighted_joker_cribs(hand, hand[DISCARDS], jokers, w)[0]
    _, crib, _, completions = jk.joker_hand_values(hand, DISCARDS, KEEPS, jokers)
    return crib / completions


def timed(fn, hand: np.ndarray) -> tuple[float, np.ndarray]:  # type: ignore[no-untyped-def]
    start = time.perf_counter()
    out = fn(hand)
    return time.perf_counter() - start, out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12, help="hands a case [12]")
    args = parser.parse_args()
    rng = np.random.default_rng(SEED)
    print(f"{'case':<28} {'class kernels ms':>17} {'card by card ms':>16} {'ratio':>7}")
    for jokers in (1, 2):
        for fives in (False, True):
            rules = game(jokers=jokers, throw_fives=fives)
            some = hands(rng, args.hands + 1, jokers)

            def ours(hand: np.ndarray, rules=rules) -> np.ndarray:  # type: ignore[no-untyped-def]
                return random_cribs(rules, 0, hand, DISCARDS)[0]

            def theirs(hand: np.ndarray, jokers=jokers, fives=fives) -> np.ndarray:  # type: ignore[no-untyped-def]
                return brute(hand, jokers, fives)

            ours(some[0]), theirs(some[0])  # compile
            fast, slow = [], []
            for hand in some[1:]:
                t_ours, a = timed(ours, hand)
                t_theirs, b = timed(theirs, hand)
                assert np.allclose(a, b, rtol=0, atol=1e-9), hand
                fast.append(t_ours)
                slow.append(t_theirs)
            f, s = statistics.median(fast) * 1e3, statistics.median(slow) * 1e3
            name = f"jokers {jokers}" + (", throw fives" if fives else "")
            print(f"{name:<28} {f:>17.1f} {s:>16.1f} {s / f:>6.0f}x")
    print("reproduce:", reproduce_command("bench_joker_discard.py"))


if __name__ == "__main__":
    main()
