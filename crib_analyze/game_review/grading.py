"""A recorded game graded decision by decision, like a chess engine's game analysis.

Every decision of the recorded player is compared with the best alternative:

* **the throw**: all 15 throws ranked by hand + crib + pegging against the expert
  opponent (the discard engine, pegging from the table); the loss is the chosen
  throw's expected points behind the best. With the score before the deal, the throws
  are also valued from that position on the board (``position_samples`` deals each,
  then the board table): the loss in the chance of winning;
* **each card laid** where more than one fits: the solver's advice at that moment (the
  opponent read from its throw, its cards laid and its go's; the rest of the play
  solved for every hand it may hold); the loss is the chosen card's expected pegging
  differential behind the best. With the score, each card is also valued by the chance
  of winning from the score at that moment (the deal's score, heels and the points
  pegged so far: :mod:`crib_analyze.board.play_odds`, the same engine as ``play
  --score``), and the best card is the one that wins most (so ``loss`` may be below
  zero, as for a throw).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from crib_analyze.artifacts.expert_model import ExpertModel
from crib_analyze.board.play_odds import play_odds
from crib_analyze.board.throws import position_throws
from crib_analyze.cards import format_card, format_cards, parse_cards, value_of
from crib_analyze.constants import HEELS_POINTS, JACK_RANK
from crib_analyze.discard.engine import analyze_hand
from crib_analyze.discard.ranking import discard_rows
from crib_analyze.errors import CardError
from crib_analyze.game_review.record import Deal
from crib_analyze.play.advice import advise_at, play_position
from crib_analyze.play.sequence import PlayError, PlayEvent, score_sequence
from crib_analyze.rules import TARGET
from crib_analyze.settings import POSITION_SAMPLES


@dataclass(frozen=True)
class Decision:
    """One graded decision against its ``best``: ``loss`` in expected points;
    ``loss_win`` in chance of winning (0..1), None without a score. With a score the
    best throw or card is the one that wins most, so ``loss`` may be below zero (the
    choice made scores or pegs more and wins less)."""

    deal: int
    kind: str  # "throw" or "play"
    situation: str
    chosen: str
    best: str
    loss: float
    loss_win: float | None
    options: int


def grade_game(
    deals: list[Deal],
    model: ExpertModel,
    position_samples: int = POSITION_SAMPLES.default,
    seed: int = 0,
    on_progress: Callable[[int, int], None] | None = None,
) -> list[Decision]:
    """Every decision of the recorded player, in the order made; ``on_progress`` gets
    (deals graded, deals) after each deal (it may raise to stop the grading there)."""
    out: list[Decision] = []
    for done, deal in enumerate(deals, start=1):
        out.append(_grade_throw(deal, model, position_samples, seed))
        out.extend(_grade_plays(deal, model, seed))
        if on_progress is not None:
            on_progress(done, len(deals))
    return out


def _score_now(deal: Deal, events: list[PlayEvent]) -> tuple[int, int] | None:
    """(mine, theirs) before the card after ``events``: the deal's score, heels and the
    points pegged so far; None without a score or once the game is over."""
    if deal.score is None:
        return None
    mine, theirs = deal.score
    if deal.starter >> 2 == JACK_RANK:
        mine, theirs = (
            (mine + HEELS_POINTS, theirs) if deal.dealer else (mine, theirs + HEELS_POINTS)
        )
    for e in events:
        if e.player == deal.role:
            mine += e.points
        else:
            theirs += e.points
    return (mine, theirs) if max(mine, theirs) < TARGET else None


def _grade_throw(deal: Deal, model: ExpertModel, samples: int, seed: int) -> Decision:
    analysis = analyze_hand(list(deal.hand), model=model)
    position = None
    if deal.score is not None:
        position = position_throws(
            np.array(deal.hand, np.int64), deal.role, deal.score, samples=samples, seed=seed,
            model=model,
        )  # fmt: skip
    rows = discard_rows(analysis, role=deal.role, position=position)
    names = [str(d) for d in rows["discard"]]
    totals = [float(t) for t in rows["total"]]
    i = [set(parse_cards(n)) for n in names].index(set(deal.throw))
    chosen = names[i]
    best = max(range(len(names)), key=lambda j: totals[j])
    loss_win = None
    if position is not None:  # one best: the throw that wins most (it may score less)
        wins = [float(w) for w in rows["p_win"]]
        best = max(range(len(names)), key=lambda j: wins[j])
        loss_win = wins[best] - wins[i]
    return Decision(
        deal=deal.number,
        kind="throw",
        situation=f"throw from {format_cards(deal.hand)} as {deal.role}",
        chosen=chosen,
        best=names[best],
        loss=totals[best] - totals[i],
        loss_win=loss_win,
        options=len(names),
    )


def _grade_plays(deal: Deal, model: ExpertModel, seed: int) -> list[Decision]:
    out = []
    held = list(deal.kept)
    events = deal.scored().events  # go's written in
    for i, e in enumerate(events):
        if e.card < 0 or e.player != deal.role:
            continue
        before = " ".join("go" if x.card < 0 else format_card(x.card) for x in events[:i])
        prefix = _before(before, deal.dealer, e.card)
        position = play_position(deal.role, held, deal.starter, list(deal.throw), prefix)
        advice = advise_at(position, policy="solver", seed=seed, model=model)
        held.remove(e.card)
        if len(advice.cards) < 2:
            continue  # a forced card
        values = dict(zip(advice.cards, advice.value, strict=True))
        best = advice.cards[0]
        loss_win = None
        now = _score_now(deal, events[:i])
        if now is not None:  # one best: the card that wins most (it may peg less)
            odds = play_odds(position, now, model)
            wins = dict(zip(odds.cards, odds.p_win, strict=True))
            most = max(wins.values())
            if wins[e.card] < most - 1e-12:  # else the card chosen wins as often as any
                best = next(c for c in advice.cards if wins[c] >= most - 1e-12)  # pegging order
            else:
                best = e.card
            loss_win = float(wins[best] - wins[e.card])
        loss = float(values[best] - values[e.card])
        out.append(
            Decision(
                deal=deal.number,
                kind="play",
                situation=f"lay at count {advice.count} after {prefix or 'nothing'}",
                chosen=format_card(e.card),
                best=format_card(best),
                loss=loss,
                loss_win=loss_win,
                options=len(advice.cards),
            )
        )
    return out


def _before(prefix: str, dealer: bool, card: int) -> str:
    """The play before my ``card`` as text, with the go's that end a round written in:
    where my card does not fit at the count, nobody could lay, so the round ended."""
    me = 1 if dealer else 0
    for extra in ("", " go", " go go"):
        text = (prefix + extra).strip()
        try:
            play = score_sequence(text)
        except (PlayError, CardError):
            continue
        if play.turn == me and play.count + value_of(card) <= 31:
            return text
    return prefix
