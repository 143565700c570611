"""The crib against the expert of a pack with jokers, for every hand of the table
(``table --jokers N --opponent expert``).

The expert of a pack with jokers is the game model's (:mod:`crib_analyze.expert.
game_models`): a seat keeps the split of most hand mean over the starters plus (its own
crib) or minus (the other's) its table's crib mean of the thrown symbols. Over every
suit class of the pack's six-card hands that rule gives each class its best throws
(ties shared); gathered by multiset of symbols (13 ranks and the joker) with each class's
weight, it becomes a policy per multiset with the suited share of each throw, as the
plain game's expert is held (:func:`~crib_analyze.crib.throw_policy_kernels.
multiset_policy`). Against our cards the opponent's hand is six of our unseen cards,
its multiset at its chance, its throw by that policy, the starter one of the cards
left: exact at the level of symbols, each card pair and starter weighed by the suited
share (:mod:`crib_analyze.crib.joker_policy_kernels`).

So the table's expert is the game model's rule read per multiset: where two suit
classes of one multiset throw differently, the policy throws each way at its share,
whatever our cards' suits. ``discard --jokers N --opponent expert`` deals the model's
own hands instead (sampled); the two agree within its standard error (tested).
"""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.game_models import expert_model_of
from crib_analyze.constants import FIRST_JOKER
from crib_analyze.crib import joker_policy_kernels as jpk
from crib_analyze.crib import throw_policy_kernels as pk
from crib_analyze.crib.hand_cribs import joker_rank_tables
from crib_analyze.crib.hand_kernels import DISCARDS, TIE_TOLERANCE, best_flags
from crib_analyze.crib.throw_fives_rule import legal_throws_of
from crib_analyze.errors import UsageError
from crib_analyze.rules import Rules
from crib_analyze.settings import __version__
from crib_analyze.storage.checkpoint import load_checkpoint, remove_checkpoint, save_checkpoint
from crib_analyze.storage.npz import arrays_digest

#: the policies by our seat (Seat: the pone, then the dealer): the opponent's seat from the
#: dealer's left and the sign of the crib to it. As pone we meet the dealer's throws to
#: its own crib (+1); as dealer the pone's to ours (-1)
SEATS = ((1, 1), (0, -1))
PARTS = 16  # a table's cribs are made in parts: Ctrl-C between them, each kept as done
POLICY_WORDS = (
    "the game model's throws (most hand mean over the starters, plus its own crib's or "
    "less the other's mean by the thrown symbols) over every suit class, gathered per "
    "multiset of symbols with the suited share of each throw; the opponent's hand six of "
    "the unseen cards, exact at the level of symbols"
)


def symbols_of(cards: np.ndarray) -> np.ndarray:
    """Each card's symbol: its rank 0-12, or 13 for a joker."""
    return np.where(cards >= FIRST_JOKER, 13, cards >> 2)


def symbol_multisets(cards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(the distinct multisets of symbols of the hands ``cards`` (M, 6) sorted, each hand's
    multiset (N,)); the hands' cards ascending, so position i holds the multiset's i-th
    symbol."""
    sym = symbols_of(cards)
    key = sym @ (14 ** np.arange(cards.shape[1] - 1, -1, -1))
    _, first, which = np.unique(key, return_index=True, return_inverse=True)
    return np.ascontiguousarray(sym[first], np.int64), which.astype(np.int64)


def expert_policy(
    rules: Rules, cards: np.ndarray, weight: np.ndarray, hand: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(multisets (M, 6), pi and suited (2, M, 15) by our seat, :data:`SEATS`): the expert's
    throws of ``rules`` (the standard game with jokers; in lowball the fewest points,
    under throw fives only the throws the rule allows) per multiset of symbols, from
    every suit class ``cards`` (N, 6, ascending) of the pack with its ``weight`` and
    each throw's ``hand`` mean (N, 15)."""
    model = expert_model_of(rules)
    if model is None:
        raise UsageError(f"no expert model of {' '.join(rules.variants)} is made")
    multisets, which = symbol_multisets(cards)
    sym = symbols_of(cards)
    aim = -1 if rules.lowball else 1  # lowball: the fewest points
    legal = legal_throws_of(cards) if rules.throw_fives else None  # its fives to the crib
    pis, suits = [], []
    for seat, sign in SEATS:
        two = model.two[seat]
        value = aim * (hand + sign * two[sym[:, DISCARDS[:, 0]], sym[:, DISCARDS[:, 1]]])
        if legal is not None:
            value = np.where(legal, value, -np.inf)
        flags = best_flags(value, TIE_TOLERANCE)
        pi, suited = pk.multiset_policy(
            cards, np.asarray(weight, np.float64), which, len(multisets), flags
        )
        pis.append(pi)
        suits.append(suited)
    return multisets, np.stack(pis), np.stack(suits)


def part_path(checkpoint: Path | None, k: int) -> Path | None:
    """Where part ``k`` of a table's cribs is kept until the table is written."""
    return None if checkpoint is None else checkpoint.with_name(f"{checkpoint.name}.part-{k}.npz")


def expert_cribs(
    rules: Rules,
    cards: np.ndarray,
    weight: np.ndarray,
    hand: np.ndarray,
    checkpoint: Path | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(the crib's mean, its chance of nothing), each (2, N, 15) by our
    :class:`~crib_analyze.position.Seat` (the pone's, then the dealer's): every throw of
    every suit class ``cards`` (N, 6, ascending; all the pack's, with their ``weight``
    and ``hand`` means, which the expert's policy is made from) against the expert of
    ``rules``. In :data:`PARTS` parts, Ctrl-C heard between them; with a ``checkpoint``
    each part is kept beside it as it is done (:func:`part_path`) and a later run with
    the same rules and hands reads the parts done instead (the caller removes them once
    its file is written: :func:`remove_parts`)."""
    multisets, pi, suited = expert_policy(rules, cards, weight, hand)
    compiled = pk.compile_policy(multisets, pi, suited)
    _, which = symbol_multisets(cards)
    order = np.argsort(which, kind="stable").astype(np.int64)
    offsets = np.searchsorted(which[order], np.arange(len(multisets) + 1)).astype(np.int64)
    free, gain = joker_rank_tables()
    held = np.ascontiguousarray(cards, np.int64)
    out = np.empty((2, len(cards), DISCARDS.shape[0]))
    zero = np.empty_like(out)
    settings = {"variants": list(rules.variants), "classes": len(cards),
                "cards": arrays_digest({"cards": held}), "policy": arrays_digest(
                    {"pi": pi, "suited": suited}), "version": __version__}  # fmt: skip
    parts = np.linspace(0, len(multisets), PARTS + 1).astype(np.int64)
    for k, (lo, hi) in enumerate(itertools.pairwise(parts.tolist())):
        interrupts.check()
        rows = order[offsets[lo] : offsets[hi]]
        kept = load_checkpoint(part_path(checkpoint, k), settings)
        if kept is not None:
            part, nothing = kept["means"], kept["zero"]
        else:
            part, nothing = jpk.class_policy_cribs(
                free, gain, held[rows], np.arange(len(rows), dtype=np.int64),
                offsets[lo : hi + 1] - offsets[lo], rules.jokers, *compiled,
            )  # fmt: skip
            save_checkpoint(part_path(checkpoint, k), settings, {"means": part, "zero": nothing})
        out[:, rows] = part
        zero[:, rows] = nothing
    return out, zero


def remove_parts(checkpoint: Path | None) -> None:
    """Delete the parts :func:`expert_cribs` kept beside ``checkpoint``."""
    for k in range(PARTS):
        remove_checkpoint(part_path(checkpoint, k))
