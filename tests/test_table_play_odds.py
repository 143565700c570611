"""The card that wins at any table of two sides and under the variants (``play --score``
with ``--game`` or a variant): each part of board.table_outcome_kernels against a
plain-Python twin written from the rules text (tests/naive.py), whole answers checked
where the rules decide them, and the boards made on first use."""

from __future__ import annotations

import json
from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner

from crib_analyze.board import table_boards
from crib_analyze.board import table_outcome_kernels as tok
from crib_analyze.cli import cli
from crib_analyze.play import table_solver_kernels as ts
from crib_analyze.rng_kernels import rng_for
from tests.conftest import FULL, rotating
from tests.naive import (
    JOKER_LAID,
    _table_replay,
    held_card,
    laid_rank,
    naive_table_value,
    naive_wild_score,
    rank,
)

# --- the solver's line -----------------------------------------------------------------


def naive_line(
    hands: list[list[int]], teams: list[int], prefix: list[int], option: int, aim: int
) -> list[tuple[int, int]]:
    """The play after ``prefix``: ``option`` laid, then each seat the first card of best
    value to its side (its side's points less the others' mean over the rest of the
    play, brute force); the (seat, points) of every card that scores, in order."""
    sides = sorted(set(teams))
    line = [*prefix, option]
    while True:
        d, out = _table_replay(hands, line, False)
        if d is None:
            break
        best, best_goal, tried = None, None, set()
        for card in d.legal:
            key = (card >= JOKER_LAID, laid_rank(card))
            if key in tried:
                continue
            tried.add(key)
            v = naive_table_value(hands, teams, [*line, card], False, aim, len(line))
            by_side = {t: sum(v[s] for s in range(len(v)) if teams[s] == t) for t in sides}
            others = [by_side[t] for t in sides if t != teams[d.seat]]
            goal = by_side[teams[d.seat]] - sum(others) / len(others)
            if best is None or aim * goal > aim * best_goal + 1e-9:
                best, best_goal = card, goal
        line.append(best)
    return [(seat, pts) for seat, _, _, pts, _ in out[len(prefix) :] if pts > 0]


def _deal(seed: int) -> tuple[list[list[int]], list[int], list[int]]:
    """A small table (2-4 players, 1-3 cards each, a joker now and then) and a prefix of
    random legal cards."""
    rng = np.random.default_rng(seed)
    players = int(rng.integers(2, 5))
    size = int(rng.integers(1, 4))
    cards = [int(c) for c in rng.choice(52, players * size, replace=False)]
    hands = [cards[s * size : (s + 1) * size] for s in range(players)]
    if seed % 3 == 0:
        hands[int(rng.integers(players))][0] = 52
    teams = [s % 2 for s in range(players)] if players == 4 and seed % 2 else list(range(players))
    prefix: list[int] = []
    for _ in range(int(rng.integers(0, players * size))):
        d, _ = _table_replay(hands, prefix, False)
        if d is None:
            break
        prefix.append(int(rng.choice(d.legal)))
    return hands, teams, prefix


@pytest.mark.parametrize("seed", rotating(list(range(60)), 15, "table line"))
def test_the_line_is_the_twins(seed: int) -> None:
    """table_line plays out the rest of the play as perfect play of the known cards
    does, card by card (a joker as the rank that serves its seat best)."""
    hands, teams, prefix = _deal(seed)
    d, _ = _table_replay(hands, prefix, False)
    if d is None:
        pytest.skip("the play is over")
    option = d.legal[0]
    aim = -1 if seed % 5 == 4 else 1
    want = naive_line(hands, teams, prefix, option, aim)
    laid = [held_card(c) for c in prefix]
    h = np.full((len(hands), 4), -1, np.int64)
    for s, hand in enumerate(hands):
        left = [c for c in hand if c not in laid or (c >= 52 and laid.count(c) == 0)]
        for t, c in enumerate(left):
            h[s, t] = 13 if c >= 52 else c >> 2
    slot = [c for c in hands[d.seat] if c not in laid].index(held_card(option))
    name = laid_rank(option) if option >= JOKER_LAID else -1
    seq = np.zeros(ts.SEQ_SIZE, np.int64)
    seq[: len(d.ranks)] = d.ranks
    keys, values = ts.new_memo(len(hands), ts.MEMO_SIZE)
    seats, points = np.full(40, -1, np.int64), np.zeros(40, np.int64)
    tm = np.array(teams, np.int64)
    e = tok.table_line(h, d.seat, seq, len(d.ranks), d.count, slot, name, tm,
                       len(set(teams)), False, aim, keys, values, seats, points)  # fmt: skip
    assert list(zip(seats[:e].tolist(), points[:e].tolist(), strict=True)) == want


# --- the throws' weights -----------------------------------------------------------------


@pytest.mark.parametrize("seed", rotating(list(range(12)), 4, "throw weight"))
def test_a_hand_is_weighed_by_the_throws_that_keep_it(seed: int) -> None:
    """throw_weight, when every set is tried (a pool of 9): the share of the sets of
    cards the seat may have thrown after which the hand policy (tests/naive.py:
    naive_split, its tables at random) keeps exactly its hand, under throw fives too;
    the set it picks is one of them."""
    rng = np.random.default_rng(seed)
    k = 1 + seed % 2
    fives = seed % 4 == 3
    order = [int(c) for c in rng.permutation(52)]
    if fives:  # the hand holds no five under the rule; the pool two
        plain = [c for c in order if c >> 2 != 4]
        kept, pool = plain[:4], [16, 19, *plain[4:11]]
    else:
        kept, pool = order[:4], order[4:13]
    one, two = rng.random(13) * 6, rng.random((13, 13)) * 8
    two = (two + two.T) / 2  # a crib of two ranks, either way round
    sign = 1 if seed % 3 else -1

    def keeps(thrown: list[int]) -> float:  # 1 / the splits as good, if the hand is one
        values = naive_split_values([*kept, *thrown], 4, k, sign > 0, one, two, fives)
        best = max(values.values())
        tied = [h for h, v in values.items() if v > best - 1e-9]
        return 1 / len(tied) if frozenset(kept) in tied else 0.0

    share = [keeps(list(t)) for t in combinations(pool, k)]
    chosen = np.zeros(4, np.int64)
    got = tok.throw_weight(np.array(kept, np.int64), 4, np.array(pool, np.int64), len(pool), k,
                           sign, one, two, 1, fives, 0, rng_for(seed, 7), chosen)  # fmt: skip
    assert got == pytest.approx(sum(share) / len(share), abs=1e-12)
    if sum(share):
        assert keeps([pool[i] for i in chosen[:k]]) > 0


def naive_split_values(cards, keep, throw, own_crib, one, two, fives):  # type: ignore[no-untyped-def]
    """Every legal split's value by the hand policy's rule (tests/naive.py: naive_split),
    by the kept cards: the kept hand's mean show over every starter not among the cards,
    plus or minus the crib's mean of the thrown ranks; under throw fives the throw holds
    the fives (all of them, or only fives when there are more)."""
    starters = [c for c in range(52) if c not in cards]
    fives_held = [c for c in cards if rank(c) == 4]
    out = {}
    for kept in combinations(cards, keep):
        thrown = [c for c in cards if c not in kept]
        if fives and sum(c in thrown for c in fives_held) < min(len(fives_held), throw):
            continue
        mean = sum(naive_wild_score(list(kept), s) for s in starters) / len(starters)
        ranks = sorted(rank(c) for c in thrown)
        crib = one[ranks[0]] if throw == 1 else two[ranks[0]][ranks[1]]
        out[frozenset(kept)] = mean + (crib if own_crib else -crib)
    return out


def test_a_thrown_set_under_throw_fives_is_as_likely_as_the_rule_makes_it() -> None:
    """draw_crib under throw fives: a seat dealt d cards that threw k holds f of them
    fives with the chance of the rule (every set of the pool as likely to be dealt; the
    fives thrown, then cards at random): P(set) proportional to 1 / C(d - f, k - f)."""
    from math import comb

    pool = np.array([16, 17, 0, 8, 12, 24, 28, 36, 40, 44], np.int64)  # two fives
    exact = np.zeros(3)
    for t in combinations(pool.tolist(), 2):
        f = sum(c >> 2 == 4 for c in t)
        exact[f] += 1 / comb(6 - f, 2 - f)
    exact /= exact.sum()
    n = 20_000
    seen = np.zeros(3)
    out = np.zeros(4, np.int64)
    for i in range(n):
        at = tok.draw_crib(rng_for(3, i), pool.copy(), len(pool), np.array([2]), np.array([6]),
                           True, out, 0)  # fmt: skip
        assert at == 2
        seen[int(sum(c >> 2 == 4 for c in out[:2]))] += 1
    se = np.sqrt(exact * (1 - exact) / n)
    assert np.all(np.abs(seen / n - exact) < 5 * se + 1e-12), (seen / n, exact)


# --- the walk and the shows --------------------------------------------------------------


def naive_walk(events, mine, a, b, target, lines, lowball):  # type: ignore[no-untyped-def]
    """The rules text: points scored in order, a score never below 0; the first side to
    the target wins there (in lowball loses, plainly), a skunk by the loser's score."""
    for side, pts in events:
        if side == mine:
            a = max(0, a + pts)
            if a >= target:
                return (4 if lowball else sum(b < x for x in lines)), a, b
        else:
            b = max(0, b + pts)
            if b >= target:
                return (0 if lowball else 4 + sum(a < x for x in lines)), a, b
    return -1, a, b


@pytest.mark.parametrize("seed", range(40))
def test_the_walk_is_the_twins(seed: int) -> None:
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 12))
    events = [(int(rng.integers(2)), int(rng.choice([-10, 0, 1, 2, 6, 12, 20]))) for _ in range(n)]
    a, b = (int(x) for x in rng.integers(0, 121, 2))
    lines = np.array([91, 61, 31], np.int64)
    lowball = seed % 4 == 0
    sides = np.array([s for s, _ in events], np.int64)
    pts = np.array([p for _, p in events], np.int64)
    got = tok._walk(sides, pts, n, 1, a, b, 121, lines, lowball)
    assert tuple(got) == naive_walk(events, 1, a, b, 121, [91, 61, 31], lowball)


@pytest.mark.parametrize("penalty", ["none", "zero", "back-ten"])
def test_the_shows_in_order_with_their_penalties(penalty: str) -> None:
    """Each seat's show from the dealer's left, the crib last, each of nothing followed
    by its penalty: zero, a point to the other side; back ten, ten off its owner."""
    from crib_analyze.settings import PENALTIES

    shown = np.full((2, 8), -1, np.int64)
    shown[0, :4] = [4, 13, 26, 47]  # 2C 4D 7H QS: nothing with the 10S
    shown[1, :4] = [16, 40, 44, 48]  # 5C JC QC KC
    crib = np.full(8, -1, np.int64)
    crib[:4] = [0, 5, 20, 41]  # nothing either
    starter = 39
    side, pts = np.zeros(8, np.int64), np.zeros(8, np.int64)
    e = tok._show_events(shown, 4, crib, 4, starter, np.array([0, 1]), PENALTIES.index(penalty),
                         side, pts, 0)  # fmt: skip
    want = []
    for owner, cards, is_crib in ((0, shown[0, :4], False), (1, shown[1, :4], False),
                                  (1, crib[:4], True)):  # fmt: skip
        v = naive_wild_score(list(cards), starter, is_crib)
        want.append((owner, v))
        if v == 0 and penalty == "zero":
            want.append((1 - owner, 1))
        elif v == 0 and penalty == "back-ten":
            want.append((owner, -10))
    assert want[0][1] == 0 and want[-1][1] in (0, 1, -10)  # the hand of nothing, the crib's
    assert list(zip(side[:e].tolist(), pts[:e].tolist(), strict=True)) == want


# --- whole answers -----------------------------------------------------------------------


def _odds(game, hand, played, score, discards="", samples=200):  # type: ignore[no-untyped-def]
    from crib_analyze.api import advise_play_rows

    return advise_play_rows("dealer", hand, "4D", discards=discards, played=played, game=game,
                            score=score, samples=samples)  # fmt: skip


def test_pegging_out_wins_whatever_the_draw() -> None:
    """Five-dealt, the dealer's last card with every other card laid: on 120 the last
    card's point wins at once, whatever the other cards (the rules decide it)."""
    rows = _odds("five-dealt", "KS", "7H 2H 3C 2C 8D 3D 9C", (120, 100))
    assert rows["p_win"].tolist() == [pytest.approx(1.0, abs=1e-9)]


def test_the_opponent_counting_out_first_wins() -> None:
    """Five-dealt, 0 against 120: the pone counts first, and its laid hand 7H 8C 9D 3C
    with the 4D shows 7 (two fifteens, a run of three): it wins unless the dealer pegs
    out, which it cannot from 0; the dealer is then under the double skunk line (61)."""
    rows = _odds("five-dealt", "KS", "7H 2H 8C 2C 9D 3D 3C", (0, 120))
    assert rows["p_win"].tolist() == [pytest.approx(0.0, abs=1e-9)]
    assert rows["p_skunked"].tolist() == [pytest.approx(1.0, abs=1e-9)]


def test_the_cards_are_ranked_by_the_chance_of_winning() -> None:
    """The rows come by p_win, best first; the verdict says the best card and the
    score; a card's gap to the best has its standard error (0 for the best)."""
    rows = _odds("five-dealt", "5C 9D KS 2H", "7H", (110, 115))
    p = rows["p_win"]
    assert (np.diff(p) <= 0).all() and 0.0 < p[0] < 1.0
    assert rows["gap_se"][0] == 0.0 and (rows["gap_se"][1:] > 0).all()
    assert "110-115" in rows.meta.verdict and str(rows["card"][0]) in rows.meta.verdict


# --- the boards made on first use ----------------------------------------------------------


@pytest.fixture
def small_boards(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    """Boards made on first use of 4,000 deals, kept in a data dir of the test's own."""
    from crib_analyze.artifacts import game_boards

    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(tmp_path))
    monkeypatch.setattr(table_boards, "MADE_BOARD_DEALS", 4000)
    monkeypatch.setattr(game_boards, "_MADE_HERE", {})
    return tmp_path


def test_a_variants_board_is_made_once_and_kept(small_boards, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from crib_analyze.artifacts import game_boards
    from crib_analyze.rules import game

    rules = game("standard", throw_fives=True, penalty="zero")
    board, provenance = table_boards.board_of(rules)
    path = small_boards / "game_boards" / "standard+throw-fives+zero-penalty.npz"
    assert path.exists() and provenance["deals"] == 4000
    assert provenance["variants"] == ["throw fives", "penalty zero"]
    game_boards._MADE_HERE.clear()
    again, _ = table_boards.board_of(rules)  # read back from the file
    assert np.allclose(again.values, board.values, atol=1e-6)
    win = board.win()
    assert win.min() >= 0.0 and win.max() <= 1.0 and win[120, 0].min() > 0.99
    assert 0.45 < provenance["first_dealer_wins"] < 0.7  # about 0.56 in the plain game
    game_boards._MADE_HERE.clear()  # a board made another way is not read: made again
    monkeypatch.setattr(game_boards, "MADE_BOARD_SCHEME", provenance["made_scheme"] + 1)
    assert game_boards.made_board(rules) is None


def test_a_lowball_board_is_read_as_lowball() -> None:
    """A board solved as who reaches the target first, read for lowball: the side that
    gets there first loses, and nobody is skunked."""
    solved = np.zeros((3, 3, 2, 9))
    solved[..., 0] = 0.7  # reach first plainly
    solved[..., 1] = 0.1  # ... by a skunk
    solved[..., 4] = 0.2
    solved[..., 8] = 3.0
    low = table_boards._lowball(solved)
    assert np.allclose(low[..., 0], 0.2) and np.allclose(low[..., 4], 0.7)
    assert np.allclose(low[..., [1, 2, 3, 5, 6, 7]], 0.0) and np.allclose(low[..., 8], 3.0)


def test_play_score_under_a_variant_on_the_command_line(small_boards) -> None:  # type: ignore[no-untyped-def]
    """`play --score --penalty back-ten`: the cards by the chance of winning, best first,
    on a board of the penalty's own made now (kept in the data dir)."""
    runner = CliRunner()
    args = ["play", "6C", "9D", "KS", "2H", "--dealer", "-s", "4D", "--played", "7H",
            "--score", "110-115", "--samples", "100", "--penalty", "back-ten"]  # fmt: skip
    out = runner.invoke(cli, [*args, "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    wins = [r["p_win"] for r in rows]
    assert wins == sorted(wins, reverse=True) and len(rows) == 4
    assert (small_boards / "game_boards" / "standard+back-ten-penalty.npz").exists()
    text = runner.invoke(cli, args)
    assert text.exit_code == 0 and "p_win" in text.output and "back-ten" in text.output


#: (the play so far, the dealer's cards left, its laid): the pone's last card unseen
#: (every card it may be, weighed: the full run), or laid (its throw alone unseen)
LATE = [
    ("AH 2D 3C 4S AC", "9D KS", "2D 4S"),
    ("AH 2D 3C 4S AC 9D AS", "KS", "2D 4S 9D"),
]


@pytest.mark.parametrize("late", rotating(LATE, 1, "late twin") if not FULL else LATE)
def test_the_chance_of_winning_is_the_twins(monkeypatch, late) -> None:  # type: ignore[no-untyped-def]
    """The whole answer late in a deal against a twin that enumerates it exactly: the
    pone's last card c (any unseen card, if not laid) and its throw T (any two others),
    each weighed by whether the hand policy keeps its hand from the six (the kernel's
    own best split, tested against the naive one elsewhere); the rest of the play by
    brute force, the shows and the crib (our throw QH JC and T) by naive_wild_score, the
    walk by the rules text, then a board made up for the test, whose value depends on
    both scores and on who deals next (so a wrong axis or deal shows)."""
    from crib_analyze.artifacts.game_boards import GameBoard
    from crib_analyze.board import table_play_odds as tpo
    from crib_analyze.board.table_games import table_deal, throw_policy_of
    from crib_analyze.cards import parse_cards
    from crib_analyze.crib.any_game_kernels import hand_policy_split
    from crib_analyze.play.table_advice import table_position
    from crib_analyze.rules import game

    t = 121
    a_ax, b_ax = np.arange(t)[:, None], np.arange(t)[None, :]
    win = (a_ax + 1) / (a_ax + b_ax + 2)
    values = np.zeros((t, t, 2, 9))
    values[..., 0, 0], values[..., 0, 4] = win, 1 - win
    values[..., 1, 0], values[..., 1, 4] = win / 2, 1 - win / 2
    values[..., 8] = 1.0
    monkeypatch.setattr(tpo, "board_of", lambda rules: (GameBoard("test", values), {}))
    rules = game("standard")
    played, held, laid = late
    prefix = list(parse_cards(played))
    pone_laid, mine_laid = prefix[0::2], list(parse_cards(laid))
    mine = list(parse_cards(held))
    thrown, cut = list(parse_cards("QH JC")), int(parse_cards("6H")[0])
    score = (100, 104)
    pos = table_position(rules, "dealer", held, "6H", played, "QH JC")
    got = tpo.table_play_odds(pos, score, 3000, 5)

    table = table_deal(rules, 0, throw_policy_of(rules, None))
    one, two = table.crib_one[table.throws[0], 0], table.crib_two[table.throws[0], 0]
    unseen = [c for c in range(52) if c not in {*prefix, *mine, *thrown, cut}]
    dealer_show = naive_wild_score([*mine_laid, *mine], cut)
    total, mass = np.zeros(len(mine)), 0.0
    for c in unseen if len(pone_laid) < 4 else [None]:
        kept = [*pone_laid, c] if c is not None else pone_laid
        lines_of = [naive_line([kept, [*mine_laid, *mine]], [0, 1], prefix, o, 1) for o in mine]
        pone_show = naive_wild_score(kept, cut)
        for pair in combinations([x for x in unseen if x != c], 2):
            k, _, _ = hand_policy_split(np.array([*kept, *pair], np.int64), 4, 2, 0, -1, one, two,
                                        1)  # fmt: skip
            if k != 0b1111:
                continue
            mass += 1
            shows = [(0, pone_show), (1, dealer_show),
                     (1, naive_wild_score([*thrown, *pair], cut, True))]  # fmt: skip
            for i, line in enumerate(lines_of):
                outcome, a2, b2 = naive_walk([*line, *shows], 1, *score, t, [91, 61, 31], False)
                total[i] += (outcome < 4) if outcome >= 0 else values[a2, b2, 0, 0]
    want = total / mass
    order = [got.codes.index(pos.row.tolist().index(card)) for card in mine]
    for i, at in enumerate(order):
        assert abs(got.p_win[at] - want[i]) < 5 * got.p_win_se[at] + 1e-9, (got.p_win, want)


@pytest.mark.parametrize("seed", range(6))
def test_policy_keeps_first_is_the_policys_split(seed: int) -> None:
    """policy_keeps_first, each keep of the dealt cards put first in turn: the split the
    hand policy makes (hand_policy_split, every split valued) has a share; every keep
    with a share has the same one (1 / the splits as good); the shares sum to 1. Over
    hands of five and six, its own crib or the other's, lowball, throw fives (hands
    often holding a five) and a joker."""
    from crib_analyze.crib.any_game_kernels import hand_policy_split, policy_keeps_first

    rng = np.random.default_rng(seed)
    jokers = 1 if seed == 5 else 0
    size = 14 if jokers else 13
    fives, aim = seed % 3 == 1, -1 if seed % 3 == 2 else 1
    tied = 0
    for _ in range(60):
        throw = int(rng.integers(1, 3))
        cards = [int(c) for c in rng.choice(52 + jokers, 4 + throw, replace=False)]
        five = 16 + int(rng.integers(4))
        if fives and five not in cards and rng.random() < 0.6:
            cards[int(rng.integers(len(cards)))] = five
        if rng.random() < 0.3:  # a pair across the split: ties
            cards[-1] = 4 * (cards[0] // 4 % 13) + (cards[0] + 1) % 4
            if len(set(cards)) < len(cards) or cards[0] >= 52:
                continue
        one, two = rng.random(size) * 6, rng.random((size, size)) * 8
        two = (two + two.T) / 2  # a crib of two ranks, either way round
        sign = 1 if rng.random() < 0.5 else -1
        k, _, _ = hand_policy_split(np.array(cards, np.int64), 4, throw, 0, sign, one, two,
                                    aim, fives, jokers)  # fmt: skip
        chosen = frozenset(c for i, c in enumerate(cards) if k >> i & 1)
        shares = {}
        for kept in combinations(cards, 4):
            order = np.array([*kept, *(c for c in cards if c not in kept)], np.int64)
            shares[frozenset(kept)] = policy_keeps_first(order, 4, throw, sign, one, two, aim,
                                                         fives, jokers)  # fmt: skip
        assert shares[chosen] > 0, (cards, shares)
        assert sum(shares.values()) == pytest.approx(1.0, abs=1e-12)
        assert {v for v in shares.values() if v > 0} == {shares[chosen]}
        tied += shares[chosen] < 1
    assert tied > 0 or seed in (1, 4, 5)  # the pairs make ties where no variant breaks them


def test_a_hands_mean_by_rank_and_suit_is_every_starter_scored() -> None:
    """hand_mean without jokers groups the starters by rank and by suit: the same mean as
    every starter scored one by one (naive_wild_score), hands of three and four, flushes
    and jacks included."""
    from crib_analyze.crib.any_game_kernels import hand_mean

    rng = np.random.default_rng(11)
    for i in range(300):
        size = 3 + i % 2
        if i % 5 == 0:  # a flush, often with its jack
            suit = int(rng.integers(4))
            cards = [4 * int(r) + suit for r in rng.choice(13, size, replace=False)]
        else:
            cards = [int(c) for c in rng.choice(52, size, replace=False)]
        unseen = [c for c in range(52) if c not in cards and rng.random() < 0.9]
        want = sum(naive_wild_score(cards, s) for s in unseen) / len(unseen) if size == 4 else None
        got = hand_mean(np.array(cards, np.int64), size, np.array(unseen, np.int64))
        if size == 4:
            assert got == pytest.approx(want, abs=1e-12)
        else:  # three cards: against the kernel's own show, starter by starter
            from crib_analyze.scoring.any_hand_kernels import show_points

            hand = np.array(cards, np.int64)
            slow = sum(show_points(hand, 3, s, False) for s in unseen) / len(unseen)
            assert got == pytest.approx(slow, abs=1e-12)


# --- the board when a deal can take points away (back ten) --------------------------------


def naive_signed_board(deals, target, lines):  # type: ignore[no-untyped-def]
    """The board by the rules text, solved by plain value iteration: from every position
    each deal (equally likely) is walked event by event, a score never below 0; the first
    to the target wins (a skunk by the loser's score), else the deal passes."""
    v = {(a, b, d): [0.0] * 9 for a in range(target) for b in range(target) for d in (0, 1)}
    for _ in range(2000):
        moved = 0.0
        new = {}
        for (a0, b0, d), old in v.items():
            total = [0.0] * 9
            for events in deals:
                a, b, over = a0, b0, None
                for side, pts in events:
                    if side == d:
                        a = max(0, a + pts)
                        if a >= target:
                            over = sum(b < x for x in lines)
                            break
                    else:
                        b = max(0, b + pts)
                        if b >= target:
                            over = 4 + sum(a < x for x in lines)
                            break
                if over is not None:
                    total[over] += 1
                    total[8] += 1
                else:
                    after = v[(a, b, 1 - d)]
                    for k in range(9):
                        total[k] += after[k]
                    total[8] += 1
            new[(a0, b0, d)] = [t / len(deals) for t in total]
            moved = max(moved, *(abs(x - y) for x, y in zip(new[(a0, b0, d)], old, strict=True)))
        v = new
        if moved < 1e-12:
            break
    return v


@pytest.mark.parametrize("seed", range(4))
def test_the_board_with_points_taken_away_is_the_twins(seed: int) -> None:
    """signed_board, deals merged and made distinct as the build gives them, against
    plain value iteration over the same deals (a target of 16, back-ten-like events)."""
    from crib_analyze.board.build import distinct_rows
    from crib_analyze.board.dp_kernels import merge_turns
    from crib_analyze.board.signed_dp_kernels import signed_board

    rng = np.random.default_rng(seed)
    deals = []
    for _ in range(12):
        events = [(int(rng.integers(2)), int(rng.choice([0, 1, 2, 3, 5]))) for _ in range(4)]
        for side in (0, 1):
            if rng.random() < 0.4:
                events.insert(int(rng.integers(len(events) + 1)), (side, -10))
        events.append((int(rng.integers(2)), 1))  # every deal scores
        deals.append(events)
    target, lines = 16, (12, 8, 4)
    width = max(len(e) for e in deals)
    players = np.full((len(deals), width), -1, np.int8)
    points = np.zeros((len(deals), width), np.int8)
    for i, events in enumerate(deals):
        for k, (side, pts) in enumerate(events):
            players[i, k], points[i, k] = side, pts
    p, q = merge_turns(players, points, True)
    p, q, w = distinct_rows(np.concatenate([p, q], axis=1))
    got, sweeps = signed_board(p, q, w, target, np.array(lines, np.int64))
    want = naive_signed_board(deals, target, lines)
    assert sweeps > 1
    for (a, b, d), value in want.items():
        assert np.allclose(got[a, b, d], value, atol=1e-7), (a, b, d, got[a, b, d], value)


@pytest.mark.heavy(seconds=25)  # a board of the pack with a joker made
def test_a_joker_is_laid_as_the_rank_that_wins_most(small_boards) -> None:  # type: ignore[no-untyped-def]
    """From a score, the player's joker is given once, as the rank whose chance of
    winning is the highest of every rank it may be laid as (not the rank that pegs most)."""
    from crib_analyze.api import advise_play_rows
    from crib_analyze.board.table_play_odds import table_play_odds
    from crib_analyze.play.table_advice import table_position
    from crib_analyze.play.table_solver_kernels import NAMED
    from crib_analyze.rules import game
    from crib_analyze.settings import SEED

    rules = game("standard", jokers=1)
    rows = advise_play_rows("dealer", "6C 9D KS JK", "4D", played="7H", game=rules,
                            score=(110, 115), samples=200)  # fmt: skip
    jokers = [i for i, c in enumerate(rows["card"]) if str(c).startswith("JK")]
    assert len(jokers) == 1
    every = table_play_odds(table_position(rules, "dealer", "6C 9D KS JK", "4D", "7H"),
                            (110, 115), 200, SEED.default)  # fmt: skip
    best = max(p for c, p in zip(every.codes, every.p_win, strict=True) if c >= NAMED)
    assert rows["p_win"][jokers[0]] == pytest.approx(best, abs=1e-12)


# --- three players each for themselves ------------------------------------------------------


@pytest.mark.parametrize("seed", range(40))
def test_players_each_for_themselves_end_of_deal_is_the_twins(seed: int) -> None:
    """_seats_outcome by the rules text, three or five players: the first seat to the
    target wins there (with a skunk if another is short of the line), a score never below
    0; else with a board (three) the board of three at the scores after the deal, read
    after the deal passes left (the old middle seat the new left, the old dealer the new
    middle, the old left the new dealer); with none, nothing decided and the scores after
    the deal handed back."""
    rng = np.random.default_rng(seed)
    players = 5 if seed % 4 == 3 else 3
    with_board = players == 3 and seed % 4 != 2
    t, line = 30, 20
    board = rng.random((t, t, t, 6))
    board[..., 3:] *= board[..., :3]  # a skunk win is a win
    n = int(rng.integers(1, 9))
    events = [(int(rng.integers(players)), int(rng.choice([-10, 0, 1, 2, 4, 8])))
              for _ in range(n)]  # fmt: skip
    start = [int(x) for x in rng.integers(0, t, players)]
    me = int(rng.integers(players))
    want, want_ends = np.zeros(8), np.full(players, -1)
    sc = list(start)
    for seat, pts in events:
        sc[seat] = max(0, sc[seat] + pts)
        if sc[seat] >= t:
            if seat == me:
                want[1 if any(sc[o] < line for o in range(players) if o != seat) else 0] = 1
            else:
                want[4] = 1
            break
    else:
        if with_board:
            new_seat = {1: 0, 2: 1, 0: 2}[me]
            v = board[sc[1], sc[2], sc[0]]
            want[0], want[1], want[4] = (
                v[new_seat] - v[3 + new_seat],
                v[3 + new_seat],
                1 - v[new_seat],
            )
        else:
            want_ends[:] = sc
    out, ends = np.zeros(8), np.full(players, -1, np.int64)
    sides = np.array([s for s, _ in events], np.int64)
    pts = np.array([p for _, p in events], np.int64)
    start_a = np.array(start, np.int64)
    tok._seats_outcome(sides, pts, n, me, start_a, t, line, board if with_board else
                       np.zeros((0, 0, 0, 0)), out, ends)  # fmt: skip
    assert np.allclose(out, want, atol=1e-12)
    assert ends.tolist() == want_ends.tolist()


def test_play_score_at_three_and_five_on_the_command_line() -> None:
    """Three players: one score a seat, yours first, valued on the board of three (no
    chance of being skunked: the board of three does not say it); five players and three
    under back ten, which have no board, play the game on to its end; three in lowball
    has no winner: one line, exit 2."""
    runner = CliRunner()
    base = ["play", "6C", "9D", "KS", "2H", "--game", "three", "--seat", "dealer", "-s", "4D",
            "--played", "7H 3S", "--samples", "100"]  # fmt: skip
    out = runner.invoke(cli, [*base, "--score", "110-100-115", "--format", "json"])
    assert out.exit_code == 0, out.output
    rows = json.loads(out.stdout)
    wins = [r["p_win"] for r in rows]
    assert wins == sorted(wins, reverse=True) and all(0 < w < 1 for w in wins)
    assert "p_skunked" not in rows[0]
    two = runner.invoke(cli, [*base, "--score", "110-100"])
    assert two.exit_code == 2 and "3 numbers" in two.output, two.output
    back = runner.invoke(cli, [*base, "--score", "1-2-3", "--penalty", "back-ten"])
    assert back.exit_code == 0 and "played on to its end" in back.output, back.output
    low = runner.invoke(cli, [*base, "--score", "1-2-3", "--lowball"])
    assert low.exit_code == 2 and "do not say who wins" in low.output, low.output
    five = ["play", "6C", "9D", "KS", "2H", "--game", "five", "--seat", "dealer", "-s", "4D",
            "--played", "7H 3S 2C 4C", "--samples", "60", "--format", "json"]  # fmt: skip
    # yours first, then from the dealer's left: the seat on the dealer's left at 120 pegs
    # or shows before the dealer, who cannot reach 121 from 1 this deal
    lost = runner.invoke(cli, [*five, "--score", "1-120-1-1-1"])
    assert lost.exit_code == 0, lost.output
    assert all(r["p_win"] < 0.05 for r in json.loads(lost.stdout))
    # the dealer at 120 against four at 1: none of them can reach 121 first
    won = runner.invoke(cli, [*five, "--score", "120-1-1-1-1"])
    assert all(r["p_win"] > 0.95 for r in json.loads(won.stdout)), won.output
    bad = runner.invoke(cli, [*five, "--score", "1-2-3-4"])
    assert bad.exit_code == 2 and "5 numbers" in bad.output and "Traceback" not in bad.output


def test_three_players_skunk_is_below_the_line() -> None:
    """A loser on the line is no skunk; one point under it is (the rules' 'short of')."""
    out, ends = np.zeros(8), np.zeros(3, np.int64)
    board = np.zeros((30, 30, 30, 6))
    one = (np.array([2], np.int64), np.array([10], np.int64))
    tok._seats_outcome(*one, 1, 2, np.array([20, 21, 25], np.int64), 30, 20, board, out, ends)
    assert out[0] == 1.0 and out[1] == 0.0
    out[:] = 0.0
    tok._seats_outcome(*one, 1, 2, np.array([19, 21, 25], np.int64), 30, 20, board, out, ends)
    assert out[1] == 1.0 and out[0] == 0.0


@pytest.mark.skipif(not FULL, reason="make test-all only: three boards of 121^3 positions, ~1 min")
def test_a_board_of_three_under_a_variant_is_made_and_kept(small_boards) -> None:  # type: ignore[no-untyped-def]
    """Three players under throw fives: a board of three made on first use, kept packed
    in the data dir and read back the same (to its steps of 1/65535)."""
    from crib_analyze.artifacts import game_boards
    from crib_analyze.artifacts.game_boards import ThreeBoard
    from crib_analyze.rules import game

    rules = game("three", throw_fives=True)
    board, provenance = table_boards.board_of(rules)
    assert isinstance(board, ThreeBoard) and provenance["variants"] == ["throw fives"]
    assert (small_boards / "game_boards" / "three+throw-fives.npz").exists()
    game_boards._MADE_HERE.clear()
    again, _ = table_boards.board_of(rules)
    assert isinstance(again, ThreeBoard)
    assert np.allclose(again.values, board.values, atol=2 / 65535)
    first = again.values[0, 0, 0, :3]
    assert abs(first.sum() - 1) < 1e-3 and first.min() > 0.2


def test_odds_reads_a_variants_board_once_it_is_made(small_boards) -> None:  # type: ignore[no-untyped-def]
    """`odds` under a variant simulates games until the variant's board is made (by
    `play --score`'s first use), then reads it: the same chances as the board holds,
    the variant said."""
    from crib_analyze.api import odds_rows
    from crib_analyze.rules import game

    rules = game("standard", lowball=True)
    before = odds_rows(100, 110, game=rules, games=200)
    assert before.meta.method == "simulation"
    assert odds_rows(100, 110, game=rules).meta.method == "simulation"  # none kept yet
    board, _ = table_boards.board_of(rules)
    after = odds_rows(100, 110, game=rules)
    assert after.meta.method == "board table" and "made on its first use" in after.meta.assumed
    assert after["win"][1] == pytest.approx(board.win_at(110, 100, True), abs=1e-6)
    assert any("lowball" in n for n in after.meta.notes)


@pytest.mark.parametrize("teams", [(0, 1, 0, 1), (0, 1, 2)])
def test_a_zero_penalty_goes_to_the_first_seat_on_the_left_of_another_side(teams) -> None:  # type: ignore[no-untyped-def]
    """The rules give the zero penalty's point to the opponent; at a table, the first
    seat on the owner's left of another side scores it (the whole games' reading)."""
    from crib_analyze.settings import PENALTIES

    seats = len(teams)
    shown = np.full((seats, 8), -1, np.int64)
    zero = [4, 13, 26, 47]  # 2C 4D 7H QS: nothing with the 10S
    for s in range(seats):
        shown[s, :4] = [c + s for c in (0, 5, 20, 41)] if s else zero
    shown[seats - 1, :4] = zero[:1] + [c + 1 for c in zero[1:]]  # the dealer's: nothing too
    crib = np.full(8, -1, np.int64)
    crib[:4] = [16, 40, 44, 48]
    side, pts = np.zeros(16, np.int64), np.zeros(16, np.int64)
    e = tok._show_events(shown, 4, crib, 4, 39, np.array(teams), PENALTIES.index("zero"), side,
                         pts, 0)  # fmt: skip
    want = []
    for owner in range(seats):
        v = naive_wild_score(list(shown[owner, :4]), 39)
        want.append((teams[owner], v))
        if v == 0:
            other = (owner + 1) % seats
            while teams[other] == teams[owner]:
                other = (other + 1) % seats
            want.append((teams[other], 1))
    want.append((teams[-1], naive_wild_score(list(crib[:4]), 39, True)))
    assert want[1] == (teams[1], 1) and (teams[0], 1) in want  # the seat's and the dealer's
    assert list(zip(side[:e].tolist(), pts[:e].tolist(), strict=True)) == want


def test_lowball_played_out_loses_at_the_target(small_boards) -> None:  # type: ignore[no-untyped-def]
    """In lowball the first to the target loses: on 120 the last card's point takes the
    dealer there, so it loses whatever the other cards (won in the plain game); and
    three players in lowball are refused (the rules name no winner)."""
    from crib_analyze.api import advise_play_rows
    from crib_analyze.rules import game

    args = ("dealer", "KS", "4D")
    last = "7H 2H 3C 2C 8D 3D 9C"
    plain = advise_play_rows(*args, played=last, game="five-dealt", score=(120, 100))
    low = advise_play_rows(*args, played=last, game=game("five-dealt", lowball=True),
                           score=(120, 100), samples=100)  # fmt: skip
    assert plain["p_win"].tolist() == [pytest.approx(1.0, abs=1e-9)]
    assert low["p_win"].tolist() == [pytest.approx(0.0, abs=1e-9)]
    assert any("not given" in n for n in low.meta.notes)  # no discards: the throw drawn
    out = CliRunner().invoke(cli, ["play", "6C", "9D", "KS", "2H", "--game", "three", "--seat",
                                   "dealer", "-s", "4D", "--played", "7H 3S", "--lowball",
                                   "--score", "1-2-3"])  # fmt: skip
    assert out.exit_code == 2 and "lowball" in out.output and "Traceback" not in out.output


@pytest.mark.parametrize(
    ("game_name", "seat", "played", "deals_next"),
    [("five-dealt", "pone", "", True), ("five-dealt", "dealer", "7H", False),
     ("four", "left", "", True), ("four", "across", "7H", False),
     ("four", "right", "7H 2C", True), ("four", "dealer", "7H 2C 3D", False)],
)  # fmt: skip
def test_the_board_is_read_for_the_side_that_deals_next(
    monkeypatch, game_name, seat, played, deals_next
) -> None:  # type: ignore[no-untyped-def]
    """From 0-0 nobody reaches the target in one deal, so every card's chance is the
    board's after the deal; on a board made up to say only whether your side deals next
    (won if it does), the chance is 1 for the sides that deal next and 0 for the others."""
    from crib_analyze.artifacts.game_boards import GameBoard
    from crib_analyze.board import table_play_odds as tpo
    from crib_analyze.play.table_advice import table_position
    from crib_analyze.rules import game

    rules = game(game_name)
    values = np.zeros((rules.target, rules.target, 2, 9))
    values[..., 1, 0] = 1.0  # my side deals: won
    values[..., 0, 4] = 1.0  # it does not: lost
    monkeypatch.setattr(tpo, "board_of", lambda rules: (GameBoard("test", values), {}))
    pos = table_position(rules, seat, "5C 9D KS 2H", "4D", played)
    got = tpo.table_play_odds(pos, (0, 0), 60, 1)
    assert np.allclose(got.p_win, 1.0 if deals_next else 0.0)


@pytest.mark.parametrize("score", rotating([(105, 104, 106), (110, 108, 109)], 1, "onward"))
def test_the_game_played_on_agrees_with_the_board_of_three(monkeypatch, score) -> None:  # type: ignore[no-untyped-def]
    """Three players without a variant, valued twice on the same draws: by the board of
    three after the deal, and by the game played on to its end as where there is no board
    (the same players: expert throws, the lookahead's lays). The chances agree within 3
    standard errors (the board's own error, from its deals, is far smaller): the seat that
    deals next and the order of play after the deal are the board's (from these scores
    the next deal often decides; the seat after dealing next would move the chances
    about 0.1). Fixed draws: the same figures on every run."""
    from crib_analyze.board import table_play_odds as tpo

    board = _odds("three", "6C 9D KS 2H", "7H 3S", score, samples=2000)
    monkeypatch.setattr(tpo, "has_board", lambda rules: False)
    onward = _odds("three", "6C 9D KS 2H", "7H 3S", score, samples=2000)
    assert "played on to its end" in onward.meta.odds_method
    mine = dict(zip(board["card"].tolist(), board["p_win"].tolist(), strict=True))
    for card, p, se in zip(*(onward[k].tolist() for k in ("card", "p_win", "p_win_se")),
                           strict=True):  # fmt: skip
        assert abs(p - mine[card]) < 3 * se + 0.005, (card, p, se, mine)


@pytest.mark.parametrize("score", [(118, 117, 119), (90, 95, 100), (112, 80, 115)])
def test_games_played_on_win_as_often_as_the_board_of_three_says(score) -> None:  # type: ignore[no-untyped-def]
    """games_onward from the scores after a deal (by seat of that deal, the seat on the
    dealer's left dealing next), 4,000 games: each seat wins, and wins with a loser short
    of the skunk line, as often as the shipped board of three says (solved from the same
    players' deals by its own dynamic programming, read after the deal passes left),
    within 4 standard errors and the board's own error."""
    from crib_analyze.board import table_game_kernels as tgk
    from crib_analyze.board.table_games import table_deal
    from crib_analyze.play.table_play_kernels import POLICY_CODES
    from crib_analyze.rules import game

    rules = game("three")
    table = table_deal(rules, POLICY_CODES["lookahead"], "expert")
    board = table_boards.board_of(rules)[0].values
    n = 4000
    starts = np.tile(np.array(score, np.int64), (n, 1))
    line = int(table_boards.skunk_lines(rules)[0])
    winner, short = tgk.games_onward(starts, np.arange(n, dtype=np.int64), 0, table, 7, line)
    v = board[score[1], score[2], score[0]]  # the next deal's seats: old 1, old 2, old 0
    for me in range(3):
        k = (me + 2) % 3
        for seen, want in (
            ((winner == me).mean(), v[k]),
            (((winner == me) & short).mean(), v[3 + k]),
        ):
            se = np.sqrt(max(want * (1 - want), 1e-4) / n)
            assert abs(seen - want) < 4 * se + 0.005, (me, seen, want)


def test_the_games_played_on_draw_on_streams_of_their_own() -> None:
    """The onward games' shuffles (game ONWARD_GAMES + j, deal k: GAME_STREAMS + game x
    MAX_DEALS + k, and the solver's above SOLVER_STREAMS) lie clear of the draws' crib
    streams (CRIB_STREAMS + j) for every number of draws the bounds allow."""
    from crib_analyze.board import table_game_kernels as tgk
    from crib_analyze.board.table_play_odds import ONWARD_GAMES
    from crib_analyze.settings import PLAY_SAMPLES

    n = PLAY_SAMPLES.hi
    crib = (tok.CRIB_STREAMS, tok.CRIB_STREAMS + n)
    for base in (tgk.GAME_STREAMS, tgk.SOLVER_STREAMS + tgk.GAME_STREAMS):
        first = base + ONWARD_GAMES * tgk.MAX_DEALS
        last = base + (ONWARD_GAMES + n) * tgk.MAX_DEALS
        assert last < crib[0] or first > crib[1], (first, last, crib)


def test_played_on_fills_the_undecided_draws_only() -> None:
    """played_on writes each undecided (option, draw) its game's end: a seat at 120 with
    the others at 0 wins (they cannot reach 121 first), with both short of the skunk
    line; the others lose; a draw decided in the deal (no scores) is left as it was."""
    from crib_analyze.board.table_play_odds import played_on
    from crib_analyze.rules import game

    out = np.zeros((2, 3, 8))
    out[0, :, 4] = 1.0  # decided in the deal: lost
    ends = np.full((2, 3, 3), -1, np.int64)
    ends[1] = [[120, 0, 0], [0, 120, 0], [0, 0, 120]]
    again = out.copy()
    played_on(out, ends, game("three", penalty="back-ten"), 0, 3)
    assert out[0, :, 4].tolist() == [1, 1, 1] and out[0].sum() == 3
    assert out[1].tolist() == [[0, 1, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0],
                               [0, 0, 0, 0, 1, 0, 0, 0]]  # fmt: skip
    played_on(again, ends, game("three", penalty="back-ten"), 2, 3)  # the third seat's view
    assert again[1].tolist() == [[0, 0, 0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 1, 0, 0, 0],
                                 [0, 1, 0, 0, 0, 0, 0, 0]]  # fmt: skip
