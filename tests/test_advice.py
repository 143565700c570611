"""Which card to play now (advise_play, crib-analyze play): the position is rebuilt from
the play so far, only legal cards are ranked, values carry standard errors, and bad
positions are one-line errors.

Mutations tried (each fails a test here): the opponent's kept-card count taken as zero
for the policy's own choice; the legal-card filter dropped (a card over 31 offered).
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.play.sequence import PlayError


def test_the_dealer_takes_the_run_in_the_seeds_example() -> None:
    """After pone 10, dealer 5, pone 7 (22), the dealer's 6 makes a run of three."""
    frame = ca.advise_play("dealer", "6D 2H 4S", played="10H 5S 7C", samples=600)
    assert set(frame["card"]) == {"6D", "2H", "4S"}
    assert frame.loc[0, "card"] == "6D"
    assert frame.loc[0, "value"] > frame.loc[1, "value"] + 2 * frame.loc[1, "se"]
    assert (frame["se"] > 0).all() and frame["policy_choice"].sum() == 1
    assert frame.attrs["count"] == 22


def test_only_legal_cards_and_a_forced_card() -> None:
    # at 28 only the 2 fits (a 6 or 4 would pass 31)
    frame = ca.advise_play("dealer", "2H 4S", played="10H 5S 7C 6D go", samples=200)
    assert list(frame["card"]) == ["2H"] and frame["policy_choice"].tolist() == [True]


def test_the_pone_leads_low_rather_than_a_seven() -> None:
    frame = ca.advise_play("pone", "7C 8D 2C 3D", starter="5H", discards="9H KS", samples=800)
    assert frame.loc[0, "card"] in ("2C", "3D")
    chosen = frame[frame["policy_choice"]]["card"].item()
    assert chosen in ("2C", "3D")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ({"role": "pone", "hand": "7C 8D 2C", "played": "10H"}, "dealer's turn"),
        ({"role": "pone", "hand": "7C 8D", "played": ""}, "that is not four"),
        ({"role": "dealer", "hand": "7C 8D 2C 10H", "played": "10H"}, "given twice"),
        ({"role": "dealer", "hand": "KC QC JC", "played": "10H 10S 5C"}, "say go"),
    ],
)
def test_bad_positions(args: dict[str, str], message: str) -> None:
    with pytest.raises((PlayError, ca.CardError), match=message):
        ca.advise_play(**args, samples=10)  # type: ignore[arg-type]


def test_cli() -> None:
    runner = CliRunner()
    result = runner.invoke(
        cli, ["play", "6D", "2H", "4S", "--dealer", "--played", "10H 5S 7C", "--samples", "300"]
    )
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[0].startswith("as dealer at count 22")
    assert lines[1].startswith("the opponent's cards weighted by")
    assert lines[3].split()[0] == "6D"
    assert runner.invoke(cli, ["play", "6D", "--played", "10H"]).exit_code == 2
    bad = runner.invoke(cli, ["play", "7C", "8D", "2C", "--pone", "--played", "10H"])
    assert bad.exit_code == 2 and bad.stderr.startswith("Error: it is the dealer's turn")
