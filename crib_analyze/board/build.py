"""Building the board table: simulate deals, then solve every position over them.

Both players throw as the expert with their real cards and play the default policy;
each deal is kept as its scoring events in the order they score
(:mod:`crib_analyze.board.event_kernels`: heels, the play, the pone's hand, the
dealer's hand, the crib). Every position is then solved exactly over those deals by
dynamic programming (:mod:`crib_analyze.board.dp_kernels`); the table is also solved
over each half of the deals to measure its sampling error. ``crib-analyze build-board``.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.board_table import BoardTable
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.board import dp_kernels as dpk
from crib_analyze.board import event_kernels as evk
from crib_analyze.board.expert_throws import expert_deals
from crib_analyze.errors import UsageError
from crib_analyze.play.matches import play_reader, policy_code
from crib_analyze.play.play_policy_kernels import SOLVER
from crib_analyze.position import N_OUTCOMES, p_win, scoring_points
from crib_analyze.rules import SKUNK_LINES, TARGET
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import (
    BOARD_DEALS,
    CALL_SECONDS,
    DEFAULT_PLAY_POLICY,
    SEARCH_SAMPLES,
    __version__,
)
from crib_analyze.storage.checkpoint import load_checkpoint, remove_checkpoint, save_checkpoint

PLAY_STREAMS = 1 << 40  # deal i plays from stream PLAY_STREAMS + i (its cards use stream i)
CHUNK = 200_000  # deals between checkpoints (and at most in a kernel call)


def distinct_deals(
    players: np.ndarray, points: np.ndarray, counts: np.ndarray | None = None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Deals with each player's consecutive events merged, then the distinct sequences
    with how often each occurs (summing ``counts`` when given)."""
    merged_players, merged_points = dpk.merge_turns(players, points)
    return distinct_rows(np.concatenate([merged_players, merged_points], axis=1), counts)


def distinct_rows(
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


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def build_board(
    deals: int = BOARD_DEALS.default,
    seed: int = 0,
    policy: str = DEFAULT_PLAY_POLICY,
    samples: int = SEARCH_SAMPLES.default,
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
    solver = code == SOLVER
    events = evk.deal_events_reading if solver else evk.deal_events
    settings = {
        "deals": deals, "seed": seed, "policy": policy, "samples": samples,
        "model": m.fingerprint(), "version": __version__,
    }  # fmt: skip
    start = time.time()
    reader = play_reader(m, reads=solver)
    policies = np.array([code, code], np.int64)
    halves: list[list[np.ndarray]] = [[], []]  # per half: distinct rows and counts, per chunk
    hist = np.zeros((2, 5, HIST_BINS), np.int64)  # player, source (+ total), points: deals
    done = 0
    state = load_checkpoint(checkpoint, settings)
    if state is not None:
        done, hist, halves = _resumed(state)
    half = deals // 2
    saved = done
    for first, last in ((0, half), (half, deals)):  # each half apart (their tables differ)
        if last <= done:
            continue
        h = 0 if last <= half else 1
        begin = max(first, done)
        # calls of about CALL_SECONDS (Ctrl-C between them; the deals do not depend on
        # how they are cut), a checkpoint every CHUNK deals and at the half; the first
        # call is one step: a few hundred deals a second with the solver
        step = 100 if solver else 1000
        for offset, n in interrupts.paced(last - begin, CALL_SECONDS, most=CHUNK, step=step):
            lo = begin + offset
            cards = expert_deals(n, seed, m, first=lo)
            players, points, sources = events(
                cards, rank_table(), policies, reader, samples, seed, PLAY_STREAMS + lo
            )
            by_source = source_points(players, points, sources)
            by_source = np.concatenate([by_source, by_source.sum(axis=2, keepdims=True)], axis=2)
            hist += points_histogram(by_source)
            p, q, c = distinct_deals(players, points)
            halves[h].append(np.concatenate([p, q], axis=1))
            halves[h].append(c)
            done = lo + n
            if done - saved >= CHUNK or done == last:  # saved, then said
                save_checkpoint(checkpoint, settings, _state(done, hist, halves))
                saved = done
                if log:
                    log(BoardLog("deals", done, deals, time.time() - start))
    lines = np.array(SKUNK_LINES, np.int64)
    solved = []
    merged = []
    for h in range(2):
        interrupts.check()
        rows = np.concatenate(halves[h][0::2])
        counts = np.concatenate(halves[h][1::2])
        p, q, c = distinct_rows(rows, counts)
        merged.append((np.concatenate([p, q], axis=1), c))
        solved.append(solve_board(p, q, c, lines))
        if log:
            log(BoardLog("table", h + 1, 3, time.time() - start))
    p, q, c = distinct_rows(
        np.concatenate([merged[0][0], merged[1][0]]), np.concatenate([merged[0][1], merged[1][1]])
    )
    values = solve_board(p, q, c, lines)
    if log:
        log(BoardLog("table", 3, 3, time.time() - start))
    provenance = _provenance(m, settings, hist, solved, values, len(c))
    provenance["seconds"] = round(time.time() - start, 1)
    remove_checkpoint(checkpoint)
    values.setflags(write=False)
    return BoardTable(values, provenance=provenance)


def solve_board(players: np.ndarray, points: np.ndarray, weights: np.ndarray, lines: np.ndarray,
                target: int = TARGET) -> np.ndarray:  # fmt: skip
    """:func:`~crib_analyze.board.dp_kernels.board_values` in calls of about CALL_SECONDS
    (a few anti-diagonals each, Ctrl-C checked between): the same numbers, in the same
    order."""
    deals = dpk.board_prepare(players, points, weights)
    values = np.zeros((target, target, 2, dpk.N_CHANNELS))
    top = 2 * target - 2
    for done, n in interrupts.paced(top + 1, CALL_SECONDS):
        dpk.board_fill(values, target, lines, deals, top - done, top - done - n + 1)
    return values


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
    win = [p_win(v[..., :N_OUTCOMES]) for v in (*solved, values)]
    half_gap = np.abs(win[0] - win[1]) / 2  # ~ the standard error of the whole
    net = [v[..., :N_OUTCOMES] @ scoring_points("tournament") for v in solved]
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
        "deals_per_game": round(float(values[0, 0, 1, BoardTable.DEALS_LEFT]), 4),
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


def _state(done: int, hist: np.ndarray, halves: list[list[np.ndarray]]) -> dict[str, np.ndarray]:
    """A build's state as named arrays, for its checkpoint."""
    arrays = {"done": np.array(done), "hist": hist}
    for h in range(2):
        for k, arr in enumerate(halves[h]):
            arrays[f"h{h}_{k}"] = arr
    return arrays


def _resumed(arrays: dict[str, np.ndarray]) -> tuple[int, np.ndarray, list[list[np.ndarray]]]:
    """(done, hist, halves) from a checkpoint's arrays."""
    halves: list[list[np.ndarray]] = [[], []]
    for h in range(2):
        k = 0
        while f"h{h}_{k}" in arrays:
            halves[h].append(arrays[f"h{h}_{k}"])
            k += 1
    return int(arrays["done"]), arrays["hist"], halves
