"""The full discard table: classes, rows vs analyze(), chunks, resume, shards, crib tables."""

import os
from itertools import combinations, permutations
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from crib_analyze import analyze, load_table
from crib_analyze.api import check_table, generate_table, merge_tables
from crib_analyze.cards import canonical_hand, format_cards, parse_cards, relabel_suits
from crib_analyze.crib.hand_classes import N_CLASSES, N_RAW_HANDS, hand_classes
from crib_analyze.errors import StorageError, TableError, UsageError
from crib_analyze.frames import crib_table_frame
from crib_analyze.table.chunks import ChunkStore, parts_dir
from crib_analyze.table.spec import CHUNK_CLASSES, TableSpec, parse_shard
from tests.conftest import FULL, rotating
from tests.naive import naive_hand_scores

SMALL = 2 * CHUNK_CLASSES + 500  # three chunks, the last one short


def chunk_path(out: Path, k: int) -> Path:
    return ChunkStore(parts_dir(out), TableSpec(limit=SMALL)).path(k)


def test_class_counts() -> None:
    hc = hand_classes()
    assert len(hc.weight) == N_CLASSES == 962_988
    assert int(hc.weight.sum()) == N_RAW_HANDS == 20_358_520
    assert len(hc.multisets) == 18_395
    assert (np.diff(hc.cards.astype(int), axis=1) > 0).all()  # ascending, distinct


def naive_orbit(hand: tuple[int, ...]) -> set[tuple[int, ...]]:
    return {tuple(sorted(relabel_suits(hand, p))) for p in permutations(range(4))}  # type: ignore[arg-type]


def test_classes_are_canonical_with_orbit_weights() -> None:
    hc = hand_classes()
    rng = np.random.default_rng(0)
    picks = np.r_[np.arange(50), rng.choice(N_CLASSES, 400, replace=False), N_CLASSES - 1]
    for i in picks:
        hand = tuple(int(c) for c in hc.cards[i])
        assert canonical_hand(hand) == hand
        assert len(naive_orbit(hand)) == hc.weight[i]


def test_random_raw_hands_land_in_their_class() -> None:
    hc = hand_classes()
    index = {tuple(row): i for i, row in enumerate(hc.cards.tolist())}
    rng = np.random.default_rng(1)
    for _ in range(500):
        raw = rng.choice(52, 6, replace=False).tolist()
        canon = canonical_hand(raw)
        assert canon in index
        for p in permutations(range(4)):
            assert canonical_hand(relabel_suits(raw, p)) == canon  # type: ignore[arg-type]


def test_all_raw_hands_of_a_rank_multiset_are_covered() -> None:
    """Brute force over every raw hand with ranks A A 2 5 J J: classes and weights match."""
    ranks = [0, 0, 1, 4, 10, 10]
    cards_by_rank = [[4 * r + s for s in range(4)] for r in range(13)]
    counts: dict[tuple[int, ...], int] = {}
    for aces in combinations(cards_by_rank[0], 2):
        for jacks in combinations(cards_by_rank[10], 2):
            for two in cards_by_rank[1]:
                for five in cards_by_rank[4]:
                    hand = [*aces, two, five, *jacks]
                    canon = canonical_hand(hand)
                    counts[canon] = counts.get(canon, 0) + 1
    hc = hand_classes()
    ms = hc.multisets.tolist().index(ranks)
    mine = {
        tuple(int(c) for c in hc.cards[i]): int(hc.weight[i])
        for i in np.flatnonzero(hc.multiset == ms)
    }
    assert mine == counts


@pytest.fixture(scope="module")
def small_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("table") / "small.parquet"
    generate_table(out, limit=SMALL)
    return out


def test_rows_equal_analyze(small_table: Path) -> None:
    df = load_table(small_table)
    assert len(df) == 15 * SMALL
    rng = np.random.default_rng(2)
    for hand_id in [0, 1, *rng.choice(SMALL, 25, replace=False).tolist(), SMALL - 1]:
        rows = df[df["hand_id"] == hand_id].set_index("discard")
        hand = str(rows["hand"].iloc[0])
        assert hand == format_cards(hand_classes().cards[hand_id])
        ref = analyze(hand, opponent="random").set_index("discard")
        assert len(rows) == 15
        for col in ["hand_mean", "crib_mean", "dealer_heels", "dealer_net", "pone_net"]:
            np.testing.assert_allclose(
                rows[col].to_numpy(), ref.loc[rows.index, col].to_numpy(), atol=1e-12
            )
        assert (rows["keep"].astype(str) == ref.loc[rows.index, "keep"].astype(str)).all()
        if hand_id < 2:  # the kernels' hand numerators against the plain scorer
            cards = parse_cards(hand)
            for discard, row in rows.iterrows():
                kept = parse_cards(str(row["keep"]))
                assert row["hand_mean"] == pytest.approx(
                    np.mean(naive_hand_scores(cards, kept)), abs=1e-12
                ), discard
        for role in ("dealer", "pone"):
            net = rows[f"{role}_net"]
            expect = np.isclose(net, net.max(), rtol=0, atol=1e-9)
            assert (rows[f"{role}_best"].to_numpy() == expect).all()


def test_file_metadata_and_types(small_table: Path) -> None:
    meta = pq.read_metadata(small_table)
    assert meta.num_row_groups == 3
    df = load_table(small_table, columns=["hand", "d1", "weight"])
    assert list(df.columns) == ["hand", "d1", "weight"]
    assert str(df["d1"].dtype) == "int8"
    filtered = load_table(small_table, columns=["hand_id"], filters=[("dealer_best", "==", True)])
    assert filtered["hand_id"].nunique() == SMALL


def test_resume_after_interrupt_gives_the_same_file(tmp_path: Path, small_table: Path) -> None:
    out = tmp_path / "t.parquet"
    done: list[int] = []

    def stop_after_one(k: int, total: int) -> None:
        done.append(k)
        if len(done) == 1:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_table(out, limit=SMALL, on_chunk=stop_after_one)
    assert not out.exists()
    assert chunk_path(out, 0).exists()
    result = generate_table(out, limit=SMALL)
    assert (result.chunks_reused, result.chunks_computed) == (1, 2)
    assert not parts_dir(out).exists()
    assert pd.read_parquet(out).equals(pd.read_parquet(small_table))


def test_damaged_chunk_is_recomputed_foreign_chunk_refused(tmp_path: Path) -> None:
    out = tmp_path / "t.parquet"

    def stop(k: int, total: int) -> None:
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        generate_table(out, limit=SMALL, on_chunk=stop)
    chunk_path(out, 0).write_bytes(b"not parquet")
    warnings: list[str] = []
    with pytest.raises(KeyboardInterrupt):
        generate_table(out, limit=SMALL, on_chunk=stop, on_warning=warnings.append)
    assert warnings and "damaged chunk" in warnings[0]
    with pytest.raises(TableError, match="another run"):
        generate_table(out, limit=SMALL + 1)


def test_shards_merge_to_the_whole(tmp_path: Path, small_table: Path) -> None:
    shards = []
    for i in (1, 2):
        path = tmp_path / f"s{i}.parquet"
        generate_table(path, limit=SMALL, shard=f"{i}/2")
        shards.append(path)
    merged = tmp_path / "merged.parquet"
    assert merge_tables(shards, merged).rows == 15 * SMALL
    assert pd.read_parquet(merged).equals(pd.read_parquet(small_table))
    with pytest.raises(TableError, match="incomplete"):
        merge_tables(shards[:1], tmp_path / "x.parquet")
    with pytest.raises(TableError, match="in both"):
        merge_tables([shards[0], shards[0], shards[1]], tmp_path / "x.parquet")
    assert not (tmp_path / "x.parquet").exists()


def test_csv_output(tmp_path: Path, small_table: Path) -> None:
    out = tmp_path / "t.csv"
    generate_table(out, limit=CHUNK_CLASSES // 2)  # CSV from the name
    csv = pd.read_csv(out)
    ref = pd.read_parquet(small_table).head(len(csv))
    assert list(csv.columns) == list(ref.columns)
    assert (csv["hand"] == ref["hand"].astype(str)).all()
    np.testing.assert_array_equal(csv["crib_mean"], ref["crib_mean"])
    with pytest.raises(UsageError, match="named as csv but the format is parquet"):
        generate_table(tmp_path / "u.csv", limit=10, fmt="parquet")
    assert not (tmp_path / "u.csv").exists()


def test_spec_and_shard_validation() -> None:
    with pytest.raises(UsageError, match="unknown opponent model"):
        TableSpec(opponent="psychic")
    assert parse_shard("2/3") == (2, 3)
    for bad in ("0/2", "3/2", "x", "1/2/3"):
        with pytest.raises(UsageError):
            parse_shard(bad)
    with pytest.raises(UsageError, match="3 shards but only 1 chunk"):
        generate_table(Path("never-written.parquet"), limit=10, shard="1/3")


def test_crib_table_matches_a_plain_computation(small_table: Path) -> None:
    df = load_table(small_table)
    for role in ("dealer", "pone"):
        got = crib_table_frame(df, role).set_index("pair")
        assert len(got) == 91
        assert got.index.tolist()[:3] == ["A-A", "A-2", "A-3"]
        # plain version: per hand, share the weight among tied best rows
        sums: dict[str, list[float]] = {}
        best = df[df[f"{role}_best"]]
        ties: dict[int, int] = {}
        for hand_id in best["hand_id"].tolist():
            ties[hand_id] = ties.get(hand_id, 0) + 1
        columns = ("hand_id", "d1", "d2", "weight", "crib_mean")
        for hand_id, d1, d2, weight, crib in zip(*(best[c].tolist() for c in columns), strict=True):
            a, b = sorted((int(d1) // 4, int(d2) // 4))
            pair = f"{'A23456789TJQK'[a]}-{'A23456789TJQK'[b]}"
            w = weight / ties[hand_id]
            acc = sums.setdefault(pair, [0.0, 0.0])
            acc[0] += w
            acc[1] += w * crib
        for pair, (w, wc) in sums.items():
            assert got.loc[pair, "crib_mean"] == pytest.approx(wc / w, rel=1e-12)
            assert got.loc[pair, "hands"] == pytest.approx(w)
        assert got["share"].sum() == pytest.approx(1.0)


@pytest.mark.slow
def test_full_table(tmp_path: Path) -> None:
    """The complete table: row count, weight sum, no duplicate (hand, discard). In make
    test, one rotating shard of a chunk: its rows, hands and weights."""
    if FULL:
        out = tmp_path / "full.parquet"
        result = generate_table(out)
        assert result.rows == 14_444_820
        found = check_table(out)
        assert (found.rows, found.classes, found.weight_sum) == (14_444_820, 962_988, 20_358_520)
        assert (found.sample, found.checksums) == (False, True)
        return
    n_shards = TableSpec().n_chunks  # one chunk each
    (i,) = rotating(range(1, n_shards + 1), 1, "full-table-shard")
    out = tmp_path / "shard.parquet"
    result = generate_table(out, shard=(i, n_shards))
    lo, hi = TableSpec().chunk_range(i - 1)
    assert result.rows == 15 * (hi - lo)
    df = load_table(out, columns=["hand_id", "weight", "dealer_best", "pone_best"])
    assert sorted(set(df["hand_id"])) == list(range(lo, hi))
    assert df.groupby("hand_id").size().eq(15).all()
    first = df.groupby("hand_id")["weight"].first()
    assert int(first.sum()) == int(hand_classes().weight[lo:hi].astype(np.int64).sum())
    for role in ("dealer", "pone"):
        assert df.groupby("hand_id")[f"{role}_best"].any().all()


def test_expert_table_rows_equal_analyze(tmp_path: Path) -> None:
    out = tmp_path / "expert.parquet"
    generate_table(out, opponent="expert", limit=1500)
    df = load_table(out)
    assert "crib_mean" not in df.columns
    meta = pq.read_metadata(out).metadata
    assert b"expert" in meta[b"crib_analyze"]
    for hand_id in (0, 700, 1499):
        rows = df[df["hand_id"] == hand_id].set_index("discard")
        ref = analyze(str(rows["hand"].iloc[0]), opponent="expert").set_index("discard")
        for col in ["hand_mean", "dealer_crib_mean", "pone_crib_mean", "dealer_net", "pone_net"]:
            np.testing.assert_allclose(
                rows[col].to_numpy(), ref.loc[rows.index, col].to_numpy(), atol=1e-9
            )
        for role in ("dealer", "pone"):
            net = rows[f"{role}_net"]
            expect = np.isclose(net, net.max(), rtol=0, atol=1e-9)
            assert (rows[f"{role}_best"].to_numpy() == expect).all()
    crib = crib_table_frame(df, "pone", crib_column="pone_crib_mean")
    assert len(crib) == 91


def test_first_ctrl_c_finishes_the_chunk_then_stops(tmp_path: Path) -> None:
    """SIGINT is deferred to a chunk boundary (never inside a numba kernel)."""
    import os
    import signal

    out = tmp_path / "t.parquet"
    seen: list[int] = []

    def interrupt_once(done: int, total: int) -> None:
        seen.append(done)
        if len(seen) == 1:
            os.kill(os.getpid(), signal.SIGINT)  # handled: only a request to stop

    before = signal.getsignal(signal.SIGINT)  # SIG_IGN when started in the background
    with pytest.raises(KeyboardInterrupt):
        generate_table(out, limit=SMALL, on_chunk=interrupt_once)
    assert seen == [1]
    assert chunk_path(out, 0).exists()
    assert signal.getsignal(signal.SIGINT) is before  # the handler put back


def test_check_reads_the_data_and_reports_a_sample(tmp_path: Path, small_table: Path) -> None:
    found = check_table(small_table)
    assert (found.rows, found.classes, found.sample, found.checksums) == (
        15 * SMALL,
        SMALL,
        True,
        True,
    )
    assert found.weight_sum == int(hand_classes().weight[:SMALL].astype(np.int64).sum())
    # overwrite 20 KB in the middle of the file (inside column data): check must notice
    damaged = tmp_path / "damaged.parquet"
    data = bytearray(small_table.read_bytes())
    mid = len(data) // 2
    data[mid : mid + 20_000] = bytes(20_000)
    damaged.write_bytes(bytes(data))
    with pytest.raises(TableError, match=r"damaged|checksum"):
        check_table(damaged)
    with pytest.raises(TableError, match="no discard table"):
        check_table(tmp_path / "missing.parquet")
    (tmp_path / "junk.parquet").write_text("not a table")
    with pytest.raises(TableError, match="not a crib-analyze table"):
        check_table(tmp_path / "junk.parquet")


def test_check_catches_flipped_values_that_still_decode(tmp_path: Path, small_table: Path) -> None:
    """A change that leaves the file readable (a value rewritten) fails the checksum."""
    import pyarrow as pa

    table = pq.read_table(small_table)
    meta = {b"crib_analyze": pq.read_metadata(small_table).metadata[b"crib_analyze"]}
    values = table.column("dealer_net").to_numpy().copy()
    values[123] += 1.0
    changed = table.set_column(
        table.schema.get_field_index("dealer_net"), "dealer_net", pa.array(values)
    ).replace_schema_metadata(meta)
    out = tmp_path / "changed.parquet"
    pq.write_table(changed, out, row_group_size=15 * CHUNK_CLASSES)
    with pytest.raises(TableError, match="dealer_net of row group 0 does not match its checksum"):
        check_table(out)
    # every reader checks what it reads as it streams: never a different answer
    from crib_analyze.api import load_table

    with pytest.raises(TableError, match="dealer_net of row group 0 does not match"):
        load_table(out, columns=["hand_id", "dealer_net"])
    with pytest.raises(TableError, match="dealer_net of row group 0 does not match"):
        load_table(out, filters=[("hand_id", "==", 3)])
    assert len(load_table(out, columns=["hand_id", "pone_net"])) == len(table)  # not read


@pytest.mark.parametrize(
    "target",
    ["readonly/t.parquet", "file/t.parquet", "/sys/t.parquet", "/proc/t.parquet"],
)
def test_unwritable_outputs_are_storage_errors(tmp_path: Path, target: str) -> None:
    (tmp_path / "readonly").mkdir()
    (tmp_path / "readonly").chmod(0o500)
    (tmp_path / "file").write_text("a regular file")
    path = Path(target) if target.startswith("/") else tmp_path / target
    try:
        if os.geteuid() == 0 and target.startswith("readonly"):
            pytest.skip("root can write into a read-only folder")
        with pytest.raises(StorageError, match="cannot"):
            generate_table(path, limit=10)
    finally:
        (tmp_path / "readonly").chmod(0o700)


def test_lookup_finds_a_hand_in_any_suits(small_table: Path) -> None:
    from crib_analyze.api import lookup

    rng = np.random.default_rng(12)
    hc = hand_classes()
    for hand_id in rng.choice(SMALL, 6, replace=False):
        canon = [int(c) for c in hc.cards[hand_id]]
        perm = tuple(int(x) for x in rng.permutation(4))
        hand = relabel_suits(canon, perm)  # type: ignore[arg-type]
        rows = lookup(hand, small_table, role="pone")
        assert rows.attrs["hand_id"] == hand_id
        assert rows.attrs["opponent"] == "random" and rows.attrs["version"]
        assert set(rows["hand"]) == {format_cards(hand)}  # in the player's order
        ref = analyze(hand, role="pone", opponent="random")
        mine = rows.set_index(rows["discard"].map(lambda d: frozenset(d.split())))
        theirs = ref.set_index(ref["discard"].map(lambda d: frozenset(d.split())))
        assert set(mine.index) == set(theirs.index)  # the same 15 throws, in the hand's suits
        for col in ("hand_mean", "crib_mean", "pone_net", "dealer_net"):
            np.testing.assert_allclose(
                mine[col].to_numpy(), theirs.loc[mine.index, col].to_numpy(), atol=1e-12
            )
        assert rows["pone_total"].is_monotonic_decreasing  # ranked as the live analysis
        for d, k in zip(rows["discard"], rows["keep"], strict=True):
            assert sorted(parse_cards(f"{d} {k}")) == sorted(hand)
    with pytest.raises(TableError, match="no rows for this hand"):
        lookup("KC KD KH QS QC JD", small_table)


def test_load_table_reads_csv_with_its_metadata(tmp_path: Path) -> None:
    out = tmp_path / "t.csv"
    generate_table(out, limit=40)
    assert (tmp_path / "t.csv.meta.json").is_file()
    frame = load_table(out, columns=["hand_id", "crib_mean"], filters=[("hand_id", "<", 3)])
    assert len(frame) == 45
    assert frame.attrs["opponent"] == "random" and frame.attrs["rows"] == 600
    assert frame.attrs["file_format"] == "csv"
    parquet = tmp_path / "t.parquet"
    generate_table(parquet, limit=40)
    same = load_table(parquet, columns=["hand_id", "crib_mean"], filters=[("hand_id", "<", 3)])
    np.testing.assert_array_equal(same["crib_mean"], frame["crib_mean"])
    assert same.attrs["file_format"] == "parquet" and same.attrs["classes"] == 40
