"""Text renderings of a hand's results: its show (and jokers), the distribution of its
kept hands, a table lookup, the crib tables, the auction, and another game's splits."""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING

from crib_analyze.cards import format_card, format_cards
from crib_analyze.render.common import (
    aligned,
    in_blocks,
    loss_cell,
    wrapped,
)
from crib_analyze.render.discard import discard_meta, starter_lines

if TYPE_CHECKING:
    from crib_analyze.results import Rows
    from crib_analyze.scoring.show import Show


def show_text(show: Show) -> str:
    """The score command's readable output: each combination as a player announces it,
    then the points by category and the total."""
    rules = "crib" if show.crib else "hand"
    lines = [f"{format_cards(show.hand)} + starter {format_card(show.starter)} ({rules} rules)"]
    calls = show.calls()
    if calls:
        width = max(len(words) for words, _ in calls)
        for words, cards in calls:
            lines.append(f"  {words:<{width}}  {format_cards(cards)}")
    else:
        lines.append("  nineteen (no points)")
    lines.append("  ---")
    for name, points in show.breakdown().items():
        lines.append(f"  {name:<9}{points:>3}")
    if show.heels:
        cut = " for the joker cut" if show.starter_is_joker else ""
        lines.append(f"heels: {show.heels} to the dealer{cut} (at the cut, not part of this hand)")
    return "\n".join(lines) + "\n"


def joker_lines(found: Show) -> str:
    """What each joker of a show was counted as."""
    names = ["the first card", "the second card", "the third card", "the fourth card",
             "the starter"]  # fmt: skip
    lines = [f"JK as {names[i]} counted as {format_card(c)}" for i, c in found.wild]
    return "\n".join(lines) + ("\n" if lines else "")


def show_json(show: Show) -> str:
    """The score command's JSON: the combinations (kind, cards, points, running total),
    the points by category, the total, the dealer's heels for a jack (or joker) starter,
    and with jokers what each was counted as (its place among the five, the starter last)."""
    jokers = [{"place": i, "counted_as": format_card(c)} for i, c in show.wild]
    record = (
        {
            "hand": format_cards(show.hand),
            "starter": format_card(show.starter),
            "crib": show.crib,
            "combinations": [c.as_dict() for c in show.combinations],
        }
        | show.breakdown()
        | {"heels": show.heels}
        | ({"jokers": jokers} if jokers else {})
    )
    return json.dumps(record) + "\n"


def distribution_text(rows: Rows, hand: str) -> str:
    """Per throw, how many of the unseen starters give each hand score, and P(hand >=
    N) (the standard game's ranking, or a seat's splits in another game)."""
    from crib_analyze.api import GameThrowsMeta

    discards = list(dict.fromkeys(rows["discard"]))
    points = rows["points"]
    seen = sorted({int(p) for p, n in zip(points, rows["starters"], strict=True) if n})
    by = {d: {} for d in discards}  # type: dict[str, dict[int, tuple[int, float]]]
    for r in rows.records():
        by[r["discard"]][r["points"]] = (r["starters"], r["p_at_least"])
    keeps = dict(zip(rows["discard"], rows["keep"], strict=True))
    unseen = sum(by[discards[0]][p][0] for p in by[discards[0]])
    m = rows.meta
    ranked = (
        f"{m.game}, as {m.seat}; ranked by net" if isinstance(m, GameThrowsMeta)
        else f"ranked by {discard_meta(rows).ranked_by}"
    )  # fmt: skip
    out = wrapped(
        f"{hand}: the kept hand's score over the {unseen} unseen starters, per throw ({ranked})",
        upper=False,
    )
    out.append("starters giving each score:")
    heads = ["discard", "keep", *(str(p) for p in seen)]
    body = [[d, keeps[d], *(str(by[d][p][0] or "") for p in seen)] for d in discards]
    out += in_blocks(heads, body, fixed=2)
    out.append("P(hand >= N):")
    heads = ["discard", "keep", *(f">={p}" for p in seen)]
    body = [[d, keeps[d], *(f"{by[d][p][1]:.2f}" for p in seen)] for d in discards]
    out += in_blocks(heads, body, fixed=2)
    return "\n".join(out) + "\n"


def lookup_text(rows: Rows, hand: str) -> str:
    """A hand's rows read from a discard table, as the live analysis shows them: each
    role's answer in words, then the throws best first in 80 columns."""
    from crib_analyze.api import LookupMeta

    m = rows.meta if isinstance(rows.meta, LookupMeta) else LookupMeta()
    role = m.role
    out = [line for text in m.verdicts.values() for line in wrapped(text)]
    who = f"as {role}" if role else "both roles"
    out += wrapped(f"{hand}, {who}; {m.source}", upper=False)
    out += [line for note in m.notes for line in wrapped(note, upper=False)]
    value = m.value
    heads = ["#", "throw", "keep"]
    if role is None:
        heads += ["dealer", "loss", "pone", "loss"]
    else:
        crib = "dealer_crib_mean" if "dealer_crib_mean" in rows.columns else "crib_mean"
        if role == "pone" and "pone_crib_mean" in rows.columns:
            crib = "pone_crib_mean"
        heads += ["hand", "your crib" if role == "dealer" else "their crib"]
        heads += ["peg"] if value == "total" else []
        heads += [value, "loss"]
    body = []
    for r in rows.records():
        cells = [str(r["rank"]), str(r["discard"]), str(r["keep"])]
        sides = ["dealer", "pone"] if role is None else [role]
        if role is not None:
            cells += [f"{r['hand_mean']:.2f}", f"{r[crib]:.2f}"]
            cells += [f"{r[f'{role}_peg_net']:+.2f}"] if value == "total" else []
        for side in sides:
            best = r[f"{side}_best_total" if value == "total" else f"{side}_best"]
            cells.append(f"{r[f'{side}_{value}']:.2f}" + ("*" if best else " "))
            cells.append(loss_cell(r[f"{side}_loss"], bool(best), False, 2))
        body.append(cells)
    out.append(aligned(heads, body, left={1, 2}))
    out.append("* best for that role")
    return "\n".join(out) + "\n"


def crib_table_text(rows: Rows) -> str:
    """The 91 rank pairs, readable: pair, crib (all, suited, unsuited), how often thrown."""
    from crib_analyze.api import CribTableMeta

    m = rows.meta if isinstance(rows.meta, CribTableMeta) else CribTableMeta()
    lines = wrapped(m.heading, upper=False)
    if m.coverage:
        lines += wrapped(f"from {m.coverage}", upper=False)
    lines += [line for note in m.notes for line in wrapped(note, upper=False)]
    lines.append(f"{'pair':<5}{'crib':>7}{'suited':>8}{'offsuit':>9}{'thrown %':>10}")

    def num(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.2f}"

    for r in rows.records():
        lines.append(
            f"{r['pair']:<5}{num(r['crib_mean']):>7}{num(r['crib_suited']):>8}"
            f"{num(r['crib_unsuited']):>9}{100 * r['share']:>10.2f}"
        )
    return "\n".join(lines) + "\n"


def auction_text(rows: Rows) -> str:
    """The auction: the best throw owning the crib and not, the crib's worth, the bid."""
    from crib_analyze.api import AuctionMeta

    m = rows.meta if isinstance(rows.meta, AuctionMeta) else AuctionMeta()
    records = {r["part"]: r for r in rows.records()}
    own, other = records["owner"], records["other"]
    lines = [
        f"owning the crib (you lay second):  throw {own['discard']}, keep {own['keep']}, "
        f"{own['total']:.3f} points",
        f"not owning it (you lead):          throw {other['discard']}, keep {other['keep']}, "
        f"{other['total']:.3f} points",
    ]
    lines += wrapped(m.verdict_words, upper=False)
    if m.score_words is not None:
        lines += wrapped(m.score_words, upper=False)
    return "\n".join(lines) + "\n"


def game_throws_text(rows: Rows, starters: bool = False) -> str:
    """A seat's splits in any game, best first: the verdict, a line on what was
    assumed, then one line per split (and with ``starters``, each split's cuts)."""
    from crib_analyze.api import GameThrowsMeta

    m = rows.meta if isinstance(rows.meta, GameThrowsMeta) else GameThrowsMeta()
    lines = [*wrapped(m.verdict), *wrapped(m.assumed, upper=False)]
    lines += [line for note in m.notes for line in wrapped(note, upper=False)]
    cols = [c for c in ("keep", "throw", "pass") if c in rows.columns]
    shown = ("hand_mean", "p_need", "partner_mean", "crib_mean", "crib_se", "penalty",
             "heels", "net", "peg", "peg_se", "total", "p_win", "p_win_se")  # fmt: skip
    means = [c for c in shown if c in rows.columns]
    said = {"crib_se": "±", "p_win_se": "±", "p_win": "P(win)", "p_need": "P(need)",
            "peg_se": "±"}  # fmt: skip
    heads = [*cols, *(said.get(m, m.removesuffix("_mean")) for m in means)]
    body = [[str(r[c]) for c in cols] + [f"{r[m]:.3f}" for m in means] for r in rows.records()]
    lines.append(aligned(heads, body, left=set(range(len(cols)))))
    if starters:
        names = [r["throw"] + (f" / {r['pass']}" if "pass" in r else "") for r in rows.records()]
        lines += starter_lines(names, m.starters, m.need)
    return "\n".join(lines) + "\n"
