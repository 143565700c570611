"""``discard``: rank the throws of a hand (one hand, a file of hands, a table lookup, the
auction, another game's seat)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TextIO

import click

from crib_analyze.cards import format_cards
from crib_analyze.cli.arguments import (
    asked_for,
    cards_or_fail,
    pegging_asked,
    role_of,
)
from crib_analyze.cli.discard_modes import (
    auction_alias,
    check_modes,
    discard_for_seat,
    discard_from_table,
    discard_hands_file,
)
from crib_analyze.cli.options import (
    InputFile,
    count_option,
    game_option,
    gathered,
    jokers_option,
    model_option,
    opponent_option,
    output_options,
    pegging_options,
    penalty_option,
    position_samples_option,
    quiet_option,
    role_option,
    score_option,
    scoring_option,
    seed_option,
    show_checks_callback,
    throw_fives_option,
    trust_unverified_option,
)
from crib_analyze.cli.output import (
    Progress,
    domain_errors,
    emit,
    first_use,
    note,
    progress,
    with_cost,
)
from crib_analyze.settings import (
    GAME_OTHERS,
    GOALS,
    NEED,
    SAMPLED_POLICIES,
    SAMPLES,
    SORT_KEYS,
    TOP,
)

if TYPE_CHECKING:  # numpy loads only with a command that computes
    from crib_analyze.api.requests import DiscardRequest
    from crib_analyze.results import Rows

# --- discard ----------------------------------------------------------------------------------


def discard_request(
    dealer: bool, pone: bool, role: str | None, pegging: str, no_pegging: bool, samples: int,
    seed: int, game: str, **options: Any,
) -> DiscardRequest:  # fmt: skip
    """discard's options as one request (unresolved): the role from --dealer, --pone or
    --role, the pegging from --pegging or --no-pegging, and None for each option left at
    its default (the request's own defaults then apply)."""
    from crib_analyze.api import DiscardRequest

    asked = asked_for(**options) | {"pegging": pegging_asked(pegging, no_pegging)}
    chosen = role_of(dealer, pone, role=role)
    return DiscardRequest(role=chosen, samples=samples, seed=seed, game=game, **asked)


def _cost_text(kind: str) -> str:
    """A recorded figure's text (:mod:`crib_analyze.costs`, read only for --help)."""
    from crib_analyze.costs import cost

    return cost(kind).text()


@with_cost(
    lambda: f"{_cost_text('discard')}",
    lambda: f"{_cost_text('discard-score')} with --score",
    lambda: (
        f"{_cost_text('discard-simulated-pegging')} a role with --pegging simulated (a "
        "--hands-file of "
        "many hands adds up: a run expected to take over a minute is announced)"
    ),
)
@click.command()
@click.argument("cards", nargs=-1)
@gathered(
    "request",
    discard_request,
    click.option("--dealer", is_flag=True, help="Rank for the dealer (hand + crib + heels)."),
    click.option("--pone", is_flag=True, help="Rank for the pone (hand - crib)."),
    role_option,
    opponent_option(),
    click.option(
        "--policy",
        type=click.Choice(SAMPLED_POLICIES),
        help="With --opponent sampled: the opponent throws its best discard under the "
        "random or the expert crib model [default: random].",
    ),
    count_option(
        "--samples",
        setting=SAMPLES,
        help=f"Opponent hands drawn by --opponent sampled (at most {SAMPLES.hi:,}).",
    ),
    seed_option("Random seed for --opponent sampled (and the deals of --score)."),
    model_option,
    count_option(
        "--need",
        setting=NEED,
        default=False,
        help="Add P(hand alone scores >= N), exact over the 46 starters.",
    ),
    click.option(
        "--sort",
        type=click.Choice(SORT_KEYS),
        help="Ranking key [default: total, or net with --no-pegging] (crib: highest for the "
        "dealer, lowest for the pone).",
    ),
    pegging_options,
    count_option(
        "--top",
        setting=TOP,
        default=False,
        help="Show only the best N discards (with no role, the best N of each role).",
    ),
    click.option(
        "--distribution",
        is_flag=True,
        help="Show the exact distribution of each kept hand's score over the starters "
        "you cannot see (46; with --game, each split's) and P(hand >= N), instead of the "
        "ranking.",
    ),
    score_option(
        "Rank by the game from this score, e.g. 110-115 (needs --dealer or --pone): each "
        "throw's deal simulated (--verbose says how its play is counted), then the board "
        "table. With --game of three sides or more: one score per side, yours first "
        "(110-100-115); the game's board after the deal (three players), or each "
        "split's games played out (five)."
    ),
    click.option(
        "--goal",
        type=click.Choice(GOALS),
        help="With --score: rank by the chance of winning, or by expected match points "
        "[default: win].",
    ),
    scoring_option(default=None),
    position_samples_option,
    game_option,
    click.option(
        "--seat",
        help="With --game: the seat to throw for, by its name in 'crib-analyze games' "
        "(--dealer and --pone name the two seats of a two-player game).",
    ),
    click.option(
        "--others",
        type=click.Choice(GAME_OTHERS),
        help="With --game: how the other seats' throws reach the crib: dealt at random and "
        "thrown by the game's expert model (the default where one ships or was made; "
        "asked for where none is, it is made first, once, and kept in the data dir) or "
        "by the hand policy (--samples deals, sampled), or as random cards (exact; the "
        "default elsewhere).",
    ),
    penalty_option(
        "the exact chance of a zero hand and crib and the expected penalty join the net "
        "(--opponent expert or random)."
    ),
    throw_fives_option(
        "Ranks the legal throws against the random opponent following the rule too, "
        "exactly, without the play (with --pegging simulated: with the play of these "
        "cards, against the throw-fives expert)."
    ),
    click.option(
        "--lowball",
        is_flag=True,
        help="Loser's cribbage: the fewest points is best (your net lowest first), against "
        "the random opponent, without the play (with --pegging simulated: with the play "
        "of these cards, both laying for the fewest; with --game: the other seats' throws "
        "as random cards, or by the hand policy's lowball form).",
    ),
    jokers_option(
        "Jokers in the pack (written JK; your hand may hold them): every joker counts "
        "at its best, in the hand, cut or in the crib; against the random opponent, without "
        "the play (with --pegging simulated: with the play of these cards by the solver, a "
        "joker laid as the rank that serves best, slow with jokers in hand: a minute or "
        "more); --opponent expert: the expert model built for the pack, its hands "
        "sampled (with --score or --game: the other seats throw by the game's model with "
        "jokers, else the hand policy, and the games are played out)."
    ),
)
@click.option(
    "--from-table",
    "from_table",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[FILE]",
    help="Read the hand's rows from a discard table (from 'crib-analyze table') instead "
    "of computing them [FILE default: the --opponent's table in the data dir].",
)
@trust_unverified_option
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Also draw the hand-score distributions of each role's best throws to FILE "
    "(.png or .svg; needs the plot extra: pip install 'crib-analyze[plot]').",
)
@click.option(
    "--hands-file",
    type=InputFile("r", encoding="utf-8-sig"),
    help="Analyse one hand per line of FILE ('-' for standard input); "
    "adds a hand column. Blank lines and # comments are skipped.",
)
@click.option(
    "--auction",
    is_flag=True,
    help="The auction variant: what owning the crib is worth to you with these cards, "
    "your break-even bid (in points; with --score, in chances of winning).",
)
@click.option(
    "--why", is_flag=True,
    help="Say why the best throw wins: the part that decides, what the kept cards hold, "
    "what the crib gets.",
)  # fmt: skip
@click.option(
    "--starters", is_flag=True,
    help="Name the cuts, by rank, with which each throw shown keeps the best hand (and "
    "with --need N, those that reach N).",
)  # fmt: skip
@click.option("--wide", is_flag=True, help="Every column (hand range, crib, pegging parts).")
@click.option(
    "--verbose",
    "-v",
    is_flag=True,
    callback=show_checks_callback,
    help="Say what each column is made of, and the model; and on standard error which "
    "files were read and how each was checked.",
)
@quiet_option
@output_options
def discard(
    cards: tuple[str, ...],
    request: DiscardRequest,
    from_table: str | None,
    trust_unverified: bool,
    plot_path: str | None,
    hands_file: TextIO | None,
    auction: bool,
    why: bool,
    starters: bool,
    wide: bool,
    verbose: bool,
    quiet: bool,
    fmt: str,
    output: str | None,
) -> None:
    """Rank the 15 ways to throw two of six cards, for the dealer or the pone.

    For each throw: the kept hand's exact expectation over the 46 unseen starters
    (with min, max, spread), the crib's expectation under the opponent model, the
    net for the role and the loss against the role's best throw (near ties flagged).
    With neither --dealer nor --pone both roles are shown and each role's best marked.
    With --score the throws are ranked by the game from that score instead (the chance
    of winning, or expected match points with --goal match), the points rank beside.

    \b
    Examples:
      crib-analyze discard 5H 6S 4D JC QH 5C --dealer
      crib-analyze discard 5H 6S 4D JC QH 5C --dealer --score 110-115
      crib-analyze discard "5h 6s 4d jc qh 5c" --pone --opponent sampled --seed 7
      crib-analyze discard 5H 6S 4D JC QH 5C --pone --distribution
      crib-analyze discard --hands-file hands.txt --format csv -o out.csv
      crib-analyze discard 5H 6S 4D JC QH --game three --seat dealer
      crib-analyze discard 5H 6S 4D JC QH 5C --auction --score 100-105

    With --auction (the auction variant: the players bid points for the crib, the
    winner deducts the bid and owns it) it shows your best throw owning the crib and
    not owning it, and the difference: your break-even bid, in points, or with --score
    in chances of winning (the largest bid after which owning the crib wins as often).

    With --game (any game of 'crib-analyze games') it ranks every way the --seat can
    split the cards it is dealt (keep, throw, and pass in Canadian doubles): the other
    seats' throws as the game's expert model throws them (sampled, with a standard
    error), or with --others hand as the hand policy does, or --others random as random
    cards (exact); the options for the standard game's models, pegging and score do not
    apply there yet.
    """
    from crib_analyze.api import discard_rows_for
    from crib_analyze.render.common import rows_csv, rows_json
    from crib_analyze.render.discard import discard_meta, discard_text
    from crib_analyze.render.hands import distribution_text

    if auction:  # the auction answers its own question (its options: AUCTION_OPTIONS)
        auction_alias(cards, request, fmt, output)
        return
    with domain_errors():
        request = request.resolve()
    if request.engine == "any-game":  # another game's seat: its own options (GAME_OPTIONS)
        discard_for_seat(cards, request, fmt, output, starters)
        return
    check_modes(cards, request, from_table, plot_path, hands_file)
    if from_table is not None:
        discard_from_table(
            cards, from_table, trust_unverified, str(request.opponent), request.role, hands_file,
            fmt, output, request.top,
        )  # fmt: skip
        return
    if plot_path is not None:
        from crib_analyze.api import check_plot

        with domain_errors():
            check_plot(plot_path)
    if request.score is not None:  # the compile notice names its measured first run
        first_use("discard --score")
    elif request.pegging == "simulated":
        first_use("discard --pegging simulated")
    elif request.opponent == "sampled":
        first_use("discard --opponent sampled")

    def run(hand: list[int] | str, bar: Progress | None = None) -> Rows:
        with domain_errors():
            return discard_rows_for(hand, request, on_progress=bar)

    def render(rows: Rows, hand_text: str) -> str:
        if fmt == "table":
            if request.distribution:
                return distribution_text(rows, hand_text)
            return discard_text(rows, hand_text, wide, verbose, why=why, starters=starters)
        return (rows_csv if fmt == "csv" else rows_json)(rows)

    if hands_file is not None:
        discard_hands_file(hands_file, request, fmt, output, quiet, run, render)
        return
    if request.jokers:  # JK among the cards: the joker-aware parser reads them
        with progress("deals played", quiet or request.pegging != "simulated") as bar:
            rows = run(" ".join(cards), bar)
        emit(render(rows, format_cards(discard_meta(rows).hand)), output)
        return
    hand = cards_or_fail(cards, 6)
    long_run = request.opponent == "sampled" and int(request.samples or 0) > 20_000
    with progress("opponent hands", quiet or not long_run) as bar:
        rows = run(hand, bar)
    emit(render(rows, format_cards(hand)), output)
    if plot_path is not None:
        from crib_analyze.api import plot_discards

        with domain_errors():
            drawn = plot_discards(hand, plot_path, request=request)
        note(f"wrote the plot to {drawn}")
