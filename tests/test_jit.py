"""The kernel cache cannot go stale, and the first compile is announced once.

* The digest naming the cache folder covers every kernel module and every foundation
  module kernels may import: an edit to either changes it; an edit elsewhere does not.
* Old digest folders are pruned, the newest kept.
* The first numba compile of a process logs one notice; the command line shows it on
  a terminal only.

Mutations checked: leaving the foundation out of the digest (an edit to rules.py then
keeps the digest), logging the notice on every compile, showing it when standard
error is not a terminal: each fails here.
"""

from __future__ import annotations

import io
import logging
import shutil
import sys
from pathlib import Path

import numba
import pytest

from crib_analyze import jit, kernel_source

PACKAGE = Path(jit.__file__).resolve().parent


@pytest.fixture
def package_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "crib_analyze"
    shutil.copytree(PACKAGE, copy, ignore=shutil.ignore_patterns("__pycache__"))
    return copy


def _touch(path: Path) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")


def test_the_digest_is_of_the_sources(package_copy: Path) -> None:
    assert kernel_source.digest_of(package_copy) == kernel_source.source_digest()


@pytest.mark.parametrize(
    "edited",
    [
        "crib/hand_kernels.py",
        "play/rules_kernels.py",
        "rules.py",
        "settings.py",
        "cards.py",
        "kernel_source.py",
        "jit.py",
    ],
)
def test_an_edit_to_a_kernel_or_the_foundation_changes_the_digest(
    package_copy: Path, edited: str
) -> None:
    before = kernel_source.digest_of(package_copy)
    _touch(package_copy / edited)
    assert kernel_source.digest_of(package_copy) != before


@pytest.mark.parametrize("edited", ["api/board.py", "cli/render.py", "discard/engine.py"])
def test_an_edit_elsewhere_keeps_the_digest(package_copy: Path, edited: str) -> None:
    before = kernel_source.digest_of(package_copy)
    _touch(package_copy / edited)
    assert kernel_source.digest_of(package_copy) == before


def test_old_digest_folders_are_pruned(tmp_path: Path) -> None:
    import os
    import time

    version = tmp_path / "numba-x"
    folders = []
    for i in range(jit.KEEP_CACHES + 3):
        f = version / f"digest{i}"
        f.mkdir(parents=True)
        t = time.time() - 1000 + i
        os.utime(f, (t, t))
        folders.append(f)
    jit._prune(folders[-1])
    left = sorted(p.name for p in version.iterdir())
    assert left == sorted(f.name for f in folders[-jit.KEEP_CACHES :])


def test_the_first_compile_is_announced_once(caplog: pytest.LogCaptureFixture) -> None:
    jit._FirstCompile.said = False
    with caplog.at_level(logging.INFO, logger="crib_analyze.jit"):
        numba.njit(lambda x: x + 1)(1)
        numba.njit(lambda x: x * 2)(3)
    notices = [r.getMessage() for r in caplog.records if r.name == "crib_analyze.jit"]
    assert len(notices) == 1 and notices[0].startswith("compiling kernels"), notices


@pytest.mark.parametrize("tty", [True, False])
def test_the_command_line_shows_the_compile_notice_on_a_terminal_only_and_warnings_always(
    tty: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    from crib_analyze.cli import app

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    stream = Stream()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(logging.getLogger("crib_analyze"), "handlers", [])
    app.show_notices()
    logging.getLogger("crib_analyze.jit").info("compiling kernels, once (test)")
    logging.getLogger("crib_analyze.jit").warning("a cached compiled kernel was damaged (test)")
    assert ("compiling kernels, once (test)" in stream.getvalue()) is tty
    assert "a cached compiled kernel was damaged (test)" in stream.getvalue()
