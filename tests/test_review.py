"""Game review: the record format read and checked (bad records are one line, exit 2),
and each decision graded against the engines it names.

Mutations tried (each fails a test here): the go check dropped (a go while holding a
card that fits accepted); the loss taken as chosen minus best; forced cards graded.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.game_review.record import RecordError, parse_record

GAME = (Path(__file__).resolve().parent.parent / "docs" / "examples" / "game.txt").read_text()

ONE = """deal
dealer: opponent
hand: 7C 8D 9H KS 2C 3D
throw: 9H KS
starter: 5H
play: {play}
"""


def test_the_example_game_is_read() -> None:
    deals = parse_record(GAME)
    assert [d.dealer for d in deals] == [True, False]
    assert deals[0].score == (0, 0) and deals[1].score is None
    assert len(deals[0].play) == 8 and len(deals[1].play) == 5


@pytest.mark.parametrize(
    ("play", "message"),
    [
        ("7C 10D 7C", "laid twice"),  # a card seen twice
        ("9H", "in the crib"),  # my thrown card laid
        ("5H", "in the crib or cut"),  # the starter laid
        ("7C 8D", "8D is pone's, but it is dealer's turn at 7"),  # my card on the dealer's turn
        ("7C 10D 8D 4S go", "pone says go at 29 but can lay 2C"),  # I held a 2 at 29
        ("7C 10D 8D 4S KH", "KH"),  # 39: only my 2 could have been laid
    ],
)
def test_impossible_records_are_one_line(play: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(ONE.format(play=play))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("dealer: me\n", "a deal starts with a line 'deal'"),
        ("deal\ndealer: me\nhand: 5H 6S 4D JC QH 5C\nthrow: 5H 5C\n", "missing starter"),
        (ONE.format(play="").replace("opponent", "both"), "dealer must be"),
        (ONE.format(play="").replace("2C 3D", "2C"), "expected 6 cards"),
        ("deal\nflavour: salty\n", "expected 'deal' or one of"),
        ("", "no deal"),
        (ONE.format(play="") + "score: 130-2\n", "score must be"),
        ("deal\ndealer: me\nhand: 5H 6S 4D JC QH 5C\nthrow: 9H 5C\nstarter: 2D\n", "not from"),
    ],
)
def test_bad_records(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(text)


def test_each_decision_is_graded_against_its_engine() -> None:
    df = ca.review(ONE.format(play="7C 10D 8D 2S 2C"))
    throw = df[df.kind == "throw"].iloc[0]
    ranking = ca.analyze("7C 8D 9H KS 2C 3D", role="pone")
    chosen = ranking[ranking.discard.map(lambda d: set(d.split()) == {"9H", "KS"})].iloc[0]
    assert throw.best == ranking.discard.iloc[0]
    assert throw.loss == pytest.approx(ranking.total.iloc[0] - chosen.total)
    plays = df[df.kind == "play"]
    # the lead (four cards fit) and the 8 at 17 (three fit), the 2 at 27 (two fit): graded
    assert plays.chosen.tolist() == ["7C", "8D", "2C"]
    lead = ca.advise_play("pone", "7C 8D 2C 3D", "5H", "9H KS", "")
    assert plays.iloc[0].best == lead.card.iloc[0]
    values = dict(zip(lead.card, lead.value, strict=True))
    assert plays.iloc[0].loss == pytest.approx(values[lead.card.iloc[0]] - values["7C"])
    assert (df.loss >= -1e-12).all() and df.loss_win.isna().all()
    assert df.attrs["total_loss"] == pytest.approx(df.loss.sum())


def test_with_a_score_each_card_is_graded_by_the_chance_of_winning_then() -> None:
    """The score before the deal, heels and the points pegged so far make the score at
    each card; the card is graded by ``play --score``'s engine there, its best the card
    that wins most."""
    record = ONE.replace("starter: 5H\n", "starter: 5H\nscore: 110-112\n")
    # 7C, the dealer's 8S makes 15 (2), my 8D pairs it (2), 2S, my 2C pairs it (2)
    df = ca.review(record.format(play="7C 8S 8D 2S 2C"))
    plays = df[df.kind == "play"].reset_index(drop=True)
    assert plays.chosen.tolist() == ["7C", "8D", "2C"]
    for i, (held, before, score) in enumerate([
        ("7C 8D 2C 3D", "", (110, 112)),
        ("8D 2C 3D", "7C 8S", (110, 114)),
        ("2C 3D", "7C 8S 8D 2S", (112, 114)),
    ]):  # fmt: skip
        odds = ca.advise_play("pone", held, "5H", "9H KS", before, score=score)
        wins = dict(zip(odds.card, odds.p_win, strict=True))
        assert plays.loc[i, "best"] == odds.card.iloc[0], i
        chosen = plays.loc[i, "chosen"]
        assert plays.loc[i, "loss_win"] == pytest.approx(wins[odds.card.iloc[0]] - wins[chosen])


def test_the_cli(tmp_path: Path) -> None:
    record = tmp_path / "game.txt"
    record.write_text(ONE.format(play="7C 10D 8D 2S 2C"))
    runner = CliRunner()
    ok = runner.invoke(cli, ["review", str(record), "-f", "csv"])
    assert ok.exit_code == 0, ok.output
    assert ok.stdout.splitlines()[0].startswith("deal,kind,situation,chosen,best,loss")
    bad = tmp_path / "bad.txt"
    bad.write_text(ONE.format(play="7C 10D 8D 4S go"))
    out = runner.invoke(cli, ["review", str(bad)])
    assert out.exit_code == 2 and out.stderr.count("\n") == 1
    assert "pone says go at 29 but can lay 2C" in out.stderr
    missing = runner.invoke(cli, ["review", str(tmp_path / "none.txt")])
    assert missing.exit_code == 2 and "cannot read the record" in missing.stderr
    binary = tmp_path / "bin.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    assert runner.invoke(cli, ["review", str(binary)]).exit_code == 2


def test_a_forced_card_is_not_graded() -> None:
    """At 29 holding 2C and 3D only the 2 fits: nothing to choose, nothing graded."""
    df = ca.review(ONE.format(play="7C 10D 8D 4S 2C"))
    assert df[df.kind == "play"].chosen.tolist() == ["7C", "8D"]


def test_a_slip_is_named_on_its_line() -> None:
    """A jack laid on 25 passes 31 while I, the dealer, could lay: said on the play's
    line (it was "dealer says go" on the deal's line)."""
    record = (
        "# a game\n\ndeal\ndealer: me\nhand: 5H 6S 4D JC QH 5C\nthrow: JC QH\n"
        "starter: 2D\nplay: 9C 6S KD JS 4D\n"
    )
    with pytest.raises(RecordError, match=r"line 8 \(play\): JS passes 31 \(count 25\) while "
                       "dealer can still lay 5H 4D 5C"):  # fmt: skip
        parse_record(record)
    with pytest.raises(RecordError, match=r"line 5 \(hand\)"):
        parse_record(record.replace("hand: 5H 6S", "hand: 5X 6S"))
