"""Strength of throw policies (expert models) in duplicate deals.

Each deal gives both players six cards. Model A throws as pone and model B as dealer;
then the same cards are dealt with the seats swapped. The shuffle and the random draws
of the throws come from the same streams in both seatings (common random numbers).
Both players play the solver (reading the opponent by the packaged model), then the
shows are counted. A's score in a deal is its total (hand, its crib as dealer, and
pegging) minus B's, averaged over the two seatings. The table gives the mean per deal
with its standard error.

It answers one question: do the throws of the shipped pegging-aware model gain points
over the model it replaced, and over the classic model (hand and crib only), when the
play is the solver's? The previous model is a file: by default the one before the
finer pegging table (0.5.0), written with
``git show 4ec4bac:data/expert_model.npz > /tmp/model_previous.npz`` (the one built on
the lookahead's table before it: ``git show 9150142:data/expert_model.npz``).

Run from the repository root::

    .venv/bin/python benchmarks/bench_throw_strength.py [--deals N] [--previous FILE]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel, load_model, packaged_model
from crib_analyze.crib import dealing_kernels as dlk
from crib_analyze.play import matches as mt
from crib_analyze.scoring.show_kernels import score_many


def totals(deals: np.ndarray, model: ExpertModel) -> np.ndarray:
    """(n, 2) each seat's points in each deal: hand + crib (dealer) + pegging."""
    peg = mt.play(deals, "solver", "solver", seed=2026, model=model).astype(np.float64)
    starters = np.ascontiguousarray(deals[:, 8])
    pone = score_many(np.ascontiguousarray(deals[:, 0:4]), starters, False)
    dealer = score_many(np.ascontiguousarray(deals[:, 4:8]), starters, False)
    crib = score_many(np.ascontiguousarray(deals[:, 9:13]), starters, True)
    return np.stack([pone + peg[:, 0], dealer + crib + peg[:, 1]], axis=1)


def match(a: ExpertModel, b: ExpertModel, n: int, seed: int) -> tuple[float, float, float]:
    """A's mean total differential per deal, its s.e., and the share of deals where
    either seating's throws differ between A and B."""
    keys = mt.rank_multiset_keys()
    reader = load_model()
    pa, da = a.policy("pone").pi, a.policy("dealer").pi
    pb, db = b.policy("pone").pi, b.policy("dealer").pi
    ab = np.asarray(dlk.expert_deals(n, seed, 0, dlk.ThrowPolicies(keys, pa, db)))  # A is pone
    ba = np.asarray(dlk.expert_deals(n, seed, 0, dlk.ThrowPolicies(keys, pb, da)))  # A deals
    same = np.asarray(dlk.expert_deals(n, seed, 0, dlk.ThrowPolicies(keys, pb, db)))  # B, both
    changed = (np.sort(ab[:, 9:11]) != np.sort(same[:, 9:11])).any(axis=1) | (
        np.sort(ba[:, 11:13]) != np.sort(same[:, 11:13])
    ).any(axis=1)
    one, two = totals(ab, reader), totals(ba, reader)
    diff = ((one[:, 0] - one[:, 1]) + (two[:, 1] - two[:, 0])) / 2.0
    return float(diff.mean()), float(diff.std(ddof=1) / np.sqrt(n)), float(changed.mean())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=40_000)
    parser.add_argument("--previous", default="/tmp/model_previous.npz")
    parser.add_argument("--seed", type=int, default=2027)
    args = parser.parse_args()
    new = packaged_model("pegging")
    models = {
        "pegging (shipped)": new,
        "pegging (previous)": ExpertModel.load(args.previous),
        "classic": packaged_model("classic"),
    }
    mt.play(mt.deal(20, 1), "solver", "solver")  # compile or load the kernels
    print(f"duplicate deals, both playing the solver; {args.deals:,} deals, seed {args.seed}")
    print("| A | B | deals with a throw changed | A - B per deal | s.e. | seconds |")
    print("|---|---|---|---|---|---|")
    names = list(models)
    for a, b in [(names[0], names[1]), (names[0], names[2]), (names[1], names[2])]:
        t = time.perf_counter()
        mean, se, changed = match(models[a], models[b], args.deals, args.seed)
        print(
            f"| {a} | {b} | {100 * changed:.1f}% | {mean:+.4f} | {se:.4f} | "
            f"{time.perf_counter() - t:.0f} |",
            flush=True,
        )
    print(f"\nreproduce: .venv/bin/python benchmarks/bench_throw_strength.py --deals {args.deals}")


if __name__ == "__main__":
    main()
