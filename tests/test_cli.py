"""Command-line tests through click's CliRunner: output formats, options and exit codes.

Expected numbers come from facts that do not depend on this package's output:

* 5H 5C 5S JD + starter 5D is the 29 hand: fifteens 16, pairs 12, nobs 1.
* 4H 4C 5S 5D + 6C scores 24: fifteens 8 (4+5+6 four ways), pairs 4, runs 12.
* TH 5C 5S 5D + 5H scores 28: fifteens 16, pairs 12.
* Even-valued cards (2 4 6 8 and tens) can never make fifteen.
* For ``discard 5H 6S 4D JC QH 5C`` the best throw in both roles is JC QH; the kept
  4-5-5-6 averages 734/46 over the 46 starters, scores at least 12 (4-5-6 twice = 6,
  pair 2, 4+5+6 twice = 4) and at most 24 (a 4 or 6 starter), the random-model crib
  is 4.711287, the dealer net without heels 20.667809 and the pone net 11.245235.
* Heels: the dealer's expected points for a jack starter = 2 x unseen jacks / 46.

Everything else is cross-checked against the Python API ``crib_analyze.analyze``
(tested on its own elsewhere), or checked for internal consistency.
"""

from __future__ import annotations

import csv
import gc
import io
import json
import os
import re
import subprocess
import sys
import traceback
from pathlib import Path

import click
import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner, Result

import crib_analyze
from crib_analyze import analyze, parse_cards
from crib_analyze.__main__ import GC_THRESHOLD
from crib_analyze.cli import cli
from crib_analyze.cli.app import subcommands

RUNNER = CliRunner()
PROG = "crib-analyze"

HAND = "5H 6S 4D JC QH 5C"
HAND_ARGS = HAND.split()
BEST_DISCARD = "JC QH"
BEST_KEEP = {"5H", "6S", "4D", "5C"}
BEST_HAND_MEAN = 734 / 46
BEST_HAND_MIN = 12
BEST_HAND_MAX = 24
BEST_CRIB = 4.711287
HEELS = 2 * 3 / 46  # one jack (JC) in hand: three unseen
BEST_DEALER_NET = 20.667809 + HEELS
BEST_PONE_NET = 11.245235

HAND_COLUMNS = ["rank", "discard", "keep", "hand_mean", "hand_min", "hand_max", "hand_sd"]
PEG_COLUMNS = ["peg_own", "peg_opp", "peg_se", "total"]


def columns(role: str | None, need: bool = False, pegging: bool = True) -> list[str]:
    """The documented columns of a discard frame for a role (docs/api.md and
    crib_analyze/discard/ranking.py)."""
    role_columns = ["crib_mean", "crib_se"]
    if role:
        role_columns += ["net", *(["peg_own", "peg_opp", "peg_net", "total"] if pegging else [])]
        role_columns += ["loss", "near_tie"]
    both = ["dealer_crib_mean", "dealer_crib_se", "pone_crib_mean", "pone_crib_se"]
    both += ["dealer_heels", "dealer_net", "pone_net"]
    if pegging:
        both += [f"{side}_{c}" for side in ("dealer", "pone") for c in PEG_COLUMNS]
    both += ["dealer_loss", "pone_loss", "dealer_best", "pone_best"]
    both += ["verdict"] if role else ["dealer_verdict", "pone_verdict"]
    both += ["role", "opponent", "model", "pegging"]
    return HAND_COLUMNS + (["p_need"] if need else []) + role_columns + both


BASE_COLUMNS = columns(None)
TEXT_COLUMNS = (
    "hand", "discard", "keep", "role", "opponent", "model", "pegging", "verdict",
    "dealer_verdict", "pone_verdict",
)  # fmt: skip
# pandas 3 parses floats exactly by default and deprecates the option
READ_CSV_EXACT: dict = (
    {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
)


# --- helpers --------------------------------------------------------------------------


def invoke(args: list[str], input: str | None = None) -> Result:
    """Run the CLI; any exception other than a clean exit fails the test with its traceback."""
    result = RUNNER.invoke(cli, args, input=input, prog_name=PROG)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        tb = "".join(traceback.format_exception(*result.exc_info))  # type: ignore[misc]
        pytest.fail(f"unhandled exception for {args}:\n{tb}")
    assert "Traceback" not in result.output
    return result


def ok(args: list[str], input: str | None = None) -> Result:
    """Run the CLI and require success with nothing on stderr but a compile notice (a
    process that has answered NUMPY_HANDS hands moves to the kernels, which compile
    once on an empty cache, whichever test gets there first)."""
    result = invoke(args, input=input)
    assert result.exit_code == 0, result.output
    said = [line for line in result.stderr.splitlines() if not line.startswith("first use of")]
    if "--verbose" in args or "-v" in args:  # which files were read and how they were checked
        said = [line for line in said if not line.startswith("checked ")]
    assert said == []
    return result


def assert_one_line_error(result: Result, *needles: str, code: int = 2) -> str:
    """Exit code ``code``, nothing on stdout, one ``Error: ...`` line on stderr with needles."""
    assert result.exit_code == code, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    line = lines[0]
    assert line.startswith("Error: "), line
    for needle in needles:
        assert needle in line, (needle, line)
    return line


def read_csv(text: str) -> pd.DataFrame:
    """Parse CSV output exactly (round-trip float parsing); empty text stays ''."""
    frame = pd.read_csv(
        io.StringIO(text),
        **READ_CSV_EXACT,
        dtype={c: str for c in TEXT_COLUMNS},
        keep_default_na=False,
        na_values=[""],
    )
    for c in TEXT_COLUMNS:
        if c in frame:
            frame[c] = frame[c].fillna("")
    return frame


def read_json(text: str) -> pd.DataFrame:
    records = json.loads(text)
    assert isinstance(records, list)
    return pd.DataFrame.from_records(records)


def assert_frames_equal(got: pd.DataFrame, want: pd.DataFrame) -> None:
    """Same columns in the same order and exactly the same values (NaN equals NaN)."""
    assert list(got.columns) == list(want.columns)
    assert len(got) == len(want)
    for col in want.columns:
        if col in TEXT_COLUMNS:
            assert [str(v) for v in got[col]] == [str(v) for v in want[col]], col
        else:
            np.testing.assert_array_equal(
                got[col].astype(float).to_numpy(), want[col].astype(float).to_numpy(), err_msg=col
            )


WIDE = ["--wide", "--verbose"]  # every column, and the header that says what they are


def table_rows(text: str) -> tuple[list[str], list[str], list[list[str]]]:
    """(preamble lines, column heads, data rows) of one discard table; cells split on 2+
    spaces. The preamble leaves out the verdicts (the lines before the hand's)."""
    lines = text.rstrip("\n").splitlines()
    while lines and (lines[0][:3] in ("As ", "At ") or lines[0].startswith("  ")):
        lines = lines[1:]
    head_at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("#"))
    heads = re.split(r"\s{2,}", lines[head_at].strip())
    data = [line for line in lines[head_at + 1 :] if line.strip()[:1].isdigit()]
    rows = [line.strip().split("  ") for line in data]
    rows = [[c.strip() for c in row if c.strip()] for row in rows]
    return lines[:head_at], heads, rows


def score_table(text: str) -> tuple[str, dict[str, int]]:
    """(first line, category -> points) of the score command's table (the block after
    the announced combinations)."""
    first, *rest = text.rstrip("\n").splitlines()
    parts = {}
    for line in rest[rest.index("  ---") + 1 :]:
        if line.startswith("heels"):
            continue
        name, points = line.split()
        parts[name] = int(points)
    return first, parts


def breakdown(fifteens: int = 0, pairs: int = 0, runs: int = 0, flush: int = 0, nobs: int = 0):
    parts = {"fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs}
    return parts | {"total": sum(parts.values())}


def nonincreasing(values: pd.Series) -> bool:
    return bool(np.all(np.diff(values.to_numpy(dtype=float)) <= 1e-12))


# --- help and version -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "purpose"),
    [
        (["--help"], "role-aware cribbage strategy"),
        (["-h"], "role-aware cribbage strategy"),
        (["score", "--help"], "Count a show as a player does"),
        (["score", "-h"], "Count a show as a player does"),
        (["discard", "--help"], "Rank the 15 ways to throw two of six cards"),
        (["discard", "-h"], "Rank the 15 ways to throw two of six cards"),
    ],
)
def test_help(args: list[str], purpose: str) -> None:
    result = ok(args)
    assert result.stdout.startswith("Usage: ")
    assert purpose in result.stdout


def test_group_help_lists_commands() -> None:
    out = ok(["--help"]).stdout
    commands = out.split("Commands:", 1)[1].split()
    assert "score" in commands
    assert "discard" in commands


@pytest.mark.parametrize(
    ("command", "options"),
    [
        ("score", ["--starter", "--crib", "--format"]),
        (
            "discard",
            ["--dealer", "--pone", "--opponent", "--samples", "--seed", "--need", "--sort"],
        ),
        ("discard", ["--top", "--hands-file", "--format", "--output"]),
    ],
)
def test_command_help_lists_options(command: str, options: list[str]) -> None:
    out = ok([command, "--help"]).stdout
    for option in options:
        assert option in out, option


@pytest.mark.parametrize("flag", ["--version", "-V"])
def test_version(flag: str) -> None:
    out = ok([flag]).stdout
    assert out.splitlines() == [f"{PROG}, version {crib_analyze.__version__}"]


def test_no_command_shows_help_not_an_error() -> None:
    """Bare ``crib-analyze`` shows usage (click >= 8.2: stderr, exit 2), not 'Error: Usage...'."""
    result = invoke([])
    assert result.exit_code == 2
    assert result.stdout == ""
    assert result.stderr.startswith("Usage: ")
    assert "Commands:" in result.stderr
    assert "Error" not in result.stderr


@pytest.mark.parametrize(
    ("args", "code", "stdout_start", "stderr_start"),
    [
        (["--version"], 0, f"{PROG}, version ", ""),
        (["score", "1H", "5C", "5S", "JD", "-s", "5D"], 2, "", "Error: "),
    ],
)
def test_module_entry_point(
    args: list[str], code: int, stdout_start: str, stderr_start: str
) -> None:
    """``python -m crib_analyze`` (the real console entry, outside CliRunner) keeps the contract."""
    proc = subprocess.run(
        [sys.executable, "-m", "crib_analyze", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        timeout=120,
    )
    assert proc.returncode == code, proc.stderr
    assert proc.stdout.startswith(stdout_start)
    assert proc.stderr.startswith(stderr_start)
    assert "Traceback" not in proc.stderr
    if code:
        assert len(proc.stderr.splitlines()) == 1


def run_python(code: str, timeout: int = 120, env: dict[str, str] | None = None) -> str:
    """The standard output of ``code`` run by a fresh interpreter, which must succeed."""
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, encoding="utf-8", env=env, timeout=timeout,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@pytest.mark.parametrize("user", [None, "1"])
def test_the_command_turns_numpy_huge_pages_off_unless_the_user_chose(user: str | None) -> None:
    """The command's own process asks numpy for no huge pages (settings.PROCESS_ENVIRONMENT)
    before numpy loads; a value the user set is kept."""
    code = (
        "import sys\n"
        "from crib_analyze.__main__ import main\n"
        "sys.argv = ['crib-analyze', '--version']\n"
        "try:\n"
        "    main()\n"
        "except SystemExit:\n"
        "    pass\n"
        "import numpy\n"
        "print(numpy._core.multiarray._get_madvise_hugepage())\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if user is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = user
    stdout = run_python(code, env=env)
    assert stdout.split()[-1] == ("True" if user == "1" else "False")


def test_the_console_script_collects_garbage_less_often_and_a_library_import_does_not() -> None:
    """run() (the console script) raises the collector's first threshold before the
    command imports anything; importing the package, or __main__, leaves it alone."""
    code = (
        "import atexit, gc, sys\n"
        "import crib_analyze.__main__ as m\n"
        "print('IMPORTED', gc.get_threshold()[0], flush=True)\n"
        "atexit.register(lambda: print('RAN', gc.get_threshold()[0], flush=True))\n"
        "sys.argv = ['crib-analyze', '--version']\n"
        "m.run()\n"
    )
    stdout = run_python(code)
    default = gc.get_threshold()[0]
    lines = [line for line in stdout.splitlines() if line.startswith(("IMPORTED", "RAN"))]
    assert lines == [f"IMPORTED {default}", f"RAN {GC_THRESHOLD}"]
    assert 10 * default < GC_THRESHOLD


def test_a_one_hand_answer_reads_no_cost_figures_and_help_still_states_them() -> None:
    """The recorded costs are read for --help (its 'Cost' paragraph) and long runs'
    warnings, not by a one-hand answer (start-up); the paragraph is still there."""
    code = (
        "import io, contextlib, sys\n"
        "from crib_analyze.cli import cli\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        "        cli.main(['discard', '5H', '6S', '4D', 'JC', 'QH', '5C', '--dealer'],\n"
        "                 prog_name='crib-analyze')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('ANSWERED', 'JC QH' in out.getvalue(), 'crib_analyze.costs' in sys.modules)\n"
        "with contextlib.redirect_stdout(out):\n"
        "    try:\n"
        "        cli.main(['discard', '--help'], prog_name='crib-analyze')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('HELP', 'Cost (measured on' in out.getvalue())\n"
    )
    stdout = run_python(code, timeout=300)
    assert stdout.splitlines()[-2:] == ["ANSWERED True False", "HELP True"]


def test_help_and_version_do_not_load_numba_or_pandas() -> None:
    """--help and --version answer without importing numpy, numba or pandas."""
    code = (
        "import sys\n"
        "from crib_analyze.cli import cli\n"
        "for args in (['--help'], ['--version'], ['discard', '--help']):\n"
        "    try:\n"
        "        cli.main(args, prog_name='crib-analyze')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "print('LOADED', sorted(m for m in ('numba', 'numpy', 'pandas') if m in sys.modules))\n"
    )
    stdout = run_python(code)
    assert stdout.splitlines()[-1] == "LOADED []"


# --- score ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "starter", "crib", "expected"),
    [
        ("5H 5C 5S JD", "5D", False, breakdown(fifteens=16, pairs=12, nobs=1)),
        ("5H 5C 5S JD", "5D", True, breakdown(fifteens=16, pairs=12, nobs=1)),
        ("4H 4C 5S 5D", "6C", False, breakdown(fifteens=8, pairs=4, runs=12)),
        ("TH 5C 5S 5D", "5H", False, breakdown(fifteens=16, pairs=12)),
        # all values even: no fifteens; 2 4 6 8 K: no runs, no pairs
        ("2H 4H 6H 8H", "KS", False, breakdown(flush=4)),
        ("2H 4H 6H 8H", "KS", True, breakdown()),  # a four-card flush does not count in crib
        ("2H 4H 6H 8H", "KH", False, breakdown(flush=5)),
        ("2H 4H 6H 8H", "KH", True, breakdown(flush=5)),
        # nobs: jack of the starter's suit, in hand and in crib
        ("JH 2C 4D 6S", "8H", False, breakdown(nobs=1)),
        ("JH 2C 4D 6S", "8H", True, breakdown(nobs=1)),
        ("JH 2C 4D 6S", "8C", False, breakdown()),
        # the README's example: 2+3+K is the only fifteen; five hearts
        ("2H 3H 7H 9H", "KH", True, breakdown(fifteens=2, flush=5)),
    ],
)
@pytest.mark.parametrize("fmt", ["table", "json"])
def test_score(cards: str, starter: str, crib: bool, expected: dict, fmt: str) -> None:
    args = ["score", *cards.split(), "--starter", starter, "--format", fmt]
    if crib:
        args.append("--crib")
    out = ok(args).stdout
    if fmt == "json":
        assert out.endswith("\n") and out.count("\n") == 1
        record = json.loads(out)
        combos = record.pop("combinations")
        assert record == {"hand": cards, "starter": starter, "crib": crib} | expected | {"heels": 0}
        assert sum(c["points"] for c in combos) == expected["total"]
        assert [c["running"] for c in combos][-1:] == ([expected["total"]] if combos else [])
    else:
        first, parts = score_table(out)
        assert first.startswith(f"{cards} + starter {starter}")
        assert ("crib rules" if crib else "hand rules") in first
        assert parts == expected


def test_score_five_cards_and_the_announced_count() -> None:
    out = ok(["score", "5H", "5C", "5S", "JD", "5D"]).stdout
    lines = out.splitlines()
    assert lines[0] == "5H 5C 5S JD + starter 5D (hand rules)"
    assert lines[1].split() == ["fifteen", "two", "5H", "JD"]
    assert lines[9].split()[:8] == ["and", "a", "double", "pair", "royal", "for", "twelve", "is"]
    assert lines[10].split()[:4] == ["and", "nobs", "is", "twenty-nine"]
    assert score_table(out)[1]["total"] == 29
    heels = ok(["score", "2C", "4D", "6H", "8S", "JH"]).stdout
    assert "heels: 2 to the dealer (at the cut, not part of this hand)" in heels
    assert json.loads(ok(["score", "2C 4D 6H 8S JH", "-f", "json"]).stdout)["heels"] == 2


def test_score_default_format_is_table() -> None:
    default = ok(["score", "5H", "5C", "5S", "JD", "-s", "5D"]).stdout
    table = ok(["score", "5H", "5C", "5S", "JD", "-s", "5D", "-f", "table"]).stdout
    assert default == table
    assert score_table(default)[1]["total"] == 29


@pytest.mark.parametrize(
    ("cards", "starter"),
    [
        (["5H", "5C", "5S", "JD"], "5D"),
        (["5H 5C 5S JD"], "5D"),
        (["5H,5C,5S,JD"], "5D"),
        (["5H, 5C, 5S, JD"], "5D"),
        (["5h", "5c", "5s", "jd"], "5d"),
        (["5h 5c", "5s,jd"], " 5d "),
        (["5♥", "5♣", "5♠", "J♦"], "5♦"),
        (["5♥ 5♣ 5♠ j♦"], "5♦"),
    ],
)
def test_score_card_spellings(cards: list[str], starter: str) -> None:
    record = json.loads(ok(["score", *cards, "-s", starter, "-f", "json"]).stdout)
    assert record["hand"] == "5H 5C 5S JD"
    assert record["starter"] == "5D"
    assert record["total"] == 29


TEN_IN_HAND = ("TH 5C 5S 5D", "5H")
TEN_STARTER = ("5H 5C 5S 5D", "TH")


@pytest.mark.parametrize(
    ("cards", "starter", "canonical"),
    [
        (["10H", "5C", "5S", "5D"], "5H", TEN_IN_HAND),
        (["10h", "5c", "5s", "5d"], "5h", TEN_IN_HAND),
        (["TH", "5C", "5S", "5D"], "5H", TEN_IN_HAND),
        (["th,5c,5s,5d"], "5h", TEN_IN_HAND),
        (["10♥ 5♣ 5♠ 5♦"], "5♥", TEN_IN_HAND),
        (["5H", "5C", "5S", "5D"], "10H", TEN_STARTER),
        (["5H", "5C", "5S", "5D"], "t♥", TEN_STARTER),
    ],
)
def test_score_ten_spellings(cards: list[str], starter: str, canonical: tuple[str, str]) -> None:
    """A ten and four fives score 28 (fifteens 16, pairs 12), however the ten is written."""
    record = json.loads(ok(["score", *cards, "-s", starter, "-f", "json"]).stdout)
    assert (record["hand"], record["starter"]) == canonical
    assert (record["fifteens"], record["pairs"], record["total"]) == (16, 12, 28)


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (["1H", "5C", "5S", "JD", "-s", "5D"], ["rank", "1H"]),
        (["5H", "5C", "5S", "ZD", "-s", "5D"], ["rank", "ZD"]),
        (["5H", "5C", "5X", "JD", "-s", "5D"], ["suit", "5X"]),
        (["5H", "5C", "5S", "JD", "5", "-s", "5D"], ["'5'", "no suit"]),
        (["5H", "5h", "5S", "JD", "-s", "5D"], ["duplicate", "5H"]),
        (["5H 5C 5S 5c", "-s", "5D"], ["duplicate", "5C"]),
        (["5H", "5C", "5S", "-s", "5D"], ["expected 4 cards", "3"]),
        (["5H", "5C", "5S", "JD", "KD", "-s", "5D"], ["expected 4 cards", "5"]),
        (["5H", "5C", "5S"], ["expected 5 cards", "got 3"]),
        (["5H", "5C", "5S", "JD", "-s", "5H"], ["--starter", "5H"]),
        (["5H", "5C", "5S", "JD", "-s", "jd"], ["--starter", "JD"]),
        (["5H", "5C", "5S", "JD", "-s", "5Z"], ["--starter", "5Z"]),
        (["5H", "5C", "5S", "JD", "-s", "XD"], ["--starter", "XD"]),
        (["5H", "5C", "5S", "JD", "-s", ""], ["--starter"]),
        (["5H", "5C", "5S", "JD"], ["expected 5 cards", "or 4 with a starter"]),
        (["-s", "5D"], ["CARDS"]),
        (["5H", "5C", "5S", "JD", "-s", "5D", "-f", "csv"], ["--format", "csv"]),
    ],
)
def test_score_errors(args: list[str], needles: list[str]) -> None:
    line = assert_one_line_error(invoke(["score", *args]), *needles, code=2)
    assert f"{PROG} score --help" in line


# --- discard: table -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role_args", "who", "net_cells"),
    [
        ([], "both roles", [f"{BEST_DEALER_NET:.3f}*", "-", f"{BEST_PONE_NET:.3f}*", "-"]),
        (["--dealer"], "as dealer", [f"{BEST_DEALER_NET:.3f}*", "-"]),
        (["--pone"], "as pone", [f"{BEST_PONE_NET:.3f}*", "-"]),
    ],
)
def test_discard_table(role_args: list[str], who: str, net_cells: list[str]) -> None:
    args = ["discard", *HAND_ARGS, *role_args, "--opponent", "random", "--no-pegging"]
    out = ok([*args, *WIDE]).stdout
    preamble, heads, rows = table_rows(out)
    header = preamble[0]
    assert header.startswith(HAND)
    assert who in header
    assert preamble[1] == "opponent: random (exact)"
    heels_lines = [line for line in preamble if line.startswith("heels")]
    if role_args == ["--pone"]:
        assert heels_lines == []
    else:
        assert len(heels_lines) == 1 and f"{HEELS:.3f}" in heels_lines[0]
    assert heads[:3] == ["#", "discard", "keep"]
    assert len(rows) == 15
    assert [row[0] for row in rows] == [str(i) for i in range(1, 16)]
    best = rows[0]
    assert best[1] == BEST_DISCARD
    assert set(best[2].split()) == BEST_KEEP
    assert best[3] == f"{BEST_HAND_MEAN:.3f}"
    assert best[4] == f"({BEST_HAND_MIN}-{BEST_HAND_MAX})"
    assert f"{BEST_CRIB:.3f}" in best
    assert [c for c in best if c in net_cells] == net_cells
    all_pairs = {frozenset((a, b)) for i, a in enumerate(HAND_ARGS) for b in HAND_ARGS[i + 1 :]}
    assert {frozenset(row[1].split()) for row in rows} == all_pairs


def test_discard_table_with_need_column() -> None:
    out = ok(["discard", *HAND_ARGS, "--dealer", "--need", "12"]).stdout
    _, heads, rows = table_rows(out)
    assert "P(>=12)" in heads
    best = rows[0]
    assert best[1] == BEST_DISCARD
    assert best[heads.index("P(>=12)")] == "1.000"  # 4-5-5-6 never scores under 12


@pytest.mark.parametrize(
    "cards",
    [
        ["5H 6S 4D JC QH 5C"],
        ["5h,6s,4d,jc,qh,5c"],
        ["5♥", "6♠", "4♦", "J♣", "Q♥", "5♣"],
        ["5H 6S", "4D, JC", "qh", "5c"],
    ],
)
def test_discard_card_spellings(cards: list[str]) -> None:
    assert (
        ok(["discard", *cards, "-f", "csv"]).stdout
        == ok(["discard", *HAND_ARGS, "-f", "csv"]).stdout
    )


# --- discard: csv and json ------------------------------------------------------------


@pytest.mark.parametrize("role", [None, "dealer", "pone"])
@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_discard_machine_formats(role: str | None, fmt: str) -> None:
    args = ["discard", *HAND_ARGS, "--format", fmt, "--opponent", "random", "--no-pegging"]
    if role:
        args.append(f"--{role}")
    out = ok(args).stdout
    frame = read_csv(out) if fmt == "csv" else read_json(out)
    assert list(frame.columns) == columns(role, pegging=False)
    assert set(frame["role"]) == {role or "both"}
    assert set(frame["model"]) == {""}  # no expert model for the random opponent
    assert len(frame) == 15
    assert list(frame["rank"]) == list(range(1, 16))
    assert len(set(frame["discard"])) == 15

    best = frame.iloc[0]
    assert best["discard"] == BEST_DISCARD
    assert set(best["keep"].split()) == BEST_KEEP
    # full precision, not the table's three decimals
    assert best["hand_mean"] == pytest.approx(BEST_HAND_MEAN, rel=1e-15)
    assert (best["hand_min"], best["hand_max"]) == (BEST_HAND_MIN, BEST_HAND_MAX)
    assert best["crib_mean"] == pytest.approx(BEST_CRIB, abs=5e-7)
    assert best["crib_se"] == 0.0
    assert best["dealer_crib_mean"] == best["pone_crib_mean"] == best["crib_mean"]
    assert set(frame["opponent"]) == {"random"}
    assert best["dealer_net"] - best["dealer_heels"] == pytest.approx(20.667809, abs=5e-7)
    assert best["pone_net"] == pytest.approx(BEST_PONE_NET, abs=5e-7)
    np.testing.assert_allclose(frame["dealer_heels"], HEELS, rtol=1e-15)
    np.testing.assert_allclose(
        frame["dealer_net"],
        frame["hand_mean"] + frame["dealer_crib_mean"] + frame["dealer_heels"],
    )
    for side in ("dealer", "pone"):
        net = frame[f"{side}_net"]
        np.testing.assert_allclose(frame[f"{side}_loss"], net.max() - net, atol=1e-12)
        assert (frame[f"{side}_best"] == (frame[f"{side}_loss"] <= 1e-9)).all()
    if role:
        np.testing.assert_allclose(frame["net"], frame[f"{role}_net"])
        np.testing.assert_allclose(frame["loss"], frame[f"{role}_loss"])
    np.testing.assert_allclose(frame["pone_net"], frame["hand_mean"] - frame["pone_crib_mean"])
    assert nonincreasing(frame["pone_net"] if role == "pone" else frame["dealer_net"])

    assert_frames_equal(frame, analyze(HAND, role=role, opponent="random", pegging="none"))  # type: ignore[arg-type]


def test_discard_default_opponent_is_expert() -> None:
    out = ok(["discard", *HAND_ARGS, "--dealer", *WIDE]).stdout
    assert table_rows(out)[0][1].startswith("opponent: expert (exact combination); packaged")
    frame = read_csv(ok(["discard", *HAND_ARGS, "--dealer", "-f", "csv"]).stdout)
    assert_frames_equal(frame, analyze(HAND, role="dealer", opponent="expert"))
    assert set(frame["opponent"]) == {"expert"}
    assert all(m.startswith("packaged expert model") for m in frame["model"])


def test_discard_csv_and_json_agree() -> None:
    from_csv = read_csv(ok(["discard", *HAND_ARGS, "--pone", "-f", "csv"]).stdout)
    from_json = read_json(ok(["discard", *HAND_ARGS, "--pone", "-f", "json"]).stdout)
    assert_frames_equal(from_json, from_csv)


def test_discard_csv_is_plain_csv() -> None:
    rows = list(csv.DictReader(io.StringIO(ok(["discard", *HAND_ARGS, "-f", "csv"]).stdout)))
    assert len(rows) == 15
    assert rows[0]["discard"] == BEST_DISCARD
    assert float(rows[0]["hand_mean"]) == BEST_HAND_MEAN  # shortest round-trip repr


@pytest.mark.parametrize(
    ("cards", "unseen_jacks"),
    [
        ("5H 6S 4D JC QH 5C", 3),
        ("AH 2H 3H 4H 5H 6H", 4),
        ("JC JD JH 5S 5C 5D", 1),
        ("JC JD JH JS 5C 5D", 0),
    ],
)
def test_discard_heels(cards: str, unseen_jacks: int) -> None:
    frame = read_csv(ok(["discard", cards, "--dealer", "-f", "csv"]).stdout)
    np.testing.assert_allclose(frame["dealer_heels"], 2 * unseen_jacks / 46, rtol=1e-15, atol=0)
    # the pone's rows carry no heels of their own: its net has none
    pone = read_csv(ok(["discard", cards, "--pone", "-f", "csv"]).stdout)
    np.testing.assert_allclose(pone["net"], pone["hand_mean"] - pone["crib_mean"], atol=1e-12)
    assert "heels" not in ok(["discard", cards, "--pone"]).stdout


# --- discard: --top, --need, --sort ---------------------------------------------------


@pytest.mark.parametrize("top", [1, 3, 14, 15, 40])
@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_discard_top(top: int, fmt: str) -> None:
    args = ["discard", *HAND_ARGS, "--dealer", "-f", fmt]
    full = ok(args).stdout
    out = ok([*args, "--top", str(top)]).stdout
    n = min(top, 15)
    if fmt == "table":
        full_pre, full_heads, full_rows = table_rows(full)
        pre, heads, rows = table_rows(out)
        assert (pre, heads) == (full_pre, full_heads)
        assert [r[:4] for r in rows] == [r[:4] for r in full_rows[:n]]
    else:
        read = read_csv if fmt == "csv" else read_json
        assert_frames_equal(read(out), read(full).head(n))


@pytest.mark.parametrize("role", [None, "dealer", "pone"])
@pytest.mark.parametrize("need", [0, 12, 29])
def test_discard_need(role: str | None, need: int) -> None:
    args = ["discard", *HAND_ARGS, "--need", str(need), "--sort", "need", "-f", "csv"]
    if role:
        args.append(f"--{role}")
    frame = read_csv(ok(args).stdout)
    assert list(frame.columns) == columns(role, need=True)
    p = frame["p_need"]
    assert ((p >= 0) & (p <= 1)).all()
    assert nonincreasing(p)
    # P(hand >= need) is 1 when even the worst starter reaches it, 0 when the best cannot
    assert (p[frame["hand_min"] >= need] == 1).all()
    assert (p[frame["hand_max"] < need] == 0).all()
    assert ((p > 0) == (frame["hand_max"] >= need)).all()
    assert ((p < 1) == (frame["hand_min"] < need)).all()
    if need == 0:
        assert (p == 1).all()
    if need == 12:  # only 4-5-5-6 never scores under 12
        assert frame.loc[0, "discard"] == BEST_DISCARD
        assert frame.loc[0, "p_need"] == 1.0
    if need == 29:  # a 29 needs four fives; this hand holds two
        assert (p == 0).all()
    assert_frames_equal(frame, analyze(HAND, role=role, need=need, sort="need"))  # type: ignore[arg-type]


def test_discard_need_without_sort_keeps_net_order() -> None:
    plain = read_csv(ok(["discard", *HAND_ARGS, "--pone", "-f", "csv"]).stdout)
    frame = read_csv(ok(["discard", *HAND_ARGS, "--pone", "--need", "16", "-f", "csv"]).stdout)
    assert "p_need" in frame.columns
    assert_frames_equal(frame.drop(columns="p_need"), plain)


@pytest.mark.parametrize("role", [None, "dealer", "pone"])
@pytest.mark.parametrize("sort", ["net", "hand", "crib"])
def test_discard_sort(role: str | None, sort: str) -> None:
    args = ["discard", *HAND_ARGS, "--sort", sort, "-f", "csv"]
    if role:
        args.append(f"--{role}")
    frame = read_csv(ok(args).stdout)
    assert len(frame) == 15 and len(set(frame["discard"])) == 15
    assert list(frame["rank"]) == list(range(1, 16))
    if sort == "net":
        assert nonincreasing(frame["pone_net"] if role == "pone" else frame["dealer_net"])
    elif sort == "hand":
        assert nonincreasing(frame["hand_mean"])
        assert frame.loc[0, "discard"] == BEST_DISCARD  # 734/46 is the best kept hand
    else:
        crib = frame["dealer_crib_mean"] if role is None else frame["crib_mean"]
        assert nonincreasing(-crib if role == "pone" else crib)
    assert_frames_equal(frame, analyze(HAND, role=role, sort=sort))  # type: ignore[arg-type]


# --- discard: sampled opponent --------------------------------------------------------


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_discard_sampled_is_reproducible(role: str) -> None:
    args = ["discard", *HAND_ARGS, f"--{role}", "--opponent", "sampled", "--samples", "100"]
    first = ok([*args, "--seed", "3", "-f", "csv"]).stdout
    again = ok([*args, "--seed", "3", "-f", "csv"]).stdout
    other = ok([*args, "--seed", "4", "-f", "csv"]).stdout
    assert first == again
    assert first != other
    frame, other_frame = read_csv(first), read_csv(other)
    assert (frame["crib_se"] > 0).all()
    assert frame["crib_mean"].notna().all()
    by_discard = frame.set_index("discard")
    other_by_discard = other_frame.set_index("discard").loc[by_discard.index]
    assert (by_discard["crib_mean"] != other_by_discard["crib_mean"]).any()
    # the kept hand does not depend on the opponent model
    exact = read_csv(ok(["discard", *HAND_ARGS, f"--{role}", "-f", "csv"]).stdout)
    exact = exact.set_index("discard").loc[by_discard.index]
    np.testing.assert_array_equal(by_discard["hand_mean"], exact["hand_mean"])
    np.testing.assert_array_equal(by_discard["dealer_heels"], exact["dealer_heels"])
    assert_frames_equal(
        frame,
        analyze(HAND, role=role, opponent="sampled", samples=100, seed=3),  # type: ignore[arg-type]
    )


def test_discard_sampled_table_header() -> None:
    args = ["discard", *HAND_ARGS, "--pone", "--opponent", "sampled", "--samples", "50"]
    out = ok([*args, "--seed", "7", *WIDE]).stdout
    preamble, heads, rows = table_rows(out)
    assert "sampled" in preamble[1] and "50" in preamble[1] and "seed 7" in preamble[1]
    assert len(rows) == 15
    assert all("±" in row[heads.index("their crib")] for row in rows)
    assert out == ok([*args, "--seed", "7", *WIDE]).stdout


def test_discard_sampled_both_roles() -> None:
    args = ["discard", *HAND_ARGS, "--opponent", "sampled", "--samples", "60", "--seed", "1"]
    frame = read_json(ok([*args, "-f", "json"]).stdout)
    assert list(frame.columns) == BASE_COLUMNS
    assert (frame["dealer_crib_se"].astype(float) > 0).all()
    assert (frame["pone_crib_se"].astype(float) > 0).all()
    assert nonincreasing(frame["dealer_total"])
    assert_frames_equal(frame, analyze(HAND, opponent="sampled", samples=60, seed=1))


# --- discard: --output ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "name"), [("table", "out.txt"), ("csv", "out.csv"), ("json", "o.json")]
)
@pytest.mark.parametrize("flag", ["--output", "-o"])
def test_discard_output_file(tmp_path: Path, fmt: str, name: str, flag: str) -> None:
    args = ["discard", *HAND_ARGS, "--pone", "--top", "5", "-f", fmt]
    target = tmp_path / name
    result = ok([*args, flag, str(target)])
    assert result.stdout == ""
    assert target.read_text(encoding="utf-8") == ok(args).stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == [name]  # no temp file left behind


def test_discard_output_replaces_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    target.write_text("old contents\n", encoding="utf-8")
    ok(["discard", *HAND_ARGS, "-f", "csv", "-o", str(target)])
    assert_frames_equal(read_csv(target.read_text(encoding="utf-8")), analyze(HAND))


def test_discard_output_under_a_file_fails_cleanly(tmp_path: Path) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("x", encoding="utf-8")
    target = blocker / "sub" / "out.csv"
    result = invoke(["discard", *HAND_ARGS, "-f", "csv", "-o", str(target)])
    assert_one_line_error(result, str(target), code=1)
    assert blocker.read_text(encoding="utf-8") == "x"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["afile"]


def test_discard_output_to_a_directory_is_a_usage_error(tmp_path: Path) -> None:
    result = invoke(["discard", *HAND_ARGS, "-o", str(tmp_path)])
    assert_one_line_error(result, "--output", code=2)


# --- discard: usage errors ------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "needles"),
    [
        (HAND_ARGS[:5], ["expected 6 cards", "5"]),
        ([*HAND_ARGS, "KD"], ["expected 6 cards", "7"]),
        ([], ["expected 6 cards", "0"]),
        ([*HAND_ARGS[:5], "5h"], ["duplicate", "5H"]),
        (["5H 6S 4D JC QH 5H"], ["duplicate", "5H"]),
        ([*HAND_ARGS[:5], "1C"], ["rank", "1C"]),
        ([*HAND_ARGS[:5], "5Z"], ["suit", "5Z"]),
        ([*HAND_ARGS[:5], "5"], ["'5'"]),
        ([*HAND_ARGS, "--samples", "0"], ["--samples"]),
        ([*HAND_ARGS, "--samples", "-5"], ["--samples"]),
        ([*HAND_ARGS, "--dealer", "--pone"], ["--dealer", "--pone"]),
        ([*HAND_ARGS, "--hands-file", "-"], ["--hands-file"]),
        ([*HAND_ARGS, "--need", "30"], ["--need", "30"]),
        ([*HAND_ARGS, "--need", "-1"], ["--need"]),
        ([*HAND_ARGS, "--sort", "need"], ["--sort need", "--need"]),
        ([*HAND_ARGS, "--sort", "best"], ["--sort", "best"]),
        ([*HAND_ARGS, "--top", "0"], ["--top"]),
        ([*HAND_ARGS, "--opponent", "smart"], ["--opponent", "smart"]),
        ([*HAND_ARGS, "--format", "xml"], ["--format", "xml"]),
        ([*HAND_ARGS, "--seed", "x"], ["--seed"]),
        ([*HAND_ARGS, "--bogus"], ["--bogus"]),
    ],
)
def test_discard_usage_errors(args: list[str], needles: list[str]) -> None:
    line = assert_one_line_error(invoke(["discard", *args]), *needles, code=2)
    assert f"{PROG} discard --help" in line


def test_unknown_command() -> None:
    assert_one_line_error(invoke(["shuffle"]), "shuffle", code=2)


# --- discard: --hands-file ------------------------------------------------------------

HANDS_TEXT = """\
# three hands, with comments and blank lines
5h 6s 4d jc qh 5c

AH 2H 3H 4H 5H 6H   # a trailing comment
   # an indented comment line
7C,8C,9C,TC,JC,QC
"""
HANDS = ["5H 6S 4D JC QH 5C", "AH 2H 3H 4H 5H 6H", "7C 8C 9C TC JC QC"]


def expected_many(hands: list[str], **kwargs: object) -> pd.DataFrame:
    frames = []
    for hand in hands:
        frame = analyze(hand, **kwargs)  # type: ignore[arg-type]
        frame.insert(0, "hand", hand)
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)


@pytest.mark.parametrize("fmt", ["csv", "json"])
@pytest.mark.parametrize("role", [None, "pone"])
def test_hands_file(tmp_path: Path, fmt: str, role: str | None) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(HANDS_TEXT, encoding="utf-8")
    args = ["discard", "--hands-file", str(path), "-f", fmt]
    if role:
        args.append(f"--{role}")
    out = ok(args).stdout
    frame = read_csv(out) if fmt == "csv" else read_json(out)
    assert list(frame.columns) == ["hand", *columns(role)]
    assert len(frame) == 15 * len(HANDS)
    blocks = [frame.iloc[i * 15 : (i + 1) * 15] for i in range(len(HANDS))]
    for hand, block in zip(HANDS, blocks, strict=True):
        assert set(block["hand"]) == {hand}
        assert list(block["rank"]) == list(range(1, 16))
    assert frame.loc[0, "discard"] == BEST_DISCARD
    assert frame.loc[0, "hand_mean"] == pytest.approx(BEST_HAND_MEAN, rel=1e-15)
    assert (frame.loc[15:29, "dealer_heels"] == 2 * 4 / 46).all()  # no jack in the hearts hand
    assert_frames_equal(frame, expected_many(HANDS, role=role))


def test_hands_file_table(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(HANDS_TEXT, encoding="utf-8")
    out = ok(["discard", "--hands-file", str(path), "--dealer", "--top", "2", *WIDE]).stdout
    headers = [line for line in out.splitlines() if ", as dealer, ranked by" in line]
    assert [h.split(", as dealer")[0] for h in headers] == HANDS
    for hand in HANDS:
        single = ok(["discard", hand, "--dealer", "--top", "2", *WIDE]).stdout
        assert single in out


def test_hands_file_top_and_need(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(HANDS_TEXT, encoding="utf-8")
    args = ["discard", "--hands-file", str(path), "--need", "12", "--sort", "need", "--top", "4"]
    frame = read_csv(ok([*args, "-f", "csv"]).stdout)
    assert list(frame.columns) == ["hand", *columns(None, need=True)]
    assert len(frame) == 4 * len(HANDS)
    assert list(frame["hand"]) == [h for h in HANDS for _ in range(4)]
    assert list(frame["rank"]) == [1, 2, 3, 4] * len(HANDS)


@pytest.mark.parametrize("fmt", ["table", "csv", "json"])
def test_hands_file_from_stdin(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(HANDS_TEXT, encoding="utf-8")
    from_file = ok(["discard", "--hands-file", str(path), "-f", fmt, "--top", "3"]).stdout
    from_stdin = ok(["discard", "--hands-file", "-", "-f", fmt, "--top", "3"], input=HANDS_TEXT)
    assert from_stdin.stdout == from_file
    assert from_file


def test_hands_file_bad_line_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(
        "5H 6S 4D JC QH 5C\n# comment\n\nAH 2H 3H 4H 5H XH\n7C 8C 9C TC JC QC\n",
        encoding="utf-8",
    )
    result = invoke(["discard", "--hands-file", str(path), "-f", "csv"])
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1
    assert "line 4" in errors[0]
    assert "XH" in errors[0]
    assert "Traceback" not in result.stderr
    frame = read_csv(result.stdout)
    good = ["5H 6S 4D JC QH 5C", "7C 8C 9C TC JC QC"]
    assert list(dict.fromkeys(frame["hand"])) == good
    assert_frames_equal(frame, expected_many(good))


@pytest.mark.parametrize(
    ("bad", "needles"),
    [
        ("5H 6S 4D JC QH", ["expected 6 cards", "5"]),
        ("5H 6S 4D JC QH 5C 9D", ["expected 6 cards", "7"]),
        ("5H 6S 4D JC QH 5h", ["duplicate", "5H"]),
        ("5H 6S 4D JC QH 1C", ["1C"]),
    ],
)
def test_hands_file_bad_lines_from_stdin(bad: str, needles: list[str]) -> None:
    text = f"{bad}\n\n# note\n7C 8C 9C TC JC QC\n{bad}  # again\n"
    args = ["discard", "--hands-file", "-", "-f", "json", "--top", "1", "--dealer"]
    result = invoke(args, input=text)
    assert result.exit_code == 1
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert [("line 1" in e, "line 5" in e) for e in errors] == [(True, False), (False, True)]
    for error in errors:
        for needle in needles:
            assert needle in error
    frame = read_json(result.stdout)
    assert list(frame["hand"]) == ["7C 8C 9C TC JC QC"]


def test_hands_file_errors_with_output_file(tmp_path: Path) -> None:
    target = tmp_path / "out.csv"
    text = "zz\n5H 6S 4D JC QH 5C\n"
    result = invoke(["discard", "--hands-file", "-", "-f", "csv", "-o", str(target)], input=text)
    assert result.exit_code == 1
    assert result.stdout == ""
    assert "line 1" in result.stderr
    frame = read_csv(target.read_text(encoding="utf-8"))
    assert set(frame["hand"]) == {HAND}
    assert len(frame) == 15


@pytest.mark.parametrize("fmt", ["csv", "json", "table"])
@pytest.mark.parametrize("text", ["# nothing here\n\n   \n", ""])
def test_hands_file_with_no_hands_says_so(tmp_path: Path, fmt: str, text: str) -> None:
    path = tmp_path / "hands.txt"
    path.write_text(text, encoding="utf-8")
    result = invoke(["discard", "--hands-file", str(path), "-f", fmt])
    assert_one_line_error(result, "--hands-file", "has no hands", code=2)


def test_hands_file_with_a_byte_order_mark(tmp_path: Path) -> None:
    path = tmp_path / "hands.txt"
    path.write_bytes("\ufeff5H 6S 4D JC QH 5C\n".encode())
    frame = read_csv(ok(["discard", "--hands-file", str(path), "-f", "csv"]).stdout)
    assert set(frame["hand"]) == {HAND}


def test_hands_file_all_lines_bad() -> None:
    result = invoke(["discard", "--hands-file", "-", "-f", "json"], input="zz\nAH\n")
    assert result.exit_code == 1
    assert json.loads(result.stdout) == []
    errors = [line for line in result.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 2


def test_hands_file_missing(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-file.txt"
    result = invoke(["discard", "--hands-file", str(missing)])
    assert_one_line_error(result, "--hands-file", str(missing), code=2)


def test_hands_file_is_a_directory(tmp_path: Path) -> None:
    result = invoke(["discard", "--hands-file", str(tmp_path)])
    assert_one_line_error(result, "--hands-file", code=2)


def test_hands_file_not_utf8(tmp_path: Path) -> None:
    """Bytes that are not UTF-8 are an unreadable file: one line, exit 2, no traceback."""
    path = tmp_path / "hands.txt"
    path.write_bytes(b"5H 6S 4D JC QH 5C\n\xff\xfe\x00 junk\n")
    result = invoke(["discard", "--hands-file", str(path), "-f", "csv"])
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(errors) == 1
    assert errors[0].startswith("Error: ")
    assert str(path) in errors[0]


# --- discard: each role's answer at a glance -------------------------------------------------


def test_near_tie_is_flagged() -> None:
    """7-8-9 as pone (expert opponent): KS 2C and KS 3D are 0.004 points apart."""
    hand = ["7C", "8D", "9H", "KS", "2C", "3D", "--no-pegging"]
    frame = read_csv(ok(["discard", *hand, "--pone", "-f", "csv"]).stdout)
    top = frame.head(2)
    assert set(top["discard"]) == {"KS 2C", "KS 3D"}
    assert 0 < top["loss"].iloc[1] < 0.01
    assert top["near_tie"].tolist() == [True, True]
    assert not frame["near_tie"].iloc[2:].any()
    text = ok(["discard", *hand, "--pone"]).stdout
    assert "~ within 0.01 points of the best: a near tie" in text


def test_no_role_top_one_shows_each_roles_best() -> None:
    hand = ["7C", "8D", "9H", "KS", "2C", "3D"]
    frame = read_csv(ok(["discard", *hand, "--top", "1", "-f", "csv", "--no-pegging"]).stdout)
    full = analyze(" ".join(hand), pegging="none")
    dealer_best = full.loc[full["dealer_net"].idxmax(), "discard"]
    pone_best = full.loc[full["pone_net"].idxmax(), "discard"]
    assert dealer_best != pone_best  # the two roles throw differently here
    assert list(frame["discard"]) == [dealer_best, pone_best]
    assert frame["dealer_best"].tolist() == [True, False]
    assert frame["pone_best"].tolist() == [False, True]
    assert frame["rank"].iloc[0] == 1 and frame["rank"].iloc[1] > 1  # ranks as in the full list


@pytest.mark.parametrize(
    ("args", "key"),
    [
        (["--dealer", "--no-pegging"], "ranked by dealer net = hand + crib + heels"),
        (["--pone", "--no-pegging"], "ranked by pone net = hand - crib"),
        (["--pone"], "ranked by pone total = net + peg, pone net = hand - crib"),
        (["--pone", "--sort", "net"], "ranked by pone net = hand - crib"),
        (["--pone", "--sort", "hand"], "ranked by hand mean (ties by pone total = net + peg)"),
        (["--pone", "--sort", "crib"], "ranked by crib, lowest first"),
        (["--need", "12", "--sort", "need"], "ranked by P(hand >= 12), then dealer total"),
    ],
)
def test_header_says_the_ranking_key(args: list[str], key: str) -> None:
    assert key in table_rows(ok(["discard", *HAND_ARGS, *args, "--verbose"]).stdout)[0][0]


@pytest.mark.parametrize("fmt", ["csv", "json"])
def test_distribution(fmt: str) -> None:
    from tests.naive import naive_hand_scores

    out = ok(["discard", *HAND_ARGS, "--pone", "--distribution", "-f", fmt]).stdout
    frame = read_csv(out) if fmt == "csv" else read_json(out)
    assert list(frame.columns) == [
        "rank", "discard", "keep", "points", "starters", "probability", "p_at_least"
    ]  # fmt: skip
    assert len(frame) == 15 * 30
    order = list(dict.fromkeys(frame["discard"]))
    assert order == list(analyze(HAND, role="pone")["discard"])
    hand = parse_cards(HAND)
    for discard, block in frame.groupby("discard", sort=False):
        kept = parse_cards(block["keep"].iloc[0])
        scores = naive_hand_scores(hand, kept)
        assert block["starters"].tolist() == [scores.count(p) for p in range(30)], discard
        assert block["p_at_least"].tolist() == pytest.approx(
            [sum(s >= p for s in scores) / 46 for p in range(30)]
        )
    text = ok(["discard", *HAND_ARGS, "--pone", "--distribution"]).stdout
    assert "P(hand >= N):" in text


#: commands that print text (one of each kind): none of them may import pandas
TEXT_COMMANDS = [
    ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--dealer"],
    ["discard", "5H", "6S", "4D", "JC", "QH", "--game", "three", "--seat", "dealer"],
    ["auction", "5H", "6S", "4D", "JC", "QH", "5C", "--opponent", "random"],
    ["play", "7C", "8D", "2C", "--pone", "--starter", "5H", "--played", "3D 10S"],
    ["play", "5C", "9D", "KS", "2H", "--dealer", "-s", "4D", "--played", "7H", "--score",
     "119-119"],
    ["play", "5C", "9D", "KS", "2H", "--game", "three", "--seat", "dealer", "--starter", "4D",
     "--played", "7H 3S", "--samples", "50"],
    ["peg", "10H", "5S", "7C", "6D", "go", "2H", "6C", "4S", "4D"],
    ["games"],
    ["odds", "100", "110", "--dealer"],
    ["score", "5H", "5C", "5S", "JD", "--starter", "5D"],
]  # fmt: skip


@pytest.mark.parametrize("args", TEXT_COMMANDS, ids=lambda a: " ".join(a[:3]))
def test_text_output_does_not_import_pandas(args: list[str]) -> None:
    """A command that prints text renders the API's rows (numpy columns): pandas and
    pyarrow are for the DataFrames of the Python API and for table files."""
    code = (
        "import sys\n"
        "from crib_analyze.cli import cli\n"
        "try:\n"
        f"    cli({args!r}, prog_name='x')\n"
        "except SystemExit as e:\n"
        "    assert not e.code, e.code\n"
        "print('LOADED', sorted(m for m in ('pandas', 'pyarrow') if m in sys.modules))\n"
    )
    stdout = run_python(code, timeout=300)
    assert stdout.splitlines()[-1] == "LOADED []"


def test_one_vocabulary_for_roles_scores_and_json() -> None:
    """--role is --dealer or --pone on every command with a role (and the quiz takes
    --dealer/--pone); a score is MINE THEIRS, MINE-THEIRS or MINE,THEIRS everywhere;
    --json is --format json."""
    runner = CliRunner()

    def out(*args: str) -> str:
        result = runner.invoke(cli, list(args))
        assert result.exit_code == 0, (args, result.output)
        return result.stdout

    hand = ["5H", "6S", "4D", "JC", "QH", "5C", "--opponent", "random", "--no-pegging"]
    assert out("discard", *hand, "--role", "pone") == out("discard", *hand, "--pone")
    assert out("odds", "95", "100", "--role", "dealer") == out("odds", "95-100", "--dealer")
    assert out("odds", "95,100", "--dealer") == out("odds", "95 100", "--dealer")
    assert out("odds", "95", "100", "--json") == out("odds", "95", "100", "-f", "json")
    spaced = out("discard", *hand, "--dealer", "--score", "110 115", "--top", "2")
    assert spaced == out("discard", *hand, "--dealer", "--score", "110-115", "--top", "2")
    quiz = runner.invoke(cli, ["quiz", "--pone", "--rounds", "1", "--seed", "3"], input="q\n")
    assert quiz.exit_code == 0 and "you are the pone" in quiz.output
    bad = runner.invoke(cli, ["discard", *hand, "--role", "dealer", "--pone"])
    assert bad.exit_code == 2 and "--role dealer contradicts --pone" in bad.stderr
    assert out("discard", *hand, "--dealer", "--json") == out(
        "discard", *hand, "--dealer", "-f", "json"
    )
    # every command: where JSON is a format, --json says it; where --role is, so are
    # --dealer and --pone as flags (peg's hands are --pone-hand and --dealer-hand)
    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        group = cli.get_command(ctx, name)
        assert group is not None
        commands = subcommands(group).values() if isinstance(group, click.Group) else [group]
        for command in commands:
            opts = {o: p for p in command.params for o in p.opts if not getattr(p, "hidden", False)}
            fmt = opts.get("--format")
            if fmt is not None and "json" in getattr(fmt.type, "choices", ()):
                assert "--json" in opts, command.name
            if "--role" in opts:
                assert all(getattr(opts.get(f), "is_flag", False) for f in ("--dealer", "--pone"))
            for flag in ("--dealer", "--pone"):
                assert flag not in opts or getattr(opts[flag], "is_flag", False), command.name
