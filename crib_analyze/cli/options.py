"""The options every command shares, built from the settings: counts and amounts in
ASCII digits within their bounds, seeds, output files and formats, the game and its
variants, the checks shown. Options take their defaults, ranges and choices from
:mod:`crib_analyze.settings`, so ``--help`` states the same bounds the library enforces.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import click

from crib_analyze import interrupts
from crib_analyze.cli.output import (
    SHOW_CHECKS,
    domain_errors,
)
from crib_analyze.errors import CribAnalyzeError
from crib_analyze.rules import GAMES
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    DEFAULT_PLAY_POLICY,
    JOBS,
    JOKERS,
    MODEL_ENV,
    OPPONENTS,
    OUTPUT_FORMATS,
    PEGGING_CHOICES,
    PENALTIES,
    PLAY_POLICIES,
    POSITION_SAMPLES,
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


def continuation_option(more: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``--continuation``: three or more players, the others play on for second place."""
    return click.option(
        "--continuation",
        is_flag=True,
        help="With --game three (or five): the others play on for second place (with "
        f"three, 1 match point). {more}",
    )


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


def penalty_option(help: str) -> Decorator:
    """``--penalty none|zero|back-ten``: what a show of nothing costs (the variant)."""
    return click.option(
        "--penalty", type=click.Choice(PENALTIES), default="none", show_default=True,
        help="A variant for a show of nothing: zero (the opponent scores 1) or back-ten (it "
        "costs its owner 10); " + help,
    )  # fmt: skip


def throw_fives_option(help: str) -> Decorator:
    """``--throw-fives``: every five held goes to the crib (the variant)."""
    return click.option(
        "--throw-fives", is_flag=True,
        help="A variant: every five a player holds must go to the crib (as many as the "
        "throw takes; of more, the player chooses). " + help,
    )  # fmt: skip


def lowball_option(help: str) -> Decorator:
    """``--lowball``: loser's cribbage (the variant), with what the command does with it."""
    return click.option("--lowball", is_flag=True, help="Loser's cribbage: " + help)


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
    "when the loser is short of half the target (61 of 121). With --game, two sides only"
)


def scoring_option(default: str | None) -> Decorator:
    """``--scoring``; without a default where the command must see whether it was given."""
    choice = click.Choice(tuple(SCORINGS))
    if default is not None:
        return click.option(
            "--scoring", type=choice, default=default, show_default=True, help=f"{SCORING_HELP}."
        )
    return click.option("--scoring", type=choice, help=f"{SCORING_HELP} [default: tournament].")


def opponent_option(with_policy: bool = True) -> Decorator:
    """``--opponent``: how the opponent's crib cards are chosen (discard, auction; a
    command with ``--policy`` says how a sampled opponent throws)."""
    sampled = "sampled opponent hands thrown by --policy" if with_policy else (
        "sampled opponent hands (thrown by the random crib model)"
    )  # fmt: skip
    return click.option(
        "--opponent",
        type=click.Choice(OPPONENTS),
        default=DEFAULT_OPPONENT,
        show_default=True,
        help="How the opponent's two crib cards are chosen: expert (the role-specific "
        f"expert policy, exact combination), random pair (exact), or {sampled}.",
    )


def pegging_options(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--pegging`` and its short form ``--no-pegging`` (discard, auction)."""
    f = click.option(
        "--no-pegging",
        is_flag=True,
        help="The classic ranking by hand and crib only (same as --pegging none).",
    )(f)
    return click.option(
        "--pegging",
        type=click.Choice(PEGGING_CHOICES),
        default="table",
        show_default=True,
        help="Count the play: table (the shipped pegging value of each keep), simulated "
        "(the play of these very cards simulated by the solver, several seconds a role; exact "
        "is its old name) or none. With --game: not counted unless simulated (a seat's best "
        "splits played out, tens of seconds).",
    )(f)


def play_policy_option(flag: str, help: str) -> Decorator:
    """``--policy`` or ``--play-policy``: how cards are laid (the solver by default)."""
    return click.option(
        flag, type=click.Choice(PLAY_POLICIES), default=DEFAULT_PLAY_POLICY, show_default=True,
        help=help,
    )  # fmt: skip


def score_option(help: str) -> Decorator:
    """``--score MINE-THEIRS``: value from a position on the board."""
    return click.option("--score", metavar="MINE-THEIRS", help=help)


def position_samples_option(f: Callable[..., Any]) -> Callable[..., Any]:
    """``--position-samples``: deals simulated per throw from a score."""
    return count_option(
        "--position-samples",
        setting=POSITION_SAMPLES,
        default=False,
        help=f"With --score: deals simulated per throw [default: {POSITION_SAMPLES.default:,}].",
    )(f)


def table_format_option(help_default: str) -> Decorator:
    return click.option(
        "--format",
        "-f",
        "fmt",
        type=click.Choice(TABLE_FORMATS),
        help=f"Parquet (for pandas) or CSV [default: {help_default}].",
    )


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


role_option = click.option(
    "--role", type=click.Choice(("dealer", "pone")), help="Your role: --dealer or --pone."
)


trust_unverified_option = click.option(
    "--trust-unverified",
    is_flag=True,
    help="Read a table file that has no provenance to check it against (a CSV without "
    "its .meta.json), unchecked; every output says so.",
)


def gathered(into: str, build: Callable[..., Any], *options: Decorator) -> Decorator:
    """Options whose values reach the command as one value, ``build(**their values)``,
    under the name ``into`` (e.g. a request): the command's function takes that value,
    not the options one by one. ``--help`` lists the options where the decorator stands.
    """

    def probe() -> None:  # pragma: no cover - never called: it only collects the options
        """Collects the options' parameters."""

    for option in reversed(options):
        option(probe)
    params: list[click.Parameter] = list(getattr(probe, "__click_params__", []))
    names = [p.name for p in params]

    def decorate(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def command(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in names if name is not None}
            return f(*args, **kwargs, **{into: build(**values)})

        command.__dict__["__click_params__"] = [*getattr(f, "__click_params__", []), *params]
        return command

    return decorate
