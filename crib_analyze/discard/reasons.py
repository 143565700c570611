"""Why one throw beats another, in words, from the ranking's own parts: which part
decides (the hand, the crib, the pegging, a penalty) and by how much, the combinations
the kept cards already hold before the cut, and what the throw gives the crib against
the average throw. Nothing here is canned advice: every number is a column of the
ranking (:mod:`crib_analyze.discard.ranking`), every name a combination of the cards.

>>> from crib_analyze.cards import parse_cards
>>> kept_combinations(parse_cards("5H 6S 4D 5C"))
(12, ['double run 4-5-5-6 (8)', 'two fifteens (4)'])
>>> kept_combinations(parse_cards("KH QD 9S 2C"))
(0, [])
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations

import numpy as np

from crib_analyze.cards import (
    JOKER_IDS,
    format_card,
    parse_cards,
    rank_name,
    rank_of,
    suit_of,
    value_of,
)

_COUNT = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


def _ranks_text(ranks: Sequence[int]) -> str:
    return "-".join(rank_name(r) for r in sorted(ranks))


def kept_combinations(cards: Sequence[int]) -> tuple[int, list[str]]:
    """(points, their names) the kept cards hold before the cut: runs (a double run
    with its pair), pairs, fifteens and a four-card flush."""
    ranks = [rank_of(c) for c in cards]
    named: list[str] = []
    total = 0
    counts = Counter(ranks)
    runs: list[tuple[int, ...]] = []
    for n in range(len(cards), 2, -1):  # the longest runs only
        runs = [
            combo
            for combo in combinations(ranks, n)
            if sorted(combo) == list(range(min(combo), min(combo) + n))
        ]
        if runs:
            break
    paired_in_run: set[int] = set()
    if runs:
        length, k = len(runs[0]), len(runs)
        span = sorted({r for run in runs for r in run})
        inside = [r for r in ranks if r in span]
        if k == 2 and length == 3:  # one pair inside a run of three
            pair = next(r for r in span if counts[r] == 2)
            paired_in_run.add(pair)
            named.append(f"double run {_ranks_text(inside)} (8)")
            total += 8
        else:
            word = {1: "run", 3: "triple run", 4: "double double run"}.get(k, f"{k} runs")
            named.append(f"{word} {_ranks_text(inside)} ({k * length})")
            total += k * length
            if k > 1:  # the pairs inside the run are counted with it
                extra = sum(counts[r] * (counts[r] - 1) for r in span if counts[r] > 1)
                named[-1] = f"{word} {_ranks_text(inside)} ({k * length + extra})"
                total += extra
                paired_in_run |= {r for r in span if counts[r] > 1}
    for r, m in sorted(counts.items()):
        if m > 1 and r not in paired_in_run:
            points = m * (m - 1)
            what = {
                2: f"a pair of {rank_name(r)}s",
                3: f"three {rank_name(r)}s",
                4: f"four {rank_name(r)}s",
            }
            named.append(f"{what[m]} ({points})")
            total += points
    fifteens = sum(
        1
        for n in range(2, len(cards) + 1)
        for combo in combinations(cards, n)
        if sum(value_of(c) for c in combo) == 15
    )
    if fifteens:
        many = "fifteen" if fifteens == 1 else "fifteens"
        named.append(f"{_COUNT[fifteens]} {many} ({2 * fifteens})")
        total += 2 * fifteens
    if len(cards) == 4 and len({suit_of(c) for c in cards}) == 1:
        named.append("a four-card flush (4)")
        total += 4
    return total, named


def starters_text(cards: Sequence[int], unseen: Sequence[int]) -> str:
    """Starters named by rank: "any 5" when every unseen card of the rank is among
    ``cards``, else the cards ("JS JH"); a joker (the variant) is "JK", last.

    >>> starters_text([16, 17, 18, 19, 40], [16, 17, 18, 19, 40, 41])
    'any 5, JC'
    >>> starters_text([40, 52], [40, 52])
    'any J, JK'
    """
    chosen = set(cards)
    by_rank: dict[int, list[int]] = {}
    for c in unseen:
        if c not in JOKER_IDS:
            by_rank.setdefault(rank_of(c), []).append(c)
    out = []
    for r in sorted(by_rank):
        of_rank = by_rank[r]
        picked = [c for c in of_rank if c in chosen]
        if not picked:
            continue
        if len(picked) == len(of_rank):
            out.append(f"any {rank_name(r)}")
        else:
            out.append(" ".join(format_card(c) for c in picked))
    if chosen & set(JOKER_IDS):  # a joker is any card: one joker stands for both
        out.append("JK")
    return ", ".join(out)


def throw_starters(
    scores: np.ndarray, unseen: Sequence[int], legal: np.ndarray, need: int | None, aim: int
) -> list[dict[str, str]]:
    """For each throw (rows of ``scores``, (T, starters), the kept hand's points with
    each of ``unseen``): the starters with which its hand is the best of the legal
    throws' (the fewest in lowball, ``aim`` -1), and with ``need`` those that reach it,
    each as :func:`starters_text` names them (or "all but ...", "none", "any")."""
    aimed = aim * np.asarray(scores)
    best = aimed >= aimed[legal].max(axis=0)
    reach = None if need is None else np.asarray(scores) >= need
    words = _StarterWords(unseen)
    out = []
    for t in range(len(best)):
        entry = {"best": words.most(best[t])}
        if reach is not None:
            entry["need"] = words.most(reach[t])
        out.append(entry)
    return out


class _StarterWords:
    """The starters picked by a mask over ``unseen`` in words: :func:`starters_text`, or
    "all but ..." when that is shorter, "none", "any"; the rank groups and names worked
    out once for every mask."""

    def __init__(self, unseen: Sequence[int]) -> None:
        self.unseen = list(unseen)
        by_rank: dict[int, list[int]] = {}
        self.jokers = []
        for i, c in enumerate(self.unseen):
            if c in JOKER_IDS:
                self.jokers.append(i)
            else:
                by_rank.setdefault(rank_of(c), []).append(i)
        self.groups = [
            (f"any {rank_name(r)}", by_rank[r], [format_card(self.unseen[i]) for i in by_rank[r]])
            for r in sorted(by_rank)
        ]

    def text(self, mask: np.ndarray) -> str:
        out = []
        for whole, at, names in self.groups:
            picked = [n for i, n in zip(at, names, strict=True) if mask[i]]
            if not picked:
                continue
            out.append(whole if len(picked) == len(at) else " ".join(picked))
        if any(mask[i] for i in self.jokers):  # a joker is any card: one stands for both
            out.append("JK")
        return ", ".join(out)

    def most(self, mask: np.ndarray) -> str:
        n = int(mask.sum())
        if n == 0:
            return "none"
        if n == len(mask):
            return "any"
        if n > len(mask) - n:
            return "all but " + self.text(~mask)
        return self.text(mask)


def parts_of(columns: dict[str, np.ndarray], role: str) -> dict[str, np.ndarray]:
    """The parts of ``role``'s value, as they add to it, from a ranking's columns: the
    hand, the crib (yours added, the dealer's taken away), the pegging, a penalty."""
    parts = {"the hand": columns["hand_mean"]}
    if role == "dealer":
        parts["your crib"] = columns["dealer_crib_mean"]
    else:
        parts["their crib"] = -columns["pone_crib_mean"]
    if f"{role}_peg_own" in columns:
        parts["pegging"] = columns[f"{role}_peg_own"] - columns[f"{role}_peg_opp"]
    if f"{role}_penalty" in columns:
        parts["the penalty"] = columns[f"{role}_penalty"]
    return parts


def role_reasons(
    columns: dict[str, np.ndarray], role: str, best: int, other: int, lowball: bool = False
) -> list[str]:
    """:func:`throw_reasons` for rows ``best`` and ``other`` of a ranking's columns."""
    crib = columns["dealer_crib_mean" if role == "dealer" else "pone_crib_mean"]
    discards, keeps = list(columns["discard"]), list(columns["keep"])
    return throw_reasons(role, parts_of(columns, role), discards, keeps, best, other, crib, lowball)


def throw_reasons(
    role: str,
    parts: dict[str, np.ndarray],
    discards: Sequence[str],
    keeps: Sequence[str],
    best: int,
    other: int,
    crib: np.ndarray,
    lowball: bool = False,
) -> list[str]:
    """Why throw ``best`` is worth more to ``role`` than ``other``: each part of its
    value (``parts``, name -> the part as it adds to the value, e.g. "the hand", "your
    crib" or "their crib" already signed), the part that decides, the kept cards'
    combinations, and the crib's mean (``crib``, unsigned) against the average throw.
    In ``lowball`` the part that decides is the one that saves most points."""
    deltas = {name: float(v[best] - v[other]) for name, v in parts.items()}
    moving = {n: d for n, d in deltas.items() if abs(d) >= 0.005}
    lines = []
    if moving:
        decides = max(moving, key=lambda n: -moving[n] if lowball else moving[n])
        listed = ", ".join(f"{n} {d:+.2f}" for n, d in moving.items())
        lines.append(f"why {discards[best]} over {discards[other]}: {decides} decides ({listed})")
    kept = keeps[best]
    if "JK" in kept.split():  # a joker is counted with the starter, at its best
        lines.append(f"the kept {kept} hold a joker: it counts at its best with each starter")
    else:
        points, named = kept_combinations(parse_cards(kept))
        held = (
            f"{points} before the cut: {', '.join(named)}"
            if named
            else ("nothing before the cut: the starter must help")
        )
        lines.append(f"the kept {kept} hold {held}")
    whose = "your crib" if role == "dealer" else "the dealer's crib"
    average = float(np.mean(crib))
    lines.append(
        f"{whose} gets {discards[best]}: {crib[best]:.2f} expected, "
        f"{crib[best] - average:+.2f} against the average throw"
    )
    return lines
