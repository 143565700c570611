"""The rules of the games this package knows: one place for each rule's numbers.

The module constants are the standard game's (two players, six cards each, game to
121); engines and kernels read them from here (kernels as compile-time constants). The
counting itself lives with its engine: the show in
:mod:`crib_analyze.scoring.show_kernels`, the play in
:mod:`crib_analyze.play.rules_kernels` (two players) and
:mod:`crib_analyze.play.table_play_kernels` (any number).

Every deal shape of the rules is a :class:`Rules` value: a frozen record of who is dealt
what, who throws what, the hand that shows, the target and the rules of the play.
:data:`GAMES` holds the named presets (``crib-analyze games`` lists them);
:func:`game` looks one up, with options such as individual play or partners.

**Seats.** In every game the seats are numbered from the dealer's left, in the order
they lay and count: seat 0 leads the play and counts first, the dealer is the last seat.
With two players that is ``Seat.PONE = 0``, ``Seat.DEALER = 1``
(:mod:`crib_analyze.position`). :attr:`Rules.seat_names` names them.

>>> TARGET, SKUNK_LINES, HEELS_POINTS, MAX_COUNT
(121, (91, 61, 31), 2, 31)
>>> three = game("three")
>>> three.players, three.dealt, three.thrown, three.crib_from_deck, three.seat_names
(3, (5, 5, 5), (1, 1, 1), 1, ('left', 'middle', 'dealer'))
>>> game("four").teams, game("four", partners=False).teams
((0, 1, 0, 1), (0, 1, 2, 3))
>>> game("five-card").target, game("five-card").hand_size, game("five-card").play_once
(61, 3, True)
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from crib_analyze.constants import (  # the numbers of the rules, read by the kernels too
    BACK_TEN_POINTS,
    CARDS_DEALT,
    CARDS_KEPT,
    CRIB_SIZE,
    FIVE_RANK,
    HEELS_POINTS,
    JACK_RANK,
    MAX_COUNT,
    NOBS_POINTS,
    SKUNK_LINES,
    TARGET,
    ZERO_PENALTY_POINTS,
)
from crib_analyze.errors import UsageError
from crib_analyze.settings import JOKERS, PENALTIES, Penalty

__all__ = [
    "BACK_TEN_POINTS", "CARDS_DEALT", "CARDS_KEPT", "CRIB_SIZE", "FIVE_RANK", "HEELS_POINTS",
    "JACK_RANK", "MAX_COUNT", "NOBS_POINTS", "SKUNK_LINES", "TARGET", "ZERO_PENALTY_POINTS",
]  # fmt: skip

MIN_PLAYERS, MAX_PLAYERS = 2, 5
# three players' match points: the winner takes 2, or 3 when a loser is short of the
# skunk line the moment the game is won; 1 for second place in the continuation game
WIN_POINTS, SKUNK_POINTS, SECOND_POINTS = 2, 3, 1


def skunk_lines(target: int = TARGET) -> tuple[int, ...]:
    """The lines a game's loser must reach not to be skunked, double and triple skunked:
    three quarters, half and a quarter of the target, rounded up, as the rules give
    them (the lurch of the British convention is the half line: 61 of 121, 31 of 61).

    >>> skunk_lines(), skunk_lines(61)
    ((91, 61, 31), (46, 31, 16))
    """
    if target < 4:
        raise UsageError(f"a game is to 4 points or more, got {target}")
    return tuple(-(-target * quarters // 4) for quarters in (3, 2, 1))


_SEAT_NAMES = {
    2: ("pone", "dealer"),
    3: ("left", "middle", "dealer"),
    4: ("left", "across", "right", "dealer"),
    5: ("left", "second", "third", "right", "dealer"),
}


@dataclass(frozen=True)
class Rules:
    """One game of the rules: who is dealt what and throws what, the show, the target.

    Tuples run over the seats from the dealer's left, the dealer last. ``passed`` is
    what a seat passes to its partner before throwing (Canadian doubles); ``teams``
    gives each seat its side: seats of one side share their points (partners)."""

    name: str
    summary: str
    dealt: tuple[int, ...]
    thrown: tuple[int, ...]
    crib_from_deck: int = 0  # cards dealt straight from the pack to the crib
    hand_size: int = CARDS_KEPT  # cards a hand shows (with the starter)
    target: int = TARGET
    pone_start: int = 0  # points the first dealer's left-hand player starts with
    play_once: bool = False  # the play ends at the first go or 31 (the old five-card game)
    teams: tuple[int, ...] = ()  # each seat's side; empty: every seat for itself
    passed: tuple[int, ...] = ()  # cards each seat passes to its partner; empty: none
    # the variants (:func:`game` sets them; :attr:`variants` names those in play)
    lowball: bool = False  # loser's cribbage: the first to the target loses
    jokers: int = 0  # jokers in the pack: fully wild
    throw_fives: bool = False  # every five held goes to the crib
    penalty: Penalty = "none"  # a show of nothing: "zero" (opponent +1), "back-ten" (owner -10)

    def __post_init__(self) -> None:
        n = len(self.dealt)
        if self.penalty not in PENALTIES:
            raise UsageError(f"no penalty {self.penalty!r}; the penalties: {', '.join(PENALTIES)}")
        JOKERS.check(self.jokers)
        if not MIN_PLAYERS <= n <= MAX_PLAYERS:
            raise UsageError(f"a game has {MIN_PLAYERS} to {MAX_PLAYERS} players, not {n}")
        teams = self.teams or tuple(range(n))
        passed = self.passed or (0,) * n
        object.__setattr__(self, "teams", teams)
        object.__setattr__(self, "passed", passed)
        if len(self.thrown) != n or len(teams) != n or len(passed) != n:
            raise UsageError(f"{self.name}: give each of the {n} seats its cards")
        if sum(self.thrown) + self.crib_from_deck != CRIB_SIZE:
            raise UsageError(f"{self.name}: the crib must get {CRIB_SIZE} cards")
        received = [0] * n
        for seat, k in enumerate(passed):
            if k:
                received[self.partner(seat)] += k
        for seat in range(n):
            held = self.dealt[seat] - passed[seat] + received[seat] - self.thrown[seat]
            if held != self.hand_size:
                raise UsageError(f"{self.name}: seat {seat} would hold {held} cards")
        if sum(self.dealt) + self.crib_from_deck + 1 > 52:
            raise UsageError(f"{self.name}: more cards than the pack holds")
        sides = len(set(teams))
        if self.penalty == "zero" and sides != 2:
            raise UsageError(
                f"the zero penalty gives the point to the opponent: {self.name} has {sides} "
                "sides, and the rules do not say which scores it"
            )

    @property
    def skunk_lines(self) -> tuple[int, ...]:
        """The skunk, double and triple skunk lines of this game's target
        (:func:`skunk_lines`).

        >>> game("five-card").skunk_lines
        (46, 31, 16)
        """
        return skunk_lines(self.target)

    @property
    def players(self) -> int:
        return len(self.dealt)

    @property
    def dealer(self) -> int:
        """The dealer's seat: the last."""
        return len(self.dealt) - 1

    @property
    def seat_names(self) -> tuple[str, ...]:
        return _SEAT_NAMES[self.players]

    @property
    def partners(self) -> bool:
        """True if some seats share a side."""
        return len(set(self.teams)) < self.players

    @property
    def heads_up(self) -> bool:
        """True for two or three players each for themselves: where the play solver
        gains over the lookahead and answers in time (benchmarks/README.md).

        >>> game("three").heads_up, game("four").heads_up
        (True, False)
        """
        return self.players <= 3 and not self.partners

    @property
    def play_solved(self) -> bool:
        """True where play advice lays by the solver unless told: two or three players
        each for themselves (:attr:`heads_up`), and five (once the other seats hold
        ``constants.SOLVER_MOST_HIDDEN`` cards or fewer), where it gains in whole games;
        not partnerships (no gain), nor four each for themselves (not measured).

        >>> [game(n).play_solved for n in ("three", "four", "five")]
        [True, False, True]
        """
        return self.heads_up or (self.players == 5 and not self.partners)

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        """The seats of each side in a deal, sides in order of their first seat.

        >>> game("four").sides
        ((0, 2), (1, 3))
        """
        groups: dict[int, list[int]] = {}
        for seat, team in enumerate(self.teams):
            groups.setdefault(team, []).append(seat)
        return tuple(tuple(seats) for seats in groups.values())

    def partner(self, seat: int) -> int:
        """The other seat of ``seat``'s side (a one-line error if it has none or two)."""
        mates = [s for s in range(self.players) if s != seat and self.teams[s] == self.teams[seat]]
        if len(mates) != 1:
            raise UsageError(f"{self.name}: seat {seat} has no single partner")
        return mates[0]

    def seat(self, name: str | int) -> int:
        """The seat of a name (``"dealer"``, ``"left"``, ...) or number, checked."""
        if isinstance(name, int) and not isinstance(name, bool):
            if 0 <= name < self.players:
                return name
        elif name in self.seat_names:
            return self.seat_names.index(name)
        choices = ", ".join(self.seat_names)
        raise UsageError(f"{self.name} has no seat {name!r}; its seats: {choices}")

    @property
    def is_standard(self) -> bool:
        """True for the two-player six-card game to 121 every engine plays, no variant."""
        return self == STANDARD

    @property
    def variants(self) -> tuple[str, ...]:
        """The variants in play, as their options name them (``("lowball", "jokers 1")``).

        >>> game("standard", lowball=True, penalty="zero").variants
        ('lowball', 'penalty zero')
        """
        named = (
            ("lowball", self.lowball),
            (f"jokers {self.jokers}", self.jokers),
            ("throw fives", self.throw_fives),
            (f"penalty {self.penalty}", self.penalty != "none"),
        )
        return tuple(name for name, on in named if on)

    @property
    def variant_rules(self) -> tuple[str, ...]:
        """What each variant in play changes, in words, one line each (the words every
        front end shows).

        >>> game("standard", lowball=True, jokers=1).variant_rules[0]
        'lowball: the fewest points is best; the first to 121 loses'
        """
        pack = f"{52 + self.jokers}-card pack"
        cost = "the opponent scores 1" if self.penalty == "zero" else "it costs its owner 10"
        said = (
            (f"lowball: the fewest points is best; the first to {self.target} loses",
             self.lowball),
            (f"jokers: {self.jokers} in a {pack}; each counts at its best, in the hand, cut or "
             "in the crib; heels for a jack or joker cut", self.jokers),
            ("throw fives: every five a player holds goes to the crib", self.throw_fives),
            (f"{self.penalty} penalty: a hand or crib of nothing and {cost}",
             self.penalty != "none"),
        )  # fmt: skip
        return tuple(words for words, on in said if on)

    @property
    def plain(self) -> Rules:
        """The same deal shape with no variant."""
        return replace(self, lowball=False, jokers=0, throw_fives=False, penalty="none")

    def refuse_variants(self, where: str, honoured: tuple[str, ...] = ()) -> None:
        """A one-line usage error for the first variant in play that ``where`` does not
        honour (``honoured`` names those it does, by their first word)."""
        for name in self.variants:
            if name.split()[0] not in honoured:
                raise UsageError(f"{where} does not play the variant {name} yet")


STANDARD = Rules(
    "standard",
    "2 players, 6 cards each, each throws 2; to 121",
    dealt=(6, 6),
    thrown=(2, 2),
)

GAMES: dict[str, Rules] = {
    r.name: r
    for r in (
        STANDARD,
        Rules(
            "five-dealt",
            "2 players, 5 each + 2 from the pack to the crib; throw 1",
            dealt=(5, 5),
            thrown=(1, 1),
            crib_from_deck=2,
        ),
        Rules(
            "five-card",
            "old game: 5 each, throw 2, show 3; to 61, pone +3, one 31",
            dealt=(5, 5),
            thrown=(2, 2),
            hand_size=3,
            target=61,
            pone_start=3,
            play_once=True,
        ),
        Rules(
            "three",
            "3 players, 5 each + 1 from the pack to the crib; throw 1",
            dealt=(5, 5, 5),
            thrown=(1, 1, 1),
            crib_from_deck=1,
        ),
        Rules(
            "three-dealer-six",
            "3 players, dealer 6 and throws 2, others 5 and throw 1",
            dealt=(5, 5, 6),
            thrown=(1, 1, 2),
        ),
        Rules(
            "four",
            "4 players, partners across, 5 each, throw 1",
            dealt=(5, 5, 5, 5),
            thrown=(1, 1, 1, 1),
            teams=(0, 1, 0, 1),
        ),
        Rules(
            "five",
            "5 players, 5 each (dealer 4); the others throw 1",
            dealt=(5, 5, 5, 5, 4),
            thrown=(1, 1, 1, 1, 0),
        ),
        Rules(
            "canadian-doubles",
            "partners; dealer and left get 10, keep 4, pass 4, throw 2",
            dealt=(10, 0, 0, 10),
            thrown=(2, 0, 0, 2),
            teams=(0, 1, 0, 1),
            passed=(4, 0, 0, 4),
        ),
    )
}


def game(
    name: str = "standard",
    partners: bool | None = None,
    *,
    lowball: bool = False,
    jokers: int = 0,
    throw_fives: bool = False,
    penalty: Penalty = "none",
) -> Rules:
    """The named game of :data:`GAMES`; ``partners`` False plays a partnership game
    every seat for itself (True is only for games with partners). The keywords play
    the variants: ``lowball`` (the first to the target loses), ``jokers`` (0 to 2 in
    the pack), ``throw_fives`` and ``penalty`` ("zero" or "back-ten").

    >>> game("nine")
    Traceback (most recent call last):
    ...
    crib_analyze.errors.UsageError: no game 'nine'; the games: standard, five-dealt, \
five-card, three, three-dealer-six, four, five, canadian-doubles
    """
    if name not in GAMES:
        raise UsageError(f"no game {name!r}; the games: {', '.join(GAMES)}")
    rules = GAMES[name]
    if lowball or jokers or throw_fives or penalty != "none":
        rules = replace(
            rules, lowball=lowball, jokers=jokers, throw_fives=throw_fives, penalty=penalty
        )
    if partners is None or partners == rules.partners:
        return rules
    if partners:
        raise UsageError(f"{name} has no partnership form")
    if rules.passed != (0,) * rules.players:
        raise UsageError(f"{name} is a partnership game: its players pass cards to partners")
    return replace(rules, name=f"{name} (individual)", teams=tuple(range(rules.players)))
