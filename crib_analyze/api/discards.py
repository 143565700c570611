"""The public API of discards: rank a hand's 15 throws, their distributions, a plot.

Every rule about which arguments go together is checked here, once, so the command
line and a Python caller meet the same one-line :class:`UsageError`.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, cast

from crib_analyze.api.requests import DiscardRequest
from crib_analyze.cards import CardsLike, format_cards
from crib_analyze.discard.engine import ModelLike, analyze_hand, parse_hand6, resolve_model
from crib_analyze.discard.ranking import discard_rows, distribution_rows
from crib_analyze.errors import UsageError
from crib_analyze.position import parse_score
from crib_analyze.results import Rows
from crib_analyze.rules import Rules
from crib_analyze.settings import (
    DEFAULT_GOAL,
    DEFAULT_OPPONENT,
    DEFAULT_PEGGING,
    DEFAULT_SCORING,
    POSITION_SAMPLES,
    ROLES,
    SAMPLES,
    SEED,
    GameOthers,
    Goal,
    Opponent,
    Penalty,
    Role,
    SampledPolicy,
    Scoring,
    SortKey,
)

if TYPE_CHECKING:  # pandas loads only when a DataFrame is asked for
    import pandas as pd

    from crib_analyze.board.throws import PositionThrows
    from crib_analyze.discard.trainer import Quiz


def analyze(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent | None = None,
    samples: int = SAMPLES.default,
    seed: int | None = SEED.default,
    need: int | None = None,
    sort: SortKey | None = None,
    policy: SampledPolicy | None = None,
    model: ModelLike = None,
    on_progress: Callable[[int, int], None] | None = None,
    top: int | None = None,
    pegging: str | bool | None = None,
    score: str | tuple[int, int] | None = None,
    goal: Goal | None = None,
    scoring: Scoring | None = None,
    position_samples: int | None = None,
    penalty: Penalty = "none",
    throw_fives: bool = False,
    lowball: bool = False,
    jokers: int = 0,
    game: str | Rules = "standard",
    seat: str | int | None = None,
    others: GameOthers | None = None,
) -> pd.DataFrame:
    """Rank the 15 discards of a six-card hand; one row per discard, best first.

    ``role`` is "dealer", "pone" or None (both roles' nets, ordered by the dealer's).
    ``opponent`` is "expert" (the role-specific expert policy, exact combination),
    "random" (exact) or "sampled" (``samples`` opponent hands drawn with ``seed``,
    throwing by ``policy``, "random" (the default) or "expert"; cribs carry standard
    errors; ``on_progress(done, total)`` is called as batches finish). ``model`` is
    the expert model (an ExpertModel or a file; default: ``$CRIB_ANALYZE_MODEL`` or the
    packaged one), for the expert opponent or the expert policy only;
    ``df.attrs["model"]`` names the one used. ``need`` adds ``p_need``, the exact
    probability that the hand alone scores at least that many points. ``top`` keeps
    the best N (with no role, the best N of each role). ``pegging`` counts the play:
    "table" (default: the shipped pegging values), "simulated" (the play of these
    cards by the solver, for ``role`` or both; "exact" is its old name) or "none" (hand
    and crib only, the classic ranking). By default rows are
    ranked by the role's ``total`` (net + pegging net), or by ``net`` without the
    play. Columns are documented in :mod:`crib_analyze.discard.ranking`; ``loss`` is
    the points behind the role's best throw.

    ``score`` (mine, theirs), e.g. ``(110, 115)`` or "110-115", values each throw from
    that position on the board (``role`` required): ``position_samples`` deals
    (default 4,000) on common random numbers (seeded by ``seed``), their play drawn
    from the solver's pegging of each keep where the shipped pegging table has its
    distributions (else played by lookahead; ``attrs["position_play"]`` says which),
    then the board table. It adds ``p_win``, ``p_win_se``, ``p_skunk``, ``p_skunked``,
    ``match_points`` (under ``scoring``, default tournament) and ``points_rank``, and
    ranks by ``goal``: "win" (default) or "match".

    ``penalty`` plays a variant that punishes a show of nothing: "zero" (the opponent
    scores 1) or "back-ten" (its owner loses 10). Each throw's exact chance of a zero
    hand (``p_hand_zero``) and crib (``p_crib_zero``) and the points the rule moves
    (``penalty``) are added, the penalty in the net (expert or random opponent; not
    with ``score``).

    ``throw_fives`` plays the variant where every five held must go to the crib: only
    the legal throws are ranked (``forced`` names the fives), against the random
    opponent following the rule too, exactly, without the play (``opponent="random"``,
    ``pegging="none"``). ``lowball`` (loser's cribbage) ranks the fewest points best:
    the mirror of the points ranking, against the random opponent, without the play.
    ``jokers`` (1 or 2) plays a 53- or 54-card pack: the hand may hold ``JK``, and every
    joker (in the hand, cut, or in the crib) counts at its best; random opponent,
    without the play (``pegging="simulated"``: the play of these cards by the solver, a
    joker laid as the rank that serves its holder best).

    ``game`` (a name of ``crib-analyze games`` or its :class:`~crib_analyze.rules.Rules`)
    with a ``seat`` ranks every way that seat can split the cards it is dealt, as
    ``analyze_seat`` (``others``, ``samples``, ``seed``, ``top``; ``pegging="simulated"``
    plays the best splits out and ranks them by ``total``); in a game of two
    sides (which has a board), ``score`` (your side's first) ranks them by the chance
    of winning instead (``p_win``, ``p_win_se``, ``gap_se``; ``position_samples`` deals
    played out each, :mod:`crib_analyze.board.table_throws`). The standard game's other
    options are refused there (:class:`~crib_analyze.api.requests.DiscardRequest`).

    >>> df = analyze("5H 6S 4D JC QH 5C", role="dealer", opponent="random")
    >>> df.loc[0, "discard"], round(float(df.loc[0, "crib_mean"]), 6)
    ('JC QH', 4.711287)
    >>> analyze("5H 6S 4D JC QH 5C", role="pone").loc[0, "discard"]  # expert opponent
    'JC QH'
    >>> analyze("5H 6S 4D JC QH", game="three", seat="dealer").throw.iloc[0]
    'JC'
    """
    from crib_analyze.frames import rows_frame

    rows = analyze_rows(
        hand, role, opponent, samples, seed, need, sort, policy, model, on_progress, top,
        pegging=pegging, score=score, goal=goal, scoring=scoring,
        position_samples=position_samples, penalty=penalty, throw_fives=throw_fives,
        lowball=lowball, jokers=jokers, game=game, seat=seat, others=others,
    )  # fmt: skip
    return rows_frame(rows)


def analyze_rows(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent | None = None,
    samples: int = SAMPLES.default,
    seed: int | None = SEED.default,
    need: int | None = None,
    sort: SortKey | None = None,
    policy: SampledPolicy | None = None,
    model: ModelLike = None,
    on_progress: Callable[[int, int], None] | None = None,
    top: int | None = None,
    distribution: bool = False,
    pegging: str | bool | None = None,
    score: str | tuple[int, int] | None = None,
    goal: Goal | None = None,
    scoring: Scoring | None = None,
    position_samples: int | None = None,
    penalty: Penalty = "none",
    throw_fives: bool = False,
    lowball: bool = False,
    jokers: int = 0,
    game: str | Rules = "standard",
    seat: str | int | None = None,
    others: GameOthers | None = None,
) -> Rows:
    """:func:`analyze` without pandas: the same columns as numpy arrays
    (:class:`~crib_analyze.results.Rows`), for batch work and quick start-up.
    With ``distribution``, the rows of :func:`hand_distribution` instead.

    >>> rows = analyze_rows("5H 6S 4D JC QH 5C", role="dealer", opponent="random")
    >>> len(rows), rows["discard"][0], rows["keep"][0]
    (15, 'JC QH', '5H 6S 4D 5C')
    """
    request = DiscardRequest(
        role=role, opponent=opponent, policy=policy, samples=samples, seed=seed, model=model,
        need=need, sort=sort, top=top, distribution=distribution or None, pegging=pegging,
        score=score, goal=goal, scoring=scoring, position_samples=position_samples,
        game=game, seat=seat, others=others, penalty=penalty, throw_fives=throw_fives,
        lowball=lowball, jokers=jokers,
    )  # fmt: skip
    return discard_rows_for(hand, request.resolve(), on_progress)


def discard_rows_for(
    hand: CardsLike, request: DiscardRequest, on_progress: Callable[[int, int], None] | None = None
) -> Rows:
    """The throws of ``hand`` as a resolved ``request`` asks (see :func:`analyze`)."""
    r = request.resolve()
    if r.engine == "any-game" and r.score is not None:
        from crib_analyze.board.table_throws import score_seat, score_throws_rows
        from crib_analyze.verdicts import game_throws_verdict

        assert r.seat is not None and r.position_samples is not None and r.seed is not None
        scored = score_seat(
            hand, cast(Rules, r.game), r.seat, cast(tuple[int, ...], r.score),
            r.position_samples, r.seed,
        )  # fmt: skip
        rows = score_throws_rows(scored)
        rows = rows.with_verdict(game_throws_verdict(rows))
        return rows if r.top is None else rows.take(list(range(min(r.top, len(rows)))))
    if r.engine == "any-game":
        assert r.seat is not None and r.samples is not None and r.seed is not None
        others = cast(GameOthers, r.others)
        if r.distribution:
            from crib_analyze.discard.any_game import analyze_seat, game_distribution_rows

            rules = cast(Rules, r.game)
            _made_if_wanted(rules, others)
            return game_distribution_rows(
                analyze_seat(hand, rules, r.seat, others, r.samples, r.seed, r.need)
            )
        rows = seat_rows(
            hand, r.game, r.seat, others, r.samples, r.seed, r.need,
            cast(str | None, r.pegging), on_progress,
        )  # fmt: skip
        return rows if r.top is None else rows.take(list(range(min(r.top, len(rows)))))
    role = cast(Role | None, r.role)
    position = None
    if r.score is not None:
        position = _position(
            hand, role, cast("str | tuple[int, int]", r.score), r.goal or DEFAULT_GOAL,
            r.scoring or DEFAULT_SCORING,
            POSITION_SAMPLES.default if r.position_samples is None else r.position_samples,
            SEED.default if r.seed is None else r.seed, r.model, cast(str | bool, r.pegging),
        )  # fmt: skip
    analysis = analyze_hand(
        hand,
        opponent=cast(Opponent, r.opponent),
        samples=cast(int, r.samples),
        seed=r.seed,
        policy=cast(SampledPolicy, r.policy or "random"),
        model=r.model,
        on_progress=on_progress,
        pegging=cast(str | bool, r.pegging),
        penalty=cast(Penalty, r.penalty),
        throw_fives=bool(r.throw_fives),
        lowball=bool(r.lowball),
        jokers=int(r.jokers or 0),
        roles=ROLES if role is None else (role,),
    )
    ranked = discard_rows(
        analysis, role=role, need=r.need, sort=cast(SortKey | None, r.sort), top=r.top,
        position=position, goal=r.goal or DEFAULT_GOAL,
    )  # fmt: skip
    return distribution_rows(analysis, ranked) if r.distribution else ranked


def check_discard_options(
    role: str | None,
    opponent: str | None,
    policy: str | None,
    model: ModelLike,
    score: object = None,
    goal: str | None = None,
    scoring: str | None = None,
    position_samples: int | None = None,
) -> None:
    """Which discard options go together, as one-line UsageErrors (the checks of
    :meth:`~crib_analyze.api.requests.DiscardRequest.resolve`)."""
    DiscardRequest(
        role=role, opponent=opponent, policy=policy, model=model,
        score=cast("str | tuple[int, int] | None", score), goal=goal, scoring=scoring,
        position_samples=position_samples,
    ).resolve()  # fmt: skip


def _position(
    hand: CardsLike,
    role: Role | None,
    score: str | tuple[int, int],
    goal: str,
    scoring: str,
    samples: int,
    seed: int,
    model: ModelLike,
    pegging: str | bool,
) -> PositionThrows:
    from crib_analyze.board.throws import position_throws

    assert role is not None  # checked by DiscardRequest.resolve
    pair = parse_score(score)
    return position_throws(
        parse_hand6(hand), role, pair, scoring=scoring, samples=samples,
        seed=seed, model=resolve_model(model, pegging),
    )  # fmt: skip


def hand_distribution(
    hand: CardsLike,
    role: Role | None = None,
    opponent: Opponent | None = None,
    model: ModelLike = None,
    game: str | Rules = "standard",
    seat: str | int | None = None,
    others: GameOthers | None = None,
) -> pd.DataFrame:
    """The exact distribution of each kept hand's score over the 46 unseen starters:
    one row per (throw, points 0..29) with ``starters`` (of 46), ``probability`` and
    ``p_at_least`` = P(hand >= points); throws in :func:`analyze`'s order for ``role``.
    With ``game`` and ``seat``, a seat of another game: its splits in order, over the
    starters it cannot see (``others`` as :func:`analyze` takes it).

    >>> d = hand_distribution("5H 6S 4D JC QH 5C", role="dealer")
    >>> keep = d.query("discard == 'JC QH'")  # 4 5 5 6: 12 points with any starter
    >>> int(keep.query("points < 12")["starters"].sum()), int(keep["starters"].sum())
    (0, 46)
    """
    from crib_analyze.frames import rows_frame

    return rows_frame(
        analyze_rows(
            hand,
            role=role,
            opponent=opponent,
            model=model,
            distribution=True,
            game=game,
            seat=seat,
            others=others,
        )
    )


def prefer_kernels() -> None:
    """Value every later hand of this process by the kernels (for a long-lived process,
    the page's server): a short run values its first hands with numpy alone, which
    answers at once without compiling; a server compiles (or loads) the kernels once at
    its start and is faster for every hand after."""
    from crib_analyze.discard.engine import prefer_kernels as prefer

    prefer()


def plot_discards(
    hand: CardsLike,
    path: str | os.PathLike[str],
    role: Role | None = None,
    opponent: Opponent = DEFAULT_OPPONENT,
    samples: int = SAMPLES.default,
    seed: int | None = SEED.default,
    policy: SampledPolicy | None = None,
    model: ModelLike = None,
    top: int = 3,
    pegging: str | bool = DEFAULT_PEGGING,
    request: DiscardRequest | None = None,
) -> Path:
    """Draw the hand-score distributions of the best ``top`` throws of each role (or of
    ``role``) to ``path`` (.png or .svg); needs the ``plot`` extra (matplotlib). A
    ``request`` gives the role, opponent, samples, seed, policy, model and pegging in
    place of those keywords."""
    from crib_analyze.plots import check_plot, discard_plot

    check_plot(path)
    if request is None:
        request = DiscardRequest(role=role, opponent=opponent, samples=samples, seed=seed,
                                 policy=policy, model=model, pegging=pegging)  # fmt: skip
    r = request.resolve()
    role = cast(Role | None, r.role)
    opponent, policy = cast(Opponent, r.opponent), cast(SampledPolicy | None, r.policy)
    samples, seed, model, pegging = cast(int, r.samples), r.seed, r.model, cast(str, r.pegging)
    analysis = analyze_hand(
        hand,
        opponent=opponent,
        samples=samples,
        seed=seed,
        policy=policy or "random",
        model=model,
        pegging=pegging,
    )
    by_role: dict[str, Rows] = {
        r: distribution_rows(analysis, discard_rows(analysis, role=r, top=top))
        for r in ([role] if role else list(ROLES))
    }
    described = {
        "expert": f"expert, {analysis.model}",
        "random": "random (exact)",
        "sampled": f"sampled, {analysis.samples:,} hands, {analysis.policy} policy",
    }[analysis.opponent]
    return discard_plot(by_role, format_cards(analysis.hand), described, path)


def start_quiz(
    seed: int | None = None,
    role: str = "random",
    opponent: str = DEFAULT_OPPONENT,
    model: ModelLike = None,
) -> Quiz:
    """A discard trainer (:class:`~crib_analyze.discard.trainer.Quiz`): deal hands of a
    role ("dealer", "pone" or "random": a fresh one each hand) from ``seed``, grade
    throws against the ``opponent`` model ("expert" or "random") and keep the tally.

    >>> quiz = start_quiz(seed=1, role="pone", opponent="random")
    >>> deal = quiz.deal()
    >>> quiz.grade(deal, list(deal.hand[:2])).loss >= 0
    True
    """
    from crib_analyze.discard.trainer import Quiz

    return Quiz(seed=seed, role=role, opponent=opponent, model=model)


def analyze_seat(
    hand: CardsLike,
    game: str | Rules,
    seat: str | int,
    others: GameOthers | None = None,
    samples: int = SAMPLES.default,
    seed: int = SEED.default,
    pegging: str = "none",
) -> pd.DataFrame:
    """Every way for ``seat`` of ``game`` (a name of :func:`games`, or a
    :class:`~crib_analyze.rules.Rules`) to split the cards it is
    dealt into a kept hand, a throw to the crib and, in Canadian doubles, four cards
    passed to its partner, best first by ``net``: the kept hand's mean show plus the
    partner's from the passed cards, plus the crib's mean from the throw when the crib
    is the seat's side's, minus it when an opponent's, over every starter. The crib's
    other cards (the other seats' throws, any dealt from the pack) follow ``others``:
    "expert" (the default where the game has a model) deals the other seats at random
    and each throws by the game's expert model, "hand" by the hand policy (their kept
    hand's mean, the crib's by rank with random cards): the crib's mean is sampled over
    ``samples`` deals (``crib_se`` its standard error), the same deals for every split;
    "random" (the default elsewhere) takes them as random unseen cards, exactly.
    ``pegging="simulated"`` counts the play: the best 15 splits by points played in the
    same deals by the solver (:mod:`crib_analyze.board.split_play`), ranked by
    ``total`` = net + ``peg`` (your side's points in the play less the other sides'
    mean, ``peg_se`` its standard error).

    >>> df = analyze_seat("5H 6S 4D JC QH", "three", "dealer", others="random")
    >>> df[["keep", "throw"]].iloc[0].tolist(), round(float(df.net.iloc[0]), 3)
    (['5H 6S 4D QH', 'JC'], 14.368)
    """
    from crib_analyze.frames import rows_frame

    return rows_frame(seat_rows(hand, game, seat, others, samples, seed, pegging=pegging))


def seat_rows(
    hand: CardsLike,
    game: str | Rules,
    seat: str | int,
    others: GameOthers | None = None,
    samples: int = SAMPLES.default,
    seed: int = SEED.default,
    need: int | None = None,
    pegging: str | None = None,
    on_progress: Callable[[int, int], None] | None = None,
) -> Rows:
    """:func:`analyze_seat` without pandas (:class:`~crib_analyze.results.Rows`)."""
    from crib_analyze.discard.any_game import analyze_seat as run
    from crib_analyze.discard.any_game import dealt_cards, game_throws_rows
    from crib_analyze.rules import game as rules_game
    from crib_analyze.verdicts import game_throws_verdict

    rules = game if isinstance(game, Rules) else rules_game(game)
    _made_if_wanted(rules, others)
    throws = run(hand, rules, seat, others, samples, seed, need)
    if pegging in ("simulated", "exact"):  # the play of the best splits, simulated
        from crib_analyze.board.split_play import with_play

        cards = [int(c) for c in dealt_cards(hand, rules.dealt[throws.seat], rules.jokers)]
        throws = with_play(throws, cards, seed=seed, on_progress=on_progress)
    elif pegging not in (None, "none"):
        raise UsageError("a seat's play is counted simulated (`pegging` simulated) or not")
    rows = game_throws_rows(throws)
    return rows.with_verdict(game_throws_verdict(rows))


def _made_if_wanted(rules: Rules, others: str | None) -> None:
    """The other seats' expert model of ``rules`` made now if they throw by it and no
    file holds one (once: it is kept in the data dir)."""
    if others == "expert":
        from crib_analyze.expert.game_models import expert_game_model

        expert_game_model(rules)


def auction(
    hand: CardsLike,
    opponent: Opponent = DEFAULT_OPPONENT,
    pegging: str | bool = DEFAULT_PEGGING,
    score: str | tuple[int, int] | None = None,
    model: ModelLike = None,
    position_samples: int | None = None,
    seed: int = SEED.default,
) -> pd.DataFrame:
    """The auction variant: what owning the crib is worth to you with ``hand``. Two
    rows, ``part`` "owner" (your best throw owning the crib, as the dealer) and "other"
    (not owning it, as the pone), with ``discard``, ``keep``, ``total``, ``worth`` (the
    difference in points) and ``break_even``, the bid at which winning the crib and
    letting the opponent win it are worth the same: half the worth, since the winner
    pays its bid and the other pays nothing. From a ``score`` (mine, theirs) the bid is
    in chances of winning: ``bid`` is the largest bid at which owning the crib from
    mine - bid wins at least as often as the opponent owning it from theirs - bid,
    ``p_win`` each part's chance at that bid, and ``attrs["p_owner"]`` and
    ``attrs["p_other"]`` the chances at each bid tried. The opponent is modelled as in
    :func:`analyze`.

    >>> df = auction("5H 6S 4D JC QH 5C", opponent="random", pegging="none")
    >>> df.part.tolist(), round(float(df.worth[0]), 3), round(float(df.break_even[0]), 3)
    (['owner', 'other'], 9.553, 4.777)
    """
    from crib_analyze.frames import rows_frame

    return rows_frame(auction_rows(hand, opponent, pegging, score, model, position_samples, seed))


def auction_rows(
    hand: CardsLike,
    opponent: Opponent = DEFAULT_OPPONENT,
    pegging: str | bool = DEFAULT_PEGGING,
    score: str | tuple[int, int] | None = None,
    model: ModelLike = None,
    position_samples: int | None = None,
    seed: int = SEED.default,
) -> Rows:
    """:func:`auction` without pandas (:class:`~crib_analyze.results.Rows`)."""
    from crib_analyze.discard.auction import auction_value
    from crib_analyze.discard.auction_meta import AuctionMeta

    mine_theirs = parse_score(score) if score is not None else None

    def rank(role: str, at: tuple[int, int] | None) -> Rows:
        return analyze_rows(
            hand, role=role, opponent=opponent, pegging=pegging, model=model,  # type: ignore[arg-type]
            score=at, position_samples=position_samples if at else None, seed=seed,
        )  # fmt: skip

    value = auction_value(rank, mine_theirs)
    total = "total" if "total" in value.owner else "net"
    records = []
    for part, row in (("owner", value.owner), ("other", value.other)):
        record = {"part": part, "discard": row["discard"], "keep": row["keep"],
                  "total": float(row[total]), "worth": value.worth,
                  "break_even": value.break_even}  # fmt: skip
        if value.score is not None:
            bid = value.bid or 0
            chances = value.p_owner if part == "owner" else value.p_other
            record["p_win"] = chances[bid]
            record["bid"] = bid
        records.append(record)
    meta = AuctionMeta(
        worth=value.worth, break_even=value.break_even, score=value.score, bid=value.bid,
        p_owner=dict(value.p_owner), p_other=dict(value.p_other), opponent=str(opponent),
    )  # fmt: skip
    rows = Rows.of_records(records, meta=meta)
    return rows.with_verdict(meta.score_words or meta.verdict_words)
