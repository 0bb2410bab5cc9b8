"""Timing and memory readings shared by the benchmarks: the best of a few runs, as ``timeit``
recommends, and a process's resident memory from ``/proc`` (Linux)."""

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


def proc_status_mb(key: str = "VmRSS", pid: int | str = "self") -> float | None:
    """The ``key`` line (``VmRSS``, ``VmHWM``) of ``/proc/<pid>/status`` in MB; None when the
    process or the line is gone."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None
