"""The expert opponent's model: what a player of each seat throws, and loading it.

Point of view. Every throw model and policy here is named by the **seat of the player
who throws**: ``pone_throws`` / ``pone_policy`` describe what a *pone* throws (into the
dealer's crib), ``dealer_throws`` / ``dealer_policy`` what a *dealer* throws (into its
own crib). When *you* deal you face the pone's throws; when you are pone, the dealer's:
:meth:`ExpertModel.opponent_policy` takes *your* role and answers with the other seat.

Two forms per seat:

* a compact :class:`ThrowModel` (rank pair, suited share, kept ranks) that the fixed
  point of :mod:`crib_analyze.expert.builder` iterates on;
* the final :class:`ThrowPolicy`, each rank multiset's best response to the converged
  models, which ``--opponent expert`` plays against.

The packaged model ships inside the package (``data/expert_model.npz`` in the source tree);
a rebuilt one is used only when pointed at (``model=PATH`` or ``$CRIB_ANALYZE_MODEL``).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import IO, Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.constants import N_MULTISETS
from crib_analyze.crib import one_hand
from crib_analyze.crib.one_hand import CompiledPolicies, compile_policies
from crib_analyze.errors import ModelError, StorageError, describe_os_error
from crib_analyze.position import Seat
from crib_analyze.settings import (
    MODEL_ENV,
    MODEL_KINDS,
    PACKAGED_MODELS,
    check_choice,
    packaged,
)
from crib_analyze.storage import checked
from crib_analyze.storage.atomic import atomic_open
from crib_analyze.storage.npz import arrays_digest, blake2b
from crib_analyze.storage.raw import keep_fast_form, read_fast_form

MODEL_FORMAT = 2  # 2: the policies' nonzero entries; 1 (still read): the whole tables
READ_FORMATS = (1, 2)
PACKAGED_SOURCE = "packaged"


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class ThrowModel:
    """What a player of one seat throws: P[a, b], F[a, b], K[a, b, c]."""

    P: np.ndarray  # (13, 13) probability of the rank pair a <= b
    F: np.ndarray  # (13, 13) suited share, a < b
    K: np.ndarray  # (13, 13, 13) expected kept cards of rank c with that throw

    @classmethod
    def random(cls) -> ThrowModel:
        """The random opponent as a throw model (reproduces it exactly)."""
        P = np.zeros((13, 13))
        F = np.zeros((13, 13))
        K = np.zeros((13, 13, 13))
        for a in range(13):
            for b in range(a, 13):
                P[a, b] = (6 if a == b else 16) / 1326
                F[a, b] = 0.25 if a < b else 0.0
                for c in range(13):
                    K[a, b, c] = 4 * (4 - (c == a) - (c == b)) / 50
        return cls(P, F, K)

    @classmethod
    def from_stats(cls, mass: np.ndarray, suited: np.ndarray, kept: np.ndarray) -> ThrowModel:
        """Normalise weighted throw counts; unthrown pairs keep the random K and F."""
        base = cls.random()
        total = mass.sum()
        with np.errstate(invalid="ignore", divide="ignore"):
            F = np.where(mass > 0, suited / mass, base.F)
            K = np.where(mass[:, :, None] > 0, kept / mass[:, :, None], base.K)
        return cls(mass / total, F, K)

    @classmethod
    def from_arrays(cls, P: Any, F: Any, K: Any) -> ThrowModel:
        """Checked construction (shapes, finite, probabilities summing to 1)."""
        P, F, K = (np.asarray(x, dtype=np.float64) for x in (P, F, K))
        if P.shape != (13, 13) or F.shape != (13, 13) or K.shape != (13, 13, 13):
            raise ModelError("throw model arrays have the wrong shape")
        if not all(np.isfinite(x).all() for x in (P, F, K)):
            raise ModelError("throw model arrays are not finite")
        if not np.isclose(P.sum(), 1.0) or (P < 0).any():
            raise ModelError("throw model probabilities do not sum to 1")
        if (F < 0).any() or (F > 1).any():
            raise ModelError("throw model suited shares are not in [0, 1]")
        if (K < 0).any() or (K > 4).any():
            raise ModelError("throw model kept-card counts are not in [0, 4]")
        return cls(P, F, K)


Entries = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class ThrowPolicy:
    """A seat's throwing policy per rank multiset: ``pi[m, d]`` = P(a hand of multiset m
    throws its discard d), ``suited[m, d]`` = the suited part of it. It is kept as
    these whole tables or as their nonzero entries (:meth:`entries`: what a file holds,
    a fifth of the tables, and all the one-hand path reads); each form is made from the
    other when first asked for."""

    __slots__ = ("_entries", "_load", "_pi", "_suited")

    def __init__(
        self,
        pi: np.ndarray | None = None,
        suited: np.ndarray | None = None,
        *,
        entries: Entries | None = None,
        load: Callable[[], Entries] | None = None,
    ) -> None:
        if (pi is None or suited is None) and entries is None and load is None:
            raise ValueError("a policy needs its tables, its entries or their loader")
        self._pi, self._suited, self._entries, self._load = pi, suited, entries, load

    @classmethod
    def from_entries(
        cls, multiset: np.ndarray, throw: np.ndarray, pi: np.ndarray, suited: np.ndarray
    ) -> ThrowPolicy:
        """The policy whose nonzero throws are these (the others are never thrown)."""
        return cls(entries=(multiset, throw, pi, suited))

    @property
    def pi(self) -> np.ndarray:  # (18,395, 15)
        if self._pi is None:
            self._dense()
        return self._pi  # type: ignore[return-value]

    @property
    def suited(self) -> np.ndarray:  # (18,395, 15)
        if self._suited is None:
            self._dense()
        return self._suited  # type: ignore[return-value]

    def _dense(self) -> None:
        multiset, throw, pi, suited = self.entries()
        self._pi, self._suited = np.zeros((N_MULTISETS, 15)), np.zeros((N_MULTISETS, 15))
        self._pi[multiset, throw] = pi
        self._suited[multiset, throw] = suited

    def entries(self) -> Entries:
        """(multiset, throw, pi, suited) of every nonzero throw, by multiset then throw."""
        if self._entries is None and self._pi is None and self._load is not None:
            self._entries = self._load()  # read from the model file when first wanted
        if self._entries is None:
            multiset, throw = np.nonzero(self.pi)
            self._entries = (
                multiset,
                throw,
                self.pi[multiset, throw],
                self.suited[multiset, throw],
            )
        return self._entries


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class ExpertModel:
    """The expert opponent: per seat, the compact throw model the fixed point iterates
    on and the final policy (best response to it) tabulated per rank multiset."""

    pone_throws: ThrowModel
    dealer_throws: ThrowModel
    pone_policy: ThrowPolicy | None = None
    dealer_policy: ThrowPolicy | None = None
    provenance: dict[str, Any] = field(default_factory=dict)
    #: where it was read from: "packaged" or a file path ("" when built in memory)
    source: str = field(default="", compare=False)
    _compiled: tuple[np.ndarray, ...] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _stacked: tuple[np.ndarray, np.ndarray] | None = field(
        default=None, init=False, repr=False, compare=False
    )
    _fingerprint: str | None = field(default=None, init=False, repr=False, compare=False)
    _one_hand: CompiledPolicies | None = field(default=None, init=False, repr=False, compare=False)

    def throws(self, seat: Seat | str) -> ThrowModel:
        """The compact throw model of the player in ``seat`` (a Seat or its name)."""
        return self.pone_throws if Seat.of(seat) is Seat.PONE else self.dealer_throws

    def policy(self, seat: Seat | str) -> ThrowPolicy:
        """The tabulated policy of the player in ``seat``."""
        policy = self.pone_policy if Seat.of(seat) is Seat.PONE else self.dealer_policy
        if policy is None:
            raise ModelError("this expert model has no tabulated policy; rebuild it")
        return policy

    def opponent_policy(self, role: Seat | str) -> ThrowPolicy:
        """The policy your opponent throws by when *you* sit in ``role`` (you deal: the pone's)."""
        return self.policy(Seat.of(role).other)

    def __repr__(self) -> str:
        """One line: where it came from, when it was built, its fingerprint."""
        return f"ExpertModel({self.describe()})"

    def fingerprint(self) -> str:
        """A short digest of the model's numbers (tables made with it carry it); cached."""
        if self._fingerprint is None:
            object.__setattr__(self, "_fingerprint", self._digest())
        return self._fingerprint  # type: ignore[return-value]

    def _digest(self) -> str:
        h = blake2b(digest_size=8)
        for m in (self.pone_throws, self.dealer_throws):
            for arr in (m.P, m.F, m.K):
                h.update(np.ascontiguousarray(arr).tobytes())
        for pol in (self.pone_policy, self.dealer_policy):
            if pol is not None:
                h.update(np.ascontiguousarray(pol.pi).tobytes())
                h.update(np.ascontiguousarray(pol.suited).tobytes())
        return h.hexdigest()

    def describe(self) -> str:
        """One line naming the model for output: where it came from, when, its digest."""
        if self.source.startswith(PACKAGED_SOURCE):
            kind = self.source[len(PACKAGED_SOURCE) :].strip()
            label = {"pegging": "pegging-aware"}.get(kind, kind)
            where = f"packaged expert model ({label})" if kind else "packaged expert model"
        else:
            where = f"expert model {self.source}" if self.source else "expert model (in memory)"
        built = str(self.provenance.get("created_at", "?"))[:10]
        return f"{where} (built {built}, fingerprint {self.fingerprint()})"

    def opponent_policy_arrays(self) -> tuple[np.ndarray, np.ndarray]:
        """(pi, suited), each (2, 18395, 15): the policies your opponent throws by, by
        *your* seat (``[Seat.PONE]`` the dealer's, ``[Seat.DEALER]`` the pone's)."""
        if self._stacked is None:
            pols = [self.opponent_policy(seat) for seat in Seat]
            stacked = (np.stack([p.pi for p in pols]), np.stack([p.suited for p in pols]))
            object.__setattr__(self, "_stacked", stacked)  # a cache on a frozen record
        return self._stacked  # type: ignore[return-value]

    def compiled_policies(self) -> tuple[np.ndarray, ...]:
        """:meth:`opponent_policy_arrays` in the sparse form of
        :func:`crib_analyze.crib.throw_policy_kernels.compile_policy`; built once per model."""
        if self._compiled is None:
            from crib_analyze.crib import throw_policy_kernels as pk  # compiles: not at import
            from crib_analyze.crib.hand_classes import multisets

            self.remember_compiled(pk.compile_policy(multisets(), *self.opponent_policy_arrays()))
        return self._compiled  # type: ignore[return-value]

    def one_hand_policies(self) -> CompiledPolicies:
        """:meth:`opponent_policy_arrays` in the flat form of the numpy one-hand path
        (:func:`crib_analyze.crib.one_hand.compile_policies`); built once per model."""
        if self._one_hand is None:
            entries = [self.opponent_policy(seat).entries() for seat in Seat]
            object.__setattr__(self, "_one_hand", compile_policies(entries))
        return self._one_hand  # type: ignore[return-value]

    def known_compiled_policies(self) -> tuple[np.ndarray, ...]:
        """The compiled policies if built, else :meth:`empty_compiled` (for kernels that
        compile them themselves)."""
        return self._compiled if self._compiled is not None else self.empty_compiled()

    @staticmethod
    def empty_compiled() -> tuple[np.ndarray, ...]:
        """Compiled policies of no policy: empty arrays of the right types."""
        ints, floats = np.empty((0, 2), np.int64), np.empty(0, np.float64)
        return np.empty((0, 6, 2), np.int64), np.empty((0, 0), np.int64), ints, floats, floats

    def remember_compiled(self, compiled: tuple[np.ndarray, ...]) -> None:
        """Keep compiled policies (from :meth:`compiled_policies` or a kernel)."""
        object.__setattr__(self, "_compiled", tuple(compiled))

    def save(self, path: str | os.PathLike[str]) -> None:
        """One compressed .npz, written atomically: both seats' compact models and
        policies, and the provenance (JSON)."""
        arrays: dict[str, np.ndarray] = {
            "format": np.array(MODEL_FORMAT),
            "provenance": np.array(json.dumps(self.provenance)),
            "fingerprint": np.array(self.fingerprint()),  # so a reader need not hash
        }
        for seat in Seat:
            m, name = self.throws(seat), seat.role
            arrays |= {f"{name}_P": m.P, f"{name}_F": m.F, f"{name}_K": m.K}
            pol = self.pone_policy if seat is Seat.PONE else self.dealer_policy
            if pol is not None:  # the nonzero throws only (a fifth of the table)
                multiset, throw, pi, suited = pol.entries()
                arrays |= {
                    f"{name}_multiset": multiset.astype(np.uint16),
                    f"{name}_throw": throw.astype(np.uint8),
                    f"{name}_pi": pi,
                    f"{name}_suited": suited,
                }
        arrays["digest"] = np.array(arrays_digest(arrays))  # of everything, policies too
        try:
            with atomic_open(path, "wb") as fh:
                np.savez_compressed(fh, **arrays)  # type: ignore[arg-type]
        except OSError as e:
            raise StorageError(
                f"cannot write the model to {path}: {describe_os_error(e)}"
            ) from None

    @classmethod
    def load(cls, path: str | os.PathLike[str], source: str | None = None) -> ExpertModel:
        """Read a model file (``source`` names it, else its path): from its fast form in
        the cache folder when that is sound (:func:`_fast_form`), else the file itself,
        then kept in that form for the next process. Any damage to the file is a
        one-line :class:`ModelError`."""
        name = str(path) if source is None else source
        fast = _fast_form(Path(path), name)
        if fast is not None:
            return fast
        model = cls._read_file(path, name)
        _keep_fast_form(Path(path), model)
        return model

    @classmethod
    def _read_file(cls, path: str | os.PathLike[str], source: str) -> ExpertModel:
        try:
            with interrupts.at_once(), open(path, "rb") as fh:  # a FIFO: Ctrl-C heard
                return cls._read(fh, source)
        except OSError as e:
            raise ModelError(f"cannot read expert model {path}: {describe_os_error(e)}") from None

    @classmethod
    def _read(cls, fh: IO[bytes], source: str) -> ExpertModel:
        name = "the packaged expert model" if source == PACKAGED_SOURCE else source
        try:
            with np.load(fh, allow_pickle=False) as data:
                arrays = {k: data[k] for k in data.files}
        except Exception as e:  # zip, zlib, format errors of a damaged file
            raise ModelError(f"cannot read {name}: damaged or not a model file ({e})") from None
        stored_digest = str(arrays.pop("digest", ""))
        try:
            fmt = int(arrays.get("format", -1))
        except (TypeError, ValueError):
            fmt = -1
        if fmt not in READ_FORMATS:  # what the file is, before whether it is whole
            raise ModelError(f"{name} is not an expert model of format {MODEL_FORMAT}")
        if not stored_digest:
            raise ModelError(f"{name} carries no digest, so it cannot be checked; rebuild it")
        if stored_digest != arrays_digest(arrays):
            raise ModelError(
                f"{name}: its arrays do not match their digest (the file was changed after "
                "it was made); rebuild it (build-model)"
            )
        try:
            seats = [seat.role for seat in Seat]
            throws = {
                seat: ThrowModel.from_arrays(*(arrays[f"{seat}_{k}"] for k in ("P", "F", "K")))
                for seat in seats
            }
            policies = {
                seat: _read_policy(arrays, seat, fmt) if f"{seat}_pi" in arrays else None
                for seat in seats
            }
            provenance = dict(json.loads(str(arrays["provenance"])))
        except ModelError as e:
            raise ModelError(f"{name}: {e}") from None
        except (KeyError, TypeError, ValueError) as e:
            raise ModelError(f"{name}: bad expert model ({e})") from None
        for pol in policies.values():
            if pol is not None:
                problem = _policy_problem(pol)
                if problem:
                    raise ModelError(f"{name}: {problem}; rebuild it (build-model)")
        model = cls(
            throws["pone"],
            throws["dealer"],
            policies["pone"],
            policies["dealer"],
            provenance,
            source=source,
        )
        stored = str(arrays.get("fingerprint", ""))  # written by save(): these arrays' digest
        if stored and source == PACKAGED_SOURCE:  # ours, whole: no need to hash again
            object.__setattr__(model, "_fingerprint", stored)
        elif stored and stored != model.fingerprint():  # a file given: its numbers hashed
            raise ModelError(
                f"{name}: its numbers do not match its fingerprint {stored} (the file was "
                "changed after it was made); rebuild it (build-model)"
            )
        checked.note(
            f"the expert model ({source})",
            f"format {fmt}, digest matched (fingerprint {model.fingerprint()}); policies in range",
        )
        return model


#: the fast form's layout: raise it when what it holds (or CompiledPolicies) changes
FAST_FORM_VERSION = 2
_THROW_ARRAYS = ("P", "F", "K")
#: the sources that make and read the fast form: an edit to them makes it again
_FAST_FORM_CODE = (__file__, one_hand.__file__)


def _fast_form(path: Path, source: str) -> ExpertModel | None:
    """The model file at ``path`` from its fast form in the cache folder
    (:func:`~crib_analyze.storage.raw.read_fast_form`), if one is kept and sound: the
    throw models, the provenance and fingerprint, and the policies in the form the
    one-hand path reads (:class:`CompiledPolicies`); each seat's policy entries are read
    from the file itself when first wanted. None if there is none."""
    found = read_fast_form(
        path, "expert_model", FAST_FORM_VERSION, _fast_form_names(), _FAST_FORM_CODE
    )
    if found is None:
        return None
    meta, arrays, where = found
    fingerprint = str(meta["fingerprint"])
    throws = [  # writable copies, as read from a file (a kernel's array type)
        ThrowModel(*(np.array(arrays[f"{seat.role}_{k}"]) for k in _THROW_ARRAYS)) for seat in Seat
    ]
    policies = [
        ThrowPolicy(load=partial(_file_policy, path, seat.role, fingerprint)) for seat in Seat
    ]
    model = ExpertModel(
        throws[Seat.PONE], throws[Seat.DEALER], policies[Seat.PONE], policies[Seat.DEALER],
        dict(meta["provenance"]), source=source,
    )  # fmt: skip
    compiled = {k[len("one_hand_") :]: v for k, v in arrays.items() if k.startswith("one_hand_")}
    object.__setattr__(model, "_fingerprint", fingerprint)
    object.__setattr__(model, "_one_hand", CompiledPolicies(n_policies=len(Seat), **compiled))
    checked.note(
        f"the expert model ({source})",
        f"its fast form in the cache ({where.name}): CRC-32 matched, made from the file "
        f"when its digest matched (fingerprint {fingerprint})",
    )
    return model


@cache
def _fast_form_names() -> frozenset[str]:
    seats = [f"{seat.role}_{k}" for seat in Seat for k in _THROW_ARRAYS]
    fields = [f"one_hand_{f}" for f in CompiledPolicies.__dataclass_fields__ if f != "n_policies"]
    return frozenset(seats + fields)


def _keep_fast_form(path: Path, model: ExpertModel) -> None:
    """Keep the fast form of ``model``, read from ``path`` (a model without both
    policies has none)."""
    if model.pone_policy is None or model.dealer_policy is None:
        return
    compiled = model.one_hand_policies()
    arrays: dict[str, Any] = {
        f"one_hand_{f}": getattr(compiled, f)
        for f in CompiledPolicies.__dataclass_fields__
        if f != "n_policies"
    }
    for seat in Seat:
        arrays |= {f"{seat.role}_{k}": getattr(model.throws(seat), k) for k in _THROW_ARRAYS}
    meta = {"provenance": model.provenance, "fingerprint": model.fingerprint()}
    keep_fast_form(path, "expert_model", FAST_FORM_VERSION, meta, arrays, _FAST_FORM_CODE)


def _file_policy(path: Path, role: str, fingerprint: str) -> Entries:
    """The policy entries of the seat ``role`` read from the model file at ``path``,
    which must still hold the model of ``fingerprint``."""
    model = _whole_file(path)
    if model.fingerprint() != fingerprint:
        raise ModelError(
            f"expert model {path} changed while it was in use (fingerprint "
            f"{model.fingerprint()}, not {fingerprint})"
        )
    return model.policy(role).entries()


@cache
def _whole_file(path: Path) -> ExpertModel:
    return ExpertModel._read_file(path, str(path))


def _read_policy(arrays: dict[str, np.ndarray], seat: str, fmt: int) -> ThrowPolicy:
    """A seat's policy from a file: its nonzero entries (format 2, checked before they
    are placed) or its whole tables (format 1)."""
    pi = np.asarray(arrays[f"{seat}_pi"], np.float64)
    suited = np.asarray(arrays[f"{seat}_suited"], np.float64)
    if fmt == 1:
        return ThrowPolicy(pi, suited)
    multiset = np.asarray(arrays[f"{seat}_multiset"]).astype(np.int64)
    throw = np.asarray(arrays[f"{seat}_throw"]).astype(np.int64)
    if not (multiset.shape == throw.shape == pi.shape == suited.shape and pi.ndim == 1):
        raise ModelError("policy entries of different lengths")
    if multiset.size and (multiset.max() >= N_MULTISETS or throw.max() >= 15):
        raise ModelError("policy entries outside the table")
    if multiset.size and np.any(np.diff(multiset * 15 + throw) <= 0):
        raise ModelError("policy entries out of order or repeated")
    return ThrowPolicy.from_entries(multiset, throw, pi, suited)


def _policy_problem(pol: ThrowPolicy) -> str | None:
    """What is impossible in a tabulated policy, if anything (checked on its entries)."""
    if pol._pi is not None and (
        pol._pi.shape != (N_MULTISETS, 15) or pol.suited.shape != (N_MULTISETS, 15)
    ):
        return "policy arrays have the wrong shape"
    multiset, _, pi, suited = pol.entries()
    if not (np.isfinite(pi).all() and np.isfinite(suited).all()):
        return "policy arrays are not finite"
    if (pi < 0).any() or (pi > 1 + 1e-12).any():
        return "policy probabilities are not in [0, 1]"
    if np.abs(np.bincount(multiset, pi, N_MULTISETS) - 1).max() > 1e-9:
        return "policy probabilities do not sum to 1 for every rank multiset"
    if (suited < 0).any() or (suited > pi + 1e-12).any():
        return "policy suited shares are not within the throws' probabilities"
    return None


@cache
def packaged_model(kind: str = "pegging") -> ExpertModel:
    """An expert model shipped with the package (read once per process): ``pegging``
    (throws chosen on hand +- crib + pegging, the default), ``classic`` (hand +- crib
    only, as the published crib tables assume), ``throw-fives`` (classic, every five
    held thrown), ``lowball`` (classic, the fewest points wanted) or
    ``throw-fives-lowball`` (both)."""
    check_choice("expert model kind", kind, MODEL_KINDS)
    model = ExpertModel.load(Path(str(packaged(PACKAGED_MODELS[kind]))), PACKAGED_SOURCE)
    object.__setattr__(model, "source", f"{PACKAGED_SOURCE} {kind}")
    return model


@cache
def _model_file(path: str, stamp: tuple[int, int]) -> ExpertModel:
    return ExpertModel.load(path)


def load_model(path: str | os.PathLike[str] | None = None, kind: str = "pegging") -> ExpertModel:
    """The expert model to use: ``path`` if given, else ``$CRIB_ANALYZE_MODEL`` if set,
    else the packaged model of ``kind`` (pegging or classic). Files are read once per
    process (again if they change)."""
    chosen = path if path is not None else os.environ.get(MODEL_ENV) or None
    if chosen is None:
        return packaged_model(kind)
    p = Path(chosen).expanduser()
    try:
        st = p.stat()
    except OSError as e:
        via = f" (from ${MODEL_ENV})" if path is None else ""
        raise ModelError(f"no expert model at {p}{via}: {describe_os_error(e)}") from None
    return _model_file(str(p), (st.st_mtime_ns, st.st_size))
