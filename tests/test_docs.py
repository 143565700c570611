"""The documentation matches the program: examples, commands, options and columns.

* Every ``$ crib-analyze ...`` line in a ``console`` block of README.md and docs/*.md is
  parsed by the real command line (an unknown command or option fails), and where the
  block shows its output, the command is run and must print exactly that (a final
  ``...`` line means the output starts with the lines shown). ``make docs`` rewrites
  the shown outputs (tools/docs_examples.py).
* docs/cli.md is what ``tools/cli_reference.py`` makes from ``--help`` now.
* Every command is explained in a guide besides the generated reference.
* The columns of a discard ranking are all documented, in the ranking module and in
  docs/api.md, and nothing documented is missing from the code.

Mutations checked: a README output line edited, an option renamed in a guide
(``--samplez``), a command left out of every guide, a column dropped from docs/api.md:
each fails here.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import crib_analyze
from crib_analyze.cli import cli
from crib_analyze.cli.app import subcommands
from crib_analyze.discard.ranking import COLUMNS
from tests.conftest import rotating
from tools.docs_examples import PAGES, Example, examples

ROOT = Path(__file__).resolve().parent.parent
GUIDES = [p for p in PAGES if p.name not in ("cli.md",)]


EXAMPLES = examples()


def _id(e: Example) -> str:
    return f"{e.page}:{e.line}"


def test_there_are_examples_to_check() -> None:
    run = [e for e in EXAMPLES if e.output]
    assert len(EXAMPLES) >= 30 and len(run) >= 8, (len(EXAMPLES), len(run))


@pytest.mark.parametrize("example", EXAMPLES, ids=[_id(e) for e in EXAMPLES])
def test_every_documented_command_line_parses(example: Example) -> None:
    """The command and every option exist and take the values shown."""
    args = list(example.args)
    ctx = cli.make_context("crib-analyze", args, resilient_parsing=False)
    group: click.Group = cli
    parent = ctx
    while True:
        protected = getattr(parent, "_protected_args", None)  # click >= 8.2; public before
        if protected is None:
            protected = parent.protected_args
        rest = list(protected) + list(parent.args)
        if not rest:
            return  # a bare group (help)
        name, command, rest = group.resolve_command(parent, rest)
        assert command is not None, f"{_id(example)}: no command {name!r}"
        try:
            sub = command.make_context(name or "", rest, parent=parent)
        except click.BadParameter as e:  # a file the example assumes (hands.txt, a table)
            if "does not exist" in str(e) or "No such file" in str(e):
                return
            raise
        if not isinstance(command, click.Group):
            return
        group, parent = command, sub


#: the examples whose output is checked: the README's every run, the guides' in a third
#: that rotates with the commit (all of them in make test-all)
SHOWN = [e for e in EXAMPLES if e.output]
GUIDES_SHOWN = [e for e in SHOWN if e.page != "README.md"]
CHECKED = [e for e in SHOWN if e.page == "README.md"] + rotating(
    GUIDES_SHOWN, (len(GUIDES_SHOWN) + 2) // 3, "docs outputs"
)


@pytest.mark.parametrize("example", CHECKED, ids=[_id(e) for e in CHECKED])
def test_documented_output_is_what_the_program_prints(
    example: Example, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(ROOT / "docs" / "examples", tmp_path / "docs" / "examples")  # inputs
    result = CliRunner().invoke(cli, example.args, catch_exceptions=False)
    assert result.exit_code == 0, result.output
    got = [line.rstrip() for line in result.stdout.splitlines()]
    shown = [line.rstrip() for line in example.output]
    if example.prefix:
        got = got[: len(shown)]
    assert got == shown, f"{_id(example)}: the documented output differs"


def test_the_cli_reference_is_current() -> None:
    from tools.cli_reference import REFERENCE, reference

    assert REFERENCE.read_text(encoding="utf-8") == reference(), "run 'make docs'"


def test_every_command_is_explained_in_a_guide() -> None:
    from tools.cli_reference import command_paths

    text = "\n".join(p.read_text(encoding="utf-8") for p in GUIDES)
    missing = [" ".join(p) for p in command_paths(cli) if f"crib-analyze {' '.join(p)}" not in text]
    assert not missing, f"commands no guide shows: {missing}"


def _documented_columns(text: str) -> list[str]:
    names = []
    for line in text.splitlines():
        m = re.match(r"^([a-z_/]+)\s+(int64|float64|str|bool)(\s|$)", line)
        if m:
            name = m.group(1)
            if "/" in name:  # hand_min/max
                stem, other = name.split("/")
                names += [stem, stem.rsplit("_", 1)[0] + "_" + other]
            else:
                names.append(name)
    return names


def test_every_ranking_column_is_documented() -> None:
    from crib_analyze.discard import ranking

    in_module = _documented_columns(ranking.__doc__ or "")
    assert sorted(in_module) == sorted(COLUMNS)
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    block = api.split("<!-- columns -->")[1].split("<!-- /columns -->")[0]
    assert re.findall(r"`([a-z_]+)`", block) == list(COLUMNS)


def test_no_guide_names_a_module_that_does_not_exist() -> None:
    """Paths like ``crib_analyze/board/build.py`` and dotted ``crib_analyze.x.y`` names."""
    package = ROOT / "crib_analyze"
    bad = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for path in re.findall(r"crib_analyze/[a-z_/]+\.py", text):
            if not (ROOT / path).is_file():
                bad.append(f"{page.name}: {path}")
        for dotted in re.findall(r"crib_analyze(?:\.[a-z_]+)+", text):
            parts = dotted.split(".")[1:]
            base = package.joinpath(*parts)
            ok = base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()
            while not ok and len(parts) > 1:  # a name inside a module
                parts = parts[:-1]
                base = package.joinpath(*parts)
                ok = base.with_suffix(".py").is_file() or (base / "__init__.py").is_file()
            public = len(dotted.split(".")) == 2 and dotted.split(".")[1] in crib_analyze.__all__
            if not ok and not public and dotted != "crib_analyze.data":
                bad.append(f"{page.name}: {dotted}")
    assert not bad, bad


def test_pages_link_to_files_that_exist() -> None:
    bad = []
    for page in PAGES:
        for target in re.findall(r"\]\(([^)#:]+)\)", page.read_text(encoding="utf-8")):
            if not (page.parent / target).exists():
                bad.append(f"{page.name}: {target}")
    assert not bad, bad


def test_every_documented_output_fits_80_columns() -> None:
    """The outputs the docs show are what the program prints (tested above): none is
    wider than a terminal of 80 columns."""
    wide = [(e.page, e.line, len(line)) for e in examples() for line in e.output if len(line) > 80]
    assert wide == []


def test_every_help_page_fits_80_columns() -> None:
    import click
    from click.testing import CliRunner

    from crib_analyze.cli import cli

    def pages(group: click.Group, path: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
        found = [path]
        for name, command in sorted(subcommands(group).items()):
            found += (
                pages(command, (*path, name))
                if isinstance(command, click.Group)
                else [(*path, name)]
            )
        return found

    for path in pages(cli):
        result = CliRunner().invoke(cli, [*path, "--help"], terminal_width=80)
        assert result.exit_code == 0, path
        wide = [line for line in result.output.splitlines() if len(line) > 80]
        assert wide == [], (path, wide)


def test_the_python_examples_say_what_python_returns() -> None:
    """The numbers the README and docs/api.md quote in their Python examples, and the
    printed result of the pandas exploration (it printed NaN once)."""
    import contextlib
    import io

    import crib_analyze as ca

    got = ca.win_probability(95, 100, dealer=True)
    for page in (ROOT / "README.md", ROOT / "docs" / "api.md"):
        text = page.read_text(encoding="utf-8")
        (quoted,) = re.findall(r"win_probability\(95, 100, dealer=True\)  # (0\.\d+)", text)
        assert f"{got:.{len(quoted) - 2}f}" == quoted, (page.name, got)
    api = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    code, shown = re.search(
        r"```python\n(import pandas as pd\n.*?)```\n\n```text\n(.*?)```", api, re.DOTALL
    ).groups()  # type: ignore[union-attr]
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(code, {})
    assert out.getvalue() == shown and "NaN" not in shown


def test_the_interactive_examples_of_the_api_guide_run() -> None:
    """Every ``>>>`` example of docs/api.md gives what it shows (doctest)."""
    import doctest

    found = doctest.testfile(
        str(ROOT / "docs" / "api.md"), module_relative=False, optionflags=doctest.ELLIPSIS
    )
    assert found.attempted >= 3 and found.failed == 0, found
