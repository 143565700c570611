"""Plain-Python twins of the kernels, written for obviousness rather than speed.

Cards use the package's encoding (card = 4 * rank + suit, rank 0..12 = A..K,
suit 0..3 = C D H S) but nothing here imports the package's scoring code.
"""

from __future__ import annotations

from itertools import combinations

JACK = 10


def rank(card: int) -> int:
    return card // 4


def suit(card: int) -> int:
    return card % 4


def value(card: int) -> int:
    return min(rank(card) + 1, 10)


def naive_breakdown(hand4: list[int], starter: int, crib: bool = False) -> dict[str, int]:
    """Score four cards plus a starter, category by category."""
    cards = [*hand4, starter]
    fifteens = 0
    for size in range(2, 6):
        for combo in combinations(cards, size):
            if sum(value(c) for c in combo) == 15:
                fifteens += 2
    pairs = 0
    for a, b in combinations(cards, 2):
        if rank(a) == rank(b):
            pairs += 2
    runs = 0
    for size in (5, 4, 3):
        count = 0
        for combo in combinations(cards, size):
            ranks = sorted(rank(c) for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                count += 1
        if count:
            runs = size * count
            break
    flush = 0
    if len({suit(c) for c in hand4}) == 1:
        if suit(starter) == suit(hand4[0]):
            flush = 5
        elif not crib:
            flush = 4
    nobs = 1 if any(rank(c) == JACK and suit(c) == suit(starter) for c in hand4) else 0
    return {"fifteens": fifteens, "pairs": pairs, "runs": runs, "flush": flush, "nobs": nobs}


def naive_score(hand4: list[int], starter: int, crib: bool = False) -> int:
    return sum(naive_breakdown(hand4, starter, crib).values())


def discards_of(hand6: list[int]) -> list[tuple[list[int], list[int]]]:
    """(thrown, kept) for the 15 discards, thrown pairs in lexicographic position order."""
    out = []
    for i, j in combinations(range(6), 2):
        thrown = [hand6[i], hand6[j]]
        kept = [c for p, c in enumerate(hand6) if p not in (i, j)]
        out.append((thrown, kept))
    return out


def unseen(cards: list[int]) -> list[int]:
    return [c for c in range(52) if c not in cards]


def naive_hand_scores(hand6: list[int], kept: list[int]) -> list[int]:
    """Hand points of the kept four with every unseen starter, ascending card id."""
    return [naive_score(kept, s) for s in unseen(hand6)]
