"""Text renderings of results: readable tables for people, CSV and JSON for programs.

Only formatting lives here; every number comes from the frames it is given.
"""

from __future__ import annotations

import json
import math
from typing import Any

import pandas as pd

from crib_analyze.cards import format_card, format_cards
from crib_analyze.counting import Show


def show_text(show: Show) -> str:
    """The score command's readable output: each combination as a player announces it,
    then the points by category and the total."""
    rules = "crib" if show.crib else "hand"
    lines = [f"{format_cards(show.hand)} + starter {format_card(show.starter)} ({rules} rules)"]
    if show.combinations:
        width = max(len(c.announce) for c in show.combinations)
        for c in show.combinations:
            lines.append(f"  {c.announce:<{width}}  {format_cards(c.cards)}")
    else:
        lines.append("  nineteen (no points)")
    lines.append("  ---")
    for name, points in show.breakdown().items():
        lines.append(f"  {name:<9}{points:>3}")
    if show.heels:
        lines.append(f"heels: {show.heels} to the dealer (at the cut, not part of this hand)")
    return "\n".join(lines) + "\n"


def show_json(show: Show) -> str:
    """The score command's JSON: the combinations (kind, cards, points, running total),
    the points by category, the total, and the dealer's heels for a jack starter."""
    record = (
        {
            "hand": format_cards(show.hand),
            "starter": format_card(show.starter),
            "crib": show.crib,
            "combinations": [c.as_dict() for c in show.combinations],
        }
        | show.breakdown()
        | {"heels": show.heels}
    )
    return json.dumps(record) + "\n"


def frame_csv(frame: pd.DataFrame) -> str:
    """CSV with full float precision (shortest round-trip repr)."""
    return str(frame.to_csv(index=False, lineterminator="\n"))


def frame_json(frame: pd.DataFrame) -> str:
    """A JSON array of row objects; NaN becomes null; floats keep full precision."""
    records = [
        {k: _json_value(v) for k, v in row.items()} for row in frame.to_dict(orient="records")
    ]
    return json.dumps(records, indent=1) + "\n"


def _json_value(v: object) -> object:
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item"):  # numpy scalar
        return _json_value(v.item())
    return v


def discard_header(frame: pd.DataFrame, hand: str) -> str:
    """One line naming the hand, role, opponent model and what 'net' means."""
    a = frame.attrs
    role = a.get("role")
    if role == "dealer":
        who = "dealer: net = hand + crib + heels"
    elif role == "pone":
        who = "pone: net = hand - crib"
    else:
        who = "no role given: both roles shown, ranked by dealer net"
    if a.get("opponent") == "sampled":
        model = (
            f"opponent sampled ({a['samples']} hands throwing by the {a.get('policy')} "
            f"policy, seed {a['seed']}; crib ± 1 s.e.)"
        )
        if a.get("model"):
            model += f"; {a['model']}"
    elif a.get("opponent") == "expert":
        model = f"opponent expert, exact combination; {a.get('model')}"
    else:
        model = "opponent random (exact)"
    return f"{hand} | {who} | {model}"


def discard_table_text(frame: pd.DataFrame, hand: str) -> str:
    """A readable ranking: best first, numbers to 2-3 decimals."""
    role = frame.attrs.get("role")
    sampled = frame.attrs.get("opponent") == "sampled"
    need = frame.attrs.get("need")
    heads = ["#", "discard", "keep", "hand", "(min-max)"]
    if need is not None:
        heads.append(f"P(>={need})")
    if role is None:
        heads += ["dealer crib", "pone crib", "dealer net", "pone net"]
    else:
        heads += ["crib", "net"]
    rows = []
    records: list[dict[str, Any]] = frame.to_dict(orient="records")  # type: ignore[assignment]
    for r in records:
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
            cells += [
                _crib_cell(r["dealer_crib_mean"], r["dealer_crib_se"], sampled),
                _crib_cell(r["pone_crib_mean"], r["pone_crib_se"], sampled),
                f"{r['dealer_net']:.3f}",
                f"{r['pone_net']:.3f}",
            ]
        else:
            net = r["dealer_net"] if role == "dealer" else r["pone_net"]
            cells += [_crib_cell(r["crib_mean"], r["crib_se"], sampled), f"{net:.3f}"]
        rows.append(cells)
    widths = [max(len(h), *(len(row[i]) for row in rows)) for i, h in enumerate(heads)]
    text_cols = {1, 2}  # discard, keep: left-aligned

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in text_cols else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    out = [discard_header(frame, hand)]
    if role in ("dealer", None) and len(frame):
        out.append(f"heels (jack starter, dealer): {frame['heels'].iloc[0]:.3f}, in dealer net")
    out.append(line(heads))
    out.extend(line(row) for row in rows)
    return "\n".join(out) + "\n"


def _crib_cell(mean: float, se: float, sampled: bool) -> str:
    return f"{mean:.3f}±{se:.3f}" if sampled else f"{mean:.3f}"


def crib_table_text(frame: pd.DataFrame) -> str:
    """The 91 rank pairs, readable: pair, crib (all, suited, unsuited), how often thrown."""
    role = frame.attrs.get("role", "?")
    model = frame.attrs.get("opponent", "random")
    source = frame.attrs.get("source", "packaged")
    origin = "the table shipped with crib-analyze" if source == "packaged" else source
    lines = [f"crib value of the discards a {role} chooses ({model} opponent model; {origin})"]
    lines.append(f"{'pair':<5}{'crib':>7}{'suited':>8}{'offsuit':>9}{'thrown %':>10}")

    def num(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.2f}"

    for r in frame.to_dict(orient="records"):
        lines.append(
            f"{r['pair']:<5}{num(r['crib_mean']):>7}{num(r['crib_suited']):>8}"
            f"{num(r['crib_unsuited']):>9}{100 * r['share']:>10.2f}"
        )
    return "\n".join(lines) + "\n"
