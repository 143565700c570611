"""The auction variant (``discard --auction``, crib_analyze.auction): the crib's worth
in points against each role's best throw, the break-even bid's search against chances
of winning given by formula, and the command line.

Mutations tried (each fails a test here): the worth taken as the pone's best less the
dealer's; the search keeping the first bid that loses; the bid not capped at the
player's score; "do not bid" not given when owning the crib loses from the start; the
break-even bid in points taken as the whole worth (the loser does not pay: it is half),
the opponent's chance taken without its bid paid.
"""

from __future__ import annotations

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.discard.auction import auction_value
from crib_analyze.results import Rows


def fake_rank(p_owner, p_other):  # type: ignore[no-untyped-def]
    """A ranking whose P(win) follows formulas: yours owning the crib, of your score;
    yours not owning it, of the opponent's (who paid the bid)."""

    def rank(role: str, at: tuple[int, int] | None) -> Rows:
        row = {"total": 20.0 if role == "dealer" else 8.0, "discard": "x", "keep": "y"}
        if at is not None:
            row["p_win"] = p_owner(at[0]) if role == "dealer" else p_other(at[1])
        return Rows.of_records([row])

    return rank


@pytest.mark.parametrize(
    ("owner", "other", "score", "bid"),
    [
        (lambda m: m / 200, lambda t: 0.4, (100, 100), 20),  # 80/200 = 0.4: ties at 20
        (lambda m: m / 200, lambda t: 0.41, (100, 100), 18),  # 82/200 = 0.41
        # the opponent paying raises your chance: (100 - b)/200 >= (100 + b)/400 to b = 33
        (lambda m: m / 200, lambda t: (200 - t) / 400, (100, 100), 33),
        (lambda m: m / 200, lambda t: 0.6, (100, 100), 0),  # owning loses even at 0
        (lambda m: 0.9, lambda t: 0.5, (12, 100), 12),  # never loses: your whole score
        (lambda m: 0.9, lambda t: 0.5, (100, 7), 7),  # nor more than theirs
    ],
)
def test_the_break_even_bid(owner, other, score, bid) -> None:  # type: ignore[no-untyped-def]
    value = auction_value(fake_rank(owner, other), score)
    assert value.bid == bid
    assert value.worth == 12.0 and value.break_even == 6.0  # 20 - b = 8 + b at b = 6


def test_the_worth_is_the_best_totals_apart() -> None:
    hand = "5H 6S 4D JC QH 5C"
    df = ca.auction(hand, opponent="random", pegging="none")
    dealer = ca.analyze(hand, role="dealer", opponent="random", pegging="none")
    pone = ca.analyze(hand, role="pone", opponent="random", pegging="none")
    assert df.worth[0] == pytest.approx(dealer.net.max() - pone.net.max())
    assert df.break_even[0] == pytest.approx(df.worth[0] / 2)
    assert df.discard.tolist() == [dealer.discard[0], pone.discard[0]]


def test_the_command_line() -> None:
    runner = CliRunner()
    out = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--auction"])
    assert out.exit_code == 0, out.output
    said = " ".join(out.output.split())
    worth = float(ca.auction("5H 6S 4D JC QH 5C").worth[0])  # the API's answer, in words
    assert 12 < worth < 20  # the crib and the play are worth owning with this hand
    assert f"worth {worth:.2f} points more than not owning it" in said
    half = worth / 2
    assert f"the break-even bid is half that, {half:.2f} points: bid up to {int(half)}" in said
    late = runner.invoke(
        cli, ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--auction", "--score", "115-118"]
    )
    assert late.exit_code == 0 and "do not bid" in late.output
    bad = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--auction", "--pone"])
    assert bad.exit_code == 2 and "--pone does not go with --auction" in bad.output


def test_the_auction_has_a_command_of_its_own() -> None:
    """`crib-analyze auction` answers what `discard --auction` does (kept as an alias),
    with only the options the auction honours."""
    runner = CliRunner()
    hand = ["5H", "6S", "4D", "JC", "QH", "5C"]
    own = runner.invoke(cli, ["auction", *hand, "-f", "csv"])
    alias = runner.invoke(cli, ["discard", *hand, "--auction", "-f", "csv"])
    assert own.exit_code == 0 and alias.exit_code == 0, (own.output, alias.output)
    assert own.stdout == alias.stdout and own.stdout.startswith("part,discard,keep,total")
    for args, says in [
        (["--dealer"], "No such option '--dealer'"),
        (["--pegging", "exact", "--no-pegging"], "--no-pegging contradicts --pegging exact"),
        (["--score", "100"], "score"),
    ]:
        bad = runner.invoke(cli, ["auction", *hand, *args])
        assert bad.exit_code == 2, (args, bad.output)
        assert says in bad.stderr and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert runner.invoke(cli, ["auction"]).exit_code == 2  # the cards are needed
