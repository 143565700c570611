"""Do the three rankings of a throw agree? (issue 33, item 2)

For random hands (seeded), each role: the default ranking (hand + crib + the pegging
table's value of the kept ranks), the simulated one (the play of these very cards by
the solver, ``--pegging simulated``: 400 deals on common random numbers) and, at 0-0,
the ranking by the chance of winning (``--score 0-0``). It reports

- how often the default's best throw differs from the simulated best, how often by
  more than two standard errors of the paired difference (the same deals for both
  throws), and what the default's choice costs by the simulation's count;
- at 0-0, how often the best throw by the chance of winning is more than 0.3 points
  below the best by points (the position engine plays ``lookahead``: a gap there is
  the two counts of the play disagreeing).

With ``--cells``, each disagreement also shows the two throws' values three ways: the
shipped table's, the same cell (the kept ranks only: random suits and thrown cards)
played again now by the solver (1,500 deals), and the real cards': which of the table's
age and noise, or what the real cards tell, makes the difference.

Run from the repository root::

    .venv/bin/python benchmarks/bench_agreement.py [--hands N] [--seed S] [--cells]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import crib_analyze as ca
from crib_analyze.artifacts.pegging_table import packaged_pegging_table
from crib_analyze.cards import format_cards
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS, N_DISCARDS
from crib_analyze.play import pegging_kernels as pgk
from crib_analyze.play.matches import play_reader, policy_code, throw_policies
from crib_analyze.settings import SIMULATED_DEALS


def by_throw(frame: object, column: str, names: list[str]) -> np.ndarray:
    """``column`` of an analysis frame in DISCARDS order (``names``: the throws' text)."""
    indexed = frame.set_index("discard")[column]  # type: ignore[attr-defined]
    return np.array([indexed[n] for n in names], np.float64)


def cells_now(hand6: np.ndarray, seat: int, throws: list[int], kernel_args: tuple) -> np.ndarray:
    """The pegging net of the cells of these throws' kept ranks, played now (1,500
    deals each, seed 7)."""
    ranks = np.array([np.sort(hand6[KEEPS[d]] >> 2) for d in throws], np.int64)
    k, deals = len(throws), 1500
    sums = np.asarray(pgk.cell_sums(
        ranks, np.full(k, seat, np.int64), np.arange(k, dtype=np.int64), np.zeros(k, np.int64),
        np.full(k, deals, np.int64), 7, *kernel_args,
    )[0])  # fmt: skip
    return (sums[:, 0] - sums[:, 1]) / deals


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--seed", type=int, default=33)
    parser.add_argument("--cells", action="store_true", help="the cause of each disagreement")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    model = ca.load_model()
    code = policy_code("solver")
    kernel_args = (throw_policies(model), np.array([code, code], np.int64), play_reader(model), 16)
    deals = SIMULATED_DEALS.default
    counts = {"cases": 0, "differ": 0, "beyond": 0, "score_gap": 0}
    costs: list[float] = []
    gaps: list[float] = []
    start = time.perf_counter()
    for i in range(args.hands):
        hand6 = np.sort(rng.choice(52, 6, replace=False)).astype(np.int64)
        hand = format_cards(hand6)
        names = [format_cards(hand6[DISCARDS[d]]) for d in range(N_DISCARDS)]
        for seat, role in ((0, "pone"), (1, "dealer")):
            net = by_throw(ca.analyze(hand, role=role, pegging="none"), "net", names)
            table = by_throw(ca.analyze(hand, role=role), "total", names)
            points = pgk.hand_deals(hand6, seat, 0, deals, 0, *kernel_args).astype(np.float64)
            peg = points[:, :, 0] - points[:, :, 1]  # (deals, 15): the play's net per deal
            simulated = net + peg.mean(axis=0)
            best_table, best_sim = int(np.argmax(table)), int(np.argmax(simulated))
            counts["cases"] += 1
            if best_table != best_sim:
                counts["differ"] += 1
                paired = peg[:, best_sim] - peg[:, best_table]
                cost = float(simulated[best_sim] - simulated[best_table])
                se = float(paired.std(ddof=1) / np.sqrt(deals))
                counts["beyond"] += cost > 2 * se
                costs.append(cost)
                print(f"{hand} {role}: table {names[best_table]}, simulated {names[best_sim]}"
                      f" by {cost:.2f} ± {se:.2f}", flush=True)  # fmt: skip
                if args.cells:
                    pair = [best_table, best_sim]
                    pegging = packaged_pegging_table()
                    rows = [pegging.index(np.sort(hand6[KEEPS[d]] >> 2)) for d in pair]
                    shipped = pegging.peg_own[seat, rows] - pegging.peg_opp[seat, rows]
                    now = cells_now(hand6, seat, pair, kernel_args)
                    for j, d in enumerate(pair):
                        print(
                            f"  throw {names[d]}: table {shipped[j]:+.2f}, the cell now "
                            f"{now[j]:+.2f}, the real cards {peg[:, d].mean():+.2f}"
                        )
            scored = ca.analyze(hand, role=role, score=(0, 0))
            win_best = scored.iloc[0]
            gap = float(scored["total"].max() - win_best["total"])
            gaps.append(gap)
            if gap > 0.3:
                counts["score_gap"] += 1
                print(f"{hand} {role}: at 0-0 the chance of winning picks {win_best['discard']}"
                      f", {gap:.2f} points below the best by points", flush=True)  # fmt: skip
        print(f"[{i + 1}/{args.hands} hands, {time.perf_counter() - start:.0f} s]", flush=True)
    n = counts["cases"]
    print()
    print(f"hands x roles: {n} ({args.hands} hands, seed {args.seed}; {deals} deals a role)")
    print(f"default best != simulated best: {counts['differ']} ({100 * counts['differ'] / n:.1f}%)"
          f"; beyond 2 s.e.: {counts['beyond']} ({100 * counts['beyond'] / n:.1f}%)")  # fmt: skip
    if costs:
        print(f"the default's choice costs by the simulation: mean {np.mean(costs):.3f}, "
              f"max {np.max(costs):.3f} points where they differ; "
              f"{np.sum(costs) / n:.4f} a case overall")  # fmt: skip
    print(f"at 0-0, the chance-of-winning best more than 0.3 points below the points best: "
          f"{counts['score_gap']} ({100 * counts['score_gap'] / n:.1f}%); mean gap "
          f"{np.mean(gaps):.3f}")  # fmt: skip
    print(f"{time.perf_counter() - start:.0f} s on this machine")


if __name__ == "__main__":
    main()
