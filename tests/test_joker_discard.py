"""Throws with jokers (``discard --jokers``): the kernel without jokers against the
standard engine, and with a joker in the hand against a plain enumeration of every
starter and every crib (each joker counted by ``best_joker_show``, which
tests/test_jokers.py checks against brute force), heels, and the command line.

Mutations tried (each fails a test here): the crib's starter allowed to be one of the
opponent's cards; the kept hand scored without its joker at its best; heels without the
joker cut.
"""

from __future__ import annotations

from itertools import combinations, product

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cards import format_card
from crib_analyze.cli import cli
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.scoring import joker_kernels as jk
from crib_analyze.scoring.jokers import parse_with_jokers
from tests.conftest import rotating
from tests.naive import naive_score, starter_set


def test_without_jokers_the_kernel_is_the_standard_engine() -> None:
    hand = "5H 6S 4D JC QH 5C"
    cards = np.array(ca.parse_cards(hand), np.int64)
    scores, crib, _, n = jk.joker_hand_values(cards, DISCARDS, KEEPS, 0)
    df = ca.analyze(hand, role="dealer", opponent="random", pegging="none").set_index("discard")
    for d in range(15):
        row = df.loc[ca.format_cards(cards[DISCARDS[d]])]
        assert scores[d].mean() == pytest.approx(row.hand_mean, abs=1e-12)
        assert crib[d] / n == pytest.approx(row.crib_mean, abs=1e-12)


@pytest.mark.parametrize(
    ("hand", "throw"),
    [("5H 6S 4D JC QH JK", None), ("AC 2D 9S JK KH 7C", None),
     ("2H 7H 9H JK 4C 8S", "4C 8S")],  # three hearts and the joker: a flush in hand
)  # fmt: skip
def test_a_joker_in_the_hand_every_starter_and_every_crib(hand: str, throw: str | None) -> None:
    cards = parse_with_jokers(hand, 1)
    arr = np.array(cards, np.int64)
    scores, crib, zeros, n = jk.joker_hand_values(arr, DISCARDS, KEEPS, 1)
    unseen = [c for c in range(53) if c not in cards]
    assert n == 47 * 46 // 2 * 45
    named = [d for d in range(15) if ca.format_cards(arr[DISCARDS[d]]) == throw]
    for d in named or rotating(list(range(15)), 2, f"joker throws {hand}"):
        kept = [cards[i] for i in KEEPS[d]]
        thrown = [cards[i] for i in DISCARDS[d]]
        for i, s in enumerate(unseen):  # the kept hand: its joker over every card
            five = [*kept, s]
            if 52 not in five:
                assert scores[d, i] == naive_score(kept, s)
            else:
                best = max(
                    naive_score(*(lambda f: (f[:4], f[4]))([x if c == 52 else c for c in five]))
                    for x in range(52)
                )
                assert scores[d, i] == best
        total = nothing = 0
        for a, b in combinations(unseen, 2):
            for s in unseen:
                if s not in (a, b):
                    p = jk.best_joker_show(np.array([*thrown, a, b, s], np.int64), True)[0]
                    total += p
                    nothing += p == 0
        assert crib[d] == total and zeros[d] == nothing


def test_heels_count_a_joker_cut() -> None:
    df = ca.analyze("5H 6S 4D 2C QH 3D", role="dealer", opponent="random", pegging="none",
                    jokers=1)  # fmt: skip
    assert df.dealer_heels[0] == pytest.approx(2 * 5 / 47)  # four jacks and the joker


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "JK", "--dealer",
                             "--jokers", "1", "--top", "2"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    assert "jokers: 1 in a 53-card pack" in ok.output and "5H 6S 4D JK" in ok.output
    for extra, words in [([], "give --jokers"), (["--jokers", "1", "--model", "m.npz"],
                         "--model does not go with --jokers")]:  # fmt: skip
        bad = runner.invoke(
            cli, ["discard", "5H", "6S", "4D", "JC", "QH", "JK", "--dealer", *extra]
        )
        assert bad.exit_code == 2 and words in bad.output, (extra, bad.output)


def test_a_joker_hand_names_the_cuts_that_make_each_keep_best() -> None:
    """``starters`` with jokers: each throw's cuts that make its kept hand the best of
    the throws' and those reaching the need, the other joker cut ("JK") among them,
    against every starter counted plainly (the hand's joker at its best card)."""
    hand = "5H 6S 4D JC QH JK"
    cards = parse_with_jokers(hand, 2)
    unseen = [c for c in range(54) if c not in cards]

    def plain(kept: list[int], starter: int) -> int:
        wild = [i for i, c in enumerate([*kept, starter]) if c >= 52]
        best = 0
        for values in product(range(52), repeat=len(wild)):
            five = [*kept, starter]
            for i, v in zip(wild, values, strict=True):
                five[i] = v
            best = max(best, naive_score(five[:4], five[4]))
        return best

    rows = ca.analyze(hand, role="dealer", jokers=2, need=12)
    keeps = {d: [c for c in cards if format_card(c) not in d.split()] for d in rows["discard"]}
    shows = {d: [plain(k, s) for s in unseen] for d, k in keeps.items()}
    top = [max(shows[d][i] for d in shows) for i in range(len(unseen))]
    for d in rows["discard"]:
        said = rows.attrs["starters"][d]
        best = {s for s, p, t in zip(unseen, shows[d], top, strict=True) if p >= t}
        assert starter_set(said["best"], unseen) == best, (d, said)
        reach = {s for s, p in zip(unseen, shows[d], strict=True) if p >= 12}
        assert starter_set(said["need"], unseen) == reach, (d, said)
    assert any("JK" in said["need"] for said in rows.attrs["starters"].values())


def test_a_joker_hand_pays_the_penalty_for_a_show_of_nothing() -> None:
    """``penalty`` with jokers: each throw's net moves by the cost of its kept hand's
    and its crib's chances of nothing, counted over every starter and crib (a crib
    holding the joker never shows nothing: it pairs a card)."""
    hand = "AC 2D 9S JK KH 7C"
    plain = ca.analyze(hand, role="dealer", jokers=1).set_index("discard")
    back = ca.analyze(hand, role="dealer", jokers=1, penalty="back-ten").set_index("discard")
    cards = np.array(parse_with_jokers(hand, 1), np.int64)
    scores, _, zeros, n = jk.joker_hand_values(cards, DISCARDS, KEEPS, 1)
    for d in range(15):
        name = ca.format_cards(cards[DISCARDS[d]])
        p_hand, p_crib = (scores[d] == 0).mean(), zeros[d] / n
        assert back.loc[name, "net"] == pytest.approx(
            plain.loc[name, "net"] - 10 * (p_hand + p_crib), abs=1e-9
        )
    assert (zeros > 0).any() and (zeros == 0).any()


def test_two_jokers_held_rank_each_throw_once() -> None:
    """With both jokers in hand, a throw holding one joker is the same throw whichever
    joker it is: both engines list each once (11 of the 15 throws: four pairs merge), with
    the values of the throw, and the verdict's runner-up is another throw."""
    hand = "5H 6S 4D JC JK JK"
    rows = ca.analyze(hand, role="dealer", jokers=2)
    seat = ca.analyze(hand, seat="dealer", jokers=2, others="random")
    for df, thrown in ((rows, rows.discard), (seat, seat.throw)):  # the engines' names
        pairs = list(zip(df.keep, thrown, strict=True))
        assert len(pairs) == len(set(pairs)) == 11, pairs
    assert rows.net.round(9).tolist() == seat.net.round(9).tolist()
    assert dict(zip(rows.discard, rows.net, strict=True))["JC JK"] == rows.net.max()
    assert not rows.near_tie.any()  # the best and its twin are one throw, not a tie
    for verdict in (rows.attrs["verdict"], seat.attrs["verdict"]):
        assert "better than 5H JC" in verdict, verdict
