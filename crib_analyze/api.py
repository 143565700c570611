"""Public Python API returning pandas DataFrames.

>>> df = analyze("5H 6S 4D JC QH 5C", role="dealer", opponent="random")
>>> df.loc[0, "discard"], round(float(df.loc[0, "crib_mean"]), 6)
('JC QH', 4.711287)
>>> analyze("5H 6S 4D JC QH 5C", role="pone").loc[0, "discard"]  # expert opponent
'JC QH'
"""

from __future__ import annotations

import os
from typing import Any

import pandas as pd

from crib_analyze.cards import CardsLike
from crib_analyze.discard import DEFAULT_SAMPLES, DEFAULT_SEED, Opponent, Policy, analyze_hand
from crib_analyze.frames import Role, SortKey, discard_frame


def analyze(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent = "expert",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    need: int | None = None,
    sort: SortKey = "net",
    policy: Policy = "random",
) -> pd.DataFrame:
    """Rank the 15 discards of a six-card hand; one row per discard, best first.

    ``role`` is "dealer", "pone" or None (both roles' nets, ordered by the
    dealer's). ``opponent`` is "random" (exact), "expert" (the role-specific throw
    models, exact combination) or "sampled" (``samples`` opponent hands drawn with
    ``seed`` throwing by ``policy``, "random" or "expert"; crib means carry
    standard errors).
    ``need`` adds ``p_need``, the exact probability that the hand alone scores
    at least that many points. Columns are documented in :mod:`crib_analyze.frames`.
    """
    if role not in ("dealer", "pone", None):
        raise ValueError(f"unknown role {role!r} (choose dealer, pone or None)")
    analysis = analyze_hand(hand, opponent=opponent, samples=samples, seed=seed, policy=policy)
    return discard_frame(analysis, role=role, need=need, sort=sort)


def load_table(
    path: str | os.PathLike[str] | None = None,
    columns: list[str] | None = None,
    filters: Any = None,
) -> pd.DataFrame:
    """Read the discard table written by ``crib-analyze table`` (only ``columns``, if given).

    ``filters`` is passed to :func:`pandas.read_parquet` (pyarrow row filters, e.g.
    ``[("dealer_best", "==", True)]``). Text columns load as categoricals.
    """
    from crib_analyze.frames import read_table_frame

    return read_table_frame(path, columns=columns, filters=filters)
