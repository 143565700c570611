"""The table of a pack with jokers against the expert (``table --jokers N --opponent
expert``): the crib of five scored with jokers wild against the rules' plain scorer, the
crib against a policy against a plain enumeration of its cards from the rules' words,
the fast kernel against the slow one, the opponent's symbol multisets against a plain
enumeration, the policy against the game model's own throws, and the file.
"""

from __future__ import annotations

from collections import Counter
from itertools import combinations, combinations_with_replacement
from math import comb

import numpy as np
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from crib_analyze.cli import cli
from crib_analyze.crib import joker_policy_kernels as jpk
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_cribs import joker_rank_tables
from crib_analyze.crib.hand_kernels import DISCARDS
from crib_analyze.rules import game
from crib_analyze.table import joker_expert as je
from crib_analyze.table import jokers as tj
from tests.conftest import FULL, rotating
from tests.naive import naive_wild_score


def _sym(card: int) -> int:
    return 13 if card >= 52 else card // 4


def _unseen(hand: list[int], jokers: int) -> list[int]:
    return [c for c in range(52 + jokers) if c not in hand]


def _random_hand(rng: np.random.Generator, jokers: int) -> list[int]:
    """Six cards of the pack, often a joker and a jack among them."""
    while True:
        hand = [int(c) for c in rng.choice(52 + jokers, 6, replace=False)]
        if rng.random() < 0.4 and 52 not in hand:
            hand[0] = 52
        if jokers == 2 and rng.random() < 0.3:  # the second joker, alone or with the first
            hand[2] = 53
        if rng.random() < 0.4:
            hand[1] = 40 + int(rng.integers(4))
        if len(set(hand)) == 6:
            return sorted(hand)


@pytest.mark.parametrize("seed", rotating(list(range(60)), 20, "wild crib"))
def test_a_crib_with_jokers_scores_as_the_rules_count_it(seed: int) -> None:
    """wild_crib_points (free + flush + nobs) against the plain scorer trying every card
    each joker may be: cribs of five with a joker or two anywhere, flushes and jacks
    often."""
    rng = np.random.default_rng(seed)
    jokers = 1 + seed % 2
    cards = [int(c) for c in rng.choice(52 + jokers, 5, replace=False)]
    if seed % 3 == 0:  # a flush in one suit, jokers aside
        suit = int(rng.integers(4))
        ranks = rng.choice(13, 5, replace=False)
        cards = [4 * int(r) + suit if c < 52 else c for r, c in zip(ranks, cards, strict=True)]
    if seed % 4 == 1 and cards[4] < 52:  # a jack of the starter's suit among the four
        cards[0] = 40 + (cards[4] & 3) if 40 + (cards[4] & 3) not in cards else cards[0]
    free, gain = joker_rank_tables()
    got = jpk.wild_crib_points(free, gain, *cards)
    assert got == naive_wild_score(cards[:4], cards[4], crib=True), cards


def naive_policy_crib(hand: list[int], throw: tuple[int, int], unseen: list[int],
                      W: np.ndarray, F: np.ndarray) -> tuple[float, float]:  # fmt: skip
    """The crib's mean of ``throw`` from the module's words: the opponent throws symbols
    a <= b with the starter's symbol c at W[a, b, c]; among the pairs of cards of those
    symbols left, a suited pair of two real ranks weighs F / 4 and an offsuit one
    (1 - F) / 12, any other pair alike; the starter is any card of symbol c left besides
    the pair, alike; each crib scored by trying every card a joker may be. Returns the
    mean and the chance of a crib of nothing."""
    count = Counter(_sym(c) for c in unseen)
    total = nothing = 0.0
    for a, b in combinations_with_replacement(range(14), 2):
        pab = W[a, b].sum()
        if pab <= 0:
            continue
        pairs = [(x, y) for x, y in combinations(unseen, 2)
                 if sorted((_sym(x), _sym(y))) == [a, b]]  # fmt: skip
        if a < b < 13:
            raw = [F[a, b] / 4 if x % 4 == y % 4 else (1 - F[a, b]) / 12 for x, y in pairs]
        else:
            raw = [1.0] * len(pairs)
        if sum(raw) <= 0:
            raw = [1.0] * len(pairs)
        for (x, y), r in zip(pairs, raw, strict=True):
            m = pab * r / sum(raw)
            for s in unseen:
                if s in (x, y):
                    continue
                c = _sym(s)
                left = count[c] - (c == a) - (c == b)
                p = m * W[a, b, c] / pab / left
                if p:
                    points = naive_wild_score([*throw, x, y], s, crib=True)
                    total += p * points
                    nothing += p * (points == 0)
    return total, nothing


@pytest.mark.parametrize("seed", rotating(list(range(6)), 3, "policy crib"))
def test_the_crib_against_a_policy_is_the_plain_enumeration(seed: int) -> None:
    """joker_policy_cribs against naive_policy_crib, W sparse (a few symbol triples, a
    joker among them often) and F at random, for three throws of a hand."""
    rng = np.random.default_rng(seed)
    jokers = 1 + seed % 2
    hand = _random_hand(rng, jokers)
    unseen = _unseen(hand, jokers)
    count = Counter(_sym(c) for c in unseen)
    W = np.zeros((14, 14, 14))
    F = rng.random((14, 14))
    syms = [s for s in range(14) if count[s]]
    for _ in range(4):
        a, b = sorted(int(s) for s in rng.choice(syms, 2))
        if a == b and count[a] < 2:
            continue
        for c in rng.choice(syms, 2):
            if count[int(c)] - (c == a) - (c == b) > 0:
                W[a, b, int(c)] += rng.random()
    W /= W.sum()
    free, gain = joker_rank_tables()
    got, zero = jpk.joker_policy_cribs(free, gain, np.array(hand, np.int64),
                                       np.array(unseen, np.int64), W, F)  # fmt: skip
    for d in rng.choice(15, 3, replace=False):
        throw = (hand[DISCARDS[d, 0]], hand[DISCARDS[d, 1]])
        mean, nothing = naive_policy_crib(hand, throw, unseen, W, F)
        assert got[d] == pytest.approx(mean, abs=1e-9)
        assert zero[d] == pytest.approx(nothing, abs=1e-12)


def _random_policy(rng: np.random.Generator, jokers: int) -> tuple[np.ndarray, ...]:
    """Every multiset of six symbols of a pack with ``jokers`` jokers, each throwing its
    discards at random shares (a few throws each), suited parts at random."""
    multisets = np.array([m for m in combinations_with_replacement(range(14), 6)
                          if max(Counter(m).values()) <= 4 and m.count(13) <= jokers],
                         np.int64)  # fmt: skip
    pi = rng.random((1, len(multisets), 15)) * (rng.random((1, len(multisets), 15)) < 0.3)
    pi[0, :, 0] += 1e-3
    pi /= pi.sum(axis=2, keepdims=True)
    suited = pi * rng.random(pi.shape)
    return multisets, pi, suited


def test_the_opponents_multisets_weigh_as_the_unseen_cards_deal_them() -> None:
    """weights_from_compiled over 14 symbols against a plain sum over every multiset of
    six symbols the unseen cards hold: its chance prod C(n_r, k_r), its throws at the
    policy's shares, the starter's symbol c at (n_c - k_c) / (unseen - 6)."""
    rng = np.random.default_rng(3)
    jokers = 2
    multisets, pi, suited = _random_policy(rng, jokers)
    hand = [52, 4, 5, 40, 44, 48]  # a joker and a pair of twos, a jack, a queen, a king
    unseen = _unseen(hand, jokers)
    n = np.bincount([_sym(c) for c in unseen], minlength=14)
    W, F = pk.weights_from_compiled(*pk.compile_policy(multisets, pi, suited), n)
    want = np.zeros((14, 14, 14))
    suit_mass, pair_mass = np.zeros((14, 14)), np.zeros((14, 14))
    total = 0.0
    for m, ms in enumerate(multisets):
        k = Counter(ms.tolist())
        w = float(np.prod([comb(int(n[r]), c) for r, c in k.items()]))
        total += w
        for d in range(15):
            a, b = sorted((int(ms[DISCARDS[d, 0]]), int(ms[DISCARDS[d, 1]])))
            pair_mass[a, b] += w * pi[0, m, d]
            suit_mass[a, b] += w * suited[0, m, d]
            for c in range(14):
                want[a, b, c] += w * pi[0, m, d] * (n[c] - k.get(c, 0)) / (len(unseen) - 6)
    assert np.allclose(W[0], want / total, atol=1e-12)
    has = pair_mass > 0
    assert np.allclose(F[0][has], suit_mass[has] / pair_mass[has], atol=1e-12)


@pytest.mark.parametrize("seed", range(8))
def test_the_fast_crib_is_the_slow_one(seed: int) -> None:
    """joker_policy_cribs_fast (rank points by symbols, only flushes and matching jacks
    card by card) equals joker_policy_cribs (every card pair and starter scored) against
    a random policy's W and F, hands with jokers and jacks."""
    rng = np.random.default_rng(seed)
    jokers = 1 + seed % 2
    multisets, pi, suited = _random_policy(rng, jokers)
    compiled = pk.compile_policy(multisets, pi, suited)
    free, gain = joker_rank_tables()
    for _ in range(3):
        hand = np.array(_random_hand(rng, jokers), np.int64)
        unseen, n_sym = jpk.unseen_of(hand, jokers)
        W, F = pk.weights_from_compiled(*compiled, n_sym)
        slow, slow_zero = jpk.joker_policy_cribs(free, gain, hand, unseen, W[0], F[0])
        fast, fast_zero = jpk.joker_policy_cribs_fast(free, gain, hand, unseen, W[0], F[0])
        assert np.allclose(fast, slow, atol=1e-9), hand
        assert np.allclose(fast_zero, slow_zero, atol=1e-12), hand
        assert (slow_zero > 0).any() or 52 in hand or 53 in hand  # a zero to count


@pytest.mark.parametrize(
    "variant", rotating([{}, {"lowball": True}, {"throw_fives": True}], 2, "joker policy")
)
def test_the_policy_throws_as_the_game_model_does(variant: dict[str, bool]) -> None:
    """The policy per multiset gathers the game model's own throws: for classes of the
    pack, each class's throw by the model's hand policy (hand_policy_split with the
    seat's table; in lowball the fewest points, under throw fives its fives thrown) is
    among those the policy gives its multiset, for both seats; the shares of a multiset
    sum to 1."""
    from crib_analyze.artifacts.game_models import expert_model_of
    from crib_analyze.crib.any_game_kernels import hand_policy_split
    from crib_analyze.table.class_numbers import exact_numbers, kind_of

    rules = game("standard", jokers=1, **variant)
    aim, fives = (-1 if rules.lowball else 1), rules.throw_fives
    cards, weight = tj.joker_classes(1)
    rows = np.random.default_rng(0).choice(len(cards), 150, replace=False)
    rows = np.concatenate([rows, np.flatnonzero(cards[:, -1] >= 52)[:50]])  # jokers held
    cards, weight = np.array(cards[rows], np.int64), weight[rows]
    hand = exact_numbers(kind_of("standard"), cards, 1, "none")[0]
    _, pi, _ = je.expert_policy(rules, cards, weight, hand)
    _, which = je.symbol_multisets(cards)
    assert np.allclose(pi.sum(axis=2), 1.0)
    model = expert_model_of(rules)
    assert model is not None
    # by our seat: as pone (0) we meet the dealer's throws to its own crib (seat 1, +1);
    # as dealer (1) the pone's to ours (seat 0, -1)
    for p, (seat, sign) in enumerate(((1, 1), (0, -1))):
        for i, held in enumerate(cards):
            _, thrown, _ = hand_policy_split(held, 4, 2, 0, sign, model.one[seat],
                                             model.two[seat], aim, fives, 1)  # fmt: skip
            d = [j for j in range(15) if (1 << DISCARDS[j, 0]) | (1 << DISCARDS[j, 1]) == thrown]
            assert pi[p, which[i], d[0]] > 0, (seat, held)


@pytest.fixture
def few_classes(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pack's hands cut to a few (the policy made from them, the file's checks read
    the same)."""
    whole = tj.joker_classes

    def few(jokers: int, size: int = 6) -> tuple[np.ndarray, np.ndarray]:
        cards, weight = whole(jokers, size)
        held = (cards >= 52).sum(axis=1)
        rows = np.concatenate([
            np.flatnonzero(held == k)[:: max(1, (held == k).sum() // 60)][:60]
            for k in range(jokers + 1)
        ])  # fmt: skip  # spread over the multisets
        return cards[rows], weight[rows]

    monkeypatch.setattr(tj, "joker_classes", few)


@pytest.mark.usefixtures("few_classes")
def test_the_expert_table_with_jokers_on_the_command_line(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`table --jokers 1 --opponent expert` writes each role's crib against the expert
    and the nets of them (the dealer's with heels), says the expert in its provenance
    and passes `table check`; with another variant too it is refused in one line."""
    runner = CliRunner()
    out = tmp_path / "j1x.parquet"
    made = runner.invoke(cli, ["table", "--jokers", "1", "--opponent", "expert", "-o", str(out)])
    assert made.exit_code == 0, made.output
    df = pq.read_table(out).to_pandas()
    assert "crib_mean" not in df and {"dealer_crib_mean", "pone_crib_mean"} <= set(df)
    net = df["hand_mean"] + df["dealer_crib_mean"] + df["dealer_heels"]
    assert np.allclose(df["dealer_net"], net)
    assert np.allclose(df["pone_net"], df["hand_mean"] - df["pone_crib_mean"])
    # each hand's cribs are means of cribs; the dealer throws better cards to its own
    assert (df["dealer_crib_mean"] > 0).all() and (df["pone_crib_mean"] < 30).all()
    assert df["pone_crib_mean"].mean() > df["dealer_crib_mean"].mean()
    checked = runner.invoke(cli, ["table", "check", str(out)])
    assert checked.exit_code == 0 and "expert opponent" in checked.output, checked.output


@pytest.mark.usefixtures("few_classes")
@pytest.mark.parametrize("variant", [["--penalty", "zero"], ["--lowball"], ["--throw-fives"]])
def test_the_expert_table_with_jokers_under_a_variant(tmp_path, variant) -> None:  # type: ignore[no-untyped-def]
    """With a penalty each role's chance of a crib of nothing against its expert, in the
    nets (the dealer's own crib's zero costs it, the pone's gives it the point); in
    lowball the fewest points best; under throw fives only legal throws best."""
    out = tmp_path / "v.parquet"
    made = CliRunner().invoke(
        cli, ["table", "--jokers", "1", "--opponent", "expert", *variant, "-o", str(out)]
    )
    assert made.exit_code == 0, made.output
    df = pq.read_table(out).to_pandas()
    if "--penalty" in variant:
        assert {"dealer_p_crib_zero", "pone_p_crib_zero"} <= set(df)
        moved = -(df["p_hand_zero"] + df["dealer_p_crib_zero"])  # the zero rule: 1 a zero
        assert np.allclose(df["dealer_penalty"], moved)
        assert np.allclose(df["pone_penalty"], -df["p_hand_zero"] + df["pone_p_crib_zero"])
        no_joker = ~df["discard"].astype(str).str.contains("JK")
        assert (df["dealer_p_crib_zero"][no_joker] > 0).any()
        assert (df["dealer_p_crib_zero"][~no_joker] == 0).all()  # a joker always scores
    best = df[df["dealer_best"]].groupby("hand_id")["dealer_net"].first()
    ends = df.groupby("hand_id")["dealer_net"].agg(["min", "max"])
    if "--lowball" in variant:
        assert np.allclose(best, ends["min"][best.index])
    elif "--throw-fives" in variant:
        assert df[df["dealer_best"]]["legal"].all()
    else:
        assert np.allclose(best, ends["max"][best.index])


@pytest.mark.skipif(not FULL, reason="make test-all only: the policy of every class, ~1 min")
def test_the_tables_expert_agrees_with_the_sampled_one() -> None:
    """The table's expert (the game model per multiset) against `discard --jokers 1
    --opponent expert` (the game model's own hands dealt, 2,000 deals): each throw's
    crib within 4 standard errors and 0.1, as dealer and as pone."""
    from crib_analyze.api import analyze
    from crib_analyze.table.class_numbers import exact_numbers, kind_of

    rules = game("standard", jokers=1)
    cards, weight = tj.joker_classes(1)
    cards = np.array(cards, np.int64)
    hand = exact_numbers(kind_of("standard"), cards, 1, "none")[0]
    multisets, pi, suited = je.expert_policy(rules, cards, weight, hand)
    compiled = pk.compile_policy(multisets, pi, suited)
    free, gain = joker_rank_tables()
    from crib_analyze.scoring.jokers import parse_with_jokers

    held = np.array(sorted(parse_with_jokers("5H 6S 4D JC QH JK", 1)), np.int64)
    unseen, n_sym = jpk.unseen_of(held, 1)
    W, F = pk.weights_from_compiled(*compiled, n_sym)
    for p, role in enumerate(("pone", "dealer")):  # by our seat
        mine, _ = jpk.joker_policy_cribs_fast(free, gain, held, unseen, W[p], F[p])
        df = analyze("5H 6S 4D JC QH JK", role=role, jokers=1, opponent="expert")
        for _, row in df.iterrows():
            thrown = set(row["throw"].split())
            d = next(j for j in range(15) if {_text(held[DISCARDS[j, 0]]),
                                               _text(held[DISCARDS[j, 1]])} == thrown)  # fmt: skip
            gap = abs(mine[d] - row["crib_mean"])
            assert gap < max(4 * row["crib_se"], 0.1), (role, thrown, mine[d], row["crib_mean"])


def _text(card: int) -> str:
    from crib_analyze.cards import CARD_TEXT

    return CARD_TEXT[int(card)]


@pytest.mark.usefixtures("few_classes")
def test_a_killed_expert_table_with_jokers_resumes(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Ctrl-C a few parts into the cribs (at the sixth check of the run): nothing is
    written but the parts done, kept beside the output; the same command again computes
    only the other parts, writes the same numbers as a run never stopped, and removes
    the parts."""
    from crib_analyze import interrupts

    runner = CliRunner()
    argv = ["table", "--jokers", "1", "--opponent", "expert", "-o"]
    whole = tmp_path / "whole.parquet"
    assert runner.invoke(cli, [*argv, str(whole)]).exit_code == 0
    out = tmp_path / "killed.parquet"
    checks = {"n": 0}
    real_check = interrupts.check

    def stop_at_sixth() -> None:
        checks["n"] += 1
        if checks["n"] == 6:
            raise KeyboardInterrupt
        real_check()

    monkeypatch.setattr(je.interrupts, "check", stop_at_sixth)
    killed = runner.invoke(cli, [*argv, str(out)])
    assert killed.exit_code != 0 and not out.exists()
    kept = len(list(tmp_path.glob("killed.parquet.checkpoint.npz.part-*")))
    assert 0 < kept < je.PARTS
    monkeypatch.setattr(je.interrupts, "check", real_check)
    made = {"n": 0}
    real_cribs = je.jpk.class_policy_cribs

    def counted(*args):  # type: ignore[no-untyped-def]
        made["n"] += 1
        return real_cribs(*args)

    monkeypatch.setattr(je.jpk, "class_policy_cribs", counted)
    again = runner.invoke(cli, [*argv, str(out)])
    assert again.exit_code == 0, again.output
    assert made["n"] == je.PARTS - kept
    assert not list(tmp_path.glob("*.part-*"))
    a, b = pq.read_table(whole).to_pandas(), pq.read_table(out).to_pandas()
    for column in ("dealer_crib_mean", "pone_crib_mean", "dealer_net", "pone_net"):
        assert np.array_equal(a[column].to_numpy(), b[column].to_numpy()), column
