"""Scoring a show: its points (validated wrappers around the kernels) and the count
the way a player announces it, every scoring combination in order.

:func:`score_hand` and :func:`score_breakdown` check their cards, then call
:mod:`crib_analyze.scoring.show_kernels`.

Fifteens first (each set of cards summing to 15, smallest sets first), then each pair,
each run (a double run is shown as its two runs), the flush, nobs; with the running
total a player calls out ("fifteen two, fifteen four, and a pair is six"). The count is pure
Python on card ids, no numba: its totals equal :func:`score_breakdown` (tested over
every rank multiset), and the command line can count without compiling.

>>> score_hand("5H 5C 5S JD", "5D")
29
>>> score_breakdown("4H 4C 5S 5D", "6C").total
24
>>> show = count_show("5H 5C 5S JD", "5D")
>>> show.total, [c.announce for c in show.combinations][:2], show.combinations[-1].announce
(29, ['fifteen two', 'fifteen four'], 'and nobs is twenty-nine')
>>> count_show("2H 2S 3D 4C", "KD").breakdown()["runs"]  # a double run: two runs of three
6
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from itertools import combinations, pairwise

from crib_analyze.cards import (
    JACK,
    CardLike,
    CardsLike,
    format_card,
    parse_cards,
    parse_show,
    rank_of,
    suit_of,
    value_of,
)
from crib_analyze.errors import CardError
from crib_analyze.rules import HEELS_POINTS

KINDS = ("fifteen", "pair", "run", "flush", "nobs")

_ONES = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]


def number_words(n: int) -> str:
    """0..99 in words, as a player calls a count: ``number_words(21) == 'twenty-one'``."""
    if n < 20:
        return _ONES[n]
    tens = ("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")
    word = tens[n // 10 - 2]
    return word if n % 10 == 0 else f"{word}-{_ONES[n % 10]}"


@dataclass(frozen=True)
class Combination:
    """One scoring combination: its kind, its cards (ids), its points, the running total."""

    kind: str  # fifteen, pair, run, flush, nobs
    cards: tuple[int, ...]
    points: int
    running: int

    @property
    def announce(self) -> str:
        """What a player says: 'fifteen four', 'and a pair is six', 'a run of three is nine'."""
        total = number_words(self.running)
        if self.kind == "fifteen":
            return f"fifteen {total}"
        what = {
            "pair": "a pair",
            "run": f"a run of {number_words(len(self.cards))}",
            "flush": f"a flush of {number_words(len(self.cards))}",
            "nobs": "nobs",
        }[self.kind]
        first = self.running == self.points
        return f"{'' if first else 'and '}{what} is {total}"

    def as_dict(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cards": [format_card(c) for c in self.cards],
            "points": self.points,
            "running": self.running,
        }


@dataclass(frozen=True)
class Show:
    """A counted show: four cards and the starter, under hand or crib rules. With jokers,
    ``wild`` says which card each joker was counted as (its place 0-4 among the five, the
    starter last, and the card) and ``starter_is_joker`` whether the cut was one."""

    hand: tuple[int, ...]
    starter: int
    crib: bool
    combinations: tuple[Combination, ...]
    wild: tuple[tuple[int, int], ...] = ()
    starter_is_joker: bool = False

    @property
    def total(self) -> int:
        return self.combinations[-1].running if self.combinations else 0

    @property
    def heels(self) -> int:
        """Points a jack (or joker) starter gives the dealer at the cut (not part of this
        show)."""
        return HEELS_POINTS if self.starter_is_joker or rank_of(self.starter) == JACK else 0

    def calls(self) -> list[tuple[str, tuple[int, ...]]]:
        """The count as a player calls it: (words, cards) per call. The pairs of one rank
        are called together: three of a kind as a pair royal for six, four as a double
        pair royal for twelve (each pair stays its own combination in
        :attr:`combinations`).

        >>> [words for words, _ in count_show("5H 5C 5S 5D", "JD").calls()][-1]
        'and a double pair royal for twelve is twenty-eight'
        """
        out: list[tuple[str, tuple[int, ...]]] = []
        combos = list(self.combinations)
        i = 0
        while i < len(combos):
            c = combos[i]
            j = i + 1
            if c.kind == "pair":
                while (
                    j < len(combos)
                    and combos[j].kind == "pair"
                    and (rank_of(combos[j].cards[0]) == rank_of(c.cards[0]))
                ):
                    j += 1
            if j - i == 1:
                out.append((c.announce, c.cards))
            else:
                group = combos[i:j]
                cards = tuple(dict.fromkeys(x for g in group for x in g.cards))
                name = "a pair royal for six" if j - i == 3 else "a double pair royal for twelve"
                first = group[-1].running == sum(g.points for g in group)
                said = f"{'' if first else 'and '}{name} is {number_words(group[-1].running)}"
                out.append((said, cards))
            i = j
        return out

    def breakdown(self) -> dict[str, int]:
        """Points per category, named as in :class:`Breakdown`."""
        names = {"fifteen": "fifteens", "pair": "pairs", "run": "runs"}
        out = dict.fromkeys(("fifteens", "pairs", "runs", "flush", "nobs"), 0)
        for c in self.combinations:
            out[names.get(c.kind, c.kind)] += c.points
        return out | {"total": self.total}


def parse_show_cards(
    cards: CardsLike, starter: CardLike | None = None, size: int = 4
) -> tuple[list[int], int]:
    """Four cards (``size``) and a starter: ``starter`` if given, else the last of five."""
    parsed = parse_cards(cards)
    words = {3: "three", 4: "four"}.get(size, str(size))
    if starter is None:
        if len(parsed) != size + 1:
            raise CardError(
                f"expected {size + 1} cards ({words} and the starter last) or {size} with a "
                f"starter, got {len(parsed)}"
            )
        return parsed[:size], parsed[size]
    if len(parsed) != size:
        raise CardError(f"expected {size} cards with a separate starter, got {len(parsed)}")
    return parse_show(parsed, starter, size)


def count_show(
    cards: CardsLike, starter: CardLike | None = None, crib: bool = False, size: int = 4
) -> Show:
    """Every scoring combination of a show, in the order a player announces them.

    ``cards`` is four cards and ``starter`` the cut, or five cards with the starter last;
    ``size`` 3 for a hand of five-card cribbage (its flush is three cards, four with the
    starter). A crib always shows four cards.

    >>> count_show("2H 7H 9H", "KH", size=3).breakdown()["flush"]
    4
    """
    if crib and size != 4:
        raise CardError("a crib shows four cards and the starter")
    hand, cut = parse_show_cards(cards, starter, size)
    return show_of(hand, cut, crib)


def show_of(hand: list[int], cut: int, crib: bool = False) -> Show:
    """The counted show of card ids ``hand`` and ``cut``, already checked (a card may
    repeat: a joker may be counted as a card already in play)."""
    five = [*hand, cut]
    found: list[tuple[str, tuple[int, ...], int]] = []
    for n in range(2, len(five) + 1):
        for combo in combinations(five, n):
            if sum(value_of(c) for c in combo) == 15:
                found.append(("fifteen", combo, 2))
    pairs = [(a, b) for a, b in combinations(five, 2) if rank_of(a) == rank_of(b)]
    for a, b in sorted(pairs, key=lambda p: rank_of(p[0])):  # a rank's pairs called together
        found.append(("pair", (a, b), 2))
    for n in range(len(five), 2, -1):  # only the longest runs count
        runs = [c for c in combinations(five, n) if _is_run(c)]
        if runs:
            found += [("run", tuple(sorted(c, key=rank_of)), n) for c in runs]
            break
    if len({suit_of(c) for c in hand}) == 1:
        if suit_of(cut) == suit_of(hand[0]):
            found.append(("flush", tuple(five), len(five)))
        elif not crib:
            found.append(("flush", tuple(hand), len(hand)))
    for c in hand:  # once a hand, however many jacks a joker made of the cut's suit
        if rank_of(c) == JACK and suit_of(c) == suit_of(cut):
            found.append(("nobs", (c,), 1))
            break
    running = 0
    out = []
    for kind, combo, points in found:
        running += points
        out.append(Combination(kind, combo, points, running))
    return Show(tuple(hand), cut, crib, tuple(out))


def _is_run(cards: tuple[int, ...]) -> bool:
    ranks = sorted(rank_of(c) for c in cards)
    return all(b == a + 1 for a, b in pairwise(ranks))


# --- points (the kernels, validated) -------------------------------------------------


@dataclass(frozen=True)
class Breakdown:
    """Points of one show by category."""

    fifteens: int
    pairs: int
    runs: int
    flush: int
    nobs: int

    @property
    def total(self) -> int:
        return self.fifteens + self.pairs + self.runs + self.flush + self.nobs

    def as_dict(self) -> dict[str, int]:
        """Categories and total, for JSON output."""
        return asdict(self) | {"total": self.total}


def score_hand(hand4: CardsLike, starter: CardLike, crib: bool = False) -> int:
    """Total points of four cards plus the starter (hand rules, or crib rules if ``crib``)."""
    from crib_analyze.scoring import show_kernels  # numba: only when scoring this way

    hand, card = parse_show(hand4, starter)
    return int(show_kernels.score_show(hand[0], hand[1], hand[2], hand[3], card, bool(crib)))


def score_breakdown(hand4: CardsLike, starter: CardLike, crib: bool = False) -> Breakdown:
    """Points by category (fifteens, pairs, runs, flush, nobs) and total."""
    from crib_analyze.scoring import show_kernels

    hand, card = parse_show(hand4, starter)
    parts = show_kernels.score_components(hand[0], hand[1], hand[2], hand[3], card, bool(crib))
    return Breakdown(*(int(p) for p in parts))
