"""The ``crib-analyze`` command line: a thin layer over :mod:`crib_analyze.api`.

:mod:`~crib_analyze.cli.app` (the group and its errors), :mod:`~crib_analyze.cli.options`
(shared options), one module per group of commands; the output is laid out by
:mod:`crib_analyze.render` (text, CSV and JSON from result rows).
"""

from __future__ import annotations

from crib_analyze.cli.app import cli, main

__all__ = ["cli", "main"]
