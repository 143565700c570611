"""Every rule the command line enforces holds from Python too, with the same words.

For each rule, the API call must raise a one-line ``UsageError`` and the command line
must exit 2 with the same message, its backticked parameters shown as options. The
command line checks nothing of its own but the shape of its arguments (two flags that
exclude each other, cards or a file, a plot with one hand).

Mutations checked: removing the policy check from ``check_discard_options``, the
model check from ``generate_table``, the goal-without-score check, or the quiz's
model check: each fails here (the CLI then exits 0, or the API accepts the call).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.errors import UsageError

HAND = "5H 6S 4D JC QH 5C"
H = HAND.split()

RULES: list[tuple[str, Callable[[], Any], list[str], str]] = [
    (
        "a policy without the sampled opponent",
        lambda: ca.analyze(HAND, policy="expert"),
        ["discard", *H, "--policy", "expert"],
        "--policy applies to --opponent sampled only",
    ),
    (
        "a model without the expert",
        lambda: ca.analyze(HAND, opponent="random", model="m.npz"),
        ["discard", *H, "--opponent", "random", "--model", "m.npz"],
        "--model applies to --opponent expert",
    ),
    (
        "a goal without a score",
        lambda: ca.analyze(HAND, role="dealer", goal="match"),
        ["discard", *H, "--dealer", "--goal", "match"],
        "--goal, --scoring and --position-samples go with --score",
    ),
    (
        "a score without a role",
        lambda: ca.analyze(HAND, score="110-115"),
        ["discard", *H, "--score", "110-115"],
        "--score needs --dealer or --pone",
    ),
    (
        "sort by need without need",
        lambda: ca.analyze(HAND, role="pone", sort="need"),
        ["discard", *H, "--pone", "--sort", "need"],
        "--sort need requires --need",
    ),
    (
        "a model for the random table",
        lambda: ca.generate_table(model="m.npz", limit=1),
        ["table", "--model", "m.npz", "--limit", "1"],
        "--model applies to --opponent expert",
    ),
    (
        "a lookup in a sampled table",
        lambda: ca.lookup(HAND, opponent="sampled"),
        ["discard", *H, "--from-table", "--opponent", "sampled"],
        "tables are made with the random or the expert opponent",
    ),
    (
        "a model for the random quiz",
        lambda: ca.start_quiz(opponent="random", model="m.npz"),
        ["quiz", "--opponent", "random", "--model", "m.npz"],
        "--model applies to --opponent expert",
    ),
    (
        "an odd number of games",
        lambda: ca.simulate(3),
        ["simulate", "--games", "3"],
        "--games must be even",
    ),
    (
        "a pegging table for the classic model",
        lambda: ca.build_model(pegging=False, pegging_table="p.npz"),
        ["build-model", "--no-pegging", "--pegging-table", "p.npz"],
        "--pegging-table applies to the pegging-aware model only",
    ),
    (
        "fewer deals per cell than the pilot",
        lambda: ca.build_pegging(pilot=100, max_deals=50),
        ["build-pegging", "--pilot", "100", "--max-deals", "50"],
        "--max-deals must be at least --pilot",
    ),
    (
        "an odd number of board deals",
        lambda: ca.build_board(deals=4001),
        ["build-board", "--deals", "4001"],
        "--deals must be even",
    ),
    (
        "one hand of the play's two",
        lambda: ca.score_play("10H 5S", pone_hand="10H 7C 6C 4D"),
        ["peg", "10H", "5S", "--pone-hand", "10H 7C 6C 4D"],
        "give both hands",
    ),
]


def _plain(message: str) -> str:
    """The API's wording of a CLI message: options back to parameter names."""
    message = message.replace("--dealer or --pone", "role")  # the role is two flags
    return re.sub(r"--([a-z-]+)", lambda m: m.group(1).replace("-", "_"), message)


@pytest.mark.parametrize(
    ("call", "args", "message"), [r[1:] for r in RULES], ids=[r[0] for r in RULES]
)
def test_the_rule_holds_from_python_and_the_command_line(
    call: Callable[[], Any], args: list[str], message: str
) -> None:
    with pytest.raises(UsageError) as raised:
        call()
    text = str(raised.value)
    assert "\n" not in text
    assert _plain(message) in _plain(text.replace("`", "")), text
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr, result.stderr
