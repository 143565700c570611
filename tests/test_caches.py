"""Caches that prove themselves: every cached file is damaged in every way (truncated,
bits flipped, values scaled, emptied, replaced by junk, taken from other inputs) and
the result must equal a clean run's, with a one-line notice and never a traceback.

* the compiled kernels (numba's index and data files, sealed by :mod:`crib_analyze.jit`),
  in a fresh process with a fresh cache folder and a small kernel of its own;
* the expert crib arrays the board kernels use (:mod:`crib_analyze.storage.cache`),
  in process and through ``simulate``;
* the checkpoints of long builds (damaged or foreign: start over, with a notice).
"""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.board import expert_throws
from crib_analyze.cli import cli
from crib_analyze.storage import cache as cache_module
from crib_analyze.storage.checkpoint import load_checkpoint, save_checkpoint
from crib_analyze.storage.npz import arrays_digest
from tests.conftest import rotating


def damage(path: Path, how: str, rng: random.Random) -> None:
    """Damage a file in place, as a disk, a crash or a hand could."""
    data = bytearray(path.read_bytes())
    if how == "truncate":
        data = data[: len(data) // 2]
    elif how == "flip":
        for _ in range(20):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif how == "junk":
        data = bytearray(rng.randbytes(len(data)))
    elif how == "empty":
        data = bytearray()
    else:
        raise AssertionError(how)
    path.write_bytes(bytes(data))


KERNEL = textwrap.dedent(
    """
    import numpy as np
    from crib_analyze.jit import njit

    @njit
    def total(x):
        s = 0
        for v in x:
            s += v * v
        return s

    @njit(parallel=True)
    def halves(x):
        return x * 0.5

    print(total(np.arange(10)), halves(np.arange(4.0)).sum())
    """
)


def run_kernel(script: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = os.environ | {"CRIB_ANALYZE_CACHE_DIR": str(cache)}
    return subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, env=env, timeout=300
    )


@pytest.mark.parametrize("how", rotating(["truncate", "flip", "junk", "empty"], 2, "kernel damage"))
def test_a_damaged_kernel_cache_is_recompiled_with_a_notice(tmp_path: Path, how: str) -> None:
    script, cache = tmp_path / "kernel_module.py", tmp_path / "cache"
    script.write_text(KERNEL)
    clean = run_kernel(script, cache)
    assert clean.returncode == 0, clean.stderr
    files = sorted(p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc"))
    assert {p.suffix for p in files} == {".nbi", ".nbc"}, files
    rng = random.Random(how)
    for part in (".nbi", ".nbc"):  # the index first, then the data with a sound index
        for path in files:
            if path.suffix == part:
                damage(path, how, rng)
        again = run_kernel(script, cache)
        assert again.returncode == 0, again.stderr
        assert again.stdout == clean.stdout
        lines = again.stderr.strip().splitlines()
        assert len(lines) == 1 and "kernel cache held damaged files" in lines[0], again.stderr
        assert "Traceback" not in again.stderr
        healed = run_kernel(script, cache)  # recompiled and sealed again: silent
        assert (healed.returncode, healed.stdout, healed.stderr) == (0, clean.stdout, "")
        files = sorted(p for p in cache.rglob("*") if p.suffix in (".nbi", ".nbc"))


# --- the expert crib arrays ------------------------------------------------------------------


@pytest.fixture
def crib_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private cache folder for the derived arrays (the kernels keep theirs)."""
    monkeypatch.setattr(cache_module, "cache_dir", lambda: tmp_path)
    monkeypatch.setattr(expert_throws, "_THROW_ARRAYS", {})
    return tmp_path


def scale(path: Path) -> None:
    """Rewrite the file as a valid npz whose crib values are halved (digest kept)."""
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["cribs"] = arrays["cribs"] * 0.5
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)


CRIB_DAMAGE = ["truncate", "flip", "junk", "empty", "scale", "negate", "no digest"]


@pytest.mark.heavy(seconds=9)
def test_damaged_expert_cribs_are_computed_again(
    crib_cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    model = packaged_model()
    clean = expert_throws.expert_cribs(model)
    (path,) = crib_cache.glob("expert_cribs_*.npz")
    sound = path.read_bytes()
    assert np.array_equal(expert_throws.expert_cribs(model), clean)  # read back: the same
    rng = random.Random(7)
    for how in rotating(CRIB_DAMAGE, 2, "crib-cache"):
        path.write_bytes(sound)
        if how == "scale":
            scale(path)
        elif how in ("negate", "no digest"):
            with np.load(path) as data:
                arrays = {k: data[k] for k in data.files}
            if how == "negate":
                arrays["cribs"] = -arrays["cribs"]
                del arrays["digest"]
                arrays["digest"] = np.array(arrays_digest(arrays))  # a "valid" file
            else:
                del arrays["digest"]
            with open(path, "wb") as fh:
                np.savez_compressed(fh, **arrays)
        else:
            damage(path, how, rng)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="crib_analyze.cache"):
            again = expert_throws.expert_cribs(model)
        assert np.array_equal(again, clean), how
        notices = [r.getMessage() for r in caplog.records if r.name == "crib_analyze.cache"]
        assert len(notices) == 1 and "computing it again" in notices[0], (how, notices)
        assert path.read_bytes() != b"" and np.array_equal(expert_throws.expert_cribs(model), clean)


def test_a_cached_file_of_other_inputs_is_not_used(
    crib_cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    calls = []

    def compute(value: float) -> dict[str, np.ndarray]:
        calls.append(value)
        return {"x": np.full(3, value)}

    key = {"model": "a"}
    assert cache_module.cached_arrays("thing", key, lambda: compute(1.0))["x"][0] == 1.0
    assert cache_module.cached_arrays("thing", key, lambda: compute(9.0))["x"][0] == 1.0
    assert calls == [1.0]  # the second came from the cache
    # a sound file of another key, put where this key's file goes
    other = cache_module.cache_path("thing", {"model": "b"})
    cache_module.cached_arrays("thing", {"model": "b"}, lambda: compute(2.0))
    other.replace(cache_module.cache_path("thing", key))
    with caplog.at_level(logging.WARNING, logger="crib_analyze.cache"):
        assert cache_module.cached_arrays("thing", key, lambda: compute(3.0))["x"][0] == 3.0
    assert "made from other inputs" in caplog.text


@pytest.mark.heavy(seconds=7)
def test_simulate_with_a_damaged_crib_cache_equals_a_clean_run(crib_cache: Path) -> None:
    runner = CliRunner()
    args = ["simulate", "--games", "10", "--seed", "1", "--play-policy", "lookahead", "-f", "json"]
    clean = runner.invoke(cli, args)
    assert clean.exit_code == 0, clean.output
    (path,) = crib_cache.glob("expert_cribs_*.npz")
    scale(path)
    expert_throws._THROW_ARRAYS.clear()  # a new process would read the file again
    again = runner.invoke(cli, args)
    assert again.exit_code == 0, again.output

    def numbers(text: str) -> dict[str, object]:
        data = json.loads(text)
        data.pop("seconds")
        return dict(data)

    assert numbers(again.stdout) == numbers(clean.stdout)
    lines = again.stderr.strip().splitlines()
    assert len(lines) == 1 and "expert_cribs" in lines[0] and "computing it again" in lines[0]


# --- checkpoints -------------------------------------------------------------------------------


@pytest.mark.parametrize("how", ["truncate", "flip", "junk", "empty", "settings"])
def test_a_damaged_or_foreign_checkpoint_starts_over_with_a_notice(
    tmp_path: Path, how: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "x.checkpoint.npz"
    settings = {"deals": 10, "seed": 1}
    state = {"done": np.arange(1000), "sums": np.linspace(0, 1, 500)}
    save_checkpoint(path, settings, state)
    loaded = load_checkpoint(path, settings)
    assert loaded is not None and all(np.array_equal(loaded[k], state[k]) for k in state)
    if how == "settings":
        settings = {"deals": 12, "seed": 1}
    else:
        damage(path, how, random.Random(how))
    with caplog.at_level(logging.WARNING, logger="crib_analyze.storage"):
        assert load_checkpoint(path, settings) is None
    assert "starting over" in caplog.text


def test_rank_cribs_of_values_no_crib_takes_are_computed_again(
    crib_cache: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """The hand policy's crib-by-rank tables: a file with a sound digest but negative
    cribs is not used."""
    from crib_analyze.crib import any_game_cribs

    any_game_cribs.crib_tables.cache_clear()
    clean = any_game_cribs.crib_tables((2,))
    (path,) = crib_cache.glob("rank_cribs_*.npz")
    with np.load(path) as data:
        arrays = {k: data[k] for k in data.files}
    arrays["two"] = -arrays["two"]
    del arrays["digest"]
    arrays["digest"] = np.array(arrays_digest(arrays))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)
    any_game_cribs.crib_tables.cache_clear()
    with caplog.at_level(logging.WARNING, logger="crib_analyze.cache"):
        again = any_game_cribs.crib_tables((2,))
    any_game_cribs.crib_tables.cache_clear()
    assert np.array_equal(again[1], clean[1]) and (again[1] > 0).all()
    assert "rank_cribs" in caplog.text and "computing it again" in caplog.text


def test_serial_kernels_drop_the_thread_pool_and_cache_apart(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With $CRIB_ANALYZE_SERIAL_KERNELS (make test) a parallel kernel compiles without
    its thread pool, into a folder of its own; without it, as users run it."""
    from crib_analyze import jit
    from crib_analyze.settings import SERIAL_KERNELS_ENV

    def kernel(x):  # type: ignore[no-untyped-def]
        return x

    for serial in (True, False):
        if serial:
            monkeypatch.setenv(SERIAL_KERNELS_ENV, "1")
        else:
            monkeypatch.delenv(SERIAL_KERNELS_ENV, raising=False)
        compiled = jit.njit(parallel=True)(kernel)
        assert compiled.targetoptions.get("parallel", False) is not serial  # type: ignore[attr-defined]
        folder = Path(jit.kernel_cache_dir.__wrapped__())
        assert folder.name.endswith("-serial") is serial
