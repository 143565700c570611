"""Test-wide settings and the rotation of heavy checks.

Generated files go to a temp data dir, never the user's.

Heavy checks (the fuzz, exhaustive sweeps, many-sample cross-checks, model rebuilds)
run at full size in ``make test-all`` (``CRIB_ANALYZE_TEST_FULL=1``) and in a smaller
form in ``make test``: a subset drawn with :func:`rotating`, seeded from the commit, so
each commit checks different cases and every case is checked over a run of commits.
The seed is printed in the report header; ``CRIB_ANALYZE_TEST_SEED=N`` repeats a run.
"""

from __future__ import annotations

import os
import random
import subprocess
from collections.abc import Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest

from crib_analyze.__main__ import prepare_process

# the tests run the library and the command in the environment the command gives itself
# (before numpy loads: numpy reads its settings once)
prepare_process()
# and in a terminal of 80 columns, whatever the one they were started from: click wraps
# help to the terminal's width (the command's own output is 80 columns by design)
os.environ["COLUMNS"] = "80"
os.environ["LINES"] = "24"

T = TypeVar("T")

#: every heavy check at full size (make test-all)
FULL = os.environ.get("CRIB_ANALYZE_TEST_FULL") == "1"


@cache
def rotation_seed() -> int:
    """The seed of this run's subsets: $CRIB_ANALYZE_TEST_SEED, else from the commit."""
    env = os.environ.get("CRIB_ANALYZE_TEST_SEED")
    if env:
        return int(env)
    try:
        head = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
            check=True,
        ).stdout.strip()
        return int(head[:12], 16)
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0


def rotating(items: Sequence[T], k: int, salt: str) -> list[T]:
    """``k`` of ``items`` for this run (all of them with FULL), the same for one commit,
    in their original order; ``salt`` keeps the draws of different tests apart."""
    if FULL or k >= len(items):
        return list(items)
    rng = random.Random(f"{rotation_seed()}/{salt}")
    chosen = sorted(rng.sample(range(len(items)), k))
    return [items[i] for i in chosen]


def scaled(full: int, quick: int) -> int:
    """A size: ``full`` in make test-all, ``quick`` in make test."""
    return full if FULL else quick


def event_arrays(deals: list[list[tuple[int, int]]], merged: bool = False) -> tuple[Any, Any, Any]:
    """Toy deals for the boards' dynamic programming, each a list of (player, points)
    in the order scored, as the kernels read them: (players, points), (n, 12) int8,
    player -1 past the last event, events of no points left out; and the weights, one
    a deal, or with ``merged`` the distinct deals' (each player's turns merged)."""
    import numpy as np

    from crib_analyze.board.build import distinct_deals

    players = np.full((len(deals), 12), -1, np.int8)
    points = np.zeros((len(deals), 12), np.int8)
    for i, events in enumerate(deals):
        for j, (p, q) in enumerate(e for e in events if e[1] > 0):
            players[i, j], points[i, j] = p, q
    if merged:
        return distinct_deals(players, points)
    return players, points, np.ones(len(deals))


def toy_deal(players: int, most_points: int, most_events: int) -> Any:
    """A hypothesis strategy of one toy deal (see :func:`event_arrays`) of ``players``:
    up to ``most_events`` events of up to ``most_points``, then a last card's point."""
    from hypothesis import strategies as st

    seat = st.integers(0, players - 1)
    events = st.lists(st.tuples(seat, st.integers(0, most_points)), max_size=most_events)
    return events.flatmap(lambda events: seat.map(lambda last: [*events, (last, 1)]))


def kernel_pack(cards: list[int], unseen: list[int], place: int, seed: int, j: int) -> list[int]:
    """The pack a board's split kernels deal in sample ``j`` (pack_with): the ``unseen``
    cards shuffled by the sample's stream (Fisher-Yates from the top), ``cards`` put at
    ``place``."""
    from crib_analyze.rng_kernels import rng_for, rng_next

    rng = rng_for(seed, j)
    pool = list(unseen)
    for i in range(len(pool) - 1, 0, -1):
        k = int(rng_next(rng)) % (i + 1)
        pool[i], pool[k] = pool[k], pool[i]
    return [int(c) for c in pool[:place]] + list(cards) + [int(c) for c in pool[place:]]


def pytest_report_header(config: pytest.Config) -> str:
    size = "full size" if FULL else "rotating subsets"
    return f"crib-analyze heavy checks: {size}; rotation seed {rotation_seed()}"


@pytest.fixture(autouse=True)
def private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point CRIB_ANALYZE_DATA_DIR at a fresh temp folder; forget any model override."""
    path = tmp_path_factory.mktemp("data-dir")
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(path))
    monkeypatch.delenv("CRIB_ANALYZE_MODEL", raising=False)
    yield path


# --- the order of the files: the longest first --------------------------------------------

#: the test files that take longest in make test (their --durations summed, the heavy
#: checks apart as they rotate; remeasured in the twenty-third session), longest first:
#: the workers take a file at a time in collection order, so with these first the short
#: files fill in at the end and the two workers finish together (a 20 s file left to the
#: end kept one worker busy alone)
SLOW_FILES = (
    "test_table_play_odds.py", "test_table_games.py", "test_any_game_discard.py",
    "test_game_models.py", "test_joker_table.py", "test_cli.py", "test_joker_expert_table.py",
    "test_interrupts.py", "test_files_in.py", "test_jokers.py", "test_three_boards.py",
    "test_five_card_table.py", "test_throw_fives_tables.py", "test_board.py",
    "test_split_play.py", "test_expert.py", "test_table_variants.py", "test_lowball_games.py",
    "test_game_boards.py", "test_pegging.py", "test_web_browser.py", "test_penalties.py",
    "test_table.py", "test_joker_pegging.py", "test_discard.py", "test_caches.py",
    "test_games.py", "test_golden.py", "test_cli_fuzz.py", "test_table_solver.py",
    "test_files_out.py", "test_docs.py", "test_install.py",
)  # fmt: skip


HEAVY_SHARE = 8  # make test runs one share of the heavy checks in this many
HEAVY_SECONDS = 3.0  # a heavy check's time when its marker gives none (``seconds=``)


def heavy_shares(items: list[pytest.Item]) -> dict[str, int]:
    """The share (0 .. HEAVY_SHARE - 1) of each heavy check: the longest first (its
    marker's ``seconds``, measured warm in make test's setting), each to the share with
    the fewest seconds so far, so that every commit's rotation takes about as long (one
    share drew both checks of over 20 s when they were dealt by name)."""
    totals = [0.0] * HEAVY_SHARE
    shares = {}
    heavy = [(float(m.kwargs.get("seconds", HEAVY_SECONDS)), i.nodeid) for i in items
             if (m := i.get_closest_marker("heavy"))]  # fmt: skip
    for seconds, nodeid in sorted(heavy, key=lambda h: (-h[0], h[1])):
        share = min(range(HEAVY_SHARE), key=lambda k: (totals[k], k))
        shares[nodeid] = share
        totals[share] += seconds
    return shares


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow files first (:data:`SLOW_FILES`); the rest after, in their own order.
    Of the checks marked ``heavy``, make test runs one share (:func:`heavy_shares`), the
    others with the next commits' rotations (make test-all runs them all)."""
    rank = {name: i for i, name in enumerate(SLOW_FILES)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))
    if FULL:
        return
    shares = heavy_shares(items)
    skip = pytest.mark.skip(
        reason="a heavy check: other commits' rotations run it (all: make test-all)"
    )
    this_commit = rotation_seed() % HEAVY_SHARE
    for item in items:
        if shares.get(item.nodeid, this_commit) != this_commit:
            item.add_marker(skip)


# --- compiling the heavy kernels once, split between the workers -------------------------


def _warm_discards() -> None:
    import crib_analyze as ca

    ca.analyze("5H 6S 4D JC QH 5C", role="dealer")  # the hand and crib kernels


def _warm_games() -> None:
    import crib_analyze as ca

    ca.simulate(2, seed=0)  # whole games: the play policies and the position's sampler


def _warm_table_games() -> None:
    import crib_analyze as ca

    ca.simulate(2, game="three")  # the play of three and more players


def _warm_position() -> None:
    import crib_analyze as ca

    ca.analyze("5H 6S 4D JC QH 5C", role="dealer", score=(110, 115), top=1)


def _warm_pegging() -> None:
    import crib_analyze as ca

    ca.advise_play("pone", "7C 8D 2C", starter="5H", played="3D 10S")


#: per worker, in order: families of kernels that share little, so that two workers
#: starting on a fresh cache do not compile the same kernel at the same time (the
#: position's sampler is inside the games' kernel: the games come first, on the other
#: worker, and the position finds it cached; the discards and the games share the crib
#: kernels: the play comes first on the other worker)
WARM_UPS = ((_warm_discards, _warm_table_games, _warm_position), (_warm_pegging, _warm_games))


@pytest.fixture(scope="session", autouse=True)
def compiled_kernels() -> None:
    """With two or more xdist workers (make test), each worker first compiles its share
    of the heavy kernels (:data:`WARM_UPS`); the cache they share then serves the rest.
    Compiling is most of a fresh run, and numba compiles a kernel wherever it is first
    needed: without this both workers compile the same big kernels at the start.
    ``CRIB_ANALYZE_TEST_WARM=0`` turns it off."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    if count < 2 or not worker.startswith("gw") or os.environ.get("CRIB_ANALYZE_TEST_WARM") == "0":
        return
    index = int(worker[2:])
    for i, share in enumerate(WARM_UPS):
        if i % count == index:
            for warm in share:
                warm()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Mark a test whose call failed (``item.failed_call``), for fixtures that keep
    evidence of a failure (the browser tests' screenshots)."""
    outcome = yield
    report = outcome.get_result()  # type: ignore[attr-defined]
    if report.when == "call" and report.failed:
        item.failed_call = True  # type: ignore[attr-defined]
