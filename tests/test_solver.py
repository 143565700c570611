"""The perfect-information solver of the play against brute force: every continuation
played out by the plain-Python twin of the rules (tests/naive.py), for random deals
cut at random points of a random play.

Mutations tried (each fails a test here): the go point not added when a round ends; the
value after the other player's go negated; a repeated rank skipped among the root's own
choices. (Keying the memo without the leader changed no value in 3,000 whole deals: the
cards left seem to fix who leads; the key keeps it all the same.)
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from crib_analyze.play import rules_kernels as rk
from crib_analyze.play import solver_kernels as sk
from tests.conftest import rotation_seed, scaled
from tests.naive import naive_play, naive_play_values


def position_after(pone: list[int], dealer: list[int], prefix: list[int]):  # type: ignore[no-untyped-def]
    """The kernel's position after ``prefix``: rank hands, ranks since the reset, count,
    the player to lay."""
    hands = np.array([pone, dealer], np.int64)
    seq = np.zeros(sk.SEQ_SIZE, np.int64)
    state = np.zeros(3, np.int64)
    scores = np.zeros(2, np.int64)
    for card in prefix:
        player = int(state[2])
        rk.lay(hands, player, list(hands[player]).index(card), seq, state, scores)
    ranks = np.where(hands >= 0, hands >> 2, -1)
    return ranks, seq, int(state[0]), int(state[1]), int(state[2]), hands


def random_position(rng: random.Random, max_laid: int):  # type: ignore[no-untyped-def]
    deck = rng.sample(range(52), 8)
    pone, dealer = deck[:4], deck[4:]
    laid = rng.randint(0, max_laid)
    full = naive_play(pone, dealer, lambda p, legal, h: rng.choice(legal))
    order = [card for _, card, *_ in full][:laid]
    return pone, dealer, order


@pytest.mark.parametrize("case", range(scaled(300, 40)))
def test_card_values_match_brute_force(case: int) -> None:
    rng = random.Random(f"{rotation_seed()}/solver/{case}")
    # a quarter from the first lead (the whole tree), the rest from later in the play
    pone, dealer, prefix = random_position(rng, 0 if case % 4 == 0 else 6)
    expected = naive_play_values(pone, dealer, prefix)
    ranks, seq, n, count, player, hands = position_after(pone, dealer, prefix)
    out = np.zeros(4, np.int64)
    memo = np.zeros(sk.MEMO_SIZE, np.int64)
    sk.card_values(ranks, player, seq, n, count, memo, out, sk.new_frames())
    got = {int(hands[player, s]): int(out[s]) for s in range(4) if out[s] != sk.UNSOLVED}
    assert got == expected, (pone, dealer, prefix)


def solve(pone: list[int], dealer: list[int], player: int = 0) -> list[int]:
    ranks = np.array([pone, dealer], np.int64)
    out = np.zeros(4, np.int64)
    seq = np.zeros(sk.SEQ_SIZE, np.int64)
    memo = np.zeros(sk.MEMO_SIZE, np.int64)
    sk.card_values(ranks, player, seq, 0, 0, memo, out, sk.new_frames())
    return [int(v) for v in out]


def test_endings_worked_by_hand() -> None:
    """A lone last card is worth its point. Pone 5 against dealer 5, pone to lead: the
    dealer pairs (2) and takes the last card (1): -3 to the pone. Pone 5 and K against
    dealer 10: leading the 5 lets the 10 make 15 (2) and the K then scores a go... the
    pone's K makes 25 and takes the last card (1): -1; leading the K, the dealer's 10 makes
    20, the 5 makes 25 with the last card (1): +1."""
    assert solve([4, -1, -1, -1], [-1, -1, -1, -1])[0] == 1
    assert solve([4, -1, -1, -1], [4, -1, -1, -1])[0] == -3
    values = solve([4, 12, -1, -1], [9, -1, -1, -1])
    assert values[:2] == [-1, 1]
