"""Timing and memory readings shared by the benchmarks: the best of a few runs, as ``timeit``
recommends, a process's resident memory from ``/proc`` (Linux), and the peak memory of a
process with its children (:class:`TreePeak`)."""

from __future__ import annotations

import os
import threading
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
    return _proc_mb(f"/proc/{pid}/status", key)


def _proc_mb(path: str, key: str) -> float | None:
    """The ``key: <n> kB`` line of a ``/proc`` file in MB; None when it or the line is gone."""
    try:
        with open(path) as f:
            for line in f:
                if line.startswith(key + ":"):
                    return int(line.split()[1]) / 1024
    except OSError:
        return None
    return None


def tree_pss_mb(pid: int) -> float:
    """Summed proportional set size (MB) of ``pid`` and every process below it: the memory a
    job holds with its worker processes, shared pages counted once (Linux ``smaps_rollup``)."""
    parent: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    # the command name (field 2) may hold spaces: ppid is 2nd after its ')'
                    parent[int(entry)] = int(f.read().rpartition(")")[2].split()[1])
            except (OSError, ValueError, IndexError):
                continue
    tree, frontier = {pid}, [pid]
    while frontier:
        kids = [p for p, pp in parent.items() if pp in frontier and p not in tree]
        tree.update(kids)
        frontier = kids
    # a process that ended since the listing counts 0
    return sum(_proc_mb(f"/proc/{p}/smaps_rollup", "Pss") or 0.0 for p in tree)


class TreePeak:
    """The largest :func:`tree_pss_mb` of this process seen while the block runs, sampled
    every ``interval`` seconds by a thread (a spike shorter than that can be missed)."""

    def __init__(self, interval: float = 0.25) -> None:
        self.interval, self.peak_mb = interval, 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        pid = os.getpid()
        while True:
            self.peak_mb = max(self.peak_mb, tree_pss_mb(pid))
            if self._stop.wait(self.interval):
                return

    def __enter__(self) -> TreePeak:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()
        self.peak_mb = max(self.peak_mb, tree_pss_mb(os.getpid()))
