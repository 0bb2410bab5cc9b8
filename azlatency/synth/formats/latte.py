"""latte.exe client with ``-hist``, as a cmd.exe window shows it (CRLF).

Layout from the corpus file ``latte/latte--hist-udp-rio-bom--virtualclient.txt`` (keys padded
to 14 columns, ``CtxSwitch/sec 2164     (0.62/iteration)``, a blank line, then
``Interval(usec)     Frequency`` and one ``%7d      %d`` row per 1-µs bucket from 0 to
``-hc``; the last bucket holds everything at or above it) and seed 002 (the command line after
a ``C:\\Temp>`` prompt).  ``Latency(usec)`` is the mean round trip (no ``-hrtt``).
"""

from __future__ import annotations

import numpy as np


def client(prompt: str, dst_ip: str, port: int, rtt_ns: np.ndarray, buckets: int,
           rng: np.random.Generator) -> str:
    n = len(rtt_ns)
    us = rtt_ns / 1000.0
    mean = float(us.mean())
    per_s = 1e6 / mean
    ctx, sys_, intr = (float(rng.uniform(a, b)) for a, b in ((2.2, 3.0), (6.8, 7.6), (2.0, 2.4)))
    cpu = float(rng.uniform(4.0, 7.0))
    lines = [
        f"{prompt}latte -c -a {dst_ip}:{port} -i {n} -hist -hl 1 -hc {buckets}",
        f"{'Protocol':<14}TCP",
        f"{'SendMethod':<14}Blocking",
        f"{'ReceiveMethod':<14}Blocking",
        f"{'SO_SNDBUF':<14}Default",
        f"{'SO_RCVBUF':<14}Default",
        f"{'MsgSize(byte)':<14}4",
        f"{'Iterations':<14}{n}",
        f"{'Latency(usec)':<14}{mean:.2f}",
        f"{'CPU(%)':<14}{cpu:.1f}",
        f"{'CtxSwitch/sec':<14}{round(per_s * ctx)}     ({ctx:.2f}/iteration)",
        f"{'SysCall/sec':<14}{round(per_s * sys_)}     ({sys_:.2f}/iteration)",
        f"{'Interrupt/sec':<14}{round(per_s * intr)}     ({intr:.2f}/iteration)",
        "",
        "Interval(usec)     Frequency",
    ]
    bucket = np.minimum(rtt_ns // 1000, buckets)
    counts = np.bincount(bucket, minlength=buckets + 1)
    lines += [f"{k:7d}      {c}" for k, c in enumerate(counts.tolist())]
    return "\r\n".join(lines) + "\r\n"
