"""The play solver at any table (issue 35): how long its advice takes, and what it
gains in duplicate plays.

1. For each game, the lead of the seat on the dealer's left (the largest position: every
hand full) and a position three cards in, ranked with ``policy="solver"`` (each draw of
the other seats' cards solved exactly) and with the lookahead's rollouts on the same
draws, in one process with the kernels loaded: seconds and milliseconds a draw. The
lookahead is the baseline: the ratio survives a noisy machine. No target yet: the
figures say how many draws the solver can afford as a default.

2. Duplicate plays (crib_analyze.play.table_matches): one seat laying by the solver
(``draws`` draws of the others' cards a decision) among seats on the lookahead, against
the same deal all on the lookahead; the gain a deal (its side's points less the other
sides' mean; in lowball, fewer), averaged over the seats, with its standard error over
the deals. Greedy against the lookahead beside it, as a yardstick. Target: the solver
gains by more than 3 s.e. where it is the default (two or three players each for
themselves, lowball included).

Run from the repository root::

    .venv/bin/python benchmarks/bench_table_solver.py [--quick]
"""

from __future__ import annotations

import argparse
import time

import crib_analyze as ca
from crib_analyze.play.table_matches import table_duplicate
from crib_analyze.rules import game as rules_of

from common import loads_text, reproduce_command

#: (game, seat, hand, starter, play so far): the lead, and three cards in
POSITIONS = [
    ("three", "left", "5C 9D KS 2H", "4D", ""),
    ("three", "left", "5C 9D KS", "4D", "2H 7S 3C"),
    ("four", "left", "5C 9D KS 2H", "4D", ""),
    ("four", "left", "5C 9D KS", "4D", "2H 7S 3C 8D"),
    ("canadian-doubles", "left", "5C 9D KS 2H", "4D", ""),
    ("five", "left", "5C 9D KS 2H", "4D", ""),
    ("five", "left", "5C 9D KS", "4D", "2H 7S 3C 8D 6H"),
]


#: (game, policy, deals, the solver's draws a decision)
MATCHES = [
    ("five-dealt", "greedy", 4000, 0),
    ("five-dealt", "solver", 4000, 40),
    ("five-card", "solver", 4000, 40),
    ("three", "greedy", 4000, 0),
    ("three", "solver", 2000, 40),
    ("five-dealt lowball", "solver", 3000, 40),
    ("standard lowball", "solver", 2000, 40),
    ("four", "greedy", 4000, 0),
    ("four", "solver", 400, 20),
    ("five", "solver", 1000, 40),  # the lookahead until the others hold 12 cards or fewer
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer draws")
    args = parser.parse_args()
    draws = 50 if args.quick else 200
    for policy in ("lookahead", "solver"):  # load (or compile) the kernels
        ca.advise_play("left", "5C 9D KS 2H", "4D", game="three", samples=4, policy=policy)
    print(f"draws a position: {draws}; {loads_text()}")
    print(f"{'game':<17} {'cards laid':>10} {'lookahead':>10} {'solver':>10} {'a draw':>9} ratio")
    for game, seat, hand, starter, played in POSITIONS:
        seconds = {}
        for policy in ("lookahead", "solver"):
            t = time.perf_counter()
            ca.advise_play(seat, hand, starter, played=played, game=game, samples=draws,
                           policy=policy)  # fmt: skip
            seconds[policy] = time.perf_counter() - t
        laid = len(played.split())
        ratio = seconds["solver"] / seconds["lookahead"]
        print(
            f"{game:<17} {laid:>10} {seconds['lookahead']:>9.2f}s {seconds['solver']:>9.2f}s "
            f"{1000 * seconds['solver'] / draws:>7.2f}ms {ratio:5.0f}x"
        )
    jokers(draws)
    scale = 0.25 if args.quick else 1.0
    print("duplicate plays: one seat's policy among lookahead seats (gain a deal, +- 1 s.e.)")
    for game, policy, deals, solver_draws in MATCHES:
        n = max(50, int(deals * scale))
        t = time.perf_counter()
        name, _, variant = game.partition(" ")
        rules = rules_of(name, lowball=variant == "lowball")
        r = table_duplicate(rules, policy, "lookahead", n, 2026, solver_draws)
        verdict = "yardstick" if policy != "solver" else "PASS" if r.gain > 3 * r.se else "FAIL"
        seats = ", ".join(f"{k} {v:+.2f}" for k, v in r.by_seat.items())
        print(
            f"  {game:<18} {policy:<7} {n:>5,} deals, {solver_draws:>3} draws: {r.gain:+.3f} +- "
            f"{r.se:.3f} ({r.z:+.1f} s.e.) [{verdict}]  {time.perf_counter() - t:5.0f} s"
            f"  by seat: {seats}"
        )
    print(f"reproduce: {reproduce_command('bench_table_solver.py')}")


#: (hand, the same with a seven for the joker, the play so far, the seat): a lead, and a
#: card to answer at 25 (issue 36)
JOKER_POSITIONS = [
    ("JK 5H 4D 9S", "7C 5H 4D 9S", "", "pone"),
    ("JK 5C QC", "7C 5C QC", "JK=5H 10S 10D", "dealer"),
]


def jokers(draws: int) -> None:
    """Which card to lay with jokers in the pack (two): the player's joker valued as each
    rank that fits, every later joker laid as any rank; beside it, the same hand with a
    seven for the joker (the same pack and draws), the baseline."""
    rules = rules_of("standard", jokers=2)
    print("jokers (a 54-card pack): the joker's hand against a seven's, solver, same draws")
    for hand, plain, played, seat in JOKER_POSITIONS:
        seconds = []
        for cards in (hand, plain):
            t = time.perf_counter()
            ca.advise_play(seat, cards, "2C", played=played, game=rules, samples=draws,
                           policy="solver")  # fmt: skip
            seconds.append(time.perf_counter() - t)
        print(
            f"  {hand:<13} after {played or 'nothing':<14} {seconds[0]:6.2f}s against "
            f"{seconds[1]:6.2f}s: {seconds[0] / seconds[1]:4.1f}x"
        )


if __name__ == "__main__":
    main()
