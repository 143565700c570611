"""Commands about the expert models and files: ``build-model`` (rebuild the expert
opponent), ``build-game-models`` (the other games' expert throws) and ``paths`` (where
files go)."""

from __future__ import annotations

import click

from crib_analyze.cli.arguments import given, set_threads
from crib_analyze.cli.options import (
    amount_type,
    build_output_option,
    checked_scheduler,
    count_option,
    format_option,
    jobs_option,
    jokers_option,
    lowball_option,
    quiet_option,
    seed_option,
    throw_fives_option,
)
from crib_analyze.cli.output import (
    RESUME_BUILD,
    domain_errors,
    note,
    resumable,
    warn_if_long,
    with_cost,
)
from crib_analyze.costs import build_seconds, cost
from crib_analyze.settings import (
    GAME_MODEL_DEALS,
    GAME_MODEL_ROUNDS,
    GAME_MODELS_ENV,
    GAMES_WITH_MODELS,
    JOKER_MODEL_GAMES,
    MODEL_ENV,
    MODEL_MAX_ROUNDS,
    MODEL_TOLERANCE,
    model_variant_of,
)


@with_cost(lambda: cost("build-model").text())
@click.command("build-model")
@build_output_option("model", "expert_model.npz")
@click.option(
    "--tolerance",
    type=amount_type(MODEL_TOLERANCE),
    default=MODEL_TOLERANCE.default,
    show_default=True,
    help="Stop when no role crib value moves by this much in a round.",
)
@count_option("--max-rounds", setting=MODEL_MAX_ROUNDS, help="Round cap.")
@click.option(
    "--pegging/--no-pegging",
    default=True,
    show_default=True,
    help="Throws count the play too (the pegging-aware expert), or hand and crib only "
    "(the classic expert).",
)
@click.option(
    "--pegging-table",
    type=click.Path(dir_okay=False),
    help="The pegging values to use (from build-pegging) [default: the packaged table].",
)
@throw_fives_option("Build the classic expert of the variant (the packaged throw-fives model).")
@lowball_option(
    "build the classic expert whose players want the fewest points (the packaged lowball model)."
)
@jobs_option
@quiet_option
def build_model(
    output: str | None,
    tolerance: float,
    max_rounds: int,
    pegging: bool,
    pegging_table: str | None,
    throw_fives: bool,
    lowball: bool,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Rebuild the expert opponent: role-specific throw models by damped fixed point.

    Starts from the random opponent; each round every suit-distinct hand (weighted by
    the raw hands it stands for) picks its best discard as dealer and as pone against
    the current models (on hand +- crib + pegging, or hand +- crib with --no-pegging),
    and the throw statistics of those choices are averaged into the models with weight
    1/k (fictitious play). Logs each round's largest change. Each finished round is
    saved beside the output: after Ctrl-C or a kill, the same command resumes.
    The packaged model stays the default: use the rebuilt one with --model FILE or
    CRIB_ANALYZE_MODEL=FILE. With --throw-fives or --lowball the model is the classic
    expert of that variant (every hand throws the fives the rule takes, or wants the
    fewest points), as `discard --opponent expert` plays it under the variant.
    """
    from typing import Any

    from crib_analyze.api import build_model as run

    set_threads(jobs)
    warn_if_long(build_seconds("build-model"), "the build", quiet)

    def log(r: Any) -> None:
        if not quiet:
            note(
                f"round {r.round:3d}  role-table change {r.table_change:.5f}  "
                f"class change {r.class_change:.5f}  {r.seconds:.1f} s"
            )

    variant = model_variant_of(throw_fives, lowball)
    with domain_errors(), resumable(RESUME_BUILD):
        built = run(
            output,
            tolerance=tolerance,
            max_rounds=max_rounds,
            log=log,
            pegging=pegging if variant is None or given("pegging") else None,
            pegging_table=pegging_table,
            variant=variant,
        )
    p = built.model.provenance
    state = "converged" if p["converged"] else "NOT converged"
    click.echo(f"{state} after {p['rounds']} rounds in {p['seconds']} s; wrote {built.path}")
    click.echo(f"use it with --model {built.path} (or {MODEL_ENV}={built.path})")
    if not p["converged"]:
        raise click.exceptions.Exit(1)


@with_cost(
    lambda: f"{cost('build-game-models').text()} for every game",
    lambda: f"{cost('build-game-models-jokers').text()} a game with --jokers",
)
@click.command("build-game-models")
@build_output_option("game models", "game_models.npz")
@click.option(
    "--game",
    "games",
    multiple=True,
    type=click.Choice(("standard", *GAMES_WITH_MODELS)),
    metavar="GAME",
    help=f"A game to rebuild: {', '.join(GAMES_WITH_MODELS)} (repeat for more) [default: "
    "every game but the standard; with --jokers, "
    f"{', '.join(JOKER_MODEL_GAMES)}, the standard game allowed]; "
    "the others are kept as they are in the models in use.",
)
@jokers_option(
    "The models of a pack with this many jokers (the tables gain a joker's rank; "
    "`discard --jokers N --opponent expert` throws by the standard game's)."
)
@throw_fives_option("The models of the variant: every seat throws its fives.")
@lowball_option("the models of players who want the fewest points.")
@count_option("--rounds", setting=GAME_MODEL_ROUNDS, help="Fictitious-play rounds a game.")
@count_option("--deals", setting=GAME_MODEL_DEALS, help="Deals a round.")
@seed_option()
@click.option(
    "--scheduler",
    metavar="ADDRESS",
    callback=checked_scheduler,
    help="Deal each round on a Dask cluster (e.g. tcp://host:8786); the same models as a "
    "local run. Needs pip install 'crib-analyze[distributed]'.",
)
@jobs_option
@quiet_option
def build_game_models(
    output: str | None,
    games: tuple[str, ...],
    rounds: int,
    deals: int,
    seed: int,
    jokers: int,
    throw_fives: bool,
    lowball: bool,
    scheduler: str | None,
    jobs: int | None,
    quiet: bool,
) -> None:
    """Rebuild the expert throws of the other games (three-handed, partners, ...), or of
    any game with jokers in the pack, throw fives or lowball.

    For each game, fictitious play over sampled deals: every seat throws by the current
    tables (the crib's worth by the ranks it throws), each seat's crib is measured
    against the others' throws, and round k's measure is averaged in with weight 1/k.
    Logs each round's largest change. Each finished round is saved beside the output:
    after Ctrl-C or a kill, the same command resumes. Seeded and reproducible on any
    number of threads or on a Dask cluster (--scheduler). Use the rebuilt file with
    CRIB_ANALYZE_GAME_MODELS=FILE.
    """
    from crib_analyze.api import build_game_models as run

    set_threads(jobs)
    if jokers:  # the models of a pack with jokers: measured a game
        expected = build_seconds("build-game-models-jokers") * len(games or JOKER_MODEL_GAMES)
    else:
        expected = build_seconds("build-game-models")
    warn_if_long(expected, "the build", quiet)

    def log(line: str) -> None:
        if not quiet:
            note(line)

    with domain_errors(), resumable(RESUME_BUILD):
        built = run(
            games, output, rounds=rounds, deals=deals, seed=seed, log=log,
            scheduler=scheduler, jokers=jokers, throw_fives=throw_fives, lowball=lowball,
        )  # fmt: skip
    for name in built.parts:
        p = built.provenance[name]
        click.echo(
            f"{name}: {p['rounds']} rounds of {p['deals_per_round']:,} deals, last change "
            f"{p['last_change']:.4f}, largest standard error {p['max_se']:.4f}"
        )
    click.echo(f"wrote {built.path}; use it with {GAME_MODELS_ENV}={built.path}")


@click.command()
@format_option(("table", "json"), help="Readable list or one JSON object.")
def paths(fmt: str) -> None:
    """Show where crib-analyze reads and writes its files."""
    import json

    from crib_analyze.api import paths as locate

    with domain_errors():
        found = locate().as_dict()
    if fmt == "json":
        click.echo(json.dumps(found))
        return
    width = max(len(k) for k in found)
    for key, value in found.items():
        click.echo(f"{key.replace('_', ' '):<{width}}  {value}")
