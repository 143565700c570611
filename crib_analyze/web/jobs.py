"""Long work on the page: a job runs in its own thread, says how far it has got, and can
be cancelled (the review of a long game today).

``POST /api/jobs/review`` starts one with ``/api/review``'s parameters and answers its
id; ``GET /api/jobs/{id}`` gives its state (``running``, ``done``, ``cancelled``,
``failed``), its progress (``done`` of ``total``) and, when done, the endpoint's answer;
``DELETE /api/jobs/{id}`` cancels it (it stops at the next step: a deal). The ids are
random (a job is reachable only by who started it); at most :data:`MOST_JOBS` are kept,
the oldest finished ones dropped first. Nothing is written to disk.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from crib_analyze.errors import CribAnalyzeError

MOST_JOBS = 32  # kept at once; a new job past it drops the oldest finished one


class Cancelled(Exception):
    """A job told to stop, raised at its next step."""


@dataclass
class Job:
    """One long piece of work: its state, its progress and its answer or error."""

    state: str = "running"
    done: int = 0
    total: int = 0
    answer: dict[str, Any] | None = None
    error: str = ""
    cancel: threading.Event = field(default_factory=threading.Event)

    def progress(self, done: int, total: int) -> None:
        """The work's callback after each step: records it, stops it if cancelled."""
        self.done, self.total = done, total
        if self.cancel.is_set():
            raise Cancelled

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"state": self.state, "done": self.done, "total": self.total}
        if self.answer is not None:
            out["answer"] = self.answer
        if self.error:
            out["error"] = self.error
        return out


_JOBS: dict[str, Job] = {}
_GUARD = threading.Lock()


def start(work: Any, body: dict[str, Any]) -> str:
    """Run ``work(body, job.progress)`` in a thread; its id."""
    job = Job()
    with _GUARD:
        if len(_JOBS) >= MOST_JOBS:
            finished = [k for k, j in _JOBS.items() if j.state != "running"]
            if not finished:
                raise CribAnalyzeError(f"{MOST_JOBS} jobs are running: wait or cancel one")
            del _JOBS[finished[0]]
        key = secrets.token_urlsafe(12)
        _JOBS[key] = job

    def run() -> None:
        try:
            job.answer = work(body, job.progress)
            job.state = "done"
        except Cancelled:
            job.state = "cancelled"
        except CribAnalyzeError as e:
            job.state, job.error = "failed", str(e)
        except Exception as e:  # a bug: one line, the server logs the rest
            import logging

            logging.getLogger("crib_analyze.web").exception("job failed")
            job.state, job.error = "failed", f"internal error: {type(e).__name__}"

    threading.Thread(target=run, daemon=True).start()
    return key


def find(key: str) -> Job | None:
    with _GUARD:
        return _JOBS.get(key)
