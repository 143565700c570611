"""Discard analysis speed: random model per hand, a 1,000-hand CLI batch, sampled model.

(a) ``analyze(hand, role="dealer")`` (whole API, DataFrame included) and the engine
    ``discard.analyze_hand`` alone, ms per hand after compilation; baseline: the
    random crib of one discard brute-forced over all 1035 opponent pairs x 44
    starters with the numba ``score_show`` called from Python, extrapolated to 15.
(b) ``crib-analyze discard --hands-file FILE --format csv -o OUT`` on 1,000 hands,
    one process, wall time including start-up.
(c) ``opponent="sampled"`` with 2,000 samples, seconds per hand after compilation.

Run from the repository root::

    .venv/bin/python benchmarks/bench_discard.py [--quick]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable
from itertools import combinations
from pathlib import Path

from crib_analyze import analyze, format_cards
from crib_analyze.crib import hand_kernels as dk
from crib_analyze.crib import random_crib_kernels as rck
from crib_analyze.discard import engine as discard
from crib_analyze.scoring import show_kernels as k

from common import CLI, SEED, bench_env, pass_seconds, random_hands, reproduce_command

TARGET_MS_PER_HAND = 2.0
TARGET_BATCH_SECONDS = 5.0
TARGET_SAMPLED_SECONDS = 1.0


def per_hand_seconds(
    fn: Callable[[list[int]], object], hands: list[list[int]], repeats: int
) -> float:
    """Median over ``repeats`` passes of (pass time / number of hands)."""
    return statistics.median(pass_seconds(fn, hands, repeats))


def brute_force_crib_mean(hand: list[int], d: int) -> float:
    """Random-model crib mean of discard ``d``: every opponent pair and starter."""
    d0, d1 = hand[dk.DISCARDS[d, 0]], hand[dk.DISCARDS[d, 1]]
    unseen = [c for c in range(52) if c not in hand]
    total = count = 0
    for e0, e1 in combinations(unseen, 2):
        for s in unseen:
            if s != e0 and s != e1:
                total += k.score_show(d0, d1, e0, e1, s, True)
                count += 1
    assert count == rck.RANDOM_COMPLETIONS
    return total / count


def bench_random(n_hands: int, n_baseline: int, repeats: int) -> None:
    """(a) closed-form random model: API, engine, brute-force baseline."""
    hands = random_hands(n_hands)
    analyze(hands[0], role="dealer", opponent="random")  # compile or load every kernel once
    api_s = per_hand_seconds(lambda h: analyze(h, role="dealer", opponent="random"), hands, repeats)
    engine_s = per_hand_seconds(
        lambda h: discard.analyze_hand(h, opponent="random"), hands, repeats
    )

    k.score_show(0, 1, 2, 3, 4, True)  # load it first: --quick times a single hand
    brute_times = []
    for hand in hands[:n_baseline]:
        start = time.perf_counter()
        mean = brute_force_crib_mean(hand, 0)
        brute_times.append(time.perf_counter() - start)
        exact = discard.analyze_hand(hand, opponent="random").dealer_crib[0]
        assert abs(mean - exact) < 1e-9, (hand, mean, exact)
    brute_hand_s = statistics.median(brute_times) * dk.N_DISCARDS

    verdict = "PASS" if api_s * 1e3 <= TARGET_MS_PER_HAND else "FAIL"
    print(f"(a) random opponent, {n_hands} hands (seed {SEED}), median of {repeats} passes")
    print(f"    analyze(hand, role='dealer') : {api_s * 1e3:7.3f} ms/hand (API + DataFrame)")
    print(f"    discard.analyze_hand(hand)   : {engine_s * 1e3:7.3f} ms/hand (engine only)")
    print(
        f"    brute-force crib, 1 discard  : {brute_hand_s / dk.N_DISCARDS:7.3f} s "
        f"(median of {n_baseline} hands, matches the closed form)"
    )
    print(f"      extrapolated to 15 discards: {brute_hand_s:7.2f} s/hand")
    print(f"    speed-up engine / brute force: {brute_hand_s / engine_s:,.0f}x")
    print(f"    speed-up API / brute force   : {brute_hand_s / api_s:,.0f}x")
    print(f"    target API <= {TARGET_MS_PER_HAND:.0f} ms/hand: {verdict}\n")


def run_cli(argv: list[str]) -> float:
    """Wall seconds of one ``crib-analyze`` process (must exit 0)."""
    start = time.perf_counter()
    proc = subprocess.run(
        [CLI, *argv], env=bench_env(), capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"crib-analyze {argv} failed ({proc.returncode}):\n{proc.stderr}")
    return elapsed


def bench_batch(n_hands: int, repeats: int) -> None:
    """(b) one CLI process over a hands file, against the same process on one hand."""
    hands = random_hands(n_hands)
    with tempfile.TemporaryDirectory(prefix="bench-discard-") as tmp:
        big, one, out = Path(tmp, "hands.txt"), Path(tmp, "one.txt"), Path(tmp, "out.csv")
        big.write_text("".join(format_cards(h) + "\n" for h in hands), encoding="utf-8")
        one.write_text(format_cards(hands[0]) + "\n", encoding="utf-8")

        def argv(path: Path) -> list[str]:
            return [
                "discard", "--hands-file", str(path), "--opponent", "random",
                "--format", "csv", "-o", str(out),
            ]  # fmt: skip

        run_cli(argv(one))  # warm the numba cache and the file system
        one_s = statistics.median(run_cli(argv(one)) for _ in range(repeats))
        big_s = statistics.median(run_cli(argv(big)) for _ in range(repeats))
        rows = len(out.read_text(encoding="utf-8").splitlines()) - 1
        assert rows == n_hands * dk.N_DISCARDS, rows

    marginal_ms = (big_s - one_s) / (n_hands - 1) * 1e3
    verdict = "PASS" if big_s <= TARGET_BATCH_SECONDS else "FAIL"
    print(f"(b) crib-analyze discard --hands-file ({n_hands} hands) --format csv -o OUT")
    print(f"    {n_hands} hands  : {big_s:6.2f} s wall, start-up included ({rows} rows written)")
    print(f"    1 hand      : {one_s:6.2f} s wall (start-up floor)")
    print(f"    marginal    : {marginal_ms:6.2f} ms per extra hand (median of {repeats} runs)")
    print(f"    target {n_hands} hands <= {TARGET_BATCH_SECONDS:.0f} s wall: {verdict}\n")


def bench_sampled(n_hands: int, samples: int) -> None:
    """(c) sampled opponent model, seconds per hand after compilation."""
    hands = random_hands(n_hands)
    discard.analyze_hand(hands[0], opponent="sampled", samples=10)  # compile or load
    engine_s = per_hand_seconds(
        lambda h: discard.analyze_hand(h, opponent="sampled", samples=samples), hands, 1
    )
    api_s = per_hand_seconds(
        lambda h: analyze(h, role="dealer", opponent="sampled", samples=samples), hands, 1
    )
    verdict = "PASS" if api_s <= TARGET_SAMPLED_SECONDS else "FAIL"
    print(f"(c) sampled opponent, {samples} samples, {n_hands} hands")
    print(f"    analyze(..., opponent='sampled')  : {api_s:6.3f} s/hand")
    print(f"    discard.analyze_hand(...sampled)  : {engine_s:6.3f} s/hand (engine only)")
    print(f"    target <= {TARGET_SAMPLED_SECONDS:.0f} s/hand: {verdict}\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer hands and repeats")
    args = parser.parse_args()
    quick = args.quick
    print(f"cpus: {os.cpu_count()}; numba threads unused (serial kernels)\n")
    bench_random(
        n_hands=100 if quick else 500, n_baseline=1 if quick else 3, repeats=1 if quick else 3
    )
    bench_batch(n_hands=1000, repeats=1 if quick else 3)
    bench_sampled(n_hands=2 if quick else 5, samples=2000)
    print(f"reproduce: {reproduce_command('bench_discard.py')}")


if __name__ == "__main__":
    main()
