"""The public API of the play: score a written play, advise the card to lay, the
pegging value of every keep, review a recorded game."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, cast

from crib_analyze.cards import CardLike, CardsLike
from crib_analyze.constants import SOLVER_MOST_HIDDEN
from crib_analyze.discard.engine import ModelLike, resolve_model
from crib_analyze.errors import UsageError
from crib_analyze.results import Rows
from crib_analyze.rules import Rules
from crib_analyze.rules import game as rules_game
from crib_analyze.settings import (
    DEFAULT_PLAY_POLICY,
    PLAY_POLICIES,
    PLAY_SAMPLES,
    POSITION_SAMPLES,
    ROLES,
    SEED,
    AnyGamePlayPolicy,
    PlayPolicy,
    Role,
    check_choice,
)
from crib_analyze.verdicts import game_advice_verdict, play_verdict

if TYPE_CHECKING:
    import pandas as pd

    from crib_analyze.game_review.record import Deal
    from crib_analyze.play.trainer import PlayGrade, PlayQuiz


def score_play(
    sequence: CardsLike,
    pone_hand: CardsLike | None = None,
    dealer_hand: CardsLike | None = None,
    game: str = "standard",
    hands: Sequence[CardsLike] | None = None,
    jokers: int = 0,
) -> pd.DataFrame:
    """Score a play given as cards and 'go' (the pone leads; a go may be left out where
    it is forced): one row per card or go with ``player``, ``card``, ``count``,
    ``points`` and ``reason``. With both hands (``pone_hand`` and ``dealer_hand``),
    every card and go is checked. Any
    ``game`` of :func:`games` (three players and more: the seat on the dealer's left
    leads, ``hands`` one per seat from there, the dealer's last). With ``jokers`` in
    the pack, a joker is written as the card it is laid as, ``JK=5H``, or ``JK`` for the
    card that pegs most there: it may repeat a card in play, so five and six of a kind
    (20 and 30) can be pegged.

    >>> score_play("10H 5S 7C 6D go 2H 6C 4S 4D").groupby("player").points.sum().to_dict()
    {'dealer': 6, 'pone': 3}
    >>> score_play("7H 7S 7D 5S 5H 8C 10D 10C go go 3D 10H 4C 9S", game="three").attrs["totals"]
    {'left': 0, 'middle': 10, 'dealer': 7}
    """
    from crib_analyze.frames import rows_frame

    return rows_frame(score_play_rows(sequence, pone_hand, dealer_hand, game, hands, jokers))


def score_play_rows(
    sequence: CardsLike,
    pone_hand: CardsLike | None = None,
    dealer_hand: CardsLike | None = None,
    game: str = "standard",
    hands: Sequence[CardsLike] | None = None,
    jokers: int = 0,
) -> Rows:
    """:func:`score_play` without pandas: the same columns as numpy arrays
    (:class:`~crib_analyze.results.Rows`), for quick start-up.

    >>> score_play_rows("10H 5S 7C 6D go 2H 6C 4S 4D").attrs["totals"]
    {'pone': 3, 'dealer': 6}
    """
    from crib_analyze.cards import split_tokens
    from crib_analyze.play.result_rows import scored_play_rows
    from crib_analyze.play.sequence import PlayError, score_sequence, score_table_sequence

    rules = rules_game(game)
    if not split_tokens(sequence):  # a play to score has at least its lead
        raise PlayError("no cards in the play: write the cards laid and go's, the lead first")
    given = pone_hand is not None or dealer_hand is not None
    if jokers:
        if given or hands is not None:
            raise UsageError("a play with jokers is scored without the hands")
        return scored_play_rows(score_table_sequence(sequence, rules, None, jokers), rules)
    if rules.is_standard and hands is None:
        return scored_play_rows(score_sequence(sequence, pone_hand, dealer_hand), rules)
    if given:
        raise UsageError(
            f"the pone's and the dealer's hands are the two seats of the standard game: "
            f"give {game} its hands one per seat, from the dealer's left"
        )
    return scored_play_rows(score_table_sequence(sequence, rules, hands), rules)


def advise_play(
    seat: str | int,
    hand: CardsLike,
    starter: CardLike | None = None,
    discards: CardsLike | None = None,
    played: CardsLike = (),
    policy: PlayPolicy | AnyGamePlayPolicy | None = None,
    samples: int = PLAY_SAMPLES.default,
    seed: int = SEED.default,
    model: ModelLike = None,
    game: str | Rules = "standard",
    score: str | tuple[int, ...] | None = None,
) -> pd.DataFrame:
    """Which card to lay now: for each card ``seat`` can lay, holding ``hand`` after the
    play ``played`` (cards and 'go', the dealer's left-hand player first: in the
    standard game, the pone), what the rest of the play is worth, best first.

    **The standard game**: ``seat`` is "dealer" or "pone"; the expected pegging
    differential (own - opponent's) for the rest of the play under ``policy`` (the
    solver unless given), with its standard error (``samples`` draws of the opponent's
    cards, shared by all candidates); ``policy_choice`` marks the card the policy lays.
    With ``score`` (yours-theirs now, the play so far counted; the starter needed) the
    cards are ranked by the chance of winning the game (``p_win``, and ``p_skunked``):
    for each hand the solver reads the opponent may hold, the card laid, the rest of the
    play solved, the shows, then the board table.

    **Any other game or variant** (``game``, a name of ``crib-analyze games`` or its
    :class:`~crib_analyze.rules.Rules`): ``seat`` any of its seats (or its number); the
    ``starter`` is needed; the seat's side's points in the rest of the play less the
    other sides' mean (``net``, with ``net_se``), over ``samples`` draws of the other
    seats' cards shared by every card, the rest played by ``policy`` ("lookahead"
    unless given, or "greedy"). "go" when nothing fits. ``model`` is the standard
    game's only.

    >>> df = advise_play("pone", "KC 2S", played="10H 5S 7C 6D", samples=200)
    >>> df["card"].tolist()  # at 28, only the 2 fits under 31
    ['2S']
    >>> df = advise_play("dealer", "5C 9D KS 2H", "4D", played="7H 3S", game="three",
    ...                  samples=200)
    >>> df.card.iloc[0]  # 7 + 3 = 10: the 5 makes 15
    '5C'
    >>> df = advise_play("dealer", "5C 9D KS 2H", "4D", played="7H", score="119-119")
    >>> df.card.iloc[0], bool(df.p_win.iloc[0] > df.p_win.iloc[1])  # the pone shows first
    ('KS', True)
    """
    from crib_analyze.frames import rows_frame

    rows = advise_play_rows(
        seat, hand, starter, discards, played, policy, samples, seed, model, game, score
    )
    return rows_frame(rows)


def advise_play_rows(
    seat: str | int,
    hand: CardsLike,
    starter: CardLike | None = None,
    discards: CardsLike | None = None,
    played: CardsLike = (),
    policy: PlayPolicy | AnyGamePlayPolicy | None = None,
    samples: int = PLAY_SAMPLES.default,
    seed: int = SEED.default,
    model: ModelLike = None,
    game: str | Rules = "standard",
    score: str | tuple[int, ...] | None = None,
) -> Rows:
    """:func:`advise_play` without pandas: the same columns as numpy arrays
    (:class:`~crib_analyze.results.Rows`), for quick start-up.

    >>> advise_play_rows("pone", "KC 2S", played="10H 5S 7C 6D", samples=200)["card"].tolist()
    ['2S']
    """
    from crib_analyze.api.capabilities import rules_of
    from crib_analyze.api.play_requests import PlayRequest
    from crib_analyze.play.result_rows import play_note

    r = PlayRequest(seat, policy, samples, seed, model, game, starter is not None, score).resolve()
    in_play = cast(Rules, r.game).variant_rules  # the rules asked that the play leaves out:
    penalty = [w for w in rules_of(game).variant_rules if w not in in_play]
    if r.engine == "any-game":
        from crib_analyze.play.result_rows import table_advice_rows
        from crib_analyze.play.table_advice import SAY_GO, TablePosition, advise_table

        rules = cast(Rules, r.game)
        # the default solver with five players: from the point the others hold few cards
        most_hidden = (
            None if policy is not None or rules.heads_up or r.score else SOLVER_MOST_HIDDEN
        )
        at_table = advise_table(
            rules, r.seat, hand, cast(CardLike, starter), played, discards or (), r.samples,
            r.seed, cast(AnyGamePlayPolicy, r.policy), most_hidden, r.score is not None,
        )  # fmt: skip
        notes = [play_note(p) for p in penalty]
        if at_table.policy != r.policy:
            notes.append(
                f"the solver lays once the other seats hold {SOLVER_MOST_HIDDEN} cards or "
                "fewer (with more, a draw's solve takes seconds); until then the lookahead"
            )
        rows = table_advice_rows(at_table).with_notes(*notes)
        if r.score is not None and at_table.codes and at_table.options != [SAY_GO]:
            from crib_analyze.board.table_play_odds import ranked_by_table_odds, table_play_odds

            at = cast(TablePosition, at_table.position)
            chances = table_play_odds(at, cast("tuple[int, ...]", r.score), r.samples, r.seed)
            rows = ranked_by_table_odds(rows, at_table.codes, chances)
        return rows.with_verdict(game_advice_verdict(rows))
    from crib_analyze.play.advice import advise_at, play_position
    from crib_analyze.play.result_rows import advice_rows
    from crib_analyze.play.sequence import GO

    role = cast(Role, r.seat)
    used = resolve_model(model)
    position = play_position(role, hand, starter, discards, played)
    advice = advise_at(position, cast(PlayPolicy, r.policy), r.samples, r.seed, used)
    rows = advice_rows(advice, role)
    if r.score is not None and advice.cards != [GO]:
        from crib_analyze.board.play_odds import play_odds, ranked_by_odds

        odds = play_odds(position, cast("tuple[int, int]", r.score), used)
        rows = ranked_by_odds(rows, odds)
    rows = rows.with_notes(*(play_note(p) for p in penalty))
    return rows.with_verdict(play_verdict(rows))


def start_play_quiz(
    seed: int | None = None,
    role: str = "random",
    policy: PlayPolicy = DEFAULT_PLAY_POLICY,
    samples: int = PLAY_SAMPLES.default,
    model: ModelLike = None,
) -> PlayQuiz:
    """A pegging trainer (:class:`~crib_analyze.play.trainer.PlayQuiz`): positions of the
    play for a role ("dealer", "pone" or "random") dealt from ``seed``, each card graded
    by the play advice of ``policy`` (the solver by default) and kept in a tally;
    :func:`play_grade_frame` gives a grade's advice as :func:`advise_play` does.

    >>> quiz = start_play_quiz(seed=2, role="pone", policy="lookahead", samples=50)
    >>> position = quiz.deal()
    >>> grade = quiz.grade(position, position.legal[0])
    >>> list(play_grade_frame(grade).columns)
    ['card', 'value', 'se', 'policy_choice']
    """
    from crib_analyze.play.trainer import PlayQuiz

    check_choice("play policy", policy, PLAY_POLICIES)
    used = resolve_model(model) if model is not None else None
    if seed is not None:
        SEED.check(seed)
    return PlayQuiz(seed=seed, role=role, policy=policy, samples=samples, model=used)


def play_grade_frame(grade: PlayGrade) -> pd.DataFrame:
    """A pegging quiz grade's advice, as :func:`advise_play` gives it."""
    from crib_analyze.frames import rows_frame

    return rows_frame(play_grade_rows(grade))


def play_grade_rows(grade: PlayGrade) -> Rows:
    """:func:`play_grade_frame` without pandas (:class:`~crib_analyze.results.Rows`)."""
    from crib_analyze.play.result_rows import advice_rows

    rows = advice_rows(grade.advice, grade.role)
    return rows.with_verdict(play_verdict(rows))


def pegging_table(role: Role | None = None) -> pd.DataFrame:
    """The pegging value of every keep (1,820 four-rank multisets) for ``role`` (both
    when None): ``keep`` (four ranks as text), ``role``, ``peg_own`` (what the keeper
    pegs), ``peg_opp`` (what its opponent pegs), ``peg_se`` (standard error of their
    difference); ``df.attrs`` carries the table's provenance.

    >>> t = pegging_table("pone")
    >>> len(t), list(t.columns)
    (1820, ['keep', 'role', 'peg_own', 'peg_opp', 'peg_se'])
    """
    from crib_analyze.artifacts.pegging_table import packaged_pegging_table
    from crib_analyze.frames import pegging_frame

    if role is not None:
        check_choice("role", role, ROLES)
    return pegging_frame(packaged_pegging_table(), [role] if role else list(ROLES))


def review(
    record: str | os.PathLike[str],
    position_samples: int = POSITION_SAMPLES.default,
    seed: int = SEED.default,
    model: ModelLike = None,
) -> pd.DataFrame:
    """Grade every decision of a recorded game (a file in the record format of
    :mod:`crib_analyze.game_review.record`, or its text when it contains a newline), like a
    chess engine's game analysis: one row per throw and per card laid where more than
    one fitted, with the ``best`` alternative and the ``loss`` in expected points (and
    ``loss_win``, in chance of winning, for deals whose score is recorded). Throws are
    ranked by hand + crib + pegging against the expert opponent (from the score: by
    ``position_samples`` deals each); cards by the solver's advice. ``attrs`` hold the
    totals.

    >>> df = review("deal\\ndealer: me\\nhand: 5H 6S 4D JC QH 5C\\nthrow: 5H 5C\\nstarter: 2D\\n")
    >>> df.loc[0, ["kind", "chosen", "best"]].tolist(), round(float(df.loc[0, "loss"]), 2)
    (['throw', '5H 5C', 'JC QH'], 11.62)
    """
    from crib_analyze.game_review.record import parse_record, read_record

    text = os.fspath(record)
    deals = parse_record(text) if "\n" in text else read_record(text)
    return _graded(deals, position_samples, seed, model)


def _graded(
    deals: list[Deal], position_samples: int, seed: int, model: ModelLike,
    on_progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:  # fmt: skip
    """The review of parsed ``deals`` (:func:`review`, :func:`review_text_record`)."""
    from crib_analyze.api.play_requests import ReviewRequest
    from crib_analyze.game_review.grading import grade_game
    from crib_analyze.game_review.result import review_frame

    r = ReviewRequest(position_samples, seed, model).resolve()
    decisions = grade_game(deals, resolve_model(model), r.position_samples, r.seed, on_progress)
    return review_frame(decisions, deals=len(deals))


def review_text_record(
    text: str,
    position_samples: int = POSITION_SAMPLES.default,
    seed: int = SEED.default,
    on_progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """:func:`review` of a record given as its text, always (never read as a path: for
    records uploaded to a server, kept in memory), with the packaged model;
    ``on_progress`` gets (deals graded, deals) after each deal and may raise to stop.

    >>> record = "deal\\ndealer: me\\nhand: 5H 6S 4D JC QH 5C\\nthrow: 5H 5C\\nstarter: 2D"
    >>> review_text_record(record)["best"][0]
    'JC QH'
    """
    from crib_analyze.game_review.record import parse_record

    if not isinstance(text, str):
        raise UsageError(f"a record's text is a string, got {type(text).__name__}")
    deals = parse_record(text, name="the record")
    return _graded(deals, position_samples, seed, None, on_progress)
