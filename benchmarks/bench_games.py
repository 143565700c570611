"""Speed of the throws for any game of the rules (``discard --game``), beside the
two-player engine's random-opponent analysis of a six-card hand in the same process.

For each game and seat: seconds to rank every split of one hand (compile excluded: each
is run once first), the worst of three hands. The exact crib of a one-card throw scores
about 715,000 cribs a throw; Canadian doubles ranks 3,150 splits of ten cards.

Run from the repository root::

    .venv/bin/python benchmarks/bench_games.py
"""

from __future__ import annotations

import time

import crib_analyze as ca

HANDS = {
    "standard": ["5H 6S 4D JC QH 5C", "7C 8D 9H KS 2C 3D", "AC 2D 3H 5S 5C JD"],
    "five": ["5H 6S 4D JC QH", "7C 8D 9H KS 2C", "AC 2D 3H 5S JD"],
    "ten": ["5H 6S 4D JC QH 5C 7D 8D 9S KH", "AC 2D 3H 4S 5C 6D 7H 8S 9C TD",
            "JC JD QH QS KC KD 5H 5S 2C 3C"],
}  # fmt: skip
CASES = [
    ("standard", "dealer", "standard"),
    ("five-dealt", "dealer", "five"),
    ("five-card", "pone", "five"),
    ("three", "dealer", "five"),
    ("three", "left", "five"),
    ("three-dealer-six", "dealer", "standard"),
    ("four", "across", "five"),
    ("five", "left", "five"),
    ("canadian-doubles", "dealer", "ten"),
]


def worst(run: object, hands: list[str]) -> float:
    run(hands[0])  # type: ignore[operator]  # compile or load the kernels
    times = []
    for hand in hands:
        t = time.perf_counter()
        run(hand)  # type: ignore[operator]
        times.append(time.perf_counter() - t)
    return max(times)


def main() -> None:
    base = worst(
        lambda h: ca.analyze(h, role="dealer", opponent="random", pegging="none"),
        HANDS["standard"],
    )
    print(f"baseline: the two-player engine, random opponent, one hand: {base:.3f} s")
    print("| game | seat | splits | seconds (worst of 3 hands) | x baseline |")
    for game, seat, kind in CASES:
        frame = ca.analyze(HANDS[kind][0], game=game, seat=seat)
        sec = worst(lambda h, g=game, s=seat: ca.analyze(h, game=g, seat=s), HANDS[kind])
        print(f"| {game} | {seat} | {len(frame):,} | {sec:.3f} | {sec / base:.1f} |")
    print("reproduce: .venv/bin/python benchmarks/bench_games.py")


if __name__ == "__main__":
    main()
