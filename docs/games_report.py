"""Validation figures for every game of the rules: whole games simulated, by seat.

For each game of ``crib-analyze games`` it plays ``--games`` whole games (every seat
throwing by the hand policy and playing the lookahead; game g's first dealer is
``g % players``) and prints, as Markdown tables for docs/games.md: the share of games
won by each seat (each side) of the first deal, deals per game, skunks (a loser short of
three quarters of the target), match points (two sides: tournament, won less lost), and
the points a deal by seat and source, each with its standard error.
For the standard game it also plays the two-player engine (expert throws, lookahead
play) on as many games: the rule-level policy of the other games beside the engine's.

Run from the repository root (about 15 minutes on 2 cores at the default size)::

    .venv/bin/python docs/games_report.py [--games 20000] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

from crib_analyze import simulate
from crib_analyze.rules import GAMES


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"games {args.games:,} each, seed {args.seed}\n")
    print("| game | wins by first-deal seat (±) | deals a game | skunks | match points |")
    print("|---|---|---|---|---|")
    per_deal: list[str] = []
    for name in GAMES:
        t = time.time()
        throws = None if name == "standard" else "hand"  # the report's players
        s = simulate(args.games, seed=args.seed, game=name, throw_policy=throws)
        wins = ", ".join(f"{k} {v:.3f} ± {s.wins_se[k]:.3f}" for k, v in s.wins.items())
        match = ", ".join(f"{k} {v:.3f}" for k, v in s.match_points.items()) or "-"
        print(
            f"| {name} | {wins} | {s.deals_per_game:.2f} | {100 * s.skunks:.1f}% | {match} |",
            flush=True,
        )
        for seat, row in s.points_per_deal.items():
            cells = " | ".join(f"{row[k]:.2f}" for k in ("pegging", "hand", "crib", "heels"))
            per_deal.append(
                f"| {name} | {seat} | {cells} | {row['total']:.2f} ± "
                f"{s.points_per_deal_se[seat]:.2f} |"
            )
        print(f"<!-- {name}: {time.time() - t:.0f} s -->", flush=True)
    print("\n| game | seat | pegging | hand | crib | heels | total (±) |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(per_deal))
    n = args.games + args.games % 2
    engine = simulate(n, seed=args.seed, play_policy="lookahead")
    per = engine.points_per_deal
    print(
        f"\ntwo-player engine (expert throws, lookahead play), {n:,} games: first dealer "
        f"wins {engine.first_dealer_wins:.3f} ± {engine.first_dealer_wins_se:.3f}, "
        f"{engine.deals_per_game:.2f} deals a game; dealer {per['dealer']['total']:.2f} "
        f"(pegging {per['dealer']['pegging']:.2f}), pone {per['pone']['total']:.2f} "
        f"(pegging {per['pone']['pegging']:.2f}) a deal"
    )


if __name__ == "__main__":
    main()
