"""The answer in words (crib_analyze.discard.verdict) and the view that fits a terminal.

The verdict is checked against a plain reading of the ranking's own values: the best
throw, and the runner-up as the best throw worth less (equal throws skipped), the
margin between them; from a score, the best by the chance of winning and the best by
points when they differ. The command line: the verdict first, 80 columns by default,
every column with --wide.

Mutations tried (each fails a test here): the runner-up taken as the second row (an
equal throw); the margin taken from the third row; the points clause always said; the
default table given the wide columns.
"""

from __future__ import annotations

import itertools
import random
import re

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cards import parse_cards
from crib_analyze.cli import cli
from crib_analyze.discard.reasons import kept_combinations
from tests.naive import naive_score


def expected_points_verdict(frame, role: str) -> str:  # type: ignore[no-untyped-def]
    value = frame["total"].to_numpy()
    best = int(np.argmax(value))  # the first of equals, in ranking order
    worse = [i for i in range(len(value)) if value[i] < value[best] - 1e-9]
    runner = max(worse, key=lambda i: (value[i], -i))
    margin = value[best] - value[runner]
    size = f"{margin:.2f}" if margin >= 0.005 else f"{margin:.3f}"
    near = " (a near tie)" if margin <= 0.01 else ""
    return (
        f"as {role}: throw {frame.discard[best]}, keep {frame.keep[best]}: {size} points "
        f"better than {frame.discard[runner]}{near}"
    )


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_verdict_names_the_best_and_the_next_throw_worth_less(role: str) -> None:
    rng = random.Random(11)
    hands = ["5H 6S 4D JC QH 5C", "7C 8D 9H KS 2C 3D"]
    hands += ["KH KS 5D 6C 4D 9C", "KH KS 2D 7C 8D 9C"]  # as pone, the best has an equal twin
    hands += [ca.format_cards(rng.sample(range(52), 6)) for _ in range(6)]
    for hand in hands:
        frame = ca.analyze(hand, role=role, opponent="random")  # type: ignore[arg-type]
        said = [v for v in frame.verdict if v]
        assert said == [expected_points_verdict(frame, role)], hand
        assert frame.verdict[0] == said[0]  # on the row it names: the best


def test_equal_throws_are_not_a_runner_up() -> None:
    """KH 9C and KS 9C are worth the same (no other heart or spade, no jack): as pone
    the verdict's runner-up is a throw worth something different."""
    frame = ca.analyze("KH KS 5D 6C 4D 9C", role="pone", opponent="random", pegging="none")
    assert frame.net[0] == pytest.approx(frame.net[1])  # the premise
    text = frame.verdict[0]
    runner = text.rsplit(" than ", 1)[1].split(" (")[0]
    best, other = frame.net[0], frame.net[frame.discard == runner].item()
    assert other < best - 1e-9


def test_with_no_role_each_role_has_its_verdict() -> None:
    frame = ca.analyze("7C 8D 9H KS 2C 3D")
    for role in ("dealer", "pone"):
        said = [v for v in frame[f"{role}_verdict"] if v]
        assert len(said) == 1 and said[0].startswith(f"as {role}: throw ")
        row = frame[frame[f"{role}_verdict"] != ""]
        assert bool(row[f"{role}_best"].item())


def test_from_a_score_it_names_the_throw_for_the_game_and_for_points() -> None:
    frame = ca.analyze("5H 6S 4D JC QH 5C", role="dealer", score="110-115", position_samples=300)
    text = frame.verdict[0]
    best_win = frame.discard[int(np.argmax(frame.p_win))]
    best_points = frame.discard[int(np.argmax(frame.total))]
    assert text.startswith(f"at 110-115 as dealer: throw {best_win}, keep ")
    assert best_points != best_win and f"; {best_points} scores more points" in text
    calm = ca.analyze("5H 6S 4D JC QH 5C", role="dealer", score="10-15", position_samples=300)
    same = calm.discard[int(np.argmax(calm.p_win))] == calm.discard[int(np.argmax(calm.total))]
    assert ("scores more points" in calm.verdict[0]) != same


def lines_of(args: list[str]) -> list[str]:
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    return result.stdout.splitlines()


@pytest.mark.parametrize(
    "extra",
    [["--dealer"], [], ["--pone", "--need", "12"], ["--dealer", "--score", "110-115"],
     ["--pone", "--penalty", "zero"], ["--pone", "--opponent", "sampled", "--samples", "50"]],
)  # fmt: skip
def test_the_default_view_fits_80_columns_and_answers_first(extra: list[str]) -> None:
    lines = lines_of(["discard", "5H", "6S", "4D", "JC", "QH", "5C", *extra])
    assert max(len(line) for line in lines) <= 80
    assert re.match(r"(As|At) ", lines[0])


def test_wide_and_verbose_give_every_column_and_the_model() -> None:
    args = ["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--dealer"]
    wide = "\n".join(lines_of([*args, "--wide"]))
    assert "(min-max)" in wide and "peg own" in wide and "fingerprint" not in wide
    verbose = "\n".join(lines_of([*args, "--verbose"]))
    assert "fingerprint" in verbose and "ranked by dealer total = net + peg" in verbose


def plain_points_before_the_cut(cards: list[int]) -> int:
    """The rules' show of four cards with no starter: fifteens 2, pairs 2, the longest
    runs (each), a four-card flush."""
    ranks = [c // 4 for c in cards]
    values = [min(r + 1, 10) for r in ranks]
    points = 0
    for n in range(2, 5):
        for idx in itertools.combinations(range(4), n):
            points += 2 * (sum(values[i] for i in idx) == 15)
    points += sum(2 for a, b in itertools.combinations(ranks, 2) if a == b)
    for n in (4, 3):
        runs = [
            combo
            for combo in itertools.combinations(ranks, n)
            if sorted(combo) == list(range(min(combo), min(combo) + n))
        ]
        if runs:
            points += n * len(runs)
            break
    if len({c % 4 for c in cards}) == 1:
        points += 4
    return points


def test_the_kept_cards_combinations_add_up_to_the_rules_count() -> None:
    rng = random.Random(4)
    hands = [rng.sample(range(52), 4) for _ in range(3000)]
    hands += [[16, 17, 20, 12], [16, 17, 18, 19], [24, 25, 28, 29], [24, 25, 26, 28]]
    for cards in hands:
        total, named = kept_combinations(cards)
        assert total == plain_points_before_the_cut(cards), ca.format_cards(cards)
        assert sum(int(re.search(r"\((\d+)\)$", n).group(1)) for n in named) == total  # type: ignore[union-attr]
    # the name a player uses: a double run holds its pair
    assert kept_combinations([16, 17, 20, 12])[1][0] == "double run 4-5-5-6 (8)"


@pytest.mark.parametrize("role", ["dealer", "pone"])
def test_the_reasons_are_the_parts_of_the_margin(role: str) -> None:
    """The parts listed add up to the verdict's margin, the one that decides is the
    largest, and the crib said is the ranking's."""
    rng = random.Random(9)
    for _ in range(6):
        hand = ca.format_cards(rng.sample(range(52), 6))
        rows = ca.analyze_rows(hand, role=role)  # type: ignore[arg-type]
        why = rows.attrs["reasons"].get(role)
        if why is None:
            continue
        listed = re.findall(r"([a-z ]+?) ([+-]\d+\.\d\d)", why[0].split("(", 1)[1])
        parts = {k.strip(): v for k, v in listed}
        margin = float(re.search(r": (\d+\.\d+) points", rows.attrs["verdicts"][role]).group(1))  # type: ignore[union-attr]
        assert sum(float(v) for v in parts.values()) == pytest.approx(margin, abs=0.02)
        decides = why[0].split(": ", 1)[1].split(" decides")[0]
        assert float(parts[decides.strip()]) == max(float(v) for v in parts.values())
        crib = rows["crib_mean"][0]
        assert f"gets {rows['discard'][0]}: {crib:.2f} expected" in why[2]


def cards_named(text: str, unseen: list[int]) -> set[int]:
    """The starters a text of :func:`starters_text` names (with "all but", "any")."""
    if text == "none":
        return set()
    if text == "any":
        return set(unseen)
    if text.startswith("all but "):
        return set(unseen) - cards_named(text.removeprefix("all but "), unseen)
    out: set[int] = set()
    for item in text.split(", "):
        if item.startswith("any "):
            rank = "A23456789TJQK".index(item[4:].replace("10", "T"))
            out |= {c for c in unseen if c // 4 == rank}
        else:
            out |= set(parse_cards(item))
    return out


@pytest.mark.parametrize("need", [None, 8])
def test_the_starters_are_the_cuts_that_make_each_keep_best(need: int | None) -> None:
    """Against the rules' count (tests/naive.py) of each keep with each cut."""
    rng = random.Random(6 if need else 7)
    for _ in range(3):
        cards = rng.sample(range(52), 6)
        rows = ca.analyze_rows(ca.format_cards(cards), role="dealer", opponent="random", need=need)
        unseen = [c for c in range(52) if c not in cards]
        keeps = {d: parse_cards(k) for d, k in zip(rows["discard"], rows["keep"], strict=True)}
        score = {d: {s: naive_score(k, s) for s in unseen} for d, k in keeps.items()}
        top = {s: max(score[d][s] for d in keeps) for s in unseen}
        for d, entry in rows.attrs["starters"].items():
            best = {s for s in unseen if score[d][s] == top[s]}
            assert cards_named(entry["best"], unseen) == best, (d, entry)
            if need is not None:
                reach = {s for s in unseen if score[d][s] >= need}
                assert cards_named(entry["need"], unseen) == reach


def test_the_starters_are_shown_by_rank() -> None:
    lines = lines_of(["discard", "5H", "6S", "4D", "JC", "QH", "5C", "--dealer", "--starters",
                      "--top", "2", "--need", "12"])  # fmt: skip
    assert "  JC QH: the best hand with all but any 10, QC, any K; 12 or more with any" in lines


def test_a_points_favourite_passed_over_far_from_the_end_is_explained() -> None:
    """Below 61 the score changes little: where the score's deals count the play other
    than the pegging table does, a points favourite passed over is said to be counted
    the other way; near the end, or with the table's count, nothing more is said."""
    from crib_analyze.board.throws import SPREAD_PLAY
    from crib_analyze.discard.verdict import goal_verdict

    wins, points = np.array([0.40, 0.38, 0.30]), np.array([-0.85, 0.22, -2.0])
    names, keeps = ["2C 9S", "TC KD", "AH 2C"], ["a", "b", "c"]
    legal = np.ones(3, bool)

    def said(score: tuple[int, int], play: str) -> str:
        return goal_verdict("pone", score, "win", wins, points, names, keeps, legal, play)[0]

    lookahead = "the play by lookahead"
    assert said((0, 0), lookahead).endswith(
        "TC KD scores more points (0.22 against -0.85), its play counted by the pegging "
        "table where the score's deals have the play by lookahead"
    )
    assert said((110, 115), lookahead).endswith("(0.22 against -0.85)")
    assert said((0, 0), SPREAD_PLAY).endswith("(0.22 against -0.85)")


def test_the_starters_words_are_the_shortest_naming() -> None:
    """discard.reasons.throw_starters names each throw's starters as starters_text does
    (by rank where a rank is whole, a joker "JK"), or "all but" the rest when that names
    fewer cards, "none" and "any": against the list form written out here, on random
    picks of random unseen cards, jokers among them."""
    import numpy as np

    from crib_analyze.discard.reasons import starters_text, throw_starters

    def words(cards: list[int], unseen: list[int]) -> str:
        if not cards:
            return "none"
        rest = [c for c in unseen if c not in cards]
        if not rest:
            return "any"
        if len(cards) > len(rest):
            return "all but " + starters_text(rest, unseen)
        return starters_text(cards, unseen)

    rng = np.random.default_rng(8)
    for trial in range(60):
        pack = 52 + trial % 3
        unseen = sorted(int(c) for c in rng.choice(pack, 46, replace=False))
        scores = rng.integers(0, 4 if trial % 2 else 2, size=(5, 46))
        got = throw_starters(scores, unseen, np.ones(5, bool), 2, 1)
        top = scores.max(axis=0)
        for row, entry in zip(scores, got, strict=True):
            best = [c for c, v, t in zip(unseen, row, top, strict=True) if v >= t]
            assert entry["best"] == words(best, unseen)
            assert entry["need"] == words([c for c, v in zip(unseen, row, strict=True)
                                           if v >= 2], unseen)  # fmt: skip
