"""The timings and sizes quoted in README.md and docs/ are the recorded figures of
``data/costs.json`` (``benchmarks/bench_costs.py --record``), never typed by hand.

A quoted figure sits between markers that name it::

    <!-- cost build-model -->about 3 minutes<!-- /cost -->
    <!-- cost simulate-position 20000 -->about 14 minutes<!-- /cost -->   (20,000 games)
    <!-- size table-expert -->665 MB<!-- /size -->

``--write`` rewrites the text between the markers from the figures (``make docs``);
without it, lists the markers that are out of date and exits 1. tests/test_docs.py
checks them, and that no timing is quoted outside markers.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from crib_analyze.costs import cost, duration_text

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
MARKER = re.compile(
    r"<!-- (?P<kind>cost|size) (?P<name>[a-z-]+)(?: (?P<units>\d+))? -->"
    r"(?P<text>.*?)<!-- /(?P=kind) -->"
)
#: a timing or size as prose quotes one: what must sit inside markers
QUOTED = re.compile(r"(?:about|~) ?[0-9][0-9.,]* ?(?:s|seconds|minutes?|min|hours?|MB|GB)\b")


def figure_text(kind: str, name: str, units: str | None) -> str:
    """What the marker says: a duration as a person says it, or a size."""
    c = cost(name)
    if kind == "size":
        return f"{c.megabytes:,} MB"
    return duration_text(c.seconds * (int(units) if units else 1))


def rewritten(text: str) -> str:
    def fill(m: re.Match[str]) -> str:
        kind, name, units = m["kind"], m["name"], m["units"]
        body = figure_text(kind, name, units)
        head = f"<!-- {kind} {name}{' ' + units if units else ''} -->"
        return f"{head}{body}<!-- /{kind} -->"

    return MARKER.sub(fill, text)


def unmarked(text: str) -> list[str]:
    """Timings and sizes quoted outside the markers."""
    return QUOTED.findall(MARKER.sub("", text))


def main() -> int:
    write = "--write" in sys.argv[1:]
    stale = []
    for page in PAGES:
        if page.name == "cli.md":  # generated from --help, whose figures are the same
            continue
        text = page.read_text()
        new = rewritten(text)
        if new != text:
            stale.append(page.relative_to(ROOT))
            if write:
                page.write_text(new)
    for page in stale:
        print(f"{'rewrote' if write else 'out of date'}: {page}")
    return 0 if write or not stale else 1


if __name__ == "__main__":
    sys.exit(main())
