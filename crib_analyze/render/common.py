"""Text renderings of results, the pieces every front end shares: readable tables for
people (wrapped lines, aligned columns), CSV and JSON for programs.

Only formatting lives here and in the modules beside it, one per group of results
(:mod:`~crib_analyze.render.hands`, :mod:`~crib_analyze.render.discard`,
:mod:`~crib_analyze.render.play`, :mod:`~crib_analyze.render.board`); every number and
every verdict comes from the rows it is given. Every result reaches the renderers as
:class:`~crib_analyze.results.Rows` (DataFrames of the API are turned into rows first),
so there is one CSV writer (:func:`rows_csv`) and one JSON writer (:func:`rows_json`).
"""

from __future__ import annotations

import io
import json
import math
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from crib_analyze.results import Rows


def rows_csv(rows: Rows) -> str:
    """CSV of discard rows, as pandas writes it: full precision, empty for NaN."""
    import csv  # only when asked for: one-hand text answers start sooner

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


def wrapped(text: str, width: int = 80, upper: bool = True, indent: str = "") -> list[str]:
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
    return "\n".join(wrapped(text, upper=False))


def summary_text(text: str) -> str:
    """A trainer's closing summary, after a blank line, wrapped to 80 columns."""
    return "\n" + "\n".join(wrapped(text, upper=False))


def retry_text(problem: object, what: str) -> str:
    """A trainer's answer it cannot read: the problem and what to give instead, indented
    under the question and wrapped to 80 columns."""
    return "\n".join(wrapped(f"{problem}: {what}", upper=False, indent="  "))


def loss_cell(loss: float, best: bool, close: bool, digits: int = 3) -> str:
    mark = "~" if close and not best else " "
    return ("-" if best else f"{loss:.{digits}f}") + mark


_NEGATIVE_ZERO = re.compile(r"^-(0\.0+)(?![0-9])")


def aligned(heads: list[str], body: list[list[str]], left: set[int]) -> str:
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


def crib_cell(mean: float, se: float, sampled: bool) -> str:
    return f"{mean:.3f}±{se:.3f}" if sampled else f"{mean:.3f}"


def in_blocks(heads: list[str], body: list[list[str]], fixed: int, width: int = 80) -> list[str]:
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
            aligned(
                [heads[i] for i in keep],
                [[row[i] for i in keep] for row in body],
                left=set(range(fixed)),
            )
        )
    return out


def rate_line(label: str, stats: dict[str, Any], key: str, digits: int) -> str:
    return f"{label:<20} {stats[key]:.{digits}f} ± {stats[key + '_se']:.{digits}f}"
