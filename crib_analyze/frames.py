"""The one place that builds pandas DataFrames: fixed columns, fixed dtypes.

A discard frame has the columns of :mod:`crib_analyze.rows` (documented there), one
row per discard, best first; text columns are pandas ``string``, flags ``bool``, and
``df.attrs`` records the role, opponent model, expert model, sampling and sort key.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from crib_analyze.cards import RANKS
from crib_analyze.defaults import Role, SortKey, default_table_path, packaged_crib_table
from crib_analyze.discard import DiscardAnalysis
from crib_analyze.errors import TableError, describe_os_error
from crib_analyze.rows import TEXT_COLUMNS, DiscardRows, discard_rows


def discard_frame(
    analysis: DiscardAnalysis,
    role: Role | None = None,
    need: int | None = None,
    sort: SortKey = "net",
    top: int | None = None,
) -> pd.DataFrame:
    """One row per discard, best first by ``sort`` for ``role`` (dealer when None)."""
    return rows_frame(discard_rows(analysis, role=role, need=need, sort=sort, top=top))


def rows_frame(rows: DiscardRows) -> pd.DataFrame:
    """The DataFrame of :class:`~crib_analyze.rows.DiscardRows` (same columns and attrs)."""
    data = {
        name: pd.array(values.tolist(), dtype="string") if name in TEXT_COLUMNS else values
        for name, values in rows.columns.items()
    }
    frame = pd.DataFrame(data)
    frame.attrs.update(rows.attrs)
    return frame


def with_hand_column(frame: pd.DataFrame, hand_text: str) -> pd.DataFrame:
    """Prefix a ``hand`` column (for many-hand output)."""
    out = frame.copy()
    out.insert(0, "hand", pd.Series([hand_text] * len(out), dtype="string", index=out.index))
    return out


# --- the full table ----------------------------------------------------------------------


def read_table_frame(
    path: str | os.PathLike[str] | None = None,
    columns: list[str] | None = None,
    filters: Any = None,
) -> pd.DataFrame:
    """Load a discard table (Parquet) with only the columns asked for; the default is
    the random-opponent table in the user data directory."""
    source = Path(path) if path is not None else default_table_path()
    if not source.exists():
        raise TableError(f"no discard table at {source}: generate it with 'crib-analyze table'")
    try:
        return pd.read_parquet(source, columns=columns, filters=filters, engine="pyarrow")
    except OSError as e:
        raise TableError(f"cannot read {source}: {describe_os_error(e)}") from None
    except Exception as e:  # pyarrow's damaged-file and unknown-column errors
        reason = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise TableError(f"cannot read {source}: {reason}") from None


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
    by_suit = work.groupby(["r1", "r2", "suited"])[["w", "wc"]].sum()
    suited = by_suit.xs(True, level="suited").reindex(pairs)
    unsuited = by_suit.xs(False, level="suited").reindex(pairs)
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
    with packaged_crib_table(role, opponent).open("r", encoding="utf-8") as fh:
        frame = pd.read_csv(fh, keep_default_na=False, na_values=[""])
    frame = frame[CRIB_TABLE_COLUMNS]
    frame.attrs.update(role=role, opponent=opponent, source="packaged")
    return frame
