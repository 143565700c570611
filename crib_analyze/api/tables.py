"""The public API of the full discard table: generate, merge, check, load, look up, and
the crib tables computed from it."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from crib_analyze.cards import CardsLike, parse_cards
from crib_analyze.discard.engine import ModelLike, model_variant, resolve_model
from crib_analyze.errors import StorageError, TableError, UsageError, describe_os_error
from crib_analyze.results import with_meta
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    DEFAULT_TABLE_OPPONENT,
    PENALTIES,
    ROLES,
    TABLE_OPPONENTS,
    Role,
    check_choice,
    data_dir,
    default_game_table_path,
    default_sample_path,
    default_shard_path,
    default_table_path,
    table_format_for,
)
from crib_analyze.table.meta import CribTableMeta, unchecked_words

if TYPE_CHECKING:
    import pandas as pd

    from crib_analyze.table.file import TableCheck, TableResult


def generate_table(
    output: str | os.PathLike[str] | None = None,
    opponent: str | None = None,
    fmt: str | None = None,
    limit: int | None = None,
    shard: str | tuple[int, int] | None = None,
    restart: bool | None = None,
    model: ModelLike = None,
    on_chunk: Callable[[int, int], None] | None = None,
    on_warning: Callable[[str], None] | None = None,
    game: str | Rules = "standard",
) -> TableResult:
    """Write the discard table of ``game`` (the standard game unless given): every
    suit-distinct hand x every throw, exact, for the dealer and the pone.

    **Another game** (a name of ``crib-analyze games`` or its
    :class:`~crib_analyze.rules.Rules`): every suit-distinct five-card hand, exact with
    the random opponent, written as Parquet to ``output`` (by default
    ``discard_table_<game>.parquet`` in the user data dir): the old five-card game's ten
    throws of two (134,459 hands, a few seconds), or, for the games whose seats are
    dealt five and throw one (five-dealt, three, three-dealer-six, four, five), the five
    throws of one, with the net when the seat's side owns the crib and when another
    does (a few seconds). Canadian doubles has none (its seats split ten cards); the
    standard table's options are refused there. **Jokers** in the rules
    (``game("standard", jokers=1)``, or any of those games with jokers): every hand of
    the 53- or 54-card pack, those holding jokers included, each joker at its best
    (Parquet, about half a minute). The rest of this text is the standard table's.

    ``output`` defaults to :func:`crib_analyze.settings.default_table_path` (the user
    data dir); ``fmt`` to the file name's (.csv is CSV, else Parquet). ``limit`` takes
    the first N hand classes, written by default beside the full table
    (``discard_table.sample-N.parquet``) and never in its place; ``shard`` ("I/N") the
    I-th of N disjoint slices, merged later by :func:`merge_tables`. ``model`` is the
    expert model of an expert table. ``on_chunk(done, total)`` reports progress. Work
    is saved in chunks beside the output, so a killed run resumes; ``restart`` throws
    them away. The file appears whole or not at all.

    >>> import pathlib, tempfile
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "sample.parquet"
    >>> generate_table(out, limit=20).rows  # the first 20 hand classes x 15 throws
    300
    >>> check_table(out).sample, load_table(out, columns=["hand_id"])["hand_id"].nunique()
    (True, 20)
    >>> lookup("AH AS AC AD 2D 2C", out)["keep"].tolist()[0]  # four aces, as the hand gives them
    'AH AS AC AD'
    """
    from crib_analyze.api.table_requests import TableRequest
    from crib_analyze.artifacts.pegging_table import packaged_pegging_table
    from crib_analyze.storage.atomic import resolve_target
    from crib_analyze.table.file import generate_table as run
    from crib_analyze.table.spec import TableSpec, shard_chunks

    r = TableRequest(opponent, fmt, limit, shard, restart, model, game).resolve()
    if r.engine == "any-game":
        return _game_table(output, cast(Rules, r.game), cast(str, r.opponent))
    opponent, limit, restart = cast(str, r.opponent), r.limit, bool(r.restart)
    shard_ij = cast("tuple[int, int] | None", r.shard)
    rules = cast(Rules, r.game)
    penalty, lowball, fives = str(rules.penalty), rules.lowball, rules.throw_fives
    variant = model_variant(fives, lowball) if opponent == "expert" else None
    plain_values = lowball or fives  # the play is not counted
    used = (
        resolve_model(model, "none" if plain_values else True, variant)
        if opponent == "expert" else None
    )  # fmt: skip
    spec = TableSpec(
        opponent,
        limit,
        used.fingerprint() if used is not None else None,
        None if plain_values else packaged_pegging_table().fingerprint(),  # no play counted
        penalty=penalty,
        lowball=lowball,
        throw_fives=fives,
    )
    if output is None:
        if shard_ij:
            target = default_shard_path(opponent, shard_ij, penalty, lowball, fives)
        elif limit is not None:  # a sample never takes the full table's name
            target = default_sample_path(opponent, limit, fmt or "parquet", penalty, lowball, fives)
        else:
            target = default_table_path(opponent, fmt or "parquet", penalty, lowball, fives)
        _in_data_dir(target)
    else:
        target = Path(output)
        full = {  # every full table's name, of every variant
            default_table_path(o, f, rule, low, five)
            for o in TABLE_OPPONENTS
            for f in ("parquet", "csv")
            for rule in PENALTIES
            for low in (False, True)
            for five in (False, True)
        }
        if limit is not None and resolve_target(target) in {resolve_target(p) for p in full}:
            raise UsageError(
                f"a `limit` sample would take the full table's name ({target}): give "
                "another `output`"
            )
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
    shards: Sequence[str | os.PathLike[str]] = (),
    output: str | os.PathLike[str] | None = None,
    fmt: str | None = None,
) -> TableResult:
    """Join the shard files of one run into one table (default: the user data dir).
    With no ``shards``, those in the user data dir, where ``table --shard`` writes them
    by default."""
    from crib_analyze.table.file import merge_tables as run
    from crib_analyze.table.file import read_file_metadata

    inputs = [Path(s) for s in shards]
    if not inputs:  # the shards a run wrote to the data dir by default
        folder = data_dir()
        inputs = sorted(folder.glob("discard_table*.shard-*-of-*.parquet"))
        if not inputs:
            raise UsageError(f"no shard files given, and none in {folder}")
    if output is None:
        meta = read_file_metadata(inputs[0])
        opponent = str(meta.get("opponent", DEFAULT_TABLE_OPPONENT))
        penalty, lowball = str(meta.get("penalty", "none")), bool(meta.get("lowball"))
        fives = bool(meta.get("throw_fives"))
        target = _in_data_dir(
            default_table_path(opponent, fmt or "parquet", penalty, lowball, fives)
        )
    else:
        target = Path(output)
    return run(inputs, target, fmt=table_format_for(target, fmt))


def _game_table(
    output: str | os.PathLike[str] | None, rules: Rules, opponent: str = "random"
) -> TableResult:
    """:func:`generate_table` of a game of five-card hands or a pack with jokers (a
    resolved request's; ``opponent`` the expert for the standard game with jokers)."""
    from crib_analyze.table.file import TableResult
    from crib_analyze.table.five_card import write_five_card_table
    from crib_analyze.table.jokers import write_joker_table

    name = rules.name
    default = default_game_table_path(
        name, rules.lowball, rules.penalty, rules.jokers, rules.throw_fives, opponent
    )
    target = Path(output) if output is not None else _in_data_dir(default)
    if table_format_for(target, None) != "parquet":
        what = f"{name} table" + (f" with {rules.jokers} joker(s)" if rules.jokers else "")
        raise UsageError(f"the {what} is written as Parquet: give a .parquet file")
    if rules.jokers:
        return TableResult(target, write_joker_table(target, rules, opponent))
    return TableResult(target, write_five_card_table(target, rules))


def _in_data_dir(target: Path) -> Path:
    """``target``, a default path in the user data dir, with the dir made on first use."""
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StorageError(f"cannot make {target.parent}: {describe_os_error(e)}") from None
    return target


def check_table(path: str | os.PathLike[str] | None = None) -> TableCheck:
    """Verify a table file, data included (default: the random table in the data dir)."""
    from crib_analyze.table.file import verify_table

    source = Path(path) if path is not None else default_table_path()
    if not source.exists():  # there, but not a file: verify_table says what it is
        raise TableError(f"no discard table at {source}: generate it with 'crib-analyze table'")
    return verify_table(source)


def load_table(
    path: str | os.PathLike[str] | None = None,
    columns: list[str] | None = None,
    filters: Any = None,
    verify: bool = True,
    trust_unverified: bool = False,
) -> pd.DataFrame:
    """Read a discard table written by ``crib-analyze table`` (only ``columns``, if given).

    The default is the random-opponent table in the user data dir. ``filters`` are
    pyarrow row filters (e.g. ``[("dealer_best", "==", True)]``). Text columns load as
    categoricals. The data is checked as it is read (every row group against its page
    CRCs and its stored checksum, a CSV file against its digest): a damaged file is a
    TableError. ``verify=False`` skips that, reading only the columns asked for (see
    benchmarks/README.md for what the check costs). A file without its provenance (a
    CSV with no ``.meta.json``) is a TableError unless ``trust_unverified``.
    """
    from crib_analyze.frames import read_table_frame

    return read_table_frame(
        path, columns=columns, filters=filters, verify=verify, trust_unverified=trust_unverified
    )


def lookup(
    hand: CardsLike,
    table: str | os.PathLike[str] | None = None,
    opponent: str | None = None,
    role: Role | None = None,
    trust_unverified: bool = False,
) -> pd.DataFrame:
    """A hand's 15 rows from a discard table written by ``crib-analyze table``, found by
    canonicalising its suits (:func:`crib_analyze.canonical_hand`) and written back in
    the hand's own suits, best first for ``role``.

    ``table`` defaults to the table of ``opponent`` in the data dir (the expert's, as
    :func:`analyze` defaults to); ranked by each role's total (the play counted) as the
    live analysis is, ``discard`` and ``keep`` in the hand's own order; ``df.attrs``
    carries the file's metadata, ``hand_id`` and each role's verdict.
    """
    from crib_analyze.frames import lookup_frame

    if role is not None:
        check_choice("role", role, ROLES)
    if opponent is not None and opponent not in TABLE_OPPONENTS:
        raise UsageError("tables are made with the random or the expert opponent")
    cards = parse_cards(hand, count=6)
    chosen = opponent or DEFAULT_OPPONENT
    path = Path(table) if table is not None else default_table_path(chosen)
    if table is None and not path.is_file():
        make = "crib-analyze table" + ("" if chosen == "random" else f" --opponent {chosen}")
        raise TableError(f"no discard table at {path}: generate it with '{make}'")
    return lookup_frame(cards, path, role=role, trust_unverified=trust_unverified)


def crib_table(
    role: Role = "dealer",
    opponent: str | None = None,
    table: str | os.PathLike[str] | None = None,
    partial: bool = False,
    trust_unverified: bool = False,
) -> pd.DataFrame:
    """Crib value of each of the 91 thrown rank pairs, averaged over the discards
    ``role`` chooses (the kind of table Schell and Hessel published).

    Without ``table``: the table shipped with the package for ``opponent`` (default
    expert), at once. With ``table`` (a file from ``crib-analyze table``): computed
    from it, under the opponent model named in its metadata (``opponent``, if given,
    must agree). A crib table describes every hand: a shard or a --limit sample is
    refused unless ``partial`` (then ``df.attrs["coverage"]`` says what it covers), and
    a file without its provenance unless ``trust_unverified``.

    >>> round(float(crib_table("pone").set_index("pair").loc["5-5", "crib_mean"]), 2)
    9.45
    """
    from crib_analyze.frames import (
        crib_table_frame,
        packaged_crib_table_frame,
        read_table_frame,
    )
    from crib_analyze.table.file import (
        coverage,
        read_table_metadata,
        standard_table,
        table_variants,
    )

    check_choice("role", role, ROLES)
    if opponent is not None:
        check_choice("opponent model", opponent, TABLE_OPPONENTS)
    if table is None:
        return packaged_crib_table_frame(role, opponent or DEFAULT_OPPONENT)
    source = Path(table)
    if not source.exists():
        raise TableError(f"no discard table at {source}")
    meta = read_table_metadata(source, trust_unverified)
    standard_table(source, meta, "a crib table")
    part = coverage(meta)
    if part and not partial:
        raise UsageError(
            f"{source} is {part}; a crib table describes every hand: merge the shards "
            "(table merge), or pass `partial` to use these hands only"
        )
    file_opponent = str(meta.get("opponent", "random"))
    if opponent is not None and opponent != file_opponent:
        raise UsageError(f"{source} was made with the {file_opponent} opponent, not {opponent}")
    crib_column = f"{role}_crib_mean" if file_opponent == "expert" else "crib_mean"
    columns = ["hand_id", "weight", "d1", "d2", crib_column, f"{role}_best"]
    data = read_table_frame(source, columns=columns, trust_unverified=trust_unverified)
    frame = crib_table_frame(data, role, crib_column)
    unverified = meta.get("unverified")
    return with_meta(frame, CribTableMeta(
        role=role, opponent=str(file_opponent), source=str(source), coverage=part,
        variants=table_variants(meta),
        unverified=unverified, notes=(unchecked_words(unverified),) if unverified else (),
    ))  # fmt: skip


def plot_crib_tables(
    path: str | os.PathLike[str],
    opponent: str | None = None,
    table: str | os.PathLike[str] | None = None,
    partial: bool = False,
    trust_unverified: bool = False,
) -> Path:
    """Heatmaps of the crib value of the 91 thrown rank pairs for the dealer, the pone
    and their difference (the tables of :func:`crib_table`) to ``path`` (.png/.svg)."""
    from crib_analyze.plots import check_plot, crib_heatmaps

    check_plot(path)
    tables: dict[str, pd.DataFrame] = {
        r: crib_table(r, opponent, table, partial, trust_unverified) for r in ROLES
    }
    first = tables["dealer"].attrs
    source = "shipped table" if first.get("source") == "packaged" else str(first.get("source"))
    return crib_heatmaps(tables, str(first.get("opponent")), source, path)
