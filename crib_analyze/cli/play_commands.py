"""Commands about the play: ``peg`` (score a written play), ``play`` (which card to lay),
``build-pegging`` (rebuild the pegging table)."""

from __future__ import annotations

from typing import Any

import click

from crib_analyze.cli.arguments import (
    asked_for,
    chosen,
    game_rules,
    given,
    no_jokers_unasked,
    role_of,
    seat_of,
    set_threads,
)
from crib_analyze.cli.options import (
    amount_type,
    build_output_option,
    checked_scheduler,
    checks_option,
    count_option,
    format_option,
    game_option,
    jobs_option,
    jokers_option,
    lowball_option,
    model_option,
    penalty_option,
    play_policy_option,
    quiet_option,
    role_option,
    score_option,
    seed_option,
    throw_fives_option,
)
from crib_analyze.cli.output import (
    RESUME_BUILD,
    domain_errors,
    emit,
    first_use,
    note,
    resumable,
    warn_if_long,
    with_cost,
)
from crib_analyze.costs import build_seconds, cost, pegging_seconds
from crib_analyze.settings import (
    PEGGING_MAX_DEALS,
    PEGGING_PILOT,
    PEGGING_TARGET_SE,
    PLAY_POLICIES,
    PLAY_SAMPLES,
    POSITION_SAMPLES,
)


def _render(rows: Any, fmt: str, text: Any) -> str:
    from crib_analyze.render.common import rows_csv, rows_json

    if fmt == "table":
        return str(text(rows))
    return (rows_csv if fmt == "csv" else rows_json)(rows)


@click.command()
@click.argument("sequence", nargs=-1, required=True)
@click.option(
    "--pone-hand", metavar="CARDS", help="The pone's four cards, to check every card and go."
)
@click.option("--dealer-hand", metavar="CARDS", help="The dealer's four cards (with --pone-hand).")
# the names before 0.5 (elsewhere --pone and --dealer say your role): still read, not shown
@click.option("--pone", "old_pone_hand", hidden=True)
@click.option("--dealer", "old_dealer_hand", hidden=True)
@game_option
@click.option(
    "--hand",
    "hands",
    multiple=True,
    metavar="CARDS",
    help="A seat's hand, to check every card and go: repeat once per seat, from the "
    "dealer's left, the dealer's last (any game).",
)
@jokers_option(
    "Jokers in the pack: write each as the card it is laid as, JK=5H (it may repeat "
    "a card in play: five and six of a kind peg 20 and 30), or JK alone for the card "
    "that pegs most there."
)
@format_option(help="Readable, or CSV/JSON (one row per card or go).")
def peg(
    sequence: tuple[str, ...],
    pone_hand: str | None,
    dealer_hand: str | None,
    old_pone_hand: str | None,
    old_dealer_hand: str | None,
    game: str,
    hands: tuple[str, ...],
    jokers: int,
    fmt: str,
) -> None:
    """Score a play (pegging), card by card: who laid it, the count, points and why.

    The pone leads (with more players, the seat on the dealer's left, and the turn goes
    left). Write 'go' where a player says go; it may be left out where it is forced (a
    card that does not fit under 31 means nobody could lay). With the hands (--pone-hand
    and --dealer-hand, or --hand per seat) every card is checked against its owner's hand
    and every go against the cards still held, and a go the hands imply may be left out.

    \b
    Example:
      crib-analyze peg 10H 5S 7C 6D go 2H 6C 4S 4D
      crib-analyze peg 10H 5S 7C 6D --pone-hand "10H 7C 6C 4D" \\
        --dealer-hand "5S 6D 2H 4S"
      crib-analyze peg --game three 7H 7S 7D 5S 5H 8C 10D 10C go go 3D 10H 4C 9S
      crib-analyze peg 5H 5C 5S 5D JK=5H JK=5C --jokers 2
    """
    from crib_analyze.api import score_play_rows
    from crib_analyze.render.play import play_text

    for seat, old in (("pone", old_pone_hand), ("dealer", old_dealer_hand)):
        if old is None:
            continue
        if given(f"{seat}_hand"):
            raise click.UsageError(f"--{seat} and --{seat}-hand are the same: give one")
        note(f"--{seat} CARDS is now --{seat}-hand CARDS (--{seat} alone says your role)")
    pone_hand = pone_hand if pone_hand is not None else old_pone_hand
    dealer_hand = dealer_hand if dealer_hand is not None else old_dealer_hand
    with domain_errors():
        rows = score_play_rows(
            list(sequence), pone_hand, dealer_hand, game, list(hands) or None, jokers
        )
    emit(_render(rows, fmt, play_text), None)


@click.command()
@checks_option
@click.argument("cards", nargs=-1, required=True)
@click.option("--dealer", is_flag=True, help="You deal.")
@click.option("--pone", is_flag=True, help="You are the pone (you lead).")
@role_option
@game_option
@click.option(
    "--seat",
    help="With --game: your seat, by its name in 'crib-analyze games' (e.g. left, dealer).",
)
@click.option("--starter", "-s", help="The starter (cut card).")
@click.option("--discards", help="The two cards you threw (not in the opponent's hand).")
@click.option(
    "--played", default="", help="The play so far, the pone's card first, e.g. '10H 5S 7C'."
)
@play_policy_option(
    "--policy",
    "How the rest of the play is valued: solver reads the opponent and solves each hand it "
    "may hold; the others simulate both players playing that policy.",
)
@count_option(
    "--samples", setting=PLAY_SAMPLES,
    help="Draws of the opponent's cards (simulating policies; the solver solves every hand).",
)  # fmt: skip
@seed_option()
@model_option
@score_option(
    "Yours-theirs now (the play so far counted; needs --starter): rank the cards by the "
    "chance of winning the game, from the solver's play and the board table (with --game or "
    "a variant: the game's board, a variant's made on its first use, or the game played on "
    "where it has none; three or five players give one score a seat, yours first)."
)
@lowball_option(
    "the lowest net is best; every seat lays for the fewest points (simulated as with --game)."
)
@throw_fives_option("The other seats' cards are drawn without fives (simulated as with --game).")
@penalty_option("it changes the shows, not the play (simulated as with --game).")
@jokers_option(
    "Jokers in the pack (write one JK): each is laid as the rank that serves best, valued by "
    "the solver as with --game (or by --policy); a joker laid is written JK=5H."
)
@click.option(
    "--why", is_flag=True,
    help="Say what each card scores now, the count it leaves, and the replies it invites "
    "(with the chance the opponent holds one, every card you cannot see alike).",
)  # fmt: skip
@format_option()
def play(
    cards: tuple[str, ...],
    dealer: bool,
    pone: bool,
    role: str | None,
    game: str,
    seat: str | None,
    starter: str | None,
    discards: str | None,
    played: str,
    policy: str,
    samples: int,
    seed: int,
    model: str | None,
    score: str | None,
    lowball: bool,
    throw_fives: bool,
    penalty: str,
    jokers: int,
    why: bool,
    fmt: str,
) -> None:
    """Which card to play now: rank your legal cards by the pegging they are worth.

    Give the cards you still hold, your role, and the play so far. The table shows each
    legal card's expected pegging differential (yours minus the opponent's) for the rest
    of the play, and marks the card the policy lays. The default solver reads the
    opponent (every hand it may hold weighted by its throw, the cards it has laid and
    its goes) and solves the rest of the play exactly for each: nothing is sampled, so
    the s.e. is 0. The other policies lay each card in --samples simulated
    continuations (both playing --policy; search's continuations play lookahead).

    With --game (another game of 'crib-analyze games') and --seat, --played runs from
    the dealer's left-hand player, and each card is valued by the rest of the play
    simulated with the other seats' cards drawn at random (the same draws for every
    card; everybody plays --policy lookahead or greedy; with --policy solver the rest is
    solved exactly for each draw, every seat playing its side's best with all cards
    known, the default with players each for themselves: with five, once the other
    seats hold 12 cards or fewer, the lookahead before): your side's points less the
    other sides' mean. With nothing that fits, the answer is go.

    \b
    Examples:
      crib-analyze play 7C 8D 2C --pone --starter 5H --played "3D 10S"
      crib-analyze play 5C 9D KS 2H --game three --seat dealer --starter 4D \\
        --played "7H 3S"
      crib-analyze play 7C 8D 2C --pone --starter 5H --played "3D 10S" --lowball
      crib-analyze play 5C 9D KS 2H --dealer -s 4D --played 7H --score 119-119

    With --score, near the end the card that wins is not always the one that pegs
    most: each card is ranked by the chance of winning the game (P(win)), the rest of
    the play solved for each hand the opponent may hold, then the shows and the board.
    With --game or a variant the other seats' cards are drawn, each draw weighed by the
    chance their throws keep those cards, and the game's board values the end of the
    deal: the one shipped, or a variant's made once on its first use (a wait said
    first). Where a game has no board (five players, three under back ten) it is played
    on to its end, once a draw.

    With --lowball (loser's cribbage) the play is valued as with --game, every seat
    laying for the fewest points, and the lowest net is best. With --throw-fives the
    other seats threw their fives: their cards are drawn without them; --penalty
    changes the shows, not the play. With --jokers your joker is valued as each rank
    that fits ("JK as 5"), and every joker after it, the other seats' too, is laid as
    the rank that serves its seat best, the rest solved for each draw as with --game
    (or played out by --policy lookahead or greedy, each joker as the rank it values
    most).
    """
    from crib_analyze.api import advise_play_rows
    from crib_analyze.api.capabilities import engine_for
    from crib_analyze.render.play import advice_text, game_advice_text

    if not jokers:
        no_jokers_unasked([*cards, played, discards or "", starter or ""])
    rules = game_rules(game, lowball, throw_fives, penalty, jokers)
    if engine_for(rules) == "any-game":  # the table's kernels, not the two-player solver's
        first_use("play --game --score" if score else "play --game")
    flag = role_of(dealer, pone, role=role)  # --role is --dealer or --pone
    chosen = seat_of(rules.seat_names, seat, flag == "dealer", flag == "pone")
    asked = asked_for(policy=policy, model=model, score=score)
    with domain_errors():
        rows = advise_play_rows(
            chosen, list(cards), starter, discards, played, samples=samples, seed=seed,
            game=rules, **asked,
        )  # fmt: skip
    text = game_advice_text if "net" in rows.columns else lambda rows: advice_text(rows, why)
    emit(_render(rows, fmt, text), None)


@click.command()
@checks_option
@click.argument("record", type=click.Path(dir_okay=False))
@count_option(
    "--position-samples", setting=POSITION_SAMPLES,
    help="Deals per throw when a deal's score is recorded (its chance of winning).",
)  # fmt: skip
@seed_option()
@model_option
@format_option(help="Readable, or CSV/JSON (one row per decision).")
def review(record: str, position_samples: int, seed: int, model: str | None, fmt: str) -> None:
    """Grade a recorded game decision by decision, like a chess engine's analysis.

    RECORD is a text file of deals, from your side: for each, a line 'deal', then
    'dealer: me' (or 'opponent'), 'hand:' your six cards, 'throw:' your two, 'starter:',
    'play:' every card laid in order (the pone's first; 'go' optional) and optionally
    'score:' yours-theirs before the deal. Each throw is ranked against all 15 (hand +
    crib + pegging, expert opponent) and each card you laid against the solver's
    advice; the table shows the best alternative and what each choice lost in expected
    points (and in chance of winning where the score is given), then the worst
    mistakes and the total. A record of one deal ('#' starts a comment):

    \b
      deal
      dealer: me
      score: 95-100
      hand: 5H 6S 4D JC QH 5C
      throw: JC QH
      starter: 2D
      play: 9C 6S 9D 4D 3C 5H

    \b
    Example:
      crib-analyze review my_game.txt
    """
    from crib_analyze.api import review as review_game
    from crib_analyze.render.play import review_text
    from crib_analyze.results import rows_of_frame

    with domain_errors():
        frame = review_game(record, position_samples, seed, model)
    emit(_render(rows_of_frame(frame), fmt, review_text), None)


@with_cost(
    lambda: (
        f"{cost('build-pegging').text()} with the solver (2,000 to 8,000 deals a cell by default)"
    )
)
@click.command("build-pegging")
@build_output_option("table", "pegging_table.npz")
@click.option(
    "--target-se",
    type=amount_type(PEGGING_TARGET_SE),
    default=PEGGING_TARGET_SE.default,
    show_default=True,
    help="Play each cell until the standard error of its pegging differential is this.",
)
@count_option(
    "--pilot", setting=PEGGING_PILOT,
    help="Deals per cell in the first stage (they estimate each cell's variance).",
)  # fmt: skip
@count_option("--max-deals", setting=PEGGING_MAX_DEALS, help="Deals per cell at most.")
@seed_option()
@play_policy_option("--policy", "The play policy of both players.")
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=checked_scheduler,
    help="Run the batches on a Dask cluster (e.g. tcp://host:8786); the same table as a "
    "local run. Needs pip install 'crib-analyze[distributed]'.",
)
@model_option
@jobs_option
@quiet_option
def build_pegging(
    output: str | None,
    target_se: float,
    pilot: int,
    max_deals: int,
    seed: int,
    policy: str,
    scheduler: str | None,
    model: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Rebuild the pegging table: what each keep pegs, by role.

    For each of the 1,820 kept rank multisets and each role, deals are simulated: the
    opponent's six cards from the unseen ones, thrown by the expert discard policy, the
    starter from the rest, both players playing the policy to the end. Seeded and
    reproducible on any number of threads; a killed build resumes from its checkpoint.
    The packaged table stays the default.
    """
    from crib_analyze.api import build_pegging as run

    set_threads(jobs)
    warn_if_long(pegging_seconds(pilot, policy), "the build", quiet, at_least=True)

    def log(entry: Any) -> None:
        if not quiet:
            note(
                f"stage {entry.stage}: {entry.done}/{entry.total} cells, "
                f"{entry.deals:,} deals, {entry.seconds:.0f} s"
            )

    with domain_errors(), resumable(RESUME_BUILD):
        built = run(
            output, target_se=target_se, pilot=pilot, max_deals=max_deals, seed=seed,
            policy=chosen(policy, PLAY_POLICIES), log=log, model=model, scheduler=scheduler,
        )  # fmt: skip
    p = built.provenance
    click.echo(
        f"{p['deals']:,} deals in {p['seconds']} s, largest standard error "
        f"{p['max_se']:.4f}; wrote {built.path}"
    )


@with_cost(lambda: cost("build-leads").text())
@click.command("build-leads")
@build_output_option("leads", "solver_leads.npz")
@model_option
@jobs_option
@quiet_option
def build_leads(output: str | None, model: str | None, jobs: int | None, quiet: bool) -> None:
    """Rebuild the solver's leads and replies for an expert model.

    For each of the 1,820 kept rank multisets and each starter rank: the card the solver
    leads as pone; then for each lead rank too, the card it lays as dealer in reply. The
    solver reads the pone's lead and the dealer's reply by them, with the model they were
    made with only. The packaged leads match the packaged model; after build-model, run
    this with the same --model so the solver reads leads by the new model (written to
    the user data dir, they are found there). A killed build resumes.
    """
    from crib_analyze.api import build_leads as run

    set_threads(jobs)
    warn_if_long(build_seconds("build-leads"), "the build", quiet)

    def log(done: int, seconds: float) -> None:
        if not quiet:
            what = "leads" if done <= 13 else "replies"
            note(f"{done}/26 steps (each starter rank's leads, then its replies): {what}, "
                 f"{seconds:.0f} s")  # fmt: skip

    with domain_errors(), resumable(RESUME_BUILD):
        built = run(output, log=log, model=model)
    p = built.provenance
    click.echo(f"leads of model {p['expert_model']} in {p['seconds']} s; wrote {built.path}")
