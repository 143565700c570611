"""Fast forms: arrays kept raw in the cache folder for a one-hand process's quick start.

The raw container (:mod:`crib_analyze.storage.raw`) against its damage; the expert
model and the pegging table read through their fast forms against the same files read
whole (the twin: every array equal, the one-hand policies equal to compiling the file's
policies afresh); a fast form that is damaged, of another file or of a file changed
since, never used; and a warm one-hand process that loads none of numba, logging,
zipfile or OpenSSL's hashlib.

Mutations caught (each run, then reverted): the CRC-32 check, the key check and the
arrays' names check of a fast form, the fingerprint check of a policy read late, the
pegging table's fast form, a front end's handler attached before the first logger.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from crib_analyze import notices
from crib_analyze.artifacts import expert_model as em
from crib_analyze.artifacts import pegging_table as pt
from crib_analyze.crib.one_hand import CompiledPolicies, compile_policies
from crib_analyze.errors import ModelError
from crib_analyze.position import Seat
from crib_analyze.settings import PACKAGED_MODELS, PACKAGED_PEGGING, packaged
from crib_analyze.storage.raw import MAGIC, fast_form_path, read_raw, write_raw

HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("CRIB_ANALYZE_CACHE_DIR", str(folder))
    return folder


def test_raw_arrays_round_trip_and_refuse_damage(tmp_path: Path) -> None:
    path = tmp_path / "a.raw"
    arrays: dict[str, np.ndarray] = {
        "i": np.arange(7, dtype=np.int64),
        "u": np.ones((3, 5), np.uint8),
        "f": np.linspace(0, 1, 11).reshape(11, 1),
    }
    write_raw(path, {"what": "a test", "n": 3}, arrays)
    meta, back = read_raw(path)
    assert meta == {"what": "a test", "n": 3}
    assert set(back) == set(arrays)
    for name, a in arrays.items():
        assert back[name].dtype == a.dtype and np.array_equal(back[name], a)
        assert not back[name].flags.writeable
    blob = path.read_bytes()
    damaged = bytearray(blob)
    damaged[-3] ^= 0x10  # one bit of the last array
    path.write_bytes(bytes(damaged))
    with pytest.raises(ValueError, match="CRC-32"):
        read_raw(path)
    path.write_bytes(b"x" + blob[1:])
    with pytest.raises(ValueError, match="not a file of raw arrays"):
        read_raw(path)
    path.write_bytes(blob[: len(MAGIC) + 8] + b"{broken" + blob[len(MAGIC) + 15 :])
    with pytest.raises(ValueError, match="header"):
        read_raw(path)
    with pytest.raises(TypeError, match="object"):
        write_raw(path, {}, {"o": np.array(["a"], dtype=object)})


def _model_path(kind: str = "pegging") -> Path:
    return Path(str(packaged(PACKAGED_MODELS[kind])))


def _fresh_load(path: Path) -> em.ExpertModel:
    em._whole_file.cache_clear()
    return em.ExpertModel.load(path)


def test_the_model_from_its_fast_form_equals_the_file(cache: Path) -> None:
    path = _model_path()
    whole = em.ExpertModel._read_file(path, "the file")
    first = _fresh_load(path)  # reads the file, keeps the fast form
    kept = list(cache.glob("expert_model_*.raw"))
    assert len(kept) == 1
    fast = _fresh_load(path)
    assert fast._one_hand is not None and fast.pone_policy is not None
    assert fast.pone_policy._entries is None  # not read yet: the file is read when asked
    assert fast.fingerprint() == whole.fingerprint() == first.fingerprint()
    assert fast.provenance == whole.provenance
    for seat in Seat:
        for k in ("P", "F", "K"):
            a = getattr(fast.throws(seat), k)
            assert np.array_equal(a, getattr(whole.throws(seat), k))
            assert a.flags.writeable  # as read from the file: the type the kernels know
    twin = compile_policies([whole.opponent_policy(seat).entries() for seat in Seat])
    for name in CompiledPolicies.__dataclass_fields__:
        a, b = getattr(fast.one_hand_policies(), name), getattr(twin, name)
        assert np.array_equal(a, b) and np.asarray(a).dtype == np.asarray(b).dtype, name
    for seat in Seat:  # read from the file when first wanted, equal to the whole read
        for a, b in zip(fast.policy(seat).entries(), whole.policy(seat).entries(), strict=True):
            assert np.array_equal(a, b)
        assert np.array_equal(fast.policy(seat).pi, whole.policy(seat).pi)


def test_a_damaged_or_stale_fast_form_is_never_used(cache: Path, tmp_path: Path) -> None:
    source = _model_path("classic")
    path = tmp_path / "model.npz"
    path.write_bytes(source.read_bytes())
    _fresh_load(path)
    (kept,) = cache.glob("expert_model_*.raw")
    blob = bytearray(kept.read_bytes())
    blob[-1] ^= 1
    kept.write_bytes(bytes(blob))
    again = _fresh_load(path)  # damaged: read from the file and kept again
    assert again.pone_policy is not None and again.pone_policy._entries is not None
    assert read_raw(kept)[0]["fingerprint"] == again.fingerprint()
    # another model written over the file: its own fast form, never the old one's
    other = _model_path("lowball")
    path.write_bytes(other.read_bytes())
    os.utime(path, ns=(1, 1))
    changed = _fresh_load(path)
    lowball = em.ExpertModel._read_file(other, "x").fingerprint()
    assert changed.fingerprint() == lowball
    assert len(list(cache.glob("expert_model_*.raw"))) == 2
    # a fast form at this file's place that carries another file's key: not used
    where, _ = fast_form_path(path, "expert_model", em.FAST_FORM_VERSION)
    where.write_bytes(kept.read_bytes())  # the classic model's, keyed to its old stamp
    assert _fresh_load(path).fingerprint() == lowball
    # this file's key over arrays of another layout (a version not raised): not used
    where, key = fast_form_path(path, "expert_model", em.FAST_FORM_VERSION)
    write_raw(where, {"key": key, "fingerprint": "0", "provenance": {}}, {"x": np.zeros(2)})
    assert _fresh_load(path).fingerprint() == lowball


def test_an_edit_to_the_code_that_makes_a_fast_form_makes_it_again(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "maker.py"
    source.write_text("# the code that made the fast form\n")
    monkeypatch.setattr(em, "_FAST_FORM_CODE", (str(source),))
    path = _model_path("classic")
    _fresh_load(path)
    assert _fresh_load(path).pone_policy._entries is None  # type: ignore[union-attr]
    source.write_text("# the code, edited\n")
    edited = _fresh_load(path)  # not the fast form the old code made: the file itself
    assert edited.pone_policy is not None and edited.pone_policy._entries is not None
    assert len(list(cache.glob("expert_model_*.raw"))) == 2


def test_a_model_file_changed_while_in_use_is_one_clear_error(cache: Path, tmp_path: Path) -> None:
    path = tmp_path / "model.npz"
    path.write_bytes(_model_path("classic").read_bytes())
    _fresh_load(path)
    fast = _fresh_load(path)
    stamp = path.stat()
    path.write_bytes(_model_path("lowball").read_bytes())
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))  # the same stamp, other numbers
    em._whole_file.cache_clear()
    with pytest.raises(ModelError, match="changed while it was in use"):
        fast.policy(Seat.PONE).entries()


def test_the_pegging_table_from_its_fast_form_equals_the_file(cache: Path) -> None:
    with open(str(packaged(PACKAGED_PEGGING)), "rb") as fh:
        whole = pt.PeggingTable.load(fh)
    for _ in range(2):  # the file, then the fast form
        pt.packaged_pegging_table.cache_clear()
        table = pt.packaged_pegging_table()
        assert table.provenance == whole.provenance
        for k in ("peg_own", "peg_opp", "peg_se"):
            assert np.array_equal(getattr(table, k), getattr(whole, k))
        assert table.fingerprint() == whole.fingerprint()
    assert len(list(cache.glob("pegging_table_*.raw"))) == 1
    pt.packaged_pegging_table.cache_clear()


def test_the_board_table_from_its_fast_form_equals_the_file(cache: Path) -> None:
    from crib_analyze.artifacts import board_table as bt
    from crib_analyze.settings import PACKAGED_BOARD

    with open(str(packaged(PACKAGED_BOARD)), "rb") as fh:
        whole = bt.BoardTable.load(fh)
    for _ in range(2):  # the file, then the fast form
        bt.packaged_board_table.cache_clear()
        board = bt.packaged_board_table()
        assert board.provenance == whole.provenance
        assert np.array_equal(board.values, whole.values) and not board.values.flags.writeable
        assert board.fingerprint() == whole.fingerprint()
    assert len(list(cache.glob("board_table_*.raw"))) == 1
    bt.packaged_board_table.cache_clear()


def test_a_front_end_s_handler_waits_for_the_first_logger(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(notices, "_made", False)
    monkeypatch.setattr(notices, "_waiting", [])
    calls: list[str] = []
    notices.when_logging(lambda: calls.append("attached"))
    assert calls == []  # no logger yet: nothing imported, nothing attached
    notices.logger("crib_analyze.test")
    notices.logger("crib_analyze.test")
    assert calls == ["attached"]
    notices.when_logging(lambda: calls.append("at once"))
    assert calls == ["attached", "at once"]


@pytest.mark.parametrize(
    ("argv", "said"),
    [(["discard", *HAND, "--dealer"], "JC QH"), (["odds", "100-110", "--dealer"], "you deal")],
)
def test_a_warm_one_hand_process_loads_only_what_it_needs(
    cache: Path, argv: list[str], said: str
) -> None:
    """The second run (the fast forms kept by the first) imports none of numba, logging,
    zipfile (the compressed files) or hashlib's OpenSSL."""
    code = (
        "import sys\n"
        "from crib_analyze.__main__ import main\n"
        f"sys.argv = ['crib-analyze', *{argv!r}]\n"
        "try:\n    main()\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        "heavy = ('numba', 'logging', 'zipfile', '_hashlib')\n"
        "print('LOADED', sorted(m for m in heavy if m in sys.modules))\n"
    )
    runs = [
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env=os.environ,
            timeout=120,
        )
        for _ in range(2)
    ]
    for out in runs:
        assert out.returncode == 0, out.stderr
        assert said in out.stdout
    assert "LOADED ['zipfile']" in runs[0].stdout  # the files themselves, read once
    assert "LOADED []" in runs[1].stdout, runs[1].stdout[-300:]
    assert runs[0].stdout.split("LOADED")[0] == runs[1].stdout.split("LOADED")[0]


def test_only_the_newest_fast_forms_of_a_kind_are_kept(cache: Path, tmp_path: Path) -> None:
    from crib_analyze.storage.raw import KEEP_FAST_FORMS, keep_fast_form

    cache.mkdir(parents=True)
    for n in range(KEEP_FAST_FORMS + 3):  # the fast forms of files since changed
        old = cache / f"pegging_table_{n:016x}.raw"
        old.write_bytes(b"x")
        os.utime(old, ns=(n + 1, n + 1))
    other = cache / "expert_model_0000000000000000.raw"  # another kind: not touched
    other.write_bytes(b"x")
    os.utime(other, ns=(1, 1))
    source = tmp_path / "table.npz"
    source.write_bytes(b"a file")
    keep_fast_form(source, "pegging_table", 1, {}, {"a": np.zeros(3)})
    left = sorted(p.name for p in cache.glob("pegging_table_*.raw"))
    assert len(left) == KEEP_FAST_FORMS and other.exists()
    assert "pegging_table_0000000000000000.raw" not in left  # the oldest went first
    assert f"pegging_table_{KEEP_FAST_FORMS + 2:016x}.raw" in left
