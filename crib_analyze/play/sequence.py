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

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

import numpy as np

from crib_analyze.cards import CardLike, CardsLike, format_card, parse_card, parse_cards, value_of
from crib_analyze.errors import CardError, UsageError
from crib_analyze.play import rules_kernels as rk
from crib_analyze.position import Seat
from crib_analyze.rules import STANDARD, Rules

PLAYERS = tuple(seat.role for seat in Seat)  # by seat: the pone leads
GO = -1
BEST_JOKER = -2  # a joker written bare, JK: laid as the card that pegs most there
_WORDS = (
    "zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
    "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
    "eighteen", "nineteen", "twenty",
)  # fmt: skip


class PlayError(UsageError):
    """A play that breaks the rules (one line saying which card and why)."""


@dataclass(frozen=True)
class PlayEvent:
    """One step of the play: a card laid (``card`` >= 0) or a go (``card`` = -1)."""

    player: str
    card: int
    count: int  # the count after the card (unchanged for a go)
    points: int
    reasons: tuple[str, ...]  # e.g. ("fifteen 2", "run of three for 3", "go 1")


@dataclass
class ScoredPlay:
    """A play scored: its events in order, each side's total, whether it is complete."""

    events: list[PlayEvent] = field(default_factory=list)
    complete: bool = False
    seats: tuple[str, ...] = ("pone", "dealer")  # the players' names, from the dealer's left
    # where the play stands after the last event: the count, the ranks laid since the
    # restart, who is to lay next (0 pone, 1 dealer) and who has said go
    count: int = 0
    ranks: list[int] = field(default_factory=list)
    turn: int = 0
    said_go: tuple[bool, ...] = (False, False)

    @property
    def totals(self) -> dict[str, int]:
        return {p: sum(e.points for e in self.events if e.player == p) for p in self.seats}


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
    if points_reasons & rk.R_FIVE_OF_A_KIND:
        out.append("five of a kind 20")
    if points_reasons & rk.R_SIX_OF_A_KIND:
        out.append("six of a kind 30")
    run = points_reasons >> rk.RUN_SHIFT & 7
    if run:
        out.append(f"run of {_WORDS[run]} for {run}")  # as a player says it
    return out


def play_tokens(
    sequence: CardsLike | Iterable[CardLike], jokers: int = 0
) -> tuple[list[int], set[int]]:
    """(card ids and GO for each token ('go' in any case, or GO), the positions of jokers). A
    joker is written as the card it is laid as, ``JK=5H``, or bare, ``JK``: the card that
    pegs most where it is laid (:data:`BEST_JOKER`; with ``jokers`` in the pack)."""
    pieces = [sequence] if isinstance(sequence, str) else list(sequence)
    items: list[CardLike] = []
    for piece in pieces:  # a piece of text may hold several cards: "10H 5S go 7C"
        items += piece.replace(",", " ").split() if isinstance(piece, str) else [piece]
    out: list[int] = []
    wild: set[int] = set()
    for item in items:
        text = item.strip().upper() if isinstance(item, str) else ""
        if text == "GO" or (isinstance(item, int) and item == GO):  # a go as written or as GO
            out.append(GO)
        elif text.startswith("JK"):
            if not jokers:
                raise PlayError(f"{item} is a joker: give the jokers in the pack (--jokers)")
            if text != "JK" and not text.startswith("JK="):
                raise PlayError(f"write a joker JK, or JK=5H for the card it is laid as: {item}")
            if len(wild) == jokers:
                raise PlayError(f"more jokers laid than the pack holds ({jokers})")
            wild.add(len(out))
            out.append(BEST_JOKER if text == "JK" else parse_card(text[3:]))
        else:
            out.append(parse_card(item))
    return out, wild


def best_joker_card(ranks: list[int], count: int) -> int:
    """The card a bare joker is laid as after ``ranks`` at ``count``: the rank that pegs
    most there (the lowest of equals: it keeps the count down), as a club (the suit
    does not count in the play).

    >>> format_card(best_joker_card([3, 4], 9))  # after 4 5 at 9: a 6 makes 15 and a run
    '6C'
    """
    best, best_rank = -1, 0
    for r in range(13):
        value = min(r + 1, 10)
        if count + value > 31:
            break
        points, _ = rk.lay_points(np.array([*ranks, r, 0], np.int64), len(ranks) + 1, count + value)
        if points > best:
            best, best_rank = int(points), r
    return best_rank * 4


def score_sequence(
    sequence: CardsLike | Iterable[CardLike],
    pone: CardsLike | None = None,
    dealer: CardsLike | None = None,
) -> ScoredPlay:
    """Score a two-player play given as cards (and 'go'), checking what can be checked."""
    if (pone is None) != (dealer is None):
        raise PlayError("give both hands (--pone-hand and --dealer-hand) or neither")
    hands = None if pone is None or dealer is None else [pone, dealer]
    return score_table_sequence(sequence, STANDARD, hands)


def score_table_sequence(
    sequence: CardsLike | Iterable[CardLike],
    rules: Rules = STANDARD,
    hands: Sequence[CardsLike | None] | None = None,
    jokers: int = 0,
) -> ScoredPlay:
    """Score a play of any game of the rules, given as cards (and 'go'), the seat on the
    dealer's left leading; ``hands`` (one per seat, from the dealer's left; None for a
    hand not shown) lets every card and go of the seats shown be checked.

    >>> from crib_analyze.rules import game
    >>> play = score_table_sequence("7H 7S 7D 5S 5H 8C 10D 10C go go 3D 10H 4C 9S", game("three"))
    >>> play.totals
    {'left': 0, 'middle': 10, 'dealer': 7}
    """
    tokens, wild = play_tokens(sequence, jokers)
    if wild and hands is not None:
        raise PlayError("a play with jokers is scored without the hands (they are not checked)")
    reader = _PlayReader(rules, _held(rules, hands))
    cards = [t for i, t in enumerate(tokens) if t != GO and i not in wild]  # jokers may repeat
    if len(set(cards)) != len(cards):
        repeated = next(c for c in cards if cards.count(c) > 1)
        raise PlayError(f"{format_card(repeated)} is laid twice")
    n_laid, most = len(cards) + len(wild), rules.players * rules.hand_size
    if n_laid > most:
        raise PlayError(
            f"{n_laid} cards laid: a play has at most {_WORDS[most]}, "
            f"{_WORDS[rules.hand_size]} a side"
        )
    for token in tokens:
        reader.read(token)
    return reader.finish()


def _held(rules: Rules, hands: Sequence[CardsLike | None] | None) -> list[list[int] | None] | None:
    """Each seat's cards as given (None where a hand is not shown), checked: one per seat,
    no card in two hands."""
    if hands is None:
        return None
    seats = rules.players
    if len(hands) != seats:
        raise PlayError(f"{rules.name} has {seats} hands, one per seat: got {len(hands)}")
    held = [None if h is None else list(parse_cards(h, count=rules.hand_size)) for h in hands]
    every = [c for h in held if h is not None for c in h]
    if len(set(every)) != len(every):
        raise CardError("the two hands share a card" if seats == 2 else "the hands share a card")
    return held


class _PlayReader:
    """A written play read token by token, as the rules give the turn: the count, who
    has said go, whose turn it is, and the events scored so far."""

    def __init__(self, rules: Rules, held: list[list[int] | None] | None) -> None:
        self.rules, self.held = rules, held
        self.names, self.seats, self.size = rules.seat_names, rules.players, rules.hand_size
        self.laid = [0] * self.seats
        self.play = ScoredPlay(seats=self.names)
        self.turn, self.count, self.last = 0, 0, -1
        self.said_go = [False] * self.seats
        self.ranks: list[int] = []
        self.over = False  # the old game's play ends at its first go or 31
        # a count just closed by go's, with no card since: (its count, who had said go); a
        # go written now is a go said before the reset (players write "go go" as often
        # as "go" when neither can lay)
        self.closed: tuple[int, list[bool]] | None = None
        self.unconfirmed: list[int] = []  # seats whose go the hands implied since the last card

    def has_cards(self, seat: int) -> bool:
        return self.laid[seat] < self.size

    def known(self, seat: int) -> list[int] | None:
        return None if self.held is None else self.held[seat]

    def can_lay(self, seat: int) -> bool:
        cards = self.known(seat)
        if cards is None:
            return self.has_cards(seat)  # unknown cards: assume it might
        return any(self.count + value_of(c) <= 31 for c in cards)

    def left_of(self, seat: int, wanted: Callable[[int], bool]) -> int:
        """The first seat to the left of ``seat`` (itself last) that is ``wanted``; -1."""
        for step in range(1, self.seats + 1):
            other = (seat + step) % self.seats
            if wanted(other):
                return other
        return -1

    def in_count(self, seat: int) -> bool:
        return not self.said_go[seat] and self.has_cards(seat) and self.can_lay(seat)

    def says_go(self, seat: int) -> None:
        self.said_go[seat] = True
        self.play.events.append(PlayEvent(self.names[seat], GO, self.count, 0, ("go",)))

    def restart(self) -> None:
        self.count, self.ranks, self.said_go = 0, [], [False] * self.seats
        nxt = self.left_of(self.last, self.has_cards)
        self.turn = self.last if nxt < 0 else nxt
        self.over = self.rules.play_once

    def end_round(self) -> None:
        if self.count < 31 and self.last >= 0:  # the go point to whoever laid the last card
            _add_to_last_card(self.play, 1, "go 1")
        self.closed = (self.count, list(self.said_go))
        self.restart()

    def check_not_over(self) -> None:
        if self.over:
            raise PlayError(f"the play of {self.rules.name} ends at its first go or 31")

    def read(self, token: int) -> None:
        """One card or go, written."""
        if token == GO and self.unconfirmed:  # a go the hands implied, and written too
            self.unconfirmed.pop(0)
            return
        if token == GO and self.closed is not None:  # a go of the count just closed
            at, gone = self.closed
            seat = _first_not_gone(gone, self.last)
            if seat >= 0:
                gone[seat] = True
                self.play.events.append(PlayEvent(self.names[seat], GO, at, 0, ("go",)))
                return
        self.closed = None
        self.check_not_over()
        if token == GO:
            self.go()
        else:
            self.lay(token)

    def go(self) -> None:
        """The player to move says go: it must have no card that fits."""
        turn, count = self.turn, self.count
        if count <= 21 and self.has_cards(turn):  # any card fits: ten is the most a card counts
            raise PlayError(f"{self.names[turn]} says go at {count}, where any card fits")
        mine = self.known(turn)
        if mine is not None and self.can_lay(turn):
            playable = [format_card(c) for c in mine if count + value_of(c) <= 31]
            raise PlayError(
                f"{self.names[turn]} says go at {count} but can lay {' '.join(playable)}"
            )
        self.says_go(turn)
        if self.left_of(turn, self.in_count) < 0:  # nobody can lay
            self.end_round()
        else:  # the turn passes on; a seat that cannot lay says go in turn, or silently
            self.turn = self.left_of(turn, lambda s: not self.said_go[s] and self.has_cards(s))

    def owner_of(self, card: int) -> int | None:
        """The seat whose shown hand holds ``card`` (the one hand not shown, if it is in
        none); None without the hands."""
        if self.held is None:
            return None
        owner = next((s for s in range(self.seats) if card in (self.held[s] or ())), None)
        unknown = [s for s in range(self.seats) if self.held[s] is None]
        if owner is None and len(unknown) == 1:
            return unknown[0]  # not in a hand shown: the one hand not shown
        if owner is None and not unknown:
            where = "neither hand" if self.seats == 2 else "no hand"
            raise PlayError(f"{format_card(card)} is in {where}")
        return owner

    def lay(self, card: int) -> None:
        """A card laid: by the player to move, or by its owner after silent go's."""
        chosen: tuple[str, ...] = ()
        if card == BEST_JOKER:
            card = best_joker_card(self.ranks, self.count)
            chosen = (f"joker as {format_card(card)}",)
        owner = self.owner_of(card)
        if self.count + value_of(card) > 31:
            self.forced_go(card)
        if not self.has_cards(self.turn):  # the player to move has no cards left
            nxt = self.left_of(self.turn, self.has_cards)
            self.turn = self.turn if nxt < 0 else nxt
        if owner is not None and owner != self.turn:
            self.pass_to(owner, card)
        turn = self.turn
        if not self.has_cards(turn):
            raise PlayError(f"{self.names[turn]} has already laid {_WORDS[self.size]} cards")
        mine = self.known(turn)
        if mine is not None:
            mine.remove(card)
        self.laid[turn] += 1
        self.count += value_of(card)
        self.ranks.append(card // 4)
        ranks = np.array([*self.ranks, 0], np.int64)
        points, reasons = rk.lay_points(ranks, len(self.ranks), self.count)
        words = (*chosen, *reason_words(int(reasons)))
        self.play.events.append(PlayEvent(self.names[turn], card, self.count, int(points), words))
        self.last = turn
        if self.count == 31:
            self.restart()
        else:
            self.after_card()

    def forced_go(self, card: int) -> None:
        """A card that passes 31: nobody could lay at this count (else it is an error)."""
        able = [s for s in range(self.seats) if self.known(s) is not None and self.can_lay(s)]
        if able:
            who = able[0]
            fits = [format_card(c) for c in self.known(who) or () if self.count + value_of(c) <= 31]
            raise PlayError(
                f"{format_card(card)} passes 31 (count {self.count}) while "
                f"{self.names[who]} can still lay {' '.join(fits)}"
            )
        self.end_round()  # nobody could lay: a forced go
        self.check_not_over()

    def pass_to(self, owner: int, card: int) -> None:
        """The turn passes to ``owner``: each seat passed over must be unable to lay
        (silent go's)."""
        while self.turn != owner:
            turn = self.turn
            if self.can_lay(turn) and not self.said_go[turn]:
                raise PlayError(
                    f"{format_card(card)} is {self.names[owner]}'s, but it is "
                    f"{self.names[turn]}'s turn at {self.count}"
                )
            if self.has_cards(turn) and not self.said_go[turn]:
                self.says_go(turn)
            self.turn = (turn + 1) % self.seats

    def after_card(self) -> None:
        """The turn after a card under 31: the next who can lay (with the hands) or may;
        the seats passed over say go; nobody able ends the count."""
        turn = self.turn
        nxt = self.left_of(turn, self.in_count)
        self.unconfirmed = []
        for step in range(1, self.seats):  # the seats passed over say go (the hands tell)
            seat = (turn + step) % self.seats
            if seat == nxt:
                break
            if self.has_cards(seat) and not self.said_go[seat]:
                self.says_go(seat)
                self.unconfirmed.append(seat)
        if nxt < 0 and any(self.has_cards(s) for s in range(self.seats)):
            self.end_round()  # nobody can lay at this count: it ends here
        else:
            self.turn = turn if nxt < 0 else nxt

    def finish(self) -> ScoredPlay:
        """The play as read: complete or not, the count and turn it stands at, and the
        last card's point when every card is laid (none extra at 31)."""
        play, every = self.play, self.seats * self.size
        play.complete = sum(self.laid) == every or self.over
        play.count, play.ranks, play.turn = self.count, list(self.ranks), self.turn
        play.said_go = tuple(self.said_go)
        if sum(self.laid) == every and self.count != 0:
            _add_to_last_card(play, 1, "last card 1")
        return play


def _add_to_last_card(play: ScoredPlay, points: int, reason: str) -> None:
    """``points`` more, for ``reason``, to the last card laid."""
    i = _last_card_index(play)
    e = play.events[i]
    play.events[i] = PlayEvent(e.player, e.card, e.count, e.points + points, (*e.reasons, reason))


def _first_not_gone(gone: list[bool], last: int) -> int:
    """The seat whose go closed a count is not yet written: the first to the left of
    ``last`` (who laid the last card) that had not said go, ``last`` itself at the
    end; -1 if every seat had."""
    seats = len(gone)
    for step in range(1, seats + 1):
        seat = (last + step) % seats
        if not gone[seat]:
            return seat
    return -1


def _last_card_index(play: ScoredPlay) -> int:
    return max(i for i, e in enumerate(play.events) if e.card >= 0)
