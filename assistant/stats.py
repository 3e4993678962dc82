"""Small statistics shared by the advisors and the benchmarks: intervals of a win rate and of a mean."""

from __future__ import annotations

import math
from typing import Iterable

import numpy as np


def wilson_interval(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (sound near 0 and 1, unlike the normal approximation)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def mean_interval(values: Iterable[float], z: float = 1.96) -> tuple[float, float, float]:
    """Mean and its 95% normal interval: (mean, low, high)."""
    arr = np.asarray(list(values), dtype=np.float64)
    if arr.size == 0:
        return (float("nan"), float("nan"), float("nan"))
    mean = float(arr.mean())
    half = z * float(arr.std(ddof=1)) / math.sqrt(arr.size) if arr.size > 1 else float("inf")
    return (mean, mean - half, mean + half)
