"""The public API of the rulebook: the games the rules describe, each deal shape as a
:class:`Rules` value, and the list of them.

>>> frame = games()
>>> list(frame.game[:3])
['standard', 'five-dealt', 'five-card']
>>> row = frame.set_index("game").loc["three"]
>>> int(row.players), row.dealt, row.thrown, int(row.from_pack)
(3, '5 5 5', '1 1 1', 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from crib_analyze.results import Rows
from crib_analyze.rules import GAMES, Rules, game

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["Rules", "game", "games", "games_rows"]


def games() -> pd.DataFrame:
    """One row per named game: its seats (from the dealer's left, the dealer last), the
    cards each is dealt and throws, the cards dealt from the pack to the crib, the hand
    that shows, the target, whether it is played in partnerships, and a line saying it."""
    from crib_analyze.frames import rows_frame

    return rows_frame(games_rows())


def games_rows() -> Rows:
    """:func:`games` without pandas (:class:`~crib_analyze.results.Rows`).

    >>> rows = games_rows()
    >>> rows["game"][0], int(rows["players"][0])
    ('standard', 2)
    """

    def spaced(values: tuple[int, ...]) -> str:
        return " ".join(str(v) for v in values)

    return Rows.of_records(
        [
            {
                "game": r.name,
                "players": r.players,
                "seats": spaced_names(r),
                "dealt": spaced(r.dealt),
                "thrown": spaced(r.thrown),
                "from_pack": r.crib_from_deck,
                "hand": r.hand_size,
                "target": r.target,
                "partners": r.partners,
                "summary": r.summary,
            }
            for r in GAMES.values()
        ]
    )


def spaced_names(rules: Rules) -> str:
    return " ".join(rules.seat_names)
