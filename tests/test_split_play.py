"""The play counted in a seat's splits of any game (``discard --game NAME --pegging
simulated``; crib_analyze.board.split_play and table_game_kernels.split_pegging).

The kernel's deals against a twin from the rules text: the other seats split by
tests/naive.py's naive_split with their model's tables, the seat's split as asked, a
partner's passed cards to the partner, then the play by naive_table_play with the
greedy chooser (the solver is the same driver with another policy code; its decisions
are tested in test_table_solver.py). The peg and the ranking against the kernel's
points summed by side; the request and the command line.

Mutations tried (each fails a test here): the seat's forced split ignored (every split
the same); the partner's passed cards left out of its hand; the other sides' points
summed instead of averaged; the ranking by net instead of total; the others' throws by
the hand policy when the expert is asked.
"""

from __future__ import annotations

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.board import split_play
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board.table_games import table_deal
from crib_analyze.board.table_throws import split_masks
from crib_analyze.cli import cli
from crib_analyze.discard.any_game import analyze_seat, dealt_cards
from crib_analyze.play.table_play_kernels import POLICY_CODES
from crib_analyze.rng_kernels import rng_for
from crib_analyze.rules import game
from crib_analyze.settings import Count
from tests.conftest import rotating
from tests.naive import naive_greedy, naive_split, naive_table_play

SEATS = [
    ("standard", "dealer", "5H 6S 4D JC QH 8C", {}),
    ("five-dealt", "pone", "5H 6S 4D JC QH", {}),
    ("five-card", "dealer", "5H 6S 4D JC QH", {}),
    ("three", "left", "5H 6S 4D JC QH", {}),
    ("three-dealer-six", "dealer", "5H 6S 4D JC QH 8C", {}),
    ("four", "across", "5H 6S 4D JC QH", {}),
    ("five", "left", "5H 6S 4D JC QH", {}),
    ("canadian-doubles", "dealer", "5H 6S 4D JC QH 8C 2D 3S 9H KC", {}),
    ("three", "dealer", "5H 5S 4D JC QH", {"throw_fives": True}),
    ("five-dealt", "pone", "5H 6S 4D JC QH", {"lowball": True}),
    ("standard", "pone", "5H 6S 4D JC QH JK", {"jokers": 1}),
]


def twin_points(rules, seat: int, cards: list[int], deck: list[int], split, tables, model):  # type: ignore[no-untyped-def]
    """The points each seat pegs in one deal of ``deck`` by the rules text, ``seat``
    splitting ``cards`` as ``split`` says (kept, thrown, passed positions), the others
    by the hand policy's rule with their model's tables, everyone laying greedily."""
    one, two = tables
    n = rules.players
    hands: list[list[int]] = [[] for _ in range(n)]
    pos = 0
    dealer_side = rules.teams[rules.dealer]
    for s in range(n):
        m = rules.dealt[s]
        held = deck[pos : pos + m]
        pos += m
        if m == 0:
            continue
        if s == seat:
            assert held == cards
            kept = [cards[i] for i in split[0]]
            passed = [cards[i] for i in split[2]]
        else:
            keep = m - rules.thrown[s] - rules.passed[s]
            kept, _, passed = naive_split(
                held, keep, rules.thrown[s], rules.passed[s], rules.teams[s] == dealer_side,
                one[model, s].tolist(), two[model, s].tolist(), rules.lowball,
                rules.throw_fives, rules.jokers,
            )  # fmt: skip
        hands[s] += kept
        if passed:
            partner = next(o for o in range(n) if o != s and rules.teams[o] == rules.teams[s])
            hands[partner] += passed
    points = [0] * n
    for s, _, _, pts, _ in naive_table_play(hands, naive_greedy, rules.play_once):
        points[s] += pts
    return points


def masks_of(split) -> list[int]:  # type: ignore[no-untyped-def]
    return [sum(1 << i for i in part) for part in split]


@pytest.mark.parametrize(("name", "role", "hand", "variants"), rotating(SEATS, 4, "split-play"))
def test_each_deal_is_the_rules_play(name: str, role: str, hand: str, variants: dict) -> None:  # type: ignore[type-arg]
    rules = game(name, **variants)
    seat = rules.seat(role)
    cards = [int(c) for c in dealt_cards(hand, rules.dealt[seat], rules.jokers)]
    throws = analyze_seat(hand, rules, role, others="random")
    picked = list(range(min(4, len(throws.kept))))
    splits = split_masks(cards, throws.kept, throws.thrown, throws.passed, picked)
    table = table_deal(rules, POLICY_CODES["greedy"], "expert")
    held = np.array(cards, np.int64)
    seed, first, samples = 5, 3, 3
    got = tgk.split_pegging(held, seat, splits, table, first, samples, seed)
    unseen, place = tgk.unseen_and_place(held, seat, table)
    for g in range(samples):
        deck = tgk.pack_with(held, unseen, place, rng_for(seed, first + g)).tolist()
        for r, row in enumerate(splits):
            split = [[i for i in range(len(cards)) if m >> i & 1] for m in row]
            want = twin_points(rules, seat, cards, deck, split, (table.crib_one, table.crib_two), 1)
            assert got[r, g].tolist() == want, (name, g, r)
    assert masks_of([[0, 1], [2], []]) == [3, 4, 0]


@pytest.fixture
def few_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(split_play, "SIMULATED_DEALS", Count("simulated deals", 2, 100, 12))


@pytest.mark.usefixtures("few_deals")
@pytest.mark.parametrize(("name", "role"), [("four", "across"), ("three", "dealer")])
def test_the_peg_is_the_side_less_the_other_sides_mean(name: str, role: str) -> None:
    rules = game(name)
    hand = "5H 6S 4D JC QH"
    seat = rules.seat(role)
    throws = analyze_seat(hand, rules, role, others="random")
    cards = [int(c) for c in dealt_cards(hand, rules.dealt[seat], 0)]
    played = split_play.with_play(throws, cards, seed=4)
    splits = split_masks(cards, throws.kept, throws.thrown, throws.passed, range(len(throws.kept)))
    table = table_deal(rules, POLICY_CODES[split_play.policy_of(rules)], "expert")  # the default
    points = tgk.split_pegging(np.array(cards), seat, splits, table, 0, 12, 4)
    teams = np.array(rules.teams)
    mine = teams == teams[seat]
    others = [t for t in sorted(set(rules.teams)) if t != teams[seat]]
    own = points[:, :, mine].sum(axis=2).mean(axis=1)
    opp = np.mean([points[:, :, teams == t].sum(axis=2).mean(axis=1) for t in others], axis=0)
    total = throws.net + own - opp
    order = np.argsort(-total, kind="stable")
    assert played.kept == [throws.kept[i] for i in order]
    assert np.allclose(played.peg_own, own[order]) and np.allclose(played.peg_opp, opp[order])
    assert np.allclose(played.total, total[order])
    assert np.allclose(played.net, throws.net[order])


@pytest.mark.usefixtures("few_deals")
def test_the_ranking_by_total_and_its_words() -> None:
    rows = ca.analyze_rows("5H 6S 4D JC QH", game="three", seat="dealer", pegging="simulated")
    records = list(rows.records())
    assert [r["total"] for r in records] == sorted((r["total"] for r in records), reverse=True)
    for r in records:
        assert r["total"] == pytest.approx(r["net"] + r["peg_own"] - r["peg_opp"])
        assert r["peg"] == pytest.approx(r["peg_own"] - r["peg_opp"]) and r["peg_se"] > 0
    verdict = rows.meta.verdict
    assert verdict.startswith("As dealer in three: throw") and "(total " in verdict
    assert "simulated by the solver (12 deals" in " ".join(rows.meta.assumed.split())
    many = ca.analyze_rows(
        "5H 6S 4D JC QH 8C 2D 3S 9H KC", game="canadian-doubles", seat="dealer",
        pegging="simulated", others="random",
    )  # fmt: skip
    assert len(many) == split_play.MOST_SPLITS


@pytest.mark.usefixtures("few_deals")
def test_the_command_line() -> None:
    runner = CliRunner()
    base = ["discard", "5H", "6S", "4D", "JC", "QH", "--game", "five-dealt", "--seat", "pone"]
    ok = runner.invoke(cli, [*base, "--pegging", "simulated", "--others", "random"])
    assert ok.exit_code == 0, ok.output
    head = ok.output.splitlines()[-6]
    assert head.split()[-4:] == ["net", "peg", "±", "total"], ok.output
    for extra, says in [
        (["--pegging", "table"], "the pegging table is the standard game's"),
        (["--pegging", "simulated", "--score", "100-100"], "does not go with --score"),
        (["--pegging", "simulated", "--distribution"], "does not go with --distribution"),
    ]:
        bad = runner.invoke(cli, [*base, *extra])
        assert bad.exit_code == 2 and says in bad.output, (extra, bad.output)
        assert len(bad.output.strip().splitlines()) == 1
