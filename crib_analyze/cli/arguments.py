"""Turning what was typed into the API's arguments: which options the user gave
(the rest left to the API's defaults), the role or seat asked for, the game's rules,
cards, threads."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

import click

from crib_analyze.cli.output import (
    domain_errors,
)
from crib_analyze.errors import CardError


def game_rules(
    game: str, lowball: bool = False, throw_fives: bool = False, penalty: str = "none",
    jokers: int = 0,
) -> Any:  # fmt: skip
    """The :class:`~crib_analyze.rules.Rules` of ``--game`` with the variants asked for
    (a one-line usage error if they do not go together)."""
    from crib_analyze.api import game as rules_of

    with domain_errors():
        return rules_of(
            game, lowball=lowball, throw_fives=throw_fives, penalty=cast(Any, penalty),
            jokers=jokers,
        )  # fmt: skip


def given(name: str) -> bool:
    """True if the user gave the current command's parameter ``name`` (not its default)."""
    from click.core import ParameterSource

    ctx = click.get_current_context()
    return ctx.get_parameter_source(name) not in (ParameterSource.DEFAULT, None)


def pegging_asked(pegging: str, no_pegging: bool) -> str | None:
    """``--pegging``, with ``--no-pegging`` as its short form: the value given, or None
    when neither was (the request's default then applies)."""
    if no_pegging:
        if pegging not in ("table", "none"):  # the default, or the same
            raise click.UsageError("--no-pegging contradicts --pegging " + pegging)
        return "none"
    return pegging if given("pegging") else None


def asked_for(**values: Any) -> dict[str, Any]:
    """Each value the user gave, None for each left at its default: the request's own
    defaults (which may differ by game) then apply, and the API refuses, by name, an
    option given to an engine that does not honour it."""
    return {name: value if given(name) else None for name, value in values.items()}


def refuse_options(refused: Callable[[str], bool], why: str) -> None:
    """A usage error, "OPTION ``why``", for the first option of the current command that
    ``refused`` names and the user gave (not left at its default)."""
    for param in click.get_current_context().command.params:
        name = param.name or ""
        if isinstance(param, click.Option) and refused(name) and given(name):
            raise click.UsageError(f"{param.opts[0]} {why}")


def seat_of(names: tuple[str, ...], seat: str | None, dealer: bool, pone: bool) -> str:
    """The seat asked for with --game: --seat, or --dealer/--pone (which must agree)."""
    flag = "dealer" if dealer else "pone" if pone else None
    if dealer and pone:
        raise click.UsageError("choose --dealer or --pone, not both")
    if flag is not None and seat is not None and flag != seat:
        raise click.UsageError(f"--{flag} contradicts --seat {seat}")
    chosen = seat or flag
    if chosen is None and names == ("pone", "dealer"):
        raise click.UsageError("choose one of --dealer and --pone")
    if chosen is None:
        raise click.UsageError(f"say which seat: --seat {'|'.join(names)}")
    return chosen


def set_threads(jobs: int | None) -> None:
    """Cap numba's threads (--jobs)."""
    if jobs is not None:
        import numba

        numba.set_num_threads(min(jobs, numba.config.NUMBA_NUM_THREADS))  # type: ignore[attr-defined]


def cards_or_fail(tokens: Any, count: int) -> list[int]:
    """Parse cards for a command; a bad token is a usage error naming it."""
    from crib_analyze.cards import parse_cards

    try:
        return parse_cards(list(tokens), count=count)
    except CardError as e:
        raise click.UsageError(str(e)) from None


def role_of(
    dealer: bool, pone: bool, required: bool = False, role: str | None = None
) -> str | None:
    """The role chosen by --dealer / --pone or --role (None for none, unless required)."""
    if dealer and pone:
        raise click.UsageError("choose one of --dealer and --pone, not both")
    flag = "dealer" if dealer else "pone" if pone else None
    if role is not None and flag is not None and role != flag:
        raise click.UsageError(f"--role {role} contradicts --{flag}")
    chosen = flag or role
    if required and chosen is None:
        raise click.UsageError("choose one of --dealer and --pone")
    return chosen


def no_jokers_unasked(words: Sequence[str]) -> None:
    """A usage error for a joker (JK) among cards given without --jokers."""
    if any(t.upper() == "JK" for t in " ".join(words).split()):
        raise click.UsageError("JK is a joker: give --jokers 1 (or 2) to count it")


ChoiceT = TypeVar("ChoiceT", bound=str)


def chosen(value: str, choices: tuple[ChoiceT, ...]) -> ChoiceT:
    """A click choice as the typed value it names, one of ``choices`` (a settings tuple
    of a Literal type): the API then takes it without a cast."""
    for choice in choices:
        if choice == value:
            return choice
    raise click.UsageError(f"{value!r} is not one of {', '.join(choices)}")
