"""Commands about the board and whole games: ``odds`` (the chance of winning from a
score), ``simulate`` (full games), ``build-board`` (rebuild the board table)."""

from __future__ import annotations

from typing import Any

import click

from crib_analyze.cli.arguments import asked_for, chosen, game_rules, given, role_of, set_threads
from crib_analyze.cli.options import (
    build_output_option,
    checked_output,
    checked_scheduler,
    checks_option,
    continuation_option,
    count_option,
    format_option,
    game_option,
    jobs_option,
    jokers_option,
    lowball_option,
    model_option,
    output_option,
    penalty_option,
    play_policy_option,
    quiet_option,
    role_option,
    score_arguments,
    scoring_option,
    seed_option,
    throw_fives_option,
)
from crib_analyze.cli.output import (
    RESUME_BUILD,
    domain_errors,
    emit,
    note,
    progress,
    resumable,
    warn_if_long,
    with_cost,
)
from crib_analyze.costs import board_seconds, build_seconds, cost, simulate_seconds
from crib_analyze.settings import (
    ANY_GAME_PLAY_POLICIES,
    BOARD_DEALS,
    CANDIDATES,
    DEFAULT_GOAL,
    DEFAULT_SCORING,
    GAME_BATCH,
    GAME_BOARD_DEALS,
    GAME_BOARDS_ENV,
    GAME_POSITION_SAMPLES,
    GAME_THROW_POLICIES,
    GAMES,
    GAMES_WITH_BOARDS,
    GOALS,
    ODDS_GAMES,
    PLAY_POLICIES,
    POSITION_FROM,
)


@click.command()
@checks_option
@click.argument("scores", metavar="[MINE THEIRS]", nargs=-1, callback=score_arguments)
@game_option
@click.option("--dealer", is_flag=True, help="You deal this deal.")
@click.option("--pone", is_flag=True, help="The opponent deals (you count first).")
@role_option
@scoring_option(default=DEFAULT_SCORING)
@click.option(
    "--plot",
    "plot_path",
    type=click.Path(dir_okay=False),
    help="Draw the chance of winning over the whole board to FILE (.png or .svg; "
    "needs the plot extra).",
)
@count_option(
    "--games", "-n", setting=ODDS_GAMES,
    help="With --game or a variant: games to simulate from the scores.",
)  # fmt: skip
@lowball_option(
    "the first to the target loses; every seat throws and lays for the fewest points. "
    "Simulated as with --game: one score per side from the dealer's left."
)
@throw_fives_option("Simulated as with --game.")
@penalty_option("simulated as with --game.")
@jokers_option("Jokers in the pack (wild in the shows and the play): simulated as with --game.")
@continuation_option(
    "Each seat's chance of second place: from three's board, or simulated (--games, five)."
)
@seed_option()
@format_option()
def odds(
    scores: tuple[int, ...],
    game: str,
    lowball: bool,
    throw_fives: bool,
    penalty: str,
    jokers: int,
    dealer: bool,
    pone: bool,
    role: str | None,
    scoring: str,
    plot_path: str | None,
    games: int,
    continuation: bool,
    seed: int,
    fmt: str,
) -> None:
    """The chance of winning from a score: MINE THEIRS (95 100 --dealer).

    Read from the board table: for every position (each score 0-120 and who deals),
    the probability of winning, of skunking and of being skunked, and the expected
    match points, solved exactly over a million simulated deals (both players
    throwing by the expert model and playing the default policy). With neither
    --dealer nor --pone, both. Scores count the points already pegged.

    With --game (another game of 'crib-analyze games'): one score per side, in seat
    order from the dealer's left (the dealer last; in partnerships one per side, the
    left-hand player's side first), the dealer about to deal, and the chances come
    from the game's board (every game of two sides, and of three players) or from
    simulating --games games to the end (five players, or --games or --seed given;
    with standard errors). With two sides each also gets its chances of skunking and
    of being skunked and its match points under --scoring, won less lost; with three
    players, its chance of a skunk win and its match points (2 a win, 3 a skunk); with
    --continuation the others play on, and each seat also gets its chance of second
    place (1 match point).

    \b
    Examples:
      crib-analyze odds 95 100 --dealer
      crib-analyze odds 110 115 --scoring free --format json
      crib-analyze odds --plot board.png
      crib-analyze odds --game three 110 100 95
      crib-analyze odds --game three --continuation 110 100 95
      crib-analyze odds --lowball 100 110
      crib-analyze odds --penalty back-ten 100 110
      crib-analyze odds --jokers 1 100 110

    With --lowball (loser's cribbage) the first to the target loses; with
    --throw-fives, --penalty or --jokers the variant is played. The chances are then simulated as
    with --game (the standard game's scores: the pone's, then the dealer's).
    """
    from crib_analyze.api import check_game, check_plot, odds_rows, plot_board
    from crib_analyze.render.board import chances_text
    from crib_analyze.render.common import rows_csv, rows_json

    rules = game_rules(game, lowball, throw_fives, penalty, jokers)
    role = role_of(dealer, pone, role=role)
    if plot_path is None and not scores:
        raise click.UsageError("give both scores, MINE THEIRS (e.g. 95 100)")
    asked = asked_for(scoring=scoring, games=games, seed=seed, continuation=continuation)
    with domain_errors():
        if plot_path is not None:
            check_game("plot_board", rules, plot_path=plot_path)
            check_plot(plot_path)
        if scores:
            seat = None if role is None else role == "dealer"
            rows = odds_rows(*scores, dealer=seat, game=rules, **asked)
            render = {"table": chances_text, "json": rows_json, "csv": rows_csv}[fmt]
            emit(render(rows), None)
        if plot_path is not None:
            drawn = plot_board(plot_path)
            note(f"wrote the plot to {drawn}")


@with_cost(lambda: f"{cost('build-game-boards').text()} (1,000,000 deals a game)")
@click.command("build-game-boards")
@build_output_option("boards", "game_boards.npz")
@click.option(
    "--game",
    "games",
    multiple=True,
    type=click.Choice(GAMES_WITH_BOARDS),
    metavar="GAME",
    help=f"A game to rebuild: {', '.join(GAMES_WITH_BOARDS)} (repeat for more) [default: "
    "every game of two sides but the standard, and of three players]; the others are kept "
    "as they are in the boards in use.",
)
@count_option(
    "--deals", setting=GAME_BOARD_DEALS,
    help="Deals to simulate a game (an even number); the sampling error shrinks as 1/sqrt.",
)  # fmt: skip
@seed_option()
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=checked_scheduler,
    help="Deal on a Dask cluster (e.g. tcp://host:8786); the same boards as a local run. "
    "Needs pip install 'crib-analyze[distributed]'.",
)
@jobs_option
@quiet_option
def build_game_boards(
    output: str | None, games: tuple[str, ...], deals: int, seed: int, scheduler: str | None,
    jobs: int | None, quiet: bool,
) -> None:  # fmt: skip
    """Rebuild the boards of the other games of two sides (five-dealt, five-card, four,
    Canadian doubles) and of three players (three, three-dealer-six): the chance of each
    game outcome from every position.

    Simulates the deals (every seat throws by the game's expert model, by the hand
    policy in five-card where it throws better, and lays by the lookahead; each deal's
    scoring events in the order they score, by side, or by seat with three players),
    then solves every position to the game's target by dynamic programming over them,
    and each half of them to measure the sampling error. Five players have no board
    (121^5 positions). Seeded and reproducible on any number of
    threads or on a Dask cluster (--scheduler); a killed build resumes. Use the new
    boards with CRIB_ANALYZE_GAME_BOARDS=FILE.
    """
    from crib_analyze.api import build_game_boards as run

    set_threads(jobs)
    many = len(games) or len(GAMES_WITH_BOARDS)
    warn_if_long(build_seconds("build-game-boards") * many, "the build", quiet)

    def log(name: str, entry: Any) -> None:
        if not quiet:
            what = "deals" if entry.step == "deals" else "tables solved"
            note(f"{name}: {entry.done:,}/{entry.total:,} {what}, {entry.seconds:.0f} s")

    with domain_errors(), resumable(RESUME_BUILD):
        built = run(games, output, deals=deals, seed=seed, log=log, scheduler=scheduler)
    for name in games or GAMES_WITH_BOARDS:
        p = built.provenance[name]
        click.echo(
            f"{name}: {p['deals']:,} deals in {p['seconds']} s; first dealer wins "
            f"{p['first_dealer_wins']:.4f}, {p['deals_per_game']:.2f} deals a game, "
            f"sampling error ~{p['win_error']['rms']:.5f}"
        )
    click.echo(f"wrote {built.path}; use it with {GAME_BOARDS_ENV}={built.path}")


@with_cost(
    lambda: f"{cost('build-board').text()} with the solver (the default; 1,000,000 deals)",
    lambda: f"{cost('build-board-lookahead').text()} with --play-policy lookahead",
)
@click.command("build-board")
@build_output_option("table", "board_table.npz")
@count_option(
    "--deals", setting=BOARD_DEALS,
    help="Deals to simulate (an even number); the sampling error shrinks as 1/sqrt.",
)  # fmt: skip
@seed_option()
@model_option
@play_policy_option(
    "--play-policy", "How both players lay their cards in the deals (lookahead is much faster)."
)
@jobs_option
@quiet_option
def build_board(
    output: str | None, deals: int, seed: int, model: str | None, play_policy: str,
    jobs: int | None, quiet: bool,
) -> None:  # fmt: skip
    """Rebuild the board table: the chance of each game outcome from every position.

    Simulates the deals (both players throw by the expert model and lay by
    --play-policy; each deal's scoring events in the order they score), then solves every
    position by dynamic programming over them, and each half of them to measure the
    sampling error. Seeded and reproducible on any number of threads; a killed build
    resumes. Use the new table with CRIB_ANALYZE_BOARD=FILE.
    """
    from crib_analyze.api import build_board as run

    set_threads(jobs)
    warn_if_long(board_seconds(deals, play_policy), "the build", quiet)

    def log(entry: Any) -> None:
        if not quiet:
            what = "deals" if entry.step == "deals" else "tables solved"
            note(f"{entry.done:,}/{entry.total:,} {what}, {entry.seconds:.0f} s")

    with domain_errors(), resumable(RESUME_BUILD):
        built = run(output, deals=deals, seed=seed, log=log, model=model,
                    play_policy=chosen(play_policy, PLAY_POLICIES))  # fmt: skip
    p = built.provenance
    click.echo(
        f"{p['deals']:,} deals in {p['seconds']} s; "
        f"first dealer wins {p['first_dealer_wins']:.4f}, "
        f"{p['deals_per_game']:.2f} deals a game, sampling error ~{p['win_error']['rms']:.5f}; "
        f"wrote {built.path}"
    )


@with_cost(
    lambda: f"{cost('simulate-solver').text()} with the solver play (the default)",
    lambda: f"{cost('simulate-lookahead').text()} with --play-policy lookahead",
    lambda: f"{cost('simulate-position').text()} with a position player",
    lambda: f"{cost('simulate-game').text()} with --game three",
)
@click.command()
@checks_option
@count_option(
    "--games", "-n", setting=GAMES, help="Games to play (an even number: duplicate pairs)."
)
@game_option
@continuation_option("Each seat's second places are counted.")
@click.option(
    "--players",
    default="expert,expert",
    show_default=True,
    metavar="A,B",
    help="The two players' discard policies: expert (the play counted, as discard "
    "recommends), points (hand and crib only), position (from the score, see "
    "--position-from), mixed (the expert model's rank-level policy), table (the hand's "
    "mean and the shipped crib table by the thrown ranks: the classic player).",
)
@seed_option()
@count_option(
    "--position-from", setting=POSITION_FROM,
    help="A position player weighs the score once either side has this many points.",
)  # fmt: skip
@count_option(
    "--position-samples", setting=GAME_POSITION_SAMPLES,
    help="Deals simulated per candidate throw by a position player.",
)  # fmt: skip
@count_option(
    "--candidates", setting=CANDIDATES,
    help="Throws a position player values from the score (the best by points).",
)  # fmt: skip
@click.option(
    "--goal", type=click.Choice(GOALS), default=DEFAULT_GOAL, show_default=True,
    help="What a position player ranks throws by: the chance of winning or match points.",
)  # fmt: skip
@scoring_option(default=DEFAULT_SCORING)
@count_option(
    "--batch", setting=GAME_BATCH,
    help="Games per batch (an even number; results do not depend on it).",
)  # fmt: skip
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=checked_scheduler,
    help="Run the batches on a Dask cluster (e.g. tcp://host:8786); the same results "
    "as a local run. Needs pip install 'crib-analyze[distributed]'.",
)
@play_policy_option(
    "--play-policy",
    "How both players lay their cards (lookahead is much faster: see Cost below); "
    f"with --game: {' or '.join(ANY_GAME_PLAY_POLICIES)} [default: lookahead].",
)
@click.option(
    "--throw-policy",
    type=click.Choice(GAME_THROW_POLICIES),
    help="With --game: how every seat throws: by the game's expert model (the default "
    "where it has one, but in five-card and five, where the hand policy throws better; "
    "under throw fives or lowball, or with jokers, where the model of the variant or the "
    "pack won: docs/games.md) or by "
    "the hand policy (the crib's worth with random other cards).",
)
@click.option(
    "--record",
    type=click.Path(dir_okay=False),
    callback=checked_output,
    help="Also write every game, from player 0's side, in the record format that "
    "'crib-analyze review' reads.",
)
@lowball_option(
    "the first to the target loses; every seat throws and lays for the fewest points "
    "(the engine of --game: the hand policy's throws, --play-policy lookahead, greedy or "
    "solver)."
)
@throw_fives_option("Played by the engine of --game (the hand policy's throws).")
@penalty_option("played by the engine of --game (the hand policy's throws).")
@jokers_option(
    "Jokers in the pack, played by the engine of --game: each seat throws by the hand "
    "policy (a joker valued in the crib too), "
    "each shows at its best and is laid as the rank its play policy likes best."
)
@jobs_option
@quiet_option
@format_option(("table", "json"))
@output_option
def simulate(
    games: int,
    game: str,
    continuation: bool,
    players: str,
    seed: int,
    position_from: int,
    position_samples: int,
    candidates: int,
    goal: str,
    scoring: str,
    batch: int,
    scheduler: str | None,
    play_policy: str,
    throw_policy: str | None,
    record: str | None,
    lowball: bool,
    throw_fives: bool,
    penalty: str,
    jokers: int,
    jobs: int | None,
    quiet: bool,
    fmt: str,
    output: str | None,
) -> None:
    """Play full games to 121 between two discard policies and report what they show.

    Deals are played out whole (throws, the play, the shows, the crib, in scoring
    order) until a player reaches 121. Reports the first dealer's win rate and player
    0's (each with its standard error), deals per game, points per deal by role and
    source, skunk rates and the margins. Games 2k and 2k+1 deal the same cards with the
    first dealer swapped, which cancels much of the luck between policies.

    With --game (another game of 'crib-analyze games'), whole games of it: every seat
    throws by --throw-policy (the kept hand's mean over the starters and the crib's by
    the thrown ranks, as the game's expert model values it, or with random other cards
    for the hand policy) and lays by --play-policy (lookahead, greedy, or solver: each
    decision over 40 draws of the unseen cards, each solved, far slower); reports each
    first-deal seat's (or side's) win rate, points per deal by seat and source, skunks
    and match points: with two sides under --scoring, won less lost; with three
    players 2 a win, 3 a skunk, 1 for second place with --continuation.

    \b
    Examples:
      crib-analyze simulate --games 100000
      crib-analyze simulate --players position,expert --games 20000
      crib-analyze simulate --game three --games 20000 --continuation
      crib-analyze simulate --lowball --games 2000
      crib-analyze simulate --throw-fives --penalty back-ten --games 2000
      crib-analyze simulate --jokers 1 --games 2000

    With --lowball, --throw-fives, --penalty or --jokers (variants) the standard game is
    played by the engine of --game, every seat throwing by the hand policy within the
    rule (a joker valued in the hand and the crib alike): the points a deal gain a
    penalty column.
    """
    import json

    from crib_analyze.api import simulate as run
    from crib_analyze.render.board import simulated_text

    set_threads(jobs)
    rules = game_rules(game, lowball, throw_fives, penalty, jokers)
    pair = None
    if given("players"):
        pair = [p.strip() for p in players.split(",")]
        if len(pair) != 2:
            raise click.UsageError(
                f"--players takes two policies, e.g. expert,position; got {players!r}"
            )
    asked = asked_for(
        position_from=position_from, position_samples=position_samples,
        candidates=candidates, goal=goal, scoring=scoring, batch=batch, scheduler=scheduler,
        record=record, play_policy=play_policy, continuation=continuation,
        throw_policy=throw_policy,
    )  # fmt: skip
    expected = simulate_seconds(games, tuple(pair or ()), asked["play_policy"], rules)
    with progress("games", quiet) as bar:

        def log(entry: Any) -> None:
            if entry.done == 0:  # the inputs are sound: say how long it will take
                warn_if_long(expected / (2 if scheduler else 1), f"{games:,} games", quiet)
            bar(entry.done, entry.total)

        with domain_errors():
            stats = run(games, pair, seed=seed, log=log, game=rules, **asked)
    data = stats.as_dict()
    text = simulated_text(data | {"verdict": stats.verdict})
    emit(json.dumps(data, indent=1) + "\n" if fmt == "json" else text, output)
