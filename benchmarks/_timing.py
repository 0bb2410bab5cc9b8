"""Timing shared by the benchmarks: the best of a few runs, as ``timeit`` recommends."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_of(fn: Callable[[], Any], repeat: int = 3) -> tuple[float, Any]:
    """Shortest wall time of ``repeat`` calls of ``fn`` (seconds), and the last result."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result
