"""The play counted in a seat's splits of any game (``discard --game NAME --seat SEAT
--pegging simulated``, and ``discard --jokers N --opponent expert --pegging
simulated``, the standard game's seat with jokers).

The best splits by points (every split but in Canadian doubles, whose 15 best by points
are kept) are each played in the same ``deals`` deals of the other cards (common random
numbers, :func:`~crib_analyze.board.table_game_kernels.split_pegging`): the other seats
dealt at random from the cards the seat cannot see, throwing by the game's expert model
(the hand policy where it has none, or with ``others`` hand), and every seat laying by
the solver, which draws the cards it cannot see, with two or three players each for
themselves, else by the lookahead (:func:`policy_of`; their lowball forms under
lowball: each for the fewest points). Each split's peg is its side's points in the
play less the mean of the other sides' (the solver's own aim), with the standard error
of that difference; the splits are then ranked by ``total`` = net + peg.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import fields, replace
from typing import Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.game_models import game_model
from crib_analyze.board.table_throws import split_masks
from crib_analyze.discard.any_game import GameThrows
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    CALL_SECONDS,
    SIMULATED_DEALS,
    SOLVED_ADVICE_POLICY,
    AnyGamePlayPolicy,
)

MOST_SPLITS = 15  # splits played at most: the best by points


def policy_of(rules: Rules) -> AnyGamePlayPolicy:
    """How every seat lays: the solver with two or three players each for themselves
    (:attr:`~crib_analyze.rules.Rules.heads_up`), else the lookahead (the solver takes
    a second a deal or more at four or five seats, and gains nothing in partnerships)."""
    return SOLVED_ADVICE_POLICY if rules.heads_up else "lookahead"


def play_words(rules: Rules, others: str, deals: int) -> str:
    """How the play was counted, in words."""
    by = (
        "the game's expert model"
        if others != "hand" and game_model(rules) is not None
        else "the hand policy"
    )
    least = "; every seat laying for the fewest points" if rules.lowball else ""
    return (
        f"the play of each split simulated by the {policy_of(rules)} ({deals:,} deals "
        "shared by the "
        f"splits: the other seats dealt at random, throwing by {by}{least}); peg = your "
        "side's points in the play less the other sides' mean, ± its s.e."
    )


def with_play(
    throws: GameThrows,
    cards: list[int],
    deals: int | None = None,
    seed: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
) -> GameThrows:
    """``throws`` (every split of ``cards``, best first by points) with the play of the
    best :data:`MOST_SPLITS` counted over ``deals`` deals (``seed``; default
    :data:`~crib_analyze.settings.SIMULATED_DEALS`), ranked by total (the fewest first in
    lowball); the other splits are left out."""
    from crib_analyze.board import table_game_kernels as tgk
    from crib_analyze.board.table_games import table_deal
    from crib_analyze.play.table_play_kernels import LOWBALL_CODES, POLICY_CODES

    rules = throws.rules
    deals = SIMULATED_DEALS.default if deals is None else SIMULATED_DEALS.check(deals)
    chosen = list(range(min(MOST_SPLITS, len(throws.kept))))
    splits = split_masks(cards, throws.kept, throws.thrown, throws.passed, chosen)
    codes = LOWBALL_CODES if rules.lowball else POLICY_CODES
    policy = policy_of(rules)
    table = table_deal(rules, codes[policy], "hand" if throws.others == "hand" else "expert")
    held = np.array(cards, np.int64)
    parts = []
    done = 0
    for lo, n in interrupts.paced(deals, CALL_SECONDS, step=8):
        parts.append(tgk.split_pegging(held, throws.seat, splits, table, lo, n, seed))
        done += n
        if on_progress is not None:
            on_progress(done, deals)
    points = np.concatenate(parts, axis=1).astype(np.float64)  # (S, deals, P)
    sides = np.array(rules.teams)
    mine = sides == sides[throws.seat]
    own = points[:, :, mine].sum(axis=2)
    other_sides = sorted(set(rules.teams) - {rules.teams[throws.seat]})
    opp = np.mean([points[:, :, sides == t].sum(axis=2) for t in other_sides], axis=0)
    peg = own - opp
    total = throws.net[chosen] + peg.mean(axis=1)
    order = np.argsort(total if rules.lowball else -total, kind="stable")
    picked = [chosen[i] for i in order]
    taken = _take(throws, picked)
    return replace(
        taken,
        peg_own=own.mean(axis=1)[order],
        peg_opp=opp.mean(axis=1)[order],
        peg_se=peg.std(axis=1, ddof=1)[order] / np.sqrt(deals),
        pegging=play_words(rules, throws.others, deals),
    )


def _take(throws: GameThrows, picked: list[int]) -> GameThrows:
    """``throws`` with only the splits ``picked``, in that order."""
    n = len(throws.kept)
    changes: dict[str, Any] = {}
    for f in fields(throws):
        value = getattr(throws, f.name)
        if isinstance(value, np.ndarray) and value.shape[:1] == (n,):
            changes[f.name] = value[picked]
        elif isinstance(value, list) and len(value) == n:
            changes[f.name] = [value[i] for i in picked]
    return replace(throws, **changes)
