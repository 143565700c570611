"""``quiz``: the discard trainer, and with ``--play`` the pegging trainer."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from crib_analyze.cards import format_cards
from crib_analyze.cli.arguments import given
from crib_analyze.cli.options import model_option, trainer_options
from crib_analyze.cli.output import ask, domain_errors
from crib_analyze.errors import CardError
from crib_analyze.settings import (
    DEFAULT_OPPONENT,
    QUIZ_OPPONENTS,
    QUIZ_ROLES,
)
from crib_analyze.verdicts import card_grade_words, throw_grade_words
from crib_analyze.words import counted

if TYPE_CHECKING:  # numpy loads only with a command that computes
    from crib_analyze.tally import Tally

# --- quiz -------------------------------------------------------------------------------------


@click.command()
@trainer_options
@click.option(
    "--role",
    type=click.Choice(QUIZ_ROLES),
    default="random",
    show_default=True,
    help="Your role in every hand, or a fresh random one each hand.",
)
@click.option("--dealer", "role", flag_value="dealer", help="The same as --role dealer.")
@click.option("--pone", "role", flag_value="pone", help="The same as --role pone.")
@click.option(
    "--opponent",
    type=click.Choice(QUIZ_OPPONENTS),
    default=DEFAULT_OPPONENT,
    show_default=True,
    help="The opponent model the answers assume.",
)
@model_option
@click.option(
    "--play", "pegging", is_flag=True,
    help="The pegging quiz: lay a card in a position of the play, graded by the play "
    "advice (the solver), with what each card scores and invites.",
)  # fmt: skip
def quiz(
    rounds: int, seed: int | None, role: str, opponent: str, model: str | None, pegging: bool
) -> None:
    """A discard trainer: throw two cards, see what they cost against the best throw.

    Each hand shows six cards and your role; type the two cards you throw (any order
    and case), '?' to see the answer, 'q' to stop. After each throw: the analysis, the
    points your throw lost against the best, and a running tally. Answers may come from
    standard input (one per line), so the quiz can be scripted.

    With --play, a pegging quiz: each position shows your cards, the starter, your throw
    and the play so far; type the card you lay. The advice grades it (pegging lost
    against the best card) and says what each card scores now and invites.

    \b
    Examples:
      crib-analyze quiz --rounds 5 --role pone --seed 7
      crib-analyze quiz --play --rounds 5 --seed 7
    """
    import random
    import textwrap

    from crib_analyze.api import start_quiz
    from crib_analyze.render.common import retry_text, summary_text, wrapped_text
    from crib_analyze.render.discard import discard_text

    seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    if pegging:
        if given("opponent"):
            raise click.UsageError("--opponent does not go with --play (the play's reading)")
        _play_quiz(rounds, seed, role, model)
        return
    with domain_errors():
        game = start_quiz(seed=seed, role=role, opponent=opponent, model=model)
    stdin = sys.stdin
    click.echo(
        f"Discard quiz: {counted(rounds, 'hand')}, seed {seed} (--seed {seed} deals them again)"
    )
    stopped = False
    for _ in range(rounds):
        deal = game.deal()
        hand_text = format_cards(deal.hand)
        crib = "your crib" if deal.role == "dealer" else "the dealer's crib"
        click.echo(f"\nHand {deal.number} of {rounds}: you are the {deal.role} ({crib})")
        click.echo(f"  {hand_text}")
        while True:
            answer = ask("Throw two cards (? for the answer, q to quit): ", stdin)
            if answer is None:  # end of input
                stopped = True
                break
            if answer.lower() in ("q", "quit", "exit"):
                stopped = True
                break
            if answer == "?":
                game.reveal(deal)
                click.echo(discard_text(deal.rows.take(list(range(5))), hand_text, hint=False))
                break
            try:
                throw = game.parse_throw(deal, answer)
            except CardError as e:
                example = format_cards(deal.hand[:2])
                click.echo(retry_text(e, f"give two of your six cards, like {example}"))
                continue
            grade = game.grade(deal, throw)
            shown = sorted({*range(min(5, len(deal.rows))), grade.rank - 1})
            click.echo(discard_text(deal.rows.take(shown), hand_text, hint=False))
            verdict = throw_grade_words(
                grade.discard, grade.best, grade.near_tie, grade.loss, grade.rank
            )
            t = game.tally
            click.echo(
                wrapped_text(
                    f"{verdict}. Tally: {t.best} of {t.hands} "
                    f"best ({100 * t.best_share:.0f}%), {t.total_loss:.3f} points lost"
                )
            )
            for line in grade.why:
                click.echo("\n".join(textwrap.wrap(line, 80, initial_indent="  ",
                                                    subsequent_indent="    ")))  # fmt: skip
            break
        if stopped:
            break
    t = game.tally
    click.echo(
        summary_text(
            f"Summary: {counted(t.hands, 'hand', 'graded')}, {t.best} best "
            f"({100 * t.best_share:.0f}%), {t.total_loss:.3f} points lost "
            f"({t.mean_loss:.3f} a hand)"
            + (f", {counted(t.revealed, 'answer', 'shown')}" if t.revealed else "")
        )
    )


def _play_quiz(rounds: int, seed: int, role: str, model: str | None) -> None:
    """``quiz --play``: positions of the play, a card laid, graded by the advice."""
    from crib_analyze.api import play_grade_rows, start_play_quiz
    from crib_analyze.render.common import retry_text, wrapped_text
    from crib_analyze.render.play import advice_text

    with domain_errors():
        game = start_play_quiz(seed=seed, role=role, model=model)
    click.echo(
        f"Pegging quiz: {counted(rounds, 'position')}, seed {seed} (--seed {seed} deals them again)"
    )
    for _ in range(rounds):
        position = game.deal()
        click.echo(
            f"\nPosition {position.number}: you are the {position.role}; you hold "
            f"{format_cards(position.hand)}; starter {format_cards([position.starter])}; you "
            f"threw {format_cards(position.discards)}"
        )
        so_far = position.played_text or "nothing yet (you lead)"
        click.echo(f"  the play so far: {so_far}; count {position.count}")
        while True:
            answer = ask("Lay a card (? for the answer, q to quit): ", sys.stdin)
            if answer is None or answer.lower() in ("q", "quit"):
                return _play_summary(game.tally)
            if answer == "?":
                with domain_errors():
                    grade = game.reveal(position)
            else:
                try:
                    card = game.parse_card(position, answer)
                except CardError as e:
                    click.echo(retry_text(e, f"lay one of {format_cards(position.legal)}"))
                    continue
                with domain_errors():
                    grade = game.grade(position, card)
            click.echo(advice_text(play_grade_rows(grade), why=True), nl=False)
            if answer == "?":
                click.echo(f"The best card: {grade.best}.")
            else:
                verdict = card_grade_words(grade.card, grade.is_best, grade.loss, grade.best)
                t = game.tally
                click.echo(
                    wrapped_text(
                        f"{verdict}. Tally: {t.best} of {t.hands} "
                        f"best, {t.total_loss:.3f} points lost"
                    )
                )
            break
    _play_summary(game.tally)


def _play_summary(t: Tally) -> None:
    from crib_analyze.render.common import summary_text

    click.echo(
        summary_text(
            f"Summary: {counted(t.hands, 'position', 'graded')}, {t.best} best "
            f"({100 * t.best_share:.0f}%), {t.total_loss:.3f} points lost"
            + (f", {counted(t.revealed, 'answer', 'shown')}" if t.revealed else "")
        )
    )


#: the discard options that go with --auction (the rest rank one role's throws)
