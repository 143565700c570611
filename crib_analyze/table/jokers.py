"""The discard tables of a pack with jokers (``table --jokers 1|2``): every
suit-distinct hand of a 53- or 54-card pack x its throws, exact against the random
opponent, each joker counted at its best wherever it falls (hand, starter, crib); the
standard game's against the expert too (``--opponent expert``:
:mod:`crib_analyze.table.joker_expert`).

* **The standard game** (six cards, 15 throws of two): the 962,988 classes of six
  real cards, then the 134,459 of five real cards and a joker (weighed once a joker
  of the pack), then with two jokers the 16,432 of four real cards and both:
  1,097,447 or 1,113,879 classes whose weights sum to C(53, 6) or C(54, 6).
* **The games of five-card hands**: the old five-card game (ten throws of two, three
  kept) and the games whose seats throw one (five throws, ``owner`` and ``other``
  nets as in their plain table): 150,891 or 152,646 classes, C(53, 5) or C(54, 5).

The numbers come from :mod:`crib_analyze.crib.joker_class_kernels` (the rank part once
per multiset of ranks and jokers, the flush and nobs in closed form) and the chances of
a zero from :mod:`crib_analyze.crib.zero_kernels` (a show with a joker never scores
nothing). The play is not counted: the pegging values are for a pack without jokers.

One Parquet file, computed whole (10-30 seconds) and written in row groups of
:data:`GROUP_CLASSES` hands, each column of each with its checksum, the provenance in
the metadata, as the five-card tables are.
"""

from __future__ import annotations

import datetime as dt
import json
import time
from functools import cache
from itertools import combinations, permutations
from math import comb
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from crib_analyze import interrupts
from crib_analyze.constants import FIRST_JOKER
from crib_analyze.crib.hand_classes import hand_classes
from crib_analyze.errors import TableError
from crib_analyze.position import Seat
from crib_analyze.rules import Rules
from crib_analyze.settings import __version__
from crib_analyze.storage.atomic import atomic_open, check_output
from crib_analyze.table.chunks import META_KEY, column_checksum
from crib_analyze.table.class_numbers import TableKind, exact_numbers, kind_of
from crib_analyze.table.five_card import (
    CARD_WORDS,
    FIVES_CRIB,
    best_of,
    card_words,
    five_card_classes,
    fives_weights,
    penalty_points_of,
    throw_one_seats,
    variant_provenance,
)

FORMAT = 1
GROUP_CLASSES = 100_000  # hands a row group


def suit_classes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """(cards (C, k) ascending, weight (C,)): every suit-distinct hand of ``k`` real cards
    (its representative the least sorted tuple over the 24 relabellings of the suits,
    as :func:`crib_analyze.cards.canonical_hand` picks it), by brute force.

    >>> cards, weight = suit_classes(2)
    >>> len(cards), int(weight.sum()) == 52 * 51 // 2
    (169, True)
    """
    hands = np.array(list(combinations(range(52), k)), np.int64)
    base = 52 ** np.arange(k - 1, -1, -1)
    own = hands @ base
    renamed = np.empty((24, len(hands)), np.int64)
    for p, perm in enumerate(permutations(range(4))):
        other = 4 * (hands >> 2) + np.array(perm)[hands & 3]
        other.sort(axis=1)
        renamed[p] = other @ base
    least = renamed.min(axis=0)
    keep = least == own
    weight = 24 // (renamed[:, keep] == own[keep]).sum(axis=0)
    return hands[keep], weight


def _real_classes(k: int) -> tuple[np.ndarray, np.ndarray]:
    """The suit classes of ``k`` real cards, as the tables of hands of that size hold them."""
    if k == 6:
        six = hand_classes()
        return six.cards.astype(np.int64), six.weight.astype(np.int64)
    if k == 5:
        five, weight = five_card_classes()
        return five.astype(np.int64), weight.astype(np.int64)
    return suit_classes(k)


@cache
def joker_classes(jokers: int, size: int = 6) -> tuple[np.ndarray, np.ndarray]:
    """(cards (N, size) ascending, jokers ids 52 and 53; weight (N,)): the hands of
    ``size`` cards of a pack with ``jokers`` jokers, suit class by suit class: the real
    cards' classes, then with one joker (weighed once a joker of the pack), then with
    both (once a process, a few seconds)."""
    parts, weights = [], []
    for held in range(jokers + 1):
        cards, weight = _real_classes(size - held)
        tail = np.full((len(cards), held), np.arange(FIRST_JOKER, FIRST_JOKER + held))
        parts.append(np.concatenate([cards, tail], axis=1))
        weights.append(weight * (jokers if held == 1 else 1))  # either joker, held alone
    cards, weight = np.concatenate(parts), np.concatenate(weights)
    cards.setflags(write=False)
    weight.setflags(write=False)
    return cards, weight


def joker_table_columns(
    rules: Rules, opponent: str = "random", checkpoint: Path | None = None
) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """(numeric columns, provenance) of the table of ``rules`` with jokers (the standard
    game, or a game whose seats are dealt five and throw one; ``lowball``: the best
    throws are the fewest points; ``penalty``: the chances of a zero, and the nets count
    the rule; ``throw_fives``: the other seats random and obeying it, each completion of
    the crib at its chance, and only the throws it allows best). ``opponent`` "expert"
    (the standard game with jokers alone): each role's crib against the expert of the
    pack (:mod:`crib_analyze.table.joker_expert`), its parts kept beside ``checkpoint``
    as they are done, for a run killed to resume."""
    from crib_analyze.crib.throw_fives_rule import legal_throws_of

    start = time.time()
    kind = kind_of(rules.name)
    owner, other = kind.roles
    cards, weight = joker_classes(rules.jokers, kind.size)
    hand, crib, heels_one, p_hand, p_crib = exact_numbers(
        kind, cards, rules.jokers, rules.penalty, fives_weights(rules)
    )
    heels = np.repeat(heels_one[:, None], kind.n_throws, axis=1)
    cribs = {"crib_mean": crib}
    given_crib = crib
    crib_zero: dict[str, np.ndarray] = {} if p_crib is None else {"p_crib_zero": p_crib}
    if opponent == "expert":
        from crib_analyze.table.joker_expert import expert_cribs

        means, nothing = expert_cribs(rules, cards, weight, hand, checkpoint)  # by our seat
        crib, given_crib = means[Seat.DEALER], means[Seat.PONE]
        cribs = {"dealer_crib_mean": crib, "pone_crib_mean": given_crib}
        crib_zero = {"dealer_p_crib_zero": nothing[Seat.DEALER],
                     "pone_p_crib_zero": nothing[Seat.PONE]}  # fmt: skip
    owned = hand + crib + heels
    given = hand - given_crib
    zero: dict[str, np.ndarray] = {}
    if p_hand is not None and p_crib is not None:
        # against the expert each role's crib of nothing is its own
        by_seat = nothing if opponent == "expert" else p_crib
        points = penalty_points_of(rules.penalty, p_hand, by_seat)
        owned = owned + points[Seat.DEALER]  # the crib's side
        given = given + points[Seat.PONE]
        zero = {
            "p_hand_zero": p_hand,
            **crib_zero,
            f"{owner}_penalty": points[Seat.DEALER],
            f"{other}_penalty": points[Seat.PONE],
        }
    n = len(cards)
    legal = legal_throws_of(cards, kind.throws) if rules.throw_fives else None
    columns = {
        "hand_mean": hand,
        **cribs,
        f"{owner}_heels": heels,
        **zero,
        f"{owner}_net": owned,
        f"{other}_net": given,
        **({"legal": legal} if legal is not None else {}),
        f"{owner}_best": best_of(owned, rules.lowball, legal),
        f"{other}_best": best_of(given, rules.lowball, legal),
        "hand_id": np.repeat(np.arange(n, dtype=np.int32), kind.n_throws),
        "weight": np.repeat(weight.astype(np.int32), kind.n_throws),
    }
    unseen = 52 + rules.jokers - kind.size
    others = 4 - kind.throws.shape[1]
    thrown = "the two thrown, two" if others == 2 else "the card thrown, three"
    provenance: dict[str, Any] = {
        "game": rules.name,
        "jokers": rules.jokers,
        "version": __version__,
        "format": FORMAT,
        "opponent": opponent,
        "rows": n * kind.n_throws,
        "classes": n,
        "weight_sum": int(weight.sum()),
        "hand": f"the kept {'three' if kind.keeps.shape[1] == 3 else 'four'}'s show over the "
        f"{unseen} starters, each joker at its best, exact",
        "crib": (
            f"{FIVES_CRIB}, each joker at its best"
            if rules.throw_fives
            else f"{thrown} of the {unseen} unseen and a starter: "
            f"{comb(unseen, others) * (unseen - others):,} completions, each joker at "
            "its best, exact"
        ),
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "seconds": round(time.time() - start, 1),
    }
    if opponent == "expert":
        from crib_analyze.artifacts.game_models import model_key
        from crib_analyze.table.joker_expert import POLICY_WORDS

        provenance["crib"] = f"against the expert ({model_key(rules)}): {POLICY_WORDS}"
    if kind.name == "throw-one":
        provenance |= throw_one_seats(rules)
    variants = variant_provenance(rules.lowball, rules.penalty, rules.throw_fives)
    return {k: np.ascontiguousarray(v).ravel() for k, v in columns.items()}, provenance | variants


def _words(rows: np.ndarray) -> pa.DictionaryArray:
    """Each row of card ids (n, k) as its cards' text, dictionary encoded: each distinct
    row written once (the two jokers alike, as :func:`crib_analyze.cards.as_one_joker`
    names them)."""
    rows = np.minimum(rows, FIRST_JOKER)
    codes = rows @ (len(CARD_WORDS) ** np.arange(rows.shape[1] - 1, -1, -1))
    _, first, which = np.unique(codes, return_index=True, return_inverse=True)
    words = card_words(CARD_WORDS, rows[first]).dictionary
    return pa.DictionaryArray.from_arrays(pa.array(which.astype(np.int32)), words)


def _group(
    kind: TableKind, cards: np.ndarray, numbers: dict[str, np.ndarray], lo: int, hi: int
) -> pa.Table:
    """Row group of hands ``lo .. hi``: their text columns, then the numbers."""
    held = cards[lo:hi]
    k = kind.n_throws
    rows = slice(lo * k, hi * k)
    text = {
        "hand": pa.DictionaryArray.from_arrays(
            pa.array(np.repeat(np.arange(len(held), dtype=np.int32), k)),
            card_words(CARD_WORDS, held).dictionary,
        ),  # the classes are distinct
        "discard": _words(held[:, kind.throws].reshape(len(held) * k, -1)),
        "keep": _words(held[:, kind.keeps].reshape(len(held) * k, -1)),
    }
    return pa.table(text | {name: values[rows] for name, values in numbers.items()})


def write_joker_table(output: Path, rules: Rules, opponent: str = "random") -> int:
    """Compute the table of ``rules`` with jokers (the standard game, or a game whose
    seats are dealt five and throw one; against ``opponent``, the expert for the standard
    game alone) and write it to ``output`` (Parquet, whole or not at all); return its
    rows."""
    from crib_analyze.storage.checkpoint import checkpoint_beside
    from crib_analyze.table.file import metadata_digest
    from crib_analyze.table.joker_expert import remove_parts

    target = check_output(output)
    checkpoint = checkpoint_beside(target) if opponent == "expert" else None  # minutes
    numbers, meta = joker_table_columns(rules, opponent, checkpoint)
    kind = kind_of(rules.name)
    cards, _ = joker_classes(rules.jokers, kind.size)
    bounds = [
        (lo, min(lo + GROUP_CLASSES, len(cards))) for lo in range(0, len(cards), GROUP_CLASSES)
    ]
    groups = [_group(kind, cards, numbers, lo, hi) for lo, hi in bounds]
    names = groups[0].column_names
    meta["column_checksums"] = {
        name: [column_checksum(g.column(name)) for g in groups] for name in names
    }
    meta["meta_digest"] = metadata_digest(meta, names)
    schema = groups[0].schema.with_metadata({META_KEY: json.dumps(meta)})
    with (
        atomic_open(target, "wb") as fh,
        pq.ParquetWriter(fh, schema, compression="zstd", write_page_checksum=True) as writer,
    ):
        for g in groups:
            interrupts.check()
            writer.write_table(g.cast(schema), row_group_size=g.num_rows)
    remove_parts(checkpoint)
    return int(meta["rows"])


def verify_hands_table(path: Path, meta: dict[str, Any]) -> dict[str, Any]:
    """Check a table written whole, hand by hand (a game of five-card hands', or any
    table with jokers), data included: every column of every row group against its
    checksum, then rows, hands, weights (they sum to C(52 + jokers, hand size)), each
    hand's throws and a best throw for each role in every hand. Returns what was found;
    raises TableError naming the first failed check."""
    from crib_analyze.table.file import RowGroupSums

    jokers = meta.get("jokers") or 0
    game = str(meta.get("game", "standard"))
    if jokers not in ((1, 2) if game == "standard" else (0, 1, 2)):
        raise TableError(f"{path}: a table of {jokers!r} jokers, which no pack holds")
    kind = kind_of(game)
    owner, other = kind.roles
    throws = kind.n_throws
    cards, weight = joker_classes(jokers, kind.size)
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        sums = RowGroupSums(path, meta, pf.num_row_groups)
        keep = ["hand_id", "weight", f"{owner}_best", f"{other}_best"]
        parts = []
        for group in range(pf.num_row_groups):
            table = pf.read_row_group(group)
            sums.check(group, table)
            parts.append(table.select(keep))
    except TableError:
        raise
    except (OSError, pa.ArrowException) as e:
        raise TableError(f"{path}: damaged data ({e})") from None
    data = pa.concat_tables(parts)
    n = len(cards)
    rows = data.num_rows
    if rows != n * throws or meta.get("rows") != rows:
        raise TableError(f"{path}: {rows:,} rows, expected {n * throws:,}")
    hand_id = data.column("hand_id").to_numpy().astype(np.int64)
    if not (np.bincount(hand_id, minlength=n) == throws).all():
        raise TableError(f"{path}: hands are not its {n:,} x {throws} throws")
    first = np.r_[True, hand_id[1:] != hand_id[:-1]]
    weight_sum = int(data.column("weight").to_numpy().astype(np.int64)[first].sum())
    if weight_sum != int(weight.sum()):
        raise TableError(f"{path}: weights sum to {weight_sum:,}, expected {int(weight.sum()):,}")
    for role in kind.roles:
        best = data.column(f"{role}_best").to_numpy()
        if not (np.bincount(hand_id[best], minlength=n) > 0).all():
            raise TableError(f"{path}: a hand without a best throw for the {role}")
    return {"rows": rows, "classes": n, "weight_sum": weight_sum}
