"""Building the expert throws of a game (``build-game-models``): fictitious play over
sampled deals, as the standard game's expert was built over hand classes.

Start from the hand policy's cribs (thrown ranks with random other cards,
:func:`~crib_analyze.crib.any_game_cribs.crib_tables`). Each round deals ``deals``
fresh deals in which every seat throws by the current tables, and measures for each
seat the crib's mean by the ranks it throws, the other seats throwing as they do
(:func:`~crib_analyze.crib.game_model_kernels.crib_sums`). The tables become the mean
of all rounds' measures (weight 1/k in round k: the crib against the mixture of the
past rounds' throws, which damps the cycling plain best response can fall into, and
averages the sampling error down). The last round's largest change is kept with the
model, and each entry's standard error (from the rounds' sample variances).

One approximation, stated: a seat's throw is measured by putting each rank (pair) in
the crib in place of what it threw, suits at random among the cards still free, with
the deal's other cards as they fell. The other seats' hands were dealt from a pack
without the seat's real cards, not without the substituted ones (the card removal of
the throw itself is not modelled; it is a second-order effect, as in the two-player
compact model's pair removal).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import os
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from crib_analyze import interrupts, notices
from crib_analyze.artifacts.game_models import (
    GameModel,
    GameModels,
    game_model,
    made_model_path,
    model_key,
    model_problem,
    modelled,
    remember_made_model,
    standard_experts,
)
from crib_analyze.cluster import dask_client
from crib_analyze.crib import game_model_kernels as gmk
from crib_analyze.crib.any_game_cribs import hand_policy_tables
from crib_analyze.errors import CribAnalyzeError, UsageError
from crib_analyze.rules import GAMES, Rules
from crib_analyze.settings import MADE_MODEL_DEALS, MADE_MODEL_ROUNDS, MADE_MODEL_SEED, __version__
from crib_analyze.storage.checkpoint import (
    checkpoint_beside,
    load_checkpoint,
    remove_checkpoint,
    save_checkpoint,
)

SCHEME = (
    "fictitious play from the hand policy's random cribs over sampled deals; each round "
    "every seat throws by the current tables and each seat's crib is measured by its "
    "thrown ranks (the seat's throw replaced, suits at random among the free cards); "
    "round k's measure weighted 1/k"
)
log = notices.logger("crib_analyze.models")
MODEL_PIECE = 2_000  # deals a piece of a round (a Dask task), added up in order


def _means(sums: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(mean, variance of the mean) of (count, sum, sum of squares) sums; 0 where no
    count."""
    n = sums[..., 0]
    safe = np.maximum(n, 1.0)
    mean = sums[..., 1] / safe
    var = np.maximum(sums[..., 2] / safe - mean**2, 0.0) / np.maximum(n - 1.0, 1.0)
    return np.where(n > 0, mean, 0.0), np.where(n > 0, var, 0.0)


def _symmetric(a: np.ndarray) -> np.ndarray:
    """A (P, R, R) table of pairs r <= q made symmetric."""
    upper = np.triu(np.ones(a.shape[1:], bool))
    out: np.ndarray = np.where(upper, a, a.transpose(0, 2, 1))
    return out


def _round_sums(
    rules: Rules, one: np.ndarray, two: np.ndarray, deals: int, seed: int, first: int,
    client: Any = None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """:func:`~crib_analyze.crib.game_model_kernels.crib_sums` of deals ``first`` ..
    ``first + deals - 1`` in pieces of :data:`MODEL_PIECE` (Ctrl-C is checked between
    them), here or on the workers of a Dask ``client``, added up in order: the same sums
    either way."""
    args = (
        np.array(rules.dealt, np.int64), np.array(rules.thrown, np.int64),
        np.array(rules.passed, np.int64), np.array(rules.teams, np.int64),
        rules.crib_from_deck, one, two, -1 if rules.lowball else 1, rules.jokers,
        rules.throw_fives,
    )  # fmt: skip
    firsts = list(range(first, first + deals, MODEL_PIECE))
    sizes = [min(MODEL_PIECE, first + deals - f) for f in firsts]
    if client is None:
        parts: Iterator[tuple[np.ndarray, np.ndarray]] = (
            gmk.crib_sums(n, seed, f, *args) for f, n in zip(firsts, sizes, strict=True)
        )
    else:
        k = len(sizes)
        futures = client.map(gmk.crib_sums, sizes, [seed] * k, firsts,
                             *([a] * k for a in args), pure=False)  # fmt: skip
        parts = (future.result() for future in futures)
    s1, s2 = next(parts)
    for p1, p2 in parts:
        interrupts.check()
        s1, s2 = s1 + p1, s2 + p2
    return s1, s2


def measure(
    rules: Rules, one: np.ndarray, two: np.ndarray, deals: int, seed: int, first: int,
    client: Any = None,
) -> tuple[np.ndarray, ...]:  # fmt: skip
    """One round's measure: (one, two, their variances) with every seat throwing by
    ``one`` and ``two``, from deals ``first`` .. ``first + deals - 1`` (on the workers
    of a Dask ``client`` if given)."""
    s1, s2 = _round_sums(rules, one, two, deals, seed, first, client)
    m1, v1 = _means(s1)
    m2, v2 = _means(s2)
    return m1, _symmetric(m2), v1, _symmetric(v2)


def build_game_model(
    rules: Rules,
    rounds: int,
    deals: int,
    seed: int,
    checkpoint: str | os.PathLike[str] | None = None,
    progress: Callable[[str], None] | None = None,
    scheduler: str | None = None,
) -> tuple[GameModel, dict[str, object]]:
    """The expert model of ``rules`` after ``rounds`` rounds of ``deals`` deals each
    (seeded); resumes from ``checkpoint`` after a kill. With ``scheduler`` (a Dask
    scheduler's address) each round's deals are dealt on its workers: the same model.
    Returns the model and its provenance."""
    if rules.name not in GAMES or rules != modelled(rules):
        raise UsageError(
            f"{rules.name}: the game models are built for games as dealt, with jokers, "
            "throw fives or lowball (not a penalty)"
        )
    if standard_experts(rules):
        raise UsageError("the standard game has its own expert models (build-model)")
    key = model_key(rules)
    settings = {"game": key, "rounds": rounds, "deals": deals, "seed": seed,
                "version": __version__}  # fmt: skip
    one, two = hand_policy_tables(rules)
    var1, var2 = np.zeros_like(one), np.zeros_like(two)
    done, change = 0, float("inf")
    saved = load_checkpoint(checkpoint, settings)
    if saved is not None:
        one, two, var1, var2 = saved["one"], saved["two"], saved["var1"], saved["var2"]
        done, change = int(saved["done"]), float(saved["change"])
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        client = None if scheduler is None else stack.enter_context(dask_client(scheduler))
        for k in range(done + 1, rounds + 1):
            interrupts.check()
            m1, m2, v1, v2 = measure(rules, one, two, deals, seed, (k - 1) * deals, client)
            new1 = one + (m1 - one) / k
            new2 = two + (m2 - two) / k
            change = float(max(np.abs(new1 - one).max(), np.abs(new2 - two).max()))
            one, two = new1, new2
            var1, var2 = var1 + v1, var2 + v2  # the mean's variance is their sum / k^2
            save_checkpoint(checkpoint, settings, {
                "one": one, "two": two, "var1": var1, "var2": var2,
                "done": np.array(k), "change": np.array(change),
            })  # fmt: skip
            if progress:
                progress(f"{key}: round {k}/{rounds}, largest change {change:.4f}")
    se1, se2 = np.sqrt(var1) / rounds, np.sqrt(var2) / rounds
    model = GameModel(key, one, two, se1, se2)
    problem = model_problem(model, rules)
    if problem:
        raise RuntimeError(f"the built model of {key} is not valid: {problem}")
    remove_checkpoint(checkpoint)
    provenance: dict[str, object] = {
        "scheme": SCHEME, "rounds": rounds, "deals_per_round": deals, "seed": seed,
        "last_change": change, "max_se": model.max_se, "version": __version__,
        "built": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seconds_this_run": round(time.perf_counter() - started, 1),
    }  # fmt: skip
    return model, provenance


def make_game_model(rules: Rules, progress: Callable[[str], None] | None = None) -> GameModel:
    """The expert model of ``rules`` that no file holds, made now
    (:data:`~crib_analyze.settings.MADE_MODEL_ROUNDS` rounds of
    :data:`~crib_analyze.settings.MADE_MODEL_DEALS` deals, seeded) and kept where
    :func:`~crib_analyze.artifacts.game_models.game_model` reads it next time. A killed
    build resumes from its checkpoint beside it; a data dir that cannot be written only
    means it is made again next time."""
    rules = modelled(rules)
    key = model_key(rules)
    path = made_model_path(rules)
    checkpoint = checkpoint_beside(path)  # None: the model is not kept either
    model, provenance = build_game_model(
        rules, MADE_MODEL_ROUNDS, MADE_MODEL_DEALS, MADE_MODEL_SEED, checkpoint, progress
    )
    remember_made_model(model)  # for this process, if the data dir cannot be written
    with contextlib.suppress(OSError, CribAnalyzeError):
        GameModels({key: model}, {key: provenance}).save(path)
    return model


def expert_game_model(rules: Rules) -> GameModel:
    """The expert model the other seats of ``rules`` throw by: the one in use (under a
    penalty, the game's without it: its throws weigh no show of nothing), else one made
    now (:func:`make_game_model`, said in one line first); a usage error for rules no
    model is built for (a game's own changes)."""
    if rules.name not in GAMES:  # a game's own change (four each for themselves, say)
        raise UsageError(
            f"{rules.name} has no expert throw model (they are made for the games of "
            "'crib-analyze games' as dealt): let its seats throw by the hand policy"
        )
    model = game_model(rules) or game_model(modelled(rules))
    if model is not None:
        return model
    key = model_key(modelled(rules))
    log.warning(  # a wait of half a minute: said on a terminal or not
        f"no expert model of {key} is kept: making one now ({MADE_MODEL_ROUNDS} rounds of "
        f"{MADE_MODEL_DEALS:,} deals; once, kept in {made_model_path(rules).parent})"
    )
    return make_game_model(rules)
