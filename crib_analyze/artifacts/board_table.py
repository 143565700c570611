"""The board table: from every position, the chance of each way the game can end.

A position is (my score, the opponent's, whether I deal this deal), scores 0-120. The
table holds, for each, the probability of the eight :class:`~crib_analyze.position.Outcome`
values (a win or a loss, plain or by a skunk, double or triple skunk) and the expected
number of deals still to play. :mod:`crib_analyze.board.build` computes it by dynamic
programming over simulated deals (``crib-analyze build-board``); it ships with the
package and its provenance.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze.errors import ModelError
from crib_analyze.position import (
    N_OUTCOMES,
    check_score,
    p_win,
    scoring_points,
)
from crib_analyze.rules import TARGET
from crib_analyze.settings import BOARD_ENV, PACKAGED_BOARD, packaged
from crib_analyze.storage import checked
from crib_analyze.storage.npz import blake2b, read_npz, write_npz
from crib_analyze.storage.raw import keep_fast_form, read_fast_form

BOARD_FORMAT = 1
MAX_DEALS = 256  # a game cannot last longer: every deal scores at least a point


@dataclass(frozen=True)
class BoardTable:
    """Per position: P of each :class:`Outcome` and the expected deals left."""

    values: np.ndarray  # (121, 121, 2, 9): my score, theirs, I deal (0/1); channels
    #: the channel after the outcomes: the expected deals to the end of the game
    DEALS_LEFT = N_OUTCOMES
    provenance: dict[str, Any] = field(default_factory=dict)

    def fingerprint(self) -> str:
        """A short digest of the values."""
        return _digest(self.values)

    def outcomes(self) -> np.ndarray:
        """(121, 121, 2, 8) outcome probabilities, float64."""
        return np.asarray(self.values[..., :N_OUTCOMES], np.float64)

    def win(self) -> np.ndarray:
        """(121, 121, 2) the probability that I win."""
        return np.asarray(np.clip(p_win(self.outcomes()), 0.0, 1.0))

    def match_points(self, scoring: str) -> np.ndarray:
        """(121, 121, 2) expected match points, what I win minus what I lose."""
        return np.asarray(self.outcomes() @ scoring_points(scoring))

    def deals_left(self) -> np.ndarray:
        """(121, 121, 2) expected deals to the end of the game, this one included."""
        return np.asarray(self.values[..., self.DEALS_LEFT], np.float64)

    def at(self, mine: int, theirs: int, dealer: bool) -> np.ndarray:
        """(9,) the channels at one position."""
        a, b = check_score("my score", mine), check_score("the opponent's score", theirs)
        return np.asarray(self.values[a, b, int(bool(dealer))], np.float64)

    def win_at(self, mine: int, theirs: int, dealer: bool) -> float:
        """The probability that I win from one position (as :meth:`win`)."""
        return min(1.0, float(p_win(self.at(mine, theirs, dealer)[:N_OUTCOMES])))

    def save(self, path: str | os.PathLike[str]) -> None:
        stored = self.values.astype(np.float32)
        provenance = self.provenance | {"stored_fingerprint": _digest(stored)}
        write_npz(path, BOARD_FORMAT, provenance, {"values": stored})

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> BoardTable:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> BoardTable:
            stamp = provenance.get("stored_fingerprint")
            if stamp is not None and stamp != _digest(np.asarray(arrays["values"])):
                raise ValueError("its values do not match their fingerprint")
            values = np.asarray(arrays["values"], np.float64)
            if values.shape != (TARGET, TARGET, 2, N_OUTCOMES + 1):
                raise ValueError(f"values of shape {values.shape}")
            outcomes = values[..., :N_OUTCOMES]
            if not np.isfinite(values).all() or abs(outcomes.sum(-1) - 1).max() > 1e-4:
                raise ValueError("outcome probabilities that do not sum to 1")
            if outcomes.min() < -1e-6 or outcomes.max() > 1 + 1e-6:
                raise ValueError("outcome probabilities outside [0, 1]")
            left = values[..., N_OUTCOMES]
            if left.min() < 1 - 1e-4 or left.max() > MAX_DEALS:
                raise ValueError(f"expected deals left outside [1, {MAX_DEALS}]")
            # stored as float32: renormalise so that each position's outcomes sum to 1
            outcomes /= outcomes.sum(-1, keepdims=True)
            values.setflags(write=False)
            return cls(values, provenance=provenance)

        return read_npz(source, "the board table", BOARD_FORMAT, parse)


BOARD_FAST_FORM = 1  # the fast form's layout


@cache
def packaged_board_table() -> BoardTable:
    """The board table shipped with the package: from its fast form in the cache folder
    (:func:`~crib_analyze.storage.raw.read_fast_form`: the checked values, raw) when one
    is kept, else read from its file and kept in that form."""
    path = Path(str(packaged(PACKAGED_BOARD)))
    code = (__file__,)  # an edit to this reader makes the fast form again
    found = read_fast_form(path, "board_table", BOARD_FAST_FORM, frozenset({"values"}), code)
    if found is not None:
        meta, arrays, where = found
        checked.note(
            f"the board table ({path})",
            f"its fast form in the cache ({where.name}): CRC-32 matched, made from the "
            "file when its digest matched",
        )
        values = np.asarray(arrays["values"])
        values.setflags(write=False)
        return BoardTable(values, provenance=dict(meta["provenance"]))
    with path.open("rb") as fh:
        table = BoardTable.load(fh)
    keep_fast_form(
        path, "board_table", BOARD_FAST_FORM, {"provenance": table.provenance},
        {"values": table.values}, code,
    )  # fmt: skip
    return table


def load_board(path: str | os.PathLike[str] | None = None) -> BoardTable:
    """The board table at ``path``, else ``$CRIB_ANALYZE_BOARD``, else the packaged one."""
    path = path or os.environ.get(BOARD_ENV) or None
    if path is None:
        return packaged_board_table()
    if not os.path.exists(path):
        raise ModelError(f"no board table at {path}")
    return BoardTable.load(path)


def _digest(values: np.ndarray) -> str:
    return blake2b(np.ascontiguousarray(values).tobytes(), digest_size=8).hexdigest()
