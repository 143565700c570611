"""The throw fives variant (``discard --throw-fives``): the legal throws from the rules
text, the random opponent following the rule (its joint throw and starter) against
closed forms counted here by hand and a plain simulation scored by tests/naive.py, and
the command line.

Mutations tried (each fails a test here): an opponent with two fives throwing any two
cards; an opponent with one five throwing it with probability 1/6 rather than 1; the
starter drawn from the 44 cards outside the throw rather than the 40 outside both
hands; a hand with three fives allowed to keep two.
"""

from __future__ import annotations

import random
from math import comb

import numpy as np
import pytest
from click.testing import CliRunner

import crib_analyze as ca
from crib_analyze.cli import cli
from crib_analyze.crib import combine_kernels as ck
from crib_analyze.crib.hand_kernels import DISCARDS
from crib_analyze.discard.throw_fives import legal_throws, throw_fives_values
from crib_analyze.scoring.show_kernels import rank_table
from tests.naive import naive_score, rank

FIVE = 4


@pytest.mark.parametrize(
    ("hand", "legal"),
    [("AC 3D 7H 9S JC KD", 15), ("5H 3D 7H 9S JC KD", 5), ("5H 5D 7H 9S JC KD", 1),
     ("5H 5D 5S 9S JC KD", 3), ("5H 5D 5S 5C JC KD", 6)],
)  # fmt: skip
def test_the_legal_throws(hand: str, legal: int) -> None:
    """Every five goes while there are slots: none, any two; one, it and any other (5);
    two, both (1); three, any two of them (3); four, any two of them (6)."""
    cards = np.array(ca.parse_cards(hand), np.int64)
    ok = legal_throws(cards)
    assert int(ok.sum()) == legal
    fives = sum(rank(int(c)) == FIVE for c in cards)
    for d in np.flatnonzero(ok):
        assert sum(rank(int(c)) == FIVE for c in cards[DISCARDS[d]]) == min(fives, 2)


@pytest.mark.parametrize("hand", ["AC 3D 7H 9S JC KD", "5H 3D 7H 9S JC KD", "5H 5D 5S 9S JC KD"])
def test_the_opponent_follows_the_rule(hand: str) -> None:
    """The joint against hypergeometric counts: the opponent holds any six of the 46."""
    cards = np.array(ca.parse_cards(hand), np.int64)
    joint = ck.throw_fives_pair_starter(cards)
    assert joint.sum() == pytest.approx(1.0, abs=1e-12)
    f = 4 - sum(rank(int(c)) == FIVE for c in cards)
    n, hands = 46 - f, comb(46, 6)
    is_five = np.array([c >> 2 == FIVE for c in range(52)])
    thrown_fives = is_five[:, None, None].astype(int) + is_five[None, :, None]
    two = sum(comb(f, k) * comb(n, 6 - k) for k in range(2, 7)) / hands
    one = f * comb(n, 5) / hands
    assert joint[thrown_fives[..., 0] == 2].sum() == pytest.approx(two, abs=1e-12)
    assert joint[thrown_fives[..., 0] == 1].sum() == pytest.approx(one, abs=1e-12)
    # no five thrown: it holds none, so every unseen five is among the 40 the cut comes from
    none = joint[thrown_fives[..., 0] == 0]
    assert none[:, is_five].sum() == pytest.approx(comb(n, 6) / hands * f / 40, abs=1e-12)


def test_the_crib_against_a_plain_simulation() -> None:
    hand = ca.parse_cards("5H 6S 4D JC QH 8C")
    cards = np.array(hand, np.int64)
    crib = ck.crib_from_joint(rank_table(), cards, ck.throw_fives_pair_starter(cards))
    # the analysis takes its crib from the distribution, zeros and mean in one pass
    np.testing.assert_allclose(throw_fives_values(cards, True)[0], [crib, crib], atol=1e-12)
    rng = random.Random(2)
    rest = [c for c in range(52) if c not in hand]
    for d in (int(np.flatnonzero(legal_throws(cards))[0]),):
        thrown = [int(c) for c in cards[DISCARDS[d]]]
        shows = []
        for _ in range(3000):
            deal = rng.sample(rest, 46)
            six, pack = deal[:6], deal[6:]
            fives = [c for c in six if rank(c) == FIVE]
            if len(fives) >= 2:
                opp = rng.sample(fives, 2)
            elif fives:
                opp = [fives[0], rng.choice([c for c in six if c != fives[0]])]
            else:
                opp = rng.sample(six, 2)
            shows.append(naive_score([*thrown, *opp], rng.choice(pack), crib=True))
        mean, se = np.mean(shows), np.std(shows, ddof=1) / np.sqrt(len(shows))
        assert abs(crib[d] - mean) < 4 * se, (crib[d], mean, se)


def test_the_command_line() -> None:
    runner = CliRunner()
    ok = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "8C", "--dealer",
                             "--throw-fives"])  # fmt: skip
    assert ok.exit_code == 0, ok.output
    said = " ".join(ok.output.split())  # the note is wrapped to 80 columns
    assert (
        "every five a player holds goes to the crib; you must throw 5H (the other card is yours)"
        in said
    )
    assert sum(line[:2].strip().isdigit() for line in ok.output.splitlines()) == 5
    both = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "8C", "--dealer",
                               "--throw-fives", "--lowball", "--opponent", "expert",
                               "--verbose"])  # fmt: skip
    assert both.exit_code == 0 and "throw-fives-lowball" in both.output, both.output
    for extra, words in [
        (["--pegging", "table"], "counts the play only simulated"),
        (["--jokers", "1", "--pegging", "table"], "counts the play only simulated"),
    ]:  # with --score each throw's games are played out (tests/test_game_boards.py)
        bad = runner.invoke(cli, ["discard", "5H", "6S", "4D", "JC", "QH", "8C", "--dealer",
                                  "--throw-fives", *extra])  # fmt: skip
        assert bad.exit_code == 2 and words in bad.output, (extra, bad.output)


@pytest.mark.parametrize(
    ("hand", "legal"),
    [("5H 6S 4D JC QH 5C", 1), ("5H 5D 5S 9S JC KD", 3), ("5H 3D 7H 9S JC KD", 5)],
)
@pytest.mark.parametrize("top", [1, 2, 4, 15])
@pytest.mark.parametrize("role", [["--dealer"], []])
def test_top_shows_the_legal_throws_only(hand: str, legal: int, top: int, role: list[str]) -> None:
    """--top with two or more fives was an IndexError (the rows kept were counted among
    the legal throws but indexed among all 15)."""
    result = CliRunner().invoke(
        cli, ["discard", *hand.split(), *role, "--throw-fives", "--top", str(top), "-f", "csv"]
    )
    assert result.exit_code == 0, result.output
    assert result.stderr == ""
    rows = result.stdout.strip().splitlines()[1:]
    assert len(rows) == min(top, legal) if role else min(top, legal) <= len(rows) <= legal


# --- the play under throw fives: --pegging simulated ---------------------------------------


def test_the_play_s_opponent_throws_by_the_rule() -> None:
    """The simulated play deals the opponent six cards and has it throw by the
    throw-fives expert's policies: for every rank multiset, as dealer and as pone, they
    give no chance to a throw the rule forbids (a hand of that multiset's ranks, its
    legal throws from the rules text)."""
    from crib_analyze.crib.hand_classes import rank_multisets
    from crib_analyze.play.matches import throw_policies

    policies = throw_policies(ca.load_model(kind="throw-fives"))
    ranks = rank_multisets()
    for row, pi in enumerate((policies.pone_pi, policies.dealer_pi)):
        for m in random.Random(f"fives play {row}").sample(range(len(ranks)), 3000):
            cards = [4 * int(r) + k for k, r in _suits(ranks[m])]
            fives = [i for i, c in enumerate(cards) if rank(c) == FIVE]
            for d, (i, j) in enumerate(DISCARDS.tolist()):
                thrown = sum(p in fives for p in (i, j))
                if thrown != min(len(fives), 2):
                    assert pi[m, d] == 0.0, (ranks[m], (i, j))
        assert np.allclose(pi.sum(axis=1), 1.0)


def _suits(ranks: np.ndarray) -> list[tuple[int, int]]:
    """Each rank of a sorted multiset with a suit of its own (0, 1, ... within a rank)."""
    seen: dict[int, int] = {}
    out = []
    for r in ranks.tolist():
        out.append((seen.get(r, 0), r))
        seen[r] = seen.get(r, 0) + 1
    return out


def test_the_play_is_counted_only_simulated(monkeypatch: pytest.MonkeyPatch) -> None:
    """``--throw-fives --pegging simulated``: the play of these cards against the expert
    that obeys the rule, for the role asked (the other role's play is not counted: the
    pegging table is the plain game's); the table is refused in one line."""
    from crib_analyze.discard import engine
    from crib_analyze.settings import Count

    monkeypatch.setattr(engine, "SIMULATED_DEALS", Count("simulated deals", 2, 100, 8))
    frame = ca.analyze("5H 6S 4D JC QH 8C", role="dealer", throw_fives=True, pegging="simulated")
    assert len(frame) == 5 and set(frame.discard.str[:2]) == {"5H"}  # the legal throws only
    assert "throwing its fives by the throw-fives expert" in frame.pegging[0]
    assert frame.pone_total.isna().all() and frame.dealer_total.notna().all()
    assert np.allclose(frame.dealer_total, frame.dealer_net + frame.dealer_peg_own
                       - frame.dealer_peg_opp)  # fmt: skip
    assert frame.model[0].startswith("packaged expert model (throw-fives)")
    random_crib = ca.analyze("5H 6S 4D JC QH 8C", role="pone", throw_fives=True,
                             pegging="simulated", opponent="random")  # fmt: skip
    assert "throwing its fives by the throw-fives expert" in random_crib.pegging[0]
    assert random_crib.dealer_total.isna().all() and random_crib.pone_total.notna().all()
    runner = CliRunner()
    refused = runner.invoke(cli, ["discard", *["5H", "6S", "4D", "JC", "QH", "8C"], "--throw-fives",
                                  "--pegging", "table"])  # fmt: skip
    assert refused.exit_code == 2 and "counts the play only simulated" in refused.output
    assert "Traceback" not in refused.output
