"""The command line: the ``crib-analyze`` group, its commands, and the one-line errors.

Every command parses its arguments, calls the public API (:mod:`crib_analyze.api`) and
renders what it returns (:mod:`crib_analyze.render.common`); no rule of the game or of the
analysis lives here. Every domain error (:mod:`crib_analyze.errors`) becomes one
``Error: ...`` line on standard error and an exit code: 2 for bad input, 1 for a
failure (a file that cannot be written, a damaged table), 130 for Ctrl-C; anything
else is a bug, reported in one line too (the traceback with CRIB_ANALYZE_DEBUG=1). Heavy
modules (numba, pandas) are imported inside the commands, so ``--help`` and
``--version`` answer at once.
"""

from __future__ import annotations

import contextlib
import errno
import importlib
import io
import os
import sys
from pathlib import Path
from typing import Any

import click

from crib_analyze import interrupts, notices
from crib_analyze.cli.output import Interrupted, compile_notice, echo_error, first_use, note
from crib_analyze.errors import CribAnalyzeError, describe_os_error
from crib_analyze.settings import DEBUG_ENV, FIRST_COMPILE_RECORD, __version__

#: every command, by name: the module of :mod:`crib_analyze.cli` that defines it and its
#: name there. A command's module is imported when the command is run or listed, so a
#: run of one command never imports the others (start-up stays short).
COMMANDS = {
    "auction": ("auction_commands", "auction"),
    "build-board": ("board_commands", "build_board"),
    "build-game-boards": ("board_commands", "build_game_boards"),
    "build-game-models": ("model_commands", "build_game_models"),
    "build-leads": ("play_commands", "build_leads"),
    "build-model": ("model_commands", "build_model"),
    "build-pegging": ("play_commands", "build_pegging"),
    "count": ("count_commands", "count"),
    "crib-table": ("table_commands", "crib_table"),
    "discard": ("discard_commands", "discard"),
    "games": ("game_commands", "games"),
    "odds": ("board_commands", "odds"),
    "paths": ("model_commands", "paths"),
    "peg": ("play_commands", "peg"),
    "play": ("play_commands", "play"),
    "quiz": ("quiz_commands", "quiz"),
    "review": ("play_commands", "review"),
    "score": ("show_commands", "score"),
    "serve": ("serve_commands", "serve"),
    "simulate": ("board_commands", "simulate"),
    "table": ("table_commands", "table"),
}


class OneLineErrors(click.Group):
    """A group whose errors print as one line (``Error: ...``) with a clear exit code,
    and whose commands are imported when used (:data:`COMMANDS`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(COMMANDS)

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            command = getattr(importlib.import_module(f"crib_analyze.cli.{module}"), name)
            self.add_command(command, cmd_name)
        return self.commands.get(cmd_name)

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
        show_notices()
        guard_closed_streams()
        try:
            with interrupts.deferred():  # Ctrl-C stops a job between kernel calls only
                rv = _broken_pipe_as_error(
                    lambda: super(OneLineErrors, self).main(
                        args, prog_name, complete_var, False, **extra
                    )
                )
            code = rv if isinstance(rv, int) else 0
        except click.exceptions.NoArgsIsHelpError as e:
            e.show()  # a bare command: its help, as click shows it
            code = 2
        except click.UsageError as e:
            cmd = e.ctx.command_path if e.ctx else "crib-analyze"
            echo_error(f"{e.format_message()} (see '{cmd} --help')")
            code = 2
        except click.ClickException as e:
            echo_error(e.format_message())
            code = e.exit_code
        except CribAnalyzeError as e:  # a domain error that reached here unconverted
            echo_error(str(e))
            code = e.exit_code
        except (click.Abort, KeyboardInterrupt, Interrupted) as e:
            hint = f": {e.hint}" if isinstance(e, Interrupted) and e.hint else ""
            echo_error(f"interrupted{hint}", prefix="\n" if _stderr_is_terminal() else "")
            code = 130
        except BrokenPipeError:
            _silence_stdout()
            echo_error("cannot write the output: the reader went away (broken pipe)")
            code = 1
        except StdinError as e:
            echo_error(str(e))
            code = 2
        except OSError as e:  # standard output or error could not be written
            _silence_stdout()
            echo_error(f"cannot write the output: {describe_os_error(e)}")
            code = 1
        except Exception as e:  # a bug: one line, the traceback on request
            if os.environ.get(DEBUG_ENV):
                raise
            import traceback

            where = traceback.extract_tb(e.__traceback__)[-1]
            echo_error(
                f"internal error (a bug in crib-analyze {__version__}, please report it): "
                f"{type(e).__name__}: {e} at {Path(where.filename).name}:{where.lineno}; "
                f"{DEBUG_ENV}=1 shows the traceback"
            )
            code = 1
        code = _flush_stdout(code)
        sys.exit(code)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # past click, which would print a blank line first
            raise Interrupted from None


def subcommands(group: click.Group) -> dict[str, click.Command]:
    """Every command of ``group`` by name, in its listed order (for this group, each
    command's module imported): what ``group.commands`` holds once all are loaded."""
    ctx = click.Context(group)
    found = {name: group.get_command(ctx, name) for name in group.list_commands(ctx)}
    return {name: command for name, command in found.items() if command is not None}


def _stderr_is_terminal() -> bool:
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


def _attach_stderr_lines() -> None:
    """Attach the handler that shows the library's notices as lines on standard error
    (once): the first compile of a process in the words of
    :func:`crib_analyze.cli.output.compile_notice`, on a terminal or not; other
    information on a terminal only; warnings always."""
    import logging

    class StderrLine(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            cache = getattr(record, FIRST_COMPILE_RECORD, None)
            if cache is not None:
                note(compile_notice(cache))
            elif record.levelno >= logging.WARNING or _stderr_is_terminal():
                note(record.getMessage())

    logger = logging.getLogger("crib_analyze")
    if not any(type(h).__name__ == "StderrLine" for h in logger.handlers):
        handler = StderrLine()
        handler.setLevel(logging.INFO)
        logger.addHandler(handler)
        logger.setLevel(logging.INFO)


def show_notices() -> None:
    """Show the library's notices on standard error, one line each: always its warnings
    (a damaged cache file recomputed) and the first compile of a run (what compiles and
    about how long, from the measured figures: the first run after an install or an
    upgrade is slower), and on a terminal its other information. The handler is attached
    when the library makes its first logger (:func:`crib_analyze.notices.when_logging`)."""
    first_use(None)  # a new run: the command names what it compiles for, if it wants
    notices.when_logging(_attach_stderr_lines)


def _broken_pipe_as_error(run: Any) -> Any:
    """Run the command; click turns a write to a pipe whose reader went away into a
    silent exit 0 (even outside standalone mode): make it the BrokenPipeError it is."""
    try:
        return run()
    except SystemExit as e:
        if isinstance(sys.stdout, click.utils._PacifyFlushWrapper):  # click's sign of it
            sys.stdout = sys.stdout.wrapped
            raise BrokenPipeError(errno.EPIPE, "broken pipe") from None
        raise e


class StdinError(OSError):
    """Standard input that cannot be read: closed, or not text."""

    def __str__(self) -> str:
        return f"cannot read standard input: {self.strerror}"


class _ClosedStream(io.TextIOBase):
    """Stands in for a standard stream the process was started without (``>&-``):
    writing or reading it fails with one clear error instead of a traceback."""

    def __init__(self, name: str) -> None:
        self.stream = name

    def write(self, text: str) -> int:
        raise OSError(errno.EBADF, "standard output is closed")

    def read(self, size: int | None = -1) -> str:
        raise StdinError(errno.EBADF, "standard input is closed")

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        raise StdinError(errno.EBADF, "standard input is closed")

    def isatty(self) -> bool:
        return False

    def flush(self) -> None:
        pass


def guard_closed_streams() -> None:
    """Replace a closed standard input or output with :class:`_ClosedStream`; a closed
    standard error stays silent (the exit code still tells)."""
    if sys.stdout is None:
        sys.stdout = _ClosedStream("stdout")
    if sys.stdin is None:
        sys.stdin = _ClosedStream("stdin")


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
        echo_error(f"cannot write the output: {describe_os_error(e)}")
        return code or 1
    return code


def _silence_stdout() -> None:
    """Point standard output at /dev/null so Python's exit-time flush cannot fail."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)


@click.group(cls=OneLineErrors, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", "-V", prog_name="crib-analyze")
def cli() -> None:
    """Exact, role-aware cribbage strategy: the throw, the play, the chance of winning.

    Cards are written rank then suit: A 2-9 T (or 10) J Q K and C D H S (or ♣ ♦ ♥ ♠),
    in any case, e.g. 5H 10d J♣. A hand may be separate arguments or one quoted string.

    Generated files (tables, rebuilt models) go to the user data directory unless
    -o/--output says otherwise; 'crib-analyze paths' shows where.
    """


def main() -> None:
    """Console-script entry point."""
    cli(prog_name="crib-analyze")
