"""The rules of the play: the kernels against a plain-Python twin written from the rules
(tests/naive.py), the seeds' worked example, and hypothesis over random plays.

Mutations tried (each fails a test here): a pair royal worth 8; runs counted only when
laid in order (the newest card the highest); the go point also at 31; the player who
laid the last card leading after a restart; the last card of the play not scored.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze.cards import parse_cards
from crib_analyze.play import rules_kernels as rk
from crib_analyze.play.matches import play_reader
from crib_analyze.play.play_policy_kernels import GREEDY, new_workspace, play_deal
from crib_analyze.rng_kernels import rng_for
from tests.naive import naive_lay_points, naive_play, rank

REASON_WORDS = [
    (rk.R_FIFTEEN, "fifteen"),
    (rk.R_THIRTY_ONE, "31"),
    (rk.R_PAIR, "pair"),
    (rk.R_PAIR_ROYAL, "pair royal"),
    (rk.R_DOUBLE_PAIR_ROYAL, "double pair royal"),
]


def words(reasons: int) -> list[str]:
    out = [w for bit, w in REASON_WORDS if reasons & bit]
    run = reasons >> rk.RUN_SHIFT & 7
    if run:
        out.append(f"run of {run}")
    if reasons & rk.R_GO:
        out.append("go")
    if reasons & rk.R_LAST_CARD:
        out.append("last card")
    return out


def lay_sequence(pone: list[int], dealer: list[int], order: list[int]):  # type: ignore[no-untyped-def]
    """Lay ``order`` (card ids) with the kernel; check whose turn it is each time."""
    hands = np.array([pone, dealer], np.int64)
    seq = np.empty(9, np.int64)
    state = np.zeros(3, np.int64)
    scores = np.zeros(2, np.int64)
    rows = []
    for card in order:
        player = int(state[2])
        slot = list(hands[player]).index(card)
        pts, reasons = rk.lay(hands, player, slot, seq, state, scores)
        rows.append((player, card, pts, words(reasons)))
    assert state[2] == -1
    return rows, scores.tolist()


def test_the_seeds_worked_example() -> None:
    """pone 10, dealer 5 (15 for 2), pone 7 (22), dealer 6 (28, run of 3 for 3), pone go,
    dealer 2 (30 for 1), pone 6, dealer 4 (10), pone 4 (14: pair 2 + last card 1 = 3)."""
    pone = parse_cards("10H 7C 6C 4D")
    dealer = parse_cards("5S 6D 2H 4S")
    order = parse_cards("10H 5S 7C 6D 2H 6C 4S 4D")
    rows, scores = lay_sequence(pone, dealer, order)
    assert [(p, pts) for p, _, pts, _ in rows] == [
        (0, 0), (1, 2), (0, 0), (1, 3), (1, 1), (0, 0), (1, 0), (0, 3)
    ]  # fmt: skip
    assert rows[1][3] == ["fifteen"]
    assert rows[3][3] == ["run of 3"]
    assert rows[4][3] == ["go"]
    assert rows[7][3] == ["pair", "last card"]
    assert scores == [3, 6]


@pytest.mark.parametrize(
    ("ranks", "points", "why"),
    [
        ([1, 3, 5, 0, 2, 4, 6], 7, ["run of 7"]),  # 2,4,6,A,3,5,7: a run of seven
        ([1, 2, 2], 2, ["pair"]),  # a pair breaks a run: in 2,3,3,4 only the pair scores
        ([1, 2, 2, 3], 0, []),
        ([3, 3, 3], 6, ["pair royal"]),
        ([4, 4, 4], 8, ["fifteen", "pair royal"]),  # three fives make fifteen too
        ([3, 3, 3, 3], 12, ["double pair royal"]),
        ([9, 4], 2, ["fifteen"]),  # 10 + 5
        ([2, 3, 1], 3, ["run of 3"]),
        ([6, 5, 4, 6], 3, ["run of 3"]),  # 7,6,5,7: the latest three, 6,5,7, are a run
    ],
)
def test_named_plays(ranks: list[int], points: int, why: list[str]) -> None:
    values = [min(r + 1, 10) for r in ranks]
    count = sum(values)
    seq = np.array([*ranks, 0], np.int64)
    got, reasons = rk.lay_points(seq, len(ranks), count)
    assert naive_lay_points(ranks, count) == (points, why)
    assert (got, words(reasons)) == naive_lay_points(ranks, count)


sequences = st.lists(st.integers(0, 12), min_size=1, max_size=8).filter(
    lambda ranks: max(ranks.count(r) for r in ranks) <= 4  # four cards of a rank at most
)


@settings(max_examples=2000, deadline=None)
@given(sequences)
def test_lay_points_equal_the_twin(ranks: list[int]) -> None:
    count = sum(min(r + 1, 10) for r in ranks)
    if count > 31:
        return
    seq = np.array([*ranks, 0], np.int64)
    got, reasons = rk.lay_points(seq, len(ranks), count)
    assert (got, words(reasons)) == naive_lay_points(ranks, count)


deals = st.lists(st.integers(0, 51), min_size=8, max_size=8, unique=True)


@settings(max_examples=600, deadline=None)
@given(deals, st.randoms(use_true_random=False))
def test_random_plays_equal_the_twin(cards: list[int], rnd) -> None:  # type: ignore[no-untyped-def]
    """Any legal choices: the kernel scores each card as the twin does."""
    pone, dealer = cards[:4], cards[4:]
    twin = naive_play(pone, dealer, lambda player, legal, history: rnd.choice(legal))
    rows, scores = lay_sequence(pone, dealer, [card for _, card, _, _, _ in twin])
    assert [(p, c, pts) for p, c, pts, _ in rows] == [(p, c, pts) for p, c, _, pts, _ in twin]
    assert [w for _, _, _, w in rows] == [w for *_, w in twin]
    assert scores == [sum(t[3] for t in twin if t[0] == p) for p in (0, 1)]


@settings(max_examples=300, deadline=None)
@given(deals)
def test_greedy_deal_equals_the_twin(cards: list[int]) -> None:
    """A whole deal with both players greedy (most points now, first of ties)."""

    def greedy(player: int, legal: list[int], history: list) -> int:  # type: ignore[type-arg]
        count = history[-1][2] if history and history[-1][2] not in (0, 31) else 0
        if history:  # cards since the restart, from the twin's own record
            ranks = []
            for _, card, cnt, _, why in reversed(history):
                if cnt == 31 or "go" in why:
                    break
                ranks.insert(0, rank(card))
        else:
            ranks = []
        if history and ("go" in history[-1][4] or history[-1][2] == 31):
            ranks, count = [], 0
        scored = [
            naive_lay_points([*ranks, rank(c)], count + min(rank(c) + 1, 10))[0] for c in legal
        ]
        return legal[scored.index(max(scored))]

    pone, dealer = cards[:4], cards[4:]
    twin = naive_play(pone, dealer, greedy)
    record = np.zeros((8, 5), np.int64)
    scores = play_deal(
        np.array(pone), np.array(dealer), -1, np.array([GREEDY, GREEDY]), play_reader(), 1,
        rng_for(1, 0), record, *new_workspace(),
    )  # fmt: skip
    assert record[:, 1].tolist() == [c for _, c, _, _, _ in twin]
    assert record[:, 4].tolist() == [pts for _, _, _, pts, _ in twin]  # points per card
    assert list(scores) == [sum(t[3] for t in twin if t[0] == p) for p in (0, 1)]


@settings(max_examples=1500, deadline=None)
@given(sequences)
def test_reply_points_equal_laying_each_rank(ranks: list[int]) -> None:
    """The lookahead's all-ranks shortcut scores every next card as laying it would."""
    count = sum(min(r + 1, 10) for r in ranks)
    if count > 31:
        return
    seq = np.array([*ranks, 0, 0], np.int64)
    got = rk.reply_points(seq, len(ranks), count, np.zeros(13, np.int64), np.zeros(13, np.int64))
    for r in range(13):
        v = min(r + 1, 10)
        if count + v > 31 or ranks.count(r) >= 4:
            expected = 0 if count + v > 31 else got[r]
        else:
            expected = naive_lay_points([*ranks, r], count + v)[0]
        assert got[r] == expected, (ranks, r)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(-1, 51), min_size=4, max_size=4),
    st.integers(0, 31),
    st.lists(st.sampled_from([-2.0, 0.0, 0.5, 1.0, 1.0 + 1e-13, 3.0]), min_size=4, max_size=4),
)
def test_the_best_legal_slot_is_the_first_best_card_that_fits(
    cards: list[int], count: int, values: list[float]
) -> None:
    """One kernel picks the card for the lookahead, search and solver policies: among
    the cards that fit under 31 (a slot of -1 is empty), the highest value, the first
    of those within the tolerance of each other; the fallback when none fits."""
    from crib_analyze.play.play_policy_kernels import best_legal_slot

    hands = np.array([cards, [-1] * 4], np.int64)
    fit = [s for s in range(4) if cards[s] >= 0 and count + min((cards[s] >> 2) + 1, 10) <= 31]
    for tolerance in (0.0, 1e-12):
        expected = -7
        for s in fit:  # written from the rule, not the kernel: a strict improvement wins
            if expected == -7 or values[s] > values[expected] + tolerance:
                expected = s
        got = best_legal_slot(hands, 0, count, np.array(values), tolerance, -7)
        assert got == expected, (cards, count, values, tolerance)


@pytest.mark.parametrize("run", [4, 5])
def test_reply_points_with_jokers_repeating_a_rank(run: int) -> None:
    """With jokers a rank may be laid a fifth and a sixth time in a row: the lookahead's
    all-ranks shortcut scores that reply as laying it does (20 and 30, tests/naive.py)."""
    ranks = [0] * run  # aces, jokers among them
    seq = np.array([*ranks, 0, 0], np.int64)
    got = rk.reply_points(seq, run, run, np.zeros(13, np.int64), np.zeros(13, np.int64))
    assert got[0] == naive_lay_points([*ranks, 0], run + 1)[0] == (20 if run == 4 else 30)
