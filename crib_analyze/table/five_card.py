"""The tables of five-card hands: every suit-distinct five-card hand x each of its
throws, exact (the kept cards over every starter, the random crib over every
completion).

* **The old five-card game** (``five-card``): ten throws of two, the kept three shown,
  for the dealer and the pone.
* **The games where a seat is dealt five and throws one** (:data:`THROW_ONE_GAMES`:
  five-dealt, three, the others of three-dealer-six, four, the others of five): five
  throws of one, the kept four shown; the crib is the card thrown and four more the
  seat cannot see, whoever threw them (the random opponent), so one table serves them
  all. Its nets are the seat's when its side owns the crib (``owner_net``: hand +
  crib + heels; the dealer, and the dealer's partner in four) and when another does
  (``other_net``: hand - crib); the metadata names the game's seats of each.

134,459 hand classes (:mod:`crib_analyze.crib.five_card_kernels`), in one Parquet file
with its provenance in the metadata (game, version, rows, classes, weights, the
opponent model, when and how long) and a checksum of every column, which
:func:`~crib_analyze.table.jokers.verify_hands_table` (``crib-analyze table check``)
recomputes. Each takes a
minute or less, so it is computed whole rather than in resumable chunks; the file
appears only when complete.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from crib_analyze import interrupts
from crib_analyze.cards import CARD_TEXT
from crib_analyze.crib import five_card_kernels as fk
from crib_analyze.crib.hand_kernels import TIE_TOLERANCE, best_flags
from crib_analyze.crib.throw_fives_rule import FORBIDDEN, legal_throws_of
from crib_analyze.position import Seat
from crib_analyze.rules import Rules, game
from crib_analyze.settings import CALL_SECONDS, __version__
from crib_analyze.storage.atomic import atomic_open, check_output
from crib_analyze.table.chunks import META_KEY, column_checksum
from crib_analyze.table.class_numbers import KINDS, exact_numbers, kind_of

GAME = "five-card"
#: the games whose seats are dealt five and throw one: one table serves them all
THROW_ONE_GAMES = ("five-dealt", "three", "three-dealer-six", "four", "five")
TABLE_GAMES = (GAME, *THROW_ONE_GAMES)
FORMAT = 1  # both kinds
#: the crib's provenance in a table under throw fives
FIVES_CRIB = (
    "the seat's throw, the other seats' and the pack's cards and a starter, exact over "
    "every deal of the unseen cards, each other seat throwing at random among the throws "
    "the rule allows"
)
N_THROWS = 10
#: each card id's text (the jokers' too), for the text columns
CARD_WORDS = np.array(CARD_TEXT, dtype=object)


def card_words(text: np.ndarray, rows: np.ndarray) -> pa.Array:
    """Each row of card ids (N, k) as its cards' text joined by spaces, dictionary
    encoded (``text``: every card id's text)."""
    words = text[rows[:, 0]]
    for j in range(1, rows.shape[1]):
        words = words + " " + text[rows[:, j]]
    return pa.array(words).dictionary_encode()


@cache
def five_card_classes() -> tuple[np.ndarray, np.ndarray]:
    """(cards (134,459, 5), weight): every class, once a process (a few seconds)."""
    parts = [
        fk.five_card_classes(fk.PERMS, a, a + k) for a, k in interrupts.paced(52, CALL_SECONDS)
    ]  # by the least card: Ctrl-C heard between calls
    cards = np.concatenate([p[0] for p in parts])
    weight = np.concatenate([p[1] for p in parts])
    cards.setflags(write=False)
    weight.setflags(write=False)
    return cards, weight


def best_of(value: np.ndarray, lowball: bool, legal: np.ndarray | None = None) -> np.ndarray:
    """Each hand's best throws' flags, raveled: the most points, or under lowball the
    fewest; among the ``legal`` throws if given (throw fives)."""
    aimed = -value if lowball else value
    if legal is not None:
        aimed = np.where(legal, aimed, FORBIDDEN)
    return best_flags(aimed, TIE_TOLERANCE).ravel()


def fives_weights(rules: Rules) -> np.ndarray | None:
    """The chance of each completion of the crib of the seat a table of ``rules`` is for
    (:func:`~crib_analyze.crib.throw_fives_rule.seat_fives_weights`) when the other seats
    are random and obey throw fives; None without the rule (every completion alike)."""
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights

    if not rules.throw_fives:
        return None
    return seat_fives_weights(rules, kind_of(rules.name).seat_of(rules))


def penalty_points_of(penalty: str, p_hand: np.ndarray, p_crib: np.ndarray) -> np.ndarray:
    """(2, n, k): the points a zero penalty moves for every throw of every class, from the
    holder's side as ``discard --penalty`` counts them (by the seat that owns the crib,
    :class:`~crib_analyze.position.Seat`'s DEALER, or another, PONE); ``p_crib`` the
    crib's chance of nothing, the same for both seats (n, k) or by seat (2, n, k)."""
    from crib_analyze.discard.penalties import penalty_points

    by_seat = p_crib if p_crib.ndim > p_hand.ndim else np.stack([p_crib] * 2)
    points = penalty_points(penalty, p_hand.ravel(), by_seat.reshape(2, -1))
    return points.reshape(2, *p_hand.shape)


def five_card_columns(
    lowball: bool = False,
    penalty: str = "none",
    throw_fives: bool = False,
    classes: tuple[np.ndarray, np.ndarray] | None = None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(columns, provenance) of the whole table, computed (``lowball``: the best throws
    are the fewest points; ``penalty``: the chances of a zero, and the nets count the
    rule; ``throw_fives``: only the throws the rule allows are best, and the opponent
    obeys it too; ``classes``: (cards, weight) of some classes only, for the tests)."""
    start = time.time()
    cards, weight = classes or five_card_classes()
    weights = fives_weights(game(GAME, throw_fives=throw_fives))
    hand, crib, heels_one, p_hand, p_crib = exact_numbers(KINDS[GAME], cards, 0, penalty, weights)
    heels = np.repeat(heels_one[:, None], N_THROWS, axis=1)
    dealer = hand + crib + heels
    pone = hand - crib
    zero: dict[str, Any] = {}
    if p_hand is not None and p_crib is not None:
        points = penalty_points_of(penalty, p_hand, p_crib)
        dealer = dealer + points[Seat.DEALER]
        pone = pone + points[Seat.PONE]
        zero = {"p_hand_zero": p_hand.ravel(), "p_crib_zero": p_crib.ravel(),
                "dealer_penalty": points[Seat.DEALER].ravel(),
                "pone_penalty": points[Seat.PONE].ravel()}  # fmt: skip
    n = len(cards)
    legal = legal_throws_of(cards, fk.THROWS) if throw_fives else None
    thrown = cards[:, fk.THROWS].reshape(n * N_THROWS, 2)
    kept = cards[:, fk.KEEPS].reshape(n * N_THROWS, 3)
    columns: dict[str, Any] = {
        "hand": card_words(CARD_WORDS, np.repeat(cards, N_THROWS, axis=0)),
        "discard": card_words(CARD_WORDS, thrown),
        "keep": card_words(CARD_WORDS, kept),
        "hand_mean": hand.ravel(),
        "crib_mean": crib.ravel(),
        "dealer_heels": heels.ravel(),
        **zero,
        "dealer_net": dealer.ravel(),
        "pone_net": pone.ravel(),
        **({"legal": legal.ravel()} if legal is not None else {}),
        "dealer_best": best_of(dealer, lowball, legal),
        "pone_best": best_of(pone, lowball, legal),
        "hand_id": np.repeat(np.arange(n, dtype=np.int32), N_THROWS),
        "weight": np.repeat(weight.astype(np.int32), N_THROWS),
    }
    provenance = {
        "game": GAME,
        "version": __version__,
        "format": FORMAT,
        "opponent": "random",
        "rows": n * N_THROWS,
        "classes": n,
        "weight_sum": int(weight.sum()),
        "hand": "the kept three's show over the 47 starters, exact",
        "crib": FIVES_CRIB if throw_fives else
        "the two thrown, two of the 47 unseen and a starter: 48,645 completions, exact",
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.time() - start, 1),
    }  # fmt: skip
    return columns, provenance | variant_provenance(lowball, penalty, throw_fives)


def throw_one_columns(
    rules: Rules, classes: tuple[np.ndarray, np.ndarray] | None = None
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(columns, provenance) of the table of a game of :data:`THROW_ONE_GAMES` (of some
    ``classes`` only, (cards, weight), for the tests)."""
    start = time.time()
    cards, weight = classes or five_card_classes()
    hand, crib, heels_one, p_hand, p_crib = exact_numbers(
        KINDS["throw-one"], cards, 0, rules.penalty, fives_weights(rules)
    )
    heels = np.repeat(heels_one[:, None], 5, axis=1)
    owner = hand + crib + heels
    other = hand - crib
    zero: dict[str, Any] = {}
    if p_hand is not None and p_crib is not None:  # the owner's side pays for its crib
        points = penalty_points_of(rules.penalty, p_hand, p_crib)
        owner = owner + points[Seat.DEALER]
        other = other + points[Seat.PONE]
        zero = {"p_hand_zero": p_hand.ravel(), "p_crib_zero": p_crib.ravel(),
                "owner_penalty": points[Seat.DEALER].ravel(),
                "other_penalty": points[Seat.PONE].ravel()}  # fmt: skip
    n = len(cards)
    legal = legal_throws_of(cards, fk.THROWS_ONE) if rules.throw_fives else None
    thrown = cards[:, fk.THROWS_ONE].reshape(n * 5)
    kept = cards[:, fk.KEEPS_ONE].reshape(n * 5, 4)
    columns: dict[str, Any] = {
        "hand": card_words(CARD_WORDS, np.repeat(cards, 5, axis=0)),
        "discard": card_words(CARD_WORDS, thrown[:, None]),
        "keep": card_words(CARD_WORDS, kept),
        "hand_mean": hand.ravel(),
        "crib_mean": crib.ravel(),
        "owner_heels": heels.ravel(),
        **zero,
        "owner_net": owner.ravel(),
        "other_net": other.ravel(),
        **({"legal": legal.ravel()} if legal is not None else {}),
        "owner_best": best_of(owner, rules.lowball, legal),
        "other_best": best_of(other, rules.lowball, legal),
        "hand_id": np.repeat(np.arange(n, dtype=np.int32), 5),
        "weight": np.repeat(weight.astype(np.int32), 5),
    }
    provenance = {
        "game": rules.name,
        "version": __version__,
        "format": FORMAT,
        "opponent": "random",
        "rows": n * 5,
        "classes": n,
        "weight_sum": int(weight.sum()),
        "hand": "the kept four's show over the 47 starters, exact",
        "crib": FIVES_CRIB if rules.throw_fives else
        "the card thrown, three of the 47 unseen and a starter: 713,460 "
        "completions, exact (the other seats' throws and the pack's cards alike)",
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.time() - start, 1),
    } | throw_one_seats(rules)  # fmt: skip
    return columns, provenance | variant_provenance(rules.lowball, rules.penalty, rules.throw_fives)


def throw_one_seats(rules: Rules) -> dict[str, list[str]]:
    """The seats of a throw-one game whose side owns the crib (``owner_seats``: the
    dealer, and its partner in four) and those whose side does not (``other_seats``),
    as a table's metadata names them."""
    choosing = [
        s for s in range(rules.players)
        if rules.dealt[s] == 5 and rules.thrown[s] == 1 and not rules.passed[s]
    ]  # fmt: skip
    owns = [s for s in choosing if rules.teams[s] == rules.teams[rules.dealer]]
    return {
        "owner_seats": [rules.seat_names[s] for s in owns],
        "other_seats": [rules.seat_names[s] for s in choosing if s not in owns],
    }


def variant_provenance(lowball: bool, penalty: str, throw_fives: bool = False) -> dict[str, Any]:
    """The variants a table ranks by, as its metadata names them (none: nothing)."""
    return (
        ({"lowball": True} if lowball else {})
        | ({"penalty": penalty} if penalty != "none" else {})
        | ({"throw_fives": True} if throw_fives else {})
    )


def write_five_card_table(output: Path, rules: Rules | None = None) -> int:
    """Compute the table of ``rules`` (the five-card game's unless given; a game of
    :data:`TABLE_GAMES`) and write it to ``output`` (Parquet, whole or not at all);
    return its rows."""
    target = check_output(output)
    if rules is None or rules.name == GAME:
        columns, meta = five_card_columns(
            rules is not None and rules.lowball, "none" if rules is None else rules.penalty,
            rules is not None and rules.throw_fives,
        )  # fmt: skip
    else:
        columns, meta = throw_one_columns(rules)
    table = pa.table(columns)
    meta["column_checksums"] = {
        name: [column_checksum(table.column(name))] for name in table.column_names
    }
    from crib_analyze.table.file import metadata_digest

    meta["meta_digest"] = metadata_digest(meta, table.column_names)
    table = table.replace_schema_metadata({META_KEY: json.dumps(meta)})
    with atomic_open(target, "wb") as fh:
        pq.write_table(
            table, fh, row_group_size=table.num_rows, compression="zstd",
            write_page_checksum=True,
        )  # fmt: skip
    return int(table.num_rows)
