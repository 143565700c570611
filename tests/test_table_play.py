"""The play round a table of 2 to 5 players: the kernel against a plain-Python twin
written from the rules text (tests/naive.py: naive_table_play), the rules' worked
examples, and the two-player kernels on the same deals.

Mutations tried (each fails a test here): the go passed to the player on the right; the
player who laid last leading after a go; the go point also at 31; the last card not
scored; the single pass of the five-card game ignored.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from crib_analyze.cards import format_card, parse_cards
from crib_analyze.play import table_play_kernels as tk
from crib_analyze.play.matches import play
from crib_analyze.play.sequence import score_table_sequence
from crib_analyze.rules import game
from tests.conftest import scaled
from tests.naive import naive_greedy, naive_table_lookahead, naive_table_play


def kernel_play(
    hands: list[list[int]], policy: int, once: bool = False, teams: list[int] | None = None
) -> tuple[list[int], list[tuple[int, int, int, int]]]:
    """(points by seat, (seat, card, count, points) per card) from the kernel."""
    n = len(hands)
    rows = np.full((n, 4), -1, np.int64)
    for s, h in enumerate(hands):
        rows[s, : len(h)] = h
    record = np.zeros((4 * n, 5), np.int64)
    team = np.array(teams if teams is not None else list(range(n)), np.int64)
    points, events = tk.play_table(
        rows, -1, np.full(n, policy, np.int64), team, once, record, 0, np.zeros(1, np.uint64)
    )
    return [int(p) for p in points], [
        tuple(int(x) for x in r[[0, 1, 2, 4]]) for r in record[:events]
    ]


def naive_points(out: list[tuple[int, int, int, int, list[str]]], n: int) -> list[int]:
    points = [0] * n
    for seat, _, _, pts, _ in out:
        points[seat] += pts
    return points


def in_order(seat: int, legal: list[int], ranks: list[int], count: int) -> int:
    return legal[0]


def test_the_three_player_example_written_as_cards() -> None:
    play = score_table_sequence(
        "7H 7S 7D 5S 5H 8C 10D 10C go go 3D 10H 4C 9S", game("three"),
        ["7H 5S 10D 4C", "7S 5H 10C 3D", "7D 8C 10H 9S"],
    )  # fmt: skip
    assert play.totals == {"left": 0, "middle": 10, "dealer": 7}
    assert play.complete
    points = [(e.player, e.count, e.points) for e in play.events if e.card >= 0]
    assert points[4] == ("middle", 31, 4) and points[8] == ("middle", 31, 2)
    assert points[-1] == ("dealer", 23, 1)


def test_the_three_player_example_of_the_rules() -> None:
    """L lays a 7, M pairs for 2, D makes three of a kind at 21 for 6, L reaches 26, M
    pairs at 31 for 4; D lays 8, L reaches 18, M pairs at 28 for 2, D and L say go, M
    makes 31 for 2; D lays 10, L reaches 14, D reaches 23 and 1 for the last card:
    L 0, M 10, D 7."""
    left = parse_cards("7H 5S 10D 4C")
    middle = parse_cards("7S 5H 10C 3D")
    dealer = parse_cards("7D 8C 10H 9S")
    points, events = kernel_play([left, middle, dealer], tk.IN_ORDER)
    assert points == [0, 10, 7]
    assert [(seat, count, pts) for seat, _, count, pts in events] == [
        (0, 7, 0), (1, 14, 2), (2, 21, 6), (0, 26, 0), (1, 31, 4),
        (2, 8, 0), (0, 18, 0), (1, 28, 2), (1, 31, 2),
        (2, 10, 0), (0, 14, 0), (2, 23, 1),
    ]  # fmt: skip
    twin = naive_table_play([left, middle, dealer], in_order)
    assert naive_points(twin, 3) == [0, 10, 7]


def test_the_two_player_example_of_the_rules() -> None:
    """10H 5S 7C 6D go 2H 6C 4S 4D: the pone 3, the dealer 6."""
    pone, dealer = parse_cards("10H 7C 6C 4D"), parse_cards("5S 6D 2H 4S")
    points, events = kernel_play([pone, dealer], tk.IN_ORDER)
    assert points == [3, 6]
    assert [card for _, card, _, _ in events] == parse_cards("10H 5S 7C 6D 2H 6C 4S 4D")


def test_the_five_card_game_plays_to_31_once() -> None:
    """The old game: the first go ends the play; the cards left are not laid."""
    pone, dealer = parse_cards("10H KC QD"), parse_cards("10S KD 5C")
    points, events = kernel_play([pone, dealer], tk.IN_ORDER, once=True)
    # 10H 10S (pair 2) KC (30) then nobody fits: the go to the pone; QD and KD, 5C stay
    assert [card for _, card, _, _ in events] == parse_cards("10H 10S KC")
    assert points == [1, 2]
    full, _ = kernel_play([pone, dealer], tk.IN_ORDER)
    assert full != points


deals = st.integers(2, 5).flatmap(
    lambda n: st.tuples(
        st.just(n),
        st.permutations(range(52)).map(lambda p: p[: 4 * n]),
        st.sampled_from([tk.IN_ORDER, tk.GREEDY]),
        st.booleans(),
        st.booleans(),
    )
)


@settings(max_examples=300, deadline=None)
@given(deals)
def test_the_kernel_agrees_with_the_twin(case: tuple) -> None:  # type: ignore[type-arg]
    n, cards, policy, once, three = case
    size = 3 if three else 4
    hands = [list(cards[4 * s : 4 * s + size]) for s in range(n)]
    points, events = kernel_play(hands, policy, once)
    twin = naive_table_play(hands, in_order if policy == tk.IN_ORDER else naive_greedy, once)
    assert [(s, c, cnt, p) for s, c, cnt, p, _ in twin] == events
    assert naive_points(twin, n) == points
    if not once:
        assert len(events) == size * n  # every card is laid


@pytest.mark.heavy
def test_two_players_round_the_table_play_as_the_two_player_kernels() -> None:
    """The greedy policy on 2,000 random two-player deals: the same points per seat
    from the table kernel and from the two-player kernels."""
    rng = np.random.default_rng(5)
    deals = np.array([rng.permutation(52)[:13] for _ in range(2000)], np.int64)
    two = play(deals, "greedy", "greedy")
    table = np.array([kernel_play([list(d[0:4]), list(d[4:8])], tk.GREEDY)[0] for d in deals])
    assert (two == table).all()


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_lookahead_plays_every_card_for_any_table(players: int) -> None:
    rng = np.random.default_rng(players)
    for _ in range(200):
        cards = rng.permutation(52)[: 4 * players]
        hands = [list(cards[4 * s : 4 * s + 4]) for s in range(players)]
        teams = [s % 2 for s in range(players)] if players == 4 else None
        points, events = kernel_play(hands, tk.LOOKAHEAD, teams=teams)
        assert sorted(c for _, c, _, _ in events) == sorted(int(c) for c in cards)
        # each card fits under 31 and the points add up
        assert all(0 < count <= 31 for _, _, count, _ in events)
        assert sum(points) == sum(p for _, _, _, p in events)


@pytest.mark.parametrize("jokers", [0, 1, 2])
def test_the_lookahead_lays_the_card_its_twin_values_most(jokers: int) -> None:
    """The table lookahead's choice (``choose``) against its plain-Python twin written
    from its description (tests/naive.py), on random positions of 2 to 5 players (four
    as partners), with 0 to 2 jokers in the pack: the same card, and a joker laid as the
    same rank."""
    rng = np.random.default_rng(40 + jokers)
    checked = 0
    for _ in range(scaled(600, 150)):
        players = int(rng.integers(2, 6))
        pack = [int(c) for c in rng.permutation(52 + jokers)]
        starter = next(c for c in pack if c < 52)
        pack.remove(starter)
        ranks, count, seen = [], 0, {starter}
        for c in pack[: int(rng.integers(0, 5))]:  # the round so far, real cards
            if c >= 52 or count + min(c // 4 + 1, 10) > 31:
                break
            ranks.append(c // 4)
            count += min(c // 4 + 1, 10)
            seen.add(c)
        rest = [c for c in pack if c not in seen]
        hands = [rest[4 * s : 4 * s + 4] for s in range(players)]
        for h in hands:  # some cards laid in the rounds before
            for i in range(4):
                if rng.random() < 0.25:
                    h[i] = -1
        seat = int(rng.integers(players))
        if jokers and rng.random() < 0.5 and 52 not in hands[seat]:  # the seat holds one
            for h in hands:
                h[:] = [-1 if c == 52 else c for c in h]
            hands[seat][int(rng.integers(4))] = 52
        teams = [s % 2 for s in range(players)] if players == 4 else list(range(players))
        seq = np.zeros(tk.SEQ_SIZE, np.int64)
        seq[: len(ranks)] = ranks
        seen_mask = np.zeros(52 + jokers, np.bool_)
        seen_mask[list(seen)] = True
        code = tk.choose(
            tk.LOOKAHEAD, np.array(hands, np.int64), seat, seq, len(ranks), count, seen_mask,
            np.array(teams, np.int64),
        )  # fmt: skip
        slot, name = (code % tk.NAMED, code // tk.NAMED - 1) if code >= 0 else (-1, -1)
        twin = naive_table_lookahead(hands, seat, ranks, count, seen, teams)
        assert (slot, name if name >= 0 else -1) == twin, (hands, seat, ranks, count)
        checked += twin[1] >= 0
    assert checked >= (5 if jokers else 0)  # jokers were laid, as some rank


GAMES_BY_SIZE = {
    "standard": game("standard"),
    "five-card": game("five-card"),
    "three": game("three"),
    "four": game("four", partners=False),
    "five": game("five"),
}


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(list(GAMES_BY_SIZE)), st.permutations(range(52)), st.booleans())
def test_a_played_deal_written_as_cards_scores_the_same(
    name: str, cards: list[int], greedy_play: bool
) -> None:
    """The kernel's play, written out as cards (go's left for the scorer to infer from
    the hands), scored by the plain-Python scorer of written plays: the same seats,
    counts and points card by card."""
    rules = GAMES_BY_SIZE[name]
    size = rules.hand_size
    hands = [list(cards[size * s : size * s + size]) for s in range(rules.players)]
    points, events = kernel_play(hands, tk.GREEDY if greedy_play else tk.IN_ORDER, rules.play_once)
    tokens = [format_card(c) for _, c, _, _ in events]
    if len(events) < size * rules.players and events[-1][2] != 31:
        tokens.append("go")  # the old game's play stopped at a go: someone says it
    play = score_table_sequence(tokens, rules, [[format_card(c) for c in h] for h in hands])
    laid = [e for e in play.events if e.card >= 0]
    assert [(rules.seat_names.index(e.player), e.card, e.count, e.points) for e in laid] == events
    assert list(play.totals.values()) == points
    assert play.complete


def test_peg_scores_any_game_from_the_command_line() -> None:
    from click.testing import CliRunner

    from crib_analyze.cli import cli

    runner = CliRunner()
    three = ["7H", "7S", "7D", "5S", "5H", "8C", "10D", "10C", "go", "go", "3D", "10H", "4C", "9S"]
    hands = ["--hand", "7H 5S 10D 4C", "--hand", "7S 5H 10C 3D", "--hand", "7D 8C 10H 9S"]
    ok = runner.invoke(cli, ["peg", "--game", "three", *three])
    assert ok.exit_code == 0 and ok.stdout.splitlines()[-1] == "left 0, middle 10, dealer 7"
    # with the hands, the two go's are implied and may be left out
    implied = [t for t in three if t != "go"]
    checked = runner.invoke(cli, ["peg", "--game", "three", *implied, *hands])
    assert checked.exit_code == 0 and checked.stdout.splitlines()[-1] == ok.stdout.splitlines()[-1]
    four = runner.invoke(cli, ["peg", "--game", "four", "5H", "10S", "5D", "10C", "5S"])
    assert four.exit_code == 0
    assert four.stdout.splitlines()[-1].startswith(
        "left 0, across 2, right 0, dealer 1; sides: left & right 0, across & dealer 3"
    )
    for args, message in [
        (["--game", "three", "5H", "--pone-hand", "5H 6H 7H 8H"], "the two seats of the standard"),
        (["--game", "three", "5H", "--hand", "5H 6H 7H 8H"], "three has 3 hands"),
        (["--game", "nine", "5H"], "Invalid value for '--game'"),
        (["--game", "three", *three[:8], "9S", *hands], "9S passes 31 (count 28) while middle"),
    ]:
        bad = runner.invoke(cli, ["peg", *args])
        assert bad.exit_code == 2, (args, bad.output)
        assert message in bad.stderr and "Traceback" not in bad.output


def test_the_lookahead_feeds_a_partner_and_starves_an_opponent() -> None:
    """Leading a 5 invites the next player's ten for 15; a 9 only a 6. The lookahead
    leads the 9 when the next seat is an opponent and the 5 when it is a partner."""
    hands = [parse_cards("5H 9C"), parse_cards("2D 3D"), parse_cards("2S 3S"), parse_cards("2C 3C")]
    _, alone = kernel_play(hands, tk.LOOKAHEAD, teams=[0, 1, 2, 3])
    _, partners = kernel_play(hands, tk.LOOKAHEAD, teams=[0, 0, 1, 1])
    assert alone[0][1] == parse_cards("9C")[0]
    assert partners[0][1] == parse_cards("5H")[0]
