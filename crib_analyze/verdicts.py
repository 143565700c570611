"""The answer first, in words: the verdict of each kind of result, made from its numbers.

The API attaches them to what it returns (``attrs["verdict"]`` of rows and frames, the
``verdict`` of game statistics), so every front end (the command line, a notebook, a
web page) says the same thing. Each takes the result as the API gives it: rows with
their ``attrs``, or the statistics' ``as_dict()``.

>>> margin_words({"v": 2.0, "s": 0.1, "n": "5C"}, {"v": 1.5, "s": 0.1, "n": "KS"}, "v", "s", "n")
'0.50 more than KS'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crib_analyze.results import Rows


def play_verdict(rows: Rows) -> str:
    """The answer first, in words: the card to play, what it is worth over the rest of
    the play, and by how much it beats the next card (or: say go)."""
    a = rows.attrs
    records = list(rows.records())
    where = f"As {a.get('role')} at count {a.get('count')}"
    best = records[0]
    if best["value"] != best["value"]:  # no card fits
        return f"{where}: say go (no card of yours fits)"
    if "p_win" in rows.columns:
        mine, theirs = a["score"]
        said = f"{where}, {mine}-{theirs}: play {best['card']} (wins {best['p_win']:.1%}"
        if len(records) == 1:
            return f"{said}, the only card that fits)"
        runner = records[1]
        gap = 100 * (best["p_win"] - runner["p_win"])
        return f"{said}, {gap:.1f} percentage points more than {runner['card']})"
    said = f"{where}: play {best['card']} (net {best['value']:+.2f} pegging from here"
    if len(records) == 1:
        return f"{said}, the only card that fits)"
    runner = records[1]
    return f"{said}, {margin_words(best, runner, 'value', 'se', 'card')})"


def game_advice_verdict(rows: Rows) -> str:
    """The answer first: the card to lay, its net for your side over the rest of the
    play, and its margin over the next card (or: say go)."""
    a = rows.attrs
    records = list(rows.records())
    best = records[0]
    where = f"As {a['seat']} at count {a['count']}{in_game(a)}"
    if best["card"] == "go":
        return f"{where}: say go (no card of yours fits)"
    if "p_win" in best:  # from a score: by the chance of winning (the gap on the same draws)
        at = "-".join(str(v) for v in a["score"])
        said = f"{where}, {at}: play {best['card']} (wins {100 * best['p_win']:.1f}%"
        if len(records) == 1:
            return f"{said}, the only card that fits)"
        runner = records[1]
        pct = {"p_win": 100 * best["p_win"], "se": 0.0}  # the gap's error is the runner's
        other = {"p_win": 100 * runner["p_win"], "se": 100 * runner["gap_se"],
                 "card": runner["card"]}  # fmt: skip
        margin = margin_words(pct, other, "p_win", "se", "card", "percentage points more")
        return f"{said}, {margin})"
    said = f"{where}: play {best['card']} (net {best['net']:+.2f} for your side from here"
    if len(records) == 1:
        return f"{said}, the only card that fits)"
    fewer = "fewer" if a.get("lowball") else "more"
    margin = margin_words(best, records[1], "net", "net_se", "card", fewer)
    return f"{said}, {margin})"


def game_throws_verdict(rows: Rows) -> str:
    """The answer first: the split to make, its net and its margin over the next."""
    a = rows.attrs
    records = list(rows.records())
    best = records[0]
    thrown = f"throw {best['throw']}, " if best["throw"] else ""  # five players: the dealer none
    passed = f"pass {best['pass']}, " if best.get("pass") else ""
    key = "total" if "total" in best else "net"  # with the play: net + peg
    said = (
        f"As {a.get('seat')}{in_game(a)}: {thrown}{passed}keep {best['keep']} "
        f"({key} {best[key]:.2f}"
    )
    if len(records) == 1:
        return f"{said}, the only way)"
    runner = records[1]
    se = "crib_se" if "crib_se" in best else None
    if runner["throw"] == best["throw"]:  # the same throw, another keep (a pass)
        runner = runner | {"keep": f"keeping {runner['keep']}"}
    what = "throw" if runner["throw"] != best["throw"] else "keep"
    if "p_win" in best:  # from a score: by the chance of winning (the gap on the same deals)
        said = said.replace(f"(net {best['net']:.2f}", f"(wins {100 * best['p_win']:.1f}%")
        pct = {"p_win": 100 * best["p_win"], "se": 0.0}  # the gap's error is the runner's
        other = {"p_win": 100 * runner["p_win"], "se": 100 * runner["gap_se"], what: runner[what]}
        return f"{said}, {margin_words(pct, other, 'p_win', 'se', what, 'percentage points more')})"
    if key == "total":  # the play's error, each split's alone (the gap's is smaller)
        se = "peg_se"
    return f"{said}, {margin_words(best, runner, key, se, what, 'points better')})"


def games_verdict(stats: dict[str, Any]) -> str:
    """The answer first: which discard policy won more games, by how much (or: no
    difference two standard errors can show); a policy against itself: the first
    dealer's edge."""
    a, b = stats["settings"]["players"]
    p, se = stats["player0_wins"], stats["player0_wins_se"]
    if a == b:
        d, d_se = stats["first_dealer_wins"], stats["first_dealer_wins_se"]
        return f"{a} against itself: the first dealer wins {100 * d:.1f}% ± {100 * d_se:.1f}%"
    if abs(p - 0.5) < 2 * se:
        return (
            f"{a} and {b} win alike: {a} wins {100 * p:.1f}% ± {100 * se:.1f}% of the games, "
            "within two standard errors of even"
        )
    winner, loser, share = (a, b, p) if p > 0.5 else (b, a, 1 - p)
    return f"{winner} beats {loser}: it wins {100 * share:.1f}% ± {100 * se:.1f}% of the games"


def game_games_verdict(stats: dict[str, Any]) -> str:
    """The answer first: which seat of the first deal wins most, against an even share
    (or: none is two standard errors from it)."""
    game, wins, se = stats["settings"]["game"], stats["wins"], stats["wins_se"]
    even = 1 / len(wins)
    best = max(wins, key=lambda k: wins[k])
    the = "The" if game == "standard" else f"In {game} the"
    if all(abs(wins[k] - even) < 2 * se[k] for k in wins):
        return (
            f"{the} seats of the first deal win alike: none is two standard errors from "
            f"an even share ({100 * even:.1f}%)"
        )
    kind = "side" if "+" in best else "seat"
    return (
        f"{the} first deal's {best} {kind} wins most: {100 * wins[best]:.1f}% ± "
        f"{100 * se[best]:.1f}% of the games (an even share is {100 * even:.1f}%)"
    )


def odds_verdict(rows: Rows) -> str:
    """The answer first: the chance of winning from the score, by who deals next."""
    records = list(rows.records())
    first = records[0]
    chances = " and ".join(
        f"{100 * r['p_win']:.1f}% {'as dealer' if r['dealer'] else 'as pone'}" for r in records
    )
    both = " (by who deals next)" if len(records) > 1 else ""
    return f"At {first['my_score']}-{first['opp_score']} you win {chances}{both}"


def game_odds_verdict(rows: Rows) -> str:
    """The answer first: each side's chance from the scores, the likeliest winner first."""
    a = rows.attrs
    records = sorted(rows.records(), key=lambda r: -r["win"])
    at = ", ".join(f"{r['seats']} {r['score']}" for r in rows.records())
    chances = ", ".join(f"{r['seats']} {100 * r['win']:.1f}%" for r in records)
    said = f"At {at}{in_game(a)} (the dealer about to deal) the chance of winning: {chances}"
    if "p_second" in rows.columns:  # the continuation game
        seconds = sorted(rows.records(), key=lambda r: -r["p_second"])
        said += "; of second place: " + ", ".join(
            f"{r['seats']} {100 * r['p_second']:.1f}%" for r in seconds
        )
    return said


def margin_words(
    best: dict[str, Any], runner: dict[str, Any], value: str, se: str | None, name: str,
    better: str = "more",
) -> str:  # fmt: skip
    """How the best option stands against the runner-up, in words: "as good as X",
    "level with X within the sampling error" (under two standard errors of each) or
    "N.NN more than X" (``better`` says it otherwise: "fewer", "points better")."""
    margin = abs(best[value] - runner[value])
    noise = 2 * (best[se] ** 2 + runner[se] ** 2) ** 0.5 if se else 0.0  # 0 when exact
    other = runner[name]
    if margin < 0.005:
        return f"as good as {other}"
    if margin < noise:
        return f"level with {other} within the sampling error"
    return f"{margin:.2f} {better} than {other}"


def in_game(attrs: dict[str, Any]) -> str:
    """' in three' (nothing for the standard game)."""
    game = attrs.get("game")
    return "" if game in (None, "standard") else f" in {game}"


def throw_grade_words(discard: str, best: bool, near_tie: bool, loss: float, rank: int) -> str:
    """How a quiz throw did, in words (the discard trainer's grade).

    >>> throw_grade_words("5H 5C", False, False, 11.27, 15)
    'Your throw 5H 5C: 11.270 points behind the best (rank 15 of 15)'
    """
    if best:
        said = "the best throw"
    elif near_tie:
        said = f"a near tie with the best ({loss:.3f} points behind)"
    else:
        said = f"{loss:.3f} points behind the best (rank {rank} of 15)"
    return f"Your throw {discard}: {said}"


def card_grade_words(card: str, is_best: bool, loss: float, best: str) -> str:
    """How a quiz card did, in words (the pegging trainer's grade).

    >>> card_grade_words("7C", False, 3.12, "2C")
    'Your card 7C: 3.120 points of pegging behind 2C'
    """
    said = "the best card" if is_best else f"{loss:.3f} points of pegging behind {best}"
    return f"Your card {card}: {said}"
