"""``score``: count a show (a hand or a crib with its starter), jokers and all."""

from __future__ import annotations

import click

from crib_analyze.cli.arguments import no_jokers_unasked
from crib_analyze.cli.options import format_option, game_option, jokers_option
from crib_analyze.cli.output import domain_errors, emit
from crib_analyze.errors import CardError

# --- score ------------------------------------------------------------------------------------


@click.command()
@click.argument("cards", nargs=-1, required=True)
@click.option("--starter", "-s", help="The cut card, e.g. 5D [default: the fifth card].")
@click.option("--crib", is_flag=True, help="Crib rules (flush needs all five cards).")
@game_option
@jokers_option(
    "Jokers in the pack (written JK): each is counted as the card that scores most, "
    "and may repeat a card in play."
)
@format_option(("table", "json"), help="Readable count or one JSON object.")
def score(
    cards: tuple[str, ...], starter: str | None, crib: bool, game: str, jokers: int, fmt: str
) -> None:
    """Count a show as a player does: every fifteen, pair, run, flush and nobs, in order.

    Give four cards and --starter, or five cards with the starter last (with --game
    five-card a hand is three cards; a crib is always four).

    \b
    Examples:
      crib-analyze score 5H 5C 5S JD --starter 5D
      crib-analyze score 4H 4C 5S 5D 6C
      crib-analyze score 2H 7H 9H --starter KH --game five-card
      crib-analyze score 5H 5C 5S 5D --starter JK --jokers 1

    With --jokers, each JK is counted as the card that scores most (it may repeat a
    card in play: five fives show 40), and the output says which.
    """
    from crib_analyze.api import count_show
    from crib_analyze.render.hands import joker_lines, show_json, show_text

    if starter is not None and not starter.strip():
        raise click.UsageError("--starter: no card given")
    if jokers:
        with domain_errors():
            found = count_show(list(cards), starter, crib=crib, jokers=jokers, game=game)
        text = (show_json if fmt == "json" else show_text)(found)
        emit(text if fmt == "json" else text + joker_lines(found), None)
        return
    no_jokers_unasked([*cards, starter or ""])
    try:
        show = count_show(list(cards), starter, crib=crib, game=game)
    except CardError as e:
        message = str(e)
        if starter is not None and message.startswith("starter"):
            message = f"--{message}"
        raise click.UsageError(message) from None
    emit((show_json if fmt == "json" else show_text)(show), None)
