"""The play's results as :class:`~crib_analyze.results.Rows` (numpy columns, text as
object arrays, typed metadata): a scored play, play advice in the standard game and at
any table. The command line renders them without pandas; the public API's DataFrames
are made from them (:func:`crib_analyze.frames.rows_frame`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from crib_analyze.cards import format_card, rank_name
from crib_analyze.play.meta import GameAdviceMeta, PlayMeta, ScoredPlayMeta
from crib_analyze.results import Rows
from crib_analyze.rules import STANDARD, Rules

if TYPE_CHECKING:
    from crib_analyze.play.advice import Advice
    from crib_analyze.play.sequence import ScoredPlay
    from crib_analyze.play.table_advice import TableAdvice


def card_texts(cards: list[int]) -> np.ndarray:
    """Each card as text, "go" for a go (a negative code)."""
    return np.array([format_card(c) if c >= 0 else "go" for c in cards], dtype=object)


def scored_play_rows(play: ScoredPlay, rules: Rules = STANDARD) -> Rows:
    """A scored play: one row per card or go (player, card, count, points, reason);
    the metadata gives each seat's total, each side's with partners (``sides``), the
    game and whether the play is complete, and says the totals as its verdict."""
    columns = {
        "player": np.array([e.player for e in play.events], dtype=object),
        "card": card_texts([e.card for e in play.events]),
        "count": np.array([e.count for e in play.events], dtype=np.int64),
        "points": np.array([e.points for e in play.events], dtype=np.int64),
        "reason": np.array(["; ".join(e.reasons) for e in play.events], dtype=object),
    }
    sides: dict[str, int] | None = None
    if rules.partners:
        sides = {}
        for team in dict.fromkeys(rules.teams):
            seats = [s for s in range(rules.players) if rules.teams[s] == team]
            name = " & ".join(rules.seat_names[s] for s in seats)
            sides[name] = sum(play.totals[rules.seat_names[s]] for s in seats)
    meta = ScoredPlayMeta(totals=play.totals, complete=play.complete, game=rules.name, sides=sides)
    return Rows(columns, meta=replace(meta, verdict=meta.tally))


def advice_rows(advice: Advice, role: str) -> Rows:
    """Each legal card of the standard game, best first: its value (the pegging
    differential from here), standard error, and whether it is the policy's card."""
    columns = {
        "card": card_texts(advice.cards),
        "value": np.asarray(advice.value, dtype=np.float64),
        "se": np.asarray(advice.se, dtype=np.float64),
        "policy_choice": np.array([c == advice.policy_card for c in advice.cards], dtype=bool),
    }
    meta = PlayMeta(
        role=role, count=advice.count, samples=advice.samples, policy=advice.policy,
        continuation=advice.continuation, weighted_by=advice.weighted_by,
        reasons={format_card(c): advice.reasons[c] for c in advice.cards if c in advice.reasons},
    )  # fmt: skip
    return Rows(columns, meta=meta)


def play_note(rule: str) -> str:
    """What a variant's rule (its words) does to the play advice."""
    if rule.startswith("lowball"):
        return f"{rule}; every seat lays for the fewest points, the lowest net first"
    if rule.startswith("throw fives"):
        return f"{rule}: the other seats' cards are drawn without fives"
    if "penalty" in rule:
        return f"{rule}: it changes the shows, not the play"
    if rule.startswith("jokers"):
        return (f"{rule}; in the play each joker is laid as the rank that serves its seat "
                "best (yours as the rank shown)")  # fmt: skip
    return rule


def table_advice_rows(advice: TableAdvice) -> Rows:
    """What a seat can lay in any game, best first: ``card`` ("go" when nothing fits; a
    joker with the rank it is laid as, "JK as 5"),
    ``own`` (its side's mean points in the rest of the play), ``others`` (the other
    sides' mean), ``net`` (the difference) and ``net_se``; the metadata says what was
    simulated."""
    rules = advice.rules
    cards = card_texts(list(advice.options))
    for i, r in enumerate(advice.named or ()):
        if r >= 0:  # a joker, laid as that rank
            cards[i] = f"{cards[i]} as {rank_name(r)}"
    columns = {
        "card": cards,
        "own": np.asarray(advice.own, dtype=np.float64),
        "others": np.asarray(advice.others, dtype=np.float64),
        "net": np.asarray(advice.net, dtype=np.float64),
        "net_se": np.asarray(advice.net_se, dtype=np.float64),
    }
    meta = GameAdviceMeta(
        game=rules.name, seat=rules.seat_names[advice.seat], count=advice.count,
        samples=advice.samples, policy=advice.policy, lowball=rules.lowball,
        notes=tuple(play_note(rule) for rule in rules.variant_rules),
    )  # fmt: skip
    return Rows(columns, meta=meta)
