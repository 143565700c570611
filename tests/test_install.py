"""The package works installed from a wheel, from any directory.

A wheel is built from a copy of the source tree (the repo is not touched), installed
into a fresh virtual environment in a temp folder, and its ``crib-analyze`` command is
run from another temp folder: ``discard`` (expert default), ``crib-table`` and
``score``. The new environment gets the third-party libraries from this one (a path
file), not crib_analyze: the check below proves the wheel's copy is the one imported.
Run with CRIB_ANALYZE_INSTALL_FROM_INDEX=1 to install the dependencies from the
package index instead (slower, needs the network). The kernels this session compiled
are copied into the new cache folder first: the wheel holds the same sources, so the
installed package must find them under the same digest (and the check below proves it
used that folder), and the test need not compile them again.
"""

from __future__ import annotations

import os
import shutil
import site
import subprocess
import sys
from pathlib import Path

import pytest

from crib_analyze.jit import kernel_cache_dir

REPO = Path(__file__).resolve().parents[1]


def sh(args: list[str | Path], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    proc = subprocess.run(
        [str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=900
    )
    assert proc.returncode == 0, (args, proc.stdout, proc.stderr)
    return proc


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[str, str]]:
    """(venv bin folder, environment) of a fresh install of a freshly built wheel."""
    root = tmp_path_factory.mktemp("install")
    source = root / "src"
    patterns = shutil.ignore_patterns(
        ".venv", ".git", "build", "*.egg-info", "__pycache__", ".*cache"
    )
    # the tests' own temporary folder, when TMPDIR is inside the repository (the copy
    # would otherwise copy itself without end)
    base = tmp_path_factory.getbasetemp().resolve()
    skip = {REPO / base.relative_to(REPO).parts[0]} if base.is_relative_to(REPO) else set()

    def ignore(folder: str, names: list[str]) -> set[str]:
        return set(patterns(folder, names)) | {n for n in names if Path(folder, n) in skip}

    shutil.copytree(REPO, source, ignore=ignore)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CRIB_ANALYZE", "PYTHON"))}
    env |= {
        "HOME": str(root / "home"),
        "CRIB_ANALYZE_DATA_DIR": str(root / "data"),
        "CRIB_ANALYZE_CACHE_DIR": str(root / "cache"),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
    }
    compiled = Path(kernel_cache_dir())
    if compiled.is_dir():  # this session's kernels, under the digest of these sources
        # (make test's serial kernels serve the install's run as they are: same numbers)
        copy = root / "cache" / compiled.parent.name / compiled.name.removesuffix("-serial")
        shutil.copytree(compiled, copy)
        os.utime(copy, (1_000_000_000, 1_000_000_000))  # marked old: a run marks it new
    wheels = root / "wheels"
    pip = [sys.executable, "-m", "pip"]
    sh([*pip, "wheel", "--no-deps", "--no-build-isolation", "-w", wheels, source], root, env)
    (wheel,) = wheels.glob("crib_analyze-*.whl")
    venv = root / "venv"
    sh([sys.executable, "-m", "venv", "--without-pip", venv], root, env)
    python = venv / "bin" / "python"
    if os.environ.get("CRIB_ANALYZE_INSTALL_FROM_INDEX"):
        sh([*pip, "--python", python, "install", wheel], root, env)
    else:
        sh([*pip, "--python", python, "install", "--no-deps", "--no-index", wheel], root, env)
        purelib = sh(
            [python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"], root, env
        )
        Path(purelib.stdout.strip(), "dependencies.pth").write_text(
            "\n".join(site.getsitepackages()) + "\n"
        )
    return venv / "bin", env


def test_wheel_installs_and_runs_from_another_folder(
    installed: tuple[Path, dict[str, str]], tmp_path: Path
) -> None:
    bin_dir, env = installed
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = sh(
        [bin_dir / "python", "-c", "import crib_analyze; print(crib_analyze.__file__)"],
        elsewhere,
        env,
    ).stdout
    assert Path(where.strip()).is_relative_to(bin_dir.parent), where
    tool = bin_dir / "crib-analyze"

    # every package of the source tree is in the wheel (the package list is written out)
    packages = sorted(
        ".".join(p.parent.relative_to(REPO).parts)
        for p in (REPO / "crib_analyze").rglob("__init__.py")
    )
    load = f"import importlib\nfor m in {packages}: importlib.import_module(m)"
    sh([bin_dir / "python", "-c", load], elsewhere, env)

    hand = ["5H", "6S", "4D", "JC", "QH", "5C"]
    discard = sh([tool, "discard", *hand, "--dealer", "--verbose"], elsewhere, env)
    lines = discard.stdout.splitlines()
    assert lines[0].startswith("As dealer: throw JC QH")  # the verdict
    assert lines[2].startswith("opponent: expert") and "packaged expert model" in lines[2]
    assert lines[6].split()[1:3] == ["JC", "QH"]  # after the header, opponent, heels, play

    crib = sh([tool, "crib-table", "--role", "pone"], elsewhere, env)
    lines = crib.stdout.splitlines()
    assert [line.split()[0] for line in lines[-91:]][:2] == ["A-A", "A-2"]  # 91 rank pairs
    assert lines[-92].startswith("pair ")

    score = sh(
        [tool, "score", "5H", "5C", "5S", "JD", "--starter", "5D", "-f", "json"], elsewhere, env
    )
    assert '"total": 29' in score.stdout

    assert list(elsewhere.iterdir()) == []  # nothing written into the current folder
    cache = Path(env["CRIB_ANALYZE_CACHE_DIR"])
    assert any(cache.rglob("*.nbi")), "kernels are cached in the cache dir"
    used = [p for p in cache.glob("numba-*/*") if p.stat().st_mtime > 1_000_000_000]
    digest = Path(kernel_cache_dir()).name.removesuffix("-serial")
    assert [p.name for p in used] == [digest], "same sources, same digest"
    assert not list(bin_dir.parent.rglob("crib_analyze/__pycache__/*.nbi"))
