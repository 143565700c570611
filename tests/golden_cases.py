"""The fixed set of command lines whose outputs must never change by accident.

Each case is a name, the arguments of one ``crib-analyze`` command, and optionally the
text it reads on standard input and the files it writes (compared as text). The
expected outputs in ``tests/golden/`` were captured from the release before the
restructure (commit 1aa37da) by ``python tests/golden_cases.py --capture``; they are
never regenerated from the code under test unless a change of output is intended,
reviewed and recorded in the changelog.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

GOLDEN = Path(__file__).with_name("golden")
HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]
HAND2 = ["7C", "8D", "9H", "KS", "2C", "3D"]
HAND3 = ["AC", "2D", "3H", "5S", "5C", "JD"]


@dataclass(frozen=True)
class Case:
    name: str
    args: list[str]
    stdin: str | None = None
    files: list[str] = field(default_factory=list)  # written under the run's folder
    hands: str | None = None  # a hands file's text, written as hands.txt


CASES = [
    # score
    Case("score_table", ["score", "4H", "4C", "5S", "5D", "6C"]),
    Case("score_json", ["score", "5H", "5C", "5S", "JD", "--starter", "5D", "-f", "json"]),
    Case("score_crib", ["score", "2H", "3H", "7H", "9H", "KH", "--crib"]),
    Case("score_hand_flush", ["score", "2H", "3H", "7H", "9H", "KH"]),
    Case("score_nineteen", ["score", "2H", "4C", "6S", "8D", "TC"]),
    # discard
    Case("discard_dealer", ["discard", *HAND, "--dealer"]),
    Case("discard_both", ["discard", *HAND]),
    Case("discard_pone_csv", ["discard", *HAND2, "--pone", "-f", "csv"]),
    Case("discard_both_json_top", ["discard", *HAND2, "-f", "json", "--top", "3"]),
    Case("discard_random_csv", ["discard", *HAND, "--pone", "--opponent", "random", "-f", "csv"]),
    Case(
        "discard_sampled_csv",
        [
            "discard",
            *HAND3,
            "--dealer",
            "--opponent",
            "sampled",
            "--samples",
            "300",
            "--seed",
            "3",
            "-f",
            "csv",
        ],
    ),
    Case(
        "discard_sampled_expert_json",
        [
            "discard",
            *HAND3,
            "--pone",
            "--opponent",
            "sampled",
            "--policy",
            "expert",
            "--samples",
            "200",
            "-f",
            "json",
        ],
    ),
    Case(
        "discard_sampled_table",
        ["discard", *HAND3, "--opponent", "sampled", "--samples", "100", "--wide", "--verbose"],
    ),
    Case(
        "discard_need",
        ["discard", *HAND, "--dealer", "--need", "12", "--sort", "need", "--wide", "--verbose"],
    ),
    Case(
        "discard_sort_hand",
        ["discard", *HAND2, "--dealer", "--sort", "hand", "--wide", "--verbose"],
    ),
    Case("discard_sort_crib", ["discard", *HAND2, "--pone", "--sort", "crib", "-f", "csv"]),
    Case("discard_distribution", ["discard", *HAND, "--pone", "--distribution"]),
    Case("discard_distribution_csv", ["discard", *HAND, "--distribution", "-f", "csv"]),
    Case(
        "discard_no_pegging", ["discard", *HAND, "--no-pegging", "--dealer", "--wide", "--verbose"]
    ),
    Case("discard_no_pegging_csv", ["discard", *HAND3, "--pegging", "none", "-f", "csv"]),
    Case(
        "discard_score_csv",
        [
            "discard",
            *HAND,
            "--dealer",
            "--score",
            "110-115",
            "--position-samples",
            "300",
            "-f",
            "csv",
        ],
    ),
    Case(
        "discard_score_match",
        [
            "discard",
            *HAND,
            "--pone",
            "--score",
            "100-80",
            "--goal",
            "match",
            "--scoring",
            "free",
            "--position-samples",
            "300",
            "--wide",
            "--verbose",
        ],
    ),
    Case(
        "discard_hands_file_csv",
        ["discard", "--hands-file", "hands.txt", "-f", "csv", "--pone", "--top", "2"],
        hands="# two hands\n5H 6S 4D JC QH 5C\n\n7c 8d 9h ks 2c 3d  # the near tie\n",
    ),
    Case(
        "discard_hands_file_table",
        ["discard", "--hands-file", "hands.txt", "--dealer", "--top", "2", "--wide", "--verbose"],
        hands="AC 2D 3H 5S 5C JD\n7C 8D 9H KS 2C 3D\n",
    ),
    # peg
    Case("peg_table", ["peg", "10H", "5S", "7C", "6D", "go", "2H", "6C", "4S", "4D"]),
    Case("peg_csv", ["peg", "10H", "5S", "7C", "6D", "2H", "6C", "4S", "4D", "-f", "csv"]),
    Case(
        "peg_checked_json",
        [
            "peg",
            "10H",
            "5S",
            "7C",
            "6D",
            "2H",
            "6C",
            "4S",
            "4D",
            "--pone-hand",
            "10H 7C 6C 4D",
            "--dealer-hand",
            "5S 6D 2H 4S",
            "-f",
            "json",
        ],
    ),
    Case("peg_partial", ["peg", "5H", "5C", "5S"]),
    # play
    Case(
        "play_pone",
        ["play", "7C", "8D", "2C", "3D", "--pone", "--starter", "5H", "--discards", "9H KS"],
    ),
    Case(
        "play_dealer_json",
        [
            "play",
            "6D",
            "2H",
            "4S",
            "--dealer",
            "--played",
            "10H 5S 7C",
            "--samples",
            "500",
            "-f",
            "json",
        ],
    ),
    Case(
        "play_greedy_csv",
        [
            "play",
            "7C",
            "8D",
            "2C",
            "--pone",
            "--starter",
            "5H",
            "--played",
            "3D 10S",
            "--policy",
            "greedy",
            "--samples",
            "300",
            "-f",
            "csv",
        ],
    ),
    Case(
        "play_search",
        [
            "play",
            "QC",
            "5C",
            "KC",
            "5D",
            "--pone",
            "--policy",
            "search",
            "--samples",
            "60",
            "--seed",
            "2",
        ],
    ),
    # odds
    Case("odds_dealer", ["odds", "95", "100", "--dealer"]),
    Case("odds_both", ["odds", "0", "0"]),
    Case("odds_json_free", ["odds", "110", "115", "--scoring", "free", "-f", "json"]),
    Case(
        "odds_csv_pone",
        ["odds", "120", "119", "--pone", "-f", "csv", "--scoring", "tournament-variant"],
    ),
    # crib-table
    Case("crib_table_pone", ["crib-table", "--role", "pone"]),
    Case("crib_table_dealer_random_csv", ["crib-table", "--opponent", "random", "-f", "csv"]),
    # table
    Case("table_random_csv", ["table", "--limit", "40", "-o", "t.csv", "-q"], files=["t.csv"]),
    Case(
        "table_expert_csv",
        ["table", "--limit", "25", "--opponent", "expert", "-o", "e.csv", "-q"],
        files=["e.csv"],
    ),
    # simulate (the run time is taken out)
    Case("simulate_json", ["simulate", "--games", "40", "--seed", "5", "-q", "-f", "json"]),
    Case("simulate_table", ["simulate", "--games", "20", "--players", "points,expert", "-q"]),
    # quiz (answers on standard input)
    Case(
        "quiz_pone",
        ["quiz", "--rounds", "3", "--seed", "7", "--role", "pone", "--opponent", "random"],
        stdin="zz\n?\nq\n",
    ),
    Case("quiz_expert", ["quiz", "--rounds", "2", "--seed", "11"], stdin="AC 2C\n\n"),
]

_SECONDS = re.compile(r'("seconds": )[0-9.]+|(, )[0-9.]+( s;)')


def normalise(text: str) -> str:
    """Remove what legitimately changes between runs: elapsed seconds, and the files
    --verbose says were read and checked (their paths are the machine's, and a file read
    once is not read again in the same process). Those lines are tested in
    tests/test_files_in.py."""
    text = "".join(
        line for line in text.splitlines(keepends=True) if not line.startswith("checked ")
    )
    return _SECONDS.sub(lambda m: (m.group(1) or m.group(2)) + "T" + (m.group(3) or ""), text)


def run_case(case: Case, folder: Path) -> dict[str, str]:
    """Run one case in ``folder`` (the current directory for its relative paths) and
    return its outputs: 'stdout', 'exit', and each file it writes."""
    import os

    from click.testing import CliRunner

    from crib_analyze.cli import cli

    if case.hands is not None:
        (folder / "hands.txt").write_text(case.hands, encoding="utf-8")
    here = os.getcwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(cli, case.args, input=case.stdin, catch_exceptions=False)
    finally:
        os.chdir(here)
    out = {
        "stdout": normalise(result.stdout),
        "stderr": normalise(result.stderr),
        "exit": str(result.exit_code),
    }
    for name in case.files:
        out[name] = (folder / name).read_text(encoding="utf-8")
    return out


def golden_text(outputs: dict[str, str]) -> str:
    """One text file per case: each output under a header line."""
    return "".join(
        f"=== {key}\n{value}" + ("" if value.endswith("\n") else "\n")
        for key, value in outputs.items()
    )


if __name__ == "__main__":
    import sys
    import tempfile

    if sys.argv[1:] != ["--capture"]:
        sys.exit("usage: python tests/golden_cases.py --capture  (only at a reference release)")
    GOLDEN.mkdir(exist_ok=True)
    for case in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            text = golden_text(run_case(case, Path(tmp)))
        (GOLDEN / f"{case.name}.txt").write_text(text, encoding="utf-8")
        print(case.name, len(text))
