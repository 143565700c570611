"""Why a card in the play, in words, from the rules of the play: what it scores now, the
count it leaves, and the replies it invites: each rank that would score for the next
player, with the chance that player holds one (every card you cannot see equally
likely).

>>> from crib_analyze.cards import parse_cards
>>> seven, eight, two = parse_cards("7C 8D 2C")
>>> reasons = card_reasons([seven, eight, two], [2, 9], 13, parse_cards("AH 2D 9S KH"), 1)
>>> reasons[two]
'fifteen 2; leaves 15; invites a 2 (pair 2; they hold one 25%)'
>>> reasons[eight].split("; invites ")[1].split(", ")  # doctest: +NORMALIZE_WHITESPACE
['a 9 (run of three for 3; they hold one 25%)', 'a K (31 for 2; they hold one 25%)']
"""

from __future__ import annotations

from collections.abc import Sequence
from math import comb

import numpy as np

from crib_analyze.cards import rank_name, rank_of, value_of
from crib_analyze.play.rules_kernels import lay_points
from crib_analyze.play.sequence import reason_words
from crib_analyze.rules import MAX_COUNT


def _score(ranks: list[int], count: int) -> tuple[int, list[str]]:
    seq = np.zeros(16, np.int64)
    seq[: len(ranks)] = ranks
    points, why = lay_points(seq, len(ranks), count)
    return int(points), reason_words(int(why))


def card_reasons(
    hand: Sequence[int],
    ranks: Sequence[int],
    count: int,
    unseen: Sequence[int],
    their_cards: int,
) -> dict[int, str]:
    """For each card of ``hand`` that fits after ``ranks`` (those laid since the count
    began, in order) at ``count``: what it scores now, the count it leaves, and up to
    three ranks that would score for the next player, most points first, with the
    chance that a player holding ``their_cards`` of the ``unseen`` cards holds one."""
    ranks = list(ranks)
    pool = list(unseen)
    out: dict[int, str] = {}
    for card in hand:
        after = count + value_of(card)
        if after > MAX_COUNT:
            continue
        now, words = _score([*ranks, rank_of(card)], after)
        parts = ["; ".join(words) if now else "nothing now"]
        parts.append(f"leaves {after}" if after < MAX_COUNT else "the count starts again")
        threats = []
        if after < MAX_COUNT:
            for r in range(13):
                v = min(r + 1, 10)
                left = sum(1 for c in pool if rank_of(c) == r)
                if not left or after + v > MAX_COUNT:
                    continue
                pts, why = _score([*ranks, rank_of(card), r], after + v)
                if pts >= 2:
                    n = len(pool)
                    k = min(their_cards, n)
                    holds = 1 - comb(n - left, k) / comb(n, k) if n else 0.0
                    threats.append((pts, holds, r, why))
        if threats:
            shown = sorted(threats, key=lambda t: (-t[0], -t[1], t[2]))[:3]
            parts.append(
                "invites "
                + ", ".join(
                    f"{'an' if r in (0, 7) else 'a'} {rank_name(r)} ({', '.join(why)}; they hold "
                    f"one {100 * holds:.0f}%)"
                    for _, holds, r, why in shown
                )
            )
        out[card] = "; ".join(parts)
    return out
