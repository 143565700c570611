"""The five-card game's table (crib_analyze.table.five_card): its classes against a
plain renaming of the suits, its means against brute force over every starter and
every completion of the crib (tests/naive.py), the whole table's weighted crib against
the mean crib of the rules, and the command line (write, check, damage, refusals).

Mutations tried (each fails a test here): a class's weight as 24 over its images rather
than its fixed renamings; the crib's flush counted with four cards; a thrown jack's
nobs without the starter's suit; the unseen jacks' nobs left out; the pone's net adding
the crib.
"""

from __future__ import annotations

import random
from itertools import combinations, permutations
from math import comb
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.api import check_table, generate_table
from crib_analyze.cards import format_card, format_cards
from crib_analyze.cli import cli
from crib_analyze.crib import five_card_kernels as fk
from crib_analyze.crib.joker_class_kernels import joker_zero_counts
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.table.class_numbers import KINDS, numerators
from crib_analyze.table.five_card import five_card_classes
from tests.conftest import FULL, rotating, rotation_seed, scaled
from tests.naive import naive_score, rank, suit


@pytest.fixture(scope="module")
def classes() -> tuple[np.ndarray, np.ndarray]:
    return five_card_classes()  # the table's own, once a process


def naive_class(hand: list[int]) -> tuple[tuple[int, ...], int]:
    """The least sorted renaming of ``hand`` and how many hands its class holds."""
    images = {tuple(sorted(4 * rank(c) + p[suit(c)] for c in hand)) for p in permutations(range(4))}
    return min(images), len(images)


def test_every_class_once_with_its_weight(classes) -> None:  # type: ignore[no-untyped-def]
    cards, weight = classes
    assert len(cards) == 134_459 and int(weight.sum()) == comb(52, 5)
    index = {tuple(int(c) for c in row): i for i, row in enumerate(cards)}
    rng = random.Random(7)
    for _ in range(scaled(20_000, 2_000)):
        hand = rng.sample(range(52), 5)
        least, size = naive_class(hand)
        assert least in index and weight[index[least]] == size


def test_the_means_are_every_starter_and_every_crib(classes) -> None:  # type: ignore[no-untyped-def]
    cards, _ = classes
    # a few classes, also at full size: each is ~0.5 M plain shows (rotating() would take
    # all 134,459 there)
    picks = random.Random(f"{rotation_seed()}/five-card means").sample(
        range(len(cards)), scaled(6, 1)
    )
    for i in picks:
        hand = [int(c) for c in cards[i]]
        hand_num, crib_num, jacks = numerators(KINDS["five-card"], cards[i : i + 1], 0)
        unseen = [c for c in range(52) if c not in hand]
        assert jacks[0] == sum(1 for c in unseen if rank(c) == 10)
        for t in rotating(list(range(10)), scaled(10, 1), f"throws {i}"):
            thrown = [hand[k] for k in fk.THROWS[t]]
            kept = [hand[k] for k in fk.KEEPS[t]]
            assert hand_num[0, t] == sum(naive_score(kept, s) for s in unseen)
            crib = 0
            for pair in combinations(unseen, 2):
                for s in unseen:
                    if s not in pair:
                        crib += naive_score([*thrown, *pair], s, crib=True)
            assert crib_num[0, t] == crib, (hand, thrown)


@pytest.mark.parametrize("cards", ["JH 5H 5D 9H 2H", "JC JD 4C 7C QS", "AS 2S 3S 4S 5S"])
def test_jacks_and_flushes_in_the_crib(cards: str) -> None:
    """Hands where nobs and the crib's flush matter, every throw, against brute force."""
    hand = ca.parse_cards(cards)
    row = np.array([sorted(hand)], np.int64)
    _, crib_num, _ = numerators(KINDS["five-card"], row, 0)
    hand = sorted(hand)
    unseen = [c for c in range(52) if c not in hand]
    for t in rotating(list(range(10)), scaled(10, 1), f"crib {cards}"):
        thrown = [hand[k] for k in fk.THROWS[t]]
        crib = sum(
            naive_score([*thrown, *pair], s, crib=True)
            for pair in combinations(unseen, 2)
            for s in unseen
            if s not in pair
        )
        assert crib_num[0, t] == crib


@pytest.mark.heavy(seconds=13)
def test_the_table_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "five.parquet"
    runner = CliRunner()
    made = runner.invoke(cli, ["table", "--game", "five-card", "-o", str(out), "-q"])
    assert made.exit_code == 0, made.output
    ok = runner.invoke(cli, ["table", "check", str(out)])
    assert ok.exit_code == 0 and "five-card game" in ok.stdout and "2,598,960" in ok.stdout
    df = ca.load_table(out)
    assert len(df) == 1_344_590
    w = df.weight
    # every throw of every hand: the crib is the mean crib of the rules, the show 4.769152
    # less a crib's four-card flush without the starter (4 x 4C(13,4)/C(52,4) x 39/48)
    flush = 4 * (4 * 715 / 270725) * 39 / 48
    assert (df.crib_mean * w).sum() / w.sum() == pytest.approx(4.769152 - flush, abs=1e-6)
    assert np.allclose(df.dealer_net, df.hand_mean + df.crib_mean + df.dealer_heels)
    assert np.allclose(df.pone_net, df.hand_mean - df.crib_mean)
    best = df[df.dealer_best].groupby("hand_id").dealer_net.min()
    assert np.allclose(best, df.groupby("hand_id").dealer_net.max())
    damaged = bytearray(out.read_bytes())
    damaged[len(damaged) // 2] ^= 0xFF
    (tmp_path / "bad.parquet").write_bytes(bytes(damaged))
    bad = runner.invoke(cli, ["table", "check", str(tmp_path / "bad.parquet")])
    assert bad.exit_code == 1 and "Traceback" not in bad.output
    for args, words in [
        (["--game", "five-card", "--limit", "5"], "--limit does not go with --game"),
        (["--game", "canadian-doubles"], "no table for canadian-doubles: a seat's choice"),
        (["--game", "five-card", "-o", str(tmp_path / "t.csv")], "Parquet"),
    ]:
        refused = runner.invoke(cli, ["table", *args])
        assert refused.exit_code == 2 and words in refused.output, (args, refused.output)


def test_a_throw_of_one_is_the_seat_s_exact_throws(classes) -> None:  # type: ignore[no-untyped-def]
    """The games where a seat is dealt five and throws one: each class's kept four over
    the starters (plain enumeration) and its crib (the random opponent) as `discard
    --game ... --others random` counts them, every completion enumerated card by card
    (crib_analyze.crib.any_game_kernels.crib_counts), for the dealer's side and the
    other; and one throw's crib against a plain enumeration of every completion."""
    cards, _ = classes
    rng = random.Random(f"{rotation_seed()}/throw-one means")
    picks = rng.sample(range(len(cards)), scaled(8, 2))  # a few hands: the API is slow
    for i in picks:
        hand = [int(c) for c in cards[i]]
        hand_num, crib_num, _ = numerators(KINDS["throw-one"], cards[i : i + 1], 0)
        unseen = [c for c in range(52) if c not in hand]
        for game, seat, sign in (("four", "across", 1), ("three", "middle", -1)):
            df = ca.analyze(format_cards(hand), game=game, seat=seat, others="random")
            for t in range(5):
                kept = [c for c in hand if c != hand[t]]
                assert hand_num[0, t] == sum(naive_score(kept, s) for s in unseen)
                row = df[df["throw"] == format_card(hand[t])].iloc[0]
                assert row.hand_mean == pytest.approx(hand_num[0, t] / 47, abs=1e-12)
                assert row.crib_mean == pytest.approx(
                    crib_num[0, t] / fk.COMPLETIONS_ONE, abs=1e-12
                )
                heels = 2 * sum(rank(c) == 10 for c in unseen) / 47 if sign > 0 else 0.0
                assert row.net == pytest.approx(row.hand_mean + sign * row.crib_mean + heels)


@pytest.mark.heavy(seconds=28)
def test_a_throw_of_one_s_crib_by_plain_enumeration(classes) -> None:  # type: ignore[no-untyped-def]
    """One throw of a hand with a jack and a flush draw: the crib summed over all
    713,460 completions, card by card, from the rules text (tests/naive.py)."""
    hand = sorted(ca.parse_cards("JH 5H 9H 2H 6C"))
    _, crib_num, _ = numerators(KINDS["throw-one"], np.array([hand], np.int64), 0)
    unseen = [c for c in range(52) if c not in hand]
    t = hand.index(ca.parse_cards("JH")[0])
    crib = sum(
        naive_score([hand[t], *three], s, crib=True)
        for three in combinations(unseen, 3)
        for s in unseen
        if s not in three
    )
    assert crib_num[0, t] == crib


@pytest.mark.heavy
def test_a_throw_one_table_from_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "four.parquet"
    runner = CliRunner()
    made = runner.invoke(cli, ["table", "--game", "four", "-o", str(out), "-q"])
    assert made.exit_code == 0, made.output
    ok = runner.invoke(cli, ["table", "check", str(out)])
    assert ok.exit_code == 0 and "four game" in ok.stdout and "672,295 rows" in ok.stdout
    df = ca.load_table(out)
    meta = df.attrs
    assert meta["owner_seats"] == ["across", "dealer"] and meta["other_seats"] == ["left", "right"]
    w = df.weight
    # a card thrown from a random hand and four cards unseen: a random crib, as above
    flush = 4 * (4 * 715 / 270725) * 39 / 48
    assert (df.crib_mean * w).sum() / w.sum() == pytest.approx(4.769152 - flush, abs=1e-6)
    # every kept four over the starters: the hand's mean show, 4.769152
    assert (df.hand_mean * w).sum() / w.sum() == pytest.approx(4.769152, abs=1e-6)
    held_jacks = df.hand.astype(str).str.count("J")  # heels: a jack the seat cannot see cut
    assert np.allclose(df.owner_heels, 2 * (4 - held_jacks) / 47)
    assert np.allclose(df.owner_net, df.hand_mean + df.crib_mean + df.owner_heels)
    assert np.allclose(df.other_net, df.hand_mean - df.crib_mean)
    for role in ("owner", "other"):
        best = df[df[f"{role}_best"]].groupby("hand_id")[f"{role}_net"].min()
        assert np.allclose(best, df.groupby("hand_id")[f"{role}_net"].max())
    for args in (["table", "lookup", "5H", "6S", "4D", "JC", "QH", "5C", "--table", str(out)],
                 ["crib-table", "--table", str(out)]):  # fmt: skip
        read = runner.invoke(cli, args)  # the standard game's readers name the file's game
        assert read.exit_code == 1 and "is the four game's table (five-card hands)" in read.output


#: the game tables' variants: (game, lowball, penalty)
VARIANT_TABLES = [
    ("five-dealt", True, "none"),
    ("four", True, "back-ten"),
    ("five-card", False, "zero"),
    ("five-card", True, "back-ten"),
    ("three", False, "back-ten"),
    ("five-dealt", False, "zero"),
]


@pytest.mark.heavy(seconds=40)  # a whole table of a game, of one variant
@pytest.mark.parametrize("name, lowball, penalty", rotating(VARIANT_TABLES, 1, "variant-tables"))
def test_a_game_table_of_a_variant_is_the_seat_s_exact_throws(
    name: str, lowball: bool, penalty: str
) -> None:
    rules = ca.game(name, lowball=lowball, penalty=penalty)
    result = generate_table(game=rules)
    named = f"discard_table_{name}{'_lowball' if lowball else ''}"
    named += f"_penalty-{penalty}" if penalty != "none" else ""
    assert result.output.name == named + ".parquet"
    check = check_table(result.output)
    assert check.variants == rules.variants and all(v in check.summary for v in rules.variants)
    df = ca.load_table(result.output)
    roles = ("dealer", "pone") if name == "five-card" else ("owner", "other")
    for role, sign in zip(roles, (1, -1), strict=True):
        net = df[f"{role}_net"]
        by_hand = net.groupby(df.hand_id)
        best = (by_hand.transform("min") if lowball else by_hand.transform("max")) - net
        assert (df[f"{role}_best"] == np.isclose(best, 0, rtol=0, atol=1e-9)).all(), role
        if penalty != "none":
            cost = 1 if penalty == "zero" else 10
            moved = -cost * (df.p_hand_zero + sign * df.p_crib_zero)
            np.testing.assert_allclose(df[f"{role}_penalty"], moved, atol=1e-12)
            heels = df[f"{roles[0]}_heels"] if sign == 1 else 0
            plain = df.hand_mean + sign * df.crib_mean + heels
            np.testing.assert_allclose(net, plain + moved, atol=1e-12)
    for hand_id in random.Random(rotation_seed()).sample(range(134_459), 2):
        rows = df[df.hand_id == hand_id]
        seats = (
            ("dealer", "pone") if name == "five-card" else ("dealer", df.attrs["other_seats"][0])
        )
        for role, seat in zip(roles, seats, strict=True):
            live = ca.analyze(str(rows.hand.iloc[0]), game=rules, seat=seat, others="random")
            by_throw = {frozenset(str(t).split()): r for t, (_, r) in
                        zip(live.throw, live.iterrows(), strict=True)}  # fmt: skip
            for _, row in rows.iterrows():
                want = by_throw[frozenset(str(row.discard).split())]
                assert row[f"{role}_net"] == pytest.approx(want.net, abs=1e-12)
                if penalty != "none":
                    assert row.p_hand_zero == pytest.approx(want.p_hand_zero, abs=1e-12)
                    assert row.p_crib_zero == pytest.approx(want.p_crib_zero, abs=1e-12)


@pytest.mark.parametrize(
    "thrown", rotating(["2H 7H", "JH 3C", "JH 6H", "2C 9D", "3D 9C"], 1, "five-zero")
)
def test_the_old_five_card_games_zero_counts_deal_every_starter_and_crib(thrown: str) -> None:
    kept = {
        "2H 7H": "9C KD 4S",
        "JH 3C": "8D 9S KS",
        "JH 6H": "8D 9S KS",
        "2C 9D": "JS 4H KC",
        "3D 9C": "4S 8S KS",
    }  # fmt: skip (the last keeps a flush of three)
    cards = ca.parse_cards(f"{thrown} {kept[thrown]}")
    hand, crib = joker_zero_counts(rank_table(), np.array([cards]), 0, fk.THROWS, fk.KEEPS)
    rest = [c for c in range(52) if c not in cards]
    ours = cards[:2]
    d = [list(t) for t in fk.THROWS.tolist()].index([0, 1])
    assert hand[0, d] == sum(naive_score(cards[2:], s) == 0 for s in rest)
    zero = sum(
        naive_score([*ours, a, b], s, crib=True) == 0
        for a, b in combinations(rest, 2)
        for s in rest
        if s not in (a, b)
    )
    assert crib[0, d] == zero


@pytest.mark.skipif(not FULL, reason="713,460 plain shows a throw: make test-all")
def test_a_throw_of_ones_zero_crib_deals_every_completion() -> None:
    cards = ca.parse_cards("JH 2C 7C 9D KS")  # the thrown jack, and every other case in its deals
    _, crib = joker_zero_counts(rank_table(), np.array([cards]), 0, fk.THROWS_ONE, fk.KEEPS_ONE)
    rest = [c for c in range(52) if c not in cards]
    for d in (0, 1):  # the jack, then the two of clubs (the flush, another's jack)
        zero = sum(
            naive_score([cards[d], a, b, c], s, crib=True) == 0
            for a, b, c in combinations(rest, 3)
            for s in rest
            if s not in (a, b, c)
        )
        assert crib[0, d] == zero, d
