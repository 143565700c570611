"""The one place that builds pandas DataFrames: fixed columns, fixed dtypes.

A discard frame has the columns of :mod:`crib_analyze.discard.ranking` (documented
there), one row per discard, best first; text columns are pandas ``string``, flags
``bool``, and ``df.attrs`` records the role, opponent model, expert model, sampling and
sort key. Every result the engines return as :class:`~crib_analyze.results.Rows` (a
discard ranking, a scored play, play advice, a seat's splits in any game) becomes a frame
by :func:`rows_frame`, its text columns ``string``; the other frames: the pegging table,
the board's positions, points per deal, a discard table read from a file, and crib
tables.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from crib_analyze.cards import RANKS
from crib_analyze.discard.engine import rank_order
from crib_analyze.errors import TableError
from crib_analyze.results import Rows, with_meta
from crib_analyze.settings import Role, default_table_path, packaged_crib_table
from crib_analyze.table.meta import CribTableMeta, LookupMeta, unchecked_words

if TYPE_CHECKING:
    from crib_analyze.artifacts.board_table import BoardTable
    from crib_analyze.artifacts.pegging_table import PeggingTable


def rows_frame(rows: Rows) -> pd.DataFrame:
    """The DataFrame of :class:`~crib_analyze.results.Rows` (same columns and attrs, and
    the typed metadata in ``attrs["meta"]``)."""
    data = {
        name: _strings(values) if values.dtype == object else values
        for name, values in rows.columns.items()
    }
    frame = pd.DataFrame(data)
    frame.attrs.update(rows.attrs)
    return frame if rows.meta is None else with_meta(frame, rows.meta)


def _strings(values: np.ndarray) -> Any:
    """A text column as pandas ``string`` (its pyarrow storage), built from an Arrow
    array: a quarter of ``pd.array(..., dtype="string")``'s time, the same array."""
    import pyarrow as pa

    try:
        return pd.arrays.ArrowStringArray(pa.array(values.tolist(), type=pa.large_string()))
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError, ValueError):  # not all text
        return pd.array(values.tolist(), dtype="string")


# --- the full table ----------------------------------------------------------------------


#: metadata of a table file that is not shown in a frame's attrs (checksums, digests)
HIDDEN_META = ("checksums", "column_checksums", "chunks", "meta_digest", "file_digest")


def read_table_frame(
    path: str | os.PathLike[str] | None = None,
    columns: list[str] | None = None,
    filters: Any = None,
    verify: bool = True,
    trust_unverified: bool = False,
) -> pd.DataFrame:
    """Load a discard table, Parquet or CSV (by its name), with only the columns asked
    for and pyarrow row ``filters``; the default is the random-opponent table in the
    user data directory. ``df.attrs`` holds the file's metadata (version, opponent
    model, rows, created_at, ...) and ``coverage`` (what part of every hand it holds,
    None for all).

    The data is checked as it is read (:func:`~crib_analyze.table.file.read_table_data`:
    a Parquet file's metadata against its digest, every row group read against its
    page CRCs and stored checksum; a CSV file against the digest beside it): damage is
    a TableError, never a different answer. ``verify=False`` skips the data checks. A
    file without its provenance (nothing to check it against) is refused unless
    ``trust_unverified``; ``attrs["unverified"]`` then says what it lacks.
    """
    from crib_analyze.table.file import coverage, read_table_data, read_table_metadata

    source = Path(path) if path is not None else default_table_path()
    if not source.exists():  # there, but not a file: the reader says what it is
        raise TableError(f"no discard table at {source}: generate it with 'crib-analyze table'")
    csv = source.suffix.lower() == ".csv"
    meta = read_table_metadata(source, trust_unverified)
    table = read_table_data(source, meta, columns, filters, verify)
    frame: pd.DataFrame = table.to_pandas()
    frame.attrs.update(
        {k: v for k, v in meta.items() if k not in HIDDEN_META}
        | {"path": str(source), "file_format": "csv" if csv else "parquet"}
        | {"coverage": coverage(meta)}
    )
    return frame


def lookup_frame(
    hand: list[int],
    path: str | os.PathLike[str] | None = None,
    role: Role | None = None,
    trust_unverified: bool = False,
) -> pd.DataFrame:
    """A hand's 15 rows of a discard table, found through its suit class and written in
    the hand's own suits; best first for ``role`` (the dealer's net with no role)."""
    from crib_analyze.cards import canonical_form, format_card
    from crib_analyze.crib.hand_classes import class_index
    from crib_analyze.discard.verdict import points_verdict

    canon, perm = canonical_form(hand)
    hand_id = class_index(canon)
    frame = read_table_frame(
        path, filters=[("hand_id", "==", hand_id)], trust_unverified=trust_unverified
    )
    attrs = dict(frame.attrs)
    from crib_analyze.table.file import standard_table, table_variants

    standard_table(Path(str(attrs.get("path"))), attrs, "table lookup")
    if len(frame) != 15:
        part = frame.attrs.get("coverage") or "a table without all of its rows"
        raise TableError(
            f"{frame.attrs.get('path')} has no rows for this hand (class {hand_id:,}): it is {part}"
        )
    back = np.empty(4, np.int64)
    back[list(perm)] = np.arange(4)  # canonical suit -> the hand's suit
    ids = ["d1", "d2", "k1", "k2", "k3", "k4"]
    cards = frame[ids].to_numpy(np.int64)
    cards = 4 * (cards // 4) + back[cards % 4]
    cards[:, :2].sort(axis=1)
    cards[:, 2:].sort(axis=1)
    text = np.array([format_card(c) for c in range(52)], dtype=object)
    frame = frame.copy()
    for i, name in enumerate(ids):
        frame[name] = cards[:, i].astype(frame[name].dtype)
    order = {c: i for i, c in enumerate(hand)}  # the cards in the order they were given
    thrown = [sorted(p, key=order.__getitem__) for p in cards[:, :2].tolist()]
    kept = [sorted(k, key=order.__getitem__) for k in cards[:, 2:].tolist()]
    frame["hand"] = pd.array([" ".join(text[hand])] * 15, dtype="string")
    frame["discard"] = pd.array([" ".join(text[p]) for p in thrown], dtype="string")
    frame["keep"] = pd.array([" ".join(text[k]) for k in kept], dtype="string")
    frame = frame.reset_index(drop=True)
    value = "total" if "dealer_total" in frame.columns else "net"  # as the live analysis
    aim = -1 if attrs.get("lowball") else 1  # lowball: the fewest points is best
    # ties fall to the live analysis's order: the thrown cards' places in the hand
    places = sorted(range(15), key=lambda i: sorted(order[c] for c in thrown[i]))
    frame = frame.iloc[places].reset_index(drop=True)
    frame = frame.iloc[rank_order([aim * frame[f"{role or 'dealer'}_{value}"].to_numpy()])]
    frame = frame.reset_index(drop=True)
    if "legal" in frame.columns:  # throw fives: the throws the rule allows, as discard shows
        frame = frame[frame["legal"].to_numpy(bool)].reset_index(drop=True)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1))
    legal = np.ones(len(frame), bool)
    verdicts = {}
    for r in [role] if role else ["dealer", "pone"]:
        worth = aim * frame[f"{r}_{value}"].to_numpy()
        said, _ = points_verdict(r, worth, list(frame.discard), list(frame.keep), legal, aim < 0)
        frame[f"{r}_loss"] = worth.max() - worth
        verdicts[r] = said
    unverified = attrs.get("unverified")
    meta = LookupMeta(
        role=role, hand_id=hand_id, value=value, verdicts=verdicts, path=str(attrs.get("path")),
        version=str(attrs.get("version", "?")), opponent=str(attrs.get("opponent", "?")),
        coverage=attrs.get("coverage"), unverified=unverified, variants=table_variants(attrs),
        verdict="\n".join(verdicts.values()),
        notes=(unchecked_words(unverified),) if unverified else (),
    )  # fmt: skip
    frame.attrs = dict(attrs)
    return with_meta(frame, meta)


CRIB_TABLE_COLUMNS = [
    "pair",
    "rank1",
    "rank2",
    "crib_mean",
    "crib_suited",
    "crib_unsuited",
    "hands",
    "share",
]


def crib_table_frame(
    table: pd.DataFrame, role: Role, crib_column: str = "crib_mean"
) -> pd.DataFrame:
    """The 91 thrown rank pairs with the weighted mean crib of the discards ``role`` chooses.

    ``table`` needs the columns hand_id, weight, d1, d2, ``crib_column`` and
    ``{role}_best`` (expert tables hold ``dealer_crib_mean`` / ``pone_crib_mean``).
    Each hand counts with its class weight (raw hands), shared equally between tied
    best discards. ``hands`` is that weighted count, ``share`` its fraction of all
    hands; ``crib_suited`` / ``crib_unsuited`` split the pair by suitedness.
    """
    best = table[table[f"{role}_best"]]
    ties = best.groupby("hand_id", observed=True)["hand_id"].transform("size")
    w = best["weight"].to_numpy(np.float64) / ties.to_numpy(np.float64)
    d1, d2 = best["d1"].to_numpy(np.int64), best["d2"].to_numpy(np.int64)
    r1, r2 = np.minimum(d1 // 4, d2 // 4), np.maximum(d1 // 4, d2 // 4)
    work = pd.DataFrame(
        {
            "r1": r1,
            "r2": r2,
            "suited": d1 % 4 == d2 % 4,
            "w": w,
            "wc": w * best[crib_column].to_numpy(np.float64),
        }
    )
    pairs = pd.MultiIndex.from_tuples(
        [(a, b) for a in range(13) for b in range(a, 13)], names=["r1", "r2"]
    )
    total = work.groupby(["r1", "r2"])[["w", "wc"]].sum().reindex(pairs)
    suited_rows = work["suited"].to_numpy()
    suited = work[suited_rows].groupby(["r1", "r2"])[["w", "wc"]].sum().reindex(pairs)
    unsuited = work[~suited_rows].groupby(["r1", "r2"])[["w", "wc"]].sum().reindex(pairs)
    ranks = np.array(list(RANKS))
    r1_idx = pairs.get_level_values("r1").to_numpy()
    r2_idx = pairs.get_level_values("r2").to_numpy()
    out = pd.DataFrame(
        {
            "pair": [f"{a}-{b}" for a, b in zip(ranks[r1_idx], ranks[r2_idx], strict=True)],
            "rank1": ranks[r1_idx],
            "rank2": ranks[r2_idx],
            "crib_mean": (total["wc"] / total["w"]).to_numpy(),
            "crib_suited": (suited["wc"] / suited["w"]).to_numpy(),
            "crib_unsuited": (unsuited["wc"] / unsuited["w"]).to_numpy(),
            "hands": total["w"].fillna(0).to_numpy(),
        }
    )
    out["share"] = out["hands"] / out["hands"].sum()
    out.attrs.update(role=role)
    return out[CRIB_TABLE_COLUMNS]


def packaged_crib_table_frame(role: Role, opponent: str) -> pd.DataFrame:
    """The crib table shipped with the package for ``role`` under ``opponent``."""
    from crib_analyze.storage import checked

    source = packaged_crib_table(role, opponent)
    try:
        with source.open("r", encoding="utf-8") as fh:
            frame = pd.read_csv(fh, keep_default_na=False, na_values=[""])
        frame = frame[CRIB_TABLE_COLUMNS]
        means = frame["crib_mean"].to_numpy(np.float64)
        sound = (
            len(frame) == 91
            and bool(((means >= 0) & (means <= 29)).all())
            and abs(float(frame["share"].sum()) - 1.0) < 1e-9
            and float(frame["hands"].sum()) == 20_358_520.0  # C(52, 6) hands
        )
    except (OSError, ValueError, KeyError) as e:
        raise TableError(f"the packaged crib table {source.name} is damaged ({e})") from None
    if not sound:
        raise TableError(f"the packaged crib table {source.name} is damaged: reinstall")
    checked.note(
        f"the packaged crib table ({source.name})",
        "91 pairs, every hand counted once, shares summing to 1, means in range",
    )
    return with_meta(frame, CribTableMeta(role=role, opponent=opponent))


# --- the play -------------------------------------------------------------------------------


def pegging_frame(table: PeggingTable, roles: list[Role]) -> pd.DataFrame:
    """The pegging value of every keep, for each of ``roles`` in turn."""
    from crib_analyze.artifacts.pegging_table import keep_text, kept_multisets
    from crib_analyze.position import Seat

    keeps = [keep_text(m) for m in kept_multisets()]
    parts = []
    for r in roles:
        seat = Seat.of(r)
        parts.append(
            pd.DataFrame(
                {
                    "keep": pd.array(keeps, dtype="string"),
                    "role": pd.array([r] * len(keeps), dtype="string"),
                    "peg_own": table.peg_own[seat],
                    "peg_opp": table.peg_opp[seat],
                    "peg_se": table.peg_se[seat],
                }
            )
        )
    frame = pd.concat(parts, ignore_index=True)
    frame.attrs.update(table.provenance)
    return frame


# --- the board ------------------------------------------------------------------------------


def board_positions_frame(board: BoardTable, scoring: str) -> pd.DataFrame:
    """Every position of the board, one row each (see :func:`crib_analyze.api.board_frame`)."""
    from crib_analyze.position import p_skunk, p_skunked
    from crib_analyze.rules import TARGET

    mine, theirs, deal = np.meshgrid(
        np.arange(TARGET), np.arange(TARGET), [False, True], indexing="ij"
    )
    out = board.outcomes()
    frame = pd.DataFrame(
        {
            "my_score": mine.ravel(),
            "opp_score": theirs.ravel(),
            "dealer": deal.ravel(),
            "p_win": board.win().ravel(),
            "p_skunk": p_skunk(out).ravel(),
            "p_skunked": p_skunked(out).ravel(),
            "match_points": board.match_points(scoring).ravel(),
            "deals_left": board.deals_left().ravel(),
        }
    )
    frame.attrs.update(board.provenance)
    return frame


def deal_points_frame(provenance: dict[str, Any]) -> pd.DataFrame:
    """Points per deal by role and source, as a distribution, from a board table's
    per-deal histograms (see :func:`crib_analyze.api.deal_points`)."""
    histograms = provenance["per_deal_histogram"]
    rows = [
        (role, source, points, deals)
        for role in ("dealer", "pone")
        for source, counts in histograms[role].items()
        for points, deals in enumerate(counts)
    ]
    frame = pd.DataFrame(rows, columns=["role", "source", "points", "deals"])
    frame["share"] = frame["deals"] / frame.groupby(["role", "source"])["deals"].transform("sum")
    frame.attrs.update(provenance)
    return frame
