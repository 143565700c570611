"""What every command shares: options built from the settings, the turning of library
errors into one-line usage errors, progress bars, and writing the output.

Options take their defaults, ranges and choices from :mod:`crib_analyze.settings`, so
``--help`` states the same bounds the library enforces.
"""

from __future__ import annotations

import contextlib
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any, TextIO, TypeVar

import click

from crib_analyze import interrupts
from crib_analyze.errors import CardError, CribAnalyzeError, describe_os_error
from crib_analyze.rules import GAMES
from crib_analyze.settings import (
    JOBS,
    JOKERS,
    LONG_RUN_SECONDS,
    MODEL_ENV,
    OUTPUT_FORMATS,
    QUIZ_ROUNDS,
    SCORINGS,
    SEED,
    TABLE_FORMATS,
    Amount,
    Bound,
    Count,
    check_scheduler,
)

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def echo_error(message: str, prefix: str = "Error: ") -> None:
    """One line on standard error (never fails, even with standard error closed)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        click.echo(f"{prefix}{message}".rstrip(), err=True)


def note(message: str) -> None:
    """A line of information on standard error (progress, where a file went)."""
    echo_error(message, prefix="")


def unverified_note(attrs: dict[str, object]) -> None:
    """Say on standard error, whatever the format, that a table was read unchecked."""
    from crib_analyze.cli.render import unverified_words

    if attrs.get("unverified"):
        note(f"warning: {unverified_words(attrs)}")


def warn_if_long(seconds: float, what: str, quiet: bool = False, at_least: bool = False) -> None:
    """Announce a run expected to take over LONG_RUN_SECONDS (from the recorded figures,
    :mod:`crib_analyze.costs`), before it starts; not with --quiet."""
    from crib_analyze.costs import duration_text, machine

    if seconds > LONG_RUN_SECONDS and not quiet:
        how_long = ("at least " if at_least else "") + duration_text(seconds)
        note(
            f"{what}: expected to take {how_long} (from the figures measured on "
            f"{machine().split(';')[0]}: --help says more); Ctrl-C stops it"
        )


CommandT = TypeVar("CommandT", bound=click.Command)


def with_cost(*figures: Callable[[], str]) -> Callable[[CommandT], CommandT]:
    """Add a 'Cost' paragraph to a command's --help: what a run takes, from the recorded
    figures (:mod:`crib_analyze.costs`), each given as a function of them."""

    def decorate(command: CommandT) -> CommandT:
        from crib_analyze.costs import machine

        where = machine().split(";")[0]
        try:
            text = "; ".join(f() for f in figures)
        except (KeyError, ValueError, TypeError):  # a damaged figures file: no paragraph
            return command
        if where and text:  # the docstring's indentation taken off first, as click does
            body = inspect.cleandoc(command.help or "")
            command.help = f"{body}\n\nCost (measured on {where}): {text}."
        return command

    return decorate


@contextlib.contextmanager
def domain_errors() -> Iterator[None]:
    """Turn library errors into click's: bad input is a usage error (exit 2), the rest 1.
    Parameters the message names (```name```) are shown as the command's options."""
    try:
        yield
    except CribAnalyzeError as e:
        if e.exit_code == 2:
            raise click.UsageError(as_options(str(e))) from None
        raise click.ClickException(as_options(str(e))) from None


class Interrupted(Exception):
    """Ctrl-C, on its way to the one line "interrupted" (and ``hint``) and exit 130."""

    def __init__(self, hint: str = "") -> None:
        super().__init__(hint)
        self.hint = hint


@contextlib.contextmanager
def resumable(hint: str) -> Iterator[None]:
    """Ctrl-C in the body says how the work resumes: "interrupted: ``hint``"."""
    try:
        yield
    except KeyboardInterrupt:
        raise Interrupted(hint) from None


RESUME_BUILD = "rerun the same command to resume from its checkpoint beside the output"

#: API parameters that are not one option of the same name
SPELLED = {"role": "--dealer or --pone", "dealer": "--dealer or --pone"}


def as_options(message: str) -> str:
    """A library message with each ```parameter``` written as the current command's option
    (``--need``), or as the plain name if the command has no such option."""
    ctx = click.get_current_context(silent=True)
    options: dict[str, str] = {}
    if ctx is not None:
        for param in ctx.command.params:
            if isinstance(param, click.Option) and param.name:
                longs = [o for o in param.opts if o.startswith("--")]
                options[param.name] = (longs or param.opts)[0]
    options.update(SPELLED)
    return re.sub(r"`([a-z_]+)`", lambda m: options.get(m.group(1), m.group(1)), message)


_WHOLE = re.compile(r"[+-]?[0-9]+")
_REAL = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def _ascii_number(
    kind: click.ParamType[Any], pattern: re.Pattern[str], what: str, value: Any,
    param: click.Parameter | None, ctx: click.Context | None,
) -> None:  # fmt: skip
    """Python's int() and float() take any script's digits, '1_000', 'nan' and 'inf':
    an option takes ASCII digits only (and a finite number)."""
    if isinstance(value, str) and not pattern.fullmatch(value.strip()):
        kind.fail(f"{value!r} is not {what} (ASCII digits)", param, ctx)


class WholeNumber(click.types.IntParamType):
    """An integer in ASCII digits (no other script's digits, no '1_000')."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _ascii_number(self, _WHOLE, "a whole number", value, param, ctx)
        return super().convert(value, param, ctx)


class WholeRange(click.IntRange):
    """An integer in ASCII digits within a setting's inclusive range."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _ascii_number(self, _WHOLE, "a whole number", value, param, ctx)
        return super().convert(value, param, ctx)


class RealRange(click.FloatRange):
    """A finite real number in ASCII digits within a range (not 'nan', 'inf')."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        _ascii_number(self, _REAL, "a finite number", value, param, ctx)
        return super().convert(value, param, ctx)


def amount_type(setting: Amount) -> RealRange:
    """The option type of a real-number setting: its range, ``lo`` excluded if open."""
    return RealRange(setting.lo, setting.hi, min_open=setting.lo_open)


def count_option(
    *names: str, setting: Bound, default: int | bool | None = True, **extra: Any
) -> Decorator:
    """An integer option with the range of ``setting``; its default (a :class:`Count`'s)
    unless ``default=False`` (the option is then None when not given) or an int given."""
    if default is True:
        value = setting.default if isinstance(setting, Count) else None
    else:
        value = None if default is False else default
    return click.option(
        *names,
        type=WholeRange(setting.lo, setting.hi),
        default=value,
        show_default=value is not None,
        **extra,
    )


def seed_option(help: str = "Random seed.") -> Decorator:
    return count_option("--seed", setting=SEED, help=help)


class InputFile(click.File):
    """``click.File`` for reading, opened so that Ctrl-C is heard while the open waits
    (a FIFO with no writer yet)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        with interrupts.at_once():
            return super().convert(value, param, ctx)


def checked_output(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """An ``-o FILE`` checked as soon as it is parsed, before any work: one line, exit 1
    for a place that cannot take the file (2 for a folder or an empty name)."""
    if value is not None and not ctx.resilient_parsing:
        from crib_analyze.storage.atomic import check_output

        with domain_errors():
            check_output(value)
    return value


def checked_scheduler(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A ``--scheduler`` address checked as it is parsed, before Dask sees it (exit 2)."""
    if value is not None and not ctx.resilient_parsing:
        try:
            check_scheduler(value)
        except CribAnalyzeError as e:
            raise click.BadParameter(str(e), ctx, param) from None
    return value


output_option = click.option(
    "--output",
    "-o",
    type=click.Path(dir_okay=False),
    callback=checked_output,
    help="Write to FILE (whole or not at all) instead of standard output.",
)


def build_output_option(what: str, name: str) -> Decorator:
    """``-o/--output`` of a build: where the rebuilt ``what`` goes (default ``name`` in
    the user data dir), checked before any work."""
    return click.option(
        "--output", "-o", type=click.Path(dir_okay=False), callback=checked_output,
        help=f"Where to write the {what} [default: {name} in the user data dir].",
    )  # fmt: skip


def output_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """--format (and --json) and --output, shared by every command that prints results."""
    f = output_option(f)
    return format_option(help="table for people; csv and json (full precision) for programs.")(f)


def format_option(choices: tuple[str, ...] = OUTPUT_FORMATS, help: str | None = None) -> Decorator:
    """``--format/-f`` and, where JSON is a choice, ``--json`` for ``--format json``."""
    fmt = click.option(
        "--format", "-f", "fmt", type=click.Choice(choices), default="table", show_default=True,
        help=help or "Readable, or for programs.",
    )  # fmt: skip
    if "json" not in choices:
        return fmt
    alias = click.option("--json", "fmt", flag_value="json", help="Short for --format json.")

    def both(f: Callable[..., Any]) -> Callable[..., Any]:
        return fmt(alias(f))

    return both


game_option = click.option(
    "--game",
    type=click.Choice(list(GAMES)),
    default="standard",
    show_default=True,
    metavar="NAME",
    help=f"The game of the rules: {', '.join(GAMES)} ('crib-analyze games' says more).",
)


def ask(prompt: str, stdin: TextIO) -> str | None:
    """Show ``prompt`` and read one answer (stripped) from ``stdin``; None at the end of
    input. Scripted answers (not a terminal) are echoed, for a readable transcript."""
    click.echo(prompt, nl=False)
    try:
        with interrupts.immediate():  # Ctrl-C while waiting for an answer
            line = stdin.readline()
    except UnicodeDecodeError as e:
        raise click.UsageError(f"standard input is not UTF-8 text ({e.reason})") from None
    if not line:
        click.echo()
        return None
    answer = line.strip()
    if not stdin.isatty():
        click.echo(answer)
    return answer


def trainer_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--rounds/-n`` and ``--seed`` (new hands unless given) of the trainers (quiz, count)."""
    f = count_option(
        "--seed", setting=SEED, default=False,
        help="Deal the same hands again [default: new ones].",
    )(f)  # fmt: skip
    return count_option("--rounds", "-n", setting=QUIZ_ROUNDS, help="Hands to deal.")(f)


def jokers_option(help: str) -> Decorator:
    """``--jokers N``: jokers in the pack (the variant), bounded by settings.JOKERS."""
    return click.option(
        "--jokers", type=click.IntRange(JOKERS.lo, JOKERS.hi), default=JOKERS.lo,
        show_default=True, help=help,
    )  # fmt: skip


def score_arguments(ctx: click.Context, param: click.Parameter, value: Any) -> tuple[int, ...]:
    """Scores given as ``MINE THEIRS``, ``MINE-THEIRS`` or ``MINE,THEIRS`` (and one per
    side in other games): whole numbers in ASCII digits."""
    from crib_analyze.position import score_words

    words = [w for text in value for w in score_words(str(text))]
    number = WholeNumber()
    return tuple(number.convert(w, param, ctx) for w in words)


def lowball_option(help: str) -> Decorator:
    """``--lowball``: loser's cribbage (the variant), with what the command does with it."""
    return click.option("--lowball", is_flag=True, help="Loser's cribbage: " + help)


def game_rules(game: str, lowball: bool = False) -> Any:
    """The :class:`~crib_analyze.rules.Rules` of ``--game`` with the variants asked for
    (a one-line usage error if they do not go together)."""
    from crib_analyze.api import game as rules_of

    with domain_errors():
        return rules_of(game, lowball=lowball)


def given(name: str) -> bool:
    """True if the user gave the current command's parameter ``name`` (not its default)."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


def asked_for(**values: Any) -> dict[str, Any]:
    """Each value the user gave, None for each left at its default: the request's own
    defaults (which may differ by game) then apply, and the API refuses, by name, an
    option given to an engine that does not honour it."""
    return {name: value if given(name) else None for name, value in values.items()}


def refuse_options(refused: Callable[[str], bool], why: str) -> None:
    """A usage error, "OPTION ``why``", for the first option of the current command that
    ``refused`` names and the user gave (not left at its default)."""
    for param in click.get_current_context().command.params:
        name = param.name or ""
        if isinstance(param, click.Option) and refused(name) and given(name):
            raise click.UsageError(f"{param.opts[0]} {why}")


def seat_of(names: tuple[str, ...], seat: str | None, dealer: bool, pone: bool) -> str:
    """The seat asked for with --game: --seat, or --dealer/--pone (which must agree)."""
    flag = "dealer" if dealer else "pone" if pone else None
    if dealer and pone:
        raise click.UsageError("choose --dealer or --pone, not both")
    if flag is not None and seat is not None and flag != seat:
        raise click.UsageError(f"--{flag} contradicts --seat {seat}")
    chosen = seat or flag
    if chosen is None and names == ("pone", "dealer"):
        raise click.UsageError("choose one of --dealer and --pone")
    if chosen is None:
        raise click.UsageError(f"say which seat: --seat {'|'.join(names)}")
    return chosen


jobs_option = count_option(
    "--jobs", "-j", setting=JOBS, default=False, help="Threads to use [default: all cores]."
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
    "skunk 4); free 1/2/4; free-triple, a triple skunk wins the match; lurch 1 a win, 2 "
    "when the loser is short of 61"
)


def scoring_option(default: str | None) -> Decorator:
    """``--scoring``; without a default where the command must see whether it was given."""
    choice = click.Choice(tuple(SCORINGS))
    if default is not None:
        return click.option(
            "--scoring", type=choice, default=default, show_default=True, help=f"{SCORING_HELP}."
        )
    return click.option("--scoring", type=choice, help=f"{SCORING_HELP} [default: tournament].")


def table_format_option(help_default: str) -> Decorator:
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
    """Print, or write the whole text to a file atomically; nothing once Ctrl-C was
    pressed (an interrupted command gives no answer)."""
    interrupts.check()
    if output is None:
        write_stdout(text)
    else:
        from crib_analyze.storage.atomic import atomic_write_text

        try:
            atomic_write_text(output, text)
        except OSError as e:
            raise click.ClickException(f"cannot write {output}: {describe_os_error(e)}") from None
    show_checks()


def show_checks() -> None:
    """With --verbose: each file the answer was read from and how it was checked, on
    standard error (whatever the format of the answer)."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or not ctx.meta.get(SHOW_CHECKS):
        return
    from crib_analyze.api import files_checked

    for line in files_checked() or ["no file: everything was computed"]:
        note(f"checked {line}")


SHOW_CHECKS = "crib_analyze.show_checks"


def show_checks_callback(ctx: click.Context, param: click.Parameter, value: bool) -> bool:
    ctx.meta[SHOW_CHECKS] = value
    return value


#: ``--verbose`` of a command whose only extra words are the files it read
checks_option = click.option(
    "--verbose",
    "-v",
    is_flag=True,
    expose_value=False,
    callback=show_checks_callback,
    help="Also say on standard error which files were read and how each was checked.",
)


def write_stdout(text: str) -> None:
    """Write all of ``text`` to standard output. An unbuffered stream
    (``PYTHONUNBUFFERED``) can take part of a large write when the reader goes away and
    drop the rest without a word; writing the bytes until all are taken turns that into
    the BrokenPipeError it is."""
    stream = sys.stdout
    raw = getattr(stream, "buffer", None)
    if raw is None:  # a stand-in stream: let it say what it is
        stream.write(text)
        return
    stream.flush()
    data = memoryview(text.encode(getattr(stream, "encoding", None) or "utf-8"))
    while data:
        written = raw.write(data)
        data = data[written if written is not None else 0 :]
    raw.flush()


def cards_or_fail(tokens: Any, count: int) -> list[int]:
    """Parse cards for a command; a bad token is a usage error naming it."""
    from crib_analyze.cards import parse_cards

    try:
        return parse_cards(list(tokens), count=count)
    except CardError as e:
        raise click.UsageError(str(e)) from None


role_option = click.option(
    "--role", type=click.Choice(("dealer", "pone")), help="Your role: --dealer or --pone."
)


def role_of(
    dealer: bool, pone: bool, required: bool = False, role: str | None = None
) -> str | None:
    """The role chosen by --dealer / --pone or --role (None for none, unless required)."""
    if dealer and pone:
        raise click.UsageError("choose one of --dealer and --pone, not both")
    flag = "dealer" if dealer else "pone" if pone else None
    if role is not None and flag is not None and role != flag:
        raise click.UsageError(f"--role {role} contradicts --{flag}")
    chosen = flag or role
    if required and chosen is None:
        raise click.UsageError("choose one of --dealer and --pone")
    return chosen


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


trust_unverified_option = click.option(
    "--trust-unverified",
    is_flag=True,
    help="Read a table file that has no provenance to check it against (a CSV without "
    "its .meta.json), unchecked; every output says so.",
)
