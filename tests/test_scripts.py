"""The scripts beside the package (benchmarks/, docs/, tools/) import only names the
package has: a module moved or a function renamed breaks them here, not months later.

Mutations checked: importing ``hand_pegging`` from its old module in a benchmark fails.
"""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = sorted(p for d in ("benchmarks", "docs", "tools") for p in (ROOT / d).glob("*.py"))


def imported_names(path: Path) -> list[tuple[str, str | None]]:
    """(module, name) of every crib_analyze import in the script, at any depth."""
    out: list[tuple[str, str | None]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("crib_analyze"):
            out += [(node.module or "", alias.name) for alias in node.names]
        elif isinstance(node, ast.Import):
            out += [(a.name, None) for a in node.names if a.name.startswith("crib_analyze")]
    return out


@pytest.mark.parametrize("script", SCRIPTS, ids=[f"{p.parent.name}/{p.name}" for p in SCRIPTS])
def test_the_script_imports_what_exists(script: Path) -> None:
    for module, name in imported_names(script):
        mod = importlib.import_module(module)
        if name is not None and not hasattr(mod, name):
            importlib.import_module(f"{module}.{name}")  # a submodule, or ImportError
