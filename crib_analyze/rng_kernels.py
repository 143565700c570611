"""A small deterministic random stream for kernels: splitmix64, one stream per index.

Every deal, game or sample draws from its own stream ``rng_for(seed, index)``, so a seed
gives the same results however many threads (or machines) share the work.
"""

from __future__ import annotations

import numpy as np

from crib_analyze.jit import njit


@njit(inline="always")
def rng_next(state: np.ndarray) -> int:
    """splitmix64 step: advance ``state[0]`` and return 63 random bits."""
    state[0] = (state[0] + np.uint64(0x9E3779B97F4A7C15)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = state[0]
    z = ((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = ((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)) & np.uint64(0xFFFFFFFFFFFFFFFF)
    z = z ^ (z >> np.uint64(31))
    return int(z >> np.uint64(1))


@njit(inline="always")
def rng_uniform(state: np.ndarray) -> float:
    return (rng_next(state) >> 10) / 9007199254740992.0  # 53 bits in [0, 1)


@njit
def rng_for(seed: int, index: int) -> np.ndarray:
    """The stream of deal ``index`` under ``seed``."""
    state = np.empty(1, np.uint64)
    state[0] = np.uint64(seed) * np.uint64(0x2545F4914F6CDD1D) + np.uint64(index)
    rng_next(state)
    return state
