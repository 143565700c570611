"""What the long jobs cost: the figures behind each command's "Cost:" in --help, the
warning before a run expected to take over a minute, and the timings quoted in docs.

Measures, warm (kernels compiled first, not counted), in this process or as whole
processes: whole games per game by play policy and players (``simulate``), whole games
of other games (``simulate --game``), the discard tables (``table``, ``table --opponent
expert``, ``table --game five-card``) with their sizes. The builders' figures are read
from the provenance of the packaged files they made (``build-model``, ``build-pegging``,
``build-leads``, ``build-board``): each records its own seconds.

    .venv/bin/python benchmarks/bench_costs.py            # ~8 min; prints the figures
    .venv/bin/python benchmarks/bench_costs.py --record   # and writes data/costs.json
    .venv/bin/python benchmarks/bench_costs.py --quick    # fewer games, no tables (~1 min)
    .venv/bin/python benchmarks/bench_costs.py --tables --record  # the tables only (~4 min)

Then ``make docs`` puts the new figures into the docs. A figure moves when the code
does: rerun with ``--record`` after a change that moves one.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any

from crib_analyze.__main__ import prepare_process
from crib_analyze.settings import SAMPLES

from common import bench_env, loads_text, reproduce_command, require_cli, run_measured

prepare_process()  # the in-process figures in the command's environment (before numpy)

ROOT = Path(__file__).resolve().parent.parent
COSTS = ROOT / "data" / "costs.json"


def per_game(run: Any, n: int) -> float:
    """Seconds a game of ``run(n)``, after one small run to compile."""
    run(2)
    start = time.perf_counter()
    run(n)
    return (time.perf_counter() - start) / n


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
            check=True,
        ).stdout.strip()  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        return "unknown"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--record", action="store_true", help="write data/costs.json")
    parser.add_argument("--quick", action="store_true", help="fewer games, no tables")
    parser.add_argument("--tables", action="store_true", help="the discard tables only")
    args = parser.parse_args()
    require_cli()
    os.environ.update(bench_env())  # generated files to a scratch dir
    import crib_analyze as ca

    quick = args.quick
    when = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d")
    here = f"benchmarks/bench_costs.py, {when} at {commit()}, {os.cpu_count()} cores"
    figures: dict[str, dict[str, Any]] = {}

    def put(name: str, seconds: float, per: str, what: str, source: str = here) -> None:
        figures[name] = {"seconds": float(f"{seconds:.3g}"), "per": per,
                         "what": what, "source": source}  # fmt: skip
        print(f"{name:28s} {seconds:10.4f} s a {per:6s}  {what}")

    print(f"load {loads_text()}")
    if args.tables:
        tables(figures, put)
    else:
        games_and_hands(ca, quick, figures, put)
    if args.record:
        old = json.loads(COSTS.read_text()) if COSTS.exists() else {"figures": {}}
        old["figures"].update(figures)
        old["machine"] = f"{os.cpu_count()} cores; the figures of one run, not a bound"
        COSTS.write_text(json.dumps(old, indent=1, sort_keys=True) + "\n")
        print(f"written: {COSTS.relative_to(ROOT)}")


def games_and_hands(ca: Any, quick: bool, figures: dict[str, Any], put: Any) -> None:
    """Whole games, one hand's commands, the tables (unless ``quick``), the builders."""
    n = 20 if quick else 100
    put("simulate-solver", per_game(lambda k: ca.simulate(k, seed=1), n), "game",
        "simulate: expert against expert, both playing the solver (the default)")  # fmt: skip
    put("simulate-lookahead",
        per_game(lambda k: ca.simulate(k, seed=1, play_policy="lookahead"), 10 * n), "game",
        "simulate --play-policy lookahead")  # fmt: skip
    position = ("position", "expert")
    put("simulate-position", per_game(lambda k: ca.simulate(k, players=position, seed=1), n // 2),
        "game", "simulate --players position,expert (a position player from 61)")  # fmt: skip
    put("simulate-game",
        per_game(lambda k: ca.simulate(k, seed=1, game="three"), 10 * n), "game",
        "simulate --game three (every seat by the hand policy, lookahead play)")  # fmt: skip

    hands = ["5H 6S 4D JC QH 5C", "2C 3D 4H 6S 8C 9D", "KC KD QH QS JD TC", "AS 2S 3S 4S 5S 6S"]
    for name, options, passes, what in (
        ("discard", {}, 5,
         "discard: a hand's throws against the expert, the pegging table's values"),
        ("discard-sampled", {"opponent": "sampled"}, 1,
         f"discard --opponent sampled: {SAMPLES.default:,} opponent hands"),
        ("discard-score", {"score": (110, 115)}, 1,
         "discard --score: a hand's throws from the score, 4,000 deals a throw"),
        ("discard-simulated-pegging", {"pegging": "simulated"}, 1,
         "discard --pegging simulated: the play of all 15 throws with the real cards, by "
         "the solver, for one role"),
    ):  # fmt: skip
        ca.analyze(hands[0], role="dealer", **options)  # compile first
        start = time.perf_counter()
        for _ in range(passes):
            for h in hands:
                ca.analyze(h, role="dealer", **options)
        put(name, (time.perf_counter() - start) / (passes * len(hands)), "hand", what)

    if not quick:
        tables(figures, put)

    for name, provenance, per, units, what in (
        ("build-model", ca.load_model().provenance, "run", 1,
         "build-model: the expert model's fixed point"),
        ("build-pegging", _provenance("pegging"), "deal", None,
         "build-pegging: the pegging table, per deal played (2,000 to 8,000 a cell by default)"),
        ("build-leads", _provenance("leads"), "run", 1,
         "build-leads: the solver's leads and replies"),
        ("build-board", _provenance("board"), "deal", None,
         "build-board: the board table, per deal simulated (1,000,000 by default)"),
    ):  # fmt: skip
        if provenance.get("seconds") is None or (
            name == "build-pegging" and "runs" not in provenance
        ):
            continue  # not every run of a resumed build was timed: the figure stays
        count = units or provenance["deals"]
        source = f"the provenance of the packaged file ({provenance['created_at'][:10]})"
        put(name, provenance["seconds"] / count, per, what, source)

    print(f"\nreproduce: {reproduce_command('bench_costs.py')}")


def tables(figures: dict[str, Any], put: Any) -> None:
    """The discard tables, as whole processes, with their sizes."""
    with tempfile.TemporaryDirectory() as tmp:
        env = bench_env()
        for name, argv, what in (
            ("table", ["table"], "table: the random-opponent discard table"),
            ("table-expert", ["table", "--opponent", "expert"],
             "table --opponent expert: the expert-opponent discard table"),
            ("table-penalty", ["table", "--penalty", "zero"],
             "table --penalty zero: the random-opponent table with the chances of a zero"),
            ("table-throw-fives", ["table", "--throw-fives"],
             "table --throw-fives: the random-opponent table under throw fives"),
            ("table-expert-penalty", ["table", "--opponent", "expert", "--penalty", "zero"],
             "table --opponent expert --penalty zero: the expert table with the chances of "
             "a zero"),
            ("table-five-card", ["table", "--game", "five-card"],
             "table --game five-card: the five-card game's table"),
            ("table-throw-one", ["table", "--game", "three"],
             "table --game three: a throw-one game's table (five-dealt, three, four, five)"),
            ("table-jokers", ["table", "--jokers", "1"],
             "table --jokers N: the random-opponent table of a pack with jokers"),
            ("table-jokers-expert", ["table", "--jokers", "1", "--opponent", "expert"],
             "table --jokers N --opponent expert: the expert-opponent table of a pack with "
             "jokers"),
        ):  # fmt: skip
            out = Path(tmp) / f"{name}.parquet"
            run = run_measured([*argv, "-o", str(out), "-q"], env)
            put(name, run.wall, "run", what)
            figures[name]["megabytes"] = round(out.stat().st_size / 1e6)
            print(f"{'':28s} {figures[name]['megabytes']:10d} MB")


def _provenance(what: str) -> dict[str, Any]:
    from crib_analyze.artifacts.board_table import packaged_board_table
    from crib_analyze.artifacts.pegging_table import packaged_pegging_table
    from crib_analyze.artifacts.solver_leads import packaged_solver_leads

    made = {"pegging": packaged_pegging_table, "leads": packaged_solver_leads,
            "board": packaged_board_table}[what]()  # fmt: skip
    return dict(made.provenance)


if __name__ == "__main__":
    main()
