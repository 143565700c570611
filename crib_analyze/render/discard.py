"""Text rendering of ``discard``'s ranking: the header of what was assumed, the
variants' lines, and the compact (one role) or wide (both roles) table."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from crib_analyze.render.common import (
    aligned,
    crib_cell,
    loss_cell,
    wrapped,
)

if TYPE_CHECKING:
    from crib_analyze.api import DiscardMeta
    from crib_analyze.results import Rows


def discard_meta(rows: Rows) -> DiscardMeta:
    """The ranking's typed metadata (its words made with the numbers)."""
    from crib_analyze.api import DiscardMeta

    meta = rows.meta
    return meta if isinstance(meta, DiscardMeta) else DiscardMeta()


def discard_text(
    rows: Rows, hand: str, wide: bool = False, verbose: bool = False, hint: bool = True,
    why: bool = False, starters: bool = False,
) -> str:  # fmt: skip
    """A readable ranking: each role's answer in words first, then the throws best first
    in columns that fit 80 (``wide``: every column), numbers to 3 decimals, each role's
    best marked; ``verbose`` adds what was ranked by, the model and its fingerprint."""
    m = discard_meta(rows)
    out = []
    for role, text in m.verdicts.items():
        out += wrapped(text)
        if why:
            for line in m.reasons.get(role, []):
                out += wrapped(line, upper=False, indent="  ")
    if verbose:
        out += [f"{hand}, {m.details[0]}", *m.details[1:]]
    else:
        out += wrapped(f"{hand}, {m.assumed}", upper=False)
    out += [line for text in m.notes for line in wrapped(text, upper=False)]
    out += [_wide_table(rows, m) if wide else _compact_table(rows, m)]
    if starters:
        out += starter_lines(rows["discard"], m.starters, m.need)
    if hint and not (wide or verbose):
        out.append("(--wide: every column; --verbose: the model and how each column is made)")
    return "\n".join(out) + "\n"


def starter_lines(
    discards: Iterable[object], starters: dict[str, dict[str, str]], need: int | None
) -> list[str]:
    """For each throw shown (its name in ``discards``): the starters with which its hand
    is the best of the throws', and those that reach ``need``."""
    out = ["starters (the kept hand's points with each cut):"]
    for d in discards:
        entry = starters.get(str(d))
        if entry is None:
            continue
        text = f"{d}: the best hand with {entry['best']}"
        if need is not None:
            text += f"; {need} or more with {entry['need']}"
        out += wrapped(text, upper=False, indent="  ")
    return out if len(out) > 1 else []


def _compact_table(rows: Rows, m: DiscardMeta) -> str:
    """The throws in columns that fit 80: rank, throw, keep, the role's parts, value and
    loss (with a score: points, the chance of winning or match points, and behind)."""
    role, need, goal = m.role, m.need, m.goal
    pegged = bool(m.pegging)
    near = m.near_tie_points
    value = "total" if pegged else "net"
    heads = ["#", "throw", "keep"]
    if need is not None:
        heads.append(f"P(>={need})")
    if role is None:
        heads += ["dealer", "loss", "pone", "loss"]
    elif goal:
        heads += ["points", "pts #", "P(win)" if goal == "win" else "match pts", "±", "behind"]
    else:
        heads += ["hand", "your crib" if role == "dealer" else "their crib"]
        heads += ["peg"] if pegged else []
        heads += ["penalty"] if m.penalty != "none" else []
        heads += [value, "loss"]
    body = []
    for r in rows.records():
        cells = [str(r["rank"]), str(r["discard"]), str(r["keep"])]
        if need is not None:
            cells.append(f"{r['p_need']:.3f}")
        if role is None:
            for side in ("dealer", "pone"):
                star = "*" if r[f"{side}_best"] else " "
                cells.append(f"{r[f'{side}_{value}']:.2f}" + star)
                cells.append(
                    loss_cell(r[f"{side}_loss"], r[f"{side}_best"], r[f"{side}_loss"] <= near, 2)
                )
        elif goal:
            differs = r["points_rank"] == 1 and r["rank"] != 1
            worth = r["p_win"] if goal == "win" else r["match_points"]
            se = r["p_win_se"] if goal == "win" else r["match_se"]
            cells += [
                f"{r[value]:.2f}",
                str(r["points_rank"]) + ("!" if differs else " "),
                f"{worth:.3f}" if goal == "win" else f"{worth:+.3f}",
                f"{se:.3f}",
                "-" if r["rank"] == 1 else f"{r['goal_loss']:.3f}",
            ]
        else:
            star = "*" if r[f"{role}_best"] else " "
            cells += [f"{r['hand_mean']:.2f}", f"{r['crib_mean']:.2f}"]
            cells += [f"{r['peg_own'] - r['peg_opp']:+.2f}"] if pegged else []
            if m.penalty != "none":
                cells.append(f"{r['penalty']:+.3f}")
            cells += [
                f"{r[value]:.2f}" + star,
                loss_cell(r["loss"], r[f"{role}_best"], r["near_tie"], 2),
            ]
        body.append(cells)
    notes = "\n".join(wrapped(_notes(body, goal, near), upper=False))
    return aligned(heads, body, left={1, 2}) + "\n" + notes


def _notes(body: list[list[str]], goal: str | None, near: float) -> str:
    notes = ["* best by points for that role"] if goal else ["* best for that role"]
    if any(c.endswith("~") for row in body for c in row):
        notes.append(f"~ within {near:g} points of the best: a near tie")
    if goal:
        notes.append("pts # = rank by points")
        if any(c.endswith("!") for row in body for c in row):
            notes.append("! the points ranking's best is not the best from this score")
    return "; ".join(notes)


def _wide_table(rows: Rows, m: DiscardMeta) -> str:
    """Every column of the ranking (``--wide``)."""
    role, need, goal = m.role, m.need, m.goal
    sampled = m.opponent == "sampled"
    near = m.near_tie_points
    pegged = bool(m.pegging)
    zeros = m.penalty != "none" and role is not None
    heads = ["#", "discard", "keep", "hand", "(min-max)"]
    if need is not None:
        heads.append(f"P(>={need})")
    if role is None:
        for side, crib in (("dealer", "your crib"), ("pone", "their crib")):
            heads += [crib, f"{side} net"]
            heads += ["peg", f"{side} total"] if pegged else []
            heads.append("loss")
    else:
        heads += ["your crib" if role == "dealer" else "their crib"]
        heads += ["P(hand 0)", "P(crib 0)", "penalty"] if zeros else []
        heads += ["net"]
        heads += ["peg own", "peg opp", "total"] if pegged else []
        heads.append("loss")
        if goal:
            heads += ["pts #", "P(win)", "P(skunk)", "P(skunked)"]
            heads += ["match pts"] if goal == "match" else []
            heads.append("behind")
    body = []
    for r in rows.records():
        cells = [
            str(r["rank"]),
            str(r["discard"]),
            str(r["keep"]),
            f"{r['hand_mean']:.3f}",
            f"({r['hand_min']}-{r['hand_max']})",
        ]
        if need is not None:
            cells.append(f"{r['p_need']:.3f}")
        if role is None:
            for side in ("dealer", "pone"):
                star = "*" if r[f"{side}_best"] else " "
                cells.append(crib_cell(r[f"{side}_crib_mean"], r[f"{side}_crib_se"], sampled))
                if pegged:
                    peg = r[f"{side}_peg_own"] - r[f"{side}_peg_opp"]
                    cells += [
                        f"{r[f'{side}_net']:.3f}",
                        f"{peg:+.2f}",
                        f"{r[f'{side}_total']:.3f}" + star,
                    ]
                else:
                    cells.append(f"{r[f'{side}_net']:.3f}" + star)
                cells.append(
                    loss_cell(r[f"{side}_loss"], r[f"{side}_best"], r[f"{side}_loss"] <= near)
                )
        else:
            star = "*" if r[f"{role}_best"] else " "
            cells.append(crib_cell(r["crib_mean"], r["crib_se"], sampled))
            if zeros:
                cells += [
                    f"{r['p_hand_zero']:.3f}",
                    f"{r['p_crib_zero']:.3f}",
                    f"{r['penalty']:+.3f}",
                ]
            if pegged:
                cells += [
                    f"{r['net']:.3f}",
                    f"{r['peg_own']:.2f}",
                    f"{r['peg_opp']:.2f}",
                    f"{r['total']:.3f}" + star,
                ]
            else:
                cells.append(f"{r['net']:.3f}" + star)
            cells.append(loss_cell(r["loss"], r[f"{role}_best"], r["near_tie"]))
            if goal:
                differs = r["points_rank"] == 1 and r["rank"] != 1
                cells += [
                    str(r["points_rank"]) + ("!" if differs else " "),
                    f"{r['p_win']:.3f}±{r['p_win_se']:.3f}",
                    f"{r['p_skunk']:.3f}",
                    f"{r['p_skunked']:.3f}",
                ]
                if goal == "match":
                    cells.append(f"{r['match_points']:+.3f}±{r['match_se']:.3f}")
                cells.append(
                    "-" if r["rank"] == 1 else f"{r['goal_loss']:.3f}±{r['goal_loss_se']:.3f}"
                )
        body.append(cells)
    return aligned(heads, body, left={1, 2}) + "\n" + _notes(body, goal, near)
