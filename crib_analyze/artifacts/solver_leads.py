"""The solver's leads: the rank the solver leads as pone from every keep, by starter;
and its replies: the rank it lays as dealer in answer to each lead rank.

The solver reads the pone's lead by these (:mod:`crib_analyze.play.inference_kernels`):
a pone that plays like the solver leads what the table says; and the dealer's first
card by the replies. The leads depend on the
expert model (the pone's reading of the dealer's keep comes from the dealer's throw
policy), so the table names the model it was made with, and the reading uses a table
only with that model: the packaged table with the packaged model, or one made by
``crib-analyze build-leads`` for a rebuilt model (:func:`leads_for`).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np

from crib_analyze.artifacts.pegging_table import kept_multisets
from crib_analyze.errors import ModelError
from crib_analyze.settings import PACKAGED_LEADS, default_leads_output, packaged
from crib_analyze.storage.npz import read_npz, write_npz

LEADS_FORMAT = 2  # the leads and the replies (format 1, before 0.5.0: the leads alone)
N_KEEPS = 1820


@dataclass(frozen=True)
class SolverLeads:
    """``leads`` (13, 1820): by the starter's rank, the rank led from each keep (rows of
    :func:`crib_analyze.artifacts.pegging_table.kept_multisets`); -1 where the keep holds
    all four of the starter's rank. ``replies`` (13, 13, 1820), by the starter's rank and
    the lead's: the rank the dealer lays from each keep in answer; -1 where the keep, the
    starter and the lead hold more than four of a rank (None in a file of format 1, made
    before 0.5.0). ``provenance`` names the model (``expert_model``)."""

    leads: np.ndarray
    provenance: dict[str, Any] = field(default_factory=dict)
    replies: np.ndarray | None = None

    @property
    def model(self) -> str:
        """The fingerprint of the expert model the leads were made with."""
        return str(self.provenance.get("expert_model", ""))

    def save(self, path: str | os.PathLike[str]) -> None:
        if self.replies is None:  # the leads alone: the format of before 0.5.0
            write_npz(path, 1, self.provenance, {"leads": self.leads})
        else:
            arrays = {"leads": self.leads, "replies": self.replies}
            write_npz(path, LEADS_FORMAT, self.provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> SolverLeads:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> SolverLeads:
            leads = np.ascontiguousarray(arrays["leads"], np.int64)
            if leads.shape != (13, N_KEEPS) or leads.min() < -1 or leads.max() > 12:
                raise ValueError("leads of the wrong shape or outside the ranks")
            if not leads_are_playable(leads):
                raise ValueError("a lead of a rank the keep does not hold")
            names = set(arrays) - {"format", "provenance"}
            if int(arrays["format"]) == 1 and names == {"leads"}:
                return cls(leads, provenance)  # a file of before 0.5.0: no replies
            if names != {"leads", "replies"}:
                raise ValueError(f"arrays {sorted(names)}, expected leads and replies")
            replies = np.ascontiguousarray(arrays["replies"], np.int64)
            if replies.shape != (13, 13, N_KEEPS) or replies.min() < -1 or replies.max() > 12:
                raise ValueError("replies of the wrong shape or outside the ranks")
            if not replies_are_playable(replies):
                raise ValueError("a reply of a rank the keep does not hold")
            return cls(leads, provenance, replies)

        return read_npz(source, "the solver's leads", (LEADS_FORMAT, 1), parse)


def leads_are_playable(leads: np.ndarray) -> bool:
    """Whether every lead is a rank of its keep, and -1 just where the keep holds all
    four of the starter's rank (a damaged or rearranged table is not)."""
    keeps = kept_multisets()
    held = (keeps[:, :, None] == np.arange(13)).any(axis=1)  # (1820, 13) rank in keep
    four = (keeps[:, :, None] == np.arange(13)).sum(axis=1) == 4  # (1820, 13)
    none = leads == -1
    if not np.array_equal(none, four.T):
        return False
    k = np.broadcast_to(np.arange(N_KEEPS), leads.shape)
    return bool(held[k[~none], leads[~none]].all())


def replies_are_playable(replies: np.ndarray) -> bool:
    """Whether every reply is a rank of its keep, and -1 just where the keep, the starter
    and the lead hold more than four of a rank."""
    keeps = kept_multisets()
    counts = (keeps[:, :, None] == np.arange(13)).sum(axis=1)  # (1820, 13)
    # [starter, lead, keep]: a rank seen more than four times is one the keep holds four
    # of and the starter or the lead shows, or three of and both show
    four, three = (counts == 4).T, (counts >= 3).T  # (13, 1820)
    over = four[:, None] | four[None, :] | (np.eye(13, dtype=bool)[:, :, None] & three[:, None])
    none = replies == -1
    if not np.array_equal(none, over):
        return False
    k = np.broadcast_to(np.arange(N_KEEPS), replies.shape)
    return bool((counts[k[~none], replies[~none]] > 0).all())


@cache
def packaged_solver_leads() -> SolverLeads:
    """The solver's leads shipped with the package (made with the packaged model)."""
    with packaged(PACKAGED_LEADS).open("rb") as fh:
        return SolverLeads.load(fh)


@cache
def _built(path: str, stamp: tuple[int, int]) -> SolverLeads:
    """The leads in ``path`` as it was at ``stamp`` (read once per version of the file);
    a ModelError if it is damaged (never a silent fall back on another reading)."""
    try:
        return SolverLeads.load(path)
    except ModelError as e:
        raise ModelError(
            f"{e}; rebuild them (build-leads) or remove the file, and the solver reads "
            "the model's leads by the softmax alone"
        ) from None


def leads_for(fingerprint: str) -> SolverLeads | None:
    """The leads made with the model of ``fingerprint``: the packaged table, else the one
    ``build-leads`` wrote to the data dir; None if neither matches (the reading then
    goes by the softmax alone). A damaged file is a ModelError."""
    shipped = packaged_solver_leads()
    if shipped.model == fingerprint:
        return shipped
    path = default_leads_output()
    try:
        st = path.stat()
    except OSError:
        return None
    built = _built(str(path), (st.st_mtime_ns, st.st_size))
    return built if built.model == fingerprint else None
