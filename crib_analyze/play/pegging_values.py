"""Pegging values by simulation: the pegging table's build, and one hand's throws played
with its real cards.

A *cell* of the table is a kept rank multiset and the keeper's seat; its deals are
played by :mod:`crib_analyze.play.pegging_kernels` with both players on the table's
policy. The build runs a pilot of deals per cell, then tops each cell up until the
standard error of its pegging differential meets the target; it is seeded, the same on
any number of threads, and resumes from a checkpoint after a kill.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.artifacts.pegging_table import PeggingTable, kept_multisets
from crib_analyze.cluster import dask_client
from crib_analyze.errors import UsageError
from crib_analyze.play import pegging_kernels as pgk
from crib_analyze.play.matches import (
    play_reader,
    policy_code,
    throw_policies,
)
from crib_analyze.position import Seat
from crib_analyze.settings import (
    CALL_SECONDS,
    DEFAULT_PLAY_POLICY,
    PEGGING_MAX_DEALS,
    PEGGING_PILOT,
    PEGGING_TARGET_SE,
    QUICK_PLAY_POLICY,
    SEARCH_SAMPLES,
    __version__,
)
from crib_analyze.storage.checkpoint import load_checkpoint, remove_checkpoint, save_checkpoint


@dataclass(frozen=True)
class BuildLog:
    """Progress of a build: the stage (1 pilot, then top-ups), cells done of those the
    stage runs, deals so far, seconds so far."""

    stage: int
    done: int
    total: int
    deals: int
    seconds: float


#: deals of a cell played as one part: the numbers depend on it (a part's points are
#: summed in the kernel, the parts in order), never on how parts are grouped into the
#: kernel calls; a few parts a call for the solver (about 500 deals a second on 2 cores)
PART_DEALS = {"solver": 16, "search": 16}
PART_DEALS_FAST = 1024  # the other policies: about 150,000 deals a second
DASK_JOB_PARTS = 64  # parts a Dask task plays
CHECKPOINT_SECONDS = 30.0  # a build's state is saved this often (and when it stops)


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def build_pegging(
    target_se: float = PEGGING_TARGET_SE.default,
    pilot: int = PEGGING_PILOT.default,
    max_deals: int = PEGGING_MAX_DEALS.default,
    seed: int = 0,
    policy: str = DEFAULT_PLAY_POLICY,
    samples: int = SEARCH_SAMPLES.default,
    model: ExpertModel | None = None,
    log: Callable[[BuildLog], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
) -> PeggingTable:
    """Simulate the 3,640 cells (1,820 keeps x 2 roles) until the standard error of each
    cell's pegging differential is at most ``target_se`` (or ``max_deals`` are spent).

    Stage 1 plays ``pilot`` deals per cell; later stages give each cell still short of
    the target the deals its variance asks for (up to four top-ups). Deal j of cell c
    always draws the same random stream, and a cell's deals are summed in parts of a
    fixed size, so a seed gives the same table on any number of threads, or on a Dask
    cluster (``scheduler``, an address: the parts run on its workers). The kernel
    calls are sized to about half a second each, with Ctrl-C checked between them.
    With ``checkpoint`` (a file), the state is saved after every call and a killed
    build resumes from it, to the same table.
    """
    if pilot < 2 or max_deals < pilot:
        raise UsageError(f"need 2 <= pilot <= max_deals, got {pilot} and {max_deals}")
    if not target_se > 0:
        raise UsageError(f"target_se must be positive, got {target_se}")
    code = policy_code(policy)
    m = model or load_model()
    ranks = kept_multisets()
    cells = np.concatenate([ranks, ranks])
    seats = np.repeat(np.arange(2, dtype=np.int64), len(ranks))
    n_cells = len(cells)
    settings = {
        "target_se": target_se, "pilot": pilot, "max_deals": max_deals, "seed": seed,
        "policy": policy, "samples": samples, "model": m.fingerprint(), "version": __version__,
        "bins": pgk.PEG_BINS,
    }  # fmt: skip
    sums = np.zeros((n_cells, 3))
    hist = np.zeros((n_cells, pgk.PEG_BINS, pgk.PEG_BINS), np.int32)  # each cell's deals
    done = np.zeros(n_cells, np.int64)  # deals played per cell
    stage, wanted = 1, np.full(n_cells, pilot, np.int64)  # deals each cell gets this stage
    earlier = np.zeros(2)  # the seconds and runs before this one (a resumed build)
    state = load_checkpoint(checkpoint, settings)
    if state is not None and state["sums"].shape == sums.shape and "wanted" in state:
        sums, done, hist = state["sums"], state["done"], state["hist"]
        stage, wanted = int(state["stage"]), state["wanted"]
        earlier = state.get("earlier", np.array([np.nan, 1.0]))  # untimed before 0.4.0+
    reader = play_reader(m, reads=policy == "solver")
    policies = np.array([code, code], np.int64)
    start = time.time()
    part = PART_DEALS.get(policy, PART_DEALS_FAST)
    arrays = (throw_policies(m), policies, reader)
    client = None if scheduler is None else dask_client(scheduler)

    saved = [-np.inf]  # when the state was last saved

    def save(now: bool) -> None:
        if now or time.time() - saved[0] >= CHECKPOINT_SECONDS:
            state: dict[str, np.ndarray] = {
                "sums": sums, "hist": hist, "done": done, "stage": np.array(stage),
                "wanted": wanted, "earlier": earlier + np.array([time.time() - start, 1.0]),
            }  # fmt: skip
            save_checkpoint(checkpoint, settings, state)
            saved[0] = time.time()

    def run() -> None:
        todo = np.flatnonzero(done < wanted)
        parts = _parts(todo, done, wanted, part)
        try:
            for idx, result, counts, ends in _part_sums(
                client, parts, cells, seats, seed, arrays, samples
            ):
                np.add.at(sums, idx, result)  # a cell's parts in order: the same sums every run
                np.add.at(hist, idx, counts.astype(np.int32))
                done[idx] = np.maximum(done[idx], ends)
                save(now=False)
                if log:
                    finished = int((done[todo] >= wanted[todo]).sum())
                    log(BuildLog(stage, finished, len(todo), int(done.sum()), time.time() - start))
        finally:  # stopped or finished: the state so far is kept
            save(now=True)

    try:
        while True:  # the pilot, then top-ups until every cell meets the target (or the cap)
            run()
            _, _, se = _summary(sums, done)
            short = (se > target_se) & (done < max_deals)
            if stage == 5 or not short.any():
                break
            sd = se * np.sqrt(done)
            want = np.ceil(1.05 * (sd / target_se) ** 2)  # a little margin for the estimate
            stage += 1
            wanted = np.where(short, np.clip(want, done + 1, max_deals), done).astype(np.int64)
    finally:
        if client is not None:
            client.close()
    own, opp, se = _summary(sums, done)
    assert (hist.sum(axis=(1, 2)) == done).all()  # every deal is in its cell's distribution
    provenance = {
        "made_by": f"crib-analyze {__version__} build-pegging",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "policy": policy,
        "search_samples": samples if policy == "search" else None,
        "solver_hands": reader.hands if policy == "solver" else None,
        "reading_tau": reader.tau if policy == "solver" else None,
        "lead_slack": reader.slack if policy == "solver" and len(reader.leads) else None,
        "seed": seed,
        "expert_model": m.fingerprint(),
        "target_se": target_se,
        "pilot_deals": pilot,
        "max_deals": max_deals,
        "deals": int(done.sum()),
        "deals_per_cell_min": int(done.min()),
        "deals_per_cell_max": int(done.max()),
        "max_se": float(se.max()),
        "scheme": "per cell: the keeper's four cards with random suits, two random cards "
        "thrown, the opponent's six from the 46 left thrown by its seat's expert policy, "
        "the starter from the 40 left; both play the policy to the end; a pilot of "
        "deals per cell, then each cell topped up to the target standard error",
        # every run's seconds (a resumed build's too), so seconds / deals is the rate
        "seconds": _seconds(float(earlier[0]) + time.time() - start),
        "runs": int(earlier[1]) + 1,
    }
    table = PeggingTable(
        own.reshape(2, -1),
        opp.reshape(2, -1),
        se.reshape(2, -1),
        provenance=provenance,
        peg_hist=hist.reshape(2, -1, pgk.PEG_BINS, pgk.PEG_BINS),
    )
    remove_checkpoint(checkpoint)
    return table


Job = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]  # parts of a call


Parts = tuple[np.ndarray, np.ndarray, np.ndarray]  # cell, first deal, deals: a part each


def _parts(todo: np.ndarray, done: np.ndarray, wanted: np.ndarray, size: int) -> Parts:
    """The parts of a stage: each cell's deals ``done .. wanted`` cut at the multiples of
    ``size`` (where they are cut never depends on when a build stopped), a cell's parts
    together and in order."""
    cell, first, count = [], [], []
    for c in todo.tolist():
        j, end = int(done[c]), int(wanted[c])
        while j < end:
            stop = min(end, (j // size + 1) * size)
            cell.append(c)
            first.append(j)
            count.append(stop - j)
            j = stop
    return (np.array(cell, np.int64), np.array(first, np.int64), np.array(count, np.int64))


def _part_batch(
    job: Job, seed: int, arrays: tuple[Any, ...], samples: int
) -> tuple[np.ndarray, np.ndarray]:  # runs where the job is sent: here or a Dask worker
    """The (parts, 3) sums of one job's parts and their (parts, PEG_BINS, PEG_BINS) counts."""
    throws, policies, reader = arrays
    ranks, seats, ids, starts, counts = job
    sums, hist = pgk.cell_sums(
        ranks, seats, ids, starts, counts, seed, throws, policies, reader, samples
    )
    return np.asarray(sums), np.asarray(hist)


def _part_sums(
    client: Any, parts: Parts, cells: np.ndarray, seats: np.ndarray, seed: int,
    arrays: tuple[Any, ...], samples: int,
) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:  # fmt: skip
    """(cells, sums, counts, deals played to) of each job of ``parts``, in order, with Ctrl-C
    checked between jobs. Here a job is sized to about CALL_SECONDS by the time the last
    one took; on Dask, DASK_JOB_PARTS parts a task (results are waited for a second at a
    time, Ctrl-C checked between)."""
    cell, first, count = parts

    def job(lo: int, hi: int) -> Job:
        c = cell[lo:hi]
        return cells[c], seats[c], c, first[lo:hi], count[lo:hi]

    def result(
        lo: int, hi: int, tallies: tuple[np.ndarray, np.ndarray]
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return cell[lo:hi], tallies[0], tallies[1], first[lo:hi] + count[lo:hi]

    n = len(cell)
    if client is not None:
        bounds = [(lo, min(lo + DASK_JOB_PARTS, n)) for lo in range(0, n, DASK_JOB_PARTS)]
        futures = [client.submit(_part_batch, job(lo, hi), seed, arrays, samples, pure=False)
                   for lo, hi in bounds]  # fmt: skip
        for (lo, hi), future in zip(bounds, futures, strict=True):  # in order: a prefix
            yield result(lo, hi, _wait(future))
        return
    for lo, k in interrupts.paced(n, CALL_SECONDS):
        yield result(lo, lo + k, _part_batch(job(lo, lo + k), seed, arrays, samples))


def _wait(future: Any) -> tuple[np.ndarray, np.ndarray]:
    """A Dask future's result, waited for a second at a time with Ctrl-C checked."""
    while True:
        interrupts.check()
        try:
            sums, hist = future.result(timeout=1)
            return np.asarray(sums), np.asarray(hist)
        except TimeoutError:
            continue


def _summary(sums: np.ndarray, done: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Means of own and opponent's points, and the standard error of the difference."""
    n = done.astype(np.float64)
    own, opp = sums[:, 0] / n, sums[:, 1] / n
    var = np.maximum(sums[:, 2] / n - (own - opp) ** 2, 0.0) * n / (n - 1)
    return own, opp, np.sqrt(var / n)


@dataclass(frozen=True)
class HandPegging:
    """Pegging of each of a hand's 15 throws (DISCARDS order) from its real cards."""

    peg_own: np.ndarray  # (15,)
    peg_opp: np.ndarray
    peg_se: np.ndarray  # standard error of own - opp per throw
    deals: int


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def hand_pegging(
    hand6: np.ndarray,
    role: Seat | str,
    deals: int = 2000,
    seed: int = 0,
    policy: str = QUICK_PLAY_POLICY,
    samples: int = SEARCH_SAMPLES.default,
    model: ExpertModel | None = None,
) -> HandPegging:
    """Simulate the play for all 15 throws of six known cards in ``role``: the same
    opponent hands and starters for every throw (common random numbers), both players
    laying by ``policy`` (the solver reads the other seat by ``model``). The deals run
    in calls of about :data:`~crib_analyze.settings.CALL_SECONDS` with Ctrl-C heard
    between them; the numbers do not depend on how they are cut."""
    seat = Seat.of(role)
    if deals < 2:
        raise UsageError(f"deals must be at least 2, got {deals}")
    m = model or load_model()
    code = policy_code(policy)
    hand = np.asarray(hand6, np.int64)
    throws, reader = throw_policies(m), play_reader(m, reads=policy == "solver")
    policies = np.array([code, code], np.int64)
    points = np.empty((deals, 15, 2), np.float64)
    for first, n in interrupts.paced(deals, CALL_SECONDS):
        points[first : first + n] = pgk.hand_deals(
            hand, int(seat), first, n, seed, throws, policies, reader, samples
        )
    diff = points[:, :, 0] - points[:, :, 1]
    return HandPegging(
        peg_own=points[:, :, 0].mean(axis=0),
        peg_opp=points[:, :, 1].mean(axis=0),
        peg_se=diff.std(axis=0, ddof=1) / np.sqrt(deals),
        deals=deals,
    )


def _seconds(x: float) -> float | None:
    """Seconds to record: None if a run before this one was not timed."""
    return round(x, 1) if np.isfinite(x) else None
