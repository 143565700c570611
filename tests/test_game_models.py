"""The expert throws of the other games (crib_analyze.crib.game_model_kernels,
crib_analyze.expert.game_models, crib_analyze.artifacts.game_models).

The measure of one deal against a plain-Python twin from the rules text (each seat's
split by tests/naive.py's naive_split with its own row of the tables, the crib's other
cards, every suit the substituted throw could take); the measure against the sampled
crib of ``discard --game --others hand``, an independent kernel; the fixed point and
its resumption; the packaged file (every game, checked, a fixed point of itself); the
consumers (discard --game, whole games).

Mutations tried (each fails a test here): a seat throwing by another seat's row; the
seat's own throw left in the crib beside the substituted one; the pack's cards to the
crib left out; a substituted pair of the same suit; round k weighted 1/2 instead of
1/k; the partners' sign taken from the seat's own number instead of its side.
"""

from __future__ import annotations

import numpy as np
import pytest

import crib_analyze as ca
from crib_analyze.artifacts.game_models import (
    GameModel,
    GameModels,
    game_model,
    model_problem,
    packaged_game_models,
)
from crib_analyze.crib import any_game_kernels as agk
from crib_analyze.crib import game_model_kernels as gmk
from crib_analyze.crib.any_game_cribs import hand_policy_tables
from crib_analyze.crib.dealing_kernels import shuffle_into
from crib_analyze.errors import ModelError, UsageError
from crib_analyze.expert.game_models import build_game_model, measure
from crib_analyze.rng_kernels import rng_for
from crib_analyze.rules import GAMES, game
from crib_analyze.settings import GAMES_WITH_MODELS
from tests.conftest import rotating, scaled
from tests.naive import naive_score, naive_split, suit

OTHER_GAMES = [name for name in GAMES if name != "standard"]


def random_tables(rules, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Tables that differ by seat (a seat reading another's row is caught)."""
    rng = np.random.default_rng(seed)
    p = rules.players
    one, two = np.zeros((p, 13)), np.zeros((p, 13, 13))
    for s, t in enumerate(rules.thrown):
        if t == 1:
            one[s] = rng.uniform(2, 9, 13)
        elif t == 2:
            a = rng.uniform(2, 9, (13, 13))
            two[s] = (a + a.T) / 2
    return one, two


def twin_deal(rules, deck, one, two):
    """The throws of one deal by the rules text: each seat in turn from the dealer's
    left takes its cards, and splits them by its own row of the tables; then the pack's
    cards to the crib, then the starter. Returns (throws by seat, pack cards, starter)."""
    pos, held = 0, []
    for m in rules.dealt:
        held.append(list(deck[pos : pos + m]))
        pos += m
    pack = list(deck[pos : pos + rules.crib_from_deck])
    starter = deck[pos + rules.crib_from_deck]
    dealer_side = rules.teams[rules.dealer]
    throws = []
    for s, cards in enumerate(held):
        if not cards:
            throws.append([])
            continue
        keep = len(cards) - rules.thrown[s] - rules.passed[s]
        _, thrown, _ = naive_split(
            cards, keep, rules.thrown[s], rules.passed[s], rules.teams[s] == dealer_side,
            one[s].tolist(), two[s].tolist(),
        )  # fmt: skip
        throws.append(thrown)
    return throws, pack, starter


def possible_cribs(rules, seat, throws, pack, starter):
    """For each rank (or rank pair) the seat could throw in place of its own: every
    crib score the substitution can give (each free card, two of different suits)."""
    rest = [c for o, t in enumerate(throws) if o != seat for c in t] + pack
    used = set(rest) | {starter}
    free = {r: [4 * r + s for s in range(4) if 4 * r + s not in used] for r in range(13)}
    out = {}
    if rules.thrown[seat] == 1:
        for r in range(13):
            out[(r,)] = {naive_score([a, *rest], starter, crib=True) for a in free[r]}
    else:
        for r in range(13):
            for q in range(r, 13):
                out[(r, q)] = {
                    naive_score([a, b, *rest], starter, crib=True)
                    for a in free[r] for b in free[q] if a != b and suit(a) != suit(b)
                }  # fmt: skip
    return out


@pytest.mark.parametrize(
    "name", ["four", *rotating([g for g in OTHER_GAMES if g != "four"], 2, "game-model-deal")]
)
def test_one_deal_matches_the_rules(name: str) -> None:
    """Each seat's throws, the crib's other cards and every substituted throw's crib, in
    single deals, against the twin: the kernel's one draw of suits is one of the crib
    scores the substitution can give, counted once where a card is free."""
    rules = game(name)
    one, two = random_tables(rules, 7)
    deals = 1 if name == "canadian-doubles" else scaled(8, 2)
    for j in range(deals):
        deck = np.empty(52, np.int64)
        shuffle_into(deck, rng_for(11, j))
        throws, pack, starter = twin_deal(rules, [int(c) for c in deck], one, two)
        got = np.full((rules.players, 2), -1, np.int64)
        assert gmk.deal_throws(
            deck, np.array(rules.dealt), np.array(rules.thrown), np.array(rules.passed),
            np.array(rules.teams), rules.crib_from_deck, one, two, 1, got,
        ) == starter  # fmt: skip
        for s, t in enumerate(throws):
            assert sorted(got[s][got[s] >= 0].tolist()) == sorted(t)
        s1, s2 = gmk.crib_sums(
            1, 11, j, np.array(rules.dealt), np.array(rules.thrown), np.array(rules.passed),
            np.array(rules.teams), rules.crib_from_deck, one, two, 1,
        )  # fmt: skip
        for s in range(rules.players):
            if not rules.thrown[s]:
                assert not s1[s].any() and not s2[s].any()
                continue
            for ranks, scores in possible_cribs(rules, s, throws, pack, starter).items():
                cell = s1[s, ranks[0]] if len(ranks) == 1 else s2[s, ranks[0], ranks[1]]
                assert cell[0] == (1 if scores else 0), (name, s, ranks)
                if scores:
                    assert cell[1] in scores and cell[2] == cell[1] ** 2, (name, s, ranks)


def test_the_measure_agrees_with_the_sampled_crib_of_discard() -> None:
    """Three-handed, the middle seat's crib when it throws a five, every seat by the
    hand policy: the measure (substituted throws) and the sampled crib of discard's
    --others hand (the seat's own cards held, the others dealt from the rest) agree
    within 4 standard errors (the card removal of the seat's kept cards aside)."""
    rules = game("three")
    one, two = hand_policy_tables(rules)
    n = scaled(200_000, 25_000)
    m1, _, v1, _ = measure(rules, one, two, n, 5, 0)
    cards = np.array([16, 1, 26, 35, 48], np.int64)  # 5C 2D 7S TD KC: throw the five
    shows = agk.sampled_cribs(
        cards, 1, np.array([[0]], np.int64), np.array(rules.dealt), np.array(rules.thrown),
        np.array(rules.passed), np.array(rules.teams), rules.crib_from_deck, one, two, n, 9, 1,
        False,
    ).astype(float)[0]  # fmt: skip
    se = np.sqrt(v1[1, 4] + shows.var() / n)
    assert abs(m1[1, 4] - shows.mean()) < 4 * se + 0.03, (m1[1, 4], shows.mean(), se)


def test_the_fixed_point_is_reproducible_and_resumes(tmp_path) -> None:
    """The same seed gives the same model; a build stopped after its second round
    resumes from the checkpoint to the same model; round k weighs 1/k (the mean of the
    rounds' measures, each against the tables of the round before)."""
    rules = game("five-dealt")
    rounds, deals = 3, 3000
    whole, prov = build_game_model(rules, rounds, deals, 4)
    assert prov["rounds"] == rounds and model_problem(whole, rules) is None
    again, _ = build_game_model(rules, rounds, deals, 4)
    assert np.array_equal(whole.one, again.one)
    check = tmp_path / "m.checkpoint.npz"
    seen = []

    def stop_after_two(line: str) -> None:
        seen.append(line)
        if len(seen) == 2:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        build_game_model(rules, rounds, deals, 4, check, stop_after_two)
    assert check.exists()
    resumed, _ = build_game_model(rules, rounds, deals, 4, check)
    assert np.array_equal(whole.one, resumed.one) and not check.exists()
    one, two = hand_policy_tables(rules)
    measures = []
    for k in range(rounds):
        m1, _, _, _ = measure(rules, one, two, deals, 4, k * deals)
        measures.append(m1)
        one = np.mean(measures, axis=0)
    assert np.allclose(whole.one, one)


def test_every_other_game_ships_a_model_that_is_its_own_fixed_point() -> None:
    """The packaged file holds a checked model for every game but the standard; its
    tables differ from the hand policy's random cribs; measured again against
    themselves (fresh deals) they move little: fictitious play's tables are the crib
    against the mixture of the rounds' throws, and the throws near a tie flip between
    rounds (up to 0.12 a rank with four and five players, measured; 0.035 with two or
    three), so the bound is 0.15 a rank and 0.02 on average, not sampling error."""
    models = packaged_game_models()
    assert sorted(models.models) == sorted(OTHER_GAMES) == sorted(GAMES_WITH_MODELS)
    name = rotating(["five-dealt", "three", "four", "five"], 1, "game-model-fixed")[0]
    rules = game(name)
    model = models.models[name]
    assert model_problem(model, rules) is None
    assert models.provenance[name]["rounds"] >= 10
    hand_one, _ = hand_policy_tables(rules)
    assert np.abs(model.one - hand_one).max() > 0.1
    m1, _, _, _ = measure(rules, model.one, model.two, scaled(200_000, 50_000), 99, 10**9)
    thrown = np.array(rules.thrown) == 1
    moved = (m1 - model.one)[thrown]
    assert np.abs(moved).max() < 0.15 and abs(moved.mean()) < 0.02, moved


def test_a_damaged_or_foreign_model_file_is_one_error(tmp_path, monkeypatch) -> None:
    """A file changed after it was written, or a model of the wrong shape, is refused;
    $CRIB_ANALYZE_GAME_MODELS at no file names it; a variant has no model."""
    models = packaged_game_models()
    bad = tmp_path / "bad.npz"
    three = models.models["three"]
    wrong = GameModel("three", three.one[:2], three.two, three.one_se, three.two_se)
    GameModels({"three": wrong}).save(bad)
    with pytest.raises(ModelError, match="wrong shape"):
        GameModels.load(bad)
    good = tmp_path / "good.npz"
    models.save(good)
    raw = bytearray(good.read_bytes())
    raw[len(raw) // 2] ^= 0xFF
    bad.write_bytes(bytes(raw))
    with pytest.raises(ModelError):
        GameModels.load(bad)
    monkeypatch.setenv("CRIB_ANALYZE_GAME_MODELS", str(tmp_path / "none.npz"))
    with pytest.raises(ModelError, match="CRIB_ANALYZE_GAME_MODELS"):
        game_model(game("three"))
    monkeypatch.delenv("CRIB_ANALYZE_GAME_MODELS")
    assert game_model(game("three", lowball=True)) is None
    assert game_model(game("four", partners=False)) is None
    with pytest.raises(UsageError, match="no expert throw model"):
        ca.analyze_rows(
            "5H 6S 4D JC QH", game=game("three", lowball=True), seat="dealer", others="expert"
        )


def test_discard_and_whole_games_throw_by_the_model_unless_told() -> None:
    """discard --game samples the other seats' throws by the model by default (a
    standard error, the model named); whole games default to the expert's throws, and
    the hand policy's throws are other games."""
    rows = ca.analyze_rows("5H 6S 4D JC QH", game="three", seat="dealer", samples=400)
    assert rows.meta.samples == 400 and "crib_se" in rows.columns
    exact = ca.analyze_rows("5H 6S 4D JC QH", game="three", seat="dealer", others="random")
    assert "crib_se" not in exact.columns
    expert = ca.simulate(game="three", games=30, seed=2, play_policy="greedy")
    hand = ca.simulate(game="three", games=30, seed=2, play_policy="greedy", throw_policy="hand")
    assert expert.as_dict()["settings"]["throws"].startswith("the game's expert model")
    assert hand.as_dict()["points_per_deal"] != expert.as_dict()["points_per_deal"]
    with pytest.raises(UsageError, match="throw_policy"):
        ca.simulate(games=2, throw_policy="hand")


@pytest.mark.heavy
def test_a_build_on_dask_is_the_same_model(monkeypatch: pytest.MonkeyPatch) -> None:
    """`build-game-models --scheduler`: each round's deals dealt on a Dask cluster's
    workers, in pieces (made small here), give the same model as a local build, and the
    pieces add up to the round's deals (a piece lost or dealt twice moves the model)."""
    distributed = pytest.importorskip("distributed")
    from crib_analyze.expert import game_models

    rules = game("five-dealt")
    monkeypatch.setattr(game_models, "MODEL_PIECE", 700)
    local, _ = build_game_model(rules, 2, 2000, 6)
    with distributed.LocalCluster(
        n_workers=1, processes=False, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        remote, _ = build_game_model(rules, 2, 2000, 6, scheduler=cluster.scheduler_address)
    assert np.array_equal(local.one, remote.one) and np.array_equal(local.two, remote.two)
    monkeypatch.setattr(game_models, "MODEL_PIECE", 2000)  # one piece a round: the sums
    whole, _ = build_game_model(rules, 2, 2000, 6)  # are of whole points, exact either way
    assert np.array_equal(whole.one, local.one) and np.array_equal(whole.two, local.two)
    with pytest.raises(UsageError, match="cannot reach"):
        build_game_model(rules, 2, 2000, 6, scheduler="tcp://127.0.0.1:9")
