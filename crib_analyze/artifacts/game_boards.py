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
winning with a skunk, and of taking second place in the continuation game, solved by
:mod:`crib_analyze.board.three_board_kernels`. It is stored to 1/65535, as differences
along two axes (smooth, so they pack well).

Five players have no board: 121^5 positions, each a sum over the deals' joint points,
are beyond a laptop; their chances come from simulated games.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, partial
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze.errors import ModelError, describe_os_error
from crib_analyze.position import N_OUTCOMES, p_win
from crib_analyze.rules import GAMES, Rules
from crib_analyze.settings import (
    GAME_BOARDS_ENV,
    GAMES_WITH_BOARDS,
    MADE_BOARD_SCHEME,
    MADE_BOARDS_FOLDER,
    PACKAGED_GAME_BOARDS,
    data_dir,
    packaged,
)
from crib_analyze.storage.npz import (
    DEFERRED,
    deferred_digests,
    read_deferred,
    read_npz,
    write_npz,
)

GAME_BOARDS_FORMAT = 1
MAX_DEALS = 256  # a game cannot last longer: every deal scores at least a point
#: a board of three: each seat's chance of winning, then of a skunk win, then of second place
THREE_CHANNELS = 9
#: ... stored: the first two seats' wins, the three skunk wins, the first two seconds (the
#: third seat's win and second are the rest)
STORED_CHANNELS = (0, 1, 3, 4, 5, 6, 7)
#: a board of three made before second place was solved (crib-analyze 0.4) stores the
#: first five: it answers all but the continuation game
WINS_ONLY = 5
REBUILD_THREE = "crib-analyze build-game-boards --game three --game three-dealer-six"
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


class ThreeBoard:
    """A board of three players each for themselves: ``values`` (target, target, target,
    9), the scores of the dealer's left, the middle seat and the dealer; each seat's
    chance of winning (in that order), then of winning with a loser short of the skunk
    line, then of taking second place in the continuation game. Read from a file, it is
    read when first asked for (``stored``: the packed array, see :func:`pack_three`) and
    checked then."""

    def __init__(
        self,
        game: str,
        values: np.ndarray | None = None,
        stored: Callable[[], np.ndarray] | None = None,
    ) -> None:
        self.game = game
        self._values = values
        self._stored = stored
        self._packed: np.ndarray | None = None
        self._steps: np.ndarray | None = None
        self._win: np.ndarray | None = None
        self._outcomes: np.ndarray | None = None

    def packed(self) -> np.ndarray:
        """The board as stored (:func:`pack_three`)."""
        if self._packed is None:
            self._packed = self._stored() if self._stored is not None else pack_three(self.values)
        return self._packed

    def steps(self) -> np.ndarray:
        """(7, target, target, target) uint16: the stored chances in steps of 1/QUANTUM,
        the first two seats' chances of winning, the three chances of a skunk win and the
        first two seats' chances of second place; checked (a ModelError naming the game if
        out of range)."""
        if self._steps is None:
            steps = np.cumsum(
                np.cumsum(self.packed(), axis=2, dtype=np.uint16), axis=3, dtype=np.uint16
            )
            problem = steps_problem(steps, GAMES[self.game])
            if problem:
                raise ModelError(f"the board of {self.game}: {problem}")
            self._steps = steps
        return self._steps

    @property
    def values(self) -> np.ndarray:
        """(target, target, target, 9) float64, as the class says."""
        if self._values is None:
            values = unpacked(self.steps())
            values.setflags(write=False)
            self._values = values
        return self._values

    def has_second(self) -> bool:
        """Whether the board holds second place (one made before it did not)."""
        if self._values is not None:
            return self._values.shape[-1] > 6 and not np.isnan(self._values[0, 0, 0, 6])
        return int(self.steps().shape[0]) == len(STORED_CHANNELS)

    def win(self) -> np.ndarray:
        """(target, target, target, 3) each seat's chance of winning (only those
        channels unpacked)."""
        if self._win is None:
            if self._values is not None:
                self._win = np.ascontiguousarray(self._values[..., :3])
            else:
                self._win = unpacked(self.steps()[:2], 3)
        return self._win

    def outcomes(self) -> np.ndarray:
        """(target, target, target, 6) each seat's chance of winning, then of a skunk
        win (second place left packed)."""
        if self._outcomes is None:
            if self._values is not None:
                self._outcomes = np.ascontiguousarray(self._values[..., :6])
            else:
                self._outcomes = unpacked(self.steps()[:WINS_ONLY], 6)
        return self._outcomes

    def chances(self, scores: tuple[int, int, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Each seat's chance of winning, of winning with a skunk and of second place
        (the continuation game) from ``scores`` (left, middle, dealer), the dealer about
        to deal."""
        if self._values is None:  # one cell of the stored steps: the rest stays packed
            v = unpacked(self.steps()[:, scores[0], scores[1], scores[2]])
        else:
            v = np.asarray(self.values[scores[0], scores[1], scores[2]], np.float64)
        return v[:3], v[3:6], v[6:]


def unpacked(steps: np.ndarray, channels: int = THREE_CHANNELS) -> np.ndarray:
    """(..., channels) float64 chances from (k, ...) stored steps (:meth:`ThreeBoard.
    steps`, or their first k): the first two seats' chances of winning, the third's the
    rest, the three chances of a skunk win, then the first two seats' chances of second
    place, the third's the rest (NaN where the steps stop short: a board made before
    second place)."""
    values = np.empty((*steps.shape[1:], channels))
    for c, channel in enumerate(STORED_CHANNELS):
        if channel >= channels:
            break
        if c >= steps.shape[0]:
            values[..., channel] = np.nan
            continue
        np.multiply(steps[c], 1.0 / QUANTUM, out=values[..., channel])
    np.clip(1.0 - values[..., 0] - values[..., 1], 0.0, 1.0, out=values[..., 2])
    if channels > 8:
        np.clip(1.0 - values[..., 6] - values[..., 7], 0.0, 1.0, out=values[..., 8])
    return values


def pack_three(values: np.ndarray) -> np.ndarray:
    """A board of three's values as stored: the first two seats' chances of winning (the
    third's is the rest), the three chances of a skunk win and the first two seats'
    chances of second place, each in steps of 1/QUANTUM, channel by channel (7, target,
    target, target), as uint16 differences along the last two score axes (wrapping:
    undone exactly by :meth:`ThreeBoard.steps`). Smooth, so they pack well: about 4 MB a
    board."""
    kept = values[..., list(STORED_CHANNELS)]
    q = np.rint(np.clip(np.moveaxis(kept, -1, 0), 0.0, 1.0) * QUANTUM).astype(np.uint16)
    q = np.diff(q, axis=3, prepend=np.uint16(0))
    return np.ascontiguousarray(np.diff(q, axis=2, prepend=np.uint16(0)))


@dataclass(frozen=True)
class GameBoards:
    """The boards by game; ``provenance[game]`` says how each was made."""

    boards: dict[str, GameBoard | ThreeBoard]
    provenance: dict[str, Any] = field(default_factory=dict)

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the boards; a board of three is deferred (read when first asked for)."""
        arrays, deferred = {}, {}
        for name, b in self.boards.items():
            if isinstance(b, ThreeBoard):
                deferred[name] = b.packed()
            else:
                arrays[name] = b.values.astype(np.float32)
        write_npz(path, GAME_BOARDS_FORMAT, self.provenance, arrays, deferred)

    @classmethod
    def load(cls, source: str | os.PathLike[str]) -> GameBoards:
        """The boards of the file at ``source``; its boards of three are read when first
        asked for."""

        def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> GameBoards:
            boards: dict[str, GameBoard | ThreeBoard] = {}
            later = deferred_digests(arrays)
            names = [k for k in arrays if k not in ("format", "provenance", DEFERRED)]
            for name in sorted([*names, *later]):
                if name not in GAMES_WITH_BOARDS:
                    raise ValueError(f"a board of no game with boards: {name!r}")
                if len(GAMES[name].sides) == 3:
                    if name not in later:
                        raise ValueError(f"{name}: a board of three stored as a small board")
                    boards[name] = ThreeBoard(
                        name, stored=partial(read_deferred, source, "the game boards", name,
                                             later[name]),
                    )  # fmt: skip
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


def steps_problem(steps: np.ndarray, rules: Rules) -> str | None:
    """What is wrong with ``steps`` (:meth:`ThreeBoard.steps`) as the board of three of
    ``rules``, or None: the first two seats' chances of winning, or of second place, more
    than 1 together, or a chance of a skunk win above the seat's chance of winning (a
    step of rounding allowed each)."""
    t = rules.target
    shape = (len(STORED_CHANNELS), t, t, t)
    if steps.shape != shape and steps.shape != (WINS_ONLY, t, t, t):
        return f"a board of shape {steps.shape}, not {shape}"
    wide = steps.astype(np.int32)
    first_two = wide[0] + wide[1]
    if first_two.max() > QUANTUM + 2:
        return "chances of winning that do not sum to 1"
    third = QUANTUM - first_two
    if ((wide[2] > wide[0] + 2) | (wide[3] > wide[1] + 2) | (wide[4] > third + 3)).any():
        return "chances of a skunk win above the chance of winning"
    if len(wide) > WINS_ONLY and (wide[5] + wide[6]).max() > QUANTUM + 2:
        return "chances of second place that do not sum to 1"
    return None


@cache
def packaged_game_boards() -> GameBoards:
    """The boards shipped with the package."""
    return GameBoards.load(Path(str(packaged(PACKAGED_GAME_BOARDS))))


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


def board_key(rules: Rules) -> str:
    """The name of the board of ``rules``: the game's and every variant that changes a
    deal's points.

    >>> from crib_analyze.rules import game
    >>> board_key(game("standard", throw_fives=True, penalty="zero"))
    'standard+throw-fives+zero-penalty'
    """
    from crib_analyze.artifacts.game_models import model_key

    key = model_key(rules)
    return key if rules.penalty == "none" else f"{key}+{rules.penalty}-penalty"


def made_board_path(rules: Rules) -> Path:
    """Where the board of ``rules`` made on its first use is kept: the data dir's
    :data:`~crib_analyze.settings.MADE_BOARDS_FOLDER`, one file a board."""
    return data_dir() / MADE_BOARDS_FOLDER / f"{board_key(rules)}.npz"


#: boards made in this process, by key (kept in the data dir too where it can be written)
_MADE_HERE: dict[str, tuple[GameBoard | ThreeBoard, dict[str, Any]]] = {}


def save_made_board(
    rules: Rules, board: GameBoard | ThreeBoard, provenance: dict[str, Any]
) -> None:
    """Keep ``board``, just made, for this process and in the data dir (where it can be
    written: a folder that cannot take it only means it is made again next time); a board
    of three as it is packed (:func:`pack_three`)."""
    key = board_key(rules)
    _MADE_HERE[key] = (board, provenance)
    path = made_board_path(rules)
    stored = board.packed() if isinstance(board, ThreeBoard) else board.values.astype(np.float32)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_npz(path, GAME_BOARDS_FORMAT, {key: provenance}, {key: stored})
    except (OSError, ModelError):
        pass


@cache
def _made_board_file(path: str, stamp: tuple[int, int], rules: Rules) -> tuple[
    GameBoard | ThreeBoard, dict[str, Any]
]:  # fmt: skip
    key = board_key(rules)

    def parse(arrays: dict[str, np.ndarray], provenance: dict[str, Any]) -> tuple[
        GameBoard | ThreeBoard, dict[str, Any]
    ]:  # fmt: skip
        if key not in arrays:
            raise ValueError(f"no board {key!r} in it")
        made = dict(provenance.get(key, {}))
        if len(rules.sides) == 3:
            packed = np.asarray(arrays[key])
            t = rules.target
            if packed.shape != (len(STORED_CHANNELS), t, t, t) or packed.dtype != np.uint16:
                raise ValueError(f"a board of three of shape {packed.shape}")
            board = ThreeBoard(rules.name, stored=lambda: packed)
            board.steps()  # checked now: a damaged file is made again
            return board, made
        values = np.asarray(arrays[key], np.float64)
        problem = board_problem(values, rules)
        if problem:
            raise ValueError(problem)
        outcomes = values[..., :N_OUTCOMES]  # stored as float32: sum to 1 again
        outcomes /= outcomes.sum(-1, keepdims=True)
        values.setflags(write=False)
        return GameBoard(key, values), made

    return read_npz(path, f"the board of {key}", GAME_BOARDS_FORMAT, parse)


def made_board(rules: Rules) -> tuple[GameBoard | ThreeBoard, dict[str, Any]] | None:
    """The board of ``rules`` made on an earlier first use (in this process, or kept in
    the data dir, sound and made the way boards are made now,
    :data:`~crib_analyze.settings.MADE_BOARD_SCHEME`) and its provenance; None if none
    is (it is made again)."""
    key = board_key(rules)
    if key in _MADE_HERE:
        return _MADE_HERE[key]
    path = made_board_path(rules)
    try:
        st = path.stat()
        found = _made_board_file(str(path), (st.st_mtime_ns, st.st_size), rules)
    except (OSError, ModelError):
        return None
    return found if found[1].get("made_scheme") == MADE_BOARD_SCHEME else None  # else: made again
