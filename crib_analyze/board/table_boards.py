"""Building the board of a game of two sides or of three players (``build-game-boards``):
simulate deals, then solve every position over them, as the standard game's board is
built (:mod:`crib_analyze.board.build`).

Every seat throws by the game's expert model (:mod:`crib_analyze.artifacts.game_models`)
and lays by the play policy; each deal is kept as its scoring events in the order they
score (heels, the play card by card, the hands from the dealer's left, the crib), each
event named by its side: the side not dealing (0) or the dealer's (1)
(:func:`~crib_analyze.board.table_game_kernels.side_events`). The deal passes to the
left, so the dealing side alternates as in the two-player game, and the two-player
dynamic programming (:mod:`crib_analyze.board.dp_kernels`) solves every position to the
game's target, with its skunk line. With three players each for themselves the events
are named by seat (the dealer's left, the middle, the dealer) and
:mod:`crib_analyze.board.three_board_kernels` solves the 121^3 positions. The board is
also solved over each half of the deals; half their difference estimates the sampling
error of the whole.
"""

from __future__ import annotations

import datetime as dt
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from crib_analyze import interrupts, notices
from crib_analyze.artifacts.game_boards import GameBoard, ThreeBoard
from crib_analyze.board import dp_kernels as dpk
from crib_analyze.board import second_place_kernels as spk
from crib_analyze.board import signed_dp_kernels as sdk
from crib_analyze.board import table_game_kernels as tgk
from crib_analyze.board import three_board_kernels as tbk
from crib_analyze.board.build import BoardLog, distinct_deals, distinct_rows, solve_board
from crib_analyze.board.event_kernels import SOURCES
from crib_analyze.board.table_games import THROW_WORDS, table_deal, throw_policy_of
from crib_analyze.cluster import dask_client
from crib_analyze.errors import UsageError
from crib_analyze.play.table_play_kernels import LOWBALL_CODES, POLICY_CODES
from crib_analyze.position import N_OUTCOMES, p_win
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    CALL_SECONDS,
    GAMES_WITH_BOARDS,
    MADE_BOARD_DEALS,
    MADE_BOARD_SCHEME,
    MADE_BOARD_SEED,
    AnyGamePlayPolicy,
    __version__,
)
from crib_analyze.storage.checkpoint import (
    checkpoint_beside,
    load_checkpoint,
    remove_checkpoint,
    save_checkpoint,
)

CHUNK = 200_000  # deals between checkpoints
DASK_PIECE = 20_000  # deals a Dask task deals
said = notices.logger("crib_analyze.boards")  # the one line before a board made on first use


def _dealt(
    begin: int, last: int, seed: int, table: tgk.TableDeal, scheduler: str | None, by_seat: bool
) -> Iterator[tuple[int, int, tuple[np.ndarray, ...]]]:
    """(first deal, deals, their events) for deals ``begin`` .. ``last - 1`` in order:
    here in calls of about CALL_SECONDS, or on the workers of the Dask ``scheduler`` a
    chunk at a time; the events by seat with ``by_seat``, else by side."""
    if scheduler is None:
        for offset, n in interrupts.paced(last - begin, CALL_SECONDS, most=CHUNK, step=1000):
            yield begin + offset, n, tgk.side_events(n, seed, begin + offset, table, by_seat)
        return
    with dask_client(scheduler) as client:
        for lo in range(begin, last, CHUNK):
            firsts = list(range(lo, min(lo + CHUNK, last), DASK_PIECE))
            sizes = [min(DASK_PIECE, last - f) for f in firsts]
            futures = client.map(tgk.side_events, sizes, [seed] * len(sizes), firsts,
                                 [table] * len(sizes), [by_seat] * len(sizes),
                                 pure=False)  # fmt: skip
            for f, n, future in zip(firsts, sizes, futures, strict=True):
                interrupts.check()
                yield f, n, future.result()


SIDES = ("pone's side", "dealer's side")


def solve_three_board(
    players: np.ndarray, points: np.ndarray, weights: np.ndarray, line: int, target: int
) -> np.ndarray:
    """(target, target, target, 10) the board of three players over the deals (events by
    seat, each deal ``weights`` times; :mod:`crib_analyze.board.three_board_kernels`),
    filled in calls of about CALL_SECONDS, Ctrl-C checked between them. Every deal must
    score, and no event may take points away."""
    if points.min(initial=0) < 0:
        raise ValueError("a board of three takes no points away (no penalties)")
    totals = dpk.deal_totals(players, points, tbk.N_SEATS)
    if (totals.sum(axis=1) < 1).any():
        raise ValueError("every deal must score a point")
    most = int(totals.max())
    finish = tbk.finish_tables(players, points, weights, target, line, most)
    triples, which = np.unique(totals, axis=0, return_inverse=True)  # by the left's first
    mass = np.bincount(which.ravel(), weights=weights, minlength=len(triples))
    interrupts.check()
    second, onward, lo_second = second_place_tables(
        players, points, weights, triples, mass, target, most
    )
    values = np.zeros((target, target, target, tbk.N_CHANNELS))
    top = 3 * (target - 1)
    for done, n in interrupts.paced(top + 1, CALL_SECONDS):
        tbk.three_fill(values, finish, second, onward, lo_second, triples, mass,
                       top - done, top - done - n + 1)  # fmt: skip
    return values


def second_place_tables(
    players: np.ndarray,
    points: np.ndarray,
    weights: np.ndarray,
    triples: np.ndarray,
    mass: np.ndarray,
    target: int,
    most: int,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The parts of second place that :func:`~crib_analyze.board.three_board_kernels.
    three_fill` reads (:mod:`crib_analyze.board.second_place_kernels`): a second in the
    deal that wins the game, and the race of the other two after it (solved here over
    the deals' rival totals, the winner in each seat)."""
    first = spk.race_tables(players, points, weights, target, most)
    pairs, masses = [], []
    for w in range(tbk.N_SEATS):
        lo, hi = (s for s in range(tbk.N_SEATS) if s != w)
        rival, at = np.unique(triples[:, [lo, hi]], axis=0, return_inverse=True)
        pairs.append(rival)
        masses.append(np.bincount(at.ravel(), weights=mass, minlength=len(rival)))
    k = max(len(p) for p in pairs)
    pair_arr = np.zeros((tbk.N_SEATS, k, 2), np.int64)
    mass_arr = np.zeros((tbk.N_SEATS, k))
    for w in range(tbk.N_SEATS):
        pair_arr[w, : len(pairs[w])] = pairs[w]
        mass_arr[w, : len(pairs[w])] = masses[w]
    race = np.zeros((tbk.N_SEATS, target, target))
    spk.race_fill(race, first, pair_arr, mass_arr, float(mass.sum()))
    interrupts.check()
    second = spk.second_tables(players, points, weights, target, most)
    interrupts.check()
    onward, lo_second = spk.onward_tables(race, triples, mass, min(most, target))
    return second, onward, lo_second


def skunk_lines(rules: Rules) -> np.ndarray:
    """The rules' skunk lines as the dynamic programming reads them (three, the missing
    ones -1: a loser is never under them)."""
    lines = list(rules.skunk_lines)[:3]
    return np.array(lines + [-1] * (3 - len(lines)), np.int64)


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def build_game_board(
    rules: Rules,
    deals: int,
    seed: int,
    play_policy: AnyGamePlayPolicy = "lookahead",
    log: Callable[[BoardLog], None] | None = None,
    checkpoint: str | os.PathLike[str] | None = None,
    scheduler: str | None = None,
) -> tuple[GameBoard | ThreeBoard, dict[str, Any]]:
    """Simulate ``deals`` deals of ``rules`` (every seat the expert's throws and
    ``play_policy``'s lays), then solve every position; returns the board and its
    provenance. A killed build resumes after its last finished chunk. With
    ``scheduler`` (a Dask scheduler's address) the deals are dealt on its workers, in
    pieces of :data:`DASK_PIECE`: deal k comes from its own stream wherever it is
    dealt, so the board is the same."""
    if rules.name not in GAMES_WITH_BOARDS or rules.variants:
        raise UsageError(
            f"boards are built for the games of two sides or three players "
            f"({', '.join(GAMES_WITH_BOARDS)}), without variants; not {rules.name}"
        )
    return _build_board(rules, deals, seed, play_policy, log, checkpoint, scheduler)


def _build_board(
    rules: Rules,
    deals: int,
    seed: int,
    play_policy: AnyGamePlayPolicy,
    log: Callable[[BoardLog], None] | None,
    checkpoint: str | os.PathLike[str] | None,
    scheduler: str | None,
) -> tuple[GameBoard | ThreeBoard, dict[str, Any]]:
    """:func:`build_game_board` of any rules it serves: a game of its list, or under a
    variant (:func:`make_variant_board`) a game of two sides or three players (back ten,
    which takes points away, swept until nothing moves: two sides only; lowball, two
    sides, read with the first to the target losing)."""
    if deals < 4000 or deals % 2:
        raise UsageError(f"deals must be an even number, at least 4000, got {deals}")
    by_seat = len(rules.sides) == 3
    signed = rules.penalty == "back-ten"  # a deal may take points away
    if signed and by_seat:
        raise UsageError("a board of three with the back-ten penalty is not made")
    names = rules.seat_names if by_seat else SIDES
    throws = throw_policy_of(rules, None)
    table = table_deal(rules, (LOWBALL_CODES if rules.lowball else POLICY_CODES)[play_policy],
                       throws)  # fmt: skip
    settings = {"game": rules.name, "deals": deals, "seed": seed, "play_policy": play_policy,
                "throws": throws, "version": __version__}  # fmt: skip
    if rules.variants:
        settings["variants"] = list(rules.variants)
    start = time.time()
    halves: list[list[np.ndarray]] = [[], []]
    sums = np.zeros((len(names), len(SOURCES)))  # points by side or seat and source
    done = 0
    state = load_checkpoint(checkpoint, settings)
    if state is not None:
        done, sums = int(state["done"]), state["sums"]
        for h in range(2):
            k = 0
            while f"h{h}_{k}" in state:
                halves[h].append(state[f"h{h}_{k}"])
                k += 1
    half = deals // 2
    saved = done
    for first, last in ((0, half), (half, deals)):
        if last <= done:
            continue
        h = 0 if last <= half else 1
        begin = max(first, done)
        dealt = _dealt(begin, last, seed, table, scheduler, by_seat)
        for lo, n, (players, points, sources) in dealt:
            for side in range(len(names)):
                for s in range(len(SOURCES)):
                    sums[side, s] += points[(players == side) & (sources == s)].sum()
            if signed:  # points taken away: runs of gains merged, the rest kept in order
                runs = dpk.merge_turns(players, points, True)
                p, q, c = distinct_rows(np.concatenate(runs, axis=1))
            else:
                p, q, c = distinct_deals(players, points)
            halves[h] += [np.concatenate([p, q], axis=1), c]
            done = lo + n
            if done - saved >= CHUNK or done == last:
                arrays = {"done": np.array(done), "sums": sums}
                for hh in range(2):
                    for k, arr in enumerate(halves[hh]):
                        arrays[f"h{hh}_{k}"] = arr
                save_checkpoint(checkpoint, settings, arrays)
                saved = done
                if log:
                    log(BoardLog("deals", done, deals, time.time() - start))
    lines = skunk_lines(rules) if not rules.lowball else np.full(3, -1, np.int64)

    def solve(p: np.ndarray, q: np.ndarray, c: np.ndarray) -> np.ndarray:
        if by_seat:
            return solve_three_board(p, q, c, int(lines[0]), rules.target)
        if signed:
            interrupts.check()
            return sdk.signed_board(p, q, c, rules.target, lines)[0]
        return solve_board(p, q, c, lines, rules.target)

    solved, merged = [], []
    for h in range(2):
        interrupts.check()
        p, q, c = distinct_rows(np.concatenate(halves[h][0::2]), np.concatenate(halves[h][1::2]))
        merged.append((np.concatenate([p, q], axis=1), c))
        solved.append(solve(p, q, c))
        if log:
            log(BoardLog("table", h + 1, 3, time.time() - start))
    p, q, c = distinct_rows(
        np.concatenate([merged[0][0], merged[1][0]]), np.concatenate([merged[0][1], merged[1][1]])
    )
    values = solve(p, q, c)
    if rules.lowball:  # the side that reaches the target first loses: a win is the other's
        solved, values = [_lowball(v) for v in solved], _lowball(values)
    if log:
        log(BoardLog("table", 3, 3, time.time() - start))
    provenance = {
        "made_by": f"crib-analyze {__version__} build-game-boards",
        "created_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        **settings,
        "target": rules.target,
        "skunk_lines": list(rules.skunk_lines),
        "distinct_deals": len(c),
        "per_deal_points": {
            side: {src: round(float(sums[i, s] / deals), 4) for s, src in enumerate(SOURCES)}
            for i, side in enumerate(names)
        },
    }
    remove_checkpoint(checkpoint)
    if by_seat:
        return _three_board(rules, values, solved, provenance, start)
    win = [p_win(v[..., :N_OUTCOMES]) for v in (*solved, values)]
    gap = np.abs(win[0] - win[1]) / 2  # ~ the standard error of the whole
    provenance |= {
        # the first deal: the dealer's side at 0, the other at the pone's start
        "first_dealer_wins": round(float(win[2][0, rules.pone_start, 1]), 5),
        "deals_per_game": round(float(values[0, rules.pone_start, 1, N_OUTCOMES]), 4),
        "win_error": {
            "rms": round(float(np.sqrt((gap**2).mean())), 5),
            "max": round(float(gap.max()), 5),
            "first_dealer": round(float(gap[0, rules.pone_start, 1]), 5),
        },
        "seconds": round(time.time() - start, 1),
        "scheme": f"deals of the game, every seat throwing by {THROW_WORDS[throws]} and "
        "laying by the play policy; scoring events in the order scored, by side; every "
        "position solved over the deals by dynamic programming from the end of the board "
        "down; the error is half the gap between the boards of the two halves of the deals",
    }
    return GameBoard(rules.name, values), provenance


def _lowball(values: np.ndarray) -> np.ndarray:
    """A two-sided board solved as who reaches the target first (every finish plain),
    read for lowball: reaching it first is the loss."""
    out = values.copy()
    out[..., :N_OUTCOMES] = values[..., [4, 5, 6, 7, 0, 1, 2, 3]]
    out[..., 1:4] = 0.0  # no skunks in lowball
    out[..., 5:8] = 0.0
    return out


def _three_board(
    rules: Rules,
    values: np.ndarray,
    solved: list[np.ndarray],
    provenance: dict[str, Any],
    start: float,
) -> tuple[ThreeBoard, dict[str, Any]]:
    """The board of three and the rest of its provenance: every seat's chance of the
    first deal, the deals a game, the sampling error (half the gap between the halves'
    chances of winning, over the positions and seats)."""
    gap = np.abs(solved[0][..., :3] - solved[1][..., :3]) / 2
    seconds = slice(tbk.SECOND, tbk.SECOND + tbk.N_SEATS)
    second_gap = np.abs(solved[0][..., seconds] - solved[1][..., seconds]) / 2
    first = values[0, 0, 0]
    provenance |= {
        "first_deal_wins": {
            name: round(float(first[s]), 5) for s, name in enumerate(rules.seat_names)
        },
        "first_dealer_wins": round(float(first[2]), 5),
        "first_deal_skunk_wins": round(float(first[3:6].sum()), 5),
        "first_deal_second_places": {
            name: round(float(first[tbk.SECOND + s]), 5) for s, name in enumerate(rules.seat_names)
        },
        "deals_per_game": round(float(first[tbk.DEALS]), 4),
        "win_error": {
            "rms": round(float(np.sqrt((gap**2).mean())), 5),
            "max": round(float(gap.max()), 5),
            "first_dealer": round(float(gap[0, 0, 0, 2]), 5),
        },
        "second_error": {"rms": round(float(np.sqrt((second_gap**2).mean())), 5)},
        "seconds": round(time.time() - start, 1),
        "scheme": f"deals of the game, every seat throwing by {THROW_WORDS[provenance['throws']]} "
        "and laying by the play policy; scoring events in the order scored, by seat; every "
        "position (the three scores from the dealer's left) solved over the deals by "
        "dynamic programming from the end of the board down, the deals that end the game "
        "counted by what each seat needs; second place (the continuation game) over the "
        "same deals, in the deal that wins or in the race of the other two after it; the "
        "error is half the gap between the boards of the two halves of the deals",
    }
    kept = [*range(tbk.DEALS), *range(tbk.SECOND, tbk.SECOND + tbk.N_SEATS)]
    return ThreeBoard(rules.name, values[..., kept]), provenance


def has_board(rules: Rules) -> bool:
    """Whether :func:`board_of` has (or makes) a board of ``rules``: not for five players
    each for themselves (121^5 positions), nor three under back ten (a board of three is
    solved from the highest scores down, which points taken away break); nor for three or
    more in lowball, which the rules leave without a winner (:func:`check_score_rules`).

    >>> from crib_analyze.rules import game
    >>> has_board(game("three")), has_board(game("five"))
    (True, False)
    """
    sides = len(rules.sides)
    return sides == 2 or (sides == 3 and rules.penalty != "back-ten" and not rules.lowball)


def check_score_rules(rules: Rules) -> None:
    """A one-line usage error for rules whose games have no winner to value a card by:
    three or five players each for themselves in lowball (the first to the target loses,
    and the rules do not say who wins among the others)."""
    if len(rules.sides) > 2 and rules.lowball:
        raise UsageError(
            f"`score` with {len(rules.sides)} players in lowball: the first to the target "
            "loses, and the rules do not say who wins among the others"
        )


def board_of(rules: Rules) -> tuple[GameBoard | ThreeBoard, dict[str, Any]]:
    """The board the game is valued by at the end of a deal: the one shipped for the game
    as dealt, else (under a variant) the one made on an earlier first use, else one made
    now (:func:`make_variant_board`, said in one line first). A usage error where there
    is none (:func:`has_board`)."""
    from crib_analyze.artifacts.game_boards import game_board, made_board

    check_score_rules(rules)
    if not has_board(rules):
        raise UsageError(f"{rules.name} has no board under these rules: its games are played out")
    found = game_board(rules) or made_board(rules)
    if found is not None:
        return found
    return make_variant_board(rules)


def make_variant_board(rules: Rules) -> tuple[GameBoard | ThreeBoard, dict[str, Any]]:
    """The board of a game of two sides or three players under a variant, made now
    (:data:`~crib_analyze.settings.MADE_BOARD_DEALS` deals of seed
    :data:`~crib_analyze.settings.MADE_BOARD_SEED`, every seat throwing as its whole
    games do and laying by the lookahead) and kept where :func:`board_of` reads it
    next time; a killed build resumes from its checkpoint beside it."""
    from crib_analyze.artifacts.game_boards import board_key, made_board_path, save_made_board

    path = made_board_path(rules)
    checkpoint = checkpoint_beside(path)  # None: the board is not kept either
    said.warning(  # a wait of minutes: said on a terminal or not
        f"no board of {board_key(rules)} is kept: making one now ({MADE_BOARD_DEALS:,} deals, "
        f"minutes; once, kept in {path.parent})"
    )
    board, provenance = _build_board(
        rules, MADE_BOARD_DEALS, MADE_BOARD_SEED, "lookahead", None, checkpoint, None
    )
    provenance["made_by"] = f"crib-analyze {__version__}, on its first use"
    provenance["made_scheme"] = MADE_BOARD_SCHEME
    save_made_board(rules, board, provenance)
    return board, provenance
