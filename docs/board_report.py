"""How throws from a score differ from throws by points, by where the hand ends.

For each band of the dealer's expected end-of-hand score (Cribbage Pro's offense and
defense bands), random six-card hands are ranked for the dealer and for the pone from
an even score, by the chance of winning (``discard --score``) and by points; where the
two best throws differ, it reports how: the change in the holder's own points (hand,
own crib, own pegging) and in what the opponent gets (its pegging, and its crib when
the holder is the pone). More own points at some cost is attack; fewer for the
opponent at some cost is defense.

The best of 15 noisy estimates is biased upward, so the chance of winning gained is
measured again on independent deals (another seed) for the two throws compared, with
its standard error over the hands; "clear" counts the hands where the points
favourite trails the best throw by more than two paired standard errors.

Run from the repository root (a few minutes)::

    .venv/bin/python docs/board_report.py [--hands 300] [--samples 4000]
"""

from __future__ import annotations

import argparse

import numpy as np

from crib_analyze import analyze
from crib_analyze.cards import format_cards

# the dealer's end-of-hand score bands (Cribbage Pro) and what it should do there
BANDS = [(61, 75, "defend"), (76, 86, "attack"), (87, 101, "defend"), (102, 112, "attack"),
         (113, 120, "defend")]  # fmt: skip
DEALER_DEAL = 16  # about what a dealer scores in a deal
PONE_DEAL = 10


def own_and_theirs(row: dict, role: str) -> tuple[float, float]:
    """The holder's expected points this deal and the opponent's part that the throw
    moves (its pegging, and its crib when the holder is the pone)."""
    own = row["hand_mean"] + row["peg_own"] + (row["crib_mean"] if role == "dealer" else 0.0)
    theirs = row["peg_opp"] + (row["crib_mean"] if role == "pone" else 0.0)
    return own, theirs


def signed_mean(x: list[float]) -> str:
    return f"{np.mean(x):+.2f}" if x else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--samples", type=int, default=4000)
    args = parser.parse_args()
    rng = np.random.default_rng(2026)
    print("| dealer's end-of-hand band | Cribbage Pro | role | start | throws changed | clear | "
          "own points | opponent's | P(win) gained |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|")
    for lo, hi, advice in BANDS:
        end = (lo + hi) // 2
        for role in ("dealer", "pone"):
            start = end - DEALER_DEAL
            score = (start, start)  # an even game at the start of the deal
            changed, clear, d_own, d_theirs, gain = 0, 0, [], [], []
            for _ in range(args.hands):
                hand = format_cards(rng.choice(52, 6, replace=False))
                frame = analyze(hand, role=role, score=score, position_samples=args.samples)
                rows = frame.to_dict(orient="records")
                best, by_points = rows[0], next(r for r in rows if r["points_rank"] == 1)
                if best["discard"] == by_points["discard"]:
                    continue
                changed += 1
                clear += by_points["goal_loss"] > 2 * by_points["goal_loss_se"]
                a, b = own_and_theirs(best, role), own_and_theirs(by_points, role)
                d_own.append(a[0] - b[0])
                d_theirs.append(a[1] - b[1])
                again = analyze(
                    hand, role=role, score=score, position_samples=args.samples, seed=1
                ).set_index("discard")["p_win"]
                gain.append(again[best["discard"]] - again[by_points["discard"]])
            share = changed / args.hands
            gained = (
                f"{np.mean(gain):+.4f} ± {np.std(gain, ddof=1) / np.sqrt(len(gain)):.4f}"
                if len(gain) > 1
                else "-"
            )
            print(
                f"| {lo}-{hi} | dealer {advice}s | {role} | {score[0]}-{score[1]} | "
                f"{share:.0%} | {clear / args.hands:.0%} | {signed_mean(d_own)} | "
                f"{signed_mean(d_theirs)} | {gained} |"
            )


if __name__ == "__main__":
    main()
