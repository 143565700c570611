"""A play written as cards: who laid each one, the count, the points and why.

The pone leads. A ``go`` token is the player to move saying go; it may be left out
where it is forced: a card that cannot be laid under 31 means nobody could lay, so the
last player to lay scores the go and the count restarts with the other player. Given
both hands (four cards each), every card is checked against its owner and every go
against the cards still held; without hands, only what the sequence itself shows.

>>> play = score_sequence("10H 5S 7C 6D go 2H 6C 4S 4D")
>>> [(e.player, format_card(e.card), e.count, e.points) for e in play.events if e.card >= 0][-1]
('pone', '4D', 14, 3)
>>> play.totals
{'pone': 3, 'dealer': 6}
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

import numpy as np

from crib_analyze.cards import CardLike, CardsLike, format_card, parse_card, parse_cards, value_of
from crib_analyze.errors import CardError, UsageError
from crib_analyze.play import rules_kernels as rk
from crib_analyze.position import Seat

PLAYERS = tuple(seat.role for seat in Seat)  # by seat: the pone leads
GO = -1


class PlayError(UsageError):
    """A play that breaks the rules (one line saying which card and why)."""


@dataclass(frozen=True)
class PlayEvent:
    """One step of the play: a card laid (``card`` >= 0) or a go (``card`` = -1)."""

    player: str
    card: int
    count: int  # the count after the card (unchanged for a go)
    points: int
    reasons: tuple[str, ...]  # e.g. ("fifteen 2", "run of 3 3", "go 1")


@dataclass
class ScoredPlay:
    """A play scored: its events in order, each side's total, whether it is complete."""

    events: list[PlayEvent] = field(default_factory=list)
    complete: bool = False
    # where the play stands after the last event: the count, the ranks laid since the
    # restart, who is to lay next (0 pone, 1 dealer) and who has said go
    count: int = 0
    ranks: list[int] = field(default_factory=list)
    turn: int = 0
    said_go: tuple[bool, bool] = (False, False)

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(e.points for e in self.events if e.player == p) for p in PLAYERS}


def reason_words(points_reasons: int) -> list[str]:
    """The scoring reasons of a laid card, each with its points."""
    out = []
    if points_reasons & rk.R_FIFTEEN:
        out.append("fifteen 2")
    if points_reasons & rk.R_THIRTY_ONE:
        out.append("31 for 2")
    if points_reasons & rk.R_PAIR:
        out.append("pair 2")
    if points_reasons & rk.R_PAIR_ROYAL:
        out.append("pair royal 6")
    if points_reasons & rk.R_DOUBLE_PAIR_ROYAL:
        out.append("double pair royal 12")
    run = points_reasons >> rk.RUN_SHIFT & 7
    if run:
        out.append(f"run of {run} {run}")
    return out


def _tokens(sequence: CardsLike | Iterable[CardLike]) -> list[int]:
    """Card ids and GO for each token ('go' in any case)."""
    items = sequence.replace(",", " ").split() if isinstance(sequence, str) else list(sequence)
    out = []
    for item in items:
        if isinstance(item, str) and item.strip().lower() == "go":
            out.append(GO)
        else:
            out.append(parse_card(item))
    return out


def score_sequence(
    sequence: CardsLike | Iterable[CardLike],
    pone: CardsLike | None = None,
    dealer: CardsLike | None = None,
) -> ScoredPlay:
    """Score a play given as cards (and 'go'), checking what can be checked."""
    tokens = _tokens(sequence)
    hands = None
    if (pone is None) != (dealer is None):
        raise PlayError("give both hands (--pone and --dealer) or neither")
    if pone is not None and dealer is not None:
        hands = [parse_cards(pone, count=4), parse_cards(dealer, count=4)]
        if set(hands[0]) & set(hands[1]):
            raise CardError("the two hands share a card")
    cards = [t for t in tokens if t != GO]
    if len(set(cards)) != len(cards):
        repeated = next(c for c in cards if cards.count(c) > 1)
        raise PlayError(f"{format_card(repeated)} is laid twice")
    if len(cards) > 8:
        raise PlayError(f"{len(cards)} cards laid: a play has at most eight, four a side")
    held = [list(h) for h in hands] if hands else None
    laid = [0, 0]
    play = ScoredPlay()
    turn, count, said_go, last = 0, 0, [False, False], -1
    ranks: list[int] = []

    def can_lay(player: int) -> bool:
        if held is None:
            return laid[player] < 4  # unknown cards: assume it might
        return any(count + value_of(c) <= 31 for c in held[player])

    def end_round() -> None:
        nonlocal count, ranks, said_go, turn
        if count < 31 and last >= 0:  # the go point to whoever laid the last card
            e = play.events[_last_card_index(play)]
            play.events[_last_card_index(play)] = PlayEvent(
                e.player, e.card, e.count, e.points + 1, (*e.reasons, "go 1")
            )
        count, ranks, said_go = 0, [], [False, False]
        turn = 1 - last if laid[1 - last] < 4 else last

    for token in tokens:
        if token == GO:
            if count <= 21 and laid[turn] < 4:  # any card fits: ten is the most a card counts
                raise PlayError(f"{PLAYERS[turn]} says go at {count}, where any card fits")
            if held is not None and can_lay(turn):
                playable = [format_card(c) for c in held[turn] if count + value_of(c) <= 31]
                raise PlayError(
                    f"{PLAYERS[turn]} says go at {count} but can lay {' '.join(playable)}"
                )
            said_go[turn] = True
            play.events.append(PlayEvent(PLAYERS[turn], GO, count, 0, ("go",)))
            if said_go[1 - turn] or not can_lay(1 - turn):
                end_round()
            else:
                turn = 1 - turn
            continue
        card = token
        if held is not None:
            owner = 0 if card in held[0] else 1 if card in held[1] else None
            if owner is None:
                raise PlayError(f"{format_card(card)} is in neither hand")
        else:
            owner = None
        if count + value_of(card) > 31:
            if held is not None and (can_lay(turn) or can_lay(1 - turn)):
                who = turn if can_lay(turn) else 1 - turn
                raise PlayError(
                    f"{format_card(card)} passes 31 (count {count}) while "
                    f"{PLAYERS[who]} can still lay a card"
                )
            end_round()  # nobody could lay: a forced go
        if laid[turn] == 4:
            turn = 1 - turn  # the player to move has no cards left
        if owner is not None and owner != turn:
            if held is not None and can_lay(turn) and not said_go[turn]:
                raise PlayError(
                    f"{format_card(card)} is {PLAYERS[owner]}'s, but it is "
                    f"{PLAYERS[turn]}'s turn at {count}"
                )
            said_go[turn] = True  # the player to move could not lay: a silent go
            play.events.append(PlayEvent(PLAYERS[turn], GO, count, 0, ("go",)))
            turn = owner
        if laid[turn] == 4:
            raise PlayError(f"{PLAYERS[turn]} has already laid four cards")
        if held is not None:
            held[turn].remove(card)
        laid[turn] += 1
        count += value_of(card)
        ranks.append(card // 4)
        points, reasons = rk.lay_points(np.array([*ranks, 0], np.int64), len(ranks), count)
        play.events.append(
            PlayEvent(PLAYERS[turn], card, count, int(points), tuple(reason_words(int(reasons))))
        )
        last = turn
        if count == 31:
            count, ranks, said_go = 0, [], [False, False]
            turn = 1 - last if laid[1 - last] < 4 else last
        elif not said_go[1 - turn]:
            turn = 1 - turn
    play.complete = sum(laid) == 8
    play.count, play.ranks, play.turn = count, list(ranks), turn
    play.said_go = (said_go[0], said_go[1])
    if play.complete and count != 0:  # the last card of the play (none extra at 31)
        i = _last_card_index(play)
        e = play.events[i]
        play.events[i] = PlayEvent(
            e.player, e.card, e.count, e.points + 1, (*e.reasons, "last card 1")
        )
    return play


def _last_card_index(play: ScoredPlay) -> int:
    return max(i for i, e in enumerate(play.events) if e.card >= 0)
