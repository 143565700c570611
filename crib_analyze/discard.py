"""Discard engine: all 15 throws of a six-card hand, hand over starters, crib per model.

This layer validates input, calls the kernels in :mod:`crib_analyze.discard_kernels`
and returns plain arrays in a :class:`DiscardAnalysis`; :mod:`crib_analyze.frames`
turns that into a DataFrame.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from crib_analyze import discard_kernels as dk
from crib_analyze import policy_kernels as pk
from crib_analyze import throw_model_kernels as tmk
from crib_analyze.cards import JACK, CardsLike, parse_cards, rank_of
from crib_analyze.expert import ExpertModel, default_model
from crib_analyze.score import rank_table

OPPONENT_MODELS = ("expert", "random", "sampled")
POLICIES = ("random", "expert")
Opponent = Literal["expert", "random", "sampled"]
Policy = Literal["random", "expert"]
DEFAULT_SAMPLES = 2000
DEFAULT_SEED = 0


@dataclass(frozen=True)
class DiscardAnalysis:
    """Raw results for one hand; arrays are indexed by discard in ``DISCARDS`` order.

    ``crib_mean`` and ``crib_se`` are (2, 15): row 0 is the crib when the player
    deals (the opponent is pone), row 1 when the opponent deals. Under the
    ``random`` model both rows are equal and the standard error is 0.
    """

    hand: tuple[int, ...]
    discards: np.ndarray  # (15, 2) card ids
    keeps: np.ndarray  # (15, 4) card ids
    hand_scores: np.ndarray  # (15, 46) points per unseen starter
    crib_mean: np.ndarray  # (2, 15)
    crib_se: np.ndarray  # (2, 15)
    heels: float  # the dealer's expected points for a jack starter
    opponent: str
    samples: int
    seed: int | None
    policy: str | None = None  # how a sampled opponent throws


def parse_hand6(hand: CardsLike) -> np.ndarray:
    """Six distinct cards as an int64 array (raises CardError with a one-line message)."""
    return np.array(parse_cards(hand, count=6), dtype=np.int64)


def analyze_hand(
    hand: CardsLike,
    opponent: Opponent = "expert",
    samples: int = DEFAULT_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    policy: Policy = "random",
    model: ExpertModel | None = None,
) -> DiscardAnalysis:
    """Analyse every discard of a six-card hand under an opponent model.

    ``expert`` combines the expert policy (per rank multiset, from ``model``, by
    default the shipped one) exactly with the unseen cards and starters; ``sampled``
    draws ``samples`` opponent hands whose throw follows ``policy`` (its best
    response under the random or the expert crib model).
    """
    if opponent not in OPPONENT_MODELS:
        raise ValueError(f"unknown opponent model {opponent!r} (choose from {OPPONENT_MODELS})")
    if policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r} (choose from {POLICIES})")
    if opponent == "sampled" and samples < 1:
        raise ValueError(f"samples must be at least 1, got {samples}")
    hand6 = parse_hand6(hand)
    table = rank_table()
    scores = dk.hand_scores(table, hand6)
    if opponent == "random":
        crib = dk.crib_random_means(table, hand6)
        crib_mean = np.vstack([crib, crib])
        crib_se = np.zeros_like(crib_mean)
    elif opponent == "expert":
        m = model or default_model()
        crib_mean = pk.crib_compiled_means(table, hand6, *m.compiled_policies())
        crib_se = np.zeros_like(crib_mean)
    else:
        opponents = draw_opponents(hand6, samples, seed)
        throws = policy_throws(opponents, policy, model)
        per_sample = dk.crib_sampled(table, hand6, opponents, throws)
        crib_mean = per_sample.mean(axis=1)
        crib_se = (
            per_sample.std(axis=1, ddof=1) / np.sqrt(samples)
            if samples > 1
            else np.full_like(crib_mean, np.nan)
        )
    unseen_jacks = 4 - sum(rank_of(int(c)) == JACK for c in hand6)
    return DiscardAnalysis(
        hand=tuple(int(c) for c in hand6),
        discards=hand6[dk.DISCARDS],
        keeps=hand6[dk.KEEPS],
        hand_scores=scores,
        crib_mean=crib_mean,
        crib_se=crib_se,
        heels=2.0 * unseen_jacks / dk.N_UNSEEN,
        opponent=opponent,
        samples=samples if opponent == "sampled" else 0,
        seed=seed if opponent == "sampled" else None,
        policy=policy if opponent == "sampled" else None,
    )


def policy_throws(opponents: np.ndarray, policy: str, model: ExpertModel | None) -> np.ndarray:
    """(n, 2) discard index of each opponent hand: [as pone, as dealer]."""
    table = rank_table()
    if policy == "random":
        return np.asarray(dk.random_policy_throws(table, opponents))
    m = model or default_model()
    return np.asarray(
        tmk.expert_policy_throws(
            table, opponents, m.pone.P, m.pone.F, m.pone.K, m.dealer.P, m.dealer.F, m.dealer.K
        )
    )


def draw_opponents(hand6: np.ndarray, samples: int, seed: int | None) -> np.ndarray:
    """(samples, 6) opponent hands drawn uniformly from the 46 unseen cards."""
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), hand6)
    rng = np.random.default_rng(seed)
    picks = np.argsort(rng.random((samples, unseen.size)), axis=1)[:, :6]
    return unseen[picks]
