"""``auction``: the auction variant, what owning the crib is worth with these six cards
(also ``discard --auction``, kept as an alias)."""

from __future__ import annotations

import click

from crib_analyze.cli.arguments import pegging_asked
from crib_analyze.cli.discard_modes import auction_mode
from crib_analyze.cli.options import (
    model_option,
    opponent_option,
    output_options,
    pegging_options,
    position_samples_option,
    score_option,
    seed_option,
)


@click.command()
@click.argument("cards", nargs=-1, required=True)
@opponent_option(with_policy=False)
@pegging_options
@score_option(
    "Give the bid in chances of winning from this score, e.g. 100-105: the largest bid "
    "at which owning the crib wins at least as often as letting it go."
)
@position_samples_option
@seed_option("Random seed for the deals of --score.")
@model_option
@output_options
def auction(
    cards: tuple[str, ...],
    opponent: str,
    pegging: str,
    no_pegging: bool,
    score: str | None,
    position_samples: int | None,
    seed: int,
    model: str | None,
    fmt: str,
    output: str | None,
) -> None:
    """What owning the crib is worth with six cards, and your break-even bid.

    In the auction variant the players bid points for the crib; the winner takes its
    bid off its own score and owns the crib, the other pays nothing. Shown: your best
    throw owning the crib (you lay second, as the dealer) and not owning it (you lead),
    the difference in points, and the break-even bid: half that difference. With
    --score, the largest bid at which owning the crib wins at least as often.

    \b
    Examples:
      crib-analyze auction 5H 6S 4D JC QH 5C
      crib-analyze auction 5H 6S 4D JC QH 5C --score 100-105
    """
    pegging = pegging_asked(pegging, no_pegging) or pegging
    auction_mode(cards, opponent, pegging, score, model, position_samples, seed, fmt, output)
