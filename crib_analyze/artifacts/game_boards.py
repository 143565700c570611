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

The games of three players each for themselves (three, three-dealer-six) have a board
too (:class:`ThreeBoard`): a position is the three scores from the dealer's left to the
dealer, 121 x 121 x 121 of them; each holds every seat's chance of winning and of
winning with a skunk, solved by :mod:`crib_analyze.board.three_board_kernels`. It is
stored to 1/65535, as differences along two axes (smooth, so they pack well).

Five players have no board: 121^5 positions, each a sum over the deals' joint points,
are beyond a laptop; their chances come from simulated games.
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
THREE_CHANNELS = 6  # a board of three: each seat's chance of winning, then of a skunk win
QUANTUM = 65535  # a board of three is stored in steps of 1/QUANTUM


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
class ThreeBoard:
    """A board of three players each for themselves: ``values`` (target, target, target,
    6), the scores of the dealer's left, the middle seat and the dealer; each seat's
    chance of winning (in that order), then of winning with a loser short of the skunk
    line."""

    game: str
    values: np.ndarray

    def win(self) -> np.ndarray:
        """(target, target, target, 3) each seat's chance of winning."""
        return self.values[..., :3]

    def chances(self, scores: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray]:
        """Each seat's chance of winning and of winning with a skunk from ``scores``
        (left, middle, dealer), the dealer about to deal."""
        v = np.asarray(self.values[scores[0], scores[1], scores[2]], np.float64)
        return v[:3], v[3:]


def pack_three(values: np.ndarray) -> np.ndarray:
    """A board of three's values as stored: the first two seats' chances of winning (the
    third's is the rest) and the three chances of a skunk win, each in steps of
    1/QUANTUM, channel by channel (5, target, target, target), as uint16 differences
    along the last two score axes (wrapping: undone exactly by :func:`unpack_three`)."""
    kept = np.concatenate([values[..., :2], values[..., 3:THREE_CHANNELS]], axis=-1)
    q = np.rint(np.clip(np.moveaxis(kept, -1, 0), 0.0, 1.0) * QUANTUM).astype(np.uint16)
    q = np.diff(q, axis=3, prepend=np.uint16(0))
    return np.ascontiguousarray(np.diff(q, axis=2, prepend=np.uint16(0)))


def unpack_three(stored: np.ndarray) -> np.ndarray:
    """:func:`pack_three` undone: (target, target, target, 6) float64."""
    q = np.cumsum(np.cumsum(stored, axis=2, dtype=np.uint16), axis=3, dtype=np.uint16)
    kept = np.moveaxis(q, 0, -1).astype(np.float64) / QUANTUM
    third = np.clip(1.0 - kept[..., 0] - kept[..., 1], 0.0, 1.0)
    return np.concatenate([kept[..., :2], third[..., None], kept[..., 2:]], axis=-1)


@dataclass(frozen=True)
class GameBoards:
    """The boards by game; ``provenance[game]`` says how each was made."""

    boards: dict[str, GameBoard | ThreeBoard]
    provenance: dict[str, Any] = field(default_factory=dict)

    def save(self, path: str | os.PathLike[str]) -> None:
        arrays = {
            name: pack_three(b.values) if isinstance(b, ThreeBoard)
            else b.values.astype(np.float32)
            for name, b in self.boards.items()
        }  # fmt: skip
        write_npz(path, GAME_BOARDS_FORMAT, self.provenance, arrays)

    @classmethod
    def load(cls, source: str | os.PathLike[str] | Any) -> GameBoards:
        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> GameBoards:
            boards: dict[str, GameBoard | ThreeBoard] = {}
            for name in sorted(k for k in arrays if k not in ("format", "provenance")):
                if name not in GAMES_WITH_BOARDS:
                    raise ValueError(f"a board of no game with boards: {name!r}")
                if len(GAMES[name].sides) == 3:
                    three = unpack_three(np.asarray(arrays[name], np.uint16))
                    problem = three_problem(three, GAMES[name])
                    if problem:
                        raise ValueError(f"{name}: {problem}")
                    three.setflags(write=False)
                    boards[name] = ThreeBoard(name, three)
                    continue
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


def three_problem(values: np.ndarray, rules: Rules) -> str | None:
    """What is wrong with ``values`` as the board of three of ``rules``, or None."""
    t = rules.target
    if values.shape != (t, t, t, THREE_CHANNELS):
        return f"values of shape {values.shape}, not {(t, t, t, THREE_CHANNELS)}"
    win, skunk = values[..., :3], values[..., 3:]
    if not np.isfinite(values).all() or abs(win.sum(-1) - 1).max() > 1e-4:
        return "chances of winning that do not sum to 1"
    if values.min() < -1e-6 or (skunk - win).max() > 1e-4:
        return "chances of a skunk win outside [0, the chance of winning]"
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


def game_board(rules: Rules) -> tuple[GameBoard | ThreeBoard, dict[str, Any]] | None:
    """The board of ``rules`` in use and its provenance: a game of two sides or of three
    players as dealt, without a variant; None for any other (their chances come from
    simulated games)."""
    if rules.name not in GAMES_WITH_BOARDS or rules != GAMES[rules.name]:
        return None
    boards = game_boards()
    board = boards.boards.get(rules.name)
    return None if board is None else (board, dict(boards.provenance.get(rules.name, {})))
