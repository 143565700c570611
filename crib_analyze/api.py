"""The public Python API: every capability of the command line, as functions.

Results are pandas DataFrames or small records; problems are typed exceptions from
:mod:`crib_analyze.errors` (:class:`CardError`, :class:`UsageError`,
:class:`ModelError`, :class:`TableError`, :class:`StorageError`) with one-line
messages. Nothing here prints.

>>> df = analyze("5H 6S 4D JC QH 5C", role="dealer", opponent="random")
>>> df.loc[0, "discard"], round(float(df.loc[0, "crib_mean"]), 6)
('JC QH', 4.711287)
>>> analyze("5H 6S 4D JC QH 5C", role="pone").loc[0, "discard"]  # expert opponent
'JC QH'
>>> round(float(crib_table("pone").set_index("pair").loc["5-5", "crib_mean"]), 2)
9.45
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from crib_analyze.cards import CardLike, CardsLike, format_cards
from crib_analyze.defaults import (
    DEFAULT_BOARD_DEALS,
    DEFAULT_OPPONENT,
    DEFAULT_PEGGING,
    DEFAULT_POLICY,
    DEFAULT_POSITION_SAMPLES,
    DEFAULT_SAMPLES,
    DEFAULT_SCORING,
    DEFAULT_SEED,
    DEFAULT_TABLE_OPPONENT,
    MODEL_ENV,
    PACKAGED_MODEL,
    ROLES,
    SCORINGS,
    TABLE_OPPONENTS,
    TARGET,
    Role,
    SortKey,
    cache_dir,
    check_choice,
    data_dir,
    default_board_output,
    default_model_output,
    default_shard_path,
    default_table_path,
    packaged,
    table_format_for,
)
from crib_analyze.discard import ModelLike, Opponent, Policy, analyze_hand, resolve_model
from crib_analyze.errors import ModelError, TableError, UsageError
from crib_analyze.expert_model import ExpertModel, load_model
from crib_analyze.rows import DiscardRows, discard_rows, distribution_rows

if TYPE_CHECKING:  # the heavy libraries (pandas, pyarrow) load only when a function needs them
    import pandas as pd

    from crib_analyze.board.games import GameStats
    from crib_analyze.board.throws import PositionThrows
    from crib_analyze.expert_builder import RoundLog
    from crib_analyze.table_file import TableCheck, TableResult


__all__ = [
    "BuiltBoard",
    "BuiltModel",
    "Odds",
    "Paths",
    "advise_play",
    "analyze",
    "analyze_rows",
    "board_frame",
    "build_board",
    "build_model",
    "build_pegging",
    "check_table",
    "crib_table",
    "deal_points",
    "generate_table",
    "hand_distribution",
    "load_model",
    "load_table",
    "lookup",
    "merge_tables",
    "odds",
    "paths",
    "pegging_table",
    "plot_board",
    "plot_crib_tables",
    "plot_discards",
    "score_play",
    "simulate",
    "win_probability",
]


def analyze(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent = DEFAULT_OPPONENT,  # type: ignore[assignment]
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    need: int | None = None,
    sort: SortKey | None = None,
    policy: Policy = DEFAULT_POLICY,  # type: ignore[assignment]
    model: ModelLike = None,
    on_progress: Callable[[int, int], None] | None = None,
    top: int | None = None,
    pegging: str | bool = DEFAULT_PEGGING,
    score: str | tuple[int, int] | None = None,
    goal: str = "win",
    scoring: str = DEFAULT_SCORING,
    position_samples: int = DEFAULT_POSITION_SAMPLES,
) -> pd.DataFrame:
    """Rank the 15 discards of a six-card hand; one row per discard, best first.

    ``role`` is "dealer", "pone" or None (both roles' nets, ordered by the dealer's).
    ``opponent`` is "expert" (the role-specific expert policy, exact combination),
    "random" (exact) or "sampled" (``samples`` opponent hands drawn with ``seed``,
    throwing by ``policy``, "random" or "expert"; cribs carry standard errors;
    ``on_progress(done, total)`` is called as batches finish). ``model`` is the expert
    model (an ExpertModel or a file; default: ``$CRIB_ANALYZE_MODEL`` or the packaged
    one); ``df.attrs["model"]`` names the one used. ``need`` adds ``p_need``, the exact
    probability that the hand alone scores at least that many points. ``top`` keeps the
    best N (with no role, the best N of each role). ``pegging`` counts the play:
    "table" (default: the shipped pegging values), "exact" (simulated with these cards)
    or "none" (hand and crib only, the classic ranking). By default rows are ranked by
    the role's ``total`` (net + pegging net), or by ``net`` without the play. Columns
    are documented in :mod:`crib_analyze.rows`; ``loss`` is the points behind the
    role's best throw.

    ``score`` (mine, theirs), e.g. ``(110, 115)`` or "110-115", values each throw from
    that position on the board (``role`` required): ``position_samples`` deals on
    common random numbers (seeded by ``seed``, default 0), then the board table. It
    adds ``p_win``, ``p_win_se``, ``p_skunk``, ``p_skunked``, ``match_points``
    (under ``scoring``) and ``points_rank``, and ranks by ``goal``: "win" or "match".
    """
    from crib_analyze.frames import rows_frame

    rows = analyze_rows(
        hand, role, opponent, samples, seed, need, sort, policy, model, on_progress, top,
        pegging=pegging, score=score, goal=goal, scoring=scoring,
        position_samples=position_samples,
    )  # fmt: skip
    return rows_frame(rows)


def analyze_rows(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent = DEFAULT_OPPONENT,  # type: ignore[assignment]
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    need: int | None = None,
    sort: SortKey | None = None,
    policy: Policy = DEFAULT_POLICY,  # type: ignore[assignment]
    model: ModelLike = None,
    on_progress: Callable[[int, int], None] | None = None,
    top: int | None = None,
    distribution: bool = False,
    pegging: str | bool = DEFAULT_PEGGING,
    score: str | tuple[int, int] | None = None,
    goal: str = "win",
    scoring: str = DEFAULT_SCORING,
    position_samples: int = DEFAULT_POSITION_SAMPLES,
) -> DiscardRows:
    """:func:`analyze` without pandas: the same columns as numpy arrays
    (:class:`~crib_analyze.rows.DiscardRows`), for batch work and quick start-up.
    With ``distribution``, the rows of :func:`hand_distribution` instead."""
    if role is not None:
        check_choice("role", role, ROLES)
    position = None
    if score is not None:
        position = _position(hand, role, score, goal, scoring, position_samples, seed, model)
        if distribution:
            raise UsageError("a score ranks the throws; it does not go with the distribution")
    analysis = analyze_hand(
        hand,
        opponent=opponent,
        samples=samples,
        seed=seed,
        policy=policy,
        model=model,
        on_progress=on_progress,
        pegging=pegging,
    )
    ranked = discard_rows(
        analysis, role=role, need=need, sort=sort, top=top, position=position, goal=goal
    )
    return distribution_rows(analysis, ranked) if distribution else ranked


def _position(
    hand: CardsLike,
    role: Role | None,
    score: str | tuple[int, int],
    goal: str,
    scoring: str,
    samples: int,
    seed: int | None,
    model: ModelLike,
) -> PositionThrows:
    from crib_analyze.board.board_table import parse_score
    from crib_analyze.board.throws import position_throws
    from crib_analyze.discard import parse_hand6

    if role is None:
        raise UsageError("a score is valued for one role: give role='dealer' or 'pone'")
    check_choice("goal", goal, ("win", "match"))
    check_choice("scoring", scoring, tuple(SCORINGS))
    pair = parse_score(score)
    return position_throws(
        parse_hand6(hand), role, pair, scoring=scoring, samples=samples,
        seed=DEFAULT_SEED if seed is None else seed, model=resolve_model(model),
    )  # fmt: skip


def hand_distribution(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent = DEFAULT_OPPONENT,  # type: ignore[assignment]
    model: ModelLike = None,
) -> pd.DataFrame:
    """The exact distribution of each kept hand's score over the 46 unseen starters:
    one row per (throw, points 0..29) with ``starters`` (of 46), ``probability`` and
    ``p_at_least`` = P(hand >= points); throws in :func:`analyze`'s order for ``role``.
    """
    from crib_analyze.frames import rows_frame

    return rows_frame(
        analyze_rows(hand, role=role, opponent=opponent, model=model, distribution=True)
    )


def check_plot(path: str | os.PathLike[str]) -> None:
    """Raise a UsageError now if ``path`` cannot take a plot (name, matplotlib)."""
    from crib_analyze.plots import check_plot as check

    check(path)


def plot_discards(
    hand: CardsLike,
    path: str | os.PathLike[str],
    role: Role | None = None,
    opponent: Opponent = DEFAULT_OPPONENT,  # type: ignore[assignment]
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    policy: Policy = DEFAULT_POLICY,  # type: ignore[assignment]
    model: ModelLike = None,
    top: int = 3,
    pegging: str | bool = DEFAULT_PEGGING,
) -> Path:
    """Draw the hand-score distributions of the best ``top`` throws of each role (or of
    ``role``) to ``path`` (.png or .svg); needs the ``plot`` extra (matplotlib)."""
    from crib_analyze.plots import check_plot, discard_plot

    check_plot(path)
    analysis = analyze_hand(
        hand,
        opponent=opponent,
        samples=samples,
        seed=seed,
        policy=policy,
        model=model,
        pegging=pegging,
    )
    by_role = {
        r: distribution_rows(analysis, discard_rows(analysis, role=r, top=top))
        for r in ([role] if role else list(ROLES))
    }
    described = {
        "expert": f"expert, {analysis.model}",
        "random": "random (exact)",
        "sampled": f"sampled, {analysis.samples:,} hands, {analysis.policy} policy",
    }[analysis.opponent]
    return discard_plot(by_role, format_cards(analysis.hand), described, path)


def score_play(
    sequence: CardsLike,
    pone: CardsLike | None = None,
    dealer: CardsLike | None = None,
) -> pd.DataFrame:
    """Score a play given as cards and 'go' (the pone leads; a go may be left out where
    it is forced): one row per card or go with ``player``, ``card``, ``count``,
    ``points`` and ``reason``. With both hands, every card and go is checked.

    >>> score_play("10H 5S 7C 6D go 2H 6C 4S 4D").groupby("player").points.sum().to_dict()
    {'dealer': 6, 'pone': 3}
    """
    import pandas as pd

    from crib_analyze.cards import format_card
    from crib_analyze.play.sequence import score_sequence

    play = score_sequence(sequence, pone, dealer)
    frame = pd.DataFrame(
        {
            "player": pd.array([e.player for e in play.events], dtype="string"),
            "card": pd.array(
                [format_card(e.card) if e.card >= 0 else "go" for e in play.events],
                dtype="string",
            ),
            "count": np.array([e.count for e in play.events], dtype=np.int64),
            "points": np.array([e.points for e in play.events], dtype=np.int64),
            "reason": pd.array(["; ".join(e.reasons) for e in play.events], dtype="string"),
        }
    )
    frame.attrs.update(totals=play.totals, complete=play.complete)
    return frame


def advise_play(
    role: Role,
    hand: CardsLike,
    starter: CardLike | None = None,
    discards: CardsLike | None = None,
    played: CardsLike = (),
    policy: str = "lookahead",
    samples: int = 2000,
    seed: int = 0,
    model: ModelLike = None,
) -> pd.DataFrame:
    """Which card to lay now: for each card ``role`` can lay, holding ``hand`` after the
    play ``played`` (cards and 'go', the pone first), the expected pegging differential
    (own - opponent's) for the rest of the play under ``policy``, with its standard
    error (``samples`` draws of the opponent's cards, shared by all candidates); best
    first, and ``policy_choice`` marks the card the policy lays.
    """
    import pandas as pd

    from crib_analyze.cards import format_card
    from crib_analyze.play.advice import advise

    m = resolve_model(model)
    advice = advise(role, hand, starter, discards, played, policy, samples, seed, m)
    frame = pd.DataFrame(
        {
            "card": pd.array([format_card(c) for c in advice.cards], dtype="string"),
            "value": advice.value,
            "se": advice.se,
            "policy_choice": [c == advice.policy_card for c in advice.cards],
        }
    )
    frame.attrs.update(role=role, count=advice.count, samples=samples, policy=policy)
    return frame


# --- tables ----------------------------------------------------------------------------------


def generate_table(
    output: str | os.PathLike[str] | None = None,
    opponent: str = DEFAULT_TABLE_OPPONENT,
    fmt: str | None = None,
    limit: int | None = None,
    shard: str | tuple[int, int] | None = None,
    restart: bool = False,
    model: ModelLike = None,
    on_chunk: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
) -> TableResult:
    """Write the discard table: every suit-distinct six-card hand x 15 discards.

    ``output`` defaults to :func:`crib_analyze.defaults.default_table_path` (the user
    data dir); ``fmt`` to the file name's (.csv is CSV, else Parquet). ``limit`` takes
    the first N hand classes; ``shard`` ("I/N") the I-th of N disjoint slices, merged
    later by :func:`merge_tables`. ``on_chunk(done, total)`` reports progress. Work
    is saved in chunks beside the output, so a killed run resumes; ``restart``
    throws them away. The file appears whole or not at all.
    """
    from crib_analyze.table_file import generate_table as run
    from crib_analyze.table_spec import TableSpec, parse_shard, shard_chunks

    check_choice("opponent model for the table", opponent, TABLE_OPPONENTS)
    shard_ij = parse_shard(shard) if isinstance(shard, str) else shard
    if shard_ij is not None and fmt not in (None, "parquet"):
        raise UsageError("shards are written as Parquet (merge them, then choose the format)")
    from crib_analyze.play.pegging_table import packaged_pegging_table

    used = resolve_model(model) if opponent == "expert" else None
    spec = TableSpec(
        opponent,
        limit,
        used.fingerprint() if used is not None else None,
        packaged_pegging_table().fingerprint(),
    )
    if output is None:
        target = (
            default_shard_path(opponent, shard_ij)
            if shard_ij
            else default_table_path(opponent, fmt or "parquet")
        )
    else:
        target = Path(output)
    fmt = table_format_for(target, fmt)
    total = len(shard_chunks(spec, shard_ij))
    done = [0]

    def chunk_done(_k: int) -> None:
        done[0] += 1
        if on_chunk:
            on_chunk(done[0], total)

    return run(
        target,
        spec,
        fmt=fmt,
        shard=shard_ij,
        model=used,
        restart=restart,
        on_chunk=chunk_done,
        on_warning=on_warning,
    )


def merge_tables(
    shards: Sequence[str | os.PathLike[str]],
    output: str | os.PathLike[str] | None = None,
    fmt: str | None = None,
) -> TableResult:
    """Join the shard files of one run into one table (default: the user data dir)."""
    from crib_analyze.table_file import merge_tables as run
    from crib_analyze.table_file import read_file_metadata

    inputs = [Path(s) for s in shards]
    if not inputs:
        raise UsageError("no shard files given")
    if output is None:
        opponent = str(read_file_metadata(inputs[0]).get("opponent", DEFAULT_TABLE_OPPONENT))
        target = default_table_path(opponent, fmt or "parquet")
    else:
        target = Path(output)
    return run(inputs, target, fmt=table_format_for(target, fmt))


def check_table(path: str | os.PathLike[str] | None = None) -> TableCheck:
    """Verify a table file, data included (default: the random table in the data dir)."""
    from crib_analyze.table_file import verify_table

    source = Path(path) if path is not None else default_table_path()
    if not source.is_file():
        raise TableError(f"no discard table at {source}: generate it with 'crib-analyze table'")
    return verify_table(source)


def load_table(
    path: str | os.PathLike[str] | None = None,
    columns: list[str] | None = None,
    filters: Any = None,
) -> pd.DataFrame:
    """Read a discard table written by ``crib-analyze table`` (only ``columns``, if given).

    The default is the random-opponent table in the user data dir. ``filters`` is
    passed to :func:`pandas.read_parquet` (pyarrow row filters, e.g.
    ``[("dealer_best", "==", True)]``). Text columns load as categoricals.
    """
    from crib_analyze.frames import read_table_frame

    return read_table_frame(path, columns=columns, filters=filters)


def lookup(
    hand: CardsLike,
    table: str | os.PathLike[str] | None = None,
    opponent: str | None = None,
    role: Role | None = None,
) -> pd.DataFrame:
    """A hand's 15 rows from a discard table written by ``crib-analyze table``, found by
    canonicalising its suits (:func:`crib_analyze.canonical_hand`) and written back in
    the hand's own suits, best first for ``role``.

    ``table`` defaults to the table of ``opponent`` (default random) in the data dir;
    ``df.attrs`` carries the file's metadata and ``hand_id``.
    """
    from crib_analyze.cards import parse_cards
    from crib_analyze.frames import lookup_frame

    if role is not None:
        check_choice("role", role, ROLES)
    if opponent is not None:
        check_choice("opponent model", opponent, TABLE_OPPONENTS)
    cards = parse_cards(hand, count=6)
    path = Path(table) if table is not None else default_table_path(opponent or "random")
    return lookup_frame(cards, path, role=role)


def crib_table(
    role: Role = "dealer",
    opponent: str | None = None,
    table: str | os.PathLike[str] | None = None,
) -> pd.DataFrame:
    """Crib value of each of the 91 thrown rank pairs, averaged over the discards
    ``role`` chooses (the kind of table Schell and Hessel published).

    Without ``table``: the table shipped with the package for ``opponent`` (default
    expert), at once. With ``table`` (a file from ``crib-analyze table``): computed
    from it, under the opponent model named in its metadata (``opponent``, if given,
    must agree).
    """
    from crib_analyze.frames import (
        crib_table_frame,
        packaged_crib_table_frame,
        read_table_frame,
    )
    from crib_analyze.table_file import read_file_metadata

    check_choice("role", role, ROLES)
    if opponent is not None:
        check_choice("opponent model", opponent, TABLE_OPPONENTS)
    if table is None:
        return packaged_crib_table_frame(role, opponent or DEFAULT_OPPONENT)
    source = Path(table)
    if not source.is_file():
        raise TableError(f"no discard table at {source}")
    file_opponent = str(read_file_metadata(source).get("opponent", "random"))
    if opponent is not None and opponent != file_opponent:
        raise UsageError(f"{source} was made with the {file_opponent} opponent, not {opponent}")
    crib_column = f"{role}_crib_mean" if file_opponent == "expert" else "crib_mean"
    columns = ["hand_id", "weight", "d1", "d2", crib_column, f"{role}_best"]
    frame = crib_table_frame(read_table_frame(source, columns=columns), role, crib_column)
    frame.attrs.update(opponent=file_opponent, source=str(source))
    return frame


def plot_crib_tables(
    path: str | os.PathLike[str],
    opponent: str | None = None,
    table: str | os.PathLike[str] | None = None,
) -> Path:
    """Heatmaps of the crib value of the 91 thrown rank pairs for the dealer, the pone
    and their difference (the tables of :func:`crib_table`) to ``path`` (.png/.svg)."""
    from crib_analyze.plots import check_plot, crib_heatmaps

    check_plot(path)
    tables = {r: crib_table(r, opponent=opponent, table=table) for r in ROLES}  # type: ignore[arg-type]
    first = tables["dealer"].attrs
    source = "shipped table" if first.get("source") == "packaged" else str(first.get("source"))
    return crib_heatmaps(tables, str(first.get("opponent")), source, path)


def pegging_table(role: Role | None = None) -> pd.DataFrame:
    """The pegging value of every keep (1,820 four-rank multisets) for ``role`` (both
    when None): ``keep`` (four ranks as text), ``role``, ``peg_own`` (what the keeper
    pegs), ``peg_opp`` (what its opponent pegs), ``peg_se`` (standard error of their
    difference); ``df.attrs`` carries the table's provenance.

    >>> t = pegging_table("pone")
    >>> len(t), list(t.columns)
    (1820, ['keep', 'role', 'peg_own', 'peg_opp', 'peg_se'])
    """
    import pandas as pd

    from crib_analyze.play.pegging_table import keep_text, kept_multisets, packaged_pegging_table

    if role is not None:
        check_choice("role", role, ROLES)
    table = packaged_pegging_table()
    keeps = [keep_text(m) for m in kept_multisets()]
    parts = []
    for r in [role] if role else list(ROLES):
        seat = 1 if r == "dealer" else 0
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


@dataclass(frozen=True)
class BuiltPegging:
    """A pegging table made by :func:`build_pegging` and where it was written."""

    provenance: dict[str, Any]
    path: Path


def build_pegging(
    output: str | os.PathLike[str] | None = None,
    target_se: float = 0.02,
    pilot: int = 2000,
    max_deals: int = 200_000,
    seed: int = 0,
    policy: str = "lookahead",
    log: Callable[[Any], None] | None = None,
    model: ModelLike = None,
) -> BuiltPegging:
    """Rebuild the pegging table (several minutes) and write it (default:
    ``pegging_table.npz`` in the user data dir). The opponents keep by ``model`` (the
    default expert model unless given). A killed build resumes from its checkpoint
    beside the output."""
    from crib_analyze.play.pegging_table import build_pegging as run

    target = output_file(output, data_dir() / "pegging_table.npz")
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    table = run(
        target_se=target_se, pilot=pilot, max_deals=max_deals, seed=seed, policy=policy,
        model=resolve_model(model), log=log, checkpoint=checkpoint,
    )  # fmt: skip
    table.save(target)
    return BuiltPegging(table.provenance, target)


# --- the board ------------------------------------------------------------------------------


def output_file(output: str | os.PathLike[str] | None, default: Path) -> Path:
    """Where a built file goes: ``output``, else ``default``; a usage error for an
    empty name or a folder (before any work is done)."""
    if output is None:
        return default
    if not str(output).strip():
        raise UsageError("the output file name is empty")
    target = Path(output)
    if target.is_dir():
        raise UsageError(f"{target} is a folder; give a file name")
    return target


@dataclass(frozen=True)
class Odds:
    """How the game ends from a position, for the player on ``my_score``.

    ``p_skunk`` is the chance of winning by a skunk or more (the opponent under 91),
    ``p_double_skunk`` by a double (under 61), ``p_triple_skunk`` a triple (under 31);
    ``p_skunked`` and the rest are the same for losing. ``match_points`` is the
    expected match points under ``scoring``, what I win minus what I lose;
    ``my_match_points`` only what I win. ``table_error`` is the Monte Carlo error of
    the board table (root mean square over positions, from the provenance).
    """

    my_score: int
    opp_score: int
    dealer: bool
    scoring: str
    p_win: float
    p_skunk: float
    p_double_skunk: float
    p_triple_skunk: float
    p_skunked: float
    p_double_skunked: float
    p_triple_skunked: float
    match_points: float
    my_match_points: float
    deals_left: float
    table_error: float

    def as_dict(self) -> dict[str, Any]:
        return dict(self.__dict__)


def win_probability(my_score: int, opp_score: int, dealer: bool) -> float:
    """The chance that the player on ``my_score`` wins, ``dealer`` if it deals now.

    >>> round(win_probability(0, 0, dealer=True), 2)  # the first dealer
    0.56
    >>> win_probability(120, 0, dealer=False)  # the pone counts first: it pegs out
    1.0
    """
    from crib_analyze.board.board_table import load_board

    return load_board().win_at(my_score, opp_score, dealer)


def odds(my_score: int, opp_score: int, dealer: bool, scoring: str = DEFAULT_SCORING) -> Odds:
    """Each way the game can end from a position, and the expected match points.

    >>> o = odds(95, 100, dealer=True)
    >>> 0.5 < o.p_win < 0.55 and o.p_skunk == 0 and o.scoring == "tournament"
    True
    """
    from crib_analyze.board.board_table import load_board, scoring_points

    points = scoring_points(scoring)
    board = load_board()
    v = board.at(my_score, opp_score, dealer)
    mine = np.maximum(points, 0.0)
    return Odds(
        my_score=int(my_score),
        opp_score=int(opp_score),
        dealer=bool(dealer),
        scoring=scoring,
        p_win=board.win_at(my_score, opp_score, dealer),
        p_skunk=float(v[1:4].sum()),
        p_double_skunk=float(v[2:4].sum()),
        p_triple_skunk=float(v[3]),
        p_skunked=float(v[5:8].sum()),
        p_double_skunked=float(v[6:8].sum()),
        p_triple_skunked=float(v[7]),
        match_points=float(v[:8] @ points),
        my_match_points=float(v[:8] @ mine),
        deals_left=float(v[8]),
        table_error=float(board.provenance.get("win_error", {}).get("rms", float("nan"))),
    )


def board_frame(scoring: str = DEFAULT_SCORING) -> pd.DataFrame:
    """Every position of the board (121 x 121 x who deals), one row each:
    ``my_score``, ``opp_score``, ``dealer``, ``p_win``, ``p_skunk``, ``p_skunked``,
    ``match_points`` (under ``scoring``), ``deals_left``; ``df.attrs`` is the board
    table's provenance.

    >>> df = board_frame()
    >>> len(df), round(float(df.query("my_score == 0 and opp_score == 0")["p_win"].sum()), 3)
    (29282, 1.0)
    """
    import pandas as pd

    from crib_analyze.board.board_table import load_board

    board = load_board()
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
            "p_skunk": out[..., 1:4].sum(-1).ravel(),
            "p_skunked": out[..., 5:8].sum(-1).ravel(),
            "match_points": board.match_points(scoring).ravel(),
            "deals_left": board.deals_left().ravel(),
        }
    )
    frame.attrs.update(board.provenance)
    return frame


def deal_points() -> pd.DataFrame:
    """How many points a deal brings each role, from each source, as a distribution:
    one row per ``role`` (dealer, pone), ``source`` (heels, pegging, hand, crib, total)
    and ``points``, with the ``deals`` that scored it and their ``share``, over the
    simulated deals the board table was built on (``df.attrs``: its provenance).

    >>> df = deal_points()
    >>> heels = df.query("role == 'dealer' and source == 'heels'").set_index("points")
    >>> round(float(heels.loc[2, "share"]), 3)  # a jack starter: 4 in 52
    0.077
    """
    import pandas as pd

    from crib_analyze.board.board_table import load_board

    board = load_board()
    histograms = board.provenance.get("per_deal_histogram")
    if not histograms:
        raise ModelError("this board table has no per-deal histograms: rebuild it (build-board)")
    rows = [
        (role, source, points, deals)
        for role in ("dealer", "pone")
        for source, counts in histograms[role].items()
        for points, deals in enumerate(counts)
    ]
    frame = pd.DataFrame(rows, columns=["role", "source", "points", "deals"])
    frame["share"] = frame["deals"] / frame.groupby(["role", "source"])["deals"].transform("sum")
    frame.attrs.update(board.provenance)
    return frame


def plot_board(path: str | os.PathLike[str]) -> Path:
    """Draw the win-probability surface over the board, for the dealer and the pone,
    to ``path`` (.png or .svg; needs matplotlib)."""
    from crib_analyze.board.board_table import load_board
    from crib_analyze.plots import board_heatmaps

    check_plot(path)
    board = load_board()
    return board_heatmaps(board.win(), board.provenance, path)


def simulate(
    games: int = 10_000,
    players: tuple[str, str] | list[str] = ("expert", "expert"),
    seed: int = 0,
    position_from: int = 61,
    position_samples: int = 300,
    candidates: int = 4,
    goal: str = "win",
    scoring: str = DEFAULT_SCORING,
    batch: int = 2000,
    scheduler: str | None = None,
    log: Callable[[Any], None] | None = None,
) -> GameStats:
    """Play ``games`` full games (an even number) between two discard policies and
    summarise them: the first dealer's and player 0's win rates with standard errors,
    deals per game, points per deal by role and source, skunks, margins.

    ``players`` are "expert" (the best response to the expert model, the play counted:
    what ``discard`` recommends), "points" (hand and crib only), "position" (as the
    expert until either score reaches ``position_from``, then the ``candidates`` best
    throws valued from the score by ``position_samples`` simulated deals and the board
    table, by ``goal`` under ``scoring``) or "mixed" (the expert model's rank-level
    mixed policy). Both play the default policy. Games 2k and 2k+1 deal the same cards
    with the first dealer swapped (duplicate pairs). The same ``seed`` gives the same
    games for any ``batch`` and threads, or on a Dask ``scheduler`` (an address).

    >>> s = simulate(200, seed=1)
    >>> s.games, s.player0_wins  # the same policy on both sides of duplicate pairs
    (200, 0.5)
    """
    from crib_analyze.board.games import GameSettings
    from crib_analyze.board.games import simulate as run

    if isinstance(players, str) or len(players) != 2:
        raise UsageError(f"players must be two discard policies, got {players!r}")
    settings = GameSettings(
        players=(str(players[0]), str(players[1])), seed=seed, position_from=position_from,
        position_samples=position_samples, candidates=candidates, goal=goal, scoring=scoring,
    )  # fmt: skip
    return run(games, settings, batch=batch, log=log, scheduler=scheduler)


@dataclass(frozen=True)
class BuiltBoard:
    """A board table made by :func:`build_board` and where it was written."""

    provenance: dict[str, Any]
    path: Path


def build_board(
    output: str | os.PathLike[str] | None = None,
    deals: int = DEFAULT_BOARD_DEALS,
    seed: int = 0,
    log: Callable[[Any], None] | None = None,
    model: ModelLike = None,
) -> BuiltBoard:
    """Rebuild the board table (about a minute for a million deals) and write it
    (default: ``board_table.npz`` in the user data dir). The players throw by
    ``model`` (default: the pegging-aware expert). A killed build resumes from its
    checkpoint beside the output. Use the new table with ``$CRIB_ANALYZE_BOARD``."""
    from crib_analyze.board.board_table import build_board as run

    target = output_file(output, default_board_output())
    checkpoint = target.with_name(target.name + ".checkpoint.npz")
    table = run(deals=deals, seed=seed, model=resolve_model(model), log=log, checkpoint=checkpoint)
    table.save(target)
    return BuiltBoard(table.provenance, target)


# --- the expert model ------------------------------------------------------------------------


@dataclass(frozen=True)
class BuiltModel:
    """A model made by :func:`build_model` and where it was written."""

    model: ExpertModel
    path: Path


def build_model(
    output: str | os.PathLike[str] | None = None,
    tolerance: float = 1e-3,
    max_rounds: int = 200,
    log: Callable[[RoundLog], None] | None = None,
    pegging: bool = True,
    pegging_table: str | os.PathLike[str] | None = None,
) -> BuiltModel:
    """Rebuild the expert model by fictitious play (a few minutes) and write it
    (default: ``expert_model.npz`` in the user data dir). With ``pegging`` (default)
    throws count the play too, valued by ``pegging_table`` (a file from
    :func:`build_pegging`; default: the packaged table); without, the classic expert.
    The packaged models stay the default; use the new one with ``model=PATH`` or
    ``$CRIB_ANALYZE_MODEL``.
    """
    from crib_analyze.expert_builder import build_model as run
    from crib_analyze.play.pegging_table import PeggingTable, packaged_pegging_table

    if pegging_table is not None and not pegging:
        raise UsageError("a pegging table applies to the pegging-aware model only")
    table = None
    if pegging:
        table = PeggingTable.load(pegging_table) if pegging_table else packaged_pegging_table()
    target = output_file(output, default_model_output())
    model = run(tolerance=tolerance, max_rounds=max_rounds, log=log, pegging=table)
    model.save(target)
    return BuiltModel(model, target)


# --- where files are -------------------------------------------------------------------------


@dataclass(frozen=True)
class Paths:
    """Where crib-analyze reads and writes its files."""

    data_dir: Path  # generated files, unless an output path is given
    random_table: Path
    expert_table: Path
    rebuilt_model: Path  # where build-model writes by default (used only when pointed at)
    model_in_use: str  # the expert model discard uses: $CRIB_ANALYZE_MODEL or "packaged"
    packaged_model: str
    kernel_cache: Path

    def as_dict(self) -> dict[str, str]:
        return {k: str(v) for k, v in self.__dict__.items()}


def paths() -> Paths:
    """The default locations, after environment overrides."""
    return Paths(
        data_dir=data_dir(),
        random_table=default_table_path("random"),
        expert_table=default_table_path("expert"),
        rebuilt_model=default_model_output(),
        model_in_use=os.environ.get(MODEL_ENV) or "packaged",
        packaged_model=str(packaged(PACKAGED_MODEL)),
        kernel_cache=cache_dir(),
    )
