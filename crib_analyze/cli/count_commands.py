"""``count``: a counting trainer with muggins (the points you miss go to the opponent)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from crib_analyze.cards import format_cards
from crib_analyze.cli.options import game_option, trainer_options
from crib_analyze.cli.output import ask, domain_errors
from crib_analyze.errors import CardError

if TYPE_CHECKING:
    from crib_analyze.scoring.counting import CountGrade
    from crib_analyze.scoring.show import Show


@click.command()
@trainer_options
@click.option("--crib", is_flag=True, help="Count cribs (a flush only with the starter).")
@game_option
def count(rounds: int, seed: int | None, crib: bool, game: str) -> None:
    """A counting trainer with muggins: count the show, and what you miss the
    opponent scores.

    Each round deals a hand and a starter. Type your count (a number) or the
    combinations you see, as groups of cards separated by commas: '5H JD, 5C JD, 5H 5C'
    (a group of three or four of a rank claims all its pairs; list a group twice when
    its cards score twice, e.g. a run that is also a fifteen). Every combination you do
    not claim goes to the opponent by muggins, and is shown; with a number, the points
    short of the true count go. A claim above the true count is corrected to it, with
    no penalty. '?' shows the count, 'q' stops. Answers may come from standard input,
    one per line, so the trainer can be scripted.

    \b
    Example:
      crib-analyze count --rounds 5 --seed 7
    """
    import random

    from crib_analyze.api import start_counting
    from crib_analyze.render.common import retry_text, summary_text

    seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
    with domain_errors():
        trainer = start_counting(seed, crib=crib, game=game)
    what = "cribs" if crib else "hands"
    click.echo(f"Counting with muggins: {rounds} {what}, seed {seed} (--seed {seed} again)")
    for _ in range(rounds):
        deal = trainer.deal()
        show = deal.show
        click.echo(
            f"\n{what[:-1].capitalize()} {deal.number} of {rounds}: "
            f"{format_cards(show.hand)}, starter {format_cards([show.starter])}"
        )
        answer: str | None = None
        while True:
            answer = ask("Your count, or your combinations (? for the count, q to quit): ",
                         sys.stdin)  # fmt: skip
            if answer is None or answer.lower() in ("q", "quit", "exit"):
                break
            if answer == "?":
                _show_count(show)
                break
            try:
                grade = trainer.grade(deal, answer)
            except CardError as e:
                click.echo(retry_text(e, "give a number, or groups of the cards shown"))
                continue
            _say(grade)
            break
        if answer is None or answer.lower() in ("q", "quit", "exit"):
            break
    t = trainer.tally
    click.echo(
        summary_text(
            f"Summary: {t.hands} {what if t.hands != 1 else what[:-1]} counted, {t.perfect} "
            f"exactly; you pegged {t.scored}, the opponent {t.muggins} by muggins"
        )
    )


def _show_count(show: Show) -> None:
    for c in show.combinations:
        click.echo(f"  {c.announce:<28} {format_cards(c.cards)}")
    if not show.combinations:
        click.echo("  nineteen: no points")


def _say(g: CountGrade) -> None:
    if g.by_number:
        if g.claimed > g.total:
            click.echo(f"  The count is {g.total}, not {g.claimed}: you peg {g.total}.")
        elif g.muggins:
            click.echo(
                f"  The count is {g.total}: you peg {g.scored}, and muggins! the opponent "
                f"pegs the {g.muggins} you missed."
            )
        else:
            click.echo(f"  Right: {g.total}.")
        return
    for group in g.wrong:
        click.echo(f"  {group}: scores nothing here")
    if g.missed:
        click.echo(
            f"  You claimed {g.scored} of {g.total}. Muggins! The opponent pegs {g.muggins}:"
        )
        for c in g.missed:
            click.echo(f"    {c.kind} {format_cards(c.cards)} for {c.points}")
    else:
        click.echo(f"  Every combination: {g.total}.")
