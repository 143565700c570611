"""Throws for a seat of any game of the rules: every way to split the cards it is dealt
into a kept hand, a throw to the crib and (Canadian doubles) four cards passed to its
partner.

A split's value to the seat's side is its kept hand's mean show over the starters, plus
the partner's hand from the passed cards, plus the crib's mean from the throw when the
crib is its side's (the dealer's side, which also pegs 2 when a jack is cut), minus it
when an opponent's. The crib's other cards (the other seats' throws and any dealt from
the pack) come from one of three models of the other seats (``others``):

* ``"expert"`` (the default where the game has one): the other seats are dealt their
  cards at random and throw by the game's expert model
  (:mod:`crib_analyze.artifacts.game_models`); the crib's mean is sampled, with its
  standard error, the same deals serving every split;
* ``"random"``: they are unseen cards alike, the random opponent model of the
  two-player game, for every seat (exact);
* ``"hand"``: sampled as with the expert, each seat throwing by the hand policy
  (:func:`~crib_analyze.crib.any_game_kernels.best_split`).

Beside the means, each split has the chances that its kept hand and the crib show
nothing (the hand's exact over the starters, from each show's count; the crib's exact
with random cards, else sampled), and with a need N the kept hand's chance to reach
N. The variants: throw fives ranks only the legal splits (the other seats throw their
fives too, so not as random cards); a penalty joins the net as the points it moves.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from crib_analyze.artifacts.game_models import expert_model_of, game_model
from crib_analyze.cards import CardsLike, as_one_joker, format_cards, parse_cards
from crib_analyze.constants import FIRST_JOKER
from crib_analyze.crib import any_game_kernels as agk
from crib_analyze.crib.any_game_cribs import hand_policy_tables
from crib_analyze.discard.game_meta import GameThrowsMeta
from crib_analyze.discard.penalties import COST
from crib_analyze.discard.reasons import throw_starters
from crib_analyze.errors import CardError, UsageError
from crib_analyze.results import Rows
from crib_analyze.rules import FIVE_RANK, HEELS_POINTS, JACK_RANK, Rules
from crib_analyze.scoring.jokers import parse_with_jokers
from crib_analyze.settings import GAME_OTHERS, SAMPLES, SEED, check_choice


@dataclass(frozen=True)
class GameThrows:
    """Every split of one seat's cards, best first: card ids and exact means."""

    rules: Rules
    seat: int
    kept: list[tuple[int, ...]]
    thrown: list[tuple[int, ...]]
    passed: list[tuple[int, ...]]  # empty tuples without a partner to pass to
    hand: np.ndarray  # the kept hand's mean show
    partner_hand: np.ndarray  # the passed hand's (0 without)
    crib: np.ndarray  # the crib's mean from this throw
    crib_se: np.ndarray  # its standard error (0: exact)
    crib_sign: int  # +1: the seat's side owns the crib; -1: an opponent does
    heels: float  # the dealer's side's mean points for a jack cut (0 for the others)
    others: str = "random"  # how the other seats' throws are modelled
    samples: int = 0  # deals sampled (others "expert" or "hand")
    hand_zero: np.ndarray | None = None  # P(the kept hand shows nothing)
    need: int | None = None  # the points asked for
    hand_need: np.ndarray | None = None  # P(the kept hand shows at least the need asked)
    hand_counts: np.ndarray | None = None  # (splits, SHOW_BINS) starters giving each show
    crib_zero: np.ndarray | None = None  # P(the crib shows nothing)
    penalty: np.ndarray | None = None  # the points a penalty moves, to the seat's side
    # each split's starters: with which its kept hand is the best of the splits' ("best")
    # and, with a need, reaches it ("need"), named by rank (discard.reasons.throw_starters)
    starters: list[dict[str, str]] = field(default_factory=list)
    # the play, when counted (board.split_play): the seat's side's points in it, the
    # other sides' mean, the standard error of their difference, and how it was counted
    peg_own: np.ndarray | None = None
    peg_opp: np.ndarray | None = None
    peg_se: np.ndarray | None = None
    pegging: str | None = None

    @property
    def net(self) -> np.ndarray:
        net: np.ndarray = self.hand + self.partner_hand + self.crib_sign * self.crib + self.heels
        return net if self.penalty is None else net + self.penalty

    @property
    def total(self) -> np.ndarray | None:
        """net + the play's peg (None: the play not counted)."""
        if self.peg_own is None or self.peg_opp is None:
            return None
        total: np.ndarray = self.net + self.peg_own - self.peg_opp
        return total


Split = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


def default_others(rules: Rules) -> str:
    """How the other seats throw unless told: by the game's expert model where it has
    one (a game of the rules as dealt, without a variant but jokers, whose models
    ship for the packs of the standard game), by the hand policy under
    throw fives (random cards do not follow the rule), else as random cards."""
    if game_model(rules, made=False) is not None:
        return "expert"
    return "hand" if rules.throw_fives else "random"


def seat_tables(rules: Rules, others: str) -> tuple[np.ndarray, np.ndarray]:
    """The per-seat crib tables the other seats throw by: the game's expert model
    (``"expert"``; under a penalty the game's without it, whose throws do not weigh a
    show of nothing, as the hand policy's do not; one no file holds is made on its first
    use by the API, :func:`~crib_analyze.expert.game_models.expert_game_model`) or the
    hand policy's."""
    if others == "expert":
        model = expert_model_of(rules)
        if model is None:  # the API makes one first (expert.game_models.expert_game_model)
            raise UsageError(
                f"{rules.name}{' with ' + ', '.join(rules.variants) if rules.variants else ''} "
                "has no expert throw model: say `others` random or hand"
            )
        return model.one, model.two
    return hand_policy_tables(rules)


def splits(n: int, keep: int, throw: int, passes: int) -> list[Split]:
    """Every (kept, thrown, passed) split of ``n`` card positions, in a fixed order."""
    out: list[Split] = []
    every = range(n)
    for kept in combinations(every, keep):
        rest = [i for i in every if i not in kept]
        for passed in combinations(rest, passes):
            thrown = tuple(i for i in rest if i not in passed)
            out.append((kept, thrown, passed))
    return out


def distinct_splits(options: list[Split], cards: np.ndarray) -> list[Split]:
    """``options`` but each split the same as an earlier one save for which of two
    jokers held goes where (the jokers are the same card: each split is ranked once)."""
    seen: set[tuple[tuple[int, ...], ...]] = set()
    out = []
    for o in options:
        key = tuple(as_one_joker(cards[list(part)]) for part in o)
        if key not in seen:
            seen.add(key)
            out.append(o)
    return out


def _fives_cribs(
    rules: Rules, seat: int, cards: np.ndarray, throws: list[tuple[int, ...]]
) -> tuple[dict[tuple[int, ...], float], dict[tuple[int, ...], float]]:
    """(crib mean, P(crib 0)) of each throw (positions in ``cards``) of ``seat`` when the
    other seats are random cards that obey throw fives, exact
    (:func:`~crib_analyze.crib.hand_cribs.random_cribs`: the tables' kernels on
    this one hand, jokers and all)."""
    from crib_analyze.crib.hand_cribs import random_cribs

    mean, zero = random_cribs(rules, seat, cards, np.array(throws, np.int64))
    return dict(zip(throws, mean.tolist(), strict=True)), dict(
        zip(throws, zero.tolist(), strict=True)
    )


def analyze_seat(
    hand: CardsLike,
    rules: Rules,
    seat: str | int,
    others: str | None = None,
    samples: int = SAMPLES.default,
    seed: int = SEED.default,
    need: int | None = None,
) -> GameThrows:
    """Every split of ``hand`` (the cards ``seat`` is dealt in ``rules``), best first;
    ``others`` "expert" (the default where the game has a model), "random" (exact) or
    "hand" (``samples`` deals, sampled). With ``need``, each kept hand's chance to show
    at least that many points (exact over the starters)."""
    others = others or default_others(rules)
    check_choice("others", others, GAME_OTHERS)
    SAMPLES.check(samples)
    SEED.check(seed)
    rules.refuse_variants(
        "a seat's throws in another game", ("lowball", "throw", "penalty", "jokers")
    )
    s = rules.seat(seat)
    n = rules.dealt[s]
    name = rules.seat_names[s]
    if n == 0:
        raise UsageError(
            f"the {name} is dealt no cards in {rules.name}: its partner passes it four"
        )
    cards = np.array(dealt_cards(hand, n, rules.jokers), np.int64)
    throw, passes = rules.thrown[s], rules.passed[s]
    keep = n - throw - passes
    if keep != rules.hand_size:  # a seat that receives cards keeps what it is dealt
        raise UsageError(f"the {name} of {rules.name} does not choose its hand")
    pack = range(52 + rules.jokers)  # the jokers' ids: 52 and 53
    unseen = np.array([c for c in pack if c not in set(cards.tolist())], np.int64)
    options = splits(n, keep, throw, passes)
    if rules.throw_fives:  # the legal splits: every five thrown, or only fives
        fives = [i for i in range(n) if cards[i] >> 2 == FIVE_RANK]
        must = min(len(fives), throw)
        options = [o for o in options if sum(i in o[1] for i in fives) == must]
    options = distinct_splits(options, cards)
    subsets = sorted({o[0] for o in options} | {o[2] for o in options if o[2]})
    throws = sorted({o[1] for o in options})
    scores = agk.hand_scores(cards, np.array(subsets, np.int64), unseen)
    hists = show_counts(scores, int(agk.show_bins(unseen, cards)))
    scores_of = dict(zip(subsets, scores, strict=True))
    hand_of = dict(zip(subsets, _means(hists), strict=True))
    counts = hists.sum(axis=1)
    hand_zero_of = dict(zip(subsets, hists[:, 0] / counts, strict=True))
    counts_of = dict(zip(subsets, hists, strict=True))
    reach = None if need is None else hists[:, need:].sum(axis=1) / counts
    reach_of = {} if reach is None else dict(zip(subsets, reach, strict=True))
    crib_of: dict[tuple[int, ...], float] = {}
    se_of: dict[tuple[int, ...], float] = {}
    crib_zero_of: dict[tuple[int, ...], float] = {}
    if others in ("hand", "expert"):
        one, two = seat_tables(rules, others)
        rows = np.array(throws, np.int64).reshape(len(throws), throw)
        shows = agk.sampled_cribs(
            cards, s, rows, np.array(rules.dealt, np.int64), np.array(rules.thrown, np.int64),
            np.array(rules.passed, np.int64), np.array(rules.teams, np.int64),
            rules.crib_from_deck, one, two, samples, seed, -1 if rules.lowball else 1,
            rules.throw_fives, rules.jokers,
        ).astype(np.float64)  # fmt: skip
        for t, row in zip(throws, shows, strict=True):
            crib_of[t] = float(row.mean())
            se_of[t] = float(row.std(ddof=1) / np.sqrt(samples)) if samples > 1 else 0.0
            crib_zero_of[t] = float((row == 0).mean())
    elif rules.throw_fives:  # random seats that obey the rule: exact
        crib_of, crib_zero_of = _fives_cribs(rules, s, cards, throws)
    else:  # exact; with nothing thrown the crib is four unseen cards whatever is kept
        rows = np.array(throws, np.int64).reshape(len(throws), throw)
        cribs = agk.crib_histograms(cards, rows, unseen)
        crib_of = dict(zip(throws, _means(cribs), strict=True))
        crib_zero_of = dict(zip(throws, cribs[:, 0] / cribs.sum(axis=1), strict=True))
    own = rules.teams[s] == rules.teams[rules.dealer]
    hands = np.array([hand_of[o[0]] for o in options])
    partner = np.array([hand_of[o[2]] if o[2] else 0.0 for o in options])
    crib = np.array([crib_of[o[1]] for o in options])
    crib_se = np.array([se_of.get(o[1], 0.0) for o in options])
    hand_zero = np.array([hand_zero_of[o[0]] for o in options])
    partner_zero = np.array([hand_zero_of[o[2]] if o[2] else 0.0 for o in options])
    crib_zero = np.array([crib_zero_of[o[1]] for o in options])
    sign = 1 if own else -1
    cost = COST[rules.penalty]  # a zero's cost to its owner's side (the rules refuse the
    # zero penalty where no one opponent takes the point)
    penalty = -cost * (hand_zero + partner_zero + sign * crib_zero)
    jacks = int(np.count_nonzero((unseen >> 2 == JACK_RANK) | (unseen >= FIRST_JOKER)))
    heels = HEELS_POINTS * jacks / len(unseen) if own else 0.0
    net = hands + partner + sign * crib + penalty
    order = np.argsort(net if rules.lowball else -net, kind="stable")  # lowball: least first
    pick = [options[i] for i in order]
    kept_scores = np.array([scores_of[o[0]] for o in pick])
    aim = -1 if rules.lowball else 1
    starters = throw_starters(kept_scores, unseen.tolist(), np.ones(len(pick), bool), need, aim)
    return GameThrows(
        rules=rules,
        seat=s,
        kept=[tuple(int(cards[i]) for i in o[0]) for o in pick],
        thrown=[tuple(int(cards[i]) for i in o[1]) for o in pick],
        passed=[tuple(int(cards[i]) for i in o[2]) for o in pick],
        hand=hands[order],
        partner_hand=partner[order],
        crib=crib[order],
        crib_se=crib_se[order],
        crib_sign=sign,
        heels=heels,
        others=others,
        samples=samples if others != "random" else 0,
        hand_zero=hand_zero[order],
        need=need,
        hand_need=np.array([reach_of[o[0]] for o in pick]) if reach_of else None,
        hand_counts=np.array([counts_of[o[0]] for o in pick]),
        crib_zero=crib_zero[order],
        penalty=penalty[order],
        starters=starters,
    )


def game_distribution_rows(throws: GameThrows) -> Rows:
    """The exact distribution of each kept hand's show over the starters the seat
    cannot see, in long form as the standard game's (one row per split and points
    0..29, splits best first): the starters, the probability and P(hand >= points);
    ``discard`` names the cards thrown (and passed)."""
    assert throws.hand_counts is not None
    counts = throws.hand_counts
    n_splits, n_points = counts.shape
    at_least = counts[:, ::-1].cumsum(axis=1)[:, ::-1]
    total = counts.sum(axis=1, keepdims=True)
    cards = split_columns(throws.kept, throws.thrown, throws.passed)
    named = split_names(cards)
    rows = game_throws_rows(throws)
    columns = {
        "rank": np.repeat(np.arange(1, n_splits + 1, dtype=np.int64), n_points),
        "discard": np.repeat(named, n_points),
        "keep": np.repeat(cards["keep"], n_points),
        "points": np.tile(np.arange(n_points, dtype=np.int64), n_splits),
        "starters": counts.ravel().astype(np.int64),
        "probability": (counts / total).ravel(),
        "p_at_least": (at_least / total).ravel(),
    }
    return Rows(columns, meta=rows.meta)


def split_names(cards: dict[str, np.ndarray]) -> np.ndarray:
    """Each split's name, as the distribution's ``discard`` column and the starters'
    keys give it: the cards thrown, and those passed after a slash."""
    named: np.ndarray = (
        cards["throw"] if "pass" not in cards else cards["throw"] + " / " + cards["pass"]
    )
    return named


def dealt_cards(hand: CardsLike, n: int, jokers: int) -> list[int]:
    """The ``n`` cards a seat is dealt, ``JK`` a joker when the pack has ``jokers``."""
    if not jokers:
        return parse_cards(hand, count=n)
    cards = parse_with_jokers(hand, jokers)
    if len(cards) != n:
        raise CardError(f"expected {n} cards, got {len(cards)}")
    return cards


def show_counts(scores: np.ndarray, bins: int = agk.SHOW_BINS) -> np.ndarray:
    """(H, bins): how many entries of each row of ``scores`` show each number of
    points."""
    counts = np.zeros((len(scores), bins), np.int64)
    rows = np.repeat(np.arange(len(scores)), scores.shape[1])
    np.add.at(counts, (rows, scores.ravel()), 1)
    return counts


def _means(counts: np.ndarray) -> np.ndarray:
    """Each row's mean show from its counts by points (as exact as a sum of the shows)."""
    totals = counts @ np.arange(counts.shape[1])
    means: np.ndarray = totals / counts.sum(axis=1)
    return means


def split_columns(
    kept: list[tuple[int, ...]], thrown: list[tuple[int, ...]], passed: list[tuple[int, ...]]
) -> dict[str, np.ndarray]:
    """The splits' cards as text columns: keep, throw, and pass where a seat passes."""

    def texts(groups: list[tuple[int, ...]]) -> np.ndarray:
        return np.array([format_cards(g) for g in groups], dtype=object)

    columns = {"keep": texts(kept), "throw": texts(thrown)}
    if any(passed):
        columns["pass"] = texts(passed)
    return columns


def game_throws_rows(throws: GameThrows) -> Rows:
    """A seat's splits in any game as rows, best first: keep, throw (and pass), each
    part's mean and the net; the metadata names the game, the seat and whose the crib
    is."""
    rules = throws.rules
    columns = split_columns(throws.kept, throws.thrown, throws.passed)
    columns["hand_mean"] = throws.hand
    if throws.hand_need is not None:
        columns["p_need"] = throws.hand_need
    if any(throws.passed):
        columns["partner_mean"] = throws.partner_hand
    columns["crib_mean"] = throws.crib
    if throws.samples:
        columns["crib_se"] = throws.crib_se
    if throws.hand_zero is not None and throws.crib_zero is not None:
        columns["p_hand_zero"] = throws.hand_zero
        columns["p_crib_zero"] = throws.crib_zero
    if rules.penalty != "none" and throws.penalty is not None:
        columns["penalty"] = throws.penalty
    columns["heels"] = np.full(len(throws.kept), throws.heels)
    columns["net"] = throws.net
    own, opp, total = throws.peg_own, throws.peg_opp, throws.total
    if own is not None and opp is not None and total is not None:  # the play counted
        columns["peg_own"] = own
        columns["peg_opp"] = opp
        columns["peg"] = own - opp
        if throws.peg_se is not None:
            columns["peg_se"] = throws.peg_se
        columns["total"] = total
    if throws.seat == rules.dealer:
        owner = "yours"
    elif throws.crib_sign > 0:
        owner = "your partner's"
    else:
        owner = "an opponent's"
    names = split_names(columns).tolist()
    meta = GameThrowsMeta(
        game=rules.name, seat=rules.seat_names[throws.seat], crib=owner,
        crib_sign=throws.crib_sign, lowball=rules.lowball, throw_fives=rules.throw_fives,
        samples=throws.samples,
        others=throws.others, starters=dict(zip(names, throws.starters, strict=False)),
        need=throws.need, pegging=throws.pegging,
        notes=tuple(
            f"{rule}; the lowest net first" if rule.startswith("lowball") else
            f"{rule}: only the legal splits are ranked, and the other seats throw their "
            "fives too" if rule.startswith("throw fives") else
            f"{rule}; the other seats throw by the expert model of the game without it"
            if " penalty: " in rule and throws.others == "expert" else rule
            for rule in rules.variant_rules
        ),
    )  # fmt: skip
    return Rows(columns, meta=meta)
