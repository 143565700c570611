"""The tables of five-card hands under throw fives, and `discard --game --throw-fives
--others random`: the crib when the other seats are random and obey the rule.

- The chance of each set of the crib's other cards and starter
  (crib_analyze.crib.throw_fives_rule.other_cards_weights) against deals played out
  as the rules say (tests/naive.py), in every game, and against the standard game's
  opponent weights, derived apart (crib_analyze.crib.zero_kernels.throw_fives_weights).
- The kernels' crib mean and chance of nothing against a plain enumeration of every
  set and starter with those chances, card by card.
- The table: only the legal throws are best, the crib is the one `discard --game`
  gives, `table check` passes, and the command line writes it.

Mutations tried (each fails a test here): a seat's fives thrown as all it holds (not
as many as its throw takes); the pack's cards left out of the pattern; the starter's
five not taken from those left; the flush with its five counted as cut when among the
three; a thrown jack's nobs over the starters of every suit; the best throw among
every throw rather than the legal ones.
"""

from __future__ import annotations

import random
from math import comb, sqrt
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.crib import five_card_kernels as fk
from crib_analyze.crib.throw_fives_rule import other_cards_weights, seat_fives_weights
from crib_analyze.crib.zero_kernels import throw_fives_weights
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.table.class_numbers import KINDS, multisets_of
from tests.conftest import FULL, rotating, rotation_seed, scaled
from tests.naive import (
    naive_fives_patterns,
    naive_score,
    naive_scores_array,
    naive_weighted_crib,
    naive_weighted_crib_array,
    rank,
)

#: a seat dealt five (six for the standard game's) holding 0-4 fives: its other cards
#: an ace, a two, ... never a five
HELD_FIVES = range(5)


def held_hand(size: int, fives: int) -> list[int]:
    """A hand of ``size`` cards holding ``fives`` fives (5C 5D ...) and the first other
    cards (AC AD ...)."""
    others = [c for c in range(52) if rank(c) != 4]
    return [16 + k for k in range(fives)] + others[: size - fives]


def pattern_chances(w: np.ndarray, unseen: int, fives: int) -> dict[tuple[int, int], float]:
    """Each (j, s)'s chance from the weights of one set and starter: times how many
    sets of the K others hold j fives, times the starters of each kind left."""
    others = w.shape[0] - 1
    plain = unseen - fives
    return {
        (j, s): float(w[j, s])
        * comb(fives, j)
        * comb(plain, others - j)
        * ((fives - j) if s else (plain - others + j))
        for j in range(others + 1)
        for s in (0, 1)
    }


def test_the_standard_opponent_s_weights_are_those_derived_apart() -> None:
    """The standard game's random opponent that obeys the rule (six dealt, two
    thrown): the weights of every set and starter that can be dealt are the kernel's
    of the standard table's, which counts the opponent's hands its own way."""
    for fives in HELD_FIVES:
        hand = np.array(held_hand(6, fives), np.int64)
        ours = other_cards_weights(46, 4 - fives, [(6, 2)], 0)
        theirs = throw_fives_weights(hand)
        for j in range(3):
            for s in range(2):
                if pattern_chances(ours, 46, 4 - fives)[j, s] > 0:
                    assert ours[j, s] == pytest.approx(theirs[j, s], rel=1e-12), (fives, j, s)


@pytest.mark.parametrize(
    "name",
    [
        "five-card",
        "five-dealt",
        "three",
        "three-dealer-six",
        "four",
        "five",
        "canadian-doubles",
    ],
)
def test_the_weights_are_the_chances_of_deals_played_out(name: str) -> None:
    """Deals played out as the rules say: how often the crib's other cards hold j fives
    and the starter is a five, within 5 standard errors of the weights' chances (and
    the chances sum to 1). About a hundred chances are compared a run: at 4.5 s.e. one
    run in a thousand would fail by chance, and one did (z 4.56, 2026-12-05: 200 other
    seeds of that case fell within 3.2 s.e.); at 5, one in fifteen thousand."""
    rules = ca.game(name)
    seat = next(s for s in range(rules.players) if rules.dealt[s] and rules.thrown[s])
    seats = [
        (rules.dealt[s], rules.thrown[s])
        for s in range(rules.players)
        if s != seat and rules.dealt[s]
    ]  # fmt: skip
    unseen = 52 - rules.dealt[seat]
    deals = scaled(100_000, 6_000)
    for fives in rotating(list(HELD_FIVES), 2, f"fives patterns {name}"):
        w = seat_fives_weights(rules, seat)[fives]
        others = 4 - rules.thrown[seat]
        chances = pattern_chances(w[: others + 1], unseen, 4 - fives)
        assert sum(chances.values()) == pytest.approx(1.0, abs=1e-12)
        rng = random.Random(f"{rotation_seed()}/{name}/{fives}")
        held = held_hand(rules.dealt[seat], fives)
        counts = naive_fives_patterns(held, seats, rules.crib_from_deck, deals, rng)
        for key, p in chances.items():
            seen = counts.get(key, 0) / deals
            se = sqrt(max(p * (1 - p), 1e-9) / deals)
            assert abs(seen - p) <= 5 * se + 1e-9, (name, fives, key, seen, p)


def _kernel_cribs(hand: list[int], throws: np.ndarray, weights: np.ndarray):  # type: ignore[no-untyped-def]
    return _kernel_cribs_rows(np.array([sorted(hand)], np.int64), throws, weights)


def test_the_array_scorer_is_the_plain_one() -> None:
    """The twin below scores its shows all at once (tests/naive.py): it is the plain
    scorer's count on random hands and starters, and on the 29 hand, as hand and crib."""
    rng = random.Random(f"{rotation_seed()}/array scorer")
    rows = [rng.sample(range(52), 5) for _ in range(scaled(50_000, 5_000))]
    rows.append([*ca.parse_cards("5C 5D 5H JS"), *ca.parse_cards("5S")])
    cards = np.array(rows, np.int64)
    for crib in (True, False):
        got = naive_scores_array(cards[:, :4], cards[:, 4], crib)
        want = [naive_score(r[:4], r[4], crib) for r in rows]
        assert got.tolist() == want
    assert got[-1] == 29


def test_a_five_card_throw_s_crib_is_every_set_and_starter() -> None:
    """The five-card game (two thrown): the kernel's crib mean and chance of nothing of
    every throw against every pair and starter of the unseen cards, card by card,
    weighed by the pattern's chance (hands with a five, fives, a jack, a flush)."""
    weights = seat_fives_weights(ca.game("five-card"), 0)
    texts = ["JH 5H 5D 9H 2H", "5S JS 4S 6S KC", "5C 5D 5H 5S JD", "JC 9C 2C 3C KD"]
    for text in texts:
        hand = sorted(ca.parse_cards(text))
        mean, zero = _kernel_cribs(hand, fk.THROWS, weights)
        held = sum(rank(c) == 4 for c in hand)
        for t in range(10):
            thrown = [hand[k] for k in fk.THROWS[t]]
            want_mean, want_zero = naive_weighted_crib_array(hand, thrown, weights[held])
            assert mean[0, t] == pytest.approx(want_mean, abs=1e-9), thrown
            assert zero[0, t] == pytest.approx(want_zero, abs=1e-9), thrown
    if FULL:  # and the twin's twin: one show at a time (2 s)
        hand = sorted(ca.parse_cards(texts[0]))
        thrown = [hand[k] for k in fk.THROWS[0]]
        plain = naive_weighted_crib(hand, thrown, weights[2].tolist())
        assert plain == pytest.approx(naive_weighted_crib_array(hand, thrown, weights[2]))


@pytest.mark.parametrize(
    "name",
    rotating(["five-dealt", "three", "three-dealer-six", "four", "five"], 2, "throw-one games"),
)
def test_a_throw_of_one_s_crib_is_every_set_and_starter(name: str) -> None:
    """A throw of one: the kernel against every three unseen cards and starter
    (713,460), card by card, on hands with fives, a jack and a flush draw (a rotating
    hand and throw in make test; every throw of each in make test-all)."""
    weights = seat_fives_weights(ca.game(name), 0)
    texts = ["5H JH 9H 2H 6C", "JS 4S 6S 8S KC", "5C 5D JD 9D QD", "AC 2D 3H 4S JC"]
    for text in rotating(texts, scaled(4, 1), f"throw one {name}"):
        hand = sorted(ca.parse_cards(text))
        mean, zero = _kernel_cribs(hand, fk.THROWS_ONE, weights)
        held = sum(rank(c) == 4 for c in hand)
        for t in rotating(list(range(5)), scaled(5, 1), f"throw one {name} {text}"):
            want_mean, want_zero = naive_weighted_crib_array(hand, [hand[t]], weights[held])
            assert mean[0, t] == pytest.approx(want_mean, abs=1e-9), (text, t)
            assert zero[0, t] == pytest.approx(want_zero, abs=1e-9), (text, t)


def test_with_every_chance_alike_a_throw_of_one_is_the_random_crib() -> None:
    """Weights of 1 count every set and starter once: the weighted kernels are then the
    random crib's sums and zero counts, against every completion scored one by one
    (the any-game engine's ``crib_histograms``), on a rotating few classes."""
    from crib_analyze.crib import any_game_kernels as agk

    cards, _ = ca_classes()
    ones = np.ones((5, 5, 2))
    picks = random.Random(f"{rotation_seed()}/fives ones").sample(range(len(cards)), scaled(6, 2))
    rows = cards[picks]
    mean, zero = _kernel_cribs_rows(rows, fk.THROWS_ONE, ones)
    for row, sums, nothing in zip(rows, mean, zero, strict=True):
        held = np.array(row, np.int64)
        unseen = np.array([c for c in range(52) if c not in held], np.int64)
        cribs = agk.crib_histograms(held, fk.THROWS_ONE, unseen)
        np.testing.assert_array_equal(sums, cribs @ np.arange(cribs.shape[1]))
        np.testing.assert_array_equal(nothing, cribs[:, 0])


def ca_classes():  # type: ignore[no-untyped-def]
    from crib_analyze.table.five_card import five_card_classes

    return five_card_classes()


def _kernel_cribs_rows(rows: np.ndarray, throws: np.ndarray, weights: np.ndarray):  # type: ignore[no-untyped-def]
    """The tables' class kernels' crib and P(crib 0) (weighted sums) of each throw."""
    from crib_analyze.crib import joker_class_kernels as jc

    rows = np.array(rows, np.int64)
    free, gain = jc.joker_rank_tables(rank_table())
    reps, which = multisets_of(rows)
    ranks = jc.multiset_crib_sums(free, gain, reps, throws, 0, weights)
    crib = np.array([
        jc.hand_cribs(gain, row, ranks[m], 0, throws, weights)
        for row, m in zip(rows, which, strict=True)
    ])  # fmt: skip
    return crib, jc.joker_crib_zeros(rank_table(), rows, throws, weights)


@pytest.mark.parametrize(
    ("name", "seat", "penalty"),
    [("three", "middle", "back-ten"), ("five-card", "dealer", "zero"), ("four", "left", "none")],
)
def test_the_table_s_columns_are_the_seat_s_throws(name: str, seat: str, penalty: str) -> None:
    """The table's columns under throw fives, on a rotating few hundred classes (the
    whole table below, in rotation): the legal throws are those that throw as many
    fives as the throw takes, every hand's best throws are legal and the best of the
    legal, and each throw's crib (and chance of nothing) is `discard --game --others
    random`'s."""
    from crib_analyze.table.five_card import five_card_columns, throw_one_columns

    cards, weight = ca_classes()
    picks = np.sort(
        random.Random(f"{rotation_seed()}/fives columns {name}").sample(range(len(cards)), 300)
    )
    some = (cards[picks], weight[picks])
    rules = ca.game(name, throw_fives=True, penalty=penalty)
    if name == "five-card":
        columns, meta = five_card_columns(False, penalty, True, classes=some)
    else:
        columns, meta = throw_one_columns(rules, classes=some)
    assert meta["throw_fives"] is True
    slots = 2 if name == "five-card" else 1
    kind = KINDS["five-card" if name == "five-card" else "throw-one"]
    k = kind.n_throws
    held = (some[0] >> 2 == 4).sum(axis=1)
    thrown = (some[0][:, kind.throws] >> 2 == 4).sum(axis=2)
    legal = (thrown == np.minimum(held, slots)[:, None]).ravel()
    assert np.array_equal(columns["legal"], legal)
    for role in kind.roles:
        net = columns[f"{role}_net"].reshape(-1, k)
        best = columns[f"{role}_best"].reshape(-1, k)
        assert not (best & ~legal.reshape(-1, k)).any()
        top = np.where(legal.reshape(-1, k), net, -np.inf).max(axis=1)
        assert np.allclose(np.where(best, net, -np.inf).max(axis=1), top)
        assert (np.where(best, net, np.inf).min(axis=1) >= top - 1e-9).all()
    for i in range(scaled(300, 6)):
        hand = ca.format_cards(some[0][i].tolist())
        seen = ca.analyze(hand, game=rules, seat=seat, others="random")
        crib = dict(zip(seen["throw"], seen.crib_mean, strict=True))
        crib_zero = dict(zip(seen["throw"], seen.p_crib_zero, strict=True))
        rows = range(i * k, (i + 1) * k)
        for r in rows:
            if not legal[r]:
                continue
            throw = ca.format_cards(some[0][i][kind.throws[r - i * k]].tolist())
            assert columns["crib_mean"][r] == pytest.approx(crib[throw], abs=1e-12)
            if penalty != "none":
                assert columns["p_crib_zero"][r] == pytest.approx(crib_zero[throw], abs=1e-12)
        assert set(crib) == {
            ca.format_cards(some[0][i][kind.throws[r - i * k]].tolist()) for r in rows if legal[r]
        }


@pytest.mark.heavy(seconds=15)
@pytest.mark.parametrize(
    ("name", "seat", "penalty"), [("three", "middle", "back-ten"), ("five-card", "dealer", "none")]
)
def test_the_table_is_the_seat_s_throws(name: str, seat: str, penalty: str, tmp_path: Path) -> None:
    """The table under throw fives, written through the command line: `table check`
    passes; every hand's best throws are legal and the best of the legal; a few hands'
    cribs (and chances of nothing) are those of `discard --game --others random`."""
    out = tmp_path / "t.parquet"
    runner = CliRunner()
    args = ["table", "--game", name, "--throw-fives", "--penalty", penalty, "-o", str(out), "-q"]
    made = runner.invoke(cli, args)
    assert made.exit_code == 0, made.output
    ok = runner.invoke(cli, ["table", "check", str(out)])
    assert ok.exit_code == 0 and "throw fives" in ok.stdout, ok.output
    df = ca.load_table(out)
    owner, other = KINDS["five-card" if name == "five-card" else "throw-one"].roles
    fives = df.hand.astype(str).str.count("5")
    thrown_fives = df.discard.astype(str).str.count("5")
    slots = 2 if name == "five-card" else 1
    assert (df.legal == (thrown_fives == np.minimum(fives, slots))).all()
    for role in (owner, other):
        assert not (df[f"{role}_best"] & ~df.legal).any()
        legal = df[df.legal]
        best = legal[legal[f"{role}_best"]].groupby("hand_id")[f"{role}_net"].min()
        assert np.allclose(best, legal.groupby("hand_id")[f"{role}_net"].max())
    rules = ca.game(name, throw_fives=True, penalty=penalty)
    rng = np.random.default_rng(rotation_seed())
    for i in rng.choice(int(df.hand_id.max()) + 1, scaled(40, 4), replace=False):
        rows = df[df.hand_id == i]
        seen = ca.analyze(str(rows.hand.iloc[0]), game=rules, seat=seat, others="random")
        crib = dict(zip(seen["throw"], seen.crib_mean, strict=True))
        crib_zero = dict(zip(seen["throw"], seen.p_crib_zero, strict=True))
        legal_rows = rows[rows.legal]
        assert set(crib) == {str(d) for d in legal_rows.discard}
        for _, row in legal_rows.iterrows():
            assert row.crib_mean == pytest.approx(crib[str(row.discard)], abs=1e-12)
            if penalty != "none":
                assert row.p_crib_zero == pytest.approx(crib_zero[str(row.discard)], abs=1e-12)


# --- with jokers in the pack: every completion card by card ---------------------------------


def test_the_joker_kernel_without_jokers_is_the_closed_form() -> None:
    """``weighted_joker_cribs`` (every set and starter, card by card) on the plain pack is
    the closed form's crib and chance of nothing, for six-card hands' pairs and
    five-card hands' single throws."""
    from crib_analyze.scoring.joker_kernels import weighted_joker_cribs

    rng = np.random.default_rng(rotation_seed())
    for rules, size, k in ((ca.game(), 6, 2), (ca.game("four"), 5, 1)):
        weights = seat_fives_weights(rules, 0)
        for _ in range(scaled(6, 2)):
            others = rng.choice(np.r_[0:16, 20:52], size - 1, replace=False)
            held = np.r_[16 + rng.integers(4), others].astype(np.int64)  # a five first
            positions = np.array([[0, 1], [1, 2]] if k == 2 else [[0], [1]], np.int64)
            w = weights[int((held >> 2 == 4).sum())]
            mean, zero = weighted_joker_cribs(held, held[positions], 0, w)
            closed = _kernel_cribs_rows(held[None, :], positions, weights)
            assert np.allclose(mean, closed[0][0], atol=1e-9)
            assert np.allclose(zero, closed[1][0], atol=1e-12)


@pytest.mark.parametrize("jokers", [1, 2])
def test_the_joker_kernel_counts_every_completion_once(jokers: int) -> None:
    """With every weight 1 the kernel counts each completion once: the sums and zero
    counts of the random crib with jokers (``joker_hand_values``, checked against the
    plain scorer in tests/test_joker_discard.py)."""
    from crib_analyze.crib.hand_kernels import DISCARDS, KEEPS
    from crib_analyze.scoring.joker_kernels import joker_hand_values, weighted_joker_cribs

    hand = np.array([*ca.parse_cards("5H 6S 4D JC"), 52, 13], np.int64)
    _, crib_num, crib_zero, _ = joker_hand_values(hand, DISCARDS, KEEPS, jokers)
    picks = rotating(list(range(15)), 3, f"joker ones {jokers}")
    mean, zero = weighted_joker_cribs(hand, hand[DISCARDS[picks]], jokers, np.ones((4, 2)))
    assert np.array_equal(mean, crib_num[picks]) and np.array_equal(zero, crib_zero[picks])


def test_a_joker_hand_under_throw_fives() -> None:
    """`discard --jokers 1 --throw-fives` (the random opponent obeying the rule): only
    the legal throws, and each crib is the weighted sum over every completion, scored
    card by card by the plain twin (one rotating throw that keeps the joker: a joker in
    the crib costs the twin two minutes, as every card it can be; every throw in make
    test-all);
    `discard --game --jokers --throw-fives --others random` says whom it pictures."""
    text = "5H 6S 4D JC QH JK"
    df = ca.analyze(text, role="dealer", jokers=1, throw_fives=True)
    assert len(df) == 5 and all(d.startswith("5H") for d in df.discard)
    held = [*ca.parse_cards("5H 6S 4D JC QH"), 52]
    w = seat_fives_weights(ca.game(jokers=1), 0)[1]
    rows = [r for r in df.iterrows() if FULL or "JK" not in str(r[1].discard)]
    for _, row in rotating(rows, scaled(5, 1), "joker fives"):
        thrown = [52 if c == "JK" else ca.parse_cards(c)[0] for c in str(row.discard).split()]
        want, _ = naive_weighted_crib(held, thrown, w.tolist(), jokers=1)
        assert row.crib_mean == pytest.approx(want, abs=1e-9), row.discard
    runner = CliRunner()
    seat = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "JK", "--game", "five-dealt",
                               "--seat", "pone", "--jokers", "1", "--throw-fives",
                               "--others", "random"])  # fmt: skip
    assert seat.exit_code == 0, seat.output
    assert "random cards that obey throw fives (exact)" in " ".join(seat.output.split())


# --- a seat that throws nothing: five's dealer ------------------------------------------------


def test_with_every_chance_alike_nothing_thrown_is_the_random_crib() -> None:
    """Weights of 1: the crib of four unseen cards and a starter, summed over every set
    and starter, is the any-game engine's random crib of a seat that throws nothing
    (``crib_histograms``: every completion counted)."""
    from crib_analyze.crib import any_game_kernels as agk
    from crib_analyze.scoring.joker_kernels import weighted_joker_nothing_thrown

    held = np.array(ca.parse_cards("5H 6S 4D JC"), np.int64)
    unseen = np.array([c for c in range(52) if c not in held], np.int64)
    cribs = agk.crib_histograms(held, np.zeros((1, 0), np.int64), unseen)[0]
    total, nothing = weighted_joker_nothing_thrown(held, 0, np.ones((5, 2)))
    assert total == cribs @ np.arange(len(cribs)) and nothing == cribs[0]


def test_five_s_dealer_under_throw_fives_is_the_deals_played_out() -> None:
    """Five's dealer, the four other seats random and obeying throw fives: the crib's
    mean and chance of nothing against deals played out as the rules say (each seat
    dealt five, throwing a five if it holds one; tests/naive.py), within 4 standard
    errors, and above the random crib's (the others' fives come to it)."""
    from tests.naive import naive_fives_throw, naive_score

    rules = ca.game("five", throw_fives=True)
    hand = "5H 6S 4D JC"
    seen = ca.analyze(hand, game=rules, seat="dealer", others="random")
    plain = ca.analyze(hand, game="five", seat="dealer", others="random")
    mean, nothing = float(seen.crib_mean.iloc[0]), float(seen.p_crib_zero.iloc[0])
    assert mean > float(plain.crib_mean.iloc[0]) + 1
    held = ca.parse_cards(hand)
    pack = [c for c in range(52) if c not in held]
    rng = random.Random(rotation_seed())
    shows = []
    for _ in range(scaled(40_000, 8_000)):
        rng.shuffle(pack)
        crib = [naive_fives_throw(pack[5 * k : 5 * k + 5], 1, rng)[0] for k in range(4)]
        shows.append(naive_score(crib, pack[20], crib=True))
    shows_array = np.array(shows, np.float64)
    se = shows_array.std(ddof=1) / sqrt(len(shows))
    assert abs(shows_array.mean() - mean) <= 4 * se, (shows_array.mean(), mean, se)
    p = float((shows_array == 0).mean())
    assert abs(p - nothing) <= 4 * sqrt(nothing * (1 - nothing) / len(shows)) + 1e-9
