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
from crib_analyze.rules import HEELS_POINTS, JACK_RANK, Rules, game
from crib_analyze.scoring.show_kernels import rank_table
from crib_analyze.settings import CALL_SECONDS, __version__
from crib_analyze.storage.atomic import atomic_open, check_output
from crib_analyze.table.chunks import META_KEY, column_checksum
from crib_analyze.table.class_numbers import KINDS, kind_of, multisets_of, numerators, writable

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


def zero_columns(
    cards: np.ndarray,
    penalty: str,
    throws: np.ndarray,
    keeps: np.ndarray,
    completions: int,
    crib_zero: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(P(hand 0), P(crib 0), the rule's points by seat (2, n, k)) of every throw of every
    class: exact, in closed form over ranks (:mod:`crib_analyze.crib.joker_class_kernels`), the
    points from the holder's side as ``discard --penalty`` counts them (by the seat that
    owns the crib, :class:`~crib_analyze.position.Seat`'s DEALER, or another, PONE).
    ``crib_zero``: P(crib 0) already known (under throw fives), not the random crib's."""
    from crib_analyze.crib.joker_class_kernels import joker_zero_counts
    from crib_analyze.discard.penalties import penalty_points

    cards = writable(cards)  # the kernels' one array type
    parts = [  # the counts of every table's kernel, with no joker in the pack
        joker_zero_counts(rank_table(), cards[lo : lo + k], 0, throws, keeps)
        for lo, k in interrupts.paced(len(cards), CALL_SECONDS, step=256)
    ]
    hand = np.concatenate([p[0] for p in parts]) / fk.UNSEEN
    crib = np.concatenate([p[1] for p in parts]) / completions if crib_zero is None else crib_zero
    points = penalty_points(penalty, hand.ravel(), np.stack([crib.ravel()] * 2))
    return hand, crib, points.reshape(2, *hand.shape)


def fives_cribs(
    rules: Rules, cards: np.ndarray, throws: np.ndarray, with_zero: bool
) -> tuple[np.ndarray, np.ndarray | None]:
    """(crib mean, P(crib 0) or None unless ``with_zero``) (N, throws) of every throw of
    every class (``cards`` (N, 5)) of a seat of ``rules`` dealt five, when the other seats
    are random and obey throw fives, exact
    (:mod:`crib_analyze.crib.throw_fives_kernels`)."""
    from crib_analyze.crib import throw_fives_kernels as tfk
    from crib_analyze.crib.throw_fives_rule import seat_fives_weights

    weights = seat_fives_weights(rules, kind_of(rules.name).seat_of(rules))
    cards = writable(cards)
    reps, which = multisets_of(cards)
    rank_sums = tfk.multiset_fives_rank_sums(rank_table(), reps, throws, weights)
    parts = [
        tfk.classes_fives_cribs(
            rank_table(),
            cards[lo : lo + k],
            which[lo : lo + k],
            rank_sums,
            throws,
            weights,
            with_zero,
        )
        for lo, k in interrupts.paced(len(cards), CALL_SECONDS, step=256)
    ]
    mean = np.concatenate([p[0] for p in parts])
    zero = np.concatenate([p[1] for p in parts]) if with_zero else None
    return mean, zero


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
    hand_num, crib_num, jacks = numerators(KINDS[GAME], cards, 0)
    hand = hand_num / fk.UNSEEN
    crib = crib_num / fk.COMPLETIONS
    fives_zero = None
    if throw_fives:
        crib, fives_zero = fives_cribs(game(GAME), cards, fk.THROWS, penalty != "none")
    heels = np.repeat((HEELS_POINTS * jacks / fk.UNSEEN)[:, None], N_THROWS, axis=1)
    dealer = hand + crib + heels
    pone = hand - crib
    zero: dict[str, Any] = {}
    if penalty != "none":
        p_hand, p_crib, points = zero_columns(
            cards, penalty, fk.THROWS, fk.KEEPS, fk.COMPLETIONS, fives_zero
        )
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
    hand_num, crib_num, _ = numerators(KINDS["throw-one"], cards, 0)
    jacks = (cards >> 2 == JACK_RANK).sum(axis=1)
    hand = hand_num / fk.UNSEEN
    crib = crib_num / fk.COMPLETIONS_ONE
    fives_zero = None
    if rules.throw_fives:
        crib, fives_zero = fives_cribs(rules, cards, fk.THROWS_ONE, rules.penalty != "none")
    heels = np.repeat((HEELS_POINTS * (4 - jacks) / fk.UNSEEN)[:, None], 5, axis=1)
    owner = hand + crib + heels
    other = hand - crib
    zero: dict[str, Any] = {}
    if rules.penalty != "none":  # the owner's side pays for its crib, another's gains
        p_hand, p_crib, points = zero_columns(
            cards, rules.penalty, fk.THROWS_ONE, fk.KEEPS_ONE, fk.COMPLETIONS_ONE, fives_zero
        )
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
