"""``discard``'s other modes: a file of hands, a lookup in a written table, the auction,
and a seat of another game (the options each honours)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TextIO

import click

from crib_analyze import interrupts
from crib_analyze.cards import format_cards, read_hand_lines
from crib_analyze.cli.arguments import (
    cards_or_fail,
    chosen,
    no_jokers_unasked,
    refuse_options,
)
from crib_analyze.cli.output import (
    as_options,
    domain_errors,
    emit,
    note,
    progress,
    unverified_note,
    warn_if_long,
)
from crib_analyze.errors import CardError
from crib_analyze.settings import OPPONENTS, ROLES

if TYPE_CHECKING:  # numpy loads only with a command that computes
    from crib_analyze.results import Rows

# --- discard ----------------------------------------------------------------------------------


def discard_from_table(
    cards: tuple[str, ...],
    table: str,
    trust_unverified: bool,
    opponent: str,
    role: str | None,
    hands_file: TextIO | None,
    fmt: str,
    output: str | None,
    top: int | None,
) -> None:
    """discard --from-table: the hand's rows read from a generated table, as the live
    analysis shows them (its ranking, keep order and --top)."""
    from crib_analyze.api import lookup
    from crib_analyze.render.common import rows_csv, rows_json
    from crib_analyze.render.hands import lookup_text
    from crib_analyze.results import rows_of_frame

    if hands_file is not None:
        raise click.UsageError("--from-table reads one hand; it does not go with --hands-file")
    hand = cards_or_fail(cards, 6)
    with domain_errors():
        as_role = None if role is None else chosen(role, ROLES)
        frame = lookup(hand, table or None, chosen(opponent, OPPONENTS), as_role, trust_unverified)
        rows = rows_of_frame(frame)
    unverified_note(rows)
    if top is not None:
        rows = rows.take(list(range(min(top, len(rows)))))
    if fmt == "table":
        text = lookup_text(rows, format_cards(hand))
    else:
        text = (rows_csv if fmt == "csv" else rows_json)(rows)
    emit(text, output)


def stream_name(stream: TextIO) -> str:
    try:
        return str(stream.name)
    except AttributeError:  # a wrapped in-memory stream
        return "<stdin>"


AUCTION_OPTIONS = {
    "cards", "opponent", "pegging", "no_pegging", "score", "model", "position_samples",
    "seed", "fmt", "output", "quiet", "auction",
}  # fmt: skip


def auction_mode(
    cards: tuple[str, ...], opponent: str, pegging: str, score: str | None, model: str | None,
    position_samples: int | None, seed: int, fmt: str, output: str | None,
) -> None:  # fmt: skip
    """``discard --auction``: the crib's worth to the holder of ``cards``."""
    from crib_analyze.api import auction_rows
    from crib_analyze.render.common import rows_csv, rows_json
    from crib_analyze.render.hands import auction_text

    refuse_options(lambda name: name not in AUCTION_OPTIONS, "does not go with --auction")
    with domain_errors():
        rows = auction_rows(
            list(cards), chosen(opponent, OPPONENTS), pegging, score, model, position_samples,
            seed,
        )  # fmt: skip
    render = {"table": auction_text, "csv": rows_csv, "json": rows_json}[fmt]
    emit(render(rows), output)


def auction_alias(cards: tuple[str, ...], request: Any, fmt: str, output: str | None) -> None:
    """``discard --auction``, the alias of the auction command: its options as given."""
    given = click.get_current_context().params
    auction_mode(
        cards, given["opponent"], request.pegging or given["pegging"], given["score"],
        given["model"], given["position_samples"], given["seed"], fmt, output,
    )  # fmt: skip


def check_modes(
    cards: tuple[str, ...], request: Any, from_table: str | None, plot_path: str | None,
    hands_file: TextIO | None,
) -> None:  # fmt: skip
    """Which of discard's modes (cards or a file of hands, a table lookup, a plot) go
    together, and with the request's options."""
    if hands_file is not None and cards:
        raise click.UsageError("give cards or --hands-file, not both")
    if plot_path is not None and hands_file is not None:
        raise click.UsageError("--plot draws one hand; it does not go with --hands-file")
    if request.score is not None and from_table is not None:
        raise click.UsageError("--score does not go with --distribution or --from-table")
    if not request.jokers:
        no_jokers_unasked(cards)
    elif plot_path is not None or hands_file is not None:
        raise click.UsageError("--jokers analyses one hand, without --plot")
    variants = request.penalty != "none" or request.throw_fives or request.lowball
    if from_table is not None and (variants or request.jokers):
        raise click.UsageError(
            "--penalty, --throw-fives and --lowball need the live analysis, not --from-table"
        )


#: the discard options that go with --game (the rest are the standard game's)
GAME_OPTIONS = {
    "cards", "game", "seat", "dealer", "pone", "top", "fmt", "output", "quiet", "others",
    "samples", "seed", "lowball", "throw_fives", "penalty", "need", "distribution",
    "score", "position_samples", "starters", "jokers", "pegging", "no_pegging",
}  # fmt: skip
JOKER_OPPONENT = {"opponent", "policy"}


def discard_for_seat(
    cards: tuple[str, ...], request: Any, fmt: str, output: str | None, starters: bool = False
) -> None:
    """``discard --game``: every split of one seat's cards (a resolved request for the
    any-game engine; the best ``top``, the verdict over all of them)."""
    from crib_analyze.api import discard_rows_for
    from crib_analyze.api.capabilities import label
    from crib_analyze.render.common import rows_csv, rows_json
    from crib_analyze.render.hands import distribution_text, game_throws_text

    where = as_options(label(request.game))
    # the standard game with jokers against the expert (or a sampled) opponent is answered
    # here: the request moved it to the role's seat and kept the opponent asked
    allowed = GAME_OPTIONS | (JOKER_OPPONENT if request.opponent is not None else set())
    refuse_options(lambda name: name not in allowed, f"does not go with {where} yet")
    with domain_errors(), progress("deals played", request.pegging != "simulated") as bar:
        rows = discard_rows_for(list(cards), request, on_progress=bar)
    if fmt == "table" and request.distribution:
        emit(distribution_text(rows, " ".join(cards)), output)
    elif fmt == "table":
        emit(game_throws_text(rows, starters), output)
    else:
        emit((rows_csv if fmt == "csv" else rows_json)(rows), output)


def discard_hands_file(
    hands_file: TextIO, request: Any, fmt: str, output: str | None, quiet: bool,
    run: Callable[[list[int]], Rows], render: Callable[[Rows, str], str],
) -> None:  # fmt: skip
    """``discard --hands-file``: each line's hand ranked by ``run`` (the request's
    analysis), laid out by ``render``; a bad line is reported with its number and the
    rest go on (exit 1 at the end). A file expected to take long is announced first."""
    from crib_analyze.results import concat_rows

    samples, opponent = request.samples, request.opponent
    score, pegging = request.score, request.pegging
    source = stream_name(hands_file)
    try:
        with interrupts.immediate():  # reading may wait on a terminal or a pipe
            lines = list(read_hand_lines(hands_file))
    except UnicodeDecodeError as e:
        raise click.BadParameter(
            f"{source} is not UTF-8 text ({e.reason})", param_hint="--hands-file"
        ) from None
    if not lines:
        raise click.BadParameter(
            f"{source} has no hands (one hand of six cards per line)", param_hint="--hands-file"
        )
    hands = sum(not isinstance(parsed, CardError) for _, parsed in lines)
    sampled = samples if opponent == "sampled" else None
    roles = (1 if request.role else 2) if pegging in ("simulated", "exact") else 0
    from crib_analyze.costs import discard_seconds

    expected = discard_seconds(hands, score is not None, roles, sampled)
    warn_if_long(expected, f"{hands:,} hands", quiet)
    parts, tables, failures = [], [], 0
    with progress("hands", quiet) as bar:
        for done, (lineno, parsed) in enumerate(lines, start=1):
            if isinstance(parsed, CardError):
                failures += 1
                note(f"Error: {source} line {lineno}: {parsed}")
                continue
            interrupts.check()
            hand_text = format_cards(parsed)
            rows = run(parsed)
            if fmt == "table":
                tables.append(render(rows, hand_text))
            else:
                parts.append(rows.with_first("hand", hand_text))
            bar(done, len(lines))
    if fmt == "table":
        text = "\n".join(tables)
    elif parts:
        text = render(concat_rows(parts), "")
    else:
        text = "" if fmt == "csv" else "[]\n"
    emit(text, output)
    if failures:
        note(f"{failures} line(s) failed")
        raise click.exceptions.Exit(1)
