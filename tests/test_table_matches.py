"""Duplicate play matches at any table (crib_analyze.play.table_matches): the nets by
side, the deals, and a match of a policy against itself.

Mutations tried (each fails a test here): the other sides' points summed instead of
averaged; a partner's points left out of its side; the tested seat's row not given the
tested policy; the deals' hands overlapping.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.play.table_matches import random_deals, side_nets, table_duplicate
from crib_analyze.rules import game


def test_a_side_is_its_points_less_the_other_sides_mean() -> None:
    points = np.array([[3.0, 1.0, 2.0], [0.0, 4.0, 0.0]])
    nets = side_nets(points, np.array([0, 1, 2]))
    assert nets.tolist() == [[1.5, -1.5, 0.0], [-2.0, 4.0, -2.0]]  # 3 - (1+2)/2, ...
    partners = side_nets(np.array([1.0, 2.0, 3.0, 5.0]), np.array([0, 1, 0, 1]))
    assert partners.tolist() == [-3.0, 3.0, -3.0, 3.0]  # 1 + 3 against 2 + 5


def test_every_deal_is_a_fresh_pack() -> None:
    hands, starters = random_deals(game("four"), 50, 3)
    for d in range(50):
        cards = [*hands[d][hands[d] >= 0].tolist(), int(starters[d])]
        assert len(cards) == 4 * 4 + 1 and len(set(cards)) == len(cards)
    again, _ = random_deals(game("four"), 50, 3)
    assert (again == hands).all()


def test_a_policy_against_itself_gains_nothing_and_greedy_loses() -> None:
    same = table_duplicate(game("three"), "lookahead", "lookahead", 200, 5, 0)
    assert same.gain == 0.0 and set(same.by_seat.values()) == {0.0}
    worse = table_duplicate(game("three"), "greedy", "lookahead", 2000, 5, 0)
    assert worse.gain < -3 * worse.se  # the greedy seat pegs less than the lookahead
