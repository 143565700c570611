"""Text renderings of results: readable tables for people, CSV and JSON for programs.

Only formatting lives here; every number comes from the rows it is given. Every result
reaches the renderers as :class:`~crib_analyze.results.Rows` (DataFrames of the API are
turned into rows first), so there is one CSV writer (:func:`rows_csv`) and one JSON
writer (:func:`rows_json`).
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from typing import TYPE_CHECKING, Any

from crib_analyze.cards import format_card, format_cards
from crib_analyze.words import counted

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
        lines.append(f"heels: {show.heels} to the dealer (at the cut, not part of this hand)")
    return "\n".join(lines) + "\n"


def joker_lines(found: Any) -> str:
    """What each joker of a show was counted as, and heels for a joker cut."""
    names = ["the first card", "the second card", "the third card", "the fourth card",
             "the starter"]  # fmt: skip
    lines = [f"JK as {names[i]} counted as {format_card(c)}" for i, c in found.wild]
    if found.starter_is_joker:
        lines.append("heels: 2 to the dealer for the joker cut")
    return "\n".join(lines) + ("\n" if lines else "")


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


def rows_csv(rows: Rows) -> str:
    """CSV of discard rows, as pandas writes it: full precision, empty for NaN."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(rows.columns)
    for record in rows.records():
        writer.writerow(_csv_value(v) for v in record.values())
    return buf.getvalue()


def rows_json(rows: Rows) -> str:
    """A JSON array of row objects; NaN becomes null; floats keep full precision."""
    records = [{k: _json_value(v) for k, v in r.items()} for r in rows.records()]
    return json.dumps(records, indent=1) + "\n"


def _csv_value(v: object) -> object:
    if isinstance(v, float):
        return "" if math.isnan(v) else repr(v)
    return v


def _json_value(v: object) -> object:
    if isinstance(v, float) and math.isnan(v):
        return None
    if hasattr(v, "item"):  # numpy scalar
        return _json_value(v.item())
    return v


def ranking_key(rows: Rows) -> str:
    """In words, what the rows are ranked by."""
    role, sort = rows.attrs.get("role"), rows.attrs.get("sort", "net")
    if rows.attrs.get("goal") == "win":
        return "the chance of winning the game from this score"
    if rows.attrs.get("goal") == "match":
        return f"expected match points ({rows.attrs.get('scoring')} scoring) from this score"
    who = role or "dealer"
    net = {
        "dealer": "dealer net = hand + crib + heels",
        "pone": "pone net = hand - crib",
    }[who]
    if (rows.attrs.get("penalty") or "none") != "none":
        net += " + penalty"
    value = f"{who} total = net + peg" if rows.attrs.get("pegging") else net
    if rows.attrs.get("lowball"):
        value += ", lowest first"
    if sort == "total":
        return f"{value}, {net}"
    if sort == "net":
        return net
    if sort == "hand":
        return f"hand mean (ties by {value})"
    if sort == "crib":
        order = "lowest first" if role == "pone" else "highest first"
        return f"crib, {order} (ties by {value})"
    return f"P(hand >= {rows.attrs.get('need')}), then {value}"


def opponent_line(attrs: dict[str, Any]) -> str:
    """The opponent model in words, with the expert model used."""
    opponent = attrs.get("opponent")
    if opponent == "sampled":
        text = (
            f"opponent: sampled, {attrs['samples']:,} hands throwing by the "
            f"{attrs.get('policy')} policy (seed {attrs['seed']}; crib ± 1 s.e.)"
        )
    elif opponent == "expert":
        text = "opponent: expert (exact combination)"
    else:
        text = "opponent: random (exact)"
    if attrs.get("model"):
        text += f"; {attrs['model']}"
    return text


def discard_text(
    rows: Rows, hand: str, wide: bool = False, verbose: bool = False, hint: bool = True,
    why: bool = False, starters: bool = False,
) -> str:  # fmt: skip
    """A readable ranking: each role's answer in words first, then the throws best first
    in columns that fit 80 (``wide``: every column), numbers to 3 decimals, each role's
    best marked; ``verbose`` adds what was ranked by, the model and its fingerprint."""
    a = rows.attrs
    out = []
    for role, text in a.get("verdicts", {}).items():
        out += _wrapped(text)
        if why:
            for line in a.get("reasons", {}).get(role, []):
                out += _wrapped(line, upper=False, indent="  ")
    out += (
        _discard_header(rows, hand) if verbose else _wrapped(_discard_assumed(a, hand), upper=False)
    )
    out += [line for text in _variant_lines(rows) for line in _wrapped(text, upper=False)]
    out += [_wide_table(rows) if wide else _compact_table(rows)]
    if starters:
        out += _starter_lines(rows)
    if hint and not (wide or verbose):
        out.append("(--wide: every column; --verbose: the model and how each column is made)")
    return "\n".join(out) + "\n"


def _starter_lines(rows: Rows) -> list[str]:
    """For each throw shown: the starters with which its hand is the best of the
    throws', and those that reach ``need``."""
    a = rows.attrs
    per, need = a.get("starters", {}), a.get("need")
    out = ["starters (the kept hand's points with each cut):"]
    for d in rows["discard"]:
        entry = per.get(str(d))
        if entry is None:
            continue
        text = f"{d}: the best hand with {entry['best']}"
        if need is not None:
            text += f"; {need} or more with {entry['need']}"
        out += _wrapped(text, upper=False, indent="  ")
    return out if len(out) > 1 else []


def _wrapped(text: str, width: int = 80, upper: bool = True, indent: str = "") -> list[str]:
    """``text`` in lines of ``width`` at most after ``indent``, the later ones indented
    two more; a capital first."""
    import textwrap

    text = text[:1].upper() + text[1:] if upper else text
    return textwrap.wrap(
        text, width, initial_indent=indent, subsequent_indent=indent + "  ",
        break_long_words=False, break_on_hyphens=False,
    )  # fmt: skip


def wrapped_text(text: str) -> str:
    """A line of prose wrapped to 80 columns (its later lines indented two)."""
    return "\n".join(_wrapped(text, upper=False))


def summary_text(text: str) -> str:
    """A trainer's closing summary, after a blank line, wrapped to 80 columns."""
    return "\n" + "\n".join(_wrapped(text, upper=False))


def retry_text(problem: object, what: str) -> str:
    """A trainer's answer it cannot read: the problem and what to give instead, indented
    under the question and wrapped to 80 columns."""
    return "\n".join(_wrapped(f"{problem}: {what}", upper=False, indent="  "))


def _discard_assumed(a: dict[str, Any], hand: str) -> str:
    """One line: the hand, the opponent, the play, the score."""
    role = a.get("role")
    who = f"as {role}" if role else "both roles"
    opponent = a.get("opponent")
    model = str(a.get("model") or "")
    if opponent == "sampled":
        opponent = f"sampled opponent ({a['samples']:,} hands, {a.get('policy')} policy)"
    else:
        opponent = f"{opponent} opponent"
    if model and not model.startswith("packaged"):
        opponent += f" ({model})"
    words = [f"{hand}, {who}", opponent]
    words.append("the play counted" if a.get("pegging") else "without the play")
    if a.get("goal"):
        mine, theirs = a["score"]
        words.append(f"from {mine}-{theirs}")
    return "; ".join(words)


def _discard_header(rows: Rows, hand: str) -> list[str]:
    """What was ranked by, the model and its fingerprint, heels, the play, the score."""
    a = rows.attrs
    role = a.get("role")
    who = f"as {role}" if role else "both roles"
    out = [f"{hand}, {who}, ranked by {ranking_key(rows)}", opponent_line(a)]
    if role != "pone":
        out.append(
            f"heels: {a.get('heels', 0.0):.3f} (a jack starter gives the dealer 2), in dealer net"
        )
    if a.get("pegging"):
        out.append(f"the play: {a['pegging']}; peg = your pegging minus the opponent's")
    if a.get("goal"):
        mine, theirs = a["score"]
        out.append(
            f"score: you {mine}, opponent {theirs}; each throw's deal simulated "
            f"{a['position_samples']:,} times on shared cards (seed {a['position_seed']}), "
            "then the board table; ± one standard error"
        )
    return out


def _variant_lines(rows: Rows) -> list[str]:
    """A line for each variant in play: what it changes."""
    a = rows.attrs
    role = a.get("role")
    out = []
    penalty = a.get("penalty") or "none"
    if penalty != "none":
        cost = "the opponent scores 1" if penalty == "zero" else "it costs its owner 10"
        zeros = role is not None
        out.append(
            f"{penalty} penalty: a hand or crib of nothing and {cost}; "
            + ("P(0) and the expected penalty in the net" if zeros else "in the nets")
        )
    if a.get("jokers"):
        n = a["jokers"]
        out.append(
            f"jokers: {n} in a {52 + n}-card pack; each counts at its best, in the hand, "
            f"cut or in the crib; heels for a jack or joker cut"
        )
    if a.get("lowball"):
        out.append(
            "lowball: the fewest points is best; ranked lowest first, loss = above the lowest"
        )
    if a.get("throw_fives"):
        forced = sorted({str(f) for f in rows["forced"]} - {""})
        if not forced:
            what = "you hold no five: any throw"
        elif len(forced[0].split()) == 1:
            what = f"you must throw {forced[0]} (the other card is yours)"
        elif len(forced) == 1:
            what = f"you must throw {forced[0]}"
        else:
            what = "you must throw two of your fives: " + ", ".join(forced)
        out.append(f"throw fives: {what}; the opponent throws its fives too (random opponent)")
    return out


def _compact_table(rows: Rows) -> str:
    """The throws in columns that fit 80: rank, throw, keep, the role's parts, value and
    loss (with a score: points, the chance of winning or match points, and behind)."""
    a = rows.attrs
    role, need, goal = a.get("role"), a.get("need"), a.get("goal")
    pegged = bool(a.get("pegging"))
    near = a.get("near_tie_points", 0.0)
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
        heads += ["penalty"] if (a.get("penalty") or "none") != "none" else []
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
                    _loss_cell(r[f"{side}_loss"], r[f"{side}_best"], r[f"{side}_loss"] <= near, 2)
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
            if (a.get("penalty") or "none") != "none":
                cells.append(f"{r['penalty']:+.3f}")
            cells += [
                f"{r[value]:.2f}" + star,
                _loss_cell(r["loss"], r[f"{role}_best"], r["near_tie"], 2),
            ]
        body.append(cells)
    notes = "\n".join(_wrapped(_notes(body, goal, near), upper=False))
    return _aligned(heads, body, left={1, 2}) + "\n" + notes


def _notes(body: list[list[str]], goal: str | None, near: float) -> str:
    notes = ["* best by points for that role"] if goal else ["* best for that role"]
    if any(c.endswith("~") for row in body for c in row):
        notes.append(f"~ within {near:g} points of the best: a near tie")
    if goal:
        notes.append("pts # = rank by points")
        if any(c.endswith("!") for row in body for c in row):
            notes.append("! the points ranking's best is not the best from this score")
    return "; ".join(notes)


def _wide_table(rows: Rows) -> str:
    """Every column of the ranking (``--wide``)."""
    a = rows.attrs
    role, need = a.get("role"), a.get("need")
    sampled = a.get("opponent") == "sampled"
    near = a.get("near_tie_points", 0.0)
    pegged = bool(a.get("pegging"))
    goal = a.get("goal")
    penalty = a.get("penalty") or "none"
    zeros = penalty != "none" and role is not None
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
                cells.append(_crib_cell(r[f"{side}_crib_mean"], r[f"{side}_crib_se"], sampled))
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
                    _loss_cell(r[f"{side}_loss"], r[f"{side}_best"], r[f"{side}_loss"] <= near)
                )
        else:
            star = "*" if r[f"{role}_best"] else " "
            cells.append(_crib_cell(r["crib_mean"], r["crib_se"], sampled))
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
            cells.append(_loss_cell(r["loss"], r[f"{role}_best"], r["near_tie"]))
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
    return _aligned(heads, body, left={1, 2}) + "\n" + _notes(body, goal, near)


def _loss_cell(loss: float, best: bool, close: bool, digits: int = 3) -> str:
    mark = "~" if close and not best else " "
    return ("-" if best else f"{loss:.{digits}f}") + mark


_NEGATIVE_ZERO = re.compile(r"^-(0\.0+)(?![0-9])")


def _aligned(heads: list[str], body: list[list[str]], left: set[int]) -> str:
    """Columns padded to their widths (the ``left`` ones left-aligned); a number that
    rounds to zero is never shown as -0.00."""
    body = [[_NEGATIVE_ZERO.sub(r"\1", c) for c in row] for row in body]
    widths = [max(len(h), *(len(row[i]) for row in body), 0) for i, h in enumerate(heads)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ).rstrip()

    return "\n".join([line(heads), *(line(row) for row in body)])


def _crib_cell(mean: float, se: float, sampled: bool) -> str:
    return f"{mean:.3f}±{se:.3f}" if sampled else f"{mean:.3f}"


def distribution_text(rows: Rows, hand: str) -> str:
    """Per throw, how many of the 46 starters give each hand score, and P(hand >= N)."""
    discards = list(dict.fromkeys(rows["discard"]))
    points = rows["points"]
    seen = sorted({int(p) for p, n in zip(points, rows["starters"], strict=True) if n})
    by = {d: {} for d in discards}  # type: dict[str, dict[int, tuple[int, float]]]
    for r in rows.records():
        by[r["discard"]][r["points"]] = (r["starters"], r["p_at_least"])
    keeps = dict(zip(rows["discard"], rows["keep"], strict=True))
    out = _wrapped(
        f"{hand}: the kept hand's score over the 46 unseen starters, per throw "
        f"(ranked by {ranking_key(rows)})",
        upper=False,
    )
    out.append("starters giving each score:")
    heads = ["discard", "keep", *(str(p) for p in seen)]
    body = [[d, keeps[d], *(str(by[d][p][0] or "") for p in seen)] for d in discards]
    out += _in_blocks(heads, body, fixed=2)
    out.append("P(hand >= N):")
    heads = ["discard", "keep", *(f">={p}" for p in seen)]
    body = [[d, keeps[d], *(f"{by[d][p][1]:.2f}" for p in seen)] for d in discards]
    out += _in_blocks(heads, body, fixed=2)
    return "\n".join(out) + "\n"


def _in_blocks(heads: list[str], body: list[list[str]], fixed: int, width: int = 80) -> list[str]:
    """A table too wide for ``width`` columns as blocks of its columns, one under the
    other, each repeating the first ``fixed`` columns (left-aligned)."""
    sizes = [max(len(h), *(len(row[i]) for row in body)) for i, h in enumerate(heads)]
    base = sum(sizes[:fixed]) + 2 * (fixed - 1)
    blocks: list[list[int]] = [[]]
    used = base
    for i in range(fixed, len(heads)):
        if blocks[-1] and used + 2 + sizes[i] > width:
            blocks.append([])
            used = base
        blocks[-1].append(i)
        used += 2 + sizes[i]
    out = []
    for cols in blocks:
        keep = [*range(fixed), *cols]
        out.append(
            _aligned(
                [heads[i] for i in keep],
                [[row[i] for i in keep] for row in body],
                left=set(range(fixed)),
            )
        )
    return out


def lookup_text(rows: Rows, hand: str) -> str:
    """A hand's rows read from a discard table, as the live analysis shows them: each
    role's answer in words, then the throws best first in 80 columns."""
    a = rows.attrs
    role = a.get("role")
    out = [line for text in a.get("verdicts", {}).values() for line in _wrapped(text)]
    who = f"as {role}" if role else "both roles"
    out += _wrapped(
        f"{hand}, {who}; from {a.get('path')} (hand {a.get('hand_id'):,}, "
        f"{a.get('opponent', '?')} opponent, made by crib-analyze {a.get('version', '?')})",
        upper=False,
    )
    if a.get("unverified"):
        out += _wrapped(unverified_words(a), upper=False)
    value = a.get("value", "net")
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
            cells.append(_loss_cell(r[f"{side}_loss"], bool(best), False, 2))
        body.append(cells)
    out.append(_aligned(heads, body, left={1, 2}))
    out.append("* best for that role")
    return "\n".join(out) + "\n"


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
    totals = rows.attrs.get("totals", {})
    lines = [_aligned(heads, body, left={1, 2, 5})]
    end = "" if rows.attrs.get("complete") else " (so far: the play is not finished)"
    line = ", ".join(f"{seat} {points}" for seat, points in totals.items())
    sides = rows.attrs.get("sides")
    if sides:
        line += "; sides: " + ", ".join(f"{side} {points}" for side, points in sides.items())
    lines.append(line + end)
    return "\n".join(lines) + "\n"


def advice_text(rows: Rows, why: bool = False) -> str:
    """Which card to play: each legal card's expected pegging differential, best first
    (``why``: and what each card scores, leaves and invites)."""
    a = rows.attrs
    lines = _wrapped(a["verdict"])
    first = next(iter(rows.records()))
    if first["value"] == first["value"]:  # not a go: how the values were made
        lines += _wrapped(
            f"{a.get('policy')} policy: {a.get('continuation')}; the opponent's cards "
            f"weighted by {a.get('weighted_by')}",
            upper=False,
        )
    heads = ["card", "pegging +/-", "s.e.", ""]
    body = [
        [
            str(r["card"]),
            f"{r['value']:+.3f}" if r["value"] == r["value"] else "-",
            f"{r['se']:.3f}" if r["se"] == r["se"] else "-",
            f"{a.get('policy')} plays" if r["policy_choice"] else "",
        ]
        for r in rows.records()
    ]
    lines.append(_aligned(heads, body, left={0, 3}))
    if why:
        for card, text in a.get("reasons", {}).items():
            lines += _wrapped(f"{card}: {text}", upper=False, indent="  ")
    return "\n".join(lines) + "\n"


def review_text(rows: Rows) -> str:
    """A graded game: each decision with the best alternative and its loss, the worst
    mistakes, the totals; in 80 columns."""
    a = rows.attrs
    with_win = a.get("total_loss_win") is not None
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
    lines = [_aligned(heads, body, left={1, 2, 3})] if body else ["no decision to grade"]
    note = "lost: expected points below the best"
    if with_win:
        note += (
            "; win %: the chance of winning lost, in percentage points (with the score, the "
            "best throw is the one that wins most)"
        )
    lines += _wrapped(note, upper=False)
    worst = sorted((r for r in records if r["loss"] > 0.005), key=lambda r: -r["loss"])[:3]
    if worst:
        lines.append("worst mistakes:")
        for r in worst:
            cost = f"{r['loss']:.2f} points"
            if with_win and r["loss_win"] == r["loss_win"]:
                cost += f", {100 * r['loss_win']:.1f} percentage points"
            lines += _wrapped(
                f"deal {r['deal']}, {r['situation']}: {r['chosen']} instead of {r['best']}, {cost}",
                upper=False,
                indent="  ",
            )
    total = f"total lost: {a.get('total_loss', 0.0):.2f} points"
    if with_win:
        total += (
            f" and {100 * a['total_loss_win']:.1f} percentage points of the chance of winning "
            "(for a card laid: its points lost times the board's value of a point at the "
            "deal's score)"
        )
    decisions, deals = int(a.get("decisions", 0)), int(a.get("deals", 0))
    total += f", over {counted(decisions, 'decision')} in {counted(deals, 'deal')}"
    lines += _wrapped(total, upper=False)
    return "\n".join(lines) + "\n"


def unverified_words(attrs: dict[str, Any]) -> str:
    """The words of a table read with --trust-unverified."""
    return f"read unchecked (--trust-unverified): the table {attrs.get('unverified')}"


def crib_table_text(rows: Rows) -> str:
    """The 91 rank pairs, readable: pair, crib (all, suited, unsuited), how often thrown."""
    role = rows.attrs.get("role", "?")
    model = rows.attrs.get("opponent", "random")
    source = rows.attrs.get("source", "packaged")
    origin = "the table shipped with crib-analyze" if source == "packaged" else source
    lines = _wrapped(
        f"crib value of the discards a {role} chooses ({model} opponent model; {origin})",
        upper=False,
    )
    if rows.attrs.get("coverage"):
        lines += _wrapped(f"from {rows.attrs['coverage']}", upper=False)
    if rows.attrs.get("unverified"):
        lines += _wrapped(unverified_words(rows.attrs), upper=False)
    lines.append(f"{'pair':<5}{'crib':>7}{'suited':>8}{'offsuit':>9}{'thrown %':>10}")

    def num(x: float) -> str:
        return "-" if math.isnan(x) else f"{x:.2f}"

    for r in rows.records():
        lines.append(
            f"{r['pair']:<5}{num(r['crib_mean']):>7}{num(r['crib_suited']):>8}"
            f"{num(r['crib_unsuited']):>9}{100 * r['share']:>10.2f}"
        )
    return "\n".join(lines) + "\n"


def odds_text(odds: Rows) -> str:
    """How the game ends from a position, one line per seat asked for."""
    rows, provenance = list(odds.records()), odds.attrs
    first = rows[0]
    scoring = first["scoring"]
    chances = " and ".join(
        f"{100 * r['p_win']:.1f}% {'as dealer' if r['dealer'] else 'as pone'}" for r in rows
    )
    both = " (by who deals next)" if len(rows) > 1 else ""
    lines = _wrapped(f"At {first['my_score']}-{first['opp_score']} you win {chances}{both}")
    lines += _wrapped(
        f"you {first['my_score']}, opponent {first['opp_score']}; "
        f"match points: {scoring} scoring ({_scoring_words(scoring)})",
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
    lines.append(_aligned(heads, body, left={0}))
    deals = provenance.get("deals")
    made = f"{deals:,} simulated deals" if isinstance(deals, int) else "simulated deals"
    lines += _wrapped(
        f"board table: {made} (expert throws, {provenance.get('policy', '?')} play), "
        f"Monte Carlo error ~{first['table_error']:.4f} in P(win)",
        upper=False,
    )
    lines += _wrapped(
        "match pts = expected match points won minus lost; your pts = won only; "
        "skunk = the loser under 91 (and double under 61, triple under 31)",
        upper=False,
    )
    return "\n".join(lines) + "\n"


def _scoring_words(scoring: str) -> str:
    from crib_analyze.settings import SCORINGS

    win, skunk, double, _triple = SCORINGS[scoring]  # type: ignore[index]
    if scoring == "lurch":
        return f"{win} a win, {double} a lurch: the loser short of 61"
    words = f"{win} a win, {skunk} a skunk"
    if double != skunk:
        words += f", {double} a double skunk"
    if scoring == "free-triple":
        words += ", a triple skunk wins the match"
    return words


def games_text(stats: dict[str, Any]) -> str:
    """What a run of full games showed, for people."""
    s = stats["settings"]
    a, b = s["players"]
    lines = [
        *_wrapped(stats["verdict"]),
        *_wrapped(f"{stats['games']:,} games, {a} (player 0) vs {b} (player 1)", upper=False),
        f"seed {s['seed']}, {stats['seconds']} s; both play {s['play_policy']}; "
        "games in duplicate pairs",
        _rate_line("first dealer wins", stats, "first_dealer_wins", 4),
        _rate_line("player 0 wins", stats, "player0_wins", 4),
        _rate_line("deals per game", stats, "deals_per_game", 3),
        "points per deal:",
    ]
    per = stats["points_per_deal"]
    names = list(per["dealer"])
    body = [[role, *(f"{per[role][n]:.3f}" for n in names)] for role in ("dealer", "pone")]
    lines.append(_aligned(["", *names], body, left={0}))
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
            f"throws, {s['position_samples']} deals each, goal {s['goal']} ({s['scoring']})"
        )
    return "\n".join(lines) + "\n"


def _rate_line(label: str, stats: dict[str, Any], key: str, digits: int) -> str:
    return f"{label:<20} {stats[key]:.{digits}f} ± {stats[key + '_se']:.{digits}f}"


def game_throws_text(rows: Rows) -> str:
    """A seat's splits in any game, best first: the verdict, a line on what was
    assumed, then one line per split."""
    a = rows.attrs
    sign = "+" if a.get("crib_sign", 1) > 0 else "-"
    lines = [
        *_wrapped(a["verdict"]),
        *_wrapped(
            f"{a.get('game')}, as {a.get('seat')}: the crib is {a.get('crib')} ({sign}); "
            f"{a.get('model')}",
            upper=False,
        ),
    ]
    cols = [c for c in ("keep", "throw", "pass") if c in rows.columns]
    means = [
        c
        for c in ("hand_mean", "partner_mean", "crib_mean", "crib_se", "heels", "net")
        if c in rows.columns
    ]
    heads = [*cols, *("±" if m == "crib_se" else m.removesuffix("_mean") for m in means)]
    body = [[str(r[c]) for c in cols] + [f"{r[m]:.3f}" for m in means] for r in rows.records()]
    lines.append(_aligned(heads, body, left=set(range(len(cols)))))
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
        *_wrapped(stats["verdict"]),
        *_wrapped(
            f"{stats['games']:,} games of {s['game']}, seed {s['seed']}; every seat throws "
            f"by the {s['throws']} and plays {s['play_policy']}",
            upper=False,
        ),
        *(
            _wrapped(
                "lowball: every seat throws and lays for the fewest points; the first side "
                "to the target loses",
                upper=False,
            )
            if s.get("lowball")
            else []
        ),
        "wins by seat in the first deal:",
        _aligned(
            ["", "wins", "±"],
            [[k, f"{v:.4f}", f"{stats['wins_se'][k]:.4f}"] for k, v in stats["wins"].items()],
            left={0},
        ),
        _rate_line("deals per game", stats, "deals_per_game", 3),
        "points per deal by seat:",
    ]
    per = stats["points_per_deal"]
    seats = list(per)
    names = list(per[seats[0]])
    body = [
        [seat, *(f"{per[seat][n]:.3f}" for n in names), f"{stats['points_per_deal_se'][seat]:.3f}"]
        for seat in seats
    ]
    lines.append(_aligned(["", *names, "±"], body, left={0}))
    if not s.get("lowball"):
        lines.append(f"skunks: {100 * stats['skunks']:.2f}% of games (a loser short of the line)")
    if stats["match_points"]:
        words = "2 a win, 3 a skunk" + (", 1 for second place" if s["continuation"] else "")
        mp = ", ".join(f"{k} {v:.3f}" for k, v in stats["match_points"].items())
        lines.append(f"match points a game ({words}), by first-deal seat: {mp}")
    lines.append(f"({stats['seconds']} s)")
    return "\n".join(lines) + "\n"


def game_odds_text(rows: Rows) -> str:
    """Each side's chance of winning from a score in another game, by simulation: the
    verdict, then one line per side."""
    a = rows.attrs
    body = [
        [r["seats"], str(r["score"]), f"{r['win']:.4f}", f"{r['win_se']:.4f}"]
        for r in rows.records()
    ]
    low = f"lowball: the first to {a.get('target')} loses; " if a.get("lowball") else ""
    return (
        "\n".join(_wrapped(rows.attrs["verdict"]))
        + "\n"
        + _aligned(["seats", "score", "P(win)", "±"], body, left={0})
        + "\n"
        + "\n".join(
            _wrapped(
                f"{a['game']}: {low}the dealer about to deal; {a['games']:,} games simulated "
                f"to the end (seed {a['seed']}, {a['play_policy']} play, throws by the hand "
                "policy)",
                upper=False,
            )
        )
        + "\n"
    )


def game_advice_text(rows: Rows) -> str:
    """Which card to lay in any game: the verdict, then each option's side points less
    the others', best first, with what was simulated."""
    a = rows.attrs
    body = [
        [str(r["card"]), f"{r['net']:+.3f}", f"{r['net_se']:.3f}", f"{r['own']:.3f}",
         f"{r['others']:.3f}"]
        for r in rows.records()
    ]  # fmt: skip
    said = _wrapped(rows.attrs["verdict"]) + _wrapped(
        f"{a['game']}, as {a['seat']} at count {a['count']}: {a['model']}", upper=False
    )
    return (
        "\n".join(said)
        + "\n"
        + _aligned(["card", "net", "s.e.", "yours", "others"], body, left={0})
        + "\n"
    )


def auction_text(rows: Rows) -> str:
    """The auction: the best throw owning the crib and not, the crib's worth, the bid."""
    a = rows.attrs
    records = {r["part"]: r for r in rows.records()}
    own, other = records["owner"], records["other"]
    lines = [
        f"owning the crib (you lay second):  throw {own['discard']}, keep {own['keep']}, "
        f"{own['total']:.3f} points",
        f"not owning it (you lead):          throw {other['discard']}, keep {other['keep']}, "
        f"{other['total']:.3f} points",
    ]
    lines += _wrapped(
        f"owning the crib is worth {a['worth']:.2f} points more than not owning it; the "
        f"winner pays its bid and the other nothing, so the break-even bid is half that, "
        f"{a['break_even']:.2f} points: bid up to {int(a['break_even'])} "
        f"({a['opponent']} opponent)",
        upper=False,
    )
    if a.get("score") is not None:
        mine, theirs = a["score"]
        bid = a["bid"]
        lines += _wrapped(
            f"at {mine}-{theirs}: break-even bid {bid} (you owning the crib from "
            f"{mine - bid}-{theirs}: P(win) {own['p_win']:.3f}; the opponent owning it "
            f"from {mine}-{theirs - bid}: {other['p_win']:.3f})"
            if bid
            else f"at {mine}-{theirs}: do not bid (owning the crib wins {own['p_win']:.3f}, "
            f"letting it go {other['p_win']:.3f})",
            upper=False,
        )
    return "\n".join(lines) + "\n"
