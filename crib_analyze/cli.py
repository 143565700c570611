"""Command-line interface: parse arguments, call the API, format the result. No math here.

Heavy modules (numba, pandas) are imported inside the commands so that ``--help``
and ``--version`` answer at once.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import click

from crib_analyze.cards import CardError, format_cards, parse_card, parse_cards

FORMATS = ("table", "csv", "json")


class OneLineErrors(click.Group):
    """A group whose usage errors print as one line (``Error: ...``) with exit code 2."""

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **extra)
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()  # a bare command: its help, as click shows it
            sys.exit(2)
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx else "crib-analyze"
            click.echo(f"Error: {e.format_message()} (see '{cmd} --help')", err=True)
            sys.exit(2)
        except click.ClickException as e:
            click.echo(f"Error: {e.format_message()}", err=True)
            sys.exit(e.exit_code)
        except click.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except BrokenPipeError:
            sys.exit(1)
        sys.exit(rv if isinstance(rv, int) else 0)


def _version() -> str:
    from crib_analyze import __version__

    return __version__


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(_version(), "--version", "-V", prog_name="crib-analyze")
def cli() -> None:
    """Exact, role-aware discard analysis for two-player cribbage.

    Cards are written rank then suit: A 2-9 T (or 10) J Q K and C D H S (or ♣ ♦ ♥ ♠),
    in any case, e.g. 5H 10d J♣. A hand may be separate arguments or one quoted string.
    """


# --- shared options -------------------------------------------------------------------


def output_options(default: str = "table") -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--format and --output, shared by every command that prints results."""

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        f = click.option(
            "--output",
            "-o",
            type=click.Path(dir_okay=False, writable=True),
            help="Write to FILE (atomically) instead of standard output.",
        )(f)
        f = click.option(
            "--format",
            "-f",
            "fmt",
            type=click.Choice(FORMATS),
            default=default,
            show_default=True,
            help="table for people; csv and json (full precision) for programs.",
        )(f)
        return f

    return decorate


jobs_option = click.option(
    "--jobs", "-j", type=click.IntRange(min=1), help="Threads to use [default: all cores]."
)
table_format_option = click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["parquet", "csv"]),
    default="parquet",
    show_default=True,
    help="Parquet (for pandas) or CSV.",
)


def set_threads(jobs: int | None) -> None:
    """Cap numba's threads (--jobs)."""
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def emit(text: str, output: str | None) -> None:
    """Print, or write the whole text to a file atomically."""
    if output is None:
        click.echo(text, nl=False)
        return
    from crib_analyze.atomic import atomic_write_text

    try:
        atomic_write_text(output, text)
    except OSError as e:
        raise click.FileError(output, hint=e.strerror or str(e)) from None


def cards_or_fail(tokens: Any, count: int) -> list[int]:
    """Parse cards for a command; a bad token is a usage error naming it."""
    try:
        return parse_cards(list(tokens), count=count)
    except CardError as e:
        raise click.UsageError(str(e)) from None


# --- score ----------------------------------------------------------------------------


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--starter", "-s", required=True, help="The cut card, e.g. 5D.")
@click.option("--crib", is_flag=True, help="Crib rules (flush needs all five cards).")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Readable breakdown or one JSON object.",
)
def score(cards: tuple[str, ...], starter: str, crib: bool, fmt: str) -> None:
    """Score four cards plus a starter: fifteens, pairs, runs, flush, nobs, total.

    \b
    Example:
      crib-analyze score 5H 5C 5S JD --starter 5D
    """
    from crib_analyze.render import breakdown_json, breakdown_text
    from crib_analyze.score import score_breakdown

    hand = cards_or_fail(cards, 4)
    try:
        cut = parse_card(starter.strip())
    except CardError as e:
        raise click.UsageError(f"--starter: {e}") from None
    if cut in hand:
        raise click.UsageError(f"--starter {format_cards([cut])} is also one of the four cards")
    parts = score_breakdown(hand, cut, crib=crib)
    render = breakdown_json if fmt == "json" else breakdown_text
    click.echo(render(format_cards(hand), format_cards([cut]), crib, parts), nl=False)


# --- discard --------------------------------------------------------------------------


@cli.command()
@click.argument("cards", nargs=-1)
@click.option("--dealer", is_flag=True, help="Rank for the dealer (hand + crib + heels).")
@click.option("--pone", is_flag=True, help="Rank for the pone (hand - crib).")
@click.option(
    "--opponent",
    type=click.Choice(["expert", "random", "sampled"]),
    default="expert",
    show_default=True,
    help="How the opponent's two crib cards are chosen: expert (the role-specific "
    "throw models of build-model, exact combination), random pair (exact), or "
    "sampled opponent hands thrown by --policy.",
)
@click.option(
    "--policy",
    type=click.Choice(["random", "expert"]),
    default="random",
    show_default=True,
    help="With --opponent sampled: the opponent throws its best discard under the "
    "random or the expert crib model.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=1),
    default=2000,
    show_default=True,
    help="Opponent hands drawn by --opponent sampled.",
)
@click.option(
    "--seed", type=int, default=0, show_default=True, help="Random seed for --opponent sampled."
)
@click.option(
    "--need",
    type=click.IntRange(0, 29),
    help="Add P(hand alone scores >= N), exact over the 46 starters.",
)
@click.option(
    "--sort",
    type=click.Choice(["net", "hand", "crib", "need"]),
    default="net",
    show_default=True,
    help="Ranking key (crib: highest for the dealer, lowest for the pone).",
)
@click.option("--top", type=click.IntRange(min=1), help="Show only the best N discards.")
@click.option(
    "--hands-file",
    type=click.File("r", encoding="utf-8"),
    help="Analyse one hand per line of FILE ('-' for standard input); "
    "adds a hand column. Blank lines and # comments are skipped.",
)
@output_options()
def discard(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    opponent: str,
    policy: str,
    samples: int,
    seed: int,
    need: int | None,
    sort: str,
    top: int | None,
    hands_file: TextIO | None,
    fmt: str,
    output: str | None,
) -> None:
    """Rank the 15 ways to throw two of six cards, for the dealer or the pone.

    For each throw: the kept hand's exact expectation over the 46 unseen starters
    (with min, max, spread), the crib's expectation under the opponent model, and
    the net for the role. With neither --dealer nor --pone both roles are shown.

    \b
    Examples:
      crib-analyze discard 5H 6S 4D JC QH 5C --dealer
      crib-analyze discard "5h 6s 4d jc qh 5c" --pone --opponent sampled --seed 7
      crib-analyze discard --hands-file hands.txt --format csv -o out.csv
    """
    from crib_analyze.api import analyze
    from crib_analyze.frames import with_hand_column
    from crib_analyze.render import discard_table_text, frame_csv, frame_json

    if dealer and pone:
        raise click.UsageError("choose one of --dealer and --pone, not both")
    if sort == "need" and need is None:
        raise click.UsageError("--sort need requires --need N")
    if hands_file is not None and cards:
        raise click.UsageError("give cards or --hands-file, not both")
    if policy != "random" and opponent != "sampled":
        raise click.UsageError("--policy applies to --opponent sampled only")
    if opponent == "expert" or policy == "expert":
        from crib_analyze.expert import ModelError, default_model

        try:
            default_model()
        except ModelError as e:
            raise click.ClickException(str(e)) from None
    role = "dealer" if dealer else "pone" if pone else None

    def run(hand: list[int]) -> Any:
        frame = analyze(
            hand,
            role=role,  # type: ignore[arg-type]
            opponent=opponent,  # type: ignore[arg-type]
            policy=policy,  # type: ignore[arg-type]
            samples=samples,
            seed=seed,
            need=need,
            sort=sort,  # type: ignore[arg-type]
        )
        return frame.head(top) if top else frame

    if hands_file is None:
        hand = cards_or_fail(cards, 6)
        frame = run(hand)
        hand_text = format_cards(hand)
        if fmt == "table":
            text = discard_table_text(frame, hand_text)
        else:
            text = (frame_csv if fmt == "csv" else frame_json)(frame)
        emit(text, output)
        return

    import pandas as pd

    frames, tables, failures = [], [], 0
    try:
        lines = list(_read_hands(hands_file))
    except UnicodeDecodeError as e:
        raise click.BadParameter(
            f"{hands_file.name} is not UTF-8 text ({e.reason})", param_hint="--hands-file"
        ) from None
    for lineno, parsed in lines:
        if isinstance(parsed, CardError):
            failures += 1
            click.echo(f"Error: {hands_file.name} line {lineno}: {parsed}", err=True)
            continue
        frame = run(parsed)
        hand_text = format_cards(parsed)
        if fmt == "table":
            tables.append(discard_table_text(frame, hand_text))
        else:
            frames.append(with_hand_column(frame, hand_text))
    if fmt == "table":
        text = "\n".join(tables)
    elif frames:
        merged = pd.concat(frames, ignore_index=True)
        text = (frame_csv if fmt == "csv" else frame_json)(merged)
    else:
        text = "" if fmt == "csv" else "[]\n"
    emit(text, output)
    if failures:
        click.echo(f"{failures} line(s) failed", err=True)
        raise click.exceptions.Exit(1)


def _read_hands(stream: TextIO) -> Iterator[tuple[int, list[int] | CardError]]:
    """(line number, parsed hand or the error) for each non-blank, non-comment line."""
    for lineno, raw in enumerate(stream, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            yield lineno, parse_cards(text, count=6)
        except CardError as e:
            yield lineno, e


# --- build-model ------------------------------------------------------------------------


@cli.command("build-model")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    default="data/expert_model.npz",
    show_default=True,
    help="Where to write the model (atomically).",
)
@click.option(
    "--tolerance",
    type=click.FloatRange(min=0, min_open=True),
    default=1e-3,
    show_default=True,
    help="Stop when no role crib value moves by this much in a round.",
)
@click.option(
    "--max-rounds", type=click.IntRange(min=1), default=200, show_default=True, help="Round cap."
)
@jobs_option
@click.option("--quiet", "-q", is_flag=True, help="No per-round log.")
def build_model(
    output: str, tolerance: float, max_rounds: int, jobs: int | None, quiet: bool
) -> None:
    """Build the expert opponent: role-specific throw models by damped fixed point.

    Starts from the random opponent; each round every suit-distinct hand (weighted by
    the raw hands it stands for) picks its best discard as dealer and as pone against
    the current models, and the throw statistics of those choices are averaged into
    the models with weight 1/k (fictitious play). Logs each round's largest change.
    """
    from crib_analyze.expert import RoundLog
    from crib_analyze.expert import build_model as run

    set_threads(jobs)

    def log(r: RoundLog) -> None:
        if not quiet:
            click.echo(
                f"round {r.round:3d}  role-table change {r.table_change:.5f}  "
                f"class change {r.class_change:.5f}  {r.seconds:.1f} s",
                err=True,
            )

    model = run(tolerance=tolerance, max_rounds=max_rounds, log=log)
    model.save(output)
    p = model.provenance
    state = "converged" if p["converged"] else "NOT converged"
    click.echo(f"{state} after {p['rounds']} rounds in {p['seconds']} s; wrote {output}", err=True)
    if not p["converged"]:
        raise click.exceptions.Exit(1)


# --- table ----------------------------------------------------------------------------


def _progress(quiet: bool, length: int, label: str) -> Any:
    """click's progress bar on a terminal (rate/ETA); a no-op when quiet or piped."""
    import contextlib

    if quiet or not sys.stderr.isatty():
        return contextlib.nullcontext(None)
    return click.progressbar(
        length=length, label=label, file=sys.stderr, show_pos=True, show_eta=True
    )


@cli.group(invoke_without_command=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Table file [default: data/discard_table.parquet, _expert.parquet for the "
    "expert opponent, .shard-I-of-N.parquet with --shard].",
)
@table_format_option
@click.option(
    "--opponent",
    type=click.Choice(["random", "expert"]),
    default="random",
    show_default=True,
    help="Opponent model for the crib: random (exact) or expert (the shipped model).",
)
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N hand classes.")
@click.option("--shard", metavar="I/N", help="Compute the I-th of N disjoint slices.")
@jobs_option
@click.option("--restart", is_flag=True, help="Discard finished chunks of an earlier run.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@click.pass_context
def table(
    ctx: click.Context,
    output: str | None,
    fmt: str,
    opponent: str,
    limit: int | None,
    shard: str | None,
    jobs: int | None,
    restart: bool,
    quiet: bool,
) -> None:
    """Generate the discard table: every suit-distinct six-card hand x 15 discards.

    962,988 hand classes (each with its weight, the raw hands it stands for), 14,444,820
    rows: hand and crib expectations (random opponent, exact; or --opponent expert,
    with a crib per role), heels, dealer and pone nets, and each role's best discards.
    Work is saved in chunks beside the output, so an interrupted run resumes where it
    stopped (the first Ctrl-C lets the running chunk finish); the file appears only
    when complete.

    \b
    Examples:
      crib-analyze table                       # data/discard_table.parquet
      crib-analyze table --opponent expert     # data/discard_table_expert.parquet
      crib-analyze table --limit 20000 -o sample.parquet
      crib-analyze table --shard 1/2           # on one machine; 2/2 on another
      crib-analyze table merge data/discard_table.shard-*-of-2.parquet
    """
    if ctx.invoked_subcommand is not None:
        return
    import shutil
    from pathlib import Path

    from crib_analyze.table import (
        TableError,
        TableSpec,
        default_output,
        generate_table,
        parse_shard,
        parts_dir,
        shard_chunks,
    )

    try:
        spec = TableSpec(opponent=opponent, limit=limit)
        shard_ij = parse_shard(shard) if shard else None
    except TableError as e:
        raise click.UsageError(str(e)) from None
    if shard_ij and fmt != "parquet":
        raise click.UsageError("--shard writes Parquet; choose the format when merging")
    if output is None:
        output = str(
            default_output(opponent).with_suffix(f".shard-{shard_ij[0]}-of-{shard_ij[1]}.parquet")
            if shard_ij
            else default_output(opponent, fmt)
        )
    target = Path(output)
    set_threads(jobs)
    if restart:
        shutil.rmtree(parts_dir(target), ignore_errors=True)
    n_chunks = len(shard_chunks(spec, shard_ij))
    try:
        with _progress(quiet, n_chunks, "chunks") as bar:
            result = generate_table(
                target,
                spec,
                fmt=fmt,
                shard=shard_ij,
                on_chunk=(lambda _k: bar.update(1)) if bar is not None else None,
                on_warning=lambda msg: click.echo(f"Warning: {msg}", err=True),
            )
    except TableError as e:
        raise click.ClickException(str(e)) from None
    except KeyboardInterrupt:
        click.echo(
            f"Interrupted: finished chunks are kept in {parts_dir(target)}; rerun to resume "
            "(the first Ctrl-C lets the current chunk finish, a second one stops at once).",
            err=True,
        )
        raise click.exceptions.Exit(130) from None
    if not quiet:
        click.echo(
            f"wrote {result.rows:,} rows to {result.output} "
            f"({result.chunks_computed} chunks computed, {result.chunks_reused} resumed)",
            err=True,
        )


@table.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    default="data/discard_table.parquet",
    show_default=True,
    help="The merged table file.",
)
@table_format_option
def table_merge(shards: tuple[str, ...], output: str, fmt: str) -> None:
    """Join the shard files of one run (from table --shard I/N) into one table.

    The shards must come from the same version and settings, be disjoint and together
    cover every chunk; otherwise nothing is written.
    """
    from pathlib import Path

    from crib_analyze.table import TableError, merge_tables

    try:
        rows = merge_tables([Path(s) for s in shards], Path(output), fmt=fmt)
    except TableError as e:
        raise click.ClickException(str(e)) from None
    click.echo(f"wrote {rows:,} rows to {output}", err=True)


@table.command("check")
@click.argument(
    "path", default="data/discard_table.parquet", type=click.Path(exists=True, dir_okay=False)
)
def table_check(path: str) -> None:
    """Verify a complete table: 14,444,820 rows, weights summing to 20,358,520 raw
    hands, one row per (hand, discard), a best discard for each role in every hand."""
    from pathlib import Path

    from crib_analyze.table import TableError, verify_table

    try:
        counts = verify_table(Path(path))
    except TableError as e:
        raise click.ClickException(str(e)) from None
    click.echo(
        f"ok: {counts['rows']:,} rows, {counts['classes']:,} hands, "
        f"weights sum to {counts['weight_sum']:,}"
    )


# --- crib-table -----------------------------------------------------------------------


@cli.command("crib-table")
@click.option(
    "--role",
    type=click.Choice(["dealer", "pone"]),
    default="dealer",
    show_default=True,
    help="Whose best discards to average.",
)
@click.option(
    "--opponent",
    type=click.Choice(["expert", "random"]),
    default="expert",
    show_default=True,
    help="The opponent model of the table to average.",
)
@click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    help="The discard table written by 'crib-analyze table' [default: "
    "data/discard_table_expert.parquet, or data/discard_table.parquet for random].",
)
@click.option(
    "--save/--no-save",
    default=True,
    show_default=True,
    help="Also write data/crib_table_ROLE.csv (ROLE_expert.csv for an expert table).",
)
@output_options()
def crib_table(
    role: str, opponent: str, table_path: str | None, save: bool, fmt: str, output: str | None
) -> None:
    """Crib value of each thrown rank pair, averaged over the discards a role chooses.

    For each of the 91 rank pairs (and suited / unsuited): the weighted mean crib
    of the best discards of that role in the full table (under the table's opponent
    model, random or expert), and how often the role throws it — the kind of table
    Schell and Hessel published.
    """
    from pathlib import Path

    from crib_analyze.api import load_table
    from crib_analyze.frames import crib_table_frame
    from crib_analyze.render import crib_table_text, frame_csv, frame_json
    from crib_analyze.table import TableError, default_output, read_file_metadata

    table_path = table_path or str(default_output(opponent))
    if not Path(table_path).exists():
        hint = "" if opponent == "random" else f" --opponent {opponent}"
        raise click.ClickException(
            f"no discard table at {table_path}: generate it with 'crib-analyze table{hint}'"
        )
    try:
        file_opponent = read_file_metadata(Path(table_path)).get("opponent", "random")
    except TableError as e:
        raise click.ClickException(str(e)) from None
    if file_opponent != opponent:
        raise click.ClickException(
            f"{table_path} was made with the {file_opponent} opponent, not {opponent} "
            f"(pass --opponent {file_opponent})"
        )
    crib_column = f"{role}_crib_mean" if opponent == "expert" else "crib_mean"
    columns = ["hand_id", "weight", "d1", "d2", crib_column, f"{role}_best"]
    try:
        frame = crib_table_frame(
            load_table(table_path, columns=columns),
            role,  # type: ignore[arg-type]
            crib_column=crib_column,
        )
    except (OSError, KeyError, ValueError) as e:
        raise click.ClickException(f"cannot read {table_path}: {e}") from None
    frame.attrs["opponent"] = opponent
    if save:
        suffix = "" if opponent == "random" else f"_{opponent}"
        emit(frame_csv(frame), f"data/crib_table_{role}{suffix}.csv")
    if fmt == "table":
        text = crib_table_text(frame)
    else:
        text = (frame_csv if fmt == "csv" else frame_json)(frame)
    emit(text, output)


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="crib-analyze")
