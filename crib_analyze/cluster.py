"""Reaching a Dask cluster: the one place a job that outgrows one machine connects."""

from __future__ import annotations

from typing import Any

from crib_analyze.errors import UsageError
from crib_analyze.settings import check_scheduler


def dask_client(scheduler: str) -> Any:
    """A ``distributed.Client`` of the scheduler at ``scheduler`` (an address), or a
    one-line UsageError: dask.distributed not installed, or the scheduler unreachable
    within 10 s."""
    check_scheduler(scheduler)
    try:
        from distributed import Client
    except ImportError:
        raise UsageError(
            "a scheduler needs dask.distributed: pip install 'crib-analyze[distributed]'"
        ) from None
    try:
        return Client(scheduler, timeout="10s")  # type: ignore[no-untyped-call]
    except (OSError, ValueError, TypeError) as e:
        raise UsageError(f"cannot reach the Dask scheduler at {scheduler}: {e}") from None
