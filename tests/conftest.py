"""Test-wide settings: generated files go to a temp data dir, never the user's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def private_data_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Point CRIB_ANALYZE_DATA_DIR at a fresh temp folder; forget any model override."""
    path = tmp_path_factory.mktemp("data-dir")
    monkeypatch.setenv("CRIB_ANALYZE_DATA_DIR", str(path))
    monkeypatch.delenv("CRIB_ANALYZE_MODEL", raising=False)
    yield path
