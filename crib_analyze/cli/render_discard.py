"""Text rendering of ``discard``'s ranking: the header of what was assumed, the
variants' lines, and the compact (one role) or wide (both roles) table."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from crib_analyze.cli.render import (
    aligned,
    crib_cell,
    loss_cell,
    wrapped,
)

if TYPE_CHECKING:
    from crib_analyze.results import Rows


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
        out += wrapped(text)
        if why:
            for line in a.get("reasons", {}).get(role, []):
                out += wrapped(line, upper=False, indent="  ")
    out += (
        _discard_header(rows, hand) if verbose else wrapped(_discard_assumed(a, hand), upper=False)
    )
    out += [line for text in _variant_lines(rows) for line in wrapped(text, upper=False)]
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
        out += wrapped(text, upper=False, indent="  ")
    return out if len(out) > 1 else []


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
            if (a.get("penalty") or "none") != "none":
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
