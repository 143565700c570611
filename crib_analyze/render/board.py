"""Text renderings of the board: the chances from a score (the board table's, or
another game's simulated), and whole simulated games."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from crib_analyze.render.common import (
    aligned,
    rate_line,
    wrapped,
)

if TYPE_CHECKING:
    from crib_analyze.results import Rows


def odds_text(odds: Rows) -> str:
    """How the game ends from a position, one line per seat asked for."""
    from crib_analyze.api import OddsMeta

    m = odds.meta if isinstance(odds.meta, OddsMeta) else OddsMeta()
    rows = list(odds.records())
    first = rows[0]
    scoring = first["scoring"]
    lines = wrapped(m.verdict)
    lines += wrapped(
        f"you {first['my_score']}, opponent {first['opp_score']}; "
        f"match points: {scoring} scoring ({scoring_words(scoring)})",
        upper=False,
    )
    heads = ["", "P(win)", "P(skunk)", "P(skunked)", "match pts", "your pts", "deals left"]
    body = [
        [
            "you deal" if r["dealer"] else "you are pone",
            f"{r['p_win']:.4f}",
            f"{r['p_skunk']:.4f}",
            f"{r['p_skunked']:.4f}",
            f"{r['match_points']:+.3f}",
            f"{r['my_match_points']:.3f}",
            f"{r['deals_left']:.2f}",
        ]
        for r in rows
    ]
    lines.append(aligned(heads, body, left={0}))
    lines += wrapped(
        f"{m.assumed}, Monte Carlo error ~{first['table_error']:.4f} in P(win)", upper=False
    )
    lines += wrapped(
        "match pts = expected match points won minus lost; your pts = won only; "
        "skunk = the loser under 91 (and double under 61, triple under 31)",
        upper=False,
    )
    return "\n".join(lines) + "\n"


def match_words(scoring: str, lines: Sequence[int], lowball: bool) -> str:
    """Another game's match scoring in words: :func:`scoring_words` with its lines, or
    in lowball, where skunks are not counted, the win alone."""
    from crib_analyze.settings import SCORINGS

    if lowball:
        return f"{scoring}: {SCORINGS[scoring][0]} a win; no skunks in lowball"  # type: ignore[index]
    return f"{scoring}: {scoring_words(scoring, lines)}"


def scoring_words(scoring: str, lines: Sequence[int] | None = None) -> str:
    """A match scoring in words (with the loser's ``lines``, when given: skunk, double,
    triple)."""
    from crib_analyze.settings import SCORINGS

    win, skunk, double, _triple = SCORINGS[scoring]  # type: ignore[index]
    first, half, quarter = (f" (the loser short of {n})" for n in lines) if lines else ("",) * 3
    if scoring == "lurch":
        return f"{win} a win, {double} a lurch" + (half or ": the loser short of 61")
    words = f"{win} a win, {skunk} a skunk{first}"
    if double != skunk:
        words += f", {double} a double skunk{half}"
    if scoring == "free-triple":
        words += f", a triple skunk{quarter} wins the match"
    return words


def games_text(stats: dict[str, Any]) -> str:
    """What a run of full games showed, for people."""
    s = stats["settings"]
    a, b = s["players"]
    lines = [
        *wrapped(stats["verdict"]),
        *wrapped(f"{stats['games']:,} games, {a} (player 0) vs {b} (player 1)", upper=False),
        f"seed {s['seed']}, {stats['seconds']} s; both play {s['play_policy']}; "
        "games in duplicate pairs",
        rate_line("first dealer wins", stats, "first_dealer_wins", 4),
        rate_line("player 0 wins", stats, "player0_wins", 4),
        rate_line("deals per game", stats, "deals_per_game", 3),
        "points per deal:",
    ]
    per = stats["points_per_deal"]
    names = list(per["dealer"])
    body = [[role, *(f"{per[role][n]:.3f}" for n in names)] for role in ("dealer", "pone")]
    lines.append(aligned(["", *names], body, left={0}))
    sk = stats["skunks"]
    lines.append(
        f"skunks: {100 * sk['skunk']:.2f}% of games (double {100 * sk['double']:.3f}%, "
        f"triple {100 * sk['triple']:.4f}%)"
    )
    lines.append(
        f"match points ({s['scoring']}), player 0's a game, won less lost: "
        f"{stats['match_points']:+.4f} ± {stats['match_points_se']:.4f}"
    )
    by = stats["decided_by"]
    lines.append(f"decided by 1 point: {100 * by[1]:.2f}%, by 2 points: {100 * by[2]:.2f}%")
    margins = stats["margins"]
    total = sum(margins.values())
    cum, quartiles = 0, list[int]()
    for margin in sorted(margins):
        cum += margins[margin]
        while len(quartiles) < 3 and cum >= total * (len(quartiles) + 1) / 4:
            quartiles.append(margin)
    lines.append(
        f"margin (121 - the loser's score): quartiles {quartiles[0]}, {quartiles[1]}, "
        f"{quartiles[2]}; largest {max(margins)}"
    )
    if "position" in s["players"]:
        lines.append(
            f"position: from {s['position_from']} on either side, {s['candidates']} candidate "
            f"throws, {s['position_samples']} deals each ({stats['position_play']}), goal "
            f"{s['goal']} ({s['scoring']})"
        )
    return "\n".join(lines) + "\n"


def simulated_text(stats: dict[str, Any]) -> str:
    """What a run of whole games showed: the standard game's two-player figures, or
    another game's by seat (as the result's settings name a game or not)."""
    return (game_games_text if "game" in stats["settings"] else games_text)(stats)


def chances_text(rows: Rows) -> str:
    """The chances from a score: the board table's by seat, or another game's by side
    (as the rows hold sides or not)."""
    return (game_odds_text if "seats" in rows.columns else odds_text)(rows)


def game_games_text(stats: dict[str, Any]) -> str:
    """What a run of whole games of another game of the rules showed, for people."""
    s = stats["settings"]
    lines = [
        *wrapped(stats["verdict"]),
        *wrapped(
            f"{stats['games']:,} games of {s['game']}, seed {s['seed']}; every seat throws "
            f"by {s['throws']} and plays {s['play_policy']}",
            upper=False,
        ),
        *(line for words in s.get("variant_rules", ()) for line in wrapped(words, upper=False)),
        "wins by seat in the first deal:",
        aligned(
            ["", "wins", "±"],
            [[k, f"{v:.4f}", f"{stats['wins_se'][k]:.4f}"] for k, v in stats["wins"].items()],
            left={0},
        ),
        rate_line("deals per game", stats, "deals_per_game", 3),
        "points per deal by seat:",
    ]
    per = stats["points_per_deal"]
    seats = list(per)
    names = list(per[seats[0]])
    body = [
        [seat, *(f"{per[seat][n]:.3f}" for n in names), f"{stats['points_per_deal_se'][seat]:.3f}"]
        for seat in seats
    ]
    lines.append(aligned(["", *names, "±"], body, left={0}))
    if not s.get("lowball"):
        first, half, quarter = s["skunk_lines"]
        lines += wrapped(
            f"skunks: {100 * stats['skunks']:.2f}% of games (a loser short of {first}; "
            f"double, short of {half}: {100 * stats['double_skunks']:.3f}%; triple, short "
            f"of {quarter}: {100 * stats['triple_skunks']:.4f}%)",
            upper=False,
        )
    mp = ", ".join(
        f"{k} {v:+.3f} ± {stats['match_points_se'][k]:.3f}"
        for k, v in stats["match_points"].items()
    )
    if s.get("scoring"):  # two sides
        words = match_words(s["scoring"], s["skunk_lines"], bool(s.get("lowball")))
        lines += wrapped(
            f"match points a game ({words}), won less lost, by first-deal seat: {mp}", upper=False
        )
    elif stats["match_points"]:
        words = "2 a win, 3 a skunk" + (", 1 for second place" if s["continuation"] else "")
        lines += wrapped(f"match points a game ({words}), by first-deal seat: {mp}", upper=False)
    if stats.get("second_places"):
        places = ", ".join(
            f"{k} {v:.4f} ± {stats['second_places_se'][k]:.4f}"
            for k, v in stats["second_places"].items()
        )
        lines += wrapped(f"second places by first-deal seat: {places}", upper=False)
    lines.append(f"({stats['seconds']} s)")
    return "\n".join(lines) + "\n"


def game_odds_text(rows: Rows) -> str:
    """Each side's chance of winning from a score in another game, by simulation: the
    verdict, then one line per side."""
    from crib_analyze.api import OddsMeta
    from crib_analyze.rules import skunk_lines

    m = rows.meta if isinstance(rows.meta, OddsMeta) else OddsMeta()
    head = ["seats", "score", "P(win)", "±"]
    body = [
        [r["seats"], str(r["score"]), f"{r['win']:.4f}", f"{r['win_se']:.4f}"]
        for r in rows.records()
    ]
    three = "match_points" in rows.columns and "p_skunked" not in rows.columns
    second = "p_second" in rows.columns
    second_se = "p_second_se" in rows.columns  # simulated

    def second_cell(r: dict[str, Any]) -> list[str]:
        if not second:
            return []
        return [f"{r['p_second']:.4f}" + (f" ± {r['p_second_se']:.4f}" if second_se else "")]

    if three:  # three players
        head += ["P(skunk win)", *(["P(2nd place)"] if second else []), "match pts"]
        for line, r in zip(body, rows.records(), strict=True):
            line += [f"{r['p_skunk']:.4f}", *second_cell(r), f"{r['match_points']:.3f}"]
            if "match_points_se" in rows.columns:
                line[-1] += f" ± {r['match_points_se']:.3f}"
    elif second:  # five players playing on
        head += ["P(2nd place)"]
        for line, r in zip(body, rows.records(), strict=True):
            line += second_cell(r)
    elif "match_points" in rows.columns:  # two sides
        head += ["P(skunk)", "P(skunked)", "match pts"]
        for line, r in zip(body, rows.records(), strict=True):
            line += [f"{r['p_skunk']:.4f}", f"{r['p_skunked']:.4f}", f"{r['match_points']:+.3f}"]
            if "match_points_se" in rows.columns:
                line[-1] += f" ± {r['match_points_se']:.3f}"
    lines = [*wrapped(m.verdict), aligned(head, body, left={0})]
    lines += wrapped(m.assumed, upper=False)
    if m.scoring:
        words = match_words(m.scoring, skunk_lines(m.target), m.lowball)
        lines += wrapped(f"match pts = expected match points won less lost: {words}", upper=False)
    if three:
        how = (", 1 for second place (the other two play on)" if m.continuation
               else " (the winner takes all; no second place)")  # fmt: skip
        lines += wrapped(
            f"match pts = expected match points: 2 a win, 3 a win with a loser short of "
            f"{skunk_lines(m.target)[0]}{how}",
            upper=False,
        )
    elif second:
        lines += wrapped(
            "P(2nd place) = the chance of reaching the target second: the others play on "
            "after the first win",
            upper=False,
        )
    lines += [line for note in m.notes for line in wrapped(note, upper=False)]
    return "\n".join(lines) + "\n"
