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
    type=click.Choice(["random", "sampled"]),
    default="random",
    show_default=True,
    help="How the opponent's two crib cards are chosen: random pair (exact) or "
    "sampled hands thrown by the random-model best response.",
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
    role = "dealer" if dealer else "pone" if pone else None

    def run(hand: list[int]) -> Any:
        frame = analyze(
            hand,
            role=role,  # type: ignore[arg-type]
            opponent=opponent,  # type: ignore[arg-type]
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
    for lineno, parsed in _read_hands(hands_file):
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


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="crib-analyze")
