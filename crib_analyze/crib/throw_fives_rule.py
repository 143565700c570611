"""The throw fives rule on six-card hands: which throws it allows (every five held goes
to the crib, as many as the two slots take), and the value that marks a throw it
forbids so that no best response chooses it.

>>> import numpy as np
>>> legal_throws_of(np.array([[16, 17, 0, 4, 8, 12]])).sum()  # 5C 5D and four more
np.int64(1)
"""

from __future__ import annotations

import numpy as np

from crib_analyze.constants import FIVE_RANK
from crib_analyze.crib.hand_kernels import DISCARDS

FORBIDDEN = -1e9  # the value of a throw the rules forbid: never a best response


def legal_throws_of(cards: np.ndarray) -> np.ndarray:
    """(n, 15) the throws the throw fives rule allows each six-card hand: as many fives
    as the two slots take (every five when there are fewer)."""
    fives = (cards >> 2) == FIVE_RANK
    thrown = fives[:, DISCARDS].sum(axis=2)
    legal: np.ndarray = thrown == np.minimum(fives.sum(axis=1), 2)[:, None]
    return legal
