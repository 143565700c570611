"""The solver's shipped leads and replies are checked for playability on load: a reply
is a rank its keep holds, and -1 just where no card of the keep can be laid as a reply
because the keep, the starter and the lead would show more than four of a rank."""

from __future__ import annotations

import numpy as np

from crib_analyze.artifacts.pegging_table import kept_multisets
from crib_analyze.artifacts.solver_leads import packaged_solver_leads, replies_are_playable


def naive_over(starter: int, lead: int, keep: tuple[int, ...]) -> bool:
    """From the rules text: a pack holds four cards of each rank."""
    shown = [*list(keep), starter, lead]
    return any(shown.count(r) > 4 for r in range(13))


def test_the_shipped_replies_are_playable() -> None:
    assert replies_are_playable(packaged_solver_leads().replies)


def test_no_reply_is_where_more_than_four_of_a_rank_would_show() -> None:
    replies = packaged_solver_leads().replies
    keeps = kept_multisets()
    rng = np.random.default_rng(34)
    cells = list(zip(*np.nonzero(replies == -1), strict=False)) + [  # every -1, and random others
        tuple(int(x) for x in c) for c in rng.integers(0, [13, 13, len(keeps)], (300, 3))
    ]
    for starter, lead, k in cells:
        keep = tuple(int(r) for r in keeps[k])
        over = naive_over(int(starter), int(lead), keep)
        assert (replies[starter, lead, k] == -1) == over, (starter, lead, keep)


def test_a_reply_moved_or_dropped_is_refused() -> None:
    replies = packaged_solver_leads().replies
    starter, lead, k = (int(x) for x in np.argwhere(replies == -1)[0])
    moved = replies.copy()
    moved[starter, lead, k] = kept_multisets()[k][0]  # a reply where none can be laid
    assert not replies_are_playable(moved)
    dropped = replies.copy()
    dropped[1, 2, 0] = -1  # keep A A A A, a two and a three shown: an ace is laid
    assert not replies_are_playable(dropped)
    foreign = replies.copy()
    foreign[1, 2, 0] = 5  # a six the keep does not hold
    assert not replies_are_playable(foreign)
