"""The board table: from every position, the chance of each way the game can end.

A position is (my score, the opponent's, whether I deal this deal), scores 0-120. The
table holds, for each, the probability of the eight outcomes of :data:`OUTCOMES` (a
win or a loss, plain or by a skunk, double or triple skunk) and the expected number of
deals still to play. It is computed by dynamic programming
(:mod:`crib_analyze.board.dp_kernels`) over the scoring events of simulated deals
(:mod:`crib_analyze.board.event_kernels`): both players throw by the expert model and
play the default policy. Given those deals it is exact; their sampling error is
measured by building the table from each half of them as well (see
:attr:`BoardTable.provenance`). It ships inside the package and is rebuilt by
``crib-analyze build-board``.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import itertools
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from crib_analyze.atomic import atomic_open
from crib_analyze.board import deal_kernels as dlk
from crib_analyze.board import dp_kernels as dpk
from crib_analyze.board import event_kernels as evk
from crib_analyze.defaults import (
    PACKAGED_BOARD,
    SCORINGS,
    SKUNK_LINES,
    TARGET,
    __version__,
    cache_dir,
    check_choice,
    packaged,
)
from crib_analyze.errors import ModelError, StorageError, UsageError, describe_os_error
from crib_analyze.expert_model import ExpertModel, load_model
from crib_analyze.hand_classes import multisets
from crib_analyze.npz_store import read_npz, write_npz
from crib_analyze.play.matches import kept_rank_weights, policy_code, rank_multiset_keys
from crib_analyze.play.pegging_table import keep_rows, packaged_pegging_table
from crib_analyze.score_kernels import rank_table

BOARD_FORMAT = 1
BOARD_ENV = "CRIB_ANALYZE_BOARD"  # a board table file to use instead of the packaged one
BOARD_POLICY = "lookahead"
OUTCOMES = (
    "win", "win_skunk", "win_double", "win_triple",
    "loss", "loss_skunk", "loss_double", "loss_triple",
)  # fmt: skip
PLAY_STREAMS = 1 << 40  # deal i plays from stream PLAY_STREAMS + i (its cards use stream i)
CHUNK = 200_000  # deals simulated at a time


def check_score(what: str, score: int) -> int:
    """A score on the board (0-120) as an int, or a one-line UsageError."""
    if isinstance(score, bool) or not isinstance(score, int | np.integer):
        raise UsageError(f"{what} must be a whole number, got {score!r}")
    if not 0 <= score < TARGET:
        raise UsageError(f"{what} must be 0-{TARGET - 1} (the game ends at {TARGET}), got {score}")
    return int(score)


def parse_score(score: str | tuple[int, int] | list[int]) -> tuple[int, int]:
    """(mine, theirs) from a pair or text like '110-115' (each 0-120).

    >>> parse_score("110-115")
    (110, 115)
    """
    if isinstance(score, str):
        parts = score.replace(" ", "").split("-")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise UsageError(f"a score is MINE-THEIRS, e.g. 110-115, got {score!r}")
        pair = (int(parts[0]), int(parts[1]))
    else:
        try:
            mine, theirs = score
        except (TypeError, ValueError):
            raise UsageError(f"a score is (mine, theirs), got {score!r}") from None
        pair = (mine, theirs)
    return check_score("my score", pair[0]), check_score("the opponent's score", pair[1])


def scoring_points(scoring: str) -> np.ndarray:
    """(8,) match points of each outcome, from my side: what I win, minus what I lose."""
    check_choice("scoring", scoring, tuple(SCORINGS))
    pts = np.array(SCORINGS[scoring], np.float64)
    return np.concatenate([pts, -pts])


def outcome_weights(goal: str, scoring: str) -> np.ndarray:
    """(8,) the value of each outcome when ranking by ``goal`` ('win' or 'match')."""
    check_choice("goal", goal, ("win", "match"))
    if goal == "win":
        return np.array([1.0] * 4 + [0.0] * 4)
    return scoring_points(scoring)


@dataclass(frozen=True)
class BoardTable:
    """Per position: P of each of :data:`OUTCOMES` and the expected deals left."""

    values: np.ndarray  # (121, 121, 2, 9): my score, theirs, I deal (0/1); channels
    provenance: dict[str, Any] = field(default_factory=dict)

    def fingerprint(self) -> str:
        """A short digest of the values."""
        import hashlib

        return hashlib.blake2b(
            np.ascontiguousarray(self.values).tobytes(), digest_size=8
        ).hexdigest()

    def outcomes(self) -> np.ndarray:
        """(121, 121, 2, 8) outcome probabilities, float64."""
        return np.asarray(self.values[..., :8], np.float64)

    def win(self) -> np.ndarray:
        """(121, 121, 2) the probability that I win."""
        return np.clip(self.outcomes()[..., :4].sum(axis=-1), 0.0, 1.0)

    def match_points(self, scoring: str) -> np.ndarray:
        """(121, 121, 2) expected match points, what I win minus what I lose."""
        return self.outcomes() @ scoring_points(scoring)

    def deals_left(self) -> np.ndarray:
        """(121, 121, 2) expected deals to the end of the game, this one included."""
        return np.asarray(self.values[..., 8], np.float64)

    def at(self, mine: int, theirs: int, dealer: bool) -> np.ndarray:
        """(9,) the channels at one position."""
        a, b = check_score("my score", mine), check_score("the opponent's score", theirs)
        return np.asarray(self.values[a, b, int(bool(dealer))], np.float64)

    def win_at(self, mine: int, theirs: int, dealer: bool) -> float:
        """The probability that I win from one position (as :meth:`win`)."""
        return min(1.0, float(self.at(mine, theirs, dealer)[:4].sum()))

    def save(self, path: str | os.PathLike[str]) -> None:
        write_npz(path, BOARD_FORMAT, self.provenance, {"values": self.values.astype(np.float32)})

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> BoardTable:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> BoardTable:
            values = np.asarray(arrays["values"], np.float64)
            if values.shape != (TARGET, TARGET, 2, dpk.N_CHANNELS):
                raise ValueError(f"values of shape {values.shape}")
            if not np.isfinite(values).all() or abs(values[..., :8].sum(-1) - 1).max() > 1e-4:
                raise ValueError("outcome probabilities that do not sum to 1")
            # stored as float32: renormalise so that each position's outcomes sum to 1
            values[..., :8] /= values[..., :8].sum(-1, keepdims=True)
            values.setflags(write=False)
            return cls(values, provenance=provenance)

        return read_npz(source, "the board table", BOARD_FORMAT, parse)


@cache
def packaged_board_table() -> BoardTable:
    """The board table shipped with the package."""
    with packaged(PACKAGED_BOARD).open("rb") as fh:
        return BoardTable.load(fh)


def load_board(path: str | os.PathLike[str] | None = None) -> BoardTable:
    """The board table at ``path``, else ``$CRIB_ANALYZE_BOARD``, else the packaged one."""
    path = path or os.environ.get(BOARD_ENV) or None
    if path is None:
        return packaged_board_table()
    if not os.path.exists(path):
        raise ModelError(f"no board table at {path}")
    return BoardTable.load(path)


# --- building ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ThrowArrays:
    """What the throwing kernels need of an expert model (see ``deal_kernels``)."""

    keys: np.ndarray
    pone_pi: np.ndarray
    dealer_pi: np.ndarray
    cribs: np.ndarray  # (2, 18395, 15) the crib of each throw of each rank multiset
    peg_net: np.ndarray  # (2, 1820) the pegging net of each keep, by seat
    peg_rows: np.ndarray

    def args(self) -> tuple[Any, ...]:
        """keys, pone_pi, dealer_pi, cribs, peg_net, peg_rows, in the kernels' order."""
        return (self.keys, self.pone_pi, self.dealer_pi, self.cribs, self.peg_net,
                self.peg_rows)  # fmt: skip


_THROW_ARRAYS: dict[str, ThrowArrays] = {}


def throw_arrays(model: ExpertModel) -> ThrowArrays:
    """The arrays of ``model`` and the packaged pegging table for the kernels (once per
    model and process; the crib table is kept in the kernel cache folder)."""
    key = model.fingerprint()
    if key not in _THROW_ARRAYS:
        pegging = packaged_pegging_table()
        _THROW_ARRAYS[key] = ThrowArrays(
            keys=rank_multiset_keys(),
            pone_pi=model.policy("pone").pi,
            dealer_pi=model.policy("dealer").pi,
            cribs=expert_cribs(model),
            peg_net=np.ascontiguousarray(pegging.peg_own - pegging.peg_opp),
            peg_rows=keep_rows(),
        )
    return _THROW_ARRAYS[key]


def expert_cribs(model: ExpertModel) -> np.ndarray:
    """(2, 18395, 15) :func:`~crib_analyze.board.deal_kernels.multiset_cribs` of the
    model: read from the kernel cache folder, or computed (a few seconds) and kept
    there when it can be written."""
    path = cache_dir() / f"expert_cribs_{model.fingerprint()}.npy"
    with contextlib.suppress(OSError, ValueError):
        cribs = np.load(path, allow_pickle=False)
        if cribs.shape == (2, len(multisets()), 15) and np.isfinite(cribs).all():
            return cribs
    pone, dealer = model.throws("pone"), model.throws("dealer")
    models = (pone.P, pone.F, pone.K, dealer.P, dealer.F, dealer.K)
    cribs = np.asarray(dlk.multiset_cribs(rank_table(), multisets(), models))
    with contextlib.suppress(OSError):
        path.parent.mkdir(parents=True, exist_ok=True)
        with atomic_open(path, "wb") as fh:
            np.save(fh, cribs)
    return cribs


def expert_deals(n: int, seed: int, model: ExpertModel, first: int = 0) -> np.ndarray:
    """(n, 13) deals with both players throwing as the expert with their real cards."""
    return np.asarray(
        dlk.card_deals(n, seed, first, dlk.EXPERT, rank_table(), *throw_arrays(model).args())
    )


def distinct_deals(
    players: np.ndarray, points: np.ndarray, counts: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals with each player's consecutive events merged, then the distinct sequences
    with how often each occurs (summing ``counts`` when given)."""
    merged_players, merged_points = dpk.merge_turns(players, points)
    return _distinct(np.concatenate([merged_players, merged_points], axis=1), counts)


def _distinct(
    rows: np.ndarray, counts: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rows = np.ascontiguousarray(rows, np.int8)
    width = rows.shape[1]
    keys = rows.view(np.dtype((np.void, width))).ravel()
    unique, first, inverse = np.unique(keys, return_index=True, return_inverse=True)
    weights = np.bincount(
        inverse.ravel(), weights=None if counts is None else counts, minlength=len(unique)
    ).astype(np.float64)
    kept = rows[first]
    half = width // 2
    return np.ascontiguousarray(kept[:, :half]), np.ascontiguousarray(kept[:, half:]), weights


HIST_BINS = 128  # points a player can score in one deal, from any source, are fewer


def points_histogram(by_source: np.ndarray) -> np.ndarray:
    """(2, k, HIST_BINS) the number of deals in which each player (0 pone, 1 dealer)
    scored 0, 1, ... points from each of the k sources of ``by_source`` (n, 2, k)."""
    values = by_source.astype(np.int64)
    if values.min(initial=0) < 0 or values.max(initial=0) >= HIST_BINS:
        raise ValueError("points per deal out of the histogram's range")
    out = np.zeros((2, values.shape[2], HIST_BINS), np.int64)
    for p in range(2):
        for s in range(values.shape[2]):
            out[p, s] = np.bincount(values[:, p, s], minlength=HIST_BINS)
    return out


def points_summary(hist: np.ndarray) -> dict[str, Any]:
    """Mean, its standard error, standard deviation, the share of deals scoring 0, the
    quartiles and the largest of one histogram of points per deal (counts by points)."""
    n = int(hist.sum())
    x = np.arange(len(hist))
    mean = float(hist @ x) / n
    sd = float(np.sqrt(max(float(hist @ x**2) / n - mean**2, 0.0) * n / (n - 1)))
    cum = np.cumsum(hist)
    quartiles = [int(np.searchsorted(cum, q * n)) for q in (0.25, 0.5, 0.75)]
    return {
        "mean": round(mean, 4),
        "se": round(sd / np.sqrt(n), 4),
        "sd": round(sd, 3),
        "p_zero": round(float(hist[0]) / n, 4),
        "quartiles": quartiles,
        "max": int(np.flatnonzero(hist)[-1]),
    }


def source_points(players: np.ndarray, points: np.ndarray, sources: np.ndarray) -> np.ndarray:
    """(n, 2, 4) each deal's points by player (0 pone, 1 dealer) and source."""
    out = np.zeros((players.shape[0], 2, len(evk.SOURCES)))
    for p in range(2):
        for s in range(len(evk.SOURCES)):
            out[:, p, s] = np.where((players == p) & (sources == s), points, 0).sum(axis=1)
    return out


@dataclass(frozen=True)
class BoardLog:
    """Progress of a build: the step ('deals' or 'table'), done of total, seconds so far."""

    step: str
    done: int
    total: int
    seconds: float


def build_board(
    deals: int = 1_000_000,
    seed: int = 0,
    policy: str = BOARD_POLICY,
    samples: int = 16,
    model: ExpertModel | None = None,
    log: Callable[[BoardLog], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
) -> BoardTable:
    """Simulate ``deals`` deals, then solve every position over them.

    Deal i uses random stream i for its cards and throws and another for its play, so
    a seed gives the same table whatever the chunking or the threads. The table is
    also solved over each half of the deals; half their difference estimates the
    sampling error of the whole. With ``checkpoint``, a killed build resumes after its
    last finished chunk.
    """
    if deals < 2 * CHUNK // 100 or deals % 2:
        raise UsageError(f"deals must be an even number, at least {2 * CHUNK // 100}, got {deals}")
    m = model or load_model()
    code = policy_code(policy)
    settings = {
        "deals": deals, "seed": seed, "policy": policy, "samples": samples,
        "model": m.fingerprint(), "version": __version__,
    }  # fmt: skip
    start = time.time()
    weights = kept_rank_weights(m)
    policies = np.array([code, code], np.int64)
    halves: list[list[np.ndarray]] = [[], []]  # per half: distinct rows and counts, per chunk
    hist = np.zeros((2, 5, HIST_BINS), np.int64)  # player, source (+ total), points: deals
    done = 0
    state = _load_checkpoint(checkpoint, settings)
    if state is not None:
        done, hist, halves = state
    half = deals // 2
    bounds = sorted({*range(0, deals, CHUNK), half, deals})
    for lo, hi in itertools.pairwise(bounds):
        if hi <= done:
            continue
        cards = expert_deals(hi - lo, seed, m, first=lo)
        players, points, sources = evk.deal_events(
            cards, rank_table(), policies, weights, samples, seed, PLAY_STREAMS + lo
        )
        h = 0 if hi <= half else 1
        by_source = source_points(players, points, sources)
        by_source = np.concatenate([by_source, by_source.sum(axis=2, keepdims=True)], axis=2)
        hist += points_histogram(by_source)
        p, q, c = distinct_deals(players, points)
        halves[h].append(np.concatenate([p, q], axis=1))
        halves[h].append(c)
        done = hi
        _save_checkpoint(checkpoint, settings, done, hist, halves)
        if log:
            log(BoardLog("deals", done, deals, time.time() - start))
    lines = np.array(SKUNK_LINES, np.int64)
    solved = []
    merged = []
    for h in range(2):
        rows = np.concatenate(halves[h][0::2])
        counts = np.concatenate(halves[h][1::2])
        p, q, c = _distinct(rows, counts)
        merged.append((np.concatenate([p, q], axis=1), c))
        solved.append(dpk.board_values(p, q, c, TARGET, lines))
        if log:
            log(BoardLog("table", h + 1, 3, time.time() - start))
    p, q, c = _distinct(
        np.concatenate([merged[0][0], merged[1][0]]), np.concatenate([merged[0][1], merged[1][1]])
    )
    values = dpk.board_values(p, q, c, TARGET, lines)
    if log:
        log(BoardLog("table", 3, 3, time.time() - start))
    provenance = _provenance(m, settings, hist, solved, values, len(c))
    provenance["seconds"] = round(time.time() - start, 1)
    if checkpoint is not None:
        with contextlib.suppress(OSError):
            os.unlink(checkpoint)
    values.setflags(write=False)
    return BoardTable(values, provenance=provenance)


def _provenance(
    m: ExpertModel,
    settings: dict[str, Any],
    hist: np.ndarray,
    solved: list[np.ndarray],
    values: np.ndarray,
    distinct: int,
) -> dict[str, Any]:
    names = (*evk.SOURCES, "total")
    roles = ("pone", "dealer")
    summary = {
        role: {name: points_summary(hist[p, s]) for s, name in enumerate(names)}
        for p, role in enumerate(roles)
    }
    per_deal = {
        role: {name: [v["mean"], v["se"]] for name, v in by_source.items()}
        for role, by_source in summary.items()
    }
    histograms = {
        role: {
            name: hist[p, s, : summary[role][name]["max"] + 1].tolist()
            for s, name in enumerate(names)
        }
        for p, role in enumerate(roles)
    }
    win = [v[..., :4].sum(axis=-1) for v in (*solved, values)]
    half_gap = np.abs(win[0] - win[1]) / 2  # ~ the standard error of the whole
    net = [v[..., :8] @ scoring_points("tournament") for v in solved]
    return {
        "made_by": f"crib-analyze {__version__} build-board",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **{k: settings[k] for k in ("deals", "seed", "policy")},
        "search_samples": settings["samples"] if settings["policy"] == "search" else None,
        "expert_model": m.fingerprint(),
        "target": TARGET,
        "skunk_lines": list(SKUNK_LINES),
        "distinct_deals": distinct,
        "per_deal_points": per_deal,  # role -> source -> [mean, standard error]
        # role -> source -> sd, share of deals scoring 0, quartiles, largest
        "per_deal_distribution": {
            role: {
                name: {k: v[k] for k in ("sd", "p_zero", "quartiles", "max")}
                for name, v in by_source.items()
            }
            for role, by_source in summary.items()
        },
        "per_deal_histogram": histograms,  # role -> source -> deals scoring 0, 1, 2, ...
        "first_dealer_wins": round(float(win[2][0, 0, 1]), 5),
        "deals_per_game": round(float(values[0, 0, 1, 8]), 4),
        "win_error": {  # half the gap between the tables of the two halves of the deals
            "rms": round(float(np.sqrt((half_gap**2).mean())), 5),
            "max": round(float(half_gap.max()), 5),
            "first_dealer": round(float(half_gap[0, 0, 1]), 5),
        },
        "tournament_points_error_rms": round(
            float(np.sqrt((((net[0] - net[1]) / 2) ** 2).mean())), 5
        ),
        "scheme": "deals: six cards each, both throw as the expert with their real cards (the "
        "best response to the expert model: hand, crib and the pegging net of the keep), the "
        "starter cut, both play the policy; scoring events in the order scored (heels, "
        "the play, the pone's hand, the dealer's hand, the crib); every position solved "
        "over the deals by dynamic programming from the end of the board down",
    }


def _save_checkpoint(
    path: str | os.PathLike[str] | None,
    settings: dict[str, Any],
    done: int,
    hist: np.ndarray,
    halves: list[list[np.ndarray]],
) -> None:
    if path is None:
        return
    arrays: dict[str, Any] = {"settings": np.array(json.dumps(settings)), "done": np.array(done)}
    arrays.update(hist=hist)
    for h in range(2):
        for k, arr in enumerate(halves[h]):
            arrays[f"h{h}_{k}"] = arr
    try:
        with atomic_open(path, "wb") as fh:
            np.savez(fh, **arrays)
    except OSError as e:
        raise StorageError(f"cannot write the checkpoint {path}: {describe_os_error(e)}") from None


def _load_checkpoint(
    path: str | os.PathLike[str] | None, settings: dict[str, Any]
) -> tuple[int, np.ndarray, list[list[np.ndarray]]] | None:
    """The state of an interrupted build with the same settings, if any."""
    if path is None or not os.path.exists(path):
        return None
    try:
        with np.load(path, allow_pickle=False) as data:
            if json.loads(str(data["settings"])) != settings:
                return None
            halves: list[list[np.ndarray]] = [[], []]
            for h in range(2):
                k = 0
                while f"h{h}_{k}" in data.files:
                    halves[h].append(np.array(data[f"h{h}_{k}"]))
                    k += 1
            return int(data["done"]), np.array(data["hist"]), halves
    except Exception:  # a damaged checkpoint: start over
        return None
