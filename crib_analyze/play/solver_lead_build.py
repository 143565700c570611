"""Build the solver's leads (:mod:`crib_analyze.artifacts.solver_leads`): for each
starter rank, the rank the solver leads as pone from each of the 1,820 keeps, every
live dealer hand solved; then its replies: for each starter and lead rank, the rank it
lays as dealer from each keep, every live pone hand solved, the lead read by those
leads (about 15 minutes in all on 2 cores). A killed build resumes after its last
finished starter rank."""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable

import numpy as np

from crib_analyze import __version__, interrupts
from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.artifacts.solver_leads import N_KEEPS, SolverLeads
from crib_analyze.play import inference_kernels as ik
from crib_analyze.play import play_policy_kernels as pk
from crib_analyze.play.matches import play_reader
from crib_analyze.storage.checkpoint import load_checkpoint, remove_checkpoint, save_checkpoint

#: keeps a kernel call solves: about a second on 2 cores (the build checks for Ctrl-C
#: between calls; the numbers do not depend on it)
LEAD_CHUNK = 48
REPLY_CHUNK = 182  # (a tenth of the keeps: the reading after the lead leaves few hands)


def build_leads(
    model: ExpertModel,
    checkpoint: str | os.PathLike[str] | None = None,
    log: Callable[[int, float], None] | None = None,
    ranks: int = 13,
) -> SolverLeads:
    """The solver's leads and replies with ``model``; ``log(steps done, seconds)`` after
    each starter rank's leads (steps 1-13) and replies (14-26). ``ranks`` < 13 builds
    only the first starter ranks (tests; the rest stay -1)."""
    settings = {"model": model.fingerprint(), "version": __version__, "ranks": ranks}
    leads = np.full((13, N_KEEPS), -1, np.int64)
    replies = np.full((13, 13, N_KEEPS), -1, np.int64)
    done = np.zeros(26, np.bool_)  # each starter rank's leads, then its replies
    state = load_checkpoint(checkpoint, settings)
    if state is not None and state["done"].shape == done.shape:
        leads, replies, done = state["leads"], state["replies"], state["done"]
    reader = play_reader(model, hands=ik.N_KEEPS, leads=False)
    start = time.time()

    def finished(step: int) -> None:
        done[step] = True
        state = {"leads": leads, "replies": replies, "done": done}
        save_checkpoint(checkpoint, settings, state)
        if log:
            log(int(done.sum()), time.time() - start)

    with interrupts.deferred():  # Ctrl-C is heard between chunks of keeps, about a second
        for s in range(ranks):
            if done[s]:
                continue
            for lo in range(0, N_KEEPS, LEAD_CHUNK):
                hi = min(lo + LEAD_CHUNK, N_KEEPS)
                leads[s, lo:hi] = pk.solver_leads(reader, s, lo, hi)
                interrupts.check()
            finished(s)
        # the dealer reads the lead by these leads, as the solver does in play
        answering = reader._replace(leads=leads.copy())
        answering.leads.setflags(write=False)
        for s in range(ranks):
            if done[13 + s]:
                continue
            for led in range(13):
                for lo in range(0, N_KEEPS, REPLY_CHUNK):
                    hi = min(lo + REPLY_CHUNK, N_KEEPS)
                    replies[s, led, lo:hi] = pk.solver_replies(answering, s, led, lo, hi)
                    interrupts.check()
            finished(13 + s)
    provenance = {
        "made_by": f"crib-analyze {__version__} build-leads",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "expert_model": model.fingerprint(),
        "scheme": "for each keep (the lowest suits free) and starter rank, the card the "
        "solver leads as pone, every live dealer hand weighted by the dealer's expert "
        "throw and solved exactly; the pone's own throw not known; then for each keep, "
        "starter rank and lead rank, the card the solver lays as dealer in reply, every "
        "live pone hand weighted by the pone's expert throw and its lead (read by these "
        "leads) and solved exactly",
        "starter_ranks": ranks,
        "seconds": round(time.time() - start, 1),
    }
    remove_checkpoint(checkpoint)
    return SolverLeads(leads, provenance, replies)
