"""iperf 3.12 TCP client: console text and ``-J`` JSON.

Text lines are iperf3's ``report_bw_retrans_cwnd_format`` (``[%3d] %6.2f-%-6.2f sec  %ss  %ss
%3u   %ss       \\n``, trailing spaces included) and the end-of-test sender/receiver lines;
numbers by ``unit_snprintf`` (transfer in 1024-based Bytes, rate in 1000-based bits,
``%4.2f`` below 10, ``%4.1f`` below 100, ``%4.0f`` above).  Checked against iperf 3.12
output captured on this machine and seeds 000/001.

JSON is cJSON's formatted print as iperf 3.12 writes it: tab indents, ``"key":\\tvalue``,
arrays of objects as ``[{ ... }, { ... }]``, numbers as ``%1.15g`` unless that does not read
back exactly (then ``%1.17g``); interval ``seconds`` are single-precision floats widened to
double (``1.0110050439834595``), as iperf stores them.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import UTC, datetime

import numpy as np

_BYTE_UNITS = ("Bytes", "KBytes", "MBytes", "GBytes", "TBytes")
_BIT_UNITS = ("bits", "Kbits", "Mbits", "Gbits", "Tbits")


def unit(value: float, *, bits: bool) -> str:
    """iperf3's ``unit_snprintf`` with the adaptive 'a' (bits, /1000) or 'A' (bytes, /1024)."""
    step, labels = (1000.0, _BIT_UNITS) if bits else (1024.0, _BYTE_UNITS)
    if bits:
        value *= 8
    i = 0
    while value >= step and i < len(labels) - 1:
        value /= step
        i += 1
    fmt = "%4.2f" if value < 9.995 else "%4.1f" if value < 99.95 else "%4.0f"
    return f"{fmt % value} {labels[i]}"


@dataclass(frozen=True)
class Client:
    """One TCP client test (one stream)."""

    src_host: str
    src_ip: str
    src_port: int
    dst_ip: str
    port: int
    start_s: int  # epoch seconds of the test start
    ends: np.ndarray  # interval ends, s since the start (µs resolution)
    bytes: np.ndarray  # bytes sent per interval
    retransmits: np.ndarray
    cwnd: np.ndarray  # bytes
    rtt_us: np.ndarray  # kernel smoothed RTT per interval
    receiver_extra_s: float  # the receiver's end comes this much after the sender's
    receiver_bytes: int  # bytes the receiver counted (at most the bytes sent)
    cookie: str
    time_s: int
    cpu_host: float  # percent, sender side
    cpu_remote: float  # percent, receiver side

    def starts(self) -> np.ndarray:
        return np.concatenate([[0.0], self.ends[:-1]])


def text(run: Client, prompt: str) -> str:
    lines = [
        f"{prompt}iperf3 -c {run.dst_ip} -t {run.time_s}",
        f"Connecting to host {run.dst_ip}, port {run.port}",
        f"[  5] local {run.src_ip} port {run.src_port} connected to {run.dst_ip} port {run.port}",
        "[ ID] Interval           Transfer     Bitrate         Retr  Cwnd",
    ]
    for a, b, n, r, c in zip(
        run.starts().tolist(),
        run.ends.tolist(),
        run.bytes.tolist(),
        run.retransmits.tolist(),
        run.cwnd.tolist(),
    ):
        lines.append(
            f"[  5] {a:6.2f}-{b:<6.2f} sec  {unit(n, bits=False)}  "
            f"{unit(n / (b - a), bits=True)}/sec  {r:3d}   {unit(c, bits=False)}       "
        )
    total, end = int(run.bytes.sum()), float(run.ends[-1])
    rend, got = end + run.receiver_extra_s, run.receiver_bytes
    lines += [
        "- - - - - - - - - - - - - - - - - - - - - - - - -",
        "[ ID] Interval           Transfer     Bitrate         Retr",
        f"[  5] {0:6.2f}-{end:<6.2f} sec  {unit(total, bits=False)}  "
        f"{unit(total / end, bits=True)}/sec  {int(run.retransmits.sum()):3d}"
        "             sender",
        f"[  5] {0:6.2f}-{rend:<6.2f} sec  {unit(got, bits=False)}  "
        f"{unit(got / rend, bits=True)}/sec                  receiver",
        "",
        "iperf Done.",
    ]
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------------------------
# JSON


def _number(x: float | int) -> str:
    if isinstance(x, bool):
        return "true" if x else "false"
    if isinstance(x, int):
        return str(x)
    text = f"{x:.15g}"
    if float(text) != x:
        text = f"{x:.17g}"
    return text


def cjson(value, depth: int = 0) -> str:
    """cJSON_Print (formatted) of ``value``."""
    if isinstance(value, dict):
        if not value:
            return "{\n" + "\t" * depth + "}"
        items = [
            ("\t" * (depth + 1)) + json.dumps(k) + ":\t" + cjson(v, depth + 1)
            for k, v in value.items()
        ]
        return "{\n" + ",\n".join(items) + "\n" + "\t" * depth + "}"
    if isinstance(value, list):
        return "[" + ", ".join(cjson(v, depth + 1) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, bool | int | float):
        return _number(value)
    raise TypeError(f"cannot print {type(value).__name__}")


def _f32(x: float) -> float:
    return float(np.float32(x))


def document(run: Client, system_info: str) -> dict:
    """The ``iperf3 -J`` document of one client run (keys in iperf 3.12's order)."""
    starts, ends = run.starts(), run.ends
    intervals = [
        _interval(a, b, n, r, c, t)
        for a, b, n, r, c, t in zip(
            starts.tolist(),
            ends.tolist(),
            run.bytes.tolist(),
            run.retransmits.tolist(),
            run.cwnd.tolist(),
            run.rtt_us.tolist(),
        )
    ]
    return {
        "start": _start(run, system_info),
        "intervals": intervals,
        "end": _end(run, float(ends[-1])),
    }


_INTERVAL_SUM = (
    "start",
    "end",
    "seconds",
    "bytes",
    "bits_per_second",
    "retransmits",
    "omitted",
    "sender",
)


def _interval(a: float, b: float, n: int, r: int, c: int, t: int) -> dict:
    """One interval of a one-stream test: the stream and its sum."""
    secs = _f32(b - a)
    stream = {
        "socket": 5,
        "start": a,
        "end": b,
        "seconds": secs,
        "bytes": n,
        "bits_per_second": n * 8 / secs,
        "retransmits": r,
        "snd_cwnd": c,
        "snd_wnd": 3145728,
        "rtt": t,
        "rttvar": max(1, t // 6),
        "pmtu": 1500,
        "omitted": False,
        "sender": True,
    }
    return {"streams": [stream], "sum": {k: stream[k] for k in _INTERVAL_SUM}}


def _start(run: Client, system_info: str) -> dict:
    """The ``start`` section: connection, version, host and test parameters."""
    stamp = datetime.fromtimestamp(run.start_s, UTC).strftime("%a, %d %b %Y %H:%M:%S GMT")
    return {
        "connected": [
            {
                "socket": 5,
                "local_host": run.src_ip,
                "local_port": run.src_port,
                "remote_host": run.dst_ip,
                "remote_port": run.port,
            }
        ],
        "version": "iperf 3.12",
        "system_info": system_info,
        "timestamp": {"time": stamp, "timesecs": run.start_s},
        "connecting_to": {"host": run.dst_ip, "port": run.port},
        "cookie": run.cookie,
        "tcp_mss_default": 1448,
        "target_bitrate": 0,
        "sock_bufsize": 0,
        "sndbuf_actual": 16384,
        "rcvbuf_actual": 131072,
        "test_start": {
            "protocol": "TCP",
            "num_streams": 1,
            "blksize": 131072,
            "omit": 0,
            "duration": run.time_s,
            "bytes": 0,
            "blocks": 0,
            "reverse": 0,
            "tos": 0,
            "target_bitrate": 0,
        },
    }


def _end(run: Client, end: float) -> dict:
    """The ``end`` section: sender and receiver totals, CPU and congestion control."""
    total_bytes = int(run.bytes.sum())
    rend = round(end + run.receiver_extra_s, 6)
    sent = {
        "socket": 5,
        "start": 0,
        "end": end,
        "seconds": end,
        "bytes": total_bytes,
        "bits_per_second": total_bytes * 8 / end,
        "retransmits": int(run.retransmits.sum()),
        "max_snd_cwnd": int(run.cwnd.max()),
        "max_snd_wnd": 3145728,
        "max_rtt": int(run.rtt_us.max()),
        "min_rtt": int(run.rtt_us.min()),
        "mean_rtt": int(run.rtt_us.mean()),
        "sender": True,
    }
    got = run.receiver_bytes
    received = {
        "socket": 5,
        "start": 0,
        "end": rend,
        "seconds": end,
        "bytes": got,
        "bits_per_second": got * 8 / rend,
        "sender": True,
    }
    return {
        "streams": [{"sender": sent, "receiver": dict(received, seconds=end)}],
        "sum_sent": {
            k: v for k, v in sent.items() if not k.startswith(("max", "min", "mean", "socket"))
        },
        "sum_received": {
            **{k: v for k, v in received.items() if k != "socket"},
            "seconds": rend,
        },
        "cpu_utilization_percent": {
            "host_total": run.cpu_host,
            "host_user": run.cpu_host * 0.04,
            "host_system": run.cpu_host * 0.96,
            "remote_total": run.cpu_remote,
            "remote_user": run.cpu_remote * 0.03,
            "remote_system": run.cpu_remote * 0.97,
        },
        "sender_tcp_congestion": "cubic",
        "receiver_tcp_congestion": "cubic",
    }


def json_text(run: Client, system_info: str) -> str:
    doc = document(run, system_info)
    if not math.isfinite(doc["end"]["sum_sent"]["bits_per_second"]):
        raise ValueError("a zero-length test")
    return cjson(doc) + "\n"
