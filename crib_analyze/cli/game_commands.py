"""``games``: the games of the rules this tool knows, a line each."""

from __future__ import annotations

import click

from crib_analyze.cli.options import format_option
from crib_analyze.cli.output import domain_errors, emit


@click.command("games")
@format_option(help="Readable, or CSV/JSON (one row per game).")
def games(fmt: str) -> None:
    """List the games of the rules: players, cards dealt and thrown, the target.

    Every game is to 121 unless its line says otherwise. Seats are named from the
    dealer's left, the dealer last (with two players: pone, dealer). Two players with
    six cards each ('standard') is the default everywhere.

    \b
    Example:
      crib-analyze games
      crib-analyze games -f json
    """
    from crib_analyze.api import games_rows
    from crib_analyze.render.common import rows_csv, rows_json

    with domain_errors():
        rows = games_rows()
    if fmt != "table":
        emit((rows_csv if fmt == "csv" else rows_json)(rows), None)
        return
    width = max(len(g) for g in rows["game"])
    lines = [
        f"{g:<{width}}  {summary}" for g, summary in zip(rows["game"], rows["summary"], strict=True)
    ]
    lines += ["", "seats, from the dealer's left:"]
    for players in sorted(set(rows["players"].tolist())):
        seats = rows["seats"][rows["players"] == players][0]
        lines.append(f"  {players} players: {seats}")
    emit("\n".join(lines) + "\n", None)
