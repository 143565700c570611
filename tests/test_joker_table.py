"""The discard table of a pack with jokers (``table --jokers``): the class kernel
against the brute force of every starter and completion (``joker_hand_values``, which
tests/test_joker_discard.py checks against a plain enumeration of the rules), the
hands of the pack, the file and the command line.

Mutations tried (each fails a test here): the joker made a jack for nobs without the
point's gain test; the hand's flush kept when a joker is made a jack of another suit;
five of a rank read from the rank table; the joker cut not matching a real jack (nobs);
the matching-jack correction left out; the unseen jokers left out of the flush; the
zero counts with a joker thrown; a class's weight not doubled for either of two
jokers; the best throw by the most points under lowball. A card thrown alone: the
unseen jack's starters over the wrong number of pairs; the correction's triples counted
twice (by any joker or jack, not the least); the weight of a pair among three symbols;
the joker cut's jacks. The five-card game: the kept three counted by the crib's rules;
the zero counted as one point.
"""

from __future__ import annotations

from itertools import combinations, product
from math import comb

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

import crib_analyze as ca
from crib_analyze.cards import canonical_hand
from crib_analyze.cli import cli
from crib_analyze.crib import joker_class_kernels as jc
from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
from crib_analyze.errors import TableError
from crib_analyze.scoring import joker_kernels as jk
from crib_analyze.scoring.jokers import parse_with_jokers
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.table import jokers as tj
from crib_analyze.table.class_numbers import KINDS, TableKind, kind_of
from tests.conftest import FULL, rotating, scaled
from tests.naive import naive_breakdown


def tables() -> tuple[np.ndarray, np.ndarray]:
    return jc.joker_rank_tables(rank_table())


def class_values(
    hand: list[int], jokers: int, kind: TableKind = KINDS["standard"]
) -> tuple[np.ndarray, ...]:
    """The table's numbers of one hand (``kind``'s throws): (hand sums, crib sums, heels
    count, hand zeros, crib zeros)."""
    free, gain = tables()
    cards = np.array([sorted(hand)], np.int64)
    every = jc.EVERY_COMPLETION
    crib_ranks = jc.multiset_crib_sums(free, gain, cards, kind.throws, jokers, every)
    hand_num, crib_num, heels = jc.joker_numerators(
        free,
        gain,
        cards,
        np.zeros(1, np.int64),
        crib_ranks,
        jokers,
        kind.throws,
        kind.keeps,
        every,
    )
    hand_zero, crib_zero = jc.joker_zero_counts(
        rank_table(), cards, jokers, kind.throws, kind.keeps
    )
    return hand_num[0], crib_num[0], heels[0], hand_zero[0], crib_zero[0]


def assert_heels(heels: int, hand: list[int], jokers: int) -> None:
    unseen = [c for c in range(52 + jokers) if c not in hand]
    assert heels == sum(c >= 52 or c >> 2 == ca.rules.JACK_RANK for c in unseen)


def assert_brute_force(hand: list[int], jokers: int) -> None:
    """Every throw's numbers against the brute force of every starter and completion."""
    cards = np.array(sorted(hand), np.int64)
    hand_num, crib_num, heels, hand_zero, crib_zero = class_values(list(cards), jokers)
    scores, crib, zeros, _ = jk.joker_hand_values(cards, DISCARDS, KEEPS, jokers)
    np.testing.assert_array_equal(hand_num, scores.sum(axis=1))
    np.testing.assert_array_equal(crib_num, crib)
    np.testing.assert_array_equal(hand_zero, (scores == 0).sum(axis=1))
    np.testing.assert_array_equal(crib_zero, zeros)
    assert_heels(heels, hand, jokers)


def assert_five_brute_force(hand: list[int], jokers: int, kind: TableKind) -> None:
    """A hand of five (a throw of one, or the old five-card game's of two): every
    throw's numbers against the any-game engine's brute force of every starter and
    every crib (``crib_histograms``, ``hand_scores``: each joker at its best, by
    ``wild_show_points``)."""
    from crib_analyze.crib import any_game_kernels as agk

    cards = np.array(sorted(hand), np.int64)
    hand_num, crib_num, heels, hand_zero, crib_zero = class_values(list(cards), jokers, kind)
    unseen = np.array([c for c in range(52 + jokers) if c not in hand], np.int64)
    cribs = agk.crib_histograms(cards, kind.throws, unseen)
    scores = agk.hand_scores(cards, kind.keeps, unseen)
    np.testing.assert_array_equal(hand_num, scores.sum(axis=1))
    np.testing.assert_array_equal(crib_num, cribs @ np.arange(cribs.shape[1]))
    np.testing.assert_array_equal(hand_zero, (scores == 0).sum(axis=1))
    np.testing.assert_array_equal(crib_zero, cribs[:, 0])
    assert_heels(heels, hand, jokers)


@pytest.mark.parametrize(
    ("hand", "jokers"),
    rotating([("JC 5D 9S KH JK", 1),  # a jack and a joker: each thrown, the other kept
              ("JC JD 4H 6H JK", 2),  # two jacks, a joker held and one unseen
              ("5C 5D 5H JK JK", 2),  # both jokers held
              ("2H 7H 9H QH 4C", 1)],  # a flush in hand, the joker unseen
             scaled(4, 1), "throw-one jokers"),
)  # fmt: skip
def test_a_hand_of_five_that_throws_one_is_the_brute_force(hand: str, jokers: int) -> None:
    assert_five_brute_force(parse_with_jokers(hand, jokers), jokers, KINDS["throw-one"])


@pytest.mark.parametrize(
    ("hand", "jokers"),
    rotating([("JC 5D 9S KH JK", 1), ("5C 5D JH JK JK", 2), ("2H 7H 9H QH 4C", 2)],
             scaled(3, 1), "five-card jokers"),
)  # fmt: skip
def test_the_five_card_game_s_throws_are_the_brute_force(hand: str, jokers: int) -> None:
    """The old five-card game: two thrown, three kept."""
    assert_five_brute_force(parse_with_jokers(hand, jokers), jokers, KINDS["five-card"])


@st.composite
def joker_hands(draw: st.DrawFn) -> tuple[list[int], int]:
    jokers = draw(st.sampled_from((1, 2)))
    held = draw(st.integers(0, jokers))
    real = draw(st.lists(st.integers(0, 51), min_size=6 - held, max_size=6 - held, unique=True))
    return real + [52 + i for i in range(held)], jokers


@settings(max_examples=scaled(40, 2), deadline=None)
@given(joker_hands())
def test_the_class_kernel_is_the_brute_force_of_every_starter_and_crib(
    case: tuple[list[int], int],
) -> None:
    assert_brute_force(*case)


@pytest.mark.parametrize(
    ("hand", "jokers"),
    rotating([
        ("JC JD JH 5C 6S JK", 1),  # a joker among four jacks: five of a rank
        ("5C 5D 5H 5S 2C JK", 1),  # and among four fives (40 with the fifth cut)
        ("2H 7H 9H JH 4C JK", 1),  # a flush in hand with a jack and a joker
        ("JS JK JK 4H 6H 8H", 2),  # both jokers held with a jack: every pair qualifies
        ("3C 3D 3H 3S JC JK", 2),  # five threes: a fifteen
        ("AC 2D 9S KH 7C 8D", 2),  # no joker held, two in the pack
    ], scaled(6, 2), "standard jokers"),
)  # fmt: skip
def test_named_hands_are_the_brute_force(hand: str, jokers: int) -> None:
    assert_brute_force(parse_with_jokers(hand, jokers), jokers)


def weighted_class_values(hand: list[int], rules: ca.Rules) -> tuple[np.ndarray, np.ndarray]:
    """The table's crib and chance of a crib of nothing of one hand of ``rules`` under
    throw fives: every completion at its chance when the other seats obey the rule."""
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights

    kind = kind_of(rules.name)
    free, gain = tables()
    cards = np.array([sorted(hand)], np.int64)
    weights = seat_fives_weights(rules, kind.seat_of(rules))
    crib_ranks = jc.multiset_crib_sums(free, gain, cards, kind.throws, rules.jokers, weights)
    _, crib, _ = jc.joker_numerators(
        free, gain, cards, np.zeros(1, np.int64), crib_ranks, rules.jokers, kind.throws,
        kind.keeps, weights,
    )  # fmt: skip
    zero = jc.joker_crib_zeros(rank_table(), cards, kind.throws, weights)
    return crib[0], zero[0]


@pytest.mark.parametrize(
    ("name", "hand", "jokers"),
    rotating([
        ("standard", "5C 5D JH 4S 6S JK", 1),  # two fives and a joker held, a jack
        ("standard", "5C JS 9S 2S KS JK", 2),  # a five, a flush, a jack, a joker unseen
        ("standard", "JC JD 3H 8S QH KC", 2),  # no five, two jacks, both jokers unseen
        ("standard", "5C 5D 5H 7S JK JK", 2),  # three fives (two go) and both jokers
        ("five-card", "5S JS 4S 6S JK", 1),  # the old game: two thrown, three kept
        ("three", "5H JH 9H 2H JK", 1),  # a throw of one: a five must go
        ("five-dealt", "JC 5D 9S KH JK", 2),  # two from the pack to the crib
        ("four", "5C 5D JD 9D QD", 2),  # two fives, one must go; jokers unseen
        ("standard", "5C 5D 5H 5S JC JK", 2),  # every five held, a jack and a joker
        ("standard", "JC JD 5D 8D JK 2H", 1),  # two jacks thrown together, a five
    ], scaled(10, 3), "jokers under throw fives"),
)  # fmt: skip
def test_the_class_kernel_under_throw_fives_is_every_completion_card_by_card(
    name: str, hand: str, jokers: int
) -> None:
    """Each completion weighing its chance when the other seats obey throw fives: the
    class kernels' crib and chance of nothing of every throw (the rule's or not)
    against ``weighted_joker_cribs``, every set and starter card by card (checked
    against the plain twin in tests/test_throw_fives_tables.py)."""
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights

    rules = ca.game(name, jokers=jokers, throw_fives=True)
    kind = kind_of(name)
    cards = sorted(parse_with_jokers(hand, jokers))
    crib, zero = weighted_class_values(cards, rules)
    held = np.array(cards, np.int64)
    w = seat_fives_weights(rules, kind.seat_of(rules))[sum(c < 52 and c >> 2 == 4 for c in cards)]
    mean, nothing = jk.weighted_joker_cribs(held, held[kind.throws], jokers, w)
    np.testing.assert_allclose(crib, mean, rtol=0, atol=1e-9)
    np.testing.assert_allclose(zero, nothing, rtol=0, atol=1e-12)


def test_five_of_a_rank_counts_its_pairs_and_fifteens() -> None:
    for rank in range(13):
        value = min(rank + 1, 10)
        fifteens = sum(k * value == 15 for k in range(2, 6) for _ in combinations(range(5), k))
        assert jc.five_of_a_rank(rank) == 20 + 2 * fifteens  # C(5, 2) = 10 pairs
    assert jc.five_of_a_rank(4) == 40 and jc.five_of_a_rank(2) == 22


def naive_rank_points(ranks: list[int]) -> int:
    """Fifteens, pairs and runs of five ranks (a hand of four and the starter last)."""
    parts = naive_breakdown([4 * r for r in ranks[:4]], 4 * ranks[4])
    return parts["fifteens"] + parts["pairs"] + parts["runs"]


def test_the_rank_tables_are_the_best_over_the_jokers_ranks() -> None:
    """``free``: the most rank points over the jokers' ranks; ``gain``: 1 where a joker
    of the hand made a jack, with the nobs point, scores more than that."""
    free, gain = tables()
    rng = np.random.default_rng(7)
    keys = [rng.integers(0, 13, 5).tolist() for _ in range(scaled(600, 150))]
    for k in keys[: len(keys) // 2]:  # one or two jokers, anywhere
        for i in rng.choice(5, rng.integers(1, 3), replace=False):
            k[i] = jc.JOKER_SYMBOL
    keys += [[4, 4, 4, 4, jc.JOKER_SYMBOL], [10, 10, 10, jc.JOKER_SYMBOL, 10], [2, 2, 2, 13, 13]]
    for symbols in keys:
        where = [i for i, s in enumerate(symbols) if s == jc.JOKER_SYMBOL]
        best = best_jack = -1
        for ranks in product(range(13), repeat=len(where)):
            five = list(symbols)
            for i, r in zip(where, ranks, strict=True):
                five[i] = r
            points = naive_rank_points(five)
            best = max(best, points)
            if any(i < 4 and r == ca.rules.JACK_RANK for i, r in zip(where, ranks, strict=True)):
                best_jack = max(best_jack, points)
        key = jc.symbol_key(*symbols)
        assert free[key] == best, symbols
        assert gain[key] == (best_jack + 1 > best), symbols


def test_suit_classes_are_the_canonical_hands() -> None:
    cards, weight = tj.suit_classes(4)
    assert int(weight.sum()) == comb(52, 4)
    seen = {tuple(int(c) for c in row) for row in cards}
    assert len(seen) == len(cards)
    rng = np.random.default_rng(4)
    for _ in range(200):
        hand = tuple(sorted(int(c) for c in rng.choice(52, 4, replace=False)))
        assert tuple(sorted(canonical_hand(list(hand)))) in seen


@pytest.mark.parametrize(
    ("jokers", "size", "hands"),
    [(1, 6, 1_097_447), (2, 6, 1_113_879), (1, 5, 150_891), (2, 5, 152_646)],
)
def test_the_hands_of_a_pack_with_jokers_weigh_every_hand(
    jokers: int, size: int, hands: int
) -> None:
    cards, weight = tj.joker_classes(jokers, size)
    assert int(weight.sum()) == comb(52 + jokers, size)
    assert len(cards) == hands
    held = (cards >= 52).sum(axis=1)
    assert held.max() == jokers and (cards[:, : size - jokers] < 52).all()


@pytest.fixture
def few_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The table's hands cut to a few of each kind (the file's checks read the same)."""
    whole = tj.joker_classes

    def few(jokers: int, size: int = 6) -> tuple[np.ndarray, np.ndarray]:
        cards, weight = whole(jokers, size)
        kinds = (cards >= 52).sum(axis=1)
        fives = ((cards < 52) & (cards >> 2 == 4)).sum(axis=1)
        rows = np.unique(np.concatenate([
            np.flatnonzero((kinds == k) & (fives >= least))[:count]
            for k in range(jokers + 1) for least, count in ((0, 40), (1, 6), (2, 4))
        ]))  # fmt: skip
        return cards[rows], weight[rows]

    monkeypatch.setattr(tj, "joker_classes", few)


@pytest.mark.usefixtures("few_classes")
@pytest.mark.parametrize(
    ("options", "name"),
    [({"jokers": 1}, "discard_table_jokers-1"),
     ({"jokers": 2, "lowball": True, "penalty": "zero"},
      "discard_table_jokers-2_lowball_penalty-zero"),
     ({"name": "four", "jokers": 1, "penalty": "back-ten"},
      "discard_table_four_jokers-1_penalty-back-ten"),
     ({"name": "five-card", "jokers": 2, "penalty": "zero"},
      "discard_table_five-card_jokers-2_penalty-zero"),
     ({"jokers": 1, "throw_fives": True, "penalty": "back-ten"},
      "discard_table_jokers-1_throw-fives_penalty-back-ten"),
     ({"name": "three", "jokers": 2, "throw_fives": True, "lowball": True},
      "discard_table_three_jokers-2_lowball_throw-fives"),
     ({"name": "five-card", "jokers": 1, "throw_fives": True},
      "discard_table_five-card_jokers-1_throw-fives")],
)  # fmt: skip
def test_a_table_with_jokers_is_written_checked_and_read(
    options: dict, name: str, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The file's name, check and metadata; each role's net equal to the live analysis
    of the same hand (the standard game's random opponent, or a seat of the game with
    the other seats' cards at random; under throw fives, obeying it, and only the
    throws it allows), its best throws and the penalty's points."""
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(tmp_path))
    options = dict(options)
    rules = ca.game(options.pop("name", "standard"), **options)
    kind = kind_of(rules.name)
    owner = kind.roles[0]
    result = ca.generate_table(game=rules)
    assert result.output.name == name + ".parquet"
    check = ca.check_table(result.output)
    assert check.variants == rules.variants and "jokers" in check.summary
    cards, weight = tj.joker_classes(rules.jokers, kind.size)
    assert check.weight_sum == int(weight.sum()) and check.game == rules.name
    df = ca.load_table(result.output)
    assert df.attrs["jokers"] == rules.jokers
    assert df.hand.iloc[0] == ca.format_cards(cards[0])
    fives = ((cards < 52) & (cards >> 2 == 4)).sum(axis=1)
    with_fives = int(np.flatnonzero(fives >= 1)[-1])  # with a joker too where there is one
    for hid in (0, len(cards) - 1, with_fives):  # a hand without jokers, one with them all
        rows = df[df.hand_id == hid]
        if rules.throw_fives:  # only the legal throws are ranked live
            rows = rows[rows.legal]
        hand = rows.hand.iloc[0]
        if kind.name == "standard":
            live = ca.analyze(hand, role="dealer", opponent="random", pegging="none", game=rules)
            nets = {owner: live.set_index("discard").net}
        else:
            seats = (
                (df.attrs["owner_seats"][0], df.attrs["other_seats"][0])
                if kind.name == "throw-one" else ("dealer", "pone")
            )  # fmt: skip
            nets = {
                role: ca.analyze(hand, seat=seat, others="random", game=rules)
                .set_index("throw")
                .net
                for role, seat in zip(kind.roles, seats, strict=True)
            }
        for role, net in nets.items():
            np.testing.assert_allclose(rows[f"{role}_net"], net.loc[rows.discard], atol=1e-12)
    ranked = (
        df.assign(net=df[f"{owner}_net"].where(df.legal, np.nan))
        if rules.throw_fives
        else (df.assign(net=df[f"{owner}_net"]))
    )
    best = ranked.groupby("hand_id").net.transform("min" if rules.lowball else "max")
    assert (df[f"{owner}_best"] == np.isclose(ranked.net, best, rtol=0, atol=1e-9)).all()
    if rules.throw_fives:  # the rule binds: as many fives thrown as the throw takes
        thrown_fives = df.discard.astype(str).str.count("5")
        held_fives = df.hand.astype(str).str.count("5")
        slots = kind.throws.shape[1]
        assert (df.legal == (thrown_fives == np.minimum(held_fives, slots))).all()
    if rules.penalty != "none":
        cost = 1 if rules.penalty == "zero" else 10
        moved = -cost * (df.p_hand_zero + df.p_crib_zero)
        np.testing.assert_allclose(df[f"{owner}_penalty"], moved, atol=1e-12)
    with pytest.raises(TableError, match=r"pack with .* joker.*read it with load_table"):
        ca.lookup("5H 6S 4D JC QH 5C", result.output)


@pytest.mark.usefixtures("few_classes")
def test_a_damaged_joker_table_is_one_line(tmp_path) -> None:
    out = tmp_path / "j.parquet"
    ca.generate_table(out, game=ca.game("standard", jokers=1))
    table = pq.read_table(out)
    meta = table.schema.metadata
    column = table.column("crib_mean").to_numpy().copy()
    column[3] += 1e-6
    damaged = table.set_column(
        table.column_names.index("crib_mean"), "crib_mean", [column]
    ).replace_schema_metadata(meta)
    pq.write_table(damaged, out)
    result = CliRunner().invoke(cli, ["table", "check", str(out)])
    assert result.exit_code == 1, result.output
    assert "crib_mean" in result.output and "Traceback" not in result.output
    assert len(result.output.strip().splitlines()) == 1


@pytest.mark.usefixtures("few_classes")
def test_a_table_written_with_wrong_weights_fails_its_check(
    tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Checksums that hold prove the file is as written, not that it is right: the
    check counts the hands' weights again."""
    out = tmp_path / "w.parquet"
    right = tj.joker_classes

    def one_more(jokers: int, size: int = 6) -> tuple[np.ndarray, np.ndarray]:
        cards, weight = right(jokers, size)
        return cards, weight + (np.arange(len(weight)) == 2)  # one hand weighs one more

    monkeypatch.setattr(tj, "joker_classes", one_more)
    ca.generate_table(out, game=ca.game("standard", jokers=1))
    monkeypatch.setattr(tj, "joker_classes", right)
    with pytest.raises(TableError, match="weights sum to"):
        ca.check_table(out)


def test_the_table_with_jokers_on_the_command_line(tmp_path) -> None:
    result = CliRunner().invoke(cli, ["table", "--jokers", "1", "-o", str(tmp_path / "t.csv")])
    assert result.exit_code == 2, result.output
    assert "written as Parquet" in result.output
    result = CliRunner().invoke(cli, ["table", "--jokers", "3"])
    assert result.exit_code == 2 and "--jokers" in result.output


@pytest.mark.skipif(not FULL, reason="the whole table, 25-60 s a pack: make test-all")
@pytest.mark.parametrize("options", [{"jokers": 1}, {"jokers": 2, "penalty": "back-ten"}])
def test_the_whole_table_with_jokers(options: dict, tmp_path) -> None:
    rules = ca.game("standard", **options)
    out = tmp_path / "jokers.parquet"
    result = ca.generate_table(out, game=rules)
    assert result.rows == 15 * len(tj.joker_classes(rules.jokers)[0])
    check = ca.check_table(out)
    assert check.weight_sum == comb(52 + rules.jokers, 6)
    df = ca.load_table(out, columns=["hand", "discard", "hand_mean", "crib_mean", "dealer_net"])
    rng = np.random.default_rng(rules.jokers)
    for i in rng.choice(len(df) // 15, 4, replace=False):
        rows = df.iloc[15 * i : 15 * i + 15]
        live = ca.analyze(
            rows.hand.iloc[0], role="dealer", opponent="random", pegging="none", game=rules
        ).set_index("discard")
        np.testing.assert_allclose(
            rows.dealer_net, live.loc[rows.discard, "net"], rtol=0, atol=1e-12
        )


@pytest.mark.skipif(not FULL, reason="the whole table, 25-60 s a pack: make test-all")
def test_the_whole_table_with_jokers_under_throw_fives(tmp_path) -> None:
    """The standard game's table with two jokers under throw fives and the zero penalty,
    whole: its weights, and on a few hands (one with fives) each legal throw's crib and
    chance of nothing against every completion scored card by card."""
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights

    rules = ca.game("standard", jokers=2, throw_fives=True, penalty="zero")
    out = tmp_path / "jokers-fives.parquet"
    ca.generate_table(out, game=rules)
    check = ca.check_table(out)
    assert check.weight_sum == comb(54, 6) and check.variants == rules.variants
    df = ca.load_table(out, columns=["hand", "discard", "crib_mean", "p_crib_zero", "legal"])
    weights = seat_fives_weights(rules, 0)
    with_five = np.flatnonzero(df.hand.astype(str).str.contains("5").to_numpy()[::15])
    for i in [0, int(with_five[len(with_five) // 2]), len(df) // 15 - 1]:
        rows = df.iloc[15 * i : 15 * i + 15]
        held = np.array(parse_with_jokers(rows.hand.iloc[0], 2), np.int64)
        assert list(rows.discard.astype(str)) == [ca.format_cards(held[list(t)]) for t in DISCARDS]
        w = weights[int(((held < 52) & (held >> 2 == 4)).sum())]
        mean, nothing = jk.weighted_joker_cribs(held, held[DISCARDS], 2, w)
        np.testing.assert_allclose(rows.crib_mean, mean, rtol=0, atol=1e-9)
        np.testing.assert_allclose(rows.p_crib_zero, nothing, rtol=0, atol=1e-12)
        fives = (held[DISCARDS] >> 2 == 4) & (held[DISCARDS] < 52)
        held_fives = int(((held < 52) & (held >> 2 == 4)).sum())
        assert (rows.legal.to_numpy() == (fives.sum(axis=1) == min(held_fives, 2))).all()


@pytest.mark.heavy(seconds=23)  # a whole table of a game whose seats throw one
@pytest.mark.parametrize("jokers", [1, 2] if FULL else [1])  # two: 40 s, make test-all
def test_the_whole_throw_one_table_with_jokers(jokers: int, tmp_path) -> None:
    rules = ca.game("five-dealt", jokers=jokers)
    out = tmp_path / "five-dealt.parquet"
    result = ca.generate_table(out, game=rules)
    check = ca.check_table(out)
    assert result.rows == 5 * check.classes and check.weight_sum == comb(52 + jokers, 5)
    df = ca.load_table(out, columns=["hand", "discard", "owner_net", "other_net"])
    rng = np.random.default_rng(jokers)
    for i in rng.choice(len(df) // 5, 3, replace=False):
        rows = df.iloc[5 * i : 5 * i + 5]
        for role, seat in (("owner", "dealer"), ("other", "pone")):
            live = ca.analyze(rows.hand.iloc[0], seat=seat, others="random", game=rules)
            net = live.set_index("throw").net.loc[rows.discard]
            np.testing.assert_allclose(rows[f"{role}_net"], net, rtol=0, atol=1e-12)


@pytest.mark.parametrize("jokers", [1, 2])
def test_a_hand_of_ten_under_throw_fives_is_every_completion_card_by_card(jokers: int) -> None:
    """Canadian doubles' hand of ten (the seat throws two of it): ``random_cribs`` (the
    class kernels on one hand, as ``discard --game canadian-doubles --others random``
    asks them) against every set and starter card by card, on rotating pairs thrown."""
    import random

    from crib_analyze.crib.hand_cribs import random_cribs
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights
    from tests.conftest import rotation_seed

    rules = ca.game("canadian-doubles", jokers=jokers, throw_fives=True)
    cards = np.array(parse_with_jokers("5C JD 5H 9S JK 2C 3D QH 4S JC", jokers), np.int64)
    pairs = list(combinations(range(10), 2))
    throws = np.array(random.Random(f"{rotation_seed()}/ten {jokers}").sample(pairs, 4))
    mean, zero = random_cribs(rules, 0, cards, throws)
    w = seat_fives_weights(rules, 0)[2]  # two fives held
    want, nothing = jk.weighted_joker_cribs(cards, cards[throws], jokers, w)
    np.testing.assert_allclose(mean, want, rtol=0, atol=1e-9)
    np.testing.assert_allclose(zero, nothing, rtol=0, atol=1e-12)
