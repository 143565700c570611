"""Every default, bound and choice of crib-analyze, once; and where files go.

The library validates its parameters with these settings at the API edge, and the
command line builds its options from them (click ranges and choices, the defaults in
``--help``), so the two cannot disagree. Choices are ``Literal`` types with their
values as tuples (``ROLES = get_args(Role)``). Nothing here imports numba, numpy or
pandas, so ``--help`` answers at once.

Files the package ships (the expert model, the pegging and board tables, the per-role
crib tables) are package data, read from the package folder (:func:`packaged`). Files
the user generates (discard tables, rebuilt models and tables) go to the user data directory
of :mod:`platformdirs` (``~/.local/share/crib-analyze`` on Linux), or
``$CRIB_ANALYZE_DATA_DIR`` when set; an explicit output path always wins.

>>> SAMPLES.check(500)
500
>>> NEED.check(30)
Traceback (most recent call last):
...
crib_analyze.errors.UsageError: need must be a whole number from 0 to 29, got 30
>>> default_table_path("expert").name
'discard_table_expert.parquet'
>>> table_format_for("out.csv", None)
'csv'
"""

from __future__ import annotations

import math
import numbers
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

from crib_analyze.errors import UsageError

if TYPE_CHECKING:
    from importlib.resources.abc import Traversable

#: the package version, read by pyproject.toml too (one source, no metadata lookup at start)
__version__ = "0.4.0"

APP_NAME = "crib-analyze"

# --- choices ------------------------------------------------------------------------------

Role = Literal["dealer", "pone"]
#: the roles in the order results show them (the dealer's first); arrays use position.Seat
ROLES: tuple[Role, ...] = get_args(Role)
Opponent = Literal["expert", "random", "sampled"]  # how the opponent's crib cards are modelled
OPPONENTS: tuple[Opponent, ...] = get_args(Opponent)
SampledPolicy = Literal["random", "expert"]  # how a sampled opponent throws
SAMPLED_POLICIES: tuple[SampledPolicy, ...] = get_args(SampledPolicy)
TableOpponent = Literal["random", "expert"]  # models the full table can be built with
TABLE_OPPONENTS: tuple[TableOpponent, ...] = get_args(TableOpponent)
SortKey = Literal["total", "net", "hand", "crib", "need"]
SORT_KEYS: tuple[SortKey, ...] = get_args(SortKey)
OutputFormat = Literal["table", "csv", "json"]  # printed results
OUTPUT_FORMATS: tuple[OutputFormat, ...] = get_args(OutputFormat)
TableFormat = Literal["parquet", "csv"]  # table files
TABLE_FORMATS: tuple[TableFormat, ...] = get_args(TableFormat)
# how discards count the play: the pegging table, the play of these very cards simulated
# by the solver ("exact" is its old name, read as "simulated"), or not at all
Pegging = Literal["table", "simulated", "exact", "none"]
PEGGING_CHOICES: tuple[Pegging, ...] = get_args(Pegging)
PlayPolicy = Literal["greedy", "lookahead", "search", "rulebot", "solver"]  # how a player lays
PLAY_POLICIES: tuple[PlayPolicy, ...] = get_args(PlayPolicy)
# what a show that scores nothing costs: no variant, zero penalty (the opponent scores 1)
# or back ten (its owner loses 10)
Penalty = Literal["none", "zero", "back-ten"]
PENALTIES: tuple[Penalty, ...] = get_args(Penalty)
# how a player lays in a game of any number of players (the first the default): the
# lookahead, the greedy policy, or the solver (crib_analyze.play.table_play_kernels:
# each decision over SOLVER_DRAWS draws of the unseen cards, each draw's rest of the
# play solved exactly)
AnyGamePlayPolicy = Literal["lookahead", "greedy", "solver"]
ANY_GAME_PLAY_POLICIES: tuple[AnyGamePlayPolicy, ...] = get_args(AnyGamePlayPolicy)
# play advice's default in another game or variant whose play is solved
# (rules.Rules.play_solved: two, three or five players each for themselves), where the
# solver gains 0.12-0.22 points a deal over the lookahead
# (benchmarks/bench_table_solver.py); with five it lays once the other seats hold
# constants.SOLVER_MOST_HIDDEN cards or fewer (before, a draw's solve takes seconds: the
# lookahead), as the solver player of five's whole games does, which wins +0.54 points
# of percentage a game (4.4 s.e., bench_game_players.py); in partnerships it gains nothing
SOLVED_ADVICE_POLICY: AnyGamePlayPolicy = "solver"
# how the other seats' throws reach the crib in a game other than the standard one
GameOthers = Literal["expert", "random", "hand"]
GAME_OTHERS: tuple[GameOthers, ...] = get_args(GameOthers)
# how the seats of a game other than the standard one throw in whole games: by the game's
# expert model (its default where it has one that throws better: HAND_THROW_GAMES) or by
# the hand policy (random cribs)
GameThrowPolicy = Literal["expert", "hand"]
GAME_THROW_POLICIES: tuple[GameThrowPolicy, ...] = get_args(GameThrowPolicy)
#: the games whose players throw by the hand policy unless told, though an expert throw
#: model ships for them: there the model throws measurably worse than the hand policy
#: (it gives up the hand and its play for the crib; benchmarks/README.md, "Which
#: throws play best"); the model stays the picture of the other seats in ``discard``
HAND_THROW_GAMES = ("five-card", "five")
#: with jokers in the pack, the games whose players throw by the expert model of the pack
#: in whole games unless told: the standard game's (it won 50.21% ± 0.10% against the hand
#: policy, benchmarks/README.md) and those whose models won by over 3 s.e. over one and
#: two jokers together (30,000 duplicate games each: five-dealt z 3.2, three-dealer-six
#: z 3.7); the hand policy elsewhere (three z 2.5, four 1.6, Canadian doubles 1.3 at
#: 20,000 games a pack: gains not shown; five-card and five: none)
EXPERT_THROW_JOKER_GAMES = ("standard", "five-dealt", "three-dealer-six")
#: under throw fives or lowball (by :func:`model_variant_of`'s names), the games whose
#: expert model of that variant wins
#: significantly more whole games than the hand policy (by over 3 s.e., 30,000 duplicate
#: games a game, benchmarks/README.md): their players throw by it unless told; the
#: hand policy elsewhere (five players under throw fives: the model loses; the games
#: not listed: not measured)
EXPERT_THROW_VARIANT_GAMES: dict[str, tuple[str, ...]] = {
    "throw-fives": (
        "five-dealt",
        "five-card",
        "three",
        "three-dealer-six",
        "four",
        "canadian-doubles",
    ),
    "lowball": ("five-dealt", "five-card", "four"),
    "throw-fives-lowball": ("five-dealt", "five-card", "four"),
}
# how a simulated player throws
GamePlayer = Literal["expert", "points", "position", "mixed", "table"]
GAME_PLAYERS: tuple[GamePlayer, ...] = get_args(GamePlayer)
Goal = Literal["win", "match"]  # what a throw from a score is ranked by
GOALS: tuple[Goal, ...] = get_args(Goal)
Scoring = Literal["tournament", "tournament-variant", "free", "free-triple", "lurch"]
# the packaged expert models: throws counting the play, or hand +- crib only; and the
# classic expert of the variants, built by players who obey the throw fives rule, or
# who want the fewest points (lowball), or both
ModelKind = Literal["pegging", "classic", "throw-fives", "lowball", "throw-fives-lowball"]
MODEL_KINDS: tuple[ModelKind, ...] = get_args(ModelKind)
#: the variants' model kinds
MODEL_VARIANTS: tuple[str, ...] = ("throw-fives", "lowball", "throw-fives-lowball")


def model_variant_of(throw_fives: bool, lowball: bool) -> str | None:
    """The kind of expert model of players who obey throw fives and/or want the fewest
    points (None: the plain game's).

    >>> model_variant_of(True, True), model_variant_of(False, True)
    ('throw-fives-lowball', 'lowball')
    """
    if throw_fives and lowball:
        return "throw-fives-lowball"
    return "throw-fives" if throw_fives else "lowball" if lowball else None


def variant_obeys(variant: str | None) -> tuple[bool, bool]:
    """(obeys throw fives, wants the fewest points) of a model ``variant``.

    >>> variant_obeys("throw-fives-lowball"), variant_obeys(None)
    ((True, True), (False, False))
    """
    return variant in ("throw-fives", "throw-fives-lowball"), variant in (
        "lowball",
        "throw-fives-lowball",
    )


QuizRole = Literal["dealer", "pone", "random"]
QUIZ_ROLES: tuple[QuizRole, ...] = get_args(QuizRole)
QuizOpponent = Literal["expert", "random"]
QUIZ_OPPONENTS: tuple[QuizOpponent, ...] = get_args(QuizOpponent)

#: match points for a win, a skunk, a double skunk, a triple skunk, by scoring
SCORINGS: dict[Scoring, tuple[int, int, int, int]] = {
    "tournament": (2, 3, 3, 3),  # American Cribbage Congress: 2 a win, 3 a skunk
    "tournament-variant": (2, 3, 4, 4),
    "free": (1, 2, 4, 4),
    "free-triple": (1, 2, 4, 4),  # and a triple skunk wins the match outright
    # the British convention: a loser short of half the target (61) is lurched, a double
    # game; the skunk line at three quarters (91) does not count
    "lurch": (1, 1, 2, 2),
}
#: scorings in which a triple skunk wins the match at once
MATCH_WINNING_TRIPLE: tuple[Scoring, ...] = ("free-triple",)

DEFAULT_OPPONENT: Opponent = "expert"
DEFAULT_TABLE_OPPONENT: TableOpponent = "random"
DEFAULT_SAMPLED_POLICY: SampledPolicy = "random"
DEFAULT_PEGGING: Pegging = "table"
#: how players lay their cards: play advice, whole games, the pegging table
DEFAULT_PLAY_POLICY: PlayPolicy = "solver"
#: the play of the engines that play thousands of deals for one answer while a user
#: waits (throws from a score, exact-cards pegging, the position samples of a game) and
#: of the board table's million deals: ~100x faster than the solver; their kernels do
#: not compile it
QUICK_PLAY_POLICY: PlayPolicy = "lookahead"
DEFAULT_SCORING: Scoring = "tournament"
DEFAULT_GOAL: Goal = "win"
DEFAULT_PLAYERS: tuple[GamePlayer, GamePlayer] = ("expert", "expert")
NEAR_TIE_POINTS = 0.01  # throws this close to a role's best are flagged as near ties


# --- numbers: a default and a range each --------------------------------------------------


@dataclass(frozen=True)
class Bound:
    """A whole-number parameter with no default: its name in messages and inclusive range."""

    name: str
    lo: int
    hi: int

    def check(self, value: object) -> int:
        """``value`` as an int, or a one-line UsageError naming the parameter and range."""
        if (
            isinstance(value, bool)
            or not isinstance(value, numbers.Integral)
            or not self.lo <= int(value) <= self.hi
        ):
            raise UsageError(
                f"{self.name} must be a whole number from {self.lo:,} to {self.hi:,}, got {value!r}"
            )
        return int(value)


@dataclass(frozen=True)
class Count(Bound):
    """A whole-number parameter with a default."""

    default: int


@dataclass(frozen=True)
class Amount:
    """A real-number parameter: range (``lo`` excluded when ``lo_open``) and default."""

    name: str
    lo: float
    hi: float
    default: float
    lo_open: bool = True

    def check(self, value: object) -> float:
        """``value`` as a float, or a one-line UsageError naming the parameter and range."""
        ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
        x = float(value) if ok else math.nan  # type: ignore[arg-type]
        above = x > self.lo if self.lo_open else x >= self.lo
        if not (ok and math.isfinite(x) and above and x <= self.hi):
            low = f"above {self.lo:g}" if self.lo_open else f"from {self.lo:g}"
            raise UsageError(f"{self.name} must be a number {low} to {self.hi:g}, got {value!r}")
        return x


MAX_SEED = 2**63 - 1  # kernels take seeds as 64-bit integers
SEED = Count("seed", 0, MAX_SEED, 0)
SAMPLES = Count("samples", 1, 1_000_000, 2000)  # sampled opponent hands (~2 min at most)
NEED = Bound("need", 0, 29)  # a hand scores 0..29
TOP = Bound("top", 1, 1_000_000)  # a hand has 15 throws; more shows them all
POSITION_SAMPLES = Count("position samples", 2, 200_000, 4000)  # deals per throw from a score
PLAY_SAMPLES = Count("samples", 2, 200_000, 2000)  # draws of the opponent's cards (advice)
# the solver's draws of the unseen cards at each of its decisions in a played deal (whole
# games of any table; the advice draws PLAY_SAMPLES once)
SOLVER_DRAWS = Count("solver draws", 1, 100_000, 40)
# deals of --pegging simulated, a seat (about 10 s with the solver on 2 cores)
SIMULATED_DEALS = Count("simulated deals", 2, 1_000_000, 280)
#: one hand's exact values come from numpy alone (no compile) for this many hands a
#: process; after that, from the kernels: ~2.5 ms a hand against numpy's ~10 ms, once
#: loaded (~0.5 s, numba's import and first dispatch), so they pay for themselves after
#: about this many more hands (a long file of hands, analyze() in a loop). Same bits.
NUMPY_HANDS = 64
SEARCH_SAMPLES = Count("search rollouts", 1, 1024, 16)  # per decision of the search policy
# the solver policy: opponent hands solved per decision in whole deals (all of them when
# fewer are live; advice solves every live hand), and the temperature (points) of the
# softmax that models how the opponent lays its cards when reading it: 0.25 by strength
# (solver self-play in duplicate deals: tau 0.25 beats 1 by 0.028 +- 0.007 a deal and
# 0.0625 by 0.041 +- 0.008 over 10,000, and ties 0.5 over 20,000; docs/play.md)
SOLVER_HANDS = Count("solver hands", 1, 1820, 64)
SOLVER_TAU = Amount("reading temperature", 0.0, 100.0, 0.25)
# the chance the reading leaves for a lead other than the solver's own (the pone's lead
# is read from the solver's leads when they match the model): 0.3 ties 0.1 in solver
# self-play and loses less against opponents that lead otherwise (docs/play.md)
SOLVER_LEAD_SLACK = Amount("lead slack", 0.0, 1.0, 0.3)
GAMES = Count("games", 2, 10_000_000, 10_000)  # an even number: duplicate pairs
LONG_RUN_SECONDS = 60  # a run expected to take longer is announced first (crib_analyze.costs)
# what the command sets in its own environment unless the user has: numpy asks the
# kernel for huge pages for every array of 4 MB or more, and where the kernel compacts
# memory to find them (transparent_hugepage/defrag "madvise", a common default) a fresh
# 115 MB array took 1.2 s to fill instead of 0.054 s (benchmarks/bench_hugepages.py)
PROCESS_ENVIRONMENT = (("NUMPY_MADVISE_HUGEPAGE", "0"),)
# games simulated from a score of a game other than the standard one (odds --game)
ODDS_GAMES = Count("games", 2, 10_000_000, 4000)
# games per batch at most (results do not depend on it); here the batches are sized to
# about CALL_SECONDS each, so progress and Ctrl-C come between them
GAME_BATCH = Count("batch", 2, 1_000_000, 200)
# what a long job's kernel call aims to take: Ctrl-C is heard between calls
CALL_SECONDS = 0.5
POSITION_FROM = Count("position from", 0, 121, 61)  # a position player weighs the score from here
GAME_POSITION_SAMPLES = Count("position samples", 2, 200_000, 300)  # per candidate, in games
CANDIDATES = Count("candidates", 2, 15, 4)  # throws a position player values from the score
BOARD_DEALS = Count("deals", 4000, 100_000_000, 1_000_000)  # an even number
# deals per cell: the shipped table's recipe with the solver (a pilot of 2,000, then each
# cell topped up to the target error: about 7.3 M deals, 3.3 hours on 2 cores)
PEGGING_PILOT = Count("pilot", 2, 100_000_000, 2000)  # in the first stage
PEGGING_MAX_DEALS = Count("max deals", 2, 100_000_000, 8000)  # at most
PEGGING_TARGET_SE = Amount("target standard error", 0.0, 10.0, 0.08)
# the expert throws of the other games (build-game-models): fictitious-play rounds, and
# deals a round (about 2 minutes a game on 2 cores; Canadian doubles ~20 times slower)
GAMES_WITH_MODELS = (
    "five-dealt", "five-card", "three", "three-dealer-six", "four", "five", "canadian-doubles",
)  # fmt: skip
# games whose models with jokers in the pack (1 and 2) ship: the standard game's expert
# with jokers (build-game-models --jokers N; its own expert model knows no jokers)
JOKER_MODEL_GAMES = ("standard",)
# the games other than the standard one with a board (build-game-boards): those of two
# sides, and of three players each for themselves (five players have none: 121^5 positions)
GAMES_WITH_BOARDS = (
    "five-dealt",
    "five-card",
    "four",
    "canadian-doubles",
    "three",
    "three-dealer-six",
)
GAME_BOARD_DEALS = Count("deals", 4000, 100_000_000, 1_000_000)  # an even number
GAME_MODEL_ROUNDS = Count("rounds", 1, 10_000, 12)
GAME_MODEL_DEALS = Count("deals", 100, 100_000_000, 100_000)
# a game model no file holds (another game with jokers under throw fives or lowball) is
# made on its first use and kept in the data dir: this many rounds of this many deals,
# seed 0 (about 30 s on 2 cores: largest standard error about 0.01)
MADE_MODEL_ROUNDS, MADE_MODEL_DEALS, MADE_MODEL_SEED = 12, 20_000, 0
MADE_MODELS_FOLDER = "game_models"  # in the data dir, one file a model
# the board of a game of two sides under a variant (``play --score`` with one) is made on
# its first use and kept in the data dir: this many deals, seed 0 (its sampling error
# stated in its provenance)
MADE_BOARD_DEALS, MADE_BOARD_SEED = 200_000, 0
# ... and the way it is made: a board kept from another way is made again (raise it when
# the deals, the throws, the play or the solving of a made board change)
MADE_BOARD_SCHEME = 1
MADE_BOARDS_FOLDER = "game_boards"  # in the data dir, one file a board
MODEL_TOLERANCE = Amount("tolerance", 0.0, 10.0, 1e-3)
MODEL_MAX_ROUNDS = Count("max rounds", 1, 10_000, 200)
TABLE_LIMIT = Bound("limit", 1, 962_988)  # hand classes (every class: the whole table)
QUIZ_ROUNDS = Count("rounds", 1, 100_000, 10)
JOBS = Bound("jobs", 1, 4096)
JOKERS = Bound("jokers", 0, 2)  # in the pack (the jokers variant): 53 or 54 cards
SCORE = Bound("score", 0, 120)  # a score on the board before the game is won

# --- environment --------------------------------------------------------------------------

MODEL_ENV = "CRIB_ANALYZE_MODEL"  # an expert model file to use instead of the packaged one
GAME_MODELS_ENV = "CRIB_ANALYZE_GAME_MODELS"  # game models to use instead of the packaged
GAME_BOARDS_ENV = "CRIB_ANALYZE_GAME_BOARDS"  # game boards to use instead of the packaged
BOARD_ENV = "CRIB_ANALYZE_BOARD"  # a board table file to use instead of the packaged one
DATA_DIR_ENV = "CRIB_ANALYZE_DATA_DIR"  # where generated files go by default
CACHE_DIR_ENV = "CRIB_ANALYZE_CACHE_DIR"  # where compiled kernels are cached
#: set (non-empty): kernels compile without their thread pool (prange runs as range):
#: the same numbers, about a quarter less compiling; make test sets it, since its two
#: workers fill both cores anyway (make test-all and every user run compile parallel)
SERIAL_KERNELS_ENV = "CRIB_ANALYZE_SERIAL_KERNELS"
#: the attribute of the log record that announces a process's first compile (its value
#: the kernel cache folder, "" if none can be written); the command line words it
FIRST_COMPILE_RECORD = "first_compile_cache"
DEBUG_ENV = "CRIB_ANALYZE_DEBUG"  # set (non-empty): an internal error shows its traceback

# --- packaged data ------------------------------------------------------------------------

PACKAGED_MODEL = "expert_model.npz"  # the pegging-aware expert (throws count the play)
PACKAGED_CLASSIC_MODEL = "expert_model_classic.npz"  # hand +- crib only
#: each packaged expert model's file, by kind
PACKAGED_MODELS = {
    "pegging": PACKAGED_MODEL,
    "classic": PACKAGED_CLASSIC_MODEL,
    "throw-fives": "expert_model_throw_fives.npz",
    "lowball": "expert_model_lowball.npz",
    "throw-fives-lowball": "expert_model_throw_fives_lowball.npz",
}
PACKAGED_PEGGING = "pegging_table.npz"  # the pegging value of every keep, by role
PACKAGED_BOARD = "board_table.npz"  # outcome probabilities for every position
PACKAGED_LEADS = "solver_leads.npz"  # the rank the solver leads from every keep
PACKAGED_RANK_TABLE = "rank_points.raw"  # the rank points of every five ranks, every order
PACKAGED_GAME_MODELS = "game_models.npz"  # the expert throws of every other game
PACKAGED_GAME_BOARDS = "game_boards.npz"  # the boards of the other games of two sides


def packaged(name: str) -> Traversable:
    """A file shipped with the package (``data/NAME`` in the source tree). The package's
    files are on disk in every install (a wheel, an editable one), so a path serves, as
    ``importlib.resources`` would, without its start-up cost."""
    import importlib

    data = importlib.import_module("crib_analyze.data")  # the folder data/ of the source tree
    return Path(str(data.__file__)).parent / name


def packaged_crib_table(role: str, opponent: str) -> Traversable:
    """The shipped crib table of a role under an opponent model (a small CSV)."""
    check_choice("role", role, ROLES)
    check_choice("opponent", opponent, TABLE_OPPONENTS)
    suffix = "" if opponent == "random" else f"_{opponent}"
    return packaged(f"crib_table_{role}{suffix}.csv")


# --- user files ---------------------------------------------------------------------------


def data_dir() -> Path:
    """Where generated files go unless an output path is given."""
    env = os.environ.get(DATA_DIR_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_data_dir

    return Path(user_data_dir(APP_NAME, appauthor=False))


def serial_kernels() -> bool:
    """True when kernels compile without their thread pool (:data:`SERIAL_KERNELS_ENV`)."""
    return bool(os.environ.get(SERIAL_KERNELS_ENV))


def cache_dir() -> Path:
    """Where compiled kernels are cached (``$CRIB_ANALYZE_CACHE_DIR``, else the user cache)."""
    env = os.environ.get(CACHE_DIR_ENV)
    if env:
        return Path(env).expanduser()
    from platformdirs import user_cache_dir

    return Path(user_cache_dir(APP_NAME, appauthor=False))


def default_table_path(
    opponent: str = DEFAULT_TABLE_OPPONENT,
    fmt: str = "parquet",
    penalty: str = "none",
    lowball: bool = False,
    throw_fives: bool = False,
) -> Path:
    """``discard_table.parquet`` (random) or ``discard_table_expert.parquet`` in the data
    dir; a table of a variant says it (``discard_table_lowball_penalty-zero.parquet``)."""
    check_choice("opponent", opponent, TABLE_OPPONENTS)
    check_choice("format", fmt, TABLE_FORMATS)
    check_choice("penalty", penalty, PENALTIES)
    stem = "discard_table" if opponent == "random" else f"discard_table_{opponent}"
    stem += "_throw-fives" if throw_fives else ""
    stem += "_lowball" if lowball else ""
    stem += "" if penalty == "none" else f"_penalty-{penalty}"
    return data_dir() / f"{stem}.{fmt}"


def default_sample_path(
    opponent: str,
    limit: int,
    fmt: str = "parquet",
    penalty: str = "none",
    lowball: bool = False,
    throw_fives: bool = False,
) -> Path:
    """Where a ``--limit`` sample goes by default: beside the full table, never in its
    place (``discard_table.sample-20.parquet``)."""
    base = default_table_path(opponent, fmt, penalty, lowball, throw_fives)
    return base.with_name(f"{base.stem}.sample-{limit}{base.suffix}")


def default_game_table_path(
    game: str,
    lowball: bool = False,
    penalty: str = "none",
    jokers: int = 0,
    throw_fives: bool = False,
    opponent: str = "random",
) -> Path:
    """``discard_table_<game>.parquet`` in the data dir: the table of another game (a
    variant's says it: ``discard_table_<game>_lowball_penalty-zero.parquet``; the
    standard game's with jokers ``discard_table_jokers-1.parquet``, against the expert
    ``discard_table_jokers-1_expert.parquet``)."""
    check_choice("penalty", penalty, PENALTIES)
    stem = "discard_table" + ("" if game == "standard" else f"_{game}")
    stem += f"_jokers-{jokers}" if jokers else ""
    stem += "_expert" if opponent == "expert" else ""
    stem += "_lowball" if lowball else ""
    stem += "_throw-fives" if throw_fives else ""
    stem += "" if penalty == "none" else f"_penalty-{penalty}"
    return data_dir() / f"{stem}.parquet"


def default_shard_path(
    opponent: str,
    shard: tuple[int, int],
    penalty: str = "none",
    lowball: bool = False,
    throw_fives: bool = False,
) -> Path:
    """Where shard I of N goes by default (always Parquet)."""
    base = default_table_path(opponent, "parquet", penalty, lowball, throw_fives)
    return base.with_name(f"{base.stem}.shard-{shard[0]}-of-{shard[1]}.parquet")


def default_board_output() -> Path:
    """Where ``build-board`` writes a rebuilt board table unless told otherwise."""
    return data_dir() / PACKAGED_BOARD


def default_model_output() -> Path:
    """Where ``build-model`` writes a rebuilt model unless told otherwise."""
    return data_dir() / PACKAGED_MODEL


def default_game_models_output() -> Path:
    """Where ``build-game-models`` writes the game models unless told otherwise (used
    when ``$CRIB_ANALYZE_GAME_MODELS`` points at them)."""
    return data_dir() / PACKAGED_GAME_MODELS


def default_game_boards_output() -> Path:
    """Where ``build-game-boards`` writes the game boards unless told otherwise (used
    when ``$CRIB_ANALYZE_GAME_BOARDS`` points at them)."""
    return data_dir() / PACKAGED_GAME_BOARDS


def default_leads_output() -> Path:
    """Where ``build-leads`` writes the solver's leads unless told otherwise (the reading
    also looks there for leads that match a rebuilt model)."""
    return data_dir() / PACKAGED_LEADS


def default_pegging_output() -> Path:
    """Where ``build-pegging`` writes a rebuilt pegging table unless told otherwise."""
    return data_dir() / PACKAGED_PEGGING


def table_format_for(path: str | os.PathLike[str] | None, fmt: str | None) -> str:
    """The table format: ``fmt`` if given, else from the file name (.csv or Parquet).

    A ``.csv`` name with ``fmt="parquet"`` (or ``.parquet`` with ``csv``) is refused,
    so a file's name never lies about its contents.
    """
    suffix = Path(path).suffix.lower() if path is not None else ""
    named = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}.get(suffix)
    if fmt is None:
        return named or "parquet"
    check_choice("format", fmt, TABLE_FORMATS)
    if named is not None and named != fmt:
        raise UsageError(f"{Path(path or '').name} is named as {named} but the format is {fmt}")
    return fmt


def check_choice(what: str, value: object, choices: tuple[str, ...]) -> None:
    """Raise a one-line UsageError unless ``value`` is one of ``choices``."""
    if value not in choices:
        raise UsageError(f"unknown {what} {value!r} (choose from {', '.join(choices)})")


SCHEDULER_SCHEMES = ("tcp", "tls", "ws", "wss", "ucx", "inproc")  # Dask's protocols
_HOST = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?")
_IPV6 = re.compile(r"\[[0-9A-Fa-f:.%a-z]+\]")


def check_scheduler(address: object) -> str:
    """A Dask scheduler address, checked before Dask sees it: ``[SCHEME://]HOST:PORT``
    (an IPv6 host in brackets, a port from 1 to 65535 in ASCII digits), or the
    ``inproc://`` address of a cluster in this process. A one-line UsageError otherwise.

    >>> check_scheduler("tcp://127.0.0.1:8786")
    'tcp://127.0.0.1:8786'
    >>> check_scheduler("localhost:notaport")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    crib_analyze.errors.UsageError: a scheduler address is [tcp://]HOST:PORT ...
    """
    bad = UsageError(
        f"a scheduler address is [tcp://]HOST:PORT with a port from 1 to 65535, got {address!r}"
    )
    if not isinstance(address, str) or not address.isascii():
        raise bad
    scheme, sep, rest = address.partition("://")
    if not sep:
        scheme, rest = "tcp", address
    if scheme not in SCHEDULER_SCHEMES:
        raise UsageError(
            f"unknown scheduler protocol {scheme!r} in {address!r} "
            f"(choose from {', '.join(SCHEDULER_SCHEMES)})"
        )
    if scheme == "inproc":
        if not re.fullmatch(r"[^\s/]+(?:/\d+){2}", rest):
            raise bad
        return address
    host, colon, port = rest.rpartition(":")
    if not colon or not (_HOST.fullmatch(host) or _IPV6.fullmatch(host)):
        raise bad
    if not (port.isascii() and port.isdigit() and 1 <= int(port) <= 65535):
        raise bad
    return address


# --- the local page (crib-analyze serve) ------------------------------------------------

WEB_HOST = "127.0.0.1"  # loopback: the page is for this machine unless told otherwise
WEB_PORT = Count("port", 1, 65535, 8121)
#: host names a loopback server answers to (any other Host header: refused, 400)
LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "[::1]", "::1")
WEB_MAX_BODY = 256 * 1024  # bytes a request may carry (a game record fits many times)
#: the most work one request of the page may ask (the server answers one at a time):
#: draws or sampled hands, games simulated, deals of a record graded outside a job
WEB_MOST_SAMPLES = 20_000
WEB_MOST_GAMES = 20_000
WEB_MOST_DEALS = 40
