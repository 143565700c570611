"""Results carry their own words: a discard ranking's typed metadata is made on the
engine side (verdicts, notes from the Rules' own words), and the renderer lays it out."""

from __future__ import annotations

from dataclasses import replace

import pytest

from crib_analyze.api import DiscardMeta, DiscardRequest, ResultMeta, discard_rows_for
from crib_analyze.render.discard import discard_text
from crib_analyze.rules import game

HAND = "5H 6S 4D JC QH 5C"


def test_each_variant_states_its_rule_once() -> None:
    assert game("standard").variant_rules == ()
    both = game("standard", lowball=True, jokers=2, throw_fives=True, penalty="back-ten")
    said = both.variant_rules
    assert [line.split(":")[0] for line in said] == [
        "lowball", "jokers", "throw fives", "back-ten penalty",
    ]  # fmt: skip
    assert "54-card pack" in said[1] and "costs its owner 10" in said[3]
    assert "first to 61 loses" in game("five-card", lowball=True).variant_rules[0]


@pytest.mark.parametrize(
    ("variant", "first_words"),
    [({"lowball": True}, "lowball"), ({"penalty": "zero"}, "zero penalty")],
)
def test_a_ranking_s_meta_is_typed_and_its_notes_come_from_the_rules(
    variant: dict[str, object], first_words: str
) -> None:
    rows = discard_rows_for(HAND, DiscardRequest(role="dealer", **variant).resolve())  # type: ignore[arg-type]
    meta = rows.meta
    assert isinstance(meta, DiscardMeta) and isinstance(meta, ResultMeta)
    rule = game("standard", **variant).variant_rules[0]  # type: ignore[arg-type]
    assert rule.startswith(first_words)
    assert len(meta.notes) == 1 and meta.notes[0].startswith(rule)
    assert meta.verdict == meta.verdicts["dealer"] and meta.verdict.startswith("as dealer")
    assert rows.attrs["role"] == "dealer" and rows.attrs["notes"] == meta.notes  # the mirror


def test_the_renderer_lays_out_the_words_it_is_given() -> None:
    rows = discard_rows_for(HAND, DiscardRequest(role="pone").resolve())
    assert isinstance(rows.meta, DiscardMeta)
    told = replace(
        rows.meta, verdicts={"pone": "A verdict made by the engine"}, notes=("an engine note",)
    )
    rows.meta = told
    text = discard_text(rows, HAND)
    assert text.splitlines()[0] == "A verdict made by the engine"
    assert "an engine note" in text.splitlines()
    assert f"{HAND}, {told.assumed}" in text


def test_play_advice_carries_its_typed_words_through_the_frame() -> None:
    from crib_analyze.api import PlayMeta, advise_play
    from crib_analyze.render.play import advice_text
    from crib_analyze.results import rows_of_frame

    frame = advise_play("pone", "7C 8D 2C", "5H", played="3D 10S", policy="lookahead",
                        samples=100)  # fmt: skip
    meta = frame.attrs["meta"]
    assert isinstance(meta, PlayMeta) and meta.verdict == frame.attrs["verdict"]
    assert meta.verdict.startswith("As pone at count 13") and meta.policy == "lookahead"
    rows = rows_of_frame(frame)
    assert rows.meta == meta
    rows.meta = replace(meta, verdict="The engine's verdict", policy="a named policy")
    text = advice_text(rows)
    assert text.startswith("The engine's verdict\n") and "a named policy plays" in text


def test_a_scored_play_says_its_tally_from_its_typed_metadata() -> None:
    from crib_analyze.api import ScoredPlayMeta, score_play
    from crib_analyze.render.play import play_text
    from crib_analyze.results import rows_of_frame

    frame = score_play("7H 7S 7D 5S", game="four")  # partners: each side's points too
    meta = frame.attrs["meta"]
    assert isinstance(meta, ScoredPlayMeta) and not meta.complete
    assert meta.sides is not None and sum(meta.sides.values()) == sum(meta.totals.values()) == 8
    assert meta.verdict == meta.tally and "sides:" in meta.tally and "so far" in meta.tally
    rows = rows_of_frame(frame)
    rows.meta = replace(meta, verdict="the engine's tally")
    assert play_text(rows).splitlines()[-1] == "the engine's tally"


def test_another_game_s_results_carry_typed_words_with_the_rules_notes() -> None:
    from crib_analyze.api import GameAdviceMeta, GameThrowsMeta, advise_play, analyze
    from crib_analyze.render.hands import game_throws_text
    from crib_analyze.results import rows_of_frame

    rules = game("three", lowball=True)
    throws = analyze("5H 6S 4D JC QH", game=rules, seat="dealer")
    meta = throws.attrs["meta"]
    assert isinstance(meta, GameThrowsMeta) and meta.seat == "dealer" and meta.crib == "yours"
    assert meta.verdict == throws.attrs["verdict"] and meta.verdict.startswith("As dealer")
    assert meta.notes == (f"{rules.variant_rules[0]}; the lowest net first",)
    rows = rows_of_frame(throws)
    rows.meta = replace(meta, notes=("an engine note",))
    assert "an engine note" in game_throws_text(rows).splitlines()
    advice = advise_play("dealer", "5C 9D KS 2H", "4D", played="7H 3S", game="three",
                         samples=100)  # fmt: skip
    said = advice.attrs["meta"]
    assert isinstance(said, GameAdviceMeta) and said.count == 10 and said.notes == ()
    assert said.verdict.startswith("As dealer at count 10 in three")


def test_a_review_s_total_is_its_typed_verdict() -> None:
    from pathlib import Path

    import crib_analyze as ca
    from crib_analyze.api import ReviewMeta
    from crib_analyze.render.play import review_text
    from crib_analyze.results import rows_of_frame

    record = Path(__file__).resolve().parent.parent / "docs" / "examples" / "game.txt"
    frame = ca.review(record.read_text())
    meta = frame.attrs["meta"]
    assert isinstance(meta, ReviewMeta) and meta.decisions == len(frame) > 0
    assert meta.total_loss == pytest.approx(frame["loss"].sum())
    assert meta.verdict == meta.total and meta.verdict.startswith("total lost: ")
    rows = rows_of_frame(frame)
    rows.meta = replace(meta, verdict="the engine's total")
    assert review_text(rows).splitlines()[-1] == "the engine's total"


def test_a_crib_table_says_what_it_holds_from_its_typed_metadata() -> None:
    import crib_analyze as ca
    from crib_analyze.api import CribTableMeta
    from crib_analyze.render.hands import crib_table_text
    from crib_analyze.results import rows_of_frame

    frame = ca.crib_table("pone")
    meta = frame.attrs["meta"]
    assert isinstance(meta, CribTableMeta) and (meta.role, meta.source) == ("pone", "packaged")
    assert meta.heading.startswith("crib value of the discards a pone chooses")
    rows = rows_of_frame(frame)
    rows.meta = replace(meta, notes=("read unchecked: a note of the engine",))
    text = crib_table_text(rows)
    assert " ".join(text.split()).startswith(meta.heading)  # wrapped to 80 columns
    assert "read unchecked: a note of the engine" in text.splitlines()


def test_the_auction_says_its_bid_from_its_typed_metadata() -> None:
    import crib_analyze as ca
    from crib_analyze.api import AuctionMeta
    from crib_analyze.render.hands import auction_text
    from crib_analyze.results import rows_of_frame

    frame = ca.auction(HAND)
    meta = frame.attrs["meta"]
    assert isinstance(meta, AuctionMeta) and meta.score is None and meta.score_words is None
    assert meta.break_even == pytest.approx(meta.worth / 2)
    assert (
        meta.verdict == meta.verdict_words and f"bid up to {int(meta.break_even)}" in meta.verdict
    )
    rows = rows_of_frame(frame)
    rows.meta = replace(meta, worth=9.0, break_even=4.5)
    assert "bid up to 4 " in " ".join(auction_text(rows).split())


def test_the_chances_from_a_score_carry_typed_words() -> None:
    from crib_analyze.api import OddsMeta, odds_rows
    from crib_analyze.render.board import game_odds_text, odds_text

    rows = odds_rows(95, 100)
    meta = rows.meta
    assert isinstance(meta, OddsMeta) and meta.method == "board table" and meta.board
    assert meta.verdict.startswith("At 95-100 you win ") and rows.attrs["deals"]  # provenance
    rows.meta = replace(meta, verdict="The engine's chances")
    assert odds_text(rows).startswith("The engine's chances\n")
    rules = game("standard", lowball=True)  # lowball is played by two sides
    simulated = odds_rows(100, 110, games=50, seed=1, game=rules)
    said = simulated.meta
    assert isinstance(said, OddsMeta) and said.notes == rules.variant_rules
    assert said.verdict.startswith("At pone 100") and said.method == "simulation"
    assert game_odds_text(simulated).splitlines()[-1] == rules.variant_rules[0]


def test_no_cli_module_reads_a_result_s_attrs_dict() -> None:
    """The command line lays out typed results: it reads no ``attrs`` dict."""
    from pathlib import Path

    cli = Path(__file__).resolve().parent.parent / "crib_analyze" / "cli"
    readers = [p.name for p in sorted(cli.glob("*.py")) if ".attrs" in p.read_text()]
    assert readers == []
