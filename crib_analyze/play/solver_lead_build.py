"""Build the solver's leads (:mod:`crib_analyze.artifacts.solver_leads`): for each
starter rank, the rank the solver leads as pone from each of the 1,820 keeps, every
live dealer hand solved (about 8 minutes on 2 cores). A killed build resumes after its
last finished starter rank."""

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


def build_leads(
    model: ExpertModel,
    checkpoint: str | os.PathLike[str] | None = None,
    log: Callable[[int, float], None] | None = None,
    ranks: int = 13,
) -> SolverLeads:
    """The solver's leads with ``model``; ``log(ranks done, seconds)`` after each
    starter rank. ``ranks`` < 13 builds only the first ones (tests; the rest stay -1)."""
    settings = {"model": model.fingerprint(), "version": __version__, "ranks": ranks}
    leads = np.full((13, N_KEEPS), -1, np.int64)
    done = np.zeros(13, np.bool_)
    state = load_checkpoint(checkpoint, settings)
    if state is not None and state["leads"].shape == leads.shape:
        leads, done = state["leads"], state["done"]
    reader = play_reader(model, hands=ik.N_KEEPS, leads=False)
    start = time.time()
    with interrupts.deferred():  # Ctrl-C is heard between chunks of keeps, about a second
        for s in range(ranks):
            if done[s]:
                continue
            for lo in range(0, N_KEEPS, LEAD_CHUNK):
                hi = min(lo + LEAD_CHUNK, N_KEEPS)
                leads[s, lo:hi] = pk.solver_leads(reader, s, lo, hi)
                interrupts.check()
            done[s] = True
            save_checkpoint(checkpoint, settings, {"leads": leads, "done": done})
            if log:
                log(int(done.sum()), time.time() - start)
    provenance = {
        "made_by": f"crib-analyze {__version__} build-leads",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "expert_model": model.fingerprint(),
        "scheme": "for each keep (the lowest suits free) and starter rank, the card the "
        "solver leads as pone, every live dealer hand weighted by the dealer's expert "
        "throw and solved exactly; the pone's own throw not known",
        "starter_ranks": ranks,
        "seconds": round(time.time() - start, 1),
    }
    remove_checkpoint(checkpoint)
    return SolverLeads(leads, provenance)
