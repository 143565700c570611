"""The standard discard table under the variants it ranks by: a penalty for a show of
nothing (the chances of a zero as columns, the nets counting the rule) and lowball (the
fewest points best, the play not counted); those it does not play are refused."""

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from crib_analyze import analyze, game, load_table, lookup
from crib_analyze.api import check_table, crib_table, generate_table, merge_tables
from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.cards import format_cards, parse_cards
from crib_analyze.cli import cli
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.crib.hand_kernels import DISCARDS
from crib_analyze.crib.zero_kernels import class_zero_counts
from crib_analyze.errors import TableError, UsageError
from crib_analyze.position import Seat
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import default_table_path
from crib_analyze.table.compute import PLAY_COLUMNS, compute_chunk, zero_chances
from crib_analyze.table.spec import CHUNK_CLASSES, TableSpec
from tests.conftest import FULL, rotating
from tests.naive import naive_zero_chances

#: (hand, throw): each way a crib of nothing is lost to the suits, and a pair
ZERO_CASES = [
    ("2H 7H 9C KD 4S QC", "2H 7H"),  # thrown suited: a five-card flush
    ("JH 3C 8D 9S KS 6C", "JH 3C"),  # a thrown jack: nobs with a heart starter
    ("JH 6H 8D 9S KS 2C", "JH 6H"),  # a thrown suited jack: flush and nobs at once
    ("2C 9D 6H 4S KS 8D", "2C 9D"),  # the opponent's jack
    ("JC JD 2S 7S 9H QH", "2S 7S"),  # two jacks held: fewer for the opponent
    ("4H 4S 9C KD AS QC", "4H 4S"),  # a pair: never nothing
    ("AH 6H 8H TH 3C QS", "3C QS"),  # keep a four-card flush
    ("JS 2D 7C 9H 4C KD", "4C KD"),  # keep a jack: nobs
    ("5H 6S 4D JC QH 5C", "QH 5C"),
    ("TC KD 2H 8S 3C 7D", "TC KD"),
]


@pytest.mark.parametrize("hand, thrown", rotating(ZERO_CASES, 2, "zero-cases"))
def test_zero_counts_equal_dealing_every_starter_and_crib(hand: str, thrown: str) -> None:
    cards = parse_cards(hand)
    hand_zero, crib_zero = class_zero_counts(rank_table(), np.array([cards], np.int64))
    d = [sorted(cards[i] for i in pair) for pair in DISCARDS].index(sorted(parse_cards(thrown)))
    p_hand, p_crib = naive_zero_chances(cards, parse_cards(thrown))
    assert hand_zero[0, d] / 46 == pytest.approx(p_hand, abs=1e-12)
    assert crib_zero[0, d] / 45_540 == pytest.approx(p_crib, abs=1e-12)


def test_kept_hands_zero_equals_every_starter_for_every_throw() -> None:
    for hand, _ in rotating(ZERO_CASES, 4, "zero-hands"):
        cards = parse_cards(hand)
        hand_zero, _ = class_zero_counts(rank_table(), np.array([cards], np.int64))
        for d, pair in enumerate(DISCARDS):
            thrown = [cards[i] for i in pair]
            kept = [c for c in cards if c not in thrown]
            rest = [c for c in range(52) if c not in cards]
            from tests.naive import naive_score

            expect = sum(naive_score(kept, s) == 0 for s in rest)
            assert hand_zero[0, d] == expect, (hand, format_cards(thrown))


def expert_zero(cards: list[int]) -> np.ndarray:
    """(2, 15) the expert's P(crib 0) by seat of one hand, through the table's path."""
    model = packaged_model()
    spec = TableSpec("expert", model_fingerprint=model.fingerprint(), penalty="zero")
    classes = hand_classes()
    ranks = tuple(sorted(c >> 2 for c in cards))
    multiset = [tuple(m) for m in classes.multisets.tolist()].index(ranks)
    return zero_chances(spec, np.array([cards]), model, np.array([multiset]))[1][:, 0]


@pytest.mark.parametrize("hand, thrown", rotating(ZERO_CASES, 1, "expert-zero-cases"))
def test_expert_crib_zero_equals_summing_the_plain_joint(hand: str, thrown: str) -> None:
    """The closed form against the expert's joint written from the model's rules,
    every (opponent pair, starter) scored by the plain scorer."""
    from crib_analyze.crib.hand_kernels import unseen_counts
    from crib_analyze.crib.throw_policy_kernels import policy_weights
    from tests.naive import naive_pair_starter_joint, naive_score

    cards = parse_cards(hand)
    ours = parse_cards(thrown)
    d = [sorted(cards[i] for i in pair) for pair in DISCARDS].index(sorted(ours))
    model = packaged_model()
    n_rank, _, _ = unseen_counts(np.array(cards, np.int64))
    multisets = hand_classes().multisets.astype(np.int64)
    got = expert_zero(cards)
    for seat in Seat:  # the holder's seat, as the table's rows are by role
        policy = model.opponent_policy(seat)
        W, F = policy_weights(multisets, policy.pi, policy.suited, n_rank)
        joint = naive_pair_starter_joint(cards, W.tolist(), F.tolist())
        want = sum(
            p for (e1, e2, s), p in joint.items() if naive_score([*ours, e1, e2], s, True) == 0
        )
        assert got[seat, d] == pytest.approx(want, abs=1e-12), seat.role


def test_expert_crib_zero_equals_the_discards_enumeration() -> None:
    """Every throw of the cases and of random hands against the discard command's
    path, which scores each entry of the explicit joint."""
    from crib_analyze.discard.penalties import crib_zero_chances

    model = packaged_model()
    classes = hand_classes()
    rng = np.random.default_rng(11)
    hands = [parse_cards(h) for h, _ in ZERO_CASES]
    hands += [classes.cards[i].tolist() for i in rng.choice(len(classes.cards), 12)]
    for cards in hands:
        want = crib_zero_chances(np.array(cards, np.int64), "expert", model)
        np.testing.assert_allclose(expert_zero(cards), want, atol=1e-12, err_msg=str(cards))


def middle_chunk(spec: TableSpec, salt: str) -> int:
    """A chunk of the whole table away from the first (whose hands are all aces)."""
    return rotating(list(range(20, 90)), 1, salt)[0]


def rows_of(columns: dict[str, np.ndarray], hand_id: int) -> pd.DataFrame:
    frame = pd.DataFrame(columns)
    rows = frame[frame["hand_id"] == hand_id].copy()
    cards = hand_classes().cards[hand_id]
    rows["discard"] = [format_cards(sorted((a, b))) for a, b in zip(rows.d1, rows.d2, strict=True)]
    assert len(rows) == 15 and len(cards) == 6
    return rows.set_index("discard")


@pytest.mark.parametrize("penalty", ["zero", "back-ten"])
def test_penalty_rows_equal_the_live_analysis(penalty: str) -> None:
    spec = TableSpec(penalty=penalty)
    k = middle_chunk(spec, f"penalty-{penalty}")
    columns = compute_chunk(spec, k)
    lo, hi = spec.chunk_range(k)
    rng = np.random.default_rng(k)
    for hand_id in rng.choice(np.arange(lo, hi), 30 if FULL else 6, replace=False):
        rows = rows_of(columns, int(hand_id))
        hand = format_cards(hand_classes().cards[hand_id])
        for role in ("dealer", "pone"):
            ref = analyze(hand, role=role, opponent="random", penalty=penalty)
            ref["discard"] = [format_cards(sorted(parse_cards(d))) for d in ref["discard"]]
            ref = ref.set_index("discard").loc[rows.index]
            pairs = {
                "p_hand_zero": "p_hand_zero", "p_crib_zero": "p_crib_zero",
                f"{role}_penalty": "penalty", f"{role}_net": "net", f"{role}_total": "total",
            }  # fmt: skip
            for mine, theirs in pairs.items():
                np.testing.assert_allclose(rows[mine], ref[theirs], atol=1e-12, err_msg=mine)
            net = rows[f"{role}_net"]
            assert (rows[f"{role}_best"] == np.isclose(net, net.max(), rtol=0, atol=1e-9)).all()


def test_expert_penalty_rows_equal_the_live_analysis(tmp_path: Path) -> None:
    out = tmp_path / "expert-zero.parquet"
    generate_table(out, opponent="expert", limit=60, game=game("standard", penalty="zero"))
    df = load_table(out)
    assert {"dealer_p_crib_zero", "pone_p_crib_zero", "p_hand_zero"} <= set(df.columns)
    assert "p_crib_zero" not in df.columns
    for hand_id in (7, 41, 59):
        rows = df[df["hand_id"] == hand_id].set_index("discard")
        for role in ("dealer", "pone"):
            ref = analyze(str(rows["hand"].iloc[0]), role=role, opponent="expert", penalty="zero")
            ref = ref.set_index("discard").loc[rows.index]
            for mine, theirs in ((f"{role}_p_crib_zero", "p_crib_zero"), (f"{role}_net", "net"),
                                 (f"{role}_penalty", "penalty")):  # fmt: skip
                np.testing.assert_allclose(rows[mine], ref[theirs], atol=1e-9, err_msg=mine)
    assert df.attrs["penalty"] == "zero" and packaged_model().fingerprint() == df.attrs["model"]


def test_lowball_best_is_the_fewest_points_and_the_play_is_not_counted() -> None:
    spec = TableSpec(lowball=True)
    k = middle_chunk(spec, "lowball")
    columns = compute_chunk(spec, k)
    assert not set(PLAY_COLUMNS) & set(columns)
    lo, hi = spec.chunk_range(k)
    for hand_id in np.random.default_rng(k).choice(np.arange(lo, hi), 12, replace=False):
        rows = rows_of(columns, int(hand_id))
        hand = format_cards(hand_classes().cards[hand_id])
        for role in ("dealer", "pone"):
            ref = analyze(hand, role=role, opponent="random", pegging=False, lowball=True)
            best = format_cards(sorted(parse_cards(str(ref["discard"].iloc[0]))))
            assert rows.loc[best, f"{role}_best"], (hand, role)
            net = rows[f"{role}_net"]
            assert (rows[f"{role}_best"] == np.isclose(net, net.min(), rtol=0, atol=1e-9)).all()


def test_a_variant_table_file_checks_looks_up_and_makes_crib_tables(tmp_path: Path) -> None:
    rules = game("standard", lowball=True, penalty="back-ten")
    result = generate_table(limit=40, game=rules)
    named = default_table_path("random", "parquet", "back-ten", lowball=True)
    assert result.output.name == named.stem + ".sample-40.parquet"
    check = check_table(result.output)
    assert check.variants == ("lowball", "penalty back-ten")
    assert "lowball, penalty back-ten" in check.summary
    rows = lookup(format_cards(hand_classes().cards[30]), result.output, role="dealer")
    nets = rows["dealer_net"].to_numpy()
    assert (np.diff(nets) >= -1e-12).all()  # the fewest first
    assert rows["dealer_loss"].iloc[0] == 0 and (rows["dealer_loss"] >= 0).all()
    assert "fewer than" in rows.attrs["meta"].verdicts["dealer"]
    assert "lowball, penalty back-ten" in rows.attrs["meta"].source
    crib = crib_table("dealer", table=result.output, partial=True)
    assert len(crib) == 91
    plain = generate_table(tmp_path / "plain.parquet", limit=40)
    assert check_table(plain.output).variants == ()


@pytest.mark.parametrize(
    "args, words",
    [
        (["--jokers", "1", "--limit", "5"], "--limit does not go with --jokers 1"),
        (
            ["--penalty", "zero", "--game", "three"],
            "the zero penalty gives the point to the opponent: three has 3 sides",
        ),
    ],
)
def test_variants_the_table_does_not_play_are_one_line_refusals(
    args: list[str], words: str
) -> None:
    result = CliRunner().invoke(cli, ["table", *args])
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert "Traceback" not in result.output


def test_refusals_through_the_api() -> None:
    with pytest.raises(UsageError, match=r"^`limit` does not go with `jokers`"):
        generate_table(limit=5, game=game("standard", jokers=1))


def test_throw_fives_cribs_equal_the_discards_joint() -> None:
    """The table's throw-fives crib (the opponent's weights by how many fives it throws
    and whether the starter is one) against the discard command's explicit joint."""
    from crib_analyze.crib.zero_kernels import classes_throw_fives_cribs
    from crib_analyze.discard.throw_fives import throw_fives_values

    classes = hand_classes()
    with_fives = np.flatnonzero((classes.cards >> 2 == 4).any(axis=1))
    rng = np.random.default_rng(int(rotating(list(range(1000)), 1, "fives-cribs")[0]))
    chosen = rng.choice(with_fives, 40 if FULL else 8, replace=False)
    cards = classes.cards[chosen].astype(np.int64)
    mean, zero = classes_throw_fives_cribs(rank_table(), cards)
    for i, hand in enumerate(cards):
        cribs, zeros, _ = throw_fives_values(hand, True)
        assert zeros is not None
        np.testing.assert_allclose(mean[i], cribs[0], atol=1e-11)
        np.testing.assert_allclose(zero[i], zeros[0], atol=1e-11)


@pytest.mark.parametrize(
    "opponent, options",
    [
        ("random", {"throw_fives": True}),
        ("expert", {"throw_fives": True, "penalty": "zero"}),
        ("expert", {"lowball": True}),
    ],
)
def test_a_tables_throws_under_a_variant_equal_the_live_analysis(
    opponent: str, options: dict[str, object], tmp_path: Path
) -> None:
    out = tmp_path / "t.parquet"
    generate_table(out, opponent=opponent, limit=300, game=game("standard", **options))  # type: ignore[arg-type]
    df = load_table(out)
    assert not set(PLAY_COLUMNS) & set(df.columns)
    assert ("legal" in df.columns) == bool(options.get("throw_fives"))
    hands = rotating(list(range(0, 300, 7)), 8, f"variant-table-{opponent}-{sorted(options)}")
    for hand_id in hands:
        rows = df[df["hand_id"] == hand_id]
        hand = str(rows["hand"].iloc[0])
        for role in ("dealer", "pone"):
            ref = analyze(hand, role=role, opponent=opponent, **options)  # type: ignore[arg-type]
            by_throw = {frozenset(str(d).split()): r for d, (_, r) in
                        zip(ref["discard"], ref.iterrows(), strict=True)}  # fmt: skip
            crib = "crib_mean" if opponent == "random" else f"{role}_crib_mean"
            for _, row in rows.iterrows():
                thrown = frozenset(str(row["discard"]).split())
                if "legal" in rows.columns and not row["legal"]:
                    assert thrown not in by_throw and not row[f"{role}_best"]
                    continue
                want = by_throw[thrown]
                assert row[crib] == pytest.approx(want["crib_mean"], abs=1e-10)
                assert row[f"{role}_net"] == pytest.approx(want["net"], abs=1e-10)
            best = {frozenset(str(d).split()) for d in rows[rows[f"{role}_best"]]["discard"]}
            assert frozenset(str(ref["discard"].iloc[0]).split()) in best, (hand, role)
    if options.get("throw_fives"):  # a lookup shows the legal throws, as discard does
        fives = df[df["hand"].astype(str).str.count("5") == 1]["hand_id"].iloc[0]
        hand = str(df[df["hand_id"] == fives]["hand"].iloc[0])
        found = lookup(hand, out, role="dealer")
        assert len(found) == 5 and found["discard"].str.contains("5").all()


def test_a_plain_tables_columns_and_fingerprint_are_as_before() -> None:
    plain = TableSpec()
    assert "penalty" not in plain.fingerprint() and "lowball" not in plain.fingerprint()
    assert TableSpec(penalty="zero").fingerprint()["penalty"] == "zero"
    columns = compute_chunk(TableSpec(limit=CHUNK_CLASSES), 0)
    assert "p_hand_zero" not in columns and set(PLAY_COLUMNS) <= set(columns)


def test_shards_of_different_variants_do_not_merge(tmp_path: Path) -> None:
    limit = CHUNK_CLASSES + 50  # two chunks: a shard each
    zero = generate_table(tmp_path / "a.parquet", limit=limit, shard="1/2",
                          game=game("standard", penalty="zero"))  # fmt: skip
    ten = generate_table(tmp_path / "b.parquet", limit=limit, shard="2/2",
                         game=game("standard", penalty="back-ten"))  # fmt: skip
    with pytest.raises(TableError, match="is from another run"):
        merge_tables([zero.output, ten.output], tmp_path / "mixed.parquet")
    assert not (tmp_path / "mixed.parquet").exists()


def test_throw_fives_lowball_with_the_random_opponent_and_names_kept_apart(
    tmp_path: Path,
) -> None:
    both = generate_table(tmp_path / "both.parquet", limit=5,
                          game=game("standard", lowball=True, throw_fives=True))  # fmt: skip
    assert check_table(both.output).variants == ("lowball", "throw fives")
    for rules, other in [
        (game("standard"), default_table_path("random", "parquet", "zero")),
        (game("standard", penalty="zero"), default_table_path("random", "parquet", lowball=True)),
    ]:  # a sample never takes a full table's name, of whatever variant
        with pytest.raises(UsageError, match="would take the full table's name"):
            generate_table(other, limit=3, game=rules)
