"""qperf 0.4.11 ``-vvs tcp_bw tcp_lat`` (seed 001, ``tests/fixtures/qperf/*-vvs-tcp.txt``).

Each test prints ``name:`` then ``    key  =  value unit`` lines: keys padded to the test's
longest key, values right-aligned to its widest value; three significant digits, scaled by
1000 (``2.82 GB/sec`` is bytes, ``43.1 K/sec`` messages), counts below a million exact with
commas and a trailing space.  ``latency`` is real time / messages received by both sides
(half a round trip); the client sends one message more than it receives.
"""

from __future__ import annotations

import math

_TIME = ("ns", "us", "ms", "sec")
_RATE = ("bytes/sec", "KB/sec", "MB/sec", "GB/sec", "TB/sec")
_MSGS = ("/sec", "K/sec", "M/sec", "G/sec")
_BYTES = ("bytes", "KB", "MB", "GB", "TB")


def _scaled(value: float, units: tuple[str, ...]) -> tuple[str, str]:
    i = 0
    while True:
        text = f"{value:.3g}"
        if float(text) >= 1000 and i < len(units) - 1:
            value /= 1000
            i += 1
            continue
        return text, units[i]


def _count(n: int) -> tuple[str, str]:
    if n < 1_000_000:
        return f"{n:,}", ""
    text, _ = _scaled(n / 1e6, ("",))
    return text, "million"


def _block(name: str, rows: list[tuple[str, tuple[str, str]]]) -> list[str]:
    kw = max(len(k) for k, _ in rows)
    vw = max(len(v) for _, (v, _) in rows)
    return [f"{name}:"] + [f"    {k:<{kw}}  =  {v:>{vw}} {u}" for k, (v, u) in rows]


def tcp_bw(time_s: float, bytes_per_s: float, msg_size: int = 65536) -> list[str]:
    sent_msgs = int(bytes_per_s * time_s / msg_size)
    recv_msgs = sent_msgs - int(sent_msgs * 0.0002)
    recv_bytes = recv_msgs * msg_size
    return _block(
        "tcp_bw",
        [
            ("bw", _scaled(recv_bytes / time_s, _RATE)),
            ("msg_rate", _scaled(recv_msgs / time_s, _MSGS)),
            ("send_bytes", _scaled(sent_msgs * msg_size, _BYTES)),
            ("send_msgs", _count(sent_msgs)),
            ("recv_bytes", _scaled(recv_bytes, _BYTES)),
            ("recv_msgs", _count(recv_msgs)),
        ],
    )


def tcp_lat(time_s: float, half_rtt_mean_us: float, msg_size: int = 1) -> list[str]:
    received = int(time_s * 1e6 / half_rtt_mean_us)  # by both sides together
    m = (received + 1) // 2  # loc_send = rem_recv = m; loc_recv = rem_send = m - 1
    received = 2 * m - 1
    latency_ns = time_s * 1e9 / received
    return _block(
        "tcp_lat",
        [
            ("latency", _scaled(latency_ns, _TIME)),
            ("msg_rate", _scaled(received / time_s, _MSGS)),
            ("loc_send_bytes", _scaled(m * msg_size, _BYTES)),
            ("loc_recv_bytes", _scaled((m - 1) * msg_size, _BYTES)),
            ("loc_send_msgs", _count(m)),
            ("loc_recv_msgs", _count(m - 1)),
            ("rem_send_bytes", _scaled((m - 1) * msg_size, _BYTES)),
            ("rem_recv_bytes", _scaled(m * msg_size, _BYTES)),
            ("rem_send_msgs", _count(m - 1)),
            ("rem_recv_msgs", _count(m)),
        ],
    )


def session(
    prompt: str, dst_ip: str, time_s: int, bytes_per_s: float, half_rtt_mean_us: float
) -> str:
    """``qperf <ip> -vvs -t T tcp_bw tcp_lat`` with its prompt line."""
    lines = [f"{prompt}qperf {dst_ip} -vvs -t {time_s} tcp_bw tcp_lat"]
    lines += tcp_bw(time_s, bytes_per_s)
    lines += tcp_lat(time_s, half_rtt_mean_us)
    return "\n".join(lines) + "\n"


def reported_half_rtt_us(time_s: float, half_rtt_mean_us: float) -> float:
    """The latency qperf prints for this run, in µs, before rounding to 3 digits."""
    received = int(time_s * 1e6 / half_rtt_mean_us)
    received = 2 * ((received + 1) // 2) - 1
    return time_s * 1e6 / received if received else math.nan
