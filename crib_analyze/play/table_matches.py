"""Duplicate play matches at any table: one seat's play policy against the others'.

Each deal gives every seat of the game its hand (as many cards as its rules keep,
drawn at random: a play-only match, not the throws) and a starter, and is played once
with every seat on the baseline policy and once more for each seat with that seat
alone on the tested policy. The seat's gain is its side's points less the mean of the
other sides' in the second play, less the same in the first: the same cards, so the
luck of the deal cancels. The gain is averaged over the seats of a deal, and its
standard error taken over the deals.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from crib_analyze.play import table_play_kernels as tk
from crib_analyze.rng_kernels import rng_for, rng_next
from crib_analyze.rules import Rules


@dataclass(frozen=True)
class TableMatch:
    """A duplicate match's result: the mean gain a deal of one seat playing ``policy``
    among seats playing ``baseline``, its standard error, and the gain by seat."""

    game: str
    policy: str
    baseline: str
    deals: int
    gain: float
    se: float
    by_seat: dict[str, float]

    @property
    def z(self) -> float:
        return self.gain / self.se if self.se > 0 else 0.0


def random_deals(rules: Rules, deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(hands (D, N, 4), starters (D,)): each seat ``rules.hand_size`` cards, -1 padded."""
    players, size = rules.players, rules.hand_size
    hands = np.full((deals, players, 4), -1, np.int64)
    starters = np.empty(deals, np.int64)
    for d in range(deals):
        stream = rng_for(seed, d)
        pack = list(range(52))
        for i in range(51, 0, -1):
            k = rng_next(stream) % (i + 1)
            pack[i], pack[k] = pack[k], pack[i]
        for s in range(players):
            hands[d, s, :size] = pack[s * size : (s + 1) * size]
        starters[d] = pack[players * size]
    return hands, starters


def side_nets(points: np.ndarray, teams: np.ndarray) -> np.ndarray:
    """(..., N) points by seat -> (..., N) each seat's side's points less the mean of
    the other sides' points."""
    sides = sorted(set(teams.tolist()))
    by_side = np.stack([points[..., teams == t].sum(axis=-1) for t in sides], axis=-1)
    total = by_side.sum(axis=-1, keepdims=True)
    own = by_side[..., [sides.index(t) for t in teams.tolist()]]
    nets: np.ndarray = own - (total - own) / (len(sides) - 1)
    return nets


def table_duplicate(
    rules: Rules, policy: str, baseline: str, deals: int, seed: int, draws: int
) -> TableMatch:
    """One seat on ``policy`` among seats on ``baseline`` (names of
    :data:`~crib_analyze.play.table_play_kernels.POLICY_CODES`), ``deals`` deals; the
    solver draws ``draws`` times a decision."""
    codes = tk.LOWBALL_CODES if rules.lowball else tk.POLICY_CODES
    players = rules.players
    rows = np.full((players + 1, players), codes[baseline], np.int64)
    for s in range(players):
        rows[s + 1, s] = codes[policy]
    hands, starters = random_deals(rules, deals, seed)
    teams = np.array(rules.teams, np.int64)
    points = tk.play_tables(hands, starters, rows, teams, rules.play_once, draws, seed)
    nets = side_nets(points.astype(np.float64), teams)  # (K, D, N)
    sign = -1.0 if rules.lowball else 1.0
    gains = sign * np.stack([nets[s + 1, :, s] - nets[0, :, s] for s in range(players)], axis=1)
    per_deal = gains.mean(axis=1)
    return TableMatch(
        game=rules.name, policy=policy, baseline=baseline, deals=deals,
        gain=float(per_deal.mean()), se=float(per_deal.std(ddof=1) / np.sqrt(deals)),
        by_seat={rules.seat_names[s]: float(gains[:, s].mean()) for s in range(players)},
    )  # fmt: skip
