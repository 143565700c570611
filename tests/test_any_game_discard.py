"""Throws for any seat of any game (crib_analyze.discard.any_game): the show of a hand
of three or four cards against the plain-Python scorer (tests/naive.py), the crib's
exact mean against a direct enumeration, the standard game against the two-player
engine (written separately), and the command line.

Mutations tried (each fails a test here): a three-card flush worth four; the crib's
other cards allowed to include the starter; an opponent's crib added rather than
subtracted; the passed hand left out of Canadian doubles' value; the other seats'
hand policy throwing to the dealer's crib as to an opponent's.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.crib import any_game_kernels as agk
from crib_analyze.scoring.any_hand_kernels import show_points
from tests.conftest import scaled
from tests.naive import naive_score, starter_set


@settings(max_examples=400, deadline=None)
@given(st.permutations(range(52)), st.sampled_from([3, 4]), st.booleans())
def test_the_show_of_any_hand_size_is_the_rules(cards: list[int], size: int, crib: bool) -> None:
    hand, starter = list(cards[:size]), cards[size]
    got = show_points(np.array(hand, np.int64), size, starter, crib and size == 4)
    assert got == naive_score(hand, starter, crib and size == 4)


def test_a_three_card_flush() -> None:
    hand = np.array(ca.parse_cards("2H 7H 9H"), np.int64)
    assert show_points(hand, 3, ca.parse_cards("KS")[0], False) == 3
    assert show_points(hand, 3, ca.parse_cards("KH")[0], False) == 4


@pytest.mark.parametrize("thrown", ["5H", "JC QD", "2S 3S 4S"])
def test_the_crib_mean_is_every_starter_and_every_other_card(thrown: str) -> None:
    """On a small set of unseen cards, the kernel's mean is the plain enumeration."""
    throw = ca.parse_cards(thrown)
    unseen = [c for c in range(52) if c not in throw][::4][:10]
    expect = []
    for s in unseen:
        rest = [c for c in unseen if c != s]
        for other in combinations(rest, 4 - len(throw)):
            expect.append(naive_score([*throw, *other], s, crib=True))
    got = agk.crib_mean(np.array(throw, np.int64), np.array(unseen, np.int64))
    assert got == pytest.approx(np.mean(expect), abs=1e-12)


@pytest.mark.parametrize("hand", ["5H 6S 4D JC QH 5C", "AC 2D 3H 5S 5C JD", "7C 8D 9H KS 2C 3D"])
@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_standard_game_agrees_with_the_two_player_engine(hand: str, role: str) -> None:
    """Random opponent, no pegging: the same hand and crib means and the same net (the
    dealer's heels included) as the two-player engine, throw by throw."""
    seat = ca.analyze(hand, game="standard", seat=role)
    two = ca.analyze(hand, role=role, opponent="random", pegging="none")  # type: ignore[arg-type]
    mine = seat.set_index("throw")[["hand_mean", "crib_mean", "net"]].sort_index()
    theirs = two.set_index("discard")[["hand_mean", "crib_mean", "net"]].sort_index()
    theirs.index = mine.index
    assert np.allclose(mine.to_numpy(), theirs.to_numpy(), atol=1e-9)


def test_whose_crib_it_is() -> None:
    """The crib counts for the dealer's side and against the others."""
    hand = "5H 6S 4D JC QH"
    dealer = ca.analyze(hand, game="three", seat="dealer")
    left = ca.analyze(hand, game="three", seat="left")
    assert dealer.attrs["crib"] == "yours" and left.attrs["crib"] == "an opponent's"
    for frame, sign in ((dealer, 1), (left, -1)):
        heels = frame.heels.iloc[0]
        assert np.allclose(frame.net, frame.hand_mean + sign * frame.crib_mean + heels)
    assert (left.heels == 0).all() and dealer.heels.iloc[0] == pytest.approx(2 * 3 / 47)
    across = ca.analyze(hand, game="four", seat="across")  # the dealer's partner
    assert across.attrs["crib"] == "your partner's"
    assert np.allclose(across.net, across.hand_mean + across.crib_mean + across.heels)
    assert len(dealer) == 5 and dealer.net.is_monotonic_decreasing


def test_canadian_doubles_ranks_every_split_of_ten_by_the_side() -> None:
    ten = "5H 6S 4D JC QH 5C 7D 8D 9S KH"
    frame = ca.analyze(ten, game="canadian-doubles", seat="left")
    assert len(frame) == 3150  # C(10, 4) keeps x C(6, 4) passes
    assert frame.attrs["crib"] == "an opponent's"
    assert np.allclose(frame.net, frame.hand_mean + frame.partner_mean - frame.crib_mean)
    # a keep and a pass swapped: the same side's value
    by = frame.set_index(["keep", "pass"]).net
    top = frame.iloc[0]
    assert by[(top["pass"], top["keep"])] == pytest.approx(top.net)


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(
        cli, ["discard", "5H", "6S", "4D", "JC", "QH", "--game", "three", "--seat", "dealer"]
    )
    assert ok.exit_code == 0
    lines = ok.stdout.splitlines()
    assert all(len(line) <= 80 for line in lines)
    frame = ca.analyze("5H 6S 4D JC QH", game="three", seat="dealer")
    best, runner_up = frame.iloc[0], frame.iloc[1]
    verdict, rest = ok.stdout.replace("\n  ", " ").split("\n", 1)  # unwrapped
    assert verdict == (
        f"As dealer in three: throw {best.throw}, keep {best.keep} (net {best.net:.2f}, "
        f"{best.net - runner_up.net:.2f} points better than {runner_up.throw})"
    )
    assert rest.startswith("three, as dealer: the crib is yours (+)")
    top = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "--game", "three",
                              "--seat", "dealer", "--top", "1"])  # fmt: skip
    assert top.stdout.replace("\n  ", " ").split("\n", 1)[0] == verdict  # the margin kept
    head = next(i for i, line in enumerate(lines) if line.startswith("keep "))
    assert lines[head + 1].split()[:5] == ["5H", "6S", "4D", "QH", "JC"]
    two = runner.invoke(
        cli,
        ["discard", "5H", "6S", "4D", "JC", "QH", "--game", "five-card", "--pone", "-f", "json"],
    )
    assert two.exit_code == 0 and '"throw": "JC QH"' in two.stdout
    for args, message in [
        (["--game", "three", "--seat", "pone"], "three has no seat 'pone'"),
        (["--game", "three"], "say which seat: --seat left|middle|dealer"),
        (
            ["--game", "three", "--seat", "left", "--score", "100-100"],
            "a score here is 3 numbers, one per side (yours first), got 2",
        ),
        (["--game", "four", "--seat", "left", "--pone"], "--pone contradicts --seat left"),
    ]:
        bad = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", *args])
        assert bad.exit_code == 2, (args, bad.output)
        assert message in bad.stderr and "Traceback" not in bad.output
    short = runner.invoke(
        cli, ["discard", "5H", "6S", "4D", "JC", "--game", "three", "--seat", "left"]
    )
    assert short.exit_code == 2 and "5" in short.stderr
    none = runner.invoke(cli, ["discard", "5H", "--game", "canadian-doubles", "--seat", "across"])
    assert none.exit_code == 2 and "dealt no cards" in none.stderr


@settings(max_examples=300, deadline=None)
@given(st.permutations(range(52)))
def test_counting_a_three_card_hand_is_the_rules(cards: list[int]) -> None:
    """The announced show of a five-card game's hand (three cards) adds up to the plain
    scorer's points, category by category."""
    from crib_analyze.api import count_show
    from tests.naive import naive_breakdown

    hand, starter = list(cards[:3]), cards[3]
    show = count_show(
        [ca.format_cards([c]) for c in hand], ca.format_cards([starter]), game="five-card"
    )
    expect = naive_breakdown(hand, starter)
    assert show.breakdown() == expect | {"total": sum(expect.values())}


def test_score_counts_a_five_card_hand() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["score", "2H", "7H", "9H", "--starter", "KH", "--game", "five-card"])
    assert ok.exit_code == 0 and "  flush      4" in ok.stdout
    bad = runner.invoke(
        cli, ["score", "2H", "7H", "9H", "KH", "--starter", "5D", "--game", "five-card"]
    )
    assert bad.exit_code == 2 and "expected 3 cards with a separate starter, got 4" in bad.stderr


def test_the_other_seats_by_the_hand_policy_match_a_plain_simulation() -> None:
    """Five-dealt, as pone: the dealer throws one of its five by the hand policy, two
    cards come from the pack. The kernel's sampled crib for each throw agrees with a
    plain-Python simulation of the same model (tests/naive.py: naive_split) within four
    standard errors, and differs from random cards (the dealer keeps its crib cards)."""
    import random

    from crib_analyze.crib.any_game_cribs import crib_tables
    from tests.naive import naive_split

    hand = ca.parse_cards("5H 6S 4D JC QH")
    rules = ca.game("five-dealt")
    one, two = crib_tables((1,))
    model = ca.analyze(hand, game="five-dealt", seat="pone", others="hand", samples=20_000, seed=4)
    exact = ca.analyze(hand, game="five-dealt", seat="pone", others="random")
    rng = random.Random(1)
    rest = [c for c in range(52) if c not in hand]
    draws = []
    for _ in range(scaled(1500, 400)):
        deck = rng.sample(rest, 8)
        _, thrown, _ = naive_split(deck[:5], 4, 1, 0, True, one.tolist(), two.tolist())
        draws.append((thrown + deck[5:7], deck[7]))
    by_throw = model.set_index("throw")
    for card in hand:
        crib = [naive_score([card, *others], starter, crib=True) for others, starter in draws]
        mean, se = np.mean(crib), np.std(crib, ddof=1) / np.sqrt(len(crib))
        row = by_throw.loc[ca.format_cards([card])]
        assert abs(row.crib_mean - mean) < 4 * np.hypot(row.crib_se, se), (card, mean, row)
    assert rules.thrown == (1, 1)
    # the dealer throws to its own crib the card that helps it most: more than a random card
    gain = by_throw.crib_mean - exact.set_index("throw").crib_mean
    assert gain.mean() > 4 * by_throw.crib_se.mean()


def test_throw_fives_ranks_the_legal_splits_and_the_others_throw_their_fives() -> None:
    """Five-dealt under throw fives, as pone: with two fives only the splits that throw
    one are ranked; with none, the dealer's throws (by the hand policy, its fives to
    the crib) give cribs that agree with a plain simulation of the rule
    (tests/naive.py: naive_split with fives) within four standard errors, and hold more
    than the same policy without the rule: its fives come to the crib."""
    import random

    from crib_analyze.crib.any_game_cribs import crib_tables
    from tests.naive import naive_split

    two_fives = ca.analyze("5H 5S 4D JC QH", game=ca.game("five-dealt", throw_fives=True),
                           seat="pone")  # fmt: skip
    assert sorted(two_fives["throw"]) == ["5H", "5S"]
    exact = ca.analyze("5H 5S 4D JC QH", game=ca.game("five-dealt", throw_fives=True),
                       seat="pone", others="random")  # fmt: skip
    assert sorted(exact["throw"]) == ["5H", "5S"] and exact.crib_mean.notna().all()

    hand = ca.parse_cards("6S 4D JC QH 2C")
    one, two = crib_tables((1,))
    rule = ca.analyze(hand, game=ca.game("five-dealt", throw_fives=True), seat="pone",
                      samples=20_000, seed=4).set_index("throw")  # fmt: skip
    plain = ca.analyze(hand, game="five-dealt", seat="pone", others="hand", samples=20_000,
                       seed=4).set_index("throw")  # fmt: skip
    rng = random.Random(2)
    rest = [c for c in range(52) if c not in hand]
    draws = []
    for _ in range(scaled(1500, 400)):
        deck = rng.sample(rest, 8)
        _, thrown, _ = naive_split(deck[:5], 4, 1, 0, True, one.tolist(), two.tolist(),
                                   fives=True)  # fmt: skip
        draws.append((thrown + deck[5:7], deck[7]))
    for card in hand:
        crib = [naive_score([card, *others], starter, crib=True) for others, starter in draws]
        mean, se = np.mean(crib), np.std(crib, ddof=1) / np.sqrt(len(crib))
        row = rule.loc[ca.format_cards([card])]
        assert abs(row.crib_mean - mean) < 4 * np.hypot(row.crib_se, se), (card, mean, row)
        zero = np.mean([c == 0 for c in crib])  # and the chance the crib shows nothing
        spread = np.sqrt(zero * (1 - zero) / len(crib) + row.p_crib_zero / 20_000) + 1e-3
        assert abs(row.p_crib_zero - zero) < 4 * spread, (card, zero, row)
    gain = rule.crib_mean - plain.crib_mean
    assert gain.mean() > 4 * rule.crib_se.mean()


@pytest.mark.parametrize("thrown", ["5H", "JC QD", "2S 3S 4S", ""])
def test_the_crib_distribution_is_every_starter_and_every_other_card(thrown: str) -> None:
    """On a small set of unseen cards, the kernel's counts of each show are the plain
    enumeration's (so its P(0) and its mean are)."""
    throw = ca.parse_cards(thrown) if thrown else []
    unseen = [c for c in range(52) if c not in throw][1::3][:11]
    expect = np.zeros(agk.SHOW_BINS, np.int64)
    for s in unseen:
        rest = [c for c in unseen if c != s]
        for other in combinations(rest, 4 - len(throw)):
            expect[naive_score([*throw, *other], s, crib=True)] += 1
    rows = np.arange(len(throw), dtype=np.int64).reshape(1, len(throw))
    got = agk.crib_histograms(np.array(throw, np.int64), rows, np.array(unseen, np.int64))
    assert got[0].tolist() == expect.tolist()
    assert (expect > 0).sum() > 3  # the test bites: a spread of shows, not one


@settings(max_examples=scaled(60, 15), deadline=None)
@given(st.sampled_from(["five-dealt", "five-card", "three", "four", "five"]),
       st.data())  # fmt: skip
def test_a_seat_s_chance_of_a_zero_and_the_penalty_are_the_rules(name: str, data) -> None:  # type: ignore[no-untyped-def]
    """Every split of a random deal to a seat that chooses: P(the kept hand shows
    nothing) and P(it shows at least N) are the shares of the unseen starters that make
    it so (a plain count), and
    the net carries the penalty as the rules give it: back ten costs 10 a zero of the
    seat's side (its hand, its partner's, its side's crib) and gains 10 a zero of an
    opponent's crib."""
    rules = ca.game(name, penalty="back-ten")
    seats = [s for s in range(rules.players) if rules.dealt[s] and not rules.passed[s]]
    seat = data.draw(st.sampled_from(seats))
    cards = data.draw(st.permutations(range(52)))[: rules.dealt[seat]]
    need = data.draw(st.integers(0, 16))
    rows = ca.analyze(cards, game=rules, seat=seat, others="random", need=need)
    unseen = [c for c in range(52) if c not in cards]
    own = rules.teams[seat] == rules.teams[rules.dealer]
    for r in rows.to_dict("records"):
        kept = ca.parse_cards(r["keep"])
        shows = [naive_score(kept, s) for s in unseen]
        assert r["p_hand_zero"] == pytest.approx(shows.count(0) / len(unseen), abs=1e-12)
        reach = sum(points >= need for points in shows)
        assert r["p_need"] == pytest.approx(reach / len(unseen), abs=1e-12)
        owed = r["p_hand_zero"] + (1 if own else -1) * r["p_crib_zero"]
        assert r["penalty"] == pytest.approx(-10 * owed, abs=1e-12)
        rest = r["hand_mean"] + (1 if own else -1) * r["crib_mean"] + r["heels"]
        assert r["net"] == pytest.approx(rest + r["penalty"], abs=1e-9)


@pytest.mark.parametrize(("name", "seat", "hand"), [
    ("three", "dealer", "5H 6H 4H JH QC"), ("five-card", "pone", "AC 2D 3H 9S KD"),
])  # fmt: skip
def test_a_seat_s_hand_distribution_is_every_starter(name: str, seat: str, hand: str) -> None:
    """``distribution``: for each split, the starters giving each show are a plain count
    over the cards the seat cannot see, best split first; the command line prints them
    and refuses them with a score."""
    cards = ca.parse_cards(hand)
    unseen = [c for c in range(52) if c not in cards]
    dist = ca.hand_distribution(hand, game=name, seat=seat, others="random")
    ranked = ca.analyze(hand, game=name, seat=seat, others="random")
    assert list(dict.fromkeys(dist["keep"])) == list(ranked["keep"])
    for keep, group in dist.groupby("keep", sort=False):
        shows = [naive_score(ca.parse_cards(keep), s) for s in unseen]
        assert group["starters"].tolist() == [shows.count(p) for p in range(agk.SHOW_BINS)]
        assert group["p_at_least"].iloc[0] == pytest.approx(1.0)
    out = CliRunner().invoke(cli, ["discard", *hand.split(), "--game", name, "--seat", seat,
                                   "--others", "random", "--distribution"])  # fmt: skip
    assert out.exit_code == 0 and f"over the {len(unseen)} unseen starters" in out.stdout
    if name == "five-card":
        bad = CliRunner().invoke(cli, ["discard", *hand.split(), "--game", name, "--seat", seat,
                                       "--distribution", "--score", "50-50"])  # fmt: skip
        assert bad.exit_code == 2 and "does not go with --distribution" in bad.stderr


@pytest.mark.parametrize(("name", "seat", "hand", "lowball"), [
    ("three", "dealer", "5H 6S 4D JC QH", False), ("five-card", "pone", "AC 2D 3H 9S KD", False),
    ("four", "left", "7H 8H 9H 2C 5S", False), ("standard", "pone", "AH 2C 4D 9S TC KD", True),
])  # fmt: skip
def test_a_seat_s_starters_are_the_cuts_that_make_each_keep_best(
    name: str, seat: str, hand: str, lowball: bool
) -> None:
    """``starters``: for each split, the cuts with which its kept hand shows the most
    of the splits' (the least in lowball) and those reaching the need, against a plain
    count over the cards the seat cannot see; the command line prints them."""
    cards = ca.parse_cards(hand)
    unseen = [c for c in range(52) if c not in cards]
    rules = ca.game(name, lowball=lowball)
    rows = ca.analyze(hand, game=rules, seat=seat, others="random", need=8)
    shows = {k: [naive_score(ca.parse_cards(k), s) for s in unseen] for k in rows["keep"]}
    aim = -1 if lowball else 1
    top = [max(aim * shows[k][i] for k in shows) for i in range(len(unseen))]
    assert list(rows.attrs["starters"]) == list(rows["throw"])
    for keep, throw in zip(rows["keep"], rows["throw"], strict=True):
        said = rows.attrs["starters"][throw]
        best = {s for s, p, t in zip(unseen, shows[keep], top, strict=True) if aim * p >= t}
        assert starter_set(said["best"], unseen) == best, (keep, said)
        reach = {s for s, p in zip(unseen, shows[keep], strict=True) if p >= 8}
        assert starter_set(said["need"], unseen) == reach, (keep, said)
    args = ["discard", *hand.split(), "--game", name, "--seat", seat, "--starters"]
    out = CliRunner().invoke(cli, args + (["--lowball"] if lowball else []))
    assert out.exit_code == 0, out.output
    first = rows["throw"].iloc[0]
    assert f"  {first}: the best hand with " in out.stdout


@pytest.mark.parametrize("name", ["three", "five"])
def test_a_score_in_a_game_of_three_sides_or_more(name: str) -> None:
    """`discard --game three|five --score`: one score per side, yours first; three reads
    its board after the deal, five (no board) plays every split's games out to the end
    on the same packs. At 120 with the others far behind the dealer wins almost surely
    whatever it throws (heels, its first peg or its hand); a side one point from the end
    and the dealer far behind loses almost surely."""
    r = ca.game(name)
    samples = 120 if name == "three" else 40  # five: each game played out to its end
    kw = {"game": name, "seat": "dealer", "position_samples": samples}
    hand = " ".join(["5H", "6S", "4D", "JC", "QH", "9C"][: r.dealt[r.dealer]])
    rest = ["10"] * (r.players - 1)
    near = ca.analyze_rows(hand, score="-".join(["120", *rest]), **kw)
    assert near.meta.to_the_end == (name == "five") and (near["p_win"] > 0.9).all()
    at = "-".join(["120", *rest])
    assert near.meta.score == (120, *[10] * (r.players - 1)) and f"from {at}" in near.meta.model
    far = ca.analyze_rows(hand, score=(10, *[120] * (r.players - 1)), **kw)
    assert (far["p_win"] < 0.05).all()
    with pytest.raises(ca.UsageError, match=f"the score of side {r.players} must be 0-120"):
        ca.analyze_rows(hand, score="-".join(["10"] * (r.players - 1) + ["121"]), **kw)
