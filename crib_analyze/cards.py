"""Cards: one integer encoding, parsing what people type, canonical formatting.

A card is an ``int`` in ``0..51``::

    card = 4 * rank + suit
    rank: 0..12 for A 2 3 4 5 6 7 8 9 T J Q K   (ace low)
    suit: 0..3  for C D H S                      (clubs, diamonds, hearts, spades)

so ``rank = card // 4`` and ``suit = card % 4``. The counting value of a card is
``min(rank + 1, 10)`` (A=1, face cards 10). Canonical text is rank then suit,
upper case, with ``T`` for ten: ``TH``, ``5C``, ``AS``.

>>> parse_cards("5H 6s, 10d J♣")
[18, 23, 37, 40]
>>> format_cards([18, 23, 37, 40])
'5H 6S TD JC'
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Iterator

from crib_analyze.constants import FIRST_JOKER
from crib_analyze.errors import CardError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
N_RANKS = 13
N_SUITS = 4
N_CARDS = 52
JACK = RANKS.index("J")

_RANK_TOKENS = {r: i for i, r in enumerate(RANKS)} | {"10": RANKS.index("T")}
_SUIT_TOKENS = {s: i for i, s in enumerate(SUITS)} | {
    "♣": 0,
    "♧": 0,
    "♦": 1,
    "♢": 1,
    "♥": 2,
    "♡": 2,
    "♠": 3,
    "♤": 3,
}
_VARIATION_SELECTORS = "\ufe0e\ufe0f"

CardLike = int | str
CardsLike = str | Iterable[CardLike]


def rank_of(card: int) -> int:
    """Rank index 0..12 (A..K)."""
    return card // N_SUITS


def suit_of(card: int) -> int:
    """Suit index 0..3 (C D H S)."""
    return card % N_SUITS


def value_of(card: int) -> int:
    """Counting value for fifteens: A=1, 2..10 face value, J Q K = 10."""
    return min(rank_of(card) + 1, 10)


def make_card(rank: int, suit: int) -> int:
    """Card id from rank index 0..12 and suit index 0..3."""
    return N_SUITS * rank + suit


#: the ids of the jokers of a 53- or 54-card pack (the jokers variant only)
JOKER_IDS = (FIRST_JOKER, FIRST_JOKER + 1)


def as_one_joker(cards: Iterable[int]) -> tuple[int, ...]:
    """The cards sorted, every joker as the first: two sets of cards that differ only in
    which of the two jokers they hold (the same card) give the same.

    >>> as_one_joker([53, 4]) == as_one_joker([52, 4])
    True
    """
    return tuple(sorted(min(int(c), FIRST_JOKER) for c in cards))


#: each card's text by id, the jokers' last (format_card reads it: the hot path of a ranking)
CARD_TEXT = tuple(r + s for r in RANKS for s in SUITS) + ("JK",) * len(JOKER_IDS)


def format_card(card: int) -> str:
    """Canonical text of one card, e.g. ``TH``.

    >>> format_card(0), format_card(51), format_card(52)
    ('AC', 'KS', 'JK')
    """
    if not 0 <= card < len(CARD_TEXT):  # (the jokers of a 53- or 54-card pack are in it)
        _check_id(card)  # out of range: one clear error
    return CARD_TEXT[card]


def rank_name(rank: int) -> str:
    """A rank (0 = ace .. 12 = king) in words' place, as players write it: ``10`` for ten.

    >>> rank_name(0), rank_name(9), rank_name(12)
    ('A', '10', 'K')
    """
    return "10" if RANKS[rank] == "T" else RANKS[rank]


def format_cards(cards: Iterable[int], sep: str = " ") -> str:
    """Canonical text of several cards joined by ``sep``."""
    return sep.join(format_card(c) for c in cards)


def parse_card(token: CardLike) -> int:
    """Parse one card: ``5H``, ``5h``, ``10H``, ``TH``, ``J♣``; or an int id 0..51.

    >>> parse_card("10h"), parse_card("TH"), parse_card("t♥")
    (38, 38, 38)
    >>> parse_card("1H")
    Traceback (most recent call last):
    ...
    crib_analyze.errors.CardError: unknown rank '1' in card '1H' (use A 2-9 T/10 J Q K)
    """
    if isinstance(token, bool):
        raise CardError(f"not a card: {token!r}")
    if isinstance(token, numbers.Integral):  # int or a numpy integer
        _check_id(int(token))
        return int(token)
    if not isinstance(token, str):
        raise CardError(f"not a card: {token!r}")
    text = token.strip()
    for vs in _VARIATION_SELECTORS:
        text = text.replace(vs, "")
    if text.upper() in _RANK_TOKENS:
        raise CardError(f"card {token!r} has no suit (write rank then suit, like {text}H)")
    if text.upper() in _SUIT_TOKENS:
        raise CardError(f"card {token!r} has no rank (write rank then suit, like 5{text})")
    if len(text) < 2:
        raise CardError(f"card too short: {token!r} (expected rank then suit, like 5H)")
    rank_text, suit_text = text[:-1].upper(), text[-1].upper()
    if rank_text not in _RANK_TOKENS:
        raise CardError(f"unknown rank {rank_text!r} in card {token!r} (use A 2-9 T/10 J Q K)")
    if suit_text not in _SUIT_TOKENS:
        raise CardError(f"unknown suit {text[-1]!r} in card {token!r} (use C D H S or ♣ ♦ ♥ ♠)")
    return make_card(_RANK_TOKENS[rank_text], _SUIT_TOKENS[suit_text])


def split_tokens(cards: CardsLike) -> list[CardLike]:
    """Split text on white space and commas; lists may mix ids and text fragments."""
    items: Iterable[CardLike] = [cards] if isinstance(cards, str) else cards
    tokens: list[CardLike] = []
    for item in items:
        if isinstance(item, str):
            tokens.extend(item.replace(",", " ").split())
        else:
            tokens.append(item)
    return tokens


def parse_cards(cards: CardsLike, count: int | None = None) -> list[int]:
    """Parse several cards from one string or a list of strings/ids.

    Raises :class:`CardError` for an unknown rank or suit, a duplicate card,
    or (when ``count`` is given) the wrong number of cards.

    >>> parse_cards(["5H", "5C"], count=2)
    [18, 16]
    >>> parse_cards("5H 5h")
    Traceback (most recent call last):
    ...
    crib_analyze.errors.CardError: duplicate card 5H ('5h')
    """
    if isinstance(cards, numbers.Integral):
        cards = [int(cards)]
    parsed: list[int] = []
    seen: dict[int, CardLike] = {}
    tokens = split_tokens(cards)
    for i, token in enumerate(tokens):
        try:
            card = parse_card(token)
        except CardError as e:
            after = tokens[i + 1] if i + 1 < len(tokens) else None
            if _is_rank(token) and isinstance(after, str) and after.upper() in _SUIT_TOKENS:
                raise CardError(
                    f"card {token!r} has no suit: {after!r} stands apart "
                    f"(write rank and suit together, like {token}{after})"
                ) from None
            raise e from None
        if card in seen:
            raise CardError(f"duplicate card {format_card(card)} ({token!r})")
        seen[card] = token
        parsed.append(card)
    if count is not None and len(parsed) != count:
        raise CardError(f"expected {count} cards, got {len(parsed)}")
    return parsed


def read_hand_lines(
    lines: Iterable[str], count: int = 6
) -> Iterator[tuple[int, list[int] | CardError]]:
    """(line number, parsed hand or the error) for each line of a hands file that is not
    blank or a ``#`` comment (text after ``#`` is a comment too).

    >>> list(read_hand_lines(["# mine", "5H 6S 4D JC QH 5C  # the example", "", "5H"]))[1]
    (4, CardError('expected 6 cards, got 1'))
    """
    for lineno, raw in enumerate(lines, start=1):
        text = raw.split("#", 1)[0].strip()
        if not text:
            continue
        try:
            yield lineno, parse_cards(text, count=count)
        except CardError as e:
            yield lineno, e


def parse_show(hand4: CardsLike, starter: CardLike, size: int = 4) -> tuple[list[int], int]:
    """Four cards (``size``: three in five-card cribbage) and a starter, checking count
    and distinctness.

    >>> parse_show("5H 5C 5S JD", "5D")
    ([18, 16, 19, 41], 17)
    """
    hand = parse_cards(hand4, count=size)
    try:
        card = parse_card(starter.strip() if isinstance(starter, str) else starter)
    except CardError as e:
        raise CardError(f"starter: {e}") from None
    if card in hand:
        words = {3: "three", 4: "four"}.get(size, str(size))
        raise CardError(f"starter {format_card(card)} is also one of the {words} cards")
    return hand, card


def _is_rank(token: CardLike) -> bool:
    return isinstance(token, str) and token.strip().upper() in _RANK_TOKENS


def _check_id(card: int) -> None:
    if not 0 <= card < N_CARDS:
        raise CardError(f"card id {card} out of range 0..51")


# --- suit relabelling -----------------------------------------------------------------


def relabel_suits(cards: Iterable[int], perm: tuple[int, int, int, int]) -> list[int]:
    """Apply a suit permutation (``perm[old_suit] = new_suit``) to every card."""
    return [make_card(rank_of(c), perm[suit_of(c)]) for c in cards]


def canonical_hand(cards: Iterable[int]) -> tuple[int, ...]:
    """The suit-canonical representative of a hand, up to relabelling suits.

    Rule: among all 24 relabellings of the suits, take the one whose sorted tuple of
    card ids is smallest. Hands that differ only by a suit relabelling (the same hand
    to the scorer) map to the same representative: the hand as it appears in the
    discard table (``crib-analyze table``), whose ``hand_id`` counts these classes.

    >>> canonical_hand(parse_cards("5H 6H")) == canonical_hand(parse_cards("5S 6S"))
    True
    >>> format_cards(canonical_hand(parse_cards("KS QH 5S 5D JC 2S")))
    '2C 5C 5D JH QS KC'
    """
    return canonical_form(cards)[0]


def canonical_form(cards: Iterable[int]) -> tuple[tuple[int, ...], tuple[int, int, int, int]]:
    """(canonical hand, the suit relabelling ``perm[old_suit] = new_suit`` that makes it)."""
    from itertools import permutations

    hand = list(cards)
    perms: list[tuple[int, int, int, int]] = list(permutations(range(N_SUITS)))  # type: ignore[arg-type]
    return min((tuple(sorted(relabel_suits(hand, perm))), perm) for perm in perms)
