"""The numbers of docs/pegging.md's section on a pegging table built with the solver.

Usage (from the repository root; a few seconds once the tables are built)::

    crib-analyze build-pegging --seed 15 -o /tmp/solver_table.npz   # ~50 min on 2 cores
    crib-analyze build-pegging --policy lookahead --pilot 2000 --max-deals 200000 \\
        --target-se 0.02 -o /tmp/lookahead_table.npz                 # ~7 min
    .venv/bin/python docs/solver_pegging_report.py /tmp/solver_table.npz /tmp/lookahead_table.npz

It compares a solver table with a lookahead table (by default the shipped table) keep by
keep and role by role, and shows the keeps the issue singled out. It writes nothing but
its report.
"""

from __future__ import annotations

import sys

import numpy as np

from crib_analyze.artifacts.pegging_table import (
    PeggingTable,
    keep_text,
    kept_multisets,
    packaged_pegging_table,
)
from crib_analyze.position import Seat

KEEPS = [  # (role, keep, what the issue said of the lookahead table)
    ("pone", "4 5 6 6", "1.97 below an open project's table"),
    ("pone", "3 4 5 6", "1.40 below it"),
    ("pone", "5 5 5 6", "1.53 below it"),
    ("pone", "A 4 4 7", "1.81 above it"),
    ("pone", "3 3 6 6", "1.39 above it"),
]


def main() -> None:
    solver = PeggingTable.load(sys.argv[1])
    shipped = PeggingTable.load(sys.argv[2]) if len(sys.argv) > 2 else packaged_pegging_table()
    p = solver.provenance
    texts = [keep_text(m) for m in kept_multisets()]
    row = {t: i for i, t in enumerate(texts)}
    print(
        f"Solver table: {p.get('deals', 0):,} deals ({p.get('deals_per_cell_min')} a cell), "
        f"{p.get('seconds')} s, solver hands {p.get('solver_hands')}, tau "
        f"{p.get('reading_tau')}, seed {p.get('seed')}; largest s.e. of a cell's "
        f"differential {p.get('max_se', 0):.3f}.\n"
    )
    print("| role | column | solver mean | lookahead mean | correlation | mean abs. diff. |")
    print("|---|---|---|---|---|---|")
    for seat in Seat:
        for name, a, b in (
            ("own", solver.peg_own[seat], shipped.peg_own[seat]),
            ("opponent's", solver.peg_opp[seat], shipped.peg_opp[seat]),
            (
                "net",
                solver.peg_own[seat] - solver.peg_opp[seat],
                shipped.peg_own[seat] - shipped.peg_opp[seat],
            ),
        ):
            r = np.corrcoef(a, b)[0, 1]
            print(
                f"| {seat.role} | {name} | {a.mean():.3f} | {b.mean():.3f} | {r:.3f} | "
                f"{np.abs(a - b).mean():.3f} |"
            )
    print("\nKeeps the issue singled out (pone; net = own - opponent's):\n")
    print("| keep | solver own / net | lookahead own / net | solver - lookahead (net) | issue |")
    print("|---|---|---|---|---|")
    for role, keep, said in KEEPS:
        seat = Seat.of(role)
        i = row[keep]
        s_own, s_net = solver.peg_own[seat, i], solver.peg_own[seat, i] - solver.peg_opp[seat, i]
        l_own = shipped.peg_own[seat, i]
        l_net = l_own - shipped.peg_opp[seat, i]
        print(
            f"| {keep} | {s_own:.2f} / {s_net:+.2f} | {l_own:.2f} / {l_net:+.2f} | "
            f"{s_net - l_net:+.2f} | lookahead {said} |"
        )


if __name__ == "__main__":
    main()
