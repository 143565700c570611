"""Long work on the page: a job runs in its own thread, says how far it has got, and can
be cancelled (the review of a long game today).

``POST /api/jobs/review`` starts one with ``/api/review``'s parameters (checked first)
and answers its id; ``GET /api/jobs/id/{id}`` gives its state (``running``, ``done``,
``cancelled``, ``failed``), its progress (``done`` of ``total``) and, when done, the
endpoint's answer; ``DELETE /api/jobs/id/{id}`` cancels it (it stops at the next step:
a deal). A job runs under the server's one-analysis lock and gives it up between its
steps, so the page's other answers are not held up. The ids are random (a job is
reachable only by who started it); at most :data:`MOST_JOBS` are kept, the oldest
finished ones dropped first, and :data:`MOST_RUNNING` run at once.
"""

from __future__ import annotations

import secrets
import threading
from dataclasses import dataclass, field
from typing import Any

from crib_analyze import notices
from crib_analyze.errors import CribAnalyzeError

MOST_JOBS = 32  # kept at once; a new job past it drops the oldest finished one
MOST_RUNNING = 4  # running at once (they take turns with each other and the page)


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
    lock: Any = None  # the server's one-analysis lock, held while the work runs

    def progress(self, done: int, total: int) -> None:
        """The work's callback after each step: records it, lets the other analyses
        have their turn, stops the work if it was cancelled."""
        self.done, self.total = done, total
        if self.lock is not None:
            self.lock.release()
            self.lock.acquire()
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


def start(work: Any, body: dict[str, Any], lock: Any = None) -> str:
    """Run ``work(body, job.progress)`` in a thread, holding ``lock`` but between its
    steps; its id."""
    job = Job(lock=lock)
    with _GUARD:
        if sum(j.state == "running" for j in _JOBS.values()) >= MOST_RUNNING:
            raise CribAnalyzeError(f"{MOST_RUNNING} jobs are running: wait or cancel one")
        if len(_JOBS) >= MOST_JOBS:
            finished = [k for k, j in _JOBS.items() if j.state != "running"]
            if not finished:
                raise CribAnalyzeError(f"{MOST_JOBS} jobs are running: wait or cancel one")
            del _JOBS[finished[0]]
        key = secrets.token_urlsafe(12)
        _JOBS[key] = job

    def run() -> None:
        try:
            if lock is None:
                job.answer = work(body, job.progress)
            else:
                with lock:
                    job.answer = work(body, job.progress)
            job.state = "done"
        except Cancelled:
            job.state = "cancelled"
        except CribAnalyzeError as e:
            job.state, job.error = "failed", str(e)
        except Exception as e:  # a bug: one line, the server logs the rest
            notices.logger("crib_analyze.web").exception("job failed")
            job.state, job.error = "failed", f"internal error: {type(e).__name__}"

    threading.Thread(target=run, daemon=True).start()
    return key


def find(key: str) -> Job | None:
    with _GUARD:
        return _JOBS.get(key)
