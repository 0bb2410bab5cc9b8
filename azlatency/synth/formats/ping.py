"""ping: Linux iputils 20221126 with ``-D``, and Windows ``ping.exe`` in English.

iputils (``tests/fixtures/ping/ping--iputils-20221126-linux-D-c5-timestamps.txt``): a
``[seconds.micros]`` stamp (the time the reply was printed) before each reply; the reply time
in µs precision, printed as iputils' ``gather_statistics`` does — three decimals below 1 ms,
two below 10 ms, one below 100 ms, none above; the statistics from integer µs (``tsum / n``,
``sqrt(tsum2 / n − avg²)``), ``time`` in whole ms from the first send to the last reply.

Windows (``ping--win10-windows-en-*`` fixtures, corpus ``ping--windows-en-*``): CRLF, a blank
line after the command, integer milliseconds (``time=1ms``, ``time<1ms`` below one), TTL 128,
and the summary's minimum / maximum / average in whole ms (integer division).
"""

from __future__ import annotations

import math

import numpy as np


def _iputils_time(us: int) -> str:
    if us >= 100000 - 50:
        return f"{(us + 500) // 1000}"
    if us >= 10000 - 5:
        v = us + 50
        return f"{v // 1000}.{(v % 1000) // 100}"
    if us >= 1000:
        v = us + 5
        return f"{v // 1000}.{(v % 1000) // 10:02d}"
    return f"{us // 1000}.{us % 1000:03d}"


def _ms3(us: int) -> str:
    return f"{us // 1000}.{us % 1000:03d}"


def linux(
    prompt: str,
    dst_ip: str,
    tx_ns: np.ndarray,
    rtt_ns: np.ndarray,
    interval_s: float,
    ttl: int = 64,
) -> str:
    """``ping -D -c N -i I <ip>`` run from a shell prompt, every reply received."""
    n = len(tx_ns)
    us = (rtt_ns // 1000).tolist()  # iputils measures in µs (timeval)
    printed_at = ((tx_ns + rtt_ns) // 1000 + 15).tolist()  # µs; printing takes a few µs
    lines = [
        f"{prompt}ping -D -c {n} -i {interval_s:g} {dst_ip}",
        f"PING {dst_ip} ({dst_ip}) 56(84) bytes of data.",
    ]
    for seq, (t, v) in enumerate(zip(printed_at, us), start=1):
        lines.append(
            f"[{t // 1_000_000}.{t % 1_000_000:06d}] 64 bytes from {dst_ip}: "
            f"icmp_seq={seq} ttl={ttl} time={_iputils_time(v)} ms"
        )
    total = sum(us)
    avg = total // n
    mdev = math.isqrt(max(sum(v * v for v in us) // n - avg * avg, 0))
    elapsed_ms = int((tx_ns[-1] + rtt_ns[-1] - tx_ns[0]) // 1_000_000)
    lines += [
        "",
        f"--- {dst_ip} ping statistics ---",
        f"{n} packets transmitted, {n} received, 0% packet loss, time {elapsed_ms}ms",
        f"rtt min/avg/max/mdev = {_ms3(min(us))}/{_ms3(avg)}/{_ms3(max(us))}/{_ms3(mdev)} ms",
    ]
    return "\n".join(lines) + "\n"


def windows(
    prompt: str, dst_ip: str, rtt_ns: np.ndarray, ttl: int = 128, name: str | None = None
) -> str:
    """``ping -n N <ip>`` (or ``<name>``) in cmd.exe (English), CRLF line ends."""
    ms = (rtt_ns // 1_000_000).tolist()  # whole ms, as ICMP_ECHO_REPLY.RoundTripTime
    n = len(ms)
    target = f"{name} [{dst_ip}]" if name else dst_ip
    lines = [
        f"{prompt}ping -n {n} {name or dst_ip}",
        "",
        f"Pinging {target} with 32 bytes of data:",
    ]
    for v in ms:
        t = "time<1ms" if v < 1 else f"time={v}ms"
        lines.append(f"Reply from {dst_ip}: bytes=32 {t} TTL={ttl}")
    lines += [
        "",
        f"Ping statistics for {dst_ip}:",
        f"    Packets: Sent = {n}, Received = {n}, Lost = 0 (0% loss),",
        "Approximate round trip times in milli-seconds:",
        f"    Minimum = {min(ms)}ms, Maximum = {max(ms)}ms, Average = {sum(ms) // n}ms",
        "",
    ]
    return "\r\n".join(lines) + "\r\n"
