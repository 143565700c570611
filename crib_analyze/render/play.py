"""Text renderings of the play: a scored play, which card to lay (either engine), and a
reviewed game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crib_analyze.render.common import (
    aligned,
    wrapped,
)

if TYPE_CHECKING:
    from crib_analyze.results import Rows


def play_text(rows: Rows) -> str:
    """A scored play: one line per card or go, then each side's total."""
    heads = ["#", "player", "card", "count", "points", "why"]
    body, n = [], 0
    for r in rows.records():
        go = r["card"] == "go"
        n += not go
        body.append(
            [
                "-" if go else str(n),
                str(r["player"]),
                str(r["card"]),
                "" if go else str(r["count"]),
                "" if go else str(r["points"]),
                "" if go else str(r["reason"]),
            ]
        )
    from crib_analyze.api import ScoredPlayMeta

    m = rows.meta if isinstance(rows.meta, ScoredPlayMeta) else ScoredPlayMeta()
    lines = [aligned(heads, body, left={1, 2, 5}), m.verdict]
    return "\n".join(lines) + "\n"


def advice_text(rows: Rows, why: bool = False) -> str:
    """Which card to play: each legal card's expected pegging differential, best first
    (``why``: and what each card scores, leaves and invites)."""
    from crib_analyze.api import PlayMeta

    m = rows.meta if isinstance(rows.meta, PlayMeta) else PlayMeta()
    lines = wrapped(m.verdict)
    first = next(iter(rows.records()))
    if first["value"] == first["value"]:  # not a go: how the values were made
        lines += wrapped(m.method, upper=False)
    lines += [line for note in m.notes for line in wrapped(note, upper=False)]
    odds = "p_win" in rows.columns
    heads = ["card", "pegging +/-", "s.e.", *(["P(win)", "P(skunked)"] if odds else []), ""]
    body = [
        [
            str(r["card"]),
            f"{r['value']:+.3f}" if r["value"] == r["value"] else "-",
            f"{r['se']:.3f}" if r["se"] == r["se"] else "-",
            *([f"{r['p_win']:.4f}", f"{r['p_skunked']:.4f}"] if odds else []),
            f"{m.policy} plays" if r["policy_choice"] else "",
        ]
        for r in rows.records()
    ]
    lines.append(aligned(heads, body, left={0, len(heads) - 1}))
    if why:
        for card, text in m.reasons.items():
            lines += wrapped(f"{card}: {text}", upper=False, indent="  ")
    return "\n".join(lines) + "\n"


def review_text(rows: Rows) -> str:
    """A graded game: each decision with the best alternative and its loss, the worst
    mistakes, the totals; in 80 columns."""
    from crib_analyze.api import ReviewMeta

    m = rows.meta if isinstance(rows.meta, ReviewMeta) else ReviewMeta()
    with_win = m.total_loss_win is not None
    records = list(rows.records())
    heads = ["deal", "decision", "chosen", "best", "lost"]
    if with_win:
        heads.append("win %")
    body = []
    for r in records:
        row = [
            str(r["deal"]),
            str(r["situation"]),
            str(r["chosen"]),
            "=" if r["chosen"] == r["best"] else str(r["best"]),
            f"{r['loss']:.2f}",
        ]
        if with_win:
            row.append("" if r["loss_win"] != r["loss_win"] else f"{100 * r['loss_win']:.1f}")
        body.append(row)
    lines = [aligned(heads, body, left={1, 2, 3})] if body else ["no decision to grade"]
    note = "lost: expected points below the best"
    if with_win:
        note += (
            "; win %: the chance of winning lost, in percentage points (with the score, the "
            "best throw or card is the one that wins most)"
        )
    lines += wrapped(note, upper=False)

    def lost_win(r: dict[str, Any]) -> float:  # NaN (no score for that deal): nothing
        return float(r["loss_win"]) if with_win and r["loss_win"] == r["loss_win"] else 0.0

    # with the score, the chance of winning lost first (a card may peg more and win less)
    mistakes = (r for r in records if r["loss"] > 0.005 or lost_win(r) > 0.0005)
    worst = sorted(mistakes, key=lambda r: (-lost_win(r), -r["loss"]))[:3]
    if worst:
        lines.append("worst mistakes:")
        for r in worst:
            cost = f"{r['loss']:.2f} points"
            if with_win and r["loss_win"] == r["loss_win"]:
                cost += f", {100 * r['loss_win']:.1f} percentage points"
            lines += wrapped(
                f"deal {r['deal']}, {r['situation']}: {r['chosen']} instead of {r['best']}, {cost}",
                upper=False,
                indent="  ",
            )
    lines += wrapped(m.verdict, upper=False)
    return "\n".join(lines) + "\n"


def game_advice_text(rows: Rows) -> str:
    """Which card to lay in any game: the verdict, then each option's side points less
    the others', best first, with what was simulated."""
    from crib_analyze.api import GameAdviceMeta

    m = rows.meta if isinstance(rows.meta, GameAdviceMeta) else GameAdviceMeta()
    odds, skunked = "p_win" in rows.columns, "p_skunked" in rows.columns
    body = [
        [str(r["card"]), f"{r['net']:+.3f}", f"{r['net_se']:.3f}", f"{r['own']:.3f}",
         f"{r['others']:.3f}",
         *([f"{r['p_win']:.4f}", f"{r['gap_se']:.4f}"] if odds else []),
         *([f"{r['p_skunked']:.4f}"] if skunked else [])]
        for r in rows.records()
    ]  # fmt: skip
    said = wrapped(m.verdict) + wrapped(m.assumed, upper=False)
    said += [line for note in m.notes for line in wrapped(note, upper=False)]
    heads = ["card", "net", "s.e.", "yours", "others"]
    if odds:  # the gap's error: each card's chance against the best's, on the same draws
        heads += ["p_win", "gap s.e."] + (["p_skunked"] if skunked else [])
    return "\n".join(said) + "\n" + aligned(heads, body, left={0}) + "\n"
