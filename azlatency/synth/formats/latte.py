"""latte.exe client with ``-hist``, as a cmd.exe window shows it (CRLF).

Layout from the corpus file ``latte/latte--hist-udp-rio-bom--virtualclient.txt`` (keys padded
to 14 columns, ``CtxSwitch/sec 2164     (0.62/iteration)``, a blank line, then
``Interval(usec)     Frequency`` and one ``%7d      %d`` row per 1-µs bucket from 0 to
``-hc``; the last bucket holds everything at or above it) and seed 002 (the command line after
a ``C:\\Temp>`` prompt).  ``Latency(usec)`` is the mean round trip (no ``-hrtt``).
"""

from __future__ import annotations

import numpy as np


def summary_lines(
    protocol: str,
    msg_size: int,
    iterations: int,
    latency_us: float,
    cpu_pct: float,
    counters: dict[str, tuple[int, float]],
) -> list[str]:
    """The key/value block; ``counters`` maps ``CtxSwitch/sec`` etc. to (per s, per iteration)."""
    lines = [
        f"{'Protocol':<14}{protocol}",
        f"{'SendMethod':<14}Blocking",
        f"{'ReceiveMethod':<14}Blocking",
        f"{'SO_SNDBUF':<14}Default",
        f"{'SO_RCVBUF':<14}Default",
        f"{'MsgSize(byte)':<14}{msg_size}",
        f"{'Iterations':<14}{iterations}",
        f"{'Latency(usec)':<14}{latency_us:.2f}",
        f"{'CPU(%)':<14}{cpu_pct:.1f}",
    ]
    lines += [
        f"{key:<14}{per_s}     ({per_iter:.2f}/iteration)"
        for key, (per_s, per_iter) in counters.items()
    ]
    return lines


def histogram_lines(counts: np.ndarray) -> list[str]:
    """``Interval(usec)     Frequency`` and one row per 1-µs bucket."""
    return ["Interval(usec)     Frequency"] + [
        f"{k:7d}      {c}" for k, c in enumerate(counts.tolist())
    ]


def client(
    prompt: str, dst_ip: str, port: int, rtt_ns: np.ndarray, buckets: int, rng: np.random.Generator
) -> str:
    n = len(rtt_ns)
    mean = float((rtt_ns / 1000.0).mean())
    per_s = 1e6 / mean
    ratios = {"CtxSwitch/sec": (2.2, 3.0), "SysCall/sec": (6.8, 7.6), "Interrupt/sec": (2.0, 2.4)}
    counters = {}
    for key, (lo, hi) in ratios.items():
        per_iter = float(rng.uniform(lo, hi))
        counters[key] = (round(per_s * per_iter), per_iter)
    cpu = float(rng.uniform(4.0, 7.0))
    counts = np.bincount(np.minimum(rtt_ns // 1000, buckets), minlength=buckets + 1)
    lines = [
        f"{prompt}latte -c -a {dst_ip}:{port} -i {n} -hist -hl 1 -hc {buckets}",
        *summary_lines("TCP", 4, n, mean, cpu, counters),
        "",
        *histogram_lines(counts),
    ]
    return "\r\n".join(lines) + "\r\n"
