"""What the commands say and write: the one-line errors (library errors as the
command's options), notes and warnings on standard error, progress bars, and the
answer written whole to standard output or a file."""

from __future__ import annotations

import contextlib
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO, TypeVar

import click

from crib_analyze import interrupts
from crib_analyze.errors import CribAnalyzeError, describe_os_error
from crib_analyze.settings import (
    LONG_RUN_SECONDS,
)

if TYPE_CHECKING:
    from crib_analyze.results import Rows


def echo_error(message: str, prefix: str = "Error: ") -> None:
    """One line on standard error (never fails, even with standard error closed)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        click.echo(f"{prefix}{message}".rstrip(), err=True)


def note(message: str) -> None:
    """A line of information on standard error (progress, where a file went)."""
    echo_error(message, prefix="")


_FIRST_USE: list[str] = []  # what this run compiles for, if a command said it


def first_use(kind: str | None) -> None:
    """Name what this run may compile kernels for, as its measured first-run figure is
    named (``discard --score``); without it (None), the command's name."""
    _FIRST_USE[:] = [kind] if kind else []


def compile_notice(cache: str) -> str:
    """The one line said when a run compiles kernels: what for, about how long (the
    first run measured on the figures' machine, ``first-run-...`` in data/costs.json),
    and where they are kept."""
    from crib_analyze.costs import cost, first_run_key, machine

    ctx = click.get_current_context(silent=True)
    kind = _FIRST_USE[0] if _FIRST_USE else (ctx.info_name if ctx else None) or "this command"
    figure = cost(first_run_key(kind))
    cores = machine().split(";")[0] or "the measuring machine"  # "2 cores; ..."
    took = f", {figure.text()} on {cores}" if figure.seconds else ""
    after = (
        f"; cached in {cache}, later runs start at once"
        if cache
        else "; no cache folder can be written, so every run compiles"
    )
    return f"first use of `{kind}`: compiling its kernels{took}{after}"


def unverified_note(rows: Rows) -> None:
    """Say on standard error, whatever the format, that a table was read unchecked (the
    words of the result's own note)."""
    from crib_analyze.api import CribTableMeta, LookupMeta

    meta = rows.meta
    if isinstance(meta, LookupMeta | CribTableMeta) and meta.unverified:
        note(f"warning: {meta.notes[0]}")


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
    figures (:mod:`crib_analyze.costs`), each given as a function of them. The figures
    are read when the help is shown, not when the command is imported: a run that
    shows no help never reads them."""

    def decorate(command: CommandT) -> CommandT:
        shown = command.format_help_text

        def format_help_text(ctx: click.Context, formatter: click.HelpFormatter) -> None:
            if not getattr(command, "_cost_added", False):
                command._cost_added = True  # type: ignore[attr-defined]
                _add_cost(command, figures)
            shown(ctx, formatter)

        command.format_help_text = format_help_text  # type: ignore[method-assign]
        return command

    return decorate


def _add_cost(command: click.Command, figures: tuple[Callable[[], str], ...]) -> None:
    """Append the 'Cost' paragraph of :func:`with_cost` to ``command.help``."""
    from crib_analyze.costs import machine

    where = machine().split(";")[0]
    try:
        text = "; ".join(f() for f in figures)
    except (KeyError, ValueError, TypeError):  # a damaged figures file: no paragraph
        return
    if where and text:  # the docstring's indentation taken off first, as click does
        body = inspect.cleandoc(command.help or "")
        command.help = f"{body}\n\nCost (measured on {where}): {text}."


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
SPELLED = {"role": "--dealer or --pone"}


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
