"""What the long jobs cost: the recorded figures (data/costs.json), the warning before
a run expected to take over a minute, the 'Cost' paragraph of --help, and the timings
the docs quote (tools/docs_costs.py).

Mutations checked: the warning's bound turned the wrong way (every short run warns);
the position player's figure left out of simulate's estimate; a shard's share of the
table ignored; a quoted timing edited by hand in a guide; the 'Cost' paragraph dropped
from one command's help. Each fails here.
"""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from crib_analyze import costs
from crib_analyze.cli import cli
from crib_analyze.settings import LONG_RUN_SECONDS, SAMPLES, packaged
from tools.docs_costs import MARKER, PAGES, figure_text, rewritten, unmarked

RUNNER = CliRunner()
LONG_JOBS = [
    "simulate", "table", "build-model", "build-pegging", "build-leads", "build-board", "discard"
]  # fmt: skip


def test_every_figure_says_what_and_where_from() -> None:
    data = json.loads(packaged(costs.COSTS_FILE).read_text())
    assert data["machine"]
    for name, f in data["figures"].items():
        assert f["seconds"] > 0 and f["per"] in ("game", "deal", "run", "hand"), name
        assert f["what"] and f["source"], name


@pytest.mark.parametrize(
    ("seconds", "said"),
    [(0.2, "under a second"), (4, "about 4 seconds"), (42, "about 42 seconds"),
     (89, "about 89 seconds"), (95, "about 2 minutes"), (40 * 60, "about 40 minutes"),
     (3 * 3600, "about 3.0 hours"), (12 * 3600, "about 12 hours")],
)  # fmt: skip
def test_durations_as_a_person_says_them(seconds: float, said: str) -> None:
    assert costs.duration_text(seconds) == said


def test_estimates_scale_with_the_work() -> None:
    solver = costs.cost("simulate-solver").seconds
    assert costs.simulate_seconds(1000, ("expert", "expert"), "solver") == pytest.approx(
        1000 * solver
    )
    lookahead = costs.simulate_seconds(1000, ("expert", "expert"), "lookahead")
    assert lookahead < costs.simulate_seconds(1000, ("expert", "expert"), "solver")
    position = costs.simulate_seconds(1000, ("position", "expert"), "lookahead")
    assert position == pytest.approx(1000 * costs.cost("simulate-position").seconds)
    assert costs.pegging_seconds(500, "solver") == pytest.approx(
        costs.cost("build-pegging").seconds * 500 * 3640
    )
    assert costs.pegging_seconds(500, "lookahead") < costs.pegging_seconds(500, "solver")


def _warning(args: list[str]) -> list[str]:
    """The lines a command says on standard error before it starts (stopped there: the
    job itself is not run)."""
    from crib_analyze.cli import output as options

    said: list[str] = []

    class Stop(Exception):
        pass

    def note(message: str) -> None:
        said.append(message)
        raise Stop

    original = options.note
    options.note = note
    try:
        RUNNER.invoke(cli, args, catch_exceptions=True)
    finally:
        options.note = original
    return said


def test_a_long_run_is_announced_first_and_a_short_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(The jobs never run: each stops at its announcement, or where the games begin.)"""
    from crib_analyze import api
    from crib_analyze.board import games

    def stop(*args: object, **kwargs: object) -> None:
        raise RuntimeError("stopped before the job")

    monkeypatch.setattr(games, "play_batch", stop)  # the inputs checked, the games begin
    monkeypatch.setattr(api, "build_model", stop)
    bad = _warning(["simulate", "--games", "200000", "--players", "position,psychic"])
    assert bad == []  # bad input: its one error line, no announcement first
    long = _warning(["simulate", "--games", "200000", "--players", "position,expert"])
    assert len(long) == 1 and "200,000 games: expected to take about" in long[0], long
    assert "Ctrl-C stops it" in long[0]
    assert _warning(["simulate", "--games", "200000", "--players", "position,expert", "-q"]) == []
    games = int(LONG_RUN_SECONDS / costs.cost("simulate-solver").seconds / 4) // 2 * 2
    assert games >= 2
    assert _warning(["simulate", "--games", str(games)]) == []
    position = int(LONG_RUN_SECONDS / costs.cost("simulate-position").seconds * 2) // 2 * 2
    plain = costs.simulate_seconds(position, ("expert", "expert"), "solver") > LONG_RUN_SECONDS
    assert bool(_warning(["simulate", "--games", str(position)])) == plain  # no position player
    assert _warning(["simulate", "--games", str(position), "--players", "expert,position"])
    build = _warning(["build-model", "-o", str(tmp_path / "m.npz")])
    assert build and "the build: expected to take" in build[0]


@pytest.mark.parametrize(
    ("options", "figure", "scale"),
    [(["--dealer"], "discard", 1), (["--pone", "--score", "100-100"], "discard-score", 1),
     (["--pegging", "exact"], "discard-simulated-pegging", 2),  # both roles
     (["--dealer", "--pegging", "simulated"], "discard-simulated-pegging", 1),
     (["--opponent", "sampled", "--samples", str(10 * SAMPLES.default)], "discard-sampled", 10)],
)  # fmt: skip
def test_a_long_hands_file_is_announced_first(
    options: list[str], figure: str, scale: int, tmp_path: Path
) -> None:
    """The hands of a file add up (the analysis never runs: it stops at the announcement
    or at the first hand); a sampled opponent by its samples."""
    from crib_analyze import api

    per = costs.cost(figure).seconds * scale
    enough, few = int(LONG_RUN_SECONDS / per) + 1, int(LONG_RUN_SECONDS / per / 2)
    with pytest.MonkeyPatch.context() as mp:
        reached: list[bool] = []

        def stop(*args: object, **kwargs: object) -> None:
            reached.append(True)
            raise RuntimeError("stopped before the first hand")

        mp.setattr(api, "discard_rows_for", stop)  # what the command runs for each hand
        for hands, warned in ((enough, True), (few, False)):
            path = tmp_path / f"{hands}.txt"
            path.write_text("5H 6S 4D JC QH 5C\n" * hands + "5H 6S\n")  # a bad line: not counted
            said = _warning(["discard", "--hands-file", str(path), *options])
            assert bool(said) == warned, (hands, said)
            # unannounced, the command went on to its first hand, the stub (not the work)
            assert reached == [True] * (not warned), "the analysis ran: the stub missed it"
            reached.clear()
            if warned:
                assert said[0].startswith(f"{hands:,} hands: expected to take about"), said


@pytest.mark.parametrize("shard", [None, "1/2", "1/8", "3/40"])
def test_a_table_shard_is_its_share(shard: str | None, tmp_path: Path) -> None:
    """Announced when the share of the whole table's figure is over the bound (the
    table itself is never made: the run stops at the announcement or at the kernels)."""
    from crib_analyze import api

    slices = int(shard.split("/")[1]) if shard else 1
    expected = costs.table_seconds("expert") / slices > LONG_RUN_SECONDS
    args = ["table", "--opponent", "expert", "-o", str(tmp_path / "t.parquet")]
    with pytest.MonkeyPatch.context() as mp:

        def stop(*args: object, **kwargs: object) -> None:
            raise RuntimeError("stopped before the table")

        mp.setattr(api, "generate_table", stop)
        said = _warning([*args, *(["--shard", shard] if shard else [])])
    assert any("the table: expected to take" in s for s in said) == expected, said


@pytest.mark.parametrize("command", LONG_JOBS)
def test_each_long_job_states_its_cost_in_help(command: str) -> None:
    out = RUNNER.invoke(cli, [command, "--help"], terminal_width=200)
    assert out.exit_code == 0
    paragraph = out.output[out.output.index("Cost (measured on") :]
    assert re.search(r"(about|under) ", paragraph), paragraph
    # the description is reflowed as click does it: no gaps left by the docstring's indent
    text = out.output[: out.output.index("Options:")]
    paragraphs = [p.splitlines() for p in text.split("\n\n")[1:] if p.strip()]
    for before, lines in itertools.pairwise(paragraphs):
        if not before[-1].endswith(":"):  # not an example block under "Examples:"
            assert re.match(r"  \S", lines[0]), lines[0]


def test_the_docs_quote_the_recorded_figures() -> None:
    """Every timing or size in README.md and docs/ sits between markers and says what
    the figures say (``make docs`` rewrites them)."""
    quoted = 0
    for page in PAGES:
        if page.name == "cli.md":
            continue
        text = page.read_text()
        assert unmarked(text) == [], (page.name, unmarked(text))
        assert rewritten(text) == text, f"{page.name}: run make docs"
        quoted += len(MARKER.findall(text))
    assert quoted >= 8


def test_the_docs_check_catches_a_figure_typed_by_hand(tmp_path: Path) -> None:
    text = "It takes <!-- cost table-five-card -->about 3 seconds<!-- /cost --> to build."
    assert rewritten(text) != text or figure_text("cost", "table-five-card", None) == (
        "about 3 seconds"
    )
    assert unmarked("The table takes about 20 s to build.") == ["about 20 s"]
    assert unmarked("The table takes ~3 minutes.") == ["~3 minutes"]


def test_a_damaged_figures_file_costs_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No figures: no warning and no 'Cost' paragraph, never a failed command."""
    import click

    from crib_analyze.cli.output import warn_if_long, with_cost

    for junk in ("{not json", '{"figures": {"table": {"per": "run"}}}', "[]"):
        bad = tmp_path / "costs.json"
        bad.write_text(junk)
        monkeypatch.setattr(costs, "packaged", lambda name, bad=bad: bad)
        costs._recorded.cache_clear()
        costs.costs.cache_clear()
        try:
            assert costs.costs() == {} and costs.cost("table").seconds == 0.0
            command = with_cost(lambda: costs.cost("table").text())(click.Command("x", help="X."))
            assert command.help == "X."
            said: list[str] = []
            monkeypatch.setattr("crib_analyze.cli.output.note", said.append)
            warn_if_long(costs.table_seconds("expert"), "the table")
            assert said == []
        finally:
            costs._recorded.cache_clear()
            costs.costs.cache_clear()
