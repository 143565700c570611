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
from typing import TypeVar

import pytest

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
