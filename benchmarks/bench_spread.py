"""What drawing the play from its keep's distribution costs the ranking from a score.

``discard --score`` draws each deal's play from the pegging build's distribution of
the keep's cell (the keeper's and the opponent's points, by kept ranks and seat)
instead of playing the real cards (issue 33, item 1). That assumes the play is
independent of the starter and of the opponent's hand given the keep, and orders the
two players' play points by a rule when both could reach 121 in the play.

This benchmark measures the approximation alone, with the engine held fixed: both
sides use ``lookahead`` (a pegging table of 2,000 deals a cell built here by it, about a
minute), so any gap is the approximation, not the strength of the play. For random
hands (seeded), both roles and a set of scores it values the 15 throws twice on the
same shared deals: the play drawn, and the play of the real cards. It reports how often
the best throw differs, the mean absolute gap in the chance of winning, and what the
drawn ranking's choice costs by the played ranking's values (with its paired s.e.).

Run from the repository root::

    .venv/bin/python benchmarks/bench_spread.py [--hands N] [--seed S] [--samples K]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import crib_analyze.board.throws as throws
from crib_analyze.cards import format_cards
from crib_analyze.crib.hand_kernels import DISCARDS
from crib_analyze.play.pegging_values import build_pegging
from crib_analyze.play.spread import play_spread

SCORES = [(0, 0), (60, 60), (90, 100), (100, 90), (105, 112), (112, 105), (115, 117), (117, 115)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--samples", type=int, default=4000)
    args = parser.parse_args()
    start = time.time()
    table = build_pegging(target_se=1.0, pilot=2000, max_deals=2000, seed=1, policy="lookahead")
    assert table.peg_hist is not None
    spread = play_spread(table.peg_hist)
    print(f"lookahead pegging table: 2,000 deals a cell, {time.time() - start:.0f} s")
    rng = np.random.default_rng(args.seed)
    rows = []
    for _ in range(args.hands):
        hand = np.sort(rng.choice(52, 6, replace=False)).astype(np.int64)
        for role in ("pone", "dealer"):
            for score in SCORES:
                throws.packaged_spread = lambda: spread  # type: ignore[assignment]
                drawn = throws.position_throws(hand, role, score, samples=args.samples)
                throws.packaged_spread = lambda: None  # type: ignore[assignment]
                played = throws.position_throws(hand, role, score, samples=args.samples)
                rows.append((hand, role, score, drawn, played))
    print(f"{len(rows)} positions ({args.hands} hands x 2 roles x {len(SCORES)} scores), "
          f"{args.samples:,} deals a throw, {time.time() - start:.0f} s in all")  # fmt: skip
    print(f"{'score':>9}  {'differ':>6}  {'mean |gap|':>10}  {'cost':>7}  {'worst':>6}")
    for score in [*SCORES, None]:
        sel = [r for r in rows if score is None or r[2] == score]
        differ, gaps, costs = 0, [], []
        for _, _, _, drawn, played in sel:
            b_drawn, b_played = int(np.argmax(drawn.p_win)), int(np.argmax(played.p_win))
            differ += b_drawn != b_played
            gaps.append(np.abs(drawn.p_win - played.p_win).mean())
            costs.append(played.p_win[b_played] - played.p_win[b_drawn])
        label = "all" if score is None else f"{score[0]}-{score[1]}"
        print(f"{label:>9}  {differ / len(sel):6.1%}  {np.mean(gaps):10.4f}  "
              f"{np.mean(costs):7.4f}  {np.max(costs):6.3f}")  # fmt: skip
    worst = max(rows, key=lambda r: r[4].p_win.max() - r[4].p_win[int(np.argmax(r[3].p_win))])
    hand, role, score, drawn, played = worst
    b_drawn, b_played = int(np.argmax(drawn.p_win)), int(np.argmax(played.p_win))
    print(f"worst: {format_cards(hand)} {role} at {score[0]}-{score[1]}: drawn throws "
          f"{format_cards(hand[DISCARDS[b_drawn]])} ({played.p_win[b_drawn]:.3f} played), "
          f"played throws {format_cards(hand[DISCARDS[b_played]])} "
          f"({played.p_win[b_played]:.3f} ± {played.p_win_diff_se[b_drawn]:.3f})")  # fmt: skip


if __name__ == "__main__":
    main()
