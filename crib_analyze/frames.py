"""The one place that builds pandas DataFrames: fixed columns, fixed dtypes.

Discard frames have one row per discard, best first for the chosen role:

=================  =======  ===================================================
column             dtype    meaning
=================  =======  ===================================================
rank               int64    1 = best by the sort key
discard            string   the two cards thrown, canonical text
keep               string   the four cards kept
hand_mean          float64  exact mean hand points over the 46 unseen starters
hand_min/max       int64    worst / best hand over those starters
hand_sd            float64  standard deviation over those starters
p_need             float64  P(hand >= need) (only when ``need`` is given)
crib_mean          float64  crib expectation for the chosen role (NaN with no
                            role under a role-specific model)
crib_se            float64  its standard error (0 for exact models)
dealer_crib_mean   float64  the crib when this player deals (opponent is pone)
dealer_crib_se     float64
pone_crib_mean     float64  the crib when the opponent deals
pone_crib_se       float64
heels              float64  dealer's expected heels: 2 x unseen jacks / 46
dealer_net         float64  hand_mean + dealer_crib_mean + heels
pone_net           float64  hand_mean - pone_crib_mean
opponent           string   the crib's opponent model: expert, random or sampled
=================  =======  ===================================================
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import numpy as np
import pandas as pd

from crib_analyze.cards import RANKS, format_cards
from crib_analyze.defaults import (
    ROLES,
    SORT_KEYS,
    check_choice,
    default_table_path,
    packaged_crib_table,
)
from crib_analyze.discard import DiscardAnalysis, rank_order
from crib_analyze.errors import TableError, UsageError, describe_os_error

Role = Literal["dealer", "pone"]
SortKey = Literal["net", "hand", "crib", "need"]

DISCARD_COLUMNS = [
    "rank",
    "discard",
    "keep",
    "hand_mean",
    "hand_min",
    "hand_max",
    "hand_sd",
    "p_need",
    "crib_mean",
    "crib_se",
    "dealer_crib_mean",
    "dealer_crib_se",
    "pone_crib_mean",
    "pone_crib_se",
    "heels",
    "dealer_net",
    "pone_net",
    "opponent",
]


def discard_frame(
    analysis: DiscardAnalysis,
    role: Role | None = None,
    need: int | None = None,
    sort: SortKey = "net",
) -> pd.DataFrame:
    """One row per discard, best first by ``sort`` for ``role`` (dealer when None)."""
    if role is not None:
        check_choice("role", role, ROLES)
    check_choice("sort key", sort, SORT_KEYS)
    if need is not None and (isinstance(need, bool) or not 0 <= int(need) <= 29):
        raise UsageError(f"need must be between 0 and 29 points, got {need!r}")
    if sort == "need" and need is None:
        raise UsageError("sort by 'need' requires need=N")
    scores = analysis.hand_scores.astype(np.float64)
    hand_mean = scores.mean(axis=1)
    dealer_crib, pone_crib = analysis.dealer_crib, analysis.pone_crib
    if role == "dealer":
        crib_mean, crib_se = dealer_crib, analysis.dealer_crib_se
    elif role == "pone":
        crib_mean, crib_se = pone_crib, analysis.pone_crib_se
    elif np.array_equal(dealer_crib, pone_crib):
        crib_mean, crib_se = dealer_crib, analysis.dealer_crib_se
    else:
        crib_mean = crib_se = np.full(len(dealer_crib), np.nan)
    data: dict[str, object] = {
        "discard": pd.array([format_cards(d) for d in analysis.discards], dtype="string"),
        "keep": pd.array([format_cards(k) for k in analysis.keeps], dtype="string"),
        "hand_mean": hand_mean,
        "hand_min": analysis.hand_scores.min(axis=1).astype(np.int64),
        "hand_max": analysis.hand_scores.max(axis=1).astype(np.int64),
        "hand_sd": scores.std(axis=1),
        "crib_mean": crib_mean,
        "crib_se": crib_se,
        "dealer_crib_mean": dealer_crib,
        "dealer_crib_se": analysis.dealer_crib_se,
        "pone_crib_mean": pone_crib,
        "pone_crib_se": analysis.pone_crib_se,
        "heels": np.full(len(hand_mean), analysis.heels),
        "dealer_net": hand_mean + dealer_crib + analysis.heels,
        "pone_net": hand_mean - pone_crib,
        "opponent": pd.array([analysis.opponent] * len(hand_mean), dtype="string"),
    }
    if need is not None:
        data["p_need"] = (analysis.hand_scores >= need).mean(axis=1)
    frame = pd.DataFrame(data)
    frame = frame.iloc[_order(frame, role, sort)].reset_index(drop=True)
    frame.insert(0, "rank", np.arange(1, len(frame) + 1, dtype=np.int64))
    frame = frame[[c for c in DISCARD_COLUMNS if c in frame.columns]]
    frame.attrs.update(
        role=role,
        opponent=analysis.opponent,
        model=analysis.model,
        samples=analysis.samples,
        seed=analysis.seed,
        policy=analysis.policy,
        need=need,
        sort=sort,
    )
    return frame


def _order(frame: pd.DataFrame, role: Role | None, sort: SortKey) -> np.ndarray:
    """Row order, best first, by the one tie rule (:func:`crib_analyze.discard.rank_order`)."""
    net = frame["pone_net"] if role == "pone" else frame["dealer_net"]
    crib = frame["crib_mean"].fillna(frame["dealer_crib_mean"])
    if sort == "net":
        keys = [net]
    elif sort == "hand":
        keys = [frame["hand_mean"]]
    elif sort == "crib":
        keys = [-crib if role == "pone" else crib]
    else:  # need: the probability of reaching it, then the role's net
        keys = [frame["p_need"], net]
    return rank_order([k.to_numpy() for k in keys])


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
