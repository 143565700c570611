"""Command-line interface: parse arguments, call the API, render. No domain logic here.

Every domain error (:mod:`crib_analyze.errors`) becomes one ``Error: ...`` line on
standard error and an exit code: 2 for bad input, 1 for a failure (a file that cannot
be written, a damaged table), 130 for Ctrl-C. Heavy modules (numba, pandas) are
imported inside the commands, so ``--help`` and ``--version`` answer at once.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO

import click

from crib_analyze.cards import format_cards, parse_cards
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
    GOALS,
    MAX_SAMPLES,
    MODEL_ENV,
    OPPONENTS,
    OUTPUT_FORMATS,
    PEGGING_CHOICES,
    POLICIES,
    ROLES,
    SCORINGS,
    SORT_KEYS,
    TABLE_FORMATS,
    TABLE_OPPONENTS,
    __version__,
)
from crib_analyze.errors import CardError, CribAnalyzeError, describe_os_error


class OneLineErrors(click.Group):
    """A group whose errors print as one line (``Error: ...``) with a clear exit code."""

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
        code = 0
        try:
            rv = super().main(args, prog_name, complete_var, False, **extra)
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()  # a bare command: its help, as click shows it
            code = 2
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx else "crib-analyze"
            _error(f"{e.format_message()} (see '{cmd} --help')")
            code = 2
        except click.ClickException as e:
            _error(e.format_message())
            code = e.exit_code
        except CribAnalyzeError as e:  # a domain error that reached here unconverted
            _error(str(e))
            code = e.exit_code
        except (click.Abort, KeyboardInterrupt):
            _error("interrupted", prefix="")
            code = 130
        except BrokenPipeError:
            _silence_stdout()
            code = 1
        except OSError as e:  # standard output or error could not be written
            _silence_stdout()
            _error(f"cannot write the output: {describe_os_error(e)}")
            code = 1
        code = _flush_stdout(code)
        sys.exit(code)


def _error(message: str, prefix: str = "Error: ") -> None:
    with contextlib.suppress(OSError):
        click.echo(f"{prefix}{message}".rstrip(), err=True)


def _flush_stdout(code: int) -> int:
    """Flush standard output now, so a full disk or closed pipe is one line, not a
    traceback at interpreter exit."""
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        _silence_stdout()
        return code or 1
    except OSError as e:
        _silence_stdout()
        _error(f"cannot write the output: {describe_os_error(e)}")
        return code or 1
    return code


def _silence_stdout() -> None:
    """Point standard output at /dev/null so Python's exit-time flush cannot fail."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@contextlib.contextmanager
def domain_errors() -> Iterator[None]:
    """Turn library errors into click's: bad input is a usage error (exit 2), the rest 1."""
    try:
        yield
    except CribAnalyzeError as e:
        if e.exit_code == 2:
            raise click.UsageError(str(e)) from None
        raise click.ClickException(str(e)) from None


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="crib-analyze")
def cli() -> None:
    """Exact, role-aware discard analysis for two-player cribbage.

    Cards are written rank then suit: A 2-9 T (or 10) J Q K and C D H S (or ♣ ♦ ♥ ♠),
    in any case, e.g. 5H 10d J♣. A hand may be separate arguments or one quoted string.

    Generated files (tables, rebuilt models) go to the user data directory unless
    -o/--output says otherwise; 'crib-analyze paths' shows where.
    """


# --- shared options ---------------------------------------------------------------------------


def output_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--format and --output, shared by every command that prints results."""
    f = click.option(
        "--output",
        "-o",
        type=click.Path(dir_okay=False),
        help="Write to FILE (whole or not at all) instead of standard output.",
    )(f)
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(OUTPUT_FORMATS),
        default="table",
        show_default=True,
        help="table for people; csv and json (full precision) for programs.",
    )(f)


jobs_option = click.option(
    "--jobs", "-j", type=click.IntRange(min=1), help="Threads to use [default: all cores]."
)
quiet_option = click.option("--quiet", "-q", is_flag=True, help="No progress or log lines.")
model_option = click.option(
    "--model",
    type=click.Path(dir_okay=False),
    help=f"An expert model file to use (e.g. from build-model) [default: ${MODEL_ENV} "
    "if set, else the packaged model].",
)


SCORING_HELP = (
    "Match points: tournament 2 a win / 3 a skunk; tournament-variant 2/3/4 (a double "
    "skunk 4); free 1/2/4; free-triple, a triple skunk wins the match"
)


def scoring_option(with_default: bool = True) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--scoring``; without a default where the command must see whether it was given."""
    choice = click.Choice(tuple(SCORINGS))
    if with_default:
        return click.option(
            "--scoring", type=choice, default=DEFAULT_SCORING, show_default=True,
            help=f"{SCORING_HELP}.",
        )  # fmt: skip
    return click.option(
        "--scoring", type=choice, help=f"{SCORING_HELP} [default: {DEFAULT_SCORING}]."
    )


def goal_option(**extra: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--goal``: what a throw from a score is ranked by (win or match)."""
    return click.option("--goal", type=click.Choice([g for g in GOALS if g != "points"]), **extra)


def table_format_option(help_default: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(TABLE_FORMATS),
        help=f"Parquet (for pandas) or CSV [default: {help_default}].",
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
        raise click.ClickException(f"cannot write {output}: {describe_os_error(e)}") from None


def cards_or_fail(tokens: Any, count: int) -> list[int]:
    """Parse cards for a command; a bad token is a usage error naming it."""
    try:
        return parse_cards(list(tokens), count=count)
    except CardError as e:
        raise click.UsageError(str(e)) from None


class Progress:
    """click's progress bar on a terminal (rate, ETA), made on the first report;
    nothing when quiet or when standard error is not a terminal."""

    def __init__(self, label: str, quiet: bool) -> None:
        self.label = label
        self.enabled = not quiet and sys.stderr.isatty()
        self.bar: Any = None
        self.done = 0

    def __call__(self, done: int, total: int) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            self.bar = click.progressbar(
                length=total, label=self.label, file=sys.stderr, show_pos=True, show_eta=True
            )
            self.bar.__enter__()
        self.bar.update(done - self.done)
        self.done = done

    def close(self) -> None:
        if self.bar is not None:
            self.bar.__exit__(None, None, None)
            self.bar = None


@contextlib.contextmanager
def progress(label: str, quiet: bool) -> Iterator[Progress]:
    bar = Progress(label, quiet)
    try:
        yield bar
    finally:
        bar.close()


# --- score ------------------------------------------------------------------------------------


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--starter", "-s", help="The cut card, e.g. 5D [default: the fifth card].")
@click.option("--crib", is_flag=True, help="Crib rules (flush needs all five cards).")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Readable count or one JSON object.",
)
def score(cards: tuple[str, ...], starter: str | None, crib: bool, fmt: str) -> None:
    """Count a show as a player does: every fifteen, pair, run, flush and nobs, in order.

    Give four cards and --starter, or five cards with the starter last.

    \b
    Examples:
      crib-analyze score 5H 5C 5S JD --starter 5D
      crib-analyze score 4H 4C 5S 5D 6C
    """
    from crib_analyze.counting import count_show
    from crib_analyze.render import show_json, show_text

    if starter is not None and not starter.strip():
        raise click.UsageError("--starter: no card given")
    try:
        show = count_show(list(cards), starter, crib=crib)
    except CardError as e:
        message = str(e)
        if starter is not None and message.startswith("starter"):
            message = f"--{message}"
        raise click.UsageError(message) from None
    click.echo((show_json if fmt == "json" else show_text)(show), nl=False)


# --- discard ----------------------------------------------------------------------------------


@cli.command()
@click.argument("cards", nargs=-1)
@click.option("--dealer", is_flag=True, help="Rank for the dealer (hand + crib + heels).")
@click.option("--pone", is_flag=True, help="Rank for the pone (hand - crib).")
@click.option(
    "--opponent",
    type=click.Choice(OPPONENTS),
    default=DEFAULT_OPPONENT,
    show_default=True,
    help="How the opponent's two crib cards are chosen: expert (the role-specific "
    "expert policy, exact combination), random pair (exact), or sampled opponent "
    "hands thrown by --policy.",
)
@click.option(
    "--policy",
    type=click.Choice(POLICIES),
    default=DEFAULT_POLICY,
    show_default=True,
    help="With --opponent sampled: the opponent throws its best discard under the "
    "random or the expert crib model.",
)
@click.option(
    "--samples",
    type=click.IntRange(1, MAX_SAMPLES),
    default=DEFAULT_SAMPLES,
    show_default=True,
    help=f"Opponent hands drawn by --opponent sampled (at most {MAX_SAMPLES:,}).",
)
@click.option(
    "--seed",
    type=click.IntRange(min=0),
    default=DEFAULT_SEED,
    show_default=True,
    help="Random seed for --opponent sampled.",
)
@model_option
@click.option(
    "--need",
    type=click.IntRange(0, 29),
    help="Add P(hand alone scores >= N), exact over the 46 starters.",
)
@click.option(
    "--sort",
    type=click.Choice(SORT_KEYS),
    help="Ranking key [default: total, or net with --no-pegging] (crib: highest for the "
    "dealer, lowest for the pone).",
)
@click.option(
    "--pegging",
    type=click.Choice(PEGGING_CHOICES),
    default=DEFAULT_PEGGING,
    show_default=True,
    help="Count the play: table (the shipped pegging value of each keep), exact (the play "
    "simulated with these cards, ~0.3 s) or none.",
)
@click.option(
    "--no-pegging",
    is_flag=True,
    help="The classic ranking by hand and crib only (same as --pegging none).",
)
@click.option(
    "--top",
    type=click.IntRange(min=1),
    help="Show only the best N discards (with no role, the best N of each role).",
)
@click.option(
    "--distribution",
    is_flag=True,
    help="Show the exact distribution of each kept hand's score over the 46 starters "
    "and P(hand >= N), instead of the ranking.",
)
@click.option(
    "--from-table",
    "from_table",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[FILE]",
    help="Read the hand's rows from a discard table (from 'crib-analyze table') instead "
    "of computing them [FILE default: the --opponent's table in the data dir].",
)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also draw the hand-score distributions of each role's best throws to FILE "
    "(.png or .svg; needs the plot extra: pip install 'crib-analyze[plot]').",
)
@click.option(
    "--score",
    metavar="MINE-THEIRS",
    help="Rank by the game from this score, e.g. 110-115 (needs --dealer or --pone): "
    "each throw's deal simulated, then the board table.",
)
@goal_option(
    help="With --score: rank by the chance of winning, or by expected match points [default: win]."
)
@scoring_option(with_default=False)
@click.option(
    "--position-samples",
    type=click.IntRange(2, 200_000),
    help=f"With --score: deals simulated per throw [default: {DEFAULT_POSITION_SAMPLES:,}].",
)
@click.option(
    "--hands-file",
    type=click.File("r", encoding="utf-8-sig"),
    help="Analyse one hand per line of FILE ('-' for standard input); "
    "adds a hand column. Blank lines and # comments are skipped.",
)
@quiet_option
@output_options
def discard(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    opponent: str,
    policy: str,
    samples: int,
    seed: int,
    model: str | None,
    need: int | None,
    sort: str | None,
    pegging: str,
    no_pegging: bool,
    top: int | None,
    distribution: bool,
    from_table: str | None,
    plot_path: str | None,
    score: str | None,
    goal: str | None,
    scoring: str | None,
    position_samples: int | None,
    hands_file: TextIO | None,
    quiet: bool,
    fmt: str,
    output: str | None,
) -> None:
    """Rank the 15 ways to throw two of six cards, for the dealer or the pone.

    For each throw: the kept hand's exact expectation over the 46 unseen starters
    (with min, max, spread), the crib's expectation under the opponent model, the
    net for the role and the loss against the role's best throw (near ties flagged).
    With neither --dealer nor --pone both roles are shown and each role's best marked.
    With --score the throws are ranked by the game from that score instead (the chance
    of winning, or expected match points with --goal match), the points rank beside.

    \b
    Examples:
      crib-analyze discard 5H 6S 4D JC QH 5C --dealer
      crib-analyze discard 5H 6S 4D JC QH 5C --dealer --score 110-115
      crib-analyze discard "5h 6s 4d jc qh 5c" --pone --opponent sampled --seed 7
      crib-analyze discard 5H 6S 4D JC QH 5C --pone --distribution
      crib-analyze discard --hands-file hands.txt --format csv -o out.csv
    """
    from crib_analyze.api import analyze_rows, check_plot, load_model, plot_discards
    from crib_analyze.render import discard_text, distribution_text, rows_csv, rows_json
    from crib_analyze.rows import concat_rows, with_hand

    if dealer and pone:
        raise click.UsageError("choose one of --dealer and --pone, not both")
    if sort == "need" and need is None:
        raise click.UsageError("--sort need requires --need N")
    if hands_file is not None and cards:
        raise click.UsageError("give cards or --hands-file, not both")
    if plot_path is not None and hands_file is not None:
        raise click.UsageError("--plot draws one hand; it does not go with --hands-file")
    if policy != DEFAULT_POLICY and opponent != "sampled":
        raise click.UsageError("--policy applies to --opponent sampled only")
    uses_model = opponent == "expert" or (opponent == "sampled" and policy == "expert")
    if model is not None and not uses_model:
        raise click.UsageError("--model applies to the expert opponent (or --policy expert)")
    role = "dealer" if dealer else "pone" if pone else None
    if score is None and (goal or scoring or position_samples):
        raise click.UsageError("--goal, --scoring and --position-samples go with --score")
    if score is not None:
        if role is None:
            raise click.UsageError("--score needs --dealer or --pone")
        if distribution or from_table is not None:
            raise click.UsageError("--score does not go with --distribution or --from-table")
    if no_pegging:
        if pegging not in (DEFAULT_PEGGING, "none"):
            raise click.UsageError("--no-pegging contradicts --pegging " + pegging)
        pegging = "none"
    if from_table is not None:
        _discard_from_table(cards, from_table, opponent, role, hands_file, fmt, output)
        return
    with domain_errors():
        kind = "classic" if pegging == "none" else "pegging"  # the matching expert
        expert = load_model(model, kind=kind) if uses_model else None
        if plot_path is not None:
            check_plot(plot_path)

    def run(hand: list[int], bar: Progress | None = None) -> Any:
        with domain_errors():
            return analyze_rows(
                hand,
                role=role,  # type: ignore[arg-type]
                opponent=opponent,  # type: ignore[arg-type]
                policy=policy,  # type: ignore[arg-type]
                samples=samples,
                seed=seed,
                need=need,
                sort=sort,  # type: ignore[arg-type]
                model=expert,
                on_progress=bar,
                top=top,
                distribution=distribution,
                pegging=pegging,
                score=score,
                goal=goal or "win",
                scoring=scoring or DEFAULT_SCORING,
                position_samples=position_samples or DEFAULT_POSITION_SAMPLES,
            )

    def render(rows: Any, hand_text: str) -> str:
        if fmt == "table":
            return (distribution_text if distribution else discard_text)(rows, hand_text)
        return (rows_csv if fmt == "csv" else rows_json)(rows)

    if hands_file is None:
        hand = cards_or_fail(cards, 6)
        long_run = opponent == "sampled" and samples > 20_000
        with progress("opponent hands", quiet or not long_run) as bar:
            rows = run(hand, bar)
        emit(render(rows, format_cards(hand)), output)
        if plot_path is not None:
            with domain_errors():
                drawn = plot_discards(
                    hand,
                    plot_path,
                    role=role,  # type: ignore[arg-type]
                    opponent=opponent,  # type: ignore[arg-type]
                    samples=samples,
                    seed=seed,
                    policy=policy,  # type: ignore[arg-type]
                    model=expert,
                    pegging=pegging,
                )
            _error(f"wrote the plot to {drawn}", prefix="")
        return

    source = _stream_name(hands_file)
    try:
        lines = list(_read_hands(hands_file))
    except UnicodeDecodeError as e:
        raise click.BadParameter(
            f"{source} is not UTF-8 text ({e.reason})", param_hint="--hands-file"
        ) from None
    if not lines:
        raise click.BadParameter(
            f"{source} has no hands (one hand of six cards per line)", param_hint="--hands-file"
        )
    parts, tables, failures = [], [], 0
    for lineno, parsed in lines:
        if isinstance(parsed, CardError):
            failures += 1
            _error(f"{source} line {lineno}: {parsed}")
            continue
        hand_text = format_cards(parsed)
        rows = run(parsed)
        if fmt == "table":
            tables.append(render(rows, hand_text))
        else:
            parts.append(with_hand(rows, hand_text))
    if fmt == "table":
        text = "\n".join(tables)
    elif parts:
        text = render(concat_rows(parts), "")
    else:
        text = "" if fmt == "csv" else "[]\n"
    emit(text, output)
    if failures:
        _error(f"{failures} line(s) failed", prefix="")
        raise click.exceptions.Exit(1)


def _discard_from_table(
    cards: tuple[str, ...],
    table: str,
    opponent: str,
    role: str | None,
    hands_file: TextIO | None,
    fmt: str,
    output: str | None,
) -> None:
    """discard --from-table: the hand's rows read from a generated table."""
    from crib_analyze.api import lookup
    from crib_analyze.render import frame_csv, frame_json, lookup_text

    if hands_file is not None:
        raise click.UsageError("--from-table reads one hand; it does not go with --hands-file")
    if opponent == "sampled":
        raise click.UsageError("tables are made with the random or the expert opponent")
    hand = cards_or_fail(cards, 6)
    with domain_errors():
        frame = lookup(hand, table or None, opponent=opponent, role=role)  # type: ignore[arg-type]
    if fmt == "table":
        text = lookup_text(frame, format_cards(hand))
    else:
        text = (frame_csv if fmt == "csv" else frame_json)(frame)
    emit(text, output)


def _stream_name(stream: TextIO) -> str:
    try:
        return str(stream.name)
    except AttributeError:  # a wrapped in-memory stream
        return "<stdin>"


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


# --- build-model ------------------------------------------------------------------------------


@cli.command("build-model")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Where to write the model [default: expert_model.npz in the user data dir].",
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
@click.option(
    "--pegging/--no-pegging",
    default=True,
    show_default=True,
    help="Throws count the play too (the pegging-aware expert), or hand and crib only "
    "(the classic expert).",
)
@click.option(
    "--pegging-table",
    type=click.Path(dir_okay=False),
    help="The pegging values to use (from build-pegging) [default: the packaged table].",
)
@jobs_option
@quiet_option
def build_model(
    output: str | None,
    tolerance: float,
    max_rounds: int,
    pegging: bool,
    pegging_table: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Rebuild the expert opponent: role-specific throw models by damped fixed point.

    Starts from the random opponent; each round every suit-distinct hand (weighted by
    the raw hands it stands for) picks its best discard as dealer and as pone against
    the current models (on hand +- crib + pegging, or hand +- crib with --no-pegging),
    and the throw statistics of those choices are averaged into the models with weight
    1/k (fictitious play). Logs each round's largest change.
    The packaged model stays the default: use the rebuilt one with --model FILE or
    CRIB_ANALYZE_MODEL=FILE.
    """
    from crib_analyze.api import build_model as run
    from crib_analyze.expert_builder import RoundLog

    set_threads(jobs)

    def log(r: RoundLog) -> None:
        if not quiet:
            _error(
                f"round {r.round:3d}  role-table change {r.table_change:.5f}  "
                f"class change {r.class_change:.5f}  {r.seconds:.1f} s",
                prefix="",
            )

    with domain_errors():
        built = run(
            output,
            tolerance=tolerance,
            max_rounds=max_rounds,
            log=log,
            pegging=pegging,
            pegging_table=pegging_table,
        )
    p = built.model.provenance
    state = "converged" if p["converged"] else "NOT converged"
    click.echo(f"{state} after {p['rounds']} rounds in {p['seconds']} s; wrote {built.path}")
    click.echo(f"use it with --model {built.path} (or {MODEL_ENV}={built.path})")
    if not p["converged"]:
        raise click.exceptions.Exit(1)


# --- build-pegging ---------------------------------------------------------------------------


@cli.command("build-pegging")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Where to write the table [default: pegging_table.npz in the user data dir].",
)
@click.option(
    "--target-se",
    type=click.FloatRange(min=0, min_open=True),
    default=0.02,
    show_default=True,
    help="Play each cell until the standard error of its pegging differential is this.",
)
@click.option(
    "--pilot", type=click.IntRange(min=2), default=2000, show_default=True,
    help="Deals per cell in the first stage (they estimate each cell's variance).",
)  # fmt: skip
@click.option(
    "--max-deals", type=click.IntRange(min=2), default=200_000, show_default=True,
    help="Deals per cell at most.",
)  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--policy",
    type=click.Choice(["greedy", "lookahead", "search"]),
    default="lookahead",
    show_default=True,
    help="The play policy of both players.",
)
@model_option
@jobs_option
@quiet_option
def build_pegging(
    output: str | None,
    target_se: float,
    pilot: int,
    max_deals: int,
    seed: int,
    policy: str,
    model: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Rebuild the pegging table: what each keep pegs, by role (about 5-10 minutes).

    For each of the 1,820 kept rank multisets and each role, deals are simulated: the
    opponent's six cards from the unseen ones, thrown by the expert discard policy, the
    starter from the rest, both players playing the policy to the end. Seeded and
    reproducible on any number of threads; a killed build resumes from its checkpoint.
    The packaged table stays the default.
    """
    from crib_analyze.api import build_pegging as run

    set_threads(jobs)
    if max_deals < pilot:
        raise click.UsageError("--max-deals must be at least --pilot")

    def log(entry: Any) -> None:
        if not quiet:
            _error(
                f"stage {entry.stage}: {entry.done}/{entry.total} cells, "
                f"{entry.deals:,} deals, {entry.seconds:.0f} s",
                prefix="",
            )

    with domain_errors():
        built = run(
            output, target_se=target_se, pilot=pilot, max_deals=max_deals, seed=seed,
            policy=policy, log=log, model=model,
        )  # fmt: skip
    p = built.provenance
    click.echo(
        f"{p['deals']:,} deals in {p['seconds']} s, largest standard error "
        f"{p['max_se']:.4f}; wrote {built.path}"
    )


# --- table ------------------------------------------------------------------------------------


@cli.group(invoke_without_command=True)
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Table file [default: discard_table.parquet (discard_table_expert.parquet for "
    "the expert opponent) in the user data dir].",
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
@click.option("--limit", type=click.IntRange(min=1), help="Only the first N hand classes.")
@click.option("--shard", metavar="I/N", help="Compute the I-th of N disjoint slices.")
@jobs_option
@click.option("--restart", is_flag=True, help="Discard finished chunks of an earlier run.")
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
      crib-analyze table                       # the random table, in the data dir
      crib-analyze table --opponent expert     # the expert table
      crib-analyze table --limit 20000 -o sample.parquet
      crib-analyze table --shard 1/2           # on one machine; 2/2 on another
      crib-analyze table merge discard_table.shard-*-of-2.parquet
    """
    if ctx.invoked_subcommand is not None:
        return
    from crib_analyze.api import generate_table

    if model is not None and opponent != "expert":
        raise click.UsageError("--model applies to --opponent expert")
    set_threads(jobs)
    try:
        with domain_errors(), progress("chunks", quiet) as bar:
            result = generate_table(
                output,
                opponent=opponent,
                fmt=fmt,
                limit=limit,
                shard=shard,
                restart=restart,
                model=model,
                on_chunk=bar,
                on_warning=lambda msg: _error(f"Warning: {msg}", prefix=""),
            )
    except KeyboardInterrupt:
        _error(
            "Interrupted: finished chunks are kept beside the output; rerun to resume "
            "(the first Ctrl-C lets the current chunk finish, a second one stops at once).",
            prefix="",
        )
        raise click.exceptions.Exit(130) from None
    if not quiet:
        _error(
            f"wrote {result.rows:,} rows to {result.output} "
            f"({result.chunks_computed} chunks computed, {result.chunks_reused} resumed)",
            prefix="",
        )


@table.command("merge")
@click.argument("shards", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="The merged table file [default: the run's table in the user data dir].",
)
@table_format_option("from the file name: .csv is CSV, else Parquet")
def table_merge(shards: tuple[str, ...], output: str | None, fmt: str | None) -> None:
    """Join the shard files of one run (from table --shard I/N) into one table.

    The shards must come from the same version and settings, be disjoint and together
    cover every chunk; otherwise nothing is written.
    """
    from crib_analyze.api import merge_tables

    with domain_errors():
        result = merge_tables(shards, output, fmt=fmt)
    _error(f"wrote {result.rows:,} rows to {result.output}", prefix="")


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
    what = f"sample of the first {found.classes:,} hands" if found.sample else "full table"
    sums = "data checksums match" if found.checksums else "no data checksums (older file)"
    click.echo(
        f"ok: {found.path}: {what}, {found.opponent} opponent; {found.rows:,} rows, "
        f"{found.classes:,} hands, weights sum to {found.weight_sum:,}; {sums}"
    )


# --- crib-table -------------------------------------------------------------------------------


@cli.command("crib-table")
@click.option(
    "--role",
    type=click.Choice(ROLES),
    default="dealer",
    show_default=True,
    help="Whose best discards to average.",
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
@output_options
def crib_table(
    role: str,
    opponent: str | None,
    table_path: str | None,
    plot_path: str | None,
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
    from crib_analyze.render import crib_table_text, frame_csv, frame_json

    with domain_errors():
        if plot_path is not None:
            check_plot(plot_path)
        frame = run(role, opponent=opponent, table=table_path)  # type: ignore[arg-type]
    if fmt == "table":
        text = crib_table_text(frame)
    else:
        text = (frame_csv if fmt == "csv" else frame_json)(frame)
    emit(text, output)
    if plot_path is not None:
        with domain_errors():
            drawn = plot_crib_tables(plot_path, opponent=opponent, table=table_path)
        _error(f"wrote the plot to {drawn}", prefix="")


# --- peg ---------------------------------------------------------------------------------------


@cli.command()
@click.argument("sequence", nargs=-1, required=True)
@click.option("--pone", "pone_hand", help="The pone's four cards, to check every card and go.")
@click.option("--dealer", "dealer_hand", help="The dealer's four cards (with --pone).")
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(OUTPUT_FORMATS),
    default="table",
    show_default=True,
    help="Readable, or CSV/JSON (one row per card or go).",
)
def peg(
    sequence: tuple[str, ...], pone_hand: str | None, dealer_hand: str | None, fmt: str
) -> None:
    """Score a play (pegging), card by card: who laid it, the count, points and why.

    The pone leads. Write 'go' where a player says go; it may be left out where it is
    forced (a card that does not fit under 31 means nobody could lay). With --pone and
    --dealer every card is checked against its owner's hand and every go against the
    cards still held.

    \b
    Example:
      crib-analyze peg 10H 5S 7C 6D go 2H 6C 4S 4D
      crib-analyze peg 10H 5S 7C 6D 2H 6C 4S 4D --pone "10H 7C 6C 4D" --dealer "5S 6D 2H 4S"
    """
    from crib_analyze.api import score_play
    from crib_analyze.render import frame_csv, frame_json, play_text

    if (pone_hand is None) != (dealer_hand is None):
        raise click.UsageError("give both --pone and --dealer, or neither")
    with domain_errors():
        frame = score_play(list(sequence), pone_hand, dealer_hand)
    if fmt == "table":
        click.echo(play_text(frame), nl=False)
    else:
        click.echo((frame_csv if fmt == "csv" else frame_json)(frame), nl=False)


# --- the board --------------------------------------------------------------------------------


@cli.command()
@click.argument("mine", type=int, required=False)
@click.argument("theirs", type=int, required=False)
@click.option("--dealer", is_flag=True, help="You deal this deal.")
@click.option("--pone", is_flag=True, help="The opponent deals (you count first).")
@scoring_option()
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Draw the chance of winning over the whole board to FILE (.png or .svg; "
    "needs the plot extra).",
)
@click.option(
    "--format", "-f", "fmt", type=click.Choice(OUTPUT_FORMATS), default="table", show_default=True
)
def odds(
    mine: int | None,
    theirs: int | None,
    dealer: bool,
    pone: bool,
    scoring: str,
    plot_path: str | None,
    fmt: str,
) -> None:
    """The chance of winning from a score: MINE THEIRS, e.g. 95 100 --dealer.

    Read from the board table: for every position (each score 0-120 and who deals),
    the probability of winning, of skunking and of being skunked, and the expected
    match points, solved exactly over a million simulated deals (both players
    throwing by the expert model and playing the default policy). With neither
    --dealer nor --pone, both. Scores count the points already pegged.

    \b
    Examples:
      crib-analyze odds 95 100 --dealer
      crib-analyze odds 110 115 --scoring free --format json
      crib-analyze odds --plot board.png
    """
    from crib_analyze.api import odds as run
    from crib_analyze.api import plot_board
    from crib_analyze.render import frame_json, odds_text

    if dealer and pone:
        raise click.UsageError("choose one of --dealer and --pone, not both")
    if (mine is None) != (theirs is None) or (mine is None and plot_path is None):
        raise click.UsageError("give both scores, MINE THEIRS (e.g. 95 100)")
    with domain_errors():
        if plot_path is not None:
            from crib_analyze.api import check_plot

            check_plot(plot_path)
        if mine is not None and theirs is not None:
            seats = [True] if dealer else [False] if pone else [True, False]
            rows = [run(mine, theirs, seat, scoring).as_dict() for seat in seats]
            if fmt == "table":
                from crib_analyze.board.board_table import load_board

                click.echo(odds_text(rows, load_board().provenance), nl=False)
            elif fmt == "json":
                import pandas as pd

                click.echo(frame_json(pd.DataFrame(rows)), nl=False)
            else:
                import pandas as pd

                from crib_analyze.render import frame_csv

                click.echo(frame_csv(pd.DataFrame(rows)), nl=False)
        if plot_path is not None:
            drawn = plot_board(plot_path)
            _error(f"wrote the plot to {drawn}", prefix="")


@cli.command("build-board")
@click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    help="Where to write the table [default: board_table.npz in the user data dir].",
)
@click.option(
    "--deals",
    type=click.IntRange(min=4000),
    default=DEFAULT_BOARD_DEALS,
    show_default=True,
    help="Deals to simulate (an even number); the sampling error shrinks as 1/sqrt.",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@model_option
@jobs_option
@quiet_option
def build_board(
    output: str | None, deals: int, seed: int, model: str | None, jobs: int | None, quiet: bool
) -> None:
    """Rebuild the board table: the chance of each game outcome from every position
    (about a minute on 2 cores).

    Simulates the deals (both players throw by the expert model and play the default
    policy; each deal's scoring events in the order they score), then solves every
    position by dynamic programming over them, and each half of them to measure the
    sampling error. Seeded and reproducible on any number of threads; a killed build
    resumes. Use the new table with CRIB_ANALYZE_BOARD=FILE.
    """
    from crib_analyze.api import build_board as run

    set_threads(jobs)
    if deals % 2:
        raise click.UsageError("--deals must be even (the table is also solved per half)")

    def log(entry: Any) -> None:
        if not quiet:
            what = "deals" if entry.step == "deals" else "tables solved"
            _error(f"{entry.done:,}/{entry.total:,} {what}, {entry.seconds:.0f} s", prefix="")

    with domain_errors():
        built = run(output, deals=deals, seed=seed, log=log, model=model)
    p = built.provenance
    click.echo(
        f"{p['deals']:,} deals in {p['seconds']} s; "
        f"first dealer wins {p['first_dealer_wins']:.4f}, "
        f"{p['deals_per_game']:.2f} deals a game, sampling error ~{p['win_error']['rms']:.5f}; "
        f"wrote {built.path}"
    )


@cli.command()
@click.option(
    "--games", "-n", type=click.IntRange(min=2), default=10_000, show_default=True,
    help="Games to play (an even number: duplicate pairs).",
)  # fmt: skip
@click.option(
    "--players",
    default="expert,expert",
    show_default=True,
    metavar="A,B",
    help="The two players' discard policies: expert (the play counted, as discard "
    "recommends), points (hand and crib only), position (from the score, see "
    "--position-from), mixed (the expert model's rank-level policy).",
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@click.option(
    "--position-from", type=click.IntRange(0, 121), default=61, show_default=True,
    help="A position player weighs the score once either side has this many points.",
)  # fmt: skip
@click.option(
    "--position-samples", type=click.IntRange(1, 100_000), default=300, show_default=True,
    help="Deals simulated per candidate throw by a position player.",
)  # fmt: skip
@goal_option(
    default="win", show_default=True,
    help="What a position player ranks throws by: the chance of winning or match points.",
)  # fmt: skip
@scoring_option()
@click.option(
    "--batch", type=click.IntRange(min=2), default=2000, show_default=True,
    help="Games per batch (an even number; results do not depend on it).",
)  # fmt: skip
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Run the batches on a Dask cluster (e.g. tcp://host:8786); the same results "
    "as a local run. Needs pip install 'crib-analyze[distributed]'.",
)
@jobs_option
@quiet_option
@click.option(
    "--format", "-f", "fmt", type=click.Choice(["table", "json"]), default="table",
    show_default=True,
)  # fmt: skip
def simulate(
    games: int,
    players: str,
    seed: int,
    position_from: int,
    position_samples: int,
    goal: str,
    scoring: str,
    batch: int,
    scheduler: str | None,
    jobs: int | None,
    quiet: bool,
    fmt: str,
) -> None:
    """Play full games to 121 between two discard policies and report what they show.

    Deals are played out whole (throws, the play, the shows, the crib, in scoring
    order) until a player reaches 121. Reports the first dealer's win rate and player
    0's (each with its standard error), deals per game, points per deal by role and
    source, skunk rates and the margins. Games 2k and 2k+1 deal the same cards with the
    first dealer swapped, which cancels much of the luck between policies.

    \b
    Examples:
      crib-analyze simulate --games 100000
      crib-analyze simulate --players position,expert --games 20000
    """
    import json

    from crib_analyze.api import simulate as run
    from crib_analyze.render import games_text

    set_threads(jobs)
    pair = [p.strip() for p in players.split(",")]
    if len(pair) != 2:
        raise click.UsageError(
            f"--players takes two policies, e.g. expert,position; got {players!r}"
        )
    if games % 2 or batch % 2:
        raise click.UsageError("--games and --batch must be even (games come in duplicate pairs)")

    with progress("games", quiet) as bar:

        def log(entry: Any) -> None:
            bar(entry.done, entry.total)

        with domain_errors():
            stats = run(
                games, (pair[0], pair[1]), seed=seed, position_from=position_from,
                position_samples=position_samples, goal=goal, scoring=scoring, batch=batch,
                scheduler=scheduler, log=log,
            )  # fmt: skip
    data = stats.as_dict()
    if fmt == "json":
        click.echo(json.dumps(data, indent=1))
    else:
        click.echo(games_text(data), nl=False)


# --- play --------------------------------------------------------------------------------------


@cli.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--dealer", is_flag=True, help="You deal.")
@click.option("--pone", is_flag=True, help="You are the pone (you lead).")
@click.option("--starter", "-s", help="The starter (cut card).")
@click.option("--discards", help="The two cards you threw (not in the opponent's hand).")
@click.option(
    "--played", default="", help="The play so far, the pone's card first, e.g. '10H 5S 7C'."
)
@click.option(
    "--policy",
    type=click.Choice(["greedy", "lookahead", "search"]),
    default="lookahead",
    show_default=True,
    help="How both players play the rest of the deal in the simulation.",
)
@click.option(
    "--samples", type=click.IntRange(2, 200_000), default=2000, show_default=True,
    help="Draws of the opponent's cards.",
)  # fmt: skip
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True)
@model_option
@click.option(
    "--format", "-f", "fmt", type=click.Choice(OUTPUT_FORMATS), default="table", show_default=True
)
def play(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    starter: str | None,
    discards: str | None,
    played: str,
    policy: str,
    samples: int,
    seed: int,
    model: str | None,
    fmt: str,
) -> None:
    """Which card to play now: rank your legal cards by the pegging they are worth.

    Give the cards you still hold, your role, and the play so far. Each legal card is
    laid in many simulated continuations (the opponent's cards drawn from those you
    cannot see, consistent with its goes; both playing --policy); the table shows the
    expected pegging differential (yours minus the opponent's) for the rest of the play
    with its standard error, and marks the card the policy itself lays.

    \b
    Example:
      crib-analyze play 7C 8D 2C --pone --starter 5H --played "3D 10S"
    """
    from crib_analyze.api import advise_play
    from crib_analyze.render import advice_text, frame_csv, frame_json

    if dealer == pone:
        raise click.UsageError("choose one of --dealer and --pone")
    role = "dealer" if dealer else "pone"
    with domain_errors():
        frame = advise_play(
            role,  # type: ignore[arg-type]
            list(cards),
            starter,
            discards,
            played,
            policy,
            samples,
            seed,
            model,
        )
    if fmt == "table":
        click.echo(advice_text(frame), nl=False)
    else:
        click.echo((frame_csv if fmt == "csv" else frame_json)(frame), nl=False)


# --- quiz -------------------------------------------------------------------------------------


@cli.command()
@click.option("--rounds", "-n", type=click.IntRange(min=1), default=10, show_default=True,
              help="Hands to deal.")  # fmt: skip
@click.option(
    "--seed", type=click.IntRange(min=0), help="Deal the same hands again [default: new ones]."
)
@click.option(
    "--role",
    type=click.Choice([*ROLES, "random"]),
    default="random",
    show_default=True,
    help="Your role in every hand, or a fresh random one each hand.",
)
@click.option(
    "--opponent",
    type=click.Choice(["expert", "random"]),
    default=DEFAULT_OPPONENT,
    show_default=True,
    help="The opponent model the answers assume.",
)
@model_option
def quiz(rounds: int, seed: int | None, role: str, opponent: str, model: str | None) -> None:
    """A discard trainer: throw two cards, see what they cost against the best throw.

    Each hand shows six cards and your role; type the two cards you throw (any order
    and case), '?' to see the answer, 'q' to stop. After each throw: the analysis, the
    points your throw lost against the best, and a running tally. Answers may come from
    standard input (one per line), so the quiz can be scripted.

    \b
    Example:
      crib-analyze quiz --rounds 5 --role pone --seed 7
    """
    import random

    from crib_analyze.quiz import Quiz
    from crib_analyze.render import discard_text

    if model is not None and opponent != "expert":
        raise click.UsageError("--model applies to the expert opponent")
    seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    with domain_errors():
        game = Quiz(seed=seed, role=role, opponent=opponent, model=model)
    stdin = sys.stdin
    click.echo(f"Discard quiz: {rounds} hands, seed {seed} (--seed {seed} deals them again)")
    stopped = False
    for _ in range(rounds):
        deal = game.deal()
        hand_text = format_cards(deal.hand)
        crib = "your crib" if deal.role == "dealer" else "the dealer's crib"
        click.echo(f"\nHand {deal.number} of {rounds}: you are the {deal.role} ({crib})")
        click.echo(f"  {hand_text}")
        while True:
            click.echo("Throw two cards (? for the answer, q to quit): ", nl=False)
            line = stdin.readline()
            if not line:  # end of input
                click.echo()
                stopped = True
                break
            answer = line.strip()
            if not stdin.isatty():  # scripted answers: show them, for a readable transcript
                click.echo(answer)
            if answer.lower() in ("q", "quit", "exit"):
                stopped = True
                break
            if answer == "?":
                game.reveal(deal)
                click.echo(discard_text(deal.rows.take(list(range(min(5, 15)))), hand_text))
                break
            try:
                throw = game.parse_throw(deal, answer)
            except CardError as e:
                example = format_cards(deal.hand[:2])
                click.echo(f"  {e}: give two of your six cards, like {example}")
                continue
            grade = game.grade(deal, throw)
            shown = sorted({*range(min(5, len(deal.rows))), grade.rank - 1})
            click.echo(discard_text(deal.rows.take(shown), hand_text))
            if grade.best:
                verdict = "the best throw"
            elif grade.near_tie:
                verdict = f"a near tie with the best ({grade.loss:.3f} points behind)"
            else:
                verdict = f"{grade.loss:.3f} points behind the best (rank {grade.rank} of 15)"
            t = game.tally
            click.echo(
                f"Your throw {grade.discard}: {verdict}. Tally: {t.best} of {t.hands} best "
                f"({100 * t.best_share:.0f}%), {t.total_loss:.3f} points lost"
            )
            break
        if stopped:
            break
    t = game.tally
    click.echo(
        f"\nSummary: {t.hands} hand(s) graded, {t.best} best ({100 * t.best_share:.0f}%), "
        f"{t.total_loss:.3f} points lost ({t.mean_loss:.3f} a hand)"
        + (f", {t.revealed} answer(s) shown" if t.revealed else "")
    )


# --- paths ------------------------------------------------------------------------------------


@cli.command()
@click.option(
    "--format",
    "-f",
    "fmt",
    type=click.Choice(["table", "json"]),
    default="table",
    show_default=True,
    help="Readable list or one JSON object.",
)
def paths(fmt: str) -> None:
    """Show where crib-analyze reads and writes its files."""
    import json

    from crib_analyze.api import paths as locate

    found = locate().as_dict()
    if fmt == "json":
        click.echo(json.dumps(found))
        return
    width = max(len(k) for k in found)
    for key, value in found.items():
        click.echo(f"{key.replace('_', ' '):<{width}}  {value}")


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="crib-analyze")
