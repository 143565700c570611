"""No file is used before it is checked: a fuzz of damaged inputs, and the fixed cases.

Each kind of file the tool reads (Parquet table, CSV table, expert model, pegging
table, board table, solver leads, hands file, game record, quiz answers, and the cached
expert cribs and crib-by-rank tables, read through a command with a private cache
folder) is made sound, read once through the command line (the clean answer), then
damaged in every way: bits flipped at random offsets, truncated, emptied, a block or
the tail zeroed, junk appended, replaced by a file of another kind, arrays scaled,
negated, swapped or renamed, columns swapped or renamed, a format from the future, a
CSV table's .meta.json missing; the structured damages also with their digests
recomputed, so the checks behind the digest (ranges, sums, fingerprints, checksums,
entries of a cache computed again) are reached. (The kernel cache is damaged through a
command in tests/test_caches.py: a damaged kernel is compiled again, which takes too
long for a fuzz.)
Each damaged file must give the clean answer or one error line (exit 1 or 2), never
exit 0 with another answer, never a traceback. Hands files and quiz answers are text a
person writes and carry no checksum: for them a changed line is a changed question,
so the rule is one line per bad line, the good lines answered, and no traceback.

make test runs 200 cases drawn with the commit (4 of them of the caches, whose damage
costs seconds to compute again); make test-all runs all 3,090; the report counts the
outcomes by kind.
"""

from __future__ import annotations

import contextlib
import json
import random
import shutil
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow.compute
import pyarrow.csv
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner, Result

from crib_analyze.api import generate_table
from crib_analyze.artifacts.board_table import packaged_board_table
from crib_analyze.artifacts.expert_model import packaged_model
from crib_analyze.artifacts.pegging_table import PeggingTable, packaged_pegging_table
from crib_analyze.artifacts.solver_leads import packaged_solver_leads
from crib_analyze.cli import cli
from crib_analyze.errors import ModelError
from crib_analyze.storage.npz import arrays_digest
from tests.conftest import rotating

RUNNER = CliRunner()
CASES_PER_KIND = 330
HAND = ["5H", "6S", "4D", "JC", "QH", "5C"]
#: the commands that read each cached file, and the file's name in the cache folder
CACHE_READERS = {
    "expert_cribs.npz": ["discard", *HAND, "--dealer", "--score", "100-95",
                         "--position-samples", "40", "-f", "csv"],
    "rank_cribs.npz": ["discard", "--game", "three", "--seat", "dealer", *HAND[:5], "--others",
                       "hand", "--samples", "40", "-f", "csv"],
    "throw_likelihoods.npz": ["play", "7C", "8D", "2C", "--pone", "--starter", "5H", "--played",
                              "3D 10S", "-f", "csv"],
}  # fmt: skip
CACHE_FILES: dict[str, str] = {}


@contextlib.contextmanager
def private_cache(folder: Path) -> Iterator[None]:
    """The derived arrays cached in ``folder`` (the kernels keep theirs), read afresh."""
    from crib_analyze.board import expert_throws
    from crib_analyze.crib import any_game_cribs
    from crib_analyze.play import matches
    from crib_analyze.storage import cache as cache_module

    saved = cache_module.cache_dir
    cache_module.cache_dir = lambda: folder  # type: ignore[assignment]
    expert_throws._THROW_ARRAYS.clear()
    any_game_cribs.crib_tables.cache_clear()
    matches._THROWS.clear()
    try:
        yield
    finally:
        cache_module.cache_dir = saved  # type: ignore[assignment]
        expert_throws._THROW_ARRAYS.clear()
        any_game_cribs.crib_tables.cache_clear()
        matches._THROWS.clear()


def through_cache(kind: str) -> Callable[[Path], Result]:
    """Read a cached file of ``kind`` the way a command does: put where the command
    looks for it, in a private cache folder."""

    def read(path: Path) -> Result:
        folder = path.parent / "cache"
        folder.mkdir(exist_ok=True)
        shutil.copy(path, folder / CACHE_FILES[kind])
        with private_cache(folder):
            return invoke(CACHE_READERS[kind])

    return read


@dataclass(frozen=True)
class Kind:
    """A kind of input: the sound file's name and how the command line reads it."""

    name: str
    read: Callable[[Path], Result]
    text: bool = False  # written by a person: no checksum
    slow: bool = False  # a damaged file costs seconds to compute again: few in make test


def invoke(args: list[str], stdin: str | bytes | None = None, env: dict[str, str] | None = None
           ) -> Result:  # fmt: skip
    return RUNNER.invoke(cli, args, input=stdin, env=env, prog_name="crib-analyze")


@pytest.fixture(scope="module")
def sound(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One sound file of each kind."""
    root = tmp_path_factory.mktemp("sound")
    generate_table(root / "t.parquet", limit=40)
    generate_table(root / "t.csv", limit=20)
    packaged_model().save(root / "model.npz")
    packaged_pegging_table().save(root / "pegging.npz")
    packaged_board_table().save(root / "board.npz")
    packaged_solver_leads().save(root / "leads.npz")
    (root / "hands.txt").write_text("5H 6S 4D JC QH 5C\n# a comment\n7C 8D 8H 9S KC 2D\n")
    (root / "answers.txt").write_text("5H 6S\n?\nq\n")
    (root / "record.txt").write_text(RECORD)
    for kind, args in CACHE_READERS.items():
        folder = root / f"cache-{kind}"
        folder.mkdir()
        with private_cache(folder):
            assert invoke(args).exit_code == 0
        (made,) = folder.glob(kind.removesuffix(".npz") + "_*.npz")
        CACHE_FILES[kind] = made.name
        shutil.copy(made, root / kind)
    return {p.name: p for p in root.iterdir() if p.is_file()}


RECORD = """deal
dealer: me
hand: 5H 6S 4D JC QH 5C
throw: JC QH
starter: 2D
play: 9C 6S 9D 4D
"""


def first_hand(table: Path) -> str:
    return str(pq.read_table(table, columns=["hand"]).column(0)[0])


def leads_text(path: Path) -> Result:
    """The solver's leads are read by the play of a rebuilt model (from the data dir):
    their loader's verdict stands in, as for the pegging table."""
    from crib_analyze.artifacts.solver_leads import SolverLeads

    try:
        leads = SolverLeads.load(path)
    except Exception as e:
        return _Verdict(1, "", f"Error: {e}\n")
    replies = b"" if leads.replies is None else leads.replies.tobytes()
    return _Verdict(0, leads.leads.tobytes().hex() + str(hash(replies)) + str(leads.provenance), "")


def pegging_text(path: Path) -> Result:
    """The pegging table has no reader on the command line but build-model (minutes):
    its loader's verdict stands in, as the one line the command would print."""
    try:
        table = PeggingTable.load(path)
    except Exception as e:
        return _Verdict(1, "", f"Error: {e}\n")
    text = b"".join(a.tobytes() for a in (table.peg_own, table.peg_opp, table.peg_se))
    return _Verdict(0, text.hex()[:4000] + str(hash(text)), "")


@dataclass
class _Verdict:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        return self.stdout + self.stderr


KINDS = {
    "t.parquet": Kind(
        "t.parquet",
        lambda p: invoke(
            [
                "discard",
                *first_hand(SOUND["t.parquet"]).split(),
                "--from-table",
                str(p),
                "-f",
                "csv",
            ]
        ),
    ),
    "t.csv": Kind(
        "t.csv",
        lambda p: invoke(
            ["crib-table", "--table", str(p), "--partial", "--role", "pone", "-f", "csv"]
        ),
    ),
    "model.npz": Kind(
        "model.npz",
        lambda p: invoke(
            [
                "discard",
                "5H",
                "6S",
                "4D",
                "JC",
                "QH",
                "5C",
                "--model",
                str(p),
                "--no-pegging",
                "-f",
                "csv",
            ]
        ),
    ),
    "pegging.npz": Kind("pegging.npz", pegging_text),  # type: ignore[arg-type]
    "leads.npz": Kind("leads.npz", leads_text),  # type: ignore[arg-type]
    "expert_cribs.npz": Kind("expert_cribs.npz", through_cache("expert_cribs.npz"), slow=True),
    "rank_cribs.npz": Kind("rank_cribs.npz", through_cache("rank_cribs.npz"), slow=True),
    "throw_likelihoods.npz": Kind("throw_likelihoods.npz", through_cache("throw_likelihoods.npz")),
    "record.txt": Kind("record.txt", lambda p: invoke(["review", str(p)]), text=True),
    "board.npz": Kind(
        "board.npz",
        lambda p: invoke(["odds", "100", "95", "-f", "csv"], env={"CRIB_ANALYZE_BOARD": str(p)}),
    ),
    "hands.txt": Kind(
        "hands.txt",
        lambda p: invoke(["discard", "--hands-file", str(p), "--no-pegging", "-f", "csv"]),
        text=True,
    ),
    "answers.txt": Kind(
        "answers.txt",
        lambda p: invoke(
            ["quiz", "--rounds", "2", "--seed", "3", "--role", "dealer"], stdin=p.read_bytes()
        ),
        text=True,
    ),
}
SOUND: dict[str, Path] = {}

BYTE_DAMAGE = [
    "flip", "flip", "flip", "truncate", "empty", "zero", "zero tail", "append", "other kind",
]  # fmt: skip
NPZ_DAMAGE = ["scale", "negate", "swap", "rename", "future"]
TABLE_DAMAGE = ["swap columns", "rename column", "future", "scale"]
TEXT_DAMAGE = ["flip", "truncate", "junk", "not utf-8", "crlf", "bom", "empty"]


def damages(kind: str) -> list[str]:
    if kind.endswith(".txt"):
        return TEXT_DAMAGE
    extra = NPZ_DAMAGE if kind.endswith(".npz") else TABLE_DAMAGE
    sidecar = ["no meta"] if kind.endswith(".csv") else []
    return BYTE_DAMAGE + extra + [f"{d} (digest recomputed)" for d in extra] + sidecar


def _npz_arrays(path: Path) -> dict[str, np.ndarray]:
    with np.load(path) as data:
        return {k: data[k] for k in data.files}


def _write_npz(path: Path, arrays: dict[str, np.ndarray], redigest: bool) -> None:
    if redigest and "digest" in arrays:
        arrays.pop("digest")
        arrays["digest"] = np.array(arrays_digest(arrays))
    with open(path, "wb") as fh:
        np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]


def damage_npz(path: Path, how: str, rng: random.Random, redigest: bool) -> None:
    arrays = _npz_arrays(path)
    numeric = [k for k, v in arrays.items() if v.dtype.kind in "fi" and v.size > 1]
    name = rng.choice(numeric)
    if how == "scale":
        factor = rng.choice([0.5, 2.0, 1.001, 1.01])
        if arrays[name].dtype.kind == "i":  # the leads: ranks moved by one
            arrays[name] = np.clip(arrays[name] + 1, -1, 12)
        else:
            arrays[name] = arrays[name] * factor
    elif how == "negate":
        arrays[name] = -arrays[name]
    elif how == "swap":
        same = [k for k in numeric if arrays[k].shape == arrays[name].shape and k != name]
        other = rng.choice(same) if same else name
        arrays[name], arrays[other] = arrays[other], arrays[name]
        if other == name:
            arrays[name] = arrays[name][::-1].copy()
    elif how == "rename":
        arrays[name + "_x"] = arrays.pop(name)
    elif how == "future":
        arrays["format"] = np.array(int(arrays["format"]) + 1)
    _write_npz(path, arrays, redigest)


def damage_table(path: Path, how: str, rng: random.Random, redigest: bool) -> None:
    from crib_analyze.table.file import metadata_digest, metadata_path

    numeric = ["hand_mean", "crib_mean", "dealer_net", "pone_net", "dealer_total", "pone_total"]
    if path.suffix == ".csv":
        table = pyarrow.csv.read_csv(path)
        meta_file = metadata_path(path)
        meta = json.loads(meta_file.read_text())
    else:
        table = pq.read_table(path)
        meta = json.loads(pq.read_metadata(path).metadata[b"crib_analyze"])
    a, b = rng.sample(numeric, 2)
    if how == "swap columns":
        ia, ib = table.schema.get_field_index(a), table.schema.get_field_index(b)
        ca, cb = table.column(a), table.column(b)
        table = table.set_column(ia, a, cb).set_column(ib, b, ca)
    elif how == "rename column":
        table = table.rename_columns([c + "_x" if c == a else c for c in table.column_names])
    elif how == "future":
        meta["format"] = int(meta["format"]) + 1
    elif how == "scale":  # every number 1 % more: a valid file, if its digests are redone
        for name in numeric:
            if name in table.column_names:
                i = table.schema.get_field_index(name)
                scaled = pyarrow.compute.multiply(table.column(name), 1.01)
                table = table.set_column(i, name, scaled)
    if path.suffix == ".csv":
        pyarrow.csv.write_csv(table, path)  # its data digest is not redone: a damaged copy
    if redigest and "meta_digest" in meta:
        names = None if path.suffix == ".csv" else table.column_names
        meta["meta_digest"] = metadata_digest(meta, names)
    if path.suffix == ".csv":
        meta_file.write_text(json.dumps(meta))
    else:
        table = table.replace_schema_metadata({b"crib_analyze": json.dumps(meta).encode()})
        pq.write_table(table, path, row_group_size=len(table))


def damage(path: Path, how: str, rng: random.Random) -> None:
    """Damage ``path`` in place (a CSV table's ``.meta.json`` may be the target)."""
    redigest = how.endswith("(digest recomputed)")
    base = how.removesuffix(" (digest recomputed)")
    if path.suffix == ".npz" and base in NPZ_DAMAGE:
        return damage_npz(path, base, rng, redigest)
    if base in TABLE_DAMAGE:
        return damage_table(path, base, rng, redigest)
    if base == "no meta":
        return path.with_name(path.name + ".meta.json").unlink()
    if path.suffix == ".csv" and rng.random() < 0.3:
        path = path.with_name(path.name + ".meta.json")  # the checksum beside the table
    data = bytearray(path.read_bytes())
    if base == "flip":
        for _ in range(rng.choice([1, 1, 2, 8, 40])):
            i = rng.randrange(len(data))
            data[i] ^= 1 << rng.randrange(8)
    elif base == "truncate":
        data = data[: rng.randrange(len(data))]
    elif base == "empty":
        data = bytearray()
    elif base == "zero":
        i, n = rng.randrange(len(data)), rng.choice([8, 64, 4096])
        data[i : i + n] = bytes(len(data[i : i + n]))
    elif base == "zero tail":  # a crash before the last blocks reached the disk
        i = len(data) - rng.choice([1, 16, 512, 4096, len(data) // 2])
        data[max(0, i) :] = bytes(len(data) - max(0, i))
    elif base == "append":
        data += rng.randbytes(rng.choice([1, 100, 5000]))
    elif base == "other kind":
        other = rng.choice([k for k in SOUND if k != path.name and not k.endswith(".json")])
        data = bytearray(SOUND[other].read_bytes())
    elif base == "junk":
        i = rng.randrange(len(data) + 1)
        data[i:i] = rng.choice([b"zz", b"5X", b"\x00", b"10", b" 5H", b"#", b"\n\n"])
    elif base == "not utf-8":
        i = rng.randrange(len(data) + 1)
        data[i:i] = b"\xff\xfe\x80"
    elif base == "crlf":
        data = data.replace(b"\n", b"\r\n")
    elif base == "bom":
        data = bytearray(b"\xef\xbb\xbf") + data
    else:
        raise AssertionError(how)
    path.write_bytes(bytes(data))


def _cases(kind: str) -> list[tuple[str, str, int]]:
    """Every damage of ``kind`` in turn, CASES_PER_KIND in all (SLOW_CASES for a slow kind)."""
    n = SLOW_CASES if KINDS[kind].slow else CASES_PER_KIND
    return [(kind, how, i) for i, how in enumerate((damages(kind) * n)[:n])]


SLOW_CASES = 60
ALL_CASES = [case for kind in KINDS for case in _cases(kind)]


@pytest.fixture(scope="module")
def clean(sound: dict[str, Path]) -> dict[str, Result]:
    SOUND.update(sound)
    answers = {}
    for name, kind in KINDS.items():
        result = kind.read(sound[name])
        assert result.exit_code == 0, (name, result.output)
        answers[name] = result
    return answers


@pytest.mark.slow
def test_damaged_files_give_the_clean_answer_or_one_error_line(
    sound: dict[str, Path], clean: dict[str, Result], tmp_path: Path
) -> None:
    outcomes: dict[str, int] = {"same": 0, "refused": 0, "text": 0}
    tally: dict[str, dict[str, int]] = {}
    slow = [case for case in ALL_CASES if KINDS[case[0]].slow]
    quick = [case for case in ALL_CASES if not KINDS[case[0]].slow]
    cases = rotating(quick, 196, "files-in") + rotating(slow, 4, "files-in-slow")
    for kind_name, how, i in cases:
        kind = KINDS[kind_name]
        folder = tmp_path / f"{kind_name}-{i}"
        folder.mkdir()
        path = folder / kind_name
        shutil.copy(sound[kind_name], path)
        if kind_name == "t.csv":
            shutil.copy(sound["t.csv.meta.json"], folder / "t.csv.meta.json")
        rng = random.Random(f"{kind_name}/{how}/{i}")
        damage(path, how, rng)
        result = kind.read(path)
        where = (kind_name, how, i, result.exit_code, result.output[-600:])
        assert "Traceback" not in result.output and "internal error" not in result.output, where
        assert result.exit_code in (0, 1, 2), where
        verdict = "text" if kind.text else "same" if result.exit_code == 0 else "refused"
        tally.setdefault(kind_name, {}).setdefault(verdict, 0)
        tally[kind_name][verdict] += 1
        if kind.text:
            outcomes["text"] += 1
            errors = [line for line in result.stderr.splitlines() if line.startswith("Error")]
            assert (result.exit_code == 0) == (not errors) or kind_name == "answers.txt", where
            continue
        if result.exit_code == 0:  # never another answer
            answer = result.stdout.replace(str(path), "FILE")
            assert answer == clean[kind_name].stdout.replace(str(sound[kind_name]), "FILE"), where
            outcomes["same"] += 1
        else:
            lines = result.stderr.strip().splitlines()
            assert len(lines) == 1 and lines[0].startswith("Error: "), where
            outcomes["refused"] += 1
    print(f"file fuzz outcomes: {outcomes}; by kind: {tally}")  # counts for docs/files.md
    assert outcomes["refused"] > 0, outcomes


# --- the fixed cases of issue 21 --------------------------------------------------------------


def test_a_model_with_impossible_policies_is_refused(tmp_path: Path) -> None:
    arrays = _saved_model(tmp_path)
    for key in [k for k in arrays if k.endswith("_pi")]:
        arrays[key] = np.full_like(arrays[key], -1.0)
    path = tmp_path / "bad.npz"
    _write_npz(path, arrays, redigest=True)  # a "valid" file: only the ranges can tell
    result = invoke(["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--model", str(path)])
    assert result.exit_code == 1, result.output
    assert "policy probabilities are not in [0, 1]" in result.stderr


@pytest.mark.parametrize("key", ["pone_K", "dealer_F"])
def test_a_model_whose_numbers_changed_under_its_fingerprint_is_refused(
    tmp_path: Path, key: str
) -> None:
    """Numbers moved 0.1 % (still in range) and the file's digest redone: the stored
    fingerprint no longer names them, and a model file given is refused, not used under
    a fingerprint that is not its own."""
    arrays = _saved_model(tmp_path)
    arrays[key] = arrays[key] * 1.001
    path = tmp_path / "moved.npz"
    _write_npz(path, arrays, redigest=True)
    result = invoke(["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--model", str(path)])
    assert result.exit_code == 1, result.output
    assert "do not match its fingerprint" in result.stderr, result.stderr


def _saved_model(tmp_path: Path) -> dict[str, np.ndarray]:
    path = tmp_path / "model.npz"
    packaged_model().save(path)
    return _npz_arrays(path)


def test_a_tiny_table_and_a_shard_say_what_they_cover(tmp_path: Path) -> None:
    tiny = tmp_path / "tiny.parquet"
    assert invoke(["table", "--limit", "1", "-q", "-o", str(tiny)]).exit_code == 0
    result = invoke(["crib-table", "--table", str(tiny)])
    assert result.exit_code == 2 and "a sample of the first 1 hand" in result.stderr
    result = invoke(["crib-table", "--table", str(tiny), "--partial"])
    assert result.exit_code == 0, result.output
    assert "from a sample of the first 1 hand: not every hand" in result.stdout
    check = invoke(["table", "check", str(tiny)])
    assert check.exit_code == 0 and "a sample of the first 1 hand" in check.stdout


def test_table_check_verifies_a_csv_table_by_its_checksum(tmp_path: Path) -> None:
    table = tmp_path / "x.csv"
    assert invoke(["table", "--limit", "3", "-q", "-o", str(table)]).exit_code == 0
    result = invoke(["table", "check", str(table)])
    assert result.exit_code == 0 and "data checksums match" in result.stdout, result.output
    text = table.read_text().replace(",", ";", 1)
    table.write_text(text)
    result = invoke(["table", "check", str(table)])
    assert result.exit_code == 1 and "does not match" in result.stderr, result.output


# --- the fixed cases of issue 32: nothing read unchecked ---------------------------------


def _csv_table(tmp_path: Path) -> Path:
    table = tmp_path / "t.csv"
    assert invoke(["table", "--limit", "10", "-o", str(table), "-q"]).exit_code == 0
    return table


#: ways a CSV table's .meta.json becomes unreadable (each switched the check off before)
META_DAMAGE: dict[str, Callable[[bytes], bytes]] = {
    "empty": lambda data: b"",
    "truncated": lambda data: data[: len(data) // 2],
    "zero-filled": lambda data: bytes(len(data)),
    "another file": lambda data: b"5H 6S 4D JC QH 5C\n",
    "a flipped bit that breaks the JSON": lambda data: data[:-1] + bytes([data[-1] ^ 0x40]),
    "not text": lambda data: b"\xff\xfe" + data,
}


@pytest.mark.parametrize("how", list(META_DAMAGE))
def test_an_unreadable_csv_meta_is_an_error_naming_it(tmp_path: Path, how: str) -> None:
    table = _csv_table(tmp_path)
    meta = table.with_name("t.csv.meta.json")
    meta.write_bytes(META_DAMAGE[how](meta.read_bytes()))
    text = table.read_text()  # the data changed too: the check must not be off
    table.write_text(text.replace("14.204384716732545", "19.204384716732545", 1))
    for args in (
        ["discard", "AC", "AD", "AH", "AS", "2C", "2D", "--opponent", "random",
         "--from-table", str(table)],
        ["crib-table", "--table", str(table), "--partial"],
        ["table", "check", str(table)],
    ):  # fmt: skip
        result = invoke(args)
        lines = result.stderr.strip().splitlines()
        assert result.exit_code == 1 and result.stdout == "", (how, args, result.output)
        assert len(lines) == 1 and f"{meta} is damaged" in lines[0], (how, args, lines)


def test_a_csv_table_without_provenance_is_refused_unless_trusted(tmp_path: Path) -> None:
    table = _csv_table(tmp_path)
    table.with_name("t.csv.meta.json").unlink()
    sound = table.read_text()
    rows = sound.splitlines(keepends=True)
    rows[40] = rows[40].replace("false", "fadse", 1)  # another hand's row
    table.write_text("".join(rows))
    hand = ["AC", "AD", "AH", "AS", "2C", "2D"]
    args = ["discard", *hand, "--opponent", "random", "--from-table", str(table)]
    result = invoke(args)
    assert result.exit_code == 1 and result.stdout == "", result.output
    assert "has no .meta.json beside it" in result.stderr and "--trust-unverified" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    trusted = invoke([*args, "--trust-unverified"])  # read unchecked, but a flag is a flag
    assert trusted.exit_code == 1 and "_best does not hold true or false" in trusted.stderr
    table.write_text(sound)
    for fmt in ("table", "csv"):
        trusted = invoke(
            ["discard", *hand, "--opponent", "random", "--from-table", str(table),
             "--trust-unverified", "-f", fmt]
        )  # fmt: skip
        assert trusted.exit_code == 0, trusted.output
        assert "read unchecked (--trust-unverified)" in trusted.stderr  # whatever the format
        if fmt == "table":
            assert "read unchecked (--trust-unverified)" in trusted.stdout
    crib = invoke(["crib-table", "--table", str(table), "--partial", "--trust-unverified"])
    assert crib.exit_code == 0 and "read unchecked" in crib.stdout, crib.output
    check = invoke(["table", "check", str(table)])  # the check names what is missing
    assert check.exit_code == 1 and "has no t.csv.meta.json beside it" in check.stderr


def test_a_table_whose_metadata_lacks_its_digests_is_refused(tmp_path: Path) -> None:
    from crib_analyze.table.file import metadata_digest

    table = tmp_path / "t.parquet"
    generate_table(table, limit=5)
    data = pq.read_table(table)
    meta = json.loads(pq.read_metadata(table).metadata[b"crib_analyze"])
    meta.pop("column_checksums")
    meta["meta_digest"] = metadata_digest(meta, data.column_names)  # a "valid" file
    data = data.replace_schema_metadata({b"crib_analyze": json.dumps(meta).encode()})
    pq.write_table(data, table)
    hand = first_hand(table).split()
    result = invoke(["discard", *hand, "--from-table", str(table), "--opponent", "random"])
    assert result.exit_code == 1 and "has no checksums of its data" in result.stderr, result.output
    csv = _csv_table(tmp_path)
    meta_file = csv.with_name("t.csv.meta.json")
    meta = json.loads(meta_file.read_text())
    meta.pop("file_digest")
    meta["meta_digest"] = metadata_digest(meta, None)
    meta_file.write_text(json.dumps(meta))
    result = invoke(["crib-table", "--table", str(csv), "--partial"])
    assert result.exit_code == 1 and "no digest of its data" in result.stderr, result.output


@pytest.mark.parametrize("kind", ["model.npz", "board.npz"])
def test_an_artifact_without_its_digest_is_refused(
    tmp_path: Path, sound: dict[str, Path], kind: str
) -> None:
    arrays = _npz_arrays(sound[kind])
    arrays.pop("digest")
    path = tmp_path / kind
    _write_npz(path, arrays, redigest=False)
    result = KINDS[kind].read(path)
    assert result.exit_code == 1 and "digest" in result.stderr, result.output
    assert len(result.stderr.strip().splitlines()) == 1


def test_a_damaged_solver_leads_file_is_an_error_not_another_reading() -> None:
    """Leads a rebuilt model finds in the data dir: damaged, they are an error (before,
    the solver read the model by the softmax alone and answered, exit 0)."""
    from crib_analyze.artifacts import solver_leads
    from crib_analyze.artifacts.solver_leads import SolverLeads, packaged_solver_leads
    from crib_analyze.settings import default_leads_output

    fingerprint = "a rebuilt model"
    leads = SolverLeads(packaged_solver_leads().leads, {"expert_model": fingerprint})
    path = default_leads_output()  # in the test's private data dir
    leads.save(path)
    assert solver_leads.leads_for(fingerprint) is not None
    path.write_bytes(path.read_bytes()[:-200])
    with pytest.raises(ModelError, match="rebuild them"):
        solver_leads.leads_for(fingerprint)
    assert solver_leads.leads_for(packaged_model().fingerprint()) is not None  # shipped


def test_verbose_says_what_was_read_and_how_it_was_checked(tmp_path: Path) -> None:
    table = tmp_path / "t.parquet"
    generate_table(table, limit=5)
    hand = first_hand(table).split()
    expected = {
        ("discard", *HAND, "--dealer"): ["the expert model", "the pegging table"],
        ("odds", "100", "95"): ["the board table"],
        ("crib-table", "--role", "pone"): ["the packaged crib table"],
        ("crib-table", "--table", str(table), "--partial"): [f"the table {table}"],
        ("discard", *hand, "--from-table", str(table), "--opponent", "random"): [
            f"the table {table}: metadata digest, page CRCs and checksums"
        ],
    }
    for args, needles in expected.items():
        for fmt in ("table", "csv"):
            result = invoke([*args, "-v", "-f", fmt])
            assert result.exit_code == 0, (args, result.output)
            lines = [line for line in result.stderr.splitlines() if line.startswith("checked ")]
            for needle in needles:
                assert any(needle in line for line in lines), (args, needle, result.stderr)
            quiet = invoke([*args, "-f", fmt])
            assert "checked " not in quiet.stderr  # only when asked
