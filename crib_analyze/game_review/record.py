"""A game record: the deals of one player's game as plain text, read and checked.

The format (one ``key: value`` per line; ``#`` starts a comment; blank lines are
ignored; a line ``deal`` (or ``deal 2``...) starts each deal)::

    # Tuesday's game, my side
    deal 1
    dealer: me
    score: 0-0              # optional: mine-theirs before the deal
    hand: 5H 6S 4D JC QH 5C # my six cards
    throw: JC QH            # the two I put in the crib
    starter: 2D
    play: 9C 5H 6D 4D go 7C # every card laid in order, the pone's first; go optional

``dealer`` is ``me`` or ``opponent``. The play may stop early (a deal abandoned when
the game ended). Cards are checked: none seen twice, the throw from the hand, my cards
in the play from what I kept and laid in my turn, no go of mine while I held a card
that fit, at most four cards a side.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from crib_analyze import interrupts
from crib_analyze.cards import format_card, parse_card, parse_cards, value_of
from crib_analyze.errors import CardError, UsageError, describe_os_error
from crib_analyze.play.sequence import (
    GO,
    PlayError,
    ScoredPlay,
    score_sequence,
    score_table_sequence,
)
from crib_analyze.rules import STANDARD

KEYS = ("dealer", "score", "hand", "throw", "starter", "play")
REQUIRED = ("dealer", "hand", "throw", "starter")


class RecordError(UsageError):
    """A record that cannot be read or breaks the rules: one line naming the deal."""


@dataclass(frozen=True)
class Deal:
    """One recorded deal, from my side."""

    number: int
    dealer: bool  # I deal
    hand: tuple[int, ...]  # my six cards
    throw: tuple[int, ...]  # my two thrown
    starter: int
    play: tuple[int, ...]  # cards and GO in order, the pone's first
    score: tuple[int, int] | None  # mine, theirs before the deal

    @property
    def role(self) -> str:
        return "dealer" if self.dealer else "pone"

    @property
    def kept(self) -> tuple[int, ...]:
        return tuple(c for c in self.hand if c not in self.throw)

    def play_text(self, upto: int | None = None) -> str:
        """The play (its first ``upto`` tokens) as text: cards and 'go'."""
        return " ".join("go" if c == GO else format_card(c) for c in self.play[:upto])

    def hands(self) -> tuple[list[int], list[int]] | None:
        """(pone's four, dealer's four) when the play shows both hands (all eight cards
        laid), else None."""
        cards = [c for c in self.play if c != GO]
        theirs = [c for c in cards if c not in self.kept]
        if len(cards) != 8 or len(theirs) != 4:
            return None
        mine = list(self.kept)
        return (theirs, mine) if self.dealer else (mine, theirs)

    def scored(self) -> ScoredPlay:
        """The play scored, every go written in: checked against my hand, and against
        both when the play shows them."""
        shown = self.hands()
        if shown is not None:
            return score_sequence(self.play_text(), *shown)
        mine = list(self.kept)
        hands = [None, mine] if self.dealer else [mine, None]
        return score_table_sequence(self.play_text(), STANDARD, hands)


def read_record(path: str | os.PathLike[str]) -> list[Deal]:
    """The deals of a record file (see the module notes)."""
    try:
        with interrupts.at_once():  # a FIFO or a pipe may wait: Ctrl-C is heard
            text = Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file (UTF-8)") from None
    except OSError as e:
        raise RecordError(f"cannot read the record: {describe_os_error(e)}") from None
    return parse_record(text, str(path))


def parse_record(text: str, name: str = "record") -> list[Deal]:
    """The deals of a record's text."""
    deals: list[Deal] = []
    fields: dict[str, str] | None = None
    at: dict[str, int] = {}  # the line of each field of the deal
    start = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if re.fullmatch(r"deal(\s+\d+)?", line, flags=re.IGNORECASE):
            if fields is not None:
                deals.append(_deal(fields, len(deals) + 1, name, start, at))
            fields, start, at = {}, number, {}
            continue
        key, sep, value = line.partition(":")
        key = key.strip().lower()
        if not sep or key not in KEYS:
            raise RecordError(
                f"{name}, line {number}: expected 'deal' or one of "
                f"{', '.join(KEYS)} followed by ':', got {line[:40]!r}"
            )
        if fields is None:
            raise RecordError(f"{name}, line {number}: a deal starts with a line 'deal'")
        if key in fields:
            raise RecordError(f"{name}, line {number}: {key} given twice in one deal")
        fields[key] = value.strip()
        at[key] = number
    if fields is not None:
        deals.append(_deal(fields, len(deals) + 1, name, start, at))
    if not deals:
        raise RecordError(f"{name}: no deal in the record (a deal starts with a line 'deal')")
    return deals


def _deal(fields: dict[str, str], number: int, name: str, line: int, at: dict[str, int]) -> Deal:
    where = f"{name}, deal {number} (line {line})"

    def on(key: str) -> str:  # where a field's own slip is: its line
        return f"{name}, deal {number}, line {at.get(key, line)} ({key})"

    missing = [k for k in REQUIRED if k not in fields]
    if missing:
        raise RecordError(f"{where}: missing {', '.join(missing)}")
    who = fields["dealer"].lower()
    if who not in ("me", "opponent"):
        raise RecordError(f"{where}: dealer must be 'me' or 'opponent', got {fields['dealer']!r}")
    parsed: list[Any] = []
    for key, parse in (
        ("hand", lambda t: parse_cards(t, count=6)),
        ("throw", lambda t: parse_cards(t, count=2)),
        ("starter", parse_card),
        ("play", _tokens),
    ):
        try:
            parsed.append(parse(fields.get(key, "")))
        except CardError as e:
            raise RecordError(f"{on(key)}: {e}") from None
    hand, throw, starter, play = parsed
    score = _score(fields["score"], where) if "score" in fields else None
    if not set(throw) <= set(hand):
        raise RecordError(f"{on('throw')}: the throw {fields['throw']} is not from the hand")
    if starter in hand:
        raise RecordError(f"{on('starter')}: the starter {format_card(starter)} is in my hand")
    deal = Deal(number, who == "me", tuple(hand), tuple(throw), starter, tuple(play), score)
    _check_play(deal, on("play"))
    return deal


def _tokens(text: str) -> list[int]:
    return [GO if t.lower() == "go" else parse_card(t) for t in text.replace(",", " ").split()]


def _score(text: str, where: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(\d{1,3})\s*[-:/ ]\s*(\d{1,3})\s*", text)
    if not m or max(int(m[1]), int(m[2])) > 120:
        raise RecordError(f"{where}: score must be mine-theirs, each 0 to 120, got {text!r}")
    return int(m[1]), int(m[2])


def _check_play(deal: Deal, where: str) -> None:
    """The play is legal as far as the cards show, and no card is seen twice. A whole
    play (eight cards) shows both hands, so every card and go is checked."""
    cards = [c for c in deal.play if c != GO]
    for c in cards:
        if c in deal.throw or c == deal.starter:
            raise RecordError(f"{where}: {format_card(c)} is laid but is in the crib or cut")
    kept = set(deal.kept)
    try:
        play = deal.scored()
    except (PlayError, CardError) as bad:
        raise RecordError(f"{where}: {bad}") from None
    me = deal.role
    held = set(kept)
    for e in play.events:
        if e.card >= 0:
            mine_card = e.card in kept
            if mine_card != (e.player == me):
                whose = "mine" if mine_card else "not mine"
                raise RecordError(
                    f"{where}: {format_card(e.card)} is {whose} but laid as the {e.player}'s"
                )
            held.discard(e.card)
        elif e.player == me:
            fits = [format_card(c) for c in held if e.count + value_of(c) <= 31]
            if fits:
                raise RecordError(
                    f"{where}: a go at {e.count} while holding {' '.join(sorted(fits))}"
                )


def games_record(history: np.ndarray, first: int = 0) -> str:
    """Simulated games as a record, from player 0's side: ``history`` (games, deals, 24)
    as :func:`crib_analyze.board.game_kernels.play_games` keeps it (the deal's 13 cards,
    the 8 laid in order, the dealing player, both scores before the deal; -1 after the
    last deal). Games are told apart by comments; deals are numbered through the file."""
    lines = ["# games simulated by crib-analyze, from player 0's side"]
    number = 0
    for g in range(history.shape[0]):
        lines.append(f"# game {first + g}")
        for h in history[g]:
            if h[0] < 0:
                break
            number += 1
            deals_me = int(h[21]) == 0
            kept, thrown = (h[4:8], h[11:13]) if deals_me else (h[0:4], h[9:11])
            lines += [
                f"deal {number}",
                f"dealer: {'me' if deals_me else 'opponent'}",
                f"score: {int(h[22])}-{int(h[23])}",
                f"hand: {' '.join(format_card(int(c)) for c in (*kept, *thrown))}",
                f"throw: {' '.join(format_card(int(c)) for c in thrown)}",
                f"starter: {format_card(int(h[8]))}",
                f"play: {' '.join(format_card(int(c)) for c in h[13:21] if c >= 0)}",
            ]
    return "\n".join(lines) + "\n"
