"""The command examples of README.md and docs/*.md: found, run, and rewritten.

An example is a ``$ crib-analyze ...`` line in a ``console`` block; the lines after it
(up to the next ``$`` line or the end of the block) are its shown output, and a final
``...`` line means only the start is shown. tests/test_docs.py runs every example and
compares; ``python tools/docs_examples.py --write`` (``make docs``) reruns each example
that shows output and writes what it prints now (as many lines as were shown, for a
``...`` example), so a change of output is one command and a reviewed diff.
"""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@dataclass(frozen=True)
class Example:
    page: str
    line: int  # of the ``$`` line, from 1
    args: list[str]
    output: list[str] = field(default_factory=list)  # the lines shown after the command
    prefix: bool = False  # the output shown ends with '...': compare the start only


def examples(pages: list[Path] = PAGES) -> list[Example]:
    """Every ``$ crib-analyze`` example of ``pages``, in page and line order."""
    found = []
    for page in pages:
        lines = page.read_text(encoding="utf-8").splitlines()
        in_console = False
        current: Example | None = None
        for n, line in enumerate(lines, start=1):
            if line.startswith("```"):
                if current is not None:
                    found.append(current)
                    current = None
                in_console = line.strip() == "```console" and not in_console
                continue
            if not in_console:
                continue
            if line.startswith("$ "):
                if current is not None:
                    found.append(current)
                current = None
                words = shlex.split(line[2:], comments=True)
                if words and words[0] == "crib-analyze":
                    current = Example(page.name, n, words[1:])
            elif current is not None:
                if line.strip() == "...":
                    current = Example(
                        current.page, current.line, current.args, current.output, True
                    )
                else:
                    current.output.append(line)
    return found


def run(example: Example) -> tuple[int, list[str]]:
    """(exit code, standard output lines) of the example, run in a scratch folder that
    holds docs/examples (the inputs the examples read)."""
    from click.testing import CliRunner

    from crib_analyze.cli import cli

    here = Path.cwd()
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copytree(ROOT / "docs" / "examples", Path(tmp) / "docs" / "examples")
        try:
            os.chdir(tmp)
            result = CliRunner().invoke(cli, example.args, catch_exceptions=False)
        finally:
            os.chdir(here)
    return result.exit_code, [line.rstrip() for line in result.stdout.splitlines()]


def write(pages: list[Path] = PAGES) -> int:
    """Rewrite the shown output of every example that shows some; returns how many
    changed."""
    changed = 0
    for page in pages:
        shown = [e for e in examples([page]) if e.output]
        if not shown:
            continue
        lines = page.read_text(encoding="utf-8").splitlines()
        for e in reversed(shown):  # from the bottom: earlier line numbers stay right
            code, got = run(e)
            if code != 0:
                sys.exit(f"{e.page}:{e.line}: exit {code}: {' '.join(e.args)}")
            new = [*got[: len(e.output)], "..."] if e.prefix else got
            start, end = e.line, e.line + len(e.output) + (1 if e.prefix else 0)
            if lines[start:end] != new:
                lines[start:end] = new
                changed += 1
                print(f"{e.page}:{e.line}: {' '.join(e.args)}")
        page.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return changed


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tools/docs_examples.py --write  (rerun every shown example)")
    print(f"{write()} examples rewritten")
