"""Which card to lay in any game (crib_analyze.play.table_advice): the play kernel
resumed from any point of a play against the plain-Python twin played from the start
(tests/naive.py: naive_table_play), the position read by the sequence scorer; advice in
clear positions; the command line.

Mutations tried (each fails a test here): the resumed play forgetting the ranks laid
since the count started; the go point after a resume not scored; the others' draws
dealt to the player's own seat too; the side's points taken with the wrong sign.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.api import advise_play_rows
from crib_analyze.cards import format_card
from crib_analyze.cli import cli
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.play.sequence import score_table_sequence
from crib_analyze.results import Rows
from crib_analyze.rules import game
from tests.naive import naive_greedy, naive_table_play

GAME_OF = {2: "five-dealt", 3: "three", 4: "four (individual)", 5: "five"}


def rules_for(players: int, three_cards: bool):  # type: ignore[no-untyped-def]
    if three_cards:
        return game("five-card")
    return game("four", partners=False) if players == 4 else game(GAME_OF[players])


plays = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.permutations(range(52)).map(lambda p: p[: 4 * n]),
        st.integers(1, 19),
        st.booleans(),
    )
)


@settings(max_examples=300, deadline=None)
@given(plays)
def test_the_play_resumed_anywhere_ends_as_the_whole_play(case: tuple) -> None:  # type: ignore[type-arg]
    n, cards, cut, three = case
    three = three and n == 2
    rules = rules_for(n, three)
    size = rules.hand_size
    hands = [list(cards[4 * s : 4 * s + size]) for s in range(n)]
    whole = naive_table_play(hands, naive_greedy, rules.play_once)
    k = cut % len(whole)
    if k == 0:
        return
    prefix = [c for _, c, _, _, _ in whole[:k]]
    text = " ".join(format_card(c) for c in prefix)
    play = score_table_sequence(text, rules, [" ".join(format_card(c) for c in h) for h in hands])
    if play.complete:
        return
    rows = np.full((n, 4), -1, np.int64)
    for s, h in enumerate(hands):
        left = [c for c in h if c not in prefix]
        rows[s, : len(left)] = left
    seq = np.zeros(tk.SEQ_SIZE, np.int64)
    seq[: len(play.ranks)] = play.ranks
    seen = np.zeros(52, np.bool_)
    seen[prefix] = True
    points = np.zeros(n, np.int64)
    record = np.zeros((4 * n, 5), np.int64)
    last = whole[k - 1][0]
    tk.play_on(
        rows, seen, np.full(n, tk.GREEDY, np.int64), np.arange(n), rules.play_once, record,
        seq, len(play.ranks), play.count, play.turn, last, 0, points, -1, 0,
        np.zeros(1, np.uint64),
    )  # fmt: skip
    before = [play.totals[name] for name in rules.seat_names]
    expect = [0] * n
    for seat, _, _, pts, _ in whole:
        expect[seat] += pts
    assert [b + int(p) for b, p in zip(before, points, strict=True)] == expect


def test_a_fifteen_is_the_clear_best() -> None:
    df = ca.advise_play("dealer", "5C 9D KS 2H", "4D", played="7H 3S", game="three", samples=400)
    assert df.card.iloc[0] == "5C"
    assert df.net.iloc[0] - df.net.iloc[1] > 4 * df.net_se.iloc[0]
    assert np.allclose(df.net, df.own - df.others)


def test_nothing_fits_the_answer_is_go() -> None:
    df = ca.advise_play("dealer", "KC QD 9C 8C", "4D", played="10H 10S 5D", game="four", samples=50)
    assert df.card.tolist() == ["go"]


def test_a_side_counts_the_partner_s_points() -> None:
    """The same position and draws, four players as partners and each for themselves:
    the side's points add the partner's, and the others are one side, not three."""
    args = ("right", "7C KD 2S 3S", "9H")
    side = ca.advise_play(*args, played="5H 4C", game=game("four"), samples=300)
    side = side.set_index("card")
    alone = ca.advise_play(*args, played="5H 4C", game=game("four", partners=False), samples=300)
    alone = alone.set_index("card").loc[side.index]
    assert (side.own >= alone.own).all() and (side.own > alone.own + 0.5).all()
    assert (side.others > alone.others).all()  # two opponents' points, against a mean of 3


def test_the_command_line() -> None:
    runner = CliRunner()
    args = ["play", "5C", "9D", "KS", "2H", "--game", "three", "--seat", "dealer",
            "--starter", "4D", "--played", "7H 3S", "--samples", "200"]  # fmt: skip
    out = runner.invoke(cli, args)
    assert out.exit_code == 0, out.output
    lines = out.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("card "))
    assert lines[head + 1].startswith("5C") and all(len(line) <= 80 for line in lines)
    verdict = "\n".join(lines[:head]).replace("\n  ", " ").splitlines()[0]  # unwrapped
    assert re.fullmatch(
        r"As dealer at count 10 in three: play 5C \(net \+\d\.\d\d for your side from "
        r"here, \d\.\d\d more than KS\)",
        verdict,
    ), verdict
    solved = runner.invoke(cli, [*args[:-2], "--samples", "200", "--policy", "solver"])
    assert solved.exit_code == 0, solved.output
    assert "the rest of the play by solver" in solved.stdout.replace("\n  ", " "), solved.stdout
    go = runner.invoke(cli, ["play", "9D", "KS", "8H", *args[5:12], "KH QS 2C 4S 3S"])
    assert go.exit_code == 0, go.output
    assert go.stdout.startswith("As dealer at count 29 in three: say go"), go.stdout
    for bad, words in [
        ([*args[:-2], "--samples", "200", "--policy", "search"], "does not go with --game"),
        (
            [
                "play",
                "5C",
                "9D",
                "KS",
                "--game",
                "three",
                "--seat",
                "dealer",
                "--starter",
                "4D",
                "--played",
                "7H 3S",
            ],
            "holds 4 cards",
        ),
        (
            [
                "play",
                "5C",
                "9D",
                "KS",
                "2H",
                "--game",
                "three",
                "--seat",
                "left",
                "--starter",
                "4D",
                "--played",
                "7H 3S",
            ],
            "turn",
        ),
        (["play", "5C", "9D", "KS", "2H", "--seat", "left", "--pone"], "contradicts --seat"),
        (["play", "5C", "9D", "KS", "2H", "--seat", "left", "--played", ""], "unknown seat 'left'"),
        (["play", "5C", "9D", "KS", "2H", "--game", "three", "--seat", "dealer"], "--starter"),
    ]:
        result = runner.invoke(cli, bad)
        assert result.exit_code == 2, (bad, result.output)
        assert words in result.output, (bad, result.output)


@pytest.mark.parametrize("name", ["five-card", "five"])
def test_every_game_takes_advice(name: str) -> None:
    rules = game(name)
    hand = "5C 9D KS" if rules.hand_size == 3 else "5C 9D KS 2H"
    df = ca.advise_play(0, hand, "4D", game=name, samples=50)
    assert len(df) == rules.hand_size


def test_the_verdict_weighs_the_margin_against_the_draws() -> None:
    from crib_analyze.verdicts import game_advice_verdict

    def rows(nets: list[float], se: float, lowball: bool = False) -> Rows:
        cards = np.array(["5C", "KS", "9D"][: len(nets)])
        columns = {"card": cards, "net": np.array(nets), "net_se": np.full(len(nets), se)}
        attrs = {"seat": "left", "count": 10, "game": "three", "lowball": lowball}
        return Rows(columns, attrs)

    where = "As left at count 10 in three: play 5C (net +2.00 for your side from here"
    assert game_advice_verdict(rows([2.0, 1.5, 0.0], 0.1)) == f"{where}, 0.50 more than KS)"
    assert game_advice_verdict(rows([2.0, 1.5, 0.0], 0.2)) == (
        f"{where}, level with KS within the sampling error)"
    )
    assert game_advice_verdict(rows([2.0, 2.0], 0.0)) == f"{where}, as good as KS)"
    assert game_advice_verdict(rows([2.0], 0.1)) == f"{where}, the only card that fits)"
    low = game_advice_verdict(rows([2.0, 2.5], 0.1, lowball=True))
    assert low == f"{where}, 0.50 fewer than KS)"


def test_the_solver_takes_the_fifteen_and_run_and_says_go() -> None:
    """The solver's advice: after 5 and 6, the 4 (fifteen and a run of three, 5) before
    the 10; go when nothing fits; a card's own points are in its side's."""
    df = ca.advise_play(
        "dealer",
        "10S 4C KH QH",
        "4D",
        played="5H 6S",
        game="three",
        samples=100,
        policy="solver",
    )
    assert df.card.iloc[0] == "4C"
    assert df.own.iloc[0] >= 5.0  # the 5 itself, and whatever follows
    go = ca.advise_play(
        "dealer", "KC QD 9C 8C", "4D", played="10H 10S 5D", game="four", samples=50,
        policy="solver",
    )  # fmt: skip
    assert go.card.tolist() == ["go"]


def test_the_solver_is_the_default_of_players_each_for_themselves() -> None:
    """Another game of two or three players is advised by the solver unless a policy is
    named, lowball too; five players by the solver once the other seats hold
    SOLVER_MOST_HIDDEN cards or fewer (before, by the lookahead, said in a note; named,
    the solver solves from the lead); partners by the lookahead (benchmarks/README: the
    solver gains with players each for themselves, not in partnerships)."""
    heads_up = ca.advise_play("pone", "5C 9D KS 2H", "4D", game="five-dealt", samples=50)
    assert heads_up.attrs["policy"] == "solver"
    named = ca.advise_play(
        "pone", "5C 9D KS 2H", "4D", game="five-dealt", samples=50, policy="lookahead"
    )
    assert named.attrs["policy"] == "lookahead"
    three = ca.advise_play("left", "5C 9D KS 2H", "4D", game="three", samples=50)
    assert three.attrs["policy"] == "solver"
    four = ca.advise_play("left", "5C 9D KS 2H", "4D", game="four", samples=50)
    assert four.attrs["policy"] == "lookahead"
    low = ca.advise_play("pone", "5C 9D KS 2H", "4D", game=game("five-dealt", lowball=True),
                         samples=50)  # fmt: skip
    assert low.attrs["policy"] == "solver"
    five = {"seat": "left", "starter": "4D", "game": "five", "samples": 30}
    lead = ca.advise_play(hand="5C 9D KS 2H", **five)
    assert lead.attrs["policy"] == "lookahead"  # the others hold 16
    assert any("until then the lookahead" in n for n in lead.attrs["notes"]), lead.attrs
    later = ca.advise_play(hand="5C 9D KH", played="2S 3S 7D AC 4C", **five)
    assert later.attrs["policy"] == "solver"  # the others hold 12
    assert not any("until then" in n for n in later.attrs["notes"])
    asked = ca.advise_play(hand="5C 9D KS 2H", policy="solver", **(five | {"samples": 3}))
    assert asked.attrs["policy"] == "solver"
    alone = game("four", partners=False)  # four each for themselves: not measured
    assert ca.advise_play("left", "5C 9D KS 2H", "4D", game=alone, samples=30).attrs["policy"] == (
        "lookahead"
    )


def drawn_pools(monkeypatch: pytest.MonkeyPatch) -> list[list[int]]:
    """The pools the solver's draws are dealt from, one a call of solved_rollouts (the
    advice runs as ever): the list fills as the advice is asked."""
    from crib_analyze.play import table_solver_kernels as ts

    pools: list[list[int]] = []
    real = ts.solved_rollouts

    def spy(*args):  # type: ignore[no-untyped-def]
        pools.append(sorted(int(c) for c in args[3]))
        return real(*args)

    monkeypatch.setattr(ts, "solved_rollouts", spy)
    return pools


def test_under_throw_fives_the_other_seats_hold_no_five(monkeypatch: pytest.MonkeyPatch) -> None:
    """Throw fives: the other seats' cards are drawn from the unseen cards but the fives
    (every seat threw its own); without the rule the fives are drawn like any card. The
    pool the kernel draws from is read, then the advice is checked to follow it: a card
    leaving the count at 10 gains against one leaving 11 once no five can answer."""
    pools = drawn_pools(monkeypatch)
    hand, starter, played = "KC 9S 2H 8H", "7D", "AD"
    kw = {"samples": 2000, "seed": 4, "policy": "solver"}
    plain = advise_play_rows("dealer", hand, starter, played=played, game="five-dealt", **kw)
    fives = advise_play_rows("dealer", hand, starter, played=played,
                                game=game("five-dealt", throw_fives=True), **kw)  # fmt: skip
    seen = set(ca.parse_cards(f"{hand} {starter} {played}"))
    every = [c for c in range(52) if c not in seen]
    assert pools == [every, [c for c in every if c >> 2 != 4]]  # rank 4: the fives
    net = {
        name: dict(zip(rows["card"].tolist(), rows["net"].tolist(), strict=True))
        for name, rows in (("plain", plain), ("fives", fives))
    }
    edge = {k: v["9S"] - v["KC"] for k, v in net.items()}  # the same draws within a run
    assert edge["fives"] > edge["plain"] + 0.12, net  # measured: +0.23 to +0.31, seeds 4-7
    assert any("drawn without fives" in n for n in fives.meta.notes)


def test_a_penalty_changes_the_shows_not_the_play() -> None:
    """The penalties score a show of nothing: the play advice is the game's own (the
    standard game's solver, with the opponent read), and says so (from a score, where the
    shows decide who wins, the cards are valued on the penalty's own board:
    tests/test_table_play_odds.py)."""
    args = ("pone", "7C 8D 2C", "6H")
    plain = advise_play_rows(*args, played="3D 10S")
    for penalty in ("zero", "back-ten"):
        rows = advise_play_rows(*args, played="3D 10S", game=game("standard", penalty=penalty))
        assert rows["card"].tolist() == plain["card"].tolist()
        assert rows["value"].tolist() == plain["value"].tolist()
        assert rows.meta.notes[-1].endswith("it changes the shows, not the play")


def test_a_joker_is_laid_as_the_rank_that_serves(monkeypatch: pytest.MonkeyPatch) -> None:
    """Jokers in the play: the player's joker is an option per rank that fits, the best
    one shown ("JK as A" where only an ace fits); the other seats' cards are drawn from
    the unseen cards and the jokers not in view (a joker laid, cut or held is in view,
    the card it was laid as is not)."""
    pools = drawn_pools(monkeypatch)
    kw = {"samples": 200, "seed": 3}
    only = advise_play_rows("dealer", "JK KC QC", "2C", played="10H 10S 10D",
                            game=game("standard", jokers=1), **kw)  # fmt: skip
    assert only["card"].tolist() == ["JK as A"]  # 30: an ace's 31, the only card that fits
    assert any("joker is laid as the rank" in n for n in only.meta.notes)
    two = advise_play_rows("dealer", "JK 5C QC", "2C", played="JK=5H 10S 10D",
                           game=game("standard", jokers=2), **kw)  # fmt: skip
    assert two["card"].tolist()[0] == "JK as 6"  # 25: a six's 31 beats the five's 30
    assert len(two) == 2  # the joker's best rank only, and the five (the queen does not fit)

    def but(text: str) -> list[int]:
        return [c for c in range(52) if c not in set(ca.parse_cards(text))]

    assert pools[0] == but("KC QC 2C 10H 10S 10D")  # the one joker is in view
    assert pools[1] == but("5C QC 2C 10S 10D")  # 5H stays unseen: a joker stood for it
    one_left = advise_play_rows("pone", "5C QC 9D", "2C", played="JK=5H 10S",
                                game=game("standard", jokers=2), **kw)  # fmt: skip
    assert len(one_left) == 3 and pools[2] == [*but("5C QC 9D 2C 10S"), 52]  # one not in view
    four = advise_play_rows("left", "5H 6D JK 9C", "2C", game=game("four", jokers=1), **kw)
    assert four.attrs["policy"] == "lookahead"  # the game's default, as without jokers
    three = advise_play_rows("left", "5H 6D JK 9C", "2C", game=game("three", jokers=1), **kw)
    assert three.attrs["policy"] == "solver"  # heads up (three each for themselves)
    ahead = advise_play_rows("dealer", "JK KC QC", "2C", played="10H 10S 10D",
                             game=game("standard", jokers=1), policy="lookahead", **kw)  # fmt: skip
    assert list(ahead["card"]) == ["JK as A"]  # at 30 only an ace fits: 31 for 2
    with pytest.raises(ca.UsageError, match="3 jokers in view"):
        advise_play_rows("dealer", "JK KC QC", "JK", played="JK=5H 10S 10D",
                         game=game("standard", jokers=2), **kw)  # fmt: skip


def test_jokers_on_the_command_line() -> None:
    runner = CliRunner()
    args = ["play", "JK", "KC", "QC", "--dealer", "--starter", "2C", "--played", "10H 10S 10D"]
    out = runner.invoke(cli, [*args, "--jokers", "1", "--samples", "200"])
    assert out.exit_code == 0, out.output
    assert out.stdout.startswith("As dealer at count 30: play JK as A"), out.stdout
    unasked = runner.invoke(cli, args)
    assert unasked.exit_code == 2
    assert unasked.output.strip().splitlines()[-1].startswith("Error: JK is a joker: give --jokers")
    lookahead = runner.invoke(cli, [*args, "--jokers", "1", "--policy", "lookahead"])
    assert lookahead.exit_code == 0, lookahead.output
    assert "play JK as A" in lookahead.output and "by lookahead" in lookahead.output


@pytest.mark.parametrize("seed", range(4))
def test_a_joker_s_every_rank_played_out_by_greedy(seed: int) -> None:
    """What advice with a joker by a policy other than the solver plays out in each draw
    (table_play_kernels.play_on from an option's code, greedy after it: a joker laid as
    the rank greedy values most): each option (a card, or the joker laid as a rank)
    scores what the rules' play gives it (tests/naive.py: naive_table_play, greedy
    after that first card)."""
    from tests.naive import JOKER_LAID, lays_of

    rng = np.random.default_rng(seed)
    cards = [int(c) for c in rng.choice(52, 7, replace=False)]
    pone, dealer = [*cards[:3], 52], cards[3:7]
    for slot, c in enumerate(pone):
        for lay in lays_of(c, 0):
            code = slot if c < 52 else slot + 4 * (1 + lay - JOKER_LAID)
            points = np.zeros(2, np.int64)
            tk.play_on(
                np.array([pone, dealer], np.int64), np.zeros(53, np.bool_),
                np.full(2, tk.GREEDY, np.int64), np.array([0, 1], np.int64), False,
                np.zeros((8, 5), np.int64), np.zeros(tk.SEQ_SIZE, np.int64), 0, 0, 0, -1, 0,
                points, code, 0, np.zeros(1, np.uint64),
            )  # fmt: skip
            first = iter([lay])

            def choose(seat: int, legal: list[int], ranks: list[int], count: int) -> int:
                chosen = next(first, None)  # noqa: B023 (used at once, in this loop)
                return chosen if chosen is not None else naive_greedy(seat, legal, ranks, count)

            want = [0, 0]
            for seat, _, _, pts, _ in naive_table_play([pone, dealer], choose):
                want[seat] += pts
            assert points.tolist() == want, lay
