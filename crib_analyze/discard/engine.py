"""Discard engine: all 15 throws of a six-card hand, hand over starters, crib per model.

This layer validates input, calls the kernels in :mod:`crib_analyze.crib.hand_kernels`
(and the combination kernels for the expert opponent) and returns plain arrays in a
:class:`DiscardAnalysis`; :mod:`crib_analyze.frames` turns that into a DataFrame.

Point of view: ``dealer_*`` and ``pone_*`` name the role of the player holding the
six cards. ``dealer_crib`` is the crib when that player deals (its own crib, thrown
into by the opponent as pone); ``pone_crib`` the crib when the opponent deals.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cmp_to_key

import numpy as np

from crib_analyze import interrupts
from crib_analyze.artifacts.expert_model import ExpertModel, load_model
from crib_analyze.artifacts.pegging_table import hands_pegging, packaged_pegging_table, rows_of
from crib_analyze.cards import CardsLike, parse_cards
from crib_analyze.constants import N_DISCARDS, TIE_TOLERANCE
from crib_analyze.crib import one_hand
from crib_analyze.crib.one_hand import DISCARDS, KEEPS
from crib_analyze.errors import CardError, UsageError
from crib_analyze.position import Seat
from crib_analyze.rules import HEELS_POINTS, Rules
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    DEFAULT_PEGGING,
    DEFAULT_PLAY_POLICY,
    DEFAULT_SAMPLED_POLICY,
    MODEL_ENV,
    NUMPY_HANDS,
    OPPONENTS,
    PEGGING_CHOICES,
    PENALTIES,
    ROLES,
    SAMPLED_POLICIES,
    SAMPLES,
    SEED,
    SIMULATED_DEALS,
    Opponent,
    SampledPolicy,
    check_choice,
    model_variant_of,
    variant_obeys,
)

ModelLike = ExpertModel | str | os.PathLike[str] | None
SAMPLE_BATCH = 5000  # opponent hands per batch: memory stays fixed for any --samples


@dataclass(frozen=True, eq=False)  # arrays: no field-wise ==, hashed as itself
class DiscardAnalysis:
    """Raw results for one hand; arrays are indexed by discard in ``DISCARDS`` order."""

    hand: tuple[int, ...]
    discards: np.ndarray  # (15, 2) card ids
    keeps: np.ndarray  # (15, 4) card ids
    hand_scores: np.ndarray  # (15, 46) points per unseen starter
    dealer_crib: np.ndarray  # (15,) the crib when the holder deals (its own)
    dealer_crib_se: np.ndarray  # (15,) standard error (0 for exact models)
    pone_crib: np.ndarray  # (15,) the crib when the opponent deals
    pone_crib_se: np.ndarray  # (15,)
    heels: float  # the dealer's expected points for a jack starter
    opponent: str
    samples: int
    seed: int | None
    policy: str | None = None  # how a sampled opponent throws
    model: str | None = None  # the expert model used, described (None if none)
    # the play, by the holder's seat and throw: the holder's and the opponent's
    # expected pegging, and the standard error of their difference (None: not counted)
    peg_own: np.ndarray | None = None  # (2, 15)
    peg_opp: np.ndarray | None = None  # (2, 15)
    peg_se: np.ndarray | None = None  # (2, 15)
    pegging: str | None = None  # where the pegging values come from, described
    # a variant that punishes a show of nothing (discard.penalties): its name and, by
    # the holder's seat, the chance each throw's crib scores nothing
    penalty: str = "none"
    p_crib_zero: np.ndarray | None = None  # (2, 15)
    # the throw fives variant: which throws are legal (every five held must go, as
    # many as there are slots); None: every throw
    legal: np.ndarray | None = None  # (15,) bool
    lowball: bool = False  # loser's cribbage: the fewest points is best
    jokers: int = 0  # jokers in the pack (the variant): the hand may hold them


def parse_hand6(hand: CardsLike) -> np.ndarray:
    """Six distinct cards as an int64 array (raises CardError with a one-line message)."""
    return np.array(parse_cards(hand, count=6), dtype=np.int64)


def pegging_choice(pegging: str | bool) -> str:
    """ "table", "simulated" or "none" (True means the table, False none; "exact", the
    old name of "simulated", is read as it)."""
    if isinstance(pegging, bool):
        return DEFAULT_PEGGING if pegging else "none"
    check_choice("pegging", pegging, PEGGING_CHOICES)
    return "simulated" if pegging == "exact" else pegging


def resolve_model(
    model: ModelLike, pegging: str | bool = DEFAULT_PEGGING, variant: str | None = None
) -> ExpertModel:
    """An ExpertModel as given, or loaded from a path; None: the packaged model that
    matches ``pegging`` (the classic expert when the play is not counted) and the
    ``variant`` ("throw-fives" or "lowball": that variant's classic expert)."""
    kind = variant or ("classic" if pegging_choice(pegging) == "none" else "pegging")
    used = model if isinstance(model, ExpertModel) else load_model(model, kind=kind)
    built_for = used.provenance.get("variant")  # None: the plain game's throws
    if built_for != variant:
        fives, low = variant_obeys(built_for)
        options = " ".join(o for o, on in (("--throw-fives", fives), ("--lowball", low)) if on)
        plain = "the plain game"
        named = f" (from ${MODEL_ENV})" if model is None and os.environ.get(MODEL_ENV) else ""
        raise UsageError(
            f"{used.describe()}{named} was built for {built_for or plain}, not "
            f"{variant or plain} (build-model --{variant} makes one)"
            if variant else
            f"{used.describe()}{named} was built for {built_for}: give it with {options}"
        )  # fmt: skip
    return used


def model_variant(throw_fives: bool, lowball: bool) -> str | None:
    """The kind of expert model a variant's throws are valued against (None: the
    plain game's)."""
    return model_variant_of(throw_fives, lowball)


def analyze_hand(
    hand: CardsLike,
    opponent: Opponent = DEFAULT_OPPONENT,
    samples: int = SAMPLES.default,
    seed: int | None = SEED.default,
    policy: SampledPolicy = DEFAULT_SAMPLED_POLICY,
    model: ModelLike = None,
    on_progress: Callable[[int, int], None] | None = None,
    pegging: str | bool = DEFAULT_PEGGING,
    penalty: str = "none",
    throw_fives: bool = False,
    lowball: bool = False,
    jokers: int = 0,
    roles: tuple[str, ...] = ROLES,
) -> DiscardAnalysis:
    """Analyse every discard of a six-card hand under an opponent model.

    ``expert`` combines the expert policy (per rank multiset, from ``model``: the
    default one unless an ExpertModel or a file is given) exactly with the unseen
    cards and starters; ``sampled`` draws ``samples`` opponent hands (with ``seed``)
    whose throw follows ``policy`` (its best response under the random or the expert
    crib model), in fixed-size batches; ``on_progress(done, total)`` after each.
    ``pegging`` adds the play: "table" (the shipped pegging value of each kept rank
    multiset and role; also True), "simulated" (the play of these very cards by the
    solver, 15 throws on common random numbers, for each of ``roles``; "exact" is its
    old name) or "none" (False).
    ``penalty`` "zero" or "back-ten" adds each throw's chance of a crib of nothing
    (:mod:`crib_analyze.discard.penalties`; exact models only). ``throw_fives`` plays
    the variant where every five held must be thrown: only legal throws are ranked,
    and the opponent throws its fives too, exactly (the random one, or the expert
    model built under the rule); counted without the play. ``lowball`` (loser's
    cribbage) ranks the fewest points best, against the random opponent or the expert
    model of players who want the fewest points, without the play (the pegging values
    are for players who want points). ``jokers`` (1 or
    2) plays a 53- or 54-card pack: ``hand`` may hold ``JK``, and every joker, in the
    hand, cut or in the crib, counts at its best; random opponent, without the play.
    """
    check_choice("opponent model", opponent, OPPONENTS)
    check_choice("penalty", penalty, PENALTIES)
    if penalty != "none" and opponent == "sampled":
        raise UsageError("a penalty for a zero is exact with --opponent expert or random")
    if jokers:
        if opponent != "random":
            raise UsageError("jokers are counted here against the random opponent")
        if pegging_choice(pegging) == "table":
            raise UsageError(
                "jokers count the play only simulated (--pegging simulated): the pegging "
                "table is the plain game's"
            )
        return _joker_analysis(
            hand, jokers, penalty, lowball, throw_fives, pegging_choice(pegging), roles,
            on_progress,
        )  # fmt: skip
    if lowball and pegging_choice(pegging) == "table":
        raise UsageError(
            "lowball counts the play only simulated (--pegging simulated): the pegging "
            "table is the plain game's"
        )
    if throw_fives and pegging_choice(pegging) == "table":
        raise UsageError(
            "throw fives counts the play only simulated (--pegging simulated): the pegging "
            "table is the plain game's"
        )
    uses_model = opponent == "expert" or (opponent == "sampled" and policy == "expert")
    variant = model_variant(throw_fives, lowball) if uses_model else None
    check_choice("policy", policy, SAMPLED_POLICIES)
    pegging = pegging_choice(pegging)
    if opponent == "sampled":
        samples = SAMPLES.check(samples)
        seed = None if seed is None else SEED.check(seed)
    hand6 = parse_hand6(hand)
    used: ExpertModel | None = None
    if opponent == "sampled":
        used = resolve_model(model, pegging, variant) if policy == "expert" else None
        scores = one_hand.hand_scores(hand6)
        heels = one_hand.heels_expectation(hand6)
        cribs, ses = sampled_cribs(
            hand6, samples, seed, policy, used, on_progress, throw_fives, lowball
        )
    else:  # the exact models
        used = resolve_model(model, pegging, variant) if opponent == "expert" else None
        scores, cribs, heels = exact_values(hand6, used)
        ses = np.zeros_like(cribs)
    player = used
    if (throw_fives or lowball) and pegging != "none" and used is None:  # the play's
        player = load_model(kind=model_variant(throw_fives, lowball) or "classic")  # opponent
    peg = play_values(hand6, pegging, player, roles) if pegging != "none" else None
    zero = legal = None
    if throw_fives and opponent == "random":
        from crib_analyze.discard.throw_fives import throw_fives_values

        cribs, zero, legal = throw_fives_values(hand6, penalty != "none")
    elif throw_fives:  # the expert that obeys the rule: its crib as any expert's
        from crib_analyze.discard.throw_fives import legal_throws

        legal = legal_throws(hand6)
    if penalty != "none" and zero is None:
        from crib_analyze.discard.penalties import crib_zero_chances

        zero = crib_zero_chances(hand6, opponent, used)
    return DiscardAnalysis(
        hand=tuple(int(c) for c in hand6),
        discards=hand6[DISCARDS],
        keeps=hand6[KEEPS],
        hand_scores=scores,
        dealer_crib=cribs[Seat.DEALER],
        dealer_crib_se=ses[Seat.DEALER],
        pone_crib=cribs[Seat.PONE],
        pone_crib_se=ses[Seat.PONE],
        heels=float(heels),
        opponent=opponent,
        samples=samples if opponent == "sampled" else 0,
        seed=seed if opponent == "sampled" else None,
        policy=policy if opponent == "sampled" else None,
        model=used.describe() if used is not None else None,
        peg_own=peg[0] if peg else None,
        peg_opp=peg[1] if peg else None,
        peg_se=peg[2] if peg else None,
        pegging=peg[3] if peg else None,
        penalty=penalty,
        p_crib_zero=zero,
        legal=legal,
        lowball=lowball,
    )


_EXACT_HANDS = [0]  # hands this process has valued exactly


def prefer_kernels() -> None:
    """Value every later hand by the kernels (see :func:`exact_values`)."""
    _EXACT_HANDS[0] = max(_EXACT_HANDS[0], NUMPY_HANDS)


def exact_values(
    hand6: np.ndarray, model: ExpertModel | None
) -> tuple[np.ndarray, np.ndarray, float]:
    """(scores (15, 46), cribs (2, 15) by seat, heels) of six cards against the random
    (``model`` None) or the expert opponent: the first :data:`NUMPY_HANDS` hands of a
    process with numpy alone (no compile: one hand answers at once), later ones by the
    kernels (fast once loaded); both give the same numbers to the last bit."""
    _EXACT_HANDS[0] += 1
    if _EXACT_HANDS[0] <= NUMPY_HANDS:
        values = one_hand.hand_values(hand6, model.one_hand_policies() if model else None)
        return values.scores, values.cribs, values.heels
    from crib_analyze.crib import one_hand_kernels as ohk  # compiles: not at import
    from crib_analyze.scoring.show_kernels import known_rank_table, remember_rank_table

    if model is not None:
        pi, suited = model.opponent_policy_arrays()
        compiled = model.known_compiled_policies()
    else:
        pi = suited = np.empty((2, 0, N_DISCARDS))
        compiled = ExpertModel.empty_compiled()
    table, scores, cribs, heels, *built = ohk.hand_values(
        known_rank_table(), hand6, ohk.EXPERT if model is not None else ohk.RANDOM,
        pi, suited, *compiled,
    )  # fmt: skip
    remember_rank_table(table)
    if model is not None:
        model.remember_compiled(tuple(built))
    return scores, cribs, float(heels)


def _joker_analysis(
    hand: CardsLike,
    jokers: int,
    penalty: str,
    lowball: bool,
    throw_fives: bool = False,
    pegging: str = "none",
    roles: tuple[str, ...] = ROLES,
    on_progress: Callable[[int, int], None] | None = None,
) -> DiscardAnalysis:
    """The jokers variant's analysis: exact over the 53- or 54-card pack (under
    ``throw_fives`` the legal throws, the random opponent obeying the rule: every
    completion weighed by its fives; the crib by
    :func:`~crib_analyze.crib.hand_cribs.random_cribs`); with ``pegging`` "simulated"
    the play of these cards for each of ``roles`` (:func:`joker_play_values`,
    ``on_progress(done, total)`` after each deal)."""
    from crib_analyze.crib.hand_cribs import random_cribs
    from crib_analyze.rules import game as rules_of
    from crib_analyze.scoring import joker_kernels as jk
    from crib_analyze.scoring.jokers import parse_with_jokers

    rules = rules_of(jokers=jokers, lowball=lowball, throw_fives=throw_fives)
    hand6 = np.array(parse_with_jokers(hand, jokers), np.int64)
    if len(hand6) != 6:
        raise CardError(f"expected 6 cards, got {len(hand6)}")
    scores = jk.joker_kept_scores(hand6, KEEPS, jokers)
    crib, zero_chance = random_cribs(rules, 0, hand6, DISCARDS)
    legal = None
    if throw_fives:
        from crib_analyze.crib.throw_fives_rule import legal_throws_of

        legal = legal_throws_of(hand6[None, :])[0]
    zero = np.stack([zero_chance] * 2) if penalty != "none" else None
    peg = joker_play_values(hand6, rules, roles, on_progress) if pegging == "simulated" else None
    unseen = 52 + jokers - 6
    wild = sum(1 for c in range(52, 52 + jokers) if c not in hand6)  # a joker cut: heels
    jacks = sum(1 for c in range(40, 44) if c not in hand6)
    return DiscardAnalysis(
        hand=tuple(int(c) for c in hand6),
        discards=hand6[DISCARDS],
        keeps=hand6[KEEPS],
        hand_scores=scores,
        dealer_crib=crib,
        dealer_crib_se=np.zeros_like(crib),
        pone_crib=crib,
        pone_crib_se=np.zeros_like(crib),
        heels=HEELS_POINTS * (jacks + wild) / unseen,
        opponent="random",
        samples=0,
        seed=None,
        penalty=penalty,
        p_crib_zero=zero,
        legal=legal,
        lowball=lowball,
        jokers=jokers,
        peg_own=peg[0] if peg else None,
        peg_opp=peg[1] if peg else None,
        peg_se=peg[2] if peg else None,
        pegging=peg[3] if peg else None,
    )


def joker_play_values(
    hand6: np.ndarray,
    rules: Rules,
    roles: tuple[str, ...] = ROLES,
    on_progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(peg_own, peg_opp, peg_se, description) (2, 15) each, by the holder's seat: the
    play of ``hand6`` (a joker 52 or 53) in a pack with ``rules.jokers`` jokers,
    simulated for each of ``roles`` (:mod:`crib_analyze.discard.variant_play`); a role
    not asked is not counted (NaN: the pegging table is the plain game's)."""
    from crib_analyze.discard.variant_play import joker_hand_pegging, opponent_tables

    deals = SIMULATED_DEALS.default
    own, opp, se = (np.full((2, N_DISCARDS), np.nan) for _ in range(3))
    for k, role in enumerate(roles):
        seat = Seat.of(role)

        def done(n: int, k: int = k) -> None:
            if on_progress is not None:
                on_progress(k * deals + n, len(roles) * deals)

        own[seat], opp[seat], se[seat] = joker_hand_pegging(hand6, seat, deals, rules, 0, done)
    thrower = opponent_tables(rules)[2]
    said = (
        f"the play of these cards simulated by the {DEFAULT_PLAY_POLICY} ({deals:,} deals "
        f"shared by the 15 throws; the opponent dealt six of the {52 + rules.jokers}-card "
        f"pack at random, throwing by {thrower}; a joker laid as the rank that serves "
        "best" + ("; both players laying for the fewest points" if rules.lowball else "")
        + "; peg ± its s.e.)"
    )  # fmt: skip
    if set(roles) != set(ROLES):
        said += f"; as {next(r for r in ROLES if r not in roles)}, not counted"
    return own, opp, se, said


def play_values(
    hand6: np.ndarray, pegging: str, model: ExpertModel | None, roles: tuple[str, ...] = ROLES
) -> tuple[np.ndarray, np.ndarray, np.ndarray, str]:
    """(peg_own, peg_opp, peg_se, description): (2, 15) each, by the holder's seat. With
    ``pegging`` "simulated" the play of these very cards is simulated for each of
    ``roles`` by the solver (:data:`~crib_analyze.settings.SIMULATED_DEALS` deals shared
    by the 15 throws); a seat not asked for keeps the pegging table's values."""
    table = packaged_pegging_table()
    rows = rows_of(hand6[KEEPS] >> 2)  # (15,)
    own, opp = table.peg_own[:, rows].copy(), table.peg_opp[:, rows].copy()
    se = table.peg_se[:, rows].copy()
    said = f"pegging table ({table.provenance.get('policy', '?')} play, by kept ranks)"
    if pegging_choice(pegging) != "simulated":
        return own, opp, se, said
    m = model or load_model()
    deals = SIMULATED_DEALS.default
    variant = m.provenance.get("variant")
    fives, lowball = variant_obeys(variant)
    for role in roles:
        seat = Seat.of(role)
        if lowball:  # the solver's lowball form, each player for its fewest
            from crib_analyze.discard.variant_play import lowball_deals, solved_pegging

            dealt, starters, _ = lowball_deals(hand6, seat, deals, m, throw_fives=fives)
            own[seat], opp[seat], se[seat] = solved_pegging(dealt, starters, seat, True, 0, 0)
            continue
        from crib_analyze.play.pegging_values import hand_pegging  # the play's kernels

        part = hand_pegging(hand6, seat, deals=deals, policy=DEFAULT_PLAY_POLICY, model=m)
        own[seat], opp[seat], se[seat] = part.peg_own, part.peg_opp, part.peg_se
    by_rule = fives or lowball
    expert = {
        "throw-fives": "the throw-fives expert",
        "lowball": "the lowball expert",
        "throw-fives-lowball": "the expert of throw fives and lowball",
    }.get(variant or "")
    simulated = (
        f"the play of these cards simulated by the {DEFAULT_PLAY_POLICY} ({deals:,} deals "
        "shared by the 15 throws"
        + (f"; the opponent dealt at random, throwing its fives by {expert}"
           if fives else f"; the opponent dealt at random, throwing by {expert}"
           if lowball else "")
        + ("; both players laying for the fewest points" if lowball else "")
        + "; peg ± its s.e.)"
    )  # fmt: skip
    if set(roles) == set(ROLES):
        return own, opp, se, simulated
    other = next(r for r in ROLES if r not in roles)
    if by_rule:  # the pegging table is the plain game's: the other role's play unknown
        for values in (own, opp, se):
            values[Seat.of(other)] = np.nan
        return own, opp, se, f"{simulated}; as {other}, not counted"
    return own, opp, se, f"{simulated}; as {other}, the {said}"


@interrupts.deferred()  # Ctrl-C waits for the next check: never inside a kernel
def sampled_cribs(
    hand6: np.ndarray,
    samples: int,
    seed: int | None,
    policy: str,
    model: ExpertModel | None,
    on_progress: Callable[[int, int], None] | None = None,
    throw_fives: bool = False,
    lowball: bool = False,
) -> tuple[np.ndarray, np.ndarray]:
    """(2, 15) crib means and standard errors, by our seat, over ``samples`` opponent
    hands drawn in batches from one seeded stream (the same numbers for any batch
    size); the opponent throws under the variants given (:func:`policy_throws`)."""
    from crib_analyze.crib import random_crib_kernels as rck  # compiles: not at import
    from crib_analyze.scoring.show_kernels import rank_table

    table = rank_table()
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), hand6)
    rng = np.random.default_rng(seed)
    total = np.zeros((2, N_DISCARDS))
    total_sq = np.zeros((2, N_DISCARDS))
    done = 0
    while done < samples:
        interrupts.check()
        n = min(SAMPLE_BATCH, samples - done)
        opponents = _draw(rng, unseen, n)
        throws = policy_throws(opponents, policy, model, throw_fives, lowball)
        per_sample = rck.crib_sampled(table, hand6, opponents, throws)
        total += per_sample.sum(axis=1)
        total_sq += (per_sample**2).sum(axis=1)
        done += n
        if on_progress is not None:
            on_progress(done, samples)
    mean = total / samples
    if samples == 1:
        return mean, np.full_like(mean, np.nan)
    var = np.maximum(total_sq - samples * mean**2, 0.0) / (samples - 1)
    return mean, np.sqrt(var / samples)


def draw_opponents(hand6: np.ndarray, samples: int, seed: int | None) -> np.ndarray:
    """(samples, 6) opponent hands drawn uniformly from the 46 unseen cards (the stream
    :func:`sampled_cribs` uses)."""
    unseen = np.setdiff1d(np.arange(52, dtype=np.int64), hand6)
    return _draw(np.random.default_rng(seed), unseen, samples)


def _draw(rng: np.random.Generator, unseen: np.ndarray, n: int) -> np.ndarray:
    """``n`` random 6-card subsets of ``unseen``: the next draws of ``rng``'s stream."""
    return unseen[np.argsort(rng.random((n, unseen.size)), axis=1)[:, :6]]


def policy_throws(
    opponents: np.ndarray,
    policy: str,
    model: ExpertModel | None,
    throw_fives: bool = False,
    lowball: bool = False,
) -> np.ndarray:
    """(n, 2) discard index each opponent hand throws, by the seat it throws from. Under
    ``throw_fives`` only the throws the rule allows, under ``lowball`` the fewest points:
    the random policy then best-responds to the plain random crib, the expert policy to
    its variant model's throws (``model``)."""
    from crib_analyze.artifacts.expert_model import ThrowModel
    from crib_analyze.crib import random_crib_kernels as rck  # compiles: not at import
    from crib_analyze.crib import throw_model_kernels as tmk
    from crib_analyze.scoring.show_kernels import rank_table

    table = rank_table()
    variant = throw_fives or lowball
    if policy == "random" and not variant:
        return np.asarray(rck.random_policy_throws(table, opponents))
    peg = np.zeros((len(opponents), 2, N_DISCARDS))
    if variant:
        if throw_fives:  # a throw the rule forbids is never chosen
            from crib_analyze.crib.throw_fives_rule import FORBIDDEN, legal_throws_of

            peg[~legal_throws_of(opponents)[:, None, :].repeat(2, axis=1)] = FORBIDDEN
        p = d = ThrowModel.random()
        if policy != "random":
            m = model or load_model(kind=model_variant(throw_fives, lowball) or "classic")
            p, d = m.pone_throws, m.dealer_throws
        aim = -1 if lowball else 1
        return np.asarray(
            tmk.expert_policy_throws(table, opponents, p.P, p.F, p.K, d.P, d.F, d.K, peg, aim)
        )
    m = model or load_model()
    p, d = m.pone_throws, m.dealer_throws
    if m.provenance.get("pegging"):  # the pegging-aware expert counts the play as well
        values = hands_pegging(packaged_pegging_table(), opponents)  # positions as given
        for seat in Seat:
            peg[:, seat] = values[seat.role]
    return np.asarray(tmk.expert_policy_throws(table, opponents, p.P, p.F, p.K, d.P, d.F, d.K, peg))


def best_discards(dealer_net: np.ndarray, pone_net: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(15,) flags of the best throws for each role, by the one tie rule."""
    dealer, pone = np.asarray(dealer_net), np.asarray(pone_net)
    return dealer >= dealer.max() - TIE_TOLERANCE, pone >= pone.max() - TIE_TOLERANCE


def rank_order(keys: Sequence[np.ndarray]) -> np.ndarray:
    """Row order, best first, by ``keys`` (largest first): values within
    ``TIE_TOLERANCE`` count as equal and fall to the next key, then to discard order.

    The one tie rule of :mod:`crib_analyze.crib.hand_kernels`: with one key, the first
    row is :func:`~crib_analyze.crib.hand_kernels.first_best`.
    """
    columns = [np.asarray(k, dtype=np.float64) for k in keys]
    tol = TIE_TOLERANCE

    def compare(i: int, j: int) -> int:
        for k in columns:
            a, b = k[i], k[j]
            if a != b and abs(a - b) > tol:  # (two infinities, no throw, are equal)
                return -1 if a > b else 1
        return i - j

    n = len(columns[0])
    return np.array(sorted(range(n), key=cmp_to_key(compare)), dtype=np.int64)
