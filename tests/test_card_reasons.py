"""Why a card in the play (crib_analyze.play.card_reasons), against the rules of the
play written out (tests/naive.py): what the card scores now, the count it leaves, the
ranks that would score for the reply and the chance the opponent holds one.

Mutations tried (each fails a test here): the reply scored at the count before the
card; the chance taken over one card. (A reply "worth 1" cannot arise: a card's own
points are 2 or more, the go and the last card are scored apart.)
"""

from __future__ import annotations

import random
import re
from math import comb

from click.testing import CliRunner

from crib_analyze.cli import cli
from crib_analyze.play.card_reasons import card_reasons
from tests.naive import naive_lay_points, rank, value

NAMES = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]


def test_the_reasons_are_the_rules_of_the_play() -> None:
    rng = random.Random(3)
    checked = 0
    for _ in range(150):
        cards = rng.sample(range(52), 7)
        laid, hand = cards[:3], cards[3:]
        count = sum(value(c) for c in laid)
        if count > 30:
            continue
        unseen = [c for c in range(52) if c not in cards]
        k = rng.randint(1, 4)
        ranks = [rank(c) for c in laid]
        said = card_reasons(hand, ranks, count, unseen, k)
        for card in hand:
            after = count + value(card)
            if after > 31:
                assert card not in said
                continue
            checked += 1
            text = said[card]
            now, why = naive_lay_points([*ranks, rank(card)], after)
            assert text.startswith("nothing now" if now == 0 else why[0].split()[0])
            assert (f"leaves {after}" in text) == (after < 31)
            want = []
            for r in range(13):
                left = sum(1 for c in unseen if rank(c) == r)
                v = min(r + 1, 10)
                if left and after < 31 and after + v <= 31:
                    pts, _ = naive_lay_points([*ranks, rank(card), r], after + v)
                    if pts >= 2:
                        held = 1 - comb(len(unseen) - left, k) / comb(len(unseen), k)
                        want.append((pts, held, r))
            want.sort(key=lambda t: (-t[0], -t[1], t[2]))
            got = re.findall(r"\ban? (\w+) \([^)]*?they hold one (\d+)%\)", text)
            assert [n for n, _ in got] == [NAMES[r] for _, _, r in want[:3]], (text, want)
            assert [int(p) for _, p in got] == [round(100 * h) for _, h, _ in want[:3]]
    assert checked > 100


def test_play_says_why() -> None:
    out = CliRunner().invoke(
        cli, ["play", "7C", "8D", "2C", "--pone", "-s", "5H", "--played", "3D 10S", "--why"]
    )
    assert out.exit_code == 0, out.output
    assert "  2C: fifteen 2; leaves 15; invites a 2" in out.output
