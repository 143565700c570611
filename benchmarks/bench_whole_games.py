"""Whole games between full players, in duplicate (issue 33, item 4).

A full player is its throw policy, its play policy and its board awareness. Games come
in duplicate pairs: game 2k and 2k+1 deal the same packs, deal by deal, with the seats
swapped, so the luck of the cards largely cancels; the standard error of the win rate
is taken over the pairs. The default player (throws as the expert, by the chance of
winning once either score reaches 61: the ``position`` player; plays the solver)
meets:

- **classic**: throws by hand and crib only (``points``, the crib against the expert
  model), plays ``lookahead`` (points now minus the best reply: one card ahead);
- **rule bot**: throws by the hand's mean and the shipped crib table by thrown ranks
  (``table``), plays the rule bot;
- **Schell**: throws by the hand's mean and Schell's published crib table by thrown ranks
  (``../shared/reference/published_crib_tables.json``, from cribbageforum.com's
  SchellDiscard page; used here only), plays ``lookahead``; **Schell greedy** the same
  thrower laying the card that pegs most now (``greedy``), a weaker reading of "one card
  ahead";
- **no board**: the default without position-aware throws (``expert``, the solver):
  what the board adds.

For each match it prints the default's win rate (± s.e. over pairs), skunks won and
suffered, and points a deal by source (hand, crib, play, heels) for both players.

Run from the repository root::

    .venv/bin/python benchmarks/bench_whole_games.py [--games N] [--seed S] [--only NAME]
"""

from __future__ import annotations

import argparse
import json
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from crib_analyze.artifacts.expert_model import load_model
from crib_analyze.board import expert_throws
from crib_analyze.board.event_kernels import SOURCES
from crib_analyze.board.games import GameSettings, GameStats, simulate
from crib_analyze.cards import RANKS

PUBLISHED = (
    Path(__file__).resolve().parents[2] / "shared" / "reference" / "published_crib_tables.json"
)


@dataclass(frozen=True)
class Match:
    name: str
    players: tuple[str, str]
    lays: tuple[str, str]
    schell: bool = False


DEFAULT = ("position", "solver")
MATCHES = [
    Match("classic", (DEFAULT[0], "points"), (DEFAULT[1], "lookahead")),
    Match("rule bot", (DEFAULT[0], "table"), (DEFAULT[1], "rulebot")),
    Match("Schell", (DEFAULT[0], "table"), (DEFAULT[1], "lookahead"), schell=True),
    Match("Schell greedy", (DEFAULT[0], "table"), (DEFAULT[1], "greedy"), schell=True),
    Match("no board", (DEFAULT[0], "expert"), (DEFAULT[1], "solver")),
]


def schell_pairs() -> np.ndarray:
    """(2, 13, 13) Schell's crib means by thrown ranks: [0] the pone's throw, [1] the dealer's."""
    tables = json.loads(PUBLISHED.read_text())["schell"]
    out = np.zeros((2, 13, 13))
    for seat, role in enumerate(("pone", "dealer")):
        for pair, value in tables[role].items():
            r1, r2 = RANKS.index(pair[0]), RANKS.index(pair[1])
            out[seat, r1, r2] = out[seat, r2, r1] = value
    assert (out > 0).all(), "a pair missing from the published table"
    return out


def per_player(stats: GameStats) -> np.ndarray:
    """(2, 4) points a deal by player and source (heels, pegging, hand, crib)."""
    points = np.concatenate([b.points for b in stats.batches]).sum(axis=(0, 2))  # (2, 4)
    deals = np.concatenate([b.results for b in stats.batches])[:, 4].sum()
    return points / deals


def run(match: Match, games: int, seed: int) -> GameStats:
    model = load_model()
    arrays = expert_throws.throw_arrays(model)
    key = model.fingerprint()
    if match.schell:
        expert_throws._THROW_ARRAYS[key] = arrays._replace(pair_cribs=schell_pairs())
    try:
        settings = GameSettings(players=match.players, play_policies=match.lays, seed=seed)
        return simulate(games, settings, model=model)
    finally:
        expert_throws._THROW_ARRAYS[key] = arrays


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", choices=[m.name for m in MATCHES])
    args = parser.parse_args()
    print(f"{args.games:,} games a match ({args.games // 2:,} duplicate pairs), seed {args.seed}; "
          f"the default: {DEFAULT[0]} throws, {DEFAULT[1]} play")  # fmt: skip
    for match in MATCHES:
        if args.only and match.name != args.only:
            continue
        start = time.time()
        s = run(match, args.games, args.seed)
        results = np.concatenate([b.results for b in s.batches])
        skunk = results[:, 5] >= 1
        won_skunks = float((skunk & (results[:, 0] == 0)).mean())
        lost_skunks = float((skunk & (results[:, 0] == 1)).mean())
        pts = per_player(s)
        print(f"\nvs {match.name} ({match.players[1]} throws, {match.lays[1]} play): "
              f"wins {s.player0_wins:.1%} ± {s.player0_wins_se:.1%}, skunks won "
              f"{won_skunks:.1%} lost {lost_skunks:.1%}, {s.deals_per_game:.2f} deals a game, "
              f"{time.time() - start:.0f} s")  # fmt: skip
        print(f"  {'points a deal':<14}" + "".join(f"{n:>9}" for n in (*SOURCES, "total")))
        for p, who in enumerate(("default", match.name)):
            row = [*pts[p], pts[p].sum()]
            print(f"  {who:<14}" + "".join(f"{v:9.3f}" for v in row))


if __name__ == "__main__":
    main()
