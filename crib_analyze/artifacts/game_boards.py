"""The boards of the other games of two sides: from every position, the chance of each
way the game can end.

The games of two sides (five-dealt, five-card to 61, four and Canadian doubles in
partnership) have a board as the standard game does
(:mod:`crib_analyze.artifacts.board_table`): a position is (my side's score, the other
side's, whether my side deals), scores 0 to the target less one; each holds the
probability of the eight outcomes (a win or a loss, plain or by a skunk) and the
expected deals still to play. :mod:`crib_analyze.board.table_boards` computes them by
dynamic programming over simulated deals (``crib-analyze build-game-boards``), and the
provenance of each says how, with its sampling error.

Games of three or more sides have no board: a position there is three to five scores
and who deals (over five million positions with three players, each a sum over the
deals' joint points), so their chances come from simulated games.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze.errors import ModelError, describe_os_error
from crib_analyze.position import N_OUTCOMES, p_win
from crib_analyze.rules import GAMES, Rules
from crib_analyze.settings import (
    GAME_BOARDS_ENV,
    GAMES_WITH_BOARDS,
    PACKAGED_GAME_BOARDS,
    packaged,
)
from crib_analyze.storage.npz import read_npz, write_npz

GAME_BOARDS_FORMAT = 1
MAX_DEALS = 256  # a game cannot last longer: every deal scores at least a point


@dataclass(frozen=True)
class GameBoard:
    """One game's board: ``values`` (target, target, 2, 9), my side's score, the other's,
    my side deals (0/1); the eight outcomes' probabilities, then the deals left."""

    game: str
    values: np.ndarray

    def win(self) -> np.ndarray:
        """(target, target, 2) the probability that my side wins."""
        return np.asarray(np.clip(p_win(self.values[..., :N_OUTCOMES]), 0.0, 1.0))

    def win_at(self, mine: int, theirs: int, dealer: bool) -> float:
        """The probability that my side wins from one position."""
        outcomes = np.asarray(self.values[mine, theirs, int(dealer), :N_OUTCOMES], np.float64)
        return min(1.0, float(p_win(outcomes)))


@dataclass(frozen=True)
class GameBoards:
    """The boards by game; ``provenance[game]`` says how each was made."""

    boards: dict[str, GameBoard]
    provenance: dict[str, Any] = field(default_factory=dict)

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays = {name: b.values.astype(np.float32) for name, b in self.boards.items()}
        write_npz(path, GAME_BOARDS_FORMAT, self.provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> GameBoards:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> GameBoards:
            boards = {}
            for name in sorted(k for k in arrays if k not in ("format", "provenance")):
                if name not in GAMES_WITH_BOARDS:
                    raise ValueError(f"a board of no game of two sides: {name!r}")
                values = np.asarray(arrays[name], np.float64)
                problem = board_problem(values, GAMES[name])
                if problem:
                    raise ValueError(f"{name}: {problem}")
                outcomes = values[..., :N_OUTCOMES]  # stored as float32: sum to 1 again
                outcomes /= outcomes.sum(-1, keepdims=True)
                values.setflags(write=False)
                boards[name] = GameBoard(name, values)
            return cls(boards, provenance)

        return read_npz(source, "the game boards", GAME_BOARDS_FORMAT, parse)


def board_problem(values: np.ndarray, rules: Rules) -> str | None:
    """What is wrong with ``values`` as the board of ``rules``, or None."""
    t = rules.target
    if values.shape != (t, t, 2, N_OUTCOMES + 1):
        return f"values of shape {values.shape}, not {(t, t, 2, N_OUTCOMES + 1)}"
    outcomes = values[..., :N_OUTCOMES]
    if not np.isfinite(values).all() or abs(outcomes.sum(-1) - 1).max() > 1e-4:
        return "outcome probabilities that do not sum to 1"
    if outcomes.min() < -1e-6 or outcomes.max() > 1 + 1e-6:
        return "outcome probabilities outside [0, 1]"
    left = values[..., N_OUTCOMES]
    if left.min() < 1 - 1e-4 or left.max() > MAX_DEALS:
        return f"expected deals left outside [1, {MAX_DEALS}]"
    return None


@cache
def packaged_game_boards() -> GameBoards:
    """The boards shipped with the package."""
    with packaged(PACKAGED_GAME_BOARDS).open("rb") as fh:
        return GameBoards.load(fh)


@cache
def _boards_file(path: str, stamp: tuple[int, int]) -> GameBoards:
    return GameBoards.load(path)


def game_boards() -> GameBoards:
    """The boards in use: ``$CRIB_ANALYZE_GAME_BOARDS`` if set (read once per version of
    the file), else the packaged ones."""
    chosen = os.environ.get(GAME_BOARDS_ENV) or None
    if chosen is None:
        return packaged_game_boards()
    p = Path(chosen).expanduser()
    try:
        st = p.stat()
    except OSError as e:
        raise ModelError(
            f"no game boards at {p} (from ${GAME_BOARDS_ENV}): {describe_os_error(e)}"
        ) from None
    return _boards_file(str(p), (st.st_mtime_ns, st.st_size))


def game_board(rules: Rules) -> tuple[GameBoard, dict[str, Any]] | None:
    """The board of ``rules`` in use and its provenance: a game of two sides as dealt,
    without a variant; None for any other (their chances come from simulated games)."""
    if rules.name not in GAMES_WITH_BOARDS or rules != GAMES[rules.name]:
        return None
    boards = game_boards()
    board = boards.boards.get(rules.name)
    return None if board is None else (board, dict(boards.provenance.get(rules.name, {})))
