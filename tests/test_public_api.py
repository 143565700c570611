"""The public API reads well at a prompt: ``help(crib_analyze)`` names every public
name, and the records people print are one line.

Mutations tried (each fails a test here): a public name left out of the package's
docstring; the model's repr left to the dataclass (hundreds of lines).
"""

from __future__ import annotations

import crib_analyze as ca


def test_help_names_every_public_name() -> None:
    doc = ca.__doc__ or ""
    missing = [
        n for n in ca.__all__
        if n != "__version__" and f":func:`{n}`" not in doc and f":class:`{n}`" not in doc
    ]  # fmt: skip
    assert missing == []


def test_the_reprs_people_print_are_one_line() -> None:
    for value in (ca.load_model(), ca.analyze_rows("5H 6S 4D JC QH 5C")):
        text = repr(value)
        assert "\n" not in text and len(text) < 200, text[:300]


def test_a_frame_s_text_columns_are_pandas_strings_however_built() -> None:
    """rows_frame's text columns (built from Arrow arrays for speed) are the arrays
    ``pd.array(..., dtype="string")`` gives, missing values as NA; a column that is not
    all text still becomes one, as pandas makes it."""
    import numpy as np
    import pandas as pd

    from crib_analyze.frames import _strings

    text = np.array(["5H 6S", None, "JC QH"], dtype=object)
    got, want = _strings(text), pd.array(text.tolist(), dtype="string")
    assert got.dtype == want.dtype and got.equals(want) and got[1] is pd.NA
    mixed = np.array(["5H", 3], dtype=object)
    assert _strings(mixed).tolist() == pd.array(mixed.tolist(), dtype="string").tolist()
