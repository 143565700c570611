"""Outputs of a fixed set of command lines equal those of the reference release.

The cases and how their outputs were captured are in :mod:`tests.golden_cases`; the
expected texts in ``tests/golden/`` come from the release before the restructure, not
from the code under test. A mismatch shows the first differing lines.

Mutations checked: a different card printed first in ``discard`` (rank order), the
model line reworded, a CSV float printed with fewer digits, the quiz's hint reworded:
each fails the case that shows it.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest

from tests.golden_cases import CASES, GOLDEN, Case, golden_text, run_case


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_output_equals_the_reference_release(case: Case, tmp_path: Path) -> None:
    expected = (GOLDEN / f"{case.name}.txt").read_text(encoding="utf-8")
    got = golden_text(run_case(case, tmp_path))
    if got != expected:
        diff = difflib.unified_diff(
            expected.splitlines(), got.splitlines(), "reference", "now", lineterm="", n=1
        )
        pytest.fail(f"{case.name}: output changed\n" + "\n".join(list(diff)[:40]))
