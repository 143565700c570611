"""The kernel cache cannot go stale, and the first compile is announced once.

* The digest naming the cache folder covers every kernel module and every foundation
  module kernels may import: an edit to either changes it; an edit elsewhere does not.
* Old digest folders are pruned, the newest kept.
* The first numba compile of a process logs one notice; the command line shows it on
  a terminal only.
* A kernel called from kernels with constants is compiled once, for their types.

Mutations checked: leaving the foundation out of the digest (an edit to rules.py then
keeps the digest), logging the notice on every compile, showing it when standard
error is not a terminal, numba's dispatcher or its constants' types kept: each fails
here.
"""

from __future__ import annotations

import io
import logging
import re
import shutil
import sys
from pathlib import Path

import numba
import numpy as np
import pytest

from crib_analyze import jit, kernel_source
from crib_analyze.settings import FIRST_COMPILE_RECORD

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
    ["crib/hand_kernels.py", "play/rules_kernels.py", "constants.py", "kernel_source.py", "jit.py"],
)
def test_an_edit_to_a_kernel_or_the_foundation_changes_the_digest(
    package_copy: Path, edited: str
) -> None:
    before = kernel_source.digest_of(package_copy)
    _touch(package_copy / edited)
    assert kernel_source.digest_of(package_copy) != before


@pytest.mark.parametrize(
    "edited",
    [
        "settings.py",  # every default and the version: no kernel reads them
        "rules.py",
        "position.py",
        "cards.py",
        "errors.py",
        "api/board.py",
        "render/common.py",
        "discard/engine.py",
    ],
)
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
def test_the_command_line_says_a_compile_in_one_line_terminal_or_not(
    tty: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The first compile is one line whether standard error is a terminal or not; other
    information only on a terminal; warnings always."""
    from crib_analyze.cli import app

    class Stream(io.StringIO):
        def isatty(self) -> bool:
            return tty

    stream = Stream()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(logging.getLogger("crib_analyze"), "handlers", [])
    app.show_notices()
    log = logging.getLogger("crib_analyze.jit")
    log.info("compiling kernels, once (test)", extra={FIRST_COMPILE_RECORD: "/cache/dir"})
    log.info("some other information (test)")
    log.warning("a cached compiled kernel was damaged (test)")
    lines = stream.getvalue().splitlines()
    assert lines[0].startswith("first use of `this command`: compiling its kernels")
    assert lines[0].endswith("; cached in /cache/dir, later runs start at once")
    assert ("some other information (test)" in lines) is tty
    assert lines[-1] == "a cached compiled kernel was damaged (test)"


def test_the_compile_notice_gives_the_measured_first_run(monkeypatch: pytest.MonkeyPatch) -> None:
    """What compiles and about how long, from the first-run figure of data/costs.json
    (bench_startup.py --record measures them); a figure never measured is left out."""
    from crib_analyze import costs
    from crib_analyze.cli import output

    figures = {"first-run-discard-score": costs.Cost("x", 81.5, "run", "w", "s")}
    monkeypatch.setattr(costs, "costs", lambda: figures)
    monkeypatch.setattr(costs, "machine", lambda: "2 cores; the figures of one run")
    output.first_use("discard --score")
    try:
        line = output.compile_notice("/c")
        assert line == (
            "first use of `discard --score`: compiling its kernels, about 82 seconds on "
            "2 cores; cached in /c, later runs start at once"
        )
        output.first_use("play")
        assert output.compile_notice("") == (
            "first use of `play`: compiling its kernels; no cache folder can be written, "
            "so every run compiles"
        )
    finally:
        output.first_use(None)


_COMPILES = """
from numba.core import event
import numpy as np
compiles = []
class Count(event.Listener):
    def on_start(self, e): compiles.append(1)
    def on_end(self, e): pass
event.register("numba:compile", Count())
from crib_analyze.play import rules_kernels as rk
rk.lay_points(np.array([4, 5, 0], np.int64), 2, 11)
print(len(compiles))
"""


@pytest.mark.slow
def test_a_changed_default_recompiles_no_kernel(package_copy: Path) -> None:
    """In a scratch copy of the package: a kernel compiled once is loaded from the cache
    after a default and the version are changed in settings.py (they named the cache
    before), and compiled again after the constants the kernels read are changed."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=str(package_copy.parent))
    env["CRIB_ANALYZE_CACHE_DIR"] = str(package_copy.parent / "cache")

    def compiles() -> int:
        proc = subprocess.run(
            [sys.executable, "-c", _COMPILES], env=env, capture_output=True, text=True,
            cwd=package_copy.parent, timeout=300,
        )  # fmt: skip
        assert proc.returncode == 0, proc.stderr
        return int(proc.stdout.split()[-1])

    assert compiles() > 0  # the first run compiles
    settings = package_copy / "settings.py"
    text = settings.read_text(encoding="utf-8")
    edited = re.sub(r'__version__ = "[^"]*"', '__version__ = "99.0"', text)
    edited = edited.replace(
        'SEED = Count("seed", 0, MAX_SEED, 0)', 'SEED = Count("seed", 0, MAX_SEED, 7)'
    )
    assert "99.0" in edited and "MAX_SEED, 7)" in edited  # a new version, a new default
    settings.write_text(edited, encoding="utf-8")
    assert compiles() == 0  # loaded from the cache
    _touch(package_copy / "constants.py")
    assert compiles() > 0  # the kernels' own constants: compiled again


# --- one compile a kernel, whatever constants its callers pass ----------------------------


@jit.njit
def _picked(a: np.ndarray, k: int, flag: bool) -> int:
    return int(a[k]) + (1 if flag else 0)


@jit.njit
def _picks(a: np.ndarray) -> int:
    return _picked(a, 0, True) + _picked(a, 3, False) + _picked(a, 3, True)


def test_a_kernel_called_with_constants_compiles_once_for_their_types() -> None:
    """A kernel another calls with constants (0, then 3; True, then False) is compiled
    once, for int64 and bool, not once for each constant: numba's way cost the first
    `play --game` a second compile of the solver (10.1 -> 8.0 s, benchmarks/README.md)."""
    assert _picks(np.arange(5)) == (0 + 1) + 3 + (3 + 1)
    assert len(_picked.signatures) == 1
    assert "Literal" not in str(_picked.signatures[0])
    assert _picked(np.arange(5), 4, False) == 4  # called from Python: the same types
    assert len(_picked.signatures) == 1
