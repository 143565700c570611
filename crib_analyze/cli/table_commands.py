"""Commands about the full discard table: ``table`` (generate; ``merge`` and ``check``)
and ``crib-table`` (the crib value of each thrown rank pair)."""

from __future__ import annotations

import re

import click

from crib_analyze.cli.arguments import asked_for, chosen, game_rules, role_of, set_threads
from crib_analyze.cli.options import (
    checked_output,
    checks_option,
    count_option,
    game_option,
    jobs_option,
    jokers_option,
    lowball_option,
    model_option,
    output_options,
    penalty_option,
    quiet_option,
    role_option,
    table_format_option,
    throw_fives_option,
    trust_unverified_option,
)
from crib_analyze.cli.output import (
    Interrupted,
    domain_errors,
    emit,
    note,
    progress,
    unverified_note,
    warn_if_long,
    with_cost,
)
from crib_analyze.costs import cost, table_seconds
from crib_analyze.settings import (
    DEFAULT_TABLE_OPPONENT,
    OPPONENTS,
    ROLES,
    TABLE_LIMIT,
    TABLE_OPPONENTS,
    TOP,
)
from crib_analyze.words import counted


@with_cost(
    lambda: f"{cost('table').text()} (random opponent)",
    lambda: f"{cost('table-expert').text()} with --opponent expert",
    lambda: f"{cost('table-five-card').text()} with --game five-card",
    lambda: f"{cost('table-throw-one').text()} with --game five-dealt, three, four or five",
    lambda: f"{cost('table-penalty').text()} with --penalty",
    lambda: f"{cost('table-expert-penalty').text()} with --penalty and --opponent expert",
    lambda: f"{cost('table-throw-fives').text()} with --throw-fives",
    lambda: f"{cost('table-jokers').text()} with --jokers",
    lambda: f"{cost('table-jokers-expert').text()} with --jokers and --opponent expert",
)
@click.group(invoke_without_command=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    callback=checked_output,
    help="Table file [default: discard_table.parquet (discard_table_expert.parquet for "
    "the expert opponent; a variant's name says it) in the user data dir].",
)
@table_format_option("from the file name: .csv is CSV, else Parquet")
@click.option(
    "--opponent",
    type=click.Choice(TABLE_OPPONENTS),
    default=DEFAULT_TABLE_OPPONENT,
    show_default=True,
    help="Opponent model for the crib: random (exact) or expert.",
)
@model_option
@count_option("--limit", setting=TABLE_LIMIT, default=False, help="Only the first N hand classes.")
@click.option("--shard", metavar="I/N", help="Compute the I-th of N disjoint slices.")
@jobs_option
@click.option("--restart", is_flag=True, help="Discard finished chunks of an earlier run.")
@game_option
@penalty_option(
    "the table gains each throw's chances of a hand and a crib of nothing, and ranks by "
    "the net with the points the rule moves (every game's table)."
)
@lowball_option(
    "each role's best throw is the fewest points (the random opponent, or the lowball "
    "expert with --opponent expert; the play is not counted)."
)
@throw_fives_option(
    "The standard table ranks the throws the rule allows (a `legal` column), the opponent "
    "obeying it too; the play is not counted."
)
@jokers_option(
    "Jokers in the pack (53 or 54 cards): the table of every hand of that pack, each "
    "joker at its best, against the random opponent (every game's table, with any other "
    "variant) or the standard game's expert of the pack (--opponent expert); the play is "
    "not counted."
)
@quiet_option
@click.pass_context
def table(
    ctx: click.Context,
    output: str | None,
    fmt: str | None,
    opponent: str,
    model: str | None,
    limit: int | None,
    shard: str | None,
    jobs: int | None,
    restart: bool,
    game: str,
    penalty: str,
    lowball: bool,
    throw_fives: bool,
    jokers: int,
    quiet: bool,
) -> None:
    """Generate the discard table: every suit-distinct six-card hand x 15 discards.

    962,988 hand classes (each with its weight, the raw hands it stands for), 14,444,820
    rows: hand and crib expectations (random opponent, exact; or --opponent expert,
    with a crib per role), heels, dealer and pone nets, and each role's best discards.
    Work is saved in chunks beside the output, so an interrupted or killed run resumes
    where it stopped (Ctrl-C lets the running chunk finish; twice stops at once); the
    file appears only when complete.

    With --game five-card: the old five-card game's table, every suit-distinct
    five-card hand x its 10 throws of two (134,459 hands, 1,344,590 rows), exact with
    the random opponent. With --game five-dealt, three, three-dealer-six, four or five:
    every suit-distinct five-card hand x its 5 throws of one (672,295 rows), exact with
    the random opponent, with owner_net (the seat's side owns the crib: the dealer, and
    its partner in four) and other_net (another does); the metadata names the seats of
    each. Canadian doubles has none (its seats split ten cards).

    With --penalty zero or back-ten the standard table has the chances of a zero
    (p_hand_zero; p_crib_zero, or a role's with the expert opponent), the points the rule
    moves (dealer_penalty, pone_penalty) and nets and best throws that count them. With
    --lowball each role's best throw is the one of fewest points, and the play is not
    counted (no pegging columns). The other games' tables take both. With --throw-fives
    the standard table ranks the throws the rule allows (a legal column), against the
    random opponent obeying it or the throw-fives expert; the other games' tables too,
    the other seats random and obeying it.

    With --jokers 1 or 2: the standard game with a 53- or 54-card pack, every
    suit-distinct hand of it (those holding jokers too: 1,097,447 or 1,113,879 hands)
    x 15 throws, exact with the random opponent, each joker counted at its best in
    the hand, cut or in the crib; with --lowball, --penalty and --throw-fives too (the
    other seats random cards that obey it). With --opponent expert, against the game
    model's expert of the pack read per multiset of ranks and jokers, exact at that
    level (with --lowball, --penalty or --throw-fives too, the pack's expert under
    them). The play is not counted. With --game five-card, five-dealt, three,
    three-dealer-six, four or five as well: every hand of five of that pack (150,891
    or 152,646) x its throws.

    \b
    Examples:
      crib-analyze table                       # the random table, in the data dir
      crib-analyze table --opponent expert     # the expert table
      crib-analyze table --limit 20000 -o sample.parquet
      crib-analyze table --shard 1/2           # on one machine; 2/2 on another
      crib-analyze table merge discard_table.shard-*-of-2.parquet
      crib-analyze table --game five-card      # the five-card game's table
      crib-analyze table --game three          # a seat dealt five that throws one
      crib-analyze table --penalty back-ten    # a table that counts the rule
      crib-analyze table --jokers 1            # a pack with a joker
      crib-analyze table --jokers 1 --opponent expert
    """
    if ctx.invoked_subcommand is not None:
        return
    from crib_analyze.api import generate_table

    set_threads(jobs)
    sliced = re.fullmatch(r"(\d+)/(\d+)", shard or "1/1")
    if sliced and 1 <= int(sliced[1]) <= int(sliced[2]):  # else the shard's own error
        share = (limit or TABLE_LIMIT.hi) / TABLE_LIMIT.hi / int(sliced[2])
        expected = table_seconds(opponent, game, penalty, throw_fives, jokers)
        warn_if_long(expected * min(share, 1.0), "the table", quiet)
    asked = asked_for(opponent=opponent, fmt=fmt, limit=limit, shard=shard, restart=restart)
    try:
        with domain_errors(), progress("chunks", quiet) as bar:
            result = generate_table(
                output, model=model, on_chunk=bar,
                on_warning=lambda msg: note(f"Warning: {msg}"),
                game=game_rules(game, lowball, throw_fives, penalty, jokers), **asked,
            )  # fmt: skip
    except KeyboardInterrupt:
        raise Interrupted(
            "rerun the same command to resume (a standard table keeps its finished chunks "
            "beside the output, the expert's table with jokers its finished parts)"
        ) from None
    if quiet:
        return
    chunks = result.chunks_computed + result.chunks_reused
    note(
        f"wrote {result.rows:,} rows to {result.output}"
        + (
            f" ({counted(result.chunks_computed, 'chunk', 'computed')}, "
            f"{result.chunks_reused} resumed)"
            if chunks
            else ""
        )
    )


@table.command("merge")
@click.argument("shards", nargs=-1, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    callback=checked_output,
    help="The merged table file [default: the run's table in the user data dir].",
)
@table_format_option("from the file name: .csv is CSV, else Parquet")
def table_merge(shards: tuple[str, ...], output: str | None, fmt: str | None) -> None:
    """Join the shard files of one run (from table --shard I/N) into one table.

    With no SHARDS, the shard files in the user data dir (where table --shard writes
    them by default). The shards must come from the same version and settings, be
    disjoint and together cover every chunk; otherwise nothing is written.
    """
    from crib_analyze.api import merge_tables

    with domain_errors():
        result = merge_tables(shards, output, fmt=fmt)
    note(f"wrote {result.rows:,} rows to {result.output}")


@table.command("check")
@click.argument("path", required=False, type=click.Path(dir_okay=False))
def table_check(path: str | None) -> None:
    """Verify a table file, data included: every row group against its checksum, then
    rows, hands, weights (20,358,520 raw hands in a full table), one row per (hand,
    discard) and a best discard for each role in every hand. PATH defaults to the
    random table in the user data dir. A --limit file is reported as a sample."""
    from crib_analyze.api import check_table

    with domain_errors():
        found = check_table(path)
    click.echo(f"ok: {found.summary}")


@table.command("lookup")
@click.argument("cards", nargs=-1, required=True)
@click.option("--dealer", is_flag=True, help="Rank for the dealer.")
@click.option("--pone", is_flag=True, help="Rank for the pone.")
@role_option
@click.option(
    "--opponent",
    type=click.Choice(TABLE_OPPONENTS),
    default=DEFAULT_TABLE_OPPONENT,
    show_default=True,
    help="Whose table to read when --table is not given (the table of that opponent "
    "model in the data dir).",
)
@click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    help="The table file to read [default: the --opponent's table in the data dir].",
)
@count_option(
    "--top", setting=TOP, default=False, help="Show only the best N discards of each role."
)
@trust_unverified_option
@output_options
def table_lookup(
    cards: tuple[str, ...], dealer: bool, pone: bool, role: str | None, opponent: str,
    table_path: str | None, top: int | None, trust_unverified: bool, fmt: str,
    output: str | None,
) -> None:  # fmt: skip
    """A hand's rows read from a written table: its 15 throws, at once (the same as
    'discard --from-table', kept as an alias).

    \b
    Examples:
      crib-analyze table lookup 5H 6S 4D JC QH 5C --dealer
      crib-analyze table lookup 5H 6S 4D JC QH 5C --table sample.parquet -f csv
    """
    from crib_analyze.cli.discard_modes import discard_from_table

    chosen = role_of(dealer, pone, role=role)
    discard_from_table(
        cards, table_path or "", trust_unverified, opponent, chosen, None, fmt, output, top
    )


@click.command("crib-table")
@checks_option
@click.option("--dealer", is_flag=True, help="The dealer's best discards (the default).")
@click.option("--pone", is_flag=True, help="The pone's best discards.")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    help="Whose best discards to average: --dealer or --pone [default: dealer].",
)
@click.option(
    "--opponent",
    type=click.Choice(TABLE_OPPONENTS),
    help="The opponent model [default: expert; with --table, the one the file was made with].",
)
@click.option(
    "--table",
    "table_path",
    type=click.Path(dir_okay=False),
    help="Compute from this discard table (from 'crib-analyze table') instead of "
    "printing the table shipped with the package.",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also draw 13x13 heatmaps of both roles' crib values and their difference to "
    "FILE (.png or .svg; needs the plot extra).",
)
@click.option(
    "--partial",
    is_flag=True,
    help="With --table, accept a shard or a --limit sample (the averages then cover "
    "those hands only).",
)
@trust_unverified_option
@output_options
def crib_table(
    dealer: bool,
    pone: bool,
    role: str | None,
    opponent: str | None,
    table_path: str | None,
    plot_path: str | None,
    partial: bool,
    trust_unverified: bool,
    fmt: str,
    output: str | None,
) -> None:
    """Crib value of each thrown rank pair, averaged over the discards a role chooses.

    For each of the 91 rank pairs (and suited / unsuited): the weighted mean crib
    of the best discards of that role over every hand (under the random or the
    expert opponent), and how often the role throws it: the kind of table Schell and
    Hessel published. Prints the shipped table at once, or computes it from a table
    file with --table.
    """
    from crib_analyze.api import check_plot, plot_crib_tables
    from crib_analyze.api import crib_table as run
    from crib_analyze.render.common import rows_csv, rows_json
    from crib_analyze.render.hands import crib_table_text
    from crib_analyze.results import rows_of_frame

    role = role_of(dealer, pone, role=role) or "dealer"
    with domain_errors():
        if plot_path is not None:
            check_plot(plot_path)
        theirs = None if opponent is None else chosen(opponent, OPPONENTS)
        frame = run(chosen(role, ROLES), theirs, table_path, partial, trust_unverified)
        rows = rows_of_frame(frame)
    unverified_note(rows)
    if fmt == "table":
        text = crib_table_text(rows)
    else:
        text = (rows_csv if fmt == "csv" else rows_json)(rows)
    emit(text, output)
    if plot_path is not None:
        with domain_errors():
            drawn = plot_crib_tables(
                plot_path,
                opponent=opponent,
                table=table_path,
                partial=partial,
                trust_unverified=trust_unverified,
            )
        note(f"wrote the plot to {drawn}")
